/* Worlds for a view (picket_sample_world, game.h's sample_world): over random sets of every
 * preset and the 32-card pack, at decision points of both seats, every world drawn gives the
 * seat back its view, agrees with the public record, keeps the seat's known cards where it knows
 * them and the opponent's claims true, and plays on legally to the end of the set with both
 * seats' views following the events; then uniformity at simple positions, determinism, and
 * future chance from the caller's generator.
 *
 * Set PICKET_SAMPLE_SETS to change the number of sets per configuration (default 40).
 */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "picket.h"
#include "picket_score.h"
#include "test_util.h"

static int sets_per_config(void)
{
    const char *s = getenv("PICKET_SAMPLE_SETS");
    int n = s ? atoi(s) : 0;
    return n > 0 ? n : 40;
}

static int stock_size(const picket_state_t *st) { return st->rules.deck - 2 * PK_HAND_CARDS; }

static cardset_t undrawn(const picket_state_t *st)
{
    cardset_t c = 0;
    for (int i = stock_size(st) - st->pub.stock_left; i < stock_size(st); i++)
        c |= cardset_of(st->stock[i]);
    return c;
}

/* Every card of the pack is in exactly one place. */
static int cards_accounted(const picket_state_t *st)
{
    cardset_t parts[7] = { st->hand[0], st->hand[1], st->discard[0], st->discard[1], undrawn(st),
                           st->pub.played[0], st->pub.played[1] };
    cardset_t all = 0;
    for (int i = 0; i < 7; i++) {
        if (all & parts[i])
            return 0;
        all |= parts[i];
    }
    return st->pub.hand_no == 0 || all == st->pack;
}

/* A seat's knowledge is true in a state: what it thinks the other holds, he holds. */
static int knowledge_true(const picket_state_t *st)
{
    for (int s = 0; s < 2; s++)
        if ((st->know[s].opp_known & ~st->hand[1 - s]) || (st->know[s].stock_known & ~undrawn(st)))
            return 0;
    return 1;
}

/* A seat's claim in declaration d from its cards, as the rules' flags read them. */
static void claim_of(const picket_rules_t *r, cardset_t h, int d, int c[2])
{
    if (d == 0) {
        picket_ruff_t t;
        picket_point(h, r->point == PK_POINT_COUNT, &t);
        picket_point_claim(&t, r->point == PK_POINT_COUNT, c);
    } else if (d == 1) {
        picket_sequences_t q;
        picket_sequences(h, r->sequences == PK_SEQ_UNSUITED, &q);
        c[0] = q.best.len;
        c[1] = q.best.top;
    } else {
        picket_sets_t t;
        picket_sets(h, &t);
        c[0] = t.best.count;
        c[1] = t.best.rank;
    }
}

/* The opponent's claims, recomputed from his cards at the declarations, are the record's: the
 * answer is what the two claims make; what elder said is his claim (under calls=cavendish the
 * point's value only when younger holds as many cards); what younger said, unless good (or, under
 * calls=cavendish, not good), is his. Under declarations=may-sink a call is any holding: elder's
 * claim not shown must be one his cards can make (tests/test_sampler.c replays the rest). */
static int claims_hold(const picket_state_t *w, int opp, char *why, size_t len)
{
    const picket_pub_t *p = &w->pub;
    int e = picket_elder(p), y = 1 - e, cav = w->rules.calls == PK_CALLS_CAVENDISH;
    cardset_t h[2] = { w->hand[0] | p->played[0], w->hand[1] | p->played[1] };
    for (int d = 0; d < PK_DECL_COUNT; d++) {
        if (w->rules.declarations == PK_DECL_MAY_SINK) {
            const int16_t *called = p->claim[d][e];
            if (called[0] > 0 && !p->decl_cards[d][e] && !picket_call_matching(&w->rules, PK_CAT_RUFF + d, h[e], called)) {
                snprintf(why, len, "declaration %d: elder's cards cannot make his call %d/%d", d, called[0], called[1]);
                return 0;
            }
            continue;
        }
        if (p->answer[d] < 0)
            continue;
        int c[2][2];
        claim_of(&w->rules, h[e], d, c[e]);
        claim_of(&w->rules, h[y], d, c[y]);
        int cmp = picket_claim_cmp(c[e][0], c[e][1], c[y][0], c[y][1]);
        int ans = cmp > 0 ? PK_ANS_GOOD : cmp == 0 ? PK_ANS_EQUAL : PK_ANS_NOT_GOOD;
        int said_e = c[e][1];
        if (cav && d == 0 && w->rules.point == PK_POINT_COUNT && c[y][0] != c[e][0])
            said_e = 0;
        int ok = ans == p->answer[d] && p->claim[d][e][0] == c[e][0] && p->claim[d][e][1] == said_e;
        if (ok && ans != PK_ANS_GOOD && !(cav && ans == PK_ANS_NOT_GOOD))
            ok = p->claim[d][y][0] == c[y][0] && p->claim[d][y][1] == c[y][1];
        if (!ok) {
            snprintf(why, len, "declaration %d: the cards make %d/%d against %d/%d, the record says %d/%d against %d/%d (%d)",
                     d, c[e][0], c[e][1], c[y][0], c[y][1], p->claim[d][e][0], p->claim[d][e][1], p->claim[d][y][0],
                     p->claim[d][y][1], p->answer[d]);
            return 0;
        }
    }
    (void)opp;
    return 1;
}

