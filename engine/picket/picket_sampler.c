/* picket_sampler: exact counts and uniform draws of the worlds consistent with a view. The
 * method, the definition of a world and the worst case are in picket_sampler.h. */
#include "picket_sampler.h"

#include <assert.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "picket_partie.h"
#include "picket_score.h"

enum { NSUITS = CARD_SUITS, MAX_FREE = 9, MAX_SUBSETS = 1 << MAX_FREE, MAX_UNPLACED = 24 };

/* The kinds of rule a declaration makes on P. */
/* RULE_ATMOST: not above the claim (equal allowed); RULE_ABOVE: beats it (calls=cavendish:
 * younger's "not good", before he shows what he won). */
enum { RULE_NONE, RULE_EXACT, RULE_BOUND, RULE_ATMOST, RULE_ABOVE };
/* Rules counted by inclusion and exclusion: "above" is "anything" less "at most". */
enum { ABOVE_SETS = 1, ABOVE_SEQ = 2 };
enum { KEY_NONE = -1, KEY_ANY = 1 << 30 };
/* What the Blank rules say of D. */
enum { BLANK_ANY, BLANK_NONE, BLANK_SOME };
enum { REACH_RUFF = 1, REACH_SEQ = 2 };

/* State key: pool counts, Kings-Queens-Knaves count, reached bits, 3 bits per rank, the layer. */
enum { KEY_C2 = 5, KEY_J = 10, KEY_REACH = 14, KEY_RANK = 16, KEY_LAYER = 56 };
/* A class's key while grouping. */
enum { G_REACH = 13, G_J = 15, G_C2 = 19, G_C1 = 24 };

typedef struct sclass {
    uint8_t d1, d2, dj, reach;
    uint16_t ranks;      /* tracked ranks present among P's cards of the suit */
    uint32_t first, n;   /* its subsets: sub[first .. first + n) of the layer */
} sclass_t;

typedef struct trans {
    uint64_t cum;        /* worlds through this transition and the state's earlier ones */
    uint32_t next;       /* its state in the next layer */
    uint32_t cls;        /* class of the suit */
} trans_t;

typedef struct state {
    uint64_t key, count, hold; /* count: worlds from here on; hold: distinct holdings P */
    uint32_t tfirst, tend;     /* its transitions (none in the last layer) */
} state_t;

/* The states of every layer (the layer is in the key). */
typedef struct table {
    state_t *st;
    uint32_t n, cap;
    uint32_t *slot;      /* open addressing: index + 1, 0 empty */
    uint32_t nslot;
} table_t;

struct picket_sampler {
    picket_view_t v;
    int mode;
    int me, opp, e, y, nstock, share, de, dy;
    uint64_t worlds, holdings;
    int trivial;             /* before the first deal: nothing hidden */

    /* Cards. */
    cardset_t lu;            /* unplaced: K, X, R or L */
    cardset_t pool1, pool2;  /* single pool: pool1 = lu; D known: lu in D, lu not in D */
    cardset_t kqj;           /* unplaced Kings, Queens and Knaves */
    cardset_t held;          /* unplaced cards certainly in P (played or shown by O) */
    cardset_t out;           /* unplaced cards certainly not in P */
    cardset_t fixed_r;       /* O's draws S saw (the stock cards it peeked at) */
    cardset_t my_drawn;      /* S's draws */
    cardset_t stock_seen;    /* undrawn stock cards S saw, besides those at known positions */
    uint8_t pinned[PK_STOCK]; /* the card at each stock position S knows, or 0xff */
    int nK, nX, nR, nL, N1, N2, M, J;
    int d_known, blank, jcap;

    /* Rules on P. */
    int ruff_rule, ruff_v, ruff_t, ruff_n;    /* ruff_t: shown suit or -1 */
    cardset_t ruff_cards;
    int ruff_hi, ruff_lo;    /* every suit's key at most hi; some suit's at least lo (KEY_NONE) */
    int seq_hi, seq_lo;      /* the same for suited sequences */
    int seq_t;               /* the suit of an equal best run shown, or -1 */
    /* declarations=may-sink: elder O's call in the point and sequences, pending or beaten and so
     * not shown: some suit of P holds it (reach bits); 0 length when none. */
    int sink, ruff_call[2], seq_call[2];
    int16_t partie_hand;     /* what every world's state keeps of the partie (picket_partie_mark) */
    double partie_before, partie_unit;
    int above, variant;      /* ABOVE_* rules of the view; those counted as at most, this pass */
    int above_c[2][2];       /* the claims they beat: sets, then (unsuited) sequences */
    int seq_rule, seq_len, seq_top, seq_points, unsuited;
    cardset_t seq_cards;     /* the cards he showed for them, if he won them */
    int call_suit;           /* P holds a card of it, or -1 */
    uint8_t allowed[CARD_RANKS]; /* counts of P in the rank the rank rules allow (bit per count) */
    uint8_t cap[CARD_RANKS];     /* tracked ranks: 1 presence, 4 exact; 0 untracked */
    uint8_t lo[CARD_RANKS];      /* P's certain cards in the rank */
    uint16_t tracked;
    int need_reach;
    uint16_t required;       /* unsuited: ranks P must hold (the claimed run) */
    uint16_t certain;        /* ranks P surely holds */
    uint16_t window[2 * CARD_RANKS]; /* unsuited: runs of ranks P must not hold in full */
    int nwin;
    int impossible;          /* a rule no hand can keep */
    int8_t order[NSUITS];    /* the suit of each layer */
    int rem1[NSUITS + 1], rem2[NSUITS + 1]; /* most pool cards the layers from k on can add */
    int d1first[NSUITS][MAX_UNPLACED + 2];  /* first class of suit k adding d to pool 1 */

    /* The programme. Everything from here on is kept from one view to the next. */
    table_t tab;
    trans_t *trans;
    size_t ntrans, transcap;
    sclass_t cls[NSUITS][MAX_SUBSETS];
    cardset_t sub[NSUITS][MAX_SUBSETS];
    struct pending {
        uint32_t gkey;       /* the class, sorted by what it adds to pool 1 first */
        cardset_t cards;
        sclass_t cls;        /* what it adds */
    } pend[MAX_SUBSETS];
};

static int fail(char *err, size_t errlen, const char *why)
{
    if (err && errlen)
        snprintf(err, errlen, "%s", why);
    return -1;
}

/* ---------------------------------------------------------------- rules from the view */

/* The opponent's claim in declaration d: RULE_EXACT with it, RULE_BOUND with the seat's claim
 * he fell short of, RULE_ABOVE with the seat's claim he beat but has not shown yet (younger under
 * calls=cavendish), or RULE_NONE (nothing set); and the cards he showed for it if he won it. */
static int claim_rule(const picket_sampler_t *S, int d, int *c0, int *c1, cardset_t *shown)
{
    const picket_pub_t *p = &S->v.pub;
    /* declarations=may-sink: a call bounds nothing above (he may hold more), and a younger may
     * allow anything good, unless he asked the point's value first (he holds as many cards);
     * what remains of elder's calls is read apart (sink_rules). */
    int asked = d == 0 && picket_value_unsaid(&S->v.rules, PK_CAT_RUFF) && p->claim[0][S->e][1] != 0;
    if (S->sink && (S->opp == S->e || (p->answer[d] == PK_ANS_GOOD && !asked)))
        return RULE_NONE;
    if (p->answer[d] < 0 || (S->mode == PK_SAMPLER_BIAS_IGNORE_EQUAL && p->answer[d] == PK_ANS_EQUAL))
        return RULE_NONE;
    *shown = p->decl_winner[d] == S->opp ? p->decl_cards[d][S->opp] : 0;
    int above = S->opp == S->y && p->answer[d] == PK_ANS_NOT_GOOD && !*shown && p->claim[d][S->y][0] == 0;
    int who = (S->opp == S->e || p->answer[d] != PK_ANS_GOOD) && !above ? S->opp : S->e;
    *c0 = p->claim[d][who][0];
    *c1 = p->claim[d][who][1];
    return above ? RULE_ABOVE : who == S->opp ? RULE_EXACT : RULE_BOUND;
}

