/* serve_table: one set at picket-serve's table (serve_table.h). */
#define _GNU_SOURCE
#include "serve_table.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cards.h"
#include "measure.h"
#include "record.h"
#include "referee.h"

enum {
    SHEET_MAX = 512,     /* hands in a set the score sheet keeps */
    MOVES_SHOWN = 64,    /* legal moves listed whole; more (an exchange) are chosen by cards */
    HINT_SHOWN = 12,
};
static const double HINT_TIMEOUT = 120.0;

typedef struct sheet_row {
    int hand;
    int pts[GAME_MAX_PLAYERS];
    int score[GAME_MAX_PLAYERS];
    int n_cats;                       /* the hand's points by category, as it ended */
    char cat_name[GAME_TABLE_CATS][16];
    int16_t cat_pts[GAME_TABLE_CATS][GAME_MAX_PLAYERS];
} sheet_row_t;

struct serve_table {
    serve_table_setup_t s;
    int players;
    /* the referee, the engines and the moves: under lock */
    pthread_mutex_t lock;
    referee_t *ref;
    void *view;                       /* the person's view, from the person's events only */
    arena_engine_t proc[GAME_MAX_PLAYERS];
    arena_set_setup_t asetup;
    arena_set_result_t result;
    arena_seat_t seat[GAME_MAX_PLAYERS];
    arena_engine_t hint_proc;
    uint64_t hint_seed;
    serve_move_t *moves;              /* grown as the set goes on, up to SERVE_MAX_MOVES */
    int n_moves, cap_moves;
    int over, fault;
    int moves_lost;                   /* a move could not be kept: the set is longer than a table holds */
    char fault_text[320];
    /* the worker: steps the referee while an engine is to move */
    pthread_t worker;
    int worker_started;
    pthread_cond_t work;
    int has_work, busy;
    volatile int stop;                /* closing: the worker ends after this step */
    volatile sig_atomic_t abort_wait; /* 2: an engine's wait ends at once (arena_engine_t.abort) */
    int your_turn;                    /* the snapshot published says the person is to move (snap_lock) */
    int woken;                        /* the server is stopping: no more waits (snap_lock) */
    /* what the person is shown: under snap_lock */
    pthread_mutex_t snap_lock;
    pthread_cond_t snap_cond;
    cJSON *head;                      /* the snapshot less its events */
    long seq;
    char (*events)[SERVE_EVENT_LEN];  /* grown as the set goes on, up to SERVE_MAX_EVENTS */
    int n_events, cap_events;
    sheet_row_t *sheet;               /* grown hand by hand, up to SHEET_MAX */
    int n_sheet, cap_sheet;
    double touched;
};

/* Room for one more item in an array grown by doubling, up to max: 0, or -1 (full, or no memory). */
static int grow(void *arrayp, int n, int *cap, int max, size_t size)
{
    if (n < *cap)
        return 0;
    if (*cap >= max)
        return -1;
    int want = *cap ? 2 * *cap : 64;
    want = want > max ? max : want;
    void **array = arrayp, *p = realloc(*array, size * (size_t)want);
    if (!p)
        return -1;
    *array = p;
    *cap = want;
    return 0;
}

/* ---------------------------------------------------------------- the person's seat */

