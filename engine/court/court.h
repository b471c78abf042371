/* court: the rules of Lewis Carroll's Court Circular (1860) for 2 to 8 seats, as a state machine
 * over one game (issue 13). Source: ../shared/seeds/004_3d7ab3dc65df5666.txt; the readings the
 * text leaves open are the rulings of ../shared/design/rules-matrix.md ("Court Circular").
 *
 *  - A 52-card pack. Each seat cuts a card; the highest (the card order of rule IV) is
 *    first-hand, the lowest deals, and the same seat deals and the same seat is first-hand at the
 *    start of every deal of the game.
 *  - The deal (chance): 6 cards to each seat one at a time from first-hand round the table (seat
 *    order), then the next card turned up as the Lead. The pack stays in that order: refills are
 *    no new chance.
 *  - A trick: first-hand plays a card, then each seat in turn, until every seat still in it has
 *    put down 3 cards or emptied its hand. A seat whose turn it is may resign instead, after the
 *    trick's first card, before any seat has put down 3, and never once the pack is exhausted; it
 *    sits out the rest of the trick. The last seat left in wins; otherwise the best Line wins, and
 *    with no Line the best card (court_lines.h).
 *  - The winner picks the next Lead from the cards on the table (never the old Lead), takes the
 *    rest face up if he was first-hand of the trick, face down if not, and is first-hand of the
 *    next, even with no cards left once the pack is exhausted: then the next seat round the table
 *    that holds cards opens the trick, and its winner, not first-hand, takes face down (ruling
 *    "empty-first-hand", docs/court.md). Every hand is made up to 6 again, one card at a time
 *    from the new first-hand, while the pack lasts. When the pack is exhausted and every hand is empty, the winner of the last
 *    trick clears the board (the Lead too), face up or face down by the same rule.
 *  - Reckoning at the end of a deal: a card taken face up 2, face down 1, +1 for a Heart, +1 for
 *    a court card. Every seat scores the difference between its marks and the lowest seat's (two
 *    seats: the winner scores the difference). The game ends after the deal in which a seat
 *    reaches the target (flag target=20|50, default 50); seats rank by score, ties sharing.
 *
 * Nothing here prints or allocates; a state is a flat struct copied with memcpy.
 */
#ifndef PICKET_COURT_H
#define PICKET_COURT_H

#include <stddef.h>
#include <stdint.h>

#include "cards.h"
#include "court_lines.h"
#include "game.h"
#include "rng.h"

enum {
    CC_MIN_PLAYERS = 2,
    CC_MAX_PLAYERS = 8,
    CC_DEFAULT_PLAYERS = 2,
    CC_HAND = 6,
    CC_PACK = 52,
    CC_DEFAULT_TARGET = 50
};

typedef struct court_rules {
    int players;
    int target;
} court_rules_t;

enum { CC_PH_DEAL, CC_PH_PLAY, CC_PH_LEAD, CC_PH_OVER };

/* Moves (game_move_t.kind). */
enum {
    CC_MV_PLAY = 1,   /* arg: a card from the hand */
    CC_MV_RESIGN,     /* arg: 0 */
    CC_MV_LEAD        /* arg: the card on the table chosen as the next Lead */
};

/* Events (game_event_t.type); unused fields are 0. Every event but CC_EV_CARD is public. */
enum {
    CC_EV_CUT = 1,    /* seat cut card arg (cards: its bit) */
    CC_EV_DEAL,       /* a deal begins: a = its number (from 1), seat = first-hand, b = the dealer */
    CC_EV_CARD,       /* to one seat: card arg (cards: its bit) given to it from the pack */
    CC_EV_GIVEN,      /* seat was given a card (which, only it knows); a = cards left in the pack */
    CC_EV_LEAD,       /* the Lead is card arg (cards: its bit): turned up (seat -1) or chosen by seat */
    CC_EV_TRICK,      /* a trick begins: seat = first-hand (with no cards once the pack is out: the
                       * TURN that follows names the seat that opens), a = its number in the deal */
    CC_EV_TURN,       /* seat is to move; arg = the phase (CC_PH_PLAY or CC_PH_LEAD) */
    CC_EV_PLAY,       /* seat put down card arg (cards: its bit) */
    CC_EV_RESIGN,     /* seat resigned the trick */
    CC_EV_WON,        /* seat won the trick; arg = its line's class, a = kind, b = length (0 0 0: none) */
    CC_EV_TAKE,       /* seat took the cards (bits), arg = 1 face up, 0 face down */
    CC_EV_SCORE,      /* seat: a = its marks this deal, b = points scored, c = its new total */
    CC_EV_DEAL_END,   /* a = the deal's number */
    CC_EV_GAME_END,
    CC_EV_COUNT
};

