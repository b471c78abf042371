/* picket-arena: tournaments between engine processes that speak the picket protocol.
 * See docs/arena.md. The arena is the referee: it holds the true state, sends each seat only
 * its view's events, validates every move, keeps each engine's clock, and keeps honest
 * statistics over duplicate pairs. A misconfigured run stops before its first set; a run that
 * goes wrong stops with an error rather than a wrong result. */
#define _GNU_SOURCE /* open_memstream */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arena_cli.h"
#include "arena_match.h"
#include "arena_results.h"
#include "arena_schedule.h"
#include "arena_stats.h"
#include "game.h"
#include "rng.h"

#ifndef PICKET_VERSION
#define PICKET_VERSION "unknown"
#endif

enum { MAX_ENGINES = SCHEDULE_MAX_ENGINES, MAX_WORKERS = 64, MAX_DEALS = 10000000, DEFAULT_MAX_FAULTS = 3, MAX_SHARDS = 100000 };

static const char *const USAGE =
    "usage: picket-arena -engine cmd=PROGRAM name=NAME [option.X=V]... -engine ... [options]\n"
    "       picket-arena -merge FILE... [-sprt elo0=E0 elo1=E1 alpha=A beta=B] [-quiet]\n"
    "\n"
    "Plays sets of a game between engine processes (docs/protocol.md) and reports standings with\n"
    "95% intervals. Each deal sequence is played once per seat rotation: twice with the seats\n"
    "swapped for two players (duplicate pairs), N times for N seats, so every engine of a table\n"
    "sits in every seat of the same deals. Every engine is started and checked once before the\n"
    "first set: a misconfigured engine stops the run at once.\n"
    "\n"
    "engines (each field key=value):\n"
    "  -engine FIELDS     one engine: cmd=PROGRAM (required), arg=A (repeatable), name=NAME,\n"
    "                     dir=DIR (its working folder), stderr=FILE (its stderr, appended),\n"
    "                     option.X=V (setoption; the engine must declare X in hello),\n"
    "                     tc=SET+INC (a chess clock for the set, seconds), st=SECONDS (a fixed\n"
    "                     time a decision), iterations=N (a fixed search), timeout=SECONDS (a\n"
    "                     decision without tc or st; default 60), start=SECONDS (the handshake's\n"
    "                     limit; default 10). One of tc, st, iterations at most.\n"
    "  -each FIELDS       fields for every engine (an engine's own fields win)\n"
    "tournament:\n"
    "  -game NAME         the game (default picket; `picket-engine` lists its games in hello)\n"
    "  -players N         seats at each table (default: the game's own number)\n"
    "  -tournament T      gauntlet (tables of the first engine and others; default) or\n"
    "                     round-robin (every table of N engines)\n"
    "  -rounds N          deal sequences per table (default 10, or the number of -deals)\n"
    "  -deals FILE        the deal seeds to play, one per line, in order (round r: line r)\n"
    "  -no-duplicate      one set per round instead of a rotation, seats rotating by round\n"
    "  -preset P          rules preset (picket: cotgrave, cotton, ducoeur-letter, ducoeur-report)\n"
    "  -flag NAME=VALUE   a rule override (repeatable); docs/rules.md\n"
    "  -seed S            base seed of the deals and engine seeds (default 1)\n"
    "  -concurrency N     sets played at once (default 1)\n"
    "  -margin MS         milliseconds an engine may overrun its time (tc: over the whole set;\n"
    "                     default 100)\n"
    "  -sprt elo0=E0 elo1=E1 alpha=A beta=B\n"
    "                     stop when the test decides (exactly two engines)\n"
    "  -maxfaults N       stop the run when an engine faults in N of its sets in a row (default 3)\n"
    "  -recover           never stop for faults: every fault is a forfeit and the run goes on\n"
    "  -shard I/N         play shard I of N (0 <= I < N <= 100000): every N-th rotation group from\n"
    "                     the I-th, into its own -results FILE; no -sprt (give it to -merge)\n"
    "output:\n"
    "  -records PATH      every set as a game record (docs/records.md): PATH ending in .txt, one\n"
    "                     file for the run; otherwise a folder, one file per set\n"
    "  -results FILE      append every set as JSON Lines, flushed after each set\n"
    "  -resume            continue the run in -results FILE: no set played twice or lost\n"
    "  -log FILE          every line to and from every engine, with its name and a time\n"
    "  -ratinginterval N  a progress line every N sets (default: every 5% of the run)\n"
    "  -quiet             no progress lines, only faults and the final tables\n"
    "  -version           the version\n"
    "  --help             this text\n"
    "merging (no engine is started, no file written):\n"
    "  -merge FILE...     the results files of every shard of one run, each once: checks they are\n"
    "                     complete and disjoint, then prints the whole run's standings (with -sprt,\n"
    "                     its SPRT verdict)\n"
    "\n"
    "exit status: 0 done, 1 stopped by an error during the run, 2 a bad option or configuration\n"
    "(nothing written), 130 interrupted (continue with -resume); -merge: 0 merged, 1 files that\n"
    "cannot be read or do not merge, 2 a bad option\n"
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
    int concurrency, quiet, resume, resume_fresh, use_sprt, rounds_given, max_faults, recover, rating_interval;
    double margin;
    sprt_t sprt;
    const char *records_path, *results_path, *log_path, *deals_path;
    int records_one_file;          /* -records FILE.txt */
    uint64_t *deals;
    int n_deals;
    int players_asked;             /* -players (0: the game's own) */
    int shard_index, shard_count;  /* -shard I/N (count 1: the whole run); jobs[] holds its slots */
    int deals_from_lines;          /* -merge of a run with -deals: the deal seeds come from the set
                                    * lines, checked against run.deals.fnv1a */
    schedule_t sc;                 /* tables, seats, seeds and tallies (tools/arena/) */
    cJSON *run;                    /* the run's meaning, as the results header holds it */
    /* jobs and results */
    job_t *jobs;                   /* the shard's jobs (all of the run's without -shard), by slot */
    int n_jobs, next_job, done_count, resumed_count;
    int stop, sprt_decided, sprt_decided_before;
    int fault_run[MAX_ENGINES];    /* faults of each engine in its latest sets, in a row */
    char failure[600];             /* why the run stopped with an error ("" if it did not) */
    FILE *results, *records;
    arena_log_t log;
    pthread_mutex_t lock;
    double started;
    int tty;
} arena_t;

/* The operator's interrupts: 1 after a first ^C (finish the sets in flight), 2 after a second
 * or a SIGTERM (stop now). The one piece of process-wide state: a signal handler's flag. */
static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
    static const char first[] = "\npicket-arena: interrupted: finishing the sets in flight (^C again to stop now)\n";
    static const char second[] = "\npicket-arena: stopping now\n";
    int level = sig == SIGINT && interrupted == 0 ? 1 : 2;
    if (level > interrupted) {
        interrupted = (sig_atomic_t)level;
        ssize_t w = write(STDERR_FILENO, level == 1 ? first : second, level == 1 ? sizeof first - 1 : sizeof second - 1);
        (void)w;
    }
}

static int die(const char *msg)
{
    fprintf(stderr, "picket-arena: %s\n", msg);
    return 2;
}

/* ---------------------------------------------------------------- options */

/* A whole number lo..hi: decimal digits only (no sign, no space), no wrap. */
static int parse_int_arg(const char *v, long lo, long hi, long *out)
{
    uint64_t x;
    if (game_u64_token(v, (uint64_t)lo, (uint64_t)hi, &x) < 0)
        return -1;
    *out = (long)x;
    return 0;
}

/* A 64-bit seed: 0 .. 18446744073709551615, digits only. */
static int parse_seed(const char *v, uint64_t *out) { return game_u64_token(v, 0, UINT64_MAX, out); }


