/* Picket behind the generic game interface: the game_t table and its adapters. The rules are
 * picket.c, the views picket_view.c, the notation picket_text.c. */
#include <stdio.h>
#include <string.h>

#include "picket.h"
#include "picket_endgame.h"
#include "picket_exchange_net.h" /* written by CMake from exchange.pknn */
#include "picket_features.h"
#include "picket_partie.h"
#include "picket_sampler.h"

/* The rules a config asks for, for a state or a view alike. */
static int g_rules(const game_config_t *cfg, picket_rules_t *r, char *err, size_t errlen)
{
    if (cfg->players && cfg->players != 2)
        return text_fail(err, errlen, "picket is for 2 players, not %d", cfg->players);
    return picket_rules_build(r, cfg->preset, cfg->flags, cfg->n_flags, err, errlen) < 0 ? -1 : 0;
}

static int g_init(void *state, const game_config_t *cfg, char *err, size_t errlen)
{
    picket_rules_t r;
    if (g_rules(cfg, &r, err, errlen) < 0)
        return -1;
    picket_init(state, &r, cfg->deal_seed);
    return 0;
}

static int g_num_players(const void *state) { (void)state; return 2; }
static int g_to_move(const void *state) { return picket_to_move(state); }
static int g_apply_chance(void *state, rng_t *rng, game_event_t *ev, int cap)
{
    return picket_apply_chance(state, rng, ev, cap);
}
static int g_legal(const void *state, game_move_t *out, int cap) { return picket_legal_moves(state, out, cap); }
static int g_random(const void *state, rng_t *rng, game_move_t *out) { return picket_random_move(state, rng, out); }
static int g_check(const void *state, const game_move_t *m, char *err, size_t len)
{
    return picket_is_legal(state, m, err, len);
}
static int g_apply(void *state, const game_move_t *m, game_event_t *ev, int cap) { return picket_apply(state, m, ev, cap); }

/* A set of Picket has one winner; a partie (game=rubicon) may end drawn: both rank first. */
static int g_rank(const void *state, int *rank)
{
    const picket_state_t *st = state;
    if (st->pub.phase != PK_PH_OVER)
        return 0;
    for (int s = 0; s < 2; s++)
        rank[s] = st->pub.winner == s || st->pub.winner < 0 ? 0 : 1;
    return 1;
}

/* The other seat sees a discard's count, not its cards, and a call's claim (below); every other move
 * is public. */
static void g_move_seen(const void *state, const game_move_t *m, int mover, int observer, game_move_t *seen)
{
    const picket_state_t *st = state;
    *seen = *m;
    if (m->kind == PK_MV_DISCARD && mover != observer) {
        seen->arg = (int16_t)cardset_count(m->cards);
        seen->cards = 0;
    }
    /* A call (declarations=may-sink) shows its claim as the DECLARE event says it, not its
     * cards: those come later, and only if the call wins. */
    if (m->kind == PK_MV_DECLARE && mover != observer) {
        int claim[2];
        picket_call_points(&st->rules, m->arg, m->cards, claim);
        if (picket_value_unsaid(&st->rules, m->arg))
            claim[1] = 0;
        seen->cards = (cardset_t)1 << 63 | (cardset_t)(claim[0] & 0xffff) << 16 | (cardset_t)(claim[1] & 0xffff);
    }
}

/* Between hands: after one, or before the first is dealt (the cut, and the higher cut's choice
 * of deal under cut=higher-chooses, come before any hand). */
static int g_hand_over(const void *state)
{
    const picket_state_t *st = state;
    return st->pub.phase == PK_PH_OVER || (st->pub.phase == PK_PH_DEAL && st->pub.hand_no > 0) || st->pub.hand_no == 0;
}

static void g_hand_value(const void *state, double *out)
{
    const picket_state_t *st = state;
    for (int s = 0; s < 2; s++)
        out[s] = st->pub.hand_pts[s];
}

static void g_scores(const void *state, int *out)
{
    const picket_state_t *st = state;
    out[0] = st->pub.score[0];
    out[1] = st->pub.score[1];
}

static int g_horizon_value(const void *state, double *out) { return picket_partie_horizon(state, out); }

