/* The Picket state machine. Every transition is an event; see picket.h. */
#include "picket.h"

#include <string.h>

#include "picket_partie.h"
#include "picket_score.h"

const char *const PK_CAT_NAMES[PK_CAT_COUNT] = {
    "blank", "ruff", "sequences", "sets", "play", "last-trick", "cards", "capot", "pique", "repique"
};
const char *const PK_PHASE_NAMES[PK_PH_COUNT] = {
    "deal", "blank-count", "set-aside", "elder-exchange", "younger-exchange", "call", "leftover",
    "declare", "answer", "appoint", "play", "choose", "over"
};

/* Emission context: the state, and where events go (buffer may be NULL). */
typedef struct ctx {
    picket_state_t *st;
    game_event_t *ev;
    int cap;
    int n;
    int opening_lead; /* scoring elder's first lead: the Pique window of pique=first-card */
} ctx_t;

static void emit(ctx_t *x, int type, int audience, int seat, int arg, int a, int b, int c, cardset_t cards)
{
    game_event_t e = { (uint8_t)type, (int8_t)audience, (int8_t)seat, (int8_t)arg,
                       (int16_t)a, (int16_t)b, (int32_t)c, 0, cards };
    if (audience == GAME_ALL)
        picket_pub_apply(&x->st->pub, &e);
    if (x->ev && x->n < x->cap)
        x->ev[x->n] = e;
    x->n++;
}

static void turn(ctx_t *x, int seat, int phase) { emit(x, PK_EV_TURN, GAME_ALL, seat, phase, 0, 0, 0, 0); }

int picket_elder_share(const picket_rules_t *r) { return r->deck == 32 ? 5 : 8; }

static int younger_limit(const picket_rules_t *r, int stock_left)
{
    if (r->younger_draw == PK_YD_8 && stock_left > 8)
        return 8;
    return stock_left;
}

int picket_stock_size(const picket_rules_t *r) { return r->deck - 2 * PK_HAND_CARDS; }

/* ---------------------------------------------------------------- scoring */

static int is_declaration(int cat) { return cat <= PK_CAT_SETS; }

/* Reckon points; returns 1 if that ended the set (the caller must stop at once). Points that
 * complete a Pique (or a Repique, in the declarations) bring its bonus, reckoned the same way.
 * A Repique is reckoned in the order of the categories (Blank, Ruff, sequences, sets): the
 * opponent must win nothing in a category before this one, although under calls=cavendish
 * younger scores his after elder's first lead (CAV L68, D Scoring). */
static int score(ctx_t *x, int seat, int cat, int pts)
{
    picket_state_t *st = x->st;
    const picket_pub_t *p = &st->pub;
    const picket_rules_t *r = &st->rules;
    if (pts <= 0)
        return 0;
    emit(x, PK_EV_SCORE, GAME_ALL, seat, cat, pts, 0, p->score[seat] + pts, 0);
    if (r->game == PK_GAME_RACE && p->score[seat] >= r->target) {
        emit(x, PK_EV_SET_END, GAME_ALL, seat, 0, 0, 0, 0, 0);
        return 1;
    }
    if (p->piqued || p->hand_pts[seat] < PK_PIQUE_AT)
        return 0;
    if (is_declaration(cat))
        return (p->won_cats[1 - seat] & ((1u << cat) - 1)) ? 0 : score(x, seat, PK_CAT_REPIQUE, 60);
    if (p->reckoned[1 - seat])
        return 0;
    /* pique=play: elder alone, by points in play (the last trick's too), never the cards (CAV L69). */
    if (r->pique == PK_PQ_PLAY ? seat == picket_elder(p) && (cat == PK_CAT_PLAY || cat == PK_CAT_LAST)
                               : r->pique == PK_PQ_ANY_TIME || x->opening_lead)
        return score(x, seat, PK_CAT_PIQUE, 30);
    return 0;
}

/* ---------------------------------------------------------------- knowledge */

/* A seat shows cards it holds now: the other learns them. */
static void know_shown(picket_state_t *st, int seat, cardset_t cards, int still_held)
{
    picket_know_t *k = &st->know[1 - seat];
    k->seen |= cards;
    if (still_held)
        k->opp_known |= cards;
}

/* ---------------------------------------------------------------- the hand */

/* A declared Blank scores 10, unless both are Blank and both_blank=void. */
static int score_blank(ctx_t *x, int seat)
{
    const picket_pub_t *p = &x->st->pub;
    if (!p->blank[seat] || (p->blank[1 - seat] && x->st->rules.both_blank == PK_BB_VOID))
        return 0;
    return score(x, seat, PK_CAT_BLANK, 10);
}

static int score_blanks(ctx_t *x)
{
    int e = picket_elder(&x->st->pub);
    return score_blank(x, e) || score_blank(x, 1 - e);
}

/* blank_order=announce-then-show: younger's Blank, announced at the deal, is shown and scored
 * after elder's exchange, before his own (CAV L20). 1 if that ended the set. */
static int show_younger_blank(ctx_t *x)
{
    picket_state_t *st = x->st;
    int y = st->pub.dealer;
    if (st->rules.blank_order != PK_BO_ANNOUNCE_THEN_SHOW || !st->holds_blank[y])
        return 0;
    emit(x, PK_EV_SHOW, GAME_ALL, y, PK_CAT_BLANK, 0, 0, 0, st->dealt[y]);
    know_shown(st, y, st->dealt[y], st->pub.discarded[y] == 0);
    return score_blank(x, y);
}

static void declare_blank(ctx_t *x, int seat, int count, int show)
{
    picket_state_t *st = x->st;
    emit(x, PK_EV_BLANK, GAME_ALL, seat, 0, count, 0, 0, 0);
    if (show) {
        emit(x, PK_EV_SHOW, GAME_ALL, seat, PK_CAT_BLANK, 0, 0, 0, st->dealt[seat]);
        know_shown(st, seat, st->dealt[seat], st->pub.discarded[seat] == 0);
    }
}

static void start_play(ctx_t *x)
{
    picket_state_t *st = x->st;
    int e = picket_elder(&st->pub);
    int called = st->pub.called_suit;
    if (called >= 0 && !(st->hand[e] & cardset_suit(called)))
        turn(x, 1 - e, PK_PH_APPOINT);
    else
        turn(x, e, PK_PH_PLAY);
}

