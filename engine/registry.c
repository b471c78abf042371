/* registry: every game the project knows. A new game is its own folder under engine/, its
 * library in CMakeLists.txt, and one line in the list below: nothing else changes. */
#include <string.h>

#include "game.h"

#define GAMES(X) \
    X(PICKET_GAME) \
    X(HIGHCARD_GAME) \
    X(COURT_GAME)

#define DECLARE(g) extern const game_t g;
GAMES(DECLARE)
#define ENTRY(g) &g,
static const game_t *const REGISTRY[] = { GAMES(ENTRY) };

const game_t *game_find(const char *name)
{
    for (size_t i = 0; i < sizeof REGISTRY / sizeof REGISTRY[0]; i++)
        if (strcmp(REGISTRY[i]->name, name) == 0)
            return REGISTRY[i];
    return NULL;
}

const game_t *const *game_list(int *count)
{
    *count = (int)(sizeof REGISTRY / sizeof REGISTRY[0]);
    return REGISTRY;
}
