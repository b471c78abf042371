/* arena_results: the results file of an arena run, as JSON Lines (docs/arena.md).
 *
 * The first line describes the run; each later line is one finished set, written and flushed
 * the moment it ends. Reading it back for --resume tolerates a torn last line (a kill in the
 * middle of a write): that line is cut off, and its set is played again.
 */
#ifndef PICKET_ARENA_RESULTS_H
#define PICKET_ARENA_RESULTS_H

#include <stdio.h>

#include "arena_match.h"

typedef struct set_key {
    int pairing, round, leg;
} set_key_t;

typedef struct set_line {
    set_key_t key;
    int engine[GAME_MAX_PLAYERS];  /* engine index by seat (result.players of them) */
    set_result_t result;
} set_line_t;

/* The run's description: a JSON object text (owned by the caller), one line. */
int results_write_header(FILE *f, const char *header_json);
int results_write_set(FILE *f, const set_line_t *s, const char *const *names, uint64_t deal_seed, const char *record);

/* Read a results file: check its header equals header_json (same run), then call on_set for
 * every set line. A torn last line is cut off the file. Returns 0, or -1 with a reason. */
int results_load(const char *path, const char *header_json, void (*on_set)(void *, const set_line_t *), void *data,
                 char *err, size_t errlen);

#endif
