/* The heuristic Picket player: rules of thumb a casual player follows, as a value per move.
 *
 * Exchange: keep long suits, high cards and sequence and set chances, throw the rest; each card
 * thrown is worth the average value of a fresh card. Play: cash sure winners, win tricks with the
 * cheapest card that wins, lead low from long suits otherwise, and keep Kings guarded. It decides
 * from a view only, and knows nothing a seat may not know. Every weight is a declared parameter
 * (PICKET_HEURISTIC_PARAMS), so a bot can offer it as an option and a tuner can move it; with the
 * defaults the values are the hand-tuned ones, bit for bit.
 */
#include <string.h>

#include "picket.h"
#include "picket_score.h"

/* The weights, each a declared parameter (game_param_t) that the heuristic bot offers as the
 * option heuristic.picket.<name>; the defaults are the hand-tuned values. W_ names the index. */
enum {
    W_DRAW_ELDER, W_DRAW_YOUNGER,
    W_HAND_ACE, W_HAND_KING_GUARDED, W_HAND_KING_BARE, W_HAND_QUEEN_GUARDED, W_HAND_QUEEN_BARE,
    W_HAND_LENGTH, W_HAND_SEQUENCE, W_HAND_RUN_OF_TWO, W_HAND_UNSUITED_SEQUENCES, W_HAND_RUFF,
    W_HAND_QUATORZE, W_HAND_TERNARY, W_HAND_HIGH_PAIR,
    W_FOLLOW_WIN, W_FOLLOW_WIN_RANK, W_FOLLOW_WIN_HONOUR, W_FOLLOW_LOSE, W_FOLLOW_LOSE_RANK,
    W_VOID_BASE, W_VOID_RANK, W_VOID_ACE, W_VOID_GUARDED_KING, W_VOID_GUARD, W_VOID_LENGTH,
    W_LEAD_WINNER, W_LEAD_WINNER_LENGTH, W_LEAD_WINNER_RANK, W_LEAD_LOW, W_LEAD_LENGTH, W_LEAD_RANK,
    W_LEAD_LONE_KING, W_LEAD_BARE_KING,
    W_CALL_NONE, W_CALL_HELD, W_APPOINT_ACE, W_APPOINT_KING,
    W_COUNT
};
_Static_assert((int)W_COUNT == (int)PICKET_HEURISTIC_NPARAMS, "picket.h counts the heuristic's parameters");

