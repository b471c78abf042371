#include "playout.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int playout_init(playout_t *p, const game_t *g, double scale, const double *hparams, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    p->g = g;
    p->scale = scale > 0 ? scale : 30.0;
    p->hparams = hparams;
    p->view = calloc(1, g->view_size);
    if (!p->view) {
        playout_free(p);
        return text_fail(err, errlen, "out of memory");
    }
    return 0;
}

void playout_free(playout_t *p)
{
    free(p->view);
    memset(p, 0, sizeof *p);
}

int playout_done(const playout_t *p, const void *state)
{
    return p->g->to_move(state) == GAME_OVER || p->g->hand_over(state);
}

void playout_reward(const playout_t *p, const void *state, double *r)
{
    const game_t *g = p->g;
    int n = g->num_players(state);
    double hv[GAME_MAX_PLAYERS], sum = 0;
    int own = g->horizon_value && g->horizon_value(state, hv);
    if (!own && g->to_move(state) == GAME_OVER && game_returns(g, state, r) == 0)
        return;
    if (!own)
        g->hand_value(state, hv);
    for (int i = 0; i < n; i++)
        sum += hv[i];
    for (int i = 0; i < n; i++) {
        double others = n > 1 ? (sum - hv[i]) / (n - 1) : 0.0;
        r[i] = 0.5 + 0.45 * tanh((hv[i] - others) / p->scale);
    }
}

void playout_apply(playout_t *p, void *state, const game_move_t *m)
{
    p->g->apply(state, m, p->ev, GAME_MAX_EVENTS);
}

/* The heuristic's best of the n moves in p->moves, judged from the mover's view of the world;
 * among more than `sample` (> 0), a random `sample` of them. */
static int heuristic_pick(playout_t *p, const void *state, int n, int sample, rng_t *rng, game_move_t *out)
{
    const game_t *g = p->g;
    if (sample > 0 && n > sample) {
        for (int i = 0; i < sample; i++) {
            int j = i + (int)rng_below(rng, (uint32_t)(n - i));
            game_move_t t = p->moves[i];
            p->moves[i] = p->moves[j];
            p->moves[j] = t;
        }
        n = sample;
    }
    g->view_from_state(state, g->to_move(state), p->view);
    g->heuristic_evaluate(p->view, p->hparams, p->moves, n, p->values);
    int best = 0;
    for (int i = 1; i < n; i++)
        if (p->values[i] > p->values[best])
            best = i;
    *out = p->moves[best];
    return 0;
}

int playout_move(playout_t *p, const void *state, int policy, rng_t *rng, game_move_t *out)
{
    const game_t *g = p->g;
    if (policy == PLAYOUT_RANDOM || !g->heuristic_evaluate)
        return g->random_move(state, rng, out);
    /* Every move when they are few; else a random PLAYOUT_SAMPLE of them, drawn without listing
     * the thousands (an exchange). */
    int n = g->legal_moves(state, p->moves, PLAYOUT_WIDE + 1);
    if (n <= 0)
        return -1;
    if (n > PLAYOUT_WIDE) {
        for (n = 0; n < PLAYOUT_SAMPLE; n++)
            if (g->random_move(state, rng, &p->moves[n]) < 0)
                return -1;
    }
    return heuristic_pick(p, state, n, 0, rng, out);
}

int playout_move_like(playout_t *p, const void *state, int policy, int observer, const game_move_t *seen, rng_t *rng,
                      game_move_t *out)
{
    const game_t *g = p->g;
    int n = g->legal_moves(state, p->moves, GAME_MAX_MOVES), k = 0, mover = g->to_move(state);
    for (int i = 0; i < n; i++) {
        game_move_t s;
        if (g->move_seen)
            g->move_seen(state, &p->moves[i], mover, observer, &s);
        else
            s = p->moves[i];
        if (memcmp(&s, seen, sizeof s) == 0)
            p->moves[k++] = p->moves[i];
    }
    if (k == 0)
        return -1;
    if (policy == PLAYOUT_RANDOM || !g->heuristic_evaluate) {
        *out = p->moves[rng_below(rng, (uint32_t)k)];
        return 0;
    }
    return heuristic_pick(p, state, k, PLAYOUT_SAMPLE, rng, out);
}

int playout_run(playout_t *p, void *state, int policy, rng_t *rng)
{
    const game_t *g = p->g;
    int steps = 0;
    for (int left = PLAYOUT_MAX_STEPS; !playout_done(p, state); left--) {
        if (left == 0)
            return -1;
        if (g->to_move(state) == GAME_CHANCE) {
            if (g->apply_chance(state, rng, p->ev, GAME_MAX_EVENTS) <= 0)
                return -1;
            continue;
        }
        game_move_t m;
        if (playout_move(p, state, policy, rng, &m) < 0)
            return -1;
        playout_apply(p, state, &m);
        steps++;
    }
    return steps;
}
