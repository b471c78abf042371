/* bench/solver: the trick solver on 1000 seeded deals exchanged by the heuristic bot, solved
 * from the first lead: time per full solve (median, p90, p99), nodes, nodes per second and
 * table hit rate, for the best move only and for every move's value; the node ratio against plain minimax on 7-trick endings; and a node-count signature
 * that changes only when the search's behaviour changes. Targets: median <= 1 ms, p99 <= 20 ms. */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bot.h"
#include "picket_endgame.h"
#include "solver.h"
#include "bench_args.h"


/* Deal, exchange with the heuristic bot for both seats, and stop at the first lead. */
static int first_lead(const picket_rules_t *r, uint64_t seed, picket_end_t *out)
{
    picket_state_t st;
    picket_init(&st, r, seed);
    picket_apply_chance(&st, NULL, NULL, 0);
    char err[160];
    bot_t *bot = bot_create("heuristic", &PICKET_GAME, seed, err, sizeof err);
    if (!bot)
        return -1;
    while (picket_to_move(&st) >= 0 && st.pub.phase != PK_PH_PLAY) {
        picket_view_t v;
        picket_view_from_state(&st, picket_to_move(&st), &v);
        game_move_t m;
        if (bot_choose(bot, &v, &m) < 0)
            break;
        picket_apply(&st, &m, NULL, 0);
    }
    bot_free(bot);
    return picket_end_from_state(&st, out);
}

typedef struct run {
    double t[1000];
    uint64_t nodes, probes, hits, passes, bound_cuts;
    double total;
} run_t;

static void report(const char *name, run_t *r, int n)
{
    qsort(r->t, (size_t)n, sizeof r->t[0], bench_cmp_double);
    printf("  %-30s median %7.3f ms  p90 %7.3f ms  p99 %7.3f ms  max %7.3f ms  nodes %10" PRIu64
           "  %5.2f M nodes/s  table hits %4.1f%%  bound cuts %4.1f%%  %.1f passes a solve\n",
           name, 1e3 * r->t[n / 2], 1e3 * r->t[n * 9 / 10], 1e3 * r->t[n * 99 / 100], 1e3 * r->t[n - 1], r->nodes,
           (double)r->nodes / r->total / 1e6, r->probes ? 100.0 * (double)r->hits / (double)r->probes : 0.0,
           r->nodes ? 100.0 * (double)r->bound_cuts / (double)r->nodes : 0.0,
           (double)r->passes / n);
}

/* Progress on a terminal (stderr), cleared before the result line. */
static void progress(const char *what, int done, int total)
{
    if (!isatty(STDERR_FILENO))
        return;
    if (done < total)
        fprintf(stderr, "\r  %s: %d/%d ", what, done, total);
    else
        fprintf(stderr, "\r%70s\r", "");
}

static void solve_all(solver_t *s, const picket_end_t *pos, int n, int all_moves, run_t *r, const char *name)
{
    memset(r, 0, sizeof *r);
    for (int i = 0; i < n; i++) {
        if (i % 50 == 0)
            progress(name, i, n);
        solver_reset_stats(s);
        double t0 = measure_now();
        if (all_moves) {
            uint8_t moves[ENDGAME_MAX_MOVES];
            int values[ENDGAME_MAX_MOVES];
            solver_all(s, &pos[i], moves, values);
        } else {
            int mv;
            solver_best(s, &pos[i], &mv);
        }
        r->t[i] = measure_now() - t0;
        r->total += r->t[i];
        r->nodes += solver_stats(s)->nodes;
        r->probes += solver_stats(s)->probes;
        r->hits += solver_stats(s)->hits;
        r->passes += solver_stats(s)->passes;
        r->bound_cuts += solver_stats(s)->bound_cuts;
    }
    progress(name, n, n);
}

/* "" included: it names the first preset. */
static int preset_known(const char *name) { return picket_preset_find(name) != NULL; }

