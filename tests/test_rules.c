/* Rule flags and presets, checked against the table "Picket: where the sources differ (flags)"
 * of rules-matrix.md: each source is a preset, each point where they differ is a flag, and a
 * user may override any flag with "name=value".
 */
#include <CUnit/CUnit.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "picket_rules.h"
#include "test_util.h"

static const picket_rules_t *preset(const char *name)
{
    const picket_preset_t *p = picket_preset_find(name);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_STRING_EQUAL(p->name, name);
    return &p->rules;
}

static int contains(const char *haystack, const char *needle) { return strstr(haystack, needle) != NULL; }

/* ---- Presets: one per source, with the matrix's value for every flag --------------------------- */

static void test_cotgrave_preset_has_the_matrix_values(void)
{
    /* matrix, column CG */
    const picket_rules_t *r = preset("cotgrave");
    CU_ASSERT_EQUAL(r->younger_draw, PK_YD_ALL);           /* "all the rest" */
    CU_ASSERT_EQUAL(r->leftover, PK_LO_ELDER_CALLS);       /* elder may see it, after naming a suit */
    CU_ASSERT_EQUAL(r->blank_order, PK_BO_COMMIT_COUNT);   /* announces Blank and the number */
    CU_ASSERT_EQUAL(r->both_blank, PK_BB_BOTH_SCORE);      /* "the younger's Blank shall barre the former" */
    CU_ASSERT_EQUAL(r->ties, PK_TIES_VOID);                /* "eldership benefits not in this case" */
    CU_ASSERT_EQUAL(r->sequences, PK_SEQ_SUITED);          /* silent; ruling */
    CU_ASSERT_EQUAL(r->play_points, PK_PP_LEAD_OR_WIN);
    CU_ASSERT_EQUAL(r->last_trick, PK_LT_PLUS_ONE);
    CU_ASSERT_EQUAL(r->pique, PK_PQ_FIRST_CARD);           /* "by playing his first Card" */
    CU_ASSERT_EQUAL(r->target, 100);                       /* "The Set is usually a hundred" */
    CU_ASSERT_EQUAL(r->deck, 36);                          /* "the other six and thirty Cards" */
    CU_ASSERT_EQUAL(r->declarations, PK_DECL_FULL);
}

static void test_cotton_preset_has_the_matrix_values(void)
{
    /* matrix, column CT */
    const picket_rules_t *r = preset("cotton");
    CU_ASSERT_EQUAL(r->younger_draw, PK_YD_ALL);           /* "what he thinks fit" */
    CU_ASSERT_EQUAL(r->leftover, PK_LO_HIDDEN);            /* not mentioned */
    CU_ASSERT_EQUAL(r->blank_order, PK_BO_COMMIT_COUNT);
    CU_ASSERT_EQUAL(r->both_blank, PK_BB_BOTH_SCORE);
    CU_ASSERT_EQUAL(r->ties, PK_TIES_ELDER);               /* "if the youngest makes up no more the Ruff is good" */
    CU_ASSERT_EQUAL(r->sequences, PK_SEQ_SUITED);
    CU_ASSERT_EQUAL(r->play_points, PK_PP_LEAD_OR_WIN);
    CU_ASSERT_EQUAL(r->last_trick, PK_LT_PLUS_ONE);
    CU_ASSERT_EQUAL(r->pique, PK_PQ_FIRST_CARD);
    CU_ASSERT_EQUAL(r->target, 100);                       /* "The usual Set is an hundred" */
    CU_ASSERT_EQUAL(r->deck, 36);                          /* "thirty and six" */
    CU_ASSERT_EQUAL(r->declarations, PK_DECL_FULL);
}