static int parse_sprt(arena_t *a, char **argv, int *i, int argc, char *err, size_t errlen)
{
    static const char *const keys[4] = { "elo0", "elo1", "alpha", "beta" };
    double *dst[4] = { &a->sprt.elo0, &a->sprt.elo1, &a->sprt.alpha, &a->sprt.beta };
    int seen = 0;
    /* its fields are the words with '=' that follow (-merge's files may come after them) */
    while (*i + 1 < argc && argv[*i + 1][0] != '-' && strchr(argv[*i + 1], '=')) {
        const char *f = argv[++*i];
        const char *eq = strchr(f, '=');
        int k = 0;
        while (eq && k < 4 && !(strlen(keys[k]) == (size_t)(eq - f) && !strncmp(f, keys[k], (size_t)(eq - f))))
            k++;
        if (!eq || k == 4) {
            snprintf(err, errlen, "-sprt: '%.40s' is not elo0=, elo1=, alpha= or beta= a number", f);
            return -1;
        }
        if (game_real_token(eq + 1, -2000, 2000, dst[k]) < 0) {
            snprintf(err, errlen, "-sprt: '%.40s' is not a finite number", f);
            return -1;
        }
        seen |= 1 << k;
    }
    if (seen != 15 || a->sprt.elo1 <= a->sprt.elo0 || a->sprt.alpha <= 0 || a->sprt.alpha >= 1 ||
        a->sprt.beta <= 0 || a->sprt.beta >= 1) {
        snprintf(err, errlen, "-sprt needs elo0 < elo1 and 0 < alpha, beta < 1 (e.g. elo0=0 elo1=10 alpha=0.05 beta=0.05)");
        return -1;
    }
    a->use_sprt = 1;
    return 0;
}

/* -shard I/N: digits only, 0 <= I < N <= MAX_SHARDS. */
static int parse_shard(const char *v, int *index, int *count)
{
    const char *slash = strchr(v, '/');
    char left[24];
    uint64_t i, n;
    if (!slash || (size_t)(slash - v) >= sizeof left)
        return -1;
    memcpy(left, v, (size_t)(slash - v));
    left[slash - v] = '\0';
    if (game_u64_token(left, 0, MAX_SHARDS - 1, &i) < 0 || game_u64_token(slash + 1, 1, MAX_SHARDS, &n) < 0 || i >= n)
        return -1;
    *index = (int)i;
    *count = (int)n;
    return 0;
}

/* -deals FILE: one seed a line; blank lines and # comments are skipped. */
static int load_deals(arena_t *a, char *err, size_t errlen)
{
    FILE *f = fopen(a->deals_path, "r");
    if (!f) {
        snprintf(err, errlen, "-deals: cannot read '%.200s': %s", a->deals_path, strerror(errno));
        return -1;
    }
    char *line = NULL;
    size_t cap = 0, n_cap = 0;
    ssize_t len;
    long lineno = 0;
    int rc = 0;
    while (rc == 0 && (len = getline(&line, &cap, f)) >= 0) {
        lineno++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r' || line[len - 1] == ' ' || line[len - 1] == '\t'))
            line[--len] = '\0';
        char *p = line + strspn(line, " \t");
        if (!*p || *p == '#')
            continue;
        uint64_t seed;
        if ((ssize_t)strlen(line) != len || parse_seed(p, &seed) < 0) {
            char shown[48];
            game_quote(p, 40, shown, sizeof shown);
            snprintf(err, errlen, "-deals: line %ld of '%.200s': '%s' is not a seed (0 to 18446744073709551615)", lineno,
                     a->deals_path, shown);
            rc = -1;
        } else if (a->n_deals == MAX_DEALS) {
            snprintf(err, errlen, "-deals: '%.200s' holds more than %d seeds", a->deals_path, MAX_DEALS);
            rc = -1;
        } else {
            if ((size_t)a->n_deals == n_cap) {
                size_t want = n_cap ? 2 * n_cap : 256;
                uint64_t *grown = realloc(a->deals, want * sizeof *grown);
                if (!grown) {
                    snprintf(err, errlen, "out of memory for the deals");
                    rc = -1;
                    break;
                }
                a->deals = grown, n_cap = want;
            }
            a->deals[a->n_deals++] = seed;
        }
    }
    if (rc == 0 && ferror(f)) {
        snprintf(err, errlen, "-deals: cannot read '%.200s': %s", a->deals_path, strerror(errno));
        rc = -1;
    }
    free(line);
    fclose(f);
    if (rc == 0 && a->n_deals == 0) {
        snprintf(err, errlen, "-deals: '%.200s' holds no seed", a->deals_path);
        rc = -1;
    }
    return rc;
}

/* Options that take one value, and where it goes. */
static int parse_args(arena_t *a, int argc, char **argv, char *err, size_t errlen)
{
    char *each_fields[128];
    int n_each = 0;
    /* Engine fields are kept as text first, so -each can come anywhere. */
    static char *eng_fields[MAX_ENGINES][128];
    int n_fields[MAX_ENGINES] = { 0 };
    a->sc.rounds = 10;
    a->concurrency = 1;
    a->sc.duplicate = 1;
    a->sc.seed = 1;
    a->margin = 0.1;
    a->max_faults = DEFAULT_MAX_FAULTS;
    a->shard_count = 1;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        long v;
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        char shown[48];
        game_quote(next ? next : "", 40, shown, sizeof shown);
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
                snprintf(err, errlen, "-tournament: '%s' is not gauntlet or round-robin", shown);
                return -1;
            }
        } else if (!strcmp(o, "-rounds") && next) {
            if (parse_int_arg(argv[++i], 1, 10000000, &v) < 0) {
                snprintf(err, errlen, "-rounds: '%s' is not a number from 1 to 10000000", shown);
                return -1;
            }
            a->sc.rounds = (int)v;
            a->rounds_given = 1;
        } else if (!strcmp(o, "-concurrency") && next) {
            if (parse_int_arg(argv[++i], 1, MAX_WORKERS, &v) < 0) {
                snprintf(err, errlen, "-concurrency: '%s' is not a number from 1 to %d", shown, MAX_WORKERS);
                return -1;
            }
            a->concurrency = (int)v;
        } else if (!strcmp(o, "-margin") && next) {
            if (parse_int_arg(argv[++i], 0, 600000, &v) < 0) {
                snprintf(err, errlen, "-margin: '%s' is not a number of milliseconds from 0 to 600000", shown);
                return -1;
            }
            a->margin = (double)v / 1000.0;
        } else if (!strcmp(o, "-maxfaults") && next) {
            if (parse_int_arg(argv[++i], 1, 1000000, &v) < 0) {
                snprintf(err, errlen, "-maxfaults: '%s' is not a number from 1 to 1000000", shown);
                return -1;
            }
            a->max_faults = (int)v;
        } else if (!strcmp(o, "-ratinginterval") && next) {
            if (parse_int_arg(argv[++i], 1, 100000000, &v) < 0) {
                snprintf(err, errlen, "-ratinginterval: '%s' is not a number of sets from 1 to 100000000", shown);
                return -1;
            }
            a->rating_interval = (int)v;
        } else if (!strcmp(o, "-seed") && next) {
            if (parse_seed(argv[++i], &a->sc.seed) < 0) {
                snprintf(err, errlen, "-seed: '%s' is not a number from 0 to 18446744073709551615", shown);
                return -1;
            }
        } else if (!strcmp(o, "-game") && next) {
            if (!(a->game = game_find(argv[++i]))) {
                snprintf(err, errlen, "-game: unknown game '%s'", shown);
                return -1;
            }
        } else if (!strcmp(o, "-players") && next) {
            if (parse_int_arg(argv[++i], 1, GAME_MAX_PLAYERS, &v) < 0) {
                snprintf(err, errlen, "-players: '%s' is not a number from 1 to %d", shown, GAME_MAX_PLAYERS);
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
        } else if (!strcmp(o, "-shard") && next) {
            if (parse_shard(argv[++i], &a->shard_index, &a->shard_count) < 0) {
                snprintf(err, errlen, "-shard: '%s' is not I/N, shard I of N with 0 <= I < N <= %d (e.g. 0/4)", shown, MAX_SHARDS);
                return -1;
            }
        } else if (!strcmp(o, "-records") && next) {
            a->records_path = argv[++i];
        } else if (!strcmp(o, "-results") && next) {
            a->results_path = argv[++i];
        } else if (!strcmp(o, "-log") && next) {
            a->log_path = argv[++i];
        } else if (!strcmp(o, "-deals") && next) {
            a->deals_path = argv[++i];
        } else if (!strcmp(o, "-resume")) {
            a->resume = 1;
        } else if (!strcmp(o, "-recover")) {
            a->recover = 1;
        } else if (!strcmp(o, "-no-duplicate")) {
            a->sc.duplicate = 0;
        } else if (!strcmp(o, "-quiet")) {
            a->quiet = 1;
        } else {
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
        char why[400];
        int bad = 0;
        for (int k = 0; k < n_each && !bad; k++)
            bad = engine_spec_set(s, each_fields[k], why, sizeof why) < 0;
        for (int k = 0; k < n_fields[e] && !bad; k++)
            bad = engine_spec_set(s, eng_fields[e][k], why, sizeof why) < 0;
        if (!s->name[0] && s->argc > 0 && s->argv[0]) {
            const char *base = strrchr(s->argv[0], '/');
            snprintf(s->name, sizeof s->name, "%.40s-%d", base ? base + 1 : s->argv[0], e + 1);
        }
        if (!bad)
            bad = engine_spec_check(s, why, sizeof why) < 0;
        if (bad) {
            if (s->name[0])
                snprintf(err, errlen, "engine '%s': %s", s->name, why);
            else
                snprintf(err, errlen, "engine %d: %s", e + 1, why);
            return -1;
        }
        for (int o = 0; o < e; o++)
            if (!strcmp(a->engines[o].name, s->name)) {
                snprintf(err, errlen, "two engines are named '%s': give each a name=", s->name);
                return -1;
            }
        a->names[e] = s->name;
    }
    if (a->use_sprt && a->shard_count > 1) {
        snprintf(err, errlen, "-sprt cannot go with -shard: a shard cannot stop on its own test; give -sprt to -merge");
        return -1;
    }
    if (a->shard_count > 1 && !a->results_path) {
        snprintf(err, errlen, "-shard needs -results FILE: a shard's sets are merged from its results file");
        return -1;
    }
    if (a->use_sprt && a->sc.n_engines != 2) {
        snprintf(err, errlen, "-sprt needs exactly two engines");
        return -1;
    }
    if (a->resume && !a->results_path) {
        snprintf(err, errlen, "-resume needs -results FILE");
        return -1;
    }
    if (a->deals_path) {
        if (load_deals(a, err, errlen) < 0)
            return -1;
        if (a->rounds_given && a->sc.rounds > a->n_deals) {
            snprintf(err, errlen, "-rounds %d asks for more rounds than the %d seeds of -deals '%.200s'", a->sc.rounds, a->n_deals,
                     a->deals_path);
            return -1;
        }
        if (!a->rounds_given)
            a->sc.rounds = a->n_deals < 10000000 ? a->n_deals : 10000000;
        a->sc.deals = a->deals;
    }
    if (a->records_path) {
        size_t n = strlen(a->records_path);
        a->records_one_file = n > 4 && !strcmp(a->records_path + n - 4, ".txt");
    }
    return 0;
}

