/* serve_review: a finished set reviewed move by move (serve_review.h). */
#define _GNU_SOURCE
#include "serve_review.h"

#include <cjson/cJSON.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cards.h"
#include "measure.h"
#include "referee.h"
#include "serve_table.h"

static const double REWARD_SCALE = 30.0; /* search/playout.c's reward: 0.5 + 0.45 tanh(d / 30) */
static const double ANALYZE_TIMEOUT = 120.0;
enum { MISTAKE_WORST = 5 };             /* the decisions marked as the worst */

typedef struct review_event {
    char text[SERVE_EVENT_LEN];
    int audience;
} review_event_t;

typedef struct review_step {
    int seat;
    game_move_t move;
    char text[SERVE_EVENT_LEN];
    uint64_t hand[GAME_MAX_PLAYERS];
    int32_t score[GAME_MAX_PLAYERS];
    int ev_to;                    /* events before this move: [0, ev_to) */
    int n_legal;
    /* the engine's verdict (under the review's lock) */
    int valued;                   /* 1 valued, -1 the engine did not answer, 0 not yet */
    int in_points;
    double played, best;          /* in points where in_points, else as the engine gave them */
    char best_text[SERVE_EVENT_LEN];
} review_step_t;

struct serve_review {
    const game_t *g;
    game_config_t cfg;
    int players;
    const arena_spec_t *spec;
    serve_values_t unit;
    review_event_t *ev;
    int n_ev;
    review_step_t *step;
    int n_step;
    pthread_mutex_t lock;
    pthread_t worker;
    int started, done;
    volatile int stop;
    double touched;
    char engine_note[200];
    char name[GAME_MAX_PLAYERS][64]; /* the seats' names, from the record's comments ("" unknown) */
};

/* The seats' names a record's comments give: the arena's "# seat S: NAME", picket-serve's
 * "# picket-serve: seat S you, seat T NAME, ...". */
static void read_names(serve_review_t *r, const char *text)
{
    for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        int seat, used = 0;
        char name[64];
        if (sscanf(line, "# seat %d: %63s%n", &seat, name, &used) == 2 && seat >= 0 && seat < GAME_MAX_PLAYERS)
            snprintf(r->name[seat], sizeof r->name[seat], "%s", name);
        else if (strncmp(line, "# picket-serve: ", 16) == 0) {
            const char *at = line + 16;
            while (sscanf(at, "seat %d %63[^,\n]%n", &seat, name, &used) == 2 && seat >= 0 && seat < GAME_MAX_PLAYERS) {
                snprintf(r->name[seat], sizeof r->name[seat], "%s", name);
                at += used;
                if (strncmp(at, ", ", 2) != 0)
                    break;
                at += 2;
            }
        }
    }
}

int serve_value_points(const game_t *g, const void *view, const game_move_t *m, double value, serve_values_t unit,
                       double *points)
{
    if (unit == SERVE_VALUES_RAW || !isfinite(value))
        return 0;
    int active[GAME_MAX_LEARNED_ACTIVE];
    if (unit == SERVE_VALUES_HYBRID && g->learned_inputs &&
        g->learned_inputs(view, m, active, GAME_MAX_LEARNED_ACTIVE) >= 0) {
        *points = value;
        return 1;
    }
    double x = (value - 0.5) / 0.45;
    if (value < 0 || value > 1 || fabs(x) >= 0.999)
        return 0;
    *points = REWARD_SCALE * atanh(x);
    return 1;
}

/* ---------------------------------------------------------------- the replay */

static void on_event(void *data, const game_event_t *e)
{
    serve_review_t *r = data;
    if (r->n_ev >= SERVE_MAX_EVENTS)
        return;
    review_event_t *x = &r->ev[r->n_ev++];
    r->g->event_format(e, x->text, sizeof x->text);
    x->audience = e->audience;
}

