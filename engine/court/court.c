/* court: the rules of Court Circular as a state machine (court.h): the public record, built
 * from events alike on the referee's side and in every view, and the rules that emit them. */
#include "court.h"

#include <assert.h>
#include <string.h>

/* ---------------------------------------------------------------- rules */

int court_rules_build(court_rules_t *r, const game_config_t *cfg, char *err, size_t errlen)
{
    if (cfg->preset[0] && strcmp(cfg->preset, "carroll") != 0)
        return text_error(err, errlen, "unknown preset '%s' (carroll)", cfg->preset);
    int players = cfg->players ? cfg->players : CC_DEFAULT_PLAYERS;
    if (players < CC_MIN_PLAYERS || players > CC_MAX_PLAYERS)
        return text_fail(err, errlen, "court-circular is for 2 to 8 players, not %d", players);
    r->players = players;
    r->target = CC_DEFAULT_TARGET;
    for (int i = 0; i < cfg->n_flags; i++) {
        char name[48];
        const char *value;
        if (game_flag_split(cfg->flags[i], name, sizeof name, &value, err, errlen) < 0)
            return -1;
        if (strcmp(name, "target") != 0)
            return text_error(err, errlen, "unknown flag '%s' (target)", name);
        int t;
        if (text_int(value, 20, 50, &t) < 0 || (t != 20 && t != 50))
            return text_error(err, errlen, "flag target: bad value '%s' (allowed: 20, 50)", value);
        r->target = t;
    }
    return 0;
}

static void pub_init(court_pub_t *p, const court_rules_t *r)
{
    memset(p, 0, sizeof *p);
    p->rules = *r;
    p->phase = CC_PH_DEAL;
    p->to_move = p->dealer = p->deal_first = p->first = p->lead = p->winner = p->old_lead = -1;
    memset(p->cut, -1, sizeof p->cut);
    memset(p->played, -1, sizeof p->played);
}

void court_init(court_state_t *st, const court_rules_t *r, uint64_t deal_seed)
{
    memset(st, 0, sizeof *st);
    pub_init(&st->pub, r);
    st->deal_seed = deal_seed;
}

int court_pub_to_move(const court_pub_t *p)
{
    if (p->phase == CC_PH_OVER)
        return GAME_OVER;
    if (p->phase == CC_PH_DEAL || p->to_move < 0)
        return GAME_CHANCE;
    return p->to_move;
}

int court_to_move(const court_state_t *st) { return court_pub_to_move(&st->pub); }

int court_marks(cardset_t up, cardset_t down)
{
    cardset_t all = up | down, courts = cardset_rank(RANK_J) | cardset_rank(RANK_Q) | cardset_rank(RANK_K);
    return 2 * cardset_count(up) + cardset_count(down) + cardset_count(all & cardset_suit(SUIT_H)) +
           cardset_count(all & courts);
}

/* ---------------------------------------------------------------- the public record */

cardset_t court_table(const court_pub_t *p)
{
    cardset_t t = 0;
    for (int s = 0; s < p->rules.players; s++)
        for (int i = 0; i < p->count[s] && i < CC_PER_TRICK; i++)
            if (p->played[s][i] >= 0)
                t |= cardset_of(p->played[s][i]);
    return t;
}

int court_may_resign(const court_pub_t *p)
{
    if (p->phase != CC_PH_PLAY || p->to_move < 0 || p->pack_left == 0)
        return 0;
    int any = 0;
    for (int s = 0; s < p->rules.players; s++) {
        if (p->count[s] >= CC_PER_TRICK)
            return 0;
        any |= p->count[s] > 0;
    }
    return any;
}

cardset_t court_public_cards(const court_pub_t *p)
{
    cardset_t s = court_table(p);
    if (p->lead >= 0)
        s |= cardset_of(p->lead);
    for (int i = 0; i < p->rules.players; i++)
        s |= p->up[i] | p->down[i];
    return s;
}

/* The cut's highest card's seat (first-hand) and lowest's (the dealer): 0, or -1 before every
 * seat has cut. */