/* A seat's holding in one declaration: its claim, the points it scores on winning, the cards it
 * shows then (scored), and the cards of its best holding alone (shown when equal, calls=cavendish). */
typedef struct holding {
    int claim[2];
    int points;
    cardset_t scored, best;
} holding_t;

/* A hand's holding in one category: under declarations=may-sink also a call's, as if the
 * called cards were the whole hand. */
static void holding_of(const picket_rules_t *r, cardset_t hand, int cat, holding_t *h)
{
    memset(h, 0, sizeof *h);
    if (cat == PK_CAT_RUFF) {
        picket_ruff_t t;
        picket_point(hand, r->point == PK_POINT_COUNT, &t);
        picket_point_claim(&t, r->point == PK_POINT_COUNT, h->claim);
        h->points = t.points;
        h->scored = h->best = t.cards;
    } else if (cat == PK_CAT_SEQ) {
        picket_sequences_t q;
        picket_sequences(hand, r->sequences == PK_SEQ_UNSUITED, &q);
        h->claim[0] = q.best.len;
        h->claim[1] = q.best.top;
        h->points = q.points;
        h->scored = q.cards;
        /* An equal best run is shown only with suited sequences (ruling: unsuited, the cards
         * a run takes are the rules' choice, not a fact the opponent could check). */
        h->best = q.nruns && r->sequences == PK_SEQ_SUITED ? q.runs[0].cards : 0;
    } else {
        picket_sets_t t;
        picket_sets(hand, &t);
        h->claim[0] = t.best.count;
        h->claim[1] = t.best.rank;
        h->points = t.points;
        h->scored = t.cards;
        h->best = t.nsets ? t.sets[0].cards : 0;
    }
}

static void holding(const picket_state_t *st, int seat, int cat, holding_t *h)
{
    holding_of(&st->rules, st->hand[seat], cat, h);
}

static int answer_of(const holding_t *he, const holding_t *hy)
{
    /* A claim of nothing has 0 for its rank or top: no tie-break to lose. */
    int cmp = picket_claim_cmp(he->claim[0], he->claim[1], hy->claim[0], hy->claim[1]);
    return cmp > 0 ? PK_ANS_GOOD : cmp == 0 ? PK_ANS_EQUAL : PK_ANS_NOT_GOOD;
}

static int show_scored(ctx_t *x, int seat, int cat, const holding_t *h)
{
    emit(x, PK_EV_SHOW, GAME_ALL, seat, cat, 0, 0, 0, h->scored);
    know_shown(x->st, seat, h->scored, 1);
    return score(x, seat, cat, h->points);
}

/* Younger's answer to elder's holding, then the winner shows and scores (under calls=cavendish
 * younger names no claim on "not good", elder shows an equal holding, and what younger wins
 * waits for elder's first lead: younger_reckons). 1 if that ended the set. */
static int resolve(ctx_t *x, int cat, const holding_t *he, const holding_t *hy, int ans)
{
    picket_state_t *st = x->st;
    int e = picket_elder(&st->pub), y = 1 - e;
    int cav = st->rules.calls == PK_CALLS_CAVENDISH;
    if (ans == PK_ANS_GOOD || (cav && ans == PK_ANS_NOT_GOOD))
        emit(x, PK_EV_ANSWER, GAME_ALL, y, cat, ans, 0, 0, 0);
    else
        emit(x, PK_EV_ANSWER, GAME_ALL, y, cat, ans, hy->claim[0], hy->claim[1], 0);
    int w = ans == PK_ANS_GOOD ? e : ans == PK_ANS_NOT_GOOD ? y : (st->rules.ties == PK_TIES_ELDER ? e : -1);
    if (cav && ans == PK_ANS_EQUAL && w < 0 && he->best) {
        emit(x, PK_EV_SHOW, GAME_ALL, e, cat, 0, 0, 0, he->best);
        know_shown(st, e, he->best, 1);
    }
    const holding_t *hw = w == e ? he : hy;
    if (w < 0 || hw->points == 0 || (cav && w == y))
        return 0;
    return show_scored(x, w, cat, hw);
}

/* Does the point's value get said? Under calls=cavendish with the point by count, only when
 * younger holds as many cards and asks "what do they make?" (CAV L46). */
int picket_value_unsaid(const picket_rules_t *r, int cat)
{
    return r->calls == PK_CALLS_CAVENDISH && cat == PK_CAT_RUFF && r->point == PK_POINT_COUNT;
}

/* One declaration in full: elder announces his best, younger answers with his. */
static int declare(ctx_t *x, int cat)
{
    picket_state_t *st = x->st;
    int e = picket_elder(&st->pub), y = 1 - e;
    holding_t h[2];
    holding(st, e, cat, &h[e]);
    holding(st, y, cat, &h[y]);
    int said = h[e].claim[1];
    if (picket_value_unsaid(&st->rules, cat) && h[y].claim[0] != h[e].claim[0])
        said = 0;
    emit(x, PK_EV_DECLARE, GAME_ALL, e, cat, h[e].claim[0], said, 0, 0);
    return resolve(x, cat, &h[e], &h[y], answer_of(&h[e], &h[y]));
}

/* declarations=may-sink: elder's call in the category due (the cards he chose). */
static void sink_call(ctx_t *x, int cat, cardset_t cards)
{
    picket_state_t *st = x->st;
    int e = picket_elder(&st->pub);
    holding_t h;
    holding_of(&st->rules, cards, cat, &h);
    st->called = cards;
    emit(x, PK_EV_DECLARE, GAME_ALL, e, cat, h.claim[0], picket_value_unsaid(&st->rules, cat) ? 0 : h.claim[1], 0, 0);
    turn(x, 1 - e, PK_PH_ANSWER);
}

/* declarations=may-sink: younger allows elder's call good (full 0), or answers with his best
 * (asking the point's value first when he holds as many cards); then the next category. */
