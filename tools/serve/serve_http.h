/* serve_http: picket-serve's HTTP server (GNU libmicrohttpd): the page's files, the JSON API, the
 * tables in play and their limits (docs/serve.md has the API).
 *
 * Safe by construction: only the engines named at start run (a request names one of them, never
 * a command); the page's files are read once at start from a fixed list (no path from a request
 * reaches the file system); every body is bounded and parsed with cJSON, unknown fields refused;
 * game ids are 128 random bits; each table shows only its person's seat (serve_table.h); the
 * tables at once, the connections and each address's requests a second are capped.
 */
#ifndef PICKET_SERVE_HTTP_H
#define PICKET_SERVE_HTTP_H

#include <stddef.h>
#include <stdint.h>

#include "arena_match.h"
#include "serve_review.h"

enum { SERVE_MAX_ENGINES = 16 };

typedef struct serve_config {
    char listen_addr[64];        /* an IPv4 address (default 127.0.0.1) */
    int port;                    /* 0: any free port (serve_port says which) */
    char web_dir[1024];          /* the page's files */
    arena_spec_t engine[SERVE_MAX_ENGINES]; /* the engines a person may play (owned) */
    int n_engines;
    arena_spec_t hint;           /* the engine of hints and reviews (owned) */
    int has_hint;                /* 0: no hints, no reviews */
    serve_values_t hint_unit;    /* what its values are */
    int max_games;               /* tables at once */
    int max_connections;
    double rate;                 /* requests a second an address may make (0: no limit) */
    double idle_close;           /* seconds a table may sit unasked before it is closed */
    double poll_wait;            /* the longest a poll waits for news, seconds */
    int quiet;                   /* no log lines on stderr */
    char watch_results[1024];    /* a picket-arena's -results file to follow ("": none) */
    char watch_records[1024];    /* its -records folder, for the sets in progress ("": none) */
    char records_dir[1024];      /* a folder of records the page may review ("": watch_records, if any) */
    int engine_seed_given;       /* the engines' randomness from engine_seed (else from the system) */
    uint64_t engine_seed;        /* table k's engines: rng_derive(engine_seed, k); never the deals' */
} serve_config_t;

typedef struct serve serve_t;

/* Start serving (the engines are checked first: each must start and answer). NULL with a
 * one-line reason. The config is copied; its engines belong to the server from here. */
serve_t *serve_start(serve_config_t *cfg, char *err, size_t errlen);
int serve_port(const serve_t *s);
/* Close idle tables; call now and then (picket-serve does it once a second). */
void serve_tick(serve_t *s);
/* Tables open now. */
int serve_games(serve_t *s);
void serve_stop(serve_t *s);

#endif
