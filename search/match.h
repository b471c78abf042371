/* match: in-process bots at the referee's table (engine/referee.h).
 *
 * A bot seat keeps its own view, rebuilt from the events its seat may see (the same path an
 * engine process takes), and decides from that view alone; the referee holds the truth and
 * checks every move. match_play seats one bot a seat and plays a game to its end: `picket
 * selfplay`, the property tests and the benches use it.
 */
#ifndef PICKET_MATCH_H
#define PICKET_MATCH_H

#include "bot.h"
#include "game.h"
#include "referee.h"

typedef struct bot_seat {
    const game_t *game;
    bot_t *bot;          /* not owned */
    void *view;          /* owned */
    int seat;
    const bot_limits_t *limits; /* NULL: none */
} bot_seat_t;

/* An empty view for `seat` of the game cfg starts. 0, or -1 with a reason. */
int bot_seat_init(bot_seat_t *s, bot_t *bot, const game_config_t *cfg, int seat, char *err, size_t errlen);
void bot_seat_free(bot_seat_t *s);
/* The seat as the referee sees it (s must outlive the referee's use). */
referee_seat_t bot_seat_referee(bot_seat_t *s);

/* Plays one game between bots (bots[seat], as many as the game has players) and copies the
 * final state into state_out (g->state_size bytes). Returns 0, or -1 with the referee's reason
 * (a bot found no move, chose an illegal one, or a view refused an event). */
int match_play(const game_t *g, const game_config_t *cfg, bot_t *const *bots, void *state_out,
               const referee_hooks_t *hooks, char *err, size_t errlen);

#endif
