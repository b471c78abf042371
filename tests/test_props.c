/* Property tests over thousands of seeded random sets, for every preset and for random flag
 * combinations: every card is accounted for at every step, scores never fall, every record
 * replays to the same game, each view (rebuilt from events) equals the referee's view of that
 * seat, and no event ever tells a seat a card it may not see.
 *
 * Set PICKET_PROP_SETS to change the number of sets per configuration (default 1000).
 */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot.h"
#include "picket.h"
#include "record.h"
#include "test_util.h"

static int sets_per_config(void)
{
    const char *s = getenv("PICKET_PROP_SETS");
    int n = s ? atoi(s) : 0;
    return n > 0 ? n : 1000;
}

/* Cards the events have told `seat` about so far this hand. */
typedef struct mention {
    cardset_t told[2];
} mention_t;

static cardset_t event_cards(const game_event_t *ev)
{
    cardset_t c = ev->cards;
    if (ev->type == PK_EV_PLAY || ev->type == PK_EV_PEEK)
        c |= cardset_of(ev->arg);
    if (ev->type == PK_EV_CUT && ev->a >= 0)
        c |= cardset_of(ev->a) | cardset_of(ev->b);
    return c;
}

static cardset_t stock_left(const picket_state_t *st)
{
    cardset_t c = 0;
    int size = st->rules.deck - 2 * PK_HAND_CARDS;
    for (int i = size - st->pub.stock_left; i < size; i++)
        c |= cardset_of(st->stock[i]);
    return c;
}

/* The independent oracle of what `seat` may have been told about hidden cards. */
static int check_no_leak(const picket_state_t *st, int seat, cardset_t told, char *why, size_t len)
{
    const picket_pub_t *p = &st->pub;
    int opp = 1 - seat, e = picket_elder(p);
    int share = st->rules.deck == 32 ? 5 : 8;
    cardset_t peek = 0;
    if (seat == e && p->drawn[e] > 0)
        for (int i = p->drawn[e]; i < share; i++)
            peek |= cardset_of(st->stock[i]);
    cardset_t leak;
    /* Discards are never shown, except cards that were shown as a Blank before it. */
    leak = told & st->discard[opp] & ~p->blank_shown[opp];
    if (leak) {
        snprintf(why, len, "seat %d told of opponent's discards", seat);
        return 0;
    }
    /* Undrawn stock: only what elder looked at, what he saw by calling a suit, or turned up. */
    cardset_t may = peek | p->leftover_shown | ((seat == e && p->leftover == 2) ? stock_left(st) : 0);
    leak = told & stock_left(st) & ~may;
    if (leak) {
        snprintf(why, len, "seat %d told of undrawn stock", seat);
        return 0;
    }
    /* The opponent's hand: only shown cards and peeked cards he drew. */
    leak = told & st->hand[opp] & ~(p->blank_shown[opp] | p->decl_shown[opp] | peek);
    if (leak) {
        snprintf(why, len, "seat %d told of cards in the opponent's hand", seat);
        return 0;
    }
    return 1;
}

static int check_cards(const picket_state_t *st, char *why, size_t len)
{
    cardset_t parts[7] = { st->hand[0], st->hand[1], st->discard[0], st->discard[1], stock_left(st),
                           st->pub.played[0], st->pub.played[1] };
    cardset_t all = 0;
    int n = 0;
    for (int i = 0; i < 7; i++) {
        if (all & parts[i]) {
            snprintf(why, len, "a card is in two places (part %d)", i);
            return 0;
        }
        all |= parts[i];
        n += cardset_count(parts[i]);
    }
    if (st->pub.hand_no > 0 && st->pub.phase != PK_PH_SET_ASIDE && all != st->pack) {
        snprintf(why, len, "cards missing: %d of %d accounted for", n, cardset_count(st->pack));
        return 0;
    }
    return 1;
}

static int same_moves(const game_move_t *a, int na, const game_move_t *b, int nb)
{
    return na == nb && memcmp(a, b, sizeof *a * (size_t)na) == 0;
}

