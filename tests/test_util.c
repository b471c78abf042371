#include "test_util.h"

#include <CUnit/Basic.h>
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>

int test_run_all(void)
{
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
    unsigned run = CU_get_number_of_tests_run();
    CU_cleanup_registry();
    /* A suite that ran nothing has failed too: it would hide a broken registration. */
    return (failed || run == 0) ? 1 : 0;
}

cardset_t test_cards(const char *text)
{
    cardset_t set = 0;
    char err[160];
    if (cards_parse_list(text, cards_pack(52), &set, err, sizeof err) < 0) {
        fprintf(stderr, "test_cards(\"%s\"): %s\n", text, err);
        CU_FAIL_FATAL("bad card text in a test");
    }
    return set;
}

int test_open_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    int n = 0;
    while (d && readdir(d))
        n++;
    if (d)
        closedir(d);
    return n;
}

picket_rules_t test_rules(const char *preset, ...)
{
    picket_rules_t r = picket_preset_find(preset)->rules;
    va_list ap;
    va_start(ap, preset);
    const char *flag;
    char err[160];
    while ((flag = va_arg(ap, const char *)) != NULL)
        if (picket_rules_set(&r, flag, err, sizeof err) < 0) {
            fprintf(stderr, "test_rules: %s\n", err);
            CU_FAIL("bad flag in a test");
        }
    va_end(ap);
    return r;
}
