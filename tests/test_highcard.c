/* highcard (docs/highcard.md): the test game for 2 to 4 seats, through every game_t hook.
 *  - The rules: a round's winner, a tie, the lead passing, hands and the end, rank with ties.
 *  - Refusals: bad configs, illegal moves, events a view cannot follow, bad notation.
 *  - Notation: every event kind, as each seat receives it, reads back as itself.
 *  - Views rebuilt from events equal view_from_state at every step of random games (2-4 seats);
 *    an oracle built from the true hands, not the views, checks that no event shows a seat a card
 *    it may not see.
 *  - Worlds: every sampled world fits the view; which seat holds an unseen card is uniform (a
 *    chi-square test, which a biased sampler fails); the same seed gives the same world.
 *  - End to end: bots through the referee (match_play), records written and replayed (a tie
 *    too), and three real engine processes ($PICKET_ENGINE) playing a game over the protocol.
 * The game is reached through the registry, as generic code reaches it; its header is included
 * only for its structs, event kinds and highcard_deal_given.
 */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "highcard.h"
#include "bot.h"
#include "client.h"
#include "match.h"
#include "record.h"
#include "referee.h"
#include "test_util.h"

static const game_t *G;

static game_config_t config(int players, uint64_t seed, const char *flag1, const char *flag2)
{
    game_config_t cfg;
    char err[GAME_ERR_LEN];
    memset(&cfg, 0, sizeof cfg);
    cfg.players = players;
    cfg.deal_seed = seed;
    if (flag1)
        CU_ASSERT_EQUAL(game_config_add_flag(&cfg, flag1, err, sizeof err), 0);
    if (flag2)
        CU_ASSERT_EQUAL(game_config_add_flag(&cfg, flag2, err, sizeof err), 0);
    return cfg;
}

/* ---------------------------------------------------------------- scripted play */

typedef struct table {
    highcard_state_t st;
    highcard_view_t v[HC_MAX_PLAYERS];
    char log[4096]; /* the last step's events as text, one a line, "[to S]" for private ones */
} table_t;

static void feed(table_t *t, const game_event_t *ev, int n)
{
    size_t len = 0;
    t->log[0] = '\0';
    for (int i = 0; i < n; i++) {
        char text[256];
        G->event_format(&ev[i], text, sizeof text);
        if (ev[i].audience == GAME_ALL)
            len += (size_t)snprintf(t->log + len, sizeof t->log - len, "%s\n", text);
        else
            len += (size_t)snprintf(t->log + len, sizeof t->log - len, "[to %d] %s\n", ev[i].audience, text);
        for (int s = 0; s < t->st.pub.rules.players; s++)
            if (game_event_visible(&ev[i], s))
                CU_ASSERT_EQUAL(G->view_apply(&t->v[s], &ev[i]), 0);
    }
}

/* A game whose first hand deals the given cards (one string a seat). */
static void start(table_t *t, int players, const char *flag1, const char *flag2, const char *const *hands)
{
    game_config_t cfg = config(players, 1, flag1, flag2);
    char err[GAME_ERR_LEN];
    CU_ASSERT_EQUAL_FATAL(G->init(&t->st, &cfg, err, sizeof err), 0);
    for (int s = 0; s < players; s++)
        CU_ASSERT_EQUAL_FATAL(G->view_init(&t->v[s], &cfg, s, err, sizeof err), 0);
    cardset_t h[HC_MAX_PLAYERS] = { 0 };
    for (int s = 0; s < players; s++)
        h[s] = test_cards(hands[s]);
    game_event_t ev[GAME_MAX_EVENTS];
    int n = highcard_deal_given(&t->st, h, ev, GAME_MAX_EVENTS);
    CU_ASSERT_FATAL(n > 0);
    feed(t, ev, n);
}

static void deal_next(table_t *t, const char *const *hands)
{
    cardset_t h[HC_MAX_PLAYERS] = { 0 };
    for (int s = 0; s < t->st.pub.rules.players; s++)
        h[s] = test_cards(hands[s]);
    game_event_t ev[GAME_MAX_EVENTS];
    int n = highcard_deal_given(&t->st, h, ev, GAME_MAX_EVENTS);
    CU_ASSERT_FATAL(n > 0);
    feed(t, ev, n);
}

/* Play a move in notation; every view must match the truth after it. */
static void play(table_t *t, const char *move)
{
    game_move_t m;
    char err[GAME_ERR_LEN];
    CU_ASSERT_EQUAL_FATAL(G->move_parse(move, &m, err, sizeof err), 0);
    if (!G->is_legal(&t->st, &m, err, sizeof err)) {
        fprintf(stderr, "\n    '%s': %s\n", move, err);
        CU_FAIL_FATAL("scripted move refused");
    }
    game_event_t ev[GAME_MAX_EVENTS];
    feed(t, ev, G->apply(&t->st, &m, ev, GAME_MAX_EVENTS));
    for (int s = 0; s < t->st.pub.rules.players; s++) {
        highcard_view_t truth;
        G->view_from_state(&t->st, s, &truth);
        CU_ASSERT_PTR_NULL(G->view_diff(&t->v[s], &truth));
    }
}

static int logged(const table_t *t, const char *line) { return strstr(t->log, line) != NULL; }

static const char *const THREE[] = { "AS 9C TC", "KS 9D TD", "QS 9H TH" };

/* ---------------------------------------------------------------- the rules */

static void test_the_registry_finds_highcard_with_every_hook(void)
{
    CU_ASSERT_PTR_EQUAL(game_find("highcard"), &HIGHCARD_GAME);
    const game_t *g = G;
    CU_ASSERT(g->init && g->num_players && g->to_move && g->apply_chance && g->legal_moves && g->random_move &&
              g->is_legal && g->apply && g->rank && g->scores && g->hand_over && g->hand_value &&
              g->view_from_state && g->view_seat && g->view_num_players && g->sample_world && g->view_init &&
              g->view_apply && g->view_diff && g->view_to_move && g->view_legal_moves && g->view_random_move &&
              g->move_format && g->move_parse && g->event_format && g->event_parse && g->heuristic_evaluate);
    CU_ASSERT_PTR_NULL(g->endgame); /* the trick solver is for two-player games only */
}

static void test_the_deal_tells_each_seat_its_own_hand(void)
{
    table_t t;
    start(&t, 3, NULL, NULL, THREE);
    CU_ASSERT(logged(&t, "hand 1 leader 0\n[to 0] dealt 0 9C TC AS\n[to 1] dealt 1 9D TD KS\n[to 2] dealt 2 9H TH QS\nturn 0\n"));
    CU_ASSERT_EQUAL(t.v[1].hand, test_cards("KS 9D TD"));
    CU_ASSERT_EQUAL(t.v[0].hand, test_cards("AS 9C TC"));
}

static void test_the_highest_rank_wins_the_round_and_scores_one(void)
{
    table_t t;
    const char *const hands[] = { "AS 9C TC", "KS 9D JD", "QS 9H JH" };
    start(&t, 3, NULL, NULL, hands);
    play(&t, "play AS");
    CU_ASSERT(logged(&t, "play 0 AS\nturn 1\n"));
    play(&t, "play KS");
    play(&t, "play QS");
    CU_ASSERT(logged(&t, "play 2 QS\nround 1 won-by 0\nturn 0\n"));
    CU_ASSERT_EQUAL(t.st.pub.score[0], 1);
    CU_ASSERT_EQUAL(t.st.pub.score[1] + t.st.pub.score[2], 0);
}

