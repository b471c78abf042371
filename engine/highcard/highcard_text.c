/* highcard's notation: moves ("play AS") and events, written and read (docs/highcard.md).
 * Parsing checks form only and never trusts its input; whether an event can follow is
 * view_apply's question, whether a move is legal is_legal's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "highcard.h"

const char *const HC_EVENT_NAMES[HC_EV_COUNT] = {
    "?", "hand", "dealt", "turn", "play", "round", "hand-end", "game-end"
};

int highcard_move_format(const game_move_t *m, char *buf, size_t len)
{
    char c[3];
    if (m->kind == HC_MV_PLAY && m->arg >= 0 && m->arg < CARD_COUNT)
        return snprintf(buf, len, "play %s", card_format(m->arg, c));
    return snprintf(buf, len, "?");
}

int highcard_move_parse(const char *text, game_move_t *out, char *err, size_t errlen)
{
    text_tokens_t tk;
    char shown[40];
    memset(out, 0, sizeof *out);
    if (text_tokenize(text, &tk) <= 0)
        return text_fail(err, errlen, "empty or overlong move");
    if (strcmp(tk.t[0], "play") != 0) {
        text_quote(tk.t[0], 24, shown, sizeof shown);
        return text_fail(err, errlen, "unknown move '%s' (play)", shown);
    }
    int c;
    if (tk.n != 2 || text_card(tk.t[1], &c) < 0)
        return text_fail(err, errlen, "play needs exactly one card, as 'play AS'");
    *out = game_card_move(HC_MV_PLAY, c);
    return 0;
}

int highcard_event_format(const game_event_t *ev, char *buf, size_t len)
{
    char cards[128], c[3];
    switch (ev->type) {
    case HC_EV_HAND:
        return snprintf(buf, len, "hand %d leader %d", ev->a, ev->seat);
    case HC_EV_DEALT:
        cardset_format(ev->cards, cards, sizeof cards);
        return snprintf(buf, len, "dealt %d %s", ev->seat, cards);
    case HC_EV_TURN:
        return snprintf(buf, len, "turn %d", ev->seat);
    case HC_EV_PLAY:
        return snprintf(buf, len, "play %d %s", ev->seat, ev->arg >= 0 ? card_format(ev->arg, c) : "?");
    case HC_EV_ROUND:
        if (ev->seat < 0)
            return snprintf(buf, len, "round %d tie", ev->a);
        return snprintf(buf, len, "round %d won-by %d", ev->a, ev->seat);
    case HC_EV_HAND_END:
        return snprintf(buf, len, "hand-end");
    case HC_EV_GAME_END: {
        size_t n = (size_t)snprintf(buf, len, "game-end rank");
        for (int s = 0; s < ev->arg && s < HC_MAX_PLAYERS && n < len; s++)
            n += (size_t)snprintf(buf + n, len - n, " %d", (ev->c >> (4 * s)) & 15);
        return (int)n;
    }
    default:
        return snprintf(buf, len, "?");
    }
}

int highcard_event_parse(const char *text, int seat, game_event_t *ev, char *err, size_t errlen)
{
    text_tokens_t tk;
    char word[40];
    if (game_event_start(text, HC_EVENT_NAMES, HC_EV_COUNT, &tk, ev, word, sizeof word, err, errlen) < 0)
        return -1;
    int type = ev->type;
    int s = 0, v = 0, ok = 0;
    switch (type) {
    case HC_EV_HAND:
        ok = tk.n == 4 && text_int(tk.t[1], 1, HC_MAX_HANDS, &v) == 0 && strcmp(tk.t[2], "leader") == 0 &&
             text_int(tk.t[3], 0, HC_MAX_PLAYERS - 1, &s) == 0;
        ev->a = (int16_t)v;
        break;
    case HC_EV_DEALT:
        if (tk.n < 3 || text_int(tk.t[1], 0, HC_MAX_PLAYERS - 1, &s) < 0)
            break;
        if (s != seat)
            return text_fail(err, errlen, "'dealt' is private to seat %d, not for seat %d", s, seat);
        ev->audience = (int8_t)seat;
        ok = text_cards(&tk, 2, &ev->cards) == 0;
        break;
    case HC_EV_TURN:
        ok = tk.n == 2 && text_int(tk.t[1], 0, HC_MAX_PLAYERS - 1, &s) == 0;
        break;
    case HC_EV_PLAY:
        ok = tk.n == 3 && text_int(tk.t[1], 0, HC_MAX_PLAYERS - 1, &s) == 0 && text_card(tk.t[2], &v) == 0;
        ev->arg = (int8_t)v;
        ev->cards = ok ? cardset_of(v) : 0;
        break;
    case HC_EV_ROUND:
        if (tk.n < 3 || text_int(tk.t[1], 1, HC_PACK_SIZE, &v) < 0)
            break;
        ev->a = (int16_t)v;
        s = -1;
        ok = (tk.n == 3 && strcmp(tk.t[2], "tie") == 0) ||
             (tk.n == 4 && strcmp(tk.t[2], "won-by") == 0 && text_int(tk.t[3], 0, HC_MAX_PLAYERS - 1, &s) == 0);
        break;
    case HC_EV_HAND_END:
        ok = tk.n == 1;
        s = -1;
        break;
    case HC_EV_GAME_END:
        ok = tk.n >= 2 + HC_MIN_PLAYERS && tk.n <= 2 + HC_MAX_PLAYERS && strcmp(tk.t[1], "rank") == 0;
        s = -1;
        ev->arg = (int8_t)(tk.n - 2);
        for (int i = 2; i < tk.n && ok; i++) {
            ok = text_int(tk.t[i], 0, tk.n - 3, &v) == 0;
            ev->c |= v << (4 * (i - 2));
        }
        break;
    default:
        break;
    }
    ev->seat = (int8_t)s;
    if (ok)
        return 0;
    memset(ev, 0, sizeof *ev);
    return text_fail(err, errlen, "malformed '%s' event", word);
}
