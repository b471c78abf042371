/* picket-tune: SPSA over an engine's numeric options (docs/tuning.md).
 *
 * Each iteration k nudges every tuned option along a random direction: two copies of the engine,
 * theta + c_k*step*delta ("plus") and theta - c_k*step*delta ("minus"), play duplicate set pairs
 * through the arena's match code (tools/arena/arena_match.h: the same engine processes, clock,
 * faults and records as picket-arena), and the result moves theta towards the stronger side:
 *
 *   c_k = c / k^gamma                          the perturbation, in steps
 *   a_k = a * (A + 1)^alpha / (A + k)^alpha    the gain, in steps (a_1 = a)
 *   r   = (sets won by plus - sets won by minus) / sets played, in [-1, 1]; or, with -objective
 *         points (a game that settles points: a Picket partie), plus's settled points a set over
 *         -points-scale, clipped to [-1, 1]
 *   theta_i += step_i * a_k * r / (2 c_k) * delta_i, clipped to the option's declared range
 *
 * Everything an iteration plays follows from the seed and k (deals, engine seeds, delta), so a
 * run is reproducible, and the state written after every iteration makes `kill -9` then
 * `-resume` equal to an unbroken run. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "arena_cli.h"
#include "text.h"
#include "arena_match.h"
#include "arena_pool.h"
#include "arena_results.h"
#include "lines.h"
#include "client.h"
#include "game.h"
#include "measure.h"
#include "options.h"
#include "rng.h"

#ifndef PICKET_VERSION
#define PICKET_VERSION "unknown"
#endif

enum { MAX_PARAMS = 16, MAX_FIELDS = 128, MAX_DECLS = 256, NAME_LEN = 64 };
/* The largest state or log file read back (a log line an iteration: far more than any run). */
static const size_t TUNE_MAX_FILE = (size_t)64 << 20;

static const char *const USAGE =
    "usage: picket-tune -engine FIELDS -param NAME=START,STEP [-param ...] [options]\n"
    "\n"
    "Tunes numeric options of an engine with SPSA (simultaneous perturbation stochastic\n"
    "approximation, as fishtest and OpenBench tune chess engines). Each iteration plays duplicate\n"
    "set pairs between two copies of the engine, theta+c_k*step*delta and theta-c_k*step*delta\n"
    "(delta a random sign for each option), through the arena's match code, and moves theta\n"
    "towards the side that won. See docs/tuning.md.\n"
    "\n"
    "what to tune:\n"
    "  -engine FIELDS     the engine, with picket-arena's fields: cmd=PROGRAM (required), arg=A,\n"
    "                     option.X=V, tc=SET+INC, st=SECONDS, iterations=N, timeout=SECONDS,\n"
    "                     start=SECONDS, dir=DIR, stderr=FILE. Both copies start from it.\n"
    "  -param NAME=START,STEP\n"
    "                     an option the engine declares as spin or float: its start value and its\n"
    "                     step, the distance the two copies play from theta at the first\n"
    "                     iteration (in the option's own units; choose about the change you\n"
    "                     expect to matter). Values stay inside the declared min and max; a spin\n"
    "                     is sent rounded. Repeatable, up to 16 options.\n"
    "schedule (k counts iterations from 1):\n"
    "  -iterations N      iterations (default 100)\n"
    "  -pairs P           duplicate set pairs an iteration (default 2)\n"
    "  -a A               gain: with every set won by one side, theta moves a_k/(2 c_k) steps\n"
    "                     (a_k = A*(A0+1)^alpha/(A0+k)^alpha; default 1)\n"
    "  -c C               perturbation at k=1, in steps (c_k = C/k^gamma; default 1)\n"
    "  -A A0              stability constant of the gain (default: 10% of the iterations)\n"
    "  -alpha X           decay of the gain (default 0.602, Spall's)\n"
    "  -gamma X           decay of the perturbation (default 0.101, Spall's)\n"
    "games:\n"
    "  -game NAME         the game (default picket); always two seats\n"
    "  -preset P          rules preset (picket: cotgrave, cotton, ducoeur-letter, ducoeur-report, cavendish)\n"
    "  -flag NAME=VALUE   a rule override (repeatable)\n"
    "  -seed S            the run's seed: deals, engine seeds and directions (default 1)\n"
    "  -concurrency N     sets played at once (default 1)\n"
    "  -margin MS         milliseconds an engine may overrun its time (default 100)\n"
    "  -maxfaults N       stop when one side faults in N sets in a row (default 3)\n"
    "  -objective O       wins (default): r is the share of sets won by plus less minus's; points:\n"
    "                     the points the sets settle (a Picket partie's, -preset cavendish), plus's\n"
    "                     mean a set over -points-scale, clipped to [-1, 1]\n"
    "  -points-scale N    settled points a set that count as every set won (default 300)\n"
    "output:\n"
    "  -out DIR           the run's folder (default tune): state.json (written after every\n"
    "                     iteration), log.jsonl (one line an iteration), params.dat and\n"
    "                     params.png (each option's path, drawn with gnuplot), records/ with\n"
    "                     -records\n"
    "  -resume            continue the run in -out DIR where it stopped, or extend a finished\n"
    "                     one with a larger -iterations\n"
    "  -records           every set as a game record in DIR/records\n"
    "  -noplot            no params.png (gnuplot is then not needed)\n"
    "  -quiet             no progress lines\n"
    "  -version           the version\n"
    "  --help             this text\n"
    "\n"
    "exit status: 0 done, 1 stopped by an error during the run (continue with -resume), 2 a bad\n"
    "option or configuration (nothing written), 130 interrupted (continue with -resume)\n"
    "\n"
    "example: picket-tune -engine cmd=build/tools/picket-engine option.bot=ismcts iterations=500 \\\n"
    "           -param ismcts.exploration=3,0.5 -param ismcts.reward_scale=300,40 \\\n"
    "           -iterations 200 -pairs 2 -concurrency 2 -out tune-run\n";

/* An option the engine declares in its hello. */
typedef struct decl {
    char name[NAME_LEN];
    int numeric, spin;
    double min, max;
} decl_t;

typedef struct param {
    char name[NAME_LEN];
    double start, step, min, max, theta;
    int spin;
} param_t;

typedef struct tune {
    /* configuration */
    char *fields[MAX_FIELDS];       /* the engine's fields as given */
    int n_fields;
    param_t p[MAX_PARAMS];
    int n_params;
    const game_t *game;
    game_config_t cfg;
    int iterations, pairs, concurrency, max_faults, quiet, resume, records, plot;
    int points;                     /* -objective points */
    double a, c, a0, alpha, gamma, margin, points_scale;
    int a0_given;                   /* -A given (else 10% of the first run's iterations) */
    double plotted_at;              /* when params.png was last drawn during the run */
    int plot_failed;                /* a plot during the run failed: the end says why */
    uint64_t seed;
    const char *out;
    char state_path[4200], log_path[4200], dat_path[4200], png_path[4200], records_path[4200];
    cJSON *run;                     /* the run's meaning: what -resume must find equal */
    /* progress */
    int k_done, k_first;            /* iterations done; done when this process started */
    double last_won[2], last_played; /* the last iteration's sets won by theta+ and theta-, of those played */
    int fault_run[2];
    char arena_path[4200];          /* picket-arena beside this program, for the verify command */
    double started;
    int tty;
    char failure[600];
} tune_t;

