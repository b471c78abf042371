/* ismcts: single-observer information-set Monte Carlo tree search (Cowling, Powley and
 * Whitehouse 2012), through game_t only.
 *
 * DATA FLOW. view -> worlds (worlds.h: one world per iteration, uniform among those consistent
 * with the view) -> the tree, descended in that world -> a leaf (playout.h: random or heuristic
 * rollout to the hand's end) -> the reward of every seat (playout.h: the set first, then the
 * hand's points) -> back up the path.
 *
 * THE TREE is the observer's (the view's seat). A node is a move as the observer sees it
 * (move_seen): his own moves whole; another seat's public moves whole; another seat's hidden
 * choices (a discard) by what shows of them (its count), the concrete move then chosen in the
 * world by the rollout policy. Each node keeps visits, availability (how often it could have
 * been chosen: worlds differ in the legal moves) and the summed reward of the seat that moved
 * into it; selection is UCB1 with availability, each seat maximising its own reward.
 *
 * WIDE DECISIONS (the observer's exchange: some 3,800 discards): the heuristic's best widen_topk
 * candidates only, all admitted at once (progressive widening measured weaker:
 * docs/experiments.md).
 * Another seat's wide decision (his exchange) is not searched from his side: his move comes
 * from the rollout policy (the heuristic's best of a random sample), recorded as the observer
 * sees it.
 * Narrow decisions admit every move, an unvisited one at random first.
 *
 * THE PLAY. The bot `ismcts` searches the tree in the play too (plain ISMCTS); the default bot
 * (hybrid.h) hands the play to PIMC instead, which measured stronger there (docs/experiments.md).
 *
 * MEMORY. Nodes come from a pool of fixed size (tree_mb); when it is full the tree stops growing
 * and iterations go on from its leaves, as Pachi's node pool does.
 *
 * THREADS. Root parallel: each thread searches its own tree (its own worlds, playout and
 * generator, seeded from the bot's); the roots' statistics are summed. One thread gives the
 * same moves for the same seed.
 */
#ifndef PICKET_ISMCTS_H
#define PICKET_ISMCTS_H

#include <stddef.h>
#include <stdint.h>

#include "bot.h"
#include "game.h"

enum { ISMCTS_MAX_THREADS = 64 };

typedef struct ismcts_params {
    int64_t iterations;      /* per decision, when the limits give none */
    double exploration;      /* UCB1's constant */
    int rollout;             /* PLAYOUT_RANDOM or PLAYOUT_HEURISTIC */
    int threads;
    int tree_mb;
    int widen_topk;
    double reward_scale;     /* points of a hand worth tanh(1) (playout.h) */
    const double *hparams;   /* the heuristic's weights, or NULL */
} ismcts_params_t;

void ismcts_default_params(ismcts_params_t *p);

typedef struct ismcts ismcts_t;

ismcts_t *ismcts_create(const game_t *g, const ismcts_params_t *p, char *err, size_t errlen);
void ismcts_free(ismcts_t *s);

/* Search the view (its seat must be to move) within the limits, then write every legal move of
 * the seat and its value: the mean reward of its node (in [0, 1]), or -1 for a move the search
 * never tried. Returns the number of moves, or -1. The best move is the most visited (ties: the
 * higher value). rng seeds the threads. */
int ismcts_search(ismcts_t *s, const void *view, const bot_limits_t *lim, const bot_hooks_t *hooks, rng_t *rng,
                  game_move_t *moves, double *values, int cap, game_move_t *best);

/* The last search's figures. */
typedef struct ismcts_stats {
    int64_t iterations, nodes;
    double seconds;
    int pool_full;
} ismcts_stats_t;
void ismcts_stats(const ismcts_t *s, ismcts_stats_t *out);

/* The search bots' options (bot.c's table, hybrid.h): "ismcts.<name>", and the parameters they set. */
int ismcts_bot_options(opt_list_t *l);
/* The parameters from set (NULL: every default): 0, or -1 with a reason (bot_settings_fill). */
int ismcts_params_from(const bot_settings_t *set, ismcts_params_t *p, char *err, size_t errlen);

#endif
