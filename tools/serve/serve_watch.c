/* serve_watch: a running picket-arena followed from outside (serve_watch.h). */
#define _GNU_SOURCE
#include "serve_watch.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "game.h"
#include "record.h"

enum {
    MAX_NAMES = 64,
    NAME_LEN = 64,
    RECENT = 10,
    LIVE_MAX = 16,
    LIVE_EVENTS = 14,
    LINE_MAX_LEN = 1 << 16,
    LIVE_FILE_MAX = 1 << 20,
    DONE_MAX = 1 << 16,          /* the finished sets' records remembered (to tell the live ones) */
};
static const double LIVE_SECONDS = 600; /* a record written to this recently may be in progress */

typedef struct standing {
    char name[NAME_LEN];
    long sets, wins, draws, losses, faults;
    double score;                /* each set: the share of the other seats beaten, a tie half */
} standing_t;

struct serve_watch {
    char *results, *records;
    pthread_mutex_t lock;
    long offset;                 /* results read up to here (whole lines) */
    cJSON *run;                  /* the run's header line */
    standing_t st[MAX_NAMES];
    int n_st;
    long sets;
    cJSON *recent[RECENT];       /* the latest sets, newest last */
    int n_recent;
    char (*done)[96];            /* basenames of finished sets' records */
    int n_done;
};

serve_watch_t *serve_watch_new(const char *results, const char *records)
{
    serve_watch_t *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->results = strdup(results);
    w->records = records ? strdup(records) : NULL;
    w->done = malloc(sizeof *w->done * DONE_MAX);
    if (!w->results || (records && !w->records) || !w->done) {
        serve_watch_free(w);
        return NULL;
    }
    pthread_mutex_init(&w->lock, NULL);
    return w;
}

static void reset(serve_watch_t *w)
{
    cJSON_Delete(w->run);
    w->run = NULL;
    for (int i = 0; i < w->n_recent; i++)
        cJSON_Delete(w->recent[i]);
    w->n_recent = w->n_st = w->n_done = 0;
    w->sets = w->offset = 0;
}

void serve_watch_free(serve_watch_t *w)
{
    if (!w)
        return;
    reset(w);
    if (w->done)
        pthread_mutex_destroy(&w->lock);
    free(w->results);
    free(w->records);
    free(w->done);
    free(w);
}

static standing_t *standing(serve_watch_t *w, const char *name)
{
    for (int i = 0; i < w->n_st; i++)
        if (strcmp(w->st[i].name, name) == 0)
            return &w->st[i];
    if (w->n_st == MAX_NAMES)
        return NULL;
    standing_t *s = &w->st[w->n_st++];
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "%s", name);
    return s;
}

/* One set line of the results: the standings, the latest sets, the finished record's name. */
static void add_set(serve_watch_t *w, cJSON *o)
{
    const cJSON *seats = cJSON_GetObjectItemCaseSensitive(o, "seats");
    const cJSON *ranks = cJSON_GetObjectItemCaseSensitive(o, "ranks");
    const char *reason = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "reason"));
    int n = cJSON_GetArraySize(seats);
    if (!cJSON_IsArray(seats) || !cJSON_IsArray(ranks) || cJSON_GetArraySize(ranks) != n || n < 2 ||
        n > GAME_MAX_PLAYERS) {
        cJSON_Delete(o);
        return;
    }
    int fault = -1;
    const cJSON *fs = cJSON_GetObjectItemCaseSensitive(o, "fault_seat");
    if (cJSON_IsNumber(fs))
        fault = fs->valueint;
    for (int i = 0; i < n; i++) {
        const char *name = cJSON_GetStringValue(cJSON_GetArrayItem(seats, i));
        standing_t *s = name ? standing(w, name) : NULL;
        if (!s)
            continue;
        int mine = cJSON_GetArrayItem(ranks, i)->valueint, beat = 0, tied = 0;
        for (int k = 0; k < n; k++)
            if (k != i) {
                int other = cJSON_GetArrayItem(ranks, k)->valueint;
                beat += mine < other;
                tied += mine == other;
            }
        s->sets++;
        s->score += (beat + 0.5 * tied) / (n - 1);
        s->wins += beat == n - 1;
        s->losses += beat + tied == 0;
        s->draws += beat < n - 1 && beat + tied > 0;
        s->faults += fault == i;
    }
    w->sets++;
    const char *rec = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "record"));
    if (rec && w->n_done < DONE_MAX) {
        const char *base = strrchr(rec, '/');
        snprintf(w->done[w->n_done++], sizeof w->done[0], "%s", base ? base + 1 : rec);
    }
    (void)reason;
    if (w->n_recent == RECENT) {
        cJSON_Delete(w->recent[0]);
        memmove(w->recent, w->recent + 1, sizeof w->recent[0] * (RECENT - 1));
        w->n_recent--;
    }
    w->recent[w->n_recent++] = o;
}