/* The operator's interrupts: 1 after a first ^C (finish the iteration), 2 after a second or a
 * SIGTERM (stop now). The one piece of process-wide state: a signal handler's flag. */
static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
    if (sig == SIGINT && interrupted == 0)
        interrupted = 1;
    else
        interrupted = 2;
}

/* The numeric options, declared once: flag, type, default, range and where the value goes (-A
 * has no default: 10% of the iterations; -margin is read in milliseconds). */
static const opt_def_t NUMBERS[] = {
    { "-iterations", OPT_SPIN, "100", 1, 1000000, { NULL }, NULL, NULL, OPT_INTO(tune_t, iterations, OPT_TO_INT) },
    { "-pairs", OPT_SPIN, "2", 1, 10000, { NULL }, NULL, NULL, OPT_INTO(tune_t, pairs, OPT_TO_INT) },
    { "-concurrency", OPT_SPIN, "1", 1, ARENA_POOL_MAX_WORKERS, { NULL }, NULL, NULL, OPT_INTO(tune_t, concurrency, OPT_TO_INT) },
    { "-maxfaults", OPT_SPIN, "3", 1, 1000000, { NULL }, NULL, NULL, OPT_INTO(tune_t, max_faults, OPT_TO_INT) },
    { "-a", OPT_FLOAT, "1", 0, 1e6, { NULL }, NULL, NULL, OPT_INTO(tune_t, a, OPT_TO_DOUBLE) },
    { "-c", OPT_FLOAT, "1", 0, 1e6, { NULL }, NULL, NULL, OPT_INTO(tune_t, c, OPT_TO_DOUBLE) },
    { "-A", OPT_FLOAT, NULL, 0, 1e9, { NULL }, NULL, NULL, OPT_INTO(tune_t, a0, OPT_TO_DOUBLE) },
    { "-alpha", OPT_FLOAT, "0.602", 0, 10, { NULL }, NULL, NULL, OPT_INTO(tune_t, alpha, OPT_TO_DOUBLE) },
    { "-gamma", OPT_FLOAT, "0.101", 0, 10, { NULL }, NULL, NULL, OPT_INTO(tune_t, gamma, OPT_TO_DOUBLE) },
    { "-margin", OPT_SPIN, "100", 0, 600000, { NULL }, NULL, NULL, OPT_INTO(tune_t, margin, OPT_TO_DOUBLE) },
    { "-points-scale", OPT_FLOAT, "300", 1, 1e6, { NULL }, NULL, NULL, OPT_INTO(tune_t, points_scale, OPT_TO_DOUBLE) },
};
enum { N_NUMBERS = sizeof NUMBERS / sizeof NUMBERS[0] };

static void format_value(double v, int spin, char *buf, size_t len)
{
    opt_format_number(spin ? floor(v + 0.5) : v, spin ? OPT_SPIN : OPT_FLOAT, buf, len);
}

/* ---------------------------------------------------------------- arguments */

static int parse_param(tune_t *t, const char *text, char *err, size_t errlen)
{
    char shown[64], start[64];
    text_quote(text, 48, shown, sizeof shown);
    const char *eq = strchr(text, '='), *comma = eq ? strchr(eq, ',') : NULL;
    if (!eq || !comma || eq == text || (size_t)(eq - text) >= NAME_LEN)
        return text_fail(err, errlen, "-param: '%s' is not NAME=START,STEP", shown);
    if (t->n_params == MAX_PARAMS)
        return text_fail(err, errlen, "-param: at most %d options", MAX_PARAMS);
    param_t *p = &t->p[t->n_params];
    snprintf(p->name, sizeof p->name, "%.*s", (int)(eq - text), text);
    for (int i = 0; i < t->n_params; i++)
        if (!strcmp(t->p[i].name, p->name))
            return text_fail(err, errlen, "-param: '%s' is given twice", p->name);
    if ((size_t)(comma - eq - 1) >= sizeof start || strlen(comma + 1) >= 64)
        return text_fail(err, errlen, "-param: '%s' is not NAME=START,STEP", shown);
    snprintf(start, sizeof start, "%.*s", (int)(comma - eq - 1), eq + 1);
    /* The range is checked once the engine has declared it. */
    if (text_real(start, -1e300, 1e300, &p->start) < 0) {
        text_quote(start, 40, shown, sizeof shown);
        return text_fail(err, errlen, "-param %s: the start '%s' is not a number", p->name, shown);
    }
    if (text_real(comma + 1, 0, 1e300, &p->step) < 0 || !(p->step > 0)) {
        text_quote(comma + 1, 40, shown, sizeof shown);
        return text_fail(err, errlen, "-param %s: the step '%s' is not a number above 0", p->name, shown);
    }
    t->n_params++;
    return 0;
}

/* Every option but the numbers (NUMBERS) by its flag. */
static int parse_args(tune_t *t, int argc, char **argv, char *err, size_t errlen)
{
    for (int n = 0; n < N_NUMBERS; n++)
        if (NUMBERS[n].def)
            opt_store(&NUMBERS[n], NUMBERS[n].def, strtod(NUMBERS[n].def, NULL), t);
    t->a0 = -1;
    t->seed = 1;
    t->plot = 1;
    t->out = "tune";
    t->game = game_find("picket");
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i], *next = i + 1 < argc ? argv[i + 1] : NULL;
        const opt_def_t *number = next ? opt_find(NUMBERS, N_NUMBERS, o) : NULL;
        char shown[64], why[200];
        text_quote(next ? next : "", 40, shown, sizeof shown);
        double v;
        if (number) {
            /* opt_check's reason names the option "option -pairs": the flag alone here */
            if (opt_check(number, argv[++i], &v, why, sizeof why) < 0)
                return text_fail(err, errlen, "%s", why + strlen("option "));
            opt_store(number, argv[i], v, t);
            if ((!strcmp(o, "-c") && !(t->c > 0)) || (!strcmp(o, "-a") && !(t->a > 0)))
                return text_fail(err, errlen, "%s: '%s' must be above 0", o, shown);
        } else if (!strcmp(o, "-engine")) {
            if (t->n_fields)
                return text_fail(err, errlen, "-engine: give one engine (both copies start from it)");
            while (i + 1 < argc && argv[i + 1][0] != '-') {
                if (t->n_fields == MAX_FIELDS)
                    return text_fail(err, errlen, "-engine: too many fields");
                t->fields[t->n_fields++] = argv[++i];
            }
            if (!t->n_fields)
                return text_fail(err, errlen, "-engine: no fields (cmd=PROGRAM ...)");
        } else if (!strcmp(o, "-param") && next) {
            if (parse_param(t, argv[++i], err, errlen) < 0)
                return -1;
        } else if (!strcmp(o, "-seed") && next) {
            if (text_u64(argv[++i], 0, UINT64_MAX, &t->seed) < 0)
                return text_fail(err, errlen, "-seed: '%s' is not a number from 0 to 18446744073709551615", shown);
        } else if (!strcmp(o, "-game") && next) {
            if (!(t->game = game_find(argv[++i])))
                return text_fail(err, errlen, "-game: unknown game '%s'", shown);
        } else if (!strcmp(o, "-preset") && next) {
            if (game_config_set_preset(&t->cfg, argv[++i], err, errlen) < 0)
                return -1;
        } else if (!strcmp(o, "-flag") && next) {
            if (game_config_add_flag(&t->cfg, argv[++i], err, errlen) < 0)
                return -1;
        } else if (!strcmp(o, "-out") && next) {
            t->out = argv[++i];
        } else if (!strcmp(o, "-objective") && next) {
            if (strcmp(next, "wins") && strcmp(next, "points"))
                return text_fail(err, errlen, "-objective: '%s' is not wins or points", shown);
            t->points = !strcmp(argv[++i], "points");
        } else if (!strcmp(o, "-resume")) {
            t->resume = 1;
        } else if (!strcmp(o, "-records")) {
            t->records = 1;
        } else if (!strcmp(o, "-noplot")) {
            t->plot = 0;
        } else if (!strcmp(o, "-quiet")) {
            t->quiet = 1;
        } else {
            return arena_cli_refuse(USAGE, o, err, errlen);
        }
    }
    if (!t->n_fields)
        return text_fail(err, errlen, "give the engine to tune (-engine cmd=PROGRAM ...)");
    if (!t->n_params)
        return text_fail(err, errlen, "give at least one option to tune (-param NAME=START,STEP)");
    t->a0_given = t->a0 >= 0;
    if (t->a0 < 0)
        t->a0 = 0.1 * t->iterations;
    t->margin /= 1000.0;
    if (strlen(t->out) > 4000 || strchr(t->out, '\''))
        return text_fail(err, errlen, "-out: the path is too long or holds a quote");
    snprintf(t->state_path, sizeof t->state_path, "%s/state.json", t->out);
    snprintf(t->log_path, sizeof t->log_path, "%s/log.jsonl", t->out);
    snprintf(t->dat_path, sizeof t->dat_path, "%s/params.dat", t->out);
    snprintf(t->png_path, sizeof t->png_path, "%s/params.png", t->out);
    snprintf(t->records_path, sizeof t->records_path, "%s/records", t->out);
    return 0;
}

