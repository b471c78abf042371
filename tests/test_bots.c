/* Bots and options (search/bot.h, search/options.h, protocol/session.c; docs/protocol.md §3):
 *  - one table of bots: every bot creates and decides, an unknown name is refused with the
 *    table's names, and the engine's `bot` option lists exactly the table;
 *  - every declared option (the session's and every bot's) has a help text and a default that
 *    its own declaration accepts, inside its range; names never collide;
 *  - values are checked strictly for every type (range, NaN, infinities, trailing bytes,
 *    overflow), refused with one line;
 *  - the heuristic's weights are options: setting one through setoption changes analyze's values,
 *    setting it back restores them, and a bot made later gets the current values;
 *  - the strength levels: each is exactly its bot and budgets as setoptions name them (level 2
 *    the heuristic, level 5 a fresh engine), a later setoption overrides them, a bad level is
 *    refused with one line and changes nothing;
 *  - list_commands prints exactly the dispatch table;
 *  - view -> position -> view is the identity even with 32 long flags, and setoption of a value
 *    near the line limit uses no stack for it (it runs in a 64 KiB thread stack).
 */
#include <CUnit/CUnit.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bot.h"
#include "game.h"
#include "options.h"
#include "picket.h"
#include "session.h"
#include "test_util.h"

/* ---------------------------------------------------------------- a session on a memory stream */

typedef struct talk {
    session_t *s;
    FILE *out;
    char *buf;
    size_t size, read;
} talk_t;

static void talk_open(talk_t *t)
{
    memset(t, 0, sizeof *t);
    t->out = open_memstream(&t->buf, &t->size);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t->out);
    t->s = session_create(t->out, -1, "picket-engine 0.1", "the picket project");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t->s);
}

static void talk_close(talk_t *t)
{
    session_free(t->s);
    fclose(t->out);
    free(t->buf);
}

/* Send one line; the session's new output, valid until the next call. */
static const char *say(talk_t *t, const char *line)
{
    session_handle_line(t->s, line);
    fflush(t->out);
    const char *fresh = t->buf + t->read;
    t->read = t->size;
    return fresh;
}

/* A line of the output is one reply: "?..." with no second line. */
static int one_error_line(const char *out)
{
    return out[0] == '?' && strchr(out, '\n') == out + strlen(out) - 1;
}

/* The position of docs/protocol.md §7: seat 1 is to call. */
static const char *CALL_POSITION =
    "position game picket preset cotgrave seat 1 seed 1001 events cut 6D QH dealer 0; hand 1 dealer 0 stock 12; "
    "dealt 1 7C 8C TC QC TD QD KD 9H TH KH KS AS; turn 1 elder-exchange; discard 1 4; discard 1 4 7C 8C QC 9H; "
    "draw 1 4; draw 1 4 KC AC JD 6S; peek 1 4 6H; peek 1 5 AD; peek 1 6 TS; peek 1 7 8H; turn 0 younger-exchange; "
    "discard 0 6; draw 0 6; turn 1 call";

/* ---------------------------------------------------------------- the table of bots */

/* Every bot of the table is made for every registered game (or refused with a reason, for a
 * game it cannot play), and decides a legal move in a dealt Picket hand. */
static void test_every_bot_creates_and_decides(void)
{
    int nb, ng;
    const bot_def_t *bots = bot_list(&nb);
    const game_t *const *games = game_list(&ng);
    CU_ASSERT(nb >= 2);
    for (int i = 0; i < nb; i++) {
        CU_ASSERT_PTR_EQUAL(bot_find(bots[i].name), &bots[i]);
        CU_ASSERT(bots[i].help && bots[i].help[0]);
        CU_ASSERT(strlen(bots[i].name) < BOT_NAME_LEN);
        for (int j = 0; j < i; j++)
            CU_ASSERT(strcmp(bots[i].name, bots[j].name) != 0);
        for (int k = 0; k < ng; k++) {
            char err[GAME_ERR_LEN] = "";
            bot_t *b = bot_create(bots[i].name, games[k], 1, err, sizeof err);
            if (!b) {
                CU_ASSERT(err[0] != '\0');
                continue;
            }
            CU_ASSERT_STRING_EQUAL(b->name, bots[i].name);
            bot_free(b);
        }
        /* A decision in the first exchange of a Picket set. */
        const game_t *g = &PICKET_GAME;
        game_config_t cfg = { 0 };
        cfg.deal_seed = 7;
        picket_state_t st;
        char err[GAME_ERR_LEN];
        CU_ASSERT_FATAL(g->init(&st, &cfg, err, sizeof err) == 0);
        game_event_t ev[GAME_MAX_EVENTS];
        while (g->to_move(&st) == GAME_CHANCE)
            g->apply_chance(&st, NULL, ev, GAME_MAX_EVENTS);
        picket_view_t v;
        g->view_from_state(&st, g->to_move(&st), &v);
        bot_t *b = bot_create(bots[i].name, g, 3, err, sizeof err);
        CU_ASSERT_PTR_NOT_NULL_FATAL(b);
        game_move_t m;
        CU_ASSERT(bot_choose(b, &v, &m) == 0);
        CU_ASSERT(g->is_legal(&st, &m, err, sizeof err) == 1);
        bot_free(b);
    }
}


