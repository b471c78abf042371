/* picket-serve: the card table in a browser (docs/serve.md). A person plays Picket or Court
 * Circular against engines that speak the protocol, each a process of its own driven as in the
 * arena; the referee is the project's one referee. See tools/serve/serve_http.h for what keeps it
 * safe to put on a network. */
#define _GNU_SOURCE
#include <malloc.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "arena_cli.h"
#include "lines.h"
#include "serve_http.h"
#include "text.h"

#ifndef PICKET_VERSION
#define PICKET_VERSION "unknown"
#endif
#ifndef PICKET_WEB_DIR
#define PICKET_WEB_DIR "tools/serve/web"
#endif

static const char *const USAGE =
    "usage: picket-serve [options]\n"
    "\n"
    "The card table in a browser: play Picket (any preset and flags) or Court Circular (2 to 8\n"
    "seats) against engines; open the URL it prints. See docs/serve.md.\n"
    "\n"
    "  --listen ADDR:PORT  where to listen (default 127.0.0.1:8080; port 0: any free port).\n"
    "                      Anything but 127.0.0.1 serves other machines: read docs/serve.md first\n"
    "  --engine FIELDS     an engine a person may play, as the arena's fields (cmd=PROGRAM\n"
    "                      name=NAME option.X=V ...; the words after --engine that hold '=');\n"
    "                      repeatable. Default: picket-engine beside this program at levels 1 to\n"
    "                      5, named level-1 to level-5\n"
    "  --watch RESULTS     follow a picket-arena run: its -results file (standings, sets done)\n"
    "  --watch-records DIR and its -records folder (the sets in progress, public events only)\n"
    "  --records DIR       a folder of game records the page may review (default: --watch-records)\n"
    "  --hint-level N      the bundled engine's level for hints and reviews, 1 to 5 (default 5;\n"
    "                      0: neither)\n"
    "  --web DIR           the page's files (default: the source tree's tools/serve/web)\n"
    "  --max-games N       tables and reviews open at once (default 16, 1 to 5000)\n"
    "  --max-connections N connections at once (default 1200, 16 to 10000)\n"
    "  --rate N            requests a second one address may make to the API, with bursts of\n"
    "                      twice that (default 50; 0: no limit)\n"
    "  --idle SECONDS      close a table nobody has asked about for this long (default 3600)\n"
    "  --engine-seed N     the engines' own randomness, the same for the same N (default: from the\n"
    "                      system; never the deals' seed, which names every card)\n"
    "  --quiet             no log lines\n"
    "  -version, --help\n";

static volatile sig_atomic_t stop;
static void on_signal(int sig)
{
    (void)sig;
    stop = 1;
}

/* The bundled engine beside this program at a level, as engine fields. */
static int bundled(arena_spec_t *s, const char *self, const char *name, int level, char *err, size_t errlen)
{
    char field[1400], why[400];
    const char *slash = strrchr(self, '/');
    arena_spec_init(s);
    snprintf(field, sizeof field, "cmd=%.*spicket-engine", slash ? (int)(slash - self + 1) : 0, self);
    int rc = arena_spec_set(s, field, why, sizeof why);
    snprintf(field, sizeof field, "name=%s", name);
    if (rc == 0)
        rc = arena_spec_set(s, field, why, sizeof why);
    snprintf(field, sizeof field, "option.level=%d", level);
    if (rc == 0)
        rc = arena_spec_set(s, field, why, sizeof why);
    if (rc == 0)
        rc = arena_spec_set(s, "option.info=false", why, sizeof why);
    if (rc == 0)
        rc = arena_spec_set(s, "timeout=60", why, sizeof why); /* a hung engine is shown as such within a minute */
    return rc < 0 ? text_fail(err, errlen, "%s: %s", name, why) : 0;
}