/* Whole lines written since the last read. A results file that shrank is a new run. */
static void read_results(serve_watch_t *w)
{
    struct stat sb;
    if (stat(w->results, &sb) != 0 || !S_ISREG(sb.st_mode))
        return;
    if (sb.st_size < w->offset)
        reset(w);
    FILE *f = fopen(w->results, "r");
    if (!f)
        return;
    if (fseek(f, w->offset, SEEK_SET) != 0) {
        fclose(f);
        return;
    }
    char *line = malloc(LINE_MAX_LEN);
    while (line && fgets(line, LINE_MAX_LEN, f)) {
        size_t len = strlen(line);
        if (len == 0 || line[len - 1] != '\n')
            break; /* a line still being written, or one over the limit: read again later */
        w->offset += (long)len;
        cJSON *o = cJSON_Parse(line);
        const char *type = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "type"));
        if (type && strcmp(type, "run") == 0) {
            cJSON_Delete(w->run);
            w->run = o;
        } else if (type && strcmp(type, "set") == 0)
            add_set(w, o);
        else
            cJSON_Delete(o);
    }
    free(line);
    fclose(f);
}

static void on_public(void *data, const game_t *g, const game_event_t *ev)
{
    cJSON *list = data;
    if (ev->audience != GAME_ALL)
        return;
    char text[160];
    g->event_format(ev, text, sizeof text);
    if (strncmp(text, "turn ", 5) == 0)
        return;
    if (cJSON_GetArraySize(list) == LIVE_EVENTS)
        cJSON_DeleteItemFromArray(list, 0);
    cJSON_AddItemToArray(list, cJSON_CreateString(text));
}

/* A set in progress from its record so far: names, scores, its latest public events. */
static cJSON *live_set(const char *path, const char *base, double age)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    char *buf = malloc(LIVE_FILE_MAX + 1);
    size_t len = buf ? fread(buf, 1, LIVE_FILE_MAX, f) : 0;
    fclose(f);
    if (!buf)
        return NULL;
    while (len > 0 && buf[len - 1] != '\n')
        len--; /* the whole lines only */
    buf[len] = '\0';
    cJSON *o = cJSON_CreateObject();
    cJSON *events = cJSON_CreateArray();
    cJSON *names = cJSON_CreateArray();
    FILE *m = len ? fmemopen(buf, len, "r") : NULL;
    record_t rec = { 0 };
    char why[300];
    int ok = m && o && events && names && record_replay(m, &rec, on_public, events, why, sizeof why) == 0;
    if (ok) {
        int n = referee_players(rec.ref), scores[GAME_MAX_PLAYERS];
        rec.game->scores(rec.state, scores);
        cJSON_AddStringToObject(o, "record", base);
        cJSON_AddStringToObject(o, "game", rec.game->name);
        cJSON_AddItemToObject(o, "scores", cJSON_CreateIntArray(scores, n));
        cJSON_AddNumberToObject(o, "moves", rec.moves);
        cJSON_AddNumberToObject(o, "seconds_since_move", (double)(long)age);
        for (int s = 0; s < n; s++) {
            char want[32], *at, name[NAME_LEN] = "";
            snprintf(want, sizeof want, "\n# seat %d: ", s);
            if ((at = strstr(buf, want)) != NULL)
                sscanf(at + strlen(want), "%63s", name);
            cJSON_AddItemToArray(names, cJSON_CreateString(name));
        }
        cJSON_AddItemToObject(o, "names", names);
        cJSON_AddItemToObject(o, "events", events);
        names = events = NULL;
    }
    record_free(&rec);
    if (m)
        fclose(m);
    free(buf);
    cJSON_Delete(names);
    cJSON_Delete(events);
    if (!ok) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

