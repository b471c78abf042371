/* The search bots on Picket positions.
 *
 * The ISMCTS bot (search/ismcts.h, search/playout.h):
 *  1. determinism: one thread and equal seeds give equal moves and equal values at every decision
 *     of seeded hands (rollout heuristic, rollout random, and solved endings);
 *  2. a session searching (`go infinite`, or a huge `go iterations`) answers isready at once and,
 *     on stop, its move, with one thread and with two;
 *  3. a tiny node pool (1 MB, and 64 threads sharing 1 MB) fills and the bot still plays legal
 *     moves, through whole sets;
 *  4. the bot sees only its view: two deals that differ in two cards it cannot see (one the
 *     opponent discards, one left in the stock) give the same views and the same decisions;
 *  5. where every consistent world gives the solver the same values, the bot plays a move the
 *     solver proves best on the true state;
 *  6. the reward serves the set: in a built race to the target, the line that scores most loses
 *     the set (the solver and a set minimax say so in every world the view allows), and the bot
 *     takes the line that wins it;
 *  7. the options "ismcts.<name>" are declared, and bad values are refused with one line;
 *  8. two threads search the whole budget and return a legal move;
 *  9. a search whose sampler finds no world still ends (PIMC's too), and ismcts_stats are the
 *     last search's.
 *
 * The PIMC bot (search/pimc.h), the same kinds of checks:
 *  P1. determinism: equal seeds give equal moves and bit-equal values, through choose, evaluate
 *      and a bare pimc_search, at every decision of seeded hands (
 *      and solver false); the values keep pimc.h's promises and pimc_stats are the decision's;
 *  P2. a session searching (go infinite, a huge go iterations, analyze infinite) at the call and
 *      at the play's first card answers isready at once and, on stop, its move; a search stopped
 *      at once returns the heuristic's move, unvalued;
 *  P3. the bot sees only its view (4.);
 *  P4. it plays the known best moves of 5.;
 *  P5. the race of 6.: it takes the line that wins the set;
 *  P6. the options "pimc.<name>": types, defaults (pimc_default_params), refusals in one line;
 *  P7. evaluate and analyze: values in [0, 1] or -1; every card valued in the play, exactly
 *      pimc.candidates moves (or all, if fewer) outside it; the best valued highest.
 *
 * the hybrid (the default bot): outside the play the tree decides, in the play PIMC, each
 * exactly as a bare search of its own with the bot's generator; whole sets are legal; stop and
 * isready are answered in both.
 *
 * The session and no-world cases run in a forked child that is killed if it hangs, so that a
 * search that never returns fails its test rather than the suite. Iteration and world counts are
 * small: the suite takes seconds in Release. A failure prints the seed and the position that
 * reproduce it.
 */
#include <CUnit/CUnit.h>
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bot.h"
#include "measure.h"
#include "game.h"
#include "ismcts.h"
#include "net.h"
#include "pimc.h"
#include "options.h"
#include "picket.h"
#include "picket_endgame.h"
#include "picket_features.h"
#include "playout.h"
#include "session.h"
#include "solver.h"
#include "test_util.h"

static const game_t *const G = &PICKET_GAME;

static const char *move_text(const game_move_t *m, char *buf, size_t len)
{
    if (G->move_format(m, buf, len) < 0)
        snprintf(buf, len, "?");
    return buf;
}

static int same_move(const game_move_t *a, const game_move_t *b) { return memcmp(a, b, sizeof *a) == 0; }

static picket_rules_t rules_of(const char *preset, const char *flag)
{
    picket_rules_t r;
    char flags[1][48];
    char err[GAME_ERR_LEN];
    int n = 0;
    if (flag) {
        snprintf(flags[0], sizeof flags[0], "%s", flag);
        n = 1;
    }
    if (picket_rules_build(&r, preset, (const char(*)[48])flags, n, err, sizeof err) < 0) {
        fprintf(stderr, "\n    rules %s %s: %s\n", preset, flag ? flag : "", err);
        CU_FAIL_FATAL("bad rules in a test");
    }
    return r;
}

static void deal_chance(picket_state_t *st)
{
    while (picket_to_move(st) == GAME_CHANCE)
        picket_apply_chance(st, NULL, NULL, 0);
}

/* The bot h plays both seats of the hand dealt until the play has reached `trick` tricks. */
static void play_to_trick(picket_state_t *st, bot_t *h, int trick)
{
    deal_chance(st);
    while (picket_to_move(st) >= 0 && !(st->pub.phase == PK_PH_PLAY && st->pub.trick_no >= trick)) {
        picket_view_t v;
        picket_view_from_state(st, picket_to_move(st), &v);
        game_move_t m;
        CU_ASSERT_FATAL(bot_choose(h, &v, &m) == 0);
        picket_apply(st, &m, NULL, 0);
        deal_chance(st);
    }
}

/* k buffers of every legal move and its value, for searches compared side by side. */
static void buffers_new(game_move_t **moves, double **values, int k)
{
    for (int i = 0; i < k; i++) {
        moves[i] = malloc(sizeof *moves[i] * GAME_MAX_MOVES);
        values[i] = malloc(sizeof *values[i] * GAME_MAX_MOVES);
        CU_ASSERT_FATAL(moves[i] && values[i]);
    }
}

static void buffers_free(game_move_t **moves, double **values, int k)
{
    for (int i = 0; i < k; i++) {
        free(moves[i]);
        free(values[i]);
    }
}

/* A search with its own parameters: the best move, the moves and their values. */
static int search_once(const ismcts_params_t *p, const void *view, int64_t iters, uint64_t seed, game_move_t *best,
                       game_move_t *moves, double *values, ismcts_stats_t *stats)
{
    char err[GAME_ERR_LEN];
    ismcts_t *s = ismcts_create(G, p, err, sizeof err);
    if (!s) {
        fprintf(stderr, "\n    ismcts_create: %s\n", err);
        CU_FAIL("ismcts_create refused");
        return -1;
    }
    rng_t rng;
    rng_seed(&rng, seed);
    bot_limits_t lim = { -1, -1, -1, iters, 0 };
    int n = ismcts_search(s, view, &lim, NULL, &rng, moves, values, GAME_MAX_MOVES, best);
    if (stats)
        ismcts_stats(s, stats);
    ismcts_free(s);
    return n;
}

/* Settings with some ismcts options set ("name", "value", ..., NULL). */
static bot_settings_t *settings_with(const char *const *pairs)
{
    char err[GAME_ERR_LEN];
    bot_settings_t *set = bot_settings_create(err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(set);
    for (int i = 0; pairs && pairs[i]; i += 2)
        if (bot_settings_set(set, pairs[i], pairs[i + 1], err, sizeof err) < 0) {
            fprintf(stderr, "\n    %s = %s: %s\n", pairs[i], pairs[i + 1], err);
            CU_FAIL_FATAL("an option the test sets was refused");
        }
    return set;
}

/* A scripted move on a true state; it must be legal. */
static void play_text(picket_state_t *st, const char *text)
{
    game_move_t m;
    char err[GAME_ERR_LEN];
    CU_ASSERT_EQUAL_FATAL(picket_move_parse(text, &m, err, sizeof err), 0);
    if (!picket_is_legal(st, &m, err, sizeof err)) {
        fprintf(stderr, "\n    scripted move '%s' refused: %s\n", text, err);
        CU_FAIL_FATAL("a scripted move is illegal");
    }
    picket_apply(st, &m, NULL, 0);
}

/* ---------------------------------------------------------------- 1. determinism */

/* The first hand of seeded cotgrave sets, seat 0 searched by two bots (and two bare searches)
 * with equal seeds, seat 1 by the heuristic: at every decision of seat 0 the moves, and the bare
 * searches' values, must be equal bit for bit. */
static void check_determinism(const char *const *opts, int64_t iters, const char *what)
{
    bot_settings_t *set = settings_with(opts);
    ismcts_params_t p;
    CU_ASSERT(ismcts_params_from(set, &p, NULL, 0) == 0);
    CU_ASSERT_EQUAL(p.threads, 1);
    game_move_t *moves[2];
    double *values[2];
    buffers_new(moves, values, 2);
    char err[GAME_ERR_LEN];
    ismcts_t *bare[2];
    for (int k = 0; k < 2; k++) {
        bare[k] = ismcts_create(G, &p, err, sizeof err);
        CU_ASSERT_PTR_NOT_NULL_FATAL(bare[k]);
    }
    int decisions = 0, kinds[PK_PH_COUNT] = { 0 };
    for (uint64_t seed = 41; seed <= 42; seed++) {
        bot_t *a = bot_create_with("hybrid", G, 1000 + seed, set, err, sizeof err);
        bot_t *b = bot_create_with("hybrid", G, 1000 + seed, set, err, sizeof err);
        bot_t *h = bot_create("heuristic", G, seed, err, sizeof err);
        CU_ASSERT_FATAL(a && b && h);
        rng_t ra, rb;
        rng_seed(&ra, 7 * seed);
        rng_seed(&rb, 7 * seed);
        picket_state_t st;
        picket_init(&st, &picket_preset_find("cotgrave")->rules, seed);
        deal_chance(&st);
        while (picket_to_move(&st) >= 0 && st.pub.hand_no == 1) {
            int who = picket_to_move(&st);
            picket_view_t v;
            picket_view_from_state(&st, who, &v);
            game_move_t m, m2;
            if (who == 1) {
                CU_ASSERT_FATAL(bot_choose(h, &v, &m) == 0);
                picket_apply(&st, &m, NULL, 0);
                deal_chance(&st);
                continue;
            }
            bot_limits_t lim = { -1, -1, -1, iters, 0 };
            CU_ASSERT_FATAL(a->choose(a, &v, &lim, NULL, &m) == 0);
            CU_ASSERT_FATAL(b->choose(b, &v, &lim, NULL, &m2) == 0);
            game_move_t best[2];
            int n[2];
            for (int k = 0; k < 2; k++)
                n[k] = ismcts_search(bare[k], &v, &lim, NULL, k ? &rb : &ra, moves[k], values[k], GAME_MAX_MOVES,
                                     &best[k]);
            int same = same_move(&m, &m2) && n[0] == n[1] && n[0] > 0 && same_move(&best[0], &best[1]) &&
                       memcmp(moves[0], moves[1], sizeof *moves[0] * (size_t)n[0]) == 0 &&
                       memcmp(values[0], values[1], sizeof *values[0] * (size_t)n[0]) == 0;
            if (!same) {
                char t1[64], t2[64], t3[64], t4[64];
                fprintf(stderr, "\n    %s: seed %llu decision %d (%s): bots %s / %s, searches %s / %s\n", what,
                        (unsigned long long)seed, decisions, PK_PHASE_NAMES[st.pub.phase],
                        move_text(&m, t1, sizeof t1), move_text(&m2, t2, sizeof t2),
                        move_text(&best[0], t3, sizeof t3), move_text(&best[1], t4, sizeof t4));
            }
            CU_ASSERT(same);
            CU_ASSERT(G->is_legal(&st, &m, err, sizeof err) == 1);
            kinds[st.pub.phase]++;
            decisions++;
            picket_apply(&st, &m, NULL, 0);
            deal_chance(&st);
        }
        bot_free(a);
        bot_free(b);
        bot_free(h);
    }
    /* The hands went through the exchange and the play. */
    CU_ASSERT(decisions >= 10);
    CU_ASSERT(kinds[PK_PH_ELDER_EXCHANGE] + kinds[PK_PH_YOUNGER_EXCHANGE] + kinds[PK_PH_BLANK_COUNT] +
                  kinds[PK_PH_SET_ASIDE] >= 2);
    CU_ASSERT(kinds[PK_PH_PLAY] >= 8);
    for (int k = 0; k < 2; k++)
        ismcts_free(bare[k]);
    buffers_free(moves, values, 2);
    bot_settings_free(set);
}

static void test_one_thread_same_seed_same_moves(void)
{
    const char *heuristic[] = { "ismcts.rollout", "heuristic", NULL };
    const char *random_[] = { "ismcts.rollout", "random", NULL };
    const char *topk[] = { "ismcts.widen_topk", "8", "ismcts.rollout", "random", NULL };
    check_determinism(heuristic, 200, "rollout heuristic");
    check_determinism(random_, 200, "rollout random");
    check_determinism(topk, 100, "widen_topk 8");
}

/* ---------------------------------------------------------------- 2. stop and isready */

/* An engine: a forked child running a session on two pipes, so that one that never answers can
 * be killed rather than hang the suite. */
typedef struct engine {
    pid_t pid;
    int to, from;
    char buf[1 << 16];
    size_t len;
    char log[4096];   /* everything read, for failure reports (the start of it) */
    size_t loglen;
} engine_t;

static int engine_start(engine_t *e)
{
    int in[2], out[2];
    memset(e, 0, sizeof *e);
    if (pipe(in) < 0 || pipe(out) < 0)
        return -1;
    fflush(NULL);
    e->pid = fork();
    if (e->pid < 0)
        return -1;
    if (e->pid == 0) {
        close(in[1]);
        close(out[0]);
        FILE *f = fdopen(out[1], "w");
        session_t *s = f ? session_create(f, in[0], "test-engine", "test") : NULL;
        int rc = s ? session_run(s) : 3;
        session_free(s);
        if (f)
            fclose(f);
        _exit(rc);
    }
    close(in[0]);
    close(out[1]);
    e->to = in[1];
    e->from = out[0];
    return 0;
}

static void engine_send(engine_t *e, const char *line)
{
    size_t n = strlen(line);
    char *buf = malloc(n + 1);
    if (!buf)
        return;
    memcpy(buf, line, n);
    buf[n] = '\n';
    size_t at = 0;
    while (at <= n) {
        ssize_t w = write(e->to, buf + at, n + 1 - at);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        at += (size_t)w;
    }
    free(buf);
}

/* Wait up to `timeout` seconds for a line that starts with `prefix`; lines before it are read and
 * dropped (info lines). 1 and the line in got, or 0 (timeout, or the engine closed). */
static int engine_expect(engine_t *e, const char *prefix, double timeout, char *got, size_t len)
{
    double end = measure_now() + timeout;
    for (;;) {
        char *nl;
        while ((nl = memchr(e->buf, '\n', e->len))) {
            size_t n = (size_t)(nl - e->buf);
            *nl = '\0';
            if (e->loglen + n + 2 < sizeof e->log) {
                memcpy(e->log + e->loglen, e->buf, n);
                e->loglen += n;
                e->log[e->loglen++] = '\n';
                e->log[e->loglen] = '\0';
            }
            int match = strncmp(e->buf, prefix, strlen(prefix)) == 0;
            if (match && got) {
                size_t k = n < len - 1 ? n : len - 1;
                memcpy(got, e->buf, k);
                got[k] = '\0';
            }
            memmove(e->buf, nl + 1, e->len - n - 1);
            e->len -= n + 1;
            if (match)
                return 1;
        }
        double left = end - measure_now();
        if (left <= 0 || e->len == sizeof e->buf)
            return 0;
        struct pollfd pfd = { e->from, POLLIN, 0 };
        int rc = poll(&pfd, 1, (int)(left * 1000) + 1);
        if (rc < 0 && errno == EINTR)
            continue;
        if (rc <= 0)
            return 0;
        ssize_t r = read(e->from, e->buf + e->len, sizeof e->buf - e->len);
        if (r <= 0)
            return 0;
        e->len += (size_t)r;
    }
}

/* Quit, and kill the child if it does not go within `wait` seconds. 1 if it exited by itself. */
static int engine_stop(engine_t *e, double wait)
{
    engine_send(e, "quit");
    close(e->to);
    int status = 0, exited = 0;
    double end = measure_now() + wait;
    while (measure_now() < end) {
        pid_t w = waitpid(e->pid, &status, WNOHANG);
        if (w == e->pid) {
            exited = 1;
            break;
        }
        struct timespec ts = { 0, 20 * 1000 * 1000 };
        nanosleep(&ts, NULL);
    }
    if (!exited) {
        kill(e->pid, SIGKILL);
        waitpid(e->pid, &status, 0);
    }
    close(e->from);
    return exited;
}

/* The position of docs/protocol.md §7: seat 1 is to call. */
static const char *CALL_POSITION =
    "position game picket preset cotgrave seat 1 seed 1001 events cut 6D QH dealer 0; hand 1 dealer 0 stock 12; "
    "dealt 1 7C 8C TC QC TD QD KD 9H TH KH KS AS; turn 1 elder-exchange; discard 1 4; discard 1 4 7C 8C QC 9H; "
    "draw 1 4; draw 1 4 KC AC JD 6S; peek 1 4 6H; peek 1 5 AD; peek 1 6 TS; peek 1 7 8H; turn 0 younger-exchange; "
    "discard 0 6; draw 0 6; turn 1 call";

/* Send every line of text ('\n' between lines). */
static void engine_send_lines(engine_t *e, const char *text)
{
    while (*text) {
        size_t n = strcspn(text, "\n");
        char line[2048];
        snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line - 1 ? n : sizeof line - 1), text);
        if (n)
            engine_send(e, line);
        text += n + (text[n] == '\n');
    }
}

