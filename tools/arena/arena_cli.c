/* arena_cli: the command-line pieces the arena's programs share (arena_cli.h). */
#include "arena_cli.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "text.h"

int arena_cli_help(int argc, char **argv, const char *usage, const char *version_line)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h") || !strcmp(argv[i], "-help")) {
            fputs(usage, stdout);
            return fflush(stdout) == 0 ? 0 : 1;
        }
        if (!strcmp(argv[i], "-version") || !strcmp(argv[i], "--version")) {
            puts(version_line);
            return fflush(stdout) == 0 ? 0 : 1;
        }
    }
    if (argc < 2) {
        fputs(usage, stderr);
        return 2;
    }
    return -1;
}

int arena_cli_refuse(const char *usage, const char *o, char *err, size_t errlen)
{
    size_t n = strlen(o);
    for (const char *p = usage; n && (p = strstr(p, o)); p += n)
        if (p >= usage + 3 && !strncmp(p - 3, "\n  ", 3) && p[n] == ' ' && p[n + 1] != ' ' && p[n + 1] != '\n') {
            snprintf(err, errlen, "%s needs a value (see --help)", o);
            return -1;
        }
    return text_error(err, errlen, "unknown option '%s' (see --help)", o);
}

void arena_cli_signals(void (*handler)(int))
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}
