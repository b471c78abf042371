/* Court Circular's notation: moves ("play AS", "resign", "lead AS") and events, written and
 * read (docs/court.md). Parsing checks form only and never trusts its input; whether an event
 * can follow is the view's question (court_pub_apply), whether a move is legal is_legal's. */
#include <stdio.h>
#include <string.h>

#include "court.h"

const char *const CC_EVENT_NAMES[CC_EV_COUNT] = {
    "?", "cut", "deal", "card", "given", "lead", "trick", "turn", "play", "resign", "won", "take", "score",
    "deal-end", "game-end",
};

/* The source's class number (1 best) from the internal strength, and back. */
static int class_number(int cls) { return cls == CC_CLASS_1 ? 1 : cls == CC_CLASS_2 ? 2 : cls == CC_CLASS_3 ? 3 : 0; }

int court_move_format(const game_move_t *m, char *buf, size_t len)
{
    char c[3];
    int card_ok = m->arg >= 0 && m->arg < CARD_COUNT;
    if (m->kind == CC_MV_PLAY && card_ok)
        return snprintf(buf, len, "play %s", card_format(m->arg, c));
    if (m->kind == CC_MV_LEAD && card_ok)
        return snprintf(buf, len, "lead %s", card_format(m->arg, c));
    if (m->kind == CC_MV_RESIGN)
        return snprintf(buf, len, "resign");
    return snprintf(buf, len, "?");
}

int court_move_parse(const char *text, game_move_t *out, char *err, size_t errlen)
{
    text_tokens_t tk;
    char shown[40];
    memset(out, 0, sizeof *out);
    if (text_tokenize(text, &tk) <= 0)
        return text_fail(err, errlen, "empty or overlong move");
    if (strcmp(tk.t[0], "resign") == 0) {
        if (tk.n != 1)
            return text_fail(err, errlen, "resign takes nothing after it");
        out->kind = CC_MV_RESIGN;
        return 0;
    }
    int kind = strcmp(tk.t[0], "play") == 0 ? CC_MV_PLAY : strcmp(tk.t[0], "lead") == 0 ? CC_MV_LEAD : 0;
    if (!kind) {
        text_quote(tk.t[0], 24, shown, sizeof shown);
        return text_fail(err, errlen, "unknown move '%s' (play, resign, lead)", shown);
    }
    int c;
    if (tk.n != 2 || text_card(tk.t[1], &c) < 0)
        return text_fail(err, errlen, "%s needs exactly one card, as '%s AS'", tk.t[0], tk.t[0]);
    *out = game_card_move(kind, c);
    return 0;
}

int court_event_format(const game_event_t *ev, char *buf, size_t len)
{
    char cards[160], c[3];
    const char *card = ev->arg >= 0 && ev->arg < CARD_COUNT ? card_format(ev->arg, c) : "?";
    switch (ev->type) {
    case CC_EV_CUT:
        return snprintf(buf, len, "cut %d %s", ev->seat, card);
    case CC_EV_DEAL:
        return snprintf(buf, len, "deal %d first %d dealer %d", ev->a, ev->seat, ev->b);
    case CC_EV_CARD:
        return snprintf(buf, len, "card %d %s", ev->seat, card);
    case CC_EV_GIVEN:
        return snprintf(buf, len, "given %d pack %d", ev->seat, ev->a);
    case CC_EV_LEAD:
        if (ev->seat < 0)
            return snprintf(buf, len, "lead %s pack %d", card, ev->a);
        return snprintf(buf, len, "lead %s pack %d by %d", card, ev->a, ev->seat);
    case CC_EV_TRICK:
        return snprintf(buf, len, "trick %d first %d", ev->a, ev->seat);
    case CC_EV_TURN:
        return snprintf(buf, len, "turn %d %s", ev->seat, ev->arg == CC_PH_LEAD ? "lead" : "play");
    case CC_EV_PLAY:
        return snprintf(buf, len, "play %d %s", ev->seat, card);
    case CC_EV_RESIGN:
        return snprintf(buf, len, "resign %d", ev->seat);
    case CC_EV_WON:
        if (ev->arg == CC_CLASS_NONE)
            return snprintf(buf, len, "won %d none", ev->seat);
        return snprintf(buf, len, "won %d class %d %s %d", ev->seat, class_number(ev->arg),
                        court_kind_name(ev->arg, ev->a), ev->b);
    case CC_EV_TAKE:
        cardset_format(ev->cards, cards, sizeof cards);
        return snprintf(buf, len, "take %d %s %s", ev->seat, ev->arg ? "up" : "down", cards);
    case CC_EV_SCORE:
        return snprintf(buf, len, "score %d marks %d points %d total %d", ev->seat, ev->a, ev->b, ev->c);
    case CC_EV_DEAL_END:
        return snprintf(buf, len, "deal-end %d", ev->a);
    case CC_EV_GAME_END:
        return snprintf(buf, len, "game-end");
    default:
        return snprintf(buf, len, "?");
    }
}

