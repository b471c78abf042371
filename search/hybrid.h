/* hybrid: the search bots, one adapter from a search to a bot (bot.h's table): `ismcts`
 * (ismcts.h) for every decision, `pimc` (pimc.h) for every decision, and the default, `hybrid`:
 * the game's learned net where it covers the decision (Picket: a discard under cotgrave's rules,
 * the net's first of every legal discard; game_t.learned_net, docs/learning.md), ISMCTS for every
 * other decision before the play (the other presets' exchanges, the Blank count, the call, the
 * leftover, the appointment) and PIMC for the play, where a world is an endgame and the trick
 * solver values every card exactly. Against the heuristic the hybrid measured best of the
 * combinations tried, and it is level with pimc (docs/strength.md, docs/experiments.md); the net's
 * discards lead the tree's by about a third of a point a hand, at a fortieth of the time (issue 30).
 *
 * The hybrid reads the game's view_in_play to know which half decides, so it draws no world to
 * find out. A bot's options are its searches' own: "ismcts.*" for the tree, "pimc.*" for the
 * play. A game without an endgame (Court Circular) is searched by the hybrid's tree throughout.
 */
#ifndef PICKET_HYBRID_H
#define PICKET_HYBRID_H

#include <stddef.h>

#include "bot.h"

/* The bot table's entries (bot.c). */
int ismcts_bot_create(bot_t *b, const bot_settings_t *set, char *err, size_t errlen);
int pimc_bot_create(bot_t *b, const bot_settings_t *set, char *err, size_t errlen);
int hybrid_bot_create(bot_t *b, const bot_settings_t *set, char *err, size_t errlen);

#endif
