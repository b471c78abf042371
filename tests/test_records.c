/* Game records (docs/records.md): known records replay to their known result, a written record
 * replays to the same game, and every malformed or rule-breaking record is refused with its line
 * number and the reason, without crashing.
 *
 * Known answers: the files in tests/records/ were written by
 *   picket selfplay --sets 1 --seed 7 --records DIR                                  (cotgrave)
 *   picket selfplay --sets 1 --seed 11 --preset ducoeur-report --flag deck=32 --records DIR
 * If a deliberate rules change alters those games, regenerate them with the same commands and
 * check the new games by hand with `picket replay --verbose`.
 */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lines.h"
#include "picket.h"
#include "record.h"
#include "test_util.h"

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    static char buf[65536];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    char *copy = malloc(n + 1);
    if (copy)
        memcpy(copy, buf, n + 1);
    return copy;
}

/* Replay text; returns 0 or -1, with err filled and the record freed. */
static int replay_bytes(const char *text, size_t len, char *err, size_t errlen, int *moves, int *scores)
{
    FILE *f = fmemopen((void *)text, len, "r");
    record_t rec;
    int rc = record_replay(f, &rec, NULL, NULL, err, errlen);
    if (rc == 0 && rec.state) {
        if (moves)
            *moves = rec.moves;
        if (scores)
            rec.game->scores(rec.state, scores);
    }
    record_free(&rec);
    fclose(f);
    return rc;
}

static int replay_text(const char *text, char *err, size_t errlen)
{
    return replay_bytes(text, strlen(text), err, errlen, NULL, NULL);
}

/* The fixture with the first occurrence of `from` replaced by `to`. */
static char *fixture_with(const char *from, const char *to)
{
    char *text = read_file("tests/records/cotgrave-seed-7.txt");
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    char *at = strstr(text, from);
    CU_ASSERT_PTR_NOT_NULL_FATAL(at);
    size_t n = strlen(text) - strlen(from) + strlen(to) + 1;
    char *out = malloc(n);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    snprintf(out, n, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    free(text);
    return out;
}

static void expect_refusal(const char *text, const char *want)
{
    char err[300] = "";
    int rc = replay_text(text, err, sizeof err);
    CU_ASSERT_EQUAL(rc, -1);
    if (!strstr(err, want))
        fprintf(stderr, "\n    expected '%s' in '%s'\n", want, err);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, want));
}

static void test_known_cotgrave_record_replays_to_its_result(void)
{
    char *text = read_file("tests/records/cotgrave-seed-7.txt");
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    char err[300];
    int moves = 0, scores[2] = { 0, 0 };
    CU_ASSERT_EQUAL(replay_bytes(text, strlen(text), err, sizeof err, &moves, scores), 0);
    CU_ASSERT_EQUAL(moves, 150);
    CU_ASSERT_EQUAL(scores[0], 69);
    CU_ASSERT_EQUAL(scores[1], 100);
    free(text);
}

static void test_known_32_card_unsuited_record_replays(void)
{
    char *text = read_file("tests/records/ducoeur-report-deck32-seed-11.txt");
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    char err[300];
    CU_ASSERT_EQUAL(replay_bytes(text, strlen(text), err, sizeof err, NULL, NULL), 0);
    free(text);
}

static void test_written_record_replays_to_the_same_state(void)
{
    game_config_t cfg = { 0 };
    char err[300];
    game_config_set_preset(&cfg, "cotton", err, sizeof err);
    game_config_add_flag(&cfg, "target=40", err, sizeof err);
    cfg.deal_seed = 424242;
    picket_state_t st;
    CU_ASSERT_EQUAL_FATAL(PICKET_GAME.init(&st, &cfg, err, sizeof err), 0);
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    record_write_header(f, &PICKET_GAME, &cfg);
    rng_t rng;
    rng_seed(&rng, 5);
    while (picket_to_move(&st) != GAME_OVER) {
        if (picket_to_move(&st) == GAME_CHANCE) {
            picket_apply_chance(&st, NULL, NULL, 0);
            continue;
        }
        game_move_t m;
        picket_random_move(&st, &rng, &m);
        record_write_move(f, &PICKET_GAME, picket_to_move(&st), &m);
        picket_apply(&st, &m, NULL, 0);
    }
    record_write_result(f, &PICKET_GAME, &st);
    fclose(f);
    FILE *in = fmemopen(buf, size, "r");
    record_t rec;
    CU_ASSERT_EQUAL(record_replay(in, &rec, NULL, NULL, err, sizeof err), 0);
    fclose(in);
    const picket_state_t *back = rec.state;
    CU_ASSERT_PTR_NULL(picket_pub_diff(&back->pub, &st.pub));
    CU_ASSERT_EQUAL(back->hand[0], st.hand[0]);
    CU_ASSERT_EQUAL(back->hand[1], st.hand[1]);
    record_free(&rec);
    free(buf);
}

