/* Picket's notation: moves ("discard 7C 8C", "play TS") and events, written and read
 * (docs/protocol.md, sections 5 and 8). Parsing checks form only; whether an event can follow is
 * the view's question (picket_pub_apply), whether a move is legal is_legal's. */
#include <stdio.h>
#include <string.h>

#include "picket.h"

const char *const PK_EVENT_NAMES[PK_EV_COUNT] = {
    "?", "cut", "hand", "dealt", "turn", "blank", "show", "discard", "draw", "peek", "call",
    "stock", "leftover", "declare", "answer", "score", "appoint", "play", "trick", "hand-end", "set-end", "choose"
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
    case PK_MV_CHOOSE:
        return snprintf(buf, len, "choose %s", m->arg ? "deal" : "elder");
    case PK_MV_DECLARE:
        if (!m->cards)
            return snprintf(buf, len, "declare %s none", PK_CAT_NAMES[m->arg % PK_CAT_COUNT]);
        cardset_format(m->cards, cards, sizeof cards);
        return snprintf(buf, len, "declare %s %s", PK_CAT_NAMES[m->arg % PK_CAT_COUNT], cards);
    case PK_MV_ANSWER:
        return snprintf(buf, len, "answer %s", m->arg ? "full" : "good");
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
static const char *const MOVE_VERBS[] = { NULL,     "discard", "blank",   "call",  "leftover", "appoint",
                                          "play",   "choose",  "declare", "answer" };

int picket_move_parse(const char *text, game_move_t *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    while (*text == ' ')
        text++;
    const char *arg = NULL;
    int kind = PK_MV_DISCARD, n, s;
    while (kind <= PK_MV_ANSWER && !(arg = after_verb(text, MOVE_VERBS[kind])))
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
    case PK_MV_CHOOSE:
        if (!is_word(arg, "deal") && !is_word(arg, "elder"))
            return text_fail(err, errlen, "choose needs 'deal' or 'elder'");
        out->arg = is_word(arg, "deal");
        break;
    case PK_MV_DECLARE: {
        /* "declare CATEGORY none|CARDS": whether the cards are a holding is the rules' question. */
        size_t w = strcspn(arg, " ");
        int cat = -1;
        for (int c = PK_CAT_RUFF; c <= PK_CAT_SETS; c++)
            if (strlen(PK_CAT_NAMES[c]) == w && strncmp(arg, PK_CAT_NAMES[c], w) == 0)
                cat = c;
        if (cat < 0)
            return text_fail(err, errlen, "declare needs a category (ruff, sequences, sets), then cards or 'none'");
        arg += w;
        while (*arg == ' ')
            arg++;
        if (is_word(arg, "none")) {
            set = 0;
        } else if ((n = cards_parse_list(arg, cards_pack(PK_WIDEST_PACK), &set, err, errlen)) < 0) {
            return -1;
        } else if (n == 0) {
            return text_fail(err, errlen, "declare names no card (say 'none' to call nothing)");
        }
        out->arg = (int16_t)cat;
        out->cards = set;
        break;
    }
    case PK_MV_ANSWER:
        if (!is_word(arg, "good") && !is_word(arg, "full"))
            return text_fail(err, errlen, "answer needs 'good' or 'full'");
        out->arg = is_word(arg, "full");
        break;
    default: {
        char word[24];
        text_quote(text, strcspn(text, " "), word, sizeof word);
        return text_fail(err, errlen, "unknown move '%s' (discard, blank, call, leftover, appoint, play, choose, declare, answer)", word);
    }
    }
    out->kind = (uint16_t)kind;
    return 0;
}

/* ---------------------------------------------------------------- events */

/* The events' forms (docs/protocol.md section 8), but for the claims of DECLARE and ANSWER. */
static const char *const *const NAME_LISTS[] = { PK_PHASE_NAMES, PK_CAT_NAMES };
static const game_notation_t EVENT_FORMS[] = {
    { PK_EV_CUT, "cut %a(-)-1 %b(-)-1 dealer %s#0:1" },
    { PK_EV_CUT, "cut %aC %bC %g(dealer|chooser) %s#0:1" },
    { PK_EV_HAND, "hand %a#1:30000 dealer %s#0:1 stock %b#0:28" },
    { PK_EV_DEALT, "dealt %S#0:1 %*" },
    { PK_EV_TURN, "turn %s#-1:1 %g{0}0:12" },
    { PK_EV_BLANK, "blank %s#0:1 discards %a#1:8" },
    { PK_EV_BLANK, "blank %s#0:1" },
    { PK_EV_SHOW, "show %s#0:1 %g(leftover)-1 %*" },
    { PK_EV_SHOW, "show %s#0:1 %g{1}0:3 %*" },
    { PK_EV_DISCARD, "discard %S#0:1 %a#0:12 %+" },
    { PK_EV_DISCARD, "discard %s#0:1 %a#0:12" },
    { PK_EV_DRAW, "draw %S#0:1 %a#0:12 %+" },
    { PK_EV_DRAW, "draw %s#0:1 %a#0:12" },
    { PK_EV_PEEK, "peek %S#0:1 %a#0:11 %gC" },
    { PK_EV_CALL, "call %s#0:1 %g(none)-1" },
    { PK_EV_CALL, "call %s#0:1 %gU" },
    { PK_EV_STOCK, "stock %S#0:1 %*" },
    { PK_EV_LEFTOVER, "leftover %s#0:1 %g(keep|show)" },
    { PK_EV_SCORE, "score %s#0:1 %g{1}0:9 %a#1:100 total %c#1:2000000000" },
    { PK_EV_APPOINT, "appoint %s#0:1 %gU" },
    { PK_EV_PLAY, "play %s#0:1 %gP" },
    { PK_EV_TRICK, "trick %a#1:12 won-by %s#0:1" },
    { PK_EV_HAND_END, "hand-end" },
    { PK_EV_SET_END, "set-end winner %s#0:1 points %a#1:30000 %b(crossed|rubicon)" },
    { PK_EV_SET_END, "set-end winner %s#0:1" },
    { PK_EV_SET_END, "set-end drawn" },
    { PK_EV_CHOOSE, "choose %s#0:1 %g(elder|deal)" },
    { 0, NULL },
};