const game_param_t PICKET_HEURISTIC_PARAMS[PICKET_HEURISTIC_NPARAMS] = {
    /* What a fresh card from the stock is worth to the exchange, on average (tuned by self-play). */
    [W_DRAW_ELDER] = { "draw_value_elder", 1.15, 0, 5, "exchange: worth of each card elder draws" },
    [W_DRAW_YOUNGER] = { "draw_value_younger", 0.95, 0, 5, "exchange: worth of each card younger draws" },
    /* The rough worth of a hand after the exchange, in points. */
    [W_HAND_ACE] = { "hand_ace", 2.0, 0, 20, "hand: an Ace" },
    [W_HAND_KING_GUARDED] = { "hand_king_guarded", 1.3, 0, 20, "hand: a King with another card of its suit" },
    [W_HAND_KING_BARE] = { "hand_king_bare", 0.4, 0, 20, "hand: a King alone in its suit" },
    [W_HAND_QUEEN_GUARDED] = { "hand_queen_guarded", 0.7, 0, 20, "hand: a Queen with two more of its suit" },
    [W_HAND_QUEEN_BARE] = { "hand_queen_bare", 0.2, 0, 20, "hand: a Queen with fewer guards" },
    [W_HAND_LENGTH] = { "hand_length", 0.9, 0, 20, "hand: each card over four in a suit of five or more" },
    [W_HAND_SEQUENCE] = { "hand_sequence", 0.6, 0, 5, "hand: times the points of each suited run of three or more" },
    [W_HAND_RUN_OF_TWO] = { "hand_run_of_two", 0.4, 0, 20, "hand: a suited run of two, which may grow" },
    [W_HAND_UNSUITED_SEQUENCES] = { "hand_unsuited_sequences", 0.5, 0, 5,
                                    "hand: times the sequence points, under sequences=unsuited" },
    [W_HAND_RUFF] = { "hand_ruff", 0.5, 0, 5, "hand: times the Ruff's points" },
    [W_HAND_QUATORZE] = { "hand_quatorze", 11, 0, 50, "hand: four of a rank, Ten or better" },
    [W_HAND_TERNARY] = { "hand_ternary", 3, 0, 50, "hand: three of a rank, Ten or better" },
    [W_HAND_HIGH_PAIR] = { "hand_high_pair", 0.6, 0, 20, "hand: two Kings or two Aces" },
    /* The play: following suit. */
    [W_FOLLOW_WIN] = { "follow_win", 10.0, 0, 100, "play: following with a card that wins the trick" },
    [W_FOLLOW_WIN_RANK] = { "follow_win_rank", 0.1, 0, 5, "play: less per rank of the winning card (win cheaply)" },
    [W_FOLLOW_WIN_HONOUR] = { "follow_win_honour", 0.5, 0, 20, "play: winning with a Ten or better" },
    [W_FOLLOW_LOSE] = { "follow_lose", 5.0, 0, 100, "play: following with a card that loses the trick" },
    [W_FOLLOW_LOSE_RANK] = { "follow_lose_rank", 0.1, 0, 5, "play: less per rank of the losing card" },
    /* Void in the suit led: throw the cheapest card, from a long suit, never a guard or an Ace. */
    [W_VOID_BASE] = { "void_base", 3.0, 0, 100, "play: a card thrown when void in the suit led" },
    [W_VOID_RANK] = { "void_rank", 0.1, 0, 5, "play: less per rank of the card thrown" },
    [W_VOID_ACE] = { "void_ace", 2.0, 0, 20, "play: less for throwing an Ace" },
    [W_VOID_GUARDED_KING] = { "void_guarded_king", 1.0, 0, 20, "play: less for throwing a King that has one guard" },
    [W_VOID_GUARD] = { "void_guard", 1.0, 0, 20, "play: less for throwing the only guard of a King" },
    [W_VOID_LENGTH] = { "void_length", 0.05, 0, 5, "play: more per card of the thrown card's suit" },
    /* Leading: cash a sure winner (from the longest suit first), else lead low from length. */
    [W_LEAD_WINNER] = { "lead_winner", 8.0, 0, 100, "play: leading a card nothing unseen beats" },
    [W_LEAD_WINNER_LENGTH] = { "lead_winner_length", 0.1, 0, 5, "play: more per card of a sure winner's suit" },
    [W_LEAD_WINNER_RANK] = { "lead_winner_rank", 0.01, 0, 5, "play: more per rank of a sure winner" },
    [W_LEAD_LOW] = { "lead_low", 4.0, 0, 100, "play: leading a card that may be beaten" },
    [W_LEAD_LENGTH] = { "lead_length", 0.3, 0, 5, "play: more per card of the led card's suit" },
    [W_LEAD_RANK] = { "lead_rank", 0.05, 0, 5, "play: less per rank of the card led" },
    [W_LEAD_LONE_KING] = { "lead_lone_king", 2.0, 0, 20, "play: less for leading a lone King into the Ace" },
    [W_LEAD_BARE_KING] = { "lead_bare_king", 1.5, 0, 20, "play: less for leading a King's only guard" },
    /* Before the play. */
    [W_CALL_NONE] = { "call_none", 1.0, 0, 100, "call: declining to name a suit" },
    [W_CALL_HELD] = { "call_held", 5.0, 0, 100, "call: naming a held suit, plus its best lead" },
    [W_APPOINT_ACE] = { "appoint_ace", 2.0, 0, 20, "appoint: more for a suit where I hold the Ace" },
    [W_APPOINT_KING] = { "appoint_king", 1.0, 0, 20, "appoint: more for a suit where I hold the King" },
};

