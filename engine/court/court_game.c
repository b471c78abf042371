/* Court Circular behind game_t: the views, worlds, the heuristic player and the table. The rules
 * are court.c, the Lines court_lines.c, the notation court_text.c. */
#include <stdio.h>
#include <string.h>

#include "court.h"

/* ---------------------------------------------------------------- views */

static void g_view_from_state(const void *state, int seat, void *view)
{
    const court_state_t *st = state;
    court_view_t *v = view;
    memset(v, 0, sizeof *v);
    v->pub = st->pub;
    v->seat = seat;
    v->hand = st->hand[seat];
}

static int g_view_apply(void *view, const game_event_t *ev)
{
    court_view_t *v = view;
    if (!game_event_visible(ev, v->seat))
        return -1;
    if (ev->audience != GAME_ALL) {
        /* The only private event: a card given to this seat, before its public "given". */
        int c = ev->arg;
        if (ev->type != CC_EV_CARD || ev->seat != v->seat || c < 0 || c >= CARD_COUNT || ev->cards != cardset_of(c) ||
            ev->a || ev->b || ev->c || cardset_has(v->hand | court_public_cards(&v->pub), c) || v->pub.deal_no == 0 ||
            v->pub.pack_left == 0 || cardset_count(v->hand) != v->pub.held[v->seat] ||
            v->pub.held[v->seat] >= CC_HAND)
            return -1;
        v->hand |= ev->cards;
        return 0;
    }
    int mine = ev->seat == v->seat;
    switch (ev->type) {
    case CC_EV_GIVEN:
        /* My own card came just before. */
        if (cardset_count(v->hand) != v->pub.held[v->seat] + mine)
            return -1;
        break;
    case CC_EV_PLAY:
        if (ev->arg < 0 || ev->arg >= CARD_COUNT || mine != cardset_has(v->hand, ev->arg))
            return -1;
        break;
    case CC_EV_LEAD:
        if (ev->seat < 0 && ev->arg >= 0 && ev->arg < CARD_COUNT && cardset_has(v->hand, ev->arg))
            return -1;
        break;
    case CC_EV_TRICK:
    case CC_EV_DEAL_END:
        if (cardset_count(v->hand) != v->pub.held[v->seat])
            return -1;
        break;
    default:
        break;
    }
    court_pub_t p = v->pub;
    if (court_pub_apply(&p, ev) < 0)
        return -1;
    v->pub = p;
    if (ev->type == CC_EV_DEAL)
        v->hand = 0;
    if (ev->type == CC_EV_PLAY && mine)
        v->hand &= ~ev->cards;
    return 0;
}

#define FIELD(f) GAME_FIELD(court_view_t, f)
static const game_field_t VIEW_FIELDS[] = {
    FIELD(pub.rules), FIELD(pub.score), FIELD(pub.up), FIELD(pub.down), FIELD(pub.cut), FIELD(pub.held),
    FIELD(pub.played), FIELD(pub.count), FIELD(pub.deal_no), FIELD(pub.dealer), FIELD(pub.deal_first),
    FIELD(pub.phase), FIELD(pub.to_move), FIELD(pub.first), FIELD(pub.lead), FIELD(pub.pack_left),
    FIELD(pub.trick_no), FIELD(pub.in), FIELD(pub.winner), FIELD(pub.old_lead), FIELD(seat), FIELD(hand),
    { NULL, 0, 0 },
};

/* ---------------------------------------------------------------- game_t wrappers */

static int g_init(void *state, const game_config_t *cfg, char *err, size_t errlen)
{
    court_rules_t r;
    if (court_rules_build(&r, cfg, err, errlen) < 0)
        return -1;
    court_init(state, &r, cfg->deal_seed);
    return 0;
}

static int g_num_players(const void *state) { return ((const court_state_t *)state)->pub.rules.players; }
static int g_to_move(const void *state) { return court_to_move(state); }
static int g_apply_chance(void *state, rng_t *rng, game_event_t *ev, int evcap)
{
    return court_apply_chance(state, rng, ev, evcap);
}
static int g_legal(const void *state, game_move_t *out, int cap) { return court_legal_moves(state, out, cap); }

static int g_random(const void *state, rng_t *rng, game_move_t *out)
{
    game_move_t moves[CC_HAND + CC_MAX_PLAYERS * CC_PER_TRICK + 1];
    int n = court_legal_moves(state, moves, (int)(sizeof moves / sizeof moves[0]));
    if (n <= 0)
        return -1;
    *out = moves[rng_below(rng, (uint32_t)n)];
    return 0;
}

