#include "bot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const BOT_NAMES[] = { "random", NULL };

/* random: a legal move drawn uniformly among all legal moves of the view's seat. */
static int random_choose(bot_t *b, const void *view, game_move_t *out)
{
    if (b->game->view_to_move(view) < 0)
        return -1;
    b->game->view_random_move(view, &b->rng, out);
    return 0;
}

bot_t *bot_create(const char *name, const game_t *g, uint64_t seed, char *err, size_t errlen)
{
    if (strcmp(name, "random") != 0) {
        snprintf(err, errlen, "unknown bot '%.40s' (known: random)", name);
        return NULL;
    }
    bot_t *b = calloc(1, sizeof *b);
    if (!b) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    b->name = BOT_NAMES[0];
    b->game = g;
    rng_seed(&b->rng, seed);
    b->choose = random_choose;
    return b;
}

int bot_choose(bot_t *b, const void *view, game_move_t *out) { return b->choose(b, view, out); }

void bot_free(bot_t *b)
{
    if (!b)
        return;
    if (b->destroy)
        b->destroy(b);
    free(b);
}
