/* libFuzzer target for event SEQUENCES: whole transcripts of what an engine is sent in a real
 * game (the seed corpus comes from arena logs, see tools/fuzz.sh), mutated a line at a time —
 * lines dropped, repeated, swapped, moved, copied from another transcript, a seat, a number or
 * a card changed — so that the views the engine is asked to search from are ones no real deal
 * could give. Each `go` and `analyze` is answered within a watchdog's deadline or the input is
 * a hang (abort, with the line named on stderr).
 *
 * An input is one byte of configuration (the bot and its level) and then the transcript. The
 * harness drops the transcript's own setoption and quit lines and gives every go and analyze a
 * small fixed budget, so a normal input takes milliseconds and only a search that never ends
 * reaches the deadline. Build and run with tools/fuzz.sh sequences. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "session.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);
size_t LLVMFuzzerCustomCrossOver(const uint8_t *d1, size_t s1, const uint8_t *d2, size_t s2, uint8_t *out,
                                 size_t max_out, unsigned int seed);

enum { MAX_LINES = 4096, LINE_CAP = 1024, DEADLINE_S = 20 };

static const char *const BOTS[] = { "random", "heuristic", "ismcts", "pimc", "hybrid" };

/* ---------------------------------------------------------------- the watchdog */

/* The line being handled and since when (0: none). A harness's state, shared with the watchdog
 * thread; libFuzzer runs one input at a time. */
static pthread_mutex_t watch_lock = PTHREAD_MUTEX_INITIALIZER;
static time_t watch_since;
static char watch_line[LINE_CAP];

static void *watchdog(void *arg)
{
    (void)arg;
    for (;;) {
        sleep(1);
        pthread_mutex_lock(&watch_lock);
        if (watch_since && time(NULL) - watch_since > DEADLINE_S) {
            fprintf(stderr, "fuzz_sequences: hang: no answer within %d s to '%s'\n", DEADLINE_S, watch_line);
            abort();
        }
        pthread_mutex_unlock(&watch_lock);
    }
    return NULL;
}

static void watch(const char *line)
{
    pthread_mutex_lock(&watch_lock);
    if (line) {
        snprintf(watch_line, sizeof watch_line, "%s", line);
        watch_since = time(NULL);
    } else {
        watch_since = 0;
    }
    pthread_mutex_unlock(&watch_lock);
}

/* ---------------------------------------------------------------- one input */

/* The command word of a line, after an optional numeric id: its start and length. */
static const char *command_word(const char *line, size_t *len)
{
    const char *p = line;
    while (*p == ' ' || *p == '\t')
        p++;
    const char *q = p;
    while (*q >= '0' && *q <= '9')
        q++;
    if (q > p && (*q == ' ' || *q == '\t')) {
        p = q;
        while (*p == ' ' || *p == '\t')
            p++;
    }
    q = p;
    while (*q && *q != ' ' && *q != '\t')
        q++;
    *len = (size_t)(q - p);
    return p;
}

static int is_word(const char *w, size_t len, const char *name)
{
    return len == strlen(name) && memcmp(w, name, len) == 0;
}

/* With FUZZ_SEQUENCES_TRACE set, every line the session is given goes to stderr as a transcript
 * (to replay a crash or hang through picket-engine). */
static void handle(session_t *s, const char *line)
{
    static int trace = -1;
    if (trace < 0)
        trace = getenv("FUZZ_SEQUENCES_TRACE") != NULL;
    if (trace)
        fprintf(stderr, "%s\n", line);
    int search = strncmp(line, "go ", 3) == 0 || strncmp(line, "analyze ", 8) == 0;
    if (search)
        watch(line);
    session_handle_line(s, line);
    if (search)
        watch(NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *sink;
    static pthread_t dog;
    if (!sink) {
        if (!(sink = fopen("/dev/null", "w")) || pthread_create(&dog, NULL, watchdog, NULL) != 0)
            abort();
    }
    if (size < 1)
        return 0;
    int bot = data[0] % 5, level = 1 + (data[0] / 5) % 5;
    session_t *s = session_create(sink, -1, "fuzz", "fuzz");
    if (!s)
        abort();
    char line[LINE_CAP + 64];
    snprintf(line, sizeof line, "setoption name bot value %s", BOTS[bot]);
    handle(s, line);
    snprintf(line, sizeof line, "setoption name level value %d", level);
    handle(s, line);
    handle(s, "setoption name info value false");
    const char *p = (const char *)data + 1, *end = (const char *)data + size;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = (size_t)((nl ? nl : end) - p);
        if (n < LINE_CAP && !memchr(p, '\0', n)) {
            char raw[LINE_CAP];
            memcpy(raw, p, n);
            raw[n] = '\0';
            size_t wl;
            const char *w = command_word(raw, &wl);
            if (is_word(w, wl, "go") || is_word(w, wl, "analyze")) {
                snprintf(line, sizeof line, "%.*s iterations %d", (int)wl, w, 1 + data[0] % 16);
                handle(s, line);
            } else if (!is_word(w, wl, "setoption") && !is_word(w, wl, "quit")) {
                handle(s, raw);
            }
        }
        p += n + 1;
    }
    session_free(s);
    return 0;
}

/* ---------------------------------------------------------------- line-wise mutation */

typedef struct lines {
    const uint8_t *start[MAX_LINES];
    size_t len[MAX_LINES]; /* without the newline */
    int n;
} lines_t;