/* A partie (game=rubicon) settles its points: the winner's gain is the loser's loss. */
static int g_settled(const void *state, int *out)
{
    const picket_state_t *st = state;
    if (st->pub.phase != PK_PH_OVER || st->rules.game != PK_GAME_RUBICON)
        return 0;
    for (int s = 0; s < 2; s++)
        out[s] = st->pub.winner < 0 ? 0 : st->pub.winner == s ? st->pub.partie_pts : -st->pub.partie_pts;
    return 1;
}

static void g_view_from_state(const void *state, int seat, void *view) { picket_view_from_state(state, seat, view); }
static int g_view_seat(const void *view) { return ((const picket_view_t *)view)->seat; }
static int g_view_num_players(const void *view) { (void)view; return 2; }

static int g_view_init(void *view, const game_config_t *cfg, int seat, char *err, size_t errlen)
{
    picket_rules_t r;
    if (seat < 0 || seat > 1)
        return text_fail(err, errlen, "picket seats are 0 and 1, not %d", seat);
    if (g_rules(cfg, &r, err, errlen) < 0)
        return -1;
    picket_view_init(view, &r, seat);
    return 0;
}

static int g_view_apply(void *view, const game_event_t *ev) { return picket_view_apply(view, ev); }
static const char *g_view_diff(const void *a, const void *b) { return picket_view_diff(a, b); }
static int g_view_to_move(const void *view) { return picket_pub_to_move(&((const picket_view_t *)view)->pub); }
static int g_view_legal(const void *view, game_move_t *out, int cap) { return picket_view_legal_moves(view, out, cap); }
static int g_view_random(const void *view, rng_t *rng, game_move_t *out)
{
    const picket_view_t *v = view;
    if (v->pub.to_move != v->seat)
        return -1;
    return picket_pub_random_move(&v->rules, &v->pub, v->hand, rng, out);
}
/* The sampler, for a search that draws many worlds of one view. */
static void *g_sampler_new(const void *view, char *err, size_t errlen)
{
    return picket_sampler_new(view, PK_SAMPLER_EXACT, err, errlen);
}

static int g_sampler_prepare(void *sampler, const void *view, char *err, size_t errlen)
{
    return picket_sampler_prepare(sampler, view, PK_SAMPLER_EXACT, err, errlen);
}

static int g_sampler_draw(void *sampler, rng_t *rng, void *state_out)
{
    return picket_sampler_draw(sampler, rng, NULL, state_out);
}

static uint64_t g_sampler_count(const void *sampler, uint64_t *holdings)
{
    if (holdings)
        *holdings = picket_sampler_holdings(sampler);
    return picket_sampler_worlds(sampler);
}

static void g_sampler_free(void *sampler) { picket_sampler_free(sampler); }

static int g_view_in_play(const void *view) { return ((const picket_view_t *)view)->pub.phase == PK_PH_PLAY; }

_Static_assert((int)PICKET_XF_MAX_ACTIVE <= (int)GAME_MAX_LEARNED_ACTIVE, "the exchange net's inputs outgrow the generic bound");

/* The exchange net's inputs for a discard. The committed net learned cotgrave's rules only
 * (docs/learning.md): a discard under other rules is not covered (the features name the 17th-
 * century flags; the later ones must keep their first values). */
static int g_learned_inputs(const void *view, const game_move_t *m, int *active, int cap)
{
    const picket_rules_t *r = &((const picket_view_t *)view)->rules;
    if (m->kind != PK_MV_DISCARD || cap < PICKET_XF_MAX_ACTIVE || r->point != PK_POINT_RUFF ||
        r->calls != PK_CALLS_OPEN || r->game != PK_GAME_RACE || r->cut != PK_CUT_LOWER_DEALS ||
        r->leftover == PK_LO_AFTER_LEAD || r->blank_order == PK_BO_ANNOUNCE_THEN_SHOW ||
        r->play_points == PK_PP_LEAD_OR_WIN_ANY || r->pique == PK_PQ_PLAY)
        return -1;
    int n = picket_exchange_features(view, m->cards, active);
    for (int i = 0; i < n; i++)
        if (active[i] >= PICKET_XF_RULES && active[i] < PICKET_XF_RULES + PICKET_XF_N_RULES)
            return -1;
    return n;
}

/* What a person at the view's seat is shown: every card here is in the view (the seat's own, or
 * shown to both). */
