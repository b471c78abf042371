/* arena_error: the one way the arena's functions fail with a reason. A function that can fail
 * takes (err, errlen), writes one line there and returns -1; this does both at once, so a
 * failure is `return arena_error(err, errlen, "...", ...)`. It never prints. */
#ifndef PICKET_ARENA_ERROR_H
#define PICKET_ARENA_ERROR_H

#include <stddef.h>

/* fmt with its arguments into err (cut to errlen); returns -1. */
int arena_error(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
