/* highcard: the rules, the public record, the views, worlds and the heuristic, behind game_t.
 * The rules are in highcard.h and docs/highcard.md. */
#include "highcard.h"

#include <string.h>

const game_param_t HC_PARAMS[HC_N_PARAMS] = {
    { "aggression", 0.5, 0.0, 1.0,
      "play the highest card when its chance to win the round is at least 1 - aggression, else the lowest" },
};

/* ---------------------------------------------------------------- rules and config */

/* Rules from a config: 0, or -1 with a one-line reason. */
static int highcard_rules_build(highcard_rules_t *r, const game_config_t *cfg, char *err, size_t errlen)
{
    if (cfg->preset[0] && strcmp(cfg->preset, "standard") != 0)
        return text_error(err, errlen, "unknown preset '%s' (standard)", cfg->preset);
    int players = cfg->players ? cfg->players : HC_DEFAULT_PLAYERS;
    if (players < HC_MIN_PLAYERS || players > HC_MAX_PLAYERS)
        return text_fail(err, errlen, "highcard is for 2 to 4 players, not %d", players);
    r->players = players;
    r->hand = HC_DEFAULT_HAND;
    r->hands = HC_DEFAULT_HANDS;
    int max_hand = HC_PACK_SIZE / players;
    for (int i = 0; i < cfg->n_flags; i++) {
        char name[48];
        const char *value;
        if (game_flag_split(cfg->flags[i], name, sizeof name, &value, err, errlen) < 0)
            return -1;
        char vshown[64];
        text_quote(value, 40, vshown, sizeof vshown);
        if (strcmp(name, "hand") == 0) {
            if (text_int(value, 1, max_hand, &r->hand) < 0)
                return text_fail(err, errlen, "flag hand: bad value '%s' (allowed: a number 1..%d for %d players)",
                                 vshown, max_hand, players);
        } else if (strcmp(name, "hands") == 0) {
            if (text_int(value, 1, HC_MAX_HANDS, &r->hands) < 0)
                return text_fail(err, errlen, "flag hands: bad value '%s' (allowed: a number 1..%d)", vshown,
                                 HC_MAX_HANDS);
        } else {
            return text_error(err, errlen, "unknown flag '%s' (hand, hands)", name);
        }
    }
    return 0;
}

static void pub_init(highcard_pub_t *p, const highcard_rules_t *r)
{
    memset(p, 0, sizeof *p);
    p->rules = *r;
    p->need = HC_NEED_HAND;
    p->to_move = -1;
    memset(p->round_card, -1, sizeof p->round_card);
}

/* ---------------------------------------------------------------- the public record */

static game_event_t mk(int type, int audience, int seat)
{
    return (game_event_t){ .type = (uint8_t)type, .audience = (int8_t)audience, .seat = (int8_t)seat };
}

static game_event_t play_event(int seat, int card)
{
    game_event_t e = mk(HC_EV_PLAY, GAME_ALL, seat);
    e.arg = (int8_t)card;
    e.cards = cardset_of(card);
    return e;
}

/* The round's winner: the one highest rank, or -1 when two or more cards share it. */
static int round_winner(const highcard_pub_t *p)
{
    int best = -1, winner = -1;
    for (int s = 0; s < p->rules.players; s++) {
        if (p->round_card[s] < 0)
            continue;
        int r = card_rank(p->round_card[s]);
        if (r > best)
            best = r, winner = s;
        else if (r == best)
            winner = -1;
    }
    return winner;
}

/* Each seat's rank from the scores (0 first; ties share, the next skips). */
static void highcard_rank(const highcard_pub_t *p, int *rank)
{
    for (int i = 0; i < p->rules.players; i++) {
        rank[i] = 0;
        for (int j = 0; j < p->rules.players; j++)
            rank[i] += p->score[j] > p->score[i];
    }
}

/* The public event the record determines by itself next (turn, round, hand-end, game-end;
 * hand, for the deal): 1 with it in ev, or 0 when a play or nothing is due. */
