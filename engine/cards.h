/* cards: cards as small integers and sets of cards as 64-bit masks.
 *
 * A card is suit * 13 + rank, rank 0 = deuce ... 12 = ace, suits in the order C D H S.
 * That one 52-card index covers every pack the project plays (24, 32, 36, 52 cards); a pack is
 * just a mask. Text notation: rank 2..9 T J Q K A (input also takes 10), suit C D H S.
 * This module must never allocate: it sits under every hot loop.
 */
#ifndef PICKET_CARDS_H
#define PICKET_CARDS_H

#include <stddef.h>
#include <stdint.h>

typedef uint64_t cardset_t;

enum { CARD_SUITS = 4, CARD_RANKS = 13, CARD_COUNT = 52, CARD_NONE = -1 };
enum { SUIT_C = 0, SUIT_D = 1, SUIT_H = 2, SUIT_S = 3 };
enum {
    RANK_2 = 0, RANK_3, RANK_4, RANK_5, RANK_6, RANK_7, RANK_8, RANK_9,
    RANK_T, RANK_J, RANK_Q, RANK_K, RANK_A
};

#define CARDSET_SUIT_MASK 0x1FFFu

static inline int card_make(int suit, int rank) { return suit * CARD_RANKS + rank; }
static inline int card_suit(int card) { return card / CARD_RANKS; }
static inline int card_rank(int card) { return card % CARD_RANKS; }
static inline cardset_t cardset_of(int card) { return (cardset_t)1 << card; }
static inline int cardset_has(cardset_t set, int card) { return (int)((set >> card) & 1u); }
static inline int cardset_count(cardset_t set) { return __builtin_popcountll(set); }
/* Lowest card of a non-empty set. */
static inline int cardset_first(cardset_t set) { return __builtin_ctzll(set); }
/* Highest card of a non-empty set. */
static inline int cardset_last(cardset_t set) { return 63 - __builtin_clzll(set); }
/* The 13 rank bits of one suit. */
static inline unsigned cardset_suit_bits(cardset_t set, int suit)
{
    return (unsigned)(set >> (suit * CARD_RANKS)) & CARDSET_SUIT_MASK;
}
static inline cardset_t cardset_suit(int suit) { return (cardset_t)CARDSET_SUIT_MASK << (suit * CARD_RANKS); }
/* Every card of one rank, in all four suits. */
cardset_t cardset_rank(int rank);

/* The pack of 24 (9 to A: highcard), 32, 36 or 52 cards; 0 for any other size. */
cardset_t cards_pack(int size);
/* C(n, k): the k-card subsets of n cards; 0 outside 0 <= k <= n. */
uint64_t cards_choose(int n, int k);

extern const char CARD_RANK_CHARS[CARD_RANKS + 1];
extern const char CARD_SUIT_CHARS[CARD_SUITS + 1];

/* Parse one card from exactly len bytes ("AS", "td", "10H"). Returns the card or CARD_NONE. */
int card_parse(const char *text, size_t len);
/* Rank or suit from one character; CARD_NONE if unknown. */
int card_parse_rank(char c);
int card_parse_suit(char c);

/* Write "AS" (3 bytes with the terminator). Returns buf. */
char *card_format(int card, char buf[3]);

/* Parse a list of cards separated by spaces or commas. Every card must be in `allowed`; a card
 * named twice is refused. On success returns the count and sets *out; on failure returns -1 and
 * writes a one-line reason naming the bad token into err. */
int cards_parse_list(const char *text, cardset_t allowed, cardset_t *out, char *err, size_t errlen);

/* Write a set as space-separated cards, low to high by suit then rank. Returns the length
 * written (truncated to fit, always terminated when len > 0). */
size_t cardset_format(cardset_t set, char *buf, size_t len);

/* Write a set in rank order within suit order (same as cardset_format) and return the number
 * of cards listed into `cards` (at most 52). */
int cardset_to_array(cardset_t set, int *cards);
/* The same as bytes (a deck to shuffle, a list of cards to play). */
int cardset_to_bytes(cardset_t set, uint8_t *cards);

#endif
