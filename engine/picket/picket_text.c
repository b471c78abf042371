/* Picket's notation: moves ("discard 7C 8C", "play TS") and events, written and read
 * (docs/protocol.md, sections 5 and 8). Parsing checks form only; whether an event can follow is
 * the view's question (picket_pub_apply), whether a move is legal is_legal's. */
#include <stdio.h>
#include <string.h>

#include "picket.h"

const char *const PK_EVENT_NAMES[PK_EV_COUNT] = {
    "?", "cut", "hand", "dealt", "turn", "blank", "show", "discard", "draw", "peek", "call",
    "stock", "leftover", "declare", "answer", "score", "appoint", "play", "trick", "hand-end", "set-end"
};

static const char *const ANSWER_NAMES[3] = { "good", "equal", "not-good" };

/* ---------------------------------------------------------------- moves */

/* Moves are read against the widest Picket pack (36 cards, 6 to A): a card no Picket pack holds
 * (a 5, say) is refused as text, with a hint naming the real ranks; whether a card is in this
 * set's pack (deck=32) and in the mover's hand is the rules' question. */
enum { PK_WIDEST_PACK = 36 };

int picket_move_format(const game_move_t *m, char *buf, size_t len)
{
    char cards[200], c[3];
    switch (m->kind) {
    case PK_MV_DISCARD:
        cardset_format(m->cards, cards, sizeof cards);
        return snprintf(buf, len, "discard %s", cards);
    case PK_MV_BLANK:
        return snprintf(buf, len, "blank %d", m->arg);
    case PK_MV_CALL:
        if (m->arg < 0)
            return snprintf(buf, len, "call none");
        return snprintf(buf, len, "call %c", CARD_SUIT_CHARS[m->arg & 3]);
    case PK_MV_LEFTOVER:
        return snprintf(buf, len, "leftover %s", m->arg ? "show" : "keep");
    case PK_MV_APPOINT:
        return snprintf(buf, len, "appoint %c", CARD_SUIT_CHARS[m->arg & 3]);
    case PK_MV_PLAY:
        return snprintf(buf, len, "play %s", card_format(m->arg, c));
    default:
        return snprintf(buf, len, "?");
    }
}

/* The argument after a one-word verb, or NULL if the text does not start with the verb. */
static const char *after_verb(const char *text, const char *verb)
{
    size_t n = strlen(verb);
    if (strncmp(text, verb, n) != 0 || (text[n] != ' ' && text[n] != '\0'))
        return NULL;
    text += n;
    while (*text == ' ')
        text++;
    return text;
}

/* The word and nothing after it but spaces. */
static int is_word(const char *arg, const char *word)
{
    size_t n = strlen(word);
    if (strncmp(arg, word, n) != 0)
        return 0;
    for (const char *p = arg + n; *p; p++)
        if (*p != ' ')
            return 0;
    return 1;
}

/* One suit letter and nothing after it but spaces, or CARD_NONE. */
static int parse_suit_word(const char *arg)
{
    return arg[0] && is_word(arg + 1, "") ? card_parse_suit(arg[0]) : CARD_NONE;
}

/* The verbs, by move kind (PK_MV_*). */
static const char *const MOVE_VERBS[] = { NULL, "discard", "blank", "call", "leftover", "appoint", "play" };

