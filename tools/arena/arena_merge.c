/* arena_merge: the shards of one run merged into its standings (arena_merge.h). */
#include "arena_merge.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"
#include "arena_report.h"

/* One set of a merge, as much as its tally needs: the standings of a merge are tallied in the
 * schedule's order, so they are those of an unsharded run whatever order the files come in. */
typedef struct merged_set {
    int scores[GAME_MAX_PLAYERS];
    int settled[GAME_MAX_PLAYERS];
    int8_t rank[GAME_MAX_PLAYERS];
    uint8_t reason, present, has_settled;
} merged_set_t;

typedef struct merge {
    arena_run_t *a;
    int n_files;
    const char *const *files;
    cJSON **runs;               /* each file's run description, its "shard" taken out */
    int *index;                 /* each file's shard index */
    int count;                  /* the shards' count (1: one file holds the whole run) */
    merged_set_t *sets;         /* by job */
    unsigned char *dealt;       /* deals_from_lines: a->deals[round] is known */
} merge_t;

/* "shard I/N", or "the whole run" for a file of a run without -shard. */
static void shard_name(int index, int count, char *buf, size_t len)
{
    if (count > 1)
        snprintf(buf, len, "shard %d/%d", index, count);
    else
        snprintf(buf, len, "the whole run");
}

/* The text at o's key, or NULL if it is absent or not a string. */
static const char *text_at(const cJSON *o, const char *key) { return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, key)); }

/* Take the shard out of a run description: 0 with *index, *count (0 and 1 without one), or -1. */
static int take_shard(cJSON *run, int *index, int *count)
{
    cJSON *shard = cJSON_DetachItemFromObjectCaseSensitive(run, "shard");
    *index = 0, *count = 1;
    int ok = !shard || (!arena_results_get_int(shard, "count", 2, ARENA_MAX_SHARDS, count) &&
                        !arena_results_get_int(shard, "index", 0, *count - 1, index) && cJSON_GetArraySize(shard) == 2);
    cJSON_Delete(shard);
    return ok ? 0 : -1;
}

/* The schedule of a run from its description (the first file's): engines' names, game, seats,
 * tournament, rounds, rotation, seed and deals. 0, or -1 with a reason. */
static int merge_schedule(arena_run_t *a, const cJSON *run, const char *path, char *err, size_t errlen)
{
    const char *game = text_at(run, "game"), *tournament = text_at(run, "tournament"), *seed = text_at(run, "seed");
    const cJSON *duplicate = cJSON_GetObjectItemCaseSensitive(run, "duplicate");
    const cJSON *deals = cJSON_GetObjectItemCaseSensitive(run, "deals");
    const cJSON *engines = cJSON_GetObjectItemCaseSensitive(run, "engines");
    const char *bad = NULL;
    if (!game || !(a->game = game_find(game)))
        bad = "game";
    else if (arena_results_get_int(run, "players", 2, GAME_MAX_PLAYERS, &a->sc.players) < 0)
        bad = "players";
    else if (arena_results_get_int(run, "rounds", 1, 10000000, &a->sc.rounds) < 0)
        bad = "rounds";
    else if (!tournament || (strcmp(tournament, "gauntlet") && strcmp(tournament, "round-robin")))
        bad = "tournament";
    else if (!cJSON_IsBool(duplicate))
        bad = "duplicate";
    else if (!seed || text_u64(seed, 0, UINT64_MAX, &a->sc.seed) < 0)
        bad = "seed";
    else if (!cJSON_IsArray(engines) || cJSON_GetArraySize(engines) < a->sc.players || cJSON_GetArraySize(engines) > ARENA_MAX_ENGINES)
        bad = "engines";
    else if (!cJSON_IsNull(deals) &&
             (arena_results_get_int(deals, "count", a->sc.rounds, a->sc.rounds, &a->n_deals) < 0 || !text_at(deals, "fnv1a")))
        bad = "deals";
    for (int e = 0; !bad && e < cJSON_GetArraySize(engines); e++)
        if (!(a->names[a->sc.n_engines++] = text_at(cJSON_GetArrayItem(engines, e), "name")))
            bad = "engines";
    if (bad)
        return text_fail(err, errlen, "'%.200s': the run's %s is missing or not one this picket-arena plays", path, bad);
    a->sc.round_robin = !strcmp(tournament, "round-robin");
    a->sc.duplicate = cJSON_IsTrue(duplicate);
    a->deals_from_lines = !cJSON_IsNull(deals);
    if (a->deals_from_lines && !(a->deals = calloc((size_t)a->n_deals, sizeof *a->deals)))
        return text_fail(err, errlen, "out of memory for the deals");
    return arena_schedule_build(&a->sc, err, errlen);
}