/* No obligation to follow suit: any card may be played to any round. */
static void test_any_card_may_be_played(void)
{
    table_t t;
    start(&t, 3, NULL, NULL, THREE);
    play(&t, "play 9C");
    game_move_t moves[8];
    CU_ASSERT_EQUAL(G->legal_moves(&t.st, moves, 8), 3);
}

static void test_a_tie_in_the_highest_rank_wins_nobody_the_round(void)
{
    table_t t;
    const char *const hands[] = { "AS 9C TC", "AH 9D JD", "KS 9H JH" };
    start(&t, 3, NULL, NULL, hands);
    play(&t, "play AS");
    play(&t, "play AH");
    play(&t, "play KS");
    CU_ASSERT(logged(&t, "round 1 tie\nturn 0\n")); /* the same leader leads again */
    for (int s = 0; s < 3; s++)
        CU_ASSERT_EQUAL(t.st.pub.score[s], 0);
}

static void test_the_winner_leads_the_next_round(void)
{
    table_t t;
    const char *const hands[] = { "9S 9C TC", "AS 9D TD", "KS 9H TH" };
    start(&t, 3, NULL, NULL, hands);
    play(&t, "play 9S");
    play(&t, "play AS");
    play(&t, "play KS");
    CU_ASSERT(logged(&t, "round 1 won-by 1\nturn 1\n"));
    CU_ASSERT_EQUAL(G->to_move(&t.st), 1);
    CU_ASSERT_EQUAL(G->view_to_move(&t.v[2]), 1);
}

/* Two seats, one card each, two hands: a hand ends after its rounds, the next deal's first
 * leader rotates, and the game ends after the last hand. */
static void test_hands_rotate_the_lead_and_the_game_ends(void)
{
    table_t t;
    const char *const first[] = { "AS", "KS" }, *const second[] = { "9C", "TC" };
    start(&t, 2, "hand=1", "hands=2", first);
    CU_ASSERT_EQUAL(G->hand_over(&t.st), 0);
    play(&t, "play AS");
    play(&t, "play KS");
    CU_ASSERT(logged(&t, "round 1 won-by 0\nhand-end\n"));
    CU_ASSERT_EQUAL(G->to_move(&t.st), GAME_CHANCE);
    CU_ASSERT_EQUAL(G->hand_over(&t.st), 1);
    double value[2];
    G->hand_value(&t.st, value);
    CU_ASSERT(value[0] == 1.0 && value[1] == 0.0);
    int rank[2] = { -7, -7 };
    CU_ASSERT_EQUAL(G->rank(&t.st, rank), 0);
    CU_ASSERT_EQUAL(rank[0], -7);
    deal_next(&t, second);
    CU_ASSERT(logged(&t, "hand 2 leader 1\n"));
    G->hand_value(&t.st, value);
    CU_ASSERT(value[0] == 0.0 && value[1] == 0.0); /* points this hand */
    play(&t, "play TC");
    play(&t, "play 9C");
    CU_ASSERT(logged(&t, "round 1 won-by 1\nhand-end\ngame-end rank 0 0\n"));
    CU_ASSERT_EQUAL(G->to_move(&t.st), GAME_OVER);
    CU_ASSERT_EQUAL(G->view_to_move(&t.v[0]), GAME_OVER);
    CU_ASSERT_EQUAL(G->hand_over(&t.st), 1);
    CU_ASSERT_EQUAL(G->rank(&t.st, rank), 1);
    CU_ASSERT(rank[0] == 0 && rank[1] == 0);
    int scores[2];
    G->scores(&t.st, scores);
    CU_ASSERT(scores[0] == 1 && scores[1] == 1);
}

static void expect_ranks(int players, const int *score, const char *want)
{
    highcard_state_t st;
    game_config_t cfg = config(players, 1, NULL, NULL);
    char err[GAME_ERR_LEN], got[64] = "";
    G->init(&st, &cfg, err, sizeof err);
    for (int s = 0; s < players; s++)
        st.pub.score[s] = score[s];
    st.pub.need = HC_NEED_NOTHING;
    int rank[HC_MAX_PLAYERS];
    CU_ASSERT_EQUAL(G->rank(&st, rank), 1);
    for (int s = 0; s < players; s++)
        snprintf(got + strlen(got), sizeof got - strlen(got), "%s%d", s ? " " : "", rank[s]);
    if (strcmp(got, want) != 0)
        fprintf(stderr, "\n    want ranks %s, got %s\n", want, got);
    CU_ASSERT_STRING_EQUAL(got, want);
}

/* Rank by total points; tied seats share a rank and the next rank skips. */
static void test_rank_shares_ties_and_skips(void)
{
    expect_ranks(3, (const int[]){ 2, 2, 1 }, "0 0 2");
    expect_ranks(3, (const int[]){ 1, 3, 3 }, "2 0 0");
    expect_ranks(3, (const int[]){ 0, 0, 0 }, "0 0 0");
    expect_ranks(4, (const int[]){ 3, 1, 1, 0 }, "0 1 1 3");
    expect_ranks(2, (const int[]){ 0, 4 }, "1 0");
}

static void test_the_deal_follows_the_deal_seed(void)
{
    game_config_t cfg = config(4, 77, NULL, NULL);
    highcard_state_t a, b, c;
    char err[GAME_ERR_LEN];
    G->init(&a, &cfg, err, sizeof err);
    G->init(&b, &cfg, err, sizeof err);
    cfg.deal_seed = 78;
    G->init(&c, &cfg, err, sizeof err);
    G->apply_chance(&a, NULL, NULL, 0);
    G->apply_chance(&b, NULL, NULL, 0);
    G->apply_chance(&c, NULL, NULL, 0);
    CU_ASSERT_EQUAL(memcmp(&a, &b, sizeof a), 0);
    CU_ASSERT_NOT_EQUAL(memcmp(a.hand, c.hand, sizeof a.hand), 0);
    /* A given generator decides instead of the seed. */
    rng_t r1, r2;
    rng_seed(&r1, 5);
    rng_seed(&r2, 5);
    G->init(&a, &cfg, err, sizeof err);
    G->init(&b, &cfg, err, sizeof err);
    b.deal_seed = 999;
    G->apply_chance(&a, &r1, NULL, 0);
    G->apply_chance(&b, &r2, NULL, 0);
    CU_ASSERT_EQUAL(memcmp(a.hand, b.hand, sizeof a.hand), 0);
    cardset_t all = 0;
    for (int s = 0; s < 4; s++) {
        CU_ASSERT_EQUAL(cardset_count(a.hand[s]), 3);
        CU_ASSERT_EQUAL(all & a.hand[s], 0);
        all |= a.hand[s];
    }
    CU_ASSERT_EQUAL(all & ~highcard_pack(), 0);
}

static void test_random_move_is_uniform_over_the_hand(void)
{
    table_t t;
    start(&t, 3, NULL, NULL, THREE);
    rng_t rng;
    rng_seed(&rng, 3);
    int count[CARD_COUNT] = { 0 }, vcount[CARD_COUNT] = { 0 };
    for (int i = 0; i < 3000; i++) {
        game_move_t m;
        CU_ASSERT_EQUAL(G->random_move(&t.st, &rng, &m), 0);
        count[m.arg]++;
        CU_ASSERT_EQUAL(G->view_random_move(&t.v[0], &rng, &m), 0);
        vcount[m.arg]++;
    }
    for (cardset_t c = test_cards(THREE[0]); c; c &= c - 1) {
        CU_ASSERT(count[cardset_first(c)] > 850 && count[cardset_first(c)] < 1150);
        CU_ASSERT(vcount[cardset_first(c)] > 850 && vcount[cardset_first(c)] < 1150);
    }
    game_move_t m;
    CU_ASSERT_EQUAL(G->view_random_move(&t.v[1], &rng, &m), -1); /* not seat 1's turn */
}