int picket_move_parse(const char *text, game_move_t *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    while (*text == ' ')
        text++;
    const char *arg = NULL;
    int kind = PK_MV_DISCARD, n, s;
    while (kind <= PK_MV_PLAY && !(arg = after_verb(text, MOVE_VERBS[kind])))
        kind++;
    cardset_t set;
    switch (kind) {
    case PK_MV_DISCARD:
    case PK_MV_PLAY:
        n = cards_parse_list(arg, cards_pack(PK_WIDEST_PACK), &set, err, errlen);
        if (n < 0)
            return -1;
        if (kind == PK_MV_DISCARD && n == 0)
            return text_fail(err, errlen, "discard names no card");
        if (kind == PK_MV_PLAY && n != 1)
            return text_fail(err, errlen, "play needs exactly one card");
        out->arg = (int16_t)(kind == PK_MV_PLAY ? cardset_first(set) : 0);
        out->cards = set;
        break;
    case PK_MV_BLANK: {
        /* The count and nothing after it but spaces; whether elder's share allows it (5 with
         * deck=32) is the rules' question. */
        char count[8];
        size_t len = strcspn(arg, " ");
        int k;
        if (len >= sizeof count || !is_word(arg + len, ""))
            return text_fail(err, errlen, "blank needs a count from 1 to 8");
        memcpy(count, arg, len);
        count[len] = '\0';
        if (text_int(count, 1, 8, &k) < 0)
            return text_fail(err, errlen, "blank needs a count from 1 to 8");
        out->arg = (int16_t)k;
        break;
    }
    case PK_MV_CALL:
        s = is_word(arg, "none") ? -1 : parse_suit_word(arg);
        if (s == CARD_NONE && !is_word(arg, "none"))
            return text_fail(err, errlen, "call needs a suit (C D H S) or 'none'");
        out->arg = (int16_t)s;
        break;
    case PK_MV_LEFTOVER:
        if (!is_word(arg, "show") && !is_word(arg, "keep"))
            return text_fail(err, errlen, "leftover needs 'show' or 'keep'");
        out->arg = is_word(arg, "show");
        break;
    case PK_MV_APPOINT:
        if ((s = parse_suit_word(arg)) == CARD_NONE)
            return text_fail(err, errlen, "appoint needs a suit (C D H S)");
        out->arg = (int16_t)s;
        break;
    default: {
        char word[24];
        text_quote(text, strcspn(text, " "), word, sizeof word);
        return text_fail(err, errlen, "unknown move '%s' (discard, blank, call, leftover, appoint, play)", word);
    }
    }
    out->kind = (uint16_t)kind;
    return 0;
}

/* ---------------------------------------------------------------- events */

static int claim_text(int cat, int a, int b, char *buf, size_t len)
{
    switch (cat) {
    case PK_CAT_RUFF:
        return snprintf(buf, len, "%d", a);
    case PK_CAT_SEQ:
        if (a == 0)
            return snprintf(buf, len, "none");
        return snprintf(buf, len, "%d-to-%c", a, CARD_RANK_CHARS[b % CARD_RANKS]);
    default:
        if (a == 0)
            return snprintf(buf, len, "none");
        return snprintf(buf, len, "%s-%c", a == 4 ? "quatorze" : "ternary", CARD_RANK_CHARS[b % CARD_RANKS]);
    }
}