static int cut_order(const court_pub_t *p, int *hi, int *lo)
{
    *hi = *lo = 0;
    for (int i = 0; i < p->rules.players; i++) {
        if (p->cut[i] < 0)
            return -1;
        *hi = court_card_value(p->cut[i]) > court_card_value(p->cut[*hi]) ? i : *hi;
        *lo = court_card_value(p->cut[i]) < court_card_value(p->cut[*lo]) ? i : *lo;
    }
    return 0;
}

int court_low_marks(const court_pub_t *p)
{
    int low = court_marks(p->up[0], p->down[0]);
    for (int i = 1; i < p->rules.players; i++) {
        int m = court_marks(p->up[i], p->down[i]);
        low = m < low ? m : low;
    }
    return low;
}

static int valid_card(int c) { return c >= 0 && c < CARD_COUNT; }

/* The trick's winner has named the new Lead: a card still on the table until he takes them. */
static int lead_chosen(const court_pub_t *p) { return p->lead >= 0 && cardset_has(court_table(p), p->lead); }

/* Every card played: the pack exhausted and every hand empty. */
static int deal_played_out(const court_pub_t *p)
{
    int held = 0;
    for (int s = 0; s < p->rules.players; s++)
        held += p->held[s];
    return held == 0 && p->pack_left == 0;
}

