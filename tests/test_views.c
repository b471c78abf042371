/* Views: what one seat knows. Each case deals chosen cards, plays a few moves through the
 * referee, feeds each seat only the events it may see, and checks the view's knowledge. */
#include <CUnit/CUnit.h>
#include <string.h>

#include "picket.h"
#include "test_util.h"

typedef struct table {
    picket_state_t st;
    picket_view_t v[2];
} table_t;

static void feed(table_t *t, const game_event_t *ev, int n)
{
    for (int i = 0; i < n; i++)
        for (int s = 0; s < 2; s++)
            if (game_event_visible(&ev[i], s))
                CU_ASSERT_EQUAL(picket_view_apply(&t->v[s], &ev[i]), 0);
}

/* Dealer 1, so seat 0 is elder. Stock given top first. */
static void deal(table_t *t, const picket_rules_t *r, const char *elder, const char *younger, const char *stock)
{
    picket_init(&t->st, r, 1);
    for (int s = 0; s < 2; s++)
        picket_view_init(&t->v[s], r, s);
    cardset_t hands[2] = { test_cards(elder), test_cards(younger) };
    uint8_t order[12];
    char err[160];
    const char *p = stock;
    int n = 0;
    while (*p && n < 12) {
        while (*p == ' ')
            p++;
        const char *q = p;
        while (*q && *q != ' ')
            q++;
        order[n++] = (uint8_t)card_parse(p, (size_t)(q - p));
        p = q;
    }
    (void)err;
    game_event_t ev[GAME_MAX_EVENTS];
    int k = picket_deal_given(&t->st, 1, hands, order, ev, GAME_MAX_EVENTS);
    CU_ASSERT_FATAL(k > 0);
    feed(t, ev, k);
}

static void play(table_t *t, const char *move)
{
    game_move_t m;
    char err[160];
    CU_ASSERT_EQUAL_FATAL(picket_move_parse(move, &m, err, sizeof err), 0);
    if (!picket_is_legal(&t->st, &m, err, sizeof err)) {
        fprintf(stderr, "\n    '%s': %s\n", move, err);
        CU_FAIL_FATAL("scripted move refused");
    }
    game_event_t ev[GAME_MAX_EVENTS];
    int k = picket_apply(&t->st, &m, ev, GAME_MAX_EVENTS);
    feed(t, ev, k);
    for (int s = 0; s < 2; s++) {
        picket_view_t truth;
        picket_view_from_state(&t->st, s, &truth);
        CU_ASSERT_PTR_NULL(picket_view_diff(&t->v[s], &truth));
    }
}

static const char *ELDER = "AH KH QH JH TH 9H AS KS QS 6C 7C 8C";
static const char *YOUNGER = "AD KD QD JD TD 9D AC KC QC 6S 7S 8S";
static const char *STOCK = "9C TC JC 9S TS JS 6H 7H 8H 6D 7D 8D";

/* CG: elder "has liberty to look upon the remainder of them eight". */
static void test_elder_sees_the_rest_of_his_eight(void)
{
    table_t t;
    picket_rules_t r = test_rules("cotton", NULL);
    deal(&t, &r, ELDER, YOUNGER, STOCK);
    play(&t, "discard 6C 7C 8C");
    CU_ASSERT_EQUAL(t.v[0].know.stock_known, test_cards("9S TS JS 6H 7H"));
    CU_ASSERT_EQUAL(t.v[1].know.stock_known, 0);
    CU_ASSERT_EQUAL(t.v[0].hand, test_cards("AH KH QH JH TH 9H AS KS QS 9C TC JC"));
}

/* Younger draws from the top: elder then knows which of the cards he saw younger holds. */
static void test_elder_knows_the_seen_cards_younger_drew(void)
{
    table_t t;
    picket_rules_t r = test_rules("cotton", NULL);
    deal(&t, &r, ELDER, YOUNGER, STOCK);
    play(&t, "discard 6C 7C 8C");
    play(&t, "discard 6S 7S");
    CU_ASSERT_EQUAL(t.v[0].know.opp_known, test_cards("9S TS"));
    CU_ASSERT_EQUAL(t.v[0].know.stock_known, test_cards("JS 6H 7H"));
    CU_ASSERT_EQUAL(t.v[1].know.opp_known & test_cards("6C 7C 8C"), 0);
}

