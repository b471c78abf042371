#include "picket_score.h"

#include <string.h>

static const cardset_t COURTS_ONE_SUIT = (1u << RANK_J) | (1u << RANK_Q) | (1u << RANK_K);

int picket_is_blank(cardset_t hand)
{
    for (int s = 0; s < CARD_SUITS; s++)
        if (cardset_suit_bits(hand, s) & COURTS_ONE_SUIT)
            return 0;
    return 1;
}

int picket_card_value(int card)
{
    int r = card_rank(card);
    if (r == RANK_A)
        return 11;
    if (r >= RANK_T)
        return 10;
    return r + 2;
}

int picket_cards_value(cardset_t cards)
{
    int v = 0;
    for (; cards; cards &= cards - 1)
        v += picket_card_value(cardset_first(cards));
    return v;
}

int picket_ruff_points(int value) { return (value + 5) / 10; }

void picket_ruff(cardset_t hand, picket_ruff_t *out)
{
    memset(out, 0, sizeof *out);
    out->suit = -1;
    int best_count = -1;
    for (int s = 0; s < CARD_SUITS; s++) {
        cardset_t cards = hand & cardset_suit(s);
        int v = picket_cards_value(cards), n = cardset_count(cards);
        if (v > out->value || (v == out->value && v > 0 && n >= best_count)) {
            out->value = v;
            out->suit = s;
            out->cards = cards;
            best_count = n;
        }
    }
    out->points = picket_ruff_points(out->value);
    out->count = cardset_count(out->cards);
}

void picket_point_by_count(cardset_t hand, picket_ruff_t *out)
{
    memset(out, 0, sizeof *out);
    out->suit = -1;
    for (int s = 0; s < CARD_SUITS; s++) {
        cardset_t cards = hand & cardset_suit(s);
        int v = picket_cards_value(cards), n = cardset_count(cards);
        if (n > 0 && (n > out->count || (n == out->count && v >= out->value))) {
            out->value = v;
            out->count = n;
            out->suit = s;
            out->cards = cards;
        }
    }
    out->points = out->count;
}

void picket_point(cardset_t hand, int by_count, picket_ruff_t *out)
{
    if (by_count)
        picket_point_by_count(hand, out);
    else
        picket_ruff(hand, out);
}

void picket_point_claim(const picket_ruff_t *r, int by_count, int claim[2])
{
    claim[0] = by_count ? r->count : r->value;
    claim[1] = by_count ? r->value : 0;
}

int picket_sequence_points(int len)
{
    if (len < 3)
        return 0;
    if (len <= 4)
        return len;
    return 15 + (len - 5);
}

int picket_claim_cmp(int a0, int a1, int b0, int b1)
{
    if (a0 != b0)
        return a0 - b0;
    if (a0 == 0)
        return 0;
    return a1 - b1;
}

int picket_seq_claim_cmp(picket_seq_claim_t a, picket_seq_claim_t b)
{
    return picket_claim_cmp(a.len, a.top, b.len, b.top);
}

/* Cards making a run of ranks [top-len+1, top], taking from each rank the highest suit still
 * in `pool`. */
static cardset_t take_run(cardset_t *pool, int len, int top)
{
    cardset_t cards = 0;
    for (int r = top - len + 1; r <= top; r++) {
        cardset_t of_rank = *pool & cardset_rank(r);
        cardset_t pick = cardset_of(cardset_last(of_rank));
        cards |= pick;
        *pool &= ~pick;
    }
    return cards;
}

static void add_run(picket_sequences_t *out, int len, int top, cardset_t cards)
{
    picket_run_t *run = &out->runs[out->nruns++];
    run->len = len;
    run->top = top;
    run->points = picket_sequence_points(len);
    run->cards = cards;
    out->points += run->points;
    out->cards |= cards;
}

/* Best split of a rank multiset into disjoint runs of 3+: returns points and writes the runs
 * (len, top) chosen into lens/tops. Every run starts at the lowest rank still unused or skipped,
 * so the search is small (13 ranks, at most 4 of each). */
static int best_split(int *count, int from, int *lens, int *tops, int *nrun)
{
    while (from < CARD_RANKS && count[from] == 0)
        from++;
    if (from >= CARD_RANKS) {
        *nrun = 0;
        return 0;
    }
    /* Option 1: one card of rank `from` is left out of every run. */
    count[from]--;
    int best_lens[PK_MAX_RUNS], best_tops[PK_MAX_RUNS], best_n;
    int best = best_split(count, from, best_lens, best_tops, &best_n);
    count[from]++;
    /* Option 2: a run starts here, of every possible length. */
    int len = 0;
    while (from + len < CARD_RANKS && count[from + len] > 0)
        len++;
    for (int l = 3; l <= len; l++) {
        for (int r = from; r < from + l; r++)
            count[r]--;
        int sub_lens[PK_MAX_RUNS], sub_tops[PK_MAX_RUNS], sub_n;
        int pts = picket_sequence_points(l) + best_split(count, from, sub_lens, sub_tops, &sub_n);
        for (int r = from; r < from + l; r++)
            count[r]++;
        if (pts > best && sub_n < PK_MAX_RUNS) {
            best = pts;
            best_lens[0] = l;
            best_tops[0] = from + l - 1;
            memcpy(best_lens + 1, sub_lens, sizeof(int) * (size_t)sub_n);
            memcpy(best_tops + 1, sub_tops, sizeof(int) * (size_t)sub_n);
            best_n = sub_n + 1;
        }
    }
    memcpy(lens, best_lens, sizeof(int) * (size_t)best_n);
    memcpy(tops, best_tops, sizeof(int) * (size_t)best_n);
    *nrun = best_n;
    return best;
}

