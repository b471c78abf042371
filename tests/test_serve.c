/* test_serve: picket-serve's API, in process (serve_http.h) over loopback HTTP, with engine
 * processes (PICKET_ENGINE, PICKET_FAULT_ENGINE).
 *
 *  - whole sets through the API, Picket and Court Circular for four, with the leak check of the
 *    arena's spy test: every event the person was sent equals what the referee routes that seat
 *    when the saved record is replayed, and every card the table shows (hand, piles) was named
 *    to the person before; the deals' seed stays hidden until the set is over;
 *  - take-back, resume from a saved record, hints, an engine that crashes and a restart;
 *  - refusals: unknown fields, bad JSON, bodies over the limit, unknown engines and games, ids
 *    and paths that do not exist (no path escapes), the table cap, the rate limit. */
#define _GNU_SOURCE
#include <CUnit/CUnit.h>
#include <cjson/cJSON.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cards.h"
#include "game.h"
#include "record.h"
#include "serve_client.h"
#include "serve_http.h"
#include "serve_table.h"
#include "test_util.h"

static const char *engine_path(void)
{
    const char *p = getenv("PICKET_ENGINE");
    return p ? p : "build/tools/picket-engine";
}

static void add_engine(serve_config_t *c, const char *name, const char *cmd, const char *extra)
{
    char why[400], field[1200];
    arena_spec_t *s = &c->engine[c->n_engines++];
    arena_spec_init(s);
    snprintf(field, sizeof field, "cmd=%s", cmd);
    CU_ASSERT_FATAL(arena_spec_set(s, field, why, sizeof why) == 0);
    snprintf(field, sizeof field, "name=%s", name);
    CU_ASSERT_FATAL(arena_spec_set(s, field, why, sizeof why) == 0);
    CU_ASSERT_FATAL(arena_spec_set(s, "option.info=false", why, sizeof why) == 0);
    for (const char *e = extra; e && *e;) {
        const char *sp = strchr(e, ' ');
        size_t n = sp ? (size_t)(sp - e) : strlen(e);
        snprintf(field, sizeof field, "%.*s", (int)n, e);
        CU_ASSERT_FATAL(arena_spec_set(s, field, why, sizeof why) == 0);
        e += n + (sp != NULL);
    }
}

/* A server on a free port: engines level-1 (random) and level-2 (heuristic), hints by level 2. */
static const char *records_folder; /* --records for the next server (NULL: none) */

static serve_t *server_watching(int max_games, double rate, int with_fault, const char *results, const char *records)
{
    static serve_config_t c;
    memset(&c, 0, sizeof c);
    if (records_folder)
        snprintf(c.records_dir, sizeof c.records_dir, "%s", records_folder);
    if (results)
        snprintf(c.watch_results, sizeof c.watch_results, "%s", results);
    if (records)
        snprintf(c.watch_records, sizeof c.watch_records, "%s", records);
    snprintf(c.listen_addr, sizeof c.listen_addr, "127.0.0.1");
    snprintf(c.web_dir, sizeof c.web_dir, "tools/serve/web");
    c.max_games = max_games;
    c.max_connections = 64;
    c.rate = rate;
    c.idle_close = 3600;
    c.poll_wait = 2;
    c.quiet = 1;
    c.engine_seed_given = 1; /* the same engines' choices every run */
    c.engine_seed = 1;
    add_engine(&c, "level-1", engine_path(), "option.level=1");
    add_engine(&c, "level-2", engine_path(), "option.level=2");
    if (with_fault && getenv("PICKET_FAULT_ENGINE")) {
        add_engine(&c, "crashy", getenv("PICKET_FAULT_ENGINE"), "arg=crash arg=1 arg=3");
        add_engine(&c, "hangy", getenv("PICKET_FAULT_ENGINE"), "arg=hang arg=1 arg=3 timeout=1");
        add_engine(&c, "slowpoke", getenv("PICKET_FAULT_ENGINE"), "arg=slow arg=5000 timeout=60");
    }
    char why[400];
    arena_spec_init(&c.hint);
    snprintf(why, sizeof why, "cmd=%s", engine_path());
    CU_ASSERT_FATAL(arena_spec_set(&c.hint, why, why, sizeof why) == 0);
    CU_ASSERT_FATAL(arena_spec_set(&c.hint, "name=hints", why, sizeof why) == 0);
    CU_ASSERT_FATAL(arena_spec_set(&c.hint, "option.level=2", why, sizeof why) == 0);
    c.has_hint = 1;
    c.hint_unit = SERVE_VALUES_RAW; /* level 2: the heuristic's scores */
    serve_t *s = serve_start(&c, why, sizeof why);
    if (!s)
        fprintf(stderr, "serve_start: %s\n", why);
    CU_ASSERT_FATAL(s != NULL);
    return s;
}

static serve_t *server(int max_games, double rate, int with_fault)
{
    return server_watching(max_games, rate, with_fault, NULL, NULL);
}

/* One request; the status, and the body (malloc'd) in *out. */
static int http(serve_t *s, const char *method, const char *path, const char *body, char **out)
{
    int status = serve_client_request(serve_port(s), method, path, body, out);
    CU_ASSERT_FATAL(status != 0);
    return status;
}

