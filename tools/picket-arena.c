/* picket-arena: tournaments between engine processes that speak the picket protocol.
 * See docs/arena.md. The arena is the referee: it holds the true state, sends each seat only
 * its view's events, validates every move, and keeps honest statistics over duplicate pairs. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "arena_match.h"
#include "arena_results.h"
#include "arena_schedule.h"
#include "arena_stats.h"
#include "game.h"
#include "rng.h"

enum { MAX_ENGINES = SCHEDULE_MAX_ENGINES, MAX_WORKERS = 64 };

static const char *const USAGE =
    "usage: picket-arena -engine cmd=PROGRAM name=NAME [option.X=V]... -engine ... [options]\n"
    "\n"
    "Plays sets of a game between engine processes (docs/protocol.md) and reports standings with\n"
    "95%% intervals. Each deal sequence is played once per seat rotation: twice with the seats\n"
    "swapped for two players (duplicate pairs), N times for N seats, so every engine of a table\n"
    "sits in every seat of the same deals.\n"
    "\n"
    "engines (each field key=value):\n"
    "  -engine FIELDS     one engine: cmd=PROGRAM (required), arg=A (repeatable), name=NAME,\n"
    "                     option.X=V (setoption), tc=SET+INC, st=SECONDS, iterations=N,\n"
    "                     timeout=SECONDS (a decision without a time control; default 60)\n"
    "  -each FIELDS       fields for every engine (an engine's own fields win)\n"
    "tournament:\n"
    "  -game NAME         the game (default picket; `picket-engine` lists its games in hello)\n"
    "  -players N         seats at each table (default: the game's own number)\n"
    "  -tournament T      gauntlet (tables of the first engine and others; default) or\n"
    "                     round-robin (every table of N engines)\n"
    "  -rounds N          deal sequences per table (default 10)\n"
    "  -no-duplicate      one set per round instead of a rotation, seats rotating by round\n"
    "  -preset P          rules preset (picket: cotgrave, cotton, ducoeur-letter, ducoeur-report)\n"
    "  -flag NAME=VALUE   a rule override (repeatable); docs/rules.md\n"
    "  -seed S            base seed of the deals and engine seeds (default 1)\n"
    "  -concurrency N     sets played at once (default 1)\n"
    "  -margin MS         milliseconds an engine may overrun its time (default 100)\n"
    "  -sprt elo0=E0 elo1=E1 alpha=A beta=B\n"
    "                     stop when the test decides (exactly two engines)\n"
    "output:\n"
    "  -records DIR       write every set as a game record (docs/records.md)\n"
    "  -results FILE      append every set as JSON Lines, flushed after each set\n"
    "  -resume            continue the run in -results FILE: no set played twice or lost\n"
    "  -quiet             no progress lines, only the final tables\n"
    "  --help             this text\n"
    "\n"
    "example: picket-arena -engine cmd=build/tools/picket-engine name=heuristic option.bot=heuristic \\\n"
    "           -engine cmd=build/tools/picket-engine name=random option.bot=random -rounds 100 -concurrency 2\n";

typedef struct job {
    set_key_t key;
    int done;
} job_t;

typedef struct arena {
    /* configuration */
    engine_spec_t engines[MAX_ENGINES];
    const char *names[MAX_ENGINES];
    const game_t *game;
    game_config_t cfg;
    int concurrency, quiet, resume, use_sprt;
    double margin;
    sprt_t sprt;
    const char *records_dir, *results_path;
    int players_asked;             /* -players (0: the game's own) */
    schedule_t sc;                 /* tables, seats, seeds and tallies (tools/arena/) */
    /* jobs and results */
    job_t *jobs;
    int n_jobs, next_job, done_count, resumed_count;
    int stop, sprt_decided;
    double llr;
    FILE *results;
    char *header_json;
    pthread_mutex_t lock;
    double started;
    int tty;
} arena_t;

