/* level: the strength levels (docs/protocol.md, docs/strength.md), so that a player can name a
 * strength without knowing the bots. Each level is a bot and the budgets of the bots; a budget
 * left NULL is the option's declared default, never a copy of it, so the top level is exactly a
 * fresh engine. Each level beats the one below it (docs/strength.md).
 */
#ifndef PICKET_LEVEL_H
#define PICKET_LEVEL_H

#include <stddef.h>

#include "bot.h"

enum { LEVEL_MIN = 1, LEVEL_MAX = 5 };

/* Level n's bot (NULL: the engine's default bot), or NULL with a one-line reason for a number out
 * of range; *ok is 1 for a level in range, 0 otherwise. */
const char *level_bot(int n, int *ok, char *err, size_t errlen);
/* Set level n's budgets in set, each checked before any is set: a refused level changes nothing.
 * 0, or -1 with a one-line reason (a level out of range, a budget no bot declares). */
int level_set_budgets(int n, bot_settings_t *set, char *err, size_t errlen);

#endif
