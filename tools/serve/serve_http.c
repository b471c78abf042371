/* serve_http: picket-serve's HTTP server (serve_http.h). */
#define _GNU_SOURCE
#include "serve_http.h"

#include <arpa/inet.h>
#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <malloc.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>

#include "cards.h"
#include "lines.h"
#include "measure.h"
#include "rng.h"
#include "serve_table.h"
#include "serve_watch.h"
#include "text.h"

enum {
    BODY_LIMIT = 16 * 1024,          /* a request's JSON */
    RECORD_BODY_LIMIT = 1024 * 1024, /* a record uploaded to resume */
    ID_BYTES = 16,
    ID_LEN = 2 * ID_BYTES,
    RATE_SLOTS = 1024,
    MAX_FLAGS_IN = GAME_MAX_FLAGS,
};

/* The page's files: a fixed list, read once at start. */
static const struct page_file {
    const char *path, *file, *type;
} PAGE_FILES[] = {
    { "/", "index.html", "text/html; charset=utf-8" },
    { "/table.js", "table.js", "text/javascript; charset=utf-8" },
    { "/table.css", "table.css", "text/css; charset=utf-8" },
};
enum { N_PAGE_FILES = sizeof PAGE_FILES / sizeof PAGE_FILES[0] };

/* A table in play, or a review: what an id names. */
typedef struct slot {
    char id[ID_LEN + 1];
    serve_table_t *t;
    serve_review_t *r;
    int refs;
} slot_t;

typedef struct rate_slot {
    uint32_t addr;
    double tokens, at;
} rate_slot_t;

struct serve {
    serve_config_t cfg;
    struct MHD_Daemon *d;
    char *page[N_PAGE_FILES];
    size_t page_len[N_PAGE_FILES];
    pthread_mutex_t lock;            /* the slots and the rate table */
    slot_t *slot;
    rate_slot_t rate[RATE_SLOTS];
    uint64_t tables_opened;          /* for the engines' seeds under --engine-seed */
    serve_watch_t *watch;            /* NULL: no arena followed */
};

typedef struct request {
    char *body;
    size_t len, limit;
    int too_big;
} request_t;

/* ---------------------------------------------------------------- replies */

static enum MHD_Result reply(struct MHD_Connection *c, unsigned status, const char *type, const char *body,
                             size_t len, int copy)
{
    struct MHD_Response *r =
        MHD_create_response_from_buffer(len, (void *)body, copy ? MHD_RESPMEM_MUST_COPY : MHD_RESPMEM_PERSISTENT);
    if (!r)
        return MHD_NO;
    MHD_add_response_header(r, "Content-Type", type);
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(r, "Cache-Control", "no-store");
    MHD_add_response_header(r, "Content-Security-Policy",
                            "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'");
    enum MHD_Result rc = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    return rc;
}

static enum MHD_Result reply_json(struct MHD_Connection *c, unsigned status, char *text)
{
    if (!text)
        return reply(c, 500, "application/json", "{\"error\":\"out of memory\"}", 25, 0);
    enum MHD_Result rc = reply(c, status, "application/json", text, strlen(text), 1);
    free(text);
    return rc;
}

static enum MHD_Result __attribute__((format(printf, 3, 4))) reply_error(struct MHD_Connection *c, unsigned status,
                                                                           const char *fmt, ...)
{
    char why[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    cJSON *o = cJSON_CreateObject();
    char *text = NULL;
    if (o && cJSON_AddStringToObject(o, "error", why))
        text = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    return reply_json(c, status, text);
}

/* ---------------------------------------------------------------- requests */

/* The body as a JSON object whose fields are all among `allowed` (NULL-terminated). NULL with a
 * reason. */
static cJSON *body_object(const request_t *rq, const char *const *allowed, char *err, size_t errlen)
{
    if (rq->len == 0) {
        cJSON *o = cJSON_CreateObject();
        if (!o)
            text_fail(err, errlen, "out of memory");
        return o;
    }
    const char *end = NULL;
    cJSON *o = cJSON_ParseWithLengthOpts(rq->body, rq->len + 1, &end, 1); /* the NUL counted: nothing may follow */
    if (!o) {
        text_fail(err, errlen, "the body is not JSON");
        return NULL;
    }
    if (!cJSON_IsObject(o)) {
        cJSON_Delete(o);
        text_fail(err, errlen, "the body is not a JSON object");
        return NULL;
    }
    for (cJSON *f = o->child; f; f = f->next) {
        int ok = 0;
        for (int i = 0; allowed[i] && !ok; i++)
            ok = f->string && strcmp(f->string, allowed[i]) == 0;
        if (!ok) {
            text_fail(err, errlen, "unknown field '%.40s'", f->string ? f->string : "");
            cJSON_Delete(o);
            return NULL;
        }
    }
    return o;
}

/* A string field (NULL if absent); -1 with a reason if present and not a string of at most max
 * bytes. */
static int field_string(const cJSON *o, const char *name, size_t max, const char **out, char *err, size_t errlen)
{
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(o, name);
    *out = NULL;
    if (!f)
        return 0;
    if (!cJSON_IsString(f) || !f->valuestring)
        return text_fail(err, errlen, "%s: not a string", name);
    if (strlen(f->valuestring) > max)
        return text_fail(err, errlen, "%s: longer than %zu characters", name, max);
    *out = f->valuestring;
    return 0;
}

/* A whole-number field in [lo, hi] (def if absent). */
static int field_int(const cJSON *o, const char *name, int lo, int hi, int def, int *out, char *err, size_t errlen)
{
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(o, name);
    *out = def;
    if (!f)
        return 0;
    double v = cJSON_GetNumberValue(f);
    if (!cJSON_IsNumber(f) || v != (double)(int)v || v < lo || v > hi)
        return text_fail(err, errlen, "%s: not a whole number from %d to %d", name, lo, hi);
    *out = (int)v;
    return 0;
}

/* A query argument as a whole number in [lo, hi] (def if absent); -1 if malformed. */
static int query_long(struct MHD_Connection *c, const char *name, long lo, long hi, long def, long *out)
{
    const char *v = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, name);
    *out = def;
    if (!v)
        return 0;
    uint64_t x;
    if (lo < 0 || text_u64(v, (uint64_t)lo, (uint64_t)hi, &x) < 0)
        return -1;
    *out = (long)x;
    return 0;
}

