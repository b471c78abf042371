#include "picket_endgame.h"

#include <string.h>
#ifdef __BMI2__
#include <immintrin.h>
#endif
/* XXH3 inlined: the key is hashed at every node between tricks. */
#define XXH_INLINE_ALL
#include <xxhash.h>

/* The cards that score in play: Ten and up, in every suit. */
#define HIGH_RANKS ((cardset_t)0x1F00u)
static const cardset_t HIGH = HIGH_RANKS | HIGH_RANKS << 13 | HIGH_RANKS << 26 | HIGH_RANKS << 39;

static int high(int card) { return cardset_has(HIGH, card); }

/* The cards whose lead (or win as the second card) scores: Ten and up, or any (lead-or-win-any). */
static cardset_t scoring(const picket_end_t *e) { return e->play_points == PK_PP_LEAD_OR_WIN_ANY ? ~(cardset_t)0 : HIGH; }
static int scores(const picket_end_t *e, int card) { return cardset_has(scoring(e), card); }

/* Can seat s still complete a Pique: first-card on the opening lead, any-time always, play
 * (Cavendish) elder alone, by points in play. */
static int pique_window(const picket_end_t *e, int s, int opening_lead)
{
    return e->pique_rule == PK_PQ_ANY_TIME || (e->pique_rule == PK_PQ_PLAY ? s == e->elder : opening_lead);
}

void picket_end_make(picket_end_t *e, const picket_rules_t *r, cardset_t hand0, cardset_t hand1, int to_move, int lead,
                     int tricks0, int tricks1)
{
    memset(e, 0, sizeof *e);
    e->hand[0] = hand0;
    e->hand[1] = hand1;
    e->to_move = (int8_t)to_move;
    e->lead = (int8_t)lead;
    e->tricks[0] = (int8_t)tricks0;
    e->tricks[1] = (int8_t)tricks1;
    e->bound_suit = -1;
    e->elder = -1;
    e->play_points = (int8_t)r->play_points;
    e->last_trick = (int8_t)r->last_trick;
    e->pique_rule = (int8_t)r->pique;
}

/* Close the Pique when it can no longer happen, so positions that score alike share a key. */
static void settle_pique(picket_end_t *e)
{
    if (!e->pique_open)
        return;
    int can = 0;
    for (int s = 0; s < 2; s++)
        if (!e->reckoned[1 - s] && pique_window(e, s, e->opening))
            can = 1;
    if (!can) {
        e->pique_open = 0;
        e->pts[0] = e->pts[1] = e->reckoned[0] = e->reckoned[1] = 0;
        e->opening = 0;
    }
}

int picket_end_from_state(const picket_state_t *st, picket_end_t *out)
{
    const picket_pub_t *p = &st->pub;
    if (p->phase != PK_PH_PLAY)
        return -1;
    int lead = p->trick_card[p->leader];
    picket_end_make(out, &st->rules, st->hand[0], st->hand[1], p->to_move, lead, p->tricks[0], p->tricks[1]);
    out->elder = (int8_t)picket_elder(p);
    if (p->trick_no == 0 && lead < 0) {
        out->bound_suit = (int8_t)(p->appointed_suit >= 0 ? p->appointed_suit : p->called_suit);
        out->opening = 1;
    }
    if (!p->piqued) {
        out->pique_open = 1;
        for (int s = 0; s < 2; s++) {
            out->pts[s] = (int8_t)(p->hand_pts[s] > PK_PIQUE_AT ? PK_PIQUE_AT : p->hand_pts[s]);
            out->reckoned[s] = p->reckoned[s];
        }
        settle_pique(out);
    }
    return 0;
}

static int pe_from_state(const void *state, void *pos) { return picket_end_from_state(state, pos); }

static int pe_to_move(const void *pos)
{
    const picket_end_t *e = pos;
    return (e->hand[0] | e->hand[1]) ? e->to_move : -1;
}

/* Cards the side to move may play. */
static cardset_t playable(const picket_end_t *e)
{
    cardset_t hand = e->hand[e->to_move];
    if (e->lead < 0) {
        if (e->bound_suit >= 0 && (hand & cardset_suit(e->bound_suit)))
            return hand & cardset_suit(e->bound_suit);
        return hand;
    }
    cardset_t follow = hand & cardset_suit(card_suit(e->lead));
    return follow ? follow : hand;
}

static int pe_all_moves(const void *pos, uint8_t *out)
{
    return cardset_to_bytes(playable(pos), out);
}

/* Two cards of one holder are equivalent when no card still in play lies between them in their
 * suit (the other hand's cards and the card led to this trick), and both score alike (Ten and
 * up, or below). The lowest card of each class stands for it (pe_representative); the
 * helpers below decide it with bit operations. */

