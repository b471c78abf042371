#include "match.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct bot_seat {
    const game_t *game;
    bot_t *bot;          /* not owned */
    void *view;          /* owned */
    int seat;
} bot_seat_t;

/* An empty view for `seat` of the game cfg starts. 0, or -1 with a reason. */
static int bot_seat_init(bot_seat_t *s, bot_t *bot, const game_config_t *cfg, int seat, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    s->game = bot->game;
    s->bot = bot;
    s->seat = seat;
    if (!(s->view = calloc(1, s->game->view_size)))
        return text_fail(err, errlen, "out of memory");
    if (s->game->view_init(s->view, cfg, seat, err, errlen) < 0) {
        free(s->view);
        return -1;
    }
    return 0;
}

static int seat_event(void *data, const game_event_t *ev, char *err, size_t errlen)
{
    bot_seat_t *s = data;
    if (s->game->view_apply(s->view, ev) == 0)
        return 0;
    char text[256];
    s->game->event_format(ev, text, sizeof text);
    return text_fail(err, errlen, "seat %d's view refused event '%s'", s->seat, text);
}

static int seat_decide(void *data, game_move_t *out, char *err, size_t errlen)
{
    bot_seat_t *s = data;
    if (s->bot->choose(s->bot, s->view, NULL, NULL, out) == 0)
        return 0;
    return text_fail(err, errlen, "seat %d's bot found no move", s->seat);
}

int match_play(const game_t *g, const game_config_t *cfg, bot_t *const *bots, void *state_out,
               const referee_hooks_t *hooks, char *err, size_t errlen)
{
    referee_t *r = referee_create(g, cfg, err, errlen);
    if (!r)
        return -1;
    int players = referee_players(r), rc = 0;
    bot_seat_t seats[GAME_MAX_PLAYERS];
    int ready = 0;
    for (; ready < players && rc == 0; ready++) {
        if (bot_seat_init(&seats[ready], bots[ready], cfg, ready, err, errlen) < 0) {
            rc = -1;
            break;
        }
        referee_seat_t rs = { seat_event, seat_decide, &seats[ready] };
        referee_set_seat(r, ready, &rs);
    }
    if (rc == 0 && hooks)
        referee_set_hooks(r, hooks);
    if (rc == 0 && referee_play(r) != REFEREE_OVER) {
        /* Bots always answer, so a stop short of the end is a fault. */
        snprintf(err, errlen, "%s", referee_fault(r)->text);
        rc = -1;
    }
    if (state_out)
        memcpy(state_out, referee_state(r), g->state_size);
    for (int s = 0; s < ready; s++)
        free(seats[s].view);
    referee_free(r);
    return rc;
}