/* ---------------------------------------------------------------- the tables */

static void fresh_bytes(void *buf, size_t n)
{
    if (getrandom(buf, n, 0) != (ssize_t)n) {
        /* getrandom on Linux does not fail for a small request once the pool is ready; never leave
         * an id guessable all the same. */
        uint64_t x = rng_mix((uint64_t)time(NULL) ^ (uint64_t)clock() ^ (uintptr_t)buf);
        for (size_t i = 0; i < n; i++, x = rng_mix(x))
            ((unsigned char *)buf)[i] = (unsigned char)x;
    }
}

/* A table (review 0) or a review (1) by id, with a reference held (slot index), or -1. */
static int table_get(serve_t *s, const char *id, int review)
{
    if (strlen(id) != ID_LEN)
        return -1;
    pthread_mutex_lock(&s->lock);
    int found = -1;
    for (int i = 0; i < s->cfg.max_games && found < 0; i++)
        if ((review ? s->slot[i].r != NULL : s->slot[i].t != NULL) && strcmp(s->slot[i].id, id) == 0) {
            s->slot[i].refs++;
            found = i;
        }
    pthread_mutex_unlock(&s->lock);
    return found;
}

static void table_put(serve_t *s, int i)
{
    pthread_mutex_lock(&s->lock);
    s->slot[i].refs--;
    pthread_mutex_unlock(&s->lock);
}

/* A free slot, reserved (refs 1, no table yet), or -1 when the tables at once are at their cap. */
static int slot_reserve(serve_t *s)
{
    pthread_mutex_lock(&s->lock);
    int found = -1;
    for (int i = 0; i < s->cfg.max_games && found < 0; i++)
        if (!s->slot[i].t && !s->slot[i].r && s->slot[i].refs == 0) {
            s->slot[i].refs = 1;
            found = i;
        }
    pthread_mutex_unlock(&s->lock);
    return found;
}

int serve_games(serve_t *s)
{
    pthread_mutex_lock(&s->lock);
    int n = 0;
    for (int i = 0; i < s->cfg.max_games; i++)
        n += s->slot[i].t != NULL || s->slot[i].r != NULL;
    pthread_mutex_unlock(&s->lock);
    return n;
}

void serve_tick(serve_t *s)
{
    for (int i = 0; i < s->cfg.max_games; i++) {
        serve_table_t *gone = NULL;
        serve_review_t *gone_review = NULL;
        pthread_mutex_lock(&s->lock);
        slot_t *x = &s->slot[i];
        if (x->refs == 0 && ((x->t && serve_table_idle(x->t) > s->cfg.idle_close) ||
                             (x->r && serve_review_idle(x->r) > s->cfg.idle_close))) {
            gone = x->t;
            gone_review = x->r;
            x->t = NULL;
            x->r = NULL;
            x->id[0] = '\0';
        }
        pthread_mutex_unlock(&s->lock);
        if ((gone || gone_review) && !s->cfg.quiet)
            fprintf(stderr, "picket-serve: closed a %s idle for %.0f s\n", gone ? "table" : "review", s->cfg.idle_close);
        serve_table_free(gone);
        serve_review_free(gone_review);
    }
    malloc_trim(0); /* what closed tables freed goes back to the system: memory stays flat */
}

static const arena_spec_t *engine_named(const serve_t *s, const char *name)
{
    for (int i = 0; i < s->cfg.n_engines; i++)
        if (strcmp(s->cfg.engine[i].name, name) == 0)
            return &s->cfg.engine[i];
    return NULL;
}