static void sink_answer(ctx_t *x, int cat, int full)
{
    picket_state_t *st = x->st;
    int e = picket_elder(&st->pub), y = 1 - e;
    holding_t he, hy;
    holding_of(&st->rules, st->called, cat, &he);
    holding(st, y, cat, &hy);
    int ans = PK_ANS_GOOD;
    if (full) {
        if (picket_value_unsaid(&st->rules, cat) && hy.claim[0] == he.claim[0])
            emit(x, PK_EV_DECLARE, GAME_ALL, e, cat, he.claim[0], he.claim[1], 0, 0);
        ans = answer_of(&he, &hy);
    } else {
        memset(&hy, 0, sizeof hy);
    }
    st->called = 0;
    if (resolve(x, cat, &he, &hy, ans))
        return;
    if (cat < PK_CAT_SETS)
        turn(x, e, PK_PH_DECLARE);
    else
        start_play(x);
}

/* calls=cavendish, after elder's first card: younger shows his equal holdings and shows and
 * scores what he won, in the categories' order. 1 if that ended the set. */
static int younger_reckons(ctx_t *x)
{
    picket_state_t *st = x->st;
    const picket_pub_t *p = &st->pub;
    int y = p->dealer;
    for (int cat = PK_CAT_RUFF; cat <= PK_CAT_SETS; cat++) {
        int d = cat - PK_CAT_RUFF;
        holding_t h;
        holding(st, y, cat, &h);
        if (p->answer[d] == PK_ANS_NOT_GOOD && show_scored(x, y, cat, &h))
            return 1;
        if (p->answer[d] == PK_ANS_EQUAL && st->rules.ties != PK_TIES_ELDER && h.best) {
            emit(x, PK_EV_SHOW, GAME_ALL, y, cat, 0, 0, 0, h.best);
            know_shown(st, y, h.best, 1);
        }
    }
    return 0;
}

static void declarations(ctx_t *x)
{
    if (x->st->rules.declarations == PK_DECL_MAY_SINK) {
        turn(x, picket_elder(&x->st->pub), PK_PH_DECLARE);
        return;
    }
    for (int cat = PK_CAT_RUFF; cat <= PK_CAT_SETS; cat++)
        if (declare(x, cat))
            return;
    start_play(x);
}

/* After both exchanges: the leftover stock, then the declarations. */
static void after_exchange(ctx_t *x)
{
    picket_state_t *st = x->st;
    int e = picket_elder(&st->pub);
    if (st->pub.stock_left > 0 && st->rules.leftover == PK_LO_ELDER_CALLS)
        turn(x, e, PK_PH_CALL);
    else if (st->pub.stock_left > 0 && st->rules.leftover == PK_LO_YOUNGER_MAY_SHOW)
        turn(x, 1 - e, PK_PH_LEFTOVER);
    else
        declarations(x);
}

static cardset_t stock_range(const picket_state_t *st, int from, int to)
{
    cardset_t set = 0;
    for (int i = from; i < to; i++)
        set |= cardset_of(st->stock[i]);
    return set;
}

static void discard(ctx_t *x, int seat, cardset_t cards)
{
    picket_state_t *st = x->st;
    st->hand[seat] &= ~cards;
    st->discard[seat] = cards;
    /* Cards shown as a Blank may be among the discards: no longer known to be held. */
    st->know[1 - seat].opp_known = 0;
    int n = cardset_count(cards);
    emit(x, PK_EV_DISCARD, GAME_ALL, seat, 0, n, 0, 0, 0);
    emit(x, PK_EV_DISCARD, seat, seat, 0, n, 0, 0, cards);
}

static void draw(ctx_t *x, int seat, int n)
{
    picket_state_t *st = x->st;
    int from = picket_stock_size(&st->rules) - st->pub.stock_left;
    cardset_t cards = stock_range(st, from, from + n);
    st->hand[seat] |= cards;
    st->know[seat].seen |= cards;
    picket_know_t *other = &st->know[1 - seat];
    other->opp_known |= cards & other->stock_known;
    other->stock_known &= ~cards;
    emit(x, PK_EV_DRAW, GAME_ALL, seat, 0, n, 0, 0, 0);
    emit(x, PK_EV_DRAW, seat, seat, 0, n, 0, 0, cards);
}

static void elder_exchange(ctx_t *x, cardset_t cards)
{
    picket_state_t *st = x->st;
    int e = picket_elder(&st->pub), y = 1 - e;
    int k = cardset_count(cards);
    discard(x, e, cards);
    draw(x, e, k);
    /* He may look at the rest of his share, which stays on the stock in order. */
    for (int i = k; i < picket_elder_share(&st->rules); i++) {
        int c = st->stock[i];
        st->know[e].seen |= cardset_of(c);
        st->know[e].stock_known |= cardset_of(c);
        emit(x, PK_EV_PEEK, e, e, c, i, 0, 0, 0);
    }
    if (show_younger_blank(x))
        return;
    if (st->set_aside) {
        draw(x, y, st->set_aside);
        st->set_aside = 0;
        after_exchange(x);
    } else {
        turn(x, y, PK_PH_YOUNGER_EXCHANGE);
    }
}

/* A led card's point: any card (lead-or-win-any), Ten or higher (lead-or-win), none (winner-takes). */
static int lead_point(const picket_rules_t *r, int card)
{
    return r->play_points == PK_PP_LEAD_OR_WIN_ANY || (r->play_points == PK_PP_LEAD_OR_WIN && card_rank(card) >= RANK_T);
}

/* After a lead (and, on elder's first, younger's choice about the leftover): younger's own
 * declarations under calls=cavendish, then the lead's point, then the follower's turn. */
static void after_lead(ctx_t *x, int seat, int card)
{
    picket_state_t *st = x->st;
    int opening = st->pub.trick_no == 0 && st->pub.nplayed == 1;
    if (opening && st->rules.calls == PK_CALLS_CAVENDISH && younger_reckons(x))
        return;
    if (lead_point(&st->rules, card)) {
        x->opening_lead = opening;
        int over = score(x, seat, PK_CAT_PLAY, 1);
        x->opening_lead = 0;
        if (over)
            return;
    }
    turn(x, 1 - seat, PK_PH_PLAY);
}

