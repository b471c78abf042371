#include "proto.h"

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *const OPT_TYPE_NAMES[5] = { "spin", "float", "check", "combo", "string" };

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

void proto_reply(FILE *out, const char *id, int ok, const char *fmt, ...)
{
    va_list ap;
    fputc(ok ? '=' : '?', out);
    if (id)
        fputs(id, out);
    if (fmt && *fmt) {
        fputc(' ', out);
        va_start(ap, fmt);
        vfprintf(out, fmt, ap);
        va_end(ap);
    }
    fputc('\n', out);
    fflush(out);
}

void proto_line(FILE *out, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(out, fmt, ap);
    va_end(ap);
    fputc('\n', out);
    fflush(out);
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

static void print_number(FILE *out, double v, opt_type_t t)
{
    if (t == OPT_SPIN)
        fprintf(out, "%.0f", v);
    else
        fprintf(out, "%g", v);
}

void proto_print_options(FILE *out, const opt_def_t *opts, int n)
{
    for (int i = 0; i < n; i++) {
        const opt_def_t *o = &opts[i];
        fprintf(out, "option name %s type %s default %s", o->name, OPT_TYPE_NAMES[o->type],
                o->def[0] ? o->def : "<empty>");
        if (o->type == OPT_SPIN || o->type == OPT_FLOAT) {
            fputs(" min ", out);
            print_number(out, o->min, o->type);
            fputs(" max ", out);
            print_number(out, o->max, o->type);
        }
        for (int v = 0; o->type == OPT_COMBO && v < 8 && o->vars[v]; v++)
            fprintf(out, " var %s", o->vars[v]);
        fputc('\n', out);
    }
    fflush(out);
}

int proto_set_option(const opt_def_t *opts, int n, void *ctx, const char *name, const char *value,
                     char *err, size_t errlen)
{
    char shown[48];
    for (int i = 0; i < n; i++) {
        const opt_def_t *o = &opts[i];
        if (strcmp(o->name, name) != 0)
            continue;
        game_quote(value, 40, shown, sizeof shown);
        char *end;
        switch (o->type) {
        case OPT_SPIN:
        case OPT_FLOAT: {
            errno = 0;
            double v = strtod(value, &end);
            if (!*value || *end || errno || v < o->min || v > o->max || (o->type == OPT_SPIN && v != (double)(long long)v)) {
                snprintf(err, errlen, "option %s: '%s' is not %s from %g to %g", name, shown,
                         o->type == OPT_SPIN ? "a whole number" : "a number", o->min, o->max);
                return -1;
            }
            break;
        }
        case OPT_CHECK:
            if (strcmp(value, "true") != 0 && strcmp(value, "false") != 0) {
                snprintf(err, errlen, "option %s: '%s' is not true or false", name, shown);
                return -1;
            }
            break;
        case OPT_COMBO: {
            int found = 0;
            for (int v = 0; v < 8 && o->vars[v]; v++)
                found |= strcmp(o->vars[v], value) == 0;
            if (!found) {
                snprintf(err, errlen, "option %s: '%s' is not one of its values", name, shown);
                return -1;
            }
            break;
        }
        case OPT_STRING:
            break;
        }
        return o->set(ctx, value, err, errlen);
    }
    game_quote(name, 40, shown, sizeof shown);
    snprintf(err, errlen, "unknown option '%s'", shown);
    return -1;
}

int proto_reset_options(const opt_def_t *opts, int n, void *ctx, char *err, size_t errlen)
{
    for (int i = 0; i < n; i++)
        if (opts[i].set(ctx, opts[i].def, err, errlen) < 0)
            return -1;
    return 0;
}
