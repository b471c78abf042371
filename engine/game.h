/* game: the one interface through which search, protocol and arena see a game.
 *
 * A game is a table of function pointers over flat, fixed-size state and view structs, so a
 * state or view is copied with memcpy(state_size) and never owns memory. Moves and events are
 * small value structs whose fields each game gives meaning to; generic code only stores,
 * compares, routes (by audience) and prints them through the game's own notation.
 *
 * Code under search/, protocol/ and the arena includes this header and never a game's own
 * headers (the build's layer check enforces it): a game is its own folder under engine/, its
 * library, and one line in engine/registry.c.
 *
 * Version 2 of the interface. Seeds are named for what they are: a config's deal_seed drives
 * the game's own chance (the deals a record replays); a bot's seed is the bot's, never the
 * game's. Generic code may also draw chance from a generator of its own (apply_chance with an
 * rng), as a search does in a sampled world.
 */
#ifndef PICKET_GAME_H
#define PICKET_GAME_H

#include <stddef.h>
#include <stdint.h>

#include "rng.h"
#include "text.h"

enum {
    GAME_CHANCE = -1,     /* to_move: the game itself acts next (a deal) */
    GAME_OVER = -2,       /* to_move: terminal */
    GAME_ALL = -1,        /* event audience: every seat */
    GAME_MAX_PLAYERS = 8,
    GAME_MAX_FLAGS = 32,
    GAME_MAX_MOVES = 4096,       /* upper bound on legal moves in any position */
    GAME_MAX_LEARNED_ACTIVE = 256, /* upper bound on a learned judgement's active inputs */
    GAME_MAX_EVENTS = 128,       /* upper bound on events emitted by one apply */
    GAME_ERR_LEN = 160
};

/* A move. kind/arg/cards mean what the game says; two moves are the same iff all fields are. */
typedef struct game_move {
    uint16_t kind;
    int16_t arg;
    uint32_t reserved; /* always 0, so moves compare with memcmp */
    uint64_t cards;
} game_move_t;

/* A move that names one card: the card as arg, its bit as cards. */
static inline game_move_t game_card_move(int kind, int card)
{
    game_move_t m = { (uint16_t)kind, (int16_t)card, 0, (uint64_t)1 << card };
    return m;
}

/* One thing that happened. audience is GAME_ALL or the one seat allowed to see it. */
typedef struct game_event {
    uint8_t type;
    int8_t audience;
    int8_t seat;
    int8_t arg;
    int16_t a;
    int16_t b;
    int32_t c;
    uint32_t reserved; /* always 0: no hidden padding, so events compare with memcmp */
    uint64_t cards;
} game_event_t;
_Static_assert(sizeof(game_event_t) == 24, "game_event_t has no padding");
_Static_assert(sizeof(game_move_t) == 16, "game_move_t has no padding");

/* How to start a game: preset, flag overrides ("name=value"), the deal seed, players. */
typedef struct game_config {
    char preset[32];             /* "" for the game's default */
    char flags[GAME_MAX_FLAGS][48];
    int n_flags;
    uint64_t deal_seed;          /* the game's own chance: equal seeds, equal deals */
    int players;                 /* 0 for the game's default */
} game_config_t;

/* A perfect-information endgame: the play of a hand with every card known, as a trick solver
 * searches it. Two-player only: a game with more players gives NULL. Positions are small flat structs copied on every move (copy-make); a move is a
 * small integer the game gives meaning to (a card for Picket). */