static volatile sig_atomic_t interrupted;
static void on_signal(int sig)
{
    (void)sig;
    interrupted = 1;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int die(const char *msg)
{
    fprintf(stderr, "picket-arena: %s\n", msg);
    return 2;
}

/* ---------------------------------------------------------------- options */

static int parse_int_arg(const char *v, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (!*v || *end || errno || x < lo || x > hi)
        return -1;
    *out = x;
    return 0;
}

static int parse_sprt(arena_t *a, char **argv, int *i, int argc, char *err, size_t errlen)
{
    int seen = 0;
    while (*i + 1 < argc && argv[*i + 1][0] != '-') {
        const char *f = argv[++*i];
        char *end;
        const char *eq = strchr(f, '=');
        double v = eq ? strtod(eq + 1, &end) : 0;
        if (!eq || !eq[1] || *end) {
            snprintf(err, errlen, "-sprt: '%.40s' is not key=number", f);
            return -1;
        }
        size_t k = (size_t)(eq - f);
        if (k == 4 && !strncmp(f, "elo0", 4))
            a->sprt.elo0 = v, seen |= 1;
        else if (k == 4 && !strncmp(f, "elo1", 4))
            a->sprt.elo1 = v, seen |= 2;
        else if (k == 5 && !strncmp(f, "alpha", 5))
            a->sprt.alpha = v, seen |= 4;
        else if (k == 4 && !strncmp(f, "beta", 4))
            a->sprt.beta = v, seen |= 8;
        else {
            snprintf(err, errlen, "-sprt: unknown field '%.40s' (elo0, elo1, alpha, beta)", f);
            return -1;
        }
    }
    if (seen != 15 || a->sprt.elo1 <= a->sprt.elo0 || a->sprt.alpha <= 0 || a->sprt.alpha >= 1 ||
        a->sprt.beta <= 0 || a->sprt.beta >= 1) {
        snprintf(err, errlen, "-sprt needs elo0 < elo1 and 0 < alpha, beta < 1 (e.g. elo0=0 elo1=10 alpha=0.05 beta=0.05)");
        return -1;
    }
    a->use_sprt = 1;
    return 0;
}

static int parse_args(arena_t *a, int argc, char **argv, char *err, size_t errlen)
{
    engine_spec_t each;
    engine_spec_init(&each);
    char *each_fields[128];
    int n_each = 0;
    /* Engine fields are kept as text first, so -each can come anywhere. */
    char *eng_fields[MAX_ENGINES][128];
    int n_fields[MAX_ENGINES] = { 0 };
    a->sc.rounds = 10;
    a->concurrency = 1;
    a->sc.duplicate = 1;
    a->sc.seed = 1;
    a->margin = 0.1;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        long v;
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(o, "-engine") || !strcmp(o, "-each")) {
            int is_each = o[2] == 'a';
            if (!is_each && a->sc.n_engines == MAX_ENGINES) {
                snprintf(err, errlen, "at most %d engines", MAX_ENGINES);
                return -1;
            }
            int *count = is_each ? &n_each : &n_fields[a->sc.n_engines];
            char **dst = is_each ? each_fields : eng_fields[a->sc.n_engines];
            while (i + 1 < argc && argv[i + 1][0] != '-') {
                if (*count == 128) {
                    snprintf(err, errlen, "%s: too many fields", o);
                    return -1;
                }
                dst[(*count)++] = argv[++i];
            }
            if (!is_each)
                a->sc.n_engines++;
        } else if (!strcmp(o, "-tournament") && next) {
            i++;
            if (!strcmp(next, "gauntlet"))
                a->sc.round_robin = 0;
            else if (!strcmp(next, "round-robin"))
                a->sc.round_robin = 1;
            else {
                snprintf(err, errlen, "-tournament: '%.40s' is not gauntlet or round-robin", next);
                return -1;
            }
        } else if (!strcmp(o, "-rounds") && next) {
            if (parse_int_arg(argv[++i], 1, 10000000, &v) < 0) {
                snprintf(err, errlen, "-rounds: '%.40s' is not a number from 1 to 10000000", next);
                return -1;
            }
            a->sc.rounds = (int)v;
        } else if (!strcmp(o, "-concurrency") && next) {
            if (parse_int_arg(argv[++i], 1, MAX_WORKERS, &v) < 0) {
                snprintf(err, errlen, "-concurrency: '%.40s' is not a number from 1 to %d", next, MAX_WORKERS);
                return -1;
            }
            a->concurrency = (int)v;
        } else if (!strcmp(o, "-margin") && next) {
            if (parse_int_arg(argv[++i], 0, 600000, &v) < 0) {
                snprintf(err, errlen, "-margin: '%.40s' is not a number of milliseconds", next);
                return -1;
            }
            a->margin = (double)v / 1000.0;
        } else if (!strcmp(o, "-seed") && next) {
            char *end;
            errno = 0;
            unsigned long long s = strtoull(argv[++i], &end, 10);
            if (!*next || *next == '-' || *end || errno) {
                snprintf(err, errlen, "-seed: '%.40s' is not a number", next);
                return -1;
            }
            a->sc.seed = s;
        } else if (!strcmp(o, "-game") && next) {
            if (!(a->game = game_find(argv[++i]))) {
                char shown[48];
                game_quote(next, 40, shown, sizeof shown);
                snprintf(err, errlen, "-game: unknown game '%s'", shown);
                return -1;
            }
        } else if (!strcmp(o, "-players") && next) {
            if (parse_int_arg(argv[++i], 1, GAME_MAX_PLAYERS, &v) < 0) {
                snprintf(err, errlen, "-players: '%.40s' is not a number from 1 to %d", next, GAME_MAX_PLAYERS);
                return -1;
            }
            a->players_asked = (int)v;
        } else if (!strcmp(o, "-preset") && next) {
            if (game_config_set_preset(&a->cfg, argv[++i], err, errlen) < 0)
                return -1;
        } else if (!strcmp(o, "-flag") && next) {
            if (game_config_add_flag(&a->cfg, argv[++i], err, errlen) < 0)
                return -1;
        } else if (!strcmp(o, "-sprt")) {
            if (parse_sprt(a, argv, &i, argc, err, errlen) < 0)
                return -1;
        } else if (!strcmp(o, "-records") && next) {
            a->records_dir = argv[++i];
        } else if (!strcmp(o, "-results") && next) {
            a->results_path = argv[++i];
        } else if (!strcmp(o, "-resume")) {
            a->resume = 1;
        } else if (!strcmp(o, "-no-duplicate")) {
            a->sc.duplicate = 0;
        } else if (!strcmp(o, "-quiet")) {
            a->quiet = 1;
        } else {
            char shown[48];
            game_quote(o, 40, shown, sizeof shown);
            snprintf(err, errlen, "unknown option '%s', or it needs a value (see --help)", shown);
            return -1;
        }
    }
    if (a->sc.n_engines < 2) {
        snprintf(err, errlen, "give at least two engines (-engine cmd=PROGRAM name=NAME ...)");
        return -1;
    }
    for (int e = 0; e < a->sc.n_engines; e++) {
        engine_spec_t *s = &a->engines[e];
        engine_spec_init(s);
        for (int k = 0; k < n_each; k++)
            if (engine_spec_set(s, each_fields[k], err, errlen) < 0)
                return -1;
        for (int k = 0; k < n_fields[e]; k++)
            if (engine_spec_set(s, eng_fields[e][k], err, errlen) < 0)
                return -1;
        if (s->argc == 0 || !s->argv[0]) {
            snprintf(err, errlen, "engine %d has no cmd=PROGRAM", e + 1);
            return -1;
        }
        if (!s->name[0]) {
            const char *base = strrchr(s->argv[0], '/');
            snprintf(s->name, sizeof s->name, "%s-%d", base ? base + 1 : s->argv[0], e + 1);
        }
        for (int o = 0; o < e; o++)
            if (!strcmp(a->engines[o].name, s->name)) {
                snprintf(err, errlen, "two engines are named '%s': give each a name=", s->name);
                return -1;
            }
        a->names[e] = s->name;
    }
    if (a->use_sprt && a->sc.n_engines != 2) {
        snprintf(err, errlen, "-sprt needs exactly two engines");
        return -1;
    }
    if (a->resume && !a->results_path) {
        snprintf(err, errlen, "-resume needs -results FILE");
        return -1;
    }
    engine_spec_free(&each);
    return 0;
}

