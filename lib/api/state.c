/* The state handle: life cycle, the checked entry points of the API and the queries. The position itself is
 * plain data (stpete_core) that the engine (rules.c, legal*.c) works on; the state adds its game, its listeners
 * (listeners.c) and its last error message. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "api/api.h"

/* ---- state life cycle -------------------------------------------------------------------------- */

int stpete_state_fail(stpete_state *st, int status, const char *fmt, ...)
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

int stpete_state_succeed(stpete_state *st)
{
    st->errmsg[0] = '\0';
    return STPETE_OK;
}

int stpete_state_refuse_reentrant(stpete_state *st)
{
    return stpete_state_fail(st, STPETE_E_REENTRANT, "an event callback must not modify the state that called it");
}

static const stpete_allocator *allocator_of(const stpete_state *st)
{
    return &st->game->opts.allocator;
}

void stpete_state_release(stpete_state *st)
{
    stpete_listeners_set_queue(st, 0, allocator_of(st));
    stpete_history_free(&st->hist, allocator_of(st));
    stpete_facts_free(allocator_of(st), st);
}

int stpete_state_step_done(stpete_state *st)
{
    if (st->flags & STATE_FREE_REQUESTED) {
        stpete_state_release(st);
        return STPETE_OK;
    }
    return stpete_state_succeed(st);
}

/* A new state of game: no listener, no history, no error; its position is the caller's to write (every byte: a
 * setup or a copy). */
static stpete_state *state_alloc(const stpete_game *game)
{
    stpete_state *st = stpete_facts_malloc(&game->opts.allocator, sizeof *st);
    if (st) {
        memset(st, 0, offsetof(stpete_state, core));
        st->game = game;
        st->flags = 0;
        st->root_setup = 0;
        st->errmsg[0] = '\0';
    }
    return st;
}

STPETE_API int stpete_state_new_with_callback(const stpete_game *game, stpete_event_fn fn, void *user_data,
                                              stpete_state **out, stpete_error *err)
{
    if (out)
        *out = NULL;
    int rc = stpete_error_begin(err, out != NULL);
    if (rc)
        return rc;
    if (!game)
        return stpete_error_caller_fail(err, STPETE_E_INVALID_ARGUMENT, "game is NULL");
    stpete_state *st = state_alloc(game);
    if (!st)
        return stpete_error_caller_fail(err, STPETE_E_OUT_OF_MEMORY, "out of memory");
    st->hub.fn = fn;
    st->hub.user = user_data;
    st->flags = fn ? STATE_CALLBACK : 0;
    st->root_setup = 1;
    stpete_sink storage;
    stpete_rules_setup(&st->core, &game->rules, game->opts.seed, stpete_listeners_sink(st, &storage));
    if (!(st->flags & STATE_FREE_REQUESTED))
        *out = st;
    else /* the callback freed the state during the setup deal */
        stpete_state_release(st);
    return stpete_error_caller_fail(err, STPETE_OK, "");
}

STPETE_API int stpete_state_new(const stpete_game *game, stpete_state **out, stpete_error *err)
{
    return stpete_state_new_with_callback(game, NULL, NULL, out, err);
}

STPETE_API int stpete_state_reset(stpete_state *st, uint64_t seed)
{
    if (!st)
        return STPETE_E_INVALID_ARGUMENT;
    int rc = stpete_state_check_not_in_callback(st);
    if (rc)
        return rc;
    if (stpete_listeners_reserve(st, allocator_of(st)))
        return stpete_state_fail(st, STPETE_E_OUT_OF_MEMORY, "out of memory: could not grow the event queue");
    stpete_sink storage;
    st->hist.n = 0; /* the history begins again, at a setup */
    st->root_setup = 1;
    stpete_rules_setup(&st->core, &st->game->rules, seed, stpete_listeners_sink(st, &storage));
    return stpete_state_step_done(st);
}

STPETE_API void stpete_state_free(stpete_state *st)
{
    if (!st)
        return;
    if (st->flags & STATE_IN_CALLBACK) { /* from its own event callback: the call that reported the event frees it */
        st->flags |= STATE_FREE_REQUESTED;
        return;
    }
    stpete_state_release(st);
}