int court_pub_apply(court_pub_t *p, const game_event_t *ev)
{
    int n = p->rules.players, s = ev->seat, c = ev->arg;
    if (ev->audience != GAME_ALL || p->phase == CC_PH_OVER)
        return -1;
    int seat_ok = s >= 0 && s < n;
    switch (ev->type) {
    case CC_EV_CUT:
        if (!seat_ok || p->deal_no != 0 || p->cut[s] >= 0 || !valid_card(c) || ev->cards != cardset_of(c))
            return -1;
        for (int i = 0; i < n; i++)
            if (p->cut[i] == c)
                return -1;
        p->cut[s] = (int8_t)c;
        return 0;
    case CC_EV_DEAL: {
        if (!seat_ok || p->phase != CC_PH_DEAL || ev->a != p->deal_no + 1 || ev->b < 0 || ev->b >= n || ev->b == s)
            return -1;
        if (p->deal_no == 0) {
            int hi, lo;
            if (cut_order(p, &hi, &lo) < 0 || s != hi || ev->b != lo)
                return -1;
        } else if (s != p->deal_first || ev->b != p->dealer) {
            return -1;
        }
        p->deal_no = ev->a;
        p->deal_first = p->first = (int8_t)s;
        p->dealer = (int8_t)ev->b;
        memset(p->up, 0, sizeof p->up);
        memset(p->down, 0, sizeof p->down);
        memset(p->held, 0, sizeof p->held);
        memset(p->count, 0, sizeof p->count);
        memset(p->played, -1, sizeof p->played);
        p->pack_left = CC_PACK;
        p->trick_no = 0;
        p->lead = p->old_lead = p->winner = p->to_move = -1;
        p->in = 0;
        return 0;
    }
    case CC_EV_GIVEN:
        if (!seat_ok || p->deal_no == 0 || ev->a != p->pack_left - 1 || p->held[s] >= CC_HAND)
            return -1;
        p->held[s]++;
        p->pack_left = (int8_t)ev->a;
        return 0;
    case CC_EV_LEAD:
        if (!valid_card(c) || ev->cards != cardset_of(c) || cardset_has(court_public_cards(p) & ~court_table(p), c))
            return -1;
        if (s == -1) {
            /* Turned up from the pack at the deal. */
            if (p->lead >= 0 || p->trick_no != 0 || ev->a != p->pack_left - 1 || cardset_has(court_table(p), c))
                return -1;
            p->pack_left = (int8_t)ev->a;
        } else {
            /* Chosen by the trick's winner from the table, never the old Lead, once a trick. */
            if (p->phase != CC_PH_LEAD || s != p->to_move || s != p->winner || !cardset_has(court_table(p), c) ||
                ev->a != p->pack_left || lead_chosen(p))
                return -1;
            p->old_lead = p->lead;
            p->to_move = -1;
        }
        p->lead = (int8_t)c;
        return 0;
    case CC_EV_TRICK:
        /* First-hand holds cards, unless the pack is exhausted (then the next seat with cards opens). */
        if (!seat_ok || p->deal_no == 0 || ev->a != p->trick_no + 1 || p->lead < 0 || court_table(p) ||
            (p->held[s] == 0 && p->pack_left > 0))
            return -1;
        p->trick_no = (int8_t)ev->a;
        p->first = (int8_t)s;
        p->in = 0;
        for (int i = 0; i < n; i++) {
            p->count[i] = 0;
            if (p->held[i] > 0)
                p->in |= (uint8_t)(1u << i);
        }
        memset(p->played, -1, sizeof p->played);
        p->winner = p->to_move = -1;
        p->phase = CC_PH_PLAY;
        return p->in ? 0 : -1;
    case CC_EV_TURN:
        if (!seat_ok || p->deal_no == 0 || p->to_move >= 0)
            return -1;
        if (c == CC_PH_PLAY) {
            if (p->phase != CC_PH_PLAY || !(p->in & (1u << s)) || p->count[s] >= CC_PER_TRICK || p->held[s] == 0)
                return -1;
        } else if (c == CC_PH_LEAD) {
            /* No Lead is chosen after the deal's last trick: its winner clears the board. */
            if (p->phase != CC_PH_LEAD || s != p->winner || lead_chosen(p) || deal_played_out(p))
                return -1;
        } else {
            return -1;
        }
        p->to_move = (int8_t)s;
        return 0;
    case CC_EV_PLAY:
        if (!seat_ok || p->phase != CC_PH_PLAY || s != p->to_move || !valid_card(c) || ev->cards != cardset_of(c) ||
            cardset_has(court_public_cards(p), c) || p->held[s] <= 0 || p->count[s] >= CC_PER_TRICK)
            return -1;
        p->played[s][p->count[s]++] = (int8_t)c;
        p->held[s]--;
        p->to_move = -1;
        return 0;
    case CC_EV_RESIGN:
        if (!seat_ok || s != p->to_move || !court_may_resign(p))
            return -1;
        p->in &= (uint8_t)~(1u << s);
        p->to_move = -1;
        return 0;
    case CC_EV_WON:
        if (!seat_ok || p->phase != CC_PH_PLAY || p->to_move >= 0 || !(p->in & (1u << s)))
            return -1;
        p->winner = (int8_t)s;
        p->phase = CC_PH_LEAD;
        return 0;
    case CC_EV_TAKE: {
        /* Once a trick: the take empties the trick's seats (the winner among them until then). */
        if (!seat_ok || s != p->winner || p->to_move >= 0 || !(p->in & (1u << s)) || p->lead < 0 || (c != 0 && c != 1) ||
            c != (s == p->first))
            return -1;
        cardset_t pool = court_table(p) | (p->old_lead >= 0 ? cardset_of(p->old_lead) : 0);
        int clears = p->old_lead < 0; /* the last trick: no Lead chosen, the board cleared */
        if (clears)
            pool |= cardset_of(p->lead);
        else
            pool &= ~cardset_of(p->lead);
        if (ev->cards != pool)
            return -1;
        if (c)
            p->up[s] |= ev->cards;
        else
            p->down[s] |= ev->cards;
        memset(p->count, 0, sizeof p->count);
        memset(p->played, -1, sizeof p->played);
        p->in = 0;
        p->old_lead = -1;
        if (clears)
            p->lead = -1;
        return 0;
    }
    case CC_EV_SCORE: {
        /* At the deal's end (the board cleared): the seat's marks, less the lowest seat's. */
        if (!seat_ok || p->deal_no == 0 || p->phase != CC_PH_LEAD || p->lead >= 0 || p->winner < 0 ||
            ev->a != court_marks(p->up[s], p->down[s]) || ev->c != p->score[s] + ev->b)
            return -1;
        if (ev->b != ev->a - court_low_marks(p))
            return -1;
        p->score[s] = ev->c;
        return 0;
    }
    case CC_EV_DEAL_END:
        if (ev->a != p->deal_no || p->lead >= 0 || p->deal_no == 0 || p->phase != CC_PH_LEAD || p->winner < 0)
            return -1;
        p->phase = CC_PH_DEAL;
        p->to_move = p->winner = -1;
        return 0;
    case CC_EV_GAME_END:
        if (p->phase != CC_PH_DEAL || p->deal_no == 0)
            return -1;
        p->phase = CC_PH_OVER;
        return 0;
    default:
        return -1;
    }
}

