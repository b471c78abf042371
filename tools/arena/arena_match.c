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
    const char *game;
    int protocol_ok, game_ok;
} hello_check_t;

static void on_hello_line(void *data, const char *line)
{
    hello_check_t *h = data;
    if (!strcmp(line, "protocol " PROTO_NAME " 1"))
        h->protocol_ok = 1;
    if (!strncmp(line, "game ", 5) && !strcmp(line + 5, h->game))
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

int engine_proc_start(engine_proc_t *e, const engine_spec_t *spec, const char *game, char *err, size_t errlen)
{
    memset(e, 0, sizeof *e);
    e->spec = spec;
    if (client_start(&e->c, spec->argv, err, errlen) < 0)
        return -1;
    e->running = 1;
    hello_check_t h = { game, 0, 0 };
    int rc = ask(e, "hello", 10.0, on_hello_line, &h);
    if (rc != 1 || !h.protocol_ok || !h.game_ok) {
        char why[96];
        snprintf(why, sizeof why, "does not play %.40s", game);
        snprintf(err, errlen, "%s: no valid handshake (%s)", spec->name,
                 rc != 1 ? "no '= hello' within 10 s" : !h.protocol_ok ? "not picket-protocol 1" : why);
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

/* An engine process at the referee's table. */
typedef struct arena_seat {
    const set_setup_t *s;
    set_result_t *r;
    int seat;
    double clock;           /* time left for the set, under tc */
    end_reason_t reason;    /* why this seat failed, when it did */
} arena_seat_t;

/* A seat's failure: the reason kept for the result, the text for the referee. The engine at
 * fault is not trusted any more: a fresh process for its next set. */
static int seat_fail(arena_seat_t *x, end_reason_t why, char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static int seat_fail(arena_seat_t *x, end_reason_t why, char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    x->reason = why;
    engine_proc_stop(x->s->engine[x->seat]);
    return -1;
}

static int seat_event(void *data, const game_event_t *ev, char *err, size_t errlen)
{
    arena_seat_t *x = data;
    engine_proc_t *e = x->s->engine[x->seat];
    char text[1024], line[1100];
    x->s->game->event_format(ev, text, sizeof text);
    snprintf(line, sizeof line, "event %s", text);
    if (client_send(&e->c, line) < 0)
        return seat_fail(x, END_CRASH, err, errlen, "%s exited", e->spec->name);
    return 0;
}

static int seat_decide(void *data, game_move_t *m, char *err, size_t errlen)
{
    arena_seat_t *x = data;
    engine_proc_t *e = x->s->engine[x->seat];
    const engine_spec_t *sp = e->spec;
    char go[128];
    double limit;
    if (sp->iterations > 0) {
        snprintf(go, sizeof go, "go iterations %ld", sp->iterations);
        limit = sp->timeout;
    } else if (sp->tc_base >= 0) {
        snprintf(go, sizeof go, "go settime %.0f movetime %.0f", x->clock * 1000.0, sp->tc_inc * 1000.0);
        limit = x->clock;
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
    x->r->think[x->seat] += spent;
    if (rc == ASK_TIMEOUT)
        return seat_fail(x, END_TIMEOUT, err, errlen, "%s took more than %.3f s to move", sp->name, limit + x->s->margin);
    if (rc == ASK_EXITED)
        return seat_fail(x, END_CRASH, err, errlen, "%s exited while deciding", sp->name);
    if (rc == ASK_VIOLATION)
        return seat_fail(x, END_PROTOCOL, err, errlen, "%s refused an event or command: %.150s", sp->name, e->line);
    const char *text;
    int ok;
    long id;
    proto_parse_reply(e->line, &ok, &id, &text);
    if (rc == 0)
        return seat_fail(x, END_PROTOCOL, err, errlen, "%s answered go with an error: %.150s", sp->name, text);
    if (strncmp(text, "move ", 5) != 0)
        return seat_fail(x, END_PROTOCOL, err, errlen, "%s answered go without a move: %.150s", sp->name, text);
    char why[GAME_ERR_LEN];
    if (x->s->game->move_parse(text + 5, m, why, sizeof why) < 0)
        return seat_fail(x, END_ILLEGAL, err, errlen, "%s: malformed move '%.60s': %s", sp->name, text + 5, why);
    if (sp->tc_base >= 0) {
        x->clock -= spent;
        if (x->clock < 0)
            x->clock = 0;
        x->clock += sp->tc_inc;
    }
    return 0;
}

static int start_seat(arena_seat_t *x, char *err, size_t errlen)
{
    const set_setup_t *s = x->s;
    engine_proc_t *e = s->engine[x->seat];
    char why[300];
    if (!e->running && engine_proc_start(e, e->spec, s->game->name, why, sizeof why) < 0)
        return seat_fail(x, END_START, err, errlen, "%s", why);
    char cmd[2048];
    int n = snprintf(cmd, sizeof cmd, "newgame game %s", s->game->name);
    if (s->cfg.preset[0])
        n += snprintf(cmd + n, sizeof cmd - (size_t)n, " preset %s", s->cfg.preset);
    for (int i = 0; i < s->cfg.n_flags; i++)
        n += snprintf(cmd + n, sizeof cmd - (size_t)n, " flag %s", s->cfg.flags[i]);
    snprintf(cmd + n, sizeof cmd - (size_t)n, " players %d seat %d seed %" PRIu64, x->r->players, x->seat,
             s->engine_seed[x->seat]);
    if (client_send(&e->c, cmd) < 0)
        return seat_fail(x, END_CRASH, err, errlen, "%s exited", e->spec->name);
    int rc = ask(e, "isready", 10.0, NULL, NULL);
    if (rc == ASK_VIOLATION)
        return seat_fail(x, END_PROTOCOL, err, errlen, "%s refused the new game: %.150s", e->spec->name, e->line);
    if (rc != 1)
        return seat_fail(x, END_CRASH, err, errlen, "%s did not answer isready for the new game", e->spec->name);
    return 0;
}

typedef struct record_sink {
    FILE *f;
    const game_t *g;
} record_sink_t;

static void on_move(void *data, const void *state, int seat, const game_move_t *m)
{
    record_sink_t *k = data;
    (void)state;
    record_write_move(k->f, k->g, seat, m);
}

/* The standing after a fault: the seat at fault last alone, every other seat first. */
static void forfeit(set_result_t *out, int seat)
{
    for (int i = 0; i < out->players; i++)
        out->rank[i] = i == seat ? out->players - 1 : 0;
    out->fault_seat = seat;
    out->winner = out->players == 2 ? 1 - seat : -1;
}

void arena_play_set(const set_setup_t *s, set_result_t *out)
{
    memset(out, 0, sizeof *out);
    out->fault_seat = -1;
    out->winner = -1;
    out->reason = END_NORMAL;
    const game_t *g = s->game;
    char err[GAME_ERR_LEN];
    referee_t *ref = referee_create(g, &s->cfg, err, sizeof err);
    if (!ref) {
        /* Rules were checked when the run started; this is memory. */
        snprintf(out->detail, sizeof out->detail, "cannot start the game: %s", err);
        out->reason = END_START;
        out->players = s->cfg.players > 0 ? s->cfg.players : 2;
        forfeit(out, 0);
        return;
    }
    int players = out->players = referee_players(ref);
    if (s->record) {
        record_write_header(s->record, g, &s->cfg);
        for (int i = 0; i < players; i++)
            fprintf(s->record, "# seat %d: %s\n", i, s->engine[i]->spec->name);
    }
    record_sink_t sink = { s->record, g };
    if (s->record) {
        referee_hooks_t hooks = { NULL, on_move, &sink };
        referee_set_hooks(ref, &hooks);
    }
    arena_seat_t seats[GAME_MAX_PLAYERS];
    int ok = 1;
    for (int i = 0; i < players; i++) {
        seats[i] = (arena_seat_t){ s, out, i, s->engine[i]->spec->tc_base, END_NORMAL };
        referee_seat_t rs = { seat_event, seat_decide, &seats[i] };
        referee_set_seat(ref, i, &rs);
    }
    for (int i = 0; i < players && ok; i++)
        if (start_seat(&seats[i], out->detail, sizeof out->detail) < 0) {
            out->reason = seats[i].reason;
            forfeit(out, i);
            ok = 0;
        }
    referee_status_t st = ok ? referee_play(ref) : REFEREE_FAULT;
    if (ok && st == REFEREE_FAULT) {
        const referee_fault_t *f = referee_fault(ref);
        int seat = f->seat >= 0 ? f->seat : 0;
        snprintf(out->detail, sizeof out->detail, "%.200s", f->text);
        out->reason = f->kind == REFEREE_FAULT_SEAT ? seats[seat].reason : END_ILLEGAL;
        if (f->kind == REFEREE_FAULT_ILLEGAL) {
            snprintf(out->detail, sizeof out->detail, "%.40s: %.200s", s->engine[seat]->spec->name, f->text);
            engine_proc_stop(s->engine[seat]);
        }
        forfeit(out, seat);
    }
    const void *state = referee_state(ref);
    out->moves = (int)referee_moves(ref);
    out->hands = (int)referee_chances(ref);
    g->scores(state, out->scores);
    if (out->reason == END_NORMAL) {
        g->rank(state, out->rank);
        int firsts = 0;
        for (int i = 0; i < players; i++)
            if (out->rank[i] == 0)
                firsts++, out->winner = i;
        if (firsts != 1)
            out->winner = -1;
    }
    if (s->record) {
        if (out->reason != END_NORMAL)
            fprintf(s->record, "# forfeit: seat %d loses by %s: %s\n", out->fault_seat, END_REASON_NAMES[out->reason],
                    out->detail);
        record_write_result(s->record, g, state);
    }
    referee_free(ref);
}