static int human_event(void *data, const game_event_t *ev, char *err, size_t errlen)
{
    serve_table_t *t = data;
    char text[SERVE_EVENT_LEN];
    t->s.game->event_format(ev, text, sizeof text);
    if (t->s.game->view_apply(t->view, ev) < 0)
        return text_fail(err, errlen, "the person's view cannot follow '%s'", text);
    pthread_mutex_lock(&t->snap_lock);
    if (grow(&t->events, t->n_events, &t->cap_events, SERVE_MAX_EVENTS, sizeof *t->events) < 0) {
        pthread_mutex_unlock(&t->snap_lock);
        return text_fail(err, errlen, "the set is longer than a table keeps (%d events)", SERVE_MAX_EVENTS);
    }
    memcpy(t->events[t->n_events++], text, sizeof text);
    if (strcmp(text, "hand-end") == 0 || strncmp(text, "deal-end", 8) == 0) {
        game_table_t tb;
        if (t->s.game->view_table && grow(&t->sheet, t->n_sheet, &t->cap_sheet, SHEET_MAX, sizeof *t->sheet) == 0) {
            t->s.game->view_table(t->view, &tb);
            sheet_row_t *r = &t->sheet[t->n_sheet];
            r->hand = t->n_sheet + 1;
            for (int i = 0; i < t->players; i++) {
                r->score[i] = tb.score[i];
                r->pts[i] = tb.score[i] - (t->n_sheet ? t->sheet[t->n_sheet - 1].score[i] : 0);
            }
            r->n_cats = tb.n_cats;
            memcpy(r->cat_name, tb.cat_name, sizeof r->cat_name);
            memcpy(r->cat_pts, tb.cat_pts, sizeof r->cat_pts);
            t->n_sheet++;
        }
    }
    pthread_mutex_unlock(&t->snap_lock);
    return 0;
}

static void on_move(void *data, const void *state, int seat, const game_move_t *m)
{
    serve_table_t *t = data;
    (void)state;
    if (grow(&t->moves, t->n_moves, &t->cap_moves, SERVE_MAX_MOVES, sizeof *t->moves) == 0)
        t->moves[t->n_moves++] = (serve_move_t){ seat, *m };
    else
        t->moves_lost = 1; /* the referee goes on; the table stops after this step (advance) */
}

/* ---------------------------------------------------------------- the snapshot */

static cJSON *card_array(const int8_t *cards, int n)
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; a && i < n; i++) {
        char name[3];
        cJSON_AddItemToArray(a, cJSON_CreateString(card_format(cards[i], name)));
    }
    return a;
}

static cJSON *cardset_array(uint64_t set)
{
    int8_t c[64];
    int n = 0;
    for (; set; set &= set - 1)
        c[n++] = (int8_t)cardset_first(set);
    return card_array(c, n);
}

static cJSON *int_array(const int *v, int n)
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; a && i < n; i++)
        cJSON_AddItemToArray(a, cJSON_CreateNumber(v[i]));
    return a;
}

static const char *status_of(const serve_table_t *t, int tm)
{
    if (t->fault)
        return "fault";
    if (t->over || tm == GAME_OVER)
        return "over";
    return tm == t->s.human ? "your-move" : "thinking";
}

