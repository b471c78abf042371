/* bench/serve: picket-serve under load on loopback. It starts picket-serve (the bundled engine
 * at level 1 as every opponent), then N clients at once, each a thread that opens a table and
 * plays set after set through the API as a page does (a long poll for news, then its move),
 * for the given time. It samples the server's memory (its own, and its engines') every second.
 *
 * Prints the requests made, the errors (any answer that is not 200, or a connection that
 * failed), the sets played, the move requests' latency, the memory over the run, and whether
 * the targets are met: no error, and memory flat: once as many sets were played to their end as
 * there are clients (tables closed and opened again: sets are to --target points, 30 by default,
 * so that this comes soon), the peak of the server's resident memory over the second half of the
 * rest of the run within 10% of its peak over the first half.
 *
 *   bench/serve [--clients N] [--seconds S] [--target T] [--seed X] [--serve PROGRAM] [--engine PROGRAM]
 */
#define _GNU_SOURCE
#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "measure.h"
#include "serve_client.h"
#include "text.h"

#ifndef PICKET_VERSION
#define PICKET_VERSION "unknown"
#endif

enum { MAX_CLIENTS = 5000, LAT_MAX = 1 << 20, SAMPLES_MAX = 4000 };

static const char *const USAGE =
    "usage: bench/serve [options]\n"
    "picket-serve under load: N clients at once on loopback, each playing sets through the API.\n"
    "  --clients N       clients at once (default 1000, 1 to 5000)\n"
    "  --seconds S       how long they play (default 60, 5 to 3600)\n"
    "  --target T        the sets' target, points (default 30)\n"
    "  --seed X          the deals: client i plays seeds X+i, X+i+N, ... (default 1)\n"
    "  --serve PROGRAM   picket-serve (default: build/tools/picket-serve)\n"
    "  --engine PROGRAM  the engine (default: build/tools/picket-engine), at level 1\n"
    "  -version, --help\n";

typedef struct shared {
    int port;
    double deadline;
    uint64_t seed;
    int clients, target;
    pthread_mutex_t lock;
    long requests, errors, sets, moves;
    double *lat;                 /* move requests' seconds */
    long n_lat;
    char first_error[300];
} shared_t;

typedef struct client {
    shared_t *sh;
    int index;
} client_t;

static int request(shared_t *sh, const char *method, const char *path, const char *body, cJSON **out, int quiet_409)
{
    char *text = NULL;
    int st = serve_client_request(sh->port, method, path, body, &text);
    pthread_mutex_lock(&sh->lock);
    sh->requests++;
    if (st != 200 && !(quiet_409 && st == 409)) {
        if (!sh->errors)
            snprintf(sh->first_error, sizeof sh->first_error, "%s %s: %d %.200s", method, path, st, text ? text : "");
        sh->errors++;
    }
    pthread_mutex_unlock(&sh->lock);
    if (out)
        *out = st == 200 && text ? cJSON_Parse(text) : NULL;
    free(text);
    return st;
}

/* The page's move: a listed move, else the fewest lit cards the rules take (409 while trying). */
static int move(shared_t *sh, const char *id, const cJSON *snap, int turn)
{
    char path[128], body[512];
    snprintf(path, sizeof path, "/api/game/%s/move", id);
    const cJSON *moves = cJSON_GetObjectItem(snap, "moves");
    int n = cJSON_GetArraySize(moves);
    double t0 = measure_now();
    int st = 0;
    if (n > 0) {
        const cJSON *m = cJSON_GetArrayItem(moves, turn % n);
        snprintf(body, sizeof body, "{\"move\":\"%s\"}", cJSON_GetStringValue(cJSON_GetObjectItem(m, "text")));
        st = request(sh, "POST", path, body, NULL, 0);
    } else {
        const cJSON *lit = cJSON_GetObjectItem(snap, "cards_lit");
        for (int k = 1; k <= cJSON_GetArraySize(lit) && st != 200; k++) {
            size_t len = (size_t)snprintf(body, sizeof body, "{\"cards\":[");
            for (int i = 0; i < k; i++)
                len += (size_t)snprintf(body + len, sizeof body - len, "%s\"%s\"", i ? "," : "",
                                        cJSON_GetArrayItem(lit, i)->valuestring);
            snprintf(body + len, sizeof body - len, "]}");
            st = request(sh, "POST", path, body, NULL, 1);
        }
    }
    double dt = measure_now() - t0;
    pthread_mutex_lock(&sh->lock);
    sh->moves++;
    if (sh->n_lat < LAT_MAX)
        sh->lat[sh->n_lat++] = dt;
    pthread_mutex_unlock(&sh->lock);
    return st == 200 ? 0 : -1;
}

