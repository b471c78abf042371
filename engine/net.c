/* net: a small learned evaluator (net.h). */
#include "net.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lines.h"
#include "text.h"

struct net {
    int n_in, h1, h2;
    double *w1t;    /* [n_in][h1]: W1's columns, one an input (the sparse sum's rows) */
    double *b1;
    double *w2t;    /* [h1][h2]: W2's columns, one a first-layer unit (skipped when it is 0) */
    double *b2, *w3, b3;
    char provenance[NET_MAX_PROVENANCE + 1];
};

static uint32_t le32(const unsigned char *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }

/* count float32s from the buffer at *at into out (as doubles, transposed when cols > 0). */
static void floats(const unsigned char *buf, size_t *at, double *out, int count, int rows, int cols)
{
    for (int i = 0; i < count; i++, *at += 4) {
        uint32_t bits = le32(buf + *at);
        float f;
        memcpy(&f, &bits, sizeof f);
        out[cols > 0 ? (i % cols) * rows + i / cols : i] = f;
    }
}

net_t *net_load(const char *path, char *err, size_t errlen)
{
    enum { MAX_BYTES = 64 << 20 };
    char why[600];
    FILE *f = lines_open(path, why, sizeof why);
    unsigned char *buf = f ? malloc(MAX_BYTES + 1) : NULL;
    size_t len = buf ? fread(buf, 1, MAX_BYTES + 1, f) : 0;
    int bad = f && ferror(f);
    if (f)
        fclose(f);
    if (!buf || bad || len > MAX_BYTES) {
        if (!f)
            text_fail(err, errlen, "%s", why);
        else
            text_fail(err, errlen, "%s: %s", path, !buf ? "out of memory" : bad ? "cannot be read" : "larger than 64 MB: not a net");
        free(buf);
        return NULL;
    }
    net_t *n = net_read(buf, len, path, err, errlen);
    free(buf);
    return n;
}

net_t *net_read(const unsigned char *buf, size_t len, const char *path, char *err, size_t errlen)
{
    net_t *n = NULL;
    uint32_t v[5] = { 0 };
    for (int i = 0; i < 5 && len >= 24; i++)
        v[i] = le32(buf + 4 + 4 * (size_t)i);
    size_t need = 0;
    if (len < 24 || memcmp(buf, "PKNN", 4) != 0)
        text_fail(err, errlen, "%s: not a picket net (no PKNN at its start)", path);
    else if (v[0] != NET_VERSION)
        text_fail(err, errlen, "%s: a net of version %u; this program reads version %d", path, v[0], NET_VERSION);
    else if (v[1] < 1 || v[1] > NET_MAX_IN || v[2] < 1 || v[2] > NET_MAX_HIDDEN || v[3] < 1 || v[3] > NET_MAX_HIDDEN ||
             v[4] > NET_MAX_PROVENANCE)
        text_fail(err, errlen, "%s: sizes out of range (%u inputs, hidden %u and %u, provenance %u bytes)", path, v[1], v[2], v[3], v[4]);
    else if (len != (need = 24 + (size_t)v[4] + 4 * ((size_t)v[2] * (v[1] + 1) + (size_t)v[3] * (v[2] + 1) + v[3] + 1)))
        text_fail(err, errlen, "%s: %zu bytes where its sizes make %zu (cut short or too long)", path, len, need);
    else if (!(n = calloc(1, sizeof *n)) || !(n->w1t = malloc(sizeof(double) * v[1] * v[2])) || !(n->b1 = malloc(sizeof(double) * v[2])) ||
             !(n->w2t = malloc(sizeof(double) * v[3] * v[2])) || !(n->b2 = malloc(sizeof(double) * v[3])) ||
             !(n->w3 = malloc(sizeof(double) * v[3]))) {
        text_fail(err, errlen, "%s: out of memory", path);
        net_free(n);
        n = NULL;
    } else {
        n->n_in = (int)v[1], n->h1 = (int)v[2], n->h2 = (int)v[3];
        memcpy(n->provenance, buf + 24, v[4]);
        size_t at = 24 + v[4];
        floats(buf, &at, n->w1t, n->h1 * n->n_in, n->h1, n->n_in);
        floats(buf, &at, n->b1, n->h1, 0, 0);
        floats(buf, &at, n->w2t, n->h2 * n->h1, n->h2, n->h1);
        floats(buf, &at, n->b2, n->h2, 0, 0);
        floats(buf, &at, n->w3, n->h2, 0, 0);
        floats(buf, &at, &n->b3, 1, 0, 0);
    }
    return n;
}

void net_free(net_t *n)
{
    if (!n)
        return;
    free(n->w1t);
    free(n->b1);
    free(n->w2t);
    free(n->b2);
    free(n->w3);
    free(n);
}

int net_inputs(const net_t *n) { return n->n_in; }
const char *net_provenance(const net_t *n) { return n->provenance; }

double net_eval(const net_t *n, const int *active, int n_active)
{
    double a[NET_MAX_HIDDEN], b[NET_MAX_HIDDEN];
    memcpy(a, n->b1, sizeof(double) * (size_t)n->h1);
    for (int k = 0; k < n_active; k++) {
        const double *col = n->w1t + (size_t)active[k] * (size_t)n->h1;
        for (int j = 0; j < n->h1; j++)
            a[j] += col[j];
    }
    /* The second layer a column at a time, from the units the relu leaves on. */
    memcpy(b, n->b2, sizeof(double) * (size_t)n->h2);
    for (int j = 0; j < n->h1; j++) {
        if (a[j] <= 0)
            continue;
        const double *col = n->w2t + (size_t)j * (size_t)n->h2;
        for (int i = 0; i < n->h2; i++)
            b[i] += col[i] * a[j];
    }
    double y = n->b3;
    for (int i = 0; i < n->h2; i++)
        y += n->w3[i] * (b[i] > 0 ? b[i] : 0);
    return y;
}