/* ---------------------------------------------------------------- refusals */

static void expect_init_refused(int players, const char *preset, const char *flag, const char *want)
{
    game_config_t cfg = config(players, 1, flag, NULL);
    char err[GAME_ERR_LEN] = "", verr[GAME_ERR_LEN] = "";
    if (preset)
        game_config_set_preset(&cfg, preset, err, sizeof err);
    highcard_state_t st;
    highcard_view_t v;
    CU_ASSERT_EQUAL(G->init(&st, &cfg, err, sizeof err), -1);
    CU_ASSERT_EQUAL(G->view_init(&v, &cfg, 0, verr, sizeof verr), -1);
    if (!strstr(err, want))
        fprintf(stderr, "\n    want '%s', got '%s'\n", want, err);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, want));
    CU_ASSERT_PTR_NULL(strchr(err, '\n'));
    CU_ASSERT_STRING_EQUAL(err, verr);
}

static void test_init_refuses_bad_configs_in_one_line(void)
{
    expect_init_refused(1, NULL, NULL, "highcard is for 2 to 4 players, not 1");
    expect_init_refused(5, NULL, NULL, "highcard is for 2 to 4 players, not 5");
    expect_init_refused(0, "fast", NULL, "unknown preset 'fast' (standard)");
    expect_init_refused(0, NULL, "hand=0", "flag hand: bad value '0' (allowed: a number 1..8 for 3 players)");
    expect_init_refused(4, NULL, "hand=7", "flag hand: bad value '7' (allowed: a number 1..6 for 4 players)");
    expect_init_refused(0, NULL, "hand=3x", "flag hand: bad value '3x'");
    expect_init_refused(0, NULL, "hands=0", "flag hands: bad value '0' (allowed: a number 1..10000)");
    expect_init_refused(0, NULL, "trumps=on", "unknown flag 'trumps' (hand, hands)");
}

static void test_defaults_are_three_seats_three_cards_two_hands(void)
{
    game_config_t cfg = config(0, 1, NULL, NULL);
    char err[GAME_ERR_LEN];
    game_config_set_preset(&cfg, "standard", err, sizeof err);
    highcard_state_t st;
    CU_ASSERT_EQUAL_FATAL(G->init(&st, &cfg, err, sizeof err), 0);
    CU_ASSERT_EQUAL(G->num_players(&st), 3);
    CU_ASSERT_EQUAL(st.pub.rules.hand, 3);
    CU_ASSERT_EQUAL(st.pub.rules.hands, 2);
    CU_ASSERT_EQUAL(G->to_move(&st), GAME_CHANCE);
    highcard_view_t v;
    CU_ASSERT_EQUAL(G->view_init(&v, &cfg, 2, err, sizeof err), 0);
    CU_ASSERT_EQUAL(G->view_seat(&v), 2);
    CU_ASSERT_EQUAL(G->view_num_players(&v), 3);
    CU_ASSERT_EQUAL(G->view_init(&v, &cfg, 3, err, sizeof err), -1);
    CU_ASSERT_STRING_EQUAL(err, "highcard seats are 0 to 2, not 3");
}

static void expect_move_refused(const highcard_state_t *st, const game_move_t *m, const char *want)
{
    char err[GAME_ERR_LEN] = "";
    CU_ASSERT_EQUAL(G->is_legal(st, m, err, sizeof err), 0);
    if (!strstr(err, want))
        fprintf(stderr, "\n    want '%s', got '%s'\n", want, err);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, want));
}

static void test_is_legal_refuses_with_a_reason(void)
{
    table_t t;
    game_move_t m;
    char err[GAME_ERR_LEN];
    start(&t, 3, NULL, NULL, THREE);
    G->move_parse("play KS", &m, err, sizeof err);
    expect_move_refused(&t.st, &m, "KS is not in seat 0's hand");
    G->move_parse("play AS", &m, err, sizeof err);
    game_move_t bad = m;
    bad.kind = 9;
    expect_move_refused(&t.st, &bad, "unknown move kind 9");
    bad = m;
    bad.cards |= test_cards("TC");
    expect_move_refused(&t.st, &bad, "exactly one card");
    game_config_t cfg = config(3, 1, NULL, NULL);
    highcard_state_t fresh;
    G->init(&fresh, &cfg, err, sizeof err);
    expect_move_refused(&fresh, &m, "a deal is");
    /* An illegal move applied anyway changes nothing. */
    highcard_state_t before = t.st;
    G->move_parse("play KS", &m, err, sizeof err);
    CU_ASSERT_EQUAL(G->apply(&t.st, &m, NULL, 0), 0);
    CU_ASSERT_EQUAL(memcmp(&before, &t.st, sizeof before), 0);
}

static game_event_t parsed(const char *text, int seat)
{
    game_event_t ev;
    char err[GAME_ERR_LEN];
    if (G->event_parse(text, seat, &ev, err, sizeof err) < 0) {
        fprintf(stderr, "\n    '%s': %s\n", text, err);
        CU_FAIL("event did not parse");
    }
    return ev;
}

static int view_takes(const highcard_view_t *v, const char *text)
{
    highcard_view_t copy = *v;
    game_event_t ev = parsed(text, v->seat);
    return G->view_apply(&copy, &ev);
}

/* A view refuses what cannot follow from what its seat has seen. */
static void test_view_refuses_events_that_cannot_follow(void)
{
    table_t t;
    game_config_t cfg = config(3, 1, NULL, NULL);
    char err[GAME_ERR_LEN];
    highcard_view_t v;
    G->view_init(&v, &cfg, 0, err, sizeof err);
    CU_ASSERT_EQUAL(view_takes(&v, "play 0 AS"), -1);        /* no hand yet */
    CU_ASSERT_EQUAL(view_takes(&v, "hand 2 leader 1"), -1);  /* hand 1 first */
    CU_ASSERT_EQUAL(view_takes(&v, "hand 1 leader 1"), -1);  /* seat 0 leads hand 1 */
    CU_ASSERT_EQUAL(view_takes(&v, "hand 1 leader 0"), 0);
    CU_ASSERT_EQUAL(view_takes(&v, "game-end rank 0 0 0"), -1);
    game_event_t h = parsed("hand 1 leader 0", 0);
    G->view_apply(&v, &h);
    CU_ASSERT_EQUAL(view_takes(&v, "turn 0"), -1);           /* its deal first */
    CU_ASSERT_EQUAL(view_takes(&v, "dealt 0 AS KS"), -1);    /* three cards */
    CU_ASSERT_EQUAL(view_takes(&v, "dealt 0 AS KS 2C"), -1); /* not in the pack */
    CU_ASSERT_EQUAL(view_takes(&v, "dealt 0 AS KS QS"), 0);
    game_event_t other = { HC_EV_DEALT, 1, 1, 0, 0, 0, 0, 0, test_cards("9C TC JC") };
    CU_ASSERT_EQUAL(G->view_apply(&v, &other), -1);          /* another seat's deal */

    start(&t, 3, NULL, NULL, THREE);
    CU_ASSERT_EQUAL(view_takes(&t.v[0], "dealt 0 AS 9C TC"), -1); /* dealt twice */
    CU_ASSERT_EQUAL(view_takes(&t.v[1], "turn 1"), -1);      /* seat 0 is to play */
    CU_ASSERT_EQUAL(view_takes(&t.v[1], "play 1 KS"), -1);   /* not seat 1's turn */
    CU_ASSERT_EQUAL(view_takes(&t.v[1], "play 0 KS"), -1);   /* seat 1 holds KS itself */
    CU_ASSERT_EQUAL(view_takes(&t.v[0], "play 0 JS"), -1);   /* seat 0 does not hold JS */
    CU_ASSERT_EQUAL(view_takes(&t.v[1], "play 0 2S"), -1);   /* not in the pack */
    CU_ASSERT_EQUAL(view_takes(&t.v[1], "round 1 won-by 0"), -1);
    CU_ASSERT_EQUAL(view_takes(&t.v[1], "play 0 JS"), 0);    /* any unseen card */
    play(&t, "play AS");
    CU_ASSERT_EQUAL(view_takes(&t.v[1], "play 0 AS"), -1);   /* played already */
    play(&t, "play KS");
    play(&t, "play 9H");
    CU_ASSERT_EQUAL(t.st.pub.score[0], 1);
    game_event_t junk = { 0, GAME_ALL, 0, 0, 0, 0, 0, 0, 0 };
    CU_ASSERT_EQUAL(G->view_apply(&t.v[1], &junk), -1);
    game_event_t stray = parsed("turn 0", 1);
    stray.c = 5; /* a field the event does not use */
    CU_ASSERT_EQUAL(G->view_apply(&t.v[1], &stray), -1);
    highcard_view_t copy = t.v[1];
    copy.hand ^= test_cards("9D");
    CU_ASSERT_STRING_EQUAL(G->view_diff(&copy, &t.v[1]), "hand");
}

