/* bench_args: the command line the search benches share (court, ismcts, sampler): -version
 * anywhere; then, in order, --help, --quick, --seed S and the bench's own options. Seeds are
 * read strictly (text_u64: digits only, no wrap). */
#ifndef PICKET_BENCH_ARGS_H
#define PICKET_BENCH_ARGS_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "bench_util.h"
#include "game.h"

/* A bench's own option at argv[*i]: 1 if it took it (moving *i past its value), 0 if it is not
 * one of its options or its value is bad. */
typedef int (*bench_option_fn)(void *data, int argc, char **argv, int *i);

/* -1 to go on; else the exit status: 0 after -version or --help (usage printed as it is), 2
 * after a bad option ("NAME: bad option 'X' (see --help)" on stderr). own may be NULL. */
static inline int bench_args(int argc, char **argv, const char *name, const char *usage, int *quick, uint64_t *seed,
                             bench_option_fn own, void *data)
{
    if (bench_version(argc, argv, name))
        return 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(usage, stdout);
            return 0;
        }
        if (!strcmp(argv[i], "--quick")) {
            *quick = 1;
        } else if (!strcmp(argv[i], "--seed") && i + 1 < argc && text_u64(argv[i + 1], 0, UINT64_MAX, seed) == 0) {
            i++;
        } else if (!own || !own(data, argc, argv, &i)) {
            fprintf(stderr, "%s: bad option '%s' (see --help)\n", name, argv[i]);
            return 2;
        }
    }
    return -1;
}

#endif
