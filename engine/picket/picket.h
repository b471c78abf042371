/* picket: the rules of 17th-century Picket as a state machine over one set.
 *
 * The true state (picket_state_t) holds both hands and the stock. Everything public lives in
 * picket_pub_t, which changes only by applying public events (picket_pub_apply): the rules emit an
 * event for every fact that becomes known, and the same function updates the referee's public
 * record and every seat's view. A seat's private knowledge (its hand, the stock cards it saw,
 * the opponent's cards it knows) is tracked by the rules from the truth and, separately, by a
 * view from the events it receives; tests check the two agree. Nothing here searches or prints.
 */
#ifndef PICKET_PICKET_H
#define PICKET_PICKET_H

#include "cards.h"
#include "game.h"
#include "picket_rules.h"

enum { PK_HAND_CARDS = 12, PK_STOCK = 12, PK_TRICKS = 12, PK_PIQUE_AT = 30 };

/* Scoring categories, in the reckoning order, then the bonuses. */
typedef enum {
    PK_CAT_BLANK, PK_CAT_RUFF, PK_CAT_SEQ, PK_CAT_SETS, PK_CAT_PLAY, PK_CAT_LAST,
    PK_CAT_CARDS, PK_CAT_CAPOT, PK_CAT_PIQUE, PK_CAT_REPIQUE, PK_CAT_COUNT
} picket_cat_t;
extern const char *const PK_CAT_NAMES[PK_CAT_COUNT];

/* Where a hand is; to_move says who decides. */
typedef enum {
    PK_PH_DEAL,             /* chance: cut (first hand) and deal */
    PK_PH_BLANK_COUNT,      /* elder, Blank, commit-count: names how many he will discard */
    PK_PH_SET_ASIDE,        /* younger discards before elder shows his Blank (commit-count) */
    PK_PH_ELDER_EXCHANGE,
    PK_PH_YOUNGER_EXCHANGE,
    PK_PH_CALL,             /* elder names the suit he will lead, to see the leftover stock */
    PK_PH_LEFTOVER,         /* younger turns the leftover stock up, or not */
    PK_PH_DECLARE,          /* declarations=may-sink: elder calls what he will in the next category */
    PK_PH_ANSWER,           /* declarations=may-sink: younger allows it good, or answers with his best */
    PK_PH_APPOINT,          /* younger appoints the suit elder must lead */
    PK_PH_PLAY,
    PK_PH_CHOOSE,           /* cut=higher-chooses: the higher cut chooses to deal or not */
    PK_PH_OVER,
    PK_PH_COUNT
} picket_phase_t;
extern const char *const PK_PHASE_NAMES[PK_PH_COUNT];

/* Moves (game_move_t.kind). */
enum {
    PK_MV_DISCARD = 1,  /* cards: the discards */
    PK_MV_BLANK,        /* arg: how many elder will discard (commit-count) */
    PK_MV_CALL,         /* arg: suit, or -1 to leave the leftover unseen */
    PK_MV_LEFTOVER,     /* arg: 1 turn the leftover up, 0 keep it hidden */
    PK_MV_APPOINT,      /* arg: suit */
    PK_MV_PLAY,         /* arg: card; cards: its bit */
    PK_MV_CHOOSE,       /* arg: 1 deal first, 0 be elder first (cut=higher-chooses) */
    PK_MV_DECLARE,      /* arg: category; cards: what elder calls (0: nothing), declarations=may-sink */
    PK_MV_ANSWER        /* arg: 0 allow it good, 1 answer with his best (declarations=may-sink) */
};

