/* arena_run: a picket-arena run, prepared and played (arena_run.h). */
#include "arena_run.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "text.h"
#include "arena_pool.h"
#include "arena_report.h"
#include "lines.h"

/* ---------------------------------------------------------------- deals */

/* -deals FILE: one seed a line; blank lines and # comments are skipped. */
static int load_deals(arena_run_t *a, char *err, size_t errlen)
{
    char why[300];
    FILE *f = lines_open(a->deals_path, why, sizeof why);
    if (!f)
        return text_fail(err, errlen, "-deals: cannot read %s", why);
    char line[256];
    size_t n_cap = 0;
    int len;
    long lineno = 0;
    int rc = 0;
    while (rc == 0 && (len = lines_read(f, line, sizeof line)) != LINES_EOF) {
        lineno++;
        if (len == LINES_TORN) /* a hand-written list may lack its last newline */
            len = (int)strlen(line);
        char *p = text_trim(line);
        if (len >= 0 && (!*p || *p == '#'))
            continue;
        uint64_t seed;
        if (len < 0) {
            rc = text_fail(err, errlen, "-deals: line %ld of '%.200s' %s", lineno, a->deals_path,
                             len == LINES_NUL ? "holds a NUL byte" : "is too long for a seed");
        } else if (text_u64(p, 0, UINT64_MAX, &seed) < 0) {
            char shown[48];
            text_quote(p, 40, shown, sizeof shown);
            rc = text_fail(err, errlen, "-deals: line %ld of '%.200s': '%s' is not a seed (0 to 18446744073709551615)", lineno,
                             a->deals_path, shown);
        } else if (a->n_deals == ARENA_MAX_DEALS) {
            rc = text_fail(err, errlen, "-deals: '%.200s' holds more than %d seeds", a->deals_path, ARENA_MAX_DEALS);
        } else {
            if ((size_t)a->n_deals == n_cap) {
                size_t want = n_cap ? 2 * n_cap : 256;
                uint64_t *grown = realloc(a->deals, want * sizeof *grown);
                if (!grown) {
                    rc = text_fail(err, errlen, "out of memory for the deals");
                    break;
                }
                a->deals = grown, n_cap = want;
            }
            a->deals[a->n_deals++] = seed;
        }
    }
    if (rc == 0 && ferror(f))
        rc = text_fail(err, errlen, "-deals: cannot read '%.200s': %s", a->deals_path, strerror(errno));
    fclose(f);
    if (rc == 0 && a->n_deals == 0)
        rc = text_fail(err, errlen, "-deals: '%.200s' holds no seed", a->deals_path);
    return rc;
}

/* -deals: the seeds read, and the rounds they allow (all of them unless -rounds says fewer). */
static int use_deals(arena_run_t *a, char *err, size_t errlen)
{
    if (load_deals(a, err, errlen) < 0)
        return -1;
    if (a->rounds_given && a->sc.rounds > a->n_deals)
        return text_fail(err, errlen, "-rounds %d asks for more rounds than the %d seeds of -deals '%.200s'", a->sc.rounds, a->n_deals,
                           a->deals_path);
    if (!a->rounds_given)
        a->sc.rounds = a->n_deals < 10000000 ? a->n_deals : 10000000;
    a->sc.deals = a->deals;
    return 0;
}

uint64_t arena_run_deals_hash(const uint64_t *d, int n)
{
    uint64_t h = ARENA_FNV1A_START;
    for (int i = 0; i < n; i++) {
        unsigned char b[8]; /* little-endian, whatever the machine */
        for (int k = 0; k < 8; k++)
            b[k] = (unsigned char)(d[i] >> (8 * k));
        h = arena_results_fnv1a(h, b, sizeof b);
    }
    return h;
}

/* ---------------------------------------------------------------- the run's meaning */

static cJSON *number_or_null(double v, int given) { return given ? cJSON_CreateNumber(v) : cJSON_CreateNull(); }

