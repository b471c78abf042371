/* The text protocol (docs/protocol.md).
 *  - Transcripts (the .txt files in tests/protocol): lines in ("> "), lines out ("< " exact, "<~ " prefix),
 *    every error case included, run through the engine session; and every transcript in the docs,
 *    run through the real engine.
 *  - An engine fed a seat's events as text rebuilds exactly the view the rules engine builds for
 *    that seat, at every step of thousands of seeded games in every preset; every event read back
 *    from its text is the event that was sent; every move the engine answers is legal.
 *  - A real picket-engine process ($PICKET_ENGINE) answers bad input (empty lines, a 1 MB line,
 *    binary bytes, NUL, unknown commands, events that cannot happen, commands out of turn, go
 *    before a game) with an error, and still answers isready.
 *  - The client leaves no zombie and no open descriptor behind, and no process-wide state
 *    changed: SIGPIPE keeps its disposition; writing to an engine that has exited fails.
 */
#include <CUnit/CUnit.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "client.h"
#include "game.h"
#include "picket.h"
#include "session.h"
#include "test_util.h"

/* ---------------------------------------------------------------- transcripts */

static int run_transcript(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char in_path[] = "/tmp/picket-transcript-XXXXXX";
    int in_fd = mkstemp(in_path);
    FILE *in = fdopen(in_fd, "w+");
    char *expect[4096];
    int nexp = 0;
    char line[8192];
    while (fgets(line, sizeof line, f)) {
        size_t n = strlen(line);
        if (n && line[n - 1] == '\n')
            line[--n] = '\0';
        if (strncmp(line, "> ", 2) == 0)
            fprintf(in, "%s\n", line + 2);
        else if (strcmp(line, ">") == 0)
            fprintf(in, "\n");
        else if ((strncmp(line, "< ", 2) == 0 || strncmp(line, "<~ ", 3) == 0) && nexp < 4096)
            expect[nexp++] = strdup(line);
    }
    fclose(f);
    fflush(in);
    rewind(in);
    char *out_buf = NULL;
    size_t out_size = 0;
    FILE *out = open_memstream(&out_buf, &out_size);
    session_t *s = session_create(out, fileno(in), "picket-engine 0.1", "the picket project");
    session_run(s);
    session_free(s);
    fclose(out);
    fclose(in);
    unlink(in_path);
    int ok = 1, i = 0;
    char *save = NULL;
    for (char *got = strtok_r(out_buf, "\n", &save); got; got = strtok_r(NULL, "\n", &save), i++) {
        if (i >= nexp) {
            fprintf(stderr, "\n    %s: unexpected output line %d: %s\n", path, i + 1, got);
            ok = 0;
            break;
        }
        int prefix = expect[i][1] == '~';
        const char *want = expect[i] + (prefix ? 3 : 2);
        if (prefix ? strncmp(got, want, strlen(want)) != 0 : strcmp(got, want) != 0) {
            fprintf(stderr, "\n    %s: output line %d\n      want: %s\n      got:  %s\n", path, i + 1, want, got);
            ok = 0;
            break;
        }
    }
    if (ok && i < nexp) {
        fprintf(stderr, "\n    %s: missing output from line %d: %s\n", path, i + 1, expect[i]);
        ok = 0;
    }
    for (int k = 0; k < nexp; k++)
        free(expect[k]);
    free(out_buf);
    return ok;
}

static void test_transcripts(void)
{
    DIR *d = opendir("tests/protocol");
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    struct dirent *e;
    int count = 0;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".txt") != 0)
            continue;
        char path[512];
        snprintf(path, sizeof path, "tests/protocol/%s", e->d_name);
        CU_ASSERT(run_transcript(path));
        count++;
    }
    closedir(d);
    CU_ASSERT(count >= 3);
}

/* ---------------------------------------------------------------- the docs' transcripts */

/* Every transcript in the docs (a fenced block with a "> " line) is run through the real engine
 * ($PICKET_ENGINE), one process a block, and its output compared line by line with the block's
 * "< " lines. The docs' conventions: "\r" and "\xNN" in an input line stand for those bytes,
 * "xxxx...x" for a line of 70000 x's, a lone ">" for an empty line; an output line "..." or
 * one that starts with "…" stands for any number of lines; an `info iterations` line's time and
 * rate are the machine's and not compared. A block of "< " lines with no "> " line cannot be
 * checked and fails the test. */

