/* The learned exchange net (engine/net.h, engine/picket/picket_features.h; issue 30):
 *  1. the engine's evaluation agrees with PyTorch's on the same inputs: the committed model
 *     (engine/picket/exchange.pknn) and the trainer's float64 outputs for it
 *     (tests/net/exchange-expected.txt, written by tools/train_exchange.py --expected; if this
 *     fails after a retraining, write both files again in the same run);
 *  2. a file that is not a net of this version and size is refused with one line naming it;
 *  3. the inputs of a known exchange are the ones picket_features.h defines;
 *  4. the trainer is reproducible by seed, and the engine agrees with what it writes;
 *  5. picket-selfplay's shards and a resumed run write exactly one run's lines.
 *  6. picket-selfplay -refeature gives lines written without the shape inputs the very inputs a
 *     run writes today; a line that is not an example is refused in one line.
 */
#include <CUnit/CUnit.h>
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net.h"
#include "picket_features.h"
#include "test_util.h"

static const char *const MODEL = "engine/picket/exchange.pknn";
static const char *const EXPECTED = "tests/net/exchange-expected.txt";

/* The largest difference between the engine's output and the trainer's float64 one over an
 * --expected file (each line: the output, then the active inputs); *rows: its lines. */
static double worst_difference(const net_t *n, const char *path, int *rows)
{
    FILE *f = fopen(path, "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    char line[4096];
    double worst = 0;
    *rows = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            continue;
        char *p = line, *end;
        double want = strtod(p, &end);
        int active[PICKET_XF_INPUTS], k = 0;
        for (p = end; k < PICKET_XF_INPUTS; p = end) {
            long a = strtol(p, &end, 10);
            if (end == p)
                break;
            active[k++] = (int)a;
        }
        double diff = fabs(net_eval(n, active, k) - want);
        worst = diff > worst ? diff : worst;
        (*rows)++;
    }
    fclose(f);
    return worst;
}