static void split(const uint8_t *d, size_t size, lines_t *l)
{
    l->n = 0;
    size_t i = 0;
    while (i < size && l->n < MAX_LINES) {
        const uint8_t *nl = memchr(d + i, '\n', size - i);
        size_t n = nl ? (size_t)(nl - (d + i)) : size - i;
        l->start[l->n] = d + i;
        l->len[l->n++] = n;
        i += n + 1;
    }
}

/* Writes the lines in `order` (indices into l, -1 ends) after the config byte; the new size. */
static size_t join(uint8_t cfg, const lines_t *l, const int *order, int n, uint8_t *out, size_t max)
{
    if (max < 1)
        return 0;
    size_t o = 0;
    out[o++] = cfg;
    for (int k = 0; k < n; k++) {
        int i = order[k];
        if (o + l->len[i] + 1 > max)
            break;
        memcpy(out + o, l->start[i], l->len[i]);
        o += l->len[i];
        out[o++] = '\n';
    }
    return o;
}

/* A card token (rank then suit, as "TC" or "10C") or a number replaced by another of its kind. */
static void mutate_token(char *t, size_t len, unsigned *r)
{
    static const char RANKS[] = "23456789TJQKA", SUITS[] = "CDHS";
    *r = *r * 1103515245u + 12345u;
    if (len == 2 && strchr(RANKS, t[0]) && strchr(SUITS, t[1])) {
        if (*r & 1)
            t[0] = RANKS[(*r >> 8) % 13];
        else
            t[1] = SUITS[(*r >> 8) % 4];
    } else if (len >= 1 && t[0] >= '0' && t[0] <= '9') {
        static const char *const NUMS[] = { "0", "1", "2", "3", "7", "8", "12", "99", "-1", "65535" };
        const char *v = NUMS[(*r >> 8) % 10];
        size_t vl = strlen(v);
        if (vl <= len) {
            memcpy(t, v, vl);
            memset(t + vl, ' ', len - vl);
        }
    }
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    if (size < 2 || seed % 8 == 0)
        return LLVMFuzzerMutate(data, size, max_size);
    static uint8_t copy[1 << 17];
    static lines_t l;
    static int order[MAX_LINES + 1];
    if (size > sizeof copy)
        return LLVMFuzzerMutate(data, size, max_size);
    memcpy(copy, data, size);
    split(copy + 1, size - 1, &l);
    if (l.n == 0)
        return LLVMFuzzerMutate(data, size, max_size);
    unsigned r = seed;
    int n = l.n, a = (int)((r >> 3) % (unsigned)n), b = (int)((r >> 16) % (unsigned)n);
    for (int i = 0; i < n; i++)
        order[i] = i;
    switch ((r >> 24) % 6) {
    case 0: /* drop a line */
        memmove(order + a, order + a + 1, sizeof *order * (size_t)(n - a - 1));
        n--;
        break;
    case 1: /* say a line twice */
        memmove(order + a + 1, order + a, sizeof *order * (size_t)(n - a));
        n++;
        break;
    case 2: { /* swap two lines */
        int t = order[a];
        order[a] = order[b];
        order[b] = t;
        break;
    }
    case 3: { /* move a line elsewhere */
        int t = order[a];
        memmove(order + a, order + a + 1, sizeof *order * (size_t)(n - a - 1));
        memmove(order + b + 1, order + b, sizeof *order * (size_t)(n - 1 - b));
        order[b] = t;
        break;
    }
    case 4: { /* one token of a line changed: a card, a seat, a count */
        uint8_t *t = (uint8_t *)l.start[a];
        size_t len = l.len[a], i = (r >> 5) % (len ? len : 1);
        while (i > 0 && t[i - 1] != ' ')
            i--;
        size_t j = i;
        while (j < len && t[j] != ' ')
            j++;
        mutate_token((char *)t + i, j - i, &r);
        break;
    }
    default: /* the config byte: another bot, level or budget */
        copy[0] = (uint8_t)(r >> 12);
        break;
    }
    return join(copy[0], &l, order, n, data, max_size);
}

/* The first part of one transcript and the rest of another, cut at lines. */
size_t LLVMFuzzerCustomCrossOver(const uint8_t *d1, size_t s1, const uint8_t *d2, size_t s2, uint8_t *out,
                                 size_t max_out, unsigned int seed)
{
    static lines_t l1, l2;
    if (s1 < 2 || s2 < 2 || max_out < 1)
        return 0;
    split(d1 + 1, s1 - 1, &l1);
    split(d2 + 1, s2 - 1, &l2);
    int cut1 = l1.n ? (int)(seed % (unsigned)l1.n) : 0, cut2 = l2.n ? (int)((seed >> 8) % (unsigned)l2.n) : 0;
    size_t o = 0;
    out[o++] = d1[0];
    for (int i = 0; i < cut1 && o + l1.len[i] + 1 <= max_out; i++) {
        memcpy(out + o, l1.start[i], l1.len[i]);
        o += l1.len[i];
        out[o++] = '\n';
    }
    for (int i = cut2; i < l2.n && o + l2.len[i] + 1 <= max_out; i++) {
        memcpy(out + o, l2.start[i], l2.len[i]);
        o += l2.len[i];
        out[o++] = '\n';
    }
    return o;
}
