/* The exact hidden-card sampler (picket_sampler.h) against the rules themselves.
 *
 * A world is judged only by replay: its deal (both dealt hands and the stock in order) and the
 * opponent's discards go through picket_deal_given and picket_apply with the hand's recorded
 * moves (his calls under declarations=may-sink: any of his that goes on to give the same events),
 * and the world is consistent iff the seat receives exactly the events it received and
 * picket_view_from_state gives back its view. Nothing here knows a rule the sampler uses.
 *
 *  1. Consistency by replay: views at random decision points of seeded random and heuristic sets
 *     (every preset, both packs, random combinations of the other flags, and hands dealt with a
 *     Blank); for each, one world drawn and replayed: the events, the view and the state, field
 *     by field, must be the drawn state's.
 *  2. Exact counts and uniformity: an independent brute force places the unplaced cards into
 *     the four bins (K kept, X discarded, R drawn by the opponent unseen, L undrawn unseen) in
 *     every way, keeps the placements whose replay is consistent, and counts worlds and distinct
 *     holdings; on views small enough the sampler's counts must be those, and a chi-square test
 *     over at least 100 samples per world must not reject (threshold: the chi-square quantile at
 *     1e-6 for the degrees of freedom). The deliberately wrong samplers must be caught.
 *  3. Declarations bite: hand-built deals where a claim, a show, a void, a Blank (shown, declared
 *     and not shown, or not declared), a called suit or an appointment due pins the opponent's
 *     hand; every holding drawn obeys it (checked with picket_score) and the counts are the brute
 *     force's.
 *  4. The game_t hooks of PICKET_GAME.
 *
 * Environment: PICKET_SAMPLER_VIEWS (views of part 1, default 100000), PICKET_SAMPLER_BF (views
 * brute-forced per configuration in part 2, default 12), PICKET_SAMPLER_BUDGET (most placements a
 * brute force may replay, default 20000). A failure prints the preset, flags, seed, seat and move
 * number that reproduce it.
 */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "picket.h"
#include "measure.h"
#include "picket_sampler.h"
#include "picket_score.h"
#include "test_util.h"

static long env_long(const char *name, long def)
{
    const char *s = getenv(name);
    long n = s ? atol(s) : 0;
    return n > 0 ? n : def;
}

static int nstock_of(const picket_rules_t *r) { return r->deck - 2 * PK_HAND_CARDS; }

/* "cotgrave deck=32 ties=elder": the rules as a preset and its overrides, for failure reports. */
static const char *rules_text(const picket_rules_t *r, int preset, char *buf, size_t len)
{
    char over[PK_FLAG_COUNT][48];
    int n = picket_rules_overrides(r, PICKET_PRESETS[preset].name, over, PK_FLAG_COUNT);
    size_t at = (size_t)snprintf(buf, len, "%s", PICKET_PRESETS[preset].name);
    for (int i = 0; i < n && at < len; i++)
        at += (size_t)snprintf(buf + at, len - at, " %s", over[i]);
    return buf;
}

static const char *cards_text(cardset_t c, char *buf, size_t len)
{
    cardset_format(c, buf, len);
    return buf;
}

/* ---------------------------------------------------------------- a table that keeps the hand */

enum { LOG_MOVES = 64, LOG_EVENTS = 320 };

/* The true state and what the replay needs of the hand in progress: every move since the deal,
 * and the events each seat received since the hand's HAND event. */
typedef struct table {
    picket_state_t st;
    int preset;
    uint64_t seed;
    int step;                  /* decisions and deals since the set began */
    int nmoves;
    game_move_t moves[LOG_MOVES];
    int8_t mover[LOG_MOVES];
    int nev[2];
    game_event_t ev[2][LOG_EVENTS];
} table_t;

static void log_events(table_t *t, const game_event_t *ev, int n)
{
    CU_ASSERT_FATAL(n <= GAME_MAX_EVENTS);
    for (int i = 0; i < n; i++) {
        if (ev[i].type == PK_EV_HAND)
            t->nmoves = t->nev[0] = t->nev[1] = 0;
        for (int s = 0; s < 2; s++)
            if (game_event_visible(&ev[i], s)) {
                CU_ASSERT_FATAL(t->nev[s] < LOG_EVENTS);
                t->ev[s][t->nev[s]++] = ev[i];
            }
    }
}

static void table_init(table_t *t, const picket_rules_t *r, int preset, uint64_t seed)
{
    memset(t, 0, sizeof *t);
    picket_init(&t->st, r, seed);
    t->preset = preset;
    t->seed = seed;
}

static void table_chance(table_t *t)
{
    game_event_t ev[GAME_MAX_EVENTS];
    log_events(t, ev, picket_apply_chance(&t->st, NULL, ev, GAME_MAX_EVENTS));
    t->step++;
}

static void table_deal(table_t *t, int dealer, const cardset_t hands[2], const uint8_t *stock)
{
    game_event_t ev[GAME_MAX_EVENTS];
    int n = picket_deal_given(&t->st, dealer, hands, stock, ev, GAME_MAX_EVENTS);
    CU_ASSERT_FATAL(n > 0);
    log_events(t, ev, n);
    t->step++;
}

static void table_apply(table_t *t, const game_move_t *m)
{
    game_event_t ev[GAME_MAX_EVENTS];
    CU_ASSERT_FATAL(t->nmoves < LOG_MOVES);
    t->mover[t->nmoves] = (int8_t)picket_to_move(&t->st);
    t->moves[t->nmoves++] = *m;
    log_events(t, ev, picket_apply(&t->st, m, ev, GAME_MAX_EVENTS));
    t->step++;
}

/* A scripted move ("discard 6C 7C", "play AS"); it must be legal. */
static void table_play(table_t *t, const char *text)
{
    game_move_t m;
    char err[GAME_ERR_LEN];
    CU_ASSERT_EQUAL_FATAL(picket_move_parse(text, &m, err, sizeof err), 0);
    if (!picket_is_legal(&t->st, &m, err, sizeof err)) {
        fprintf(stderr, "\n  scripted move '%s' refused: %s\n", text, err);
        CU_FAIL_FATAL("a scripted move is illegal");
    }
    table_apply(t, &m);
}

/* A chosen deal, dealer 1 (seat 0 elder); cards as text, the stock top first. */
static void table_deal_text(table_t *t, const char *elder, const char *younger, const char *stock)
{
    cardset_t hands[2] = { test_cards(elder), test_cards(younger) };
    cardset_t st = test_cards(stock);
    uint8_t order[PK_STOCK];
    int n = 0;
    for (const char *p = stock; *p;) {
        while (*p == ' ')
            p++;
        const char *q = p;
        while (*q && *q != ' ')
            q++;
        if (q > p && n < PK_STOCK)
            order[n++] = (uint8_t)card_parse(p, (size_t)(q - p));
        p = q;
    }
    CU_ASSERT_EQUAL_FATAL(n, cardset_count(st));
    CU_ASSERT_EQUAL_FATAL(n, nstock_of(&t->st.rules));
    table_deal(t, 1, hands, order);
}

/* ---------------------------------------------------------------- replay */

/* A world as cards: both dealt hands, the opponent's discards and the stock in order. */
typedef struct deal {
    cardset_t dealt[2];
    cardset_t opp_discard;
    uint8_t stock[PK_STOCK];
} deal_t;

/* The events of one step against what the seat received, from *seen on: 1 if they match. */
static int match_events(const table_t *t, int seat, const game_event_t *ev, int n, int *seen, int *started, char *why,
                        size_t len)
{
    for (int j = 0; j < n && j < GAME_MAX_EVENTS; j++) {
        *started |= ev[j].type == PK_EV_HAND;
        if (!*started || !game_event_visible(&ev[j], seat))
            continue;
        if (*seen >= t->nev[seat] || memcmp(&ev[j], &t->ev[seat][*seen], sizeof ev[j]) != 0) {
            const char *saw = *seen < t->nev[seat] ? PK_EVENT_NAMES[t->ev[seat][*seen].type] : "none";
            snprintf(why, len, "event %d of the hand differs (%s where the seat saw %s)", *seen, PK_EVENT_NAMES[ev[j].type],
                     saw);
            return 0;
        }
        (*seen)++;
    }
    return 1;
}

/* The recorded moves from move i on, in st: the opponent's discard is the deal's, and each of
 * his calls (declarations=may-sink) any he could make there that the rest of the record allows:
 * a world is consistent when some choice of his gives the seat what it received. */
static int replay_moves(const table_t *t, int seat, const deal_t *d, picket_state_t *st, int i, int seen, int started,
                        char *why, size_t len)
{
    int opp = 1 - seat;
    game_event_t ev[GAME_MAX_EVENTS];
    char err[GAME_ERR_LEN];
    for (; i < t->nmoves; i++) {
        game_move_t m = t->moves[i];
        if (picket_to_move(st) != t->mover[i]) {
            snprintf(why, len, "move %d of the hand is due from seat %d, not %d", i, picket_to_move(st), t->mover[i]);
            return 0;
        }
        if (t->mover[i] == opp && m.kind == PK_MV_DECLARE) {
            game_move_t calls[PK_MAX_CALLS];
            int k = picket_legal_moves(st, calls, PK_MAX_CALLS);
            for (int j = 0; j < k; j++) {
                picket_state_t c = *st;
                int s2 = seen, st2 = started, n = picket_apply(&c, &calls[j], ev, GAME_MAX_EVENTS);
                if (match_events(t, seat, ev, n, &s2, &st2, why, len) &&
                    replay_moves(t, seat, d, &c, i + 1, s2, st2, why, len)) {
                    *st = c;
                    return 1;
                }
            }
            snprintf(why, len, "no call of the opponent's at move %d gives what the seat saw", i);
            return 0;
        }
        if (t->mover[i] == opp && m.kind == PK_MV_DISCARD)
            m.cards = d->opp_discard;
        if (!picket_is_legal(st, &m, err, sizeof err)) {
            snprintf(why, len, "move %d of the hand is refused: %.120s", i, err);

            return 0;
        }
        int n = picket_apply(st, &m, ev, GAME_MAX_EVENTS);
        if (!match_events(t, seat, ev, n, &seen, &started, why, len))
            return 0;
    }
    if (seen != t->nev[seat]) {
        snprintf(why, len, "the replay gives %d events, the seat saw %d", seen, t->nev[seat]);
        return 0;
    }
    return 1;
}

/* Replay the hand kept in t from a deal, for the view's seat: a fresh set at the view's hand
 * number and the scores at the start of the hand, the set's cut, then the recorded moves with
 * the opponent's discard replaced by the deal's (and his calls by any that fit). 1 if every move
 * is legal and the seat receives exactly the events it received since the HAND event (memcmp);
 * else 0 with the first difference in why. */
static int replay(const table_t *t, const picket_view_t *v, const deal_t *d, picket_state_t *out, char *why,
                  size_t len)
{
    const picket_pub_t *p = &v->pub;
    int seat = v->seat;
    game_event_t ev[GAME_MAX_EVENTS];
    picket_init(out, &v->rules, 0);
    out->pub.hand_no = (int16_t)(p->hand_no - 1);
    for (int s = 0; s < 2; s++)
        out->pub.score[s] = p->score[s] - p->hand_pts[s];
    int n = picket_deal_given(out, p->dealer, d->dealt, d->stock, ev, GAME_MAX_EVENTS);
    if (n < 0) {
        snprintf(why, len, "the deal is not the pack");
        return 0;
    }
    memcpy(out->pub.cut, p->cut, sizeof out->pub.cut);
    int seen = 0, started = 0;
    if (!match_events(t, seat, ev, n, &seen, &started, why, len))
        return 0;
    return replay_moves(t, seat, d, out, 0, seen, started, why, len);
}

