/* The public record (what both seats know) and a seat's view, both built from events.
 * picket_pub_apply is the only code that changes a picket_pub_t. */
#include <string.h>

#include "picket.h"

void picket_pub_init(picket_pub_t *p)
{
    memset(p, 0, sizeof *p);
    p->cut[0] = p->cut[1] = -1;
    p->dealer = -1;
    p->phase = PK_PH_DEAL;
    p->to_move = GAME_CHANCE;
    p->winner = -1;
    p->chooser = -1;
    p->called_suit = p->appointed_suit = -1;
    p->leftover = -1;
    p->leader = -1;
    p->trick_card[0] = p->trick_card[1] = -1;
    memset(p->answer, -1, sizeof p->answer);
    memset(p->decl_winner, -1, sizeof p->decl_winner);
}

/* A new hand: everything but the set scores and the cut starts afresh. */
static void new_hand(picket_pub_t *p, int dealer, int hand_no)
{
    int32_t score[2] = { p->score[0], p->score[1] };
    int8_t cut[2] = { p->cut[0], p->cut[1] };
    picket_pub_init(p);
    memcpy(p->score, score, sizeof score);
    memcpy(p->cut, cut, sizeof cut);
    p->dealer = (int8_t)dealer;
    p->hand_no = (int16_t)hand_no;
    p->leader = (int8_t)(1 - dealer);
}

void picket_pub_apply(picket_pub_t *p, const game_event_t *ev)
{
    int s = ev->seat;
    switch (ev->type) {
    case PK_EV_CUT:
        p->cut[0] = (int8_t)ev->a;
        p->cut[1] = (int8_t)ev->b;
        if (ev->arg)
            p->chooser = (int8_t)s;
        else
            p->dealer = (int8_t)s;
        break;
    case PK_EV_CHOOSE:
        p->dealer = (int8_t)(ev->arg ? s : 1 - s);
        p->chooser = -1;
        p->to_move = GAME_CHANCE;
        break;
    case PK_EV_HAND:
        new_hand(p, s, ev->a);
        p->stock_left = (int8_t)ev->b;
        break;
    case PK_EV_TURN:
        p->phase = ev->arg;
        p->to_move = (int8_t)s;
        /* Younger is asked to appoint only when elder holds none of the suit he called. */
        if (ev->arg == PK_PH_APPOINT && s >= 0 && s < 2 && p->called_suit >= 0)
            p->voids[1 - s] |= (uint8_t)(1u << p->called_suit);
        break;
    case PK_EV_BLANK:
        p->blank[s] = 1;
        if (ev->a > 0)
            p->blank_count = (int8_t)ev->a;
        break;
    case PK_EV_SHOW:
        if (ev->arg == PK_CAT_BLANK)
            p->blank_shown[s] = ev->cards;
        else if (ev->arg < 0)
            p->leftover_shown = ev->cards;
        else {
            p->decl_shown[s] |= ev->cards;
            if (ev->arg >= PK_CAT_RUFF && ev->arg <= PK_CAT_SETS)
                p->decl_cards[ev->arg - PK_CAT_RUFF][s] |= ev->cards;
        }
        break;
    case PK_EV_DISCARD:
        p->discarded[s] = (int8_t)ev->a;
        p->to_move = GAME_CHANCE; /* a decision made: nobody moves until the next turn */
        break;
    case PK_EV_DRAW:
        p->drawn[s] = (int8_t)ev->a;
        p->stock_left = (int8_t)(p->stock_left - ev->a);
        break;
    case PK_EV_CALL:
        p->called_suit = ev->arg;
        p->leftover = ev->arg >= 0 ? 2 : 0;
        p->to_move = GAME_CHANCE;
        break;
    case PK_EV_LEFTOVER:
        p->leftover = ev->arg ? 1 : 0;
        p->to_move = GAME_CHANCE;
        break;
    case PK_EV_DECLARE: {
        int d = ev->arg - PK_CAT_RUFF;
        p->claim[d][s][0] = ev->a;
        p->claim[d][s][1] = ev->b;
        break;
    }
    case PK_EV_ANSWER: {
        int d = ev->arg - PK_CAT_RUFF;
        p->answer[d] = (int8_t)ev->a;
        p->claim[d][s][0] = (int16_t)ev->b;
        p->claim[d][s][1] = (int16_t)ev->c;
        if (ev->a == PK_ANS_NOT_GOOD) /* younger wins it, whenever he scores it */
            p->won_cats[s] |= (uint8_t)(1u << ev->arg);
        break;
    }
    case PK_EV_SCORE:
        p->score[s] += ev->a;
        p->hand_pts[s] = (int16_t)(p->hand_pts[s] + ev->a);
        p->cat_pts[s][ev->arg] = (int16_t)(p->cat_pts[s][ev->arg] + ev->a);
        p->reckoned[s] = 1;
        if (ev->arg == PK_CAT_PIQUE || ev->arg == PK_CAT_REPIQUE)
            p->piqued = 1;
        if (ev->arg >= PK_CAT_RUFF && ev->arg <= PK_CAT_SETS)
            p->decl_winner[ev->arg - PK_CAT_RUFF] = (int8_t)s;
        if (ev->arg <= PK_CAT_SETS)
            p->won_cats[s] |= (uint8_t)(1u << ev->arg);
        break;
    case PK_EV_APPOINT:
        p->appointed_suit = ev->arg;
        p->to_move = GAME_CHANCE;
        break;
    case PK_EV_PLAY: {
        int card = ev->arg;
        p->played[s] |= cardset_of(card);
        int lead = p->trick_card[1 - s];
        if (p->trick_card[p->leader] < 0) {
            int bound = p->appointed_suit >= 0 ? p->appointed_suit : p->called_suit;
            if (p->trick_no == 0 && bound >= 0 && card_suit(card) != bound)
                p->voids[s] |= (uint8_t)(1u << bound);
        } else if (card_suit(card) != card_suit(lead)) {
            p->voids[s] |= (uint8_t)(1u << card_suit(lead));
        }
        p->trick_card[s] = (int8_t)card;
        if (p->nplayed < PK_PLAYS)
            p->history[p->nplayed++] = (int8_t)card;
        p->to_move = GAME_CHANCE;
        break;
    }
    case PK_EV_TRICK:
        p->tricks[s]++;
        p->trick_no++;
        p->leader = (int8_t)s;
        p->trick_card[0] = p->trick_card[1] = -1;
        break;
    case PK_EV_SET_END:
        p->winner = (int8_t)s;
        p->partie_pts = ev->a;
        p->rubicon = (int8_t)ev->b;
        p->phase = PK_PH_OVER;
        p->to_move = GAME_OVER;
        break;
    default:
        break;
    }
}

