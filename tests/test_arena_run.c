/* The arena as a program (docs/arena.md): what a user of picket-arena sees when things go wrong.
 *  1. Fail fast: an engine that cannot start, be handshaken or take its options stops the run
 *     before any set, with exit 2, one line naming the engine and the field, and nothing written.
 *  2. Strict limits and numbers: nan, inf, negative, out of range, wrapping, contradictory.
 *  3. An honest clock: tc is a clock over the set, told as `go settime MS inc MS`; st is movetime.
 *  4. Faults during the run: printed as they happen; -maxfaults stops the run; -recover does not.
 *  5. Signals and processes: ^C finishes the sets in flight, exits 130 and resumes to the same
 *     results; a second ^C stops at once; no process an engine left behind outlives the arena.
 *  6. Resume compares the run's meaning, and never crashes on a damaged results file.
 *  7. Output: the results file's keys and escaping, write errors, records files and folders.
 *  8. Runner basics: -version, -log, stderr=, dir=, -deals, -ratinginterval.
 *  9. Shards: -shard I/N plays a balanced, disjoint share; -merge of the shards equals the
 *     unsharded run, refuses what is not one whole run and never changes its files; GNU parallel.
 * Exit codes: 0 complete, 1 an error during play (or files that do not merge), 2 a
 * configuration error before any set, 130 interrupted. Every arena is started in a process
 * group of its own (as a shell's job is), with a time limit, so a hung arena fails its test
 * instead of hanging the suite. Binaries come from $PICKET_ARENA, $PICKET_ENGINE,
 * $PICKET_FAULT_ENGINE, $PICKET_BIN (set by ctest); GNU parallel from PATH. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <CUnit/CUnit.h>
#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "measure.h"
#include "test_util.h"

enum {
    RUN_TIMEOUT = -2,     /* wait_exit: the arena outlived its limit and was killed */
    RUN_SIGNAL = 1000,    /* wait_exit: 1000 + the signal that ended the arena */
    MAX_ARGS = 512,
    MAX_SETS = 4096,
};

static const char *bin(const char *env, const char *fallback)
{
    const char *v = getenv(env);
    return v ? v : fallback;
}

#define ARENA bin("PICKET_ARENA", "build/tools/picket-arena")
#define ENGINE bin("PICKET_ENGINE", "build/tools/picket-engine")
#define FAULT bin("PICKET_FAULT_ENGINE", "build/tests/fault_engine")
#define PICKET bin("PICKET_BIN", "build/tools/picket")
/* Two seats of the test game: a set is a few milliseconds. */
#define HC2 "-game highcard -players 2"

static char tmpdir[64];

/* The test's folder, also when a fatal assertion ended the test before its own cleanup. */
static void remove_tmpdir(void)
{
    if (!tmpdir[0])
        return;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    CU_ASSERT_EQUAL(system(cmd), 0);
    tmpdir[0] = '\0';
}

static void make_tmpdir(void)
{
    remove_tmpdir();
    snprintf(tmpdir, sizeof tmpdir, "/tmp/picket-arena-run-XXXXXX");
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(tmpdir));
}

/* tmpdir/NAME, in one of a few rotating buffers (valid for the next 15 calls). */
static const char *tp(const char *name)
{
    static char buf[16][512];
    static int next;
    char *b = buf[next++ % 16];
    snprintf(b, sizeof buf[0], "%s/%s", tmpdir, name);
    return b;
}

static void sleep_s(double s)
{
    struct timespec t = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };
    while (nanosleep(&t, &t) < 0 && errno == EINTR)
        ;
}

/* ---------------------------------------------------------------- files */

/* A whole file, NUL-terminated (NULL if it cannot be read); *len its size if len. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *b = malloc(cap);
    size_t got;
    while (b && (got = fread(b + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (cap - n - 1 == 0) {
            char *nb = realloc(b, cap * 2);
            if (!nb) {
                free(b);
                b = NULL;
                break;
            }
            b = nb;
            cap *= 2;
        }
    }
    fclose(f);
    if (!b)
        return NULL;
    b[n] = '\0';
    if (len)
        *len = n;
    return b;
}

static int spit(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    int ok = fwrite(data, 1, len, f) == len;
    return fclose(f) == 0 && ok ? 0 : -1;
}

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* Newline-terminated lines in a file (-1 if it does not exist). */
static int count_lines(const char *path)
{
    size_t len;
    char *b = slurp(path, &len);
    if (!b)
        return -1;
    int n = 0;
    for (size_t i = 0; i < len; i++)
        n += b[i] == '\n';
    free(b);
    return n;
}

/* Entries in a folder other than . and .. (-1 if it is not a folder). */
static int count_entries(const char *path)
{
    DIR *d = opendir(path);
    if (!d)
        return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    return n;
}

/* ---------------------------------------------------------------- running the arena */

typedef struct args {
    int n;
    char *v[MAX_ARGS + 1];
} args_t;

static void av_init(args_t *a)
{
    memset(a, 0, sizeof *a);
    a->v[a->n++] = strdup(ARENA);
}

static void av_add(args_t *a, const char *s)
{
    CU_ASSERT_FATAL(a->n < MAX_ARGS);
    a->v[a->n++] = strdup(s);
}

/* Words separated by spaces (the paths here hold none), formatted as printf does. */
static void av_split(args_t *a, const char *fmt, ...)
{
    char buf[16384];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    for (char *w = strtok(buf, " "); w; w = strtok(NULL, " "))
        av_add(a, w);
}

static void av_free(args_t *a)
{
    for (int i = 0; i < a->n; i++)
        free(a->v[i]);
    a->n = 0;
}

/* Start argv in a new process group, stdout and stderr to files (stdin /dev/null). */
static pid_t spawn(char *const argv[], const char *out, const char *err)
{
    pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        signal(SIGPIPE, SIG_DFL);
        signal(SIGINT, SIG_DFL);
        int in = open("/dev/null", O_RDONLY);
        int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (in < 0 || o < 0 || e < 0)
            _exit(126);
        dup2(in, 0);
        dup2(o, 1);
        dup2(e, 2);
        execv(argv[0], argv);
        _exit(127);
    }
    if (pid > 0)
        setpgid(pid, pid);
    return pid;
}

/* Its exit status; RUN_SIGNAL + N if signal N ended it; RUN_TIMEOUT (the group is killed) if it
 * ran longer than limit seconds. */
static int wait_exit(pid_t pid, double limit)
{
    double end = measure_now() + limit;
    int st;
    for (;;) {
        pid_t r = waitpid(pid, &st, WNOHANG);
        if (r == pid)
            break;
        if (r < 0 && errno != EINTR)
            return RUN_TIMEOUT;
        if (measure_now() > end) {
            kill(-pid, SIGKILL);
            waitpid(pid, &st, 0);
            fprintf(stderr, "\n    the arena ran over %.0f s and was killed\n", limit);
            return RUN_TIMEOUT;
        }
        sleep_s(0.01);
    }
    if (WIFEXITED(st))
        return WEXITSTATUS(st);
    return RUN_SIGNAL + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

/* Run the arena (with -quiet if quiet); stdout to tmpdir/out.txt, stderr to tmpdir/err.txt. */
static int run_args(args_t *a, int quiet, double limit)
{
    if (quiet)
        av_add(a, "-quiet");
    a->v[a->n] = NULL;
    pid_t pid = spawn(a->v, tp("out.txt"), tp("err.txt"));
    CU_ASSERT_FATAL(pid > 0);
    return wait_exit(pid, limit);
}

static int arena_limit(double limit, const char *fmt, ...)
{
    char buf[16384];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    args_t a;
    av_init(&a);
    av_split(&a, "%s", buf);
    int rc = run_args(&a, 1, limit);
    av_free(&a);
    return rc;
}

/* The arena with these arguments and -quiet, within two minutes. */
#define arena(...) arena_limit(120, __VA_ARGS__)

/* The last run's stdout or stderr (valid until the next call of either). */
static const char *arena_text(const char *which)
{
    static char *last;
    free(last);
    last = slurp(tp(which), NULL);
    if (!last)
        last = strdup("");
    return last;
}
#define arena_err() arena_text("err.txt")
#define arena_out() arena_text("out.txt")

/* Some line of text holds all of the non-NULL words. */
static int line_holds(const char *text, const char *w1, const char *w2, const char *w3)
{
    const char *p = text;
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        char *line = strndup(p, n);
        int ok = line && (!w1 || strstr(line, w1)) && (!w2 || strstr(line, w2)) && (!w3 || strstr(line, w3));
        free(line);
        if (ok)
            return 1;
        p += n + (e != NULL);
    }
    return 0;
}

/* An error (docs/arena.md): exit want_rc, stderr exactly one line starting "picket-arena: "
 * that holds want1 (and, when given, one of alt_a, alt_b). */
static void expect_error(const char *what, int rc, int want_rc, const char *want1, const char *alt_a, const char *alt_b)
{
    const char *err = arena_err();
    int lines = 0;
    for (const char *c = err; *c; c++)
        lines += *c == '\n';
    int ok_rc = rc == want_rc;
    int ok_form = lines == 1 && !strncmp(err, "picket-arena: ", 14);
    int ok_words = (!want1 || strstr(err, want1)) &&
                   (!alt_a || strstr(err, alt_a) || (alt_b && strstr(err, alt_b)));
    if (!ok_rc || !ok_form || !ok_words)
        fprintf(stderr, "\n    %s: exit %d, want %d with one line holding '%s'%s%s%s%s; stderr: %.300s\n", what, rc, want_rc,
                want1 ? want1 : "", alt_a ? " and '" : "", alt_a ? alt_a : "", alt_b ? "' or '" : "",
                alt_b ? alt_b : "", err);
    CU_ASSERT_EQUAL(rc, want_rc);
    CU_ASSERT(ok_form);
    CU_ASSERT(ok_words);
}

/* A configuration error: exit 2, before any set. */
static void expect_config_error(const char *what, int rc, const char *want1, const char *alt_a, const char *alt_b)
{
    expect_error(what, rc, 2, want1, alt_a, alt_b);
}

/* ---------------------------------------------------------------- results files */

typedef struct results {
    cJSON *header; /* the first line, NULL if it does not parse */
    int n;         /* set lines */
    cJSON *set[MAX_SETS];
    int bad; /* lines that are not JSON */
} results_t;

/* Returns -1 if the file cannot be read. */
static int load_results(const char *path, results_t *r)
{
    memset(r, 0, sizeof *r);
    size_t len;
    char *b = slurp(path, &len);
    if (!b)
        return -1;
    int lineno = 0;
    for (char *p = b; *p;) {
        char *e = strchr(p, '\n');
        if (e)
            *e = '\0';
        cJSON *o = cJSON_Parse(p);
        if (lineno++ == 0)
            r->header = o;
        else if (!o)
            r->bad++;
        else {
            const cJSON *t = cJSON_GetObjectItemCaseSensitive(o, "type");
            if (cJSON_IsString(t) && !strcmp(t->valuestring, "set") && r->n < MAX_SETS)
                r->set[r->n++] = o;
            else
                cJSON_Delete(o);
        }
        if (!e)
            break;
        p = e + 1;
    }
    free(b);
    return 0;
}

static void free_results(results_t *r)
{
    cJSON_Delete(r->header);
    for (int i = 0; i < r->n; i++)
        cJSON_Delete(r->set[i]);
    memset(r, 0, sizeof *r);
}

static int jint(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valueint : INT_MIN;
}

static const char *jstr(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : "";
}

/* seats[i] of a set line, or "". */
static const char *seat_name(const cJSON *set, int i)
{
    const cJSON *v = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(set, "seats"), i);
    return cJSON_IsString(v) ? v->valuestring : "";
}

/* The item as compact JSON, into buf. */
static const char *jtext(const cJSON *o, const char *key, char *buf, size_t len)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    char *t = v ? cJSON_PrintUnformatted(v) : NULL;
    snprintf(buf, len, "%s", t ? t : "(none)");
    cJSON_free(t);
    return buf;
}

static void set_key(const cJSON *set, char *buf, size_t len)
{
    snprintf(buf, len, "%d/%d/%d", jint(set, "pairing"), jint(set, "round"), jint(set, "leg"));
}

/* Two results files hold the same sets (keys pairing/round/leg, each once) with the same ranks,
 * scores and winner. Returns the number of differences (printed). */
static int compare_results(const char *path_a, const char *path_b)
{
    results_t *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    CU_ASSERT_FATAL(a && b);
    CU_ASSERT_EQUAL_FATAL(load_results(path_a, a), 0);
    CU_ASSERT_EQUAL_FATAL(load_results(path_b, b), 0);
    int diff = a->n != b->n;
    if (diff)
        fprintf(stderr, "\n    %d sets in %s, %d in %s\n", a->n, path_a, b->n, path_b);
    for (int i = 0; i < a->n; i++) {
        char ka[64], kb[64];
        set_key(a->set[i], ka, sizeof ka);
        int found = 0;
        for (int j = 0; j < b->n; j++) {
            set_key(b->set[j], kb, sizeof kb);
            if (strcmp(ka, kb))
                continue;
            found++;
            static const char *const keys[] = { "ranks", "scores", "winner" };
            for (int k = 0; k < 3; k++) {
                char x[256], y[256];
                if (strcmp(jtext(a->set[i], keys[k], x, sizeof x), jtext(b->set[j], keys[k], y, sizeof y))) {
                    fprintf(stderr, "\n    set %s: %s %s against %s\n", ka, keys[k], x, y);
                    diff++;
                }
            }
        }
        if (found != 1) {
            fprintf(stderr, "\n    set %s is %d times in %s\n", ka, found, path_b);
            diff++;
        }
    }
    free_results(a);
    free_results(b);
    free(a);
    free(b);
    return diff;
}