static void *client_main(void *arg)
{
    client_t *c = arg;
    shared_t *sh = c->sh;
    for (uint64_t round = 0; measure_now() < sh->deadline; round++) {
        char body[200], path[160];
        snprintf(body, sizeof body, "{\"engine\":\"level-1\",\"seed\":\"%" PRIu64 "\",\"flags\":[\"target=%d\"]}",
                 sh->seed + (uint64_t)c->index + round * (uint64_t)sh->clients, sh->target);
        cJSON *o;
        if (request(sh, "POST", "/api/new", body, &o, 0) != 200 || !o)
            return NULL;
        char id[40];
        snprintf(id, sizeof id, "%s", cJSON_GetStringValue(cJSON_GetObjectItem(o, "id")));
        cJSON_Delete(o);
        long seq = -1;
        int over = 0;
        for (int turn = 0; !over && measure_now() < sh->deadline; turn++) {
            if (seq >= 0)
                snprintf(path, sizeof path, "/api/game/%s?since=%ld&from=100000", id, seq);
            else
                snprintf(path, sizeof path, "/api/game/%s?from=100000", id);
            cJSON *snap;
            if (request(sh, "GET", path, NULL, &snap, 0) != 200 || !snap)
                return NULL;
            seq = (long)cJSON_GetNumberValue(cJSON_GetObjectItem(snap, "seq"));
            const char *status = cJSON_GetStringValue(cJSON_GetObjectItem(snap, "status"));
            if (status && strcmp(status, "your-move") == 0)
                move(sh, id, snap, turn);
            else if (!status || strcmp(status, "thinking") != 0)
                over = 1;
            cJSON_Delete(snap);
        }
        if (over) {
            pthread_mutex_lock(&sh->lock);
            sh->sets++;
            pthread_mutex_unlock(&sh->lock);
        }
        snprintf(path, sizeof path, "/api/game/%s/close", id);
        request(sh, "POST", path, "{}", NULL, 0);
    }
    return NULL;
}

/* Resident kB of a process, and of its children (the engines). */
static long rss_kb(int pid)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", pid);
    FILE *f = fopen(path, "r");
    long kb = -1;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmRSS: %ld", &kb) == 1)
            break;
    if (f)
        fclose(f);
    return kb;
}