static int g_check(const void *state, const game_move_t *m, char *err, size_t len)
{
    return court_is_legal(state, m, err, len);
}
static int g_apply(void *state, const game_move_t *m, game_event_t *ev, int evcap)
{
    return court_apply(state, m, ev, evcap);
}

/* Once the game is over: each seat's rank by score (0 first; ties share, the next skips). */
static int g_rank(const void *state, int *rank)
{
    const court_pub_t *p = &((const court_state_t *)state)->pub;
    if (p->phase != CC_PH_OVER)
        return 0;
    for (int s = 0; s < p->rules.players; s++) {
        rank[s] = 0;
        for (int o = 0; o < p->rules.players; o++)
            rank[s] += p->score[o] > p->score[s];
    }
    return 1;
}

static void g_scores(const void *state, int *out)
{
    const court_state_t *st = state;
    for (int s = 0; s < st->pub.rules.players; s++)
        out[s] = st->pub.score[s];
}

static int g_hand_over(const void *state)
{
    const court_pub_t *p = &((const court_state_t *)state)->pub;
    return p->phase == CC_PH_OVER || (p->phase == CC_PH_DEAL && p->deal_no > 0);
}

/* The deal so far: each seat's marks less the lowest seat's (what the reckoning would give). */
static void g_hand_value(const void *state, double *out)
{
    const court_pub_t *p = &((const court_state_t *)state)->pub;
    int low = court_low_marks(p);
    for (int s = 0; s < p->rules.players; s++)
        out[s] = court_marks(p->up[s], p->down[s]) - low;
}

static int g_view_seat(const void *view) { return ((const court_view_t *)view)->seat; }
static int g_view_num_players(const void *view) { return ((const court_view_t *)view)->pub.rules.players; }

static int g_view_init(void *view, const game_config_t *cfg, int seat, char *err, size_t errlen)
{
    court_rules_t r;
    if (court_rules_build(&r, cfg, err, errlen) < 0)
        return -1;
    if (seat < 0 || seat >= r.players)
        return text_fail(err, errlen, "court-circular seats are 0 to %d, not %d", r.players - 1, seat);
    court_state_t st;
    court_init(&st, &r, 0);
    g_view_from_state(&st, seat, view);
    return 0;
}

static const char *g_view_diff(const void *a, const void *b) { return game_fields_diff(a, b, VIEW_FIELDS); }

static int g_view_to_move(const void *view) { return court_pub_to_move(&((const court_view_t *)view)->pub); }

/* A state with the view's public record and the seat's own hand (enough to list its moves). */
static void own_state(const court_view_t *v, court_state_t *st)
{
    memset(st, 0, sizeof *st);
    st->pub = v->pub;
    st->hand[v->seat] = v->hand;
}

static int g_view_legal(const void *view, game_move_t *out, int cap)
{
    const court_view_t *v = view;
    if (g_view_to_move(v) != v->seat)
        return 0;
    court_state_t st;
    own_state(v, &st);
    return court_legal_moves(&st, out, cap);
}

static int g_view_random(const void *view, rng_t *rng, game_move_t *out)
{
    const court_view_t *v = view;
    if (g_view_to_move(v) != v->seat)
        return -1;
    court_state_t st;
    own_state(v, &st);
    return g_random(&st, rng, out);
}

/* ---------------------------------------------------------------- worlds */

/* Nothing in the rules tells a seat anything about the cards it has not seen: any card may be
 * put down at any time and resigning is a free choice. So the worlds consistent with a view are
 * exactly the ways of dealing the unseen cards into the other hands (each its known count) and
 * the pack's remaining places, all equally likely: one shuffle draws one of them uniformly. */
