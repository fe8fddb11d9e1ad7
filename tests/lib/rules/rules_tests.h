/* The shared helpers of the rule scenario programs 'rules' (tests/lib/rules/, one file per rule section, main.c runs
 * them) and 'ns-rules' (s12_new_society.c): a fresh position, the conservation check, the board's and purses'
 * counts, legality asked both ways (the listing and the check agree), passes. Positions are built with scenario.h
 * (the internal static library). */
#ifndef STPETE_RULES_TESTS_H
#define STPETE_RULES_TESTS_H

#include <stdio.h>

#include "scenario.h"
#include "test_groups.h"

#define C(x) STPETE_CARD_##x
#define WORKER STPETE_PHASE_WORKER
#define BUILDING STPETE_PHASE_BUILDING
#define ARISTOCRAT STPETE_PHASE_ARISTOCRAT
#define TRADING STPETE_PHASE_TRADING
#define UPPER STPETE_SOURCE_UPPER
#define LOWER STPETE_SOURCE_LOWER
#define HAND STPETE_SOURCE_HAND
#define OBS STPETE_SOURCE_OBSERVATORY

/* A game with an empty board (the initial workers go to the discard pile), markers held by seat k % players
 * (4 players: worker 0, building 1, aristocrat 2, trading 3) and seat 0 to act in the worker phase. */
static inline scn fresh_opts(stpete_options *o)
{
    if (o->seed == 0)
        o->seed = 7;
    scn s = scn_new_opts(o);
    stpete_core *c = scn_core(&s);
    scn_clear_board(&s);
    for (int k = 0; k < 4; k++)
        c->markers[k] = (uint8_t)(k % o->players);
    scn_turn(&s, WORKER, 0);
    return s;
}

static inline scn fresh(int players)
{
    stpete_options o;
    stpete_options_init(&o);
    o.players = players;
    return fresh_opts(&o);
}

/* Conservation (§2) and cleanup. */
static inline void done(scn *s)
{
    assert_int_equal(scn_card_total(scn_core(s)), STPETE_NUM_CARDS);
    scn_free(s);
}

/* Keep only the top `keep` cards of a stack; the others go to the discard pile (conserving the 116 cards). */
static inline void trim_stack(scn *s, int stack, int keep)
{
    stpete_core *c = scn_core(s);
    int n = c->stack_n[stack];
    assert_true(keep <= n);
    int drop = n - keep;
    for (int i = 0; i < drop; i++)
        c->discard[c->stack[stack][i]]++;
    memmove(c->stack[stack], c->stack[stack] + drop, (size_t)keep);
    c->stack_n[stack] = (uint8_t)keep;
}

static inline void set_markers(scn *s, int w, int b, int a, int t)
{
    stpete_core *c = scn_core(s);
    c->markers[0] = (uint8_t)w;
    c->markers[1] = (uint8_t)b;
    c->markers[2] = (uint8_t)a;
    c->markers[3] = (uint8_t)t;
}

static inline int rub(scn *s, int seat)
{
    return stpete_state_rubles(s->st, seat);
}

static inline int disp(scn *s, int seat, int card)
{
    return stpete_state_display_count(s->st, seat, card);
}

static inline int disp_size(scn *s, int seat)
{
    int cards[STPETE_NUM_CARDS];
    size_t n = 0;
    assert_int_equal(stpete_state_display(s->st, seat, cards, STPETE_NUM_CARDS, &n), STPETE_OK);
    return (int)n;
}

static inline int discards(scn *s, int card)
{
    return stpete_state_discard_count(s->st, card);
}

static inline int stack_size(scn *s, int stack)
{
    return stpete_state_stack_size(s->st, stack);
}

static inline int row_size(scn *s, int row)
{
    int cards[STPETE_BOARD_SIZE];
    size_t n = 0;
    assert_int_equal(stpete_state_row(s->st, row, cards, STPETE_BOARD_SIZE, &n), STPETE_OK);
    return (int)n;
}

static inline int row_count(scn *s, int row, int card)
{
    int cards[STPETE_BOARD_SIZE];
    size_t n = 0;
    assert_int_equal(stpete_state_row(s->st, row, cards, STPETE_BOARD_SIZE, &n), STPETE_OK);
    int k = 0;
    for (size_t i = 0; i < n; i++)
        k += cards[i] == card;
    return k;
}

/* The row holds exactly these cards in this (deal) order. */
static inline void expect_row(scn *s, int row, const int *want, size_t want_n)
{
    int cards[STPETE_BOARD_SIZE];
    size_t n = 0;
    assert_int_equal(stpete_state_row(s->st, row, cards, STPETE_BOARD_SIZE, &n), STPETE_OK);
    assert_int_equal(n, want_n);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(cards[i], want[i]);
}

