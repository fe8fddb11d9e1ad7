/* Handles (game, state), options, queries and the checked entry points of the API. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stpete_internal.h"

/* ---- allocation -------------------------------------------------------------------------------- */

static void *alloc_with(const stpete_allocator *al, size_t size)
{
    return al->malloc_fn ? al->malloc_fn(al->user, size) : malloc(size);
}

static void *realloc_with(const stpete_allocator *al, void *ptr, size_t size)
{
    return al->realloc_fn ? al->realloc_fn(al->user, ptr, size) : realloc(ptr, size);
}

static void free_with(const stpete_allocator *al, void *ptr)
{
    if (!ptr)
        return;
    if (al->free_fn)
        al->free_fn(al->user, ptr);
    else
        free(ptr);
}

/* ---- options and games ------------------------------------------------------------------------- */

STPETE_API void stpete_options_init(stpete_options *opts)
{
    if (!opts)
        return;
    stpete_options def = STPETE_OPTIONS_INIT;
    *opts = def;
}

/* Validate the §3.3 [option] explicit marker assignment: all -1, or seats with each seat holding 1 or 2. */
static int markers_valid(const int markers[4], int players)
{
    int unset = 0, held[STPETE_MAX_PLAYERS] = { 0 };
    for (int k = 0; k < 4; k++) {
        if (markers[k] == -1) {
            unset++;
            continue;
        }
        if (markers[k] < 0 || markers[k] >= players)
            return 0;
        held[markers[k]]++;
    }
    if (unset == 4)
        return 1;
    if (unset)
        return 0;
    for (int s = 0; s < players; s++)
        if (held[s] < 1 || held[s] > 2)
            return 0;
    return 1;
}

STPETE_API int stpete_game_new(stpete_game **out, const stpete_options *opts)
{
    if (!out)
        return STPETE_E_INVALID_ARGUMENT;
    *out = NULL;
    stpete_options o;
    stpete_options_init(&o);
    if (opts) {
        if (opts->struct_size == 0 || opts->struct_size > sizeof o)
            return STPETE_E_UNSUPPORTED_VERSION;
        memcpy(&o, opts, opts->struct_size); /* fields the caller does not know keep their defaults */
        o.struct_size = sizeof o;
    }
    const stpete_allocator *al = &o.allocator;
    int custom = (al->malloc_fn != NULL) + (al->realloc_fn != NULL) + (al->free_fn != NULL);
    if (o.players < STPETE_MIN_PLAYERS || o.players > STPETE_MAX_PLAYERS ||
        (o.pub_cap != STPETE_PUB_CAP_PER_PUB && o.pub_cap != STPETE_PUB_CAP_PER_PLAYER) ||
        (o.tie_break != STPETE_TIE_BREAK_RUBLES_MOD_10 && o.tie_break != STPETE_TIE_BREAK_RUBLES_TOTAL) ||
        !markers_valid(o.start_markers, o.players) || (custom != 0 && custom != 3) ||
        (o.public_rubles != 0 && o.public_rubles != 1) || (o.public_hands != 0 && o.public_hands != 1))
        return STPETE_E_INVALID_ARGUMENT;
    stpete_game *g = alloc_with(al, sizeof *g);
    if (!g)
        return STPETE_E_OUT_OF_MEMORY;
    memset(g, 0, sizeof *g);
    g->opts = o;
    g->rules.players = (uint8_t)o.players;
    g->rules.pub_cap = (uint8_t)o.pub_cap;
    g->rules.tie_break = (uint8_t)o.tie_break;
    g->rules.public_rubles = (uint8_t)o.public_rubles;
    g->rules.public_hands = (uint8_t)o.public_hands;
    for (int k = 0; k < 4; k++)
        g->rules.start_markers[k] = (int8_t)o.start_markers[k];
    *out = g;
    return STPETE_OK;
}