static void test_unknown_bot_is_refused_with_the_known_names(void)
{
    char err[GAME_ERR_LEN], known[128], want[512];
    bot_list_names(known, sizeof known, ", ");
    snprintf(want, sizeof want, "unknown bot 'oracle' (known: %s)", known);
    CU_ASSERT_PTR_NULL(bot_create("oracle", &PICKET_GAME, 1, err, sizeof err));
    CU_ASSERT_STRING_EQUAL(err, want);
    CU_ASSERT_PTR_NULL(bot_create("", &PICKET_GAME, 1, err, sizeof err));
    CU_ASSERT_PTR_NULL(bot_find("Random"));
}

/* The engine's `bot` option offers exactly the table's bots, in its order. */
static void test_bot_option_lists_the_table(void)
{
    talk_t t;
    talk_open(&t);
    int nb, no;
    const bot_def_t *bots = bot_list(&nb);
    const opt_def_t *own = session_options(t.s, &no);
    const opt_def_t *o = opt_find(own, no, "bot");
    CU_ASSERT_PTR_NOT_NULL_FATAL(o);
    CU_ASSERT_EQUAL(o->type, OPT_COMBO);
    int nv = 0;
    while (nv < OPT_MAX_VARS && o->vars[nv])
        nv++;
    CU_ASSERT_EQUAL(nv, nb);
    for (int i = 0; i < nb && i < nv; i++)
        CU_ASSERT_STRING_EQUAL(o->vars[i], bots[i].name);
    /* Every bot can be chosen and plays. */
    for (int i = 0; i < nb; i++) {
        char line[128];
        snprintf(line, sizeof line, "setoption name bot value %s", bots[i].name);
        CU_ASSERT_STRING_EQUAL(say(&t, line), "");
        say(&t, "setoption name info value false");
        say(&t, CALL_POSITION);
        CU_ASSERT(strncmp(say(&t, "go"), "= move call ", 12) == 0);
    }
    talk_close(&t);
}

/* ---------------------------------------------------------------- declarations */

static void check_declaration(const opt_def_t *o)
{
    char err[GAME_ERR_LEN];
    double num = NAN;
    CU_ASSERT(o->name && o->name[0] && !strpbrk(o->name, " \t"));
    CU_ASSERT(o->help && o->help[0]);
    CU_ASSERT(o->type >= OPT_SPIN && o->type < OPT_N_TYPES);
    CU_ASSERT(o->def != NULL);
    if (opt_check(o, o->def, &num, err, sizeof err) != 0) {
        fprintf(stderr, "\n    default of %s refused: %s\n", o->name, err);
        CU_FAIL("a default its own declaration refuses");
    }
    if (o->type == OPT_SPIN || o->type == OPT_FLOAT) {
        CU_ASSERT(isfinite(o->min) && isfinite(o->max) && o->min <= o->max);
        CU_ASSERT(num >= o->min && num <= o->max);
    }
}

