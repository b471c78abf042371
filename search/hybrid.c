#include "hybrid.h"

#include <stdlib.h>

#include "ismcts.h"
#include "measure.h"
#include "net.h"
#include "pimc.h"

/* A search bot: the tree for the decisions it takes, the play's PIMC for the play; the default bot
 * (hybrid) takes a decision the game's learned net covers (Picket: a discard under cotgrave's
 * rules) by the net's first of every legal move instead (issue 30, docs/learning.md). */
typedef struct hybrid {
    const game_t *g;
    ismcts_t *tree;     /* NULL: pimc throughout */
    pimc_t *play;       /* NULL: the tree throughout (the ismcts bot; a game without an endgame) */
    net_t *net;         /* the game's learned net, for the default bot; NULL: none */
    game_move_t moves[GAME_MAX_MOVES];
    double values[GAME_MAX_MOVES];
} hybrid_t;

/* The net's value of every legal move into values, sorted best first, the best into *best: the
 * count, or 0 when the net does not cover each of them (another decision, rules it did not learn). */
static int net_search(const hybrid_t *h, const void *view, const bot_hooks_t *hooks, game_move_t *moves, double *values,
                      int cap, game_move_t *best)
{
    double t0 = measure_now();
    int n = h->g->view_legal_moves(view, moves, cap), active[GAME_MAX_LEARNED_ACTIVE];
    for (int m = 0; m < n; m++) {
        int k = h->g->learned_inputs(view, &moves[m], active, GAME_MAX_LEARNED_ACTIVE);
        for (int i = 0; i < k; i++)
            if (active[i] >= net_inputs(h->net))
                k = -1;
        if (k < 0)
            return 0;
        values[m] = net_eval(h->net, active, k);
    }
    if (n < 1)
        return 0;
    bot_sort_moves(moves, values, n);
    *best = moves[0];
    bot_report(hooks, 0, 0, 0, t0, moves, values, n);
    return n;
}

static int hybrid_search(bot_t *b, const void *view, const bot_limits_t *lim, const bot_hooks_t *hooks,
                         game_move_t *moves, double *values, int cap, game_move_t *best)
{
    hybrid_t *h = b->data;
    int n = h->net && !h->g->view_in_play(view) ? net_search(h, view, hooks, moves, values, cap, best) : 0;
    if (n > 0)
        return n;
    if (h->play && (!h->tree || h->g->view_in_play(view)))
        return pimc_search(h->play, view, lim, hooks, &b->rng, moves, values, cap, best);
    return ismcts_search(h->tree, view, lim, hooks, &b->rng, moves, values, cap, best);
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
    hybrid_t *h = b->data;
    return hybrid_search(b, view, lim, hooks, h->moves, h->values, GAME_MAX_MOVES, out) > 0 ? 0 : -1;
}

static void hybrid_destroy(bot_t *b)
{
    hybrid_t *h = b->data;
    if (h) {
        ismcts_free(h->tree);
        pimc_free(h->play);
        net_free(h->net);
    }
    free(h);
}

/* b as a search bot with a tree, a play or both, each from the settings, and the game's learned net
 * where `learned` asks for it: 0, or -1 with a reason. */
static int create(bot_t *b, const bot_settings_t *set, int tree, int play, int learned, char *err, size_t errlen)
{
    ismcts_params_t tp;
    pimc_params_t pp;
    if (tree && ismcts_params_from(set, &tp, err, errlen) < 0)
        return -1;
    if (play && pimc_params_from(set, &pp, err, errlen) < 0)
        return -1;
    hybrid_t *h = calloc(1, sizeof *h);
    if (!h)
        return text_fail(err, errlen, "out of memory");
    b->data = h;
    h->g = b->game;
    if (tree)
        h->tree = ismcts_create(h->g, &tp, err, errlen);
    if (play && (h->tree || !tree))
        h->play = pimc_create(h->g, &pp, err, errlen);
    int failed = (tree && !h->tree) || (play && !h->play);
    if (!failed && learned && h->g->learned_net && h->g->learned_inputs)
        failed = !(h->net = net_read(h->g->learned_net, h->g->learned_net_size, "the game's built-in net", err, errlen));
    if (failed) {
        hybrid_destroy(b);
        return -1;
    }
    b->choose = hybrid_choose;
    b->evaluate = hybrid_evaluate;
    b->destroy = hybrid_destroy;
    return 0;
}

int ismcts_bot_create(bot_t *b, const bot_settings_t *set, char *err, size_t errlen)
{
    return create(b, set, 1, 0, 0, err, errlen);
}

int pimc_bot_create(bot_t *b, const bot_settings_t *set, char *err, size_t errlen)
{
    return create(b, set, 0, 1, 0, err, errlen);
}

int hybrid_bot_create(bot_t *b, const bot_settings_t *set, char *err, size_t errlen)
{
    return create(b, set, 1, b->game->endgame != NULL, 1, err, errlen);
}