STPETE_API void stpete_game_free(stpete_game *game)
{
    if (game) {
        stpete_allocator al = game->opts.allocator;
        free_with(&al, game);
    }
}

STPETE_API int stpete_game_get_options(const stpete_game *game, stpete_options *out)
{
    if (!game || !out)
        return STPETE_E_INVALID_ARGUMENT;
    size_t size = out->struct_size;
    if (size == 0 || size > sizeof *out)
        return STPETE_E_UNSUPPORTED_VERSION;
    memcpy(out, &game->opts, size); /* never more than the caller's struct */
    out->struct_size = size;
    return STPETE_OK;
}

STPETE_API int stpete_game_num_players(const stpete_game *game)
{
    return game ? game->rules.players : STPETE_E_INVALID_ARGUMENT;
}

STPETE_API int stpete_num_distinct_actions(void)
{
    return STPETE_NUM_DISTINCT_ACTIONS;
}

/* ---- state life cycle -------------------------------------------------------------------------- */

static int fail(stpete_state *st, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(st->errmsg, sizeof st->errmsg, fmt, ap);
    va_end(ap);
    if (len >= (int)sizeof st->errmsg) { /* truncated: never leave half a UTF-8 sequence (bindings decode it) */
        size_t end = sizeof st->errmsg - 1;
        while (end > 0 && ((unsigned char)st->errmsg[end - 1] & 0xC0) == 0x80)
            end--;
        if (end > 0 && ((unsigned char)st->errmsg[end - 1] & 0xC0) == 0xC0)
            end--;
        st->errmsg[end] = '\0';
    }
    return status;
}

static int succeed(stpete_state *st)
{
    st->errmsg[0] = '\0';
    return STPETE_OK;
}

static int check_not_in_callback(stpete_state *st)
{
    if (st->in_callback)
        return fail(st, STPETE_E_REENTRANT, "an event callback must not modify the state that called it");
    return STPETE_OK;
}

/* ---- event queue ------------------------------------------------------------------------------- */

/* Make room for the events of one step (EVENTS_PER_STEP_MAX) before the step starts: a step never allocates,
 * and a failure leaves the state unchanged. 0 on success. */
static int queue_reserve(stpete_state *st)
{
    event_queue *q = &st->queue;
    if (!q->on || q->cap - q->len >= EVENTS_PER_STEP_MAX)
        return 0;
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
    stpete_event *ev = realloc_with(&st->game->opts.allocator, q->events, (size_t)cap * sizeof *ev);
    if (!ev)
        return -1;
    q->events = ev;
    q->cap = cap;
    return 0;
}

void stpete_queue_push(stpete_state *st, const stpete_event *ev)
{
    event_queue *q = &st->queue;
    if (q->len < q->cap) /* always true: queue_reserve() ran before the step */
        q->events[q->len++] = *ev;
}

STPETE_API int stpete_state_set_event_queue(stpete_state *st, int enabled)
{
    if (!st)
        return STPETE_E_INVALID_ARGUMENT;
    int rc = check_not_in_callback(st);
    if (rc)
        return rc;
    if (enabled != 0 && enabled != 1)
        return fail(st, STPETE_E_INVALID_ARGUMENT, "enabled must be 0 or 1, not %d", enabled);
    if (!enabled) {
        free_with(&st->game->opts.allocator, st->queue.events);
        memset(&st->queue, 0, sizeof st->queue);
    }
    st->queue.on = (uint8_t)enabled;
    return succeed(st);
}

STPETE_API int stpete_state_next_event(stpete_state *st, stpete_event *out)
{
    if (!st || !out)
        return STPETE_E_INVALID_ARGUMENT;
    int rc = check_not_in_callback(st);
    if (rc)
        return rc;
    event_queue *q = &st->queue;
    if (q->head == q->len)
        return 0;
    *out = q->events[q->head++];
    if (q->head == q->len)
        q->head = q->len = 0;
    return 1;
}

