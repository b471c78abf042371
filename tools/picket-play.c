/* picket-play: sit down at the table against an engine (docs/play.md).
 *
 * The person is one seat of the project's one referee and the engine another, driven through
 * the protocol as in the arena (tools/arena/arena_match.h: arena_seat_*), so the engine is told
 * only its own seat's events and never sees the player's cards. Two faces share one table: a
 * full-screen terminal table (ncurses) and a line mode (--plain, chosen by itself without a
 * terminal) that prints the same table as text and reads moves as lines.
 *
 * Taking back a decision rebuilds the table: a fresh referee on the same deals, a fresh engine
 * process (the old one heard the moves taken back), and every move before the one taken back
 * replayed through the referee, so the engine hears the same events again. The engines' seeds
 * come from the system, never from the deals' seed (which they could work back to). Hints come from a second engine process that is given the
 * player's own view (`position`, the player's events) and asked to `analyze`. */
#define _GNU_SOURCE
#include <curses.h>
#include <errno.h>
#include <inttypes.h>
#include <locale.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/random.h>
#include <unistd.h>

#include "arena_cli.h"
#include "arena_match.h"
#include "cards.h"
#include "game.h"
#include "lines.h"
#include "picket.h"
#include "record.h"
#include "rng.h"

#ifndef PICKET_VERSION
#define PICKET_VERSION "unknown"
#endif

enum {
    MAX_MOVES = 8192,       /* moves in a set (a long set has a few hundred) */
    MAX_EVENTS = 8192,      /* the player's events in a set */
    EVENT_LEN = 112,
    TALK_MAX = 4096,        /* table talk kept for scrolling back (a set has a few hundred lines) */
    TALK_LINES = 8,         /* table talk a line-mode `talk` shows without a number */
    HINT_LINES = 6,
    LINE_LEN = 200,
    MIN_COLS = 80,          /* the full-screen table's smallest terminal */
    MIN_ROWS = 24,
};

/* What a hint's value means: the bundled engine's search bots value a move by their reward,
 * 0.5 + 0.45 tanh(d / 30) for a lead of d points in the hand (search/playout.c), which the table
 * turns back into points; the heuristic by its own score; random values nothing; another engine,
 * or a changed reward scale, by whatever it says. */
enum { HINT_POINTS, HINT_SCORE, HINT_NONE, HINT_RAW };
static const double HINT_REWARD_SCALE = 30.0;

static const char *const USAGE =
    "usage: picket-play [options]\n"
    "\n"
    "Play a set of Picket against an engine: a full-screen table in a terminal, or a line mode\n"
    "(--plain, chosen by itself when input or output is not a terminal). See docs/play.md.\n"
    "\n"
    "  --level N          the bundled engine's strength, 1 (random) to 5 (the strongest; default)\n"
    "  --engine PROGRAM   play another engine that speaks the protocol (default: picket-engine\n"
    "                     beside this program)\n"
    "  --option NAME=V    an option for the engine and the hint engine (setoption; repeatable)\n"
    "  --preset P         rules: cotgrave (default), cotton, ducoeur-letter, ducoeur-report,\n"
    "                     cavendish (Rubicon Piquet: a partie of six deals)\n"
    "  --flag NAME=VALUE  a rule override (repeatable; docs/rules.md)\n"
    "  --seat S           your seat, 0 or 1 (default 0); the cut decides who deals first\n"
    "  --seed N           the deals (the same seed gives the same deals; default: a random seed,\n"
    "                     shown once the set is over)\n"
    "  --engine-seed N    the engines' own randomness (default: random, unrelated to the deals)\n"
    "  --record FILE      resume a saved set (its rules, seed and moves)\n"
    "  --save FILE        where `s` saves the set (default picket-play-YYYYMMDD-HHMMSS.txt)\n"
    "  --hint-level N     the strength of the hints, 1 to 5 (default 5)\n"
    "  --plain            line mode\n"
    "  -version, --help\n"
    "\n"
    "At the table: arrows choose a card, space marks cards for a discard, enter plays the card or\n"
    "discards the marked ones; or type a move (QH, 7C 8C QC, call S, leftover keep) and enter.\n"
    "?  hint (the engine's values of your moves)   !  play the best hinted move\n"
    "u  take back your last decision   s  save the set as a game record   x  leave\n"
    "PgUp/PgDn  scroll the table talk (in the line mode: talk [N] prints the last N lines)\n";

typedef struct move_entry {
    int seat;
    game_move_t move;
} move_entry_t;

typedef struct play {
    const game_t *g;
    game_config_t cfg;
    int human, engine;            /* seats */
    uint64_t seed;
    char save_path[1024];
    int plain;
    int seed_shown;               /* the player chose the seed (--seed, --record) */
    uint64_t engine_seed, hint_seed; /* the engines' own randomness, never derived from the deals */
    int seat_given;
    int level, level_fixed;       /* the bundled opponent's level; fixed: --level or --engine given */
    int saved_at;                 /* n_moves at the last save (or as resumed) */
    int leave_asked;              /* x was pressed once with moves unsaved */
    /* the opponent: an engine process as a referee seat, as in the arena */
    arena_spec_t spec;
    arena_engine_t proc;
    arena_set_setup_t setup;
    arena_set_result_t result;
    arena_seat_t seat;
    /* hints: another process of the same engine, given the player's view */
    arena_spec_t hint_spec;
    arena_engine_t hint_proc;
    char hints[HINT_LINES][LINE_LEN]; /* the moves, whole */
    double hint_values[HINT_LINES];
    int n_hints, hint_unit;
    game_move_t best_hint;
    int have_best_hint;
    /* the table */
    referee_t *ref;
    picket_view_t view;           /* the player's view, from the player's events */
    move_entry_t moves[MAX_MOVES];
    int n_moves;
    char events[MAX_EVENTS][EVENT_LEN]; /* the player's events this set, notation (for hints) */
    int n_events;
    char talk[TALK_MAX][LINE_LEN]; /* every line of table talk this set, oldest first */
    int n_talk, talk_shown;       /* talk_shown: lines the line mode has printed */
    int talk_back;                /* the full-screen table: lines scrolled back from the newest */
    char message[LINE_LEN];       /* the answer to the last key or line */
    int over, fault;
    /* the full-screen table's choices */
    int cursor;
    cardset_t marked;
    char typed[LINE_LEN];
} play_t;

static volatile sig_atomic_t interrupted;
static void on_signal(int sig)
{
    (void)sig;
    interrupted = 1;
}

static void __attribute__((format(printf, 2, 3))) say(play_t *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->message, sizeof p->message, fmt, ap);
    va_end(ap);
}

/* ---------------------------------------------------------------- words */