int picket_next_run(unsigned bits, int *at, int *start, int *len)
{
    int r = *at;
    while (r < CARD_RANKS) {
        if (!(bits & (1u << r))) {
            r++;
            continue;
        }
        int first = r;
        while (r < CARD_RANKS && (bits & (1u << r)))
            r++;
        if (r - first >= 3) {
            *at = r;
            *start = first;
            *len = r - first;
            return 1;
        }
    }
    *at = r;
    return 0;
}

static void sequences_suited(cardset_t hand, picket_sequences_t *out)
{
    /* Collect every maximal run; a maximal run always scores at least as much as any split of
     * it (tierce+tierce 6 < sixième 16; quint+tierce 18 = huitième 18). */
    for (int s = 0; s < CARD_SUITS; s++) {
        unsigned bits = cardset_suit_bits(hand, s);
        int at = 0, start, len;
        while (picket_next_run(bits, &at, &start, &len)) {
            cardset_t cards = (cardset_t)(((1u << len) - 1) << start) << (s * CARD_RANKS);
            add_run(out, len, start + len - 1, cards);
        }
    }
    /* Best first: the claim is runs[0]. */
    for (int i = 1; i < out->nruns; i++)
        for (int j = i; j > 0; j--) {
            picket_seq_claim_t a = { out->runs[j].len, out->runs[j].top };
            picket_seq_claim_t b = { out->runs[j - 1].len, out->runs[j - 1].top };
            if (picket_seq_claim_cmp(a, b) <= 0)
                break;
            picket_run_t t = out->runs[j];
            out->runs[j] = out->runs[j - 1];
            out->runs[j - 1] = t;
        }
}

static void sequences_unsuited(cardset_t hand, picket_sequences_t *out)
{
    int count[CARD_RANKS];
    for (int r = 0; r < CARD_RANKS; r++)
        count[r] = cardset_count(hand & cardset_rank(r));
    /* The claim: the longest run of ranks held, the highest top on equal length. */
    int best_len = 0, best_top = 0, len = 0;
    for (int r = 0; r < CARD_RANKS; r++) {
        len = count[r] ? len + 1 : 0;
        if (len >= 3 && len >= best_len) {
            best_len = len;
            best_top = r;
        }
    }
    if (best_len < 3)
        return;
    cardset_t pool = hand;
    add_run(out, best_len, best_top, take_run(&pool, best_len, best_top));
    for (int r = best_top - best_len + 1; r <= best_top; r++)
        count[r]--;
    int lens[PK_MAX_RUNS], tops[PK_MAX_RUNS], n;
    best_split(count, 0, lens, tops, &n);
    for (int i = 0; i < n && out->nruns < PK_MAX_RUNS; i++)
        add_run(out, lens[i], tops[i], take_run(&pool, lens[i], tops[i]));
}

void picket_sequences(cardset_t hand, int unsuited, picket_sequences_t *out)
{
    memset(out, 0, sizeof *out);
    if (unsuited)
        sequences_unsuited(hand, out);
    else
        sequences_suited(hand, out);
    if (out->nruns) {
        out->best.len = out->runs[0].len;
        out->best.top = out->runs[0].top;
    }
}

int picket_set_claim_cmp(picket_set_claim_t a, picket_set_claim_t b)
{
    return picket_claim_cmp(a.count, a.rank, b.count, b.rank);
}

void picket_sets(cardset_t hand, picket_sets_t *out)
{
    memset(out, 0, sizeof *out);
    /* Quatorzes first, then ternaries, each from the Ace down: best first. */
    for (int want = 4; want >= 3; want--)
        for (int r = RANK_A; r >= RANK_T; r--) {
            cardset_t cards = hand & cardset_rank(r);
            if (cardset_count(cards) != want)
                continue;
            picket_set_t *s = &out->sets[out->nsets++];
            s->rank = r;
            s->count = want;
            s->points = want == 4 ? 14 : 3;
            s->cards = cards;
            out->points += s->points;
            out->cards |= cards;
        }
    if (out->nsets) {
        out->best.count = out->sets[0].count;
        out->best.rank = out->sets[0].rank;
    }
}