/* Play a world on to the end of the set with random moves, each drawn from the mover's own view
 * of the world, with both views following the events as a seat's view does. */
static int play_out(picket_state_t *w, rng_t *rng, char *why, size_t len)
{
    picket_view_t views[2], now;
    game_event_t ev[GAME_MAX_EVENTS];
    char err[GAME_ERR_LEN];
    for (int s = 0; s < 2; s++)
        picket_view_from_state(w, s, &views[s]);
    for (int step = 0; step < 100000; step++) {
        int who = picket_to_move(w), n;
        if (who == GAME_OVER)
            return 1;
        if (who == GAME_CHANCE) {
            n = picket_apply_chance(w, NULL, ev, GAME_MAX_EVENTS);
        } else {
            game_move_t m;
            if (picket_pub_random_move(&w->rules, &views[who].pub, views[who].hand, rng, &m) < 0) {
                snprintf(why, len, "play-out step %d: no move for seat %d", step, who);
                return 0;
            }
            if (!picket_is_legal(w, &m, err, sizeof err)) {
                snprintf(why, len, "play-out step %d: move refused: %s", step, err);
                return 0;
            }
            n = picket_apply(w, &m, ev, GAME_MAX_EVENTS);
        }
        if (n > GAME_MAX_EVENTS) {
            snprintf(why, len, "play-out step %d: too many events", step);
            return 0;
        }
        for (int i = 0; i < n; i++)
            for (int s = 0; s < 2; s++)
                if (game_event_visible(&ev[i], s) && picket_view_apply(&views[s], &ev[i]) < 0) {
                    snprintf(why, len, "play-out step %d: seat %d's view refused an event", step, s);
                    return 0;
                }
        for (int s = 0; s < 2; s++) {
            picket_view_from_state(w, s, &now);
            const char *d = picket_view_diff(&views[s], &now);
            if (d) {
                snprintf(why, len, "play-out step %d: seat %d's view drifts from the world in %s", step, s, d);
                return 0;
            }
        }
        if (!cards_accounted(w) || !knowledge_true(w)) {
            snprintf(why, len, "play-out step %d: cards or knowledge wrong", step);
            return 0;
        }
    }
    snprintf(why, len, "play-out: the set did not end");
    return 0;
}

