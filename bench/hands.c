/* bench/hands: how many points a hand one engine gains over its opponent, from an arena run's
 * records, and how many more a hand it would need to win a given share of the sets.
 *
 * A set score moves slowly: over 200 duplicate pairs its 95% interval is about ±3.7 points, and a
 * change worth a point a hand hides in it. The hands are finer. Each pair of an arena's duplicate
 * run plays the same deal sequence twice with the seats swapped, so (where the rules deal every
 * hand from the seed alone, as Picket's do) the k-th hand of one leg and the k-th of the other
 * are the same cards. For every hand complete in both legs this program takes
 *     D = (engine's points - opponent's) in leg 0 + (engine's points - opponent's) in leg 1,
 * the engine's lead with both hands of the same deal, so the deal's luck cancels, and prints its
 * mean a hand (D / 2) with a 95% interval. A run at a far target (-flag target=1000) gives some
 * 35 hands a pair, nearly all at scores far from the end, where the bots play for the hand.
 *
 * The set model answers what a lead a hand is worth in sets: it plays sets to --set-target from
 * the run's own hands, drawn as blocks of two consecutive hands of one leg (each seat dealing
 * once), adding delta points to the engine's side of every hand, and finds the smallest delta at
 * which the engine wins --goal of the sets. A set ends the moment a seat reaches the target; when
 * both pass it in one hand, the seat that needed the smaller share of its hand's points wins (the
 * points are taken as coming evenly through the hand). It is a model: it knows nothing of how
 * bots play near the end of a set, and its figure at delta 0 is printed beside the run's own
 * score where the run's sets were played to the same target.
 *
 * Each hand's points come from the game's interface (hand_value when hand_over turns 1), and for
 * every set the hands' points must add up to the record's final scores, or the program stops:
 * its figures cannot drift from the records. Two seats only.
 *
 * A game that settles points (game_t.settled: a Picket partie, game=rubicon) ends only at a
 * hand's end, so its last hand is complete; the program then also prints the settled points a
 * pair (the engine's in both legs), with their 95% interval, and the spread of a seat's points a
 * hand (mean, standard deviation, and the correlation of the two seats' points in one hand: the
 * partie model's figures, engine/picket/picket_partie.c); the set model, which plays races to a
 * target, is not run. */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_args.h"
#include "lines.h"
#include "measure.h"
#include "record.h"
#include "rng.h"

enum { MAX_NAME = 64, SIM_SETS = 20000 };

typedef struct set_hands {
    int round, pairing, leg;
    char name[2][MAX_NAME];
    int n, complete;     /* hands seen; of them complete (the last one is not, if the set ended in it) */
    double (*v)[2];      /* each hand's points by seat */
    int8_t *first;       /* each hand's first mover (the seat to move first after its deal: Picket's elder) */
    int cap;
    int score[2];        /* the record's final scores */
    int winner;          /* -1: the set is not over */
    int has_settled;     /* the game settled points (a partie) */
    int settled[2];
} set_hands_t;

typedef struct run {
    set_hands_t *sets;
    int n, cap;
} run_t;

/* What a record's replay hands to the event hook: the set being filled and the replayed state. */
typedef struct replay_ctx {
    set_hands_t *set;
    const record_t *rec;
    int in_hand_over; /* hand_over's value after the last event; 1 before the first (no hand yet) */
    int first;        /* the hand's first mover so far; -1 until a seat moves after a deal */
    int failed;       /* out of memory */
} replay_ctx_t;

static void on_event(void *data, const game_t *g, const game_event_t *ev)
{
    (void)ev;
    replay_ctx_t *c = data;
    if (!c->rec->state || c->failed)
        return;
    int over = g->hand_over(c->rec->state), to_move = g->to_move(c->rec->state);
    if (!over && c->in_hand_over)
        c->first = -1; /* a hand begins: its first mover is the first seat to move in it */
    if (!over && c->first < 0 && to_move >= 0)
        c->first = to_move;
    if (over && !c->in_hand_over) {
        set_hands_t *s = c->set;
        if (s->n == s->cap) {
            int cap = s->cap ? 2 * s->cap : 64;
            double(*v)[2] = realloc(s->v, sizeof *v * (size_t)cap);
            if (v)
                s->v = v;
            int8_t *f = v ? realloc(s->first, (size_t)cap) : NULL;
            if (!v || !f) {
                c->failed = 1;
                return;
            }
            s->first = f;
            s->cap = cap;
        }
        double hv[GAME_MAX_PLAYERS];
        g->hand_value(c->rec->state, hv);
        s->v[s->n][0] = hv[0];
        s->v[s->n][1] = hv[1];
        s->first[s->n] = (int8_t)c->first;
        s->n++;
    }
    c->in_hand_over = over;
}