/* A search that only stop ends: isready is answered while it runs, then stop brings the move.
 * setup: the options and the position ('\n'-separated lines); expect: the move's reply prefix. */
static void stop_case_with(const char *what, const char *setup, const char *go, const char *expect)
{
    engine_t *e = malloc(sizeof *e);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    CU_ASSERT_FATAL(engine_start(e) == 0);
    char line[256], got[512];
    engine_send_lines(e, setup);
    engine_send(e, "1 isready");
    int ok = engine_expect(e, "=1 readyok", 5.0, NULL, 0);
    CU_ASSERT(ok);
    snprintf(line, sizeof line, "5 %s", go);
    engine_send(e, line);
    struct timespec ts = { 0, 100 * 1000 * 1000 };
    nanosleep(&ts, NULL);
    double t0 = measure_now();
    engine_send(e, "6 isready");
    /* Whatever comes first must be readyok: no move before stop. */
    int ready = engine_expect(e, "=", 5.0, got, sizeof got);
    double t_ready = measure_now() - t0;
    CU_ASSERT(ready && strcmp(got, "=6 readyok") == 0);
    t0 = measure_now();
    engine_send(e, "stop");
    int moved = ready && engine_expect(e, expect, 5.0, got, sizeof got);
    double t_move = measure_now() - t0;
    CU_ASSERT(moved);
    if (moved) {
        engine_send(e, "7 isready");
        CU_ASSERT(engine_expect(e, "=7 readyok", 5.0, NULL, 0));
    }
    if (!ready || !moved)
        fprintf(stderr, "\n    %s, %s: readyok %s after %.2f s, move %s after %.2f s of stop; engine said:\n%s",
                what, go, ready ? "came" : "did NOT come", t_ready, moved ? "came" : "did NOT come", t_move,
                e->log);
    else
        printf("[%s, %s: readyok %.0f ms, move %.0f ms after stop] ", what, go, 1e3 * t_ready, 1e3 * t_move);
    int exited = engine_stop(e, ready && moved ? 5.0 : 1.0);
    CU_ASSERT(exited);
    free(e);
}

static void stop_case(const char *threads, const char *go)
{
    char setup[2048], what[32];
    snprintf(setup, sizeof setup, "setoption name bot value hybrid\nsetoption name ismcts.threads value %s\n%s",
             threads, CALL_POSITION);
    snprintf(what, sizeof what, "threads %s", threads);
    stop_case_with(what, setup, go, "=5 move call ");
}

static void test_stop_and_isready_are_answered_while_searching(void)
{
    signal(SIGPIPE, SIG_IGN);
    stop_case("1", "go infinite");
    stop_case("2", "go infinite");
    stop_case("1", "go iterations 1000000000");
}

/* The same with a fixed budget and two threads: stop must end the other thread's share too. */
static void test_stop_ends_every_thread_of_a_fixed_budget(void)
{
    signal(SIGPIPE, SIG_IGN);
    stop_case("2", "go iterations 1000000000");
}

/* ---------------------------------------------------------------- 3. a tiny pool */

/* Seat 0 searched with a 1 MB pool and enough iterations to fill it at the exchange: every move
 * legal, through whole sets (the target lowered so that a set is short). */
static void test_a_full_pool_still_plays_legal_moves(void)
{
    game_move_t *moves = malloc(sizeof *moves * GAME_MAX_MOVES);
    double *values = malloc(sizeof *values * GAME_MAX_MOVES);
    CU_ASSERT_FATAL(moves && values);
    char err[GAME_ERR_LEN];
    ismcts_params_t p;
    ismcts_default_params(&p);
    p.tree_mb = 1;
    p.rollout = PLAYOUT_RANDOM;
    int64_t fill = 0;
    /* The pool's size: fill it once. */
    {
        picket_state_t st;
        picket_init(&st, &picket_preset_find("cotgrave")->rules, 5);
        deal_chance(&st);
        picket_view_t v;
        picket_view_from_state(&st, picket_to_move(&st), &v);
        game_move_t best;
        ismcts_stats_t stats;
        CU_ASSERT_FATAL(search_once(&p, &v, 40000, 1, &best, moves, values, &stats) > 0);
        CU_ASSERT(stats.pool_full);
        CU_ASSERT(stats.nodes > 1000 && stats.nodes < 40000);
        CU_ASSERT(G->is_legal(&st, &best, err, sizeof err) == 1);
        fill = stats.nodes + 200;
        printf("[1 MB: %lld nodes] ", (long long)stats.nodes);
    }
    /* Whole sets: the exchange fills the pool; the play runs the same budget. */
    picket_rules_t r = rules_of("cotgrave", "target=30");
    ismcts_t *s = ismcts_create(G, &p, err, sizeof err);
    bot_t *h = bot_create("heuristic", G, 9, err, sizeof err);
    CU_ASSERT_FATAL(s && h);
    int sets = 0, decisions = 0, full = 0, illegal = 0;
    for (uint64_t seed = 61; seed <= 62; seed++) {
        picket_state_t st;
        picket_init(&st, &r, seed);
        rng_t rng;
        rng_seed(&rng, seed);
        for (int step = 0; step < 2000 && picket_to_move(&st) != GAME_OVER; step++) {
            deal_chance(&st);
            int who = picket_to_move(&st);
            if (who < 0)
                break;
            picket_view_t v;
            picket_view_from_state(&st, who, &v);
            game_move_t m;
            if (who == 1) {
                CU_ASSERT_FATAL(bot_choose(h, &v, &m) == 0);
            } else {
                bot_limits_t lim = { -1, -1, -1, fill, 0 };
                CU_ASSERT_FATAL(ismcts_search(s, &v, &lim, NULL, &rng, moves, values, GAME_MAX_MOVES, &m) > 0);
                ismcts_stats_t stats;
                ismcts_stats(s, &stats);
                full += stats.pool_full;
                decisions++;
                if (G->is_legal(&st, &m, err, sizeof err) != 1) {
                    char t[64];
                    fprintf(stderr, "\n    seed %llu: illegal %s in %s: %s\n", (unsigned long long)seed,
                            move_text(&m, t, sizeof t), PK_PHASE_NAMES[st.pub.phase], err);
                    illegal++;
                    break;
                }
            }
            picket_apply(&st, &m, NULL, 0);
        }
        sets += picket_to_move(&st) == GAME_OVER;
    }
    CU_ASSERT_EQUAL(illegal, 0);
    CU_ASSERT_EQUAL(sets, 2);
    CU_ASSERT(full >= 2);
    printf("[%d decisions, pool full at %d] ", decisions, full);
    ismcts_free(s);
    bot_free(h);

    /* 64 threads share 1 MB: some 256 nodes and 128 candidates each, too few for the
     * exchange's wide list (it is then searched as a narrow node). */
    ismcts_params_t q = p;
    q.threads = ISMCTS_MAX_THREADS;
    for (uint64_t seed = 71; seed <= 72; seed++) {
        picket_state_t st;
        picket_init(&st, &picket_preset_find("cotgrave")->rules, seed);
        deal_chance(&st);
        bot_t *hb = bot_create("heuristic", G, seed, err, sizeof err);
        CU_ASSERT_FATAL(hb != NULL);
        for (int step = 0; step < 200 && st.pub.hand_no == 1 && picket_to_move(&st) >= 0; step++) {
            int who = picket_to_move(&st);
            picket_view_t v;
            picket_view_from_state(&st, who, &v);
            game_move_t m;
            ismcts_stats_t stats;
            /* The exchange is slow with too few candidates: a small budget there. */
            int wide = st.pub.phase == PK_PH_ELDER_EXCHANGE || st.pub.phase == PK_PH_YOUNGER_EXCHANGE ||
                       st.pub.phase == PK_PH_SET_ASIDE;
            int64_t budget = wide ? 256 : 64 * 300;
            if (who == 0 || wide) {
                CU_ASSERT_FATAL(search_once(&q, &v, budget, seed + (uint64_t)step, &m, moves, values, &stats) > 0);
                CU_ASSERT_EQUAL(stats.iterations, budget);
                CU_ASSERT(G->is_legal(&st, &m, err, sizeof err) == 1);
                if (!wide && st.pub.trick_no < 6 && !stats.pool_full)
                    fprintf(stderr, "\n    64 threads, seed %llu step %d: %lld nodes, the pools did not fill\n",
                            (unsigned long long)seed, step, (long long)stats.nodes);
            } else {
                CU_ASSERT_FATAL(bot_choose(hb, &v, &m) == 0);
            }
            picket_apply(&st, &m, NULL, 0);
        }
        bot_free(hb);
    }
    free(moves);
    free(values);
}

/* ---------------------------------------------------------------- 4. only the view */

/* Two deals from one seed: B swaps c1, a card the opponent discards, with c2, the stock's last
 * card, which the seat never sees (it is elder, takes at most 8, and never calls, so the
 * leftover stays hidden). Seat 0 (elder) is searched in both by bots `bot` of equal seeds with
 * the options set, in the first hands of sets first..last. */
static void check_only_the_view(const char *bot, const bot_settings_t *set, uint64_t first, uint64_t last)
{
    char err[GAME_ERR_LEN];
    const picket_rules_t *r = &picket_preset_find("cotgrave")->rules;
    int compared = 0, play = 0;
    for (uint64_t seed = first; seed <= last; seed++) {
        picket_state_t a, b, src;
        picket_init(&src, r, seed);
        deal_chance(&src);
        cardset_t hands[2] = { src.dealt[0], src.dealt[1] };
        uint8_t stock[PK_STOCK];
        memcpy(stock, src.stock, sizeof stock);
        int c2 = stock[PK_STOCK - 1];
        int courts2 = card_rank(c2) >= RANK_J && card_rank(c2) <= RANK_K;
        int c1 = -1;
        for (cardset_t h = hands[1]; h; h &= h - 1) {
            int c = cardset_first(h);
            if ((card_rank(c) >= RANK_J && card_rank(c) <= RANK_K) == courts2) {
                c1 = c;
                break;
            }
        }
        CU_ASSERT_FATAL(c1 >= 0);
        picket_init(&a, r, seed);
        picket_init(&b, r, seed);
        CU_ASSERT_FATAL(picket_deal_given(&a, 1, hands, stock, NULL, 0) >= 0);
        cardset_t hb[2] = { hands[0], (hands[1] & ~cardset_of(c1)) | cardset_of(c2) };
        uint8_t sb[PK_STOCK];
        memcpy(sb, stock, sizeof sb);
        sb[PK_STOCK - 1] = (uint8_t)c1;
        CU_ASSERT_FATAL(picket_deal_given(&b, 1, hb, sb, NULL, 0) >= 0);
        bot_t *ba = bot_create_with(bot, G, 500 + seed, set, err, sizeof err);
        bot_t *bb = bot_create_with(bot, G, 500 + seed, set, err, sizeof err);
        bot_t *h = bot_create("heuristic", G, seed, err, sizeof err);
        CU_ASSERT_FATAL(ba && bb && h);
        while (picket_to_move(&a) >= 0 && a.pub.hand_no == 1) {
            CU_ASSERT_FATAL(picket_to_move(&a) == picket_to_move(&b));
            int who = picket_to_move(&a);
            game_move_t ma, mb;
            if (who == 1) {
                const picket_pub_t *p = &a.pub;
                if (p->phase == PK_PH_YOUNGER_EXCHANGE || p->phase == PK_PH_SET_ASIDE) {
                    ma = (game_move_t){ PK_MV_DISCARD, 0, 0, cardset_of(c1) };
                    mb = (game_move_t){ PK_MV_DISCARD, 0, 0, cardset_of(c2) };
                } else {
                    picket_view_t v;
                    picket_view_from_state(&a, 1, &v);
                    CU_ASSERT_FATAL(bot_choose(h, &v, &ma) == 0);
                    mb = ma;
                }
            } else {
                picket_view_t va, vb;
                picket_view_from_state(&a, 0, &va);
                picket_view_from_state(&b, 0, &vb);
                const char *diff = picket_view_diff(&va, &vb);
                if (diff)
                    fprintf(stderr, "\n    seed %llu: the views differ in %s (%s)\n", (unsigned long long)seed, diff,
                            PK_PHASE_NAMES[a.pub.phase]);
                CU_ASSERT_FATAL(diff == NULL && memcmp(&va, &vb, sizeof va) == 0);
                CU_ASSERT_FATAL(bot_choose(ba, &va, &ma) == 0);
                CU_ASSERT_FATAL(bot_choose(bb, &vb, &mb) == 0);
                if (!same_move(&ma, &mb)) {
                    char t1[64], t2[64];
                    fprintf(stderr, "\n    %s, seed %llu (%s, trick %d): %s with c1 discarded, %s with c2\n", bot,
                            (unsigned long long)seed, PK_PHASE_NAMES[a.pub.phase], a.pub.trick_no,
                            move_text(&ma, t1, sizeof t1), move_text(&mb, t2, sizeof t2));
                }
                CU_ASSERT(same_move(&ma, &mb));
                compared++;
                play += a.pub.phase == PK_PH_PLAY;
                /* The call stays "none" so that the leftover is never seen. */
                if (a.pub.phase == PK_PH_CALL)
                    ma = mb = (game_move_t){ PK_MV_CALL, -1, 0, 0 };
            }
            CU_ASSERT_FATAL(picket_is_legal(&a, &ma, err, sizeof err) == 1);
            CU_ASSERT_FATAL(picket_is_legal(&b, &mb, err, sizeof err) == 1);
            picket_apply(&a, &ma, NULL, 0);
            picket_apply(&b, &mb, NULL, 0);
        }
        /* The truths did differ. */
        CU_ASSERT(a.discard[1] != b.discard[1]);
        bot_free(ba);
        bot_free(bb);
        bot_free(h);
    }
    int seeds = (int)(last - first + 1);
    CU_ASSERT(compared >= 7 * seeds);
    CU_ASSERT(play >= 5 * seeds);
}