/* Every property of one world drawn for `seat` where the truth is `truth`. */
static int check_world(const picket_state_t *truth, int seat, const picket_state_t *world, rng_t *rng, char *why,
                       size_t len)
{
    picket_view_t v, back, opp_view, opp_truth;
    picket_view_from_state(truth, seat, &v);
    int opp = 1 - seat;
    const picket_pub_t *p = &truth->pub;
    /* (1) The seat's view, given back. */
    picket_view_from_state(world, seat, &back);
    const char *d = picket_view_diff(&back, &v);
    if (d) {
        snprintf(why, len, "the world's view differs in %s", d);
        return 0;
    }
    /* (2) The opponent's view of the world holds the true public record, and the world is a
     * state of the rules: every card in one place, every seat's knowledge true. */
    picket_view_from_state(world, opp, &opp_view);
    picket_view_from_state(truth, opp, &opp_truth);
    if (picket_pub_diff(&opp_view.pub, &opp_truth.pub) || opp_view.hand != world->hand[opp] ||
        cardset_count(opp_view.hand) != cardset_count(opp_truth.hand) ||
        opp_view.pub.discarded[opp] != cardset_count(world->discard[opp])) {
        snprintf(why, len, "the opponent's view of the world is not of this record");
        return 0;
    }
    if (!cards_accounted(world) || !knowledge_true(world)) {
        snprintf(why, len, "the world misplaces a card or holds false knowledge");
        return 0;
    }
    /* (3) What the seat knows is where it knows it. */
    if (p->hand_no > 0) {
        int e = picket_elder(p);
        int ok = world->hand[seat] == truth->hand[seat] && world->discard[seat] == truth->discard[seat] &&
                 !(v.know.opp_known & ~world->hand[opp]) && !(v.know.stock_known & ~undrawn(world)) &&
                 !(p->decl_shown[opp] & ~(world->hand[opp] | p->played[opp])) &&
                 (!p->blank_shown[opp] || world->dealt[opp] == p->blank_shown[opp]) &&
                 (!p->blank_shown[seat] || world->dealt[seat] == p->blank_shown[seat]) &&
                 (world->holds_blank[opp] == truth->holds_blank[opp] || p->phase == PK_PH_BLANK_COUNT);
        if (seat == e && p->drawn[e] > 0)
            for (int i = p->drawn[e], j = 0; i < picket_elder_share(&truth->rules); i++, j++)
                ok = ok && world->stock[i] == truth->stock[i] && v.peek[j] == world->stock[i];
        for (int s = 0; s < CARD_SUITS; s++)
            if (p->voids[opp] & (1u << s))
                ok = ok && !(world->hand[opp] & cardset_suit(s));
        if (!ok) {
            snprintf(why, len, "a card the seat knows is not where it knows it");
            return 0;
        }
    }
    /* (7) The opponent's claims are his cards'. */
    if (!claims_hold(world, opp, why, len))
        return 0;
    /* (2) The world plays on, legally, to the end of the set. */
    picket_state_t copy = *world;
    return play_out(&copy, rng, why, len);
}

typedef struct run_stats {
    long samples, failures;
} run_stats_t;

/* Play sets with random or heuristic moves; at random decision points of both seats, draw a
 * world for each seat's view and check it. */
static void run_config(const char *preset, const char *flag, int sets, uint64_t seed, run_stats_t *stats)
{
    const game_t *g = &PICKET_GAME;
    game_config_t cfg = { 0 };
    char err[GAME_ERR_LEN], why[256];
    game_config_set_preset(&cfg, preset, err, sizeof err);
    if (flag)
        game_config_add_flag(&cfg, flag, err, sizeof err);
    static game_move_t moves[GAME_MAX_MOVES];
    static double values[GAME_MAX_MOVES];
    game_event_t ev[GAME_MAX_EVENTS];
    for (int set = 0; set < sets && stats->failures < 3; set++) {
        picket_state_t st, world;
        cfg.deal_seed = seed + (uint64_t)set;
        CU_ASSERT_EQUAL_FATAL(g->init(&st, &cfg, err, sizeof err), 0);
        rng_t rng;
        rng_seed(&rng, rng_derive(cfg.deal_seed, 11));
        int heuristic = set % 2; /* heuristic hands keep stronger cards: harder claims to match */
        for (int step = 0; step < 100000 && stats->failures < 3; step++) {
            int who = picket_to_move(&st);
            /* A third of the points, so sets stay many and the suite quick; both seats each time;
             * and the set's end, which may fall anywhere in a hand. */
            if (who == GAME_OVER || rng_below(&rng, 3) == 0) {
                for (int seat = 0; seat < 2; seat++) {
                    picket_view_t v;
                    picket_view_from_state(&st, seat, &v);
                    rng_t srng;
                    rng_seed(&srng, rng_next(&rng));
                    stats->samples++;
                    if (picket_sample_world(&v, &srng, &world) < 0) {
                        fprintf(stderr, "\n  %s %s seed %llu step %d seat %d: no world found\n", preset,
                                flag ? flag : "", (unsigned long long)cfg.deal_seed, step, seat);
                        stats->failures++;
                        continue;
                    }
                    if (!check_world(&st, seat, &world, &srng, why, sizeof why)) {
                        fprintf(stderr, "\n  %s %s seed %llu step %d seat %d phase %s: %s\n", preset,
                                flag ? flag : "", (unsigned long long)cfg.deal_seed, step, seat,
                                PK_PHASE_NAMES[st.pub.phase], why);
                        stats->failures++;
                    }
                }
            }
            if (who == GAME_OVER)
                break;
            if (who == GAME_CHANCE) {
                picket_apply_chance(&st, NULL, ev, GAME_MAX_EVENTS);
                continue;
            }
            int n = picket_legal_moves(&st, moves, GAME_MAX_MOVES);
            CU_ASSERT_FATAL(n > 0);
            int pick = (int)rng_below(&rng, (uint32_t)n);
            if (heuristic) {
                picket_view_t v;
                picket_view_from_state(&st, who, &v);
                g->heuristic_evaluate(&v, NULL, moves, n, values);
                for (int i = 0; i < n; i++)
                    if (values[i] > values[pick])
                        pick = i;
            }
            picket_apply(&st, &moves[pick], ev, GAME_MAX_EVENTS);
        }
    }
}

