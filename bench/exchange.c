/* bench/exchange: a yardstick for exchange decisions (issue 30), far quicker and finer than
 * matches. A fixed, seeded set of exchange positions (tools/exchange_ref.h: elder's for even
 * positions, younger's for odd). In each, a broad set of candidate discards (the heuristic's best
 * 24, the learned net's best 8, the tree's pick, 16 legal ones at random) is valued by the
 * reference: every candidate in the same --worlds worlds drawn from the seat's view (the same
 * opponent hand and stock order for all), the rest of the hand by the heuristic, the play solved
 * (--play heuristic: played by the heuristic too; --play bot: as the bot plays them, PIMC over
 * --bot-worlds worlds a decision, each solved, far slower: how far a verdict rests on the solved
 * play, the net's training target, and what the bot's own play makes of it).
 *
 * For each evaluator (the heuristic's first; heuristic rollouts, each of the heuristic's top 24
 * valued on worlds of its own with the I iterations shared among them; the tree, the ISMCTS
 * exchange tree over the heuristic's top 24 valued by heuristic rollouts: the default bot's
 * exchange before issue 30, the ismcts bot's still; the net's first among every legal discard:
 * the default bot's discard under cotgrave's rules since) it prints the mean regret in points
 * against the reference's best candidate with its 95% interval over the positions, beside the
 * reference's own noise (the mean 95% half-width, over the worlds, of the best's value less the
 * pick's); for the two that value every candidate, the mean rank correlation with the reference;
 * and how often the reference's best lies outside the heuristic's top 24. Paired on the same
 * positions: the net's lead over the tree (the tree's regret less the net's, what a match between
 * them would see a hand) and the lead over the tree of a judge as good as the reference (its best
 * chosen on half the worlds and valued on the others: the room left, estimated from below; the
 * tree's own regret is the estimate from above), each with its interval; the regrets by seat, and
 * the net's picks by whether they lay out fewer cards than the reference's best, as many or more.
 * Then where the net fails most, the median time of the tree's decision and of the net's over
 * every legal discard (not in the signature), and whether the target is met: the net's
 * regret at most half of the tree's. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_args.h"
#include "exchange_ref.h"
#include "ismcts.h"
#include "net.h"
#include "worlds.h"

enum { TOP_HEURISTIC = 24, TOP_NET = 8, RANDOMS = 16, MAX_CAND = TOP_HEURISTIC + TOP_NET + 1 + RANDOMS, MAX_WORLDS = 1024 };
enum { EV_HEURISTIC, EV_ROLLOUTS, EV_SEARCH, EV_NET, N_EV };
static const char *const EV_NAMES[N_EV] = { "heuristic's first", "heuristic rollouts (top 24, worlds apart)",
                                            "the tree (heuristic's top 24, old default)", "net's first of all discards (the default)" };

typedef struct bench {
    exref_t ref;
    worlds_t worlds;
    ismcts_t *search; /* today's default exchange search */
    net_t *net;
    picket_state_t world[MAX_WORLDS];
    game_move_t moves[GAME_MAX_MOVES], searched[GAME_MAX_MOVES];
    double hv[GAME_MAX_MOVES], nv[GAME_MAX_MOVES], scratch[GAME_MAX_MOVES];
    double val[MAX_CAND][MAX_WORLDS];
} bench_t;

/* The indices of the k best of n values, best first (ties: the lower index). */
static int top_k(const double *v, int n, int k, int *out)
{
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (m == k && !(v[i] > v[out[k - 1]]))
            continue;
        int j = m < k ? m++ : k - 1;
        while (j > 0 && v[i] > v[out[j - 1]]) {
            out[j] = out[j - 1];
            j--;
        }
        out[j] = i;
    }
    return m;
}

static int add_candidate(int *cand, int n, int move)
{
    for (int c = 0; c < n; c++)
        if (cand[c] == move)
            return n;
    cand[n] = move;
    return n + 1;
}

