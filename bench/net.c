/* bench/net: the learned exchange net's speed (issue 30): every legal discard of elder's and
 * younger's exchanges in seeded cotgrave deals, encoded (picket_features.h) and evaluated
 * (net.h) on one core. Prints evaluations a second, the encoding alone, and a signature (the sum
 * of the outputs, which changes only with the model or the inputs). Target: at least 500,000
 * evaluations a second. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench_args.h"
#include "net.h"
#include "picket_features.h"

static const double TARGET = 500000;

int main(int argc, char **argv)
{
    int deals = 200;
    const char *model = "engine/picket/exchange.pknn";
    const bench_opt_t opts[] = {
        { "--deals", BENCH_INT, &deals, 1, 100000, NULL },
        { "--model", BENCH_TEXT, &model, 0, 0, NULL },
    };
    int done = bench_args(argc, argv, "net",
                          "usage: net [--deals N] [--model FILE]\n\n"
                          "Evaluates the exchange net (default engine/picket/exchange.pknn) on every legal\n"
                          "discard of both exchanges of N seeded cotgrave deals (default 200); prints\n"
                          "evaluations a second on one core against the target of 500,000, and a signature.\n",
                          opts, BENCH_NOPTS(opts));
    if (done >= 0)
        return done;
    char err[600];
    net_t *net = net_load(model, err, sizeof err);
    picket_rules_t rules = picket_preset_find("cotgrave")->rules;
    int cap = 64 * 4096, n = 0;
    game_move_t *moves = malloc(sizeof *moves * GAME_MAX_MOVES);
    int (*act)[PICKET_XF_MAX_ACTIVE] = malloc(sizeof *act * (size_t)cap);
    int *count = malloc(sizeof *count * (size_t)cap);
    if (!net || !act || !count || !moves) {
        fprintf(stderr, "bench/net: %s\n", net ? "out of memory" : err);
        return 1;
    }
    /* The inputs first, timed apart: each exchange's legal discards, then its heuristic move. */
    double t0 = measure_now();
    for (int d = 0; d < deals && n < cap - GAME_MAX_MOVES; d++) {
        picket_state_t st;
        picket_init(&st, &rules, 5000 + (uint64_t)d);
        for (int steps = 0; steps < 100 && picket_to_move(&st) != GAME_OVER && st.pub.phase != PK_PH_PLAY; steps++) {
            if (picket_to_move(&st) == GAME_CHANCE) {
                picket_apply_chance(&st, NULL, NULL, 0);
                continue;
            }
            picket_view_t v;
            picket_view_from_state(&st, picket_to_move(&st), &v);
            int k = picket_view_legal_moves(&v, moves, GAME_MAX_MOVES);
            int exchange = st.pub.phase == PK_PH_ELDER_EXCHANGE || st.pub.phase == PK_PH_YOUNGER_EXCHANGE;
            for (int i = 0; exchange && i < k && n < cap; i++, n++)
                count[n] = picket_exchange_features(&v, moves[i].cards, act[n]);
            picket_apply(&st, &moves[0], NULL, 0);
        }
    }
    double encode = measure_now() - t0;
    double sum = 0;
    t0 = measure_now();
    for (int i = 0; i < n; i++)
        sum += net_eval(net, act[i], count[i]);
    double secs = measure_now() - t0, rate = n / secs;
    printf("bench/net: %d deals, %d discards; net %s\n", deals, n, net_provenance(net));
    printf("  encoding (with dealing and move generation)  %10.0f discards/s\n", n / encode);
    printf("  evaluation                                   %10.0f evaluations/s  (%.3f us each)\n", rate, 1e6 * secs / n);
    printf("target: >= %.0f evaluations/s on one core: %s\n", TARGET, rate >= TARGET ? "met" : "MISSED");
    printf("signature %.6f\n", sum);
    net_free(net);
    free(act);
    free(count);
    free(moves);
    return 0;
}
