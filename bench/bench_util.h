/* bench_util: what every bench program times with, and its -version. Header only. */
#ifndef PICKET_BENCH_UTIL_H
#define PICKET_BENCH_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lines.h"
#include "measure.h"

#ifndef PICKET_VERSION
#define PICKET_VERSION "unknown"
#endif

/* qsort's order for doubles, for medians. */
static inline int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static inline void bench_check_stdout(void) { lines_check_stdout("bench"); }

/* -version (or --version) anywhere on the command line: prints "bench/NAME VERSION", returns 1.
 * Every bench calls it first: it also makes output that cannot be written an error. */
static inline int bench_version(int argc, char **argv, const char *name)
{
    atexit(bench_check_stdout);
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-version") || !strcmp(argv[i], "--version")) {
            printf("bench/%s %s\n", name, PICKET_VERSION);
            return 1;
        }
    return 0;
}

/* A hash step, for signatures that fold in the moves a search chose. */
static inline uint64_t bench_mix(uint64_t h, uint64_t x)
{
    h ^= x + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdull;
}

#endif