static void test_ducoeur_letter_preset_has_the_matrix_values(void)
{
    /* matrix, column DL */
    const picket_rules_t *r = preset("ducoeur-letter");
    CU_ASSERT_EQUAL(r->younger_draw, PK_YD_8);             /* "up to eight, an there be so manie left" */
    CU_ASSERT_EQUAL(r->leftover, PK_LO_YOUNGER_MAY_SHOW);  /* "hee may turn the remaining cardes up" */
    CU_ASSERT_EQUAL(r->blank_order, PK_BO_SHOW_FIRST);
    CU_ASSERT_EQUAL(r->both_blank, PK_BB_VOID);            /* "it is a tie, and neither scores anything" */
    CU_ASSERT_EQUAL(r->ties, PK_TIES_VOID);                /* "of equall strength, neither scores" */
    CU_ASSERT_EQUAL(r->sequences, PK_SEQ_SUITED);          /* "a run of cardes within a sute" */
    CU_ASSERT_EQUAL(r->play_points, PK_PP_WINNER_TAKES);
    CU_ASSERT_EQUAL(r->last_trick, PK_LT_ONE_OR_TWO);
    CU_ASSERT_EQUAL(r->pique, PK_PQ_ANY_TIME);
    CU_ASSERT_EQUAL(r->target, 100);                       /* "a Set is plaied to 100 points" */
    CU_ASSERT_EQUAL(r->deck, 36);
    CU_ASSERT_EQUAL(r->declarations, PK_DECL_FULL);
}

static void test_ducoeur_report_preset_has_the_matrix_values(void)
{
    /* matrix, column DR */
    const picket_rules_t *r = preset("ducoeur-report");
    CU_ASSERT_EQUAL(r->younger_draw, PK_YD_8);             /* "Younger may only draw up to eight" */
    CU_ASSERT_EQUAL(r->leftover, PK_LO_YOUNGER_MAY_SHOW);
    CU_ASSERT_EQUAL(r->blank_order, PK_BO_SHOW_FIRST);
    CU_ASSERT_EQUAL(r->both_blank, PK_BB_VOID);            /* "if both players are blank, neither scores" */
    CU_ASSERT_EQUAL(r->ties, PK_TIES_VOID);                /* "we decided that both lose" */
    CU_ASSERT_EQUAL(r->sequences, PK_SEQ_UNSUITED);        /* "I can find no evidence of this" */
    CU_ASSERT_EQUAL(r->play_points, PK_PP_WINNER_TAKES);
    CU_ASSERT_EQUAL(r->last_trick, PK_LT_ONE_OR_TWO);
    CU_ASSERT_EQUAL(r->pique, PK_PQ_ANY_TIME);
    CU_ASSERT_EQUAL(r->target, 121);                       /* "we chose to play to 121" */
    CU_ASSERT_EQUAL(r->deck, 36);                          /* "a 36-card deck" */
    CU_ASSERT_EQUAL(r->declarations, PK_DECL_FULL);
}

/* The same table as text, through the names `picket rules` and records print. */
static const struct {
    const char *flag;
    const char *value[PK_PRESET_COUNT]; /* CG, CT, DL, DR, and CAV (rules-rubicon.md's preset line) */
} MATRIX[] = {
    { "younger_draw", { "all", "all", "8", "8", "all" } },
    { "leftover", { "elder-calls-suit", "hidden", "younger-may-show", "younger-may-show", "after-lead" } },
    { "blank_order", { "commit-count", "commit-count", "show-first", "show-first", "announce-then-show" } },
    { "both_blank", { "both-score", "both-score", "void", "void", "void" } },
    { "ties", { "void", "elder", "void", "void", "void" } },
    { "sequences", { "suited", "suited", "suited", "unsuited", "suited" } },
    { "play_points", { "lead-or-win", "lead-or-win", "winner-takes", "winner-takes", "lead-or-win-any" } },
    { "last_trick", { "plus-one", "plus-one", "one-or-two", "one-or-two", "plus-one" } },
    { "pique", { "first-card", "first-card", "any-time", "any-time", "play" } },
    { "target", { "100", "100", "100", "121", "100" } },
    { "deck", { "36", "36", "36", "36", "32" } },
    { "declarations", { "full", "full", "full", "full", "may-sink" } },
    { "point", { "ruff", "ruff", "ruff", "ruff", "count" } },
    { "calls", { "open", "open", "open", "open", "cavendish" } },
    { "game", { "race", "race", "race", "race", "rubicon" } },
    { "cut", { "lower-deals", "lower-deals", "lower-deals", "lower-deals", "higher-chooses" } },
};
static const char *const MATRIX_PRESETS[PK_PRESET_COUNT] = { "cotgrave", "cotton", "ducoeur-letter", "ducoeur-report",
                                                             "cavendish" };

