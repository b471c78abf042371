/* picket_sample: a world for a view (game_t.sample_world), by rejection. SIMPLE AND CORRECT,
 * NOT FAST: a later sampler is to draw consistent worlds directly; this one is its reference.
 *
 * What a world is. Within a hand everything hidden is fixed by where each card was put: the two
 * dealt hands, each seat's discards, and the stock in order. The rest of the state (hands now,
 * Blanks held, the set-aside count, both seats' knowledge) is what the rules make of those cards
 * and the public record. So a try (1) places the cards, (2) replays the hand's decisions up to
 * the first lead through the rules themselves (picket_deal_given, then picket_apply with the
 * Blank count, discards, call or leftover choice and appointment the public record names), so
 * Blanks, claims, answers, cards shown, points, Repique and the set's end are derived by the one
 * code that derived them in the real hand, and both seats' knowledge (peeks, the leftover, shown
 * cards, the peeked cards younger drew) comes out as the rules would have it; (3) removes the
 * cards played (their order is not in the view, and nothing hidden depends on it but the voids)
 * and takes the public record from the view. It keeps the world only if: every replayed move is
 * legal; the replayed record equals the view's, with the points and facts of play taken out
 * (rewind_play); the cards the opponent still holds include none of a suit he is known to lack
 * (pub.voids, which carry every fact play derived from hidden cards: failing to follow, a first
 * lead outside the bound suit, an appointment); and view_from_state(world, seat) equals the view.
 * Anything else it draws again, up to SAMPLE_MAX_TRIES times, then gives -1.
 *
 * The placement (place) is uniform over every placement that agrees with what the seat knows:
 * the cards whose position it knows (the stock cards it peeked at) are put there; its own kept
 * cards (hand and played) fill its kept dealt cards and its drawn stock positions; the cards it
 * knows the opponent holds or played fill some of his kept dealt cards and drawn positions; stock
 * cards it saw (the leftover) fill undrawn positions; a Blank the opponent showed is his dealt
 * hand, and his discards a subset of it; every other card fills what is left. Each of those is a
 * uniform random injection whose number of outcomes depends only on counts the view fixes, so
 * every placement is equally likely; a state records its dealt hands and discards as sets and
 * the stock in order, so each state comes from the same number of placements (the product of the
 * factorials of the set sizes). Every consistent state is such a placement (the rules keep a
 * seat's knowledge true), and the checks keep exactly the consistent ones, so the world drawn is
 * uniform over the states consistent with the view. One refinement changes no probability: when
 * the opponent is known to hold a Blank he has not shown (commit-count, before his exchange), his
 * dealt cards are drawn from the unknown cards below the Knave, i.e. the rejection of every
 * non-Blank is done in advance.
 *
 * Uniform over states consistent with the view, as the contract says, also means uniform over
 * what the view does not keep. The view does not say which of the seat's own cards it drew from
 * the stock (nor in what order): they are drawn at random among its kept cards. That changes no
 * view of the seat, but younger's draw from the cards elder peeked at is what elder knows of
 * younger's hand; so in a world, elder (the opponent) knows a random few of the seat's cards,
 * not the ones he knows in the real hand. A view that kept its draws would fix that.
 *
 * Cost: a try is a few shuffles and a replay of at most eight moves, well under a microsecond.
 * Before the declarations nearly every try is kept. After them the opponent's claims (a Ruff of
 * exactly 41, a quart to the Queen) reject most: from younger's seat, where elder's claims are
 * all told, some 30 tries a world (100 with unsuited sequences; some ten thousand at worst).
 * A view no hand could give costs the whole SAMPLE_MAX_TRIES (most such views are refused at
 * once by make_plan's counts).
 */
#include <string.h>

#include "picket.h"

enum { SAMPLE_MAX_TRIES = 1000000, SLOT_KEPT = -1 };

/* What the view fixes, worked out once per call. */
typedef struct sample_plan {
    const picket_view_t *v;
    int me, opp, nstock;
    int8_t pinned[PK_STOCK];      /* the card the seat knows at each stock position, or -1 */
    uint8_t my_pos[PK_STOCK];     /* stock positions the seat drew from */
    int n_my_pos;
    uint8_t opp_pos[PK_STOCK];    /* positions the opponent drew from, not pinned */
    int n_opp_pos;
    uint8_t undrawn_pos[PK_STOCK]; /* undrawn positions, not pinned */
    int n_undrawn;
    int my_kept_n, opp_kept_n, opp_discard_n; /* dealt cards kept, and the opponent's discards */
    cardset_t my_kept;            /* the seat's cards since its exchange: hand and played */
    cardset_t my_dealt;           /* the seat's dealt hand if it showed a Blank, else 0 */
    cardset_t opp_held;           /* known in the opponent's hand since his exchange, not pinned */
    cardset_t opp_dealt;          /* the opponent's dealt hand if he showed a Blank, else 0 */
    cardset_t stock_seen;         /* undrawn stock cards the seat saw, not pinned */
    cardset_t unknown;            /* every other card */
    int opp_blank;                /* his dealt hand is a Blank not shown: draw it so */
} sample_plan_t;