static const char *who(const play_t *p, int seat) { return seat == p->human ? "you" : "engine"; }

/* An event as the table says it: "engine: declare ruff 45" for "declare 1 ruff 45", and the
 * events whose numbers are not a seat in front in words: "trick 3 won by you". */
static void talk_line(const play_t *p, const char *text, char *out, size_t len)
{
    const picket_pub_t *pub = &p->view.pub;
    char verb[32], c0[8], c1[8];
    int seat = -1, n = 0, a = 0, b = 0;
    if (sscanf(text, "cut %7s %7s dealer %d", c0, c1, &seat) == 3 && (seat == 0 || seat == 1)) {
        if (strcmp(c0, "-") == 0)
            snprintf(out, len, "no cut: %s first", seat == p->human ? "you deal" : "the engine deals");
        else
            snprintf(out, len, "cut: you %s, engine %s; %s first", p->human ? c1 : c0, p->human ? c0 : c1,
                     seat == p->human ? "you deal" : "the engine deals");
    } else if (sscanf(text, "cut %7s %7s chooser %d", c0, c1, &seat) == 3 && (seat == 0 || seat == 1)) {
        snprintf(out, len, "cut: you %s, engine %s; %s the higher, so %s whether to deal first", p->human ? c1 : c0,
                 p->human ? c0 : c1, seat == p->human ? "yours is" : "the engine's is",
                 seat == p->human ? "you choose" : "the engine chooses");
    } else if (sscanf(text, "choose %d %7s", &seat, c0) == 2 && (seat == 0 || seat == 1)) {
        int deals = strcmp(c0, "deal") == 0;
        snprintf(out, len, "%s to %s first", seat == p->human ? "you choose" : "the engine chooses",
                 deals ? "deal" : "be elder");
    } else if (sscanf(text, "hand %d dealer %d stock %d", &a, &seat, &b) == 3 && (seat == 0 || seat == 1))
        snprintf(out, len, "hand %d: %s, so you are %s; %d cards in the stock", a,
                 seat == p->human ? "you deal" : "the engine deals", seat == p->human ? "younger" : "elder", b);
    else if (sscanf(text, "trick %d won-by %d", &a, &seat) == 2 && (seat == 0 || seat == 1))
        snprintf(out, len, "trick %d won by %s", a, seat == p->human ? "you" : "the engine");
    else if (strcmp(text, "hand-end") == 0)
        snprintf(out, len, "hand %d over: you %+d, engine %+d this hand; %s: you %d, engine %d (%s %d)", pub->hand_no,
                 pub->hand_pts[p->human], pub->hand_pts[p->engine], p->view.rules.game == PK_GAME_RUBICON ? "partie" : "set",
                 pub->score[p->human], pub->score[p->engine], p->view.rules.game == PK_GAME_RUBICON ? "rubicon" : "to",
                 p->view.rules.target);
    else if (sscanf(text, "set-end winner %d points %d %7s", &seat, &a, c0) == 3 && (seat == 0 || seat == 1))
        snprintf(out, len, "partie over: %s %d points%s", seat == p->human ? "you win" : "the engine wins", a,
                 strcmp(c0, "rubicon") == 0 ? ", a rubicon (the loser stayed under the line)" : "");
    else if (strcmp(text, "set-end drawn") == 0)
        snprintf(out, len, "partie over: drawn (equal after eight deals)");
    else if (sscanf(text, "set-end winner %d", &seat) == 1 && (seat == 0 || seat == 1))
        snprintf(out, len, "set over: %s", seat == p->human ? "you win" : "the engine wins");
    else if (sscanf(text, "%31s %d%n", verb, &seat, &n) == 2 && (seat == 0 || seat == 1))
        snprintf(out, len, "%s: %s%s", who(p, seat), verb, text + n);
    else
        snprintf(out, len, "%s", text);
}

/* A line of table talk; the full-screen table follows the newest line again. */
static void add_talk(play_t *p, const char *line)
{
    if (p->n_talk == TALK_MAX) {
        memmove(p->talk[0], p->talk[1], sizeof p->talk[0] * (TALK_MAX - 1));
        p->n_talk--;
        p->talk_shown -= p->talk_shown > 0;
    }
    snprintf(p->talk[p->n_talk++], sizeof p->talk[0], "%s", line);
    p->talk_back = 0;
}

/* ---------------------------------------------------------------- the player's seat */

static int human_event(void *data, const game_event_t *ev, char *err, size_t errlen)
{
    play_t *p = data;
    char text[EVENT_LEN], line[LINE_LEN];
    p->g->event_format(ev, text, sizeof text);
    if (p->g->view_apply(&p->view, ev) < 0) {
        snprintf(err, errlen, "the player's view cannot follow '%s'", text);
        return -1;
    }
    if (p->n_events < MAX_EVENTS)
        snprintf(p->events[p->n_events++], EVENT_LEN, "%s", text);
    if (strncmp(text, "turn ", 5) != 0) {
        talk_line(p, text, line, sizeof line);
        add_talk(p, line);
    }
    p->have_best_hint = 0;
    p->n_hints = 0;
    return 0;
}

static void on_move(void *data, const void *state, int seat, const game_move_t *m)
{
    play_t *p = data;
    (void)state;
    if (p->n_moves < MAX_MOVES)
        p->moves[p->n_moves++] = (move_entry_t){ seat, *m };
}

/* ---------------------------------------------------------------- the table */

/* Make the table afresh and replay the first n moves of `moves` (the referee routes their
 * events again: the engine hears the same set from its start). 0, or -1 with a reason. */
static int rebuild(play_t *p, const move_entry_t *moves, int n, char *err, size_t errlen)
{
    referee_free(p->ref);
    p->ref = referee_create(p->g, &p->cfg, err, errlen);
    if (!p->ref)
        return -1;
    char why[GAME_ERR_LEN];
    if (p->g->view_init(&p->view, &p->cfg, p->human, why, sizeof why) < 0)
        return text_fail(err, errlen, "%s", why);
    p->n_events = 0;
    p->n_moves = 0;
    p->n_talk = p->talk_shown = p->talk_back = 0;
    p->over = p->fault = 0;
    p->have_best_hint = 0;
    p->n_hints = 0;
    p->marked = 0;
    referee_seat_t hs = { human_event, NULL, p }; /* no decide: a person's moves come through referee_move */
    referee_set_seat(p->ref, p->human, &hs);
    referee_seat_t es = arena_seat_referee(&p->seat);
    referee_set_seat(p->ref, p->engine, &es);
    referee_hooks_t hooks = { NULL, on_move, p };
    referee_set_hooks(p->ref, &hooks);
    arena_seat_init(&p->seat, &p->setup, &p->result, p->engine);
    if (arena_seat_start(&p->seat, err, errlen) < 0)
        return -1;
    int rc = 0;
    for (int i = 0; rc == 0 && i < n; i++) {
        while (rc == 0 && referee_to_move(p->ref) == GAME_CHANCE)
            if (referee_step(p->ref) == REFEREE_FAULT)
                rc = text_fail(err, errlen, "%s", referee_fault(p->ref)->text);
        if (rc == 0 && referee_move(p->ref, moves[i].seat, &moves[i].move, err, errlen) < 0)
            rc = -1;
    }
    p->talk_shown = p->n_talk; /* the line mode prints only what is new from here */
    return rc;
}