static void run_preset(const char *preset, uint64_t seed)
{
    run_stats_t stats = { 0, 0 };
    run_config(preset, NULL, sets_per_config(), seed, &stats);
    run_config(preset, "deck=32", sets_per_config() / 2 + 1, seed + 500, &stats);
    printf("\n    %ld worlds drawn and played out ", stats.samples);
    CU_ASSERT(stats.samples > 100);
    CU_ASSERT_EQUAL(stats.failures, 0);
}

/* A low target ends sets in the middle of hands: in the Blanks, the declarations or play. */
static void test_sets_ending_mid_hand_give_consistent_worlds(void)
{
    run_stats_t stats = { 0, 0 };
    for (int p = 0; p < PK_PRESET_COUNT; p++)
        run_config(PICKET_PRESETS[p].name, "target=25", sets_per_config() * 4, 600 + 100 * (uint64_t)p, &stats);
    printf("\n    %ld worlds drawn and played out ", stats.samples);
    CU_ASSERT(stats.samples > 100);
    CU_ASSERT_EQUAL(stats.failures, 0);
}

static void test_cotgrave_worlds_are_consistent(void) { run_preset("cotgrave", 100); }
static void test_cotton_worlds_are_consistent(void) { run_preset("cotton", 200); }
static void test_ducoeur_letter_worlds_are_consistent(void) { run_preset("ducoeur-letter", 300); }
static void test_ducoeur_report_worlds_are_consistent(void) { run_preset("ducoeur-report", 400); }

/* ---------------------------------------------------------------- scripted positions */

typedef struct table {
    picket_state_t st;
} table_t;

/* Dealer 1, so seat 0 is elder. Stock given top first. */
static void deal(table_t *t, const picket_rules_t *r, const char *elder, const char *younger, const char *stock)
{
    picket_init(&t->st, r, 1);
    cardset_t hands[2] = { test_cards(elder), test_cards(younger) };
    uint8_t order[PK_STOCK];
    int n = 0;
    for (const char *p = stock; *p && n < PK_STOCK;) {
        while (*p == ' ')
            p++;
        const char *q = p;
        while (*q && *q != ' ')
            q++;
        order[n++] = (uint8_t)card_parse(p, (size_t)(q - p));
        p = q;
    }
    game_event_t ev[GAME_MAX_EVENTS];
    CU_ASSERT_FATAL(picket_deal_given(&t->st, 1, hands, order, ev, GAME_MAX_EVENTS) > 0);
}

static void play(table_t *t, const char *move)
{
    game_move_t m;
    char err[GAME_ERR_LEN];
    game_event_t ev[GAME_MAX_EVENTS];
    CU_ASSERT_EQUAL_FATAL(picket_move_parse(move, &m, err, sizeof err), 0);
    CU_ASSERT_FATAL(picket_is_legal(&t->st, &m, err, sizeof err));
    picket_apply(&t->st, &m, ev, GAME_MAX_EVENTS);
}

/* Elder's hearts A K Q 9 7 make a Ruff of 47, which loses to younger's diamonds (51): elder's
 * claim is told, his cards are not shown. */
static const char *ELDER = "AH KH QH 9H 7H AS 9S 7S 6C 7C 8D 9D";
static const char *YOUNGER = "AD KD QD JD TD 9C AC KC QC 6S 8S TS";
static const char *STOCK = "8C 6D 8H 7D 6H JS TH JH KS QS JC TC";

/* Where each unknown card lies, counted over n worlds: in the opponent's hand, his discards, or
 * the undrawn stock; and which card is on top of the stock. */
typedef struct tally {
    int where[CARD_COUNT][3];
    int top[CARD_COUNT];
} tally_t;

static void count_worlds(const picket_view_t *v, uint64_t seed, int n, tally_t *tl)
{
    memset(tl, 0, sizeof *tl);
    rng_t rng;
    rng_seed(&rng, seed);
    picket_state_t w;
    for (int i = 0; i < n; i++) {
        CU_ASSERT_EQUAL_FATAL(picket_sample_world(v, &rng, &w), 0);
        int opp = 1 - v->seat;
        cardset_t places[3] = { w.hand[opp], w.discard[opp], undrawn(&w) };
        for (int k = 0; k < 3; k++)
            for (cardset_t c = places[k]; c; c &= c - 1)
                tl->where[cardset_first(c)][k]++;
        tl->top[w.stock[0]]++;
    }
}

