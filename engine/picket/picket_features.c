/* picket_features: the exchange net's inputs (picket_features.h). */
#include "picket_features.h"

/* A card of the 36-card pack as suit * 9 + rank from the Six. */
static int card_index(int card) { return card_suit(card) * 9 + card_rank(card) - RANK_6; }

static int add_cards(int *active, int n, int base, cardset_t set)
{
    for (; set; set &= set - 1)
        active[n++] = base + card_index(cardset_first(set));
    return n;
}

int picket_exchange_shape(cardset_t kept, int *active, int n)
{
    for (int s = 0; s < CARD_SUITS; s++)
        active[n++] = PICKET_XF_SHAPE + s * 10 + cardset_count(kept & cardset_suit(s));
    for (int s = 0; s < CARD_SUITS; s++) {
        int run = 0;
        for (unsigned b = cardset_suit_bits(kept, s); b; b &= b << 1)
            run++;
        active[n++] = PICKET_XF_SUIT_RUNS + s * 10 + run;
    }
    for (int r = RANK_6; r <= RANK_A; r++) {
        int count = 0;
        for (int s = 0; s < CARD_SUITS; s++)
            count += cardset_has(kept, card_make(s, r));
        active[n++] = PICKET_XF_RANK_COUNTS + (r - RANK_6) * 5 + count;
    }
    return n;
}

int picket_exchange_features(const picket_view_t *v, cardset_t discard, int *active)
{
    const picket_rules_t *r = &v->rules;
    int n = add_cards(active, 0, 0, v->hand & ~discard);
    n = add_cards(active, n, 36, discard);
    n = add_cards(active, n, 72, (v->know.opp_known | v->know.stock_known) & ~v->hand);
    active[n++] = v->seat == picket_elder(&v->pub) ? 108 : 109;
    /* the rules, each input a value other than the first */
    const int rule_on[] = { r->deck == 32, r->younger_draw == PK_YD_8, r->leftover == PK_LO_HIDDEN, r->leftover == PK_LO_YOUNGER_MAY_SHOW,
                            r->blank_order == PK_BO_SHOW_FIRST, r->ties == PK_TIES_ELDER, r->sequences == PK_SEQ_UNSUITED,
                            r->play_points == PK_PP_WINNER_TAKES, r->last_trick == PK_LT_ONE_OR_TWO, r->pique == PK_PQ_ANY_TIME };
    for (int k = 0; k < (int)(sizeof rule_on / sizeof rule_on[0]); k++)
        if (rule_on[k])
            active[n++] = 110 + k;
    int left = v->pub.stock_left < 0 ? 0 : v->pub.stock_left > 12 ? 12 : v->pub.stock_left;
    active[n++] = 120 + left;
    return picket_exchange_shape(v->hand & ~discard, active, n);
}
