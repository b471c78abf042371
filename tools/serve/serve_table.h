/* serve_table: one set at picket-serve's table, a person at one seat and engine processes at the
 * others, played by the project's one referee (engine/referee.h) as in the arena.
 *
 * The engines are arena seats (tools/arena/arena_match.h): each is told only its own seat's
 * events. The person's side is a seat whose events are kept as text; everything the table
 * shows the person (serve_table_snapshot) is made from those events and the view they build,
 * never from the true state, so no card the person may not see can reach the page.
 *
 * A worker thread steps the referee while an engine is to move; the snapshot is published after
 * every step under a lock of its own, so a browser that polls never waits on a thinking engine.
 * Taking back a decision, or going on after an engine failed, rebuilds the table: a fresh referee
 * on the same deals, fresh engine processes, and the moves kept replayed through the referee.
 */
#ifndef PICKET_SERVE_TABLE_H
#define PICKET_SERVE_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "arena_match.h"
#include "game.h"
#include "serve_review.h"

enum { SERVE_MAX_MOVES = 8192, SERVE_MAX_EVENTS = 16384, SERVE_EVENT_LEN = 128 };

typedef struct serve_move {
    int seat;
    game_move_t move;
} serve_move_t;

typedef struct serve_table_setup {
    const game_t *game;
    game_config_t cfg;                          /* rules, players, the deal seed */
    int human;                                  /* the person's seat */
    int seed_public;                            /* the person chose the seed: it may be shown */
    const arena_spec_t *engine[GAME_MAX_PLAYERS]; /* by seat; NULL at the person's */
    const arena_spec_t *hint;                   /* the engine that gives hints (NULL: none) */
    serve_values_t hint_unit;                   /* what its values are */
    uint64_t engine_seed;                       /* the engines' own randomness (never the deals') */
} serve_table_setup_t;

typedef struct serve_table serve_table_t;

/* A table, with `moves` (n of them, from a saved record) replayed first. NULL with a one-line
 * reason (the rules, an engine that does not start, a move that does not fit). */
serve_table_t *serve_table_new(const serve_table_setup_t *s, const serve_move_t *moves, int n, char *err,
                               size_t errlen);
/* Stops the worker and the engines. */
void serve_table_free(serve_table_t *t);

/* The person's move, as notation ("play QH", "call S") or, when text is NULL, as the cards of
 * the one legal move that holds exactly them. 0; -1 with a reason (not the person's turn, the
 * engines still thinking, not a legal move). */
int serve_table_move(serve_table_t *t, const char *text, uint64_t cards, char *err, size_t errlen);
/* Take back the person's last decision (and the engines' answers after it). 0, or -1. */
int serve_table_takeback(serve_table_t *t, char *err, size_t errlen);
/* Go on after an engine failed: the same moves on fresh processes. 0, or -1. */
int serve_table_restart(serve_table_t *t, char *err, size_t errlen);
/* The hint engine's values of the person's moves, best first, as a JSON array text
 * ([{"move":..,"value":..,"points":..}], points null when the value has no unit in points:
 * serve_value_points);
 * malloc'd, or NULL with a reason. */
char *serve_table_hint(serve_table_t *t, char *err, size_t errlen);

/* What the person sees, as a JSON object text (malloc'd; NULL out of memory), once its sequence
 * number is above `since` or `wait` seconds have passed; events from index `from` on. *seq gets
 * the snapshot's number. */
char *serve_table_snapshot(serve_table_t *t, long since, double wait, int from, long *seq);
/* The set so far as a game record (malloc'd text; NULL out of memory). */
char *serve_table_record(serve_table_t *t);
/* End every wait for news now and from now on (the server is stopping). */
void serve_table_wake(serve_table_t *t);
/* The seconds since the table was last asked anything (for idle tables to be closed). */
double serve_table_idle(serve_table_t *t);

/* The moves of a record text, checked by replaying it, with its rules; the person's seat as the
 * server saved it ("# picket-serve: seat S you"), else -1. 0, or -1 with "record: reason". */
int serve_record_load(const char *text, size_t len, const game_t **game, game_config_t *cfg, serve_move_t *moves,
                      int cap, int *n, int *seat, char *err, size_t errlen);

#endif
