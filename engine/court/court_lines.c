/* court_lines: Lines, the card order and a trick's winner (court_lines.h). */
#include "court_lines.h"

#include <string.h>

int cc_card_value(int card)
{
    int r = card_rank(card), s = card_suit(card);
    if (s == SUIT_H)
        return 3 * CARD_RANKS + r; /* every Heart above every other card */
    static const int8_t SUIT_ORDER[CARD_SUITS] = { [SUIT_C] = 1, [SUIT_D] = 2, [SUIT_H] = 0, [SUIT_S] = 0 };
    return 3 * r + SUIT_ORDER[s];
}

int cc_is_court(int card)
{
    int r = card_rank(card);
    return r == RANK_J || r == RANK_Q || r == RANK_K;
}

/* A run of consecutive ranks over the n cards (distinct ranks), the Ace counted high or low;
 * with a Lead (lead_at >= 0, an index into c), the Lead at one end of it. */
static int is_sequence(const int *c, int n, int lead_at)
{
    for (int ace_low = 0; ace_low < 2; ace_low++) {
        int r[4], lo = 99, hi = -99, dup = 0;
        for (int i = 0; i < n; i++) {
            r[i] = card_rank(c[i]);
            if (ace_low && r[i] == RANK_A)
                r[i] = -1;
            lo = r[i] < lo ? r[i] : lo;
            hi = r[i] > hi ? r[i] : hi;
            for (int j = 0; j < i; j++)
                dup |= r[j] == r[i];
        }
        if (dup || hi - lo != n - 1)
            continue;
        if (lead_at >= 0 && r[lead_at] != lo && r[lead_at] != hi)
            continue;
        return 1;
    }
    return 0;
}

/* The kind of the n cards as one line of class cls (CC_CLASS_1 or 2: 3 or 4 cards; CC_CLASS_3:
 * 2 cards), or 0 if they make none. lead_at: the Lead's index in c, or -1. */
static int kind_of(const int *c, int n, int cls, int lead_at)
{
    int same_rank = 1, hearts = 1, courts = 1;
    for (int i = 0; i < n; i++) {
        same_rank &= card_rank(c[i]) == card_rank(c[0]);
        hearts &= card_suit(c[i]) == SUIT_H;
        courts &= cc_is_court(c[i]);
    }
    if (cls == CC_CLASS_3)
        return same_rank ? CC_KIND_PAIR : hearts ? CC_KIND_VALENTINE : courts ? CC_KIND_ETIQUETTE : 0;
    if (same_rank)
        return CC_KIND_TRIO;
    if (is_sequence(c, n, lead_at))
        return CC_KIND_SEQUENCE;
    return hearts ? CC_KIND_SYMPATHY : courts ? CC_KIND_COURT : 0;
}

/* Own cards best first. */
static void sort_best_first(int8_t *c, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && cc_card_value(c[j]) > cc_card_value(c[j - 1]); j--) {
            int8_t t = c[j];
            c[j] = c[j - 1];
            c[j - 1] = t;
        }
}

int cc_line_compare(const cc_line_t *a, const cc_line_t *b)
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
            return cc_card_value(a->own[i]) - cc_card_value(b->own[i]);
    return a->nown - b->nown;
}

void cc_best_line(const int8_t *cards, int n, int lead, cc_line_t *out)
{
    memset(out, 0, sizeof *out);
    if (n > CC_PER_TRICK)
        n = CC_PER_TRICK;
    /* Every subset of 2 or 3 own cards, alone and with the Lead. */
    for (unsigned sub = 0; sub < (1u << n); sub++) {
        int k = __builtin_popcount(sub);
        if (k < 2)
            continue;
        int c[4], m = 0;
        cc_line_t cand;
        memset(&cand, 0, sizeof cand);
        for (int i = 0; i < n; i++)
            if (sub & (1u << i)) {
                c[m++] = cards[i];
                cand.own[cand.nown++] = cards[i];
            }
        sort_best_first(cand.own, cand.nown);
        for (int with_lead = 0; with_lead < 2; with_lead++) {
            int cls = with_lead ? CC_CLASS_1 : k == 3 ? CC_CLASS_2 : CC_CLASS_3, len = k, lead_at = -1;
            if (with_lead) {
                if (lead < 0)
                    continue;
                c[k] = lead;
                lead_at = k;
                len = k + 1;
            }
            int kind = kind_of(c, len, cls, lead_at);
            if (!kind)
                continue;
            cand.cls = (int8_t)cls;
            cand.kind = (int8_t)kind;
            cand.len = (int8_t)len;
            if (cc_line_compare(&cand, out) > 0)
                *out = cand;
        }
    }
}

const char *cc_kind_name(int cls, int kind)
{
    static const char *const BIG[] = { "none", "court", "sympathy", "sequence", "trio" };
    static const char *const SMALL[] = { "none", "etiquette", "valentine", "pair" };
    if (cls == CC_CLASS_3)
        return kind >= 0 && kind <= CC_KIND_PAIR ? SMALL[kind] : "none";
    if (cls == CC_CLASS_1 || cls == CC_CLASS_2)
        return kind >= 0 && kind <= CC_KIND_TRIO ? BIG[kind] : "none";
    return "none";
}

int cc_trick_winner(int players, const int8_t played[][CC_PER_TRICK], const int8_t *count, unsigned in, int lead,
                    cc_line_t *line)
{
    int best = -1, best_card = -1, card_winner = -1;
    cc_line_t bl, l;
    memset(&bl, 0, sizeof bl);
    for (int s = 0; s < players; s++) {
        if (!(in & (1u << s)))
            continue;
        cc_best_line(played[s], count[s], lead, &l);
        if (l.cls != CC_CLASS_NONE && (best < 0 || cc_line_compare(&l, &bl) > 0)) {
            best = s;
            bl = l;
        }
        for (int i = 0; i < count[s] && i < CC_PER_TRICK; i++)
            if (best_card < 0 || cc_card_value(played[s][i]) > cc_card_value(best_card)) {
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