/* Does what P holds, compared with the claim (cmp), keep a rule that it not beat the claim
 * (RULE_EXACT) or stay under it (RULE_BOUND)? Equalling an exact claim adds `reached`. */
static int keeps(int rule, int cmp, int reached, int *reach)
{
    if (cmp > 0 || (cmp == 0 && rule == RULE_BOUND))
        return 0;
    if (rule == RULE_ATMOST)
        return 1;
    if (cmp == 0)
        *reach |= reached;
    return 1;
}

/* Counts of a set rank the sets rule allows, as bits. */
static unsigned sets_allowed(int rule, int c0, int c1, int r)
{
    unsigned mask = 0;
    for (int c = 0, reach = 0; c <= 4; c++) {
        int cmp = picket_claim_cmp(c >= 3 ? c : 0, c >= 3 ? r : 0, c0, c1);
        int claimed = rule == RULE_EXACT && c0 > 0 && r == c1; /* his claim's rank: his count exactly */
        mask |= (unsigned)(claimed ? c == c0 : keeps(rule, cmp, 0, &reach)) << c;
    }
    return mask;
}

/* A suit's point as one ordered number: the pip total (point=ruff), or the cards then the total
 * (point=count); and a suited sequence's, its length then its top (0: none). */
static int point_key(const picket_sampler_t *S, int n, int v)
{
    return S->v.rules.point == PK_POINT_COUNT ? n * 256 + v : v;
}

static int seq_key(int len, int top) { return len ? len * 16 + top : 0; }

/* declarations=may-sink: could a suit's cards make elder's point call (its n highest; under
 * point=ruff some n of them make the value)? */
static int holds_point(const picket_sampler_t *S, cardset_t hs)
{
    int count = S->v.rules.point == PK_POINT_COUNT, v = 0, n = 0;
    if (count && cardset_count(hs) < S->ruff_call[0])
        return 0;
    while (hs) {
        int c = cardset_last(hs);
        hs &= ~cardset_of(c);
        v += picket_card_value(c);
        n++;
        if (count ? n == S->ruff_call[0] : v == S->ruff_call[0])
            return count ? S->ruff_call[1] == 0 || v == S->ruff_call[1] : 1;
    }
    return 0;
}

/* Do P's cards of suit s keep the suit's rules? Sets the reached bits. */
static int suit_ok(const picket_sampler_t *S, int s, cardset_t hs, int *reach)
{
    *reach = 0;
    if (S->call_suit == s && !hs)
        return 0;
    if (S->ruff_rule != RULE_NONE) {
        int v = picket_cards_value(hs), n = cardset_count(hs), key = point_key(S, n, v);
        if (S->ruff_t >= 0) {
            /* His shown suit is exactly what he showed, and no other suit beats it. */
            int beats = S->v.rules.point == PK_POINT_COUNT
                            ? key > S->ruff_hi || (key == S->ruff_hi && s > S->ruff_t)
                            : v > S->ruff_v || (v == S->ruff_v && (n > S->ruff_n || (n == S->ruff_n && s > S->ruff_t)));
            if (s == S->ruff_t ? hs != S->ruff_cards : beats)
                return 0;
        } else if (key > S->ruff_hi) {
            return 0;
        } else if (S->ruff_lo != KEY_NONE && key >= S->ruff_lo) {
            *reach |= REACH_RUFF;
        }
    }
    if (S->ruff_call[0] && holds_point(S, hs))
        *reach |= REACH_RUFF;
    if (S->seq_call[0]) {
        cardset_t run = 0;
        for (int r = S->seq_call[1] - S->seq_call[0] + 1; r <= S->seq_call[1]; r++)
            run |= cardset_of(card_make(s, r));
        if ((hs & run) == run)
            *reach |= REACH_SEQ;
    }
    if (S->seq_rule != RULE_NONE && !S->unsuited) {
        picket_sequences_t q;
        picket_sequences(hs, 0, &q);
        int key = seq_key(q.best.len, q.best.top);
        if (S->seq_cards ? q.cards != (S->seq_cards & cardset_suit(s)) : key > S->seq_hi)
            return 0;
        if (S->seq_t >= 0 && (s == S->seq_t ? key != S->seq_hi : s < S->seq_t && key == S->seq_hi))
            return 0;
        if (!S->seq_cards && S->seq_lo != KEY_NONE && key >= S->seq_lo)
            *reach |= REACH_SEQ;
    }
    return 1;
}

/* ---------------------------------------------------------------- setting up */

/* The cards at stock positions [from, to), skipping unknown ones (0xff). */
static cardset_t stock_block(const uint8_t *pinned, int from, int to)
{
    cardset_t c = 0;
    for (int i = from; i < to; i++)
        if (pinned[i] != 0xff)
            c |= cardset_of(pinned[i]);
    return c;
}

static void add_window(picket_sampler_t *S, int lowest, int a, int b)
{
    if (a >= lowest && b < CARD_RANKS && S->nwin < 2 * CARD_RANKS)
        S->window[S->nwin++] = (uint16_t)(((1u << (b - a + 1)) - 1) << a);
}

/* Unsuited sequences: the claim (or the bound) as ranks P must hold, ranks it must not, and runs
 * of ranks it must not hold in full. Exact claim L to T: the run held, both neighbours not, no
 * run of L + 1 and none of L above T. Bound (below L to T): no run of L + 1, none of L up to T
 * or above. None: no run of three. */
static void unsuited_rule(picket_sampler_t *S, cardset_t pack)
{
    int lowest = card_rank(cardset_first(pack)), L = S->seq_len, T = S->seq_top;
    if (S->seq_rule == RULE_BOUND && L < 3) {
        S->impossible = 1;
        return;
    }
    int none = (S->seq_rule == RULE_EXACT || S->seq_rule == RULE_ATMOST) && L == 0;
    if (none) { /* no run of three: the windows of L + 1 = 3, and no top to stay under */
        L = 2;
        T = CARD_RANKS - 1;
    }
    for (int a = lowest; a + L < CARD_RANKS; a++)
        add_window(S, lowest, a, a + L);
    for (int b = S->seq_rule == RULE_BOUND ? T : T + 1; b < CARD_RANKS; b++)
        add_window(S, lowest, b - L + 1, b);
    if (S->seq_rule == RULE_EXACT && !none) {
        for (int r = T - L + 1; r <= T; r++)
            if (r >= 0)
                S->required |= (uint16_t)(1u << r);
        if (T + 1 < CARD_RANKS)
            S->out |= S->lu & cardset_rank(T + 1);
        if (T - L >= 0)
            S->out |= S->lu & cardset_rank(T - L);
    }
}

/* The seats, the stock's size and the draws: 0, or -1 if out of range. */
static int read_seats(picket_sampler_t *S, char *err, size_t errlen)
{
    const picket_view_t *v = &S->v;
    const picket_pub_t *t = &v->pub;
    S->me = v->seat;
    S->opp = 1 - v->seat;
    S->nstock = picket_stock_size(&v->rules);
    S->share = picket_elder_share(&v->rules);
    if (t->dealer < 0 || t->dealer > 1 || S->nstock <= 0 || S->nstock > PK_STOCK)
        return fail(err, errlen, "the view has no dealer or no stock");
    S->e = picket_elder(t);
    S->y = 1 - S->e;
    for (int s = 0; s < 2; s++)
        if (t->discarded[s] < 0 || t->discarded[s] > PK_HAND_CARDS || t->drawn[s] < 0 || t->drawn[s] > S->nstock)
            return fail(err, errlen, "the view's discard or draw counts are out of range");
    S->de = t->drawn[S->e];
    S->dy = t->drawn[S->y];
    if (S->de + S->dy > S->nstock || t->stock_left != S->nstock - S->de - S->dy)
        return fail(err, errlen, "the view's stock count does not match its draws");
    return 0;
}

