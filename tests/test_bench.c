/* The benches' signatures: numbers that change only when behaviour changes, never with timing
 * or the machine, pinned here on a quick subset of each bench's own work.
 *  - bench/solver: the node count of the best-move solves with the array table (its
 *    `signature` line), over the first 20 of its deals.
 *  - bench/rules: the score checksum of random play per preset, and the Blank counts.
 *  - bench/sampler: the exact counts of its sixteen views (--quick), every world it draws
 *    consistent with its view, and the same checksum of the worlds drawn on a second run.
 *  - bench/oracle: the same sets at one thread and at two.
 *  - bench/hands: on a small arena run's records, each engine's lead a hand the other's negated.
 * Binaries come from $PICKET_BENCH_SOLVER, $PICKET_BENCH_RULES, $PICKET_BENCH_SAMPLER,
 * $PICKET_BENCH_ORACLE, $PICKET_BENCH_HANDS, $PICKET_ARENA and $PICKET_ENGINE (set by ctest).
 * Timings are printed, never asserted.
 *
 * When a change alters search or rules behaviour on purpose, regenerate the constants with the
 * commands in each case's comment, say why in the commit, and paste the new numbers here. A
 * change that should not alter behaviour (a speed-up, a refactor) must leave them alone. */
#include <CUnit/CUnit.h>
#include <inttypes.h>
#include <math.h>
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

/* bench/sampler --quick: its views' exact counts (worlds and opponent holdings), each row with its
 * targets judged, every drawn world consistent, and the checksum of the worlds drawn stable from
 * one run to the next (same seed, same worlds). Regenerate the counts (a change to the views'
 * play, the rules or the sampler's definition of a world):
 *   build/bench/sampler --quick | grep -E '^(cotgrave|cotton|ducoeur)' */
static void test_sampler_counts_and_checksum(void)
{
    static const struct {
        const char *preset, *view;
        uint64_t worlds, holdings;
    } pins[] = {
        { "cotgrave", "dealt", 2703701, 2703701 },
        { "cotgrave", "exchange", 662474337525, 2704156 },
        { "cotgrave", "declared", 209715, 3003 },
        { "cotgrave", "voids", 64470, 924 },
        { "cotton", "dealt", 2703701, 2703701 },
        { "cotton", "exchange", 662474337525, 2704156 },
        { "cotton", "declared", 900405, 1820 },
        { "cotton", "voids", 27710, 56 },
        { "ducoeur-letter", "dealt", 2703701, 2703701 },
        { "ducoeur-letter", "exchange", 1695934304064, 2704156 },
        { "ducoeur-letter", "declared", 820512, 1036 },
        { "ducoeur-letter", "voids", 11880, 15 },
        { "ducoeur-report", "dealt", 2702336, 2702336 },
        { "ducoeur-report", "exchange", 2307189620736, 2704156 },
        { "ducoeur-report", "declared", 646800, 100 },
        { "ducoeur-report", "voids", 1440, 2 },
    };
    char *argv[] = { (char *)bin("PICKET_BENCH_SAMPLER", "build/bench/sampler"), "--quick", NULL };
    CU_ASSERT_EQUAL_FATAL(run(argv), 0);
    for (size_t i = 0; i < sizeof pins / sizeof pins[0]; i++) {
        /* "cotgrave         dealt     0    0.1    elder-exchange   2703701   2703701   ...  target met" */
        uint64_t worlds = UINT64_MAX, holdings = UINT64_MAX;
        int found = 0;
        for (const char *line = out; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
            char preset[32], view[32], seat[8], hand[16], phase[32];
            unsigned long long w, h;
            if (sscanf(line, "%31s %31s %7s %15s %31s %llu %llu", preset, view, seat, hand, phase, &w, &h) == 7 &&
                !strcmp(preset, pins[i].preset) && !strcmp(view, pins[i].view)) {
                const char *end = strchr(line, '\n');
                size_t len = end ? (size_t)(end - line) : strlen(line);
                char row[512];
                snprintf(row, sizeof row, "%.*s", (int)(len < sizeof row ? len : sizeof row - 1), line);
                found = 1;
                worlds = w, holdings = h;
                CU_ASSERT_PTR_NOT_NULL(strstr(row, "target "));
                break;
            }
        }
        CU_ASSERT(found);
        if (worlds != pins[i].worlds || holdings != pins[i].holdings)
            fprintf(stderr, "\n    bench/sampler: %s %s: %" PRIu64 " worlds, %" PRIu64 " holdings; pinned %" PRIu64
                            ", %" PRIu64 "\n", pins[i].preset, pins[i].view, worlds, holdings, pins[i].worlds,
                    pins[i].holdings);
        CU_ASSERT_EQUAL(worlds, pins[i].worlds);
        CU_ASSERT_EQUAL(holdings, pins[i].holdings);
    }
    const char *cons = strstr(out, "\nconsistency: ");
    CU_ASSERT_PTR_NOT_NULL_FATAL(cons);
    unsigned long long good = 0, all = 1;
    CU_ASSERT_EQUAL(sscanf(cons, "\nconsistency: %llu of %llu", &good, &all), 2);
    CU_ASSERT(all >= 16000);
    CU_ASSERT_EQUAL(good, all);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\ntargets: "));
    uint64_t first = number_after(out, "\nchecksum ");
    CU_ASSERT_NOT_EQUAL(first, UINT64_MAX);
    CU_ASSERT_EQUAL_FATAL(run(argv), 0);
    CU_ASSERT_EQUAL(number_after(out, "\nchecksum "), first);
}