/* Largest |z| and the sum of z^2 of counts against a probability, over the cards in `cards`. */
static void z_stats(const int *counts, int stride, cardset_t cards, int n, double prob, double *max_z, double *sum_z2)
{
    *max_z = 0;
    *sum_z2 = 0;
    double sd = sqrt(n * prob * (1 - prob));
    for (cardset_t c = cards; c; c &= c - 1) {
        double z = (counts[cardset_first(c) * stride] - n * prob) / sd;
        *max_z = fmax(*max_z, fabs(z));
        *sum_z2 += z * z;
    }
}

/* Right after the deal, elder knows only his hand: each of the 24 other cards is in younger's
 * hand with probability 1/2 and on top of the stock with probability 1/24. A sampler that gave
 * younger the lowest unknown cards, or kept the stock in card order, fails both. (Younger's hand
 * is not a Blank: that moves no marginal by more than 0.1%.) */
static void test_after_the_deal_every_unknown_card_is_equally_likely_in_the_other_hand(void)
{
    table_t t;
    picket_rules_t r = test_rules("cotton", NULL);
    deal(&t, &r, ELDER, YOUNGER, STOCK);
    picket_view_t v;
    picket_view_from_state(&t.st, 0, &v);
    enum { N = 20000 };
    static tally_t tl;
    count_worlds(&v, 12345, N, &tl);
    cardset_t unknown = t.st.pack & ~v.hand;
    CU_ASSERT_EQUAL(cardset_count(unknown), 24);
    double max_z, sum_z2;
    z_stats(&tl.where[0][0], 3, unknown, N, 0.5, &max_z, &sum_z2);
    printf("\n    opponent's hand: max |z| %.2f, sum z^2 %.1f over 24 cards ", max_z, sum_z2);
    /* 24 cards: sum z^2 has mean 24; 60 is beyond the 1e-4 tail. */
    CU_ASSERT(max_z < 4.5);
    CU_ASSERT(sum_z2 < 60);
    z_stats(tl.top, 1, unknown, N, 1.0 / 24, &max_z, &sum_z2);
    printf("stock top: max |z| %.2f, sum z^2 %.1f ", max_z, sum_z2);
    CU_ASSERT(max_z < 4.5);
    CU_ASSERT(sum_z2 < 60);
}

/* After elder's exchange (2 cards), younger knows his own hand only: each of the 24 other cards
 * is in elder's hand (12 of 24), his discards (2 of 24) or the undrawn stock (10 of 24). */
static void test_after_elders_exchange_unknown_cards_spread_by_place_sizes(void)
{
    table_t t;
    picket_rules_t r = test_rules("cotton", NULL);
    deal(&t, &r, ELDER, YOUNGER, STOCK);
    play(&t, "discard 6C 7C");
    picket_view_t v;
    picket_view_from_state(&t.st, 1, &v);
    enum { N = 20000 };
    static tally_t tl;
    count_worlds(&v, 777, N, &tl);
    cardset_t unknown = t.st.pack & ~v.hand;
    static const double prob[3] = { 12.0 / 24, 2.0 / 24, 10.0 / 24 };
    for (int k = 0; k < 3; k++) {
        double max_z, sum_z2;
        z_stats(&tl.where[0][k], 3, unknown, N, prob[k], &max_z, &sum_z2);
        printf("\n    place %d: max |z| %.2f, sum z^2 %.1f ", k, max_z, sum_z2);
        CU_ASSERT(max_z < 4.5);
        CU_ASSERT(sum_z2 < 60);
    }
}

/* A Ruff of 47 declared and lost (and a tierce to the Ace, no set): every world gives elder
 * cards that make exactly those claims. */