/* Play one random set, checking every property at every step; writes its record to rec. */
static int play_checked(const game_config_t *cfg, uint64_t bot_seed, FILE *rec, picket_state_t *st,
                        char *why, size_t len)
{
    const game_t *g = &PICKET_GAME;
    picket_view_t views[2], truth;
    char err[GAME_ERR_LEN];
    if (g->init(st, cfg, err, sizeof err) < 0) {
        snprintf(why, len, "init: %s", err);
        return 0;
    }
    for (int s = 0; s < 2; s++)
        g->view_init(&views[s], cfg, s, err, sizeof err);
    record_write_header(rec, g, cfg);
    rng_t rng;
    rng_seed(&rng, bot_seed);
    mention_t told = { { 0, 0 } };
    int32_t last_score[2] = { 0, 0 };
    static game_move_t a[GAME_MAX_MOVES], b[GAME_MAX_MOVES];
    game_event_t ev[GAME_MAX_EVENTS];
    for (int step = 0; step < 100000; step++) {
        int who = g->to_move(st);
        if (who == GAME_OVER) {
            record_write_result(rec, g, st);
            return 1;
        }
        int n;
        if (who == GAME_CHANCE) {
            n = g->apply_chance(st, NULL, ev, GAME_MAX_EVENTS);
        } else {
            /* The seat's view offers exactly the referee's legal moves. */
            int na = g->legal_moves(st, a, GAME_MAX_MOVES);
            int nb = g->view_legal_moves(&views[who], b, GAME_MAX_MOVES);
            if (na == 0 || !same_moves(a, na, b, nb)) {
                snprintf(why, len, "step %d: view's legal moves differ (%d vs %d)", step, nb, na);
                return 0;
            }
            game_move_t m;
            /* Mix uniform-over-moves picks with listed picks so both paths are exercised. */
            if (rng_below(&rng, 2)) {
                if (g->view_random_move(&views[who], &rng, &m) < 0) {
                    snprintf(why, len, "step %d: no random move where %d are legal", step, na);
                    return 0;
                }
            } else
                m = a[rng_below(&rng, (uint32_t)na)];
            if (!g->is_legal(st, &m, err, sizeof err)) {
                snprintf(why, len, "step %d: random move refused: %s", step, err);
                return 0;
            }
            record_write_move(rec, g, who, &m);
            n = g->apply(st, &m, ev, GAME_MAX_EVENTS);
        }
        if (n > GAME_MAX_EVENTS) {
            snprintf(why, len, "step %d: %d events in one step", step, n);
            return 0;
        }
        for (int i = 0; i < n; i++) {
            if (ev[i].type == PK_EV_HAND)
                told.told[0] = told.told[1] = 0;
            for (int s = 0; s < 2; s++) {
                if (!game_event_visible(&ev[i], s))
                    continue;
                told.told[s] |= event_cards(&ev[i]);
                if (g->view_apply(&views[s], &ev[i]) < 0) {
                    char text[200];
                    g->event_format(&ev[i], text, sizeof text);
                    snprintf(why, len, "step %d: seat %d's view refused '%s'", step, s, text);
                    return 0;
                }
            }
        }
        if (!check_cards(st, why, len))
            return 0;
        for (int s = 0; s < 2; s++) {
            if (st->pub.score[s] < last_score[s]) {
                snprintf(why, len, "step %d: seat %d's score fell", step, s);
                return 0;
            }
            last_score[s] = st->pub.score[s];
            g->view_from_state(st, s, &truth);
            const char *d = g->view_diff(&views[s], &truth);
            if (d) {
                snprintf(why, len, "step %d: seat %d's view differs from the referee's in %s", step, s, d);
                return 0;
            }
            /* The knowledge a view holds is true. */
            if (views[s].hand != st->hand[s] || (views[s].know.opp_known & ~st->hand[1 - s]) ||
                (views[s].know.stock_known & ~stock_left(st))) {
                snprintf(why, len, "step %d: seat %d's knowledge is not true", step, s);
                return 0;
            }
            if (!check_no_leak(st, s, told.told[s], why, len))
                return 0;
        }
    }
    snprintf(why, len, "the set did not end");
    return 0;
}

static void run_config(const char *preset, const char *const *flags, int nflags, int sets, uint64_t seed)
{
    game_config_t cfg = { 0 };
    char err[GAME_ERR_LEN], why[256];
    game_config_set_preset(&cfg, preset, err, sizeof err);
    for (int i = 0; i < nflags; i++)
        game_config_add_flag(&cfg, flags[i], err, sizeof err);
    picket_state_t st;
    int failures = 0;
    for (int i = 0; i < sets && failures < 3; i++) {
        cfg.deal_seed = seed + (uint64_t)i;
        char *buf = NULL;
        size_t size = 0;
        FILE *rec = open_memstream(&buf, &size);
        CU_ASSERT_PTR_NOT_NULL_FATAL(rec);
        int ok = play_checked(&cfg, rng_derive(cfg.deal_seed, 7), rec, &st, why, sizeof why);
        fclose(rec);
        if (!ok) {
            fprintf(stderr, "\n  preset %s seed %llu: %s\n", preset, (unsigned long long)cfg.deal_seed, why);
            failures++;
            free(buf);
            continue;
        }
        /* The record replays to the same game. */
        FILE *in = fmemopen(buf, size, "r");
        record_t r;
        if (record_replay(in, &r, NULL, NULL, err, sizeof err) < 0) {
            fprintf(stderr, "\n  preset %s seed %llu: replay: %s\n", preset, (unsigned long long)cfg.deal_seed, err);
            failures++;
        } else {
            picket_view_t a, b;
            for (int s = 0; s < 2; s++) {
                picket_view_from_state(&st, s, &a);
                picket_view_from_state(r.state, s, &b);
                if (picket_view_diff(&a, &b)) {
                    fprintf(stderr, "\n  preset %s seed %llu: replay differs in %s\n", preset,
                            (unsigned long long)cfg.deal_seed, picket_view_diff(&a, &b));
                    failures++;
                    break;
                }
            }
        }
        record_free(&r);
        fclose(in);
        free(buf);
    }
    CU_ASSERT_EQUAL(failures, 0);
}