static cJSON *http_json(serve_t *s, const char *method, const char *path, const char *body, int *status)
{
    char *text;
    *status = http(s, method, path, body, &text);
    cJSON *j = cJSON_Parse(text);
    free(text);
    CU_ASSERT_PTR_NOT_NULL(j);
    return j;
}

static char *new_game(serve_t *s, const char *body)
{
    int st;
    cJSON *j = http_json(s, "POST", "/api/new", body, &st);
    CU_ASSERT_EQUAL(st, 200);
    const cJSON *id = cJSON_GetObjectItem(j, "id");
    char *out = cJSON_IsString(id) ? strdup(id->valuestring) : NULL;
    if (!out && j)
        fprintf(stderr, "new game: %s\n", cJSON_PrintUnformatted(j));
    CU_ASSERT_FATAL(out != NULL && strlen(out) == 32);
    cJSON_Delete(j);
    return out;
}

/* The snapshot once it is the person's move or the set has ended. */
static cJSON *settled(serve_t *s, const char *id)
{
    char path[128];
    for (int tries = 0; tries < 600; tries++) {
        int st;
        snprintf(path, sizeof path, "/api/game/%s", id);
        cJSON *j = http_json(s, "GET", path, NULL, &st);
        CU_ASSERT_EQUAL_FATAL(st, 200);
        const char *status = cJSON_GetStringValue(cJSON_GetObjectItem(j, "status"));
        if (status && strcmp(status, "thinking") != 0)
            return j;
        long seq = (long)cJSON_GetNumberValue(cJSON_GetObjectItem(j, "seq"));
        cJSON_Delete(j);
        snprintf(path, sizeof path, "/api/game/%s?since=%ld&from=100000", id, seq);
        j = http_json(s, "GET", path, NULL, &st); /* a long poll: back at the next step */
        cJSON_Delete(j);
    }
    CU_FAIL_FATAL("the table never came back to the person");
    return NULL;
}

/* Every card the table shows was named in an event the person was sent. */
static void check_no_leak(const cJSON *snap)
{
    cardset_t told = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(snap, "events"))
    {
        char buf[SERVE_EVENT_LEN];
        snprintf(buf, sizeof buf, "%s", e->valuestring);
        for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
            int c = card_parse(tok, strlen(tok));
            if (c >= 0 && strlen(tok) == 2)
                told |= cardset_of(c);
        }
    }
    const cJSON *table = cJSON_GetObjectItem(snap, "table"), *c;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(table, "hand")) CU_ASSERT(cardset_has(told, card_parse(c->valuestring, 2)));
    const cJSON *p;
    cJSON_ArrayForEach(p, cJSON_GetObjectItem(table, "piles"))
    {
        cJSON_ArrayForEach(c, cJSON_GetObjectItem(p, "cards")) CU_ASSERT(cardset_has(told, card_parse(c->valuestring, 2)));
    }
}

/* Make a move: a listed move (the first, or a rotating one), else a discard of the fewest lit
 * cards the rules take. 0 once a move went in. */
static int play_one(serve_t *s, const char *id, const cJSON *snap, int turn)
{
    char path[128], body[512];
    int st;
    snprintf(path, sizeof path, "/api/game/%s/move", id);
    const cJSON *moves = cJSON_GetObjectItem(snap, "moves");
    int n = cJSON_GetArraySize(moves);
    if (n > 0) {
        const cJSON *m = cJSON_GetArrayItem(moves, turn % n);
        snprintf(body, sizeof body, "{\"move\":\"%s\"}", cJSON_GetStringValue(cJSON_GetObjectItem(m, "text")));
        cJSON_Delete(http_json(s, "POST", path, body, &st));
        return st == 200 ? 0 : -1;
    }
    const cJSON *lit = cJSON_GetObjectItem(snap, "cards_lit");
    for (int k = 1; k <= cJSON_GetArraySize(lit); k++) {
        size_t len = (size_t)snprintf(body, sizeof body, "{\"cards\":[");
        for (int i = 0; i < k; i++)
            len += (size_t)snprintf(body + len, sizeof body - len, "%s\"%s\"", i ? "," : "",
                                    cJSON_GetArrayItem(lit, i)->valuestring);
        snprintf(body + len, sizeof body - len, "]}");
        cJSON_Delete(http_json(s, "POST", path, body, &st));
        if (st == 200)
            return 0;
    }
    return -1;
}

/* The person's events as the referee routes them when the saved record is replayed. */
typedef struct seat_events {
    int seat;
    char (*text)[SERVE_EVENT_LEN];
    int n;
} seat_events_t;

static void collect(void *data, const game_t *g, const game_event_t *ev)
{
    seat_events_t *se = data;
    if ((ev->audience == GAME_ALL || ev->audience == se->seat) && se->n < SERVE_MAX_EVENTS)
        g->event_format(ev, se->text[se->n++], SERVE_EVENT_LEN);
}