/* A spec from the engine's fields, named, with the tuned options at the given values (NULL: the
 * start values). */
static int build_spec(const tune_t *t, const char *name, const double *values, arena_spec_t *s, char *err, size_t errlen)
{
    arena_spec_init(s);
    char field[PROTO_MAX_LINE], why[400];
    for (int i = 0; i < t->n_fields; i++)
        if (arena_spec_set(s, t->fields[i], why, sizeof why) < 0)
            return text_fail(err, errlen, "-engine: %s", why);
    snprintf(field, sizeof field, "name=%s", name);
    int rc = arena_spec_set(s, field, why, sizeof why);
    for (int i = 0; rc == 0 && i < t->n_params; i++) {
        char v[OPT_NUMBER_LEN];
        format_value(values ? values[i] : t->p[i].start, t->p[i].spin, v, sizeof v);
        snprintf(field, sizeof field, "option.%s=%s", t->p[i].name, v);
        rc = arena_spec_set(s, field, why, sizeof why);
    }
    if (rc == 0)
        rc = arena_spec_check(s, why, sizeof why);
    return rc < 0 ? text_fail(err, errlen, "-engine: %s", why) : 0;
}

/* ---------------------------------------------------------------- the engine's declarations */

typedef struct decls {
    decl_t d[MAX_DECLS];
    int n;
} decls_t;

/* "option name NAME type T default D [min A max B] ..." */
static void on_decl_line(void *data, const char *line)
{
    decls_t *ds = data;
    if (strncmp(line, "option name ", 12) != 0 || ds->n == MAX_DECLS)
        return;
    char buf[PROTO_MAX_LINE + 1], *save = NULL;
    snprintf(buf, sizeof buf, "%s", line + 12);
    decl_t d = { .min = NAN, .max = NAN };
    char *w = strtok_r(buf, " ", &save);
    if (!w || strlen(w) >= NAME_LEN)
        return;
    snprintf(d.name, sizeof d.name, "%s", w);
    char *type = NULL;
    while ((w = strtok_r(NULL, " ", &save))) {
        char *v = strtok_r(NULL, " ", &save);
        if (!v)
            break;
        double x;
        if (!strcmp(w, "type"))
            type = v;
        else if (!strcmp(w, "min") && text_real(v, -1e300, 1e300, &x) == 0)
            d.min = x;
        else if (!strcmp(w, "max") && text_real(v, -1e300, 1e300, &x) == 0)
            d.max = x;
    }
    if (!type)
        return;
    d.spin = !strcmp(type, "spin");
    d.numeric = (d.spin || !strcmp(type, "float")) && isfinite(d.min) && isfinite(d.max) && d.min <= d.max;
    ds->d[ds->n++] = d;
}

/* check_engine with the probe's spec s: the hello, the params, the handshake. */
static int probe_engine(tune_t *t, const arena_spec_t *s, char *err, size_t errlen)
{
    for (int i = 0; i < t->n_params; i++)
        for (int f = 0; f < t->n_fields; f++) {
            size_t n = strlen(t->p[i].name);
            if (!strncmp(t->fields[f], "option.", 7) && !strncmp(t->fields[f] + 7, t->p[i].name, n) && t->fields[f][7 + n] == '=')
                return text_fail(err, errlen, "-param %s: the engine's fields also set option.%s; tune it or fix it, not both",
                                   t->p[i].name, t->p[i].name);
        }
    client_t c;
    client_opts_t co = { s->dir, s->stderr_path };
    decls_t ds = { .n = 0 };
    char line[PROTO_MAX_LINE + 1], why[400];
    if (client_start_opts(&c, s->argv, &co, why, sizeof why) < 0)
        return text_fail(err, errlen, "-engine: cmd: %s", why);
    int ok = client_send(&c, "1 hello") == 0 && client_await_reply(&c, line, (int)(s->start_timeout * 1000), 1, on_decl_line, &ds) == 1;
    client_stop(&c, 500);
    if (!ok)
        return text_fail(err, errlen, "-engine: no answer to hello within %g s", s->start_timeout);
    for (int i = 0; i < t->n_params; i++) {
        param_t *p = &t->p[i];
        const decl_t *d = NULL;
        for (int k = 0; k < ds.n && !d; k++)
            if (!strcmp(ds.d[k].name, p->name))
                d = &ds.d[k];
        if (!d)
            return text_fail(err, errlen, "-param %s: the engine declares no option '%s' in its hello", p->name, p->name);
        if (!d->numeric)
            return text_fail(err, errlen, "-param %s: not a numeric option (the engine declares it neither spin nor float with a range)",
                               p->name);
        p->spin = d->spin, p->min = d->min, p->max = d->max;
        char lo[OPT_NUMBER_LEN], hi[OPT_NUMBER_LEN], v[OPT_NUMBER_LEN];
        opt_format_number(p->min, p->spin ? OPT_SPIN : OPT_FLOAT, lo, sizeof lo);
        opt_format_number(p->max, p->spin ? OPT_SPIN : OPT_FLOAT, hi, sizeof hi);
        opt_format_number(p->start, OPT_FLOAT, v, sizeof v);
        if (p->start < p->min || p->start > p->max || (p->spin && p->start != floor(p->start)))
            return text_fail(err, errlen, "-param %s: the start %s is not %s from %s to %s", p->name, v,
                               p->spin ? "a whole number" : "a number", lo, hi);
        if (2 * t->c * p->step > p->max - p->min) {
            opt_format_number(p->step, OPT_FLOAT, v, sizeof v);
            return text_fail(err, errlen, "-param %s: the step %s is wider than the range %s to %s allows (the two copies play c*step either side)",
                               p->name, v, lo, hi);
        }
        /* A whole number is sent rounded: the copies must still differ at the last iteration. */
        double last = t->c * p->step / pow(t->iterations, t->gamma);
        if (p->spin && last < 0.5) {
            opt_format_number(0.5 * pow(t->iterations, t->gamma) / t->c, OPT_FLOAT, v, sizeof v);
            return text_fail(err, errlen, "-param %s: a whole-number option needs a step of at least %.6s, or the two copies play the same value",
                               p->name, v);
        }
        p->theta = p->start;
    }
    arena_engine_t e = { .abort = &interrupted };
    int rc = arena_engine_start(&e, s, t->game->name, why, sizeof why);
    arena_engine_stop(&e);
    return rc < 0 ? text_fail(err, errlen, "engine: %s", why) : 0;
}

