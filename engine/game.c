#include "game.h"

#include "cards.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int game_config_add_flag(game_config_t *cfg, const char *flag, char *err, size_t errlen)
{
    if (cfg->n_flags >= GAME_MAX_FLAGS)
        return text_fail(err, errlen, "too many flag overrides (at most %d)", GAME_MAX_FLAGS);
    if (!strchr(flag, '=') || strlen(flag) >= sizeof cfg->flags[0])
        return text_fail(err, errlen, "flag '%.40s' is not of the form name=value", flag);
    snprintf(cfg->flags[cfg->n_flags++], sizeof cfg->flags[0], "%s", flag);
    return 0;
}

int game_config_set_preset(game_config_t *cfg, const char *preset, char *err, size_t errlen)
{
    if (strlen(preset) >= sizeof cfg->preset)
        return text_fail(err, errlen, "unknown preset '%.40s'", preset);
    snprintf(cfg->preset, sizeof cfg->preset, "%s", preset);
    return 0;
}

int game_returns(const game_t *g, const void *state, double *out)
{
    int rank[GAME_MAX_PLAYERS], n = g->num_players(state);
    if (!g->rank(state, rank)) {
        for (int i = 0; i < n; i++)
            out[i] = 0.5;
        return -1;
    }
    for (int i = 0; i < n; i++) {
        double beaten = 0;
        for (int j = 0; j < n; j++)
            if (j != i)
                beaten += rank[i] < rank[j] ? 1.0 : rank[i] == rank[j] ? 0.5 : 0.0;
        out[i] = n > 1 ? beaten / (n - 1) : 1.0;
    }
    return 0;
}

const char *game_fields_diff(const void *a, const void *b, const game_field_t *fields)
{
    for (const game_field_t *f = fields; f->name; f++)
        if (memcmp((const char *)a + f->offset, (const char *)b + f->offset, f->size) != 0)
            return f->name;
    return NULL;
}

rng_t *game_chance_rng(rng_t *given, rng_t *own, uint64_t deal_seed, uint64_t stream)
{
    if (given)
        return given;
    rng_seed(own, rng_derive(deal_seed, stream));
    return own;
}

int game_illegal(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return 0;
}

int game_card_moves(int kind, uint64_t cards, game_move_t *out, int cap)
{
    int n = 0;
    for (; cards && n < cap; cards &= cards - 1)
        out[n++] = game_card_move(kind, cardset_first(cards));
    return n;
}

int game_random_card_move(int kind, uint64_t cards, rng_t *rng, game_move_t *out)
{
    int n = cardset_count(cards);
    if (n == 0)
        return -1;
    for (int k = (int)rng_below(rng, (uint32_t)n); k > 0; k--)
        cards &= cards - 1;
    *out = game_card_move(kind, cardset_first(cards));
    return 0;
}

int game_card_move_format(const game_move_t *m, const char *const *verbs, int n, unsigned bare, char *buf,
                          size_t len)
{
    char c[3];
    if (m->kind >= 1 && m->kind < n && (bare & (1u << m->kind)))
        return snprintf(buf, len, "%s", verbs[m->kind]);
    if (m->kind >= 1 && m->kind < n && m->arg >= 0 && m->arg < CARD_COUNT)
        return snprintf(buf, len, "%s %s", verbs[m->kind], card_format(m->arg, c));
    return snprintf(buf, len, "?");
}

