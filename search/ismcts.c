#include "ismcts.h"
#include "measure.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "playout.h"
#include "worlds.h"

enum {
    ROOT = 1,            /* pool index of the root; 0 means none */
    MAX_PATH = 128,
    MAX_CAND = 512,      /* candidates kept for a wide node */
    CHECK_EVERY = 32,    /* iterations between looks at the clock and the input */
    MIN_POOL = 2
};

typedef struct node {
    game_move_t move;    /* as the observer sees it */
    double reward;       /* summed rewards of the seat that moved into it */
    uint32_t child, next;
    uint32_t visits, avail;
    uint32_t cand, ncand, nadmit; /* a wide node's candidates: cand arena [cand, cand + ncand) */
    int8_t seat;         /* who moved into this node */
    int8_t wide;         /* 0 not looked at, 1 narrow, 2 wide */
} node_t;

typedef struct worker {
    struct ismcts *s;
    node_t *pool;
    uint32_t npool, cap;
    game_move_t *cand;
    uint32_t ncand, candcap;
    worlds_t worlds;
    void *state;
    playout_t po;
    rng_t rng;
    game_move_t moves[GAME_MAX_MOVES], keys[GAME_MAX_MOVES];
    double values[GAME_MAX_MOVES];
    int64_t iterations, limit;
    int full;
    pthread_t thread;
} worker_t;

struct ismcts {
    const game_t *g;
    ismcts_params_t p;
    int nw;
    worker_t *w;
    /* The search in progress. */
    const void *view;
    int root_seat;
    const game_move_t *moves; /* the seat's legal moves, n of them */
    double *values;
    int n;
    uint32_t visits[GAME_MAX_MOVES];
    bot_rank_t ranked[GAME_MAX_MOVES]; /* report's */
    double t0, deadline;
    const bot_hooks_t *hooks;
    atomic_int stop;
    ismcts_stats_t stats;
};

/* The bot's options, "ismcts.<name>", declared once: name, type, default, range, help, and the
 * member of ismcts_params_t the value goes to. The defaults of ismcts_default_params are these. */
static const opt_def_t ISMCTS_OPTIONS[] = {
    { "iterations", OPT_SPIN, "10000", 1, 1e9, { NULL }, "iterations a decision when go gives no limit", NULL,
      OPT_INTO(ismcts_params_t, iterations, OPT_TO_INT64) },
    { "exploration", OPT_FLOAT, "0.7", 0, 10, { NULL }, "UCB1's exploration constant (rewards are in [0, 1])", NULL,
      OPT_INTO(ismcts_params_t, exploration, OPT_TO_DOUBLE) },
    /* the values in the order of PLAYOUT_RANDOM, PLAYOUT_HEURISTIC */
    { "rollout", OPT_COMBO, "heuristic", 0, 0, { "random", "heuristic", NULL },
      "how a leaf is played on: uniform moves, or the heuristic from each seat's own view", NULL,
      OPT_INTO(ismcts_params_t, rollout, OPT_TO_CHOICE) },
    { "threads", OPT_SPIN, "1", 1, ISMCTS_MAX_THREADS, { NULL }, "root-parallel threads (1: same seed, same moves)", NULL,
      OPT_INTO(ismcts_params_t, threads, OPT_TO_INT) },
    { "tree_mb", OPT_SPIN, "64", 1, 65536, { NULL }, "the node pool in megabytes; the tree stops growing when it is full",
      NULL, OPT_INTO(ismcts_params_t, tree_mb, OPT_TO_INT) },
    { "widen_topk", OPT_SPIN, "24", 1, 512, { NULL },
      "many moves (an exchange): the heuristic's best this many are searched", NULL,
      OPT_INTO(ismcts_params_t, widen_topk, OPT_TO_INT) },
    { "reward_scale", OPT_FLOAT, "30", 1, 1000, { NULL }, "points of a hand worth tanh(1) in the reward", NULL,
      OPT_INTO(ismcts_params_t, reward_scale, OPT_TO_DOUBLE) },
};
enum { N_ISMCTS_OPTIONS = sizeof ISMCTS_OPTIONS / sizeof ISMCTS_OPTIONS[0] };
_Static_assert(PLAYOUT_RANDOM == 0 && PLAYOUT_HEURISTIC == 1, "ismcts.rollout's values are the policies in order");

