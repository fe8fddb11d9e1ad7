/* White-box helpers for rule scenario tests: build an exact position by moving cards between places, keeping
 * the 116-card conservation invariant (§2). Tests link the internal static library (stpete_internal_dep). */
#ifndef STPETE_TEST_SCENARIO_H
#define STPETE_TEST_SCENARIO_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "api/api.h"
#include "test_values.h"

/* Places a card can be moved to. */
enum scn_place { SCN_UPPER, SCN_LOWER, SCN_DISPLAY, SCN_HAND, SCN_DISCARD, SCN_STACK_TOP };

typedef struct scn {
    stpete_game *game;
    stpete_state *st;
} scn;

/* A new game with the given players and seed, defaults otherwise; opts may be NULL. */
static inline scn scn_new_opts(const stpete_options *opts)
{
    scn s;
    assert_int_equal(stpete_game_new(opts, &s.game, NULL), STPETE_OK);
    assert_int_equal(stpete_state_new(s.game, &s.st, NULL), STPETE_OK);
    return s;
}

static inline scn scn_new(int players, uint64_t seed)
{
    stpete_options o;
    stpete_options_init(&o);
    o.players = players;
    o.seed = seed;
    return scn_new_opts(&o);
}

static inline void scn_free(scn *s)
{
    stpete_state_free(s->st);
    stpete_game_free(s->game);
}

static inline stpete_core *scn_core(scn *s)
{
    return &s->st->core;
}

/* Remove the first copy of card from a list of n card types; 1 if one was removed. */
static inline int scn_remove_from(uint8_t *list, uint8_t *n, int card)
{
    for (int i = 0; i < *n; i++)
        if (list[i] == card) {
            memmove(&list[i], &list[i + 1], (size_t)(*n - i - 1));
            list[--(*n)] = 0; /* bytes past a count stay 0, as in the engine */
            return 1;
        }
    return 0;
}

/* Remove one copy of card from wherever it is (stacks first, then board, discard, then displays and hands).
 * Fails the test if no copy is left anywhere. */
static inline void scn_take_from_anywhere(stpete_core *c, int card)
{
    for (int st = 0; st < 4; st++)
        if (scn_remove_from(c->stack[st], &c->stack_n[st], card))
            return;
    for (int r = 0; r < 2; r++)
        if (scn_remove_from(c->row[r], &c->row_n[r], card))
            return;
    if (c->discard[card]) {
        c->discard[card]--;
        return;
    }
    for (int p = 0; p < c->rules.players; p++) {
        if (c->p[p].display[card]) {
            c->p[p].display[card]--;
            return;
        }
        if (scn_remove_from(c->p[p].hand, &c->p[p].hand_n, card))
            return;
    }
    fail_msg("no copy of %s left to move", tg_card_name(STPETE_EDITION_FIRST, card));
}

/* Move one copy of card to a place (seat for DISPLAY/HAND, stack index for STACK_TOP). */
static inline void scn_put(scn *s, int card, int place, int seat_or_stack)
{
    stpete_core *c = scn_core(s);
    scn_take_from_anywhere(c, card);
    switch (place) {
    case SCN_UPPER:
    case SCN_LOWER: {
        int r = place == SCN_UPPER ? 0 : 1;
        assert_true(c->row_n[0] + c->row_n[1] < (c->rules.players == 5 ? BOARD_MAX : STPETE_BOARD_SIZE));
        c->row[r][c->row_n[r]++] = (uint8_t)card;
        break;
    }
    case SCN_DISPLAY:
        c->p[seat_or_stack].display[card]++;
        break;
    case SCN_HAND:
        assert_true(c->p[seat_or_stack].hand_n < STPETE_MAX_HAND);
        c->p[seat_or_stack].hand[c->p[seat_or_stack].hand_n++] = (uint8_t)card;
        break;
    case SCN_DISCARD:
        c->discard[card]++;
        break;
    case SCN_STACK_TOP:
        c->stack[seat_or_stack][c->stack_n[seat_or_stack]++] = (uint8_t)card;
        break;
    default:
        fail_msg("bad place");
    }
}

/* Empty both rows into the discard pile (to build a board from scratch). */
static inline void scn_clear_board(scn *s)
{
    stpete_core *c = scn_core(s);
    for (int r = 0; r < 2; r++) {
        for (int i = 0; i < c->row_n[r]; i++)
            c->discard[c->row[r][i]]++;
        c->row_n[r] = 0;
        memset(c->row[r], 0, sizeof c->row[r]); /* bytes past a count stay 0, as in the engine */
    }
}

/* Make it seat's ordinary turn in a phase, with no passes so far. */
static inline void scn_turn(scn *s, int phase, int seat)
{
    stpete_core *c = scn_core(s);
    c->phase = (uint8_t)phase;
    c->current = (uint8_t)seat;
    c->passes = 0;
    c->decision = STPETE_DECISION_TURN;
    c->obs_card = -1;
}

static inline void scn_set_rubles(scn *s, int seat, int rubles)
{
    scn_core(s)->p[seat].rubles = rubles;
}

/* Count every card in every place: must be 116 (§2 conservation), 144 with the New Society (§12.2.4). */
static inline int scn_card_total(const stpete_core *c)
{
    int n = c->row_n[0] + c->row_n[1] + (c->obs_card >= 0);
    for (int st = 0; st < 4; st++)
        n += c->stack_n[st];
    for (int t = 0; t < CARD_TYPES_ALL; t++) { /* 116 cards, 144 with the New Society (§12.2.4) */
        n += c->discard[t];
        for (int p = 0; p < c->rules.players; p++)
            n += c->p[p].display[t];
    }
    for (int p = 0; p < c->rules.players; p++)
        n += c->p[p].hand_n;
    return n;
}

/* Action id from its canonical string; fails the test if it does not parse. */
static inline int scn_id(const char *str)
{
    int id = -1;
    assert_int_equal(stpete_action_from_string(str, &id), STPETE_OK);
    return id;
}

/* Apply an action string and require success. */
static inline void scn_do(scn *s, const char *str)
{
    int rc = stpete_state_apply_string(s->st, str);
    if (rc != STPETE_OK)
        fail_msg("'%s' failed: %s", str, stpete_state_last_error(s->st));
}

static inline int scn_vp(scn *s, int seat)
{
    int vp = 0;
    assert_int_equal(stpete_state_vp(s->st, seat, &vp), STPETE_OK);
    return vp;
}

#endif /* STPETE_TEST_SCENARIO_H */