/* ---------------------------------------------------------------- notation */

static void test_moves_read_back_as_themselves(void)
{
    char text[32], err[GAME_ERR_LEN];
    int n = 0;
    for (cardset_t c = highcard_pack(); c; c &= c - 1, n++) {
        game_move_t m = { HC_MV_PLAY, (int16_t)cardset_first(c), 0, cardset_of(cardset_first(c)) }, back;
        G->move_format(&m, text, sizeof text);
        CU_ASSERT_EQUAL(G->move_parse(text, &back, err, sizeof err), 0);
        CU_ASSERT_EQUAL(memcmp(&m, &back, sizeof m), 0);
    }
    CU_ASSERT_EQUAL(n, HC_PACK_SIZE);
    game_move_t m;
    CU_ASSERT_EQUAL(G->move_parse("play 10h", &m, err, sizeof err), 0);
    G->move_format(&m, text, sizeof text);
    CU_ASSERT_STRING_EQUAL(text, "play TH");
    CU_ASSERT_EQUAL(G->move_parse("play", &m, err, sizeof err), -1);
    CU_ASSERT_EQUAL(G->move_parse("play AS KS", &m, err, sizeof err), -1);
    CU_ASSERT_EQUAL(G->move_parse("play XX", &m, err, sizeof err), -1);
    CU_ASSERT_EQUAL(G->move_parse("discard AS", &m, err, sizeof err), -1);
    CU_ASSERT_STRING_EQUAL(err, "unknown move 'discard' (play)");
    CU_ASSERT_EQUAL(G->move_parse("", &m, err, sizeof err), -1);
}

static void expect_event_refused(const char *text, int seat, const char *want)
{
    game_event_t ev;
    char err[GAME_ERR_LEN] = "";
    CU_ASSERT_EQUAL(G->event_parse(text, seat, &ev, err, sizeof err), -1);
    if (!strstr(err, want))
        fprintf(stderr, "\n    '%s': want '%s', got '%s'\n", text, want, err);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, want));
}

static void test_event_parse_refuses_bad_text(void)
{
    expect_event_refused("dealt 1 AS KS QS", 0, "'dealt' is private to seat 1, not for seat 0");
    expect_event_refused("fanfare 1", 0, "unknown event 'fanfare'");
    expect_event_refused("round 1 won-by", 0, "malformed 'round' event");
    expect_event_refused("round 0 tie", 0, "malformed 'round' event");
    expect_event_refused("game-end rank", 0, "malformed 'game-end' event");
    expect_event_refused("game-end rank 0 3", 0, "malformed 'game-end' event");
    expect_event_refused("play 0 AS KS", 0, "malformed 'play' event");
    expect_event_refused("dealt 0 AS AS", 0, "malformed 'dealt' event");
    expect_event_refused("turn 9", 0, "malformed 'turn' event");
    expect_event_refused("hand-end now", 0, "malformed 'hand-end' event");
    expect_event_refused("", 0, "empty");
    char big[2000];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    expect_event_refused(big, 0, "overlong");
}

/* ---------------------------------------------------------------- random games, checked at every step */

typedef struct checks {
    long steps, events, kinds[HC_EV_COUNT], ties;
    int bad_views, bad_oracle, bad_text, bad_moves;
} checks_t;

/* Plays one game of random moves; every seat's view is fed its events. Checks, at every step:
 * each event read back from its text as its seat receives it (and refused by any other seat if
 * private); the oracle (a seat is shown only its own cards and the card just played); each view
 * equal to view_from_state; the view's moves equal to the truth's for the seat to move. */
static void random_game(int players, const char *flag1, const char *flag2, uint64_t seed, checks_t *ck)
{
    game_config_t cfg = config(players, seed, flag1, flag2);
    char err[GAME_ERR_LEN];
    highcard_state_t st;
    highcard_view_t v[HC_MAX_PLAYERS];
    CU_ASSERT_EQUAL_FATAL(G->init(&st, &cfg, err, sizeof err), 0);
    for (int s = 0; s < players; s++)
        CU_ASSERT_EQUAL_FATAL(G->view_init(&v[s], &cfg, s, err, sizeof err), 0);
    rng_t rng;
    rng_seed(&rng, seed * 31 + 7);
    game_event_t ev[GAME_MAX_EVENTS];
    int who;
    for (int steps = 0; (who = G->to_move(&st)) != GAME_OVER; steps++) {
        CU_ASSERT_FATAL(steps < 100000); /* a game that never ends is a failure, not a hang */
        highcard_state_t before = st;
        cardset_t played = 0;
        int n;
        if (who == GAME_CHANCE) {
            n = G->apply_chance(&st, NULL, ev, GAME_MAX_EVENTS);
        } else {
            game_move_t m, legal[32], vlegal[32];
            CU_ASSERT_EQUAL_FATAL(G->random_move(&st, &rng, &m), 0);
            CU_ASSERT_FATAL(G->is_legal(&st, &m, err, sizeof err));
            int nl = G->legal_moves(&st, legal, 32), nv = G->view_legal_moves(&v[who], vlegal, 32);
            if (nl != nv || memcmp(legal, vlegal, sizeof legal[0] * (size_t)nl) != 0)
                ck->bad_moves++;
            played = m.cards;
            n = G->apply(&st, &m, ev, GAME_MAX_EVENTS);
        }
        CU_ASSERT_FATAL(n > 0 && n <= GAME_MAX_EVENTS);
        ck->steps++;
        for (int i = 0; i < n; i++) {
            ck->events++;
            if (ev[i].type < HC_EV_COUNT)
                ck->kinds[ev[i].type]++;
            ck->ties += ev[i].type == HC_EV_ROUND && ev[i].seat < 0;
            char text[256];
            G->event_format(&ev[i], text, sizeof text);
            for (int s = 0; s < players; s++) {
                game_event_t back;
                if (!game_event_visible(&ev[i], s)) {
                    if (G->event_parse(text, s, &back, err, sizeof err) == 0)
                        ck->bad_text++;
                    continue;
                }
                if (G->event_parse(text, s, &back, err, sizeof err) < 0 || memcmp(&back, &ev[i], sizeof back) != 0) {
                    if (ck->bad_text++ == 0)
                        fprintf(stderr, "\n    '%s' does not read back for seat %d\n", text, s);
                }
                /* The oracle: from the true hands and the move, never from a view. */
                cardset_t may_see = before.hand[s] | st.hand[s] | played;
                cardset_t shown = ev[i].cards;
                if (ev[i].type == HC_EV_PLAY)
                    shown |= cardset_of(ev[i].arg);
                if (shown & ~may_see) {
                    if (ck->bad_oracle++ == 0)
                        fprintf(stderr, "\n    seat %d was shown '%s'\n", s, text);
                }
                if (G->view_apply(&v[s], &ev[i]) < 0)
                    ck->bad_views++;
            }
        }
        for (int s = 0; s < players; s++) {
            highcard_view_t truth;
            G->view_from_state(&st, s, &truth);
            const char *d = G->view_diff(&v[s], &truth);
            if (d && ck->bad_views++ == 0)
                fprintf(stderr, "\n    seat %d's view differs in %s\n", s, d);
            if (G->view_to_move(&v[s]) != G->to_move(&st))
                ck->bad_views++;
        }
    }
}

