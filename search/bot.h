/* bot: every computer player behind one interface (a struct of function pointers and its own
 * data, as Pachi's engines). A bot decides from a view only: it never sees the true state.
 *
 * Every bot is one entry of one table (BOTS in bot.c: name, create, options): random
 * (bot_random.c), heuristic (bot_heuristic.c), and the search bots ismcts, pimc and the default,
 * hybrid (hybrid.c). Nothing else lists bots: the engine's `bot` option, its
 * handshake and the tools read the table. A bot that searches calls hooks->should_stop between
 * chunks of work and reports progress through hooks->info; it must answer with its best move so
 * far as soon as should_stop says so.
 *
 * Options: each bot declares its own (options.h), named "<bot>.<option>" so they never meet the
 * engine's or another bot's. A bot_settings_t holds every bot's options with their current
 * values; a bot is given them when it is created (bot_create_with) and keeps them for life.
 */
#ifndef PICKET_BOT_H
#define PICKET_BOT_H

#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "options.h"
#include "rng.h"

enum { BOT_INFO_LINES = 5, BOT_NAME_LEN = 32, BOT_OPTION_NAME_LEN = 128 /* an option name, NUL included */ };

/* Limits of one decision; -1 (or 0 for infinite) where unset. */
typedef struct bot_limits {
    int64_t time_left_ms;  /* time left for the whole set */
    int64_t move_time_ms;  /* time for this decision */
    int64_t inc_ms;        /* the chess clock's increment, added after each move */
    int64_t iterations;    /* fixed amount of search */
    int infinite;          /* search until stopped */
} bot_limits_t;

/* Progress of a decision, for `info` lines. */
typedef struct bot_info {
    int64_t iterations;
    int64_t worlds;        /* hidden-card worlds sampled */
    int64_t nodes;
    double seconds;
    int nlines;            /* leading moves, best first */
    game_move_t moves[BOT_INFO_LINES];
    double values[BOT_INFO_LINES];
} bot_info_t;

typedef struct bot_hooks {
    int (*should_stop)(void *data);
    void (*info)(void *data, const bot_info_t *info);
    void *data;
} bot_hooks_t;

typedef struct bot bot_t;
struct bot {
    const char *name;
    const game_t *game;
    rng_t rng;
    void *data;
    /* Values of every legal move of the view's seat, which must be to move; writes the moves
     * and their values (higher is better) and returns how many, or -1. */
    int (*evaluate)(bot_t *b, const void *view, const bot_limits_t *lim, const bot_hooks_t *hooks,
                    game_move_t *moves, double *values, int cap);
    /* Choose a move; NULL limits and hooks mean "no limit, never stopped". Returns 0 or -1. */
    int (*choose)(bot_t *b, const void *view, const bot_limits_t *lim, const bot_hooks_t *hooks, game_move_t *out);
    void (*destroy)(bot_t *b);
};

typedef struct bot_settings bot_settings_t;

/* One kind of bot: an entry of the table. */
typedef struct bot_def {
    const char *name;
    const char *help;    /* one line for people */
    /* Finish a new bot whose name, game and rng are set: choose, evaluate, and data and destroy
     * if it needs them, its option values read from set (bot_settings_fill with its table;
     * every default where set is NULL). 0, or -1 with a reason (no memory, a game it cannot play). */
    int (*create)(bot_t *b, const bot_settings_t *set, char *err, size_t errlen);
    /* Append the bot's option declarations to l, each named "<bot>.<option>" and with no setter
     * (the settings keep the values); NULL for a bot without options. 0, or -1 (no memory). */
    int (*options)(opt_list_t *l);
} bot_def_t;

/* The bot an engine plays when told nothing else (docs/strength.md: three sets in four against
 * the heuristic; level with pimc). */
#define BOT_DEFAULT "hybrid"

/* Every bot, in the table's order. */
const bot_def_t *bot_list(int *count);
/* The entry called name, or NULL. */
const bot_def_t *bot_find(const char *name);
/* The names joined with sep ("random, heuristic"); truncated to len. */
void bot_list_names(char *buf, size_t len, const char *sep);

/* Every bot's options and their current values. NULL with a reason when out of memory. */
bot_settings_t *bot_settings_create(char *err, size_t errlen);
void bot_settings_free(bot_settings_t *set);
/* The declarations, for the handshake: every bot's, in table order. */
const opt_def_t *bot_settings_options(const bot_settings_t *set, int *n);
/* The declaration called name, or NULL. */
const opt_def_t *bot_settings_find(const bot_settings_t *set, const char *name);
/* Set one option by name after opt_check; -1 with a one-line reason (unknown, refused). */
int bot_settings_set(bot_settings_t *set, const char *name, const char *value, char *err, size_t errlen);
/* Every option back to its default. */
void bot_settings_reset(bot_settings_t *set);
/* The current value of option `name`: as a number (spin and float; check 1 or 0; else 0) and as
 * text, either pointer may be NULL. 0, or -1 for a name no bot declares: never a silent default. */
int bot_settings_get(const bot_settings_t *set, const char *name, double *num, const char **text);
/* A bot's parameters from its option table (options.h: each declaration says where its value
 * goes): every declaration's current value, "<prefix><name>" in set, stored into params; with
 * set NULL, every declared default. 0, or -1 with a one-line reason (a name the settings do not
 * declare, a declaration with nowhere to store its value, a default its own range refuses). */
int bot_settings_fill(const bot_settings_t *set, const char *prefix, const opt_def_t *defs, int n, void *params,
                      char *err, size_t errlen);

/* A new bot by name with its own seed and every option at its default; NULL with a reason in err
 * (unknown name, listing the known ones; no memory). */
bot_t *bot_create(const char *name, const game_t *g, uint64_t seed, char *err, size_t errlen);
/* The same with the options' values from set (NULL: defaults). */
bot_t *bot_create_with(const char *name, const game_t *g, uint64_t seed, const bot_settings_t *set, char *err,
                       size_t errlen);
/* choose() without limits or hooks. */
int bot_choose(bot_t *b, const void *view, game_move_t *out);
void bot_free(bot_t *b);

/* A decision's budget from its limits (NULL: none): the iterations to run, -1 for "until stopped
 * or the deadline", and *deadline (0: none) on measure_now's clock from t0. iterations gives that
 * many; infinite runs until stopped; movetime is the deadline; a set's clock gives a share: 1/30
 * of what is left plus 0.8 of the increment, at most a third of what is left, at least 1 ms.
 * Otherwise the bot's own fallback. */
int64_t bot_budget(const bot_limits_t *lim, int64_t fallback, double t0, double *deadline);

/* A move's place in a ranking: its value and its index among the moves. */
typedef struct bot_rank {
    double value;
    int index;
} bot_rank_t;
/* Sort by value, best first; equal values keep the order of their index. */
void bot_rank_sort(bot_rank_t *r, int n);
/* Sort n <= GAME_MAX_MOVES moves by value, best first (stable, so equal values keep their order). */
void bot_sort_moves(game_move_t *moves, double *values, int n);
/* Progress through hooks->info (nothing where there is none): the figures, the time since t0 on
 * measure_now's clock, and the leading moves with their values, best first (at most
 * BOT_INFO_LINES of the n given are kept). Every bot reports through it. */
void bot_report(const bot_hooks_t *hooks, int64_t iterations, int64_t worlds, int64_t nodes, double t0,
                const game_move_t *lines, const double *values, int n);

#endif