/* Every option in the handshake: the session's own and every bot's. */
static void test_every_option_has_a_valid_default_and_help(void)
{
    talk_t t;
    talk_open(&t);
    int ns, nb;
    const opt_def_t *own = session_options(t.s, &ns);
    char err[GAME_ERR_LEN];
    bot_settings_t *set = bot_settings_create(err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(set);
    const opt_def_t *bots = bot_settings_options(set, &nb);
    CU_ASSERT(ns >= 3);
    for (int i = 0; i < ns; i++) {
        check_declaration(&own[i]);
        CU_ASSERT_PTR_NULL(strchr(own[i].name, '.')); /* a bot's names all hold a '.' */
    }
    for (int i = 0; i < nb; i++) {
        check_declaration(&bots[i]);
        CU_ASSERT_PTR_NOT_NULL(strchr(bots[i].name, '.'));
        for (int j = 0; j < i; j++)
            CU_ASSERT(strcmp(bots[i].name, bots[j].name) != 0);
    }
    /* The handshake prints each exactly once, the session's first. */
    const char *hello = say(&t, "hello");
    int lines = 0;
    for (const char *p = hello; (p = strstr(p, "\noption name ")); p++)
        lines++;
    CU_ASSERT_EQUAL(lines, ns + nb);
    for (int i = 0; i < nb; i++) {
        char want[256];
        snprintf(want, sizeof want, "\noption name %s type ", bots[i].name);
        CU_ASSERT_PTR_NOT_NULL(strstr(hello, want));
    }
    bot_settings_free(set);
    talk_close(&t);
}

/* The heuristic offers every parameter of every registered game, with the game's default and
 * range, as a float option "heuristic.<game>.<param>". */
static void test_heuristic_offers_every_game_parameter(void)
{
    char err[GAME_ERR_LEN], name[128];
    bot_settings_t *set = bot_settings_create(err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(set);
    int n, ng, total = 0;
    const opt_def_t *opts = bot_settings_options(set, &n);
    const game_t *const *games = game_list(&ng);
    for (int k = 0; k < ng; k++) {
        for (int i = 0; games[k]->heuristic_params && i < games[k]->n_heuristic_params; i++) {
            const game_param_t *p = &games[k]->heuristic_params[i];
            snprintf(name, sizeof name, "heuristic.%s.%s", games[k]->name, p->name);
            const opt_def_t *o = opt_find(opts, n, name);
            CU_ASSERT_PTR_NOT_NULL_FATAL(o);
            CU_ASSERT_EQUAL(o->type, OPT_FLOAT);
            CU_ASSERT(o->min == p->min && o->max == p->max);
            CU_ASSERT(strtod(o->def, NULL) == p->def); /* the text reads back exactly */
            double got = NAN;
            CU_ASSERT(bot_settings_get(set, name, &got, NULL) == 0 && got == p->def);
            CU_ASSERT(p->def >= p->min && p->def <= p->max && p->help && p->help[0]);
            total++;
        }
    }
    CU_ASSERT(total >= PICKET_HEURISTIC_NPARAMS);
    CU_ASSERT_EQUAL(PICKET_GAME.n_heuristic_params, PICKET_HEURISTIC_NPARAMS);
    bot_settings_free(set);
}

/* Options are declared once (options.h): a lookup, or a bot's parameter table, that names an
 * option no bot declares fails loudly (-1 and a reason naming it), never a silent default; and
 * every option of the search bots says where its value goes. */
typedef struct misspelt {
    int a;
} misspelt_t;

static void test_an_undeclared_option_fails_loudly(void)
{
    char err[GAME_ERR_LEN];
    bot_settings_t *set = bot_settings_create(err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(set);
    double num = 42;
    const char *text = "kept";
    CU_ASSERT_EQUAL(bot_settings_get(set, "ismcts.iteration", &num, &text), -1);
    CU_ASSERT(num == 42 && strcmp(text, "kept") == 0);
    CU_ASSERT_EQUAL(bot_settings_get(set, "ismcts.iterations", &num, &text), 0);
    CU_ASSERT(num == 10000 && strcmp(text, "10000") == 0);
    const opt_def_t bad[] = {
        { "iteration", OPT_SPIN, "1", 0, 10, { NULL }, "a misspelt name", NULL, OPT_INTO(misspelt_t, a, OPT_TO_INT) },
    };
    misspelt_t params = { 7 };
    err[0] = '\0';
    CU_ASSERT_EQUAL(bot_settings_fill(set, "ismcts.", bad, 1, &params, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "ismcts.iteration"));
    CU_ASSERT_EQUAL(params.a, 7);
    /* The table's own defaults fill without settings. */
    CU_ASSERT_EQUAL(bot_settings_fill(NULL, "", bad, 1, &params, err, sizeof err), 0);
    CU_ASSERT_EQUAL(params.a, 1);
    int n;
    const opt_def_t *o = bot_settings_options(set, &n);
    for (int i = 0; i < n; i++)
        if (strncmp(o[i].name, "ismcts.", 7) == 0 || strncmp(o[i].name, "pimc.", 5) == 0)
            CU_ASSERT(o[i].to != OPT_TO_NONE);
    bot_settings_free(set);
}

/* ---------------------------------------------------------------- values */

static int set_count;
static int count_set(void *ctx, const char *value, char *err, size_t errlen)
{
    (void)ctx, (void)value, (void)err, (void)errlen;
    set_count++;
    return 0;
}

static const opt_def_t TYPES[] = {
    { "depth", OPT_SPIN, "3", -5, 100, { NULL }, "a spin", count_set, OPT_TO_NONE, 0 },
    { "ratio", OPT_FLOAT, "0.5", -10, 10, { NULL }, "a float", count_set, OPT_TO_NONE, 0 },
    { "ponder", OPT_CHECK, "false", 0, 0, { NULL }, "a check", count_set, OPT_TO_NONE, 0 },
    { "style", OPT_COMBO, "calm", 0, 0, { "calm", "wild", NULL }, "a combo", count_set, OPT_TO_NONE, 0 },
    { "path", OPT_STRING, "", 0, 0, { NULL }, "a string", count_set, OPT_TO_NONE, 0 },
};
enum { N_TYPES = sizeof TYPES / sizeof TYPES[0] };

static void expect(const char *name, const char *value, int ok)
{
    char err[GAME_ERR_LEN] = "";
    int before = set_count;
    int rc = opt_set(TYPES, N_TYPES, NULL, name, value, err, sizeof err);
    if ((rc == 0) != ok)
        fprintf(stderr, "\n    %s = '%s': %s\n", name, value, ok ? err : "accepted");
    CU_ASSERT_EQUAL(rc == 0, ok);
    /* Refused: one line naming the option, and the setter never called. */
    if (!ok) {
        CU_ASSERT_EQUAL(set_count, before);
        CU_ASSERT_PTR_NULL(strchr(err, '\n'));
        CU_ASSERT(strncmp(err, "option ", 7) == 0 && strstr(err, name) != NULL);
    }
}

static void test_spin_values_are_checked_strictly(void)
{
    const char *good[] = { "0", "-5", "100", "42", "+7", "-0" };
    const char *bad[] = { "101", "-6", "1.5", "", "abc", "5x", " 5", "5 ", "0x10", "1e2", "nan", "inf",
                          "99999999999999999999", "-99999999999999999999", "--5", "-", "+" };
    for (size_t i = 0; i < sizeof good / sizeof *good; i++)
        expect("depth", good[i], 1);
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        expect("depth", bad[i], 0);
}

static void test_float_values_are_checked_strictly(void)
{
    const char *good[] = { "0", "0.5", "-2.5", "10", "-10", "1e-3", ".5", "5.", "+1", "1E1" };
    const char *bad[] = { "10.0001", "-11", "nan", "NaN", "-nan", "inf", "-inf", "infinity", "1e400", "-1e400",
                          "1e-400", "1.5x", "", " 1", "1 ", "0x1p2", "1,5", "e5", "1e", ".", "--1" };
    for (size_t i = 0; i < sizeof good / sizeof *good; i++)
        expect("ratio", good[i], 1);
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        expect("ratio", bad[i], 0);
}

static void test_check_combo_and_string_values(void)
{
    expect("ponder", "true", 1);
    expect("ponder", "false", 1);
    expect("ponder", "True", 0);
    expect("ponder", "1", 0);
    expect("ponder", "", 0);
    expect("style", "wild", 1);
    expect("style", "Wild", 0);
    expect("style", "calm ", 0);
    expect("style", "", 0);
    expect("path", "", 1);
    expect("path", "any text, spaces included", 1);
    char err[GAME_ERR_LEN];
    CU_ASSERT(opt_set(TYPES, N_TYPES, NULL, "Depth", "3", err, sizeof err) < 0);
    CU_ASSERT_STRING_EQUAL(err, "unknown option 'Depth'");
    set_count = 0;
    CU_ASSERT(opt_reset(TYPES, N_TYPES, NULL, err, sizeof err) == 0);
    CU_ASSERT_EQUAL(set_count, N_TYPES);
}

/* The same checks through the engine: every refusal is one `?` line, and changes nothing. */
static void test_setoption_refuses_bad_values_with_one_line(void)
{
    talk_t t;
    talk_open(&t);
    const char *bad[] = {
        "setoption name heuristic.picket.draw_value_elder value nan",
        "setoption name heuristic.picket.draw_value_elder value inf",
        "setoption name heuristic.picket.draw_value_elder value 5.5",
        "setoption name heuristic.picket.draw_value_elder value -1",
        "setoption name heuristic.picket.draw_value_elder value 1.2x",
        "setoption name heuristic.picket.draw_value_elder value 1e999",
        "setoption name heuristic.picket.draw_value_elder value",
        "setoption name heuristic.picket.nothing value 1",
        "setoption name heuristic value 1",
        "setoption name info value yes",
        "setoption name bot value oracle",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        const char *out = say(&t, bad[i]);
        if (!one_error_line(out))
            fprintf(stderr, "\n    %s -> %s\n", bad[i], out);
        CU_ASSERT(one_error_line(out));
    }
    CU_ASSERT_STRING_EQUAL(say(&t, "setoption name heuristic.picket.draw_value_elder value 5.5"),
                           "? line 12: option heuristic.picket.draw_value_elder: '5.5' is not a number from 0 to 5\n");
    CU_ASSERT_STRING_EQUAL(say(&t, "setoption name heuristic.picket.draw_value_elder value 4.25"), "");
    CU_ASSERT_STRING_EQUAL(say(&t, "setoption name bot value random"), "");
    talk_close(&t);
}

/* ---------------------------------------------------------------- weights change the values */

/* analyze's "analysis value V move MOVE" lines, as "MOVE=V;" in the order given. */
static void analysis(talk_t *t, char *out, size_t len)
{
    const char *text = say(t, "7 analyze");
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "=7 analyze 5\n"));
    size_t at = 0;
    out[0] = '\0';
    for (const char *p = text; (p = strstr(p, "analysis value ")); p++) {
        double v;
        char mv[64];
        if (sscanf(p, "analysis value %lf move %63[^\n]", &v, mv) == 2 && at < len)
            at += (size_t)snprintf(out + at, len - at, "%s=%.4f;", mv, v);
    }
}

static void test_a_weight_set_by_setoption_moves_the_values(void)
{
    talk_t t;
    talk_open(&t);
    char before[512], after[512], again[512];
    say(&t, "setoption name info value false");
    say(&t, "setoption name bot value heuristic");
    say(&t, CALL_POSITION);
    analysis(&t, before, sizeof before);
    CU_ASSERT_STRING_EQUAL(before, "call C=13.4200;call S=13.4200;call D=9.8000;call H=9.0500;call none=1.0000;");
    /* Naming a held suit is worth call_held (5) more than its best lead: 6 adds 1 to each. */
    CU_ASSERT_STRING_EQUAL(say(&t, "setoption name heuristic.picket.call_held value 6"), "");
    analysis(&t, after, sizeof after);
    CU_ASSERT_STRING_EQUAL(after, "call C=14.4200;call S=14.4200;call D=10.8000;call H=10.0500;call none=1.0000;");
    CU_ASSERT_STRING_EQUAL(say(&t, "setoption name heuristic.picket.call_none value 20"), "");
    analysis(&t, after, sizeof after);
    CU_ASSERT(strncmp(after, "call none=20.0000;", 18) == 0);
    /* Back to the defaults: the values are back too. */
    say(&t, "setoption name heuristic.picket.call_held value 5");
    say(&t, "setoption name heuristic.picket.call_none value 1");
    analysis(&t, again, sizeof again);
    CU_ASSERT_STRING_EQUAL(again, before);
    /* A bot made later (a newgame, or a switch of bot) gets the current values. */
    say(&t, "setoption name heuristic.picket.call_held value 7");
    say(&t, "setoption name bot value random");
    say(&t, CALL_POSITION);
    say(&t, "setoption name bot value heuristic");
    analysis(&t, after, sizeof after);
    CU_ASSERT_STRING_EQUAL(after, "call C=15.4200;call S=15.4200;call D=11.8000;call H=11.0500;call none=1.0000;");
    talk_close(&t);
}

/* The game's evaluate: NULL params are the declared defaults, bit for bit; every weight is
 * read (moving any one of them moves some move's value in some position). */
static void test_evaluate_honours_its_params(void)
{
    const game_t *g = &PICKET_GAME;
    double params[PICKET_HEURISTIC_NPARAMS];
    for (int i = 0; i < PICKET_HEURISTIC_NPARAMS; i++)
        params[i] = PICKET_HEURISTIC_PARAMS[i].def;
    int moved[PICKET_HEURISTIC_NPARAMS] = { 0 };
    game_move_t *moves = malloc(sizeof *moves * GAME_MAX_MOVES);
    double *a = malloc(sizeof *a * GAME_MAX_MOVES), *b = malloc(sizeof *b * GAME_MAX_MOVES);
    CU_ASSERT_FATAL(moves && a && b);
    const char *presets[] = { "cotgrave", "ducoeur-report" };
    for (int pr = 0; pr < 2; pr++) {
        for (uint64_t seed = 1; seed <= 30; seed++) {
            game_config_t cfg = { 0 };
            char err[GAME_ERR_LEN];
            game_config_set_preset(&cfg, presets[pr], err, sizeof err);
            cfg.deal_seed = seed;
            picket_state_t st;
            CU_ASSERT_FATAL(g->init(&st, &cfg, err, sizeof err) == 0);
            rng_t rng;
            rng_seed(&rng, seed);
            game_event_t ev[GAME_MAX_EVENTS];
            for (int step = 0; step < 400 && g->to_move(&st) != GAME_OVER; step++) {
                if (g->to_move(&st) == GAME_CHANCE) {
                    g->apply_chance(&st, NULL, ev, GAME_MAX_EVENTS);
                    continue;
                }
                picket_view_t v;
                g->view_from_state(&st, g->to_move(&st), &v);
                int n = g->view_legal_moves(&v, moves, GAME_MAX_MOVES);
                g->heuristic_evaluate(&v, NULL, moves, n, a);
                g->heuristic_evaluate(&v, params, moves, n, b);
                CU_ASSERT(memcmp(a, b, sizeof *a * (size_t)n) == 0);
                for (int k = 0; k < PICKET_HEURISTIC_NPARAMS; k++) {
                    if (moved[k])
                        continue;
                    double keep = params[k];
                    params[k] = keep == PICKET_HEURISTIC_PARAMS[k].max ? PICKET_HEURISTIC_PARAMS[k].min
                                                                      : PICKET_HEURISTIC_PARAMS[k].max;
                    g->heuristic_evaluate(&v, params, moves, n, b);
                    moved[k] = memcmp(a, b, sizeof *a * (size_t)n) != 0;
                    params[k] = keep;
                }
                game_move_t m = moves[rng_below(&rng, (uint32_t)n)];
                g->apply(&st, &m, ev, GAME_MAX_EVENTS);
            }
        }
    }
    for (int k = 0; k < PICKET_HEURISTIC_NPARAMS; k++) {
        if (!moved[k])
            fprintf(stderr, "\n    weight %s changes nothing\n", PICKET_HEURISTIC_PARAMS[k].name);
        CU_ASSERT(moved[k]);
    }
    free(moves);
    free(a);
    free(b);
}

/* ---------------------------------------------------------------- strength levels */

/* A fresh session's answers, after the setup lines, to analyze and go in the call of
 * CALL_POSITION: a bot's values and its move, the same text for the same bot, budgets and seed. */
static char *decisions_after(const char *const *setup, int n)
{
    talk_t t;
    talk_open(&t);
    say(&t, "setoption name info value false");
    for (int i = 0; i < n; i++) {
        const char *out = say(&t, setup[i]);
        if (*out)
            fprintf(stderr, "\n    %s -> %s\n", setup[i], out);
        CU_ASSERT_STRING_EQUAL(out, "");
    }
    say(&t, CALL_POSITION);
    char both[4096];
    snprintf(both, sizeof both, "%s", say(&t, "analyze"));
    const char *go = say(&t, "go");
    CU_ASSERT(strncmp(go, "= move call ", 12) == 0);
    snprintf(both + strlen(both), sizeof both - strlen(both), "%s", go);
    char *copy = strdup(both);
    CU_ASSERT_PTR_NOT_NULL_FATAL(copy);
    talk_close(&t);
    return copy;
}

static void expect_same_decisions(const char *const *a, int na, const char *const *b, int nb)
{
    char *x = decisions_after(a, na), *y = decisions_after(b, nb);
    if (strcmp(x, y) != 0)
        fprintf(stderr, "\n    after '%s':\n%s    after '%s':\n%s", na ? a[na - 1] : "nothing", x,
                nb ? b[nb - 1] : "nothing", y);
    CU_ASSERT_STRING_EQUAL(x, y);
    free(x);
    free(y);
}

/* docs/protocol.md §3, `level`: each level is a bot and its budgets, exactly as the setoptions
 * that name them; level 2 is the heuristic, whose go answers with the heuristic's move. */
static void test_each_level_is_its_bot_and_budgets(void)
{
    const char *l1[] = { "setoption name level value 1" }, *random[] = { "setoption name bot value random" };
    const char *l2[] = { "setoption name level value 2" }, *heuristic[] = { "setoption name bot value heuristic" };
    const char *l3[] = { "setoption name level value 3" };
    const char *pimc3[] = { "setoption name bot value pimc", "setoption name pimc.worlds value 2",
                            "setoption name pimc.candidates value 1" };
    const char *l4[] = { "setoption name level value 4" };
    const char *pimc4[] = { "setoption name bot value pimc", "setoption name pimc.worlds value 8",
                            "setoption name pimc.candidates value 1" };
    expect_same_decisions(l1, 1, random, 1);
    expect_same_decisions(l2, 1, heuristic, 1);
    expect_same_decisions(l3, 1, pimc3, 3);
    expect_same_decisions(l4, 1, pimc4, 3);
    /* Levels 3 and 4 differ from each other and from the default pimc. */
    char *a = decisions_after(l3, 1), *b = decisions_after(l4, 1);
    const char *pimc[] = { "setoption name bot value pimc" };
    char *c = decisions_after(pimc, 1);
    CU_ASSERT(strcmp(a, b) != 0 && strcmp(b, c) != 0 && strcmp(a, c) != 0);
    free(a);
    free(b);
    free(c);
}

/* Level 5 is a fresh engine: whatever bot and budgets were set before, and the default level a
 * session starts with changes nothing. */
static void test_level_5_restores_the_defaults(void)
{
    const char *l5[] = { "setoption name bot value random",           "setoption name ismcts.iterations value 50",
                         "setoption name pimc.worlds value 3",        "setoption name pimc.candidates value 2",
                         "setoption name level value 3",              "setoption name level value 5" };
    const char *default_bot[] = { "setoption name bot value hybrid", "setoption name level value 5" };
    expect_same_decisions(NULL, 0, l5, 6);
    expect_same_decisions(NULL, 0, default_bot, 2);
    /* ...and differs from what came before it. */
    char *x = decisions_after(NULL, 0), *y = decisions_after(l5, 5);
    CU_ASSERT(strcmp(x, y) != 0);
    free(x);
    free(y);
}

/* A later setoption overrides what a level set; a level set in the middle of a game takes
 * effect at the next decision. */
static void test_later_setoptions_override_a_level(void)
{
    const char *l3_more[] = { "setoption name level value 3", "setoption name pimc.worlds value 8" };
    const char *l4[] = { "setoption name level value 4" };
    expect_same_decisions(l3_more, 2, l4, 1);
    const char *l2_bot[] = { "setoption name level value 2", "setoption name bot value random" };
    const char *random[] = { "setoption name bot value random" };
    expect_same_decisions(l2_bot, 2, random, 1);

    talk_t t;
    talk_open(&t);
    char before[512], after[512];
    say(&t, "setoption name info value false");
    say(&t, "setoption name bot value heuristic");
    say(&t, CALL_POSITION);
    analysis(&t, before, sizeof before);
    say(&t, "setoption name bot value random");
    say(&t, CALL_POSITION);
    CU_ASSERT_STRING_EQUAL(say(&t, "setoption name level value 2"), "");
    analysis(&t, after, sizeof after);
    CU_ASSERT_STRING_EQUAL(after, before);
    talk_close(&t);
}

/* A level outside 1..5, or not a whole number, is refused with one line and changes nothing. */
static void test_a_bad_level_is_refused_with_one_line(void)
{
    talk_t t;
    talk_open(&t);
    char before[512], after[512];
    say(&t, "setoption name info value false");
    say(&t, "setoption name level value 2");
    say(&t, CALL_POSITION);
    analysis(&t, before, sizeof before);
    const char *bad[] = { "0", "6", "abc", "-1", "2.5", "5x", "99999999999999999999" };
    char line[128], want[256];
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        snprintf(line, sizeof line, "setoption name level value %s", bad[i]);
        const char *out = say(&t, line);
        CU_ASSERT(one_error_line(out));
        snprintf(want, sizeof want, "option level: '%s' is not a whole number from 1 to 5\n", bad[i]);
        CU_ASSERT_PTR_NOT_NULL(strstr(out, want));
    }
    CU_ASSERT(one_error_line(say(&t, "setoption name level value")));
    analysis(&t, after, sizeof after);
    CU_ASSERT_STRING_EQUAL(after, before);
    talk_close(&t);
}

