/* highcard's notation: moves ("play AS") and events, written and read (docs/highcard.md).
 * Parsing checks form only and never trusts its input; whether an event can follow is
 * view_apply's question, whether a move is legal is_legal's. */
#include <stdio.h>
#include <string.h>

#include "highcard.h"

const char *const HC_EVENT_NAMES[HC_EV_COUNT] = {
    "?", "hand", "dealt", "turn", "play", "round", "hand-end", "game-end"
};

static const char *const MOVE_VERBS[] = { NULL, "play" };

int highcard_move_format(const game_move_t *m, char *buf, size_t len)
{
    return game_card_move_format(m, MOVE_VERBS, 2, 0, buf, len);
}

int highcard_move_parse(const char *text, game_move_t *out, char *err, size_t errlen)
{
    return game_card_move_parse(text, MOVE_VERBS, 2, 0, out, err, errlen);
}

/* The events' forms (docs/highcard.md), but for the ranks at the game's end. */
static const game_notation_t EVENT_FORMS[] = {
    { HC_EV_HAND, "hand %a#1:10000 leader %s#0:3" },
    { HC_EV_DEALT, "dealt %S#0:3 %+" },
    { HC_EV_TURN, "turn %s#0:3" },
    { HC_EV_PLAY, "play %s#0:3 %gP" },
    { HC_EV_ROUND, "round %a#1:24 won-by %s#0:3" },
    { HC_EV_ROUND, "round %a#1:24 tie" },
    { HC_EV_HAND_END, "hand-end" },
    { 0, NULL },
};
_Static_assert(HC_MAX_HANDS == 10000 && HC_MAX_PLAYERS == 4 && HC_PACK_SIZE == 24, "EVENT_FORMS' bounds");

int highcard_event_format(const game_event_t *ev, char *buf, size_t len)
{
    if (ev->type != HC_EV_GAME_END)
        return game_event_write(EVENT_FORMS, NULL, ev, buf, len);
    size_t n = (size_t)snprintf(buf, len, "game-end rank");
    for (int s = 0; s < ev->arg && s < HC_MAX_PLAYERS && n < len; s++)
        n += (size_t)snprintf(buf + n, len - n, " %d", (ev->c >> (4 * s)) & 15);
    return (int)n;
}

int highcard_event_parse(const char *text, int seat, game_event_t *ev, char *err, size_t errlen)
{
    text_tokens_t tk;
    char word[40];
    if (game_event_start(text, HC_EVENT_NAMES, HC_EV_COUNT, &tk, ev, word, sizeof word, err, errlen) < 0)
        return -1;
    int s, v = 0, ok;
    if (ev->type == HC_EV_DEALT && tk.n >= 3 && text_int(tk.t[1], 0, HC_MAX_PLAYERS - 1, &s) == 0 && s != seat)
        return text_fail(err, errlen, "'dealt' is private to seat %d, not for seat %d", s, seat);
    if (ev->type == HC_EV_GAME_END) {
        ok = tk.n >= 2 + HC_MIN_PLAYERS && tk.n <= 2 + HC_MAX_PLAYERS && strcmp(tk.t[1], "rank") == 0;
        ev->seat = -1;
        ev->arg = (int8_t)(tk.n - 2);
        for (int i = 2; i < tk.n && ok; i++) {
            ok = text_int(tk.t[i], 0, tk.n - 3, &v) == 0;
            ev->c |= v << (4 * (i - 2));
        }
    } else {
        ok = game_event_read(EVENT_FORMS, NULL, &tk, seat, ev) == 1;
    }
    if (ok)
        return 0;
    memset(ev, 0, sizeof *ev);
    return text_fail(err, errlen, "malformed '%s' event", word);
}