/* The snapshot's head from the person's view and the table's own record of the set (lock held). */
static cJSON *make_head(serve_table_t *t)
{
    const game_t *g = t->s.game;
    int tm = referee_to_move(t->ref);
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    cJSON_AddStringToObject(o, "game", g->name);
    cJSON_AddStringToObject(o, "preset", t->s.cfg.preset);
    cJSON *flags = cJSON_AddArrayToObject(o, "flags");
    for (int i = 0; flags && i < t->s.cfg.n_flags; i++)
        cJSON_AddItemToArray(flags, cJSON_CreateString(t->s.cfg.flags[i]));
    cJSON_AddNumberToObject(o, "players", t->players);
    cJSON_AddNumberToObject(o, "seat", t->s.human);
    /* The deals' seed tells every card: shown only when the person chose it, or once it is over. */
    if (t->s.seed_public || tm == GAME_OVER) {
        char seed[32];
        snprintf(seed, sizeof seed, "%" PRIu64, t->s.cfg.deal_seed);
        cJSON_AddStringToObject(o, "seed", seed);
    }
    cJSON *names = cJSON_AddArrayToObject(o, "names");
    for (int i = 0; names && i < t->players; i++)
        cJSON_AddItemToArray(names, cJSON_CreateString(i == t->s.human ? "you" : t->s.engine[i]->name));
    cJSON_AddStringToObject(o, "status", status_of(t, tm));
    cJSON_AddNumberToObject(o, "to_move", tm >= 0 ? tm : -1);
    if (t->fault)
        cJSON_AddStringToObject(o, "fault", t->fault_text);
    cJSON_AddNumberToObject(o, "moves_played", t->n_moves);
    int mine = 0;
    for (int i = 0; i < t->n_moves; i++)
        mine += t->moves[i].seat == t->s.human;
    cJSON_AddBoolToObject(o, "can_take_back", mine > 0);
    if (g->view_table) {
        game_table_t tb;
        g->view_table(t->view, &tb);
        cJSON *jt = cJSON_AddObjectToObject(o, "table");
        cJSON_AddItemToObject(jt, "hand", cardset_array(tb.hand));
        cJSON_AddItemToObject(jt, "scores", int_array(tb.score, tb.players));
        cJSON *piles = cJSON_AddArrayToObject(jt, "piles");
        for (int i = 0; piles && i < tb.n_piles; i++) {
            cJSON *p = cJSON_CreateObject();
            cJSON_AddStringToObject(p, "label", tb.pile[i].label);
            cJSON_AddNumberToObject(p, "seat", tb.pile[i].seat);
            cJSON_AddItemToObject(p, "cards", card_array(tb.pile[i].card, tb.pile[i].n));
            cJSON_AddItemToArray(piles, p);
        }
        cJSON *cats = cJSON_AddArrayToObject(jt, "categories");
        for (int c = 0; cats && c < tb.n_cats; c++) {
            cJSON *k = cJSON_CreateObject();
            int pts[GAME_MAX_PLAYERS];
            for (int s = 0; s < tb.players; s++)
                pts[s] = tb.cat_pts[c][s];
            cJSON_AddStringToObject(k, "name", tb.cat_name[c]);
            cJSON_AddItemToObject(k, "points", int_array(pts, tb.players));
            cJSON_AddItemToArray(cats, k);
        }
        cJSON *lines = cJSON_AddArrayToObject(jt, "lines");
        for (int i = 0; lines && i < tb.n_lines; i++)
            cJSON_AddItemToArray(lines, cJSON_CreateString(tb.line[i]));
    }
    /* The person's legal moves, from the person's view. */
    if (tm == t->s.human && !t->fault) {
        game_move_t *mv = malloc(sizeof *mv * GAME_MAX_MOVES);
        int n = mv ? g->view_legal_moves(t->view, mv, GAME_MAX_MOVES) : 0;
        uint64_t lit = 0;
        for (int i = 0; i < n; i++)
            lit |= mv[i].cards;
        cJSON_AddNumberToObject(o, "n_moves", n);
        cJSON_AddItemToObject(o, "cards_lit", cardset_array(lit));
        cJSON *moves = cJSON_AddArrayToObject(o, "moves");
        for (int i = 0; moves && i < n; i++) {
            if (n > MOVES_SHOWN && mv[i].cards)
                continue; /* chosen by cards */
            char text[SERVE_EVENT_LEN];
            g->move_format(&mv[i], text, sizeof text);
            cJSON *m = cJSON_CreateObject();
            cJSON_AddStringToObject(m, "text", text);
            cJSON_AddItemToObject(m, "cards", cardset_array(mv[i].cards));
            cJSON_AddItemToArray(moves, m);
        }
        free(mv);
    }
    return o;
}

/* Publish a new snapshot (lock held). */
static void publish(serve_table_t *t)
{
    cJSON *h = make_head(t);
    int mine = !t->fault && !t->over && referee_to_move(t->ref) == t->s.human;
    pthread_mutex_lock(&t->snap_lock);
    t->your_turn = mine;
    if (h) {
        cJSON_Delete(t->head);
        t->head = h;
    }
    t->seq++;
    pthread_cond_broadcast(&t->snap_cond);
    pthread_mutex_unlock(&t->snap_lock);
}

