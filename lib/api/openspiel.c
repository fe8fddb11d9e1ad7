/* The entry points for search and learning (OpenSpiel's vocabulary, include/stpete/stpete.h @ref search): chance
 * outcomes, returns, observations, information states, history and undo. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "api/api.h"

STPETE_API int stpete_state_chance_outcomes(const stpete_state *st, int *outcomes, double *probabilities, size_t capacity,
                                            size_t *count)
{
    if (!st || !count || (!outcomes && capacity))
        return STPETE_E_INVALID_ARGUMENT;
    const stpete_core *c = &st->core;
    int ids[LEGAL_CAP];
    size_t n = c->decision == STPETE_DECISION_CHANCE ? stpete_legal_list(c, ids) : 0;
    *count = n;
    if (n > capacity)
        return STPETE_E_BUFFER_TOO_SMALL;
    int held = c->stack_n[c->deal_stack];
    for (size_t i = 0; i < n; i++) {
        outcomes[i] = ids[i];
        if (!probabilities)
            continue;
        if (c->chance == CHANCE_MARKERS) { /* §3.3: every allowed deal alike */
            probabilities[i] = 1.0 / (double)n;
        } else { /* §4.5, §7.1: copies left / cards left */
            const uint8_t *stack = c->stack[c->deal_stack];
            int copies = 0;
            for (int k = 0; k < held; k++)
                copies += stack[k] == stpete_actions_chance_card(ids[i]);
            probabilities[i] = (double)copies / (double)held;
        }
    }
    return STPETE_OK;
}

STPETE_API int stpete_state_returns(const stpete_state *st, double *out, size_t capacity)
{
    if (!st || !out)
        return STPETE_E_INVALID_ARGUMENT;
    int players = st->core.rules.players;
    if (capacity < (size_t)players)
        return STPETE_E_BUFFER_TOO_SMALL;
    unsigned winners = st->core.decision == STPETE_DECISION_GAME_OVER ? stpete_scoring_winners(&st->core) : 0;
    int k = 0;
    for (int i = 0; i < players; i++)
        k += (int)(winners >> i & 1u);
    for (int i = 0; i < players; i++)
        out[i] = winners >> i & 1u ? 1.0 / k : 0.0;
    return STPETE_OK;
}

STPETE_API int stpete_game_observation_tensor_size(const stpete_game *game)
{
    return game ? stpete_observation_size(&game->rules) : STPETE_E_INVALID_ARGUMENT;
}

STPETE_API int stpete_state_observation_tensor(const stpete_state *st, int seat, float *out, size_t capacity)
{
    if (!stpete_state_seat_ok(st, seat) || !out)
        return STPETE_E_INVALID_ARGUMENT;
    if (capacity < (size_t)stpete_observation_size(&st->core.rules))
        return STPETE_E_BUFFER_TOO_SMALL;
    stpete_knowledge kn;
    stpete_knowledge_of(&st->core, seat, &kn);
    stpete_observation_tensor(&kn, out);
    return STPETE_OK;
}

/* The end of a text written into a text_buf: NUL-terminated when it fits. */
static int text_done(const text_buf *t, size_t *len)
{
    *len = t->len;
    if (t->len >= t->size)
        return STPETE_E_BUFFER_TOO_SMALL;
    t->buf[t->len] = '\0';
    return STPETE_OK;
}

STPETE_API int stpete_state_observation_string(const stpete_state *st, int seat, char *buf, size_t capacity,
                                               size_t *len)
{
    if (!stpete_state_seat_ok(st, seat) || !len || (!buf && capacity))
        return STPETE_E_INVALID_ARGUMENT;
    text_buf t = { buf, capacity, 0 };
    stpete_knowledge kn;
    stpete_knowledge_of(&st->core, seat, &kn);
    stpete_observation_text(&kn, &t);
    return text_done(&t, len);
}

/* The key: a hash of everything the seat knows (its knowledge, which holds the public history hash: the rules,
 * every action, every card dealt or drawn, the marker deal, §9) and the seat; doc/observation.md. */
STPETE_API int stpete_state_information_state_key(const stpete_state *st, int seat, uint64_t *key)
{
    if (!stpete_state_seat_ok(st, seat) || !key)
        return STPETE_E_INVALID_ARGUMENT;
    stpete_knowledge kn;
    stpete_knowledge_of(&st->core, seat, &kn);
    *key = stpete_knowledge_key(&kn);
    return STPETE_OK;
}