/* Keep the first `lines` lines of a file (a run cut short, cleanly). */
static void truncate_lines(const char *path, int lines)
{
    size_t len;
    char *b = slurp(path, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    size_t n = 0;
    for (int l = 0; l < lines && n < len; n++)
        l += b[n] == '\n';
    CU_ASSERT_EQUAL(spit(path, b, n), 0);
    free(b);
}

/* ---------------------------------------------------------------- processes */

/* Alive: kill(pid, 0) succeeds and it is not a zombie (reaping an orphan is init's work, not
 * the arena's). */
static int pid_alive(pid_t pid)
{
    if (kill(pid, 0) < 0 && errno == ESRCH)
        return 0;
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    int alive = 1;
    if (fgets(buf, sizeof buf, f)) {
        const char *rp = strrchr(buf, ')');
        alive = !(rp && rp[1] == ' ' && (rp[2] == 'Z' || rp[2] == 'X'));
    }
    fclose(f);
    return alive;
}

/* The pids listed in a file, one a line; returns how many. */
static int read_pids(const char *path, pid_t *pids, int max)
{
    FILE *f = fopen(path, "r");
    int n = 0;
    long p;
    while (f && n < max && fscanf(f, "%ld", &p) == 1)
        pids[n++] = (pid_t)p;
    if (f)
        fclose(f);
    return n;
}

/* How many of the pids are still alive a second from now (checked every 20 ms). The survivors
 * are then killed, so a failing test leaves nothing behind. */
static int survivors(const pid_t *pids, int n)
{
    int alive = 0;
    for (double end = measure_now() + 1.0;;) {
        alive = 0;
        for (int i = 0; i < n; i++)
            alive += pid_alive(pids[i]);
        if (alive == 0 || measure_now() > end)
            break;
        sleep_s(0.02);
    }
    for (int i = 0; i < n; i++)
        if (pid_alive(pids[i])) {
            fprintf(stderr, "\n    process %ld outlived the arena\n", (long)pids[i]);
            kill(pids[i], SIGKILL);
        }
    return alive;
}

/* python3 is a requirement of the test suite, like GNU parallel (tools/setup.sh installs it): a
 * test that needs it fails without it, never passes unseen. 1 when it is on PATH; else the test
 * has failed and 0 tells it to stop using it. */
static int require_python3(void)
{
    if (system("command -v python3 > /dev/null 2>&1") == 0)
        return 1;
    fprintf(stderr, "\n    python3 is not on PATH: install Debian's package 'python3' (apt-get install python3)\n");
    CU_FAIL("python3 is missing: install Debian's package 'python3' (tools/setup.sh installs it)");
    return 0;
}

/* ================================================================ 1. fail fast */

/* A second engine that cannot be started or configured: exit 2 before any set, one line that
 * names the engine and the field, no results file and no records. */
static void fail_fast_case_either(const char *fields, const char *name, const char *field, const char *or_field)
{
    char want[128];
    snprintf(want, sizeof want, "engine '%s'", name);
    int rc = arena_limit(60, "-engine cmd=%s name=good -engine %s " HC2 " -rounds 1 -results %s -records %s", ENGINE,
                         fields, tp("r.jsonl"), tp("rec"));
    expect_config_error(fields, rc, want, field, or_field);
    CU_ASSERT_FALSE(exists(tp("r.jsonl")));
    CU_ASSERT(count_entries(tp("rec")) <= 0);
}

static void fail_fast_case(const char *fields, const char *name, const char *field)
{
    fail_fast_case_either(fields, name, field, NULL);
}

static void test_start_missing_program_is_a_cmd_error(void)
{
    make_tmpdir();
    fail_fast_case("cmd=/nonexistent/engine name=ghost", "ghost", "cmd");
    remove_tmpdir();
}

static void test_start_non_executable_program_is_a_cmd_error(void)
{
    make_tmpdir();
    char path[256];
    snprintf(path, sizeof path, "%s", tp("not-executable"));
    CU_ASSERT_EQUAL(spit(path, "#!/bin/sh\nexit 0\n", 17), 0);
    chmod(path, 0644);
    char fields[512];
    snprintf(fields, sizeof fields, "cmd=%s name=noexec", path);
    fail_fast_case(fields, "noexec", "cmd");
    remove_tmpdir();
}

static void test_start_option_value_the_engine_refuses(void)
{
    make_tmpdir();
    char fields[512];
    snprintf(fields, sizeof fields, "cmd=%s name=typo option.bot=heuristc", ENGINE);
    fail_fast_case(fields, "typo", "option.bot");
    remove_tmpdir();
}

static void test_start_option_the_engine_does_not_declare(void)
{
    make_tmpdir();
    char fields[512];
    snprintf(fields, sizeof fields, "cmd=%s name=painter option.colour=red", ENGINE);
    fail_fast_case(fields, "painter", "option.colour");
    remove_tmpdir();
}

/* Which field is at fault is not settled for this one: the program (cmd) or its start. */
static void test_start_engine_that_exits_at_once(void)
{
    make_tmpdir();
    char fields[512];
    snprintf(fields, sizeof fields, "cmd=%s arg=exit name=quitter", FAULT);
    fail_fast_case_either(fields, "quitter", "start", "cmd");
    remove_tmpdir();
}

/* An engine that never answers hello fails within its start limit (0.5 s), long before the
 * default 10 s. */
static void test_start_mute_engine_fails_within_its_start_limit(void)
{
    char fields[512];
    make_tmpdir();
    snprintf(fields, sizeof fields, "cmd=%s arg=mute name=mute start=0.5", FAULT);
    double t0 = measure_now();
    fail_fast_case(fields, "mute", "start");
    double took = measure_now() - t0;
    if (took >= 5.0)
        fprintf(stderr, "\n    a mute engine took %.1f s to be refused (start=0.5)\n", took);
    CU_ASSERT(took < 5.0);
    remove_tmpdir();
}

/* The minimal engine of docs/protocol.md §12 plays complete sets: it declares no option, so it
 * is sent none. */
static void test_start_minimal_python_engine_plays_normal_sets(void)
{
    if (!require_python3())
        return;
    make_tmpdir();
    char *doc = slurp("docs/protocol.md", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    const char *h = strstr(doc, "## 12. A minimal compliant engine");
    const char *start = h ? strstr(h, "```python\n") : NULL;
    const char *end = start ? strstr(start + 10, "\n```") : NULL;
    CU_ASSERT_PTR_NOT_NULL_FATAL(end);
    start += 10;
    CU_ASSERT_EQUAL(spit(tp("minibot.py"), start, (size_t)(end - start) + 1), 0);
    free(doc);
    int rc = arena("-engine cmd=python3 arg=%s name=mini -engine cmd=%s name=heuristic option.bot=heuristic -rounds 3 "
                   "-results %s",
                   tp("minibot.py"), ENGINE, tp("r.jsonl"));
    if (rc != 0)
        fprintf(stderr, "\n    exit %d: %.300s\n", rc, arena_err());
    CU_ASSERT_EQUAL(rc, 0);
    results_t *r = malloc(sizeof *r);
    CU_ASSERT_EQUAL_FATAL(load_results(tp("r.jsonl"), r), 0);
    CU_ASSERT_EQUAL(r->n, 6);
    for (int i = 0; i < r->n; i++) {
        if (strcmp(jstr(r->set[i], "reason"), "normal"))
            fprintf(stderr, "\n    set %d: %s: %s\n", i, jstr(r->set[i], "reason"), jstr(r->set[i], "detail"));
        CU_ASSERT_STRING_EQUAL(jstr(r->set[i], "reason"), "normal");
    }
    free_results(r);
    free(r);
    remove_tmpdir();
}

/* ================================================================ 2. limits and numbers */

/* An engine field that is not a number, or out of range: exit 2 naming the engine and the field. */
static void test_limits_bad_numbers_are_refused(void)
{
    static const char *const cases[][2] = {
        { "tc=nan", "tc" },
        { "st=nan", "st" },
        { "timeout=nan", "timeout" },
        { "tc=inf", "tc" },
        { "st=-1", "st" },
        { "iterations=4294967301000000", "iterations" },
        { "iterations=0", "iterations" },
        { "tc=1+x", "tc" },
    };
    make_tmpdir();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int rc = arena_limit(30, "-engine cmd=%s name=good -engine cmd=%s name=limited %s " HC2 " -rounds 1 -results %s",
                             ENGINE, ENGINE, cases[i][0], tp("r.jsonl"));
        expect_config_error(cases[i][0], rc, "engine 'limited'", cases[i][1], NULL);
        CU_ASSERT_FALSE(exists(tp("r.jsonl")));
        unlink(tp("r.jsonl")); /* so a wrong answer here cannot change the next case's */
    }
    remove_tmpdir();
}

/* Two limits on one engine contradict each other: exit 2 naming the engine and one of them. */
static void test_limits_two_on_one_engine_are_refused(void)
{
    static const char *const cases[][3] = {
        { "tc=10+0.1 st=1", "tc", "st" },
        { "tc=10 iterations=100", "tc", "iterations" },
        { "st=1 iterations=100", "st", "iterations" },
    };
    make_tmpdir();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int rc = arena_limit(30, "-engine cmd=%s name=good -engine cmd=%s name=limited %s " HC2 " -rounds 1 -results %s",
                             ENGINE, ENGINE, cases[i][0], tp("r.jsonl"));
        expect_config_error(cases[i][0], rc, "engine 'limited'", cases[i][1], cases[i][2]);
        CU_ASSERT_FALSE(exists(tp("r.jsonl")));
        unlink(tp("r.jsonl"));
    }
    remove_tmpdir();
}

/* Arena options that are out of range, wrap, or are not numbers: exit 2 naming the option. */
static void test_limits_arena_options_out_of_range_are_refused(void)
{
    static const char *const cases[][2] = {
        { "-rounds 99999999999999999999", "-rounds" },
        { "-concurrency 0", "-concurrency" },
        { "-margin nan", "-margin" },
        { "-margin -5", "-margin" },
        { "-seed 18446744073709551616", "-seed" },
        { "-seed -1", "-seed" },
        { "-maxfaults 0", "-maxfaults" },
        { "-ratinginterval 0", "-ratinginterval" },
    };
    make_tmpdir();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int rc = arena_limit(30, "-engine cmd=%s name=a -engine cmd=%s name=b " HC2 " %s -results %s", ENGINE, ENGINE,
                             cases[i][0], tp("r.jsonl"));
        expect_config_error(cases[i][0], rc, cases[i][1], NULL, NULL);
        CU_ASSERT_FALSE(exists(tp("r.jsonl")));
        unlink(tp("r.jsonl"));
    }
    remove_tmpdir();
}

/* 64 engines in a round robin of 1065221 rounds: 2016 pairings x 2 legs x 1065221 rounds is
 * more than 2^32 sets. The arena says so (exit 2) instead of wrapping or crashing. */
static void test_limits_too_many_sets_is_refused(void)
{
    make_tmpdir();
    args_t a;
    av_init(&a);
    for (int e = 0; e < 64; e++)
        av_split(&a, "-engine cmd=%s name=e%d", ENGINE, e);
    av_split(&a, "-tournament round-robin -rounds 1065221 -results %s", tp("r.jsonl"));
    int rc = run_args(&a, 1, 20);
    av_free(&a);
    const char *err = arena_err();
    if (rc != 2)
        fprintf(stderr, "\n    exit %d: %.300s\n", rc, err);
    CU_ASSERT_EQUAL(rc, 2);
    CU_ASSERT_EQUAL(strncmp(err, "picket-arena: ", 14), 0);
    CU_ASSERT_FALSE(exists(tp("r.jsonl")));
    remove_tmpdir();
}

/* ================================================================ 3. an honest clock */

/* Position of the command word `cmd` if it is the command of a protocol line (after an optional
 * numeric command id), or NULL. */
static const char *command_is(const char *line, const char *cmd)
{
    size_t n = strspn(line, "0123456789"), len = strlen(cmd);
    const char *c = n > 0 && line[n] == ' ' ? line + n + 1 : line;
    return !strncmp(c, cmd, len) && (c[len] == ' ' || c[len] == '\0' || c[len] == '\n') ? c : NULL;
}

static const char *go_command(const char *line)
{
    return command_is(line, "go");
}

/* The protocol line of a -log line that goes to (dir '>') or comes from (dir '<') the engine
 * named `name`, or NULL. */
static const char *log_line(const char *logline, const char *name, char dir)
{
    if (!strstr(logline, name))
        return NULL;
    const char mark[3] = { dir, ' ', '\0' };
    const char *p = strstr(logline, mark);
    return p ? p + 2 : NULL;
}

static const char *to_engine(const char *logline, const char *name)
{
    return log_line(logline, name, '>');
}

/* tc is a clock for the whole set: an engine that spends 0.4 s a decision on a 0.5 s clock
 * loses every set it plays on time (a set of Picket has dozens of decisions), and it is told
 * its clock as `go settime MS inc MS`, the time left falling, never a movetime. */