#define DIFF(field)                                              \
    do {                                                         \
        if (memcmp(&a->field, &b->field, sizeof a->field) != 0)  \
            return #field;                                       \
    } while (0)

const char *picket_pub_diff(const picket_pub_t *a, const picket_pub_t *b)
{
    DIFF(score); DIFF(hand_pts); DIFF(cat_pts); DIFF(blank_shown); DIFF(decl_shown); DIFF(decl_cards);
    DIFF(leftover_shown); DIFF(played); DIFF(hand_no); DIFF(cut); DIFF(dealer); DIFF(phase);
    DIFF(to_move); DIFF(winner); DIFF(blank); DIFF(blank_count); DIFF(discarded); DIFF(drawn);
    DIFF(stock_left); DIFF(called_suit); DIFF(leftover); DIFF(appointed_suit); DIFF(claim);
    DIFF(answer); DIFF(decl_winner); DIFF(trick_no); DIFF(leader); DIFF(trick_card); DIFF(tricks);
    DIFF(voids); DIFF(reckoned); DIFF(piqued); DIFF(nplayed); DIFF(history); DIFF(won_cats); DIFF(chooser);
    DIFF(rubicon); DIFF(partie_pts);
    return NULL;
}

const char *picket_view_diff(const picket_view_t *a, const picket_view_t *b)
{
    DIFF(rules); DIFF(seat); DIFF(hand); DIFF(dealt); DIFF(discards); DIFF(know.seen); DIFF(know.opp_known);
    DIFF(know.stock_known); DIFF(peek);
    return picket_pub_diff(&a->pub, &b->pub);
}

void picket_view_init(picket_view_t *v, const picket_rules_t *rules, int seat)
{
    memset(v, 0, sizeof *v);
    v->rules = *rules;
    v->seat = seat;
    picket_pub_init(&v->pub);
    memset(v->peek, -1, sizeof v->peek);
}

