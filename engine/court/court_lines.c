/* court_lines: Lines, the card order and a trick's winner (court_lines.h). */
#include "court_lines.h"

#include <string.h>

int court_card_value(int card)
{
    int r = card_rank(card), s = card_suit(card);
    if (s == SUIT_H)
        return 3 * CARD_RANKS + r; /* every Heart above every other card */
    static const int8_t SUIT_ORDER[CARD_SUITS] = { [SUIT_C] = 1, [SUIT_D] = 2, [SUIT_H] = 0, [SUIT_S] = 0 };
    return 3 * r + SUIT_ORDER[s];
}

/* 1 for a court card (King, Queen, Knave). */
static int court_is_court_card(int card)
{
    int r = card_rank(card);
    return r == RANK_J || r == RANK_Q || r == RANK_K;
}

/* What a line needs of each card, worked out once a call. */
typedef struct feat {
    int8_t card, rank;
    uint8_t heart, court;
    int value;                    /* court_card_value */
} feat_t;

/* Consecutive distinct ranks over the cards f[idx[0..m)], the Ace counted high or low; with the
 * Lead (lead_at: a position in idx, or -1), the Lead at one end. */
static int is_run(const feat_t *f, const int *idx, int m, int lead_at)
{
    unsigned hi_mask = 0, lo_mask = 0;
    for (int i = 0; i < m; i++) {
        int r = f[idx[i]].rank;
        hi_mask |= 1u << (r + 1);                  /* ranks 2..A as bits 1..13 */
        lo_mask |= 1u << (r == RANK_A ? 0 : r + 1); /* the Ace as bit 0, below the Two */
    }
    for (int pass = 0; pass < 2; pass++) {
        unsigned mask = pass ? lo_mask : hi_mask;
        if (__builtin_popcount(mask) != m)
            return 0; /* a rank twice */
        int lo = __builtin_ctz(mask), hi = 31 - __builtin_clz(mask);
        if (hi - lo != m - 1)
            continue;
        if (lead_at >= 0) {
            int r = f[idx[lead_at]].rank, b = pass && r == RANK_A ? 0 : r + 1;
            if (b != lo && b != hi)
                continue;
        }
        return 1;
    }
    return 0;
}

/* The kind of the cards f[idx[0..m)] as one line of class cls (CC_CLASS_1 or 2: 3 or 4 cards;
 * CC_CLASS_3: 2 cards), or 0 if they make none. */
static int kind_of(const feat_t *f, const int *idx, int m, int cls, int lead_at)
{
    int same_rank = 1, hearts = 1, courts = 1;
    for (int i = 0; i < m; i++) {
        same_rank &= f[idx[i]].rank == f[idx[0]].rank;
        hearts &= f[idx[i]].heart;
        courts &= f[idx[i]].court;
    }
    if (cls == CC_CLASS_3)
        return same_rank ? CC_KIND_PAIR : hearts ? CC_KIND_VALENTINE : courts ? CC_KIND_ETIQUETTE : 0;
    if (same_rank)
        return CC_KIND_TRIO;
    if (is_run(f, idx, m, lead_at))
        return CC_KIND_SEQUENCE;
    return hearts ? CC_KIND_SYMPATHY : courts ? CC_KIND_COURT : 0;
}

int court_line_compare(const court_line_t *a, const court_line_t *b)
{
    if (a->cls != b->cls)
        return a->cls - b->cls;
    if (a->kind != b->kind)
        return a->kind - b->kind;
    if (a->len != b->len)
        return a->len - b->len;
    int n = a->nown < b->nown ? a->nown : b->nown;
    for (int i = 0; i < n; i++)
        if (a->own[i] != b->own[i])
            return court_card_value(a->own[i]) - court_card_value(b->own[i]);
    return a->nown - b->nown;
}

