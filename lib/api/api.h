/* Internal declarations of libstpete, the handle layer (lib/api/): struct stpete_game and struct stpete_state
 * and what their files share: game.c (options, games), state.c (the state handle, its checked entry points and
 * queries), openspiel.c (OpenSpiel's entry points: chance outcomes, returns, observations, information states,
 * history, undo, determinize), listeners.c (a state's callback and event queue), history.c (a state's history and
 * checkpoints), event_text.c (the log line of an event). Not installed (lib/facts/facts.h describes the layers). */
#ifndef STPETE_API_H
#define STPETE_API_H

#include <string.h>

#include "engine/engine.h"

/* ---- game.c: options and games ----------------------------------------------------------------- */

struct stpete_game {
    stpete_options opts;
    stpete_rules rules;
};

/* The rules of valid options (every option but the seed and the allocator), padding zeroed. */
void stpete_game_rules_of(const stpete_options *o, stpete_rules *r);
/* Whether two positions belong to the same game, the one answer to that question (stpete_state_copy(),
 * stpete_state_from_json(), the bots through stpete_game_check_compatible()): every field of stpete_rules, i.e.
 * every option but the seed and the allocator (padding zeroed by stpete_game_rules_of()). Inline: every copy of a
 * playout asks it (16 bytes, two compares). */
static inline int stpete_game_rules_same(const stpete_rules *a, const stpete_rules *b)
{
    return memcmp(a, b, sizeof *a) == 0;
}

/* ---- options.c: the table of options (issue 42) ------------------------------------------------------ */

/* At most this many options (the JSON reader's list of keys, the programs' mask of given options). */
#define STPETE_OPTIONS_MAX 32
/* The second released layout of stpete_options (the first is STPETE_OPTIONS_SIZE_1_0, facts.h): it ends with the
 * New Society's four members (§12), padded as the struct is. */
#define STPETE_OPTIONS_SIZE_1_1                                                                                   \
    ((offsetof(stpete_options, textile_without_new_society) + sizeof(int) + _Alignof(stpete_options) - 1) /        \
     _Alignof(stpete_options) * _Alignof(stpete_options))
/* The first layout of stpete_option_info (1.2). */
#define STPETE_OPTION_INFO_SIZE_1_2 sizeof(stpete_option_info)

/* A row of the table: the public description and what the library needs to reach the member. */
typedef struct stpete_option_def {
    stpete_option_info info;
    size_t offset, size; /* the member in stpete_options */
    int format_version;  /* the first version of the JSON format whose "options" object holds it (doc/format.md) */
    const char *const *former_words; /* ENUM: the 0.x word of each value, also read by stpete_options_set(); or NULL */
    /* the option's own rule on a combination (its range included), or NULL: the range of its type and its games */
    int (*check)(const stpete_options *o, char *why, size_t why_size);
    const char *refusal; /* why a value other than the default is refused outside its games ("%s": the rule), or
                            NULL for the sentence made from stpete_option_info::games */
} stpete_option_def;

/* The table, in the order of the JSON format's "options" (format versions never decrease along it), and its number
of rows (stpete_option_count()). */
extern const stpete_option_def stpete_options_table[];
extern const int stpete_options_rows;
/* The row of a name, or NULL. */
const stpete_option_def *stpete_options_find(const char *name);
/* The value of an int member (BOOL, INT, ENUM). */
int64_t stpete_options_int(const stpete_options *o, const stpete_option_def *d);
/* The kind of game of options (enum stpete_games, one bit): edition 2 the second edition, else the New Society when
 * set, else the first edition's base game. */
int stpete_options_games_of(const stpete_options *o);
/* Whether a caller's struct_size is a released layout's: 1.0, 1.1 or this library's. */
int stpete_options_size_ok(size_t size);
/* Check every option of a combination in the table's order (its range, its own rule, its games): STPETE_OK or
 * STPETE_E_INVALID_ARGUMENT with the reason in why. The allocator is game.c's. */
int stpete_options_check_table(const stpete_options *o, char *why, size_t why_size);
/* The JSON format version of a game of these options: STPETE_FORMAT_VERSION, _NEW_SOCIETY with the expansion, or
 * the version of an option set away from its default that came later. */
int stpete_options_format_version(const stpete_options *o);
/* The newest JSON format version this library reads. */
int stpete_options_newest_format(void);

/* ---- the state handle and what it holds ------------------------------------------------------- */

/* The pull-style event queue, one allocation: events[head, len) are pending. Grown before an apply, never during
 * one. */
typedef struct event_queue {
    uint32_t head, len, cap;
    stpete_event events[];
} event_queue;