static void docs_write_input(FILE *in, const char *text)
{
    if (strcmp(text, "xxxx...x") == 0) {
        for (int i = 0; i < 70000; i++)
            fputc('x', in);
        text = "";
    }
    for (const char *p = text; *p; p++) {
        unsigned byte;
        if (p[0] == '\\' && p[1] == 'r') {
            fputc('\r', in);
            p++;
        } else if (p[0] == '\\' && p[1] == 'x' && sscanf(p + 2, "%2x", &byte) == 1) {
            fputc((int)byte, in);
            p += 3;
        } else {
            fputc(*p, in);
        }
    }
    fputc('\n', in);
}

static int docs_wildcard(const char *line)
{
    while (*line == ' ')
        line++;
    return strcmp(line, "...") == 0 || strncmp(line, "\xe2\x80\xa6", 3) == 0;
}

/* The line with an `info iterations` line's time and rate values masked. */
static void docs_mask(const char *line, char *out, size_t cap)
{
    snprintf(out, cap, "%s", line);
    if (strncmp(out, "info iterations ", 16) != 0)
        return;
    for (const char *key = "time"; key; key = strcmp(key, "time") == 0 ? "rate" : NULL) {
        char pat[8];
        snprintf(pat, sizeof pat, " %s ", key);
        char *v = strstr(out, pat);
        if (!v)
            continue;
        v += strlen(pat);
        size_t n = strcspn(v, " ");
        memmove(v + 1, v + n, strlen(v + n) + 1);
        *v = '*';
    }
}

/* Run one block (its lines, NUL-separated in `lines`); 1 when the engine's output matches. */
static int docs_run_block(const char *where, char **lines, int count)
{
    const char *bin = getenv("PICKET_ENGINE");
    char dir[256];
    test_tmpdir_make(dir, sizeof dir, "picket-docs");
    char in_path[512], out_path[512];
    snprintf(in_path, sizeof in_path, "%s", test_path(dir, "in"));
    snprintf(out_path, sizeof out_path, "%s", test_path(dir, "out"));
    FILE *in = fopen(in_path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    const char *want[512];
    int nwant = 0;
    for (int i = 0; i < count; i++) {
        if (strncmp(lines[i], "> ", 2) == 0)
            docs_write_input(in, lines[i] + 2);
        else if (strcmp(lines[i], ">") == 0)
            fputc('\n', in);
        else if ((strncmp(lines[i], "< ", 2) == 0 || docs_wildcard(lines[i])) && nwant < 512)
            want[nwant++] = lines[i];
        else if (lines[i][0]) {
            fprintf(stderr, "\n    %s: a line neither in, out nor elided: %s\n", where, lines[i]);
            fclose(in);
            test_tmpdir_remove(dir);
            return 0;
        }
    }
    fclose(in);
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s' < '%s' > '%s' 2>/dev/null", bin ? bin : "build/tools/picket-engine", in_path, out_path);
    int rc = system(cmd);
    char *out = test_slurp(out_path);
    test_tmpdir_remove(dir);
    if (rc != 0 || !out) {
        fprintf(stderr, "\n    %s: the engine exited with %d\n", where, rc);
        free(out);
        return 0;
    }
    int ok = 1, w = 0;
    char got_m[PROTO_MAX_LINE + 1], want_m[PROTO_MAX_LINE + 1], *save = NULL;
    for (char *got = strtok_r(out, "\n", &save); got && ok; got = strtok_r(NULL, "\n", &save)) {
        docs_mask(got, got_m, sizeof got_m);
        if (w < nwant && docs_wildcard(want[w])) {
            if (w + 1 == nwant)
                continue;
            docs_mask(want[w + 1] + 2, want_m, sizeof want_m);
            if (strcmp(got_m, want_m) != 0)
                continue;
            w++;
        }
        if (w >= nwant) {
            fprintf(stderr, "\n    %s: unexpected output: %s\n", where, got);
            ok = 0;
            break;
        }
        docs_mask(want[w] + 2, want_m, sizeof want_m);
        if (strcmp(got_m, want_m) != 0) {
            fprintf(stderr, "\n    %s: output\n      docs:   %s\n      engine: %s\n", where, want[w] + 2, got);
            ok = 0;
        }
        w++;
    }
    if (ok && w < nwant && !(w + 1 == nwant && docs_wildcard(want[w]))) {
        fprintf(stderr, "\n    %s: the engine never wrote: %s\n", where, want[w + docs_wildcard(want[w])]);
        ok = 0;
    }
    free(out);
    return ok;
}

/* The transcripts of one Markdown file; returns how many blocks were run. */
static int docs_check_file(const char *path)
{
    char *text = test_slurp(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    char *lines[1024];
    int count = 0, in_block = 0, runs = 0, start = 0, lineno = 0;
    for (char *line = text, *next; line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        lineno++;
        if (strncmp(line, "```", 3) == 0) {
            if (in_block) {
                int inputs = 0, outputs = 0;
                for (int i = 0; i < count; i++) {
                    inputs += strncmp(lines[i], "> ", 2) == 0;
                    outputs += strncmp(lines[i], "< ", 2) == 0;
                }
                char where[600];
                snprintf(where, sizeof where, "%s:%d", path, start);
                if (inputs) {
                    CU_ASSERT(docs_run_block(where, lines, count));
                    runs++;
                } else if (outputs) {
                    fprintf(stderr, "\n    %s: replies with no input to check them by\n", where);
                    CU_FAIL("a docs transcript cannot be run");
                }
            }
            in_block = !in_block;
            count = 0;
            start = lineno;
        } else if (in_block && count < 1024) {
            lines[count++] = line;
        }
    }
    free(text);
    return runs;
}

static void test_docs_transcripts_match_the_engine(void)
{
    int runs = docs_check_file("README.md");
    DIR *d = opendir("docs");
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 4 || strcmp(e->d_name + n - 3, ".md") != 0)
            continue;
        char path[512];
        snprintf(path, sizeof path, "docs/%s", e->d_name);
        runs += docs_check_file(path);
    }
    closedir(d);
    CU_ASSERT(runs >= 10);
}