/* ---------------------------------------------------------------- the rules */

typedef struct ctx {
    court_state_t *st;
    game_event_t *ev;
    int cap, n;
} ctx_t;

/* Record an event and apply it to the truth: public ones through the record (the rules emit
 * only events that follow), the private card to the seat's hand. */
static void emit(ctx_t *x, int type, int audience, int seat, int arg, int a, int b, int c, cardset_t cards)
{
    game_event_t e = { (uint8_t)type, (int8_t)audience, (int8_t)seat, (int8_t)arg, (int16_t)a, (int16_t)b, c, 0, cards };
    if (audience == GAME_ALL) {
        int refused = court_pub_apply(&x->st->pub, &e);
        assert(!refused);
        (void)refused;
    } else if (type == CC_EV_CARD)
        x->st->hand[seat] |= cards;
    if (type == CC_EV_PLAY)
        x->st->hand[seat] &= ~cards;
    if (x->ev && x->n < x->cap)
        x->ev[x->n] = e;
    x->n++;
}

static int players(const court_state_t *st) { return st->pub.rules.players; }

/* One card from the pack to a seat. */
static void give(ctx_t *x, int seat)
{
    court_state_t *st = x->st;
    int card = st->pack[CC_PACK - st->pub.pack_left];
    emit(x, CC_EV_CARD, seat, seat, card, 0, 0, 0, cardset_of(card));
    emit(x, CC_EV_GIVEN, GAME_ALL, seat, 0, st->pub.pack_left - 1, 0, 0, 0);
}

/* Make every hand up to 6, one card at a time from first-hand, while the pack lasts. */
static void refill(ctx_t *x, int from)
{
    court_state_t *st = x->st;
    int n = players(st), gave = 1;
    while (gave && st->pub.pack_left > 0) {
        gave = 0;
        for (int i = 0; i < n && st->pub.pack_left > 0; i++) {
            int s = (from + i) % n;
            if (st->pub.held[s] < CC_HAND) {
                give(x, s);
                gave = 1;
            }
        }
    }
}

/* The first seat from `from` on (itself included) that may put down a card, or -1. */
static int next_in(const court_pub_t *p, int from)
{
    int n = p->rules.players;
    for (int i = 0; i < n; i++) {
        int s = (from + i) % n;
        if ((p->in & (1u << s)) && p->count[s] < CC_PER_TRICK && p->held[s] > 0)
            return s;
    }
    return -1;
}

/* A new trick with `first` as first-hand (rule V: the last trick's winner). Once the pack is
 * exhausted he may hold nothing: he stays first-hand all the same (ruling, docs/court.md), and
 * the next seat round the table that holds cards puts down the trick's first card. */
static void start_trick(ctx_t *x, int first)
{
    court_pub_t *p = &x->st->pub;
    int n = players(x->st), opens = first;
    for (int i = 0; i < n && p->held[opens] == 0; i++)
        opens = (opens + 1) % n;
    emit(x, CC_EV_TRICK, GAME_ALL, first, 0, p->trick_no + 1, 0, 0, 0);
    emit(x, CC_EV_TURN, GAME_ALL, opens, CC_PH_PLAY, 0, 0, 0, 0);
}

static void shuffle(uint8_t *pack, rng_t *r)
{
    for (int i = 0; i < CC_PACK; i++)
        pack[i] = (uint8_t)i;
    rng_shuffle_u8(r, pack, CC_PACK);
}