/* The arena's comments in a record: "# set pairing P round R leg L" and "# seat S: NAME". 0, or -1
 * if it lacks them. */
static int read_comments(FILE *f, set_hands_t *s)
{
    char line[RECORD_MAX_LINE];
    int len, seen = 0;
    while ((len = lines_read(f, line, sizeof line)) >= 0) {
        int a, b, c, seat, used = 0;
        char name[MAX_NAME];
        if (sscanf(line, "# set pairing %d round %d leg %d", &a, &b, &c) == 3 && a >= 0 && b >= 0 && c >= 0) {
            s->pairing = a;
            s->round = b;
            s->leg = c;
            seen |= 1;
        } else if (sscanf(line, "# seat %d: %63s%n", &seat, name, &used) == 2 && seat >= 0 && seat < 2 &&
                   line[used] == '\0') {
            snprintf(s->name[seat], MAX_NAME, "%s", name);
            seen |= 2 << seat;
        }
    }
    rewind(f);
    return seen == 7 ? 0 : -1;
}

/* One set's record (a file of the arena's -records DIR) into r. 0, or -1 with a one-line reason. */
static int read_set(const char *path, run_t *r, char *err, size_t errlen)
{
    if (r->n == r->cap) {
        int cap = r->cap ? 2 * r->cap : 256;
        set_hands_t *m = realloc(r->sets, sizeof *m * (size_t)cap);
        if (!m) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        r->sets = m;
        r->cap = cap;
    }
    set_hands_t *s = &r->sets[r->n];
    memset(s, 0, sizeof *s);
    s->winner = -1;
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open", path);
        return -1;
    }
    if (read_comments(f, s) < 0) {
        fclose(f);
        snprintf(err, errlen, "%s: not an arena record (no '# set pairing' and '# seat' comments)", path);
        return -1;
    }
    record_t rec;
    memset(&rec, 0, sizeof rec);
    replay_ctx_t ctx = { s, &rec, 1, -1, 0 };
    char why[256];
    int rc = record_replay(f, &rec, on_event, &ctx, why, sizeof why);
    fclose(f);
    const game_t *g = rec.game;
    if (rc < 0 || ctx.failed) {
        snprintf(err, errlen, "%s: %s", path, ctx.failed ? "out of memory" : why);
        goto fail;
    }
    if (g->num_players(rec.state) != 2) {
        snprintf(err, errlen, "%s: two seats only", path);
        goto fail;
    }
    g->scores(rec.state, s->score);
    int rank[GAME_MAX_PLAYERS];
    if (g->rank(rec.state, rank))
        s->winner = rank[0] < rank[1] ? 0 : rank[1] < rank[0] ? 1 : -1;
    /* At the set's end hand_over is 1: the hand it ended in was counted, and is not complete,
     * unless the game settles points (a partie ends only when a hand does). */
    int over = g->to_move(rec.state) == GAME_OVER;
    s->has_settled = over && g->settled && g->settled(rec.state, s->settled);
    s->complete = over && s->n > 0 && !s->has_settled ? s->n - 1 : s->n;
    /* The hands add up to the scores (a set cut short inside a hand aside). */
    double sum[2] = { 0, 0 };
    for (int i = 0; i < s->n; i++)
        for (int j = 0; j < 2; j++)
            sum[j] += s->v[i][j];
    if (over && (fabs(sum[0] - s->score[0]) > 1e-6 || fabs(sum[1] - s->score[1]) > 1e-6)) {
        snprintf(err, errlen, "%s: its hands add up to %g-%g, its scores are %d-%d", path, sum[0], sum[1], s->score[0],
                 s->score[1]);
        goto fail;
    }
    record_free(&rec);
    r->n++;
    return 0;
fail:
    record_free(&rec);
    free(s->v);
    free(s->first);
    return -1;
}

static int is_record(const struct dirent *de)
{
    size_t len = strlen(de->d_name);
    return len >= 5 && !strcmp(de->d_name + len - 4, ".txt");
}