static int seat_token(const char *t, int *s) { return text_int(t, 0, CC_MAX_PLAYERS - 1, s); }

/* "won S class K NAME L": the kind from its name in class K. */
static int parse_line(const text_tokens_t *tk, game_event_t *ev)
{
    int k, len;
    if (tk->n != 6 || strcmp(tk->t[2], "class") != 0 || text_int(tk->t[3], 1, 3, &k) < 0 ||
        text_int(tk->t[5], 2, 4, &len) < 0)
        return 0;
    int cls = k == 1 ? CC_CLASS_1 : k == 2 ? CC_CLASS_2 : CC_CLASS_3, top = cls == CC_CLASS_3 ? CC_KIND_PAIR : CC_KIND_TRIO;
    for (int kind = 1; kind <= top; kind++)
        if (strcmp(tk->t[4], court_kind_name(cls, kind)) == 0) {
            ev->arg = (int8_t)cls;
            ev->a = (int16_t)kind;
            ev->b = (int16_t)len;
            return 1;
        }
    return 0;
}

int court_event_parse(const char *text, int seat, game_event_t *ev, char *err, size_t errlen)
{
    text_tokens_t tk;
    char word[40];
    if (game_event_start(text, CC_EVENT_NAMES, CC_EV_COUNT, &tk, ev, word, sizeof word, err, errlen) < 0)
        return -1;
    int type = ev->type;
    int s = 0, v = 0, w = 0, x = 0, ok = 0;
    switch (type) {
    case CC_EV_CUT:
    case CC_EV_CARD:
    case CC_EV_PLAY:
        ok = tk.n == 3 && seat_token(tk.t[1], &s) == 0 && text_card(tk.t[2], &v) == 0;
        if (ok && type == CC_EV_CARD) {
            if (s != seat)
                return text_fail(err, errlen, "'card' is private to seat %d, not for seat %d", s, seat);
            ev->audience = (int8_t)seat;
        }
        ev->arg = (int8_t)v;
        ev->cards = ok ? cardset_of(v) : 0;
        break;
    case CC_EV_DEAL:
        ok = tk.n == 6 && text_int(tk.t[1], 1, 30000, &v) == 0 && strcmp(tk.t[2], "first") == 0 &&
             seat_token(tk.t[3], &s) == 0 && strcmp(tk.t[4], "dealer") == 0 && seat_token(tk.t[5], &w) == 0;
        ev->a = (int16_t)v;
        ev->b = (int16_t)w;
        break;
    case CC_EV_GIVEN:
        ok = tk.n == 4 && seat_token(tk.t[1], &s) == 0 && strcmp(tk.t[2], "pack") == 0 &&
             text_int(tk.t[3], 0, CC_PACK, &v) == 0;
        ev->a = (int16_t)v;
        break;
    case CC_EV_LEAD:
        ok = (tk.n == 4 || tk.n == 6) && text_card(tk.t[1], &v) == 0 && strcmp(tk.t[2], "pack") == 0 &&
             text_int(tk.t[3], 0, CC_PACK, &w) == 0;
        s = -1;
        if (ok && tk.n == 6)
            ok = strcmp(tk.t[4], "by") == 0 && seat_token(tk.t[5], &s) == 0;
        ev->arg = (int8_t)v;
        ev->a = (int16_t)w;
        ev->cards = ok ? cardset_of(v) : 0;
        break;
    case CC_EV_TRICK:
        ok = tk.n == 4 && text_int(tk.t[1], 1, CC_PACK, &v) == 0 && strcmp(tk.t[2], "first") == 0 &&
             seat_token(tk.t[3], &s) == 0;
        ev->a = (int16_t)v;
        break;
    case CC_EV_TURN:
        ok = tk.n == 3 && seat_token(tk.t[1], &s) == 0 &&
             (strcmp(tk.t[2], "play") == 0 || strcmp(tk.t[2], "lead") == 0);
        ev->arg = (int8_t)(ok && strcmp(tk.t[2], "lead") == 0 ? CC_PH_LEAD : CC_PH_PLAY);
        break;
    case CC_EV_RESIGN:
        ok = tk.n == 2 && seat_token(tk.t[1], &s) == 0;
        break;
    case CC_EV_WON:
        ok = tk.n >= 3 && seat_token(tk.t[1], &s) == 0 &&
             ((tk.n == 3 && strcmp(tk.t[2], "none") == 0) || parse_line(&tk, ev));
        break;
    case CC_EV_TAKE:
        ok = tk.n >= 3 && seat_token(tk.t[1], &s) == 0 && (strcmp(tk.t[2], "up") == 0 || strcmp(tk.t[2], "down") == 0);
        ev->arg = (int8_t)(ok && strcmp(tk.t[2], "up") == 0);
        ok = ok && text_cards(&tk, 3, &ev->cards) == 0;
        break;
    case CC_EV_SCORE:
        ok = tk.n == 8 && seat_token(tk.t[1], &s) == 0 && strcmp(tk.t[2], "marks") == 0 &&
             text_int(tk.t[3], 0, 4 * CC_PACK, &v) == 0 && strcmp(tk.t[4], "points") == 0 &&
             text_int(tk.t[5], 0, 4 * CC_PACK, &w) == 0 && strcmp(tk.t[6], "total") == 0 &&
             text_int(tk.t[7], 0, 1000000, &x) == 0;
        ev->a = (int16_t)v;
        ev->b = (int16_t)w;
        ev->c = x;
        break;
    case CC_EV_DEAL_END:
        ok = tk.n == 2 && text_int(tk.t[1], 1, 30000, &v) == 0;
        s = -1;
        ev->a = (int16_t)v;
        break;
    case CC_EV_GAME_END:
        ok = tk.n == 1;
        s = -1;
        break;
    default:
        break;
    }
    ev->seat = (int8_t)s;
    if (ok)
        return 0;
    memset(ev, 0, sizeof *ev);
    return text_bad_event(&tk, word, err, errlen);
}