static int to_list(cardset_t set, uint8_t *out)
{
    int n = 0;
    for (; set; set &= set - 1)
        out[n++] = (uint8_t)cardset_first(set);
    return n;
}

static int disjoint(const cardset_t *sets, int n)
{
    cardset_t all = 0;
    for (int i = 0; i < n; i++) {
        if (all & sets[i])
            return 0;
        all |= sets[i];
    }
    return 1;
}

/* Slots and card classes from the view; -1 if the view could not come from a hand. */
static int make_plan(const picket_view_t *v, sample_plan_t *p)
{
    const picket_pub_t *t = &v->pub;
    memset(p, 0, sizeof *p);
    p->v = v;
    p->me = v->seat;
    p->opp = 1 - v->seat;
    p->nstock = v->rules.deck - 2 * PK_HAND_CARDS;
    cardset_t pack = cards_pack(v->rules.deck);
    int me = p->me, opp = p->opp, e = pk_elder(t), y = 1 - e;
    if (t->dealer < 0 || t->dealer > 1 || p->nstock <= 0 || p->nstock > PK_STOCK)
        return -1;
    for (int s = 0; s < 2; s++)
        if (t->discarded[s] < 0 || t->discarded[s] > PK_HAND_CARDS || t->drawn[s] < 0)
            return -1;
    int drawn = t->drawn[e] + t->drawn[y];
    if (drawn > p->nstock || t->stock_left != p->nstock - drawn)
        return -1;
    memset(p->pinned, -1, sizeof p->pinned);

    /* Stock positions: elder drew the top, younger the next, the rest lie undrawn. */
    int my_from = me == e ? 0 : t->drawn[e], opp_from = opp == e ? 0 : t->drawn[e];
    for (int i = 0; i < t->drawn[me]; i++)
        p->my_pos[p->n_my_pos++] = (uint8_t)(my_from + i);
    cardset_t pinned = 0;
    if (me == e && t->drawn[e] > 0) {
        /* Elder looked at the rest of his share, in order. */
        for (int i = t->drawn[e], j = 0; i < pk_elder_share(&v->rules) && i < p->nstock && j < 8; i++, j++) {
            int c = v->peek[j];
            if (c < 0 || !cardset_has(pack, c) || cardset_has(pinned, c))
                return -1;
            p->pinned[i] = (int8_t)c;
            pinned |= cardset_of(c);
        }
    }
    for (int i = 0; i < t->drawn[opp]; i++)
        if (p->pinned[opp_from + i] < 0)
            p->opp_pos[p->n_opp_pos++] = (uint8_t)(opp_from + i);
    for (int i = drawn; i < p->nstock; i++)
        if (p->pinned[i] < 0)
            p->undrawn_pos[p->n_undrawn++] = (uint8_t)i;

    p->my_kept_n = PK_HAND_CARDS - t->discarded[me];
    p->opp_kept_n = PK_HAND_CARDS - t->discarded[opp];
    p->opp_discard_n = t->discarded[opp];
    p->my_kept = v->hand | t->played[me];
    p->my_dealt = t->blank_shown[me];
    p->opp_held = (v->know.opp_known | t->played[opp]) & ~pinned;
    p->opp_dealt = t->blank_shown[opp];
    p->stock_seen = v->know.stock_known & ~pinned;
    cardset_t mine = p->my_kept | v->discards;
    cardset_t classes[5] = { mine, pinned, p->opp_held, p->stock_seen, p->opp_dealt & ~p->opp_held };
    if (!disjoint(classes, 5) || ((mine | pinned | p->opp_held | p->stock_seen | p->opp_dealt) & ~pack))
        return -1;
    p->unknown = pack & ~(mine | pinned | p->opp_held | p->stock_seen | p->opp_dealt);

    /* Every class must fit its slots exactly, or no placement exists. */
    if (cardset_count(p->my_kept) != p->my_kept_n + p->n_my_pos || cardset_count(v->discards) != t->discarded[me])
        return -1;
    if (p->my_dealt && (cardset_count(p->my_dealt) != PK_HAND_CARDS || (v->discards & ~p->my_dealt) ||
                        cardset_count(p->my_kept & ~p->my_dealt) != p->n_my_pos))
        return -1;
    if (cardset_count(p->stock_seen) > p->n_undrawn)
        return -1;
    int held = cardset_count(p->opp_held), free_slots;
    if (p->opp_dealt) {
        int held_dealt = cardset_count(p->opp_held & p->opp_dealt);
        if (cardset_count(p->opp_dealt) != PK_HAND_CARDS || held_dealt > p->opp_kept_n ||
            held - held_dealt > p->n_opp_pos)
            return -1;
        free_slots = p->n_opp_pos - (held - held_dealt) + p->n_undrawn - cardset_count(p->stock_seen);
    } else {
        if (held > p->opp_kept_n + p->n_opp_pos)
            return -1;
        free_slots = p->opp_kept_n + p->n_opp_pos - held + p->opp_discard_n + p->n_undrawn -
                     cardset_count(p->stock_seen);
    }
    if (cardset_count(p->unknown) != free_slots)
        return -1;
    /* The opponent holds a Blank not shown yet: before any exchange (elder named his count, or is
     * to name it; a Blank is only ever hidden so long). */
    int hidden_blank = (t->blank[opp] && !p->opp_dealt) ||
                       (t->phase == PK_PH_BLANK_COUNT && opp == e && v->rules.blank_order == PK_BO_COMMIT_COUNT);
    p->opp_blank = hidden_blank && held == 0 && p->opp_discard_n == 0 && p->n_opp_pos == 0;
    cardset_t low = p->unknown & ~(cardset_rank(RANK_J) | cardset_rank(RANK_Q) | cardset_rank(RANK_K));
    if (p->opp_blank && cardset_count(low) < p->opp_kept_n)
        return -1;
    return 0;
}