static int replay(serve_review_t *r, const serve_move_t *moves, int n, char *err, size_t errlen)
{
    referee_t *ref = referee_create(r->g, &r->cfg, err, errlen);
    if (!ref)
        return -1;
    r->players = referee_players(ref);
    referee_hooks_t hooks = { on_event, NULL, r };
    referee_set_hooks(ref, &hooks);
    void *view = malloc(r->g->view_size);
    game_move_t *legal = malloc(sizeof *legal * GAME_MAX_MOVES);
    int rc = view && legal ? 0 : text_fail(err, errlen, "out of memory");
    for (int i = 0; rc == 0 && i <= n; i++) {
        while (rc == 0 && referee_to_move(ref) == GAME_CHANCE)
            if (referee_step(ref) == REFEREE_FAULT)
                rc = text_fail(err, errlen, "record: %s", referee_fault(ref)->text);
        if (rc < 0 || i == n)
            break;
        review_step_t *s = &r->step[r->n_step++];
        memset(s, 0, sizeof *s);
        const void *state = referee_state(ref);
        s->seat = moves[i].seat;
        s->move = moves[i].move;
        r->g->move_format(&s->move, s->text, sizeof s->text);
        s->ev_to = r->n_ev;
        s->n_legal = r->g->legal_moves(state, legal, GAME_MAX_MOVES);
        r->g->scores(state, s->score);
        for (int seat = 0; seat < r->players; seat++) {
            game_table_t t;
            r->g->view_from_state(state, seat, view);
            if (r->g->view_table) {
                r->g->view_table(view, &t);
                s->hand[seat] = t.hand;
            }
        }
        if (referee_move(ref, s->seat, &s->move, err, errlen) < 0)
            rc = -1;
    }
    if (rc == 0 && referee_to_move(ref) != GAME_OVER)
        rc = text_fail(err, errlen,
                       "the set is not over: a review shows every card, so only a finished set is reviewed");
    free(view);
    free(legal);
    referee_free(ref);
    return rc;
}

/* ---------------------------------------------------------------- the engine's verdicts */

typedef struct verdict {
    serve_review_t *r;
    const review_step_t *s;
    const void *view;
    double best, played;
    int have_best, have_played, in_points;
    char best_text[SERVE_EVENT_LEN];
} verdict_t;

static void on_analysis(void *data, const char *line)
{
    verdict_t *v = data;
    double value, pts;
    int n = 0;
    if (sscanf(line, "analysis value %lf move %n", &value, &n) != 1 || n == 0 || !isfinite(value))
        return;
    game_move_t m;
    char why[GAME_ERR_LEN];
    if (v->r->g->move_parse(line + n, &m, why, sizeof why) < 0)
        return;
    int in_points = serve_value_points(v->r->g, v->view, &m, value, v->r->unit, &pts);
    if (!v->have_best) {
        v->in_points = in_points;
        v->have_best = 1;
        v->best = in_points ? pts : value;
        snprintf(v->best_text, sizeof v->best_text, "%s", line + n);
    }
    if (!v->have_played && memcmp(&m, &v->s->move, sizeof m) == 0 && in_points == v->in_points) {
        v->have_played = 1;
        v->played = in_points ? pts : value;
    }
}

/* The deciding seat's view, as the engine hears it: newgame at that seat, its events. */
static int ask(serve_review_t *r, arena_engine_t *e, int k, void *view)
{
    const review_step_t *s = &r->step[k];
    char line[2048];
    arena_newgame_line(r->g, &r->cfg, r->players, s->seat, (uint64_t)k + 1, line, sizeof line);
    int rc = arena_engine_send(e, line);
    char why[GAME_ERR_LEN];
    if (r->g->view_init(view, &r->cfg, s->seat, why, sizeof why) < 0)
        return -1;
    for (int i = 0; rc == 0 && i < s->ev_to; i++) {
        if (r->ev[i].audience != GAME_ALL && r->ev[i].audience != s->seat)
            continue;
        game_event_t ev;
        if (r->g->event_parse(r->ev[i].text, s->seat, &ev, why, sizeof why) == 0)
            r->g->view_apply(view, &ev);
        snprintf(line, sizeof line, "event %s", r->ev[i].text);
        rc = arena_engine_send(e, line);
    }
    verdict_t v = { r, s, view, 0, 0, 0, 0, 0, "" };
    rc = rc == 0 ? arena_engine_ask(e, "analyze", ANALYZE_TIMEOUT, on_analysis, &v) : -1;
    pthread_mutex_lock(&r->lock);
    review_step_t *w = &r->step[k];
    if (rc == 1 && v.have_best && v.have_played) {
        w->valued = 1;
        w->in_points = v.in_points;
        w->best = v.best;
        w->played = v.played;
        snprintf(w->best_text, sizeof w->best_text, "%s", v.best_text);
    } else
        w->valued = -1;
    pthread_mutex_unlock(&r->lock);
    return rc == 1 ? 0 : -1;
}

