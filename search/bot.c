#include "bot.h"
#include "measure.h"

#include "bot_heuristic.h"
#include "bot_random.h"
#include "hybrid.h"
#include "ismcts.h"
#include "pimc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

int64_t bot_budget(const bot_limits_t *lim, int64_t fallback, double t0, double *deadline)
{
    *deadline = 0;
    if (!lim)
        return fallback;
    if (lim->iterations > 0)
        return lim->iterations;
    if (lim->infinite)
        return -1;
    if (lim->move_time_ms > 0) {
        *deadline = t0 + lim->move_time_ms / 1000.0;
        return -1;
    }
    if (lim->time_left_ms >= 0) {
        double left = (double)lim->time_left_ms, inc = lim->inc_ms > 0 ? (double)lim->inc_ms : 0.0;
        double share = left / 30.0 + inc * 0.8;
        if (share > left / 3.0)
            share = left / 3.0;
        if (share < 1.0)
            share = 1.0;
        *deadline = t0 + share / 1000.0;
        return -1;
    }
    return fallback;
}

static int by_value_then_index(const void *a, const void *b)
{
    const bot_rank_t *x = a, *y = b;
    if (x->value != y->value)
        return x->value < y->value ? 1 : -1;
    return (x->index > y->index) - (x->index < y->index);
}

void bot_rank_sort(bot_rank_t *r, int n) { qsort(r, (size_t)n, sizeof *r, by_value_then_index); }

void bot_sort_moves(game_move_t *moves, double *values, int n)
{
    /* qsort on (value, original index): O(n log n) and stable; thousands of discards sort fast. */
    bot_rank_t r[GAME_MAX_MOVES];
    game_move_t m[GAME_MAX_MOVES];
    for (int i = 0; i < n; i++)
        r[i] = (bot_rank_t){ values[i], i };
    bot_rank_sort(r, n);
    memcpy(m, moves, sizeof *m * (size_t)n);
    for (int i = 0; i < n; i++) {
        moves[i] = m[r[i].index];
        values[i] = r[i].value;
    }
}

void bot_report(const bot_hooks_t *hooks, int64_t iterations, int64_t worlds, int64_t nodes, double t0,
                const game_move_t *lines, const double *values, int n)
{
    if (!hooks || !hooks->info)
        return;
    bot_info_t info = { iterations, worlds, nodes, measure_now() - t0, 0, { { 0 } }, { 0 } };
    info.nlines = n < BOT_INFO_LINES ? n : BOT_INFO_LINES;
    if (info.nlines > 0) {
        memcpy(info.moves, lines, sizeof *lines * (size_t)info.nlines);
        memcpy(info.values, values, sizeof *values * (size_t)info.nlines);
    }
    hooks->info(hooks->data, &info);
}

/* ---------------------------------------------------------------- the table */

/* Every bot. Adding one is one entry here; the engine's handshake, its `bot` option and the
 * tools list what this table holds. */
static const bot_def_t BOTS[] = {
    { "random", "uniform over the legal moves", bot_random_create, NULL },
    { "heuristic", "the game's rules of thumb, weighed by its heuristic parameters", bot_heuristic_create,
      bot_heuristic_options },
    { "ismcts", "information-set Monte Carlo tree search over sampled worlds, every decision (search/ismcts.h)",
      ismcts_bot_create, ismcts_bot_options },
    { "pimc", "perfect-information Monte Carlo: sampled worlds, the play solved exactly (search/pimc.h)",
      pimc_bot_create, pimc_bot_options },
    { "hybrid", "the default: the learned net's discards (cotgrave), ISMCTS for the rest before the play, PIMC in it (search/hybrid.h; ismcts.* and pimc.* options)",
      hybrid_bot_create, NULL },
};
enum { N_BOTS = sizeof BOTS / sizeof BOTS[0] };
/* The engine offers the bots as a combo option, which holds at most OPT_MAX_VARS values. */
_Static_assert((int)N_BOTS <= (int)OPT_MAX_VARS, "more bots than a combo option can list");

const bot_def_t *bot_list(int *count)
{
    *count = N_BOTS;
    return BOTS;
}

const bot_def_t *bot_find(const char *name)
{
    for (int i = 0; i < N_BOTS; i++)
        if (strcmp(BOTS[i].name, name) == 0)
            return &BOTS[i];
    return NULL;
}

void bot_list_names(char *buf, size_t len, const char *sep)
{
    size_t at = 0;
    if (len)
        buf[0] = '\0';
    for (int i = 0; i < N_BOTS && at < len; i++) {
        int w = snprintf(buf + at, len - at, "%s%s", i ? sep : "", BOTS[i].name);
        if (w < 0)
            break;
        at += (size_t)w;
    }
}

/* ---------------------------------------------------------------- settings */

/* An option's place in the settings, by name (uthash). */
typedef struct settings_key {
    int index;
    UT_hash_handle hh;
} settings_key_t;

struct bot_settings {
    opt_list_t list;     /* every bot's declarations */
    char **value;        /* current text of each */
    double *num;         /* and as a number (spin, float, check) */
    settings_key_t *keys, *by_name; /* one key a declaration; the map by name */
};

const opt_def_t *bot_settings_find(const bot_settings_t *set, const char *name)
{
    settings_key_t *k = NULL;
    HASH_FIND_STR(set->by_name, name, k);
    return k ? &set->list.defs[k->index] : NULL;
}