static void g_view_table(const void *view, game_table_t *t)
{
    const picket_view_t *v = view;
    const picket_pub_t *p = &v->pub;
    int me = v->seat, opp = 1 - me;
    memset(t, 0, sizeof *t);
    t->hand = v->hand;
    t->players = 2;
    for (int s = 0; s < 2; s++)
        t->score[s] = p->score[s];
    for (int s = 0; s < 2; s++)
        if (p->trick_card[s] >= 0) {
            int lead = s == p->leader;
            game_table_pile(t, lead ? "led" : "followed", s, cardset_of(p->trick_card[s]));
        }
    if (p->nplayed >= 2 && p->nplayed % 2 == 0 && p->trick_card[p->leader] < 0) {
        game_table_pile_t *last = &t->pile[t->n_piles];
        if (t->n_piles < GAME_TABLE_PILES) {
            game_table_pile(t, "last trick", -1, cardset_of(p->history[p->nplayed - 2]));
            last->card[last->n++] = p->history[p->nplayed - 1];
        }
    }
    game_table_pile(t, "discards", me, v->discards);
    game_table_pile(t, "shown", opp, p->blank_shown[opp] | p->decl_shown[opp]);
    game_table_pile(t, "shown", me, p->blank_shown[me] | p->decl_shown[me]);
    game_table_pile(t, "stock turned up", -1, p->leftover_shown);
    game_table_pile(t, "played", opp, p->played[opp]);
    t->n_cats = (int)PK_CAT_COUNT < (int)GAME_TABLE_CATS ? (int)PK_CAT_COUNT : (int)GAME_TABLE_CATS;
    for (int c = 0; c < t->n_cats; c++) {
        snprintf(t->cat_name[c], sizeof t->cat_name[c], "%s", PK_CAT_NAMES[c]);
        for (int s = 0; s < 2; s++)
            t->cat_pts[c][s] = p->cat_pts[s][c];
    }
    if (p->hand_no > 0) {
        game_table_line(t, "hand %d: seat %d deals, seat %d is elder", p->hand_no, p->dealer, picket_elder(p));
        game_table_line(t, "phase: %s", PK_PHASE_NAMES[p->phase]);
        game_table_line(t, "stock: %d cards; seat %d drew %d, seat %d drew %d", p->stock_left, me, p->drawn[me], opp,
                        p->drawn[opp]);
        if (p->phase == PK_PH_PLAY || p->phase == PK_PH_OVER)
            game_table_line(t, "tricks: seat %d %d, seat %d %d", me, p->tricks[me], opp, p->tricks[opp]);
        game_table_line(t, "this hand: seat %d %d, seat %d %d", me, p->hand_pts[me], opp, p->hand_pts[opp]);
    }
    if (v->rules.game == PK_GAME_RUBICON)
        game_table_line(t, "a partie of %d deals; the rubicon is %d", PK_PARTIE_DEALS, v->rules.target);
    else
        game_table_line(t, "the set is to %d", v->rules.target);
    if (p->phase == PK_PH_OVER && v->rules.game == PK_GAME_RUBICON) {
        if (p->winner < 0)
            game_table_line(t, "the partie is drawn");
        else
            game_table_line(t, "seat %d wins the partie: %d%s", p->winner, p->partie_pts, p->rubicon ? ", a rubicon" : "");
    }
}

const game_t PICKET_GAME = {
    .name = "picket",
    .state_size = sizeof(picket_state_t),
    .view_size = sizeof(picket_view_t),
    GAME_HOOKS,
    .settled = g_settled,
    .horizon_value = g_horizon_value,
    .move_seen = g_move_seen,
    .sample_world = picket_sample_world,
    .sampler_new = g_sampler_new,
    .sampler_prepare = g_sampler_prepare,
    .sampler_draw = g_sampler_draw,
    .sampler_count = g_sampler_count,
    .sampler_free = g_sampler_free,
    .move_format = picket_move_format,
    .move_parse = picket_move_parse,
    .event_format = picket_event_format,
    .event_parse = picket_event_parse,
    .heuristic_evaluate = picket_heuristic_evaluate,
    .heuristic_params = PICKET_HEURISTIC_PARAMS,
    .n_heuristic_params = PICKET_HEURISTIC_NPARAMS,
    .learned_net = PICKET_EXCHANGE_NET,
    .learned_net_size = sizeof PICKET_EXCHANGE_NET,
    .learned_inputs = g_learned_inputs,
    .endgame = &PICKET_ENDGAME,
    .view_in_play = g_view_in_play,
    .view_table = g_view_table,
};
