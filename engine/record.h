/* record: game records as plain text (docs/records.md), for any game behind game_t.
 *
 * A record holds the game, preset, flag overrides, seed and every move; deals come from the
 * seed, so replaying it reproduces the game exactly. Replay verifies every line and refuses a
 * record that does not fit the rules with the line number and the reason. Reading never trusts
 * its input: any byte sequence gives a record or an error, never a crash.
 */
#ifndef PICKET_RECORD_H
#define PICKET_RECORD_H

#include <stdio.h>

#include "game.h"
#include "referee.h"

enum { RECORD_VERSION = 1, RECORD_MAX_LINE = 4096 };

int record_write_header(FILE *f, const game_t *g, const game_config_t *cfg);
int record_write_move(FILE *f, const game_t *g, int seat, const game_move_t *m);
/* "result" line: the final scores and, once the game is over, "winner W" for a two-seat game
 * with one winner, or else "rank R0 R1 ..." (ties share a rank). */
int record_write_result(FILE *f, const game_t *g, const void *state);

typedef struct record {
    const game_t *game;
    game_config_t cfg;
    referee_t *ref;    /* the referee that replayed it (owned; record_free) */
    const void *state; /* the position after the last line (the referee's) */
    int moves;
    int lines;
} record_t;

/* Called for every event while replaying (may be NULL). */
typedef void (*record_event_fn)(void *data, const game_t *g, const game_event_t *ev);

/* Replay a record. Returns 0, or -1 with "line N: reason" in err. rec->state is valid either
 * way once rec->game is set; call record_free. */
int record_replay(FILE *f, record_t *rec, record_event_fn on_event, void *data, char *err, size_t errlen);
void record_free(record_t *rec);

/* Read one line of at most cap-1 bytes, without the newline. Returns the length, -1 at end of
 * file, -2 if the line is too long (it is skipped), -3 if it holds a NUL byte. */
int record_read_line(FILE *f, char *buf, int cap);

#endif