/* ---------------------------------------------------------------- commands */

static void test_list_commands_is_the_dispatch_table(void)
{
    talk_t t;
    talk_open(&t);
    char want[1024] = "";
    size_t at = 0;
    int n = 0;
    for (const char *c; (c = session_command(n)); n++)
        at += (size_t)snprintf(want + at, sizeof want - at, "command %s\n", c);
    snprintf(want + at, sizeof want - at, "= list_commands\n");
    CU_ASSERT(n >= 12);
    CU_ASSERT_STRING_EQUAL(say(&t, "list_commands"), want);
    /* Each listed command is dispatched (none is "unknown"), and nothing else is. */
    for (int i = 0; i < n; i++) {
        if (strcmp(session_command(i), "quit") == 0)
            continue;
        CU_ASSERT_PTR_NULL(strstr(say(&t, session_command(i)), "unknown command"));
    }
    CU_ASSERT_PTR_NOT_NULL(strstr(say(&t, "castle"), "unknown command 'castle'"));
    CU_ASSERT_PTR_NOT_NULL(strstr(say(&t, "List_commands"), "unknown command"));
    CU_ASSERT_STRING_EQUAL(say(&t, "9 quit"), "=9 bye\n");
    talk_close(&t);
}

/* ---------------------------------------------------------------- the two defects */