static void random_games(int players, int games, checks_t *ck)
{
    static const char *const flags[][2] = { { NULL, NULL }, { "hand=1", "hands=3" }, { "hand=6", "hands=1" } };
    memset(ck, 0, sizeof *ck);
    for (int i = 0; i < games; i++)
        random_game(players, flags[i % 3][0], flags[i % 3][1], (uint64_t)(1000 * players + i), ck);
}

static void test_views_from_events_equal_views_from_the_state(void)
{
    for (int players = 2; players <= 4; players++) {
        checks_t ck;
        random_games(players, 600, &ck);
        CU_ASSERT_EQUAL(ck.bad_views, 0);
        CU_ASSERT_EQUAL(ck.bad_moves, 0);
        CU_ASSERT(ck.steps > 600 * 5);
    }
}

static void test_no_event_shows_a_seat_a_card_before_it_is_played(void)
{
    for (int players = 2; players <= 4; players++) {
        checks_t ck;
        random_games(players, 600, &ck);
        CU_ASSERT_EQUAL(ck.bad_oracle, 0);
    }
}

static void test_every_event_kind_reads_back_as_each_seat_receives_it(void)
{
    for (int players = 2; players <= 4; players++) {
        checks_t ck;
        random_games(players, 600, &ck);
        CU_ASSERT_EQUAL(ck.bad_text, 0);
        for (int k = 1; k < HC_EV_COUNT; k++)
            CU_ASSERT(ck.kinds[k] > 0);
        CU_ASSERT(ck.ties > 0); /* "round N tie" too */
    }
}

/* ---------------------------------------------------------------- worlds */

static int world_fits(const highcard_view_t *v, const highcard_state_t *w)
{
    highcard_view_t seen;
    G->view_from_state(w, v->seat, &seen);
    if (G->view_diff(&seen, v))
        return 0;
    cardset_t all = w->pub.played;
    for (int s = 0; s < w->pub.rules.players; s++) {
        if (all & w->hand[s])
            return 0;
        all |= w->hand[s];
        int want = w->pub.need == HC_NEED_HAND || w->pub.hand_no == 0
                       ? 0
                       : w->pub.rules.hand - w->pub.round_no - (w->pub.round_card[s] >= 0);
        if (cardset_count(w->hand[s]) != want)
            return 0;
    }
    return (all & ~highcard_pack()) == 0;
}

/* Every world fits the view, and play goes on from it to the end. */
static void test_every_world_fits_the_view(void)
{
    int bad = 0, worlds = 0;
    rng_t rng;
    rng_seed(&rng, 11);
    for (int players = 2; players <= 4; players++)
        for (int g = 0; g < 40; g++) {
            game_config_t cfg = config(players, (uint64_t)g, g % 2 ? "hand=4" : NULL, NULL);
            char err[GAME_ERR_LEN];
            highcard_state_t st;
            G->init(&st, &cfg, err, sizeof err);
            for (;;) {
                for (int s = 0; s < players; s++) {
                    highcard_view_t v;
                    highcard_state_t w;
                    G->view_from_state(&st, s, &v);
                    for (int k = 0; k < 3; k++, worlds++) {
                        if (G->sample_world(&v, &rng, &w) < 0 || !world_fits(&v, &w)) {
                            bad++;
                            continue;
                        }
                        for (int steps = 0; G->to_move(&w) != GAME_OVER && steps < 100000; steps++) {
                            game_move_t m;
                            if (G->to_move(&w) == GAME_CHANCE)
                                G->apply_chance(&w, NULL, NULL, 0);
                            else if (G->random_move(&w, &rng, &m) < 0 || !G->is_legal(&w, &m, err, sizeof err))
                                break;
                            else
                                G->apply(&w, &m, NULL, 0);
                        }
                        bad += G->to_move(&w) != GAME_OVER;
                    }
                }
                int who = G->to_move(&st);
                if (who == GAME_OVER)
                    break;
                game_move_t m;
                if (who == GAME_CHANCE)
                    G->apply_chance(&st, NULL, NULL, 0);
                else if (G->random_move(&st, &rng, &m) == 0)
                    G->apply(&st, &m, NULL, 0);
                else
                    CU_FAIL_FATAL("the seat to move has no move");
            }
        }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT(worlds > 1000);
}

static void test_same_seed_same_world(void)
{
    table_t t;
    start(&t, 3, NULL, NULL, THREE);
    play(&t, "play AS");
    rng_t a, b, c;
    rng_seed(&a, 42);
    rng_seed(&b, 42);
    rng_seed(&c, 43);
    highcard_state_t wa, wb, wc;
    CU_ASSERT_EQUAL(G->sample_world(&t.v[1], &a, &wa), 0);
    CU_ASSERT_EQUAL(G->sample_world(&t.v[1], &b, &wb), 0);
    CU_ASSERT_EQUAL(G->sample_world(&t.v[1], &c, &wc), 0);
    CU_ASSERT_EQUAL(memcmp(&wa, &wb, sizeof wa), 0);
    CU_ASSERT_NOT_EQUAL(memcmp(&wa, &wc, sizeof wa), 0);
    /* The future is reseeded from rng: not the true game's deal seed. */
    CU_ASSERT_NOT_EQUAL(wa.deal_seed, t.st.deal_seed);
    CU_ASSERT_NOT_EQUAL(wa.deal_seed, wc.deal_seed);
}

/* A world in which the view's seat's own deal is still owed cannot be drawn. */
static void test_no_world_while_the_deal_is_owed(void)
{
    game_config_t cfg = config(3, 1, NULL, NULL);
    char err[GAME_ERR_LEN];
    highcard_view_t v;
    highcard_state_t w;
    rng_t rng;
    rng_seed(&rng, 1);
    G->view_init(&v, &cfg, 0, err, sizeof err);
    CU_ASSERT_EQUAL(G->sample_world(&v, &rng, &w), 0); /* before any deal: the empty table */
    CU_ASSERT(world_fits(&v, &w));
    game_event_t h = parsed("hand 1 leader 0", 0);
    G->view_apply(&v, &h);
    CU_ASSERT_EQUAL(G->sample_world(&v, &rng, &w), -1);
}

typedef int (*sampler_fn)(const void *view, rng_t *rng, void *state_out);

