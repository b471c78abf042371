/* picket: the utility CLI. Subcommands: rules, score, selfplay, replay, solve, worlds. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bot.h"
#include "measure.h"
#include "match.h"
#include "court.h"
#include "picket.h"
#include "picket_endgame.h"
#include "picket_sampler.h"
#include "picket_score.h"
#include "solver.h"
#include "lines.h"
#include "record.h"

/* The build defines it from CMake's project version; a build without it still says something. */
#ifndef PICKET_VERSION
#define PICKET_VERSION "0.10.0"
#endif

static const char *const USAGE =
    "usage: picket COMMAND [OPTIONS]\n"
    "\n"
    "Picket as the 17th century played it (Cotgrave 1662, Cotton 1674, two modern readings), and\n"
    "Rubicon Piquet as Cavendish's laws of 1882 have it (preset cavendish).\n"
    "\n"
    "commands:\n"
    "  rules      list the presets and rule flags, their values and sources\n"
    "  score      what a 12-card hand scores in Blank, Ruff, Sequences and sets\n"
    "  selfplay   play sets between built-in random bots and print statistics\n"
    "  replay     replay and verify a game record\n"
    "  solve      the exact value of every move of a play-phase position, both hands known\n"
    "  worlds     count and draw the hidden-card worlds a seat's view allows at a point of a record\n"
    "\n"
    "'picket COMMAND --help' describes each command; 'picket --version' prints the version.\n";

/* One line "picket: ..." on stderr; returns 2, the status of a bad command line. */
static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("picket: ", stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return 2;
}

static int is_help(const char *a) { return strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0; }

/* The helpers below read the command line: a bad one ends the program at once with fail's line
 * and its status, 2, as the command itself would return it. */

/* A whole number from lo to hi for option `opt` of command `cmd`: decimal digits only (no sign,
 * space, point or exponent), never wrapped; the message names the option and the range. */
static uint64_t number_arg(const char *cmd, const char *opt, const char *v, uint64_t lo, uint64_t hi)
{
    uint64_t n;
    if (text_u64(v, lo, hi, &n) == 0)
        return n;
    char shown[48];
    text_quote(v, 40, shown, sizeof shown);
    exit(fail("%s: %s must be a whole number from %" PRIu64 " to %" PRIu64 ", not '%s'", cmd, opt, lo, hi, shown));
}

/* Shared option: --preset P and --flag name=value into a game config. Returns 1 if consumed
 * (advancing *i), 0 if not this option. */
static int config_option(int argc, char **argv, int *i, game_config_t *cfg)
{
    char err[GAME_ERR_LEN];
    const char *a = argv[*i];
    if (strcmp(a, "--preset") != 0 && strcmp(a, "--flag") != 0)
        return 0;
    if (*i + 1 >= argc)
        exit(fail("%s needs a value", a));
    const char *v = argv[++*i];
    int rc = strcmp(a, "--preset") == 0 ? game_config_set_preset(cfg, v, err, sizeof err)
                                        : game_config_add_flag(cfg, v, err, sizeof err);
    if (rc < 0)
        exit(fail("%s", err));
    return 1;
}

static void build_rules(const game_config_t *cfg, picket_rules_t *r)
{
    char err[GAME_ERR_LEN];
    if (picket_rules_build(r, cfg->preset, cfg->flags, cfg->n_flags, err, sizeof err) < 0)
        exit(fail("%s", err));
}

/* ---------------------------------------------------------------- rules */

/* Court Circular's rules: its preset, its flag, and every point with its source sentence. */
static int court_rules_list(void)
{
    printf("court-circular: Lewis Carroll, Court Circular (1860), for 2 to 8 players\n");
    printf("presets (default: carroll)\n  %-16s %s\n", "carroll", "the 1860 text, with the rules matrix's rulings");
    printf("\n%-14s %-36s %s\n", "flag", "values", "carroll");
    printf("%-14s %-36s %d\n", "target", "20|50", CC_DEFAULT_TARGET);
    printf("\nrules\n");
    for (int i = 0; i < CC_N_RULINGS; i++)
        printf("  %s: %s\n    source: %s\n", CC_RULINGS[i].point, CC_RULINGS[i].reading, CC_RULINGS[i].source);
    return 0;
}

static int cmd_rules(int argc, char **argv)
{
    const char *game = "picket";
    for (int i = 2; i < argc; i++) {
        if (is_help(argv[i])) {
            printf("usage: picket rules [--game picket|court-circular]\n\nLists a game's presets and every rule "
                   "flag: its values, each preset's\nvalue, and the source sentence behind it (Picket, the default), "
                   "or Court\nCircular's rules point by point with the source's sentence. Override a flag\nwith "
                   "--flag name=value in other commands. docs/rules.md and docs/court.md have\nthe full text.\n");
            return 0;
        }
        if (strcmp(argv[i], "--game") == 0 && i + 1 < argc) {
            game = argv[++i];
            if (strcmp(game, "picket") != 0 && strcmp(game, "court-circular") != 0)
                return fail("rules: unknown game '%s' (picket, court-circular)", game);
            continue;
        }
        return fail("rules: unknown option '%s'", argv[i]);
    }
    if (strcmp(game, "court-circular") == 0)
        return court_rules_list();
    printf("presets (default: %s)\n", PICKET_PRESETS[0].name);
    for (int p = 0; p < PK_PRESET_COUNT; p++)
        printf("  %-16s %s\n", PICKET_PRESETS[p].name, PICKET_PRESETS[p].source);
    printf("\n%-14s %-51s", "flag", "values");
    for (int p = 0; p < PK_PRESET_COUNT; p++)
        printf(" %-18s", PICKET_PRESETS[p].name);
    printf("\n");
    for (int f = 0; f < PK_FLAG_COUNT; f++) {
        const picket_flag_t *fl = &PICKET_FLAGS[f];
        char values[64], buf[16];
        picket_flag_values(fl, values, sizeof values);
        printf("%-14s %-51s", fl->name, values);
        for (int p = 0; p < PK_PRESET_COUNT; p++)
            printf(" %-18s", picket_flag_value_name(fl, picket_flag_get(&PICKET_PRESETS[p].rules, fl), buf, sizeof buf));
        printf("\n");
    }
    printf("\nsources\n");
    for (int f = 0; f < PK_FLAG_COUNT; f++) {
        const picket_flag_t *fl = &PICKET_FLAGS[f];
        printf("  %s: %s\n", fl->name, fl->what);
        for (int p = 0; p < PK_PRESET_COUNT; p++)
            printf("    %-15s %s\n", PICKET_PRESETS[p].name, fl->source[p]);
    }
    return 0;
}

