#include "arena_stats.h"

#include <math.h>
#include <stdio.h>

/* The two-sided 95% quantile of the normal distribution. */
#define Z95 1.959963984540054

/* Bisection steps: enough to exhaust a double's precision on any interval used here. */
#define BISECT_STEPS 200

double arena_stats_score(double elo) { return 1.0 / (1.0 + pow(10.0, -elo / 400.0)); }

/* ---------------------------------------------------------------- three-point distributions */

/* Units observed on three values v[0] = 0 < v[1] < v[2] = 1, weight w[i] >= 0 at v[i] (a count,
 * or a fractional count for arena_stats_mean_interval). Pairs: v = 0, 1/2, 1 and w = the counts. */
typedef struct support3 {
    double w[3], v[3];
} support3_t;

static double weight(const support3_t *d) { return d->w[0] + d->w[1] + d->w[2]; }

static double mean(const support3_t *d) { return (d->w[1] * d->v[1] + d->w[2] * d->v[2]) / weight(d); }

static support3_t from_counts(const arena_score_counts_t *c)
{
    support3_t d = { { 0, 0, 0 }, { 0.0, 0.5, 1.0 } };
    for (int i = 0; i < 3; i++)
        d.w[i] = c->n[i] > 0 ? (double)c->n[i] : 0.0;
    return d;
}

/* The derivative in lambda of sum w_i log(1 + lambda (v_i - s)) (empty cells add nothing). */
static double dual_slope(const support3_t *d, double s, double lambda)
{
    double g = 0;
    for (int i = 0; i < 3; i++)
        if (d->w[i] > 0)
            g += d->w[i] * (d->v[i] - s) / (1 + lambda * (d->v[i] - s));
    return g;
}

/* The maximum-likelihood distribution p on the three values with mean s (0 < s < 1), given the
 * weights: maximise sum w_i log p_i subject to sum p_i = 1, sum p_i v_i = s, p_i >= 0. Its
 * Lagrange form is p_i = w_i / (n (1 + lambda (v_i - s))) for the observed cells, lambda
 * maximising the concave sum w_i log(1 + lambda (v_i - s)) over -1/(1-s) <= lambda <= 1/s, where
 * every 1 + lambda (v_i - s) stays >= 0 (fishtest's MLE, Proposition 1.1 of Van den Bergh's
 * "support_MLE_multinomial", there over the observed values only). Taking the range over all
 * three values, observed or not, is what keeps it defined when a cell is empty: when the
 * maximum is at an end of the range, the mass the observed cells leave goes to the cell at 0
 * (lambda = 1/s) or at 1 (lambda = -1/(1-s)), whose factor is zero there. E.g. every unit won:
 * p = (1 - s, 0, s). Returns lambda. */
static double restricted_mle(const support3_t *d, double s, double p[3])
{
    double lo = -1 / (1 - s), hi = 1 / s, lambda;
    int end = 0; /* -1: lambda at lo, the leftover to v = 1; +1: at hi, to v = 0 */
    if (d->w[2] <= 0 && dual_slope(d, s, lo) <= 0)
        lambda = lo, end = -1;
    else if (d->w[0] <= 0 && dual_slope(d, s, hi) >= 0)
        lambda = hi, end = 1;
    else {
        /* The slope falls from > 0 at lo to < 0 at hi (+-infinity at an observed end). */
        double a = lo, b = hi;
        for (int k = 0; k < BISECT_STEPS; k++) {
            double mid = 0.5 * (a + b);
            if (mid <= a || mid >= b)
                break;
            if (dual_slope(d, s, mid) > 0)
                a = mid;
            else
                b = mid;
        }
        lambda = 0.5 * (a + b);
    }
    double n = weight(d), left = 1;
    for (int i = 0; i < 3; i++) {
        p[i] = d->w[i] > 0 ? d->w[i] / (n * (1 + lambda * (d->v[i] - s))) : 0;
        left -= p[i];
    }
    if (end && left > 0)
        p[end < 0 ? 2 : 0] += left;
    return lambda;
}