/* The seat's own cards: dealt, discarded, kept and drawn must add up. */
static int read_own_cards(picket_sampler_t *S, cardset_t pack, char *err, size_t errlen)
{
    const picket_view_t *v = &S->v;
    const picket_pub_t *t = &v->pub;
    if (cardset_count(v->dealt) != PK_HAND_CARDS || (v->dealt & ~pack))
        return fail(err, errlen, "the view does not hold the seat's dealt hand");
    cardset_t kept = v->hand | t->played[S->me];
    if ((v->hand & t->played[S->me]) || (v->discards & ~v->dealt) ||
        cardset_count(v->discards) != t->discarded[S->me] || (kept & v->discards))
        return fail(err, errlen, "the view's own cards do not add up");
    S->my_drawn = kept & ~v->dealt;
    if (cardset_count(S->my_drawn) != t->drawn[S->me] || ((v->dealt & ~v->discards) & ~kept))
        return fail(err, errlen, "the view's own draws do not add up");
    return 0;
}

/* The stock cards the seat saw: at known positions (what elder looked at after his draw), among
 * the opponent's draws, or undrawn; what is left unplaced (lu). */
static int read_stock(picket_sampler_t *S, cardset_t pack, char *err, size_t errlen)
{
    const picket_view_t *v = &S->v;
    const picket_pub_t *t = &v->pub;
    memset(S->pinned, 0xff, sizeof S->pinned);
    cardset_t pinned = 0;
    if (S->me == S->e && S->de > 0) {
        for (int i = S->de, j = 0; i < S->share && i < S->nstock && j < 8; i++, j++) {
            int c = v->peek[j];
            if (c < 0 || !cardset_has(pack, c) || cardset_has(pinned | v->dealt | S->my_drawn, c))
                return fail(err, errlen, "the view's peeked cards are not stock cards");
            S->pinned[i] = (uint8_t)c;
            pinned |= cardset_of(c);
        }
    }
    int opp_from = S->opp == S->e ? 0 : S->de, opp_to = opp_from + t->drawn[S->opp];
    S->fixed_r = stock_block(S->pinned, opp_from, opp_to);
    cardset_t pinned_left = stock_block(S->pinned, S->de + S->dy, S->nstock);
    if ((pinned_left & ~v->know.stock_known) || (v->know.stock_known & (v->dealt | S->my_drawn | S->fixed_r)))
        return fail(err, errlen, "the view's known stock cards do not add up");
    S->stock_seen = v->know.stock_known & ~pinned_left;
    S->lu = pack & ~(v->dealt | S->my_drawn | pinned | v->know.stock_known);
    return 0;
}

/* The bin sizes: the unplaced cards must fill the opponent's hand, his discards, his unseen
 * draws and the unseen undrawn stock exactly. */
static int read_bins(picket_sampler_t *S, char *err, size_t errlen)
{
    const picket_pub_t *t = &S->v.pub;
    S->nK = PK_HAND_CARDS - t->discarded[S->opp];
    S->nX = t->discarded[S->opp];
    S->nR = t->drawn[S->opp] - cardset_count(S->fixed_r);
    S->nL = t->stock_left - cardset_count(S->v.know.stock_known); /* the undrawn stock S has not seen */
    S->M = cardset_count(S->lu);
    if (S->nR < 0 || S->nL < 0 || S->M != S->nK + S->nX + S->nR + S->nL || S->M > MAX_UNPLACED)
        return fail(err, errlen, "the view's unseen cards do not fill the opponent's hand and the stock");
    return 0;
}

/* What is certain of P, card by card: what the opponent played or showed is in it; his voids
 * are not. */
static int read_opp_cards(picket_sampler_t *S, char *err, size_t errlen)
{
    const picket_pub_t *t = &S->v.pub;
    cardset_t opp_seen = t->played[S->opp] | t->decl_shown[S->opp];
    if (opp_seen & ~(S->lu | S->fixed_r))
        return fail(err, errlen, "the view has the opponent play or show a card placed elsewhere");
    S->held = opp_seen & S->lu;
    for (int s = 0; s < NSUITS; s++) /* out is still empty here */
        if (t->voids[S->opp] & (1u << s))
            S->out |= S->lu & cardset_suit(s) & ~t->played[S->opp];
    return 0;
}

/* The opponent's dealt hand: known (a Blank shown), without courts, with one at least, or
 * unknown; the pools the programme counts from. */
static int read_dealt_hand(picket_sampler_t *S, char *err, size_t errlen)
{
    const picket_pub_t *t = &S->v.pub;
    cardset_t d = t->blank_shown[S->opp];
    S->d_known = d != 0;
    if (S->d_known && (cardset_count(d) != PK_HAND_CARDS || (d & ~S->lu)))
        return fail(err, errlen, "the opponent's shown Blank is not among the unseen cards");
    S->kqj = S->lu & (cardset_rank(RANK_J) | cardset_rank(RANK_Q) | cardset_rank(RANK_K));
    S->J = cardset_count(S->kqj);
    /* D known: P takes K from D and R from the rest; else one pool. */
    S->pool1 = S->d_known ? d : S->lu;
    S->pool2 = S->lu & ~S->pool1;
    S->N1 = S->d_known ? S->nK : S->nK + S->nR;
    S->N2 = S->nK + S->nR - S->N1;
    /* commit-count declares younger's Blank after elder's count; announce-then-show at the deal. */
    int counting = t->phase == PK_PH_BLANK_COUNT;
    int undeclared_yet = counting && S->opp != S->e && S->v.rules.blank_order == PK_BO_COMMIT_COUNT;
    S->blank = S->d_known || undeclared_yet                           ? BLANK_ANY
               : t->blank[S->opp] || (counting && S->opp == S->e) ? BLANK_NONE
                                                                   : BLANK_SOME;
    S->jcap = S->blank == BLANK_ANY ? 0 : (S->nR + 1 < S->J ? S->nR + 1 : S->J);
    return 0;
}

/* The suit elder called binds P, when he was not appointed one and play began. */
static void read_call(picket_sampler_t *S)
{
    const picket_pub_t *t = &S->v.pub;
    int play_begun = t->phase == PK_PH_PLAY || (t->played[0] | t->played[1]);
    int binds = S->opp == S->e && t->called_suit >= 0 && t->appointed_suit < 0 && play_begun;
    S->call_suit = binds ? t->called_suit : -1;
}