/* The table's own defaults are never refused (tests/test_bots checks each). */
void ismcts_default_params(ismcts_params_t *p) { ismcts_params_from(NULL, p, NULL, 0); }

static void worker_free(worker_t *w)
{
    worlds_free(&w->worlds);
    playout_free(&w->po);
    free(w->pool);
    free(w->cand);
    free(w->state);
}

void ismcts_free(ismcts_t *s)
{
    if (!s)
        return;
    for (int i = 0; s->w && i < s->nw; i++)
        worker_free(&s->w[i]);
    free(s->w);
    free(s);
}

ismcts_t *ismcts_create(const game_t *g, const ismcts_params_t *p, char *err, size_t errlen)
{
    if (!g->sample_world || !g->heuristic_evaluate || !g->hand_over || !g->hand_value) {
        snprintf(err, errlen, "game %s cannot be searched (no sampler, heuristic or hand values)", g->name);
        return NULL;
    }
    ismcts_t *s = calloc(1, sizeof *s);
    if (!s)
        goto oom;
    s->g = g;
    s->p = *p;
    s->nw = p->threads < 1 ? 1 : p->threads > ISMCTS_MAX_THREADS ? ISMCTS_MAX_THREADS : p->threads;
    s->w = calloc((size_t)s->nw, sizeof *s->w);
    if (!s->w)
        goto oom;
    /* The pool: tree_mb shared out among the threads, an eighth of it for candidate lists. */
    size_t bytes = (size_t)(p->tree_mb > 0 ? p->tree_mb : 1) << 20;
    bytes /= (size_t)s->nw;
    size_t candbytes = bytes / 8;
    for (int i = 0; i < s->nw; i++) {
        worker_t *w = &s->w[i];
        w->s = s;
        worlds_init(&w->worlds, g);
        w->cap = (uint32_t)((bytes - candbytes) / sizeof(node_t));
        if (w->cap < MIN_POOL)
            w->cap = MIN_POOL;
        w->candcap = (uint32_t)(candbytes / sizeof(game_move_t));
        w->pool = malloc(sizeof *w->pool * w->cap);
        w->cand = malloc(sizeof *w->cand * (w->candcap ? w->candcap : 1));
        w->state = calloc(1, g->state_size);
        /* playout_init's only reason is memory too. */
        if (!w->pool || !w->cand || !w->state || playout_init(&w->po, g, p->reward_scale, p->hparams, err, errlen) < 0)
            goto oom;
    }
    return s;
oom:
    ismcts_free(s);
    snprintf(err, errlen, "out of memory");
    return NULL;
}

/* ---------------------------------------------------------------- the tree */

static uint32_t new_node(worker_t *w, uint32_t parent, const game_move_t *move, int seat)
{
    if (w->npool >= w->cap) {
        w->full = 1;
        return 0;
    }
    uint32_t i = w->npool++;
    node_t *n = &w->pool[i];
    memset(n, 0, sizeof *n);
    if (move)
        n->move = *move;
    n->seat = (int8_t)seat;
    if (parent) {
        n->next = w->pool[parent].child;
        w->pool[parent].child = i;
    }
    return i;
}

static uint32_t find_child(const worker_t *w, uint32_t parent, const game_move_t *key)
{
    for (uint32_t c = w->pool[parent].child; c; c = w->pool[c].next)
        if (memcmp(&w->pool[c].move, key, sizeof *key) == 0)
            return c;
    return 0;
}

/* A child's UCB1 value; an unvisited one comes first. */
static double ucb(const worker_t *w, const node_t *n)
{
    if (!n->visits)
        return 1e300;
    double mean = n->reward / n->visits;
    return mean + w->s->p.exploration * sqrt(log((double)(n->avail > 0 ? n->avail : 1)) / n->visits);
}

/* A wide node's candidates: the seat's moves in the order of the heuristic's values, from its
 * own view of the world. */
