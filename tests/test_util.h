/* test_util: what every CUnit suite shares: running the registry with a summary that ctest
 * shows, and small builders for Picket positions. */
#ifndef PICKET_TEST_UTIL_H
#define PICKET_TEST_UTIL_H

#include <CUnit/CUnit.h>
#include <stddef.h>

#include "cards.h"
#include "picket.h"

/* Run every registered suite verbosely, print the CUnit summary, return the exit status. */
int test_run_all(void);

/* A set of cards from text; fails the test (and returns 0) on bad text. */
cardset_t test_cards(const char *text);

/* How many descriptors this process has open (from /proc/self/fd). */
int test_open_fds(void);

/* Rules of a preset with overrides, e.g. test_rules("cotton", "ties=void", NULL). */
picket_rules_t test_rules(const char *preset, ...);

/* Scratch folders and files for tests that run programs. */
/* A fresh folder /tmp/PREFIX-XXXXXX into dir (fails the test fatally if it cannot be made). */
void test_tmpdir_make(char *dir, size_t cap, const char *prefix);
/* rm -rf it. */
void test_tmpdir_remove(const char *dir);
/* dir/name, in one of 8 rotating buffers (valid for the next 7 calls). */
const char *test_path(const char *dir, const char *name);
/* A whole file, NUL-terminated (NULL if it cannot be read). */
char *test_slurp(const char *path);

#endif