/* The Ruff declaration: the rule on P's best suit; a shown Ruff fixes that suit of P. */
static int read_ruff(picket_sampler_t *S, char *err, size_t errlen)
{
    const picket_pub_t *p = &S->v.pub;
    int count = S->v.rules.point == PK_POINT_COUNT, c0, c1;
    S->ruff_rule = claim_rule(S, 0, &c0, &c1, &S->ruff_cards);
    S->ruff_t = -1;
    /* An equal point shown (calls=cavendish) is his point as a winner's is: that suit, and no
     * other that the rules would name before it. */
    if (S->ruff_rule == RULE_EXACT && p->answer[0] == PK_ANS_EQUAL && p->decl_winner[0] != S->opp)
        S->ruff_cards = p->decl_cards[0][S->opp];
    S->ruff_hi = KEY_ANY;
    S->ruff_lo = KEY_NONE;
    S->ruff_v = count ? c1 : c0;
    if (S->ruff_cards) {
        /* Shown: his claim was that suit (calls=cavendish: he claimed nothing before showing). */
        S->ruff_t = card_suit(cardset_first(S->ruff_cards));
        S->ruff_n = cardset_count(S->ruff_cards);
        int v = picket_cards_value(S->ruff_cards);
        int said = count ? c0 == S->ruff_n && (c1 == 0 || c1 == v) : c0 == v;
        if ((S->ruff_cards & ~cardset_suit(S->ruff_t)) || (c0 != 0 && !said))
            return fail(err, errlen, "the opponent's shown Ruff does not match his claim");
        S->ruff_v = v;
        S->ruff_hi = point_key(S, S->ruff_n, v);
        S->out |= S->lu & cardset_suit(S->ruff_t) & ~S->ruff_cards;
        return 0;
    }
    if (S->ruff_rule == RULE_EXACT) {
        /* His claim: under calls=cavendish elder's value is said only to a younger as long. */
        S->ruff_hi = count ? point_key(S, c0, c1 ? c1 : 255) : c0;
        S->ruff_lo = count ? point_key(S, c0, c1) : c0;
        return 0;
    }
    if (S->ruff_rule == RULE_NONE)
        return 0;
    /* Against the seat's own point (elder's): good, or not good and not shown yet. Under
     * calls=cavendish with the point by count, younger asked the value only on as many cards. */
    picket_ruff_t mine;
    picket_point(S->v.hand | p->played[S->me], count, &mine);
    if (S->sink) { /* answered against his call, not his best */
        mine.count = count ? c0 : 0;
        mine.value = count ? p->claim[0][S->e][1] : c0;
    }
    int k = point_key(S, mine.count, mine.value);
    int cav = count && S->v.rules.calls == PK_CALLS_CAVENDISH, asked = cav && p->claim[0][S->e][1] != 0;
    if (S->ruff_rule == RULE_BOUND) {
        S->ruff_hi = cav && !asked ? point_key(S, mine.count - 1, 255) : k - 1;
        S->ruff_lo = asked ? point_key(S, mine.count, 0) : KEY_NONE;
    } else {
        S->ruff_lo = cav && !asked ? point_key(S, mine.count + 1, 0) : k + 1;
        S->ruff_hi = asked ? point_key(S, mine.count, 255) : KEY_ANY;
    }
    return 0;
}

/* A rule counted by inclusion and exclusion (sets, unsuited sequences): the claim it beats is
 * kept, and this pass counts it as "at most" (or not at all). */
static int above_rule(picket_sampler_t *S, int which, int c0, int c1)
{
    S->above |= which;
    S->above_c[which == ABOVE_SEQ][0] = c0;
    S->above_c[which == ABOVE_SEQ][1] = c1;
    return S->variant & which ? RULE_ATMOST : RULE_NONE;
}

/* The Sequences declaration: the claim, and the cards shown for it. */
static void read_sequences(picket_sampler_t *S)
{
    S->unsuited = S->v.rules.sequences == PK_SEQ_UNSUITED;
    S->seq_rule = claim_rule(S, 1, &S->seq_len, &S->seq_top, &S->seq_cards);
    S->seq_points = S->v.pub.cat_pts[S->opp][PK_CAT_SEQ];
    S->seq_hi = KEY_ANY;
    S->seq_lo = KEY_NONE;
    if (S->seq_cards && S->seq_len == 0) { /* shown after a "not good" that named nothing */
        picket_sequences_t q;
        picket_sequences(S->seq_cards, S->unsuited, &q);
        S->seq_len = q.best.len;
        S->seq_top = q.best.top;
    }
    int key = seq_key(S->seq_len, S->seq_top);
    /* An equal best run shown (calls=cavendish, suited): its suit holds it, a suit before it
     * (the rules name the first) nothing as good, a suit after it nothing better. */
    S->seq_t = -1;
    cardset_t eq = S->v.pub.answer[1] == PK_ANS_EQUAL && S->v.pub.decl_winner[1] != S->opp ? S->v.pub.decl_cards[1][S->opp] : 0;
    if (S->seq_rule == RULE_EXACT && eq && !S->unsuited)
        S->seq_t = card_suit(cardset_first(eq));
    if (S->seq_rule == RULE_ABOVE && S->unsuited)
        S->seq_rule = above_rule(S, ABOVE_SEQ, S->seq_len, S->seq_top);
    else if (S->seq_rule == RULE_EXACT)
        S->seq_hi = key, S->seq_lo = S->seq_len ? key : KEY_NONE;
    else if (S->seq_rule == RULE_BOUND)
        S->seq_hi = key - 1;
    else if (S->seq_rule == RULE_ABOVE)
        S->seq_lo = key + 1;
    /* Unsuited, a rank's shown cards are its highest suits in P: no higher unshown card is. */
    for (int r = 0; S->unsuited && r < CARD_RANKS; r++) {
        cardset_t shown = S->seq_cards & cardset_rank(r);
        if (shown)
            for (int s = card_suit(cardset_first(shown)) + 1; s < NSUITS; s++)
                if (!cardset_has(shown, card_make(s, r)))
                    S->out |= S->lu & cardset_of(card_make(s, r));
    }
}

/* The sets declaration: the counts of each set rank (Ten up) P may hold. */
static void read_sets(picket_sampler_t *S)
{
    int c0 = 0, c1 = 0;
    cardset_t sets_cards = 0;
    int sets_rule = claim_rule(S, 2, &c0, &c1, &sets_cards);
    if (sets_cards && c0 == 0) { /* shown after a "not good" that named nothing */
        picket_sets_t t;
        picket_sets(sets_cards, &t);
        c0 = t.best.count;
        c1 = t.best.rank;
    }
    if (sets_rule == RULE_ABOVE)
        sets_rule = above_rule(S, ABOVE_SETS, c0, c1);
    for (int r = 0; r < CARD_RANKS; r++) {
        /* Shown: a rank's count is what he showed, or under three. */
        int n = cardset_count(sets_cards & cardset_rank(r));
        unsigned shown = !sets_cards ? 0x1fu : n ? 1u << n : 0x7u;
        S->allowed[r] = 0x1f;
        if (sets_rule != RULE_NONE && r >= RANK_T)
            S->allowed[r] = (uint8_t)(sets_allowed(sets_rule, c0, c1, r) & shown);
    }
}

/* Which ranks the programme must count, and how far: a rank is tracked when the sets rule bites
 * on its counts or, unsuited, when a run of it matters; the rest count as their certain cards. */
static void plan_ranks(picket_sampler_t *S, cardset_t pack)
{
    int unsuited_seq = S->seq_rule != RULE_NONE && S->unsuited;
    uint16_t maybe_held = 0;
    int hi[CARD_RANKS];
    for (int r = 0; r < CARD_RANKS; r++) {
        cardset_t rank = cardset_rank(r) & pack;
        int lo = cardset_count(rank & (S->held | S->fixed_r));
        hi[r] = lo + cardset_count(rank & S->lu & ~S->held & ~S->out);
        S->lo[r] = (uint8_t)lo;
        if (lo)
            S->certain |= (uint16_t)(1u << r);
        if (hi[r])
            maybe_held |= (uint16_t)(1u << r);
    }
    /* Runs that cannot be held in full never matter. */
    int nwin = 0;
    uint16_t in_windows = S->required;
    for (int i = 0; i < S->nwin; i++)
        if ((S->window[i] & maybe_held) == S->window[i]) {
            S->window[nwin++] = S->window[i];
            in_windows |= S->window[i];
        }
    S->nwin = nwin;
    for (int r = 0; r < CARD_RANKS; r++) {
        int lo = S->lo[r], sets_bite = (~(unsigned)S->allowed[r] & ((2u << hi[r]) - (1u << lo))) != 0;
        int seq_count = unsuited_seq && S->seq_cards && lo != hi[r];
        int seq_presence = unsuited_seq && lo == 0 && hi[r] > 0 && (in_windows & (1u << r));
        S->cap[r] = sets_bite || seq_count ? 4 : seq_presence ? 1 : 0;
        if (S->cap[r])
            S->tracked |= (uint16_t)(1u << r);
    }
}