static void check_events_match_record(serve_t *s, const char *id, int seat)
{
    char path[128], *record;
    snprintf(path, sizeof path, "/api/game/%s/record", id);
    CU_ASSERT_EQUAL(http(s, "GET", path, NULL, &record), 200);
    FILE *f = fmemopen(record, strlen(record), "r");
    record_t rec = { 0 };
    char why[400];
    seat_events_t se = { seat, malloc(sizeof *se.text * SERVE_MAX_EVENTS), 0 };
    int rc = record_replay(f, &rec, collect, &se, why, sizeof why);
    if (rc < 0)
        fprintf(stderr, "replay: %s\n", why);
    CU_ASSERT_EQUAL(rc, 0);
    record_free(&rec);
    fclose(f);
    int st;
    snprintf(path, sizeof path, "/api/game/%s?from=0", id);
    cJSON *snap = http_json(s, "GET", path, NULL, &st);
    const cJSON *ev = cJSON_GetObjectItem(snap, "events");
    CU_ASSERT_EQUAL(cJSON_GetArraySize(ev), se.n);
    int i = 0, same = 1;
    const cJSON *e;
    cJSON_ArrayForEach(e, ev) same &= i < se.n && strcmp(e->valuestring, se.text[i++]) == 0;
    CU_ASSERT(same);
    cJSON_Delete(snap);
    free(se.text);
    free(record);
}

static void play_to_end(serve_t *s, const char *id, int seat, int max_turns)
{
    int turns = 0;
    for (; turns < max_turns; turns++) {
        cJSON *snap = settled(s, id);
        const char *status = cJSON_GetStringValue(cJSON_GetObjectItem(snap, "status"));
        check_no_leak(snap);
        int over = strcmp(status, "over") == 0;
        CU_ASSERT_PTR_NOT_NULL(cJSON_GetObjectItem(snap, "seed")); /* chosen, so shown */
        if (over || strcmp(status, "fault") == 0) {
            CU_ASSERT_STRING_EQUAL(status, "over");
            cJSON_Delete(snap);
            break;
        }
        CU_ASSERT_EQUAL(play_one(s, id, snap, turns), 0);
        cJSON_Delete(snap);
    }
    CU_ASSERT(turns < max_turns);
    check_events_match_record(s, id, seat);
}

static void test_picket_set_through_the_api(void)
{
    serve_t *s = server(4, 0, 0);
    char *id = new_game(s, "{\"game\":\"picket\",\"preset\":\"cotton\",\"engine\":\"level-2\",\"flags\":[\"target=60\"],\"seed\":\"5\"}");
    play_to_end(s, id, 0, 3000);
    free(id);
    id = new_game(s, "{\"seat\":1,\"engine\":\"level-1\",\"seed\":\"6\"}");
    play_to_end(s, id, 1, 3000);
    free(id);
    /* Rubicon Piquet with sinking: the engine's calls are claims to the person, never cards
     * until shown; the person's own calls rotate through the listed ones. */
    id = new_game(s, "{\"game\":\"picket\",\"preset\":\"cavendish\",\"engine\":\"level-2\",\"seed\":\"8\"}");
    play_to_end(s, id, 0, 3000);
    free(id);
    /* Deals the server drew: their seed names every card, so it is not shown while the set goes on. */
    id = new_game(s, "{\"engine\":\"level-1\"}");
    cJSON *snap = settled(s, id);
    CU_ASSERT_STRING_EQUAL(cJSON_GetStringValue(cJSON_GetObjectItem(snap, "status")), "your-move");
    CU_ASSERT_PTR_NULL(cJSON_GetObjectItem(snap, "seed"));
    cJSON_Delete(snap);
    free(id);
    serve_stop(s);
}

static void expect_error(serve_t *s, const char *method, const char *path, const char *body, int status, const char *words);

/* The record of a set played to its end through the API (malloc'd). */
static char *finished_record(serve_t *s, const char *body)
{
    char *id = new_game(s, body), path[128], *record;
    play_to_end(s, id, 0, 3000);
    snprintf(path, sizeof path, "/api/game/%s/record", id);
    CU_ASSERT_EQUAL(http(s, "GET", path, NULL, &record), 200);
    free(id);
    return record;
}