/* ---------------------------------------------------------------- the schedule */






static char *header_json(const arena_t *a)
{
    /* The run's identity: what must be equal to resume it. */
    size_t cap = 4096 + (size_t)a->sc.n_engines * 80;
    char *h = malloc(cap);
    if (!h)
        return NULL;
    int n = snprintf(h, cap, "{\"type\":\"run\",\"version\":1,\"game\":\"%s\",\"preset\":\"%s\",\"flags\":[", a->game->name,
                     a->cfg.preset[0] ? a->cfg.preset : "");
    for (int i = 0; i < a->cfg.n_flags; i++)
        n += snprintf(h + n, cap - (size_t)n, "%s\"%s\"", i ? "," : "", a->cfg.flags[i]);
    n += snprintf(h + n, cap - (size_t)n, "],\"engines\":[");
    for (int e = 0; e < a->sc.n_engines; e++)
        n += snprintf(h + n, cap - (size_t)n, "%s\"%s\"", e ? "," : "", a->names[e]);
    snprintf(h + n, cap - (size_t)n,
             "],\"players\":%d,\"tournament\":\"%s\",\"rounds\":%d,\"duplicate\":%s,\"seed\":\"%" PRIu64 "\"}",
             a->sc.players, a->sc.round_robin ? "round-robin" : "gauntlet", a->sc.rounds, a->sc.duplicate ? "true" : "false", a->sc.seed);
    return h;
}

