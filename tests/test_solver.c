/* The trick solver (search/solver.c over engine/picket_endgame.c).
 *  - Against plain exhaustive minimax (no pruning, no table) on thousands of seeded random
 *    endings of up to 6 tricks, for every preset and both packs: every value identical, every
 *    move's value identical, and every best move truly best.
 *  - The endgame scores exactly as the rules engine: from random points of real hands, the
 *    same moves played in both give the same points, Pique included.
 *  - Both table layouts give the same values; equivalent cards are collapsed.
 *  - The endgame's bounds hold at every node of thousands of endings (and meet the value often
 *    enough to matter); table keys by relative rank, and the moves kept in their terms.
 *  - A table asked for less memory than one entry still holds one (tt.h). */
#include <CUnit/CUnit.h>
#include <string.h>

#include "picket_endgame.h"
#include "solver.h"
#include "test_util.h"
#include "tt.h"

/* A random ending: n cards each (the follower one fewer when a trick is in progress). */
static void random_ending(rng_t *rng, const picket_rules_t *r, int n, picket_end_t *e)
{
    int cards[CARD_COUNT];
    int m = cardset_to_array(cards_pack(r->deck), cards);
    for (int i = m - 1; i > 0; i--) {
        int j = (int)rng_below(rng, (uint32_t)i + 1), t = cards[i];
        cards[i] = cards[j];
        cards[j] = t;
    }
    int in_trick = (int)rng_below(rng, 2);
    int leader = (int)rng_below(rng, 2);
    cardset_t h[2] = { 0, 0 };
    int k = 0;
    for (int i = 0; i < n; i++)
        for (int s = 0; s < 2; s++)
            h[s] |= cardset_of(cards[k++]);
    int lead = -1, to_move = leader;
    if (in_trick) {
        /* The leader has led one of his cards already. */
        lead = cardset_first(h[leader]);
        h[leader] &= ~cardset_of(lead);
        to_move = 1 - leader;
    }
    int played = PK_TRICKS - n;
    int t0 = (int)rng_below(rng, (uint32_t)played + 1);
    picket_end_make(e, r, h[0], h[1], to_move, lead, t0, played - t0);
    /* Sometimes a Pique is still open. */
    if (rng_below(rng, 3) == 0) {
        e->pique_open = 1;
        e->pts[0] = (int8_t)rng_below(rng, 31);
        e->pts[1] = (int8_t)rng_below(rng, 31);
        e->reckoned[0] = (int8_t)(e->pts[0] > 0);
        e->reckoned[1] = (int8_t)(e->pts[1] > 0 && rng_below(rng, 2));
        if (!e->reckoned[1])
            e->pts[1] = 0;
    }
}

