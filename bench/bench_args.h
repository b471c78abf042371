/* bench_args: the command line every bench shares, its options declared in a table: -version
 * anywhere; then, in order, --help and the bench's options, each but a flag taking the next
 * argument as its value. Numbers are read strictly (text_u64: digits only, no wrap), except by
 * the two kinds that keep the looser reading some benches have always had (BENCH_ATOI,
 * BENCH_COUNT). */
#ifndef PICKET_BENCH_ARGS_H
#define PICKET_BENCH_ARGS_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "text.h"

typedef enum {
    BENCH_FLAG,  /* int, set to 1; takes no value */
    BENCH_U64,   /* uint64_t from lo to hi */
    BENCH_INT,   /* int from lo to hi */
    BENCH_ATOI,  /* int whose atoi is from lo to hi (what follows the digits is ignored) */
    BENCH_COUNT, /* uint64_t from 1 up, as strtoull reads it (leading spaces and '+' taken) */
    BENCH_SHARE, /* double strictly between 0 and 1 */
    BENCH_TEXT   /* const char *, that ok accepts where ok is given */
} bench_kind_t;

/* An option; name NULL: the one argument that is not an option (a BENCH_TEXT, taken while its
 * place is still NULL). */
typedef struct bench_opt {
    const char *name;
    bench_kind_t kind;
    void *dst;
    uint64_t lo, hi;
    int (*ok)(const char *value);
} bench_opt_t;

/* An option's value into its place: 0, or -1 (nothing stored) if the value is bad. */
static inline int bench_opt_set(const bench_opt_t *o, const char *v)
{
    uint64_t u;
    double x;
    char *end;
    switch (o->kind) {
    case BENCH_FLAG:
        *(int *)o->dst = 1;
        return 0;
    case BENCH_U64:
        return text_u64(v, o->lo, o->hi, o->dst);
    case BENCH_INT:
        if (text_u64(v, o->lo, o->hi, &u) < 0)
            return -1;
        *(int *)o->dst = (int)u;
        return 0;
    case BENCH_ATOI:
        if (atoi(v) < 0 || (uint64_t)atoi(v) < o->lo || (uint64_t)atoi(v) > o->hi)
            return -1;
        *(int *)o->dst = atoi(v);
        return 0;
    case BENCH_COUNT:
        errno = 0;
        u = strtoull(v, &end, 10);
        if (!*v || *v == '-' || *end || errno || u == 0)
            return -1;
        *(uint64_t *)o->dst = u;
        return 0;
    case BENCH_SHARE:
        if (text_real(v, 0, 1, &x) < 0 || x <= 0 || x >= 1)
            return -1;
        *(double *)o->dst = x;
        return 0;
    default:
        if (o->ok && !o->ok(v))
            return -1;
        *(const char **)o->dst = v;
        return 0;
    }
}

#define BENCH_NOPTS(opts) ((int)(sizeof(opts) / sizeof((opts)[0])))

/* -1 to go on; else the exit status: 0 after -version (--version; anywhere on the command line:
 * "bench/NAME VERSION") or --help (-h; usage printed as it is), 2 after a bad option or value
 * ("NAME: bad option 'X' (see --help)" on stderr). Every bench calls it first: it also makes
 * output that cannot be written an error. */
static inline int bench_args(int argc, char **argv, const char *name, const char *usage, const bench_opt_t *opts,
                             int nopts)
{
    atexit(bench_check_stdout);
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-version") || !strcmp(argv[i], "--version")) {
            printf("bench/%s %s\n", name, PICKET_VERSION);
            return 0;
        }
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(usage, stdout);
            return 0;
        }
        const bench_opt_t *o = opts;
        while (o < opts + nopts &&
               (o->name ? strcmp(argv[i], o->name) != 0 : argv[i][0] == '-' || *(const char **)o->dst))
            o++;
        int ok = o < opts + nopts;
        if (ok && (!o->name || o->kind == BENCH_FLAG))
            ok = bench_opt_set(o, argv[i]) == 0;
        else if (ok) {
            ok = i + 1 < argc && bench_opt_set(o, argv[i + 1]) == 0;
            i += ok;
        }
        if (!ok) {
            fprintf(stderr, "%s: bad option '%s' (see --help)\n", name, argv[i]);
            return 2;
        }
    }
    return -1;
}

#endif