/* The rules point by point: the reading the engine plays, and the source's own sentence (the
 * seed text, ../shared/seeds/004_3d7ab3dc65df5666.txt; rulings from the rules matrix). */
const court_ruling_t CC_RULINGS[] = {
    { "cut", "each seat cuts; the highest card (rule IV's order) is first-hand, the lowest deals; the same seat deals, "
             "and the same seat is first-hand at the start of every deal, for the whole game (ruling)",
      "Cut for precedence. Highest is \"first-hand;\" lowest \"dealer.\" ... It is convenient that the same player "
      "should be dealer for the whole of each game." },
    { "deal", "6 cards to each seat one at a time from first-hand round the table, then the next card turned up as "
              "the Lead",
      "Dealer gives 6 cards to each, one by one, beginning with first-hand, and turns up the 13th, which is called "
      "the \"Lead.\"" },
    { "trick", "first-hand puts down a card, then each seat in turn to his left, until each has put down 3",
      "First-hand then plays a card; then the other player, and so on, until 6 cards have been played ... then the "
      "player on his left-hand, and so on all round, each putting down his 3 cards in a row" },
    { "lines", "a Line is 2 or 3 of a seat's own cards, with or without the Lead: class 1 (with the Lead, 3 or 4 "
               "cards) beats class 2 (3 own cards) beats class 3 (2 own cards); kinds best first: Trio, Sequence, "
               "Sympathy, Court; Pair, Valentine, Etiquette (ruling: the order listed)",
      "A \"Line\" consists of 2, or all 3, of the cards put down by either player, with or without the Lead. ... "
      "Lines rank as follows: (1) 3, or 4 cards, (lead included.) ... (2) 3 cards, (lead excluded) ... (3) 2 cards, "
      "(lead excluded)" },
    { "four-over-three", "in class 1 a line of 4 beats a line of 3 of the same kind; the kind counts first (ruling)",
      "N.B. In this Class a Line of 4 cards beats a similar Line of 3." },
    { "lead-in-sequence", "the Lead may end a Sequence but never stand inside one",
      "The Lead must not be reckoned in the middle of a Sequence." },
    { "ace", "the Ace runs above the King (Q K A) or below the Two (A 2 3), never round the corner (ruling)",
      "N.B. In making a Sequence, the Ace may be reckoned either with King, Queen, or with Two, Three." },
    { "court-cards", "the court cards are King, Queen and Knave (ruling)", "Court—i. e. 3, or 4, Court-cards" },
    { "same-kind", "lines of the same class, kind and length: the line with the best card wins, then the next best; a "
                   "Lead both lines share is skipped (ruling)",
      "If both have made Lines of the same kind, he whose Line contains the best card wins the trick" },
    { "no-line", "no line on any side: the best card put down wins; a line on one side only wins",
      "and if neither has made a Line, he who has played the best card wins it." },
    { "card-order", "every Heart above every other card, by rank; then the rest by rank, Ace high; equal ranks with no "
                    "Heart: Diamonds, Clubs, Spades (ruling: the order applies to every comparison)",
      "Cards rank as follows: (1) Hearts. (2) The rest of the pack, in the order Aces, Kings, &c. N.B. If no Hearts "
      "have been played, and the highest cards on each side are equal, ... they rank in the order Diamonds, Clubs, "
      "Spades." },
    { "next-lead", "the winner picks the next Lead from the cards on the table, never the old Lead, takes the rest face "
                   "up if he was first-hand of the trick, face down if not, and is first-hand of the next",
      "The winner of a trick chooses, as Lead for the next trick, any one of the cards on the table, except the old "
      "Lead; he then takes the rest, turning them face upwards, if he be first-hand, but if not, face downwards; and "
      "he becomes first-hand for the next trick." },
    { "refill", "every hand is made up to 6 again, one card at a time from the new first-hand, while the pack lasts",
      "The dealer then gives cards to each, one by one, beginning with first-hand, until each hand is made up again "
      "to 6 cards." },
    { "resign", "a seat whose turn it is may resign instead of putting down a card, after the trick's first card and "
                "before any seat has put down 3; it sits out the rest of the trick; the last seat left wins it",
      "At any time during a trick, after the first card of it has been played, and before either has played 3 "
      "cards, he whose turn it is to play may \"resign\" instead ... he loses his chance of winning that trick, and "
      "the other players go on without him. ... In the case where all players but one \"resign,\" he who is left to "
      "the last wins the trick." },
    { "pack-exhausted", "no one resigns once the pack is exhausted; a trick then ends when every seat still holding "
                        "cards has put down 3 or emptied its hand; the last trick's winner clears the board, the Lead "
                        "too, face up or down as above (ruling)",
      "When the pack is exhausted neither player may resign. The winner of the last trick clears the board." },
    { "reckoning", "each card taken: face up 2, face down 1, +1 a Heart, +1 a court card; every seat scores the "
                   "difference between its marks and the lowest seat's (two seats: the winner scores the difference)",
      "Cards face upwards 2 each. downwards 1. Hearts 1. Court-cards 1 ... The winner scores the difference between "
      "his own and the loser's marks, the loser scoring nothing. ... all the players but the lowest score the "
      "difference between their own marks and those of the lowest, the lowest scoring nothing." },
    { "target", "the game ends after the deal in which a seat reaches the target, flag target, 20 or 50 (default 50, for "
                "any number of seats); seats rank by score, equal scores sharing a rank (ruling)",
      "Game is 20 or 50. ... Game is 50." },
};
const int CC_N_RULINGS = (int)(sizeof CC_RULINGS / sizeof CC_RULINGS[0]);
