/* arena_report: a run's progress line and final tables (arena_report.h). */
#include "arena_report.h"

#include <math.h>
#include <stdio.h>
#include <sys/resource.h>

#include "measure.h"

void arena_report_progress(const arena_run_t *a, int final)
{
    if (a->quiet)
        return;
    arena_score_counts_t c = arena_schedule_engine_counts(&a->sc, 0, -1);
    arena_score_summary_t sm;
    arena_stats_summarize(&c, &sm);
    double elapsed = measure_now() - a->started;
    int played = a->done_count - a->resumed_count;
    double eta = played > 0 ? elapsed / played * (a->n_jobs - a->done_count) : -1;
    char eta_s[32] = "?";
    if (eta >= 0 && isfinite(eta))
        snprintf(eta_s, sizeof eta_s, "%d:%02d:%02d", (int)(eta / 3600), (int)fmod(eta / 60, 60), (int)fmod(eta, 60));
    char sprt_s[64] = "";
    if (a->use_sprt)
        snprintf(sprt_s, sizeof sprt_s, "  LLR %.2f [%.2f, %.2f]", arena_run_sprt_llr(a), arena_stats_sprt_lower(&a->sprt),
                 arena_stats_sprt_upper(&a->sprt));
    char elo_s[64] = "Elo ?";
    if (a->sc.players > 2) {
        /* More seats: the first engine's share of the others it finished ahead of, and its rank. */
        double n = a->sc.sets[0] ? (double)a->sc.sets[0] : 1;
        sm.score = a->sc.score_sum[0] / n;
        snprintf(elo_s, sizeof elo_s, "mean rank %.2f", a->sc.rank_sum[0] / n + 1);
    } else if (sm.units > 0) {
        char elo[40];
        arena_stats_format_elo(&sm, elo, sizeof elo);
        snprintf(elo_s, sizeof elo_s, "Elo %s", elo);
    }
    /* On a terminal the line is written over; elsewhere one line a report. */
    fprintf(stderr, "%s[%d/%d sets] %s %.1f%% %s  ETA %s%s%s", a->tty ? "\r" : "", a->done_count, a->n_jobs, a->names[0],
            100.0 * sm.score, elo_s, eta_s, sprt_s, a->tty ? "   " : "\n");
    if (final && a->tty)
        fputc('\n', stderr);
}

/* Every engine (row) against every other (column): with more than two seats, the row finishing
 * ahead of the column over rotation groups, with its interval; with two, the row's score over
 * their pairing's units. "-" where they did not meet. */
static void report_grid(const arena_run_t *a)
{
    int pairwise = a->sc.players > 2, width = pairwise ? 21 : 10;
    printf("  %-20s", "");
    for (int e = 0; e < a->sc.n_engines; e++)
        printf(" %*.*s", width, width, a->names[e]);
    printf("\n");
    for (int r = 0; r < a->sc.n_engines; r++) {
        printf("  %-20s", a->names[r]);
        for (int c = 0; c < a->sc.n_engines; c++) {
            char cell[32] = "-";
            double mean, lo, hi;
            arena_score_counts_t pc = arena_schedule_engine_counts(&a->sc, r, c);
            arena_score_summary_t sm;
            arena_stats_summarize(&pc, &sm);
            if (pairwise && arena_schedule_pairwise(&a->sc, r, c, &mean, &lo, &hi))
                snprintf(cell, sizeof cell, "%5.1f%% [%5.1f, %5.1f]", 100.0 * mean, 100.0 * lo, 100.0 * hi);
            else if (!pairwise && sm.units)
                snprintf(cell, sizeof cell, "%9.1f%%", 100.0 * sm.score);
            printf(" %*s", width, r == c ? "" : cell);
        }
        printf("\n");
    }
}

/* Two seats, a game that settles points (a Picket partie's rubicon points): each engine's mean a
 * set, and the row's mean a unit (a duplicate pair's two legs together, or a set) against each
 * column, with its 95% interval. Nothing for a game without them. */