static void test_the_bot_sees_only_its_view(void)
{
    bot_settings_t *set = settings_with((const char *[]){ "ismcts.iterations", "300", NULL });
    check_only_the_view("hybrid", set, 81, 83);
    bot_settings_free(set);
}

/* ---------------------------------------------------------------- 5. known best moves */

/* The solver's value of every legal move of the state's mover, by card: vals[card]; 0 if the
 * state is not in its play. */
static int solve_all(solver_t *sv, const picket_state_t *st, int vals[CARD_COUNT], cardset_t *cards)
{
    picket_end_t pos;
    if (picket_end_from_state(st, &pos) < 0)
        return 0;
    uint8_t moves[ENDGAME_MAX_MOVES];
    int values[ENDGAME_MAX_MOVES];
    int n = solver_all(sv, &pos, moves, values);
    *cards = 0;
    for (int i = 0; i < n; i++) {
        game_move_t m;
        PICKET_ENDGAME.to_game_move(moves[i], &m);
        vals[m.arg] = values[i];
        *cards |= cardset_of(m.arg);
    }
    return n;
}

/* Every world of the view drawn (all its opponent holdings seen), and the solver's values of
 * the mover's moves the same in each: 1, with them in vals. */
static int worlds_agree(solver_t *sv, const picket_view_t *v, int vals[CARD_COUNT], cardset_t *cards, int *nworlds)
{
    char err[GAME_ERR_LEN];
    void *smp = G->sampler_new(v, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(smp);
    uint64_t holdings = 0;
    G->sampler_count(smp, &holdings);
    int agree = holdings > 0 && holdings <= 24;
    cardset_t seen[24];
    int nseen = 0;
    rng_t rng;
    rng_seed(&rng, 99);
    int opp = 1 - v->seat;
    for (int draw = 0; agree && draw < 4000 && (uint64_t)nseen < holdings; draw++) {
        picket_state_t w;
        CU_ASSERT_FATAL(G->sampler_draw(smp, &rng, &w) == 0);
        int k = 0;
        while (k < nseen && seen[k] != w.hand[opp])
            k++;
        if (k < nseen)
            continue;
        seen[nseen++] = w.hand[opp];
        int wv[CARD_COUNT];
        cardset_t wc = 0;
        solve_all(sv, &w, wv, &wc);
        if (nseen == 1) {
            memcpy(vals, wv, sizeof wv);
            *cards = wc;
        } else if (wc != *cards) {
            agree = 0;
        } else {
            for (cardset_t c = wc; c; c &= c - 1)
                agree &= wv[cardset_first(c)] == vals[cardset_first(c)];
        }
    }
    agree &= (uint64_t)nseen == holdings;
    *nworlds = nseen;
    G->sampler_free(smp);
    return agree;
}

/* A position of the play where every world the view allows gives the solver the same values
 * (so the best move is known), late in the hand and far from the target. */
typedef struct known {
    picket_state_t st;
    picket_view_t v;
    int tv[CARD_COUNT];     /* the solver's values on the true state, by card */
    cardset_t cards;        /* the legal cards */
    int hi;                 /* the best value */
    int nworlds, who;
    uint64_t seed;
} known_t;

enum { MAX_KNOWN = 6 };

/* The first hands of seeded sets played by the heuristic: up to cap such positions, one a set. */
static int find_known_positions(known_t *out, int cap)
{
    char err[GAME_ERR_LEN];
    solver_t *sv = solver_create(&PICKET_ENDGAME, 4, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sv);
    bot_t *h = bot_create("heuristic", G, 3, err, sizeof err);
    CU_ASSERT_FATAL(h != NULL);
    int found = 0;
    const picket_rules_t *r = &picket_preset_find("cotgrave")->rules;
    for (uint64_t seed = 100; seed < 160 && found < cap; seed++) {
        picket_state_t st;
        picket_init(&st, r, seed);
        deal_chance(&st);
        int taken = 0;
        while (picket_to_move(&st) >= 0 && st.pub.hand_no == 1 && !taken) {
            int who = picket_to_move(&st);
            picket_view_t v;
            picket_view_from_state(&st, who, &v);
            int left = PK_TRICKS - st.pub.trick_no;
            /* Late in the play, far from the target: the hand's points are all there is. */
            if (st.pub.phase == PK_PH_PLAY && left <= 3 && left >= 2 &&
                st.pub.score[0] + 70 < r->target && st.pub.score[1] + 70 < r->target) {
                int vals[CARD_COUNT], tv[CARD_COUNT], nworlds = 0;
                cardset_t cards = 0, tc = 0;
                if (worlds_agree(sv, &v, vals, &cards, &nworlds) && cardset_count(cards) >= 2) {
                    int hi = -1000, lo = 1000;
                    for (cardset_t c = cards; c; c &= c - 1) {
                        int x = vals[cardset_first(c)];
                        hi = x > hi ? x : hi;
                        lo = x < lo ? x : lo;
                    }
                    solve_all(sv, &st, tv, &tc);
                    CU_ASSERT(tc == cards);
                    if (hi > lo) {
                        taken = 1;
                        known_t *k = &out[found++];
                        k->st = st;
                        k->v = v;
                        memcpy(k->tv, tv, sizeof tv);
                        k->cards = cards;
                        k->hi = hi;
                        k->nworlds = nworlds;
                        k->who = who;
                        k->seed = seed;
                    }
                }
            }
            game_move_t m;
            CU_ASSERT_FATAL(bot_choose(h, &v, &m) == 0);
            picket_apply(&st, &m, NULL, 0);
        }
    }
    bot_free(h);
    solver_free(sv);
    return found;
}

/* 1 if best is a move the solver proves best; else 0, the position and the values printed. */
static int known_best(const known_t *k, const game_move_t *best, const char *what)
{
    int ok = best->kind == PK_MV_PLAY && cardset_has(k->cards, best->arg) && k->tv[best->arg] == k->hi;
    if (!ok) {
        char t[64], all[512] = "";
        size_t at = 0;
        for (cardset_t c = k->cards; c; c &= c - 1) {
            char cn[3];
            at += (size_t)snprintf(all + at, sizeof all - at, " %s=%d", card_format(cardset_first(c), cn),
                                   k->tv[cardset_first(c)]);
        }
        fprintf(stderr, "\n    seed %llu hand 1 trick %d seat %d (%s, %d worlds): bot %s; solver:%s\n",
                (unsigned long long)k->seed, k->st.pub.trick_no + 1, k->who, what, k->nworlds,
                move_text(best, t, sizeof t), all);
    }
    return ok;
}

static void test_known_best_moves_are_played(void)
{
    game_move_t *moves = malloc(sizeof *moves * GAME_MAX_MOVES);
    double *values = malloc(sizeof *values * GAME_MAX_MOVES);
    known_t *known = malloc(sizeof *known * MAX_KNOWN);
    CU_ASSERT_FATAL(moves && values && known);
    int found = find_known_positions(known, MAX_KNOWN), right[2] = { 0, 0 };
    for (int i = 0; i < found; i++)
        for (int mode = 0; mode < 2; mode++) {
            ismcts_params_t p;
            ismcts_default_params(&p);
            p.rollout = mode ? PLAYOUT_HEURISTIC : PLAYOUT_RANDOM;
            game_move_t best;
            CU_ASSERT_FATAL(search_once(&p, &known[i].v, 3000, known[i].seed, &best, moves, values, NULL) > 0);
            int ok = known_best(&known[i], &best, mode ? "rollout heuristic" : "rollout random");
            right[mode] += ok;
            CU_ASSERT(ok);
        }
    printf("[%d positions; right %d (random rollouts), %d (heuristic)] ", found, right[0], right[1]);
    CU_ASSERT(found >= 4);
    free(known);
    free(moves);
    free(values);
}

/* ---------------------------------------------------------------- 6. the set, not the points */

/* Who wins the set from here with both seats best for it, to the end of the hand: 1 seat
 * `me` wins, 0 the other does, 0.5 the hand ends with the set still on. */
static double set_minimax(const picket_state_t *st, int me)
{
    if (st->pub.phase == PK_PH_OVER)
        return st->pub.winner == me ? 1.0 : 0.0;
    if (G->hand_over(st))
        return 0.5;
    game_move_t moves[ENDGAME_MAX_MOVES];
    int n = picket_legal_moves(st, moves, ENDGAME_MAX_MOVES);
    int who = picket_to_move(st);
    double best = who == me ? -1 : 2;
    for (int i = 0; i < n; i++) {
        picket_state_t c = *st;
        picket_apply(&c, &moves[i], NULL, 0);
        double x = set_minimax(&c, me);
        best = who == me ? (x > best ? x : best) : (x < best ? x : best);
    }
    return best;
}

/* Seat 0 (elder) leads to trick 11 holding TS AH against AS 7H, known (the opponent is void in
 * Clubs and Diamonds, and every other card it could hold has been seen). Seat 0 needs 2 points,
 * seat 1 one. Leading TS scores most (+1; AS wins it, +1; AH wins the last, +2): 2 points
 * better than AH; but AS's point reaches the target first. Leading AH (+1), then TS (+1) wins the
 * set. */
static const char *RACE_ELDER = "TS 7S KS AH TH 6H AC KC QC AD KD 6C";
static const char *RACE_YOUNGER = "AS 7H 6S JS QS JC TC 9C 8C 7C JD TD";
static const char *RACE_STOCK[PK_STOCK] = { "QD", "8S", "9S", "8H", "9H", "JH", "QH", "KH", "9D", "8D", "7D", "6D" };
static const char *RACE_MOVES[] = {
    "discard 6C", "discard JC TC 9C 8C 7C JD TD", "call none",
    "play AC", "play 6S", "play KC", "play JS", "play QC", "play QS",  /* tricks 1-3: seat 0 */
    "play AD", "play JH", "play KD", "play QH", "play QD", "play KH",  /* 4-6: seat 0 */
    "play 6H", "play 8H",                                              /* 7: seat 1 */
    "play 8S", "play 7S",                                              /* 8: seat 1 */
    "play 9H", "play TH",                                              /* 9: seat 0 */
    "play KS", "play 9S",                                              /* 10: seat 0 */
    NULL
};

static void race_build(picket_state_t *st, const picket_rules_t *r, int score0, int score1)
{
    cardset_t hands[2] = { test_cards(RACE_ELDER), test_cards(RACE_YOUNGER) };
    uint8_t stock[PK_STOCK];
    for (int i = 0; i < PK_STOCK; i++)
        stock[i] = (uint8_t)card_parse(RACE_STOCK[i], strlen(RACE_STOCK[i]));
    picket_init(st, r, 1);
    CU_ASSERT_FATAL(picket_deal_given(st, 1, hands, stock, NULL, 0) >= 0);
    /* Scores from earlier hands. */
    st->pub.score[0] = score0;
    st->pub.score[1] = score1;
    for (int i = 0; RACE_MOVES[i]; i++)
        play_text(st, RACE_MOVES[i]);
}

/* The race: the hand's points at trick 11, then the scores put 2 and 1 short of a target of 60. */
static void race_at_target(picket_state_t *st)
{
    picket_rules_t r = rules_of("cotgrave", "target=60");
    race_build(st, &r, 0, 0);
    CU_ASSERT_EQUAL_FATAL(st->pub.trick_no, 10);
    CU_ASSERT_EQUAL_FATAL(picket_to_move(st), 0);
    CU_ASSERT_EQUAL_FATAL(st->hand[0], test_cards("TS AH"));
    CU_ASSERT_EQUAL_FATAL(st->hand[1], test_cards("AS 7H"));
    int h0 = st->pub.score[0], h1 = st->pub.score[1];
    CU_ASSERT_FATAL(h0 < 58 && h1 < 59);
    race_build(st, &r, 58 - h0, 59 - h1);
    CU_ASSERT_EQUAL_FATAL(st->pub.score[0], 58);
    CU_ASSERT_EQUAL_FATAL(st->pub.score[1], 59);
    CU_ASSERT_EQUAL_FATAL(st->pub.winner, -1);
}

static void test_the_bot_plays_for_the_set_not_the_points(void)
{
    char err[GAME_ERR_LEN];
    picket_state_t st;
    race_at_target(&st);
    int ts = card_parse("TS", 2), ah = card_parse("AH", 2);
    picket_view_t v;
    picket_view_from_state(&st, 0, &v);

    /* The construction, in the true state and in every world the view allows: the solver (the
     * hand's points) prefers TS by 2; the set minimax wins with AH only. */
    solver_t *sv = solver_create(&PICKET_ENDGAME, 4, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sv);
    void *smp = G->sampler_new(&v, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(smp);
    uint64_t holdings = 0, worlds = G->sampler_count(smp, &holdings);
    CU_ASSERT(worlds >= 1);
    CU_ASSERT_EQUAL(holdings, 1);
    rng_t rng;
    rng_seed(&rng, 5);
    for (int i = 0; i <= 50; i++) {
        picket_state_t w = st;
        if (i > 0)
            CU_ASSERT_FATAL(G->sampler_draw(smp, &rng, &w) == 0);
        int vals[CARD_COUNT];
        cardset_t cards;
        CU_ASSERT_FATAL(solve_all(sv, &w, vals, &cards) == 2);
        CU_ASSERT_EQUAL(cards, cardset_of(ts) | cardset_of(ah));
        CU_ASSERT_EQUAL(vals[ts], vals[ah] + 2);
        picket_state_t a = w, t = w;
        play_text(&a, "play AH");
        play_text(&t, "play TS");
        CU_ASSERT_EQUAL(set_minimax(&a, 0), 1.0);
        CU_ASSERT_EQUAL(set_minimax(&t, 0), 0.0);
        /* The hand's points alone, the target out of reach: TS is the better line. */
        picket_state_t far = w;
        far.rules.target = 1000;
        picket_state_t fa = far, ft = far;
        play_text(&fa, "play AH");
        play_text(&ft, "play TS");
        while (!G->hand_over(&fa)) {
            game_move_t m;
            CU_ASSERT_FATAL(picket_legal_moves(&fa, &m, 1) == 1);
            picket_apply(&fa, &m, NULL, 0);
        }
        while (!G->hand_over(&ft)) {
            game_move_t m;
            CU_ASSERT_FATAL(picket_legal_moves(&ft, &m, 1) == 1);
            picket_apply(&ft, &m, NULL, 0);
        }
        double ha[2], ht[2];
        G->hand_value(&fa, ha);
        G->hand_value(&ft, ht);
        CU_ASSERT_EQUAL(ht[0] - ht[1], ha[0] - ha[1] + 2);
    }
    G->sampler_free(smp);
    solver_free(sv);

    /* The bot, with rollouts, leads AH. */
    game_move_t *moves = malloc(sizeof *moves * GAME_MAX_MOVES);
    double *values = malloc(sizeof *values * GAME_MAX_MOVES);
    CU_ASSERT_FATAL(moves && values);
    for (int k = 0; k < 1; k++) {
        for (uint64_t seed = 1; seed <= 3; seed++) {
            ismcts_params_t p;
            ismcts_default_params(&p);
            game_move_t best;
            int n = search_once(&p, &v, 500, seed, &best, moves, values, NULL);
            CU_ASSERT_EQUAL_FATAL(n, 2);
            if (best.kind != PK_MV_PLAY || best.arg != ah) {
                char t[64];
                fprintf(stderr, "\n    seed %llu: the bot led %s (values %s %.3f, %s %.3f)\n",
                        (unsigned long long)seed, move_text(&best, t, sizeof t),
                        move_text(&moves[0], (char[64]){ 0 }, 64), values[0], move_text(&moves[1], (char[64]){ 0 }, 64),
                        values[1]);
            }
            CU_ASSERT(best.kind == PK_MV_PLAY && best.arg == ah);
            /* The values are the set's: AH wins it every time, TS loses it. */
            for (int i = 0; i < n; i++) {
                if (moves[i].arg == ah)
                    CU_ASSERT(values[i] == 1.0);
                if (moves[i].arg == ts)
                    CU_ASSERT(values[i] == 0.0 || values[i] == -1.0);
            }
        }
    }
    /* Far from the target, the same cards: the bot takes the points (TS). */
    picket_rules_t far = rules_of("cotgrave", "target=1000");
    race_build(&st, &far, 0, 0);
    picket_view_from_state(&st, 0, &v);
    {
        ismcts_params_t p;
        ismcts_default_params(&p);
        game_move_t best;
        CU_ASSERT_EQUAL(search_once(&p, &v, 500, 1, &best, moves, values, NULL), 2);
        CU_ASSERT(best.kind == PK_MV_PLAY && best.arg == ts);
    }
    free(moves);
    free(values);
}

/* 6b. The reward at a hand's end and inside a hand is the points' curve, the same at any
 * scores: the hand's lead, not the set's state (a set won or lost is the return, test 6). */
static double curve(double d) { return 0.5 + 0.45 * tanh(d / 30.0); }

static void test_the_reward_is_the_points_curve(void)
{
    char err[GAME_ERR_LEN];
    picket_rules_t r = rules_of("cotgrave", NULL);
    picket_state_t mid, end;
    race_build(&mid, &r, 0, 0);
    end = mid;
    while (!G->hand_over(&end)) {
        game_move_t m;
        CU_ASSERT_FATAL(picket_legal_moves(&end, &m, 1) == 1);
        picket_apply(&end, &m, NULL, 0);
    }
    CU_ASSERT_FATAL(G->to_move(&end) != GAME_OVER);
    double hv[2];
    G->hand_value(&end, hv);
    playout_t po;
    CU_ASSERT_FATAL(playout_init(&po, G, 30, NULL, err, sizeof err) == 0);
    double rw[2], ra[2];
    picket_state_t ahead = end;
    ahead.pub.score[0] += 30;
    playout_reward(&po, &mid, rw);
    double mv[2];
    G->hand_value(&mid, mv);
    CU_ASSERT(fabs(rw[0] - curve(mv[0] - mv[1])) < 1e-12);
    playout_reward(&po, &end, rw);
    CU_ASSERT(fabs(rw[0] - curve(hv[0] - hv[1])) < 1e-12 && fabs(rw[1] - curve(hv[1] - hv[0])) < 1e-12);
    playout_reward(&po, &ahead, ra);
    CU_ASSERT(ra[0] == rw[0]);
    playout_free(&po);
}

/* ---------------------------------------------------------------- 7. options */

typedef struct talk {
    session_t *s;
    FILE *out;
    char *buf;
    size_t size, read;
} talk_t;

static const char *say(talk_t *t, const char *line)
{
    session_handle_line(t->s, line);
    fflush(t->out);
    const char *fresh = t->buf + t->read;
    t->read = t->size;
    return fresh;
}

static void test_options_are_declared_and_checked(void)
{
    static const struct {
        const char *name;
        opt_type_t type;
    } WANT[] = {
        { "ismcts.iterations", OPT_SPIN },    { "ismcts.exploration", OPT_FLOAT }, { "ismcts.rollout", OPT_COMBO },
        { "ismcts.threads", OPT_SPIN },      { "ismcts.tree_mb", OPT_SPIN },
        { "ismcts.widen_topk", OPT_SPIN },    { "ismcts.reward_scale", OPT_FLOAT },
    };
    char err[GAME_ERR_LEN];
    bot_settings_t *set = bot_settings_create(err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(set);
    int n;
    const opt_def_t *opts = bot_settings_options(set, &n);
    int mine = 0;
    for (int i = 0; i < n; i++)
        mine += strncmp(opts[i].name, "ismcts.", 7) == 0;
    CU_ASSERT_EQUAL(mine, (int)(sizeof WANT / sizeof WANT[0]));
    for (size_t i = 0; i < sizeof WANT / sizeof WANT[0]; i++) {
        const opt_def_t *o = opt_find(opts, n, WANT[i].name);
        CU_ASSERT_PTR_NOT_NULL(o);
        if (o)
            CU_ASSERT_EQUAL(o->type, WANT[i].type);
    }
    /* The defaults are ismcts_default_params. */
    ismcts_params_t d, p;
    ismcts_default_params(&d);
    CU_ASSERT(ismcts_params_from(set, &p, NULL, 0) == 0);
    CU_ASSERT(p.iterations == d.iterations && p.exploration == d.exploration && p.rollout == d.rollout &&
              p.threads == d.threads && p.tree_mb == d.tree_mb &&
              p.widen_topk == d.widen_topk && p.reward_scale == d.reward_scale);
    /* Refused, each with one line naming the option; the value unchanged. */
    const char *bad[][2] = {
        { "ismcts.threads", "0" },        { "ismcts.threads", "65" },       { "ismcts.threads", "-1" },
        { "ismcts.rollout", "bogus" },    { "ismcts.rollout", "Random" },   { "ismcts.rollout", "" },
        { "ismcts.tree_mb", "0" },        { "ismcts.iterations", "0" },
        { "ismcts.exploration", "nan" },
        { "ismcts.exploration", "-0.5" }, { "ismcts.reward_scale", "0" },
        { "ismcts.widen_topk", "0" },     { "ismcts.iterations", "1e5" },   { "ismcts.nothing", "1" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        int rc = bot_settings_set(set, bad[i][0], bad[i][1], err, sizeof err);
        if (rc == 0)
            fprintf(stderr, "\n    %s = '%s' accepted\n", bad[i][0], bad[i][1]);
        CU_ASSERT(rc < 0);
        CU_ASSERT(err[0] != '\0' && strchr(err, '\n') == NULL);
        CU_ASSERT_PTR_NOT_NULL(strstr(err, bad[i][0]));
    }
    CU_ASSERT(ismcts_params_from(set, &p, NULL, 0) == 0);
    CU_ASSERT(p.threads == 1 && p.rollout == PLAYOUT_HEURISTIC && p.tree_mb == d.tree_mb);
    /* Accepted values reach the parameters. */
    const char *good[][2] = {
        { "ismcts.threads", "3" },        { "ismcts.rollout", "random" },
        { "ismcts.tree_mb", "2" },      { "ismcts.iterations", "777" },
        { "ismcts.exploration", "1.25" }, { "ismcts.widen_topk", "9" },   { "ismcts.reward_scale", "10" },
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        CU_ASSERT(bot_settings_set(set, good[i][0], good[i][1], err, sizeof err) == 0);
    CU_ASSERT(ismcts_params_from(set, &p, NULL, 0) == 0);
    CU_ASSERT(p.threads == 3 && p.rollout == PLAYOUT_RANDOM &&
              p.tree_mb == 2 && p.iterations == 777 && p.exploration == 1.25 && p.widen_topk == 9 &&
              p.reward_scale == 10);
    bot_settings_free(set);

    /* Through the engine: listed in the handshake, and a refusal is one '?' line. */
    talk_t t;
    memset(&t, 0, sizeof t);
    t.out = open_memstream(&t.buf, &t.size);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t.out);
    t.s = session_create(t.out, -1, "test-engine", "test");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t.s);
    const char *hello = say(&t, "hello");
    for (size_t i = 0; i < sizeof WANT / sizeof WANT[0]; i++) {
        char want[96];
        snprintf(want, sizeof want, "\noption name %s type ", WANT[i].name);
        CU_ASSERT_PTR_NOT_NULL(strstr(hello, want));
    }
    const char *lines[] = { "setoption name ismcts.threads value 0", "setoption name ismcts.rollout value bogus",
                            "setoption name ismcts.exploration value 99" };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        const char *out = say(&t, lines[i]);
        int one = out[0] == '?' && strchr(out, '\n') == out + strlen(out) - 1;
        if (!one)
            fprintf(stderr, "\n    %s -> %s\n", lines[i], out);
        CU_ASSERT(one);
    }
    CU_ASSERT_STRING_EQUAL(say(&t, "setoption name ismcts.threads value 2"), "");
    /* The bot made with those options plays. */
    say(&t, "setoption name bot value hybrid");
    say(&t, "setoption name ismcts.iterations value 200");
    say(&t, "setoption name info value false");
    say(&t, CALL_POSITION);
    CU_ASSERT(strncmp(say(&t, "go"), "= move call ", 12) == 0);
    session_free(t.s);
    fclose(t.out);
    free(t.buf);
}

/* ---------------------------------------------------------------- 8. two threads */

static bot_info_t last_info;
static int info_calls;
static void keep_info(void *data, const bot_info_t *info)
{
    (void)data;
    last_info = *info;
    info_calls++;
}

/* A decision with one legal move takes one iteration at the default budget (the only move is
 * the move), and the whole budget when `go` names the iterations. */
static void test_a_forced_move_takes_one_iteration(void)
{
    char err[GAME_ERR_LEN];
    game_move_t *moves = malloc(sizeof *moves * GAME_MAX_MOVES);
    double *values = malloc(sizeof *values * GAME_MAX_MOVES);
    CU_ASSERT_FATAL(moves && values);
    ismcts_params_t p;
    ismcts_default_params(&p);
    ismcts_t *s = ismcts_create(G, &p, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    picket_state_t st;
    picket_init(&st, &picket_preset_find("cotgrave")->rules, 5);
    deal_chance(&st);
    rng_t rng;
    rng_seed(&rng, 5);
    int forced = 0;
    while (picket_to_move(&st) >= 0 && st.pub.hand_no == 1) {
        picket_view_t v;
        picket_view_from_state(&st, picket_to_move(&st), &v);
        game_move_t m;
        if (G->view_legal_moves(&v, moves, GAME_MAX_MOVES) == 1 && forced < 3) {
            ismcts_stats_t stats;
            CU_ASSERT_FATAL(ismcts_search(s, &v, NULL, NULL, &rng, moves, values, GAME_MAX_MOVES, &m) == 1);
            ismcts_stats(s, &stats);
            CU_ASSERT_EQUAL(stats.iterations, 1);
            bot_limits_t lim = { -1, -1, -1, 300, 0 };
            CU_ASSERT_FATAL(ismcts_search(s, &v, &lim, NULL, &rng, moves, values, GAME_MAX_MOVES, &m) == 1);
            ismcts_stats(s, &stats);
            CU_ASSERT_EQUAL(stats.iterations, 300);
            forced++;
        } else {
            CU_ASSERT_FATAL(picket_random_move(&st, &rng, &m) == 0);
        }
        game_event_t ev[GAME_MAX_EVENTS];
        picket_apply(&st, &m, ev, GAME_MAX_EVENTS);
        while (picket_to_move(&st) == GAME_CHANCE && st.pub.hand_no == 1)
            picket_apply_chance(&st, NULL, ev, GAME_MAX_EVENTS);
    }
    CU_ASSERT(forced >= 1);
    ismcts_free(s);
    free(moves);
    free(values);
}

static void test_two_threads_search_the_whole_budget(void)
{
    char err[GAME_ERR_LEN];
    game_move_t *moves = malloc(sizeof *moves * GAME_MAX_MOVES);
    double *values = malloc(sizeof *values * GAME_MAX_MOVES);
    CU_ASSERT_FATAL(moves && values);
    ismcts_params_t p;
    ismcts_default_params(&p);
    p.threads = 2;
    ismcts_t *s = ismcts_create(G, &p, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    bot_t *h = bot_create("heuristic", G, 1, err, sizeof err);
    CU_ASSERT_FATAL(h != NULL);
    picket_state_t st;
    picket_init(&st, &picket_preset_find("cotgrave")->rules, 91);
    deal_chance(&st);
    rng_t rng;
    rng_seed(&rng, 91);
    int decisions = 0;
    while (picket_to_move(&st) >= 0 && st.pub.hand_no == 1) {
        int who = picket_to_move(&st);
        picket_view_t v;
        picket_view_from_state(&st, who, &v);
        game_move_t m;
        if (who == 0 && decisions < 8) {
            int64_t budget = decisions % 2 ? 1001 : 400;
            bot_limits_t lim = { -1, -1, -1, budget, 0 };
            bot_hooks_t hooks = { NULL, keep_info, NULL };
            info_calls = 0;
            int n = ismcts_search(s, &v, &lim, &hooks, &rng, moves, values, GAME_MAX_MOVES, &m);
            CU_ASSERT_FATAL(n > 0);
            ismcts_stats_t stats;
            ismcts_stats(s, &stats);
            CU_ASSERT_EQUAL(stats.iterations, budget);
            CU_ASSERT(info_calls >= 1);
            CU_ASSERT_EQUAL(last_info.iterations, budget);
            CU_ASSERT_EQUAL(last_info.nodes, stats.nodes);
            CU_ASSERT(G->is_legal(&st, &m, err, sizeof err) == 1);
            int tried = 0, best_at = -1;
            for (int i = 0; i < n; i++) {
                CU_ASSERT(values[i] == -1.0 || (values[i] >= 0.0 && values[i] <= 1.0));
                tried += values[i] >= 0;
                if (same_move(&moves[i], &m))
                    best_at = i;
            }
            CU_ASSERT(tried >= 1 && best_at >= 0 && values[best_at] >= 0);
            decisions++;
        } else {
            CU_ASSERT_FATAL(bot_choose(h, &v, &m) == 0);
        }
        picket_apply(&st, &m, NULL, 0);
        deal_chance(&st);
    }
    CU_ASSERT(decisions >= 6);
    ismcts_free(s);
    /* The bot with ismcts.threads 2. */
    bot_settings_t *set = settings_with((const char *[]){ "ismcts.threads", "2", "ismcts.iterations", "300", NULL });
    bot_t *b = bot_create_with("hybrid", G, 4, set, err, sizeof err);
    CU_ASSERT_FATAL(b != NULL);
    picket_init(&st, &picket_preset_find("cotgrave")->rules, 92);
    deal_chance(&st);
    picket_view_t v;
    picket_view_from_state(&st, picket_to_move(&st), &v);
    game_move_t m;
    CU_ASSERT(bot_choose(b, &v, &m) == 0);
    CU_ASSERT(G->is_legal(&st, &m, err, sizeof err) == 1);
    bot_free(b);
    bot_free(h);
    bot_settings_free(set);
    free(moves);
    free(values);
}

/* ---------------------------------------------------------------- 9. no world, and the figures */

/* A game whose sampler finds no world (game.h allows it: -1, "no world is found"). */
static int no_world_draw(void *sampler, rng_t *rng, void *state_out)
{
    (void)sampler, (void)rng, (void)state_out;
    return -1;
}
static int no_world_sample(const void *view, rng_t *rng, void *state_out)
{
    (void)view, (void)rng, (void)state_out;
    return -1;
}

/* A game whose every world sticks between events once seat 1 is to move: the rules say chance
 * is due, and chance writes nothing (what a view the rules never give once left in a sampled
 * Court Circular world, issue 29). */
static int stuck_to_move(const void *state)
{
    int r = picket_to_move(state);
    return r == 1 ? GAME_CHANCE : r;
}

/* A fixed budget whose worlds are not found, or found and not finished, must still end (with a
 * move or -1), not spin for ever: run in a child that is killed after 3 s. */
static void search_ends(const game_t *g, const char *what)
{
    picket_state_t st;
    picket_init(&st, &picket_preset_find("cotgrave")->rules, 3);
    deal_chance(&st);
    CU_ASSERT_EQUAL_FATAL(picket_to_move(&st), 0); /* the root is seat 0's, the next move seat 1's */
    picket_view_t v;
    picket_view_from_state(&st, picket_to_move(&st), &v);
    static const char *const MODES[] = { "ismcts_search, 1 thread,", "ismcts_search, 2 threads,", "pimc_search" };
    for (int mode = 0; mode < 3; mode++) {
        fflush(NULL);
        pid_t pid = fork();
        CU_ASSERT_FATAL(pid >= 0);
        if (pid == 0) {
            static game_move_t moves[GAME_MAX_MOVES];
            static double values[GAME_MAX_MOVES];
            char err[GAME_ERR_LEN];
            if (mode == 2) {
                /* pimc: no world valued, so the heuristic's move, every value -1 (pimc.h). */
                pimc_params_t q;
                pimc_default_params(&q);
                q.solver_mb = 1;
                pimc_t *s = pimc_create(g, &q, err, sizeof err);
                if (!s)
                    _exit(3);
                rng_t rng;
                rng_seed(&rng, 1);
                bot_limits_t lim = { -1, -1, -1, 100, 0 };
                game_move_t best;
                int n = pimc_search(s, &v, &lim, NULL, &rng, moves, values, GAME_MAX_MOVES, &best);
                pimc_stats_t stats;
                pimc_stats(s, &stats);
                pimc_free(s);
                if (n == -1)
                    _exit(0);
                if (n <= 0)
                    _exit(4);
                int legal = 0;
                for (int i = 0; i < n; i++) {
                    if (values[i] != -1.0)
                        _exit(5);
                    legal |= same_move(&moves[i], &best);
                }
                _exit(!legal ? 6 : stats.worlds != 0 ? 7 : 0);
            }
            ismcts_params_t p;
            ismcts_default_params(&p);
            p.threads = mode ? 2 : 1;
            ismcts_t *s = ismcts_create(g, &p, err, sizeof err);
            if (!s)
                _exit(3);
            rng_t rng;
            rng_seed(&rng, 1);
            bot_limits_t lim = { -1, -1, -1, 100, 0 };
            game_move_t best;
            int n = ismcts_search(s, &v, &lim, NULL, &rng, moves, values, GAME_MAX_MOVES, &best);
            ismcts_free(s);
            _exit(n > 0 || n == -1 ? 0 : 4);
        }
        int status = 0, done = 0;
        for (double end = measure_now() + 3.0; measure_now() < end && !done;) {
            done = waitpid(pid, &status, WNOHANG) == pid;
            struct timespec ts = { 0, 10 * 1000 * 1000 };
            if (!done)
                nanosleep(&ts, NULL);
        }
        if (!done) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            fprintf(stderr, "\n    %s iterations 100, on %s, had not returned after 3 s\n", MODES[mode], what);
        } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            fprintf(stderr, "\n    %s iterations 100, %s: the child ended with status %d (3: not created, "
                            "4: no move, 5: a value not -1, 6: best not legal, 7: worlds counted)\n", MODES[mode], what,
                    WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status));
        }
        CU_ASSERT(done && WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
}

static void test_a_search_with_no_world_ends(void)
{
    game_t g = PICKET_GAME;
    g.sampler_draw = no_world_draw;
    g.sample_world = no_world_sample;
    search_ends(&g, "a game whose sampler finds no world");
    g = PICKET_GAME;
    g.to_move = stuck_to_move;
    search_ends(&g, "worlds stuck between events");
}

/* ismcts_stats are the last search's: a second search on the same bot counts its own
 * iterations and its own solved endings. */
static void test_the_figures_are_the_last_search(void)
{
    char err[GAME_ERR_LEN];
    bot_t *h = bot_create("heuristic", G, 1, err, sizeof err);
    CU_ASSERT_FATAL(h != NULL);
    picket_state_t st;
    picket_init(&st, &picket_preset_find("cotgrave")->rules, 3);
    play_to_trick(&st, h, 8);
    CU_ASSERT_FATAL(st.pub.phase == PK_PH_PLAY);
    picket_view_t v;
    picket_view_from_state(&st, picket_to_move(&st), &v);
    ismcts_params_t p;
    ismcts_default_params(&p);
    ismcts_t *s = ismcts_create(G, &p, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    game_move_t *moves = malloc(sizeof *moves * GAME_MAX_MOVES);
    double *values = malloc(sizeof *values * GAME_MAX_MOVES);
    CU_ASSERT_FATAL(moves && values);
    rng_t rng;
    rng_seed(&rng, 1);
    for (int i = 0; i < 3; i++) {
        bot_limits_t lim = { -1, -1, -1, 100, 0 };
        game_move_t best;
        CU_ASSERT_FATAL(ismcts_search(s, &v, &lim, NULL, &rng, moves, values, GAME_MAX_MOVES, &best) > 0);
        ismcts_stats_t stats;
        ismcts_stats(s, &stats);
        CU_ASSERT_EQUAL(stats.iterations, 100);
        CU_ASSERT(stats.nodes >= 1 && stats.seconds >= 0);
    }
    ismcts_free(s);
    bot_free(h);
    free(moves);
    free(values);
}

/* ================================================================ PIMC (search/pimc.h) */

/* A bare search with its own parameters: the best move, the moves and their values. */
static int pimc_once(const pimc_params_t *p, const void *view, int64_t worlds, uint64_t seed, game_move_t *best,
                     game_move_t *moves, double *values, pimc_stats_t *stats)
{
    char err[GAME_ERR_LEN];
    pimc_t *s = pimc_create(G, p, err, sizeof err);
    if (!s) {
        fprintf(stderr, "\n    pimc_create: %s\n", err);
        CU_FAIL("pimc_create refused");
        return -1;
    }
    rng_t rng;
    rng_seed(&rng, seed);
    bot_limits_t lim = { -1, -1, -1, worlds, 0 };
    int n = pimc_search(s, view, &lim, NULL, &rng, moves, values, GAME_MAX_MOVES, best);
    if (stats)
        pimc_stats(s, stats);
    pimc_free(s);
    return n;
}

/* What pimc.h promises of a search's values: each the mean reward in [0, 1], or -1 for a move
 * that was not a candidate; the candidates every legal move where the solver values the play
 * (`solved`), else the heuristic's best K (exactly min(K, n) valued); the best move valued
 * highest. 1 if so; else 0, the values printed. */
static int pimc_values_ok(const game_move_t *moves, const double *values, int n, const game_move_t *best,
                          int solved, int k, const char *what)
{
    int valued = 0, best_at = -1, in_range = 1;
    double hi = -1.0;
    for (int i = 0; i < n; i++) {
        if (values[i] >= 0.0 && values[i] <= 1.0) {
            valued++;
            hi = values[i] > hi ? values[i] : hi;
        } else if (values[i] != -1.0) {
            in_range = 0;
        }
        if (same_move(&moves[i], best))
            best_at = i;
    }
    int want = solved ? n : n < k ? n : k;
    int ok = n > 0 && in_range && valued == want && best_at >= 0 && values[best_at] == hi;
    if (!ok) {
        char t[64];
        fprintf(stderr, "\n    %s: %d moves, %d valued (want %d), best %s at %d valued %.6f, highest %.6f%s\n", what,
                n, valued, want, move_text(best, t, sizeof t), best_at, best_at >= 0 ? values[best_at] : -2.0, hi,
                in_range ? "" : ", a value outside [0, 1] and not -1");
        for (int i = 0; i < n && i < 40; i++)
            if (values[i] != -1.0)
                fprintf(stderr, "      %s %.6f\n", move_text(&moves[i], t, sizeof t), values[i]);
    }
    return ok;
}

/* ---------------------------------------------------------------- P1. determinism */

/* The first hand of seeded cotgrave sets, seat 0 searched by PIMC, seat 1 by the heuristic. At
 * every decision of seat 0, with equal seeds: two bots choose the same move; two bots evaluate
 * the same moves and values, bit for bit; a bare pimc_search with a generator seeded as the
 * bots' gives them too, and its best is the bots' choice (choose and evaluate agree). The values
 * keep pimc.h's promises and pimc_stats are the decision's. */
static void check_pimc_determinism(const char *const *opts, int64_t worlds, const char *what)
{
    bot_settings_t *set = settings_with(opts);
    pimc_params_t p;
    CU_ASSERT(pimc_params_from(set, &p, NULL, 0) == 0);
    game_move_t *moves[3];
    double *values[3];
    buffers_new(moves, values, 3);
    char err[GAME_ERR_LEN];
    int decisions = 0, kinds[PK_PH_COUNT] = { 0 };
    for (uint64_t seed = 41; seed <= 42; seed++) {
        uint64_t bs = 1000 + seed;
        bot_t *a = bot_create_with("pimc", G, bs, set, err, sizeof err);
        bot_t *b = bot_create_with("pimc", G, bs, set, err, sizeof err);
        bot_t *c = bot_create_with("pimc", G, bs, set, err, sizeof err);
        bot_t *d = bot_create_with("pimc", G, bs, set, err, sizeof err);
        bot_t *h = bot_create("heuristic", G, seed, err, sizeof err);
        pimc_t *bare = pimc_create(G, &p, err, sizeof err);
        CU_ASSERT_FATAL(a && b && c && d && h && bare);
        rng_t r;
        rng_seed(&r, bs);
        picket_state_t st;
        picket_init(&st, &picket_preset_find("cotgrave")->rules, seed);
        deal_chance(&st);
        while (picket_to_move(&st) >= 0 && st.pub.hand_no == 1) {
            int who = picket_to_move(&st);
            picket_view_t v;
            picket_view_from_state(&st, who, &v);
            game_move_t m, m2, best;
            if (who == 1) {
                CU_ASSERT_FATAL(bot_choose(h, &v, &m) == 0);
                picket_apply(&st, &m, NULL, 0);
                deal_chance(&st);
                continue;
            }
            bot_limits_t lim = { -1, -1, -1, worlds, 0 };
            CU_ASSERT_FATAL(a->choose(a, &v, &lim, NULL, &m) == 0);
            CU_ASSERT_FATAL(b->choose(b, &v, &lim, NULL, &m2) == 0);
            int n[3];
            n[0] = c->evaluate(c, &v, &lim, NULL, moves[0], values[0], GAME_MAX_MOVES);
            n[1] = d->evaluate(d, &v, &lim, NULL, moves[1], values[1], GAME_MAX_MOVES);
            n[2] = pimc_search(bare, &v, &lim, NULL, &r, moves[2], values[2], GAME_MAX_MOVES, &best);
            int same = same_move(&m, &m2) && same_move(&m, &best) && n[0] > 0 && n[0] == n[1] && n[0] == n[2];
            for (int k = 1; same && k < 3; k++)
                same = memcmp(moves[0], moves[k], sizeof *moves[0] * (size_t)n[0]) == 0 &&
                       memcmp(values[0], values[k], sizeof *values[0] * (size_t)n[0]) == 0;
            if (!same) {
                char t1[64], t2[64], t3[64];
                fprintf(stderr, "\n    %s: seed %llu decision %d (%s): bots chose %s / %s, the bare search %s; "
                        "%d / %d / %d moves\n", what, (unsigned long long)seed, decisions,
                        PK_PHASE_NAMES[st.pub.phase], move_text(&m, t1, sizeof t1), move_text(&m2, t2, sizeof t2),
                        move_text(&best, t3, sizeof t3), n[0], n[1], n[2]);
                for (int i = 0; i < n[0] && i < n[1] && i < n[2]; i++)
                    if (memcmp(&values[0][i], &values[1][i], sizeof(double)) != 0 ||
                        memcmp(&values[0][i], &values[2][i], sizeof(double)) != 0)
                        fprintf(stderr, "      %s: %.17g / %.17g / %.17g\n", move_text(&moves[0][i], t1, sizeof t1),
                                values[0][i], values[1][i], values[2][i]);
            }
            CU_ASSERT(same);
            int solved = p.solve && st.pub.phase == PK_PH_PLAY;
            char where[128];
            snprintf(where, sizeof where, "%s, seed %llu decision %d (%s)", what, (unsigned long long)seed, decisions,
                     PK_PHASE_NAMES[st.pub.phase]);
            CU_ASSERT(pimc_values_ok(moves[2], values[2], n[2], &best, solved, p.candidates, where));
            pimc_stats_t stats;
            pimc_stats(bare, &stats);
            int want_cand = solved ? n[2] : n[2] < p.candidates ? n[2] : p.candidates;
            int stats_ok = stats.worlds == (n[2] == 1 ? 1 : worlds) && stats.solved_play == solved &&
                           stats.candidates == want_cand && stats.seconds >= 0 && (stats.nodes > 0) == p.solve;
            if (!stats_ok)
                fprintf(stderr, "\n    %s: pimc_stats worlds %lld, candidates %d, solved_play %d, nodes %lld\n", where,
                        (long long)stats.worlds, stats.candidates, stats.solved_play, (long long)stats.nodes);
            CU_ASSERT(stats_ok);
            CU_ASSERT(G->is_legal(&st, &m, err, sizeof err) == 1);
            kinds[st.pub.phase]++;
            decisions++;
            picket_apply(&st, &m, NULL, 0);
            deal_chance(&st);
        }
        bot_free(a);
        bot_free(b);
        bot_free(c);
        bot_free(d);
        bot_free(h);
        pimc_free(bare);
    }
    /* The hands went through the exchange and the play. */
    CU_ASSERT(decisions >= 10);
    CU_ASSERT(kinds[PK_PH_ELDER_EXCHANGE] + kinds[PK_PH_YOUNGER_EXCHANGE] + kinds[PK_PH_BLANK_COUNT] +
                  kinds[PK_PH_SET_ASIDE] >= 2);
    CU_ASSERT(kinds[PK_PH_PLAY] >= 8);
    buffers_free(moves, values, 3);
    bot_settings_free(set);
}

static void test_pimc_same_seed_same_moves(void)
{
    const char *reward[] = { "pimc.candidates", "4", NULL };
    const char *unsolved[] = { "pimc.candidates", "3", "pimc.solver", "false", NULL };
    check_pimc_determinism(reward, 4, "candidates 4");
    check_pimc_determinism(unsolved, 4, "solver false");
}

/* ---------------------------------------------------------------- P2. stop and isready */

/* The lines that bring an engine to a seat's view in the play: newgame, then every event the
 * seat received (a cotgrave set of deal seed `seed`, both seats played by the heuristic) until
 * the first decision of trick `trick` (0-based) of the first hand; the seat to move then is the
 * engine's. The session's view is checked against the true one. */
static void play_position(uint64_t seed, int trick, char *out, size_t len, picket_state_t *st)
{
    char err[GAME_ERR_LEN];
    bot_t *h = bot_create("heuristic", G, seed, err, sizeof err);
    CU_ASSERT_FATAL(h != NULL);
    picket_init(st, &picket_preset_find("cotgrave")->rules, seed);
    game_event_t ev[GAME_MAX_EVENTS];
    /* Both seats' events; the seat is known only at the end. */
    static char lines[2][16384];
    size_t at[2] = { 0, 0 };
    for (int step = 0; step < 500; step++) {
        int who = picket_to_move(st), n;
        if (who == GAME_CHANCE) {
            n = picket_apply_chance(st, NULL, ev, GAME_MAX_EVENTS);
        } else {
            CU_ASSERT_FATAL(who >= 0 && st->pub.hand_no == 1);
            if (st->pub.phase == PK_PH_PLAY && st->pub.trick_no == trick)
                break;
            picket_view_t v;
            picket_view_from_state(st, who, &v);
            game_move_t m;
            CU_ASSERT_FATAL(bot_choose(h, &v, &m) == 0);
            n = picket_apply(st, &m, ev, GAME_MAX_EVENTS);
        }
        for (int i = 0; i < n; i++)
            for (int s = 0; s < 2; s++)
                if (game_event_visible(&ev[i], s)) {
                    char text[1024];
                    CU_ASSERT_FATAL(picket_event_format(&ev[i], text, sizeof text) >= 0);
                    at[s] += (size_t)snprintf(lines[s] + at[s], sizeof lines[s] - at[s], "event %s\n", text);
                    CU_ASSERT_FATAL(at[s] < sizeof lines[s]);
                }
    }
    int seat = picket_to_move(st);
    CU_ASSERT_FATAL(seat >= 0 && st->pub.phase == PK_PH_PLAY && st->pub.trick_no == trick);
    int w = snprintf(out, len, "newgame game picket preset cotgrave seat %d seed %llu\n%s", seat,
                     (unsigned long long)seed, lines[seat]);
    CU_ASSERT_FATAL(w > 0 && (size_t)w < len);
    bot_free(h);
    /* The session reads the lines into the true view. */
    talk_t t;
    memset(&t, 0, sizeof t);
    t.out = open_memstream(&t.buf, &t.size);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t.out);
    t.s = session_create(t.out, -1, "test-engine", "test");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t.s);
    for (const char *p = out; *p;) {
        size_t k = strcspn(p, "\n");
        char line[1100];
        snprintf(line, sizeof line, "%.*s", (int)k, p);
        const char *o = say(&t, line);
        if (*o)
            fprintf(stderr, "\n    seed %llu: '%s' answered '%s'\n", (unsigned long long)seed, line, o);
        CU_ASSERT(*o == '\0');
        p += k + (p[k] == '\n');
    }
    picket_view_t truth;
    picket_view_from_state(st, seat, &truth);
    const void *sv = session_view(t.s);
    CU_ASSERT_FATAL(sv != NULL);
    const char *diff = picket_view_diff(sv, &truth);
    if (diff)
        fprintf(stderr, "\n    seed %llu: the session's view differs in %s\n", (unsigned long long)seed, diff);
    CU_ASSERT_FATAL(diff == NULL);
    session_free(t.s);
    fclose(t.out);
    free(t.buf);
}

static void test_pimc_answers_stop_and_isready(void)
{
    signal(SIGPIPE, SIG_IGN);
    static char setup[24576], play[20480];
    picket_state_t st;
    /* Outside the play (the call: candidates valued by whole hands). */
    snprintf(setup, sizeof setup, "setoption name bot value pimc\n%s", CALL_POSITION);
    stop_case_with("pimc", setup, "go infinite", "=5 move call ");
    stop_case_with("pimc", setup, "go iterations 1000000000", "=5 move call ");
    stop_case_with("pimc", setup, "analyze infinite", "=5 analyze ");
    /* In the play, its first card (every legal card valued by the solver from the first lead). */
    play_position(7, 0, play, sizeof play, &st);
    snprintf(setup, sizeof setup, "setoption name bot value pimc\n%s", play);
    stop_case_with("pimc in the play", setup, "go infinite", "=5 move play ");
    stop_case_with("pimc in the play", setup, "go iterations 1000000000", "=5 move play ");
}

/* A search stopped at once (should_stop true from the start) returns at once with a legal move:
 * stopped before its first world was valued, the heuristic's move, every value -1 (pimc.h). */
static int stop_now(void *data)
{
    (void)data;
    return 1;
}

static void test_pimc_stopped_at_once(void)
{
    char err[GAME_ERR_LEN];
    game_move_t *moves = malloc(sizeof *moves * GAME_MAX_MOVES);
    double *values = malloc(sizeof *values * GAME_MAX_MOVES);
    double *hv = malloc(sizeof *hv * GAME_MAX_MOVES);
    CU_ASSERT_FATAL(moves && values && hv);
    picket_state_t st[2];
    /* The exchange (seat 0, elder, first decision) and the play's first card. */
    picket_init(&st[0], &picket_preset_find("cotgrave")->rules, 7);
    deal_chance(&st[0]);
    char *lines = malloc(20480);
    CU_ASSERT_FATAL(lines != NULL);
    play_position(7, 0, lines, 20480, &st[1]);
    free(lines);
    for (int k = 0; k < 2; k++) {
            picket_view_t v;
            picket_view_from_state(&st[k], picket_to_move(&st[k]), &v);
            pimc_params_t p;
            pimc_default_params(&p);
            pimc_t *s = pimc_create(G, &p, err, sizeof err);
            CU_ASSERT_FATAL(s != NULL);
            rng_t rng;
            rng_seed(&rng, 1);
            bot_hooks_t hooks = { stop_now, NULL, NULL };
            const bot_limits_t lims[2] = { { -1, -1, -1, -1, 1 }, { -1, -1, -1, 1000000, 0 } };
            for (int l = 0; l < 2; l++) {
                game_move_t best;
                double t0 = measure_now();
                int n = pimc_search(s, &v, &lims[l], &hooks, &rng, moves, values, GAME_MAX_MOVES, &best);
                double dt = measure_now() - t0;
                CU_ASSERT_FATAL(n > 0);
                pimc_stats_t stats;
                pimc_stats(s, &stats);
                G->heuristic_evaluate(&v, NULL, moves, n, hv);
                int hb = 0, unvalued = 1;
                for (int i = 1; i < n; i++)
                    if (hv[i] > hv[hb])
                        hb = i;
                for (int i = 0; i < n; i++)
                    unvalued &= values[i] == -1.0;
                int heur = stats.worlds == 0 && unvalued && same_move(&best, &moves[hb]);
                int ok = heur;
                char t[64];
                if (!ok)
                    fprintf(stderr, "\n    stopped at once (%s, %s): %s, %lld worlds, values %s; "
                            "the heuristic's %s\n", k ? "the play" : "the exchange",
                            l ? "iterations 1000000" : "infinite", move_text(&best, t, sizeof t),
                            (long long)stats.worlds, unvalued ? "all -1" : "not all -1",
                            move_text(&moves[hb], (char[64]){ 0 }, 64));
                CU_ASSERT(ok);
                CU_ASSERT(G->is_legal(&st[k], &best, err, sizeof err) == 1);
                CU_ASSERT(dt < 2.0);
            }
            pimc_free(s);
        }
    free(moves);
    free(values);
    free(hv);
}

/* ---------------------------------------------------------------- P3. only the view */

static void test_pimc_sees_only_its_view(void)
{
    bot_settings_t *set = settings_with((const char *[]){ "pimc.worlds", "4", "pimc.candidates", "4", NULL });
    check_only_the_view("pimc", set, 81, 82);
    bot_settings_free(set);
}

/* ---------------------------------------------------------------- P4. known best moves */

/* Every world gives the solver the same values: PIMC, which values each card by the solver in
 * every world, plays a best one. */
static void test_pimc_plays_known_best_moves(void)
{
    game_move_t *moves = malloc(sizeof *moves * GAME_MAX_MOVES);
    double *values = malloc(sizeof *values * GAME_MAX_MOVES);
    known_t *known = malloc(sizeof *known * MAX_KNOWN);
    CU_ASSERT_FATAL(moves && values && known);
    int found = find_known_positions(known, MAX_KNOWN), right = 0;
    for (int i = 0; i < found; i++) {
        pimc_params_t p;
        pimc_default_params(&p);
        game_move_t best;
        int n = pimc_once(&p, &known[i].v, 8, known[i].seed, &best, moves, values, NULL);
        CU_ASSERT_FATAL(n > 0);
        int ok = known_best(&known[i], &best, "pimc");
        right += ok;
        CU_ASSERT(ok);
        CU_ASSERT(pimc_values_ok(moves, values, n, &best, 1, p.candidates, "pimc"));
    }
    printf("[%d positions; right %d] ", found, right);
    CU_ASSERT(found >= 4);
    free(known);
    free(moves);
    free(values);
}

/* ---------------------------------------------------------------- P5. the set, not the points */

/* The race at trick 11 (section 6). PIMC plays the solver's line to the end of the hand and
 * sees the set end: AH wins it in every world (value 1), TS loses it (0), and PIMC leads AH. Far
 * from the target it takes the points (TS). */
static void test_pimc_plays_for_the_set_with_reward(void)
{
    picket_state_t st;
    race_at_target(&st);
    int ts = card_parse("TS", 2), ah = card_parse("AH", 2);
    picket_view_t v;
    picket_view_from_state(&st, 0, &v);
    game_move_t *moves = malloc(sizeof *moves * GAME_MAX_MOVES);
    double *values = malloc(sizeof *values * GAME_MAX_MOVES);
    CU_ASSERT_FATAL(moves && values);
    for (uint64_t seed = 1; seed <= 3; seed++) {
            pimc_params_t p;
            pimc_default_params(&p);
            game_move_t best;
            pimc_stats_t stats;
            int n = pimc_once(&p, &v, 8, seed, &best, moves, values, &stats);
            CU_ASSERT_EQUAL_FATAL(n, 2);
            double vts = -2, vah = -2;
            for (int i = 0; i < n; i++) {
                if (moves[i].kind == PK_MV_PLAY && moves[i].arg == ts)
                    vts = values[i];
                if (moves[i].kind == PK_MV_PLAY && moves[i].arg == ah)
                    vah = values[i];
            }
            int ok = best.kind == PK_MV_PLAY && best.arg == ah && stats.solved_play == 1 && stats.worlds == 8 &&
                     vah == 1.0 && vts == 0.0;
            char t[64];
            if (!ok)
                fprintf(stderr, "\n    seed %llu: pimc led %s (TS %.6f, AH %.6f, %lld worlds)\n",
                        (unsigned long long)seed, move_text(&best, t, sizeof t), vts, vah, (long long)stats.worlds);
            else if (seed == 1)
                printf("[leads %s, TS %.3f AH %.3f] ", move_text(&best, t, sizeof t), vts, vah);
            CU_ASSERT(ok);
        }
    /* Far from the target, the same cards: the points (TS). */
    picket_rules_t far = rules_of("cotgrave", "target=1000");
    race_build(&st, &far, 0, 0);
    picket_view_from_state(&st, 0, &v);
    {
        pimc_params_t p;
        pimc_default_params(&p);
        game_move_t best;
        CU_ASSERT_EQUAL(pimc_once(&p, &v, 8, 1, &best, moves, values, NULL), 2);
        CU_ASSERT(best.kind == PK_MV_PLAY && best.arg == ts);
    }
    free(moves);
    free(values);
}

/* ---------------------------------------------------------------- P6. options */

static void test_pimc_options_are_declared_and_checked(void)
{
    static const struct {
        const char *name;
        opt_type_t type;
    } WANT[] = {
        { "pimc.worlds", OPT_SPIN },  { "pimc.candidates", OPT_SPIN },  { "pimc.reward_scale", OPT_FLOAT },
        { "pimc.solver", OPT_CHECK }, { "pimc.solver_mb", OPT_SPIN },
    };
    enum { NW = sizeof WANT / sizeof WANT[0] };
    char err[GAME_ERR_LEN];
    bot_settings_t *set = bot_settings_create(err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(set);
    int n;
    const opt_def_t *opts = bot_settings_options(set, &n);
    int mine = 0;
    for (int i = 0; i < n; i++)
        mine += strncmp(opts[i].name, "pimc.", 5) == 0;
    CU_ASSERT_EQUAL(mine, NW);
    const opt_def_t *o[NW];
    char defs[NW][32];   /* the declared defaults, for the handshake once set is gone */
    for (int i = 0; i < NW; i++) {
        o[i] = opt_find(opts, n, WANT[i].name);
        CU_ASSERT_PTR_NOT_NULL_FATAL(o[i]);
        CU_ASSERT_EQUAL(o[i]->type, WANT[i].type);
        snprintf(defs[i], sizeof defs[i], "%s", o[i]->def);
    }
    /* The declared defaults are pimc_default_params, and so are a fresh settings' values. */
    pimc_params_t d, p;
    pimc_default_params(&d);
    CU_ASSERT_EQUAL(strtod(o[0]->def, NULL), (double)d.worlds);
    CU_ASSERT_EQUAL(strtod(o[1]->def, NULL), (double)d.candidates);
    CU_ASSERT_EQUAL(strtod(o[2]->def, NULL), d.reward_scale);
    CU_ASSERT_STRING_EQUAL(o[3]->def, d.solve ? "true" : "false");
    CU_ASSERT_EQUAL(strtod(o[4]->def, NULL), (double)d.solver_mb);
    CU_ASSERT_EQUAL(o[1]->max, PIMC_MAX_CANDIDATES);
    CU_ASSERT(pimc_params_from(set, &p, NULL, 0) == 0);
    CU_ASSERT(p.worlds == d.worlds && p.candidates == d.candidates && p.reward_scale == d.reward_scale &&
              p.solve == d.solve && p.solver_mb == d.solver_mb &&
              p.hparams == d.hparams);
    CU_ASSERT(d.worlds == 32 && d.candidates == 8 && d.solve == 1);
    /* Refused, each with one line naming the option; the value unchanged. */
    const char *bad[][2] = {
        { "pimc.worlds", "0" },          { "pimc.worlds", "-1" },          { "pimc.worlds", "1e5" },
        { "pimc.worlds", "12x" },        { "pimc.candidates", "0" },       { "pimc.candidates", "257" },
        { "pimc.candidates", "2.5" },    { "pimc.reward_scale", "0" },     { "pimc.reward_scale", "nan" },
        { "pimc.reward_scale", "1001" }, { "pimc.reward_scale", "inf" },   { "pimc.solver", "yes" },
        { "pimc.solver", "" },           { "pimc.solver_mb", "0" },        { "pimc.solver_mb", "65537" },
        { "pimc.nothing", "1" },         { "pimc.", "1" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        int rc = bot_settings_set(set, bad[i][0], bad[i][1], err, sizeof err);
        if (rc == 0)
            fprintf(stderr, "\n    %s = '%s' accepted\n", bad[i][0], bad[i][1]);
        CU_ASSERT(rc < 0);
        CU_ASSERT(err[0] != '\0' && strchr(err, '\n') == NULL);
        CU_ASSERT_PTR_NOT_NULL(strstr(err, bad[i][0]));
    }
    CU_ASSERT(pimc_params_from(set, &p, NULL, 0) == 0);
    CU_ASSERT(p.worlds == d.worlds && p.candidates == d.candidates && p.reward_scale == d.reward_scale &&
              p.solve == d.solve && p.solver_mb == d.solver_mb);
    /* Accepted values reach the parameters. */
    const char *good[][2] = {
        { "pimc.worlds", "777" },         { "pimc.candidates", "256" },      { "pimc.reward_scale", "12.5" },
        { "pimc.solver", "false" },       { "pimc.solver_mb", "2" },
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        CU_ASSERT(bot_settings_set(set, good[i][0], good[i][1], err, sizeof err) == 0);
    CU_ASSERT(pimc_params_from(set, &p, NULL, 0) == 0);
    CU_ASSERT(p.worlds == 777 && p.candidates == 256 && p.reward_scale == 12.5 && p.solve == 0 &&
              p.solver_mb == 2);
    bot_settings_reset(set);
    CU_ASSERT(pimc_params_from(set, &p, NULL, 0) == 0);
    CU_ASSERT(p.worlds == d.worlds && p.solve == 1);
    bot_settings_free(set);

    /* Through the engine: listed in the handshake with their defaults, and a refusal is one '?'
     * line. */
    talk_t t;
    memset(&t, 0, sizeof t);
    t.out = open_memstream(&t.buf, &t.size);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t.out);
    t.s = session_create(t.out, -1, "test-engine", "test");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t.s);
    const char *hello = say(&t, "hello");
    for (int i = 0; i < NW; i++) {
        char want[96];
        snprintf(want, sizeof want, "\noption name %s type %s", WANT[i].name, OPT_TYPE_NAMES[WANT[i].type]);
        const char *at = strstr(hello, want);
        CU_ASSERT_PTR_NOT_NULL(at);
        if (at) {
            char def[64];
            snprintf(def, sizeof def, " default %.31s", defs[i]);
            const char *eol = strchr(at + 1, '\n');
            const char *dat = strstr(at, def);
            CU_ASSERT(dat && (!eol || dat < eol));
        }
    }
    const char *lines[] = { "setoption name pimc.worlds value 0", "setoption name pimc.solver value bogus",
                            "setoption name pimc.candidates value 999", "setoption name pimc.solver value maybe" };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        const char *out = say(&t, lines[i]);
        int one = out[0] == '?' && strchr(out, '\n') == out + strlen(out) - 1;
        if (!one)
            fprintf(stderr, "\n    %s -> %s\n", lines[i], out);
        CU_ASSERT(one);
    }
    CU_ASSERT_STRING_EQUAL(say(&t, "setoption name pimc.worlds value 4"), "");
    /* The bot made with those options plays. */
    say(&t, "setoption name bot value pimc");
    say(&t, "setoption name info value false");
    say(&t, CALL_POSITION);
    CU_ASSERT(strncmp(say(&t, "go"), "= move call ", 12) == 0);
    session_free(t.s);
    fclose(t.out);
    free(t.buf);
}

/* ---------------------------------------------------------------- P7. analyze and evaluate */

/* evaluate through the API, at every decision of seat 0 in a seeded hand, K = 3 (so the
 * exchange's thousands of moves have exactly 3 values) and K = 1; then analyze over the
 * protocol: its lines are the values, sorted, and go with the same seed plays the top one. */
static void test_pimc_analyze_and_evaluate(void)
{
    char err[GAME_ERR_LEN];
    game_move_t *moves = malloc(sizeof *moves * GAME_MAX_MOVES);
    double *values = malloc(sizeof *values * GAME_MAX_MOVES);
    CU_ASSERT_FATAL(moves && values);
    const char *ks[] = { "3", "1" };
    int decisions = 0, outside = 0;
    for (int kk = 0; kk < 2; kk++) {
        bot_settings_t *set = settings_with((const char *[]){ "pimc.candidates", ks[kk], NULL });
        int K = atoi(ks[kk]);
        bot_t *b = bot_create_with("pimc", G, 5, set, err, sizeof err);
        bot_t *h = bot_create("heuristic", G, 5, err, sizeof err);
        CU_ASSERT_FATAL(b && h);
        picket_state_t st;
        picket_init(&st, &picket_preset_find("cotgrave")->rules, 17 + (uint64_t)kk);
        deal_chance(&st);
        while (picket_to_move(&st) >= 0 && st.pub.hand_no == 1) {
            int who = picket_to_move(&st);
            picket_view_t v;
            picket_view_from_state(&st, who, &v);
            game_move_t m;
            CU_ASSERT_FATAL(bot_choose(h, &v, &m) == 0);
            if (who == 0 || st.pub.phase != PK_PH_PLAY) {
                bot_limits_t lim = { -1, -1, -1, 3, 0 };
                int n = b->evaluate(b, &v, &lim, NULL, moves, values, GAME_MAX_MOVES);
                CU_ASSERT_FATAL(n > 0);
                /* The best: the highest value (ties: the first of them in the list). */
                int bi = 0;
                for (int i = 1; i < n; i++)
                    if (values[i] > values[bi])
                        bi = i;
                char where[96];
                snprintf(where, sizeof where, "K %d, seat %d, %s, trick %d", K, who, PK_PHASE_NAMES[st.pub.phase],
                         st.pub.trick_no + 1);
                CU_ASSERT(pimc_values_ok(moves, values, n, &moves[bi], st.pub.phase == PK_PH_PLAY, K, where));
                CU_ASSERT(G->is_legal(&st, &moves[bi], err, sizeof err) == 1);
                outside += st.pub.phase != PK_PH_PLAY && n > K;
                decisions++;
            }
            picket_apply(&st, &m, NULL, 0);
            deal_chance(&st);
        }
        bot_free(b);
        bot_free(h);
        bot_settings_free(set);
    }
    CU_ASSERT(decisions >= 20);
    CU_ASSERT(outside >= 4);

    /* Over the protocol: analyze at the call, K = 2 of the 5 calls. */
    talk_t t;
    memset(&t, 0, sizeof t);
    t.out = open_memstream(&t.buf, &t.size);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t.out);
    t.s = session_create(t.out, -1, "test-engine", "test");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t.s);
    say(&t, "setoption name bot value pimc");
    say(&t, "setoption name info value false");
    say(&t, "setoption name pimc.candidates value 2");
    say(&t, CALL_POSITION);
    char *out = strdup(say(&t, "3 analyze iterations 6"));
    CU_ASSERT_FATAL(out != NULL);
    int lines = 0, valued = 0, sorted = 1, bad = 0, done = 0;
    double prev = 2.0;
    char top[64] = "";
    for (char *save = NULL, *l = strtok_r(out, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        double x;
        char mv[64];
        if (sscanf(l, "analysis value %lf move %63[^\n]", &x, mv) == 2) {
            if (lines == 0)
                snprintf(top, sizeof top, "%s", mv);
            lines++;
            valued += x >= 0;
            bad += !(x == -1.0 || (x >= 0 && x <= 1));
            sorted &= x <= prev;
            prev = x;
        } else if (strncmp(l, "=3 analyze ", 11) == 0) {
            done = atoi(l + 11) == lines;
        } else {
            bad++;
        }
    }
    if (!(lines == 5 && valued == 2 && sorted && !bad && done))
        fprintf(stderr, "\n    analyze at the call (pimc.candidates 2): %d lines, %d valued, sorted %d, bad %d, "
                "closed %d\n", lines, valued, sorted, bad, done);
    CU_ASSERT(lines == 5 && valued == 2 && sorted && bad == 0 && done);
    free(out);
    /* A fresh bot (an option set again) with the same seed and budget: go plays the top line. */
    say(&t, "setoption name pimc.candidates value 2");
    const char *mv = say(&t, "4 go iterations 6");
    char want[96];
    snprintf(want, sizeof want, "=4 move %s\n", top);
    if (strcmp(mv, want) != 0)
        fprintf(stderr, "\n    analyze's top line %s, go played %s", top, mv);
    CU_ASSERT_STRING_EQUAL(mv, want);
    session_free(t.s);
    fclose(t.out);
    free(t.buf);
    free(moves);
    free(values);
}

/* ================================================================ hybrid (search/hybrid.h) */

/* The hybrid's decisions, at every decision of seat 0 in seeded hands of cotgrave (seat 1 the
 * heuristic): a discard under cotgrave's rules by the game's built-in net (every legal discard valued by it, best first,
 * no iteration in its info), the other decisions outside the play by the ISMCTS tree (its info
 * shows ismcts.iterations iterations, and the values and move are a bare ismcts_search's), in the
 * play PIMC (pimc.worlds worlds, every card valued; a bare pimc_search's values and move). The
 * bare searches share one generator seeded as the bot: the hybrid hands its own generator to
 * whichever search decides, and each search draws one number from it (the net none), so the
 * streams stay in step. */
static int hybrid_calls;
static bot_info_t hybrid_info;
static void keep_hybrid_info(void *data, const bot_info_t *info)
{
    (void)data;
    hybrid_info = *info;
    hybrid_calls++;
}

static void test_hybrid_delegates_the_play_to_pimc(void)
{
    char err[GAME_ERR_LEN];
    const char *opts[] = { "ismcts.iterations", "150", "pimc.worlds", "3", NULL };
    bot_settings_t *set = settings_with(opts);
    ismcts_params_t ip;
    pimc_params_t pp;
    CU_ASSERT(ismcts_params_from(set, &ip, NULL, 0) == 0);
    CU_ASSERT(pimc_params_from(set, &pp, NULL, 0) == 0);
    CU_ASSERT_FATAL(ip.threads == 1 && ip.iterations == 150 && pp.worlds == 3);
    game_move_t *moves[3];
    double *values[3];
    buffers_new(moves, values, 3);
    int kinds[3] = { 0, 0, 0 }; /* the tree's decisions, the play's, the net's */
    net_t *net = net_read(G->learned_net, G->learned_net_size, "built-in", err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(net);
    for (uint64_t seed = 51; seed <= 52; seed++) {
        uint64_t bs = 700 + seed;
        bot_t *e = bot_create_with("hybrid", G, bs, set, err, sizeof err);  /* evaluates */
        bot_t *c = bot_create_with("hybrid", G, bs, set, err, sizeof err);  /* chooses */
        bot_t *h = bot_create("heuristic", G, seed, err, sizeof err);
        ismcts_t *ti = ismcts_create(G, &ip, err, sizeof err);
        pimc_t *tp = pimc_create(G, &pp, err, sizeof err);
        CU_ASSERT_FATAL(e && c && h && ti && tp);
        rng_t r;
        rng_seed(&r, bs);
        picket_state_t st;
        /* Seed 51 under cotgrave's rules (the net's), 52 under ducoeur-report's (not the net's). */
        picket_init(&st, &picket_preset_find(seed == 51 ? "cotgrave" : "ducoeur-report")->rules, seed);
        deal_chance(&st);
        for (int decision = 0; picket_to_move(&st) >= 0 && st.pub.hand_no == 1;) {
            int who = picket_to_move(&st);
            picket_view_t v;
            picket_view_from_state(&st, who, &v);
            game_move_t m, best;
            if (who == 1) {
                CU_ASSERT_FATAL(bot_choose(h, &v, &m) == 0);
                picket_apply(&st, &m, NULL, 0);
                deal_chance(&st);
                continue;
            }
            int play = st.pub.phase == PK_PH_PLAY;
            bot_limits_t none = { -1, -1, -1, -1, 0 };
            bot_hooks_t hooks = { NULL, keep_hybrid_info, NULL };
            hybrid_calls = 0;
            memset(&hybrid_info, 0, sizeof hybrid_info);
            int n[3];
            n[0] = e->evaluate(e, &v, &none, &hooks, moves[0], values[0], GAME_MAX_MOVES);
            CU_ASSERT_FATAL(c->choose(c, &v, &none, NULL, &m) == 0);
            int learned = !play && (n[1] = G->view_legal_moves(&v, moves[1], GAME_MAX_MOVES)) > 0;
            for (int i = 0; learned && i < n[1]; i++) {
                int active[PICKET_XF_MAX_ACTIVE], k = picket_exchange_features(&v, moves[1][i].cards, active);
                learned = moves[1][i].kind == PK_MV_DISCARD && st.rules.sequences == PK_SEQ_SUITED;
                values[1][i] = net_eval(net, active, k);
            }
            if (learned) {
                bot_sort_moves(moves[1], values[1], n[1]);
                best = moves[1][0];
            } else if (play)
                n[1] = pimc_search(tp, &v, &none, NULL, &r, moves[1], values[1], GAME_MAX_MOVES, &best);
            else
                n[1] = ismcts_search(ti, &v, &none, NULL, &r, moves[1], values[1], GAME_MAX_MOVES, &best);
            int same = n[0] > 0 && n[0] == n[1] && same_move(&m, &best) &&
                       memcmp(moves[0], moves[1], sizeof *moves[0] * (size_t)n[0]) == 0 &&
                       memcmp(values[0], values[1], sizeof *values[0] * (size_t)n[0]) == 0;
            /* Who decided: ISMCTS reports its iterations; PIMC its worlds (1 with one move). */
            int64_t want_it = learned ? 0 : play ? (n[1] == 1 ? 1 : pp.worlds) : ip.iterations;
            int by_info = hybrid_calls >= 1 && hybrid_info.iterations == want_it;
            int valued = 0;
            for (int i = 0; i < n[0]; i++)
                valued += values[0][i] >= 0;
            if (play)
                by_info &= valued == n[0];
            if (!same || !by_info) {
                char t1[64], t2[64];
                fprintf(stderr, "\n    hybrid, seed %llu decision %d (%s, trick %d): chose %s, bare %s %s; "
                        "%d / %d moves, values %s; info: %d calls, %lld iterations (want %lld)\n",
                        (unsigned long long)seed, decision, PK_PHASE_NAMES[st.pub.phase], st.pub.trick_no + 1,
                        move_text(&m, t1, sizeof t1), learned ? "net" : play ? "pimc" : "ismcts", move_text(&best, t2, sizeof t2),
                        n[0], n[1], n[0] == n[1] && n[0] > 0 &&
                        memcmp(values[0], values[1], sizeof *values[0] * (size_t)n[0]) == 0 ? "equal" : "differ",
                        hybrid_calls, (long long)hybrid_info.iterations, (long long)want_it);
            }
            CU_ASSERT(same);
            CU_ASSERT(by_info);
            CU_ASSERT(G->is_legal(&st, &m, err, sizeof err) == 1);
            kinds[learned ? 2 : play]++;
            decision++;
            picket_apply(&st, &m, NULL, 0);
            deal_chance(&st);
        }
        bot_free(e);
        bot_free(c);
        bot_free(h);
        ismcts_free(ti);
        pimc_free(tp);
    }
    CU_ASSERT(kinds[0] >= 1 && kinds[1] >= 16 && kinds[2] == 1); /* cotgrave's discard by the net, the other's by the tree */
    net_free(net);
    buffers_free(moves, values, 3);
    bot_settings_free(set);
}

/* Plain ISMCTS never calls PIMC: in the play its info counts ismcts.iterations. */
static void test_plain_ismcts_keeps_the_tree(void)
{
    char err[GAME_ERR_LEN];
    bot_settings_t *set = settings_with(
        (const char *[]){ "ismcts.iterations", "40", "pimc.worlds", "3", NULL });
    bot_t *b = bot_create_with("ismcts", G, 3, set, err, sizeof err);
    CU_ASSERT_FATAL(b != NULL);
    picket_state_t st;
    char *lines = malloc(20480);
    CU_ASSERT_FATAL(lines != NULL);
    play_position(7, 2, lines, 20480, &st);
    free(lines);
    picket_view_t v;
    picket_view_from_state(&st, picket_to_move(&st), &v);
    bot_hooks_t hooks = { NULL, keep_hybrid_info, NULL };
    bot_limits_t none = { -1, -1, -1, -1, 0 };
    hybrid_calls = 0;
    game_move_t m;
    CU_ASSERT(b->choose(b, &v, &none, &hooks, &m) == 0);
    CU_ASSERT(hybrid_calls >= 1 && hybrid_info.iterations == 40);
    bot_free(b);
    bot_settings_free(set);
}

/* Whole sets (the target lowered so that a set is short): the hybrid against PIMC, each seat
 * once, every move legal. */
static void test_hybrid_plays_whole_sets(void)
{
    char err[GAME_ERR_LEN];
    bot_settings_t *set = settings_with((const char *[]){ "ismcts.iterations", "100",
                                                          "pimc.worlds", "2", "pimc.candidates", "3", NULL });
    picket_rules_t r = rules_of("cotgrave", "target=30");
    int sets = 0, illegal = 0, decisions = 0;
    for (uint64_t seed = 63; seed <= 64; seed++) {
        bot_t *bots[2];
        int hy = (int)(seed & 1);
        bots[hy] = bot_create_with("hybrid", G, seed, set, err, sizeof err);
        bots[1 - hy] = bot_create_with("pimc", G, seed + 100, set, err, sizeof err);
        CU_ASSERT_FATAL(bots[0] && bots[1]);
        picket_state_t st;
        picket_init(&st, &r, seed);
        for (int step = 0; step < 2000 && picket_to_move(&st) != GAME_OVER; step++) {
            deal_chance(&st);
            int who = picket_to_move(&st);
            if (who < 0)
                break;
            picket_view_t v;
            picket_view_from_state(&st, who, &v);
            game_move_t m;
            CU_ASSERT_FATAL(bot_choose(bots[who], &v, &m) == 0);
            decisions++;
            if (G->is_legal(&st, &m, err, sizeof err) != 1) {
                char t[64];
                fprintf(stderr, "\n    seed %llu: %s played illegal %s in %s: %s\n", (unsigned long long)seed,
                        who == hy ? "the hybrid" : "pimc", move_text(&m, t, sizeof t), PK_PHASE_NAMES[st.pub.phase],
                        err);
                illegal++;
                break;
            }
            picket_apply(&st, &m, NULL, 0);
        }
        sets += picket_to_move(&st) == GAME_OVER;
        bot_free(bots[0]);
        bot_free(bots[1]);
    }
    printf("[%d sets, %d decisions] ", sets, decisions);
    CU_ASSERT_EQUAL(illegal, 0);
    CU_ASSERT_EQUAL(sets, 2);
    bot_settings_free(set);
}

/* The hybrid answers isready and stop in its tree (the call) and in its PIMC (the play). */
static void test_hybrid_answers_stop_and_isready(void)
{
    signal(SIGPIPE, SIG_IGN);
    static char setup[24576], play[20480];
    picket_state_t st;
    const char *opts = "setoption name bot value hybrid\n";
    snprintf(setup, sizeof setup, "%s%s", opts, CALL_POSITION);
    stop_case_with("hybrid", setup, "go infinite", "=5 move call ");
    play_position(7, 0, play, sizeof play, &st);
    snprintf(setup, sizeof setup, "%s%s", opts, play);
    stop_case_with("hybrid in the play", setup, "go infinite", "=5 move play ");
    stop_case_with("hybrid in the play", setup, "go iterations 1000000000", "=5 move play ");
}

/* ---------------------------------------------------------------- 11. the policy's exchange */

/* The heuristic's best of the moves in `moves` from the mover's view: the index. */
static int heuristic_best(const picket_state_t *st, const game_move_t *moves, int n, double *values)
{
    picket_view_t v;
    picket_view_from_state(st, picket_to_move(st), &v);
    G->heuristic_evaluate(&v, NULL, moves, n, values);
    int b = 0;
    for (int i = 1; i < n; i++)
        if (values[i] > values[b])
            b = i;
    return b;
}

/* The policy's exchange judges a random sample of the discards (PLAYOUT_SAMPLE): a legal discard
 * no better than the heuristic player's own (the best of every discard), for elder and then
 * younger. */
static void test_the_policys_exchange_is_a_sample(void)
{
    char err[GAME_ERR_LEN];
    game_move_t *moves = malloc(sizeof *moves * GAME_MAX_MOVES);
    double *values = malloc(sizeof *values * GAME_MAX_MOVES);
    CU_ASSERT_FATAL(moves && values);
    playout_t some;
    CU_ASSERT_FATAL(playout_init(&some, G, 30, NULL, err, sizeof err) == 0);
    for (uint64_t seed = 1; seed <= 8; seed++) {
        picket_state_t st;
        game_event_t ev[GAME_MAX_EVENTS];
        picket_init(&st, &picket_preset_find("cotgrave")->rules, seed);
        picket_apply_chance(&st, NULL, ev, GAME_MAX_EVENTS);
        for (int who = 0; who < 2; who++) {
            CU_ASSERT_FATAL(st.pub.phase == PK_PH_ELDER_EXCHANGE || st.pub.phase == PK_PH_YOUNGER_EXCHANGE);
            int n = picket_legal_moves(&st, moves, GAME_MAX_MOVES);
            CU_ASSERT_FATAL(n > PLAYOUT_WIDE);
            int b = heuristic_best(&st, moves, n, values);
            game_move_t want = moves[b], sampled;
            double best = values[b];
            rng_t rng;
            rng_seed(&rng, seed);
            CU_ASSERT_FATAL(playout_move(&some, &st, PLAYOUT_HEURISTIC, &rng, &sampled) == 0);
            CU_ASSERT(picket_is_legal(&st, &sampled, err, sizeof err));
            picket_view_t v;
            picket_view_from_state(&st, picket_to_move(&st), &v);
            double sv;
            G->heuristic_evaluate(&v, NULL, &sampled, 1, &sv);
            CU_ASSERT(sv <= best);
            picket_apply(&st, &want, ev, GAME_MAX_EVENTS);
            while (picket_to_move(&st) >= 0 && st.pub.phase != PK_PH_YOUNGER_EXCHANGE &&
                   st.pub.phase != PK_PH_ELDER_EXCHANGE && who == 0) {
                /* Elder's call or leftover, if the rules ask one before younger's exchange. */
                game_move_t m;
                CU_ASSERT_FATAL(playout_move(&some, &st, PLAYOUT_HEURISTIC, &rng, &m) == 0);
                picket_apply(&st, &m, ev, GAME_MAX_EVENTS);
            }
        }
    }
    playout_free(&some);
    free(moves);
    free(values);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("ismcts search", NULL, NULL);
    CU_add_test(s, "one thread, same seed, same moves", test_one_thread_same_seed_same_moves);
    CU_add_test(s, "stop and isready are answered while searching", test_stop_and_isready_are_answered_while_searching);
    CU_add_test(s, "stop ends every thread of a fixed budget", test_stop_ends_every_thread_of_a_fixed_budget);
    CU_add_test(s, "a full pool still plays legal moves", test_a_full_pool_still_plays_legal_moves);
    CU_add_test(s, "the bot sees only its view", test_the_bot_sees_only_its_view);
    CU_add_test(s, "known best moves are played", test_known_best_moves_are_played);
    CU_add_test(s, "the bot plays for the set, not the points", test_the_bot_plays_for_the_set_not_the_points);
    CU_add_test(s, "the reward is the points' curve", test_the_reward_is_the_points_curve);
    CU_add_test(s, "options are declared and checked", test_options_are_declared_and_checked);
    CU_add_test(s, "two threads search the whole budget", test_two_threads_search_the_whole_budget);
    CU_add_test(s, "a forced move takes one iteration", test_a_forced_move_takes_one_iteration);
    CU_add_test(s, "a search with no world ends", test_a_search_with_no_world_ends);
    CU_add_test(s, "the figures are the last search's", test_the_figures_are_the_last_search);
    CU_add_test(s, "the policy's exchange is a sample of the discards", test_the_policys_exchange_is_a_sample);
    CU_pSuite ps = CU_add_suite("pimc search", NULL, NULL);
    CU_add_test(ps, "pimc: same seed, same moves and values", test_pimc_same_seed_same_moves);
    CU_add_test(ps, "pimc: stop and isready are answered while searching", test_pimc_answers_stop_and_isready);
    CU_add_test(ps, "pimc: a search stopped at once returns at once", test_pimc_stopped_at_once);
    CU_add_test(ps, "pimc: the bot sees only its view", test_pimc_sees_only_its_view);
    CU_add_test(ps, "pimc: known best moves are played", test_pimc_plays_known_best_moves);
    CU_add_test(ps, "pimc: the set, not the points", test_pimc_plays_for_the_set_with_reward);
    CU_add_test(ps, "pimc: options are declared and checked", test_pimc_options_are_declared_and_checked);
    CU_add_test(ps, "pimc: analyze and evaluate", test_pimc_analyze_and_evaluate);
    CU_pSuite hs = CU_add_suite("hybrid", NULL, NULL);
    CU_add_test(hs, "a discard by the net (cotgrave), the other decisions by the tree, the play by pimc", test_hybrid_delegates_the_play_to_pimc);
    CU_add_test(hs, "plain ismcts keeps the tree in the play", test_plain_ismcts_keeps_the_tree);
    CU_add_test(hs, "whole sets are played legally", test_hybrid_plays_whole_sets);
    CU_add_test(hs, "stop and isready are answered while searching", test_hybrid_answers_stop_and_isready);
    return test_run_all();
}