static void test_presets_by_name_match_the_matrix_table(void)
{
    CU_ASSERT_EQUAL(sizeof MATRIX / sizeof MATRIX[0], PK_FLAG_COUNT);
    for (int p = 0; p < PK_PRESET_COUNT; p++) {
        const picket_rules_t *r = preset(MATRIX_PRESETS[p]);
        for (size_t i = 0; i < sizeof MATRIX / sizeof MATRIX[0]; i++) {
            const picket_flag_t *f = picket_flag_find(MATRIX[i].flag);
            CU_ASSERT_PTR_NOT_NULL_FATAL(f);
            char buf[16];
            CU_ASSERT_STRING_EQUAL(picket_flag_value_name(f, picket_flag_get(r, f), buf, sizeof buf),
                                   MATRIX[i].value[p]);
        }
    }
}

static void test_there_are_exactly_the_five_presets(void)
{
    for (int p = 0; p < PK_PRESET_COUNT; p++)
        CU_ASSERT_STRING_EQUAL(PICKET_PRESETS[p].name, MATRIX_PRESETS[p]);
}

static void test_default_preset_is_cotgrave(void)
{
    /* matrix: "the default preset is `cotgrave`" */
    CU_ASSERT_PTR_EQUAL(picket_preset_find(NULL), picket_preset_find("cotgrave"));
    CU_ASSERT_PTR_EQUAL(picket_preset_find(""), picket_preset_find("cotgrave"));
    CU_ASSERT_STRING_EQUAL(picket_preset_find(NULL)->name, "cotgrave");
}

static void test_unknown_preset_is_not_found(void)
{
    CU_ASSERT_PTR_NULL(picket_preset_find("hoyle"));
    CU_ASSERT_PTR_NULL(picket_preset_find("Cotgrave"));
    CU_ASSERT_PTR_NULL(picket_preset_find("ducoeur"));
}

/* ---- Flags: every value of every flag ------------------------------------------------------------ */

static int set_ok(picket_rules_t *r, const char *assignment)
{
    char err[160] = "";
    int rc = picket_rules_set(r, assignment, err, sizeof err);
    if (rc != 0)
        fprintf(stderr, "\n  %s: %s\n", assignment, err);
    return rc == 0;
}

