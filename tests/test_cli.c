/* The `picket` command line as a user meets it: --help everywhere, exact JSON from `score`,
 * one-line errors with a non-zero exit for bad input, and the same seed giving the same output.
 * The binary comes from $PICKET_BIN (set by ctest). */
#include <CUnit/CUnit.h>
#include <cjson/cJSON.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_util.h"

static char out_buf[65536], err_buf[65536];

static void slurp(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(buf, 1, cap - 1, f) : 0;
    buf[n] = '\0';
    if (f)
        fclose(f);
}

/* Run `picket ARGS`; stdout and stderr land in out_buf and err_buf. Returns the exit status. */
static int run(const char *args)
{
    const char *bin = getenv("PICKET_BIN");
    if (!bin)
        bin = "build/tools/picket";
    char out[] = "/tmp/picket-cli-outXXXXXX", err[] = "/tmp/picket-cli-errXXXXXX";
    int fo = mkstemp(out), fe = mkstemp(err);
    CU_ASSERT_FATAL(fo >= 0 && fe >= 0);
    close(fo);
    close(fe);
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "%s %s >%s 2>%s </dev/null", bin, args, out, err);
    int status = system(cmd);
    slurp(out, out_buf, sizeof out_buf);
    slurp(err, err_buf, sizeof err_buf);
    unlink(out);
    unlink(err);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

static int count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

/* A bad input: non-zero exit, nothing on stdout, exactly one line on stderr naming the problem. */
static void expect_error(const char *args, const char *want)
{
    int rc = run(args);
    CU_ASSERT_NOT_EQUAL(rc, 0);
    CU_ASSERT(rc < 128);
    CU_ASSERT_EQUAL(count_lines(err_buf), 1);
    CU_ASSERT_STRING_EQUAL(out_buf, "");
    if (!strstr(err_buf, want))
        fprintf(stderr, "\n    expected '%s' in '%s'\n", want, err_buf);
    CU_ASSERT_PTR_NOT_NULL(strstr(err_buf, want));
}

static void test_every_command_has_help(void)
{
    static const char *const cmds[] = { "--help", "rules --help", "score --help", "selfplay --help", "replay --help",
                                        "solve --help", "worlds --help" };
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        CU_ASSERT_EQUAL(run(cmds[i]), 0);
        CU_ASSERT_PTR_NOT_NULL(strstr(out_buf, "usage: picket"));
    }
}

static void test_rules_lists_presets_flags_and_sources(void)
{
    CU_ASSERT_EQUAL(run("rules"), 0);
    static const char *const words[] = { "cotgrave", "cotton", "ducoeur-letter", "ducoeur-report", "younger_draw",
                                         "leftover", "blank_order", "both_blank", "ties", "sequences",
                                         "play_points", "last_trick", "pique", "target", "deck",
                                         "CG: \"The Set is usually a hundred\"", "DR: \"we chose to play to 121\"" };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        CU_ASSERT_PTR_NOT_NULL(strstr(out_buf, words[i]));
}

/* DL: "Ace, Queen, Ten, Nine, Eight of Hertes ... a Ruff of Forty and Eight"; 48 scores 5. */
static void test_score_json_is_exact(void)
{
    CU_ASSERT_EQUAL(run("score --json AH QH 10H 9H 8H AC AD AS KS QS JS 6C"), 0);
    CU_ASSERT_STRING_EQUAL(out_buf,
        "{\"blank\":false,\"ruff\":{\"value\":48,\"suit\":\"H\",\"points\":5},"
        "\"best_sequence\":{\"length\":4,\"top\":\"A\"},"
        "\"sequences\":[{\"cards\":[\"JS\",\"QS\",\"KS\",\"AS\"],\"points\":4},"
        "{\"cards\":[\"8H\",\"9H\",\"TH\"],\"points\":3}],\"sequence_points\":7,"
        "\"sets\":[{\"rank\":\"A\",\"count\":4,\"points\":14}],\"set_points\":14}\n");
}

static void test_score_json_blank_hand_has_null_sequence(void)
{
    CU_ASSERT_EQUAL(run("score --json AH 9H 7H AC 9C 7C AD 9D 7D 6S 8S TS"), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out_buf, "{\"blank\":true,"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out_buf, "\"best_sequence\":null,\"sequences\":[]"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out_buf, "\"sets\":[{\"rank\":\"A\",\"count\":3,\"points\":3}]"));
}

/* DR reading: sequences need not be in one suit. */
static void test_score_unsuited_with_preset(void)
{
    CU_ASSERT_EQUAL(run("score --preset ducoeur-report --json 6C 7D 8H 8S 9C 9D TH TS JC QD AS AH"), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out_buf, "\"best_sequence\":{\"length\":7,\"top\":\"Q\"}"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out_buf, "\"sequence_points\":20"));
}

static void test_score_text_output(void)
{
    CU_ASSERT_EQUAL(run("score AH QH TH 9H 8H AC AD AS KS QS JS 6C"), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out_buf, "ruff       48 in H"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out_buf, "quatorze of A: 14"));
}