/* A deliberately biased sampler: a fair world, but the lowest unseen card is moved out of the
 * undealt cards into the first other seat's hand half the time. */
static int biased_sampler(const void *view, rng_t *rng, void *state_out)
{
    const highcard_view_t *v = view;
    highcard_state_t *w = state_out;
    if (G->sample_world(view, rng, state_out) < 0)
        return -1;
    cardset_t unseen = highcard_pack() & ~v->pub.played & ~v->hand, dealt = 0;
    for (int s = 0; s < v->pub.rules.players; s++)
        dealt |= w->hand[s];
    int low = cardset_first(unseen), other = v->seat == 0 ? 1 : 0;
    if (!cardset_has(dealt, low) && w->hand[other] && rng_below(rng, 2) == 0) {
        w->hand[other] &= w->hand[other] - 1;
        w->hand[other] |= cardset_of(low);
    }
    return 0;
}

/* The largest chi-square statistic, over the unseen cards, of which seat (or nobody) holds the
 * card, against the exact chances: seat s holds a given unseen card with chance k_s / unseen. */
static double worst_chi_square(sampler_fn sample, const highcard_view_t *v, int n)
{
    const highcard_pub_t *p = &v->pub;
    cardset_t unseen = highcard_pack() & ~p->played & ~v->hand;
    int u = cardset_count(unseen), cats = p->rules.players + 1; /* each seat, and undealt */
    static long count[CARD_COUNT][HC_MAX_PLAYERS + 1];
    double expect[HC_MAX_PLAYERS + 1];
    memset(count, 0, sizeof count);
    double rest = 1.0;
    for (int s = 0; s < p->rules.players; s++) {
        int k = s == v->seat ? 0 : p->rules.hand - p->round_no - (p->round_card[s] >= 0);
        expect[s] = (double)k / u;
        rest -= expect[s];
    }
    expect[p->rules.players] = rest;
    rng_t rng;
    rng_seed(&rng, 2024);
    for (int i = 0; i < n; i++) {
        highcard_state_t w;
        if (sample(v, &rng, &w) < 0)
            return INFINITY;
        for (cardset_t c = unseen; c; c &= c - 1) {
            int card = cardset_first(c), holder = p->rules.players;
            for (int s = 0; s < p->rules.players; s++)
                if (cardset_has(w.hand[s], card))
                    holder = s;
            count[card][holder]++;
        }
    }
    double worst = 0;
    for (cardset_t c = unseen; c; c &= c - 1) {
        double chi = 0;
        for (int k = 0; k < cats; k++) {
            double e = expect[k] * n;
            if (e > 0)
                chi += (count[cardset_first(c)][k] - e) * (count[cardset_first(c)][k] - e) / e;
            else if (count[cardset_first(c)][k])
                return INFINITY; /* a card where it cannot be */
        }
        if (chi > worst)
            worst = chi;
    }
    return worst;
}

/* Worlds are uniform: every unseen card lies with each other seat, or undealt, in proportion to
 * the cards each has unknown. A chi-square statistic with at most 4 degrees of freedom above 30
 * has a chance under 1e-5 for a fair sampler; the biased one must be caught by the same test. */
static void test_unseen_cards_are_dealt_uniformly(void)
{
    /* Four seats of five cards (4 undealt); seat 0 looks after seat 2 led a card in round 2. */
    table_t t;
    const char *const hands[] = { "9C TC JC QC KC", "9D TD JD QD KD", "9H TH JH QH KH", "9S TS JS QS KS" };
    start(&t, 4, "hand=5", "hands=1", hands);
    play(&t, "play KC");
    play(&t, "play 9D");
    play(&t, "play 9H");
    play(&t, "play 9S"); /* seat 0 wins */
    play(&t, "play 9C");
    play(&t, "play TD");
    double fair = worst_chi_square(G->sample_world, &t.v[2], 20000);
    double biased = worst_chi_square(biased_sampler, &t.v[2], 20000);
    if (fair >= 30.0 || biased < 30.0)
        fprintf(stderr, "\n    chi-square: fair %.1f, biased %.1f\n", fair, biased);
    CU_ASSERT(fair < 30.0);
    CU_ASSERT(biased >= 30.0);
    /* Three seats of three, right after the deal, seen by seat 1. */
    start(&t, 3, NULL, NULL, THREE);
    CU_ASSERT(worst_chi_square(G->sample_world, &t.v[1], 20000) < 30.0);
    CU_ASSERT(worst_chi_square(biased_sampler, &t.v[1], 20000) >= 30.0);
}

/* ---------------------------------------------------------------- the heuristic */

static int best_move(const highcard_view_t *v, const double *params)
{
    game_move_t moves[32];
    double values[32];
    int n = G->view_legal_moves(v, moves, 32), best = 0;
    CU_ASSERT_FATAL(n > 0);
    G->heuristic_evaluate(v, params, moves, n, values);
    for (int i = 1; i < n; i++)
        if (values[i] > values[best])
            best = i;
    return moves[best].arg;
}

static void test_heuristic_declares_its_aggression(void)
{
    CU_ASSERT_EQUAL(G->n_heuristic_params, 1);
    CU_ASSERT_PTR_EQUAL(G->heuristic_params, HC_PARAMS);
    const game_param_t *p = &G->heuristic_params[0];
    CU_ASSERT_STRING_EQUAL(p->name, "aggression");
    CU_ASSERT(p->min <= p->def && p->def <= p->max);
    CU_ASSERT_PTR_NOT_NULL(p->help);
}

static void test_heuristic_plays_its_highest_when_it_surely_wins(void)
{
    table_t t;
    const char *const hands[] = { "9C TC JC", "9D TD JD", "AS 9S TS" };
    start(&t, 3, NULL, NULL, hands);
    play(&t, "play JC");
    play(&t, "play JD");
    CU_ASSERT_DOUBLE_EQUAL(highcard_win_chance(&t.v[2]), 1.0, 1e-12);
    CU_ASSERT_EQUAL(best_move(&t.v[2], NULL), card_parse("AS", 2));
}

static void test_heuristic_plays_its_lowest_when_it_cannot_win(void)
{
    table_t t;
    const char *const hands[] = { "AC TC JC", "9D TD JD", "KS 9S QS" };
    start(&t, 3, NULL, NULL, hands);
    play(&t, "play AC");
    play(&t, "play JD");
    CU_ASSERT_DOUBLE_EQUAL(highcard_win_chance(&t.v[2]), 0.0, 1e-12);
    CU_ASSERT_EQUAL(best_move(&t.v[2], NULL), card_parse("9S", 2));
}

/* Leading KS with 2 x 3 unknown cards to come among 21 unseen, 7 of them K or A: the chance to
 * win is C(14,6)/C(21,6) = 3003/54264. Cautious play leads low; aggression 0.97 leads the King. */
static void test_heuristic_honours_aggression(void)
{
    table_t t;
    const char *const hands[] = { "KS 9C TC", "9D TD JD", "9H TH JH" };
    start(&t, 3, NULL, NULL, hands);
    CU_ASSERT_DOUBLE_EQUAL(highcard_win_chance(&t.v[0]), 3003.0 / 54264.0, 1e-12);
    double cautious = 0.5, bold = 0.97, none = 0.0, all = 1.0;
    CU_ASSERT_EQUAL(best_move(&t.v[0], NULL), card_parse("9C", 2));
    CU_ASSERT_EQUAL(best_move(&t.v[0], &cautious), card_parse("9C", 2));
    CU_ASSERT_EQUAL(best_move(&t.v[0], &bold), card_parse("KS", 2));
    CU_ASSERT_EQUAL(best_move(&t.v[0], &all), card_parse("KS", 2));
    CU_ASSERT_EQUAL(best_move(&t.v[0], &none), card_parse("9C", 2));
}