/* Everything every seat knows, changed only by court_pub_apply (public events). */
typedef struct court_pub {
    court_rules_t rules;
    int32_t score[CC_MAX_PLAYERS];
    cardset_t up[CC_MAX_PLAYERS];    /* taken face up this deal */
    cardset_t down[CC_MAX_PLAYERS];  /* taken face down this deal */
    int8_t cut[CC_MAX_PLAYERS];      /* -1 until cut */
    int8_t held[CC_MAX_PLAYERS];     /* cards in each hand */
    int8_t played[CC_MAX_PLAYERS][CC_PER_TRICK];
    int8_t count[CC_MAX_PLAYERS];    /* cards each seat has put down in the trick */
    int16_t deal_no;                 /* deals begun; 0 before the first */
    int8_t dealer, deal_first;       /* for the whole game (the cut); -1 before */
    int8_t phase, to_move;           /* to_move: after a TURN, the seat; else -1 */
    int8_t first;                    /* first-hand of the trick in progress */
    int8_t lead;                     /* the Lead, -1 none */
    int8_t pack_left;
    int8_t trick_no;                 /* tricks begun this deal */
    uint8_t in;                      /* seats in the trick (had cards, not resigned) */
    int8_t winner;                   /* the last trick's winner, -1 none */
    int8_t old_lead;                 /* the Lead before the winner chose the next, -1 none */
} court_pub_t;

typedef struct court_state {
    court_pub_t pub;
    uint64_t deal_seed;              /* deal d from rng_derive(deal_seed, d); the cut from stream 0 */
    cardset_t hand[CC_MAX_PLAYERS];
    uint8_t pack[CC_PACK];           /* the deal's pack in order; pack[CC_PACK - pack_left] next */
} court_state_t;

/* A seat's view: the public record and its own hand. */
typedef struct court_view {
    court_pub_t pub;
    int32_t seat;
    cardset_t hand;
} court_view_t;

/* Apply one public event to the record: 0, or -1 (nothing changed) if it is malformed or cannot
 * follow. */
int court_pub_apply(court_pub_t *p, const game_event_t *ev);
/* The cards on the table: every card put down in the trick in progress. */
cardset_t court_table(const court_pub_t *p);
/* A seat, GAME_CHANCE (a deal, or events still owed) or GAME_OVER, from the record alone. */
int court_pub_to_move(const court_pub_t *p);
/* Every card seen by all this deal: taken, on the table, the Lead. */
cardset_t court_public_cards(const court_pub_t *p);
/* May the seat to move resign now (rule VII, Section II)? */
int court_may_resign(const court_pub_t *p);

/* The rules from a config: preset "carroll" (or ""), players 2..8 (0: 2), flag target=20|50.
 * 0, or -1 with a one-line reason. */
int court_rules_build(court_rules_t *r, const game_config_t *cfg, char *err, size_t errlen);
void court_init(court_state_t *st, const court_rules_t *r, uint64_t deal_seed);
/* A seat, GAME_CHANCE or GAME_OVER. */
int court_to_move(const court_state_t *st);
/* The cut (once) and a deal: from the game's own stream with rng NULL, else from rng. Returns
 * the events written (at most evcap kept). */
int court_apply_chance(court_state_t *st, rng_t *rng, game_event_t *ev, int evcap);
int court_legal_moves(const court_state_t *st, game_move_t *out, int cap);
/* 1 if legal; else 0 with a reason. */
int court_is_legal(const court_state_t *st, const game_move_t *m, char *err, size_t errlen);
/* Apply a legal move (check first). Returns the events written. */
int court_apply(court_state_t *st, const game_move_t *m, game_event_t *ev, int evcap);
/* Notation (court_text.c). */
extern const char *const CC_EVENT_NAMES[CC_EV_COUNT];
int court_move_format(const game_move_t *m, char *buf, size_t len);
int court_move_parse(const char *text, game_move_t *out, char *err, size_t errlen);
int court_event_format(const game_event_t *ev, char *buf, size_t len);
int court_event_parse(const char *text, int seat, game_event_t *out, char *err, size_t errlen);

/* The rules point by point (court_text.c): the reading played and the source's sentence, for
 * `picket rules --game court-circular` and docs/court.md. */
typedef struct court_ruling {
    const char *point, *reading, *source;
} court_ruling_t;
extern const court_ruling_t CC_RULINGS[];
extern const int CC_N_RULINGS;

/* The heuristic player's weights (court_game.c). */
enum { CC_W_LINE, CC_W_CARD, CC_W_KEEP, CC_W_RESIGN, CC_N_PARAMS };
extern const game_param_t CC_PARAMS[CC_N_PARAMS];

extern const game_t COURT_GAME;

/* The marks of cards taken (rule VIII), and the lowest seat's this deal. */
int court_marks(cardset_t up, cardset_t down);
int court_low_marks(const court_pub_t *p);

#endif
