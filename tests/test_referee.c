/* The one referee (engine/referee.h): one step at a time, each seat told only what it may see,
 * every move checked, every failure a fault with the seat to blame, and one way of handling a
 * step that emits more events than the buffer holds. Played here with Picket, the game at hand;
 * tests/test_highcard.c plays it for three seats. */
#include <CUnit/CUnit.h>
#include <string.h>

#include "bot.h"
#include "match.h"
#include "picket.h"
#include "referee.h"
#include "test_util.h"

static game_config_t config(uint64_t deal_seed)
{
    game_config_t cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.deal_seed = deal_seed;
    return cfg;
}

/* A seat that records what it is told and plays the first legal move of its own view. */
typedef struct probe_seat {
    picket_view_t view;
    int seat, events, private_events, refuse_after, wait_turns, decisions;
} probe_seat_t;

static int probe_event(void *data, const game_event_t *ev, char *err, size_t errlen)
{
    probe_seat_t *p = data;
    CU_ASSERT(game_event_visible(ev, p->seat));
    p->events++;
    p->private_events += ev->audience == p->seat;
    if (p->refuse_after && p->events >= p->refuse_after) {
        snprintf(err, errlen, "seat %d refuses on purpose", p->seat);
        return -1;
    }
    CU_ASSERT_EQUAL(picket_view_apply(&p->view, ev), 0);
    return 0;
}

static int probe_decide(void *data, game_move_t *out, char *err, size_t errlen)
{
    probe_seat_t *p = data;
    (void)err;
    (void)errlen;
    if (p->wait_turns > 0) {
        p->wait_turns--;
        return 1; /* a person still thinking */
    }
    game_move_t moves[GAME_MAX_MOVES];
    int n = picket_view_legal_moves(&p->view, moves, GAME_MAX_MOVES);
    CU_ASSERT_FATAL(n > 0);
    p->decisions++;
    *out = moves[0];
    return 0;
}

