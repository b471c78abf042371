#include "options.h"

#include <errno.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"

const char *const OPT_TYPE_NAMES[OPT_N_TYPES] = { "spin", "float", "check", "combo", "string" };

void opt_format_number(double v, opt_type_t type, char *buf, size_t len)
{
    if (!buf || len == 0)
        return;
    if (type == OPT_SPIN) {
        snprintf(buf, len, "%.0f", v);
        return;
    }
    /* The shortest of %.15g..%.17g that reads back exactly: 1.15 prints as 1.15. */
    for (int digits = 15; digits <= 17; digits++) {
        snprintf(buf, len, "%.*g", digits, v);
        if (strtod(buf, NULL) == v)
            return;
    }
}

/* Decimal text only: strtod alone would take "nan", "inf", hex and leading spaces. */
static int decimal_text(const char *s, const char *allowed)
{
    return *s && strspn(s, allowed) == strlen(s);
}

static int check_number(const opt_def_t *o, const char *value, double *num)
{
    char *end;
    errno = 0;
    if (o->type == OPT_SPIN) {
        if (!decimal_text(value, "+-0123456789"))
            return -1;
        long long v = strtoll(value, &end, 10);
        if (*end || errno || (double)v < o->min || (double)v > o->max)
            return -1;
        *num = (double)v;
        return 0;
    }
    return text_real(value, o->min, o->max, num);
}

int opt_check(const opt_def_t *o, const char *value, double *num, char *err, size_t errlen)
{
    char shown[48], lo[OPT_NUMBER_LEN], hi[OPT_NUMBER_LEN];
    double x = 0;
    text_quote(value, 40, shown, sizeof shown);
    switch (o->type) {
    case OPT_SPIN:
    case OPT_FLOAT:
        if (check_number(o, value, &x) < 0) {
            opt_format_number(o->min, o->type, lo, sizeof lo);
            opt_format_number(o->max, o->type, hi, sizeof hi);
            snprintf(err, errlen, "option %s: '%s' is not %s from %s to %s", o->name, shown,
                     o->type == OPT_SPIN ? "a whole number" : "a number", lo, hi);
            return -1;
        }
        break;
    case OPT_CHECK:
        if (strcmp(value, "true") != 0 && strcmp(value, "false") != 0)
            return text_fail(err, errlen, "option %s: '%s' is not true or false", o->name, shown);
        x = strcmp(value, "true") == 0;
        break;
    case OPT_COMBO: {
        int found = 0;
        for (int v = 0; v < OPT_MAX_VARS && o->vars[v]; v++)
            found |= strcmp(o->vars[v], value) == 0;
        if (!found)
            return text_fail(err, errlen, "option %s: '%s' is not one of its values", o->name, shown);
        break;
    }
    case OPT_STRING:
        break;
    default:
        return text_fail(err, errlen, "option %s: declared with no type", o->name);
    }
    if (num)
        *num = x;
    return 0;
}

int opt_store(const opt_def_t *o, const char *value, double num, void *params)
{
    char *at = (char *)params + o->offset;
    switch (o->to) {
    case OPT_TO_INT:
    case OPT_TO_BOOL:
        *(int *)(void *)at = (int)num;
        return 0;
    case OPT_TO_INT64:
        *(int64_t *)(void *)at = (int64_t)num;
        return 0;
    case OPT_TO_DOUBLE:
        *(double *)(void *)at = num;
        return 0;
    case OPT_TO_CHOICE:
        for (int v = 0; v < OPT_MAX_VARS && o->vars[v]; v++)
            if (strcmp(o->vars[v], value) == 0) {
                *(int *)(void *)at = v;
                return 0;
            }
        return -1;
    default:
        return -1;
    }
}

const opt_def_t *opt_find(const opt_def_t *opts, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(opts[i].name, name) == 0)
            return &opts[i];
    return NULL;
}

int opt_set(const opt_def_t *opts, int n, void *ctx, const char *name, const char *value, char *err,
            size_t errlen)
{
    const opt_def_t *o = opt_find(opts, n, name);
    if (!o)
        return text_error(err, errlen, "unknown option '%s'", name);
    if (opt_check(o, value, NULL, err, errlen) < 0)
        return -1;
    return o->set ? o->set(ctx, value, err, errlen) : 0;
}

int opt_reset(const opt_def_t *opts, int n, void *ctx, char *err, size_t errlen)
{
    for (int i = 0; i < n; i++)
        if (opts[i].set && opts[i].set(ctx, opts[i].def, err, errlen) < 0)
            return -1;
    return 0;
}

/* ---------------------------------------------------------------- tables built at run time */

int opt_list_add(opt_list_t *l, const opt_def_t *d)
{
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 16;
        opt_def_t *defs = realloc(l->defs, sizeof *defs * (size_t)cap);
        if (!defs)
            return -1;
        l->defs = defs;
        l->cap = cap;
    }
    l->defs[l->n++] = *d;
    return 0;
}

const char *opt_list_printf(opt_list_t *l, const char *fmt, ...)
{
    if (l->n_text == l->cap_text) {
        int cap = l->cap_text ? 2 * l->cap_text : 32;
        char **text = realloc(l->text, sizeof *text * (size_t)cap);
        if (!text)
            return NULL;
        l->text = text;
        l->cap_text = cap;
    }
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = len < 0 ? NULL : malloc((size_t)len + 1);
    if (!s)
        return NULL;
    va_start(ap, fmt);
    vsnprintf(s, (size_t)len + 1, fmt, ap);
    va_end(ap);
    l->text[l->n_text++] = s;
    return s;
}

void opt_list_free(opt_list_t *l)
{
    for (int i = 0; i < l->n_text; i++)
        free(l->text[i]);
    free(l->text);
    free(l->defs);
    memset(l, 0, sizeof *l);
}

int opt_list_add_prefixed(opt_list_t *l, const char *prefix, const opt_def_t *defs, int n)
{
    for (int i = 0; i < n; i++) {
        opt_def_t o = defs[i];
        o.name = opt_list_printf(l, "%s%s", prefix, defs[i].name);
        if (!o.name || opt_list_add(l, &o) < 0)
            return -1;
    }
    return 0;
}