/* A partie (game=rubicon) ends after six deals, or after two more (each deals once more) when
 * the six leave the totals equal, drawn if they are still equal;
 * the higher total wins the settlement (CAV L71-73). 1 if it ended. */
static int partie_end(ctx_t *x)
{
    const picket_pub_t *p = &x->st->pub;
    int equal = p->score[0] == p->score[1];
    if (x->st->rules.game != PK_GAME_RUBICON ||
        !((p->hand_no == PK_PARTIE_DEALS && !equal) || p->hand_no >= PK_PARTIE_MAX_DEALS))
        return 0;
    if (equal) {
        emit(x, PK_EV_SET_END, GAME_ALL, -1, 0, 0, 0, 0, 0);
        return 1;
    }
    int w = p->score[0] > p->score[1] ? 0 : 1, rubicon;
    int pts = picket_partie_points(p->score[w], p->score[1 - w], x->st->rules.target, &rubicon);
    emit(x, PK_EV_SET_END, GAME_ALL, w, 0, pts, rubicon, 0, 0);
    return 1;
}

static void apply_play(ctx_t *x, int seat, int card)
{
    picket_state_t *st = x->st;
    const picket_pub_t *p = &st->pub;
    const picket_rules_t *r = &st->rules;
    int other = 1 - seat;
    int leading = p->trick_card[p->leader] < 0;
    int opening = leading && p->trick_no == 0;

    st->hand[seat] &= ~cardset_of(card);
    st->know[other].seen |= cardset_of(card);
    st->know[other].opp_known &= ~cardset_of(card);
    emit(x, PK_EV_PLAY, GAME_ALL, seat, card, 0, 0, 0, cardset_of(card));

    if (leading) {
        /* leftover=after-lead: younger chooses after elder's first lead (CAV L36). */
        if (opening && r->leftover == PK_LO_AFTER_LEAD && p->stock_left > 0)
            turn(x, other, PK_PH_LEFTOVER);
        else
            after_lead(x, seat, card);
        return;
    }

    int lead = p->trick_card[other];
    int follower_wins = card_suit(card) == card_suit(lead) && card_rank(card) > card_rank(lead);
    int w = follower_wins ? seat : other;
    int win_card = follower_wins ? card : lead;
    int high = (card_rank(card) >= RANK_T) + (card_rank(lead) >= RANK_T);
    emit(x, PK_EV_TRICK, GAME_ALL, w, 0, p->trick_no + 1, 0, 0, 0);

    int pts = 0;
    if (r->play_points == PK_PP_WINNER_TAKES)
        pts = high;
    else if (follower_wins && (card_rank(card) >= RANK_T || r->play_points == PK_PP_LEAD_OR_WIN_ANY))
        pts = 1;
    if (score(x, w, PK_CAT_PLAY, pts))
        return;
    if (p->trick_no < PK_TRICKS) {
        turn(x, w, PK_PH_PLAY);
        return;
    }
    int last = 1;
    if (r->last_trick == PK_LT_ONE_OR_TWO && card_rank(win_card) >= RANK_T)
        last = 2;
    if (score(x, w, PK_CAT_LAST, last))
        return;
    if (p->tricks[0] != p->tricks[1]) {
        int m = p->tricks[0] > p->tricks[1] ? 0 : 1;
        int over = p->tricks[m] == PK_TRICKS ? score(x, m, PK_CAT_CAPOT, 40) : score(x, m, PK_CAT_CARDS, 10);
        if (over)
            return;
    }
    emit(x, PK_EV_HAND_END, GAME_ALL, -1, 0, 0, 0, 0, 0);
    if (!partie_end(x))
        turn(x, GAME_CHANCE, PK_PH_DEAL);
}

/* ---------------------------------------------------------------- deal */

void picket_init(picket_state_t *st, const picket_rules_t *rules, uint64_t deal_seed)
{
    memset(st, 0, sizeof *st);
    st->rules = *rules;
    st->deal_seed = deal_seed;
    st->pack = cards_pack(rules->deck);
    picket_pub_init(&st->pub);
}

int picket_pub_to_move(const picket_pub_t *p)
{
    if (p->phase == PK_PH_OVER)
        return GAME_OVER;
    if (p->phase == PK_PH_DEAL)
        return GAME_CHANCE;
    return p->to_move;
}

int picket_to_move(const picket_state_t *st) { return picket_pub_to_move(&st->pub); }

/* The cut: each player cuts a card; the lower rank deals (CG), or the higher chooses
 * (cut=higher-chooses, CAV L4); equal ranks cut again. */
static void cut(ctx_t *x, rng_t *given)
{
    picket_state_t *st = x->st;
    rng_t own, *rng = game_chance_rng(given, &own, st->deal_seed, 0);
    int cards[CARD_COUNT];
    int n = cardset_to_array(st->pack, cards);
    for (;;) {
        int a = cards[rng_below(rng, (uint32_t)n)];
        int b = cards[rng_below(rng, (uint32_t)n)];
        if (card_rank(a) == card_rank(b))
            continue;
        int lower = card_rank(a) < card_rank(b) ? 0 : 1;
        if (st->rules.cut == PK_CUT_HIGHER_CHOOSES) {
            emit(x, PK_EV_CUT, GAME_ALL, 1 - lower, 1, a, b, 0, 0);
            turn(x, 1 - lower, PK_PH_CHOOSE);
        } else {
            emit(x, PK_EV_CUT, GAME_ALL, lower, 0, a, b, 0, 0);
        }
        return;
    }
}

