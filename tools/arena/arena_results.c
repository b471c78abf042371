#include "arena_results.h"
#include "lines.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "text.h"

/* ---------------------------------------------------------------- writing */

char *arena_results_header_text(const cJSON *run)
{
    cJSON *o = cJSON_CreateObject();
    char *text = NULL;
    if (o && cJSON_AddStringToObject(o, "type", "run") && cJSON_AddNumberToObject(o, "format", RESULTS_FORMAT) &&
        !arena_results_add(o, "run", cJSON_Duplicate(run, 1)))
        text = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    return text;
}

uint64_t arena_results_fnv1a(uint64_t h, const void *data, size_t n)
{
    const unsigned char *b = data;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * ARENA_FNV1A_PRIME;
    return h;
}

int arena_results_write_text(FILE *f, const char *text)
{
    if (fputs(text, f) < 0 || fputc('\n', f) < 0 || fflush(f) != 0)
        return -1;
    return 0;
}

/* Seeds as strings: a double would lose digits. */
static cJSON *seed_array(const uint64_t *seeds, int n)
{
    char text[GAME_MAX_PLAYERS][24];
    const char *p[GAME_MAX_PLAYERS];
    for (int i = 0; i < n; i++) {
        p[i] = text[i];
        snprintf(text[i], sizeof text[i], "%" PRIu64, seeds[i]);
    }
    return cJSON_CreateStringArray(p, n);
}

int arena_results_add(cJSON *o, const char *key, cJSON *item)
{
    if (!item)
        return -1;
    if (!cJSON_AddItemToObject(o, key, item)) {
        cJSON_Delete(item);
        return -1;
    }
    return 0;
}

int arena_results_add_numbers(cJSON *o, const char *const *keys, const double *values, int n)
{
    for (int i = 0; i < n; i++)
        if (!cJSON_AddNumberToObject(o, keys[i], values[i]))
            return -1;
    return 0;
}

int arena_results_write_set(FILE *f, const arena_set_line_t *s, const char *const *names, const char *record)
{
    const arena_set_result_t *r = &s->result;
    int n = r->players;
    const char *seat_names[GAME_MAX_PLAYERS];
    for (int i = 0; i < n; i++)
        seat_names[i] = names[s->engine[i]];
    char seed[24];
    snprintf(seed, sizeof seed, "%" PRIu64, s->deal_seed);
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return -1;
    int bad = !cJSON_AddStringToObject(o, "type", "set") || !cJSON_AddNumberToObject(o, "pairing", s->key.pairing) ||
              !cJSON_AddNumberToObject(o, "round", s->key.round) || !cJSON_AddNumberToObject(o, "leg", s->key.leg) ||
              !cJSON_AddStringToObject(o, "deal_seed", seed) || arena_results_add(o, "seats", cJSON_CreateStringArray(seat_names, n)) ||
              arena_results_add(o, "engine_index", cJSON_CreateIntArray(s->engine, n)) ||
              !cJSON_AddNumberToObject(o, "winner", r->winner) ||
              !cJSON_AddStringToObject(o, "winner_name", r->winner >= 0 ? names[s->engine[r->winner]] : "") ||
              arena_results_add(o, "ranks", cJSON_CreateIntArray(r->rank, n)) ||
              arena_results_add(o, "scores", cJSON_CreateIntArray(r->scores, n)) ||
              !cJSON_AddNumberToObject(o, "hands", r->hands) || !cJSON_AddNumberToObject(o, "moves", r->moves) ||
              !cJSON_AddStringToObject(o, "reason", END_REASON_NAMES[r->reason]) ||
              !cJSON_AddNumberToObject(o, "fault_seat", r->fault_seat) || !cJSON_AddStringToObject(o, "detail", r->detail) ||
              arena_results_add(o, "think", cJSON_CreateDoubleArray(r->think, n)) ||
              !cJSON_AddStringToObject(o, "record", record ? record : "") ||
              arena_results_add(o, "engine_seeds", seed_array(s->engine_seed, n));
    if (!bad && r->has_settled)
        bad = arena_results_add(o, "settled", cJSON_CreateIntArray(r->settled, n));
    char *text = bad ? NULL : cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    if (!text)
        return -1;
    int rc = arena_results_write_text(f, text);
    cJSON_free(text);
    return rc;
}