/* The cut, once: each seat a card; the highest is first-hand, the lowest deals. */
static void cut(ctx_t *x, rng_t *rng)
{
    court_state_t *st = x->st;
    uint8_t pack[CC_PACK];
    rng_t own;
    shuffle(pack, game_chance_rng(rng, &own, st->deal_seed, 0));
    for (int s = 0; s < players(st); s++)
        emit(x, CC_EV_CUT, GAME_ALL, s, pack[s], 0, 0, 0, cardset_of(pack[s]));
}

/* A deal from the pack in order: 6 cards a seat one at a time from first-hand, then the Lead. */
static void deal(ctx_t *x, const uint8_t *pack)
{
    court_state_t *st = x->st;
    court_pub_t *p = &st->pub;
    int n = players(st), first = p->deal_first, dealer = p->dealer;
    if (p->deal_no == 0)
        cut_order(p, &first, &dealer);
    memcpy(st->pack, pack, CC_PACK);
    for (int s = 0; s < n; s++)
        st->hand[s] = 0;
    emit(x, CC_EV_DEAL, GAME_ALL, first, 0, p->deal_no + 1, dealer, 0, 0);
    for (int round = 0; round < CC_HAND; round++)
        for (int i = 0; i < n; i++)
            give(x, (first + i) % n);
    int lead = st->pack[CC_PACK - p->pack_left];
    emit(x, CC_EV_LEAD, GAME_ALL, -1, lead, p->pack_left - 1, 0, 0, cardset_of(lead));
    start_trick(x, first);
}

int court_apply_chance(court_state_t *st, rng_t *rng, game_event_t *ev, int evcap)
{
    court_pub_t *p = &st->pub;
    ctx_t x = { st, ev, evcap, 0 };
    if (p->phase != CC_PH_DEAL)
        return 0;
    if (p->deal_no == 0)
        cut(&x, rng);
    uint8_t pack[CC_PACK];
    rng_t own;
    shuffle(pack, game_chance_rng(rng, &own, st->deal_seed, (uint64_t)p->deal_no + 1));
    deal(&x, pack);
    return x.n;
}

/* ---------------------------------------------------------------- moves */

int court_legal_moves(const court_state_t *st, game_move_t *out, int cap)
{
    const court_pub_t *p = &st->pub;
    int n = 0;
    if (court_to_move(st) < 0)
        return 0;
    if (p->phase == CC_PH_PLAY) {
        for (cardset_t h = st->hand[p->to_move]; h && n < cap; h &= h - 1)
            out[n++] = game_card_move(CC_MV_PLAY, cardset_first(h));
        if (court_may_resign(p) && n < cap)
            out[n++] = (game_move_t){ CC_MV_RESIGN, 0, 0, 0 };
    } else if (p->phase == CC_PH_LEAD) {
        for (cardset_t t = court_table(p); t && n < cap; t &= t - 1)
            out[n++] = game_card_move(CC_MV_LEAD, cardset_first(t));
    }
    return n;
}

int court_is_legal(const court_state_t *st, const game_move_t *m, char *err, size_t errlen)
{
    const court_pub_t *p = &st->pub;
    char c[3];
    if (court_to_move(st) < 0)
        return game_illegal(err, errlen, "%s",
                            p->phase == CC_PH_OVER ? "the game is over" : "no move is due: a deal is");
    if (m->reserved != 0 || (m->kind == CC_MV_RESIGN && (m->arg != 0 || m->cards != 0)) ||
        ((m->kind == CC_MV_PLAY || m->kind == CC_MV_LEAD) && (!valid_card(m->arg) || m->cards != cardset_of(m->arg))))
        return game_illegal(err, errlen, "malformed move");
    if (p->phase == CC_PH_PLAY) {
        if (m->kind == CC_MV_RESIGN) {
            if (court_may_resign(p))
                return 1;
            return game_illegal(err, errlen, "%s",
                                p->pack_left == 0 ? "no one may resign once the pack is exhausted"
                                                  : "resigning is allowed only after the trick's first card and "
                                                    "before anyone has put down 3");
        }
        if (m->kind != CC_MV_PLAY)
            return game_illegal(err, errlen, "a card or a resignation is due");
        if (!cardset_has(st->hand[p->to_move], m->arg))
            return game_illegal(err, errlen, "card %s is not in the hand", card_format(m->arg, c));
        return 1;
    }
    if (m->kind != CC_MV_LEAD)
        return game_illegal(err, errlen, "the trick's winner must choose the next Lead");
    if (m->arg == p->lead)
        return game_illegal(err, errlen, "the old Lead may not be the Lead again");
    if (!cardset_has(court_table(p), m->arg))
        return game_illegal(err, errlen, "card %s is not on the table", card_format(m->arg, c));
    return 1;
}

