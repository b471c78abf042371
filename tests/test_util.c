#include "test_util.h"

#include <CUnit/Basic.h>
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

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

void test_tmpdir_make(char *dir, size_t cap, const char *prefix)
{
    snprintf(dir, cap, "/tmp/%s-XXXXXX", prefix);
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
}

void test_tmpdir_remove(const char *dir)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CU_ASSERT_EQUAL(system(cmd), 0);
}

const char *test_path(const char *dir, const char *name)
{
    static char buf[8][1024];
    static int next;
    char *b = buf[next++ % 8];
    snprintf(b, sizeof buf[0], "%s/%s", dir, name);
    return b;
}

char *test_slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *b = NULL;
    long n = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (n >= 0 && fseek(f, 0, SEEK_SET) == 0 && (b = malloc((size_t)n + 1)) && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    if (b)
        b[n] = '\0';
    fclose(f);
    return b;
}