/* docs/protocol.md §7: "Strip the =ID and the rest is a line position accepts". With 32 flags
 * (the most newgame takes) of the longest values, the header alone is over 1 KB; it used to be
 * built in a 1024-byte buffer that dropped "seat N seed S", so position refused the line. Flags
 * may repeat (a later one wins). */
static void test_view_round_trips_with_32_long_flags(void)
{
    talk_t t;
    talk_open(&t);
    char line[4096] = "newgame game picket preset ducoeur-report";
    for (int i = 0; i < GAME_MAX_FLAGS; i++)
        strcat(line, i % 2 ? " flag leftover=younger-may-show" : " flag leftover=elder-calls-suit");
    strcat(line, " seat 1 seed 18446744073709551615");
    CU_ASSERT_STRING_EQUAL(say(&t, line), "");
    say(&t, "event cut 6D QH dealer 0");
    char *first = strdup(say(&t, "view"));
    CU_ASSERT(strlen(first) > 1024);
    CU_ASSERT(strncmp(first, "= position ", 11) == 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(first, " seat 1 seed 18446744073709551615 events cut 6D QH dealer 0\n"));
    /* position with the reply, then view again: the same text. */
    char *back = strdup(first + 2);
    back[strlen(back) - 1] = '\0';
    CU_ASSERT_STRING_EQUAL(say(&t, "newgame game picket seat 0"), "");
    CU_ASSERT_STRING_EQUAL(say(&t, back), "");
    CU_ASSERT_STRING_EQUAL(say(&t, "view"), first);
    free(back);
    free(first);
    talk_close(&t);
}