static void test_score_refuses_unknown_card(void) { expect_error("score AH QH TH 9H 8H AC AD AS KS QS JS ZZ", "unknown card 'ZZ'"); }
static void test_score_refuses_duplicate_card(void) { expect_error("score AH QH TH 9H 8H AC AD AS KS QS JS AH", "duplicate card 'AH'"); }
static void test_score_refuses_card_outside_the_pack(void) { expect_error("score AH QH TH 9H 8H AC AD AS KS QS JS 5C", "card '5C' is not in this pack"); }
static void test_score_refuses_six_in_the_32_card_pack(void)
{
    expect_error("score --flag deck=32 AH QH TH 9H 8H AC AD AS KS QS JS 6C", "card '6C' is not in this pack");
}
static void test_score_refuses_wrong_count(void) { expect_error("score AH QH TH 9H 8H AC AD AS KS QS JS", "a hand has 12 cards, not 11"); }
static void test_unknown_preset_is_refused(void) { expect_error("score --preset hoyle AH", "unknown preset 'hoyle'"); }
static void test_unknown_flag_is_refused(void) { expect_error("selfplay --flag trumps=on --sets 1", "unknown flag 'trumps'"); }
static void test_bad_flag_value_is_refused(void) { expect_error("selfplay --flag ties=maybe --sets 1", "flag ties: unknown value 'maybe'"); }
static void test_unknown_command_is_refused(void) { expect_error("deal", "unknown command 'deal'"); }
static void test_bad_sets_is_refused(void) { expect_error("selfplay --sets many", "--sets must be a whole number from 1 to 100000000, not 'many'"); }

/* Issue 10: a number on the command line is read whole or refused, never wrapped: strtol would
 * read 4294967301 as 5 once cast to int, and strtoull would read -1 as 2^64 - 1. Each bad value
 * is refused with the option and its range. */
static const char *const BAD_NUMBERS[] = { "4294967301", "18446744073709551617", "-1", "1e3", "nan", "inf", "''", "+1",
                                           "' 1'", "0x1", "1.0" };

static void expect_numbers_refused(const char *fmt, const char *want, size_t from)
{
    for (size_t i = from; i < sizeof BAD_NUMBERS / sizeof BAD_NUMBERS[0]; i++) {
        char args[512];
        snprintf(args, sizeof args, fmt, BAD_NUMBERS[i]);
        expect_error(args, want);
    }
}

static void test_solve_tricks_do_not_wrap(void)
{
    expect_numbers_refused("solve --hand0 \"AH KH 6S\" --hand1 \"QH JH 7S\" --tricks %s 4",
                           "solve: --tricks must be a whole number from 0 to 12, not '", 0);
    expect_numbers_refused("solve --hand0 \"AH KH 6S\" --hand1 \"QH JH 7S\" --tricks 5 %s",
                           "solve: --tricks must be a whole number from 0 to 12, not '", 0);
}
static void test_solve_to_move_and_table_size_do_not_wrap(void)
{
    expect_numbers_refused("solve --hand0 \"AH\" --hand1 \"QH\" --tricks 11 0 --to-move %s",
                           "solve: --to-move must be a whole number from 0 to 1, not '", 0);
    expect_numbers_refused("solve --hand0 \"AH\" --hand1 \"QH\" --tricks 11 0 --tt-mb %s",
                           "solve: --tt-mb must be a whole number from 1 to 65536, not '", 0);
    /* 2^32 + 1 MB would be 1 MB after a cast to int. */
    expect_error("solve --hand0 \"AH\" --hand1 \"QH\" --tricks 11 0 --tt-mb 4294967297", "not '4294967297'");
}
static void test_selfplay_sets_and_seed_do_not_wrap(void)
{
    expect_numbers_refused("selfplay --sets %s", "selfplay: --sets must be a whole number from 1 to 100000000, not '", 0);
    /* 4294967301 is a seed like any other: the list from its second entry. */
    expect_numbers_refused("selfplay --sets 1 --seed %s",
                           "selfplay: --seed must be a whole number from 0 to 18446744073709551615, not '", 1);
}
static void test_selfplay_takes_the_largest_seed(void)
{
    CU_ASSERT_EQUAL(run("selfplay --sets 1 --seed 18446744073709551615"), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out_buf, "seed 18446744073709551615"));
}
static void test_replay_of_missing_file_is_refused(void) { expect_error("replay /nonexistent/record.txt", "cannot open '/nonexistent/record.txt'"); }

static void test_replay_reports_the_known_record(void)
{
    CU_ASSERT_EQUAL(run("replay tests/records/cotgrave-seed-7.txt"), 0);
    CU_ASSERT_STRING_EQUAL(out_buf, "ok: picket, 150 moves, scores 69-100, game over\n");
}

/* Write text to a fresh temporary file; its path in path (a "/tmp/...XXXXXX" template). */
static void write_temp(char *path, const char *text, size_t len)
{
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    CU_ASSERT(write(fd, text, len) == (ssize_t)len);
    close(fd);
}

static char *read_all(const char *path)
{
    static char buf[65536];
    slurp(path, buf, sizeof buf);
    char *copy = strdup(buf);
    CU_ASSERT_PTR_NOT_NULL_FATAL(copy);
    return copy;
}

/* Issue 10: `picket replay /dev/zero` never returned (one endless line of NULs). A record must be a
 * regular file (or - for standard input); in one, a NUL byte or a line over 4095 bytes stops the
 * reading at once (docs/records.md). */