static void test_clock_tc_is_a_clock_for_the_set_and_told_as_settime_inc(void)
{
    make_tmpdir();
    int rc = arena("-engine cmd=%s arg=slow arg=400 name=slowpoke tc=0.5+0 -engine cmd=%s name=quick -rounds 1 "
                   "-results %s -log %s",
                   FAULT, ENGINE, tp("r.jsonl"), tp("log.txt"));
    if (rc != 0)
        fprintf(stderr, "\n    exit %d: %.300s\n", rc, arena_err());
    CU_ASSERT_EQUAL(rc, 0);
    results_t *r = malloc(sizeof *r);
    CU_ASSERT_FATAL(r != NULL);
    if (load_results(tp("r.jsonl"), r) == 0) {
        CU_ASSERT_EQUAL(r->n, 2);
        for (int i = 0; i < r->n; i++) {
            int fs = jint(r->set[i], "fault_seat");
            CU_ASSERT_STRING_EQUAL(jstr(r->set[i], "reason"), "timeout");
            CU_ASSERT(fs == 0 || fs == 1);
            CU_ASSERT_STRING_EQUAL(seat_name(r->set[i], fs == 1), "slowpoke");
            CU_ASSERT_STRING_EQUAL(jstr(r->set[i], "winner_name"), "quick");
        }
        free_results(r);
    } else
        CU_FAIL("no results file");
    free(r);
    /* What the slow engine was told. */
    FILE *f = fopen(tp("log.txt"), "r");
    CU_ASSERT_PTR_NOT_NULL(f);
    char line[8192];
    int goes = 0, bad = 0, rising = 0;
    long last = -1;
    while (f && fgets(line, sizeof line, f)) {
        const char *p = to_engine(line, "slowpoke");
        if (!p)
            continue;
        if (strstr(p, "newgame"))
            last = -1; /* a fresh clock */
        const char *go = go_command(p);
        if (!go)
            continue;
        goes++;
        long set_ms, inc_ms;
        if (strstr(go, "movetime") || sscanf(go, "go settime %ld inc %ld", &set_ms, &inc_ms) != 2 || inc_ms != 0) {
            fprintf(stderr, "\n    slowpoke was told: %s", p);
            bad++;
            continue;
        }
        if (last >= 0 && set_ms >= last)
            rising++;
        last = set_ms;
    }
    if (f)
        fclose(f);
    CU_ASSERT(goes >= 2);
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL(rising, 0);
    remove_tmpdir();
}

/* st is a fixed time a decision, told as `go movetime MS`. */
static void test_clock_st_is_told_as_movetime(void)
{
    make_tmpdir();
    int rc = arena("-engine cmd=%s arg=slow arg=0 name=slowpoke st=0.2 -engine cmd=%s name=quick " HC2
                   " -rounds 1 -log %s",
                   FAULT, ENGINE, tp("log.txt"));
    CU_ASSERT_EQUAL(rc, 0);
    FILE *f = fopen(tp("log.txt"), "r");
    CU_ASSERT_PTR_NOT_NULL(f);
    char line[8192];
    int goes = 0, bad = 0;
    while (f && fgets(line, sizeof line, f)) {
        const char *p = to_engine(line, "slowpoke");
        const char *go = p ? go_command(p) : NULL;
        if (!go)
            continue;
        goes++;
        if (strncmp(go, "go movetime 200", 15) || (go[15] != '\n' && go[15] != ' ' && go[15] != '\0') ||
            strstr(go, "settime")) {
            fprintf(stderr, "\n    slowpoke was told: %s", p);
            bad++;
        }
    }
    if (f)
        fclose(f);
    CU_ASSERT(goes >= 2);
    CU_ASSERT_EQUAL(bad, 0);
    remove_tmpdir();
}

/* ================================================================ 4. faults during the run */

/* A line of the arena's stderr (not the engine's own "fault_engine: ..." report) that names the
 * engine and the fault. */
static int arena_reports(const char *err, const char *name, const char *reason)
{
    const char *p = err;
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        char *line = strndup(p, n);
        int ok = line && strncmp(line, "fault_engine:", 13) && strstr(line, name) && strstr(line, reason);
        free(line);
        if (ok)
            return 1;
        p += n + (e != NULL);
    }
    return 0;
}

/* Every set of `fault_engine crash 1.0` faults (each crashes at one of its first 30 decisions,
 * and a set of Picket has more). Two faults in two sets stay under the default -maxfaults (3). */
static void test_faults_are_printed_as_they_happen_even_when_quiet(void)
{
    make_tmpdir();
    int rc = arena("-engine cmd=%s name=good option.bot=random -engine cmd=%s arg=crash arg=1.0 name=crashy -rounds 1 "
                   "-results %s",
                   ENGINE, FAULT, tp("r.jsonl"));
    CU_ASSERT_EQUAL(rc, 0);
    const char *err = arena_err();
    if (!arena_reports(err, "crashy", "crash"))
        fprintf(stderr, "\n    stderr: %.500s\n", err);
    CU_ASSERT(arena_reports(err, "crashy", "crash"));
    CU_ASSERT_EQUAL(count_lines(tp("r.jsonl")), 3);
    remove_tmpdir();
}

/* -maxfaults 2: the second fault in a row stops the run (exit 1) with a line naming the engine;
 * the faulted sets are recorded, no more are played. */
static void test_faults_maxfaults_stops_the_run_with_exit_1(void)
{
    make_tmpdir();
    int rc = arena("-engine cmd=%s name=good option.bot=random -engine cmd=%s arg=crash arg=1.0 name=crashy -rounds 5 "
                   "-maxfaults 2 -results %s",
                   ENGINE, FAULT, tp("r.jsonl"));
    const char *err = arena_err();
    if (rc != 1)
        fprintf(stderr, "\n    exit %d: %.300s\n", rc, err);
    CU_ASSERT_EQUAL(rc, 1);
    CU_ASSERT(line_holds(err, "picket-arena: ", "crashy", NULL));
    CU_ASSERT_EQUAL(count_lines(tp("r.jsonl")), 1 + 2);
    remove_tmpdir();
}

/* The default is 3: two faulting sets in a row play on (exit 0), three stop the run (exit 1). */
static void test_faults_maxfaults_default_is_three(void)
{
    make_tmpdir();
    int rc = arena("-engine cmd=%s name=good option.bot=random -engine cmd=%s arg=crash arg=1.0 name=crashy "
                   "-no-duplicate -rounds 2",
                   ENGINE, FAULT);
    CU_ASSERT_EQUAL(rc, 0);
    rc = arena("-engine cmd=%s name=good option.bot=random -engine cmd=%s arg=crash arg=1.0 name=crashy "
               "-no-duplicate -rounds 3",
               ENGINE, FAULT);
    CU_ASSERT_EQUAL(rc, 1);
    CU_ASSERT(line_holds(arena_err(), "picket-arena: ", "crashy", NULL));
    remove_tmpdir();
}

/* -recover: every fault is a forfeit (the other engine wins), and the run ends with exit 0. */
static void test_faults_recover_plays_to_the_end_every_fault_a_forfeit(void)
{
    make_tmpdir();
    int rc = arena("-engine cmd=%s name=good option.bot=random -engine cmd=%s arg=crash arg=1.0 name=crashy -rounds 3 "
                   "-recover -results %s",
                   ENGINE, FAULT, tp("r.jsonl"));
    CU_ASSERT_EQUAL(rc, 0);
    results_t *r = malloc(sizeof *r);
    CU_ASSERT_FATAL(r != NULL);
    CU_ASSERT_EQUAL_FATAL(load_results(tp("r.jsonl"), r), 0);
    CU_ASSERT_EQUAL(r->n, 6);
    for (int i = 0; i < r->n; i++) {
        int fs = jint(r->set[i], "fault_seat");
        CU_ASSERT_STRING_EQUAL(jstr(r->set[i], "reason"), "crash");
        CU_ASSERT(fs == 0 || fs == 1);
        CU_ASSERT_STRING_EQUAL(seat_name(r->set[i], fs == 1), "crashy");
        CU_ASSERT_STRING_EQUAL(jstr(r->set[i], "winner_name"), "good");
    }
    free_results(r);
    free(r);
    remove_tmpdir();
}

/* ================================================================ 5. signals and processes */

/* Start the arena in a group of its own, as a shell starts a job. */
static pid_t start_arena(const char *fmt, ...)
{
    char buf[16384];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    args_t a;
    av_init(&a);
    av_split(&a, "%s -quiet", buf);
    a.v[a.n] = NULL;
    pid_t pid = spawn(a.v, tp("out.txt"), tp("err.txt"));
    av_free(&a);
    CU_ASSERT_FATAL(pid > 0);
    return pid;
}

/* ^C to the arena's process group (the engines have groups of their own, so it reaches the
 * arena alone): the sets in flight finish and are recorded as the rules ended them, exit 130;
 * -resume completes the run, set by set equal to an uninterrupted run. Two sets are always in
 * flight (-concurrency 2, 30 sets), so when ^C comes after c sets are recorded, at least c + 2
 * are recorded in the end: the two in flight, and any that ended between the count and the ^C
 * (an arena that dropped the sets in flight, or whose engines died of the ^C, records fewer). */
static void test_signals_sigint_finishes_sets_in_flight_and_resume_equals_an_unbroken_run(void)
{
    make_tmpdir();
    char common[4096];
    snprintf(common, sizeof common,
             "-engine cmd=%s arg=slow arg=15 name=slowpoke -engine cmd=%s name=quick option.bot=heuristic st=0.02 " HC2
             " -rounds 15 -seed 11 -concurrency 2",
             FAULT, ENGINE);
    CU_ASSERT_EQUAL(arena("%s -results %s", common, tp("full.jsonl")), 0);
    CU_ASSERT_EQUAL(count_lines(tp("full.jsonl")), 31);

    pid_t pid = start_arena("%s -results %s", common, tp("part.jsonl"));
    int at_signal = 0;
    for (double end = measure_now() + 30; (at_signal = count_lines(tp("part.jsonl")) - 1) < 2 && measure_now() < end;)
        sleep_s(0.005);
    kill(-pid, SIGINT);
    int rc = wait_exit(pid, 30);
    if (rc != 130)
        fprintf(stderr, "\n    exit %d after ^C: %.300s\n", rc, arena_err());
    CU_ASSERT_EQUAL(rc, 130);
    results_t *r = malloc(sizeof *r);
    CU_ASSERT_FATAL(r != NULL);
    CU_ASSERT_EQUAL_FATAL(load_results(tp("part.jsonl"), r), 0);
    fprintf(stderr, "\n    ^C after %d of 30 sets; %d recorded\n", at_signal, r->n);
    CU_ASSERT(r->n >= at_signal + 2 && r->n < 30);
    CU_ASSERT_EQUAL(r->bad, 0);
    for (int i = 0; i < r->n; i++) {
        if (strcmp(jstr(r->set[i], "reason"), "normal"))
            fprintf(stderr, "\n    after ^C a set ended by %s: %s\n", jstr(r->set[i], "reason"),
                    jstr(r->set[i], "detail"));
        CU_ASSERT_STRING_EQUAL(jstr(r->set[i], "reason"), "normal");
    }
    free_results(r);
    free(r);

    CU_ASSERT_EQUAL(arena("%s -results %s -resume", common, tp("part.jsonl")), 0);
    CU_ASSERT_EQUAL(compare_results(tp("full.jsonl"), tp("part.jsonl")), 0);
    remove_tmpdir();
}

/* A second ^C stops at once, even while an engine is in the middle of a 5 s decision. */
static void test_signals_second_sigint_stops_at_once(void)
{
    make_tmpdir();
    pid_t pid = start_arena("-engine cmd=%s arg=slow arg=60000 name=sleepy st=5 -engine cmd=%s name=quick " HC2
                            " -rounds 4 -concurrency 2 -results %s",
                            FAULT, ENGINE, tp("r.jsonl"));
    sleep_s(1.0); /* handshakes done; sleepy is deciding */
    kill(-pid, SIGINT);
    sleep_s(0.3);
    /* The first ^C waits for the sets in flight, and sleepy's decision lasts 5 s. */
    int st;
    int still_running = waitpid(pid, &st, WNOHANG) == 0;
    if (!still_running) {
        fprintf(stderr, "\n    the first ^C did not wait for the sets in flight: %.300s\n", arena_err());
        CU_FAIL("the arena stopped at the first ^C");
        remove_tmpdir();
        return;
    }
    double t0 = measure_now();
    kill(-pid, SIGINT);
    int rc = wait_exit(pid, 30);
    double took = measure_now() - t0;
    if (rc != 130 || took >= 2.5)
        fprintf(stderr, "\n    exit %d, %.1f s after the second ^C: %.300s\n", rc, took, arena_err());
    CU_ASSERT_EQUAL(rc, 130);
    CU_ASSERT(took < 2.5);
    /* The sets cut short are not recorded. */
    results_t *r = malloc(sizeof *r);
    CU_ASSERT_FATAL(r != NULL);
    if (load_results(tp("r.jsonl"), r) == 0) {
        for (int i = 0; i < r->n; i++)
            CU_ASSERT_STRING_EQUAL(jstr(r->set[i], "reason"), "normal");
        free_results(r);
    }
    free(r);
    remove_tmpdir();
}

/* A wrapper script that runs the engine WITHOUT exec (the shell stays the engine's parent) and
 * leaves a `sleep` behind; it lists its own pid, the sleep's and the engine's in tmpdir/pids.
 * (The engine is started with & to learn its pid; its stdin, which an asynchronous command would
 * otherwise lose to /dev/null, is passed on through descriptor 3.) */