static referee_t *table_of_probes(probe_seat_t probes[2], uint64_t seed)
{
    game_config_t cfg = config(seed);
    char err[160];
    referee_t *r = referee_create(&PICKET_GAME, &cfg, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    for (int s = 0; s < 2; s++) {
        memset(&probes[s], 0, sizeof probes[s]);
        probes[s].seat = s;
        CU_ASSERT_EQUAL(PICKET_GAME.view_init(&probes[s].view, &cfg, s, err, sizeof err), 0);
        referee_seat_t rs = { probe_event, probe_decide, &probes[s] };
        referee_set_seat(r, s, &rs);
    }
    return r;
}

static void test_plays_a_set_one_step_at_a_time(void)
{
    probe_seat_t probes[2];
    referee_t *r = table_of_probes(probes, 5);
    long steps = 0;
    referee_status_t st;
    while ((st = referee_step(r)) == REFEREE_STEPPED)
        steps++;
    CU_ASSERT_EQUAL(st, REFEREE_OVER);
    CU_ASSERT_EQUAL(steps + 1, referee_moves(r) + referee_chances(r));
    CU_ASSERT_EQUAL(referee_to_move(r), GAME_OVER);
    /* Each seat's view, built from what it was told, is the referee's view of that seat. */
    for (int s = 0; s < 2; s++) {
        picket_view_t truth;
        picket_view_from_state(referee_state(r), s, &truth);
        CU_ASSERT_PTR_NULL(picket_view_diff(&truth, &probes[s].view));
        CU_ASSERT(probes[s].private_events > 0);
    }
    int rank[GAME_MAX_PLAYERS];
    CU_ASSERT_EQUAL(PICKET_GAME.rank(referee_state(r), rank), 1);
    CU_ASSERT_EQUAL(rank[0] + rank[1], 1);
    referee_free(r);
}

static void test_a_seat_without_a_move_waits(void)
{
    probe_seat_t probes[2];
    referee_t *r = table_of_probes(probes, 6);
    CU_ASSERT_EQUAL(referee_step(r), REFEREE_STEPPED); /* the deal */
    int who = referee_to_move(r);
    CU_ASSERT_FATAL(who == 0 || who == 1);
    probes[who].wait_turns = 2;
    CU_ASSERT_EQUAL(referee_step(r), REFEREE_WAITING);
    CU_ASSERT_EQUAL(referee_play(r), REFEREE_WAITING);
    CU_ASSERT_EQUAL(referee_moves(r), 0);
    CU_ASSERT_EQUAL(referee_play(r), REFEREE_OVER);
    referee_free(r);
}

static void test_moves_from_outside_are_checked(void)
{
    game_config_t cfg = config(7);
    char err[200];
    referee_t *r = referee_create(&PICKET_GAME, &cfg, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    game_move_t m;
    CU_ASSERT_EQUAL(PICKET_GAME.move_parse("play AS", &m, err, sizeof err), 0);
    CU_ASSERT_EQUAL(referee_move(r, 0, &m, err, sizeof err), -1);
    CU_ASSERT_STRING_EQUAL(err, "a deal is due, not a move");
    /* No seats: the referee deals, then waits for a move from outside. */
    CU_ASSERT_EQUAL(referee_play(r), REFEREE_WAITING);
    int who = referee_to_move(r);
    CU_ASSERT_EQUAL(referee_move(r, 1 - who, &m, err, sizeof err), -1);
    char want[64];
    snprintf(want, sizeof want, "seat %d is not to move (seat %d is)", 1 - who, who);
    CU_ASSERT_STRING_EQUAL(err, want);
    CU_ASSERT_EQUAL(referee_move(r, who, &m, err, sizeof err), -1);
    CU_ASSERT_EQUAL(strncmp(err, "illegal move: ", 14), 0);
    CU_ASSERT_EQUAL(referee_moves(r), 0);
    game_move_t legal[GAME_MAX_MOVES];
    CU_ASSERT_FATAL(PICKET_GAME.legal_moves(referee_state(r), legal, GAME_MAX_MOVES) > 0);
    CU_ASSERT_EQUAL(referee_move(r, who, &legal[0], err, sizeof err), REFEREE_STEPPED);
    CU_ASSERT_EQUAL(referee_moves(r), 1);
    referee_free(r);
}

static void test_a_seat_that_refuses_an_event_is_at_fault(void)
{
    probe_seat_t probes[2];
    referee_t *r = table_of_probes(probes, 8);
    probes[1].refuse_after = 3;
    CU_ASSERT_EQUAL(referee_play(r), REFEREE_FAULT);
    const referee_fault_t *f = referee_fault(r);
    CU_ASSERT_EQUAL(f->kind, REFEREE_FAULT_SEAT);
    CU_ASSERT_EQUAL(f->seat, 1);
    CU_ASSERT_STRING_EQUAL(f->text, "seat 1 refuses on purpose");
    /* A stopped game stays stopped. */
    CU_ASSERT_EQUAL(referee_step(r), REFEREE_FAULT);
    referee_free(r);
}

/* A seat that always answers with a move the rules refuse. */
static int bad_decide(void *data, game_move_t *out, char *err, size_t errlen)
{
    (void)data;
    return PICKET_GAME.move_parse("appoint S", out, err, errlen);
}

static void test_an_illegal_move_is_a_fault_of_its_seat(void)
{
    probe_seat_t probes[2];
    referee_t *r = table_of_probes(probes, 9);
    CU_ASSERT_EQUAL(referee_step(r), REFEREE_STEPPED);
    int who = referee_to_move(r);
    referee_seat_t bad = { probe_event, bad_decide, &probes[who] };
    referee_set_seat(r, who, &bad);
    CU_ASSERT_EQUAL(referee_step(r), REFEREE_FAULT);
    CU_ASSERT_EQUAL(referee_fault(r)->kind, REFEREE_FAULT_ILLEGAL);
    CU_ASSERT_EQUAL(referee_fault(r)->seat, who);
    CU_ASSERT_PTR_NOT_NULL(strstr(referee_fault(r)->text, "illegal move 'appoint S'"));
    referee_free(r);
}

/* Picket, but every move claims more events than any buffer holds. */
static int overflowing_apply(void *state, const game_move_t *m, game_event_t *ev, int cap)
{
    int n = PICKET_GAME.apply(state, m, ev, cap);
    return n + GAME_MAX_EVENTS;
}

static void test_too_many_events_is_a_fault_of_the_game(void)
{
    game_t noisy = PICKET_GAME;
    noisy.apply = overflowing_apply;
    game_config_t cfg = config(10);
    char err[160];
    referee_t *r = referee_create(&noisy, &cfg, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_EQUAL(referee_play(r), REFEREE_WAITING);
    game_move_t legal[GAME_MAX_MOVES];
    CU_ASSERT_FATAL(noisy.legal_moves(referee_state(r), legal, GAME_MAX_MOVES) > 0);
    CU_ASSERT_EQUAL(referee_move(r, referee_to_move(r), &legal[0], err, sizeof err), REFEREE_FAULT);
    CU_ASSERT_EQUAL(referee_fault(r)->kind, REFEREE_FAULT_GAME);
    CU_ASSERT_EQUAL(referee_fault(r)->seat, -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(referee_fault(r)->text, "more than 128"));
    referee_free(r);
}

static void test_bad_rules_are_refused_before_play(void)
{
    game_config_t cfg = config(1);
    char err[160];
    cfg.players = 3;
    CU_ASSERT_PTR_NULL(referee_create(&PICKET_GAME, &cfg, err, sizeof err));
    CU_ASSERT_STRING_EQUAL(err, "picket is for 2 players, not 3");
}

/* Chance drawn from a generator of the caller's: equal generators, equal deals; the game's
 * own stream otherwise, whatever the generator would have given. */
static void test_chance_from_a_given_generator(void)
{
    game_config_t cfg = config(11);
    char err[160];
    picket_state_t st[3];
    rng_t g1, g2;
    rng_seed(&g1, 99);
    rng_seed(&g2, 99);
    rng_t *given[3] = { &g1, &g2, NULL };
    for (int i = 0; i < 3; i++) {
        referee_t *r = referee_create(&PICKET_GAME, &cfg, err, sizeof err);
        CU_ASSERT_PTR_NOT_NULL_FATAL(r);
        referee_set_chance(r, given[i]);
        CU_ASSERT_EQUAL(referee_step(r), REFEREE_STEPPED);
        memcpy(&st[i], referee_state(r), sizeof st[i]);
        referee_free(r);
    }
    CU_ASSERT_EQUAL(st[0].hand[0], st[1].hand[0]);
    CU_ASSERT_EQUAL(st[0].hand[1], st[1].hand[1]);
    CU_ASSERT_NOT_EQUAL(st[0].hand[0], st[2].hand[0]);
}

/* game_returns from ranks: a win 1, a loss 0, and 1/2 before the end. */
static void test_returns_come_from_ranks(void)
{
    game_config_t cfg = config(12);
    char err[160];
    referee_t *r = referee_create(&PICKET_GAME, &cfg, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    double ret[GAME_MAX_PLAYERS];
    CU_ASSERT_EQUAL(game_returns(&PICKET_GAME, referee_state(r), ret), -1);
    CU_ASSERT_DOUBLE_EQUAL(ret[0], 0.5, 1e-12);
    referee_free(r);
    bot_t *bots[2];
    for (int s = 0; s < 2; s++)
        bots[s] = bot_create("random", &PICKET_GAME, 30 + (uint64_t)s, err, sizeof err);
    picket_state_t end;
    CU_ASSERT_EQUAL_FATAL(match_play(&PICKET_GAME, &cfg, bots, &end, NULL, err, sizeof err), 0);
    CU_ASSERT_EQUAL(game_returns(&PICKET_GAME, &end, ret), 0);
    CU_ASSERT_DOUBLE_EQUAL(ret[end.pub.winner], 1.0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(ret[1 - end.pub.winner], 0.0, 1e-12);
    CU_ASSERT(PICKET_GAME.hand_over(&end));
    for (int s = 0; s < 2; s++)
        bot_free(bots[s]);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("referee", NULL, NULL);
    CU_add_test(s, "plays a set one step at a time", test_plays_a_set_one_step_at_a_time);
    CU_add_test(s, "a seat without a move waits", test_a_seat_without_a_move_waits);
    CU_add_test(s, "moves from outside are checked", test_moves_from_outside_are_checked);
    CU_add_test(s, "a seat that refuses an event is at fault", test_a_seat_that_refuses_an_event_is_at_fault);
    CU_add_test(s, "an illegal move is a fault of its seat", test_an_illegal_move_is_a_fault_of_its_seat);
    CU_add_test(s, "too many events is a fault of the game", test_too_many_events_is_a_fault_of_the_game);
    CU_add_test(s, "bad rules are refused before play", test_bad_rules_are_refused_before_play);
    CU_add_test(s, "chance from a given generator", test_chance_from_a_given_generator);
    CU_add_test(s, "returns come from ranks", test_returns_come_from_ranks);
    return test_run_all();
}