/* Spearman's rank correlation of a and b over the candidates (average ranks for ties). */
static void ranks(const double *x, int n, double *r)
{
    for (int i = 0; i < n; i++) {
        int below = 0, equal = 0;
        for (int j = 0; j < n; j++)
            below += x[j] < x[i], equal += x[j] == x[i];
        r[i] = below + (equal - 1) / 2.0;
    }
}
static double spearman(const double *a, const double *b, int n)
{
    double ra[MAX_CAND], rb[MAX_CAND], ma = 0, mb = 0, sab = 0, saa = 0, sbb = 0;
    ranks(a, n, ra);
    ranks(b, n, rb);
    for (int i = 0; i < n; i++)
        ma += ra[i] / n, mb += rb[i] / n;
    for (int i = 0; i < n; i++)
        sab += (ra[i] - ma) * (rb[i] - mb), saa += (ra[i] - ma) * (ra[i] - ma), sbb += (rb[i] - mb) * (rb[i] - mb);
    return saa > 0 && sbb > 0 ? sab / sqrt(saa * sbb) : 0.0;
}

/* The net's value of each legal discard of the view into b->nv, its inputs by the game's own hook
 * (the default bot's): 1, or 0 when the hook does not cover the view's rules (the net learned
 * cotgrave's). */
static int net_values(bench_t *b, const picket_view_t *v, int n)
{
    for (int m = 0; m < n; m++) {
        int active[GAME_MAX_LEARNED_ACTIVE], k = PICKET_GAME.learned_inputs(v, &b->moves[m], active, GAME_MAX_LEARNED_ACTIVE);
        if (k < 0)
            return 0;
        b->nv[m] = net_eval(b->net, active, k);
    }
    return 1;
}

/* Heuristic rollouts without the tree: each of the heuristic's top k valued on budget / k worlds
 * of its own, the rest of the hand and the play by the heuristic; the best mean (the optimiser's
 * curse in its plainest form). The legal move's index, or -1. The reference's play is left as it
 * was. */
static int rollout_pick(bench_t *b, const picket_view_t *v, const int *top, int k, int budget, uint64_t seed)
{
    rng_t rng;
    rng_seed(&rng, seed);
    int per = budget / k > 0 ? budget / k : 1, best = -1, seat = v->seat;
    double best_mean = -1e300;
    if (worlds_prepare(&b->worlds, v) < 0)
        return -1;
    int play = b->ref.play;
    b->ref.play = EXREF_PLAY_HEURISTIC;
    for (int c = 0; c < k; c++) {
        double sum = 0, d;
        int valued = 0;
        for (int r = 0; r < per; r++)
            if (worlds_draw(&b->worlds, &rng, &b->world[0]) == 0 && exref_value(&b->ref, &b->world[0], seat, &b->moves[top[c]], &d) == 0)
                sum += d, valued++;
        if (valued && sum / valued > best_mean)
            best_mean = sum / valued, best = top[c];
    }
    b->ref.play = play;
    return best;
}

/* The ceiling's lead over candidate s: the best of the nc candidates chosen on the even worlds and
 * valued on the odd ones, and the other way about, less s on the same worlds. What a judge as good
 * as the reference would gain over s; chosen on half the worlds, it is an estimate from below,
 * free of the reference's own optimiser's curse (its in-sample best is one from above). */
static double ceiling_gain(const bench_t *b, int nc, int n_worlds, int s)
{
    double gain = 0;
    for (int half = 0; half < 2; half++) {
        int pick = 0;
        double best = -1e300;
        for (int c = 0; c < nc; c++) {
            double m = 0;
            for (int w = half; w < n_worlds; w += 2)
                m += b->val[c][w];
            if (m > best)
                best = m, pick = c;
        }
        double d = 0;
        int k = 0;
        for (int w = 1 - half; w < n_worlds; w += 2)
            d += b->val[pick][w] - b->val[s][w], k++;
        gain += d / k / 2;
    }
    return gain;
}

