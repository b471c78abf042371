#include "worlds.h"

#include <stddef.h>

void worlds_init(worlds_t *w, const game_t *g) { *w = (worlds_t){ .g = g }; }

int worlds_prepare(worlds_t *w, const void *view)
{
    const game_t *g = w->g;
    w->view = view;
    if (!g->sampler_new)
        return g->sample_world ? 0 : -1;
    if (w->sampler && g->sampler_prepare(w->sampler, view, w->err, sizeof w->err) < 0) {
        g->sampler_free(w->sampler);
        w->sampler = NULL;
    }
    if (!w->sampler)
        w->sampler = g->sampler_new(view, w->err, sizeof w->err);
    return w->sampler ? 0 : -1;
}

int worlds_draw(worlds_t *w, rng_t *rng, void *state_out)
{
    if (w->sampler)
        return w->g->sampler_draw(w->sampler, rng, state_out);
    return w->g->sample_world(w->view, rng, state_out);
}

void worlds_free(worlds_t *w)
{
    if (w->sampler && w->g->sampler_free)
        w->g->sampler_free(w->sampler);
    w->sampler = NULL;
}