/* Events (game_event_t.type). seat is the subject; fields as noted. */
enum {
    PK_EV_CUT = 1,   /* public: seat dealer (arg 0) or the higher cut, who chooses (arg 1); a, b: cards cut by seat 0 and seat 1 */
    PK_EV_HAND,      /* public: seat dealer; a: hand number (from 1); b: cards in the stock */
    PK_EV_DEALT,     /* private: cards: the seat's 12 cards */
    PK_EV_TURN,      /* public: seat to move (-1: none); arg: phase */
    PK_EV_BLANK,     /* public: seat declares a Blank; a: count elder commits to (commit-count) */
    PK_EV_SHOW,      /* public: arg: category shown (BLANK/RUFF/SEQ/SETS, or -1 leftover); cards */
    PK_EV_DISCARD,   /* public: a: count.  private copy to the seat: cards too */
    PK_EV_DRAW,      /* public: a: count.  private copy to the seat: cards too */
    PK_EV_PEEK,      /* private to elder: arg: card; a: its stock position (the rest of his eight) */
    PK_EV_CALL,      /* public: elder; arg: suit named, or -1 (leftover left unseen) */
    PK_EV_STOCK,     /* private to elder after a call: cards: the leftover stock */
    PK_EV_LEFTOVER,  /* public: younger; arg: 1 turned up (a SHOW follows), 0 kept hidden */
    PK_EV_DECLARE,   /* public: elder; arg: category; a, b: his claim */
    PK_EV_ANSWER,    /* public: younger; arg: category; a: answer; b, c: his claim unless good */
    PK_EV_SCORE,     /* public: arg: category; a: points; c: the seat's new total */
    PK_EV_APPOINT,   /* public: younger; arg: suit elder must lead */
    PK_EV_PLAY,      /* public: arg: card */
    PK_EV_TRICK,     /* public: seat wins the trick; a: tricks played so far */
    PK_EV_HAND_END,  /* public: the hand is over (scores: see the SCORE events' totals) */
    PK_EV_SET_END,   /* public: seat won (-1: a drawn partie); a: a partie's points, b: 1 a rubicon */
    PK_EV_CHOOSE,    /* public: the higher cut; arg: 1 he deals first, 0 he is elder first */
    PK_EV_COUNT
};
extern const char *const PK_EVENT_NAMES[PK_EV_COUNT];

/* Younger's answer to a declaration. */
enum { PK_ANS_GOOD, PK_ANS_EQUAL, PK_ANS_NOT_GOOD };

/* Declaration categories carried in arg of DECLARE/ANSWER/SHOW are PK_CAT_RUFF..SETS. */
enum { PK_DECL_COUNT = 3 };

enum { PK_PLAYS = 24 }; /* the most cards played in a hand: 12 tricks of 2 */

/* Everything both players know. Changed only by picket_pub_apply. */
typedef struct picket_pub {
    int32_t score[2];
    int16_t hand_pts[2];
    int16_t cat_pts[2][PK_CAT_COUNT];
    cardset_t blank_shown[2];  /* the 12 cards dealt, shown as a Blank */
    cardset_t decl_shown[2];   /* cards shown for Ruff, Sequences, sets */
    cardset_t decl_cards[PK_DECL_COUNT][2]; /* the same by declaration (Ruff, Sequences, sets) and seat */
    cardset_t leftover_shown;  /* undrawn stock turned up for both */
    cardset_t played[2];
    int16_t hand_no;           /* from 1; 0 before the first deal */
    int8_t cut[2];
    int8_t dealer;
    int8_t phase;
    int8_t to_move;
    int8_t winner;             /* -1 until the set is won */
    int8_t blank[2];
    int8_t blank_count;        /* elder's committed discard count, 0 if none */
    int8_t discarded[2];
    int8_t drawn[2];
    int8_t stock_left;
    int8_t called_suit;        /* -1: none */
    int8_t leftover;           /* -1 not decided, 0 unseen, 1 turned up, 2 seen by elder */
    int8_t appointed_suit;
    int16_t claim[PK_DECL_COUNT][2][2]; /* [decl][seat][field] as declared / answered */
    int8_t answer[PK_DECL_COUNT];       /* -1 until answered */
    int8_t decl_winner[PK_DECL_COUNT];  /* -1 none */
    int8_t trick_no;           /* tricks completed */
    int8_t leader;
    int8_t trick_card[2];      /* cards in the trick in progress, -1 none */
    int8_t tricks[2];
    uint8_t voids[2];          /* suit bits each seat is known to lack */
    int8_t reckoned[2];        /* has scored anything this hand */
    int8_t piqued;
    int8_t nplayed;            /* cards played this hand, in history */
    int8_t history[PK_PLAYS];  /* the cards played this hand in order: trick t is 2t (the lead), 2t+1 */
    uint8_t won_cats[2];       /* declaration categories (bit per picket_cat_t) each seat wins this
                                * hand, known from the answers before younger's are scored */
    int8_t chooser;            /* cut=higher-chooses: the higher cut, until he chooses; -1 */
    int8_t rubicon;            /* the partie's end: 1 when the loser was under the rubicon line */
    int16_t partie_pts;        /* the partie's end: what the winner wins */
} picket_pub_t;