void picket_view_from_state(const picket_state_t *st, int seat, picket_view_t *v)
{
    picket_view_init(v, &st->rules, seat);
    v->pub = st->pub;
    v->hand = st->hand[seat];
    v->dealt = st->pub.hand_no > 0 ? st->dealt[seat] : 0;
    v->discards = st->discard[seat];
    v->know = st->know[seat];
    const picket_pub_t *p = &st->pub;
    if (p->hand_no > 0 && seat == picket_elder(p) && p->drawn[seat] > 0) {
        int share = picket_elder_share(&st->rules);
        for (int i = p->drawn[seat], j = 0; i < share && j < 8; i++, j++)
            v->peek[j] = (int8_t)st->stock[i];
    }
}

/* The seat whose turn a phase gives: elder decides the Blank's count, his exchange and the call;
 * younger sets aside, exchanges, turns the leftover up and appoints; in the play, the trick's
 * leader, then the other. */
static int phase_seat(const picket_pub_t *p, int phase)
{
    int e = picket_elder(p);
    switch (phase) {
    case PK_PH_BLANK_COUNT:
    case PK_PH_ELDER_EXCHANGE:
    case PK_PH_CALL:
    case PK_PH_DECLARE:
        return e;
    case PK_PH_CHOOSE:
        return p->chooser;
    case PK_PH_PLAY:
        /* Nobody, with both cards of the trick down: the trick is decided first. */
        if (p->trick_card[1 - p->leader] >= 0)
            return -1;
        return p->trick_card[p->leader] < 0 ? p->leader : 1 - p->leader;
    default:
        return 1 - e;
    }
}

/* The phases a turn may move to from each (picket.c's order of a hand): the deal, then the
 * Blank's count and set-aside (commit-count) or the exchanges, the leftover or the call, the
 * appointed suit, the play. */
#define PH(x) (1u << PK_PH_##x)
static const unsigned NEXT_PHASES[PK_PH_COUNT] = {
    [PK_PH_DEAL] = PH(BLANK_COUNT) | PH(ELDER_EXCHANGE),
    [PK_PH_BLANK_COUNT] = PH(SET_ASIDE),
    [PK_PH_SET_ASIDE] = PH(ELDER_EXCHANGE),
    [PK_PH_ELDER_EXCHANGE] = PH(YOUNGER_EXCHANGE) | PH(CALL) | PH(LEFTOVER) | PH(DECLARE) | PH(APPOINT) | PH(PLAY),
    [PK_PH_YOUNGER_EXCHANGE] = PH(CALL) | PH(LEFTOVER) | PH(DECLARE) | PH(APPOINT) | PH(PLAY),
    [PK_PH_CALL] = PH(DECLARE) | PH(APPOINT) | PH(PLAY),
    [PK_PH_LEFTOVER] = PH(DECLARE) | PH(PLAY),
    [PK_PH_DECLARE] = PH(ANSWER),
    [PK_PH_ANSWER] = PH(DECLARE) | PH(APPOINT) | PH(PLAY),
    [PK_PH_APPOINT] = PH(PLAY),
    [PK_PH_PLAY] = PH(PLAY) | PH(LEFTOVER),
};
#undef PH

/* Between two hands: the last one ended (its turn to the deal came), the next not yet begun. */
static int between_hands(const picket_pub_t *p) { return p->phase == PK_PH_DEAL && p->trick_no != 0; }

/* Both seats have drawn what they discarded: each holds its twelve cards again. */
static int exchanged(const picket_pub_t *p) { return p->drawn[0] == p->discarded[0] && p->drawn[1] == p->discarded[1]; }

/* The declarations' time: both exchanges done, before the first card. */
static int declaring(const picket_pub_t *p)
{
    return p->phase >= PK_PH_ELDER_EXCHANGE && p->phase <= PK_PH_PLAY && p->nplayed == 0 && exchanged(p);
}

/* A public event follows from the rules and the record so far: the hand starts where the last
 * ended (or the set begins), turns move forward through the phases to the seat the rules name,
 * decisions come from the seat whose turn it is, in its phase, and nothing comes after the set's
 * end (CG, CT; docs/protocol.md section 6). */
