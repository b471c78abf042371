/* hybrid: the default bot. ISMCTS (ismcts.h) for every decision before the play (a Picket
 * exchange, the Blank count, the call, the leftover, the appointment) and PIMC (pimc.h) for the
 * play, where a world is an endgame and the trick solver values every card exactly. Against
 * the heuristic it measured best of the combinations tried, and it is level with pimc
 * (docs/strength.md, docs/experiments.md).
 *
 * It reads the game's view_in_play to know which half decides, so it draws no world to find
 * out. Its options are the two halves' own: "ismcts.*" for the tree, "pimc.*" for the play. A game
 * without an endgame (Court Circular) is searched by the tree throughout.
 */
#ifndef PICKET_HYBRID_H
#define PICKET_HYBRID_H

#include <stddef.h>

#include "bot.h"

/* The bot table's entry (bot.c). */
int hybrid_bot_create(bot_t *b, const bot_settings_t *set, char *err, size_t errlen);

#endif