/* An exact claim no shown card proves must be reached by some suit of P (suited rules). */
static void plan_reach(picket_sampler_t *S)
{
    S->need_reach = (S->ruff_lo != KEY_NONE && S->ruff_t < 0 ? REACH_RUFF : 0) |
                    (S->seq_lo != KEY_NONE && !S->seq_cards && !S->unsuited && S->seq_t < 0 ? REACH_SEQ : 0) |
                    (S->ruff_call[0] ? REACH_RUFF : 0) | (S->seq_call[0] ? REACH_SEQ : 0);
}

/* declarations=may-sink, elder O: what his calls tell. A call shown (allowed good, or equal) is
 * held, and a point's shown cards are its suit's highest; a call pending or beaten holds in
 * some suit (the point, the run) or rank (sets). Nothing bounds him above. */
static void sink_rules(picket_sampler_t *S)
{
    const picket_pub_t *p = &S->v.pub;
    if (!S->sink || S->opp != S->e)
        return;
    for (int d = 0; d < PK_DECL_COUNT; d++) {
        const int16_t *c = p->claim[d][S->e];
        cardset_t shown = p->decl_cards[d][S->e];
        if (d == 0 && shown) {
            int t = card_suit(cardset_first(shown)), low = card_rank(cardset_first(shown));
            for (int r = low + 1; r < CARD_RANKS; r++)
                if (!cardset_has(shown, card_make(t, r)))
                    S->out |= S->lu & cardset_of(card_make(t, r));
        }
        /* Called and not shown: pending, beaten, equal under calls=open, or worth nothing. */
        if (shown || c[0] == 0)
            continue;
        if (d == 0) {
            S->ruff_call[0] = c[0];
            S->ruff_call[1] = c[1];
        } else if (d == 1 && c[0] >= 3 && c[1] < CARD_RANKS && c[1] - c[0] + 1 >= 0) {
            S->seq_call[0] = c[0];
            S->seq_call[1] = c[1];
        } else if (d == 2 && c[0] >= 3 && c[0] <= 4 && c[1] >= 0 && c[1] < CARD_RANKS) {
            S->allowed[c[1]] &= (uint8_t)(0x1fu & ~((1u << c[0]) - 1));
        } else {
            S->impossible = 1; /* a claim no holding makes (a forged view) */
        }
    }
}

/* Where the view puts every card, the bin sizes, and the rules on P: 0, or -1 if malformed. */
static int read_view(picket_sampler_t *S, char *err, size_t errlen)
{
    cardset_t pack = cards_pack(S->v.rules.deck);
    if (read_seats(S, err, errlen) < 0 || read_own_cards(S, pack, err, errlen) < 0 ||
        read_stock(S, pack, err, errlen) < 0 || read_bins(S, err, errlen) < 0 ||
        read_opp_cards(S, err, errlen) < 0 || read_dealt_hand(S, err, errlen) < 0 || read_ruff(S, err, errlen) < 0)
        return -1;
    read_call(S);
    read_sequences(S);
    read_sets(S);
    sink_rules(S);
    if (S->seq_rule != RULE_NONE && S->unsuited)
        unsuited_rule(S, pack);
    if (S->held & S->out)
        S->impossible = 1; /* a card he showed breaks a rule his claims make: no world */
    plan_ranks(S, pack);
    plan_reach(S);
    return 0;
}

/* ---------------------------------------------------------------- the programme */

typedef struct pending pending_t;

static int cmp_pending(const void *a, const void *b)
{
    const pending_t *x = a, *y = b;
    return x->gkey < y->gkey ? -1 : x->gkey > y->gkey;
}

/* The suits' order in the programme: the one with most open cards first, so that the last
 * layers, where the states are many, offer the fewest choices. */
static cardset_t open_cards(const picket_sampler_t *S, int q)
{
    return cardset_suit(q) & S->lu & ~S->held & ~S->out;
}

static void order_suits(picket_sampler_t *S)
{
    for (int q = 0, j; q < NSUITS; q++) {
        for (j = q; j > 0 && cardset_count(open_cards(S, q)) > cardset_count(open_cards(S, S->order[j - 1])); j--)
            S->order[j] = S->order[j - 1];
        S->order[j] = (int8_t)q;
    }
}

/* Group the choices of layer k's suit into classes by what they add to the state. */
static int build_classes(picket_sampler_t *S, int k, char *err, size_t errlen)
{
    int q = S->order[k];
    cardset_t suit = cardset_suit(q) & cards_pack(S->v.rules.deck);
    cardset_t fixed = (S->fixed_r | S->held) & suit;
    cardset_t open = open_cards(S, q);
    if (cardset_count(open) > MAX_FREE)
        return fail(err, errlen, "a suit has more cards than a Picket pack");
    pending_t *pend = S->pend;
    uint32_t np = 0;
    cardset_t chosen = 0;
    do { /* every subset of the open cards, in increasing order */
        cardset_t hs = fixed | chosen;
        int reach;
        if (!suit_ok(S, q, hs, &reach))
            continue;
        cardset_t in_lu = hs & S->lu;
        sclass_t c = { .d1 = (uint8_t)cardset_count(in_lu & S->pool1), .d2 = (uint8_t)cardset_count(in_lu & S->pool2),
                       .dj = (uint8_t)(S->jcap ? cardset_count(in_lu & S->kqj) : 0), .reach = (uint8_t)reach,
                       .ranks = (uint16_t)(cardset_suit_bits(hs, q) & S->tracked) };
        uint32_t gkey = (uint32_t)c.d1 << G_C1 | (uint32_t)c.d2 << G_C2 | (uint32_t)c.dj << G_J;
        pend[np++] = (pending_t){ gkey | (uint32_t)reach << G_REACH | c.ranks, chosen, c };
    } while ((chosen = (chosen - open) & open) != 0);
    qsort(pend, np, sizeof *pend, cmp_pending);
    int nc = 0;
    for (uint32_t i = 0; i < np; i++) {
        S->sub[k][i] = pend[i].cards;
        if (i == 0 || pend[i].gkey != pend[i - 1].gkey) {
            S->cls[k][nc] = pend[i].cls;
            S->cls[k][nc++].first = i;
        }
        S->cls[k][nc - 1].n++;
    }
    /* Where the classes adding d cards to pool 1 begin. */
    for (int d = 0, c = 0; d <= MAX_UNPLACED + 1; d++) {
        while (c < nc && S->cls[k][c].d1 < d)
            c++;
        S->d1first[k][d] = c;
    }
    S->rem1[k] = cardset_count((fixed | open) & S->lu & S->pool1) + S->rem1[k + 1];
    S->rem2[k] = cardset_count((fixed | open) & S->lu & S->pool2) + S->rem2[k + 1];
    return 0;
}

static int rank_count(uint64_t key, int r) { return (int)(key >> (KEY_RANK + 3 * r) & 7); }