static void write_wrapper(void)
{
    char text[1024];
    int n = snprintf(text, sizeof text,
                     "#!/bin/sh\n"
                     "exec 3<&0\n"
                     "echo $$ >> %s\n"
                     "sleep 1000 < /dev/null > /dev/null 2>&1 &\n"
                     "echo $! >> %s\n"
                     "\"$@\" <&3 3<&- &\n"
                     "echo $! >> %s\n"
                     "wait $!\n",
                     tp("pids"), tp("pids"), tp("pids"));
    CU_ASSERT_EQUAL_FATAL(spit(tp("wrap.sh"), text, (size_t)n), 0);
    chmod(tp("wrap.sh"), 0755);
}

/* After a normal run, nothing of an engine's process group is left: not the wrapper shell, not
 * its sleep, not the child the engine forked (fault_engine spawn, which ignores SIGTERM). */
static void test_processes_nothing_of_an_engine_survives_a_normal_run(void)
{
    make_tmpdir();
    write_wrapper();
    int rc = arena("-engine cmd=%s arg=%s arg=spawn arg=%s name=wrapped -engine cmd=%s name=good " HC2 " -rounds 2",
                   tp("wrap.sh"), FAULT, tp("pids"), ENGINE);
    if (rc != 0)
        fprintf(stderr, "\n    exit %d: %.300s\n", rc, arena_err());
    CU_ASSERT_EQUAL(rc, 0);
    pid_t pids[256];
    int n = read_pids(tp("pids"), pids, 256);
    CU_ASSERT(n >= 4); /* the shell, its sleep, the engine, the engine's child */
    CU_ASSERT_EQUAL(survivors(pids, n), 0);
    remove_tmpdir();
}

/* An engine that hangs is killed with its whole group: nothing it left behind survives. */
static void test_processes_nothing_of_a_hung_engine_survives(void)
{
    make_tmpdir();
    write_wrapper();
    int rc = arena("-engine cmd=%s arg=%s arg=hang arg=1 name=hanger timeout=0.3 -engine cmd=%s name=good "
                   "option.bot=random -rounds 1 -results %s",
                   tp("wrap.sh"), FAULT, ENGINE, tp("r.jsonl"));
    if (rc != 0)
        fprintf(stderr, "\n    exit %d: %.300s\n", rc, arena_err());
    CU_ASSERT_EQUAL(rc, 0);
    results_t *r = malloc(sizeof *r);
    CU_ASSERT_FATAL(r != NULL);
    if (load_results(tp("r.jsonl"), r) == 0) {
        CU_ASSERT_EQUAL(r->n, 2);
        for (int i = 0; i < r->n; i++)
            CU_ASSERT_STRING_EQUAL(jstr(r->set[i], "reason"), "timeout");
        free_results(r);
    } else
        CU_FAIL("no results file");
    free(r);
    pid_t pids[256];
    int n = read_pids(tp("pids"), pids, 256);
    CU_ASSERT(n >= 3); /* the shell, its sleep, the engine */
    CU_ASSERT_EQUAL(survivors(pids, n), 0);
    remove_tmpdir();
}

/* ================================================================ 6. resume */

#define RESUME_BASE "-engine cmd=%s name=alpha option.bot=heuristic%s -engine cmd=%s name=beta option.bot=random " HC2 \
                    " -rounds 3 -seed 5 -results %s"

/* A run of 6 sets, cut back to its header and 2 sets. */
static void make_partial_run(const char *alpha_extra)
{
    CU_ASSERT_EQUAL_FATAL(arena(RESUME_BASE, ENGINE, alpha_extra, ENGINE, tp("r.jsonl")), 0);
    CU_ASSERT_EQUAL(count_lines(tp("r.jsonl")), 7);
    truncate_lines(tp("r.jsonl"), 3);
}

static void test_resume_refuses_another_option_value(void)
{
    make_tmpdir();
    make_partial_run("");
    int rc = arena("-engine cmd=%s name=alpha option.bot=random -engine cmd=%s name=beta option.bot=random " HC2
                   " -rounds 3 -seed 5 -results %s -resume",
                   ENGINE, ENGINE, tp("r.jsonl"));
    expect_config_error("another option.bot", rc, "alpha", "option", NULL);
    CU_ASSERT_EQUAL(count_lines(tp("r.jsonl")), 3);
    remove_tmpdir();
}

static void test_resume_refuses_another_tc(void)
{
    make_tmpdir();
    make_partial_run(" tc=60+1");
    int rc = arena("-engine cmd=%s name=alpha option.bot=heuristic tc=30+1 -engine cmd=%s name=beta option.bot=random " HC2
                   " -rounds 3 -seed 5 -results %s -resume",
                   ENGINE, ENGINE, tp("r.jsonl"));
    expect_config_error("another tc", rc, "alpha", "tc", NULL);
    CU_ASSERT_EQUAL(count_lines(tp("r.jsonl")), 3);
    remove_tmpdir();
}

/* The objects' keys in reverse order, at every depth. */
static void reverse_keys(cJSON *o)
{
    if (!o)
        return;
    for (cJSON *c = o->child; c; c = c->next)
        reverse_keys(c);
    if (!cJSON_IsObject(o))
        return;
    cJSON *items[256];
    int n = 0;
    while (o->child && n < 256)
        items[n++] = cJSON_DetachItemViaPointer(o, o->child);
    while (n > 0) {
        cJSON *c = items[--n];
        cJSON_AddItemToObject(o, c->string, c); /* copies the key before it frees the old one */
    }
}

