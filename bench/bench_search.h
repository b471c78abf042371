/* bench_search: the fixed-budget ISMCTS searches that the search benches (court, ismcts) time
 * and sign: one thread, each view searched by a search of its own, so that ismcts_stats are one
 * search's whatever a bot would keep between searches. Header only. */
#ifndef PICKET_BENCH_SEARCH_H
#define PICKET_BENCH_SEARCH_H

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

#include "bench_util.h"
#include "ismcts.h"
#include "worlds.h"

/* The sums over a run of searches, and the moves they chose hashed in order. */
typedef struct bench_figures {
    int64_t iterations, nodes;
    double seconds;
    int pool_full;
    uint64_t moves_hash;
} bench_figures_t;

/* The defaults, one thread, the given rollout (PLAYOUT_*). */
static inline void bench_params(int rollout, ismcts_params_t *p)
{
    ismcts_default_params(p);
    p->threads = 1;
    p->rollout = rollout;
}

/* Worlds drawn a second (worlds.h, as a search draws them: the game's sampler prepared once a
 * view) over the n views (g->view_size apart), budget / n seconds each, from seed. -1 if a view
 * is refused ("NAME: reason" on stderr) or a draw fails. */
static inline double bench_worlds_rate(const char *name, const game_t *g, const void *views, int n, double budget,
                                       uint64_t seed)
{
    void *st = malloc(g->state_size);
    if (!st) {
        fprintf(stderr, "%s: out of memory\n", name);
        return -1;
    }
    worlds_t w;
    worlds_init(&w, g);
    uint64_t drawn = 0;
    double total = 0, rate = -1;
    rng_t rng;
    rng_seed(&rng, seed);
    for (int i = 0; i < n; i++) {
        if (worlds_prepare(&w, (const char *)views + (size_t)i * g->view_size) < 0) {
            fprintf(stderr, "%s: the sampler refused a view: %s\n", name, w.err);
            goto out;
        }
        double t0 = measure_now(), el;
        do {
            for (int k = 0; k < 64; k++)
                if (worlds_draw(&w, &rng, st) < 0)
                    goto out;
            drawn += 64;
            el = measure_now() - t0;
        } while (el < budget / n);
        total += el;
    }
    rate = (double)drawn / total;
out:
    worlds_free(&w);
    free(st);
    return rate;
}

/* Search the n views (g->view_size apart) with `iters` iterations each, the defaults but for one
 * thread and the rollout (PLAYOUT_*), view i's search seeded with rng_derive(seed, i), adding to
 * f. 0; or -1 with "NAME: reason" on stderr (naming the view's set where sets is given). */
static inline int bench_search(const char *name, const game_t *g, int rollout, const void *views, int n,
                               const uint64_t *sets, int64_t iters, uint64_t seed, bench_figures_t *f)
{
    static game_move_t moves[GAME_MAX_MOVES];
    static double values[GAME_MAX_MOVES];
    ismcts_params_t p;
    bench_params(rollout, &p);
    for (int i = 0; i < n; i++) {
        char err[GAME_ERR_LEN];
        ismcts_t *s = ismcts_create(g, &p, err, sizeof err);
        if (!s) {
            fprintf(stderr, "%s: %s\n", name, err);
            return -1;
        }
        rng_t rng;
        rng_seed(&rng, rng_derive(seed, (uint64_t)i));
        bot_limits_t lim = { -1, -1, -1, iters, 0 };
        game_move_t best;
        int rc = ismcts_search(s, (const char *)views + (size_t)i * g->view_size, &lim, NULL, &rng, moves, values,
                               GAME_MAX_MOVES, &best);
        ismcts_stats_t st;
        ismcts_stats(s, &st);
        ismcts_free(s);
        if (rc < 0 && sets)
            fprintf(stderr, "%s: the search failed on view %d (set %" PRIu64 ")\n", name, i, sets[i]);
        else if (rc < 0)
            fprintf(stderr, "%s: the search failed on view %d\n", name, i);
        if (rc < 0)
            return -1;
        f->iterations += st.iterations;
        f->nodes += st.nodes;
        f->seconds += st.seconds;
        f->pool_full |= st.pool_full;
        f->moves_hash = bench_mix(bench_mix(bench_mix(f->moves_hash, best.kind), (uint64_t)(uint16_t)best.arg),
                                  best.cards);
    }
    return 0;
}

#endif
