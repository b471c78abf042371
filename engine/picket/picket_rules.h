/* picket_rules: the rule flags where the Picket sources differ, and the five presets (four of
 * 17th-century Picket, and Cavendish's Rubicon Piquet).
 *
 * One table declares every flag once (name, values, the field it sets, and for each preset the
 * value and the source sentence behind it); `picket rules`, docs/rules.md, parsing of
 * "name=value" overrides and records all read that table. This module knows no game state.
 */
#ifndef PICKET_RULES_H
#define PICKET_RULES_H

#include <stddef.h>

enum { PK_YD_ALL, PK_YD_8 };
enum { PK_LO_ELDER_CALLS, PK_LO_HIDDEN, PK_LO_YOUNGER_MAY_SHOW, PK_LO_AFTER_LEAD };
enum { PK_BO_COMMIT_COUNT, PK_BO_SHOW_FIRST, PK_BO_ANNOUNCE_THEN_SHOW };
enum { PK_BB_BOTH_SCORE, PK_BB_VOID };
enum { PK_TIES_VOID, PK_TIES_ELDER };
enum { PK_SEQ_SUITED, PK_SEQ_UNSUITED };
enum { PK_PP_LEAD_OR_WIN, PK_PP_WINNER_TAKES, PK_PP_LEAD_OR_WIN_ANY };
enum { PK_LT_PLUS_ONE, PK_LT_ONE_OR_TWO };
enum { PK_PQ_FIRST_CARD, PK_PQ_ANY_TIME, PK_PQ_PLAY };
enum { PK_DECL_FULL, PK_DECL_MAY_SINK };
enum { PK_POINT_RUFF, PK_POINT_COUNT };  /* the Ruff by pip total, or the point by cards (Cavendish) */
enum { PK_CALLS_OPEN, PK_CALLS_CAVENDISH };
enum { PK_GAME_RACE, PK_GAME_RUBICON };  /* a set to the target, or a partie of six deals */
enum { PK_CUT_LOWER_DEALS, PK_CUT_HIGHER_CHOOSES };

typedef struct picket_rules {
    int deck;          /* 36 or 32 */
    int target;        /* points that win the set */
    int younger_draw;
    int leftover;
    int blank_order;
    int both_blank;
    int ties;
    int sequences;
    int play_points;
    int last_trick;
    int pique;
    int declarations;
    int point;
    int calls;
    int game;          /* race: target ends the set; rubicon: six deals, target is the rubicon line */
    int cut;
} picket_rules_t;

enum { PK_PRESET_COUNT = 5, PK_FLAG_COUNT = 16, PK_MAX_VALUES = 4 };

/* Deals in a partie (game=rubicon), and the most it can take when tied (two more). */
enum { PK_PARTIE_DEALS = 6, PK_PARTIE_MAX_DEALS = 8 };

typedef struct picket_preset {
    const char *name;
    const char *source;       /* the source it reads */
    picket_rules_t rules;
} picket_preset_t;

typedef struct picket_flag {
    const char *name;
    const char *values[PK_MAX_VALUES]; /* NULL-terminated names; none for a numeric flag */
    int min, max;                      /* range of a numeric flag */
    size_t offset;                     /* int field in picket_rules_t */
    const char *what;                  /* one line: what the flag decides */
    const char *source[PK_PRESET_COUNT]; /* per preset: the source's words for its value */
} picket_flag_t;

extern const picket_preset_t PICKET_PRESETS[PK_PRESET_COUNT];
extern const picket_flag_t PICKET_FLAGS[PK_FLAG_COUNT];

/* Preset by name (NULL or "" gives the default, cotgrave); NULL if unknown. */
const picket_preset_t *picket_preset_find(const char *name);
const picket_flag_t *picket_flag_find(const char *name);
int picket_flag_get(const picket_rules_t *r, const picket_flag_t *f);
/* The flag's value as text ("36", "elder-calls-suit"); buf needs 16 bytes. */
const char *picket_flag_value_name(const picket_flag_t *f, int value, char *buf, size_t len);

/* A partie's settlement for the winner's and loser's totals: 100 plus their sum when the
 * loser is under the rubicon line (*rubicon 1), else 100 plus the difference (Cavendish L72-73). */
int picket_partie_points(int winner_total, int loser_total, int rubicon_line, int *rubicon);

/* The values a flag takes, as text: "all|8", "36|32", "a number 1..1000000000". */
void picket_flag_values(const picket_flag_t *f, char *buf, size_t len);

/* Apply "name=value". Returns 0, or -1 with a one-line reason naming the problem. */
int picket_rules_set(picket_rules_t *r, const char *assignment, char *err, size_t errlen);

/* Start from a preset and apply overrides. Returns 0 or -1 with a reason. */
int picket_rules_build(picket_rules_t *r, const char *preset, const char (*flags)[48], int n_flags,
                       char *err, size_t errlen);

/* Write the flags that differ from the preset's as "name=value" strings; returns the count. */
int picket_rules_overrides(const picket_rules_t *r, const char *preset, char (*out)[48], int cap);

#endif
