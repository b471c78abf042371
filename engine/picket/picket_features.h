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
 *   133..172 the shape of the cards kept: each suit's length (suit * 10 + 0 to 9)
 *   173..212 each suit's longest run of consecutive ranks kept (suit * 10 + 0 to 9)
 *   213..257 each rank's count kept (rank * 5 + 0 to 4: the sets)
 * The cards' inputs say all the shape inputs say; these spare the net learning the counts (the
 * point, the sequences, the sets) from the cards one by one, which it did poorly on the data.
 * The suits' names carry no meaning (no trumps): the trainer renames them at random, in the
 * card blocks and in the suits' shape blocks alike.
 */
#ifndef PICKET_PICKET_FEATURES_H
#define PICKET_PICKET_FEATURES_H

#include "picket.h"

enum {
    PICKET_XF_INPUTS = 258,
    PICKET_XF_CARDS = 108,
    PICKET_XF_RULES = 110,
    PICKET_XF_N_RULES = 10,
    PICKET_XF_SHAPE = 133,       /* the first shape input: the lengths, then runs, then ranks */
    PICKET_XF_SUIT_RUNS = 173,
    PICKET_XF_RANK_COUNTS = 213,
    PICKET_XF_SHAPE_ACTIVE = 4 + 4 + 9, /* the shape inputs on for any cards kept */
    PICKET_XF_MAX_ACTIVE = 12 + 36 + 1 + 10 + 1 + PICKET_XF_SHAPE_ACTIVE
};


/* The active inputs for the seat of view v discarding `discard` (its cards, in v.hand), in
 * increasing order: how many. */
int picket_exchange_features(const picket_view_t *v, cardset_t discard, int *active);

/* The shape inputs alone (133 and on) of the cards kept, appended at active[n]: the new count.
 * (picket-selfplay -refeature adds them to the lines written before they were inputs.) */
int picket_exchange_shape(cardset_t kept, int *active, int n);

#endif