/* bench/oracle: the same sets at one thread and at two (every line after the header, which
 * names the threads and the time), the honest and cheating sides both reported; an unknown side
 * refused with exit 2 before anything is played; a side outside the default list on request. */
static void test_oracle_threads_agree(void)
{
    const char *b = bin("PICKET_BENCH_ORACLE", "build/bench/oracle");
    char *one[] = { (char *)b, "--pairs", "2", "--seed", "3", "--sides", "oracle", "--threads", "1", NULL };
    char *two[] = { (char *)b, "--pairs", "2", "--seed", "3", "--sides", "oracle", "--threads", "2", NULL };
    CU_ASSERT_EQUAL_FATAL(run(one), 0);
    static char first[sizeof out];
    const char *body = strchr(out, '\n');
    CU_ASSERT_PTR_NOT_NULL_FATAL(body);
    snprintf(first, sizeof first, "%s", body);
    CU_ASSERT_PTR_NOT_NULL(strstr(first, "\nhonest "));
    CU_ASSERT_PTR_NOT_NULL(strstr(first, "\noracle "));
    CU_ASSERT_PTR_NULL(strstr(first, "\nhand "));
    CU_ASSERT_PTR_NOT_NULL(strstr(first, "\ntarget: honest score >= 80%: "));
    CU_ASSERT_EQUAL_FATAL(run(two), 0);
    body = strchr(out, '\n');
    CU_ASSERT_PTR_NOT_NULL_FATAL(body);
    CU_ASSERT_STRING_EQUAL(body, first);
    char *bad[] = { (char *)b, "--sides", "oracle,psychic", NULL };
    CU_ASSERT_EQUAL(run(bad), 2);
    CU_ASSERT_STRING_EQUAL(out, "");
    /* The cheat that deals elder's discards afresh plays whole sets too (under the sanitizers in
     * that build). */
    char *kept[] = { (char *)b, "--pairs", "1", "--seed", "3", "--sides", "kept-younger-exchange", NULL };
    CU_ASSERT_EQUAL(run(kept), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nkept-younger-exchange "));
    CU_ASSERT_PTR_NULL(strstr(out, "\noracle "));
}

/* bench/exchange on 4 positions (2 elder's, 2 younger's), few worlds and iterations: every
 * evaluator has its row, a regret is never below 0 (the reference's best is a candidate), the
 * same seed prints the same, and a preset the net did not learn is said so, not judged; the
 * reference's other plays of the cards (the heuristic's, the bot's) run and say so. */
static void test_exchange_yardstick(void)
{
    const char *b = bin("PICKET_BENCH_EXCHANGE", "build/bench/exchange");
    char *argv[] = { (char *)b, "--positions", "4", "--worlds", "4", "--iterations", "200", "--seed", "2", NULL };
    CU_ASSERT_EQUAL_FATAL(run(argv), 0);
    static const char *const rows[] = { "\nheuristic's first ", "\nheuristic rollouts (top 24, worlds apart) ",
                                        "\nthe tree (heuristic's top 24, old default) ", "\nnet's first of all discards (the default) " };
    for (int r = 0; r < 4; r++) {
        const char *p = strstr(out, rows[r]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(p);
        CU_ASSERT(strtod(p + strlen(rows[r]), NULL) >= 0);
    }
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\ntarget (issue 30): the net's regret at most half the tree's: "));
    /* The paired lead is the search's mean regret less the net's (to the rounding of the printed
     * figures), inside its own interval; the ceiling's lead has its line; the net's picks counted
     * by the cards laid out add up to the positions judged. */
    double regret_search = NAN, regret_net = NAN, lead = NAN, lo = NAN, hi = NAN;
    const char *q = strstr(out, rows[2]);
    if (q)
        regret_search = strtod(q + strlen(rows[2]), NULL);
    if ((q = strstr(out, rows[3])))
        regret_net = strtod(q + strlen(rows[3]), NULL);
    static const char lead_label[] = "\nthe net's lead over the tree, a position (what a match sees a hand): ";
    q = strstr(out, lead_label);
    CU_ASSERT_PTR_NOT_NULL_FATAL(q);
    CU_ASSERT_EQUAL(sscanf(q + strlen(lead_label), "%lf [%lf, %lf]", &lead, &lo, &hi), 3);
    CU_ASSERT(fabs(lead - (regret_search - regret_net)) < 0.011);
    CU_ASSERT(lo <= lead && lead <= hi);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nthe lead over the tree of the reference's best on half the worlds, valued on the other half: "));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nmean regret by seat, elder / younger: heuristic "));
    int fewer = -1, same = -1, more = -1;
    q = strstr(out, "by the cards laid out: ");
    CU_ASSERT_PTR_NOT_NULL_FATAL(q);
    CU_ASSERT_EQUAL(sscanf(q, "by the cards laid out: fewer %d (regret %*f), as many %d (%*f), more %d", &fewer, &same, &more), 3);
    CU_ASSERT_EQUAL(fewer + same + more, 4);
    const char *sig = strstr(out, "; signature ");
    CU_ASSERT_PTR_NOT_NULL_FATAL(sig);
    static char first[64];
    snprintf(first, sizeof first, "%.30s", sig);
    CU_ASSERT_EQUAL_FATAL(run(argv), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, first));
    char *other[] = { (char *)b, "--positions", "2", "--worlds", "2", "--iterations", "50", "--preset", "ducoeur-report", NULL };
    CU_ASSERT_EQUAL_FATAL(run(other), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "target: the net does not cover ducoeur-report's rules"));
    char *bad[] = { (char *)b, "--preset", "whist", NULL };
    CU_ASSERT_EQUAL(run(bad), 2);
    /* The reference's play by the heuristic: another verdict, said in the heading; a play model it
     * does not know is refused. */
    char *heur[] = { (char *)b, "--positions", "4", "--worlds", "4", "--iterations", "200", "--seed", "2", "--play", "heuristic", NULL };
    CU_ASSERT_EQUAL_FATAL(run(heur), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "the reference's play heuristic"));
    CU_ASSERT_PTR_NULL(strstr(out, first));
    /* The cards played as the bot plays them (PIMC, one world a decision here): every row, no
     * regret below 0. */
    char *bot[] = { (char *)b, "--positions", "2", "--worlds", "2", "--iterations", "50", "--play", "bot", "--bot-worlds", "1", NULL };
    CU_ASSERT_EQUAL_FATAL(run(bot), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "the reference's play bot"));
    for (int r = 0; r < 4; r++) {
        const char *p = strstr(out, rows[r]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(p);
        CU_ASSERT(strtod(p + strlen(rows[r]), NULL) >= 0);
    }
    char *bad_play[] = { (char *)b, "--quick", "--play", "dummy", NULL };
    CU_ASSERT_EQUAL(run(bad_play), 2);
    char *bad_worlds[] = { (char *)b, "--quick", "--play", "bot", "--bot-worlds", "0", NULL };
    CU_ASSERT_EQUAL(run(bad_worlds), 2);
    char *no_model[] = { (char *)b, "--quick", "--model", "tests/net/no-such.pknn", NULL };
    CU_ASSERT_EQUAL(run(no_model), 1);
}