/* ---------------------------------------------------------------- score */

/* The cards of a run in rank order, low to high; their number. */
static int run_cards(cardset_t set, int *cards)
{
    int n = 0;
    for (int r = 0; r < CARD_RANKS; r++)
        for (int s = 0; s < CARD_SUITS; s++)
            if (cardset_has(set, card_make(s, r)))
                cards[n++] = card_make(s, r);
    return n;
}

/* A set of cards as a JSON array of strings, in cardset_format's order, or the order of a run. */
static cJSON *cardset_json(cardset_t set, int run)
{
    cJSON *arr = cJSON_CreateArray();
    int cards[CARD_COUNT], n = run ? run_cards(set, cards) : cardset_to_array(set, cards);
    char c[3];
    for (int i = 0; i < n; i++)
        cJSON_AddItemToArray(arr, cJSON_CreateString(card_format(cards[i], c)));
    return arr;
}

static void format_run(cardset_t set, char *buf, size_t len)
{
    size_t k = 0;
    int cards[CARD_COUNT], n = run_cards(set, cards);
    char c[3];
    buf[0] = '\0';
    for (int i = 0; i < n && k + 4 < len; i++)
        k += (size_t)snprintf(buf + k, len - k, "%s%s", k ? " " : "", card_format(cards[i], c));
}

static const char *const SEQ_NAMES[] = { "", "", "", "tierce", "quart", "quint", "sixieme", "septieme", "huitieme", "neuvieme" };

static int cmd_score(int argc, char **argv)
{
    game_config_t cfg = { 0 };
    int json = 0;
    char text[1024] = "";
    for (int i = 2; i < argc; i++) {
        if (is_help(argv[i])) {
            printf("usage: picket score [--preset P] [--flag name=value] [--json] CARD...\n\n"
                   "Scores a 12-card hand: Blank, Ruff (value, suit, points), the best sequence and every\n"
                   "scoring sequence, and ternaries/quatorzes: what its holder scores in each category\n"
                   "on winning it. Cards: rank 6-9 T J Q K A (or 10), suit C D H S, e.g. AH 10H TD.\n"
                   "The preset decides the pack (deck), whether sequences must be suited, and the\n"
                   "point: the Ruff by pip total, or (point=count, cavendish) by the longest suit's\n"
                   "cards, its value breaking ties (the JSON's ruff then has \"cards\" too).\n"
                   "  --json   one JSON object:\n"
                   "           {\"blank\":bool,\"ruff\":{\"value\":N,\"suit\":\"H\",\"points\":N},\n"
                   "            \"best_sequence\":{\"length\":N,\"top\":\"K\"}|null,\n"
                   "            \"sequences\":[{\"cards\":[...],\"points\":N}],\"sequence_points\":N,\n"
                   "            \"sets\":[{\"rank\":\"A\",\"count\":3,\"points\":3}],\"set_points\":N}\n");
            return 0;
        }
        if (config_option(argc, argv, &i, &cfg))
            continue;
        if (strcmp(argv[i], "--json") == 0) {
            json = 1;
            continue;
        }
        if (argv[i][0] == '-' && argv[i][1] == '-')
            return fail("score: unknown option '%s'", argv[i]);
        if (strlen(text) + strlen(argv[i]) + 2 >= sizeof text)
            return fail("score: %s", "too many cards");
        strcat(text, " ");
        strcat(text, argv[i]);
    }
    picket_rules_t r;
    build_rules(&cfg, &r);
    cardset_t hand;
    char err[GAME_ERR_LEN];
    int n = cards_parse_list(text, cards_pack(r.deck), &hand, err, sizeof err);
    if (n < 0)
        return fail("score: %s", err);
    if (n != PK_HAND_CARDS)
        return fail("score: a hand has 12 cards, not %d", n);
    picket_ruff_t ruff;
    picket_sequences_t seq;
    picket_sets_t sets;
    int by_count = r.point == PK_POINT_COUNT;
    picket_point(hand, by_count, &ruff);
    picket_sequences(hand, r.sequences == PK_SEQ_UNSUITED, &seq);
    picket_sets(hand, &sets);
    int blank = picket_is_blank(hand);
    char buf[256];
    if (json) {
        cJSON *o = cJSON_CreateObject();
        if (!o)
            return fail("score: %s", "out of memory");
        cJSON_AddBoolToObject(o, "blank", blank);
        cJSON *jr = cJSON_AddObjectToObject(o, "ruff");
        cJSON_AddNumberToObject(jr, "value", ruff.value);
        cJSON_AddStringToObject(jr, "suit", (char[]){ CARD_SUIT_CHARS[ruff.suit], '\0' });
        cJSON_AddNumberToObject(jr, "points", ruff.points);
        if (by_count)
            cJSON_AddNumberToObject(jr, "cards", ruff.count);
        if (seq.nruns) {
            cJSON *b = cJSON_AddObjectToObject(o, "best_sequence");
            cJSON_AddNumberToObject(b, "length", seq.best.len);
            cJSON_AddStringToObject(b, "top", (char[]){ CARD_RANK_CHARS[seq.best.top], '\0' });
        } else {
            cJSON_AddNullToObject(o, "best_sequence");
        }
        cJSON *arr = cJSON_AddArrayToObject(o, "sequences");
        for (int i = 0; i < seq.nruns; i++) {
            cJSON *run = cJSON_CreateObject();
            cJSON_AddItemToObject(run, "cards", cardset_json(seq.runs[i].cards, 1));
            cJSON_AddNumberToObject(run, "points", seq.runs[i].points);
            cJSON_AddItemToArray(arr, run);
        }
        cJSON_AddNumberToObject(o, "sequence_points", seq.points);
        arr = cJSON_AddArrayToObject(o, "sets");
        for (int i = 0; i < sets.nsets; i++) {
            cJSON *s = cJSON_CreateObject();
            cJSON_AddStringToObject(s, "rank", (char[]){ CARD_RANK_CHARS[sets.sets[i].rank], '\0' });
            cJSON_AddNumberToObject(s, "count", sets.sets[i].count);
            cJSON_AddNumberToObject(s, "points", sets.sets[i].points);
            cJSON_AddItemToArray(arr, s);
        }
        cJSON_AddNumberToObject(o, "set_points", sets.points);
        char *out = cJSON_PrintUnformatted(o);
        cJSON_Delete(o);
        if (!out)
            return fail("score: %s", "out of memory");
        printf("%s\n", out);
        cJSON_free(out);
        return 0;
    }
    cardset_format(hand, buf, sizeof buf);
    printf("hand       %s\n", buf);
    printf("blank      %s%s\n", blank ? "yes" : "no", blank ? " (10 points)" : "");
    format_run(ruff.cards, buf, sizeof buf);
    if (by_count)
        printf("point      %d cards in %c (%s), making %d: %d points\n", ruff.count, CARD_SUIT_CHARS[ruff.suit], buf,
               ruff.value, ruff.points);
    else
        printf("ruff       %d in %c (%s): %d points\n", ruff.value, CARD_SUIT_CHARS[ruff.suit], buf, ruff.points);
    if (seq.nruns)
        printf("sequence   best: %s to the %c (%d cards)\n", SEQ_NAMES[seq.best.len], CARD_RANK_CHARS[seq.best.top], seq.best.len);
    else
        printf("sequence   none\n");
    for (int i = 0; i < seq.nruns; i++) {
        format_run(seq.runs[i].cards, buf, sizeof buf);
        printf("           %-9s %-30s %2d\n", SEQ_NAMES[seq.runs[i].len], buf, seq.runs[i].points);
    }
    printf("           sequence points: %d\n", seq.points);
    if (!sets.nsets)
        printf("sets       none\n");
    for (int i = 0; i < sets.nsets; i++)
        printf("%-10s %s of %c: %d\n", i ? "" : "sets", sets.sets[i].count == 4 ? "quatorze" : "ternary",
               CARD_RANK_CHARS[sets.sets[i].rank], sets.sets[i].points);
    printf("           set points: %d\n", sets.points);
    return 0;
}