static void test_every_world_keeps_the_opponents_declared_claims(void)
{
    table_t t;
    picket_rules_t r = test_rules("cotton", NULL);
    deal(&t, &r, ELDER, YOUNGER, STOCK);
    play(&t, "discard 6C 7C");
    play(&t, "discard 6S");
    play(&t, "play AS");
    const picket_pub_t *p = &t.st.pub;
    CU_ASSERT_EQUAL_FATAL(p->claim[0][0][0], 47);
    CU_ASSERT_EQUAL_FATAL(p->answer[0], PK_ANS_NOT_GOOD);
    CU_ASSERT_EQUAL(p->claim[1][0][0], 3);
    CU_ASSERT_EQUAL(p->claim[1][0][1], RANK_A);
    CU_ASSERT_EQUAL(p->claim[2][0][0], 0);
    picket_view_t v;
    picket_view_from_state(&t.st, 1, &v);
    rng_t rng;
    rng_seed(&rng, 4242);
    int differ = 0;
    for (int i = 0; i < 300; i++) {
        picket_state_t w;
        CU_ASSERT_EQUAL_FATAL(picket_sample_world(&v, &rng, &w), 0);
        cardset_t h = w.hand[0] | w.pub.played[0];
        picket_ruff_t ruff;
        picket_sequences_t seq;
        picket_sets_t sets;
        picket_ruff(h, &ruff);
        picket_sequences(h, 0, &seq);
        picket_sets(h, &sets);
        CU_ASSERT_EQUAL(ruff.value, 47);
        CU_ASSERT_EQUAL(seq.best.len, 3);
        CU_ASSERT_EQUAL(seq.best.top, RANK_A);
        CU_ASSERT_EQUAL(sets.best.count, 0);
        differ += w.hand[0] != t.st.hand[0];
    }
    /* Those claims leave many hands open, not just the true one. */
    CU_ASSERT(differ > 250);
}

/* From a chosen deal, random hands to the end of the hand (or set), checking `worlds` worlds for
 * each seat at every point. */
static void check_hands_from_deal(const char *preset, const char *elder, const char *younger, const char *stock,
                                  int hands, uint64_t seed)
{
    /* The hands are of 36 cards: Cavendish's rules are played with that pack here (two Blanks
     * in one deal need it). */
    picket_rules_t r = test_rules(preset, strcmp(preset, "cavendish") == 0 ? "deck=36" : NULL, NULL);
    rng_t rng;
    rng_seed(&rng, seed);
    char why[256];
    game_event_t ev[GAME_MAX_EVENTS];
    int failures = 0;
    for (int h = 0; h < hands && failures < 3; h++) {
        table_t t;
        deal(&t, &r, elder, younger, stock);
        for (int step = 0; failures < 3; step++) {
            for (int seat = 0; seat < 2; seat++)
                for (int k = 0; k < 4; k++) {
                    picket_state_t w;
                    picket_view_t v;
                    picket_view_from_state(&t.st, seat, &v);
                    if (picket_sample_world(&v, &rng, &w) < 0) {
                        fprintf(stderr, "\n  %s hand %d step %d seat %d: no world\n", preset, h, step, seat);
                        failures++;
                    } else if (!check_world(&t.st, seat, &w, &rng, why, sizeof why)) {
                        fprintf(stderr, "\n  %s hand %d step %d seat %d phase %s: %s\n", preset, h, step, seat,
                                PK_PHASE_NAMES[t.st.pub.phase], why);
                        failures++;
                    }
                }
            if (picket_to_move(&t.st) < 0)
                break;
            game_move_t m;
            CU_ASSERT_EQUAL_FATAL(picket_random_move(&t.st, &rng, &m), 0);
            picket_apply(&t.st, &m, ev, GAME_MAX_EVENTS);
        }
    }
    CU_ASSERT_EQUAL(failures, 0);
}

/* Blank hands (DL "hee says so, and shews his hand"; CG's elder first commits to a count). */
static const char *BLANK_A = "AH TH 9H 8H AS TS 9S 8S 6C 7C 8C 9C";
static const char *BLANK_B = "AD TD 9D 8D AC TC 7D 6D 7H 6H 7S 6S";
static const char *COURTS = "KH QH JH KS QS JS KC QC JC KD QD JD";
static const char *REST = "AC TC 6D 7D 8D 9D TD AD 6H 7H 6S 7S";

static void test_blanks_held_by_either_or_both_give_consistent_worlds(void)
{
    for (int p = 0; p < PK_PRESET_COUNT; p++) {
        const char *preset = PICKET_PRESETS[p].name;
        check_hands_from_deal(preset, BLANK_A, COURTS, REST, 6, 1 + (uint64_t)p);
        check_hands_from_deal(preset, COURTS, BLANK_A, REST, 6, 11 + (uint64_t)p);
        check_hands_from_deal(preset, BLANK_A, BLANK_B, COURTS, 6, 21 + (uint64_t)p);
    }
}

/* CG: elder "says, I have a Blank, and I intend to discard such a number of Cards". Until he
 * shows it, younger knows only that elder holds no court card: every world deals elder 12 of
 * the 16 cards below the Knave younger cannot place, each with probability 3/4. */