static cJSON *engine_json(const arena_spec_t *s)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    int timeout_counts = s->tc_base < 0 && s->st <= 0;
    /* Every add runs, so each item is owned by the object or freed. */
    int bad = arena_results_add(o, "name", cJSON_CreateString(s->name));
    bad |= arena_results_add(o, "cmd", cJSON_CreateString(s->argv[0]));
    bad |= arena_results_add(o, "args", cJSON_CreateStringArray((const char *const *)s->argv + 1, s->argc - 1));
    cJSON *opts = cJSON_AddObjectToObject(o, "options");
    bad |= !opts;
    for (int i = 0; opts && i < s->n_options; i++)
        bad |= !cJSON_AddStringToObject(opts, s->opt_name[i], s->opt_value[i]);
    bad |= arena_results_add(o, "dir", s->dir ? cJSON_CreateString(s->dir) : cJSON_CreateNull());
    cJSON *tc = s->tc_base >= 0 ? cJSON_AddObjectToObject(o, "tc") : cJSON_AddNullToObject(o, "tc");
    bad |= !tc || (s->tc_base >= 0 && arena_results_add_numbers(tc, (const char *[]){ "set", "inc" }, (double[]){ s->tc_base, s->tc_inc }, 2));
    bad |= arena_results_add(o, "st", number_or_null(s->st, s->st > 0));
    bad |= arena_results_add(o, "iterations", number_or_null((double)s->iterations, s->iterations > 0));
    bad |= arena_results_add(o, "timeout", number_or_null(s->timeout, timeout_counts));
    if (bad) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

/* What must be equal to resume a run: engines (command, arguments, folder, options, limits),
 * rules, schedule, deals, seed, margin, SPRT and shard. Without -shard there is no "shard" key,
 * so the results of a run from before shards still resume. */
static cJSON *run_json(const arena_run_t *a)
{
    cJSON *r = cJSON_CreateObject();
    if (!r)
        return NULL;
    char seed[24], hash[24];
    snprintf(seed, sizeof seed, "%" PRIu64, a->sc.seed);
    snprintf(hash, sizeof hash, "%016" PRIx64, a->deals ? arena_run_deals_hash(a->deals, a->sc.rounds) : 0);
    /* Every add runs, so each item is owned by the object or freed. */
    int bad = arena_results_add(r, "game", cJSON_CreateString(a->game->name));
    bad |= arena_results_add(r, "preset", cJSON_CreateString(a->cfg.preset));
    cJSON *flags = cJSON_AddObjectToObject(r, "flags");
    bad |= !flags;
    for (int i = 0; flags && i < a->cfg.n_flags; i++) {
        /* name=value, a later one for the same name replacing the earlier */
        char name[48];
        const char *eq = strchr(a->cfg.flags[i], '=');
        snprintf(name, sizeof name, "%.*s", (int)(eq - a->cfg.flags[i]), a->cfg.flags[i]);
        cJSON_DeleteItemFromObjectCaseSensitive(flags, name);
        bad |= !cJSON_AddStringToObject(flags, name, eq + 1);
    }
    bad |= arena_results_add(r, "players", cJSON_CreateNumber(a->sc.players));
    bad |= arena_results_add(r, "tournament", cJSON_CreateString(a->sc.round_robin ? "round-robin" : "gauntlet"));
    bad |= arena_results_add(r, "rounds", cJSON_CreateNumber(a->sc.rounds));
    bad |= arena_results_add(r, "duplicate", cJSON_CreateBool(a->sc.duplicate));
    bad |= arena_results_add(r, "seed", cJSON_CreateString(seed));
    cJSON *deals = a->deals ? cJSON_AddObjectToObject(r, "deals") : cJSON_AddNullToObject(r, "deals");
    bad |= !deals || (a->deals && (!cJSON_AddNumberToObject(deals, "count", a->sc.rounds) || !cJSON_AddStringToObject(deals, "fnv1a", hash)));
    bad |= arena_results_add(r, "margin_ms", cJSON_CreateNumber(floor(a->margin * 1000 + 0.5)));
    cJSON *sprt = a->use_sprt ? cJSON_AddObjectToObject(r, "sprt") : cJSON_AddNullToObject(r, "sprt");
    bad |= !sprt || (a->use_sprt && arena_results_add_numbers(sprt, (const char *[]){ "elo0", "elo1", "alpha", "beta" },
                                                              (double[]){ a->sprt.elo0, a->sprt.elo1, a->sprt.alpha, a->sprt.beta }, 4));
    cJSON *engines = cJSON_AddArrayToObject(r, "engines");
    bad |= !engines;
    for (int e = 0; engines && e < a->sc.n_engines; e++) {
        cJSON *one = engine_json(&a->engines[e]);
        if (!one || !cJSON_AddItemToArray(engines, one))
            bad = 1, cJSON_Delete(one);
    }
    /* A shard as the header holds it: {"index":I,"count":N}. */
    cJSON *shard = a->shard_count > 1 ? cJSON_AddObjectToObject(r, "shard") : NULL;
    if (a->shard_count > 1)
        bad |= !shard || arena_results_add_numbers(shard, (const char *[]){ "index", "count" }, (double[]){ a->shard_index, a->shard_count }, 2);
    if (bad) {
        cJSON_Delete(r);
        return NULL;
    }
    return r;
}