/* The same run, its header re-serialised with other spacing and key order, resumes. */
static void test_resume_accepts_a_reformatted_header(void)
{
    make_tmpdir();
    make_partial_run("");
    size_t len;
    char *b = slurp(tp("r.jsonl"), &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    char *nl = strchr(b, '\n');
    CU_ASSERT_PTR_NOT_NULL_FATAL(nl);
    *nl = '\0';
    cJSON *h = cJSON_Parse(b);
    CU_ASSERT_PTR_NOT_NULL_FATAL(h);
    reverse_keys(h);
    char *pretty = cJSON_Print(h); /* "key": value, newlines and tabs */
    for (char *c = pretty; *c; c++)
        if (*c == '\n' || *c == '\t')
            *c = ' ';
    FILE *f = fopen(tp("r.jsonl"), "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fprintf(f, "%s\n%s", pretty, nl + 1);
    fclose(f);
    cJSON_free(pretty);
    cJSON_Delete(h);
    free(b);
    int rc = arena(RESUME_BASE " -resume", ENGINE, "", ENGINE, tp("r.jsonl"));
    if (rc != 0)
        fprintf(stderr, "\n    exit %d: %.300s\n", rc, arena_err());
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT_EQUAL(count_lines(tp("r.jsonl")), 7);
    remove_tmpdir();
}

/* Issue 29: only a last line the file ends inside (no newline) is torn and cut; a complete last
 * line that is not a set result is a damaged file, named with its line, and nothing is cut. */
static void test_resume_refuses_a_complete_damaged_last_line(void)
{
    make_tmpdir();
    CU_ASSERT_EQUAL_FATAL(arena(RESUME_BASE, ENGINE, "", ENGINE, tp("r.jsonl")), 0);
    truncate_lines(tp("r.jsonl"), 3); /* header and 2 sets */
    FILE *f = fopen(tp("r.jsonl"), "a");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs("{\"type\":\"set\",\"pairing\":0}\n", f);
    fclose(f);
    int rc = arena(RESUME_BASE " -resume", ENGINE, "", ENGINE, tp("r.jsonl"));
    CU_ASSERT_NOT_EQUAL(rc, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(arena_err(), "line 4 of"));
    CU_ASSERT_PTR_NOT_NULL(strstr(arena_err(), "is not a set result"));
    CU_ASSERT_EQUAL(count_lines(tp("r.jsonl")), 4);
    remove_tmpdir();
}

/* A whole run of RESUME_BASE with its records in one file, rec (tp("rec.txt")): the file's bytes
 * (*len of them), to free. */
static char *records_run(char *rec, size_t cap, size_t *len)
{
    snprintf(rec, cap, "%s", tp("rec.txt"));
    CU_ASSERT_EQUAL_FATAL(arena(RESUME_BASE " -records %s", ENGINE, "", ENGINE, tp("r.jsonl"), rec), 0);
    char *full = slurp(rec, len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(full);
    return full;
}

/* 1 if the records file holds exactly the len bytes of full. */
static int records_are(const char *rec, const char *full, size_t len)
{
    size_t n;
    char *now = slurp(rec, &n);
    int same = now && n == len && memcmp(now, full, len) == 0;
    free(now);
    return same;
}

/* Issue 29: a one-file -records of this run opens with its run line; -resume cuts a record the
 * file ends inside (its set has no results line) and plays that set again, so every record in
 * the file is whole; a records file of another run is refused on -resume and left unchanged. */
static void test_resume_repairs_a_torn_records_file_and_refuses_another_runs(void)
{
    make_tmpdir();
    char rec[4200];
    size_t len;
    char *full = records_run(rec, sizeof rec, &len);
    CU_ASSERT(strncmp(full, "# picket-arena run ", 19) == 0);
    /* the last set's record torn in the middle, and its results line gone */
    CU_ASSERT_EQUAL(spit(rec, full, len - 200), 0);
    truncate_lines(tp("r.jsonl"), 6);
    CU_ASSERT_EQUAL(arena(RESUME_BASE " -records %s -resume", ENGINE, "", ENGINE, tp("r.jsonl"), rec), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(arena_err(), "cut a torn record"));
    CU_ASSERT(records_are(rec, full, len));
    /* another run (another seed) on the same records file */
    int rc = arena("-engine cmd=%s name=alpha option.bot=heuristic -engine cmd=%s name=beta option.bot=random " HC2
                   " -rounds 3 -seed 6 -results %s -records %s -resume", ENGINE, ENGINE, tp("other.jsonl"), rec);
    CU_ASSERT_NOT_EQUAL(rc, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(arena_err(), "holds another run's records"));
    CU_ASSERT(records_are(rec, full, len));
    free(full);
    remove_tmpdir();
}

/* Issue 29: a kill between a set's record and its results line leaves a record whose set is not
 * counted; -resume takes it out (the set is played again and recorded once), so no set is ever
 * recorded twice. Likewise when the results file is gone altogether. */
static void test_resume_takes_out_records_of_sets_not_counted(void)
{
    make_tmpdir();
    char rec[4200];
    size_t len;
    char *full = records_run(rec, sizeof rec, &len);
    truncate_lines(tp("r.jsonl"), 5); /* the last two sets recorded, not counted */
    CU_ASSERT_EQUAL(arena(RESUME_BASE " -records %s -resume", ENGINE, "", ENGINE, tp("r.jsonl"), rec), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(arena_err(), "took 2 records of sets with no results line"));
    CU_ASSERT(records_are(rec, full, len));
    /* No results at all: every record goes, and the run records each set once. */
    CU_ASSERT_EQUAL(unlink(tp("r.jsonl")), 0);
    CU_ASSERT_EQUAL(arena(RESUME_BASE " -records %s -resume", ENGINE, "", ENGINE, tp("r.jsonl"), rec), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(arena_err(), "took 6 records"));
    CU_ASSERT(records_are(rec, full, len));
    free(full);
    remove_tmpdir();
}

/* A damaged set line (the first of two, so it is not a torn last line): exit 2, `line 2`. */
static void test_resume_refuses_damaged_set_lines_naming_the_line(void)
{
    make_tmpdir();
    CU_ASSERT_EQUAL_FATAL(arena(RESUME_BASE, ENGINE, "", ENGINE, tp("good.jsonl")), 0);
    truncate_lines(tp("good.jsonl"), 5); /* header and 4 sets of 6 */
    size_t len;
    char *good = slurp(tp("good.jsonl"), &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(good);
    char *l2 = strchr(good, '\n') + 1, *l3 = strchr(l2, '\n') + 1;
    static const char *const cases[] = { "engine_index 99", "pairing -1", "pairing 1",  "round 3",     "leg 7",
                                         "round string",    "NUL byte",   "1 MB line",  "not json" };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *line = strndup(l2, (size_t)(l3 - l2 - 1));
        char *bad = NULL;
        size_t bad_len = 0;
        cJSON *o = cJSON_Parse(line);
        CU_ASSERT_PTR_NOT_NULL_FATAL(o);
        if (!strcmp(cases[i], "engine_index 99")) {
            cJSON *ei = cJSON_GetObjectItemCaseSensitive(o, "engine_index");
            if (cJSON_GetArraySize(ei) > 0)
                cJSON_ReplaceItemInArray(ei, 0, cJSON_CreateNumber(99));
            else
                cJSON_AddItemToObject(o, "engine_index", cJSON_CreateIntArray((const int[]){ 99, 1 }, 2));
        } else if (!strcmp(cases[i], "pairing -1"))
            cJSON_ReplaceItemInObject(o, "pairing", cJSON_CreateNumber(-1));
        else if (!strcmp(cases[i], "pairing 1"))
            cJSON_ReplaceItemInObject(o, "pairing", cJSON_CreateNumber(1));
        else if (!strcmp(cases[i], "round 3"))
            cJSON_ReplaceItemInObject(o, "round", cJSON_CreateNumber(3));
        else if (!strcmp(cases[i], "leg 7"))
            cJSON_ReplaceItemInObject(o, "leg", cJSON_CreateNumber(7));
        else if (!strcmp(cases[i], "round string"))
            cJSON_ReplaceItemInObject(o, "round", cJSON_CreateString("0"));
        if (!strcmp(cases[i], "NUL byte")) {
            bad_len = strlen(line);
            bad = malloc(bad_len + 1);
            memcpy(bad, line, bad_len + 1);
            bad[bad_len / 2] = '\0';
        } else if (!strcmp(cases[i], "1 MB line")) {
            bad_len = 1 << 20;
            bad = malloc(bad_len + 1);
            memset(bad, 'x', bad_len);
            memcpy(bad, "{\"type\":\"set\",\"detail\":\"", 24);
        } else if (!strcmp(cases[i], "not json")) {
            bad = strdup("{\"type\":\"set\",\"pairing\":0,,}");
            bad_len = strlen(bad);
        } else {
            bad = cJSON_PrintUnformatted(o);
            bad_len = strlen(bad);
        }
        cJSON_Delete(o);
        FILE *f = fopen(tp("r.jsonl"), "wb");
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        fwrite(good, 1, (size_t)(l2 - good), f);
        fwrite(bad, 1, bad_len, f);
        fputc('\n', f);
        fwrite(l3, 1, len - (size_t)(l3 - good), f);
        fclose(f);
        free(bad);
        free(line);
        int rc = arena(RESUME_BASE " -resume", ENGINE, "", ENGINE, tp("r.jsonl"));
        const char *err = arena_err();
        if (rc != 2 || !strstr(err, "line 2"))
            fprintf(stderr, "\n    %s: exit %d: %.300s\n", cases[i], rc, err);
        CU_ASSERT_EQUAL(rc, 2);
        CU_ASSERT_PTR_NOT_NULL(strstr(err, "line 2"));
    }
    free(good);
    remove_tmpdir();
}

static uint64_t xorshift(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* The set lines' measured times replaced by a constant, so that the file (and so each mutation
 * of it) is the same in every run. */
static void fix_think_times(const char *path)
{
    char *b = slurp(path, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    int lineno = 0;
    for (char *p = b, *e; *p; p = e + 1) {
        e = strchr(p, '\n');
        if (!e)
            break;
        *e = '\0';
        cJSON *o = lineno++ ? cJSON_Parse(p) : NULL;
        if (o && cJSON_GetObjectItemCaseSensitive(o, "think")) {
            const double t[2] = { 0.25, 0.25 };
            cJSON_ReplaceItemInObjectCaseSensitive(o, "think", cJSON_CreateDoubleArray(t, 2));
            char *text = cJSON_PrintUnformatted(o);
            fprintf(f, "%s\n", text);
            cJSON_free(text);
        } else
            fprintf(f, "%s\n", p);
        cJSON_Delete(o);
    }
    fclose(f);
    free(b);
}

/* ~200 random mutations of a valid file's set lines (fixed seed): the arena resumes (exit 0) or
 * refuses (exit 2), and never dies of a signal or hangs. A failing file is kept in /tmp. */
static void test_resume_fuzzed_results_never_crash(void)
{
    make_tmpdir();
    CU_ASSERT_EQUAL_FATAL(arena(RESUME_BASE, ENGINE, "", ENGINE, tp("good.jsonl")), 0);
    fix_think_times(tp("good.jsonl"));
    size_t len;
    char *good = slurp(tp("good.jsonl"), &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(good);
    size_t head = (size_t)(strchr(good, '\n') + 1 - good);
    uint64_t rng = 0x9E3779B97F4A7C15u;
    int by_rc[3] = { 0 }, other = 0;
    static const char *const tokens[] = { "-1", "99", "4294967296", "18446744073709551616", "1e999", "\"x\"", "null",
                                          "[]", "{}", "\"\\u0000\"", "\"\\ud800\"", "0.5", "-0", "[99,99,99]", "\n" };
    char *buf = malloc(len * 4 + 4096);
    CU_ASSERT_PTR_NOT_NULL_FATAL(buf);
    for (int iter = 0; iter < 200; iter++) {
        /* Mutate the set lines (everything after the header). */
        size_t n = len - head;
        memcpy(buf, good + head, n);
        int ops = 1 + (int)(xorshift(&rng) % 3);
        for (int k = 0; k < ops && n > 0; k++) {
            size_t at = (size_t)(xorshift(&rng) % n);
            switch (xorshift(&rng) % 6) {
            case 0: /* a bit flipped */
                buf[at] ^= (char)(1u << (xorshift(&rng) % 8));
                break;
            case 1: /* a byte replaced, NUL and newline included */
                buf[at] = (char)(xorshift(&rng) % 256);
                break;
            case 2: { /* a span deleted */
                size_t span = 1 + (size_t)(xorshift(&rng) % 40);
                if (span > n - at)
                    span = n - at;
                memmove(buf + at, buf + at + span, n - at - span);
                n -= span;
                break;
            }
            case 3: { /* a span repeated */
                size_t span = 1 + (size_t)(xorshift(&rng) % 200);
                if (span > n - at)
                    span = n - at;
                memmove(buf + at + span, buf + at, n - at);
                n += span;
                break;
            }
            case 4: { /* the next whole number replaced by a strange value */
                while (at < n && (buf[at] < '0' || buf[at] > '9'))
                    at++;
                while (at > 0 && buf[at - 1] >= '0' && buf[at - 1] <= '9')
                    at--;
                const char *t = tokens[xorshift(&rng) % (sizeof tokens / sizeof tokens[0])];
                size_t digits = 0;
                while (at + digits < n && buf[at + digits] >= '0' && buf[at + digits] <= '9')
                    digits++;
                size_t tl = strlen(t);
                memmove(buf + at + tl, buf + at + digits, n - at - digits);
                memcpy(buf + at, t, tl);
                n = n - digits + tl;
                break;
            }
            default: /* cut here: a torn or short line */
                n = at;
                break;
            }
        }
        FILE *f = fopen(tp("r.jsonl"), "wb");
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        fwrite(good, 1, head, f);
        fwrite(buf, 1, n, f);
        fclose(f);
        int rc = arena_limit(30, RESUME_BASE " -resume", ENGINE, "", ENGINE, tp("r.jsonl"));
        if (rc == 0 || rc == 2)
            by_rc[rc]++;
        else {
            other++;
            char keep[64];
            snprintf(keep, sizeof keep, "/tmp/picket-arena-fuzz-%d.jsonl", iter);
            FILE *k = fopen(keep, "wb");
            if (k) {
                fwrite(good, 1, head, k);
                fwrite(buf, 1, n, k);
                fclose(k);
            }
            fprintf(stderr, "\n    mutation %d: %s %d; the file is kept as %s\n", iter,
                    rc >= RUN_SIGNAL ? "killed by signal" : "exit", rc >= RUN_SIGNAL ? rc - RUN_SIGNAL : rc, keep);
        }
    }
    fprintf(stderr, "\n    200 damaged files: %d resumed, %d refused, %d otherwise\n", by_rc[0], by_rc[2], other);
    CU_ASSERT_EQUAL(other, 0);
    free(buf);
    free(good);
    remove_tmpdir();
}

/* An SPRT that has decided is a finished run: -resume plays nothing more. */
static void test_resume_of_a_decided_sprt_plays_nothing(void)
{
    make_tmpdir();
    char args[4096];
    snprintf(args, sizeof args,
             "-engine cmd=%s name=heuristic option.bot=heuristic -engine cmd=%s name=random option.bot=random "
             "-flag target=50 -rounds 1000 -sprt elo0=0 elo1=200 alpha=0.1 beta=0.1 -results %s",
             ENGINE, ENGINE, tp("r.jsonl"));
    CU_ASSERT_EQUAL_FATAL(arena("%s", args), 0);
    int lines = count_lines(tp("r.jsonl"));
    fprintf(stderr, "\n    the SPRT decided after %d sets\n", lines - 1);
    CU_ASSERT(lines > 1 && lines < 2001);
    CU_ASSERT_EQUAL(arena("%s -resume", args), 0);
    CU_ASSERT_EQUAL(count_lines(tp("r.jsonl")), lines);
    remove_tmpdir();
}

static void test_resume_of_a_finished_run_plays_nothing(void)
{
    make_tmpdir();
    CU_ASSERT_EQUAL_FATAL(arena(RESUME_BASE, ENGINE, "", ENGINE, tp("r.jsonl")), 0);
    CU_ASSERT_EQUAL(count_lines(tp("r.jsonl")), 7);
    CU_ASSERT_EQUAL(arena(RESUME_BASE " -resume", ENGINE, "", ENGINE, tp("r.jsonl")), 0);
    CU_ASSERT_EQUAL(count_lines(tp("r.jsonl")), 7);
    remove_tmpdir();
}

/* ================================================================ 7. output */

static int all_digits(const char *s)
{
    return *s && strspn(s, "0123456789") == strlen(s);
}

/* The header is {"type":"run","format":2,"run":{...}}; a set line has every documented key; the
 * two share no key but "type". */
static void test_output_results_header_and_set_keys(void)
{
    make_tmpdir();
    CU_ASSERT_EQUAL_FATAL(arena(RESUME_BASE, ENGINE, "", ENGINE, tp("r.jsonl")), 0);
    results_t *r = malloc(sizeof *r);
    CU_ASSERT_FATAL(r != NULL);
    CU_ASSERT_EQUAL_FATAL(load_results(tp("r.jsonl"), r), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r->header);
    CU_ASSERT_EQUAL(r->bad, 0);
    CU_ASSERT_EQUAL(cJSON_GetArraySize(r->header), 3);
    CU_ASSERT_STRING_EQUAL(jstr(r->header, "type"), "run");
    CU_ASSERT_EQUAL(jint(r->header, "format"), 2);
    CU_ASSERT(cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(r->header, "run")));
    CU_ASSERT_EQUAL_FATAL(r->n, 6);
    static const char *const keys[] = { "type",    "pairing", "round",  "leg",        "deal_seed", "seats", "engine_index",
                                        "winner",  "winner_name", "ranks", "scores", "hands", "moves", "reason",
                                        "fault_seat", "detail", "think", "record", "engine_seeds" };
    for (int i = 0; i < r->n; i++) {
        const cJSON *s = r->set[i];
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
            if (!cJSON_GetObjectItemCaseSensitive(s, keys[k])) {
                fprintf(stderr, "\n    set line %d has no '%s'\n", i, keys[k]);
                CU_FAIL("a set key is missing");
            }
        for (const cJSON *c = r->header->child; c; c = c->next)
            if (strcmp(c->string, "type"))
                CU_ASSERT_PTR_NULL(cJSON_GetObjectItemCaseSensitive(s, c->string));
        CU_ASSERT(all_digits(jstr(s, "deal_seed")));
        CU_ASSERT(jint(s, "pairing") == 0 && jint(s, "round") >= 0 && jint(s, "round") < 3);
        CU_ASSERT(jint(s, "leg") == 0 || jint(s, "leg") == 1);
        CU_ASSERT(jint(s, "winner") >= -1 && jint(s, "winner") < 2);
        CU_ASSERT(jint(s, "fault_seat") >= -1 && jint(s, "fault_seat") < 2);
        CU_ASSERT(jint(s, "hands") > 0 && jint(s, "moves") > 0);
        const char *arrays[] = { "seats", "engine_index", "ranks", "scores", "think", "engine_seeds" };
        for (int k = 0; k < 6; k++) {
            const cJSON *a = cJSON_GetObjectItemCaseSensitive(s, arrays[k]);
            CU_ASSERT(cJSON_IsArray(a) && cJSON_GetArraySize(a) == 2);
            for (const cJSON *e = a ? a->child : NULL; e; e = e->next) {
                int ok;
                if (!strcmp(arrays[k], "seats"))
                    ok = cJSON_IsString(e);
                else if (!strcmp(arrays[k], "engine_seeds"))
                    ok = cJSON_IsString(e) && all_digits(e->valuestring);
                else if (!strcmp(arrays[k], "engine_index"))
                    ok = cJSON_IsNumber(e) && (e->valuedouble == 0 || e->valuedouble == 1);
                else
                    ok = cJSON_IsNumber(e);
                if (!ok)
                    fprintf(stderr, "\n    set line %d: a bad item in '%s'\n", i, arrays[k]);
                CU_ASSERT(ok);
            }
        }
        CU_ASSERT(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(s, "winner_name")));
        CU_ASSERT(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(s, "detail")));
        CU_ASSERT(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(s, "record")));
        CU_ASSERT_STRING_EQUAL(jstr(s, "reason"), "normal");
    }
    free_results(r);
    free(r);
    remove_tmpdir();
}

/* Names with a quote and a backslash are escaped: every line loads with cJSON and with Python's
 * json module, and gives the names back. */
static void test_output_names_with_quote_and_backslash_are_escaped(void)
{
    make_tmpdir();
    args_t a;
    av_init(&a);
    av_split(&a, "-engine cmd=%s", ENGINE);
    av_add(&a, "name=a\"b");
    av_split(&a, "-engine cmd=%s", ENGINE);
    av_add(&a, "name=c\\d");
    av_split(&a, HC2 " -rounds 2 -results %s", tp("r.jsonl"));
    int rc = run_args(&a, 1, 60);
    av_free(&a);
    if (rc != 0)
        fprintf(stderr, "\n    exit %d: %.300s\n", rc, arena_err());
    CU_ASSERT_EQUAL(rc, 0);
    results_t *r = malloc(sizeof *r);
    CU_ASSERT_FATAL(r != NULL);
    CU_ASSERT_EQUAL_FATAL(load_results(tp("r.jsonl"), r), 0);
    CU_ASSERT_PTR_NOT_NULL(r->header);
    CU_ASSERT_EQUAL(r->bad, 0);
    CU_ASSERT_EQUAL(r->n, 4);
    for (int i = 0; i < r->n; i++) {
        const char *s0 = seat_name(r->set[i], 0), *s1 = seat_name(r->set[i], 1);
        CU_ASSERT((!strcmp(s0, "a\"b") && !strcmp(s1, "c\\d")) || (!strcmp(s0, "c\\d") && !strcmp(s1, "a\"b")));
    }
    free_results(r);
    free(r);
    if (require_python3()) {
        char cmd[1024];
        snprintf(cmd, sizeof cmd,
                 "python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' %s > /dev/null 2>&1",
                 tp("r.jsonl"));
        CU_ASSERT_EQUAL(system(cmd), 0);
    }
    remove_tmpdir();
}

static void test_output_name_with_a_newline_is_refused(void)
{
    make_tmpdir();
    args_t a;
    av_init(&a);
    av_split(&a, "-engine cmd=%s", ENGINE);
    av_add(&a, "name=two\nlines");
    av_split(&a, "-engine cmd=%s name=b " HC2 " -rounds 1 -results %s", ENGINE, tp("r.jsonl"));
    int rc = run_args(&a, 1, 30);
    av_free(&a);
    CU_ASSERT_EQUAL(rc, 2);
    CU_ASSERT_FALSE(exists(tp("r.jsonl")));
    remove_tmpdir();
}

/* Results that cannot be written are an error that says so. */
static void test_output_results_write_error(void)
{
    make_tmpdir();
    int rc = arena("-engine cmd=%s name=a -engine cmd=%s name=b " HC2 " -rounds 1 -results /dev/full", ENGINE, ENGINE);
    const char *err = arena_err();
    if ((rc != 1 && rc != 2) || !strstr(err, "write"))
        fprintf(stderr, "\n    exit %d: %.300s\n", rc, err);
    CU_ASSERT(rc == 1 || rc == 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "write"));
    remove_tmpdir();
}