/* ---------------------------------------------------------------- the text path, at scale */

typedef struct seat_io {
    session_t *s;
    FILE *out;
    char *buf;
    size_t size, read;
} seat_io_t;

/* Send a line; return the session's new output (NUL-terminated, owned by io). */
static const char *say(seat_io_t *io, const char *line)
{
    session_handle_line(io->s, line);
    fflush(io->out);
    const char *fresh = io->buf + io->read;
    io->read = io->size;
    return fresh;
}

static int play_over_text(const char *preset, uint64_t seed, const char *bot, char *why, size_t len)
{
    const game_t *g = &PICKET_GAME;
    game_config_t cfg = { 0 };
    char err[GAME_ERR_LEN];
    game_config_set_preset(&cfg, preset, err, sizeof err);
    cfg.deal_seed = seed;
    picket_state_t st;
    g->init(&st, &cfg, err, sizeof err);
    seat_io_t io[2];
    for (int s = 0; s < 2; s++) {
        memset(&io[s], 0, sizeof io[s]);
        io[s].out = open_memstream(&io[s].buf, &io[s].size);
        io[s].s = session_create(io[s].out, -1, "t", "t");
        char cmd[256];
        snprintf(cmd, sizeof cmd, "setoption name bot value %s", bot);
        say(&io[s], cmd);
        say(&io[s], "setoption name info value false");
        snprintf(cmd, sizeof cmd, "newgame game picket preset %s seat %d seed %llu", preset, s,
                 (unsigned long long)(seed * 2 + (uint64_t)s));
        const char *o = say(&io[s], cmd);
        if (*o) {
            snprintf(why, len, "newgame answered: %s", o);
            return 0;
        }
    }
    game_event_t ev[GAME_MAX_EVENTS];
    int ok = 1;
    for (int step = 0; ok && step < 100000; step++) {
        int who = g->to_move(&st);
        if (who == GAME_OVER)
            break;
        int n;
        if (who == GAME_CHANCE) {
            n = g->apply_chance(&st, NULL, ev, GAME_MAX_EVENTS);
        } else {
            const char *o = say(&io[who], "go");
            if (strncmp(o, "= move ", 7) != 0) {
                snprintf(why, len, "step %d: go answered '%.80s'", step, o);
                ok = 0;
                break;
            }
            char mv[512];
            snprintf(mv, sizeof mv, "%.*s", (int)strcspn(o + 7, "\n"), o + 7);
            game_move_t m;
            if (g->move_parse(mv, &m, err, sizeof err) < 0 || !g->is_legal(&st, &m, err, sizeof err)) {
                snprintf(why, len, "step %d: engine's move '%.100s' refused: %.100s", step, mv, err);
                ok = 0;
                break;
            }
            n = g->apply(&st, &m, ev, GAME_MAX_EVENTS);
        }
        for (int i = 0; ok && i < n; i++)
            for (int s = 0; s < 2; s++) {
                if (!game_event_visible(&ev[i], s))
                    continue;
                char text[1024], line[1100];
                g->event_format(&ev[i], text, sizeof text);
                game_event_t back;
                if (g->event_parse(text, s, &back, err, sizeof err) < 0 || memcmp(&back, &ev[i], sizeof back) != 0) {
                    snprintf(why, len, "event '%.100s' does not read back as itself (%.100s)", text, err);
                    ok = 0;
                    break;
                }
                snprintf(line, sizeof line, "event %s", text);
                const char *o = say(&io[s], line);
                if (*o) {
                    snprintf(why, len, "'%.100s' answered '%.80s'", line, o);
                    ok = 0;
                    break;
                }
            }
        for (int s = 0; ok && s < 2; s++) {
            picket_view_t truth;
            g->view_from_state(&st, s, &truth);
            const char *d = g->view_diff(session_view(io[s].s), &truth);
            if (d) {
                snprintf(why, len, "step %d: seat %d's engine view differs in %s", step, s, d);
                ok = 0;
            }
        }
    }
    for (int s = 0; s < 2; s++) {
        session_free(io[s].s);
        fclose(io[s].out);
        free(io[s].buf);
    }
    return ok;
}