/* Variance of one unit under the maximum-likelihood distribution with mean s. */
static double restricted_variance(const support3_t *d, double s)
{
    if (s <= 0 || s >= 1)
        return 0; /* only a point mass has mean 0 or 1 */
    double p[3], var = 0;
    restricted_mle(d, s, p);
    for (int i = 0; i < 3; i++)
        var += p[i] * (d->v[i] - s) * (d->v[i] - s);
    return var;
}

/* Whether s is inside the score interval: n (m - s)^2 <= z^2 var(s). */
static int score_test_accepts(const support3_t *d, double m, double s)
{
    return weight(d) * (m - s) * (m - s) <= Z95 * Z95 * restricted_variance(d, s);
}

/* One end of the interval by bisection between acc (accepted) and rej (rejected): the last accepted. */
static double score_edge(const support3_t *d, double m, double acc, double rej)
{
    for (int k = 0; k < BISECT_STEPS; k++) {
        double mid = 0.5 * (acc + rej);
        if (mid <= (acc < rej ? acc : rej) || mid >= (acc < rej ? rej : acc))
            break;
        if (score_test_accepts(d, m, mid))
            acc = mid;
        else
            rej = mid;
    }
    return acc;
}

/* The 95% score interval of the mean (Wilson's interval, generalised): the means s that a
 * score test at s does not reject, the unit's variance taken under the maximum-likelihood
 * distribution with mean s rather than the observed one. It contains m, since the test accepts
 * s = m; s = 0 and s = 1 (no variance) are rejected unless m is that end; each end is found by
 * bisection between m and 0 or 1. */
static void score_interval(const support3_t *d, double *lo, double *hi)
{
    double m = mean(d);
    *lo = m > 0 ? score_edge(d, m, m, 0) : 0;
    *hi = m < 1 ? score_edge(d, m, m, 1) : 1;
}

/* ---------------------------------------------------------------- summaries */

double arena_stats_elo(double score)
{
    if (score <= 0)
        return -INFINITY;
    if (score >= 1)
        return INFINITY;
    return 400.0 * log10(score / (1 - score));
}

void arena_stats_summarize(const arena_score_counts_t *c, arena_score_summary_t *out)
{
    support3_t d = from_counts(c);
    out->units = (long)weight(&d); /* the counts above 0, exactly */
    if (out->units == 0) {
        out->score = 0.5, out->score_lo = 0, out->score_hi = 1;
        out->elo = 0, out->elo_lo = -INFINITY, out->elo_hi = INFINITY;
        out->los = 0.5;
        return;
    }
    out->score = mean(&d);
    score_interval(&d, &out->score_lo, &out->score_hi);
    out->elo = arena_stats_elo(out->score);
    out->elo_lo = arena_stats_elo(out->score_lo);
    out->elo_hi = arena_stats_elo(out->score_hi);
    /* LOS as cutechess and fastchess give it: Phi((won - lost) / sqrt(won + lost)), i.e. the
     * spread taken around 1/2 (the hypothesis of equal strength) rather than around the mean, so
     * that units all won or all lost do not have zero variance; splits carry no information. */
    double won = d.w[2], lost = d.w[0];
    out->los = won + lost > 0 ? 0.5 * erfc(-(won - lost) / sqrt(2.0 * (won + lost))) : 0.5;
}

/* One end of an interval as text: whole Elo with its sign, "+0" for any rounding to zero,
 * "+inf" / "-inf"; at most 7 characters. */
static void put_elo(char *buf, size_t len, double elo)
{
    if (isnan(elo))
        snprintf(buf, len, "?");
    else if (isinf(elo))
        snprintf(buf, len, "%cinf", elo > 0 ? '+' : '-');
    else {
        double r = round(elo);
        if (r == 0)
            r = 0; /* no "-0" */
        r = fmax(-999999.0, fmin(999999.0, r)); /* beyond any score a double holds */
        snprintf(buf, len, "%+.0f", r);
    }
}

