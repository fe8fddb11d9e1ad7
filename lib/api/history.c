/* A state's history: the ids applied since its root, and a checkpoint of the position every HISTORY_STRIDE actions,
 * so that undo restores the nearest checkpoint and replays fewer than HISTORY_STRIDE actions (under a microsecond
 * at any depth) while a playout's copies never touch it (stpete_state_copy only sets the count to 0).
 * Checkpoint i is the position after i * HISTORY_STRIDE actions; it is written by the apply that starts from it.
 * Ids and checkpoints share one allocation (api.h): the state keeps a pointer and two counts. */
#include <string.h>

#include "api/api.h"

/* Bytes of a history buffer of cap ids (cap a multiple of HISTORY_STRIDE, at most HISTORY_CAP_MAX). */
static size_t buffer_bytes(uint32_t cap)
{
    return (size_t)cap / HISTORY_STRIDE * sizeof(stpete_core) + (size_t)cap * sizeof(int32_t);
}

int stpete_history_grow(history *h, const stpete_allocator *al)
{
    if (h->cap >= HISTORY_CAP_MAX)
        return -1;
    uint32_t cap = h->cap ? 2 * h->cap : 512; /* random games take 100 to 330 actions */
    if (cap > HISTORY_CAP_MAX) /* a clone's capacity is a multiple of HISTORY_STRIDE, not a power of two */
        cap = HISTORY_CAP_MAX;
    int32_t *ids = stpete_facts_realloc(al, h->ids, buffer_bytes(cap));
    if (!ids)
        return -1;
    /* the checkpoints written so far move up behind the longer run of ids */
    memmove(ids + cap, ids + h->cap, (size_t)(h->n + HISTORY_STRIDE - 1) / HISTORY_STRIDE * sizeof(stpete_core));
    h->ids = ids;
    h->cap = cap;
    return 0;
}

int stpete_history_undo(history *h, stpete_core *c)
{
    uint32_t target = h->n - 1, from = target / HISTORY_STRIDE * HISTORY_STRIDE;
    int undone = h->ids[target];
    stpete_engine_copy(c, &stpete_history_checkpoints(h)[target / HISTORY_STRIDE]);
    for (uint32_t i = from; i < target; i++)
        stpete_rules_apply(c, h->ids[i], NULL, NULL, 0); /* were legal here before: they are again */
    h->n = target;
    return undone;
}

int stpete_history_copy(history *dst, const history *src, const stpete_allocator *al)
{
    if (src->n == 0)
        return 0;
    /* room for exactly src's ids and their checkpoints; the next apply grows it */
    uint32_t cap = (src->n + HISTORY_STRIDE - 1) / HISTORY_STRIDE * HISTORY_STRIDE;
    history copy = { stpete_facts_malloc(al, buffer_bytes(cap)), src->n, cap };
    if (!copy.ids)
        return -1;
    memcpy(copy.ids, src->ids, (size_t)src->n * sizeof(int32_t));
    memcpy(stpete_history_checkpoints(&copy), stpete_history_checkpoints(src),
           (size_t)cap / HISTORY_STRIDE * sizeof(stpete_core));
    *dst = copy;
    return 0;
}

void stpete_history_free(history *h, const stpete_allocator *al)
{
    stpete_facts_free(al, h->ids);
    memset(h, 0, sizeof *h);
}