/* 1. Every expected line: the float64 output, then the active inputs. */
static void test_the_engine_agrees_with_pytorch(void)
{
    char err[600];
    net_t *n = net_load(MODEL, err, sizeof err);
    if (!n)
        fprintf(stderr, "\n    %s\n", err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(n);
    CU_ASSERT_EQUAL(net_inputs(n), PICKET_XF_INPUTS);
    CU_ASSERT(strstr(net_provenance(n), "train_exchange.py") != NULL);
    int rows = 0;
    double worst = worst_difference(n, EXPECTED, &rows);
    fprintf(stderr, "[%d inputs, worst difference %.2e] ", rows, worst);
    CU_ASSERT(rows >= 100);
    CU_ASSERT(worst <= 1e-5);
    net_free(n);
}

/* 2. Damaged files, each one line naming the file. */
static void write_bytes(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(fwrite(data, 1, len, f), len);
    fclose(f);
}

static void test_a_file_that_is_not_this_net_is_refused(void)
{
    char dir[128], err[600];
    test_tmpdir_make(dir, sizeof dir, "picket-net");
    FILE *f = fopen(MODEL, "rb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fseek(f, 0, SEEK_END);
    size_t len = (size_t)ftell(f);
    rewind(f);
    char *good = malloc(len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(good);
    CU_ASSERT_EQUAL_FATAL(fread(good, 1, len, f), len);
    fclose(f);
    char *bad = malloc(len + 8);
    CU_ASSERT_PTR_NOT_NULL_FATAL(bad);
    const char *path = test_path(dir, "bad.pknn");
    struct {
        const char *why, *want;
    } const cases[] = {
        { "magic", "not a picket net" }, { "version", "a net of version 9" }, { "sizes", "sizes out of range" },
        { "short", "cut short or too long" }, { "long", "cut short or too long" },
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        memcpy(bad, good, len);
        size_t n = len;
        if (c == 0)
            bad[0] = 'X';
        else if (c == 1)
            bad[4] = 9;
        else if (c == 2)
            bad[12] = 0, bad[13] = 0, bad[14] = 0, bad[15] = 0; /* no hidden unit */
        else if (c == 3)
            n = len - 3;
        else
            n = len + 4;
        write_bytes(path, bad, n);
        err[0] = '\0';
        net_t *net = net_load(path, err, sizeof err);
        CU_ASSERT_PTR_NULL(net);
        net_free(net);
        int ok = strstr(err, cases[c].want) && strstr(err, path) && !strchr(err, '\n');
        if (!ok)
            fprintf(stderr, "\n    %s: '%s'", cases[c].why, err);
        CU_ASSERT(ok);
    }
    CU_ASSERT_PTR_NULL(net_load(test_path(dir, "missing.pknn"), err, sizeof err));
    CU_ASSERT(strstr(err, "missing.pknn") != NULL);
    CU_ASSERT_PTR_NULL(net_load("/dev/zero", err, sizeof err));
    CU_ASSERT(strstr(err, "not a regular file") != NULL);
    free(bad);
    free(good);
    test_tmpdir_remove(dir);
}

/* 3. Elder of a cotgrave hand, discarding two cards: kept cards, discards, elder, no rule other
 * than the first values, twelve cards in the stock, the shape kept (4 suits' lengths and runs, 9
 * ranks' counts); and the shape of a hand worked by hand. */
static void test_the_inputs_of_a_known_exchange(void)
{
    picket_rules_t r;
    char err[200];
    CU_ASSERT_EQUAL_FATAL(picket_rules_build(&r, "cotgrave", NULL, 0, err, sizeof err), 0);
    picket_state_t st;
    picket_init(&st, &r, 7);
    while (picket_to_move(&st) == GAME_CHANCE)
        picket_apply_chance(&st, NULL, NULL, 0);
    CU_ASSERT_EQUAL_FATAL(st.pub.phase, PK_PH_ELDER_EXCHANGE);
    picket_view_t v;
    picket_view_from_state(&st, picket_to_move(&st), &v);
    cardset_t discard = cardset_of(cardset_first(v.hand)) | cardset_of(cardset_last(v.hand));
    int active[PICKET_XF_MAX_ACTIVE], n = picket_exchange_features(&v, discard, active);
    CU_ASSERT_EQUAL(n, 12 + 1 + 1 + 4 + 4 + 9);
    int kept = 0, thrown = 0;
    for (int i = 0; i < n; i++) {
        kept += active[i] < 36;
        thrown += active[i] >= 36 && active[i] < 72;
        if (i)
            CU_ASSERT(active[i] > active[i - 1]);
    }
    CU_ASSERT_EQUAL(kept, 10);
    CU_ASSERT_EQUAL(thrown, 2);
    CU_ASSERT_EQUAL(active[12], 108); /* elder */
    CU_ASSERT_EQUAL(active[13], 120 + 12);
    int lengths = 0, counts = 0;
    for (int i = 14; i < n; i++) {
        lengths += active[i] >= PICKET_XF_SHAPE && active[i] < PICKET_XF_SUIT_RUNS ? (active[i] - PICKET_XF_SHAPE) % 10 : 0;
        counts += active[i] >= PICKET_XF_RANK_COUNTS ? (active[i] - PICKET_XF_RANK_COUNTS) % 5 : 0;
    }
    CU_ASSERT_EQUAL(lengths, 10);
    CU_ASSERT_EQUAL(counts, 10);
    /* The Six of Clubs is input 0, the Ace of Spades 35 (suit * 9 + rank from the Six). */
    picket_view_t w = v;
    w.hand = cardset_of(card_make(SUIT_C, RANK_6)) | cardset_of(card_make(SUIT_S, RANK_A));
    n = picket_exchange_features(&w, cardset_of(card_make(SUIT_S, RANK_A)), active);
    CU_ASSERT(n >= 2 && active[0] == 0 && active[1] == 36 + 35);
    /* Kept 6C 7C 8C TC JD JH JS (the Ace of Spades thrown): Clubs 4 long with a run of 3, one
     * card each in the others; three Knaves, no Nine, no Queen, King or Ace. */
    w.hand = cardset_of(card_make(SUIT_S, RANK_A));
    const int clubs[] = { RANK_6, RANK_7, RANK_8, RANK_T };
    for (int i = 0; i < 4; i++)
        w.hand |= cardset_of(card_make(SUIT_C, clubs[i]));
    for (int s = SUIT_D; s <= SUIT_S; s++)
        w.hand |= cardset_of(card_make(s, RANK_J));
    n = picket_exchange_features(&w, cardset_of(card_make(SUIT_S, RANK_A)), active);
    const int shape[] = { 137, 144, 154, 164, 176, 184, 194, 204, 214, 219, 224, 228, 234, 241, 243, 248, 253 };
    CU_ASSERT_EQUAL_FATAL(n, 7 + 1 + 1 + 1 + 17);
    for (int i = 0; i < 17; i++)
        CU_ASSERT_EQUAL(active[10 + i], shape[i]);
}

/* 3b. The engine's own copy of the net (built into it from the file by CMake) is the committed
 * file, and Picket's hook gives the inputs of every discard under cotgrave's rules and covers
 * nothing else. */
static void test_the_built_in_net_and_its_inputs(void)
{
    FILE *f = fopen(MODEL, "rb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    static unsigned char file[1 << 20];
    size_t len = fread(file, 1, sizeof file, f);
    fclose(f);
    const game_t *g = &PICKET_GAME;
    CU_ASSERT_EQUAL_FATAL(g->learned_net_size, len);
    CU_ASSERT(memcmp(g->learned_net, file, len) == 0);
    char err[600];
    net_t *n = net_read(g->learned_net, g->learned_net_size, "built-in", err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(n);
    int rows = 0;
    CU_ASSERT(worst_difference(n, EXPECTED, &rows) <= 1e-5 && rows >= 100);

    picket_rules_t r;
    CU_ASSERT_EQUAL_FATAL(picket_rules_build(&r, "cotgrave", NULL, 0, err, sizeof err), 0);
    picket_state_t st;
    picket_init(&st, &r, 7);
    while (picket_to_move(&st) == GAME_CHANCE)
        picket_apply_chance(&st, NULL, NULL, 0);
    picket_view_t v;
    picket_view_from_state(&st, picket_to_move(&st), &v);
    static game_move_t moves[GAME_MAX_MOVES];
    int nm = g->view_legal_moves(&v, moves, GAME_MAX_MOVES);
    CU_ASSERT_FATAL(nm > 1000);
    for (int i = 0; i < nm; i++) {
        int a[PICKET_XF_MAX_ACTIVE], b[PICKET_XF_MAX_ACTIVE];
        int k = g->learned_inputs(&v, &moves[i], a, PICKET_XF_MAX_ACTIVE);
        CU_ASSERT_FATAL(k > 0 && k == picket_exchange_features(&v, moves[i].cards, b) && !memcmp(a, b, sizeof(int) * (size_t)k));
    }
    int a[PICKET_XF_MAX_ACTIVE];
    game_move_t play = { PK_MV_PLAY, 0, 0, 0 };
    CU_ASSERT_EQUAL(g->learned_inputs(&v, &play, a, PICKET_XF_MAX_ACTIVE), -1);
    picket_view_t other = v;
    other.rules.sequences = PK_SEQ_UNSUITED; /* ducoeur-report's: rules the net never learned */
    CU_ASSERT_EQUAL(g->learned_inputs(&other, &moves[0], a, PICKET_XF_MAX_ACTIVE), -1);

    net_free(n);
}

/* 4. The trainer (tools/train_exchange.py, Debian's python3-torch) is reproducible by seed: two
 * runs on the same small data write the same model, byte for byte, and the engine agrees with
 * that model's float64 outputs. */
static void test_the_trainer_is_reproducible_and_agrees_with_the_engine(void)
{
    if (system("/usr/bin/python3 -c 'import torch' > /dev/null 2>&1") != 0) {
        CU_FAIL("PyTorch is missing: install Debian's python3-torch (tools/setup.sh does)");
        return;
    }
    char dir[128], cmd[2048], err[600];
    test_tmpdir_make(dir, sizeof dir, "picket-train");
    /* The same command twice (the provenance it writes names it): the second model must be the
     * first, byte for byte. */
    for (int run = 0; run < 2; run++) {
        snprintf(cmd, sizeof cmd,
                 "/usr/bin/python3 tools/train_exchange.py tests/net/small.jsonl --out %s/m.pknn --report %s/r --epochs 2 "
                 "--hidden 16 8 --seed 3 --expected %s/e.txt > %s/out.txt 2>&1 %s",
                 dir, dir, dir, dir, run ? "" : "&& cp " );
        if (!run)
            snprintf(cmd + strlen(cmd), sizeof cmd - strlen(cmd), "%s/m.pknn %s/first.pknn", dir, dir);
        CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
    }
    char a[256], b[256];
    snprintf(a, sizeof a, "%s/m.pknn", dir);
    snprintf(cmd, sizeof cmd, "cmp -s %s %s/first.pknn", a, dir);
    CU_ASSERT_EQUAL(system(cmd), 0);
    net_t *n = net_load(a, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(n);
    snprintf(b, sizeof b, "%s/e.txt", dir);
    int rows = 0;
    double worst = worst_difference(n, b, &rows);
    CU_ASSERT(rows > 0 && worst <= 1e-5);
    net_free(n);
    test_tmpdir_remove(dir);
}

/* 5. picket-selfplay ($PICKET_SELFPLAY) is deterministic by seed: two shards hold exactly the
 * whole run's lines, and a run killed in the middle of a line and resumed writes the same file. */
static void test_selfplay_shards_and_resume_equal_one_run(void)
{
    const char *bin = getenv("PICKET_SELFPLAY");
    char dir[128], cmd[4096];
    test_tmpdir_make(dir, sizeof dir, "picket-selfplay");
    const char *few = "-positions 6 -candidates 3 -random 2 -worlds 2 -seed 4 -quiet";
    snprintf(cmd, sizeof cmd, "%s -out %s/whole.jsonl %s && %s -out %s/s0.jsonl %s -shard 0/2 && %s -out %s/s1.jsonl %s -shard 1/2",
             bin, dir, few, bin, dir, few, bin, dir, few);
    CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
    /* The shards' lines, sorted, are the whole run's, sorted. */
    snprintf(cmd, sizeof cmd, "cd %s && sort whole.jsonl > a && sort s0.jsonl s1.jsonl > b && cmp -s a b", dir);
    CU_ASSERT_EQUAL(system(cmd), 0);
    /* Cut inside its fourth line, then resumed: the same bytes as the whole run. */
    snprintf(cmd, sizeof cmd, "cd %s && head -c $(( $(head -3 whole.jsonl | wc -c) + 40 )) whole.jsonl > cut.jsonl && %s -out cut.jsonl %s -resume "
             "&& cmp -s cut.jsonl whole.jsonl", dir, bin, few);
    CU_ASSERT_EQUAL(system(cmd), 0);
    /* Without -resume a file that holds examples is refused, and left as it was. */
    snprintf(cmd, sizeof cmd, "cd %s && ! %s -out whole.jsonl %s 2> err.txt && grep -q 'already holds examples' err.txt && cmp -s cut.jsonl whole.jsonl",
             dir, bin, few);
    CU_ASSERT_EQUAL(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s --help | grep -q 'usage: picket-selfplay' && %s -version | grep -q '^picket-selfplay '", bin, bin);
    CU_ASSERT_EQUAL(system(cmd), 0);
    test_tmpdir_remove(dir);
}

/* The file's lines as JSON, at most cap: how many. */
static int json_lines(const char *path, cJSON **out, int cap)
{
    FILE *f = fopen(path, "r");
    char line[65536];
    int n = 0;
    while (f && n < cap && fgets(line, sizeof line, f))
        out[n++] = cJSON_Parse(line);
    if (f)
        fclose(f);
    return n;
}

/* 6. A run's lines with the shape inputs taken out, then -refeature: every candidate's inputs as
 * the run wrote them. */
static void test_refeature_gives_the_inputs_of_today(void)
{
    const char *bin = getenv("PICKET_SELFPLAY");
    char dir[128], cmd[4096], path[256];
    test_tmpdir_make(dir, sizeof dir, "picket-refeature");
    snprintf(cmd, sizeof cmd, "%s -out %s/run.jsonl -positions 4 -candidates 3 -random 3 -worlds 2 -seed 6 -quiet", bin, dir);
    CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
    cJSON *run[8] = { 0 }, *back[8] = { 0 };
    snprintf(path, sizeof path, "%s/run.jsonl", dir);
    int n = json_lines(path, run, 8), stripped = 0;
    CU_ASSERT_EQUAL_FATAL(n, 4);
    snprintf(path, sizeof path, "%s/old.jsonl", dir);
    FILE *f = fopen(path, "w");
    CU_ASSERT_FATAL(f != NULL);
    for (int i = 0; i < n; i++) {
        cJSON *old = cJSON_Duplicate(run[i], 1), *c, *in;
        cJSON_ArrayForEach(c, cJSON_GetObjectItem(old, "candidates")) {
            in = cJSON_GetObjectItem(c, "inputs");
            for (int k = cJSON_GetArraySize(in) - 1; k >= 0; k--)
                if (cJSON_GetArrayItem(in, k)->valueint >= PICKET_XF_SHAPE) {
                    cJSON_DeleteItemFromArray(in, k);
                    stripped++;
                }
        }
        char *text = cJSON_PrintUnformatted(old);
        fprintf(f, "%s\n", text);
        cJSON_free(text);
        cJSON_Delete(old);
    }
    fclose(f);
    CU_ASSERT(stripped >= 17);
    snprintf(cmd, sizeof cmd, "%s -refeature %s/old.jsonl -out %s/new.jsonl -quiet", bin, dir, dir);
    CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
    snprintf(path, sizeof path, "%s/new.jsonl", dir);
    CU_ASSERT_EQUAL_FATAL(json_lines(path, back, 8), n);
    for (int i = 0; i < n; i++)
        CU_ASSERT(cJSON_Compare(run[i], back[i], 1));
    for (int i = 0; i < n; i++) {
        cJSON_Delete(run[i]);
        cJSON_Delete(back[i]);
    }
    /* Not an example line, a missing file, -resume beside it: refused, one line, status 1. */
    snprintf(cmd, sizeof cmd, "cd %s && echo '{\"candidates\":[{\"discard\":\"AS\"}]}' > bad.jsonl && ! %s -refeature bad.jsonl -out x.jsonl 2> err.txt "
             "&& grep -q 'line 1 of .bad.jsonl. is not an example line' err.txt && test $(wc -l < err.txt) -eq 1 "
             "&& ! %s -refeature none.jsonl -out y.jsonl 2> err2.txt && grep -q 'none.jsonl' err2.txt && test $(wc -l < err2.txt) -eq 1 "
             "&& ! %s -refeature old.jsonl -out new.jsonl -resume 2> err3.txt && grep -q 'go apart' err3.txt",
             dir, bin, bin, bin);
    CU_ASSERT_EQUAL(system(cmd), 0);
    test_tmpdir_remove(dir);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("net", NULL, NULL);
    CU_add_test(s, "the engine agrees with PyTorch on the committed model", test_the_engine_agrees_with_pytorch);
    CU_add_test(s, "a file that is not this net is refused", test_a_file_that_is_not_this_net_is_refused);
    CU_add_test(s, "the inputs of a known exchange", test_the_inputs_of_a_known_exchange);
    CU_add_test(s, "the built-in net is the file; its inputs cover cotgrave's discards only", test_the_built_in_net_and_its_inputs);
    CU_add_test(s, "the trainer is reproducible by seed and agrees with the engine", test_the_trainer_is_reproducible_and_agrees_with_the_engine);
    CU_add_test(s, "selfplay: shards and a resume equal one run", test_selfplay_shards_and_resume_equal_one_run);
    CU_add_test(s, "selfplay: -refeature gives the inputs of today", test_refeature_gives_the_inputs_of_today);
    return test_run_all();
}
