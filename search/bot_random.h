/* bot_random: the random bot, uniform over the legal moves; an entry of bot.c's table. */
#ifndef PICKET_BOT_RANDOM_H
#define PICKET_BOT_RANDOM_H

#include <stddef.h>

#include "bot.h"

int bot_random_create(bot_t *b, const bot_settings_t *set, char *err, size_t errlen);

#endif
