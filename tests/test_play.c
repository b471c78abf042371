/* picket-play as a person meets it (docs/play.md):
 *  1. Through a real terminal: tmux runs picket-play, the test sends keys and reads the screen
 *     with capture-pane, and plays a whole set to its end: a hint, a move typed by name, an
 *     undo, bad keys and a bad card that never end the program, and a save whose record then
 *     replays with `picket replay`.
 *  2. The line mode plays whole sets from a script, resumes a saved set with --record, and
 *     shrugs off bad lines.
 *  3. Bad options get one line and exit 2.
 * Binaries come from $PICKET_PLAY and $PICKET_BIN (set by ctest); tmux is Debian's package
 * (tools/setup.sh installs it). */
#define _XOPEN_SOURCE 700
#include <CUnit/CUnit.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test_util.h"

/* A program's absolute path (the tests change folder before they start it). */
static const char *bin(const char *env, const char *fallback)
{
    static char buf[2][4096];
    static int next;
    const char *v = getenv(env);
    char *b = buf[next++ % 2];
    return realpath(v ? v : fallback, b) ? b : (v ? v : fallback);
}

#define PLAY bin("PICKET_PLAY", "build/tools/picket-play")
#define PICKET bin("PICKET_BIN", "build/tools/picket")

static char tmpdir[64];

static void make_tmpdir(void) { test_tmpdir_make(tmpdir, sizeof tmpdir, "picket-play"); }
static void remove_tmpdir(void) { test_tmpdir_remove(tmpdir); }
static const char *tp(const char *name) { return test_path(tmpdir, name); }
#define slurp test_slurp

