#include "record.h"
#include "lines.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

int record_write_header(FILE *f, const game_t *g, const game_config_t *cfg)
{
    fprintf(f, "picket-record %d\ngame %s\n", RECORD_VERSION, g->name);
    if (cfg->preset[0])
        fprintf(f, "preset %s\n", cfg->preset);
    for (int i = 0; i < cfg->n_flags; i++)
        fprintf(f, "flag %s\n", cfg->flags[i]);
    if (cfg->players)
        fprintf(f, "players %d\n", cfg->players);
    return fprintf(f, "seed %" PRIu64 "\n", cfg->deal_seed) < 0 ? -1 : 0;
}

int record_write_move(FILE *f, const game_t *g, int seat, const game_move_t *m)
{
    char buf[256];
    g->move_format(m, buf, sizeof buf);
    return fprintf(f, "move %d %s\n", seat, buf) < 0 ? -1 : 0;
}

/* How many seats rank first; *w, the last of them. */
static int firsts(const int *rank, int n, int *w)
{
    int count = 0;
    for (int i = 0; i < n; i++)
        if (rank[i] == 0)
            count++, *w = i;
    return count;
}

int record_format_result(const game_t *g, const void *state, const char *sep, char *buf, size_t len)
{
    int scores[GAME_MAX_PLAYERS], rank[GAME_MAX_PLAYERS], n = g->num_players(state), w = 0;
    g->scores(state, scores);
    size_t k = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && k < len; i++)
        k += (size_t)snprintf(buf + k, len - k, "%s%d", i ? sep : "", scores[i]);
    int over = g->rank(state, rank);
    if (!over || k >= len)
        return over;
    /* One winner: "winner W" (as version 1 always wrote); ties or more: every rank. */
    if (firsts(rank, n, &w) == 1 && n == 2) {
        k += (size_t)snprintf(buf + k, len - k, " winner %d", w);
    } else {
        k += (size_t)snprintf(buf + k, len - k, " rank");
        for (int i = 0; i < n && k < len; i++)
            k += (size_t)snprintf(buf + k, len - k, " %d", rank[i]);
    }
    /* A game that settles points (a Picket partie): "settled P..." by seat. */
    int settled[GAME_MAX_PLAYERS];
    if (k < len && g->settled && g->settled(state, settled)) {
        k += (size_t)snprintf(buf + k, len - k, " settled");
        for (int i = 0; i < n && k < len; i++)
            k += (size_t)snprintf(buf + k, len - k, " %d", settled[i]);
    }
    return over;
}

int record_write_result(FILE *f, const game_t *g, const void *state)
{
    char buf[RECORD_MAX_LINE];
    record_format_result(g, state, " ", buf, sizeof buf);
    return fprintf(f, "result %s\n", buf) < 0 ? -1 : 0;
}

/* Numbers are strict: digits (and a '-' for an int), nothing else, no wrap. */
static int parse_int(const char *s, int *out) { return text_int(s, -1000000, 1000000, out); }

typedef struct replay_hook {
    record_event_fn fn;
    void *data;
    const game_t *g;
} replay_hook_t;

static void on_replay_event(void *data, const game_event_t *ev)
{
    const replay_hook_t *h = data;
    h->fn(h->data, h->g, ev);
}

#define FAIL(...)                                            \
    do {                                                     \
        int w_ = snprintf(err, errlen, "line %d: ", lineno); \
        if (w_ > 0 && (size_t)w_ < errlen)                   \
            snprintf(err + w_, errlen - (size_t)w_, __VA_ARGS__); \
        return -1;                                           \
    } while (0)

static int start_game(record_t *rec, replay_hook_t *hook, int lineno, char *err, size_t errlen)
{
    char why[GAME_ERR_LEN];
    if (!(rec->ref = referee_create(rec->game, &rec->cfg, why, sizeof why)))
        FAIL("%s", why);
    rec->state = referee_state(rec->ref);
    hook->g = rec->game;
    if (hook->fn) {
        referee_hooks_t h = { on_replay_event, NULL, hook };
        referee_set_hooks(rec->ref, &h);
    }
    /* Chance nodes resolved, their events passed on: the referee steps until a seat must move. */
    if (referee_play(rec->ref) == REFEREE_FAULT)
        FAIL("%s", referee_fault(rec->ref)->text);
    return 0;
}

/* "settled P..." at the end of a result line (a game that settles points): the replay's, when it
 * is there. 0, or -1 with the difference. The line's tokens after the standing are in save. */