/* ---------------------------------------------------------------- selfplay */

typedef struct selfplay_stats {
    uint64_t hands;
    uint64_t blanks;          /* 12-card hands dealt Blank */
    uint64_t points[PK_CAT_COUNT];
} selfplay_stats_t;

typedef struct record_sink {
    FILE *f;
    selfplay_stats_t *stats;
} record_sink_t;

static void sink_event(void *data, const game_event_t *ev)
{
    selfplay_stats_t *st = ((record_sink_t *)data)->stats;
    if (ev->type == PK_EV_HAND)
        st->hands++;
    else if (ev->type == PK_EV_BLANK)
        st->blanks++;
    else if (ev->type == PK_EV_SCORE)
        st->points[ev->arg] += (uint64_t)ev->a;
}

static void sink_move(void *data, const void *state, int seat, const game_move_t *m)
{
    (void)state;
    record_sink_t *s = data;
    if (s->f)
        record_write_move(s->f, &PICKET_GAME, seat, m);
}

static int cmd_selfplay(int argc, char **argv)
{
    game_config_t cfg = { 0 };
    char err_probe[GAME_ERR_LEN];
    uint64_t sets = 100, seed = 1;
    const char *record_dir = NULL;
    char bot_names[2][BOT_NAME_LEN] = { "random", "random" };
    for (int i = 2; i < argc; i++) {
        if (is_help(argv[i])) {
            char names[256];
            bot_list_names(names, sizeof names, ", ");
            printf("usage: picket selfplay [--preset P] [--flag name=value] [--sets N] [--seed S] [--bots A,B]\n"
                   "                       [--records DIR]\n\n"
                   "Plays N sets (default 100) between two built-in bots (default random,random) in one\n"
                   "process, each bot deciding from its own seat's view, and prints the mean points per hand\n"
                   "in each category, the Blank frequency, the first dealer's set win rate and hands per\n"
                   "second. Set i uses seed S+i, so the same seed gives the same sets.\n"
                   "  --bots A,B     bots: %s. Two different bots play in duplicate: each\n"
                   "                 seed twice, seats swapped, and A's score is reported over the pairs\n"
                   "                 with a 95%% interval\n"
                   "  --records DIR  also write each set as a game record DIR/set-NNNNNN.txt\n",
                   names);
            return 0;
        }
        if (config_option(argc, argv, &i, &cfg))
            continue;
        const char *a = argv[i];
        if ((strcmp(a, "--sets") == 0 || strcmp(a, "--seed") == 0 || strcmp(a, "--records") == 0 ||
             strcmp(a, "--bots") == 0) && i + 1 >= argc)
            return fail("selfplay: %s needs a value", a);
        if (strcmp(a, "--bots") == 0) {
            const char *v = argv[++i], *comma = strchr(v, ',');
            if (!comma || (size_t)(comma - v) >= BOT_NAME_LEN || strlen(comma + 1) >= BOT_NAME_LEN)
                return fail("selfplay: --bots needs two names, e.g. heuristic,random; not '%s'", v);
            snprintf(bot_names[0], BOT_NAME_LEN, "%.*s", (int)(comma - v), v);
            snprintf(bot_names[1], BOT_NAME_LEN, "%s", comma + 1);
            for (int b = 0; b < 2; b++) {
                bot_t *probe = bot_create(bot_names[b], &PICKET_GAME, 0, err_probe, sizeof err_probe);
                if (!probe)
                    return fail("selfplay: %s", err_probe);
                bot_free(probe);
            }
            continue;
        }
        if (strcmp(a, "--sets") == 0) {
            sets = number_arg("selfplay", a, argv[++i], 1, 100000000);
        } else if (strcmp(a, "--seed") == 0) {
            seed = number_arg("selfplay", a, argv[++i], 0, UINT64_MAX);
        } else if (strcmp(a, "--records") == 0) {
            record_dir = argv[++i];
            if (mkdir(record_dir, 0777) < 0 && errno != EEXIST)
                return fail("selfplay: cannot create the folder '%s'", record_dir);
        } else {
            return fail("selfplay: unknown option '%s'", a);
        }
    }
    picket_rules_t rules;
    build_rules(&cfg, &rules);
    if (!cfg.preset[0])
        snprintf(cfg.preset, sizeof cfg.preset, "%s", PICKET_PRESETS[0].name);
    const game_t *g = &PICKET_GAME;
    picket_state_t state;
    selfplay_stats_t stats = { 0 };
    uint64_t first_dealer_wins = 0;
    int tty = isatty(STDERR_FILENO);
    double start = measure_now(), last_progress = start;
    char err[GAME_ERR_LEN];
    int duplicate = strcmp(bot_names[0], bot_names[1]) != 0;
    int games_per_set = duplicate ? 2 : 1;
    uint64_t pair_wins[3] = { 0, 0, 0 }; /* sets by how many of its games A won */
    for (uint64_t i = 0; i < sets; i++) {
        cfg.deal_seed = seed + i;
        int a_won_pair = 0;
        for (int swap = 0; swap < games_per_set; swap++) {
            bot_t *bots[2];
            /* Seat s holds bot A (index 0) unless swapped; each bot keeps its stream per seed. */
            for (int s = 0; s < 2; s++) {
                int which = s ^ swap;
                bots[s] = bot_create(bot_names[which], g, rng_derive(cfg.deal_seed, 100 + (uint64_t)which), err, sizeof err);
                if (!bots[s])
                    return fail("selfplay: %s", err);
            }
            record_sink_t sink = { NULL, &stats };
            if (record_dir) {
                char path[4096];
                snprintf(path, sizeof path, "%s/set-%06" PRIu64 "%s.txt", record_dir, i,
                         duplicate ? (swap ? "-b" : "-a") : "");
                if (!(sink.f = fopen(path, "w")))
                    return fail("selfplay: cannot write %s", path);
                record_write_header(sink.f, g, &cfg);
                fprintf(sink.f, "# seat 0: %s, seat 1: %s\n", bots[0]->name, bots[1]->name);
            }
            referee_hooks_t hooks = { sink_event, sink_move, &sink };
            int rc = match_play(g, &cfg, bots, &state, &hooks, err, sizeof err);
            bot_free(bots[0]);
            bot_free(bots[1]);
            if (sink.f) {
                record_write_result(sink.f, g, &state);
                if (fclose(sink.f) != 0)
                    return fail("selfplay: %s", "cannot finish writing a record");
            }
            if (rc < 0)
                return fail("selfplay: %s", err);
            int first_dealer = state.pub.cut[0] >= 0 && card_rank(state.pub.cut[0]) < card_rank(state.pub.cut[1]) ? 0 : 1;
            first_dealer_wins += state.pub.winner == first_dealer;
            a_won_pair += state.pub.winner == swap; /* A sits at seat `swap` */
        }
        pair_wins[a_won_pair]++;
        double t = measure_now();
        if (tty && t - last_progress > 0.25) {
            fprintf(stderr, "\rselfplay: %" PRIu64 "/%" PRIu64 " sets, %.0f hands/s ", i + 1, sets,
                    (double)stats.hands / (t - start));
            last_progress = t;
        }
    }
    double elapsed = measure_now() - start;
    if (tty)
        fprintf(stderr, "\r%60s\r", "");
    uint64_t games = sets * (uint64_t)games_per_set;
    printf("selfplay: preset %s, %" PRIu64 " sets, seed %" PRIu64 ", %s vs %s%s\n", cfg.preset, games, seed,
           bot_names[0], bot_names[1], duplicate ? " (duplicate: each seed twice, seats swapped)" : "");
    for (int f = 0; f < cfg.n_flags; f++)
        printf("flag %s\n", cfg.flags[f]);
    printf("hands played            %" PRIu64 " (%.2f per set)\n", stats.hands, (double)stats.hands / (double)games);
    printf("mean points per hand, both players together:\n");
    double total = 0;
    for (int c = 0; c < PK_CAT_COUNT; c++) {
        double m = (double)stats.points[c] / (double)stats.hands;
        total += m;
        printf("  %-12s %8.3f\n", PK_CAT_NAMES[c], m);
    }
    printf("  %-12s %8.3f\n", "total", total);
    printf("blank frequency         %.5f of 12-card hands (1 in %.0f)\n",
           (double)stats.blanks / (2.0 * (double)stats.hands),
           stats.blanks ? 2.0 * (double)stats.hands / (double)stats.blanks : 0.0);
    printf("first dealer wins       %.4f of sets\n", (double)first_dealer_wins / (double)games);
    if (duplicate) {
        /* Score over pairs: each pair is worth 0, 1/2 or 1 to A; the interval is the normal
         * approximation over pairs, which removes most of the luck of the deal. */
        double mean, half;
        measure_interval((double)pair_wins[1] * 0.5 + (double)pair_wins[2],
                         (double)pair_wins[1] * 0.25 + (double)pair_wins[2], (double)sets, &mean, &half);
        printf("%s vs %s          %" PRIu64 " pairs: %" PRIu64 " won both, %" PRIu64 " split, %" PRIu64 " lost both\n",
               bot_names[0], bot_names[1], sets, pair_wins[2], pair_wins[1], pair_wins[0]);
        printf("%s score            %.4f +- %.4f (95%%), %" PRIu64 " of %" PRIu64 " sets won\n", bot_names[0], mean, half,
               pair_wins[1] + 2 * pair_wins[2], games);
    }
    printf("hands per second        %.0f\n", (double)stats.hands / elapsed);
    return 0;
}