/* Room the queue keeps free before apply or reset: more than the events of any one step (an action, its
 * displacement, 4 scorings, a phase start, 8 deals, the round end, markers, the last-round flag, 4 final
 * scorings and game over add up to under 40). */
enum { EVENTS_PER_STEP_MAX = 64 };

/* A state's listeners: its callback and its queue (which of them are on: stpete_state::flags). */
typedef struct event_hub {
    stpete_event_fn fn;
    void *user;
    event_queue *queue; /* NULL until an apply or reset reserves room in a queue that is on */
} event_hub;

/* What listens to a state and what its callback is doing: stpete_state::flags. 0 = nothing listens (a playout's
 * state): an apply needs no queue, no sink and no check for its callback, one test of the byte. */
enum {
    STATE_CALLBACK = 1,      /* hub.fn is set */
    STATE_QUEUE = 2,         /* the queue is on */
    STATE_IN_CALLBACK = 4,   /* the callback is running: the state must not change (STPETE_E_REENTRANT) */
    STATE_FREE_REQUESTED = 8 /* stpete_state_free() was called from the callback: free once the call returns */
};

enum { HISTORY_STRIDE = 16 };

/* The ids applied since the root and a checkpoint of the position every HISTORY_STRIDE of them, in one allocation:
 * cap ids, then cap / HISTORY_STRIDE checkpoints (checkpoint i = the position after i * HISTORY_STRIDE ids). */
typedef struct history {
    int32_t *ids;    /* the buffer; NULL while cap is 0 */
    uint32_t n, cap; /* cap: a multiple of HISTORY_STRIDE, at most HISTORY_CAP_MAX */
} history;

/* The state's message, NUL included. The longest the library writes is a refusal, "action %d (%s) is not legal: %s":
 * 237 bytes with the longest action string (89) and its reason (every id applied in every position of random games,
 * both editions, 2-5 players; test_longest_refusal_is_whole checks it). A refusal that would not fit leaves out the
 * action string (refuse_illegal() in state.c): the reason stays whole. 255 makes the state 1,024 bytes (issue 35). */
#define STPETE_ERRMSG_SIZE 254

struct stpete_state {
    const stpete_game *game;
    event_hub hub;
    history hist;
    stpete_core core;
    uint8_t flags; /* STATE_CALLBACK... */
    uint8_t root_setup; /* 1: the history's root is a setup of §3 (stpete_state_new, reset), whose events a replay of
                           the history reports first (stpete_front_chronicle); 0: a loaded, copied or determinized
                           position */
    char errmsg[STPETE_ERRMSG_SIZE];
};

_Static_assert(sizeof(struct stpete_state) <= 1024, "a state is at most 1 KiB (issue 35; stpete-bench, bench-check)");

/* ---- listeners.c: a state's listeners (callback and queue), fed through the engine's sink ----------- */

/* The hub's sink function (ctx: the state): queue the event, then call the callback. */
void stpete_listeners_dispatch(void *st, const stpete_event *ev);

/* The sink of a state's listeners, or NULL when it has neither a callback nor a queue (or it is being freed).
 * Inline: it runs before every apply. */
static inline const stpete_sink *stpete_listeners_sink(stpete_state *st, stpete_sink *storage)
{
    if (!(st->flags & (STATE_CALLBACK | STATE_QUEUE)) || (st->flags & STATE_FREE_REQUESTED))
        return NULL;
    storage->fn = stpete_listeners_dispatch;
    storage->ctx = st;
    return storage;
}
/* Allocate or grow the queue (stpete_listeners_reserve's slow path). */
int stpete_listeners_grow(event_hub *h, const stpete_allocator *al);

/* Make room in the queue for one step (EVENTS_PER_STEP_MAX) with the allocator, when the queue is on; 0 on success,
 * -1 out of memory. Inline: it runs before every apply that has a listener. */
static inline int stpete_listeners_reserve(stpete_state *st, const stpete_allocator *al)
{
    const event_queue *q = st->hub.queue;
    if (!(st->flags & STATE_QUEUE) || (q && q->cap - q->len >= EVENTS_PER_STEP_MAX))
        return 0;
    return stpete_listeners_grow(&st->hub, al);
}
/* Turn the queue on or off (off frees it); never fails (the queue is allocated by the next apply or reset). */
void stpete_listeners_set_queue(stpete_state *st, int on, const stpete_allocator *al);
/* Take the oldest queued event: 1 if one was written, 0 if none. */
int stpete_listeners_next(event_hub *h, stpete_event *out);
/* The number of queued events. */
static inline int stpete_listeners_pending(const event_hub *h)
{
    return h->queue ? (int)(h->queue->len - h->queue->head) : 0;
}