STPETE_API int stpete_state_pending_events(const stpete_state *st)
{
    if (!st)
        return STPETE_E_INVALID_ARGUMENT;
    return (int)(st->queue.len - st->queue.head);
}

static stpete_state *state_alloc(const stpete_game *game)
{
    stpete_state *st = alloc_with(&game->opts.allocator, sizeof *st);
    if (st) {
        memset(st, 0, sizeof *st);
        st->game = game;
    }
    return st;
}

STPETE_API int stpete_state_new(stpete_state **out, const stpete_game *game)
{
    if (!out)
        return STPETE_E_INVALID_ARGUMENT;
    *out = NULL;
    if (!game)
        return STPETE_E_INVALID_ARGUMENT;
    stpete_state *st = state_alloc(game);
    if (!st)
        return STPETE_E_OUT_OF_MEMORY;
    stpete_core_setup(st, game->opts.seed);
    *out = st;
    return STPETE_OK;
}

STPETE_API int stpete_state_reset(stpete_state *st, uint64_t seed)
{
    if (!st)
        return STPETE_E_INVALID_ARGUMENT;
    int rc = check_not_in_callback(st);
    if (rc)
        return rc;
    if (queue_reserve(st))
        return fail(st, STPETE_E_OUT_OF_MEMORY, "could not grow the event queue");
    stpete_core_setup(st, seed);
    return succeed(st);
}

STPETE_API void stpete_state_free(stpete_state *st)
{
    if (st) {
        free_with(&st->game->opts.allocator, st->queue.events);
        free_with(&st->game->opts.allocator, st);
    }
}

STPETE_API int stpete_state_clone(stpete_state **out, const stpete_state *src)
{
    if (!out)
        return STPETE_E_INVALID_ARGUMENT;
    *out = NULL;
    if (!src)
        return STPETE_E_INVALID_ARGUMENT;
    stpete_state *st = state_alloc(src->game);
    if (!st)
        return STPETE_E_OUT_OF_MEMORY;
    memcpy(&st->core, &src->core, sizeof st->core);
    *out = st;
    return STPETE_OK;
}

STPETE_API int stpete_state_copy(stpete_state *dst, const stpete_state *src)
{
    if (!dst || !src)
        return STPETE_E_INVALID_ARGUMENT;
    int rc = check_not_in_callback(dst);
    if (rc)
        return rc;
    if (dst == src)
        return succeed(dst);
    if (memcmp(&dst->core.rules, &src->core.rules, sizeof dst->core.rules) != 0)
        return fail(dst, STPETE_E_MISMATCH, "cannot copy a state of a game with other options");
    memcpy(&dst->core, &src->core, sizeof dst->core);
    return succeed(dst);
}

STPETE_API int stpete_state_resample(stpete_state *st, int seat, uint64_t seed)
{
    if (!st)
        return STPETE_E_INVALID_ARGUMENT;
    int rc = check_not_in_callback(st);
    if (rc)
        return rc;
    if (seat < 0 || seat >= st->core.rules.players)
        return fail(st, STPETE_E_INVALID_ARGUMENT, "seat %d is outside [0, %d)", seat, st->core.rules.players);
    stpete_core_resample(&st->core, seat, seed);
    return succeed(st);
}

STPETE_API int stpete_state_equal(const stpete_state *a, const stpete_state *b)
{
    if (!a || !b)
        return STPETE_E_INVALID_ARGUMENT;
    return memcmp(&a->core, &b->core, sizeof a->core) == 0;
}

STPETE_API const stpete_game *stpete_state_game(const stpete_state *st)
{
    return st ? st->game : NULL;
}

STPETE_API const char *stpete_state_last_error(const stpete_state *st)
{
    return st ? st->errmsg : "";
}

/* ---- legal actions and apply ------------------------------------------------------------------- */

