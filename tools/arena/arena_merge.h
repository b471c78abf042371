/* arena_merge: picket-arena -merge, the standings of a run played in shards (docs/arena.md).
 *
 * The results files of every shard of one run, each given once, are read (never written):
 * their headers must describe one run and hold shards 0..N-1 exactly once, every set line
 * must be a set of its file's shard, none twice and none missing, and with -deals the seeds in
 * the lines must hash to the run's. The sets are then tallied in the schedule's order, so the
 * standings are those of the same run played unsharded, whatever order the files come in. */
#ifndef PICKET_ARENA_MERGE_H
#define PICKET_ARENA_MERGE_H

#include <stddef.h>

#include "arena_run.h"

/* Merge files[0..n_files-1] into a (zeroed but for quiet, use_sprt and sprt) and print the
 * standings, the files merged and the SPRT's verdict on stdout; on stderr, unless quiet, that
 * they merged. a->run then holds the first file's run description (the names point into it):
 * free a with arena_run_free. 0 merged, 1 files that cannot be read or do not merge, 2 an SPRT
 * the run cannot take; not 0: the reason in err. */
int arena_merge_files(arena_run_t *a, const char *const *files, int n_files, char *err, size_t errlen);

#endif