char *serve_table_snapshot(serve_table_t *t, long since, double wait, int from, long *seq)
{
    pthread_mutex_lock(&t->snap_lock);
    t->touched = measure_now();
    if (wait > 0 && t->seq <= since) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        double end = (double)until.tv_sec + until.tv_nsec / 1e9 + wait;
        until.tv_sec = (time_t)end;
        until.tv_nsec = (long)((end - (double)until.tv_sec) * 1e9);
        while (t->seq <= since && !t->woken)
            if (pthread_cond_timedwait(&t->snap_cond, &t->snap_lock, &until) == ETIMEDOUT)
                break;
    }
    cJSON *o = t->head ? cJSON_Duplicate(t->head, 1) : cJSON_CreateObject();
    char *text = NULL;
    if (o) {
        *seq = t->seq;
        cJSON_AddNumberToObject(o, "seq", (double)t->seq);
        if (from < 0 || from > t->n_events)
            from = t->n_events;
        cJSON_AddNumberToObject(o, "events_from", from);
        cJSON *ev = cJSON_AddArrayToObject(o, "events");
        for (int i = from; ev && i < t->n_events; i++)
            cJSON_AddItemToArray(ev, cJSON_CreateString(t->events[i]));
        cJSON *sheet = cJSON_AddArrayToObject(o, "sheet");
        for (int i = 0; sheet && i < t->n_sheet; i++) {
            cJSON *r = cJSON_CreateObject();
            cJSON_AddNumberToObject(r, "hand", t->sheet[i].hand);
            cJSON_AddItemToObject(r, "points", int_array(t->sheet[i].pts, t->players));
            cJSON_AddItemToObject(r, "scores", int_array(t->sheet[i].score, t->players));
            cJSON *cats = cJSON_AddArrayToObject(r, "categories");
            for (int c = 0; cats && c < t->sheet[i].n_cats; c++) {
                int pts[GAME_MAX_PLAYERS], any = 0;
                for (int p = 0; p < t->players; p++)
                    any |= (pts[p] = t->sheet[i].cat_pts[c][p]) != 0;
                if (!any)
                    continue;
                cJSON *k = cJSON_CreateObject();
                cJSON_AddStringToObject(k, "name", t->sheet[i].cat_name[c]);
                cJSON_AddItemToObject(k, "points", int_array(pts, t->players));
                cJSON_AddItemToArray(cats, k);
            }
            cJSON_AddItemToArray(sheet, r);
        }
        text = cJSON_PrintUnformatted(o);
        cJSON_Delete(o);
    }
    pthread_mutex_unlock(&t->snap_lock);
    return text;
}

void serve_table_wake(serve_table_t *t)
{
    pthread_mutex_lock(&t->snap_lock);
    t->woken = 1;
    pthread_cond_broadcast(&t->snap_cond);
    pthread_mutex_unlock(&t->snap_lock);
}

double serve_table_idle(serve_table_t *t)
{
    pthread_mutex_lock(&t->snap_lock);
    double idle = measure_now() - t->touched;
    pthread_mutex_unlock(&t->snap_lock);
    return idle;
}

/* ---------------------------------------------------------------- the worker */

static void fail(serve_table_t *t, const char *why)
{
    t->fault = t->over = 1;
    snprintf(t->fault_text, sizeof t->fault_text, "%s", why);
}

/* Step until the person is to move or the set ends (lock held; released while nobody waits). */
static void advance(serve_table_t *t)
{
    while (!t->fault && !t->stop) {
        int tm = referee_to_move(t->ref);
        if (tm == GAME_OVER) {
            t->over = 1;
            break;
        }
        if (tm == t->s.human)
            break;
        referee_status_t st = referee_step(t->ref);
        if (st == REFEREE_FAULT)
            fail(t, referee_fault(t->ref)->text);
        else if (t->moves_lost)
            fail(t, "the set is longer than a table keeps: save it and resume it elsewhere");
        if (!t->fault && referee_to_move(t->ref) != t->s.human && referee_to_move(t->ref) != GAME_OVER)
            publish(t); /* an engine's move, with more to come */
    }
    t->busy = 0; /* the lock is held until the worker waits again: a move sent now waits for it */
    publish(t);
}

