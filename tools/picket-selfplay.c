/* picket-selfplay: examples of the exchange for learning its judgement (issue 30, docs/learning.md).
 *
 * For each position (a seeded deal, played by the heuristic up to the exchange of the seat it
 * studies, elder's or younger's), it writes one JSON line: what that seat knew (its cards, its
 * role, the cards it will draw, the preset) and a broad set of candidate discards (the
 * heuristic's best, and legal ones drawn at random), each valued in the same sampled worlds (the
 * opponent's hand and the stock's order drawn uniformly from the seat's view, common to every
 * candidate): the rest of the hand's decisions by the heuristic, the play of the cards solved
 * exactly (search/solver.h), the value the seat's points less the opponent's for the hand.
 *
 * Deterministic by -seed: position i is dealt from rng_derive(seed, i) and drawn from its own
 * stream, so a shard (-shard I/N: the positions i with i % N == I) or a resumed run (-resume:
 * the complete lines kept, a torn last line cut, the rest played) writes exactly the lines an
 * unbroken run would. */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "arena_cli.h"
#include "exchange_ref.h"
#include "lines.h"
#include "measure.h"
#include "picket.h"
#include "picket_features.h"
#include "text.h"
#include "worlds.h"

#ifndef PICKET_VERSION
#define PICKET_VERSION "unknown"
#endif

enum { MAX_CANDIDATES = 256, MAX_WORLDS = 4096, LINE_MAX_BYTES = 65536 };

static const char *const USAGE =
    "usage: picket-selfplay -out FILE [options]\n"
    "\n"
    "Write examples of the Picket exchange for learning its judgement: one JSON line a position,\n"
    "each candidate discard valued in the same sampled worlds (docs/learning.md).\n"
    "\n"
    "  -out FILE          the examples (JSON lines); refused if it holds lines, unless -resume\n"
    "  -positions N       positions (default 1000), half elder's exchange, half younger's\n"
    "  -seed N            the deals and draws (default 1)\n"
    "  -preset P          cotgrave (default), cotton, ducoeur-letter, ducoeur-report\n"
    "  -candidates K      the heuristic's best K discards (default 16)\n"
    "  -random R          R more legal discards drawn at random (default 16)\n"
    "  -worlds W          worlds each candidate is valued in, the same for all (default 16)\n"
    "  -shard I/N         only positions i with i % N == I (for parallel runs)\n"
    "  -resume            continue -out FILE where it stopped\n"
    "  -refeature FILE    play nothing: FILE's lines, written before the shape inputs, into -out\n"
    "                     with each candidate's shape inputs added (picket_features.h)\n"
    "  -quiet             no progress line\n"
    "  -version, --help\n"
    "\n"
    "exit status: 0 done, 1 an error while writing or a -refeature line that is not an\n"
    "example, 2 a bad option (nothing written), 130 interrupted (continue with -resume)\n";

typedef struct selfplay {
    picket_rules_t rules;
    const char *preset, *out_path, *refeature;
    uint64_t seed;
    int positions, candidates, randoms, n_worlds, shard_index, shard_count, resume, quiet;
    exref_t ref;
    worlds_t worlds;
    picket_state_t *world;   /* [n_worlds] */
    /* scratch: the position's legal moves, their heuristic values, order and sums */
    game_move_t moves[GAME_MAX_MOVES];
    double hvalue[GAME_MAX_MOVES], sum[MAX_CANDIDATES];
    int order[GAME_MAX_MOVES];
} selfplay_t;

static volatile sig_atomic_t interrupted;
static void on_signal(int sig)
{
    (void)sig;
    interrupted = 1;
}

/* ---------------------------------------------------------------- one position */

static void card_text(cardset_t set, char *buf, size_t len)
{
    if (!cardset_format(set, buf, len))
        snprintf(buf, len, "-");
}

/* Position i as a JSON line into f: the candidates written (0 when the deal gives no such
 * exchange, a Blank's commitment say: the line then holds none, so that the file's line count is
 * the positions done), or -1 on an error (err). */
