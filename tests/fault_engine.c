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
 *                               bot.
 *
 * The synthetic engine for the tuner's tests (tests/test_tune.c):
 *   fault_engine knob OPTIMUM WIDTH  declares one more option, `knob` (float, 0 to 10, default
 *                               0), and plays each decision with the heuristic bot with
 *                               probability exp(-((knob - OPTIMUM) / WIDTH)^2), else with the
 *                               random bot: the nearer knob is to the hidden optimum, the
 *                               stronger it plays. The draws follow from the set's newgame line
 *                               and the decision number alone (never from knob), so two copies
 *                               with different knobs face the same luck. */
#define _GNU_SOURCE /* open_memstream */
#include <errno.h>
#include <math.h>
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

/* The session's output, written into memory and passed on line by line (see play_knob). */
typedef struct relay {
    FILE *mem;
    char *buf;
    size_t size, sent;
} relay_t;

/* Pass on what the session wrote since the last call. With hello, the knob's declaration goes
 * in before the reply line that ends the handshake. */
static void relay_flush(relay_t *r, int is_hello)
{
    fflush(r->mem);
    const char *text = r->buf + r->sent;
    size_t n = r->size - r->sent;
    if (is_hello && n > 0) {
        size_t last = n - 1; /* start of the last line */
        while (last > 0 && text[last - 1] != '\n')
            last--;
        fwrite(text, 1, last, stdout);
        fputs("option name knob type float default 0 min 0 max 10\n", stdout);
        fwrite(text + last, 1, n - last, stdout);
    } else {
        fwrite(text, 1, n, stdout);
    }
    r->sent = r->size;
    fflush(stdout);
}

/* The first word after an optional command id ("7 go" and "go" give "go"). */
static const char *command_word(const char *line)
{
    size_t n = strspn(line, "0123456789");
    return n > 0 && line[n] == ' ' ? line + n + 1 : line;
}

static int play_knob(double optimum, double width)
{
    relay_t r = { 0 };
    if (!(r.mem = open_memstream(&r.buf, &r.size)))
        return 1;
    session_t *s = session_create(r.mem, -1, "fault_engine", "tests");
    if (!s)
        return 1;
    session_handle_line(s, "setoption name info value false");
    relay_flush(&r, 0);
    proto_reader_t rd;
    proto_reader_init(&rd, STDIN_FILENO);
    static char line[PROTO_MAX_LINE + 1];
    double knob = 0;
    uint64_t set_stream = 0;
    long decision = 0;
    int done = 0;
    while (!done) {
        proto_status_t st = proto_read_line(&rd, line, -1);
        if (st == PROTO_EOF)
            break;
        if (st != PROTO_LINE)
            continue;
        const char *cmd = command_word(line);
        if (!strncmp(cmd, "setoption name knob value ", 26)) {
            char *end;
            errno = 0;
            double v = strtod(cmd + 26, &end);
            if (end == cmd + 26 || *end || errno || !isfinite(v) || v < 0 || v > 10)
                fputs("? knob: not a number from 0 to 10\n", stdout);
            else
                knob = v;
            fflush(stdout);
            continue;
        }
        if (!strncmp(cmd, "newgame ", 8)) {
            set_stream = line_hash(cmd);
            decision = 0;
        }
        char id[32];
        if (go_id(line, id, sizeof id)) {
            rng_t rng;
            rng_seed(&rng, rng_derive(set_stream, (uint64_t)decision++));
            double d = (knob - optimum) / width;
            int good = rng_unit(&rng) < exp(-d * d);
            session_handle_line(s, good ? "setoption name bot value heuristic" : "setoption name bot value random");
        }
        done = session_handle_line(s, line);
        relay_flush(&r, !strcmp(cmd, "hello"));
    }
    session_free(s);
    fclose(r.mem);
    free(r.buf);
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
                        "       fault_engine slow MS | exit | mute | spawn PIDFILE | knob OPTIMUM WIDTH\n";
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
    if (argc == 4 && !strcmp(argv[1], "knob")) {
        char *e1, *e2;
        double optimum = strtod(argv[2], &e1), width = strtod(argv[3], &e2);
        if (*e1 || *e2 || !(optimum >= 0 && optimum <= 10) || !(width > 0 && width <= 100)) {
            fputs(usage, stderr);
            return 2;
        }
        return play_knob(optimum, width);
    }
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