int picket_event_format(const game_event_t *ev, char *buf, size_t len)
{
    char cards[200], c1[3], c2[3], claim[32];
    const char *name = ev->type < PK_EV_COUNT ? PK_EVENT_NAMES[ev->type] : "?";
    cardset_format(ev->cards, cards, sizeof cards);
    int s = ev->seat;
    switch (ev->type) {
    case PK_EV_CUT:
        if (ev->a < 0)
            return snprintf(buf, len, "cut - - dealer %d", s);
        return snprintf(buf, len, "cut %s %s dealer %d", card_format(ev->a, c1), card_format(ev->b, c2), s);
    case PK_EV_HAND:
        return snprintf(buf, len, "hand %d dealer %d stock %d", ev->a, s, ev->b);
    case PK_EV_DEALT:
    case PK_EV_STOCK:
        return snprintf(buf, len, "%s %d %s", name, s, cards);
    case PK_EV_TURN:
        return snprintf(buf, len, "turn %d %s", s, ev->arg >= 0 && ev->arg < PK_PH_COUNT ? PK_PHASE_NAMES[ev->arg] : "?");
    case PK_EV_BLANK:
        if (ev->a)
            return snprintf(buf, len, "blank %d discards %d", s, ev->a);
        return snprintf(buf, len, "blank %d", s);
    case PK_EV_SHOW:
        return snprintf(buf, len, "show %d %s %s", s,
                        ev->arg < 0 ? "leftover" : PK_CAT_NAMES[ev->arg % PK_CAT_COUNT], cards);
    case PK_EV_DISCARD:
    case PK_EV_DRAW:
        if (ev->cards)
            return snprintf(buf, len, "%s %d %d %s", name, s, ev->a, cards);
        return snprintf(buf, len, "%s %d %d", name, s, ev->a);
    case PK_EV_PEEK:
        return snprintf(buf, len, "peek %d %d %s", s, ev->a, card_format(ev->arg, c1));
    case PK_EV_CALL:
        if (ev->arg < 0)
            return snprintf(buf, len, "call %d none", s);
        return snprintf(buf, len, "call %d %c", s, CARD_SUIT_CHARS[ev->arg & 3]);
    case PK_EV_LEFTOVER:
        return snprintf(buf, len, "leftover %d %s", s, ev->arg ? "show" : "keep");
    case PK_EV_DECLARE:
        claim_text(ev->arg, ev->a, ev->b, claim, sizeof claim);
        return snprintf(buf, len, "declare %d %s %s", s, PK_CAT_NAMES[ev->arg % PK_CAT_COUNT], claim);
    case PK_EV_ANSWER:
        if (ev->a == PK_ANS_GOOD)
            return snprintf(buf, len, "answer %d %s good", s, PK_CAT_NAMES[ev->arg % PK_CAT_COUNT]);
        claim_text(ev->arg, ev->b, ev->c, claim, sizeof claim);
        return snprintf(buf, len, "answer %d %s %s %s", s, PK_CAT_NAMES[ev->arg % PK_CAT_COUNT],
                        ANSWER_NAMES[ev->a % 3], claim);
    case PK_EV_SCORE:
        return snprintf(buf, len, "score %d %s %d total %d", s, PK_CAT_NAMES[ev->arg % PK_CAT_COUNT], ev->a, ev->c);
    case PK_EV_APPOINT:
        return snprintf(buf, len, "appoint %d %c", s, CARD_SUIT_CHARS[ev->arg & 3]);
    case PK_EV_PLAY:
        return snprintf(buf, len, "play %d %s", s, card_format(ev->arg, c1));
    case PK_EV_TRICK:
        return snprintf(buf, len, "trick %d won-by %d", ev->a, s);
    case PK_EV_HAND_END:
        return snprintf(buf, len, "hand-end");
    case PK_EV_SET_END:
        return snprintf(buf, len, "set-end winner %d", s);
    default:
        return snprintf(buf, len, "?");
    }
}


/* ---------------------------------------------------------------- event parsing */

static int find_name(const char *const *names, int n, const char *word)
{
    for (int i = 0; i < n; i++)
        if (names[i] && strcmp(names[i], word) == 0)
            return i;
    return -1;
}

static int claim_parse(int cat, const char *s, int *a, int *b)
{
    *a = *b = 0;
    if (cat == PK_CAT_RUFF)
        return text_int(s, 0, 200, a);
    if (strcmp(s, "none") == 0)
        return 0;
    if (cat == PK_CAT_SEQ) {
        const char *dash = strstr(s, "-to-");
        char num[8];
        if (!dash || dash - s >= (long)sizeof num || strlen(dash + 4) != 1)
            return -1;
        memcpy(num, s, (size_t)(dash - s));
        num[dash - s] = '\0';
        int r = card_parse_rank(dash[4]);
        if (text_int(num, 3, 13, a) < 0 || r == CARD_NONE)
            return -1;
        *b = r;
        return 0;
    }
    const char *dash = strrchr(s, '-');
    if (!dash || strlen(dash + 1) != 1)
        return -1;
    size_t n = (size_t)(dash - s);
    if (n == 8 && strncmp(s, "quatorze", 8) == 0)
        *a = 4;
    else if (n == 7 && strncmp(s, "ternary", 7) == 0)
        *a = 3;
    else
        return -1;
    int r = card_parse_rank(dash[1]);
    if (r == CARD_NONE)
        return -1;
    *b = r;
    return 0;
}

static int cat_token(const char *s)
{
    return find_name(PK_CAT_NAMES, PK_CAT_COUNT, s);
}

