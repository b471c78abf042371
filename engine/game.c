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
