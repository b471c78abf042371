/* arena_run: one picket-arena run, from its options to its last set (docs/arena.md).
 *
 * The run's state: what the command line asked for, the schedule and its tallies, the jobs of
 * this shard and which are done, the open results, records and log. Preparing a run checks
 * everything that can be checked before the first set (rules, seats, schedule, files, every
 * engine started once) and writes nothing until all of it passes; playing it hands the jobs to
 * the worker pool (arena_pool.h), writes every set the moment it ends, and stops on the first
 * write error, on -maxfaults, on the SPRT's decision or on the operator's interrupt. A run
 * never prints its standings (arena_report.h) and never parses a command line. */
#ifndef PICKET_ARENA_RUN_H
#define PICKET_ARENA_RUN_H

#include <cjson/cJSON.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "arena_match.h"
#include "arena_records.h"
#include "arena_results.h"
#include "arena_schedule.h"
#include "arena_stats.h"
#include "game.h"

enum { ARENA_MAX_ENGINES = SCHEDULE_MAX_ENGINES, ARENA_MAX_SHARDS = 100000, ARENA_MAX_DEALS = 10000000 };

typedef struct arena_run_job {
    arena_set_key_t key;
    int done;
} arena_run_job_t;

typedef struct arena_run {
    /* configuration */
    arena_spec_t engines[ARENA_MAX_ENGINES];
    const char *names[ARENA_MAX_ENGINES];
    const game_t *game;
    game_config_t cfg;
    int concurrency, quiet, resume, use_sprt, rounds_given, max_faults, recover, rating_interval;
    double margin;
    arena_sprt_t sprt;
    const char *results_path, *log_path, *deals_path;
    arena_records_t records;       /* -records PATH */
    uint64_t *deals;               /* -deals FILE's seeds (n_deals of them) */
    int n_deals;
    int players_asked;             /* -players (0: the game's own) */
    int shard_index, shard_count;  /* -shard I/N (count 1: the whole run); jobs[] holds its slots */
    int deals_from_lines;          /* -merge of a run with -deals: the deal seeds come from the set
                                    * lines, checked against run.deals.fnv1a */
    arena_schedule_t sc;           /* tables, seats, seeds and tallies (arena_schedule.h) */
    cJSON *run;                    /* the run's meaning, as the results header holds it */
    const volatile sig_atomic_t *interrupted; /* the operator's: 1 finish the sets in flight, 2 stop now */
    /* jobs and results */
    arena_run_job_t *jobs;         /* the shard's jobs (all of the run's without -shard), by slot */
    int n_jobs, next_job, done_count, resumed_count;
    int progress_at;               /* done_count at the last progress line printed */
    int stop, sprt_decided, sprt_decided_before;
    int fault_run[ARENA_MAX_ENGINES]; /* faults of each engine in its latest sets, in a row */
    char failure[600];             /* why the run stopped with an error ("" if it did not) */
    FILE *results;
    arena_log_t log;
    double started;                /* measure_now() when the run began */
    int tty;                       /* stderr is a terminal: progress on one line */
} arena_run_t;

/* Everything between the options and the first set: -deals read, rules and seats built, the
 * schedule and this shard's jobs, the files checked (and -resume's sets read back), every
 * engine started and checked once, then the files opened. The options must be set (a->game,
 * a->cfg, a->sc's fields, ...). 0, or -1 with a reason: then nothing has been written. */
int arena_run_prepare(arena_run_t *a, char *err, size_t errlen);

/* Play the prepared run: a line on what is to be played, the sets on a->concurrency workers,
 * progress, and at the end the files closed (a write error lands in a->failure). Returns
 * ARENA_POOL_OK, or the pool's error when no set could be played. */
int arena_run_play(arena_run_t *a);

/* The SPRT's log-likelihood ratio from the counts as they stand (two engines). */
double arena_run_sprt_llr(const arena_run_t *a);

/* A set line read back (-resume, -merge): one of this schedule's sets, in the shard being read
 * (a->shard_index of a->shard_count), with its engines and seeds. Its job number, or -1 with a
 * reason. */
int arena_run_check_set(const arena_run_t *a, const arena_set_line_t *s, char *why, size_t whylen);
/* The reason for a set line read twice: always -1. */
int arena_run_appears_twice(const arena_set_line_t *s, char *why, size_t whylen);
/* "pairing P round R leg L". */
void arena_run_set_name(arena_set_key_t k, char *buf, size_t len);
/* FNV-1a over the deal seeds: the deals list's identity in the header. */
uint64_t arena_run_deals_hash(const uint64_t *d, int n);

/* Free what the run holds and close any file still open. */
void arena_run_free(arena_run_t *a);

#endif
