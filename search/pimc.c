#include "pimc.h"
#include "measure.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "playout.h"
#include "solver.h"
#include "worlds.h"

enum {
    MAX_FAILS = 64 /* worlds in a row not drawn or not valued (a view the rules never give) before the search gives up */
};

struct pimc {
    const game_t *g;
    pimc_params_t p;
    playout_t po;            /* the heuristic's moves and the reward; its own solver unused */
    solver_t *solver;        /* NULL: the play is finished by the heuristic */
    worlds_t worlds;
    void *world, *state;
    void *pos, *line_pos;    /* endgame positions: the world's, and the one a line is at */
    int cand[GAME_MAX_MOVES]; /* the candidates: indices into the legal moves */
    int ncand;
    double sum[GAME_MAX_MOVES], wval[GAME_MAX_MOVES]; /* per candidate: the rewards summed over the
                                                        * worlds, and this world's */
    bot_rank_t ranked[GAME_MAX_MOVES];
    /* The search in progress. */
    const void *view;
    const game_move_t *moves;
    int root;
    int64_t done;            /* worlds finished */
    int stopped;             /* should_stop said so once: it stays so */
    double t0, deadline;
    const bot_hooks_t *hooks;
    pimc_stats_t stats;
};

/* The bot's options, "pimc.<name>", declared once: name, type, default, range, help, and the
 * member of pimc_params_t the value goes to. The defaults of pimc_default_params are these. */
static const opt_def_t PIMC_OPTIONS[] = {
    { "worlds", OPT_SPIN, "32", 1, 1e9, { NULL }, "worlds a decision when go gives no limit", NULL,
      OPT_INTO(pimc_params_t, worlds, OPT_TO_INT64) },
    { "candidates", OPT_SPIN, "8", 1, PIMC_MAX_CANDIDATES, { NULL },
      "outside the play, the heuristic's best moves valued in each world (in the play: every move)", NULL,
      OPT_INTO(pimc_params_t, candidates, OPT_TO_INT) },
    { "reward_scale", OPT_FLOAT, "30", 1, 1000, { NULL }, "points of a hand worth tanh(1) in the reward", NULL,
      OPT_INTO(pimc_params_t, reward_scale, OPT_TO_DOUBLE) },
    { "solver", OPT_CHECK, "true", 0, 0, { NULL }, "solve the play exactly (false: the heuristic plays it on)", NULL,
      OPT_INTO(pimc_params_t, solve, OPT_TO_BOOL) },
    { "solver_mb", OPT_SPIN, "16", 1, 65536, { NULL }, "the solver's table in megabytes", NULL,
      OPT_INTO(pimc_params_t, solver_mb, OPT_TO_INT) },
};
enum { N_PIMC_OPTIONS = sizeof PIMC_OPTIONS / sizeof PIMC_OPTIONS[0] };

/* The table's own defaults are never refused (tests/test_bots checks each). */
void pimc_default_params(pimc_params_t *p) { pimc_params_from(NULL, p, NULL, 0); }

void pimc_free(pimc_t *s)
{
    if (!s)
        return;
    worlds_free(&s->worlds);
    solver_free(s->solver);
    playout_free(&s->po);
    free(s->world);
    free(s->state);
    free(s->pos);
    free(s->line_pos);
    free(s);
}