static void list_candidates(worker_t *w, node_t *n, int nmoves)
{
    const game_t *g = w->s->g;
    g->view_from_state(w->state, g->to_move(w->state), w->po.view);
    g->heuristic_evaluate(w->po.view, w->s->p.hparams, w->moves, nmoves, w->values);
    bot_sort_moves(w->moves, w->values, nmoves);
    uint32_t k = (uint32_t)(nmoves < MAX_CAND ? nmoves : MAX_CAND);
    if (w->ncand + k > w->candcap) {
        n->wide = 1; /* no room: treated as narrow */
        return;
    }
    memcpy(w->cand + w->ncand, w->moves, sizeof *w->cand * k);
    n->cand = w->ncand;
    n->ncand = k;
    w->ncand += k;
    n->wide = 2;
}

/* Choose the move at node `at` for the seat to move in the world: its key (the child) and the
 * concrete move. Returns the child, or 0 to stop descending (then *rollout). *created is set
 * when the child is new. */
static uint32_t descend(worker_t *w, uint32_t at, game_move_t *move, int *created)
{
    ismcts_t *s = w->s;
    const game_t *g = s->g;
    int seat = g->to_move(w->state), observer = s->root_seat;
    node_t *node = &w->pool[at];
    *created = 0;
    int n = node->wide == 2 ? 0 : g->legal_moves(w->state, w->moves, PLAYOUT_WIDE + 1);
    if (n < 0 || (n == 0 && node->wide != 2))
        return 0;
    if (n > PLAYOUT_WIDE) {
        if (seat == observer) {
            if (node->wide == 0)
                list_candidates(w, node, g->legal_moves(w->state, w->moves, GAME_MAX_MOVES));
        } else {
            /* Another seat's wide decision (his exchange): his move by the policy, recorded as
             * the observer sees it. */
            if (playout_move(&w->po, w->state, s->p.rollout, &w->rng, move) < 0)
                return 0;
            game_move_t key = *move;
            if (g->move_seen)
                g->move_seen(w->state, move, seat, observer, &key);
            uint32_t c = find_child(w, at, &key);
            if (!c && (c = new_node(w, at, &key, seat)) != 0)
                *created = 1;
            if (c)
                w->pool[c].avail++;
            return c;
        }
    }
    node = &w->pool[at];
    if (node->wide == 2) {
        /* The observer's wide decision: the first widen_topk candidates only, best prior first. */
        uint32_t k = s->p.widen_topk < 1 ? 1 : (uint32_t)s->p.widen_topk, have = 0, best = 0;
        double bv = -1e300;
        for (uint32_t c = node->child; c; c = w->pool[c].next, have++) {
            w->pool[c].avail++;
            double v = ucb(w, &w->pool[c]);
            if (v > bv) {
                bv = v;
                best = c;
            }
        }
        if (have < k && have < node->ncand) {
            uint32_t c = new_node(w, at, &w->cand[node->cand + have], seat);
            if (c) {
                *created = 1;
                *move = w->pool[c].move;
                return c;
            }
        }
        if (best)
            *move = w->pool[best].move;
        return best;
    }
    if (node->wide == 0)
        node->wide = 1;
    /* Keys: the moves as the observer sees them, each once. */
    int nk = 0, whole = seat == observer || !g->move_seen;
    if (whole) {
        /* Every move is seen whole: each is its own key. */
        memcpy(w->keys, w->moves, sizeof *w->keys * (size_t)n);
        nk = n;
    }
    for (int i = 0; !whole && i < n; i++) {
        game_move_t key;
        g->move_seen(w->state, &w->moves[i], seat, observer, &key);
        int j = 0;
        while (j < nk && memcmp(&w->keys[j], &key, sizeof key) != 0)
            j++;
        if (j == nk)
            w->keys[nk++] = key;
    }
    uint32_t best = 0;
    double bv = -1e300;
    int unexpanded = 0;
    for (int j = 0; j < nk; j++) {
        uint32_t c = find_child(w, at, &w->keys[j]);
        if (!c) {
            w->keys[unexpanded++] = w->keys[j]; /* the keys without a node, packed at the front */
            continue;
        }
        w->pool[c].avail++;
        double v = ucb(w, &w->pool[c]);
        if (v > bv) {
            bv = v;
            best = c;
        }
    }
    if (unexpanded && !w->full) {
        game_move_t key = w->keys[rng_below(&w->rng, (uint32_t)unexpanded)];
        uint32_t c = new_node(w, at, &key, seat);
        if (c) {
            *created = 1;
            best = c;
        }
    }
    if (!best)
        return 0;
    /* The concrete move: the key itself, or one the observer cannot tell from it. */
    const game_move_t *key = &w->pool[best].move;
    if (whole) {
        *move = *key;
        return best;
    }
    if (playout_move_like(&w->po, w->state, s->p.rollout, observer, key, &w->rng, move) < 0)
        return 0;
    return best;
}