/* ---------------------------------------------------------------- through the referee */

static int ranks_fit_scores(const highcard_state_t *st)
{
    int rank[HC_MAX_PLAYERS], scores[HC_MAX_PLAYERS], n = G->num_players(st), total = 0;
    if (!G->rank(st, rank))
        return 0;
    G->scores(st, scores);
    for (int i = 0; i < n; i++) {
        int above = 0;
        for (int j = 0; j < n; j++)
            above += scores[j] > scores[i];
        if (rank[i] != above)
            return 0;
        total += scores[i];
    }
    return total <= st->pub.rules.hand * st->pub.rules.hands;
}

typedef struct counter {
    long events, moves;
} counter_t;

static void count_event(void *data, const game_event_t *ev)
{
    (void)ev;
    ((counter_t *)data)->events++;
}

static void count_move(void *data, const void *state, int seat, const game_move_t *m)
{
    (void)state;
    (void)seat;
    (void)m;
    ((counter_t *)data)->moves++;
}

static void test_bots_play_three_seats_through_the_referee(void)
{
    char err[GAME_ERR_LEN];
    double ret_sum[3] = { 0 };
    int games = 300;
    for (int g = 0; g < games; g++) {
        bot_t *bots[3];
        /* Seat g%3 is the random bot: every seat plays each bot. */
        for (int s = 0; s < 3; s++)
            bots[s] = bot_create(s == g % 3 ? "random" : "heuristic", G, (uint64_t)(g * 3 + s), err, sizeof err);
        game_config_t cfg = config(3, (uint64_t)g, NULL, NULL);
        highcard_state_t st;
        counter_t c = { 0, 0 };
        referee_hooks_t hooks = { count_event, count_move, &c };
        int rc = match_play(G, &cfg, bots, &st, &hooks, err, sizeof err);
        if (rc < 0)
            fprintf(stderr, "\n    game %d: %s\n", g, err);
        CU_ASSERT_EQUAL(rc, 0);
        CU_ASSERT_EQUAL(G->to_move(&st), GAME_OVER);
        CU_ASSERT(ranks_fit_scores(&st));
        CU_ASSERT_EQUAL(c.moves, 3 * 3 * 2);
        CU_ASSERT(c.events > c.moves);
        double ret[3];
        CU_ASSERT_EQUAL(game_returns(G, &st, ret), 0);
        ret_sum[0] += ret[g % 3];
        ret_sum[1] += ret[(g + 1) % 3];
        for (int s = 0; s < 3; s++)
            bot_free(bots[s]);
    }
    /* The heuristic does better than random play (a sanity check, not a strength claim). */
    CU_ASSERT(ret_sum[1] > ret_sum[0]);
}

/* ---------------------------------------------------------------- records */

typedef struct record_sink {
    FILE *f;
} record_sink_t;

static void write_move(void *data, const void *state, int seat, const game_move_t *m)
{
    (void)state;
    record_write_move(((record_sink_t *)data)->f, G, seat, m);
}

/* Plays a game of bots into a record (as the arena writes one); returns its text (malloc). */
static char *play_record(int players, uint64_t seed, highcard_state_t *st)
{
    char *buf = NULL, err[GAME_ERR_LEN];
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    game_config_t cfg = config(players, seed, "hand=2", NULL);
    bot_t *bots[HC_MAX_PLAYERS];
    for (int s = 0; s < players; s++)
        bots[s] = bot_create(s % 2 ? "random" : "heuristic", G, seed + (uint64_t)s, err, sizeof err);
    record_write_header(f, G, &cfg);
    record_sink_t sink = { f };
    referee_hooks_t hooks = { NULL, write_move, &sink };
    CU_ASSERT_EQUAL(match_play(G, &cfg, bots, st, &hooks, err, sizeof err), 0);
    record_write_result(f, G, st);
    fclose(f);
    for (int s = 0; s < players; s++)
        bot_free(bots[s]);
    char *text = strdup(buf ? buf : "");
    free(buf);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    return text;
}

static int replay(const char *text, highcard_state_t *out, char *err, size_t errlen)
{
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    record_t rec;
    int rc = record_replay(f, &rec, NULL, NULL, err, errlen);
    if (rc == 0 && out)
        memcpy(out, rec.state, sizeof *out);
    record_free(&rec);
    fclose(f);
    return rc;
}

static void test_a_record_replays_to_the_same_game(void)
{
    highcard_state_t st, back;
    char err[256];
    char *text = play_record(3, 5, &st);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "game highcard\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "players 3\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "\nresult "));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, " rank "));
    int rc = replay(text, &back, err, sizeof err);
    if (rc < 0)
        fprintf(stderr, "\n    %s\n%s", err, text);
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT_EQUAL(memcmp(&st, &back, sizeof st), 0);
    free(text);
}

/* A tie is written "rank 0 0 2" (or "rank 0 0" for two seats) and replays; a wrong rank does not. */
static void test_a_tie_written_as_rank_replays(void)
{
    for (int players = 2; players <= 3; players++) {
        int found = 0;
        for (uint64_t seed = 1; seed < 200 && !found; seed++) {
            highcard_state_t st;
            char *text = play_record(players, seed, &st);
            int rank[HC_MAX_PLAYERS];
            G->rank(&st, rank);
            if (rank[0] == rank[1]) {
                found = 1;
                char err[256];
                CU_ASSERT_PTR_NULL(strstr(text, "winner"));
                CU_ASSERT_EQUAL(replay(text, NULL, err, sizeof err), 0);
                char *r = strstr(text, " rank ");
                CU_ASSERT_PTR_NOT_NULL_FATAL(r);
                r[6] = r[6] == '0' ? '1' : '0'; /* seat 0's rank, changed */
                CU_ASSERT_EQUAL(replay(text, NULL, err, sizeof err), -1);
                CU_ASSERT_PTR_NOT_NULL(strstr(err, "result says seat 0 ranks"));
            }
            free(text);
        }
        CU_ASSERT(found);
    }
}

/* ---------------------------------------------------------------- real engine processes */

typedef struct engine_seat {
    client_t c;
    long next_id;
    int errors, sent;
    int advertises;
    char line[PROTO_MAX_LINE + 1];
} engine_seat_t;

static void on_engine_line(void *data, const char *line)
{
    engine_seat_t *e = data;
    if (line[0] == '?') {
        if (e->errors++ == 0)
            fprintf(stderr, "\n    engine: %s\n", line);
    }
    if (strcmp(line, "game highcard") == 0)
        e->advertises = 1;
}

static int engine_event(void *data, const game_event_t *ev, char *err, size_t errlen)
{
    engine_seat_t *e = data;
    char text[512], line[600];
    G->event_format(ev, text, sizeof text);
    snprintf(line, sizeof line, "event %s", text);
    e->sent++;
    if (client_send(&e->c, line) < 0) {
        snprintf(err, errlen, "the engine has gone");
        return -1;
    }
    return 0;
}

