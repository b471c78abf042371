/* exchange_ref: the reference judgement of a Picket exchange (issue 30), shared by the examples
 * for learning (tools/picket-selfplay.c) and the yardstick of exchange decisions
 * (bench/exchange.c).
 *
 * A position is a seeded deal of a set's first hand, played by the heuristic up to the exchange
 * it studies (elder's, or younger's after elder's heuristic exchange). A discard's value in a
 * world (a full state drawn from the seat's view) is the seat's points less the opponent's for
 * the hand after it: the rest of the hand's decisions by the heuristic, the play of the cards
 * solved exactly (search/solver.h). Candidates compared in the same worlds share their luck.
 */
#ifndef PICKET_EXCHANGE_REF_H
#define PICKET_EXCHANGE_REF_H

#include "picket.h"
#include "pimc.h"
#include "solver.h"

/* How the cards are played after the exchange: solved with every card seen (the examples' and
 * the bench's reference), by the heuristic, or by the bot's own play (PIMC, each decision on its
 * own sampled worlds, each solved). The rest of the hand's decisions are the heuristic's. */
enum { EXREF_PLAY_SOLVED, EXREF_PLAY_HEURISTIC, EXREF_PLAY_BOT };

typedef struct exref {
    solver_t *solver;
    int play;     /* EXREF_PLAY_* (exref_init: solved) */
    pimc_t *pimc; /* the bot's play (exref_play_by_bot), else NULL */
    rng_t rng;    /* its decisions' seeds */
    game_move_t moves[GAME_MAX_MOVES]; /* scratch for the heuristic's moves */
    double values[GAME_MAX_MOVES];
} exref_t;

/* 0, or -1 with a reason (memory). The play solved. */
int exref_init(exref_t *x, char *err, size_t errlen);
void exref_free(exref_t *x);

/* The cards played as the bot plays them, PIMC over `worlds` worlds a decision (the default bot:
 * 32): 0, or -1 with a reason (memory). */
int exref_play_by_bot(exref_t *x, int worlds, char *err, size_t errlen);

/* The heuristic's best move for the seat to move, judged from its own view: 0, or -1. */
int exref_heuristic_move(exref_t *x, const picket_state_t *st, game_move_t *out);

/* Position i of `seed` under rules r into st: elder's exchange for even i, younger's for odd.
 * 1 when the deal gives that exchange, 0 when it does not (a Blank's commitment, say). Its
 * deal's seed in *deal. */
int exref_position(exref_t *x, const picket_rules_t *r, uint64_t seed, int i, picket_state_t *st, uint64_t *deal);

/* The seat's points less the opponent's for the hand, in `world`, after `discard`: 0, or -1 if
 * the world cannot be played out. */
int exref_value(exref_t *x, const picket_state_t *world, int seat, const game_move_t *discard, double *out);

#endif
