/* The benches' signatures: numbers that change only when behaviour changes, never with timing
 * or the machine, pinned here on a quick subset of each bench's own work.
 *  - bench/solver: the node count of the best-move solves with the array table (its
 *    `signature` line), over the first 20 of its deals.
 *  - bench/rules: the score checksum of random play per preset, and the Blank counts.
 * Binaries come from $PICKET_BENCH_SOLVER and $PICKET_BENCH_RULES (set by ctest).
 *
 * When a change alters search or rules behaviour on purpose, regenerate the constants with the
 * commands in each case's comment, say why in the commit, and paste the new numbers here. A
 * change that should not alter behaviour (a speed-up, a refactor) must leave them alone. */
#include <CUnit/CUnit.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_util.h"

static char out[1 << 16];

/* Run argv with stdout into out (NUL-terminated, cut at its size); stderr is inherited.
 * Returns the exit status, or -1 if it could not run or did not exit. */
static int run(char *const argv[])
{
    int fds[2];
    out[0] = '\0';
    if (pipe(fds) < 0)
        return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        dup2(fds[1], STDOUT_FILENO);
        close(fds[0]);
        close(fds[1]);
        execv(argv[0], argv);
        _exit(127);
    }
    close(fds[1]);
    size_t n = 0;
    ssize_t got;
    char buf[4096];
    /* Read to the end, so the child never blocks on a full pipe; keep what fits. */
    while ((got = read(fds[0], buf, sizeof buf)) > 0) {
        size_t keep = (size_t)got < sizeof out - 1 - n ? (size_t)got : sizeof out - 1 - n;
        memcpy(out + n, buf, keep);
        n += keep;
    }
    out[n] = '\0';
    close(fds[0]);
    int status;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
        return -1;
    return WEXITSTATUS(status);
}

static const char *bin(const char *env, const char *fallback)
{
    const char *b = getenv(env);
    return b ? b : fallback;
}

/* The number after `label` in out, or UINT64_MAX if there is none. */
static uint64_t number_after(const char *from, const char *label)
{
    const char *p = strstr(from, label);
    if (!p)
        return UINT64_MAX;
    p += strlen(label);
    char *end;
    unsigned long long v = strtoull(p, &end, 10);
    return end == p ? UINT64_MAX : (uint64_t)v;
}

/* bench/solver's first 20 deals; the table is never cleared between deals, so the count
 * depends on its size, which is given: 8 MB, the bench's default (the table never fills), and
 * 1 MB, where it fills and the replacement rule counts. Regenerate:
 *   build/bench/solver --deals 20 --tt-mb MB --preset cotgrave --minimax-endings 0 | grep signature
 * The counts are the same with PICKET_NATIVE on and off. */
static void check_solver_signature(const char *mb, uint64_t want)
{
    char *argv[] = { (char *)bin("PICKET_BENCH_SOLVER", "build/bench/solver"), "--deals", "20", "--tt-mb", (char *)mb,
                     "--preset", "cotgrave", "--minimax-endings", "0", NULL };
    CU_ASSERT_EQUAL_FATAL(run(argv), 0);
    uint64_t got = number_after(out, "\nsignature ");
    if (got != want)
        fprintf(stderr, "\n    bench/solver --deals 20 --tt-mb %s: signature %" PRIu64 ", pinned %" PRIu64 "\n", mb,
                got, want);
    CU_ASSERT_EQUAL(got, want);
}

static void test_solver_signature(void) { check_solver_signature("8", 476751); }
static void test_solver_signature_small_table(void) { check_solver_signature("1", 480458); }

/* bench/rules with 20,000 hands a preset and 20,000 deals, its default seed. Regenerate:
 *   build/bench/rules --hands 20000 --deals 20000 --seed 20261121 | grep -E 'checksum|Blank,' */
static void test_rules_checksums(void)
{
    static const struct {
        const char *label;
        uint64_t want;
    } pins[] = {
        { "cotgrave", 9378661 },
        { "cotton", 9518665 },
        { "ducoeur-letter", 10621636 },
        { "ducoeur-report", 14546194 },
        { "deck=36", 84 }, /* Blank hands in 40,000 */
        { "deck=32", 16 },
    };
    char *argv[] = { (char *)bin("PICKET_BENCH_RULES", "build/bench/rules"), "--hands", "20000", "--deals", "20000",
                     "--seed", "20261121", NULL };
    CU_ASSERT_EQUAL_FATAL(run(argv), 0);
    for (size_t i = 0; i < sizeof pins / sizeof pins[0]; i++) {
        char label[64];
        snprintf(label, sizeof label, "\n  %s ", pins[i].label);
        const char *line = strstr(out, label);
        uint64_t got = UINT64_MAX;
        if (line)
            got = i < 4 ? number_after(line, "(checksum ") : number_after(line, "hands: ");
        if (got != pins[i].want)
            fprintf(stderr, "\n    bench/rules: %s: %" PRIu64 ", pinned %" PRIu64 "\n", pins[i].label, got,
                    pins[i].want);
        CU_ASSERT_EQUAL(got, pins[i].want);
    }
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("bench signatures", NULL, NULL);
    CU_add_test(s, "bench/solver: the node-count signature of 20 deals", test_solver_signature);
    CU_add_test(s, "bench/solver: the signature with a 1 MB table, full", test_solver_signature_small_table);
    CU_add_test(s, "bench/rules: checksums and Blank counts", test_rules_checksums);
    return test_run_all();
}