static void test_replay_of_dev_zero_ends_at_once(void)
{
    expect_error("replay /dev/zero", "replay: '/dev/zero' is not a regular file (give - to read standard input)");
    char path[] = "/tmp/picket-cli-nulXXXXXX", args[256];
    write_temp(path, "picket-record 1\0\0\0\n", 19);
    snprintf(args, sizeof args, "replay %s", path);
    expect_error(args, "line 1: holds a NUL byte");
    unlink(path);
}

/* Issue 29: a record cut inside its last line (a write cut short) is torn, not a shorter move:
 * "move 0 discard AC TD QD 7H JS AS" cut to "move 0 discard AC " once replayed as a 1-card
 * discard. Only a complete last line counts. */
static void test_replay_refuses_a_torn_last_line(void)
{
    char *full = read_all("tests/records/cotgrave-seed-7.txt");
    char *cut = strstr(full, "move 1 call S\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(cut);
    cut[strlen("move 1 call")] = '\0'; /* "move 1 call" and no newline */
    char path[] = "/tmp/picket-cli-tornXXXXXX", args[256];
    write_temp(path, full, strlen(full));
    snprintf(args, sizeof args, "replay %s", path);
    expect_error(args, "torn: the file ends inside it (no newline; a write cut short?)");
    snprintf(args, sizeof args, "worlds %s", path);
    expect_error(args, "torn: the file ends inside it");
    unlink(path);
    free(full);
}

static void test_replay_of_a_huge_line_ends_at_once(void)
{
    /* 64 MB without a newline: refused after its first 4 KB, not read to its end. */
    char path[] = "/tmp/picket-cli-hugeXXXXXX";
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    CU_ASSERT_EQUAL(ftruncate(fd, 64 << 20), 0);
    char x[4096];
    memset(x, 'x', sizeof x);
    CU_ASSERT(write(fd, x, sizeof x) == (ssize_t)sizeof x);
    close(fd);
    char args[256];
    snprintf(args, sizeof args, "replay %s", path);
    expect_error(args, "line 1: longer than 4095 bytes");
    unlink(path);
}

static void test_replay_refuses_a_folder(void) { expect_error("replay /tmp", "replay: '/tmp' is a folder, not a record"); }

/* A file of many records (the arena's -records FILE.txt, docs/records.md): the two known records
 * one after the other, with the arena's comments, each replayed and verified. */
static char *two_records(const char *second_from, const char *second_to)
{
    char *a = read_all("tests/records/cotgrave-seed-7.txt"), *b = read_all("tests/records/ducoeur-report-deck32-seed-11.txt");
    size_t n = strlen(a) + strlen(b) + 256;
    char *t = malloc(n);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    char *at = second_from ? strstr(b, second_from) : NULL;
    if (at)
        snprintf(t, n, "%s\n# set pairing 0 round 1 leg 1\n%.*s%s%s", a, (int)(at - b), b, second_to, at + strlen(second_from));
    else
        snprintf(t, n, "%s\n# set pairing 0 round 1 leg 1\n%s", a, b);
    free(a);
    free(b);
    return t;
}

/* The line of the first `want` after `after` in text, from 1. */
static int line_of(const char *text, const char *after, const char *want)
{
    const char *from = strstr(text, after);
    const char *at = from ? strstr(from, want) : NULL;
    int n = 1;
    for (const char *p = text; at && p < at; p++)
        n += *p == '\n';
    return at ? n : -1;
}

static void test_replay_reads_a_file_of_many_records(void)
{
    char *t = two_records(NULL, NULL);
    char path[] = "/tmp/picket-cli-manyXXXXXX", args[256], want[512];
    write_temp(path, t, strlen(t));
    snprintf(args, sizeof args, "replay %s", path);
    CU_ASSERT_EQUAL(run(args), 0);
    snprintf(want, sizeof want,
             "record 1 (line 1): ok, 150 moves, 69-100 winner 1\n"
             "record 2 (line %d): ok, 29 moves, 124-6 winner 0\n"
             "2 records: 2 ok, 0 failed\n",
             line_of(t, "# set pairing", "picket-record 1"));
    CU_ASSERT_STRING_EQUAL(out_buf, want);
    CU_ASSERT_STRING_EQUAL(err_buf, "");
    unlink(path);
    free(t);
}

static void test_replay_of_many_names_the_failing_record_and_its_file_line(void)
{
    /* The second record's first play by the wrong seat. */
    char *t = two_records("move 1 play QC", "move 0 play QC");
    char path[] = "/tmp/picket-cli-manyXXXXXX", args[256], want[256];
    write_temp(path, t, strlen(t));
    snprintf(args, sizeof args, "replay %s", path);
    CU_ASSERT_EQUAL(run(args), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(out_buf, "record 1 (line 1): ok, 150 moves, 69-100 winner 1\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out_buf, "2 records: 1 ok, 1 failed\n"));
    snprintf(want, sizeof want, "record 2, line %d: seat 0 is not to move (seat 1 is)\n", line_of(t, "# set pairing", "move 0 play QC"));
    if (!strstr(err_buf, want))
        fprintf(stderr, "\n    expected '%s' in '%s'\n", want, err_buf);
    CU_ASSERT_PTR_NOT_NULL(strstr(err_buf, want));
    CU_ASSERT_EQUAL(count_lines(err_buf), 1);
    unlink(path);
    free(t);
}

/* A forfeited set's record (what the arena writes when a seat faults): the moves up to the fault,
 * the forfeit comment, and a result line of the scores so far with no winner. */
static void test_replay_shows_a_forfeit(void)
{
    char *full = read_all("tests/records/cotgrave-seed-7.txt");
    char *cut = strstr(full, "move 1 call S\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(cut);
    *cut = '\0';
    char text[8192];
    snprintf(text, sizeof text, "%s# forfeit: seat 0 loses by timeout: no reply in 1500 ms\nresult 0 0\n", full);
    char path[] = "/tmp/picket-cli-forfXXXXXX", args[256];
    write_temp(path, text, strlen(text));
    snprintf(args, sizeof args, "replay %s", path);
    CU_ASSERT_EQUAL(run(args), 0);
    CU_ASSERT_STRING_EQUAL(out_buf, "ok: picket, 2 moves, scores 0-0, game unfinished, forfeit: seat 0 loses by timeout: "
                                    "no reply in 1500 ms\n");
    unlink(path);
    free(full);
}

/* Issue 10: -version on both programs, one line, exit 0. */
static void test_version_is_one_line(void)
{
    static const char *const flags[] = { "--version", "-version" };
    char want[64];
    snprintf(want, sizeof want, "picket %s\n", PICKET_VERSION);
    for (int i = 0; i < 2; i++) {
        CU_ASSERT_EQUAL(run(flags[i]), 0);
        CU_ASSERT_STRING_EQUAL(out_buf, want);
    }
    CU_ASSERT_EQUAL(run("--help"), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out_buf, "--version"));
}

static void test_engine_version_is_one_line(void)
{
    /* The engine is built next to picket ($PICKET_BIN). */
    const char *bin = getenv("PICKET_BIN"), *slash = bin ? strrchr(bin, '/') : NULL;
    char engine[1024] = "build/tools/picket-engine";
    if (getenv("PICKET_ENGINE"))
        snprintf(engine, sizeof engine, "%s", getenv("PICKET_ENGINE"));
    else if (slash)
        snprintf(engine, sizeof engine, "%.*s/picket-engine", (int)(slash - bin), bin);
    char cmd[2200], path[] = "/tmp/picket-cli-verXXXXXX", want[64];
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    close(fd);
    snprintf(want, sizeof want, "picket-engine %s\n", PICKET_VERSION);
    static const char *const flags[] = { "--version", "-version", "--help" };
    for (int i = 0; i < 3; i++) {
        snprintf(cmd, sizeof cmd, "%s %s >%s 2>&1 </dev/null", engine, flags[i], path);
        int status = system(cmd);
        CU_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        slurp(path, out_buf, sizeof out_buf);
        if (i < 2) {
            CU_ASSERT_STRING_EQUAL(out_buf, want);
        } else {
            CU_ASSERT_PTR_NOT_NULL(strstr(out_buf, "--version"));
        }
    }
    unlink(path);
}

static void test_replay_refuses_a_broken_record_with_its_line(void)
{
    char path[] = "/tmp/picket-cli-recXXXXXX";
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    const char *text = "picket-record 1\ngame picket\nseed 7\nmove 0 discard AS\n";
    CU_ASSERT(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
    close(fd);
    char args[256];
    snprintf(args, sizeof args, "replay %s", path);
    expect_error(args, "line 4: seat 0 is not to move (seat 1 is)");
    unlink(path);
}

/* Everything but the timing line must be identical for the same seed. */
static void strip_rate(char *s)
{
    char *p = strstr(s, "hands per second");
    if (p)
        *p = '\0';
}

static void test_selfplay_same_seed_same_output(void)
{
    static char first[65536];
    CU_ASSERT_EQUAL(run("selfplay --sets 20 --seed 5 --preset cotton"), 0);
    strip_rate(out_buf);
    snprintf(first, sizeof first, "%s", out_buf);
    CU_ASSERT_EQUAL(run("selfplay --sets 20 --seed 5 --preset cotton"), 0);
    strip_rate(out_buf);
    CU_ASSERT_STRING_EQUAL(first, out_buf);
    CU_ASSERT_PTR_NOT_NULL(strstr(first, "first dealer wins"));
}

/* The number after `label` at the start of a line of out_buf ("  repique   0.203"), or -1. */
static double stat_line(const char *label)
{
    char want[64];
    snprintf(want, sizeof want, "\n%s ", label);
    const char *p = strstr(out_buf, want);
    double v;
    return p && sscanf(p + strlen(want), "%lf", &v) == 1 ? v : -1;
}

/* DR: "Repique is if this happens before starting the tricks, and is worth 60" (every preset,
 * docs/rules.md). Random play makes a few in 50 sets of seed 5: the mean points a hand, times
 * the hands, is a whole number of Repiques, and not none. */
static void test_selfplay_scores_repiques_at_60(void)
{
    CU_ASSERT_EQUAL_FATAL(run("selfplay --sets 50 --seed 5 --preset cotton"), 0);
    double hands = stat_line("hands played"), mean = stat_line("  repique");
    CU_ASSERT_FATAL(hands > 0 && mean >= 0);
    /* The mean is printed to 3 decimals: the total is within hands * 0.0005 of a whole number. */
    long total = lround(mean * hands);
    if (total <= 0 || total % 60 != 0)
        fprintf(stderr, "\n    repique: %.3f a hand over %.0f hands = %ld points\n", mean, hands, total);
    CU_ASSERT(total > 0);
    CU_ASSERT_EQUAL(total % 60, 0);
}

static void test_selfplay_records_replay(void)
{
    char dir[] = "/tmp/picket-cli-dirXXXXXX";
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    char args[512];
    snprintf(args, sizeof args, "selfplay --sets 3 --seed 9 --preset ducoeur-letter --records %s", dir);
    CU_ASSERT_EQUAL(run(args), 0);
    for (int i = 0; i < 3; i++) {
        snprintf(args, sizeof args, "replay %s/set-%06d.txt", dir, i);
        CU_ASSERT_EQUAL(run(args), 0);
        CU_ASSERT_PTR_NOT_NULL(strstr(out_buf, "game over"));
        snprintf(args, sizeof args, "%s/set-%06d.txt", dir, i);
        unlink(args);
    }
    rmdir(dir);
}

/* Three tricks left: seat 0 holds AH KH 6S, seat 1 QH JH 7S (cotgrave: lead-or-win, plus-one),
 * 5 tricks to 4 so far. Best: AH led (+1), then 6S given up to the 7S; seat 1 must lead QH
 * (+1 for it) into the KH (+1 for winning with a King) and the last trick (+1): seat 0 takes 7
 * tricks to 5 and the 10 for cards: 13 - 1 = +12. Cashing AH, KH first ends with the 6S led
 * into the 7S: the last trick goes to seat 1, +11. Every first card can reach +12. */
static void test_solve_reports_each_moves_exact_value(void)
{
    CU_ASSERT_EQUAL(run("solve --hand0 \"AH KH 6S\" --hand1 \"QH JH 7S\" --tricks 5 4"), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out_buf, "  play AH  +12\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out_buf, "  play 6S  +12\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out_buf, "principal line: 0:"));
}

static void test_solve_refuses_inconsistent_positions(void)
{
    expect_error("solve --hand0 \"AH KH\" --hand1 \"QH\"", "both hands must hold the same number of cards");
    expect_error("solve --hand0 \"AH\" --hand1 \"AH\" --tricks 11 0", "a card is given twice");
    expect_error("solve --hand0 \"AH\" --hand1 \"QH\"", "must make 12 tricks");
    expect_error("solve --hand0 \"AH\"", "give both hands");
}

/* ---------------------------------------------------------------- worlds */

/* Two sets of random play, seed 3, written by `picket selfplay --records`; made once. */
static char worlds_dir[] = "/tmp/picket-cli-worldsXXXXXX";
static char worlds_rec[2][300];

static void remove_worlds_records(void)
{
    for (int i = 0; i < 2; i++)
        unlink(worlds_rec[i]);
    rmdir(worlds_dir);
}

static const char *worlds_record(int i)
{
    if (!worlds_rec[0][0]) {
        CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(worlds_dir));
        char args[512];
        snprintf(args, sizeof args, "selfplay --sets 2 --seed 3 --records %s", worlds_dir);
        CU_ASSERT_EQUAL_FATAL(run(args), 0);
        for (int k = 0; k < 2; k++)
            snprintf(worlds_rec[k], sizeof worlds_rec[k], "%s/set-%06d.txt", worlds_dir, k);
        atexit(remove_worlds_records);
    }
    return worlds_rec[i];
}

/* The record's move lines: seat and text of each ("play 9H"); returns the count. */
static int record_moves(const char *path, int seats[], char texts[][64], int cap)
{
    char *text = read_all(path), *save = NULL;
    int n = 0;
    for (char *line = strtok_r(text, "\n", &save); line && n < cap; line = strtok_r(NULL, "\n", &save)) {
        int seat, at;
        if (sscanf(line, "move %d %n", &seat, &at) == 1 && at > 0) {
            seats[n] = seat;
            snprintf(texts[n], 64, "%s", line + at);
            n++;
        }
    }
    free(text);
    return n;
}

/* The number written after "key": in out_buf, read as its decimal digits (not through a double). */
static uint64_t json_count(const char *key)
{
    char want[64];
    snprintf(want, sizeof want, "\"%s\":", key);
    const char *p = strstr(out_buf, want);
    if (!p)
        return UINT64_MAX;
    p += strlen(want);
    if (*p < '0' || *p > '9')
        return UINT64_MAX;
    char *end;
    unsigned long long v = strtoull(p, &end, 10);
    return *end == ',' || *end == '}' ? (uint64_t)v : UINT64_MAX;
}

/* The cards of a JSON array of strings; -1 if it is not one. */
static int json_cards(const cJSON *arr, cardset_t *out)
{
    *out = 0;
    if (!cJSON_IsArray(arr))
        return -1;
    const cJSON *c;
    int n = 0, prev = -1;
    cJSON_ArrayForEach(c, arr) {
        if (!cJSON_IsString(c))
            return -1;
        int card = card_parse(c->valuestring, strlen(c->valuestring));
        /* In the order picket writes a set: by suit, then rank, each card once. */
        if (card == CARD_NONE || card <= prev)
            return -1;
        prev = card;
        *out |= cardset_of(card);
        n++;
    }
    return n;
}

/* Exactly one JSON object in out_buf (and a newline): parsed, or NULL. */
static cJSON *one_json_object(void)
{
    const char *end = NULL;
    cJSON *o = cJSON_ParseWithOpts(out_buf, &end, 0);
    if (!o || !cJSON_IsObject(o) || !end || strcmp(end, "\n") != 0) {
        fprintf(stderr, "\n    not one JSON object: '%s'\n", out_buf);
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

/* Mid-play in the first hand: after the tenth card played. The sampled worlds hold, for the
 * opponent, every card he was seen to play, none the viewer played, his discards as many as he
 * made, none of them in his holding or the stock; the counts are whole numbers, worlds >=
 * holdings > 0. */
static void test_worlds_json_mid_play(void)
{
    const char *rec = worlds_record(0);
    static int seats[512];
    static char texts[512][64];
    int n = record_moves(rec, seats, texts, 512), after = -1, plays = 0;
    for (int i = 0; i < n && after < 0; i++)
        if (strncmp(texts[i], "play ", 5) == 0 && ++plays == 10)
            after = i + 1;
    CU_ASSERT_FATAL(after > 0);
    char args[512];
    snprintf(args, sizeof args, "worlds --json --after %d --sample 6 --seed 11 %s", after, rec);
    CU_ASSERT_EQUAL_FATAL(run(args), 0);
    CU_ASSERT_STRING_EQUAL(err_buf, "");
    cJSON *o = one_json_object();
    CU_ASSERT_PTR_NOT_NULL_FATAL(o);
    const cJSON *seat = cJSON_GetObjectItemCaseSensitive(o, "seat");
    const cJSON *aft = cJSON_GetObjectItemCaseSensitive(o, "after");
    const cJSON *samples = cJSON_GetObjectItemCaseSensitive(o, "samples");
    CU_ASSERT_FATAL(cJSON_IsNumber(seat) && cJSON_IsNumber(aft) && cJSON_IsArray(samples));
    CU_ASSERT(cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(o, "worlds")));
    CU_ASSERT(cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(o, "holdings")));
    CU_ASSERT_EQUAL(cJSON_GetArraySize(o), 5);
    CU_ASSERT_EQUAL(aft->valueint, after);
    /* The seat to move: the next move line's. */
    CU_ASSERT_EQUAL(seat->valueint, seats[after]);
    uint64_t worlds = json_count("worlds"), holdings = json_count("holdings");
    CU_ASSERT(worlds > 0 && worlds != UINT64_MAX);
    CU_ASSERT(holdings > 0 && holdings <= worlds);
    int me = seat->valueint, opp = 1 - me, opp_discards = -1;
    cardset_t opp_played = 0, my_played = 0;
    for (int i = 0; i < after; i++) {
        cardset_t c;
        char err[160];
        if (strncmp(texts[i], "play ", 5) == 0 &&
            cards_parse_list(texts[i] + 5, cards_pack(36), &c, err, sizeof err) == 1)
            *(seats[i] == opp ? &opp_played : &my_played) |= c;
        if (strncmp(texts[i], "discard ", 8) == 0 && seats[i] == opp)
            opp_discards = cards_parse_list(texts[i] + 8, cards_pack(36), &c, err, sizeof err);
    }
    CU_ASSERT_EQUAL(cardset_count(opp_played | my_played), 10);
    CU_ASSERT(opp_discards > 0);
    CU_ASSERT_EQUAL(cJSON_GetArraySize(samples), 6);
    const cJSON *w;
    cJSON_ArrayForEach(w, samples) {
        cardset_t hold, disc, stock;
        CU_ASSERT_EQUAL(json_cards(cJSON_GetObjectItemCaseSensitive(w, "holding"), &hold), PK_HAND_CARDS);
        CU_ASSERT_EQUAL(json_cards(cJSON_GetObjectItemCaseSensitive(w, "discards"), &disc), opp_discards);
        CU_ASSERT(json_cards(cJSON_GetObjectItemCaseSensitive(w, "stock"), &stock) >= 0);
        CU_ASSERT_EQUAL(cJSON_GetArraySize(w), 3);
        CU_ASSERT_EQUAL(hold & opp_played, opp_played);
        CU_ASSERT_EQUAL(hold & my_played, 0);
        CU_ASSERT_EQUAL(hold & disc, 0);
        /* The unseen stock holds his draws and what is left: never his discards. */
        CU_ASSERT_EQUAL(disc & stock, 0);
        CU_ASSERT_EQUAL(stock & (opp_played | my_played), stock & hold & opp_played);
    }
    cJSON_Delete(o);
}

/* Just dealt (--after 0) and younger to exchange (--after 1): the counts are printed in full,
 * the same in text and JSON; after elder's exchange they exceed 2^32. --sample 0 draws none. */
static void test_worlds_counts_in_full(void)
{
    const char *rec = worlds_record(0);
    char args[512];
    for (int after = 0; after <= 1; after++) {
        snprintf(args, sizeof args, "worlds --json --sample 0 --after %d %s", after, rec);
        CU_ASSERT_EQUAL_FATAL(run(args), 0);
        cJSON *o = one_json_object();
        CU_ASSERT_PTR_NOT_NULL(o);
        cJSON_Delete(o);
        CU_ASSERT_PTR_NOT_NULL(strstr(out_buf, "\"samples\":[]"));
        uint64_t worlds = json_count("worlds"), holdings = json_count("holdings");
        CU_ASSERT(worlds > 0 && worlds != UINT64_MAX && holdings > 0 && holdings <= worlds);
        if (after == 1)
            CU_ASSERT(worlds > UINT32_MAX);
        snprintf(args, sizeof args, "worlds --sample 0 --after %d %s", after, rec);
        CU_ASSERT_EQUAL_FATAL(run(args), 0);
        char want[96];
        snprintf(want, sizeof want, "\nworlds          %" PRIu64 "\n", worlds);
        CU_ASSERT_PTR_NOT_NULL(strstr(out_buf, want));
        snprintf(want, sizeof want, "\nholdings        %" PRIu64 " ", holdings);
        CU_ASSERT_PTR_NOT_NULL(strstr(out_buf, want));
        CU_ASSERT_PTR_NULL(strstr(out_buf, "sample 1"));
    }
}

/* The same command prints the same thing; another seed draws other worlds. The text output
 * defaults to three samples. */
static void test_worlds_same_seed_same_output(void)
{
    static char first[65536];
    const char *rec = worlds_record(1);
    char args[512];
    for (int json = 0; json < 2; json++) {
        snprintf(args, sizeof args, "worlds %s--after 20 --seed 5 %s", json ? "--json " : "", rec);
        CU_ASSERT_EQUAL_FATAL(run(args), 0);
        snprintf(first, sizeof first, "%s", out_buf);
        CU_ASSERT_EQUAL_FATAL(run(args), 0);
        CU_ASSERT_STRING_EQUAL(first, out_buf);
        snprintf(args, sizeof args, "worlds %s--after 20 --seed 6 %s", json ? "--json " : "", rec);
        CU_ASSERT_EQUAL_FATAL(run(args), 0);
        CU_ASSERT_STRING_NOT_EQUAL(first, out_buf);
    }
    snprintf(args, sizeof args, "worlds --after 20 %s", rec);
    CU_ASSERT_EQUAL(run(args), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out_buf, "sample 3 of 3 (seed 1)"));
    CU_ASSERT_PTR_NULL(strstr(out_buf, "sample 4"));
}

/* At the end of a set no seat is to move: the view must be named. */
static void test_worlds_at_the_end_needs_a_seat(void)
{
    const char *rec = worlds_record(0);
    char args[512];
    snprintf(args, sizeof args, "worlds %s", rec);
    expect_error(args, "worlds: no seat is to move after ");
    CU_ASSERT_PTR_NOT_NULL(strstr(err_buf, "--seat"));
    snprintf(args, sizeof args, "worlds --seat 1 --json %s", rec);
    CU_ASSERT_EQUAL(run(args), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out_buf, "{\"seat\":1,"));
}