/* Step the table until the player is to move or the set is over (the engine thinks here). */
static void advance(play_t *p, void (*draw)(play_t *))
{
    for (;;) {
        int tm = referee_to_move(p->ref);
        if (tm == GAME_OVER) {
            p->over = 1;
            return;
        }
        if (tm == p->human)
            return;
        if (tm == p->engine && draw) {
            say(p, "the engine is thinking...");
            draw(p);
        }
        referee_status_t st = referee_step(p->ref);
        if (st == REFEREE_FAULT) {
            say(p, "the game stopped: %s", referee_fault(p->ref)->text);
            p->fault = p->over = 1;
            return;
        }
        if (tm == p->engine && !p->fault)
            p->message[0] = '\0';
    }
}

/* The phases in which a seat discards. */
static int in_exchange(int phase)
{
    return phase == PK_PH_ELDER_EXCHANGE || phase == PK_PH_YOUNGER_EXCHANGE || phase == PK_PH_SET_ASIDE;
}

/* The player's move from text: the move's notation, or bare card names (a discard in an
 * exchange, one card in the play). 0 with the move applied; -1 with the reason said. */
static int try_move(play_t *p, const char *text)
{
    char buf[LINE_LEN], err[GAME_ERR_LEN];
    game_move_t m;
    while (*text == ' ')
        text++;
    if (!*text) {
        say(p, "type a move, or choose cards");
        return -1;
    }
    const char *verb = p->view.pub.phase == PK_PH_PLAY ? "play" : in_exchange(p->view.pub.phase) ? "discard" : NULL;
    int parsed = p->g->move_parse(text, &m, err, sizeof err) == 0;
    if (!parsed && verb) {
        snprintf(buf, sizeof buf, "%s %s", verb, text);
        parsed = p->g->move_parse(buf, &m, err, sizeof err) == 0;
    }
    if (!parsed) {
        say(p, "'%.40s': %s", text, err);
        return -1;
    }
    if (referee_move(p->ref, p->human, &m, err, sizeof err) < 0) {
        say(p, "%s", err);
        return -1;
    }
    p->message[0] = '\0';
    p->marked = 0;
    return 0;
}

/* Take back the player's last decision (and the engine's answers after it). */
static void undo(play_t *p)
{
    int last = -1;
    for (int i = 0; i < p->n_moves; i++)
        if (p->moves[i].seat == p->human)
            last = i;
    if (last < 0) {
        say(p, "nothing to take back: you have not moved yet");
        return;
    }
    static move_entry_t keep[MAX_MOVES];
    memcpy(keep, p->moves, sizeof keep[0] * (size_t)last);
    char err[GAME_ERR_LEN];
    /* A fresh process: the old one was told the moves taken back, and the cards they showed. */
    arena_engine_stop(&p->proc);
    if (rebuild(p, keep, last, err, sizeof err) < 0) {
        say(p, "cannot take back: %s", err);
        p->fault = p->over = 1;
        return;
    }
    add_talk(p, "(you took back your last decision: the table talk above is the set so far)");
    say(p, "took back your last decision");
}

/* The set's record so far, as save writes it. */
static int write_record(FILE *f, void *data)
{
    const play_t *p = data;
    if (record_write_header(f, p->g, &p->cfg) < 0 ||
        fprintf(f, "# picket-play: seat %d you, seat %d %s, level %d\n", p->human, p->engine, p->spec.name, p->level) < 0)
        return -1;
    for (int i = 0; i < p->n_moves; i++)
        if (record_write_move(f, p->g, p->moves[i].seat, &p->moves[i].move) < 0)
            return -1;
    if (referee_to_move(p->ref) == GAME_OVER && record_write_result(f, p->g, referee_state(p->ref)) < 0)
        return -1;
    return 0;
}

/* Through a temporary file and a rename (lines_save): a failed save never spoils the file it
 * replaces (which may be the record this set was resumed from), and never replaces what is not
 * a regular file. */
static void save(play_t *p)
{
    char why[1200];
    if (lines_save(p->save_path, write_record, p, why, sizeof why) < 0)
        say(p, "cannot save: %.150s", why);
    else {
        p->saved_at = p->n_moves;
        say(p, "saved to %.150s (picket replay %.100s)", p->save_path, p->save_path);
    }
}

/* x: leave, but with moves not yet saved only when asked twice in a row. 1 to leave. */
static int may_leave(play_t *p)
{
    if (p->n_moves == p->saved_at || p->leave_asked)
        return 1;
    p->leave_asked = 1;
    int n = p->n_moves - p->saved_at;
    say(p, "%d move%s not saved: x again leaves without %s, s saves", n, n == 1 ? "" : "s", n == 1 ? "it" : "them");
    return 0;
}

/* ---------------------------------------------------------------- hints */

typedef struct hint_read {
    play_t *p;
    int n;
} hint_read_t;

static void on_hint_line(void *data, const char *line)
{
    hint_read_t *h = data;
    play_t *p = h->p;
    double v;
    int n = 0;
    if (sscanf(line, "analysis value %lf move %n", &v, &n) != 1 || n == 0)
        return;
    char why[GAME_ERR_LEN];
    if (h->n == 0 && p->g->move_parse(line + n, &p->best_hint, why, sizeof why) == 0)
        p->have_best_hint = 1;
    if (h->n < HINT_LINES) {
        snprintf(p->hints[h->n], sizeof p->hints[0], "%s", line + n);
        p->hint_values[h->n] = v;
    }
    h->n++;
}