static int highcard_pub_next(const highcard_pub_t *p, game_event_t *ev)
{
    int n = p->rules.players;
    switch (p->need) {
    case HC_NEED_HAND:
        *ev = mk(HC_EV_HAND, GAME_ALL, p->hand_no % n);
        ev->a = (int16_t)(p->hand_no + 1);
        return 1;
    case HC_NEED_TURN:
        *ev = mk(HC_EV_TURN, GAME_ALL, (p->leader + p->n_played) % n);
        return 1;
    case HC_NEED_ROUND:
        *ev = mk(HC_EV_ROUND, GAME_ALL, round_winner(p));
        ev->a = (int16_t)(p->round_no + 1);
        return 1;
    case HC_NEED_HAND_END:
        *ev = mk(HC_EV_HAND_END, GAME_ALL, -1);
        return 1;
    case HC_NEED_GAME_END: {
        int rank[HC_MAX_PLAYERS];
        highcard_rank(p, rank);
        *ev = mk(HC_EV_GAME_END, GAME_ALL, -1);
        ev->arg = (int8_t)n;
        for (int s = 0; s < n; s++)
            ev->c |= rank[s] << (4 * s);
        return 1;
    }
    default:
        return 0;
    }
}

/* Apply one public event to the record: 0, or -1 (nothing changed) if it cannot follow. */
static int highcard_pub_apply(highcard_pub_t *p, const game_event_t *ev)
{
    game_event_t want;
    if (ev->type == HC_EV_PLAY) {
        int c = ev->arg;
        if (p->need != HC_NEED_PLAY || c < 0 || c >= CARD_COUNT || !cardset_has(highcard_pack(), c) ||
            cardset_has(p->played, c))
            return -1;
        want = play_event(p->to_move, c);
        if (memcmp(&want, ev, sizeof want) != 0)
            return -1;
        p->round_card[p->to_move] = (int8_t)c;
        p->played |= cardset_of(c);
        p->n_played++;
        p->to_move = -1;
        p->need = p->n_played == p->rules.players ? HC_NEED_ROUND : HC_NEED_TURN;
        return 0;
    }
    /* Every other public event is determined by the record: it must be exactly that one. */
    if (!highcard_pub_next(p, &want) || memcmp(&want, ev, sizeof want) != 0)
        return -1;
    switch (ev->type) {
    case HC_EV_HAND:
        p->hand_no++;
        p->leader = ev->seat; /* to_move is -1 since the last play */
        p->round_no = p->n_played = 0;
        memset(p->round_card, -1, sizeof p->round_card);
        memset(p->hand_pts, 0, sizeof p->hand_pts);
        p->played = 0;
        p->need = HC_NEED_TURN;
        break;
    case HC_EV_TURN:
        p->to_move = ev->seat;
        p->need = HC_NEED_PLAY;
        break;
    case HC_EV_ROUND:
        if (ev->seat >= 0) {
            p->score[ev->seat]++;
            p->hand_pts[ev->seat]++;
            p->leader = ev->seat;
        }
        p->round_no++;
        p->n_played = 0;
        memset(p->round_card, -1, sizeof p->round_card);
        p->need = p->round_no == p->rules.hand ? HC_NEED_HAND_END : HC_NEED_TURN;
        break;
    case HC_EV_HAND_END:
        p->need = p->hand_no == p->rules.hands ? HC_NEED_GAME_END : HC_NEED_HAND;
        break;
    case HC_EV_GAME_END:
        p->need = HC_NEED_NOTHING;
        break;
    default:
        return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------- the state machine */

typedef struct ctx {
    highcard_state_t *st;
    game_event_t *ev;
    int cap, n;
} ctx_t;

/* Record one event and apply it to the truth: public ones through the record (the rules emit
 * only events that follow), private ones to the seat's hand. */
static void emit(ctx_t *x, const game_event_t *e)
{
    if (e->audience == GAME_ALL)
        highcard_pub_apply(&x->st->pub, e);
    else if (e->type == HC_EV_DEALT)
        x->st->hand[e->seat] = e->cards;
    if (e->type == HC_EV_PLAY)
        x->st->hand[e->seat] &= ~e->cards;
    if (x->ev && x->n < x->cap)
        x->ev[x->n] = *e;
    x->n++;
}

/* The events the record owes after a deal or a play, up to the next decision or deal. */
static void emit_due(ctx_t *x)
{
    game_event_t e;
    while (x->st->pub.need != HC_NEED_HAND && highcard_pub_next(&x->st->pub, &e))
        emit(x, &e);
}

static int deal(highcard_state_t *st, const cardset_t *hands, game_event_t *ev, int evcap)
{
    ctx_t x = { st, ev, evcap, 0 };
    game_event_t e;
    highcard_pub_next(&st->pub, &e);
    emit(&x, &e);
    for (int s = 0; s < st->pub.rules.players; s++) {
        e = mk(HC_EV_DEALT, s, s);
        e.cards = hands[s];
        emit(&x, &e);
    }
    emit_due(&x);
    return x.n;
}

int highcard_deal_given(highcard_state_t *st, const cardset_t *hands, game_event_t *ev, int evcap)
{
    cardset_t seen = 0;
    if (st->pub.need != HC_NEED_HAND)
        return -1;
    for (int s = 0; s < st->pub.rules.players; s++) {
        if (cardset_count(hands[s]) != st->pub.rules.hand || (hands[s] & ~highcard_pack()) || (hands[s] & seen))
            return -1;
        seen |= hands[s];
    }
    return deal(st, hands, ev, evcap);
}

static int g_apply_chance(void *state, rng_t *given, game_event_t *ev, int evcap)
{
    highcard_state_t *st = state;
    if (st->pub.need != HC_NEED_HAND)
        return 0;
    uint8_t deck[HC_PACK_SIZE];
    int n = cardset_to_bytes(highcard_pack(), deck);
    rng_t own;
    rng_shuffle_u8(game_chance_rng(given, &own, st->deal_seed, (uint64_t)st->pub.hand_no + 1), deck, n);
    cardset_t hands[HC_MAX_PLAYERS] = { 0 };
    for (int s = 0, pos = 0; s < st->pub.rules.players; s++)
        for (int i = 0; i < st->pub.rules.hand; i++)
            hands[s] |= cardset_of(deck[pos++]);
    return deal(st, hands, ev, evcap);
}

static int g_init(void *state, const game_config_t *cfg, char *err, size_t errlen)
{
    highcard_state_t *st = state;
    highcard_rules_t r;
    if (highcard_rules_build(&r, cfg, err, errlen) < 0)
        return -1;
    memset(st, 0, sizeof *st);
    pub_init(&st->pub, &r);
    st->deal_seed = cfg->deal_seed;
    return 0;
}

static int g_num_players(const void *state) { return ((const highcard_state_t *)state)->pub.rules.players; }

static int pub_to_move(const highcard_pub_t *p)
{
    switch (p->need) {
    case HC_NEED_PLAY:
        return p->to_move;
    case HC_NEED_NOTHING:
        return GAME_OVER;
    default:
        return GAME_CHANCE; /* a deal, or (inside a batch of events) events still owed */
    }
}

static int g_to_move(const void *state) { return pub_to_move(&((const highcard_state_t *)state)->pub); }

static int g_legal(const void *state, game_move_t *out, int cap)
{
    const highcard_state_t *st = state;
    if (st->pub.need != HC_NEED_PLAY)
        return 0;
    return game_card_moves(HC_MV_PLAY, st->hand[st->pub.to_move], out, cap);
}

static int g_random(const void *state, rng_t *rng, game_move_t *out)
{
    const highcard_state_t *st = state;
    if (st->pub.need != HC_NEED_PLAY)
        return -1;
    return game_random_card_move(HC_MV_PLAY, st->hand[st->pub.to_move], rng, out);
}

static int g_check(const void *state, const game_move_t *m, char *err, size_t len)
{
    const highcard_state_t *st = state;
    char c[3];
    if (st->pub.need != HC_NEED_PLAY)
        return game_illegal(err, len, "%s",
                            st->pub.need == HC_NEED_NOTHING ? "the game is over" : "no move is due: a deal is");
    if (m->kind != HC_MV_PLAY || m->reserved)
        return game_illegal(err, len, "unknown move kind %d (highcard has only 'play')", m->kind);
    if (m->arg < 0 || m->arg >= CARD_COUNT || m->cards != cardset_of(m->arg))
        return game_illegal(err, len, "a play names exactly one card");
    if (!cardset_has(st->hand[st->pub.to_move], m->arg))
        return game_illegal(err, len, "%s is not in seat %d's hand", card_format(m->arg, c), st->pub.to_move);
    return 1;
}

static int g_apply(void *state, const game_move_t *m, game_event_t *ev, int evcap)
{
    highcard_state_t *st = state;
    char why[GAME_ERR_LEN];
    if (!g_check(st, m, why, sizeof why))
        return 0; /* the contract says check first; an illegal move changes nothing */
    ctx_t x = { st, ev, evcap, 0 };
    game_event_t e = play_event(st->pub.to_move, m->arg);
    emit(&x, &e);
    emit_due(&x);
    return x.n;
}

static int g_rank(const void *state, int *rank)
{
    const highcard_state_t *st = state;
    if (st->pub.need != HC_NEED_NOTHING)
        return 0;
    highcard_rank(&st->pub, rank);
    return 1;
}

static void g_scores(const void *state, int *out)
{
    const highcard_state_t *st = state;
    for (int s = 0; s < st->pub.rules.players; s++)
        out[s] = st->pub.score[s];
}

static int g_hand_over(const void *state)
{
    const highcard_pub_t *p = &((const highcard_state_t *)state)->pub;
    return p->need == HC_NEED_NOTHING || (p->need == HC_NEED_HAND && p->hand_no > 0);
}

static void g_hand_value(const void *state, double *out)
{
    const highcard_state_t *st = state;
    for (int s = 0; s < st->pub.rules.players; s++)
        out[s] = st->pub.hand_pts[s];
}

/* ---------------------------------------------------------------- views */

static void g_view_from_state(const void *state, int seat, void *view)
{
    const highcard_state_t *st = state;
    highcard_view_t *v = view;
    memset(v, 0, sizeof *v);
    v->pub = st->pub;
    v->seat = seat;
    v->got_deal = st->pub.hand_no > 0;
    v->hand = st->hand[seat];
}

static int g_view_seat(const void *view) { return ((const highcard_view_t *)view)->seat; }
static int g_view_num_players(const void *view) { return ((const highcard_view_t *)view)->pub.rules.players; }

static int g_view_init(void *view, const game_config_t *cfg, int seat, char *err, size_t errlen)
{
    highcard_rules_t r;
    if (highcard_rules_build(&r, cfg, err, errlen) < 0)
        return -1;
    if (seat < 0 || seat >= r.players)
        return text_fail(err, errlen, "highcard seats are 0 to %d, not %d", r.players - 1, seat);
    highcard_view_t *v = view;
    memset(v, 0, sizeof *v);
    pub_init(&v->pub, &r);
    v->seat = seat;
    return 0;
}

static int g_view_apply(void *view, const game_event_t *ev)
{
    highcard_view_t *v = view;
    if (!game_event_visible(ev, v->seat))
        return -1;
    if (ev->audience != GAME_ALL) {
        /* The only private event: this seat's deal, once, right after "hand". */
        game_event_t want = mk(HC_EV_DEALT, v->seat, v->seat);
        want.cards = ev->cards;
        if (memcmp(&want, ev, sizeof want) != 0 || v->got_deal || v->pub.need != HC_NEED_TURN ||
            v->pub.round_no != 0 || v->pub.n_played != 0 || cardset_count(ev->cards) != v->pub.rules.hand ||
            (ev->cards & ~highcard_pack()))
            return -1;
        v->hand = ev->cards;
        v->got_deal = 1;
        return 0;
    }
    int mine = 0;
    if (ev->type == HC_EV_TURN && !v->got_deal)
        return -1;
    if (ev->type == HC_EV_PLAY) {
        if (ev->arg < 0 || ev->arg >= CARD_COUNT)
            return -1;
        mine = ev->seat == v->seat;
        if (mine != cardset_has(v->hand, ev->arg))
            return -1;
    }
    highcard_pub_t p = v->pub;
    if (highcard_pub_apply(&p, ev) < 0)
        return -1;
    v->pub = p;
    if (ev->type == HC_EV_HAND) {
        v->got_deal = 0;
        v->hand = 0;
    }
    if (mine)
        v->hand &= ~ev->cards;
    return 0;
}

/* The record's fields under their own names, then the seat's. */
#define PUB_FIELD(f) { #f, offsetof(highcard_view_t, pub.f), sizeof(((highcard_view_t *)0)->pub.f) }
#define VIEW_FIELD(f) GAME_FIELD(highcard_view_t, f)
static const game_field_t VIEW_FIELDS[] = {
    PUB_FIELD(rules), PUB_FIELD(need), PUB_FIELD(hand_no), PUB_FIELD(leader), PUB_FIELD(to_move), PUB_FIELD(round_no),
    PUB_FIELD(n_played), PUB_FIELD(round_card), PUB_FIELD(score), PUB_FIELD(hand_pts), PUB_FIELD(played),
    VIEW_FIELD(seat), VIEW_FIELD(got_deal), VIEW_FIELD(hand), { NULL, 0, 0 },
};

static const char *g_view_diff(const void *a, const void *b) { return game_fields_diff(a, b, VIEW_FIELDS); }

static int g_view_to_move(const void *view) { return pub_to_move(&((const highcard_view_t *)view)->pub); }

static int my_turn(const highcard_view_t *v) { return v->pub.need == HC_NEED_PLAY && v->pub.to_move == v->seat; }

static int g_view_legal(const void *view, game_move_t *out, int cap)
{
    const highcard_view_t *v = view;
    return my_turn(v) ? game_card_moves(HC_MV_PLAY, v->hand, out, cap) : 0;
}

static int g_view_random(const void *view, rng_t *rng, game_move_t *out)
{
    const highcard_view_t *v = view;
    return my_turn(v) ? game_random_card_move(HC_MV_PLAY, v->hand, rng, out) : -1;
}

/* ---------------------------------------------------------------- worlds */

/* Nothing in the rules tells a seat anything about the others' unplayed cards (any card may be
 * played at any time), so the worlds consistent with a view are exactly the ways of dealing the
 * unseen cards among the others' unknown hands, the rest left out of the deal: all equally
 * likely. One shuffle draws one of them uniformly. */
static int g_sample_world(const void *view, rng_t *rng, void *state_out)
{
    const highcard_view_t *v = view;
    const highcard_pub_t *p = &v->pub;
    highcard_state_t *st = state_out;
    if (p->hand_no > 0 && !v->got_deal)
        return -1; /* the seat's own deal is still owed: no state has this view */
    memset(st, 0, sizeof *st);
    st->pub = *p;
    st->hand[v->seat] = v->hand;
    if (p->hand_no > 0 && p->need != HC_NEED_HAND && p->need != HC_NEED_NOTHING) {
        uint8_t unseen[HC_PACK_SIZE];
        int n = cardset_to_bytes(highcard_pack() & ~p->played & ~v->hand, unseen), pos = 0;
        rng_shuffle_u8(rng, unseen, n);
        for (int s = 0; s < p->rules.players; s++) {
            if (s == v->seat)
                continue;
            int k = p->rules.hand - p->round_no - (p->round_card[s] >= 0);
            if (k < 0 || pos + k > n)
                return -1;
            for (int i = 0; i < k; i++)
                st->hand[s] |= cardset_of(unseen[pos++]);
        }
    }
    st->deal_seed = rng_next(rng); /* future deals: a stream of the world's own, from rng */
    return 0;
}

/* ---------------------------------------------------------------- the heuristic */

double highcard_win_chance(const highcard_view_t *v)
{
    const highcard_pub_t *p = &v->pub;
    if (!v->hand)
        return 0.0;
    int top = RANK_A; /* the hand's highest rank */
    while (top > 0 && !(v->hand & cardset_rank(top)))
        top--;
    for (int s = 0; s < p->rules.players; s++)
        if (p->round_card[s] >= 0 && card_rank(p->round_card[s]) >= top)
            return 0.0; /* beaten or tied already */
    /* The seats still to play hold their cards among the unseen ones, as far as this seat knows:
     * the chance that none of theirs ranks as high (a tie wins nobody the round). */
    cardset_t unseen = highcard_pack() & ~p->played & ~v->hand;
    int u = cardset_count(unseen), threats = 0;
    for (cardset_t c = unseen; c; c &= c - 1)
        threats += card_rank(cardset_first(c)) >= top;
    int later = p->rules.players - p->n_played - 1;
    int m = (later > 0 ? later : 0) * (p->rules.hand - p->round_no);
    double chance = 1.0;
    for (int i = 0; i < m; i++) {
        if (u - threats - i <= 0)
            return 0.0; /* more cards to come than safe ones */
        chance *= (double)(u - threats - i) / (double)(u - i);
    }
    return chance;
}

static void g_heuristic(const void *view, const double *params, const game_move_t *moves, int n, double *values)
{
    const game_param_t *a = &HC_PARAMS[HC_PARAM_AGGRESSION];
    double aggression = params ? params[HC_PARAM_AGGRESSION] : a->def;
    if (aggression < a->min)
        aggression = a->min;
    if (aggression > a->max)
        aggression = a->max;
    int attack = highcard_win_chance(view) >= 1.0 - aggression;
    for (int i = 0; i < n; i++) {
        int valid = moves[i].kind == HC_MV_PLAY && moves[i].arg >= 0 && moves[i].arg < CARD_COUNT;
        int r = valid ? card_rank(moves[i].arg) : 0;
        values[i] = !valid ? -100.0 : attack ? r : -r;
    }
}

/* ---------------------------------------------------------------- the game_t table */

const game_t HIGHCARD_GAME = {
    .name = "highcard",
    .state_size = sizeof(highcard_state_t),
    .view_size = sizeof(highcard_view_t),
    GAME_HOOKS,
    .sample_world = g_sample_world,
    .move_format = highcard_move_format,
    .move_parse = highcard_move_parse,
    .event_format = highcard_event_format,
    .event_parse = highcard_event_parse,
    .heuristic_evaluate = g_heuristic,
    .heuristic_params = HC_PARAMS,
    .n_heuristic_params = HC_N_PARAMS,
    .endgame = NULL,
};