/* One placement of the cards, uniform over those that agree with the plan. */
static void place(const sample_plan_t *p, rng_t *rng, cardset_t dealt[2], cardset_t discard[2],
                  uint8_t stock[PK_STOCK])
{
    uint8_t cards[CARD_COUNT], unknown[CARD_COUNT];
    int8_t slot[PK_HAND_CARDS + PK_STOCK];
    int8_t at[PK_STOCK];
    int me = p->me, opp = p->opp;
    memcpy(at, p->pinned, sizeof at);

    /* The seat's own cards: which it was dealt, which it drew, and from where. */
    discard[me] = p->v->discards;
    if (p->my_dealt) {
        dealt[me] = p->my_dealt;
        int n = to_list(p->my_kept & ~p->my_dealt, cards);
        rng_shuffle_u8(rng, cards, n);
        for (int i = 0; i < n; i++)
            at[p->my_pos[i]] = (int8_t)cards[i];
    } else {
        int n = to_list(p->my_kept, cards);
        rng_shuffle_u8(rng, cards, n);
        dealt[me] = discard[me];
        for (int i = 0; i < p->my_kept_n; i++)
            dealt[me] |= cardset_of(cards[i]);
        for (int i = p->my_kept_n; i < n; i++)
            at[p->my_pos[i - p->my_kept_n]] = (int8_t)cards[i];
    }

    /* The opponent's known cards take some of his slots: kept dealt cards or drawn positions. */
    int nslot = 0;
    cardset_t kept = 0;
    discard[opp] = 0;
    if (p->opp_dealt) {
        kept = p->opp_held & p->opp_dealt;
        int n = to_list(p->opp_dealt & ~p->opp_held, cards);
        rng_shuffle_u8(rng, cards, n);
        for (int i = 0; i < n; i++) {
            if (i < p->opp_discard_n)
                discard[opp] |= cardset_of(cards[i]);
            else
                kept |= cardset_of(cards[i]);
        }
        for (int i = 0; i < p->n_opp_pos; i++)
            slot[nslot++] = (int8_t)p->opp_pos[i];
        n = to_list(p->opp_held & ~p->opp_dealt, cards);
        rng_shuffle_u8(rng, (uint8_t *)slot, nslot);
        for (int i = 0; i < n; i++)
            at[slot[i]] = (int8_t)cards[i];
        memmove(slot, slot + n, (size_t)(nslot - n));
        nslot -= n;
    } else {
        for (int i = 0; i < p->opp_kept_n; i++)
            slot[nslot++] = SLOT_KEPT;
        for (int i = 0; i < p->n_opp_pos; i++)
            slot[nslot++] = (int8_t)p->opp_pos[i];
        rng_shuffle_u8(rng, (uint8_t *)slot, nslot);
        int n = to_list(p->opp_held, cards);
        for (int i = 0; i < n; i++) {
            if (slot[i] == SLOT_KEPT)
                kept |= cardset_of(cards[i]);
            else
                at[slot[i]] = (int8_t)cards[i];
        }
        memmove(slot, slot + n, (size_t)(nslot - n));
        nslot -= n;
    }

    /* Stock cards the seat saw lie undrawn somewhere it did not see them placed. */
    uint8_t undrawn[PK_STOCK];
    memcpy(undrawn, p->undrawn_pos, (size_t)p->n_undrawn);
    rng_shuffle_u8(rng, undrawn, p->n_undrawn);
    int n = to_list(p->stock_seen, cards);
    for (int i = 0; i < n; i++)
        at[undrawn[i]] = (int8_t)cards[i];

    /* Every other card fills what is left: his open slots, his discards, the open stock. */
    int u = 0;
    if (p->opp_blank) {
        /* His open slots are his 12 dealt cards: the first of the shuffled cards below the
         * Knave; the cards left over join the rest, shuffled, for the stock. */
        cardset_t low = p->unknown & ~(cardset_rank(RANK_J) | cardset_rank(RANK_Q) | cardset_rank(RANK_K));
        int nl = to_list(low, unknown);
        rng_shuffle_u8(rng, unknown, nl);
        uint8_t rest[CARD_COUNT];
        int nr = 0;
        for (int i = nslot; i < nl; i++)
            rest[nr++] = unknown[i];
        nr += to_list(p->unknown & ~low, rest + nr);
        rng_shuffle_u8(rng, rest, nr);
        memcpy(unknown + nslot, rest, (size_t)nr);
    } else {
        rng_shuffle_u8(rng, unknown, to_list(p->unknown, unknown));
    }
    for (int i = 0; i < nslot; i++) {
        if (slot[i] == SLOT_KEPT)
            kept |= cardset_of(unknown[u++]);
        else
            at[slot[i]] = (int8_t)unknown[u++];
    }
    if (!p->opp_dealt)
        for (int i = 0; i < p->opp_discard_n; i++)
            discard[opp] |= cardset_of(unknown[u++]);
    for (int i = n; i < p->n_undrawn; i++)
        at[undrawn[i]] = (int8_t)unknown[u++];
    dealt[opp] = kept | discard[opp];
    for (int i = 0; i < p->nstock; i++)
        stock[i] = (uint8_t)at[i];
}