/* ---------------------------------------------------------------- replay */

/* A file of records ("-": standard input) and a reader of it into *rd; NULL after the message
 * when it cannot be opened, is a folder, or there is no memory for the reader. */
static FILE *open_records(const char *cmd, const char *path, record_reader_t **rd)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
    if (!f) {
        fail("%s: cannot open '%s'", cmd, path);
        return NULL;
    }
    struct stat sb;
    if (fstat(fileno(f), &sb) == 0 && S_ISDIR(sb.st_mode))
        fail("%s: '%s' is a folder, not a record", cmd, path);
    else if (f != stdin && !S_ISREG(sb.st_mode))
        fail("%s: '%s' is not a regular file (give - to read standard input)", cmd, path);
    else if (!(*rd = record_reader_create(f)))
        fail("%s: out of memory", cmd);
    else
        return f;
    if (f != stdin)
        fclose(f);
    return NULL;
}

static void print_event(void *data, const game_t *g, const game_event_t *ev)
{
    (void)data;
    char buf[300];
    g->event_format(ev, buf, sizeof buf);
    if (ev->audience == GAME_ALL)
        printf("  %s\n", buf);
    else
        printf("  [to %d] %s\n", ev->audience, buf);
}

static int cmd_replay(int argc, char **argv)
{
    const char *path = NULL;
    int verbose = 0;
    for (int i = 2; i < argc; i++) {
        if (is_help(argv[i])) {
            printf("usage: picket replay [--verbose] FILE\n\n"
                   "Replays a game record (docs/records.md), verifying every move against the rules\n"
                   "and the result line against the replay. Prints the outcome, or one line naming the\n"
                   "first line that does not fit and why (exit status 1). FILE '-' reads standard input.\n"
                   "A file of many records, one after another (the arena's -records FILE.txt), is read\n"
                   "whole: one line for each record, 'record K (line N): ok, ...' or, on standard error,\n"
                   "'record K, line N: reason', then a count; the exit status is 1 if any record fails.\n"
                   "  --verbose  print every event of the game as the referee saw it\n");
            return 0;
        }
        if (strcmp(argv[i], "--verbose") == 0 || strcmp(argv[i], "-v") == 0)
            verbose = 1;
        else if (argv[i][0] == '-' && argv[i][1])
            return fail("replay: unknown option '%s'", argv[i]);
        else if (path)
            return fail("replay: %s", "give one FILE");
        else
            path = argv[i];
    }
    if (!path)
        return fail("replay: %s", "no FILE given (see picket replay --help)");
    record_reader_t *rd;
    FILE *f = open_records("replay", path, &rd);
    if (!f)
        return 2;
    /* One record prints as it always did; a file of many, one line a record and a count. Which
     * it is shows after the first record: the reader has then seen whether another follows. */
    int many = 0, ok = 0, failed = 0, rc;
    record_t rec;
    char err[300], outcome[128];
    while ((rc = record_reader_next(rd, &rec, verbose ? print_event : NULL, NULL, err, sizeof err)) != 0) {
        many = many || record_reader_more(rd);
        if (rc < 0) {
            failed++;
            if (many)
                fprintf(stderr, "picket: replay: %s: record %d, %s\n", path, rec.number, err);
            else
                fprintf(stderr, "picket: replay: %s: %s\n", path, err);
        } else {
            ok++;
            if (!record_format_result(rec.game, rec.state, "-", outcome, sizeof outcome))
                snprintf(outcome + strlen(outcome), sizeof outcome - strlen(outcome), " unfinished");
            if (many)
                printf("record %d (line %d): ok, %d moves, %s%s%s\n", rec.number, rec.first_line, rec.moves, outcome,
                       rec.forfeit[0] ? ", forfeit: " : "", rec.forfeit);
            else /* the scores alone: the outcome up to its first space */
                printf("ok: %s, %d moves, scores %.*s, %s%s%s\n", rec.game->name, rec.moves, (int)strcspn(outcome, " "),
                       outcome, rec.game->to_move(rec.state) == GAME_OVER ? "game over" : "game unfinished",
                       rec.forfeit[0] ? ", forfeit: " : "", rec.forfeit);
        }
        record_free(&rec);
    }
    record_reader_free(rd);
    if (f != stdin)
        fclose(f);
    if (many)
        printf("%d records: %d ok, %d failed\n", ok + failed, ok, failed);
    return failed ? 1 : 0;
}


