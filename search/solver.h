/* solver: the exact value of a perfect-information endgame (a game's game_endgame_t), by
 * MTD(f): null-window passes of fail-soft alpha-beta over equivalence-collapsed moves, with a
 * transposition table (tt.h) and the game's own bounds (sure tricks, for Picket) cutting where
 * they settle a node. The root always searches its moves, so the move it names is proven to
 * reach the value.
 *
 * Values are points of the rest of the hand: the side to move's minus the other side's. The
 * solver allocates its table once, at creation, and nothing while it searches. It knows no game:
 * everything about the cards comes through the endgame interface.
 */
#ifndef PICKET_SOLVER_H
#define PICKET_SOLVER_H

#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "tt.h"

enum { SOLVER_MAX_POS = 128, SOLVER_MAX_LINE = 64 };
/* Positions with this many moves left or fewer are searched without the table. */
#ifndef SOLVER_TT_MIN_DEPTH
#define SOLVER_TT_MIN_DEPTH 2
#endif

typedef struct solver_stats {
    uint64_t nodes;
    uint64_t probes, hits;
    uint64_t passes; /* null-window searches */
    uint64_t bound_cuts; /* nodes the game's bounds settled without search */
} solver_stats_t;

typedef struct solver solver_t;

/* A solver with a table of tt_mb megabytes. NULL with a reason if the position type is too big
 * or memory is short. */
solver_t *solver_create(const game_endgame_t *g, size_t tt_mb, char *err, size_t errlen);
/* The same with the table's size in bytes, down to one bucket (tests use tiny tables to make
 * every store evict). */
solver_t *solver_create_bytes(const game_endgame_t *g, size_t tt_bytes, char *err, size_t errlen);
void solver_free(solver_t *s);
/* Forget every stored position (the table keeps its memory). */
void solver_clear(solver_t *s);
const solver_stats_t *solver_stats(const solver_t *s);
void solver_reset_stats(solver_t *s);

/* The value for the side to move, and a best move (-1 if the hand is over). */
int solver_best(solver_t *s, const void *pos, int *move);
/* The exact value of every legal move, for the side to move, in all_moves order; returns the
 * number of moves. */
int solver_all(solver_t *s, const void *pos, uint8_t *moves, int *values);
/* A principal line from pos: best moves for both sides to the end; returns its length. */
int solver_line(solver_t *s, const void *pos, uint8_t *line, int max);

/* The reference: plain minimax over every legal move, no pruning, no table. Value for the side
 * to move; counts nodes. For tests and benches on small endings. */
int solver_minimax(const game_endgame_t *g, const void *pos, uint64_t *nodes);

#endif
