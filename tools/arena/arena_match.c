#include "arena_match.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"
#include "measure.h"
#include "record.h"

const char *const END_REASON_NAMES[END_COUNT] = { "normal", "crash", "timeout", "illegal", "protocol", "start", "interrupted" };

/* ---------------------------------------------------------------- engine specs */

void arena_spec_init(arena_spec_t *s)
{
    *s = (arena_spec_t){ .tc_base = -1, .tc_inc = -1, .st = -1, .iterations = -1, .timeout = 60, .start_timeout = 10 };
}

void arena_spec_free(arena_spec_t *s)
{
    for (int i = 0; i < s->argc; i++)
        free(s->argv[i]);
    for (int i = 0; i < s->n_options; i++) {
        free(s->opt_name[i]);
        free(s->opt_value[i]);
    }
    free(s->dir);
    free(s->stderr_path);
    arena_spec_init(s);
}

/* Seconds: plain decimal digits with at most one point (no sign, exponent, nan or inf),
 * finite and at most ARENA_MAX_SECONDS. */
static int parse_seconds(const char *v, double *out)
{
    int digits = 0, points = 0;
    for (const char *p = v; *p; p++) {
        if (*p >= '0' && *p <= '9')
            digits++;
        else if (*p == '.' && !points)
            points++;
        else
            return -1;
    }
    if (!digits)
        return -1;
    char *end;
    errno = 0;
    double d = strtod(v, &end);
    if (*end || errno || !isfinite(d) || d < 0 || d > ARENA_MAX_SECONDS)
        return -1;
    *out = d;
    return 0;
}

/* Replace an owned string. */
static int set_string(char **dst, const char *v, char *err, size_t errlen)
{
    char *copy = strdup(v);
    if (!copy)
        return text_fail(err, errlen, "out of memory");
    free(*dst);
    *dst = copy;
    return 0;
}