/* ---------------------------------------------------------------- sets read back */

void arena_run_set_name(arena_set_key_t k, char *buf, size_t len)
{
    snprintf(buf, len, "pairing %d round %d leg %d", k.pairing, k.round, k.leg);
}

int arena_run_check_set(const arena_run_t *a, const arena_set_line_t *s, char *why, size_t whylen)
{
    char name[96];
    arena_run_set_name(s->key, name, sizeof name);
    if (!arena_schedule_has(&a->sc, s->key) || s->result.players != a->sc.players)
        return text_fail(why, whylen, "%s at %d seats is not a set of this run", name, s->result.players);
    int job = arena_schedule_job_index(&a->sc, s->key), in = arena_schedule_shard_of(&a->sc, job, a->shard_count);
    if (in != a->shard_index)
        return text_fail(why, whylen, "%s is not a set of shard %d/%d (it is in shard %d)", name, a->shard_index, a->shard_count, in);
    int engine[GAME_MAX_PLAYERS];
    arena_schedule_seats(&a->sc, s->key, engine);
    for (int i = 0; i < a->sc.players; i++)
        if (engine[i] != s->engine[i] || s->engine_seed[i] != arena_schedule_engine_seed(&a->sc, s->key, i))
            return text_fail(why, whylen, "seat %d of %s is not this run's engine or seed", i, name);
    if (!a->deals_from_lines && s->deal_seed != arena_schedule_deal_seed(&a->sc, s->key.round))
        return text_fail(why, whylen, "round %d was dealt with another seed", s->key.round);
    return job;
}

int arena_run_appears_twice(const arena_set_line_t *s, char *why, size_t whylen)
{
    char name[96];
    arena_run_set_name(s->key, name, sizeof name);
    return text_fail(why, whylen, "%s appears twice", name);
}

/* A set line of the results file being resumed. */
static int on_resumed(void *data, const arena_set_line_t *s, char *why, size_t whylen)
{
    arena_run_t *a = data;
    int job = arena_run_check_set(a, s, why, whylen);
    if (job < 0)
        return -1;
    arena_run_job_t *j = &a->jobs[arena_schedule_shard_slot(&a->sc, job, a->shard_count)];
    if (j->done)
        return arena_run_appears_twice(s, why, whylen);
    j->done = 1;
    a->done_count++;
    a->resumed_count++;
    arena_schedule_tally(&a->sc, s);
    return 0;
}

/* Whether the results being resumed count the set of key k (arena_records_check). */
static int counted(void *data, arena_set_key_t k)
{
    const arena_run_t *a = data;
    if (!arena_schedule_has(&a->sc, k))
        return 0;
    int job = arena_schedule_job_index(&a->sc, k);
    return arena_schedule_shard_of(&a->sc, job, a->shard_count) == a->shard_index &&
           a->jobs[arena_schedule_shard_slot(&a->sc, job, a->shard_count)].done;
}

/* ---------------------------------------------------------------- prepare */