/* Put a table or a review into slot i (reserved) under a fresh id, and answer the id. */
static enum MHD_Result place(serve_t *s, struct MHD_Connection *c, int i, serve_table_t *t, serve_review_t *rv)
{
    unsigned char raw[ID_BYTES];
    fresh_bytes(raw, sizeof raw);
    pthread_mutex_lock(&s->lock);
    s->slot[i].refs = 0;
    for (int k = 0; k < ID_BYTES; k++)
        snprintf(s->slot[i].id + 2 * k, 3, "%02x", raw[k]);
    s->slot[i].t = t;
    s->slot[i].r = rv;
    char id[ID_LEN + 1];
    memcpy(id, s->slot[i].id, sizeof id);
    pthread_mutex_unlock(&s->lock);
    cJSON *o = cJSON_CreateObject();
    char *text = NULL;
    if (o && cJSON_AddStringToObject(o, "id", id))
        text = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    return reply_json(c, 200, text);
}

static void slot_release(serve_t *s, int i)
{
    pthread_mutex_lock(&s->lock);
    s->slot[i].refs = 0;
    pthread_mutex_unlock(&s->lock);
}

/* Open a table in a reserved slot and answer its id. */
static enum MHD_Result open_table(serve_t *s, struct MHD_Connection *c, serve_table_setup_t *setup,
                                  const serve_move_t *moves, int n)
{
    int i = slot_reserve(s);
    if (i < 0)
        return reply_error(c, 503, "the server has %d tables in play, its most: try again later", s->cfg.max_games);
    pthread_mutex_lock(&s->lock);
    uint64_t opened = s->tables_opened++;
    pthread_mutex_unlock(&s->lock);
    if (s->cfg.engine_seed_given)
        setup->engine_seed = rng_derive(s->cfg.engine_seed, opened);
    else
        fresh_bytes(&setup->engine_seed, sizeof setup->engine_seed);
    setup->hint = s->cfg.has_hint ? &s->cfg.hint : NULL;
    setup->hint_unit = s->cfg.hint_unit;
    char err[400];
    serve_table_t *t = serve_table_new(setup, moves, n, err, sizeof err);
    if (!t) {
        slot_release(s, i);
        return reply_error(c, 400, "%s", err);
    }
    return place(s, c, i, t, NULL);
}

/* The records folder the page may review from ("" none). */
static const char *records_dir(const serve_t *s)
{
    return s->cfg.records_dir[0] ? s->cfg.records_dir : s->cfg.watch_records;
}

/* A record's file name as the folder's listing gives it: letters, digits, '.', '_' and '-', no
 * leading '.', ending ".txt". Nothing else reaches the file system. */
static int record_name_ok(const char *name)
{
    size_t n = strlen(name);
    if (n < 5 || n > 200 || name[0] == '.' || strcmp(name + n - 4, ".txt") != 0)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!((name[i] >= 'a' && name[i] <= 'z') || (name[i] >= 'A' && name[i] <= 'Z') ||
              (name[i] >= '0' && name[i] <= '9') || name[i] == '.' || name[i] == '_' || name[i] == '-'))
            return 0;
    return 1;
}

static int name_cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* GET /api/records: the folder's record files, by name (at most 2000). */
static enum MHD_Result api_records(serve_t *s, struct MHD_Connection *c)
{
    const char *dir = records_dir(s);
    if (!dir[0])
        return reply_error(c, 404, "this server has no records folder (picket-serve --records DIR)");
    DIR *d = opendir(dir);
    if (!d)
        return reply_error(c, 500, "cannot read the records folder");
    char **names = malloc(sizeof *names * 2000);
    int n = 0;
    struct dirent *e;
    while (names && n < 2000 && (e = readdir(d)) != NULL)
        if (record_name_ok(e->d_name) && (names[n] = strdup(e->d_name)) != NULL)
            n++;
    closedir(d);
    if (names)
        qsort(names, (size_t)n, sizeof *names, name_cmp);
    cJSON *o = cJSON_CreateObject();
    cJSON *list = cJSON_AddArrayToObject(o, "records");
    for (int i = 0; i < n; i++) {
        cJSON_AddItemToArray(list, cJSON_CreateString(names[i]));
        free(names[i]);
    }
    free(names);
    char *text = o ? cJSON_PrintUnformatted(o) : NULL;
    cJSON_Delete(o);
    return reply_json(c, 200, text);
}

/* A record file of the records folder, whole (malloc'd), or NULL with a reason. */
static char *read_record_file(const serve_t *s, const char *name, char *err, size_t errlen)
{
    const char *dir = records_dir(s);
    if (!dir[0]) {
        text_fail(err, errlen, "file: this server has no records folder");
        return NULL;
    }
    if (!record_name_ok(name)) {
        text_fail(err, errlen, "file: '%.60s' is not a record's name in the folder", name);
        return NULL;
    }
    char path[1300], why[400];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = lines_open(path, why, sizeof why);
    if (!f) {
        text_fail(err, errlen, "file: no record '%.60s' in the folder", name);
        return NULL;
    }
    char *buf = malloc(RECORD_BODY_LIMIT + 1);
    size_t len = buf ? fread(buf, 1, RECORD_BODY_LIMIT + 1, f) : 0;
    fclose(f);
    if (!buf || len > RECORD_BODY_LIMIT) {
        free(buf);
        text_fail(err, errlen, "file: '%.60s' is longer than %d bytes", name, RECORD_BODY_LIMIT);
        return NULL;
    }
    buf[len] = '\0';
    return buf;
}

