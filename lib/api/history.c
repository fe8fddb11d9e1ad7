/* A state's history: the ids applied since its root, and a checkpoint of the position every HISTORY_STRIDE actions,
 * so that undo restores the nearest checkpoint and replays fewer than HISTORY_STRIDE actions (under a microsecond
 * at any depth) while a playout's copies never touch it (stpete_state_copy only sets the count to 0).
 * Checkpoint i is the position after i * HISTORY_STRIDE actions; it is written by the apply that starts from it. */
#include <string.h>

#include "api/api.h"

int stpete_history_grow(history *h, const stpete_allocator *al)
{
    if (h->n == h->cap) {
        size_t cap = h->cap ? 2 * h->cap : 512; /* random games take 100 to 330 actions */
        int32_t *ids = stpete_realloc(al, h->ids, cap * sizeof *ids);
        if (!ids)
            return -1;
        h->ids = ids;
        h->cap = cap;
    }
    size_t cp = h->n / HISTORY_STRIDE;
    if (h->n % HISTORY_STRIDE == 0 && cp == h->cap_checkpoints) {
        size_t cap = h->cap_checkpoints ? 2 * h->cap_checkpoints : 512 / HISTORY_STRIDE;
        stpete_core *c = stpete_realloc(al, h->checkpoints, cap * sizeof *c);
        if (!c)
            return -1;
        h->checkpoints = c;
        h->cap_checkpoints = cap;
    }
    return 0;
}

int stpete_history_undo(history *h, stpete_core *c)
{
    size_t target = h->n - 1, from = target / HISTORY_STRIDE * HISTORY_STRIDE;
    int undone = h->ids[target];
    stpete_core_copy(c, &h->checkpoints[target / HISTORY_STRIDE]);
    for (size_t i = from; i < target; i++)
        stpete_core_apply(c, h->ids[i], NULL, NULL, 0); /* were legal here before: they are again */
    h->n = target;
    return undone;
}

int stpete_history_copy(history *dst, const history *src, const stpete_allocator *al)
{
    size_t cps = (src->n + HISTORY_STRIDE - 1) / HISTORY_STRIDE;
    if (src->n == 0)
        return 0;
    int32_t *ids = stpete_malloc(al, src->n * sizeof *ids);
    stpete_core *c = stpete_malloc(al, cps * sizeof *c);
    if (!ids || !c) {
        stpete_free(al, ids);
        stpete_free(al, c);
        return -1;
    }
    memcpy(ids, src->ids, src->n * sizeof *ids);
    memcpy(c, src->checkpoints, cps * sizeof *c);
    dst->ids = ids;
    dst->cap = dst->n = src->n;
    dst->checkpoints = c;
    dst->cap_checkpoints = cps;
    return 0;
}

void stpete_history_free(history *h, const stpete_allocator *al)
{
    stpete_free(al, h->ids);
    stpete_free(al, h->checkpoints);
    memset(h, 0, sizeof *h);
}