static void test_review(void)
{
    serve_t *s = server(4, 0, 0);
    char *record = finished_record(s, "{\"engine\":\"level-2\",\"seed\":\"12\",\"flags\":[\"target=40\"]}");
    cJSON *body = cJSON_CreateObject();
    cJSON_AddStringToObject(body, "record", record);
    char *text = cJSON_PrintUnformatted(body), path[128];
    int st;
    cJSON *j = http_json(s, "POST", "/api/review", text, &st);
    CU_ASSERT_EQUAL_FATAL(st, 200);
    snprintf(path, sizeof path, "/api/review/%s", cJSON_GetStringValue(cJSON_GetObjectItem(j, "id")));
    cJSON_Delete(j);
    cJSON *r = NULL;
    for (int tries = 0; tries < 600; tries++) {
        cJSON_Delete(r);
        r = http_json(s, "GET", path, NULL, &st);
        if (cJSON_IsTrue(cJSON_GetObjectItem(r, "done")))
            break;
        usleep(50000);
    }
    CU_ASSERT_FATAL(cJSON_IsTrue(cJSON_GetObjectItem(r, "done")));
    const cJSON *steps = cJSON_GetObjectItem(r, "steps"), *step;
    int moves = 0, to_value = 0, valued = 0;
    for (const char *m = record; (m = strstr(m, "\nmove ")) != NULL; m++)
        moves++;
    CU_ASSERT_EQUAL(cJSON_GetArraySize(steps), moves);
    cJSON_ArrayForEach(step, steps)
    {
        /* Every seat's cards, none in two hands; the mover's move valued unless forced. */
        cardset_t seen = 0;
        const cJSON *hand, *c;
        cJSON_ArrayForEach(hand, cJSON_GetObjectItem(step, "hands")) cJSON_ArrayForEach(c, hand)
        {
            int card = card_parse(c->valuestring, 2);
            CU_ASSERT(!cardset_has(seen, card));
            seen |= cardset_of(card);
        }
        if (cJSON_GetNumberValue(cJSON_GetObjectItem(step, "legal")) > 1) {
            to_value++;
            valued += cJSON_GetObjectItem(step, "loss") != NULL;
            /* The heuristic's scores are no points: no loss in points is claimed. */
            CU_ASSERT(cJSON_IsFalse(cJSON_GetObjectItem(step, "points")));
        }
    }
    CU_ASSERT(to_value > 20);
    CU_ASSERT_EQUAL(valued, to_value);
    CU_ASSERT_EQUAL((int)cJSON_GetNumberValue(cJSON_GetObjectItem(r, "to_value")), to_value);
    /* The seats' names from the record's comment ("# picket-serve: seat 0 you, seat 1 level-2"). */
    const cJSON *names = cJSON_GetObjectItem(r, "names");
    CU_ASSERT_STRING_EQUAL(cJSON_GetArrayItem(names, 0)->valuestring, "you");
    CU_ASSERT_STRING_EQUAL(cJSON_GetArrayItem(names, 1)->valuestring, "level-2");
    cJSON_Delete(r);
    /* A set still in play is not reviewed: it would show its player the cards he may not see. */
    char *cut = strdup(record);
    char *end = strstr(cut, "\nresult");
    CU_ASSERT_PTR_NOT_NULL_FATAL(end);
    end[1] = '\0';
    for (int i = 0; i < 20 && (end = strrchr(cut, '\n')) != NULL && end > cut; i++) {
        *end = '\0';
        char *prev = strrchr(cut, '\n');
        if (prev)
            prev[1] = '\0';
    }
    cJSON_ReplaceItemInObject(body, "record", cJSON_CreateString(cut));
    free(text);
    text = cJSON_PrintUnformatted(body);
    expect_error(s, "POST", "/api/review", text, 400, "only a finished set is reviewed");
    expect_error(s, "GET", "/api/review/0123456789abcdef0123456789abcdef", NULL, 404, "no such review");
    free(cut);
    free(text);
    cJSON_Delete(body);
    free(record);
    serve_stop(s);
}

static void test_review_from_folder(void)
{
    char dir[256];
    test_tmpdir_make(dir, sizeof dir, "serve-records");
    serve_t *s = server(4, 0, 0);
    char *record = finished_record(s, "{\"engine\":\"level-1\",\"seed\":\"14\",\"flags\":[\"target=30\"]}");
    serve_stop(s);
    FILE *f = fopen(test_path(dir, "set-1.txt"), "w");
    fputs(record, f);
    fclose(f);
    free(record);
    f = fopen(test_path(dir, "notes.md"), "w");
    fclose(f);
    f = fopen(test_path(dir, ".hidden.txt"), "w");
    fclose(f);
    records_folder = dir;
    s = server(4, 0, 0);
    records_folder = NULL;
    int st;
    cJSON *j = http_json(s, "GET", "/api/records", NULL, &st);
    const cJSON *list = cJSON_GetObjectItem(j, "records");
    CU_ASSERT_EQUAL(cJSON_GetArraySize(list), 1);
    CU_ASSERT_STRING_EQUAL(cJSON_GetArrayItem(list, 0)->valuestring, "set-1.txt");
    cJSON_Delete(j);
    j = http_json(s, "POST", "/api/review", "{\"file\":\"set-1.txt\"}", &st);
    CU_ASSERT_EQUAL(st, 200);
    cJSON_Delete(j);
    expect_error(s, "POST", "/api/review", "{\"file\":\"../set-1.txt\"}", 400, "not a record's name");
    expect_error(s, "POST", "/api/review", "{\"file\":\"/etc/passwd\"}", 400, "not a record's name");
    expect_error(s, "POST", "/api/review", "{\"file\":\"missing.txt\"}", 400, "no record 'missing.txt'");
    serve_stop(s);
    s = server(2, 0, 0);
    expect_error(s, "GET", "/api/records", NULL, 404, "no records folder");
    serve_stop(s);
    test_tmpdir_remove(dir);
}