static void *worker_main(void *arg)
{
    serve_review_t *r = arg;
    arena_engine_t e = { 0 };
    char why[400];
    void *view = malloc(r->g->view_size);
    if (!view || arena_engine_start(&e, r->spec, r->g->name, why, sizeof why) < 0) {
        pthread_mutex_lock(&r->lock);
        snprintf(r->engine_note, sizeof r->engine_note, "the engine did not start: %.150s", view ? why : "out of memory");
        pthread_mutex_unlock(&r->lock);
    } else {
        for (int k = 0; k < r->n_step && !r->stop; k++) {
            if (r->step[k].n_legal <= 1)
                continue; /* a forced move loses nothing */
            if (ask(r, &e, k, view) < 0 && !e.running && !r->stop &&
                arena_engine_start(&e, r->spec, r->g->name, why, sizeof why) < 0)
                break;
        }
    }
    arena_engine_stop(&e);
    free(view);
    pthread_mutex_lock(&r->lock);
    r->done = 1;
    pthread_mutex_unlock(&r->lock);
    return NULL;
}

serve_review_t *serve_review_new(const char *text, size_t len, const arena_spec_t *engine, serve_values_t unit,
                                 char *err, size_t errlen)
{
    serve_review_t *r = calloc(1, sizeof *r);
    serve_move_t *moves = malloc(sizeof *moves * SERVE_MAX_MOVES);
    int n = 0, seat;
    if (!r || !moves) {
        free(r);
        free(moves);
        text_fail(err, errlen, "out of memory");
        return NULL;
    }
    pthread_mutex_init(&r->lock, NULL);
    r->spec = engine;
    r->unit = unit;
    r->touched = measure_now();
    int rc = serve_record_load(text, len, &r->g, &r->cfg, moves, SERVE_MAX_MOVES, &n, &seat, err, errlen);
    if (rc == 0)
        read_names(r, text);
    if (rc == 0) {
        r->ev = malloc(sizeof *r->ev * SERVE_MAX_EVENTS);
        r->step = malloc(sizeof *r->step * (size_t)(n + 1));
        rc = r->ev && r->step ? replay(r, moves, n, err, errlen) : text_fail(err, errlen, "out of memory");
    }
    free(moves);
    if (rc == 0 && pthread_create(&r->worker, NULL, worker_main, r) != 0)
        rc = text_fail(err, errlen, "cannot start a thread");
    r->started = rc == 0;
    if (rc < 0) {
        serve_review_free(r);
        return NULL;
    }
    return r;
}

void serve_review_free(serve_review_t *r)
{
    if (!r)
        return;
    r->stop = 1;
    if (r->started)
        pthread_join(r->worker, NULL);
    pthread_mutex_destroy(&r->lock);
    free(r->ev);
    free(r->step);
    free(r);
}

double serve_review_idle(serve_review_t *r)
{
    pthread_mutex_lock(&r->lock);
    double idle = measure_now() - r->touched;
    pthread_mutex_unlock(&r->lock);
    return idle;
}

static cJSON *cards_json(uint64_t set)
{
    cJSON *a = cJSON_CreateArray();
    for (; a && set; set &= set - 1) {
        char name[3];
        cJSON_AddItemToArray(a, cJSON_CreateString(card_format(cardset_first(set), name)));
    }
    return a;
}