static long children_rss_kb(int parent, int *count)
{
    DIR *d = opendir("/proc");
    long sum = 0;
    *count = 0;
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        int pid = atoi(e->d_name), ppid = -1;
        if (pid <= 0)
            continue;
        char path[64], buf[512];
        snprintf(path, sizeof path, "/proc/%d/stat", pid);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        size_t n = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[n] = '\0';
        const char *close_paren = strrchr(buf, ')');
        if (close_paren && sscanf(close_paren + 2, "%*c %d", &ppid) == 1 && ppid == parent) {
            long kb = rss_kb(pid);
            sum += kb > 0 ? kb : 0;
            (*count)++;
        }
    }
    if (d)
        closedir(d);
    return sum;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int clients = 1000, seconds = 60, target = 30;
    uint64_t seed = 1;
    const char *serve = "build/tools/picket-serve", *engine = "build/tools/picket-engine";
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
            fputs(USAGE, stdout);
            return 0;
        }
        if (!strcmp(o, "-version") || !strcmp(o, "--version")) {
            puts("bench/serve " PICKET_VERSION);
            return 0;
        }
        if (!v) {
            fprintf(stderr, "serve: %s needs a value (see --help)\n", o);
            return 2;
        }
        i++;
        if (!strcmp(o, "--clients") && text_int(v, 1, MAX_CLIENTS, &clients) == 0)
            continue;
        if (!strcmp(o, "--seconds") && text_int(v, 5, 3600, &seconds) == 0)
            continue;
        if (!strcmp(o, "--target") && text_int(v, 1, 1000, &target) == 0)
            continue;
        if (!strcmp(o, "--seed") && text_u64(v, 0, UINT64_MAX / 2, &seed) == 0)
            continue;
        if (!strcmp(o, "--serve")) {
            serve = v;
            continue;
        }
        if (!strcmp(o, "--engine")) {
            engine = v;
            continue;
        }
        fprintf(stderr, "serve: bad option or value: %s %s (see --help)\n", o, v);
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    /* Every client's socket, every table's engine pipes: raise the descriptors' limit. */
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    char games[16], conns[16], fields[1200];
    snprintf(games, sizeof games, "%d", clients + 8);
    snprintf(conns, sizeof conns, "%d", 2 * clients + 64 > 10000 ? 10000 : 2 * clients + 64);
    snprintf(fields, sizeof fields, "cmd=%s", engine);
    int out[2];
    if (pipe(out) != 0)
        return 1;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(out[1], 1);
        close(out[0]);
        execl(serve, serve, "--listen", "127.0.0.1:0", "--max-games", games, "--max-connections", conns, "--rate", "0",
              "--hint-level", "0", "--quiet", "--engine", fields, "name=level-1", "option.level=1", (char *)NULL);
        _exit(127);
    }
    close(out[1]);
    FILE *from = fdopen(out[0], "r");
    char line[300];
    int port = 0;
    if (!from || !fgets(line, sizeof line, from) || sscanf(line, "picket-serve: open http://127.0.0.1:%d/", &port) != 1) {
        fprintf(stderr, "serve: %s did not start\n", serve);
        kill(pid, SIGTERM);
        return 1;
    }
    shared_t sh = { .port = port, .seed = seed, .clients = clients, .target = target };
    pthread_mutex_init(&sh.lock, NULL);
    sh.lat = malloc(sizeof *sh.lat * LAT_MAX);
    client_t *cs = calloc((size_t)clients, sizeof *cs);
    pthread_t *th = calloc((size_t)clients, sizeof *th);
    if (!sh.lat || !cs || !th)
        return 1;
    double t0 = measure_now();
    sh.deadline = t0 + seconds;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 256 * 1024);
    int started = 0;
    for (int i = 0; i < clients; i++) {
        cs[i] = (client_t){ &sh, i };
        if (pthread_create(&th[i], &attr, client_main, &cs[i]) != 0)
            break;
        started++;
    }
    printf("bench/serve: %d clients at once on 127.0.0.1:%d for %d s, each playing sets to %d against level 1\n",
           started, port, seconds, target);
    /* Memory every second: the server, and its engines. */
    static long rss[SAMPLES_MAX], eng[SAMPLES_MAX], sets[SAMPLES_MAX];
    static int n_eng[SAMPLES_MAX];
    int n = 0;
    while (measure_now() < sh.deadline && n < SAMPLES_MAX) {
        sleep(1);
        rss[n] = rss_kb(pid);
        eng[n] = children_rss_kb(pid, &n_eng[n]);
        pthread_mutex_lock(&sh.lock);
        sets[n] = sh.sets;
        pthread_mutex_unlock(&sh.lock);
        n++;
        if (n % 10 == 0) {
            pthread_mutex_lock(&sh.lock);
            fprintf(stderr, "  %3d s: %ld requests, %ld moves, %ld sets, %ld errors; server %ld MB, %d engines %ld MB\n", n,
                    sh.requests, sh.moves, sh.sets, sh.errors, rss[n - 1] / 1024, n_eng[n - 1], eng[n - 1] / 1024);
            pthread_mutex_unlock(&sh.lock);
        }
    }
    for (int i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    double wall = measure_now() - t0;
    long after = rss_kb(pid);
    kill(pid, SIGTERM);
    int status;
    waitpid(pid, &status, 0);
    qsort(sh.lat, (size_t)sh.n_lat, sizeof *sh.lat, cmp_double);
    double p50 = sh.n_lat ? sh.lat[sh.n_lat / 2] : 0, p99 = sh.n_lat ? sh.lat[(long)(sh.n_lat * 0.99)] : 0;
    /* Flat: the last sample against the level once as many sets ended as there are clients. */
    int warm = -1;
    for (int i = 0; i < n && warm < 0; i++)
        if (sets[i] >= clients)
            warm = i;
    /* A leak would raise the peaks as the run goes on: the second half's peak against the first's,
     * after the warm-up. */
    long peak = 0, peak1 = 0, peak2 = 0;
    for (int i = 0; i < n; i++) {
        peak = rss[i] > peak ? rss[i] : peak;
        if (warm >= 0 && i >= warm) {
            long *half = i < warm + (n - warm) / 2 ? &peak1 : &peak2;
            *half = rss[i] > *half ? rss[i] : *half;
        }
    }
    double growth = peak1 > 0 ? (double)(peak2 - peak1) / (double)peak1 : 0;
    printf("requests: %ld in %.1f s (%.0f a second); moves %ld; sets played to the end %ld\n", sh.requests, wall,
           (double)sh.requests / wall, sh.moves, sh.sets);
    printf("errors: %ld%s%s\n", sh.errors, sh.errors ? " (first: " : "", sh.errors ? sh.first_error : "");
    if (sh.errors)
        printf(")\n");
    printf("move requests: median %.1f ms, 99th percentile %.1f ms (the engine's reply not included)\n", 1e3 * p50,
           1e3 * p99);
    if (warm >= 0)
        printf("server memory: %ld MB at %d s (as many sets ended as clients); from there the first half's peak %ld MB, "
               "the second half's %ld MB (%+.1f%%); peak of the run %ld MB; after the clients left %ld MB; engines %d "
               "processes, %ld MB, in the last second\n",
               rss[warm] / 1024, warm + 1, peak1 / 1024, peak2 / 1024, 100 * growth, peak / 1024, after / 1024,
               n_eng[n - 1], eng[n - 1] / 1024);
    else
        printf("server memory: fewer sets ended than there are clients (%ld): run longer\n", sh.sets);
    int met = sh.errors == 0 && warm >= 0 && growth < 0.10 && started == clients;
    printf("target (no error, the server's memory peaks flat within 10%%, %d clients at once): %s\n", clients,
           met ? "met" : "NOT met");
    return met ? 0 : 1;
}