/* Rough worth of a hand after the exchange, in points. */
static double hand_value(const double *w, cardset_t h, int unsuited, int by_count)
{
    double v = 0;
    for (int s = 0; s < CARD_SUITS; s++) {
        unsigned bits = cardset_suit_bits(h, s);
        int len = __builtin_popcount(bits);
        if (bits & (1u << RANK_A))
            v += w[W_HAND_ACE];
        if (bits & (1u << RANK_K))
            v += len >= 2 ? w[W_HAND_KING_GUARDED] : w[W_HAND_KING_BARE];
        if (bits & (1u << RANK_Q))
            v += len >= 3 ? w[W_HAND_QUEEN_GUARDED] : w[W_HAND_QUEEN_BARE];
        if (len >= 5)
            v += w[W_HAND_LENGTH] * (len - 4);
        if (!unsuited) {
            /* Runs of three or more score; a run of two may grow into one. */
            int run = 0;
            for (int r = 0; r <= CARD_RANKS; r++) {
                if (r < CARD_RANKS && (bits & (1u << r))) {
                    run++;
                    continue;
                }
                if (run >= 3)
                    v += w[W_HAND_SEQUENCE] * picket_sequence_points(run);
                else if (run == 2)
                    v += w[W_HAND_RUN_OF_TWO];
                run = 0;
            }
        }
    }
    if (unsuited) {
        picket_sequences_t q;
        picket_sequences(h, 1, &q);
        v += w[W_HAND_UNSUITED_SEQUENCES] * q.points;
    }
    picket_ruff_t ruff;
    picket_point(h, by_count, &ruff);
    v += w[W_HAND_RUFF] * ruff.points;
    for (int r = RANK_T; r <= RANK_A; r++) {
        int c = cardset_count(h & cardset_rank(r));
        if (c == 4)
            v += w[W_HAND_QUATORZE];
        else if (c == 3)
            v += w[W_HAND_TERNARY];
        else if (c == 2 && r >= RANK_K)
            v += w[W_HAND_HIGH_PAIR];
    }
    return v;
}

/* Cards of a suit higher than `rank` that the seat has not accounted for (may be out there). */
static cardset_t higher_unseen(const picket_view_t *v, int card)
{
    cardset_t above = cardset_suit(card_suit(card)) & ~((cardset_of(card) << 1) - 1);
    cardset_t gone = v->hand | v->pub.played[0] | v->pub.played[1] | v->discards;
    return above & cards_pack(v->rules.deck) & ~gone;
}

static double play_value(const double *w, const picket_view_t *v, int card)
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
                return w[W_FOLLOW_WIN] - w[W_FOLLOW_WIN_RANK] * r + (r >= RANK_T ? w[W_FOLLOW_WIN_HONOUR] : 0.0);
            return w[W_FOLLOW_LOSE] - w[W_FOLLOW_LOSE_RANK] * r;
        }
        /* Void: throw the cheapest card, from a long suit, never a guard or an Ace. */
        double cost = w[W_VOID_RANK] * r + (r == RANK_A ? w[W_VOID_ACE] : 0.0) +
                      (r == RANK_K && len == 2 ? w[W_VOID_GUARDED_KING] : 0.0);
        cost += (r < RANK_K && len == 2 && (hand & cardset_of(card_make(s, RANK_K)))) ? w[W_VOID_GUARD] : 0.0;
        return w[W_VOID_BASE] - cost + w[W_VOID_LENGTH] * len;
    }
    /* Leading: cash a sure winner (from the longest suit first), else lead low from length. */
    if (!higher_unseen(v, card))
        return w[W_LEAD_WINNER] + w[W_LEAD_WINNER_LENGTH] * len + w[W_LEAD_WINNER_RANK] * r;
    double val = w[W_LEAD_LOW] + w[W_LEAD_LENGTH] * len - w[W_LEAD_RANK] * r;
    if (r == RANK_K && len == 1)
        val -= w[W_LEAD_LONE_KING]; /* a lone King led falls to the Ace */
    if (len == 2 && (hand & cardset_of(card_make(s, RANK_K))) && r != RANK_K)
        val -= w[W_LEAD_BARE_KING]; /* leading the guard bares the King */
    return val;
}

