/* arena_pool: the one worker pool of the arena's programs (picket-arena, picket-tune).
 *
 * A number of threads, each with its own engine processes (one for every engine the caller
 * names), play sets through arena_play_set one after another. The caller decides everything
 * about a set through three calls: which set comes next (take), how it is set up (begin) and
 * what its result means (end); the pool owns only the threads, their processes and one lock.
 * It never judges a result, never writes a file and never prints. A worker's processes live
 * from the first set that seats them until the worker ends. */
#ifndef PICKET_ARENA_POOL_H
#define PICKET_ARENA_POOL_H

#include <signal.h>
#include <stddef.h>

#include "arena_match.h"

enum { ARENA_POOL_MAX_WORKERS = 64 };

/* Errors are values: arena_pool_run's answers. */
enum { ARENA_POOL_OK = 0, ARENA_POOL_NO_MEMORY = -1, ARENA_POOL_NO_THREAD = -2 };

/* One set as a worker plays it: begin fills it, arena_play_set plays it, end reads it. */
typedef struct arena_pool_set {
    int job;                          /* the number take gave */
    int worker;                       /* which worker plays it, 0 .. workers - 1 */
    int engine[GAME_MAX_PLAYERS];     /* by seat (setup.cfg.players of them): an engine of specs */
    arena_set_setup_t setup;          /* begin fills all of it but engine[], which the pool fills
                                       * with the worker's processes of engine[seat] */
    arena_set_result_t result;        /* the set's end */
    void *mine;                       /* set_size bytes of the caller's own, zeroed before begin,
                                       * kept until end (a record being written, say) */
} arena_pool_set_t;

typedef struct arena_pool {
    int n_engines;                        /* processes each worker keeps */
    const arena_spec_t *specs;            /* [n_engines]: how each is started */
    arena_log_t *log;                     /* every process's lines (NULL: none) */
    const volatile sig_atomic_t *abort;   /* every process's abort flag (NULL: none) */
    size_t set_size;                      /* bytes of arena_pool_set_t.mine */
    void *data;                           /* the caller's, passed to the calls */
    /* With the lock held: the next job (0 or more), or -1 when this worker should end. */
    int (*take)(void *data);
    /* Without the lock: set s->job up (s->setup, s->engine; s->worker is set). */
    void (*begin)(void *data, arena_pool_set_t *s);
    /* With the lock held: the set has ended. 0 to go on, -1 to end this worker. */
    int (*end)(void *data, arena_pool_set_t *s);
} arena_pool_t;

/* Play jobs on `workers` threads until take ends every worker, then stop every process. The
 * threads that start play even when a later one cannot. ARENA_POOL_OK, ARENA_POOL_NO_MEMORY
 * (nothing played) or ARENA_POOL_NO_THREAD (no thread started: nothing played). */
int arena_pool_run(const arena_pool_t *p, int workers);

#endif
