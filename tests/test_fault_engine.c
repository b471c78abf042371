/* The faulty engine the arena's fault tests play against (tests/fault_engine.c) must fail
 * reproducibly: its faults follow from its SEED argument (default 1) and each set's newgame
 * line, never from its process id or its history, so a failing fault test can be replayed.
 * The binary comes from $PICKET_FAULT_ENGINE (set by ctest). */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "test_util.h"

enum { SETS = 40, GOES = 30 };

/* Play sets first..SETS-1 against `fault_engine garbage 0.5 [seed]` (seed NULL: the default),
 * each a newgame line and GOES go lines; fault[i] gets the go (0-based) that answered garbage in
 * set i, or -1. Returns 0, or -1 if the engine would not start or stopped answering. */
static int faults_of(const char *seed, int first, int fault[SETS])
{
    const char *bin = getenv("PICKET_FAULT_ENGINE");
    char *argv[] = { (char *)(bin ? bin : "build/tests/fault_engine"), "garbage", "0.5", (char *)seed, NULL };
    client_t c;
    char err[200], line[PROTO_MAX_LINE + 1];
    if (client_start_opts(&c, argv, NULL, err, sizeof err) < 0) {
        fprintf(stderr, "\n    %s\n", err);
        return -1;
    }
    int rc = 0;
    for (int i = first; i < SETS && rc == 0; i++) {
        fault[i] = -1;
        snprintf(line, sizeof line, "newgame game picket preset cotton seat %d seed %d", i & 1, i);
        client_send(&c, line);
        for (int g = 0; g < GOES && rc == 0; g++) {
            /* Without the game's events every go is an error, except the one that is garbage. */
            client_send(&c, "go");
            if (client_await_reply(&c, line, 5000, -1, NULL, NULL) < 0)
                rc = -1;
            else if (strstr(line, "bananas"))
                fault[i] = g;
        }
    }
    client_stop(&c, 2000);
    return rc;
}

static int count_faults(const int fault[SETS])
{
    int n = 0;
    for (int i = 0; i < SETS; i++)
        n += fault[i] >= 0;
    return n;
}

/* Two processes with the same seed fault in the same sets at the same decisions. */
static void test_same_seed_same_faults(void)
{
    int a[SETS], b[SETS];
    CU_ASSERT_EQUAL_FATAL(faults_of("7", 0, a), 0);
    CU_ASSERT_EQUAL_FATAL(faults_of("7", 0, b), 0);
    CU_ASSERT(count_faults(a) > 0 && count_faults(a) < SETS);
    CU_ASSERT_EQUAL(memcmp(a, b, sizeof a), 0);
}

/* A restarted engine (one that starts at set 20) faults in sets 20.. as one that played from
 * set 0: the arena restarts a crashed engine, and the run must still replay. */
static void test_a_restart_does_not_change_the_faults(void)
{
    int a[SETS], b[SETS];
    CU_ASSERT_EQUAL_FATAL(faults_of("7", 0, a), 0);
    CU_ASSERT_EQUAL_FATAL(faults_of("7", SETS / 2, b), 0);
    CU_ASSERT_EQUAL(memcmp(a + SETS / 2, b + SETS / 2, sizeof a / 2), 0);
}

/* Without a SEED the default (1) is used; another seed gives other faults. */
static void test_the_seed_has_a_fixed_default(void)
{
    int none[SETS], one[SETS], two[SETS];
    CU_ASSERT_EQUAL_FATAL(faults_of(NULL, 0, none), 0);
    CU_ASSERT_EQUAL_FATAL(faults_of("1", 0, one), 0);
    CU_ASSERT_EQUAL_FATAL(faults_of("2", 0, two), 0);
    CU_ASSERT_EQUAL(memcmp(none, one, sizeof none), 0);
    CU_ASSERT_NOT_EQUAL(memcmp(one, two, sizeof one), 0);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("fault engine", NULL, NULL);
    CU_add_test(s, "same seed, same faults", test_same_seed_same_faults);
    CU_add_test(s, "a restart does not change the faults", test_a_restart_does_not_change_the_faults);
    CU_add_test(s, "the seed has a fixed default", test_the_seed_has_a_fixed_default);
    return test_run_all();
}
