/* options: settings declared once, in a table, as UCI declares an engine's options.
 *
 * A declaration (opt_def_t) names a setting, its type, its default and its range or values; the
 * same table prints the protocol's handshake (protocol/proto.c) and checks every value a
 * `setoption` brings before its setter sees it. Bots declare their options here too (search may
 * not see the protocol), so adding an option is one table entry. A bot's declaration also says
 * where its value goes (field, offset: a member of the bot's parameter struct), so the table is
 * the one place that names an option, its type, range, default and destination.
 *
 * Values arrive as text from outside and are checked strictly: a number is decimal, finite, in
 * range and the whole text (no sign games, no trailing bytes, no overflow); nothing here can
 * crash on any byte sequence.
 */
#ifndef PICKET_OPTIONS_H
#define PICKET_OPTIONS_H

#include <stddef.h>

typedef enum { OPT_SPIN, OPT_FLOAT, OPT_CHECK, OPT_COMBO, OPT_STRING, OPT_N_TYPES } opt_type_t;
/* Where a checked value is stored in a parameter struct (opt_store): nowhere, an int, an
 * int64_t, a double, an int 1/0 (check), or an int holding the value's index among vars (combo). */
typedef enum { OPT_TO_NONE, OPT_TO_INT, OPT_TO_INT64, OPT_TO_DOUBLE, OPT_TO_BOOL, OPT_TO_CHOICE } opt_to_t;
/* The destination fields of a declaration, last in its initialiser: OPT_INTO(params_t, member, OPT_TO_INT). */
#define OPT_INTO(type, member, to) (to), offsetof(type, member)
enum {
    OPT_MAX_VARS = 8,        /* combo values */
    OPT_NUMBER_LEN = 32      /* a number as opt_format_number writes it, NUL included */
};
extern const char *const OPT_TYPE_NAMES[OPT_N_TYPES];

typedef struct opt_def {
    const char *name;                /* lower case, digits, '_' and '.'; no spaces */
    opt_type_t type;
    const char *def;                 /* default, as text ("" for an empty string) */
    double min, max;                 /* spin and float */
    const char *vars[OPT_MAX_VARS];  /* combo values, NULL-terminated unless all 8 are used */
    const char *help;                /* one line for people */
    /* Apply a value already checked against the type and range (NULL: the table's holder keeps
     * the value itself). Returns 0 or -1 with a reason. */
    int (*set)(void *ctx, const char *value, char *err, size_t errlen);
    opt_to_t to;                     /* where opt_store puts the value (OPT_TO_NONE: nowhere) */
    size_t offset;                   /* the member's offset in the parameter struct */
} opt_def_t;

/* 0 if value is one the option takes; else -1 with a one-line reason naming the option. *num,
 * when not NULL, gets the value as a number (spin and float; check: 1 or 0; else 0). */
int opt_check(const opt_def_t *o, const char *value, double *num, char *err, size_t errlen);
/* The option called name, or NULL. */
const opt_def_t *opt_find(const opt_def_t *opts, int n, const char *name);
/* Find, check, then call the setter with ctx. -1 with a reason if unknown or refused. */
int opt_set(const opt_def_t *opts, int n, void *ctx, const char *name, const char *value, char *err,
            size_t errlen);
/* Apply every default. */
int opt_reset(const opt_def_t *opts, int n, void *ctx, char *err, size_t errlen);
/* Store a value already checked (its number from opt_check) where the declaration says, in the
 * parameter struct `params`. 0, or -1 for a declaration with nowhere to store it. */
int opt_store(const opt_def_t *o, const char *value, double num, void *params);
/* A number as declarations print it: spin as a whole number, float in the fewest digits that
 * read back as the same double. */
void opt_format_number(double v, opt_type_t type, char *buf, size_t len);

/* A table built at run time (for declarations that depend on the registered games), owning the
 * text it was given through opt_list_printf. */
typedef struct opt_list {
    opt_def_t *defs;
    int n, cap;
    char **text;
    int n_text, cap_text;
} opt_list_t;

/* Append a copy of d; 0, or -1 when out of memory. */
int opt_list_add(opt_list_t *l, const opt_def_t *d);
/* A string the list owns (freed with it), or NULL when out of memory. */
const char *opt_list_printf(opt_list_t *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void opt_list_free(opt_list_t *l);
/* Append copies of n declarations, each name given the prefix ("ismcts." + "iterations"); 0, or
 * -1 when out of memory. A bot declares its options this way. */
int opt_list_add_prefixed(opt_list_t *l, const char *prefix, const opt_def_t *defs, int n);

#endif
