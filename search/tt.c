/* madvise and MADV_HUGEPAGE. */
#define _DEFAULT_SOURCE
#include "tt.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

tt_t *tt_create(size_t bytes)
{
    tt_t *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    size_t buckets = 1;
    while (buckets * 2 * TT_BUCKET * sizeof(tt_entry_t) <= bytes)
        buckets *= 2;
    /* 2 MB alignment lets the kernel back the table with huge pages: random probes then miss the
     * TLB far less often. */
    size_t size = buckets * TT_BUCKET * sizeof(tt_entry_t);
    size_t align = size >= (2u << 20) ? (2u << 20) : 64;
    t->slots = aligned_alloc(align, (size + align - 1) / align * align);
    if (!t->slots) {
        free(t);
        return NULL;
    }
    if (align > 64)
        madvise(t->slots, size, MADV_HUGEPAGE);
    t->mask = buckets - 1;
    tt_clear(t);
    return t;
}

void tt_free(tt_t *t)
{
    if (!t)
        return;
    free(t->slots);
    free(t);
}

void tt_clear(tt_t *t) { memset(t->slots, 0, (t->mask + 1) * TT_BUCKET * sizeof(tt_entry_t)); }

void tt_store(tt_t *t, uint64_t key, int lo, int hi, int move, int depth)
{
    key = tt_fix_key(key);
    tt_entry_t *b = &t->slots[(key & t->mask) * TT_BUCKET];
    tt_entry_t *e = &b[0];
    for (int i = 0; i < TT_BUCKET; i++) {
        if (b[i].key == key || b[i].key == 0) {
            e = &b[i];
            break;
        }
        if (b[i].depth < e->depth)
            e = &b[i];
    }
    e->key = key;
    e->lo = (int16_t)lo;
    e->hi = (int16_t)hi;
    e->move = (uint8_t)move;
    e->depth = (uint8_t)depth;
}
