/* The Picket rules engine as a specification: one case per rule point of
 * ../shared/design/rules-matrix.md and the engine rulings, each quoting its source.
 *
 * Every case deals chosen cards (picket_deal_given), then plays a script of moves written as the
 * players would type them; each scripted move must be legal (picket_is_legal) before it is
 * applied. The events of the hand are logged so a case can assert what was reckoned, by whom and
 * in which order. Set PICKET_TEST_VERBOSE=1 to print the events as they happen.
 *
 * Seats: unless a case says otherwise seat 1 deals, so seat 0 (E) is elder and seat 1 (Y) younger.
 * Positions are written as the hands *after* the exchange (what the declarations see); setup()
 * derives the dealt hands and the stock from them: elder draws one named card and discards
 * another, younger likewise, and the other ten undrawn cards stay in the stock.
 */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "picket.h"
#include "picket_score.h"
#include "test_util.h"

enum { E = 0, Y = 1, ANY = -99, LOG_CAP = 4096 };

/* ---------------------------------------------------------------- table and log */

typedef struct table {
    picket_state_t st;
    game_event_t log[LOG_CAP];
    int n;      /* events logged since init */
    int last;   /* first event of the last move applied */
} table_t;

static table_t T;

static int verbose(void) { return getenv("PICKET_TEST_VERBOSE") != NULL; }

static void log_events(table_t *t, const game_event_t *ev, int n)
{
    if (n > GAME_MAX_EVENTS)
        n = GAME_MAX_EVENTS;
    t->last = t->n;
    for (int i = 0; i < n && t->n < LOG_CAP; i++) {
        t->log[t->n++] = ev[i];
        if (verbose()) {
            char buf[256];
            picket_event_format(&ev[i], buf, sizeof buf);
            fprintf(stderr, "      [%3d] %s%s\n", t->n - 1, buf, ev[i].audience == GAME_ALL ? "" : " (private)");
        }
    }
}

/* An integer check that prints both values when it fails. */
#define EXPECT_EQ(actual, expected)                                                                  \
    do {                                                                                             \
        long long a_ = (long long)(actual), e_ = (long long)(expected);                              \
        char m_[256];                                                                                \
        snprintf(m_, sizeof m_, "%s == %s (got %lld, expected %lld)", #actual, #expected, a_, e_);   \
        if (a_ != e_ && verbose())                                                                   \
            fprintf(stderr, "\n    %s:%d: %s\n", __FILE__, __LINE__, m_);                            \
        CU_assertImplementation(a_ == e_, __LINE__, m_, __FILE__, "", CU_FALSE);                     \
    } while (0)

static void init(table_t *t, picket_rules_t r)
{
    memset(t, 0, sizeof *t);
    picket_init(&t->st, &r, 1);
    if (verbose())
        fprintf(stderr, "\n");
}

/* Cards in the order written ("QC 9C 6C"): returns the count. */
static int cards_in_order(const char *text, uint8_t *out, int cap)
{
    int n = 0;
    const char *p = text;
    while (*p) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        const char *q = p;
        while (*q && *q != ' ')
            q++;
        int c = card_parse(p, (size_t)(q - p));
        CU_ASSERT_FATAL(c != CARD_NONE && n < cap);
        out[n++] = (uint8_t)c;
        p = q;
    }
    return n;
}

/* Deal chosen hands (by seat) and stock (top first). */
static void deal(table_t *t, int dealer, const char *hand0, const char *hand1, const char *stock)
{
    cardset_t hands[2] = { test_cards(hand0), test_cards(hand1) };
    uint8_t order[PK_STOCK];
    cards_in_order(stock, order, PK_STOCK);
    game_event_t ev[GAME_MAX_EVENTS];
    int k = picket_deal_given(&t->st, dealer, hands, order, ev, GAME_MAX_EVENTS);
    CU_ASSERT_FATAL(k > 0);
    log_events(t, ev, k);
}

/* Parse, check and apply one move; a refused scripted move ends the case. */
static void move(table_t *t, const char *text)
{
    game_move_t m;
    char err[GAME_ERR_LEN];
    if (picket_move_parse(text, &m, err, sizeof err) != 0) {
        fprintf(stderr, "\n    cannot parse '%s': %s\n", text, err);
        CU_FAIL_FATAL("scripted move does not parse");
    }
    if (!picket_is_legal(&t->st, &m, err, sizeof err)) {
        fprintf(stderr, "\n    scripted move '%s' refused: %s\n", text, err);
        CU_FAIL_FATAL("scripted move refused");
    }
    if (verbose())
        fprintf(stderr, "    > %s\n", text);
    game_event_t ev[GAME_MAX_EVENTS];
    int k = picket_apply(&t->st, &m, ev, GAME_MAX_EVENTS);
    log_events(t, ev, k);
}

/* Several moves separated by ';'. */
static void moves(table_t *t, const char *script)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", script);
    for (char *p = buf; p && *p;) {
        char *semi = strchr(p, ';');
        if (semi)
            *semi = '\0';
        while (*p == ' ')
            p++;
        if (*p)
            move(t, p);
        p = semi ? semi + 1 : NULL;
    }
}

/* Cards played in order, e.g. "AC 6H KC 7H": leader, follower, then the next trick. */
static void play(table_t *t, const char *cards)
{
    uint8_t order[2 * PK_TRICKS];
    int n = cards_in_order(cards, order, 2 * PK_TRICKS);
    for (int i = 0; i < n; i++) {
        char text[16], c[3];
        snprintf(text, sizeof text, "play %s", card_format(order[i], c));
        move(t, text);
    }
}

/* The move must be refused, with a reason containing `why`. */
static void refused(table_t *t, const game_move_t *m, const char *why)
{
    char err[GAME_ERR_LEN] = "";
    int ok = picket_is_legal(&t->st, m, err, sizeof err);
    CU_ASSERT_FALSE(ok);
    if (!ok && !strstr(err, why))
        fprintf(stderr, "\n    reason '%s' does not mention '%s'\n", err, why);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, why));
}

static void refused_text(table_t *t, const char *text, const char *why)
{
    game_move_t m;
    char err[GAME_ERR_LEN];
    CU_ASSERT_EQUAL_FATAL(picket_move_parse(text, &m, err, sizeof err), 0);
    refused(t, &m, why);
}

static int legal_text(table_t *t, const char *text)
{
    game_move_t m;
    char err[GAME_ERR_LEN];
    CU_ASSERT_EQUAL_FATAL(picket_move_parse(text, &m, err, sizeof err), 0);
    return picket_is_legal(&t->st, &m, err, sizeof err);
}

static game_move_t discard_move(cardset_t cards)
{
    game_move_t m = { PK_MV_DISCARD, 0, 0, cards };
    return m;
}

/* Hands after the exchange -> the deal. Dealer 1; elder draws `eswap`'s first card and discarded
 * its second (a card of the undrawn rest), younger the same with `yswap`; the stock is
 * [elder's draw, younger's draw, the other ten in card order]. Leaves the table after younger's
 * discard (at the leftover step, the declarations or the first lead, as the rules say). */
static void setup(table_t *t, const char *elder_final, const char *younger_final, const char *eswap,
                  const char *yswap)
{
    cardset_t ef = test_cards(elder_final), yf = test_cards(younger_final);
    uint8_t es[2], ys[2];
    CU_ASSERT_FATAL(cards_in_order(eswap, es, 2) == 2 && cards_in_order(yswap, ys, 2) == 2);
    cardset_t rest = t->st.pack & ~ef & ~yf;
    CU_ASSERT_FATAL(cardset_count(ef) == 12 && cardset_count(yf) == 12 && !(ef & yf));
    CU_ASSERT_FATAL(cardset_count(rest) == cardset_count(t->st.pack) - 24);
    CU_ASSERT_FATAL(cardset_has(ef, es[0]) && cardset_has(rest, es[1]));
    CU_ASSERT_FATAL(cardset_has(yf, ys[0]) && cardset_has(rest, ys[1]) && es[1] != ys[1]);
    cardset_t dealt_e = (ef & ~cardset_of(es[0])) | cardset_of(es[1]);
    cardset_t dealt_y = (yf & ~cardset_of(ys[0])) | cardset_of(ys[1]);
    CU_ASSERT_FATAL(!picket_is_blank(dealt_e)); /* an elder's Blank changes the flow: deal() those */
    uint8_t stock[PK_STOCK];
    int n = 0;
    stock[n++] = es[0];
    stock[n++] = ys[0];
    for (cardset_t c = rest & ~cardset_of(es[1]) & ~cardset_of(ys[1]); c; c &= c - 1)
        stock[n++] = (uint8_t)cardset_first(c);
    cardset_t hands[2] = { dealt_e, dealt_y };
    game_event_t ev[GAME_MAX_EVENTS];
    int k = picket_deal_given(&t->st, 1, hands, stock, ev, GAME_MAX_EVENTS);
    CU_ASSERT_FATAL(k > 0);
    log_events(t, ev, k);
    char text[16], c[3];
    snprintf(text, sizeof text, "discard %s", card_format(es[1], c));
    move(t, text);
    snprintf(text, sizeof text, "discard %s", card_format(ys[1], c));
    move(t, text);
}

/* ---------------------------------------------------------------- queries on the log */

static int ev_match(const game_event_t *e, int type, int seat, int arg)
{
    return e->type == type && (seat == ANY || e->seat == seat) && (arg == ANY || e->arg == arg);
}

/* Index of the first matching event at or after `from`, or -1. */
static int ev_find(const table_t *t, int from, int type, int seat, int arg)
{
    for (int i = from; i < t->n; i++)
        if (ev_match(&t->log[i], type, seat, arg))
            return i;
    return -1;
}

static int ev_count(const table_t *t, int from, int type, int seat, int arg)
{
    int n = 0;
    for (int i = from; i < t->n; i++)
        n += ev_match(&t->log[i], type, seat, arg);
    return n;
}

/* Points a seat scored in a category in this hand (from the SCORE events). */
static int scored(const table_t *t, int seat, int cat)
{
    int pts = 0;
    for (int i = 0; i < t->n; i++)
        if (ev_match(&t->log[i], PK_EV_SCORE, seat, cat))
            pts += t->log[i].a;
    return pts;
}

static int phase(const table_t *t) { return t->st.pub.phase; }

/* ---------------------------------------------------------------- positions */

/* P1: a plain deal for the exchange (no Blank). */
static const char *P1_E = "AC TC 8C KD 9D 7D QH JH 6H AS 9S 7S";
static const char *P1_Y = "KC JC 7C AD QD 8D AH 9H 8H KS TS 6S";
static const char *P1_S = "QC 9C 6C JD TD 6D KH TH 7H QS JS 8S";

/* P32: the same kind of deal with the 32-card pack (no 6s); the stock holds 8. */
static const char *P32_E = "AC TC 8C KD 9D 7D QH JH 7H AS 9S 7S";
static const char *P32_Y = "KC JC 7C AD QD 8D AH 9H 8H KS TS 8S";
static const char *P32_S = "QC 9C JD TD KH TH QS JS";

/* TIE: equal Ruffs and equal best Sequences, no sets.
 * Elder  AC KC QC 9C | AH 8H 6H | TD 8D 6D | JS 7S
 *   Ruff clubs 11+10+10+9 = 40 (hearts 25, diamonds 24, spades 17); tierce Q-K-A of clubs.
 * Younger AD KD QD 9D | AS 8S 6S | TH 9H 7H | JC 7C
 *   Ruff diamonds 11+10+10+9 = 40 (spades 25, hearts 26, clubs 17); tierce Q-K-A of diamonds.
 * Sets: at most two of any rank each: none.
 * Elder draws 7S for 6C, younger 7C for 8C; leftover TC 7D JD JH QH KH 9S TS QS KS. */