static int run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int run(const char *fmt, ...)
{
    char cmd[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    int rc = system(cmd);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

static void sleep_ms(long ms)
{
    struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };
    nanosleep(&t, NULL);
}

/* `picket replay FILE` verifies it: 1 if it replays and the set is over. */
static int replays_to_the_end(const char *path)
{
    int rc = run("%s replay %s > %s 2>&1", PICKET, path, tp("replay.txt"));
    char *out = slurp(tp("replay.txt"));
    int ok = rc == 0 && out && strstr(out, "game over");
    if (!ok)
        fprintf(stderr, "\n  replay of %s: rc %d: %s", path, rc, out ? out : "(none)");
    free(out);
    return ok;
}

/* ---------------------------------------------------------------- the line mode */

/* A script: a hint, a bad line, a bad card, the hint played, an undo, then hints played to the
 * end, a save. */
static void write_script(const char *path, int plays, int save_and_leave)
{
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs("?\nbananas\nZZ\n!\nu\n\n", f);
    for (int i = 0; i < plays; i++)
        fputs("!\n", f);
    if (save_and_leave)
        fputs("s\nx\n", f);
    fclose(f);
}

static void test_line_mode_plays_a_whole_set_from_a_script(void)
{
    make_tmpdir();
    write_script(tp("script.txt"), 400, 1);
    CU_ASSERT_EQUAL(run("cd %s && %s --seed 11 --engine-seed 4 --level 2 --hint-level 2 --save game.txt < script.txt > out.txt 2> err.txt", tmpdir, PLAY), 0);
    char *out = slurp(tp("out.txt"));
    CU_ASSERT(out && strstr(out, "your hand"));
    CU_ASSERT(out && strstr(out, "hint: "));                                   /* ? */
    CU_ASSERT(out && strstr(out, "'bananas': unknown"));                       /* a bad line */
    CU_ASSERT(out && strstr(out, "'ZZ':"));                                    /* a bad card */
    CU_ASSERT(out && strstr(out, "took back your last decision"));            /* u */
    CU_ASSERT(out && strstr(out, "the set is over: you "));                    /* to the end */
    CU_ASSERT(out && strstr(out, "saved to game.txt"));                        /* s */
    CU_ASSERT(out && !strstr(out, "engine: dealt"));                           /* its cards are its own */
    free(out);
    /* Without --seed, the seed (which determines every deal) is not shown before the end. */
    CU_ASSERT_EQUAL(run("cd %s && printf '!\\nx\\n' | %s --level 2 --hint-level 2 > out3.txt 2>&1", tmpdir, PLAY), 0);
    out = slurp(tp("out3.txt"));
    CU_ASSERT(out && strstr(out, "your hand") && !strstr(out, "seed "));
    free(out);
    CU_ASSERT(replays_to_the_end(tp("game.txt")));
    /* The same seed and script give the same set. */
    CU_ASSERT_EQUAL(run("cd %s && %s --seed 11 --engine-seed 4 --level 2 --hint-level 2 --save game2.txt < script.txt > out2.txt 2>&1", tmpdir, PLAY), 0);
    char *a = slurp(tp("game.txt")), *b = slurp(tp("game2.txt"));
    CU_ASSERT(a && b && !strcmp(a, b));
    free(a), free(b);
    remove_tmpdir();
}

/* Issue 29: x with moves unsaved asks first; a second x leaves, any other line cancels. */
static void test_line_mode_x_asks_before_leaving_unsaved(void)
{
    make_tmpdir();
    CU_ASSERT_EQUAL(run("cd %s && printf '!\\nx\\nu\\n!\\nx\\nx\\n! never read\\n' | %s --seed 3 --level 1 --hint-level 1 > out.txt 2>&1", tmpdir, PLAY), 0);
    char *out = slurp(tp("out.txt"));
    int asked = 0;
    for (const char *c = out; c && (c = strstr(c, "not saved: x again leaves")); c++)
        asked++;
    CU_ASSERT_EQUAL(asked, 2); /* the first x asked; u cancelled; after a move x asked again; x left */
    CU_ASSERT(out && !strstr(out, "never read"));
    free(out);
}

/* Issue 29: the table talk names seats in words, sums up each hand, keeps the whole set (a
 * take-back rebuilds it rather than clearing it; `talk N` scrolls back), and hints show whole
 * moves with what their values mean. */
static void test_line_mode_talk_in_words_with_summaries_and_scroll_back(void)
{
    make_tmpdir();
    FILE *f = fopen(tp("script.txt"), "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs("?\n!\n!\nu\ntalk 500\ntalk 0\n", f);
    for (int i = 0; i < 400; i++)
        fputs("!\n", f);
    fputs("x\nx\n", f);
    fclose(f);
    CU_ASSERT_EQUAL(run("cd %s && %s --seed 11 --engine-seed 4 --level 2 --hint-level 2 < script.txt > out.txt 2>&1", tmpdir, PLAY), 0);
    char *out = slurp(tp("out.txt"));
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    CU_ASSERT(strstr(out, "| cut: you ") && strstr(out, "deal first"));  /* the cut, in words */
    CU_ASSERT(strstr(out, "| hand 1: ") && strstr(out, ", so you are ")); /* who deals, who is elder */
    CU_ASSERT(strstr(out, " won by you") || strstr(out, " won by the engine"));
    CU_ASSERT(!strstr(out, "won-by") && !strstr(out, " dealer ") && !strstr(out, "winner"));
    CU_ASSERT(strstr(out, "| hand 1 over: you +") && strstr(out, "this hand; set: you "));
    CU_ASSERT(strstr(out, "| set over: ") != NULL);
    /* The hint's moves whole, under a line that says what the values are. */
    CU_ASSERT(strstr(out, "hints, best first: the heuristic's score") != NULL);
    CU_ASSERT(strstr(out, "  hint discard ") != NULL);
    /* After the take-back, `talk 500` still holds the set from the cut. */
    const char *back = strstr(out, "took back your last decision");
    const char *talk = back ? strstr(back, "table talk, the last ") : NULL;
    CU_ASSERT(talk && strstr(talk, "| cut: you ") && strstr(talk, "| you: dealt "));
    CU_ASSERT(strstr(out, "talk N: N a number of lines from 1 to") != NULL);
    free(out);
    remove_tmpdir();
}

/* Issue 29: the default save name tells the time, never the seed (docs/play.md: the seed names
 * every card, and the table hides it unless it was chosen). */
static void test_line_mode_default_save_name_hides_the_seed(void)
{
    make_tmpdir();
    write_script(tp("part.txt"), 4, 1);
    CU_ASSERT_EQUAL(run("cd %s && %s --level 1 --hint-level 1 < part.txt > out.txt 2>&1", tmpdir, PLAY), 0);
    char *out = slurp(tp("out.txt"));
    const char *saved = out ? strstr(out, "saved to picket-play-") : NULL;
    CU_ASSERT_PTR_NOT_NULL(saved);
    CU_ASSERT(saved && strlen(saved) > 36 && !strncmp(saved + 36, ".txt", 4)); /* picket-play-YYYYMMDD-HHMMSS */
    free(out);
}

static void test_line_mode_resumes_a_saved_set(void)
{
    make_tmpdir();
    write_script(tp("part.txt"), 12, 1);
    CU_ASSERT_EQUAL(run("cd %s && %s --seed 5 --level 2 --hint-level 2 --save part-game.txt < part.txt > out.txt 2>&1", tmpdir, PLAY), 0);
    char *rec = slurp(tp("part-game.txt"));
    CU_ASSERT(rec && strstr(rec, "picket-record 1") && !strstr(rec, "result "));
    free(rec);
    write_script(tp("rest.txt"), 400, 1);
    CU_ASSERT_EQUAL(run("cd %s && %s --record part-game.txt --level 2 --hint-level 2 --save whole.txt < rest.txt > out2.txt 2>&1", tmpdir,
                        PLAY),
                    0);
    char *out = slurp(tp("out2.txt"));
    CU_ASSERT(out && strstr(out, "resumed part-game.txt: ") && strstr(out, "seed 5,") && strstr(out, "the set is over"));
    free(out);
    /* Issue 29: the level is saved, and a resume without --level plays on at it, not at 5. */
    CU_ASSERT_EQUAL(run("cd %s && %s --record part-game.txt --hint-level 2 --save again.txt < rest.txt > out4.txt 2>&1", tmpdir, PLAY), 0);
    char *again = slurp(tp("again.txt"));
    CU_ASSERT(again && strstr(again, ", level 2\n"));
    free(again);
    /* The seat played there is the seat resumed; another is refused. */
    CU_ASSERT_EQUAL(run("cd %s && %s --seat 1 --seed 6 --level 2 --hint-level 2 --save seat1.txt < part.txt > out3.txt 2>&1", tmpdir, PLAY), 0);
    CU_ASSERT_EQUAL(run("cd %s && %s --record seat1.txt --seat 0 < /dev/null > out4.txt 2> err4.txt", tmpdir, PLAY), 2);
    char *err = slurp(tp("err4.txt"));
    CU_ASSERT(err && strstr(err, "you played seat 1 there, not --seat 0"));
    free(err);
    CU_ASSERT_EQUAL(run("cd %s && printf 'x\\n' | %s --record seat1.txt --level 2 > out5.txt 2>&1", tmpdir, PLAY), 0);
    rec = slurp(tp("seat1.txt"));
    char *five = slurp(tp("out5.txt"));
    CU_ASSERT(rec && strstr(rec, "# picket-play: seat 1 you"));
    /* the same hand shown as when it was saved: the player's cards, not the engine's */
    const char *hand3 = NULL, *hand5 = NULL;
    char *three = slurp(tp("out3.txt"));
    for (const char *q = three; q && (q = strstr(q, "your hand  ")); q++)
        hand3 = q;
    hand5 = five ? strstr(five, "your hand  ") : NULL;
    CU_ASSERT(hand3 && hand5 && !strncmp(hand3, hand5, strcspn(hand3, "\n")));
    free(rec), free(five), free(three);
    CU_ASSERT(replays_to_the_end(tp("whole.txt")));
    remove_tmpdir();
}

static void test_bad_options_are_one_line_errors(void)
{
    static const struct {
        const char *args, *want;
    } cases[] = {
        { "--level 9", "--level: '9' is not a level from 1 to 5" },
        { "--level 0", "--level: '0' is not a level from 1 to 5" },
        { "--hint-level x", "--hint-level: 'x' is not a level" },
        { "--seat 2", "--seat: '2' is not 0 or 1" },
        { "--seed -1", "--seed: '-1' is not a number" },
        { "--preset chess", "chess" },
        { "--flag nosuch=1", "nosuch" },
        { "--record /nonexistent/x.txt", "--record: cannot read /nonexistent/x.txt: No such file or directory" },
        { "--record /dev/zero", "--record: cannot read /dev/zero: not a regular file" },
        { "--engine /nonexistent/engine", "cannot start" },
        { "--bogus", "unknown option '--bogus'" },
    };
    make_tmpdir();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int rc = run("%s --plain %s < /dev/null > %s 2> %s", PLAY, cases[i].args, tp("out.txt"), tp("err.txt"));
        char *err = slurp(tp("err.txt"));
        int lines = 0;
        for (const char *q = err; q && *q; q++)
            lines += *q == '\n';
        CU_ASSERT_EQUAL(rc, 2);
        int ok = err && lines == 1 && !strncmp(err, "picket-play: ", 13) && strstr(err, cases[i].want);
        if (!ok)
            fprintf(stderr, "\n  %s: rc %d, %s", cases[i].args, rc, err ? err : "(none)");
        CU_ASSERT(ok);
        free(err);
    }
    CU_ASSERT_EQUAL(run("%s --help | grep -q 'usage: picket-play'", PLAY), 0);
    CU_ASSERT_EQUAL(run("%s -version | grep -q '^picket-play '", PLAY), 0);
    remove_tmpdir();
}

/* ---------------------------------------------------------------- a real terminal */

static char sock[96];

static char *screen(void)
{
    run("tmux -L %s capture-pane -t play -p > %s 2>/dev/null", sock, tp("screen.txt"));
    return slurp(tp("screen.txt"));
}

/* The move counter on the screen's help line ("move N"), or -1. */
static int move_no(const char *s)
{
    const char *m = s ? strstr(s, "\nmove ") : NULL;
    return m ? atoi(m + 6) : -1;
}

static int keys(const char *k) { return run("tmux -L %s send-keys -t play %s", sock, k); }

/* Wait until the screen holds want and its move counter reads n: a capture can catch the screen
 * half redrawn (a new message above the old counter), so both are waited for together. */
static char *wait_screen_at(const char *want, int n)
{
    for (int i = 0; i < 600; i++) {
        char *s = screen();
        if (s && strstr(s, want) && move_no(s) == n)
            return s;
        free(s);
        sleep_ms(50);
    }
    return screen();
}

/* Wait until the screen holds want (or the move counter passes `after`, if want is NULL). */
static char *wait_screen(const char *want, int after)
{
    for (int i = 0; i < 600; i++) {
        char *s = screen();
        if (s && ((want && strstr(s, want)) || (!want && move_no(s) > after)))
            return s;
        free(s);
        sleep_ms(50);
    }
    return screen();
}

static void test_terminal_plays_a_whole_set_with_hint_undo_and_save(void)
{
    if (run("tmux -V > /dev/null 2>&1") != 0) {
        CU_FAIL("tmux is not installed: install Debian's tmux (tools/setup.sh does)");
        return;
    }
    make_tmpdir();
    snprintf(sock, sizeof sock, "picket-test-%ld", (long)getpid());
    CU_ASSERT_EQUAL_FATAL(run("cd %s && tmux -L %s new-session -d -s play -x 120 -y 36 '%s --seed 3 --level 2 --hint-level 2 "
                              "--save game.txt; echo picket-play exited $?; sleep 60'",
                              tmpdir, sock, PLAY),
                          0);
    char *s = wait_screen("your hand", 0);
    CU_ASSERT(s && strstr(s, "Picket (cotgrave), seed 3"));
    CU_ASSERT(s && (strstr(s, "\xe2\x99\xa0") || strstr(s, "\xe2\x99\xa5"))); /* suit symbols */
    free(s);
    /* A bad key and a bad typed card: a message, never the end. */
    keys("F5");
    s = wait_screen("that key does nothing", 0);
    CU_ASSERT(s && strstr(s, "that key does nothing"));
    free(s);
    keys("Z Z Enter");
    s = wait_screen("'ZZ':", 0);
    CU_ASSERT(s && strstr(s, "'ZZ':"));
    free(s);
    /* The exchange with the arrows, space and enter: one card marked and discarded. */
    s = screen();
    int start = move_no(s);
    CU_ASSERT(s && strstr(s, "your exchange"));
    free(s);
    keys("Right");
    keys("Space");
    s = wait_screen("marked: ", 0);
    CU_ASSERT(s && strstr(s, "marked: "));
    free(s);
    keys("Enter");
    s = wait_screen(NULL, start);
    CU_ASSERT(move_no(s) > start);
    free(s);
    /* A hint. */
    keys("'?'");
    s = wait_screen("valued, best first", 0);
    CU_ASSERT(s && strstr(s, "hint ") && strstr(s, "valued, best first"));
    int before = move_no(s);
    free(s);
    /* Play the hint, then take it back. */
    keys("'!'");
    s = wait_screen(NULL, before);
    int after = move_no(s);
    CU_ASSERT(after > before);
    free(s);
    keys("u");
    s = wait_screen_at("took back", before);
    CU_ASSERT(s && strstr(s, "took back your last decision"));
    CU_ASSERT_EQUAL(move_no(s), before);
    free(s);
    /* A card typed by name: the hint's best card, when the play has come. */
    int typed = 0;
    for (int i = 0; i < 40 && !typed; i++) {
        keys("'?'");
        s = wait_screen("valued, best first", 0);
        const char *h = s ? strstr(s, "hint play ") : NULL;
        int n = move_no(s);
        if (h) {
            char cmd[32];
            snprintf(cmd, sizeof cmd, "%.2s Enter", h + 10);
            keys(cmd);
            free(s);
            s = wait_screen(NULL, n);
            typed = move_no(s) > n;
        } else if (s && !strstr(s, "the set is over")) {
            keys("'!'");
            free(s);
            s = wait_screen(NULL, n);
        }
        free(s);
    }
    CU_ASSERT(typed);
    /* To the end of the set, the hint's move each time. */
    int over = 0;
    for (int i = 0; i < 600 && !over; i++) {
        s = screen();
        int n = move_no(s);
        over = s && strstr(s, "the set is over");
        free(s);
        if (!over) {
            keys("'!'");
            free(wait_screen(NULL, n));
        }
    }
    CU_ASSERT(over);
    keys("s");
    s = wait_screen("saved to", 0);
    CU_ASSERT(s && strstr(s, "saved to game.txt"));
    free(s);
    keys("x");
    s = wait_screen("picket-play exited", 0);
    CU_ASSERT(s && strstr(s, "picket-play exited 0"));
    free(s);
    run("tmux -L %s kill-server > /dev/null 2>&1", sock);
    CU_ASSERT(replays_to_the_end(tp("game.txt")));
    remove_tmpdir();
}

/* Issue 29: an 80 x 24 terminal holds the whole table, the help line on one row, and PgUp scrolls
 * the talk back; a smaller one gets a notice instead of a table drawn over itself. */
static void test_terminal_80x24_fits_and_a_small_one_is_told(void)
{
    if (run("tmux -V > /dev/null 2>&1") != 0) {
        CU_FAIL("tmux is not installed: install Debian's tmux (tools/setup.sh does)");
        return;
    }
    make_tmpdir();
    snprintf(sock, sizeof sock, "picket-test-s%ld", (long)getpid());
    CU_ASSERT_EQUAL_FATAL(run("cd %s && tmux -L %s new-session -d -s play -x 80 -y 24 '%s --seed 3 --level 2 --hint-level 2; sleep 60'",
                              tmpdir, sock, PLAY),
                          0);
    char *s = wait_screen("your hand", 0);
    free(s);
    keys("'!'");
    free(wait_screen(NULL, 0));
    keys("PPage PPage PPage PPage PPage PPage"); /* to the top: the cut */
    s = wait_screen("table talk (lines 1-", 0);
    CU_ASSERT(s && strstr(s, "table talk (lines 1-") && strstr(s, "cut: you "));
    /* The help line is one row: the prompt follows it. */
    const char *help = s ? strstr(s, "\nmove ") : NULL;
    const char *eol = help ? strchr(help + 1, '\n') : NULL;
    CU_ASSERT(eol && eol[1] == '>');
    free(s);
    run("tmux -L %s resize-window -t play -x 60 -y 15", sock);
    s = wait_screen("needs a terminal of at least 80 x 24", 0);
    CU_ASSERT(s && strstr(s, "this one is 60 x 15"));
    free(s);
    run("tmux -L %s kill-server > /dev/null 2>&1", sock);
    remove_tmpdir();
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("play", NULL, NULL);
    CU_add_test(s, "line mode plays a whole set from a script", test_line_mode_plays_a_whole_set_from_a_script);
    CU_add_test(s, "line mode: x asks before leaving moves unsaved", test_line_mode_x_asks_before_leaving_unsaved);
    CU_add_test(s, "line mode: table talk in words, hand summaries, scroll-back", test_line_mode_talk_in_words_with_summaries_and_scroll_back);
    CU_add_test(s, "line mode: the default save name hides the seed", test_line_mode_default_save_name_hides_the_seed);
    CU_add_test(s, "line mode resumes a saved set", test_line_mode_resumes_a_saved_set);
    CU_add_test(s, "bad options are one-line errors", test_bad_options_are_one_line_errors);
    CU_add_test(s, "a real terminal plays a whole set with a hint, an undo and a save",
                test_terminal_plays_a_whole_set_with_hint_undo_and_save);
    CU_add_test(s, "a real terminal: 80 x 24 fits, a smaller one is told", test_terminal_80x24_fits_and_a_small_one_is_told);
    return test_run_all();
}