STPETE_API int stpete_state_information_state_string(const stpete_state *st, int seat, char *buf, size_t capacity,
                                                     size_t *len)
{
    if (!stpete_state_seat_ok(st, seat) || !len || (!buf && capacity))
        return STPETE_E_INVALID_ARGUMENT;
    text_buf t = { buf, capacity, 0 };
    stpete_knowledge kn;
    stpete_knowledge_of(&st->core, seat, &kn);
    stpete_observation_printf(&t, "information state of seat %d, key %016" PRIx64 " (public history %016" PRIx64 ")\n",
                       seat, stpete_knowledge_key(&kn), kn.k.public_hash);
    stpete_observation_text(&kn, &t);
    /* what perfect recall adds to the observation: rubles known but not in view (rubles_recalled) */
    int any = 0;
    for (int p = 0; p < kn.k.rules.players; p++)
        if (kn.k.p[p].rubles >= 0 && !(kn.rubles_shown >> p & 1u)) {
            stpete_observation_printf(&t, "%sseat %d %d R", any ? ", " : "recalled rubles: ", p, kn.k.p[p].rubles);
            any = 1;
        }
    if (any)
        stpete_observation_printf(&t, "\n");
    return text_done(&t, len);
}

/* A viewer for the rubles queries: a seat, or STPETE_VIEW_PUBLIC. */
static int viewer_ok(const stpete_state *st, int viewer, int seat)
{
    return stpete_state_seat_ok(st, seat) && (viewer == STPETE_VIEW_PUBLIC || stpete_state_seat_ok(st, viewer));
}

/* The seat's rubles as the viewer's knowledge shows them now: 1 and *rubles, or 0 (hidden, §9). */
static int shown_rubles(const stpete_state *st, int viewer, int seat, int *rubles)
{
    stpete_knowledge kn;
    stpete_knowledge_of(&st->core, viewer, &kn);
    *rubles = kn.k.p[seat].rubles;
    return (int)(kn.rubles_shown >> seat & 1u);
}

STPETE_API int stpete_state_rubles_visible(const stpete_state *st, int viewer, int seat, int *visible)
{
    int rubles;
    if (!viewer_ok(st, viewer, seat) || !visible)
        return STPETE_E_INVALID_ARGUMENT;
    *visible = shown_rubles(st, viewer, seat, &rubles);
    return STPETE_OK;
}

STPETE_API int stpete_state_visible_rubles(const stpete_state *st, int viewer, int seat, int *rubles)
{
    int value;
    if (!viewer_ok(st, viewer, seat) || !rubles)
        return STPETE_E_INVALID_ARGUMENT;
    if (!shown_rubles(st, viewer, seat, &value))
        return STPETE_E_REDACTED;
    *rubles = value;
    return STPETE_OK;
}

STPETE_API int stpete_state_history(const stpete_state *st, int *ids, size_t capacity, size_t *count)
{
    if (!st || !count || (!ids && capacity))
        return STPETE_E_INVALID_ARGUMENT;
    *count = st->hist.n;
    if (st->hist.n > capacity)
        return STPETE_E_BUFFER_TOO_SMALL;
    if (st->hist.n) /* no buffer before the first apply */
        memcpy(ids, st->hist.ids, st->hist.n * sizeof *ids);
    return STPETE_OK;
}

STPETE_API int stpete_state_undo(stpete_state *st)
{
    if (!st)
        return STPETE_E_INVALID_ARGUMENT;
    int rc = stpete_state_check_not_in_callback(st);
    if (rc)
        return rc;
    if (st->hist.n == 0)
        return stpete_state_fail(st, STPETE_E_INVALID_ARGUMENT, "nothing to undo: the state is at the start of its "
                                                                 "history (stpete_state_history())");
    if (stpete_listeners_reserve(st, &st->game->opts.allocator))
        return stpete_state_fail(st, STPETE_E_OUT_OF_MEMORY, "out of memory: could not grow the event queue");
    int id = stpete_history_undo(&st->hist, &st->core);
    stpete_sink storage;
    const stpete_sink *sink = stpete_listeners_sink(st, &storage);
    /* the seat that had taken it is the one to act again (-1: a chance outcome) */
    STPETE_EMIT(sink, &st->core, STPETE_EVENT_UNDO, ev.amount = id,
                ev.seat = st->core.decision == STPETE_DECISION_CHANCE ? -1 : st->core.current);
    return stpete_state_step_done(st);
}
