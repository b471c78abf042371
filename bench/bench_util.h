/* bench_util: what every bench program times and signs with. Header only. */
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

/* Output that could not be written is an error (bench_args registers it). */
static inline void bench_check_stdout(void) { lines_check_stdout("bench"); }

/* A hash step, for signatures that fold in the moves a search chose. */
static inline uint64_t bench_mix(uint64_t h, uint64_t x)
{
    h ^= x + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdull;
}

#endif