static void hint(play_t *p, void (*draw)(play_t *))
{
    char err[300];
    if (p->over) {
        say(p, "the set is over: no move to hint");
        return;
    }
    if (!p->hint_proc.running) {
        say(p, "starting the hint engine...");
        if (draw)
            draw(p);
        if (arena_engine_start(&p->hint_proc, &p->hint_spec, p->g->name, err, sizeof err) < 0) {
            say(p, "no hints: %s", err);
            return;
        }
    }
    say(p, "thinking about your move...");
    if (draw)
        draw(p);
    /* The player's own view: a new game at the player's seat, then every event the player has
     * been told (what `position` does, line by line). */
    char line[EVENT_LEN + 16 < 2048 ? 2048 : EVENT_LEN + 16];
    arena_newgame_line(p->g, &p->cfg, 2, p->human, p->hint_seed, line, sizeof line);
    int rc = arena_engine_send(&p->hint_proc, line);
    for (int i = 0; rc == 0 && i < p->n_events; i++) {
        snprintf(line, sizeof line, "event %s", p->events[i]);
        rc = arena_engine_send(&p->hint_proc, line);
    }
    hint_read_t h = { p, 0 };
    rc = rc == 0 ? arena_engine_ask(&p->hint_proc, "analyze", 600, on_hint_line, &h) : -1;
    if (rc != 1) {
        say(p, "no hints: the hint engine did not answer");
        arena_engine_stop(&p->hint_proc);
        return;
    }
    p->n_hints = h.n < HINT_LINES ? h.n : HINT_LINES;
    say(p, "hint: %d move%s valued, best first (! plays the best)", h.n, h.n == 1 ? "" : "s");
}

/* The line above the hints, by hint_unit: what their values mean. */
static const char *const HINT_HEADERS[] = {
    [HINT_POINTS] = "hints, best first: the points you would gain this hand (estimated)",
    [HINT_SCORE] = "hints, best first: the heuristic's score (level 2: no unit)",
    [HINT_NONE] = "hints: level 1 values no move",
    [HINT_RAW] = "hints, best first: the hint engine's own values",
};

/* One hint as shown: the whole move, padded to the longest hinted move, and its value in the
 * hint's unit. */
static void hint_text(const play_t *p, int i, char *out, size_t len)
{
    int width = 0;
    for (int k = 0; k < p->n_hints; k++)
        width = (int)strlen(p->hints[k]) > width ? (int)strlen(p->hints[k]) : width;
    double v = p->hint_values[i];
    char value[32];
    if (v < 0 && p->hint_unit != HINT_RAW)
        snprintf(value, sizeof value, "not valued");
    else if (p->hint_unit == HINT_POINTS) {
        double x = (v - 0.5) / 0.45; /* playout_reward's tanh, undone */
        if (x >= 0.999)
            snprintf(value, sizeof value, "wins the set");
        else if (x <= -0.999)
            snprintf(value, sizeof value, "loses the set");
        else
            snprintf(value, sizeof value, "%+.1f points", HINT_REWARD_SCALE * atanh(x));
    } else if (p->hint_unit == HINT_NONE)
        value[0] = '\0';
    else
        snprintf(value, sizeof value, "%.3f", v);
    snprintf(out, len, "%-*s  %s", width, p->hints[i], value);
}

/* The keys both faces take: ? hint, ! play the best hinted move, u take back, s save. 1 if key
 * is one of them. */
static int table_key(play_t *p, int key, void (*draw)(play_t *))
{
    if (key == '?')
        hint(p, draw);
    else if (key == '!') {
        if (!p->over && !p->have_best_hint)
            hint(p, draw);
        if (!p->over && p->have_best_hint) {
            char text[LINE_LEN];
            p->g->move_format(&p->best_hint, text, sizeof text);
            try_move(p, text);
        } else if (p->over && p->plain)
            say(p, "the set is over");
    } else if (key == 'u')
        undo(p);
    else if (key == 's')
        save(p);
    else
        return 0;
    return 1;
}

/* ---------------------------------------------------------------- what the table shows */

/* What the player is to do in the phases that need no numbers (NULL: "your turn"). */
static const char *const PHASE_TASKS[PK_PH_COUNT] = {
    [PK_PH_BLANK_COUNT] = "you hold a Blank: say how many you will discard (type blank N)",
    [PK_PH_CALL] = "call the suit you will lead to see the leftover (call S), or call none",
    [PK_PH_LEFTOVER] = "the leftover stock: leftover show (both see it) or leftover keep",
    [PK_PH_APPOINT] = "appoint the suit elder must lead (appoint S)",
    [PK_PH_CHOOSE] = "you cut the higher card: choose deal (deal first) or choose elder",
    [PK_PH_ANSWER] = "the engine's call: answer good (allow it), or answer full (your best holding answers)",
};

static const char *phase_task(const play_t *p, char *buf, size_t len)
{
    const picket_pub_t *pub = &p->view.pub;
    if (p->over) {
        int sc[2];
        p->g->scores(referee_state(p->ref), sc);
        if (p->fault)
            snprintf(buf, len, "the set stopped. s saves it, x leaves");
        else if (p->view.pub.partie_pts > 0 || (p->view.rules.game == PK_GAME_RUBICON && sc[0] == sc[1]))
            snprintf(buf, len, "the partie is over: you %d, engine %d. %s %d points. s saves it, u takes back, x leaves",
                     sc[p->human], sc[p->engine], sc[p->human] > sc[p->engine] ? "You win" : sc[0] == sc[1] ? "Drawn:" : "The engine wins",
                     p->view.pub.partie_pts);
        else
            snprintf(buf, len, "the set is over: %s %d, engine %d. %s. s saves it, u takes back, x leaves", "you", sc[p->human],
                     sc[p->engine], sc[p->human] > sc[p->engine] ? "You win" : "The engine wins");
        return buf;
    }
    int lo, hi;
    if (in_exchange(pub->phase)) {
        picket_discard_range(&p->view.rules, pub, &lo, &hi);
        snprintf(buf, len, "your exchange: discard %d to %d cards (mark with space, enter; or type 7C 8C QC)", lo, hi);
    } else if (pub->phase == PK_PH_DECLARE && picket_declaring_cat(pub) >= 0) {
        const char *cat = PK_CAT_NAMES[picket_declaring_cat(pub)];
        snprintf(buf, len, "your call: declare %s and the cards you call (less than you hold sinks the rest; %s), "
                 "or declare %s none", cat, picket_declaring_cat(pub) == PK_CAT_RUFF ? "a suit's highest cards" : "holdings only", cat);
    } else if (pub->phase == PK_PH_PLAY)
        snprintf(buf, len, "%s", pub->trick_card[p->engine] >= 0 ? "your turn: follow the engine's card" : "your lead: play a card");
    else
        snprintf(buf, len, "%s", PHASE_TASKS[pub->phase] ? PHASE_TASKS[pub->phase] : "your turn");
    return buf;
}

/* A set of cards by suit, "C: A K 9  D: -  ..." (letters, for the line mode). */
static void cards_text(cardset_t set, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int s = 0; s < CARD_SUITS && n < len; s++) {
        n += (size_t)snprintf(buf + n, len - n, "%s%c:", s ? "  " : "", CARD_SUIT_CHARS[s]);
        int any = 0;
        for (int r = CARD_RANKS - 1; r >= 0 && n < len; r--)
            if (cardset_has(set, card_make(s, r)))
                n += (size_t)snprintf(buf + n, len - n, " %c", CARD_RANK_CHARS[r]), any = 1;
        if (!any && n < len)
            n += (size_t)snprintf(buf + n, len - n, " -");
    }
}

