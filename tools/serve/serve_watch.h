/* serve_watch: a running picket-arena followed from outside: its results file (JSON Lines,
 * docs/arena.md) for the standings and the sets done, and its records folder for the sets in
 * progress (the arena writes each move to a set's record as it is played).
 *
 * A set in progress is shown by its public events only (what every seat was told: no dealt
 * hand, no draw, no discard), so a spectator learns no card an engine may not see yet; a
 * finished set is in the results, and its record may be reviewed.
 */
#ifndef PICKET_SERVE_WATCH_H
#define PICKET_SERVE_WATCH_H

typedef struct serve_watch serve_watch_t;

/* Follow results (a file; it may not exist yet) and records (a folder, or NULL). NULL out of
 * memory. */
serve_watch_t *serve_watch_new(const char *results, const char *records);
void serve_watch_free(serve_watch_t *w);
/* The standings, the latest sets and the sets in progress as a JSON object text (malloc'd;
 * NULL out of memory). Reads what the arena wrote since the last call. */
char *serve_watch_json(serve_watch_t *w);

#endif
