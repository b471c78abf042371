/* bench/arena: how fast the arena plays sets between two random engines, at concurrency 1 and
 * 2, and how much CPU the arena itself takes. Target: at least 50 sets per second at
 * concurrency 1. Runs build/tools/picket-arena and reads its closing "Time:" line. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_args.h"

int main(int argc, char **argv)
{
    const char *arena = "build/tools/picket-arena", *engine = "build/tools/picket-engine";
    int rounds = 500;
    const bench_opt_t opts[] = {
        { "--arena", BENCH_TEXT, &arena, 0, 0, NULL },
        { "--engine", BENCH_TEXT, &engine, 0, 0, NULL },
        { "--rounds", BENCH_ATOI, &rounds, 1, INT_MAX, NULL },
    };
    int done = bench_args(argc, argv, "arena",
                          "usage: arena [--arena PATH] [--engine PATH] [--rounds N]\n\n"
                          "Plays N duplicate pairs (default 500, so 1000 sets) between two random engines\n"
                          "through picket-arena at concurrency 1 and 2, and prints sets per second and the\n"
                          "arena's own CPU share. Seed 1 for both runs.\n",
                          opts, BENCH_NOPTS(opts));
    if (done >= 0)
        return done;
    printf("bench/arena: %d pairs (%d sets) of random vs random, seed 1\n", rounds, 2 * rounds);
    for (int conc = 1; conc <= 2; conc++) {
        char cmd[4096];
        snprintf(cmd, sizeof cmd,
                 "%s -engine cmd=%s name=random-a option.bot=random option.info=false "
                 "-engine cmd=%s name=random-b option.bot=random option.info=false "
                 "-rounds %d -seed 1 -concurrency %d -quiet 2>&1",
                 arena, engine, engine, rounds, conc);
        FILE *p = popen(cmd, "r");
        if (!p) {
            fprintf(stderr, "arena: cannot run %s\n", arena);
            return 1;
        }
        char line[1024], timing[1024] = "";
        while (fgets(line, sizeof line, p))
            if (!strncmp(line, "Time:", 5))
                snprintf(timing, sizeof timing, "%s", line);
        int rc = pclose(p);
        if (rc != 0 || !timing[0]) {
            fprintf(stderr, "arena: the arena failed (status %d)\n", rc);
            return 1;
        }
        printf("  concurrency %d: %s", conc, timing + 6);
    }
    return 0;
}