static void check_config(const picket_rules_t *r, int endings, uint64_t seed, size_t tt_bytes)
{
    char err[160];
    solver_t *s = solver_create_bytes(&PICKET_ENDGAME, tt_bytes, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    rng_t rng;
    rng_seed(&rng, seed);
    int bad_value = 0, bad_moves = 0, bad_best = 0;
    for (int i = 0; i < endings; i++) {
        picket_end_t e;
        random_ending(&rng, r, 1 + (int)rng_below(&rng, 6), &e);
        if (PICKET_ENDGAME.to_move(&e) < 0)
            continue;
        int want = solver_minimax(&PICKET_ENDGAME, &e, NULL);
        int best_move;
        int got = solver_best(s, &e, &best_move);
        bad_value += got != want;
        /* Every move's value, against minimax of the child. */
        uint8_t moves[ENDGAME_MAX_MOVES];
        int values[ENDGAME_MAX_MOVES];
        int n = solver_all(s, &e, moves, values);
        int mover = PICKET_ENDGAME.to_move(&e), best_seen = -10000, best_is_best = 0;
        for (int k = 0; k < n; k++) {
            picket_end_t child;
            int delta = PICKET_ENDGAME.play(&e, moves[k], &child);
            int child_to_move = PICKET_ENDGAME.to_move(&child);
            int v = solver_minimax(&PICKET_ENDGAME, &child, NULL);
            /* minimax is for the child's side to move; turn it into the mover's points. */
            int abs_child = child_to_move == 1 ? -v : v;
            int mine = (mover == 0 ? 1 : -1) * (delta + abs_child);
            bad_moves += values[k] != mine;
            if (mine > best_seen)
                best_seen = mine;
            if (moves[k] == best_move)
                best_is_best = mine == want;
        }
        bad_best += !best_is_best || best_seen != want;
    }
    if (bad_value || bad_moves || bad_best)
        fprintf(stderr, "\n    deck %d pp %d lt %d pq %d: %d wrong values, %d wrong move values, %d wrong best moves\n",
                r->deck, r->play_points, r->last_trick, r->pique, bad_value, bad_moves, bad_best);
    CU_ASSERT_EQUAL(bad_value, 0);
    CU_ASSERT_EQUAL(bad_moves, 0);
    CU_ASSERT_EQUAL(bad_best, 0);
    solver_free(s);
}

static void test_solver_equals_minimax_every_preset_both_packs(void)
{
    for (int p = 0; p < PK_PRESET_COUNT; p++)
        for (int d = 0; d < 2; d++) {
            picket_rules_t r = PICKET_PRESETS[p].rules;
            r.deck = d ? 32 : 36;
            check_config(&r, 2000, 1000 + (uint64_t)(10 * p + d), 4u << 20);
        }
}

/* A table far too small for the search: stores evict entries while the positions that read them
 * are still being searched. Values stay exact. */
static void test_tiny_tables_give_the_same_values(void)
{
    for (int p = 0; p < PK_PRESET_COUNT; p++) {
        picket_rules_t r = PICKET_PRESETS[p].rules;
        check_config(&r, 400, 7000 + (uint64_t)(10 * p), 1024);
    }
}

/* Equivalent cards: AH KH QH held together against nothing in hearts are one move. */
static void test_equivalent_cards_are_collapsed(void)
{
    picket_rules_t r = test_rules("cotgrave", NULL);
    picket_end_t e;
    picket_end_make(&e, &r, test_cards("AH KH QH 7H 6H"), test_cards("9S 8S 7S 6S TS"), 0, -1, 4, 3);
    uint8_t moves[ENDGAME_MAX_MOVES];
    /* Classes: A K Q (high, adjacent), 7 6 (low, adjacent): two moves. */
    CU_ASSERT_EQUAL(PICKET_ENDGAME.moves(&e, moves), 2);
    CU_ASSERT_EQUAL(PICKET_ENDGAME.all_moves(&e, moves), 5);
    /* A card in the other hand between them splits the class: the TH. */
    picket_end_make(&e, &r, test_cards("AH KH QH 9H 8H"), test_cards("TH 8S 7S 6S TS"), 0, -1, 4, 3);
    CU_ASSERT_EQUAL(PICKET_ENDGAME.moves(&e, moves), 2);
    picket_end_make(&e, &r, test_cards("AH KH JH 9H 8H"), test_cards("QH 8S 7S 6S TS"), 0, -1, 4, 3);
    CU_ASSERT_EQUAL(PICKET_ENDGAME.moves(&e, moves), 3);
}

/* From random points of real hands, the endgame and the rules engine score the same. */
static void test_endgame_scores_as_the_rules_engine(void)
{
    int checked = 0, wrong = 0;
    for (int p = 0; p < PK_PRESET_COUNT; p++)
        for (int d = 0; d < 2; d++) {
            picket_rules_t r = PICKET_PRESETS[p].rules;
            r.deck = d ? 32 : 36;
            r.target = 1000000;
            rng_t rng;
            rng_seed(&rng, 77 + (uint64_t)(10 * p + d));
            for (int set = 0; set < 150; set++) {
                picket_state_t st;
                picket_init(&st, &r, rng_derive(9, (uint64_t)(100 * p + 10 * d + set)));
                picket_apply_chance(&st, NULL, NULL, 0);
                int stop_at = (int)rng_below(&rng, 24);
                int plays = 0;
                picket_end_t e;
                int have = 0, start_diff = 0;
                while (picket_to_move(&st) >= 0) {
                    if (st.pub.phase == PK_PH_PLAY && !have && plays == stop_at) {
                        CU_ASSERT_EQUAL_FATAL(picket_end_from_state(&st, &e), 0);
                        have = 1;
                        start_diff = st.pub.score[0] - st.pub.score[1];
                    }
                    game_move_t m;
                    picket_random_move(&st, &rng, &m);
                    if (have && m.kind == PK_MV_PLAY) {
                        picket_end_t next;
                        start_diff += PICKET_ENDGAME.play(&e, m.arg, &next);
                        e = next;
                    }
                    plays += m.kind == PK_MV_PLAY;
                    picket_apply(&st, &m, NULL, 0);
                }
                if (have) {
                    checked++;
                    if (st.pub.score[0] - st.pub.score[1] != start_diff) {
                        wrong++;
                        if (wrong <= 5)
                            fprintf(stderr, "\n    %s deck %d set %d: rules %d, endgame %d (stop at play %d, pique %d)",
                                    PICKET_PRESETS[p].name, r.deck, set, st.pub.score[0] - st.pub.score[1], start_diff,
                                    stop_at, st.pub.piqued);
                    }
                }
            }
        }
    CU_ASSERT(checked > 1000);
    CU_ASSERT_EQUAL(wrong, 0);
}

/* Minimax that checks the endgame's bounds at every node of the tree on its way: each node's
 * value (seat 0's points minus seat 1's) must lie within them. Counts nodes, nodes with a
 * bound, and nodes whose bound meets the value (so the test is not vacuous). */
typedef struct bound_check {
    long nodes, bounded, tight, wrong;
} bound_check_t;

static int minimax_checking_bounds(const picket_end_t *e, bound_check_t *c)
{
    int who = PICKET_ENDGAME.to_move(e);
    if (who < 0)
        return 0;
    uint8_t moves[ENDGAME_MAX_MOVES];
    int n = PICKET_ENDGAME.all_moves(e, moves), best = who == 0 ? -100000 : 100000;
    for (int i = 0; i < n; i++) {
        picket_end_t child;
        int v = PICKET_ENDGAME.play(e, moves[i], &child);
        v += minimax_checking_bounds(&child, c);
        if (who == 0 ? v > best : v < best)
            best = v;
    }
    int lo, hi;
    PICKET_ENDGAME.bounds(e, &lo, &hi);
    c->nodes++;
    if (lo > -ENDGAME_NO_BOUND || hi < ENDGAME_NO_BOUND)
        c->bounded++;
    c->tight += lo == best || hi == best;
    if (best < lo || best > hi) {
        if (++c->wrong <= 3)
            fprintf(stderr, "\n    value %d outside its bounds [%d, %d]", best, lo, hi);
    }
    return best;
}

static void test_bounds_hold_at_every_node(void)
{
    bound_check_t c = { 0, 0, 0, 0 };
    for (int p = 0; p < PK_PRESET_COUNT; p++)
        for (int d = 0; d < 2; d++) {
            picket_rules_t r = PICKET_PRESETS[p].rules;
            r.deck = d ? 32 : 36;
            rng_t rng;
            rng_seed(&rng, 300 + (uint64_t)(10 * p + d));
            for (int i = 0; i < 150; i++) {
                picket_end_t e;
                random_ending(&rng, &r, 1 + (int)rng_below(&rng, 5), &e);
                minimax_checking_bounds(&e, &c);
            }
        }
    CU_ASSERT(c.nodes > 100000);
    CU_ASSERT(c.bounded > c.nodes / 4);
    CU_ASSERT(c.tight > c.nodes / 20);
    CU_ASSERT_EQUAL(c.wrong, 0);
}

/* The side on lead holding every top card is sure of every trick: the bounds are the value. */
static void test_sure_tricks_bound_exactly(void)
{
    picket_rules_t r = test_rules("cotgrave", NULL);
    picket_end_t e;
    /* Seat 1 leads AH KH QH JH (4 points, the last trick, and 7 tricks: the cards). */
    picket_end_make(&e, &r, test_cards("9H 8H 7S 6S"), test_cards("AH KH QH JH"), 1, -1, 5, 3);
    int lo, hi;
    PICKET_ENDGAME.bounds(&e, &lo, &hi);
    CU_ASSERT(lo == -(4 + 1 + 10) && hi == lo);
    CU_ASSERT_EQUAL(solver_minimax(&PICKET_ENDGAME, &e, NULL), 4 + 1 + 10);
    /* Length wins too: AH KH 7H 6H against QH 8H; the capot when seat 1 has no trick yet. */
    picket_end_make(&e, &r, test_cards("QH 8H 7S 6S"), test_cards("AH KH 7H 6H"), 1, -1, 0, 8);
    PICKET_ENDGAME.bounds(&e, &lo, &hi);
    CU_ASSERT(lo == -(2 + 1 + 40) && hi == lo);
    CU_ASSERT_EQUAL(solver_minimax(&PICKET_ENDGAME, &e, NULL), 2 + 1 + 40);
    /* No bound while the opening lead is bound to a suit or a Pique is possible. */
    e.bound_suit = SUIT_H;
    PICKET_ENDGAME.bounds(&e, &lo, &hi);
    CU_ASSERT(lo == -ENDGAME_NO_BOUND && hi == ENDGAME_NO_BOUND);
}

/* Keys by relative rank: which low cards have gone does not matter, only the order of what is
 * left and how many of it score; a kept move translates between such positions. */
static void test_keys_by_relative_rank(void)
{
    picket_rules_t r = test_rules("cotgrave", NULL);
    picket_end_t a, b, c;
    picket_end_make(&a, &r, test_cards("9H 7H AS"), test_cards("8H KS 6D"), 0, -1, 4, 5);
    picket_end_make(&b, &r, test_cards("8H 6H AS"), test_cards("7H KS 9D"), 0, -1, 4, 5);
    CU_ASSERT_EQUAL(PICKET_ENDGAME.key(&a), PICKET_ENDGAME.key(&b));
    CU_ASSERT_EQUAL(solver_minimax(&PICKET_ENDGAME, &a, NULL), solver_minimax(&PICKET_ENDGAME, &b, NULL));
    /* 9H and 8H: the same relative card in each. */
    CU_ASSERT_EQUAL(PICKET_ENDGAME.code_move(&b, PICKET_ENDGAME.move_code(&a, card_parse("9H", 2))), card_parse("8H", 2));
    CU_ASSERT_EQUAL(PICKET_ENDGAME.code_move(&b, PICKET_ENDGAME.move_code(&a, card_parse("AS", 2))), card_parse("AS", 2));
    /* A Ten where a nine was scores: another key. */
    picket_end_make(&c, &r, test_cards("TH 7H AS"), test_cards("8H KS 6D"), 0, -1, 4, 5);
    CU_ASSERT_NOT_EQUAL(PICKET_ENDGAME.key(&a), PICKET_ENDGAME.key(&c));
    /* Every card of every hand round-trips through its code. */
    rng_t rng;
    rng_seed(&rng, 4);
    for (int i = 0; i < 500; i++) {
        random_ending(&rng, &r, 1 + (int)rng_below(&rng, 12), &a);
        for (cardset_t h = a.hand[0] | a.hand[1]; h; h &= h - 1) {
            int card = cardset_first(h), code = PICKET_ENDGAME.move_code(&a, card);
            CU_ASSERT(code >= 0 && code < 255);
            CU_ASSERT_EQUAL(PICKET_ENDGAME.code_move(&a, code), card);
        }
    }
}

/* tt.h: "a table of about `bytes` bytes (at least one bucket)". A size too small for one bucket
 * is rounded up, not taken as a table of none: every store lands in memory the table owns
 * (tests/ run under ASan in CI) and is found again by a probe. */
static void test_tables_too_small_for_one_entry_round_up(void)
{
    static const size_t sizes[] = { 0, 1, 16, sizeof(tt_entry_t), 63 };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            tt_t *t = tt_create(sizes[i]);
            CU_ASSERT_PTR_NOT_NULL_FATAL(t);
            for (uint64_t key = 1; key <= 3; key++) {
                tt_store(t, key * 0x9E3779B97F4A7C15u, -(int)key, (int)key, 7, 9);
                const tt_entry_t *e = tt_probe(t, key * 0x9E3779B97F4A7C15u);
                CU_ASSERT_PTR_NOT_NULL_FATAL(e);
                CU_ASSERT_EQUAL(e->lo, -(int)key);
                CU_ASSERT_EQUAL(e->hi, (int)key);
                CU_ASSERT_EQUAL(e->move, 7);
                CU_ASSERT_EQUAL(e->depth, 9);
            }
            tt_clear(t);
            CU_ASSERT_PTR_NULL(tt_probe(t, 3 * 0x9E3779B97F4A7C15u));
            tt_free(t);
        }
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("trick solver", NULL, NULL);
    CU_add_test(s, "equivalent cards are collapsed", test_equivalent_cards_are_collapsed);
    CU_add_test(s, "the endgame scores as the rules engine", test_endgame_scores_as_the_rules_engine);
    CU_add_test(s, "solver equals minimax: 2000 endings per preset and pack", test_solver_equals_minimax_every_preset_both_packs);
    CU_add_test(s, "tiny tables give the same values", test_tiny_tables_give_the_same_values);
    CU_add_test(s, "bounds hold at every node", test_bounds_hold_at_every_node);
    CU_add_test(s, "sure tricks bound exactly", test_sure_tricks_bound_exactly);
    CU_add_test(s, "keys by relative rank", test_keys_by_relative_rank);
    CU_add_test(s, "tables too small for one entry round up", test_tables_too_small_for_one_entry_round_up);
    return test_run_all();
}