/* The ranks P holds in a state: the certain ones and the tracked ones counted. */
static uint16_t presence(const picket_sampler_t *S, uint64_t key)
{
    uint16_t held = S->certain;
    for (unsigned b = S->tracked; b; b &= b - 1) {
        int r = __builtin_ctz(b);
        if (rank_count(key, r))
            held |= (uint16_t)(1u << r);
    }
    return held;
}

/* The state after a class, or 0 if it cannot lead to a world (no state after one is 0: its
 * layer is not). */
static uint64_t step(const picket_sampler_t *S, int k, uint64_t key, const sclass_t *c)
{
    int c1 = (int)(key & 31) + c->d1, c2 = (int)(key >> KEY_C2 & 31) + c->d2;
    if (c1 > S->N1 || c2 > S->N2 || c1 + S->rem1[k + 1] < S->N1 || c2 + S->rem2[k + 1] < S->N2)
        return 0;
    int j = (int)(key >> KEY_J & 15) + c->dj;
    if (j > S->jcap)
        j = S->jcap;
    uint64_t ranks = key & (((uint64_t)1 << KEY_LAYER) - ((uint64_t)1 << KEY_RANK));
    uint64_t out = ranks | (uint64_t)(k + 1) << KEY_LAYER | (uint64_t)c1 | (uint64_t)c2 << KEY_C2 |
                   (uint64_t)j << KEY_J | ((key >> KEY_REACH & 3) | c->reach) << KEY_REACH;
    for (unsigned b = c->ranks; b; b &= b - 1) {
        int r = __builtin_ctz(b), shift = KEY_RANK + 3 * r;
        int n = (int)(out >> shift & 7) + 1;
        if (n > S->cap[r])
            n = S->cap[r];
        if (S->cap[r] == 4 && !(S->allowed[r] & (0x1fu << n)))
            return 0; /* no count from here on is allowed */
        out = (out & ~((uint64_t)7 << shift)) | (uint64_t)n << shift;
    }
    if (S->nwin) {
        uint16_t held = presence(S, out);
        for (int i = 0; i < S->nwin; i++)
            if ((held & S->window[i]) == S->window[i])
                return 0;
    }
    return out;
}

/* The number of ways to split P into K and R and the rest into X and L; 0 if the state breaks a
 * rule only the whole hand can show. */
static uint64_t terminal_weight(const picket_sampler_t *S, uint64_t key)
{
    if (S->impossible || (int)(key & 31) != S->N1 || (int)(key >> KEY_C2 & 31) != S->N2 ||
        ((key >> KEY_REACH & 3) & (uint64_t)S->need_reach) != (uint64_t)S->need_reach)
        return 0;
    int count[CARD_RANKS];
    for (int r = 0; r < CARD_RANKS; r++) {
        count[r] = S->cap[r] ? rank_count(key, r) : S->lo[r];
        if (S->cap[r] == 4 && !(S->allowed[r] & (1u << count[r])))
            return 0;
    }
    if (S->seq_rule != RULE_NONE && S->unsuited) {
        /* The claim held: the windows were kept out on the way; the run must be there. */
        if ((presence(S, key) & S->required) != S->required)
            return 0;
        if (S->seq_cards) {
            /* What he scores and shows: the split of the ranks the rules make. */
            cardset_t hand = 0;
            for (int r = 0; r < CARD_RANKS; r++)
                for (int s = 0; s < count[r]; s++)
                    hand |= cardset_of(card_make(s, r));
            picket_sequences_t q;
            picket_sequences(hand, 1, &q);
            if (q.points != S->seq_points || q.best.len != S->seq_len || q.best.top != S->seq_top)
                return 0;
            for (int r = 0; r < CARD_RANKS; r++)
                if (cardset_count(q.cards & cardset_rank(r)) != cardset_count(S->seq_cards & cardset_rank(r)))
                    return 0;
        }
    }
    if (S->d_known)
        return 1;
    uint64_t any = cards_choose(S->N1, S->nK) * cards_choose(S->M - S->N1, S->nX);
    if (S->blank == BLANK_ANY)
        return any;
    int j = (int)(key >> KEY_J & 15);
    uint64_t none = cards_choose(S->N1 - j, S->nK) * cards_choose(S->M - S->N1 - (S->J - j), S->nX);
    return S->blank == BLANK_NONE ? none : any - none;
}

/* The slot of a state's key in the table: the one holding it, or the empty one where it would
 * go. */
static uint32_t *table_slot(table_t *T, uint64_t key)
{
    uint32_t h = (uint32_t)(rng_mix(key) & (T->nslot - 1));
    while (T->slot[h] && T->st[T->slot[h] - 1].key != key)
        h = (h + 1) & (T->nslot - 1);
    return &T->slot[h];
}

static int table_grow(table_t *T)
{
    uint32_t cap = T->cap ? T->cap * 2 : 64;
    state_t *st = realloc(T->st, sizeof *st * cap);
    if (!st)
        return -1;
    T->st = st;
    T->cap = cap;
    /* Rehash into twice as many slots as states. */
    uint32_t *slot = calloc(cap * 2, sizeof *slot);
    if (!slot)
        return -1;
    free(T->slot);
    T->slot = slot;
    T->nslot = cap * 2;
    for (uint32_t i = 0; i < T->n; i++)
        *table_slot(T, T->st[i].key) = i + 1;
    return 0;
}

/* The index of a state, added if new; -1 if memory runs out. */
static int64_t table_find(table_t *T, uint64_t key)
{
    if (T->n == T->cap && table_grow(T) < 0)
        return -1;
    uint32_t *at = table_slot(T, key);
    if (!*at) {
        *at = T->n + 1;
        T->st[T->n++] = (state_t){ .key = key };
    }
    return *at - 1;
}

/* The worlds and holdings from state i on, in one walk: each state it leads to is counted when
 * first reached, then its transitions are laid down with their running sums. */
static int count_state(picket_sampler_t *S, uint32_t i)
{
    state_t *st = &S->tab.st[i];
    uint64_t at = st->key;
    int k = (int)(at >> KEY_LAYER);
    if (k == NSUITS) {
        st->count = terminal_weight(S, at);
        st->hold = st->count > 0;
        return 0;
    }
    trans_t out[MAX_SUBSETS];
    uint32_t n = 0;
    /* Only classes that keep pool 1 within reach of its size (c1 <= N1 <= MAX_UNPLACED). */
    int c1 = (int)(at & 31), lo = S->N1 - c1 - S->rem1[k + 1];
    int from = S->d1first[k][lo < 0 ? 0 : lo], to = S->d1first[k][S->N1 - c1 + 1];
    for (int c = from; c < to; c++) {
        uint64_t key = step(S, k, at, &S->cls[k][c]);
        if (!key)
            continue;
        uint32_t known = S->tab.n;
        int64_t j = table_find(&S->tab, key);
        if (j < 0 || (j == known && count_state(S, (uint32_t)j) < 0))
            return -1;
        out[n++] = (trans_t){ .next = (uint32_t)j, .cls = (uint32_t)c };
    }
    while (S->ntrans + n > S->transcap) {
        size_t cap = S->transcap ? S->transcap * 2 : 256;
        trans_t *t = realloc(S->trans, sizeof *t * cap);
        if (!t)
            return -1;
        S->trans = t;
        S->transcap = cap;
    }
    st = &S->tab.st[i]; /* the table may have grown below */
    st->tfirst = (uint32_t)S->ntrans;
    for (uint32_t t = 0; t < n; t++) {
        uint64_t m = S->cls[k][out[t].cls].n;
        st->count += m * S->tab.st[out[t].next].count;
        st->hold += m * S->tab.st[out[t].next].hold;
        out[t].cum = st->count;
        S->trans[S->ntrans++] = out[t];
    }
    st->tend = (uint32_t)S->ntrans;
    return 0;
}

