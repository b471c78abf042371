/* bot: every computer player behind one interface (a struct of function pointers and its own
 * data, as Pachi's engines). A bot decides from a view only: it never sees the true state.
 *
 * Bots: random (uniform over legal moves) and heuristic (the game's rules of thumb). Search bots
 * (PIMC, ISMCTS) plug in as further names in bot_create. A bot that searches calls
 * hooks->should_stop between chunks of work and reports progress through hooks->info; it must
 * answer with its best move so far as soon as should_stop says so.
 */
#ifndef PICKET_BOT_H
#define PICKET_BOT_H

#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "rng.h"

enum { BOT_INFO_LINES = 5, BOT_NAME_LEN = 32 };

/* Limits of one decision; -1 (or 0 for infinite) where unset. */
typedef struct bot_limits {
    int64_t time_left_ms;  /* time left for the whole set */
    int64_t move_time_ms;  /* time for this decision */
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

/* Names of every bot, NULL-terminated. */
extern const char *const BOT_NAMES[];

/* A new bot by name with its own seed; NULL with a reason in err (unknown name, no memory). */
bot_t *bot_create(const char *name, const game_t *g, uint64_t seed, char *err, size_t errlen);
/* choose() without limits or hooks. */
int bot_choose(bot_t *b, const void *view, game_move_t *out);
void bot_free(bot_t *b);

/* Sort moves by value, best first (stable, so equal values keep their order). If memory runs
 * out, only the best move is brought to the front. */
void bot_sort_moves(game_move_t *moves, double *values, int n);

#endif
