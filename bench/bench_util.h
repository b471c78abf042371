/* bench_util: what every bench program times with. Header only. */
#ifndef PICKET_BENCH_UTIL_H
#define PICKET_BENCH_UTIL_H

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

#endif