static int g_sample_world(const void *view, rng_t *rng, void *state_out)
{
    const court_view_t *v = view;
    const court_pub_t *p = &v->pub;
    court_state_t *st = state_out;
    own_state(v, st);
    st->deal_seed = rng_next(rng); /* future deals: a stream of the world's own, from rng */
    if (p->deal_no == 0 || p->phase == CC_PH_OVER || p->phase == CC_PH_DEAL)
        return 0;
    if (cardset_count(v->hand) != p->held[v->seat])
        return -1; /* a card of this seat's is still owed: no state has this view */
    uint8_t unseen[CC_PACK];
    int n = cardset_to_bytes(cards_pack(52) & ~court_public_cards(p) & ~v->hand, unseen), pos = 0;
    int need = p->pack_left;
    for (int s = 0; s < p->rules.players; s++)
        need += s == v->seat ? 0 : p->held[s];
    if (need != n)
        return -1;
    rng_shuffle_u8(rng, unseen, n);
    for (int s = 0; s < p->rules.players; s++) {
        if (s == v->seat)
            continue;
        for (int i = 0; i < p->held[s]; i++)
            st->hand[s] |= cardset_of(unseen[pos++]);
    }
    /* The pack's dealt places hold the cards already out, in any order; its rest the others. */
    cardset_t rest = 0;
    for (int i = pos; i < n; i++)
        rest |= cardset_of(unseen[i]);
    int at = 0;
    for (cardset_t c = cards_pack(52) & ~rest; c && at < CC_PACK - p->pack_left; c &= c - 1)
        st->pack[at++] = (uint8_t)cardset_first(c);
    for (int i = pos; i < n; i++)
        st->pack[at++] = unseen[i];
    return 0;
}

/* ---------------------------------------------------------------- the heuristic */

const game_param_t CC_PARAMS[CC_N_PARAMS] = {
    [CC_W_LINE] = { "line", 1.0, 0, 10, "a card: per step of the best line it makes with the cards put down and the Lead" },
    [CC_W_CARD] = { "card", 4.0, 0, 50, "a card: its place in the card order (0 to 1), times this (a line-less trick)" },
    [CC_W_KEEP] = { "keep", 1.0, 0, 10, "a Lead chosen: less its marks (the next winner takes it), times this" },
    [CC_W_RESIGN] = { "resign_margin", 0.0, 0, 60,
                      "resign when another seat's line already beats the best this seat can still make by this much" },
};

/* A line's strength as one number, in the order of court_line_compare's class, kind and length. */
static int strength(const court_line_t *l) { return l->cls == CC_CLASS_NONE ? 0 : l->cls * 16 + l->kind * 4 + l->len; }

/* The best line of the cards put down plus up to `more` of `hand`, with the Lead. */
static court_line_t best_with(const int8_t *put, int k, cardset_t hand, int more, int lead)
{
    court_line_t best, l;
    court_best_line(put, k, lead, &best);
    int8_t c[CC_PER_TRICK];
    memcpy(c, put, (size_t)k);
    int cards[CC_HAND], n = 0;
    for (cardset_t h = hand; h && n < CC_HAND; h &= h - 1)
        cards[n++] = cardset_first(h);
    for (int i = 0; i < n && more >= 1 && k < CC_PER_TRICK; i++) {
        c[k] = (int8_t)cards[i];
        court_best_line(c, k + 1, lead, &l);
        if (court_line_compare(&l, &best) > 0)
            best = l;
        for (int j = i + 1; j < n && more >= 2 && k + 1 < CC_PER_TRICK; j++) {
            c[k + 1] = (int8_t)cards[j];
            court_best_line(c, k + 2, lead, &l);
            if (court_line_compare(&l, &best) > 0)
                best = l;
        }
    }
    return best;
}

static double card_order(int c) { return court_card_value(c) / 51.0; }