/* Start every engine once, handshake and set its options, before any set or file. */
static int probe_engines(arena_run_t *a, char *err, size_t errlen)
{
    for (int e = 0; e < a->sc.n_engines; e++) {
        arena_engine_t p = { .log = a->log.f ? &a->log : NULL, .instance = 0, .abort = a->interrupted };
        char why[400];
        if (!a->quiet && a->tty)
            fprintf(stderr, "\rpicket-arena: checking engine %d of %d (%s)   ", e + 1, a->sc.n_engines, a->names[e]);
        int rc = arena_engine_start(&p, &a->engines[e], a->game->name, why, sizeof why);
        arena_engine_stop(&p);
        if (rc < 0) {
            if (!a->quiet && a->tty)
                fputc('\n', stderr);
            return text_fail(err, errlen, "engine '%s': %s", a->names[e], *a->interrupted ? "interrupted" : why);
        }
    }
    if (!a->quiet && a->tty)
        fprintf(stderr, "\r%60s\r", "");
    return 0;
}

int arena_run_prepare(arena_run_t *a, char *err, size_t errlen)
{
    if (a->deals_path && use_deals(a, err, errlen) < 0)
        return -1;
    /* The rules and the number of seats must build before any engine starts. */
    a->cfg.players = a->players_asked;
    referee_t *rules = referee_create(a->game, &a->cfg, err, errlen);
    if (!rules)
        return -1;
    a->sc.players = a->cfg.players = referee_players(rules);
    referee_free(rules);
    if (a->sc.players < 2 || a->sc.players > a->sc.n_engines)
        return text_fail(err, errlen, "%s at %d seats needs at least %d engines (-engine), not %d", a->game->name, a->sc.players,
                           a->sc.players < 2 ? 2 : a->sc.players, a->sc.n_engines);
    if (a->use_sprt && a->sc.players != 2)
        return text_fail(err, errlen, "-sprt needs a two-seat game");
    if (!a->cfg.preset[0] && a->game == game_find("picket"))
        snprintf(a->cfg.preset, sizeof a->cfg.preset, "cotgrave");
    if (arena_schedule_build(&a->sc, err, errlen) < 0)
        return -1;
    a->n_jobs = arena_schedule_shard_jobs(&a->sc, a->shard_index, a->shard_count);
    /* one more than the jobs: a shard may hold none (more shards than rotation groups) */
    if (!(a->jobs = calloc((size_t)a->n_jobs + 1, sizeof *a->jobs)) || !(a->run = run_json(a)))
        return text_fail(err, errlen, "out of memory for the schedule");
    for (int k = 0; k < a->n_jobs; k++)
        a->jobs[k].key = arena_schedule_job_key(&a->sc, arena_schedule_shard_job(&a->sc, a->shard_index, a->shard_count, k));
    /* The files: checked now, written only once the engines have passed. */
    struct stat st;
    /* -resume of a run killed before its first line was written starts it afresh. */
    int fresh = 1;
    if (a->results_path) {
        if (lines_is_regular(a->results_path, err, errlen) < 0)
            return text_fail(err, errlen, "-results: cannot write '%.200s': not a regular file", a->results_path);
        fresh = stat(a->results_path, &st) < 0 || st.st_size == 0;
        if (!fresh && !a->resume)
            return text_fail(err, errlen, "'%.200s' already holds results: add -resume to continue that run, or choose another file",
                             a->results_path);
        if (!fresh && arena_results_read(a->results_path, a->run, NULL, on_resumed, a, err, errlen) < 0)
            return -1;
    }
    int create_records = 0;
    if (a->records.path && arena_records_check(&a->records, a->resume, a->run, counted, a, &create_records, err, errlen) < 0)
        return -1;
    if (a->log_path) {
        if (!(a->log.f = fopen(a->log_path, "a")))
            return text_fail(err, errlen, "-log: cannot write '%.200s': %s", a->log_path, strerror(errno));
        pthread_mutex_init(&a->log.lock, NULL);
        a->log.t0 = a->started;
    }
    if (probe_engines(a, err, errlen) < 0)
        return -1;
    char *header = arena_results_header_text(a->run);
    if (!header)
        return text_fail(err, errlen, "out of memory");
    int rc = 0;
    if (a->results_path) {
        a->results = fopen(a->results_path, fresh ? "w" : "a");
        if (!a->results || (fresh && arena_results_write_text(a->results, header) < 0))
            rc = text_fail(err, errlen, "cannot write the results file '%.200s': %s", a->results_path, strerror(errno));
    }
    if (rc == 0 && a->records.path && arena_records_open(&a->records, create_records, header, a->run, err, errlen) < 0)
        rc = -1;
    cJSON_free(header);
    return rc;
}

