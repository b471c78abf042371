/* pipe2 and O_CLOEXEC: descriptors must never leak into engines started by other threads. */
#define _GNU_SOURCE
#include "client.h"
#include "measure.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Close-on-exec from birth (pipe2), so a fork in another thread never inherits it. */
static int make_pipe(int fds[2]) { return pipe2(fds, O_CLOEXEC); }

int client_start_opts(client_t *c, char *const argv[], const client_opts_t *opts, char *err, size_t errlen)
{
    int fds[3][2], made = 0, *in = fds[0], *out = fds[1], *status = fds[2];
    memset(c, 0, sizeof *c);
    c->pid = -1;
    c->to_engine = -1;
    struct sigaction pipe_action;
    c->plain_writes = sigaction(SIGPIPE, NULL, &pipe_action) == 0 && pipe_action.sa_handler == SIG_IGN;
    c->exit_status = -1;
    const char *dir = opts ? opts->dir : NULL, *errfile = opts ? opts->stderr_path : NULL;
    while (made < 3 && make_pipe(fds[made]) == 0)
        made++;
    pid_t pid = made == 3 ? fork() : -1;
    if (pid < 0) {
        snprintf(err, errlen, "%s: %s", made < 3 ? "cannot create pipes" : "cannot fork", strerror(errno));
        while (made-- > 0)
            close(fds[made][0]), close(fds[made][1]);
        return -1;
    }
    if (pid == 0) {
        int report[2] = { CLIENT_STEP_EXEC, 0 };
        setpgid(0, 0);
        /* The controller's signal dispositions are not the engine's (sigaction: async-signal
         * safe between fork and exec). */
        struct sigaction dfl;
        memset(&dfl, 0, sizeof dfl);
        dfl.sa_handler = SIG_DFL;
        sigaction(SIGPIPE, &dfl, NULL);
        sigaction(SIGINT, &dfl, NULL);
        sigaction(SIGTERM, &dfl, NULL);
        dup2(in[0], STDIN_FILENO);
        dup2(out[1], STDOUT_FILENO);
        if (errfile) {
            int fd = open(errfile, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
            if (fd < 0 || dup2(fd, STDERR_FILENO) < 0) {
                report[0] = CLIENT_STEP_STDERR;
                goto failed;
            }
        }
        if (dir && chdir(dir) < 0) {
            report[0] = CLIENT_STEP_DIR;
            goto failed;
        }
        execvp(argv[0], argv);
    failed:
        report[1] = errno;
        ssize_t w = write(status[1], report, sizeof report);
        (void)w;
        _exit(127);
    }
    /* Also here, so the group exists before anyone signals it, whichever runs first. */
    setpgid(pid, pid);
    close(in[0]);
    close(out[1]);
    close(status[1]);
    int report[2] = { 0, 0 };
    ssize_t got;
    do
        got = read(status[0], report, sizeof report);
    while (got < 0 && errno == EINTR);
    close(status[0]);
    if (got == sizeof report) {
        c->failed_step = (client_step_t)report[0];
        if (report[0] == CLIENT_STEP_DIR)
            snprintf(err, errlen, "cannot enter the folder '%s': %s", dir, strerror(report[1]));
        else if (report[0] == CLIENT_STEP_STDERR)
            snprintf(err, errlen, "cannot open '%s' for stderr: %s", errfile, strerror(report[1]));
        else
            snprintf(err, errlen, "cannot start '%s': %s", argv[0], strerror(report[1]));
        close(in[1]);
        close(out[0]);
        waitpid(pid, NULL, 0);
        return -1;
    }
    c->pid = pid;
    c->to_engine = in[1];
    proto_reader_init(&c->from, out[0]);
    return 0;
}

/* write(), but a reader that has gone is EPIPE, never a SIGPIPE: the disposition is the
 * program's, not ours to change. SIGPIPE is blocked in this thread around the write; one that
 * the write raised is taken back with sigtimedwait before the mask is restored, unless one was
 * already pending (then it is not ours to take, and a second merges into it). */
static ssize_t write_without_sigpipe(int fd, const void *buf, size_t n)
{
    sigset_t pipe_only, old_mask, pending;
    sigemptyset(&pipe_only);
    sigaddset(&pipe_only, SIGPIPE);
    sigemptyset(&pending);
    sigpending(&pending);
    int was_pending = sigismember(&pending, SIGPIPE) == 1;
    if (pthread_sigmask(SIG_BLOCK, &pipe_only, &old_mask) != 0)
        return -1;
    ssize_t w = write(fd, buf, n);
    int err = errno;
    if (w < 0 && err == EPIPE && !was_pending) {
        const struct timespec now = { 0, 0 };
        while (sigtimedwait(&pipe_only, NULL, &now) < 0 && errno == EINTR)
            continue;
    }
    pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
    errno = err;
    return w;
}

int client_send(client_t *c, const char *line)
{
    size_t n = strlen(line);
    char buf[PROTO_MAX_LINE + 2];
    if (n > PROTO_MAX_LINE)
        return -1; /* the engine would refuse it: never send a cut line */
    memcpy(buf, line, n);
    buf[n++] = '\n';
    size_t done = 0;
    while (done < n) {
        ssize_t w = c->plain_writes ? write(c->to_engine, buf + done, n - done)
                                    : write_without_sigpipe(c->to_engine, buf + done, n - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        done += (size_t)w;
    }
    return 0;
}

proto_status_t client_read(client_t *c, char *line, int timeout_ms)
{
    return proto_read_line(&c->from, line, timeout_ms);
}

static long long now_ms(void) { return (long long)(measure_now() * 1000.0); }

int client_await_reply(client_t *c, char *line, int timeout_ms, long want_id,
                       void (*on_line)(void *, const char *), void *data)
{
    long long deadline = timeout_ms < 0 ? -1 : now_ms() + timeout_ms;
    for (;;) {
        int left = deadline < 0 ? -1 : (int)(deadline - now_ms());
        if (deadline >= 0 && left < 0)
            left = 0;
        proto_status_t st = client_read(c, line, left);
        if (st == PROTO_AGAIN || st == PROTO_EOF)
            return -1;
        if (st != PROTO_LINE)
            continue;
        int ok;
        long id;
        const char *text;
        if (proto_parse_reply(line, &ok, &id, &text) && (want_id < 0 || id == want_id))
            return ok;
        if (on_line)
            on_line(data, line);
    }
}

void client_stop(client_t *c, int grace_ms)
{
    if (c->pid <= 0)
        return;
    if (c->to_engine >= 0) {
        client_send(c, "quit");
        close(c->to_engine);
        c->to_engine = -1;
    }
    /* Wait for the engine to exit without reaping it: while it is a zombie its pid, which is
     * also its process group's id, cannot be taken by another process. */
    long long deadline = now_ms() + grace_ms;
    siginfo_t info;
    int exited = 0;
    for (;;) {
        memset(&info, 0, sizeof info);
        if (waitid(P_PID, (id_t)c->pid, &info, WEXITED | WNOHANG | WNOWAIT) < 0 && errno != EINTR)
            break;
        if (info.si_pid == c->pid) {
            exited = 1;
            break;
        }
        if (now_ms() >= deadline)
            break;
        struct timespec ts = { 0, 2000000 };
        nanosleep(&ts, NULL);
    }
    kill(-c->pid, SIGKILL); /* the group: what a wrapper script or the engine left running */
    if (!exited)
        kill(c->pid, SIGKILL);
    int status = 0;
    while (waitpid(c->pid, &status, 0) < 0 && errno == EINTR)
        continue;
    c->exit_status = status;
    close(c->from.fd);
    c->from.fd = -1;
    c->pid = -1;
}
