/* picket-arena: tournaments between engine processes that speak the picket protocol.
 * See docs/arena.md. The arena is the referee: it holds the true state, sends each seat only
 * its view's events, validates every move, keeps each engine's clock, and keeps honest
 * statistics over duplicate pairs. A misconfigured run stops before its first set; a run that
 * goes wrong stops with an error rather than a wrong result.
 *
 * This program is the command line alone: the run (arena_run), its workers (arena_pool), its
 * records (arena_records), its tables (arena_report) and -merge (arena_merge) live in
 * tools/arena/. */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arena_cli.h"
#include "text.h"
#include "arena_merge.h"
#include "arena_pool.h"
#include "arena_report.h"
#include "arena_run.h"
#include "game.h"
#include "lines.h"
#include "measure.h"

#ifndef PICKET_VERSION
#define PICKET_VERSION "unknown"
#endif

enum { DEFAULT_MAX_FAULTS = 3 };

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
    "  -preset P          rules preset (picket: cotgrave, cotton, ducoeur-letter, ducoeur-report, cavendish)\n"
    "  -flag NAME=VALUE   a rule override (repeatable); docs/rules.md\n"
    "  -seed S            base seed of the deals and engine seeds (default 1)\n"
    "  -concurrency N     sets played at once (default 1)\n"
    "  -margin MS         milliseconds an engine may overrun its time (tc: over the whole set;\n"
    "                     default 100)\n"
    "  -sprt elo0=E0 elo1=E1 alpha=A beta=B\n"
    "                     stop when the test decides (exactly two engines); alpha and beta\n"
    "                     default to 0.05\n"
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


static int parse_sprt(arena_run_t *a, char **argv, int *i, int argc, char *err, size_t errlen)
{
    static const char *const keys[4] = { "elo0", "elo1", "alpha", "beta" };
    double *dst[4] = { &a->sprt.elo0, &a->sprt.elo1, &a->sprt.alpha, &a->sprt.beta };
    int seen = 0;
    /* alpha and beta left out take fastchess's defaults */
    a->sprt.alpha = a->sprt.beta = 0.05;
    /* its fields are the words with '=' that follow (-merge's files may come after them) */
    while (*i + 1 < argc && argv[*i + 1][0] != '-' && strchr(argv[*i + 1], '=')) {
        const char *f = argv[++*i];
        const char *eq = strchr(f, '=');
        int k = 0;
        while (eq && k < 4 && !(strlen(keys[k]) == (size_t)(eq - f) && !strncmp(f, keys[k], (size_t)(eq - f))))
            k++;
        if (!eq || k == 4)
            return text_fail(err, errlen, "-sprt: '%.40s' is not elo0=, elo1=, alpha= or beta= a number", f);
        if (text_real(eq + 1, -2000, 2000, dst[k]) < 0)
            return text_fail(err, errlen, "-sprt: '%.40s' is not a finite number", f);
        seen |= 1 << k;
    }
    if ((seen & 3) != 3 || a->sprt.elo1 <= a->sprt.elo0 || a->sprt.alpha <= 0 || a->sprt.alpha >= 1 ||
        a->sprt.beta <= 0 || a->sprt.beta >= 1)
        return text_fail(err, errlen, "-sprt needs elo0 < elo1 and 0 < alpha, beta < 1 (e.g. elo0=0 elo1=10 alpha=0.05 beta=0.05)");
    a->use_sprt = 1;
    return 0;
}

/* -shard I/N: digits only, 0 <= I < N <= ARENA_MAX_SHARDS. */
static int parse_shard(const char *v, int *index, int *count)
{
    const char *slash = strchr(v, '/');
    char left[24];
    uint64_t i, n;
    if (!slash || (size_t)(slash - v) >= sizeof left)
        return -1;
    snprintf(left, sizeof left, "%.*s", (int)(slash - v), v);
    if (text_u64(left, 0, ARENA_MAX_SHARDS - 1, &i) < 0 || text_u64(slash + 1, 1, ARENA_MAX_SHARDS, &n) < 0 || i >= n)
        return -1;
    *index = (int)i;
    *count = (int)n;
    return 0;
}