static void test_an_unshown_blank_is_dealt_from_the_low_cards_alike(void)
{
    table_t t;
    picket_rules_t r = test_rules("cotgrave", NULL);
    deal(&t, &r, BLANK_A, "KH QH JH KS 6D 7D 8D 9D TD AD 6H 7H", "QS JS KC QC JC KD QD JD AC TC 6S 7S");
    CU_ASSERT_EQUAL_FATAL(t.st.pub.phase, PK_PH_BLANK_COUNT);
    for (int stage = 0; stage < 2; stage++) {
        if (stage == 1) {
            play(&t, "blank 3");
            CU_ASSERT_EQUAL_FATAL(t.st.pub.phase, PK_PH_SET_ASIDE);
        }
        picket_view_t v;
        picket_view_from_state(&t.st, 1, &v);
        enum { N = 8000 };
        static tally_t tl;
        count_worlds(&v, 55 + (uint64_t)stage, N, &tl);
        cardset_t courts = cardset_rank(RANK_J) | cardset_rank(RANK_Q) | cardset_rank(RANK_K);
        cardset_t unknown = t.st.pack & ~v.hand;
        cardset_t low = unknown & ~courts;
        CU_ASSERT_EQUAL(cardset_count(low), 16);
        for (cardset_t c = unknown & courts; c; c &= c - 1)
            CU_ASSERT_EQUAL(tl.where[cardset_first(c)][0], 0);
        double max_z, sum_z2;
        z_stats(&tl.where[0][0], 3, low, N, 0.75, &max_z, &sum_z2);
        printf("\n    stage %d: max |z| %.2f, sum z^2 %.1f over 16 cards ", stage, max_z, sum_z2);
        CU_ASSERT(max_z < 4.5);
        CU_ASSERT(sum_z2 < 45);
    }
}

static int same_world(const picket_state_t *a, const picket_state_t *b)
{
    for (int s = 0; s < 2; s++) {
        picket_view_t va, vb;
        picket_view_from_state(a, s, &va);
        picket_view_from_state(b, s, &vb);
        if (picket_view_diff(&va, &vb) || a->dealt[s] != b->dealt[s] || a->discard[s] != b->discard[s])
            return 0;
    }
    return a->deal_seed == b->deal_seed && memcmp(a->stock, b->stock, sizeof a->stock) == 0 &&
           a->set_aside == b->set_aside && memcmp(a->holds_blank, b->holds_blank, sizeof a->holds_blank) == 0;
}

/* The world is the generator's: the same seed draws the same world; another seed another. */
static void test_the_same_seed_draws_the_same_world(void)
{
    table_t t;
    picket_rules_t r = test_rules("cotgrave", NULL);
    deal(&t, &r, ELDER, YOUNGER, STOCK);
    play(&t, "discard 6C 7C");
    picket_view_t v;
    picket_view_from_state(&t.st, 1, &v);
    picket_state_t a, b, c;
    rng_t ra, rb, rc;
    rng_seed(&ra, 99);
    rng_seed(&rb, 99);
    rng_seed(&rc, 100);
    CU_ASSERT_EQUAL_FATAL(picket_sample_world(&v, &ra, &a), 0);
    CU_ASSERT_EQUAL_FATAL(picket_sample_world(&v, &rb, &b), 0);
    CU_ASSERT_EQUAL_FATAL(picket_sample_world(&v, &rc, &c), 0);
    CU_ASSERT(same_world(&a, &b));
    CU_ASSERT(!same_world(&a, &c));
    CU_ASSERT_EQUAL(memcmp(&ra, &rb, sizeof ra), 0);
}

/* At a hand's end the next deal is the world's chance: drawn from the caller's generator, not
 * from the set's seed (which the view never holds). */
static void test_the_next_deal_comes_from_the_generator(void)
{
    const game_t *g = &PICKET_GAME;
    game_config_t cfg = { 0 };
    char err[GAME_ERR_LEN];
    game_config_set_preset(&cfg, "cotgrave", err, sizeof err);
    cfg.deal_seed = 31;
    picket_state_t st;
    CU_ASSERT_EQUAL_FATAL(g->init(&st, &cfg, err, sizeof err), 0);
    rng_t rng;
    rng_seed(&rng, 5);
    game_event_t ev[GAME_MAX_EVENTS];
    /* Random play to the end of the first hand. */
    picket_apply_chance(&st, NULL, ev, GAME_MAX_EVENTS);
    while (picket_to_move(&st) >= 0) {
        game_move_t m;
        CU_ASSERT_EQUAL_FATAL(picket_random_move(&st, &rng, &m), 0);
        picket_apply(&st, &m, ev, GAME_MAX_EVENTS);
    }
    CU_ASSERT_EQUAL_FATAL(picket_to_move(&st), GAME_CHANCE);
    picket_view_t v;
    picket_view_from_state(&st, 0, &v);
    picket_state_t w[2], truth = st;
    picket_apply_chance(&truth, NULL, ev, GAME_MAX_EVENTS);
    for (int i = 0; i < 2; i++) {
        rng_t r;
        rng_seed(&r, 1000 + (uint64_t)i);
        CU_ASSERT_EQUAL_FATAL(picket_sample_world(&v, &r, &w[i]), 0);
        CU_ASSERT_EQUAL(picket_apply_chance(&w[i], NULL, ev, GAME_MAX_EVENTS) > 0, 1);
        CU_ASSERT_EQUAL(w[i].pub.hand_no, 2);
        CU_ASSERT_NOT_EQUAL(w[i].dealt[0], truth.dealt[0]);
    }
    CU_ASSERT_NOT_EQUAL(w[0].dealt[0], w[1].dealt[0]);
    CU_ASSERT_NOT_EQUAL(w[0].deal_seed, w[1].deal_seed);
}

