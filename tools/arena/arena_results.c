#include "arena_results.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int results_write_header(FILE *f, const char *header_json)
{
    if (fprintf(f, "%s\n", header_json) < 0 || fflush(f) != 0)
        return -1;
    return 0;
}

int results_write_set(FILE *f, const set_line_t *s, const char *const *names, uint64_t deal_seed, const char *record)
{
    const set_result_t *r = &s->result;
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return -1;
    cJSON_AddStringToObject(o, "type", "set");
    cJSON_AddNumberToObject(o, "pairing", s->key.pairing);
    cJSON_AddNumberToObject(o, "round", s->key.round);
    cJSON_AddNumberToObject(o, "leg", s->key.leg);
    char seed[32];
    snprintf(seed, sizeof seed, "%" PRIu64, deal_seed);
    cJSON_AddStringToObject(o, "seed", seed);
    int n = r->players;
    const char *seat_names[GAME_MAX_PLAYERS];
    for (int i = 0; i < n; i++)
        seat_names[i] = names[s->engine[i]];
    cJSON_AddItemToObject(o, "seats", cJSON_CreateStringArray(seat_names, n));
    cJSON_AddItemToObject(o, "engines", cJSON_CreateIntArray(s->engine, n));
    cJSON_AddNumberToObject(o, "winner", r->winner);
    cJSON_AddStringToObject(o, "winner_name", r->winner >= 0 ? names[s->engine[r->winner]] : "");
    cJSON_AddItemToObject(o, "ranks", cJSON_CreateIntArray(r->rank, n));
    cJSON_AddItemToObject(o, "scores", cJSON_CreateIntArray(r->scores, n));
    cJSON_AddNumberToObject(o, "hands", r->hands);
    cJSON_AddNumberToObject(o, "moves", r->moves);
    cJSON_AddStringToObject(o, "reason", END_REASON_NAMES[r->reason]);
    cJSON_AddNumberToObject(o, "fault_seat", r->fault_seat);
    cJSON_AddStringToObject(o, "detail", r->detail);
    cJSON_AddItemToObject(o, "think", cJSON_CreateDoubleArray(r->think, n));
    cJSON_AddStringToObject(o, "record", record ? record : "");
    char *text = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    if (!text)
        return -1;
    int rc = fprintf(f, "%s\n", text) < 0 || fflush(f) != 0 ? -1 : 0;
    cJSON_free(text);
    return rc;
}

static int get_int(const cJSON *o, const char *key, int *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsNumber(v))
        return -1;
    *out = v->valueint;
    return 0;
}

/* An array of exactly n whole numbers. */
static int get_ints(const cJSON *o, const char *key, int n, int *out)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != n)
        return -1;
    for (int i = 0; i < n; i++) {
        const cJSON *v = cJSON_GetArrayItem(a, i);
        if (!cJSON_IsNumber(v))
            return -1;
        out[i] = v->valueint;
    }
    return 0;
}

static int parse_set(const char *line, set_line_t *s)
{
    cJSON *o = cJSON_Parse(line);
    if (!o)
        return -1;
    memset(s, 0, sizeof *s);
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(o, "type");
    const cJSON *reason = cJSON_GetObjectItemCaseSensitive(o, "reason");
    const cJSON *detail = cJSON_GetObjectItemCaseSensitive(o, "detail");
    const cJSON *think = cJSON_GetObjectItemCaseSensitive(o, "think");
    const cJSON *engines = cJSON_GetObjectItemCaseSensitive(o, "engines");
    int n = s->result.players = cJSON_IsArray(engines) ? cJSON_GetArraySize(engines) : 0;
    int ok = cJSON_IsString(type) && !strcmp(type->valuestring, "set") && n >= 1 && n <= GAME_MAX_PLAYERS &&
             !get_int(o, "pairing", &s->key.pairing) && !get_int(o, "round", &s->key.round) &&
             !get_int(o, "leg", &s->key.leg) && !get_ints(o, "engines", n, s->engine) &&
             !get_int(o, "winner", &s->result.winner) && !get_ints(o, "ranks", n, s->result.rank) &&
             !get_ints(o, "scores", n, s->result.scores) && !get_int(o, "hands", &s->result.hands) &&
             !get_int(o, "moves", &s->result.moves) && !get_int(o, "fault_seat", &s->result.fault_seat) &&
             cJSON_IsString(reason) && cJSON_IsString(detail) && cJSON_IsArray(think) && cJSON_GetArraySize(think) == n;
    if (ok) {
        s->result.reason = END_COUNT;
        for (int i = 0; i < END_COUNT; i++)
            if (!strcmp(reason->valuestring, END_REASON_NAMES[i]))
                s->result.reason = (end_reason_t)i;
        snprintf(s->result.detail, sizeof s->result.detail, "%s", detail->valuestring);
        for (int i = 0; i < n; i++)
            s->result.think[i] = cJSON_GetArrayItem(think, i)->valuedouble;
        ok = s->result.reason != END_COUNT && s->result.winner >= -1 && s->result.winner < n;
        for (int i = 0; ok && i < n; i++)
            ok = s->result.rank[i] >= 0 && s->result.rank[i] < n;
    }
    cJSON_Delete(o);
    return ok ? 0 : -1;
}

int results_load(const char *path, const char *header_json, void (*on_set)(void *, const set_line_t *), void *data,
                 char *err, size_t errlen)
{
    FILE *f = fopen(path, "r+");
    if (!f) {
        snprintf(err, errlen, "cannot open results file '%s': %s", path, strerror(errno));
        return -1;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    long lineno = 0, good_end = 0;
    int rc = 0;
    while ((len = getline(&line, &cap, f)) >= 0) {
        lineno++;
        int complete = len > 0 && line[len - 1] == '\n';
        if (complete)
            line[len - 1] = '\0';
        if (lineno == 1) {
            if (!complete || strcmp(line, header_json) != 0) {
                snprintf(err, errlen, "'%s' was written by a different run (its first line differs): "
                                      "resume with the same options, or start a new results file", path);
                rc = -1;
                break;
            }
            good_end = ftell(f);
            continue;
        }
        set_line_t s;
        if (!complete || parse_set(line, &s) < 0) {
            /* A torn write can only be the last line; anything else is a damaged file. */
            int c = fgetc(f);
            if (c != EOF) {
                snprintf(err, errlen, "line %ld of '%s' is not a set result", lineno, path);
                rc = -1;
            }
            break;
        }
        on_set(data, &s);
        good_end = ftell(f);
    }
    free(line);
    if (rc == 0 && lineno == 0) {
        snprintf(err, errlen, "'%s' is empty: nothing to resume", path);
        rc = -1;
    }
    if (rc == 0 && ftruncate(fileno(f), good_end) < 0) {
        snprintf(err, errlen, "cannot cut the torn last line of '%s': %s", path, strerror(errno));
        rc = -1;
    }
    fclose(f);
    return rc;
}