static int claim_text(int cat, int a, int b, char *buf, size_t len)
{
    switch (cat) {
    case PK_CAT_RUFF:
        if (b)
            return snprintf(buf, len, "%d-making-%d", a, b); /* point=count: cards, then their value */
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
    char claim[32];
    int s = ev->seat;
    const char *cat = ev->arg >= 0 ? PK_CAT_NAMES[ev->arg % PK_CAT_COUNT] : "?";
    switch (ev->type) {
    case PK_EV_DECLARE:
        claim_text(ev->arg, ev->a, ev->b, claim, sizeof claim);
        return snprintf(buf, len, "declare %d %s %s", s, cat, claim);
    case PK_EV_ANSWER:
        /* calls=cavendish: "not good" says nothing more (younger shows it after elder's lead). */
        if (ev->a == PK_ANS_GOOD || (ev->a == PK_ANS_NOT_GOOD && ev->b == 0 && ev->c == 0))
            return snprintf(buf, len, "answer %d %s %s", s, cat, ANSWER_NAMES[ev->a]);
        claim_text(ev->arg, ev->b, ev->c, claim, sizeof claim);
        return snprintf(buf, len, "answer %d %s %s %s", s, cat, ANSWER_NAMES[ev->a % 3], claim);
    default:
        return game_event_write(EVENT_FORMS, NAME_LISTS, ev, buf, len);
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
    if (cat == PK_CAT_RUFF) {
        const char *mk = strstr(s, "-making-");
        char num[8];
        if (!mk)
            return text_int(s, 0, 200, a);
        if (mk - s >= (long)sizeof num)
            return -1;
        memcpy(num, s, (size_t)(mk - s));
        num[mk - s] = '\0';
        return text_int(num, 1, 12, a) < 0 || text_int(mk + 8, 1, 200, b) < 0 ? -1 : 0;
    }
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

/* "declare S CAT CLAIM", "answer S CAT good", "answer S CAT equal|not-good CLAIM": 1, or 0. */
static int claim_read(const text_tokens_t *tk, int type, game_event_t *ev)
{
    int s, a = 0, b = 0, cat = tk->n >= 4 ? find_name(PK_CAT_NAMES, PK_CAT_COUNT, tk->t[2]) : -1;
    int ans = type == PK_EV_DECLARE ? PK_ANS_NOT_GOOD : tk->n >= 4 ? find_name(ANSWER_NAMES, 3, tk->t[3]) : -1;
    if (cat < PK_CAT_RUFF || cat > PK_CAT_SETS || ans < 0 || text_int(tk->t[1], 0, 1, &s) < 0)
        return 0;
    if (ans == PK_ANS_GOOD || (ans == PK_ANS_NOT_GOOD && type == PK_EV_ANSWER && tk->n == 4) ? tk->n != 4
                           : tk->n != (type == PK_EV_DECLARE ? 4 : 5) || claim_parse(cat, tk->t[tk->n - 1], &a, &b) < 0)
        return 0;
    ev->seat = (int8_t)s;
    ev->arg = (int8_t)cat;
    if (type == PK_EV_DECLARE) {
        ev->a = (int16_t)a;
        ev->b = (int16_t)b;
    } else {
        ev->a = (int16_t)ans;
        ev->b = (int16_t)a;
        ev->c = b;
    }
    return 1;
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
    /* A SHOW's word that names no category reads as the leftover, as it always has. */
    text_tokens_t rd = tk;
    if (type == PK_EV_SHOW && tk.n >= 3 && find_name(PK_CAT_NAMES, PK_CAT_COUNT, tk.t[2]) < 0)
        rd.t[2] = (char *)"leftover";
    int ok = type == PK_EV_DECLARE || type == PK_EV_ANSWER ? claim_read(&tk, type, ev)
                                                           : game_event_read(EVENT_FORMS, NAME_LISTS, &rd, seat, ev) == 1;
    /* A private discard or draw names as many cards as its count. */
    if (ok && ev->audience != GAME_ALL && (type == PK_EV_DISCARD || type == PK_EV_DRAW) && cardset_count(ev->cards) != ev->a)
        ok = 0;
    if (ok)
        return 0;
    return text_bad_event(&tk, word, err, errlen);
}
