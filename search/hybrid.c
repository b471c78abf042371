#include "hybrid.h"

#include <stdio.h>
#include <stdlib.h>

#include "ismcts.h"
#include "pimc.h"

typedef struct hybrid {
    ismcts_t *tree;     /* before the play */
    pimc_t *play;       /* in the play; NULL for a game without an endgame */
    game_move_t moves[GAME_MAX_MOVES];
    double values[GAME_MAX_MOVES];
} hybrid_t;

static int hybrid_search(bot_t *b, const void *view, const bot_limits_t *lim, const bot_hooks_t *hooks,
                         game_move_t *moves, double *values, int cap, game_move_t *best)
{
    hybrid_t *d = b->data;
    if (d->play && b->game->view_in_play(view))
        return pimc_search(d->play, view, lim, hooks, &b->rng, moves, values, cap, best);
    return ismcts_search(d->tree, view, lim, hooks, &b->rng, moves, values, cap, best);
}

static int hybrid_evaluate(bot_t *b, const void *view, const bot_limits_t *lim, const bot_hooks_t *hooks,
                           game_move_t *moves, double *values, int cap)
{
    game_move_t best;
    return hybrid_search(b, view, lim, hooks, moves, values, cap, &best);
}

static int hybrid_choose(bot_t *b, const void *view, const bot_limits_t *lim, const bot_hooks_t *hooks,
                         game_move_t *out)
{
    hybrid_t *d = b->data;
    return hybrid_search(b, view, lim, hooks, d->moves, d->values, GAME_MAX_MOVES, out) > 0 ? 0 : -1;
}

static void hybrid_destroy(bot_t *b)
{
    hybrid_t *d = b->data;
    if (d) {
        ismcts_free(d->tree);
        pimc_free(d->play);
    }
    free(d);
}

int hybrid_bot_create(bot_t *b, const bot_settings_t *set, char *err, size_t errlen)
{
    hybrid_t *d = calloc(1, sizeof *d);
    if (!d) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    b->data = d;
    b->destroy = hybrid_destroy;
    ismcts_params_t tp;
    ismcts_params_from(set, &tp);
    d->tree = ismcts_create(b->game, &tp, err, errlen);
    if (d->tree && b->game->endgame) {
        pimc_params_t pp;
        pimc_params_from(set, &pp);
        d->play = pimc_create(b->game, &pp, err, errlen);
    }
    if (!d->tree || (b->game->endgame && !d->play)) {
        hybrid_destroy(b);
        b->data = NULL;
        b->destroy = NULL;
        return -1;
    }
    b->choose = hybrid_choose;
    b->evaluate = hybrid_evaluate;
    return 0;
}
