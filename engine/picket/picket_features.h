/* picket_features: what a seat knows at its exchange, and a discard, as the 0/1 inputs of the
 * learned exchange net (engine/net.h; issue 30, docs/learning.md). The one definition: the
 * self-play examples (tools/picket-selfplay.c) carry these indices, the trainer
 * (tools/train_exchange.py) reads them, and the engine computes them here.
 *
 *   0..35    the cards kept        (card index: suit * 9 + rank, ranks 6 7 8 9 T J Q K A)
 *   36..71   the cards discarded
 *   72..107  the cards the seat knows outside its hand (shown, peeked)
 *   108/109  elder / younger
 *   110..119 the rules that differ between the sources (one input a value that is not the
 *            first: 32 cards, younger draws 8, the two other leftover rules, show-first Blanks,
 *            ties to elder, unsuited sequences, winner-takes play points, last trick 1 or 2,
 *            Pique at any time)
 *   120..132 the cards left in the stock (0 to 12)
 * The suits' names carry no meaning (no trumps): the trainer renames them at random.
 */
#ifndef PICKET_PICKET_FEATURES_H
#define PICKET_PICKET_FEATURES_H

#include "picket.h"

enum {
    PICKET_XF_INPUTS = 133,
    PICKET_XF_CARDS = 108,
    PICKET_XF_RULES = 110,
    PICKET_XF_N_RULES = 10,
    PICKET_XF_MAX_ACTIVE = 12 + 36 + 1 + 10 + 1
};


/* The active inputs for the seat of view v discarding `discard` (its cards, in v.hand), in
 * increasing order: how many. */
int picket_exchange_features(const picket_view_t *v, cardset_t discard, int *active);

#endif
