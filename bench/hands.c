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
 * its figures cannot drift from the records. Two seats only. */
#include <dirent.h>
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
    int cap;
    int score[2];        /* the record's final scores */
    int winner;          /* -1: the set is not over */
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
    int failed;       /* out of memory */
} replay_ctx_t;

static void on_event(void *data, const game_t *g, const game_event_t *ev)
{
    (void)ev;
    replay_ctx_t *c = data;
    if (!c->rec->state || c->failed)
        return;
    int over = g->hand_over(c->rec->state);
    if (over && !c->in_hand_over) {
        set_hands_t *s = c->set;
        if (s->n == s->cap) {
            int cap = s->cap ? 2 * s->cap : 64;
            double(*v)[2] = realloc(s->v, sizeof *v * (size_t)cap);
            if (!v) {
                c->failed = 1;
                return;
            }
            s->v = v;
            s->cap = cap;
        }
        double hv[GAME_MAX_PLAYERS];
        g->hand_value(c->rec->state, hv);
        s->v[s->n][0] = hv[0];
        s->v[s->n][1] = hv[1];
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

static set_hands_t *new_set(run_t *r)
{
    if (r->n == r->cap) {
        int cap = r->cap ? 2 * r->cap : 256;
        set_hands_t *s = realloc(r->sets, sizeof *s * (size_t)cap);
        if (!s)
            return NULL;
        r->sets = s;
        r->cap = cap;
    }
    set_hands_t *s = &r->sets[r->n];
    memset(s, 0, sizeof *s);
    s->winner = -1;
    return s;
}

/* One set's record (a file of the arena's -records DIR) into r. 0, or -1 with a one-line reason. */
static int read_set(const char *path, run_t *r, char *err, size_t errlen)
{
    set_hands_t *s = new_set(r);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
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
    replay_ctx_t ctx = { s, &rec, 1, 0 };
    char why[256];
    int rc = record_replay(f, &rec, on_event, &ctx, why, sizeof why);
    fclose(f);
    if (rc < 0 || ctx.failed) {
        snprintf(err, errlen, "%s: %s", path, ctx.failed ? "out of memory" : why);
        record_free(&rec);
        free(s->v);
        return -1;
    }
    const game_t *g = rec.game;
    if (g->num_players(rec.state) != 2) {
        snprintf(err, errlen, "%s: two seats only", path);
        record_free(&rec);
        free(s->v);
        return -1;
    }
    g->scores(rec.state, s->score);
    int rank[GAME_MAX_PLAYERS];
    if (g->rank(rec.state, rank))
        s->winner = rank[0] < rank[1] ? 0 : rank[1] < rank[0] ? 1 : -1;
    /* At the set's end hand_over is 1: the hand it ended in was counted, and is not complete. */
    int over = g->to_move(rec.state) == GAME_OVER;
    s->complete = over && s->n > 0 ? s->n - 1 : s->n;
    record_free(&rec);
    /* The hands add up to the scores (a set cut short inside a hand aside). */
    double sum[2] = { 0, 0 };
    for (int i = 0; i < s->n; i++)
        for (int j = 0; j < 2; j++)
            sum[j] += s->v[i][j];
    if (over && (fabs(sum[0] - s->score[0]) > 1e-6 || fabs(sum[1] - s->score[1]) > 1e-6)) {
        snprintf(err, errlen, "%s: its hands add up to %g-%g, its scores are %d-%d", path, sum[0], sum[1], s->score[0],
                 s->score[1]);
        free(s->v);
        return -1;
    }
    r->n++;
    return 0;
}

static int cmp_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Every *.txt of the folder, in name order (the arena's names sort by round and leg). */
static int read_folder(const char *dir, run_t *r, char *err, size_t errlen)
{
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(err, errlen, "%s: not a folder of records (the arena's -records DIR)", dir);
        return -1;
    }
    char **names = NULL;
    int n = 0, cap = 0, rc = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        size_t len = strlen(de->d_name);
        if (len < 5 || strcmp(de->d_name + len - 4, ".txt"))
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 256;
            char **m = realloc(names, sizeof *m * (size_t)cap);
            if (!m) {
                rc = -1;
                break;
            }
            names = m;
        }
        if (!(names[n] = malloc(strlen(dir) + len + 2))) {
            rc = -1;
            break;
        }
        sprintf(names[n++], "%s/%s", dir, de->d_name);
    }
    closedir(d);
    if (rc < 0)
        snprintf(err, errlen, "out of memory");
    else if (n == 0) {
        snprintf(err, errlen, "%s: no records (*.txt) in it", dir);
        rc = -1;
    }
    if (rc == 0)
        qsort(names, (size_t)n, sizeof *names, cmp_name);
    for (int i = 0; rc == 0 && i < n; i++)
        rc = read_set(names[i], r, err, errlen);
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

typedef struct opts {
    const char *dir, *engine;
    long target;
    double goal;
    long sims;
} opts_t;

static int own_option(void *data, int argc, char **argv, int *i)
{
    opts_t *o = data;
    uint64_t v;
    double g;
    const char *a = argv[*i];
    if (a[0] != '-') {
        if (o->dir)
            return 0;
        o->dir = a;
        return 1;
    }
    if (*i + 1 >= argc)
        return 0;
    const char *b = argv[*i + 1];
    if (!strcmp(a, "--engine") && b[0] && strlen(b) < MAX_NAME)
        o->engine = b;
    else if (!strcmp(a, "--set-target") && text_u64(b, 1, 100000, &v) == 0)
        o->target = (long)v;
    else if (!strcmp(a, "--sims") && text_u64(b, 100, 10000000, &v) == 0)
        o->sims = (long)v;
    else if (!strcmp(a, "--goal") && text_real(b, 0, 1, &g) == 0 && g > 0 && g < 1)
        o->goal = g;
    else
        return 0;
    (*i)++;
    return 1;
}

int main(int argc, char **argv)
{
    opts_t o = { NULL, NULL, 100, 0.80, SIM_SETS };
    int quick = 0;
    uint64_t seed = 1;
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
    int rc = bench_args(argc, argv, "hands", usage, &quick, &seed, own_option, &o);
    if (rc >= 0)
        return rc;
    if (!o.dir) {
        fprintf(stderr, "hands: no records folder given (see --help)\n");
        return 2;
    }
    if (quick)
        o.sims = 2000;
    run_t run = { NULL, 0, 0 };
    char err[512];
    if (read_folder(o.dir, &run, err, sizeof err) < 0) {
        fprintf(stderr, "hands: %s\n", err);
        for (int i = 0; i < run.n; i++)
            free(run.sets[i].v);
        free(run.sets);
        return 1;
    }
    int status = 0;
    /* The legs of a pair side by side: the sets in (round, pairing, leg) order, as the arena names
     * their files. */
    qsort(run.sets, (size_t)run.n, sizeof *run.sets, cmp_set);
    double *d = NULL;
    block_t *blocks = NULL;
    if (!o.engine) {
        for (int i = 0; i < run.n && !o.engine; i++)
            if (run.sets[i].leg == 0)
                o.engine = run.sets[i].name[0];
        if (!o.engine) {
            fprintf(stderr, "hands: %s: no set of a leg 0 (not a duplicate run)\n", o.dir);
            status = 1;
            goto out;
        }
    }
    int pairs = 0, nd = 0, sets = 0, won = 0, nb = 0;
    size_t nd_cap = 1;
    const char *opponent = NULL;
    for (int i = 0; i < run.n; i++) {
        const set_hands_t *s = &run.sets[i];
        int me = seat_of(s, o.engine);
        if (me < 0)
            continue;
        if (!opponent)
            opponent = s->name[1 - me];
        if (s->winner >= 0) {
            sets++;
            won += s->winner == me;
        }
        nb += s->complete / 2;
        if (is_pair(run.sets, run.n, i, o.engine)) {
            pairs++;
            nd_cap += (size_t)(s->complete < s[1].complete ? s->complete : s[1].complete);
        }
    }
    if (!opponent) {
        fprintf(stderr, "hands: %s: no set has an engine named '%s'\n", o.dir, o.engine);
        status = 1;
        goto out;
    }
    /* The hands complete in both legs of each pair. */
    if (!(d = malloc(sizeof *d * nd_cap))) {
        fprintf(stderr, "hands: out of memory\n");
        status = 1;
        goto out;
    }
    for (int i = 0; i < run.n; i++) {
        if (!is_pair(run.sets, run.n, i, o.engine))
            continue;
        const set_hands_t *a = &run.sets[i], *b = a + 1;
        int ma = seat_of(a, o.engine), mb = seat_of(b, o.engine);
        int k = a->complete < b->complete ? a->complete : b->complete;
        for (int h = 0; h < k; h++)
            d[nd++] = (a->v[h][ma] - a->v[h][1 - ma]) + (b->v[h][mb] - b->v[h][1 - mb]);
    }
    if (nd < 2 || nb == 0) {
        fprintf(stderr, "hands: %s: fewer than two hands complete in both legs of a pair for '%s'\n", o.dir, o.engine);
        status = 1;
        goto out;
    }
    double sum = 0, sumsq = 0, mean, half;
    for (int i = 0; i < nd; i++) {
        sum += d[i];
        sumsq += d[i] * d[i];
    }
    measure_interval(sum, sumsq, nd, &mean, &half);
    double lead = mean / 2;
    half /= 2;
    if (!(blocks = malloc(sizeof *blocks * (size_t)nb))) {
        fprintf(stderr, "hands: out of memory\n");
        status = 1;
        goto out;
    }
    nb = 0;
    for (int i = 0; i < run.n; i++) {
        const set_hands_t *s = &run.sets[i];
        int me = seat_of(s, o.engine);
        if (me < 0)
            continue;
        for (int h = 0; h + 1 < s->complete; h += 2, nb++)
            for (int j = 0; j < 2; j++) {
                blocks[nb].e[j] = s->v[h + j][me];
                blocks[nb].o[j] = s->v[h + j][1 - me];
            }
    }
    printf("hands: %s: '%s' against '%s', %d pairs (%d sets over)\n", o.dir, o.engine, opponent ? opponent : "?", pairs,
           sets);
    printf("hands complete in both legs of a pair: %d\n", nd);
    printf("lead a hand: %+.2f [%+.2f, %+.2f] points (95%%)\n", lead, lead - half, lead + half);
    if (sets > 0)
        printf("sets won in the run: %.1f%% (%d of %d)\n", 100.0 * won / sets, won, sets);
    double at0 = set_model(blocks, nb, 0, (int)o.target, (int)o.sims, seed);
    /* The smallest extra lead, in steps of 0.1, at which the model reaches the goal. */
    double delta = 0, got = at0;
    int step = at0 < o.goal ? 1 : -1, found = 0;
    for (int i = 1; i <= 500 && !found; i++) {
        double dd = step * 0.1 * i, s = set_model(blocks, nb, dd, (int)o.target, (int)o.sims, seed);
        if ((step > 0 && s >= o.goal) || (step < 0 && s < o.goal)) {
            found = 1;
            delta = step > 0 ? dd : dd + 0.1;
            got = step > 0 ? s : set_model(blocks, nb, delta, (int)o.target, (int)o.sims, seed);
        }
    }
    printf("set model (sets to %ld, %ld sets from %d blocks of two hands): %.1f%% at the run's lead; ", o.target, o.sims,
           nb, 100 * at0);
    if (found)
        printf("%g%% at a lead of %.2f a hand (%+.1f: %.1f%%)\n", 100 * o.goal, lead + delta, delta, 100 * got);
    else
        printf("%g%% not crossed within 50 points a hand of it\n", 100 * o.goal);
    printf("target (%g%% of sets in the set model): %s: the lead a hand is %.2f, ", 100 * o.goal,
           at0 >= o.goal ? "met" : "not met", lead);
    if (found)
        printf("the model needs %.2f\n", lead + delta);
    else
        printf("the model finds no lead that gives it\n");
out:
    free(blocks);
    free(d);
    for (int i = 0; i < run.n; i++)
        free(run.sets[i].v);
    free(run.sets);
    return status;
}
