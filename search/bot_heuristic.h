/* bot_heuristic: the heuristic bot, the game's rules of thumb weighed by its declared parameters
 * (each the option "heuristic.<game>.<param>", offered for every registered game); an entry of
 * bot.c's table. */
#ifndef PICKET_BOT_HEURISTIC_H
#define PICKET_BOT_HEURISTIC_H

#include <stddef.h>

#include "bot.h"

int bot_heuristic_create(bot_t *b, const bot_settings_t *set, char *err, size_t errlen);
/* Every registered game's heuristic parameters as options. 0, or -1 (no memory). */
int bot_heuristic_options(opt_list_t *l);

#endif