void arena_stats_format_elo(const arena_score_summary_t *s, char *buf, size_t len)
{
    if (len == 0)
        return;
    char e[8], lo[8], hi[8];
    put_elo(e, sizeof e, s->elo);
    put_elo(lo, sizeof lo, s->elo_lo);
    put_elo(hi, sizeof hi, s->elo_hi);
    if (s->units <= 0)
        snprintf(buf, len, "-");
    else if (isinf(s->elo) && s->elo > 0)
        snprintf(buf, len, "> %s", lo);
    else if (isinf(s->elo))
        snprintf(buf, len, "< %s", hi);
    else
        snprintf(buf, len, "%s [%s, %s]", e, lo, hi);
}

void arena_stats_mean_interval(double sum, double sumsq, long n, double *lo, double *hi)
{
    *lo = 0, *hi = 1;
    if (n <= 0)
        return;
    /* The values are known by their first two moments only: stand for them with the one
     * distribution on {0, m, 1} that has their mean m and variance v (mass v/m at 0, v/(1-m) at
     * 1, the rest at m), then take its score interval as for pairs. Values of only 0 and 1 give
     * Wilson's interval; values all equal to 1/2 give the interval of pairs all split. */
    double m = fmin(1, fmax(0, sum / (double)n));
    double q = fmin(m, fmax(m * m, sumsq / (double)n)); /* m^2 <= mean square <= m on [0, 1] */
    double v = q - m * m;
    support3_t d = { { (double)n * (1 - m), 0, (double)n * m }, { 0.0, 0.5, 1.0 } };
    if (m > 0 && m < 1) {
        d.v[1] = m;
        d.w[0] = (double)n * v / m;
        d.w[2] = (double)n * v / (1 - m);
        d.w[1] = fmax(0, (double)n - d.w[0] - d.w[2]);
    }
    score_interval(&d, lo, hi);
}

/* ---------------------------------------------------------------- SPRT */

/* log p_i of the maximum-likelihood distribution with mean s, for the observed cells. */
static void log_mle(const support3_t *d, double s, double logp[3])
{
    if (s <= 0 || s >= 1) {
        for (int i = 0; i < 3; i++)
            logp[i] = d->v[i] == (s <= 0 ? 0.0 : 1.0) ? 0 : -INFINITY;
        return;
    }
    double p[3], lambda = restricted_mle(d, s, p), n = weight(d);
    for (int i = 0; i < 3; i++)
        logp[i] = d->w[i] > 0 ? log(d->w[i] / n) - log1p(lambda * (d->v[i] - s)) : 0;
}

double arena_stats_sprt_llr(const arena_score_counts_t *c, const arena_sprt_t *t)
{
    support3_t d = from_counts(c);
    double s0 = arena_stats_score(t->elo0), s1 = arena_stats_score(t->elo1);
    if (weight(&d) <= 0 || s0 == s1)
        return 0.0;
    /* GSPRT: LLR = sum n_i log(p1_i / p0_i), p0 and p1 the most likely outcome distributions
     * with expected scores s0 and s1. A run of units all won gives n log(s1 / s0), all lost
     * n log((1 - s1) / (1 - s0)): finite, so the test decides where the normal approximation
     * n (s1 - s0) (2m - s0 - s1) / (2 var) divides by zero. */
    double l0[3], l1[3], llr = 0;
    log_mle(&d, s0, l0);
    log_mle(&d, s1, l1);
    for (int i = 0; i < 3; i++)
        if (d.w[i] > 0)
            llr += d.w[i] * (l1[i] - l0[i]);
    return llr;
}

double arena_stats_sprt_lower(const arena_sprt_t *t) { return log(t->beta / (1 - t->alpha)); }
double arena_stats_sprt_upper(const arena_sprt_t *t) { return log((1 - t->beta) / t->alpha); }
