/* arena_schedule: who plays whom, in which seat, on which deals, and the tallies of what
 * happened (docs/arena.md).
 *
 * A table is the engines that play together (two seats: a pairing). Each round deals one
 * sequence to every table; with rotation (duplicate) each sequence is played once per seat
 * rotation, so every engine of a table sits in every seat of the same deals. Jobs are numbered
 * round by round, table by table, leg by leg, and a set's seats and seeds follow from its key
 * alone, so a resumed run plays exactly what an unbroken one would. The tallies hold the
 * standings: per engine, and per pair (two seats) or pairwise over rotation groups (N seats).
 *
 * A run can be cut into N shards (-shard I/N), played apart and merged: shard I holds the
 * rotation groups g (the legs of one round at one table, jobs g*legs .. g*legs+legs-1) with
 * g mod N = I, so the shards differ by one group at most and each keeps its pairs whole. A
 * shard's jobs are numbered 0, 1, ... in schedule order (its slots).
 */
#ifndef PICKET_ARENA_SCHEDULE_H
#define PICKET_ARENA_SCHEDULE_H

#include <stdint.h>

#include "arena_results.h"
#include "arena_stats.h"

enum { SCHEDULE_MAX_ENGINES = 64, SCHEDULE_MAX_TABLES = 4096 };

typedef struct arena_schedule {
    /* what the run asks for */
    int n_engines, players, rounds, duplicate, round_robin;
    uint64_t seed;
    const uint64_t *deals;          /* -deals: round r's deal seed is deals[r] (NULL: from seed) */
    /* the tables, by position */
    int table[SCHEDULE_MAX_TABLES][GAME_MAX_PLAYERS];
    int n_tables, n_jobs;
    /* tallies */
    int8_t *leg_rank;               /* [table][round][leg][position]: rank of the engine there
                                     * (two seats: position 0 holds the first engine's half
                                     * points); -1 until that set is in */
    arena_score_counts_t pair_counts[SCHEDULE_MAX_TABLES]; /* two seats: the table's first engine's side */
    long wins[SCHEDULE_MAX_ENGINES], losses[SCHEDULE_MAX_ENGINES], ties[SCHEDULE_MAX_ENGINES];
    long sets[SCHEDULE_MAX_ENGINES];
    double points[SCHEDULE_MAX_ENGINES], rank_sum[SCHEDULE_MAX_ENGINES], score_sum[SCHEDULE_MAX_ENGINES];
    /* more than two seats: row ahead of column over rotation groups (sum, sum of squares, n) */
    double pw_sum[SCHEDULE_MAX_ENGINES][SCHEDULE_MAX_ENGINES], pw_sq[SCHEDULE_MAX_ENGINES][SCHEDULE_MAX_ENGINES];
    long pw_n[SCHEDULE_MAX_ENGINES][SCHEDULE_MAX_ENGINES];
    long faults[END_COUNT];
    /* two seats, a game that settles points (a Picket partie): the row's points against the
     * column over units (duplicate: both legs of a pair together; else one set), sum, sum of
     * squares and count; the first engine's points by leg until its pair is in */
    int *leg_settled;
    double st_sum[SCHEDULE_MAX_ENGINES][SCHEDULE_MAX_ENGINES], st_sq[SCHEDULE_MAX_ENGINES][SCHEDULE_MAX_ENGINES];
    long st_n[SCHEDULE_MAX_ENGINES][SCHEDULE_MAX_ENGINES];
    double settled_sum[SCHEDULE_MAX_ENGINES];
    long settled_sets[SCHEDULE_MAX_ENGINES];
} arena_schedule_t;

/* The tables and the tallies' memory, once the fields above "tables" are set. 0, or -1 with a
 * reason (too many tables or sets, no memory). */
int arena_schedule_build(arena_schedule_t *sc, char *err, size_t errlen);
void arena_schedule_free(arena_schedule_t *sc);

/* The job number of a key (round by round, table by table, leg by leg), and back. */
int arena_schedule_job_index(const arena_schedule_t *sc, arena_set_key_t k);
arena_set_key_t arena_schedule_job_key(const arena_schedule_t *sc, int job);
/* 1 if the key is one of this schedule's. */
int arena_schedule_has(const arena_schedule_t *sc, arena_set_key_t k);
uint64_t arena_schedule_deal_seed(const arena_schedule_t *sc, int round);
/* An engine's own seed for a seat of a set: never the deal seed, and keyed (rng_keyed) so that it
 * does not lead back to the run's seed and so to the deals. */
uint64_t arena_schedule_engine_seed(const arena_schedule_t *sc, arena_set_key_t k, int seat);
/* The engine index at each seat of a set. */
void arena_schedule_seats(const arena_schedule_t *sc, arena_set_key_t k, int *engine);

/* Shards of count N (1: the whole run): which shard a job is in, how many jobs a shard holds,
 * and a job's slot in its shard and back. */
int arena_schedule_shard_of(const arena_schedule_t *sc, int job, int count);
int arena_schedule_shard_jobs(const arena_schedule_t *sc, int index, int count);
int arena_schedule_shard_slot(const arena_schedule_t *sc, int job, int count);
int arena_schedule_shard_job(const arena_schedule_t *sc, int index, int count, int slot);

/* Count one finished set. */
void arena_schedule_tally(arena_schedule_t *sc, const arena_set_line_t *s);
/* Two seats: the units (pairs, or sets) an engine played, from its side: all of them (against
 * -1), or those against one other engine. */
arena_score_counts_t arena_schedule_engine_counts(const arena_schedule_t *sc, int e, int against);
/* N seats: the row engine's score against the column over rotation groups, with its 95%
 * interval [lo, hi]. Returns the number of groups. */
long arena_schedule_pairwise(const arena_schedule_t *sc, int r, int c, double *mean, double *lo, double *hi);
/* Two seats, settled points: the row engine's mean points a unit against the column (c -1: all
 * its units), with its 95% interval. Returns the number of units. */
long arena_schedule_settled(const arena_schedule_t *sc, int r, int c, double *mean, double *lo, double *hi);

#endif