/* Standings written to a full disk: exit 1. */
static void test_output_standings_to_a_full_disk_exit_1(void)
{
    make_tmpdir();
    args_t a;
    av_init(&a);
    av_split(&a, "-engine cmd=%s name=a -engine cmd=%s name=b " HC2 " -rounds 1 -quiet", ENGINE, ENGINE);
    a.v[a.n] = NULL;
    pid_t pid = spawn(a.v, "/dev/full", tp("err.txt"));
    av_free(&a);
    CU_ASSERT_FATAL(pid > 0);
    int rc = wait_exit(pid, 60);
    if (rc != 1)
        fprintf(stderr, "\n    exit %d: %.300s\n", rc, arena_err());
    CU_ASSERT_EQUAL(rc, 1);
    remove_tmpdir();
}

static void test_output_records_path_that_is_a_file_not_txt_is_refused(void)
{
    make_tmpdir();
    CU_ASSERT_EQUAL(spit(tp("notes.dat"), "keep me\n", 8), 0);
    int rc = arena("-engine cmd=%s name=a -engine cmd=%s name=b " HC2 " -rounds 1 -records %s", ENGINE, ENGINE,
                   tp("notes.dat"));
    CU_ASSERT_EQUAL(rc, 2);
    char *kept = slurp(tp("notes.dat"), NULL);
    CU_ASSERT(kept && !strcmp(kept, "keep me\n"));
    free(kept);
    remove_tmpdir();
}

/* Every file of a folder, names and contents, as one string. */
static char *folder_snapshot(const char *path)
{
    char *cmd = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&cmd, &len);
    DIR *d = opendir(path);
    struct dirent *e;
    char *names[4096];
    int n = 0;
    while (d && (e = readdir(d)) && n < 4096)
        if (e->d_name[0] != '.')
            names[n++] = strdup(e->d_name);
    if (d)
        closedir(d);
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (strcmp(names[i], names[j]) > 0) {
                char *t = names[i];
                names[i] = names[j];
                names[j] = t;
            }
    for (int i = 0; i < n; i++) {
        char p[1024];
        snprintf(p, sizeof p, "%s/%s", path, names[i]);
        char *text = slurp(p, NULL);
        fprintf(out, "== %s\n%s", names[i], text ? text : "(unreadable)");
        free(text);
        free(names[i]);
    }
    fclose(out);
    return cmd;
}

/* A records folder that holds another run's records is refused (without -resume), untouched. */
static void test_output_records_folder_of_another_run_is_refused_and_left_unchanged(void)
{
    make_tmpdir();
    CU_ASSERT_EQUAL_FATAL(arena("-engine cmd=%s name=a -engine cmd=%s name=b " HC2 " -rounds 2 -seed 1 -records %s",
                                ENGINE, ENGINE, tp("rec")),
                          0);
    CU_ASSERT(count_entries(tp("rec")) >= 4);
    char *before = folder_snapshot(tp("rec"));
    int rc = arena("-engine cmd=%s name=a -engine cmd=%s name=b " HC2 " -rounds 2 -seed 2 -records %s", ENGINE, ENGINE,
                   tp("rec"));
    CU_ASSERT_EQUAL(rc, 2);
    char *after = folder_snapshot(tp("rec"));
    CU_ASSERT_STRING_EQUAL(before, after);
    free(before);
    free(after);
    remove_tmpdir();
}

/* -records FILE.txt: one file with every set's record, which `picket replay` reads. */
static void test_output_records_txt_file_holds_every_set_and_replays(void)
{
    make_tmpdir();
    int rc = arena("-engine cmd=%s name=a option.bot=heuristic -engine cmd=%s name=b option.bot=random -rounds 2 "
                   "-records %s -results %s",
                   ENGINE, ENGINE, tp("all.txt"), tp("r.jsonl"));
    CU_ASSERT_EQUAL(rc, 0);
    FILE *f = fopen(tp("all.txt"), "r");
    CU_ASSERT_PTR_NOT_NULL(f);
    char line[8192];
    int records = 0;
    while (f && fgets(line, sizeof line, f))
        records += !strcmp(line, "picket-record 1\n");
    if (f)
        fclose(f);
    CU_ASSERT_EQUAL(records, 4);
    CU_ASSERT_EQUAL(count_lines(tp("r.jsonl")), 5);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s replay %s > %s 2>&1", PICKET, tp("all.txt"), tp("replay.txt"));
    int st = system(cmd);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        char *out = slurp(tp("replay.txt"), NULL);
        fprintf(stderr, "\n    picket replay: %.300s\n", out ? out : "");
        free(out);
    }
    CU_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    remove_tmpdir();
}

/* ================================================================ 8. runner basics */

/* The first line of a command's stdout, and its exit status. */
static int first_line(const char *cmd, char *line, size_t len)
{
    line[0] = '\0';
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    if (!fgets(line, (int)len, p))
        line[0] = '\0';
    char sink[4096];
    while (fread(sink, 1, sizeof sink, p) > 0)
        ;
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : RUN_SIGNAL;
}

static void test_runner_version(void)
{
    struct {
        const char *bin, *flag, *prefix;
    } cases[] = {
        { ARENA, "-version", "picket-arena " },  { ARENA, "--version", "picket-arena " },
        { PICKET, "-version", "picket " },       { ENGINE, "-version", "picket-engine " },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char cmd[1024], line[512];
        snprintf(cmd, sizeof cmd, "%s %s 2>/dev/null", cases[i].bin, cases[i].flag);
        int rc = first_line(cmd, line, sizeof line);
        if (rc != 0 || strncmp(line, cases[i].prefix, strlen(cases[i].prefix)))
            fprintf(stderr, "\n    %s: exit %d, '%s'\n", cmd, rc, line);
        CU_ASSERT_EQUAL(rc, 0);
        CU_ASSERT_EQUAL(strncmp(line, cases[i].prefix, strlen(cases[i].prefix)), 0);
    }
}

/* The reply `=[ID] hello` (docs/protocol.md: a reply echoes the command's id). */
static int is_hello_reply(const char *line)
{
    if (line[0] != '=')
        return 0;
    line += 1 + strspn(line + 1, "0123456789");
    return !strncmp(line, " hello", 6) && (line[6] == '\0' || line[6] == ' ' || line[6] == '\n');
}

/* -log: every line to (>) and from (<) each engine, with its name: the hello it is sent (with
 * or without a command id), its `= hello` reply, the go lines. */
static void test_runner_log_holds_every_line_both_ways(void)
{
    make_tmpdir();
    int rc = arena("-engine cmd=%s name=first -engine cmd=%s name=second " HC2 " -rounds 1 -log %s", ENGINE, ENGINE,
                   tp("log.txt"));
    CU_ASSERT_EQUAL(rc, 0);
    char *log = slurp(tp("log.txt"), NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(log);
    const char *names[] = { "first", "second" };
    for (int e = 0; e < 2; e++) {
        int hellos = 0, replies = 0, goes = 0;
        for (char *p = log; *p;) {
            char *nl = strchr(p, '\n');
            char *line = strndup(p, nl ? (size_t)(nl - p) : strlen(p));
            const char *to = to_engine(line, names[e]), *from = log_line(line, names[e], '<');
            hellos += to && command_is(to, "hello");
            goes += to && go_command(to);
            replies += from && is_hello_reply(from);
            free(line);
            if (!nl)
                break;
            p = nl + 1;
        }
        if (!hellos || !replies || !goes)
            fprintf(stderr, "\n    %s: %d hello, %d '= hello', %d go in the log\n", names[e], hellos, replies, goes);
        CU_ASSERT(hellos > 0);
        CU_ASSERT(replies > 0);
        CU_ASSERT(goes > 0);
    }
    free(log);
    remove_tmpdir();
}

/* stderr=FILE: the engine's stderr goes there, not to the arena's. */
static void test_runner_engine_stderr_goes_to_its_file(void)
{
    make_tmpdir();
    int rc = arena("-engine cmd=%s name=good option.bot=random -engine cmd=%s arg=crash arg=1.0 name=crashy stderr=%s "
                   "-rounds 1",
                   ENGINE, FAULT, tp("crashy.err"));
    CU_ASSERT_EQUAL(rc, 0);
    char *eng = slurp(tp("crashy.err"), NULL);
    CU_ASSERT(eng && strstr(eng, "fault_engine: "));
    free(eng);
    CU_ASSERT_PTR_NULL(strstr(arena_err(), "fault_engine: "));
    CU_ASSERT_PTR_NULL(strstr(arena_out(), "fault_engine: "));
    remove_tmpdir();
}

/* dir=DIR: the engine runs in DIR. */
static void test_runner_engine_runs_in_its_dir(void)
{
    make_tmpdir();
    CU_ASSERT_EQUAL(mkdir(tp("home"), 0755), 0);
    char text[1024], engine[PATH_MAX];
    CU_ASSERT_PTR_NOT_NULL_FATAL(realpath(ENGINE, engine)); /* the script runs in another folder */
    int n = snprintf(text, sizeof text, "#!/bin/sh\npwd > %s\nexec %s \"$@\"\n", tp("pwd.txt"), engine);
    CU_ASSERT_EQUAL_FATAL(spit(tp("engine.sh"), text, (size_t)n), 0);
    chmod(tp("engine.sh"), 0755);
    int rc = arena("-engine cmd=%s name=homed dir=%s -engine cmd=%s name=b " HC2 " -rounds 1", tp("engine.sh"), tp("home"),
                   ENGINE);
    CU_ASSERT_EQUAL(rc, 0);
    char *pwd = slurp(tp("pwd.txt"), NULL);
    char want[PATH_MAX];
    CU_ASSERT_PTR_NOT_NULL_FATAL(realpath(tp("home"), want));
    if (pwd) {
        pwd[strcspn(pwd, "\n")] = '\0';
        char got[PATH_MAX];
        CU_ASSERT(realpath(pwd, got) && !strcmp(got, want));
    } else
        CU_FAIL("the engine script did not run");
    free(pwd);
    remove_tmpdir();
}

/* -deals FILE: round r is dealt from line r; three seeds, three rounds (6 sets). */
static void test_runner_deals_file_gives_each_round_its_seed(void)
{
    make_tmpdir();
    CU_ASSERT_EQUAL(spit(tp("deals.txt"), "5\n77\n18446744073709551615\n", 26), 0);
    int rc = arena("-engine cmd=%s name=a -engine cmd=%s name=b " HC2 " -deals %s -results %s", ENGINE, ENGINE,
                   tp("deals.txt"), tp("r.jsonl"));
    CU_ASSERT_EQUAL(rc, 0);
    results_t *r = malloc(sizeof *r);
    CU_ASSERT_FATAL(r != NULL);
    if (load_results(tp("r.jsonl"), r) == 0) {
        static const char *const seeds[] = { "5", "77", "18446744073709551615" };
        CU_ASSERT_EQUAL(r->n, 6);
        for (int i = 0; i < r->n; i++) {
            int round = jint(r->set[i], "round");
            CU_ASSERT_FATAL(round >= 0 && round < 3);
            CU_ASSERT_STRING_EQUAL(jstr(r->set[i], "deal_seed"), seeds[round]);
        }
        free_results(r);
    } else
        CU_FAIL("no results file");
    free(r);
    remove_tmpdir();
}

static void test_runner_deals_file_with_a_bad_line_is_refused(void)
{
    make_tmpdir();
    CU_ASSERT_EQUAL(spit(tp("baddeals.txt"), "5\n12x\n77\n", 9), 0);
    int rc = arena("-engine cmd=%s name=a -engine cmd=%s name=b " HC2 " -deals %s -results %s", ENGINE, ENGINE,
                   tp("baddeals.txt"), tp("r.jsonl"));
    expect_config_error("-deals with 12x on line 2", rc, "baddeals.txt", "line 2", NULL);
    CU_ASSERT_FALSE(exists(tp("r.jsonl")));
    remove_tmpdir();
}

static void test_runner_deals_file_shorter_than_rounds_is_refused(void)
{
    make_tmpdir();
    CU_ASSERT_EQUAL(spit(tp("deals.txt"), "5\n77\n18446744073709551615\n", 26), 0);
    int rc = arena("-engine cmd=%s name=a -engine cmd=%s name=b " HC2 " -deals %s -rounds 5 -results %s", ENGINE, ENGINE,
                   tp("deals.txt"), tp("r.jsonl"));
    CU_ASSERT_EQUAL(rc, 2);
    CU_ASSERT_FALSE(exists(tp("r.jsonl")));
    remove_tmpdir();
}

/* -ratinginterval 2, output not to a terminal: a progress line after every 2 sets (6 sets: 3
 * lines, perhaps a 4th at the end; not one a set). */
static void test_runner_ratinginterval_prints_progress_every_n_sets(void)
{
    make_tmpdir();
    args_t a;
    av_init(&a);
    av_split(&a, "-engine cmd=%s name=a -engine cmd=%s name=b " HC2 " -rounds 3 -ratinginterval 2", ENGINE, ENGINE);
    int rc = run_args(&a, 0, 60);
    av_free(&a);
    CU_ASSERT_EQUAL(rc, 0);
    int progress = 0;
    for (int w = 0; w < 2; w++) {
        const char *text = arena_text(w ? "err.txt" : "out.txt");
        for (const char *p = text; (p = strstr(p, "sets]")); p++)
            progress++;
    }
    /* at 2, 4 and 6 sets: the last line once, not again as the final one (issue 29) */
    if (progress != 3)
        fprintf(stderr, "\n    %d progress lines for 6 sets: %.400s\n", progress, arena_out());
    CU_ASSERT_EQUAL(progress, 3);
    CU_ASSERT_PTR_NOT_NULL(strstr(arena_text("err.txt"), "2 engines, 1 table, 6 sets to play"));
    remove_tmpdir();
}

/* ================================================================ 9. shards and merges */

/* The shards' run: three engines, a gauntlet of two tables, 7 rounds (14 pairs, 28 sets), so
 * three shards hold 5, 5 and 4 pairs. */
static const char *shard_run(int seed)
{
    static char buf[4096];
    snprintf(buf, sizeof buf,
             "-engine cmd=%s name=heuristic option.bot=heuristic -engine cmd=%s name=random option.bot=random "
             "-engine cmd=%s name=random2 option.bot=random " HC2 " -rounds 7 -seed %d",
             ENGINE, ENGINE, ENGINE, seed);
    return buf;
}

/* tmpdir/shard-I.jsonl */
static const char *shard_file(int i)
{
    char name[32];
    snprintf(name, sizeof name, "shard-%d.jsonl", i);
    return tp(name);
}

/* Play shard i of n of the shards' run into shard_file(i). */
static void play_shard(int seed, int i, int n)
{
    int rc = arena("%s -shard %d/%d -results %s", shard_run(seed), i, n, shard_file(i));
    if (rc != 0)
        fprintf(stderr, "\n    shard %d/%d: exit %d: %.300s\n", i, n, rc, arena_err());
    CU_ASSERT_EQUAL_FATAL(rc, 0);
}

/* The unsharded run into tmpdir/full.jsonl: its stdout (a new string). */
static char *play_unsharded(int seed)
{
    CU_ASSERT_EQUAL_FATAL(arena("%s -results %s", shard_run(seed), tp("full.jsonl")), 0);
    char *out = strdup(arena_out());
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    return out;
}

/* A report without its Time: line (a run) or Merged: line (a merge): a new string. */
static char *standings_of(const char *out)
{
    char *r = malloc(strlen(out) + 1), *w = r;
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    for (const char *p = out; *p;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) + 1 : strlen(p);
        if (strncmp(p, "Time:", 5) && strncmp(p, "Merged:", 7)) {
            memcpy(w, p, n);
            w += n;
        }
        p += n;
    }
    *w = '\0';
    return r;
}