/* Start the engine once, read its hello's declarations, check every -param against them, then
 * start both copies at the start values through the arena's handshake (which checks the game,
 * the protocol and that every option is accepted). 0, or -1 with a reason. */
static int check_engine(tune_t *t, char *err, size_t errlen)
{
    arena_spec_t s;
    int rc = build_spec(t, "probe", NULL, &s, err, errlen);
    if (rc == 0)
        rc = probe_engine(t, &s, err, errlen);
    arena_spec_free(&s);
    return rc;
}

/* ---------------------------------------------------------------- the run's meaning */

static cJSON *run_json(const tune_t *t)
{
    const char *flags[GAME_MAX_FLAGS];
    for (int i = 0; i < t->cfg.n_flags; i++)
        flags[i] = t->cfg.flags[i];
    char seed[24];
    snprintf(seed, sizeof seed, "%" PRIu64, t->seed);
    cJSON *r = cJSON_CreateObject(), *params = NULL;
    int bad = !cJSON_AddStringToObject(r, "tool", "picket-tune") ||
              arena_results_add(r, "engine", cJSON_CreateStringArray((const char *const *)t->fields, t->n_fields)) < 0 ||
              arena_results_add(r, "params", params = cJSON_CreateArray()) < 0;
    for (int i = 0; !bad && i < t->n_params; i++) {
        cJSON *p = cJSON_CreateObject();
        bad = !cJSON_AddItemToArray(params, p) || !cJSON_AddStringToObject(p, "name", t->p[i].name) ||
              !cJSON_AddNumberToObject(p, "start", t->p[i].start) || !cJSON_AddNumberToObject(p, "step", t->p[i].step);
    }
    static const char *const numbers[] = { "iterations", "pairs", "a", "c", "A", "alpha", "gamma", "margin_ms" };
    if (bad || !cJSON_AddStringToObject(r, "game", t->game->name) || !cJSON_AddStringToObject(r, "preset", t->cfg.preset) ||
        arena_results_add(r, "flags", cJSON_CreateStringArray(flags, t->cfg.n_flags)) < 0 || !cJSON_AddStringToObject(r, "seed", seed) ||
        arena_results_add_numbers(r, numbers, (double[]){ t->iterations, t->pairs, t->a, t->c, t->a0, t->alpha, t->gamma,
                                                          floor(t->margin * 1000 + 0.5) }, 8) < 0 ||
        !cJSON_AddBoolToObject(r, "records", t->records) ||
        /* said only when not the default, so that runs from before the option resume */
        (t->points && (!cJSON_AddStringToObject(r, "objective", "points") ||
                       !cJSON_AddNumberToObject(r, "points_scale", t->points_scale)))) {
        cJSON_Delete(r);
        return NULL;
    }
    return r;
}

/* ---------------------------------------------------------------- files */

/* One or two lines of text, as write_atomic saves them. */
typedef struct tune_text {
    const char *line, *more;
} tune_text_t;

static int write_text(FILE *f, void *data)
{
    const tune_text_t *t = data;
    return arena_results_write_text(f, t->line) < 0 || (t->more && arena_results_write_text(f, t->more) < 0) ? -1 : 0;
}

/* line, and more unless it is NULL, each with its newline, as the whole of path, or path
 * unchanged (lines_save: a kill leaves the old file or the new one, never half of one). */
static int write_atomic(const char *path, const char *line, const char *more)
{
    char why[300];
    return lines_save(path, write_text, &(tune_text_t){ line, more }, why, sizeof why);
}

/* The options' values v, or theta when v is NULL, as {"name":value,...}. */
static cJSON *theta_json(const tune_t *t, const double *v)
{
    cJSON *o = cJSON_CreateObject();
    for (int i = 0; o && i < t->n_params; i++)
        if (!cJSON_AddNumberToObject(o, t->p[i].name, v ? v[i] : t->p[i].theta)) {
            cJSON_Delete(o);
            return NULL;
        }
    return o;
}

/* The state: the run's header line, then {"type":"state","iteration":k,"theta":{...}}. */
static int save_state(tune_t *t)
{
    cJSON *s = cJSON_CreateObject();
    char *header = arena_results_header_text(t->run), *line = NULL;
    int bad = !s || !header || !cJSON_AddStringToObject(s, "type", "state") ||
              !cJSON_AddNumberToObject(s, "iteration", t->k_done) || !cJSON_AddItemToObject(s, "theta", theta_json(t, NULL)) ||
              !cJSON_AddItemToObject(s, "fault_run", cJSON_CreateIntArray(t->fault_run, 2)) || !(line = cJSON_PrintUnformatted(s)) ||
              write_atomic(t->state_path, header, line) < 0;
    cJSON_free(line);
    cJSON_free(header);
    cJSON_Delete(s);
    return bad ? -1 : 0;
}

/* The stored run's header against this one, its length aside: a resumed run may be given more
 * iterations (or fewer, down to those done). Its gain's A stays the stored one unless -A says
 * another, so the schedule of the iterations to come is the one an unbroken run would follow.
 * t->run is made again with that A. 0, or -1 with the difference. */
static int same_run_but_length(tune_t *t, const char *header, char *why, size_t whylen)
{
    cJSON *stored = cJSON_Parse(header);
    const cJSON *run = cJSON_GetObjectItemCaseSensitive(stored, "run");
    const cJSON *a0 = cJSON_GetObjectItemCaseSensitive(run, "A");
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(run, "iterations");
    if (!cJSON_IsNumber(a0) || !cJSON_IsNumber(n)) {
        cJSON_Delete(stored);
        return arena_results_compare_header(header, t->run, why, whylen);
    }
    if (!t->a0_given) {
        t->a0 = a0->valuedouble;
        cJSON_Delete(t->run);
        if (!(t->run = run_json(t))) {
            cJSON_Delete(stored);
            snprintf(why, whylen, "out of memory");
            return -1;
        }
    }
    /* Compared with the stored length for the while. */
    cJSON *length = cJSON_GetObjectItemCaseSensitive(t->run, "iterations");
    cJSON_SetNumberValue(length, n->valuedouble);
    int rc = arena_results_compare_header(header, t->run, why, whylen);
    cJSON_SetNumberValue(length, t->iterations);
    cJSON_Delete(stored);
    return rc;
}