pimc_t *pimc_create(const game_t *g, const pimc_params_t *p, char *err, size_t errlen)
{
    if ((!g->sample_world && !g->sampler_new) || !g->heuristic_evaluate || !g->hand_over || !g->hand_value) {
        snprintf(err, errlen, "game %s cannot be searched (no sampler, heuristic or hand values)", g->name);
        return NULL;
    }
    if (g->endgame && !g->view_in_play) {
        snprintf(err, errlen, "game %s has an endgame but no view_in_play", g->name);
        return NULL;
    }
    pimc_t *s = calloc(1, sizeof *s);
    if (!s)
        goto oom;
    s->g = g;
    s->p = *p;
    worlds_init(&s->worlds, g);
    if (s->p.candidates < 1)
        s->p.candidates = 1;
    if (s->p.candidates > PIMC_MAX_CANDIDATES)
        s->p.candidates = PIMC_MAX_CANDIDATES;
    s->world = calloc(1, g->state_size);
    s->state = calloc(1, g->state_size);
    /* playout_init's only reason is memory too. */
    if (!s->world || !s->state || playout_init(&s->po, g, p->reward_scale, p->hparams, err, errlen) < 0)
        goto oom;
    if (g->endgame && p->solve) {
        s->pos = calloc(1, g->endgame->pos_size);
        s->line_pos = calloc(1, g->endgame->pos_size);
        if (!s->pos || !s->line_pos)
            goto oom;
        s->solver = solver_create(g->endgame, (size_t)(p->solver_mb > 0 ? p->solver_mb : 1), err, errlen);
        if (!s->solver) {
            pimc_free(s);
            return NULL;
        }
    }
    return s;
oom:
    pimc_free(s);
    snprintf(err, errlen, "out of memory");
    return NULL;
}

/* ---------------------------------------------------------------- one world */

/* The clock or the controller says stop. */
static int interrupted(pimc_t *s)
{
    if (!s->stopped && s->hooks && s->hooks->should_stop && s->hooks->should_stop(s->hooks->data))
        s->stopped = 1;
    return s->stopped || (s->deadline > 0 && measure_now() >= s->deadline);
}

/* Play the hand on along the solver's line (one solver_best a ply) while it is in its play: 1 if
 * it played a move, 0 if not (not in the play, or a move the rules refuse: never). */
static int solve_line(pimc_t *s, void *state)
{
    const game_endgame_t *eg = s->g->endgame;
    int played = 0;
    for (int left = PLAYOUT_MAX_STEPS; left > 0 && !playout_done(&s->po, state) &&
                                       eg->from_state(state, s->line_pos) == 0 && eg->to_move(s->line_pos) >= 0;
         left--) {
        int mv = -1;
        solver_best(s->solver, s->line_pos, &mv);
        if (mv < 0)
            break;
        game_move_t m;
        char err[GAME_ERR_LEN];
        eg->to_game_move(mv, &m);
        int legal = s->g->is_legal(state, &m, err, sizeof err);
        assert(legal); /* the solver's move is legal in its own world */
        if (!legal)
            break;
        playout_apply(&s->po, state, &m);
        played = 1;
    }
    return played;
}

/* Finish the hand in the world: chance from rng, the play along the solver's line, any other
 * decision by the heuristic from the mover's own view. The observer's reward, or -1. */
static double finish(pimc_t *s, void *state, rng_t *rng)
{
    const game_t *g = s->g;
    for (int left = PLAYOUT_MAX_STEPS; !playout_done(&s->po, state); left--) {
        if (left == 0)
            return -1.0;
        if (g->to_move(state) == GAME_CHANCE) {
            if (g->apply_chance(state, rng, s->po.ev, GAME_MAX_EVENTS) <= 0)
                return -1.0;
            continue;
        }
        if (s->solver && solve_line(s, state))
            continue;
        game_move_t m;
        if (playout_move(&s->po, state, PLAYOUT_HEURISTIC, rng, &m) < 0)
            return -1.0;
        playout_apply(&s->po, state, &m);
    }
    double r[GAME_MAX_PLAYERS];
    playout_reward(&s->po, state, r);
    return r[s->root];
}

/* The world with move m applied, then finished (finish), in s->state: the observer's reward, or
 * -1 (a move the world refuses, or a hand cut short). */
static double value_move(pimc_t *s, const game_move_t *m, rng_t *rng)
{
    char err[GAME_ERR_LEN];
    memcpy(s->state, s->world, s->g->state_size);
    if (!s->g->is_legal(s->state, m, err, sizeof err))
        return -1.0;
    playout_apply(&s->po, s->state, m);
    return finish(s, s->state, rng);
}

/* The candidate that is this move, or -1. */
static int find_candidate(const pimc_t *s, const game_move_t *m)
{
    for (int c = 0; c < s->ncand; c++)
        if (memcmp(&s->moves[s->cand[c]], m, sizeof *m) == 0)
            return c;
    return -1;
}

