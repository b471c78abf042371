/* picket_sampler: the worlds consistent with a seat's view, counted exactly and drawn uniformly.
 *
 * WHAT A WORLD IS. For seat S (the view's seat) and the opponent O, a world is the deal of the
 * current hand (both dealt hands and the stock in order) together with O's discards, such that
 * replaying this hand's moves from that deal (with those discards) gives S exactly the events
 * S received. Worlds that differ only in the order of stock cards that end in the same place
 * (drawn together by one player, or still in the stock and unseen by S) count as one. S's own
 * cards are all known (its dealt hand, discards, draws, the stock cards it peeked at or saw
 * left over), so a world is a placement of the other cards, the unplaced cards U, into four
 * bins of fixed sizes:
 *     K  dealt to O and kept,      X  dealt to O and discarded,
 *     R  drawn by O (not seen by S), L  still in the stock, not seen by S.
 * O's holding (the cards he holds now plus those he played this hand) is P = K + R plus the
 * cards S saw him draw; his dealt hand is D = K + X.
 *
 * WHAT CONSTRAINS IT, each as a rule on P, on D, or on one card:
 *  - cards O played or showed and still holds lie in P; a void suit's unplayed cards do not;
 *  - a Blank shown fixes D; a Blank declared but not yet shown (or the blank-count phase with
 *    O elder) means D has no King, Queen or Knave; a Blank not declared when it would have been
 *    means D has at least one; before O's chance to declare, nothing;
 *  - elder O called suit c and was not appointed: P holds a card of c (appointed: a void);
 *  - each declaration O made or answered: his Ruff, Sequence and set claims are exact (elder,
 *    or younger answering equal or not good) or below S's (younger answering good); when he
 *    won a category, the cards he showed are exactly what his hand scores there (the suit of
 *    his Ruff with the tie rule; every run; every set), and with unsuited sequences a rank's
 *    shown cards are its highest suits in P;
 *  - declarations=may-sink (sinking): a call bounds nothing above. Elder O's call shown is held
 *    (a point's shown cards are its suit's highest: no unshown card of the suit above them); his
 *    call not shown (pending, beaten, equal under calls=open, worth nothing) is held by some
 *    suit (point, run: a reached bit) or rank (sets: its counts). Younger O's "good" says
 *    nothing (unless he asked the point's value: as many cards, less value); his "equal" and
 *    "not good" are his best, as in full. S's own calls are public claims.
 *
 * THE METHOD. Every rule on P is local to a suit (Ruff, suited runs, the called suit) or to a
 * rank (sets; runs with unsuited sequences), so P is chosen suit by suit in a dynamic programme
 * whose state holds only what the remaining rules need: how many cards P has taken from each
 * pool, how many Kings, Queens and Knaves (for the Blank rule on D), whether an exact Ruff or
 * Sequence claim has been reached in some suit, and a capped count of P's cards for each rank
 * a rank rule still constrains. A suit's choices are grouped by what they add to the state, so
 * a layer is a few dozen classes, not hundreds of subsets. Counting walks the reachable states
 * depth first, each counted once after those it leads to (completions of each state, weighted at
 * the end by the number of ways to split P into K and R and the rest into X and L, the Blank
 * rule included); drawing walks the counts forwards, picks a subset uniformly within the chosen
 * class, then the split, then random orders for blocks of stock whose order S cannot tell.
 * Counts are exact 64-bit: no placement of 24 unplaced cards into four bins exceeds 4^24 < 2^49.
 * The full state is built directly (both seats' knowledge as the rules would have it), and each
 * prepare checks its first world against the view, so a view whose knowledge does not follow
 * from its cards is refused.
 *
 * WORST CASE. A layer's choices are at most 2^9 subsets of a suit's unseen cards, grouped into
 * classes; its states are bounded by the pool counts (25 x 25), the court count (at most 9), two
 * reached bits and the tracked ranks' counts, where a rank is tracked only while a rule could
 * still fail on it, counts are capped at what the rule can tell apart, and (unsuited) only ranks
 * inside a run that could still break the claim are watched. Suits go in the order of most
 * unseen cards first, so the last layers, where states are many, offer the fewest choices.
 * The worst views are unsuited runs claimed across many ranks with many cards unseen (the most
 * states a layer); the figures are bench/sampler's. Drawing never searches: one 64-bit random
 * number walks the cumulative counts, then a few shuffles.
 */
#ifndef PICKET_SAMPLER_H
#define PICKET_SAMPLER_H

#include <stddef.h>
#include <stdint.h>

#include "picket.h"

typedef struct picket_sampler picket_sampler_t;

/* Deliberately wrong samplers, for the tests that must catch them. Never used otherwise. */
enum {
    PK_SAMPLER_EXACT = 0,
    PK_SAMPLER_BIAS_IGNORE_EQUAL, /* drops the rule an "equal" answer makes */
    PK_SAMPLER_BIAS_FLAT          /* right support, but picks classes without their weights */
};

/* Prepare for a view. NULL with a one-line reason in err when the view is malformed (no deal
 * could give it) or memory runs out. A well-formed view with no consistent world gives a
 * sampler whose count is 0 (the rules never produce one). */
picket_sampler_t *picket_sampler_new(const picket_view_t *v, int mode, char *err, size_t errlen);
void picket_sampler_free(picket_sampler_t *s);
/* The same sampler, made over for another view, keeping its memory (a search prepares one per
 * decision): 0, or -1 with a reason (the sampler then has no world). */
int picket_sampler_prepare(picket_sampler_t *s, const picket_view_t *v, int mode, char *err, size_t errlen);

/* The number of consistent worlds, and of distinct opponent holdings P. */
uint64_t picket_sampler_worlds(const picket_sampler_t *s);
uint64_t picket_sampler_holdings(const picket_sampler_t *s);

/* The hidden part of one world, as S would describe it. */
typedef struct picket_world {
    cardset_t opp_dealt;    /* D: O's dealt hand */
    cardset_t opp_discard;  /* X: his discards (0 before his exchange) */
    cardset_t opp_holding;  /* P: his hand now plus the cards he played this hand */
    cardset_t stock_unseen; /* the stock cards S has not seen (drawn by O or still there) */
} picket_world_t;

/* Draw one world uniformly: its placement into w (may be NULL) and, if st is not NULL, the
 * full state the rules can play on, with both seats' knowledge as the rules would have it and
 * future deals drawn from a seed taken from rng. 0, or -1 when there is no world. */
int picket_sampler_draw(picket_sampler_t *s, rng_t *rng, picket_world_t *w, picket_state_t *st);

#endif