/* A player never learns the other's discards. */
static void test_discards_stay_hidden(void)
{
    table_t t;
    picket_rules_t r = test_rules("cotton", NULL);
    deal(&t, &r, ELDER, YOUNGER, STOCK);
    play(&t, "discard 6C 7C 8C");
    play(&t, "discard 6S 7S");
    CU_ASSERT_EQUAL(t.v[1].know.seen & test_cards("6C 7C 8C"), 0);
    CU_ASSERT_EQUAL(t.v[0].know.seen & test_cards("6S 7S"), 0);
    CU_ASSERT_EQUAL(t.v[1].pub.discarded[0], 3);
    CU_ASSERT_EQUAL(t.v[0].pub.discarded[1], 2);
}

/* CT says nothing of showing the leftover: with leftover=hidden neither player sees it. */
static void test_hidden_leftover_is_seen_by_nobody(void)
{
    table_t t;
    picket_rules_t r = test_rules("cotton", NULL);
    deal(&t, &r, ELDER, YOUNGER, STOCK);
    play(&t, "discard 6C 7C 8C");
    play(&t, "discard 6S");
    /* Left: TS JS 6H 7H 8H 6D 7D 8D; elder saw TS..7H through his eight, never 8H 6D 7D 8D. */
    CU_ASSERT_EQUAL(t.v[0].know.seen & test_cards("8H 6D 7D 8D"), 0);
    CU_ASSERT_EQUAL(t.v[1].know.seen & test_cards("TS JS 6H 7H 8H 6D 7D 8D"), 0);
}

/* DL: younger "may turn the remaining cardes up, so that both plaiers may see them". */
static void test_leftover_turned_up_is_seen_by_both(void)
{
    table_t t;
    picket_rules_t r = test_rules("ducoeur-letter", NULL);
    deal(&t, &r, ELDER, YOUNGER, STOCK);
    play(&t, "discard 6C 7C 8C");
    play(&t, "discard 6S");
    play(&t, "leftover show");
    cardset_t left = test_cards("TS JS 6H 7H 8H 6D 7D 8D");
    CU_ASSERT_EQUAL(t.v[0].pub.leftover_shown, left);
    CU_ASSERT_EQUAL(t.v[1].know.stock_known, left);
    CU_ASSERT_EQUAL(t.v[0].know.stock_known, left);
}

/* CG: elder may see the leftover "provided that he first acquaint the other with the suit". */
static void test_called_leftover_is_seen_by_elder_only(void)
{
    table_t t;
    picket_rules_t r = test_rules("cotgrave", NULL);
    deal(&t, &r, ELDER, YOUNGER, STOCK);
    play(&t, "discard 6C 7C 8C");
    play(&t, "discard 6S");
    play(&t, "call H");
    cardset_t left = test_cards("TS JS 6H 7H 8H 6D 7D 8D");
    CU_ASSERT_EQUAL(t.v[0].know.stock_known, left);
    CU_ASSERT_EQUAL(t.v[1].know.seen & left, 0);
    CU_ASSERT_EQUAL(t.v[1].pub.called_suit, SUIT_H);
}

/* Declarations: the winner's shown cards become known to the other seat. */
static void test_shown_declaration_cards_are_known(void)
{
    table_t t;
    picket_rules_t r = test_rules("cotton", NULL);
    deal(&t, &r, ELDER, YOUNGER, STOCK);
    play(&t, "discard 6C 7C 8C");
    play(&t, "discard 6S");
    /* Elder's hearts A K Q J T 9 (60) win the Ruff and make a sixieme: both are shown. */
    CU_ASSERT_EQUAL(t.v[1].know.opp_known & test_cards("AH KH QH JH TH 9H"), test_cards("AH KH QH JH TH 9H"));
    CU_ASSERT_EQUAL(t.v[1].pub.decl_winner[0], 0);
    /* Played cards leave opp_known. */
    play(&t, "play AH");
    CU_ASSERT_EQUAL(t.v[1].know.opp_known & test_cards("AH"), 0);
}

/* DL: a Blank hand is shown; once its holder discards, the shown cards are no longer certain. */
static void test_blank_shown_then_uncertain_after_discard(void)
{
    table_t t;
    picket_rules_t r = test_rules("ducoeur-letter", NULL);
    const char *blank = "AH TH 9H 8H AS TS 9S 8S 6C 7C 8C 9C";
    deal(&t, &r, blank, "KH QH JH KS QS JS KC QC JC KD QD JD", "AC TC 6D 7D 8D 9D TD AD 6H 7H 6S 7S");
    CU_ASSERT_EQUAL(t.v[1].pub.blank_shown[0], test_cards(blank));
    CU_ASSERT_EQUAL(t.v[1].know.opp_known, test_cards(blank));
    play(&t, "discard 6C 7C");
    CU_ASSERT_EQUAL(t.v[1].know.opp_known, 0);
}