static void run_text_games(const char *bot, int games)
{
    char why[300];
    for (int p = 0; p < PK_PRESET_COUNT; p++) {
        int failures = 0;
        for (int i = 0; i < games && failures < 2; i++)
            if (!play_over_text(PICKET_PRESETS[p].name, 7000 + (uint64_t)i, bot, why, sizeof why)) {
                fprintf(stderr, "\n    %s seed %d: %s\n", PICKET_PRESETS[p].name, 7000 + i, why);
                failures++;
            }
        CU_ASSERT_EQUAL(failures, 0);
    }
}

static void test_engine_rebuilds_the_referees_view_random(void) { run_text_games("random", 500); }
static void test_engine_rebuilds_the_referees_view_heuristic(void) { run_text_games("heuristic", 25); }

/* ---------------------------------------------------------------- a real engine process */

static client_t engine;
static char reply[PROTO_MAX_LINE + 1], last_error[PROTO_MAX_LINE + 1];

static int engine_start(void)
{
    const char *bin = getenv("PICKET_ENGINE");
    char *argv[] = { (char *)(bin ? bin : "build/tools/picket-engine"), NULL };
    char err[200];
    if (client_start_opts(&engine, argv, NULL, err, sizeof err) < 0) {
        fprintf(stderr, "\n    %s\n", err);
        return -1;
    }
    return 0;
}

/* Send raw bytes (no newline added). */
static void send_raw(const void *data, size_t n)
{
    const char *p = data;
    while (n) {
        ssize_t w = write(engine.to_engine, p, n);
        if (w <= 0)
            return;
        p += w;
        n -= (size_t)w;
    }
}

/* The next reply must be an error naming `want`, and isready must still be answered. */
static void expect_error_then_ready(const char *want)
{
    int rc = client_await_reply(&engine, reply, 5000, -1, NULL, NULL);
    CU_ASSERT_EQUAL(rc, 0);
    if (rc != 0 || !strstr(reply, want))
        fprintf(stderr, "\n    want an error with '%s', got '%.100s'\n", want, reply);
    CU_ASSERT_PTR_NOT_NULL(strstr(reply, want));
    memcpy(last_error, reply, sizeof reply);
    client_send(&engine, "isready");
    CU_ASSERT_EQUAL(client_await_reply(&engine, reply, 5000, -1, NULL, NULL), 1);
    CU_ASSERT_STRING_EQUAL(reply, "= readyok");
}