/* ---------------------------------------------------------------- statistics */






static void format_eta(double seconds, char *buf, size_t len)
{
    if (seconds < 0 || !isfinite(seconds))
        snprintf(buf, len, "?");
    else
        snprintf(buf, len, "%d:%02d:%02d", (int)(seconds / 3600), (int)fmod(seconds / 60, 60), (int)fmod(seconds, 60));
}

static void progress(arena_t *a, int final)
{
    if (a->quiet)
        return;
    score_counts_t c = schedule_engine_counts(&a->sc, 0);
    score_summary_t sm;
    stats_summarize(&c, &sm);
    double elapsed = now_s() - a->started;
    int played = a->done_count - a->resumed_count;
    double eta = played > 0 ? elapsed / played * (a->n_jobs - a->done_count) : -1;
    char eta_s[32];
    format_eta(eta, eta_s, sizeof eta_s);
    char sprt_s[64] = "";
    if (a->use_sprt)
        snprintf(sprt_s, sizeof sprt_s, "  LLR %.2f [%.2f, %.2f]", a->llr, stats_sprt_lower(&a->sprt), stats_sprt_upper(&a->sprt));
    char elo_s[64] = "Elo ?";
    if (a->sc.players > 2) {
        /* More seats: the first engine's share of the others it finished ahead of, and its rank. */
        double n = a->sc.sets[0] ? (double)a->sc.sets[0] : 1;
        sm.score = a->sc.score_sum[0] / n;
        snprintf(elo_s, sizeof elo_s, "mean rank %.2f", a->sc.rank_sum[0] / n + 1);
    } else if (sm.units > 0) {
        snprintf(elo_s, sizeof elo_s, "Elo %+.0f [%+.0f, %+.0f]", sm.elo, sm.elo_lo, sm.elo_hi);
    }
    if (a->tty)
        fprintf(stderr, "\r[%d/%d sets] %s %.1f%% %s  ETA %s%s   ", a->done_count, a->n_jobs, a->names[0],
                100.0 * sm.score, elo_s, eta_s, sprt_s);
    else
        fprintf(stderr, "[%d/%d sets] %s %.1f%% %s  ETA %s%s\n", a->done_count, a->n_jobs, a->names[0], 100.0 * sm.score,
                elo_s, eta_s, sprt_s);
    if (final && a->tty)
        fputc('\n', stderr);
}

/* ---------------------------------------------------------------- workers */

typedef struct worker {
    arena_t *a;
    int id;
    engine_proc_t procs[MAX_ENGINES];
} worker_t;