static inline int hand_size(scn *s, int seat)
{
    int cards[STPETE_MAX_HAND];
    size_t n = 0;
    assert_int_equal(stpete_state_hand(s->st, seat, cards, STPETE_MAX_HAND, &n), STPETE_OK);
    return (int)n;
}

static inline int hand_count(scn *s, int seat, int card)
{
    int cards[STPETE_MAX_HAND];
    size_t n = 0;
    assert_int_equal(stpete_state_hand(s->st, seat, cards, STPETE_MAX_HAND, &n), STPETE_OK);
    int k = 0;
    for (size_t i = 0; i < n; i++)
        k += cards[i] == card;
    return k;
}

static inline int price(scn *s, int seat, int card, int source, int displaced)
{
    int p = -1;
    assert_int_equal(stpete_state_price(s->st, seat, card, source, displaced, &p), STPETE_OK);
    return p;
}

/* Legal now: by the check (is_legal) and in the list of legal actions, consistently. */
static inline int legal(scn *s, const char *str)
{
    int id = scn_id(str);
    int ids[STPETE_MAX_LEGAL_ACTIONS];
    size_t n = 0;
    assert_int_equal(stpete_state_legal_actions(s->st, ids, STPETE_MAX_LEGAL_ACTIONS, &n), STPETE_OK);
    int listed = 0;
    for (size_t i = 0; i < n; i++)
        listed |= ids[i] == id;
    int checked = tg_is_legal(s->st, id);
    assert_int_equal(listed, checked);
    return checked;
}

/* Number of legal actions of a kind (and card type, if card >= 0). */
static inline int legal_kind(scn *s, int kind, int card)
{
    int ids[STPETE_MAX_LEGAL_ACTIONS];
    size_t n = 0;
    assert_int_equal(stpete_state_legal_actions(s->st, ids, STPETE_MAX_LEGAL_ACTIONS, &n), STPETE_OK);
    int k = 0;
    for (size_t i = 0; i < n; i++) {
        stpete_action a;
        assert_int_equal(stpete_action_decode(ids[i], &a), STPETE_OK);
        k += a.kind == kind && (card < 0 || a.card == card);
    }
    return k;
}

static inline int legal_total(scn *s)
{
    size_t n = 0;
    int ids[STPETE_MAX_LEGAL_ACTIONS];
    assert_int_equal(stpete_state_legal_actions(s->st, ids, STPETE_MAX_LEGAL_ACTIONS, &n), STPETE_OK);
    return (int)n;
}

/* The action parses, is refused with STPETE_E_ILLEGAL_ACTION, and leaves the position unchanged. */
static inline void expect_illegal(scn *s, const char *str)
{
    stpete_state *before = NULL;
    assert_int_equal(stpete_state_clone(s->st, &before, NULL), STPETE_OK);
    assert_int_equal(legal(s, str), 0);
    assert_int_equal(stpete_state_apply_string(s->st, str), STPETE_E_ILLEGAL_ACTION);
    assert_true(stpete_state_last_error(s->st)[0] != '\0');
    assert_int_equal(tg_equal(before, s->st), 1);
    stpete_state_free(before);
}

/* The string is not an action at all (e.g. a displacement that §6.2 never allows). */
static inline void expect_unparsable(const char *str)
{
    int id = -1;
    assert_int_equal(stpete_action_from_string(str, &id), STPETE_E_PARSE);
}

static inline void pass_n(scn *s, int n)
{
    for (int i = 0; i < n; i++)
        scn_do(s, "pass");
}

static inline int current(scn *s)
{
    return stpete_state_current_player(s->st);
}

/* Make the current round the final one and give seat 0 the trading turn: N passes then run final scoring. */
static inline void to_final_trading(scn *s)
{
    scn_core(s)->final_round = 1;
    scn_turn(s, TRADING, 0);
}

EXTERN_TEST_GROUP(rules_s03_setup);
EXTERN_TEST_GROUP(rules_s04_phases);
EXTERN_TEST_GROUP(rules_s05_prices);
EXTERN_TEST_GROUP(rules_s06_displacement);
EXTERN_TEST_GROUP(rules_s07_observatory);
EXTERN_TEST_GROUP(rules_s07_special_cards);
EXTERN_TEST_GROUP(rules_s08_final_scoring);
EXTERN_TEST_GROUP(rules_s11_second_edition);
EXTERN_TEST_GROUP(rules_legality);
EXTERN_TEST_GROUP(rules_validate);
EXTERN_TEST_GROUP(rules_card_tables);

#endif /* STPETE_RULES_TESTS_H */
