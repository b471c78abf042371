/* bot: every computer player behind one interface (a struct of function pointers and its own
 * data, as Pachi's engines). A bot decides from a view only: it never sees the true state.
 * Bots here: random. Heuristic, PIMC and ISMCTS plug in as further names in bot_create.
 */
#ifndef PICKET_BOT_H
#define PICKET_BOT_H

#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "rng.h"

typedef struct bot bot_t;
struct bot {
    const char *name;
    const game_t *game;
    rng_t rng;
    void *data;
    /* Choose a move for the view's seat, which must be to move. Returns 0 or -1. */
    int (*choose)(bot_t *b, const void *view, game_move_t *out);
    void (*destroy)(bot_t *b);
};

/* Names of every bot, NULL-terminated. */
extern const char *const BOT_NAMES[];

/* A new bot by name with its own seed; NULL with a reason in err (unknown name, no memory). */
bot_t *bot_create(const char *name, const game_t *g, uint64_t seed, char *err, size_t errlen);
int bot_choose(bot_t *b, const void *view, game_move_t *out);
void bot_free(bot_t *b);

#endif
