/* picket-tune as a program (docs/tuning.md):
 *  1. SPSA converges: on the synthetic engine (`fault_engine knob OPTIMUM WIDTH`, which plays
 *     better the nearer its option `knob` is to a hidden optimum) theta moves from a bad start
 *     towards the optimum, from below and from above; the plot is a PNG.
 *  2. Resume: a run killed with SIGKILL in the middle and continued with -resume ends with the
 *     same state and the same log, byte for byte, as an unbroken run; a resume of another run
 *     is refused.
 *  3. Bad parameters (an unknown option, out of range, not numeric, a bad step or number) get
 *     one line on stderr and exit 2 before anything runs: no folder is written.
 * Binaries come from $PICKET_TUNE and $PICKET_FAULT_ENGINE (set by ctest). */
#define _XOPEN_SOURCE 700
#include <CUnit/CUnit.h>
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test_util.h"

static const char *bin(const char *env, const char *fallback)
{
    const char *v = getenv(env);
    return v ? v : fallback;
}

#define TUNE bin("PICKET_TUNE", "build/tools/picket-tune")
#define FAULT bin("PICKET_FAULT_ENGINE", "build/tests/fault_engine")

static char tmpdir[64];

static void make_tmpdir(void) { test_tmpdir_make(tmpdir, sizeof tmpdir, "picket-tune"); }
static void remove_tmpdir(void) { test_tmpdir_remove(tmpdir); }
static const char *tp(const char *name) { return test_path(tmpdir, name); }
#define slurp test_slurp

/* picket-tune with the synthetic engine (optimum, width) and more arguments (NULL-ended),
 * started in the background with stdout and stderr in tmpdir/out.txt and err.txt. */