/* Options that take one value, and where it goes. */
static int parse_args(arena_run_t *a, int argc, char **argv, char *err, size_t errlen)
{
    char *each_fields[128];
    int n_each = 0;
    /* Engine fields are kept as text first, so -each can come anywhere. */
    char *eng_fields[ARENA_MAX_ENGINES][128];
    int n_fields[ARENA_MAX_ENGINES] = { 0 };
    const char *records_path = NULL;
    a->sc.rounds = 10;
    a->concurrency = 1;
    a->sc.duplicate = 1;
    a->sc.seed = 1;
    a->max_faults = DEFAULT_MAX_FAULTS;
    a->shard_count = 1;
    int margin_ms = 100;
    /* The whole-number options: flag, what the number counts, range, where it goes (out, or
     * out64 for -seed) (text_u64: decimal digits only, no sign, no space, no wrap). */
    struct {
        const char *flag, *what;
        uint64_t lo, hi;
        int *out;
        uint64_t *out64;
    } const nums[] = {
        { "-rounds", "a number", 1, 10000000, &a->sc.rounds, NULL },
        { "-concurrency", "a number", 1, ARENA_POOL_MAX_WORKERS, &a->concurrency, NULL },
        { "-maxfaults", "a number", 1, 1000000, &a->max_faults, NULL },
        { "-ratinginterval", "a number of sets", 1, 100000000, &a->rating_interval, NULL },
        { "-players", "a number", 1, GAME_MAX_PLAYERS, &a->players_asked, NULL },
        { "-margin", "a number of milliseconds", 0, 600000, &margin_ms, NULL },
        { "-seed", "a number", 0, UINT64_MAX, NULL, &a->sc.seed },
    };
    int n_nums = (int)(sizeof nums / sizeof nums[0]);
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        uint64_t v;
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        char shown[48];
        text_quote(next ? next : "", 40, shown, sizeof shown);
        int k = 0;
        while (k < n_nums && (strcmp(o, nums[k].flag) || !next))
            k++;
        if (k < n_nums) {
            if (text_u64(argv[++i], nums[k].lo, nums[k].hi, nums[k].out ? &v : nums[k].out64) < 0)
                return text_fail(err, errlen, "%s: '%s' is not %s from %" PRIu64 " to %" PRIu64, o, shown, nums[k].what, nums[k].lo,
                                 nums[k].hi);
            if (nums[k].out)
                *nums[k].out = (int)v;
            a->rounds_given |= nums[k].out == &a->sc.rounds;
        } else if (!strcmp(o, "-engine") || !strcmp(o, "-each")) {
            int is_each = o[2] == 'a';
            if (!is_each && a->sc.n_engines == ARENA_MAX_ENGINES)
                return text_fail(err, errlen, "at most %d engines", ARENA_MAX_ENGINES);
            int *count = is_each ? &n_each : &n_fields[a->sc.n_engines];
            char **dst = is_each ? each_fields : eng_fields[a->sc.n_engines];
            while (i + 1 < argc && argv[i + 1][0] != '-') {
                if (*count == 128)
                    return text_fail(err, errlen, "%s: too many fields", o);
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
            else
                return text_fail(err, errlen, "-tournament: '%s' is not gauntlet or round-robin", shown);
        } else if (!strcmp(o, "-game") && next) {
            if (!(a->game = game_find(argv[++i])))
                return text_fail(err, errlen, "-game: unknown game '%s'", shown);
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
            if (parse_shard(argv[++i], &a->shard_index, &a->shard_count) < 0)
                return text_fail(err, errlen, "-shard: '%s' is not I/N, shard I of N with 0 <= I < N <= %d (e.g. 0/4)", shown,
                                   ARENA_MAX_SHARDS);
        } else if (!strcmp(o, "-records") && next) {
            records_path = argv[++i];
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
            return arena_cli_refuse(USAGE, o, err, errlen);
        }
    }
    a->margin = margin_ms / 1000.0;
    if (a->sc.n_engines < 2)
        return text_fail(err, errlen, "give at least two engines (-engine cmd=PROGRAM name=NAME ...)");
    for (int e = 0; e < a->sc.n_engines; e++) {
        arena_spec_t *s = &a->engines[e];
        arena_spec_init(s);
        char why[400];
        int bad = 0;
        for (int k = 0; k < n_each + n_fields[e] && !bad; k++)
            bad = arena_spec_set(s, k < n_each ? each_fields[k] : eng_fields[e][k - n_each], why, sizeof why) < 0;
        if (!s->name[0] && s->argc > 0 && s->argv[0]) {
            const char *base = strrchr(s->argv[0], '/');
            snprintf(s->name, sizeof s->name, "%.40s-%d", base ? base + 1 : s->argv[0], e + 1);
        }
        if (!bad)
            bad = arena_spec_check(s, why, sizeof why) < 0;
        if (bad && s->name[0])
            return text_fail(err, errlen, "engine '%s': %s", s->name, why);
        if (bad)
            return text_fail(err, errlen, "engine %d: %s", e + 1, why);
        for (int o = 0; o < e; o++)
            if (!strcmp(a->engines[o].name, s->name))
                return text_fail(err, errlen, "two engines are named '%s': give each a name=", s->name);
        a->names[e] = s->name;
    }
    if (a->use_sprt && a->shard_count > 1)
        return text_fail(err, errlen, "-sprt cannot go with -shard: a shard cannot stop on its own test; give -sprt to -merge");
    if (a->shard_count > 1 && !a->results_path)
        return text_fail(err, errlen, "-shard needs -results FILE: a shard's sets are merged from its results file");
    if (a->use_sprt && a->sc.n_engines != 2)
        return text_fail(err, errlen, "-sprt needs exactly two engines");
    if (a->resume && !a->results_path)
        return text_fail(err, errlen, "-resume needs -results FILE");
    arena_records_init(&a->records, records_path);
    return 0;
}