/* Read the state of the run being resumed: the same run, its iteration and theta. */
static int load_state(tune_t *t, char *err, size_t errlen)
{
    char why[400], *text = lines_slurp(t->state_path, TUNE_MAX_FILE, why, sizeof why);
    char *nl = text ? strchr(text, '\n') : NULL;
    if (!text)
        return text_fail(err, errlen, "-resume: cannot read %s", why);
    if (nl)
        *nl = '\0';
    cJSON *s = nl ? cJSON_Parse(nl + 1) : NULL;
    const cJSON *k = cJSON_GetObjectItemCaseSensitive(s, "iteration");
    const cJSON *theta = cJSON_GetObjectItemCaseSensitive(s, "theta");
    const cJSON *faults = cJSON_GetObjectItemCaseSensitive(s, "fault_run");
    int rc = -1;
    if (!nl)
        text_fail(err, errlen, "-resume: '%.200s' is not a tuning state", t->state_path);
    else if (same_run_but_length(t, text, why, sizeof why) < 0)
        text_fail(err, errlen, "-resume: '%.200s' belongs to another run: %s", t->state_path, why);
    else if (!cJSON_IsNumber(k) || k->valuedouble < 0 || k->valuedouble != floor(k->valuedouble) || !cJSON_IsObject(theta) ||
             cJSON_GetArraySize(faults) != 2)
        text_fail(err, errlen, "-resume: '%.200s' holds no valid state line", t->state_path);
    else if (k->valuedouble > t->iterations)
        text_fail(err, errlen, "-resume: the run has done %d iterations: -iterations must be at least that", (int)k->valuedouble);
    else
        rc = 0;
    if (rc == 0) {
        t->k_done = (int)k->valuedouble;
        for (int side = 0; side < 2; side++) {
            const cJSON *f = cJSON_GetArrayItem(faults, side);
            t->fault_run[side] = cJSON_IsNumber(f) && f->valuedouble >= 0 && f->valuedouble < 1e6 ? (int)f->valuedouble : 0;
        }
    }
    for (int i = 0; rc == 0 && i < t->n_params; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(theta, t->p[i].name);
        if (!cJSON_IsNumber(v) || !(v->valuedouble >= t->p[i].min && v->valuedouble <= t->p[i].max))
            rc = text_fail(err, errlen, "-resume: '%.200s' holds no valid value of %s", t->state_path, t->p[i].name);
        else
            t->p[i].theta = v->valuedouble;
    }
    cJSON_Delete(s);
    free(text);
    return rc;
}

/* The log, cut back to the header and the iterations the state holds (a kill between the two
 * writes leaves one iteration too many). */
static int trim_log(tune_t *t, char *err, size_t errlen)
{
    char why[400], *text = lines_slurp(t->log_path, TUNE_MAX_FILE, why, sizeof why), *p = text;
    if (!text)
        return text_fail(err, errlen, "-resume: cannot read the log %s", why);
    for (int lines = 0; lines < t->k_done + 1; lines++) {
        char *nl = strchr(p, '\n');
        if (!nl) {
            free(text);
            return text_fail(err, errlen, "-resume: the log '%.200s' holds fewer iterations than the state (%d)", t->log_path, t->k_done);
        }
        /* Each iteration's line kept must be that iteration's: a damaged one is not resumed over. */
        *nl = '\0';
        cJSON *l = lines ? cJSON_Parse(p) : NULL;
        const cJSON *k = cJSON_GetObjectItemCaseSensitive(l, "k");
        int good = !lines || (cJSON_IsNumber(k) && k->valuedouble == lines);
        cJSON_Delete(l);
        *nl = '\n';
        if (!good) {
            free(text);
            return text_fail(err, errlen, "-resume: the log '%.200s': line %d is not iteration %d", t->log_path, lines + 1, lines);
        }
        p = nl + 1;
    }
    p[-1] = '\0'; /* the last newline: write_atomic puts it back */
    /* The header becomes this run's (its length may have changed). */
    char *header = arena_results_header_text(t->run), *rest = strchr(text, '\n');
    int rc = header ? write_atomic(t->log_path, header, rest ? rest + 1 : NULL) : -1;
    cJSON_free(header);
    free(text);
    return rc < 0 ? text_fail(err, errlen, "-resume: cannot write the log '%.200s': %s", t->log_path, strerror(errno)) : 0;
}

/* ---------------------------------------------------------------- one iteration */

typedef struct iteration {
    tune_t *t;
    int k;
    arena_spec_t spec[2];       /* 0: plus, 1: minus */
    arena_set_result_t *res;    /* [pair * 2 + leg] */
    int n_jobs, next;
    char record_failed[400];    /* a record that could not be written ("" if none) */
} iteration_t;

/* A set's record while it is played (the pool's memory of the set). */
typedef struct set_record {
    FILE *f;
    int open_errno;             /* why it could not be opened (0: it was, or none asked) */
    char path[4400];
} set_record_t;

static uint64_t iteration_seed(const tune_t *t, int k) { return rng_derive(t->seed, (uint64_t)k); }

/* The pool's calls (arena_pool.h): jobs are pair * 2 + leg, in order, until a second ^C. */
static int take_set(void *data)
{
    iteration_t *it = data;
    return it->next < it->n_jobs && interrupted < 2 ? it->next++ : -1;
}

static void begin_set(void *data, arena_pool_set_t *s)
{
    iteration_t *it = data;
    tune_t *t = it->t;
    set_record_t *rec = s->mine;
    int pair = s->job / 2, leg = s->job % 2;
    uint64_t pair_seed = rng_derive(iteration_seed(t, it->k), (uint64_t)pair);
    arena_set_setup_t *setup = &s->setup;
    *setup = (arena_set_setup_t){ .game = t->game, .cfg = t->cfg, .margin = t->margin };
    setup->cfg.deal_seed = pair_seed;
    for (int seat = 0; seat < 2; seat++) {
        s->engine[seat] = seat ^ leg;
        /* Keyed by the run's seed: an engine cannot work back from its seed to the deals. */
        setup->engine_seed[seat] = rng_keyed(t->seed, ((uint64_t)it->k << 32) | (uint64_t)(pair * 4 + leg * 2 + seat));
    }
    if (t->records) {
        snprintf(rec->path, sizeof rec->path, "%s/iteration-%06d-pair-%03d-leg-%d.txt", t->records_path, it->k, pair, leg);
        if (!(rec->f = fopen(rec->path, "w")))
            rec->open_errno = errno;
        snprintf(setup->record_note, sizeof setup->record_note, "picket-tune iteration %d pair %d leg %d (seat 0: %s)", it->k,
                 pair, leg, leg ? "minus" : "plus");
    }
    setup->record = rec->f;
}

/* A record that could not be written fails the iteration (the first one is named). */
static int end_set(void *data, arena_pool_set_t *s)
{
    iteration_t *it = data;
    set_record_t *rec = s->mine;
    it->res[s->job] = s->result;
    int failed = rec->open_errno != 0, e = rec->open_errno;
    if (rec->f && (ferror(rec->f) | fclose(rec->f)) != 0) {
        failed = 1;
        e = errno;
    }
    if (failed && !it->record_failed[0])
        snprintf(it->record_failed, sizeof it->record_failed, "cannot write the record '%.300s': %s", rec->path, strerror(e));
    return 0;
}

static int append_line(const char *path, const char *line)
{
    FILE *f = fopen(path, "a");
    int bad = !f || arena_results_write_text(f, line) < 0;
    return (f && fclose(f) != 0) || bad ? -1 : 0;
}

/* Play iteration k and move theta. 0 done, 1 interrupted (nothing changed), -1 an error (in
 * t->failure; nothing changed). */