static enum MHD_Result api_review(serve_t *s, struct MHD_Connection *c, const request_t *rq)
{
    static const char *const FIELDS[] = { "record", "file", NULL };
    char err[400];
    cJSON *o = body_object(rq, FIELDS, err, sizeof err);
    if (!o)
        return reply_error(c, 400, "%s", err);
    const char *text = NULL, *file = NULL;
    char *from_file = NULL;
    int rc = field_string(o, "record", RECORD_BODY_LIMIT, &text, err, sizeof err);
    if (rc == 0)
        rc = field_string(o, "file", 200, &file, err, sizeof err);
    if (rc == 0 && file && !text && !(text = from_file = read_record_file(s, file, err, sizeof err)))
        rc = -1;
    if (rc == 0 && !text)
        rc = text_fail(err, sizeof err, "record: missing (give a record, or a file of the records folder)");
    if (rc == 0 && !s->cfg.has_hint)
        rc = text_fail(err, sizeof err, "this server has no engine to review with (--hint-level 0)");
    int i = rc == 0 ? slot_reserve(s) : -1;
    if (rc == 0 && i < 0) {
        cJSON_Delete(o);
        free(from_file);
        return reply_error(c, 503, "the server has %d tables and reviews open, its most: try again later",
                           s->cfg.max_games);
    }
    serve_review_t *rv = rc == 0 ? serve_review_new(text, strlen(text), &s->cfg.hint, s->cfg.hint_unit, err, sizeof err) : NULL;
    cJSON_Delete(o);
    free(from_file);
    if (!rv) {
        if (i >= 0)
            slot_release(s, i);
        return reply_error(c, 400, "%s", err);
    }
    return place(s, c, i, NULL, rv);
}

/* The seats' engines: `engines` (an array of names, one a seat other than the person's) or
 * `engine` (one name for them all), or the first engine. */
static int seat_engines(const serve_t *s, const cJSON *o, serve_table_setup_t *setup, char *err, size_t errlen)
{
    const char *one;
    if (field_string(o, "engine", ARENA_NAME_LEN, &one, err, errlen) < 0)
        return -1;
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(o, "engines");
    if (list && (!cJSON_IsArray(list) || cJSON_GetArraySize(list) != setup->cfg.players - 1))
        return text_fail(err, errlen, "engines: not an array of %d names", setup->cfg.players - 1);
    const cJSON *item = list ? list->child : NULL;
    for (int seat = 0; seat < setup->cfg.players; seat++) {
        if (seat == setup->human)
            continue;
        const char *name = one ? one : s->cfg.engine[0].name;
        if (item) {
            if (!cJSON_IsString(item))
                return text_fail(err, errlen, "engines: not an array of names");
            name = item->valuestring;
            item = item->next;
        }
        if (!(setup->engine[seat] = engine_named(s, name)))
            return text_fail(err, errlen, "engine: no engine named '%.40s' on this server", name);
    }
    return 0;
}

static enum MHD_Result api_new(serve_t *s, struct MHD_Connection *c, const request_t *rq)
{
    static const char *const FIELDS[] = { "game", "preset", "flags", "players", "seat", "engine", "engines", "seed", NULL };
    char err[400];
    cJSON *o = body_object(rq, FIELDS, err, sizeof err);
    if (!o)
        return reply_error(c, 400, "%s", err);
    serve_table_setup_t setup = { 0 };
    const char *game = NULL, *preset = NULL, *seed = NULL;
    int rc = field_string(o, "game", 40, &game, err, sizeof err);
    if (rc == 0)
        rc = field_string(o, "preset", sizeof setup.cfg.preset - 1, &preset, err, sizeof err);
    if (rc == 0)
        rc = field_string(o, "seed", 20, &seed, err, sizeof err);
    setup.game = game_find(game ? game : "picket");
    if (rc == 0 && !setup.game)
        rc = text_fail(err, sizeof err, "game: no game named '%.40s'", game);
    if (rc == 0 && preset)
        snprintf(setup.cfg.preset, sizeof setup.cfg.preset, "%s", preset);
    const cJSON *flags = cJSON_GetObjectItemCaseSensitive(o, "flags");
    if (rc == 0 && flags && (!cJSON_IsArray(flags) || cJSON_GetArraySize(flags) > MAX_FLAGS_IN))
        rc = text_fail(err, sizeof err, "flags: not an array of at most %d strings", MAX_FLAGS_IN);
    for (const cJSON *f = flags ? flags->child : NULL; rc == 0 && f; f = f->next) {
        if (!cJSON_IsString(f))
            rc = text_fail(err, sizeof err, "flags: not an array of strings");
        else
            rc = game_config_add_flag(&setup.cfg, f->valuestring, err, sizeof err);
    }
    int two = setup.game && strcmp(setup.game->name, "court-circular") != 0;
    if (rc == 0)
        rc = field_int(o, "players", 2, two ? 2 : GAME_MAX_PLAYERS, 2, &setup.cfg.players, err, sizeof err);
    if (rc == 0)
        rc = field_int(o, "seat", 0, setup.cfg.players - 1, 0, &setup.human, err, sizeof err);
    if (rc == 0 && seed) {
        if (text_u64(seed, 0, UINT64_MAX, &setup.cfg.deal_seed) < 0)
            rc = text_fail(err, sizeof err, "seed: not a whole number from 0 to 18446744073709551615");
        setup.seed_public = 1;
    } else
        fresh_bytes(&setup.cfg.deal_seed, sizeof setup.cfg.deal_seed);
    if (rc == 0)
        rc = seat_engines(s, o, &setup, err, sizeof err);
    cJSON_Delete(o);
    if (rc < 0)
        return reply_error(c, 400, "%s", err);
    return open_table(s, c, &setup, NULL, 0);
}