/* Every *.txt of the folder, in name order (the arena's names sort by round and leg). */
static int read_folder(const char *dir, run_t *r, char *err, size_t errlen)
{
    struct dirent **names;
    int n = scandir(dir, &names, is_record, alphasort), rc = 0;
    if (n < 0 && errno == ENOMEM)
        return text_fail(err, errlen, "out of memory");
    if (n < 0)
        return text_fail(err, errlen, "%s: not a folder of records (the arena's -records DIR)", dir);
    if (n == 0)
        rc = text_fail(err, errlen, "%s: no records (*.txt) in it", dir);
    for (int i = 0; rc == 0 && i < n; i++) {
        char *path = malloc(strlen(dir) + strlen(names[i]->d_name) + 2);
        if (path)
            sprintf(path, "%s/%s", dir, names[i]->d_name);
        rc = path ? read_set(path, r, err, errlen) : text_fail(err, errlen, "out of memory");
        free(path);
    }
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
    return rc;
}

/* The engine's seat in a set, or -1. */
static int seat_of(const set_hands_t *s, const char *engine)
{
    return !strcmp(s->name[0], engine) ? 0 : !strcmp(s->name[1], engine) ? 1 : -1;
}

/* (round, pairing, leg) order. */
static int cmp_set(const void *pa, const void *pb)
{
    const set_hands_t *a = pa, *b = pb;
    if (a->round != b->round)
        return a->round < b->round ? -1 : 1;
    if (a->pairing != b->pairing)
        return a->pairing < b->pairing ? -1 : 1;
    return (a->leg > b->leg) - (a->leg < b->leg);
}

/* 1 if sets[i] is leg 0 of a pair whose leg 1, the next set, has the engine in the other seat. */
static int is_pair(const set_hands_t *sets, int n, int i, const char *engine)
{
    const set_hands_t *a = &sets[i], *b = a + 1;
    int me = seat_of(a, engine);
    return i + 1 < n && me >= 0 && a->leg == 0 && b->leg == 1 && b->round == a->round && b->pairing == a->pairing &&
           seat_of(b, engine) == 1 - me;
}

/* A block of two consecutive complete hands of one set: the engine's and the opponent's points. */
typedef struct block {
    double e[2], o[2];
} block_t;

/* The share of sets to `target` the engine wins with `delta` more points a hand, over `sets` sets
 * played from the blocks (the same draws for every delta, from seed). */
static double set_model(const block_t *b, int nb, double delta, int target, int sets, uint64_t seed)
{
    rng_t rng;
    rng_seed(&rng, seed);
    int won = 0;
    for (int i = 0; i < sets; i++) {
        double e = 0, o = 0;
        for (int done = 0, guard = 0; !done && guard < 100000; guard++) {
            const block_t *k = &b[rng_below(&rng, (uint32_t)nb)];
            for (int h = 0; h < 2 && !done; h++) {
                double de = k->e[h] + delta, dn = k->o[h];
                int re = e + de >= target, ro = o + dn >= target;
                if (re && ro)
                    won += (target - e) / de < (target - o) / dn, done = 1;
                else if (re)
                    won++, done = 1;
                else if (ro)
                    done = 1;
                e += de;
                o += dn;
            }
        }
    }
    return (double)won / sets;
}

static int name_ok(const char *name) { return name[0] && strlen(name) < MAX_NAME; }