STPETE_API int stpete_state_clone(const stpete_state *src, stpete_state **out, stpete_error *err)
{
    if (out)
        *out = NULL;
    int rc = stpete_error_begin(err, out != NULL);
    if (rc)
        return rc;
    if (!src)
        return stpete_error_caller_fail(err, STPETE_E_INVALID_ARGUMENT, "src is NULL");
    stpete_state *st = state_alloc(src->game);
    if (!st)
        return stpete_error_caller_fail(err, STPETE_E_OUT_OF_MEMORY, "out of memory");
    if (stpete_history_copy(&st->hist, &src->hist, allocator_of(src))) {
        stpete_facts_free(allocator_of(src), st);
        return stpete_error_caller_fail(err, STPETE_E_OUT_OF_MEMORY, "out of memory: the history");
    }
    stpete_engine_copy(&st->core, &src->core);
    st->root_setup = src->root_setup;
    *out = st;
    return stpete_error_caller_fail(err, STPETE_OK, "");
}

STPETE_API int stpete_state_copy(stpete_state *dst, const stpete_state *src)
{
    if (!dst || !src)
        return STPETE_E_INVALID_ARGUMENT;
    int rc = stpete_state_check_not_in_callback(dst);
    if (rc)
        return rc;
    if (dst == src)
        return stpete_state_succeed(dst);
    if (!stpete_game_rules_same(&dst->core.rules, &src->core.rules))
        return stpete_state_fail(dst, STPETE_E_MISMATCH, "cannot copy a state of a game with other options");
    stpete_engine_copy(&dst->core, &src->core);
    dst->hist.n = 0; /* the position without its past: dst's history begins here (playouts never pay for it) */
    dst->root_setup = 0;
    return stpete_state_succeed(dst);
}

int stpete_state_take(stpete_state *dst, const stpete_state *src)
{
    int rc = stpete_state_check_not_in_callback(dst);
    if (rc)
        return rc;
    if (!stpete_game_rules_same(&dst->core.rules, &src->core.rules))
        return stpete_state_fail(dst, STPETE_E_MISMATCH, "cannot take a position of a game with other options");
    history h = { NULL, 0, 0 };
    if (stpete_history_copy(&h, &src->hist, allocator_of(dst)))
        return stpete_state_fail(dst, STPETE_E_OUT_OF_MEMORY, "out of memory: the history");
    stpete_history_free(&dst->hist, allocator_of(dst));
    dst->hist = h;
    stpete_engine_copy(&dst->core, &src->core);
    return stpete_state_succeed(dst);
}

STPETE_API int stpete_state_determinize(stpete_state *st, int seat, uint64_t seed, unsigned flags)
{
    if (!st)
        return STPETE_E_INVALID_ARGUMENT;
    int rc = stpete_state_check_not_in_callback(st);
    if (rc)
        return rc;
    if (seat < 0 || seat >= st->core.rules.players)
        return stpete_state_fail(st, STPETE_E_INVALID_ARGUMENT, "seat %d is outside [0, %d)", seat, st->core.rules.players);
    if (flags & ~STPETE_DETERMINIZE_RUBLES)
        return stpete_state_fail(st, STPETE_E_INVALID_ARGUMENT, "unknown determinization flags %#x", flags);
    stpete_knowledge_resample(&st->core, seat, seed, flags);
    st->hist.n = 0; /* the past of a determinization did not happen */
    st->root_setup = 0;
    return stpete_state_succeed(st);
}

STPETE_API int stpete_state_equal(const stpete_state *a, const stpete_state *b, int *equal)
{
    if (!a || !b || !equal)
        return STPETE_E_INVALID_ARGUMENT;
    *equal = memcmp(&a->core, &b->core, STPETE_POSITION_BYTES) == 0;
    return STPETE_OK;
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
    switch (st->core.decision) {
    case STPETE_DECISION_GAME_OVER:
        return STPETE_PLAYER_TERMINAL;
    case STPETE_DECISION_CHANCE:
        return STPETE_PLAYER_CHANCE;
    default:
        return st->core.current;
    }
}

