/* Cavendish's Rubicon Piquet (the `cavendish` preset) as a specification: the worked examples
 * W1-W8 of ../shared/design/rules-rubicon.md, each dealt as written and played by its script of
 * moves (every move must be legal), then the scores, the dialogue and what was shown checked.
 * Also: the higher cut's choice, the partie of six deals and its settlement, and the views
 * built from events against the views built from the state over whole parties.
 *
 * Seats: seat 1 deals, so seat 0 (E) is elder and seat 1 (Y) younger. Where the example gives
 * the hands after the exchange, each is dealt with one card changed: elder discards the card
 * named first and draws the stock's top; younger discards his and draws the next.
 */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "picket.h"
#include "picket_partie.h"
#include "picket_rules.h"
#include "picket_sampler.h"
#include "picket_score.h"
#include "test_util.h"

enum { E = 0, Y = 1, LOG_CAP = 2048 };

typedef struct table {
    picket_state_t st;
    game_event_t log[LOG_CAP];
    int n;
} table_t;

static table_t T;

static void log_events(table_t *t, const game_event_t *ev, int n)
{
    CU_ASSERT_FATAL(n <= GAME_MAX_EVENTS);
    for (int i = 0; i < n && t->n < LOG_CAP; i++) {
        t->log[t->n++] = ev[i];
        if (getenv("PICKET_TEST_VERBOSE")) {
            char buf[256];
            picket_event_format(&ev[i], buf, sizeof buf);
            fprintf(stderr, "      %s%s\n", buf, ev[i].audience == GAME_ALL ? "" : " (private)");
        }
    }
}

static void play(table_t *t, const char *text)
{
    game_move_t m;
    char err[GAME_ERR_LEN];
    game_event_t ev[GAME_MAX_EVENTS];
    CU_ASSERT_EQUAL_FATAL(picket_move_parse(text, &m, err, sizeof err), 0);
    if (!picket_is_legal(&t->st, &m, err, sizeof err)) {
        fprintf(stderr, "\n  scripted move '%s' refused: %s\n", text, err);
        CU_FAIL_FATAL("a scripted move is illegal");
    }
    log_events(t, ev, picket_apply(&t->st, &m, ev, GAME_MAX_EVENTS));
}

/* Several moves, separated by commas. */
static void plays(table_t *t, const char *script)
{
    char buf[1024], *save = NULL;
    snprintf(buf, sizeof buf, "%s", script);
    for (char *m = strtok_r(buf, ",", &save); m; m = strtok_r(NULL, ",", &save)) {
        while (*m == ' ')
            m++;
        play(t, m);
    }
}

static int parse_order(const char *text, uint8_t *out)
{
    int n = 0;
    for (const char *p = text; *p;) {
        while (*p == ' ')
            p++;
        const char *q = p;
        while (*q && *q != ' ')
            q++;
        if (q > p)
            out[n++] = (uint8_t)card_parse(p, (size_t)(q - p));
        p = q;
    }
    return n;
}

/* Deal dealt hands and the stock (top first) under the preset and extra flags. The worked
 * examples declare in full (declarations=full) unless the flags say otherwise. */
static void deal(table_t *t, const char *flags, const char *elder, const char *younger, const char *stock)
{
    picket_rules_t r;
    char err[160], f[5][48];
    int nf = 0;
    if (flags && *flags) {
        char buf[200], *save = NULL;
        snprintf(buf, sizeof buf, "%s", flags);
        for (char *w = strtok_r(buf, " ", &save); w && nf < 4; w = strtok_r(NULL, " ", &save))
            snprintf(f[nf++], sizeof f[0], "%s", w);
    }
    if (!flags || !strstr(flags, "declarations="))
        snprintf(f[nf++], sizeof f[0], "declarations=full");
    CU_ASSERT_EQUAL_FATAL(picket_rules_build(&r, "cavendish", (const char(*)[48])f, nf, err, sizeof err), 0);
    memset(t, 0, sizeof *t);
    picket_init(&t->st, &r, 1);
    cardset_t hands[2] = { test_cards(elder), test_cards(younger) };
    uint8_t order[PK_STOCK];
    CU_ASSERT_EQUAL_FATAL(parse_order(stock, order), 8);
    game_event_t ev[GAME_MAX_EVENTS];
    int n = picket_deal_given(&t->st, 1, hands, order, ev, GAME_MAX_EVENTS);
    CU_ASSERT_FATAL(n > 0);
    log_events(t, ev, n);
}

/* A position given after the exchange: elder swaps e_out for the stock's top, younger y_out for
 * the next. */
static void deal_after(table_t *t, const char *flags, const char *elder, const char *younger, const char *e_in,
                       const char *y_in, const char *stock)
{
    cardset_t eh = test_cards(elder), yh = test_cards(younger);
    uint8_t order[PK_STOCK];
    CU_ASSERT_EQUAL_FATAL(parse_order(stock, order), 8);
    char ed[200], yd[200], c[3];
    /* The dealt hands hold the cards elder and younger will discard instead of their draws. */
    cardset_t e_dealt = (eh & ~cardset_of(order[0])) | test_cards(e_in);
    cardset_t y_dealt = (yh & ~cardset_of(order[1])) | test_cards(y_in);
    cardset_format(e_dealt, ed, sizeof ed);
    cardset_format(y_dealt, yd, sizeof yd);
    deal(t, flags, ed, yd, stock);
    char mv[32];
    snprintf(mv, sizeof mv, "discard %s", card_format(cardset_first(test_cards(e_in)), c));
    play(t, mv);
    snprintf(mv, sizeof mv, "discard %s", card_format(cardset_first(test_cards(y_in)), c));
    play(t, mv);
    CU_ASSERT_EQUAL(t->st.hand[E], eh);
    CU_ASSERT_EQUAL(t->st.hand[Y], yh);
}