/* The decision the public record names in the replay's phase: 1 and the move, or 0 where the
 * view's hand has not got past it (the replay stops there). */
static int recorded_move(const picket_state_t *w, const picket_pub_t *t, const cardset_t discard[2], game_move_t *m)
{
    const picket_pub_t *p = &w->pub;
    int e = pk_elder(p), y = 1 - e;
    memset(m, 0, sizeof *m);
    switch (p->phase) {
    case PK_PH_BLANK_COUNT:
        m->kind = PK_MV_BLANK;
        m->arg = t->blank_count;
        return t->blank_count > 0;
    case PK_PH_SET_ASIDE:
    case PK_PH_YOUNGER_EXCHANGE:
        m->kind = PK_MV_DISCARD;
        m->cards = discard[y];
        return t->discarded[y] > 0;
    case PK_PH_ELDER_EXCHANGE:
        m->kind = PK_MV_DISCARD;
        m->cards = discard[e];
        return t->discarded[e] > 0;
    case PK_PH_CALL:
        m->kind = PK_MV_CALL;
        m->arg = t->called_suit;
        return t->leftover >= 0;
    case PK_PH_LEFTOVER:
        m->kind = PK_MV_LEFTOVER;
        m->arg = t->leftover;
        return t->leftover >= 0;
    case PK_PH_APPOINT:
        m->kind = PK_MV_APPOINT;
        m->arg = t->appointed_suit;
        return t->appointed_suit >= 0;
    default:
        return 0;
    }
}

static int play_begun(const picket_pub_t *t)
{
    return t->phase == PK_PH_PLAY || (t->phase == PK_PH_DEAL && t->hand_no > 0) || (t->played[0] | t->played[1]);
}

/* The view's public record as it stood at the first lead: play and its points taken out. Only
 * public facts go in, so it is the same for every world. */