static void *worker_main(void *arg)
{
    serve_table_t *t = arg;
    pthread_mutex_lock(&t->lock);
    while (!t->stop) {
        while (!t->has_work && !t->stop)
            pthread_cond_wait(&t->work, &t->lock);
        if (t->stop)
            break;
        t->has_work = 0;
        t->busy = 1;
        advance(t); /* clears busy */
    }
    pthread_mutex_unlock(&t->lock);
    return NULL;
}

static void kick(serve_table_t *t)
{
    t->has_work = 1;
    t->busy = 1;
    pthread_cond_signal(&t->work);
}

/* ---------------------------------------------------------------- building the table */

static void stop_engines(serve_table_t *t)
{
    for (int i = 0; i < t->players; i++)
        if (i != t->s.human)
            arena_engine_stop(&t->proc[i]);
}

/* A fresh referee on the same deals, fresh engines, and the first n of `moves` replayed (lock
 * held, the worker idle). */
static int rebuild(serve_table_t *t, const serve_move_t *moves, int n, char *err, size_t errlen)
{
    const game_t *g = t->s.game;
    stop_engines(t);
    referee_free(t->ref);
    t->ref = referee_create(g, &t->s.cfg, err, errlen);
    if (!t->ref)
        return -1;
    char why[GAME_ERR_LEN];
    if (g->view_init(t->view, &t->s.cfg, t->s.human, why, sizeof why) < 0)
        return text_fail(err, errlen, "%s", why);
    pthread_mutex_lock(&t->snap_lock);
    t->n_events = 0;
    t->n_sheet = 0;
    pthread_mutex_unlock(&t->snap_lock);
    t->n_moves = 0;
    t->moves_lost = 0;
    t->over = t->fault = 0;
    t->fault_text[0] = '\0';
    memset(&t->result, 0, sizeof t->result);
    t->result.players = t->players;
    referee_seat_t hs = { human_event, NULL, t };
    referee_set_seat(t->ref, t->s.human, &hs);
    for (int i = 0; i < t->players; i++) {
        if (i == t->s.human)
            continue;
        arena_seat_init(&t->seat[i], &t->asetup, &t->result, i);
        referee_seat_t es = arena_seat_referee(&t->seat[i]);
        referee_set_seat(t->ref, i, &es);
        if (arena_seat_start(&t->seat[i], err, errlen) < 0)
            return -1;
    }
    referee_hooks_t hooks = { NULL, on_move, t };
    referee_set_hooks(t->ref, &hooks);
    for (int i = 0; i < n; i++) {
        while (referee_to_move(t->ref) == GAME_CHANCE)
            if (referee_step(t->ref) == REFEREE_FAULT)
                return text_fail(err, errlen, "%s", referee_fault(t->ref)->text);
        if (referee_move(t->ref, moves[i].seat, &moves[i].move, err, errlen) < 0)
            return -1;
    }
    return 0;
}

serve_table_t *serve_table_new(const serve_table_setup_t *s, const serve_move_t *moves, int n, char *err,
                               size_t errlen)
{
    serve_table_t *t = calloc(1, sizeof *t);
    if (!t) {
        text_fail(err, errlen, "out of memory");
        return NULL;
    }
    t->s = *s;
    t->players = s->cfg.players;
    t->view = calloc(1, s->game->view_size);

    pthread_mutex_init(&t->lock, NULL);
    pthread_mutex_init(&t->snap_lock, NULL);
    pthread_cond_init(&t->work, NULL);
    pthread_cond_init(&t->snap_cond, NULL);
    t->touched = measure_now();
    if (!t->view) {
        text_fail(err, errlen, "out of memory");
        serve_table_free(t);
        return NULL;
    }
    t->asetup.game = s->game;
    t->asetup.cfg = s->cfg;
    t->asetup.margin = 1.0;
    for (int i = 0; i < t->players; i++) {
        if (i == s->human)
            continue;
        t->proc[i].spec = s->engine[i];
        t->proc[i].abort = &t->abort_wait;
        t->asetup.engine[i] = &t->proc[i];
        t->asetup.engine_seed[i] = rng_derive(s->engine_seed, (uint64_t)i + 1);
    }
    t->hint_seed = rng_derive(s->engine_seed, 100);
    pthread_mutex_lock(&t->lock);
    int rc = rebuild(t, moves, n, err, errlen);
    if (rc == 0)
        publish(t);
    pthread_mutex_unlock(&t->lock);
    if (rc < 0) {
        serve_table_free(t);
        return NULL;
    }
    if (pthread_create(&t->worker, NULL, worker_main, t) != 0) {
        text_fail(err, errlen, "cannot start a thread");
        serve_table_free(t);
        return NULL;
    }
    t->worker_started = 1;
    pthread_mutex_lock(&t->lock);
    kick(t);
    pthread_mutex_unlock(&t->lock);
    return t;
}

