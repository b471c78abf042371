#include "hybrid.h"

#include <stdio.h>
#include <stdlib.h>

#include "ismcts.h"
#include "pimc.h"

typedef struct hybrid {
    const game_t *g;
    ismcts_t *tree;     /* before the play */
    pimc_t *play;       /* in the play; NULL for a game without an endgame */
} hybrid_t;

static int hybrid_search(void *search, const void *view, const bot_limits_t *lim, const bot_hooks_t *hooks,
                         rng_t *rng, game_move_t *moves, double *values, int cap, game_move_t *best)
{
    hybrid_t *h = search;
    if (h->play && h->g->view_in_play(view))
        return pimc_search(h->play, view, lim, hooks, rng, moves, values, cap, best);
    return ismcts_search(h->tree, view, lim, hooks, rng, moves, values, cap, best);
}

static void hybrid_free(void *search)
{
    hybrid_t *h = search;
    if (h) {
        ismcts_free(h->tree);
        pimc_free(h->play);
    }
    free(h);
}

/* Both halves from the settings; NULL with a reason. */
static hybrid_t *hybrid_create(const game_t *g, const bot_settings_t *set, char *err, size_t errlen)
{
    ismcts_params_t tp;
    pimc_params_t pp;
    if (ismcts_params_from(set, &tp, err, errlen) < 0 || pimc_params_from(set, &pp, err, errlen) < 0)
        return NULL;
    hybrid_t *h = calloc(1, sizeof *h);
    if (!h) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    h->g = g;
    h->tree = ismcts_create(g, &tp, err, errlen);
    if (h->tree && g->endgame)
        h->play = pimc_create(g, &pp, err, errlen);
    if (!h->tree || (g->endgame && !h->play)) {
        hybrid_free(h);
        return NULL;
    }
    return h;
}

int hybrid_bot_create(bot_t *b, const bot_settings_t *set, char *err, size_t errlen)
{
    return bot_from_search(b, hybrid_create(b->game, set, err, errlen), hybrid_search, hybrid_free, err, errlen);
}
