/* serve_review: a finished set reviewed move by move, as chess sites review a game: every seat's
 * cards at each decision (the set is over, so nothing is hidden any more), and each decision
 * valued by an engine from the deciding seat's own view (the events that seat was told, never
 * the true deal), with what it lost against the engine's best.
 *
 * Only a finished set is reviewed: a record of a set still in play would show the cards its
 * player may not see. A worker thread asks the engine about one decision after another; the
 * review is read (serve_review_json) while it fills.
 */
#ifndef PICKET_SERVE_REVIEW_H
#define PICKET_SERVE_REVIEW_H

#include <stddef.h>

#include "arena_match.h"
#include "game.h"

typedef struct serve_review serve_review_t;

/* What an engine's `analyze` values are, by the bundled engine's level (docs/protocol.md). */
typedef enum {
    SERVE_VALUES_RAW,     /* unknown (another engine, level 1 or 2): shown as they come */
    SERVE_VALUES_REWARD,  /* the search bots (levels 3 and 4): 0.5 + 0.45 tanh(d / 30) for d points */
    SERVE_VALUES_HYBRID,  /* level 5: rewards, and points where the game's learned judgement decides */
} serve_values_t;

/* Replay a record text and start valuing its decisions with `engine` (which must stay alive).
 * NULL with a one-line reason (a record that does not replay, a set not over, no memory). */
serve_review_t *serve_review_new(const char *text, size_t len, const arena_spec_t *engine, serve_values_t unit,
                                 char *err, size_t errlen);
void serve_review_free(serve_review_t *r);
/* The review so far as a JSON object text (malloc'd; NULL out of memory). */
char *serve_review_json(serve_review_t *r);
double serve_review_idle(serve_review_t *r);

/* A value an engine's `analyze` gave move m of the view's seat, in points for that seat where the
 * unit says how: a reward turned back into its points, or (SERVE_VALUES_HYBRID, a decision the
 * game's learned judgement covers: game_t.learned_inputs) the net's points as they are. 1 with
 * *points set; 0 when the value has no unit in points (raw, or a reward at the set's end). */
int serve_value_points(const game_t *g, const void *view, const game_move_t *m, double value, serve_values_t unit,
                       double *points);

#endif
