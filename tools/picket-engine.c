/* picket-engine: a bot speaking the picket text protocol on stdin/stdout (docs/protocol.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bot.h"
#include "lines.h"
#include "session.h"

/* The build defines it from CMake's project version; a build without it still says something. */
#ifndef PICKET_VERSION
#define PICKET_VERSION "0.10.0"
#endif

/* Output that could not be written is an error (lines_check_stdout). */
static void check_stdout(void) { lines_check_stdout("picket-engine"); }

int main(int argc, char **argv)
{
    atexit(check_stdout);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            char bots[128];
            bot_list_names(bots, sizeof bots, ", ");
            printf("usage: picket-engine [--version]\n\n"
                   "A bot for Picket and the other registered games that speaks the picket text protocol,\n"
                   "version 1, on standard input and output (docs/protocol.md): a controller (the arena, a\n"
                   "GUI, a person typing) sends 'hello', 'newgame ...', the seat's events and 'go', and\n"
                   "reads back the moves. The bot is chosen by the option 'bot' (default %s; all:\n"
                   "%s) or by 'level' (1 to 5); 'hello' lists every option.\n"
                   "  --version  print 'picket-engine VERSION' and exit (also -version)\n"
                   "Try:  printf 'hello\\nquit\\n' | picket-engine\n",
                   BOT_DEFAULT, bots);
            return 0;
        }
        if (strcmp(argv[i], "--version") == 0 || strcmp(argv[i], "-version") == 0) {
            printf("picket-engine %s\n", PICKET_VERSION);
            return 0;
        }
        fprintf(stderr, "picket-engine: unknown argument '%s' (it takes none; see --help)\n", argv[i]);
        return 2;
    }
    session_t *s = session_create(stdout, STDIN_FILENO, "picket-engine " PICKET_VERSION, "the picket project");
    if (!s) {
        fprintf(stderr, "picket-engine: out of memory\n");
        return 1;
    }
    int rc = session_run(s);
    session_free(s);
    return rc;
}