/* ---------------------------------------------------------------- comparing runs */

static void show(const cJSON *v, char *buf, size_t len)
{
    char *text = v ? cJSON_PrintUnformatted(v) : NULL;
    snprintf(buf, len, "%.60s%s", text ? text : "absent", text && strlen(text) > 60 ? "..." : "");
    cJSON_free(text);
}

/* Where a difference lies: the two sides' names ("there": the file, "here": this run). */
typedef struct sides {
    const char *there, *here;
} sides_t;

/* The first difference between what the file holds (there) and this run (here), by meaning:
 * objects by key in any order, arrays item by item. 0 if none, else 1 with why. */
static int json_diff(const cJSON *there, const cJSON *here, const char *path, const sides_t *sd, char *why, size_t whylen)
{
    char a[80], b[80], sub[256];
    int same_type = there && here && (there->type & 0xff) == (here->type & 0xff);
    if (same_type && cJSON_IsObject(here)) {
        const cJSON *item;
        cJSON_ArrayForEach(item, here)
        {
            snprintf(sub, sizeof sub, "%s.%s", path, item->string);
            if (json_diff(cJSON_GetObjectItemCaseSensitive(there, item->string), item, sub, sd, why, whylen))
                return 1;
        }
        cJSON_ArrayForEach(item, there) if (!cJSON_GetObjectItemCaseSensitive(here, item->string))
        {
            snprintf(sub, sizeof sub, "%s.%s", path, item->string);
            return json_diff(item, NULL, sub, sd, why, whylen); /* "... is X there, absent here" */
        }
        return 0;
    }
    if (same_type && cJSON_IsArray(here)) {
        int n = cJSON_GetArraySize(here), m = cJSON_GetArraySize(there);
        if (n != m) {
            snprintf(why, whylen, "%s has %d items %s, %d %s", path, m, sd->there, n, sd->here);
            return 1;
        }
        for (int i = 0; i < n; i++) {
            const cJSON *h = cJSON_GetArrayItem(here, i);
            const cJSON *name = cJSON_IsObject(h) ? cJSON_GetObjectItemCaseSensitive(h, "name") : NULL;
            if (cJSON_IsString(name))
                snprintf(sub, sizeof sub, "%s[%d] (name '%.40s')", path, i, name->valuestring);
            else
                snprintf(sub, sizeof sub, "%s[%d]", path, i);
            if (json_diff(cJSON_GetArrayItem(there, i), h, sub, sd, why, whylen))
                return 1;
        }
        return 0;
    }
    if (same_type && cJSON_Compare(there, here, 1))
        return 0;
    show(there, a, sizeof a), show(here, b, sizeof b);
    snprintf(why, whylen, "%s is %s %s, %s %s", path, a, sd->there, b, sd->here);
    return 1;
}

int arena_results_compare_run(const cJSON *there, const cJSON *here, const char *there_name, const char *here_name, char *why,
                        size_t whylen)
{
    sides_t sd = { there_name, here_name };
    return json_diff(there, here, "run", &sd, why, whylen) ? -1 : 0;
}

/* The header line's object, or NULL with why. */
static cJSON *parse_header(const char *line, char *why, size_t whylen)
{
    cJSON *o = cJSON_Parse(line);
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(o, "type");
    const cJSON *format = cJSON_GetObjectItemCaseSensitive(o, "format");
    if (!cJSON_IsObject(o) || !cJSON_IsString(type) || strcmp(type->valuestring, "run") != 0)
        snprintf(why, whylen, "its first line is not a run description");
    else if (!cJSON_IsNumber(format) || format->valuedouble != RESULTS_FORMAT)
        snprintf(why, whylen, "it is not in results format %d", RESULTS_FORMAT);
    else if (!cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(o, "run")))
        snprintf(why, whylen, "its first line holds no run object");
    else
        return o;
    cJSON_Delete(o);
    return NULL;
}

int arena_results_compare_header(const char *line, const cJSON *run, char *why, size_t whylen)
{
    cJSON *o = parse_header(line, why, whylen);
    int rc = o ? arena_results_compare_run(cJSON_GetObjectItemCaseSensitive(o, "run"), run, "there", "here", why, whylen) : -1;
    cJSON_Delete(o);
    return rc;
}

