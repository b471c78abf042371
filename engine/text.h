/* text: strict, bounded readers of text from outside, shared by every layer: a quoted copy for
 * messages, words of a line, whole and real numbers, a card. None can crash or overflow on any
 * byte sequence, and a number is the whole text or nothing.
 */
#ifndef PICKET_TEXT_H
#define PICKET_TEXT_H

#include <stddef.h>
#include <stdint.h>

/* Copy at most n bytes of untrusted text for an error message: printable ASCII only, other
 * bytes shown as '?'. */
void text_quote(const char *text, size_t n, char *out, size_t cap);
/* An error about untrusted text into err: fmt with the text quoted (40 bytes, as text_quote) as
 * its one %s. Returns -1, for `return text_error(...)`. */
int text_error(char *err, size_t errlen, const char *fmt, const char *text);
/* A one-line reason into err, printf-style. Returns -1, for `return text_fail(...)`. */
int text_fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Strip leading and trailing spaces and tabs in place: the start of what is left. */
char *text_trim(char *s);

/* Words of a text separated by spaces or tabs (every game's notation): the count, or -1 if the
 * text is longer than the buffer or has more than TEXT_MAX_TOKENS. */
enum { TEXT_MAX_TOKENS = 64 };
typedef struct text_tokens {
    char buf[1024];
    char *t[TEXT_MAX_TOKENS];
    int n;
} text_tokens_t;
int text_tokenize(const char *text, text_tokens_t *tk);
/* A whole decimal number in [lo, hi]: an optional '-' and digits, nothing else (no space, '+',
 * point or exponent): 0, or -1. */
int text_int(const char *s, int lo, int hi, int *out);
/* A whole number in [lo, hi] of digits only (no sign: "-1" is refused, never wrapped), one that
 * fits 64 bits: 0, or -1. Every count, seed and limit read from outside goes through it. */
int text_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *out);
/* A finite decimal number in [lo, hi]: digits, sign, point and exponent only (strtod alone would
 * take "nan", "inf", hex and leading spaces): 0, or -1. */
int text_real(const char *s, double lo, double hi, double *out);
/* One card ("AS", "10H"): 0, or -1. */
int text_card(const char *s, int *out);
/* The cards of words from..n of tk as a set (a bit a card, as cards.h): each a card, none twice.
 * 0, or -1. */
int text_cards(const text_tokens_t *tk, int from, uint64_t *out);
/* An event line that does not parse: "card X twice in 'WORD' event" where one of its words
 * repeats a card, else "malformed 'WORD' event". Always -1. */
int text_bad_event(const text_tokens_t *tk, const char *word, char *err, size_t errlen);

#endif