static int is_done(const serve_watch_t *w, const char *base)
{
    for (int i = 0; i < w->n_done; i++)
        if (strcmp(w->done[i], base) == 0)
            return 1;
    return 0;
}

static void add_live(serve_watch_t *w, cJSON *out)
{
    DIR *d = w->records ? opendir(w->records) : NULL;
    if (!d)
        return;
    time_t now = time(NULL);
    struct dirent *e;
    int n = 0;
    while ((e = readdir(d)) != NULL && n < LIVE_MAX) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".txt") != 0 || len >= 96)
            continue;
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", w->records, e->d_name);
        struct stat sb;
        /* Recent files first: only those are looked up among the finished sets. */
        if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode) || difftime(now, sb.st_mtime) > LIVE_SECONDS ||
            is_done(w, e->d_name))
            continue;
        cJSON *set = live_set(path, e->d_name, difftime(now, sb.st_mtime));
        if (set) {
            cJSON_AddItemToArray(out, set);
            n++;
        }
    }
    closedir(d);
}

char *serve_watch_json(serve_watch_t *w)
{
    pthread_mutex_lock(&w->lock);
    read_results(w);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "results", w->results);
    if (w->run)
        cJSON_AddItemToObject(o, "run", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(w->run, "run"), 1));
    cJSON_AddNumberToObject(o, "sets_done", (double)w->sets);
    /* The standings, best score share first. */
    int order[MAX_NAMES];
    for (int i = 0; i < w->n_st; i++)
        order[i] = i;
    for (int i = 1; i < w->n_st; i++)
        for (int k = i; k > 0; k--) {
            const standing_t *a = &w->st[order[k]], *b = &w->st[order[k - 1]];
            if (a->score / (a->sets ? a->sets : 1) <= b->score / (b->sets ? b->sets : 1))
                break;
            int t = order[k];
            order[k] = order[k - 1];
            order[k - 1] = t;
        }
    cJSON *st = cJSON_AddArrayToObject(o, "standings");
    for (int i = 0; st && i < w->n_st; i++) {
        const standing_t *s = &w->st[order[i]];
        cJSON *j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "name", s->name);
        cJSON_AddNumberToObject(j, "sets", (double)s->sets);
        cJSON_AddNumberToObject(j, "wins", (double)s->wins);
        cJSON_AddNumberToObject(j, "draws", (double)s->draws);
        cJSON_AddNumberToObject(j, "losses", (double)s->losses);
        cJSON_AddNumberToObject(j, "faults", (double)s->faults);
        cJSON_AddNumberToObject(j, "score", s->sets ? (double)(long)(1000 * s->score / (double)s->sets) / 10 : 0);
        cJSON_AddItemToArray(st, j);
    }
    cJSON *recent = cJSON_AddArrayToObject(o, "recent");
    for (int i = w->n_recent - 1; recent && i >= 0; i--) {
        cJSON *j = cJSON_CreateObject();
        static const char *const KEEP[] = { "seats", "scores", "winner_name", "reason", "hands", "round", "pairing", "leg" };
        for (size_t k = 0; k < sizeof KEEP / sizeof KEEP[0]; k++) {
            const cJSON *f = cJSON_GetObjectItemCaseSensitive(w->recent[i], KEEP[k]);
            if (f)
                cJSON_AddItemToObject(j, KEEP[k], cJSON_Duplicate(f, 1));
        }
        cJSON_AddItemToArray(recent, j);
    }
    cJSON *live = cJSON_AddArrayToObject(o, "live");
    if (live)
        add_live(w, live);
    pthread_mutex_unlock(&w->lock);
    char *text = o ? cJSON_PrintUnformatted(o) : NULL;
    cJSON_Delete(o);
    return text;
}
