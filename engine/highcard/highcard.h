/* highcard: a tiny test game for 2 to 4 seats with hidden cards (docs/highcard.md). It exists to
 * prove that a new game is its own folder and one registry line, and to exercise every game_t
 * hook with more than two seats; it is not meant to be played for its own sake.
 *
 * The rules:
 *  - A pack of 24 cards: 4 suits (C D H S) x 6 ranks (9 T J Q K A, low to high).
 *  - 2 to 4 seats (config players; 0 means 3). Each seat is dealt `hand` cards (flag hand=N,
 *    default 3, at most 24 / players); the rest of the pack is not used in that hand.
 *  - The deal is chance: from the config's deal_seed (rng_derive(deal_seed, hand number)) when
 *    apply_chance gets no generator, from the given generator otherwise.
 *  - A hand is `hand` rounds. In a round every seat in turn, from the leader on, plays one card
 *    face up; any card may be played (no obligation to follow suit).
 *  - The highest rank wins the round and scores 1 point; a tie in rank among the highest cards
 *    (whatever the suits) wins nobody anything. The winner leads the next round; after a tie
 *    the same leader leads again.
 *  - A game is `hands` hands (flag hands=N, default 2), each with a fresh deal; the first
 *    leader of hand h (from 1) is seat (h - 1) mod players.
 *  - Rank: by total points; tied seats share a rank and the next rank skips (0 0 2).
 *  - Preset: "standard" (the only one; "" means it).
 *
 * The public record (highcard_pub_t) changes only through highcard_pub_apply, on the referee's side and in
 * every view alike; it also knows which public event must come next, so a view refuses any event
 * that cannot follow. State and view are flat structs: memcpy copies them. Nothing here prints
 * or allocates.
 */
#ifndef PICKET_HIGHCARD_H
#define PICKET_HIGHCARD_H

#include <stdint.h>

#include "cards.h"
#include "game.h"

enum {
    HC_MIN_PLAYERS = 2,
    HC_MAX_PLAYERS = 4,
    HC_DEFAULT_PLAYERS = 3,
    HC_PACK_SIZE = 24,
    HC_DEFAULT_HAND = 3,
    HC_DEFAULT_HANDS = 2,
    HC_MAX_HANDS = 10000
};

/* The public event the record expects next (after a whole step: HAND, PLAY or NOTHING). */
typedef enum {
    HC_NEED_HAND,      /* chance: a deal is due */
    HC_NEED_TURN,      /* the rules owe a "turn" (after the deal, or a play) */
    HC_NEED_PLAY,      /* to_move must play */
    HC_NEED_ROUND,     /* the round is complete: its winner is owed */
    HC_NEED_HAND_END,
    HC_NEED_GAME_END,
    HC_NEED_NOTHING    /* the game is over */
} highcard_need_t;

/* Moves (game_move_t.kind): the only one is a card played. */
enum { HC_MV_PLAY = 1 }; /* arg: the card; cards: its bit */

/* Events (game_event_t.type); unused fields are 0. */
enum {
    HC_EV_HAND = 1,  /* public: a: hand number (from 1); seat: its first leader */
    HC_EV_DEALT,     /* private to seat: cards: the seat's hand */
    HC_EV_TURN,      /* public: seat must play */
    HC_EV_PLAY,      /* public: seat plays arg (a card); cards: its bit */
    HC_EV_ROUND,     /* public: a: rounds complete in this hand; seat: the winner, -1 for a tie */
    HC_EV_HAND_END,  /* public: seat -1 */
    HC_EV_GAME_END,  /* public: seat -1; arg: players; c: each seat's rank, 4 bits a seat */
    HC_EV_COUNT
};
extern const char *const HC_EVENT_NAMES[HC_EV_COUNT];

typedef struct highcard_rules {
    int32_t players, hand, hands;
} highcard_rules_t;

typedef struct highcard_pub {
    highcard_rules_t rules;
    int32_t need;                    /* highcard_need_t */
    int32_t hand_no;                 /* hands dealt so far; the current one */
    int32_t leader;                  /* leads the round in progress */
    int32_t to_move;                 /* after a "turn": the seat to play; else -1 */
    int32_t round_no;                /* rounds complete in this hand */
    int32_t n_played;                /* cards in the round in progress */
    int8_t round_card[HC_MAX_PLAYERS]; /* each seat's card in this round, -1 none */
    int32_t score[HC_MAX_PLAYERS];
    int32_t hand_pts[HC_MAX_PLAYERS]; /* points of the hand in progress (or just complete) */
    uint64_t played;                 /* cards played in this hand */
} highcard_pub_t;

typedef struct highcard_state {
    highcard_pub_t pub;
    cardset_t hand[HC_MAX_PLAYERS];
    uint64_t deal_seed;
} highcard_state_t;

typedef struct highcard_view {
    highcard_pub_t pub;
    int32_t seat;
    int32_t got_deal;                /* this hand's "dealt" has come */
    cardset_t hand;
} highcard_view_t;

/* The 24 cards. */
static inline cardset_t highcard_pack(void) { return cards_pack(HC_PACK_SIZE); }

/* Deal chosen hands (tests): each seat `hand` cards of the pack, disjoint. Returns the events
 * written (as apply_chance), or -1 if the hands are not a deal or no deal is due. */
int highcard_deal_given(highcard_state_t *st, const cardset_t *hands, game_event_t *ev, int evcap);

/* Notation (highcard_text.c). */
int highcard_move_format(const game_move_t *m, char *buf, size_t len);
int highcard_move_parse(const char *text, game_move_t *out, char *err, size_t errlen);
int highcard_event_format(const game_event_t *ev, char *buf, size_t len);
int highcard_event_parse(const char *text, int seat, game_event_t *out, char *err, size_t errlen);

/* The heuristic's one weight: play the highest card when its estimated chance to win the round
 * is at least 1 - aggression, else the lowest card. */
enum { HC_PARAM_AGGRESSION, HC_N_PARAMS };
extern const game_param_t HC_PARAMS[HC_N_PARAMS];
/* The estimated chance that the view's seat wins the round with its highest card. */
double highcard_win_chance(const highcard_view_t *v);

extern const game_t HIGHCARD_GAME;

#endif