static enum MHD_Result api_resume(serve_t *s, struct MHD_Connection *c, const request_t *rq)
{
    static const char *const FIELDS[] = { "record", "engine", "engines", "seat", NULL };
    char err[400];
    cJSON *o = body_object(rq, FIELDS, err, sizeof err);
    if (!o)
        return reply_error(c, 400, "%s", err);
    const char *text = NULL;
    int rc = field_string(o, "record", RECORD_BODY_LIMIT, &text, err, sizeof err);
    if (rc == 0 && !text)
        rc = text_fail(err, sizeof err, "record: missing");
    serve_table_setup_t setup = { 0 };
    serve_move_t *moves = malloc(sizeof *moves * SERVE_MAX_MOVES);
    int n = 0, seat = -1;
    if (rc == 0 && !moves)
        rc = text_fail(err, sizeof err, "out of memory");
    if (rc == 0)
        rc = serve_record_load(text, strlen(text), &setup.game, &setup.cfg, moves, SERVE_MAX_MOVES, &n, &seat, err,
                               sizeof err);
    if (rc == 0 && setup.cfg.players == 0)
        setup.cfg.players = 2;
    if (rc == 0)
        rc = field_int(o, "seat", 0, setup.cfg.players - 1, seat >= 0 ? seat : 0, &setup.human, err, sizeof err);
    setup.seed_public = 1; /* the person holds the record, and with it the seed */
    if (rc == 0)
        rc = seat_engines(s, o, &setup, err, sizeof err);
    cJSON_Delete(o);
    enum MHD_Result r = rc < 0 ? reply_error(c, 400, "%s", err) : open_table(s, c, &setup, moves, n);
    free(moves);
    return r;
}

static enum MHD_Result api_info(serve_t *s, struct MHD_Connection *c)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "version", PICKET_VERSION);
    cJSON *games = cJSON_AddArrayToObject(o, "games");
    int n = 0;
    const game_t *const *list = game_list(&n);
    for (int i = 0; games && i < n; i++)
        if (list[i]->view_table)
            cJSON_AddItemToArray(games, cJSON_CreateString(list[i]->name));
    cJSON *engines = cJSON_AddArrayToObject(o, "engines");
    for (int i = 0; engines && i < s->cfg.n_engines; i++)
        cJSON_AddItemToArray(engines, cJSON_CreateString(s->cfg.engine[i].name));
    cJSON_AddBoolToObject(o, "hints", s->cfg.has_hint);
    cJSON_AddBoolToObject(o, "watch", s->watch != NULL);
    cJSON_AddBoolToObject(o, "records", records_dir(s)[0] != '\0');
    cJSON_AddNumberToObject(o, "max_games", s->cfg.max_games);
    char *text = o ? cJSON_PrintUnformatted(o) : NULL;
    cJSON_Delete(o);
    return reply_json(c, 200, text);
}

static enum MHD_Result ok_reply(struct MHD_Connection *c) { return reply(c, 200, "application/json", "{}", 2, 0); }