/* Every preset as the sources read it. */
static void test_cotgrave_sets_keep_every_property(void) { run_config("cotgrave", NULL, 0, sets_per_config(), 1000); }
static void test_cotton_sets_keep_every_property(void) { run_config("cotton", NULL, 0, sets_per_config(), 2000); }
static void test_ducoeur_letter_sets_keep_every_property(void) { run_config("ducoeur-letter", NULL, 0, sets_per_config(), 3000); }
static void test_ducoeur_report_sets_keep_every_property(void) { run_config("ducoeur-report", NULL, 0, sets_per_config(), 4000); }

/* The 32-card pack with each preset (DR mentions it). */
static void test_32_card_pack_keeps_every_property(void)
{
    static const char *const flags[] = { "deck=32" };
    for (int p = 0; p < PK_PRESET_COUNT; p++)
        run_config(PICKET_PRESETS[p].name, flags, 1, sets_per_config() / 4, 5000 + 1000 * (uint64_t)p);
}

/* Sinking (declarations=may-sink: calls and answers are decisions) with each preset. */
static void test_sinking_keeps_every_property(void)
{
    static const char *const flags[] = { "declarations=may-sink", "sequences=suited" };
    for (int p = 0; p < PK_PRESET_COUNT; p++)
        run_config(PICKET_PRESETS[p].name, flags, 2, sets_per_config() / 4, 7000 + 1000 * (uint64_t)p);
}

/* Random flag combinations, so every value meets every other. Blanks are rare (1 in 463), so
 * a low target keeps sets short and many. */
static void test_random_flag_combinations_keep_every_property(void)
{
    rng_t rng;
    rng_seed(&rng, 99);
    for (int c = 0; c < 40; c++) {
        static char buf[PK_FLAG_COUNT][48];
        const char *flags[PK_FLAG_COUNT];
        int n = 0;
        for (int f = 0; f < PK_FLAG_COUNT; f++) {
            const picket_flag_t *fl = &PICKET_FLAGS[f];
            int nv = 0;
            while (nv < PK_MAX_VALUES && fl->values[nv])
                nv++;
            if (strcmp(fl->name, "deck") == 0)
                snprintf(buf[n], 48, "deck=%d", rng_below(&rng, 2) ? 32 : 36);
            else if (strcmp(fl->name, "target") == 0)
                snprintf(buf[n], 48, "target=%u", 30 + rng_below(&rng, 100));
            else
                snprintf(buf[n], 48, "%s=%s", fl->name, fl->values[rng_below(&rng, (uint32_t)nv)]);
            flags[n] = buf[n];
            n++;
        }
        /* Sinking is refused with unsuited sequences (a misconfiguration, not a set). */
        for (int i = 0; i < n; i++)
            if (strcmp(buf[i], "sequences=unsuited") == 0)
                for (int j = 0; j < n; j++)
                    if (strcmp(buf[j], "declarations=may-sink") == 0)
                        snprintf(buf[i], 48, "sequences=suited");
        run_config(PICKET_PRESETS[c % PK_PRESET_COUNT].name, flags, n, sets_per_config() / 20 + 1, 10000 + 100 * (uint64_t)c);
    }
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("properties of random sets", NULL, NULL);
    CU_add_test(s, "cotgrave: cards, scores, records, views, no leaks", test_cotgrave_sets_keep_every_property);
    CU_add_test(s, "cotton: cards, scores, records, views, no leaks", test_cotton_sets_keep_every_property);
    CU_add_test(s, "ducoeur-letter: cards, scores, records, views, no leaks", test_ducoeur_letter_sets_keep_every_property);
    CU_add_test(s, "ducoeur-report: cards, scores, records, views, no leaks", test_ducoeur_report_sets_keep_every_property);
    CU_add_test(s, "deck=32 with every preset", test_32_card_pack_keeps_every_property);
    CU_add_test(s, "sinking, every preset", test_sinking_keeps_every_property);
    CU_add_test(s, "random flag combinations", test_random_flag_combinations_keep_every_property);
    return test_run_all();
}