static void report_settled(const arena_run_t *a, const int *order)
{
    double mean, lo, hi;
    int any = 0;
    for (int e = 0; e < a->sc.n_engines; e++)
        any |= a->sc.settled_sets[e] > 0;
    if (!any)
        return;
    printf("\nSettled points (each set's result in %s's own points; mean a %s [95%% interval])\n", a->game->name, a->sc.duplicate ? "pair" : "set");
    for (int r = 0; r < a->sc.n_engines; r++) {
        int e = order[r];
        long n = arena_schedule_settled(&a->sc, e, -1, &mean, &lo, &hi);
        printf("  %-20s %+9.1f a set over %ld sets", a->names[e],
               a->sc.settled_sets[e] ? a->sc.settled_sum[e] / (double)a->sc.settled_sets[e] : 0.0, a->sc.settled_sets[e]);
        if (n)
            printf("; %+8.1f [%+8.1f, %+8.1f] a %s over %ld", mean, lo, hi, a->sc.duplicate ? "pair" : "set", n);
        printf("\n");
        for (int c = 0; c < a->sc.n_engines && a->sc.n_engines > 2; c++)
            if (c != e && arena_schedule_settled(&a->sc, e, c, &mean, &lo, &hi))
                printf("    against %-20s %+8.1f [%+8.1f, %+8.1f]\n", a->names[c], mean, lo, hi);
    }
}

/* Standings of a game for more than two seats: mean points, mean rank, score; then pairwise. */
static void report_tables(const arena_run_t *a, const int *order)
{
    printf("  %-3s %-20s %6s %11s %9s %8s\n", "#", "engine", "sets", "mean points", "mean rank", "score");
    for (int r = 0; r < a->sc.n_engines; r++) {
        int e = order[r];
        double n = a->sc.sets[e] ? (double)a->sc.sets[e] : 1;
        printf("  %-3d %-20s %6ld %11.2f %9.3f %7.1f%%\n", r + 1, a->names[e], a->sc.sets[e], a->sc.points[e] / n,
               a->sc.rank_sum[e] / n + 1, 100.0 * a->sc.score_sum[e] / n);
    }
    printf("\nPairwise (row finishing ahead of column, a tie half, over %s: score [95%% interval])\n",
           a->sc.duplicate ? "rotation groups" : "sets");
    report_grid(a);
}

/* Standings of a two-seat game: wins, losses, Elo over pairs; the crosstable; the pairs. */
static void report_pairs(const arena_run_t *a, const int *order, const double *score)
{
    printf("  %-3s %-20s %6s %6s %6s %8s %7s %20s %6s\n", "#", "engine", "sets", "wins", "losses", "score", a->sc.duplicate ? "pairs" : "units",
           "Elo [95% interval]", "LOS");
    for (int r = 0; r < a->sc.n_engines; r++) {
        int e = order[r];
        arena_score_counts_t c = arena_schedule_engine_counts(&a->sc, e, -1);
        arena_score_summary_t sm;
        arena_stats_summarize(&c, &sm);
        char elo[40];
        if (sm.units > 0)
            arena_stats_format_elo(&sm, elo, sizeof elo);
        else
            snprintf(elo, sizeof elo, "%20s", "-");
        printf("  %-3d %-20s %6ld %6ld %6ld %7.1f%% %7ld %20s %5.1f%%\n", r + 1, a->names[e], a->sc.sets[e],
               a->sc.wins[e], a->sc.losses[e], 100.0 * score[e], sm.units, elo, 100.0 * sm.los);
    }
    printf("\nCrosstable (row's score against column, over %s)\n", a->sc.duplicate ? "pairs" : "sets");
    report_grid(a);
    report_settled(a, order);
    if (a->sc.duplicate) {
        printf("\nPairs (first engine of each pairing: won both / split / lost both)\n");
        for (int p = 0; p < a->sc.n_tables; p++) {
            const arena_score_counts_t *c = &a->sc.pair_counts[p];
            printf("  %-20s vs %-20s %5ld / %5ld / %5ld\n", a->names[a->sc.table[p][0]], a->names[a->sc.table[p][1]], c->n[2], c->n[1], c->n[0]);
        }
    }
}