/* Deal given cards: the hand starts, Blanks are declared as the rules say. */
static void deal(ctx_t *x, int dealer, const cardset_t hands[2], const uint8_t *stock, int nstock)
{
    picket_state_t *st = x->st;
    int e = 1 - dealer, y = dealer;
    memcpy(st->stock, stock, (size_t)nstock);
    st->set_aside = 0;
    emit(x, PK_EV_HAND, GAME_ALL, dealer, 0, st->pub.hand_no + 1, nstock, 0, 0);
    picket_partie_mark(st);
    for (int s = 0; s < 2; s++) {
        st->hand[s] = st->dealt[s] = hands[s];
        st->discard[s] = 0;
        st->holds_blank[s] = (int8_t)picket_is_blank(hands[s]);
        st->know[s] = (picket_know_t){ hands[s], 0, 0 };
        emit(x, PK_EV_DEALT, s, s, 0, 0, 0, 0, hands[s]);
    }
    /* Blanks. show-first: both declared and shown now, elder first (DL, DR). commit-count: an
     * elder's Blank waits for his count; a younger's Blank alone is declared now (ruling).
     * announce-then-show: younger's is announced now and shown after elder's exchange; elder's
     * as commit-count (CAV L20). */
    if (st->rules.blank_order == PK_BO_ANNOUNCE_THEN_SHOW) {
        if (st->holds_blank[y])
            declare_blank(x, y, 0, 0);
        turn(x, e, st->holds_blank[e] ? PK_PH_BLANK_COUNT : PK_PH_ELDER_EXCHANGE);
    } else if (st->rules.blank_order == PK_BO_SHOW_FIRST || !st->holds_blank[e]) {
        for (int i = 0; i < 2; i++) {
            int s = i == 0 ? e : y;
            if (st->holds_blank[s])
                declare_blank(x, s, 0, 1);
        }
        if (score_blanks(x))
            return;
        turn(x, e, PK_PH_ELDER_EXCHANGE);
    } else {
        turn(x, e, PK_PH_BLANK_COUNT);
    }
}

int picket_apply_chance(picket_state_t *st, rng_t *given, game_event_t *ev, int evcap)
{
    ctx_t x = { st, ev, evcap, 0, 0 };
    if (st->pub.phase != PK_PH_DEAL)
        return 0;
    int dealer;
    if (st->pub.hand_no == 0) {
        if (st->pub.dealer < 0)
            cut(&x, given);
        if (st->pub.dealer < 0)
            return x.n; /* the higher cut chooses first */
        dealer = st->pub.dealer;
    } else {
        dealer = 1 - st->pub.dealer;
    }
    int e = 1 - dealer;
    uint8_t deck[CARD_COUNT];
    int n = cardset_to_bytes(st->pack, deck);
    rng_t own;
    rng_shuffle_u8(game_chance_rng(given, &own, st->deal_seed, (uint64_t)st->pub.hand_no + 1), deck, n);
    /* Packets of four, elder first, three rounds (the packet size changes nothing). */
    cardset_t hands[2] = { 0, 0 };
    int pos = 0;
    for (int round = 0; round < 3; round++)
        for (int i = 0; i < 2; i++) {
            int seat = i == 0 ? e : dealer;
            for (int j = 0; j < 4; j++)
                hands[seat] |= cardset_of(deck[pos++]);
        }
    deal(&x, dealer, hands, deck + pos, n - pos);
    return x.n;
}

int picket_deal_given(picket_state_t *st, int dealer, const cardset_t hands[2], const uint8_t *stock,
                      game_event_t *ev, int evcap)
{
    ctx_t x = { st, ev, evcap, 0, 0 };
    if (st->pub.phase != PK_PH_DEAL)
        return -1;
    int nstock = picket_stock_size(&st->rules);
    cardset_t all = hands[0] | hands[1];
    if (cardset_count(hands[0]) != PK_HAND_CARDS || cardset_count(hands[1]) != PK_HAND_CARDS || (hands[0] & hands[1]))
        return -1;
    for (int i = 0; i < nstock; i++) {
        if (stock[i] >= CARD_COUNT || cardset_has(all, stock[i]))
            return -1;
        all |= cardset_of(stock[i]);
    }
    if (all != st->pack || dealer < 0 || dealer > 1 || (st->pub.hand_no == 0 && st->pub.chooser >= 0))
        return -1;
    /* The first deal: its dealer is the one given, unless the higher cut chose already. */
    if (st->pub.hand_no == 0 && st->pub.dealer >= 0 && dealer != st->pub.dealer)
        return -1;
    if (st->pub.hand_no == 0 && st->pub.dealer < 0)
        emit(&x, PK_EV_CUT, GAME_ALL, dealer, 0, -1, -1, 0, 0);
    deal(&x, dealer, hands, stock, nstock);
    return x.n;
}

/* ---------------------------------------------------------------- moves */

int picket_apply(picket_state_t *st, const game_move_t *m, game_event_t *ev, int evcap)
{
    ctx_t x = { st, ev, evcap, 0, 0 };
    picket_pub_t *p = &st->pub;
    int seat = p->to_move;
    int e = picket_elder(p), y = 1 - e;
    /* The stock's undrawn cards: what the call and the leftover show. */
    int nstock = picket_stock_size(&st->rules);
    cardset_t left = stock_range(st, nstock - p->stock_left, nstock);
    switch (p->phase) {
    case PK_PH_BLANK_COUNT:
        declare_blank(&x, e, m->arg, 0);
        if (st->holds_blank[y] && st->rules.blank_order != PK_BO_ANNOUNCE_THEN_SHOW)
            declare_blank(&x, y, 0, 1);
        turn(&x, y, PK_PH_SET_ASIDE);
        break;
    case PK_PH_SET_ASIDE:
        discard(&x, y, m->cards);
        st->set_aside = (int8_t)cardset_count(m->cards);
        /* Now elder shows his Blank; both Blanks are reckoned, elder first (CG). */
        emit(&x, PK_EV_SHOW, GAME_ALL, e, PK_CAT_BLANK, 0, 0, 0, st->dealt[e]);
        know_shown(st, e, st->dealt[e], 1);
        if (st->rules.blank_order == PK_BO_ANNOUNCE_THEN_SHOW ? score_blank(&x, e) : score_blanks(&x))
            break;
        turn(&x, e, PK_PH_ELDER_EXCHANGE);
        break;
    case PK_PH_ELDER_EXCHANGE:
        elder_exchange(&x, m->cards);
        break;
    case PK_PH_YOUNGER_EXCHANGE:
        discard(&x, y, m->cards);
        draw(&x, y, cardset_count(m->cards));
        after_exchange(&x);
        break;
    case PK_PH_CALL:
        emit(&x, PK_EV_CALL, GAME_ALL, e, m->arg, 0, 0, 0, 0);
        if (m->arg >= 0) {
            st->know[e].seen |= left;
            st->know[e].stock_known |= left;
            emit(&x, PK_EV_STOCK, e, e, 0, 0, 0, 0, left);
        }
        declarations(&x);
        break;
    case PK_PH_LEFTOVER:
        emit(&x, PK_EV_LEFTOVER, GAME_ALL, y, m->arg, 0, 0, 0, 0);
        if (m->arg) {
            emit(&x, PK_EV_SHOW, GAME_ALL, y, -1, 0, 0, 0, left);
            for (int s = 0; s < 2; s++) {
                st->know[s].seen |= left;
                st->know[s].stock_known |= left;
            }
        }
        if (p->nplayed == 1) /* leftover=after-lead: elder has led */
            after_lead(&x, e, p->history[0]);
        else
            declarations(&x);
        break;
    case PK_PH_CHOOSE:
        emit(&x, PK_EV_CHOOSE, GAME_ALL, seat, m->arg, 0, 0, 0, 0);
        turn(&x, GAME_CHANCE, PK_PH_DEAL);
        break;
    case PK_PH_APPOINT:
        emit(&x, PK_EV_APPOINT, GAME_ALL, y, m->arg, 0, 0, 0, 0);
        turn(&x, e, PK_PH_PLAY);
        break;
    case PK_PH_PLAY:
        apply_play(&x, seat, m->arg);
        break;
    case PK_PH_DECLARE:
        sink_call(&x, m->arg, m->cards);
        break;
    case PK_PH_ANSWER:
        sink_answer(&x, picket_declaring_cat(p), m->arg);
        break;
    default:
        break;
    }
    return x.n;
}