/* ---------------------------------------------------------------- play */

double arena_run_sprt_llr(const arena_run_t *a) { return arena_stats_sprt_llr(&a->sc.pair_counts[0], &a->sprt); }

/* The SPRT has decided (from the counts as they stand). */
static int sprt_decides(const arena_run_t *a)
{
    double llr = arena_run_sprt_llr(a);
    return llr >= arena_stats_sprt_upper(&a->sprt) || llr <= arena_stats_sprt_lower(&a->sprt);
}

/* The run stops with an error (lock held): the first reason is kept. */
static void fail_run(arena_run_t *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail_run(arena_run_t *a, const char *fmt, ...)
{
    if (!a->failure[0]) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(a->failure, sizeof a->failure, fmt, ap);
        va_end(ap);
    }
    a->stop = 1;
}

/* A set's faults, on the console as they happen, and the rule of -maxfaults (lock held). */
static void note_faults(arena_run_t *a, const arena_set_line_t *line)
{
    const arena_set_result_t *r = &line->result;
    for (int seat = 0; seat < r->players; seat++) {
        int e = line->engine[seat];
        if (seat != r->fault_seat) {
            a->fault_run[e] = 0;
            continue;
        }
        a->fault_run[e]++;
        fprintf(stderr, "%spicket-arena: round %d pairing %d leg %d: %s loses by %s: %s\n", a->tty && !a->quiet ? "\n" : "",
                line->key.round, line->key.pairing, line->key.leg, a->names[e], END_REASON_NAMES[r->reason], r->detail);
        if (a->recover)
            continue;
        if (r->reason == END_START)
            fail_run(a, "engine '%s' cannot be restarted (%s); stopping (-recover plays on)", a->names[e], r->detail);
        else if (a->fault_run[e] >= a->max_faults)
            fail_run(a, "engine '%s' faulted in %d sets in a row (last: %s); stopping (-maxfaults N, or -recover to play on)",
                     a->names[e], a->fault_run[e], END_REASON_NAMES[r->reason]);
    }
}

/* What a set keeps between begin_set and end_set (the pool's memory of the set). */
typedef struct run_set {
    arena_set_line_t line;
    arena_records_set_t rec;
} run_set_t;

/* The pool's calls (arena_pool.h). The next job not yet done, until the run stops. */
static int take_set(void *data)
{
    arena_run_t *a = data;
    while (a->next_job < a->n_jobs && a->jobs[a->next_job].done)
        a->next_job++;
    if (a->stop || *a->interrupted || a->next_job >= a->n_jobs)
        return -1;
    return a->next_job++;
}

static void begin_set(void *data, arena_pool_set_t *s)
{
    arena_run_t *a = data;
    run_set_t *rs = s->mine;
    arena_set_key_t key = a->jobs[s->job].key;
    arena_set_line_t *line = &rs->line;
    line->key = key;
    arena_schedule_seats(&a->sc, key, line->engine);
    arena_set_setup_t *setup = &s->setup;
    *setup = (arena_set_setup_t){ .game = a->game, .cfg = a->cfg, .margin = a->margin };
    setup->cfg.deal_seed = line->deal_seed = arena_schedule_deal_seed(&a->sc, key.round);
    for (int seat = 0; seat < a->sc.players; seat++) {
        s->engine[seat] = line->engine[seat];
        setup->engine_seed[seat] = line->engine_seed[seat] = arena_schedule_engine_seed(&a->sc, key, seat);
    }
    arena_records_set_open(&a->records, key, &rs->rec);
    setup->record = rs->rec.f;
    snprintf(setup->record_note, sizeof setup->record_note, "set pairing %d round %d leg %d", key.pairing, key.round, key.leg);
}