static void test_every_named_value_sets_its_enum(void)
{
    static const struct {
        const char *assignment;
        size_t field;
        int value;
    } cases[] = {
        { "younger_draw=all", offsetof(picket_rules_t, younger_draw), PK_YD_ALL },
        { "younger_draw=8", offsetof(picket_rules_t, younger_draw), PK_YD_8 },
        { "leftover=elder-calls-suit", offsetof(picket_rules_t, leftover), PK_LO_ELDER_CALLS },
        { "leftover=hidden", offsetof(picket_rules_t, leftover), PK_LO_HIDDEN },
        { "leftover=younger-may-show", offsetof(picket_rules_t, leftover), PK_LO_YOUNGER_MAY_SHOW },
        { "blank_order=commit-count", offsetof(picket_rules_t, blank_order), PK_BO_COMMIT_COUNT },
        { "blank_order=show-first", offsetof(picket_rules_t, blank_order), PK_BO_SHOW_FIRST },
        { "both_blank=both-score", offsetof(picket_rules_t, both_blank), PK_BB_BOTH_SCORE },
        { "both_blank=void", offsetof(picket_rules_t, both_blank), PK_BB_VOID },
        { "ties=void", offsetof(picket_rules_t, ties), PK_TIES_VOID },
        { "ties=elder", offsetof(picket_rules_t, ties), PK_TIES_ELDER },
        { "sequences=suited", offsetof(picket_rules_t, sequences), PK_SEQ_SUITED },
        { "sequences=unsuited", offsetof(picket_rules_t, sequences), PK_SEQ_UNSUITED },
        { "play_points=lead-or-win", offsetof(picket_rules_t, play_points), PK_PP_LEAD_OR_WIN },
        { "play_points=winner-takes", offsetof(picket_rules_t, play_points), PK_PP_WINNER_TAKES },
        { "last_trick=plus-one", offsetof(picket_rules_t, last_trick), PK_LT_PLUS_ONE },
        { "last_trick=one-or-two", offsetof(picket_rules_t, last_trick), PK_LT_ONE_OR_TWO },
        { "pique=first-card", offsetof(picket_rules_t, pique), PK_PQ_FIRST_CARD },
        { "pique=any-time", offsetof(picket_rules_t, pique), PK_PQ_ANY_TIME },
        { "pique=play", offsetof(picket_rules_t, pique), PK_PQ_PLAY },
        { "leftover=after-lead", offsetof(picket_rules_t, leftover), PK_LO_AFTER_LEAD },
        { "blank_order=announce-then-show", offsetof(picket_rules_t, blank_order), PK_BO_ANNOUNCE_THEN_SHOW },
        { "play_points=lead-or-win-any", offsetof(picket_rules_t, play_points), PK_PP_LEAD_OR_WIN_ANY },
        { "point=ruff", offsetof(picket_rules_t, point), PK_POINT_RUFF },
        { "point=count", offsetof(picket_rules_t, point), PK_POINT_COUNT },
        { "calls=open", offsetof(picket_rules_t, calls), PK_CALLS_OPEN },
        { "calls=cavendish", offsetof(picket_rules_t, calls), PK_CALLS_CAVENDISH },
        { "game=race", offsetof(picket_rules_t, game), PK_GAME_RACE },
        { "game=rubicon", offsetof(picket_rules_t, game), PK_GAME_RUBICON },
        { "cut=lower-deals", offsetof(picket_rules_t, cut), PK_CUT_LOWER_DEALS },
        { "cut=higher-chooses", offsetof(picket_rules_t, cut), PK_CUT_HIGHER_CHOOSES },
        { "declarations=full", offsetof(picket_rules_t, declarations), PK_DECL_FULL },
        { "declarations=may-sink", offsetof(picket_rules_t, declarations), PK_DECL_MAY_SINK },
        { "deck=36", offsetof(picket_rules_t, deck), 36 },
        { "deck=32", offsetof(picket_rules_t, deck), 32 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        /* Start from the preset that holds the other value, so every assignment changes something. */
        for (int p = 0; p < PK_PRESET_COUNT; p++) {
            picket_rules_t r = PICKET_PRESETS[p].rules;
            CU_ASSERT_TRUE(set_ok(&r, cases[i].assignment));
            CU_ASSERT_EQUAL(*(const int *)((const char *)&r + cases[i].field), cases[i].value);
        }
    }
}

static void test_every_listed_value_of_every_flag_is_accepted(void)
{
    int named = 0;
    for (int i = 0; i < PK_FLAG_COUNT; i++) {
        const picket_flag_t *f = &PICKET_FLAGS[i];
        for (int v = 0; v < PK_MAX_VALUES && f->values[v]; v++) {
            picket_rules_t r = PICKET_PRESETS[0].rules;
            char assignment[64];
            snprintf(assignment, sizeof assignment, "%s=%s", f->name, f->values[v]);
            CU_ASSERT_TRUE(set_ok(&r, assignment));
            CU_ASSERT_EQUAL(picket_flag_get(&r, f), v);
            named++;
        }
    }
    /* 2 + 4 + 3 + 2 + 2 + 2 + 3 + 2 + 3 named values, and declarations, point, calls, game, cut: 2 each */
    CU_ASSERT_EQUAL(named, 33);
}

static void test_only_flags_in_the_matrix_exist(void)
{
    for (size_t i = 0; i < sizeof MATRIX / sizeof MATRIX[0]; i++)
        CU_ASSERT_PTR_NOT_NULL(picket_flag_find(MATRIX[i].flag));
    CU_ASSERT_PTR_NULL(picket_flag_find("trumps"));
    CU_ASSERT_PTR_NULL(picket_flag_find(""));
}

static void test_target_accepts_the_presets_values(void)
{
    /* matrix: "A set is played to 100 (flag `target`, any positive value)"; DR "we chose to play
     * to 121" */
    picket_rules_t r = test_rules("cotgrave", NULL);
    CU_ASSERT_TRUE(set_ok(&r, "target=121"));
    CU_ASSERT_EQUAL(r.target, 121);
    CU_ASSERT_TRUE(set_ok(&r, "target=100"));
    CU_ASSERT_EQUAL(r.target, 100);
}

static void test_target_accepts_small_positive_values(void)
{
    /* CG: "whether they will make it more or lesse" */
    picket_rules_t r = test_rules("cotgrave", NULL);
    CU_ASSERT_TRUE(set_ok(&r, "target=1"));
    CU_ASSERT_EQUAL(r.target, 1);
    CU_ASSERT_TRUE(set_ok(&r, "target=50"));
    CU_ASSERT_EQUAL(r.target, 50);
}

static void test_target_accepts_any_large_positive_value(void)
{
    /* matrix: "flag `target`, any positive value"; docs/rules.md: "any positive integer" */
    picket_rules_t r = test_rules("cotgrave", NULL);
    CU_ASSERT_TRUE(set_ok(&r, "target=1000"));
    CU_ASSERT_EQUAL(r.target, 1000);
    CU_ASSERT_TRUE(set_ok(&r, "target=10000"));
    CU_ASSERT_EQUAL(r.target, 10000);
    CU_ASSERT_TRUE(set_ok(&r, "target=100000"));
    CU_ASSERT_EQUAL(r.target, 100000);
}

/* ---- Flags: what is refused, and the reason names it --------------------------------------------- */

static void assert_refused(const char *assignment, const char *named1, const char *named2)
{
    picket_rules_t r = test_rules("cotgrave", NULL);
    char err[160] = "";
    CU_ASSERT_EQUAL(picket_rules_set(&r, assignment, err, sizeof err), -1);
    CU_ASSERT(strlen(err) > 0);
    if (named1 && !contains(err, named1)) {
        fprintf(stderr, "\n  %s: '%s' does not name '%s'\n", assignment, err, named1);
        CU_FAIL("error text does not name the flag");
    }
    if (named2 && !contains(err, named2)) {
        fprintf(stderr, "\n  %s: '%s' does not name '%s'\n", assignment, err, named2);
        CU_FAIL("error text does not name the value");
    }
}

static void test_unknown_flag_name_is_refused_and_named(void)
{
    assert_refused("trumps=hearts", "trumps", NULL);
    assert_refused("tie=void", "tie", NULL);
}

static void test_very_long_flag_name_is_refused(void)
{
    assert_refused("a_flag_name_much_longer_than_any_real_flag_name=1", "a_flag_name", NULL);
}

static void test_unknown_value_is_refused_naming_flag_and_value(void)
{
    assert_refused("ties=younger", "ties", "younger");
    assert_refused("sequences=both", "sequences", "both");
    assert_refused("leftover=shown", "leftover", "shown");
    assert_refused("younger_draw=7", "younger_draw", "7");
    assert_refused("declarations=partial", "declarations", "partial");
}

static void test_empty_value_is_refused(void)
{
    assert_refused("ties=", "ties", NULL);
    assert_refused("target=", "target", NULL);
}

static void test_assignment_without_equals_is_refused(void)
{
    assert_refused("noequals", "noequals", NULL);
}

static void test_assignment_without_a_name_is_refused(void)
{
    assert_refused("=void", NULL, NULL);
}

static void test_target_zero_is_refused(void)
{
    /* matrix: "any positive value" */
    assert_refused("target=0", "target", "0");
}

static void test_negative_target_is_refused(void)
{
    assert_refused("target=-5", "target", "-5");
}

static void test_non_numeric_target_is_refused(void)
{
    assert_refused("target=abc", "target", "abc");
    assert_refused("target=12x", "target", "12x");
}

static void test_deck_other_than_36_or_32_is_refused(void)
{
    /* matrix: "flag `deck=36|32`" */
    assert_refused("deck=40", "deck", "40");
    assert_refused("deck=52", "deck", "52");
    assert_refused("deck=34", "deck", "34");
    assert_refused("deck=thirty-six", "deck", "thirty-six");
}

static void test_refused_assignment_changes_nothing(void)
{
    picket_rules_t r = test_rules("cotton", NULL), before = r;
    char err[160];
    CU_ASSERT_EQUAL(picket_rules_set(&r, "target=0", err, sizeof err), -1);
    CU_ASSERT_EQUAL(picket_rules_set(&r, "ties=maybe", err, sizeof err), -1);
    CU_ASSERT_EQUAL(picket_rules_set(&r, "deck=40", err, sizeof err), -1);
    CU_ASSERT_EQUAL(memcmp(&r, &before, sizeof r), 0);
}

/* ---- Overrides and building ---------------------------------------------------------------------- */

static void test_overrides_give_back_the_two_flags_set(void)
{
    picket_rules_t r = test_rules("cotton", "ties=void", "target=50", NULL);
    char out[8][48];
    int n = picket_rules_overrides(&r, "cotton", out, 8);
    CU_ASSERT_EQUAL_FATAL(n, 2);
    int saw_ties = 0, saw_target = 0;
    for (int i = 0; i < n; i++) {
        saw_ties += strcmp(out[i], "ties=void") == 0;
        saw_target += strcmp(out[i], "target=50") == 0;
    }
    CU_ASSERT_EQUAL(saw_ties, 1);
    CU_ASSERT_EQUAL(saw_target, 1);
}

static void test_overrides_rebuild_the_same_rules(void)
{
    picket_rules_t r = test_rules("ducoeur-report", "sequences=suited", "deck=32", NULL);
    char out[PK_FLAG_COUNT][48];
    int n = picket_rules_overrides(&r, "ducoeur-report", out, PK_FLAG_COUNT);
    CU_ASSERT_EQUAL(n, 2);
    picket_rules_t back;
    char err[160] = "";
    CU_ASSERT_EQUAL_FATAL(picket_rules_build(&back, "ducoeur-report", (const char (*)[48])out, n, err, sizeof err), 0);
    CU_ASSERT_EQUAL(memcmp(&back, &r, sizeof r), 0);
}

static void test_a_preset_alone_has_no_overrides(void)
{
    for (int p = 0; p < PK_PRESET_COUNT; p++) {
        char out[PK_FLAG_COUNT][48];
        CU_ASSERT_EQUAL(picket_rules_overrides(&PICKET_PRESETS[p].rules, PICKET_PRESETS[p].name, out, PK_FLAG_COUNT), 0);
    }
}

static void test_setting_a_flag_to_the_presets_value_is_no_override(void)
{
    picket_rules_t r = test_rules("cotgrave", "ties=void", "target=100", NULL);
    char out[PK_FLAG_COUNT][48];
    CU_ASSERT_EQUAL(picket_rules_overrides(&r, "cotgrave", out, PK_FLAG_COUNT), 0);
}

static void test_build_applies_overrides_to_the_preset(void)
{
    const char flags[2][48] = { "ties=void", "pique=any-time" };
    picket_rules_t r;
    char err[160] = "";
    CU_ASSERT_EQUAL_FATAL(picket_rules_build(&r, "cotton", flags, 2, err, sizeof err), 0);
    CU_ASSERT_EQUAL(r.ties, PK_TIES_VOID);
    CU_ASSERT_EQUAL(r.pique, PK_PQ_ANY_TIME);
    CU_ASSERT_EQUAL(r.leftover, PK_LO_HIDDEN); /* the rest stays cotton's */
}

/* A sunk run is part of a suit's run: with unsuited runs there is no such thing. */
static void test_build_refuses_sinking_with_unsuited_sequences(void)
{
    const char flags[2][48] = { "declarations=may-sink", "sequences=unsuited" };
    picket_rules_t r;
    char err[160] = "";
    CU_ASSERT_EQUAL(picket_rules_build(&r, "cavendish", flags, 2, err, sizeof err), -1);
    CU_ASSERT_TRUE(contains(err, "may-sink") && contains(err, "sequences=suited"));
    CU_ASSERT_EQUAL(picket_rules_build(&r, "cavendish", flags, 1, err, sizeof err), 0);
    CU_ASSERT_EQUAL(r.declarations, PK_DECL_MAY_SINK);
}

static void test_build_refuses_unknown_preset_and_names_it(void)
{
    picket_rules_t r;
    char err[160] = "";
    CU_ASSERT_EQUAL(picket_rules_build(&r, "hoyle", NULL, 0, err, sizeof err), -1);
    CU_ASSERT_TRUE(contains(err, "hoyle"));
}

static void test_build_refuses_a_bad_override_and_names_it(void)
{
    const char flags[2][48] = { "ties=void", "deck=40" };
    picket_rules_t r;
    char err[160] = "";
    CU_ASSERT_EQUAL(picket_rules_build(&r, "cotton", flags, 2, err, sizeof err), -1);
    CU_ASSERT_TRUE(contains(err, "deck"));
    CU_ASSERT_TRUE(contains(err, "40"));
}

/* ---- The flag table documents its sources -------------------------------------------------------- */

static void test_every_flag_has_a_source_string_for_each_preset(void)
{
    /* matrix: "The project documents each flag, its values, and which sentence of which source
     * each value comes from." */
    for (int i = 0; i < PK_FLAG_COUNT; i++)
        for (int p = 0; p < PK_PRESET_COUNT; p++) {
            const char *s = PICKET_FLAGS[i].source[p];
            CU_ASSERT_PTR_NOT_NULL_FATAL(s);
            CU_ASSERT(strlen(s) > 0);
        }
}

static void test_every_flag_has_a_description(void)
{
    for (int i = 0; i < PK_FLAG_COUNT; i++) {
        CU_ASSERT_PTR_NOT_NULL_FATAL(PICKET_FLAGS[i].what);
        CU_ASSERT(strlen(PICKET_FLAGS[i].what) > 0);
    }
}

static void test_numeric_flag_value_names_are_numbers(void)
{
    char buf[16];
    CU_ASSERT_STRING_EQUAL(picket_flag_value_name(picket_flag_find("target"), 121, buf, sizeof buf), "121");
    CU_ASSERT_STRING_EQUAL(picket_flag_value_name(picket_flag_find("deck"), 32, buf, sizeof buf), "32");
}

#define ADD(suite, fn) CU_add_test(suite, #fn, fn)

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;

    CU_pSuite p = CU_add_suite("presets", NULL, NULL);
    ADD(p, test_cotgrave_preset_has_the_matrix_values);
    ADD(p, test_cotton_preset_has_the_matrix_values);
    ADD(p, test_ducoeur_letter_preset_has_the_matrix_values);
    ADD(p, test_ducoeur_report_preset_has_the_matrix_values);
    ADD(p, test_presets_by_name_match_the_matrix_table);
    ADD(p, test_there_are_exactly_the_five_presets);
    ADD(p, test_default_preset_is_cotgrave);
    ADD(p, test_unknown_preset_is_not_found);

    CU_pSuite a = CU_add_suite("flag values accepted", NULL, NULL);
    ADD(a, test_every_named_value_sets_its_enum);
    ADD(a, test_every_listed_value_of_every_flag_is_accepted);
    ADD(a, test_only_flags_in_the_matrix_exist);
    ADD(a, test_target_accepts_the_presets_values);
    ADD(a, test_target_accepts_small_positive_values);
    ADD(a, test_target_accepts_any_large_positive_value);

    CU_pSuite x = CU_add_suite("flag values refused", NULL, NULL);
    ADD(x, test_unknown_flag_name_is_refused_and_named);
    ADD(x, test_very_long_flag_name_is_refused);
    ADD(x, test_unknown_value_is_refused_naming_flag_and_value);
    ADD(x, test_empty_value_is_refused);
    ADD(x, test_assignment_without_equals_is_refused);
    ADD(x, test_assignment_without_a_name_is_refused);
    ADD(x, test_target_zero_is_refused);
    ADD(x, test_negative_target_is_refused);
    ADD(x, test_non_numeric_target_is_refused);
    ADD(x, test_deck_other_than_36_or_32_is_refused);
    ADD(x, test_refused_assignment_changes_nothing);

    CU_pSuite o = CU_add_suite("overrides", NULL, NULL);
    ADD(o, test_overrides_give_back_the_two_flags_set);
    ADD(o, test_overrides_rebuild_the_same_rules);
    ADD(o, test_a_preset_alone_has_no_overrides);
    ADD(o, test_setting_a_flag_to_the_presets_value_is_no_override);
    ADD(o, test_build_applies_overrides_to_the_preset);
    ADD(o, test_build_refuses_unknown_preset_and_names_it);
    ADD(o, test_build_refuses_sinking_with_unsuited_sequences);
    ADD(o, test_build_refuses_a_bad_override_and_names_it);

    CU_pSuite s = CU_add_suite("flag table", NULL, NULL);
    ADD(s, test_every_flag_has_a_source_string_for_each_preset);
    ADD(s, test_every_flag_has_a_description);
    ADD(s, test_numeric_flag_value_names_are_numbers);

    return test_run_all();
}