static int follows_turn(const picket_rules_t *r, const picket_pub_t *p, const game_event_t *ev)
{
    int s = ev->seat, lo, hi;
    int hand_done = p->phase == PK_PH_PLAY && p->trick_no == PK_TRICKS;
    if (p->phase == PK_PH_OVER)
        return 0;
    switch (ev->type) {
    case PK_EV_CUT:
        return p->hand_no == 0 && p->dealer < 0 && p->chooser < 0 && p->phase == PK_PH_DEAL &&
               (ev->arg == 0 || (ev->arg == 1 && r->cut == PK_CUT_HIGHER_CHOOSES && s >= 0 && s < 2));
    case PK_EV_CHOOSE:
        return p->phase == PK_PH_CHOOSE && p->to_move == s && s == p->chooser && (ev->arg == 0 || ev->arg == 1);
    case PK_EV_HAND:
        if (p->phase != PK_PH_DEAL || ev->a != p->hand_no + 1 || ev->b < 0 ||
            ev->b > cardset_count(cards_pack(r->deck)) - 2 * PK_HAND_CARDS)
            return 0;
        return p->hand_no == 0 ? p->dealer < 0 || s == p->dealer : s == 1 - p->dealer;
    case PK_EV_PLAY:
        return p->phase == PK_PH_PLAY && p->to_move == s && ev->arg >= 0 && ev->arg < CARD_COUNT &&
               cardset_has(cards_pack(r->deck), ev->arg) && !cardset_has(p->played[0] | p->played[1], ev->arg);
    case PK_EV_DISCARD:
        picket_discard_range(r, p, &lo, &hi);
        return p->phase >= PK_PH_SET_ASIDE && p->phase <= PK_PH_YOUNGER_EXCHANGE && p->to_move == s && ev->a >= lo &&
               ev->a <= hi;
    case PK_EV_DRAW:
        /* After the seat's discard, no more than it discarded (younger draws what he set aside
         * during elder's exchange). */
        return p->hand_no > 0 && p->phase >= PK_PH_ELDER_EXCHANGE && p->phase <= PK_PH_YOUNGER_EXCHANGE &&
               p->drawn[s] == 0 && ev->a >= 0 && ev->a <= p->discarded[s] && ev->a <= p->stock_left;
    case PK_EV_CALL:
        return p->phase == PK_PH_CALL && p->to_move == s && ev->arg >= -1 && ev->arg < CARD_SUITS;
    case PK_EV_LEFTOVER:
        return p->phase == PK_PH_LEFTOVER && p->to_move == s;
    case PK_EV_APPOINT:
        return p->phase == PK_PH_APPOINT && p->to_move == s && ev->arg >= 0 && ev->arg < CARD_SUITS &&
               p->called_suit >= 0 && ev->arg != p->called_suit;
    case PK_EV_TURN:
        if (ev->arg == PK_PH_DEAL)
            return s < 0 && (hand_done || (p->phase == PK_PH_CHOOSE && p->dealer >= 0));
        if (ev->arg == PK_PH_CHOOSE)
            return p->hand_no == 0 && p->phase == PK_PH_DEAL && p->chooser >= 0 && s == p->chooser;
        /* leftover=after-lead: younger's choice comes after elder's first card. */
        if (ev->arg == PK_PH_LEFTOVER && p->phase == PK_PH_PLAY &&
            (r->leftover != PK_LO_AFTER_LEAD || p->nplayed != 1 || p->trick_no != 0 || p->stock_left == 0 ||
             p->leftover >= 0))
            return 0;
        /* declarations=may-sink alone has calls as decisions: elder's in a category not yet
         * answered, younger's answer after elder's call in it. */
        if ((ev->arg == PK_PH_DECLARE || ev->arg == PK_PH_ANSWER) &&
            (r->declarations != PK_DECL_MAY_SINK || (p->answer[0] >= 0 && p->answer[1] >= 0 && p->answer[2] >= 0) ||
             (ev->arg == PK_PH_ANSWER && p->phase != PK_PH_DECLARE) ||
             (ev->arg == PK_PH_DECLARE && p->phase == PK_PH_ANSWER && p->answer[0] < 0)))
            return 0;
        if (ev->arg <= PK_PH_DEAL || ev->arg >= PK_PH_OVER || s < 0 || p->hand_no == 0 || hand_done ||
            between_hands(p) || !(NEXT_PHASES[p->phase] & (1u << ev->arg)))
            return 0;
        /* The declarations, all three, come between the exchange (and the leftover) and the
         * play or the appointed suit. */
        if ((ev->arg == PK_PH_APPOINT || (ev->arg == PK_PH_PLAY && p->phase != PK_PH_PLAY)) &&
            (p->answer[0] < 0 || p->answer[1] < 0 || p->answer[2] < 0))
            return 0;
        /* Past the exchange (the call, the leftover, the appointment, the play), both seats
         * hold twelve cards: each drew what it discarded. The fuzzer found a younger's draw
         * left out, and PIMC then searched a play of 12 cards against 8 without end. */
        if (ev->arg >= PK_PH_CALL && ev->arg <= PK_PH_PLAY && !exchanged(p))
            return 0;
        /* Younger exchanges after elder has drawn. */
        if (ev->arg == PK_PH_YOUNGER_EXCHANGE && p->drawn[picket_elder(p)] != p->discarded[picket_elder(p)])
            return 0;
        return s == phase_seat(p, ev->arg);
    case PK_EV_BLANK:
    case PK_EV_SHOW:
        /* Before the play; under calls=cavendish younger shows his after elder's first card. */
        return p->hand_no > 0 && !between_hands(p) &&
               (p->phase < PK_PH_PLAY || (p->phase == PK_PH_PLAY && p->nplayed == 1 && p->trick_no == 0));
    case PK_EV_SCORE:
        /* Points come within a hand, the last trick's and the cards' after the twelfth trick. */
        return p->hand_no > 0 && !between_hands(p) && ev->arg >= 0 &&
               ev->arg < PK_CAT_COUNT && ev->a > 0 && ev->c == p->score[s] + ev->a;
    case PK_EV_DECLARE:
        if (r->declarations == PK_DECL_MAY_SINK && ev->arg != picket_declaring_cat(p))
            return 0;
        return declaring(p) && ev->arg >= PK_CAT_RUFF && ev->arg <= PK_CAT_SETS && s == picket_elder(p);
    case PK_EV_ANSWER:
        if (r->declarations == PK_DECL_MAY_SINK && (p->phase != PK_PH_ANSWER || ev->arg != picket_declaring_cat(p)))
            return 0;
        return declaring(p) && ev->arg >= PK_CAT_RUFF && ev->arg <= PK_CAT_SETS && s != picket_elder(p) &&
               ev->a >= PK_ANS_GOOD && ev->a <= PK_ANS_NOT_GOOD;
    case PK_EV_TRICK: {
        if (p->phase != PK_PH_PLAY || p->trick_card[0] < 0 || p->trick_card[1] < 0)
            return 0;
        int lead = p->trick_card[p->leader], follow = p->trick_card[1 - p->leader];
        int follower_wins = card_suit(follow) == card_suit(lead) && card_rank(follow) > card_rank(lead);
        return s == (follower_wins ? 1 - p->leader : p->leader) && ev->a == p->trick_no + 1;
    }
    case PK_EV_HAND_END:
        return hand_done;
    default:
        return 1;
    }
}