void serve_table_free(serve_table_t *t)
{
    if (!t)
        return;
    /* A thinking engine's wait ends at once, so that closing never waits for its move. */
    t->stop = 1;
    t->abort_wait = 2;
    pthread_mutex_lock(&t->lock);
    pthread_cond_signal(&t->work);
    pthread_mutex_unlock(&t->lock);
    if (t->worker_started)
        pthread_join(t->worker, NULL);
    stop_engines(t);
    arena_engine_stop(&t->hint_proc);
    referee_free(t->ref);
    cJSON_Delete(t->head);
    pthread_mutex_destroy(&t->lock);
    pthread_mutex_destroy(&t->snap_lock);
    pthread_cond_destroy(&t->work);
    pthread_cond_destroy(&t->snap_cond);
    free(t->view);
    free(t->moves);
    free(t->events);
    free(t->sheet);
    free(t);
}

/* The table's lock, unless the engines are thinking: 0, or -1 with the reason. When the page
 * was told it is the person's turn, the worker is only finishing: wait for it. */
static int take(serve_table_t *t, char *err, size_t errlen)
{
    pthread_mutex_lock(&t->snap_lock);
    t->touched = measure_now();
    int mine = t->your_turn;
    pthread_mutex_unlock(&t->snap_lock);
    if (mine)
        pthread_mutex_lock(&t->lock);
    else if (pthread_mutex_trylock(&t->lock) != 0)
        return text_fail(err, errlen, "the engines are thinking: wait for your turn");
    if (t->busy && referee_to_move(t->ref) != t->s.human) { /* busy at the person's turn: nothing to do */
        pthread_mutex_unlock(&t->lock);
        return text_fail(err, errlen, "the engines are thinking: wait for your turn");
    }
    return 0;
}

int serve_table_move(serve_table_t *t, const char *text, uint64_t cards, char *err, size_t errlen)
{
    if (take(t, err, errlen) < 0)
        return -1;
    const game_t *g = t->s.game;
    int rc = 0;
    game_move_t m;
    char why[GAME_ERR_LEN];
    if (t->fault || t->over)
        rc = text_fail(err, errlen, t->fault ? "the set stopped: restart it first" : "the set is over");
    else if (referee_to_move(t->ref) != t->s.human)
        rc = text_fail(err, errlen, "it is not your turn");
    else if (text) {
        if (g->move_parse(text, &m, why, sizeof why) < 0)
            rc = text_fail(err, errlen, "move: %s", why);
    } else {
        game_move_t *mv = malloc(sizeof *mv * GAME_MAX_MOVES);
        int n = mv ? g->view_legal_moves(t->view, mv, GAME_MAX_MOVES) : -1, found = 0;
        for (int i = 0; i < n; i++)
            if (mv[i].cards == cards && cards) {
                m = mv[i];
                found++;
            }
        if (n < 0)
            rc = text_fail(err, errlen, "out of memory");
        else if (found == 0)
            rc = text_fail(err, errlen, "cards: no legal move is exactly those cards");
        else if (found > 1)
            rc = text_fail(err, errlen, "cards: more than one move takes those cards; choose the move by its name");
        free(mv);
    }
    if (rc == 0 && referee_move(t->ref, t->s.human, &m, why, sizeof why) < 0)
        rc = text_fail(err, errlen, "move: %s", why);
    if (rc == 0 && t->moves_lost)
        fail(t, "the set is longer than a table keeps: save it and resume it elsewhere");
    if (rc == 0) {
        publish(t);
        kick(t);
    }
    pthread_mutex_unlock(&t->lock);
    return rc;
}