static int position(selfplay_t *sp, int i, FILE *f, char *err, size_t errlen)
{
    game_move_t *moves = sp->moves;
    double *hvalue = sp->hvalue, *sum = sp->sum;
    int *order = sp->order;
    picket_state_t st;
    uint64_t deal;
    if (!exref_position(&sp->ref, &sp->rules, sp->seed, i, &st, &deal))
        return fprintf(f, "{\"i\":%d,\"preset\":\"%s\",\"candidates\":[]}\n", i, sp->preset) < 0 ? text_fail(err, errlen, "cannot write") : 0;
    int seat = picket_to_move(&st);
    picket_view_t v;
    picket_view_from_state(&st, seat, &v);
    int n = picket_view_legal_moves(&v, moves, GAME_MAX_MOVES);
    if (n <= 0)
        return text_fail(err, errlen, "position %d: no legal discard", i);
    picket_heuristic_evaluate(&v, NULL, moves, n, hvalue);
    /* The heuristic's order, best first (ties by the legal order), then R others at random. */
    for (int k = 0; k < n; k++)
        order[k] = k;
    for (int a = 1; a < n; a++)
        for (int b = a; b > 0 && hvalue[order[b]] > hvalue[order[b - 1]]; b--) {
            int t = order[b];
            order[b] = order[b - 1];
            order[b - 1] = t;
        }
    rng_t rng;
    rng_seed(&rng, rng_derive(deal, 0x5e1f));
    int k_top = sp->candidates < n ? sp->candidates : n, k = k_top;
    for (int r = 0; r < sp->randoms && k < n; r++, k++) {
        int pick = k + (int)rng_below(&rng, (uint32_t)(n - k));
        int t = order[k];
        order[k] = order[pick];
        order[pick] = t;
    }
    if (worlds_prepare(&sp->worlds, &v) < 0)
        return text_fail(err, errlen, "position %d: the sampler refused the seat's view", i);
    for (int w = 0; w < sp->n_worlds; w++)
        if (worlds_draw(&sp->worlds, &rng, &sp->world[w]) < 0)
            return text_fail(err, errlen, "position %d: no world drawn", i);
    for (int c = 0; c < k; c++) {
        sum[c] = 0;
        for (int w = 0; w < sp->n_worlds; w++) {
            double d;
            if (exref_value(&sp->ref, &sp->world[w], seat, &moves[order[c]], &d) < 0)
                return text_fail(err, errlen, "position %d: a world could not be played out", i);
            sum[c] += d;
        }
    }
    char hand[64], known[64];
    card_text(v.hand, hand, sizeof hand);
    card_text(v.know.opp_known | v.know.stock_known, known, sizeof known);
    int lo, hi;
    picket_discard_range(&v.rules, &v.pub, &lo, &hi);
    fprintf(f, "{\"i\":%d,\"preset\":\"%s\",\"role\":\"%s\",\"hand\":\"%s\",\"known\":\"%s\",\"range\":[%d,%d],\"stock\":%d,"
               "\"score\":[%d,%d],\"worlds\":%d,\"candidates\":[",
            i, sp->preset, seat == picket_elder(&v.pub) ? "elder" : "younger", hand, known, lo, hi, v.pub.stock_left,
            v.pub.score[seat], v.pub.score[1 - seat], sp->n_worlds);
    for (int c = 0; c < k; c++) {
        char d[64];
        int active[PICKET_XF_MAX_ACTIVE], na = picket_exchange_features(&v, moves[order[c]].cards, active);
        card_text(moves[order[c]].cards, d, sizeof d);
        fprintf(f, "%s{\"discard\":\"%s\",\"heuristic\":%.4f,\"rank\":%d,\"value\":%.4f,\"inputs\":[", c ? "," : "", d,
                hvalue[order[c]], c < k_top ? c : -1, sum[c] / sp->n_worlds);
        for (int a = 0; a < na; a++)
            fprintf(f, "%s%d", a ? "," : "", active[a]);
        fputs("]}", f);
    }
    return fprintf(f, "]}\n") < 0 || fflush(f) != 0 ? text_fail(err, errlen, "cannot write '%s': %s", sp->out_path, strerror(errno)) : k;
}

