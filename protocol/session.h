/* session: the engine side of the protocol. It reads command lines, keeps one seat's view
 * rebuilt from the events it is sent (never anything more), asks its bot for decisions and
 * analyses, and answers every line as docs/protocol.md says. It knows games only through
 * game_t and bots only through bot_t.
 */
#ifndef PICKET_SESSION_H
#define PICKET_SESSION_H

#include <stdio.h>

#include "proto.h"

typedef struct session session_t;

/* A session writing to `out` and, while searching, polling `in_fd` for isready/stop/quit
 * (-1: never polls). Identity strings appear in the handshake. NULL if out of memory. */
session_t *session_create(FILE *out, int in_fd, const char *name, const char *author);
void session_free(session_t *s);

/* Handle one line (no newline). Returns 1 after quit, else 0. */
int session_handle_line(session_t *s, const char *line);
/* Report a line the reader refused (too long, NUL byte). */
void session_bad_line(session_t *s, proto_status_t why);
/* Read lines from in_fd until quit or end of input. Returns the exit status. */
int session_run(session_t *s);

/* The commands, in the order list_commands prints them: the name of the i-th, NULL past the end. */
const char *session_command(int i);

/* The session's own options (bot, level, info, log), as declared: each bot's follow them in the
 * handshake (bot_settings_options). */
const opt_def_t *session_options(const session_t *s, int *n);

/* For tests: the seat's current view (NULL before newgame). */
const void *session_view(const session_t *s);

#endif
