#include "session.h"

#include <stdarg.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bot.h"
#include "level.h"
#include "game.h"

enum { HISTORY_MAX = PROTO_MAX_LINE };
/* The session's own options (OPTIONS below). `level` comes after `bot`: opt_reset applies the
 * defaults in this order, and level 5 sets `bot` to its own default again. */
enum { SO_BOT, SO_LEVEL, SO_INFO, SO_LOG, N_OPTIONS };

/* One game as this seat sees it. */
typedef struct table {
    const game_t *game;
    game_config_t cfg;                  /* the rules; the deal seed is the referee's, never sent */
    uint64_t engine_seed;               /* newgame's seed: this engine's own randomness */
    int seat;
    void *view;                         /* and after it, room for a copy (apply_event) */
    bot_t *bot;
    /* every event of this set, for `view` (one line) */
    char history[HISTORY_MAX];
    size_t history_len;
    int history_full;
} table_t;

struct session {
    FILE *out;
    proto_reader_t reader;
    int poll_input;
    const char *name, *author;
    long line_no;
    /* options: the session's own, and every bot's with its current value */
    opt_def_t opts[N_OPTIONS];
    bot_settings_t *bots;
    int bot_stale;                      /* a bot option changed since the bot was made */
    char bot_name[BOT_NAME_LEN];
    int info;
    FILE *log;                          /* every line received, when the log option is set */
    table_t t;                          /* the game, if any */
    /* a search in progress: stop asked for, quit asked for */
    int stop, quit;
    /* Line buffers, here rather than on the stack: a line may be 64 KiB. */
    char line[PROTO_MAX_LINE + 1];      /* the line being handled (session_run) */
    char poll_line[PROTO_MAX_LINE + 1]; /* a line read during a search */
    char work[PROTO_MAX_LINE + 1];      /* the handled line, split into words */
    char canon[PROTO_MAX_LINE + 1];     /* an event in canonical notation */
    char value[PROTO_MAX_LINE + 1];     /* setoption's value */
    char reply[PROTO_MAX_LINE + 1];     /* view's reply */
    game_move_t moves[GAME_MAX_MOVES];  /* go's move, analyze's moves and values */
    double values[GAME_MAX_MOVES];
};

/* ---------------------------------------------------------------- options */

static int set_bot(void *ctx, const char *value, char *err, size_t errlen)
{
    session_t *s = ctx;
    (void)err;
    (void)errlen;
    snprintf(s->bot_name, sizeof s->bot_name, "%s", value);
    return 0;
}

/* The strength levels (search/level.h): `bot` and every budget through the paths setoption
 * takes (the bot option's setter, bot_settings_set); later setoptions may change any of them.
 * Every value is checked before any is set, so a refused level changes nothing (short of running
 * out of memory). */
static int set_level(void *ctx, const char *value, char *err, size_t errlen)
{
    session_t *s = ctx;
    long n = strtol(value, NULL, 10); /* already checked: a whole number from LEVEL_MIN to LEVEL_MAX */
    int ok;
    const char *bot = level_bot((int)n, &ok, err, errlen);
    const opt_def_t *bot_opt = &s->opts[SO_BOT];
    if (!ok)
        return -1;
    if (!bot)
        bot = bot_opt->def;
    if (opt_check(bot_opt, bot, NULL, err, errlen) < 0 || level_set_budgets((int)n, s->bots, err, errlen) < 0 ||
        bot_opt->set(s, bot, err, errlen) < 0)
        return -1;
    s->bot_stale = 1;
    return 0;
}

static int set_info(void *ctx, const char *value, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    ((session_t *)ctx)->info = strcmp(value, "true") == 0;
    return 0;
}

/* The new file is opened before the old one is closed: a refused value changes nothing. */
static int set_log(void *ctx, const char *value, char *err, size_t errlen)
{
    session_t *s = ctx;
    FILE *f = NULL;
    if (*value && !(f = fopen(value, "a"))) {
        char shown[64];
        text_quote(value, 48, shown, sizeof shown);
        snprintf(err, errlen, "option log: cannot append to '%s'", shown);
        return -1;
    }
    if (s->log)
        fclose(s->log);
    s->log = f;
    return 0;
}

/* Every line read whole goes to the log, if one is set: those handled and those read during a
 * search alike (a line over the limit or holding a NUL byte is never read whole). */
