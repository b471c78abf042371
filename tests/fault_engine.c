/* fault_engine: a deliberately faulty protocol engine, for the arena's fault tests.
 *   fault_engine KIND RATE [SEED]
 * It is picket-engine's session (random bot) except that in a share RATE of its sets, at one
 * random decision, it does KIND: crash (exits), hang (never answers), illegal (answers a card it
 * does not hold), garbage (answers a line that is not a move), mixed (any of these).
 *
 * Reproducible: whether a set faults, where and how follow from SEED (default 1) and the set's
 * newgame line alone: not from the process id, nor from how many sets this process has played,
 * so a restarted engine faults exactly as one that was never restarted. Each fault is reported
 * on stderr with the seed and the newgame line, to replay a failing run.
 *
 * Modes for the arena's start, clock and process tests (tests/test_arena_run.c):
 *   fault_engine slow MS        the random bot, but it sleeps MS milliseconds before answering
 *                               each go. The go's limits are not passed on to the session (it
 *                               sees a bare go, with the command id if any), so a limit the
 *                               session does not know can never turn the delay into an error.
 *   fault_engine exit           exits at once with status 1, before reading anything.
 *   fault_engine mute           reads every line and never writes one; exits at end of input.
 *   fault_engine spawn PIDFILE  first forks a child that stays in this process group, detaches
 *                               its stdin/stdout/stderr (to /dev/null), ignores SIGINT, SIGTERM
 *                               and SIGHUP, appends its pid and a newline to PIDFILE and sleeps
 *                               forever: a leftover that only a SIGKILL to the group stops. The
 *                               parent waits until the pid is written, then plays as the random
 *                               bot. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
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

/* The command id of a go line ("" if none), or NULL if the line is not a go. */
static const char *go_id(const char *line, char *id, size_t cap)
{
    size_t n = strspn(line, "0123456789");
    const char *cmd = line;
    if (n > 0 && line[n] == ' ')
        cmd = line + n + 1;
    else
        n = 0;
    if (strncmp(cmd, "go", 2) != 0 || (cmd[2] != '\0' && cmd[2] != ' '))
        return NULL;
    snprintf(id, cap, "%.*s", (int)(n < 20 ? n : 20), line);
    return id;
}

static void sleep_ms(long ms)
{
    struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };
    while (nanosleep(&t, &t) < 0 && errno == EINTR)
        ;
}

/* picket-engine's session with the random bot and no info lines. */
static session_t *random_session(void)
{
    session_t *s = session_create(stdout, -1, "fault_engine", "tests");
    if (s) {
        session_handle_line(s, "setoption name bot value random");
        session_handle_line(s, "setoption name info value false");
    }
    return s;
}

/* The random bot; with slow_ms > 0, each go waits that long and reaches the session bare. */
static int play_random(long slow_ms)
{
    session_t *s = random_session();
    if (!s)
        return 1;
    proto_reader_t r;
    proto_reader_init(&r, STDIN_FILENO);
    static char line[PROTO_MAX_LINE + 1];
    for (;;) {
        proto_status_t st = proto_read_line(&r, line, -1);
        if (st == PROTO_EOF)
            break;
        if (st != PROTO_LINE)
            continue;
        char id[32], bare[64];
        if (slow_ms > 0 && go_id(line, id, sizeof id)) {
            sleep_ms(slow_ms);
            snprintf(bare, sizeof bare, "%s%sgo", id, id[0] ? " " : "");
            if (session_handle_line(s, bare))
                break;
            continue;
        }
        if (session_handle_line(s, line))
            break;
    }
    session_free(s);
    return 0;
}

/* A leftover in this process group (see the header), then the random bot. */
static int spawn_then_play(const char *pidfile)
{
    int ready[2];
    if (pipe(ready) < 0)
        return 1;
    pid_t pid = fork();
    if (pid < 0)
        return 1;
    if (pid == 0) {
        close(ready[0]);
        signal(SIGINT, SIG_IGN);
        signal(SIGTERM, SIG_IGN);
        signal(SIGHUP, SIG_IGN);
        int null = open("/dev/null", O_RDWR);
        if (null >= 0) {
            dup2(null, STDIN_FILENO);
            dup2(null, STDOUT_FILENO);
            dup2(null, STDERR_FILENO);
            if (null > STDERR_FILENO)
                close(null);
        }
        int fd = open(pidfile, O_WRONLY | O_CREAT | O_APPEND, 0644);
        if (fd >= 0) {
            char buf[32];
            int n = snprintf(buf, sizeof buf, "%ld\n", (long)getpid());
            if (write(fd, buf, (size_t)n) != n)
                _exit(1);
            close(fd);
        }
        close(ready[1]);
        for (;;)
            pause();
    }
    close(ready[1]);
    char c;
    while (read(ready[0], &c, 1) < 0 && errno == EINTR)
        ;
    close(ready[0]);
    return play_random(0);
}

int main(int argc, char **argv)
{
    const char *usage = "usage: fault_engine crash|hang|illegal|garbage|mixed RATE [SEED (default 1)]\n"
                        "       fault_engine slow MS | exit | mute | spawn PIDFILE\n";
    if (argc == 2 && !strcmp(argv[1], "exit"))
        _exit(1);
    if (argc == 2 && !strcmp(argv[1], "mute")) {
        char buf[4096];
        ssize_t n;
        while ((n = read(STDIN_FILENO, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
            ;
        return 0;
    }
    if (argc == 3 && !strcmp(argv[1], "spawn"))
        return spawn_then_play(argv[2]);
    if (argc == 3 && !strcmp(argv[1], "slow")) {
        char *end;
        errno = 0;
        long ms = strtol(argv[2], &end, 10);
        if (!*argv[2] || *end || errno || ms < 0 || ms > 86400000L) {
            fputs(usage, stderr);
            return 2;
        }
        return play_random(ms);
    }
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
    session_t *s = random_session();
    if (!s)
        return 1;
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