/* A view takes only what its seat may see, and refuses what cannot follow. */
static void test_view_refuses_events_it_cannot_receive(void)
{
    picket_view_t v;
    picket_rules_t r = test_rules("cotgrave", NULL);
    picket_view_init(&v, &r, 0);
    game_event_t other = { PK_EV_DEALT, 1, 1, 0, 0, 0, 0, 0, test_cards("AH") };
    CU_ASSERT_EQUAL(picket_view_apply(&v, &other), -1);
    game_event_t dealt_other = { PK_EV_DEALT, 0, 1, 0, 0, 0, 0, 0, test_cards("AH") };
    CU_ASSERT_EQUAL(picket_view_apply(&v, &dealt_other), -1);
    game_event_t junk = { 0, GAME_ALL, 0, 0, 0, 0, 0, 0, 0 };
    CU_ASSERT_EQUAL(picket_view_apply(&v, &junk), -1);
    game_event_t bad_seat = { PK_EV_PLAY, GAME_ALL, 5, 3, 0, 0, 0, 0, 0 };
    CU_ASSERT_EQUAL(picket_view_apply(&v, &bad_seat), -1);
}

/* A view knows its own hand: its seat, in turn to play, cannot play a card it does not hold.
 * Everything else about the event is right (the play phase, the seat to move, a card of the
 * pack not yet played), and the same event for a card it holds is taken, so the hand is the
 * only reason for the refusal. */
static void test_view_refuses_its_seat_playing_a_card_it_does_not_hold(void)
{
    table_t t;
    picket_rules_t r = test_rules("cotton", NULL);
    deal(&t, &r, ELDER, YOUNGER, STOCK);
    play(&t, "discard 6C 7C 8C");
    play(&t, "discard 6S");
    const picket_view_t *v = &t.v[0];
    int held = card_parse("AH", 2), not_held = card_parse("AD", 2); /* AD: younger's */
    CU_ASSERT_EQUAL_FATAL(v->pub.phase, PK_PH_PLAY);
    CU_ASSERT_EQUAL_FATAL(v->pub.to_move, 0);
    CU_ASSERT_FATAL(cardset_has(v->hand, held) && !cardset_has(v->hand, not_held));
    CU_ASSERT_FATAL(!cardset_has(v->pub.played[0] | v->pub.played[1], not_held));
    picket_view_t refuses, takes;
    memcpy(&refuses, v, sizeof refuses);
    memcpy(&takes, v, sizeof takes);
    game_event_t ev = { PK_EV_PLAY, GAME_ALL, 0, (int8_t)not_held, 0, 0, 0, 0, cardset_of(not_held) };
    CU_ASSERT_EQUAL(picket_view_apply(&refuses, &ev), -1);
    game_event_t ok = { PK_EV_PLAY, GAME_ALL, 0, (int8_t)held, 0, 0, 0, 0, cardset_of(held) };
    CU_ASSERT_EQUAL(picket_view_apply(&takes, &ok), 0);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("views", NULL, NULL);
    CU_add_test(s, "elder sees the rest of his eight", test_elder_sees_the_rest_of_his_eight);
    CU_add_test(s, "elder knows the seen cards younger drew", test_elder_knows_the_seen_cards_younger_drew);
    CU_add_test(s, "discards stay hidden", test_discards_stay_hidden);
    CU_add_test(s, "hidden leftover is seen by nobody", test_hidden_leftover_is_seen_by_nobody);
    CU_add_test(s, "leftover turned up is seen by both", test_leftover_turned_up_is_seen_by_both);
    CU_add_test(s, "called leftover is seen by elder only", test_called_leftover_is_seen_by_elder_only);
    CU_add_test(s, "shown declaration cards are known", test_shown_declaration_cards_are_known);
    CU_add_test(s, "a Blank shown, then uncertain after the discard", test_blank_shown_then_uncertain_after_discard);
    CU_add_test(s, "view refuses events it cannot receive", test_view_refuses_events_it_cannot_receive);
    CU_add_test(s, "view refuses its seat playing a card it does not hold", test_view_refuses_its_seat_playing_a_card_it_does_not_hold);
    return test_run_all();
}
