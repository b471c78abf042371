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

#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "client.h"
#include "game.h"
#include "referee.h"

enum { ARENA_MAX_ARGS = 32, ARENA_MAX_OPTIONS = 32, ARENA_NAME_LEN = 64 };
#define ARENA_MAX_ITERATIONS 1000000000000LL /* the protocol's largest `go iterations` */
#define ARENA_MAX_SECONDS 1e6               /* the largest time field, in seconds */

/* How an engine is started and how long it may think. */
typedef struct arena_spec {
    char name[ARENA_NAME_LEN];
    char *argv[ARENA_MAX_ARGS + 1];   /* owned strings; argv[0] is the program */
    int argc;
    char *opt_name[ARENA_MAX_OPTIONS], *opt_value[ARENA_MAX_OPTIONS];
    int n_options;
    char *dir;                        /* dir=DIR: its working folder (NULL: the arena's) */
    char *stderr_path;                /* stderr=FILE: its stderr appended there (NULL: the arena's) */
    double tc_base, tc_inc;           /* tc=BASE+INC in seconds (base < 0: none) */
    double st;                        /* st=SECONDS: fixed time a decision (< 0: none) */
    long long iterations;             /* iterations=N (< 0: none) */
    double timeout;                   /* a decision without a time control may take this long */
    double start_timeout;             /* start=SECONDS: the handshake's limit */
    unsigned given;                   /* SPEC_* bits: the limits a field set */
} arena_spec_t;

enum { SPEC_TC = 1, SPEC_ST = 2, SPEC_ITERATIONS = 4, SPEC_TIMEOUT = 8 };

void arena_spec_init(arena_spec_t *s);
void arena_spec_free(arena_spec_t *s);
/* Set one "key=value" field (cmd, arg, name, option.X, tc, st, iterations, timeout, start,
 * dir, stderr). Numbers are strict: finite, in range, no wrap. Returns 0 or -1 with a reason
 * that starts with the field's name ("tc: ..."). */
int arena_spec_set(arena_spec_t *s, const char *field, char *err, size_t errlen);
/* Once every field is set: contradictory limits (two of tc, st and iterations; timeout with
 * tc or st) and a missing cmd. 0, or -1 with "FIELD: reason". */
int arena_spec_check(const arena_spec_t *s, char *err, size_t errlen);

/* Every line to and from every engine, with its name and a time (-log FILE); shared by the
 * workers. */
typedef struct arena_log {
    FILE *f;
    pthread_mutex_t lock;
    double t0;          /* the run's start, measure_now() seconds */
    int failed;         /* a write failed */
} arena_log_t;

/* A running engine. */
typedef struct arena_engine {
    const arena_spec_t *spec;
    client_t c;
    int running;
    long next_id;
    char line[PROTO_MAX_LINE + 1];
    /* set by the caller before arena_engine_start; kept across restarts */
    arena_log_t *log;                       /* NULL: no log */
    int instance;                           /* which process of this engine (the worker) */
    const volatile sig_atomic_t *abort;     /* >= 2: give up any wait at once (NULL: never) */
} arena_engine_t;

/* Start the process and handshake within spec->start_timeout: hello (which must declare the
 * protocol and list `game`), each option of the spec (which the engine must have declared in
 * hello, and must accept), isready. 0, or -1 with "FIELD: reason", FIELD one of cmd, dir,
 * stderr, start, protocol, game or option.NAME. The caller's log, instance and abort fields
 * are kept. */
int arena_engine_start(arena_engine_t *e, const arena_spec_t *spec, const char *game, char *err, size_t errlen);
/* quit, wait briefly, kill if needed, reap. Safe to call twice. */
void arena_engine_stop(arena_engine_t *e);

typedef enum {
    END_NORMAL, END_CRASH, END_TIMEOUT, END_ILLEGAL, END_PROTOCOL, END_START,
    END_INTERRUPTED, /* stopped by the operator: never a result, never written */
    END_COUNT
} arena_end_reason_t;
extern const char *const END_REASON_NAMES[END_COUNT];

typedef struct arena_set_result {
    int players;
    int winner;                       /* the seat ranked first alone; -1 for a tie at the top */
    int rank[GAME_MAX_PLAYERS];       /* by seat: 0 first; tied seats share a rank */
    int scores[GAME_MAX_PLAYERS];
    int has_settled;                  /* the game settles points (game_t.settled) and did */
    int settled[GAME_MAX_PLAYERS];    /* those points, by seat */
    int hands;
    int moves;
    arena_end_reason_t reason;
    int fault_seat;                   /* -1 when the set ended by the rules */
    char detail[256];
    double think[GAME_MAX_PLAYERS];   /* seconds each seat spent deciding */
} arena_set_result_t;

typedef struct arena_set_setup {
    const game_t *game;
    game_config_t cfg;                         /* rules, players and the deal seed */
    arena_engine_t *engine[GAME_MAX_PLAYERS];  /* by seat; restarted here if not running */
    uint64_t engine_seed[GAME_MAX_PLAYERS];
    double margin;                             /* seconds an engine may overrun its time (tc: over
                                                * the whole set) */
    FILE *record;                              /* game record (may be NULL) */
    char record_note[96];                      /* a "# " comment for the record ("": none) */
} arena_set_setup_t;

/* Play one set to its end or to a fault. Never fails: a fault is a result. */
void arena_play_set(const arena_set_setup_t *setup, arena_set_result_t *out);

/* An engine process as one seat of a referee: events sent as lines, `go` for a move under the
 * spec's limits, every failure a fault with its reason. arena_play_set seats its engines so; a
 * front end that builds its own table (picket-play: a person in the other seat) does the same
 * with these. */
typedef struct arena_seat {
    const arena_set_setup_t *s;
    arena_set_result_t *r;        /* think time and the fault's reason land here */
    int seat;
    double clock;                 /* time left for the set, under tc */
    arena_end_reason_t reason;    /* why this seat failed, when it did */
} arena_seat_t;
void arena_seat_init(arena_seat_t *x, const arena_set_setup_t *s, arena_set_result_t *r, int seat);
/* Start the process if it is not running and begin the game: newgame (the setup's rules, the
 * seat, its engine seed), isready. 0, or -1 with a reason (the process is stopped). */
int arena_seat_start(arena_seat_t *x, char *err, size_t errlen);
referee_seat_t arena_seat_referee(arena_seat_t *x);
/* A command with a fresh id to a running engine, its reply awaited within timeout seconds; the
 * lines before the reply go to on_line (may be NULL). 1 for '=', 0 for '?', below 0 when the
 * engine exited, timed out or broke the protocol. */
int arena_engine_ask(arena_engine_t *e, const char *cmd, double timeout, void (*on_line)(void *, const char *), void *data);
/* The protocol's newgame line for one seat: the game, its preset (if any) and flags, the
 * players, the seat and the engine's own seed. Every front end that seats an engine uses it. */
void arena_newgame_line(const game_t *g, const game_config_t *cfg, int players, int seat, uint64_t seed, char *buf,
                        size_t len);
/* One line to a running engine: 0, or -1 if it has gone. */
int arena_engine_send(arena_engine_t *e, const char *line);

#endif
