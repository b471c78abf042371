/* arena_cli: what the arena's programs (picket-arena, picket-tune) share on their command line:
 * --help and -version anywhere, and the operator's signals. */
#ifndef PICKET_ARENA_CLI_H
#define PICKET_ARENA_CLI_H

#include <stddef.h>

/* --help (-h, -help) prints usage to stdout, -version (--version) prints version_line: the exit
 * status to return (0, or 1 when stdout cannot be written). -1 when neither is given; with no
 * argument at all, usage goes to stderr and the status is 2. */
int arena_cli_help(int argc, char **argv, const char *usage, const char *version_line);

/* An option the parser did not take, as one line in err: "O needs a value (see --help)" when
 * usage lists O with an argument ("  O ARG ..." at a line's start), else "unknown option 'O'
 * (see --help)". The usage text is the one declaration of which options take a value. -1. */
int arena_cli_refuse(const char *usage, const char *o, char *err, size_t errlen);

/* SIGINT, SIGTERM and SIGHUP go to handler; SIGPIPE is ignored (a write to an engine that has
 * gone is an error, not a death). Engines run in process groups of their own, so a terminal's
 * ^C reaches the program alone. */
void arena_cli_signals(void (*handler)(int));

#endif