/* Every card still in play: both hands and the card led to this trick. */
static cardset_t in_play(const picket_end_t *e)
{
    return e->hand[0] | e->hand[1] | (e->lead >= 0 ? cardset_of(e->lead) : 0);
}

/* The next lower card in play in the card's suit, or -1. */
static int next_lower(cardset_t rest, int card)
{
    cardset_t below = rest & (cardset_of(card) - 1) & cardset_suit(card_suit(card));
    return below ? cardset_last(below) : -1;
}

/* Whether a card of the mover's stands for its class: the next lower card in play is not the
 * mover's, or scores differently. */
static int stands_alone(cardset_t mine, cardset_t rest, int card)
{
    int next = next_lower(rest, card);
    return next < 0 || !cardset_has(mine, next) || high(next) != high(card);
}

static int pe_representative(const void *pos, int card)
{
    const picket_end_t *e = pos;
    cardset_t mine = e->hand[e->to_move], rest = in_play(e);
    while (!stands_alone(mine, rest, card))
        card = next_lower(rest, card);
    return card;
}

/* Order: the follower tries the cheapest winning card first, then the cheapest card; the
 * leader tries high cards first (sure winners), longest suits first. */
static int order_score(const picket_end_t *e, int card)
{
    int r = card_rank(card);
    if (e->lead >= 0) {
        int wins = card_suit(card) == card_suit(e->lead) && r > card_rank(e->lead);
        return wins ? 100 - r : 50 - r;
    }
    /* Leading: a sure winner (no higher card of its suit in the other hand) first, from the
     * longest suit; otherwise a low card from a long suit, keeping the high ones. */
    cardset_t suit = cardset_suit(card_suit(card));
    int len = cardset_count(e->hand[e->to_move] & suit);
    cardset_t other = e->hand[1 - e->to_move] & suit;
    int sure = !other || cardset_last(other) < card;
    return sure ? 200 + 8 * len + r : 8 * len - r;
}

static int pe_moves(const void *pos, uint8_t *out)
{
    const picket_end_t *e = pos;
    int n = 0, score[ENDGAME_MAX_MOVES];
    cardset_t mine = e->hand[e->to_move], rest = in_play(e);
    for (cardset_t c = playable(e); c; c &= c - 1) {
        int card = cardset_first(c);
        if (!stands_alone(mine, rest, card))
            continue;
        int sc = order_score(e, card), j = n++;
        for (; j > 0 && score[j - 1] < sc; j--) {
            out[j] = out[j - 1];
            score[j] = score[j - 1];
        }
        out[j] = (uint8_t)card;
        score[j] = sc;
    }
    return n;
}

/* Points for seat s, with the Pique when they complete it; returns seat 0's minus seat 1's.
 * cards: the 10 for the cards or the capot, which pique=play does not count (CAV L69). */
static int reckon(picket_end_t *e, int s, int pts, int opening_lead, int cards)
{
    if (pts <= 0)
        return 0;
    int total = pts;
    if (e->pique_open) {
        int before = e->pts[s];
        e->reckoned[s] = 1;
        e->pts[s] = (int8_t)(before + pts > PK_PIQUE_AT ? PK_PIQUE_AT : before + pts);
        if (before + pts >= PK_PIQUE_AT && !e->reckoned[1 - s] && pique_window(e, s, opening_lead) &&
            !(cards && e->pique_rule == PK_PQ_PLAY)) {
            total += 30;
            e->pique_open = 0;
        }
        e->opening = 0;
        settle_pique(e);
    }
    return s == 0 ? total : -total;
}

static int pe_play(const void *pos, int card, void *childp)
{
    const picket_end_t *p = pos;
    picket_end_t *e = childp;
    *e = *p;
    int s = e->to_move, o = 1 - s, delta = 0;
    e->hand[s] &= ~cardset_of(card);
    if (e->lead < 0) {
        int opening = e->opening && s == e->elder;
        e->lead = (int8_t)card;
        e->bound_suit = -1;
        e->to_move = (int8_t)o;
        if (e->play_points != PK_PP_WINNER_TAKES && scores(e, card))
            delta += reckon(e, s, 1, opening, 0);
        if (e->opening) {
            e->opening = 0;
            settle_pique(e);
        }
        return delta;
    }
    int lead = e->lead;
    int follower_wins = card_suit(card) == card_suit(lead) && card_rank(card) > card_rank(lead);
    int w = follower_wins ? s : o, win_card = follower_wins ? card : lead;
    e->tricks[w]++;
    e->lead = -1;
    e->to_move = (int8_t)w;
    if (e->play_points == PK_PP_WINNER_TAKES)
        delta += reckon(e, w, high(card) + high(lead), 0, 0);
    else if (follower_wins && scores(e, card))
        delta += reckon(e, w, 1, 0, 0);
    if (!(e->hand[0] | e->hand[1])) {
        delta += reckon(e, w, e->last_trick == PK_LT_ONE_OR_TWO && high(win_card) ? 2 : 1, 0, 0);
        if (e->tricks[0] != e->tricks[1]) {
            int m = e->tricks[0] > e->tricks[1] ? 0 : 1;
            delta += reckon(e, m, e->tricks[m] == PK_TRICKS ? 40 : 10, 0, 1);
        }
    }
    return delta;
}