/* cardset_format's list, or "-" for none. */
static void card_list(cardset_t set, char *buf, size_t len)
{
    if (!cardset_format(set, buf, len))
        snprintf(buf, len, "-");
}

/* The lines of the table, the same for both faces. */
typedef struct table_text {
    char line[12][LINE_LEN];
    int n;
} table_text_t;

static void table_lines(const play_t *p, table_text_t *t)
{
    const picket_pub_t *pub = &p->view.pub;
    char a[LINE_LEN], b[LINE_LEN];
    t->n = 0;
    int elder = pub->hand_no > 0 ? picket_elder(pub) : -1;
    /* The seed determines every deal: shown only when the player chose it, or once the set is
     * over (a seed is how to play the same deals again). */
    char seed[48] = "";
    if (p->seed_shown || p->over)
        snprintf(seed, sizeof seed, ", seed %" PRIu64, p->seed);
    snprintf(t->line[t->n++], LINE_LEN, "Picket (%s)%s, hand %d: you are %s", p->cfg.preset, seed, pub->hand_no,
             elder < 0 ? "waiting for the deal" : elder == p->human ? "elder" : "younger (you dealt)");
    char goal[64];
    if (p->view.rules.game == PK_GAME_RUBICON)
        snprintf(goal, sizeof goal, "deal %d of %d, rubicon %d", pub->hand_no, PK_PARTIE_DEALS, p->view.rules.target);
    else
        snprintf(goal, sizeof goal, "set to %d", p->view.rules.target);
    snprintf(t->line[t->n++], LINE_LEN, "score      you %d, engine %d (%s); this hand you %d, engine %d", pub->score[p->human],
             pub->score[p->engine], goal, pub->hand_pts[p->human], pub->hand_pts[p->engine]);
    snprintf(t->line[t->n++], LINE_LEN, "stock      %d cards; you discarded %d, engine %d; tricks: you %d, engine %d", pub->stock_left,
             pub->discarded[p->human], pub->discarded[p->engine], pub->tricks[p->human], pub->tricks[p->engine]);
    card_list(p->view.discards, a, sizeof a);
    card_list(pub->decl_shown[p->engine] | pub->blank_shown[p->engine] | pub->leftover_shown, b, sizeof b);
    snprintf(t->line[t->n++], LINE_LEN, "discards   %.60s   shown to you: %.110s", a, b);
    int led = pub->trick_card[pub->leader], followed = pub->trick_card[1 - pub->leader];
    char lead[8], follow[8];
    card_list(led >= 0 ? cardset_of(led) : 0, lead, sizeof lead);
    card_list(followed >= 0 ? cardset_of(followed) : 0, follow, sizeof follow);
    if (pub->phase != PK_PH_PLAY || (pub->trick_card[0] < 0 && pub->trick_card[1] < 0))
        snprintf(t->line[t->n++], LINE_LEN, "trick      -");
    else
        snprintf(t->line[t->n++], LINE_LEN, "trick      %s led %s, %s followed %s", who(p, pub->leader), lead, who(p, 1 - pub->leader),
                 follow);
}

/* ---------------------------------------------------------------- the line mode */

static void draw_plain(play_t *p)
{
    table_text_t t;
    table_lines(p, &t);
    printf("\n");
    for (int i = 0; i < t.n; i++)
        printf("%s\n", t.line[i]);
    char hand[LINE_LEN], task[LINE_LEN];
    cards_text(p->view.hand, hand, sizeof hand);
    printf("your hand  %s\n", hand);
    for (int i = p->talk_shown; i < p->n_talk; i++)
        printf("  | %s\n", p->talk[i]);
    p->talk_shown = p->n_talk;
    char h[LINE_LEN];
    if (p->n_hints)
        printf("%s\n", HINT_HEADERS[p->hint_unit]);
    for (int i = 0; i < p->n_hints; i++) {
        hint_text(p, i, h, sizeof h);
        printf("  hint %s\n", h);
    }
    if (p->message[0])
        printf("note       %s\n", p->message);
    printf("to do      %s\n", phase_task(p, task, sizeof task));
    fflush(stdout);
}

/* The line mode: a table, a line read, until the end of input or x. */
static int run_plain(play_t *p)
{
    char line[4096];
    advance(p, NULL);
    draw_plain(p);
    for (;;) {
        printf("> ");
        fflush(stdout);
        if (!fgets(line, sizeof line, stdin))
            break;
        if (!strchr(line, '\n') && !feof(stdin)) {
            int c;
            while ((c = getchar()) != EOF && c != '\n')
                ;
            say(p, "a line of at most %d characters", (int)sizeof line - 2);
            draw_plain(p);
            continue;
        }
        line[strcspn(line, "\r\n")] = '\0';
        char *w = line;
        while (*w == ' ' || *w == '\t')
            w++;
        int leave = !strcmp(w, "x") || !strcmp(w, "quit");
        if (leave && may_leave(p))
            break;
        p->leave_asked = leave;
        if (leave)
            ; /* asked */
        else if (strlen(w) == 1 && table_key(p, w[0], NULL))
            ; /* done */
        else if (!strcmp(w, "help"))
            say(p, "a move (QH, 7C 8C, call S, leftover keep), ? hint, ! play the hint, u take back, s save, talk [N], x leave");
        else if (!strncmp(w, "talk", 4) && (w[4] == '\0' || w[4] == ' ')) {
            int k = TALK_LINES;
            if (w[4] && text_int(w + 5, 1, TALK_MAX, &k) < 0)
                say(p, "talk N: N a number of lines from 1 to %d", TALK_MAX);
            else {
                printf("table talk, the last %d of %d lines:\n", k < p->n_talk ? k : p->n_talk, p->n_talk);
                for (int i = k < p->n_talk ? p->n_talk - k : 0; i < p->n_talk; i++)
                    printf("  | %s\n", p->talk[i]);
                continue;
            }
        }
        else if (p->over)
            say(p, "the set is over: s saves it, u takes back, x leaves");
        else
            try_move(p, w);
        advance(p, NULL);
        draw_plain(p);
    }
    return 0;
}

/* ---------------------------------------------------------------- the full-screen table */

enum { PAIR_RED = 1, PAIR_NOTE };