static const char *TIE_E = "AC KC QC 9C AH 8H 6H TD 8D 6D JS 7S";
static const char *TIE_Y = "AD KD QD 9D AS 8S 6S TH 9H 7H JC 7C";
#define TIE_SWAPS "7S 6C", "7C 8C"
static const char *TIE_LEFTOVER = "TC 7D JD JH QH KH 9S TS QS KS";

/* SWEEP: elder holds only clubs and diamonds, younger only hearts and spades, so elder wins
 * every trick he leads and chooses the last card.
 * Elder  AC KC QC TC 7C 6C | AD KD QD 9D 7D 6D
 *   Ruff clubs 11+10+10+10+7+6 = 54 -> 5 (diamonds 53). Sequences: Q-K-A of clubs and of
 *   diamonds, two tierces = 6 (TC stands alone, the JC is out). Sets: none (two A, K, Q).
 * Younger 6H 7H 9H TH QH KH | 6S 7S 9S TS QS KS
 *   Ruff 6+7+9+10+10+10 = 52. No three ranks in a row in either suit: no sequence. No sets.
 * After the declarations elder has 5 + 6 = 11, younger 0. */
static const char *SWEEP_E = "AC KC QC TC 7C 6C AD KD QD 9D 7D 6D";
static const char *SWEEP_Y = "6H 7H 9H TH QH KH 6S 7S 9S TS QS KS";
#define SWEEP_SWAPS "6C 8H", "6S 8S"
/* Elder leads every card; the last trick is won with the Ten of clubs, or with the Nine of diamonds. */
static const char *SWEEP_TEN_LAST = "AC 6H KC 7H QC 9H 7C TH 6C QH AD KH KD 6S QD 7S 9D 9S 7D TS 6D QS TC KS";
static const char *SWEEP_NINE_LAST = "AC 6H KC 7H QC 9H TC TH 7C QH 6C KH AD 6S KD 7S QD 9S 7D TS 6D QS 9D KS";

/* CARDS10: like SWEEP, but younger keeps 7C 8C to win one trick without a high card.
 * Elder  AC KC QC TC 9C 6C | AD KD QD 9D 7D 6D
 *   Ruff clubs 11+10+10+10+9+6 = 56 -> 6. Sequences: Q-K-A of clubs (T-9 is only two) and of
 *   diamonds = 6. Sets: none. After the declarations: 12.
 * Younger 7C 8C | 6H 7H 9H TH QH | 6S 7S 9S TS QS
 *   Ruff hearts 6+7+9+10+10 = 42. No sequence, no sets. */
static const char *C10_E = "AC KC QC TC 9C 6C AD KD QD 9D 7D 6D";
static const char *C10_Y = "7C 8C 6H 7H 9H TH QH 6S 7S 9S TS QS";
#define C10_SWAPS "6D 8D", "6S 8S"
/* 11 tricks to 1: younger wins only 6C-7C, then leads 8C into elder's 9C. */
static const char *C10_ELEVEN_ONE = "AD 6H KD 7H QD 9H 9D TH 7D QH 6D 6S 6C 7C 8C 9C AC 7S KC 9S QC TS TC QS";
/* 6 tricks each: elder wins six diamonds, loses 6C to 7C, then younger leads his five. */
static const char *C10_SIX_SIX = "AD 6H KD 7H QD 9H 9D 6S 7D 7S 6D 8C 6C 7C TH 9C QH TC TS QC 9S KC QS AC";

/* P29: elder holds 29 in declarations, younger nothing.
 * Elder  AH KH QH JH TH | AC JC | AD KD | KS JS 6S
 *   Ruff hearts 11+10+10+10+10 = 51 -> 5. Quint A-T of hearts 15 (no other run of three).
 *   Ternaries: Aces (H C D), Kings (H D S), Knaves (H C S) = 9; Queen and Ten single.
 *   5 + 15 + 9 = 29.
 * Younger KC QC 9C 7C | QD JD 9D 7D | QS TS 8S | 9H
 *   Ruff 36 (clubs or diamonds). No run of three. Ternary of Queens, below elder's Aces. */
static const char *P29_E = "AH KH QH JH TH AC JC AD KD KS JS 6S";
static const char *P29_Y = "KC QC 9C 7C QD JD 9D 7D QS TS 8S 9H";
#define P29_SWAPS "6S 6C", "9H 6D"

/* R32: as P29 with QS for 6S: the spades K-Q-J add a tierce: 5 + 18 + 9 = 32 in declarations.
 * Younger (TS 8S 6S instead of QS TS 8S) has no sets at all. */
static const char *R32_E = "AH KH QH JH TH AC JC AD KD KS QS JS";
static const char *R32_Y = "KC QC 9C 7C QD JD 9D 7D TS 8S 6S 9H";
#define R32_SWAPS "JC 6C", "9H 6D"

/* YB: younger dealt a Blank; no King, Queen or Knave among 6C 7C 9C TC 6D 7D 9D TD 6H 8H 7S 8S.
 * After the exchange (9S for 8S) younger: ruff 6+7+9+10 = 32, no run of three, two Tens.
 * With elder's R32 hand: 32 in declarations; with the P29 hand: 29. */
static const char *YB_Y = "6C 7C 9C TC 6D 7D 9D TD 6H 8H 7S 9S";
#define YB_R32_SWAPS "JS 6S", "9S 8S"
#define YB_P29_SWAPS "6S 8C", "9S 8S"

/* RB: younger wins the Ruff, then elder makes 32 in Sequences and sets.
 * Elder  AH KH QH JH TH | AC | AD KD 6D | AS KS 6S
 *   Ruff 51. Quint A-T of hearts 15. Quatorze of Aces 14, ternary of Kings 3 = 17. 15 + 17 = 32.
 * Younger KC QC TC 9C 8C 7C | 9H 7H | QD TD | QS 9S
 *   Ruff clubs 10+10+10+9+8+7 = 54 -> 5, beats 51. Quart 7-T of clubs loses to the quint.
 *   Ternary of Queens loses to the quatorze. */
static const char *RB_E = "AH KH QH JH TH AC AD KD 6D AS KS 6S";
static const char *RB_Y = "KC QC TC 9C 8C 7C 9H 7H QD TD QS 9S";
#define RB_SWAPS "6S 8D", "9S 7S"

/* SEQ: a suited tierce against runs across suits.
 * Elder  6C 6D 6S | 8C 8H 8S | 9H 9S | TH TC | AC AD
 *   Suited: 8-9-T of hearts, a tierce to the Ten (3); nothing else.
 *   Unsuited: ranks 6 6 6 8 8 8 9 9 T T A A: claims 8-9-T, then 8-9-T again: 3 + 3 = 6.
 *   Ruff clubs 6+8+10+11 = 35 -> 4.
 * Younger TD JC QD KS AH | 7C 7D 7H | 9C JH QS KC
 *   Suited: clubs 7 9 J K, diamonds 7 T Q, hearts 7 J A, spades Q K: no sequence.
 *   Unsuited: ranks 7 7 7 9 T J J Q Q K K A: claims the sixieme 9-A (16), then J-Q-K (3) = 19.
 *   Ruff clubs 7+9+10+10 = 36 -> 4: younger wins the Ruff. No sets on either side. */
static const char *SEQ_E = "6C 6D 6S 8C 8H 8S 9H 9S TH TC AC AD";
static const char *SEQ_Y = "TD JC QD KS AH 7C 7D 7H 9C JH QS KC";
#define SEQ_SWAPS "6C JD", "7C 7S"

/* Blanks (dealt with deal(): an elder's Blank changes the exchange).
 * BLANK_E: elder's Blank: AH TH 9H 8H 7H 6H AC AD AS TC TD 6S. After discarding 6S and drawing
 *   JS (or any court): ruff hearts 11+10+9+8+7+6 = 51 -> 5; quint 6-T of hearts 15 (the Ace
 *   stands apart); quatorze of Aces 14, ternary of Tens (H C D) 3 = 17. 5 + 15 + 17 = 37.
 * EB: younger holds a Knave: not Blank. Stock: every other court, 6C third.
 * BB: younger Blank too (6C for JC). After he drops 6C and draws JC: 7C 8C 9C JC 6D 7D 8D 9D
 *   7S 8S 9S TS: ruff 34, best sequence the quart 7-T of spades (loses to the quint), no sets. */
static const char *BLANK_E = "AH TH 9H 8H 7H 6H AC AD AS TC TD 6S";
static const char *EB_Y = "JC 7C 8C 9C 6D 7D 8D 9D 7S 8S 9S TS";
static const char *EB_S = "JS 6C KC QC KD QD JD KH QH JH KS QS";
static const char *BB_Y = "6C 7C 8C 9C 6D 7D 8D 9D 7S 8S 9S TS";
static const char *BB_S = "JS JC KC QC KD QD JD KH QH JH KS QS";

/* ================================================================ the deal */

/* CG: "The disadvantage in this play is the Dealer's" -- the non-dealer is elder and acts first. */
static void test_elder_is_the_non_dealer(void)
{
    for (int dealer = 0; dealer < 2; dealer++) {
        init(&T, test_rules("cotgrave", NULL));
        deal(&T, dealer, dealer ? P1_E : P1_Y, dealer ? P1_Y : P1_E, P1_S);
        EXPECT_EQ(picket_elder(&T.st.pub), 1 - dealer);
        EXPECT_EQ(picket_to_move(&T.st), 1 - dealer);
        EXPECT_EQ(phase(&T), PK_PH_ELDER_EXCHANGE);
    }
}

/* DL: "Elder is the better here, but shall be Dealer in the next hand."
 * CG: "if they win not the Set, fall to Dealing again, according to custome". */
static void test_deal_alternates_between_hands(void)
{
    init(&T, test_rules("cotgrave", "target=10000", NULL));
    rng_t rng;
    rng_seed(&rng, 42);
    game_event_t ev[GAME_MAX_EVENTS];
    int prev = -1;
    for (int hand = 1; hand <= 6; hand++) {
        CU_ASSERT_EQUAL_FATAL(picket_to_move(&T.st), GAME_CHANCE);
        CU_ASSERT_FATAL(picket_apply_chance(&T.st, NULL, ev, GAME_MAX_EVENTS) > 0);
        EXPECT_EQ(T.st.pub.hand_no, hand);
        if (prev >= 0)
            EXPECT_EQ(T.st.pub.dealer, 1 - prev);
        prev = T.st.pub.dealer;
        EXPECT_EQ(T.st.pub.to_move, 1 - prev); /* elder acts first */
        for (int guard = 0; picket_to_move(&T.st) >= 0 && guard < 200; guard++) {
            game_move_t m;
            char err[GAME_ERR_LEN];
            picket_random_move(&T.st, &rng, &m);
            CU_ASSERT_FATAL(picket_is_legal(&T.st, &m, err, sizeof err));
            picket_apply(&T.st, &m, ev, GAME_MAX_EVENTS);
        }
    }
}