/* The search's pick from the view, by ISMCTS with its seed: the legal move's index, or -1. */
static int search_pick(bench_t *b, ismcts_t *s, const picket_view_t *v, int n, int64_t iterations, uint64_t seed)
{
    rng_t rng;
    rng_seed(&rng, seed);
    bot_limits_t lim = { -1, -1, -1, iterations, 0 };
    game_move_t best;
    int k = ismcts_search(s, v, &lim, NULL, &rng, b->searched, b->scratch, GAME_MAX_MOVES, &best);
    for (int i = 0; k > 0 && i < n; i++)
        if (b->moves[i].cards == best.cards)
            return i;
    return -1;
}

int main(int argc, char **argv)
{
    int positions = 40, n_worlds = 32, iterations = 10000, quick = 0, bot_worlds = 8;
    uint64_t seed = 1;
    const char *preset = "cotgrave", *model = "engine/picket/exchange.pknn", *play = "solved";
    const bench_opt_t opts[] = {
        { "--positions", BENCH_INT, &positions, 1, 100000, NULL }, { "--worlds", BENCH_INT, &n_worlds, 2, MAX_WORLDS, NULL },
        { "--iterations", BENCH_INT, &iterations, 1, 100000000, NULL }, { "--seed", BENCH_U64, &seed, 0, UINT64_MAX, NULL },
        { "--preset", BENCH_TEXT, &preset, 0, 0, NULL },           { "--quick", BENCH_FLAG, &quick, 0, 0, NULL },
        { "--model", BENCH_TEXT, &model, 0, 0, NULL },             { "--play", BENCH_TEXT, &play, 0, 0, NULL },
        { "--bot-worlds", BENCH_INT, &bot_worlds, 1, 1000, NULL },
    };
    int done = bench_args(argc, argv, "exchange",
                          "usage: exchange [--positions N] [--worlds W] [--iterations I] [--seed S] [--preset P] [--quick]\n"
                          "                [--model FILE] [--play solved|heuristic|bot] [--bot-worlds N]\n\n"
                          "Judges exchange decisions against a reference (every candidate discard valued in the\n"
                          "same W sampled worlds, default 32, the rest of the hand by the heuristic, the play\n"
                          "solved) on N seeded positions (default 40, half elder's, half younger's): the mean\n"
                          "regret of the heuristic, its rollouts, the tree (the old default; I iterations, default\n"
                          "10000) and the net (FILE, default engine/picket/exchange.pknn), with 95% intervals;\n"
                          "the net's lead over the tree on the same positions, the reference's own lead (chosen\n"
                          "on half the worlds, valued on the rest), the regrets by seat and by cards laid out.\n"
                          "--quick: 8 positions, 12 worlds, 1000 iterations. --play heuristic: the reference plays\n"
                          "the cards by the heuristic too; --play bot: as the bot plays them, PIMC over N worlds a\n"
                          "decision (--bot-worlds, default 8), far slower (how far the verdicts rest on the play).\n",
                          opts, BENCH_NOPTS(opts));
    if (done >= 0)
        return done;
    if (quick)
        positions = 8, n_worlds = 12, iterations = 1000;
    const picket_preset_t *pp = picket_preset_find(preset);
    static bench_t b;
    char err[600];
    if (strcmp(play, "solved") && strcmp(play, "heuristic") && strcmp(play, "bot")) {
        fprintf(stderr, "bench/exchange: --play: '%.40s' is not solved, heuristic or bot\n", play);
        return 2;
    }
    if (!pp) {
        fprintf(stderr, "bench/exchange: unknown preset '%.40s' (cotgrave, cotton, ducoeur-letter, ducoeur-report, cavendish)\n", preset);
        return 2;
    }
    const game_t *g = &PICKET_GAME;
    ismcts_params_t p;
    ismcts_default_params(&p);
    b.search = ismcts_create(g, &p, err, sizeof err);
    b.net = b.search ? net_load(model, err, sizeof err) : NULL;
    worlds_init(&b.worlds, g);
    if (!b.net || exref_init(&b.ref, err, sizeof err) < 0) {
        fprintf(stderr, "bench/exchange: %s\n", err);
        return 1;
    }
    b.ref.play = !strcmp(play, "heuristic") ? EXREF_PLAY_HEURISTIC : EXREF_PLAY_SOLVED;
    if (!strcmp(play, "bot") && exref_play_by_bot(&b.ref, bot_worlds, err, sizeof err) < 0) {
        fprintf(stderr, "bench/exchange: %s\n", err);
        return 1;
    }
    printf("bench/exchange: %s, %d positions, %d worlds, searches of %d iterations, seed %" PRIu64 "; the reference's play %s\n",
           preset, positions, n_worlds, iterations, seed, play);
    double sum[N_EV] = { 0 }, sq[N_EV] = { 0 }, noise[N_EV] = { 0 }, rho[2] = { 0 };
    int counted = 0, outside = 0, net_covers = 1, worst_i[3] = { -1, -1, -1 };
    double worst[3] = { 0 };
    /* Paired: the tree's regret less the net's (the net's lead on the same position, what a
     * match would see a hand); the ceiling's lead over the tree; by seat; the net's pick against
     * the best by the number of cards each lays out (fewer, as many, more). */
    double gain_sum[2] = { 0 }, gain_sq[2] = { 0 }, seat_sum[2][N_EV] = { { 0 } };
    int gain_n[2] = { 0 }, seat_n[2][N_EV] = { { 0 } }, by_count[3] = { 0 };
    double by_count_regret[3] = { 0 };
    uint64_t signature = 1469598103934665603ull;
    double t0 = measure_now(), *times[2] = { calloc((size_t)positions, sizeof(double)), calloc((size_t)positions, sizeof(double)) };
    if (!times[0] || !times[1]) {
        fprintf(stderr, "bench/exchange: out of memory\n");
        return 1;
    }
    for (int i = 0; i < positions; i++) {
        picket_state_t st;
        uint64_t deal;
        if (!exref_position(&b.ref, &pp->rules, seed, i, &st, &deal))
            continue;
        int seat = picket_to_move(&st);
        picket_view_t v;
        picket_view_from_state(&st, seat, &v);
        int n = picket_view_legal_moves(&v, b.moves, GAME_MAX_MOVES);
        picket_heuristic_evaluate(&v, NULL, b.moves, n, b.hv);
        int cand[MAX_CAND], nc = 0, pick[N_EV], idx[TOP_HEURISTIC];
        double t_net = measure_now();
        int have_net = net_values(&b, &v, n);
        t_net = measure_now() - t_net;
        net_covers &= have_net;
        int kh = top_k(b.hv, n, TOP_HEURISTIC, idx);
        for (int c = 0; c < kh; c++)
            nc = add_candidate(cand, nc, idx[c]);
        pick[EV_HEURISTIC] = idx[0];
        pick[EV_ROLLOUTS] = rollout_pick(&b, &v, idx, kh, iterations, rng_derive(deal, 0x7011));
        int kn = top_k(b.nv, n, TOP_NET, idx);
        for (int c = 0; have_net && c < kn; c++)
            nc = add_candidate(cand, nc, idx[c]);
        pick[EV_NET] = have_net ? idx[0] : -1;
        double t_search = measure_now();
        pick[EV_SEARCH] = search_pick(&b, b.search, &v, n, iterations, rng_derive(deal, 0x5ea7));
        t_search = measure_now() - t_search;
        if (pick[EV_SEARCH] >= 0)
            nc = add_candidate(cand, nc, pick[EV_SEARCH]);
        rng_t rng;
        rng_seed(&rng, rng_derive(deal, 0xe8c));
        for (int r = 0; r < RANDOMS && nc < MAX_CAND; r++)
            nc = add_candidate(cand, nc, (int)rng_below(&rng, (uint32_t)n));
        if (worlds_prepare(&b.worlds, &v) < 0)
            continue;
        int w_ok = 1;
        for (int w = 0; w < n_worlds && w_ok; w++)
            w_ok = worlds_draw(&b.worlds, &rng, &b.world[w]) == 0;
        double ref[MAX_CAND], hval[MAX_CAND], nval[MAX_CAND];
        for (int c = 0; c < nc && w_ok; c++) {
            ref[c] = 0;
            for (int w = 0; w < n_worlds && w_ok; w++) {
                w_ok = exref_value(&b.ref, &b.world[w], seat, &b.moves[cand[c]], &b.val[c][w]) == 0;
                ref[c] += b.val[c][w] / n_worlds;
            }
            hval[c] = b.hv[cand[c]];
            nval[c] = b.nv[cand[c]];
        }
        if (!w_ok)
            continue;
        int best = 0;
        for (int c = 1; c < nc; c++)
            best = ref[c] > ref[best] ? c : best;
        outside += best >= kh; /* the heuristic's top come first among the candidates */
        times[0][counted] = t_search, times[1][counted] = t_net;
        counted++;
        rho[0] += spearman(hval, ref, nc);
        rho[1] += have_net ? spearman(nval, ref, nc) : 0;
        double regret[N_EV];
        int at[N_EV];
        for (int e = 0; e < N_EV; e++) {
            int c = 0;
            while (c < nc && cand[c] != pick[e])
                c++;
            at[e] = c < nc ? c : -1;
            if (c == nc)
                continue; /* no pick (a search with no move, the net not covering the rules) */
            double r = ref[best] - ref[c], m = 0, ss = 0;
            regret[e] = r;
            sum[e] += r, sq[e] += r * r;
            seat_sum[i % 2][e] += r, seat_n[i % 2][e]++;
            for (int w = 0; w < n_worlds; w++)
                m += (b.val[best][w] - b.val[c][w]) / n_worlds;
            for (int w = 0; w < n_worlds; w++)
                ss += (b.val[best][w] - b.val[c][w] - m) * (b.val[best][w] - b.val[c][w] - m);
            noise[e] += 1.96 * sqrt(ss / (n_worlds - 1) / n_worlds);
            signature = (signature ^ (uint64_t)llround(r * 1000)) * 1099511628211ull;
            for (int k = 2; e == EV_NET && k >= 0 && (worst_i[k] < 0 || r > worst[k]); k--) {
                if (k < 2)
                    worst[k + 1] = worst[k], worst_i[k + 1] = worst_i[k];
                worst[k] = r, worst_i[k] = i;
            }
        }
        if (at[EV_SEARCH] >= 0 && at[EV_NET] >= 0) {
            double d = regret[EV_SEARCH] - regret[EV_NET];
            gain_sum[0] += d, gain_sq[0] += d * d, gain_n[0]++;
            int lay_net = cardset_count(b.moves[pick[EV_NET]].cards), lay_best = cardset_count(b.moves[cand[best]].cards);
            int k = lay_net < lay_best ? 0 : lay_net == lay_best ? 1 : 2;
            by_count[k]++, by_count_regret[k] += regret[EV_NET];
        }
        if (at[EV_SEARCH] >= 0) {
            double d = ceiling_gain(&b, nc, n_worlds, at[EV_SEARCH]);
            gain_sum[1] += d, gain_sq[1] += d * d, gain_n[1]++;
        }
        if (isatty(STDERR_FILENO))
            fprintf(stderr, "\rbench/exchange: %d of %d positions", i + 1, positions);
    }
    if (isatty(STDERR_FILENO))
        fprintf(stderr, "\n");
    if (counted < 2) {
        fprintf(stderr, "bench/exchange: fewer than two positions could be judged\n");
        free(times[0]);
        free(times[1]);
        return 1;
    }
    printf("%-44s %22s %18s\n", "evaluator", "mean regret [95%]", "reference noise");
    double mean[N_EV];
    for (int e = 0; e < N_EV; e++) {
        mean[e] = sum[e] / counted;
        double sd = sqrt(fmax(0, (sq[e] - counted * mean[e] * mean[e]) / (counted - 1)));
        printf("%-44s %7.2f [%5.2f, %5.2f] %15s%.2f\n", EV_NAMES[e], mean[e], mean[e] - 1.96 * sd / sqrt(counted),
               mean[e] + 1.96 * sd / sqrt(counted), "+-", noise[e] / counted);
    }
    static const char *const GAIN_NAMES[2] = {
        "the net's lead over the tree, a position (what a match sees a hand)",
        "the lead over the tree of the reference's best on half the worlds, valued on the other half"
    };
    for (int k = 0; k < 2; k++) {
        if (gain_n[k] < 2)
            continue;
        double m = gain_sum[k] / gain_n[k], sd = sqrt(fmax(0, (gain_sq[k] - gain_n[k] * m * m) / (gain_n[k] - 1)));
        printf("%s: %+.2f [%+.2f, %+.2f]\n", GAIN_NAMES[k], m, m - 1.96 * sd / sqrt(gain_n[k]), m + 1.96 * sd / sqrt(gain_n[k]));
    }
    printf("mean regret by seat, elder / younger:");
    for (int e = 0; e < N_EV; e++)
        printf(" %s %.2f / %.2f%s", e == EV_HEURISTIC ? "heuristic" : e == EV_ROLLOUTS ? "rollouts" : e == EV_SEARCH ? "tree" : "net",
               seat_n[0][e] ? seat_sum[0][e] / seat_n[0][e] : 0.0, seat_n[1][e] ? seat_sum[1][e] / seat_n[1][e] : 0.0,
               e + 1 < N_EV ? "," : "\n");
    printf("the net's pick against the reference's best, by the cards laid out: fewer %d (regret %.2f), as many %d (%.2f), more %d (%.2f)\n",
           by_count[0], by_count[0] ? by_count_regret[0] / by_count[0] : 0.0, by_count[1],
           by_count[1] ? by_count_regret[1] / by_count[1] : 0.0, by_count[2], by_count[2] ? by_count_regret[2] / by_count[2] : 0.0);
    printf("rank correlation with the reference (over the candidates): heuristic %.3f, net %.3f\n", rho[0] / counted,
           rho[1] / counted);
    printf("the reference's best outside the heuristic's top 24: %d of %d positions (%.1f%%)\n", outside, counted,
           100.0 * outside / counted);
    printf("where the net fails most (position: its regret):");
    for (int k = 0; k < 3 && worst_i[k] >= 0; k++)
        printf(" %d (%s): %.2f%s", worst_i[k], worst_i[k] % 2 ? "younger" : "elder", worst[k], k < 2 ? "," : "");
    for (int k = 0; k < 2; k++)
        qsort(times[k], (size_t)counted, sizeof(double), bench_cmp_double);
    printf("\ndecision times on one core, median over the positions: the tree %.1f ms, the net's first of all "
           "discards %.2f ms (the issue's target: at most 100 ms)\n", times[0][counted / 2] * 1e3, times[1][counted / 2] * 1e3);
    printf("%d positions judged in %.1f s; signature %016" PRIx64 "\n", counted, measure_now() - t0, signature);
    if (!net_covers)
        printf("target: the net does not cover %s's rules (it learned cotgrave's): not judged\n", preset);
    else
        printf("target (issue 30): the net's regret at most half the tree's: %.2f against %.2f: %s\n", mean[EV_NET],
               mean[EV_SEARCH] / 2, mean[EV_NET] <= mean[EV_SEARCH] / 2 ? "met" : "not met");
    free(times[0]);
    free(times[1]);
    ismcts_free(b.search);
    net_free(b.net);
    worlds_free(&b.worlds);
    exref_free(&b.ref);
    return 0;
}