/* NULL if equal, else the first field that differs: every field but deal_seed. */
static const char *state_diff(const picket_state_t *a, const picket_state_t *b, int nstock)
{
#define SDIFF(f)                                           \
    do {                                                   \
        if (memcmp(&a->f, &b->f, sizeof a->f) != 0)        \
            return #f;                                     \
    } while (0)
    SDIFF(rules); SDIFF(pack); SDIFF(hand); SDIFF(dealt); SDIFF(discard); SDIFF(holds_blank);
    SDIFF(set_aside); SDIFF(know[0].seen); SDIFF(know[0].opp_known); SDIFF(know[0].stock_known);
    SDIFF(know[1].seen); SDIFF(know[1].opp_known); SDIFF(know[1].stock_known);
#undef SDIFF
    if (memcmp(a->stock, b->stock, (size_t)nstock) != 0)
        return "stock";
    if (memcmp(a->stock + nstock, b->stock + nstock, (size_t)(PK_STOCK - nstock)) != 0)
        return "stock (the unused tail)";
    return picket_pub_diff(&a->pub, &b->pub);
}

static void deal_of_state(const picket_state_t *w, int opp, deal_t *d)
{
    d->dealt[0] = w->dealt[0];
    d->dealt[1] = w->dealt[1];
    d->opp_discard = w->discard[opp];
    memcpy(d->stock, w->stock, sizeof d->stock);
}

/* Checks (a), (b), (c) of one world state for the view: 1 or 0 with a reason. */
static int check_world(const table_t *t, const picket_view_t *v, const picket_state_t *w, char *why, size_t len)
{
    picket_view_t back;
    picket_view_from_state(w, v->seat, &back);
    const char *d = picket_view_diff(&back, v);
    if (d) {
        snprintf(why, len, "(b) the world's view differs in %s", d);
        return 0;
    }
    deal_t deal;
    deal_of_state(w, 1 - v->seat, &deal);
    picket_state_t re;
    char r[200];
    if (!replay(t, v, &deal, &re, r, sizeof r)) {
        snprintf(why, len, "(a) replay: %s", r);
        return 0;
    }
    d = state_diff(&re, w, nstock_of(&v->rules));
    if (d) {
        snprintf(why, len, "(c) the replayed state differs from the drawn one in %s", d);
        return 0;
    }
    return 1;
}

/* ---------------------------------------------------------------- the four bins */

/* What the view fixes of a world: the seat's own cards and the stock positions it knows; the
 * unplaced cards U and the sizes of the bins. Only certain facts: where the seat's cards went,
 * what it peeked at or saw left over, and which cards the opponent has played, shown or is
 * known to hold (they lie in K or R); a Blank shown is his dealt hand. */
typedef struct bins {
    int seat, opp, nstock;
    cardset_t U, force, blank;
    cardset_t opp_pinned;       /* cards the opponent drew from positions the seat peeked at */
    int nK, nX, nR, nL;
    cardset_t my_dealt, stock_seen;
    int8_t at[PK_STOCK];        /* the card the seat knows at each position, or -1 */
    uint8_t r_pos[PK_STOCK], l_pos[PK_STOCK];
    int n_r, n_l;
} bins_t;

static int make_bins(const picket_view_t *v, bins_t *b, char *why, size_t len)
{
    const picket_pub_t *p = &v->pub;
    memset(b, 0, sizeof *b);
    int me = v->seat, opp = 1 - me, e = picket_elder(p), y = 1 - e;
    b->seat = me;
    b->opp = opp;
    b->nstock = nstock_of(&v->rules);
    memset(b->at, -1, sizeof b->at);
    cardset_t pack = cards_pack(v->rules.deck);
    int from[2];
    from[e] = 0;
    from[y] = p->drawn[e];
    /* The seat's draws, in any order (the seat cannot tell it, nothing it sees depends on it). */
    cardset_t mine = (v->hand | p->played[me]) & ~v->dealt;
    if (cardset_count(mine) != p->drawn[me]) {
        snprintf(why, len, "bins: the seat's draws do not add up");
        return 0;
    }
    int i = from[me];
    for (cardset_t c = mine; c; c &= c - 1)
        b->at[i++] = (int8_t)cardset_first(c);
    cardset_t pinned = 0;
    if (me == e && p->drawn[e] > 0)
        for (int k = p->drawn[e], j = 0; k < picket_elder_share(&v->rules) && k < b->nstock && j < 8; k++, j++) {
            if (v->peek[j] < 0 || v->peek[j] >= CARD_COUNT) {
                snprintf(why, len, "bins: a peek is missing");
                return 0;
            }
            b->at[k] = v->peek[j];
            pinned |= cardset_of(v->peek[j]);
        }
    for (int k = from[opp]; k < from[opp] + p->drawn[opp]; k++) {
        if (b->at[k] < 0)
            b->r_pos[b->n_r++] = (uint8_t)k;
        else
            b->opp_pinned |= cardset_of(b->at[k]);
    }
    for (int k = p->drawn[e] + p->drawn[y]; k < b->nstock; k++)
        if (b->at[k] < 0)
            b->l_pos[b->n_l++] = (uint8_t)k;
    b->my_dealt = v->dealt;
    b->stock_seen = v->know.stock_known & ~pinned;
    b->U = pack & ~(v->dealt | mine | pinned | b->stock_seen);
    b->nK = PK_HAND_CARDS - p->discarded[opp];
    b->nX = p->discarded[opp];
    b->nR = b->n_r;
    b->nL = b->n_l - cardset_count(b->stock_seen);
    b->force = (p->played[opp] | v->know.opp_known | p->decl_shown[opp]) & b->U;
    b->blank = p->blank_shown[opp];
    if (b->nL < 0 || cardset_count(b->U) != b->nK + b->nX + b->nR + b->nL || (b->blank & ~b->U)) {
        snprintf(why, len, "bins: %d unplaced cards for bins of %d %d %d %d", cardset_count(b->U), b->nK, b->nX,
                 b->nR, b->nL);
        return 0;
    }
    return 1;
}

static double binom(int n, int k)
{
    if (k < 0 || k > n || n < 0)
        return 0;
    double r = 1;
    for (int i = 1; i <= k; i++)
        r = r * (n - k + i) / i;
    return r;
}

/* How many placements the brute force replays. */
static double placements(const bins_t *b)
{
    if (b->blank) {
        cardset_t fb = b->force & b->blank, fo = b->force & ~b->blank;
        return binom(cardset_count(b->blank & ~b->force), b->nK - cardset_count(fb)) *
               binom(cardset_count(b->U & ~b->blank & ~b->force), b->nR - cardset_count(fo));
    }
    int nf = cardset_count(b->force);
    return binom(cardset_count(b->U & ~b->force), b->nK + b->nR - nf) * binom(b->nK + b->nR, b->nR) *
           binom(cardset_count(b->U) - b->nK - b->nR, b->nX);
}

/* Subsets of k cards of a set, one after another (Gosper's hack over the set's positions). */
typedef struct subsets {
    uint8_t card[CARD_COUNT];
    int n, k;
    uint64_t mask;
    int done;
} subsets_t;

static void subsets_start(subsets_t *s, cardset_t set, int k)
{
    s->n = 0;
    for (cardset_t c = set; c; c &= c - 1)
        s->card[s->n++] = (uint8_t)cardset_first(c);
    s->k = k;
    s->done = k < 0 || k > s->n;
    s->mask = k > 0 ? ((uint64_t)1 << k) - 1 : 0;
}

/* The next subset into *out; 0 when there are no more. */
static int subsets_next(subsets_t *s, cardset_t *out)
{
    if (s->done)
        return 0;
    cardset_t c = 0;
    for (uint64_t m = s->mask; m; m &= m - 1)
        c |= cardset_of(s->card[__builtin_ctzll(m)]);
    *out = c;
    if (s->k == 0) {
        s->done = 1;
    } else {
        uint64_t lo = s->mask & -s->mask, r = s->mask + lo;
        s->mask = (((r ^ s->mask) >> 2) / lo) | r;
        if (s->mask >> s->n)
            s->done = 1;
    }
    return 1;
}

/* One world as the bins hold it (L is the rest of U). */
typedef struct wkey {
    cardset_t k, x, r;
} wkey_t;

static int wkey_cmp(const void *a, const void *b)
{
    const wkey_t *p = a, *q = b;
    if (p->k != q->k)
        return p->k < q->k ? -1 : 1;
    if (p->x != q->x)
        return p->x < q->x ? -1 : 1;
    if (p->r != q->r)
        return p->r < q->r ? -1 : 1;
    return 0;
}

static int u64_cmp(const void *a, const void *b)
{
    uint64_t p = *(const uint64_t *)a, q = *(const uint64_t *)b;
    return p < q ? -1 : p > q;
}

/* The world a drawn state is, in the bins' terms. */
static wkey_t key_of_state(const bins_t *b, const picket_state_t *w)
{
    int o = b->opp;
    wkey_t k;
    k.k = w->dealt[o] & ~w->discard[o];
    k.x = w->discard[o];
    k.r = (w->hand[o] | w->pub.played[o]) & ~w->dealt[o] & b->U;
    return k;
}

/* A rule a forged view's holding must obey: the opponent's holding P (his hand and the cards he
 * played) and his dealt hand D. */
typedef int (*holding_rule_fn)(cardset_t P, cardset_t D, const void *arg);

typedef struct brute {
    wkey_t *worlds;
    long n, cap;
    uint64_t holdings;
    long tried;
    /* With a rule: the placements that break it, and how many of those the replay kept. */
    holding_rule_fn rule;
    const void *rule_arg;
    long breakers, breakers_kept;
} brute_t;

static void brute_free(brute_t *bf)
{
    free(bf->worlds);
    memset(bf, 0, sizeof *bf);
}

static void visit(const table_t *t, const picket_view_t *v, const bins_t *b, cardset_t K, cardset_t X, cardset_t R,
                  brute_t *bf)
{
    deal_t d;
    d.dealt[b->seat] = b->my_dealt;
    d.dealt[b->opp] = K | X;
    d.opp_discard = X;
    memset(d.stock, 0, sizeof d.stock);
    for (int i = 0; i < b->nstock; i++)
        d.stock[i] = (uint8_t)(b->at[i] < 0 ? 0 : b->at[i]);
    int i = 0;
    for (cardset_t c = R; c; c &= c - 1)
        d.stock[b->r_pos[i++]] = (uint8_t)cardset_first(c);
    i = 0;
    cardset_t L = b->U & ~(K | X | R);
    for (cardset_t c = b->stock_seen | L; c; c &= c - 1)
        d.stock[b->l_pos[i++]] = (uint8_t)cardset_first(c);
    bf->tried++;
    int breaks = bf->rule && !bf->rule(K | R | b->opp_pinned, K | X, bf->rule_arg);
    bf->breakers += breaks;
    picket_state_t w;
    char why[200];
    if (!replay(t, v, &d, &w, why, sizeof why))
        return;
    picket_view_t back;
    picket_view_from_state(&w, b->seat, &back);
    if (picket_view_diff(&back, v))
        return;
    bf->breakers_kept += breaks;
    if (bf->n == bf->cap) {
        bf->cap = bf->cap ? 2 * bf->cap : 256;
        bf->worlds = realloc(bf->worlds, (size_t)bf->cap * sizeof *bf->worlds);
        CU_ASSERT_PTR_NOT_NULL_FATAL(bf->worlds);
    }
    bf->worlds[bf->n++] = (wkey_t){ K, X, R };
}