void bot_settings_free(bot_settings_t *set)
{
    if (!set)
        return;
    for (int i = 0; set->value && i < set->list.n; i++)
        free(set->value[i]);
    free(set->value);
    free(set->num);
    HASH_CLEAR(hh, set->by_name);
    free(set->keys);
    opt_list_free(&set->list);
    free(set);
}

/* Option i's value, after opt_check: 0, or -1 with a reason (refused; out of memory, which keeps
 * the old value). */
static int store(bot_settings_t *set, int i, const char *value, char *err, size_t errlen)
{
    double num;
    if (opt_check(&set->list.defs[i], value, &num, err, errlen) < 0)
        return -1;
    char *copy = strdup(value);
    if (!copy)
        return text_fail(err, errlen, "out of memory");
    free(set->value[i]);
    set->value[i] = copy;
    set->num[i] = num;
    return 0;
}

bot_settings_t *bot_settings_create(char *err, size_t errlen)
{
    bot_settings_t *set = calloc(1, sizeof *set);
    int ok = set != NULL;
    for (int i = 0; ok && i < N_BOTS; i++)
        ok = !BOTS[i].options || BOTS[i].options(&set->list) == 0;
    if (ok) {
        set->value = calloc((size_t)set->list.n + 1, sizeof *set->value);
        set->num = calloc((size_t)set->list.n + 1, sizeof *set->num);
        set->keys = calloc((size_t)set->list.n + 1, sizeof *set->keys);
        ok = set->value && set->num && set->keys;
    }
    if (!ok)
        text_fail(err, errlen, "out of memory");
    for (int i = 0; ok && i < set->list.n; i++) {
        const opt_def_t *o = &set->list.defs[i];
        /* A name declared twice, or a default outside its own declaration, is a bug of the
         * declaring code. */
        if (bot_settings_find(set, o->name))
            ok = text_fail(err, errlen, "option %s declared twice", o->name) == 0;
        else
            ok = store(set, i, o->def, err, errlen) == 0;
        if (ok) {
            set->keys[i].index = i;
            HASH_ADD_KEYPTR(hh, set->by_name, o->name, strlen(o->name), &set->keys[i]);
        }
    }
    if (ok)
        return set;
    bot_settings_free(set);
    return NULL;
}

const opt_def_t *bot_settings_options(const bot_settings_t *set, int *n)
{
    *n = set->list.n;
    return set->list.defs;
}

int bot_settings_set(bot_settings_t *set, const char *name, const char *value, char *err, size_t errlen)
{
    const opt_def_t *o = bot_settings_find(set, name);
    if (!o)
        return text_error(err, errlen, "unknown option '%s'", name);
    return store(set, (int)(o - set->list.defs), value, err, errlen);
}

void bot_settings_reset(bot_settings_t *set)
{
    /* Out of memory keeps the old value; a default never needs more than its declaration. */
    for (int i = 0; i < set->list.n; i++)
        store(set, i, set->list.defs[i].def, NULL, 0);
}

int bot_settings_get(const bot_settings_t *set, const char *name, double *num, const char **text)
{
    const opt_def_t *o = bot_settings_find(set, name);
    if (!o)
        return -1;
    if (num)
        *num = set->num[o - set->list.defs];
    if (text)
        *text = set->value[o - set->list.defs];
    return 0;
}

int bot_settings_fill(const bot_settings_t *set, const char *prefix, const opt_def_t *defs, int n, void *params,
                      char *err, size_t errlen)
{
    for (int i = 0; i < n; i++) {
        char name[BOT_OPTION_NAME_LEN];
        snprintf(name, sizeof name, "%s%s", prefix, defs[i].name);
        const char *text = defs[i].def;
        double num = 0;
        if (set && bot_settings_get(set, name, &num, &text) < 0)
            return text_fail(err, errlen, "option %s is not declared", name);
        if (!set && opt_check(&defs[i], text, &num, err, errlen) < 0)
            return -1;
        if (opt_store(&defs[i], text, num, params) < 0)
            return text_fail(err, errlen, "option %s has nowhere to go", name);
    }
    return 0;
}

/* ---------------------------------------------------------------- life */

bot_t *bot_create_with(const char *name, const game_t *g, uint64_t seed, const bot_settings_t *set, char *err,
                       size_t errlen)
{
    const bot_def_t *def = bot_find(name);
    if (!def) {
        char shown[48], known[256];
        text_quote(name, 40, shown, sizeof shown);
        bot_list_names(known, sizeof known, ", ");
        snprintf(err, errlen, "unknown bot '%s' (known: %s)", shown, known);
        return NULL;
    }
    bot_t *b = calloc(1, sizeof *b);
    if (!b) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    b->name = def->name;
    b->game = g;
    rng_seed(&b->rng, seed);
    if (def->create(b, set, err, errlen) < 0) {
        free(b);
        return NULL;
    }
    return b;
}

bot_t *bot_create(const char *name, const game_t *g, uint64_t seed, char *err, size_t errlen)
{
    return bot_create_with(name, g, seed, NULL, err, errlen);
}

int bot_choose(bot_t *b, const void *view, game_move_t *out) { return b->choose(b, view, NULL, NULL, out); }

void bot_free(bot_t *b)
{
    if (!b)
        return;
    if (b->destroy)
        b->destroy(b);
    free(b);
}
