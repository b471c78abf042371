/* referee: the one referee. It plays any game behind game_t for N seats, one step at a time.
 *
 * The referee holds the true state and the event buffer. After every step it routes each event
 * to the seats allowed to see it, and to no other (a seat is an in-process bot, an engine
 * process, or a person: anything behind referee_seat_t). It asks the seat to move for a move,
 * checks the move against the rules before applying it, and reports any failure as a fault
 * with the seat to blame. `picket selfplay`, the arena and record replay all play through it.
 *
 * It never prints and never decides: seats decide, hooks observe (a record, a log, a test).
 */
#ifndef PICKET_REFEREE_H
#define PICKET_REFEREE_H

#include <stddef.h>

#include "game.h"

/* One seat at the table. */
typedef struct referee_seat {
    /* An event the seat may see, in the true order. 0, or -1 with a reason: the seat is at
     * fault (it refused the event, or it is gone). NULL: the seat is told nothing. */
    int (*event)(void *data, const game_event_t *ev, char *err, size_t errlen);
    /* The seat is to move: write its move. 0; 1 if it has none yet (a person still thinking:
     * step again later); -1 with a reason (fault). NULL: moves come only from referee_move. */
    int (*decide)(void *data, game_move_t *out, char *err, size_t errlen);
    void *data;
} referee_seat_t;

/* Observers of the true game: every event (hidden ones included) and every move. */
typedef struct referee_hooks {
    void (*on_event)(void *data, const game_event_t *ev);
    void (*on_move)(void *data, const void *state, int seat, const game_move_t *m); /* before apply */
    void *data;
} referee_hooks_t;

typedef enum {
    REFEREE_STEPPED = 0,  /* one chance node or move done; more to come */
    REFEREE_OVER,         /* the game is over */
    REFEREE_WAITING,      /* the seat to move has no move yet */
    REFEREE_FAULT         /* a fault: see referee_fault; the game stops here */
} referee_status_t;

typedef enum {
    REFEREE_FAULT_NONE,
    REFEREE_FAULT_SEAT,     /* the seat's own failure (its decide or event said so) */
    REFEREE_FAULT_ILLEGAL,  /* the seat chose a move the rules refuse */
    REFEREE_FAULT_GAME      /* the game broke its contract (too many events at once) */
} referee_fault_kind_t;

typedef struct referee_fault {
    referee_fault_kind_t kind;
    int seat;               /* -1 for a game fault */
    char text[320];
} referee_fault_t;

typedef struct referee referee_t;

/* A new game for cfg (its deal_seed drives the deals). NULL with a reason in err. */
referee_t *referee_create(const game_t *g, const game_config_t *cfg, char *err, size_t errlen);
void referee_free(referee_t *r);

/* Seat a player (copied); seats default to none (told nothing, moved by referee_move only). */
void referee_set_seat(referee_t *r, int seat, const referee_seat_t *s);
void referee_set_hooks(referee_t *r, const referee_hooks_t *h);
/* Draw chance from rng instead of the game's own stream (NULL: the game's own, as records). */
void referee_set_chance(referee_t *r, rng_t *rng);

const void *referee_state(const referee_t *r);
int referee_players(const referee_t *r);
/* A seat, GAME_CHANCE or GAME_OVER. */
int referee_to_move(const referee_t *r);
long referee_moves(const referee_t *r);    /* moves applied so far */
long referee_chances(const referee_t *r);  /* chance nodes resolved so far */
const referee_fault_t *referee_fault(const referee_t *r);

/* One step: a chance node, or the move of the seat to move (asked through its decide). */
referee_status_t referee_step(referee_t *r);
/* Steps until the game is over, a fault, or a seat waiting. */
referee_status_t referee_play(referee_t *r);
/* A move for `seat` from outside (a record, a person), made when that seat is to move (step
 * past chance first): checked, then applied and routed. Returns the status after it, or -1
 * with the reason in err and nothing changed when the game is over, the seat is not to move
 * or the move is illegal ("illegal move: ..."). */
int referee_move(referee_t *r, int seat, const game_move_t *m, char *err, size_t errlen);

#endif