/* The tricks won so far matter only through the 10 for cards and the capot. Once a seat has 7
 * tricks and the other at least one, the future scores the same whatever the exact count. */
static int8_t trick_class(const picket_end_t *e)
{
    if (e->tricks[0] >= 7 && e->tricks[1] >= 1)
        return 100;
    if (e->tricks[1] >= 7 && e->tricks[0] >= 1)
        return 101;
    return e->tricks[0];
}

/* The bits of `bits` that lie in `mask`, packed down in order (BMI2's pext). */
static unsigned compress(unsigned bits, unsigned mask)
{
#ifdef __BMI2__
    return _pext_u32(bits, mask);
#else
    unsigned out = 0;
    for (unsigned k = 1; mask; mask &= mask - 1, k <<= 1)
        if (bits & mask & -mask)
            out |= k;
    return out;
#endif
}

/* A suit's cards still in play, by relative rank: only their order decides tricks, and only how
 * many of them are Ten and up decides points (those are the top ones). 16 bits: which of them
 * seat 0 holds (9 bits, lowest first), how many there are (4), how many score (3). */
static uint64_t suit_shape(const picket_end_t *e, int suit)
{
    unsigned mine = cardset_suit_bits(e->hand[0], suit);
    unsigned rest = mine | cardset_suit_bits(e->hand[1], suit);
    unsigned n = (unsigned)__builtin_popcount(rest);
    unsigned n_high = (unsigned)__builtin_popcount(rest & (unsigned)HIGH_RANKS);
    return compress(mine, rest) | n << 9 | n_high << 13;
}

static uint64_t pe_key(const void *pos)
{
    const picket_end_t *e = pos;
    /* Positions inside a trick rarely recur; only those between tricks go in the table. */
    if (e->lead >= 0)
        return 0;
    /* Packed without padding: what the future's score depends on, the scoring rules included
     * (a table may outlive one search). Cards are keyed by relative rank, so positions that
     * differ only in which low cards have gone share an entry; moves kept in the table are
     * written in the same terms (pe_move_code). */
    struct {
        uint64_t shape;
        int8_t to_move, tricks0, bound, open, pts0, pts1, rec, pad;
    } k = { suit_shape(e, 0) | suit_shape(e, 1) << 16 | suit_shape(e, 2) << 32 | suit_shape(e, 3) << 48,
            e->to_move, trick_class(e), e->bound_suit, e->pique_open, e->pts[0], e->pts[1],
            (int8_t)(uint8_t)(e->reckoned[0] | e->reckoned[1] << 1 | e->opening << 2 | e->play_points << 3 |
                              e->last_trick << 5 | e->pique_rule << 6),
            /* pique=play: only elder can pique, so who is elder matters while one is open */
            (int8_t)(e->pique_rule == PK_PQ_PLAY && e->pique_open ? e->elder + 1 : 0) };
    return XXH3_64bits(&k, sizeof k);
}

/* A card as the table keeps it: its suit and how many cards still in play rank above it. */
static int pe_move_code(const void *pos, int card)
{
    const picket_end_t *e = pos;
    int suit = card_suit(card);
    cardset_t above = (e->hand[0] | e->hand[1]) & cardset_suit(suit) & ~((cardset_of(card) << 1) - 1);
    return suit * 16 + cardset_count(above);
}

static int pe_code_move(const void *pos, int code)
{
    const picket_end_t *e = pos;
    cardset_t in = (e->hand[0] | e->hand[1]) & cardset_suit(code / 16);
    for (int above = code % 16; above > 0 && in; above--)
        in &= ~cardset_of(cardset_last(in));
    return in ? cardset_last(in) : -1;
}

/* Bounds on the rest of the hand known without search, for the side on lead L against O:
 *  - L's sure tricks: in each suit, L's cards above all of O's; all of L's cards in the suit
 *    if those outnumber O's (O must follow to each). L can cash them all first, in any order,
 *    winning each and its points; O must follow to them, and its Tens and up that fall score
 *    nothing (or for L, when the winner takes the points). Whatever follows, L then gets at
 *    least that much, and O at most its other Tens and up (all the rest, when the winner
 *    takes), the last trick, and the cards if it can still reach seven tricks.
 *  - L gets at most its own Tens and up (all of them, when the winner takes), the last trick
 *    and what its tricks can still reach (one fewer when O holds the best card of a suit L
 *    holds); O at least the cards it already has.
 * Only between tricks, with no opening-lead restriction and no Pique still possible. */