/* ---------------------------------------------------------------- -refeature */

/* A card list of a line ("-" for none) into *set: 0, or -1. */
static int line_cards(const cJSON *item, cardset_t *set)
{
    char why[200];
    *set = 0;
    return !cJSON_IsString(item) ? -1 : !strcmp(item->valuestring, "-") ? 0
                                                                           : cards_parse_list(item->valuestring, ~(cardset_t)0, set, why, sizeof why) < 0 ? -1 : 0;
}

/* One line's candidates with their shape inputs added (and any there before replaced): 0, or -1
 * if the line is not an example line. */
static int refeature_line(cJSON *line)
{
    cardset_t hand, discard;
    cJSON *cands = cJSON_GetObjectItemCaseSensitive(line, "candidates"), *c;
    if (!cJSON_IsArray(cands))
        return -1;
    if (cJSON_GetArraySize(cands) == 0)
        return 0;
    if (line_cards(cJSON_GetObjectItemCaseSensitive(line, "hand"), &hand) < 0)
        return -1;
    cJSON_ArrayForEach(c, cands) {
        cJSON *in = cJSON_GetObjectItemCaseSensitive(c, "inputs"), *a;
        if (line_cards(cJSON_GetObjectItemCaseSensitive(c, "discard"), &discard) < 0 || (discard & ~hand) || !cJSON_IsArray(in))
            return -1;
        int active[PICKET_XF_MAX_ACTIVE], n = 0;
        cJSON_ArrayForEach(a, in) {
            if (!cJSON_IsNumber(a) || a->valuedouble < 0 || a->valuedouble >= PICKET_XF_INPUTS || a->valuedouble != a->valueint ||
                n >= PICKET_XF_MAX_ACTIVE - PICKET_XF_SHAPE_ACTIVE)
                return -1;
            if (a->valueint < PICKET_XF_SHAPE)
                active[n++] = a->valueint;
        }
        n = picket_exchange_shape(hand & ~discard, active, n);
        cJSON *fresh = cJSON_CreateIntArray(active, n);
        if (!fresh || !cJSON_ReplaceItemInObjectCaseSensitive(c, "inputs", fresh))
            return -1;
    }
    return 0;
}

/* -refeature: every line of sp->refeature into f with its shape inputs. The count, or -1 (err). */
static int refeature(const selfplay_t *sp, FILE *f, char *err, size_t errlen)
{
    char why[400];
    FILE *in = lines_open(sp->refeature, why, sizeof why);
    if (!in)
        return text_fail(err, errlen, "-refeature: %s", why);
    char *line = malloc(LINE_MAX_BYTES);
    int count = 0, len = LINES_EOF, status = line ? 0 : text_fail(err, errlen, "out of memory");
    while (status == 0 && (len = lines_read(in, line, LINE_MAX_BYTES)) >= 0) {
        count++;
        cJSON *j = cJSON_ParseWithLength(line, (size_t)len);
        char *text = NULL;
        if (!j || refeature_line(j) < 0)
            status = text_fail(err, errlen, "-refeature: line %d of '%s' is not an example line", count, sp->refeature);
        else if (!(text = cJSON_PrintUnformatted(j)) || fprintf(f, "%s\n", text) < 0)
            status = text_fail(err, errlen, "cannot write '%s'", sp->out_path);
        cJSON_free(text);
        cJSON_Delete(j);
    }
    if (status == 0 && len != LINES_EOF)
        status = text_fail(err, errlen, "-refeature: line %d of '%s' is %s", count + 1, sp->refeature,
                           len == LINES_TORN ? "torn (no newline)" : "not an example line");
    free(line);
    fclose(in);
    return status < 0 ? -1 : count;
}

/* ---------------------------------------------------------------- the run */