static void rewind_play(const picket_pub_t *t, picket_pub_t *out)
{
    static const int play_cats[] = { PK_CAT_PLAY, PK_CAT_LAST, PK_CAT_CARDS, PK_CAT_CAPOT, PK_CAT_PIQUE };
    int e = pk_elder(t);
    *out = *t;
    for (int s = 0; s < 2; s++) {
        for (size_t i = 0; i < sizeof play_cats / sizeof play_cats[0]; i++) {
            int pts = t->cat_pts[s][play_cats[i]];
            out->score[s] -= pts;
            out->hand_pts[s] = (int16_t)(out->hand_pts[s] - pts);
            out->cat_pts[s][play_cats[i]] = 0;
        }
        out->reckoned[s] = out->hand_pts[s] > 0;
        out->played[s] = 0;
        out->tricks[s] = 0;
        out->trick_card[s] = -1;
        out->voids[s] = 0;
    }
    /* The appointment came before the first lead and told that elder lacks the suit he named. */
    if (t->appointed_suit >= 0 && t->called_suit >= 0)
        out->voids[e] = (uint8_t)(1u << t->called_suit);
    out->piqued = out->cat_pts[0][PK_CAT_REPIQUE] > 0 || out->cat_pts[1][PK_CAT_REPIQUE] > 0;
    out->phase = PK_PH_PLAY;
    out->to_move = (int8_t)e;
    out->winner = -1;
    out->trick_no = 0;
    out->leader = (int8_t)e;
}

static cardset_t suits_of(unsigned bits)
{
    cardset_t set = 0;
    for (int s = 0; s < CARD_SUITS; s++)
        if (bits & (1u << s))
            set |= cardset_suit(s);
    return set;
}

/* The world these cards make, if it is consistent with the view: 0, else -1. */
static int build_world(const picket_view_t *v, const cardset_t dealt[2], const cardset_t discard[2],
                       const uint8_t *stock, picket_state_t *w)
{
    const picket_pub_t *t = &v->pub;
    picket_init(w, &v->rules, 0);
    w->pub.hand_no = (int16_t)(t->hand_no - 1);
    for (int s = 0; s < 2; s++)
        w->pub.score[s] = t->score[s] - t->hand_pts[s];
    if (picket_deal_given(w, t->dealer, dealt, stock, NULL, 0) < 0)
        return -1;
    game_move_t m;
    char err[GAME_ERR_LEN];
    for (int step = 0; step < 8 && recorded_move(w, t, discard, &m); step++) {
        if (!picket_check_move(w, &m, err, sizeof err))
            return -1;
        picket_apply(w, &m, NULL, 0);
    }
    /* The hand as far as the first lead is what the record says: Blanks, claims, answers,
     * cards shown, points. The cut is the set's, not this hand's. */
    picket_pub_t want;
    if (play_begun(t))
        rewind_play(t, &want);
    else
        want = *t;
    memcpy(w->pub.cut, t->cut, sizeof w->pub.cut);
    if (pk_pub_diff(&w->pub, &want))
        return -1;
    /* Play, in any order the record allows: each seat's knowledge moves as apply_play moves it. */
    for (int s = 0; s < 2; s++) {
        if (t->played[s] & ~w->hand[s])
            return -1;
        w->hand[s] &= ~t->played[s];
        w->know[1 - s].seen |= t->played[s];
        w->know[1 - s].opp_known &= ~t->played[s];
        if (w->hand[s] & suits_of(t->voids[s]))
            return -1;
    }
    w->pub = *t;
    picket_view_t back;
    picket_view_from_state(w, v->seat, &back);
    return picket_view_diff(&back, v) ? -1 : 0;
}

int picket_sample_world(const void *view, rng_t *rng, void *state_out)
{
    const picket_view_t *v = view;
    picket_state_t *w = state_out;
    if (v->seat < 0 || v->seat > 1 || !cards_pack(v->rules.deck))
        return -1;
    if (v->pub.hand_no <= 0) {
        /* Before the first deal nothing is hidden. */
        picket_init(w, &v->rules, rng_next(rng));
        w->pub = v->pub;
        picket_view_t back;
        picket_view_from_state(w, v->seat, &back);
        return picket_view_diff(&back, v) ? -1 : 0;
    }
    sample_plan_t plan;
    if (make_plan(v, &plan) < 0)
        return -1;
    for (int i = 0; i < SAMPLE_MAX_TRIES; i++) {
        cardset_t dealt[2], discard[2];
        uint8_t stock[PK_STOCK];
        place(&plan, rng, dealt, discard, stock);
        if (build_world(v, dealt, discard, stock, w) == 0) {
            /* Later deals come from rng, not from the set's seed the view never saw. */
            w->deal_seed = rng_next(rng);
            return 0;
        }
    }
    return -1;
}
