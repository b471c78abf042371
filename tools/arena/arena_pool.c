/* arena_pool: threads that play the caller's sets (arena_pool.h). */
#include "arena_pool.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct pool_worker {
    const arena_pool_t *p;
    pthread_mutex_t *lock;
    int id;
    arena_engine_t *procs;    /* [p->n_engines] */
    void *mine;               /* p->set_size bytes */
} pool_worker_t;

static void *pool_worker_main(void *arg)
{
    pool_worker_t *w = arg;
    const arena_pool_t *p = w->p;
    for (int e = 0; e < p->n_engines; e++)
        w->procs[e] = (arena_engine_t){ .spec = &p->specs[e], .log = p->log, .instance = w->id, .abort = p->abort };
    for (;;) {
        pthread_mutex_lock(w->lock);
        int job = p->take(p->data);
        pthread_mutex_unlock(w->lock);
        if (job < 0)
            break;
        if (p->set_size)
            memset(w->mine, 0, p->set_size);
        arena_pool_set_t s = { .job = job, .worker = w->id, .mine = w->mine };
        p->begin(p->data, &s);
        for (int seat = 0; seat < s.setup.cfg.players && seat < GAME_MAX_PLAYERS; seat++)
            s.setup.engine[seat] = &w->procs[s.engine[seat]];
        arena_play_set(&s.setup, &s.result);
        pthread_mutex_lock(w->lock);
        int go_on = p->end(p->data, &s) == 0;
        pthread_mutex_unlock(w->lock);
        if (!go_on)
            break;
    }
    for (int e = 0; e < p->n_engines; e++)
        arena_engine_stop(&w->procs[e]);
    return NULL;
}

int arena_pool_run(const arena_pool_t *p, int workers)
{
    size_t n = workers > 0 ? (size_t)workers : 1;
    pool_worker_t *w = calloc(n, sizeof *w);
    pthread_t *threads = calloc(n, sizeof *threads);
    arena_engine_t *procs = calloc(n * (size_t)(p->n_engines > 0 ? p->n_engines : 1), sizeof *procs);
    unsigned char *mine = calloc(n, p->set_size ? p->set_size : 1);
    int rc = !w || !threads || !procs || !mine ? ARENA_POOL_NO_MEMORY : ARENA_POOL_OK;
    pthread_mutex_t lock;
    pthread_mutex_init(&lock, NULL);
    int started = 0;
    for (int i = 0; rc == ARENA_POOL_OK && i < workers; i++) {
        w[i] = (pool_worker_t){ p, &lock, i, procs + (size_t)i * (size_t)p->n_engines, mine + (size_t)i * p->set_size };
        if (pthread_create(&threads[i], NULL, pool_worker_main, &w[i]) != 0)
            break;
        started++;
    }
    if (rc == ARENA_POOL_OK && !started)
        rc = ARENA_POOL_NO_THREAD;
    for (int i = 0; i < started; i++)
        pthread_join(threads[i], NULL);
    pthread_mutex_destroy(&lock);
    free(w), free(threads), free(procs), free(mine);
    return rc;
}