/* The last event of a type (and category, for SCORE/DECLARE/ANSWER/SHOW; -99 any), or NULL. */
static const game_event_t *last_event(const table_t *t, int type, int arg)
{
    for (int i = t->n - 1; i >= 0; i--)
        if (t->log[i].type == type && (arg == -99 || t->log[i].arg == arg))
            return &t->log[i];
    return NULL;
}

static int scored(const table_t *t, int seat, int cat)
{
    int pts = 0;
    for (int i = 0; i < t->n; i++)
        if (t->log[i].type == PK_EV_SCORE && t->log[i].seat == seat && t->log[i].arg == cat)
            pts += t->log[i].a;
    return pts;
}

#define SCORES(e, y)                                                                                    \
    do {                                                                                                \
        CU_ASSERT_EQUAL(T.st.pub.score[E], e);                                                          \
        CU_ASSERT_EQUAL(T.st.pub.score[Y], y);                                                          \
        if (T.st.pub.score[E] != (e) || T.st.pub.score[Y] != (y))                                       \
            fprintf(stderr, "\n    line %d: scores %d %d, expected %d %d\n", __LINE__, T.st.pub.score[E], \
                    T.st.pub.score[Y], e, y);                                                           \
    } while (0)

/* ---------------------------------------------------------------- W1 */

/* CAV D, Example: the whole hand, as Cavendish prints it. E 28, Y 23. */
static void test_w1_cavendish_example(void)
{
    deal(&T, "", "AS KS JS AH QH JH 8H JC 8C 7C 9D 8D", "TS 7S TH 9H 7H KC QC TC AD QD JD TD",
         "9S 8S KH 9C KD QS AC 7D");
    plays(&T, "discard KS 8C 7C 9D 8D, discard 7S 9H 7H");
    CU_ASSERT_EQUAL(T.st.hand[E], test_cards("AS JS 9S 8S AH KH QH JH 8H JC 9C KD"));
    CU_ASSERT_EQUAL(T.st.hand[Y], test_cards("QS TS TH AC KC QC TC AD QD JD TD 7D"));
    /* Point: "five"; younger, as long, asks what they make: "forty-nine" (48 against him): good. */
    const game_event_t *d = last_event(&T, PK_EV_DECLARE, PK_CAT_RUFF), *a = last_event(&T, PK_EV_ANSWER, PK_CAT_RUFF);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    CU_ASSERT_EQUAL(d->a, 5);
    CU_ASSERT_EQUAL(d->b, 49);
    CU_ASSERT_EQUAL(a->a, PK_ANS_GOOD);
    /* Sequences: quart major, good; sets: three knaves, not good, and younger says no more. */
    d = last_event(&T, PK_EV_DECLARE, PK_CAT_SEQ);
    CU_ASSERT_EQUAL(d->a, 4);
    CU_ASSERT_EQUAL(d->b, RANK_A);
    d = last_event(&T, PK_EV_DECLARE, PK_CAT_SETS);
    CU_ASSERT_EQUAL(d->a, 3);
    CU_ASSERT_EQUAL(d->b, RANK_J);
    a = last_event(&T, PK_EV_ANSWER, PK_CAT_SETS);
    CU_ASSERT_EQUAL(a->a, PK_ANS_NOT_GOOD);
    CU_ASSERT_EQUAL(a->b, 0);
    SCORES(9, 0);
    /* Younger's fourteen tens and three queens wait for elder's lead. */
    CU_ASSERT_EQUAL(T.st.pub.decl_shown[Y], 0);
    play(&T, "play AH");
    SCORES(10, 17);
    CU_ASSERT_EQUAL(scored(&T, Y, PK_CAT_SETS), 17);
    CU_ASSERT_EQUAL(T.st.pub.decl_cards[2][Y], test_cards("TS TH TC TD QS QC QD"));
    plays(&T, "play TH, play KH, play 7D, play QH, play TD, play JH, play JD, play 8H, play QD");
    SCORES(14, 17);
    plays(&T, "play KD, play AD");
    SCORES(15, 18);
    plays(&T, "play AC, play 9C, play KC, play JC, play QC, play 8S, play TC, play 9S");
    SCORES(15, 22);
    plays(&T, "play QS, play AS, play JS, play TS");
    SCORES(28, 23);
    CU_ASSERT_EQUAL(scored(&T, E, PK_CAT_CARDS), 10);
    CU_ASSERT_EQUAL(T.st.pub.phase, PK_PH_DEAL); /* the partie goes on */
}

/* Elder's view before his first lead in W1: younger's sets are "not good" and not shown yet,
 * so every world must give him better than three knaves (as well as a point of five under 49,
 * a sequence under the quart major, and a court card dealt). The sampler's count against a count
 * by hand over younger's possible holdings, and every drawn world beats the knaves. */
