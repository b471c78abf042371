/* proto: the picket text protocol's shared pieces (docs/protocol.md), for both sides: the engine
 * session and the client that drives an engine process.
 *
 * Lines are read from a file descriptor through a bounded reader: a line longer than
 * PROTO_MAX_LINE bytes is skipped whole (never buffered) and reported, a NUL byte is reported,
 * and no input can make the reader crash or grow.
 */
#ifndef PICKET_PROTO_H
#define PICKET_PROTO_H

#include <stddef.h>
#include <stdio.h>

#include "game.h"
#include "options.h"

#define PROTO_NAME "picket-protocol"
enum { PROTO_VERSION = 1, PROTO_MAX_LINE = 65536, PROTO_MAX_TOKENS = 128 };

typedef enum {
    PROTO_LINE = 1,       /* a whole line, newline stripped (and a trailing \r) */
    PROTO_TOO_LONG = -2,  /* a line over PROTO_MAX_LINE bytes was skipped */
    PROTO_HAS_NUL = -3,   /* a line held a NUL byte */
    PROTO_EOF = -1,       /* end of input */
    PROTO_AGAIN = 0       /* no whole line yet (non-blocking read only) */
} proto_status_t;

typedef struct proto_reader {
    int fd;
    int eof;
    int skipping;          /* inside an overlong line */
    int nul;               /* the line being read holds a NUL */
    size_t len;
    char buf[PROTO_MAX_LINE + 1];
} proto_reader_t;

void proto_reader_init(proto_reader_t *r, int fd);
/* Next line into out (cap >= PROTO_MAX_LINE + 1). block: wait for input; else return
 * PROTO_AGAIN when no whole line is buffered or readable now. timeout_ms < 0 waits forever. */
proto_status_t proto_read_line(proto_reader_t *r, char *out, int timeout_ms);

/* Split a line into words (in place); returns the count, or -1 if there are more than max. */
int proto_split(char *line, char **words, int max);


/* A reply line: "=ID text" or "?ID text" (ID omitted when id is NULL). Flushed. */
void proto_reply(FILE *out, const char *id, int ok, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Any other line (handshake, info, data), flushed. */
void proto_line(FILE *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Client side: classify a line from an engine. A reply sets *ok (1 '=', 0 '?'), *id (-1 none)
 * and *text (after the id and one space) and returns 1; any other line returns 0. */
int proto_parse_reply(const char *line, int *ok, long *id, const char **text);

/* Option declarations (search/options.h): one table prints the handshake and checks setoption.
 * "option name N type T default D [min A max B] [var V]..." for each option. */
void proto_print_options(FILE *out, const opt_def_t *opts, int n);

#endif