int main(int argc, char **argv)
{
    int deals = 1000, endings7 = 20, mb = 8;
    const char *preset = "cotgrave";
    const bench_opt_t opts[] = {
        { "--deals", BENCH_ATOI, &deals, 1, 1000, NULL },
        { "--tt-mb", BENCH_ATOI, &mb, 1, INT_MAX, NULL },
        { "--preset", BENCH_TEXT, &preset, 0, 0, preset_known },
        { "--minimax-endings", BENCH_ATOI, &endings7, 0, INT_MAX, NULL },
    };
    int done = bench_args(argc, argv, "solver",
                          "usage: solver [--deals N] [--tt-mb MB] [--preset P] [--minimax-endings N]\n\n"
                          "Solves N (default 1000, at most 1000) seeded deals from the first lead, after an\n"
                          "exchange by the heuristic bot; prints time per solve, nodes, table hit rate for the\n"
                          "best move only and for every move; the node\n"
                          "ratio against plain minimax on 7-trick endings (default 20); and a signature.\n",
                          opts, BENCH_NOPTS(opts));
    if (done >= 0)
        return done;
    picket_rules_t rules = picket_preset_find(preset)->rules;
    static picket_end_t pos[1000];
    int n = 0;
    for (int i = 0; i < deals; i++) {
        if (i % 50 == 0)
            progress("dealing and exchanging", i, deals);
        if (first_lead(&rules, 1000 + (uint64_t)i, &pos[n]) == 0)
            n++;
    }
    progress("dealing and exchanging", deals, deals);
    printf("bench/solver: preset %s, %d deals (seeds 1000..%d) exchanged by the heuristic bot, solved from the first lead;"
           " table %d MB, not cleared between deals\n", preset, n, 999 + deals, mb);
    char err[160];
    run_t r;
    solver_t *s = solver_create(&PICKET_ENDGAME, (size_t)mb, err, sizeof err);
    if (!s) {
        fprintf(stderr, "solver: %s\n", err);
        return 1;
    }
    solve_all(s, pos, n, 0, &r, "best move");
    report("best move", &r, n);
    uint64_t signature = r.nodes;
    double median = r.t[n / 2], p99 = r.t[n * 99 / 100]; /* sorted by report() */
    solver_clear(s);
    solve_all(s, pos, n, 1, &r, "every move");
    report("every move", &r, n);
    /* 7-trick endings: the first five tricks played by the first legal card each time; the table
     * cleared for each, as a fresh solver's. */
    if (endings7 > n)
        endings7 = n;
    uint64_t mm_nodes = 0, ab_nodes = 0;
    double t_mm = 0, t_ab = 0;
    for (int i = 0; i < endings7; i++) {
        progress("7-trick endings against plain minimax", i, endings7);
        picket_end_t e = pos[i], next;
        for (int ply = 0; ply < 10; ply++) {
            uint8_t moves[ENDGAME_MAX_MOVES];
            PICKET_ENDGAME.all_moves(&e, moves);
            PICKET_ENDGAME.play(&e, moves[0], &next);
            e = next;
        }
        solver_clear(s);
        solver_reset_stats(s);
        double t0 = measure_now();
        int mv, a = solver_best(s, &e, &mv);
        t_ab += measure_now() - t0;
        ab_nodes += solver_stats(s)->nodes;
        t0 = measure_now();
        int b = solver_minimax(&PICKET_ENDGAME, &e, &mm_nodes);
        t_mm += measure_now() - t0;
        if (a != b) {
            fprintf(stderr, "solver: ending %d: solver %d, minimax %d\n", i, a, b);
            return 1;
        }
    }
    progress("7-trick endings against plain minimax", endings7, endings7);
    solver_free(s);
    if (endings7 > 0)
        printf("  7-trick endings (%d): minimax %" PRIu64 " nodes in %.2f s, solver %" PRIu64
               " nodes in %.4f s: %.0f times fewer nodes\n",
               endings7, mm_nodes, t_mm, ab_nodes, t_ab, (double)mm_nodes / (double)(ab_nodes ? ab_nodes : 1));
    printf("targets, best move: median %.3f ms <= 1 ms %s, p99 %.3f ms <= 20 ms %s\n",
           1e3 * median, median <= 1e-3 ? "met" : "MISSED", 1e3 * p99, p99 <= 20e-3 ? "met" : "MISSED");
    printf("signature %" PRIu64 "\n", signature);
    return 0;
}