/* -resume: the number of complete lines in the file, a torn last line cut. -1 on an error. */
static int resume_count(const selfplay_t *sp, char *err, size_t errlen)
{
    char why[400];
    FILE *f = lines_open(sp->out_path, why, sizeof why);
    if (!f)
        return errno == ENOENT ? 0 : text_fail(err, errlen, "-resume: %s", why);
    char *line = malloc(LINE_MAX_BYTES);
    int count = 0, len;
    long good = 0;
    while (line && (len = lines_read(f, line, LINE_MAX_BYTES)) >= 0) {
        count++;
        good = ftell(f);
    }
    int torn = line && len == LINES_TORN;
    int bad = !line || (len != LINES_EOF && !torn);
    free(line);
    fclose(f);
    if (bad)
        return text_fail(err, errlen, "-resume: line %d of '%s' is not an example line", count + 1, sp->out_path);
    if (torn && truncate(sp->out_path, good) < 0)
        return text_fail(err, errlen, "-resume: cannot cut the torn last line of '%s': %s", sp->out_path, strerror(errno));
    return count;
}

static int parse_args(selfplay_t *sp, int argc, char **argv, char *err, size_t errlen)
{
    sp->preset = "cotgrave";
    sp->positions = 1000;
    sp->seed = 1;
    sp->candidates = 16;
    sp->randoms = 16;
    sp->n_worlds = 16;
    sp->shard_count = 1;
    struct {
        const char *flag;
        int lo, hi, *out;
    } const nums[] = {
        { "-positions", 1, 100000000, &sp->positions }, { "-candidates", 1, MAX_CANDIDATES / 2, &sp->candidates },
        { "-random", 0, MAX_CANDIDATES / 2, &sp->randoms }, { "-worlds", 1, MAX_WORLDS, &sp->n_worlds },
    };
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        size_t k = 0;
        while (k < sizeof nums / sizeof nums[0] && (strcmp(o, nums[k].flag) || !v))
            k++;
        if (k < sizeof nums / sizeof nums[0]) {
            if (text_int(argv[++i], nums[k].lo, nums[k].hi, nums[k].out) < 0)
                return text_fail(err, errlen, "%s: '%.40s' is not a whole number from %d to %d", o, v, nums[k].lo, nums[k].hi);
        } else if (!strcmp(o, "-seed") && v) {
            if (text_u64(argv[++i], 0, UINT64_MAX, &sp->seed) < 0)
                return text_fail(err, errlen, "-seed: '%.40s' is not a number from 0 to 18446744073709551615", v);
        } else if (!strcmp(o, "-preset") && v) {
            sp->preset = argv[++i];
            if (!picket_preset_find(sp->preset) || !*sp->preset)
                return text_fail(err, errlen, "-preset: unknown preset '%.40s' (cotgrave, cotton, ducoeur-letter, ducoeur-report, cavendish)", v);
        } else if (!strcmp(o, "-shard") && v) {
            int a = -1, b = 0, used = 0;
            i++;
            if (sscanf(v, "%d/%d%n", &a, &b, &used) != 2 || v[used] || b < 1 || b > 4096 || a < 0 || a >= b)
                return text_fail(err, errlen, "-shard: '%.40s' is not I/N, shard I of N with 0 <= I < N <= 4096", v);
            sp->shard_index = a, sp->shard_count = b;
        } else if (!strcmp(o, "-out") && v) {
            sp->out_path = argv[++i];
        } else if (!strcmp(o, "-refeature") && v) {
            sp->refeature = argv[++i];
        } else if (!strcmp(o, "-resume")) {
            sp->resume = 1;
        } else if (!strcmp(o, "-quiet")) {
            sp->quiet = 1;
        } else {
            return arena_cli_refuse(USAGE, o, err, errlen);
        }
    }
    if (!sp->out_path)
        return text_fail(err, errlen, "give the examples' file (-out FILE)");
    return picket_rules_build(&sp->rules, sp->preset, NULL, 0, err, errlen);
}

static void check_stdout(void) { lines_check_stdout("picket-selfplay"); }