/* The last merge's report equals a run's, but for the Time: and Merged: lines. */
static void expect_same_standings(const char *run_out, const char *merge_out)
{
    char *a = standings_of(run_out), *b = standings_of(merge_out);
    if (strcmp(a, b))
        fprintf(stderr, "\n    the unsharded run printed:\n%s\n    the merge printed:\n%s\n", a, b);
    CU_ASSERT_STRING_EQUAL(a, b);
    CU_ASSERT(strstr(a, "Standings (") != NULL);
    free(a);
    free(b);
}

typedef struct digests {
    int n;
    char *d[MAX_SETS];
} digests_t;

/* Each set line of a file as one line of text that sorts by its key (pairing, round, leg):
 * the engines and seeds the schedule gave it and what the play decided (not the think times
 * or the record's path). Returns how many were added. */
static int add_digests(const char *path, digests_t *ds)
{
    results_t *r = malloc(sizeof *r);
    CU_ASSERT_FATAL(r != NULL);
    CU_ASSERT_EQUAL_FATAL(load_results(path, r), 0);
    CU_ASSERT_EQUAL(r->bad, 0);
    static const char *const keys[] = { "seats", "engine_index", "deal_seed", "engine_seeds", "winner",
                                        "ranks", "scores",       "hands",     "moves",        "reason", "fault_seat" };
    for (int i = 0; i < r->n && ds->n < MAX_SETS; i++) {
        char buf[4096], item[512];
        int len = snprintf(buf, sizeof buf, "pairing %03d round %06d leg %d", jint(r->set[i], "pairing"), jint(r->set[i], "round"),
                           jint(r->set[i], "leg"));
        for (size_t k = 0; k < sizeof keys / sizeof keys[0] && len < (int)sizeof buf; k++)
            len += snprintf(buf + len, sizeof buf - (size_t)len, " %s=%s", keys[k], jtext(r->set[i], keys[k], item, sizeof item));
        CU_ASSERT_PTR_NOT_NULL_FATAL(ds->d[ds->n++] = strdup(buf));
    }
    int n = r->n;
    free_results(r);
    free(r);
    return n;
}

static int cmp_text(const void *x, const void *y) { return strcmp(*(char *const *)x, *(char *const *)y); }

/* The two hold the same sets, set for set once sorted by key. Returns the number of differences. */
static int compare_digests(digests_t *a, digests_t *b)
{
    qsort(a->d, (size_t)a->n, sizeof a->d[0], cmp_text);
    qsort(b->d, (size_t)b->n, sizeof b->d[0], cmp_text);
    int diff = a->n != b->n;
    if (diff)
        fprintf(stderr, "\n    %d sets against %d\n", a->n, b->n);
    for (int i = 0; i < a->n && i < b->n; i++)
        if (strcmp(a->d[i], b->d[i])) {
            if (diff++ < 3)
                fprintf(stderr, "\n    %s\n    against\n    %s\n", a->d[i], b->d[i]);
        }
    return diff;
}

static void free_digests(digests_t *ds)
{
    for (int i = 0; i < ds->n; i++)
        free(ds->d[i]);
    ds->n = 0;
}

/* The unsharded run's sets (full.jsonl) equal the shards' together (shard-0 .. shard-(n-1)). */
static void expect_same_sets(int n)
{
    digests_t *whole = calloc(1, sizeof *whole), *parts = calloc(1, sizeof *parts);
    CU_ASSERT_FATAL(whole && parts);
    CU_ASSERT_EQUAL(add_digests(tp("full.jsonl"), whole), 28);
    for (int i = 0; i < n; i++)
        add_digests(shard_file(i), parts);
    CU_ASSERT_EQUAL(compare_digests(whole, parts), 0);
    free_digests(whole), free_digests(parts);
    free(whole), free(parts);
}

/* docs/arena.md, shards: the merge of a run's shards prints what the run played unsharded prints
 * (its standings, crosstable, pairs and faults), and the shards hold the same sets, set for set. */
static void test_shards_merged_standings_equal_an_unsharded_run(void)
{
    make_tmpdir();
    char *full = play_unsharded(5);
    for (int i = 0; i < 3; i++)
        play_shard(5, i, 3);
    int rc = arena("-merge %s %s %s", shard_file(2), shard_file(0), shard_file(1));
    if (rc != 0)
        fprintf(stderr, "\n    -merge: exit %d: %.300s\n", rc, arena_err());
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    expect_same_standings(full, arena_out());
    CU_ASSERT(line_holds(arena_out(), "Merged: 28 sets from 3 files", NULL, NULL));
    expect_same_sets(3);
    free(full);
    remove_tmpdir();
}

/* docs/arena.md, shards: shard I holds rotation group g (a pair: both legs of a round at a
 * table) when g mod N = I: every set in one shard, each pair whole, shards within a pair. */
static void test_shards_are_disjoint_balanced_and_keep_pairs_whole(void)
{
    make_tmpdir();
    int counts[3];
    results_t *r = malloc(sizeof *r);
    CU_ASSERT_FATAL(r != NULL);
    int seen[2][7][2] = { { { 0 } } };
    for (int i = 0; i < 3; i++) {
        play_shard(5, i, 3);
        CU_ASSERT_EQUAL_FATAL(load_results(shard_file(i), r), 0);
        counts[i] = r->n;
        CU_ASSERT(cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(r->header, "run"), "shard")));
        for (int k = 0; k < r->n; k++) {
            int p = jint(r->set[k], "pairing"), rd = jint(r->set[k], "round"), l = jint(r->set[k], "leg");
            CU_ASSERT_FATAL(p >= 0 && p < 2 && rd >= 0 && rd < 7 && l >= 0 && l < 2);
            CU_ASSERT_EQUAL(seen[p][rd][l], 0); /* not in another shard */
            seen[p][rd][l] = i + 1;
        }
        free_results(r);
    }
    free(r);
    for (int p = 0; p < 2; p++)
        for (int rd = 0; rd < 7; rd++) {
            CU_ASSERT(seen[p][rd][0] > 0);               /* every set is played */
            CU_ASSERT_EQUAL(seen[p][rd][0], seen[p][rd][1]); /* a pair stays whole */
        }
    fprintf(stderr, "\n    sets by shard: %d, %d, %d\n", counts[0], counts[1], counts[2]);
    CU_ASSERT_EQUAL(counts[0] + counts[1] + counts[2], 28);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            CU_ASSERT(counts[i] - counts[j] <= 2);
    remove_tmpdir();
}

typedef struct snapshot {
    char path[512];
    char *bytes;
    size_t len;
} snapshot_t;

/* docs/arena.md, -merge: shards that do not make one whole run are refused (exit 1, one line
 * naming the shard and the file), and a merge never changes its input files: a torn last line
 * is an incomplete shard, not a line to cut. */
