/* bench/ismcts: the ISMCTS bot's search (search/ismcts.h) on fixed views, one thread, a fixed seed.
 *
 * The views come from cotgrave sets the heuristic bot plays for both seats, seeded from the
 * bench's seed: the exchange (each hand's elder and younger exchanges, wide decisions of up to
 * some 3,800 discards) and the play (decisions at the first lead, mid-hand and late in the hand).
 * For each leaf mode (rollout random, rollout heuristic) and each phase: iterations a second, the
 * nodes the tree keeps and the memory they take per 100,000 iterations (nodes x the pool's node
 * size, measured by filling a 1 MB pool). Then the sampler alone
 * (worlds drawn a second on the same views: a search draws one a iteration), and a signature:
 * the sum of nodes over fixed-budget searches of every view in every mode, with the moves they
 * chose hashed in (same code, same signature; --quick gives the same signature).
 * Then the default engine bot (the learned net's discards, ISMCTS for the other decisions before
 * the play, PIMC in the play) against the heuristic over 8 sets (2 with --quick): the time of each of its decisions (median, p90, p99, max).
 * Targets, one core: >= 100,000 iterations a second in the play with rollout leaves (each
 * rollout mode); the default bot's median decision under 1 s. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot.h"
#include "picket.h"
#include "playout.h"
#include "bench_args.h"
#include "bench_search.h"

enum { PH_EXCHANGE, PH_PLAY, PHASES };
static const char *const PHASE_NAMES[PHASES] = { "exchange", "play" };

enum { MODE_RANDOM, MODE_HEURISTIC, MODES };
static const char *const MODE_NAMES[MODES] = { "rollout random", "rollout heuristic" };
static const int MODE_ROLLOUT[MODES] = { PLAYOUT_RANDOM, PLAYOUT_HEURISTIC };
/* Iterations a search in the timed runs (full; --quick takes a tenth) and in the signature. */
static const int64_t TIMED_ITERS[MODES] = { 20000, 20000 };
static const int64_t SIGNATURE_ITERS[MODES] = { 400, 400 };

enum { N_VIEWS = 12, MAX_SETS = 50 };
static const double TARGET_PLAY = 1e5;

typedef struct viewset {
    int n;
    picket_view_t v[N_VIEWS];
    uint64_t set[N_VIEWS];
} viewset_t;

/* Play cotgrave sets with the heuristic bot for both seats and keep the views: every exchange
 * decision of the first hands, and play decisions at tricks 0, 5 and 9. */
static int collect(uint64_t seed, viewset_t vs[PHASES])
{
    char err[GAME_ERR_LEN];
    bot_t *bot = bot_create("heuristic", &PICKET_GAME, seed, err, sizeof err);
    if (!bot) {
        fprintf(stderr, "ismcts: %s\n", err);
        return -1;
    }
    const picket_rules_t *r = &picket_preset_find("cotgrave")->rules;
    static picket_state_t st;
    for (uint64_t set = 0; set < MAX_SETS && (vs[PH_EXCHANGE].n < N_VIEWS || vs[PH_PLAY].n < N_VIEWS); set++) {
        picket_init(&st, r, rng_derive(seed, set));
        while (picket_to_move(&st) != GAME_OVER && st.pub.hand_no <= 3) {
            int who = picket_to_move(&st);
            if (who == GAME_CHANCE) {
                picket_apply_chance(&st, NULL, NULL, 0);
                continue;
            }
            picket_view_t v;
            picket_view_from_state(&st, who, &v);
            const picket_pub_t *p = &st.pub;
            int ph = -1;
            if (p->phase == PK_PH_ELDER_EXCHANGE || p->phase == PK_PH_YOUNGER_EXCHANGE)
                ph = PH_EXCHANGE;
            else if (p->phase == PK_PH_PLAY && (p->trick_no == 0 || p->trick_no == 5 || p->trick_no == 9) &&
                     p->trick_card[0] < 0 && p->trick_card[1] < 0)
                ph = PH_PLAY;
            if (ph >= 0 && vs[ph].n < N_VIEWS) {
                vs[ph].v[vs[ph].n] = v;
                vs[ph].set[vs[ph].n++] = set;
            }
            game_move_t m;
            if (bot_choose(bot, &v, &m) < 0) {
                fprintf(stderr, "ismcts: the heuristic bot found no move\n");
                bot_free(bot);
                return -1;
            }
            picket_apply(&st, &m, NULL, 0);
        }
    }
    bot_free(bot);
    for (int ph = 0; ph < PHASES; ph++)
        if (vs[ph].n < N_VIEWS) {
            fprintf(stderr, "ismcts: only %d %s views in %d sets\n", vs[ph].n, PHASE_NAMES[ph], MAX_SETS);
            return -1;
        }
    return 0;
}

/* The pool's node size: fill a 1 MB pool (7/8 of it nodes, the rest candidate lists, as
 * ismcts_create shares it out) and divide. 0 if it would not fill. */