int picket_is_legal(const picket_state_t *st, const game_move_t *m, char *err, size_t errlen)
{
    int seat = picket_to_move(st);
    if (seat < 0)
        return game_illegal(err, errlen, "no player is to move (%s)",
                            seat == GAME_OVER ? "the set is over" : "a deal is due");
    return picket_pub_is_legal(&st->rules, &st->pub, st->hand[seat], m, err, errlen);
}

int picket_legal_moves(const picket_state_t *st, game_move_t *out, int cap)
{
    int seat = picket_to_move(st);
    if (seat < 0)
        return 0;
    return picket_pub_legal_moves(&st->rules, &st->pub, st->hand[seat], out, cap);
}

int picket_random_move(const picket_state_t *st, rng_t *rng, game_move_t *out)
{
    int seat = picket_to_move(st);
    if (seat < 0)
        return -1;
    return picket_pub_random_move(&st->rules, &st->pub, st->hand[seat], rng, out);
}

/* ---------------------------------------------------------------- legality */

/* How many cards the mover may (must) discard now: [lo, hi]. */
void picket_discard_range(const picket_rules_t *r, const picket_pub_t *p, int *lo, int *hi)
{
    *lo = 1;
    switch (p->phase) {
    case PK_PH_ELDER_EXCHANGE:
        if (p->blank_count > 0) {
            *lo = *hi = p->blank_count;
            return;
        }
        *hi = picket_elder_share(r);
        return;
    case PK_PH_SET_ASIDE:
        *hi = younger_limit(r, picket_stock_size(r) - p->blank_count);
        return;
    case PK_PH_YOUNGER_EXCHANGE:
        *hi = younger_limit(r, p->stock_left);
        return;
    default:
        *lo = 1;
        *hi = 0;
    }
}

static int is_discard_phase(int phase)
{
    return phase == PK_PH_ELDER_EXCHANGE || phase == PK_PH_YOUNGER_EXCHANGE || phase == PK_PH_SET_ASIDE;
}

/* Cards the mover may play now. */
static cardset_t playable(const picket_pub_t *p, cardset_t hand)
{
    int seat = p->to_move;
    int lead = p->trick_card[1 - seat];
    if (p->trick_card[p->leader] < 0) {
        /* Leading. Elder's first lead is bound to the suit he called, else the one appointed. */
        if (p->trick_no == 0 && seat == picket_elder(p)) {
            int bound = p->appointed_suit >= 0 ? p->appointed_suit : p->called_suit;
            if (bound >= 0 && (hand & cardset_suit(bound)))
                return hand & cardset_suit(bound);
        }
        return hand;
    }
    cardset_t follow = hand & cardset_suit(card_suit(lead));
    return follow ? follow : hand;
}

static game_move_t mv(int kind, int arg, cardset_t cards)
{
    game_move_t m = { (uint16_t)kind, (int16_t)arg, 0, cards };
    return m;
}

int picket_declaring_cat(const picket_pub_t *p)
{
    if (p->phase != PK_PH_DECLARE && p->phase != PK_PH_ANSWER)
        return -1;
    for (int d = 0; d < PK_DECL_COUNT; d++)
        if (p->answer[d] < 0)
            return PK_CAT_RUFF + d;
    return -1;
}

int picket_call_points(const picket_rules_t *r, int cat, cardset_t cards, int claim[2])
{
    holding_t h;
    holding_of(r, cards, cat, &h);
    claim[0] = h.claim[0];
    claim[1] = h.claim[1];
    return h.points;
}

int picket_call_ok(const picket_rules_t *r, int cat, cardset_t hand, cardset_t cards)
{
    holding_t h;
    if (!cards)
        return 1;
    if (cards & ~hand)
        return 0;
    if (cat == PK_CAT_RUFF) {
        /* One suit's n highest cards. */
        int s = card_suit(cardset_first(cards));
        if (cards & ~cardset_suit(s))
            return 0;
        int low = card_rank(cardset_first(cards));
        for (cardset_t rest = hand & cardset_suit(s) & ~cards; rest; rest &= rest - 1)
            if (card_rank(cardset_first(rest)) > low)
                return 0;
        return 1;
    }
    if (cat != PK_CAT_SEQ && cat != PK_CAT_SETS)
        return 0;
    holding_of(r, cards, cat, &h);
    return h.scored == cards;
}

/* Every call elder may make in the category: nothing, a suit's n highest (the point), or any
 * union of holdings (sequences: a suit's run cards whose every stretch is three or more; sets:
 * each rank's set whole, or three of a quatorze, or none). Ordered from the whole downwards. */