STPETE_API int stpete_state_current_player(const stpete_state *st)
{
    if (!st)
        return STPETE_E_INVALID_ARGUMENT;
    return st->core.decision == STPETE_DECISION_NONE ? STPETE_PLAYER_TERMINAL : st->core.current;
}

STPETE_API int stpete_state_is_terminal(const stpete_state *st)
{
    return st ? st->core.decision == STPETE_DECISION_NONE : STPETE_E_INVALID_ARGUMENT;
}

STPETE_API int stpete_state_decision(const stpete_state *st)
{
    return st ? st->core.decision : STPETE_E_INVALID_ARGUMENT;
}

STPETE_API int stpete_state_legal_actions(const stpete_state *st, int *ids, size_t cap, size_t *count)
{
    if (!st || !count || (!ids && cap))
        return STPETE_E_INVALID_ARGUMENT;
    if (cap >= STPETE_MAX_LEGAL_ACTIONS) {
        *count = stpete_core_legal(&st->core, ids);
        return STPETE_OK;
    }
    int tmp[STPETE_MAX_LEGAL_ACTIONS];
    size_t n = stpete_core_legal(&st->core, tmp);
    *count = n;
    if (n > cap)
        return STPETE_E_BUFFER_TOO_SMALL;
    if (n) /* ids may be NULL when cap is 0, and memcpy(NULL, ..., 0) is undefined */
        memcpy(ids, tmp, n * sizeof *ids);
    return STPETE_OK;
}

STPETE_API int stpete_state_legal_action_mask(const stpete_state *st, uint8_t *mask, size_t size)
{
    if (!st || !mask)
        return STPETE_E_INVALID_ARGUMENT;
    if (size < STPETE_NUM_DISTINCT_ACTIONS)
        return STPETE_E_BUFFER_TOO_SMALL;
    int tmp[STPETE_MAX_LEGAL_ACTIONS];
    size_t n = stpete_core_legal(&st->core, tmp);
    memset(mask, 0, STPETE_NUM_DISTINCT_ACTIONS);
    for (size_t i = 0; i < n; i++)
        mask[tmp[i]] = 1;
    return STPETE_OK;
}

STPETE_API int stpete_state_is_legal(const stpete_state *st, int id)
{
    if (!st)
        return STPETE_E_INVALID_ARGUMENT;
    if (id < 0 || id >= STPETE_NUM_DISTINCT_ACTIONS)
        return 0;
    return stpete_core_check(&st->core, id, NULL, 0) == STPETE_OK;
}

STPETE_API int stpete_state_apply(stpete_state *st, int id)
{
    if (!st)
        return STPETE_E_INVALID_ARGUMENT;
    int rc = check_not_in_callback(st);
    if (rc)
        return rc;
    if (id < 0 || id >= STPETE_NUM_DISTINCT_ACTIONS)
        return fail(st, STPETE_E_INVALID_ARGUMENT, "action id %d is outside [0, %d)", id,
                    STPETE_NUM_DISTINCT_ACTIONS);
    char why[160];
    stpete_move mv;
    rc = stpete_core_check_move(&st->core, id, &mv, why, sizeof why);
    if (rc) {
        char name[STPETE_ACTION_STRING_MAX];
        stpete_action_to_string(id, name, sizeof name);
        return fail(st, rc, "action %d (%s) is not legal: %s", id, name, why);
    }
    if (queue_reserve(st))
        return fail(st, STPETE_E_OUT_OF_MEMORY, "could not grow the event queue");
    stpete_core_apply_move(st, &mv);
    return succeed(st);
}

STPETE_API int stpete_state_apply_string(stpete_state *st, const char *str)
{
    if (!st)
        return STPETE_E_INVALID_ARGUMENT;
    if (!str)
        return fail(st, STPETE_E_INVALID_ARGUMENT, "action string is NULL");
    int id;
    if (stpete_action_from_string(str, &id) != STPETE_OK)
        return fail(st, STPETE_E_PARSE, "\"%.100s\" is not an action", str);
    return stpete_state_apply(st, id);
}