static int count_worlds(picket_sampler_t *S, char *err, size_t errlen)
{
    order_suits(S);
    for (int k = NSUITS - 1; k >= 0; k--)
        if (build_classes(S, k, err, errlen) < 0)
            return -1;
    if (table_find(&S->tab, 0) < 0 || count_state(S, 0) < 0)
        return fail(err, errlen, "out of memory");
    S->worlds = S->tab.st[0].count;
    S->holdings = S->tab.st[0].hold;
    return 0;
}

/* ---------------------------------------------------------------- public */

void picket_sampler_free(picket_sampler_t *S)
{
    if (!S)
        return;
    free(S->tab.st);
    free(S->tab.slot);
    free(S->trans);
    free(S);
}

/* One pass of the programme over the view, with the ABOVE rules in `variant` counted as "at
 * most" and the others not at all. */
static int prepare_pass(picket_sampler_t *S, const picket_view_t *v, int mode, int variant, char *err, size_t errlen)
{
    /* Forget the last view, keep the memory. */
    memset(S, 0, offsetof(picket_sampler_t, tab));
    S->ntrans = S->tab.n = 0;
    if (S->tab.slot)
        memset(S->tab.slot, 0, sizeof *S->tab.slot * S->tab.nslot);
    if (v->seat < 0 || v->seat > 1 || !cards_pack(v->rules.deck))
        return fail(err, errlen, "the view has no seat or no pack");
    S->v = *v;
    S->mode = mode;
    S->variant = variant;
    S->sink = v->rules.declarations == PK_DECL_MAY_SINK;
    if (v->pub.hand_no <= 0) {
        S->trivial = 1;
        S->worlds = S->holdings = 1;
        return 0;
    }
    return read_view(S, err, errlen) < 0 || count_worlds(S, err, errlen) < 0 ? -1 : 0;
}

/* The worlds of a view whose rules include "beats the claim" ones the programme cannot carry
 * (calls=cavendish: younger's sets, or unsuited sequences, not good and not shown yet): by
 * inclusion and exclusion, worlds = sum over subsets T of (-1)^|T| worlds(T "at most"); the
 * programme is left over the view without them, and draws reject the worlds that break them. */
static int prepare_above(picket_sampler_t *S, const picket_view_t *v, int mode, char *err, size_t errlen)
{
    int above = S->above;
    int64_t worlds = 0, holdings = 0;
    for (int t = above; t > 0; t = (t - 1) & above) {
        if (prepare_pass(S, v, mode, t, err, errlen) < 0)
            return -1;
        int sign = __builtin_popcount((unsigned)t) % 2 ? -1 : 1;
        worlds += sign * (int64_t)S->worlds;
        holdings += sign * (int64_t)S->holdings;
    }
    if (prepare_pass(S, v, mode, 0, err, errlen) < 0)
        return -1;
    worlds += (int64_t)S->worlds;
    holdings += (int64_t)S->holdings;
    S->worlds = worlds > 0 ? (uint64_t)worlds : 0;
    S->holdings = holdings > 0 ? (uint64_t)holdings : 0;
    return 0;
}

int picket_sampler_prepare(picket_sampler_t *S, const picket_view_t *v, int mode, char *err, size_t errlen)
{
    if (prepare_pass(S, v, mode, 0, err, errlen) < 0 || (S->above && prepare_above(S, v, mode, err, errlen) < 0))
        return -1;
    if (S->trivial)
        return 0;
    /* What the partie was worth when this hand was dealt: the same for every world. */
    picket_state_t mark;
    memset(&mark, 0, sizeof mark);
    mark.rules = v->rules;
    mark.pub = v->pub;
    picket_partie_mark(&mark);
    S->partie_hand = mark.partie_hand;
    S->partie_before = mark.partie_before;
    S->partie_unit = mark.partie_unit;
    /* What the view knows besides its cards (the opponent's cards it has seen, and so on) must
     * be what the rules make of them: one world must give the view back. */
    if (S->worlds > 0) {
        rng_t rng;
        picket_state_t w;
        picket_view_t back;
        rng_seed(&rng, 1);
        picket_sampler_draw(S, &rng, NULL, &w);
        picket_view_from_state(&w, S->me, &back);
        const char *diff = picket_view_diff(&back, v);
        if (diff) {
            if (err && errlen)
                snprintf(err, errlen, "the view's %s does not follow from its cards", diff);
            S->worlds = S->holdings = 0;
            return -1;
        }
    }
    return 0;
}

picket_sampler_t *picket_sampler_new(const picket_view_t *v, int mode, char *err, size_t errlen)
{
    picket_sampler_t *S = calloc(1, sizeof *S);
    if (!S) {
        fail(err, errlen, "out of memory");
    } else if (picket_sampler_prepare(S, v, mode, err, errlen) < 0) {
        picket_sampler_free(S);
        S = NULL;
    }
    return S;
}

uint64_t picket_sampler_worlds(const picket_sampler_t *S) { return S->worlds; }

uint64_t picket_sampler_holdings(const picket_sampler_t *S) { return S->holdings; }

/* P's unplaced cards: one walk down the counts. */
static cardset_t draw_holding(const picket_sampler_t *S, rng_t *rng)
{
    cardset_t p = S->held;
    uint32_t i = 0;
    int flat = S->mode == PK_SAMPLER_BIAS_FLAT;
    uint64_t r = flat ? 0 : rng_below64(rng, S->tab.st[0].count); /* all the programme's worlds */
    for (int k = 0; k < NSUITS; k++) {
        const state_t *at = &S->tab.st[i], *st = S->tab.st;
        uint32_t lo = at->tfirst, hi = at->tend - 1, pick;
        if (flat) {
            /* Wrong on purpose: every class that leads somewhere is equally likely. */
            uint32_t live[1024], n = 0;
            for (uint32_t t = lo; t < at->tend && n < 1024; t++)
                if (st[S->trans[t].next].count)
                    live[n++] = t;
            lo = live[rng_below(rng, n)];
            pick = rng_below(rng, S->cls[k][S->trans[lo].cls].n);
        } else {
            while (lo < hi) {
                uint32_t mid = lo + (hi - lo) / 2;
                if (S->trans[mid].cum > r)
                    hi = mid;
                else
                    lo = mid + 1;
            }
            uint64_t off = r - (lo > at->tfirst ? S->trans[lo - 1].cum : 0), child = st[S->trans[lo].next].count;
            pick = (uint32_t)(off / child);
            r = off % child;
        }
        const trans_t *t = &S->trans[lo];
        p |= S->sub[k][S->cls[k][t->cls].first + pick];
        i = t->next;
    }
    return p;
}

/* Where pick falls among the weights w[from], w[from + 1], ... (the last, w[last], takes the
 * rest); pick is left within it. */
static int weight_walk(const uint64_t *w, int from, int last, uint64_t *pick)
{
    int i = from;
    for (; i < last && *pick >= w[i]; i++)
        *pick -= w[i];
    return i;
}

/* K inside P's unplaced cards and X inside the rest, uniform among splits the Blank rule
 * allows. */