static void iterate(worker_t *w)
{
    ismcts_t *s = w->s;
    const game_t *g = s->g;
    uint32_t path[MAX_PATH];
    int depth = 0;
    double r[GAME_MAX_PLAYERS];
    if (worlds_draw(&w->worlds, &w->rng, w->state) < 0) {
        /* No world agrees with the view (a view the rules never give): the search ends and the
         * heuristic decides. */
        w->iterations++;
        atomic_store(&s->stop, 1);
        return;
    }
    uint32_t at = ROOT;
    path[depth++] = at;
    while (!playout_done(&w->po, w->state) && depth < MAX_PATH) {
        if (g->to_move(w->state) == GAME_CHANCE) {
            if (g->apply_chance(w->state, &w->rng, w->po.ev, GAME_MAX_EVENTS) <= 0)
                break; /* a world the rules cannot go on from: the rollout fails and the state is valued */
            continue;
        }
        game_move_t m;
        int created;
        uint32_t c = descend(w, at, &m, &created);
        if (!c)
            break;
        playout_apply(&w->po, w->state, &m);
        path[depth++] = c;
        at = c;
        if (created)
            break;
    }
    playout_run(&w->po, w->state, s->p.rollout, &w->rng);
    playout_reward(&w->po, w->state, r);
    w->pool[ROOT].visits++;
    for (int i = 1; i < depth; i++) {
        node_t *n = &w->pool[path[i]];
        n->visits++;
        n->reward += r[n->seat];
    }
    w->iterations++;
}

/* ---------------------------------------------------------------- a search */

/* The root's statistics summed over the first nw workers' trees, into s->values and s->visits. */
static void root_values(ismcts_t *s, int nw)
{
    for (int i = 0; i < s->n; i++) {
        double sum = 0;
        uint32_t v = 0;
        for (int k = 0; k < nw; k++) {
            const worker_t *w = &s->w[k];
            if (w->npool <= ROOT)
                continue;
            uint32_t c = find_child(w, ROOT, &s->moves[i]);
            if (c) {
                sum += w->pool[c].reward;
                v += w->pool[c].visits;
            }
        }
        s->visits[i] = v;
        s->values[i] = v ? sum / v : -1.0;
    }
}

/* Progress for info lines: while other threads still run, worker 0's tree only. */
static void report(ismcts_t *s, int nw)
{
    const bot_hooks_t *h = s->hooks;
    if (!h || !h->info)
        return;
    int64_t it = 0, nodes = 0;
    for (int k = 0; k < nw; k++) {
        it += s->w[k].iterations;
        nodes += s->w[k].npool - 1;
    }
    root_values(s, nw);
    /* The leading moves: most visited first. */
    int nr = 0;
    for (int i = 0; i < s->n; i++)
        if (s->visits[i] > 0)
            s->ranked[nr++] = (bot_rank_t){ s->visits[i], i };
    bot_rank_sort(s->ranked, nr);
    game_move_t lines[BOT_INFO_LINES];
    double lvalues[BOT_INFO_LINES];
    for (int l = 0; l < BOT_INFO_LINES && l < nr; l++) {
        lines[l] = s->moves[s->ranked[l].index];
        lvalues[l] = s->values[s->ranked[l].index];
    }
    bot_report(h, it, it, nodes, s->t0, lines, lvalues, nr);
}

/* A worker's iterations, to its limit or until stopped. Worker 0 runs in the caller's thread and
 * alone looks at the input and reports. */
static void *worker_main(void *arg)
{
    worker_t *w = arg;
    ismcts_t *s = w->s;
    const bot_hooks_t *h = w == s->w ? s->hooks : NULL;
    double last_report = s->t0;
    while (!atomic_load(&s->stop) && (w->limit < 0 || w->iterations < w->limit)) {
        iterate(w);
        if (w->iterations % CHECK_EVERY != 0)
            continue;
        if ((h && h->should_stop && h->should_stop(h->data)) || (s->deadline > 0 && measure_now() >= s->deadline))
            break;
        if (!h)
            continue;
        double t = measure_now();
        if (t - last_report >= 1.0) {
            report(s, 1);
            last_report = t;
        }
    }
    return NULL;
}