static void log_line(session_t *s, const char *line)
{
    if (s->log) {
        fprintf(s->log, "%s\n", line);
        fflush(s->log);
    }
}

/* The session's own options (their names hold no '.', so no bot's option can take one). The
 * values of `bot` are the bots of search/bot.c's table, filled in by session_create. */
static const opt_def_t OPTIONS[N_OPTIONS] = {
    [SO_BOT] = { "bot", OPT_COMBO, BOT_DEFAULT, 0, 0, { NULL }, "the player that decides", set_bot, OPT_TO_NONE, 0 },
    [SO_LEVEL] = { "level", OPT_SPIN, "5", LEVEL_MIN, LEVEL_MAX, { NULL },
                   "strength: 1 random, 2 heuristic, 3 and 4 pimc on small budgets, 5 the default (sets bot, budgets)",
                   set_level, OPT_TO_NONE, 0 },
    [SO_INFO] = { "info", OPT_CHECK, "true", 0, 0, { NULL }, "print info lines while deciding", set_info, OPT_TO_NONE, 0 },
    [SO_LOG] = { "log", OPT_STRING, "", 0, 0, { NULL }, "append every line received to this file", set_log, OPT_TO_NONE, 0 },
};

/* ---------------------------------------------------------------- life */

session_t *session_create(FILE *out, int in_fd, const char *name, const char *author)
{
    session_t *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->out = out;
    proto_reader_init(&s->reader, in_fd);
    s->poll_input = in_fd >= 0;
    s->name = name;
    s->author = author;
    s->t.seat = -1;
    char err[GAME_ERR_LEN];
    memcpy(s->opts, OPTIONS, sizeof OPTIONS);
    int nb;
    const bot_def_t *bots = bot_list(&nb);
    for (int i = 0; i < nb && i < OPT_MAX_VARS; i++)
        s->opts[SO_BOT].vars[i] = bots[i].name;
    if (!(s->bots = bot_settings_create(err, sizeof err)) || opt_reset(s->opts, N_OPTIONS, s, err, sizeof err) < 0) {
        session_free(s);
        return NULL;
    }
    return s;
}

static void table_free(table_t *t)
{
    bot_free(t->bot);
    t->bot = NULL;
    free(t->view);
    t->view = NULL;
    t->game = NULL;
    t->seat = -1;
}

void session_free(session_t *s)
{
    if (!s)
        return;
    if (s->log)
        fclose(s->log);
    table_free(&s->t);
    bot_settings_free(s->bots);
    free(s);
}

const void *session_view(const session_t *s) { return s->t.view; }
const opt_def_t *session_options(const session_t *s, int *n)
{
    *n = N_OPTIONS;
    return s->opts;
}
/* ---------------------------------------------------------------- replies */