enum { ENDGAME_MAX_MOVES = 64, ENDGAME_NO_BOUND = 10000 };
typedef struct game_endgame {
    size_t pos_size;
    /* The position of a state whose hand is in its play phase (both hands known): 0, or -1. */
    int (*from_state)(const void *state, void *pos);
    /* 0 or 1; -1 once the hand is over. */
    int (*to_move)(const void *pos);
    /* The moves worth searching: one per class of equivalent moves, in a good order to try. */
    int (*moves)(const void *pos, uint8_t *out);
    /* Every legal move (the reference search uses these). */
    int (*all_moves)(const void *pos, uint8_t *out);
    /* The move of moves() that stands for this legal move. */
    int (*representative)(const void *pos, int move);
    /* child = pos after move; returns the points it scores, seat 0's minus seat 1's. */
    int (*play)(const void *pos, int move, void *child);
    /* A canonical key: equal for positions whose futures score alike (rules included); 0 for a
     * position not worth a table entry (one that rarely recurs). */
    uint64_t (*key)(const void *pos);
    /* Bounds on the value of the rest (as play's points: seat 0's minus seat 1's) known
     * without searching; ENDGAME_NO_BOUND for none. NULL: never any. */
    void (*bounds)(const void *pos, int *lo, int *hi);
    /* A move as a table keeps it, in the key's terms (0..254), and back: positions that share
     * a key may differ in the moves' names (NULL for both: a move is its own code). code_move
     * returns -1 for a code with no move here. */
    int (*move_code)(const void *pos, int move);
    int (*code_move)(const void *pos, int code);
    /* Moves left to the end: how much work a position is worth keeping in a table. */
    int (*depth)(const void *pos);
    void (*to_game_move)(int move, game_move_t *out);
} game_endgame_t;

/* A number the game's heuristic player weighs by, declared once so that a bot can offer it as
 * an option and a tuner can move it: the value is a double in [min, max]. */
typedef struct game_param {
    const char *name;     /* lower case, digits and '_' */
    double def, min, max;
    const char *help;
} game_param_t;

/* What a table shows a person at one seat (picket-serve's page), made from that seat's view
 * alone, so it holds nothing the seat may not see: the seat's cards, the cards on the table in
 * piles, the scores, the hand's points by category, and the public state in words. */
