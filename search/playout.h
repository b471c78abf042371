/* playout: what the search bots do inside one sampled world, through game_t only.
 *
 * THE HORIZON is the end of the hand in progress (or of the game, if it ends first): a search
 * decides for this hand, and the next deal is unknown to everyone alike.
 *
 * THE REWARD serves the set, not the points. At the horizon each seat gets a value in [0, 1]:
 *   - if the game is over, its return (game_returns: 1 for a win, 0 for a loss; ranks for N);
 *   - otherwise 0.5 + 0.45 tanh(d / scale), d = the seat's points this hand minus the mean of the
 *     others' (hand_value), scale a bot option (default 30 points).
 * A game may give its own points for d instead (game_t.horizon_value: a Picket partie, where a
 * deal's points are worth what they move the seat's expected settlement), at the game's end too.
 * So any hand that ends the set in a seat's favour is worth more to it than any hand that does
 * not (1 is more than 0.95), and a hand that loses the set is
 * worth less than any other, while between those, more points are better. A line that scores
 * most but hands the opponent the set is worth 0; a modest line that reaches the target first
 * is worth 1.
 *
 * POLICIES for a move of any seat inside a world: uniform over the legal moves, or the game's
 * heuristic from that seat's own view of the world (view_from_state: a seat never decides on
 * cards it could not see). Where a seat has more than PLAYOUT_WIDE legal moves (an exchange),
 * the heuristic judges PLAYOUT_SAMPLE of them drawn at random, so a policy move stays cheap (the
 * heuristic player judges every one: a Picket exchange of a few hundred to a few thousand).
 */
#ifndef PICKET_PLAYOUT_H
#define PICKET_PLAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "rng.h"
#include "solver.h"

enum { PLAYOUT_RANDOM, PLAYOUT_HEURISTIC };
enum { PLAYOUT_WIDE = 64, PLAYOUT_SAMPLE = 24 };
/* The most steps (moves and chance) a world is played to its horizon: far more than any hand of
 * the games here takes; a world that needs more is one no real deal gives, and its playout
 * fails instead of spinning. */
enum { PLAYOUT_MAX_STEPS = 20000 };

typedef struct playout {
    const game_t *g;
    double scale;             /* points of a hand worth tanh(1) */
    const double *hparams;    /* the heuristic's weights, or NULL for its defaults */
    void *view;               /* scratch: a seat's view of the world */
    game_move_t moves[GAME_MAX_MOVES]; /* scratch */
    double values[GAME_MAX_MOVES];
    game_event_t ev[GAME_MAX_EVENTS];
} playout_t;

/* Scratch memory: 0, or -1 with a reason. */
int playout_init(playout_t *p, const game_t *g, double scale, const double *hparams, char *err, size_t errlen);
void playout_free(playout_t *p);

/* 1 at the horizon: the hand is over, or the game. */
int playout_done(const playout_t *p, const void *state);
/* Every seat's reward at a state (the horizon, or mid-hand judged by the points so far). */
void playout_reward(const playout_t *p, const void *state, double *r);
/* A move for the seat to move, by the policy. 0, or -1 if there is none. */
int playout_move(playout_t *p, const void *state, int policy, rng_t *rng, game_move_t *out);
/* The same among the legal moves a given observer cannot tell from `seen` (move_seen). */
int playout_move_like(playout_t *p, const void *state, int policy, int observer, const game_move_t *seen, rng_t *rng,
                      game_move_t *out);
/* Play the state on to the horizon by the policy. Returns the
 * moves played, or -1 if a move failed. */
int playout_run(playout_t *p, void *state, int policy, rng_t *rng);
/* Apply a move (or resolve chance inside the hand from rng). */
void playout_apply(playout_t *p, void *state, const game_move_t *m);

#endif
