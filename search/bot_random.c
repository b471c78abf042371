/* bot_random: the random bot, uniform over the legal moves (bot.h's table). */
#include "bot_random.h"

#include "measure.h"


/* Every legal move is equally good to the random bot. */
static int random_evaluate(bot_t *b, const void *view, const bot_limits_t *lim, const bot_hooks_t *hooks,
                           game_move_t *moves, double *values, int cap)
{
    (void)lim;
    (void)hooks;
    int n = b->game->view_legal_moves(view, moves, cap);
    for (int i = 0; i < n; i++)
        values[i] = 0.0;
    return n > 0 ? n : -1;
}

static int random_choose(bot_t *b, const void *view, const bot_limits_t *lim, const bot_hooks_t *hooks, game_move_t *out)
{
    (void)lim;
    double t0 = measure_now();
    if (b->game->view_to_move(view) < 0 || b->game->view_random_move(view, &b->rng, out) < 0)
        return -1;
    double zero = 0.0;
    bot_report(hooks, 1, 0, 1, t0, out, &zero, 1);
    return 0;
}

int bot_random_create(bot_t *b, const bot_settings_t *set, char *err, size_t errlen)
{
    (void)set;
    (void)err;
    (void)errlen;
    b->choose = random_choose;
    b->evaluate = random_evaluate;
    return 0;
}
