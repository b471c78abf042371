#include "solver.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { INF = 30000 };

struct solver {
    const game_endgame_t *g;
    tt_t *tt;
    solver_stats_t st;
};

/* A position buffer on the stack, aligned for any position struct. */
typedef union pos_buf {
    unsigned char bytes[SOLVER_MAX_POS];
    uint64_t align;
} pos_buf_t;

solver_t *solver_create_bytes(const game_endgame_t *g, size_t tt_bytes, char *err, size_t errlen)
{
    if (!g || g->pos_size > SOLVER_MAX_POS) {
        snprintf(err, errlen, "this game has no endgame a solver can hold");
        return NULL;
    }
    solver_t *s = calloc(1, sizeof *s);
    if (!s || !(s->tt = tt_create(tt_bytes))) {
        free(s);
        snprintf(err, errlen, "no memory for a table of %zu MB", tt_bytes >> 20);
        return NULL;
    }
    s->g = g;
    return s;
}

solver_t *solver_create(const game_endgame_t *g, size_t tt_mb, char *err, size_t errlen)
{
    if (tt_mb < 1)
        tt_mb = 1;
    if (tt_mb > SIZE_MAX >> 21) {
        snprintf(err, errlen, "a table of %zu MB is more than this machine can address", tt_mb);
        return NULL;
    }
    return solver_create_bytes(g, tt_mb << 20, err, errlen);
}

void solver_free(solver_t *s)
{
    if (!s)
        return;
    tt_free(s->tt);
    free(s);
}

void solver_clear(solver_t *s) { tt_clear(s->tt); }
const solver_stats_t *solver_stats(const solver_t *s) { return &s->st; }
void solver_reset_stats(solver_t *s) { memset(&s->st, 0, sizeof s->st); }

/* Moves as the table keeps them (see game_endgame_t.move_code); 255 is "none". */
static int stored_move(const game_endgame_t *g, const void *pos, int code)
{
    if (code == 255)
        return -1;
    return g->code_move ? g->code_move(pos, code) : code;
}

static int move_to_store(const game_endgame_t *g, const void *pos, int move)
{
    if (move < 0)
        return 255;
    return g->move_code ? g->move_code(pos, move) : move;
}

/* Alpha-beta on the absolute value (seat 0's points minus seat 1's): seat 0 maximizes. The root
 * asks for a best move (best_move not NULL); below it, none is kept. */
static int search(solver_t *s, const void *pos, int alpha, int beta, int *best_move)
{
    const game_endgame_t *g = s->g;
    s->st.nodes++;
    if (best_move)
        *best_move = -1;
    int who = g->to_move(pos);
    if (who < 0)
        return 0;
    /* Bounds known without search cut at once (not at the root, which must find a move). */
    if (g->bounds && !best_move) {
        int lo, hi;
        g->bounds(pos, &lo, &hi);
        if (lo >= beta || hi <= alpha) {
            s->st.bound_cuts++;
            return lo >= beta ? lo : hi;
        }
    }
    /* Near the end a subtree is cheaper to search again than to look up: no table there. */
    uint64_t key = g->key(pos);
    int depth = key ? g->depth(pos) : 0;
    if (depth <= SOLVER_TT_MIN_DEPTH)
        key = 0;
    int use_tt = key != 0;
    /* A copy: the children's stores may evict the entry while this
     * node is still being searched. */
    tt_entry_t known;
    const tt_entry_t *e = NULL;
    if (use_tt) {
        s->st.probes++;
        if ((e = tt_probe(s->tt, key)) != NULL) {
            s->st.hits++;
            known = *e;
            e = &known;
        }
    }
    /* The root searches its moves whatever the table says: a stored move may stand for a
     * bound the move only failed to beat, and the root must name a move that reaches its
     * value. The table still orders its moves. */
    if (e && !best_move) {
        if (e->lo >= beta || e->lo == e->hi)
            return e->lo;
        if (e->hi <= alpha)
            return e->hi;
        if (e->lo > alpha)
            alpha = e->lo;
        if (e->hi < beta)
            beta = e->hi;
    }
    int tt_move = e ? stored_move(g, pos, e->move) : -1;
    uint8_t moves[ENDGAME_MAX_MOVES];
    int n = g->moves(pos, moves);
    /* The table's move first. */
    for (int i = 1; i < n && tt_move >= 0; i++)
        if (moves[i] == tt_move) {
            memmove(moves + 1, moves, (size_t)i);
            moves[0] = (uint8_t)tt_move;
            break;
        }
    int a0 = alpha, b0 = beta;
    int max_side = who == 0;
    int best = max_side ? -INF : INF, bm = n ? moves[0] : -1;
    pos_buf_t child;
    for (int i = 0; i < n; i++) {
        int delta = g->play(pos, moves[i], child.bytes);
        int v = delta + search(s, child.bytes, alpha - delta, beta - delta, NULL);
        if (max_side ? v > best : v < best) {
            best = v;
            bm = moves[i];
        }
        if (max_side && best > alpha)
            alpha = best;
        if (!max_side && best < beta)
            beta = best;
        if (alpha >= beta)
            break;
    }
    /* Fail-soft bounds: a value at or below the window's floor is an upper bound, at or above
     * its ceiling a lower bound, inside it exact. */
    int lo = -INF, hi = INF;
    if (best <= a0)
        hi = best;
    else if (best >= b0)
        lo = best;
    else
        lo = hi = best;
    if (e && !best_move) {
        /* Keep what was known: bounds only tighten. */
        if (e->lo > lo)
            lo = e->lo;
        if (e->hi < hi)
            hi = e->hi;
    }
    if (use_tt && lo <= hi) /* lo > hi: only a key collision can do that; store nothing */
        tt_store(s->tt, key, lo, hi, move_to_store(g, pos, bm), depth);
    if (best_move)
        *best_move = bm;
    return best;
}