/* Reckon the deal and go on: another deal, or the end of the game. */
static void end_deal(ctx_t *x)
{
    court_pub_t *p = &x->st->pub;
    int n = players(x->st), low = court_low_marks(p), over = 0;
    for (int s = 0; s < n; s++) {
        int marks = court_marks(p->up[s], p->down[s]);
        emit(x, CC_EV_SCORE, GAME_ALL, s, 0, marks, marks - low, p->score[s] + marks - low, 0);
        over |= p->score[s] >= p->rules.target;
    }
    emit(x, CC_EV_DEAL_END, GAME_ALL, -1, 0, p->deal_no, 0, 0, 0);
    if (over)
        emit(x, CC_EV_GAME_END, GAME_ALL, -1, 0, 0, 0, 0, 0);
}

/* The trick is over: its winner clears the board (the last trick) or is to choose the Lead. */
static void decide_trick(ctx_t *x)
{
    court_state_t *st = x->st;
    court_pub_t *p = &st->pub;
    court_line_t line;
    int w = court_trick_winner(players(st), (const int8_t(*)[CC_PER_TRICK])p->played, p->count, p->in, p->lead, &line);
    emit(x, CC_EV_WON, GAME_ALL, w, line.cls, line.kind, line.len, 0, 0);
    if (deal_played_out(p)) {
        emit(x, CC_EV_TAKE, GAME_ALL, w, w == p->first, 0, 0, 0, court_table(p) | cardset_of(p->lead));
        end_deal(x);
        return;
    }
    emit(x, CC_EV_TURN, GAME_ALL, w, CC_PH_LEAD, 0, 0, 0, 0);
}

int court_apply(court_state_t *st, const game_move_t *m, game_event_t *ev, int evcap)
{
    ctx_t x = { st, ev, evcap, 0 };
    court_pub_t *p = &st->pub;
    char why[GAME_ERR_LEN];
    if (!court_is_legal(st, m, why, sizeof why))
        return 0; /* the contract says check first; an illegal move changes nothing */
    int s = p->to_move;
    if (p->phase == CC_PH_PLAY) {
        if (m->kind == CC_MV_RESIGN)
            emit(&x, CC_EV_RESIGN, GAME_ALL, s, 0, 0, 0, 0, 0);
        else
            emit(&x, CC_EV_PLAY, GAME_ALL, s, m->arg, 0, 0, 0, cardset_of(m->arg));
        /* A resignation that leaves one seat in ends the trick; otherwise it goes on until every
         * seat in has put down 3 or emptied its hand. */
        int next = m->kind == CC_MV_RESIGN && __builtin_popcount(p->in) <= 1 ? -1 : next_in(p, s + 1);
        if (next < 0)
            decide_trick(&x);
        else
            emit(&x, CC_EV_TURN, GAME_ALL, next, CC_PH_PLAY, 0, 0, 0, 0);
        return x.n;
    }
    /* The chosen card is the new Lead; the winner takes the rest, face up if he was first-hand,
     * is first-hand of the next trick, and the hands are made up from him. */
    int w = p->winner;
    emit(&x, CC_EV_LEAD, GAME_ALL, w, m->arg, p->pack_left, 0, 0, cardset_of(m->arg));
    cardset_t rest = (court_table(p) | cardset_of(p->old_lead)) & ~cardset_of(m->arg);
    emit(&x, CC_EV_TAKE, GAME_ALL, w, w == p->first, 0, 0, 0, rest);
    refill(&x, w);
    start_trick(&x, w);
    return x.n;
}