static void test_watch(void)
{
    char dir[256];
    test_tmpdir_make(dir, sizeof dir, "serve-watch");
    /* A set in progress: a record whose dealt hands (private events) must not be shown. */
    serve_t *s = server(4, 0, 0);
    char *id = new_game(s, "{\"engine\":\"level-1\",\"seed\":\"13\"}"), path[128], *record;
    cJSON *snap = settled(s, id);
    for (int t = 0; t < 8; t++) {
        play_one(s, id, snap, t);
        cJSON_Delete(snap);
        snap = settled(s, id);
    }
    cJSON_Delete(snap);
    snprintf(path, sizeof path, "/api/game/%s/record", id);
    CU_ASSERT_EQUAL(http(s, "GET", path, NULL, &record), 200);
    free(id);
    serve_stop(s);
    char recs[300];
    snprintf(recs, sizeof recs, "%s/records", dir);
    CU_ASSERT_FATAL(mkdir(recs, 0700) == 0);
    FILE *f = fopen(test_path(recs, "round-000001-pairing-000-leg-0.txt"), "w");
    fprintf(f, "%s# seat 0: alpha\n# seat 1: beta\n", record);
    fclose(f);
    free(record);
    f = fopen(test_path(dir, "run.jsonl"), "w");
    fprintf(f, "{\"type\":\"run\",\"format\":2,\"run\":{\"game\":\"picket\",\"preset\":\"cotgrave\"}}\n"
               "{\"type\":\"set\",\"seats\":[\"alpha\",\"beta\"],\"ranks\":[0,1],\"scores\":[101,40],\"fault_seat\":-1,\"reason\":\"normal\",\"record\":\"x/round-000000-pairing-000-leg-0.txt\"}\n"
               "{\"type\":\"set\",\"seats\":[\"beta\",\"alpha\"],\"ranks\":[0,0],\"scores\":[100,100],\"fault_seat\":-1,\"reason\":\"normal\"}\n"
               "{\"type\":\"set\",\"seats\":[\"be");
    fclose(f);
    s = server_watching(4, 0, 0, test_path(dir, "run.jsonl"), recs);
    int st;
    cJSON *w = http_json(s, "GET", "/api/watch", NULL, &st);
    CU_ASSERT_EQUAL(st, 200);
    CU_ASSERT_EQUAL((int)cJSON_GetNumberValue(cJSON_GetObjectItem(w, "sets_done")), 2); /* the half line waits */
    const cJSON *first = cJSON_GetArrayItem(cJSON_GetObjectItem(w, "standings"), 0);
    CU_ASSERT_STRING_EQUAL(cJSON_GetStringValue(cJSON_GetObjectItem(first, "name")), "alpha");
    CU_ASSERT_EQUAL((int)cJSON_GetNumberValue(cJSON_GetObjectItem(first, "score")), 75);
    const cJSON *live = cJSON_GetObjectItem(w, "live");
    CU_ASSERT_EQUAL_FATAL(cJSON_GetArraySize(live), 1);
    const cJSON *set = cJSON_GetArrayItem(live, 0), *e;
    CU_ASSERT_STRING_EQUAL(cJSON_GetArrayItem(cJSON_GetObjectItem(set, "names"), 1)->valuestring, "beta");
    int events = 0;
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(set, "events"))
    {
        events++;
        CU_ASSERT(strncmp(e->valuestring, "dealt", 5) != 0);
        CU_ASSERT(strncmp(e->valuestring, "draw", 4) != 0 || strlen(e->valuestring) < 10); /* a count, no cards */
    }
    CU_ASSERT(events > 0);
    cJSON_Delete(w);
    serve_stop(s);
    /* A server with no arena to follow says so. */
    s = server(2, 0, 0);
    expect_error(s, "GET", "/api/watch", NULL, 404, "follows no arena");
    serve_stop(s);
    test_tmpdir_remove(dir);
}

static void test_court_circular_for_four(void)
{
    serve_t *s = server(4, 0, 0);
    char *id = new_game(s, "{\"game\":\"court-circular\",\"players\":4,\"seat\":2,\"engines\":[\"level-1\",\"level-2\",\"level-1\"],\"seed\":\"7\"}");
    play_to_end(s, id, 2, 5000);
    int st;
    char path[128];
    snprintf(path, sizeof path, "/api/game/%s?from=0", id);
    cJSON *snap = http_json(s, "GET", path, NULL, &st);
    const cJSON *names = cJSON_GetObjectItem(snap, "names");
    CU_ASSERT_EQUAL(cJSON_GetArraySize(names), 4);
    CU_ASSERT_STRING_EQUAL(cJSON_GetArrayItem(names, 2)->valuestring, "you");
    CU_ASSERT_STRING_EQUAL(cJSON_GetArrayItem(names, 1)->valuestring, "level-2");
    cJSON_Delete(snap);
    free(id);
    serve_stop(s);
}

static int moves_played(serve_t *s, const char *id)
{
    cJSON *snap = settled(s, id);
    int n = (int)cJSON_GetNumberValue(cJSON_GetObjectItem(snap, "moves_played"));
    cJSON_Delete(snap);
    return n;
}