/* picket-arena -merge FILE... [-sprt ...] [-quiet]: the standings of a run played in shards
 * (arena_merge.h). Exit 0 merged, 1 files that cannot be read or do not merge, 2 a bad option. */
static int merge_main(arena_run_t *a, int argc, char **argv)
{
    char err[1200] = "", shown[48];
    int n_files = 0, rc = 2;
    /* The files are gathered at the front of argv, over words already read. */
    for (int i = 1; i < argc && !err[0]; i++) {
        if (!strcmp(argv[i], "-quiet")) {
            a->quiet = 1;
        } else if (!strcmp(argv[i], "-sprt")) {
            parse_sprt(a, argv, &i, argc, err, sizeof err);
        } else if (argv[i][0] != '-') {
            argv[n_files++] = argv[i];
        } else if (strcmp(argv[i], "-merge")) {
            text_quote(argv[i], 40, shown, sizeof shown);
            snprintf(err, sizeof err, "-merge takes results files, -sprt and -quiet, not '%s' (see --help)", shown);
        }
    }
    if (!err[0] && n_files == 0)
        snprintf(err, sizeof err, "-merge needs the results files of the shards (picket-arena -merge FILE...)");
    if (!err[0])
        rc = arena_merge_files(a, (const char *const *)argv, n_files, err, sizeof err);
    if (rc != 0)
        fprintf(stderr, "picket-arena: %s\n", err);
    arena_run_free(a);
    return rc;
}

/* ---------------------------------------------------------------- main */

/* A run: options, then everything up to the first set (arena_run_prepare), then the sets and
 * the report. Exit 0 done, 1 stopped by an error, 2 a bad option or configuration, 130
 * interrupted. */
static int run_main(arena_run_t *a, int argc, char **argv)
{
    char err[1024];
    /* The signals first: a ^C during the engines' check stops it cleanly. */
    arena_cli_signals(on_signal);
    a->tty = isatty(STDERR_FILENO);
    a->started = measure_now();
    a->game = game_find("picket");
    if (parse_args(a, argc, argv, err, sizeof err) < 0 || arena_run_prepare(a, err, sizeof err) < 0) {
        arena_run_free(a);
        return interrupted ? 130 : die(err);
    }
    int rc = arena_run_play(a);
    if (rc != ARENA_POOL_OK) {
        arena_run_free(a);
        return die(rc == ARENA_POOL_NO_MEMORY ? "out of memory for the workers" : "cannot start a worker thread");
    }
    arena_report_final(a);
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
    arena_run_free(a);
    return status;
}

/* Output that could not be written is an error (lines_check_stdout). */
static void check_stdout(void) { lines_check_stdout("picket-arena"); }

int main(int argc, char **argv)
{
    atexit(check_stdout);
    int info = arena_cli_help(argc, argv, USAGE, "picket-arena " PICKET_VERSION);
    if (info >= 0)
        return info;
    /* The run's state is large (every engine's spec, the schedule's tallies): on the heap. */
    arena_run_t *a = calloc(1, sizeof *a);
    if (!a)
        return die("out of memory");
    a->interrupted = &interrupted;
    int status = -1;
    for (int i = 1; i < argc && status < 0; i++)
        if (!strcmp(argv[i], "-merge"))
            status = merge_main(a, argc, argv);
    if (status < 0)
        status = run_main(a, argc, argv);
    free(a);
    return status;
}
