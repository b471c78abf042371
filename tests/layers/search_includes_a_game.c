/* A search file that reaches into a game: the layer check must refuse it (ctest: layers). */
#include "bot.h"
#include "picket.h"
