/* madvise and MADV_HUGEPAGE. */
#define _DEFAULT_SOURCE
#include "tt.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <uthash.h>

struct tt_node {
    tt_entry_t e;
    UT_hash_handle hh;
};

tt_t *tt_create(size_t bytes, tt_kind_t kind)
{
    tt_t *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->kind = kind;
    if (kind == TT_ARRAY) {
        size_t buckets = 1;
        while (buckets * 2 * TT_BUCKET * sizeof(tt_entry_t) <= bytes)
            buckets *= 2;
        /* 2 MB alignment lets the kernel back the table with huge pages: random probes then
         * miss the TLB far less often. */
        size_t size = buckets * TT_BUCKET * sizeof(tt_entry_t);
        size_t align = size >= (2u << 20) ? (2u << 20) : 64;
        t->slots = aligned_alloc(align, (size + align - 1) / align * align);
        if (t->slots && align > 64)
            madvise(t->slots, size, MADV_HUGEPAGE);
        t->mask = buckets - 1;
        if (!t->slots) {
            free(t);
            return NULL;
        }
    } else {
        /* uthash's buckets take memory too: count about 1.5 words a node on top of the node.
         * A size too small for one node still gets one: a pool of none would be written past
         * by the first store. */
        t->cap = bytes / (sizeof(tt_node_t) + 12);
        if (t->cap < 1)
            t->cap = 1;
        t->pool = malloc(t->cap * sizeof *t->pool);
        if (!t->pool) {
            free(t);
            return NULL;
        }
    }
    tt_clear(t);
    return t;
}

void tt_free(tt_t *t)
{
    if (!t)
        return;
    if (t->kind == TT_UTHASH)
        HASH_CLEAR(hh, t->head);
    free(t->slots);
    free(t->pool);
    free(t);
}

void tt_clear(tt_t *t)
{
    if (t->kind == TT_ARRAY) {
        memset(t->slots, 0, (t->mask + 1) * TT_BUCKET * sizeof(tt_entry_t));
    } else {
        HASH_CLEAR(hh, t->head);
        t->used = 0;
    }
}

const tt_entry_t *tt_probe_uthash(tt_t *t, uint64_t key)
{
    tt_node_t *n;
    HASH_FIND(hh, t->head, &key, sizeof key, n);
    return n ? &n->e : NULL;
}

void tt_store(tt_t *t, uint64_t key, int lo, int hi, int move, int depth)
{
    key = tt_fix_key(key);
    tt_entry_t *e;
    if (t->kind == TT_ARRAY) {
        tt_entry_t *b = &t->slots[(key & t->mask) * TT_BUCKET];
        e = &b[0];
        for (int i = 0; i < TT_BUCKET; i++) {
            if (b[i].key == key || b[i].key == 0) {
                e = &b[i];
                break;
            }
            if (b[i].depth < e->depth)
                e = &b[i];
        }
    } else {
        tt_node_t *n;
        HASH_FIND(hh, t->head, &key, sizeof key, n);
        if (!n) {
            if (t->used == t->cap)
                tt_clear(t);
            n = &t->pool[t->used++];
            n->e.key = key;
            HASH_ADD(hh, t->head, e.key, sizeof key, n);
        }
        e = &n->e;
    }
    e->key = key;
    e->lo = (int16_t)lo;
    e->hi = (int16_t)hi;
    e->move = (uint8_t)move;
    e->depth = (uint8_t)depth;
}
