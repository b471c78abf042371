#include "referee.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct referee {
    const game_t *game;
    void *state;
    int players;
    referee_seat_t seat[GAME_MAX_PLAYERS];
    referee_hooks_t hooks;
    rng_t *chance;
    long moves, chances;
    referee_fault_t fault;
    game_event_t ev[GAME_MAX_EVENTS]; /* the events of the step in progress */
};

referee_t *referee_create(const game_t *g, const game_config_t *cfg, char *err, size_t errlen)
{
    referee_t *r = calloc(1, sizeof *r);
    if (r)
        r->state = calloc(1, g->state_size);
    if (!r || !r->state) {
        free(r);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (g->init(r->state, cfg, err, errlen) < 0) {
        referee_free(r);
        return NULL;
    }
    r->game = g;
    r->players = g->num_players(r->state);
    r->fault.seat = -1;
    return r;
}

void referee_free(referee_t *r)
{
    if (!r)
        return;
    free(r->state);
    free(r);
}

void referee_set_seat(referee_t *r, int seat, const referee_seat_t *s)
{
    if (seat >= 0 && seat < r->players)
        r->seat[seat] = *s;
}

void referee_set_hooks(referee_t *r, const referee_hooks_t *h) { r->hooks = *h; }
void referee_set_chance(referee_t *r, rng_t *rng) { r->chance = rng; }
const void *referee_state(const referee_t *r) { return r->state; }
int referee_players(const referee_t *r) { return r->players; }
int referee_to_move(const referee_t *r) { return r->game->to_move(r->state); }
long referee_moves(const referee_t *r) { return r->moves; }
long referee_chances(const referee_t *r) { return r->chances; }
const referee_fault_t *referee_fault(const referee_t *r) { return &r->fault; }

static referee_status_t fault(referee_t *r, referee_fault_kind_t kind, int seat, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static referee_status_t fault(referee_t *r, referee_fault_kind_t kind, int seat, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->fault.text, sizeof r->fault.text, fmt, ap);
    va_end(ap);
    r->fault.kind = kind;
    r->fault.seat = seat;
    return REFEREE_FAULT;
}

/* Send n events of this step to the hooks and to each seat that may see them. */
static referee_status_t route(referee_t *r, int n)
{
    if (n > GAME_MAX_EVENTS)
        return fault(r, REFEREE_FAULT_GAME, -1, "one step emitted %d events, more than %d", n, GAME_MAX_EVENTS);
    for (int i = 0; i < n; i++) {
        if (r->hooks.on_event)
            r->hooks.on_event(r->hooks.data, &r->ev[i]);
        for (int s = 0; s < r->players; s++) {
            const referee_seat_t *seat = &r->seat[s];
            char why[256] = "";
            if (!seat->event || !game_event_visible(&r->ev[i], s))
                continue;
            if (seat->event(seat->data, &r->ev[i], why, sizeof why) < 0)
                return fault(r, REFEREE_FAULT_SEAT, s, "%s", why);
        }
    }
    return r->game->to_move(r->state) == GAME_OVER ? REFEREE_OVER : REFEREE_STEPPED;
}

static referee_status_t apply(referee_t *r, int seat, const game_move_t *m)
{
    if (r->hooks.on_move)
        r->hooks.on_move(r->hooks.data, r->state, seat, m);
    int n = r->game->apply(r->state, m, r->ev, GAME_MAX_EVENTS);
    r->moves++;
    return route(r, n);
}

referee_status_t referee_step(referee_t *r)
{
    if (r->fault.kind != REFEREE_FAULT_NONE)
        return REFEREE_FAULT;
    const game_t *g = r->game;
    int who = g->to_move(r->state);
    if (who == GAME_OVER)
        return REFEREE_OVER;
    if (who == GAME_CHANCE) {
        int n = g->apply_chance(r->state, r->chance, r->ev, GAME_MAX_EVENTS);
        r->chances++;
        return route(r, n);
    }
    if (who < 0 || who >= r->players)
        return fault(r, REFEREE_FAULT_GAME, -1, "the game says seat %d is to move, of %d", who, r->players);
    const referee_seat_t *seat = &r->seat[who];
    if (!seat->decide)
        return REFEREE_WAITING;
    game_move_t m;
    char why[256] = "";
    memset(&m, 0, sizeof m);
    int rc = seat->decide(seat->data, &m, why, sizeof why);
    if (rc > 0)
        return REFEREE_WAITING;
    if (rc < 0)
        return fault(r, REFEREE_FAULT_SEAT, who, "%s", why);
    char text[256];
    if (!g->is_legal(r->state, &m, why, sizeof why)) {
        g->move_format(&m, text, sizeof text);
        return fault(r, REFEREE_FAULT_ILLEGAL, who, "seat %d chose an illegal move '%.60s': %s", who, text, why);
    }
    return apply(r, who, &m);
}

referee_status_t referee_play(referee_t *r)
{
    referee_status_t st;
    while ((st = referee_step(r)) == REFEREE_STEPPED)
        ;
    return st;
}

int referee_move(referee_t *r, int seat, const game_move_t *m, char *err, size_t errlen)
{
    if (r->fault.kind != REFEREE_FAULT_NONE)
        return text_fail(err, errlen, "the game was stopped by a fault: %s", r->fault.text);
    int who = r->game->to_move(r->state);
    char why[GAME_ERR_LEN];
    if (who == GAME_OVER)
        return text_fail(err, errlen, "the game is already over");
    if (who == GAME_CHANCE)
        return text_fail(err, errlen, "a deal is due, not a move");
    if (seat != who)
        return text_fail(err, errlen, "seat %d is not to move (seat %d is)", seat, who);
    if (!r->game->is_legal(r->state, m, why, sizeof why))
        return text_fail(err, errlen, "illegal move: %s", why);
    return (int)apply(r, seat, m);
}
