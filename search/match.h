/* match: in-process bots at the referee's table (engine/referee.h).
 *
 * A bot seat (match.c) keeps its own view, rebuilt from the events its seat may see (the same
 * path an engine process takes), and decides from that view alone; the referee holds the truth
 * and checks every move. match_play seats one bot a seat and plays a game to its end: `picket
 * selfplay`, the property tests and the benches use it.
 */
#ifndef PICKET_MATCH_H
#define PICKET_MATCH_H

#include "bot.h"
#include "game.h"
#include "referee.h"

/* Plays one game between bots (bots[seat], as many as the game has players) and copies the
 * final state into state_out (g->state_size bytes). Returns 0, or -1 with the referee's reason
 * (a bot found no move, chose an illegal one, or a view refused an event). */
int match_play(const game_t *g, const game_config_t *cfg, bot_t *const *bots, void *state_out,
               const referee_hooks_t *hooks, char *err, size_t errlen);

#endif