static void g_heuristic(const void *view, const double *params, const game_move_t *moves, int n, double *values)
{
    const court_view_t *v = view;
    const court_pub_t *p = &v->pub;
    double w[CC_N_PARAMS];
    for (int i = 0; i < CC_N_PARAMS; i++)
        w[i] = params ? params[i] : CC_PARAMS[i].def;
    int me = v->seat, k = p->count[me] < CC_PER_TRICK ? p->count[me] : CC_PER_TRICK;
    for (int i = 0; i < n; i++) {
        const game_move_t *m = &moves[i];
        int c = m->arg;
        if (m->kind == CC_MV_RESIGN) {
            /* The best line on the table that is not mine, against the best I can still make. */
            int others = 0;
            for (int s = 0; s < p->rules.players; s++) {
                if (s == me || !(p->in & (1u << s)))
                    continue;
                court_line_t l;
                court_best_line(p->played[s], p->count[s] < CC_PER_TRICK ? p->count[s] : CC_PER_TRICK, p->lead, &l);
                others = strength(&l) > others ? strength(&l) : others;
            }
            court_line_t mine = best_with(p->played[me], k, v->hand, CC_PER_TRICK - k, p->lead);
            values[i] = others > strength(&mine) + w[CC_W_RESIGN] ? 1000.0 : -1000.0;
        } else if (m->kind == CC_MV_PLAY && c >= 0 && c < CARD_COUNT && k < CC_PER_TRICK) {
            /* The line this card makes now, and what it may still make with one more of mine. */
            int8_t put[CC_PER_TRICK];
            memcpy(put, p->played[me], (size_t)k);
            put[k] = (int8_t)c;
            court_line_t now, later = best_with(put, k + 1, v->hand & ~cardset_of(c), 1, p->lead);
            court_best_line(put, k + 1, p->lead, &now);
            values[i] = w[CC_W_LINE] * (strength(&now) + 0.5 * strength(&later)) + w[CC_W_CARD] * card_order(c);
        } else if (m->kind == CC_MV_LEAD && c >= 0 && c < CARD_COUNT) {
            /* A Lead that makes a class 1 line with my hand; giving up its marks. */
            int8_t none[1] = { 0 };
            court_line_t l = best_with(none, 0, v->hand, 2, c);
            int marks = court_marks(p->first == me ? cardset_of(c) : 0, p->first == me ? 0 : cardset_of(c));
            values[i] = w[CC_W_LINE] * (l.cls == CC_CLASS_1 ? strength(&l) : 0) - w[CC_W_KEEP] * marks;
        } else {
            values[i] = -1e9;
        }
    }
}

/* What a person at the view's seat is shown: the trick as each seat put it down, the Lead, the
 * cards taken face up; of the cards taken face down only their number. */
static void g_view_table(const void *view, game_table_t *t)
{
    const court_view_t *v = view;
    const court_pub_t *p = &v->pub;
    int n = p->rules.players;
    memset(t, 0, sizeof *t);
    t->hand = v->hand;
    t->players = n;
    for (int s = 0; s < n; s++)
        t->score[s] = p->score[s];
    if (p->lead >= 0)
        game_table_pile(t, "Lead", -1, cardset_of(p->lead));
    for (int s = 0; s < n && t->n_piles < GAME_TABLE_PILES; s++) {
        int k = p->count[s] < CC_PER_TRICK ? p->count[s] : CC_PER_TRICK;
        if (k <= 0)
            continue;
        game_table_pile_t *pl = &t->pile[t->n_piles++];
        memset(pl, 0, sizeof *pl);
        snprintf(pl->label, sizeof pl->label, "%s", "trick");
        pl->seat = (int8_t)s;
        for (int i = 0; i < k; i++)
            pl->card[pl->n++] = p->played[s][i];
    }
    for (int s = 0; s < n; s++)
        game_table_pile(t, "face up", s, p->up[s]);
    if (p->deal_no > 0) {
        game_table_line(t, "deal %d: %d cards left in the pack; seat %d is first-hand", p->deal_no, p->pack_left,
                        p->first);
        char held[GAME_TABLE_TEXT];
        size_t k = 0;
        for (int s = 0; s < n && k < sizeof held; s++)
            k += (size_t)snprintf(held + k, sizeof held - k, "%sseat %d %d", s ? ", " : "", s, p->held[s]);
        game_table_line(t, "cards held: %s", held);
        k = 0;
        for (int s = 0; s < n && k < sizeof held; s++)
            k += (size_t)snprintf(held + k, sizeof held - k, "%sseat %d %d", s ? ", " : "", s,
                                  cardset_count(p->down[s]));
        game_table_line(t, "taken face down: %s", held);
    }
    game_table_line(t, "the game is to %d", p->rules.target);
}

/* ---------------------------------------------------------------- the game_t table */

const game_t COURT_GAME = {
    .name = "court-circular",
    .state_size = sizeof(court_state_t),
    .view_size = sizeof(court_view_t),
    GAME_HOOKS,
    .sample_world = g_sample_world,
    .move_format = court_move_format,
    .move_parse = court_move_parse,
    .event_format = court_event_format,
    .event_parse = court_event_parse,
    .heuristic_evaluate = g_heuristic,
    .heuristic_params = CC_PARAMS,
    .n_heuristic_params = CC_N_PARAMS,
    .endgame = NULL,
    .view_table = g_view_table,
};