/* Rebuild on the first `keep` moves, then let the engines go on. */
static int replay_first(serve_table_t *t, int keep, char *err, size_t errlen)
{
    serve_move_t *copy = malloc(sizeof *copy * (size_t)(keep > 0 ? keep : 1));
    if (!copy)
        return text_fail(err, errlen, "out of memory");
    memcpy(copy, t->moves, sizeof *copy * (size_t)keep);
    int rc = rebuild(t, copy, keep, err, errlen);
    free(copy);
    if (rc < 0)
        fail(t, err);
    publish(t);
    if (rc == 0)
        kick(t);
    return rc;
}

int serve_table_takeback(serve_table_t *t, char *err, size_t errlen)
{
    if (take(t, err, errlen) < 0)
        return -1;
    int last = -1, rc;
    for (int i = 0; i < t->n_moves; i++)
        if (t->moves[i].seat == t->s.human)
            last = i;
    if (last < 0)
        rc = text_fail(err, errlen, "nothing to take back: you have not moved yet");
    else
        rc = replay_first(t, last, err, errlen);
    pthread_mutex_unlock(&t->lock);
    return rc;
}

int serve_table_restart(serve_table_t *t, char *err, size_t errlen)
{
    if (take(t, err, errlen) < 0)
        return -1;
    int rc = t->fault ? replay_first(t, t->n_moves, err, errlen) : text_fail(err, errlen, "nothing failed");
    pthread_mutex_unlock(&t->lock);
    return rc;
}

/* ---------------------------------------------------------------- hints */

typedef struct hint_read {
    const serve_table_t *t;
    cJSON *list;
    int n;
} hint_read_t;

static void on_hint_line(void *data, const char *line)
{
    hint_read_t *h = data;
    double v;
    int n = 0;
    if (sscanf(line, "analysis value %lf move %n", &v, &n) != 1 || n == 0 || h->n >= HINT_SHOWN || !isfinite(v))
        return;
    game_move_t m;
    char why[GAME_ERR_LEN];
    double pts;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "move", line + n);
    cJSON_AddNumberToObject(o, "value", v);
    if (h->t->s.game->move_parse(line + n, &m, why, sizeof why) == 0 &&
        serve_value_points(h->t->s.game, h->t->view, &m, v, h->t->s.hint_unit, &pts))
        cJSON_AddNumberToObject(o, "points", round(10 * pts) / 10);
    else
        cJSON_AddNullToObject(o, "points");
    cJSON_AddItemToArray(h->list, o);
    h->n++;
}

char *serve_table_hint(serve_table_t *t, char *err, size_t errlen)
{
    if (!t->s.hint) {
        text_fail(err, errlen, "this server gives no hints");
        return NULL;
    }
    if (take(t, err, errlen) < 0)
        return NULL;
    char *out = NULL;
    const game_t *g = t->s.game;
    if (referee_to_move(t->ref) != t->s.human || t->fault) {
        text_fail(err, errlen, "a hint is for your move, and it is not your turn");
        goto done;
    }
    if (!t->hint_proc.running && arena_engine_start(&t->hint_proc, t->s.hint, g->name, err, errlen) < 0)
        goto done;
    /* The person's own view: a new game at the person's seat, then every event the person was told. */
    char line[2048];
    arena_newgame_line(g, &t->s.cfg, t->players, t->s.human, t->hint_seed, line, sizeof line);
    int rc = arena_engine_send(&t->hint_proc, line);
    pthread_mutex_lock(&t->snap_lock);
    int n_events = t->n_events;
    pthread_mutex_unlock(&t->snap_lock);
    for (int i = 0; rc == 0 && i < n_events; i++) {
        snprintf(line, sizeof line, "event %s", t->events[i]);
        rc = arena_engine_send(&t->hint_proc, line);
    }
    hint_read_t h = { t, cJSON_CreateArray(), 0 };
    if (!h.list) {
        text_fail(err, errlen, "out of memory");
        goto done;
    }
    rc = rc == 0 ? arena_engine_ask(&t->hint_proc, "analyze", HINT_TIMEOUT, on_hint_line, &h) : -1;
    if (rc != 1) {
        text_fail(err, errlen, "the hint engine did not answer");
        arena_engine_stop(&t->hint_proc);
    } else
        out = cJSON_PrintUnformatted(h.list);
    cJSON_Delete(h.list);
done:
    pthread_mutex_unlock(&t->lock);
    return out;
}