enum { GAME_TABLE_PILES = 16, GAME_TABLE_LINES = 8, GAME_TABLE_TEXT = 96, GAME_TABLE_CATS = 12 };
typedef struct game_table_pile {
    char label[40];          /* what they are: "trick", "discards", "shown", "face up", "Lead" */
    int8_t seat;             /* whose, -1 nobody's */
    int8_t n;                /* cards, in order (a trick's in the order played) */
    int8_t card[24];
} game_table_pile_t;
typedef struct game_table {
    uint64_t hand;           /* the seat's cards now */
    int players;
    int32_t score[GAME_MAX_PLAYERS];
    int n_piles;
    game_table_pile_t pile[GAME_TABLE_PILES];
    int n_cats;              /* the hand's points by category (0: the game keeps none) */
    char cat_name[GAME_TABLE_CATS][16];
    int16_t cat_pts[GAME_TABLE_CATS][GAME_MAX_PLAYERS];
    int n_lines;
    char line[GAME_TABLE_LINES][GAME_TABLE_TEXT];
} game_table_t;
/* Add a pile of cards (a set, in card order) to a table; nothing if it is full or empty. */
void game_table_pile(game_table_t *t, const char *label, int seat, uint64_t cards);
/* Add a line of words to a table (printf-style); nothing if it is full. */
void game_table_line(game_table_t *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

typedef struct game {
    const char *name;
    size_t state_size;
    size_t view_size;

    /* Start a game. Returns 0, or -1 with a one-line reason in err (unknown preset or flag, a
     * number of players the game does not take). */
    int (*init)(void *state, const game_config_t *cfg, char *err, size_t errlen);
    int (*num_players)(const void *state);
    /* A seat, GAME_CHANCE or GAME_OVER. */
    int (*to_move)(const void *state);
    /* Resolve a chance node. rng NULL: from the game's own stream (the config's deal_seed, so a
     * record replays); otherwise every draw comes from rng. Returns events written, which may
     * exceed evcap (then only evcap were written: callers treat that as a fault). A chance node
     * always writes one at least: none means a state the rules cannot go on from, which a search
     * treats as a failed playout (a world drawn from a view the rules never give). */
    int (*apply_chance)(void *state, rng_t *rng, game_event_t *ev, int evcap);
    /* Every legal move for the seat to move; returns the count (<= cap). */
    int (*legal_moves)(const void *state, game_move_t *out, int cap);
    /* One legal move drawn uniformly from the legal moves, without listing them. Returns 0, or
     * -1 if there is none. */
    int (*random_move)(const void *state, rng_t *rng, game_move_t *out);
    /* 1 if legal for the seat to move; else 0 with a reason in err. */
    int (*is_legal)(const void *state, const game_move_t *m, char *err, size_t errlen);
    /* Apply a legal move (check first). Returns events written to ev (may be NULL). */
    int (*apply)(void *state, const game_move_t *m, game_event_t *ev, int evcap);
    /* The final standing: 1 once the game is over, with rank[seat] (0 for first; tied seats
     * share a rank, and the next rank skips: 0 0 2); 0 before the end, rank untouched. */
    int (*rank)(const void *state, int *rank);
    /* Current scores, num_players of them (for records and progress lines). */
    void (*scores)(const void *state, int *out);
    /* What a finished game settles on each seat in the game's own points, for a game whose
     * result is a margin as well as a rank (a Picket partie: the winner's rubicon points, the
     * loser's the same negated, a drawn partie 0 each): 1 with out filled once the game is over,
     * else 0. NULL: the rank is the whole result. */
    int (*settled)(const void *state, int *out);
    /* Hands: the unit a search looks ahead to. 1 when the hand in progress is complete (the
     * next step deals a new one, or the game is over); 0 inside a hand. */
    int (*hand_over)(const void *state);
    /* What the current hand (or the one just complete) is worth to each seat so far, in the
     * game's points: num_players values. */
    void (*hand_value)(const void *state, double *out);
    /* The search's reward at a horizon, where a hand's points (hand_value) are not the measure:
     * what the hand in progress, or just over (or the game's end), is worth to each seat in
     * points of the game's own reckoning (a Picket partie: how far the hand moved the seat's
     * expected settlement, in points of difference). 1 with out filled (num_players values), or
     * 0 where the generic reward applies (hand_value; at the game's end, its returns). NULL:
     * always the generic reward. */
    int (*horizon_value)(const void *state, double *out);
    /* Views: what one seat knows. */
    void (*view_from_state)(const void *state, int seat, void *view);
    int (*view_seat)(const void *view);
    int (*view_num_players)(const void *view);
    /* A world: a full state drawn uniformly among those consistent with the view, that is
     * every state w with view_diff(view_from_state(w, seat), view) == NULL that the rules could
     * have reached through the public record; its future chance is drawn from rng (through the
     * state's own stream, reseeded from rng). Returns 0, or -1 if no world is found. NULL for
     * a game that cannot sample. */
    int (*sample_world)(const void *view, rng_t *rng, void *state_out);
    /* The same, prepared once for a view so that drawing many worlds is cheap (a search draws
     * one per iteration). sampler_new gives NULL with a one-line reason (a malformed view, or
     * memory); sampler_draw is sample_world's contract; sampler_count gives the exact number of
     * consistent worlds and, in *holdings (may be NULL), of the distinct card holdings the other
     * seats can have; sampler_prepare makes a sampler over for another view, keeping its memory
     * (0, or -1 with a reason). NULL hooks: the game has none (use sample_world). */
    void *(*sampler_new)(const void *view, char *err, size_t errlen);
    int (*sampler_prepare)(void *sampler, const void *view, char *err, size_t errlen);
    int (*sampler_draw)(void *sampler, rng_t *rng, void *state_out);
    uint64_t (*sampler_count)(const void *sampler, uint64_t *holdings);
    void (*sampler_free)(void *sampler);
    /* An empty view for `seat`, before any event (same config as the game). */
    int (*view_init)(void *view, const game_config_t *cfg, int seat, char *err, size_t errlen);
    /* Apply one event the seat may see. Returns 0, or -1 if it cannot follow from the view. */
    int (*view_apply)(void *view, const game_event_t *ev);
    /* NULL if equal, else the name of the first field that differs. */
    const char *(*view_diff)(const void *a, const void *b);
    int (*view_to_move)(const void *view);
    int (*view_legal_moves)(const void *view, game_move_t *out, int cap);
    /* One legal move for the view's seat, drawn uniformly without listing them; 0 or -1. */
    int (*view_random_move)(const void *view, rng_t *rng, game_move_t *out);

    /* What `observer` learns of a move `mover` makes in `state` (any world of the position will
     * do: what is seen depends on the rules and the move): the move itself, or less (a Picket
     * discard: its count). A search groups moves an observer cannot tell apart by this. NULL:
     * every move is seen whole. */
    void (*move_seen)(const void *state, const game_move_t *m, int mover, int observer, game_move_t *seen);

    /* Notation. Parsing checks form only; legality is is_legal's job. */
    int (*move_format)(const game_move_t *m, char *buf, size_t len);
    int (*move_parse)(const char *text, game_move_t *out, char *err, size_t errlen);
    /* One event as a line of text (for logs, replays and the protocol). */
    int (*event_format)(const game_event_t *ev, char *buf, size_t len);
    /* The inverse, as received by `seat`: private events get that seat as audience. Returns 0,
     * or -1 with a reason. parse(format(e)) == e for every event a seat may see. */
    int (*event_parse)(const char *text, int seat, game_event_t *out, char *err, size_t errlen);
    /* A rule-of-thumb value for each move of the view's seat (higher is better): the game's
     * heuristic player, for baselines and move ordering. params: n_heuristic_params values in
     * the order of heuristic_params, or NULL for every default. */
    void (*heuristic_evaluate)(const void *view, const double *params, const game_move_t *moves, int n,
                               double *values);
    const game_param_t *heuristic_params;
    int n_heuristic_params;
    /* A learned judgement of some decisions, where the game has one (NULL otherwise): the bytes
     * of a net file (engine/net.h) built into the program, and the net's inputs for move m of
     * the view's seat: how many (into active, at most cap, which GAME_MAX_LEARNED_ACTIVE always
     * holds), or -1 for a decision it does not cover. */
    const unsigned char *learned_net;
    size_t learned_net_size;
    int (*learned_inputs)(const void *view, const game_move_t *m, int *active, int cap);
    /* The endgame a trick solver searches, or NULL for a game without one. */
    const game_endgame_t *endgame;
    /* Which phase the view's decision is in: 1 when the hand is in its play, so that every
     * world the view allows is a position of `endgame` (its from_state succeeds); else 0. A
     * public fact: a search reads it here instead of drawing a world. Required with endgame. */
    int (*view_in_play)(const void *view);
    /* What a person at the view's seat is shown (game_table_t); NULL: the game gives a table
     * only its events and moves. */
    void (*view_table)(const void *view, game_table_t *out);
} game_t;

/* The hooks every game defines under the same names in its own file (its adapters: g_init,
 * g_to_move, ..., g_view_random), for its table: `const game_t X = { GAME_HOOKS, .name = ... }`
 * adds what is particular to the game (notation, worlds, heuristic, endgame). */
#define GAME_HOOKS                                                                                   \
    .init = g_init, .num_players = g_num_players, .to_move = g_to_move, .apply_chance = g_apply_chance, \
    .legal_moves = g_legal, .random_move = g_random, .is_legal = g_check, .apply = g_apply,          \
    .rank = g_rank, .scores = g_scores, .hand_over = g_hand_over, .hand_value = g_hand_value,        \
    .view_from_state = g_view_from_state, .view_seat = g_view_seat,                                  \
    .view_num_players = g_view_num_players, .view_init = g_view_init, .view_apply = g_view_apply,    \
    .view_diff = g_view_diff, .view_to_move = g_view_to_move, .view_legal_moves = g_view_legal,      \
    .view_random_move = g_view_random

/* Each seat's return from its rank, in [0, 1]: the share of the other seats it beat, a tie
 * counting half (2 players: 1 win, 0 loss, 0.5 tie). Returns 0, or -1 (all 0.5) before the
 * end. */
int game_returns(const game_t *g, const void *state, double *out);

/* The game registry (engine/registry.c): every game the project knows. */
const game_t *game_find(const char *name);
const game_t *const *game_list(int *count);

/* 1 if the event is for this seat. */
static inline int game_event_visible(const game_event_t *ev, int seat)
{
    return ev->audience == GAME_ALL || ev->audience == seat;
}

/* The generator a chance step draws from: `given`, or else `own` seeded for the game's own stream
 * rng_derive(deal_seed, stream), so that a record replays. */
rng_t *game_chance_rng(rng_t *given, rng_t *own, uint64_t deal_seed, uint64_t stream);

/* An is_legal hook's refusal: the reason into err, printf-style. Returns 0 (illegal), for
 * `return game_illegal(...)`. */
int game_illegal(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Moves of one kind that play one card each: every card of `cards`, low to high (at most cap), or
 * one drawn uniformly (-1 when there is none). */
int game_card_moves(int kind, uint64_t cards, game_move_t *out, int cap);
int game_random_card_move(int kind, uint64_t cards, rng_t *rng, game_move_t *out);

/* Moves that each name one card ("play AS") or nothing ("resign"), by verb: verbs[kind] for kinds
 * 1..n-1, the kinds in `bare` (bits) naming nothing. Written as "?" for a kind not there or a card
 * out of the pack; read with a one-line reason on failure (format as move_format, move_parse). */
int game_card_move_format(const game_move_t *m, const char *const *verbs, int n, unsigned bare, char *buf,
                          size_t len);
int game_card_move_parse(const char *text, const char *const *verbs, int n, unsigned bare, game_move_t *out,
                         char *err, size_t errlen);

/* A config flag "name=value" split: the name copied into name (cap bytes) and *value pointing
 * into it after the '='. 0, or -1 with "flag 'X' is not of the form name=value". */
int game_flag_split(const char *flag, char *name, size_t cap, const char **value, char *err, size_t errlen);

/* The start of reading an event line: ev cleared (audience GAME_ALL), the text tokenized into
 * tk, its first word looked up in names[1..count) and set as ev->type, and that word quoted into
 * word (for messages). 0, or -1 with "empty or overlong event" or "unknown event 'X'". */
int game_event_start(const char *text, const char *const *names, int count, text_tokens_t *tk, game_event_t *ev,
                     char *word, size_t wordcap, char *err, size_t errlen);
/* An event's notation as a table, one row a form, that both writes and reads it. A row's words
 * are separated by single spaces: a literal word, or a field %F then its kind, F one of
 * s (seat), S (seat, the row private to it), g (arg), a, b, c:
 *   #LO:HI   a whole number in [LO, HI]     (KIND)N  a name of the list, the value its index + N
 *   C        a card; P: a card, its bit in cards too   {L}LO:HI  a name of lists[L], index LO..HI
 *   U        a suit letter                  %*  the words to the end: the cards, none twice (%+: one
 * or more). A row without a seat word gives seat -1. A type's rows end with { 0, NULL }'s table end. */
typedef struct game_notation {
    int type;
    const char *words;
} game_notation_t;
/* The event in the first row of its type whose fields hold its values (a number in range, a
 * name's index, a card, some cards), else in the type's last row; "?" for a type with no row.
 * Returns the length as snprintf does. */
int game_event_write(const game_notation_t *rows, const char *const *const *lists, const game_event_t *ev,
                     char *buf, size_t len);
/* The words of tk read by the first row of ev's type that takes them all, for `seat`: 1 (the
 * fields set, a private row's audience the seat), 2 if the row is private to another seat (its
 * seat read), 0 if no row takes them. ev: as game_event_start left it. */
int game_event_read(const game_notation_t *rows, const char *const *const *lists, const text_tokens_t *tk, int seat,
                    game_event_t *ev);
/* A field of a flat struct, as a view_diff names it; a table of them ends with { NULL }. */
typedef struct game_field {
    const char *name;
    size_t offset, size;
} game_field_t;
#define GAME_FIELD(type, f) { #f, offsetof(type, f), sizeof(((type *)0)->f) }
/* NULL if a and b agree byte for byte on every field of the table, else the first one's name that
 * differs. */
const char *game_fields_diff(const void *a, const void *b, const game_field_t *fields);

/* Add "name=value" to a config; -1 with a reason if malformed or too many. */
int game_config_add_flag(game_config_t *cfg, const char *flag, char *err, size_t errlen);
/* Set the preset; -1 if too long. */
int game_config_set_preset(game_config_t *cfg, const char *preset, char *err, size_t errlen);

#endif