static pid_t start_tune(const char *optimum, const char *width, const char *first, va_list ap)
{
    char *argv[64];
    int n = 0;
    static char cmd[600], a1[64], a2[64];
    snprintf(cmd, sizeof cmd, "cmd=%s", FAULT);
    snprintf(a1, sizeof a1, "arg=%s", optimum);
    snprintf(a2, sizeof a2, "arg=%s", width);
    argv[n++] = (char *)TUNE;
    argv[n++] = "-engine";
    argv[n++] = cmd;
    argv[n++] = "arg=knob";
    argv[n++] = a1;
    argv[n++] = a2;
    for (const char *a = first; a && n < 62; a = va_arg(ap, const char *))
        argv[n++] = (char *)a;
    argv[n] = NULL;
    pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        int out = open(tp("out.txt"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int err = open(tp("err.txt"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (out < 0 || err < 0)
            _exit(126);
        dup2(out, STDOUT_FILENO);
        dup2(err, STDERR_FILENO);
        execv(argv[0], argv);
        _exit(127);
    }
    return pid;
}

static int wait_status(pid_t pid)
{
    int status;
    /* A hung tuner fails its test instead of hanging the suite. */
    for (int i = 0; i < 6000; i++) {
        pid_t got = waitpid(pid, &status, WNOHANG);
        if (got == pid)
            return WIFEXITED(status) ? WEXITSTATUS(status) : 1000 + WTERMSIG(status);
        struct timespec t = { 0, 50000000 };
        nanosleep(&t, NULL);
    }
    kill(-pid, SIGKILL);
    waitpid(pid, &status, 0);
    return -2;
}

/* Run to the end: the exit status. */
static int tune(const char *optimum, const char *width, const char *first, ...)
{
    va_list ap;
    va_start(ap, first);
    pid_t pid = start_tune(optimum, width, first, ap);
    va_end(ap);
    return pid < 0 ? -1 : wait_status(pid);
}

static pid_t tune_bg(const char *optimum, const char *width, const char *first, ...)
{
    va_list ap;
    va_start(ap, first);
    pid_t pid = start_tune(optimum, width, first, ap);
    va_end(ap);
    return pid;
}

/* The iteration and knob of a state file (-1 when it cannot be read). */
static int read_state(const char *path, double *knob)
{
    char *text = slurp(path);
    char *nl = text ? strchr(text, '\n') : NULL;
    cJSON *s = nl ? cJSON_Parse(nl + 1) : NULL;
    const cJSON *k = cJSON_GetObjectItemCaseSensitive(s, "iteration");
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(s, "theta"), "knob");
    int it = cJSON_IsNumber(k) ? (int)k->valuedouble : -1;
    if (knob)
        *knob = cJSON_IsNumber(v) ? v->valuedouble : -1;
    cJSON_Delete(s);
    free(text);
    return it;
}

/* stderr holds exactly one line, "picket-tune: ..." holding want. */
static int one_line_error(const char *want)
{
    char *err = slurp(tp("err.txt"));
    int lines = 0;
    for (const char *p = err; p && *p; p++)
        lines += *p == '\n';
    int ok = err && lines == 1 && !strncmp(err, "picket-tune: ", 13) && strstr(err, want);
    if (!ok)
        fprintf(stderr, "\n  want one line holding '%s', got: %s", want, err ? err : "(none)");
    free(err);
    return ok;
}

/* ---------------------------------------------------------------- tests */

static void test_help_and_version(void)
{
    make_tmpdir();
    char cmd[700];
    snprintf(cmd, sizeof cmd, "%s --help > %s", TUNE, tp("help.txt"));
    CU_ASSERT_EQUAL(system(cmd), 0);
    char *help = slurp(tp("help.txt"));
    CU_ASSERT(help && strstr(help, "usage: picket-tune") && strstr(help, "-param NAME=START,STEP") && strstr(help, "-resume"));
    free(help);
    snprintf(cmd, sizeof cmd, "%s -version > %s", TUNE, tp("version.txt"));
    CU_ASSERT_EQUAL(system(cmd), 0);
    char *v = slurp(tp("version.txt"));
    CU_ASSERT(v && !strncmp(v, "picket-tune ", 12));
    free(v);
    remove_tmpdir();
}

static void test_bad_parameters_stop_before_anything_runs(void)
{
    static const struct {
        const char *a, *b, *c, *d, *want;
    } cases[] = {
        { "-param", "nosuch=1,1", NULL, NULL, "declares no option 'nosuch'" },
        { "-param", "knob=11,1", NULL, NULL, "the start 11 is not a number from 0 to 10" },
        { "-param", "knob=-1,1", NULL, NULL, "the start -1 is not a number from 0 to 10" },
        { "-param", "bot=1,1", NULL, NULL, "bot: not a numeric option" },
        { "-param", "info=1,1", NULL, NULL, "info: not a numeric option" },
        { "-param", "knob=abc,1", NULL, NULL, "the start 'abc' is not a number" },
        { "-param", "knob=nan,1", NULL, NULL, "the start 'nan' is not a number" },
        { "-param", "knob=2,0", NULL, NULL, "the step '0' is not a number above 0" },
        { "-param", "knob=2,inf", NULL, NULL, "the step 'inf' is not a number above 0" },
        { "-param", "knob=2,20", NULL, NULL, "wider than the range" },
        { "-param", "ismcts.iterations=100,0.3", NULL, NULL, "a whole-number option needs a step of at least" },
        { "-param", "knob=2", NULL, NULL, "is not NAME=START,STEP" },
        { "-param", "knob=2,1", "-param", "knob=3,1", "'knob' is given twice" },
        { "-param", "knob=2,1", "-iterations", "0", "-iterations: '0' is not a whole number from 1 to 1000000" },
        { "-param", "knob=2,1", "-pairs", "1e3", "-pairs: '1e3' is not a whole number" },
        { "-param", "knob=2,1", "-a", "-1", "-a: '-1' is not a number" },
        { "-param", "knob=2,1", "-c", "0", "-c: '0' must be above 0" },
        { "-param", "knob=2,1", "-seed", "18446744073709551616", "-seed" },
        { "-param", "knob=2,1", "-game", "chess", "-game: unknown game 'chess'" },
        { "-param", "knob=2,1", "-bogus", NULL, "unknown option '-bogus'" },
        { "-iterations", "3", NULL, NULL, "give at least one option to tune" },
        { "-param", "knob=2,1", "-objective", "money", "-objective: 'money' is not wins or points" },
        { "-param", "knob=2,1", "-objective", "points", "sets settle no points under these rules" },
    };
    make_tmpdir();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int rc = tune("7", "3", "-out", tp("run"), cases[i].a, cases[i].b, cases[i].c, cases[i].d, NULL);
        CU_ASSERT_EQUAL(rc, 2);
        CU_ASSERT(one_line_error(cases[i].want));
        struct stat st;
        CU_ASSERT(stat(tp("run"), &st) < 0 && errno == ENOENT);
    }
    /* An option fixed in the engine's fields and tuned too. */
    char cmd[900];
    snprintf(cmd, sizeof cmd, "%s -engine cmd=%s arg=knob arg=7 arg=3 option.knob=3 -param knob=2,1 -out %s 2> %s", TUNE, FAULT,
             tp("run"), tp("err.txt"));
    CU_ASSERT_EQUAL(WEXITSTATUS(system(cmd)), 2);
    CU_ASSERT(one_line_error("tune it or fix it, not both"));
    /* -records where a file stands in the way of the records folder. */
    CU_ASSERT_EQUAL(mkdir(tp("taken"), 0777), 0);
    FILE *f = fopen(tp("taken/records"), "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fclose(f);
    CU_ASSERT_EQUAL(tune("7", "3", "-param", "knob=2,1", "-records", "-out", tp("taken"), NULL), 2);
    CU_ASSERT(one_line_error("-records: '"));
    CU_ASSERT(read_state(tp("taken/state.json"), NULL) < 0);
    /* An engine that cannot start. */
    snprintf(cmd, sizeof cmd, "%s -engine cmd=%s/missing -param knob=2,1 -out %s 2> %s", TUNE, tmpdir, tp("run"), tp("err.txt"));
    CU_ASSERT_EQUAL(WEXITSTATUS(system(cmd)), 2);
    CU_ASSERT(one_line_error("-engine: cmd: cannot start"));
    struct stat st;
    CU_ASSERT(stat(tp("run"), &st) < 0 && errno == ENOENT);
    remove_tmpdir();
}

/* -objective points on Rubicon Piquet's parties: every iteration logs plus's settled points, and
 * its result is their mean a set over the scale, inside [-1, 1]. */
static void test_the_points_objective_reads_the_settlement(void)
{
    make_tmpdir();
    CU_ASSERT_EQUAL(tune("7", "3", "-param", "knob=2,1", "-preset", "cavendish", "-objective", "points", "-points-scale", "200",
                         "-iterations", "2", "-pairs", "1", "-noplot", "-quiet", "-out", tp("pts"), NULL),
                    0);
    char *log = slurp(tp("pts/log.jsonl"));
    int lines = 0, right = 0;
    char *save = NULL;
    for (char *l = log ? strtok_r(log, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save)) {
        cJSON *o = cJSON_Parse(l);
        const cJSON *pts = cJSON_GetObjectItemCaseSensitive(o, "plus_points"), *r = cJSON_GetObjectItemCaseSensitive(o, "result");
        const cJSON *sets = cJSON_GetObjectItemCaseSensitive(o, "sets");
        if (cJSON_GetObjectItemCaseSensitive(o, "k")) {
            lines++;
            if (cJSON_IsNumber(pts) && cJSON_IsNumber(r) && cJSON_IsNumber(sets) && sets->valuedouble > 0) {
                double want = pts->valuedouble / sets->valuedouble / 200;
                want = want > 1 ? 1 : want < -1 ? -1 : want;
                right += fabs(r->valuedouble - want) < 1e-9;
            }
        }
        cJSON_Delete(o);
    }
    free(log);
    CU_ASSERT_EQUAL(lines, 2);
    CU_ASSERT_EQUAL(right, 2);
    remove_tmpdir();
}

/* Every value played and every theta stay inside the range the engine declares (knob: 0 to
 * 10), from a start near the top with an optimum on it. */
static void test_values_stay_inside_the_declared_range(void)
{
    make_tmpdir();
    CU_ASSERT_EQUAL(tune("10", "4", "-param", "knob=9.5,1.5", "-iterations", "8", "-pairs", "2", "-a", "4", "-noplot", "-quiet",
                         "-out", tp("edge"), NULL),
                    0);
    char *log = slurp(tp("edge/log.jsonl"));
    int lines = 0, at_top = 0, outside = 0;
    char *save = NULL;
    for (char *l = log ? strtok_r(log, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save)) {
        cJSON *o = cJSON_Parse(l);
        static const char *const keys[] = { "plus", "minus", "theta" };
        for (int k = 0; k < 3 && cJSON_GetObjectItemCaseSensitive(o, "k"); k++) {
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(o, keys[k]), "knob");
            if (!cJSON_IsNumber(v) || v->valuedouble < 0 || v->valuedouble > 10)
                outside++;
            else if (v->valuedouble == 10)
                at_top++;
        }
        lines += cJSON_GetObjectItemCaseSensitive(o, "k") != NULL;
        cJSON_Delete(o);
    }
    free(log);
    CU_ASSERT_EQUAL(lines, 8);
    CU_ASSERT_EQUAL(outside, 0);
    CU_ASSERT(at_top > 0); /* 9.5 + 1.5 was clipped to 10 */
    remove_tmpdir();
}

/* From a bad start on either side, theta ends near the hidden optimum. */
static void test_spsa_converges_towards_the_hidden_optimum(void)
{
    make_tmpdir();
    double knob = -1;
    CU_ASSERT_EQUAL(tune("7", "4", "-param", "knob=2,1", "-iterations", "40", "-pairs", "4", "-concurrency", "2", "-seed", "3", "-out",
                         tp("up"), NULL),
                    0);
    CU_ASSERT_EQUAL(read_state(tp("up/state.json"), &knob), 40);
    fprintf(stderr, "\n  knob from 2 towards 7: %.3f", knob);
    CU_ASSERT(knob > 5.5 && knob < 8.5);
    char *png = slurp(tp("up/params.png"));
    CU_ASSERT(png && !memcmp(png, "\x89PNG", 4));
    free(png);
    char *out = slurp(tp("out.txt"));
    CU_ASSERT(out && strstr(out, "Tuned after 40 of 40 iterations (320 sets)") && strstr(out, "-rounds 200") &&
              strstr(out, "name=tuned option.knob="));
    free(out);
    CU_ASSERT_EQUAL(tune("3", "4", "-param", "knob=8,1", "-iterations", "40", "-pairs", "4", "-concurrency", "2", "-seed", "4",
                         "-noplot", "-out", tp("down"), NULL),
                    0);
    CU_ASSERT_EQUAL(read_state(tp("down/state.json"), &knob), 40);
    fprintf(stderr, "\n  knob from 8 towards 3: %.3f\n", knob);
    CU_ASSERT(knob > 1.5 && knob < 4.5);
    struct stat st;
    CU_ASSERT(stat(tp("down/params.png"), &st) < 0);
    remove_tmpdir();
}

/* kill -9 in the middle, then -resume: the same state and log as an unbroken run. */
static void test_resume_after_kill_equals_an_unbroken_run(void)
{
    make_tmpdir();
    CU_ASSERT_EQUAL(tune("7", "3", "-param", "knob=2,1", "-iterations", "16", "-pairs", "3", "-noplot", "-quiet", "-out", tp("whole"),
                         NULL),
                    0);
    pid_t pid = tune_bg("7", "3", "-param", "knob=2,1", "-iterations", "16", "-pairs", "3", "-noplot", "-quiet", "-out", tp("broken"),
                        NULL);
    int killed_at = -1;
    for (int i = 0; i < 4000 && killed_at < 0; i++) {
        int k = read_state(tp("broken/state.json"), NULL);
        if (k >= 5) {
            kill(-pid, SIGKILL);
            killed_at = k;
        }
        struct timespec t = { 0, 5000000 };
        nanosleep(&t, NULL);
    }
    int status = wait_status(pid);
    CU_ASSERT(killed_at >= 5);
    if (killed_at < 16) /* the kill came before the end */
        CU_ASSERT_EQUAL(status, 1000 + SIGKILL);
    fprintf(stderr, "\n  killed after iteration %d", killed_at);
    /* Another run's folder is refused. */
    CU_ASSERT_EQUAL(tune("7", "3", "-param", "knob=3,1", "-iterations", "16", "-pairs", "3", "-noplot", "-quiet", "-resume", "-out",
                         tp("broken"), NULL),
                    2);
    CU_ASSERT(one_line_error("belongs to another run: run.params[0] (name 'knob').start is 2 there, 3 here"));
    /* Without -resume the folder is not overwritten. */
    CU_ASSERT_EQUAL(tune("7", "3", "-param", "knob=2,1", "-iterations", "16", "-pairs", "3", "-noplot", "-quiet", "-out", tp("broken"),
                         NULL),
                    2);
    CU_ASSERT(one_line_error("already holds a tuning run"));
    CU_ASSERT_EQUAL(tune("7", "3", "-param", "knob=2,1", "-iterations", "16", "-pairs", "3", "-noplot", "-quiet", "-resume", "-out",
                         tp("broken"), NULL),
                    0);
    char *a = slurp(tp("whole/state.json")), *b = slurp(tp("broken/state.json"));
    CU_ASSERT(a && b && !strcmp(a, b));
    free(a), free(b);
    a = slurp(tp("whole/log.jsonl")), b = slurp(tp("broken/log.jsonl"));
    CU_ASSERT(a && b && !strcmp(a, b));
    int lines = 0;
    for (const char *p = a; p && *p; p++)
        lines += *p == '\n';
    CU_ASSERT_EQUAL(lines, 17); /* the header and 16 iterations */
    free(b);
    /* Issue 29: a log of iterations without its state.json is neither overwritten without -resume
     * nor started afresh over with it; nor is a damaged line of the log resumed over. */
    CU_ASSERT_EQUAL(unlink(tp("broken/state.json")), 0);
    const char *again[] = { "-resume", "-noplot" };
    for (int i = 0; i < 2; i++) {
        CU_ASSERT_EQUAL(tune("7", "3", "-param", "knob=2,1", "-iterations", "16", "-pairs", "3", "-noplot", "-quiet", again[i], "-out",
                             tp("broken"), NULL),
                        2);
        CU_ASSERT(one_line_error(i == 0 ? "holds a log of iterations but no state.json" : "already holds a tuning run"));
        b = slurp(tp("broken/log.jsonl"));
        CU_ASSERT(b && !strcmp(a, b));
        free(b);
    }
    free(a);
    remove_tmpdir();
}

/* Issue 29: a finished run is extended with -resume and more -iterations, ending as an unbroken
 * run of that length would (the gain's A kept); fewer iterations than done is refused; and a run
 * killed with the plot on has a params.png already (it is drawn during the run). */
static void test_a_finished_run_extends_and_the_plot_follows_the_run(void)
{
    make_tmpdir();
    CU_ASSERT_EQUAL(tune("7", "3", "-param", "knob=2,1", "-iterations", "12", "-pairs", "2", "-A", "2", "-noplot", "-quiet", "-out",
                         tp("whole"), NULL),
                    0);
    CU_ASSERT_EQUAL(tune("7", "3", "-param", "knob=2,1", "-iterations", "6", "-pairs", "2", "-A", "2", "-noplot", "-quiet", "-out",
                         tp("grown"), NULL),
                    0);
    CU_ASSERT_EQUAL(read_state(tp("grown/state.json"), NULL), 6);
    CU_ASSERT_EQUAL(tune("7", "3", "-param", "knob=2,1", "-iterations", "12", "-pairs", "2", "-A", "2", "-noplot", "-quiet", "-resume",
                         "-out", tp("grown"), NULL),
                    0);
    char *a = slurp(tp("whole/state.json")), *b = slurp(tp("grown/state.json"));
    CU_ASSERT(a && b && !strcmp(a, b));
    free(a), free(b);
    a = slurp(tp("whole/log.jsonl")), b = slurp(tp("grown/log.jsonl"));
    CU_ASSERT(a && b && !strcmp(a, b));
    free(a), free(b);
    CU_ASSERT_EQUAL(tune("7", "3", "-param", "knob=2,1", "-iterations", "4", "-pairs", "2", "-A", "2", "-noplot", "-quiet", "-resume",
                         "-out", tp("grown"), NULL),
                    2);
    CU_ASSERT(one_line_error("the run has done 12 iterations: -iterations must be at least that"));
    /* Without -A the extension keeps the first run's A (10% of its 6 iterations), not 10% of 12. */
    CU_ASSERT_EQUAL(tune("7", "3", "-param", "knob=2,1", "-iterations", "6", "-pairs", "2", "-noplot", "-quiet", "-out", tp("keep"), NULL), 0);
    CU_ASSERT_EQUAL(tune("7", "3", "-param", "knob=2,1", "-iterations", "9", "-pairs", "2", "-noplot", "-quiet", "-resume", "-out",
                         tp("keep"), NULL),
                    0);
    a = slurp(tp("keep/state.json"));
    CU_ASSERT(a && strstr(a, "\"iterations\":9") && strstr(a, "\"A\":0.6"));
    free(a);
    /* The plot during the run: killed after a few iterations, the folder holds a params.png. */
    pid_t pid = tune_bg("7", "3", "-param", "knob=2,1", "-iterations", "200", "-pairs", "2", "-quiet", "-out", tp("plotted"), NULL);
    int k = -1;
    for (int i = 0; i < 4000 && k < 3; i++) {
        k = read_state(tp("plotted/state.json"), NULL);
        struct timespec t = { 0, 5000000 };
        nanosleep(&t, NULL);
    }
    kill(-pid, SIGKILL);
    wait_status(pid);
    CU_ASSERT(k >= 3);
    char *png = slurp(tp("plotted/params.png"));
    CU_ASSERT(png && !memcmp(png, "\x89PNG", 4));
    free(png);
    remove_tmpdir();
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("tune", NULL, NULL);
    CU_add_test(s, "help and version", test_help_and_version);
    CU_add_test(s, "bad parameters stop before anything runs", test_bad_parameters_stop_before_anything_runs);
    CU_add_test(s, "values stay inside the declared range", test_values_stay_inside_the_declared_range);
    CU_add_test(s, "the points objective reads the settlement", test_the_points_objective_reads_the_settlement);
    CU_add_test(s, "SPSA converges towards the hidden optimum", test_spsa_converges_towards_the_hidden_optimum);
    CU_add_test(s, "resume after kill -9 equals an unbroken run", test_resume_after_kill_equals_an_unbroken_run);
    CU_add_test(s, "a finished run extends; the plot follows the run", test_a_finished_run_extends_and_the_plot_follows_the_run);
    return test_run_all();
}