static void test_empty_record_is_refused(void) { expect_refusal("", "empty record"); }
static void test_record_must_start_with_its_version(void) { expect_refusal("game picket\n", "line 1: a record starts with"); }
static void test_unknown_version_is_refused(void) { expect_refusal("picket-record 2\n", "line 1: record version 2 is not supported"); }
static void test_unknown_game_is_refused(void) { expect_refusal("picket-record 1\ngame chess\n", "line 2: unknown game 'chess'"); }
static void test_unknown_preset_is_refused(void)
{
    expect_refusal("picket-record 1\ngame picket\npreset hoyle\nseed 1\n", "unknown preset 'hoyle'");
}
static void test_unknown_flag_is_refused(void)
{
    expect_refusal("picket-record 1\ngame picket\nflag trumps=on\nseed 1\nmove 0 play AS\n", "line 5: unknown flag 'trumps'");
}
static void test_bad_seed_is_refused(void)
{
    expect_refusal("picket-record 1\ngame picket\nseed -4\n", "line 3: seed must be");
    expect_refusal("picket-record 1\ngame picket\nseed 12x\n", "line 3: seed must be");
}
static void test_move_before_seed_is_refused(void)
{
    expect_refusal("picket-record 1\ngame picket\nmove 1 discard AS\n", "line 3: no 'seed' line");
}
static void test_header_after_moves_is_refused(void)
{
    char *t = fixture_with("move 0 discard 7H 9S\n", "move 0 discard 7H 9S\nseed 8\n");
    expect_refusal(t, "line 7: 'seed' must come before the first move");
    free(t);
}
static void test_move_by_the_wrong_seat_is_refused(void)
{
    char *t = fixture_with("move 1 discard", "move 0 discard");
    expect_refusal(t, "line 5: seat 0 is not to move (seat 1 is)");
    free(t);
}
static void test_discarding_a_card_not_held_is_refused(void)
{
    char *t = fixture_with("move 1 discard 7C TC QC TD KD KS AS", "move 1 discard 7C TC QC TD KD KS AH");
    expect_refusal(t, "line 5: illegal move: card AH is not in the hand");
    free(t);
}
static void test_discarding_nine_is_refused(void)
{
    /* CG: "he may take in eight of the twelve Cards remaining in the Stock". */
    char *t = fixture_with("move 1 discard 7C TC QC TD KD KS AS", "move 1 discard 7C 8C TC QC TD QD KD KS AS");
    expect_refusal(t, "line 5: illegal move: must discard 1 to 8 cards, not 9");
    free(t);
}
static void test_first_lead_must_follow_the_called_suit(void)
{
    /* CG: elder names the suit "he intends to play, to which he is obliged if he say so". */
    char *t = fixture_with("move 1 play 6S", "move 1 play KC");
    expect_refusal(t, "line 8: illegal move: card KC may not be played");
    free(t);
}
static void test_unknown_move_is_refused(void)
{
    char *t = fixture_with("move 1 play 6S", "move 1 lead 6S");
    expect_refusal(t, "line 8: unknown move 'lead'");
    free(t);
}
static void test_wrong_result_is_refused(void)
{
    char *t = fixture_with("result 69 100 winner 1", "result 70 100 winner 1");
    expect_refusal(t, "result says seat 0 has 70, the replay gives 69");
    free(t);
}
static void test_wrong_winner_is_refused(void)
{
    char *t = fixture_with("result 69 100 winner 1", "result 69 100 winner 0");
    expect_refusal(t, "result says seat 0 won");
    free(t);
}
static void test_move_after_the_set_is_over_is_refused(void)
{
    char *t = fixture_with("result 69 100", "move 0 play AS\nresult 69 100");
    expect_refusal(t, "line 155: the game is already over");
    free(t);
}
static void test_nothing_may_follow_the_result(void)
{
    char *t = fixture_with("winner 1\n", "winner 1\nmove 0 play AS\n");
    expect_refusal(t, "line 156: nothing may follow the result line");
    free(t);
}
static void test_overlong_line_is_refused(void)
{
    size_t n = 10000;
    char *t = malloc(n + 64);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    strcpy(t, "picket-record 1\ngame ");
    memset(t + strlen(t), 'x', n);
    t[21 + n] = '\0';
    expect_refusal(t, "line 2: longer than 4095 bytes");
    free(t);
}
static void test_nul_byte_is_refused(void)
{
    static const char text[] = "picket-record 1\ngame pic\0ket\nseed 1\n";
    char err[300];
    CU_ASSERT_EQUAL(replay_bytes(text, sizeof text - 1, err, sizeof err, NULL, NULL), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "line 2: holds a NUL byte"));
}
static void test_binary_junk_is_refused_without_crashing(void)
{
    /* Every byte value, in many shapes: each must give an error line, never a crash. */
    rng_t rng;
    rng_seed(&rng, 3);
    char *base = read_file("tests/records/cotgrave-seed-7.txt");
    CU_ASSERT_PTR_NOT_NULL_FATAL(base);
    size_t len = strlen(base);
    int refused = 0;
    for (int i = 0; i < 2000; i++) {
        char *t = malloc(len + 1);
        CU_ASSERT_PTR_NOT_NULL_FATAL(t);
        memcpy(t, base, len + 1);
        int flips = 1 + (int)rng_below(&rng, 4);
        for (int j = 0; j < flips; j++)
            t[rng_below(&rng, (uint32_t)len)] = (char)rng_below(&rng, 256);
        char err[300];
        if (replay_bytes(t, len, err, sizeof err, NULL, NULL) < 0) {
            refused++;
            CU_ASSERT_EQUAL(strncmp(err, "line ", 5) == 0 || strncmp(err, "empty", 5) == 0, 1);
        }
        free(t);
    }
    free(base);
    /* Most random corruptions break the record; some land in comments or equivalent text. */
    CU_ASSERT(refused > 1000);
}