STPETE_API int stpete_state_is_terminal(const stpete_state *st, int *terminal)
{
    if (!st || !terminal)
        return STPETE_E_INVALID_ARGUMENT;
    *terminal = st->core.decision == STPETE_DECISION_GAME_OVER;
    return STPETE_OK;
}

STPETE_API int stpete_state_decision(const stpete_state *st)
{
    return st ? st->core.decision : STPETE_E_INVALID_ARGUMENT;
}

STPETE_API int stpete_state_legal_actions(const stpete_state *st, int *ids, size_t capacity, size_t *count)
{
    if (!st || !count || (!ids && capacity))
        return STPETE_E_INVALID_ARGUMENT;
    /* the bound of the game: 160 without the New Society (§12 has more cards on offer) */
    if (capacity >= (st->core.rules.new_society ? STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY : STPETE_MAX_LEGAL_ACTIONS)) {
        *count = stpete_legal_list(&st->core, ids);
        return STPETE_OK;
    }
    int tmp[LEGAL_CAP];
    size_t n = stpete_legal_list(&st->core, tmp);
    *count = n;
    if (n > capacity)
        return STPETE_E_BUFFER_TOO_SMALL;
    if (n) /* ids may be NULL when capacity is 0, and memcpy(NULL, ..., 0) is undefined */
        memcpy(ids, tmp, n * sizeof *ids);
    return STPETE_OK;
}

STPETE_API int stpete_state_legal_action_mask(const stpete_state *st, uint8_t *mask, size_t capacity)
{
    if (!st || !mask)
        return STPETE_E_INVALID_ARGUMENT;
    int ns = st->core.rules.new_society;
    size_t distinct = ns ? STPETE_NUM_DISTINCT_ACTIONS_NEW_SOCIETY : STPETE_NUM_DISTINCT_ACTIONS;
    if (capacity < distinct)
        return STPETE_E_BUFFER_TOO_SMALL;
    /* The listing's ids as bytes. At a chance node (explicit-chance mode) the listing holds chance outcome ids, which
     * are no player actions (STPETE_CHANCE_CARD_FIRST..., STPETE_NS_CHANCE_CARD_FIRST...): the mask covers player
     * actions only and stays all zero there. */
    int tmp[LEGAL_CAP];
    size_t n = stpete_legal_list(&st->core, tmp);
    memset(mask, 0, distinct);
    for (size_t i = 0; i < n; i++)
        if (!stpete_actions_is_chance(tmp[i]))
            mask[tmp[i]] = 1;
    return STPETE_OK;
}

STPETE_API int stpete_state_random_action(const stpete_state *st, uint64_t random, int *id)
{
    if (!st || !id)
        return STPETE_E_INVALID_ARGUMENT;
    return stpete_legal_random(&st->core, random, id);
}

STPETE_API int stpete_state_is_legal(const stpete_state *st, int id, int *legal)
{
    if (!st || !legal)
        return STPETE_E_INVALID_ARGUMENT;
    stpete_move mv;
    *legal = id >= 0 && stpete_engine_id_in_game(&st->core.rules, id) &&
             stpete_legal_check(&st->core, id, &mv, NULL, 0) == STPETE_OK;
    return STPETE_OK;
}

STPETE_API int stpete_state_action_price(const stpete_state *st, int id, int *rubles)
{
    if (!st || !rubles || id < 0 || !stpete_actions_is_action(id, st->core.rules.new_society))
        return STPETE_E_INVALID_ARGUMENT;
    stpete_move mv;
    int rc = stpete_legal_check(&st->core, id, &mv, NULL, 0);
    if (rc)
        return rc;
    switch (mv.a.kind) {
    case STPETE_ACTION_BUY:
    case STPETE_ACTION_PLAY:
    case STPETE_ACTION_OBSERVATORY_BUY:
    case STPETE_ACTION_PRISON_BUY:
        *rubles = mv.price; /* §5, R5-R7, §12.5 */
        return STPETE_OK;
    case STPETE_ACTION_PUB:
        *rubles = stpete_price_pub(mv.a.amount); /* §7.2 */
        return STPETE_OK;
    default:
        if (mv.a.kind == STPETE_ACTION_TRADING_HOUSE && mv.a.amount) {
            *rubles = TRADING_HOUSE_RUBLES; /* §12.7.6, R25 */
            return STPETE_OK;
        }
        *rubles = 0;
        return STPETE_E_NO_PRICE;
    }
}