static void draw_card(int y, int x, int card, int selected, int marked)
{
    static const char *const SYMBOLS[CARD_SUITS] = { "\xe2\x99\xa3", "\xe2\x99\xa6", "\xe2\x99\xa5", "\xe2\x99\xa0" };
    int red = card_suit(card) == 1 || card_suit(card) == 2;
    attr_t a = (red ? COLOR_PAIR(PAIR_RED) : 0) | (selected ? A_REVERSE : 0) | (marked ? A_UNDERLINE | A_BOLD : 0);
    attron(a);
    mvprintw(y, x, "%c%s", CARD_RANK_CHARS[card_rank(card)], SYMBOLS[card_suit(card)]);
    attroff(a);
}

static int hand_cards(const play_t *p, int *cards)
{
    int n = 0;
    for (int s = 0; s < CARD_SUITS; s++)
        for (int r = CARD_RANKS - 1; r >= 0; r--)
            if (cardset_has(p->view.hand, card_make(s, r)))
                cards[n++] = card_make(s, r);
    return n;
}

/* A terminal smaller than the table: a notice instead of a table drawn over itself. */
static int too_small(void)
{
    if (COLS >= MIN_COLS && LINES >= MIN_ROWS)
        return 0;
    erase();
    const char *notice[] = { "picket-play needs a terminal of at least 80 x 24;", "this one is", "enlarge it, or x to leave",
                          "(--plain plays in any size)" };
    for (int i = 0; i < 4 && i < LINES; i++) {
        if (i == 1)
            mvprintw(i, 0, "%.*s %d x %d", COLS > 20 ? COLS - 20 : 0, notice[i], COLS, LINES);
        else
            mvprintw(i, 0, "%.*s", COLS - 1, notice[i]);
    }
    refresh();
    return 1;
}

static void draw_screen(play_t *p)
{
    if (too_small())
        return;
    erase();
    table_text_t t;
    table_lines(p, &t);
    attron(A_BOLD);
    mvprintw(0, 0, "%.*s", COLS - 1, t.line[0]);
    attroff(A_BOLD);
    for (int i = 1; i < t.n; i++)
        mvprintw(i, 0, "%.*s", COLS - 1, t.line[i]);
    int y = t.n + 1;
    mvprintw(y, 0, "your hand");
    int cards[CARD_COUNT], n = hand_cards(p, cards);
    if (p->cursor >= n)
        p->cursor = n > 0 ? n - 1 : 0;
    for (int i = 0; i < n; i++)
        draw_card(y, 11 + 4 * i, cards[i], i == p->cursor, cardset_has(p->marked, cards[i]));
    if (p->marked) {
        char m[LINE_LEN];
        card_list(p->marked, m, sizeof m);
        mvprintw(y + 1, 11, "marked: %.*s", COLS - 20, m);
    }
    y += 3;
    /* The talk fills what the hints leave above the last four lines; PgUp scrolls it back. */
    int hints = p->n_hints ? p->n_hints + 1 : 0, rows = LINES - 5 - (y + 1) - hints;
    if (rows < 2) {
        hints -= 2 - rows;
        rows = 2;
    }
    if (p->talk_back > p->n_talk - rows)
        p->talk_back = p->n_talk - rows > 0 ? p->n_talk - rows : 0;
    int last = p->n_talk - p->talk_back, first = last - rows > 0 ? last - rows : 0;
    if (first > 0 || p->talk_back > 0)
        mvprintw(y++, 0, "table talk (lines %d-%d of %d; PgUp/PgDn scroll)", first + 1, last, p->n_talk);
    else
        mvprintw(y++, 0, "table talk");
    for (int i = first; i < last; i++)
        mvprintw(y++, 2, "%.*s", COLS - 3, p->talk[i]);
    y = y > LINES - 5 - hints ? y : LINES - 5 - hints;
    if (hints)
        mvprintw(y, 0, "%.*s", COLS - 1, HINT_HEADERS[p->hint_unit]);
    char h[LINE_LEN];
    for (int i = 0; i < hints - 1 && i < p->n_hints; i++) {
        hint_text(p, i, h, sizeof h);
        mvprintw(++y, 2, "hint %.*s", COLS - 8, h);
    }
    char task[LINE_LEN];
    attron(A_BOLD);
    mvprintw(LINES - 4, 0, "%.*s", COLS - 1, phase_task(p, task, sizeof task));
    attroff(A_BOLD);
    if (p->message[0]) {
        attron(COLOR_PAIR(PAIR_NOTE));
        mvprintw(LINES - 3, 0, "%.*s", COLS - 1, p->message);
        attroff(COLOR_PAIR(PAIR_NOTE));
    }
    char help[LINE_LEN];
    snprintf(help, sizeof help, "move %d   ? hint  ! play it  u undo  s save  x leave  PgUp/PgDn talk  esc clear", p->n_moves);
    mvprintw(LINES - 2, 0, "%.*s", COLS - 1, help);
    mvprintw(LINES - 1, 0, "> %.*s", COLS - 3, p->typed);
    refresh();
}

/* Enter: the typed text, else the marked cards, else the card under the cursor. */
static void enter(play_t *p)
{
    char text[LINE_LEN];
    if (p->typed[0]) {
        snprintf(text, sizeof text, "%s", p->typed);
        p->typed[0] = '\0';
        try_move(p, text);
        return;
    }
    cardset_t set = p->marked;
    if (!set) {
        int cards[CARD_COUNT], n = hand_cards(p, cards);
        if (n == 0) {
            say(p, "type a move (call S, leftover keep, ...)");
            return;
        }
        set = cardset_of(cards[p->cursor]);
    }
    card_list(set, text, sizeof text);
    try_move(p, text);
}