static int mover_sign(const solver_t *s, const void *pos) { return s->g->to_move(pos) == 1 ? -1 : 1; }

/* MTD(f): null-window searches that close in on the exact value from a first guess; the table
 * keeps each pass's bounds for the next. With points as values (a wide range) this cuts far
 * more than one full-window search. */
static int exact(solver_t *s, const void *pos, int guess, int *move)
{
    int lo = -INF, hi = INF, g = guess, bm = -1, proven = 0;
    int max_side = s->g->to_move(pos) == 0;
    while (lo < hi) {
        s->st.passes++;
        int beta = g == lo ? g + 1 : g;
        g = search(s, pos, beta - 1, beta, move ? &bm : NULL);
        if (g >= beta)
            lo = g;
        else
            hi = g;
        /* The side to move named a move that reaches the bound: for seat 0 a pass that failed
         * high, for seat 1 one that failed low. */
        proven = max_side == (g >= beta);
    }
    /* Otherwise one more pass, at the value and on the mover's side of it, finds such a move. */
    if (move) {
        if (!proven && s->g->to_move(pos) >= 0) {
            s->st.passes++;
            search(s, pos, max_side ? g - 1 : g, max_side ? g : g + 1, &bm);
        }
        *move = bm;
    }
    return g;
}

/* A first guess for MTD(f): the table's bound if it has one, else 0. (A quick greedy line as the
 * guess was tried: it took more passes and more nodes.) */
static int first_guess(solver_t *s, const void *pos)
{
    uint64_t key = s->g->depth(pos) > SOLVER_TT_MIN_DEPTH ? s->g->key(pos) : 0;
    const tt_entry_t *e = key ? tt_probe(s->tt, key) : NULL;
    if (e && e->lo > -INF)
        return e->lo;
    if (e && e->hi < INF)
        return e->hi;
    return 0;
}

int solver_best(solver_t *s, const void *pos, int *move)
{
    int bm;
    int v = exact(s, pos, first_guess(s, pos), &bm);
    if (move)
        *move = bm;
    return mover_sign(s, pos) * v;
}

int solver_all(solver_t *s, const void *pos, uint8_t *moves, int *values)
{
    const game_endgame_t *g = s->g;
    int sign = mover_sign(s, pos);
    uint8_t reps[ENDGAME_MAX_MOVES];
    int rep_value[ENDGAME_MAX_MOVES];
    int nr = g->moves(pos, reps);
    pos_buf_t child;
    int prev = 0; /* the last move's value, seat 0's points: a first guess for the next (the
                   * first takes the table's bound on this position) */
    for (int i = 0; i < nr; i++) {
        int delta = g->play(pos, reps[i], child.bytes);
        int guess = (i ? prev : first_guess(s, pos)) - delta;
        prev = delta + exact(s, child.bytes, guess, NULL);
        rep_value[i] = sign * prev;
    }
    int n = g->all_moves(pos, moves);
    for (int i = 0; i < n; i++) {
        int r = g->representative(pos, moves[i]);
        values[i] = 0;
        for (int j = 0; j < nr; j++)
            if (reps[j] == r)
                values[i] = rep_value[j];
    }
    return n;
}

int solver_line(solver_t *s, const void *pos, uint8_t *line, int max)
{
    pos_buf_t cur, next;
    memcpy(cur.bytes, pos, s->g->pos_size);
    int n = 0;
    while (n < max && s->g->to_move(cur.bytes) >= 0) {
        /* The proven best move of each position: one search a ply, most of it in the table. */
        int best;
        solver_best(s, cur.bytes, &best);
        if (best < 0)
            break;
        line[n++] = (uint8_t)best;
        s->g->play(cur.bytes, best, next.bytes);
        memcpy(cur.bytes, next.bytes, s->g->pos_size);
    }
    return n;
}

static int minimax_abs(const game_endgame_t *g, const void *pos, uint64_t *nodes)
{
    (*nodes)++;
    int who = g->to_move(pos);
    if (who < 0)
        return 0;
    uint8_t moves[ENDGAME_MAX_MOVES];
    int n = g->all_moves(pos, moves);
    int best = who == 0 ? -INF : INF;
    pos_buf_t child;
    for (int i = 0; i < n; i++) {
        int v = g->play(pos, moves[i], child.bytes);
        v += minimax_abs(g, child.bytes, nodes);
        if (who == 0 ? v > best : v < best)
            best = v;
    }
    return best;
}

int solver_minimax(const game_endgame_t *g, const void *pos, uint64_t *nodes)
{
    uint64_t dummy = 0;
    int v = minimax_abs(g, pos, nodes ? nodes : &dummy);
    return g->to_move(pos) == 1 ? -v : v;
}
