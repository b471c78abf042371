/* worlds: the one source of hidden-card worlds for every search, through game_t only.
 *
 * A search prepares it once a decision for the view it decides from, then draws as many worlds
 * as it likes: each a full state drawn uniformly among those consistent with the view (game_t's
 * prepared sampler where the game has one, else its sample_world). The sampler's memory is kept
 * from one decision to the next.
 */
#ifndef PICKET_WORLDS_H
#define PICKET_WORLDS_H

#include "game.h"
#include "rng.h"

typedef struct worlds {
    const game_t *g;
    const void *view;   /* the view prepared for; the caller keeps it alive while drawing */
    void *sampler;      /* NULL: the game has no prepared sampler */
    char err[GAME_ERR_LEN]; /* why the last worlds_prepare failed, if the sampler said */
} worlds_t;

void worlds_init(worlds_t *w, const game_t *g);
/* Make ready to draw worlds of `view`. 0, or -1: the game cannot sample, or the view is one its
 * sampler refuses (a view the rules never give), or no memory. */
int worlds_prepare(worlds_t *w, const void *view);
/* One world into state_out (g->state_size bytes), its chance from rng: 0, or -1 if none. */
int worlds_draw(worlds_t *w, rng_t *rng, void *state_out);
void worlds_free(worlds_t *w);

#endif