static int run_screen(play_t *p)
{
    setlocale(LC_ALL, "");
    /* newterm, not initscr: a terminal curses cannot drive gives the line mode, not an exit. */
    SCREEN *scr = newterm(NULL, stdout, stdin);
    if (!scr)
        return -1;
    set_term(scr);
    cbreak();
    noecho();
    keypad(stdscr, TRUE);
    curs_set(0);
    if (has_colors()) {
        start_color();
        use_default_colors();
        init_pair(PAIR_RED, COLOR_RED, -1);
        init_pair(PAIR_NOTE, COLOR_CYAN, -1);
    }
    advance(p, draw_screen);
    draw_screen(p);
    while (!interrupted) {
        int ch = getch();
        if (ch != 'x' && ch != ERR)
            p->leave_asked = 0;
        if (ch == ERR)
            continue;
        int cards[CARD_COUNT], n = hand_cards(p, cards);
        size_t tl = strlen(p->typed);
        if (ch == KEY_LEFT && p->cursor > 0)
            p->cursor--;
        else if (ch == KEY_RIGHT && p->cursor + 1 < n)
            p->cursor++;
        else if (ch == KEY_PPAGE || ch == KEY_NPAGE) {
            int page = LINES / 3 > 1 ? LINES / 3 : 1;
            p->talk_back += ch == KEY_PPAGE ? page : -page;
            p->talk_back = p->talk_back < 0 ? 0 : p->talk_back; /* the top is clamped when drawn */
        }
        else if (ch == ' ' && !tl && n > 0)
            p->marked ^= cardset_of(cards[p->cursor]);
        else if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
            if (p->over)
                say(p, "the set is over: s saves it, u takes back, x leaves");
            else
                enter(p);
        } else if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
            if (tl)
                p->typed[tl - 1] = '\0';
        } else if (ch == 27) {
            p->typed[0] = '\0';
            p->marked = 0;
        } else if (!tl && table_key(p, ch, draw_screen))
            ; /* done */
        else if (!tl && ch == 'x' && may_leave(p))
            break;
        else if (!tl && ch == 'x')
            ; /* asked: x again leaves */
        else if (ch == KEY_RESIZE)
            ; /* drawn again below */
        else if (ch >= 32 && ch < 127 && tl + 1 < sizeof p->typed) {
            p->typed[tl] = (char)ch;
            p->typed[tl + 1] = '\0';
        } else
            say(p, "that key does nothing here (? hint, u undo, s save, x leave)");
        advance(p, draw_screen);
        draw_screen(p);
    }
    endwin();
    delscreen(scr);
    return 0;
}

/* ---------------------------------------------------------------- setting up */

/* 64 bits from the system's generator: a seed with no link to any other (the engines' seeds must
 * not lead back to the deals' seed). */
static uint64_t fresh_seed(void)
{
    uint64_t x = 0;
    if (getrandom(&x, sizeof x, 0) != (ssize_t)sizeof x)
        x = rng_mix((uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32) ^ (uint64_t)clock());
    return x;
}

/* What load_record gathers from a record's lines (record_each_move). */
typedef struct load {
    play_t *p;
    const char *path;
    move_entry_t *moves;
    int *n;
    char *err;
    size_t errlen;
} load_t;

static int load_move(void *data, int seat, const game_move_t *m)
{
    load_t *ld = data;
    if (*ld->n == MAX_MOVES)
        return -text_fail(ld->err, ld->errlen, "--record '%.200s': more than %d moves, more than picket-play holds",
                          ld->path, MAX_MOVES); /* 1: stopped, said */
    ld->moves[(*ld->n)++] = (move_entry_t){ seat, *m };
    return 0;
}

/* The player's seat, as save wrote it: a resumed set goes on from the same side. 1 (said) to stop. */
static int load_comment(void *data, const char *s)
{
    load_t *ld = data;
    play_t *p = ld->p;
    int seat, k = 0;
    if (sscanf(s, "# picket-play: seat %d you%n", &seat, &k) != 1 || k == 0 || (seat != 0 && seat != 1))
        return 0;
    if (p->seat_given && seat != p->human)
        return -text_fail(ld->err, ld->errlen, "--record '%.200s': you played seat %d there, not --seat %d", ld->path,
                          seat, p->human);
    p->human = seat;
    p->engine = 1 - seat;
    /* The level it was played at goes on, unless --level (or another --engine) says. */
    const char *lv = strstr(s, ", level ");
    int level;
    if (lv && !p->level_fixed && text_int(lv + 8, 1, 5, &level) == 0) {
        char field[32];
        snprintf(field, sizeof field, "option.level=%d", level);
        if (arena_spec_set(&p->spec, field, ld->err, ld->errlen) < 0)
            return 1;
        p->level = level;
    }
    return 0;
}

/* The moves of a saved record, after replay has checked it. */
static int load_record(play_t *p, const char *path, move_entry_t *moves, int *n, char *err, size_t errlen)
{
    char why[400];
    FILE *f = lines_open(path, why, sizeof why);
    if (!f)
        return text_fail(err, errlen, "--record: cannot read %s", why);
    record_t rec = { 0 };
    int rc = record_replay(f, &rec, NULL, NULL, why, sizeof why);
    if (rc < 0)
        text_fail(err, errlen, "--record '%.200s': %s", path, why);
    else if (rec.game != p->g)
        rc = text_fail(err, errlen, "--record '%.200s': a record of %s, not of picket", path, rec.game->name);
    if (rc == 0) {
        p->cfg = rec.cfg;
        p->seed = rec.cfg.deal_seed;
        p->seed_shown = 1;
    }
    record_free(&rec);
    rewind(f);
    *n = 0;
    load_t ld = { p, path, moves, n, err, errlen };
    if (rc == 0) {
        rc = record_each_move(f, p->g, load_move, load_comment, &ld, why, sizeof why);
        if (rc < 0)
            text_fail(err, errlen, "--record '%.200s': %s", path, why);
        rc = rc ? -1 : 0;
    }
    fclose(f);
    return rc;
}

/* The options that take a whole number, declared once: name, what a value must be, range. */
enum { ARG_LEVEL, ARG_HINT_LEVEL, ARG_SEAT, ARG_SEED, ARG_ENGINE_SEED, ARG_NUMBERS };
static const struct number_arg {
    const char *name, *what;
    uint64_t lo, hi;
} NUMBER_ARGS[ARG_NUMBERS] = {
    { "--level", "a level from 1 to 5", 1, 5 },
    { "--hint-level", "a level from 1 to 5", 1, 5 },
    { "--seat", "0 or 1", 0, 1 },
    { "--seed", "a number from 0 to 18446744073709551615", 0, UINT64_MAX },
    { "--engine-seed", "a number from 0 to 18446744073709551615", 0, UINT64_MAX },
};