int ismcts_search(ismcts_t *s, const void *view, const bot_limits_t *lim, const bot_hooks_t *hooks, rng_t *rng,
                  game_move_t *moves, double *values, int cap, game_move_t *best)
{
    const game_t *g = s->g;
    s->t0 = measure_now();
    s->view = view;
    s->root_seat = g->view_seat(view);
    s->hooks = hooks;
    atomic_store(&s->stop, 0);
    memset(&s->stats, 0, sizeof s->stats);
    if (g->view_to_move(view) != s->root_seat)
        return -1;
    int n = g->view_legal_moves(view, moves, cap);
    if (n <= 0)
        return -1;
    s->moves = moves;
    s->values = values;
    s->n = n;

    /* The budget: iterations, or time (a move's own, or a share of the set's clock); a decision
     * with one legal move, one iteration, unless `go` names the iterations or searches on. */
    int64_t iters = bot_budget(lim, s->p.iterations, s->t0, &s->deadline);
    if (n == 1 && !(lim && (lim->infinite || lim->iterations > 0))) {
        iters = 1;
        s->deadline = 0;
    }
    /* Each worker: a fresh tree, the sampler made over for this view, its own generator. */
    for (int k = 0; k < s->nw; k++) {
        worker_t *w = &s->w[k];
        w->npool = ROOT;
        w->ncand = 0;
        w->full = 0;
        w->iterations = 0;
        new_node(w, 0, NULL, s->root_seat);
        rng_seed(&w->rng, rng_next(rng));
        if (worlds_prepare(&w->worlds, view) < 0)
            return -1;
        w->limit = iters < 0 ? -1 : iters / s->nw + (k < iters % s->nw);
    }
    for (int k = 1; k < s->nw; k++)
        if (pthread_create(&s->w[k].thread, NULL, worker_main, &s->w[k]) != 0)
            s->w[k].limit = 0, s->w[k].thread = 0;
    worker_t *w0 = &s->w[0];
    worker_main(w0);
    /* With a fixed budget run out, the other threads finish theirs; stopped (or by time), they
     * stop now. */
    if (iters < 0 || w0->iterations < w0->limit)
        atomic_store(&s->stop, 1);
    for (int k = 1; k < s->nw; k++)
        if (s->w[k].thread)
            pthread_join(s->w[k].thread, NULL);
    atomic_store(&s->stop, 1);
    report(s, s->nw);
    root_values(s, s->nw);
    const uint32_t *visits = s->visits;
    /* The most visited move; none visited (a pool too small for one node): the heuristic's. */
    int b = -1;
    for (int i = 0; i < n; i++)
        if (visits[i] > 0 && (b < 0 || visits[i] > visits[b] || (visits[i] == visits[b] && values[i] > values[b])))
            b = i;
    if (b < 0) {
        g->heuristic_evaluate(view, s->p.hparams, moves, n, values);
        b = 0;
        for (int i = 1; i < n; i++)
            if (values[i] > values[b])
                b = i;
        for (int i = 0; i < n; i++)
            values[i] = -1.0;
    }
    *best = moves[b];
    for (int k = 0; k < s->nw; k++) {
        s->stats.iterations += s->w[k].iterations;
        s->stats.nodes += s->w[k].npool - 1;
        s->stats.pool_full |= s->w[k].full;
    }
    s->stats.seconds = measure_now() - s->t0;
    return n;
}

void ismcts_stats(const ismcts_t *s, ismcts_stats_t *out) { *out = s->stats; }

/* ---------------------------------------------------------------- the bot */

int ismcts_bot_options(opt_list_t *l)
{
    return opt_list_add_prefixed(l, "ismcts.", ISMCTS_OPTIONS, N_ISMCTS_OPTIONS);
}

int ismcts_params_from(const bot_settings_t *set, ismcts_params_t *p, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    return bot_settings_fill(set, "ismcts.", ISMCTS_OPTIONS, N_ISMCTS_OPTIONS, p, err, errlen);
}