/* ---------------------------------------------------------------- strict numbers */

/* Issue 10: numbers in a record are digits (a '-' where negative makes sense), read whole. */
static void test_numbers_are_read_strictly(void)
{
    expect_refusal("picket-record 1\ngame picket\nseed +7\n", "line 3: seed must be");
    expect_refusal("picket-record 1\ngame picket\nseed 18446744073709551616\n", "line 3: seed must be");
    expect_refusal("picket-record 1\ngame picket\nseed 0x7\n", "line 3: seed must be");
    expect_refusal("picket-record 1\ngame picket\nplayers +2\nseed 7\n", "line 3: players must be 1 to");
    expect_refusal("picket-record 1\ngame picket\nplayers 4294967298\nseed 7\n", "line 3: players must be 1 to");
    expect_refusal("picket-record +1\n", "line 1: a record starts with 'picket-record 1'");
    char *t = fixture_with("move 1 discard", "move +1 discard");
    expect_refusal(t, "line 5: '+1' is not a seat");
    free(t);
}

/* ---------------------------------------------------------------- the file ends fast */

/* Issue 10: a file of NULs, or one endless line, is refused at its first bad byte, and the
 * reader leaves the rest unread (`picket replay /dev/zero` never returned). */
static void test_nul_bytes_stop_the_reading_at_once(void)
{
    size_t n = 1 << 20;
    char *zeros = calloc(1, n);
    CU_ASSERT_PTR_NOT_NULL_FATAL(zeros);
    FILE *f = fmemopen(zeros, n, "r");
    record_t rec;
    char err[300];
    CU_ASSERT_EQUAL(record_replay(f, &rec, NULL, NULL, err, sizeof err), -1);
    CU_ASSERT_STRING_EQUAL(err, "line 1: holds a NUL byte");
    CU_ASSERT(ftell(f) <= 1);
    record_free(&rec);
    fclose(f);
    free(zeros);
}

static void test_an_endless_line_stops_the_reading_at_once(void)
{
    size_t n = 1 << 20;
    char *xs = malloc(n);
    CU_ASSERT_PTR_NOT_NULL_FATAL(xs);
    memset(xs, 'x', n);
    FILE *f = fmemopen(xs, n, "r");
    record_t rec;
    char err[300];
    CU_ASSERT_EQUAL(record_replay(f, &rec, NULL, NULL, err, sizeof err), -1);
    CU_ASSERT_STRING_EQUAL(err, "line 1: longer than 4095 bytes");
    CU_ASSERT(ftell(f) <= RECORD_MAX_LINE);
    record_free(&rec);
    fclose(f);
    free(xs);
}

