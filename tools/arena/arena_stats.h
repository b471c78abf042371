/* arena_stats: the statistics of a match, as chess testers compute them, made to hold at the
 * edges (a handful of units, a score of 0% or 100%, no variance at all).
 *
 * With duplicate pairs the unit is the pair (the same deals played twice, seats swapped): a
 * pair scores 0, 1/2 or 1 for an engine, and every figure below is computed over pairs, which
 * removes most of the luck of the deal (the pentanomial idea of fastchess, with three outcomes
 * because a set of Picket cannot be drawn). Without pairs the unit is the single set.
 *
 * No figure here may claim more certainty than the units give: an interval is never of zero
 * width, a score of 100% has an Elo of +infinity and says so, and the SPRT decides on a run of
 * units that are all won or all lost. No globals; every function is pure.
 */
#ifndef PICKET_ARENA_STATS_H
#define PICKET_ARENA_STATS_H

#include <stddef.h>

/* Outcomes of units (pairs or sets) from one engine's side: n[0] lost, n[1] split, n[2] won
 * (a single set that cannot be drawn uses n[0] and n[2] only). */
typedef struct arena_score_counts {
    long n[3];
} arena_score_counts_t;

typedef struct arena_score_summary {
    long units;
    double score;              /* mean score in [0, 1]; 1/2 when units is 0 */
    double score_lo, score_hi; /* 95% interval of the mean score, inside [0, 1]; [0, 1] when units is 0 */
    double elo, elo_lo, elo_hi; /* Elo of the score and of the interval's ends: -INFINITY at a score
                                   of 0, +INFINITY at 1 (never clamped); 0 [-inf, +inf] with no units */
    double los;                /* likelihood of superiority, in [0, 1]; 1/2 when nothing is decisive */
} arena_score_summary_t;

/* Size of a buffer that always holds arena_stats_format_elo's text, its NUL included. */
#define STATS_ELO_TEXT 28

/* Elo difference of a mean score: -infinity at 0, +infinity at 1. */
double arena_stats_elo(double score);
/* Expected score of an Elo difference. */
double arena_stats_score(double elo);
void arena_stats_summarize(const arena_score_counts_t *c, arena_score_summary_t *out);

/* The Elo of a summary as text, rounded to whole Elo, "+0" never "-0":
 *   "+120 [+80, +170]"   an ordinary score and its 95% interval
 *   "> +128"             a score of 100%: only the interval's lower end is finite
 *   "< -128"             a score of 0%: only the interval's upper end is finite
 *   "-"                  no units
 * (an end of an interval that is infinite although the score is not prints "+inf" / "-inf").
 * At most STATS_ELO_TEXT - 1 characters; truncated to len - 1 when len is smaller. */
void arena_stats_format_elo(const arena_score_summary_t *s, char *buf, size_t len);

/* 95% interval of the mean of n values in [0, 1] (sum and sum of squares given), e.g. the N-seat
 * pairwise scores over rotation groups: inside [0, 1], contains the mean, of nonzero width for
 * any n >= 1. n <= 0 gives [0, 1]. */
void arena_stats_mean_interval(double sum, double sumsq, long n, double *lo, double *hi);

/* Sequential probability ratio test between elo0 and elo1: the generalized SPRT on the unit
 * outcomes, with the maximum-likelihood distribution of lost / split / won at each hypothesis's
 * expected score (fishtest's method). The log-likelihood ratio, 0 with no units, and the bounds
 * it is checked against. */
typedef struct arena_sprt {
    double elo0, elo1, alpha, beta;
} arena_sprt_t;
double arena_stats_sprt_llr(const arena_score_counts_t *c, const arena_sprt_t *t);
double arena_stats_sprt_lower(const arena_sprt_t *t); /* accept H0 (elo0) at or below */
double arena_stats_sprt_upper(const arena_sprt_t *t); /* accept H1 (elo1) at or above */

#endif