static void record_path(const arena_t *a, set_key_t k, char *buf, size_t len)
{
    snprintf(buf, len, "%s/round-%06d-pairing-%03d-leg-%d.txt", a->records_dir, k.round, k.pairing, k.leg);
}

static void *worker_main(void *arg)
{
    worker_t *w = arg;
    arena_t *a = w->a;
    for (;;) {
        pthread_mutex_lock(&a->lock);
        while (a->next_job < a->n_jobs && a->jobs[a->next_job].done)
            a->next_job++;
        if (a->stop || interrupted || a->next_job >= a->n_jobs) {
            pthread_mutex_unlock(&a->lock);
            break;
        }
        job_t *job = &a->jobs[a->next_job++];
        pthread_mutex_unlock(&a->lock);

        set_line_t line = { job->key, { 0 }, { 0 } };
        schedule_seats(&a->sc, job->key, line.engine);
        set_setup_t setup;
        memset(&setup, 0, sizeof setup);
        setup.game = a->game;
        setup.cfg = a->cfg;
        setup.cfg.deal_seed = schedule_deal_seed(&a->sc, job->key.round);
        setup.margin = a->margin;
        for (int seat = 0; seat < a->sc.players; seat++) {
            engine_proc_t *p = &w->procs[line.engine[seat]];
            p->spec = &a->engines[line.engine[seat]];
            setup.engine[seat] = p;
            setup.engine_seed[seat] = schedule_engine_seed(&a->sc, job->key, seat);
        }
        char path[4096] = "";
        if (a->records_dir) {
            record_path(a, job->key, path, sizeof path);
            setup.record = fopen(path, "w");
        }
        arena_play_set(&setup, &line.result);
        if (setup.record)
            fclose(setup.record);
        if (interrupted && line.result.reason != END_NORMAL)
            break; /* a set cut short by ^C is not a result: --resume plays it again */

        pthread_mutex_lock(&a->lock);
        if (a->results && results_write_set(a->results, &line, a->names, setup.cfg.deal_seed, path[0] ? path : NULL) < 0)
            fprintf(stderr, "picket-arena: cannot write the results file\n");
        job->done = 1;
        a->done_count++;
        schedule_tally(&a->sc, &line);
        if (a->use_sprt && !a->sprt_decided) {
            a->llr = stats_sprt_llr(&a->sc.pair_counts[0], &a->sprt);
            if (a->llr >= stats_sprt_upper(&a->sprt) || a->llr <= stats_sprt_lower(&a->sprt)) {
                a->sprt_decided = 1;
                a->stop = 1;
            }
        }
        int every = a->n_jobs / 20 > 0 ? a->n_jobs / 20 : 1;
        if (a->tty || a->done_count % every == 0)
            progress(a, 0);
        pthread_mutex_unlock(&a->lock);
    }
    for (int e = 0; e < a->sc.n_engines; e++)
        engine_proc_stop(&w->procs[e]);
    return NULL;
}

static void on_resumed(void *data, const set_line_t *s)
{
    arena_t *a = data;
    if (!schedule_has(&a->sc, s->key) || s->result.players != a->sc.players)
        return;
    job_t *j = &a->jobs[schedule_job_index(&a->sc, s->key)];
    if (j->done)
        return;
    j->done = 1;
    a->done_count++;
    a->resumed_count++;
    schedule_tally(&a->sc, s);
}

/* ---------------------------------------------------------------- report */


