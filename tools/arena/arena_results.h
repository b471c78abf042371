/* arena_results: the results file of an arena run, as JSON Lines (docs/arena.md).
 *
 * The first line describes the run ({"type":"run","format":2,"run":{...}}); each later line is
 * one finished set, written and flushed the moment it ends. The header and the set lines share
 * no key but "type", and every 64-bit seed is a string, so a data frame reads both without
 * mixing meanings or losing digits. Reading it back for -resume compares the run by meaning
 * (keys in any order, any spacing), names the first field that differs, and tolerates a torn
 * last line (a kill in the middle of a write): that line is cut off, and its set is played
 * again. A merge of shards reads files without changing them: there a torn last line is reported,
 * not cut. Everything is written and read with cJSON.
 */
#ifndef PICKET_ARENA_RESULTS_H
#define PICKET_ARENA_RESULTS_H

#include <cjson/cJSON.h>
#include <stdio.h>

#include "arena_match.h"

enum { RESULTS_FORMAT = 2 };
/* The longest line a results file may hold (a run's header with many engines and options). */
enum { RESULTS_MAX_LINE = 1 << 20 };

typedef struct arena_set_key {
    int pairing, round, leg;
} arena_set_key_t;

typedef struct arena_set_line {
    arena_set_key_t key;
    int engine[GAME_MAX_PLAYERS];  /* engine index by seat (result.players of them) */
    uint64_t deal_seed;
    uint64_t engine_seed[GAME_MAX_PLAYERS];
    arena_set_result_t result;
} arena_set_line_t;

/* The header line for a run description (a JSON object the caller owns): a new string to
 * free with cJSON_free, or NULL without memory. */
char *arena_results_header_text(const cJSON *run);
/* FNV-1a over n bytes, going on from h (ARENA_FNV1A_START for a new hash): the identity of a
 * run's deals list and of a one-file records' run. */
#define ARENA_FNV1A_PRIME 1099511628211u
#define ARENA_FNV1A_START 14695981039346656037u
uint64_t arena_results_fnv1a(uint64_t h, const void *data, size_t n);
/* Write a line of text and flush. 0, or -1 (errno says why: a full disk is an error). */
int arena_results_write_text(FILE *f, const char *text);
int arena_results_write_set(FILE *f, const arena_set_line_t *s, const char *const *names, const char *record);
/* Add an item made by a constructor (NULL when it could not be made) to an object: 0, or -1
 * (the item is freed). */
int arena_results_add(cJSON *o, const char *key, cJSON *item);
/* Add n numbers, keys[i] to values[i], in order: 0, or -1 when one could not be added. */
int arena_results_add_numbers(cJSON *o, const char *const *keys, const double *values, int n);

/* Compare a header line with the run expected: 0 when they mean the same (keys in any order),
 * else -1 with the first difference in words ("run.engines[1] (name 'b').options.bot is
 * \"random\" there, \"heuristic\" here"). */
int arena_results_compare_header(const char *line, const cJSON *run, char *why, size_t whylen);
/* The same for two run descriptions, the sides named in why ("... is 1 in 'a', 2 in 'b'" with
 * there_name "in 'a'" and here_name "in 'b'"). */
int arena_results_compare_run(const cJSON *there, const cJSON *here, const char *there_name, const char *here_name, char *why,
                        size_t whylen);
/* A whole number in [lo, hi] at o's key: 0, or -1 if absent, not a number, fractional or out of range. */
int arena_results_get_int(const cJSON *o, const char *key, int lo, int hi, int *out);

/* Read a results file: on_set for every set line (on_set returns 0, or -1 with a reason, which
 * stops the read: "line N of 'F': reason"). To resume (run given), its header must mean the same
 * run and a torn last line is cut off the file. Read-only, for a merge (run NULL), the header is
 * not compared (read it with arena_results_read_run), and a torn last line is left in the file
 * and its line number put in *torn (0: none). 0, or -1 with a reason. */
int arena_results_read(const char *path, const cJSON *run, long *torn, int (*on_set)(void *, const arena_set_line_t *, char *, size_t),
                       void *data, char *err, size_t errlen);
/* Read-only, for a merge: the run description of a results file's header (a new object to free
 * with cJSON_Delete), or NULL with a reason. */
cJSON *arena_results_read_run(const char *path, char *err, size_t errlen);

#endif