static void test_takeback_resume_hint(void)
{
    serve_t *s = server(4, 0, 0);
    char *id = new_game(s, "{\"engine\":\"level-1\",\"seed\":\"42\"}");
    char path[160];
    int st;
    /* Nothing to take back before the person moves (once the engine has made its first move). */
    cJSON_Delete(settled(s, id));
    snprintf(path, sizeof path, "/api/game/%s/takeback", id);
    cJSON *j = http_json(s, "POST", path, "{}", &st);
    CU_ASSERT_EQUAL(st, 409);
    CU_ASSERT_PTR_NOT_NULL(strstr(cJSON_GetStringValue(cJSON_GetObjectItem(j, "error")), "nothing to take back"));
    cJSON_Delete(j);
    /* The seed chosen is shown from the start. */
    cJSON *snap = settled(s, id);
    CU_ASSERT_STRING_EQUAL(cJSON_GetStringValue(cJSON_GetObjectItem(snap, "seed")), "42");
    /* A hint values the person's moves. */
    snprintf(path, sizeof path, "/api/game/%s/hint", id);
    j = http_json(s, "POST", path, "{}", &st);
    CU_ASSERT_EQUAL(st, 200);
    CU_ASSERT(cJSON_GetArraySize(cJSON_GetObjectItem(j, "hints")) > 0);
    cJSON_Delete(j);
    for (int t = 0; t < 6; t++) {
        CU_ASSERT_EQUAL(play_one(s, id, snap, t), 0);
        cJSON_Delete(snap);
        snap = settled(s, id);
    }
    cJSON_Delete(snap);
    int before = moves_played(s, id);
    snprintf(path, sizeof path, "/api/game/%s/takeback", id);
    cJSON_Delete(http_json(s, "POST", path, "{}", &st));
    CU_ASSERT_EQUAL(st, 200);
    int after = moves_played(s, id);
    CU_ASSERT(after < before);
    check_events_match_record(s, id, 0);
    /* Resume the saved record: the same position, at the same seat. */
    char *record;
    snprintf(path, sizeof path, "/api/game/%s/record", id);
    CU_ASSERT_EQUAL(http(s, "GET", path, NULL, &record), 200);
    cJSON *body = cJSON_CreateObject();
    cJSON_AddStringToObject(body, "record", record);
    cJSON_AddStringToObject(body, "engine", "level-1");
    char *text = cJSON_PrintUnformatted(body);
    j = http_json(s, "POST", "/api/resume", text, &st);
    CU_ASSERT_EQUAL(st, 200);
    const char *id2 = cJSON_GetStringValue(cJSON_GetObjectItem(j, "id"));
    CU_ASSERT_PTR_NOT_NULL_FATAL(id2);
    CU_ASSERT(moves_played(s, id2) >= after);
    cJSON_Delete(j);
    /* A record that does not replay is refused with its line. */
    char *bad = strdup(record);
    char *mv = strstr(bad, "\nmove ");
    if (mv)
        memcpy(mv + 1, "move 7 ", 7);
    cJSON_ReplaceItemInObject(body, "record", cJSON_CreateString(bad));
    free(text);
    text = cJSON_PrintUnformatted(body);
    j = http_json(s, "POST", "/api/resume", text, &st);
    CU_ASSERT_EQUAL(st, 400);
    CU_ASSERT_PTR_NOT_NULL(strstr(cJSON_GetStringValue(cJSON_GetObjectItem(j, "error")), "record: line"));
    cJSON_Delete(j);
    free(bad);
    free(text);
    cJSON_Delete(body);
    free(record);
    free(id);
    serve_stop(s);
}

/* Play until the table stops on an engine's fault; the fault's text. */
static char *play_until_fault(serve_t *s, const char *id)
{
    char *fault = NULL;
    for (int turn = 0; turn < 400 && !fault; turn++) {
        cJSON *snap = settled(s, id);
        const char *status = cJSON_GetStringValue(cJSON_GetObjectItem(snap, "status"));
        if (strcmp(status, "fault") == 0)
            fault = strdup(cJSON_GetStringValue(cJSON_GetObjectItem(snap, "fault")));
        else if (strcmp(status, "over") == 0)
            turn = 400;
        else
            play_one(s, id, snap, turn);
        cJSON_Delete(snap);
    }
    return fault;
}

/* A server whose table (*id) stopped on `engine`'s fault, the fault naming it; NULL without the
 * faulty engine. */
static serve_t *faulted(const char *engine, char **id)
{
    if (!getenv("PICKET_FAULT_ENGINE")) {
        CU_FAIL("PICKET_FAULT_ENGINE is not set");
        return NULL;
    }
    serve_t *s = server(4, 0, 1);
    char body[100];
    snprintf(body, sizeof body, "{\"engine\":\"%s\",\"seed\":\"3\"}", engine);
    *id = new_game(s, body);
    char *fault = play_until_fault(s, *id);
    CU_ASSERT_PTR_NOT_NULL_FATAL(fault);
    CU_ASSERT_PTR_NOT_NULL(strstr(fault, engine));
    free(fault);
    return s;
}

static void test_engine_hangs(void)
{
    char *id;
    serve_t *s = faulted("hangy", &id);
    if (!s)
        return;
    free(id);
    serve_stop(s);
}