static int suit_token(const char *s)
{
    return strlen(s) == 1 ? card_parse_suit(s[0]) : CARD_NONE;
}

int picket_event_parse(const char *text, int seat, game_event_t *ev, char *err, size_t errlen)
{
    text_tokens_t tk;
    char word[32];
    if (game_event_start(text, PK_EVENT_NAMES, PK_EV_COUNT, &tk, ev, word, sizeof word, err, errlen) < 0)
        return -1;
    int type = ev->type;
    if ((type == PK_EV_DEALT || type == PK_EV_STOCK || type == PK_EV_PEEK ||
         ((type == PK_EV_DISCARD || type == PK_EV_DRAW) && tk.n > 3)) &&
        tk.n > 1 && strcmp(tk.t[1], seat == 0 ? "0" : "1") != 0 &&
        (strcmp(tk.t[1], "0") == 0 || strcmp(tk.t[1], "1") == 0))
        return text_fail(err, errlen, "'%s' with cards is private to seat %s, not for seat %d", word, tk.t[1], seat);
    int s = 0, v = 0, w = 0, ok = 0;
    /* Most events: NAME SEAT ...; the seat is 0 or 1 (turn also -1). */
    if (type != PK_EV_CUT && type != PK_EV_HAND && type != PK_EV_HAND_END && type != PK_EV_SET_END &&
        type != PK_EV_TRICK) {
        if (tk.n < 2 || text_int(tk.t[1], type == PK_EV_TURN ? -1 : 0, 1, &s) < 0)
            goto bad;
        ev->seat = (int8_t)s;
    }
    switch (type) {
    case PK_EV_CUT:
        if (tk.n != 5 || strcmp(tk.t[3], "dealer") != 0 || text_int(tk.t[4], 0, 1, &s) < 0)
            goto bad;
        ev->seat = (int8_t)s;
        if (strcmp(tk.t[1], "-") == 0 && strcmp(tk.t[2], "-") == 0) {
            ev->a = ev->b = -1;
            ok = 1;
        } else {
            ok = text_card(tk.t[1], &v) == 0 && text_card(tk.t[2], &w) == 0;
            ev->a = (int16_t)v;
            ev->b = (int16_t)w;
        }
        break;
    case PK_EV_HAND:
        ok = tk.n == 6 && strcmp(tk.t[2], "dealer") == 0 && strcmp(tk.t[4], "stock") == 0 &&
             text_int(tk.t[1], 1, 30000, &v) == 0 && text_int(tk.t[3], 0, 1, &s) == 0 &&
             text_int(tk.t[5], 0, 28, &w) == 0;
        ev->seat = (int8_t)s;
        ev->a = (int16_t)v;
        ev->b = (int16_t)w;
        break;
    case PK_EV_DEALT:
    case PK_EV_STOCK:
        ev->audience = (int8_t)seat;
        ok = s == seat && text_cards(&tk, 2, &ev->cards) == 0;
        break;
    case PK_EV_TURN:
        ok = tk.n == 3 && (v = find_name(PK_PHASE_NAMES, PK_PH_COUNT, tk.t[2])) >= 0;
        ev->arg = (int8_t)v;
        break;
    case PK_EV_BLANK:
        ok = tk.n == 2 || (tk.n == 4 && strcmp(tk.t[2], "discards") == 0 && text_int(tk.t[3], 1, 8, &v) == 0);
        ev->a = (int16_t)v;
        break;
    case PK_EV_SHOW:
        if (tk.n < 3)
            goto bad;
        v = strcmp(tk.t[2], "leftover") == 0 ? -1 : cat_token(tk.t[2]);
        ok = (v == -1 || (v >= PK_CAT_BLANK && v <= PK_CAT_SETS)) && text_cards(&tk, 3, &ev->cards) == 0;
        ev->arg = (int8_t)v;
        break;
    case PK_EV_DISCARD:
    case PK_EV_DRAW:
        if (tk.n < 3 || text_int(tk.t[2], 0, 12, &v) < 0)
            goto bad;
        ev->a = (int16_t)v;
        if (tk.n > 3) {
            ev->audience = (int8_t)seat;
            ok = s == seat && text_cards(&tk, 3, &ev->cards) == 0 && cardset_count(ev->cards) == v;
        } else {
            ok = 1;
        }
        break;
    case PK_EV_PEEK:
        ev->audience = (int8_t)seat;
        ok = tk.n == 4 && s == seat && text_int(tk.t[2], 0, 11, &v) == 0 && text_card(tk.t[3], &w) == 0;
        ev->a = (int16_t)v;
        ev->arg = (int8_t)w;
        break;
    case PK_EV_CALL:
        v = tk.n == 3 ? (strcmp(tk.t[2], "none") == 0 ? -1 : suit_token(tk.t[2])) : CARD_NONE;
        ok = v != CARD_NONE || (tk.n == 3 && strcmp(tk.t[2], "none") == 0);
        ev->arg = (int8_t)v;
        break;
    case PK_EV_LEFTOVER:
        ok = tk.n == 3 && (strcmp(tk.t[2], "show") == 0 || strcmp(tk.t[2], "keep") == 0);
        ev->arg = (int8_t)(ok && strcmp(tk.t[2], "show") == 0);
        break;
    case PK_EV_DECLARE: {
        int cat = tk.n == 4 ? cat_token(tk.t[2]) : -1;
        int a = 0, b = 0;
        ok = cat >= PK_CAT_RUFF && cat <= PK_CAT_SETS && claim_parse(cat, tk.t[3], &a, &b) == 0;
        ev->arg = (int8_t)cat;
        ev->a = (int16_t)a;
        ev->b = (int16_t)b;
        break;
    }
    case PK_EV_ANSWER: {
        int cat = tk.n >= 4 ? cat_token(tk.t[2]) : -1;
        int ans = tk.n >= 4 ? find_name(ANSWER_NAMES, 3, tk.t[3]) : -1;
        int a = 0, b = 0;
        if (cat < PK_CAT_RUFF || cat > PK_CAT_SETS || ans < 0)
            goto bad;
        ok = ans == PK_ANS_GOOD ? tk.n == 4 : (tk.n == 5 && claim_parse(cat, tk.t[4], &a, &b) == 0);
        ev->arg = (int8_t)cat;
        ev->a = (int16_t)ans;
        ev->b = (int16_t)a;
        ev->c = b;
        break;
    }
    case PK_EV_SCORE: {
        int cat = tk.n == 6 ? cat_token(tk.t[2]) : -1;
        ok = cat >= 0 && text_int(tk.t[3], 1, 100, &v) == 0 && strcmp(tk.t[4], "total") == 0 &&
             text_int(tk.t[5], 1, 2000000000, &w) == 0;
        ev->arg = (int8_t)cat;
        ev->a = (int16_t)v;
        ev->c = w;
        break;
    }
    case PK_EV_APPOINT:
        ok = tk.n == 3 && (v = suit_token(tk.t[2])) != CARD_NONE;
        ev->arg = (int8_t)v;
        break;
    case PK_EV_PLAY:
        ok = tk.n == 3 && text_card(tk.t[2], &v) == 0;
        ev->arg = (int8_t)v;
        ev->cards = ok ? cardset_of(v) : 0;
        break;
    case PK_EV_TRICK:
        /* trick N won-by S: the seat is the third number. */
        ok = tk.n == 4 && strcmp(tk.t[2], "won-by") == 0 && text_int(tk.t[1], 1, 12, &v) == 0 &&
             text_int(tk.t[3], 0, 1, &s) == 0;
        ev->seat = (int8_t)s;
        ev->a = (int16_t)v;
        break;
    case PK_EV_HAND_END:
        ok = tk.n == 1;
        ev->seat = -1;
        break;
    case PK_EV_SET_END:
        ok = tk.n == 3 && strcmp(tk.t[1], "winner") == 0 && text_int(tk.t[2], 0, 1, &s) == 0;
        ev->seat = (int8_t)s;
        break;
    default:
        break;
    }
    if (ok)
        return 0;
bad:
    return text_bad_event(&tk, word, err, errlen);
}