/* CG: "the least Card deals": at the first deal of a set each seat cuts a card, the lower deals. */
static void test_cut_lowest_card_deals(void)
{
    for (uint64_t seed = 1; seed <= 20; seed++) {
        picket_rules_t r = test_rules("cotgrave", NULL);
        picket_init(&T.st, &r, seed);
        game_event_t ev[GAME_MAX_EVENTS];
        int n = picket_apply_chance(&T.st, NULL, ev, GAME_MAX_EVENTS);
        CU_ASSERT_FATAL(n > 0 && ev[0].type == PK_EV_CUT);
        int r0 = card_rank(ev[0].a), r1 = card_rank(ev[0].b);
        CU_ASSERT(r0 != r1);
        EXPECT_EQ(T.st.pub.dealer, r0 < r1 ? 0 : 1);
    }
}

/* CG: "Then the twelve that remain, are laid between the two Gamesters upon the Table" -- twelve
 * cards each, twelve in the stock. */
static void test_deal_twelve_each_and_twelve_in_the_stock(void)
{
    picket_rules_t r = test_rules("cotgrave", NULL);
    picket_init(&T.st, &r, 7);
    game_event_t ev[GAME_MAX_EVENTS];
    CU_ASSERT_FATAL(picket_apply_chance(&T.st, NULL, ev, GAME_MAX_EVENTS) > 0);
    EXPECT_EQ(cardset_count(T.st.hand[0]), 12);
    EXPECT_EQ(cardset_count(T.st.hand[1]), 12);
    EXPECT_EQ(T.st.hand[0] & T.st.hand[1], 0);
    EXPECT_EQ(T.st.pub.stock_left, 12);
}

/* ================================================================ the exchange */

/* CG: "he may take in eight of the twelve Cards remaining in the Stock, having first discarded as
 * many of his own" -- nine is one too many. */
static void test_elder_discarding_nine_is_refused(void)
{
    init(&T, test_rules("cotgrave", NULL));
    deal(&T, 1, P1_E, P1_Y, P1_S);
    game_move_t m = discard_move(test_cards("TC 8C KD 9D 7D 6H AS 9S 7S"));
    refused(&T, &m, "1 to 8");
    CU_ASSERT_TRUE(legal_text(&T, "discard TC 8C 9D 7D 6H AS 9S 7S"));
}

/* CG: "you are both obliged to discard one Card at least" (elder). */
static void test_elder_discarding_none_is_refused(void)
{
    init(&T, test_rules("cotgrave", NULL));
    deal(&T, 1, P1_E, P1_Y, P1_S);
    game_move_t m = discard_move(0);
    refused(&T, &m, "not 0");
}

/* CT: "the Gamesters are both obliged to discard one Card at least" (younger). */
static void test_younger_discarding_none_is_refused(void)
{
    init(&T, test_rules("cotton", NULL));
    deal(&T, 1, P1_E, P1_Y, P1_S);
    move(&T, "discard 6H");
    EXPECT_EQ(phase(&T), PK_PH_YOUNGER_EXCHANGE);
    game_move_t m = discard_move(0);
    refused(&T, &m, "not 0");
}

/* CG: "discarding as many of his own" -- a player discards from his own hand: the Queen of clubs
 * lies in the stock, the King of clubs in younger's hand. */
static void test_discarding_a_card_not_in_hand_is_refused(void)
{
    init(&T, test_rules("cotgrave", NULL));
    deal(&T, 1, P1_E, P1_Y, P1_S);
    refused_text(&T, "discard QC", "QC is not in the hand");
    refused_text(&T, "discard 6H KC", "KC is not in the hand"); /* younger's card */
}

/* CG: "he takes in from the Stock as many Cards as he laid out" and "If he take in lesse than
 * eight, he has liberty to look upon the remainder of them eight, laying them down upon the rest". */
static void test_elder_draws_from_the_top_and_sees_the_rest_of_his_eight(void)
{
    init(&T, test_rules("cotgrave", NULL));
    deal(&T, 1, P1_E, P1_Y, P1_S);
    move(&T, "discard 6H 7D 9S");
    /* Stock QC 9C 6C | JD TD 6D KH TH | 7H QS JS 8S: he draws the first three... */
    EXPECT_EQ(T.st.hand[E], test_cards("AC TC 8C KD 9D QH JH AS 7S QC 9C 6C"));
    EXPECT_EQ(T.st.pub.drawn[E], 3);
    EXPECT_EQ(T.st.pub.stock_left, 9);
    /* ...and looks at the next five, privately, in stock order. */
    const char *peek[5] = { "JD", "TD", "6D", "KH", "TH" };
    int i = T.last, seen = 0;
    while ((i = ev_find(&T, i, PK_EV_PEEK, E, ANY)) >= 0) {
        CU_ASSERT(seen < 5);
        if (seen < 5) {
            EXPECT_EQ(T.log[i].arg, card_parse(peek[seen], 2));
            EXPECT_EQ(T.log[i].a, 3 + seen);
            EXPECT_EQ(T.log[i].audience, E);
        }
        seen++;
        i++;
    }
    EXPECT_EQ(seen, 5);
    EXPECT_EQ(phase(&T), PK_PH_YOUNGER_EXCHANGE);
}

/* CG: "Then, may the other likewise take all the rest" (younger_draw=all): after elder takes 1,
 * younger may take the other 11 (12 - k), and no more. */
static void test_younger_draw_all_may_take_every_card_left(void)
{
    init(&T, test_rules("cotgrave", NULL));
    deal(&T, 1, P1_E, P1_Y, P1_S);
    move(&T, "discard 6H");
    game_move_t twelve = discard_move(test_cards(P1_Y));
    refused(&T, &twelve, "1 to 11");
    /* He keeps only the Ace of hearts and takes the eleven cards left. */
    move(&T, "discard KC JC 7C AD QD 8D 9H 8H KS TS 6S");
    EXPECT_EQ(T.st.pub.drawn[Y], 11);
    EXPECT_EQ(T.st.pub.stock_left, 0);
    EXPECT_EQ(T.st.hand[Y], test_cards("AH 9C 6C JD TD 6D KH TH 7H QS JS 8S"));
    /* Nothing left over: no call for the leftover. */
    EXPECT_EQ(ev_count(&T, 0, PK_EV_TURN, ANY, PK_PH_CALL), 0);
}

/* DL: "the Dealer may draw up to eight, an there be so manie left in the Stock" (younger_draw=8). */
static void test_younger_draw_8_stops_at_eight(void)
{
    init(&T, test_rules("cotgrave", "younger_draw=8", NULL));
    deal(&T, 1, P1_E, P1_Y, P1_S);
    move(&T, "discard 6H");
    game_move_t nine = discard_move(test_cards("KC JC 7C AD QD 8D 9H 8H 6S"));
    refused(&T, &nine, "1 to 8");
    move(&T, "discard KC JC 7C QD 8D 9H 8H 6S");
    EXPECT_EQ(T.st.pub.drawn[Y], 8);
    EXPECT_EQ(T.st.pub.stock_left, 3);
}

/* DR: "We played that Younger may only draw up to eight" -- and no more than is left. */
static void test_younger_draw_8_limited_to_what_is_left(void)
{
    init(&T, test_rules("ducoeur-report", NULL));
    deal(&T, 1, P1_E, P1_Y, P1_S);
    move(&T, "discard 6H 7D 9D 9S 7S 8C"); /* elder takes 6: 6 remain */
    game_move_t seven = discard_move(test_cards("KC JC 7C QD 8D 9H 8H"));
    refused(&T, &seven, "1 to 6");
    CU_ASSERT_TRUE(legal_text(&T, "discard KC JC 7C QD 8D 9H"));
}

/* DR mentions "a 32-card deck, leaving out the 6s as well" (deck=32); ruling: with a stock of 8
 * elder takes at most 5. */
static void test_deck_32_elder_takes_at_most_five(void)
{
    init(&T, test_rules("cotgrave", "deck=32", NULL));
    deal(&T, 1, P32_E, P32_Y, P32_S);
    EXPECT_EQ(T.st.pub.stock_left, 8);
    game_move_t six = discard_move(test_cards("TC 8C 9D 7D 7H 7S"));
    refused(&T, &six, "1 to 5");
    CU_ASSERT_TRUE(legal_text(&T, "discard TC 8C 9D 7D 7H"));
}

/* DR (deck=32): elder sees the rest of his five; younger may take all that is left (8 - k). */
static void test_deck_32_elder_sees_rest_of_five_and_younger_takes_the_rest(void)
{
    init(&T, test_rules("cotgrave", "deck=32", NULL));
    deal(&T, 1, P32_E, P32_Y, P32_S);
    move(&T, "discard 7D 7H"); /* draws QC 9C; sees JD TD KH */
    EXPECT_EQ(ev_count(&T, T.last, PK_EV_PEEK, E, ANY), 3);
    int i = ev_find(&T, T.last, PK_EV_PEEK, E, ANY);
    CU_ASSERT_FATAL(i >= 0);
    EXPECT_EQ(T.log[i].arg, card_parse("JD", 2));
    EXPECT_EQ(T.log[i + 2].arg, card_parse("KH", 2));
    game_move_t seven = discard_move(test_cards("KC JC 7C AD QD 8D 9H"));
    refused(&T, &seven, "1 to 6");
    move(&T, "discard KC JC 7C QD 8D 9H");
    EXPECT_EQ(T.st.pub.stock_left, 0);
}

/* P32B: elder's Blank in the 32-card pack (no King, Queen or Knave among 7 to A). */
static const char *P32B_E = "AH TH 9H 8H 7H AC TC 9C 8C AD TD 9D";
static const char *P32B_Y = "7C 7D 8D AS TS 9S 8S 7S KC QC JC KD";
static const char *P32B_S = "QD JD KH QH JH KS QS JS";

/* CG: "I have a Blank, and I intend to discard such a number of Cards"; with deck=32 elder's share
 * is 5, so the number he names is 1 to 5 (docs/rules.md, engine rulings 2 and 3). */
static void test_deck_32_blank_count_is_at_most_five(void)
{
    init(&T, test_rules("cotgrave", "deck=32", NULL));
    deal(&T, 1, P32B_E, P32B_Y, P32B_S);
    EXPECT_EQ(phase(&T), PK_PH_BLANK_COUNT);
    refused_text(&T, "blank 6", "a Blank's count must be 1 to 5 (elder's share), not 6");
    refused_text(&T, "blank 8", "1 to 5");
    CU_ASSERT_TRUE(legal_text(&T, "blank 5"));
    CU_ASSERT_TRUE(legal_text(&T, "blank 1"));
}

/* ================================================================ notation */

static void expect_parse_error(const char *text, const char *why)
{
    game_move_t m;
    char err[GAME_ERR_LEN] = "";
    CU_ASSERT_EQUAL(picket_move_parse(text, &m, err, sizeof err), -1);
    if (!strstr(err, why))
        fprintf(stderr, "\n    '%s': reason '%s' does not mention '%s'\n", text, err, why);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, why));
}