/* ---------------------------------------------------------------- solve */

static int cmd_solve(int argc, char **argv)
{
    game_config_t cfg = { 0 };
    const char *hand_text[2] = { NULL, NULL }, *lead_text = NULL;
    int to_move = 0, tricks[2] = { 0, 0 }, tt_mb = 16;
    for (int i = 2; i < argc; i++) {
        if (is_help(argv[i])) {
            printf("usage: picket solve [--preset P] [--flag name=value] --hand0 CARDS --hand1 CARDS\n"
                   "                    [--to-move S] [--lead CARD] [--tricks N0 N1] [--tt-mb MB]\n\n"
                   "The exact value of the rest of the hand's play, both hands known: for every legal move\n"
                   "of the seat to move, its points minus the other seat's from here on, under the preset's\n"
                   "scoring of play (points in play, last trick, cards and capot; a Pique is not counted\n"
                   "here), and the principal line.\n"
                   "  --hand0/--hand1  the cards each seat holds now, e.g. \"AH KH 9S\" (quote them)\n"
                   "  --to-move S      the seat to play (default 0)\n"
                   "  --lead CARD      the card the other seat has led to this trick, if any\n"
                   "  --tricks N0 N1   tricks won so far by seat 0 and seat 1 (default 0 0)\n"
                   "  --tt-mb MB       transposition table size (default 16)\n");
            return 0;
        }
        if (config_option(argc, argv, &i, &cfg))
            continue;
        const char *a = argv[i];
        int need = !strcmp(a, "--tricks") ? 2 : 1;
        if (i + need >= argc)
            return fail("solve: %s needs a value", a);
        if (!strcmp(a, "--hand0") || !strcmp(a, "--hand1"))
            hand_text[a[6] - '0'] = argv[++i];
        else if (!strcmp(a, "--lead"))
            lead_text = argv[++i];
        else if (!strcmp(a, "--to-move"))
            to_move = (int)number_arg("solve", a, argv[++i], 0, 1);
        else if (!strcmp(a, "--tricks"))
            for (int k = 0; k < 2; k++)
                tricks[k] = (int)number_arg("solve", a, argv[++i], 0, PK_TRICKS);
        else if (!strcmp(a, "--tt-mb"))
            tt_mb = (int)number_arg("solve", a, argv[++i], 1, 65536);
        else
            return fail("solve: unknown option '%s'", a);
    }
    picket_rules_t r;
    build_rules(&cfg, &r);
    if (!hand_text[0] || !hand_text[1])
        return fail("solve: %s", "give both hands: --hand0 CARDS --hand1 CARDS");
    cardset_t hands[2], lead_set = 0;
    char err[GAME_ERR_LEN];
    for (int k = 0; k < 2; k++)
        if (cards_parse_list(hand_text[k], cards_pack(r.deck), &hands[k], err, sizeof err) < 0)
            return fail("solve: %s", err);
    if (lead_text && cards_parse_list(lead_text, cards_pack(r.deck), &lead_set, err, sizeof err) != 1)
        return fail("solve: %s", lead_text && cardset_count(lead_set) != 1 ? "--lead takes one card" : err);
    if ((hands[0] & hands[1]) || ((hands[0] | hands[1]) & lead_set))
        return fail("solve: %s", "a card is given twice");
    int n0 = cardset_count(hands[to_move]), n1 = cardset_count(hands[1 - to_move]);
    if (n0 > PK_TRICKS || n0 == 0 || n0 != n1 + (lead_set ? 1 : 0))
        return fail("solve: %s", lead_set ? "with a lead, the seat to move holds one card more than the other"
                                          : "both hands must hold the same number of cards, 1 to 12");
    if (tricks[0] + tricks[1] + n0 != PK_TRICKS)
        return fail("solve: %s", "tricks won so far plus cards in hand must make 12 tricks (see --tricks)");
    picket_end_t pos;
    picket_end_make(&pos, &r, hands[0], hands[1], to_move, lead_set ? cardset_first(lead_set) : -1, tricks[0], tricks[1]);
    solver_t *s = solver_create(&PICKET_ENDGAME, (size_t)tt_mb, err, sizeof err);
    if (!s)
        return fail("solve: %s", err);
    uint8_t moves[ENDGAME_MAX_MOVES], line[SOLVER_MAX_LINE];
    int values[ENDGAME_MAX_MOVES];
    double t0 = measure_now();
    int n = solver_all(s, &pos, moves, values);
    int len = solver_line(s, &pos, line, SOLVER_MAX_LINE);
    double t = measure_now() - t0;
    char c[3];
    printf("seat %d to move%s%s; value for seat %d, its points minus seat %d's from here on:\n", to_move,
           lead_set ? ", following " : "", lead_set ? card_format(cardset_first(lead_set), c) : "", to_move, 1 - to_move);
    bot_rank_t order[ENDGAME_MAX_MOVES]; /* best first */
    for (int i = 0; i < n; i++)
        order[i] = (bot_rank_t){ values[i], i };
    bot_rank_sort(order, n);
    for (int i = 0; i < n; i++)
        printf("  play %s  %+d\n", card_format(moves[order[i].index], c), values[order[i].index]);
    printf("principal line:");
    picket_end_t cur = pos, next;
    for (int i = 0; i < len; i++) {
        int who = PICKET_ENDGAME.to_move(&cur);
        if (cur.lead < 0 && i)
            printf(" |");
        printf(" %d:%s", who, card_format(line[i], c));
        PICKET_ENDGAME.play(&cur, line[i], &next);
        cur = next;
    }
    const solver_stats_t *st = solver_stats(s);
    printf("\n%" PRIu64 " nodes, %.1f ms\n", st->nodes, 1e3 * t);
    fflush(stdout);
    solver_free(s);
    return 0;
}

