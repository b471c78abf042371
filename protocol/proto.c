#include "proto.h"

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void proto_reader_init(proto_reader_t *r, int fd)
{
    memset(r, 0, sizeof *r);
    r->fd = fd;
}

/* Take a whole line out of the buffer if there is one. */
static proto_status_t take_line(proto_reader_t *r, char *out)
{
    char *nl = memchr(r->buf, '\n', r->len);
    if (!nl)
        return PROTO_AGAIN;
    size_t n = (size_t)(nl - r->buf);
    int skipped = r->skipping, nul = r->nul || memchr(r->buf, '\0', n) != NULL;
    if (!skipped) {
        memcpy(out, r->buf, n);
        if (n && out[n - 1] == '\r')
            n--;
        out[n] = '\0';
    }
    memmove(r->buf, nl + 1, r->len - (size_t)(nl - r->buf) - 1);
    r->len -= (size_t)(nl - r->buf) + 1;
    r->skipping = 0;
    r->nul = 0;
    if (skipped)
        return PROTO_TOO_LONG;
    return nul ? PROTO_HAS_NUL : PROTO_LINE;
}

proto_status_t proto_read_line(proto_reader_t *r, char *out, int timeout_ms)
{
    for (;;) {
        proto_status_t st = take_line(r, out);
        if (st != PROTO_AGAIN)
            return st;
        if (r->len == PROTO_MAX_LINE + 1 || (r->skipping && r->len)) {
            /* No newline in a full buffer: the line is too long; drop what we have. */
            r->nul = 0;
            r->skipping = 1;
            r->len = 0;
        }
        if (r->eof) {
            if (r->len == 0 && !r->skipping)
                return PROTO_EOF;
            /* A last line without its newline still counts. */
            r->buf[r->len++] = '\n';
            continue;
        }
        if (timeout_ms >= 0) {
            struct pollfd p = { r->fd, POLLIN, 0 };
            int rc = poll(&p, 1, timeout_ms);
            if (rc == 0)
                return PROTO_AGAIN;
            if (rc < 0 && errno != EINTR)
                return PROTO_EOF;
            if (rc < 0)
                continue;
        }
        ssize_t got = read(r->fd, r->buf + r->len, PROTO_MAX_LINE + 1 - r->len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            r->eof = 1;
            continue;
        }
        r->len += (size_t)got;
    }
}

int proto_split(char *line, char **words, int max)
{
    int n = 0;
    char *p = line;
    while (*p) {
        while (*p == ' ' || *p == '\t')
            *p++ = '\0';
        if (!*p)
            break;
        if (n == max)
            return -1;
        words[n++] = p;
        while (*p && *p != ' ' && *p != '\t')
            p++;
    }
    return n;
}

/* The rest of a line: fmt, the newline, and a flush. */
static void line_end(FILE *out, const char *fmt, va_list ap)
{
    vfprintf(out, fmt, ap);
    fputc('\n', out);
    fflush(out);
}

void proto_reply(FILE *out, const char *id, int ok, const char *fmt, ...)
{
    va_list ap;
    fprintf(out, "%c%s%s", ok ? '=' : '?', id ? id : "", fmt && *fmt ? " " : "");
    va_start(ap, fmt);
    line_end(out, fmt ? fmt : "", ap);
    va_end(ap);
}

void proto_line(FILE *out, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    line_end(out, fmt, ap);
    va_end(ap);
}

int proto_parse_reply(const char *line, int *ok, long *id, const char **text)
{
    if (line[0] != '=' && line[0] != '?')
        return 0;
    *ok = line[0] == '=';
    const char *p = line + 1;
    *id = -1;
    if (*p >= '0' && *p <= '9') {
        char *end;
        *id = strtol(p, &end, 10);
        p = end;
    }
    if (*p == ' ')
        p++;
    else if (*p)
        return 0;
    *text = p;
    return 1;
}

/* ---------------------------------------------------------------- options */

void proto_print_options(FILE *out, const opt_def_t *opts, int n)
{
    for (int i = 0; i < n; i++) {
        const opt_def_t *o = &opts[i];
        fprintf(out, "option name %s type %s default %s", o->name, OPT_TYPE_NAMES[o->type],
                o->def[0] ? o->def : "<empty>");
        if (o->type == OPT_SPIN || o->type == OPT_FLOAT) {
            char lo[OPT_NUMBER_LEN], hi[OPT_NUMBER_LEN];
            opt_format_number(o->min, o->type, lo, sizeof lo);
            opt_format_number(o->max, o->type, hi, sizeof hi);
            fprintf(out, " min %s max %s", lo, hi);
        }
        for (int v = 0; o->type == OPT_COMBO && v < OPT_MAX_VARS && o->vars[v]; v++)
            fprintf(out, " var %s", o->vars[v]);
        fputc('\n', out);
    }
    fflush(out);
}