/* ---------------------------------------------------------------- reading */

/* A whole number in [lo, hi]. */
static int whole_number(const cJSON *v, int lo, int hi, int *out)
{
    if (!cJSON_IsNumber(v) || v->valuedouble < lo || v->valuedouble > hi || v->valuedouble != (double)(int)v->valuedouble)
        return -1;
    *out = (int)v->valuedouble;
    return 0;
}

int arena_results_get_int(const cJSON *o, const char *key, int lo, int hi, int *out)
{
    return whole_number(cJSON_GetObjectItemCaseSensitive(o, key), lo, hi, out);
}

/* An array of exactly n whole numbers in [lo, hi]. */
static int get_ints(const cJSON *o, const char *key, int n, int lo, int hi, int *out)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != n)
        return -1;
    for (int i = 0; i < n; i++)
        if (whole_number(cJSON_GetArrayItem(a, i), lo, hi, &out[i]) < 0)
            return -1;
    return 0;
}

static int parse_seed(const cJSON *v, uint64_t *out)
{
    return cJSON_IsString(v) ? text_u64(v->valuestring, 0, UINT64_MAX, out) : -1;
}

static int parse_set(const char *line, arena_set_line_t *s)
{
    cJSON *o = cJSON_Parse(line);
    if (!o)
        return -1;
    memset(s, 0, sizeof *s);
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(o, "type");
    const cJSON *reason = cJSON_GetObjectItemCaseSensitive(o, "reason");
    const cJSON *detail = cJSON_GetObjectItemCaseSensitive(o, "detail");
    const cJSON *think = cJSON_GetObjectItemCaseSensitive(o, "think");
    const cJSON *engines = cJSON_GetObjectItemCaseSensitive(o, "engine_index");
    const cJSON *seeds = cJSON_GetObjectItemCaseSensitive(o, "engine_seeds");
    int n = s->result.players = cJSON_IsArray(engines) ? cJSON_GetArraySize(engines) : 0;
    const int big = 1 << 30;
    int ok = cJSON_IsString(type) && !strcmp(type->valuestring, "set") && n >= 1 && n <= GAME_MAX_PLAYERS &&
             !arena_results_get_int(o, "pairing", 0, big, &s->key.pairing) && !arena_results_get_int(o, "round", 0, big, &s->key.round) &&
             !arena_results_get_int(o, "leg", 0, GAME_MAX_PLAYERS, &s->key.leg) && !get_ints(o, "engine_index", n, 0, big, s->engine) &&
             !arena_results_get_int(o, "winner", -1, n - 1, &s->result.winner) && !get_ints(o, "ranks", n, 0, n - 1, s->result.rank) &&
             !get_ints(o, "scores", n, -big, big, s->result.scores) && !arena_results_get_int(o, "hands", 0, big, &s->result.hands) &&
             !arena_results_get_int(o, "moves", 0, big, &s->result.moves) &&
             !arena_results_get_int(o, "fault_seat", -1, n - 1, &s->result.fault_seat) &&
             cJSON_IsString(reason) && cJSON_IsString(detail) && cJSON_IsArray(think) && cJSON_GetArraySize(think) == n &&
             !parse_seed(cJSON_GetObjectItemCaseSensitive(o, "deal_seed"), &s->deal_seed) && cJSON_IsArray(seeds) &&
             cJSON_GetArraySize(seeds) == n;
    /* A game that settles points (a Picket partie) writes them; others have none. */
    if (ok && cJSON_GetObjectItemCaseSensitive(o, "settled")) {
        ok = !get_ints(o, "settled", n, -big, big, s->result.settled);
        s->result.has_settled = ok;
    }
    for (int i = 0; ok && i < n; i++) {
        const cJSON *t = cJSON_GetArrayItem(think, i);
        ok = cJSON_IsNumber(t) && t->valuedouble >= 0 && !parse_seed(cJSON_GetArrayItem(seeds, i), &s->engine_seed[i]);
        s->result.think[i] = ok ? t->valuedouble : 0;
    }
    if (ok) {
        s->result.reason = END_COUNT;
        for (int i = 0; i < END_INTERRUPTED; i++)
            if (!strcmp(reason->valuestring, END_REASON_NAMES[i]))
                s->result.reason = (arena_end_reason_t)i;
        snprintf(s->result.detail, sizeof s->result.detail, "%s", detail->valuestring);
        ok = s->result.reason != END_COUNT && (s->result.reason == END_NORMAL) == (s->result.fault_seat < 0);
    }
    cJSON_Delete(o);
    return ok ? 0 : -1;
}