/* Every file's header: one run, each shard 0..N-1 exactly once. 0, or -1 with a reason. */
static int merge_headers(merge_t *m, char *err, size_t errlen)
{
    char why[600], here[300], there[300], sa[48], sb[48];
    for (int k = 0; k < m->n_files; k++) {
        int count;
        if (!(m->runs[k] = arena_results_read_run(m->files[k], err, errlen)))
            return -1;
        if (take_shard(m->runs[k], &m->index[k], &count) < 0)
            return text_fail(err, errlen, "'%.200s': the run's shard is not {\"index\":I,\"count\":N} with 0 <= I < N <= %d", m->files[k],
                               ARENA_MAX_SHARDS);
        if (k == 0)
            m->count = count;
        snprintf(there, sizeof there, "in '%.200s'", m->files[k]);
        snprintf(here, sizeof here, "in '%.200s'", m->files[0]);
        if (arena_results_compare_run(m->runs[k], m->runs[0], there, here, why, sizeof why) < 0)
            return text_fail(err, errlen, "'%.200s' and '%.200s' are not shards of one run: %s", m->files[0], m->files[k], why);
        if (count != m->count) {
            shard_name(m->index[0], m->count, sa, sizeof sa), shard_name(m->index[k], count, sb, sizeof sb);
            return text_fail(err, errlen, "'%.200s' holds %s, '%.200s' %s: not shards of one run", m->files[0], sa, m->files[k], sb);
        }
    }
    int *owner = calloc((size_t)m->count, sizeof *owner); /* each shard's file k, as k + 1 (0: none) */
    if (!owner)
        return text_fail(err, errlen, "out of memory for the shards");
    int rc = 0;
    for (int k = 0; rc == 0 && k < m->n_files; k++) {
        int *o = &owner[m->index[k]];
        if (*o) {
            shard_name(m->index[k], m->count, sa, sizeof sa);
            rc = text_fail(err, errlen, "%s is given twice: '%.200s' and '%.200s'", sa, m->files[*o - 1], m->files[k]);
        }
        *o = k + 1;
    }
    for (int i = 0; rc == 0 && i < m->count; i++)
        if (!owner[i])
            rc = text_fail(err, errlen, "shard %d/%d is missing: no file given holds it", i, m->count);
    free(owner);
    return rc;
}

/* A set line of a file being merged (a->shard_index is that file's shard). */
static int on_merged(void *data, const arena_set_line_t *s, char *why, size_t whylen)
{
    merge_t *m = data;
    arena_run_t *a = m->a;
    int job = arena_run_check_set(a, s, why, whylen);
    if (job < 0)
        return -1;
    merged_set_t *ms = &m->sets[job];
    if (ms->present)
        return arena_run_appears_twice(s, why, whylen);
    int r = s->key.round;
    if (a->deals_from_lines) {
        if (m->dealt[r] && a->deals[r] != s->deal_seed)
            return text_fail(why, whylen, "round %d was dealt with another seed than in an earlier set", r);
        a->deals[r] = s->deal_seed;
        m->dealt[r] = 1;
    }
    ms->present = 1;
    ms->reason = (uint8_t)s->result.reason;
    ms->has_settled = (uint8_t)s->result.has_settled;
    for (int i = 0; i < s->result.players && i < GAME_MAX_PLAYERS; i++) {
        ms->rank[i] = (int8_t)s->result.rank[i];
        ms->scores[i] = s->result.scores[i];
        ms->settled[i] = s->result.settled[i];
    }
    return 0;
}

/* Every set of every file: in its file's shard, each once, none missing, then tallied in the
 * schedule's order. Files are only read. 0, or -1 with a reason. */