static double node_size(const viewset_t *play, uint64_t seed)
{
    static game_move_t moves[GAME_MAX_MOVES];
    static double values[GAME_MAX_MOVES];
    ismcts_params_t p;
    bench_params(PLAYOUT_RANDOM, &p);
    p.tree_mb = 1;
    char err[GAME_ERR_LEN];
    ismcts_t *s = ismcts_create(&PICKET_GAME, &p, err, sizeof err);
    if (!s)
        return 0;
    rng_t rng;
    rng_seed(&rng, seed);
    bot_limits_t lim = { -1, -1, -1, 100000, 0 };
    game_move_t best;
    ismcts_stats_t st = { 0 };
    if (ismcts_search(s, &play->v[0], &lim, NULL, &rng, moves, values, GAME_MAX_MOVES, &best) > 0)
        ismcts_stats(s, &st);
    ismcts_free(s);
    if (!st.pool_full)
        return 0;
    size_t bytes = (size_t)1 << 20;
    return (double)(bytes - bytes / 8) / (double)(st.nodes + 1);
}

/* The default engine bot (every option at its default: the net's discards, ISMCTS for the other
 * decisions before the play, PIMC's worlds in the play) against the heuristic over `sets` cotgrave
 * sets, seats alternating: the time of each of its decisions, into t (at most cap); returns how
 * many, or -1. */
static int decision_times(uint64_t seed, int sets, double *t, int cap)
{
    char err[GAME_ERR_LEN];
    bot_t *b = bot_create("hybrid", &PICKET_GAME, seed, err, sizeof err);
    bot_t *h = bot_create("heuristic", &PICKET_GAME, seed, err, sizeof err);
    int n = 0;
    if (!b || !h) {
        fprintf(stderr, "ismcts: %s\n", err);
        n = -1;
    }
    for (int k = 0; k < sets && n >= 0 && n < cap; k++) {
        static picket_state_t st;
        picket_init(&st, &picket_preset_find("cotgrave")->rules, rng_derive(seed, 5000 + (uint64_t)k));
        game_event_t ev[GAME_MAX_EVENTS];
        for (int who; n >= 0 && n < cap && (who = picket_to_move(&st)) != GAME_OVER;) {
            if (who == GAME_CHANCE) {
                picket_apply_chance(&st, NULL, ev, GAME_MAX_EVENTS);
                continue;
            }
            picket_view_t v;
            picket_view_from_state(&st, who, &v);
            game_move_t m;
            double t0 = measure_now();
            int rc = who == k % 2 ? b->choose(b, &v, NULL, NULL, &m) : h->choose(h, &v, NULL, NULL, &m);
            if (who == k % 2)
                t[n++] = measure_now() - t0;
            if (rc < 0)
                n = -1;
            else
                picket_apply(&st, &m, ev, GAME_MAX_EVENTS);
        }
    }
    bot_free(b);
    bot_free(h);
    return n;
}