static void test_merge_refuses_shards_that_are_not_one_whole_run_and_changes_no_file(void)
{
    make_tmpdir();
    for (int i = 0; i < 3; i++)
        play_shard(5, i, 3);
    CU_ASSERT_EQUAL_FATAL(arena("%s -shard 2/3 -results %s", shard_run(6), tp("other-2.jsonl")), 0);
    size_t len;
    char *one = slurp(shard_file(1), &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(one);
    /* shard 1 with its third set line taken out, and with its last line torn in the middle */
    char *third = one;
    for (int l = 0; l < 3 && third; l++)
        third = strchr(third, '\n') + 1;
    char *after = strchr(third, '\n') + 1;
    FILE *f = fopen(tp("gap-1.jsonl"), "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fwrite(one, 1, (size_t)(third - one), f);
    fwrite(after, 1, len - (size_t)(after - one), f);
    fclose(f);
    CU_ASSERT_EQUAL(spit(tp("torn-1.jsonl"), one, len - 40), 0);
    free(one);

    /* the inputs, by index: shards 0, 1, 2, another run's shard 2, shard 1 with a gap, torn */
    snapshot_t files[6];
    enum { N_FILES = sizeof files / sizeof files[0] };
    for (int k = 0; k < N_FILES; k++) {
        static const char *const names[] = { "", "", "", "other-2.jsonl", "gap-1.jsonl", "torn-1.jsonl" };
        snprintf(files[k].path, sizeof files[k].path, "%s", k < 3 ? shard_file(k) : tp(names[k]));
        CU_ASSERT_PTR_NOT_NULL_FATAL(files[k].bytes = slurp(files[k].path, &files[k].len));
    }

    struct {
        const char *what;
        int file[5]; /* indices into files[], -1 ends */
        const char *want1, *want2;
    } cases[] = {
        { "a missing shard", { 0, 2, -1 }, "shard 1/3", "missing" },
        { "a shard twice", { 0, 1, 2, 1, -1 }, "shard 1/3", "twice" },
        { "shards of two runs", { 0, 1, 3, -1 }, "other-2.jsonl", "seed" },
        { "a set line taken out", { 0, 4, 2, -1 }, "gap-1.jsonl", "incomplete" },
        { "a torn last line", { 0, 5, 2, -1 }, "torn-1.jsonl", "torn" },
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char args[4096] = "-merge";
        for (const int *k = cases[c].file; *k >= 0; k++)
            snprintf(args + strlen(args), sizeof args - strlen(args), " %s", files[*k].path);
        int rc = arena("%s", args);
        expect_error(cases[c].what, rc, 1, cases[c].want1, cases[c].want2, NULL);
        if (c >= 3)
            CU_ASSERT(strstr(arena_err(), "shard 1/3") != NULL);
    }
    for (int k = 0; k < N_FILES; k++) {
        size_t now_len;
        char *now_bytes = slurp(files[k].path, &now_len);
        int same = now_bytes && now_len == files[k].len && !memcmp(now_bytes, files[k].bytes, now_len);
        if (!same)
            fprintf(stderr, "\n    -merge changed '%s'\n", files[k].path);
        CU_ASSERT(same);
        free(now_bytes);
        free(files[k].bytes);
    }
    remove_tmpdir();
}

/* docs/arena.md, -shard: I/N with 0 <= I < N, digits only; anything else is refused with one
 * line naming the option, and nothing is written. A shard cannot stop on its own SPRT, and
 * plays into a results file (what -merge reads) or not at all. */
static void test_shard_bad_values_and_shard_with_sprt_are_refused(void)
{
    make_tmpdir();
    static const char *const bad[] = { "3/3", "-1/2", "1/0", "a/b", "1/2x", "/2", "1/", "2", "0/100001", "1/-2" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc = arena("%s -shard %s -results %s", shard_run(5), bad[i], tp("r.jsonl"));
        char want[64];
        snprintf(want, sizeof want, "'%s'", bad[i]);
        expect_config_error(bad[i], rc, "-shard", want, NULL);
        CU_ASSERT_FALSE(exists(tp("r.jsonl")));
    }
    int rc = arena("%s -shard 0/2 -sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 -results %s", shard_run(5), tp("r.jsonl"));
    expect_config_error("-shard with -sprt", rc, "-sprt", "-shard", NULL);
    CU_ASSERT_FALSE(exists(tp("r.jsonl")));
    rc = arena("%s -shard 1/2", shard_run(5));
    expect_config_error("-shard without -results", rc, "-shard needs -results", NULL, NULL);
    remove_tmpdir();
}

/* docs/arena.md, -resume: a shard is part of the run's meaning. Its results file resumes only
 * as the same shard; a set line of another shard is refused; resumed, it holds what an unbroken
 * shard holds. */
static void test_shard_resume_is_checked_against_its_shard(void)
{
    make_tmpdir();
    play_shard(5, 0, 3);
    play_shard(5, 1, 3);
    CU_ASSERT_EQUAL_FATAL(rename(shard_file(1), tp("whole-1.jsonl")), 0);
    CU_ASSERT_EQUAL_FATAL(arena("%s -shard 1/3 -results %s", shard_run(5), tp("part.jsonl")), 0);
    truncate_lines(tp("part.jsonl"), 4);
    size_t len;
    char *before = slurp(tp("part.jsonl"), &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(before);

    int rc = arena("%s -shard 2/3 -results %s -resume", shard_run(5), tp("part.jsonl"));
    expect_config_error("another shard", rc, "run.shard.index", "1 there, 2 here", NULL);
    rc = arena("%s -results %s -resume", shard_run(5), tp("part.jsonl"));
    expect_config_error("no -shard", rc, "run.shard", "absent here", NULL);
    rc = arena("%s -shard 1/4 -results %s -resume", shard_run(5), tp("part.jsonl"));
    expect_config_error("another count", rc, "run.shard.count", NULL, NULL);
    size_t now_len;
    char *now_bytes = slurp(tp("part.jsonl"), &now_len);
    CU_ASSERT(now_bytes && now_len == len && !memcmp(now_bytes, before, len));
    free(now_bytes);

    /* a set line of shard 0 at the end of shard 1's file */
    char *zero = slurp(shard_file(0), NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(zero);
    char *set_line = strchr(zero, '\n') + 1;
    *(strchr(set_line, '\n') + 1) = '\0';
    FILE *f = fopen(tp("mixed.jsonl"), "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fprintf(f, "%s%s", before, set_line);
    fclose(f);
    free(zero);
    rc = arena("%s -shard 1/3 -results %s -resume", shard_run(5), tp("mixed.jsonl"));
    expect_config_error("a set of another shard", rc, "line 5", "not a set of shard 1/3", NULL);

    CU_ASSERT_EQUAL(arena("%s -shard 1/3 -results %s -resume", shard_run(5), tp("part.jsonl")), 0);
    digests_t *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
    CU_ASSERT_FATAL(a && b);
    add_digests(tp("whole-1.jsonl"), a);
    add_digests(tp("part.jsonl"), b);
    CU_ASSERT_EQUAL(compare_digests(a, b), 0);
    free_digests(a), free_digests(b);
    free(a), free(b);
    free(before);
    remove_tmpdir();
}

/* docs/arena.md, the GNU parallel recipe, on one machine: parallel runs three shards at once,
 * -merge joins them, and the merge prints what the unsharded run printed. GNU parallel is a
 * requirement of the test suite (Debian's package `parallel`; tools/setup.sh installs it). */
static void test_shards_gnu_parallel_recipe_runs_on_one_machine(void)
{
    if (system("command -v parallel > /dev/null 2>&1") != 0) {
        fprintf(stderr, "\n    GNU parallel is not on PATH: install Debian's package 'parallel' (apt-get install parallel)\n");
        CU_FAIL_FATAL("GNU parallel is missing: install Debian's package 'parallel' (tools/setup.sh installs it)");
    }
    make_tmpdir();
    char *full = play_unsharded(5);
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "parallel --will-cite -j 3 %s %s -shard {}/3 -results %s/shard-{}.jsonl -quiet ::: 0 1 2", ARENA,
             shard_run(5), tmpdir);
    char *argv[] = { "/bin/sh", "-c", cmd, NULL };
    pid_t pid = spawn(argv, tp("parallel-out.txt"), tp("parallel-err.txt"));
    CU_ASSERT_FATAL(pid > 0);
    int rc = wait_exit(pid, 120);
    if (rc != 0)
        fprintf(stderr, "\n    %s: exit %d: %.400s\n", cmd, rc, arena_text("parallel-err.txt"));
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    rc = arena("-merge %s %s %s", shard_file(0), shard_file(1), shard_file(2));
    if (rc != 0)
        fprintf(stderr, "\n    -merge: exit %d: %.300s\n", rc, arena_err());
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    expect_same_standings(full, arena_out());
    expect_same_sets(3);
    free(full);
    remove_tmpdir();
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    signal(SIGPIPE, SIG_IGN);
    atexit(remove_tmpdir);
    CU_pSuite s = CU_add_suite("arena_run", NULL, NULL);
    /* 1 */
    CU_add_test(s, "start: a missing program is a cmd error (exit 2, nothing written)", test_start_missing_program_is_a_cmd_error);
    CU_add_test(s, "start: a program that is not executable is a cmd error", test_start_non_executable_program_is_a_cmd_error);
    CU_add_test(s, "start: an option value the engine refuses", test_start_option_value_the_engine_refuses);
    CU_add_test(s, "start: an option the engine does not declare", test_start_option_the_engine_does_not_declare);
    CU_add_test(s, "start: an engine that exits at once", test_start_engine_that_exits_at_once);
    CU_add_test(s, "start: a mute engine fails within start=0.5", test_start_mute_engine_fails_within_its_start_limit);
    CU_add_test(s, "start: the minimal Python engine of protocol.md plays normal sets", test_start_minimal_python_engine_plays_normal_sets);
    /* 2 */
    CU_add_test(s, "limits: nan, inf, negative, out of range and malformed are refused", test_limits_bad_numbers_are_refused);
    CU_add_test(s, "limits: two limits on one engine are refused", test_limits_two_on_one_engine_are_refused);
    CU_add_test(s, "limits: arena options out of range are refused, naming the option", test_limits_arena_options_out_of_range_are_refused);
    CU_add_test(s, "limits: more than 2^32 sets is refused", test_limits_too_many_sets_is_refused);
    /* 3 */
    CU_add_test(s, "clock: tc is a clock for the set, told as go settime inc", test_clock_tc_is_a_clock_for_the_set_and_told_as_settime_inc);
    CU_add_test(s, "clock: st is told as go movetime", test_clock_st_is_told_as_movetime);
    /* 4 */
    CU_add_test(s, "faults: printed as they happen, even with -quiet", test_faults_are_printed_as_they_happen_even_when_quiet);
    CU_add_test(s, "faults: -maxfaults N stops the run with exit 1", test_faults_maxfaults_stops_the_run_with_exit_1);
    CU_add_test(s, "faults: -maxfaults defaults to 3", test_faults_maxfaults_default_is_three);
    CU_add_test(s, "faults: -recover plays to the end, every fault a forfeit", test_faults_recover_plays_to_the_end_every_fault_a_forfeit);
    /* 5 */
    CU_add_test(s, "signals: ^C finishes the sets in flight (exit 130); -resume equals an unbroken run",
                test_signals_sigint_finishes_sets_in_flight_and_resume_equals_an_unbroken_run);
    CU_add_test(s, "signals: a second ^C stops at once", test_signals_second_sigint_stops_at_once);
    CU_add_test(s, "processes: nothing of an engine's group survives a normal run", test_processes_nothing_of_an_engine_survives_a_normal_run);
    CU_add_test(s, "processes: nothing of a hung engine's group survives", test_processes_nothing_of_a_hung_engine_survives);
    /* 6 */
    CU_add_test(s, "resume: a complete damaged last line is refused, not cut", test_resume_refuses_a_complete_damaged_last_line);
    CU_add_test(s, "resume: a torn records file is repaired, another run's refused", test_resume_repairs_a_torn_records_file_and_refuses_another_runs);
    CU_add_test(s, "resume: records of sets not counted are taken out", test_resume_takes_out_records_of_sets_not_counted);
    CU_add_test(s, "resume: another option value is refused, naming engine and option", test_resume_refuses_another_option_value);
    CU_add_test(s, "resume: another tc is refused, naming engine and tc", test_resume_refuses_another_tc);
    CU_add_test(s, "resume: a reformatted header (spacing, key order) resumes", test_resume_accepts_a_reformatted_header);
    CU_add_test(s, "resume: damaged set lines are refused with their line number", test_resume_refuses_damaged_set_lines_naming_the_line);
    CU_add_test(s, "resume: 200 fuzzed results files never crash the arena", test_resume_fuzzed_results_never_crash);
    CU_add_test(s, "resume: a decided SPRT plays nothing more", test_resume_of_a_decided_sprt_plays_nothing);
    CU_add_test(s, "resume: a finished run plays nothing more", test_resume_of_a_finished_run_plays_nothing);
    /* 7 */
    CU_add_test(s, "output: results header and set keys", test_output_results_header_and_set_keys);
    CU_add_test(s, "output: names with a quote and a backslash are escaped", test_output_names_with_quote_and_backslash_are_escaped);
    CU_add_test(s, "output: a name with a newline is refused", test_output_name_with_a_newline_is_refused);
    CU_add_test(s, "output: -results that cannot be written is an error", test_output_results_write_error);
    CU_add_test(s, "output: standings to a full disk exit 1", test_output_standings_to_a_full_disk_exit_1);
    CU_add_test(s, "output: -records PATH to a file not .txt is refused", test_output_records_path_that_is_a_file_not_txt_is_refused);
    CU_add_test(s, "output: -records folder of another run is refused and left unchanged",
                test_output_records_folder_of_another_run_is_refused_and_left_unchanged);
    CU_add_test(s, "output: -records FILE.txt holds every set and replays", test_output_records_txt_file_holds_every_set_and_replays);
    /* 8 */
    CU_add_test(s, "runner: -version and --version", test_runner_version);
    CU_add_test(s, "runner: -log holds every line both ways", test_runner_log_holds_every_line_both_ways);
    CU_add_test(s, "runner: stderr=FILE takes the engine's stderr", test_runner_engine_stderr_goes_to_its_file);
    CU_add_test(s, "runner: dir=DIR is the engine's working folder", test_runner_engine_runs_in_its_dir);
    CU_add_test(s, "runner: -deals gives each round its seed", test_runner_deals_file_gives_each_round_its_seed);
    CU_add_test(s, "runner: -deals with a bad line is refused", test_runner_deals_file_with_a_bad_line_is_refused);
    CU_add_test(s, "runner: -deals shorter than -rounds is refused", test_runner_deals_file_shorter_than_rounds_is_refused);
    CU_add_test(s, "runner: -ratinginterval N prints progress every N sets", test_runner_ratinginterval_prints_progress_every_n_sets);
    /* 9 */
    CU_add_test(s, "shards: merged standings equal an unsharded run's, set for set", test_shards_merged_standings_equal_an_unsharded_run);
    CU_add_test(s, "shards: disjoint, balanced, pairs whole", test_shards_are_disjoint_balanced_and_keep_pairs_whole);
    CU_add_test(s, "shards: -merge refuses shards that are not one whole run, and changes no file",
                test_merge_refuses_shards_that_are_not_one_whole_run_and_changes_no_file);
    CU_add_test(s, "shards: bad -shard values, and -shard with -sprt, are refused", test_shard_bad_values_and_shard_with_sprt_are_refused);
    CU_add_test(s, "shards: -resume of a shard is checked against its shard", test_shard_resume_is_checked_against_its_shard);
    CU_add_test(s, "shards: the GNU parallel recipe runs three shards on one machine", test_shards_gnu_parallel_recipe_runs_on_one_machine);
    return test_run_all();
}