/* Apply a move filled by stpete_legal_check() or stpete_legal_pick() on st's position: the allocations of
 * the step first (a failure changes nothing), the history, the move with the listeners' sink, the end of the call
 * (stpete_state_step_done: st may be freed after it). *freed (never NULL here) is set once the state is released
 * (the callback asked for it), the only thing the caller may still learn about it. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline))
#endif
static inline int apply_move(stpete_state *st, const stpete_move *mv, int *freed)
{
    if (!st->flags) { /* nothing listens (a playout): no queue, no sink, no callback that could free the state */
        if (stpete_history_reserve(&st->hist, allocator_of(st)))
            return stpete_state_fail(st, STPETE_E_OUT_OF_MEMORY, "out of memory: could not grow the history");
        stpete_history_record(&st->hist, &st->core, mv->id);
        stpete_rules_apply_move(&st->core, mv, NULL);
        return stpete_state_succeed(st);
    }
    if (stpete_listeners_reserve(st, allocator_of(st)) || stpete_history_reserve(&st->hist, allocator_of(st)))
        return stpete_state_fail(st, STPETE_E_OUT_OF_MEMORY,
                                 "out of memory: could not grow the event queue or the history");
    stpete_history_record(&st->hist, &st->core, mv->id);
    stpete_sink storage;
    stpete_rules_apply_move(&st->core, mv, stpete_listeners_sink(st, &storage));
    *freed = (st->flags & STATE_FREE_REQUESTED) != 0;
    return stpete_state_step_done(st);
}

/* The room for the engine's reason when an id a caller gives is illegal (the longest the engine writes: 120 bytes). */
enum { REASON_SIZE = 160 };
_Static_assert(sizeof "action 2187 is not legal: " - 1 + REASON_SIZE <= STPETE_ERRMSG_SIZE,
               "the short form of refuse_illegal() holds every reason whole");

/* The refusal of an illegal id (§4.2 and the rule the engine's reason cites): "action %d (%s) is not legal: %s" with
 * its action string and the engine's reason, or, when that would not fit in the state's message
 * (STPETE_ERRMSG_SIZE), "action %d is not legal: %s": the reason always stays whole. */
static int refuse_illegal(stpete_state *st, int rc, int id, const char *why)
{
    char name[STPETE_ACTION_STRING_MAX];
    stpete_actions_to_string(stpete_engine_cards(&st->core.rules), id, name, sizeof name);
    if (snprintf(NULL, 0, "action %d (%s) is not legal: %s", id, name, why) < STPETE_ERRMSG_SIZE)
        return stpete_state_fail(st, rc, "action %d (%s) is not legal: %s", id, name, why);
    return stpete_state_fail(st, rc, "action %d is not legal: %s", id, why);
}

/* stpete_state_apply() and stpete_state_apply_tracked(): the id checked (every id a caller gives is), then applied. */
static int apply(stpete_state *st, int id, int *freed)
{
    *freed = 0;
    if (!st)
        return STPETE_E_INVALID_ARGUMENT;
    int rc = stpete_state_check_not_in_callback(st);
    if (rc)
        return rc;
    if (id < 0 || !stpete_engine_id_in_game(&st->core.rules, id))
        return stpete_state_fail(st, STPETE_E_INVALID_ARGUMENT,
                                 "action id %d is no action or chance outcome id of this game", id);
    char why[REASON_SIZE];
    stpete_move mv;
    rc = stpete_legal_check(&st->core, id, &mv, why, sizeof why);
    if (rc)
        return refuse_illegal(st, rc, id, why);
    return apply_move(st, &mv, freed);
}

STPETE_API int stpete_state_apply(stpete_state *st, int id)
{
    int freed;
    return apply(st, id, &freed);
}

STPETE_API int stpete_state_apply_tracked(stpete_state *st, int id, int *freed)
{
    if (!freed)
        return st ? stpete_state_fail(st, STPETE_E_INVALID_ARGUMENT, "stpete_state_apply_tracked: freed is NULL")
                  : STPETE_E_INVALID_ARGUMENT;
    return apply(st, id, freed);
}