static int call_moves(const picket_rules_t *r, int cat, cardset_t hand, game_move_t *out, int cap)
{
    int n = 0;
    if (cat == PK_CAT_RUFF) {
        if (n < cap)
            out[n++] = mv(PK_MV_DECLARE, cat, 0);
        for (int s = 0; s < CARD_SUITS; s++) {
            cardset_t suit = hand & cardset_suit(s), top = 0;
            while (suit && n < cap) {
                int c = cardset_last(suit);
                suit &= ~cardset_of(c);
                top |= cardset_of(c);
                out[n++] = mv(PK_MV_DECLARE, cat, top);
            }
        }
        return n;
    }
    /* Options by group (a suit's runs, or a rank's set), then every combination of them. */
    enum { MAX_OPTS = 64, MAX_GROUPS = 5 };
    cardset_t opt[MAX_GROUPS][MAX_OPTS], base[MAX_GROUPS];
    int nopt[MAX_GROUPS], groups = 0;
    holding_t h;
    holding_of(r, hand, cat, &h);
    for (int k = 0; k < (cat == PK_CAT_SEQ ? CARD_SUITS : CARD_RANKS) && groups < MAX_GROUPS; k++) {
        cardset_t g = h.scored & (cat == PK_CAT_SEQ ? cardset_suit(k) : cardset_rank(k));
        if (g)
            base[groups++] = g;
    }
    for (int g = 0; g < groups; g++) {
        /* Every subset of the group's cards that is a holding on its own, the whole first. */
        int c[CARD_RANKS], k = cardset_to_array(base[g], c);
        nopt[g] = 0;
        for (uint32_t bits = (1u << k) - 1; bits > 0 && nopt[g] < MAX_OPTS - 1; bits--) {
            cardset_t set = 0;
            for (uint32_t b = bits; b; b &= b - 1)
                set |= cardset_of(c[__builtin_ctz(b)]);
            holding_of(r, set, cat, &h);
            if (h.scored == set)
                opt[g][nopt[g]++] = set;
        }
        opt[g][nopt[g]++] = 0;
    }
    /* Odometer over the groups' options: index 0 (the wholes) first, nothing last. */
    int at[MAX_GROUPS] = { 0 };
    for (;;) {
        cardset_t set = 0;
        for (int g = 0; g < groups; g++)
            set |= opt[g][at[g]];
        if (n < cap)
            out[n++] = mv(PK_MV_DECLARE, cat, set);
        int g = groups - 1;
        while (g >= 0 && ++at[g] == nopt[g])
            at[g--] = 0;
        if (g < 0)
            break;
    }
    return n;
}

cardset_t picket_call_matching(const picket_rules_t *r, int cat, cardset_t hand, const int16_t claim[2])
{
    game_move_t moves[PK_MAX_CALLS];
    int n = call_moves(r, cat, hand, moves, PK_MAX_CALLS);
    for (int i = 0; i < n; i++) {
        int c[2];
        picket_call_points(r, cat, moves[i].cards, c);
        if (c[0] == claim[0] && (picket_value_unsaid(r, cat) ? claim[1] == 0 || c[1] == claim[1] : c[1] == claim[1]))
            return moves[i].cards;
    }
    return 0;
}

/* declarations=may-sink: may younger answer with his best? When it is as good as elder's call
 * at least (under calls=cavendish the point's count alone, before the value is asked). */
static int answer_ok(const picket_rules_t *r, const picket_pub_t *p, cardset_t hand)
{
    int cat = picket_declaring_cat(p);
    if (cat < 0)
        return 0;
    holding_t h;
    holding_of(r, hand, cat, &h);
    const int16_t *c = p->claim[cat - PK_CAT_RUFF][picket_elder(p)];
    if (h.claim[0] == 0)
        return 0;
    if (picket_value_unsaid(r, cat))
        return h.claim[0] >= c[0];
    return picket_claim_cmp(h.claim[0], h.claim[1], c[0], c[1]) >= 0;
}

int picket_pub_legal_moves(const picket_rules_t *r, const picket_pub_t *p, cardset_t hand, game_move_t *out, int cap)
{
    int n = 0;
    switch (p->phase) {
    case PK_PH_BLANK_COUNT:
        for (int k = 1; k <= picket_elder_share(r) && n < cap; k++)
            out[n++] = mv(PK_MV_BLANK, k, 0);
        return n;
    case PK_PH_SET_ASIDE:
    case PK_PH_ELDER_EXCHANGE:
    case PK_PH_YOUNGER_EXCHANGE: {
        int lo, hi, cards[CARD_COUNT];
        picket_discard_range(r, p, &lo, &hi);
        int h = cardset_to_array(hand, cards);
        if (h > PK_HAND_CARDS)
            return 0; /* no position of the rules holds more: a forged view */
        for (uint32_t bits = 1; bits < (1u << h) && n < cap; bits++) {
            int k = __builtin_popcount(bits);
            if (k < lo || k > hi)
                continue;
            cardset_t set = 0;
            for (uint32_t b = bits; b; b &= b - 1)
                set |= cardset_of(cards[__builtin_ctz(b)]);
            out[n++] = mv(PK_MV_DISCARD, 0, set);
        }
        return n;
    }
    case PK_PH_CALL:
        for (int s = -1; s < CARD_SUITS && n < cap; s++)
            out[n++] = mv(PK_MV_CALL, s, 0);
        return n;
    case PK_PH_LEFTOVER:
        for (int a = 0; a < 2 && n < cap; a++)
            out[n++] = mv(PK_MV_LEFTOVER, a, 0);
        return n;
    case PK_PH_APPOINT:
        for (int s = 0; s < CARD_SUITS && n < cap; s++)
            if (s != p->called_suit)
                out[n++] = mv(PK_MV_APPOINT, s, 0);
        return n;
    case PK_PH_PLAY:
        return game_card_moves(PK_MV_PLAY, playable(p, hand), out, cap);
    case PK_PH_CHOOSE:
        for (int a = 1; a >= 0 && n < cap; a--)
            out[n++] = mv(PK_MV_CHOOSE, a, 0);
        return n;
    case PK_PH_DECLARE:
        return picket_declaring_cat(p) < 0 ? 0 : call_moves(r, picket_declaring_cat(p), hand, out, cap);
    case PK_PH_ANSWER:
        for (int a = 0; a <= answer_ok(r, p, hand) && n < cap; a++)
            out[n++] = mv(PK_MV_ANSWER, a, 0);
        return n;
    default:
        return 0;
    }
}