int main(int argc, char **argv)
{
    atexit(check_stdout);
    int info = arena_cli_help(argc, argv, USAGE, "picket-selfplay " PICKET_VERSION);
    if (info >= 0)
        return info;
    arena_cli_signals(on_signal);
    static selfplay_t sp;
    char err[1200];
    int done = 0;
    struct stat st;
    if (parse_args(&sp, argc, argv, err, sizeof err) < 0 || lines_is_regular(sp.out_path, err, sizeof err) < 0) {
        fprintf(stderr, "picket-selfplay: %s\n", err);
        return 2;
    }
    if (!sp.resume && stat(sp.out_path, &st) == 0 && st.st_size > 0) {
        fprintf(stderr, "picket-selfplay: '%s' already holds examples: add -resume to continue, or choose another file\n", sp.out_path);
        return 2;
    }
    if (sp.refeature) {
        FILE *f = sp.resume ? NULL : fopen(sp.out_path, "w");
        int n = !f ? text_fail(err, sizeof err, sp.resume ? "-refeature and -resume go apart" : "cannot write '%s': %s", sp.out_path, strerror(errno))
                   : refeature(&sp, f, err, sizeof err);
        if (f && fclose(f) != 0 && n >= 0)
            n = text_fail(err, sizeof err, "cannot write '%s': %s", sp.out_path, strerror(errno));
        if (n < 0)
            fprintf(stderr, "picket-selfplay: %s\n", err);
        else if (!sp.quiet)
            fprintf(stderr, "picket-selfplay: %d lines with their shape inputs into %s\n", n, sp.out_path);
        return n < 0;
    }
    if (sp.resume && (done = resume_count(&sp, err, sizeof err)) < 0) {
        fprintf(stderr, "picket-selfplay: %s\n", err);
        return 2;
    }
    FILE *f = fopen(sp.out_path, sp.resume ? "a" : "w");
    sp.world = calloc((size_t)sp.n_worlds, sizeof *sp.world);
    int ref = exref_init(&sp.ref, err, sizeof err);
    worlds_init(&sp.worlds, &PICKET_GAME);
    if (!f || !sp.world || ref < 0) {
        fprintf(stderr, "picket-selfplay: %s\n", !f ? strerror(errno) : ref == 0 ? "out of memory" : err);
        return 1;
    }
    /* The positions of this shard, in order; the first `done` are in the file. */
    int status = 0, mine = 0, written = done, skipped = 0;
    double t0 = measure_now();
    long examples = 0;
    for (int i = sp.shard_index; i < sp.positions && !interrupted; i += sp.shard_count, mine++) {
        if (mine < done)
            continue;
        int rc = position(&sp, i, f, err, sizeof err);
        if (rc < 0) {
            fprintf(stderr, "%spicket-selfplay: %s\n", sp.quiet ? "" : "\n", err);
            status = 1;
            break;
        }
        skipped += rc == 0;
        examples += rc;
        written++;
        if (!sp.quiet && isatty(STDERR_FILENO))
            fprintf(stderr, "\rpicket-selfplay: %d positions, %.1f examples/s", written, (double)examples / (measure_now() - t0));
    }
    if (fclose(f) != 0 && status == 0) {
        fprintf(stderr, "picket-selfplay: cannot write '%s': %s\n", sp.out_path, strerror(errno));
        status = 1;
    }
    if (interrupted && status == 0)
        status = 130;
    double secs = measure_now() - t0;
    if (!sp.quiet)
        fprintf(stderr, "%spicket-selfplay: %d positions in the file (%d without the exchange), %ld examples in %.1f s: %.1f examples/s on one core%s\n",
                isatty(STDERR_FILENO) ? "\n" : "", written, skipped, examples, secs, secs > 0 ? (double)examples / secs : 0.0,
                status == 130 ? " (interrupted: continue with -resume)" : "");
    worlds_free(&sp.worlds);
    exref_free(&sp.ref);
    free(sp.world);
    return status;
}