int main(int argc, char **argv)
{
    const char *dir = NULL, *engine = NULL;
    int target = 100, sims = SIM_SETS, quick = 0;
    double goal = 0.80;
    uint64_t seed = 1;
    const bench_opt_t opts[] = {
        { "--quick", BENCH_FLAG, &quick, 0, 0, NULL },
        { "--seed", BENCH_U64, &seed, 0, UINT64_MAX, NULL },
        { NULL, BENCH_TEXT, &dir, 0, 0, NULL },
        { "--engine", BENCH_TEXT, &engine, 0, 0, name_ok },
        { "--set-target", BENCH_INT, &target, 1, 100000, NULL },
        { "--sims", BENCH_INT, &sims, 100, 10000000, NULL },
        { "--goal", BENCH_SHARE, &goal, 0, 0, NULL },
    };
    char usage[2048];
    snprintf(usage, sizeof usage,
             "usage: hands [--engine NAME] [--set-target N] [--goal P] [--sims N] [--seed S] [--quick] DIR\n\n"
             "An arena run's records (picket-arena -records DIR, duplicate pairs, two seats): the points a\n"
             "hand the engine gains over its opponent on the same deals, with a 95%% interval, and the lead\n"
             "a hand the set model needs for the engine to win --goal of the sets.\n\n"
             "  DIR             the run's records, one file a set\n"
             "  --engine NAME   whose lead (default: seat 0 of the first set's leg 0)\n"
             "  --set-target N  the set model's target (default 100, as cotgrave)\n"
             "  --goal P        the share of sets the model aims at (default 0.80, issue 12's), 0 < P < 1\n"
             "  --sims N        sets the model plays for each lead it tries (default %d)\n"
             "  --seed S        the model's draws (default 1)\n"
             "  --quick         the model with 2000 sets\n"
             "  -version        the version\n",
             SIM_SETS);
    int rc = bench_args(argc, argv, "hands", usage, opts, BENCH_NOPTS(opts));
    if (rc >= 0)
        return rc;
    if (!dir) {
        fprintf(stderr, "hands: no records folder given (see --help)\n");
        return 2;
    }
    if (quick)
        sims = 2000;
    run_t run = { NULL, 0, 0 };
    block_t *blocks = NULL;
    char err[512];
    int status = 1;
    if (read_folder(dir, &run, err, sizeof err) < 0) {
        fprintf(stderr, "hands: %s\n", err);
        goto out;
    }
    /* The legs of a pair side by side: the sets in (round, pairing, leg) order, as the arena names
     * their files. */
    qsort(run.sets, (size_t)run.n, sizeof *run.sets, cmp_set);
    for (int i = 0; i < run.n && !engine; i++)
        if (run.sets[i].leg == 0)
            engine = run.sets[i].name[0];
    if (!engine) {
        fprintf(stderr, "hands: %s: no set of a leg 0 (not a duplicate run)\n", dir);
        goto out;
    }
    size_t nb_cap = 1;
    for (int i = 0; i < run.n; i++)
        nb_cap += (size_t)run.sets[i].complete / 2;
    if (!(blocks = malloc(sizeof *blocks * nb_cap))) {
        fprintf(stderr, "hands: out of memory\n");
        goto out;
    }
    /* The engine's sets: their hands in blocks of two for the set model, and the hands complete
     * in both legs of each pair (the engine's lead with both hands of one deal, d). */
    int pairs = 0, nd = 0, sets = 0, won = 0, nb = 0, settled_pairs = 0, settling = 0;
    double sum = 0, sumsq = 0, mean, half, st_sum = 0, st_sq = 0;
    double h_n = 0, h_sum = 0, h_sq = 0, h_cross = 0; /* a seat's points a hand, both seats pooled */
    double r_n = 0, r_sum[2] = { 0, 0 }, r_sq[2] = { 0, 0 };  /* by role: the hand's first mover, the other */
    const char *opponent = NULL;
    for (int i = 0; i < run.n; i++) {
        const set_hands_t *s = &run.sets[i], *b = s + 1;
        int me = seat_of(s, engine);
        if (me < 0)
            continue;
        if (!opponent)
            opponent = s->name[1 - me];
        if (s->winner >= 0) {
            sets++;
            won += s->winner == me;
        }
        for (int h = 0; h + 1 < s->complete; h += 2, nb++)
            for (int j = 0; j < 2; j++) {
                blocks[nb].e[j] = s->v[h + j][me];
                blocks[nb].o[j] = s->v[h + j][1 - me];
            }
        settling |= s->has_settled;
        for (int h = 0; h < s->complete; h++) {
            h_n += 2;
            h_sum += s->v[h][0] + s->v[h][1];
            h_sq += s->v[h][0] * s->v[h][0] + s->v[h][1] * s->v[h][1];
            h_cross += 2 * s->v[h][0] * s->v[h][1];
            int f = s->first[h];
            if (f == 0 || f == 1) {
                r_n++;
                for (int role = 0; role < 2; role++) {
                    double x = s->v[h][role == 0 ? f : 1 - f];
                    r_sum[role] += x;
                    r_sq[role] += x * x;
                }
            }
        }
        if (!is_pair(run.sets, run.n, i, engine))
            continue;
        pairs++;
        if (s->has_settled && b->has_settled) {
            double d = s->settled[me] + b->settled[seat_of(b, engine)];
            settled_pairs++;
            st_sum += d;
            st_sq += d * d;
        }
        int mb = seat_of(b, engine), k = s->complete < b->complete ? s->complete : b->complete;
        for (int h = 0; h < k; h++, nd++) {
            double d = (s->v[h][me] - s->v[h][1 - me]) + (b->v[h][mb] - b->v[h][1 - mb]);
            sum += d;
            sumsq += d * d;
        }
    }
    if (!opponent) {
        fprintf(stderr, "hands: %s: no set has an engine named '%s'\n", dir, engine);
        goto out;
    }
    if (nd < 2 || nb == 0) {
        fprintf(stderr, "hands: %s: fewer than two hands complete in both legs of a pair for '%s'\n", dir, engine);
        goto out;
    }
    measure_interval(sum, sumsq, nd, &mean, &half);
    double lead = mean / 2;
    half /= 2;
    printf("hands: %s: '%s' against '%s', %d pairs (%d sets over)\n", dir, engine, opponent, pairs, sets);
    printf("hands complete in both legs of a pair: %d\n", nd);
    printf("lead a hand: %+.2f [%+.2f, %+.2f] points (95%%)\n", lead, lead - half, lead + half);
    if (sets > 0)
        printf("sets won in the run: %.1f%% (%d of %d)\n", 100.0 * won / sets, won, sets);
    if (settling) {
        double m = h_sum / h_n, var = h_sq / h_n - m * m, cov = h_cross / h_n - m * m;
        printf("a seat's points a hand: mean %.2f, sd %.2f; the two seats' correlation %.3f (%.0f hands)\n", m,
               sqrt(var > 0 ? var : 0), var > 0 ? cov / var : 0.0, h_n / 2);
        if (r_n > 1) {
            double m0 = r_sum[0] / r_n, m1 = r_sum[1] / r_n;
            printf("by role (%.0f hands): the hand's first mover (Picket's elder) %.2f a hand (sd %.2f), the other %.2f (sd %.2f)\n", r_n, m0,
                   sqrt(fmax(r_sq[0] / r_n - m0 * m0, 0)), m1, sqrt(fmax(r_sq[1] / r_n - m1 * m1, 0)));
        }
        if (settled_pairs >= 2) {
            double sm, sh;
            measure_interval(st_sum, st_sq, settled_pairs, &sm, &sh);
            printf("settled points a pair: %+.1f [%+.1f, %+.1f] (95%%, %d pairs)\n", sm, sm - sh, sm + sh, settled_pairs);
        }
        printf("set model: not run (the sets settle points: a partie, not a race to a target)\n");
        status = 0;
        goto out;
    }
    double at0 = set_model(blocks, nb, 0, target, sims, seed);
    /* The smallest extra lead, in steps of 0.1, at which the model reaches the goal. */
    double delta = 0, got = at0;
    int step = at0 < goal ? 1 : -1, found = 0;
    for (int i = 1; i <= 500 && !found; i++) {
        double dd = step * 0.1 * i, s = set_model(blocks, nb, dd, target, sims, seed);
        if ((step > 0 && s >= goal) || (step < 0 && s < goal)) {
            found = 1;
            delta = step > 0 ? dd : dd + 0.1;
            got = step > 0 ? s : set_model(blocks, nb, delta, target, sims, seed);
        }
    }
    printf("set model (sets to %d, %d sets from %d blocks of two hands): %.1f%% at the run's lead; ", target, sims,
           nb, 100 * at0);
    if (found)
        printf("%g%% at a lead of %.2f a hand (%+.1f: %.1f%%)\n", 100 * goal, lead + delta, delta, 100 * got);
    else
        printf("%g%% not crossed within 50 points a hand of it\n", 100 * goal);
    printf("target (%g%% of sets in the set model): %s: the lead a hand is %.2f, ", 100 * goal,
           at0 >= goal ? "met" : "not met", lead);
    if (found)
        printf("the model needs %.2f\n", lead + delta);
    else
        printf("the model finds no lead that gives it\n");
    status = 0;
out:
    free(blocks);
    for (int i = 0; i < run.n; i++) {
        free(run.sets[i].v);
        free(run.sets[i].first);
    }
    free(run.sets);
    return status;
}
