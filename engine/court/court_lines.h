/* court_lines: Court Circular's Lines (Carroll, 1860, rule III), its card order (rule IV) and
 * who wins a trick, as pure functions over cards (engine/cards.h: 52-card indices).
 *
 * A seat's Line is 2 or 3 of the cards it put down in the trick, with or without the Lead:
 *   class 1: two or three of its cards with the Lead (a line of 3 or 4 cards);
 *   class 2: three of its cards;
 *   class 3: two of its cards.
 * Class 1 beats class 2 beats class 3. Kinds, best first: Trio (one rank), Sequence
 * (consecutive ranks; the Ace below the Two or above the King, never both; the Lead never
 * inside), Sympathy (Hearts), Court (Kings, Queens, Knaves) in classes 1 and 2; Pair,
 * Valentine (two Hearts), Etiquette (two court cards) in class 3. In class 1 a line of 4 beats a
 * line of 3 of the same kind. Lines of the same class, kind and length compare their own cards
 * best first by the card order (the Lead they share is skipped): Hearts above every other card,
 * by rank; then the rest by rank, an equal rank ordered Diamonds, Clubs, Spades. With no Line on
 * any side, the best card played wins. The rulings are in ../shared/design/rules-matrix.md
 * ("Court Circular"); docs/court.md quotes the source for each.
 */
#ifndef PICKET_COURT_LINES_H
#define PICKET_COURT_LINES_H

#include <stdint.h>

#include "cards.h"

enum { CC_PER_TRICK = 3 }; /* cards a seat puts down in a trick */

/* Classes by strength: higher is better; 0 is no line. */
enum { CC_CLASS_NONE = 0, CC_CLASS_3 = 1, CC_CLASS_2 = 2, CC_CLASS_1 = 3 };
/* Kinds by strength inside a class: higher is better. */
enum { CC_KIND_COURT = 1, CC_KIND_SYMPATHY = 2, CC_KIND_SEQUENCE = 3, CC_KIND_TRIO = 4 };
enum { CC_KIND_ETIQUETTE = 1, CC_KIND_VALENTINE = 2, CC_KIND_PAIR = 3 };

typedef struct court_line {
    int8_t cls;                /* CC_CLASS_*; CC_CLASS_NONE: no line */
    int8_t kind;               /* CC_KIND_* of its class */
    int8_t len;                /* cards in the line, the Lead included (2, 3 or 4) */
    int8_t nown;               /* the seat's own cards in it */
    int8_t own[CC_PER_TRICK];  /* those cards, best first by the card order */
} court_line_t;

/* The card order of rule IV as a number: higher is better, every card distinct. */
int court_card_value(int card);
/* The best line of n (0..3) cards put down, with the Lead (a card, or -1 for none). A seat with
 * no line gets cls CC_CLASS_NONE. */
void court_best_line(const int8_t *cards, int n, int lead, court_line_t *out);
/* > 0 if a beats b, < 0 if b beats a, 0 if equal (the same class, kind, length and cards). */
int court_line_compare(const court_line_t *a, const court_line_t *b);
/* Name of a class and kind ("trio", "sequence", ..., "pair", "valentine", "etiquette"; "none"). */
const char *court_kind_name(int cls, int kind);

/* The winner of a trick among the seats in `in` (a bit per seat, the seats that have not
 * resigned): played[s][0..count[s]) are seat s's cards. The best line wins; with no line among
 * them, the best card. A single seat left wins. -1 if no seat is in. Its line into *line (may be
 * NULL). */
int court_trick_winner(int players, const int8_t played[][CC_PER_TRICK], const int8_t *count, unsigned in, int lead,
                       court_line_t *line);

#endif