/* ---- history.c: a state's history and its checkpoints ------------------------------------------- */

/* The most ids a history holds (its buffer, 49 bytes an id, stays far below any size_t); a game has a few hundred. */
#define HISTORY_CAP_MAX (UINT32_C(1) << 24)

/* The checkpoints of a history (after its ids: cap * 4 bytes, a multiple of 64, keeps them aligned). */
static inline stpete_core *stpete_history_checkpoints(const history *h)
{
    return (stpete_core *)(void *)(h->ids + h->cap);
}

/* Grow the buffer (stpete_history_reserve's slow path). */
int stpete_history_grow(history *h, const stpete_allocator *al);

/* Make room to record one more id (and its checkpoint: cap is a multiple of the stride); 0, or -1 out of memory
 * (nothing changed). Inline, as the next one: they run on every apply. */
static inline int stpete_history_reserve(history *h, const stpete_allocator *al)
{
    if (h->n < h->cap)
        return 0;
    return stpete_history_grow(h, al);
}

/* Record id, applied to the position before (after stpete_history_reserve). */
static inline void stpete_history_record(history *h, const stpete_core *before, int id)
{
    if (h->n % HISTORY_STRIDE == 0)
        stpete_engine_copy(&stpete_history_checkpoints(h)[h->n / HISTORY_STRIDE], before);
    h->ids[h->n++] = id;
}
/* Undo the last id (n > 0): put the position before it into c; returns the id. */
int stpete_history_undo(history *h, stpete_core *c);
/* dst (empty) becomes a copy of src; 0, or -1 out of memory (dst unchanged). */
int stpete_history_copy(history *dst, const history *src, const stpete_allocator *al);
void stpete_history_free(history *h, const stpete_allocator *al);

/* ---- state.c: the state handle ----------------------------------------------------------------- */

/* A failing call: the message (printf-style) into the state's last error; returns status. */
int stpete_state_fail(stpete_state *st, int status, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* A successful call: clears the last error; returns STPETE_OK. */
int stpete_state_succeed(stpete_state *st);
/* Free a state and what it owns, now (stpete_state_free defers it inside the state's own callback). */
void stpete_state_release(stpete_state *st);
/* The refusal of a call made from the state's own event callback: STPETE_E_REENTRANT, with the message. */
int stpete_state_refuse_reentrant(stpete_state *st);
/* STPETE_OK, or STPETE_E_REENTRANT (with the message) when called from the state's own event callback: every call
 * that changes a state asks this first. Inline: one test of a byte on every apply. */
static inline int stpete_state_check_not_in_callback(stpete_state *st)
{
    return (st->flags & STATE_IN_CALLBACK) ? stpete_state_refuse_reentrant(st) : STPETE_OK;
}
/* The successful end of a call that reported events: the callback may have asked for the state to be freed
 * (deferred until now, see stpete_state_free()), which happens now; otherwise the messages of refused calls made
 * from the callback are cleared. Returns STPETE_OK. After it the caller must not touch st again. */
int stpete_state_step_done(stpete_state *st);
/* The position of src with its history into dst (a state of a game with the same rules), as stpete_state_clone()
 * copies them, without allocating a state (stpete_results_read_line()): STPETE_OK; STPETE_E_REENTRANT inside
 * dst's callback, STPETE_E_MISMATCH for other rules, STPETE_E_OUT_OF_MEMORY; dst unchanged on failure. */
int stpete_state_take(stpete_state *dst, const stpete_state *src);

/* Whether seat names a seat of st's game (st not NULL). */
static inline int stpete_state_seat_ok(const stpete_state *st, int seat)
{
    return st && seat >= 0 && seat < st->core.rules.players;
}

/* ---- front.c: what a front end asks beyond the position ------------------------------------------- */

/* What replaying a state's history from its root tells (stpete_front_chronicle). */
typedef struct stpete_chronicle {
    void (*fn)(void *ctx, const stpete_event *ev); /* each event of the replay, in order, or NULL */
    void *ctx;                                      /* passed to fn */
    int move;                     /* while fn runs: the move after the action that reported the event (0: setup) */
    uint8_t discarded[DISPLAY_CAP];          /* copies of each card type discarded last (stpete_state_last_discards) */
    int last_moves[STPETE_MAX_PLAYERS];      /* per seat, the move before its last action; -1 for none */
} stpete_chronicle;
/* Replay st's history from its root into ch (fn and ctx set by the caller, the rest written). */
void stpete_front_chronicle(const stpete_state *st, stpete_chronicle *ch);

#endif /* STPETE_API_H */