static int engine_decide(void *data, game_move_t *out, char *err, size_t errlen)
{
    engine_seat_t *e = data;
    char cmd[32];
    long id = ++e->next_id;
    snprintf(cmd, sizeof cmd, "%ld go", id);
    if (client_send(&e->c, cmd) < 0 || client_await_reply(&e->c, e->line, 5000, id, on_engine_line, e) != 1) {
        snprintf(err, errlen, "no move: %.200s", e->line);
        return -1;
    }
    int ok;
    long rid;
    const char *text;
    if (!proto_parse_reply(e->line, &ok, &rid, &text) || strncmp(text, "move ", 5) != 0 ||
        G->move_parse(text + 5, out, err, errlen) < 0) {
        snprintf(err, errlen, "bad reply: %.200s", e->line);
        return -1;
    }
    return 0;
}

/* Three picket-engine processes, one a seat, play highcard over the protocol; the referee is
 * here, routing each seat only its events and checking every move. */
static void test_three_engine_processes_play_a_game(void)
{
    const char *bin = getenv("PICKET_ENGINE");
    char *argv[] = { (char *)(bin ? bin : "build/tools/picket-engine"), NULL };
    engine_seat_t *e = calloc(3, sizeof *e);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    char err[256], cmd[128];
    int started = 0;
    for (int s = 0; s < 3; s++) {
        if (client_start_opts(&e[s].c, argv, NULL, err, sizeof err) < 0) {
            fprintf(stderr, "\n    %s\n", err);
            break;
        }
        started++;
        client_send(&e[s].c, "1 hello");
        e[s].next_id = 1;
        CU_ASSERT_EQUAL(client_await_reply(&e[s].c, e[s].line, 5000, 1, on_engine_line, &e[s]), 1);
        CU_ASSERT(e[s].advertises);
        if (s == 1)
            client_send(&e[s].c, "setoption name bot value random");
    }
    CU_ASSERT_EQUAL_FATAL(started, 3);
    for (uint64_t game = 1; game <= 4; game++) {
        game_config_t cfg = config(3, 900 + game, game % 2 ? NULL : "hand=5", NULL);
        char why[GAME_ERR_LEN];
        referee_t *r = referee_create(G, &cfg, why, sizeof why);
        CU_ASSERT_PTR_NOT_NULL_FATAL(r);
        for (int s = 0; s < 3; s++) {
            snprintf(cmd, sizeof cmd, "newgame game highcard players 3 %sseat %d seed %d",
                     game % 2 ? "" : "flag hand=5 ", s, (int)game * 10 + s);
            client_send(&e[s].c, cmd);
            referee_seat_t rs = { engine_event, engine_decide, &e[s] };
            referee_set_seat(r, s, &rs);
        }
        referee_status_t st;
        int steps = 0;
        while ((st = referee_step(r)) == REFEREE_STEPPED && ++steps < 100000)
            ;
        if (st != REFEREE_OVER)
            fprintf(stderr, "\n    game %d: %s\n", (int)game, referee_fault(r)->text);
        CU_ASSERT_EQUAL(st, REFEREE_OVER);
        CU_ASSERT(ranks_fit_scores(referee_state(r)));
        CU_ASSERT_EQUAL(referee_moves(r), 3 * (game % 2 ? 3 : 5) * 2);
        /* Every silent line was accepted: nothing but readyok comes back. */
        for (int s = 0; s < 3; s++) {
            long id = ++e[s].next_id;
            snprintf(cmd, sizeof cmd, "%ld isready", id);
            client_send(&e[s].c, cmd);
            CU_ASSERT_EQUAL(client_await_reply(&e[s].c, e[s].line, 5000, id, on_engine_line, &e[s]), 1);
            CU_ASSERT_EQUAL(e[s].errors, 0);
            CU_ASSERT(e[s].sent > 0);
        }
        referee_free(r);
    }
    for (int s = 0; s < 3; s++) {
        client_stop(&e[s].c, 2000);
        CU_ASSERT(WIFEXITED(e[s].c.exit_status) && WEXITSTATUS(e[s].c.exit_status) == 0);
    }
    free(e);
}

int main(void)
{
    G = game_find("highcard");
    if (!G) {
        fprintf(stderr, "highcard is not in the registry\n");
        return 1;
    }
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("highcard rules", NULL, NULL);
    CU_add_test(s, "the registry finds highcard with every hook", test_the_registry_finds_highcard_with_every_hook);
    CU_add_test(s, "the deal tells each seat its own hand", test_the_deal_tells_each_seat_its_own_hand);
    CU_add_test(s, "the highest rank wins the round and scores one", test_the_highest_rank_wins_the_round_and_scores_one);
    CU_add_test(s, "any card may be played", test_any_card_may_be_played);
    CU_add_test(s, "a tie in the highest rank wins nobody the round", test_a_tie_in_the_highest_rank_wins_nobody_the_round);
    CU_add_test(s, "the winner leads the next round", test_the_winner_leads_the_next_round);
    CU_add_test(s, "hands rotate the lead and the game ends", test_hands_rotate_the_lead_and_the_game_ends);
    CU_add_test(s, "rank shares ties and skips", test_rank_shares_ties_and_skips);
    CU_add_test(s, "the deal follows the deal seed", test_the_deal_follows_the_deal_seed);
    CU_add_test(s, "random move is uniform over the hand", test_random_move_is_uniform_over_the_hand);
    s = CU_add_suite("highcard refusals", NULL, NULL);
    CU_add_test(s, "init refuses bad configs in one line", test_init_refuses_bad_configs_in_one_line);
    CU_add_test(s, "defaults are three seats, three cards, two hands", test_defaults_are_three_seats_three_cards_two_hands);
    CU_add_test(s, "is_legal refuses with a reason", test_is_legal_refuses_with_a_reason);
    CU_add_test(s, "view refuses events that cannot follow", test_view_refuses_events_that_cannot_follow);
    CU_add_test(s, "event parse refuses bad text", test_event_parse_refuses_bad_text);
    s = CU_add_suite("highcard notation and views", NULL, NULL);
    CU_add_test(s, "moves read back as themselves", test_moves_read_back_as_themselves);
    CU_add_test(s, "every event kind reads back as each seat receives it", test_every_event_kind_reads_back_as_each_seat_receives_it);
    CU_add_test(s, "views from events equal views from the state", test_views_from_events_equal_views_from_the_state);
    CU_add_test(s, "no event shows a seat a card before it is played", test_no_event_shows_a_seat_a_card_before_it_is_played);
    s = CU_add_suite("highcard worlds", NULL, NULL);
    CU_add_test(s, "every world fits the view", test_every_world_fits_the_view);
    CU_add_test(s, "same seed same world", test_same_seed_same_world);
    CU_add_test(s, "no world while the deal is owed", test_no_world_while_the_deal_is_owed);
    CU_add_test(s, "unseen cards are dealt uniformly", test_unseen_cards_are_dealt_uniformly);
    s = CU_add_suite("highcard heuristic", NULL, NULL);
    CU_add_test(s, "heuristic declares its aggression", test_heuristic_declares_its_aggression);
    CU_add_test(s, "heuristic plays its highest when it surely wins", test_heuristic_plays_its_highest_when_it_surely_wins);
    CU_add_test(s, "heuristic plays its lowest when it cannot win", test_heuristic_plays_its_lowest_when_it_cannot_win);
    CU_add_test(s, "heuristic honours aggression", test_heuristic_honours_aggression);
    s = CU_add_suite("highcard end to end", NULL, NULL);
    CU_add_test(s, "bots play three seats through the referee", test_bots_play_three_seats_through_the_referee);
    CU_add_test(s, "a record replays to the same game", test_a_record_replays_to_the_same_game);
    CU_add_test(s, "a tie written as rank replays", test_a_tie_written_as_rank_replays);
    CU_add_test(s, "three engine processes play a game", test_three_engine_processes_play_a_game);
    return test_run_all();
}