/* The standings, tables and faults of the sets done: the same for a run, a shard and a merge. */
void arena_report_standings(const arena_run_t *a)
{
    char shard[48] = "";
    if (a->shard_count > 1)
        snprintf(shard, sizeof shard, ", shard %d/%d", a->shard_index, a->shard_count);
    const char *early = a->done_count < a->n_jobs ? ", stopped early" : "";
    if (a->sc.players == 2)
        printf("\nStandings (%s, %s, %d engines, %d sets%s%s)\n", a->sc.round_robin ? "round-robin" : "gauntlet",
               a->sc.duplicate ? "duplicate pairs" : "single sets", a->sc.n_engines, a->done_count, shard, early);
    else
        printf("\nStandings (%s, %s, %s at %d seats, %d engines, %d sets%s%s)\n", a->sc.round_robin ? "round-robin" : "gauntlet",
               a->sc.duplicate ? "seat rotation" : "single sets", a->game->name, a->sc.players, a->sc.n_engines, a->done_count,
               shard, early);
    int order[ARENA_MAX_ENGINES];
    double score[ARENA_MAX_ENGINES];
    for (int e = 0; e < a->sc.n_engines; e++) {
        score[e] = a->sc.sets[e] ? a->sc.score_sum[e] / (double)a->sc.sets[e] : 0;
        order[e] = e;
    }
    for (int i = 1; i < a->sc.n_engines; i++)
        for (int j = i; j > 0 && score[order[j]] > score[order[j - 1]]; j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    if (a->sc.players > 2)
        report_tables(a, order);
    else
        report_pairs(a, order, score);
    long faulted = 0;
    for (int r = 1; r < END_COUNT; r++)
        faulted += a->sc.faults[r];
    printf("\nSets ended by the rules: %ld; by a fault: %ld", a->sc.faults[END_NORMAL], faulted);
    for (int r = 1; r < END_COUNT; r++)
        if (a->sc.faults[r])
            printf(", %s %ld", END_REASON_NAMES[r], a->sc.faults[r]);
    printf("\n");
}

/* The SPRT's verdict from the final counts: sets that were in flight when it decided count too. */
void arena_report_sprt(const arena_run_t *a)
{
    if (!a->use_sprt)
        return;
    double llr = arena_run_sprt_llr(a);
    const char *verdict = llr >= arena_stats_sprt_upper(&a->sprt)   ? "H1 accepted (elo1)"
                          : llr <= arena_stats_sprt_lower(&a->sprt) ? "H0 accepted (elo0)"
                                                              : "no decision yet";
    printf("SPRT elo0=%g elo1=%g alpha=%g beta=%g: LLR %.3f, bounds [%.3f, %.3f]: %s\n", a->sprt.elo0, a->sprt.elo1,
           a->sprt.alpha, a->sprt.beta, llr, arena_stats_sprt_lower(&a->sprt), arena_stats_sprt_upper(&a->sprt), verdict);
}

/* User and system time of this process or of its children, in seconds. */
static double cpu_seconds(int who)
{
    struct rusage u;
    getrusage(who, &u);
    return (double)u.ru_utime.tv_sec + (double)u.ru_utime.tv_usec * 1e-6 + (double)u.ru_stime.tv_sec + (double)u.ru_stime.tv_usec * 1e-6;
}

/* The final report of a run: standings, the time it took, the SPRT. */
void arena_report_final(const arena_run_t *a)
{
    arena_report_standings(a);
    double wall = measure_now() - a->started, own = cpu_seconds(RUSAGE_SELF), eng = cpu_seconds(RUSAGE_CHILDREN);
    int played = a->done_count - a->resumed_count;
    printf("Time: %d sets in %.2f s wall (%.1f sets/s); arena CPU %.2f s (%.0f%% of wall), engines CPU %.2f s\n", played,
           wall, wall > 0 ? played / wall : 0.0, own, wall > 0 ? 100.0 * own / wall : 0.0, eng);
    arena_report_sprt(a);
}
