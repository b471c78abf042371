#include "bot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *const BOT_NAMES[] = { "random", "heuristic", NULL };

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct ranked {
    double value;
    int index;
} ranked_t;

static int by_value_then_index(const void *a, const void *b)
{
    const ranked_t *x = a, *y = b;
    if (x->value != y->value)
        return x->value < y->value ? 1 : -1;
    return (x->index > y->index) - (x->index < y->index);
}

void bot_sort_moves(game_move_t *moves, double *values, int n)
{
    /* qsort on (value, original index): O(n log n) and stable; thousands of discards sort fast. */
    ranked_t *r = malloc(sizeof *r * (size_t)n);
    game_move_t *m = malloc(sizeof *m * (size_t)n);
    if (!r || !m) {
        /* Out of memory: fall back to moving the single best to the front. */
        int best = 0;
        for (int i = 1; i < n; i++)
            if (values[i] > values[best])
                best = i;
        if (n > 0) {
            game_move_t tm = moves[0];
            double tv = values[0];
            moves[0] = moves[best], values[0] = values[best];
            moves[best] = tm, values[best] = tv;
        }
        free(r);
        free(m);
        return;
    }
    for (int i = 0; i < n; i++)
        r[i] = (ranked_t){ values[i], i };
    qsort(r, (size_t)n, sizeof *r, by_value_then_index);
    memcpy(m, moves, sizeof *m * (size_t)n);
    for (int i = 0; i < n; i++) {
        moves[i] = m[r[i].index];
        values[i] = r[i].value;
    }
    free(r);
    free(m);
}

static void report(const bot_hooks_t *hooks, double t0, int64_t nodes, const game_move_t *moves,
                   const double *values, int n)
{
    if (!hooks || !hooks->info)
        return;
    bot_info_t info = { 1, 0, nodes, now_seconds() - t0, 0, { { 0 } }, { 0 } };
    info.nlines = n < BOT_INFO_LINES ? n : BOT_INFO_LINES;
    memcpy(info.moves, moves, sizeof *moves * (size_t)info.nlines);
    memcpy(info.values, values, sizeof *values * (size_t)info.nlines);
    hooks->info(hooks->data, &info);
}

/* ---------------------------------------------------------------- random */

/* Every legal move is equally good to the random bot. */
static int random_evaluate(bot_t *b, const void *view, const bot_limits_t *lim, const bot_hooks_t *hooks,
                           game_move_t *moves, double *values, int cap)
{
    (void)lim;
    (void)hooks;
    int n = b->game->view_legal_moves(view, moves, cap);
    for (int i = 0; i < n; i++)
        values[i] = 0.0;
    return n > 0 ? n : -1;
}

static int random_choose(bot_t *b, const void *view, const bot_limits_t *lim, const bot_hooks_t *hooks, game_move_t *out)
{
    (void)lim;
    double t0 = now_seconds();
    if (b->game->view_to_move(view) < 0 || b->game->view_random_move(view, &b->rng, out) < 0)
        return -1;
    double zero = 0.0;
    report(hooks, t0, 1, out, &zero, 1);
    return 0;
}

/* ---------------------------------------------------------------- heuristic */

typedef struct heuristic_data {
    game_move_t moves[GAME_MAX_MOVES];
    double values[GAME_MAX_MOVES];
} heuristic_data_t;

static int heuristic_evaluate(bot_t *b, const void *view, const bot_limits_t *lim, const bot_hooks_t *hooks,
                              game_move_t *moves, double *values, int cap)
{
    (void)lim;
    (void)hooks;
    int n = b->game->view_legal_moves(view, moves, cap);
    if (n <= 0)
        return -1;
    b->game->heuristic_evaluate(view, NULL, moves, n, values);
    return n;
}

static int heuristic_choose(bot_t *b, const void *view, const bot_limits_t *lim, const bot_hooks_t *hooks,
                            game_move_t *out)
{
    heuristic_data_t *d = b->data;
    double t0 = now_seconds();
    int n = heuristic_evaluate(b, view, lim, hooks, d->moves, d->values, GAME_MAX_MOVES);
    if (n <= 0)
        return -1;
    /* The best value; among equals, one at random so play is not predictable. */
    int best = 0, ties = 1;
    for (int i = 1; i < n; i++) {
        if (d->values[i] > d->values[best] + 1e-9) {
            best = i;
            ties = 1;
        } else if (d->values[i] > d->values[best] - 1e-9 && rng_below(&b->rng, (uint32_t)++ties) == 0) {
            best = i;
        }
    }
    *out = d->moves[best];
    if (hooks && hooks->info) {
        bot_sort_moves(d->moves, d->values, n);
        report(hooks, t0, n, d->moves, d->values, n);
    }
    return 0;
}

static void free_data(bot_t *b) { free(b->data); }

bot_t *bot_create(const char *name, const game_t *g, uint64_t seed, char *err, size_t errlen)
{
    int kind = -1;
    for (int i = 0; BOT_NAMES[i]; i++)
        if (strcmp(BOT_NAMES[i], name) == 0)
            kind = i;
    if (kind < 0) {
        snprintf(err, errlen, "unknown bot '%.40s' (known: random, heuristic)", name);
        return NULL;
    }
    bot_t *b = calloc(1, sizeof *b);
    if (!b) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    b->name = BOT_NAMES[kind];
    b->game = g;
    rng_seed(&b->rng, seed);
    if (kind == 0) {
        b->choose = random_choose;
        b->evaluate = random_evaluate;
    } else {
        if (!(b->data = calloc(1, sizeof(heuristic_data_t)))) {
            free(b);
            snprintf(err, errlen, "out of memory");
            return NULL;
        }
        b->choose = heuristic_choose;
        b->evaluate = heuristic_evaluate;
        b->destroy = free_data;
    }
    return b;
}

int bot_choose(bot_t *b, const void *view, game_move_t *out) { return b->choose(b, view, NULL, NULL, out); }

void bot_free(bot_t *b)
{
    if (!b)
        return;
    if (b->destroy)
        b->destroy(b);
    free(b);
}