/* The refusal of a stpete_state_apply_random() call before its pick, in the order of the checks: from the state's
 * callback, then a NULL id, then an unknown pick. Out of line: the playout step keeps one test of its arguments. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline, cold))
#endif
static int refuse_apply_random(stpete_state *st, int pick, const int *id)
{
    int rc = stpete_state_check_not_in_callback(st);
    if (rc)
        return rc;
    return stpete_state_fail(st, STPETE_E_INVALID_ARGUMENT, !id ? "id is NULL" : "pick %d is no stpete_pick", pick);
}

STPETE_API int stpete_state_apply_random(stpete_state *st, uint64_t random, int pick, int *id)
{
    if (!st)
        return STPETE_E_INVALID_ARGUMENT;
    if ((st->flags & STATE_IN_CALLBACK) || !id || (pick != STPETE_PICK_MODULO && pick != STPETE_PICK_SCALED))
        return refuse_apply_random(st, pick, id);
    int rc;
    stpete_move mv;
    if (stpete_legal_pick(&st->core, random, pick, &mv))
        return stpete_state_fail(st, STPETE_E_GAME_OVER, "the game is over (§4.6)");
    int freed;
    rc = apply_move(st, &mv, &freed);
    if (rc == STPETE_OK)
        *id = mv.id; /* st may be freed now (its callback asked for it): mv is the caller's copy */
    return rc;
}

STPETE_API int stpete_state_apply_string(stpete_state *st, const char *str)
{
    if (!st)
        return STPETE_E_INVALID_ARGUMENT;
    if (!str)
        return stpete_state_fail(st, STPETE_E_INVALID_ARGUMENT, "action string is NULL");
    int id;
    if (stpete_action_from_string(str, &id) != STPETE_OK)
        return stpete_state_fail(st, STPETE_E_PARSE, "\"%.100s\" is not an action", str);
    return stpete_state_apply(st, id);
}

/* ---- queries ----------------------------------------------------------------------------------- */