/* /api/game/ID[/VERB] */
static enum MHD_Result api_game(serve_t *s, struct MHD_Connection *c, const char *rest, const char *method,
                                const request_t *rq)
{
    char id[ID_LEN + 1];
    const char *slash = strchr(rest, '/');
    size_t idlen = slash ? (size_t)(slash - rest) : strlen(rest);
    const char *verb = slash ? slash + 1 : "";
    if (idlen != ID_LEN)
        return reply_error(c, 404, "no such game");
    memcpy(id, rest, ID_LEN);
    id[ID_LEN] = '\0';
    int i = table_get(s, id, 0);
    if (i < 0)
        return reply_error(c, 404, "no such game (it may have been closed after %.0f s idle)", s->cfg.idle_close);
    serve_table_t *t = s->slot[i].t;
    char err[400];
    enum MHD_Result r;
    int get = strcmp(method, "GET") == 0, post = strcmp(method, "POST") == 0;
    if (get && !*verb) {
        long since, from;
        if (query_long(c, "since", 0, 1L << 40, -1, &since) < 0 || query_long(c, "from", 0, 1L << 30, 0, &from) < 0)
            r = reply_error(c, 400, "since, from: whole numbers");
        else {
            long seq;
            r = reply_json(c, 200, serve_table_snapshot(t, since, since >= 0 ? s->cfg.poll_wait : 0, (int)from, &seq));
        }
    } else if (get && strcmp(verb, "record") == 0) {
        char *text = serve_table_record(t);
        if (!text)
            r = reply_error(c, 500, "out of memory");
        else {
            struct MHD_Response *resp = MHD_create_response_from_buffer(strlen(text), text, MHD_RESPMEM_MUST_FREE);
            if (!resp) {
                free(text);
                r = MHD_NO;
            } else {
                MHD_add_response_header(resp, "Content-Type", "text/plain; charset=utf-8");
                MHD_add_response_header(resp, "Content-Disposition", "attachment; filename=\"picket-set.txt\"");
                MHD_add_response_header(resp, "Cache-Control", "no-store");
                r = MHD_queue_response(c, 200, resp);
                MHD_destroy_response(resp);
            }
        }
    } else if (post && strcmp(verb, "move") == 0) {
        static const char *const FIELDS[] = { "move", "cards", NULL };
        cJSON *o = body_object(rq, FIELDS, err, sizeof err);
        const char *text = NULL;
        uint64_t cards = 0;
        int rc = o ? field_string(o, "move", 200, &text, err, sizeof err) : -1;
        const cJSON *list = o ? cJSON_GetObjectItemCaseSensitive(o, "cards") : NULL;
        if (rc == 0 && !text && (!cJSON_IsArray(list) || cJSON_GetArraySize(list) > 24))
            rc = text_fail(err, sizeof err, "give a move, or cards (an array of card names)");
        for (const cJSON *k = rc == 0 && !text ? list->child : NULL; rc == 0 && k; k = k->next) {
            int card = cJSON_IsString(k) ? card_parse(k->valuestring, strlen(k->valuestring)) : -1;
            if (card < 0)
                rc = text_fail(err, sizeof err, "cards: '%.10s' is not a card", cJSON_IsString(k) ? k->valuestring : "?");
            else
                cards |= (uint64_t)1 << card;
        }
        if (rc == 0)
            rc = serve_table_move(t, text, cards, err, sizeof err);
        cJSON_Delete(o);
        r = rc < 0 ? reply_error(c, 409, "%s", err) : ok_reply(c);
    } else if (post && (strcmp(verb, "takeback") == 0 || strcmp(verb, "restart") == 0)) {
        static const char *const NONE[] = { NULL };
        cJSON *o = body_object(rq, NONE, err, sizeof err);
        int rc = !o ? -1
                    : verb[0] == 't' ? serve_table_takeback(t, err, sizeof err)
                                     : serve_table_restart(t, err, sizeof err);
        cJSON_Delete(o);
        r = rc < 0 ? reply_error(c, 409, "%s", err) : ok_reply(c);
    } else if (post && strcmp(verb, "hint") == 0) {
        char *text = serve_table_hint(t, err, sizeof err);
        if (!text)
            r = reply_error(c, 409, "%s", err);
        else {
            size_t n = strlen(text) + 16;
            char *wrapped = malloc(n);
            if (wrapped)
                snprintf(wrapped, n, "{\"hints\":%s}", text);
            free(text);
            r = reply_json(c, 200, wrapped);
        }
    } else if (post && strcmp(verb, "close") == 0) {
        pthread_mutex_lock(&s->lock);
        s->slot[i].refs--;
        int last = s->slot[i].refs == 0;
        serve_table_t *gone = last ? s->slot[i].t : NULL;
        if (last) {
            s->slot[i].t = NULL;
            s->slot[i].id[0] = '\0';
        }
        pthread_mutex_unlock(&s->lock);
        serve_table_free(gone);
        return last ? ok_reply(c) : reply_error(c, 409, "the table is busy: try again");
    } else
        r = reply_error(c, 405, "%s /api/game/ID/%.20s: no such request", method, verb);
    table_put(s, i);
    return r;
}

/* ---------------------------------------------------------------- the daemon */