char *serve_review_json(serve_review_t *r)
{
    pthread_mutex_lock(&r->lock);
    r->touched = measure_now();
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "game", r->g->name);
    cJSON_AddStringToObject(o, "preset", r->cfg.preset);
    cJSON_AddNumberToObject(o, "players", r->players);
    cJSON_AddStringToObject(o, "engine", r->spec->name);
    cJSON_AddBoolToObject(o, "done", r->done);
    cJSON *names = cJSON_AddArrayToObject(o, "names");
    for (int i = 0; names && i < r->players; i++)
        cJSON_AddItemToArray(names, cJSON_CreateString(r->name[i]));
    if (r->engine_note[0])
        cJSON_AddStringToObject(o, "note", r->engine_note);
    /* The worst decisions: the largest losses in points, half a point at least. */
    int worst[MISTAKE_WORST], n_worst = 0, valued = 0, to_value = 0;
    for (int k = 0; k < r->n_step; k++) {
        to_value += r->step[k].n_legal > 1;
        valued += r->step[k].valued != 0;
    }
    for (; n_worst < MISTAKE_WORST; n_worst++) {
        int pick = -1;
        for (int k = 0; k < r->n_step; k++) {
            const review_step_t *s = &r->step[k];
            int taken = 0;
            for (int i = 0; i < n_worst; i++)
                taken |= worst[i] == k;
            if (taken || s->valued != 1 || !s->in_points || s->best - s->played < 0.5)
                continue;
            if (pick < 0 || s->best - s->played > r->step[pick].best - r->step[pick].played)
                pick = k;
        }
        if (pick < 0)
            break;
        worst[n_worst] = pick;
    }
    cJSON_AddNumberToObject(o, "valued", valued);
    cJSON_AddNumberToObject(o, "to_value", to_value);
    cJSON *w = cJSON_AddArrayToObject(o, "worst");
    for (int i = 0; w && i < n_worst; i++)
        cJSON_AddItemToArray(w, cJSON_CreateNumber(worst[i]));
    cJSON *steps = cJSON_AddArrayToObject(o, "steps");
    for (int k = 0; steps && k < r->n_step; k++) {
        const review_step_t *s = &r->step[k];
        cJSON *j = cJSON_CreateObject();
        cJSON_AddNumberToObject(j, "seat", s->seat);
        cJSON_AddStringToObject(j, "move", s->text);
        cJSON *hands = cJSON_AddArrayToObject(j, "hands");
        cJSON *scores = cJSON_AddArrayToObject(j, "scores");
        for (int seat = 0; seat < r->players; seat++) {
            cJSON_AddItemToArray(hands, cards_json(s->hand[seat]));
            cJSON_AddItemToArray(scores, cJSON_CreateNumber(s->score[seat]));
        }
        cJSON *ev = cJSON_AddArrayToObject(j, "events");
        for (int i = k ? r->step[k - 1].ev_to : 0; ev && i < s->ev_to; i++)
            cJSON_AddItemToArray(ev, cJSON_CreateString(r->ev[i].text));
        cJSON_AddNumberToObject(j, "legal", s->n_legal);
        if (s->valued == 1) {
            cJSON_AddBoolToObject(j, "points", s->in_points);
            cJSON_AddNumberToObject(j, "value", round(s->played * 100) / 100);
            cJSON_AddNumberToObject(j, "best_value", round(s->best * 100) / 100);
            cJSON_AddStringToObject(j, "best", s->best_text);
            cJSON_AddNumberToObject(j, "loss", round((s->best - s->played) * 100) / 100);
        } else if (s->valued < 0)
            cJSON_AddStringToObject(j, "note", "the engine gave no value for this move");
        cJSON_AddItemToArray(steps, j);
    }
    /* The events after the last move: the set's end. */
    cJSON *tail = cJSON_AddArrayToObject(o, "final_events");
    for (int i = r->n_step ? r->step[r->n_step - 1].ev_to : 0; tail && i < r->n_ev; i++)
        cJSON_AddItemToArray(tail, cJSON_CreateString(r->ev[i].text));
    pthread_mutex_unlock(&r->lock);
    char *text = o ? cJSON_PrintUnformatted(o) : NULL;
    cJSON_Delete(o);
    return text;
}