/* Update the seat's private knowledge from one event, before the public record moves on. */
static int view_private(picket_view_t *v, const game_event_t *ev)
{
    const picket_pub_t *p = &v->pub;
    int me = v->seat, s = ev->seat;
    picket_know_t *k = &v->know;
    int mine = ev->audience == me;
    switch (ev->type) {
    case PK_EV_HAND:
        v->hand = v->dealt = v->discards = 0;
        memset(k, 0, sizeof *k);
        memset(v->peek, -1, sizeof v->peek);
        break;
    case PK_EV_DEALT:
        /* One deal a hand, told before the hand's first turn. */
        if (s != me || v->dealt || p->hand_no == 0 || p->phase != PK_PH_DEAL || between_hands(p) ||
            cardset_count(ev->cards) != PK_HAND_CARDS || (ev->cards & ~cards_pack(v->rules.deck)))
            return -1;
        v->hand = v->dealt = ev->cards;
        k->seen = ev->cards;
        break;
    case PK_EV_SHOW:
        /* What another shows is not mine: not in my hand, not among my discards. */
        if (s != me && (ev->cards & (v->hand | v->discards)))
            return -1;
        k->seen |= ev->cards;
        if (ev->arg < 0)
            k->stock_known |= ev->cards;
        else if (s != me && (ev->arg != PK_CAT_BLANK || p->discarded[s] == 0))
            k->opp_known |= ev->cards;
        break;
    case PK_EV_DISCARD:
        if (mine) {
            if ((ev->cards & ~v->hand) || cardset_count(ev->cards) != ev->a)
                return -1;
            v->hand &= ~ev->cards;
            v->discards = ev->cards;
        } else if (s != me) {
            k->opp_known = 0;
        }
        break;
    case PK_EV_DRAW:
        if (mine) {
            if ((ev->cards & (v->hand | v->discards | p->played[0] | p->played[1])) || cardset_count(ev->cards) != ev->a ||
                (ev->cards & ~cards_pack(v->rules.deck)) || cardset_count(v->hand | ev->cards) > PK_HAND_CARDS)
                return -1;
            v->hand |= ev->cards;
            k->seen |= ev->cards;
        } else if (s != me) {
            /* The opponent takes from the top: the first of the cards I looked at. */
            for (int i = 0, j = 0; i < 8 && j < ev->a; i++, j++) {
                if (v->peek[i] < 0)
                    break;
                cardset_t c = cardset_of(v->peek[i]);
                k->opp_known |= c & k->stock_known;
                k->stock_known &= ~c;
            }
        }
        break;
    case PK_EV_PEEK: {
        if (!mine)
            return -1;
        int j = ev->a - p->drawn[me];
        if (j < 0 || j >= 8 || ev->arg < 0 || ev->arg >= CARD_COUNT)
            return -1;
        v->peek[j] = ev->arg;
        k->seen |= cardset_of(ev->arg);
        k->stock_known |= cardset_of(ev->arg);
        break;
    }
    case PK_EV_STOCK:
        if (!mine || (ev->cards & (v->hand | v->discards)))
            return -1;
        k->seen |= ev->cards;
        k->stock_known |= ev->cards;
        break;
    case PK_EV_PLAY:
        if (ev->arg < 0 || ev->arg >= CARD_COUNT)
            return -1;
        if (s == me) {
            if (!cardset_has(v->hand, ev->arg))
                return -1;
            v->hand &= ~cardset_of(ev->arg);
        } else {
            if (cardset_has(v->hand | v->discards, ev->arg))
                return -1;
            k->seen |= cardset_of(ev->arg);
            k->opp_known &= ~cardset_of(ev->arg);
        }
        break;
    default:
        break;
    }
    return 0;
}