static int check_settled(record_t *rec, char *tok, char **save, int lineno, char *err, size_t errlen)
{
    const game_t *g = rec->game;
    int n = g->num_players(rec->state), settled[GAME_MAX_PLAYERS];
    int has = g->settled && g->settled(rec->state, settled);
    if (!tok) /* optional: the scores imply them (records written before they were added) */
        return 0;
    if (strcmp(tok, "settled") != 0 || !has)
        FAIL("result: unexpected '%.20s' after the standing", tok);
    for (int i = 0; i < n; i++) {
        int v;
        char *stok = strtok_r(NULL, " ", save);
        if (!stok || parse_int(stok, &v) < 0)
            FAIL("result: 'settled' needs %d numbers", n);
        if (v != settled[i])
            FAIL("result says seat %d settles %d, the replay gives %d", i, v, settled[i]);
    }
    if (strtok_r(NULL, " ", save))
        FAIL("result: more than %d settled numbers", n);
    return 0;
}

static int check_result(record_t *rec, char *rest, int lineno, char *err, size_t errlen)
{
    const game_t *g = rec->game;
    int scores[GAME_MAX_PLAYERS], rank[GAME_MAX_PLAYERS], n = g->num_players(rec->state);
    g->scores(rec->state, scores);
    char *save = NULL;
    for (int i = 0; i < n; i++) {
        char *tok = strtok_r(i == 0 ? rest : NULL, " ", &save);
        int v;
        if (!tok || parse_int(tok, &v) < 0)
            FAIL("result needs %d scores", n);
        if (v != scores[i])
            FAIL("result says seat %d has %d, the replay gives %d", i, v, scores[i]);
    }
    char *tok = strtok_r(NULL, " ", &save);
    int over = g->rank(rec->state, rank);
    if (!tok) {
        if (over)
            FAIL("result has no winner, but the game is over");
        return 0;
    }
    if (!over)
        FAIL("result names a %s, but the game is not over", strcmp(tok, "rank") == 0 ? "ranking" : "winner");
    if (strcmp(tok, "winner") == 0) {
        int w;
        char *wtok = strtok_r(NULL, " ", &save);
        if (!wtok || parse_int(wtok, &w) < 0)
            FAIL("result: expected 'winner N' after the scores");
        int last;
        if (w < 0 || w >= n || rank[w] != 0 || firsts(rank, n, &last) != 1)
            FAIL("result says seat %d won, the replay disagrees", w);
        return check_settled(rec, strtok_r(NULL, " ", &save), &save, lineno, err, errlen);
    }
    if (strcmp(tok, "rank") != 0)
        FAIL("result: expected 'winner N' or 'rank R...' after the scores");
    for (int i = 0; i < n; i++) {
        int v;
        char *rtok = strtok_r(NULL, " ", &save);
        if (!rtok || parse_int(rtok, &v) < 0)
            FAIL("result: 'rank' needs %d ranks", n);
        if (v != rank[i])
            FAIL("result says seat %d ranks %d, the replay gives %d", i, v, rank[i]);
    }
    return check_settled(rec, strtok_r(NULL, " ", &save), &save, lineno, err, errlen);
}

/* ---------------------------------------------------------------- reading many records */

struct record_reader {
    FILE *f;
    int lineno;      /* lines read from the file so far */
    int records;     /* records begun so far */
    int pending;     /* line holds the next record's 'picket-record' line, already read */
    int pending_at;  /* where that line starts in `line`, once trimmed */
    int done;        /* nothing more to read: the end, or a line that stops the file */
    int stop_after;  /* moves to replay before the file counts as ended (-1: all) */
    char line[RECORD_MAX_LINE];
};

enum { RL_CONTENT, RL_EOF, RL_FAULT };

static void reader_init(record_reader_t *rd, FILE *f)
{
    memset(rd, 0, sizeof *rd);
    rd->f = f;
    rd->stop_after = -1;
}

record_reader_t *record_reader_create(FILE *f)
{
    record_reader_t *rd = malloc(sizeof *rd);
    if (rd)
        reader_init(rd, f);
    return rd;
}

void record_reader_free(record_reader_t *rd) { free(rd); }

int record_reader_more(const record_reader_t *rd) { return rd->pending; }

void record_reader_stop_after(record_reader_t *rd, int moves) { rd->stop_after = moves; }

/* 1 if the line opens a record: its first word is "picket-record". */
static int opens_record(const char *s)
{
    static const char word[] = "picket-record";
    return strncmp(s, word, sizeof word - 1) == 0 && (s[sizeof word - 1] == '\0' || s[sizeof word - 1] == ' ' ||
                                                       s[sizeof word - 1] == '\t');
}

/* The next line that is neither blank nor a comment, trimmed, in *out. A comment
 * "# forfeit: ..." is kept in rec (when given). RL_FAULT: "line N: reason" in err for a line over
 * the limit, a NUL byte or a read error, after which the file is not read any further. */