/* Closing a table while its engine thinks (5 s a move) stops it cleanly: the engine's wait is
 * given up, its process stopped, nothing leaks (the ASan build checks). No time is asserted. */
static void test_close_while_thinking(void)
{
    if (!getenv("PICKET_FAULT_ENGINE")) {
        CU_FAIL("PICKET_FAULT_ENGINE is not set");
        return;
    }
    serve_t *s = server(4, 0, 1);
    char *id = new_game(s, "{\"engine\":\"slowpoke\",\"seed\":\"3\"}"), path[128];
    int thinking = 0, st;
    for (int tries = 0; tries < 200 && !thinking; tries++) {
        snprintf(path, sizeof path, "/api/game/%s", id);
        cJSON *snap = http_json(s, "GET", path, NULL, &st);
        const char *status = cJSON_GetStringValue(cJSON_GetObjectItem(snap, "status"));
        thinking = status && strcmp(status, "thinking") == 0;
        if (status && strcmp(status, "your-move") == 0)
            play_one(s, id, snap, 0);
        cJSON_Delete(snap);
    }
    CU_ASSERT_FATAL(thinking);
    snprintf(path, sizeof path, "/api/game/%s/close", id);
    expect_error(s, "POST", path, "{}", 200, NULL);
    snprintf(path, sizeof path, "/api/game/%s", id);
    expect_error(s, "GET", path, NULL, 404, "no such game");
    free(id);
    serve_stop(s);
}

static void test_engine_crash_and_restart(void)
{
    char *id;
    serve_t *s = faulted("crashy", &id);
    if (!s)
        return;
    int before = moves_played(s, id), st;
    char path[160];
    snprintf(path, sizeof path, "/api/game/%s/move", id);
    cJSON *j = http_json(s, "POST", path, "{\"move\":\"play AS\"}", &st);
    CU_ASSERT_EQUAL(st, 409);
    cJSON_Delete(j);
    snprintf(path, sizeof path, "/api/game/%s/restart", id);
    cJSON_Delete(http_json(s, "POST", path, "{}", &st));
    CU_ASSERT_EQUAL(st, 200);
    /* The same moves on a fresh process, and play goes on from them. */
    cJSON *snap = settled(s, id);
    if (strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(snap, "status")), "your-move") == 0) {
        CU_ASSERT_EQUAL(play_one(s, id, snap, 0), 0);
        cJSON_Delete(snap);
        snap = settled(s, id);
    }
    CU_ASSERT(cJSON_GetNumberValue(cJSON_GetObjectItem(snap, "moves_played")) > before);
    cJSON_Delete(snap);
    free(id);
    serve_stop(s);
}

static void expect_error(serve_t *s, const char *method, const char *path, const char *body, int status, const char *words)
{
    int st;
    char *text;
    st = http(s, method, path, body, &text);
    CU_ASSERT_EQUAL(st, status);
    if (st != status || (words && !strstr(text, words)))
        fprintf(stderr, "%s %s: %d %s\n", method, path, st, text);
    if (words)
        CU_ASSERT_PTR_NOT_NULL(strstr(text, words));
    free(text);
}

static void test_refusals(void)
{
    serve_t *s = server(2, 0, 0);
    expect_error(s, "POST", "/api/new", "{\"bogus\":1}", 400, "unknown field 'bogus'");
    expect_error(s, "POST", "/api/new", "{\"game\":", 400, "not JSON");
    expect_error(s, "POST", "/api/new", "[1]", 400, "not a JSON object");
    expect_error(s, "POST", "/api/new", "{\"engine\":\"sh -c reboot\"}", 400, "no engine named");
    expect_error(s, "POST", "/api/new", "{\"game\":\"chess\"}", 400, "no game named");
    expect_error(s, "POST", "/api/new", "{\"seed\":\"-1\"}", 400, "seed:");
    expect_error(s, "POST", "/api/new", "{\"players\":3}", 400, "players:");
    expect_error(s, "POST", "/api/new", "{\"seat\":2}", 400, "seat:");
    expect_error(s, "POST", "/api/new", "{\"preset\":\"nonesuch\"}", 400, "nonesuch");
    expect_error(s, "POST", "/api/new", "{\"flags\":[\"target=0\"]}", 400, "target");
    expect_error(s, "POST", "/api/new", "{\"game\":\"court-circular\",\"players\":3,\"engines\":[\"level-1\"]}", 400, "engines:");
    char *big = malloc(40000);
    memset(big, ' ', 39999);
    big[0] = '{';
    big[39997] = '}';
    big[39998] = '\0';
    expect_error(s, "POST", "/api/new", big, 413, "longer than");
    free(big);
    expect_error(s, "GET", "/api/game/00000000000000000000000000000000", NULL, 404, "no such game");
    expect_error(s, "GET", "/api/game/../../etc/passwd", NULL, 404, "no such game");
    expect_error(s, "GET", "/../CMakeLists.txt", NULL, 404, "no such page");
    expect_error(s, "GET", "/%2e%2e/CMakeLists.txt", NULL, 404, "no such page");
    expect_error(s, "GET", "/index.html/../table.js", NULL, 404, "no such page");
    expect_error(s, "DELETE", "/api/info", NULL, 405, "only GET and POST");
    char *page;
    CU_ASSERT_EQUAL(http(s, "GET", "/table.js", NULL, &page), 200);
    CU_ASSERT_PTR_NOT_NULL(strstr(page, "picket-serve"));
    free(page);
    /* Moves: not a card, not legal, not the person's turn. */
    char *id = new_game(s, "{\"engine\":\"level-1\",\"seed\":\"9\"}");
    cJSON_Delete(settled(s, id));
    char path[160];
    snprintf(path, sizeof path, "/api/game/%s/move", id);
    expect_error(s, "POST", path, "{\"cards\":[\"ZZ\"]}", 409, "not a card");
    expect_error(s, "POST", path, "{\"move\":\"fly away\"}", 409, "move:");
    expect_error(s, "POST", path, "{\"move\":\"play AS\",\"extra\":true}", 409, "unknown field 'extra'");
    expect_error(s, "POST", path, "{}", 409, "give a move, or cards");
    /* The cap on tables at once. */
    char *id2 = new_game(s, "{\"engine\":\"level-1\"}");
    expect_error(s, "POST", "/api/new", "{\"engine\":\"level-1\"}", 503, "tables in play");
    snprintf(path, sizeof path, "/api/game/%s/close", id2);
    expect_error(s, "POST", path, "{}", 200, NULL);
    char *id3 = new_game(s, "{\"engine\":\"level-1\"}");
    free(id);
    free(id2);
    free(id3);
    serve_stop(s);
    /* The rate limit: bursts of twice the rate plus ten, then 429 (at 1 a second, 40 requests see
     * at least 15 refused unless they took over 13 s). */
    s = server(2, 1, 0);
    int refused = 0;
    for (int i = 0; i < 40; i++) {
        char *text;
        refused += http(s, "GET", "/api/info", NULL, &text) == 429;
        free(text);
    }
    CU_ASSERT(refused >= 15);
    serve_stop(s);
}

