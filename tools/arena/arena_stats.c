#include "arena_stats.h"

#include <math.h>

double stats_elo(double score)
{
    const double eps = 1e-6;
    if (score < eps)
        score = eps;
    if (score > 1 - eps)
        score = 1 - eps;
    return -400.0 * log10(1.0 / score - 1.0);
}

double stats_score(double elo) { return 1.0 / (1.0 + pow(10.0, -elo / 400.0)); }

/* Mean and variance of the unit scores (0, 1/2, 1). */
static void moments(const score_counts_t *c, long *n, double *mean, double *var)
{
    static const double value[3] = { 0.0, 0.5, 1.0 };
    *n = c->n[0] + c->n[1] + c->n[2];
    *mean = *var = 0;
    if (*n == 0)
        return;
    for (int i = 0; i < 3; i++)
        *mean += value[i] * (double)c->n[i];
    *mean /= (double)*n;
    for (int i = 0; i < 3; i++)
        *var += (value[i] - *mean) * (value[i] - *mean) * (double)c->n[i];
    *var /= (double)*n;
}

void stats_summarize(const score_counts_t *c, score_summary_t *out)
{
    long n;
    double mean, var;
    moments(c, &n, &mean, &var);
    out->units = n;
    out->score = mean;
    double se = n > 0 ? sqrt(var / (double)n) : 0;
    out->score_lo = mean - 1.959964 * se;
    out->score_hi = mean + 1.959964 * se;
    out->elo = stats_elo(mean);
    out->elo_lo = stats_elo(out->score_lo);
    out->elo_hi = stats_elo(out->score_hi);
    if (n == 0)
        out->los = 0.5;
    else if (se == 0)
        out->los = mean > 0.5 ? 1.0 : mean < 0.5 ? 0.0 : 0.5;
    else
        out->los = 0.5 * erfc(-(mean - 0.5) / (se * sqrt(2.0)));
}

double stats_sprt_llr(const score_counts_t *c, const sprt_t *t)
{
    long n;
    double mean, var;
    moments(c, &n, &mean, &var);
    if (n < 2 || var <= 0)
        return 0.0;
    /* Normal approximation of the GSPRT: LLR = n (s1 - s0) (2 mean - s0 - s1) / (2 var). */
    double s0 = stats_score(t->elo0), s1 = stats_score(t->elo1);
    return (double)n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var);
}

double stats_sprt_lower(const sprt_t *t) { return log(t->beta / (1 - t->alpha)); }
double stats_sprt_upper(const sprt_t *t) { return log((1 - t->beta) / t->alpha); }