/* An error about the current line: "?ID line N: reason". Returns -1, for `return fail(...)`. */
static int fail(session_t *s, const char *id, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(session_t *s, const char *id, const char *fmt, ...)
{
    char why[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    proto_reply(s->out, id, 0, "line %ld: %s", s->line_no, why);
    return -1;
}

void session_bad_line(session_t *s, proto_status_t why)
{
    s->line_no++;
    if (why == PROTO_TOO_LONG)
        fail(s, NULL, "longer than %d bytes; ignored", PROTO_MAX_LINE);
    else
        fail(s, NULL, "holds a NUL byte; ignored");
}

/* ---------------------------------------------------------------- commands */

/* One command line, as every command receives it. */
typedef struct command_line {
    const char *id;      /* NULL without an id */
    char **w;            /* the words, w[0] the command */
    int n;
    const char *raw;     /* the line as received */
    const char *rest;    /* the raw text after the command word */
} command_line_t;

/* A command: its name and what runs it; returns 1 when the session must end, else 0 or -1 (refused:
 * the error is sent). */
typedef struct command {
    const char *name;
    int (*run)(session_t *s, const command_line_t *c);
} command_t;

static int cmd_hello(session_t *s, const command_line_t *c)
{
    proto_line(s->out, "protocol %s %d", PROTO_NAME, PROTO_VERSION);
    proto_line(s->out, "name %s", s->name);
    proto_line(s->out, "author %s", s->author);
    int n;
    const game_t *const *games = game_list(&n);
    for (int i = 0; i < n; i++)
        proto_line(s->out, "game %s", games[i]->name);
    proto_print_options(s->out, s->opts, N_OPTIONS);
    int nb;
    const opt_def_t *bot_opts = bot_settings_options(s->bots, &nb);
    proto_print_options(s->out, bot_opts, nb);
    proto_reply(s->out, c->id, 1, "hello");
    return 0;
}

static int cmd_isready(session_t *s, const command_line_t *c)
{
    proto_reply(s->out, c->id, 1, "readyok");
    return 0;
}

/* setoption name NAME value VALUE... (the value may hold spaces) */
static int cmd_setoption(session_t *s, const command_line_t *c)
{
    char **w = c->w;
    if (c->n < 4 || strcmp(w[1], "name") != 0 || strcmp(w[3], "value") != 0)
        return fail(s, c->id, "usage: setoption name NAME value VALUE");
    /* The value is the rest of the raw line after the word "value", trimmed; it may hold spaces.
     * It may be nearly a whole line long: the session holds its buffer, never the stack. */
    snprintf(s->value, sizeof s->value, "%s", c->raw + (w[3] - s->work) + 5);
    const char *value = text_trim(s->value);
    char err[GAME_ERR_LEN];
    /* The session's own options first; any other name is a bot's (bot_settings refuses the rest). */
    int rc;
    if (opt_find(s->opts, N_OPTIONS, w[2]))
        rc = opt_set(s->opts, N_OPTIONS, s, w[2], value, err, sizeof err);
    else if ((rc = bot_settings_set(s->bots, w[2], value, err, sizeof err)) == 0)
        s->bot_stale = 1;
    return rc < 0 ? fail(s, c->id, "%s", err) : 0;
}

static void history_add(session_t *s, const char *text)
{
    size_t n = strlen(text);
    if (s->t.history_len + n + 3 >= HISTORY_MAX) {
        s->t.history_full = 1;
        return;
    }
    if (s->t.history_len) {
        memcpy(s->t.history + s->t.history_len, "; ", 2);
        s->t.history_len += 2;
    }
    memcpy(s->t.history + s->t.history_len, text, n + 1);
    s->t.history_len += n;
}

/* newgame game G [preset P] [flag K=V]... seat S [seed N]: words from index `from`. */
static int start_game(session_t *s, const char *id, char **w, int n, int from)
{
    game_config_t cfg = { 0 };
    const game_t *g = NULL;
    int seat = -1;
    uint64_t seed = 1;
    char err[GAME_ERR_LEN], shown[48];
    for (int i = from; i < n; i += 2) {
        if (i + 1 >= n) {
            text_quote(w[i], 40, shown, sizeof shown);
            return fail(s, id, "'%s' needs a value", shown);
        }
        const char *k = w[i], *v = w[i + 1];
        text_quote(v, 40, shown, sizeof shown);
        if (strcmp(k, "game") == 0) {
            if (!(g = game_find(v)))
                return fail(s, id, "unknown game '%s'", shown);
        } else if (strcmp(k, "preset") == 0) {
            if (game_config_set_preset(&cfg, v, err, sizeof err) < 0)
                return fail(s, id, "%s", err);
        } else if (strcmp(k, "flag") == 0) {
            if (game_config_add_flag(&cfg, v, err, sizeof err) < 0)
                return fail(s, id, "%s", err);
        } else if (strcmp(k, "seat") == 0 || strcmp(k, "players") == 0) {
            int players = k[0] == 'p'; /* seats 0 to GAME_MAX_PLAYERS - 1, players 1 to GAME_MAX_PLAYERS */
            uint64_t x;
            if (text_u64(v, players, GAME_MAX_PLAYERS - 1 + players, &x) < 0)
                return fail(s, id, "bad %s '%s' (a whole number from %d to %d)", k, shown, players,
                            GAME_MAX_PLAYERS - 1 + players);
            *(players ? &cfg.players : &seat) = (int)x;
        } else if (strcmp(k, "seed") == 0) {
            if (text_u64(v, 0, UINT64_MAX, &seed) < 0)
                return fail(s, id, "bad seed '%s' (a whole number from 0 to %" PRIu64 ")", shown, UINT64_MAX);
        } else {
            text_quote(k, 40, shown, sizeof shown);
            return fail(s, id, "unknown newgame field '%s' (game, preset, flag, players, seat, seed)", shown);
        }
    }
    if (!g)
        return fail(s, id, "newgame needs 'game NAME'");
    if (seat < 0)
        return fail(s, id, "newgame needs 'seat N'");
    void *view = calloc(2, g->view_size); /* the view, then apply_event's copy */
    if (!view)
        return fail(s, id, "out of memory");
    if (g->view_init(view, &cfg, seat, err, sizeof err) < 0) {
        free(view);
        return fail(s, id, "%s", err);
    }
    bot_t *bot = bot_create_with(s->bot_name, g, seed, s->bots, err, sizeof err);
    if (!bot) {
        free(view);
        return fail(s, id, "%s", err);
    }
    table_free(&s->t);
    s->t.game = g;
    s->t.cfg = cfg;
    s->t.engine_seed = seed;
    s->t.seat = seat;
    s->t.view = view;
    s->t.bot = bot;
    s->bot_stale = 0;
    s->t.history_len = 0;
    s->t.history_full = 0;
    s->t.history[0] = '\0';
    return 0;
}

static int apply_event(session_t *s, const char *id, const char *text)
{
    game_event_t ev;
    char err[GAME_ERR_LEN], shown[64];
    if (!s->t.view)
        return fail(s, id, "no game: send newgame first");
    if (s->t.game->event_parse(text, s->t.seat, &ev, err, sizeof err) < 0)
        return fail(s, id, "%s", err);
    /* A copy first (the view's second half): a refused event must leave the view as it was. */
    void *copy = (char *)s->t.view + s->t.game->view_size;
    memcpy(copy, s->t.view, s->t.game->view_size);
    if (s->t.game->view_apply(copy, &ev) < 0) {
        text_quote(text, 48, shown, sizeof shown);
        return fail(s, id, "event '%s' does not follow from this seat's view", shown);
    }
    memcpy(s->t.view, copy, s->t.game->view_size);
    s->t.game->event_format(&ev, s->canon, sizeof s->canon);
    history_add(s, s->canon);
    return 0;
}

/* position game G ... seat S [seed N] events E1; E2; ...  (every event since the set began).
 * All or nothing: if any part is refused, the game before it stays as it was. */
static int cmd_position(session_t *s, const command_line_t *c)
{
    const char *id = c->id;
    int ev_at = c->n;
    for (int i = 1; i < c->n; i++)
        if (strcmp(c->w[i], "events") == 0) {
            ev_at = i;
            break;
        }
    table_t *saved = malloc(sizeof *saved);
    if (!saved)
        return fail(s, id, "out of memory");
    memcpy(saved, &s->t, sizeof *saved);
    memset(&s->t, 0, sizeof s->t);
    s->t.seat = -1;
    int ok = start_game(s, id, c->w, ev_at, 1) == 0;
    /* The events start after the word "events", at the same offset in the raw line. */
    char *buf = NULL;
    if (ok && ev_at < c->n && !(buf = strdup(c->raw + (c->w[ev_at] - s->work) + 6))) {
        fail(s, id, "out of memory");
        ok = 0;
    }
    char *save = NULL;
    for (char *e = buf ? strtok_r(buf, ";", &save) : NULL; ok && e; e = strtok_r(NULL, ";", &save)) {
        e = text_trim(e);
        if (*e && apply_event(s, id, e) < 0)
            ok = 0;
    }
    free(buf);
    if (ok) {
        table_free(saved);
    } else {
        table_free(&s->t);
        memcpy(&s->t, saved, sizeof s->t);
    }
    free(saved);
    return 0;
}

/* Append to the reply being built; 0, or -1 once it no longer fits. */
static int reply_add(session_t *s, size_t *len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int reply_add(session_t *s, size_t *len, const char *fmt, ...)
{
    size_t room = sizeof s->reply - *len;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(s->reply + *len, room, fmt, ap);
    va_end(ap);
    if (w < 0 || (size_t)w >= room)
        return -1;
    *len += (size_t)w;
    return 0;
}

static int cmd_view(session_t *s, const command_line_t *c)
{
    if (!s->t.view)
        return fail(s, c->id, "no game: send newgame first");
    /* The whole reply is built in a line-sized buffer, header and events alike, and checked as
     * one: "=ID " and the text must fit a line a controller can send back (24 bytes spare). */
    const game_config_t *cfg = &s->t.cfg;
    size_t n = 0;
    int ok = !s->t.history_full && reply_add(s, &n, "position game %s", s->t.game->name) == 0;
    if (ok && cfg->preset[0])
        ok = reply_add(s, &n, " preset %s", cfg->preset) == 0;
    for (int i = 0; ok && i < cfg->n_flags; i++)
        ok = reply_add(s, &n, " flag %s", cfg->flags[i]) == 0;
    if (ok && cfg->players)
        ok = reply_add(s, &n, " players %d", cfg->players) == 0;
    if (ok)
        ok = reply_add(s, &n, " seat %d seed %" PRIu64, s->t.seat, s->t.engine_seed) == 0;
    if (ok && s->t.history_len)
        ok = reply_add(s, &n, " events %s", s->t.history) == 0;
    if (!ok || n + 24 > PROTO_MAX_LINE)
        return fail(s, c->id, "this set's events no longer fit one line of %d bytes; replay them with event lines",
                    PROTO_MAX_LINE);
    proto_reply(s->out, c->id, 1, "%s", s->reply);
    return 0;
}

/* The limits of go and analyze, declared once: the parser and the error that lists them both
 * read this table. Every number is whole, decimal digits only, in its range: no sign, no
 * exponent, no wrap (the arena may send up to 10^12 iterations). `inc` is the chess clock's
 * increment. -1: not given. */
#define LIMIT_MAX UINT64_C(1000000000000)
enum { LIM_SETTIME, LIM_MOVETIME, LIM_INC, LIM_ITERATIONS, N_LIMITS };
static const struct limit_def {
    const char *name;
    uint64_t lo, hi;
} LIMITS[N_LIMITS] = {
    [LIM_SETTIME] = { "settime", 0, LIMIT_MAX },
    [LIM_MOVETIME] = { "movetime", 0, LIMIT_MAX },
    [LIM_INC] = { "inc", 0, LIMIT_MAX },
    [LIM_ITERATIONS] = { "iterations", 1, LIMIT_MAX },
};

static int parse_limits(session_t *s, const char *id, char **w, int n, bot_limits_t *lim)
{
    int64_t value[N_LIMITS];
    for (int k = 0; k < N_LIMITS; k++)
        value[k] = -1;
    lim->infinite = 0;
    for (int i = 1; i < n; i++) {
        if (strcmp(w[i], "infinite") == 0) {
            lim->infinite = 1;
            continue;
        }
        int k = 0;
        while (k < N_LIMITS && strcmp(w[i], LIMITS[k].name) != 0)
            k++;
        char shown[48];
        text_quote(w[i], 40, shown, sizeof shown);
        if (k == N_LIMITS) {
            char names[128] = "";
            for (int j = 0; j < N_LIMITS; j++)
                snprintf(names + strlen(names), sizeof names - strlen(names), "%s, ", LIMITS[j].name);
            return fail(s, id, "unknown limit '%s' (%sinfinite)", shown, names);
        }
        const struct limit_def *d = &LIMITS[k];
        if (i + 1 >= n)
            return fail(s, id, "limit %s needs a whole number from %" PRIu64 " to %" PRIu64, d->name, d->lo, d->hi);
        uint64_t v;
        if (text_u64(w[++i], d->lo, d->hi, &v) < 0) {
            text_quote(w[i], 40, shown, sizeof shown);
            return fail(s, id, "limit %s: '%s' is not a whole number from %" PRIu64 " to %" PRIu64, d->name, shown,
                        d->lo, d->hi);
        }
        value[k] = (int64_t)v;
    }
    lim->time_left_ms = value[LIM_SETTIME];
    lim->move_time_ms = value[LIM_MOVETIME];
    lim->inc_ms = value[LIM_INC];
    lim->iterations = value[LIM_ITERATIONS];
    return 0;
}

/* The seat must be the one to decide; the bot is the one the options name: 0, or -1 (refused). */
static int my_turn(session_t *s, const char *id)
{
    if (!s->t.view)
        return fail(s, id, "no game: send newgame first");
    if (strcmp(s->t.bot->name, s->bot_name) != 0 || s->bot_stale) {
        /* Another bot, or new option values: a new bot, seeded as newgame seeds it. */
        char err[GAME_ERR_LEN];
        bot_t *b = bot_create_with(s->bot_name, s->t.game, s->t.engine_seed, s->bots, err, sizeof err);
        if (!b)
            return fail(s, id, "%s", err);
        bot_free(s->t.bot);
        s->t.bot = b;
        s->bot_stale = 0;
    }
    int who = s->t.game->view_to_move(s->t.view);
    if (who == GAME_OVER)
        return fail(s, id, "the game is over");
    if (who == GAME_CHANCE)
        return fail(s, id, "not this seat's turn (a deal or a turn is due)");
    if (who != s->t.seat)
        return fail(s, id, "not this seat's turn (seat %d is to move)", who);
    return 0;
}

/* A line's id, its leading word if that is a number: taken off the n words (n < 0: more words
 * than were split). NULL if there is none. */
static const char *take_id(char **w, int *n)
{
    const char *id = *n && strspn(w[0], "0123456789") == strlen(w[0]) ? w[0] : NULL;
    if (id && --*n > 0)
        memmove(w, w + 1, sizeof w[0] * (size_t)*n);
    return id;
}

/* While a bot thinks: answer isready at once, note stop and quit, refuse the rest. */
static int should_stop(void *data)
{
    session_t *s = data;
    char *line = s->poll_line;
    while (s->poll_input && !s->stop) {
        proto_status_t st = proto_read_line(&s->reader, line, 0);
        if (st == PROTO_AGAIN)
            break;
        if (st == PROTO_EOF) {
            s->stop = s->quit = 1;
            break;
        }
        if (st != PROTO_LINE) {
            session_bad_line(s, st);
            continue;
        }
        s->line_no++;
        log_line(s, line);
        char *w[3];
        char copy[64];
        size_t len = strnlen(line, sizeof copy - 1);
        memcpy(copy, line, len);
        copy[len] = '\0';
        int n = proto_split(copy, w, 3);
        const char *id = take_id(w, &n);
        if (n >= 1 && strcmp(w[0], "isready") == 0)
            proto_reply(s->out, id, 1, "readyok");
        else if (n >= 1 && strcmp(w[0], "stop") == 0)
            s->stop = 1;
        else if (n >= 1 && strcmp(w[0], "quit") == 0)
            s->stop = s->quit = 1;
        else
            fail(s, id, "only isready, stop and quit are allowed during a search");
    }
    return s->stop;
}

static void print_info(void *data, const bot_info_t *info)
{
    session_t *s = data;
    if (!s->info)
        return;
    double ms = info->seconds * 1000.0;
    proto_line(s->out, "info iterations %" PRId64 " worlds %" PRId64 " nodes %" PRId64 " time %.0f rate %.0f",
               info->iterations, info->worlds, info->nodes, ms,
               info->seconds > 0 ? (double)info->nodes / info->seconds : 0.0);
    for (int i = 0; i < info->nlines; i++) {
        char mv[512];
        s->t.game->move_format(&info->moves[i], mv, sizeof mv);
        proto_line(s->out, "info line %d value %.4f move %s", i + 1, info->values[i], mv);
    }
}

/* go (the bot's move) and analyze (every move valued, best first), within the limits given. */
static int decide(session_t *s, const command_line_t *c, int analyze)
{
    bot_limits_t lim;
    if (my_turn(s, c->id) < 0 || parse_limits(s, c->id, c->w, c->n, &lim) < 0)
        return -1;
    bot_hooks_t hooks = { should_stop, print_info, s };
    bot_t *b = s->t.bot;
    char mv[512];
    s->stop = 0;
    int k = analyze ? b->evaluate(b, s->t.view, &lim, &hooks, s->moves, s->values, GAME_MAX_MOVES)
                    : b->choose(b, s->t.view, &lim, &hooks, s->moves);
    if (k < 0) {
        fail(s, c->id, "the bot found no move");
        if (!analyze)
            return -1; /* go says no bye */
    } else if (analyze) {
        bot_sort_moves(s->moves, s->values, k);
        for (int i = 0; i < k; i++) {
            s->t.game->move_format(&s->moves[i], mv, sizeof mv);
            proto_line(s->out, "analysis value %.4f move %s", s->values[i], mv);
        }
        proto_reply(s->out, c->id, 1, "analyze %d", k);
    } else {
        s->t.game->move_format(&s->moves[0], mv, sizeof mv);
        proto_reply(s->out, c->id, 1, "move %s", mv);
    }
    if (s->quit)
        proto_reply(s->out, NULL, 1, "bye");
    return 0;
}

static int cmd_go(session_t *s, const command_line_t *c) { return decide(s, c, 0); }
static int cmd_analyze(session_t *s, const command_line_t *c) { return decide(s, c, 1); }

static int cmd_newgame(session_t *s, const command_line_t *c) { return start_game(s, c->id, c->w, c->n, 1); }

static int cmd_event(session_t *s, const command_line_t *c)
{
    return c->n < 2 ? fail(s, c->id, "usage: event EVENT") : apply_event(s, c->id, c->rest);
}

static int cmd_stop(session_t *s, const command_line_t *c) { return fail(s, c->id, "no search to stop"); }

static int cmd_quit(session_t *s, const command_line_t *c)
{
    proto_reply(s->out, c->id, 1, "bye");
    return 1;
}

static int cmd_list(session_t *s, const command_line_t *c);

/* Every command: dispatch and list_commands both read this table, in this order. */
static const command_t COMMANDS[] = {
    { "hello", cmd_hello },       { "list_commands", cmd_list }, { "setoption", cmd_setoption },
    { "isready", cmd_isready },   { "newgame", cmd_newgame },    { "event", cmd_event },
    { "position", cmd_position }, { "view", cmd_view },          { "go", cmd_go },
    { "analyze", cmd_analyze },   { "stop", cmd_stop },          { "quit", cmd_quit },
};
enum { N_COMMANDS = sizeof COMMANDS / sizeof COMMANDS[0] };

static int cmd_list(session_t *s, const command_line_t *c)
{
    for (int i = 0; i < N_COMMANDS; i++)
        proto_line(s->out, "command %s", COMMANDS[i].name);
    proto_reply(s->out, c->id, 1, "list_commands");
    return 0;
}

const char *session_command(int i) { return i >= 0 && i < N_COMMANDS ? COMMANDS[i].name : NULL; }

int session_handle_line(session_t *s, const char *line)
{
    s->line_no++;
    log_line(s, line);
    size_t len = strnlen(line, PROTO_MAX_LINE);
    memmove(s->work, line, len);
    s->work[len] = '\0';
    /* position's events may run to hundreds of words (a whole set): only its header, up to the
     * word "events", is split into words; cmd_position reads the events from the raw line. */
    const char *head = s->work + strspn(s->work, " \t");
    head += strspn(head, "0123456789");
    head += strspn(head, " \t");
    if (!strncmp(head, "position", 8) && (head[8] == ' ' || head[8] == '\t')) {
        for (char *e = strstr(s->work, "events"); e; e = strstr(e + 1, "events"))
            if ((e[-1] == ' ' || e[-1] == '\t') && (e[6] == ' ' || e[6] == '\t' || e[6] == '\0')) {
                e[6] = '\0';
                break;
            }
    }
    char *w[PROTO_MAX_TOKENS];
    int n = proto_split(s->work, w, PROTO_MAX_TOKENS);
    if (n < 0) {
        fail(s, NULL, "more than %d words", PROTO_MAX_TOKENS);
        return 0;
    }
    const char *id = take_id(w, &n);
    if (n == 0) {
        fail(s, id, "empty line");
        return 0;
    }
    for (const unsigned char *p = (const unsigned char *)line; *p; p++)
        if ((*p < 0x20 && *p != '\t') || *p == 0x7f) {
            fail(s, id, "holds a control byte; ignored");
            return 0;
        }
    /* The raw text after the command word, for commands whose argument holds spaces. */
    const char *rest = line;
    if (id)
        rest = strstr(rest, id) + strlen(id);
    rest = strstr(rest, w[0]) + strlen(w[0]);
    while (*rest == ' ' || *rest == '\t')
        rest++;
    command_line_t c = { id, w, n, line, rest };
    for (int i = 0; i < N_COMMANDS; i++)
        if (strcmp(w[0], COMMANDS[i].name) == 0)
            return COMMANDS[i].run(s, &c) > 0 || s->quit;
    char shown[48];
    text_quote(w[0], 32, shown, sizeof shown);
    fail(s, id, "unknown command '%s' (list_commands lists them)", shown);
    return s->quit;
}

int session_run(session_t *s)
{
    for (;;) {
        if (s->quit)
            return 0;
        proto_status_t st = proto_read_line(&s->reader, s->line, -1);
        if (st == PROTO_EOF)
            return 0;
        if (st != PROTO_LINE) {
            session_bad_line(s, st);
            continue;
        }
        if (session_handle_line(s, s->line))
            return 0;
    }
}
