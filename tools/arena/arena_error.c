/* arena_error: a reason for the caller (arena_error.h). */
#include "arena_error.h"

#include <stdarg.h>
#include <stdio.h>

int arena_error(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}