/* Every placement of U into the bins, replayed: the consistent worlds (sorted) and the number
 * of distinct holdings K + R. */
static void brute_force(const table_t *t, const picket_view_t *v, const bins_t *b, brute_t *bf)
{
    holding_rule_fn rule = bf->rule;
    const void *arg = bf->rule_arg;
    memset(bf, 0, sizeof *bf);
    bf->rule = rule;
    bf->rule_arg = arg;
    subsets_t a, c, e;
    cardset_t A, C, E;
    if (b->blank) {
        cardset_t fb = b->force & b->blank, fo = b->force & ~b->blank;
        subsets_start(&a, b->blank & ~b->force, b->nK - cardset_count(fb));
        while (subsets_next(&a, &A)) {
            cardset_t K = A | fb;
            subsets_start(&c, b->U & ~b->blank & ~b->force, b->nR - cardset_count(fo));
            while (subsets_next(&c, &C))
                visit(t, v, b, K, b->blank & ~K, C | fo, bf);
        }
    } else {
        int nf = cardset_count(b->force);
        subsets_start(&a, b->U & ~b->force, b->nK + b->nR - nf);
        while (subsets_next(&a, &A)) {
            cardset_t P = A | b->force;
            subsets_start(&c, P, b->nR);
            while (subsets_next(&c, &C)) {
                subsets_start(&e, b->U & ~P, b->nX);
                while (subsets_next(&e, &E))
                    visit(t, v, b, P & ~C, E, C, bf);
            }
        }
    }
    if (bf->n)
        qsort(bf->worlds, (size_t)bf->n, sizeof *bf->worlds, wkey_cmp);
    uint64_t *h = malloc((size_t)(bf->n + 1) * sizeof *h);
    CU_ASSERT_PTR_NOT_NULL_FATAL(h);
    for (long i = 0; i < bf->n; i++)
        h[i] = bf->worlds[i].k | bf->worlds[i].r;
    qsort(h, (size_t)bf->n, sizeof *h, u64_cmp);
    for (long i = 0; i < bf->n; i++)
        bf->holdings += i == 0 || h[i] != h[i - 1];
    free(h);
}

static long brute_find(const brute_t *bf, wkey_t k)
{
    const wkey_t *f = bsearch(&k, bf->worlds, (size_t)bf->n, sizeof k, wkey_cmp);
    return f ? (long)(f - bf->worlds) : -1;
}

/* ---------------------------------------------------------------- chi-square */

/* Q(a, x), the regularized upper incomplete gamma function (series below a + 1, Lentz's
 * continued fraction above, as in Numerical Recipes). */
static double gamma_q(double a, double x)
{
    if (x <= 0)
        return 1;
    double lg = a * log(x) - x - lgamma(a);
    if (x < a + 1) {
        double term = 1 / a, sum = term;
        for (int n = 1; n < 100000; n++) {
            term *= x / (a + n);
            sum += term;
            if (term < sum * 1e-17)
                break;
        }
        return 1 - sum * exp(lg);
    }
    double b = x + 1 - a, c = 1e300, d = 1 / b, h = d;
    for (int i = 1; i < 100000; i++) {
        double an = -i * (i - a);
        b += 2;
        d = an * d + b;
        if (fabs(d) < 1e-300)
            d = 1e-300;
        c = b + an / c;
        if (fabs(c) < 1e-300)
            c = 1e-300;
        d = 1 / d;
        double del = d * c;
        h *= del;
        if (fabs(del - 1) < 1e-16)
            break;
    }
    return h * exp(lg);
}

/* The x with P(chi2_dof > x) = alpha, by bisection on gamma_q. */
static double chi2_quantile(int dof, double alpha)
{
    double lo = 0, hi = dof + 10;
    while (gamma_q(dof / 2.0, hi / 2) > alpha)
        hi *= 2;
    for (int i = 0; i < 200; i++) {
        double mid = (lo + hi) / 2;
        if (gamma_q(dof / 2.0, mid / 2) > alpha)
            lo = mid;
        else
            hi = mid;
    }
    return hi;
}

/* Wilson-Hilferty's approximation of the same quantile; z the normal quantile of alpha. */
static double chi2_wilson_hilferty(int dof, double z)
{
    double k = dof, t = 2 / (9 * k);
    return k * pow(1 - t + z * sqrt(t), 3);
}

enum { CHI_PER_WORLD = 100 };
static const double CHI_ALPHA = 1e-6;
static const double CHI_Z = 4.753424308822899; /* P(Z > z) = 1e-6 */

typedef struct chi {
    double stat, limit;
    long samples, outside, failed_draws;
    int dof;
} chi_t;

/* Draw n worlds from s and test them against the uniform law on the brute force's worlds.
 * Draws outside the brute force's set are counted apart (outside). */
static void chi_square(picket_sampler_t *s, const bins_t *b, const brute_t *bf, long n, uint64_t seed, chi_t *out)
{
    memset(out, 0, sizeof *out);
    long *obs = calloc((size_t)bf->n, sizeof *obs);
    CU_ASSERT_PTR_NOT_NULL_FATAL(obs);
    rng_t rng;
    rng_seed(&rng, seed);
    picket_state_t w;
    for (long i = 0; i < n; i++) {
        if (picket_sampler_draw(s, &rng, NULL, &w) != 0) {
            out->failed_draws++;
            continue;
        }
        long j = brute_find(bf, key_of_state(b, &w));
        if (j < 0)
            out->outside++;
        else
            obs[j]++;
    }
    out->samples = n;
    out->dof = (int)bf->n - 1;
    double e = (double)n / (double)bf->n;
    for (long j = 0; j < bf->n; j++)
        out->stat += (obs[j] - e) * (obs[j] - e) / e;
    out->limit = out->dof > 0 ? chi2_quantile(out->dof, CHI_ALPHA) : 0;
    free(obs);
}

/* ---------------------------------------------------------------- random sets */

/* Random rules: the preset, the pack, then each other flag kept or drawn at random (sinking
 * only with suited sequences); target low now and then so sets end inside hands. */
static picket_rules_t random_rules(rng_t *rng, int preset, int deck, int sequences)
{
    picket_rules_t r = PICKET_PRESETS[preset].rules;
    r.deck = deck;
    for (int i = 0; i < PK_FLAG_COUNT; i++) {
        const picket_flag_t *f = &PICKET_FLAGS[i];
        if (f->offset == offsetof(picket_rules_t, deck) || rng_below(rng, 2))
            continue;
        int *field = (int *)((char *)&r + f->offset);
        if (!f->values[0]) {
            static const int targets[] = { 25, 40, 60, 100 };
            *field = targets[rng_below(rng, 4)];
        } else {
            int n = 0;
            while (n < PK_MAX_VALUES && f->values[n])
                n++;
            *field = (int)rng_below(rng, (uint32_t)n);
        }
    }
    if (sequences >= 0)
        r.sequences = sequences;
    if (r.sequences == PK_SEQ_UNSUITED)
        r.declarations = PK_DECL_FULL;
    return r;
}

/* A deal with a Blank for seat `which` (0, 1) or both (2: 36 cards only), the rest shuffled. */
static void deal_blank(table_t *t, rng_t *rng, int which)
{
    const picket_state_t *st = &t->st;
    cardset_t courts = cardset_rank(RANK_J) | cardset_rank(RANK_Q) | cardset_rank(RANK_K);
    uint8_t low[CARD_COUNT], rest[CARD_COUNT];
    int nl = 0, nr = 0;
    for (cardset_t c = st->pack & ~courts; c; c &= c - 1)
        low[nl++] = (uint8_t)cardset_first(c);
    rng_shuffle_u8(rng, low, nl);
    cardset_t hands[2] = { 0, 0 };
    int used = 0;
    for (int s = 0; s < 2; s++)
        if (which == s || which == 2)
            for (int i = 0; i < PK_HAND_CARDS; i++)
                hands[s] |= cardset_of(low[used++]);
    for (int i = used; i < nl; i++)
        rest[nr++] = low[i];
    for (cardset_t c = st->pack & courts; c; c &= c - 1)
        rest[nr++] = (uint8_t)cardset_first(c);
    rng_shuffle_u8(rng, rest, nr);
    int at = 0;
    for (int s = 0; s < 2; s++)
        if (!hands[s])
            for (int i = 0; i < PK_HAND_CARDS; i++)
                hands[s] |= cardset_of(rest[at++]);
    int dealer = st->pub.hand_no > 0 ? 1 - st->pub.dealer : st->pub.dealer >= 0 ? st->pub.dealer : (int)rng_below(rng, 2);
    table_deal(t, dealer, hands, rest + at);
}

/* Called for a view: return nonzero to stop the set. */
typedef int (*view_fn)(void *ctx, const table_t *t, const picket_view_t *v);

/* Play one set: random or heuristic moves (per seat, from the seed), one hand in eight dealt
 * with a Blank; at each decision point (and at the ends of hands and of the set) each seat's
 * view goes to fn with probability `pick`. */
static void play_set(table_t *t, const picket_rules_t *r, int preset, uint64_t seed, double pick, view_fn fn, void *ctx)
{
    static game_move_t moves[GAME_MAX_MOVES];
    static double values[GAME_MAX_MOVES];
    table_init(t, r, preset, seed);
    rng_t rng;
    rng_seed(&rng, rng_derive(seed, 77));
    int policy = (int)rng_below(&rng, 4); /* bit s: seat s plays the heuristic */
    for (int guard = 0; guard < 100000; guard++) {
        int who = picket_to_move(&t->st);
        int at_end = who == GAME_OVER || (who == GAME_CHANCE && t->st.pub.hand_no > 0);
        /* Nothing is hidden before the first deal (the higher cut's choice): no view to test. */
        if ((who >= 0 && t->st.pub.hand_no > 0) || at_end)
            for (int s = 0; s < 2; s++) {
                if (rng_unit(&rng) >= pick)
                    continue;
                picket_view_t v;
                picket_view_from_state(&t->st, s, &v);
                if (fn(ctx, t, &v))
                    return;
            }
        if (who == GAME_OVER)
            return;
        if (who == GAME_CHANCE) {
            if (rng_below(&rng, 8) == 0)
                deal_blank(t, &rng, (int)rng_below(&rng, r->deck == 36 ? 3 : 2));
            else
                table_chance(t);
            continue;
        }
        int n = picket_legal_moves(&t->st, moves, GAME_MAX_MOVES);
        CU_ASSERT_FATAL(n > 0);
        int best = (int)rng_below(&rng, (uint32_t)n);
        if (policy & (1 << who)) {
            picket_view_t v;
            picket_view_from_state(&t->st, who, &v);
            picket_heuristic_evaluate(&v, NULL, moves, n, values);
            for (int i = 0; i < n; i++)
                if (values[i] > values[best])
                    best = i;
        }
        table_apply(t, &moves[best]);
    }
    CU_FAIL("a set did not end");
}

