/* measure: the project's one clock and one confidence interval, for every layer (searches'
 * deadlines, the arena's clocks and logs, the tools' and benches' timings and figures).
 */
#ifndef PICKET_MEASURE_H
#define PICKET_MEASURE_H

/* Seconds on the monotonic clock (CLOCK_MONOTONIC): only differences mean anything. */
double measure_now(void);

/* The mean of n values from their sum and sum of squares, and the half-width of its 95%
 * interval by the normal approximation (1.96 standard errors, the sample variance with n - 1).
 * n < 2 gives a half-width of 0: the caller says what one value is worth. */
void measure_interval(double sum, double sumsq, double n, double *mean, double *half);

#endif