/* Every candidate valued in a world in the play, into wval: 0, or -1 (cut short, or a move the
 * solver and the view do not agree on: never). */
static int value_play(pimc_t *s, rng_t *rng)
{
    const game_endgame_t *eg = s->g->endgame;
    /* The world's endgame position, the observer to move there (the solver values his cards). */
    if (!s->solver || eg->from_state(s->world, s->pos) != 0 || eg->to_move(s->pos) != s->root)
        return -1;
    uint8_t em[ENDGAME_MAX_MOVES], rep[ENDGAME_MAX_MOVES];
    int ev[ENDGAME_MAX_MOVES], nrep = 0, valued = 0;
    double rep_reward[ENDGAME_MAX_MOVES];
    int ne = solver_all(s->solver, s->pos, em, ev);
    for (int c = 0; c < s->ncand; c++)
        s->wval[c] = -1.0;
    for (int i = 0; i < ne; i++) {
        game_move_t m;
        eg->to_game_move(em[i], &m);
        int c = find_candidate(s, &m);
        if (c < 0 || s->wval[c] >= 0)
            continue;
        /* Equivalent moves end alike: one line for each class. */
        int r = eg->representative(s->pos, em[i]), k = 0;
        while (k < nrep && rep[k] != r)
            k++;
        if (k == nrep) {
            if (interrupted(s))
                return -1;
            game_move_t rm; /* a class's representative: one of the world's legal cards */
            eg->to_game_move(r, &rm);
            rep[nrep] = (uint8_t)r;
            rep_reward[nrep++] = value_move(s, &rm, rng);
        }
        if (rep_reward[k] < 0)
            return -1;
        s->wval[c] = rep_reward[k];
        valued++;
    }
    return valued == s->ncand ? 0 : -1;
}

/* Every candidate valued in a world outside the play, into wval: applied, then the hand finished
 * (finish), each from the same generator. 0, or -1 (cut short, or a move the world refuses). */