static void report_view(const table_t *t, const picket_view_t *v, const char *what)
{
    char rules[256];
    fprintf(stderr, "\n  FAIL [%s] seed %llu, seat %d, step %d (move %d of hand %d, phase %s): %s\n",
            rules_text(&v->rules, t->preset, rules, sizeof rules), (unsigned long long)t->seed, v->seat, t->step,
            t->nmoves, v->pub.hand_no, PK_PHASE_NAMES[v->pub.phase], what);
}

/* ---------------------------------------------------------------- 1. consistency by replay */

typedef struct consist {
    long views, target, failures, truth_bad, worlds_one;
    long phase[PK_PH_COUNT], blanks, seats[2];
    double worlds_log_sum;
    rng_t rng;
} consist_t;

static int consist_view(void *ctx, const table_t *t, const picket_view_t *v)
{
    consist_t *c = ctx;
    char why[300], err[GAME_ERR_LEN], msg[400];
    c->views++;
    c->phase[v->pub.phase]++;
    c->seats[v->seat]++;
    c->blanks += v->pub.blank[0] || v->pub.blank[1];
    /* The harness first: the true state is a world of its own view. */
    if (!check_world(t, v, &t->st, why, sizeof why)) {
        snprintf(msg, sizeof msg, "the true state fails the harness: %s", why);
        report_view(t, v, msg);
        c->truth_bad++;
    }
    picket_sampler_t *s = picket_sampler_new(v, PK_SAMPLER_EXACT, err, sizeof err);
    if (!s) {
        snprintf(msg, sizeof msg, "picket_sampler_new refused the view: %s", err);
        report_view(t, v, msg);
        c->failures++;
        return c->failures >= 5;
    }
    uint64_t worlds = picket_sampler_worlds(s), holdings = picket_sampler_holdings(s);
    c->worlds_one += worlds == 1;
    c->worlds_log_sum += worlds ? log10((double)worlds) : 0;
    picket_world_t pw;
    picket_state_t w;
    bins_t b;
    if (worlds == 0 || holdings == 0 || holdings > worlds) {
        snprintf(msg, sizeof msg, "counts %llu worlds, %llu holdings for a view the true deal gives",
                 (unsigned long long)worlds, (unsigned long long)holdings);
        report_view(t, v, msg);
        c->failures++;
    } else if (picket_sampler_draw(s, &c->rng, &pw, &w) != 0) {
        report_view(t, v, "picket_sampler_draw found no world");
        c->failures++;
    } else if (!check_world(t, v, &w, why, sizeof why)) {
        report_view(t, v, why);
        c->failures++;
    } else if (!make_bins(v, &b, why, sizeof why)) {
        report_view(t, v, why);
        c->failures++;
    } else {
        int o = 1 - v->seat;
        wkey_t k = key_of_state(&b, &w);
        cardset_t L = b.U & ~(k.k | k.x | k.r);
        const char *bad = pw.opp_dealt != w.dealt[o]                            ? "opp_dealt"
                          : pw.opp_discard != w.discard[o]                      ? "opp_discard"
                          : pw.opp_holding != (w.hand[o] | w.pub.played[o])     ? "opp_holding"
                          : pw.stock_unseen != (k.r | L)                        ? "stock_unseen"
                                                                                : NULL;
        if (bad) {
            snprintf(msg, sizeof msg, "picket_world_t.%s is not the drawn state's", bad);
            report_view(t, v, msg);
            c->failures++;
        }
    }
    picket_sampler_free(s);
    return c->views >= c->target || c->failures >= 5 || c->truth_bad >= 5;
}

static void test_every_world_drawn_replays_to_the_view(void)
{
    consist_t c;
    memset(&c, 0, sizeof c);
    c.target = env_long("PICKET_SAMPLER_VIEWS", 100000);
    rng_seed(&c.rng, 20240601);
    double t0 = measure_now();
    static table_t t;
    long sets = 0;
    long per_preset[PK_PRESET_COUNT][2] = { { 0 } };
    while (c.views < c.target && c.failures < 5 && c.truth_bad < 5) {
        int preset = (int)(sets % PK_PRESET_COUNT), deck = (sets / PK_PRESET_COUNT) % 2 ? 32 : 36;
        rng_t rr;
        rng_seed(&rr, rng_derive(7000 + (uint64_t)sets, 3));
        /* One set in four keeps the preset's rules, the rest combine flags at random. */
        picket_rules_t r = sets % 4 == 3 ? PICKET_PRESETS[preset].rules : random_rules(&rr, preset, deck, -1);
        r.deck = deck;
        long before = c.views;
        play_set(&t, &r, preset, 7000 + (uint64_t)sets, 0.5, consist_view, &c);
        per_preset[preset][deck == 32] += c.views - before;
        sets++;
    }
    double dt = measure_now() - t0;
    printf("\n    %ld views from %ld sets in %.1f s (%.1f us a view); phases:", c.views, sets, dt,
           1e6 * dt / (double)c.views);
    for (int p = 0; p < PK_PH_COUNT; p++)
        if (c.phase[p])
            printf(" %s %ld", PK_PHASE_NAMES[p], c.phase[p]);
    printf("; with a Blank %ld; one world %ld; mean log10 worlds %.1f ", c.blanks, c.worlds_one,
           c.worlds_log_sum / (double)c.views);
    for (int p = 0; p < PK_PRESET_COUNT; p++)
        CU_ASSERT(per_preset[p][0] > 0 && per_preset[p][1] > 0);
    CU_ASSERT_EQUAL(c.truth_bad, 0);
    CU_ASSERT_EQUAL(c.failures, 0);
    CU_ASSERT(c.views >= c.target);
}

/* ---------------------------------------------------------------- 2. exact counts, uniformity */

typedef struct exact_stats {
    long views, chi_views, failures, samples, max_worlds;
    double max_ratio;  /* largest statistic / limit seen */
    double min_p;      /* smallest chi-square p-value seen (0 until one is) */
} exact_stats_t;

enum { CHI_MAX_WORLDS = 4000 };

/* One view against the brute force: counts equal, every draw one of its worlds, and (when the
 * worlds are few enough and samples are left) the chi-square test. Returns 1 if all held; the
 * brute force's answer in *out_bf if not NULL (whose rule, if any, it applies), else freed. */
static int check_exact(const table_t *t, const picket_view_t *v, const bins_t *b, long chi_budget, uint64_t seed,
                       exact_stats_t *st, brute_t *out_bf)
{
    char err[GAME_ERR_LEN], msg[600], a[160];
    brute_t bf = { 0 };
    if (out_bf) {
        bf.rule = out_bf->rule;
        bf.rule_arg = out_bf->rule_arg;
    }
    brute_force(t, v, b, &bf);
    st->views++;
    int ok = 1;
    picket_sampler_t *s = picket_sampler_new(v, PK_SAMPLER_EXACT, err, sizeof err);
    if (!s) {
        snprintf(msg, sizeof msg, "picket_sampler_new refused the view: %s", err);
        report_view(t, v, msg);
        st->failures++;
        brute_free(&bf);
        return 0;
    }
    uint64_t worlds = picket_sampler_worlds(s), holdings = picket_sampler_holdings(s);
    if (worlds != (uint64_t)bf.n || holdings != bf.holdings) {
        snprintf(msg, sizeof msg,
                 "sampler counts %llu worlds and %llu holdings, brute force %ld and %llu (%ld placements of %d "
                 "cards into bins K %d X %d R %d L %d; forced into K+R: %s)",
                 (unsigned long long)worlds, (unsigned long long)holdings, bf.n, (unsigned long long)bf.holdings,
                 bf.tried, cardset_count(b->U), b->nK, b->nX, b->nR, b->nL, cards_text(b->force, a, sizeof a));
        report_view(t, v, msg);
        ok = 0;
    }
    if ((long)worlds > st->max_worlds)
        st->max_worlds = (long)worlds;
    /* Every draw is a world of the brute force's; a few replayed in full. */
    rng_t rng;
    rng_seed(&rng, seed);
    for (int i = 0; i < 20 && bf.n > 0 && ok; i++) {
        picket_state_t w;
        char why[300];
        if (picket_sampler_draw(s, &rng, NULL, &w) != 0) {
            report_view(t, v, "picket_sampler_draw found no world");
            ok = 0;
        } else if (brute_find(&bf, key_of_state(b, &w)) < 0) {
            wkey_t k = key_of_state(b, &w);
            char kb[160], xb[160], rb[160];
            snprintf(msg, sizeof msg, "a world drawn is not consistent: K %s, X %s, R %s",
                     cards_text(k.k, kb, sizeof kb), cards_text(k.x, xb, sizeof xb), cards_text(k.r, rb, sizeof rb));
            report_view(t, v, msg);
            ok = 0;
        } else if (i < 3 && !check_world(t, v, &w, why, sizeof why)) {
            report_view(t, v, why);
            ok = 0;
        }
    }
    if (ok && bf.n >= 2 && bf.n <= CHI_MAX_WORLDS && chi_budget >= CHI_PER_WORLD * bf.n) {
        long n = CHI_PER_WORLD * bf.n;
        if (n < 1000)
            n = 1000;
        chi_t c;
        chi_square(s, b, &bf, n, seed + 1, &c);
        st->chi_views++;
        st->samples += n;
        if (c.stat / c.limit > st->max_ratio)
            st->max_ratio = c.stat / c.limit;
        double pv = gamma_q(c.dof / 2.0, c.stat / 2);
        if (st->min_p == 0 || pv < st->min_p)
            st->min_p = pv;
        if (c.outside || c.failed_draws || c.stat > c.limit) {
            snprintf(msg, sizeof msg, "chi-square %.1f over %d degrees of freedom (limit %.1f) from %ld samples; %ld "
                     "outside the worlds, %ld draws failed", c.stat, c.dof, c.limit, n, c.outside, c.failed_draws);
            report_view(t, v, msg);
            ok = 0;
        }
    }
    picket_sampler_free(s);
    if (!ok)
        st->failures++;
    if (out_bf)
        *out_bf = bf;
    else
        brute_free(&bf);
    return ok;
}

typedef struct exact_run {
    long budget, chi_budget;  /* placements a brute force may replay; samples left for chi-square */
    int want, got;            /* brute-forced views wanted from this configuration */
    int late, elder_decl, younger;
    uint32_t hand_seat_done;  /* bit (2 hand + seat) mod 32: a view taken there already */
    long phase[PK_PH_COUNT];
    exact_stats_t st;
    uint64_t seed;
} exact_run_t;