/* Issue 10: a count is digits and nothing else; "blank 4294967298" is not "blank 2". */
static void test_blank_count_is_read_strictly(void)
{
    static const char *const bad[] = { "blank", "blank +3", "blank 3x", "blank 3 4", "blank 0", "blank 9", "blank -1",
                                       "blank 4294967298", "blank 1e0", "blank 0x3" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        expect_parse_error(bad[i], "blank needs a count from 1 to 8");
    game_move_t m;
    char err[GAME_ERR_LEN];
    CU_ASSERT_EQUAL(picket_move_parse("blank 3  ", &m, err, sizeof err), 0);
    EXPECT_EQ(m.arg, 3);
}

/* Every pack here is 36 cards (6 to A) or 32 (7 to A): a card of rank 2 to 5 is no Picket card,
 * and the hint names the ranks Picket has, not 2 to 5. */
static void test_card_outside_every_picket_pack_is_refused_with_picket_ranks(void)
{
    expect_parse_error("discard 5H", "card '5H' is not in this pack");
    expect_parse_error("play 2C", "card '2C' is not in this pack");
    expect_parse_error("play ZZ", "unknown card 'ZZ' (use rank 6-9 T J Q K A or 10, suit C D H S)");
}

/* ================================================================ the leftover stock */

/* CG: "if he take them not all in, then may the Elder hand see them, provided that he first
 * acquaint the other with the suit, that he intends to play" (leftover=elder-calls-suit). */
static void test_leftover_elder_calls_a_suit_to_see_the_stock(void)
{
    init(&T, test_rules("cotgrave", NULL));
    setup(&T, TIE_E, TIE_Y, TIE_SWAPS);
    EXPECT_EQ(phase(&T), PK_PH_CALL);
    EXPECT_EQ(T.st.pub.to_move, E);
    move(&T, "call H");
    int i = ev_find(&T, T.last, PK_EV_STOCK, E, ANY);
    CU_ASSERT_FATAL(i >= 0);
    EXPECT_EQ(T.log[i].audience, E);
    EXPECT_EQ(T.log[i].cards, test_cards(TIE_LEFTOVER));
    EXPECT_EQ(T.st.pub.called_suit, SUIT_H);
    EXPECT_EQ(phase(&T), PK_PH_PLAY);
}

/* CG: "to which he is obliged if he say so": elder's first lead is the suit he called. */
static void test_leftover_called_suit_binds_elders_first_lead(void)
{
    init(&T, test_rules("cotgrave", NULL));
    setup(&T, TIE_E, TIE_Y, TIE_SWAPS);
    move(&T, "call H");
    EXPECT_EQ(T.st.pub.to_move, E);
    refused_text(&T, "play AC", "AC may not be played");
    move(&T, "play 6H");
}

/* CG (leftover=elder-calls-suit): calling no suit leaves the stock unseen and the lead free. */
static void test_leftover_call_none_leaves_the_stock_unseen(void)
{
    init(&T, test_rules("cotgrave", NULL));
    setup(&T, TIE_E, TIE_Y, TIE_SWAPS);
    move(&T, "call none");
    EXPECT_EQ(ev_count(&T, 0, PK_EV_STOCK, ANY, ANY), 0);
    EXPECT_EQ(T.st.pub.leftover, 0);
    CU_ASSERT_TRUE(legal_text(&T, "play AC"));
}

/* CG: "but if he hath discarded all of that suit he said he would play, or else had none of it at
 * first; he is bound to play that suit his opposite does appoint." */
static void test_leftover_younger_appoints_when_elder_lacks_the_called_suit(void)
{
    init(&T, test_rules("cotgrave", NULL));
    setup(&T, SWEEP_E, SWEEP_Y, SWEEP_SWAPS);
    move(&T, "call H"); /* elder holds no heart */
    EXPECT_EQ(phase(&T), PK_PH_APPOINT);
    EXPECT_EQ(T.st.pub.to_move, Y);
    refused_text(&T, "appoint H", "not allowed"); /* not the suit called */
    move(&T, "appoint D");
    EXPECT_EQ(phase(&T), PK_PH_PLAY);
    EXPECT_EQ(T.st.pub.to_move, E);
    refused_text(&T, "play AC", "AC may not be played");
    move(&T, "play AD");
}

/* Ruling: the appointed suit binds elder's first lead only if he holds it. */
static void test_leftover_appointed_suit_elder_lacks_leaves_lead_free(void)
{
    init(&T, test_rules("cotgrave", NULL));
    setup(&T, SWEEP_E, SWEEP_Y, SWEEP_SWAPS);
    moves(&T, "call H; appoint S");
    CU_ASSERT_TRUE(legal_text(&T, "play AC"));
    CU_ASSERT_TRUE(legal_text(&T, "play 6D"));
}

/* CT says nothing of the cards younger leaves (leftover=hidden): nobody chooses, nobody sees. */
static void test_leftover_hidden_offers_no_choice(void)
{
    init(&T, test_rules("cotton", NULL));
    setup(&T, TIE_E, TIE_Y, TIE_SWAPS);
    EXPECT_EQ(T.st.pub.stock_left, 10);
    EXPECT_EQ(phase(&T), PK_PH_PLAY);
    EXPECT_EQ(T.st.pub.to_move, E);
    EXPECT_EQ(ev_count(&T, 0, PK_EV_TURN, ANY, PK_PH_CALL), 0);
    EXPECT_EQ(ev_count(&T, 0, PK_EV_TURN, ANY, PK_PH_LEFTOVER), 0);
    EXPECT_EQ(ev_count(&T, 0, PK_EV_STOCK, ANY, ANY), 0);
    EXPECT_EQ(ev_count(&T, 0, PK_EV_SHOW, ANY, -1), 0);
}

/* DL: "if hee chooses, hee may turn the remaining cardes up, so that both plaiers may see them"
 * (leftover=younger-may-show). */
static void test_leftover_younger_may_turn_it_up_for_both(void)
{
    init(&T, test_rules("ducoeur-letter", NULL));
    setup(&T, TIE_E, TIE_Y, TIE_SWAPS);
    EXPECT_EQ(phase(&T), PK_PH_LEFTOVER);
    EXPECT_EQ(T.st.pub.to_move, Y);
    move(&T, "leftover show");
    int i = ev_find(&T, T.last, PK_EV_SHOW, Y, -1);
    CU_ASSERT_FATAL(i >= 0);
    EXPECT_EQ(T.log[i].audience, GAME_ALL);
    EXPECT_EQ(T.log[i].cards, test_cards(TIE_LEFTOVER));
    EXPECT_EQ(T.st.pub.leftover_shown, test_cards(TIE_LEFTOVER));
    EXPECT_EQ(phase(&T), PK_PH_PLAY);
}

/* DR: "Younger may choose to flip up the remaining cards in the Stock" -- or not. */
static void test_leftover_younger_may_keep_it_hidden(void)
{
    init(&T, test_rules("ducoeur-report", NULL));
    setup(&T, TIE_E, TIE_Y, TIE_SWAPS);
    EXPECT_EQ(phase(&T), PK_PH_LEFTOVER);
    move(&T, "leftover keep");
    EXPECT_EQ(ev_count(&T, 0, PK_EV_SHOW, ANY, -1), 0);
    EXPECT_EQ(T.st.pub.leftover_shown, 0);
    EXPECT_EQ(T.st.pub.leftover, 0);
    EXPECT_EQ(phase(&T), PK_PH_PLAY);
}

/* ================================================================ Blanks */

/* CG: "I have a Blank, and I intend to discard such a number of Cards" -- elder names the number
 * before anything else is shown or reckoned (blank_order=commit-count). */
static void test_blank_commit_count_elder_first_names_his_count(void)
{
    init(&T, test_rules("cotgrave", NULL));
    deal(&T, 1, BLANK_E, EB_Y, EB_S);
    EXPECT_EQ(phase(&T), PK_PH_BLANK_COUNT);
    EXPECT_EQ(T.st.pub.to_move, E);
    EXPECT_EQ(ev_count(&T, 0, PK_EV_SCORE, ANY, ANY), 0);
    EXPECT_EQ(T.st.pub.blank_shown[E], 0);
    move(&T, "blank 2");
    int i = ev_find(&T, T.last, PK_EV_BLANK, E, ANY);
    CU_ASSERT_FATAL(i >= 0);
    EXPECT_EQ(T.log[i].a, 2);
    EXPECT_EQ(phase(&T), PK_PH_SET_ASIDE);
    EXPECT_EQ(T.st.pub.to_move, Y);
}

/* CG: "that you may see mine, do you discard as many as you intend to do. This done, he that is
 * the eldest shews his Cards, and reckons ten for the Blank" -- younger discards unseeing. */
static void test_blank_commit_count_younger_discards_before_elder_shows(void)
{
    init(&T, test_rules("cotgrave", NULL));
    deal(&T, 1, BLANK_E, EB_Y, EB_S);
    move(&T, "blank 2");
    EXPECT_EQ(T.st.pub.blank_shown[E], 0);
    EXPECT_EQ(ev_count(&T, 0, PK_EV_SHOW, E, PK_CAT_BLANK), 0);
    move(&T, "discard 6D 7D");
    int disc = ev_find(&T, T.last, PK_EV_DISCARD, Y, ANY);
    int show = ev_find(&T, T.last, PK_EV_SHOW, E, PK_CAT_BLANK);
    int pts = ev_find(&T, T.last, PK_EV_SCORE, E, PK_CAT_BLANK);
    CU_ASSERT_FATAL(disc >= 0 && show >= 0 && pts >= 0);
    CU_ASSERT(disc < show && show < pts);
    EXPECT_EQ(T.log[show].cards, test_cards(BLANK_E));
    EXPECT_EQ(T.log[pts].a, 10);
    EXPECT_EQ(phase(&T), PK_PH_ELDER_EXCHANGE);
}

/* CG: "he is always bound to that number which he at first propos'd"; younger then draws what he
 * set aside, from below elder's cards. */
static void test_blank_commit_count_elder_bound_to_his_number(void)
{
    init(&T, test_rules("cotgrave", NULL));
    deal(&T, 1, BLANK_E, EB_Y, EB_S);
    moves(&T, "blank 2; discard 6D 7D");
    refused_text(&T, "discard 6S", "exactly 2");
    refused_text(&T, "discard 6S TD 9H", "exactly 2");
    move(&T, "discard 6S TD");
    /* Stock JS 6C | KC QC | ...: elder takes the first two, younger the next two. */
    EXPECT_EQ(T.st.hand[E], test_cards("AH TH 9H 8H 7H 6H AC AD AS TC JS 6C"));
    EXPECT_EQ(T.st.hand[Y], test_cards("JC 7C 8C 9C 6D 7D 8D 9D 7S 8S 9S TS KC QC")
                                & ~test_cards("6D 7D"));
    EXPECT_EQ(T.st.pub.drawn[Y], 2);
    EXPECT_EQ(T.st.pub.stock_left, 8);
}

/* CG: "Then, may the other likewise take all the rest" -- with elder's Blank too: younger may set
 * aside all 12 - k cards left below elder's k (younger_draw=all). */
static void test_blank_commit_count_younger_draw_all_may_set_aside_the_rest(void)
{
    init(&T, test_rules("cotgrave", NULL));
    deal(&T, 1, BLANK_E, EB_Y, EB_S);
    move(&T, "blank 2");
    refused_text(&T, "discard JC 7C 8C 9C 6D 7D 8D 9D 7S 8S 9S", "1 to 10");
    moves(&T, "discard JC 7C 8C 9C 6D 7D 8D 9D 7S 8S; discard 6S TD");
    EXPECT_EQ(T.st.pub.drawn[Y], 10);
    EXPECT_EQ(T.st.pub.stock_left, 0);
}

/* DL: "the Dealer may draw up to eight" -- also when he sets his discards aside for elder's Blank
 * (commit-count with younger_draw=8). */
static void test_blank_commit_count_younger_draw_8_sets_aside_at_most_eight(void)
{
    init(&T, test_rules("cotgrave", "younger_draw=8", NULL));
    deal(&T, 1, BLANK_E, EB_Y, EB_S);
    move(&T, "blank 2");
    refused_text(&T, "discard JC 7C 8C 9C 6D 7D 8D 9D 7S", "1 to 8");
    CU_ASSERT_TRUE(legal_text(&T, "discard JC 7C 8C 9C 6D 7D 8D 9D"));
}

/* DL: "If either plaier is Blank, hee says so, and shews his hand, and scores Ten for it" -- before
 * the draw (blank_order=show-first); elder then discards as many as he likes. */
static void test_blank_show_first_declared_shown_and_scored_at_the_deal(void)
{
    init(&T, test_rules("ducoeur-letter", NULL));
    deal(&T, 1, BLANK_E, EB_Y, EB_S);
    int b = ev_find(&T, 0, PK_EV_BLANK, E, ANY);
    int s = ev_find(&T, 0, PK_EV_SHOW, E, PK_CAT_BLANK);
    int p = ev_find(&T, 0, PK_EV_SCORE, E, PK_CAT_BLANK);
    CU_ASSERT_FATAL(b >= 0 && s >= 0 && p >= 0);
    CU_ASSERT(b < s && s < p);
    EXPECT_EQ(T.log[p].a, 10);
    EXPECT_EQ(T.st.pub.score[E], 10);
    EXPECT_EQ(phase(&T), PK_PH_ELDER_EXCHANGE);
    CU_ASSERT_TRUE(legal_text(&T, "discard 6S"));
    CU_ASSERT_TRUE(legal_text(&T, "discard 6S TD 9H"));
}

/* Ruling (commit-count): younger's Blank, when elder has none, is declared, shown and reckoned at
 * the deal. CG: "He that has a Blank [...] it is reckon'd with what other Games soever he is able to make." */
static void test_blank_commit_count_younger_blank_reckoned_at_the_deal(void)
{
    init(&T, test_rules("cotgrave", NULL));
    deal(&T, 1, "AH KH QH JH TH AC JC AD KD KS QS 6S", "6C 7C 9C TC 6D 7D 9D TD 6H 8H 7S 8S",
         "JS 9S 8C QC KC 8D JD QD 7H 9H TS AS");
    EXPECT_EQ(ev_count(&T, 0, PK_EV_BLANK, Y, ANY), 1);
    EXPECT_EQ(ev_count(&T, 0, PK_EV_SHOW, Y, PK_CAT_BLANK), 1);
    EXPECT_EQ(scored(&T, Y, PK_CAT_BLANK), 10);
    EXPECT_EQ(phase(&T), PK_PH_ELDER_EXCHANGE);
    EXPECT_EQ(T.st.pub.to_move, E);
}

/* CG: "if it should chance to fall out that the other have a Blank too, the younger's Blank shall
 * barre the former" (both_blank=both-score): younger's Blank is declared when elder names his
 * number; both are reckoned, elder's first, once younger has set his discards aside. */
static void test_both_blank_both_score_elder_first(void)
{
    init(&T, test_rules("cotgrave", NULL));
    deal(&T, 1, BLANK_E, BB_Y, BB_S);
    EXPECT_EQ(phase(&T), PK_PH_BLANK_COUNT);
    move(&T, "blank 1");
    EXPECT_EQ(ev_count(&T, T.last, PK_EV_BLANK, Y, ANY), 1);
    EXPECT_EQ(ev_count(&T, T.last, PK_EV_SHOW, Y, PK_CAT_BLANK), 1);
    EXPECT_EQ(ev_count(&T, 0, PK_EV_SCORE, ANY, ANY), 0);
    move(&T, "discard 6C");
    int pe = ev_find(&T, T.last, PK_EV_SCORE, E, PK_CAT_BLANK);
    int py = ev_find(&T, T.last, PK_EV_SCORE, Y, PK_CAT_BLANK);
    CU_ASSERT_FATAL(pe >= 0 && py >= 0);
    CU_ASSERT(pe < py);
    EXPECT_EQ(T.st.pub.score[E], 10);
    EXPECT_EQ(T.st.pub.score[Y], 10);
}

/* CG: "the younger's Blank shall barre the former, and hinder his Picy and Repicy": elder makes
 * 37 in declarations (see BLANK_E) besides his Blank, but younger has reckoned his. */
static void test_both_blank_both_score_bars_repique(void)
{
    init(&T, test_rules("cotgrave", NULL));
    deal(&T, 1, BLANK_E, BB_Y, BB_S);
    moves(&T, "blank 1; discard 6C; discard 6S; call none");
    EXPECT_EQ(scored(&T, E, PK_CAT_RUFF), 5);
    EXPECT_EQ(scored(&T, E, PK_CAT_SEQ), 15);
    EXPECT_EQ(scored(&T, E, PK_CAT_SETS), 17);
    EXPECT_EQ(ev_count(&T, 0, PK_EV_SCORE, ANY, PK_CAT_REPIQUE), 0);
    EXPECT_EQ(T.st.pub.score[E], 10 + 37);
    EXPECT_EQ(T.st.pub.score[Y], 10);
}

/* DL: "yet if both plaiers are Blank, it is a tie, and neither scores anything" (both_blank=void). */
static void test_both_blank_void_neither_scores(void)
{
    init(&T, test_rules("ducoeur-letter", NULL));
    deal(&T, 1, BLANK_E, BB_Y, BB_S);
    EXPECT_EQ(ev_count(&T, 0, PK_EV_SHOW, E, PK_CAT_BLANK), 1);
    EXPECT_EQ(ev_count(&T, 0, PK_EV_SHOW, Y, PK_CAT_BLANK), 1);
    EXPECT_EQ(ev_count(&T, 0, PK_EV_SCORE, ANY, ANY), 0);
    EXPECT_EQ(phase(&T), PK_PH_ELDER_EXCHANGE);
}

/* DR: "if both players are blank, neither scores"; ruling: a voided Blank reckons nothing, so it
 * bars nothing: elder's 37 in declarations (5 + 15 + 17) make a Repique, 37 + 60 = 97. */
static void test_both_blank_void_does_not_bar_repique(void)
{
    init(&T, test_rules("ducoeur-letter", NULL));
    deal(&T, 1, BLANK_E, BB_Y, BB_S);
    moves(&T, "discard 6S; discard 6C; leftover keep");
    int sets = ev_find(&T, 0, PK_EV_SCORE, E, PK_CAT_SETS);
    int rep = ev_find(&T, 0, PK_EV_SCORE, E, PK_CAT_REPIQUE);
    CU_ASSERT_FATAL(sets >= 0 && rep >= 0);
    CU_ASSERT(sets < rep);
    EXPECT_EQ(T.log[rep].a, 60);
    EXPECT_EQ(T.st.pub.score[E], 97);
    EXPECT_EQ(T.st.pub.score[Y], 0);
}

/* CG: "He that has a Blank, his Blank shall hinder the other's Picy, and Repicy; although he have
 * nothing to shew but his Blank": elder's 32 in declarations (R32) make no Repique. */
static void test_blank_bars_repique(void)
{
    init(&T, test_rules("cotgrave", NULL));
    setup(&T, R32_E, YB_Y, YB_R32_SWAPS);
    EXPECT_EQ(scored(&T, Y, PK_CAT_BLANK), 10);
    move(&T, "call none");
    EXPECT_EQ(T.st.pub.hand_pts[E], 32); /* ruff 5 + sequences 15 + 3 + ternaries 9 */
    EXPECT_EQ(ev_count(&T, 0, PK_EV_SCORE, E, PK_CAT_REPIQUE), 0);
    EXPECT_EQ(T.st.pub.score[E], 32);
}

/* CT: "He that hath a Blank, his Blank shall hinder the other Picy and Repicy": elder's 29 (P29)
 * and the Ace he leads make 30, but younger's Blank was reckoned. */
static void test_blank_bars_pique(void)
{
    init(&T, test_rules("cotgrave", NULL));
    setup(&T, P29_E, YB_Y, YB_P29_SWAPS);
    move(&T, "call none");
    EXPECT_EQ(T.st.pub.hand_pts[E], 29);
    move(&T, "play AH");
    EXPECT_EQ(T.st.pub.hand_pts[E], 30);
    EXPECT_EQ(ev_count(&T, 0, PK_EV_SCORE, E, PK_CAT_PIQUE), 0);
    EXPECT_EQ(T.st.pub.score[E], 30);
    EXPECT_EQ(T.st.pub.score[Y], 10);
}

/* ================================================================ the declarations */

/* CG: "the eldest he speaks first, and if the younger makes not more, his Ruff is good, and sets
 * up one for every Ten [...] for thirty five as for forty": SWEEP's 54 against 52 scores 5. */
static void test_ruff_elder_speaks_first_and_winner_scores(void)
{
    init(&T, test_rules("cotgrave", NULL));
    setup(&T, SWEEP_E, SWEEP_Y, SWEEP_SWAPS);
    move(&T, "call none");
    int d = ev_find(&T, 0, PK_EV_DECLARE, E, PK_CAT_RUFF);
    int a = ev_find(&T, 0, PK_EV_ANSWER, Y, PK_CAT_RUFF);
    int s = ev_find(&T, 0, PK_EV_SCORE, E, PK_CAT_RUFF);
    CU_ASSERT_FATAL(d >= 0 && a >= 0 && s >= 0);
    CU_ASSERT(d < a && a < s);
    EXPECT_EQ(T.log[d].a, 54);
    EXPECT_EQ(T.log[a].a, PK_ANS_GOOD);
    EXPECT_EQ(T.log[s].a, 5);
    EXPECT_EQ(T.st.pub.decl_shown[E] & test_cards("AC KC QC TC 7C 6C"), test_cards("AC KC QC TC 7C 6C"));
}

/* CG: "if the Gamesters have equal Cards for Ruff, Sequences, &c they can neither of them reckon
 * any thing, eldership benefits not in this case" (ties=void): 40 against 40. */
static void test_ties_void_equal_ruff_scores_nothing(void)
{
    init(&T, test_rules("cotgrave", NULL));
    setup(&T, TIE_E, TIE_Y, TIE_SWAPS);
    move(&T, "call none");
    int a = ev_find(&T, 0, PK_EV_ANSWER, Y, PK_CAT_RUFF);
    CU_ASSERT_FATAL(a >= 0);
    EXPECT_EQ(T.log[a].a, PK_ANS_EQUAL);
    EXPECT_EQ(T.log[a].b, 40);
    EXPECT_EQ(ev_count(&T, 0, PK_EV_SCORE, ANY, PK_CAT_RUFF), 0);
}

/* CT: "the eldest speaks first, and if the youngest makes up no more the Ruff is good"
 * (ties=elder): elder's equal 40 scores 4. */
static void test_ties_elder_equal_ruff_elder_scores(void)
{
    init(&T, test_rules("cotton", NULL));
    setup(&T, TIE_E, TIE_Y, TIE_SWAPS);
    EXPECT_EQ(scored(&T, E, PK_CAT_RUFF), 4);
    EXPECT_EQ(scored(&T, Y, PK_CAT_RUFF), 0);
}

/* DL: "if both Sequences have the same top, it is a tie, and neither plaier scores" (ties=void):
 * two tierces to the Ace. */
static void test_ties_void_equal_sequence_scores_nothing(void)
{
    init(&T, test_rules("ducoeur-letter", NULL));
    setup(&T, TIE_E, TIE_Y, TIE_SWAPS);
    move(&T, "leftover keep");
    int d = ev_find(&T, 0, PK_EV_DECLARE, E, PK_CAT_SEQ);
    int a = ev_find(&T, 0, PK_EV_ANSWER, Y, PK_CAT_SEQ);
    CU_ASSERT_FATAL(d >= 0 && a >= 0);
    EXPECT_EQ(T.log[d].a, 3);
    EXPECT_EQ(T.log[d].b, RANK_A);
    EXPECT_EQ(T.log[a].a, PK_ANS_EQUAL);
    EXPECT_EQ(ev_count(&T, 0, PK_EV_SCORE, ANY, PK_CAT_SEQ), 0);
}

/* CT drops Cotgrave's sentence on equality (ties=elder): elder's equal tierce major scores 3. */
static void test_ties_elder_equal_sequence_elder_scores(void)
{
    init(&T, test_rules("cotton", NULL));
    setup(&T, TIE_E, TIE_Y, TIE_SWAPS);
    EXPECT_EQ(scored(&T, E, PK_CAT_SEQ), 3);
    EXPECT_EQ(scored(&T, Y, PK_CAT_SEQ), 0);
}

/* DL: "a Sequence is a run of cardes within a sute" (sequences=suited): younger's 9-A across
 * suits is no sequence, elder's 8-9-10 of hearts wins 3. */
static void test_sequences_suited_runs_across_suits_do_not_count(void)
{
    init(&T, test_rules("cotgrave", NULL));
    setup(&T, SEQ_E, SEQ_Y, SEQ_SWAPS);
    move(&T, "call none");
    int a = ev_find(&T, 0, PK_EV_ANSWER, Y, PK_CAT_SEQ);
    CU_ASSERT_FATAL(a >= 0);
    EXPECT_EQ(T.log[a].a, PK_ANS_GOOD);
    EXPECT_EQ(scored(&T, E, PK_CAT_SEQ), 3);
    EXPECT_EQ(scored(&T, Y, PK_CAT_SEQ), 0);
    EXPECT_EQ(T.st.pub.decl_shown[E] & test_cards("8H 9H TH"), test_cards("8H 9H TH"));
}

/* DR: "only sequences within a particular suit count. I can find no evidence of this in either
 * Cotton or Cotgrave" (sequences=unsuited): younger's sixieme 9-A (16) plus J-Q-K (3) = 19 beats
 * elder's 8-9-10. */
static void test_sequences_unsuited_runs_across_suits_count(void)
{
    init(&T, test_rules("cotgrave", "sequences=unsuited", NULL));
    setup(&T, SEQ_E, SEQ_Y, SEQ_SWAPS);
    move(&T, "call none");
    int d = ev_find(&T, 0, PK_EV_DECLARE, E, PK_CAT_SEQ);
    int a = ev_find(&T, 0, PK_EV_ANSWER, Y, PK_CAT_SEQ);
    CU_ASSERT_FATAL(d >= 0 && a >= 0);
    EXPECT_EQ(T.log[d].a, 3);
    EXPECT_EQ(T.log[d].b, RANK_T);
    EXPECT_EQ(T.log[a].a, PK_ANS_NOT_GOOD);
    EXPECT_EQ(T.log[a].b, 6);
    EXPECT_EQ(T.log[a].c, RANK_A);
    EXPECT_EQ(scored(&T, Y, PK_CAT_SEQ), 19);
    EXPECT_EQ(scored(&T, E, PK_CAT_SEQ), 0);
}

/* Ruling (sequences=unsuited, rules-matrix.md): "with 6 7 8 8 9 9 10 10 J Q he claims the septième
 * 6–Q (17) and adds the tierce 8–9–10 (3) for 20, although two quints would make 30."
 * Elder 6C 7C 8C 8D 9C 9D TC TD JC QC AC AD; younger QD QH QS KC KD KH KS AH AS 6D 6H 6S claims
 * only Q-K-A. Leftover after the exchange: 7D 7H 7S 8H 8S 9H 9S TH TS JD JH JS. */
static void test_sequences_unsuited_claim_is_the_longest_run_plus_best_split(void)
{
    init(&T, test_rules("ducoeur-report", NULL));
    setup(&T, "6C 7C 8C 8D 9C 9D TC TD JC QC AC AD", "QD QH QS KC KD KH KS AH AS 6D 6H 6S", "6C 7D",
          "6S 7S");
    move(&T, "leftover keep");
    int d = ev_find(&T, 0, PK_EV_DECLARE, E, PK_CAT_SEQ);
    CU_ASSERT_FATAL(d >= 0);
    EXPECT_EQ(T.log[d].a, 7);
    EXPECT_EQ(T.log[d].b, RANK_Q);
    EXPECT_EQ(scored(&T, E, PK_CAT_SEQ), 20);
    int s = ev_find(&T, 0, PK_EV_SHOW, E, PK_CAT_SEQ);
    CU_ASSERT_FATAL(s >= 0);
    EXPECT_EQ(cardset_count(T.log[s].cards), 10);
}

/* ================================================================ Pique and Repique */

/* CG: "If any of the two Gamesters can reckon, either in Blanks, Ruff, Sequences, Aces, &c. up to
 * thirty in his own hand, without playing a Card, and before the other can reckon anything;
 * instead of counting thirty, he shall reckon ninety": R32 makes 5, 18, 9 = 32, then 60 more. */
static void test_repique_from_declarations(void)
{
    init(&T, test_rules("cotgrave", NULL));
    setup(&T, R32_E, R32_Y, R32_SWAPS);
    move(&T, "call none");
    EXPECT_EQ(scored(&T, E, PK_CAT_RUFF), 5);
    EXPECT_EQ(scored(&T, E, PK_CAT_SEQ), 18);
    EXPECT_EQ(scored(&T, E, PK_CAT_SETS), 9);
    int sets = ev_find(&T, 0, PK_EV_SCORE, E, PK_CAT_SETS);
    int rep = ev_find(&T, 0, PK_EV_SCORE, E, PK_CAT_REPIQUE);
    CU_ASSERT_FATAL(sets >= 0 && rep >= 0);
    CU_ASSERT(sets < rep);
    EXPECT_EQ(T.log[rep].a, 60);
    EXPECT_EQ(T.st.pub.score[E], 92);
    EXPECT_EQ(T.st.pub.score[Y], 0);
}

/* CG: "before the other can reckon anything": younger's Ruff (54, 5 points) comes first, so
 * elder's 32 in Sequences and sets (RB) is no Repique. */
static void test_repique_barred_once_the_opponent_has_reckoned(void)
{
    init(&T, test_rules("cotgrave", NULL));
    setup(&T, RB_E, RB_Y, RB_SWAPS);
    move(&T, "call none");
    EXPECT_EQ(scored(&T, Y, PK_CAT_RUFF), 5);
    EXPECT_EQ(scored(&T, E, PK_CAT_SEQ), 15);
    EXPECT_EQ(scored(&T, E, PK_CAT_SETS), 17);
    EXPECT_EQ(ev_count(&T, 0, PK_EV_SCORE, ANY, PK_CAT_REPIQUE), 0);
    EXPECT_EQ(T.st.pub.score[E], 32);
}

/* CG: "by playing his first Card up to said number of thirty, before the other has played a Card
 * [...] instead of thirty, he reckons sixty, and this is called a Picy" (pique=first-card):
 * 29 in declarations (P29), the Ace led makes 30, and 30 more. */
static void test_pique_first_card_on_elders_opening_lead(void)
{
    init(&T, test_rules("cotgrave", NULL));
    setup(&T, P29_E, P29_Y, P29_SWAPS);
    move(&T, "call none");
    EXPECT_EQ(T.st.pub.score[E], 29);
    EXPECT_EQ(T.st.pub.score[Y], 0);
    move(&T, "play AH");
    int pl = ev_find(&T, T.last, PK_EV_SCORE, E, PK_CAT_PLAY);
    int pq = ev_find(&T, T.last, PK_EV_SCORE, E, PK_CAT_PIQUE);
    CU_ASSERT_FATAL(pl >= 0 && pq >= 0);
    CU_ASSERT(pl < pq);
    EXPECT_EQ(T.log[pq].a, 30);
    EXPECT_EQ(T.st.pub.score[E], 60);
}

/* CG (pique=first-card): only the first card can make the Picy. Elder leads 6S (younger wins it
 * with 8S, no point), younger leads 9C, elder wins with the Ace: 30, but no Pique. */
static void test_pique_first_card_not_on_a_later_card(void)
{
    init(&T, test_rules("cotgrave", NULL));
    setup(&T, P29_E, P29_Y, P29_SWAPS);
    move(&T, "call none");
    play(&T, "6S 8S 9C AC");
    EXPECT_EQ(T.st.pub.hand_pts[E], 30);
    EXPECT_EQ(T.st.pub.hand_pts[Y], 0);
    EXPECT_EQ(ev_count(&T, 0, PK_EV_SCORE, ANY, PK_CAT_PIQUE), 0);
}

/* DL: "If one plaier gains thirty points in a hand ere the other has scored any, hee has won a
 * Piquet, and scores thirty more" (pique=any-time): the same play as above piques at the Ace. */
static void test_pique_any_time_later_in_play(void)
{
    init(&T, test_rules("cotgrave", "pique=any-time", NULL));
    setup(&T, P29_E, P29_Y, P29_SWAPS);
    move(&T, "call none");
    play(&T, "6S 8S 9C");
    EXPECT_EQ(ev_count(&T, 0, PK_EV_SCORE, ANY, PK_CAT_PIQUE), 0);
    play(&T, "AC");
    int pq = ev_find(&T, T.last, PK_EV_SCORE, E, PK_CAT_PIQUE);
    CU_ASSERT_FATAL(pq >= 0);
    EXPECT_EQ(T.log[pq].a, 30);
    EXPECT_EQ(T.st.pub.score[E], 60);
}

/* DR: "If one player in a hand manages to get thirty points before the other player has scored
 * anything" -- every point counts, the Capet too. SWEEP under DL: 11 in declarations, 13 high
 * cards in elder's tricks (winner-takes), last trick with the Ten 2: 26; Capet 40 makes 66, and
 * the Pique 30 more: 96. */
static void test_pique_any_time_through_the_capot(void)
{
    init(&T, test_rules("ducoeur-letter", NULL));
    setup(&T, SWEEP_E, SWEEP_Y, SWEEP_SWAPS);
    move(&T, "leftover keep");
    play(&T, SWEEP_TEN_LAST);
    EXPECT_EQ(scored(&T, E, PK_CAT_PLAY), 13);
    EXPECT_EQ(scored(&T, E, PK_CAT_LAST), 2);
    int cap = ev_find(&T, 0, PK_EV_SCORE, E, PK_CAT_CAPOT);
    int pq = ev_find(&T, 0, PK_EV_SCORE, E, PK_CAT_PIQUE);
    CU_ASSERT_FATAL(cap >= 0 && pq >= 0);
    CU_ASSERT(cap < pq);
    EXPECT_EQ(T.log[pq].a, 30);
    EXPECT_EQ(T.st.pub.score[E], 96);
}

/* DL (pique=any-time), through the 10 for cards: CARDS10 under DL: 12 in declarations, 11 in play,
 * 2 for the last trick (won with the Ten) = 25; the cards make 35 and the Pique 30 more: 65.
 * Younger won a trick (7C over 6C) but reckoned nothing. */
static void test_pique_any_time_through_the_cards(void)
{
    init(&T, test_rules("ducoeur-letter", NULL));
    setup(&T, C10_E, C10_Y, C10_SWAPS);
    move(&T, "leftover keep");
    play(&T, C10_ELEVEN_ONE);
    EXPECT_EQ(T.st.pub.tricks[Y], 1);
    EXPECT_EQ(scored(&T, E, PK_CAT_PLAY), 11);
    EXPECT_EQ(scored(&T, E, PK_CAT_LAST), 2);
    int cards = ev_find(&T, 0, PK_EV_SCORE, E, PK_CAT_CARDS);
    int pq = ev_find(&T, 0, PK_EV_SCORE, E, PK_CAT_PIQUE);
    CU_ASSERT_FATAL(cards >= 0 && pq >= 0);
    CU_ASSERT(cards < pq);
    EXPECT_EQ(T.st.pub.score[E], 65);
    EXPECT_EQ(T.st.pub.score[Y], 0);
}

/* CG (pique=first-card): the same hand under Cotgrave reaches 30 only with the cards:
 * 12 + 7 honours led + 1 last trick + 10 = 30, and that is no Picy. */
static void test_pique_first_card_not_through_the_cards(void)
{
    init(&T, test_rules("cotgrave", NULL));
    setup(&T, C10_E, C10_Y, C10_SWAPS);
    move(&T, "call none");
    play(&T, C10_ELEVEN_ONE);
    EXPECT_EQ(T.st.pub.hand_pts[E], 30);
    EXPECT_EQ(T.st.pub.hand_pts[Y], 0);
    EXPECT_EQ(ev_count(&T, 0, PK_EV_SCORE, ANY, PK_CAT_PIQUE), 0);
}

/* ================================================================ points in play */

/* CG: "If the Elder hand plays an Ace, King, Queen, or Ten; for every such Card, he is to reckon one"
 * (play_points=lead-or-win): reckoned as he leads it, before younger plays. */
static void test_lead_or_win_leader_scores_an_honour_he_leads(void)
{
    init(&T, test_rules("cotgrave", NULL));
    setup(&T, TIE_E, TIE_Y, TIE_SWAPS);
    move(&T, "call none");
    EXPECT_EQ(T.st.pub.hand_pts[E], 0); /* every declaration tied or empty */
    play(&T, "AC");
    EXPECT_EQ(ev_count(&T, T.last, PK_EV_SCORE, E, PK_CAT_PLAY), 1);
    EXPECT_EQ(T.st.pub.hand_pts[E], 1);
    EXPECT_EQ(T.st.pub.to_move, Y);
    play(&T, "7C");
    EXPECT_EQ(T.st.pub.hand_pts[E], 1);
    EXPECT_EQ(T.st.pub.hand_pts[Y], 0);
}

/* CG: "if the other be able to play upon it a higher Card of the same suit, he wins the Trick, and
 * reckons one for his Card" -- and a Nine led, or a trick won with an Eight, counts nothing. */
static void test_lead_or_win_follower_scores_when_he_wins_with_an_honour(void)
{
    init(&T, test_rules("cotgrave", NULL));
    setup(&T, TIE_E, TIE_Y, TIE_SWAPS);
    move(&T, "call none");
    play(&T, "AC 7C");   /* elder 1 for the Ace led */
    play(&T, "9C");      /* a Nine led: nothing */
    EXPECT_EQ(T.st.pub.hand_pts[E], 1);
    play(&T, "JC");      /* younger wins with the Knave: 1 */
    EXPECT_EQ(ev_count(&T, T.last, PK_EV_SCORE, Y, PK_CAT_PLAY), 1);
    EXPECT_EQ(T.st.pub.hand_pts[Y], 1);
    play(&T, "7H 8H");   /* elder wins with an Eight: nothing */
    EXPECT_EQ(T.st.pub.hand_pts[E], 1);
    EXPECT_EQ(T.st.pub.hand_pts[Y], 1);
}

/* DR: "If a trick involves one or two cards that are ten or higher, the winner of the trick takes
 * one point for each such card." (play_points=winner-takes) */
static void test_winner_takes_one_point_per_high_card_in_the_trick(void)
{
    init(&T, test_rules("ducoeur-letter", NULL));
    setup(&T, TIE_E, TIE_Y, TIE_SWAPS);
    move(&T, "leftover keep");
    play(&T, "AC");
    EXPECT_EQ(ev_count(&T, T.last, PK_EV_SCORE, ANY, ANY), 0); /* nothing for the lead itself */
    play(&T, "7C");
    EXPECT_EQ(T.st.pub.hand_pts[E], 1);
    play(&T, "KC JC"); /* both high: 2 */
    EXPECT_EQ(T.st.pub.hand_pts[E], 3);
    play(&T, "6D KD"); /* younger wins with the King: 1 */
    EXPECT_EQ(T.st.pub.hand_pts[Y], 1);
    play(&T, "7H 8H"); /* elder wins, no high card: 0 */
    EXPECT_EQ(T.st.pub.hand_pts[E], 3);
    EXPECT_EQ(T.st.pub.hand_pts[Y], 1);
}

/* ================================================================ the last trick */

/* CG: "Whosoever wins the last Trick, is to reckon two for it, if he win it with a Ten"
 * (last_trick=plus-one): the Ten led counts its 1, the last trick 1 more. */
static void test_last_trick_plus_one_won_with_a_ten(void)
{
    init(&T, test_rules("cotgrave", NULL));
    setup(&T, SWEEP_E, SWEEP_Y, SWEEP_SWAPS);
    move(&T, "call none");
    play(&T, SWEEP_TEN_LAST);
    int i = ev_find(&T, 0, PK_EV_SCORE, E, PK_CAT_LAST);
    CU_ASSERT_FATAL(i >= 0);
    EXPECT_EQ(T.log[i].a, 1);
    /* The Ten led scored its own point first, in the same trick. */
    int ten = ev_find(&T, 0, PK_EV_PLAY, E, card_parse("TC", 2));
    int pt = ev_find(&T, ten, PK_EV_SCORE, E, PK_CAT_PLAY);
    CU_ASSERT_FATAL(ten >= 0 && pt >= 0);
    CU_ASSERT(pt < i);
    /* 11 declarations + 7 honours led + 1 last + 40 capot. */
    EXPECT_EQ(scored(&T, E, PK_CAT_PLAY), 7);
    EXPECT_EQ(T.st.pub.score[E], 59);
}

/* CG: "but if it be with a Nine, Eight, Seven, or Six, he then reckons but one" (plus-one). */
static void test_last_trick_plus_one_won_with_a_nine(void)
{
    init(&T, test_rules("cotgrave", NULL));
    setup(&T, SWEEP_E, SWEEP_Y, SWEEP_SWAPS);
    move(&T, "call none");
    play(&T, SWEEP_NINE_LAST);
    EXPECT_EQ(scored(&T, E, PK_CAT_LAST), 1);
    EXPECT_EQ(scored(&T, E, PK_CAT_PLAY), 7);
    EXPECT_EQ(T.st.pub.score[E], 59);
}

/* DL: "Hee who wins the final trick takes one point, or two points if hee win it with a Ten."
 * (last_trick=one-or-two) */
static void test_last_trick_one_or_two_won_with_a_ten(void)
{
    init(&T, test_rules("ducoeur-letter", NULL));
    setup(&T, SWEEP_E, SWEEP_Y, SWEEP_SWAPS);
    move(&T, "leftover keep");
    play(&T, SWEEP_TEN_LAST);
    EXPECT_EQ(scored(&T, E, PK_CAT_LAST), 2);
}

/* DR: "Winner of the final trick gets one point, or two points if he wins with a ten." -- with a
 * Nine, one. */
static void test_last_trick_one_or_two_won_with_a_nine(void)
{
    init(&T, test_rules("ducoeur-letter", NULL));
    setup(&T, SWEEP_E, SWEEP_Y, SWEEP_SWAPS);
    move(&T, "leftover keep");
    play(&T, SWEEP_NINE_LAST);
    EXPECT_EQ(scored(&T, E, PK_CAT_LAST), 1);
    EXPECT_EQ(scored(&T, E, PK_CAT_PLAY), 13);
    EXPECT_EQ(T.st.pub.score[E], 11 + 13 + 1 + 40 + 30);
}

/* ================================================================ the cards */

/* CG: "then they tell their Cards, and he that has the most, is to reckon Ten for them":
 * CARDS10, 11 tricks to 1. */
static void test_cards_more_tricks_score_ten(void)
{
    init(&T, test_rules("cotgrave", NULL));
    setup(&T, C10_E, C10_Y, C10_SWAPS);
    move(&T, "call none");
    play(&T, C10_ELEVEN_ONE);
    EXPECT_EQ(T.st.pub.tricks[E], 11);
    EXPECT_EQ(scored(&T, E, PK_CAT_CARDS), 10);
    EXPECT_EQ(ev_count(&T, 0, PK_EV_SCORE, ANY, PK_CAT_CAPOT), 0);
    EXPECT_EQ(ev_count(&T, 0, PK_EV_HAND_END, ANY, ANY), 1);
    EXPECT_EQ(picket_to_move(&T.st), GAME_CHANCE);
}

/* CG: "He that wins all the Cards, instead of reckoning Ten [...] reckons forty, and this is called
 * a Capet." */
static void test_capot_scores_forty_instead_of_ten(void)
{
    init(&T, test_rules("cotgrave", NULL));
    setup(&T, SWEEP_E, SWEEP_Y, SWEEP_SWAPS);
    move(&T, "call none");
    play(&T, SWEEP_TEN_LAST);
    EXPECT_EQ(T.st.pub.tricks[E], 12);
    EXPECT_EQ(scored(&T, E, PK_CAT_CAPOT), 40);
    EXPECT_EQ(ev_count(&T, 0, PK_EV_SCORE, ANY, PK_CAT_CARDS), 0);
}

/* DR: "Cotton is not clear about what happens if tricks tie; we decided that neither player gets
 * any points." CARDS10 played six and six. */
static void test_cards_six_and_six_score_nothing(void)
{
    init(&T, test_rules("cotgrave", NULL));
    setup(&T, C10_E, C10_Y, C10_SWAPS);
    move(&T, "call none");
    play(&T, C10_SIX_SIX);
    EXPECT_EQ(T.st.pub.tricks[E], 6);
    EXPECT_EQ(T.st.pub.tricks[Y], 6);
    EXPECT_EQ(ev_count(&T, 0, PK_EV_SCORE, ANY, PK_CAT_CARDS), 0);
    EXPECT_EQ(ev_count(&T, 0, PK_EV_SCORE, ANY, PK_CAT_CAPOT), 0);
    /* Elder 12 + AD KD QD led; younger TH QH TS QS led + last trick won with QS (plus-one). */
    EXPECT_EQ(T.st.pub.hand_pts[E], 15);
    EXPECT_EQ(T.st.pub.hand_pts[Y], 5);
    EXPECT_EQ(ev_count(&T, 0, PK_EV_HAND_END, ANY, ANY), 1);
}

/* ================================================================ the end of the set */

/* DL: "a Set is plaied to 100 points, and is won at the moment a plaier passes the Set, not
 * finishing the Hand." Elder at 95 with SWEEP's Ruff of 5 wins at the Ruff; the Sequences are
 * never reckoned. */
static void test_set_ends_at_the_ruff_before_sequences(void)
{
    init(&T, test_rules("cotgrave", NULL));
    T.st.pub.score[E] = 95;
    setup(&T, SWEEP_E, SWEEP_Y, SWEEP_SWAPS);
    move(&T, "call none");
    int r = ev_find(&T, 0, PK_EV_SCORE, E, PK_CAT_RUFF);
    int end = ev_find(&T, 0, PK_EV_SET_END, ANY, ANY);
    CU_ASSERT_FATAL(r >= 0 && end >= 0);
    CU_ASSERT(r < end);
    EXPECT_EQ(T.log[end].seat, E);
    EXPECT_EQ(T.st.pub.winner, E);
    EXPECT_EQ(T.st.pub.score[E], 100);
    EXPECT_EQ(ev_count(&T, 0, PK_EV_DECLARE, ANY, PK_CAT_SEQ), 0);
    EXPECT_EQ(picket_to_move(&T.st), GAME_OVER);
}

/* CG: "but if there be no Blanks, then comes the Ruff; next your Sequences": elder at 97 would
 * reach 100 with his Sequence (SEQ, suited), but younger at 96 wins first with his Ruff of 4. */
static void test_reckoning_order_ruff_before_sequences_decides_the_set(void)
{
    init(&T, test_rules("cotgrave", NULL));
    T.st.pub.score[E] = 97;
    T.st.pub.score[Y] = 96;
    setup(&T, SEQ_E, SEQ_Y, SEQ_SWAPS);
    move(&T, "call none");
    EXPECT_EQ(T.st.pub.winner, Y);
    EXPECT_EQ(T.st.pub.score[Y], 100);
    EXPECT_EQ(T.st.pub.score[E], 97);
    EXPECT_EQ(ev_count(&T, 0, PK_EV_SCORE, E, PK_CAT_SEQ), 0);
    EXPECT_EQ(picket_to_move(&T.st), GAME_OVER);
}

/* CG: "if it fall out that any of the two have a Blank, he wins the Set, because the Blanks are
 * alwayes first reckoned": younger at 90 with a Blank wins at the deal, though elder at 99 holds
 * a Ruff of 51. */
static void test_reckoning_order_blank_first_decides_the_set(void)
{
    init(&T, test_rules("cotgrave", NULL));
    T.st.pub.score[E] = 99;
    T.st.pub.score[Y] = 90;
    deal(&T, 1, "AH KH QH JH TH AC JC AD KD KS QS 6S", "6C 7C 9C TC 6D 7D 9D TD 6H 8H 7S 8S",
         "JS 9S 8C QC KC 8D JD QD 7H 9H TS AS");
    EXPECT_EQ(T.st.pub.winner, Y);
    EXPECT_EQ(T.st.pub.score[Y], 100);
    EXPECT_EQ(ev_count(&T, 0, PK_EV_SET_END, Y, ANY), 1);
    EXPECT_EQ(picket_to_move(&T.st), GAME_OVER);
}

/* CG: "the Blanks are alwayes first reckoned"; ruling: both Blanks are reckoned elder first, so with
 * both at 95 elder wins with his, and younger's is never reckoned. */
static void test_both_blank_elders_reckoned_first_decides_the_set(void)
{
    init(&T, test_rules("cotgrave", NULL));
    T.st.pub.score[E] = 95;
    T.st.pub.score[Y] = 95;
    deal(&T, 1, BLANK_E, BB_Y, BB_S);
    moves(&T, "blank 1; discard 6C");
    EXPECT_EQ(T.st.pub.winner, E);
    EXPECT_EQ(T.st.pub.score[E], 105);
    EXPECT_EQ(T.st.pub.score[Y], 95);
    EXPECT_EQ(ev_count(&T, 0, PK_EV_SCORE, Y, ANY), 0);
    EXPECT_EQ(picket_to_move(&T.st), GAME_OVER);
}

/* DR: "wins are immediate -- you do not finish out the winning hand": elder at 87 has 98 after
 * SWEEP's declarations, 99 with the Ace led, 100 with the King led in the second trick; the set
 * ends there and no further move is taken. */
static void test_set_ends_mid_play(void)
{
    init(&T, test_rules("cotgrave", NULL));
    T.st.pub.score[E] = 87;
    setup(&T, SWEEP_E, SWEEP_Y, SWEEP_SWAPS);
    move(&T, "call none");
    EXPECT_EQ(T.st.pub.score[E], 98);
    play(&T, "AC 6H");
    EXPECT_EQ(T.st.pub.score[E], 99);
    EXPECT_EQ(picket_to_move(&T.st), E);
    play(&T, "KC");
    EXPECT_EQ(T.st.pub.score[E], 100);
    EXPECT_EQ(T.st.pub.winner, E);
    EXPECT_EQ(ev_count(&T, T.last, PK_EV_SET_END, E, ANY), 1);
    EXPECT_EQ(picket_to_move(&T.st), GAME_OVER);
    refused_text(&T, "play 7H", "set is over");
}

/* ================================================================ illegal moves */

/* CG: "the Elder begins, and Younger followes in suit"; DL: "the follower must follow sute if hee
 * can": younger holds JC 7C and may not answer the Ace of clubs with a diamond. */
static void test_revoke_is_refused(void)
{
    init(&T, test_rules("cotgrave", NULL));
    setup(&T, TIE_E, TIE_Y, TIE_SWAPS);
    move(&T, "call none");
    play(&T, "AC");
    refused_text(&T, "play AD", "must be followed");
    CU_ASSERT_TRUE(legal_text(&T, "play 7C"));
}

/* DL: "if he can not, he may play as hee will, but loses the trick": younger holds no club. */
static void test_void_in_the_suit_led_may_play_any_card(void)
{
    init(&T, test_rules("cotgrave", NULL));
    setup(&T, SWEEP_E, SWEEP_Y, SWEEP_SWAPS);
    move(&T, "call none");
    play(&T, "AC");
    CU_ASSERT_TRUE(legal_text(&T, "play KS"));
    play(&T, "6H");
    EXPECT_EQ(T.st.pub.tricks[E], 1);
}

/* CG: "Whoever is found changing, or taking back again any of his cards, he shall lose his Game" --
 * a player plays only his own cards: the Ace of diamonds is younger's. */
static void test_playing_a_card_not_in_hand_is_refused(void)
{
    init(&T, test_rules("cotgrave", NULL));
    setup(&T, TIE_E, TIE_Y, TIE_SWAPS);
    move(&T, "call none");
    refused_text(&T, "play AD", "AD is not in the hand");
}

/* CG: "After the discarding, then you are to consider the Ruff" [...] "Now they begin to play the
 * Cards" and "No man is permitted to discard twice in one Dealing": each step in its turn -- no
 * card played, suit called or Blank count named during elder's exchange; no discard in the play. */
static void test_move_out_of_phase_is_refused(void)
{
    init(&T, test_rules("cotgrave", NULL));
    deal(&T, 1, P1_E, P1_Y, P1_S);
    refused_text(&T, "play AC", "elder-exchange move is due");
    refused_text(&T, "call H", "elder-exchange move is due");
    refused_text(&T, "blank 2", "elder-exchange move is due");
    init(&T, test_rules("cotgrave", NULL));
    setup(&T, TIE_E, TIE_Y, TIE_SWAPS);
    move(&T, "call none");
    refused_text(&T, "discard AC", "play move is due");
}

/* ================================================================ registry */

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("picket", NULL, NULL);
#define ADD(fn) CU_add_test(s, #fn, fn)
    ADD(test_cut_lowest_card_deals);
    ADD(test_deal_twelve_each_and_twelve_in_the_stock);
    ADD(test_elder_is_the_non_dealer);
    ADD(test_deal_alternates_between_hands);
    ADD(test_elder_discarding_nine_is_refused);
    ADD(test_elder_discarding_none_is_refused);
    ADD(test_younger_discarding_none_is_refused);
    ADD(test_discarding_a_card_not_in_hand_is_refused);
    ADD(test_elder_draws_from_the_top_and_sees_the_rest_of_his_eight);
    ADD(test_younger_draw_all_may_take_every_card_left);
    ADD(test_younger_draw_8_stops_at_eight);
    ADD(test_younger_draw_8_limited_to_what_is_left);
    ADD(test_deck_32_elder_takes_at_most_five);
    ADD(test_deck_32_elder_sees_rest_of_five_and_younger_takes_the_rest);
    ADD(test_deck_32_blank_count_is_at_most_five);
    ADD(test_blank_count_is_read_strictly);
    ADD(test_card_outside_every_picket_pack_is_refused_with_picket_ranks);
    ADD(test_leftover_elder_calls_a_suit_to_see_the_stock);
    ADD(test_leftover_called_suit_binds_elders_first_lead);
    ADD(test_leftover_call_none_leaves_the_stock_unseen);
    ADD(test_leftover_younger_appoints_when_elder_lacks_the_called_suit);
    ADD(test_leftover_appointed_suit_elder_lacks_leaves_lead_free);
    ADD(test_leftover_hidden_offers_no_choice);
    ADD(test_leftover_younger_may_turn_it_up_for_both);
    ADD(test_leftover_younger_may_keep_it_hidden);
    ADD(test_blank_commit_count_elder_first_names_his_count);
    ADD(test_blank_commit_count_younger_discards_before_elder_shows);
    ADD(test_blank_commit_count_elder_bound_to_his_number);
    ADD(test_blank_commit_count_younger_draw_all_may_set_aside_the_rest);
    ADD(test_blank_commit_count_younger_draw_8_sets_aside_at_most_eight);
    ADD(test_blank_show_first_declared_shown_and_scored_at_the_deal);
    ADD(test_blank_commit_count_younger_blank_reckoned_at_the_deal);
    ADD(test_both_blank_both_score_elder_first);
    ADD(test_both_blank_both_score_bars_repique);
    ADD(test_both_blank_void_neither_scores);
    ADD(test_both_blank_void_does_not_bar_repique);
    ADD(test_blank_bars_repique);
    ADD(test_blank_bars_pique);
    ADD(test_ruff_elder_speaks_first_and_winner_scores);
    ADD(test_ties_void_equal_ruff_scores_nothing);
    ADD(test_ties_elder_equal_ruff_elder_scores);
    ADD(test_ties_void_equal_sequence_scores_nothing);
    ADD(test_ties_elder_equal_sequence_elder_scores);
    ADD(test_sequences_suited_runs_across_suits_do_not_count);
    ADD(test_sequences_unsuited_runs_across_suits_count);
    ADD(test_sequences_unsuited_claim_is_the_longest_run_plus_best_split);
    ADD(test_repique_from_declarations);
    ADD(test_repique_barred_once_the_opponent_has_reckoned);
    ADD(test_pique_first_card_on_elders_opening_lead);
    ADD(test_pique_first_card_not_on_a_later_card);
    ADD(test_pique_any_time_later_in_play);
    ADD(test_pique_any_time_through_the_capot);
    ADD(test_pique_any_time_through_the_cards);
    ADD(test_pique_first_card_not_through_the_cards);
    ADD(test_lead_or_win_leader_scores_an_honour_he_leads);
    ADD(test_lead_or_win_follower_scores_when_he_wins_with_an_honour);
    ADD(test_winner_takes_one_point_per_high_card_in_the_trick);
    ADD(test_last_trick_plus_one_won_with_a_ten);
    ADD(test_last_trick_plus_one_won_with_a_nine);
    ADD(test_last_trick_one_or_two_won_with_a_ten);
    ADD(test_last_trick_one_or_two_won_with_a_nine);
    ADD(test_cards_more_tricks_score_ten);
    ADD(test_capot_scores_forty_instead_of_ten);
    ADD(test_cards_six_and_six_score_nothing);
    ADD(test_set_ends_at_the_ruff_before_sequences);
    ADD(test_reckoning_order_ruff_before_sequences_decides_the_set);
    ADD(test_reckoning_order_blank_first_decides_the_set);
    ADD(test_both_blank_elders_reckoned_first_decides_the_set);
    ADD(test_set_ends_mid_play);
    ADD(test_revoke_is_refused);
    ADD(test_void_in_the_suit_led_may_play_any_card);
    ADD(test_playing_a_card_not_in_hand_is_refused);
    ADD(test_move_out_of_phase_is_refused);
#undef ADD
    return test_run_all();
}
