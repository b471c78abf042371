#include "level.h"

#include <stdio.h>

enum { BUDGET_ISMCTS_ITERATIONS, BUDGET_PIMC_WORLDS, BUDGET_PIMC_CANDIDATES, N_BUDGETS };
static const char *const BUDGETS[N_BUDGETS] = {
    [BUDGET_ISMCTS_ITERATIONS] = "ismcts.iterations",
    [BUDGET_PIMC_WORLDS] = "pimc.worlds",
    [BUDGET_PIMC_CANDIDATES] = "pimc.candidates",
};

static const struct level {
    const char *bot;
    const char *budget[N_BUDGETS];
} LEVELS[LEVEL_MAX - LEVEL_MIN + 1] = {
    { "random", { NULL, NULL, NULL } },
    { "heuristic", { NULL, NULL, NULL } },
    /* the heuristic's exchange and call; in the play 2 worlds, each solved exactly */
    { "pimc", { [BUDGET_PIMC_WORLDS] = "2", [BUDGET_PIMC_CANDIDATES] = "1" } },
    /* the same exchange, 8 worlds in the play */
    { "pimc", { [BUDGET_PIMC_WORLDS] = "8", [BUDGET_PIMC_CANDIDATES] = "1" } },
    /* the default bot (hybrid) at its default budgets */
    { NULL, { NULL, NULL, NULL } },
};

static const struct level *find(int n, char *err, size_t errlen)
{
    if (n < LEVEL_MIN || n > LEVEL_MAX) {
        snprintf(err, errlen, "option level: '%d' is not a level from %d to %d", n, LEVEL_MIN, LEVEL_MAX);
        return NULL;
    }
    return &LEVELS[n - LEVEL_MIN];
}

const char *level_bot(int n, int *ok, char *err, size_t errlen)
{
    const struct level *lv = find(n, err, errlen);
    *ok = lv != NULL;
    return lv ? lv->bot : NULL;
}

int level_set_budgets(int n, bot_settings_t *set, char *err, size_t errlen)
{
    const struct level *lv = find(n, err, errlen);
    if (!lv)
        return -1;
    const char *value[N_BUDGETS];
    for (int k = 0; k < N_BUDGETS; k++) {
        const opt_def_t *o = bot_settings_find(set, BUDGETS[k]);
        if (!o)
            return text_fail(err, errlen, "option level: no bot declares %s", BUDGETS[k]);
        value[k] = lv->budget[k] ? lv->budget[k] : o->def;
        if (opt_check(o, value[k], NULL, err, errlen) < 0)
            return -1;
    }
    for (int k = 0; k < N_BUDGETS; k++)
        if (bot_settings_set(set, BUDGETS[k], value[k], err, errlen) < 0)
            return -1;
    return 0;
}