/* Standings of a game for more than two seats: mean points, mean rank, score; then pairwise. */
static void report_tables(const arena_t *a, const int *order)
{
    printf("  %-3s %-20s %6s %11s %9s %8s\n", "#", "engine", "sets", "mean points", "mean rank", "score");
    for (int r = 0; r < a->sc.n_engines; r++) {
        int e = order[r];
        double n = a->sc.sets[e] ? (double)a->sc.sets[e] : 1;
        printf("  %-3d %-20s %6ld %11.2f %9.3f %7.1f%%\n", r + 1, a->names[e], a->sc.sets[e], a->sc.points[e] / n,
               a->sc.rank_sum[e] / n + 1, 100.0 * a->sc.score_sum[e] / n);
    }
    printf("\nPairwise (row finishing ahead of column, a tie half, over %s: score +- 95%% interval)\n  %-20s",
           a->sc.duplicate ? "rotation groups" : "sets", "");
    for (int e = 0; e < a->sc.n_engines; e++)
        printf(" %16.16s", a->names[e]);
    printf("\n");
    for (int r = 0; r < a->sc.n_engines; r++) {
        printf("  %-20s", a->names[r]);
        for (int c = 0; c < a->sc.n_engines; c++) {
            double mean, half;
            if (schedule_pairwise(&a->sc, r, c, &mean, &half) == 0)
                printf(" %16s", r == c ? "" : "-");
            else
                printf("   %5.1f%% +- %4.1f", 100.0 * mean, 100.0 * half);
        }
        printf("\n");
    }
}

/* Standings of a two-seat game: wins, losses, Elo over pairs; the crosstable; the pairs. */
static void report_pairs(const arena_t *a, const int *order, const double *score)
{
    printf("  %-3s %-20s %6s %6s %6s %8s %7s %19s %6s\n", "#", "engine", "sets", "wins", "losses", "score", a->sc.duplicate ? "pairs" : "units",
           "Elo [95% interval]", "LOS");
    for (int r = 0; r < a->sc.n_engines; r++) {
        int e = order[r];
        score_counts_t c = schedule_engine_counts(&a->sc, e);
        score_summary_t sm;
        stats_summarize(&c, &sm);
        char elo[40];
        if (sm.units > 0)
            snprintf(elo, sizeof elo, "%+5.0f [%+5.0f, %+5.0f]", sm.elo, sm.elo_lo, sm.elo_hi);
        else
            snprintf(elo, sizeof elo, "%19s", "-");
        printf("  %-3d %-20s %6ld %6ld %6ld %7.1f%% %7ld %19s %5.1f%%\n", r + 1, a->names[e], a->sc.sets[e],
               a->sc.wins[e], a->sc.losses[e], 100.0 * score[e], sm.units, elo, 100.0 * sm.los);
    }
    printf("\nCrosstable (row's score against column, over %s)\n  %-20s", a->sc.duplicate ? "pairs" : "sets", "");
    for (int e = 0; e < a->sc.n_engines; e++)
        printf(" %10.10s", a->names[e]);
    printf("\n");
    for (int r = 0; r < a->sc.n_engines; r++) {
        printf("  %-20s", a->names[r]);
        for (int c = 0; c < a->sc.n_engines; c++) {
            int p = -1, flip = 0;
            for (int k = 0; k < a->sc.n_tables; k++) {
                if (a->sc.table[k][0] == r && a->sc.table[k][1] == c)
                    p = k;
                if (a->sc.table[k][0] == c && a->sc.table[k][1] == r)
                    p = k, flip = 1;
            }
            if (p < 0) {
                printf(" %10s", r == c ? "" : "-");
                continue;
            }
            score_counts_t pc = a->sc.pair_counts[p];
            if (flip) {
                long t = pc.n[0];
                pc.n[0] = pc.n[2];
                pc.n[2] = t;
            }
            score_summary_t sm;
            stats_summarize(&pc, &sm);
            if (sm.units)
                printf(" %9.1f%%", 100.0 * sm.score);
            else
                printf(" %10s", "-");
        }
        printf("\n");
    }
    if (a->sc.duplicate) {
        printf("\nPairs (first engine of each pairing: won both / split / lost both)\n");
        for (int p = 0; p < a->sc.n_tables; p++) {
            const score_counts_t *c = &a->sc.pair_counts[p];
            printf("  %-20s vs %-20s %5ld / %5ld / %5ld\n", a->names[a->sc.table[p][0]], a->names[a->sc.table[p][1]], c->n[2], c->n[1], c->n[0]);
        }
    }
}

