/* picket_score: what a 12-card Picket hand is worth in each declaration: Blank, Ruff,
 * Sequences, and Ternaries/Quatorzes (sets), and how two claims compare.
 *
 * Pure functions of a hand; no game state, no allocation. Used by the rules at declaration
 * time, by `picket score`, and later by bots and the sampler.
 */
#ifndef PICKET_SCORE_H
#define PICKET_SCORE_H

#include "cards.h"

enum { PK_MAX_RUNS = 12 };

/* Blank: no King, Queen or Knave among the cards. */
int picket_is_blank(cardset_t hand);

/* Card value for the Ruff: Ace 11, K/Q/J 10, others their pips. */
int picket_card_value(int card);
/* The Ruff value of a set of cards: the sum of their values. */
int picket_cards_value(cardset_t cards);
/* Points for a Ruff of value v: floor((v + 5) / 10). */
int picket_ruff_points(int value);

typedef struct picket_ruff {
    int value;        /* largest total of one suit */
    int suit;         /* the suit that makes it (most cards, then the later suit, on equal totals) */
    int points;
    cardset_t cards;  /* that suit's cards */
    int count;        /* its cards */
} picket_ruff_t;
void picket_ruff(cardset_t hand, picket_ruff_t *out);
/* The point by count (Cavendish): the suit with the most cards, the higher total on equal
 * counts, the later suit on both equal; it scores one for each card. */
void picket_point_by_count(cardset_t hand, picket_ruff_t *out);
/* The point under the rules' flag (point=ruff or point=count), and its claim as declared:
 * ruff (value, 0), count (count, value). */
void picket_point(cardset_t hand, int by_count, picket_ruff_t *out);
void picket_point_claim(const picket_ruff_t *r, int by_count, int claim[2]);

/* Points for one sequence of `len` cards: 3, 4, then 15 + (len - 5). 0 below 3. */
int picket_sequence_points(int len);

/* The maximal runs of three or more among one suit's rank bits, one by one: the next from rank
 * *at on, as its lowest rank and length (and *at moves past it); 0 when none is left. */
int picket_next_run(unsigned bits, int *at, int *start, int *len);

typedef struct picket_run {
    int len;
    int top;          /* rank of the highest card */
    int points;
    cardset_t cards;
} picket_run_t;

/* A claim as announced: length and top rank; len 0 means none. */
typedef struct picket_seq_claim {
    int len;
    int top;
} picket_seq_claim_t;

typedef struct picket_sequences {
    picket_seq_claim_t best;        /* the claim: longest run, then highest top */
    picket_run_t runs[PK_MAX_RUNS]; /* what the holder scores on winning; runs[0] is the claim */
    int nruns;
    int points;
    cardset_t cards;            /* every card in the scored runs */
} picket_sequences_t;

/* Suited: each maximal run of 3+ in one suit. Unsuited: ranks from any suit; the claim is the
 * longest run (then highest top), and the remaining cards are split into disjoint runs for the
 * most points (ruling, rules-matrix.md). */
void picket_sequences(cardset_t hand, int unsuited, picket_sequences_t *out);

/* Compare claims (length or count a0 first, then top or rank a1; two claims of nothing are equal):
 * >0 if a beats b, 0 if equal, <0 if b beats a. */
int picket_claim_cmp(int a0, int a1, int b0, int b1);
int picket_seq_claim_cmp(picket_seq_claim_t a, picket_seq_claim_t b);

typedef struct picket_set {
    int rank;
    int count;        /* 3 (ternary) or 4 (quatorze) */
    int points;       /* 3 or 14 */
    cardset_t cards;
} picket_set_t;

typedef struct picket_set_claim {
    int count;        /* 0 none, 3, 4 */
    int rank;
} picket_set_claim_t;

typedef struct picket_sets {
    picket_set_claim_t best;  /* any quatorze beats any ternary; then the higher rank */
    picket_set_t sets[5];     /* best first */
    int nsets;
    int points;
    cardset_t cards;
} picket_sets_t;
/* Ternaries and quatorzes of Tens and higher. */
void picket_sets(cardset_t hand, picket_sets_t *out);
int picket_set_claim_cmp(picket_set_claim_t a, picket_set_claim_t b);

#endif
