/* tt: the trick solver's transposition table: position key -> bounds on its exact value, and
 * the move that was best there. Fixed memory, set once; nothing is allocated while searching.
 *
 * Buckets of 4 entries, one 64-byte cache line each; a key picks its bucket by its low bits.
 * Entry: 64-bit key (0 = empty), lower and upper bound (int16, the value of the rest of the
 * hand, seat 0's points minus seat 1's), best move (in the game's table code,
 * game_endgame_t.move_code; 255 none), and depth (cards left in both hands). Replacement: the
 * same key is updated in place; else an empty entry is taken; else the entry with the fewest
 * cards left (the cheapest to recompute) is replaced.
 */
#ifndef PICKET_TT_H
#define PICKET_TT_H

#include <stddef.h>
#include <stdint.h>

typedef struct tt_entry {
    uint64_t key;
    int16_t lo, hi;
    uint8_t move;
    uint8_t depth;
    uint8_t pad[2];
} tt_entry_t;
_Static_assert(sizeof(tt_entry_t) == 16, "a table entry is 16 bytes");

enum { TT_BUCKET = 4 };
_Static_assert(sizeof(tt_entry_t) * TT_BUCKET == 64, "a bucket is one cache line");

/* Public only so that the probe can be inlined into the search loop. */
typedef struct tt {
    tt_entry_t *slots;
    size_t mask; /* buckets - 1 */
} tt_t;

/* A table of about `bytes` bytes. A size too small for one bucket, 0 included, is rounded up to
 * one: never a table that cannot hold an entry. NULL only if memory is short. */
tt_t *tt_create(size_t bytes);
void tt_free(tt_t *t);
void tt_clear(tt_t *t);
/* Key 0 marks an empty slot; a real key of 0 is stored as 1 (one position in 2^64). */
static inline uint64_t tt_fix_key(uint64_t key) { return key ? key : 1; }
/* The entry for key, or NULL. */
static inline const tt_entry_t *tt_probe(tt_t *t, uint64_t key)
{
    key = tt_fix_key(key);
    const tt_entry_t *b = &t->slots[(key & t->mask) * TT_BUCKET];
    for (int i = 0; i < TT_BUCKET; i++)
        if (b[i].key == key)
            return &b[i];
    return NULL;
}
void tt_store(tt_t *t, uint64_t key, int lo, int hi, int move, int depth);

#endif