static int run_iteration(tune_t *t, int k)
{
    double ck = t->c / pow(k, t->gamma);
    double ak = t->a * pow(t->a0 + 1, t->alpha) / pow(t->a0 + k, t->alpha);
    rng_t rng;
    rng_seed(&rng, rng_derive(iteration_seed(t, k), UINT64_MAX));
    double delta[MAX_PARAMS], plus[MAX_PARAMS], minus[MAX_PARAMS];
    for (int i = 0; i < t->n_params; i++) {
        const param_t *p = &t->p[i];
        delta[i] = rng_below(&rng, 2) ? 1 : -1;
        plus[i] = fmin(p->max, fmax(p->min, p->theta + ck * p->step * delta[i]));
        minus[i] = fmin(p->max, fmax(p->min, p->theta - ck * p->step * delta[i]));
    }
    iteration_t it = { .t = t, .k = k, .n_jobs = 2 * t->pairs };
    int rc = build_spec(t, "plus", plus, &it.spec[0], t->failure, sizeof t->failure);
    if (rc == 0)
        rc = build_spec(t, "minus", minus, &it.spec[1], t->failure, sizeof t->failure);
    if (rc == 0 && !(it.res = calloc((size_t)it.n_jobs, sizeof *it.res)))
        rc = text_fail(t->failure, sizeof t->failure, "out of memory");
    if (rc == 0) {
        arena_pool_t pool = { .n_engines = 2, .specs = it.spec, .abort = &interrupted, .set_size = sizeof(set_record_t),
                              .data = &it, .take = take_set, .begin = begin_set, .end = end_set };
        int pr = arena_pool_run(&pool, t->concurrency < it.n_jobs ? t->concurrency : it.n_jobs);
        if (pr != ARENA_POOL_OK)
            rc = text_fail(t->failure, sizeof t->failure, "%s",
                             pr == ARENA_POOL_NO_MEMORY ? "out of memory" : "cannot start a worker thread");
    }
    if (rc == 0 && it.record_failed[0])
        rc = text_fail(t->failure, sizeof t->failure, "%s", it.record_failed);
    /* The tally: a set won is 1 to its side, a tie half to each; a fault loses. With -objective
     * points, the points each side's sets settle too (a set without them stops the run). */
    double won[2] = { 0, 0 }, settled_plus = 0;
    int faults[2] = { 0, 0 }, played = 0;
    for (int j = 0; rc == 0 && j < it.n_jobs; j++) {
        const arena_set_result_t *r = &it.res[j];
        if (interrupted >= 2 || r->reason == END_INTERRUPTED || (j >= it.next && it.next < it.n_jobs)) {
            rc = 1;
            break;
        }
        int side0 = j % 2; /* the leg: plus sits in seat 0 in leg 0, minus in leg 1 */
        if (t->points && r->reason == END_NORMAL && !r->has_settled) {
            rc = text_fail(t->failure, sizeof t->failure,
                           "-objective points: the sets settle no points under these rules (a Picket partie does: -preset cavendish)");
            break;
        }
        if (t->points)
            settled_plus += r->reason == END_NORMAL ? r->settled[side0] : 0;
        for (int seat = 0; seat < 2; seat++) {
            int side = seat ^ side0;
            won[side] += r->winner == seat ? 1.0 : r->winner < 0 ? 0.5 : 0.0;
            if (r->fault_seat == seat) {
                faults[side]++;
                fprintf(stderr, "%spicket-tune: iteration %d pair %d leg %d: %s loses by %s: %s\n", t->tty && !t->quiet ? "\n" : "", k,
                        j / 2, j % 2, side ? "minus" : "plus", END_REASON_NAMES[r->reason], r->detail);
                if (r->reason == END_START)
                    rc = text_fail(t->failure, sizeof t->failure, "the %s engine cannot be restarted (%s)", side ? "minus" : "plus",
                                     r->detail);
                if (++t->fault_run[side] >= t->max_faults && rc == 0)
                    rc = text_fail(t->failure, sizeof t->failure, "the %s engine faulted in %d sets in a row (last: %s); stopping (-maxfaults N)",
                                     side ? "minus" : "plus", t->fault_run[side], END_REASON_NAMES[r->reason]);
            } else {
                t->fault_run[side] = 0;
            }
        }
        played++;
    }
    if (rc == 0 && interrupted >= 2)
        rc = 1;
    if (rc == 0) {
        double r = (won[0] - won[1]) / played;
        if (t->points)
            r = fmax(-1.0, fmin(1.0, settled_plus / played / t->points_scale));
        t->last_won[0] = won[0];
        t->last_won[1] = won[1];
        t->last_played = played;
        double theta[MAX_PARAMS];
        for (int i = 0; i < t->n_params; i++) {
            param_t *p = &t->p[i];
            theta[i] = fmin(p->max, fmax(p->min, p->theta + p->step * ak * r / (2 * ck) * delta[i]));
        }
        /* The log line first, then the state: a kill between them leaves a log line the resume
         * cuts off. */
        static const char *const steps[] = { "k", "a_k", "c_k" };
        static const char *const tally[] = { "sets", "plus_won", "minus_won", "plus_faults", "minus_faults", "result" };
        cJSON *l = cJSON_CreateObject();
        char *text = NULL;
        if (cJSON_AddStringToObject(l, "type", "iteration") && arena_results_add_numbers(l, steps, (double[]){ k, ak, ck }, 3) == 0 &&
            arena_results_add(l, "delta", theta_json(t, delta)) == 0 && arena_results_add(l, "plus", theta_json(t, plus)) == 0 &&
            arena_results_add(l, "minus", theta_json(t, minus)) == 0 &&
            arena_results_add_numbers(l, tally, (double[]){ played, won[0], won[1], faults[0], faults[1], r }, 6) == 0 &&
            arena_results_add(l, "theta", theta_json(t, theta)) == 0 &&
            (!t->points || cJSON_AddNumberToObject(l, "plus_points", settled_plus)))
            text = cJSON_PrintUnformatted(l);
        cJSON_Delete(l);
        if (!text || append_line(t->log_path, text) < 0)
            rc = text_fail(t->failure, sizeof t->failure, "cannot write the log '%.200s': %s", t->log_path, strerror(errno));
        cJSON_free(text);
        for (int i = 0; rc == 0 && i < t->n_params; i++)
            t->p[i].theta = theta[i];
        if (rc == 0)
            t->k_done = k;
        if (rc == 0 && save_state(t) < 0)
            rc = text_fail(t->failure, sizeof t->failure, "cannot write the state '%.200s': %s", t->state_path, strerror(errno));
    }
    free(it.res);
    arena_spec_free(&it.spec[0]);
    arena_spec_free(&it.spec[1]);
    return rc;
}

/* ---------------------------------------------------------------- the plot */

/* params.dat from the log (iteration, then theta of each option; row 0 the start), then
 * params.png through gnuplot: one panel an option. 0, or -1 with a reason. */