int arena_spec_set(arena_spec_t *s, const char *field, char *err, size_t errlen)
{
    const char *eq = strchr(field, '=');
    char shown[64];
    text_quote(field, 48, shown, sizeof shown);
    if (!eq)
        return text_fail(err, errlen, "engine field '%s' is not key=value", shown);
    size_t klen = (size_t)(eq - field);
    const char *v = eq + 1;
    if ((klen == 3 && !strncmp(field, "cmd", 3)) || (klen == 3 && !strncmp(field, "arg", 3))) {
        if (!*v)
            return text_fail(err, errlen, "engine field '%s' needs a value", shown);
        if (field[0] == 'c' && s->argc > 0)
            return set_string(&s->argv[0], v, err, errlen);
        if (s->argc >= ARENA_MAX_ARGS)
            return text_fail(err, errlen, "an engine takes at most %d arguments", ARENA_MAX_ARGS - 1);
        if (field[0] == 'a' && s->argc == 0)
            s->argv[s->argc++] = NULL; /* cmd comes later */
        return set_string(&s->argv[s->argc++], v, err, errlen);
    }
    if (klen == 4 && !strncmp(field, "name", 4)) {
        int control = 0;
        for (const unsigned char *p = (const unsigned char *)v; *p; p++)
            control |= *p < 0x20 || *p == 0x7f;
        if (!*v || strlen(v) >= ARENA_NAME_LEN || strpbrk(v, " \t,") || control)
            return text_fail(err, errlen, "name: '%s' must be 1 to %d characters without spaces, commas or control characters", shown,
                               ARENA_NAME_LEN - 1);
        snprintf(s->name, sizeof s->name, "%s", v);
        return 0;
    }
    if (klen > 7 && !strncmp(field, "option.", 7)) {
        if (s->n_options >= ARENA_MAX_OPTIONS)
            return text_fail(err, errlen, "at most %d options an engine", ARENA_MAX_OPTIONS);
        /* A later setting of the same option replaces the earlier (as -each then -engine). */
        int i = 0;
        while (i < s->n_options && (strlen(s->opt_name[i]) != klen - 7 || strncmp(s->opt_name[i], field + 7, klen - 7)))
            i++;
        if (i == s->n_options) {
            if (!(s->opt_name[i] = strndup(field + 7, klen - 7)))
                return text_fail(err, errlen, "out of memory");
            s->n_options++;
        }
        return set_string(&s->opt_value[i], v, err, errlen);
    }
    if (klen == 2 && !strncmp(field, "tc", 2)) {
        char buf[64];
        const char *plus = strchr(v, '+');
        size_t blen = plus ? (size_t)(plus - v) : strlen(v);
        double base = -1, inc = 0;
        if (blen >= sizeof buf || (memcpy(buf, v, blen), buf[blen] = '\0', parse_seconds(buf, &base) < 0) ||
            (plus && parse_seconds(plus + 1, &inc) < 0) || base + inc <= 0)
            return text_fail(err, errlen, "tc: '%s' is not SECONDS or SECONDS+INCREMENT (plain decimals, at most %g s, not both 0)",
                               shown, ARENA_MAX_SECONDS);
        s->tc_base = base;
        s->tc_inc = inc;
        s->given |= SPEC_TC;
        return 0;
    }
    if ((klen == 2 && !strncmp(field, "st", 2)) || (klen == 7 && !strncmp(field, "timeout", 7)) ||
        (klen == 5 && !strncmp(field, "start", 5))) {
        double d;
        const char *key = klen == 2 ? "st" : klen == 7 ? "timeout" : "start";
        if (parse_seconds(v, &d) < 0 || d <= 0)
            return text_fail(err, errlen, "%s: '%s' is not a number of seconds (a plain decimal above 0, at most %g)", key, shown,
                               ARENA_MAX_SECONDS);
        if (klen == 2)
            s->st = d, s->given |= SPEC_ST;
        else if (klen == 7)
            s->timeout = d, s->given |= SPEC_TIMEOUT;
        else
            s->start_timeout = d;
        return 0;
    }
    if (klen == 10 && !strncmp(field, "iterations", 10)) {
        uint64_t n;
        if (text_u64(v, 1, (uint64_t)ARENA_MAX_ITERATIONS, &n) < 0)
            return text_fail(err, errlen, "iterations: '%s' is not a whole number from 1 to %lld", shown, ARENA_MAX_ITERATIONS);
        s->iterations = (long long)n;
        s->given |= SPEC_ITERATIONS;
        return 0;
    }
    if ((klen == 3 && !strncmp(field, "dir", 3)) || (klen == 6 && !strncmp(field, "stderr", 6))) {
        if (!*v)
            return text_fail(err, errlen, "%.6s: '%s' needs a path", field, shown);
        return set_string(klen == 3 ? &s->dir : &s->stderr_path, v, err, errlen);
    }
    return text_fail(err, errlen, "unknown engine field '%s' (cmd, arg, name, option.X, tc, st, iterations, timeout, start, dir, stderr)",
                       shown);
}

int arena_spec_check(const arena_spec_t *s, char *err, size_t errlen)
{
    static const struct {
        unsigned bits;
        const char *text;
    } clash[] = {
        { SPEC_TC | SPEC_ST, "tc: tc and st cannot both be given (a clock for the set, or a fixed time a decision)" },
        { SPEC_TC | SPEC_ITERATIONS, "tc: tc and iterations cannot both be given (time, or a fixed amount of search)" },
        { SPEC_ST | SPEC_ITERATIONS, "st: st and iterations cannot both be given (time, or a fixed amount of search)" },
        { SPEC_TC | SPEC_TIMEOUT, "timeout: timeout is for decisions without tc or st; under tc the clock decides" },
        { SPEC_ST | SPEC_TIMEOUT, "timeout: timeout is for decisions without tc or st; under st the fixed time decides" },
    };
    if (s->argc == 0 || !s->argv[0])
        return text_fail(err, errlen, "cmd: no cmd=PROGRAM");
    for (size_t i = 0; i < sizeof clash / sizeof clash[0]; i++)
        if ((s->given & clash[i].bits) == clash[i].bits)
            return text_fail(err, errlen, "%s", clash[i].text);
    return 0;
}

/* ---------------------------------------------------------------- engine processes */