int main(int argc, char **argv)
{
    uint64_t seed = 20261201;
    int quick = 0;
    char usage[4096];
    snprintf(usage, sizeof usage,
             "usage: ismcts [--quick] [--seed S]\n\n"
             "The ISMCTS search on fixed views, one thread, the seed fixed: %d exchange and %d play\n"
             "decisions from cotgrave sets the heuristic bot plays for both seats. For each leaf mode\n"
             "(rollout random, rollout heuristic) and phase: iterations a second, nodes kept and the\n"
             "memory they take per 100,000 iterations (nodes x the pool's node size, measured by\n"
             "filling a 1 MB pool); worlds\n"
             "the sampler draws a second on the same views (a search draws one an iteration); and a\n"
             "signature: the sum of nodes over fixed-budget searches of every view in every mode, the\n"
             "chosen moves hashed in (same code and seed, same signature, --quick included).\n"
             "Target, one core: >= %.0f iterations/s in the play with rollout leaves (each rollout\n"
             "mode). Then the default engine bot against the\n"
             "heuristic over 8 sets (2 with --quick): the time of its decisions; target: median < 1 s.\n"
             "  --quick     a tenth of the iterations in the timed searches (%" PRId64 ", %" PRId64
             " a view)\n"
             "  --seed S    the seed of the sets and of the searches (default %" PRIu64 ")\n"
             "Exit status 1 if a search fails; the target's verdict is printed, not returned.\n",
             N_VIEWS, N_VIEWS, TARGET_PLAY, TIMED_ITERS[0], TIMED_ITERS[1],
             seed);
    const bench_opt_t opts[] = { { "--quick", BENCH_FLAG, &quick, 0, 0, NULL },
                                 { "--seed", BENCH_U64, &seed, 0, UINT64_MAX, NULL } };
    int done = bench_args(argc, argv, "ismcts", usage, opts, BENCH_NOPTS(opts));
    if (done >= 0)
        return done;
    static viewset_t vs[PHASES];
    if (collect(seed, vs) < 0)
        return 1;
    double nsize = node_size(&vs[PH_PLAY], seed);
    ismcts_params_t dp;
    ismcts_default_params(&dp);
    printf("bench/ismcts: seed %" PRIu64 ", %d exchange and %d play views from cotgrave sets (heuristic for both "
           "seats); one thread%s; otherwise the defaults (widen_topk %d", seed, N_VIEWS, N_VIEWS,
           quick ? " (quick: a tenth of the iterations)" : "", dp.widen_topk);
    printf(", exploration %.2f, tree_mb %d)\n", dp.exploration, dp.tree_mb);
    if (nsize > 0)
        printf("node size %.0f bytes (a 1 MB pool filled)\n", nsize);
    else
        printf("node size unknown: a 1 MB pool did not fill\n");
    printf("%-18s %-9s %10s %12s %12s %10s %12s  %s\n", "leaf", "phase", "iters", "iters/s", "nodes",
           "nodes/it", "MB/100k it", "target");
    int met = 0, missed = 0;
    /* The timed searches, and the signature's: fixed budgets, the same in --quick. */
    uint64_t sig_nodes = 0, sig_moves = 0;
    for (int mode = 0; mode < MODES; mode++)
        for (int ph = 0; ph < PHASES; ph++) {
            bench_figures_t f = { 0 }, sig = { 0 };
            if (bench_search("ismcts", &PICKET_GAME, MODE_ROLLOUT[mode], vs[ph].v, vs[ph].n, vs[ph].set,
                             quick ? TIMED_ITERS[mode] / 10 : TIMED_ITERS[mode],
                             rng_derive(seed, 1000 + (uint64_t)(mode * PHASES + ph)), &f) < 0 ||
                bench_search("ismcts", &PICKET_GAME, MODE_ROLLOUT[mode], vs[ph].v, vs[ph].n, vs[ph].set,
                             SIGNATURE_ITERS[mode], rng_derive(seed, 3000 + (uint64_t)(mode * PHASES + ph)), &sig) < 0)
                return 1;
            sig_nodes += (uint64_t)sig.nodes;
            sig_moves = bench_mix(sig_moves, sig.moves_hash);
            double rate = f.seconds > 0 ? (double)f.iterations / f.seconds : 0;
            double per_it = f.iterations ? (double)f.nodes / (double)f.iterations : 0;
            char target[64] = "";
            if (ph == PH_PLAY) { /* every mode has rollout leaves */
                int ok = rate >= TARGET_PLAY;
                met += ok, missed += !ok;
                snprintf(target, sizeof target, ">= %.0f/s: target %s", TARGET_PLAY, ok ? "met" : "NOT met");
            }
            printf("%-18s %-9s %10" PRId64 " %12.0f %12" PRId64 " %10.3f %12.2f  %s%s\n",
                   MODE_NAMES[mode], PHASE_NAMES[ph], f.iterations, rate, f.nodes, per_it,
                   nsize > 0 ? per_it * 1e5 * nsize / (1 << 20) : 0.0, target,
                   f.pool_full ? " (pool full)" : "");
        }
    double budget = quick ? 0.05 : 0.5;
    for (int ph = 0; ph < PHASES; ph++) {
        double w = bench_worlds_rate("ismcts", &PICKET_GAME, vs[ph].v, vs[ph].n, budget,
                                     rng_derive(seed, 2000 + (uint64_t)ph));
        if (w < 0)
            return 1;
        printf("sampler alone, %-9s %12.0f worlds/s (a search draws one world an iteration: in the search, "
               "worlds/s = iters/s)\n", PHASE_NAMES[ph], w);
    }
    /* The default bot's decisions, as a player meets them. */
    enum { MAX_DECISIONS = 20000 };
    static double t[MAX_DECISIONS];
    int sets = quick ? 2 : 8;
    int nd = decision_times(seed, sets, t, MAX_DECISIONS);
    if (nd <= 0)
        return 1;
    qsort(t, (size_t)nd, sizeof t[0], bench_cmp_double);
    int ok = t[nd / 2] < 1.0;
    met += ok, missed += !ok;
    printf("default bot (ismcts, play by pimc) against heuristic, %d sets, %d decisions: median %.1f ms, p90 %.1f ms, "
           "p99 %.1f ms, max %.1f ms; median < 1 s: target %s\n", sets, nd, t[nd / 2] * 1e3, t[nd * 9 / 10] * 1e3,
           t[nd * 99 / 100] * 1e3, t[nd - 1] * 1e3, ok ? "met" : "NOT met");
    printf("targets: %d met, %d NOT met: %s\n", met, missed, missed ? "target NOT met" : "target met");
    printf("signature: nodes %" PRIu64 ", moves %016" PRIx64 " (iterations a view %" PRId64 ", %" PRId64 ")\n",
           sig_nodes, sig_moves, SIGNATURE_ITERS[0], SIGNATURE_ITERS[1]);
    return 0;
}