static double discard_value(const double *w, const picket_view_t *v, cardset_t d)
{
    int elder = v->seat == picket_elder(&v->pub);
    double per = elder ? w[W_DRAW_ELDER] : w[W_DRAW_YOUNGER];
    return hand_value(w, v->hand & ~d, v->rules.sequences == PK_SEQ_UNSUITED, v->rules.point == PK_POINT_COUNT) +
           per * cardset_count(d);
}

/* The best card to lead in a suit, by play_value, or a low value if the suit is not held. */
static double best_lead_in(const double *w, const picket_view_t *v, int suit)
{
    double best = -1.0;
    for (cardset_t c = v->hand & cardset_suit(suit); c; c &= c - 1) {
        double val = play_value(w, v, cardset_first(c));
        if (val > best)
            best = val;
    }
    return best;
}

void picket_heuristic_evaluate(const void *view, const double *params, const game_move_t *moves, int n, double *values)
{
    double w[W_COUNT];
    for (int i = 0; i < W_COUNT; i++)
        w[i] = params ? params[i] : PICKET_HEURISTIC_PARAMS[i].def;
    const picket_view_t *v = view;
    for (int i = 0; i < n; i++) {
        const game_move_t *m = &moves[i];
        double val = 0;
        switch (m->kind) {
        case PK_MV_DISCARD:
            val = discard_value(w, v, m->cards);
            break;
        case PK_MV_BLANK: {
            /* A Blank keeps its Aces and Tens and throws the small cards. */
            int small = cardset_count(v->hand & ~(cardset_rank(RANK_A) | cardset_rank(RANK_T)));
            int want = small < 1 ? 1 : small > picket_elder_share(&v->rules) ? picket_elder_share(&v->rules) : small;
            val = -(double)((m->arg - want) * (m->arg - want));
            break;
        }
        case PK_MV_CALL:
            /* Seeing the leftover is free when the call names a suit he means to lead anyway. */
            val = m->arg < 0 ? w[W_CALL_NONE]
                             : (v->hand & cardset_suit(m->arg) ? w[W_CALL_HELD] + best_lead_in(w, v, m->arg) : 0.0);
            break;
        case PK_MV_LEFTOVER:
            val = m->arg ? 0.0 : 1.0; /* showing tells elder as much as it tells me */
            break;
        case PK_MV_APPOINT: {
            /* Make elder lead into my strength. */
            cardset_t mine = v->hand & cardset_suit(m->arg);
            val = cardset_count(mine) + ((mine & cardset_rank(RANK_A)) ? w[W_APPOINT_ACE] : 0.0) +
                  ((mine & cardset_rank(RANK_K)) ? w[W_APPOINT_KING] : 0.0);
            break;
        }
        case PK_MV_PLAY:
            val = play_value(w, v, m->arg);
            break;
        case PK_MV_CHOOSE:
            val = m->arg; /* deal first: the first dealer is elder in the last deal (CAV, Conduct) */
            break;
        case PK_MV_DECLARE: {
            /* declarations=may-sink: never sink; the call worth most, then the better claim. */
            int claim[2];
            val = picket_call_points(&v->rules, m->arg, m->cards, claim) * 1000.0 + claim[0] * 20.0 + claim[1];
            break;
        }
        case PK_MV_ANSWER:
            val = m->arg; /* answer with the best whenever it may */
            break;
        default:
            break;
        }
        values[i] = val;
    }
}