static int exact_view(void *ctx, const table_t *t, const picket_view_t *v)
{
    exact_run_t *x = ctx;
    char why[200];
    const picket_pub_t *p = &v->pub;
    /* One view a hand and seat: the brute force is the cost, and variety is the point. */
    uint32_t bit = 1u << ((p->hand_no * 2 + v->seat) & 31);
    if (x->hand_seat_done & bit)
        return 0;
    bins_t b;
    if (!make_bins(v, &b, why, sizeof why)) {
        report_view(t, v, why);
        x->st.failures++;
        return 1;
    }
    if (placements(&b) > (double)x->budget || cardset_count(b.U) < 3)
        return 0;
    x->hand_seat_done |= bit;
    x->phase[p->phase]++;
    long chi = x->chi_budget;
    long before = x->st.samples;
    check_exact(t, v, &b, chi, rng_derive(x->seed, (uint64_t)t->step * 2 + (uint64_t)v->seat), &x->st, NULL);
    x->chi_budget -= x->st.samples - before;
    x->got++;
    int e = picket_elder(p);
    x->late += p->phase == PK_PH_PLAY && p->trick_no >= 6;
    x->elder_decl += v->seat == e && p->answer[0] >= 0;
    x->younger += v->seat != e;
    return x->got >= x->want || x->st.failures >= 3;
}

/* Views from random sets of one preset, pack and sequence rule (sequences -1: every other flag
 * drawn at random too, target included, a new draw each set); sink: declarations=may-sink. */
static void exact_config(int preset, int deck, int sequences, int sink, uint64_t seed, exact_run_t *x)
{
    static table_t t;
    x->got = 0;
    x->seed = seed;
    for (int set = 0; set < 60 && x->got < x->want && x->st.failures < 3; set++) {
        picket_rules_t r = PICKET_PRESETS[preset].rules;
        if (sequences < 0) {
            rng_t rr;
            rng_seed(&rr, rng_derive(seed + (uint64_t)set, 5));
            r = random_rules(&rr, preset, deck, -1);
        }
        r.deck = deck;
        if (sequences >= 0)
            r.sequences = sequences;
        if (sink) {
            r.declarations = PK_DECL_MAY_SINK;
            r.sequences = PK_SEQ_SUITED;
        }
        x->hand_seat_done = 0;
        play_set(&t, &r, preset, seed + (uint64_t)set, 0.25, exact_view, x);
    }
}

static void test_counts_and_uniformity_match_the_brute_force(void)
{
    exact_run_t x;
    memset(&x, 0, sizeof x);
    x.want = (int)env_long("PICKET_SAMPLER_BF", 12);
    x.budget = env_long("PICKET_SAMPLER_BUDGET", 20000);
    double t0 = measure_now();
    int configs = 0;
    for (int p = 0; p < PK_PRESET_COUNT; p++)
        for (int deck = 36; deck >= 32; deck -= 4)
            for (int seq = -1; seq <= PK_SEQ_UNSUITED; seq++) {
                int before = (int)x.st.views;
                x.chi_budget = 200000; /* samples for each configuration's chi-square tests */
                exact_config(p, deck, seq, 0, 90000 + 1000 * (uint64_t)configs, &x);
                configs++;
                CU_ASSERT(x.st.views - before >= 1);
            }
    /* Sinking: every preset's rules with declarations=may-sink, both packs. */
    for (int p = 0; p < PK_PRESET_COUNT; p++)
        for (int deck = 36; deck >= 32; deck -= 4) {
            int before = (int)x.st.views;
            x.chi_budget = 200000;
            exact_config(p, deck, PK_SEQ_SUITED, 1, 90000 + 1000 * (uint64_t)configs, &x);
            configs++;
            CU_ASSERT(x.st.views - before >= 1);
        }
    printf("\n    %ld views brute-forced (%d late in the play, %d of elder after the declarations, %d of younger), "
           "most worlds %ld; %ld chi-square tests over %ld samples, largest statistic/limit %.2f, smallest p %.3g; "
           "%.1f s ",
           x.st.views, x.late, x.elder_decl, x.younger, x.st.max_worlds, x.st.chi_views, x.st.samples, x.st.max_ratio,
           x.st.min_p, measure_now() - t0);
    printf("\n    phases:");
    for (int p = 0; p < PK_PH_COUNT; p++)
        if (x.phase[p])
            printf(" %s %ld", PK_PHASE_NAMES[p], x.phase[p]);
    CU_ASSERT(x.late > 0 && x.elder_decl > 0 && x.younger > 0);
    CU_ASSERT(x.st.views >= 6 * configs);
    CU_ASSERT(x.st.chi_views >= 2 * configs);
    CU_ASSERT_EQUAL(x.st.failures, 0);
}

/* The threshold is the chi-square quantile: exact where it is known in closed form (2 degrees
 * of freedom: 2 ln(1/alpha); 1: the normal's two tails), and within a few percent of
 * Wilson-Hilferty's approximation where that is good. */
