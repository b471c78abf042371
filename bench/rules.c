/* bench/rules: random-play speed of the rules engine for each preset, and the Blank frequency
 * over many deals beside the exact figure. Fixed seeds; prints its results. */
#include <inttypes.h>
#include <stdio.h>

#include "picket.h"
#include "bench_args.h"


static double choose(int n, int k)
{
    double c = 1;
    for (int i = 1; i <= k; i++)
        c = c * (n - k + i) / i;
    return c;
}

/* Play random sets until `hands` hands have been dealt; returns hands per second. */
static double random_hands(const picket_rules_t *r, uint64_t hands, uint64_t seed, uint64_t *checksum)
{
    picket_state_t st;
    rng_t rng;
    rng_seed(&rng, seed);
    uint64_t dealt = 0, sum = 0;
    double t0 = measure_now();
    for (uint64_t set = 0; dealt < hands; set++) {
        picket_init(&st, r, rng_derive(seed, set));
        for (;;) {
            int who = picket_to_move(&st);
            if (who == GAME_OVER)
                break;
            if (who == GAME_CHANCE) {
                if (dealt == hands)
                    break;
                picket_apply_chance(&st, NULL, NULL, 0);
                dealt++;
                continue;
            }
            game_move_t m;
            picket_random_move(&st, &rng, &m);
            picket_apply(&st, &m, NULL, 0);
        }
        sum += (uint64_t)st.pub.score[0] * 31u + (uint64_t)st.pub.score[1];
    }
    double t = measure_now() - t0;
    *checksum = sum;
    return (double)hands / t;
}

static void blank_frequency(int deck, uint64_t deals, uint64_t seed)
{
    picket_rules_t r = PICKET_PRESETS[0].rules;
    r.deck = deck;
    picket_state_t st;
    uint64_t blanks = 0;
    for (uint64_t i = 0; i < deals; i++) {
        picket_init(&st, &r, rng_derive(seed, i));
        picket_apply_chance(&st, NULL, NULL, 0);
        blanks += (uint64_t)st.holds_blank[0] + (uint64_t)st.holds_blank[1];
    }
    double hands = 2.0 * (double)deals;
    double p = (double)blanks / hands;
    int courts = 12;
    double exact = choose(deck - courts, 12) / choose(deck, 12);
    /* 95% interval of the measured rate (normal approximation; the hands of one deal are
     * nearly independent). */
    double mean, half;
    measure_interval((double)blanks, (double)blanks, hands, &mean, &half);
    printf("deck=%d  %" PRIu64 " deals, %.0f hands: %" PRIu64 " Blank, rate %.6f +- %.6f (1 in %.0f); "
           "exact C(%d,12)/C(%d,12) = %.6f (1 in %.1f)\n",
           deck, deals, hands, blanks, p, half, p > 0 ? 1 / p : 0.0, deck - courts, deck, exact, 1 / exact);
}

int main(int argc, char **argv)
{
    uint64_t hands = 1000000, deals = 1000000, seed = 20261121;
    const bench_opt_t opts[] = {
        { "--hands", BENCH_COUNT, &hands, 0, 0, NULL },
        { "--deals", BENCH_COUNT, &deals, 0, 0, NULL },
        { "--seed", BENCH_COUNT, &seed, 0, 0, NULL },
    };
    int done = bench_args(argc, argv, "rules",
                          "usage: rules [--hands N] [--deals N] [--seed S]\n\n"
                          "Random-play hands per second for each preset (one core; target 250,000), and the\n"
                          "Blank frequency over N deals for 36 and 32 cards beside the exact figure.\n"
                          "Defaults: 1,000,000 hands per preset, 1,000,000 deals, seed 20261121.\n",
                          opts, BENCH_NOPTS(opts));
    if (done >= 0)
        return done;
    printf("bench/rules: seed %" PRIu64 "\n", seed);
    printf("random play, %" PRIu64 " hands per preset:\n", hands);
    for (int p = 0; p < PK_PRESET_COUNT; p++) {
        uint64_t checksum;
        double rate = random_hands(&PICKET_PRESETS[p].rules, hands, seed, &checksum);
        printf("  %-16s %10.0f hands/s  (checksum %" PRIu64 ")\n", PICKET_PRESETS[p].name, rate, checksum);
    }
    printf("Blank frequency:\n  ");
    blank_frequency(36, deals, seed);
    printf("  ");
    blank_frequency(32, deals, seed);
    return 0;
}
