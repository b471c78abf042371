/* The heuristic Picket player: rules of thumb a casual player follows, as a value per move.
 *
 * Exchange: keep long suits, high cards and sequence and set chances, throw the rest; each card
 * thrown is worth the average value of a fresh card. Play: cash sure winners, win tricks with the
 * cheapest card that wins, lead low from long suits otherwise, and keep Kings guarded. It decides
 * from a view only, and knows nothing a seat may not know.
 */
#include <string.h>

#include "picket.h"
#include "picket_score.h"

/* What a fresh card from the stock is worth to the exchange, on average (tuned by self-play). */
static const double DRAW_VALUE_ELDER = 1.15, DRAW_VALUE_YOUNGER = 0.95;

/* Rough worth of a hand after the exchange, in points. */
static double hand_value(cardset_t h, int unsuited)
{
    double v = 0;
    for (int s = 0; s < CARD_SUITS; s++) {
        unsigned bits = cardset_suit_bits(h, s);
        int len = __builtin_popcount(bits);
        if (bits & (1u << RANK_A))
            v += 2.0;
        if (bits & (1u << RANK_K))
            v += len >= 2 ? 1.3 : 0.4;
        if (bits & (1u << RANK_Q))
            v += len >= 3 ? 0.7 : 0.2;
        if (len >= 5)
            v += 0.9 * (len - 4);
        if (!unsuited) {
            /* Runs of three or more score; a run of two may grow into one. */
            int run = 0;
            for (int r = 0; r <= CARD_RANKS; r++) {
                if (r < CARD_RANKS && (bits & (1u << r))) {
                    run++;
                    continue;
                }
                if (run >= 3)
                    v += 0.6 * pk_sequence_points(run);
                else if (run == 2)
                    v += 0.4;
                run = 0;
            }
        }
    }
    if (unsuited) {
        pk_sequences_t q;
        pk_sequences(h, 1, &q);
        v += 0.5 * q.points;
    }
    pk_ruff_t ruff;
    pk_ruff(h, &ruff);
    v += 0.5 * ruff.points;
    for (int r = RANK_T; r <= RANK_A; r++) {
        int c = cardset_count(h & cardset_rank(r));
        if (c == 4)
            v += 11;
        else if (c == 3)
            v += 3;
        else if (c == 2 && r >= RANK_K)
            v += 0.6;
    }
    return v;
}

/* Cards of a suit higher than `rank` that the seat has not accounted for (may be out there). */
static cardset_t higher_unseen(const picket_view_t *v, int card)
{
    int s = card_suit(card), r = card_rank(card);
    cardset_t above = 0;
    for (int q = r + 1; q < CARD_RANKS; q++)
        above |= cardset_of(card_make(s, q));
    cardset_t gone = v->hand | v->pub.played[0] | v->pub.played[1] | v->discards;
    return above & cards_pack(v->rules.deck) & ~gone;
}

static double play_value(const picket_view_t *v, int card)
{
    const picket_pub_t *p = &v->pub;
    int me = v->seat;
    cardset_t hand = v->hand;
    int s = card_suit(card), r = card_rank(card);
    int len = cardset_count(hand & cardset_suit(s));
    int lead = p->trick_card[1 - me];
    if (p->trick_card[p->leader] >= 0 && p->leader != me) {
        /* Following. */
        if (card_suit(lead) == s) {
            if (r > card_rank(lead))
                return 10.0 - 0.1 * r + (r >= RANK_T ? 0.5 : 0.0);
            return 5.0 - 0.1 * r;
        }
        /* Void: throw the cheapest card, from a long suit, never a guard or an Ace. */
        double cost = 0.1 * r + (r == RANK_A ? 2.0 : 0.0) + (r == RANK_K && len == 2 ? 1.0 : 0.0);
        cost += (r < RANK_K && len == 2 && (hand & cardset_of(card_make(s, RANK_K)))) ? 1.0 : 0.0;
        return 3.0 - cost + 0.05 * len;
    }
    /* Leading: cash a sure winner (from the longest suit first), else lead low from length. */
    if (!higher_unseen(v, card))
        return 8.0 + 0.1 * len + 0.01 * r;
    double val = 4.0 + 0.3 * len - 0.05 * r;
    if (r == RANK_K && len == 1)
        val -= 2.0; /* a lone King led falls to the Ace */
    if (len == 2 && (hand & cardset_of(card_make(s, RANK_K))) && r != RANK_K)
        val -= 1.5; /* leading the guard bares the King */
    return val;
}

static double discard_value(const picket_view_t *v, cardset_t d)
{
    int elder = v->seat == pk_elder(&v->pub);
    double per = elder ? DRAW_VALUE_ELDER : DRAW_VALUE_YOUNGER;
    return hand_value(v->hand & ~d, v->rules.sequences == PK_SEQ_UNSUITED) + per * cardset_count(d);
}

/* The best card to lead in a suit, by play_value, or a low value if the suit is not held. */
static double best_lead_in(const picket_view_t *v, int suit)
{
    double best = -1.0;
    for (cardset_t c = v->hand & cardset_suit(suit); c; c &= c - 1) {
        double val = play_value(v, cardset_first(c));
        if (val > best)
            best = val;
    }
    return best;
}

void picket_heuristic_evaluate(const void *view, const double *params, const game_move_t *moves, int n, double *values)
{
    (void)params; /* no declared weights yet */
    const picket_view_t *v = view;
    for (int i = 0; i < n; i++) {
        const game_move_t *m = &moves[i];
        double val = 0;
        switch (m->kind) {
        case PK_MV_DISCARD:
            val = discard_value(v, m->cards);
            break;
        case PK_MV_BLANK: {
            /* A Blank keeps its Aces and Tens and throws the small cards. */
            int small = cardset_count(v->hand & ~(cardset_rank(RANK_A) | cardset_rank(RANK_T)));
            int want = small < 1 ? 1 : small > pk_elder_share(&v->rules) ? pk_elder_share(&v->rules) : small;
            val = -(double)((m->arg - want) * (m->arg - want));
            break;
        }
        case PK_MV_CALL:
            /* Seeing the leftover is free when the call names a suit he means to lead anyway. */
            val = m->arg < 0 ? 1.0 : (v->hand & cardset_suit(m->arg) ? 5.0 + best_lead_in(v, m->arg) : 0.0);
            break;
        case PK_MV_LEFTOVER:
            val = m->arg ? 0.0 : 1.0; /* showing tells elder as much as it tells me */
            break;
        case PK_MV_APPOINT: {
            /* Make elder lead into my strength. */
            cardset_t mine = v->hand & cardset_suit(m->arg);
            val = cardset_count(mine) + ((mine & cardset_rank(RANK_A)) ? 2.0 : 0.0) +
                  ((mine & cardset_rank(RANK_K)) ? 1.0 : 0.0);
            break;
        }
        case PK_MV_PLAY:
            val = play_value(v, m->arg);
            break;
        default:
            break;
        }
        values[i] = val;
    }
}