static void test_the_chi_square_limit_is_the_one_in_a_million_quantile(void)
{
    CU_ASSERT_DOUBLE_EQUAL(chi2_quantile(2, CHI_ALPHA), 2 * log(1 / CHI_ALPHA), 1e-6);
    double q1 = chi2_quantile(1, CHI_ALPHA);
    CU_ASSERT_DOUBLE_EQUAL(erfc(sqrt(q1 / 2)), CHI_ALPHA, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(q1, 23.928, 0.01);
    for (int dof = 10; dof <= CHI_MAX_WORLDS; dof *= 2) {
        double q = chi2_quantile(dof, CHI_ALPHA), wh = chi2_wilson_hilferty(dof, CHI_Z);
        CU_ASSERT(fabs(q - wh) / q < (dof < 40 ? 0.03 : 0.01));
        CU_ASSERT_DOUBLE_EQUAL(gamma_q(dof / 2.0, q / 2), CHI_ALPHA, CHI_ALPHA * 1e-6);
    }
    printf("\n    limits: 1 dof %.2f, 10 dof %.2f, 100 dof %.2f, 1000 dof %.2f ", q1, chi2_quantile(10, CHI_ALPHA),
           chi2_quantile(100, CHI_ALPHA), chi2_quantile(1000, CHI_ALPHA));
}

/* ---------------------------------------------------------------- 3. declarations bite */

/* The hand-built deals: dealer 1, so seat 0 (the opponent here) is elder and seat 1, younger,
 * holds the view; younger draws nearly the whole stock, so that few cards are unplaced and the
 * brute force is small. Each runs under every preset (younger_draw=all where the script needs
 * it, and each sequence rule). */
typedef struct forged {
    const char *name;
    const char *elder, *younger, *stock;
    const char *moves[16];
    int needs_call;  /* the script calls a suit: leftover=elder-calls-suit */
} forged_t;

/* A: elder's Ruff of 48 (hearts A K Q J 7) is told but loses to younger's 51: nothing shown. */
static const forged_t RUFF_48 = {
    "Ruff of 48 told", "AH KH QH JH 7H AS KS 9S 8S 6C 7C 6D", "8C 9C 7D TD JD QD KD AD 7S TS JS QS",
    "9D TC JC QC KC AC 8D 6H 8H 9H TH 6S",
    { "discard 6D", "discard 8C 9C 7D TD JD QD KD 7S TS JS QS", NULL }, 0
};
/* B: elder's huitieme, hearts A down to 7. */
static const forged_t HUITIEME = {
    "huitieme claimed", "AH KH QH JH TH 9H 8H 7H 6C 7C 6D 7D", "9C TC JC QC KC AC 8D 9D TD JD QD KD",
    "8C AD 6H 6S 7S 8S 9S TS JS QS KS AS",
    { "discard 6D", "discard 9C TC JC QC KC 8D 9D TD JD QD KD", NULL }, 0
};
/* C: elder's four Aces beat younger's three Queens and are shown; he held three Kings and
 * threw one out, or the Kings would have been shown too. */
static const forged_t FOUR_ACES = {
    "four Aces shown", "AC AD AH AS KC KD KH 9C 8D 7H 6S 6C", "7C 8C TC JC QC 6D 9D TD JD QD 6H 8H",
    "7D 9H TH JH QH 7S 8S 9S TS JS QS KS",
    { "discard KH", "discard 7C 8C TC JC 6D 9D TD JD QD 6H 8H", NULL }, 0
};
/* D: elder throws out his one Diamond, then fails to follow younger's Ace of Diamonds. */
static const forged_t VOID_D = {
    "a void in Diamonds", "AH KH QH JH 7H AS KS 9S 8S 6C 7C 6D", "9C TC JC QC KC AC 7D 8D 9D TD JD QD",
    "8C KD AD 6H 8H 9H TH 6S 7S TS JS QS",
    { "discard 6D", "discard 9C TC JC QC KC 7D 8D 9D TD JD QD", "play AH", "play 6H", "play AS", "play 6S",
      "play 6C", "play AC", "play AD", "play 7C", NULL }, 0
};
/* F: elder calls Spades to see the leftover card and is not appointed: he holds a Spade, and of
 * the cards younger cannot place only two are Spades. */
static const forged_t CALLED = {
    "Spades called, no appointment", "AH KH QH JH 7H AS 9S 8C 6C 7C 6D 7D", "9C TC JC QC KC AC 9D TD JD QD KD AD",
    "8D 6H 9H TH 6S 7S 8S TS JS QS KS 8H",
    { "discard 6D", "discard 9C TC JC QC KC 9D TD JD QD KD", "call S", NULL }, 1
};
/* G: elder calls Diamonds, having thrown out his only one: younger is to appoint (and the
 * second view: has appointed Spades). */
static const forged_t APPOINT_DUE = {
    "Diamonds called, none held", "AH KH QH JH 7H AS 9S 8S 6C 7C 8C 6D", "9C TC JC QC KC AC 7D 8D 9D TD JD QD",
    "9H KD AD 6H 8H TH 6S 7S TS JS QS KS",
    { "discard 6D", "discard 9C TC JC QC KC 7D 8D 9D TD JD", "call D", NULL }, 1
};
/* E: elder's Blank (shown before the exchange with show-first, after younger's set-aside with
 * commit-count); he throws out four, younger eight, and younger wins every declaration, so that
 * elder shows nothing more: which eight of his Blank he kept only his claims tell. */
static const char *BLANK_ELDER = "AH TH 9H 8H AS TS 9S 8S 6C 7C 8C 9C";
static const char *BLANK_YOUNGER = "TC JC QC KC AC 9D 6H 7H 7S JS QS KS";
static const char *BLANK_STOCK = "6D 7D 8D 6S AD KD QD JD TD JH QH KH";

/* The scripted hands below are of 36 cards, under the open dialogue: the four 17th-century
 * presets (Cavendish's 32-card game has its own, in test_cavendish.c). */
enum { SCRIPTED_PRESETS = 4 };

static picket_rules_t forged_rules(int preset, int sequences, int call)
{
    picket_rules_t r = PICKET_PRESETS[preset].rules;
    r.younger_draw = PK_YD_ALL;
    r.sequences = sequences;
    if (call)
        r.leftover = PK_LO_ELDER_CALLS;
    return r;
}

static void forge(table_t *t, const picket_rules_t *r, int preset, const forged_t *f)
{
    table_init(t, r, preset, 0);
    table_deal_text(t, f->elder, f->younger, f->stock);
    for (int i = 0; f->moves[i]; i++)
        table_play(t, f->moves[i]);
}

static void forge_blank(table_t *t, const picket_rules_t *r, int preset)
{
    table_init(t, r, preset, 0);
    table_deal_text(t, BLANK_ELDER, BLANK_YOUNGER, BLANK_STOCK);
    if (r->blank_order == PK_BO_COMMIT_COUNT) {
        table_play(t, "blank 4");
        table_play(t, "discard TC 9D 6H 7H 7S JS QS KS");
        table_play(t, "discard 6C 7C 8C 9C");
    } else {
        table_play(t, "discard 6C 7C 8C 9C");
        table_play(t, "discard TC 9D 6H 7H 7S JS QS KS");
    }
}

/* The opponent's claims as the record has them, and what his cards make. */
typedef struct claims_arg {
    int unsuited;
    int16_t claim[PK_DECL_COUNT][2];
    int exact[PK_DECL_COUNT];
    cardset_t shown[PK_DECL_COUNT];  /* what he showed for a category he won, else 0 */
    cardset_t played;
    int void_suits;
    int called_suit;
} claims_arg_t;

static void claims_of_view(const picket_view_t *v, claims_arg_t *a)
{
    const picket_pub_t *p = &v->pub;
    int opp = 1 - v->seat;
    memset(a, 0, sizeof *a);
    a->unsuited = v->rules.sequences == PK_SEQ_UNSUITED;
    for (int d = 0; d < PK_DECL_COUNT; d++) {
        a->claim[d][0] = p->claim[d][opp][0];
        a->claim[d][1] = p->claim[d][opp][1];
        a->exact[d] = p->answer[d] >= 0 && (opp == picket_elder(p) || p->answer[d] != PK_ANS_GOOD);
        a->shown[d] = p->decl_winner[d] == opp ? p->decl_cards[d][opp] : 0;
    }
    a->played = p->played[opp];
    a->void_suits = p->voids[opp];
    a->called_suit = p->appointed_suit < 0 ? p->called_suit : -1;
}

/* What a holding claims in each category, and what it would show on winning. */
static void holding_claims(cardset_t h, int unsuited, int claim[PK_DECL_COUNT][2], cardset_t shows[PK_DECL_COUNT])
{
    picket_ruff_t r;
    picket_sequences_t q;
    picket_sets_t s;
    picket_ruff(h, &r);
    picket_sequences(h, unsuited, &q);
    picket_sets(h, &s);
    claim[0][0] = r.value;
    claim[0][1] = 0;
    claim[1][0] = q.best.len;
    claim[1][1] = q.best.top;
    claim[2][0] = s.best.count;
    claim[2][1] = s.best.rank;
    shows[0] = r.cards;
    shows[1] = q.cards;
    shows[2] = s.cards;
}

/* Every exact claim is the holding's, every show what it would show. */
static int rule_claims(cardset_t P, cardset_t D, const void *arg)
{
    const claims_arg_t *a = arg;
    int c[PK_DECL_COUNT][2];
    cardset_t shows[PK_DECL_COUNT];
    (void)D;
    holding_claims(P, a->unsuited, c, shows);
    for (int d = 0; d < PK_DECL_COUNT; d++) {
        if (a->exact[d] && (c[d][0] != a->claim[d][0] || c[d][1] != a->claim[d][1]))
            return 0;
        if (a->shown[d] && shows[d] != a->shown[d])
            return 0;
    }
    return 1;
}

/* Nothing of a void suit left in his hand. */
static int rule_void(cardset_t P, cardset_t D, const void *arg)
{
    const claims_arg_t *a = arg;
    (void)D;
    for (int s = 0; s < CARD_SUITS; s++)
        if ((a->void_suits & (1 << s)) && (P & ~a->played & cardset_suit(s)))
            return 0;
    return 1;
}

static int rule_called(cardset_t P, cardset_t D, const void *arg)
{
    const claims_arg_t *a = arg;
    (void)D;
    return a->called_suit < 0 || (P & cardset_suit(a->called_suit)) != 0;
}

/* Elder called a suit and must be appointed one (or was): none of it in his hand. */
static int rule_lacks_called(cardset_t P, cardset_t D, const void *arg)
{
    (void)D;
    return (P & cardset_suit(*(const int *)arg)) == 0;
}

static int rule_blank_dealt(cardset_t P, cardset_t D, const void *arg)
{
    (void)P;
    return D == *(const cardset_t *)arg && picket_is_blank(D);
}

/* A Blank declared and not yet shown: the dealt hand has no King, Queen or Knave. */
static int rule_dealt_is_blank(cardset_t P, cardset_t D, const void *arg)
{
    (void)P;
    (void)arg;
    return picket_is_blank(D);
}

/* A forged view: the counts and uniformity against the brute force, the rule on every holding
 * drawn, and the rule biting: some placements break it, and the replay keeps none of them. */
static void check_forged(const table_t *t, int seat, holding_rule_fn rule, const void *arg, int must_bite,
                         const char *what, exact_stats_t *st)
{
    picket_view_t v;
    picket_view_from_state(&t->st, seat, &v);
    bins_t b;
    char why[200], msg[300], rules[200];
    CU_ASSERT_FATAL(make_bins(&v, &b, why, sizeof why));
    CU_ASSERT_FATAL(placements(&b) <= 300000);
    brute_t bf = { 0 };
    bf.rule = rule;
    bf.rule_arg = arg;
    long before = st->failures;
    check_exact(t, &v, &b, 1000000, rng_derive(0xF0, (uint64_t)t->step), st, &bf);
    CU_ASSERT_EQUAL(st->failures, before);
    /* The truth is a world, and the rule is a rule of the replay. */
    CU_ASSERT(bf.n >= 1);
    CU_ASSERT_EQUAL(bf.breakers_kept, 0);
    if (must_bite)
        CU_ASSERT(bf.breakers > 0);
    /* Every holding drawn obeys the rule. */
    picket_sampler_t *s = picket_sampler_new(&v, PK_SAMPLER_EXACT, msg, sizeof msg);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    rng_t rng;
    rng_seed(&rng, 4242);
    int broken = 0;
    for (int i = 0; i < 2000; i++) {
        picket_world_t w;
        picket_state_t ws;
        if (picket_sampler_draw(s, &rng, &w, &ws) != 0 || !rule(w.opp_holding, w.opp_dealt, arg))
            broken++;
    }
    picket_sampler_free(s);
    if (broken) {
        snprintf(msg, sizeof msg, "%s: %d of 2000 holdings drawn break the rule", what, broken);
        report_view(t, &v, msg);
    }
    CU_ASSERT_EQUAL(broken, 0);
    printf("\n    %-30s %-26s %4ld worlds, %4llu holdings; %6ld placements, %6ld break the rule ", what,
           rules_text(&v.rules, t->preset, rules, sizeof rules), bf.n, (unsigned long long)bf.holdings, bf.tried,
           bf.breakers);
    brute_free(&bf);
}

static void run_forged(const forged_t *f, holding_rule_fn rule, int must_bite, void (*expect)(const picket_view_t *))
{
    static table_t t;
    exact_stats_t st = { 0 };
    for (int p = 0; p < SCRIPTED_PRESETS; p++)
        for (int seq = PK_SEQ_SUITED; seq <= PK_SEQ_UNSUITED; seq++) {
            picket_rules_t r = forged_rules(p, seq, f->needs_call);
            forge(&t, &r, p, f);
            picket_view_t v;
            picket_view_from_state(&t.st, 1, &v);
            if (expect)
                expect(&v);
            claims_arg_t a;
            claims_of_view(&v, &a);
            check_forged(&t, 1, rule, &a, must_bite, f->name, &st);
        }
    CU_ASSERT_EQUAL(st.failures, 0);
}

static void expect_ruff_48(const picket_view_t *v)
{
    CU_ASSERT_EQUAL(v->pub.claim[0][0][0], 48);
    CU_ASSERT_EQUAL(v->pub.decl_winner[0], 1); /* told, not shown */
}

static void expect_huitieme(const picket_view_t *v)
{
    if (v->rules.sequences == PK_SEQ_SUITED) {
        CU_ASSERT_EQUAL(v->pub.claim[1][0][0], 8);
        CU_ASSERT_EQUAL(v->pub.claim[1][0][1], RANK_A);
    }
}

static void expect_four_aces(const picket_view_t *v)
{
    CU_ASSERT_EQUAL(v->pub.claim[2][0][0], 4);
    CU_ASSERT_EQUAL(v->pub.claim[2][0][1], RANK_A);
    CU_ASSERT_EQUAL(v->pub.decl_winner[2], 0);
    CU_ASSERT_EQUAL(v->pub.decl_cards[2][0], cardset_rank(RANK_A));
}

static void expect_void(const picket_view_t *v) { CU_ASSERT(v->pub.voids[0] & (1 << SUIT_D)); }

static void expect_called(const picket_view_t *v)
{
    CU_ASSERT_EQUAL(v->pub.called_suit, SUIT_S);
    CU_ASSERT_EQUAL(v->pub.appointed_suit, -1);
    CU_ASSERT_EQUAL(v->pub.phase, PK_PH_PLAY);
}

static void test_an_exact_ruff_of_48_pins_the_hand(void) { run_forged(&RUFF_48, rule_claims, 1, expect_ruff_48); }
static void test_a_huitieme_pins_the_hand(void) { run_forged(&HUITIEME, rule_claims, 1, expect_huitieme); }
static void test_four_aces_shown_pin_the_hand(void) { run_forged(&FOUR_ACES, rule_claims, 1, expect_four_aces); }
static void test_a_void_pins_the_hand(void) { run_forged(&VOID_D, rule_void, 1, expect_void); }
static void test_a_called_suit_without_appointment_pins_the_hand(void)
{
    run_forged(&CALLED, rule_called, 1, expect_called);
}

/* Younger appoints only when elder holds none of the suit he called: that is known at once, in
 * the appointment phase, before the APPOINT event records the void. */
static void test_an_appointment_due_means_elder_lacks_the_called_suit(void)
{
    static table_t t;
    exact_stats_t st = { 0 };
    int diamonds = SUIT_D;
    for (int p = 0; p < SCRIPTED_PRESETS; p++)
        for (int seq = PK_SEQ_SUITED; seq <= PK_SEQ_UNSUITED; seq++) {
            picket_rules_t r = forged_rules(p, seq, 1);
            forge(&t, &r, p, &APPOINT_DUE);
            CU_ASSERT_EQUAL_FATAL(t.st.pub.phase, PK_PH_APPOINT);
            check_forged(&t, 1, rule_lacks_called, &diamonds, 1, "appointment due", &st);
            table_play(&t, "appoint S");
            CU_ASSERT_EQUAL_FATAL(t.st.pub.phase, PK_PH_PLAY);
            check_forged(&t, 1, rule_lacks_called, &diamonds, 1, "appointed", &st);
        }
    CU_ASSERT_EQUAL(st.failures, 0);
}

static int rule_has_court(cardset_t P, cardset_t D, const void *arg)
{
    (void)P;
    (void)arg;
    return !picket_is_blank(D);
}

/* Younger's Blank is declared at the deal whenever elder holds none (every preset): elder,
 * having drawn all eight of his share, knows that younger, who said nothing, holds a court card,
 * though 15 of the 16 cards he cannot place are below the Knave. */
static void test_a_blank_not_declared_means_a_court_card(void)
{
    static table_t t;
    exact_stats_t st = { 0 };
    for (int p = 0; p < SCRIPTED_PRESETS; p++) {
        picket_rules_t r = PICKET_PRESETS[p].rules;
        table_init(&t, &r, p, 0);
        table_deal_text(&t, "JC QC JD QD KD AD JH QH KH AH TH 6S", "6C 7C 8C 9C TC AC 6D 7D 8D 9D TD KC",
                        "JS QS KS 7S 8S 9S TS AS 6H 7H 8H 9H");
        table_play(&t, "discard JC QC JD QD KD AD JH QH");
        CU_ASSERT_EQUAL_FATAL(t.st.pub.phase, PK_PH_YOUNGER_EXCHANGE);
        check_forged(&t, 0, rule_has_court, NULL, 1, "no Blank declared", &st);
    }
    CU_ASSERT_EQUAL(st.failures, 0);
}

static void test_a_blank_shown_is_the_dealt_hand(void)
{
    static table_t t;
    exact_stats_t st = { 0 };
    for (int p = 0; p < SCRIPTED_PRESETS; p++) {
        picket_rules_t r = forged_rules(p, PICKET_PRESETS[p].rules.sequences, 0);
        forge_blank(&t, &r, p);
        picket_view_t v;
        picket_view_from_state(&t.st, 1, &v);
        cardset_t blank = test_cards(BLANK_ELDER);
        CU_ASSERT_EQUAL(v.pub.blank_shown[0], blank);
        CU_ASSERT_EQUAL(v.pub.phase, PK_PH_PLAY);
        check_forged(&t, 1, rule_blank_dealt, &blank, 0, "a Blank shown", &st);
    }
    CU_ASSERT_EQUAL(st.failures, 0);
}

/* CG: elder "says, I have a Blank, and I intend to discard such a number of Cards"; until he
 * shows it younger knows only that elder holds no court card (32 cards, so that the brute
 * force's C(20, 12) placements stay quick). */
static void test_a_blank_declared_but_not_shown_has_no_court(void)
{
    static table_t t;
    exact_stats_t st = { 0 };
    picket_rules_t r = PICKET_PRESETS[0].rules;
    r.deck = 32;
    table_init(&t, &r, 0, 0);
    table_deal_text(&t, "AH TH 9H 8H AS TS 9S 8S 7C 8C 9C TC", "JC QC KC AC JD QD KD AD 7H JH QH KH",
                    "7D 8D 9D TD 7S JS QS KS");
    CU_ASSERT_EQUAL_FATAL(t.st.pub.phase, PK_PH_BLANK_COUNT);
    table_play(&t, "blank 3");
    CU_ASSERT_EQUAL_FATAL(t.st.pub.phase, PK_PH_SET_ASIDE);
    check_forged(&t, 1, rule_dealt_is_blank, NULL, 1, "a Blank declared, not shown", &st);
    CU_ASSERT_EQUAL(st.failures, 0);
}

/* ---------------------------------------------------------------- the wrong samplers are caught */

/* A mutant on a view the brute force has solved: 1 if it is caught (a count differs, a draw is no
 * world, or the chi-square test rejects). */
static int mutant_caught(const picket_view_t *v, const bins_t *b, const brute_t *bf, int mode, uint64_t seed, char *how,
                         size_t len)
{
    char err[GAME_ERR_LEN];
    picket_sampler_t *s = picket_sampler_new(v, mode, err, sizeof err);
    if (!s) {
        snprintf(how, len, "refused the view: %s", err);
        return 1;
    }
    uint64_t worlds = picket_sampler_worlds(s), holdings = picket_sampler_holdings(s);
    int caught = 0;
    if (worlds != (uint64_t)bf->n || holdings != bf->holdings) {
        snprintf(how, len, "counts %llu worlds, %llu holdings; the brute force %ld, %llu", (unsigned long long)worlds,
                 (unsigned long long)holdings, bf->n, (unsigned long long)bf->holdings);
        caught = 1;
    } else if (bf->n >= 2) {
        chi_t c;
        long n = CHI_PER_WORLD * bf->n < 1000 ? 1000 : CHI_PER_WORLD * bf->n;
        chi_square(s, b, bf, n, seed, &c);
        snprintf(how, len, "chi-square %.1f over %d degrees of freedom, limit %.1f; %ld of %ld draws no world", c.stat,
                 c.dof, c.limit, c.outside, n);
        caught = c.outside > 0 || c.failed_draws > 0 || c.stat > c.limit;
    } else {
        snprintf(how, len, "one world, counted right");
    }
    picket_sampler_free(s);
    return caught;
}

typedef struct mutant_run {
    int mode;
    long budget;
    int tried, caught, want_tried;
    int need_equal;     /* only views where the opponent answered "equal" */
    char first[600];
    uint64_t seed;
} mutant_run_t;

static int mutant_view(void *ctx, const table_t *t, const picket_view_t *v)
{
    mutant_run_t *m = ctx;
    const picket_pub_t *p = &v->pub;
    char why[200], how[300];
    if (m->need_equal) {
        int equal = 0;
        for (int d = 0; d < PK_DECL_COUNT; d++)
            equal |= p->answer[d] == PK_ANS_EQUAL;
        if (!equal || v->seat != picket_elder(p))
            return 0;
    }
    bins_t b;
    if (!make_bins(v, &b, why, sizeof why) || placements(&b) > (double)m->budget || cardset_count(b.U) < 3)
        return 0;
    brute_t bf = { 0 };
    brute_force(t, v, &b, &bf);
    if (!m->need_equal && (bf.n < 20 || bf.n > CHI_MAX_WORLDS)) {
        brute_free(&bf);
        return 0;
    }
    m->tried++;
    if (mutant_caught(v, &b, &bf, m->mode, rng_derive(m->seed, (uint64_t)t->step), how, sizeof how)) {
        m->caught++;
        if (!m->first[0]) {
            char rules[200];
            snprintf(m->first, sizeof m->first, "[%s] seed %llu seat %d step %d: %s",
                     rules_text(&v->rules, t->preset, rules, sizeof rules), (unsigned long long)t->seed, v->seat,
                     t->step, how);
        }
    }
    brute_free(&bf);
    return m->tried >= m->want_tried;
}

static void mutant_search(mutant_run_t *m)
{
    static table_t t;
    for (int set = 0; set < 400 && m->tried < m->want_tried; set++) {
        int preset = set % PK_PRESET_COUNT;
        picket_rules_t r = PICKET_PRESETS[preset].rules;
        if ((set / PK_PRESET_COUNT) % 2)
            r.deck = 32;
        play_set(&t, &r, preset, m->seed + (uint64_t)set, 0.3, mutant_view, m);
    }
}

/* IGNORE_EQUAL drops what an "equal" answer tells: on views of elder where younger answered
 * equal, its count or its worlds must differ from the brute force's, somewhere. */
static void test_the_sampler_that_ignores_equal_answers_is_caught(void)
{
    mutant_run_t m;
    memset(&m, 0, sizeof m);
    m.mode = PK_SAMPLER_BIAS_IGNORE_EQUAL;
    m.budget = 20000;
    m.need_equal = 1;
    m.want_tried = 20;
    m.seed = 555000;
    mutant_search(&m);
    printf("\n    caught on %d of %d views with an equal answer; first: %s ", m.caught, m.tried, m.first);
    CU_ASSERT(m.tried >= 5);
    CU_ASSERT(m.caught >= 1);
}

/* FLAT draws the right worlds with the wrong weights: the chi-square test must reject it. */
static void test_the_flat_sampler_is_caught_by_chi_square(void)
{
    /* Forged views first: each has worlds of several kinds. */
    static table_t t;
    const forged_t *forged[] = { &RUFF_48, &HUITIEME, &FOUR_ACES, &CALLED };
    int caught = 0, tried = 0;
    for (int i = 0; i < 4; i++) {
        picket_rules_t r = forged_rules(0, PK_SEQ_SUITED, forged[i]->needs_call);
        forge(&t, &r, 0, forged[i]);
        picket_view_t v;
        picket_view_from_state(&t.st, 1, &v);
        bins_t b;
        char why[200], how[300];
        CU_ASSERT_FATAL(make_bins(&v, &b, why, sizeof why));
        brute_t bf = { 0 };
        brute_force(&t, &v, &b, &bf);
        if (bf.n >= 2) {
            tried++;
            int c = mutant_caught(&v, &b, &bf, PK_SAMPLER_BIAS_FLAT, 99 + (uint64_t)i, how, sizeof how);
            caught += c;
            printf("\n    %-20s %s: %s ", forged[i]->name, c ? "caught" : "not caught", how);
        }
        brute_free(&bf);
    }
    mutant_run_t m;
    memset(&m, 0, sizeof m);
    m.mode = PK_SAMPLER_BIAS_FLAT;
    m.budget = 6000;
    m.want_tried = 12;
    m.seed = 777000;
    mutant_search(&m);
    printf("\n    random views: caught on %d of %d; first: %s ", m.caught, m.tried, m.first);
    CU_ASSERT(caught + m.caught >= 1);
    CU_ASSERT(tried + m.tried >= 8);
}

/* ---------------------------------------------------------------- 4. the game_t hooks */

static int same_state(const picket_state_t *a, const picket_state_t *b)
{
    return state_diff(a, b, PK_STOCK) == NULL && a->deal_seed == b->deal_seed;
}

static void test_the_game_hooks_count_and_draw_as_the_sampler(void)
{
    const game_t *g = &PICKET_GAME;
    CU_ASSERT_PTR_NOT_NULL_FATAL(g->sampler_new);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g->sampler_draw);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g->sampler_count);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g->sampler_free);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g->sample_world);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g->sampler_prepare);
    static table_t t;
    char err[GAME_ERR_LEN], why[300];
    int views = 0;
    void *reused = NULL; /* one sampler made over for every view: the same as a fresh one */
    /* A forged view (small: the brute force's counts too) and views along a random set. */
    for (int k = 0; k < 2; k++) {
        if (k == 0) {
            picket_rules_t r = forged_rules(0, PK_SEQ_SUITED, 1);
            forge(&t, &r, 0, &CALLED);
        }
        picket_rules_t r = PICKET_PRESETS[1].rules;
        if (k == 1) {
            table_init(&t, &r, 1, 4711);
            table_chance(&t);
        }
        for (int step = 0; step < 40 && picket_to_move(&t.st) >= 0; step++) {
            for (int seat = 0; seat < 2; seat++) {
                picket_view_t v;
                picket_view_from_state(&t.st, seat, &v);
                void *s = g->sampler_new(&v, err, sizeof err);
                CU_ASSERT_PTR_NOT_NULL_FATAL(s);
                picket_sampler_t *e = picket_sampler_new(&v, PK_SAMPLER_EXACT, err, sizeof err);
                CU_ASSERT_PTR_NOT_NULL_FATAL(e);
                uint64_t h = 0, n = g->sampler_count(s, &h);
                CU_ASSERT_EQUAL(n, picket_sampler_worlds(e));
                CU_ASSERT_EQUAL(h, picket_sampler_holdings(e));
                CU_ASSERT_EQUAL(g->sampler_count(s, NULL), n);
                CU_ASSERT(n >= 1);
                if (k == 0 && step == 0 && seat == 1) {
                    bins_t b;
                    brute_t bf = { 0 };
                    CU_ASSERT_FATAL(make_bins(&v, &b, why, sizeof why));
                    brute_force(&t, &v, &b, &bf);
                    CU_ASSERT_EQUAL(n, (uint64_t)bf.n);
                    CU_ASSERT_EQUAL(h, bf.holdings);
                    brute_free(&bf);
                }
                /* The same seed, the same world; each one replays to the view. */
                picket_state_t a, b2, c, d;
                rng_t ra, rb, rc;
                rng_seed(&ra, 31 + (uint64_t)step);
                rng_seed(&rb, 31 + (uint64_t)step);
                CU_ASSERT_EQUAL(g->sampler_draw(s, &ra, &a), 0);
                CU_ASSERT_EQUAL(g->sampler_draw(s, &rb, &b2), 0);
                CU_ASSERT(same_state(&a, &b2));
                CU_ASSERT_EQUAL(memcmp(&ra, &rb, sizeof ra), 0);
                int ok = check_world(&t, &v, &a, why, sizeof why);
                if (!ok)
                    report_view(&t, &v, why);
                CU_ASSERT(ok);
                rng_seed(&rc, 99 + (uint64_t)step);
                CU_ASSERT_EQUAL(g->sample_world(&v, &rc, &c), 0);
                ok = check_world(&t, &v, &c, why, sizeof why);
                if (!ok)
                    report_view(&t, &v, why);
                CU_ASSERT(ok);
                rng_seed(&rc, 99 + (uint64_t)step);
                CU_ASSERT_EQUAL(g->sample_world(&v, &rc, &d), 0);
                CU_ASSERT(same_state(&c, &d));
                /* Later deals come from the generator, not a seed the view never saw. */
                CU_ASSERT_NOT_EQUAL(a.deal_seed, t.st.deal_seed);
                if (!reused)
                    reused = g->sampler_new(&v, err, sizeof err);
                else
                    CU_ASSERT_EQUAL(g->sampler_prepare(reused, &v, err, sizeof err), 0);
                CU_ASSERT_PTR_NOT_NULL_FATAL(reused);
                CU_ASSERT_EQUAL(g->sampler_count(reused, &h), n);
                CU_ASSERT_EQUAL(h, picket_sampler_holdings(e));
                rng_seed(&rb, 31 + (uint64_t)step);
                CU_ASSERT_EQUAL(g->sampler_draw(reused, &rb, &b2), 0);
                CU_ASSERT(same_state(&a, &b2));
                picket_sampler_free(e);
                g->sampler_free(s);
                views++;
            }
            rng_t mr;
            rng_seed(&mr, (uint64_t)step);
            game_move_t m;
            CU_ASSERT_EQUAL_FATAL(picket_random_move(&t.st, &mr, &m), 0);
            table_apply(&t, &m);
        }
    }
    CU_ASSERT(views >= 20);
    g->sampler_free(reused);
}

