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
/* The scores joined by sep and, once the game is over, " winner W" or " rank R0 R1 ...", as the
 * result line writes them, into buf; 1 if the game is over, else 0. */
int record_format_result(const game_t *g, const void *state, const char *sep, char *buf, size_t len);

typedef struct record {
    const game_t *game;
    game_config_t cfg;
    referee_t *ref;    /* the referee that replayed it (owned; record_free) */
    const void *state; /* the position after the last line (the referee's) */
    int moves;
    int lines;         /* the file's line where the record ends (or where it failed) */
    int number;        /* which record of the file, from 1 */
    int first_line;    /* the file's line of its 'picket-record' line */
    char forfeit[160]; /* the text after "# forfeit: " in the record, if any (printable ASCII) */
} record_t;

/* Called for every event while replaying (may be NULL). */
typedef void (*record_event_fn)(void *data, const game_t *g, const game_event_t *ev);

/* Replay a file holding one record. Returns 0, or -1 with "line N: reason" in err (a second record
 * in the file is refused: record_reader_next reads those). rec->state is valid either way once
 * rec->game is set; call record_free. */
int record_replay(FILE *f, record_t *rec, record_event_fn on_event, void *data, char *err, size_t errlen);
void record_free(record_t *rec);

/* A record file's lines from where f stands, for a front end that rebuilds a game from it (check
 * it with record_replay first): each "move SEAT TEXT" line, parsed, to on_move, every other line
 * (leading spaces skipped) to on_other (may be NULL). Stops at the first nonzero return of
 * either and returns it; -1 with the parser's reason in err for a move that does not parse;
 * 0 at the end of the file. */
int record_each_move(FILE *f, const game_t *g, int (*on_move)(void *data, int seat, const game_move_t *m),
                     int (*on_other)(void *data, const char *line), void *data, char *err, size_t errlen);

/* A file of many records, one after another (the arena's -records FILE.txt): each starts with its
 * 'picket-record' line, comments and blank lines before it being ignored, and ends with its
 * result line, where the next record starts, or at the end of the file. Line numbers count from
 * the start of the file. */
typedef struct record_reader record_reader_t;
/* A reader of f (not owned; it reads f from where it stands). NULL if out of memory. */
record_reader_t *record_reader_create(FILE *f);
void record_reader_free(record_reader_t *rd);
/* Replay the next record into rec (call record_free after each, whatever it returns).
 *  1: it replayed and verified;
 * -1: it did not, "line N: reason" in err; the reader skips to the next record, if any. A line
 *     over the limit, a NUL byte or a read error stops the file: nothing after it is read;
 *  0: no record is left. A file with no record at all gives -1 ("empty record ...") first. */
int record_reader_next(record_reader_t *rd, record_t *rec, record_event_fn on_event, void *data, char *err,
                       size_t errlen);
/* 1 if another record is known to follow the one just read (its first line has been seen). */
int record_reader_more(const record_reader_t *rd);
/* End every record read from now on before its (moves+1)-th move line, as if the file ended
 * there: the position after that many moves (picket worlds). */
void record_reader_stop_after(record_reader_t *rd, int moves);

#endif