/* ---------------------------------------------------------------- the run's meaning */

static cJSON *number_or_null(double v, int given) { return given ? cJSON_CreateNumber(v) : cJSON_CreateNull(); }

/* Add to an object; 1 on failure (the item is freed). */
static int put(cJSON *o, const char *key, cJSON *item)
{
    if (!item)
        return 1;
    if (!cJSON_AddItemToObject(o, key, item)) {
        cJSON_Delete(item);
        return 1;
    }
    return 0;
}

static cJSON *engine_json(const engine_spec_t *s)
{
    cJSON *o = cJSON_CreateObject(), *args = cJSON_CreateArray(), *opts = cJSON_CreateObject();
    int bad = !o || !args || !opts;
    for (int i = 1; !bad && i < s->argc; i++)
        bad = !cJSON_AddItemToArray(args, cJSON_CreateString(s->argv[i]));
    for (int i = 0; !bad && i < s->n_options; i++)
        bad = !cJSON_AddStringToObject(opts, s->opt_name[i], s->opt_value[i]);
    cJSON *tc = NULL;
    if (!bad && s->tc_base >= 0) {
        tc = cJSON_CreateObject();
        bad = !tc || !cJSON_AddNumberToObject(tc, "set", s->tc_base) || !cJSON_AddNumberToObject(tc, "inc", s->tc_inc);
    }
    if (bad) {
        cJSON_Delete(tc), cJSON_Delete(o), cJSON_Delete(args), cJSON_Delete(opts);
        return NULL;
    }
    int timeout_counts = s->tc_base < 0 && s->st <= 0;
    /* Every put runs, so each item is owned by the object or freed. */
    bad = put(o, "name", cJSON_CreateString(s->name));
    bad += put(o, "cmd", cJSON_CreateString(s->argv[0]));
    bad += put(o, "args", args);
    bad += put(o, "options", opts);
    bad += put(o, "dir", s->dir ? cJSON_CreateString(s->dir) : cJSON_CreateNull());
    bad += put(o, "tc", tc ? tc : cJSON_CreateNull());
    bad += put(o, "st", number_or_null(s->st, s->st > 0));
    bad += put(o, "iterations", number_or_null((double)s->iterations, s->iterations > 0));
    bad += put(o, "timeout", number_or_null(s->timeout, timeout_counts));
    if (bad) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

/* FNV-1a over the deal seeds: the deals list's identity in the header. */
static uint64_t deals_hash(const uint64_t *d, int n)
{
    uint64_t h = 14695981039346656037u;
    for (int i = 0; i < n; i++)
        for (int b = 0; b < 8; b++)
            h = (h ^ ((d[i] >> (8 * b)) & 0xff)) * 1099511628211u;
    return h;
}

/* A shard as the header holds it: {"index":I,"count":N}. */
static cJSON *shard_json(int index, int count)
{
    cJSON *o = cJSON_CreateObject();
    if (o && (!cJSON_AddNumberToObject(o, "index", index) || !cJSON_AddNumberToObject(o, "count", count))) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

/* What must be equal to resume a run: engines (command, arguments, folder, options, limits),
 * rules, schedule, deals, seed, margin, SPRT and shard. Without -shard there is no "shard" key,
 * so the results of a run from before shards still resume. */
static cJSON *run_json(const arena_t *a)
{
    cJSON *r = cJSON_CreateObject(), *flags = cJSON_CreateObject(), *engines = cJSON_CreateArray();
    int bad = !r || !flags || !engines;
    for (int i = 0; !bad && i < a->cfg.n_flags; i++) {
        /* name=value, a later one for the same name replacing the earlier */
        char name[48];
        const char *eq = strchr(a->cfg.flags[i], '=');
        snprintf(name, sizeof name, "%.*s", (int)(eq - a->cfg.flags[i]), a->cfg.flags[i]);
        cJSON_DeleteItemFromObjectCaseSensitive(flags, name);
        bad = !cJSON_AddStringToObject(flags, name, eq + 1);
    }
    for (int e = 0; !bad && e < a->sc.n_engines; e++) {
        cJSON *one = engine_json(&a->engines[e]);
        bad = !one || !cJSON_AddItemToArray(engines, one);
        if (bad)
            cJSON_Delete(one);
    }
    char seed[24], hash[24];
    snprintf(seed, sizeof seed, "%" PRIu64, a->sc.seed);
    cJSON *deals = cJSON_CreateNull(), *sprt = cJSON_CreateNull();
    if (a->deals) {
        cJSON_Delete(deals);
        deals = cJSON_CreateObject();
        snprintf(hash, sizeof hash, "%016" PRIx64, deals_hash(a->deals, a->sc.rounds));
        if (deals && (!cJSON_AddNumberToObject(deals, "count", a->sc.rounds) || !cJSON_AddStringToObject(deals, "fnv1a", hash)))
            bad = 1;
    }
    if (a->use_sprt) {
        cJSON_Delete(sprt);
        sprt = cJSON_CreateObject();
        if (sprt && (!cJSON_AddNumberToObject(sprt, "elo0", a->sprt.elo0) || !cJSON_AddNumberToObject(sprt, "elo1", a->sprt.elo1) ||
                     !cJSON_AddNumberToObject(sprt, "alpha", a->sprt.alpha) || !cJSON_AddNumberToObject(sprt, "beta", a->sprt.beta)))
            bad = 1;
    }
    if (bad || !r) {
        cJSON_Delete(r), cJSON_Delete(flags), cJSON_Delete(engines), cJSON_Delete(deals), cJSON_Delete(sprt);
        return NULL;
    }
    bad = put(r, "game", cJSON_CreateString(a->game->name));
    bad += put(r, "preset", cJSON_CreateString(a->cfg.preset));
    bad += put(r, "flags", flags);
    bad += put(r, "players", cJSON_CreateNumber(a->sc.players));
    bad += put(r, "tournament", cJSON_CreateString(a->sc.round_robin ? "round-robin" : "gauntlet"));
    bad += put(r, "rounds", cJSON_CreateNumber(a->sc.rounds));
    bad += put(r, "duplicate", cJSON_CreateBool(a->sc.duplicate));
    bad += put(r, "seed", cJSON_CreateString(seed));
    bad += put(r, "deals", deals);
    bad += put(r, "margin_ms", cJSON_CreateNumber(floor(a->margin * 1000 + 0.5)));
    bad += put(r, "sprt", sprt);
    bad += put(r, "engines", engines);
    if (a->shard_count > 1)
        bad += put(r, "shard", shard_json(a->shard_index, a->shard_count));
    if (bad) {
        cJSON_Delete(r);
        return NULL;
    }
    return r;
}

/* ---------------------------------------------------------------- records */

static int folder_is_empty(const char *path)
{
    DIR *d = opendir(path);
    if (!d)
        return 0;
    struct dirent *de;
    int empty = 1;
    while (empty && (de = readdir(d)))
        empty = !strcmp(de->d_name, ".") || !strcmp(de->d_name, "..");
    closedir(d);
    return empty;
}

/* Check -records before anything is written: 0, or -1 with a reason. Sets *create when the
 * folder or file must still be made. */
static int check_records(const arena_t *a, int *create, char *err, size_t errlen)
{
    struct stat st;
    const char *p = a->records_path;
    *create = 0;
    if (stat(p, &st) < 0) {
        if (errno != ENOENT) {
            snprintf(err, errlen, "-records: cannot use '%.200s': %s", p, strerror(errno));
            return -1;
        }
        *create = 1;
        return 0;
    }
    if (a->records_one_file) {
        if (!S_ISREG(st.st_mode)) {
            snprintf(err, errlen, "-records: '%.200s' is not a regular file", p);
            return -1;
        }
        if (st.st_size > 0 && !a->resume) {
            snprintf(err, errlen, "-records: '%.200s' already holds records: add -resume to continue that run, or choose another file", p);
            return -1;
        }
        return 0;
    }
    if (!S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "-records: '%.200s' is a file, not a folder (a path ending in .txt writes one file)", p);
        return -1;
    }
    if (folder_is_empty(p)) {
        *create = 1; /* run.json still to write */
        return 0;
    }
    if (!a->resume) {
        snprintf(err, errlen, "-records: the folder '%.200s' already holds records: add -resume to continue that run, or choose another folder", p);
        return -1;
    }
    /* Resuming: the folder must be this run's. */
    char path[4200];
    snprintf(path, sizeof path, "%s/run.json", p);
    FILE *f = fopen(path, "r");
    char *line = NULL;
    size_t cap = 0;
    char why[400] = "it has no run.json";
    int ok = f && getline(&line, &cap, f) > 0;
    if (ok) {
        line[strcspn(line, "\n")] = '\0';
        ok = results_compare_header(line, a->run, why, sizeof why) == 0;
    }
    free(line);
    if (f)
        fclose(f);
    if (!ok) {
        snprintf(err, errlen, "-records: the folder '%.200s' holds another run's records: %s", p, why);
        return -1;
    }
    return 0;
}

static int open_records(arena_t *a, int create, const char *header, char *err, size_t errlen)
{
    const char *p = a->records_path;
    if (a->records_one_file) {
        if (!(a->records = fopen(p, "a"))) {
            snprintf(err, errlen, "-records: cannot write '%.200s': %s", p, strerror(errno));
            return -1;
        }
        return 0;
    }
    if (!create)
        return 0;
    if (mkdir(p, 0777) < 0 && errno != EEXIST) {
        snprintf(err, errlen, "-records: cannot create the folder '%.200s': %s", p, strerror(errno));
        return -1;
    }
    char path[4200];
    snprintf(path, sizeof path, "%s/run.json", p);
    FILE *f = fopen(path, "w");
    if (!f || results_write_text(f, header) < 0 || fclose(f) != 0) {
        snprintf(err, errlen, "-records: cannot write '%.200s': %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------- fail fast */

/* Start every engine once, handshake and set its options, before any set or file. */
static int probe_engines(arena_t *a, char *err, size_t errlen)
{
    for (int e = 0; e < a->sc.n_engines; e++) {
        engine_proc_t p;
        memset(&p, 0, sizeof p);
        p.log = a->log.f ? &a->log : NULL;
        p.instance = 0;
        p.abort = &interrupted;
        char why[400];
        if (!a->quiet && a->tty)
            fprintf(stderr, "\rpicket-arena: checking engine %d of %d (%s)   ", e + 1, a->sc.n_engines, a->names[e]);
        int rc = engine_proc_start(&p, &a->engines[e], a->game->name, why, sizeof why);
        engine_proc_stop(&p);
        if (rc < 0) {
            if (!a->quiet && a->tty)
                fputc('\n', stderr);
            snprintf(err, errlen, "engine '%s': %s", a->names[e], interrupted ? "interrupted" : why);
            return -1;
        }
    }
    if (!a->quiet && a->tty)
        fprintf(stderr, "\r%60s\r", "");
    return 0;
}

static void format_eta(double seconds, char *buf, size_t len)
{
    if (seconds < 0 || !isfinite(seconds))
        snprintf(buf, len, "?");
    else
        snprintf(buf, len, "%d:%02d:%02d", (int)(seconds / 3600), (int)fmod(seconds / 60, 60), (int)fmod(seconds, 60));
}

/* ---------------------------------------------------------------- progress */

/* The SPRT's log-likelihood ratio now, from the counts as they stand. */
static double sprt_llr(const arena_t *a) { return stats_sprt_llr(&a->sc.pair_counts[0], &a->sprt); }

static void progress(arena_t *a, int final)
{
    if (a->quiet)
        return;
    score_counts_t c = schedule_engine_counts(&a->sc, 0);
    score_summary_t sm;
    stats_summarize(&c, &sm);
    double elapsed = arena_now() - a->started;
    int played = a->done_count - a->resumed_count;
    double eta = played > 0 ? elapsed / played * (a->n_jobs - a->done_count) : -1;
    char eta_s[32];
    format_eta(eta, eta_s, sizeof eta_s);
    char sprt_s[64] = "";
    if (a->use_sprt)
        snprintf(sprt_s, sizeof sprt_s, "  LLR %.2f [%.2f, %.2f]", sprt_llr(a), stats_sprt_lower(&a->sprt), stats_sprt_upper(&a->sprt));
    char elo_s[64] = "Elo ?";
    if (a->sc.players > 2) {
        /* More seats: the first engine's share of the others it finished ahead of, and its rank. */
        double n = a->sc.sets[0] ? (double)a->sc.sets[0] : 1;
        sm.score = a->sc.score_sum[0] / n;
        snprintf(elo_s, sizeof elo_s, "mean rank %.2f", a->sc.rank_sum[0] / n + 1);
    } else if (sm.units > 0) {
        char elo[40];
        stats_format_elo(&sm, elo, sizeof elo);
        snprintf(elo_s, sizeof elo_s, "Elo %s", elo);
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

/* The run stops with an error (lock held): the first reason is kept. */
static void fail_run(arena_t *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail_run(arena_t *a, const char *fmt, ...)
{
    if (!a->failure[0]) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(a->failure, sizeof a->failure, fmt, ap);
        va_end(ap);
    }
    a->stop = 1;
}

/* A set's faults, on the console as they happen, and the rule of -maxfaults (lock held). */
static void note_faults(arena_t *a, const set_line_t *line)
{
    const set_result_t *r = &line->result;
    for (int seat = 0; seat < r->players; seat++) {
        int e = line->engine[seat];
        if (seat != r->fault_seat) {
            a->fault_run[e] = 0;
            continue;
        }
        a->fault_run[e]++;
        fprintf(stderr, "%spicket-arena: round %d pairing %d leg %d: %s loses by %s: %s\n", a->tty && !a->quiet ? "\n" : "",
                line->key.round, line->key.pairing, line->key.leg, a->names[e], END_REASON_NAMES[r->reason], r->detail);
        if (a->recover)
            continue;
        if (r->reason == END_START)
            fail_run(a, "engine '%s' cannot be restarted (%s); stopping (-recover plays on)", a->names[e], r->detail);
        else if (a->fault_run[e] >= a->max_faults)
            fail_run(a, "engine '%s' faulted in %d sets in a row (last: %s); stopping (-maxfaults N, or -recover to play on)",
                     a->names[e], a->fault_run[e], END_REASON_NAMES[r->reason]);
    }
}

static void record_path(const arena_t *a, set_key_t k, char *buf, size_t len)
{
    snprintf(buf, len, "%s/round-%06d-pairing-%03d-leg-%d.txt", a->records_path, k.round, k.pairing, k.leg);
}

/* Where a set's record goes while it is played: its own file, or memory for the run's file. */
typedef struct record_out {
    FILE *f;
    char *buf;
    size_t size;
    char path[4200];
} record_out_t;

static void record_open(const arena_t *a, set_key_t k, record_out_t *r)
{
    memset(r, 0, sizeof *r);
    if (!a->records_path)
        return;
    if (a->records_one_file) {
        r->f = open_memstream(&r->buf, &r->size);
        snprintf(r->path, sizeof r->path, "%s", a->records_path);
    } else {
        record_path(a, k, r->path, sizeof r->path);
        r->f = fopen(r->path, "w");
    }
}

/* Finish a set's record: kept (keep) or thrown away. 0, or -1 on a write error (lock held). */
static int record_close(arena_t *a, record_out_t *r, int keep)
{
    if (!a->records_path)
        return 0;
    int bad = !r->f;
    if (r->f && fclose(r->f) != 0)
        bad = 1;
    if (a->records_one_file) {
        if (keep && !bad && r->size > 0)
            bad = fwrite(r->buf, 1, r->size, a->records) != r->size || fputc('\n', a->records) == EOF || fflush(a->records) != 0;
        free(r->buf);
    } else if (!keep) {
        unlink(r->path);
    }
    return keep && bad ? -1 : 0;
}

static void *worker_main(void *arg)
{
    worker_t *w = arg;
    arena_t *a = w->a;
    for (int e = 0; e < a->sc.n_engines; e++) {
        w->procs[e].log = a->log.f ? &a->log : NULL;
        w->procs[e].instance = w->id;
        w->procs[e].abort = &interrupted;
    }
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

        set_line_t line;
        memset(&line, 0, sizeof line);
        line.key = job->key;
        schedule_seats(&a->sc, job->key, line.engine);
        set_setup_t setup;
        memset(&setup, 0, sizeof setup);
        setup.game = a->game;
        setup.cfg = a->cfg;
        setup.cfg.deal_seed = line.deal_seed = schedule_deal_seed(&a->sc, job->key.round);
        setup.margin = a->margin;
        for (int seat = 0; seat < a->sc.players; seat++) {
            engine_proc_t *p = &w->procs[line.engine[seat]];
            p->spec = &a->engines[line.engine[seat]];
            setup.engine[seat] = p;
            setup.engine_seed[seat] = line.engine_seed[seat] = schedule_engine_seed(&a->sc, job->key, seat);
        }
        record_out_t rec;
        record_open(a, job->key, &rec);
        setup.record = rec.f;
        snprintf(setup.record_note, sizeof setup.record_note, "set pairing %d round %d leg %d", job->key.pairing, job->key.round,
                 job->key.leg);
        arena_play_set(&setup, &line.result);
        int keep = line.result.reason != END_INTERRUPTED;

        pthread_mutex_lock(&a->lock);
        if (record_close(a, &rec, keep) < 0)
            fail_run(a, "cannot write the records '%.200s': %s", rec.path, strerror(errno));
        if (!keep) {
            pthread_mutex_unlock(&a->lock);
            break; /* a set cut short by the operator is not a result: -resume plays it again */
        }
        if (a->results && results_write_set(a->results, &line, a->names, rec.path[0] ? rec.path : NULL) < 0)
            fail_run(a, "cannot write the results file '%.200s': %s", a->results_path, strerror(errno));
        job->done = 1;
        a->done_count++;
        schedule_tally(&a->sc, &line);
        note_faults(a, &line);
        if (a->use_sprt && !a->sprt_decided) {
            double llr = sprt_llr(a);
            if (llr >= stats_sprt_upper(&a->sprt) || llr <= stats_sprt_lower(&a->sprt)) {
                a->sprt_decided = 1;
                a->stop = 1;
            }
        }
        int every = a->rating_interval > 0 ? a->rating_interval : a->n_jobs / 20 > 0 ? a->n_jobs / 20 : 1;
        if (a->tty || a->done_count % every == 0)
            progress(a, 0);
        pthread_mutex_unlock(&a->lock);
    }
    for (int e = 0; e < a->sc.n_engines; e++)
        engine_proc_stop(&w->procs[e]);
    return NULL;
}

static void set_name(set_key_t k, char *buf, size_t len)
{
    snprintf(buf, len, "pairing %d round %d leg %d", k.pairing, k.round, k.leg);
}

/* A set line read back (-resume, -merge): one of this schedule's sets, in the shard being read
 * (a->shard_index of a->shard_count), with its engines and seeds. Its job number, or -1 with a
 * reason. */
static int check_set(const arena_t *a, const set_line_t *s, char *why, size_t whylen)
{
    char name[96];
    set_name(s->key, name, sizeof name);
    if (!schedule_has(&a->sc, s->key) || s->result.players != a->sc.players) {
        snprintf(why, whylen, "%s at %d seats is not a set of this run", name, s->result.players);
        return -1;
    }
    int job = schedule_job_index(&a->sc, s->key), in = schedule_shard_of(&a->sc, job, a->shard_count);
    if (in != a->shard_index) {
        snprintf(why, whylen, "%s is not a set of shard %d/%d (it is in shard %d)", name, a->shard_index, a->shard_count, in);
        return -1;
    }
    int engine[GAME_MAX_PLAYERS];
    schedule_seats(&a->sc, s->key, engine);
    for (int i = 0; i < a->sc.players; i++)
        if (engine[i] != s->engine[i] || s->engine_seed[i] != schedule_engine_seed(&a->sc, s->key, i)) {
            snprintf(why, whylen, "seat %d of %s is not this run's engine or seed", i, name);
            return -1;
        }
    if (!a->deals_from_lines && s->deal_seed != schedule_deal_seed(&a->sc, s->key.round)) {
        snprintf(why, whylen, "round %d was dealt with another seed", s->key.round);
        return -1;
    }
    return job;
}

static int appears_twice(const set_line_t *s, char *why, size_t whylen)
{
    char name[96];
    set_name(s->key, name, sizeof name);
    snprintf(why, whylen, "%s appears twice", name);
    return -1;
}

/* A set line of the results file being resumed. */
static int on_resumed(void *data, const set_line_t *s, char *why, size_t whylen)
{
    arena_t *a = data;
    int job = check_set(a, s, why, whylen);
    if (job < 0)
        return -1;
    job_t *j = &a->jobs[schedule_shard_slot(&a->sc, job, a->shard_count)];
    if (j->done)
        return appears_twice(s, why, whylen);
    j->done = 1;
    a->done_count++;
    a->resumed_count++;
    schedule_tally(&a->sc, s);
    return 0;
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
    printf("\nPairwise (row finishing ahead of column, a tie half, over %s: score [95%% interval])\n  %-20s",
           a->sc.duplicate ? "rotation groups" : "sets", "");
    for (int e = 0; e < a->sc.n_engines; e++)
        printf(" %21.21s", a->names[e]);
    printf("\n");
    for (int r = 0; r < a->sc.n_engines; r++) {
        printf("  %-20s", a->names[r]);
        for (int c = 0; c < a->sc.n_engines; c++) {
            double mean, lo, hi;
            if (schedule_pairwise(&a->sc, r, c, &mean, &lo, &hi) == 0)
                printf(" %21s", r == c ? "" : "-");
            else
                printf(" %5.1f%% [%5.1f, %5.1f]", 100.0 * mean, 100.0 * lo, 100.0 * hi);
        }
        printf("\n");
    }
}

/* Standings of a two-seat game: wins, losses, Elo over pairs; the crosstable; the pairs. */
static void report_pairs(const arena_t *a, const int *order, const double *score)
{
    printf("  %-3s %-20s %6s %6s %6s %8s %7s %20s %6s\n", "#", "engine", "sets", "wins", "losses", "score", a->sc.duplicate ? "pairs" : "units",
           "Elo [95% interval]", "LOS");
    for (int r = 0; r < a->sc.n_engines; r++) {
        int e = order[r];
        score_counts_t c = schedule_engine_counts(&a->sc, e);
        score_summary_t sm;
        stats_summarize(&c, &sm);
        char elo[40];
        if (sm.units > 0)
            stats_format_elo(&sm, elo, sizeof elo);
        else
            snprintf(elo, sizeof elo, "%20s", "-");
        printf("  %-3d %-20s %6ld %6ld %6ld %7.1f%% %7ld %20s %5.1f%%\n", r + 1, a->names[e], a->sc.sets[e],
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

/* The standings, tables and faults of the sets done: the same for a run, a shard and a merge. */
static void report_standings(const arena_t *a)
{
    char shard[48] = "";
    if (a->shard_count > 1)
        snprintf(shard, sizeof shard, ", shard %d/%d", a->shard_index, a->shard_count);
    const char *early = a->done_count < a->n_jobs ? ", stopped early" : "";
    if (a->sc.players == 2)
        printf("\nStandings (%s, %s, %d engines, %d sets%s%s)\n", a->sc.round_robin ? "round-robin" : "gauntlet",
               a->sc.duplicate ? "duplicate pairs" : "single sets", a->sc.n_engines, a->done_count, shard, early);
    else
        printf("\nStandings (%s, %s, %s at %d seats, %d engines, %d sets%s%s)\n", a->sc.round_robin ? "round-robin" : "gauntlet",
               a->sc.duplicate ? "seat rotation" : "single sets", a->game->name, a->sc.players, a->sc.n_engines, a->done_count,
               shard, early);
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
}

/* The SPRT's verdict from the final counts: sets that were in flight when it decided count too. */
static void report_sprt(const arena_t *a)
{
    if (!a->use_sprt)
        return;
    double llr = sprt_llr(a);
    const char *verdict = llr >= stats_sprt_upper(&a->sprt)   ? "H1 accepted (elo1)"
                          : llr <= stats_sprt_lower(&a->sprt) ? "H0 accepted (elo0)"
                                                              : "no decision yet";
    printf("SPRT elo0=%g elo1=%g alpha=%g beta=%g: LLR %.3f, bounds [%.3f, %.3f]: %s\n", a->sprt.elo0, a->sprt.elo1,
           a->sprt.alpha, a->sprt.beta, llr, stats_sprt_lower(&a->sprt), stats_sprt_upper(&a->sprt), verdict);
}

/* The final report of a run: standings, the time it took, the SPRT. */
static void report(const arena_t *a)
{
    report_standings(a);
    struct rusage self, kids;
    getrusage(RUSAGE_SELF, &self);
    getrusage(RUSAGE_CHILDREN, &kids);
    double wall = arena_now() - a->started;
    double own = (double)self.ru_utime.tv_sec + (double)self.ru_utime.tv_usec * 1e-6 + (double)self.ru_stime.tv_sec +
                 (double)self.ru_stime.tv_usec * 1e-6;
    double eng = (double)kids.ru_utime.tv_sec + (double)kids.ru_utime.tv_usec * 1e-6 + (double)kids.ru_stime.tv_sec +
                 (double)kids.ru_stime.tv_usec * 1e-6;
    int played = a->done_count - a->resumed_count;
    printf("Time: %d sets in %.2f s wall (%.1f sets/s); arena CPU %.2f s (%.0f%% of wall), engines CPU %.2f s\n", played,
           wall, wall > 0 ? played / wall : 0.0, own, wall > 0 ? 100.0 * own / wall : 0.0, eng);
    report_sprt(a);
}

static void free_arena(arena_t *a)
{
    free(a->jobs);
    schedule_free(&a->sc);
    cJSON_Delete(a->run);
    free(a->deals);
    for (int e = 0; e < a->sc.n_engines; e++)
        engine_spec_free(&a->engines[e]);
}

/* ---------------------------------------------------------------- merge */

/* One set of a merge, as much as its tally needs: the standings of a merge are tallied in the
 * schedule's order, so they are those of an unsharded run whatever order the files come in. */
typedef struct merged_set {
    int scores[GAME_MAX_PLAYERS];
    int8_t rank[GAME_MAX_PLAYERS];
    uint8_t reason, present;
} merged_set_t;

typedef struct merge {
    arena_t *a;
    int n_files;
    const char **files;
    cJSON **runs;               /* each file's run description, its "shard" taken out */
    int *index;                 /* each file's shard index */
    int count;                  /* the shards' count (1: one file holds the whole run) */
    merged_set_t *sets;         /* by job */
    unsigned char *dealt;       /* deals_from_lines: a->deals[round] is known */
} merge_t;

/* "shard I/N", or "the whole run" for a file of a run without -shard. */
static void shard_name(int index, int count, char *buf, size_t len)
{
    if (count > 1)
        snprintf(buf, len, "shard %d/%d", index, count);
    else
        snprintf(buf, len, "the whole run");
}

/* Take the shard out of a run description: 0 with *index, *count (0 and 1 without one), or -1. */
static int take_shard(cJSON *run, int *index, int *count)
{
    cJSON *shard = cJSON_DetachItemFromObjectCaseSensitive(run, "shard");
    *index = 0, *count = 1;
    int ok = !shard || (!results_get_int(shard, "count", 2, MAX_SHARDS, count) &&
                        !results_get_int(shard, "index", 0, *count - 1, index) && cJSON_GetArraySize(shard) == 2);
    cJSON_Delete(shard);
    return ok ? 0 : -1;
}

/* The schedule of a run from its description (the first file's): engines' names, game, seats,
 * tournament, rounds, rotation, seed and deals. 0, or -1 with a reason. */
static int merge_schedule(arena_t *a, const cJSON *run, const char *path, char *err, size_t errlen)
{
    const cJSON *game = cJSON_GetObjectItemCaseSensitive(run, "game");
    const cJSON *tournament = cJSON_GetObjectItemCaseSensitive(run, "tournament");
    const cJSON *duplicate = cJSON_GetObjectItemCaseSensitive(run, "duplicate");
    const cJSON *seed = cJSON_GetObjectItemCaseSensitive(run, "seed");
    const cJSON *deals = cJSON_GetObjectItemCaseSensitive(run, "deals");
    const cJSON *engines = cJSON_GetObjectItemCaseSensitive(run, "engines");
    const char *bad = NULL;
    if (!cJSON_IsString(game) || !(a->game = game_find(game->valuestring)))
        bad = "game";
    else if (results_get_int(run, "players", 2, GAME_MAX_PLAYERS, &a->sc.players) < 0)
        bad = "players";
    else if (results_get_int(run, "rounds", 1, 10000000, &a->sc.rounds) < 0)
        bad = "rounds";
    else if (!cJSON_IsString(tournament) || (strcmp(tournament->valuestring, "gauntlet") && strcmp(tournament->valuestring, "round-robin")))
        bad = "tournament";
    else if (!cJSON_IsBool(duplicate))
        bad = "duplicate";
    else if (!cJSON_IsString(seed) || parse_seed(seed->valuestring, &a->sc.seed) < 0)
        bad = "seed";
    else if (!cJSON_IsArray(engines) || cJSON_GetArraySize(engines) < a->sc.players || cJSON_GetArraySize(engines) > MAX_ENGINES)
        bad = "engines";
    else if (!cJSON_IsNull(deals) && (results_get_int(deals, "count", a->sc.rounds, a->sc.rounds, &a->n_deals) < 0 ||
                                      !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(deals, "fnv1a"))))
        bad = "deals";
    for (int e = 0; !bad && e < cJSON_GetArraySize(engines); e++) {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(engines, e), "name");
        if (!cJSON_IsString(name))
            bad = "engines";
        else
            a->names[a->sc.n_engines++] = name->valuestring;
    }
    if (bad) {
        snprintf(err, errlen, "'%.200s': the run's %s is missing or not one this picket-arena plays", path, bad);
        return -1;
    }
    a->sc.round_robin = !strcmp(tournament->valuestring, "round-robin");
    a->sc.duplicate = cJSON_IsTrue(duplicate);
    a->deals_from_lines = !cJSON_IsNull(deals);
    if (a->deals_from_lines && !(a->deals = calloc((size_t)a->n_deals, sizeof *a->deals))) {
        snprintf(err, errlen, "out of memory for the deals");
        return -1;
    }
    return schedule_build(&a->sc, err, errlen);
}

/* Every file's header: one run, each shard 0..N-1 exactly once. 0, or -1 with a reason. */
static int merge_headers(merge_t *m, char *err, size_t errlen)
{
    char why[600], here[300], there[300], sa[48], sb[48];
    for (int k = 0; k < m->n_files; k++) {
        int count;
        if (!(m->runs[k] = results_read_run(m->files[k], err, errlen)))
            return -1;
        if (take_shard(m->runs[k], &m->index[k], &count) < 0) {
            snprintf(err, errlen, "'%.200s': the run's shard is not {\"index\":I,\"count\":N} with 0 <= I < N <= %d", m->files[k],
                     MAX_SHARDS);
            return -1;
        }
        if (k == 0)
            m->count = count;
        snprintf(there, sizeof there, "in '%.200s'", m->files[k]);
        snprintf(here, sizeof here, "in '%.200s'", m->files[0]);
        if (results_compare_run(m->runs[k], m->runs[0], there, here, why, sizeof why) < 0) {
            snprintf(err, errlen, "'%.200s' and '%.200s' are not shards of one run: %s", m->files[0], m->files[k], why);
            return -1;
        }
        if (count != m->count) {
            shard_name(m->index[0], m->count, sa, sizeof sa), shard_name(m->index[k], count, sb, sizeof sb);
            snprintf(err, errlen, "'%.200s' holds %s, '%.200s' %s: not shards of one run", m->files[0], sa, m->files[k], sb);
            return -1;
        }
    }
    int *owner = malloc((size_t)m->count * sizeof *owner);
    if (!owner) {
        snprintf(err, errlen, "out of memory for the shards");
        return -1;
    }
    for (int i = 0; i < m->count; i++)
        owner[i] = -1;
    int rc = 0;
    for (int k = 0; rc == 0 && k < m->n_files; k++) {
        int *o = &owner[m->index[k]];
        if (*o >= 0) {
            shard_name(m->index[k], m->count, sa, sizeof sa);
            snprintf(err, errlen, "%s is given twice: '%.200s' and '%.200s'", sa, m->files[*o], m->files[k]);
            rc = -1;
        }
        *o = k;
    }
    for (int i = 0; rc == 0 && i < m->count; i++)
        if (owner[i] < 0) {
            snprintf(err, errlen, "shard %d/%d is missing: no file given holds it", i, m->count);
            rc = -1;
        }
    free(owner);
    return rc;
}

/* A set line of a file being merged (a->shard_index is that file's shard). */
static int on_merged(void *data, const set_line_t *s, char *why, size_t whylen)
{
    merge_t *m = data;
    arena_t *a = m->a;
    int job = check_set(a, s, why, whylen);
    if (job < 0)
        return -1;
    merged_set_t *ms = &m->sets[job];
    if (ms->present)
        return appears_twice(s, why, whylen);
    int r = s->key.round;
    if (a->deals_from_lines) {
        if (m->dealt[r] && a->deals[r] != s->deal_seed) {
            snprintf(why, whylen, "round %d was dealt with another seed than in an earlier set", r);
            return -1;
        }
        a->deals[r] = s->deal_seed;
        m->dealt[r] = 1;
    }
    ms->present = 1;
    ms->reason = (uint8_t)s->result.reason;
    for (int i = 0; i < s->result.players && i < GAME_MAX_PLAYERS; i++) {
        ms->rank[i] = (int8_t)s->result.rank[i];
        ms->scores[i] = s->result.scores[i];
    }
    return 0;
}

/* Every set of every file: in its file's shard, each once, none missing, then tallied in the
 * schedule's order. Files are only read. 0, or -1 with a reason. */
static int merge_sets(merge_t *m, char *err, size_t errlen)
{
    arena_t *a = m->a;
    char sa[48];
    a->shard_count = m->count;
    for (int k = 0; k < m->n_files; k++) {
        long torn;
        a->shard_index = m->index[k];
        if (results_read(m->files[k], &torn, on_merged, m, err, errlen) < 0)
            return -1;
        if (torn) {
            shard_name(m->index[k], m->count, sa, sizeof sa);
            snprintf(err, errlen, "%s in '%.200s' is incomplete: its last line (line %ld) is torn, as by a kill during a write; "
                     "complete it with -resume", sa, m->files[k], torn);
            return -1;
        }
    }
    for (int job = 0; job < a->sc.n_jobs; job++) {
        if (m->sets[job].present)
            continue;
        int shard = schedule_shard_of(&a->sc, job, m->count), k = 0, held = 0;
        while (m->index[k] != shard)
            k++;
        for (int j = 0; j < a->sc.n_jobs; j++)
            held += m->sets[j].present && schedule_shard_of(&a->sc, j, m->count) == shard;
        char name[96];
        set_name(schedule_job_key(&a->sc, job), name, sizeof name);
        shard_name(shard, m->count, sa, sizeof sa);
        /* A run with an SPRT (never a shard: -shard refuses -sprt) may have stopped when its test
         * decided: -resume would play nothing more. */
        int sprt_run = !cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(m->runs[0], "sprt"));
        snprintf(err, errlen, "%s in '%.200s' is incomplete: it lacks %s (it holds %d of its %d sets); %s", sa, m->files[k], name, held,
                 schedule_shard_jobs(&a->sc, shard, m->count),
                 sprt_run ? "its SPRT may have stopped it, and a merge needs every set (its own report has its standings)"
                          : "complete it with -resume");
        return -1;
    }
    if (a->deals_from_lines) {
        char hash[24];
        snprintf(hash, sizeof hash, "%016" PRIx64, deals_hash(a->deals, a->n_deals));
        const cJSON *want = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(m->runs[0], "deals"), "fnv1a");
        if (strcmp(hash, want->valuestring)) {
            snprintf(err, errlen, "the sets' deal seeds are not those of the run's -deals (run.deals.fnv1a %.20s, the sets' %s)",
                     want->valuestring, hash);
            return -1;
        }
    }
    for (int job = 0; job < a->sc.n_jobs; job++) {
        const merged_set_t *ms = &m->sets[job];
        set_line_t line;
        memset(&line, 0, sizeof line);
        line.key = schedule_job_key(&a->sc, job);
        schedule_seats(&a->sc, line.key, line.engine);
        line.result.players = a->sc.players;
        line.result.reason = (end_reason_t)ms->reason;
        for (int i = 0; i < a->sc.players && i < GAME_MAX_PLAYERS; i++) {
            line.result.rank[i] = ms->rank[i];
            line.result.scores[i] = ms->scores[i];
        }
        schedule_tally(&a->sc, &line);
    }
    a->done_count = a->n_jobs = a->sc.n_jobs;
    a->shard_index = 0, a->shard_count = 1;
    return 0;
}

/* picket-arena -merge FILE... [-sprt ...] [-quiet]: the standings of a run played in shards.
 * Exit 0 merged, 1 files that cannot be read or do not merge, 2 a bad option. */
static int merge_main(arena_t *a, int argc, char **argv)
{
    char err[1200];
    merge_t m;
    memset(&m, 0, sizeof m);
    m.a = a;
    int rc = 2;
    if (!(m.files = calloc((size_t)argc, sizeof *m.files)) || !(m.runs = calloc((size_t)argc, sizeof *m.runs)) ||
        !(m.index = calloc((size_t)argc, sizeof *m.index))) {
        snprintf(err, sizeof err, "out of memory");
        goto done;
    }
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-merge"))
            continue;
        if (!strcmp(argv[i], "-quiet"))
            a->quiet = 1;
        else if (!strcmp(argv[i], "-sprt")) {
            if (parse_sprt(a, argv, &i, argc, err, sizeof err) < 0)
                goto done;
        } else if (argv[i][0] == '-') {
            char shown[48];
            game_quote(argv[i], 40, shown, sizeof shown);
            snprintf(err, sizeof err, "-merge takes results files, -sprt and -quiet, not '%s' (see --help)", shown);
            goto done;
        } else
            m.files[m.n_files++] = argv[i];
    }
    if (m.n_files == 0) {
        snprintf(err, sizeof err, "-merge needs the results files of the shards (picket-arena -merge FILE...)");
        goto done;
    }
    rc = 1;
    if (merge_headers(&m, err, sizeof err) < 0 || merge_schedule(a, m.runs[0], m.files[0], err, sizeof err) < 0)
        goto done;
    if (a->use_sprt && (a->sc.players != 2 || a->sc.n_engines != 2)) {
        snprintf(err, sizeof err, "-sprt needs a two-seat game with exactly two engines; '%.200s' holds %d engines at %d seats",
                 m.files[0], a->sc.n_engines, a->sc.players);
        rc = 2;
        goto done;
    }
    if (!(m.sets = calloc((size_t)a->sc.n_jobs + 1, sizeof *m.sets)) || !(m.dealt = calloc((size_t)a->sc.rounds, 1))) {
        snprintf(err, sizeof err, "out of memory for the sets");
        goto done;
    }
    if (merge_sets(&m, err, sizeof err) < 0)
        goto done;
    report_standings(a);
    printf("Merged: %d sets from %d file%s:", a->done_count, m.n_files, m.n_files > 1 ? "s" : "");
    for (int k = 0; k < m.n_files; k++)
        printf(" %s", m.files[k]);
    printf("\n");
    report_sprt(a);
    rc = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        snprintf(err, sizeof err, "cannot write the standings: %s", strerror(errno));
        rc = 1;
    } else if (!a->quiet) {
        fprintf(stderr, "picket-arena: merged %d of %d shards: complete and disjoint\n", m.n_files, m.count);
    }
done:
    if (rc != 0)
        fprintf(stderr, "picket-arena: %s\n", err);
    for (int k = 1; m.runs && k < m.n_files; k++)
        cJSON_Delete(m.runs[k]);
    a->run = m.runs ? m.runs[0] : NULL; /* the names point into it: freed with the arena */
    free_arena(a);
    free(m.files), free(m.runs), free(m.index), free(m.sets), free(m.dealt);
    return rc;
}

/* ---------------------------------------------------------------- main */

/* Everything up to the first set: options, rules, schedule, files checked, engines checked,
 * then files opened. 0, or -1 with a reason (nothing written). */
static int prepare(arena_t *a, int argc, char **argv, char *err, size_t errlen)
{
    a->game = game_find("picket");
    if (parse_args(a, argc, argv, err, errlen) < 0)
        return -1;
    /* The rules and the number of seats must build before any engine starts. */
    a->cfg.players = a->players_asked;
    void *probe = calloc(1, a->game->state_size);
    if (!probe) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (a->game->init(probe, &a->cfg, err, errlen) < 0) {
        free(probe);
        return -1;
    }
    a->sc.players = a->cfg.players = a->game->num_players(probe);
    free(probe);
    if (a->sc.players < 2 || a->sc.players > a->sc.n_engines) {
        snprintf(err, errlen, "%s at %d seats needs at least %d engines (-engine), not %d", a->game->name, a->sc.players,
                 a->sc.players < 2 ? 2 : a->sc.players, a->sc.n_engines);
        return -1;
    }
    if (a->use_sprt && a->sc.players != 2) {
        snprintf(err, errlen, "-sprt needs a two-seat game");
        return -1;
    }
    if (!a->cfg.preset[0] && a->game == game_find("picket"))
        snprintf(a->cfg.preset, sizeof a->cfg.preset, "cotgrave");
    if (schedule_build(&a->sc, err, errlen) < 0)
        return -1;
    a->n_jobs = schedule_shard_jobs(&a->sc, a->shard_index, a->shard_count);
    /* one more than the jobs: a shard may hold none (more shards than rotation groups) */
    if (!(a->jobs = calloc((size_t)a->n_jobs + 1, sizeof *a->jobs)) || !(a->run = run_json(a))) {
        snprintf(err, errlen, "out of memory for the schedule");
        return -1;
    }
    for (int k = 0; k < a->n_jobs; k++)
        a->jobs[k].key = schedule_job_key(&a->sc, schedule_shard_job(&a->sc, a->shard_index, a->shard_count, k));
    /* The files: checked now, written only once the engines have passed. */
    struct stat st;
    if (a->results_path && !a->resume && stat(a->results_path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
        snprintf(err, errlen, "'%.200s' already holds results: add -resume to continue that run, or choose another file", a->results_path);
        return -1;
    }
    /* -resume of a run killed before its first line was written starts it afresh. */
    if (a->resume && (stat(a->results_path, &st) < 0 || (S_ISREG(st.st_mode) && st.st_size == 0)))
        a->resume_fresh = 1;
    if (a->results_path && a->resume && !a->resume_fresh && results_load(a->results_path, a->run, on_resumed, a, err, errlen) < 0)
        return -1;
    int create_records = 0;
    if (a->records_path && check_records(a, &create_records, err, errlen) < 0)
        return -1;
    if (a->log_path) {
        if (!(a->log.f = fopen(a->log_path, "a"))) {
            snprintf(err, errlen, "-log: cannot write '%.200s': %s", a->log_path, strerror(errno));
            return -1;
        }
        pthread_mutex_init(&a->log.lock, NULL);
        a->log.t0 = a->started;
    }
    if (probe_engines(a, err, errlen) < 0)
        return -1;
    char *header = results_header_text(a->run);
    if (!header) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int rc = 0;
    if (a->results_path) {
        int fresh = !a->resume || a->resume_fresh;
        a->results = fopen(a->results_path, fresh ? "w" : "a");
        if (!a->results || (fresh && results_write_text(a->results, header) < 0)) {
            snprintf(err, errlen, "cannot write the results file '%.200s': %s", a->results_path, strerror(errno));
            rc = -1;
        }
    }
    if (rc == 0 && a->records_path && open_records(a, create_records, header, err, errlen) < 0)
        rc = -1;
    cJSON_free(header);
    return rc;
}

int main(int argc, char **argv)
{
    int info = arena_cli_help(argc, argv, USAGE, "picket-arena " PICKET_VERSION);
    if (info >= 0)
        return info;
    static arena_t arena;
    arena_t *a = &arena;
    char err[1024];
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-merge"))
            return merge_main(a, argc, argv);
    /* The signals first: a ^C during the engines' check stops it cleanly. */
    arena_cli_signals(on_signal);
    a->tty = isatty(STDERR_FILENO);
    a->started = arena_now();
    pthread_mutex_init(&a->lock, NULL);
    if (prepare(a, argc, argv, err, sizeof err) < 0) {
        if (a->log.f)
            fclose(a->log.f);
        free_arena(a);
        return interrupted ? 130 : die(err);
    }
    if (a->use_sprt) {
        double llr = sprt_llr(a);
        if (llr >= stats_sprt_upper(&a->sprt) || llr <= stats_sprt_lower(&a->sprt))
            a->sprt_decided = a->sprt_decided_before = a->stop = 1;
    }
    if (!a->quiet) {
        char shard[64] = "";
        if (a->shard_count > 1)
            snprintf(shard, sizeof shard, " of the %d of shard %d/%d", a->n_jobs, a->shard_index, a->shard_count);
        if (a->sprt_decided_before)
            fprintf(stderr, "picket-arena: the SPRT of this run has already decided: nothing to play\n");
        else
            fprintf(stderr, "picket-arena: %d engines, %d tables, %d sets to play%s%s, concurrency %d\n", a->sc.n_engines,
                    a->sc.n_tables, a->n_jobs - a->done_count, shard, a->resumed_count ? " (resumed)" : "", a->concurrency);
    }
    worker_t *workers = calloc((size_t)a->concurrency, sizeof *workers);
    pthread_t *threads = calloc((size_t)a->concurrency, sizeof *threads);
    if (!workers || !threads) {
        free(workers), free(threads), free_arena(a);
        return die("out of memory for the workers");
    }
    int started = 0;
    for (int i = 0; i < a->concurrency; i++) {
        workers[i].a = a;
        workers[i].id = i;
        if (pthread_create(&threads[i], NULL, worker_main, &workers[i]) == 0)
            started++;
        else
            break;
    }
    if (!started) {
        free(workers), free(threads), free_arena(a);
        return die("cannot start a worker thread");
    }
    for (int i = 0; i < started; i++)
        pthread_join(threads[i], NULL);
    progress(a, 1);
    if (a->results && fclose(a->results) != 0 && !a->failure[0])
        snprintf(a->failure, sizeof a->failure, "cannot write the results file '%.200s': %s", a->results_path, strerror(errno));
    if (a->records && fclose(a->records) != 0 && !a->failure[0])
        snprintf(a->failure, sizeof a->failure, "cannot write the records '%.200s': %s", a->records_path, strerror(errno));
    if (a->log.f && (fclose(a->log.f) != 0 || a->log.failed) && !a->failure[0])
        snprintf(a->failure, sizeof a->failure, "cannot write the log '%.200s'", a->log_path);
    report(a);
    int status = interrupted ? 130 : a->failure[0] ? 1 : 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "picket-arena: cannot write the standings: %s\n", strerror(errno));
        if (status == 0)
            status = 1;
    }
    if (a->failure[0])
        fprintf(stderr, "picket-arena: %s\n", a->failure);
    if (interrupted)
        fprintf(stderr, "picket-arena: interrupted; %d of %d sets done%s\n", a->done_count, a->n_jobs,
                a->results_path ? " (continue with -resume)" : "");
    free(workers);
    free(threads);
    free_arena(a);
    return status;
}
