/* bench/protocol: round-trip times through a real pipe to a child picket-engine process:
 * isready -> readyok, and a random-bot decision (go -> move). Prints median and p99 in
 * microseconds. Target: median under 100 us. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "bench_args.h"

static double now_us(void) { return measure_now() * 1e6; }

static char line[PROTO_MAX_LINE + 1];

/* Time `rounds` round trips of `cmd`; the reply must start with `want`. */
static int measure(client_t *c, const char *name, const char *cmd, const char *want, int rounds)
{
    double *t = malloc(sizeof *t * (size_t)rounds);
    if (!t)
        return -1;
    for (int i = 0; i < rounds; i++) {
        double t0 = now_us();
        client_send(c, cmd);
        if (client_await_reply(c, line, 5000, -1, NULL, NULL) != 1 || strncmp(line, want, strlen(want)) != 0) {
            fprintf(stderr, "protocol: '%s' answered '%s'\n", cmd, line);
            free(t);
            return -1;
        }
        t[i] = now_us() - t0;
    }
    qsort(t, (size_t)rounds, sizeof *t, bench_cmp_double);
    printf("  %-22s %6d rounds  median %7.1f us  p99 %7.1f us  max %8.1f us\n", name, rounds, t[rounds / 2],
           t[(int)(rounds * 0.99)], t[rounds - 1]);
    free(t);
    return 0;
}

int main(int argc, char **argv)
{
    const char *engine = "build/tools/picket-engine";
    int rounds = 20000;
    const bench_opt_t opts[] = {
        { "--engine", BENCH_TEXT, &engine, 0, 0, NULL },
        { "--rounds", BENCH_ATOI, &rounds, 1, INT_MAX, NULL },
    };
    int done = bench_args(argc, argv, "protocol",
                          "usage: protocol [--engine PATH] [--rounds N]\n\n"
                          "Round-trip time through a real pipe to a child engine process (default\n"
                          "build/tools/picket-engine, 20000 rounds): isready, and a random-bot decision.\n",
                          opts, BENCH_NOPTS(opts));
    if (done >= 0)
        return done;
    client_t c;
    char err[256];
    char *args[] = { (char *)engine, NULL };
    if (client_start_opts(&c, args, NULL, err, sizeof err) < 0) {
        fprintf(stderr, "protocol: %s\n", err);
        return 1;
    }
    /* A fixed position: seat 0 is elder and must play to the first trick. */
    static const char *const setup[] = {
        "setoption name bot value random", "setoption name info value false",
        "newgame game picket preset cotton seat 0 seed 1", "event hand 1 dealer 1 stock 12",
        "event dealt 0 9C JC 6D 7D 9D 7H AH 7S 8S 9S JS QS", "event turn 0 elder-exchange",
    };
    for (size_t i = 0; i < sizeof setup / sizeof setup[0]; i++)
        client_send(&c, setup[i]);
    printf("bench/protocol: %s, through pipes\n", engine);
    int rc = measure(&c, "isready", "isready", "= readyok", rounds);
    if (rc == 0)
        rc = measure(&c, "go (random bot)", "go", "= move ", rounds);
    client_stop(&c, 1000);
    return rc ? 1 : 0;
}