/* One line to or from an engine in the log: time, engine name and process, direction, line. */
static void log_line(arena_engine_t *e, char dir, const char *line)
{
    arena_log_t *l = e->log;
    if (!l)
        return;
    pthread_mutex_lock(&l->lock);
    if (fprintf(l->f, "%.6f %s.%d %c %s\n", measure_now() - l->t0, e->spec->name, e->instance, dir, line) < 0)
        l->failed = 1;
    pthread_mutex_unlock(&l->lock);
}

int arena_engine_send(arena_engine_t *e, const char *line)
{
    log_line(e, '>', line);
    return client_send(&e->c, line);
}

/* The declarations of hello: the protocol, the games, the option names. */
typedef struct hello_check {
    const char *game;
    int protocol_ok, game_ok;
    char options[ARENA_MAX_OPTIONS * 4][64];
    int n_options;
} hello_check_t;

static void on_hello_line(void *data, const char *line)
{
    hello_check_t *h = data;
    if (!strcmp(line, "protocol " PROTO_NAME " 1"))
        h->protocol_ok = 1;
    if (!strncmp(line, "game ", 5) && !strcmp(line + 5, h->game))
        h->game_ok = 1;
    /* option name NAME type ... */
    if (!strncmp(line, "option name ", 12) && h->n_options < (int)(sizeof h->options / sizeof h->options[0])) {
        const char *name = line + 12;
        size_t n = strcspn(name, " ");
        if (n > 0 && n < sizeof h->options[0] && !strncmp(name + n, " type ", 6)) {
            memcpy(h->options[h->n_options], name, n);
            h->options[h->n_options++][n] = '\0';
        }
    }
}

enum { ASK_EXITED = -1, ASK_VIOLATION = -2, ASK_TIMEOUT = -3, ASK_ABORTED = -4 };

/* A question with an id, answered within timeout. Returns 1 '=', 0 '?', or ASK_EXITED,
 * ASK_TIMEOUT, ASK_ABORTED (the operator stopped the run), or ASK_VIOLATION: a stray error
 * reply (an earlier silent command refused) or a line the reader refused. The wait is cut in
 * slices so that a second ^C is seen at once; a slice ends as soon as a line arrives. */
