/* A state's listeners: its callback and its pull-style queue, fed through the engine's sink (lib/engine/engine.h). The
 * engine (rules.c) knows only the sink; the state (state.c) owns a hub and hands the engine the hub's sink. */
#include <string.h>

#include "api/api.h"

/* Append to the queue (room was reserved before the step), then call the callback. While
 * the callback runs the state refuses changes (STPETE_E_REENTRANT); once the callback has asked for the state to
 * be freed, nothing more is delivered. */
void stpete_hub_dispatch(void *ctx, const stpete_event *ev)
{
    event_hub *h = ctx;
    if (h->free_requested)
        return;
    event_queue *q = &h->queue;
    if (q->on && q->len < q->cap) /* always room: stpete_hub_reserve() ran before the step */
        q->events[q->len++] = *ev;
    if (h->fn) {
        h->in_callback = 1;
        h->fn(h->owner, ev, h->user);
        h->in_callback = 0;
    }
}

int stpete_hub_grow(event_hub *h, const stpete_allocator *al)
{
    event_queue *q = &h->queue;
    if (q->head) { /* slide the pending events to the front first */
        memmove(q->events, q->events + q->head, (size_t)(q->len - q->head) * sizeof *q->events);
        q->len -= q->head;
        q->head = 0;
        if (q->cap - q->len >= EVENTS_PER_STEP_MAX)
            return 0;
    }
    if (q->cap > UINT32_MAX / 4)
        return -1;
    uint32_t cap = q->cap ? q->cap * 2 : 4 * EVENTS_PER_STEP_MAX;
    stpete_event *ev = stpete_realloc(al, q->events, (size_t)cap * sizeof *ev);
    if (!ev)
        return -1;
    q->events = ev;
    q->cap = cap;
    return 0;
}

void stpete_hub_set_queue(event_hub *h, int on, const stpete_allocator *al)
{
    if (!on) {
        stpete_free(al, h->queue.events);
        memset(&h->queue, 0, sizeof h->queue);
    }
    h->queue.on = (uint8_t)on;
}

int stpete_hub_next(event_hub *h, stpete_event *out)
{
    event_queue *q = &h->queue;
    if (q->head == q->len)
        return 0;
    *out = q->events[q->head++];
    if (q->head == q->len)
        q->head = q->len = 0;
    return 1;
}