/* ---------------------------------------------------------------- records */

static int write_record(FILE *f, serve_table_t *t)
{
    const game_t *g = t->s.game;
    if (record_write_header(f, g, &t->s.cfg) < 0 || fprintf(f, "# picket-serve: seat %d you", t->s.human) < 0)
        return -1;
    for (int i = 0; i < t->players; i++)
        if (i != t->s.human && fprintf(f, ", seat %d %s", i, t->s.engine[i]->name) < 0)
            return -1;
    if (fputc('\n', f) == EOF)
        return -1;
    for (int i = 0; i < t->n_moves; i++)
        if (record_write_move(f, g, t->moves[i].seat, &t->moves[i].move) < 0)
            return -1;
    if (referee_to_move(t->ref) == GAME_OVER && record_write_result(f, g, referee_state(t->ref)) < 0)
        return -1;
    return 0;
}

char *serve_table_record(serve_table_t *t)
{
    char *buf = NULL;
    size_t len = 0;
    pthread_mutex_lock(&t->lock); /* waits for an engine's step: a record is never half a move */
    FILE *f = open_memstream(&buf, &len);
    int rc = f ? write_record(f, t) : -1;
    if (f && fclose(f) != 0)
        rc = -1;
    pthread_mutex_unlock(&t->lock);
    if (rc < 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* What serve_record_load gathers from a record's lines. */
typedef struct load {
    serve_move_t *moves;
    int cap, *n, *seat, players;
    char *err;
    size_t errlen;
} load_t;

static int load_move(void *data, int seat, const game_move_t *m)
{
    load_t *ld = data;
    if (*ld->n == ld->cap)
        return -text_fail(ld->err, ld->errlen, "record: more than %d moves", ld->cap); /* 1: stopped, said */
    ld->moves[(*ld->n)++] = (serve_move_t){ seat, *m };
    return 0;
}

/* The person's seat, as the server saved it: "# picket-serve: seat S you". */
static int load_seat(void *data, const char *line)
{
    load_t *ld = data;
    int who, k = 0;
    if (sscanf(line, "# picket-serve: seat %d you%n", &who, &k) == 1 && k > 0 && who >= 0 && who < ld->players)
        *ld->seat = who;
    return 0;
}

int serve_record_load(const char *text, size_t len, const game_t **game, game_config_t *cfg, serve_move_t *moves,
                      int cap, int *n, int *seat, char *err, size_t errlen)
{
    char why[400];
    *n = 0;
    *seat = -1;
    if (len == 0)
        return text_fail(err, errlen, "record: empty");
    if (memchr(text, '\0', len))
        return text_fail(err, errlen, "record: holds a NUL byte");
    FILE *f = fmemopen((void *)text, len, "r");
    if (!f)
        return text_fail(err, errlen, "record: out of memory");
    record_t rec = { 0 };
    int rc = record_replay(f, &rec, NULL, NULL, why, sizeof why);
    if (rc < 0)
        text_fail(err, errlen, "record: %s", why);
    else {
        *game = rec.game;
        *cfg = rec.cfg;
    }
    record_free(&rec);
    rewind(f);
    if (rc == 0) {
        load_t ld = { moves, cap, n, seat, cfg->players, err, errlen };
        rc = record_each_move(f, *game, load_move, load_seat, &ld, why, sizeof why);
        if (rc < 0)
            text_fail(err, errlen, "record: %s", why);
        rc = rc ? -1 : 0;
    }
    fclose(f);
    return rc;
}