/* Session line buffers live in the session, never on the stack (a line may be 64 KiB). setoption
 * once copied its value into a 64 KiB stack array: here it runs on a 64 KiB thread stack with a
 * large guard, so any such array faults. The value is a 60 KB path for `log`: refused with one
 * line, and the session goes on. */
typedef struct stack_job {
    char *out;
    size_t size;
} stack_job_t;

static void *small_stack_session(void *arg)
{
    stack_job_t *job = arg;
    FILE *out = open_memstream(&job->out, &job->size);
    session_t *s = out ? session_create(out, -1, "picket-engine 0.1", "the picket project") : NULL;
    if (!s)
        return NULL;
    enum { VALUE = 60000 };
    char *line = malloc(VALUE + 64);
    if (line) {
        int n = snprintf(line, 64, "setoption name log value /tmp/");
        memset(line + n, 'a', VALUE);
        line[n + VALUE] = '\0';
        session_handle_line(s, line);
        free(line);
    }
    session_handle_line(s, "setoption name info value false");
    session_handle_line(s, "1 isready");
    session_free(s);
    fclose(out);
    return NULL;
}

static void test_setoption_value_is_not_on_the_stack(void)
{
    fflush(NULL);
    pid_t pid = fork();
    CU_ASSERT_FATAL(pid >= 0);
    if (pid == 0) {
        pthread_attr_t attr;
        pthread_t th;
        stack_job_t job = { NULL, 0 };
        pthread_attr_init(&attr);
        pthread_attr_setstacksize(&attr, 64 * 1024);
        pthread_attr_setguardsize(&attr, 1024 * 1024);
        if (pthread_create(&th, &attr, small_stack_session, &job) != 0 || pthread_join(th, NULL) != 0)
            _exit(3);
        const char *want = "? line 1: option log: cannot append to '/tmp/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'\n"
                           "=1 readyok\n";
        _exit(job.out && strcmp(job.out, want) == 0 ? 0 : 4);
    }
    int status = 0;
    CU_ASSERT(waitpid(pid, &status, 0) == pid);
    if (!WIFEXITED(status))
        fprintf(stderr, "\n    the session died of signal %d on a 64 KiB stack\n", WTERMSIG(status));
    CU_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* The same long value on an ordinary stack, through the real reader's limit: one line back. */
static void test_long_log_path_is_one_line_error(void)
{
    talk_t t;
    talk_open(&t);
    enum { VALUE = 65000 };
    char *line = malloc(VALUE + 64);
    CU_ASSERT_PTR_NOT_NULL_FATAL(line);
    int n = snprintf(line, 64, "5 setoption name log value ");
    memset(line + n, 'b', VALUE);
    line[n + VALUE] = '\0';
    CU_ASSERT(strlen(line) <= PROTO_MAX_LINE);
    const char *out = say(&t, line);
    CU_ASSERT(one_error_line(out));
    CU_ASSERT(strncmp(out, "?5 line 1: option log: cannot append to 'bbbb", 45) == 0);
    CU_ASSERT(strlen(out) < 200);
    CU_ASSERT_STRING_EQUAL(say(&t, "isready"), "= readyok\n");
    free(line);
    talk_close(&t);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("bots and options", NULL, NULL);
    CU_add_test(s, "every bot of the table creates and decides", test_every_bot_creates_and_decides);
    CU_add_test(s, "an unknown bot is refused with the known names", test_unknown_bot_is_refused_with_the_known_names);
    CU_add_test(s, "the bot option lists the table", test_bot_option_lists_the_table);
    CU_add_test(s, "every option has a valid default and help", test_every_option_has_a_valid_default_and_help);
    CU_add_test(s, "the heuristic offers every game's parameters", test_heuristic_offers_every_game_parameter);
    CU_add_test(s, "an undeclared option fails loudly", test_an_undeclared_option_fails_loudly);
    CU_add_test(s, "spin values are checked strictly", test_spin_values_are_checked_strictly);
    CU_add_test(s, "float values are checked strictly", test_float_values_are_checked_strictly);
    CU_add_test(s, "check, combo and string values", test_check_combo_and_string_values);
    CU_add_test(s, "setoption refuses bad values with one line", test_setoption_refuses_bad_values_with_one_line);
    CU_add_test(s, "a weight set by setoption moves the values", test_a_weight_set_by_setoption_moves_the_values);
    CU_add_test(s, "evaluate honours its params", test_evaluate_honours_its_params);
    CU_add_test(s, "each level is its bot and budgets", test_each_level_is_its_bot_and_budgets);
    CU_add_test(s, "level 5 restores the defaults", test_level_5_restores_the_defaults);
    CU_add_test(s, "later setoptions override a level", test_later_setoptions_override_a_level);
    CU_add_test(s, "a bad level is refused with one line", test_a_bad_level_is_refused_with_one_line);
    CU_add_test(s, "list_commands is the dispatch table", test_list_commands_is_the_dispatch_table);
    CU_add_test(s, "view round-trips with 32 long flags", test_view_round_trips_with_32_long_flags);
    CU_add_test(s, "setoption's value is not on the stack", test_setoption_value_is_not_on_the_stack);
    CU_add_test(s, "a long log path is a one-line error", test_long_log_path_is_one_line_error);
    return test_run_all();
}
