/* picket_endgame: the play of a Picket hand with both hands known, for the trick solver.
 *
 * A position holds only what the rest of the hand's score depends on: the cards each seat
 * still holds, the trick in progress, the tricks won (for cards and capot), and while a Pique
 * can still happen, the points and reckoned flags that decide it. Scoring follows the rules
 * flags exactly as engine/picket.c does (play_points, last_trick, cards 10 / capot 40 / 6-6
 * nothing, pique), and the set target is ignored: the value is the hand's. No allocation.
 *
 * For the solver: equivalent cards collapse to one move; table keys read each suit by relative
 * rank (which low cards have gone does not matter), with moves coded the same way; and sure
 * tricks give bounds that settle many positions without search (pe_bounds).
 */
#ifndef PICKET_PICKET_ENDGAME_H
#define PICKET_PICKET_ENDGAME_H

#include "game.h"
#include "picket.h"

typedef struct picket_end {
    cardset_t hand[2];
    int8_t to_move;
    int8_t lead;          /* card led to the trick in progress, -1 none */
    int8_t tricks[2];     /* won so far this hand */
    int8_t bound_suit;    /* elder's first lead must be of this suit if he holds it, -1 none */
    /* The Pique, while it can still happen (pique_open): each seat's points this hand (capped
     * at 30) and whether it has reckoned anything; opening: elder's first lead is still due. */
    int8_t pique_open;
    int8_t pts[2];
    int8_t reckoned[2];
    int8_t opening;
    int8_t elder;
    /* Rules (constant through a search). */
    int8_t play_points, last_trick, pique_rule;
} picket_end_t;

extern const game_endgame_t PICKET_ENDGAME;

/* A position from a state in its play phase. 0, or -1 if the state is not in its play phase. */
int picket_end_from_state(const picket_state_t *st, picket_end_t *out);
/* A position from its parts (the `picket solve` command and tests). As in a real hand, the
 * tricks won and the tricks still in the hands must make 12: keys and bounds count on it. */
void picket_end_make(picket_end_t *e, const picket_rules_t *r, cardset_t hand0, cardset_t hand1, int to_move, int lead,
                     int tricks0, int tricks1);

#endif