/* A seat's private knowledge, besides its own hand and discards. */
typedef struct picket_know {
    cardset_t seen;        /* every card the seat has seen this hand */
    cardset_t opp_known;   /* cards known to be in the opponent's hand now */
    cardset_t stock_known; /* undrawn stock cards the seat has seen */
} picket_know_t;

typedef struct picket_state {
    picket_rules_t rules;
    uint64_t deal_seed;        /* the deals of this set: hand h from rng_derive(deal_seed, h) */
    cardset_t pack;
    picket_pub_t pub;
    cardset_t hand[2];
    cardset_t dealt[2];
    cardset_t discard[2];
    uint8_t stock[PK_STOCK];   /* stock[0] is the top */
    int8_t holds_blank[2];
    int8_t set_aside;          /* younger's discard count waiting to be drawn (commit-count) */
    cardset_t called;          /* declarations=may-sink: what elder called in the category being
                                * answered (his private choice until it is shown) */
    picket_know_t know[2];
    /* game=rubicon: the expected settlement when this hand was dealt, and a point's worth then
     * (picket_partie.h), kept for the hand partie_hand (0: none) so that a search's rewards do
     * not work them out again at every playout. */
    int16_t partie_hand;
    double partie_before, partie_unit;
} picket_state_t;

typedef struct picket_view {
    picket_rules_t rules;
    int seat;
    picket_pub_t pub;
    cardset_t hand;
    cardset_t dealt;           /* the seat's 12 cards as dealt this hand (0 before a deal) */
    cardset_t discards;
    picket_know_t know;
    int8_t peek[8];            /* elder: the stock cards he looked at, in stock order; -1 */
} picket_view_t;

static inline int picket_elder(const picket_pub_t *p) { return 1 - p->dealer; }
/* Elder's share of the stock: 8 of 12 (all sources); 5 of 8 with the 32-card pack (ruling). */
int picket_elder_share(const picket_rules_t *r);
/* The stock's cards: the pack less both hands. */
int picket_stock_size(const picket_rules_t *r);

/* Start a set. */
void picket_init(picket_state_t *st, const picket_rules_t *rules, uint64_t deal_seed);
/* A seat, GAME_CHANCE or GAME_OVER: of a state, and of the record alone (a view's). */
int picket_to_move(const picket_state_t *st);
int picket_pub_to_move(const picket_pub_t *pub);
/* The next deal: from the set's seed and the hand number (rng NULL), or drawn from rng. */
int picket_apply_chance(picket_state_t *st, rng_t *rng, game_event_t *ev, int evcap);
/* Deal chosen cards instead of shuffling (tests, analysis): hands by seat, stock top first.
 * Returns events written, or -1 if the cards are not exactly the pack or no deal is due. */
int picket_deal_given(picket_state_t *st, int dealer, const cardset_t hands[2], const uint8_t *stock,
                      game_event_t *ev, int evcap);
int picket_is_legal(const picket_state_t *st, const game_move_t *m, char *err, size_t errlen);
int picket_apply(picket_state_t *st, const game_move_t *m, game_event_t *ev, int evcap);
int picket_legal_moves(const picket_state_t *st, game_move_t *out, int cap);
int picket_random_move(const picket_state_t *st, rng_t *rng, game_move_t *out);

