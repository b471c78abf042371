/* fault_engine: a deliberately faulty protocol engine, for the arena's fault tests.
 *   fault_engine KIND RATE [SEED]
 * It is picket-engine's session (random bot) except that in a share RATE of its sets, at one
 * random decision, it does KIND: crash (exits), hang (never answers), illegal (answers a card it
 * does not hold), garbage (answers a line that is not a move), mixed (any of these).
 *
 * Reproducible: whether a set faults, where and how follow from SEED (default 1) and the set's
 * newgame line alone: not from the process id, nor from how many sets this process has played,
 * so a restarted engine faults exactly as one that was never restarted. Each fault is reported
 * on stderr with the seed and the newgame line, to replay a failing run. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rng.h"
#include "session.h"

enum { DEFAULT_SEED = 1 };

/* FNV-1a: the newgame line as a stream number. */
static uint64_t line_hash(const char *s)
{
    uint64_t h = 14695981039346656037u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return h;
}

int main(int argc, char **argv)
{
    const char *usage = "usage: fault_engine crash|hang|illegal|garbage|mixed RATE [SEED (default 1)]\n";
    if (argc != 3 && argc != 4) {
        fputs(usage, stderr);
        return 2;
    }
    const char *kind = argv[1];
    double rate = atof(argv[2]);
    uint64_t seed = DEFAULT_SEED;
    if (argc == 4) {
        char *end;
        errno = 0;
        seed = strtoull(argv[3], &end, 10);
        if (!*argv[3] || *end || errno) {
            fputs(usage, stderr);
            return 2;
        }
    }
    rng_t rng;
    rng_seed(&rng, seed);
    session_t *s = session_create(stdout, -1, "fault_engine", "tests");
    if (!s)
        return 1;
    session_handle_line(s, "setoption name bot value random");
    session_handle_line(s, "setoption name info value false");
    proto_reader_t r;
    proto_reader_init(&r, STDIN_FILENO);
    static char line[PROTO_MAX_LINE + 1], set[256];
    int fault_at = -1, decision = 0;
    for (;;) {
        proto_status_t st = proto_read_line(&r, line, -1);
        if (st == PROTO_EOF)
            break;
        if (st != PROTO_LINE)
            continue;
        if (strstr(line, "newgame ")) {
            decision = 0;
            rng_seed(&rng, rng_derive(seed, line_hash(line)));
            fault_at = rng_unit(&rng) < rate ? (int)rng_below(&rng, 30) : -1;
            snprintf(set, sizeof set, "%.200s", line);
        }
        char *go = strstr(line, "go");
        if (go && (go == line || go[-1] == ' ') && decision++ == fault_at) {
            static const char *const kinds[] = { "crash", "hang", "illegal", "garbage" };
            const char *k = strcmp(kind, "mixed") ? kind : kinds[rng_below(&rng, 4)];
            fprintf(stderr, "fault_engine: seed %llu: %s at decision %d of '%s'\n", (unsigned long long)seed, k,
                    fault_at, set);
            char id[32] = "";
            if (line[0] >= '0' && line[0] <= '9')
                snprintf(id, sizeof id, "%.*s", (int)strspn(line, "0123456789"), line);
            if (!strcmp(k, "crash"))
                _exit(3);
            if (!strcmp(k, "hang"))
                for (;;)
                    pause();
            if (!strcmp(k, "illegal"))
                printf("=%s move play 2C\n", id);
            else
                printf("=%s bananas\n", id);
            fflush(stdout);
            continue;
        }
        if (session_handle_line(s, line))
            break;
    }
    session_free(s);
    return 0;
}