static void test_w1_worlds_before_the_lead(void)
{
    deal(&T, "", "AS KS JS AH QH JH 8H JC 8C 7C 9D 8D", "TS 7S TH 9H 7H KC QC TC AD QD JD TD",
         "9S 8S KH 9C KD QS AC 7D");
    plays(&T, "discard KS 8C 7C 9D 8D, discard 7S 9H 7H");
    picket_view_t v;
    picket_view_from_state(&T.st, E, &v);
    cardset_t unknown = T.st.pack & ~v.hand & ~v.discards;
    CU_ASSERT_EQUAL_FATAL(cardset_count(unknown), 15);
    uint8_t u[15];
    cardset_to_bytes(unknown, u);
    uint64_t worlds = 0, holdings = 0;
    for (uint32_t out = 0; out < (1u << 15); out++) {
        if (__builtin_popcount(out) != 3)
            continue;
        cardset_t x = 0; /* younger's discards: the three cards not in his holding */
        for (int i = 0; i < 15; i++)
            if (out >> i & 1)
                x |= cardset_of(u[i]);
        cardset_t P = unknown & ~x;
        picket_ruff_t pt;
        picket_point_by_count(P, &pt);
        picket_sequences_t q;
        picket_sequences(P, 0, &q);
        picket_sets_t t;
        picket_sets(P, &t);
        if (pt.count != 5 || pt.value >= 49 || picket_claim_cmp(q.best.len, q.best.top, 4, RANK_A) >= 0 ||
            picket_claim_cmp(t.best.count, t.best.rank, 3, RANK_J) <= 0)
            continue;
        /* Which three of P he drew: his dealt hand (the rest and his discards) holds a court. */
        uint8_t pc[12];
        cardset_to_bytes(P, pc);
        uint64_t splits = 0;
        for (uint32_t r = 0; r < (1u << 12); r++) {
            if (__builtin_popcount(r) != 3)
                continue;
            cardset_t drawn = 0;
            for (int i = 0; i < 12; i++)
                if (r >> i & 1)
                    drawn |= cardset_of(pc[i]);
            splits += !picket_is_blank((P & ~drawn) | x);
        }
        worlds += splits;
        holdings += splits > 0;
    }
    char err[160];
    const game_t *g = &PICKET_GAME;
    void *smp = g->sampler_new(&v, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(smp);
    uint64_t h = 0, n = g->sampler_count(smp, &h);
    printf("\n    %llu worlds, %llu holdings (by hand %llu, %llu) ", (unsigned long long)n, (unsigned long long)h,
           (unsigned long long)worlds, (unsigned long long)holdings);
    CU_ASSERT(worlds > 0);
    CU_ASSERT_EQUAL(n, worlds);
    CU_ASSERT_EQUAL(h, holdings);
    rng_t rng;
    rng_seed(&rng, 9);
    int bad = 0;
    for (int i = 0; i < 2000; i++) {
        picket_state_t w;
        CU_ASSERT_EQUAL_FATAL(g->sampler_draw(smp, &rng, &w), 0);
        picket_sets_t t;
        picket_sets(w.hand[Y], &t);
        bad += picket_claim_cmp(t.best.count, t.best.rank, 3, RANK_J) <= 0;
    }
    CU_ASSERT_EQUAL(bad, 0);
    g->sampler_free(smp);
}

/* The same hand with play_points=lead-or-win: the 8H lead scores nothing, E 27. */
static void test_w1_with_tens_only_makes_27(void)
{
    deal(&T, "play_points=lead-or-win", "AS KS JS AH QH JH 8H JC 8C 7C 9D 8D",
         "TS 7S TH 9H 7H KC QC TC AD QD JD TD", "9S 8S KH 9C KD QS AC 7D");
    plays(&T, "discard KS 8C 7C 9D 8D, discard 7S 9H 7H, play AH, play TH, play KH, play 7D, play QH, play TD,"
              "play JH, play JD, play 8H, play QD, play KD, play AD, play AC, play 9C, play KC, play JC, play QC,"
              "play 8S, play TC, play 9S, play QS, play AS, play JS, play TS");
    CU_ASSERT_EQUAL(T.st.pub.score[E], 27);
}

/* ---------------------------------------------------------------- W2 */

static void w2(const char *flags)
{
    deal_after(&T, flags, "AH KH QH JH TH AS 8S 7S AC 8C 7C 7D", "KS QS JS TS 9S KC QC JC TC AD KD QD", "9H", "8H",
               "7D QD 7H 9C JD TD 9D 8D");
    SCORES(23, 0);
    play(&T, "play AH");
    CU_ASSERT_EQUAL(T.st.pub.phase, PK_PH_LEFTOVER); /* six cards left: younger chooses after the lead */
    CU_ASSERT_EQUAL(T.st.pub.to_move, Y);
    plays(&T, "leftover keep, play 9S, play KH, play TS, play QH, play TC, play JH, play QD, play TH, play KD,"
              "play AS, play JS, play AC, play JC");
}

/* Pique reached in play: the seventh lead makes 30, and 30 more. */
static void test_w2_pique_in_play(void)
{
    w2("");
    SCORES(60, 0);
    CU_ASSERT_EQUAL(scored(&T, E, PK_CAT_PIQUE), 30);
    plays(&T, "play 8S, play QS, play KS, play 7S, play KC, play 7C, play QC, play 8C, play AD, play 7D");
    SCORES(71, 6);
}

/* pique=first-card: no pique, E 41. */
static void test_w2_first_card_pique_makes_41(void)
{
    w2("pique=first-card");
    plays(&T, "play 8S, play QS, play KS, play 7S, play KC, play 7C, play QC, play 8C, play AD, play 7D");
    SCORES(41, 6);
}

/* ---------------------------------------------------------------- W3 */

static void w3(const char *flags)
{
    deal_after(&T, flags, "AH KH QH JH TH 9H 8H 7H KC QC JC 7S", "AS KS QS JS TS 9S TC 9C TD 9D 8D 7D", "8S", "7C",
               "7S 7D AC 8C AD KD QD JD");
    SCORES(29, 0);
    play(&T, "play AH");
    plays(&T, "leftover keep, play KS, play KH, play QS, play QH, play JS, play JH, play TS, play TH, play TD,"
              "play 9H, play 9D, play 8H, play 8D, play 7H, play 7D, play KC, play 9C, play QC, play TC, play JC,"
              "play 9S, play 7S, play AS");
}

/* Younger's three tens, reckoned before elder's lead, save the pique: E 51, Y 5. */
static void test_w3_younger_tens_save_a_pique(void)
{
    w3("");
    SCORES(51, 5);
    CU_ASSERT_EQUAL(scored(&T, E, PK_CAT_PIQUE), 0);
    CU_ASSERT_EQUAL(scored(&T, Y, PK_CAT_SETS), 3);
    CU_ASSERT_EQUAL(scored(&T, E, PK_CAT_SEQ), 21); /* huitieme 18 and the tierce 3 */
}

static void test_w3_first_card_and_any_time_agree(void)
{
    w3("pique=first-card");
    SCORES(51, 5);
    w3("pique=any-time");
    SCORES(51, 5);
}

/* ---------------------------------------------------------------- W4 */

static void w4(const char *flags)
{
    deal_after(&T, flags, "AS KS QS JS 8S AH KH JH TH 8H 7H AD", "TS 9S 7S QH 9H AC KC QC KD QD JD TD", "7D", "7C",
               "AD TD JC TC 9C 8C 9D 8D");
    SCORES(13, 0);
    /* Point six against four: younger, shorter, does not ask the value. */
    CU_ASSERT_EQUAL(last_event(&T, PK_EV_DECLARE, PK_CAT_RUFF)->b, 0);
    plays(&T, "play AS, leftover keep, play 7S, play KS, play 9S, play QS, play TS, play JS, play AC, play 8S, play KC,"
              "play AH, play 9H, play KH, play QH, play JH, play QC, play TH, play KD, play 8H, play QD, play 7H,"
              "play JD, play AD, play TD");
}

/* A capot is no pique (CAV L69): E 66, Y 0. */
static void test_w4_capot_is_no_pique(void)
{
    w4("");
    SCORES(66, 0);
    CU_ASSERT_EQUAL(scored(&T, E, PK_CAT_CAPOT), 40);
    CU_ASSERT_EQUAL(scored(&T, E, PK_CAT_PIQUE), 0);
}

static void test_w4_any_time_counts_the_capot(void)
{
    w4("pique=any-time");
    SCORES(96, 0);
}

/* ---------------------------------------------------------------- W5 */

/* Repique with carte blanche: elder names five, younger sets aside, elder shows; Blank 10, point
 * 6 and a quint good make 31 before younger reckons: 91; younger's two quatorzes after the lead. */
static void test_w5_repique_with_carte_blanche(void)
{
    deal(&T, "", "AH TH 9H 8H 7H AS 9S 8S AC 9C TD 7D", "KS QS JS TS KC QC JC TC AD KD QD JD",
         "JH 7S 7C 9D 8D KH QH 8C");
    CU_ASSERT_EQUAL(T.st.pub.phase, PK_PH_BLANK_COUNT);
    plays(&T, "blank 5, discard TS TC JD");
    CU_ASSERT_EQUAL(T.st.pub.blank_shown[E], test_cards("AH TH 9H 8H 7H AS 9S 8S AC 9C TD 7D"));
    SCORES(10, 0);
    play(&T, "discard 9S 8S 9C TD 7D");
    CU_ASSERT_EQUAL(T.st.hand[E], test_cards("AH JH TH 9H 8H 7H AS 7S AC 7C 9D 8D"));
    CU_ASSERT_EQUAL(T.st.hand[Y], test_cards("KS QS JS KC QC JC 8C AD KD QD KH QH"));
    SCORES(91, 0);
    CU_ASSERT_EQUAL(scored(&T, E, PK_CAT_REPIQUE), 60);
    play(&T, "play AH");
    SCORES(92, 28);
}

/* ---------------------------------------------------------------- W6 */

/* Younger's repique: his point and two quints reckon before elder's sets, though scored after
 * elder's lead. */
static void test_w6_younger_repiques_after_the_lead(void)
{
    deal_after(&T, "", "AS KS QS AC KC QC JC AD KD QD JD QH", "AH KH JH TH 9H 8H 7H JS TS 9S 8S 7S", "7D", "7C",
               "JD 7S TC 9C 8C TD 9D 8D");
    SCORES(20, 0);
    plays(&T, "play AC, leftover keep");
    SCORES(21, 97);
    CU_ASSERT_EQUAL(scored(&T, Y, PK_CAT_REPIQUE), 60);
    CU_ASSERT_EQUAL(scored(&T, Y, PK_CAT_SEQ), 30);
}

/* ---------------------------------------------------------------- W7 */

/* Equal points and equal quart majors void everything below; younger's three kings score. The
 * equal holdings are shown: elder's at once, younger's after the lead. */
static void test_w7_equalities_void_everything_below(void)
{
    deal_after(&T, "", "AS KS QS JS 8S 9H 8H 7H AC 9C 9D 7D", "AD KD QD JD 8D KC QC JC AH KH TS 9S", "7S", "TD",
               "7D 9S QH JH TH TC 8C 7C");
    CU_ASSERT_EQUAL(last_event(&T, PK_EV_ANSWER, PK_CAT_RUFF)->a, PK_ANS_EQUAL);
    CU_ASSERT_EQUAL(last_event(&T, PK_EV_ANSWER, PK_CAT_SEQ)->a, PK_ANS_EQUAL);
    SCORES(0, 0);
    CU_ASSERT_EQUAL(T.st.pub.decl_shown[E], test_cards("AS KS QS JS 8S"));
    CU_ASSERT_EQUAL(T.st.pub.decl_shown[Y], 0);
    plays(&T, "play AS, leftover keep");
    SCORES(1, 3);
    CU_ASSERT_EQUAL(T.st.pub.decl_shown[Y], test_cards("AD KD QD JD 8D KC KH"));
}

/* ---------------------------------------------------------------- W8 */

static void test_w8_settlement(void)
{
    static const struct {
        int w, l, pts, rubicon;
    } cases[] = {
        { 131, 113, 118, 0 }, { 125, 81, 306, 1 }, { 92, 91, 283, 1 }, { 106, 92, 298, 1 },
        { 105, 101, 104, 0 }, { 97, 89, 286, 1 },  { 130, 100, 130, 0 }, { 167, 97, 364, 1 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int rub = -1;
        CU_ASSERT_EQUAL(picket_partie_points(cases[i].w, cases[i].l, 100, &rub), cases[i].pts);
        CU_ASSERT_EQUAL(rub, cases[i].rubicon);
    }
}

/* ---------------------------------------------------------------- the partie */

/* Random parties from the start: the higher cut chooses; six deals, or eight when tied; the
 * set-end carries the settlement; every seat's view built from its events equals its view built
 * from the state, after every move. */
static void test_parties_end_as_the_laws_say(void)
{
    int parties = 0, eight = 0, rubicons = 0, dealt_first[2] = { 0, 0 };
    for (uint64_t seed = 1; seed <= 60; seed++) {
        picket_rules_t r = test_rules("cavendish", NULL);
        picket_state_t st;
        picket_view_t v[2], ref;
        picket_init(&st, &r, seed);
        for (int s = 0; s < 2; s++)
            picket_view_init(&v[s], &r, s);
        rng_t rng;
        rng_seed(&rng, seed * 7);
        game_event_t ev[GAME_MAX_EVENTS];
        int guard = 0, chose = -1;
        while (picket_to_move(&st) != GAME_OVER && guard++ < 5000) {
            int n;
            if (picket_to_move(&st) == GAME_CHANCE) {
                n = picket_apply_chance(&st, NULL, ev, GAME_MAX_EVENTS);
            } else {
                game_move_t m;
                CU_ASSERT_EQUAL_FATAL(picket_random_move(&st, &rng, &m), 0);
                if (m.kind == PK_MV_CHOOSE)
                    chose = m.arg;
                n = picket_apply(&st, &m, ev, GAME_MAX_EVENTS);
            }
            CU_ASSERT_FATAL(n > 0 && n <= GAME_MAX_EVENTS);
            for (int i = 0; i < n; i++)
                for (int s = 0; s < 2; s++)
                    if (game_event_visible(&ev[i], s))
                        CU_ASSERT_EQUAL_FATAL(picket_view_apply(&v[s], &ev[i]), 0);
            for (int s = 0; s < 2; s++) {
                picket_view_from_state(&st, s, &ref);
                const char *diff = picket_view_diff(&ref, &v[s]);
                if (diff)
                    fprintf(stderr, "\n    seed %llu seat %d: views differ in %s\n", (unsigned long long)seed, s, diff);
                CU_ASSERT_PTR_NULL_FATAL(diff);
            }
        }
        CU_ASSERT_EQUAL_FATAL(picket_to_move(&st), GAME_OVER);
        const picket_pub_t *p = &st.pub;
        CU_ASSERT(chose == 0 || chose == 1);
        CU_ASSERT(p->hand_no == 6 || p->hand_no == 8);
        if (p->hand_no == 8)
            eight++;
        else
            CU_ASSERT_NOT_EQUAL(p->score[0], p->score[1]);
        if (p->winner >= 0) {
            int w = p->winner, rub;
            CU_ASSERT(p->score[w] > p->score[1 - w]);
            CU_ASSERT_EQUAL(p->partie_pts, picket_partie_points(p->score[w], p->score[1 - w], 100, &rub));
            CU_ASSERT_EQUAL(p->rubicon, rub);
            rubicons += rub;
        } else {
            CU_ASSERT_EQUAL(p->score[0], p->score[1]);
            CU_ASSERT_EQUAL(p->hand_no, 8);
        }
        dealt_first[chose == 1]++;
        parties++;
    }
    printf("\n    %d parties (%d went to eight deals, %d rubicons; the higher cut dealt first in %d) ", parties, eight,
           rubicons, dealt_first[1]);
    CU_ASSERT_EQUAL(parties, 60);
}

/* The race to a target on the same 32-card rules (game=race): the set ends the instant a score
 * reaches it, with no partie points. */
static void test_the_race_ends_at_the_target(void)
{
    picket_rules_t r = test_rules("cavendish", "game=race", "target=100", NULL);
    picket_state_t st;
    picket_init(&st, &r, 5);
    rng_t rng;
    rng_seed(&rng, 5);
    for (int guard = 0; picket_to_move(&st) != GAME_OVER && guard < 20000; guard++) {
        if (picket_to_move(&st) == GAME_CHANCE) {
            picket_apply_chance(&st, NULL, NULL, 0);
            continue;
        }
        game_move_t m;
        CU_ASSERT_EQUAL_FATAL(picket_random_move(&st, &rng, &m), 0);
        picket_apply(&st, &m, NULL, 0);
    }
    CU_ASSERT_EQUAL_FATAL(picket_to_move(&st), GAME_OVER);
    CU_ASSERT(st.pub.score[st.pub.winner] >= 100);
    CU_ASSERT_EQUAL(st.pub.partie_pts, 0);
}

/* Notation: the new events and moves read back as written. */
static void test_new_notation_round_trips(void)
{
    static const char *const lines[] = {
        "cut AS 7D chooser 0", "choose 0 deal", "choose 1 elder", "declare 0 ruff 5-making-49", "declare 0 ruff 5",
        "answer 1 ruff not-good", "answer 1 sets not-good", "answer 1 ruff equal 5-making-49",
        "set-end winner 1 points 364 rubicon", "set-end winner 0 points 118 crossed", "set-end drawn",
        "turn 0 choose", "turn 0 declare", "turn 1 answer",
    };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        game_event_t ev;
        char err[160], back[200];
        int rc = picket_event_parse(lines[i], 0, &ev, err, sizeof err);
        if (rc != 0)
            fprintf(stderr, "\n    '%s': %s\n", lines[i], err);
        CU_ASSERT_EQUAL_FATAL(rc, 0);
        picket_event_format(&ev, back, sizeof back);
        CU_ASSERT_STRING_EQUAL(back, lines[i]);
    }
    game_move_t m;
    char err[160], back[64];
    CU_ASSERT_EQUAL(picket_move_parse("choose deal", &m, err, sizeof err), 0);
    CU_ASSERT_EQUAL(m.kind, PK_MV_CHOOSE);
    CU_ASSERT_EQUAL(m.arg, 1);
    picket_move_format(&m, back, sizeof back);
    CU_ASSERT_STRING_EQUAL(back, "choose deal");
    CU_ASSERT_EQUAL(picket_move_parse("choose nothing", &m, err, sizeof err), -1);
    static const char *const moves[] = { "declare ruff QH KH AH", "declare sets none", "declare sequences 9C TC JC",
                                         "answer good", "answer full" };
    for (size_t i = 0; i < sizeof moves / sizeof moves[0]; i++) {
        CU_ASSERT_EQUAL_FATAL(picket_move_parse(moves[i], &m, err, sizeof err), 0);
        picket_move_format(&m, back, sizeof back);
        CU_ASSERT_STRING_EQUAL(back, moves[i]);
    }
    CU_ASSERT_EQUAL(picket_move_parse("declare point AH", &m, err, sizeof err), -1);
    CU_ASSERT_EQUAL(picket_move_parse("declare ruff", &m, err, sizeof err), -1);
    CU_ASSERT_EQUAL(picket_move_parse("answer maybe", &m, err, sizeof err), -1);
}

/* The higher cut chooses before anything is dealt; choosing to deal makes him younger. */
static void test_the_higher_cut_chooses(void)
{
    picket_rules_t r = test_rules("cavendish", NULL);
    picket_state_t st;
    picket_init(&st, &r, 11);
    game_event_t ev[GAME_MAX_EVENTS];
    int n = picket_apply_chance(&st, NULL, ev, GAME_MAX_EVENTS);
    CU_ASSERT_EQUAL_FATAL(n, 2);
    CU_ASSERT_EQUAL(ev[0].type, PK_EV_CUT);
    CU_ASSERT_EQUAL(ev[0].arg, 1);
    int chooser = ev[0].seat;
    CU_ASSERT(card_rank(chooser == 0 ? ev[0].a : ev[0].b) > card_rank(chooser == 0 ? ev[0].b : ev[0].a));
    CU_ASSERT_EQUAL(picket_to_move(&st), chooser);
    CU_ASSERT_EQUAL(st.pub.phase, PK_PH_CHOOSE);
    game_move_t m = { PK_MV_CHOOSE, 1, 0, 0 };
    char err[160];
    CU_ASSERT_TRUE(picket_is_legal(&st, &m, err, sizeof err));
    picket_apply(&st, &m, ev, GAME_MAX_EVENTS);
    CU_ASSERT_EQUAL(picket_to_move(&st), GAME_CHANCE);
    picket_apply_chance(&st, NULL, ev, GAME_MAX_EVENTS);
    CU_ASSERT_EQUAL(st.pub.dealer, chooser);
    CU_ASSERT_EQUAL(st.pub.hand_no, 1);
}

/* The partie model's expected settlement: exact at the end, antisymmetric, rising with one's own
 * total, and the same as a simulation of its own normal deals (200000 parties a state). */
static void test_the_partie_model_integrates_its_normals(void)
{
    CU_ASSERT_DOUBLE_EQUAL(picket_partie_expected(131, 113, 0, 0, 100), 118, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(picket_partie_expected(81, 125, 0, 0, 100), -306, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(picket_partie_expected(90, 90, 0, 0, 100), 0, 1e-9);
    /* totals, deals left, of them seat 0 elder */
    static const int states[][4] = { { 0, 0, 6, 3 }, { 60, 20, 4, 2 }, { 95, 105, 1, 1 }, { 150, 40, 2, 1 },
                                     { 120, 118, 1, 0 }, { 30, 70, 3, 2 } };
    rng_t rng;
    rng_seed(&rng, 4);
    double worst = 0;
    for (size_t i = 0; i < sizeof states / sizeof states[0]; i++) {
        int a = states[i][0], b = states[i][1], left = states[i][2], e0 = states[i][3];
        double e = picket_partie_expected(a, b, left, e0, 100);
        CU_ASSERT_DOUBLE_EQUAL(picket_partie_expected(b, a, left, left - e0, 100), -e, 1e-6);
        CU_ASSERT(picket_partie_expected(a + 10, b, left, e0, 100) > e);
        if (left > 0)
            CU_ASSERT(picket_partie_expected(a, b, left, left, 100) > picket_partie_expected(a, b, left, 0, 100));
        double sum = 0, sd = PICKET_PARTIE_DEAL_SD, r = PICKET_PARTIE_DEAL_CORR, edge = PICKET_PARTIE_ELDER_EDGE / 2;
        enum { N = 200000 };
        for (int n = 0; n < N; n++) {
            double A = a, B = b;
            for (int d = 0; d < left; d++) {
                /* Two correlated normals from two independent ones (Box-Muller); seat 0 is elder
                 * in the first e0 deals (their order does not matter). */
                double u1 = (rng_next(&rng) >> 11) * 0x1.0p-53 + 1e-300, u2 = (rng_next(&rng) >> 11) * 0x1.0p-53;
                double z1 = sqrt(-2 * log(u1)) * cos(2 * 3.14159265358979323846 * u2);
                double z2 = sqrt(-2 * log(u1)) * sin(2 * 3.14159265358979323846 * u2);
                double shift = d < e0 ? edge : -edge;
                A += PICKET_PARTIE_DEAL_MEAN + shift + sd * z1;
                B += PICKET_PARTIE_DEAL_MEAN - shift + sd * (r * z1 + sqrt(1 - r * r) * z2);
            }
            double d = A - B, both = A + B;
            sum += d > 0 ? 100 + (B < 100 ? both : d) : d < 0 ? -(100 + (A < 100 ? both : -d)) : 0;
        }
        double sim = sum / N;
        if (fabs(sim - e) > worst)
            worst = fabs(sim - e);
        CU_ASSERT(fabs(sim - e) < 4.0);
    }
    printf("\n    largest difference from the simulation: %.2f points ", worst);
}

/* The search's reward in a partie: a deal's points through the model, exactly the settlement at
 * the partie's end; the race keeps the generic reward. */
static void test_the_partie_reward(void)
{
    picket_rules_t r = test_rules("cavendish", NULL);
    picket_state_t st;
    picket_init(&st, &r, 3);
    double out[2];
    CU_ASSERT_EQUAL(picket_partie_horizon(&st, out), 0); /* before the first deal */
    st.pub.hand_no = 3;
    st.pub.phase = PK_PH_DEAL;
    st.pub.score[0] = 70, st.pub.score[1] = 40;
    st.pub.hand_pts[0] = 30, st.pub.hand_pts[1] = 10;
    CU_ASSERT_EQUAL_FATAL(picket_partie_horizon(&st, out), 1);
    CU_ASSERT(out[0] > 0);
    CU_ASSERT_DOUBLE_EQUAL(out[1], -out[0], 1e-9);
    /* a deal of 20 points' difference is worth about 20 of them where the settlement is linear */
    CU_ASSERT(out[0] > 10 && out[0] < 40);
    picket_rules_t race = test_rules("cavendish", "game=race", NULL);
    st.rules = race;
    CU_ASSERT_EQUAL(picket_partie_horizon(&st, out), 0);
}


/* ---------------------------------------------------------------- sinking */

static void check_views_from_events(void);

/* W1's hands after the exchange, under declarations=may-sink. */
static void deal_w1_sinking(void)
{
    deal(&T, "declarations=may-sink", "AS KS JS AH QH JH 8H JC 8C 7C 9D 8D",
         "TS 7S TH 9H 7H KC QC TC AD QD JD TD", "9S 8S KH 9C KD QS AC 7D");
    plays(&T, "discard KS 8C 7C 9D 8D, discard 7S 9H 7H");
    CU_ASSERT_EQUAL_FATAL(T.st.pub.phase, PK_PH_DECLARE);
    CU_ASSERT_EQUAL_FATAL(T.st.pub.to_move, E);
}

static int legal(const char *text)
{
    game_move_t m;
    char err[GAME_ERR_LEN];
    CU_ASSERT_EQUAL_FATAL(picket_move_parse(text, &m, err, sizeof err), 0);
    return picket_is_legal(&T.st, &m, err, sizeof err);
}

/* CAV D: a player "may always call less than he holds"; what he sinks he does not score (FOS),
 * and younger may allow a call good holding better (EB 9th; CAV T). */
static void test_sinking_calls_less_and_scores_what_is_called(void)
{
    deal_w1_sinking();
    /* A point is a suit's highest cards: four hearts to the knave, not with the eight. */
    CU_ASSERT_FALSE(legal("declare ruff AH KH QH 8H"));
    CU_ASSERT_FALSE(legal("declare sequences AH KH QH JH")); /* the point comes first */
    CU_ASSERT_FALSE(legal("declare ruff AH KH QH JH TH")); /* not his card */
    play(&T, "declare ruff AH KH QH JH");
    const game_event_t *d = last_event(&T, PK_EV_DECLARE, PK_CAT_RUFF);
    CU_ASSERT_EQUAL(d->a, 4);
    CU_ASSERT_EQUAL(d->b, 0); /* the value unsaid */
    /* Younger's five diamonds could answer "not good"; he allows the four good. */
    CU_ASSERT_TRUE(legal("answer full"));
    play(&T, "answer good");
    SCORES(4, 0);
    CU_ASSERT_EQUAL(T.st.pub.decl_cards[0][E], test_cards("AH KH QH JH"));
    /* The quart major: younger's best run is a tierce, so "good" is all he may say. */
    play(&T, "declare sequences AH KH QH JH");
    CU_ASSERT_FALSE(legal("answer full"));
    play(&T, "answer good");
    SCORES(8, 0);
    /* Elder sinks his three knaves; younger's fourteen tens and three queens are "not good". */
    play(&T, "declare sets none");
    CU_ASSERT_EQUAL(last_event(&T, PK_EV_DECLARE, PK_CAT_SETS)->a, 0);
    play(&T, "answer full");
    CU_ASSERT_EQUAL(last_event(&T, PK_EV_ANSWER, PK_CAT_SETS)->a, PK_ANS_NOT_GOOD);
    CU_ASSERT_EQUAL(T.st.pub.phase, PK_PH_PLAY);
    SCORES(8, 0);
    play(&T, "play AH");
    SCORES(9, 17);
    CU_ASSERT_EQUAL(scored(&T, E, PK_CAT_SETS), 0);
    check_views_from_events();
}

/* Each seat's view built from the table's events, through their text, is the state's. */
static void check_views_from_events(void)
{
    for (int seat = 0; seat < 2; seat++) {
        picket_view_t v, want;
        picket_view_init(&v, &T.st.rules, seat);
        for (int i = 0; i < T.n; i++) {
            if (!game_event_visible(&T.log[i], seat))
                continue;
            char text[256], err[160];
            game_event_t back;
            picket_event_format(&T.log[i], text, sizeof text);
            CU_ASSERT_EQUAL_FATAL(picket_event_parse(text, seat, &back, err, sizeof err), 0);
            if (picket_view_apply(&v, &back) != 0) {
                fprintf(stderr, "\n    seat %d refused '%s'\n", seat, text);
                CU_FAIL_FATAL("an event does not follow");
            }
        }
        picket_view_from_state(&T.st, seat, &want);
        const char *d = picket_view_diff(&v, &want);
        if (d)
            fprintf(stderr, "\n    seat %d: the view from events differs in %s\n", seat, d);
        CU_ASSERT_PTR_NULL(d);
    }
}

/* Younger as long asks what they make (CAV L46): the value is said only then. */
static void test_sinking_younger_asks_the_value(void)
{
    deal_w1_sinking();
    play(&T, "declare ruff AH KH QH JH 8H");
    CU_ASSERT_EQUAL(last_event(&T, PK_EV_DECLARE, PK_CAT_RUFF)->b, 0);
    play(&T, "answer full");
    const game_event_t *d = last_event(&T, PK_EV_DECLARE, PK_CAT_RUFF);
    CU_ASSERT_EQUAL(d->a, 5);
    CU_ASSERT_EQUAL(d->b, 49);
    CU_ASSERT_EQUAL(last_event(&T, PK_EV_ANSWER, PK_CAT_RUFF)->a, PK_ANS_GOOD);
    SCORES(5, 0);
    check_views_from_events();
    /* Younger sinks his quatorze against three knaves: elder scores them. */
    plays(&T, "declare sequences AH KH QH JH, answer good, declare sets JS JH JC");
    CU_ASSERT_TRUE(legal("answer full"));
    play(&T, "answer good");
    SCORES(12, 0);
    play(&T, "play AH");
    SCORES(13, 0);
    CU_ASSERT_EQUAL(scored(&T, Y, PK_CAT_SETS), 0);
    check_views_from_events();
}

/* What younger's worlds make of elder's calls: a shown point is its suit's highest cards (the
 * King of spades, which elder threw out, is never his), and a beaten call is held. */
static void test_sinking_worlds_follow_the_calls(void)
{
    deal_w1_sinking();
    plays(&T, "declare ruff AS JS 9S, answer good");
    picket_view_t v;
    picket_view_from_state(&T.st, Y, &v);
    char err[160];
    picket_sampler_t *S = picket_sampler_new(&v, PK_SAMPLER_EXACT, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(S);
    CU_ASSERT(picket_sampler_worlds(S) > 0);
    rng_t rng;
    rng_seed(&rng, 7);
    int kings = 0;
    for (int i = 0; i < 2000; i++) {
        picket_world_t w;
        CU_ASSERT_EQUAL_FATAL(picket_sampler_draw(S, &rng, &w, NULL), 0);
        kings += cardset_has(w.opp_holding, card_parse("KS", 2));
        CU_ASSERT_EQUAL(w.opp_holding & test_cards("AS JS 9S"), test_cards("AS JS 9S"));
    }
    CU_ASSERT_EQUAL(kings, 0);
    /* Sequences: a tierce to the king called, younger's answer pending: some suit holds it. */
    play(&T, "declare sequences KH QH JH");
    picket_view_from_state(&T.st, Y, &v);
    CU_ASSERT_EQUAL_FATAL(picket_sampler_prepare(S, &v, PK_SAMPLER_EXACT, err, sizeof err), 0);
    for (int i = 0; i < 2000; i++) {
        picket_world_t w;
        picket_state_t st;
        CU_ASSERT_EQUAL_FATAL(picket_sampler_draw(S, &rng, &w, &st), 0);
        int held = 0;
        for (int s = 0; s < CARD_SUITS; s++) {
            cardset_t run = cardset_of(card_make(s, RANK_K)) | cardset_of(card_make(s, RANK_Q)) |
                            cardset_of(card_make(s, RANK_J));
            held |= (w.opp_holding & run) == run;
        }
        CU_ASSERT_TRUE(held);
        /* The world's state has elder's call among his cards, as the rules need to answer it. */
        CU_ASSERT(st.called != 0 && (st.called & ~st.hand[E]) == 0);
    }
    picket_sampler_free(S);
}

#define ADD(suite, fn) CU_add_test(suite, #fn, fn)

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite w = CU_add_suite("cavendish: worked examples", NULL, NULL);
    ADD(w, test_w1_cavendish_example);
    ADD(w, test_w1_with_tens_only_makes_27);
    ADD(w, test_w1_worlds_before_the_lead);
    ADD(w, test_w2_pique_in_play);
    ADD(w, test_w2_first_card_pique_makes_41);
    ADD(w, test_w3_younger_tens_save_a_pique);
    ADD(w, test_w3_first_card_and_any_time_agree);
    ADD(w, test_w4_capot_is_no_pique);
    ADD(w, test_w4_any_time_counts_the_capot);
    ADD(w, test_w5_repique_with_carte_blanche);
    ADD(w, test_w6_younger_repiques_after_the_lead);
    ADD(w, test_w7_equalities_void_everything_below);
    ADD(w, test_w8_settlement);
    CU_pSuite p = CU_add_suite("cavendish: the partie", NULL, NULL);
    ADD(p, test_the_higher_cut_chooses);
    ADD(p, test_parties_end_as_the_laws_say);
    ADD(p, test_the_race_ends_at_the_target);
    ADD(p, test_new_notation_round_trips);
    ADD(p, test_the_partie_model_integrates_its_normals);
    ADD(p, test_the_partie_reward);
    CU_pSuite k = CU_add_suite("cavendish: sinking (declarations=may-sink)", NULL, NULL);
    ADD(k, test_sinking_calls_less_and_scores_what_is_called);
    ADD(k, test_sinking_younger_asks_the_value);
    ADD(k, test_sinking_worlds_follow_the_calls);
    return test_run_all();
}
