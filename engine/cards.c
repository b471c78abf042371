#include "cards.h"

#include "game.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

const char CARD_RANK_CHARS[CARD_RANKS + 1] = "23456789TJQKA";
const char CARD_SUIT_CHARS[CARD_SUITS + 1] = "CDHS";

cardset_t cardset_rank(int rank)
{
    cardset_t set = 0;
    for (int s = 0; s < CARD_SUITS; s++)
        set |= cardset_of(card_make(s, rank));
    return set;
}

cardset_t cards_pack(int size)
{
    int lowest;
    switch (size) {
    case 52: lowest = RANK_2; break;
    case 36: lowest = RANK_6; break;
    case 32: lowest = RANK_7; break;
    case 24: lowest = RANK_9; break;
    default: return 0;
    }
    cardset_t set = 0;
    for (int r = lowest; r < CARD_RANKS; r++)
        set |= cardset_rank(r);
    return set;
}

uint64_t cards_choose(int n, int k)
{
    if (n < 0 || k < 0 || k > n)
        return 0;
    uint64_t c = 1;
    for (int i = 1; i <= k; i++)
        c = c * (uint64_t)(n - k + i) / (uint64_t)i;
    return c;
}

/* The place of c (either case) in chars, or CARD_NONE. */
static int char_index(const char *chars, char c)
{
    const char *p = strchr(chars, toupper((unsigned char)c));
    return (c && p) ? (int)(p - chars) : CARD_NONE;
}

int card_parse_rank(char c) { return char_index(CARD_RANK_CHARS, c); }
int card_parse_suit(char c) { return char_index(CARD_SUIT_CHARS, c); }

int card_parse(const char *text, size_t len)
{
    int rank;
    if (len == 3 && text[0] == '1' && text[1] == '0')
        rank = RANK_T;
    else if (len == 2)
        rank = card_parse_rank(text[0]);
    else
        return CARD_NONE;
    int suit = card_parse_suit(text[len - 1]);
    if (rank == CARD_NONE || suit == CARD_NONE)
        return CARD_NONE;
    return card_make(suit, rank);
}

char *card_format(int card, char buf[3])
{
    if (card < 0 || card >= CARD_COUNT) {
        buf[0] = '?';
        buf[1] = '?';
    } else {
        buf[0] = CARD_RANK_CHARS[card_rank(card)];
        buf[1] = CARD_SUIT_CHARS[card_suit(card)];
    }
    buf[2] = '\0';
    return buf;
}

/* The ranks of a pack for a hint, low to high, a run of pips as one range: "6-9 T J Q K A"
 * (36 cards), "7-9 T J Q K A" (32). Only the pack's own ranks: no pack here but the 52 has 2-5. */
static void rank_hint(cardset_t allowed, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int r = 0; r < CARD_RANKS && n + 8 < len; r++) {
        if (!(allowed & cardset_rank(r)))
            continue;
        int last = r;
        if (r < RANK_T)
            while (last + 1 < RANK_T && (allowed & cardset_rank(last + 1)))
                last++;
        int w = last - r >= 2 ? snprintf(buf + n, len - n, "%s%c-%c", n ? " " : "", CARD_RANK_CHARS[r], CARD_RANK_CHARS[last])
                              : snprintf(buf + n, len - n, "%s%c", n ? " " : "", CARD_RANK_CHARS[r]);
        if (w > 0)
            n += (size_t)w;
        if (last - r >= 2)
            r = last;
    }
}

int cards_parse_list(const char *text, cardset_t allowed, cardset_t *out, char *err, size_t errlen)
{
    cardset_t set = 0;
    int count = 0;
    const char *p = text;
    for (;;) {
        while (*p == ' ' || *p == ',' || *p == '\t')
            p++;
        if (!*p)
            break;
        const char *start = p;
        while (*p && *p != ' ' && *p != ',' && *p != '\t')
            p++;
        size_t len = (size_t)(p - start);
        char shown[20];
        text_quote(start, len < 16 ? len : 16, shown, sizeof shown);
        int card = card_parse(start, len);
        if (card == CARD_NONE) {
            char ranks[48];
            cardset_t pack = allowed ? allowed : cards_pack(CARD_COUNT);
            rank_hint(pack, ranks, sizeof ranks);
            return text_fail(err, errlen, "unknown card '%s' (use rank %s%s, suit C D H S)", shown, ranks,
                             (pack & cardset_rank(RANK_T)) ? " or 10" : "");
        }
        if (!cardset_has(allowed, card))
            return text_fail(err, errlen, "card '%s' is not in this pack", shown);
        if (cardset_has(set, card))
            return text_fail(err, errlen, "duplicate card '%s'", shown);
        set |= cardset_of(card);
        count++;
    }
    *out = set;
    return count;
}

int cardset_to_array(cardset_t set, int *cards)
{
    int n = 0;
    while (set) {
        cards[n++] = cardset_first(set);
        set &= set - 1;
    }
    return n;
}

int cardset_to_bytes(cardset_t set, uint8_t *cards)
{
    int n = 0;
    for (; set; set &= set - 1)
        cards[n++] = (uint8_t)cardset_first(set);
    return n;
}

size_t cardset_format(cardset_t set, char *buf, size_t len)
{
    size_t n = 0;
    if (len == 0)
        return 0;
    buf[0] = '\0';
    while (set) {
        int card = cardset_first(set);
        set &= set - 1;
        char c[3];
        int w = snprintf(buf + n, len - n, "%s%s", n ? " " : "", card_format(card, c));
        if (w < 0 || (size_t)w >= len - n) {
            buf[len - 1] = '\0';
            return len - 1;
        }
        n += (size_t)w;
    }
    return n;
}