static int card_ok(const stpete_state *st, int card)
{
    return card >= 0 && card < stpete_engine_card_types(&st->core.rules);
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

STPETE_API int stpete_state_is_final_round(const stpete_state *st, int *final_round)
{
    if (!st || !final_round)
        return STPETE_E_INVALID_ARGUMENT;
    *final_round = st->core.final_round != 0;
    return STPETE_OK;
}

STPETE_API int stpete_state_consecutive_passes(const stpete_state *st)
{
    return st ? st->core.passes : STPETE_E_INVALID_ARGUMENT;
}

STPETE_API int stpete_state_row(const stpete_state *st, int row, int *cards, size_t capacity, size_t *count)
{
    if (!st || (row != STPETE_SOURCE_UPPER && row != STPETE_SOURCE_LOWER))
        return STPETE_E_INVALID_ARGUMENT;
    return list_out(st->core.row[row], st->core.row_n[row], cards, capacity, count);
}

STPETE_API int stpete_state_stack_size(const stpete_state *st, int stack)
{
    if (!st || stack < 0 || stack >= STPETE_NUM_STACKS)
        return STPETE_E_INVALID_ARGUMENT;
    return st->core.stack_n[stack];
}

STPETE_API int stpete_state_display_count(const stpete_state *st, int seat, int card)
{
    if (!stpete_state_seat_ok(st, seat) || !card_ok(st, card))
        return STPETE_E_INVALID_ARGUMENT;
    return st->core.p[seat].display[card];
}

STPETE_API int stpete_state_display(const stpete_state *st, int seat, int *cards, size_t capacity, size_t *count)
{
    if (!stpete_state_seat_ok(st, seat))
        return STPETE_E_INVALID_ARGUMENT;
    uint8_t list[STPETE_NUM_CARDS_NEW_SOCIETY];
    size_t n = 0;
    for (int t = 0; t < CARD_TYPES_ALL; t++)
        for (int k = 0; k < st->core.p[seat].display[t]; k++)
            list[n++] = (uint8_t)t;
    return list_out(list, n, cards, capacity, count);
}

STPETE_API int stpete_state_hand(const stpete_state *st, int seat, int *cards, size_t capacity, size_t *count)
{
    if (!stpete_state_seat_ok(st, seat))
        return STPETE_E_INVALID_ARGUMENT;
    return list_out(st->core.p[seat].hand, st->core.p[seat].hand_n, cards, capacity, count);
}

STPETE_API int stpete_state_hand_limit(const stpete_state *st, int seat)
{
    return stpete_state_seat_ok(st, seat) ? stpete_engine_hand_limit(&st->core.p[seat]) : STPETE_E_INVALID_ARGUMENT;
}

STPETE_API int stpete_state_rubles(const stpete_state *st, int seat)
{
    return stpete_state_seat_ok(st, seat) ? st->core.p[seat].rubles : STPETE_E_INVALID_ARGUMENT;
}

STPETE_API int stpete_state_vp(const stpete_state *st, int seat, int *vp)
{
    if (!stpete_state_seat_ok(st, seat) || !vp)
        return STPETE_E_INVALID_ARGUMENT;
    *vp = st->core.p[seat].vp;
    return STPETE_OK;
}

STPETE_API int stpete_state_observatories_used(const stpete_state *st, int seat)
{
    return stpete_state_seat_ok(st, seat) ? st->core.p[seat].obs_used : STPETE_E_INVALID_ARGUMENT;
}

STPETE_API int stpete_state_observatory_card(const stpete_state *st)
{
    if (!st)
        return STPETE_E_INVALID_ARGUMENT;
    return st->core.decision == STPETE_DECISION_PRISON ? STPETE_CARD_NONE : st->core.obs_card;
}

STPETE_API int stpete_state_is_prison_used(const stpete_state *st, int seat, int *used)
{
    if (!stpete_state_seat_ok(st, seat) || !used)
        return STPETE_E_INVALID_ARGUMENT;
    *used = st->core.p[seat].prison_used != 0;
    return STPETE_OK;
}

STPETE_API int stpete_state_prison_card(const stpete_state *st)
{
    if (!st)
        return STPETE_E_INVALID_ARGUMENT;
    return st->core.decision == STPETE_DECISION_PRISON ? st->core.obs_card : STPETE_CARD_NONE;
}

STPETE_API int stpete_state_gold_disc_holder(const stpete_state *st)
{
    if (!st)
        return STPETE_E_INVALID_ARGUMENT;
    if (st->core.chance == CHANCE_MARKERS) /* not dealt yet */
        return STPETE_NONE;
    return stpete_engine_gold_disc(st->core.markers, st->core.rules.players);
}

STPETE_API int stpete_state_marker_holder(const stpete_state *st, int phase)
{
    if (!st || phase < 0 || phase >= STPETE_NUM_PHASES)
        return STPETE_E_INVALID_ARGUMENT;
    return st->core.markers[phase];
}

STPETE_API int stpete_state_discard_count(const stpete_state *st, int card)
{
    if (!st || !card_ok(st, card))
        return STPETE_E_INVALID_ARGUMENT;
    return st->core.discard[card];
}

STPETE_API int stpete_state_price(const stpete_state *st, int seat, int card, int source, int displaced, int *price)
{
    if (!stpete_state_seat_ok(st, seat) || !card_ok(st, card) || !price || source < STPETE_SOURCE_UPPER ||
        source > STPETE_SOURCE_DISCARD)
        return STPETE_E_INVALID_ARGUMENT;
    int trading = stpete_cards_shared(card)->trading;
    if (trading && (!card_ok(st, displaced) || !(stpete_engine_cards(&st->core.rules)[card].targets >> displaced & 1u)))
        return STPETE_E_INVALID_ARGUMENT;
    *price = stpete_price(&st->core, seat, card, source, trading ? displaced : -1);
    return STPETE_OK;
}

STPETE_API int stpete_state_displacements(const stpete_state *st, int seat, int card, int source,
                                          stpete_displacement *out, size_t capacity, size_t *count)
{
    if (!stpete_state_seat_ok(st, seat) || !card_ok(st, card) || !stpete_cards_shared(card)->trading || !count ||
        (!out && capacity) || source < STPETE_SOURCE_UPPER || source > STPETE_SOURCE_DISCARD)
        return STPETE_E_INVALID_ARGUMENT;
    size_t n = 0;
    uint64_t targets = stpete_engine_cards(&st->core.rules)[card].targets; /* §6.2, §12.6 */
    for (int t = 0; t < stpete_engine_card_types(&st->core.rules); t++) {
        if (stpete_engine_displaceable(&st->core.p[seat], t) <= 0 || !(targets >> t & 1u))
            continue; /* not in the display (or only face-down Observatories, §7.1), or not a target (§6.2) */
        int price;
        stpete_state_price(st, seat, card, source, t, &price); /* cannot fail: every argument checked above */
        if (n < capacity)
            out[n] = (stpete_displacement){ t, price };
        n++;
    }
    *count = n;
    return n > capacity ? STPETE_E_BUFFER_TOO_SMALL : STPETE_OK;
}

STPETE_API int stpete_state_get_score(const stpete_state *st, int seat, stpete_score *out)
{
    if (!stpete_state_seat_ok(st, seat) || !out)
        return STPETE_E_INVALID_ARGUMENT;
    stpete_score full = STPETE_SCORE_INIT;
    stpete_scoring_score(&st->core, seat, &full);
    return stpete_struct_out(out, &full, STPETE_SCORE_SIZE_1_0, sizeof full);
}

STPETE_API int stpete_state_winners(const stpete_state *st, unsigned *mask)
{
    if (!st || !mask)
        return STPETE_E_INVALID_ARGUMENT;
    if (st->core.decision != STPETE_DECISION_GAME_OVER)
        return STPETE_E_NOT_TERMINAL;
    *mask = stpete_scoring_winners(&st->core);
    return STPETE_OK;
}

STPETE_API int stpete_state_set_event_callback(stpete_state *st, stpete_event_fn fn, void *user_data)
{
    if (!st)
        return STPETE_E_INVALID_ARGUMENT;
    int rc = stpete_state_check_not_in_callback(st);
    if (rc)
        return rc;
    st->hub.fn = fn;
    st->hub.user = user_data;
    st->flags = (uint8_t)(fn ? st->flags | STATE_CALLBACK : st->flags & ~STATE_CALLBACK);
    return stpete_state_succeed(st);
}

STPETE_API int stpete_state_set_event_queue(stpete_state *st, int enabled)
{
    if (!st)
        return STPETE_E_INVALID_ARGUMENT;
    int rc = stpete_state_check_not_in_callback(st);
    if (rc)
        return rc;
    if (enabled != 0 && enabled != 1)
        return stpete_state_fail(st, STPETE_E_INVALID_ARGUMENT, "enabled must be 0 or 1, not %d", enabled);
    stpete_listeners_set_queue(st, enabled, allocator_of(st));
    return stpete_state_succeed(st);
}

STPETE_API int stpete_state_next_event(stpete_state *st, stpete_event *out)
{
    if (!st || !out)
        return STPETE_E_INVALID_ARGUMENT;
    int rc = stpete_state_check_not_in_callback(st);
    if (rc)
        return rc;
    if (!stpete_struct_size_ok(out->struct_size, STPETE_EVENT_SIZE_1_0, sizeof *out))
        return stpete_state_fail(st, STPETE_E_UNSUPPORTED_VERSION, "event struct_size %zu is not one of this library (%zu to %zu)",
                    out->struct_size, STPETE_EVENT_SIZE_1_0, sizeof *out);
    stpete_event ev = STPETE_EVENT_INIT;
    rc = stpete_listeners_next(&st->hub, &ev);
    if (rc == 1)
        stpete_struct_out(out, &ev, STPETE_EVENT_SIZE_1_0, sizeof ev);
    stpete_state_succeed(st);
    return rc;
}

STPETE_API int stpete_state_pending_events(const stpete_state *st)
{
    if (!st)
        return STPETE_E_INVALID_ARGUMENT;
    return stpete_listeners_pending(&st->hub);
}

/* ---- library ----------------------------------------------------------------------------------- */

STPETE_API const char *stpete_version(void)
{
    return STPETE_VERSION_STRING;
}

STPETE_API int stpete_version_number(void)
{
    return STPETE_VERSION_NUMBER;
}