static int draw_plot(const tune_t *t, char *err, size_t errlen)
{
    char why[400], *text = lines_slurp(t->log_path, TUNE_MAX_FILE, why, sizeof why);
    if (!text)
        return text_fail(err, errlen, "cannot read the log %s", why);
    FILE *dat = fopen(t->dat_path, "w");
    if (!dat) {
        int rc = text_fail(err, errlen, "cannot write '%.200s': %s", t->dat_path, strerror(errno));
        free(text);
        return rc;
    }
    fprintf(dat, "# iteration");
    for (int i = 0; i < t->n_params; i++)
        fprintf(dat, " %s", t->p[i].name);
    fprintf(dat, "\n0");
    for (int i = 0; i < t->n_params; i++)
        fprintf(dat, " %.17g", t->p[i].start);
    fputc('\n', dat);
    char *save = NULL;
    int lineno = 1, damaged = 0;
    strtok_r(text, "\n", &save); /* the header */
    for (char *line; !damaged && (line = strtok_r(NULL, "\n", &save));) {
        cJSON *l = cJSON_Parse(line);
        const cJSON *k = cJSON_GetObjectItemCaseSensitive(l, "k"), *th = cJSON_GetObjectItemCaseSensitive(l, "theta");
        lineno++;
        if (cJSON_IsNumber(k) && cJSON_IsObject(th)) {
            fprintf(dat, "%d", (int)k->valuedouble);
            for (int i = 0; i < t->n_params; i++) {
                const cJSON *v = cJSON_GetObjectItemCaseSensitive(th, t->p[i].name);
                fprintf(dat, " %.17g", cJSON_IsNumber(v) ? v->valuedouble : NAN);
            }
            fputc('\n', dat);
        } else {
            damaged = 1;
        }
        cJSON_Delete(l);
    }
    free(text);
    if (damaged) {
        fclose(dat);
        return text_fail(err, errlen, "the log '%.200s': line %d is not an iteration", t->log_path, lineno);
    }
    if (fclose(dat) != 0)
        return text_fail(err, errlen, "cannot write '%.200s': %s", t->dat_path, strerror(errno));
    char script[4096 * 4];
    int n = snprintf(script, sizeof script,
                     "set terminal png size 900,%d noenhanced\nset output '%s'\nset multiplot layout %d,1 title 'picket-tune: each option over the iterations'\n"
                     "set grid\nset key off\nset xlabel 'iteration'\n",
                     220 * t->n_params + 60, t->png_path, t->n_params);
    for (int i = 0; i < t->n_params && n > 0 && (size_t)n < sizeof script; i++)
        n += snprintf(script + n, sizeof script - (size_t)n,
                      "set ylabel '%s'\nset yrange [%.17g:%.17g]\nplot '%s' using 1:%d with lines linewidth 2\n", t->p[i].name, t->p[i].min,
                      t->p[i].max, t->dat_path, i + 2);
    if (n <= 0 || (size_t)n >= sizeof script - 32)
        return text_fail(err, errlen, "the plot script is too long");
    snprintf(script + n, sizeof script - (size_t)n, "unset multiplot");
    char gp[4300];
    snprintf(gp, sizeof gp, "%s/params.gp", t->out);
    if (write_atomic(gp, script, NULL) < 0)
        return text_fail(err, errlen, "cannot write '%.200s': %s", gp, strerror(errno));
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0)
            dup2(null, STDOUT_FILENO);
        execlp("gnuplot", "gnuplot", gp, (char *)NULL);
        _exit(127);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return text_fail(err, errlen, "gnuplot could not draw '%.200s' (is Debian's gnuplot-nox installed?)", t->png_path);
    return 0;
}

/* 1 if a program is on PATH. */
static int on_path(const char *prog)
{
    const char *path = getenv("PATH");
    char buf[4200];
    while (path && *path) {
        size_t n = strcspn(path, ":");
        snprintf(buf, sizeof buf, "%.*s/%s", (int)n, path, prog);
        if (access(buf, X_OK) == 0)
            return 1;
        path += n + (path[n] == ':');
    }
    return 0;
}

/* ---------------------------------------------------------------- the end */

/* A word as the shell reads it back: quoted when it holds anything but safe characters. */
static void print_word(const char *w)
{
    if (*w && strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=.,/:%@") == strlen(w)) {
        fputs(w, stdout);
        return;
    }
    putchar('\'');
    for (; *w; w++)
        if (*w == '\'')
            fputs("'\\''", stdout);
        else
            putchar(*w);
    putchar('\'');
}

static void print_engine(const tune_t *t, const char *name, int tuned)
{
    fputs(" -engine", stdout);
    for (int f = 0; f < t->n_fields; f++)
        if (strncmp(t->fields[f], "name=", 5) != 0) {
            putchar(' ');
            print_word(t->fields[f]);
        }
    printf(" name=%s", name);
    for (int i = 0; i < t->n_params; i++) {
        char v[OPT_NUMBER_LEN], field[NAME_LEN + OPT_NUMBER_LEN + 16];
        format_value(tuned ? t->p[i].theta : t->p[i].start, t->p[i].spin, v, sizeof v);
        snprintf(field, sizeof field, "option.%s=%s", t->p[i].name, v);
        putchar(' ');
        print_word(field);
    }
}

static void report(const tune_t *t)
{
    printf("\nTuned after %d of %d iterations (%d sets):\n", t->k_done, t->iterations, t->k_done * t->pairs * 2);
    for (int i = 0; i < t->n_params; i++) {
        char v[OPT_NUMBER_LEN], s[OPT_NUMBER_LEN];
        format_value(t->p[i].theta, t->p[i].spin, v, sizeof v);
        format_value(t->p[i].start, t->p[i].spin, s, sizeof s);
        printf("  %-32s %-12s (start %s, theta %.6g)\n", t->p[i].name, v, s, t->p[i].theta);
    }
    printf("\nVerify with a separate match (200 duplicate pairs, another seed):\n  ");
    print_word(t->arena_path);
    print_engine(t, "tuned", 1);
    print_engine(t, "start", 0);
    if (strcmp(t->game->name, "picket") != 0)
        printf(" -game %s -players 2", t->game->name);
    if (t->cfg.preset[0])
        printf(" -preset %s", t->cfg.preset);
    for (int i = 0; i < t->cfg.n_flags; i++) {
        fputs(" -flag ", stdout);
        print_word(t->cfg.flags[i]);
    }
    printf(" -rounds 200 -concurrency %d -seed %" PRIu64 "\n", t->concurrency, t->seed + 1000);
}

static void progress(const tune_t *t, int final)
{
    if (t->quiet || (final && !t->tty))
        return;
    double elapsed = measure_now() - t->started;
    int left = t->iterations - t->k_done;
    char line[1024];
    int n = snprintf(line, sizeof line, "[%d/%d]", t->k_done, t->iterations);
    for (int i = 0; i < t->n_params && (size_t)n < sizeof line - 160; i++) {
        n += snprintf(line + n, sizeof line - (size_t)n, " %s=%.6g", t->p[i].name, t->p[i].theta);
        if ((size_t)n >= sizeof line - 160)
            n = (int)(sizeof line - 160); /* a long list is cut; the result and the ETA still fit */
    }
    /* The last iteration's result: sets won by theta+ and by theta- of those played. */
    if (t->last_played > 0)
        n += snprintf(line + n, sizeof line - (size_t)n, "  last: +%g -%g of %g", t->last_won[0], t->last_won[1], t->last_played);
    int done_here = t->k_done - t->k_first;
    double eta = done_here > 0 ? elapsed / done_here * left : -1;
    if (eta >= 0)
        snprintf(line + n, sizeof line - (size_t)n, "  ETA %d:%02d:%02d", (int)(eta / 3600), (int)fmod(eta / 60, 60), (int)fmod(eta, 60));
    fprintf(stderr, "%s%s%s", t->tty ? "\r" : "", line, !t->tty ? "\n" : final ? "   \n" : "   ");
}