/* A token bucket for the caller's address: 1 to go on, 0 over its rate. */
static int rate_ok(serve_t *s, struct MHD_Connection *c)
{
    if (s->cfg.rate <= 0)
        return 1;
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    uint32_t addr = 0;
    if (ci && ci->client_addr && ci->client_addr->sa_family == AF_INET)
        addr = ((const struct sockaddr_in *)(const void *)ci->client_addr)->sin_addr.s_addr;
    rate_slot_t *r = &s->rate[rng_mix(addr) % RATE_SLOTS];
    double now = measure_now(), burst = 2 * s->cfg.rate + 10;
    pthread_mutex_lock(&s->lock);
    if (r->addr != addr || r->at == 0) {
        r->addr = addr;
        r->tokens = burst;
        r->at = now;
    }
    r->tokens += (now - r->at) * s->cfg.rate;
    r->tokens = r->tokens > burst ? burst : r->tokens;
    r->at = now;
    int ok = r->tokens >= 1;
    if (ok)
        r->tokens -= 1;
    pthread_mutex_unlock(&s->lock);
    return ok;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                                  const char *version, const char *upload, size_t *upload_size, void **con_cls)
{
    serve_t *s = cls;
    (void)version;
    request_t *rq = *con_cls;
    if (!rq) {
        rq = calloc(1, sizeof *rq);
        if (!rq)
            return MHD_NO;
        rq->limit = strcmp(url, "/api/resume") == 0 || strcmp(url, "/api/review") == 0 ? RECORD_BODY_LIMIT + 4096 : BODY_LIMIT;
        *con_cls = rq;
        return MHD_YES;
    }
    if (*upload_size) {
        if (!rq->too_big && rq->len + *upload_size <= rq->limit) {
            char *b = realloc(rq->body, rq->len + *upload_size + 1);
            if (!b)
                rq->too_big = 1;
            else {
                memcpy(b + rq->len, upload, *upload_size);
                rq->len += *upload_size;
                b[rq->len] = '\0';
                rq->body = b;
            }
        } else
            rq->too_big = 1;
        *upload_size = 0;
        return MHD_YES;
    }
    if (rq->too_big)
        return reply_error(c, 413, "the body is longer than %zu bytes", rq->limit);
    int get = strcmp(method, "GET") == 0, post = strcmp(method, "POST") == 0;
    if (!get && !post)
        return reply_error(c, 405, "only GET and POST");
    if (strncmp(url, "/api/", 5) != 0) {
        for (int i = 0; get && i < N_PAGE_FILES; i++)
            if (strcmp(url, PAGE_FILES[i].path) == 0)
                return reply(c, 200, PAGE_FILES[i].type, s->page[i], s->page_len[i], 0);
        if (get && strcmp(url, "/favicon.ico") == 0)
            return reply(c, 204, "text/plain", "", 0, 0);
        return reply_error(c, 404, "no such page");
    }
    if (!rate_ok(s, c))
        return reply_error(c, 429, "too many requests from your address: slow down");
    if (get && strcmp(url, "/api/info") == 0)
        return api_info(s, c);
    if (post && strcmp(url, "/api/new") == 0)
        return api_new(s, c, rq);
    if (post && strcmp(url, "/api/resume") == 0)
        return api_resume(s, c, rq);
    if (strncmp(url, "/api/game/", 10) == 0)
        return api_game(s, c, url + 10, method, rq);
    if (get && strcmp(url, "/api/records") == 0)
        return api_records(s, c);
    if (get && strcmp(url, "/api/watch") == 0)
        return s->watch ? reply_json(c, 200, serve_watch_json(s->watch))
                        : reply_error(c, 404, "this server follows no arena (picket-serve --watch RESULTS)");
    if (post && strcmp(url, "/api/review") == 0)
        return api_review(s, c, rq);
    if (get && strncmp(url, "/api/review/", 12) == 0) {
        int i = table_get(s, url + 12, 1);
        if (i < 0)
            return reply_error(c, 404, "no such review");
        enum MHD_Result r = reply_json(c, 200, serve_review_json(s->slot[i].r));
        table_put(s, i);
        return r;
    }
    return reply_error(c, 404, "no such request");
}

static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls, enum MHD_RequestTerminationCode why)
{
    (void)cls;
    (void)c;
    (void)why;
    request_t *rq = *con_cls;
    if (rq) {
        free(rq->body);
        free(rq);
    }
    *con_cls = NULL;
}

static int load_page(serve_t *s, char *err, size_t errlen)
{
    for (int i = 0; i < N_PAGE_FILES; i++) {
        char path[1200], why[400];
        snprintf(path, sizeof path, "%s/%s", s->cfg.web_dir, PAGE_FILES[i].file);
        FILE *f = lines_open(path, why, sizeof why);
        if (!f)
            return text_fail(err, errlen, "--web: %s", why);
        size_t cap = 1 << 16, len = 0;
        char *buf = malloc(cap);
        while (buf) {
            len += fread(buf + len, 1, cap - len, f);
            if (len < cap)
                break;
            char *b = cap < (1u << 24) ? realloc(buf, cap *= 2) : NULL;
            if (!b)
                free(buf);
            buf = b;
        }
        int bad = ferror(f);
        fclose(f);
        if (!buf || bad) {
            free(buf);
            return text_fail(err, errlen, "--web: cannot read %s", path);
        }
        s->page[i] = buf;
        s->page_len[i] = len;
    }
    return 0;
}

/* Each engine must start and answer before anyone sits down. */
static int check_engines(serve_t *s, char *err, size_t errlen)
{
    for (int i = 0; i <= s->cfg.n_engines; i++) {
        arena_spec_t *spec = i < s->cfg.n_engines ? &s->cfg.engine[i] : s->cfg.has_hint ? &s->cfg.hint : NULL;
        if (!spec)
            continue;
        char why[400];
        arena_engine_t e = { 0 };
        if (arena_spec_check(spec, why, sizeof why) < 0 || arena_engine_start(&e, spec, "picket", why, sizeof why) < 0)
            return text_fail(err, errlen, "engine %s: %s", spec->name, why);
        arena_engine_stop(&e);
    }
    return 0;
}

