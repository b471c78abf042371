/* picket_sample: worlds for a view (game_t.sample_world). Being written. */
#include "picket.h"

int picket_sample_world(const void *view, rng_t *rng, void *state_out)
{
    (void)view;
    (void)rng;
    (void)state_out;
    return -1;
}