/* ---------------------------------------------------------------- worlds */

enum { WORLDS_SAMPLES = 3, WORLDS_MAX_SAMPLES = 100000, WORLDS_SEED = 1 };

/* Both seats' views, each built from the events that seat would have received as the record
 * replays: the view is chosen once the replay shows who is to move. */
typedef struct worlds_views {
    picket_view_t v[2];
    char why[2][240]; /* the first event a seat's view refused, or "" */
} worlds_views_t;

static void worlds_event(void *data, const game_t *g, const game_event_t *ev)
{
    worlds_views_t *w = data;
    for (int s = 0; s < 2; s++)
        if (!w->why[s][0] && game_event_visible(ev, s) && g->view_apply(&w->v[s], ev) < 0) {
            char text[160];
            g->event_format(ev, text, sizeof text);
            snprintf(w->why[s], sizeof w->why[s], "seat %d's view refused the event '%s'", s, text);
        }
}

static void print_cards(const char *label, cardset_t set)
{
    char buf[256];
    cardset_format(set, buf, sizeof buf);
    printf("%-16s%s\n", label, set ? buf : "(none)");
}

/* One JSON object for the command's answer; 0, or -1 if out of memory. */
static int worlds_json(int seat, uint64_t after, uint64_t worlds, uint64_t holdings, const picket_world_t *w, int n)
{
    char num[24];
    cJSON *o = cJSON_CreateObject(), *arr = NULL;
    int ok = o && cJSON_AddNumberToObject(o, "seat", seat) && cJSON_AddNumberToObject(o, "after", (double)after);
    /* cJSON keeps numbers as doubles: the counts are written as their exact digits. */
    snprintf(num, sizeof num, "%" PRIu64, worlds);
    ok = ok && cJSON_AddRawToObject(o, "worlds", num);
    snprintf(num, sizeof num, "%" PRIu64, holdings);
    ok = ok && cJSON_AddRawToObject(o, "holdings", num);
    ok = ok && (arr = cJSON_AddArrayToObject(o, "samples"));
    for (int k = 0; ok && k < n; k++) {
        cJSON *one = cJSON_CreateObject();
        ok = one && cJSON_AddItemToArray(arr, one) &&
             cJSON_AddItemToObject(one, "holding", cardset_json(w[k].opp_holding, 0)) &&
             cJSON_AddItemToObject(one, "discards", cardset_json(w[k].opp_discard, 0)) &&
             cJSON_AddItemToObject(one, "stock", cardset_json(w[k].stock_unseen, 0));
    }
    char *out = ok ? cJSON_PrintUnformatted(o) : NULL;
    cJSON_Delete(o);
    if (!out)
        return -1;
    printf("%s\n", out);
    cJSON_free(out);
    return 0;
}