static int next_content(record_reader_t *rd, char **out, record_t *rec, char *err, size_t errlen)
{
    for (;;) {
        errno = 0;
        int len = lines_read(rd->f, rd->line, sizeof rd->line);
        if (len == LINES_EOF) {
            rd->done = 1;
            if (!ferror(rd->f))
                return RL_EOF;
            snprintf(err, errlen, "line %d: cannot read: %s", rd->lineno + 1, errno ? strerror(errno) : "read error");
            return RL_FAULT;
        }
        rd->lineno++;
        if (len < 0) {
            rd->done = 1;
            if (len == LINES_LONG)
                snprintf(err, errlen, "line %d: longer than %d bytes", rd->lineno, RECORD_MAX_LINE - 1);
            else if (len == LINES_NUL)
                snprintf(err, errlen, "line %d: holds a NUL byte", rd->lineno);
            else
                snprintf(err, errlen, "line %d: torn: the file ends inside it (no newline; a write cut short?)",
                         rd->lineno);
            return RL_FAULT;
        }
        char *s = text_trim(rd->line);
        if (rec && strncmp(s, "# forfeit: ", 11) == 0) {
            text_quote(s + 11, sizeof rec->forfeit - 1, rec->forfeit, sizeof rec->forfeit);
            continue;
        }
        if (!*s || *s == '#')
            continue;
        *out = s;
        return RL_CONTENT;
    }
}

/* The line just read opens the next record: keep it for record_reader_next. */
static void keep_pending(record_reader_t *rd, const char *s)
{
    rd->pending = 1;
    rd->pending_at = (int)(s - rd->line);
}

/* One record, from its 'picket-record' line to its result line, the next record, or the end.
 * 1 when it replays and verifies, -1 with "line N: reason". */
static int read_record(record_reader_t *rd, record_t *rec, record_event_fn on_event, void *data, char *err,
                       size_t errlen)
{
    int version_seen = 0, seed_seen = 0; /* the header's lines, until the first move */
    replay_hook_t hook = { on_event, data, NULL };
    int lineno = rd->lineno, got;
    char *s = NULL;
    if (rd->pending) {
        s = rd->line + rd->pending_at;
        rd->pending = 0;
        got = RL_CONTENT;
    } else {
        got = next_content(rd, &s, rec, err, errlen);
    }
    if (got == RL_EOF && rd->records > 0)
        return 0;
    rd->records++;
    rec->number = rd->records;
    rec->first_line = rd->lineno;
    for (;; got = next_content(rd, &s, rec, err, errlen)) {
        lineno = rec->lines = rd->lineno;
        if (got == RL_FAULT)
            return -1;
        if (got == RL_EOF)
            break;
        if (version_seen && opens_record(s)) {
            /* The next record: this one ends on the line before it, without a result line. */
            keep_pending(rd, s);
            lineno = rec->lines = rd->lineno - 1;
            break;
        }
        if (rec->moves == rd->stop_after && strncmp(s, "move ", 5) == 0) {
            rd->done = 1;
            break;
        }
        char *rest = strchr(s, ' ');
        if (rest)
            *rest++ = '\0';
        else
            rest = s + strlen(s);
        rest = text_trim(rest);
        char why[GAME_ERR_LEN];
        if (!version_seen) {
            int v;
            if (strcmp(s, "picket-record") != 0 || parse_int(rest, &v) < 0)
                FAIL("a record starts with 'picket-record %d'", RECORD_VERSION);
            if (v != RECORD_VERSION)
                FAIL("record version %d is not supported (this program reads %d)", v, RECORD_VERSION);
            version_seen = 1;
        } else if (strcmp(s, "game") == 0) {
            if (rec->game)
                FAIL("the game is named twice");
            if (!(rec->game = game_find(rest)))
                FAIL("unknown game '%.40s'", rest);
        } else if (strcmp(s, "preset") == 0 || strcmp(s, "flag") == 0 || strcmp(s, "players") == 0 ||
                   strcmp(s, "seed") == 0) {
            if (!rec->game)
                FAIL("'%s' must follow the 'game' line", s);
            if (rec->ref)
                FAIL("'%s' must come before the first move", s);
            if (strcmp(s, "preset") == 0) {
                if (game_config_set_preset(&rec->cfg, rest, why, sizeof why) < 0)
                    FAIL("%s", why);
            } else if (strcmp(s, "flag") == 0) {
                if (game_config_add_flag(&rec->cfg, rest, why, sizeof why) < 0)
                    FAIL("%s", why);
            } else if (strcmp(s, "players") == 0) {
                if (parse_int(rest, &rec->cfg.players) < 0 || rec->cfg.players < 1 ||
                    rec->cfg.players > GAME_MAX_PLAYERS)
                    FAIL("players must be 1 to %d", GAME_MAX_PLAYERS);
            } else {
                if (text_u64(rest, 0, UINT64_MAX, &rec->cfg.deal_seed) < 0)
                    FAIL("seed must be a number from 0 to 18446744073709551615");
                seed_seen = 1;
            }
        } else if (strcmp(s, "move") == 0 || strcmp(s, "result") == 0) {
            if (!rec->game)
                FAIL("no 'game' line before the moves");
            if (!seed_seen)
                FAIL("no 'seed' line before the moves");
            if (!rec->ref && start_game(rec, &hook, lineno, err, errlen) < 0)
                return -1;
            if (strcmp(s, "result") == 0) {
                if (check_result(rec, rest, lineno, err, errlen) < 0)
                    return -1;
                /* The record ends here: what follows may only be another record. */
                got = next_content(rd, &s, NULL, err, errlen);
                if (got == RL_FAULT)
                    return -1;
                if (got == RL_CONTENT && !opens_record(s)) {
                    lineno = rd->lineno;
                    FAIL("nothing may follow the result line but a new record ('picket-record %d')", RECORD_VERSION);
                }
                if (got == RL_CONTENT)
                    keep_pending(rd, s);
                return 1;
            }
            const game_t *g = rec->game;
            char *mtext = strchr(rest, ' ');
            int seat;
            if (!mtext)
                FAIL("expected 'move SEAT MOVE'");
            *mtext++ = '\0';
            if (parse_int(rest, &seat) < 0)
                FAIL("'%.20s' is not a seat", rest);
            game_move_t m;
            if (g->move_parse(text_trim(mtext), &m, why, sizeof why) < 0)
                FAIL("%s", why);
            char refused[GAME_ERR_LEN + 32];
            int st = referee_move(rec->ref, seat, &m, refused, sizeof refused);
            if (st < 0)
                FAIL("%s", refused);
            rec->moves++;
            if (st == REFEREE_FAULT || referee_play(rec->ref) == REFEREE_FAULT)
                FAIL("%s", referee_fault(rec->ref)->text);
        } else {
            char word[24];
            text_quote(s, sizeof word - 1, word, sizeof word);
            FAIL("unknown line '%s'", word);
        }
    }
    if (!version_seen)
        return text_fail(err, errlen, "empty record: no 'picket-record %d' line", RECORD_VERSION);
    if (!rec->game || !seed_seen)
        FAIL("the record ends before its header is complete (game, seed)");
    if (!rec->ref && start_game(rec, &hook, lineno, err, errlen) < 0)
        return -1;
    return 1;
}