static void pe_bounds(const void *pos, int *lo, int *hi)
{
    const picket_end_t *e = pos;
    *lo = -ENDGAME_NO_BOUND;
    *hi = ENDGAME_NO_BOUND;
    if (e->lead >= 0 || e->bound_suit >= 0 || e->pique_open)
        return;
    int l = e->to_move, o = 1 - l;
    int left = cardset_count(e->hand[l]);
    if (left == 0)
        return;
    int winner_takes = e->play_points == PK_PP_WINNER_TAKES;
    int last = e->last_trick == PK_LT_ONE_OR_TWO ? 2 : 1;
    cardset_t sc = scoring(e);
    int high_l = cardset_count(e->hand[l] & sc), high_o = cardset_count(e->hand[o] & sc);
    int sure = 0, sure_pts = 0, stopped = 0, high_o_fallen = 0;
    for (int suit = 0; suit < CARD_SUITS; suit++) {
        unsigned mine = cardset_suit_bits(e->hand[l], suit), theirs = cardset_suit_bits(e->hand[o], suit);
        unsigned high = e->play_points == PK_PP_LEAD_OR_WIN_ANY ? 0x1FFFu : (unsigned)HIGH_RANKS;
        if (!mine)
            continue;
        /* O's top card beats all of L's in a suit L holds: L must lead that suit some time
         * unless O wins a trick first, so O wins at least one. */
        stopped |= theirs > mine; /* disjoint sets: the higher mask holds the higher card */
        unsigned top = theirs ? ~((2u << (31 - __builtin_clz(theirs))) - 1) & mine : mine;
        int k = __builtin_popcount(top);
        /* O's cards that fall to the cashed winners: all of them when O runs out (and then every
         * card of L's in the suit wins), else the k lowest (O keeps its best). */
        unsigned fallen = theirs;
        if (k >= __builtin_popcount(theirs)) {
            sure += __builtin_popcount(mine);
            sure_pts += __builtin_popcount(mine & high);
        } else {
            sure += k;
            sure_pts += __builtin_popcount(top & high);
            fallen = 0;
            for (unsigned rest = theirs; k > 0; k--, rest &= rest - 1)
                fallen |= rest & -rest;
        }
        /* O's Tens and up among them score for L when the winner takes, else for nobody. */
        if (winner_takes)
            sure_pts += __builtin_popcount(fallen & high);
        else
            high_o_fallen += __builtin_popcount(fallen & high);
    }
    int t_l = e->tricks[l], t_o = e->tricks[o];
    /* L's floor: the cashed tricks, their points, the cards they make sure of, and the last trick
     * when they are all the tricks left. */
    int l_min = sure_pts;
    if (sure == left)
        l_min += 1 + (t_o == 0 ? 40 : t_l + sure > 6 ? 10 : 0);
    else if (t_l + sure > 6)
        l_min += 10;
    int o_max = 0;
    if (sure < left)
        o_max = (winner_takes ? high_l + high_o - sure_pts : high_o - high_o_fallen) + last;
    if (t_o + left - sure > 6)
        o_max += t_l == 0 && sure == 0 ? 40 : 10;
    /* L's ceiling. */
    int l_max = (winner_takes ? high_l + high_o : high_l) + last;
    if (t_l + left - stopped > 6)
        l_max += t_o == 0 && !stopped ? 40 : 10;
    int o_min = t_o > 6 ? 10 : 0;
    int lower = l_min - o_max, upper = l_max - o_min;
    *lo = l == 0 ? lower : -upper;
    *hi = l == 0 ? upper : -lower;
}

static int pe_depth(const void *pos)
{
    const picket_end_t *e = pos;
    return cardset_count(e->hand[0] | e->hand[1]);
}

static void pe_to_game_move(int card, game_move_t *out) { *out = game_card_move(PK_MV_PLAY, card); }

const game_endgame_t PICKET_ENDGAME = {
    .pos_size = sizeof(picket_end_t),
    .from_state = pe_from_state,
    .to_move = pe_to_move,
    .moves = pe_moves,
    .all_moves = pe_all_moves,
    .representative = pe_representative,
    .play = pe_play,
    .key = pe_key,
    .bounds = pe_bounds,
    .move_code = pe_move_code,
    .code_move = pe_code_move,
    .depth = pe_depth,
    .to_game_move = pe_to_game_move,
};