/* Elder, once he has drawn, has looked at every card of his share he left on the stock. */
static int saw_share(const picket_view_t *v)
{
    const picket_pub_t *p = &v->pub;
    if (v->seat != picket_elder(p) || p->discarded[v->seat] == 0 || p->phase != PK_PH_ELDER_EXCHANGE)
        return 1;
    for (int j = 0; j < picket_elder_share(&v->rules) - p->drawn[v->seat] && j < 8; j++)
        if (v->peek[j] < 0)
            return 0;
    return 1;
}

int picket_view_apply(picket_view_t *v, const game_event_t *ev)
{
    if (!game_event_visible(ev, v->seat) || ev->type == 0 || ev->type >= PK_EV_COUNT)
        return -1;
    if (ev->seat >= 2 || (ev->seat < 0 && ev->type != PK_EV_TURN && ev->type != PK_EV_HAND_END && ev->type != PK_EV_SET_END))
        return -1;
    if (ev->audience == GAME_ALL && !follows_turn(&v->rules, &v->pub, ev))
        return -1;
    /* No turn of a hand before this seat has been dealt its cards; none after elder's exchange
     * before he has seen the rest of his share. */
    if (ev->type == PK_EV_TURN && ev->arg != PK_PH_DEAL && ev->arg != PK_PH_CHOOSE && (!v->dealt || !saw_share(v)))
        return -1;
    if (view_private(v, ev) < 0)
        return -1;
    if (ev->audience == GAME_ALL)
        picket_pub_apply(&v->pub, ev);
    return 0;
}

int picket_view_legal_moves(const picket_view_t *v, game_move_t *out, int cap)
{
    if (v->pub.to_move != v->seat)
        return 0;
    return picket_pub_legal_moves(&v->rules, &v->pub, v->hand, out, cap);
}