/* Before the first deal nothing is hidden: one world, the start of the set, its cut and deal
 * still to come (from the generator). */
static void test_before_the_deal_there_is_one_world(void)
{
    const game_t *g = &PICKET_GAME;
    picket_view_t v, back;
    picket_rules_t r = PICKET_PRESETS[2].rules;
    picket_view_init(&v, &r, 1);
    char err[GAME_ERR_LEN];
    void *s = g->sampler_new(&v, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    uint64_t h = 0;
    CU_ASSERT_EQUAL(g->sampler_count(s, &h), 1);
    CU_ASSERT_EQUAL(h, 1);
    picket_state_t w[2];
    rng_t rng;
    rng_seed(&rng, 3);
    for (int i = 0; i < 2; i++) {
        CU_ASSERT_EQUAL_FATAL(i == 0 ? g->sampler_draw(s, &rng, &w[i]) : g->sample_world(&v, &rng, &w[i]), 0);
        picket_view_from_state(&w[i], 1, &back);
        CU_ASSERT_PTR_NULL(picket_view_diff(&back, &v));
        CU_ASSERT_EQUAL(picket_to_move(&w[i]), GAME_CHANCE);
        game_event_t ev[GAME_MAX_EVENTS];
        CU_ASSERT(picket_apply_chance(&w[i], NULL, ev, GAME_MAX_EVENTS) > 0);
    }
    CU_ASSERT_NOT_EQUAL(w[0].deal_seed, w[1].deal_seed);
    g->sampler_free(s);
}

/* A view no deal could give is refused with a reason, by both entry points. */
static void test_a_malformed_view_is_refused(void)
{
    static table_t t;
    picket_rules_t r = forged_rules(1, PK_SEQ_SUITED, 0);
    forge(&t, &r, 1, &RUFF_48);
    picket_view_t v;
    picket_view_from_state(&t.st, 1, &v);
    v.know.opp_known = v.hand & -v.hand; /* a card of his own "known" in the other hand */
    char err[GAME_ERR_LEN] = "";
    picket_sampler_t *s = picket_sampler_new(&v, PK_SAMPLER_EXACT, err, sizeof err);
    if (s) {
        CU_ASSERT_EQUAL(picket_sampler_worlds(s), 0);
        picket_state_t w;
        rng_t rng;
        rng_seed(&rng, 1);
        CU_ASSERT_EQUAL(picket_sampler_draw(s, &rng, NULL, &w), -1);
        picket_sampler_free(s);
    } else {
        CU_ASSERT(err[0] != '\0');
    }
    picket_state_t w;
    rng_t rng;
    rng_seed(&rng, 1);
    CU_ASSERT_EQUAL(PICKET_GAME.sample_world(&v, &rng, &w), -1);
    /* A sampler made over for it has no world after, and serves a good view again. */
    picket_view_t good;
    picket_view_from_state(&t.st, 1, &good);
    picket_sampler_t *re = picket_sampler_new(&good, PK_SAMPLER_EXACT, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(re);
    uint64_t n = picket_sampler_worlds(re);
    CU_ASSERT(n > 0);
    err[0] = '\0';
    CU_ASSERT_EQUAL(picket_sampler_prepare(re, &v, PK_SAMPLER_EXACT, err, sizeof err), -1);
    CU_ASSERT(err[0] != '\0');
    CU_ASSERT_EQUAL(picket_sampler_worlds(re), 0);
    CU_ASSERT_EQUAL(picket_sampler_draw(re, &rng, NULL, &w), -1);
    CU_ASSERT_EQUAL(picket_sampler_prepare(re, &good, PK_SAMPLER_EXACT, err, sizeof err), 0);
    CU_ASSERT_EQUAL(picket_sampler_worlds(re), n);
    CU_ASSERT_EQUAL(picket_sampler_draw(re, &rng, NULL, &w), 0);
    picket_sampler_free(re);
}

/* A view no deal gives (the opponent fails to follow a suit he is known to hold): no world, and
 * no crash (a programme whose layer empties part way). */
static void test_a_view_with_no_world_has_none(void)
{
    const picket_rules_t *r = &picket_preset_find("cotgrave")->rules;
    char err[GAME_ERR_LEN];
    int found = 0;
    for (int seed = 1; seed < 300 && !found; seed++) {
        static picket_state_t st;
        rng_t rng;
        rng_seed(&rng, (uint64_t)seed);
        picket_init(&st, r, (uint64_t)seed);
        picket_apply_chance(&st, NULL, NULL, 0);
        while (!found && picket_to_move(&st) >= 0 && st.pub.hand_no == 1) {
            int who = picket_to_move(&st);
            if (st.pub.phase == PK_PH_PLAY && st.pub.trick_card[0] < 0 && st.pub.trick_card[1] < 0) {
                int me = who, opp = 1 - who;
                for (cardset_t k = st.know[me].opp_known & st.hand[opp]; k && !found; k &= k - 1) {
                    int suit = card_suit(cardset_first(k));
                    cardset_t mine = st.hand[me] & cardset_suit(suit), his = st.hand[opp] & cardset_suit(suit);
                    cardset_t spare = st.discard[opp] & ~cardset_suit(suit);
                    if (!mine || cardset_count(spare) < cardset_count(his))
                        continue;
                    /* His cards of the suit swapped for discards of others, his knowledge kept. */
                    picket_state_t t = st;
                    for (cardset_t q = his; q; q &= q - 1) {
                        int a = cardset_first(q), b = cardset_first(spare);
                        spare &= spare - 1;
                        t.hand[opp] = (t.hand[opp] & ~cardset_of(a)) | cardset_of(b);
                        t.discard[opp] = (t.discard[opp] & ~cardset_of(b)) | cardset_of(a);
                    }
                    game_move_t m = { PK_MV_PLAY, (int16_t)cardset_first(mine), 0, cardset_of(cardset_first(mine)) }, o;
                    picket_apply(&t, &m, NULL, 0);
                    CU_ASSERT_FATAL(picket_legal_moves(&t, &o, 1) == 1);
                    picket_apply(&t, &o, NULL, 0);
                    picket_view_t x;
                    picket_view_from_state(&t, me, &x);
                    picket_sampler_t *smp = picket_sampler_new(&x, PK_SAMPLER_EXACT, err, sizeof err);
                    if (smp) {
                        CU_ASSERT_EQUAL(picket_sampler_worlds(smp), 0);
                        picket_state_t w;
                        CU_ASSERT_EQUAL(picket_sampler_draw(smp, &rng, NULL, &w), -1);
                        picket_sampler_free(smp);
                    }
                    found = 1;
                }
            }
            game_move_t mv;
            CU_ASSERT_FATAL(picket_random_move(&st, &rng, &mv) == 0);
            picket_apply(&st, &mv, NULL, 0);
        }
    }
    CU_ASSERT(found);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("sampler", NULL, NULL);
    CU_add_test(s, "the chi-square limit is the one-in-a-million quantile",
                test_the_chi_square_limit_is_the_one_in_a_million_quantile);
    CU_add_test(s, "an exact Ruff of 48 pins the hand", test_an_exact_ruff_of_48_pins_the_hand);
    CU_add_test(s, "a huitieme pins the hand", test_a_huitieme_pins_the_hand);
    CU_add_test(s, "four Aces shown pin the hand", test_four_aces_shown_pin_the_hand);
    CU_add_test(s, "a void pins the hand", test_a_void_pins_the_hand);
    CU_add_test(s, "a Blank shown is the dealt hand", test_a_blank_shown_is_the_dealt_hand);
    CU_add_test(s, "a Blank declared but not shown has no court", test_a_blank_declared_but_not_shown_has_no_court);
    CU_add_test(s, "a Blank not declared means a court card", test_a_blank_not_declared_means_a_court_card);
    CU_add_test(s, "a called suit without appointment pins the hand",
                test_a_called_suit_without_appointment_pins_the_hand);
    CU_add_test(s, "an appointment due means elder lacks the called suit",
                test_an_appointment_due_means_elder_lacks_the_called_suit);
    CU_add_test(s, "the game hooks count and draw as the sampler", test_the_game_hooks_count_and_draw_as_the_sampler);
    CU_add_test(s, "before the deal there is one world", test_before_the_deal_there_is_one_world);
    CU_add_test(s, "a malformed view is refused", test_a_malformed_view_is_refused);
    CU_add_test(s, "a view with no world has none", test_a_view_with_no_world_has_none);
    CU_add_test(s, "counts and uniformity match the brute force", test_counts_and_uniformity_match_the_brute_force);
    CU_add_test(s, "the sampler that ignores equal answers is caught",
                test_the_sampler_that_ignores_equal_answers_is_caught);
    CU_add_test(s, "the flat sampler is caught by chi-square", test_the_flat_sampler_is_caught_by_chi_square);
    CU_add_test(s, "every world drawn replays to the view (events, view, state)",
                test_every_world_drawn_replays_to_the_view);
    return test_run_all();
}