static void test_real_engine_answers_bad_input_and_stays_ready(void)
{
    CU_ASSERT_EQUAL_FATAL(engine_start(), 0);
    client_send(&engine, "");
    expect_error_then_ready("empty line");
    /* A 1 MB line. */
    size_t big = 1 << 20;
    char *junk = malloc(big);
    CU_ASSERT_PTR_NOT_NULL_FATAL(junk);
    memset(junk, 'x', big);
    send_raw(junk, big);
    send_raw("\n", 1);
    expect_error_then_ready("longer than 65536 bytes");
    /* Binary bytes, without a NUL. */
    for (size_t i = 0; i < 256; i++)
        junk[i] = (char)(0x80 + (i % 0x7f));
    send_raw(junk, 256);
    send_raw("\n", 1);
    expect_error_then_ready("unknown command");
    /* Control bytes. */
    send_raw("isr\x01" "eady\n", 9);
    expect_error_then_ready("control byte");
    /* A NUL byte. */
    send_raw("isready\0junk\n", 13);
    expect_error_then_ready("NUL byte");
    free(junk);
    client_send(&engine, "castle kingside");
    expect_error_then_ready("unknown command 'castle'");
    client_send(&engine, "go");
    expect_error_then_ready("no game: send newgame first");
    client_send(&engine, "event play 0 AS");
    expect_error_then_ready("no game: send newgame first");
    client_send(&engine, "newgame game picket seat 0 seed 1");
    client_send(&engine, "event hand 1 dealer 0 stock 12");
    client_send(&engine, "event dealt 0 9C JC 6D 7D 9D 7H AH 7S 8S 9S JS QS");
    client_send(&engine, "event turn 1 elder-exchange");
    /* Seat 1 is to move: seat 0's go is out of turn; a play event cannot happen now. */
    client_send(&engine, "4 go");
    expect_error_then_ready("not this seat's turn (seat 1 is to move)");
    CU_ASSERT_EQUAL(strncmp(last_error, "?4 line ", 8), 0);
    client_send(&engine, "event play 1 AS");
    expect_error_then_ready("does not follow from this seat's view");
    client_send(&engine, "event dealt 1 AS");
    expect_error_then_ready("'dealt' with cards is private to seat 1, not for seat 0");
    client_send(&engine, "setoption name bot value oracle");
    expect_error_then_ready("option bot: 'oracle' is not one of its values");
    client_send(&engine, "stop");
    expect_error_then_ready("no search to stop");
    /* The state survived every error: the view still takes the next real event. */
    client_send(&engine, "event discard 1 3");
    client_send(&engine, "view");
    CU_ASSERT_EQUAL(client_await_reply(&engine, reply, 5000, -1, NULL, NULL), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(reply, "; discard 1 3"));
    client_stop(&engine, 2000);
    CU_ASSERT(WIFEXITED(engine.exit_status) && WEXITSTATUS(engine.exit_status) == 0);
}

static void test_real_engine_plays_a_decision_with_info(void)
{
    CU_ASSERT_EQUAL_FATAL(engine_start(), 0);
    client_send(&engine, "hello");
    CU_ASSERT_EQUAL(client_await_reply(&engine, reply, 5000, -1, NULL, NULL), 1);
    CU_ASSERT_STRING_EQUAL(reply, "= hello");
    client_send(&engine, "newgame game picket preset cotton seat 0 seed 1");
    client_send(&engine, "event hand 1 dealer 1 stock 12");
    client_send(&engine, "event dealt 0 9C JC 6D 7D 9D 7H AH 7S 8S 9S JS QS");
    client_send(&engine, "event turn 0 elder-exchange");
    client_send(&engine, "9 go movetime 100");
    int infos = 0;
    for (;;) {
        proto_status_t st = client_read(&engine, reply, 5000);
        CU_ASSERT_EQUAL_FATAL(st, PROTO_LINE);
        if (strncmp(reply, "info ", 5) == 0) {
            infos++;
            continue;
        }
        break;
    }
    CU_ASSERT(infos >= 2);
    CU_ASSERT_EQUAL(strncmp(reply, "=9 move discard ", 16), 0);
    client_stop(&engine, 2000);
}

/* ---------------------------------------------------------------- the client */


static void test_client_leaves_no_zombie_and_no_descriptor(void)
{
    int before = test_open_fds();
    for (int i = 0; i < 100; i++) {
        CU_ASSERT_EQUAL_FATAL(engine_start(), 0);
        pid_t pid = engine.pid;
        if (i % 2) {
            client_send(&engine, "isready");
            CU_ASSERT_EQUAL(client_await_reply(&engine, reply, 5000, -1, NULL, NULL), 1);
        }
        client_stop(&engine, 1000);
        /* Reaped: the pid is no longer our child. */
        CU_ASSERT_EQUAL(waitpid(pid, NULL, WNOHANG), -1);
    }
    CU_ASSERT_EQUAL(test_open_fds(), before);
}

static void test_client_reports_a_program_that_cannot_start(void)
{
    char *argv[] = { "/nonexistent/engine", NULL };
    char err[200];
    client_t c;
    CU_ASSERT_EQUAL(client_start_opts(&c, argv, NULL, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "cannot start '/nonexistent/engine'"));
}