cardset_t picket_random_subset(rng_t *rng, cardset_t from, int k)
{
    uint8_t c[CARD_COUNT];
    int n = cardset_to_bytes(from, c);
    cardset_t out = 0;
    for (int i = 0; i < k && i < n; i++) {
        int j = i + (int)rng_below(rng, (uint32_t)(n - i));
        uint8_t t = c[i];
        c[i] = c[j];
        c[j] = t;
        out |= cardset_of(c[i]);
    }
    return out;
}

int picket_pub_random_move(const picket_rules_t *r, const picket_pub_t *p, cardset_t hand, rng_t *rng, game_move_t *out)
{
    *out = mv(0, 0, 0);
    if (is_discard_phase(p->phase)) {
        /* Uniform over every legal discard: the size weighted by C(n, k), then a k-subset. */
        int lo, hi;
        picket_discard_range(r, p, &lo, &hi);
        int h = cardset_count(hand);
        uint32_t total = 0;
        for (int k = lo; k <= hi && h <= PK_HAND_CARDS; k++)
            total += (uint32_t)cards_choose(h, k);
        if (total == 0)
            return -1;
        uint32_t pick = rng_below(rng, total);
        int k = lo;
        while (pick >= (uint32_t)cards_choose(h, k)) {
            pick -= (uint32_t)cards_choose(h, k);
            k++;
        }
        *out = mv(PK_MV_DISCARD, 0, picket_random_subset(rng, hand, k));
        return 0;
    }
    if (p->phase == PK_PH_PLAY)
        return game_random_card_move(PK_MV_PLAY, playable(p, hand), rng, out);
    game_move_t moves[PK_MAX_CALLS];
    int n = picket_pub_legal_moves(r, p, hand, moves, PK_MAX_CALLS);
    if (n == 0)
        return -1;
    *out = moves[rng_below(rng, (uint32_t)n)];
    return 0;
}

int picket_pub_is_legal(const picket_rules_t *r, const picket_pub_t *p, cardset_t hand, const game_move_t *m,
                          char *err, size_t errlen)
{
    static const int kind_of_phase[PK_PH_COUNT] = {
        [PK_PH_BLANK_COUNT] = PK_MV_BLANK, [PK_PH_SET_ASIDE] = PK_MV_DISCARD,
        [PK_PH_ELDER_EXCHANGE] = PK_MV_DISCARD, [PK_PH_YOUNGER_EXCHANGE] = PK_MV_DISCARD,
        [PK_PH_CALL] = PK_MV_CALL, [PK_PH_LEFTOVER] = PK_MV_LEFTOVER,
        [PK_PH_APPOINT] = PK_MV_APPOINT, [PK_PH_PLAY] = PK_MV_PLAY, [PK_PH_CHOOSE] = PK_MV_CHOOSE,
        [PK_PH_DECLARE] = PK_MV_DECLARE, [PK_PH_ANSWER] = PK_MV_ANSWER,
    };
    int phase = p->phase;
    if (phase < 0 || phase >= PK_PH_COUNT || kind_of_phase[phase] == 0)
        return game_illegal(err, errlen, "no move is due now");
    if (m->kind != kind_of_phase[phase] || m->reserved)
        return game_illegal(err, errlen, "a %s move is due, not this one", PK_PHASE_NAMES[phase]);
    if (m->kind == PK_MV_DISCARD) {
        int lo, hi;
        picket_discard_range(r, p, &lo, &hi);
        int k = cardset_count(m->cards);
        char c[3];
        if (m->cards & ~hand)
            return game_illegal(err, errlen, "card %s is not in the hand",
                                card_format(cardset_first(m->cards & ~hand), c));
        if (k < lo || k > hi) {
            if (lo == hi)
                return game_illegal(err, errlen, "must discard exactly %d cards, not %d", lo, k);
            return game_illegal(err, errlen, "must discard %d to %d cards, not %d", lo, hi, k);
        }
        return 1;
    }
    if (m->kind == PK_MV_BLANK) {
        int share = picket_elder_share(r);
        if (m->cards || m->arg < 1 || m->arg > share)
            return game_illegal(err, errlen, "a Blank's count must be 1 to %d (elder's share), not %d", share,
                                m->arg);
        return 1;
    }
    if (m->kind == PK_MV_PLAY) {
        if (m->arg < 0 || m->arg >= CARD_COUNT || m->cards != cardset_of(m->arg))
            return game_illegal(err, errlen, "not a card");
        char c[3];
        card_format(m->arg, c);
        if (!cardset_has(hand, m->arg))
            return game_illegal(err, errlen, "card %s is not in the hand", c);
        if (!cardset_has(playable(p, hand), m->arg))
            return game_illegal(err, errlen,
                                "card %s may not be played: the suit led (or called) must be followed", c);
        return 1;
    }
    if (m->kind == PK_MV_DECLARE) {
        int cat = picket_declaring_cat(p);
        if (m->arg != cat)
            return game_illegal(err, errlen, "the call due is in %s, not this category",
                                cat < 0 ? "no category" : PK_CAT_NAMES[cat]);
        if (!picket_call_ok(r, cat, hand, m->cards))
            return game_illegal(err, errlen, "those cards are not a %s holding of the hand%s", PK_CAT_NAMES[cat],
                                cat == PK_CAT_RUFF ? " (a suit's highest cards)" : "");
        return 1;
    }
    if (m->kind == PK_MV_ANSWER && m->arg == 1 && !m->cards && !answer_ok(r, p, hand))
        return game_illegal(err, errlen, "answer full needs a holding as good as the call at least");
    game_move_t moves[16];
    int n = picket_pub_legal_moves(r, p, hand, moves, 16);
    for (int i = 0; i < n; i++)
        if (memcmp(&moves[i], m, sizeof *m) == 0)
            return 1;
    return game_illegal(err, errlen, "that %s move is not allowed here", PK_PHASE_NAMES[phase]);
}
