/* arena_stats: the statistics of a match, as chess testers compute them.
 *
 * With duplicate pairs the unit is the pair (the same deals played twice, seats swapped): a
 * pair scores 0, 1/2 or 1 for an engine, and every figure below is computed over pairs, which
 * removes most of the luck of the deal (the pentanomial idea of fastchess, with three outcomes
 * because a set of Picket cannot be drawn). Without pairs the unit is the single set.
 */
#ifndef PICKET_ARENA_STATS_H
#define PICKET_ARENA_STATS_H

/* Outcomes of units (pairs or sets) from one engine's side: n[0] lost, n[1] split, n[2] won
 * (a single set uses n[0] and n[2] only). */
typedef struct score_counts {
    long n[3];
} score_counts_t;

typedef struct score_summary {
    long units;
    double score;        /* mean score in [0, 1] */
    double score_lo, score_hi; /* 95% interval of the mean score */
    double elo, elo_lo, elo_hi; /* Elo of the score and its 95% interval */
    double los;          /* likelihood of superiority, in [0, 1] */
} score_summary_t;

/* Elo difference of a mean score (clamped away from 0 and 1). */
double stats_elo(double score);
/* Expected score of an Elo difference. */
double stats_score(double elo);
void stats_summarize(const score_counts_t *c, score_summary_t *out);

/* Sequential probability ratio test between elo0 and elo1 (GSPRT on the unit scores, as
 * fastchess does): the log-likelihood ratio, and the bounds it is checked against. */
typedef struct sprt {
    double elo0, elo1, alpha, beta;
} sprt_t;
double stats_sprt_llr(const score_counts_t *c, const sprt_t *t);
double stats_sprt_lower(const sprt_t *t); /* accept H0 (elo0) at or below */
double stats_sprt_upper(const sprt_t *t); /* accept H1 (elo1) at or above */

#endif