static void test_worlds_refuses_bad_input(void)
{
    const char *rec = worlds_record(0);
    static int seats[512];
    static char texts[512][64];
    int n = record_moves(rec, seats, texts, 512);
    char args[1024], want[512];
    snprintf(args, sizeof args, "worlds --after %d %s", n + 1, rec);
    snprintf(want, sizeof want, "worlds: --after %d is beyond the record: '%s' has %d moves", n + 1, rec, n);
    expect_error(args, want);
    snprintf(args, sizeof args, "worlds --after 4294967301 %s", rec);
    expect_error(args, "is beyond the record");
    for (size_t i = 1; i < sizeof BAD_NUMBERS / sizeof BAD_NUMBERS[0]; i++) {
        snprintf(args, sizeof args, "worlds --after %s %s", BAD_NUMBERS[i], rec);
        expect_error(args, "worlds: --after must be a whole number of moves, from 0 to the record's, not '");
    }
    char fmt[512];
    snprintf(fmt, sizeof fmt, "worlds --after 3 --seat %%s %s", rec);
    expect_numbers_refused(fmt, "worlds: --seat must be a whole number from 0 to 1, not '", 0);
    snprintf(args, sizeof args, "worlds --after 3 --seat 2 %s", rec);
    expect_error(args, "worlds: --seat must be a whole number from 0 to 1, not '2'");
    snprintf(fmt, sizeof fmt, "worlds --after 3 --sample %%s %s", rec);
    expect_numbers_refused(fmt, "worlds: --sample must be a whole number from 0 to 100000, not '", 0);
    snprintf(fmt, sizeof fmt, "worlds --after 3 --seed %%s %s", rec);
    expect_numbers_refused(fmt, "worlds: --seed must be a whole number from 0 to 18446744073709551615, not '", 1);
    expect_error("worlds /nonexistent/record.txt", "worlds: cannot open '/nonexistent/record.txt'");
    expect_error("worlds /tmp", "worlds: '/tmp' is a folder, not a record");
    expect_error("worlds", "worlds: no RECORD given");
    expect_error("worlds --after", "worlds: --after needs a value");
    expect_error("worlds --frobnicate x", "worlds: unknown option '--frobnicate'");
    expect_error("worlds /dev/zero", "worlds: '/dev/zero' is not a regular file");
    snprintf(args, sizeof args, "worlds %s %s", rec, rec);
    expect_error(args, "worlds: give one RECORD");
    /* A file of two records. */
    char *a = read_all(worlds_record(0)), *b = read_all(worlds_record(1));
    size_t la = strlen(a), lb = strlen(b);
    char *both = malloc(la + lb + 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(both);
    memcpy(both, a, la);
    memcpy(both + la, b, lb + 1);
    char path[] = "/tmp/picket-cli-worlds2XXXXXX";
    write_temp(path, both, la + lb);
    snprintf(args, sizeof args, "worlds --seat 0 %s", path);
    expect_error(args, "holds more than one record");
    unlink(path);
    /* A record that does not verify: its line and reason. */
    const char *broken = "picket-record 1\ngame picket\nseed 7\nmove 0 discard AS\n";
    char path2[] = "/tmp/picket-cli-worldsbXXXXXX";
    write_temp(path2, broken, strlen(broken));
    snprintf(args, sizeof args, "worlds %s", path2);
    expect_error(args, "line 4: seat 0 is not to move (seat 1 is)");
    unlink(path2);
    free(a);
    free(b);
    free(both);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("picket command line", NULL, NULL);
    CU_add_test(s, "every command has --help", test_every_command_has_help);
    CU_add_test(s, "rules lists presets, flags and sources", test_rules_lists_presets_flags_and_sources);
    CU_add_test(s, "score --json is exact", test_score_json_is_exact);
    CU_add_test(s, "score --json: a Blank hand, no sequence", test_score_json_blank_hand_has_null_sequence);
    CU_add_test(s, "score: unsuited sequences with --preset ducoeur-report", test_score_unsuited_with_preset);
    CU_add_test(s, "score: text output", test_score_text_output);
    CU_add_test(s, "score refuses an unknown card", test_score_refuses_unknown_card);
    CU_add_test(s, "score refuses a duplicate card", test_score_refuses_duplicate_card);
    CU_add_test(s, "score refuses a card outside the pack", test_score_refuses_card_outside_the_pack);
    CU_add_test(s, "score refuses a six with deck=32", test_score_refuses_six_in_the_32_card_pack);
    CU_add_test(s, "score refuses the wrong count", test_score_refuses_wrong_count);
    CU_add_test(s, "unknown preset is refused", test_unknown_preset_is_refused);
    CU_add_test(s, "unknown flag is refused", test_unknown_flag_is_refused);
    CU_add_test(s, "bad flag value is refused", test_bad_flag_value_is_refused);
    CU_add_test(s, "unknown command is refused", test_unknown_command_is_refused);
    CU_add_test(s, "bad --sets is refused", test_bad_sets_is_refused);
    CU_add_test(s, "solve --tricks does not wrap", test_solve_tricks_do_not_wrap);
    CU_add_test(s, "solve --to-move and --tt-mb do not wrap", test_solve_to_move_and_table_size_do_not_wrap);
    CU_add_test(s, "selfplay --sets and --seed do not wrap", test_selfplay_sets_and_seed_do_not_wrap);
    CU_add_test(s, "selfplay takes the largest seed", test_selfplay_takes_the_largest_seed);
    CU_add_test(s, "replay of /dev/zero ends at once", test_replay_of_dev_zero_ends_at_once);
    CU_add_test(s, "replay refuses a torn last line", test_replay_refuses_a_torn_last_line);
    CU_add_test(s, "replay of a huge line ends at once", test_replay_of_a_huge_line_ends_at_once);
    CU_add_test(s, "replay refuses a folder", test_replay_refuses_a_folder);
    CU_add_test(s, "replay reads a file of many records", test_replay_reads_a_file_of_many_records);
    CU_add_test(s, "replay of many names the failing record and its file line",
                test_replay_of_many_names_the_failing_record_and_its_file_line);
    CU_add_test(s, "replay shows a forfeit", test_replay_shows_a_forfeit);
    CU_add_test(s, "picket --version is one line", test_version_is_one_line);
    CU_add_test(s, "picket-engine --version is one line", test_engine_version_is_one_line);
    CU_add_test(s, "replay of a missing file is refused", test_replay_of_missing_file_is_refused);
    CU_add_test(s, "replay reports the known record", test_replay_reports_the_known_record);
    CU_add_test(s, "replay refuses a broken record with its line", test_replay_refuses_a_broken_record_with_its_line);
    CU_add_test(s, "selfplay: same seed, same output", test_selfplay_same_seed_same_output);
    CU_add_test(s, "selfplay scores Repiques at 60", test_selfplay_scores_repiques_at_60);
    CU_add_test(s, "selfplay records replay", test_selfplay_records_replay);
    CU_add_test(s, "solve reports each move's exact value", test_solve_reports_each_moves_exact_value);
    CU_add_test(s, "solve refuses inconsistent positions", test_solve_refuses_inconsistent_positions);
    CU_add_test(s, "worlds --json mid-play: the opponent's plays in every world", test_worlds_json_mid_play);
    CU_add_test(s, "worlds prints its counts in full", test_worlds_counts_in_full);
    CU_add_test(s, "worlds: same seed, same output", test_worlds_same_seed_same_output);
    CU_add_test(s, "worlds at the end of a set needs --seat", test_worlds_at_the_end_needs_a_seat);
    CU_add_test(s, "worlds refuses bad input with one line", test_worlds_refuses_bad_input);
    return test_run_all();
}
