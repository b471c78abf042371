/* client: the controller side of the protocol: start an engine process from an argv (never
 * through a shell), write lines to it, read its lines with a timeout, and end it without
 * leaving a zombie or an open descriptor behind. Used by the arena, the benches and the tests.
 */
#ifndef PICKET_CLIENT_H
#define PICKET_CLIENT_H

#include <stddef.h>
#include <sys/types.h>

#include "proto.h"

/* Which step of client_start_opts failed (client_t.failed_step). */
typedef enum { CLIENT_STEP_EXEC, CLIENT_STEP_DIR, CLIENT_STEP_STDERR } client_step_t;

typedef struct client {
    pid_t pid;
    int to_engine;     /* write end of the engine's stdin */
    proto_reader_t from; /* the engine's stdout */
    int exit_status;   /* after client_stop: the wait status, or -1 */
    int plain_writes;  /* SIGPIPE was ignored at client_start_opts: no signal mask around writes */
    client_step_t failed_step; /* after a failed client_start_opts: what failed (also for pipes, fork) */
} client_t;

/* How to start an engine beyond its argv (every field may be NULL). */
typedef struct client_opts {
    const char *dir;          /* its working folder: entered before argv[0] is looked up */
    const char *stderr_path;  /* its stderr is appended to this file (NULL: inherited) */
} client_opts_t;

/* Start argv[0] with its arguments, in a process group of its own (a terminal's ^C reaches the
 * controller alone, and client_stop can end everything the engine started). Returns 0 or -1
 * with a reason, which names the step that failed ("cannot start 'X': ...", "cannot enter the
 * folder 'D': ...", "cannot open 'F' for stderr: ..."). opts may be NULL: no options. */
int client_start_opts(client_t *c, char *const argv[], const client_opts_t *opts, char *err, size_t errlen);
/* Write one line (a newline is added). Returns 0, or -1 if the engine has gone (errno EPIPE)
 * or the line is longer than PROTO_MAX_LINE. Never raises SIGPIPE and never changes its
 * disposition: the client touches no process-wide state. A program that ignores SIGPIPE itself
 * before client_start_opts (as the arena does) gets plain writes; otherwise SIGPIPE is blocked in
 * the writing thread around each write, three system calls more a line. */
int client_send(client_t *c, const char *line);
/* Read one line within timeout_ms (<0: wait forever). Returns PROTO_LINE, PROTO_AGAIN on timeout,
 * PROTO_EOF if the engine closed its output, or a reader error. */
proto_status_t client_read(client_t *c, char *line, int timeout_ms);
/* Read lines until the reply carrying want_id (-1: the first reply of any id). Other lines,
 * and replies with another id (such as the error of an earlier silent command), go to on_line
 * (may be NULL). Returns 1 for '=', 0 for '?', -1 on timeout or end of output. */
int client_await_reply(client_t *c, char *line, int timeout_ms, long want_id,
                       void (*on_line)(void *, const char *), void *data);
/* Send quit and wait up to grace_ms for the engine to exit; then SIGKILL its whole process
 * group (whatever it left behind, also behind a wrapper script), reap it and close its pipes. */
void client_stop(client_t *c, int grace_ms);

#endif
