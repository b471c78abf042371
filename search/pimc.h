/* pimc: perfect-information Monte Carlo, the baseline search (issue 12), through game_t only.
 *
 * DATA FLOW. view -> worlds (worlds.h, prepared once a decision: worlds drawn
 * uniformly among those consistent with the view) -> in each world, every candidate move valued
 * as if all cards were known -> the mean over the worlds -> the best mean wins. The same worlds
 * value every candidate (common random numbers: a world also fixes the generator its playouts
 * draw from), so differences between candidates are not drowned in the worlds' noise.
 *
 * IN THE PLAY (the game's endgame takes the world: every card known), every legal move is a
 * candidate and the trick solver (solver.h) values it. The value is THE REWARD that serves the
 * set (playout.h), not the points: solver_all gives each move's exact points; then, for each
 * class of equivalent moves, the world plays that move and the solver's own line (best for both
 * sides, one solver_best a ply, cheap on the table solver_all just filled) to the end of the
 * hand, and the reward is the observer's there. So a line that ends the set mid-hand counts as
 * the win or loss it is; a line ends the hand exactly solver_all's value ahead.
 *
 * IN THE OTHER DECISIONS (a Picket exchange, Blank count, call, leftover, appointment), the
 * candidates are the heuristic's best K moves from the view (K = "pimc.candidates"); each is
 * applied in the world, both seats finish the decisions before the play by the game's heuristic
 * from their own view of the world (playout_move), the play is solved as above (along the
 * solver's line), and the reward is taken at the end of the hand. Moves that are not candidates
 * get the value -1. With "pimc.solver false", or a game without an endgame, the play is
 * finished by the heuristic instead, and a card in the play is one more such decision.
 *
 * It decides from the view and the worlds drawn from it, never from the true state, and knows no
 * game: moves are compared whole, the endgame's moves reach the game through to_game_move.
 *
 * PIMC's known faults (Frank and Basin 1998): strategy fusion (it assumes it will know the
 * cards later) and non-locality. It never plays to hide or to find out. It is the baseline that
 * ISMCTS must beat.
 *
 * BUDGET. iterations = worlds; move_time, time_left (a share of the set's clock, as ismcts) or
 * infinite search by time, looking at the clock and hooks->should_stop between worlds and
 * between the candidates of a world; under a clock it starts no world that the mean world so far
 * says would end past it. A world cut short is dropped, so every mean is over the same worlds;
 * a decision stopped before its first world is done takes the heuristic's move (values -1). The
 * solver itself is never interrupted: one solve from the first lead is the longest step. A
 * decision with one legal move takes one world. One thread: the same seed gives the same moves.
 * Decision times: bench/ismcts, docs/strength.md.
 *
 * MEMORY. Everything, the solver's table included ("pimc.solver_mb"), is allocated at creation;
 * the table keeps its positions from one decision to the next (they stay exact).
 */
#ifndef PICKET_PIMC_H
#define PICKET_PIMC_H

#include <stddef.h>
#include <stdint.h>

#include "bot.h"
#include "game.h"
#include "rng.h"

enum { PIMC_MAX_CANDIDATES = 256 };

typedef struct pimc_params {
    int64_t worlds;          /* per decision, when the limits give none */
    int candidates;          /* K: the heuristic's best moves valued outside the play */
    double reward_scale;     /* points of a hand worth tanh(1) (playout.h) */
    int solve;               /* 1: the play is solved; 0: played on by the heuristic */
    int solver_mb;           /* the solver's table */
    const double *hparams;   /* the heuristic's weights, or NULL for its defaults */
} pimc_params_t;

void pimc_default_params(pimc_params_t *p);

typedef struct pimc pimc_t;

/* NULL with a reason: a game that cannot be searched (no sampler, heuristic or hand values), or
 * no memory. */
pimc_t *pimc_create(const game_t *g, const pimc_params_t *p, char *err, size_t errlen);
void pimc_free(pimc_t *s);

/* Search the view (its seat must be to move) within the limits, then write every legal move of
 * the seat and its value: the mean reward over the worlds (in [0, 1]), or -1 for a move that was
 * not a candidate. Returns the number of moves, or -1. *best is the highest mean (ties: the
 * earlier candidate, the heuristic's order outside the play, the legal order in it). rng gives
 * the decision's seed. */
int pimc_search(pimc_t *s, const void *view, const bot_limits_t *lim, const bot_hooks_t *hooks, rng_t *rng,
                game_move_t *moves, double *values, int cap, game_move_t *best);

/* The last search's figures. */
typedef struct pimc_stats {
    int64_t worlds;          /* worlds whose every candidate was valued */
    int64_t nodes;           /* solver nodes */
    int candidates;
    int solved_play;         /* 1: the decision was in the play, valued by the solver */
    double seconds;
} pimc_stats_t;
void pimc_stats(const pimc_t *s, pimc_stats_t *out);

/* The search bots' options (bot.c's table, hybrid.h): "pimc.<name>", and the parameters they set. */
int pimc_bot_options(opt_list_t *l);
/* The parameters from set (NULL: every default): 0, or -1 with a reason (bot_settings_fill). */
int pimc_params_from(const bot_settings_t *set, pimc_params_t *p, char *err, size_t errlen);

#endif