static void report(arena_t *a)
{
    if (a->sc.players == 2)
        printf("\nStandings (%s, %s, %d engines, %d sets%s)\n", a->sc.round_robin ? "round-robin" : "gauntlet",
               a->sc.duplicate ? "duplicate pairs" : "single sets", a->sc.n_engines, a->done_count,
               a->done_count < a->n_jobs ? ", stopped early" : "");
    else
        printf("\nStandings (%s, %s, %s at %d seats, %d engines, %d sets%s)\n", a->sc.round_robin ? "round-robin" : "gauntlet",
               a->sc.duplicate ? "seat rotation" : "single sets", a->game->name, a->sc.players, a->sc.n_engines, a->done_count,
               a->done_count < a->n_jobs ? ", stopped early" : "");
    int order[MAX_ENGINES];
    double score[MAX_ENGINES];
    for (int e = 0; e < a->sc.n_engines; e++) {
        score[e] = a->sc.sets[e] ? a->sc.score_sum[e] / (double)a->sc.sets[e] : 0;
        order[e] = e;
    }
    for (int i = 1; i < a->sc.n_engines; i++)
        for (int j = i; j > 0 && score[order[j]] > score[order[j - 1]]; j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    if (a->sc.players > 2)
        report_tables(a, order);
    else
        report_pairs(a, order, score);
    long faulted = 0;
    for (int r = 1; r < END_COUNT; r++)
        faulted += a->sc.faults[r];
    printf("\nSets ended by the rules: %ld; by a fault: %ld", a->sc.faults[END_NORMAL], faulted);
    for (int r = 1; r < END_COUNT; r++)
        if (a->sc.faults[r])
            printf(", %s %ld", END_REASON_NAMES[r], a->sc.faults[r]);
    printf("\n");
    struct rusage self, kids;
    getrusage(RUSAGE_SELF, &self);
    getrusage(RUSAGE_CHILDREN, &kids);
    double wall = now_s() - a->started;
    double own = (double)self.ru_utime.tv_sec + (double)self.ru_utime.tv_usec * 1e-6 + (double)self.ru_stime.tv_sec +
                 (double)self.ru_stime.tv_usec * 1e-6;
    double eng = (double)kids.ru_utime.tv_sec + (double)kids.ru_utime.tv_usec * 1e-6 + (double)kids.ru_stime.tv_sec +
                 (double)kids.ru_stime.tv_usec * 1e-6;
    int played = a->done_count - a->resumed_count;
    printf("Time: %d sets in %.2f s wall (%.1f sets/s); arena CPU %.2f s (%.0f%% of wall), engines CPU %.2f s\n", played,
           wall, wall > 0 ? played / wall : 0.0, own, wall > 0 ? 100.0 * own / wall : 0.0, eng);
    if (a->use_sprt) {
        const char *verdict = !a->sprt_decided ? "no decision yet"
                              : a->llr >= stats_sprt_upper(&a->sprt) ? "H1 accepted (elo1)" : "H0 accepted (elo0)";
        printf("SPRT elo0=%g elo1=%g alpha=%g beta=%g: LLR %.3f, bounds [%.3f, %.3f]: %s\n", a->sprt.elo0, a->sprt.elo1,
               a->sprt.alpha, a->sprt.beta, a->llr, stats_sprt_lower(&a->sprt), stats_sprt_upper(&a->sprt), verdict);
    }
}

/* ---------------------------------------------------------------- the tables */


/* ---------------------------------------------------------------- main */

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h") || !strcmp(argv[i], "-help")) {
            fputs(USAGE, stdout);
            return 0;
        }
    static arena_t arena;
    arena_t *a = &arena;
    char err[512];
    if (argc < 2) {
        fputs(USAGE, stderr);
        return 2;
    }
    a->game = game_find("picket");
    if (parse_args(a, argc, argv, err, sizeof err) < 0)
        return die(err);
    /* The rules and the number of seats must build before any engine starts. */
    a->cfg.players = a->players_asked;
    void *probe = calloc(1, a->game->state_size);
    if (!probe)
        return die("out of memory");
    if (a->game->init(probe, &a->cfg, err, sizeof err) < 0) {
        free(probe);
        return die(err);
    }
    a->sc.players = a->cfg.players = a->game->num_players(probe);
    free(probe);
    if (a->sc.players < 2 || a->sc.players > a->sc.n_engines) {
        snprintf(err, sizeof err, "%s at %d seats needs at least %d engines (-engine), not %d", a->game->name, a->sc.players,
                 a->sc.players < 2 ? 2 : a->sc.players, a->sc.n_engines);
        return die(err);
    }
    if (a->use_sprt && a->sc.players != 2)
        return die("-sprt needs a two-seat game");
    if (!a->cfg.preset[0] && a->game == game_find("picket"))
        snprintf(a->cfg.preset, sizeof a->cfg.preset, "cotgrave");
    if (schedule_build(&a->sc, err, sizeof err) < 0)
        return die(err);
    a->n_jobs = a->sc.n_jobs;
    if (!(a->jobs = calloc((size_t)a->n_jobs, sizeof *a->jobs)))
        return die("out of memory for the schedule");
    for (int k = 0; k < a->n_jobs; k++)
        a->jobs[k].key = schedule_job_key(&a->sc, k);
    if (!(a->header_json = header_json(a)))
        return die("out of memory");
    if (a->records_dir && mkdir(a->records_dir, 0777) < 0 && errno != EEXIST) {
        snprintf(err, sizeof err, "cannot create the records folder '%.200s': %s", a->records_dir, strerror(errno));
        return die(err);
    }
    if (a->results_path) {
        if (a->resume) {
            if (results_load(a->results_path, a->header_json, on_resumed, a, err, sizeof err) < 0)
                return die(err);
            a->results = fopen(a->results_path, "a");
        } else {
            struct stat st;
            if (stat(a->results_path, &st) == 0 && st.st_size > 0) {
                snprintf(err, sizeof err, "'%.200s' already holds results: add -resume to continue that run, or choose another file",
                         a->results_path);
                return die(err);
            }
            a->results = fopen(a->results_path, "w");
            if (a->results && results_write_header(a->results, a->header_json) < 0)
                return die("cannot write the results file");
        }
        if (!a->results) {
            snprintf(err, sizeof err, "cannot write '%.200s': %s", a->results_path, strerror(errno));
            return die(err);
        }
    }
    if (a->use_sprt)
        a->llr = stats_sprt_llr(&a->sc.pair_counts[0], &a->sprt);

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = (int)SA_RESETHAND; /* a second ^C ends the arena at once */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);

    a->tty = isatty(STDERR_FILENO);
    a->started = now_s();
    pthread_mutex_init(&a->lock, NULL);
    if (!a->quiet)
        fprintf(stderr, "picket-arena: %d engines, %d pairings, %d sets to play%s, concurrency %d\n", a->sc.n_engines,
                a->sc.n_tables, a->n_jobs - a->done_count, a->resumed_count ? " (resumed)" : "", a->concurrency);
    worker_t *workers = calloc((size_t)a->concurrency, sizeof *workers);
    pthread_t *threads = calloc((size_t)a->concurrency, sizeof *threads);
    if (!workers || !threads)
        return die("out of memory for the workers");
    int started = 0;
    for (int i = 0; i < a->concurrency; i++) {
        workers[i].a = a;
        workers[i].id = i;
        if (pthread_create(&threads[i], NULL, worker_main, &workers[i]) == 0)
            started++;
        else
            break;
    }
    if (!started)
        return die("cannot start a worker thread");
    for (int i = 0; i < started; i++)
        pthread_join(threads[i], NULL);
    progress(a, 1);
    if (a->results)
        fclose(a->results);
    report(a);
    if (interrupted)
        fprintf(stderr, "picket-arena: interrupted; %d of %d sets done%s\n", a->done_count, a->n_jobs,
                a->results_path ? " (continue with -resume)" : "");
    free(workers);
    free(threads);
    free(a->jobs);
    schedule_free(&a->sc);
    free(a->header_json);
    for (int e = 0; e < a->sc.n_engines; e++)
        engine_spec_free(&a->engines[e]);
    return interrupted ? 130 : 0;
}
