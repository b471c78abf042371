/* exchange_ref: the reference judgement of a Picket exchange (exchange_ref.h). */
#include "exchange_ref.h"

#include "picket_endgame.h"
#include "text.h"

int exref_init(exref_t *x, char *err, size_t errlen)
{
    x->play = EXREF_PLAY_SOLVED;
    x->pimc = NULL;
    rng_seed(&x->rng, 0xb07);
    x->solver = solver_create(&PICKET_ENDGAME, 16, err, errlen);
    return x->solver ? 0 : -1;
}

void exref_free(exref_t *x)
{
    solver_free(x->solver);
    pimc_free(x->pimc);
    x->solver = NULL;
    x->pimc = NULL;
}

int exref_play_by_bot(exref_t *x, int worlds, char *err, size_t errlen)
{
    pimc_params_t p;
    pimc_default_params(&p);
    p.worlds = worlds;
    if (!x->pimc && !(x->pimc = pimc_create(&PICKET_GAME, &p, err, errlen)))
        return -1;
    x->play = EXREF_PLAY_BOT;
    return 0;
}

int exref_heuristic_move(exref_t *x, const picket_state_t *st, game_move_t *out)
{
    picket_view_t v;
    picket_view_from_state(st, picket_to_move(st), &v);
    int n = picket_view_legal_moves(&v, x->moves, GAME_MAX_MOVES);
    if (n <= 0)
        return -1;
    picket_heuristic_evaluate(&v, NULL, x->moves, n, x->values);
    int best = 0;
    for (int i = 1; i < n; i++)
        if (x->values[i] > x->values[best])
            best = i;
    *out = x->moves[best];
    return 0;
}

/* Play on (chance by the state's own deal) until `stop` says so, or the hand reaches its play
 * (with through_play, its end): the cards by PIMC when the play is the bot's, all else by the
 * heuristic. 0, or -1 if the state has no move. */
static int play_until(exref_t *x, picket_state_t *st, int (*stop)(const picket_state_t *), int through_play)
{
    for (int steps = 0; steps < 1000; steps++) {
        int tm = picket_to_move(st);
        if (tm == GAME_OVER || (through_play ? PICKET_GAME.hand_over(st) : st->pub.phase == PK_PH_PLAY) || (stop && stop(st)))
            return 0;
        game_move_t m;
        picket_view_t v;
        if (tm == GAME_CHANCE) {
            picket_apply_chance(st, NULL, NULL, 0);
            continue;
        }
        if (x->play == EXREF_PLAY_BOT && st->pub.phase == PK_PH_PLAY) {
            picket_view_from_state(st, tm, &v);
            if (pimc_search(x->pimc, &v, NULL, NULL, &x->rng, x->moves, x->values, GAME_MAX_MOVES, &m) < 0)
                return -1;
        } else if (exref_heuristic_move(x, st, &m) < 0) {
            return -1;
        }
        picket_apply(st, &m, NULL, 0);
    }
    return -1;
}

static int at_elder_exchange(const picket_state_t *st) { return st->pub.phase == PK_PH_ELDER_EXCHANGE; }
static int at_younger_exchange(const picket_state_t *st) { return st->pub.phase == PK_PH_YOUNGER_EXCHANGE; }

int exref_position(exref_t *x, const picket_rules_t *r, uint64_t seed, int i, picket_state_t *st, uint64_t *deal)
{
    *deal = rng_derive(seed, (uint64_t)i);
    picket_init(st, r, *deal);
    if (play_until(x, st, at_elder_exchange, 0) < 0 || !at_elder_exchange(st))
        return 0;
    if (i % 2 == 0)
        return 1;
    game_move_t m;
    return exref_heuristic_move(x, st, &m) == 0 && picket_apply(st, &m, NULL, 0) >= 0 && play_until(x, st, at_younger_exchange, 0) == 0 &&
           at_younger_exchange(st);
}

int exref_value(exref_t *x, const picket_state_t *world, int seat, const game_move_t *discard, double *out)
{
    picket_state_t st = *world;
    if (picket_apply(&st, discard, NULL, 0) < 0 || play_until(x, &st, NULL, x->play != EXREF_PLAY_SOLVED) < 0)
        return -1;
    double d = st.pub.hand_pts[seat] - st.pub.hand_pts[1 - seat];
    picket_end_t e;
    if (x->play == EXREF_PLAY_SOLVED && picket_to_move(&st) != GAME_OVER && picket_end_from_state(&st, &e) == 0) {
        int move, v = solver_best(x->solver, &e, &move);
        d += picket_to_move(&st) == seat ? v : -v;
    }
    *out = d;
    return 0;
}