int game_card_move_parse(const char *text, const char *const *verbs, int n, unsigned bare, game_move_t *out,
                         char *err, size_t errlen)
{
    text_tokens_t tk;
    char shown[40], list[80] = "";
    int kind = 1, c;
    memset(out, 0, sizeof *out);
    if (text_tokenize(text, &tk) <= 0)
        return text_fail(err, errlen, "empty or overlong move");
    while (kind < n && strcmp(tk.t[0], verbs[kind]) != 0)
        kind++;
    if (kind == n) {
        for (int k = 1; k < n; k++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", k > 1 ? ", " : "", verbs[k]);
        text_quote(tk.t[0], 24, shown, sizeof shown);
        return text_fail(err, errlen, "unknown move '%s' (%s)", shown, list);
    }
    if (bare & (1u << kind)) {
        if (tk.n != 1)
            return text_fail(err, errlen, "%s takes nothing after it", tk.t[0]);
        out->kind = (uint16_t)kind;
        return 0;
    }
    if (tk.n != 2 || text_card(tk.t[1], &c) < 0)
        return text_fail(err, errlen, "%s needs exactly one card, as '%s AS'", tk.t[0], tk.t[0]);
    *out = game_card_move(kind, c);
    return 0;
}

int game_flag_split(const char *flag, char *name, size_t cap, const char **value, char *err, size_t errlen)
{
    snprintf(name, cap, "%s", flag);
    char *eq = strchr(name, '=');
    if (!eq)
        return text_error(err, errlen, "flag '%s' is not of the form name=value", name);
    *eq = '\0';
    *value = eq + 1;
    return 0;
}

int game_event_start(const char *text, const char *const *names, int count, text_tokens_t *tk, game_event_t *ev,
                     char *word, size_t wordcap, char *err, size_t errlen)
{
    memset(ev, 0, sizeof *ev);
    ev->audience = GAME_ALL;
    if (text_tokenize(text, tk) <= 0)
        return text_fail(err, errlen, "empty or overlong event");
    int type = -1;
    for (int i = 1; i < count; i++)
        if (strcmp(tk->t[0], names[i]) == 0)
            type = i;
    text_quote(tk->t[0], 24, word, wordcap);
    if (type < 0)
        return text_fail(err, errlen, "unknown event '%s'", word);
    ev->type = (uint8_t)type;
    return 0;
}

/* ---------------------------------------------------------------- event notation */

static int field_get(const game_event_t *ev, char f)
{
    return f == 'g' ? ev->arg : f == 'a' ? ev->a : f == 'b' ? ev->b : f == 'c' ? ev->c : ev->seat;
}

static void field_set(game_event_t *ev, char f, int v)
{
    if (f == 'g')
        ev->arg = (int8_t)v;
    else if (f == 'a')
        ev->a = (int16_t)v;
    else if (f == 'b')
        ev->b = (int16_t)v;
    else if (f == 'c')
        ev->c = v;
    else
        ev->seat = (int8_t)v;
}

/* A list kind's value for its first name: N of "(a|b)N", 0 for "{L}LO:HI". */
static int list_offset(const char *kind) { return kind[0] == '(' ? atoi(strchr(kind, ')') + 1) : 0; }

/* Name i of a list kind (its length in *n), or NULL if there is none. */
static const char *list_item(const char *kind, const char *const *const *lists, int i, size_t *n)
{
    int l, lo, hi;
    if (kind[0] == '{') {
        sscanf(kind, "{%d}%d:%d", &l, &lo, &hi);
        if (i < lo || i > hi)
            return NULL;
        *n = strlen(lists[l][i]);
        return lists[l][i];
    }
    const char *p = kind + 1;
    for (*n = strcspn(p, "|)"); i > 0 && p[*n] == '|'; i--, *n = strcspn(p, "|)"))
        p += *n + 1;
    return i == 0 ? p : NULL;
}

/* A field word read from a token (tok, the value into *v) or written (tok NULL, *v's text into
 * out): 1, or 0 if the token or the value is not of its kind (the text written anyway). */
static int field_word(const char *kind, const char *const *const *lists, const char *tok, int *v, char *out,
                      size_t cap)
{
    int lo = 0, hi = 0;
    size_t n = 0;
    char c[3];
    const char *name;
    switch (kind[0]) {
    case '#':
        sscanf(kind + 1, "%d:%d", &lo, &hi);
        if (tok)
            return text_int(tok, lo, hi, v) == 0;
        snprintf(out, cap, "%d", *v);
        return *v >= lo && *v <= hi;
    case 'C':
    case 'P':
        if (tok)
            return text_card(tok, v) == 0;
        snprintf(out, cap, "%s", card_format(*v, c));
        return *v >= 0 && *v < CARD_COUNT;
    case 'U':
        if (tok)
            return strlen(tok) == 1 && (*v = card_parse_suit(tok[0])) != CARD_NONE;
        snprintf(out, cap, "%c", CARD_SUIT_CHARS[*v & 3]);
        return *v >= 0 && *v < CARD_SUITS;
    default:
        for (int i = 0; tok && i < 64; i++)
            if ((name = list_item(kind, lists, i, &n)) && strlen(tok) == n && strncmp(tok, name, n) == 0) {
                *v = i + list_offset(kind);
                return 1;
            }
        if (tok)
            return 0;
        name = list_item(kind, lists, *v - list_offset(kind), &n);
        snprintf(out, cap, "%.*s", name ? (int)n : 1, name ? name : "?");
        return name != NULL;
    }
    return 0;
}

#define EACH_WORD(w, words) for (const char *w = (words); *w; w += strcspn(w, " "), w += *w == ' ')

static int write_row(const char *words, const char *const *const *lists, const game_event_t *ev, char *out,
                     size_t cap)
{
    int fits = 1;
    size_t n = 0;
    EACH_WORD(w, words) {
        char part[160];
        if (w[0] != '%')
            snprintf(part, sizeof part, "%.*s", (int)strcspn(w, " "), w);
        else if (w[1] == '*' || w[1] == '+') {
            cardset_format(ev->cards, part, sizeof part);
            fits &= w[1] == '*' || ev->cards != 0;
        } else {
            int v = field_get(ev, w[1]);
            fits &= field_word(w + 2, lists, NULL, &v, part, sizeof part);
        }
        n += (size_t)snprintf(out + n, cap - n, "%s%s", n ? " " : "", part);
    }
    return fits;
}

static int read_row(const char *words, const char *const *const *lists, const text_tokens_t *tk, game_event_t *ev)
{
    int i = 0, v;
    EACH_WORD(w, words) {
        size_t len = strcspn(w, " ");
        if (w[0] == '%' && (w[1] == '*' || w[1] == '+')) {
            if ((w[1] == '+' && i >= tk->n) || text_cards(tk, i, &ev->cards) < 0)
                return 0;
            i = tk->n;
        } else if (i >= tk->n) {
            return 0;
        } else if (w[0] != '%') {
            if (strlen(tk->t[i]) != len || strncmp(tk->t[i], w, len) != 0)
                return 0;
            i++;
        } else {
            if (!field_word(w + 2, lists, tk->t[i++], &v, NULL, 0))
                return 0;
            field_set(ev, w[1], v);
            if (w[2] == 'P')
                ev->cards = cardset_of(v);
        }
    }
    return i == tk->n;
}

int game_event_write(const game_notation_t *rows, const char *const *const *lists, const game_event_t *ev,
                     char *buf, size_t len)
{
    char text[1024] = "?";
    for (; rows->words; rows++)
        if (rows->type == ev->type && write_row(rows->words, lists, ev, text, sizeof text))
            break;
    return snprintf(buf, len, "%s", text);
}

int game_event_read(const game_notation_t *rows, const char *const *const *lists, const text_tokens_t *tk, int seat,
                    game_event_t *ev)
{
    const game_event_t start = *ev;
    for (; rows->words; rows++) {
        if (rows->type != start.type)
            continue;
        *ev = start;
        ev->seat = -1;
        if (!read_row(rows->words, lists, tk, ev))
            continue;
        if (!strstr(rows->words, "%S"))
            return 1;
        if (ev->seat != seat)
            return 2;
        ev->audience = (int8_t)seat;
        return 1;
    }
    return 0;
}

void game_table_pile(game_table_t *t, const char *label, int seat, uint64_t cards)
{
    if (t->n_piles >= GAME_TABLE_PILES || !cards)
        return;
    game_table_pile_t *p = &t->pile[t->n_piles++];
    memset(p, 0, sizeof *p);
    snprintf(p->label, sizeof p->label, "%s", label);
    p->seat = (int8_t)seat;
    while (cards && p->n < (int)sizeof p->card) {
        p->card[p->n++] = (int8_t)cardset_first(cards);
        cards &= cards - 1;
    }
}

void game_table_line(game_table_t *t, const char *fmt, ...)
{
    if (t->n_lines >= GAME_TABLE_LINES)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->line[t->n_lines++], GAME_TABLE_TEXT, fmt, ap);
    va_end(ap);
}
