/* bench/court: Court Circular's worlds and the ISMCTS search on them, one thread, a fixed seed.
 *
 * For 2, 4 and 8 seats, the views of the seats to move at fixed steps of games the heuristic bot
 * plays for every seat (seeded from the bench's seed). On those views: worlds drawn a second by
 * the game's sampler (sample_world: a search draws one an iteration); ISMCTS iterations a second
 * with random and with heuristic rollouts, and the nodes it keeps an iteration; and a signature,
 * the sum of nodes over fixed-budget searches of every view with the moves chosen hashed in (same
 * code and seed, same signature, --quick included). Targets, one core: >= 100,000 worlds/s and
 * >= 10,000 iterations/s with heuristic rollouts at every table size. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot.h"
#include "court.h"
#include "playout.h"
#include "bench_args.h"
#include "bench_search.h"

enum { N_VIEWS = 12, N_TABLES = 3, MAX_STEPS = 20000 };
static const int TABLES[N_TABLES] = { 2, 4, 8 };
static const double TARGET_WORLDS = 1e5, TARGET_ITERS = 1e4;
static const int64_t TIMED_ITERS = 5000, SIGNATURE_ITERS = 200;

/* The views of the seat to move at every 9th decision of heuristic games, until N_VIEWS. */
static int collect(int players, uint64_t seed, court_view_t *v)
{
    const game_t *g = &COURT_GAME;
    char err[GAME_ERR_LEN];
    bot_t *bot = bot_create("heuristic", g, seed, err, sizeof err);
    if (!bot) {
        fprintf(stderr, "court: %s\n", err);
        return -1;
    }
    int n = 0;
    for (uint64_t game = 0; game < 50 && n < N_VIEWS; game++) {
        game_config_t cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.players = players;
        cfg.deal_seed = rng_derive(seed, game);
        static court_state_t st;
        if (g->init(&st, &cfg, err, sizeof err) < 0) {
            fprintf(stderr, "court: %s\n", err);
            bot_free(bot);
            return -1;
        }
        for (int step = 0, who; (who = g->to_move(&st)) != GAME_OVER && n < N_VIEWS && step < MAX_STEPS; step++) {
            if (who == GAME_CHANCE) {
                g->apply_chance(&st, NULL, NULL, 0);
                continue;
            }
            court_view_t view;
            g->view_from_state(&st, who, &view);
            if (step % 9 == 4)
                v[n++] = view;
            game_move_t m;
            if (bot_choose(bot, &view, &m) < 0 || !g->is_legal(&st, &m, err, sizeof err)) {
                fprintf(stderr, "court: the heuristic bot found no move\n");
                bot_free(bot);
                return -1;
            }
            g->apply(&st, &m, NULL, 0);
        }
    }
    bot_free(bot);
    return n == N_VIEWS ? 0 : -1;
}

int main(int argc, char **argv)
{
    uint64_t seed = 20261123;
    int quick = 0;
    char usage[4096];
    snprintf(usage, sizeof usage,
             "usage: court [--quick] [--seed S]\n\n"
             "Court Circular at 2, 4 and 8 seats, one thread, the seed fixed: %d views a table from games\n"
             "the heuristic bot plays for every seat. Worlds the sampler draws a second; ISMCTS\n"
             "iterations a second with random and heuristic rollouts (%" PRId64 " a view; --quick a\n"
             "tenth) and nodes an iteration; a signature (fixed budgets of %" PRId64 ", the same in\n"
             "--quick). Targets, one core: >= %.0f worlds/s and >= %.0f iterations/s with heuristic\n"
             "rollouts at every table size.\n"
             "  --quick     a tenth of the timed work\n"
             "  --seed S    the seed of the games and the searches (default %" PRIu64 ")\n"
             "Exit status 1 if a search fails; the targets' verdict is printed, not returned.\n",
             N_VIEWS, TIMED_ITERS, SIGNATURE_ITERS, TARGET_WORLDS, TARGET_ITERS, seed);
    const bench_opt_t opts[] = { { "--quick", BENCH_FLAG, &quick, 0, 0, NULL },
                                 { "--seed", BENCH_U64, &seed, 0, UINT64_MAX, NULL } };
    int done = bench_args(argc, argv, "court", usage, opts, BENCH_NOPTS(opts));
    if (done >= 0)
        return done;
    printf("bench/court: seed %" PRIu64 ", %d views a table from heuristic games; one thread%s\n", seed, N_VIEWS,
           quick ? " (quick: a tenth of the timed work)" : "");
    printf("%-6s %12s %14s %14s %10s  %s\n", "seats", "worlds/s", "iters/s rand", "iters/s heur", "nodes/it",
           "target");
    int met = 0, missed = 0;
    bench_figures_t sig = { 0 };
    for (int t = 0; t < N_TABLES; t++) {
        static court_view_t v[N_VIEWS];
        if (collect(TABLES[t], rng_derive(seed, (uint64_t)TABLES[t]), v) < 0) {
            fprintf(stderr, "court: too few views at %d seats\n", TABLES[t]);
            return 1;
        }
        double wr = bench_worlds_rate("court", &COURT_GAME, v, N_VIEWS, quick ? 0.05 : 0.5, seed);
        bench_figures_t f[2] = { { 0 }, { 0 } };
        for (int r = 0; r < 2; r++)
            if (bench_search("court", &COURT_GAME, r == 0 ? PLAYOUT_RANDOM : PLAYOUT_HEURISTIC, v, N_VIEWS, NULL,
                             quick ? TIMED_ITERS / 10 : TIMED_ITERS, seed, &f[r]) < 0)
                return 1;
        if (bench_search("court", &COURT_GAME, PLAYOUT_HEURISTIC, v, N_VIEWS, NULL, SIGNATURE_ITERS, seed, &sig) < 0)
            return 1;
        double rand_rate = (double)f[0].iterations / f[0].seconds, heur_rate = (double)f[1].iterations / f[1].seconds;
        int ok = wr >= TARGET_WORLDS && heur_rate >= TARGET_ITERS;
        met += ok;
        missed += !ok;
        printf("%-6d %12.0f %14.0f %14.0f %10.3f  %s\n", TABLES[t], wr, rand_rate, heur_rate,
               (double)f[1].nodes / (double)f[1].iterations,
               ok ? "met" : "NOT met");
    }
    printf("targets: %d met, %d NOT met (>= %.0f worlds/s, >= %.0f heuristic-rollout iterations/s): %s\n", met,
           missed, TARGET_WORLDS, TARGET_ITERS, missed ? "target NOT met" : "target met");
    printf("signature: nodes %" PRIu64 ", moves %016" PRIx64 " (iterations a view %" PRId64 ")\n",
           (uint64_t)sig.nodes, sig.moves_hash, SIGNATURE_ITERS);
    return 0;
}