/* ---- queries ----------------------------------------------------------------------------------- */

static int seat_ok(const stpete_state *st, int seat)
{
    return st && seat >= 0 && seat < st->core.rules.players;
}

static int card_ok(int card)
{
    return card >= 0 && card < STPETE_NUM_CARD_TYPES;
}

/* Copy n card types from a byte list into a caller int buffer. */
static int list_out(const uint8_t *list, size_t n, int *cards, size_t cap, size_t *count)
{
    if (!count || (!cards && cap))
        return STPETE_E_INVALID_ARGUMENT;
    *count = n;
    if (n > cap)
        return STPETE_E_BUFFER_TOO_SMALL;
    for (size_t i = 0; i < n; i++)
        cards[i] = list[i];
    return STPETE_OK;
}

STPETE_API int stpete_state_phase(const stpete_state *st)
{
    return st ? st->core.phase : STPETE_E_INVALID_ARGUMENT;
}

STPETE_API int stpete_state_round(const stpete_state *st)
{
    return st ? st->core.round : STPETE_E_INVALID_ARGUMENT;
}

STPETE_API int stpete_state_is_final_round(const stpete_state *st)
{
    return st ? st->core.final_round : STPETE_E_INVALID_ARGUMENT;
}

STPETE_API int stpete_state_consecutive_passes(const stpete_state *st)
{
    return st ? st->core.passes : STPETE_E_INVALID_ARGUMENT;
}

STPETE_API int stpete_state_row(const stpete_state *st, int row, int *cards, size_t cap, size_t *count)
{
    if (!st || (row != STPETE_SOURCE_UPPER && row != STPETE_SOURCE_LOWER))
        return STPETE_E_INVALID_ARGUMENT;
    return list_out(st->core.row[row], st->core.row_n[row], cards, cap, count);
}

STPETE_API int stpete_state_stack_size(const stpete_state *st, int stack)
{
    if (!st || stack < 0 || stack > 3)
        return STPETE_E_INVALID_ARGUMENT;
    return st->core.stack_n[stack];
}

STPETE_API int stpete_state_display_count(const stpete_state *st, int seat, int card)
{
    if (!seat_ok(st, seat) || !card_ok(card))
        return STPETE_E_INVALID_ARGUMENT;
    return st->core.p[seat].display[card];
}

STPETE_API int stpete_state_display(const stpete_state *st, int seat, int *cards, size_t cap, size_t *count)
{
    if (!seat_ok(st, seat))
        return STPETE_E_INVALID_ARGUMENT;
    uint8_t list[STPETE_NUM_CARDS];
    size_t n = 0;
    for (int t = 0; t < STPETE_NUM_CARD_TYPES; t++)
        for (int k = 0; k < st->core.p[seat].display[t]; k++)
            list[n++] = (uint8_t)t;
    return list_out(list, n, cards, cap, count);
}

STPETE_API int stpete_state_hand(const stpete_state *st, int seat, int *cards, size_t cap, size_t *count)
{
    if (!seat_ok(st, seat))
        return STPETE_E_INVALID_ARGUMENT;
    return list_out(st->core.p[seat].hand, st->core.p[seat].hand_n, cards, cap, count);
}

STPETE_API int stpete_state_hand_limit(const stpete_state *st, int seat)
{
    return seat_ok(st, seat) ? stpete_hand_limit(&st->core, seat) : STPETE_E_INVALID_ARGUMENT;
}

STPETE_API int stpete_state_rubles(const stpete_state *st, int seat)
{
    return seat_ok(st, seat) ? st->core.p[seat].rubles : STPETE_E_INVALID_ARGUMENT;
}

STPETE_API int stpete_state_vp(const stpete_state *st, int seat, int *vp)
{
    if (!seat_ok(st, seat) || !vp)
        return STPETE_E_INVALID_ARGUMENT;
    *vp = st->core.p[seat].vp;
    return STPETE_OK;
}