/* Shared by state and view: legal moves from public facts and the mover's hand. */
int picket_pub_legal_moves(const picket_rules_t *r, const picket_pub_t *pub, cardset_t hand, game_move_t *out, int cap);
/* Uniform over the legal moves; 0, or -1 if there is no legal move. Safe for any hand. */
int picket_pub_random_move(const picket_rules_t *r, const picket_pub_t *pub, cardset_t hand, rng_t *rng,
                           game_move_t *out);
/* k cards drawn uniformly from a set, without replacement (all of them if it has fewer). */
cardset_t picket_random_subset(rng_t *rng, cardset_t from, int k);
int picket_pub_is_legal(const picket_rules_t *r, const picket_pub_t *pub, cardset_t hand, const game_move_t *m,
                          char *err, size_t errlen);

/* declarations=may-sink: the category being declared (PK_CAT_RUFF..SETS), or -1 outside the
 * calls; and whether `cards` is a call a hand may make in it: nothing, the n highest cards of a
 * suit (the point), or holdings of the category each scoring as it would alone. */
int picket_declaring_cat(const picket_pub_t *pub);
enum { PK_MAX_CALLS = 1024 }; /* more than the calls any 12 cards allow in one category */
int picket_call_ok(const picket_rules_t *r, int cat, cardset_t hand, cardset_t cards);
/* Is the point's value left unsaid at the call (calls=cavendish, point=count: said only to a
 * younger as long who asks)? */
int picket_value_unsaid(const picket_rules_t *r, int cat);
/* A call of the hand's with that claim as the DECLARE event says it (the first in the order of
 * the legal moves), or 0 (a claim of nothing, or none matches). */
cardset_t picket_call_matching(const picket_rules_t *r, int cat, cardset_t hand, const int16_t claim[2]);
/* What cards score as a holding of the category on their own, and their claim. */
int picket_call_points(const picket_rules_t *r, int cat, cardset_t cards, int claim[2]);

/* How many cards the seat to move may (must) discard now: [lo, hi]; lo > hi outside an exchange. */
void picket_discard_range(const picket_rules_t *r, const picket_pub_t *pub, int *lo, int *hi);

/* Public record. */
void picket_pub_init(picket_pub_t *pub);
void picket_pub_apply(picket_pub_t *pub, const game_event_t *ev);
const char *picket_pub_diff(const picket_pub_t *a, const picket_pub_t *b);

/* Views. */
void picket_view_init(picket_view_t *v, const picket_rules_t *rules, int seat);
void picket_view_from_state(const picket_state_t *st, int seat, picket_view_t *v);
int picket_view_apply(picket_view_t *v, const game_event_t *ev);
const char *picket_view_diff(const picket_view_t *a, const picket_view_t *b);
int picket_view_legal_moves(const picket_view_t *v, game_move_t *out, int cap);

/* Notation. */
int picket_move_format(const game_move_t *m, char *buf, size_t len);
int picket_move_parse(const char *text, game_move_t *out, char *err, size_t errlen);
int picket_event_format(const game_event_t *ev, char *buf, size_t len);
int picket_event_parse(const char *text, int seat, game_event_t *ev, char *err, size_t errlen);

/* A world for a view (picket_sampler.c): game_t.sample_world. */
int picket_sample_world(const void *view, rng_t *rng, void *state_out);

/* The heuristic player's value of each move (picket_heuristic.c), and the weights it declares
 * (game_t.heuristic_params). */
enum { PICKET_HEURISTIC_NPARAMS = 38 };
extern const game_param_t PICKET_HEURISTIC_PARAMS[PICKET_HEURISTIC_NPARAMS];
void picket_heuristic_evaluate(const void *view, const double *params, const game_move_t *moves, int n,
                               double *values);
extern const game_t PICKET_GAME;

#endif