int arena_engine_ask(arena_engine_t *e, const char *cmd, double timeout, void (*on_line)(void *, const char *), void *data)
{
    long id = ++e->next_id;
    char buf[PROTO_MAX_LINE + 1];
    snprintf(buf, sizeof buf, "%ld %s", id, cmd);
    if (arena_engine_send(e, buf) < 0)
        return ASK_EXITED;
    double deadline = measure_now() + timeout;
    for (;;) {
        if (e->abort && *e->abort >= 2)
            return ASK_ABORTED;
        int left = (int)((deadline - measure_now()) * 1000.0);
        if (left < 0)
            left = 0;
        int slice = e->abort && left > 50 ? 50 : left;
        proto_status_t st = client_read(&e->c, e->line, slice);
        if (st == PROTO_AGAIN) {
            if (slice < left)
                continue;
            return ASK_TIMEOUT;
        }
        if (st == PROTO_EOF)
            return ASK_EXITED;
        if (st != PROTO_LINE) {
            snprintf(e->line, sizeof e->line, "%s", st == PROTO_TOO_LONG ? "a line too long" : "a NUL byte");
            log_line(e, '<', e->line);
            return ASK_VIOLATION;
        }
        log_line(e, '<', e->line);
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

/* Why a question went unanswered, for an error message. */
static const char *ask_failure(int rc, const arena_engine_t *e, double limit, char *buf, size_t len)
{
    if (rc == ASK_EXITED)
        return "the engine exited";
    if (rc == ASK_TIMEOUT)
        snprintf(buf, len, "no answer within %g s", limit);
    else if (rc == ASK_ABORTED)
        snprintf(buf, len, "interrupted");
    else
        snprintf(buf, len, "%.200s", e->line);
    return buf;
}

/* A failed start, its reason already written (text_fail as the argument): the process goes. */
static int start_failed(arena_engine_t *e, int rc)
{
    arena_engine_stop(e);
    return rc;
}

int arena_engine_start(arena_engine_t *e, const arena_spec_t *spec, const char *game, char *err, size_t errlen)
{
    /* A fresh start: all but the log, the instance and the abort flag the caller set. */
    *e = (arena_engine_t){ .spec = spec, .log = e->log, .instance = e->instance, .abort = e->abort };
    char why[400];
    client_opts_t opts = { spec->dir, spec->stderr_path };
    if (client_start_opts(&e->c, spec->argv, &opts, why, sizeof why) < 0) {
        static const char *const field[] = { [CLIENT_STEP_EXEC] = "cmd", [CLIENT_STEP_DIR] = "dir", [CLIENT_STEP_STDERR] = "stderr" };
        /* cmd="python3 bot.py" names no program: the words after the first are arg= fields. */
        const char *space = e->c.failed_step == CLIENT_STEP_EXEC ? strchr(spec->argv[0], ' ') : NULL;
        if (space)
            return text_fail(err, errlen, "%s: %s (a program and its arguments: cmd=%.*s arg=%.100s)", field[e->c.failed_step],
                               why, (int)(space - spec->argv[0]) > 100 ? 100 : (int)(space - spec->argv[0]), spec->argv[0],
                               space + 1);
        return text_fail(err, errlen, "%s: %s", field[e->c.failed_step], why);
    }
    e->running = 1;
    log_line(e, '#', "started");
    double limit = spec->start_timeout;
    hello_check_t *h = calloc(1, sizeof *h);
    if (!h)
        return start_failed(e, text_fail(err, errlen, "cmd: out of memory"));
    h->game = game;
    int rc = arena_engine_ask(e, "hello", limit, on_hello_line, h), failed = 0;
    if (rc == ASK_EXITED)
        failed = text_fail(err, errlen, "cmd: the engine exited during the handshake");
    else if (rc != 1)
        failed = text_fail(err, errlen, "start: no valid answer to hello (%s)", ask_failure(rc, e, limit, why, sizeof why));
    else if (!h->protocol_ok)
        failed = text_fail(err, errlen, "protocol: the engine does not declare 'protocol %s 1'", PROTO_NAME);
    else if (!h->game_ok)
        failed = text_fail(err, errlen, "game: the engine does not list 'game %.40s' in its hello", game);
    /* Only options the engine declared; each is confirmed before the next, so a refusal names
     * its option. */
    for (int i = 0; !failed && i < spec->n_options; i++) {
        int declared = 0;
        for (int k = 0; k < h->n_options && !declared; k++)
            declared = !strcmp(h->options[k], spec->opt_name[i]);
        if (!declared) {
            failed = text_fail(err, errlen, "option.%.60s: the engine declares no option '%.60s' in its hello", spec->opt_name[i],
                                 spec->opt_name[i]);
            break;
        }
        char cmd[PROTO_MAX_LINE];
        snprintf(cmd, sizeof cmd, "setoption name %s value %s", spec->opt_name[i], spec->opt_value[i]);
        rc = arena_engine_send(e, cmd) < 0 ? ASK_EXITED : arena_engine_ask(e, "isready", limit, NULL, NULL);
        if (rc != 1)
            failed = text_fail(err, errlen, "option.%.60s: the engine refused '%.60s': %s", spec->opt_name[i], spec->opt_value[i],
                                 ask_failure(rc, e, limit, why, sizeof why));
    }
    free(h);
    if (failed)
        return start_failed(e, failed);
    rc = arena_engine_ask(e, "isready", limit, NULL, NULL);
    if (rc != 1)
        return start_failed(e, text_fail(err, errlen, "start: no readyok after the handshake (%s)",
                                           ask_failure(rc, e, limit, why, sizeof why)));
    return 0;
}

void arena_engine_stop(arena_engine_t *e)
{
    if (!e->running)
        return;
    log_line(e, '>', "quit");
    client_stop(&e->c, 500);
    log_line(e, '#', "stopped");
    e->running = 0;
}

/* ---------------------------------------------------------------- one set */


/* A seat's failure: the reason kept for the result, the text for the referee. The engine at
 * fault is not trusted any more: a fresh process for its next set. */
static int seat_fail(arena_seat_t *x, arena_end_reason_t why, int rc)
{
    x->reason = why;
    arena_engine_stop(x->s->engine[x->seat]);
    return rc;
}

static int seat_event(void *data, const game_event_t *ev, char *err, size_t errlen)
{
    arena_seat_t *x = data;
    arena_engine_t *e = x->s->engine[x->seat];
    char text[1024], line[1100];
    x->s->game->event_format(ev, text, sizeof text);
    snprintf(line, sizeof line, "event %s", text);
    if (arena_engine_send(e, line) < 0)
        return seat_fail(x, END_CRASH, text_fail(err, errlen, "%s exited", e->spec->name));
    return 0;
}

static int seat_decide(void *data, game_move_t *m, char *err, size_t errlen)
{
    arena_seat_t *x = data;
    arena_engine_t *e = x->s->engine[x->seat];
    const arena_spec_t *sp = e->spec;
    char go[128];
    double limit;
    if (sp->iterations > 0) {
        snprintf(go, sizeof go, "go iterations %lld", sp->iterations);
        limit = sp->timeout;
    } else if (sp->tc_base >= 0) {
        /* A chess clock: the time left (never below 0 in what is said) and the increment. */
        snprintf(go, sizeof go, "go settime %.0f inc %.0f", x->clock > 0 ? floor(x->clock * 1000.0) : 0.0,
                 floor(sp->tc_inc * 1000.0 + 0.5));
        limit = x->clock;
    } else if (sp->st > 0) {
        snprintf(go, sizeof go, "go movetime %.0f", floor(sp->st * 1000.0 + 0.5));
        limit = sp->st;
    } else {
        snprintf(go, sizeof go, "go");
        limit = sp->timeout;
    }
    double allowed = limit + x->s->margin;
    double t0 = measure_now();
    int rc = arena_engine_ask(e, go, allowed > 0 ? allowed : 0, NULL, NULL);
    double spent = measure_now() - t0;
    x->r->think[x->seat] += spent;
    if (rc == ASK_ABORTED)
        return seat_fail(x, END_INTERRUPTED, text_fail(err, errlen, "interrupted by the operator"));
    if (rc == ASK_TIMEOUT || (rc >= 0 && spent > allowed)) {
        if (sp->tc_base >= 0)
            return seat_fail(x, END_TIMEOUT,
                             text_fail(err, errlen, "%s lost on time: its clock (tc=%g+%g) ran out by %.3f s, beyond the margin of %.3f s",
                             sp->name, sp->tc_base, sp->tc_inc, spent - limit, x->s->margin));
        return seat_fail(x, END_TIMEOUT, text_fail(err, errlen, "%s took more than %.3f s to move", sp->name, allowed));
    }
    if (rc == ASK_EXITED)
        return seat_fail(x, END_CRASH, text_fail(err, errlen, "%s exited while deciding", sp->name));
    if (rc == ASK_VIOLATION)
        return seat_fail(x, END_PROTOCOL, text_fail(err, errlen, "%s refused an event or command: %.150s", sp->name, e->line));
    const char *text;
    int ok;
    long id;
    proto_parse_reply(e->line, &ok, &id, &text);
    if (rc == 0)
        return seat_fail(x, END_PROTOCOL, text_fail(err, errlen, "%s answered go with an error: %.150s", sp->name, text));
    if (strncmp(text, "move ", 5) != 0)
        return seat_fail(x, END_PROTOCOL, text_fail(err, errlen, "%s answered go without a move: %.150s", sp->name, text));
    char why[GAME_ERR_LEN];
    if (x->s->game->move_parse(text + 5, m, why, sizeof why) < 0)
        return seat_fail(x, END_ILLEGAL, text_fail(err, errlen, "%s: malformed move '%.60s': %s", sp->name, text + 5, why));
    if (sp->tc_base >= 0)
        x->clock += sp->tc_inc - spent; /* may dip below 0 by at most the margin, over the whole set */
    return 0;
}

void arena_newgame_line(const game_t *g, const game_config_t *cfg, int players, int seat, uint64_t seed, char *buf,
                        size_t len)
{
    size_t n = (size_t)snprintf(buf, len, "newgame game %s", g->name);
    if (cfg->preset[0] && n < len)
        n += (size_t)snprintf(buf + n, len - n, " preset %s", cfg->preset);
    for (int i = 0; i < cfg->n_flags && n < len; i++)
        n += (size_t)snprintf(buf + n, len - n, " flag %s", cfg->flags[i]);
    if (n < len)
        snprintf(buf + n, len - n, " players %d seat %d seed %" PRIu64, players, seat, seed);
}

int arena_seat_start(arena_seat_t *x, char *err, size_t errlen)
{
    const arena_set_setup_t *s = x->s;
    arena_engine_t *e = s->engine[x->seat];
    char why[300];
    if (!e->running && arena_engine_start(e, e->spec, s->game->name, why, sizeof why) < 0)
        return seat_fail(x, e->abort && *e->abort >= 2 ? END_INTERRUPTED : END_START,
                         text_fail(err, errlen, "%s: %s", e->spec->name, why));
    char cmd[2048];
    arena_newgame_line(s->game, &s->cfg, x->r->players, x->seat, s->engine_seed[x->seat], cmd, sizeof cmd);
    if (arena_engine_send(e, cmd) < 0)
        return seat_fail(x, END_CRASH, text_fail(err, errlen, "%s exited", e->spec->name));
    int rc = arena_engine_ask(e, "isready", e->spec->start_timeout, NULL, NULL);
    if (rc == ASK_ABORTED)
        return seat_fail(x, END_INTERRUPTED, text_fail(err, errlen, "interrupted by the operator"));
    if (rc == ASK_VIOLATION)
        return seat_fail(x, END_PROTOCOL, text_fail(err, errlen, "%s refused the new game: %.150s", e->spec->name, e->line));
    if (rc != 1)
        return seat_fail(x, END_CRASH, text_fail(err, errlen, "%s did not answer isready for the new game", e->spec->name));
    return 0;
}

void arena_seat_init(arena_seat_t *x, const arena_set_setup_t *s, arena_set_result_t *r, int seat)
{
    *x = (arena_seat_t){ s, r, seat, s->engine[seat]->spec->tc_base, END_NORMAL };
}

referee_seat_t arena_seat_referee(arena_seat_t *x) { return (referee_seat_t){ seat_event, seat_decide, x }; }

typedef struct record_sink {
    FILE *f;
    const game_t *g;
} record_sink_t;

static void on_move(void *data, const void *state, int seat, const game_move_t *m)
{
    record_sink_t *k = data;
    (void)state;
    /* Each move as it is played, so that a set in progress can be followed (picket-serve --watch). */
    if (record_write_move(k->f, k->g, seat, m) == 0)
        fflush(k->f);
}

/* The standing after a fault: the seat at fault last alone, every other seat first. */
static void forfeit(arena_set_result_t *out, int seat)
{
    for (int i = 0; i < out->players; i++)
        out->rank[i] = i == seat ? out->players - 1 : 0;
    out->fault_seat = seat;
    out->winner = out->players == 2 ? 1 - seat : -1;
}

void arena_play_set(const arena_set_setup_t *s, arena_set_result_t *out)
{
    *out = (arena_set_result_t){ .fault_seat = -1, .winner = -1, .reason = END_NORMAL };
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
    record_sink_t sink = { s->record, g };
    if (s->record) {
        record_write_header(s->record, g, &s->cfg);
        if (s->record_note[0])
            fprintf(s->record, "# %s\n", s->record_note);
        for (int i = 0; i < players; i++)
            fprintf(s->record, "# seat %d: %s\n", i, s->engine[i]->spec->name);
        referee_hooks_t hooks = { NULL, on_move, &sink };
        referee_set_hooks(ref, &hooks);
    }
    arena_seat_t seats[GAME_MAX_PLAYERS];
    int ok = 1;
    for (int i = 0; i < players; i++) {
        arena_seat_init(&seats[i], s, out, i);
        referee_seat_t rs = arena_seat_referee(&seats[i]);
        referee_set_seat(ref, i, &rs);
    }
    for (int i = 0; i < players && ok; i++)
        if (arena_seat_start(&seats[i], out->detail, sizeof out->detail) < 0) {
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
            arena_engine_stop(s->engine[seat]);
        }
        forfeit(out, seat);
    }
    const void *state = referee_state(ref);
    out->moves = (int)referee_moves(ref);
    out->hands = (int)referee_chances(ref);
    g->scores(state, out->scores);
    if (out->reason == END_NORMAL) {
        out->has_settled = g->settled && g->settled(state, out->settled);
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
