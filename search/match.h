/* match: plays one game to its end between in-process bots, the referee's loop in miniature.
 *
 * The true state stays here; each bot sees only its seat's view, rebuilt from the events its
 * seat may see (the same path an engine process takes), and every move is checked before it
 * is applied. Used by `picket selfplay`, the property tests and the benches.
 */
#ifndef PICKET_MATCH_H
#define PICKET_MATCH_H

#include "bot.h"
#include "game.h"

typedef struct match_hooks {
    void (*on_event)(void *data, const game_event_t *ev);            /* every event, true order */
    void (*on_move)(void *data, const void *state, int seat, const game_move_t *m); /* before apply */
    void *data;
} match_hooks_t;

/* state: a buffer of g->state_size; views: players buffers of g->view_size, back to back.
 * Returns 0, or -1 with a reason (a bot failed or chose an illegal move). */
int match_play(const game_t *g, const game_config_t *cfg, bot_t *const *bots, void *state, void *views,
               const match_hooks_t *hooks, char *err, size_t errlen);

#endif
