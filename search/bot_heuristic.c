/* bot_heuristic: the heuristic bot, the game's rules of thumb (bot.h's table). */
#include "bot_heuristic.h"

#include <stdio.h>
#include <stdlib.h>

#include "measure.h"

/* The game's rules of thumb, weighed by the game's declared parameters: each is the option
 * "heuristic.<game>.<param>", offered for every registered game. */
typedef struct heuristic_data {
    game_move_t moves[GAME_MAX_MOVES];
    double values[GAME_MAX_MOVES];
    int n_params;
    double params[]; /* the game's heuristic_params, in its order */
} heuristic_data_t;

static int heuristic_evaluate(bot_t *b, const void *view, const bot_limits_t *lim, const bot_hooks_t *hooks,
                              game_move_t *moves, double *values, int cap)
{
    (void)lim;
    (void)hooks;
    heuristic_data_t *d = b->data;
    int n = b->game->view_legal_moves(view, moves, cap);
    if (n <= 0)
        return -1;
    b->game->heuristic_evaluate(view, d->n_params ? d->params : NULL, moves, n, values);
    return n;
}

static int heuristic_choose(bot_t *b, const void *view, const bot_limits_t *lim, const bot_hooks_t *hooks,
                            game_move_t *out)
{
    heuristic_data_t *d = b->data;
    double t0 = measure_now();
    int n = heuristic_evaluate(b, view, lim, hooks, d->moves, d->values, GAME_MAX_MOVES);
    if (n <= 0)
        return -1;
    /* The best value; among equals, one at random so play is not predictable. */
    int best = 0, ties = 1;
    for (int i = 1; i < n; i++) {
        if (d->values[i] > d->values[best] + 1e-9) {
            best = i;
            ties = 1;
        } else if (d->values[i] > d->values[best] - 1e-9 && rng_below(&b->rng, (uint32_t)++ties) == 0) {
            best = i;
        }
    }
    *out = d->moves[best];
    if (hooks && hooks->info) {
        bot_sort_moves(d->moves, d->values, n);
        bot_report(hooks, 1, 0, n, t0, d->moves, d->values, n);
    }
    return 0;
}

static void free_data(bot_t *b) { free(b->data); }

static void heuristic_option_name(char *buf, size_t len, const game_t *g, const game_param_t *p)
{
    snprintf(buf, len, "heuristic.%s.%s", g->name, p->name);
}

int bot_heuristic_create(bot_t *b, const bot_settings_t *set, char *err, size_t errlen)
{
    const game_t *g = b->game;
    if (!g->heuristic_evaluate)
        return text_fail(err, errlen, "bot heuristic: game %s has no heuristic", g->name);
    int np = g->heuristic_params ? g->n_heuristic_params : 0;
    heuristic_data_t *d = calloc(1, sizeof *d + sizeof d->params[0] * (size_t)np);
    if (!d)
        return text_fail(err, errlen, "out of memory");
    d->n_params = np;
    for (int i = 0; i < np; i++) {
        char name[BOT_OPTION_NAME_LEN];
        heuristic_option_name(name, sizeof name, g, &g->heuristic_params[i]);
        d->params[i] = g->heuristic_params[i].def;
        if (set && bot_settings_get(set, name, &d->params[i], NULL) < 0) {
            snprintf(err, errlen, "bot heuristic: option %s is not declared", name);
            free(d);
            return -1;
        }
    }
    b->data = d;
    b->choose = heuristic_choose;
    b->evaluate = heuristic_evaluate;
    b->destroy = free_data;
    return 0;
}

int bot_heuristic_options(opt_list_t *l)
{
    int ng;
    const game_t *const *games = game_list(&ng);
    for (int k = 0; k < ng; k++) {
        const game_t *g = games[k];
        for (int i = 0; g->heuristic_params && i < g->n_heuristic_params; i++) {
            const game_param_t *p = &g->heuristic_params[i];
            char def[OPT_NUMBER_LEN], name[BOT_OPTION_NAME_LEN];
            opt_format_number(p->def, OPT_FLOAT, def, sizeof def);
            heuristic_option_name(name, sizeof name, g, p);
            opt_def_t o = { opt_list_printf(l, "%s", name), OPT_FLOAT, opt_list_printf(l, "%s", def), p->min,
                            p->max, { NULL }, p->help, NULL, OPT_TO_NONE, 0 };
            if (!o.name || !o.def || opt_list_add(l, &o) < 0)
                return -1;
        }
    }
    return 0;
}