static int parse_args(play_t *p, int argc, char **argv, char *err, size_t errlen, const char **record)
{
    const char *engine = NULL;
    char path[1200];
    const char *slash = strrchr(argv[0], '/');
    snprintf(path, sizeof path, "%.*spicket-engine", slash ? (int)(slash - argv[0] + 1) : 0, argv[0]);
    uint64_t num[ARG_NUMBERS] = { 5, 5, 0, 0, 0 };
    int given[ARG_NUMBERS] = { 0 };
    char *opt_fields[64];
    int n_opts = 0;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(o, "--plain")) {
            p->plain = 1;
            continue;
        }
        if (!v)
            return arena_cli_refuse(USAGE, o, err, errlen);
        i++;
        int k = 0;
        while (k < ARG_NUMBERS && strcmp(o, NUMBER_ARGS[k].name) != 0)
            k++;
        if (k < ARG_NUMBERS) {
            if (text_u64(v, NUMBER_ARGS[k].lo, NUMBER_ARGS[k].hi, &num[k]) < 0) {
                char fmt[96];
                snprintf(fmt, sizeof fmt, "%s: '%%s' is not %s", o, NUMBER_ARGS[k].what);
                return text_error(err, errlen, fmt, v);
            }
            given[k] = 1;
        } else if (!strcmp(o, "--preset")) {
            if (game_config_set_preset(&p->cfg, v, err, errlen) < 0)
                return -1;
        } else if (!strcmp(o, "--flag")) {
            if (game_config_add_flag(&p->cfg, v, err, errlen) < 0)
                return -1;
        } else if (!strcmp(o, "--option")) {
            if (!strchr(v, '=') || n_opts == 64)
                return text_error(err, errlen, "--option: '%s' is not NAME=VALUE", v);
            opt_fields[n_opts++] = argv[i];
        } else if (!strcmp(o, "--engine")) {
            engine = v;
        } else if (!strcmp(o, "--record")) {
            *record = v;
        } else if (!strcmp(o, "--save")) {
            snprintf(p->save_path, sizeof p->save_path, "%s", v);
        } else {
            return text_error(err, errlen, "unknown option '%s' (see --help)", o);
        }
    }
    p->human = (int)num[ARG_SEAT];
    p->seat_given = given[ARG_SEAT];
    p->level = (int)num[ARG_LEVEL];
    p->level_fixed = given[ARG_LEVEL] || engine;
    static const int UNIT_OF_LEVEL[] = { HINT_NONE, HINT_SCORE, HINT_POINTS, HINT_POINTS, HINT_POINTS };
    p->hint_unit = engine ? HINT_RAW : UNIT_OF_LEVEL[num[ARG_HINT_LEVEL] - 1];
    for (int i = 0; i < n_opts; i++)
        if (strstr(opt_fields[i], "reward_scale") || !strncmp(opt_fields[i], "bot=", 4) || !strncmp(opt_fields[i], "level=", 6))
            p->hint_unit = HINT_RAW; /* the values are no longer the level's */
    p->seed = given[ARG_SEED] ? num[ARG_SEED] : fresh_seed();
    p->seed_shown = given[ARG_SEED];
    /* Two seeds from --engine-seed, for the opponent and the hints: neither is the deals' seed. */
    p->engine_seed = given[ARG_ENGINE_SEED] ? rng_derive(num[ARG_ENGINE_SEED], 1) : fresh_seed();
    p->hint_seed = given[ARG_ENGINE_SEED] ? rng_derive(num[ARG_ENGINE_SEED], 2) : fresh_seed();
    p->engine = 1 - p->human;
    /* Both engines from the same fields: the opponent at its level, the hints at theirs. */
    char field[1400], why[400];
    for (int k = 0; k < 2; k++) {
        arena_spec_t *s = k ? &p->hint_spec : &p->spec;
        arena_spec_init(s);
        snprintf(field, sizeof field, "cmd=%s", engine ? engine : path);
        int rc = arena_spec_set(s, field, why, sizeof why);
        if (rc == 0)
            rc = arena_spec_set(s, k ? "name=hints" : "name=engine", why, sizeof why);
        int level = k ? ARG_HINT_LEVEL : ARG_LEVEL;
        if (rc == 0 && (!engine || given[level])) {
            snprintf(field, sizeof field, "option.level=%d", (int)num[level]);
            rc = arena_spec_set(s, field, why, sizeof why);
        }
        if (rc == 0 && !engine)
            rc = arena_spec_set(s, "option.info=false", why, sizeof why);
        for (int i = 0; rc == 0 && i < n_opts; i++) {
            snprintf(field, sizeof field, "option.%s", opt_fields[i]);
            rc = arena_spec_set(s, field, why, sizeof why);
        }
        if (rc == 0)
            rc = arena_spec_set(s, "timeout=600", why, sizeof why);
        /* An engine's stderr would write over the full-screen table. */
        if (rc == 0 && !p->plain)
            rc = arena_spec_set(s, "stderr=/dev/null", why, sizeof why);
        if (rc < 0)
            return text_fail(err, errlen, "engine: %s", why);
    }
    return 0;
}

/* Output that could not be written is an error (lines_check_stdout). */
static void check_stdout(void) { lines_check_stdout("picket-play"); }

int main(int argc, char **argv)
{
    atexit(check_stdout);
    int info = arena_cli_help(argc, argv, USAGE, "picket-play " PICKET_VERSION);
    if (info >= 0 && info != 2) /* 2: no argument, play with every default */
        return info;
    arena_cli_signals(on_signal);
    static play_t play;
    play_t *p = &play;
    p->g = game_find("picket");
    char err[1200];
    const char *record = NULL;
    static move_entry_t loaded[MAX_MOVES];
    int n_loaded = 0;
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
        p->plain = 1;
    if (parse_args(p, argc, argv, err, sizeof err, &record) < 0 ||
        (record && load_record(p, record, loaded, &n_loaded, err, sizeof err) < 0)) {
        fprintf(stderr, "picket-play: %s\n", err);
        return 2;
    }
    p->cfg.players = 2;
    if (!p->cfg.preset[0])
        snprintf(p->cfg.preset, sizeof p->cfg.preset, "cotgrave");
    p->cfg.deal_seed = p->seed;
    /* The rules checked before the engine starts (rebuild makes the table afresh). */
    if (!(p->ref = referee_create(p->g, &p->cfg, err, sizeof err))) {
        fprintf(stderr, "picket-play: %s\n", err);
        return 2;
    }
    /* The default name tells the time, not the seed: a seed names every card of the set. */
    time_t now = time(NULL);
    struct tm tm;
    if (!p->save_path[0] && localtime_r(&now, &tm))
        strftime(p->save_path, sizeof p->save_path, "picket-play-%Y%m%d-%H%M%S.txt", &tm);
    p->setup.game = p->g;
    p->setup.cfg = p->cfg;
    p->setup.engine[p->engine] = &p->proc;
    p->setup.engine_seed[p->engine] = p->engine_seed;
    p->setup.margin = 1.0;
    p->result.players = 2;
    if (arena_engine_start(&p->proc, &p->spec, p->g->name, err, sizeof err) < 0 || rebuild(p, loaded, n_loaded, err, sizeof err) < 0) {
        fprintf(stderr, "picket-play: %s\n", err);
        arena_engine_stop(&p->proc);
        return 2;
    }
    p->saved_at = p->n_moves;
    if (record)
        say(p, "resumed %.100s: %d moves", record, n_loaded);
    int rc = p->plain ? run_plain(p) : run_screen(p);
    if (rc < 0) {
        p->plain = 1;
        rc = run_plain(p);
    }
    arena_engine_stop(&p->proc);
    arena_engine_stop(&p->hint_proc);
    referee_free(p->ref);
    arena_spec_free(&p->spec);
    arena_spec_free(&p->hint_spec);
    return rc < 0 ? 1 : 0;
}