int record_reader_next(record_reader_t *rd, record_t *rec, record_event_fn on_event, void *data, char *err,
                       size_t errlen)
{
    memset(rec, 0, sizeof *rec);
    if (rd->done && !rd->pending)
        return 0;
    int rc = read_record(rd, rec, on_event, data, err, errlen);
    if (rc < 0 && !rd->pending) {
        /* Skip the rest of the failed record, up to the next one, so that one is still read. */
        char *s;
        char skip[160]; /* the reason is dropped */
        while (!rd->done && next_content(rd, &s, NULL, skip, sizeof skip) == RL_CONTENT)
            if (opens_record(s)) {
                keep_pending(rd, s);
                break;
            }
    }
    return rc;
}

int record_replay(FILE *f, record_t *rec, record_event_fn on_event, void *data, char *err, size_t errlen)
{
    record_reader_t rd;
    reader_init(&rd, f);
    int rc = record_reader_next(&rd, rec, on_event, data, err, errlen);
    if (rc == 1 && rd.pending) {
        /* One record was asked for: a file of many is record_reader_next's. */
        return text_fail(err, errlen,
                         "line %d: a second record starts here (a file of many records is read by picket replay)",
                         rd.lineno);
    }
    return rc == 1 ? 0 : -1;
}

int record_each_move(FILE *f, const game_t *g, int (*on_move)(void *data, int seat, const game_move_t *m),
                     int (*on_other)(void *data, const char *line), void *data, char *err, size_t errlen)
{
    char line[RECORD_MAX_LINE];
    int rc = 0;
    while (rc == 0 && lines_read(f, line, sizeof line) >= 0) {
        const char *s = line;
        while (*s == ' ')
            s++;
        int seat, k = 0;
        if (strncmp(s, "move ", 5) != 0 || sscanf(s + 5, "%d %n", &seat, &k) != 1 || k == 0) {
            rc = on_other ? on_other(data, s) : 0;
            continue;
        }
        game_move_t m;
        if (g->move_parse(s + 5 + k, &m, err, errlen) < 0)
            return -1;
        rc = on_move(data, seat, &m);
    }
    return rc;
}

void record_free(record_t *rec)
{
    referee_free(rec->ref);
    rec->ref = NULL;
    rec->state = NULL;
}
