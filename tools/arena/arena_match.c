#include "arena_match.h"

#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "record.h"

const char *const END_REASON_NAMES[END_COUNT] = { "normal", "crash", "timeout", "illegal", "protocol", "start" };

/* ---------------------------------------------------------------- engine specs */

void engine_spec_init(engine_spec_t *s)
{
    memset(s, 0, sizeof *s);
    s->tc_base = s->tc_inc = s->st = -1;
    s->iterations = -1;
    s->timeout = 60;
}

void engine_spec_free(engine_spec_t *s)
{
    for (int i = 0; i < s->argc; i++)
        free(s->argv[i]);
    for (int i = 0; i < s->n_options; i++) {
        free(s->opt_name[i]);
        free(s->opt_value[i]);
    }
    engine_spec_init(s);
}

static int parse_seconds(const char *v, double *out)
{
    char *end;
    errno = 0;
    double d = strtod(v, &end);
    if (!*v || *end || errno || d < 0 || d > 1e6)
        return -1;
    *out = d;
    return 0;
}

int engine_spec_set(engine_spec_t *s, const char *field, char *err, size_t errlen)
{
    const char *eq = strchr(field, '=');
    char shown[64];
    game_quote(field, 48, shown, sizeof shown);
    if (!eq) {
        snprintf(err, errlen, "engine field '%s' is not key=value", shown);
        return -1;
    }
    size_t klen = (size_t)(eq - field);
    const char *v = eq + 1;
    if ((klen == 3 && !strncmp(field, "cmd", 3)) || (klen == 3 && !strncmp(field, "arg", 3))) {
        if (!*v) {
            snprintf(err, errlen, "engine field '%s' needs a value", shown);
            return -1;
        }
        int is_cmd = field[0] == 'c';
        if (is_cmd && s->argc > 0) {
            free(s->argv[0]);
            s->argv[0] = NULL;
        } else if (s->argc >= ARENA_MAX_ARGS) {
            snprintf(err, errlen, "an engine takes at most %d arguments", ARENA_MAX_ARGS - 1);
            return -1;
        }
        char *copy = strdup(v);
        if (!copy) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        if (is_cmd && s->argc > 0) {
            s->argv[0] = copy;
        } else if (is_cmd) {
            s->argv[s->argc++] = copy;
        } else {
            if (s->argc == 0)
                s->argv[s->argc++] = NULL; /* cmd comes later */
            s->argv[s->argc++] = copy;
        }
        return 0;
    }
    if (klen == 4 && !strncmp(field, "name", 4)) {
        if (!*v || strlen(v) >= ARENA_NAME_LEN || strpbrk(v, " \t,")) {
            snprintf(err, errlen, "engine name '%s' must be 1 to %d characters without spaces or commas", shown,
                     ARENA_NAME_LEN - 1);
            return -1;
        }
        snprintf(s->name, sizeof s->name, "%s", v);
        return 0;
    }
    if (klen > 7 && !strncmp(field, "option.", 7)) {
        if (s->n_options >= ARENA_MAX_OPTIONS) {
            snprintf(err, errlen, "at most %d options an engine", ARENA_MAX_OPTIONS);
            return -1;
        }
        char *name = strndup(field + 7, klen - 7), *value = strdup(v);
        if (!name || !value) {
            free(name);
            free(value);
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        /* A later setting of the same option replaces the earlier (as -each then -engine). */
        for (int i = 0; i < s->n_options; i++)
            if (!strcmp(s->opt_name[i], name)) {
                free(s->opt_value[i]);
                free(name);
                s->opt_value[i] = value;
                return 0;
            }
        s->opt_name[s->n_options] = name;
        s->opt_value[s->n_options++] = value;
        return 0;
    }
    if (klen == 2 && !strncmp(field, "tc", 2)) {
        char buf[64];
        snprintf(buf, sizeof buf, "%s", v);
        char *plus = strchr(buf, '+');
        if (plus)
            *plus = '\0';
        if (parse_seconds(buf, &s->tc_base) < 0 || (plus && parse_seconds(plus + 1, &s->tc_inc) < 0)) {
            snprintf(err, errlen, "tc '%s' is not SECONDS or SECONDS+INCREMENT", shown);
            return -1;
        }
        if (!plus)
            s->tc_inc = 0;
        return 0;
    }
    if (klen == 2 && !strncmp(field, "st", 2)) {
        if (parse_seconds(v, &s->st) < 0 || s->st <= 0) {
            snprintf(err, errlen, "st '%s' is not a number of seconds", shown);
            return -1;
        }
        return 0;
    }
    if (klen == 7 && !strncmp(field, "timeout", 7)) {
        if (parse_seconds(v, &s->timeout) < 0 || s->timeout <= 0) {
            snprintf(err, errlen, "timeout '%s' is not a number of seconds", shown);
            return -1;
        }
        return 0;
    }
    if (klen == 10 && !strncmp(field, "iterations", 10)) {
        char *end;
        long n = strtol(v, &end, 10);
        if (!*v || *end || n < 1) {
            snprintf(err, errlen, "iterations '%s' is not a positive number", shown);
            return -1;
        }
        s->iterations = n;
        return 0;
    }
    snprintf(err, errlen, "unknown engine field '%s' (cmd, arg, name, option.X, tc, st, iterations, timeout)", shown);
    return -1;
}

/* ---------------------------------------------------------------- engine processes */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct hello_check {
    int protocol_ok, game_ok;
} hello_check_t;

static void on_hello_line(void *data, const char *line)
{
    hello_check_t *h = data;
    if (!strcmp(line, "protocol " PROTO_NAME " 1"))
        h->protocol_ok = 1;
    if (!strcmp(line, "game picket"))
        h->game_ok = 1;
}

enum { ASK_EXITED = -1, ASK_VIOLATION = -2, ASK_TIMEOUT = -3 };

/* A question with an id, answered within timeout. Returns 1 '=', 0 '?', or ASK_EXITED,
 * ASK_TIMEOUT, or ASK_VIOLATION: a stray error reply (an earlier silent command refused) or a
 * line the reader refused. */
static int ask(engine_proc_t *e, const char *cmd, double timeout, void (*on_line)(void *, const char *), void *data)
{
    long id = ++e->next_id;
    char buf[PROTO_MAX_LINE + 1];
    snprintf(buf, sizeof buf, "%ld %s", id, cmd);
    if (client_send(&e->c, buf) < 0)
        return -1;
    double deadline = now_s() + timeout;
    for (;;) {
        int left = (int)((deadline - now_s()) * 1000.0);
        if (left < 0)
            left = 0;
        proto_status_t st = client_read(&e->c, e->line, left);
        if (st == PROTO_AGAIN)
            return ASK_TIMEOUT;
        if (st == PROTO_EOF)
            return ASK_EXITED;
        if (st != PROTO_LINE) {
            snprintf(e->line, sizeof e->line, "%s", st == PROTO_TOO_LONG ? "a line too long" : "a NUL byte");
            return ASK_VIOLATION;
        }
        int ok;
        long got;
        const char *text;
        if (proto_parse_reply(e->line, &ok, &got, &text)) {
            if (got == id)
                return ok;
            if (!ok)
                return ASK_VIOLATION;
            continue;
        }
        if (on_line)
            on_line(data, e->line);
    }
}

int engine_proc_start(engine_proc_t *e, const engine_spec_t *spec, char *err, size_t errlen)
{
    memset(e, 0, sizeof *e);
    e->spec = spec;
    if (client_start(&e->c, spec->argv, err, errlen) < 0)
        return -1;
    e->running = 1;
    hello_check_t h = { 0, 0 };
    int rc = ask(e, "hello", 10.0, on_hello_line, &h);
    if (rc != 1 || !h.protocol_ok || !h.game_ok) {
        snprintf(err, errlen, "%s: no valid handshake (%s)", spec->name,
                 rc != 1 ? "no '= hello' within 10 s" : !h.protocol_ok ? "not picket-protocol 1" : "does not play picket");
        engine_proc_stop(e);
        return -1;
    }
    for (int i = 0; i < spec->n_options; i++) {
        char cmd[PROTO_MAX_LINE];
        snprintf(cmd, sizeof cmd, "setoption name %s value %s", spec->opt_name[i], spec->opt_value[i]);
        if (client_send(&e->c, cmd) < 0)
            break;
    }
    rc = ask(e, "isready", 10.0, NULL, NULL);
    if (rc != 1) {
        snprintf(err, errlen, "%s: %s", spec->name, rc == ASK_VIOLATION ? e->line : "no readyok within 10 s");
        engine_proc_stop(e);
        return -1;
    }
    return 0;
}

void engine_proc_stop(engine_proc_t *e)
{
    if (!e->running)
        return;
    client_stop(&e->c, 500);
    e->running = 0;
}

/* ---------------------------------------------------------------- one set */

typedef struct referee {
    const set_setup_t *s;
    set_result_t *r;
    void *state;
} referee_t;

static void fault(referee_t *x, int seat, end_reason_t why, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void fault(referee_t *x, int seat, end_reason_t why, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(x->r->detail, sizeof x->r->detail, fmt, ap);
    va_end(ap);
    x->r->reason = why;
    x->r->fault_seat = seat;
    x->r->winner = 1 - seat;
    /* The engine at fault is not trusted any more: a fresh process for its next set. */
    engine_proc_stop(x->s->engine[seat]);
}

/* Send each seat the events it may see. Returns 0, or -1 after a fault. */
static int route(referee_t *x, const game_event_t *ev, int n)
{
    const game_t *g = x->s->game;
    for (int i = 0; i < n && i < GAME_MAX_EVENTS; i++)
        for (int seat = 0; seat < 2; seat++) {
            if (!game_event_visible(&ev[i], seat))
                continue;
            char text[1024], line[1100];
            g->event_format(&ev[i], text, sizeof text);
            snprintf(line, sizeof line, "event %s", text);
            if (client_send(&x->s->engine[seat]->c, line) < 0) {
                fault(x, seat, END_CRASH, "%s exited", x->s->engine[seat]->spec->name);
                return -1;
            }
        }
    return 0;
}

/* Time each seat has left for the set, under tc. */
typedef struct clocks {
    double left[2];
} clocks_t;

static int decide(referee_t *x, clocks_t *clk, int seat, game_move_t *m)
{
    engine_proc_t *e = x->s->engine[seat];
    const engine_spec_t *sp = e->spec;
    const game_t *g = x->s->game;
    char go[128];
    double limit;
    if (sp->iterations > 0) {
        snprintf(go, sizeof go, "go iterations %ld", sp->iterations);
        limit = sp->timeout;
    } else if (sp->tc_base >= 0) {
        snprintf(go, sizeof go, "go settime %.0f movetime %.0f", clk->left[seat] * 1000.0, sp->tc_inc * 1000.0);
        limit = clk->left[seat];
    } else if (sp->st > 0) {
        snprintf(go, sizeof go, "go movetime %.0f", sp->st * 1000.0);
        limit = sp->st;
    } else {
        snprintf(go, sizeof go, "go");
        limit = sp->timeout;
    }
    double t0 = now_s();
    int rc = ask(e, go, limit + x->s->margin, NULL, NULL);
    double spent = now_s() - t0;
    x->r->think[seat] += spent;
    if (rc == ASK_TIMEOUT) {
        fault(x, seat, END_TIMEOUT, "%s took more than %.3f s to move", sp->name, limit + x->s->margin);
        return -1;
    }
    if (rc == ASK_EXITED) {
        fault(x, seat, END_CRASH, "%s exited while deciding", sp->name);
        return -1;
    }
    if (rc == ASK_VIOLATION) {
        fault(x, seat, END_PROTOCOL, "%s refused an event or command: %.150s", sp->name, e->line);
        return -1;
    }
    const char *text;
    int ok;
    long id;
    proto_parse_reply(e->line, &ok, &id, &text);
    if (rc == 0) {
        fault(x, seat, END_PROTOCOL, "%s answered go with an error: %.150s", sp->name, text);
        return -1;
    }
    if (strncmp(text, "move ", 5) != 0) {
        fault(x, seat, END_PROTOCOL, "%s answered go without a move: %.150s", sp->name, text);
        return -1;
    }
    char why[GAME_ERR_LEN];
    if (g->move_parse(text + 5, m, why, sizeof why) < 0) {
        fault(x, seat, END_ILLEGAL, "%s: malformed move '%.60s': %s", sp->name, text + 5, why);
        return -1;
    }
    if (!g->check_move(x->state, m, why, sizeof why)) {
        fault(x, seat, END_ILLEGAL, "%s: illegal move '%.60s': %s", sp->name, text + 5, why);
        return -1;
    }
    if (sp->tc_base >= 0) {
        clk->left[seat] -= spent;
        if (clk->left[seat] < 0)
            clk->left[seat] = 0;
        clk->left[seat] += sp->tc_inc;
    }
    return 0;
}

static int start_seat(referee_t *x, int seat)
{
    const set_setup_t *s = x->s;
    engine_proc_t *e = s->engine[seat];
    char err[300];
    if (!e->running && engine_proc_start(e, e->spec, err, sizeof err) < 0) {
        fault(x, seat, END_START, "%s", err);
        return -1;
    }
    char cmd[2048];
    int n = snprintf(cmd, sizeof cmd, "newgame game %s", s->game->name);
    if (s->cfg.preset[0])
        n += snprintf(cmd + n, sizeof cmd - (size_t)n, " preset %s", s->cfg.preset);
    for (int i = 0; i < s->cfg.n_flags; i++)
        n += snprintf(cmd + n, sizeof cmd - (size_t)n, " flag %s", s->cfg.flags[i]);
    snprintf(cmd + n, sizeof cmd - (size_t)n, " seat %d seed %" PRIu64, seat, s->engine_seed[seat]);
    if (client_send(&e->c, cmd) < 0) {
        fault(x, seat, END_CRASH, "%s exited", e->spec->name);
        return -1;
    }
    int rc = ask(e, "isready", 10.0, NULL, NULL);
    if (rc == ASK_VIOLATION)
        fault(x, seat, END_PROTOCOL, "%s refused the new game: %.150s", e->spec->name, e->line);
    else if (rc != 1)
        fault(x, seat, END_CRASH, "%s did not answer isready for the new game", e->spec->name);
    return rc == 1 ? 0 : -1;
}

void arena_play_set(const set_setup_t *s, set_result_t *out)
{
    memset(out, 0, sizeof *out);
    out->fault_seat = -1;
    out->reason = END_NORMAL;
    const game_t *g = s->game;
    referee_t x = { s, out, calloc(1, g->state_size) };
    char err[GAME_ERR_LEN];
    if (!x.state || g->init(x.state, &s->cfg, err, sizeof err) < 0) {
        /* Rules were checked when the run started; this is memory. */
        snprintf(out->detail, sizeof out->detail, "cannot start the game: %s", x.state ? err : "out of memory");
        out->reason = END_START;
        out->winner = 0;
        free(x.state);
        return;
    }
    if (s->record) {
        record_write_header(s->record, g, &s->cfg);
        fprintf(s->record, "# seat 0: %s\n# seat 1: %s\n", s->engine[0]->spec->name, s->engine[1]->spec->name);
    }
    clocks_t clk = { { s->engine[0]->spec->tc_base, s->engine[1]->spec->tc_base } };
    game_event_t ev[GAME_MAX_EVENTS];
    int ok = start_seat(&x, 0) == 0 && start_seat(&x, 1) == 0;
    while (ok) {
        int who = g->to_move(x.state);
        if (who == GAME_OVER)
            break;
        int n;
        if (who == GAME_CHANCE) {
            n = g->apply_chance(x.state, ev, GAME_MAX_EVENTS);
            out->hands++;
        } else {
            game_move_t m;
            if (decide(&x, &clk, who, &m) < 0)
                break;
            if (s->record)
                record_write_move(s->record, g, who, &m);
            out->moves++;
            n = g->apply(x.state, &m, ev, GAME_MAX_EVENTS);
        }
        if (route(&x, ev, n) < 0)
            break;
    }
    g->scores(x.state, out->scores);
    if (out->reason == END_NORMAL) {
        double ret[GAME_MAX_PLAYERS];
        g->returns(x.state, ret);
        out->winner = ret[0] > ret[1] ? 0 : 1;
    }
    if (s->record) {
        if (out->reason != END_NORMAL)
            fprintf(s->record, "# forfeit: seat %d loses by %s: %s\n", out->fault_seat, END_REASON_NAMES[out->reason],
                    out->detail);
        record_write_result(s->record, g, x.state);
    }
    free(x.state);
}