/* ---------------------------------------------------------------- a file of many records */

/* The two known records, as the arena's -records FILE.txt holds them: each record with its
 * comments, a blank line after each (docs/records.md). */
static char *two_records(void)
{
    char *a = read_file("tests/records/cotgrave-seed-7.txt");
    char *b = read_file("tests/records/ducoeur-report-deck32-seed-11.txt");
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    size_t n = strlen(a) + strlen(b) + 256;
    char *t = malloc(n);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    snprintf(t, n, "%s\n# set pairing 0 round 1 leg 1\n# seat 0: b\n# seat 1: a\n%s\n", a, b);
    free(a);
    free(b);
    return t;
}

static int line_count(const char *text, const char *upto)
{
    int n = 1;
    for (const char *p = text; p < upto; p++)
        n += *p == '\n';
    return n;
}

static void test_a_file_of_two_records_reads_both(void)
{
    char *t = two_records();
    int second = line_count(t, strstr(t, "picket-record 1\ngame picket\npreset ducoeur-report"));
    FILE *f = fmemopen(t, strlen(t), "r");
    record_reader_t *rd = record_reader_create(f);
    CU_ASSERT_PTR_NOT_NULL_FATAL(rd);
    record_t rec;
    char err[300] = "";
    CU_ASSERT_EQUAL(record_reader_next(rd, &rec, NULL, NULL, err, sizeof err), 1);
    CU_ASSERT_EQUAL(rec.number, 1);
    CU_ASSERT_EQUAL(rec.first_line, 1);
    CU_ASSERT_EQUAL(rec.moves, 150);
    CU_ASSERT_EQUAL(record_reader_more(rd), 1);
    record_free(&rec);
    CU_ASSERT_EQUAL(record_reader_next(rd, &rec, NULL, NULL, err, sizeof err), 1);
    CU_ASSERT_EQUAL(rec.number, 2);
    CU_ASSERT_EQUAL(rec.first_line, second);
    CU_ASSERT_STRING_EQUAL(rec.cfg.preset, "ducoeur-report");
    CU_ASSERT_EQUAL(record_reader_more(rd), 0);
    record_free(&rec);
    CU_ASSERT_EQUAL(record_reader_next(rd, &rec, NULL, NULL, err, sizeof err), 0);
    record_reader_free(rd);
    fclose(f);
    free(t);
}

/* A record without a result line ends where the next one starts. */
static void test_a_record_without_result_ends_at_the_next_record(void)
{
    const char *text = "picket-record 1\ngame picket\nseed 7\nmove 1 discard 7C TC QC TD KD KS AS\n"
                       "picket-record 1\ngame picket\nseed 7\n";
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    record_reader_t *rd = record_reader_create(f);
    CU_ASSERT_PTR_NOT_NULL_FATAL(rd);
    record_t rec;
    char err[300] = "";
    CU_ASSERT_EQUAL(record_reader_next(rd, &rec, NULL, NULL, err, sizeof err), 1);
    CU_ASSERT_EQUAL(rec.moves, 1);
    CU_ASSERT_EQUAL(rec.lines, 4);
    record_free(&rec);
    CU_ASSERT_EQUAL(record_reader_next(rd, &rec, NULL, NULL, err, sizeof err), 1);
    CU_ASSERT_EQUAL(rec.first_line, 5);
    CU_ASSERT_EQUAL(rec.moves, 0);
    record_free(&rec);
    CU_ASSERT_EQUAL(record_reader_next(rd, &rec, NULL, NULL, err, sizeof err), 0);
    record_reader_free(rd);
    fclose(f);
}

/* A failing record names its line in the file; the reader goes on with the next record. */
static void test_a_failing_record_is_skipped_and_the_next_is_read(void)
{
    char *t = two_records();
    char *bad = strstr(t, "move 1 discard 7C TC QC TD KD KS AS");
    CU_ASSERT_PTR_NOT_NULL_FATAL(bad);
    bad[5] = '0';
    FILE *f = fmemopen(t, strlen(t), "r");
    record_reader_t *rd = record_reader_create(f);
    CU_ASSERT_PTR_NOT_NULL_FATAL(rd);
    record_t rec;
    char err[300] = "";
    CU_ASSERT_EQUAL(record_reader_next(rd, &rec, NULL, NULL, err, sizeof err), -1);
    CU_ASSERT_STRING_EQUAL(err, "line 5: seat 0 is not to move (seat 1 is)");
    CU_ASSERT_EQUAL(record_reader_more(rd), 1);
    record_free(&rec);
    CU_ASSERT_EQUAL(record_reader_next(rd, &rec, NULL, NULL, err, sizeof err), 1);
    CU_ASSERT_EQUAL(rec.number, 2);
    record_free(&rec);
    CU_ASSERT_EQUAL(record_reader_next(rd, &rec, NULL, NULL, err, sizeof err), 0);
    record_reader_free(rd);
    fclose(f);
    free(t);
}