/* Before the first deal nothing is hidden: the world is the start of the set, its cut and deal
 * from the generator. */
static void test_before_the_deal_the_world_is_the_start_of_the_set(void)
{
    picket_view_t v;
    picket_rules_t r = test_rules("cotgrave", NULL);
    picket_view_init(&v, &r, 1);
    picket_state_t w, back_state;
    rng_t rng;
    rng_seed(&rng, 8);
    CU_ASSERT_EQUAL_FATAL(picket_sample_world(&v, &rng, &w), 0);
    picket_view_t back;
    picket_view_from_state(&w, 1, &back);
    CU_ASSERT_PTR_NULL(picket_view_diff(&back, &v));
    CU_ASSERT_EQUAL(picket_to_move(&w), GAME_CHANCE);
    back_state = w;
    game_event_t ev[GAME_MAX_EVENTS];
    CU_ASSERT(picket_apply_chance(&back_state, NULL, ev, GAME_MAX_EVENTS) > 0);
}

/* A view no hand could give has no world. */
static void test_an_impossible_view_has_no_world(void)
{
    table_t t;
    picket_rules_t r = test_rules("cotton", NULL);
    deal(&t, &r, ELDER, YOUNGER, STOCK);
    picket_view_t v;
    picket_view_from_state(&t.st, 0, &v);
    v.know.opp_known = v.hand & -v.hand; /* a card of his own "known" in the other hand */
    picket_state_t w;
    rng_t rng;
    rng_seed(&rng, 1);
    CU_ASSERT_EQUAL(picket_sample_world(&v, &rng, &w), -1);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("sampled worlds", NULL, NULL);
    CU_add_test(s, "cotgrave (and deck=32): every world consistent, legal to the set's end",
                test_cotgrave_worlds_are_consistent);
    CU_add_test(s, "cotton (and deck=32): every world consistent, legal to the set's end",
                test_cotton_worlds_are_consistent);
    CU_add_test(s, "ducoeur-letter (and deck=32): every world consistent, legal to the set's end",
                test_ducoeur_letter_worlds_are_consistent);
    CU_add_test(s, "ducoeur-report (and deck=32): every world consistent, legal to the set's end",
                test_ducoeur_report_worlds_are_consistent);
    CU_add_test(s, "sets ending mid-hand (target=25): every world consistent", test_sets_ending_mid_hand_give_consistent_worlds);
    CU_add_test(s, "Blanks held by either seat or both: every world consistent",
                test_blanks_held_by_either_or_both_give_consistent_worlds);
    CU_add_test(s, "after the deal, unknown cards are equally likely in the other hand",
                test_after_the_deal_every_unknown_card_is_equally_likely_in_the_other_hand);
    CU_add_test(s, "after elder's exchange, unknown cards spread by the places' sizes",
                test_after_elders_exchange_unknown_cards_spread_by_place_sizes);
    CU_add_test(s, "an unshown Blank is dealt from the low cards alike", test_an_unshown_blank_is_dealt_from_the_low_cards_alike);
    CU_add_test(s, "every world keeps the opponent's declared claims", test_every_world_keeps_the_opponents_declared_claims);
    CU_add_test(s, "the same seed draws the same world", test_the_same_seed_draws_the_same_world);
    CU_add_test(s, "the next deal comes from the generator", test_the_next_deal_comes_from_the_generator);
    CU_add_test(s, "before the deal the world is the start of the set", test_before_the_deal_the_world_is_the_start_of_the_set);
    CU_add_test(s, "an impossible view has no world", test_an_impossible_view_has_no_world);
    return test_run_all();
}
