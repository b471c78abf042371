/* picket_partie: what a partie (game=rubicon) is worth before it ends, for a search's reward.
 *
 * A partie pays its winner 100 plus both totals when the loser stays under the rubicon line,
 * else 100 plus the difference (picket_partie_points); so a deal's points are worth different
 * amounts to each seat: more near a tie and near the line, less once the partie is decided, and
 * in the sixth deal exactly what they change in the settlement. The model: each seat scores a
 * deal's points as a normal variable, the two seats' correlated, elder's mean above younger's by
 * the elder's edge (the spread and correlation pooled over the roles), with the figures that
 * bench/hands measures over the default bot's parties against itself (docs/strength.md). Over the deals left, the sum of the two totals and their difference are
 * then independent normals: the difference is integrated exactly (the settlement is piecewise
 * linear in it, with steps at the tie and at the line), the sum by Gauss-Hermite quadrature.
 * Pure functions; no allocation.
 */
#ifndef PICKET_PARTIE_H
#define PICKET_PARTIE_H

#include "picket.h"

/* The model's figures: a seat's points a deal (mean over both roles, standard deviation), the
 * correlation of the two seats' points in one deal, and how many more elder makes than younger. */
extern const double PICKET_PARTIE_DEAL_MEAN, PICKET_PARTIE_DEAL_SD, PICKET_PARTIE_DEAL_CORR, PICKET_PARTIE_ELDER_EDGE;

/* Seat 0's expected settlement (what it wins, negative when it loses) from totals a and b with
 * `left` deals still to play, seat 0 elder in `elder0` of them, under a rubicon line. left 0: the
 * settlement itself (0 when tied). */
double picket_partie_expected(int a, int b, int left, int elder0, int rubicon_line);

/* The expected settlement of seat 0 when the hand in progress was dealt, and what one point of
 * difference was worth then: kept in the state (partie_hand), as the rules and the sampler do
 * when they make a hand's state; a no-op under game=race. */
void picket_partie_mark(picket_state_t *st);

/* The search's reward at a horizon of a partie: how much the hand in progress (or just over) has
 * moved each seat's expected settlement since it was dealt, in units of one point of difference
 * at that moment (so that, where the settlement is linear, it is the hand's points). 1 with out
 * filled for a partie, 0 for a race (the generic reward applies). */
int picket_partie_horizon(const picket_state_t *st, double *out);

#endif