static int end_set(void *data, arena_pool_set_t *s)
{
    arena_run_t *a = data;
    run_set_t *rs = s->mine;
    arena_set_line_t *line = &rs->line;
    line->result = s->result;
    int keep = line->result.reason != END_INTERRUPTED;
    /* A set counts (its results line) only once its record is on disk: a set whose record could
     * not be written is not a result, and -resume plays it again. */
    if (arena_records_set_close(&a->records, &rs->rec, keep) < 0) {
        fail_run(a, "cannot write the records '%.200s': %s", rs->rec.path, strerror(errno));
        return -1;
    }
    if (!keep)
        return -1; /* a set cut short by the operator is not a result: -resume plays it again */
    if (a->results && arena_results_write_set(a->results, line, a->names, rs->rec.path[0] ? rs->rec.path : NULL) < 0)
        fail_run(a, "cannot write the results file '%.200s': %s", a->results_path, strerror(errno));
    a->jobs[s->job].done = 1;
    a->done_count++;
    arena_schedule_tally(&a->sc, line);
    note_faults(a, line);
    if (a->use_sprt && !a->sprt_decided && sprt_decides(a)) {
        a->sprt_decided = 1;
        a->stop = 1;
    }
    int every = a->rating_interval > 0 ? a->rating_interval : a->n_jobs / 20 > 0 ? a->n_jobs / 20 : 1;
    if (a->tty || a->done_count % every == 0) {
        arena_report_progress(a, 0);
        a->progress_at = a->done_count;
    }
    return 0;
}

int arena_run_play(arena_run_t *a)
{
    if (a->use_sprt && sprt_decides(a))
        a->sprt_decided = a->sprt_decided_before = a->stop = 1;
    if (!a->quiet) {
        char shard[64] = "";
        if (a->shard_count > 1)
            snprintf(shard, sizeof shard, " of the %d of shard %d/%d", a->n_jobs, a->shard_index, a->shard_count);
        if (a->sprt_decided_before)
            fprintf(stderr, "picket-arena: the SPRT of this run has already decided: nothing to play\n");
        else
            fprintf(stderr, "picket-arena: %d engines, %d table%s, %d sets to play%s%s, concurrency %d\n", a->sc.n_engines,
                    a->sc.n_tables, a->sc.n_tables == 1 ? "" : "s", a->n_jobs - a->done_count, shard,
                    a->resumed_count ? " (resumed)" : "", a->concurrency);
    }
    arena_pool_t pool = { .n_engines = a->sc.n_engines, .specs = a->engines, .log = a->log.f ? &a->log : NULL,
                          .abort = a->interrupted, .set_size = sizeof(run_set_t), .data = a,
                          .take = take_set, .begin = begin_set, .end = end_set };
    int rc = arena_pool_run(&pool, a->concurrency);
    if (rc != ARENA_POOL_OK)
        return rc;
    if (a->tty || a->progress_at != a->done_count) /* not the line just printed, again */
        arena_report_progress(a, 1);
    if (a->results && fclose(a->results) != 0)
        fail_run(a, "cannot write the results file '%.200s': %s", a->results_path, strerror(errno));
    a->results = NULL;
    if (arena_records_close(&a->records) < 0)
        fail_run(a, "cannot write the records '%.200s': %s", a->records.path, strerror(errno));
    if (a->log.f && (fclose(a->log.f) != 0 || a->log.failed))
        fail_run(a, "cannot write the log '%.200s'", a->log_path);
    a->log.f = NULL;
    return ARENA_POOL_OK;
}

void arena_run_free(arena_run_t *a)
{
    if (a->results)
        fclose(a->results);
    if (a->log.f)
        fclose(a->log.f);
    arena_records_close(&a->records);
    free(a->jobs);
    arena_schedule_free(&a->sc);
    cJSON_Delete(a->run);
    free(a->deals);
    for (int e = 0; e < a->sc.n_engines; e++)
        arena_spec_free(&a->engines[e]);
}