static int merge_sets(merge_t *m, char *err, size_t errlen)
{
    arena_run_t *a = m->a;
    char sa[48];
    if (!(m->sets = calloc((size_t)a->sc.n_jobs + 1, sizeof *m->sets)) || !(m->dealt = calloc((size_t)a->sc.rounds, 1)))
        return text_fail(err, errlen, "out of memory for the sets");
    a->shard_count = m->count;
    for (int k = 0; k < m->n_files; k++) {
        long torn;
        a->shard_index = m->index[k];
        if (arena_results_read(m->files[k], NULL, &torn, on_merged, m, err, errlen) < 0)
            return -1;
        if (torn) {
            shard_name(m->index[k], m->count, sa, sizeof sa);
            return text_fail(err, errlen, "%s in '%.200s' is incomplete: its last line (line %ld) is torn, as by a kill during a write; "
                               "complete it with -resume", sa, m->files[k], torn);
        }
    }
    for (int job = 0; job < a->sc.n_jobs; job++) {
        if (m->sets[job].present)
            continue;
        int shard = arena_schedule_shard_of(&a->sc, job, m->count), k = 0, held = 0;
        while (m->index[k] != shard)
            k++;
        for (int j = 0; j < a->sc.n_jobs; j++)
            held += m->sets[j].present && arena_schedule_shard_of(&a->sc, j, m->count) == shard;
        char name[96];
        arena_run_set_name(arena_schedule_job_key(&a->sc, job), name, sizeof name);
        shard_name(shard, m->count, sa, sizeof sa);
        /* A run with an SPRT (never a shard: -shard refuses -sprt) may have stopped when its test
         * decided: -resume would play nothing more. */
        int sprt_run = !cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(m->runs[0], "sprt"));
        return text_fail(err, errlen, "%s in '%.200s' is incomplete: it lacks %s (it holds %d of its %d sets); %s", sa, m->files[k], name,
                           held, arena_schedule_shard_jobs(&a->sc, shard, m->count),
                           sprt_run ? "its SPRT may have stopped it, and a merge needs every set (its own report has its standings)"
                                    : "complete it with -resume");
    }
    if (a->deals_from_lines) {
        char hash[24];
        snprintf(hash, sizeof hash, "%016" PRIx64, arena_run_deals_hash(a->deals, a->n_deals));
        const char *want = text_at(cJSON_GetObjectItemCaseSensitive(m->runs[0], "deals"), "fnv1a");
        if (strcmp(hash, want))
            return text_fail(err, errlen, "the sets' deal seeds are not those of the run's -deals (run.deals.fnv1a %.20s, the sets' %s)",
                             want, hash);
    }
    for (int job = 0; job < a->sc.n_jobs; job++) {
        const merged_set_t *ms = &m->sets[job];
        arena_set_line_t line = { .key = arena_schedule_job_key(&a->sc, job) };
        arena_schedule_seats(&a->sc, line.key, line.engine);
        line.result.players = a->sc.players;
        line.result.reason = (arena_end_reason_t)ms->reason;
        line.result.has_settled = ms->has_settled;
        for (int i = 0; i < a->sc.players && i < GAME_MAX_PLAYERS; i++) {
            line.result.rank[i] = ms->rank[i];
            line.result.scores[i] = ms->scores[i];
            line.result.settled[i] = ms->settled[i];
        }
        arena_schedule_tally(&a->sc, &line);
    }
    a->done_count = a->n_jobs = a->sc.n_jobs;
    a->shard_index = 0, a->shard_count = 1;
    return 0;
}

int arena_merge_files(arena_run_t *a, const char *const *files, int n_files, char *err, size_t errlen)
{
    merge_t m = { .a = a, .n_files = n_files, .files = files };
    int rc = 2;
    if (!(m.runs = calloc((size_t)n_files, sizeof *m.runs)) || !(m.index = calloc((size_t)n_files, sizeof *m.index))) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    rc = 1;
    if (merge_headers(&m, err, errlen) < 0 || merge_schedule(a, m.runs[0], m.files[0], err, errlen) < 0)
        goto done;
    if (a->use_sprt && (a->sc.players != 2 || a->sc.n_engines != 2)) {
        snprintf(err, errlen, "-sprt needs a two-seat game with exactly two engines; '%.200s' holds %d engines at %d seats",
                 m.files[0], a->sc.n_engines, a->sc.players);
        rc = 2;
        goto done;
    }
    if (merge_sets(&m, err, errlen) < 0)
        goto done;
    arena_report_standings(a);
    printf("Merged: %d sets from %d file%s:", a->done_count, m.n_files, m.n_files > 1 ? "s" : "");
    for (int k = 0; k < m.n_files; k++)
        printf(" %s", m.files[k]);
    printf("\n");
    arena_report_sprt(a);
    rc = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        snprintf(err, errlen, "cannot write the standings: %s", strerror(errno));
        rc = 1;
    } else if (!a->quiet) {
        fprintf(stderr, "picket-arena: merged %d of %d shards: complete and disjoint\n", m.n_files, m.count);
    }
done:
    for (int k = 1; m.runs && k < m.n_files; k++)
        cJSON_Delete(m.runs[k]);
    a->run = m.runs ? m.runs[0] : NULL; /* the names point into it: freed with the run */
    free(m.runs), free(m.index), free(m.sets), free(m.dealt);
    return rc;
}
