#include "text.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cards.h"

void text_quote(const char *text, size_t n, char *out, size_t cap)
{
    size_t j = 0;
    for (size_t i = 0; i < n && text[i] && j + 1 < cap; i++) {
        unsigned char c = (unsigned char)text[i];
        out[j++] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
    }
    if (cap)
        out[j] = '\0';
}

int text_error(char *err, size_t errlen, const char *fmt, const char *text)
{
    char shown[48];
    text_quote(text, 40, shown, sizeof shown);
    return text_fail(err, errlen, fmt, shown);
}

int text_fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

char *text_trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        s[--n] = '\0';
    return s;
}

int text_tokenize(const char *text, text_tokens_t *tk)
{
    tk->n = 0;
    if (strlen(text) >= sizeof tk->buf)
        return -1;
    strcpy(tk->buf, text);
    char *save = NULL;
    for (char *w = strtok_r(tk->buf, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
        if (tk->n == TEXT_MAX_TOKENS)
            return -1;
        tk->t[tk->n++] = w;
    }
    return tk->n;
}

int text_int(const char *s, int lo, int hi, int *out)
{
    /* Digits only, after an optional '-': strtol alone would take spaces, '+' and "0x". */
    const char *digits = *s == '-' ? s + 1 : s;
    if (!*digits || strspn(digits, "0123456789") != strlen(digits))
        return -1;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (*end || errno || v < lo || v > hi)
        return -1;
    *out = (int)v;
    return 0;
}

int text_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
    /* Digits only: strtoull alone would take spaces and '+', and wrap "-1" to 2^64 - 1. */
    if (!*s || strspn(s, "0123456789") != strlen(s))
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (*end || errno || v < lo || v > hi)
        return -1;
    *out = (uint64_t)v;
    return 0;
}

int text_real(const char *s, double lo, double hi, double *out)
{
    if (!*s || strspn(s, "0123456789.-+eE") != strlen(s))
        return -1;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (*end || errno || !isfinite(v) || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

int text_card(const char *s, int *out)
{
    int c = card_parse(s, strlen(s));
    if (c == CARD_NONE)
        return -1;
    *out = c;
    return 0;
}

int text_bad_event(const text_tokens_t *tk, const char *word, char *err, size_t errlen)
{
    uint64_t seen = 0;
    for (int i = 1; i < tk->n; i++) {
        int c;
        if (text_card(tk->t[i], &c) < 0)
            continue;
        if (seen & cardset_of(c))
            return text_fail(err, errlen, "card %s twice in '%s' event", tk->t[i], word);
        seen |= cardset_of(c);
    }
    return text_fail(err, errlen, "malformed '%s' event", word);
}

int text_cards(const text_tokens_t *tk, int from, uint64_t *out)
{
    *out = 0;
    for (int i = from; i < tk->n; i++) {
        int c;
        if (text_card(tk->t[i], &c) < 0 || cardset_has(*out, c))
            return -1;
        *out |= cardset_of(c);
    }
    return 0;
}