static int parse_args(serve_config_t *c, int argc, char **argv, char *err, size_t errlen)
{
    int hint_level = 5, n_given = 0;
    snprintf(c->listen_addr, sizeof c->listen_addr, "127.0.0.1");
    c->port = 8080;
    snprintf(c->web_dir, sizeof c->web_dir, "%s", PICKET_WEB_DIR);
    c->max_games = 16;
    c->max_connections = 1200;
    c->rate = 50;
    c->idle_close = 3600;
    c->poll_wait = 20;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int num;
        if (!strcmp(o, "--quiet")) {
            c->quiet = 1;
            continue;
        }
        if (!strcmp(o, "--engine")) {
            if (n_given == SERVE_MAX_ENGINES)
                return text_fail(err, errlen, "--engine: at most %d engines", SERVE_MAX_ENGINES);
            arena_spec_t *s = &c->engine[n_given++];
            c->n_engines = n_given;
            arena_spec_init(s);
            int k = 0;
            while (i + 1 < argc && strchr(argv[i + 1], '=') && argv[i + 1][0] != '-') {
                char why[400];
                if (arena_spec_set(s, argv[++i], why, sizeof why) < 0)
                    return text_fail(err, errlen, "--engine: %s", why);
                k++;
            }
            char why[400];
            if (k == 0)
                return text_fail(err, errlen, "--engine needs fields (cmd=PROGRAM name=NAME ...)");
            if (arena_spec_check(s, why, sizeof why) < 0)
                return text_fail(err, errlen, "--engine: %s", why);
            if (!strcmp(s->name, ""))
                return text_fail(err, errlen, "--engine: name= is missing");
            for (int j = 0; j < n_given - 1; j++)
                if (!strcmp(c->engine[j].name, s->name))
                    return text_fail(err, errlen, "--engine: two engines named '%s'", s->name);
            continue;
        }
        if (!v || strncmp(o, "--", 2) != 0)
            return arena_cli_refuse(USAGE, o, err, errlen);
        i++;
        if (!strcmp(o, "--listen")) {
            const char *colon = strrchr(v, ':');
            if (!colon || colon == v || (size_t)(colon - v) >= sizeof c->listen_addr ||
                text_int(colon + 1, 0, 65535, &c->port) < 0)
                return text_fail(err, errlen, "--listen: '%.60s' is not ADDR:PORT (port 0 to 65535)", v);
            snprintf(c->listen_addr, sizeof c->listen_addr, "%.*s", (int)(colon - v), v);
        } else if (!strcmp(o, "--watch"))
            snprintf(c->watch_results, sizeof c->watch_results, "%s", v);
        else if (!strcmp(o, "--watch-records"))
            snprintf(c->watch_records, sizeof c->watch_records, "%s", v);
        else if (!strcmp(o, "--records"))
            snprintf(c->records_dir, sizeof c->records_dir, "%s", v);
        else if (!strcmp(o, "--web"))
            snprintf(c->web_dir, sizeof c->web_dir, "%s", v);
        else if (!strcmp(o, "--hint-level")) {
            if (text_int(v, 0, 5, &hint_level) < 0)
                return text_fail(err, errlen, "--hint-level: '%.20s' is not a level from 0 to 5", v);
        } else if (!strcmp(o, "--max-games")) {
            if (text_int(v, 1, 5000, &c->max_games) < 0)
                return text_fail(err, errlen, "--max-games: '%.20s' is not a number from 1 to 5000", v);
        } else if (!strcmp(o, "--max-connections")) {
            if (text_int(v, 16, 10000, &c->max_connections) < 0)
                return text_fail(err, errlen, "--max-connections: '%.20s' is not a number from 16 to 10000", v);
        } else if (!strcmp(o, "--rate")) {
            if (text_int(v, 0, 100000, &num) < 0)
                return text_fail(err, errlen, "--rate: '%.20s' is not a number from 0 to 100000", v);
            c->rate = num;
        } else if (!strcmp(o, "--engine-seed")) {
            if (text_u64(v, 0, UINT64_MAX, &c->engine_seed) < 0)
                return text_fail(err, errlen, "--engine-seed: '%.30s' is not a number from 0 to 18446744073709551615", v);
            c->engine_seed_given = 1;
        } else if (!strcmp(o, "--idle")) {
            if (text_int(v, 10, 86400 * 7, &num) < 0)
                return text_fail(err, errlen, "--idle: '%.20s' is not a number of seconds from 10 to 604800", v);
            c->idle_close = num;
        } else
            return arena_cli_refuse(USAGE, o, err, errlen);
    }
    if (c->n_engines == 0)
        for (int level = 1; level <= 5; level++) {
            char name[16];
            snprintf(name, sizeof name, "level-%d", level);
            if (bundled(&c->engine[c->n_engines++], argv[0], name, level, err, errlen) < 0)
                return -1;
        }
    if (hint_level > 0) {
        c->has_hint = 1;
        c->hint_unit = hint_level >= 5 ? SERVE_VALUES_HYBRID : hint_level >= 3 ? SERVE_VALUES_REWARD : SERVE_VALUES_RAW;
        if (bundled(&c->hint, argv[0], "hints", hint_level, err, errlen) < 0)
            return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    int info = arena_cli_help(argc, argv, USAGE, "picket-serve " PICKET_VERSION);
    if (info >= 0 && info != 2) /* 2: no argument, serve with every default */
        return info;
    arena_cli_signals(on_signal);
    /* A table holds its engines' pipes, a browser its connections: use every descriptor allowed. */
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    /* A thread a connection: few malloc arenas, so that freed memory is reused, not kept per thread. */
    mallopt(M_ARENA_MAX, 4);
    mallopt(M_MMAP_THRESHOLD, 128 * 1024); /* fixed: large blocks are mapped, and unmapped when freed */
    static serve_config_t cfg;
    char err[1200];
    if (parse_args(&cfg, argc, argv, err, sizeof err) < 0) {
        fprintf(stderr, "picket-serve: %s\n", err);
        for (int i = 0; i < cfg.n_engines; i++)
            arena_spec_free(&cfg.engine[i]);
        if (cfg.has_hint)
            arena_spec_free(&cfg.hint);
        return 2;
    }
    serve_t *s = serve_start(&cfg, err, sizeof err);
    if (!s) {
        fprintf(stderr, "picket-serve: %s\n", err);
        return 2;
    }
    printf("picket-serve: open http://%s:%d/ in a browser (Ctrl-C stops)\n", cfg.listen_addr, serve_port(s));
    fflush(stdout);
    while (!stop) {
        sleep(1);
        serve_tick(s);
    }
    if (!cfg.quiet)
        fprintf(stderr, "picket-serve: stopping (%d tables open)\n", serve_games(s));
    serve_stop(s);
    return 0;
}