/* The signed number after `label` in out (strtod), or NAN. */
static double real_after(const char *label)
{
    const char *p = strstr(out, label);
    if (!p)
        return NAN;
    p += strlen(label);
    char *end;
    double v = strtod(p, &end);
    return end == p ? NAN : v;
}

/* bench/hands on a small arena run (heuristic against random, 3 pairs of sets to 300): every set's
 * hands add up to its scores (or the bench stops), the heuristic leads a hand, random's lead on the
 * same records is its negation over the same hands, a second run prints the same, and what is not
 * a duplicate run's records is refused with one line. */
static void test_hands_on_an_arena_run(void)
{
    char dir[] = "/tmp/picket-test-hands-XXXXXX";
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    char recs[sizeof dir + 8];
    snprintf(recs, sizeof recs, "%s/recs", dir);
    char eng[512];
    snprintf(eng, sizeof eng, "cmd=%s", bin("PICKET_ENGINE", "build/tools/picket-engine"));
    char *arena[] = { (char *)bin("PICKET_ARENA", "build/tools/picket-arena"), "-engine", eng, "name=heur",
                      "option.bot=heuristic", "-engine", eng, "name=rand", "option.bot=random", "-rounds", "3",
                      "-flag", "target=300", "-seed", "5", "-records", recs, "-quiet", NULL };
    CU_ASSERT_EQUAL_FATAL(run(arena), 0);
    const char *b = bin("PICKET_BENCH_HANDS", "build/bench/hands");
    char *heur[] = { (char *)b, "--engine", "heur", "--quick", recs, NULL };
    char *rnd[] = { (char *)b, "--engine", "rand", "--quick", recs, NULL };
    CU_ASSERT_EQUAL_FATAL(run(heur), 0);
    static char first[sizeof out];
    snprintf(first, sizeof first, "%s", out);
    uint64_t hands = number_after(out, "\nhands complete in both legs of a pair: ");
    double lead = real_after("\nlead a hand: ");
    CU_ASSERT(hands > 10 && hands != UINT64_MAX);
    CU_ASSERT(lead > 5);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "'heur' against 'rand', 3 pairs (6 sets over)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\ntarget (80% of sets in the set model): "));
    CU_ASSERT_EQUAL_FATAL(run(heur), 0);
    CU_ASSERT_STRING_EQUAL(out, first);
    CU_ASSERT_EQUAL_FATAL(run(rnd), 0);
    CU_ASSERT_EQUAL(number_after(out, "\nhands complete in both legs of a pair: "), hands);
    CU_ASSERT_DOUBLE_EQUAL(real_after("\nlead a hand: "), -lead, 0.006);
    /* Not a duplicate run's records: the known records carry no arena comments. */
    char *plain[] = { (char *)b, "tests/records", NULL };
    CU_ASSERT_EQUAL(run(plain), 1);
    CU_ASSERT_STRING_EQUAL(out, "");
    char *none[] = { (char *)b, "/nonexistent-folder", NULL };
    CU_ASSERT_EQUAL(run(none), 1);
    char *nothing[] = { (char *)b, NULL };
    CU_ASSERT_EQUAL(run(nothing), 2);
    char *goal[] = { (char *)b, "--goal", "1.5", recs, NULL };
    CU_ASSERT_EQUAL(run(goal), 2);
    char *who[] = { (char *)b, "--engine", "nobody", recs, NULL };
    CU_ASSERT_EQUAL(run(who), 1);
    char cmd[sizeof dir + 16];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CU_ASSERT_EQUAL(system(cmd), 0);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("bench signatures", NULL, NULL);
    CU_add_test(s, "bench/solver: the node-count signature of 20 deals", test_solver_signature);
    CU_add_test(s, "bench/exchange: every evaluator's regret, the same for the same seed", test_exchange_yardstick);
    CU_add_test(s, "bench/solver: the signature with a 1 MB table, full", test_solver_signature_small_table);
    CU_add_test(s, "bench/rules: checksums and Blank counts", test_rules_checksums);
    CU_add_test(s, "bench/sampler: exact counts of its views, consistent worlds, a stable checksum",
                test_sampler_counts_and_checksum);
    CU_add_test(s, "bench/oracle: the same sets at one and two threads; a bad side refused", test_oracle_threads_agree);
    CU_add_test(s, "bench/hands: an arena run's lead a hand, each engine's the other's negated; bad input refused",
                test_hands_on_an_arena_run);
    return test_run_all();
}