void court_best_line(const int8_t *cards, int n, int lead, court_line_t *out)
{
    memset(out, 0, sizeof *out);
    if (n > CC_PER_TRICK)
        n = CC_PER_TRICK;
    if (n < 2)
        return; /* a line takes two of one's own cards at least */
    /* The own cards best first (so every subset below is best first too), then the Lead. */
    feat_t f[CC_PER_TRICK + 1];
    memset(f, 0, sizeof f);
    for (int i = 0; i < n; i++) {
        f[i].card = cards[i];
        f[i].value = court_card_value(cards[i]);
    }
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && f[j].value > f[j - 1].value; j--) {
            feat_t t = f[j];
            f[j] = f[j - 1];
            f[j - 1] = t;
        }
    if (lead >= 0) {
        f[n].card = (int8_t)lead;
        f[n].value = court_card_value(lead);
    }
    for (int i = 0; i < n + (lead >= 0); i++) {
        f[i].rank = (int8_t)card_rank(f[i].card);
        f[i].heart = card_suit(f[i].card) == SUIT_H;
        f[i].court = court_is_court_card(f[i].card);
    }
    /* The subsets of own cards, the three first: {0,1,2}, {0,1}, {0,2}, {1,2} (n = 3), {0,1}. */
    static const int SUBSETS[4][3] = { { 0, 1, 2 }, { 0, 1, -1 }, { 0, 2, -1 }, { 1, 2, -1 } };
    int first = n == 3 ? 0 : 1, last = n == 3 ? 4 : 2;
    /* Class 1 beats everything: try it first; then class 2 (the three alone), then class 3. */
    for (int cls = CC_CLASS_1; cls >= CC_CLASS_3 && out->cls == CC_CLASS_NONE; cls--) {
        if (cls == CC_CLASS_1 && lead < 0)
            continue;
        for (int k = first; k < last; k++) {
            int m = SUBSETS[k][2] >= 0 ? 3 : 2;
            if ((cls == CC_CLASS_2 && m != 3) || (cls == CC_CLASS_3 && m != 2))
                continue;
            int idx[4] = { SUBSETS[k][0], SUBSETS[k][1], SUBSETS[k][2], -1 }, len = m, lead_at = -1;
            if (cls == CC_CLASS_1) {
                idx[m] = n;
                lead_at = m;
                len = m + 1;
            }
            int kind = kind_of(f, idx, len, cls, lead_at);
            if (!kind)
                continue;
            court_line_t cand;
            memset(&cand, 0, sizeof cand);
            cand.cls = (int8_t)cls;
            cand.kind = (int8_t)kind;
            cand.len = (int8_t)len;
            cand.nown = (int8_t)m;
            for (int i = 0; i < m; i++)
                cand.own[i] = f[idx[i]].card;
            if (court_line_compare(&cand, out) > 0)
                *out = cand;
        }
    }
}

const char *court_kind_name(int cls, int kind)
{
    static const char *const BIG[] = { "none", "court", "sympathy", "sequence", "trio" };
    static const char *const SMALL[] = { "none", "etiquette", "valentine", "pair" };
    if (cls == CC_CLASS_3)
        return kind >= 0 && kind <= CC_KIND_PAIR ? SMALL[kind] : "none";
    if (cls == CC_CLASS_1 || cls == CC_CLASS_2)
        return kind >= 0 && kind <= CC_KIND_TRIO ? BIG[kind] : "none";
    return "none";
}

int court_trick_winner(int players, const int8_t played[][CC_PER_TRICK], const int8_t *count, unsigned in, int lead,
                       court_line_t *line)
{
    int best = -1, best_card = -1, card_winner = -1;
    court_line_t bl, l;
    memset(&bl, 0, sizeof bl);
    for (int s = 0; s < players; s++) {
        if (!(in & (1u << s)))
            continue;
        court_best_line(played[s], count[s], lead, &l);
        if (l.cls != CC_CLASS_NONE && (best < 0 || court_line_compare(&l, &bl) > 0)) {
            best = s;
            bl = l;
        }
        for (int i = 0; i < count[s] && i < CC_PER_TRICK; i++)
            if (best_card < 0 || court_card_value(played[s][i]) > court_card_value(best_card)) {
                best_card = played[s][i];
                card_winner = s;
            }
        if (card_winner < 0)
            card_winner = s; /* a seat in with no card yet */
    }
    if (line) {
        memset(line, 0, sizeof *line);
        if (best >= 0)
            *line = bl;
    }
    return best >= 0 ? best : card_winner;
}