/* A library leaves process-wide state alone: client_start_opts must not change the SIGPIPE
 * disposition, and a line written to an engine that has exited is an error (EPIPE) for the
 * caller, not a signal that kills it. The write runs in a child with SIGPIPE at SIG_DFL, so a
 * SIGPIPE would show as the child's death instead of killing this suite. */
static void test_client_leaves_sigpipe_alone_and_a_dead_engine_is_an_error(void)
{
    struct sigaction dfl, saved, now;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    CU_ASSERT_EQUAL_FATAL(sigaction(SIGPIPE, &dfl, &saved), 0);
    CU_ASSERT_EQUAL_FATAL(engine_start(), 0);
    CU_ASSERT_EQUAL(sigaction(SIGPIPE, NULL, &now), 0);
    CU_ASSERT(now.sa_handler == SIG_DFL);
    client_stop(&engine, 2000);
    fflush(NULL);
    pid_t child = fork();
    CU_ASSERT_FATAL(child >= 0);
    if (child == 0) {
        /* 10: could not start; 11: the engine did not exit; 12: the send succeeded or failed
         * with another error; 13: a SIGPIPE was left pending or the signal mask changed. */
        sigaction(SIGPIPE, &dfl, NULL);
        sigset_t mask_before, mask_after, pending;
        sigprocmask(SIG_SETMASK, NULL, &mask_before);
        if (engine_start() < 0)
            _exit(10);
        client_send(&engine, "quit");
        int st;
        if (waitpid(engine.pid, &st, 0) != engine.pid)
            _exit(11);
        errno = 0;
        int rc = client_send(&engine, "isready"), err = errno;
        if (rc != -1 || err != EPIPE)
            _exit(12);
        sigprocmask(SIG_SETMASK, NULL, &mask_after);
        sigpending(&pending);
        if (sigismember(&pending, SIGPIPE) || sigismember(&mask_after, SIGPIPE) != sigismember(&mask_before, SIGPIPE))
            _exit(13);
        _exit(0);
    }
    int status = 0;
    CU_ASSERT_EQUAL(waitpid(child, &status, 0), child);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fprintf(stderr, "\n    the writer %s %d\n", WIFSIGNALED(status) ? "died of signal" : "exited with",
                WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
    CU_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    sigaction(SIGPIPE, &saved, NULL);
}

static void test_reply_parsing(void)
{
    int ok;
    long id;
    const char *text;
    CU_ASSERT_EQUAL(proto_parse_reply("=12 move play AS", &ok, &id, &text), 1);
    CU_ASSERT_EQUAL(ok, 1);
    CU_ASSERT_EQUAL(id, 12);
    CU_ASSERT_STRING_EQUAL(text, "move play AS");
    CU_ASSERT_EQUAL(proto_parse_reply("? line 3: empty line", &ok, &id, &text), 1);
    CU_ASSERT_EQUAL(ok, 0);
    CU_ASSERT_EQUAL(id, -1);
    CU_ASSERT_EQUAL(proto_parse_reply("info nodes 3", &ok, &id, &text), 0);
    CU_ASSERT_EQUAL(proto_parse_reply("=x", &ok, &id, &text), 0);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("protocol", NULL, NULL);
    CU_add_test(s, "transcripts in tests/protocol", test_transcripts);
    CU_add_test(s, "every transcript in the docs matches the engine", test_docs_transcripts_match_the_engine);
    CU_add_test(s, "engine rebuilds the referee's view over text (random, 2000 games)", test_engine_rebuilds_the_referees_view_random);
    CU_add_test(s, "engine rebuilds the referee's view over text (heuristic, 100 games)", test_engine_rebuilds_the_referees_view_heuristic);
    CU_add_test(s, "a real engine answers bad input and stays ready", test_real_engine_answers_bad_input_and_stays_ready);
    CU_add_test(s, "a real engine plays a decision with info lines", test_real_engine_plays_a_decision_with_info);
    CU_add_test(s, "client leaves no zombie and no descriptor", test_client_leaves_no_zombie_and_no_descriptor);
    CU_add_test(s, "client reports a program that cannot start", test_client_reports_a_program_that_cannot_start);
    CU_add_test(s, "client leaves SIGPIPE alone; a dead engine is an error", test_client_leaves_sigpipe_alone_and_a_dead_engine_is_an_error);
    CU_add_test(s, "reply parsing", test_reply_parsing);
    return test_run_all();
}