serve_t *serve_start(serve_config_t *cfg, char *err, size_t errlen)
{
    serve_t *s = calloc(1, sizeof *s);
    if (!s) {
        text_fail(err, errlen, "out of memory");
        return NULL;
    }
    s->cfg = *cfg;
    cfg->n_engines = 0; /* the server owns them now */
    cfg->has_hint = 0;
    pthread_mutex_init(&s->lock, NULL);
    s->slot = calloc((size_t)s->cfg.max_games, sizeof *s->slot);
    struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = htons((uint16_t)s->cfg.port) };
    int rc = s->slot ? 0 : text_fail(err, errlen, "out of memory");
    if (rc == 0 && inet_pton(AF_INET, s->cfg.listen_addr, &addr.sin_addr) != 1)
        rc = text_fail(err, errlen, "--listen: '%.40s' is not an IPv4 address", s->cfg.listen_addr);
    if (rc == 0)
        rc = load_page(s, err, errlen);
    if (rc == 0)
        rc = check_engines(s, err, errlen);
    struct stat sb;
    if (rc == 0 && s->cfg.watch_records[0] && (stat(s->cfg.watch_records, &sb) != 0 || !S_ISDIR(sb.st_mode)))
        rc = text_fail(err, errlen, "--watch-records: '%.200s' is not a folder", s->cfg.watch_records);
    if (rc == 0 && s->cfg.records_dir[0] && (stat(s->cfg.records_dir, &sb) != 0 || !S_ISDIR(sb.st_mode)))
        rc = text_fail(err, errlen, "--records: '%.200s' is not a folder", s->cfg.records_dir);
    if (rc == 0 && s->cfg.watch_records[0] && !s->cfg.watch_results[0])
        rc = text_fail(err, errlen, "--watch-records needs --watch RESULTS (the same run's results file)");
    if (rc == 0 && s->cfg.watch_results[0] && stat(s->cfg.watch_results, &sb) == 0 && !S_ISREG(sb.st_mode))
        rc = text_fail(err, errlen, "--watch: '%.200s' is not a regular file", s->cfg.watch_results);
    if (rc == 0 && s->cfg.watch_results[0] &&
        !(s->watch = serve_watch_new(s->cfg.watch_results, s->cfg.watch_records[0] ? s->cfg.watch_records : NULL)))
        rc = text_fail(err, errlen, "out of memory");
    if (rc == 0) {
        unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION | MHD_USE_POLL;
        if (!s->cfg.quiet)
            flags |= MHD_USE_ERROR_LOG;
        s->d = MHD_start_daemon(flags, (uint16_t)s->cfg.port, NULL, NULL, on_request, s, MHD_OPTION_SOCK_ADDR,
                                (struct sockaddr *)&addr, MHD_OPTION_CONNECTION_LIMIT,
                                (unsigned)s->cfg.max_connections, MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)120,
                                MHD_OPTION_THREAD_STACK_SIZE, (size_t)(512 * 1024), MHD_OPTION_NOTIFY_COMPLETED,
                                on_completed, s, MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(64 * 1024),
                                MHD_OPTION_END);
        if (!s->d)
            rc = text_fail(err, errlen, "--listen: cannot listen on %s:%d (%s)", s->cfg.listen_addr, s->cfg.port,
                           strerror(errno));
    }
    if (rc < 0) {
        serve_stop(s);
        return NULL;
    }
    return s;
}

int serve_port(const serve_t *s)
{
    const union MHD_DaemonInfo *i = MHD_get_daemon_info(s->d, MHD_DAEMON_INFO_BIND_PORT);
    return i ? (int)i->port : -1;
}

void serve_stop(serve_t *s)
{
    if (!s)
        return;
    /* Polls waiting for news answer now, so that the connections end at once. */
    pthread_mutex_lock(&s->lock);
    for (int i = 0; s->slot && i < s->cfg.max_games; i++)
        if (s->slot[i].t)
            serve_table_wake(s->slot[i].t);
    pthread_mutex_unlock(&s->lock);
    if (s->d)
        MHD_stop_daemon(s->d);
    for (int i = 0; s->slot && i < s->cfg.max_games; i++) {
        serve_table_free(s->slot[i].t);
        serve_review_free(s->slot[i].r);
    }
    free(s->slot);
    serve_watch_free(s->watch);
    for (int i = 0; i < N_PAGE_FILES; i++)
        free(s->page[i]);
    for (int i = 0; i < s->cfg.n_engines; i++)
        arena_spec_free(&s->cfg.engine[i]);
    if (s->cfg.has_hint)
        arena_spec_free(&s->cfg.hint);
    pthread_mutex_destroy(&s->lock);
    free(s);
}