/* arena_results_read, or with header (read-only, for a merge) the first line's run description
 * alone, in *header. */
static int read_results(const char *path, const cJSON *run, cJSON **header, long *torn,
                        int (*on_set)(void *, const arena_set_line_t *, char *, size_t), void *data, char *err, size_t errlen)
{
    int cut = run != NULL;
    FILE *f = fopen(path, cut ? "r+" : "r");
    if (!f)
        return text_fail(err, errlen, "cannot open results file '%s': %s", path, strerror(errno));
    char *line = malloc(RESULTS_MAX_LINE);
    long lineno = 0, good_end = 0;
    int rc = 0, len;
    char why[400];
    if (torn)
        *torn = 0;
    if (!lines_regular(f))
        rc = text_fail(err, errlen, "results file '%s' is not a regular file", path);
    else if (!line)
        rc = text_fail(err, errlen, "out of memory for '%s'", path);
    while (rc == 0 && (len = lines_read(f, line, RESULTS_MAX_LINE)) != LINES_EOF) {
        lineno++;
        if (lineno == 1) {
            cJSON *o = NULL;
            if (run && (len < 0 || arena_results_compare_header(line, run, why, sizeof why) < 0))
                rc = text_fail(err, errlen, "'%s' was written by a different run: %s; resume with the same configuration, or start a new results file",
                               path, len < 0 ? "its first line is damaged" : why);
            else if (len < 0)
                rc = text_fail(err, errlen, "the first line of '%s' is damaged", path);
            else if (header && len == 0)
                rc = text_fail(err, errlen, "'%s' is empty: it holds no run", path);
            else if (header && !(o = parse_header(line, why, sizeof why)))
                rc = text_fail(err, errlen, "'%s' is not a results file: %s", path, why);
            if (header) {
                *header = cJSON_DetachItemFromObjectCaseSensitive(o, "run");
                cJSON_Delete(o);
                break;
            }
            good_end = ftell(f);
            continue;
        }
        /* Only a last line the file ends inside is torn (a write cut short): a complete line
         * that is not a set result is a damaged file, wherever it stands. */
        if (len == LINES_TORN) {
            if (torn)
                *torn = lineno;
            break;
        }
        arena_set_line_t s;
        if (len < 0 || parse_set(line, &s) < 0) {
            rc = text_fail(err, errlen, "line %ld of '%s' is not a set result%s", lineno, path,
                             len == LINES_LONG ? " (too long)" : len == LINES_NUL ? " (a NUL byte)" : "");
            break;
        }
        if (on_set(data, &s, why, sizeof why) < 0) {
            rc = text_fail(err, errlen, "line %ld of '%s': %s", lineno, path, why);
            break;
        }
        good_end = ftell(f);
    }
    if (rc == 0 && ferror(f))
        rc = text_fail(err, errlen, "cannot read results file '%s'", path);
    free(line);
    if (rc == 0 && lineno == 0)
        rc = text_fail(err, errlen, "'%s' is empty: %s", path, cut ? "nothing to resume" : "it holds no run");
    if (rc == 0 && cut && ftruncate(fileno(f), good_end) < 0)
        rc = text_fail(err, errlen, "cannot cut the torn last line of '%s': %s", path, strerror(errno));
    fclose(f);
    return rc;
}

int arena_results_read(const char *path, const cJSON *run, long *torn, int (*on_set)(void *, const arena_set_line_t *, char *, size_t),
                       void *data, char *err, size_t errlen)
{
    return read_results(path, run, NULL, torn, on_set, data, err, errlen);
}

cJSON *arena_results_read_run(const char *path, char *err, size_t errlen)
{
    cJSON *run = NULL;
    read_results(path, NULL, &run, NULL, NULL, NULL, err, errlen);
    return run;
}
