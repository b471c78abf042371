/* arena_match: one set between engine processes, N seats, played by the one referee
 * (engine/referee.h).
 *
 * Each engine process is a referee seat: the referee routes it exactly the events its view may
 * hold (and nothing else) and checks every move; the seat sends them as protocol lines, asks
 * `go` under its time control and reads the reply. A crash, a hang past the time allowed, an
 * illegal or malformed move, or any other protocol violation ends the set at once: the engine
 * at fault ranks last alone (the others share first place), the reason is kept, and the
 * engine is marked for a restart.
 */
#ifndef PICKET_ARENA_MATCH_H
#define PICKET_ARENA_MATCH_H

#include <stdint.h>
#include <stdio.h>

#include "client.h"
#include "game.h"

enum { ARENA_MAX_ARGS = 32, ARENA_MAX_OPTIONS = 32, ARENA_NAME_LEN = 64 };

/* How an engine is started and how long it may think. */
typedef struct engine_spec {
    char name[ARENA_NAME_LEN];
    char *argv[ARENA_MAX_ARGS + 1];   /* owned strings; argv[0] is the program */
    int argc;
    char *opt_name[ARENA_MAX_OPTIONS], *opt_value[ARENA_MAX_OPTIONS];
    int n_options;
    double tc_base, tc_inc;           /* tc=BASE+INC in seconds (base < 0: none) */
    double st;                        /* st=SECONDS: fixed time a decision (< 0: none) */
    long iterations;                  /* iterations=N (< 0: none) */
    double timeout;                   /* a decision without a time control may take this long */
} engine_spec_t;

void engine_spec_init(engine_spec_t *s);
void engine_spec_free(engine_spec_t *s);
/* Set one "key=value" field (cmd, arg, name, option.X, tc, st, iterations, timeout). Returns 0
 * or -1 with a reason. */
int engine_spec_set(engine_spec_t *s, const char *field, char *err, size_t errlen);

/* A running engine. */
typedef struct engine_proc {
    const engine_spec_t *spec;
    client_t c;
    int running;
    long next_id;
    char line[PROTO_MAX_LINE + 1];
} engine_proc_t;

/* Start the process and handshake: hello (which must list `game`), its options, isready. 0 or
 * -1 with a reason. */
int engine_proc_start(engine_proc_t *e, const engine_spec_t *spec, const char *game, char *err, size_t errlen);
/* quit, wait briefly, kill if needed, reap. Safe to call twice. */
void engine_proc_stop(engine_proc_t *e);

typedef enum {
    END_NORMAL, END_CRASH, END_TIMEOUT, END_ILLEGAL, END_PROTOCOL, END_START, END_COUNT
} end_reason_t;
extern const char *const END_REASON_NAMES[END_COUNT];

typedef struct set_result {
    int players;
    int winner;                       /* the seat ranked first alone; -1 for a tie at the top */
    int rank[GAME_MAX_PLAYERS];       /* by seat: 0 first; tied seats share a rank */
    int scores[GAME_MAX_PLAYERS];
    int hands;
    int moves;
    end_reason_t reason;
    int fault_seat;                   /* -1 when the set ended by the rules */
    char detail[256];
    double think[GAME_MAX_PLAYERS];   /* seconds each seat spent deciding */
} set_result_t;

typedef struct set_setup {
    const game_t *game;
    game_config_t cfg;                         /* rules, players and the deal seed */
    engine_proc_t *engine[GAME_MAX_PLAYERS];   /* by seat; restarted here if not running */
    uint64_t engine_seed[GAME_MAX_PLAYERS];
    double margin;                             /* seconds an engine may overrun its time */
    FILE *record;                              /* game record (may be NULL) */
} set_setup_t;

/* Play one set to its end or to a fault. Never fails: a fault is a result. */
void arena_play_set(const set_setup_t *setup, set_result_t *out);

#endif