static int cmd_worlds(int argc, char **argv)
{
    const char *path = NULL, *after_text = NULL;
    int seat = -1, json = 0;
    uint64_t samples = WORLDS_SAMPLES, seed = WORLDS_SEED, after = 0;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (is_help(a)) {
            printf("usage: picket worlds [--seat S] [--after N] [--sample K] [--seed X] [--json] RECORD\n\n"
                   "Replays a game record (docs/records.md) through its first N moves and takes seat S's\n"
                   "view there, built from the events S was told. Prints how many worlds agree with that\n"
                   "view, how many distinct holdings of the opponent they allow, and K worlds drawn\n"
                   "uniformly among them (engine/picket/picket_sampler.h). A world is the deal of the hand\n"
                   "in progress with the opponent's discards; worlds that differ only in the order of\n"
                   "stock cards S cannot tell apart count as one. His holding is his hand now plus the\n"
                   "cards he played this hand. Counts are exact, in full.\n"
                   "  --seat S    the view: 0 or 1 (default: the seat to move; give it once the set is over)\n"
                   "  --after N   replay the first N move lines: 0 (the first deal) up to all (the default)\n"
                   "  --sample K  worlds to draw, 0 to %d (default %d)\n"
                   "  --seed X    the draws' seed (default %d): the same command prints the same worlds\n"
                   "  --json      one JSON object: {\"seat\":S,\"after\":N,\"worlds\":W,\"holdings\":H,\n"
                   "              \"samples\":[{\"holding\":[\"AS\",...],\"discards\":[...],\"stock\":[...]},...]}:\n"
                   "              the opponent's holding, his discards (none before his exchange) and the\n"
                   "              stock cards S has not seen (his draws among them); cards in the order\n"
                   "              picket writes a set\n"
                   "RECORD is a file holding one record (picket replay reads a file of many).\n",
                   WORLDS_MAX_SAMPLES, WORLDS_SAMPLES, WORLDS_SEED);
            return 0;
        }
        if (strcmp(a, "--json") == 0) {
            json = 1;
            continue;
        }
        if (!strcmp(a, "--seat") || !strcmp(a, "--after") || !strcmp(a, "--sample") || !strcmp(a, "--seed")) {
            if (i + 1 >= argc)
                return fail("worlds: %s needs a value", a);
            const char *val = argv[++i];
            if (!strcmp(a, "--seat")) {
                seat = (int)number_arg("worlds", a, val, 0, 1);
            } else if (!strcmp(a, "--after")) {
                /* The range is the record's: checked once it is read. */
                if (text_u64(val, 0, UINT64_MAX, &after) < 0) {
                    char shown[48];
                    text_quote(val, 40, shown, sizeof shown);
                    return fail("worlds: --after must be a whole number of moves, from 0 to the record's, not '%s'", shown);
                }
                after_text = val;
            } else if (!strcmp(a, "--sample")) {
                samples = number_arg("worlds", a, val, 0, WORLDS_MAX_SAMPLES);
            } else {
                seed = number_arg("worlds", a, val, 0, UINT64_MAX);
            }
            continue;
        }
        if (strcmp(a, "-") == 0)
            return fail("worlds: %s", "RECORD must be a file, not standard input (it is read twice)");
        if (a[0] == '-')
            return fail("worlds: unknown option '%s'", a);
        if (path)
            return fail("worlds: %s", "give one RECORD");
        path = a;
    }
    if (!path)
        return fail("worlds: %s", "no RECORD given (see picket worlds --help)");

    /* First the whole record, verified: its length, and that it is one Picket record. */
    record_reader_t *rd;
    FILE *f = open_records("worlds", path, &rd);
    if (!f)
        return 2;
    record_t rec;
    char err[320];
    int rc = record_reader_next(rd, &rec, NULL, NULL, err, sizeof err), more = record_reader_more(rd);
    record_reader_free(rd);
    const char *game = rec.game ? rec.game->name : "";
    game_config_t cfg = rec.cfg;
    uint64_t total = (uint64_t)rec.moves;
    record_free(&rec);
    int status = 0;
    if (rc < 0) {
        fprintf(stderr, "picket: worlds: %s: %s\n", path, err);
        status = 1;
    } else if (more)
        status = fail("worlds: '%s' holds more than one record; give a file of one (picket replay reads many)", path);
    else if (strcmp(game, PICKET_GAME.name) != 0)
        status = fail("worlds: '%s' is not a Picket record", path);
    else if (after_text && after > total)
        status = fail("worlds: --after %" PRIu64 " is beyond the record: '%s' has %" PRIu64 " moves", after, path, total);
    if (status) {
        fclose(f);
        return status;
    }
    if (!after_text)
        after = total;

    /* Then its first `after` moves again, each seat's view following the events it is told. */
    static worlds_views_t wv; /* zero: no event refused yet */
    for (int s = 0; s < 2; s++)
        if (PICKET_GAME.view_init(&wv.v[s], &cfg, s, err, sizeof err) < 0) {
            fclose(f);
            return fail("worlds: %s", err);
        }
    rd = fseek(f, 0, SEEK_SET) == 0 ? record_reader_create(f) : NULL;
    if (rd) {
        record_reader_stop_after(rd, (int)after);
        rc = record_reader_next(rd, &rec, worlds_event, &wv, err, sizeof err);
        record_reader_free(rd);
    }
    int unreadable = ferror(f);
    fclose(f);
    if (!rd || unreadable) {
        if (rd)
            record_free(&rec);
        return fail("worlds: %s", unreadable ? "cannot read the record again" : "out of memory");
    }
    if (rc < 0) {
        record_free(&rec);
        fprintf(stderr, "picket: worlds: %s: %s\n", path, err);
        return 1;
    }
    /* The position, kept: the record's referee goes now. */
    picket_state_t state = *(const picket_state_t *)rec.state;
    record_free(&rec);
    int to_move = picket_to_move(&state);
    if (seat < 0 && to_move < 0)
        return fail("worlds: no seat is to move after %" PRIu64 " moves (%s); choose the view with --seat 0 or --seat 1",
                    after, to_move == GAME_OVER ? "the set is over" : "a deal is due");
    if (seat < 0)
        seat = to_move;
    const picket_view_t *view = &wv.v[seat];
    picket_view_t check;
    picket_view_from_state(&state, seat, &check);
    const char *diff = wv.why[seat][0] ? wv.why[seat] : picket_view_diff(view, &check);
    if (diff)
        return fail("worlds: internal error: seat's view from the events disagrees with the position (%s)", diff);
    picket_pub_t pub = state.pub;

    picket_sampler_t *smp = picket_sampler_new(view, PK_SAMPLER_EXACT, err, sizeof err);
    if (!smp)
        return fail("worlds: the sampler refused the view: %s", err);
    uint64_t worlds = picket_sampler_worlds(smp), holdings = picket_sampler_holdings(smp);
    picket_world_t *drawn = calloc(samples ? samples : 1, sizeof *drawn);
    if (!drawn) {
        picket_sampler_free(smp);
        return fail("worlds: %s", "out of memory");
    }
    rng_t rng;
    rng_seed(&rng, seed);
    int n = 0;
    while ((uint64_t)n < samples && worlds > 0 && picket_sampler_draw(smp, &rng, &drawn[n], NULL) == 0)
        n++;
    picket_sampler_free(smp);
    if ((uint64_t)n < samples && worlds > 0) {
        free(drawn);
        return fail("worlds: internal error: %" PRIu64 " worlds counted, but drawing world %d failed", worlds, n + 1);
    }

    if (json) {
        rc = worlds_json(seat, after, worlds, holdings, drawn, n);
        free(drawn);
        return rc < 0 ? fail("worlds: %s", "out of memory") : 0;
    }
    int opp = 1 - seat;
    printf("record          %s: picket, preset %s, %" PRIu64 " moves\n", path, picket_preset_find(cfg.preset)
           ? picket_preset_find(cfg.preset)->name : cfg.preset, total);
    printf("position        after %" PRIu64 " moves: hand %d, %s", after, pub.hand_no, PK_PHASE_NAMES[pub.phase]);
    if (pub.phase == PK_PH_PLAY)
        printf(", trick %d", pub.trick_no + 1);
    if (to_move >= 0)
        printf(", seat %d to move\n", to_move);
    else
        printf(", %s\n", to_move == GAME_OVER ? "the set is over" : "a deal is due");
    printf("view            seat %d (%s)\n", seat,
           pub.hand_no == 0 ? "before the deal" : seat == picket_elder(&pub) ? "elder" : "younger");
    print_cards("  holds", view->hand);
    print_cards("  played", pub.played[seat]);
    print_cards("  discarded", view->discards);
    printf("worlds          %" PRIu64 "\n", worlds);
    printf("holdings        %" PRIu64 " (seat %d's hand now with the cards he played this hand)\n", holdings, opp);
    for (int k = 0; k < n; k++) {
        printf("sample %d of %d (seed %" PRIu64 ")\n", k + 1, n, seed);
        print_cards("  holding", drawn[k].opp_holding);
        print_cards("  discards", drawn[k].opp_discard);
        print_cards("  stock unseen", drawn[k].stock_unseen);
    }
    free(drawn);
    return 0;
}

/* Output that could not be written is an error (lines_check_stdout). */
static void check_stdout(void) { lines_check_stdout("picket"); }

int main(int argc, char **argv)
{
    atexit(check_stdout);
    if (argc < 2) {
        fputs(USAGE, stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (is_help(cmd) || strcmp(cmd, "help") == 0) {
        fputs(USAGE, stdout);
        return 0;
    }
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "-version") == 0) {
        printf("picket %s\n", PICKET_VERSION);
        return 0;
    }
    static const struct {
        const char *name;
        int (*run)(int argc, char **argv);
    } COMMANDS[] = { { "rules", cmd_rules },   { "score", cmd_score }, { "selfplay", cmd_selfplay },
                     { "replay", cmd_replay }, { "solve", cmd_solve }, { "worlds", cmd_worlds } };
    for (size_t i = 0; i < sizeof COMMANDS / sizeof COMMANDS[0]; i++)
        if (strcmp(cmd, COMMANDS[i].name) == 0)
            return COMMANDS[i].run(argc, argv);
    return fail("unknown command '%s' (rules, score, selfplay, replay, solve, worlds; see picket --help)", cmd);
}