static void draw_split(const picket_sampler_t *S, rng_t *rng, cardset_t plu, cardset_t *K, cardset_t *X)
{
    cardset_t rest = S->lu & ~plu;
    if (S->d_known) {
        *K = plu & S->pool1;
        *X = rest & S->pool1;
        return;
    }
    if (S->blank == BLANK_ANY) {
        *K = picket_random_subset(rng, plu, S->nK);
        *X = picket_random_subset(rng, rest, S->nX);
        return;
    }
    int jp = cardset_count(plu & S->kqj), jn = cardset_count(rest & S->kqj);
    int op = cardset_count(plu & ~S->kqj), on = cardset_count(rest & ~S->kqj); /* the other cards */
    int a = 0, b = 0;
    if (S->blank == BLANK_SOME) {
        /* How many courts go to K (a) and to X (b): weights f(a) g(b), never a = b = 0. Draw a
         * by its share of the total, then b given a. */
        uint64_t f[CARD_COUNT], g[CARD_COUNT], row[CARD_COUNT], G = 0, total = 0;
        for (int j = 0; j <= jn; j++)
            G += g[j] = cards_choose(jn, j) * cards_choose(on, S->nX - j);
        for (int i = 0; i <= jp; i++) {
            f[i] = cards_choose(jp, i) * cards_choose(op, S->nK - i);
            total += row[i] = f[i] * G - (i == 0 ? f[0] * g[0] : 0);
        }
        uint64_t pick = rng_below64(rng, total);
        a = weight_walk(row, 0, jp, &pick);
        /* pick is now uniform below a's weight: b follows from it, skipping b = 0 if a = 0. */
        pick /= f[a];
        b = weight_walk(g, a == 0, jn, &pick);
        assert(a + b > 0 && a <= jp && b <= jn);
    }
    *K = picket_random_subset(rng, plu & S->kqj, a) | picket_random_subset(rng, plu & ~S->kqj, S->nK - a);
    *X = picket_random_subset(rng, rest & S->kqj, b) | picket_random_subset(rng, rest & ~S->kqj, S->nX - b);
}

/* Fill the stock positions [from, to) not yet known (0xff) with a set's cards in random order. */
static void fill_block(rng_t *rng, uint8_t *at, int from, int to, cardset_t cards)
{
    uint8_t c[PK_STOCK];
    int n = cardset_to_bytes(cards, c);
    rng_shuffle_u8(rng, c, n);
    for (int i = from, j = 0; i < to && j < n; i++)
        if (at[i] == 0xff)
            at[i] = c[j++];
}

/* What seat a knows in a world, as the rules would have it: its cards, what it looked at in the
 * stock, and what the other seat (b) showed and played. */
static void rules_knowledge(const picket_sampler_t *S, picket_state_t *st, int a, cardset_t drawn_a, cardset_t drawn_b)
{
    const picket_pub_t *t = &st->pub;
    int b = 1 - a;
    int peek_to = S->share < S->nstock ? S->share : S->nstock;
    cardset_t peeks = a == S->e && t->drawn[a] > 0 ? stock_block(st->stock, S->de, peek_to) : 0;
    cardset_t undrawn = stock_block(st->stock, S->de + S->dy, S->nstock);
    cardset_t left = t->leftover == 1 || (t->leftover == 2 && a == S->e) ? undrawn : 0;
    picket_know_t *k = &st->know[a];
    k->seen = st->dealt[a] | drawn_a | peeks | left | t->blank_shown[b] | t->decl_shown[b] | t->played[b];
    k->stock_known = undrawn & (peeks | left);
    /* A shown Blank may be among b's discards: after his exchange a knows what it saw him draw
     * or show. */
    k->opp_known = (t->discarded[b] > 0 ? (drawn_b & peeks) | t->decl_shown[b] : t->blank_shown[b]) & ~t->played[b];
}

/* The full state of a world: the view's record and the seat's knowledge, the cards placed, and
 * the opponent's knowledge as the rules would have it. */
static void build_state(const picket_sampler_t *S, rng_t *rng, cardset_t K, cardset_t X, cardset_t R, cardset_t L,
                        picket_state_t *st)
{
    const picket_view_t *v = &S->v;
    const picket_pub_t *t = &v->pub;
    int me = S->me, opp = S->opp, e = S->e, y = S->y;
    picket_init(st, &v->rules, rng_next(rng));
    st->pub = *t;
    memcpy(st->stock, S->pinned, (size_t)S->nstock);
    cardset_t opp_drawn = R | S->fixed_r;
    int ye = S->de + S->dy;
    fill_block(rng, st->stock, 0, S->de, me == e ? S->my_drawn : opp_drawn);
    fill_block(rng, st->stock, S->de, ye, me == y ? S->my_drawn : R);
    fill_block(rng, st->stock, ye, S->nstock, L | S->stock_seen);
    st->dealt[me] = v->dealt;
    st->discard[me] = v->discards;
    st->hand[me] = v->hand;
    st->dealt[opp] = K | X;
    st->discard[opp] = X;
    st->hand[opp] = (K | opp_drawn) & ~t->played[opp];
    for (int s = 0; s < 2; s++)
        st->holds_blank[s] = (int8_t)picket_is_blank(st->dealt[s]);
    st->set_aside = (int8_t)(t->discarded[y] > 0 && t->discarded[e] == 0 ? t->discarded[y] : 0);
    for (int a = 0; a < 2; a++)
        rules_knowledge(S, st, a, a == me ? S->my_drawn : opp_drawn, a == me ? opp_drawn : S->my_drawn);
    st->partie_hand = S->partie_hand;
    st->partie_before = S->partie_before;
    st->partie_unit = S->partie_unit;
    /* declarations=may-sink, younger to answer: elder's call is among his cards (which of the
     * calls with the claim he said is not known: the first; the view of elder keeps no more). */
    int due = picket_declaring_cat(t);
    if (t->phase == PK_PH_ANSWER && due >= 0)
        st->called = picket_call_matching(&v->rules, due, st->hand[e], t->claim[due - PK_CAT_RUFF][e]);
}

/* Does a holding beat the claims of the view's ABOVE rules? */
static int beats_claims(const picket_sampler_t *S, cardset_t P)
{
    if (S->above & ABOVE_SETS) {
        picket_sets_t t;
        picket_sets(P, &t);
        if (picket_claim_cmp(t.best.count, t.best.rank, S->above_c[0][0], S->above_c[0][1]) <= 0)
            return 0;
    }
    if (S->above & ABOVE_SEQ) {
        picket_sequences_t q;
        picket_sequences(P, 1, &q);
        if (picket_claim_cmp(q.best.len, q.best.top, S->above_c[1][0], S->above_c[1][1]) <= 0)
            return 0;
    }
    return 1;
}

int picket_sampler_draw(picket_sampler_t *S, rng_t *rng, picket_world_t *w, picket_state_t *st)
{
    if (S->worlds == 0)
        return -1;
    if (S->trivial) {
        if (w)
            memset(w, 0, sizeof *w);
        if (st) {
            picket_init(st, &S->v.rules, rng_next(rng));
            st->pub = S->v.pub;
        }
        return 0;
    }
    cardset_t plu = draw_holding(S, rng), K, X;
    for (long tries = 0; S->above && !beats_claims(S, plu | S->fixed_r); tries++) {
        if (tries > (1L << 24))
            return -1; /* not reached: the count says such worlds exist */
        plu = draw_holding(S, rng);
    }
    draw_split(S, rng, plu, &K, &X);
    cardset_t R = plu & ~K, L = S->lu & ~plu & ~X;
    if (w) {
        w->opp_dealt = K | X;
        w->opp_discard = X;
        w->opp_holding = plu | S->fixed_r;
        w->stock_unseen = R | L;
    }
    if (st)
        build_state(S, rng, K, X, R, L, st);
    return 0;
}

/* ---------------------------------------------------------------- game_t */

int picket_sample_world(const void *view, rng_t *rng, void *state_out)
{
    char err[GAME_ERR_LEN];
    picket_sampler_t *S = picket_sampler_new(view, PK_SAMPLER_EXACT, err, sizeof err);
    if (!S)
        return -1;
    int rc = picket_sampler_draw(S, rng, NULL, state_out);
    picket_sampler_free(S);
    return rc;
}
