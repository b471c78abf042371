#include "match.h"

#include <stdio.h>

static int deliver(const game_t *g, void *views, int players, const game_event_t *ev, int n,
                   const match_hooks_t *hooks, char *err, size_t errlen)
{
    for (int i = 0; i < n && i < GAME_MAX_EVENTS; i++) {
        if (hooks && hooks->on_event)
            hooks->on_event(hooks->data, &ev[i]);
        for (int s = 0; s < players; s++) {
            if (!game_event_visible(&ev[i], s))
                continue;
            if (g->view_apply((char *)views + (size_t)s * g->view_size, &ev[i]) < 0) {
                char text[256];
                g->event_format(&ev[i], text, sizeof text);
                snprintf(err, errlen, "seat %d's view refused event '%s'", s, text);
                return -1;
            }
        }
    }
    return 0;
}

int match_play(const game_t *g, const game_config_t *cfg, bot_t *const *bots, void *state, void *views,
               const match_hooks_t *hooks, char *err, size_t errlen)
{
    if (g->init(state, cfg, err, errlen) < 0)
        return -1;
    int players = g->num_players(state);
    for (int s = 0; s < players; s++)
        if (g->view_init((char *)views + (size_t)s * g->view_size, cfg, s, err, errlen) < 0)
            return -1;
    game_event_t ev[GAME_MAX_EVENTS];
    for (;;) {
        int who = g->to_move(state);
        int n;
        if (who == GAME_OVER)
            return 0;
        if (who == GAME_CHANCE) {
            n = g->apply_chance(state, ev, GAME_MAX_EVENTS);
        } else {
            game_move_t m;
            char why[GAME_ERR_LEN];
            if (bot_choose(bots[who], (char *)views + (size_t)who * g->view_size, &m) < 0) {
                snprintf(err, errlen, "seat %d's bot found no move", who);
                return -1;
            }
            if (!g->check_move(state, &m, why, sizeof why)) {
                char text[256];
                g->move_format(&m, text, sizeof text);
                snprintf(err, errlen, "seat %d chose an illegal move '%s': %s", who, text, why);
                return -1;
            }
            if (hooks && hooks->on_move)
                hooks->on_move(hooks->data, state, who, &m);
            n = g->apply(state, &m, ev, GAME_MAX_EVENTS);
        }
        if (n > GAME_MAX_EVENTS) {
            snprintf(err, errlen, "one step emitted %d events, more than %d", n, GAME_MAX_EVENTS);
            return -1;
        }
        if (deliver(g, views, players, ev, n, hooks, err, errlen) < 0)
            return -1;
    }
}