/* ---------------------------------------------------------------- main */

/* Does a game under this config settle points (-objective points)? One game of random moves to
 * its end says: 1, 0, or -1 with a reason (memory, or a game that does not end). */
static int settles_points(const game_t *g, const game_config_t *cfg, char *err, size_t errlen)
{
    if (!g->settled)
        return 0;
    void *state = calloc(1, g->state_size);
    if (!state)
        return text_fail(err, errlen, "out of memory");
    int rc = g->init(state, cfg, err, errlen) < 0 ? -1 : 0, out[GAME_MAX_PLAYERS];
    rng_t rng;
    rng_seed(&rng, 1);
    for (long step = 0; rc == 0 && g->to_move(state) != GAME_OVER; step++) {
        game_move_t m;
        if (step > 1000000)
            rc = text_fail(err, errlen, "-objective points: a game of random moves did not end");
        else if (g->to_move(state) == GAME_CHANCE)
            g->apply_chance(state, &rng, NULL, 0);
        else if (g->random_move(state, &rng, &m) == 0)
            g->apply(state, &m, NULL, 0);
        else
            rc = text_fail(err, errlen, "-objective points: a game of random moves found no move");
    }
    if (rc == 0)
        rc = g->settled(state, out);
    free(state);
    return rc;
}

/* Everything before the first iteration: options, rules, the engine, the folder. Nothing is
 * written unless all of it passes. 0, or -1 with a reason. */
static int prepare(tune_t *t, int argc, char **argv, char *err, size_t errlen)
{
    if (parse_args(t, argc, argv, err, errlen) < 0)
        return -1;
    t->cfg.players = 2;
    referee_t *rules = referee_create(t->game, &t->cfg, err, errlen);
    if (!rules)
        return -1;
    referee_free(rules);
    if (!t->cfg.preset[0] && t->game == game_find("picket"))
        snprintf(t->cfg.preset, sizeof t->cfg.preset, "cotgrave");
    int settles = t->points ? settles_points(t->game, &t->cfg, err, errlen) : 1;
    if (settles < 0)
        return -1;
    if (!settles)
        return text_fail(err, errlen, "-objective points: %s's sets settle no points under these rules (a Picket partie does: -preset cavendish)",
                         t->game->name);
    if (t->plot && !on_path("gnuplot"))
        return text_fail(err, errlen, "gnuplot is not on PATH: install Debian's gnuplot-nox, or give -noplot");
    struct stat st;
    int exists = stat(t->out, &st) == 0;
    if (exists && !S_ISDIR(st.st_mode))
        return text_fail(err, errlen, "-out: '%.200s' is not a folder", t->out);
    if (t->records && stat(t->records_path, &st) == 0 && !S_ISDIR(st.st_mode))
        return text_fail(err, errlen, "-records: '%.200s' is not a folder", t->records_path);
    int has_state = exists && stat(t->state_path, &st) == 0, has_log = exists && stat(t->log_path, &st) == 0;
    if (!t->resume && (has_state || has_log))
        return text_fail(err, errlen, "-out: '%.200s' already holds a tuning run: add -resume to continue it, or choose another folder",
                           t->out);
    /* A log of iterations without its state is not a run to start afresh over. */
    if (t->resume && !has_state && has_log) {
        char why[400], *text = lines_slurp(t->log_path, TUNE_MAX_FILE, why, sizeof why), *nl = text ? strchr(text, '\n') : NULL;
        int iterations = !text || (nl && strchr(nl + 1, '\n'));
        free(text);
        if (iterations)
            return text_fail(err, errlen, "-resume: '%.200s' holds a log of iterations but no state.json; nothing was changed", t->out);
    }
    if (check_engine(t, err, errlen) < 0)
        return -1;
    if (!(t->run = run_json(t)))
        return text_fail(err, errlen, "out of memory");
    if (t->resume && stat(t->state_path, &st) == 0)
        return load_state(t, err, errlen) < 0 || trim_log(t, err, errlen) < 0 ? -1 : 0;
    if ((!exists && mkdir(t->out, 0777) < 0) || (t->records && mkdir(t->records_path, 0777) < 0 && errno != EEXIST))
        return text_fail(err, errlen, "-out: cannot create the folder '%.200s': %s", t->out, strerror(errno));
    char *header = arena_results_header_text(t->run);
    int bad = !header || write_atomic(t->log_path, header, NULL) < 0;
    cJSON_free(header);
    if (bad || save_state(t) < 0)
        return text_fail(err, errlen, "cannot write in '%.200s': %s", t->out, strerror(errno));
    return 0;
}

/* Output that could not be written is an error (lines_check_stdout). */
static void check_stdout(void) { lines_check_stdout("picket-tune"); }

int main(int argc, char **argv)
{
    atexit(check_stdout);
    int info = arena_cli_help(argc, argv, USAGE, "picket-tune " PICKET_VERSION);
    if (info >= 0)
        return info;
    arena_cli_signals(on_signal);
    static tune_t tune;
    tune_t *t = &tune;
    t->tty = isatty(STDERR_FILENO);
    t->started = measure_now();
    char err[1024];
    if (prepare(t, argc, argv, err, sizeof err) < 0) {
        cJSON_Delete(t->run);
        fprintf(stderr, "picket-tune: %s\n", interrupted ? "interrupted" : err);
        return interrupted ? 130 : 2;
    }
    t->k_first = t->k_done;
    const char *slash = strrchr(argv[0], '/');
    snprintf(t->arena_path, sizeof t->arena_path, "%.*spicket-arena", slash ? (int)(slash - argv[0] + 1) : 0, argv[0]);
    if (!t->quiet)
        fprintf(stderr, "picket-tune: %d options, %d iterations of %d pairs%s, concurrency %d, folder %s\n", t->n_params, t->iterations,
                t->pairs, t->k_done ? " (resumed)" : "", t->concurrency, t->out);
    int status = 0;
    for (int k = t->k_done + 1; k <= t->iterations && !interrupted; k++) {
        int rc = run_iteration(t, k);
        if (rc != 0) {
            status = rc > 0 ? 130 : 1;
            break;
        }
        progress(t, 0);
        /* params.png follows the run (every 30 s at most): a run watched, or killed, has one. */
        if (t->plot && !t->plot_failed && measure_now() - t->plotted_at >= 30 && k < t->iterations) {
            t->plotted_at = measure_now();
            t->plot_failed = draw_plot(t, err, sizeof err) < 0;
        }
    }
    if (interrupted && status == 0)
        status = 130;
    progress(t, 1);
    if (t->plot && t->k_done > 0 && draw_plot(t, err, sizeof err) < 0) {
        fprintf(stderr, "picket-tune: %s\n", err);
        if (status == 0)
            status = 1;
    }
    report(t);
    if (t->plot && t->k_done > 0)
        printf("\nThe path of each option: %s\n", t->png_path);
    if (fflush(stdout) != 0 && status == 0)
        status = 1;
    if (t->failure[0])
        fprintf(stderr, "picket-tune: %s (continue with -resume)\n", t->failure);
    if (status == 130)
        fprintf(stderr, "picket-tune: interrupted after iteration %d of %d (continue with -resume)\n", t->k_done, t->iterations);
    cJSON_Delete(t->run);
    return status;
}