STPETE_API int stpete_state_observatories_used(const stpete_state *st, int seat)
{
    return seat_ok(st, seat) ? st->core.p[seat].obs_used : STPETE_E_INVALID_ARGUMENT;
}

STPETE_API int stpete_state_observatory_card(const stpete_state *st)
{
    return st ? st->core.obs_card : STPETE_E_INVALID_ARGUMENT;
}

STPETE_API int stpete_state_marker_holder(const stpete_state *st, int phase)
{
    if (!st || phase < 0 || phase > 3)
        return STPETE_E_INVALID_ARGUMENT;
    return st->core.markers[phase];
}

STPETE_API int stpete_state_discard_count(const stpete_state *st, int card)
{
    if (!st || !card_ok(card))
        return STPETE_E_INVALID_ARGUMENT;
    return st->core.discard[card];
}

STPETE_API int stpete_state_price(const stpete_state *st, int seat, int card, int source, int displaced, int *price)
{
    if (!seat_ok(st, seat) || !card_ok(card) || !price || source < STPETE_SOURCE_UPPER ||
        source > STPETE_SOURCE_OBSERVATORY)
        return STPETE_E_INVALID_ARGUMENT;
    if (stpete_cards[card].trading && stpete_variant_of(card, displaced) < 0)
        return STPETE_E_INVALID_ARGUMENT;
    *price = stpete_price(&st->core, seat, card, source, stpete_cards[card].trading ? displaced : -1);
    return STPETE_OK;
}

STPETE_API int stpete_state_score(const stpete_state *st, int seat, stpete_score *out)
{
    if (!seat_ok(st, seat) || !out)
        return STPETE_E_INVALID_ARGUMENT;
    stpete_score_of(&st->core, seat, out);
    return STPETE_OK;
}

STPETE_API int stpete_state_winners(const stpete_state *st, unsigned *mask)
{
    if (!st || !mask)
        return STPETE_E_INVALID_ARGUMENT;
    if (st->core.decision != STPETE_DECISION_NONE)
        return STPETE_E_NOT_TERMINAL;
    *mask = stpete_winners_of(&st->core);
    return STPETE_OK;
}

STPETE_API int stpete_state_set_event_callback(stpete_state *st, stpete_event_fn fn, void *user_data)
{
    if (!st)
        return STPETE_E_INVALID_ARGUMENT;
    int rc = check_not_in_callback(st);
    if (rc)
        return rc;
    st->event_fn = fn;
    st->event_user = user_data;
    return succeed(st);
}

/* ---- library ----------------------------------------------------------------------------------- */

STPETE_API const char *stpete_strerror(int status)
{
    switch (status) {
    case STPETE_OK: return "success";
    case STPETE_E_INVALID_ARGUMENT: return "invalid argument";
    case STPETE_E_ILLEGAL_ACTION: return "illegal action";
    case STPETE_E_BUFFER_TOO_SMALL: return "buffer too small";
    case STPETE_E_OUT_OF_MEMORY: return "out of memory";
    case STPETE_E_GAME_OVER: return "game over";
    case STPETE_E_NOT_TERMINAL: return "game not over";
    case STPETE_E_PARSE: return "parse error";
    case STPETE_E_UNSUPPORTED_VERSION: return "unsupported version";
    case STPETE_E_MISMATCH: return "states of different games";
    case STPETE_E_REENTRANT: return "re-entrant call from an event callback";
    case STPETE_E_REDACTED: return "a redacted view is not a playable state";
    case STPETE_E_INCONSISTENT: return "data inconsistent with the rules";
    default: return "unknown status";
    }
}

STPETE_API const char *stpete_version(void)
{
    return STPETE_VERSION_STRING;
}

STPETE_API int stpete_version_number(void)
{
    return STPETE_VERSION_NUMBER;
}
