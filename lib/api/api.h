/* Internal declarations of libstpete, the handle layer (lib/api/): struct stpete_game and struct stpete_state
 * and what their files share: game.c (options, games), state.c (the state handle, its checked entry points and
 * queries), openspiel.c (OpenSpiel's entry points: chance outcomes, returns, observations, information states,
 * history, undo, determinize), listeners.c (a state's callback and event queue), history.c (a state's history and
 * checkpoints), event_text.c (the log line of an event). Not installed (lib/facts/facts.h describes the layers). */
#ifndef STPETE_API_H
#define STPETE_API_H

#include "engine/engine.h"

/* ---- listeners.c: a state's listeners (callback and queue), fed through the engine's sink ----------- */

/* The pull-style event queue: events[head, len) are pending. Grown before an apply, never during one. */
typedef struct event_queue {
    stpete_event *events;
    uint32_t head, len, cap;
    uint8_t on;
} event_queue;

/* Room the queue keeps free before apply or reset: more than the events of any one step (an action, its
 * displacement, 4 scorings, a phase start, 8 deals, the round end, markers, the last-round flag, 4 final
 * scorings and game over add up to under 40). */
enum { EVENTS_PER_STEP_MAX = 64 };

/* A state's listeners: its callback and queue, and what the callback may and may not do meanwhile. */
typedef struct event_hub {
    const stpete_state *owner; /* passed to the callback */
    stpete_event_fn fn;
    void *user;
    int in_callback;           /* the callback is running: the state must not change (STPETE_E_REENTRANT) */
    int free_requested;        /* stpete_state_free() was called from the callback: free once the call returns */
    event_queue queue;
} event_hub;

/* The hub's sink function: queue the event, then call the callback. */
void stpete_hub_dispatch(void *hub, const stpete_event *ev);

/* The sink of a hub, or NULL when it has neither a callback nor a queue (or its state is being freed). Inline: it
 * runs before every apply. */
static inline const stpete_sink *stpete_hub_sink(event_hub *h, stpete_sink *storage)
{
    if ((!h->fn && !h->queue.on) || h->free_requested)
        return NULL;
    storage->fn = stpete_hub_dispatch;
    storage->ctx = h;
    return storage;
}
/* Grow the queue (stpete_hub_reserve's slow path). */
int stpete_hub_grow(event_hub *h, const stpete_allocator *al);

/* Make room in the queue for one step (EVENTS_PER_STEP_MAX) with the allocator; 0 on success, -1 out of memory.
 * Inline: it runs before every apply, and the queue is usually off. */
static inline int stpete_hub_reserve(event_hub *h, const stpete_allocator *al)
{
    if (!h->queue.on || h->queue.cap - h->queue.len >= EVENTS_PER_STEP_MAX)
        return 0;
    return stpete_hub_grow(h, al);
}
/* Turn the queue on or off (off frees it). */
void stpete_hub_set_queue(event_hub *h, int on, const stpete_allocator *al);
/* Take the oldest queued event: 1 if one was written, 0 if none. */
int stpete_hub_next(event_hub *h, stpete_event *out);

/* ---- history.c: a state's history and its checkpoints ------------------------------------------- */

enum { HISTORY_STRIDE = 16 };

typedef struct history {
    int32_t *ids;             /* the ids applied since the root, oldest first */
    size_t n, cap;
    stpete_core *checkpoints; /* checkpoint i = the position after i * HISTORY_STRIDE of them */
    size_t cap_checkpoints;
} history;

/* Grow the buffers (stpete_history_reserve's slow path). */
int stpete_history_grow(history *h, const stpete_allocator *al);

/* Make room to record one more id (and its checkpoint); 0, or -1 out of memory (nothing changed). Inline, as the
 * next one: they run on every apply. */
static inline int stpete_history_reserve(history *h, const stpete_allocator *al)
{
    if (h->n < h->cap && (h->n % HISTORY_STRIDE != 0 || h->n / HISTORY_STRIDE < h->cap_checkpoints))
        return 0;
    return stpete_history_grow(h, al);
}

/* Record id, applied to the position before (after stpete_history_reserve). */
static inline void stpete_history_record(history *h, const stpete_core *before, int id)
{
    if (h->n % HISTORY_STRIDE == 0)
        stpete_core_copy(&h->checkpoints[h->n / HISTORY_STRIDE], before);
    h->ids[h->n++] = id;
}
/* Undo the last id (n > 0): put the position before it into c; returns the id. */
int stpete_history_undo(history *h, stpete_core *c);
/* dst (empty) becomes a copy of src; 0, or -1 out of memory (dst unchanged). */
int stpete_history_copy(history *dst, const history *src, const stpete_allocator *al);
void stpete_history_free(history *h, const stpete_allocator *al);



/* ---- game.c: options and games ----------------------------------------------------------------- */

struct stpete_game {
    stpete_options opts;
    stpete_rules rules;
};

/* The rules of valid options (every option but the seed and the allocator), padding zeroed. */
void stpete_rules_of(const stpete_options *o, stpete_rules *r);
/* Whether two positions belong to the same game: the one home of that question (stpete_game_check_compatible()). */
int stpete_rules_same(const stpete_rules *a, const stpete_rules *b);

/* ---- state.c: the state handle ----------------------------------------------------------------- */

/* Longest message: "action %d (%s) is not legal: %s" with a 95-byte action string and a 160-byte reason. */
#define STPETE_ERRMSG_SIZE 320

struct stpete_state {
    const stpete_game *game;
    event_hub hub;
    history hist;
    stpete_core core;
    char errmsg[STPETE_ERRMSG_SIZE];
};

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
/* STPETE_OK, or STPETE_E_REENTRANT (with the message) when called from the state's own event callback: every call
 * that changes a state asks this first. */
int stpete_state_check_not_in_callback(stpete_state *st);
/* The successful end of a call that reported events: the callback may have asked for the state to be freed
 * (deferred until now, see stpete_state_free()), which happens now; otherwise the messages of refused calls made
 * from the callback are cleared. Returns STPETE_OK. After it the caller must not touch st again. */
int stpete_state_step_done(stpete_state *st);

/* Whether seat names a seat of st's game (st not NULL). */
static inline int stpete_state_seat_ok(const stpete_state *st, int seat)
{
    return st && seat >= 0 && seat < st->core.rules.players;
}

#endif /* STPETE_API_H */