/* record_replay reads one record: a second one in its file is an error, not ignored. */
static void test_replay_of_one_record_refuses_a_second(void)
{
    char *t = two_records();
    char want[80];
    snprintf(want, sizeof want, "line %d: a second record starts here",
             line_count(t, strstr(t, "picket-record 1\ngame picket\npreset ducoeur-report")));
    expect_refusal(t, want);
    free(t);
}

/* The arena writes a forfeited set's reason as a comment before its result line. */
static void test_a_forfeit_comment_is_kept(void)
{
    const char *text = "picket-record 1\ngame picket\nseed 7\n# seat 0: a\n# seat 1: b\n"
                       "# forfeit: seat 1 loses by crash: engine b exited (status 1)\nresult 0 0\n";
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    record_t rec;
    char err[300] = "";
    CU_ASSERT_EQUAL(record_replay(f, &rec, NULL, NULL, err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(rec.forfeit, "seat 1 loses by crash: engine b exited (status 1)");
    record_free(&rec);
    fclose(f);
}

static void test_an_empty_file_is_one_failing_record(void)
{
    const char *text = "# nothing here\n\n";
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    record_reader_t *rd = record_reader_create(f);
    CU_ASSERT_PTR_NOT_NULL_FATAL(rd);
    record_t rec;
    char err[300] = "";
    CU_ASSERT_EQUAL(record_reader_next(rd, &rec, NULL, NULL, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "empty record"));
    record_free(&rec);
    CU_ASSERT_EQUAL(record_reader_next(rd, &rec, NULL, NULL, err, sizeof err), 0);
    record_reader_free(rd);
    fclose(f);
}

/* engine/lines (issue 29): a line is complete only with its newline; a line over the buffer or
 * with a NUL stops the reading at once; only regular files are read, and a save never replaces
 * anything else, nor leaves its file half written. */
static void test_lines_tell_torn_long_and_nul(void)
{
    static const char text[] = "one\r\ntwo\n\nlast";
    FILE *f = fmemopen((void *)text, sizeof text - 1, "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    char buf[8];
    CU_ASSERT_EQUAL(lines_read(f, buf, sizeof buf), 3);
    CU_ASSERT_STRING_EQUAL(buf, "one");
    CU_ASSERT_EQUAL(lines_read(f, buf, sizeof buf), 3);
    CU_ASSERT_EQUAL(lines_read(f, buf, sizeof buf), 0);
    CU_ASSERT_EQUAL(lines_read(f, buf, sizeof buf), LINES_TORN);
    CU_ASSERT_STRING_EQUAL(buf, "last");
    CU_ASSERT_EQUAL(lines_read(f, buf, sizeof buf), LINES_EOF);
    fclose(f);
    static const char bad[] = "12345678901\nab\0cd\n";
    f = fmemopen((void *)bad, sizeof bad - 1, "r");
    CU_ASSERT_EQUAL(lines_read(f, buf, sizeof buf), LINES_LONG);
    CU_ASSERT_EQUAL(ftell(f), 8); /* the rest of the line is left unread */
    fclose(f);
    f = fmemopen((void *)(bad + 12), sizeof bad - 13, "r");
    CU_ASSERT_EQUAL(lines_read(f, buf, sizeof buf), LINES_NUL);
    fclose(f);
}

static int write_hello(FILE *f, void *data)
{
    (void)data;
    return fputs("hello\n", f) < 0 ? -1 : 0;
}

static int write_fails(FILE *f, void *data)
{
    (void)data;
    fputs("half", f);
    return -1;
}

static void test_lines_open_and_save_only_regular_files(void)
{
    char err[300];
    CU_ASSERT_PTR_NULL(lines_open("/dev/zero", err, sizeof err));
    CU_ASSERT_STRING_EQUAL(err, "/dev/zero: not a regular file");
    CU_ASSERT_PTR_NULL(lines_slurp("/dev/zero", 100, err, sizeof err));
    CU_ASSERT_EQUAL(lines_save("/dev/null", write_hello, NULL, err, sizeof err), -1);
    CU_ASSERT_STRING_EQUAL(err, "/dev/null: not a regular file");
    struct stat st;
    CU_ASSERT(stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode));
    char path[] = "/tmp/picket-lines-XXXXXX";
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    CU_ASSERT(write(fd, "old\n", 4) == 4);
    close(fd);
    CU_ASSERT_EQUAL(lines_save(path, write_fails, NULL, err, sizeof err), -1);
    char *text = lines_slurp(path, 100, err, sizeof err);
    CU_ASSERT(text && !strcmp(text, "old\n"));
    free(text);
    CU_ASSERT_EQUAL(lines_save(path, write_hello, NULL, err, sizeof err), 0);
    text = lines_slurp(path, 100, err, sizeof err);
    CU_ASSERT(text && !strcmp(text, "hello\n"));
    free(text);
    CU_ASSERT_PTR_NULL(lines_slurp(path, 3, err, sizeof err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "larger than 3 bytes"));
    unlink(path);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("game records", NULL, NULL);
    CU_add_test(s, "known cotgrave record replays to its result", test_known_cotgrave_record_replays_to_its_result);
    CU_add_test(s, "lines: torn, long and NUL told apart", test_lines_tell_torn_long_and_nul);
    CU_add_test(s, "lines: only regular files are read and saved", test_lines_open_and_save_only_regular_files);
    CU_add_test(s, "known deck=32 ducoeur-report record replays", test_known_32_card_unsuited_record_replays);
    CU_add_test(s, "written record replays to the same state", test_written_record_replays_to_the_same_state);
    CU_add_test(s, "empty record is refused", test_empty_record_is_refused);
    CU_add_test(s, "record must start with its version", test_record_must_start_with_its_version);
    CU_add_test(s, "unknown version is refused", test_unknown_version_is_refused);
    CU_add_test(s, "unknown game is refused", test_unknown_game_is_refused);
    CU_add_test(s, "unknown preset is refused", test_unknown_preset_is_refused);
    CU_add_test(s, "unknown flag is refused", test_unknown_flag_is_refused);
    CU_add_test(s, "bad seed is refused", test_bad_seed_is_refused);
    CU_add_test(s, "move before seed is refused", test_move_before_seed_is_refused);
    CU_add_test(s, "header line after moves is refused", test_header_after_moves_is_refused);
    CU_add_test(s, "move by the wrong seat is refused", test_move_by_the_wrong_seat_is_refused);
    CU_add_test(s, "discarding a card not held is refused", test_discarding_a_card_not_held_is_refused);
    CU_add_test(s, "discarding nine is refused", test_discarding_nine_is_refused);
    CU_add_test(s, "first lead must follow the called suit", test_first_lead_must_follow_the_called_suit);
    CU_add_test(s, "unknown move is refused", test_unknown_move_is_refused);
    CU_add_test(s, "wrong result is refused", test_wrong_result_is_refused);
    CU_add_test(s, "wrong winner is refused", test_wrong_winner_is_refused);
    CU_add_test(s, "move after the set is over is refused", test_move_after_the_set_is_over_is_refused);
    CU_add_test(s, "nothing may follow the result", test_nothing_may_follow_the_result);
    CU_add_test(s, "overlong line is refused", test_overlong_line_is_refused);
    CU_add_test(s, "NUL byte is refused", test_nul_byte_is_refused);
    CU_add_test(s, "binary junk is refused without crashing", test_binary_junk_is_refused_without_crashing);
    CU_add_test(s, "numbers are read strictly", test_numbers_are_read_strictly);
    CU_add_test(s, "NUL bytes stop the reading at once", test_nul_bytes_stop_the_reading_at_once);
    CU_add_test(s, "an endless line stops the reading at once", test_an_endless_line_stops_the_reading_at_once);
    CU_add_test(s, "a file of two records reads both", test_a_file_of_two_records_reads_both);
    CU_add_test(s, "a record without result ends at the next record", test_a_record_without_result_ends_at_the_next_record);
    CU_add_test(s, "a failing record is skipped and the next is read", test_a_failing_record_is_skipped_and_the_next_is_read);
    CU_add_test(s, "replay of one record refuses a second", test_replay_of_one_record_refuses_a_second);
    CU_add_test(s, "a forfeit comment is kept", test_a_forfeit_comment_is_kept);
    CU_add_test(s, "an empty file is one failing record", test_an_empty_file_is_one_failing_record);
    return test_run_all();
}