/* The program's command line: each bad option one line on stderr, exit 2, nothing served. */
static void test_command_line(void)
{
    const char *prog = getenv("PICKET_SERVE");
    if (!prog) {
        CU_FAIL("PICKET_SERVE is not set");
        return;
    }
    static const struct {
        const char *args, *words;
    } BAD[] = {
        { "--listen foo", "--listen: 'foo' is not ADDR:PORT" },
        { "--listen 127.0.0.1:70000", "--listen:" },
        { "--listen 300.1.2.3:0", "not an IPv4 address" },
        { "--max-games 0", "--max-games:" },
        { "--max-games", "--max-games needs a value" },
        { "--rate -1", "--rate:" },
        { "--hint-level 6", "--hint-level:" },
        { "--engine-seed x", "--engine-seed:" },
        { "--engine", "--engine needs fields" },
        { "--engine cmd=/nonexistent/engine name=x --listen 127.0.0.1:0", "engine x: cmd: cannot start" },
        { "--engine name=x", "--engine: cmd" },
        { "--watch-records /nonexistent --watch /tmp/x.jsonl --listen 127.0.0.1:0", "--watch-records:" },
        { "--records /nonexistent --listen 127.0.0.1:0", "--records:" },
        { "--web /nonexistent --listen 127.0.0.1:0", "--web:" },
        { "--bogus", "unknown option '--bogus'" },
    };
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        char cmd[600], out[1000] = "";
        snprintf(cmd, sizeof cmd, "%s %s 2>&1 >/dev/null", prog, BAD[i].args);
        FILE *p = popen(cmd, "r");
        size_t n = fread(out, 1, sizeof out - 1, p);
        out[n] = '\0';
        int status = pclose(p);
        CU_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 2);
        CU_ASSERT_PTR_NOT_NULL(strstr(out, BAD[i].words));
        CU_ASSERT(n > 0 && strchr(out, '\n') == out + n - 1); /* one line */
        if (!strstr(out, BAD[i].words))
            fprintf(stderr, "%s: %s\n", BAD[i].args, out);
    }
    char cmd[600], out[200] = "";
    snprintf(cmd, sizeof cmd, "%s -version", prog);
    FILE *p = popen(cmd, "r");
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    CU_ASSERT_EQUAL(pclose(p), 0);
    CU_ASSERT(strncmp(out, "picket-serve ", 13) == 0);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("serve", NULL, NULL);
    CU_add_test(s, "command line", test_command_line);
    CU_add_test(s, "refusals", test_refusals);
    CU_add_test(s, "picket set through the api", test_picket_set_through_the_api);
    CU_add_test(s, "court circular for four", test_court_circular_for_four);
    CU_add_test(s, "takeback, resume, hint", test_takeback_resume_hint);
    CU_add_test(s, "engine crash and restart", test_engine_crash_and_restart);
    CU_add_test(s, "engine hangs", test_engine_hangs);
    CU_add_test(s, "close while an engine thinks", test_close_while_thinking);
    CU_add_test(s, "review", test_review);
    CU_add_test(s, "review from the records folder", test_review_from_folder);
    CU_add_test(s, "watch", test_watch);
    return test_run_all();
}