static int value_candidates(pimc_t *s, uint64_t seed)
{
    for (int c = 0; c < s->ncand; c++) {
        if (c > 0 && interrupted(s))
            return -1;
        rng_t rng;
        rng_seed(&rng, seed);
        s->wval[c] = value_move(s, &s->moves[s->cand[c]], &rng);
        if (s->wval[c] < 0)
            return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------- a search */

/* The candidates: in the play every legal move (the solver values them all); else the
 * heuristic's best K from the view, best first. values is scratch. */
static void choose_candidates(pimc_t *s, int play, int n, double *values)
{
    if (play) {
        for (int i = 0; i < n; i++)
            s->cand[i] = i;
        s->ncand = n;
        return;
    }
    s->g->heuristic_evaluate(s->view, s->p.hparams, s->moves, n, values);
    for (int i = 0; i < n; i++)
        s->ranked[i] = (bot_rank_t){ values[i], i };
    bot_rank_sort(s->ranked, n);
    s->ncand = n < s->p.candidates ? n : s->p.candidates;
    for (int c = 0; c < s->ncand; c++)
        s->cand[c] = s->ranked[c].index;
}

static void report(pimc_t *s)
{
    if (!s->hooks || !s->hooks->info)
        return;
    game_move_t lines[BOT_INFO_LINES];
    double values[BOT_INFO_LINES];
    int nlines = s->done > 0 ? s->ncand : 0;
    for (int c = 0; c < nlines; c++)
        s->ranked[c] = (bot_rank_t){ s->sum[c] / (double)s->done, c };
    bot_rank_sort(s->ranked, nlines);
    for (int l = 0; l < nlines && l < BOT_INFO_LINES; l++) {
        lines[l] = s->moves[s->cand[s->ranked[l].index]];
        values[l] = s->ranked[l].value;
    }
    bot_report(s->hooks, s->done, s->done, s->solver ? (int64_t)solver_stats(s->solver)->nodes : 0, s->t0, lines,
               values, nlines);
}

int pimc_search(pimc_t *s, const void *view, const bot_limits_t *lim, const bot_hooks_t *hooks, rng_t *rng,
                game_move_t *moves, double *values, int cap, game_move_t *best)
{
    const game_t *g = s->g;
    s->t0 = measure_now();
    s->view = view;
    s->moves = moves;
    s->root = g->view_seat(view);
    s->hooks = hooks;
    s->done = 0;
    s->stopped = 0;
    s->ncand = 0;
    memset(&s->stats, 0, sizeof s->stats);
    if (s->solver)
        solver_reset_stats(s->solver);
    if (g->view_to_move(view) != s->root)
        return -1;
    int n = g->view_legal_moves(view, moves, cap);
    if (n <= 0 || worlds_prepare(&s->worlds, view) < 0)
        return -1;
    /* The worlds to search (-1: until stopped) and the deadline; with nothing to choose, one world
     * gives the move a value. */
    s->deadline = 0;
    int64_t worlds = n == 1 && !(lim && lim->infinite) ? 1 : bot_budget(lim, s->p.worlds, s->t0, &s->deadline);
    rng_t r;
    rng_seed(&r, rng_next(rng));

    /* The phase is public: the game says it, for every world alike. */
    int play = s->solver && g->view_in_play(view), fails = 0;
    choose_candidates(s, play, n, values);
    for (int c = 0; c < s->ncand; c++)
        s->sum[c] = 0.0;
    double last_report = s->t0;
    while (worlds < 0 || s->done < worlds) {
        if (worlds_draw(&s->worlds, &r, s->world) < 0) {
            if (++fails >= MAX_FAILS)
                break;
            continue;
        }
        uint64_t seed = rng_next(&r);
        int ok;
        if (play) {
            rng_t wr;
            rng_seed(&wr, seed);
            ok = value_play(s, &wr);
        } else {
            ok = value_candidates(s, seed);
        }
        if (ok == 0) {
            for (int c = 0; c < s->ncand; c++)
                s->sum[c] += s->wval[c];
            s->done++;
            fails = 0;
        } else if (++fails >= MAX_FAILS) {
            break;
        }
        if (interrupted(s))
            break;
        /* Under a clock, no world that the mean world so far says would end past it. */
        double t = measure_now();
        if (s->deadline > 0 && s->done > 0 && t + (t - s->t0) / (double)s->done > s->deadline)
            break;
        if (t - last_report >= 1.0) {
            report(s);
            last_report = t;
        }
    }

    for (int i = 0; i < n; i++)
        values[i] = -1.0;
    if (s->done == 0) {
        /* No world valued every candidate: the heuristic's move, unvalued. */
        g->heuristic_evaluate(view, s->p.hparams, moves, n, s->wval);
        int b = 0;
        for (int i = 1; i < n; i++)
            if (s->wval[i] > s->wval[b])
                b = i;
        *best = moves[b];
    } else {
        report(s);
        int b = 0;
        for (int c = 0; c < s->ncand; c++) {
            values[s->cand[c]] = s->sum[c] / (double)s->done;
            if (s->sum[c] > s->sum[b])
                b = c;
        }
        *best = moves[s->cand[b]];
    }
    s->stats.worlds = s->done;
    s->stats.nodes = s->solver ? (int64_t)solver_stats(s->solver)->nodes : 0;
    s->stats.candidates = s->ncand;
    s->stats.solved_play = play;
    s->stats.seconds = measure_now() - s->t0;
    return n;
}

void pimc_stats(const pimc_t *s, pimc_stats_t *out) { *out = s->stats; }

/* ---------------------------------------------------------------- the bot */

int pimc_bot_options(opt_list_t *l)
{
    return opt_list_add_prefixed(l, "pimc.", PIMC_OPTIONS, N_PIMC_OPTIONS);
}

int pimc_params_from(const bot_settings_t *set, pimc_params_t *p, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    return bot_settings_fill(set, "pimc.", PIMC_OPTIONS, N_PIMC_OPTIONS, p, err, errlen);
}
