/* A state's listeners: its callback and its pull-style queue, fed through the engine's sink (lib/engine/engine.h). The
 * engine (rules.c) knows only the sink; the state (state.c) owns a hub and hands the engine the hub's sink. */
#include <string.h>

#include "api/api.h"

/* Append to the queue (room was reserved before the step), then call the callback. While
 * the callback runs the state refuses changes (STPETE_E_REENTRANT); once the callback has asked for the state to
 * be freed, nothing more is delivered. */
void stpete_listeners_dispatch(void *ctx, const stpete_event *ev)
{
    stpete_state *st = ctx;
    if (st->flags & STATE_FREE_REQUESTED)
        return;
    event_queue *q = st->hub.queue;
    /* always room: stpete_listeners_reserve() ran before the step */
    if ((st->flags & STATE_QUEUE) && q && q->len < q->cap)
        q->events[q->len++] = *ev;
    if (st->flags & STATE_CALLBACK) {
        st->flags |= STATE_IN_CALLBACK;
        st->hub.fn(st, ev, st->hub.user);
        st->flags &= (uint8_t)~STATE_IN_CALLBACK;
    }
}

int stpete_listeners_grow(event_hub *h, const stpete_allocator *al)
{
    event_queue *q = h->queue;
    if (q && q->head) { /* slide the pending events to the front first */
        memmove(q->events, q->events + q->head, (size_t)(q->len - q->head) * sizeof *q->events);
        q->len -= q->head;
        q->head = 0;
        if (q->cap - q->len >= EVENTS_PER_STEP_MAX)
            return 0;
    }
    uint32_t cap = q ? q->cap : 0;
    if (cap > UINT32_MAX / 4 || (size_t)cap * 2 > (SIZE_MAX - sizeof *q) / sizeof q->events[0])
        return -1;
    cap = cap ? cap * 2 : 4 * EVENTS_PER_STEP_MAX;
    event_queue *grown = stpete_facts_realloc(al, q, sizeof *q + (size_t)cap * sizeof q->events[0]);
    if (!grown)
        return -1;
    if (!q)
        grown->head = grown->len = 0;
    grown->cap = cap;
    h->queue = grown;
    return 0;
}

void stpete_listeners_set_queue(stpete_state *st, int on, const stpete_allocator *al)
{
    if (on) {
        st->flags |= STATE_QUEUE;
        return;
    }
    stpete_facts_free(al, st->hub.queue);
    st->hub.queue = NULL;
    st->flags &= (uint8_t)~STATE_QUEUE;
}

int stpete_listeners_next(event_hub *h, stpete_event *out)
{
    event_queue *q = h->queue;
    if (!q || q->head == q->len)
        return 0;
    *out = q->events[q->head++];
    if (q->head == q->len)
        q->head = q->len = 0;
    return 1;
}
