#include "game.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cards.h"

void game_quote(const char *text, size_t n, char *out, size_t cap)
{
    size_t j = 0;
    for (size_t i = 0; i < n && text[i] && j + 1 < cap; i++) {
        unsigned char c = (unsigned char)text[i];
        out[j++] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
    }
    if (cap)
        out[j] = '\0';
}

int game_config_add_flag(game_config_t *cfg, const char *flag, char *err, size_t errlen)
{
    if (cfg->n_flags >= GAME_MAX_FLAGS) {
        snprintf(err, errlen, "too many flag overrides (at most %d)", GAME_MAX_FLAGS);
        return -1;
    }
    if (!strchr(flag, '=') || strlen(flag) >= sizeof cfg->flags[0]) {
        snprintf(err, errlen, "flag '%.40s' is not of the form name=value", flag);
        return -1;
    }
    snprintf(cfg->flags[cfg->n_flags++], sizeof cfg->flags[0], "%s", flag);
    return 0;
}

int game_config_set_preset(game_config_t *cfg, const char *preset, char *err, size_t errlen)
{
    if (strlen(preset) >= sizeof cfg->preset) {
        snprintf(err, errlen, "unknown preset '%.40s'", preset);
        return -1;
    }
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

int game_tokenize(const char *text, game_tokens_t *tk)
{
    tk->n = 0;
    if (strlen(text) >= sizeof tk->buf)
        return -1;
    strcpy(tk->buf, text);
    char *save = NULL;
    for (char *w = strtok_r(tk->buf, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
        if (tk->n == GAME_MAX_TOKENS)
            return -1;
        tk->t[tk->n++] = w;
    }
    return tk->n;
}

int game_int_token(const char *s, int lo, int hi, int *out)
{
    /* Digits only, after an optional '-': strtol alone would take spaces, '+' and "0x". */
    const char *digits = *s == '-' ? s + 1 : s;
    if (!*digits || strspn(digits, "0123456789") != strlen(digits))
        return -1;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (*end || errno || v < lo || v > hi)
        return -1;
    *out = (int)v;
    return 0;
}

int game_u64_token(const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
    /* Digits only: strtoull alone would take spaces and '+', and wrap "-1" to 2^64 - 1. */
    if (!*s || strspn(s, "0123456789") != strlen(s))
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (*end || errno || v < lo || v > hi)
        return -1;
    *out = (uint64_t)v;
    return 0;
}

int game_real_token(const char *s, double lo, double hi, double *out)
{
    if (!*s || strspn(s, "0123456789.-+eE") != strlen(s))
        return -1;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (*end || errno || !isfinite(v) || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

int game_card_token(const char *s, int *out)
{
    int c = card_parse(s, strlen(s));
    if (c == CARD_NONE)
        return -1;
    *out = c;
    return 0;
}

int game_flag_split(const char *flag, char *name, size_t cap, const char **value, char *err, size_t errlen)
{
    snprintf(name, cap, "%s", flag);
    char *eq = strchr(name, '=');
    if (!eq) {
        char shown[64];
        game_quote(name, 40, shown, sizeof shown);
        snprintf(err, errlen, "flag '%s' is not of the form name=value", shown);
        return -1;
    }
    *eq = '\0';
    *value = eq + 1;
    return 0;
}

int game_event_start(const char *text, const char *const *names, int count, game_tokens_t *tk, game_event_t *ev,
                     char *word, size_t wordcap, char *err, size_t errlen)
{
    memset(ev, 0, sizeof *ev);
    ev->audience = GAME_ALL;
    if (game_tokenize(text, tk) <= 0) {
        snprintf(err, errlen, "empty or overlong event");
        return -1;
    }
    int type = -1;
    for (int i = 1; i < count; i++)
        if (strcmp(tk->t[0], names[i]) == 0)
            type = i;
    game_quote(tk->t[0], 24, word, wordcap);
    if (type < 0) {
        snprintf(err, errlen, "unknown event '%s'", word);
        return -1;
    }
    ev->type = (uint8_t)type;
    return 0;
}
