#include "measure.h"

#include <math.h>
#include <time.h>

double measure_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void measure_interval(double sum, double sumsq, double n, double *mean, double *half)
{
    *mean = n > 0 ? sum / n : 0.0;
    *half = 0.0;
    if (n < 2)
        return;
    double var = (sumsq - sum * *mean) / (n - 1);
    *half = var > 0 ? 1.96 * sqrt(var / n) : 0.0;
}
