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

/* The moves' verbs, by kind (CC_MV_*): resign names no card. */
static const char *const MOVE_VERBS[] = { NULL, "play", "resign", "lead" };

int court_move_format(const game_move_t *m, char *buf, size_t len)
{
    return game_card_move_format(m, MOVE_VERBS, 4, 1u << CC_MV_RESIGN, buf, len);
}

int court_move_parse(const char *text, game_move_t *out, char *err, size_t errlen)
{
    return game_card_move_parse(text, MOVE_VERBS, 4, 1u << CC_MV_RESIGN, out, err, errlen);
}

/* The events' forms (docs/court.md), but for a won trick's line: seats 0 to 7, numbers in the
 * bounds of a 52-card pack (marks: 4 a card at most). */
static const game_notation_t EVENT_FORMS[] = {
    { CC_EV_CUT, "cut %s#0:7 %gP" },
    { CC_EV_DEAL, "deal %a#1:30000 first %s#0:7 dealer %b#0:7" },
    { CC_EV_CARD, "card %S#0:7 %gP" },
    { CC_EV_GIVEN, "given %s#0:7 pack %a#0:52" },
    { CC_EV_LEAD, "lead %gP pack %a#0:52 by %s#0:7" },
    { CC_EV_LEAD, "lead %gP pack %a#0:52" },
    { CC_EV_TRICK, "trick %a#1:52 first %s#0:7" },
    { CC_EV_TURN, "turn %s#0:7 %g(play|lead)1" },
    { CC_EV_PLAY, "play %s#0:7 %gP" },
    { CC_EV_RESIGN, "resign %s#0:7" },
    { CC_EV_WON, "won %s#0:7 %g(none)" },
    { CC_EV_TAKE, "take %s#0:7 %g(down|up) %*" },
    { CC_EV_SCORE, "score %s#0:7 marks %a#0:208 points %b#0:208 total %c#0:1000000" },
    { CC_EV_DEAL_END, "deal-end %a#1:30000" },
    { CC_EV_GAME_END, "game-end" },
    { 0, NULL },
};
_Static_assert(CC_MAX_PLAYERS == 8 && CC_PACK == 52, "EVENT_FORMS' bounds");

int court_event_format(const game_event_t *ev, char *buf, size_t len)
{
    if (ev->type == CC_EV_WON && ev->arg != CC_CLASS_NONE)
        return snprintf(buf, len, "won %d class %d %s %d", ev->seat, class_number(ev->arg),
                        court_kind_name(ev->arg, ev->a), ev->b);
    return game_event_write(EVENT_FORMS, NULL, ev, buf, len);
}

/* "won S class K NAME L": the kind from its name in class K. */
static int parse_line(const text_tokens_t *tk, game_event_t *ev)
{
    int k, len, s;
    if (tk->n != 6 || text_int(tk->t[1], 0, CC_MAX_PLAYERS - 1, &s) < 0 || strcmp(tk->t[2], "class") != 0 ||
        text_int(tk->t[3], 1, 3, &k) < 0 || text_int(tk->t[5], 2, 4, &len) < 0)
        return 0;
    int cls = k == 1 ? CC_CLASS_1 : k == 2 ? CC_CLASS_2 : CC_CLASS_3, top = cls == CC_CLASS_3 ? CC_KIND_PAIR : CC_KIND_TRIO;
    for (int kind = 1; kind <= top; kind++)
        if (strcmp(tk->t[4], court_kind_name(cls, kind)) == 0) {
            ev->seat = (int8_t)s;
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
    int ok = ev->type == CC_EV_WON && tk.n == 6 ? parse_line(&tk, ev) : game_event_read(EVENT_FORMS, NULL, &tk, seat, ev);
    if (ok == 2)
        return text_fail(err, errlen, "'card' is private to seat %d, not for seat %d", ev->seat, seat);
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
    { "empty-first-hand", "once the pack is exhausted a trick's winner may hold no cards: he still chooses the next "
                          "Lead, takes the rest as above, and is first-hand of the next trick all the same; the next "
                          "seat round the table that holds cards puts down its first card, and since a seat with no "
                          "cards cannot win that trick, its winner is not first-hand and takes face down (ruling: "
                          "rule V read as written, docs/court.md)",
      "he then takes the rest, turning them face upwards, if he be first-hand, but if not, face downwards; and he "
      "becomes first-hand for the next trick." },
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
    { "target", "the game ends after the deal in which a seat reaches the target, flag target, 20 or 50 (default 50); "
                "two seats: Carroll's Section I allows either; three or more: Carroll's game is 50 (Section II), and "
                "target=20 there is a variant the engine allows; seats rank by score, equal scores sharing a rank "
                "(ruling)",
      "(Section I, two players) Game is 20 or 50. ... (Section II, three or more) Game is 50." },
};
const int CC_N_RULINGS = (int)(sizeof CC_RULINGS / sizeof CC_RULINGS[0]);
