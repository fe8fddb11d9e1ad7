/* Rule scenario tests: one exact position per ruling of §10 (R1–R15) and per special card of §7, built with
 * scenario.h, acted on through the public API (action strings), and checked for exact rubles, VP and card
 * locations. Every scenario ends by checking the 116-card conservation invariant of §2.
 *
 * Section numbers (§) and ruling ids (R) refer to the rules specification, doc/rules.md. */
#include <stdio.h>

#include "scenario.h"

#define C(x) STPETE_CARD_##x
#define WORKER STPETE_PHASE_WORKER
#define BUILDING STPETE_PHASE_BUILDING
#define ARISTOCRAT STPETE_PHASE_ARISTOCRAT
#define TRADING STPETE_PHASE_TRADING
#define UPPER STPETE_SOURCE_UPPER
#define LOWER STPETE_SOURCE_LOWER
#define HAND STPETE_SOURCE_HAND
#define OBS STPETE_SOURCE_OBSERVATORY

/* ---- helpers ------------------------------------------------------------------------------------ */

/* A game with an empty board (the initial workers go to the discard pile), markers held by seat k % players
 * (4 players: worker 0, building 1, aristocrat 2, trading 3) and seat 0 to act in the worker phase. */
static scn fresh_opts(stpete_options *o)
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

static scn fresh(int players)
{
    stpete_options o;
    stpete_options_init(&o);
    o.players = players;
    return fresh_opts(&o);
}

/* Conservation (§2) and cleanup. */
static void done(scn *s)
{
    assert_int_equal(scn_card_total(scn_core(s)), STPETE_NUM_CARDS);
    scn_free(s);
}

/* Keep only the top `keep` cards of a stack; the others go to the discard pile (conserving the 116 cards). */
static void trim_stack(scn *s, int stack, int keep)
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

static void set_markers(scn *s, int w, int b, int a, int t)
{
    stpete_core *c = scn_core(s);
    c->markers[0] = (uint8_t)w;
    c->markers[1] = (uint8_t)b;
    c->markers[2] = (uint8_t)a;
    c->markers[3] = (uint8_t)t;
}

static int rub(scn *s, int seat)
{
    return stpete_state_rubles(s->st, seat);
}

static int disp(scn *s, int seat, int card)
{
    return stpete_state_display_count(s->st, seat, card);
}

static int disp_size(scn *s, int seat)
{
    int cards[STPETE_NUM_CARDS];
    size_t n = 0;
    assert_int_equal(stpete_state_display(s->st, seat, cards, STPETE_NUM_CARDS, &n), STPETE_OK);
    return (int)n;
}

static int discards(scn *s, int card)
{
    return stpete_state_discard_count(s->st, card);
}

static int stack_size(scn *s, int stack)
{
    return stpete_state_stack_size(s->st, stack);
}

static int row_size(scn *s, int row)
{
    int cards[STPETE_BOARD_SIZE];
    size_t n = 0;
    assert_int_equal(stpete_state_row(s->st, row, cards, STPETE_BOARD_SIZE, &n), STPETE_OK);
    return (int)n;
}

static int row_count(scn *s, int row, int card)
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
static void expect_row(scn *s, int row, const int *want, size_t want_n)
{
    int cards[STPETE_BOARD_SIZE];
    size_t n = 0;
    assert_int_equal(stpete_state_row(s->st, row, cards, STPETE_BOARD_SIZE, &n), STPETE_OK);
    assert_int_equal(n, want_n);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(cards[i], want[i]);
}

static int hand_size(scn *s, int seat)
{
    int cards[STPETE_MAX_HAND];
    size_t n = 0;
    assert_int_equal(stpete_state_hand(s->st, seat, cards, STPETE_MAX_HAND, &n), STPETE_OK);
    return (int)n;
}

static int hand_count(scn *s, int seat, int card)
{
    int cards[STPETE_MAX_HAND];
    size_t n = 0;
    assert_int_equal(stpete_state_hand(s->st, seat, cards, STPETE_MAX_HAND, &n), STPETE_OK);
    int k = 0;
    for (size_t i = 0; i < n; i++)
        k += cards[i] == card;
    return k;
}

static int price(scn *s, int seat, int card, int source, int displaced)
{
    int p = -1;
    assert_int_equal(stpete_state_price(s->st, seat, card, source, displaced, &p), STPETE_OK);
    return p;
}

/* Legal now: by the check (is_legal) and in the list of legal actions, consistently. */
static int legal(scn *s, const char *str)
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
static int legal_kind(scn *s, int kind, int card)
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

static int legal_total(scn *s)
{
    size_t n = 0;
    int ids[STPETE_MAX_LEGAL_ACTIONS];
    assert_int_equal(stpete_state_legal_actions(s->st, ids, STPETE_MAX_LEGAL_ACTIONS, &n), STPETE_OK);
    return (int)n;
}

/* The action parses, is refused with STPETE_E_ILLEGAL_ACTION, and leaves the position unchanged. */
static void expect_illegal(scn *s, const char *str)
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
static void expect_unparsable(const char *str)
{
    int id = -1;
    assert_int_equal(stpete_action_from_string(str, &id), STPETE_E_PARSE);
}

static void pass_n(scn *s, int n)
{
    for (int i = 0; i < n; i++)
        scn_do(s, "pass");
}

static int current(scn *s)
{
    return stpete_state_current_player(s->st);
}

/* Make the current round the final one and give seat 0 the trading turn: N passes then run final scoring. */
static void to_final_trading(scn *s)
{
    scn_core(s)->final_round = 1;
    scn_turn(s, TRADING, 0);
}

/* ==== §4 phase flow: R1, R2, R3, R4 ============================================================= */

/* R1 (§4.3): the action part ends on N consecutive passes; any other action resets the count; a player who
 * passed may act on a later turn. Also §4.4: the worker scoring follows, then §4.5 the building deal. */
static void test_r1_consecutive_passes_end_phase(void **unused)
{
    (void)unused;
    scn s = fresh(4);
    scn_put(&s, C(LUMBERJACK), SCN_UPPER, 0);
    scn_put(&s, C(GOLD_MINER), SCN_UPPER, 0);
    scn_turn(&s, WORKER, 0);
    int building_stack = stack_size(&s, STPETE_STACK_BUILDING);

    assert_int_equal(stpete_state_apply(s.st, scn_id("pass")), STPETE_OK); /* seat 0 */
    assert_int_equal(stpete_state_consecutive_passes(s.st), 1);
    scn_do(&s, "pass"); /* seat 1 */
    scn_do(&s, "pass"); /* seat 2 */
    assert_int_equal(stpete_state_consecutive_passes(s.st), 3);
    assert_int_equal(stpete_state_phase(s.st), WORKER);
    assert_int_equal(current(&s), 3);

    scn_do(&s, "buy Lumberjack from upper"); /* seat 3: resets the count */
    assert_int_equal(stpete_state_consecutive_passes(s.st), 0);
    assert_int_equal(rub(&s, 3), 22);
    assert_int_equal(current(&s), 0);

    scn_do(&s, "buy Gold Miner from upper"); /* seat 0 passed before and may act again */
    assert_int_equal(rub(&s, 0), 21);
    assert_int_equal(disp(&s, 0, C(GOLD_MINER)), 1);

    pass_n(&s, 3); /* seats 1, 2, 3 */
    assert_int_equal(stpete_state_phase(s.st), WORKER);
    assert_int_equal(stpete_state_consecutive_passes(s.st), 3);
    scn_do(&s, "pass"); /* seat 0: fourth consecutive pass ends the worker phase */

    assert_int_equal(stpete_state_phase(s.st), BUILDING);
    assert_int_equal(stpete_state_consecutive_passes(s.st), 0);
    assert_int_equal(current(&s), 1); /* building marker holder */
    /* worker scoring: 3 R per worker */
    assert_int_equal(rub(&s, 0), 24);
    assert_int_equal(rub(&s, 1), 25);
    assert_int_equal(rub(&s, 2), 25);
    assert_int_equal(rub(&s, 3), 25);
    /* the board was empty: 8 buildings dealt into the upper row */
    assert_int_equal(row_size(&s, UPPER), 8);
    assert_int_equal(row_size(&s, LOWER), 0);
    assert_int_equal(stack_size(&s, STPETE_STACK_BUILDING), building_stack - 8);
    done(&s);
}

/* R1 (§4.3): a take also resets the count; with 2 players 2 consecutive passes end the phase. */
static void test_r1_take_resets_pass_count(void **unused)
{
    (void)unused;
    scn s = fresh(2);
    scn_put(&s, C(MARKET), SCN_UPPER, 0);
    scn_turn(&s, ARISTOCRAT, 0);
    scn_do(&s, "pass");                  /* seat 0 */
    scn_do(&s, "take Market from upper"); /* seat 1 */
    assert_int_equal(stpete_state_consecutive_passes(s.st), 0);
    assert_int_equal(hand_count(&s, 1, C(MARKET)), 1);
    assert_int_equal(rub(&s, 1), 25); /* taking is free (§4.2) */
    scn_do(&s, "pass"); /* seat 0 */
    assert_int_equal(stpete_state_phase(s.st), ARISTOCRAT);
    scn_do(&s, "pass"); /* seat 1 */
    assert_int_equal(stpete_state_phase(s.st), TRADING);
    assert_int_equal(current(&s), 1); /* trading marker of seat 1 (2 players: markers 0,1,0,1) */
    done(&s);
}

/* R2 (§4.5): after a phase, cards come from the next phase's stack into the upper row until the board holds 8;
 * cards already on the board stay where they are. */
static void test_r2_deal_next_stack_into_upper_row(void **unused)
{
    (void)unused;
    scn s = fresh(4);
    scn_put(&s, C(MARKET), SCN_LOWER, 0);
    scn_put(&s, C(AUTHOR), SCN_LOWER, 0);
    scn_put(&s, C(LUMBERJACK), SCN_LOWER, 0);
    scn_put(&s, C(SHEPHERD), SCN_UPPER, 0);
    scn_put(&s, C(FUR_TRAPPER), SCN_UPPER, 0);
    scn_put(&s, C(FIREHOUSE), SCN_STACK_TOP, STPETE_STACK_BUILDING);
    scn_put(&s, C(HOSPITAL), SCN_STACK_TOP, STPETE_STACK_BUILDING);
    scn_put(&s, C(LIBRARY), SCN_STACK_TOP, STPETE_STACK_BUILDING); /* top */
    scn_put(&s, C(JUDGE), SCN_STACK_TOP, STPETE_STACK_ARISTOCRAT);
    scn_turn(&s, WORKER, 0);
    int st[4];
    for (int k = 0; k < 4; k++)
        st[k] = stack_size(&s, k);

    pass_n(&s, 4); /* end of the worker phase: 3 buildings dealt */
    assert_int_equal(stpete_state_phase(s.st), BUILDING);
    const int upper1[] = { C(SHEPHERD), C(FUR_TRAPPER), C(LIBRARY), C(HOSPITAL), C(FIREHOUSE) };
    const int lower[] = { C(MARKET), C(AUTHOR), C(LUMBERJACK) };
    expect_row(&s, UPPER, upper1, 5);
    expect_row(&s, LOWER, lower, 3);
    assert_int_equal(stack_size(&s, STPETE_STACK_WORKER), st[0]);
    assert_int_equal(stack_size(&s, STPETE_STACK_BUILDING), st[1] - 3);
    assert_int_equal(stack_size(&s, STPETE_STACK_ARISTOCRAT), st[2]);
    assert_int_equal(stack_size(&s, STPETE_STACK_TRADING), st[3]);

    assert_int_equal(current(&s), 1);
    scn_do(&s, "take Market from lower"); /* seat 1: board 7 */
    pass_n(&s, 4);                        /* end of the building phase: 1 aristocrat dealt */
    assert_int_equal(stpete_state_phase(s.st), ARISTOCRAT);
    const int upper2[] = { C(SHEPHERD), C(FUR_TRAPPER), C(LIBRARY), C(HOSPITAL), C(FIREHOUSE), C(JUDGE) };
    const int lower2[] = { C(AUTHOR), C(LUMBERJACK) };
    expect_row(&s, UPPER, upper2, 6);
    expect_row(&s, LOWER, lower2, 2);
    assert_int_equal(stack_size(&s, STPETE_STACK_ARISTOCRAT), st[2] - 1);
    assert_int_equal(stack_size(&s, STPETE_STACK_TRADING), st[3]);
    done(&s);
}

/* R2 (§4.5): if nobody took a card, the board is still full and nothing is dealt. */
static void test_r2_nothing_dealt_when_board_full(void **unused)
{
    (void)unused;
    scn s = fresh(3);
    const int cards[] = { C(MARKET), C(AUTHOR), C(LUMBERJACK), C(SHEPHERD), C(PUB), C(JUDGE), C(WHARF), C(POPE) };
    for (int i = 0; i < 8; i++)
        scn_put(&s, cards[i], i < 5 ? SCN_UPPER : SCN_LOWER, 0);
    scn_turn(&s, ARISTOCRAT, 0);
    int trading = stack_size(&s, STPETE_STACK_TRADING);
    pass_n(&s, 3);
    assert_int_equal(stpete_state_phase(s.st), TRADING);
    assert_int_equal(stack_size(&s, STPETE_STACK_TRADING), trading);
    expect_row(&s, UPPER, cards, 5);
    expect_row(&s, LOWER, cards + 5, 3);
    done(&s);
}

/* R3 (§4.5): end of round, in order: lower row discarded, upper row moves down, workers dealt up to 8, markers
 * to the next seat, Observatories face up; no scoring in the trading phase (§4.4). */
static void test_r3_end_of_round_steps(void **unused)
{
    (void)unused;
    scn s = fresh(4);
    scn_put(&s, C(MARKET), SCN_LOWER, 0);
    scn_put(&s, C(AUTHOR), SCN_LOWER, 0);
    scn_put(&s, C(CUSTOMS_HOUSE), SCN_UPPER, 0);
    scn_put(&s, C(POPE), SCN_UPPER, 0);
    scn_put(&s, C(JUDGE), SCN_UPPER, 0);
    scn_put(&s, C(OBSERVATORY), SCN_DISPLAY, 2);
    scn_put(&s, C(LUMBERJACK), SCN_DISPLAY, 1); /* a worker: no income in the trading phase */
    scn_core(&s)->p[2].obs_used = 1;            /* used this round: face down */
    scn_put(&s, C(LUMBERJACK), SCN_STACK_TOP, STPETE_STACK_WORKER);
    scn_put(&s, C(GOLD_MINER), SCN_STACK_TOP, STPETE_STACK_WORKER);
    scn_put(&s, C(SHEPHERD), SCN_STACK_TOP, STPETE_STACK_WORKER);
    scn_put(&s, C(FUR_TRAPPER), SCN_STACK_TOP, STPETE_STACK_WORKER);
    scn_put(&s, C(SHIP_BUILDER), SCN_STACK_TOP, STPETE_STACK_WORKER);
    scn_turn(&s, TRADING, 3);
    int workers = stack_size(&s, STPETE_STACK_WORKER);
    int d_market = discards(&s, C(MARKET)), d_author = discards(&s, C(AUTHOR));
    assert_int_equal(stpete_state_round(s.st), 1);

    pass_n(&s, 4);

    assert_int_equal(stpete_state_round(s.st), 2);
    assert_int_equal(stpete_state_phase(s.st), WORKER);
    /* (1) lower row discarded */
    assert_int_equal(discards(&s, C(MARKET)), d_market + 1);
    assert_int_equal(discards(&s, C(AUTHOR)), d_author + 1);
    /* (2) upper row moved down, in order */
    const int lower[] = { C(CUSTOMS_HOUSE), C(POPE), C(JUDGE) };
    expect_row(&s, LOWER, lower, 3);
    /* (3) five workers dealt, top of the stack first */
    const int upper[] = { C(SHIP_BUILDER), C(FUR_TRAPPER), C(SHEPHERD), C(GOLD_MINER), C(LUMBERJACK) };
    expect_row(&s, UPPER, upper, 5);
    assert_int_equal(stack_size(&s, STPETE_STACK_WORKER), workers - 5);
    /* (4) markers to the next seat */
    for (int k = 0; k < 4; k++)
        assert_int_equal(stpete_state_marker_holder(s.st, k), (k + 1) % 4);
    assert_int_equal(current(&s), 1);
    /* (5) Observatories face up */
    assert_int_equal(stpete_state_observatories_used(s.st, 2), 0);
    /* no trading scoring */
    for (int i = 0; i < 4; i++)
        assert_int_equal(rub(&s, i), 25);
    assert_int_equal(tg_is_final_round(s.st), 0);
    done(&s);
}

/* R3 (§4.5 step 4): with 3 players the player holding two markers hands both to the next seat. */
static void test_r3_markers_move_left_three_players(void **unused)
{
    (void)unused;
    scn s = fresh(3);
    set_markers(&s, 2, 2, 0, 1);
    scn_turn(&s, TRADING, 1);
    pass_n(&s, 3);
    assert_int_equal(stpete_state_round(s.st), 2);
    assert_int_equal(stpete_state_marker_holder(s.st, WORKER), 0);
    assert_int_equal(stpete_state_marker_holder(s.st, BUILDING), 0);
    assert_int_equal(stpete_state_marker_holder(s.st, ARISTOCRAT), 1);
    assert_int_equal(stpete_state_marker_holder(s.st, TRADING), 2);
    assert_int_equal(current(&s), 0);
    assert_int_equal(row_size(&s, UPPER), 8); /* the board was empty: 8 workers */
    done(&s);
}

/* R4 (§4.6): the deal that places the last card of a stack makes the round in progress the final one; it is
 * played to the end of its trading phase, the end-of-round steps are skipped and final scoring follows. */
static void test_r4_last_building_dealt_makes_final_round(void **unused)
{
    (void)unused;
    scn s = fresh(2);
    const int workers[] = { C(LUMBERJACK), C(GOLD_MINER), C(SHEPHERD), C(FUR_TRAPPER), C(SHIP_BUILDER) };
    for (int i = 0; i < 5; i++)
        scn_put(&s, workers[i], SCN_UPPER, 0);
    trim_stack(&s, STPETE_STACK_BUILDING, 2);
    scn_turn(&s, WORKER, 0);
    assert_int_equal(tg_is_final_round(s.st), 0);

    pass_n(&s, 2); /* worker phase ends: 3 buildings needed, 2 left */
    assert_int_equal(stpete_state_phase(s.st), BUILDING);
    assert_int_equal(stack_size(&s, STPETE_STACK_BUILDING), 0);
    assert_int_equal(row_size(&s, UPPER), 7);
    assert_int_equal(tg_is_final_round(s.st), 1);

    pass_n(&s, 2); /* building: one aristocrat dealt */
    assert_int_equal(row_size(&s, UPPER), 8);
    pass_n(&s, 2); /* aristocrat */
    assert_int_equal(stpete_state_phase(s.st), TRADING);
    assert_int_equal(tg_is_terminal(s.st), 0);
    pass_n(&s, 1);
    assert_int_equal(tg_is_terminal(s.st), 0);
    scn_do(&s, "pass"); /* end of the final round's trading phase */

    assert_int_equal(tg_is_terminal(s.st), 1);
    assert_int_equal(stpete_state_decision(s.st), STPETE_DECISION_GAME_OVER);
    assert_int_equal(current(&s), STPETE_PLAYER_TERMINAL);
    assert_int_equal(stpete_state_round(s.st), 1);
    /* end-of-round steps skipped: rows and markers as they were */
    assert_int_equal(row_size(&s, UPPER), 8);
    assert_int_equal(row_size(&s, LOWER), 0);
    assert_int_equal(stpete_state_marker_holder(s.st, WORKER), 0);
    assert_int_equal(stpete_state_marker_holder(s.st, BUILDING), 1);
    /* final scoring: 25 R = 2 VP each; tied with the same tie-break: shared win */
    assert_int_equal(scn_vp(&s, 0), 2);
    assert_int_equal(scn_vp(&s, 1), 2);
    unsigned mask = 0;
    assert_int_equal(stpete_state_winners(s.st, &mask), STPETE_OK);
    assert_int_equal(mask, 3u);
    /* nothing more can be applied */
    stpete_state *before = NULL;
    assert_int_equal(stpete_state_clone(s.st, &before, NULL), STPETE_OK);
    assert_int_equal(stpete_state_apply_string(s.st, "pass"), STPETE_E_GAME_OVER);
    assert_int_equal(tg_equal(before, s.st), 1);
    assert_int_equal(legal_total(&s), 0);
    stpete_state_free(before);
    done(&s);
}

/* R4 (§4.6): the last trading card dealt after the aristocrat phase: the trading phase of that round is still
 * played (a card can be taken), then the game ends. */
static void test_r4_last_trading_card_dealt(void **unused)
{
    (void)unused;
    scn s = fresh(2);
    const int cards[] = { C(LUMBERJACK), C(MARKET), C(AUTHOR), C(SHEPHERD), C(HOSPITAL), C(JUDGE), C(LIBRARY) };
    for (int i = 0; i < 7; i++)
        scn_put(&s, cards[i], SCN_UPPER, 0);
    scn_put(&s, C(POPE), SCN_STACK_TOP, STPETE_STACK_TRADING);
    trim_stack(&s, STPETE_STACK_TRADING, 1);
    scn_turn(&s, ARISTOCRAT, 0);
    pass_n(&s, 2);
    assert_int_equal(stpete_state_phase(s.st), TRADING);
    assert_int_equal(stack_size(&s, STPETE_STACK_TRADING), 0);
    assert_int_equal(row_count(&s, UPPER, C(POPE)), 1);
    assert_int_equal(tg_is_final_round(s.st), 1);
    assert_int_equal(current(&s), 1);
    scn_do(&s, "take Pope from upper"); /* seat 1 */
    scn_do(&s, "pass");
    assert_int_equal(tg_is_terminal(s.st), 0);
    scn_do(&s, "pass");
    assert_int_equal(tg_is_terminal(s.st), 1);
    assert_int_equal(scn_vp(&s, 0), 2);      /* 25 R */
    assert_int_equal(scn_vp(&s, 1), 2 - 5); /* 25 R, one hand card */
    unsigned mask = 0;
    assert_int_equal(stpete_state_winners(s.st, &mask), STPETE_OK);
    assert_int_equal(mask, 1u);
    done(&s);
}

/* R4 (§4.6): the end-of-round worker deal that places the last worker makes the round it starts the final one;
 * with a worker left over, it does not. */
static void test_r4_end_of_round_deal_of_last_worker(void **unused)
{
    (void)unused;
    for (int keep = 3; keep <= 4; keep++) {
        scn s = fresh(2);
        scn_put(&s, C(MARKET), SCN_LOWER, 0);
        const int aristos[] = { C(AUTHOR), C(ADMINISTRATOR), C(WAREHOUSE_MANAGER), C(SECRETARY), C(CONTROLLER) };
        for (int i = 0; i < 5; i++)
            scn_put(&s, aristos[i], SCN_UPPER, 0);
        trim_stack(&s, STPETE_STACK_WORKER, keep);
        scn_turn(&s, TRADING, 0);
        pass_n(&s, 2);
        assert_int_equal(stpete_state_round(s.st), 2);
        assert_int_equal(stpete_state_phase(s.st), WORKER);
        expect_row(&s, LOWER, aristos, 5);
        assert_int_equal(row_size(&s, UPPER), 3);
        assert_int_equal(stack_size(&s, STPETE_STACK_WORKER), keep - 3);
        assert_int_equal(tg_is_final_round(s.st), keep == 3);
        if (keep == 3) {
            pass_n(&s, 7); /* worker, building, aristocrat, and one trading pass */
            assert_int_equal(stpete_state_phase(s.st), TRADING);
            assert_int_equal(tg_is_terminal(s.st), 0);
            scn_do(&s, "pass");
            assert_int_equal(tg_is_terminal(s.st), 1);
            assert_int_equal(stpete_state_round(s.st), 2);
            expect_row(&s, LOWER, aristos, 5); /* no end-of-round steps after the final round */
        }
        done(&s);
    }
}

/* ==== §4.2 actions ============================================================================== */

/* §4.2: any board card may be bought or taken in any phase; any hand card played in any phase; trading cards can
 * always be taken; a player who cannot afford a card can still pass. */
static void test_s42_any_card_any_phase(void **unused)
{
    (void)unused;
    scn s = fresh(2);
    scn_put(&s, C(LUMBERJACK), SCN_UPPER, 0);
    scn_put(&s, C(ACADEMY), SCN_UPPER, 0);
    scn_put(&s, C(WHARF), SCN_LOWER, 0);
    scn_put(&s, C(MARKET), SCN_HAND, 0);
    scn_turn(&s, ARISTOCRAT, 0);
    scn_do(&s, "buy Lumberjack from upper"); /* a worker in the aristocrat phase */
    assert_int_equal(rub(&s, 0), 22);
    assert_int_equal(disp(&s, 0, C(LUMBERJACK)), 1);
    scn_do(&s, "take Wharf from lower"); /* seat 1: a trading card can always be taken */
    assert_int_equal(hand_count(&s, 1, C(WHARF)), 1);
    assert_int_equal(row_size(&s, LOWER), 0);
    scn_do(&s, "play Market"); /* seat 0: a building in the aristocrat phase */
    assert_int_equal(rub(&s, 0), 17);
    assert_int_equal(disp(&s, 0, C(MARKET)), 1);
    assert_int_equal(hand_size(&s, 0), 0);
    scn_set_rubles(&s, 1, 22);
    expect_illegal(&s, "buy Academy from upper"); /* 23 R > 22 R */
    assert_true(legal(&s, "pass"));
    scn_set_rubles(&s, 1, 23);
    scn_do(&s, "buy Academy from upper");
    assert_int_equal(rub(&s, 1), 0);
    assert_int_equal(disp(&s, 1, C(ACADEMY)), 1);
    done(&s);
}

/* §4.2: taking needs room in the hand (limit 3 without a Warehouse); hand cards are never discarded. */
static void test_s42_take_needs_room_in_hand(void **unused)
{
    (void)unused;
    scn s = fresh(2);
    scn_put(&s, C(MARKET), SCN_UPPER, 0);
    scn_put(&s, C(AUTHOR), SCN_LOWER, 0);
    scn_put(&s, C(LUMBERJACK), SCN_HAND, 0);
    scn_put(&s, C(SHEPHERD), SCN_HAND, 0);
    scn_put(&s, C(POPE), SCN_HAND, 0);
    scn_turn(&s, BUILDING, 0);
    assert_int_equal(stpete_state_hand_limit(s.st, 0), 3);
    expect_illegal(&s, "take Market from upper");
    expect_illegal(&s, "take Author from lower");
    assert_int_equal(legal_kind(&s, STPETE_ACTION_TAKE, -1), 0);
    assert_true(legal(&s, "buy Market from upper"));
    scn_do(&s, "buy Author from lower");
    assert_int_equal(rub(&s, 0), 22);
    assert_int_equal(hand_size(&s, 0), 3);
    done(&s);
}

/* §4.4: each phase scores only its colour, trading cards of that colour included (worker phase). */
static void test_s44_worker_scoring(void **unused)
{
    (void)unused;
    scn s = fresh(2);
    scn_put(&s, C(LUMBERJACK), SCN_DISPLAY, 0);
    scn_put(&s, C(LUMBERJACK), SCN_DISPLAY, 0);
    scn_put(&s, C(WHARF), SCN_DISPLAY, 0);    /* 6 R 1 VP */
    scn_put(&s, C(FUR_SHOP), SCN_DISPLAY, 0); /* 3 R 2 VP */
    scn_put(&s, C(MARKET), SCN_DISPLAY, 0);   /* blue: nothing now */
    scn_put(&s, C(JUDGE), SCN_DISPLAY, 0);    /* orange: nothing now */
    scn_put(&s, C(CZAR_AND_CARPENTER), SCN_DISPLAY, 1);
    scn_put(&s, C(SHEPHERD), SCN_HAND, 1); /* hand cards never score */
    scn_turn(&s, WORKER, 0);
    pass_n(&s, 2);
    assert_int_equal(rub(&s, 0), 25 + 3 + 3 + 6 + 3);
    assert_int_equal(scn_vp(&s, 0), 3);
    assert_int_equal(rub(&s, 1), 28);
    assert_int_equal(scn_vp(&s, 1), 0);
    done(&s);
}

/* §4.4: building scoring, blue trading cards included. */
static void test_s44_building_scoring(void **unused)
{
    (void)unused;
    scn s = fresh(2);
    scn_put(&s, C(THEATER), SCN_DISPLAY, 0);  /* 6 VP */
    scn_put(&s, C(ACADEMY), SCN_DISPLAY, 0);  /* 7 VP */
    scn_put(&s, C(BANK), SCN_DISPLAY, 0);     /* 5 R 1 VP */
    scn_put(&s, C(HARBOR), SCN_DISPLAY, 0);   /* 5 R 2 VP */
    scn_put(&s, C(LUMBERJACK), SCN_DISPLAY, 0);
    scn_put(&s, C(CONTROLLER), SCN_DISPLAY, 0);
    scn_turn(&s, BUILDING, 0);
    pass_n(&s, 2);
    assert_int_equal(stpete_state_phase(s.st), ARISTOCRAT);
    assert_int_equal(rub(&s, 0), 35);
    assert_int_equal(scn_vp(&s, 0), 16);
    done(&s);
}

/* §4.4: aristocrat scoring, orange trading cards included. */
static void test_s44_aristocrat_scoring(void **unused)
{
    (void)unused;
    scn s = fresh(2);
    scn_put(&s, C(CONTROLLER), SCN_DISPLAY, 0);             /* 4 R 1 VP */
    scn_put(&s, C(MISTRESS_OF_CEREMONIES), SCN_DISPLAY, 0); /* 6 R 3 VP */
    scn_put(&s, C(ADMIRAL), SCN_DISPLAY, 0);                /* 3 R 3 VP */
    scn_put(&s, C(MARKET), SCN_DISPLAY, 0);
    scn_put(&s, C(LUMBERJACK), SCN_DISPLAY, 0);
    scn_put(&s, C(AUTHOR), SCN_DISPLAY, 1); /* 1 R */
    scn_turn(&s, ARISTOCRAT, 0);
    pass_n(&s, 2);
    assert_int_equal(stpete_state_phase(s.st), TRADING);
    assert_int_equal(rub(&s, 0), 38);
    assert_int_equal(scn_vp(&s, 0), 7);
    assert_int_equal(rub(&s, 1), 26);
    assert_int_equal(scn_vp(&s, 1), 0);
    done(&s);
}

/* ==== §5 prices: R5, R6, R7 ===================================================================== */

/* R5 (§5.1) rulebook example: a third Market with two in the display costs 3. */
static void test_r5_third_market_costs_3(void **unused)
{
    (void)unused;
    scn s = fresh(4);
    scn_put(&s, C(MARKET), SCN_DISPLAY, 0);
    scn_put(&s, C(MARKET), SCN_DISPLAY, 0);
    scn_put(&s, C(MARKET), SCN_UPPER, 0);
    scn_turn(&s, BUILDING, 0);
    assert_int_equal(price(&s, 0, C(MARKET), UPPER, -1), 3);
    scn_do(&s, "buy Market from upper");
    assert_int_equal(rub(&s, 0), 22);
    assert_int_equal(disp(&s, 0, C(MARKET)), 3);
    assert_int_equal(row_size(&s, UPPER), 0);
    assert_int_equal(current(&s), 1);
    done(&s);
}

/* R5 (§5.1) rulebook example: a Theater from the lower row, with a Theater and the Carpenter Workshop in the
 * display, costs 20 − 3 = 17. */
static void test_r5_theater_lower_row_with_workshop_costs_17(void **unused)
{
    (void)unused;
    scn s = fresh(4);
    scn_put(&s, C(THEATER), SCN_DISPLAY, 0);
    scn_put(&s, C(CARPENTER_WORKSHOP), SCN_DISPLAY, 0);
    scn_put(&s, C(THEATER), SCN_LOWER, 0);
    scn_turn(&s, BUILDING, 0);
    assert_int_equal(price(&s, 0, C(THEATER), LOWER, -1), 17);
    assert_int_equal(price(&s, 0, C(THEATER), UPPER, -1), 18);
    scn_do(&s, "buy Theater from lower");
    assert_int_equal(rub(&s, 0), 8);
    assert_int_equal(disp(&s, 0, C(THEATER)), 2);
    assert_int_equal(row_size(&s, LOWER), 0);
    done(&s);
}

/* R5 (§5.1) rulebook example: a fourth Lumberjack costs 1, never 0 (even from the lower row). */
static void test_r5_fourth_lumberjack_costs_1(void **unused)
{
    (void)unused;
    scn s = fresh(2);
    for (int i = 0; i < 3; i++)
        scn_put(&s, C(LUMBERJACK), SCN_DISPLAY, 0);
    scn_put(&s, C(LUMBERJACK), SCN_UPPER, 0);
    scn_put(&s, C(LUMBERJACK), SCN_LOWER, 0);
    scn_set_rubles(&s, 0, 1);
    scn_turn(&s, WORKER, 0);
    assert_int_equal(price(&s, 0, C(LUMBERJACK), UPPER, -1), 1);
    assert_int_equal(price(&s, 0, C(LUMBERJACK), LOWER, -1), 1);
    scn_do(&s, "buy Lumberjack from lower");
    assert_int_equal(rub(&s, 0), 0);
    assert_int_equal(disp(&s, 0, C(LUMBERJACK)), 4);
    scn_do(&s, "pass"); /* seat 1 */
    assert_int_equal(price(&s, 0, C(LUMBERJACK), UPPER, -1), 1);
    expect_illegal(&s, "buy Lumberjack from upper"); /* 1 R, seat 0 has 0 */
    done(&s);
}

/* R5 (§5.1): the discounts add up: same name, lower row, Carpenter Workshop (blue), Gold Smelter (orange). */
static void test_r5_discounts_add_up(void **unused)
{
    (void)unused;
    scn s = fresh(2);
    scn_put(&s, C(CARPENTER_WORKSHOP), SCN_DISPLAY, 0);
    scn_put(&s, C(GOLD_SMELTER), SCN_DISPLAY, 0);
    scn_put(&s, C(ADMINISTRATOR), SCN_DISPLAY, 0);
    scn_put(&s, C(CUSTOMS_HOUSE), SCN_DISPLAY, 0);
    scn_put(&s, C(ADMINISTRATOR), SCN_LOWER, 0);
    scn_put(&s, C(CUSTOMS_HOUSE), SCN_LOWER, 0);
    scn_put(&s, C(SHEPHERD), SCN_LOWER, 0);
    scn_turn(&s, ARISTOCRAT, 0);
    assert_int_equal(price(&s, 0, C(ADMINISTRATOR), LOWER, -1), 7 - 1 - 1 - 1);
    assert_int_equal(price(&s, 0, C(CUSTOMS_HOUSE), LOWER, -1), 8 - 1 - 1 - 1);
    assert_int_equal(price(&s, 0, C(SHEPHERD), LOWER, -1), 5 - 1);
    assert_int_equal(price(&s, 1, C(ADMINISTRATOR), LOWER, -1), 6);
    scn_do(&s, "buy Administrator from lower");
    assert_int_equal(rub(&s, 0), 21);
    assert_int_equal(disp(&s, 0, C(ADMINISTRATOR)), 2);
    scn_do(&s, "buy Shepherd from lower"); /* seat 1: no discounts but the lower row */
    assert_int_equal(rub(&s, 1), 21);
    scn_do(&s, "buy Customs House from lower"); /* seat 0 */
    assert_int_equal(rub(&s, 0), 16);
    assert_int_equal(row_size(&s, LOWER), 0);
    done(&s);
}

/* R6 (§5.1 rule 2): the lower-row discount only when buying directly from the lower row, not when the card is
 * played from hand after being taken from the lower row. */
static void test_r6_lower_row_discount_only_when_bought_directly(void **unused)
{
    (void)unused;
    scn s = fresh(2);
    scn_put(&s, C(MARKET), SCN_LOWER, 0);
    scn_put(&s, C(MARKET), SCN_LOWER, 0);
    scn_turn(&s, BUILDING, 0);
    scn_do(&s, "take Market from lower"); /* seat 0 */
    assert_int_equal(rub(&s, 0), 25);
    assert_int_equal(hand_count(&s, 0, C(MARKET)), 1);
    assert_int_equal(row_count(&s, LOWER, C(MARKET)), 1);
    scn_do(&s, "buy Market from lower"); /* seat 1: 5 − 1 */
    assert_int_equal(rub(&s, 1), 21);
    assert_int_equal(price(&s, 0, C(MARKET), HAND, -1), 5);
    scn_do(&s, "play Market"); /* seat 0: full price */
    assert_int_equal(rub(&s, 0), 20);
    assert_int_equal(disp(&s, 0, C(MARKET)), 1);
    assert_int_equal(hand_size(&s, 0), 0);
    assert_int_equal(row_size(&s, LOWER), 0);
    done(&s);
}

/* R7 (§5.2) rulebook example: Wharf displacing a Ship Builder costs 12 − 7 = 5; the Ship Builder is discarded. */
static void test_r7_wharf_displacing_ship_builder_costs_5(void **unused)
{
    (void)unused;
    scn s = fresh(4);
    scn_put(&s, C(SHIP_BUILDER), SCN_DISPLAY, 0);
    scn_put(&s, C(WHARF), SCN_UPPER, 0);
    scn_turn(&s, TRADING, 0);
    int d = discards(&s, C(SHIP_BUILDER));
    assert_int_equal(price(&s, 0, C(WHARF), UPPER, C(SHIP_BUILDER)), 5);
    scn_do(&s, "buy Wharf from upper displacing Ship Builder");
    assert_int_equal(rub(&s, 0), 20);
    assert_int_equal(disp(&s, 0, C(WHARF)), 1);
    assert_int_equal(disp(&s, 0, C(SHIP_BUILDER)), 0);
    assert_int_equal(disp_size(&s, 0), 1);
    assert_int_equal(discards(&s, C(SHIP_BUILDER)), d + 1);
    assert_int_equal(row_size(&s, UPPER), 0);
    done(&s);
}

/* R7 (§5.2) rulebook example: Senator displacing a 12-R aristocrat (Secretary) costs 1. */
static void test_r7_senator_displacing_secretary_costs_1(void **unused)
{
    (void)unused;
    scn s = fresh(4);
    scn_put(&s, C(SECRETARY), SCN_DISPLAY, 0);
    scn_put(&s, C(SENATOR), SCN_LOWER, 0);
    scn_turn(&s, TRADING, 0);
    int d = discards(&s, C(SECRETARY));
    assert_int_equal(price(&s, 0, C(SENATOR), UPPER, C(SECRETARY)), 1);
    scn_do(&s, "buy Senator from lower displacing Secretary");
    assert_int_equal(rub(&s, 0), 24);
    assert_int_equal(disp(&s, 0, C(SENATOR)), 1);
    assert_int_equal(disp(&s, 0, C(SECRETARY)), 0);
    assert_int_equal(discards(&s, C(SECRETARY)), d + 1);
    done(&s);
}

/* R7 (§5.2) rulebook example: St Isaac's Cathedral displacing a Market, bought from the lower row by the owner of
 * the Carpenter Workshop: 15 − 5 − 1 − 1 = 8. */
static void test_r7_st_isaacs_displacing_market_costs_8(void **unused)
{
    (void)unused;
    scn s = fresh(4);
    scn_put(&s, C(MARKET), SCN_DISPLAY, 0);
    scn_put(&s, C(CARPENTER_WORKSHOP), SCN_DISPLAY, 0);
    scn_put(&s, C(ST_ISAACS_CATHEDRAL), SCN_LOWER, 0);
    scn_turn(&s, TRADING, 0);
    int d = discards(&s, C(MARKET));
    assert_int_equal(price(&s, 0, C(ST_ISAACS_CATHEDRAL), LOWER, C(MARKET)), 8);
    scn_do(&s, "buy St Isaac's Cathedral from lower displacing Market");
    assert_int_equal(rub(&s, 0), 17);
    assert_int_equal(disp(&s, 0, C(ST_ISAACS_CATHEDRAL)), 1);
    assert_int_equal(disp(&s, 0, C(MARKET)), 0);
    assert_int_equal(disp(&s, 0, C(CARPENTER_WORKSHOP)), 1);
    assert_int_equal(discards(&s, C(MARKET)), d + 1);
    assert_int_equal(row_size(&s, LOWER), 0);
    done(&s);
}

/* R7 (§5.2, §7.4): the displaced card is worth its printed cost, Potjomkin's Village 6; floor 1 R. */
static void test_r7_displaced_value_and_floor(void **unused)
{
    (void)unused;
    scn s = fresh(2);
    scn_put(&s, C(POTJOMKINS_VILLAGE), SCN_DISPLAY, 0);
    scn_put(&s, C(WAREHOUSE), SCN_DISPLAY, 0);
    scn_put(&s, C(MISTRESS_OF_CEREMONIES), SCN_DISPLAY, 0);
    scn_put(&s, C(BANK), SCN_UPPER, 0);
    scn_put(&s, C(POPE), SCN_UPPER, 0);
    scn_turn(&s, TRADING, 0);
    assert_int_equal(price(&s, 0, C(BANK), UPPER, C(POTJOMKINS_VILLAGE)), 13 - 6);
    assert_int_equal(price(&s, 0, C(BANK), UPPER, C(WAREHOUSE)), 13 - 2);
    assert_int_equal(price(&s, 0, C(POPE), UPPER, C(MISTRESS_OF_CEREMONIES)), 1); /* 6 − 18 → 1 */
    int d = discards(&s, C(POTJOMKINS_VILLAGE));
    scn_do(&s, "buy Bank from upper displacing Potjomkin's Village");
    assert_int_equal(rub(&s, 0), 18);
    assert_int_equal(discards(&s, C(POTJOMKINS_VILLAGE)), d + 1);
    assert_int_equal(disp(&s, 0, C(POTJOMKINS_VILLAGE)), 0);
    assert_int_equal(disp(&s, 0, C(WAREHOUSE)), 1);
    scn_do(&s, "pass"); /* seat 1 */
    scn_do(&s, "buy Pope from upper displacing Mistress of Ceremonies");
    assert_int_equal(rub(&s, 0), 17);
    assert_int_equal(disp(&s, 0, C(POPE)), 1);
    assert_int_equal(disp(&s, 0, C(MISTRESS_OF_CEREMONIES)), 0);
    done(&s);
}

/* ==== §6 displacement: R8 ======================================================================= */

/* R8 (§6.1): without a legal target in the display a trading card can be neither bought nor played, but it can
 * be taken; a trading card never displaces a trading card; green cards only their own ware. */
static void test_r8_trading_card_needs_target(void **unused)
{
    (void)unused;
    scn s = fresh(2);
    scn_put(&s, C(LUMBERJACK), SCN_DISPLAY, 0);
    scn_put(&s, C(BANK), SCN_DISPLAY, 0);
    scn_put(&s, C(POPE), SCN_DISPLAY, 0);
    scn_put(&s, C(WHARF), SCN_UPPER, 0);
    scn_put(&s, C(HERMITAGE), SCN_UPPER, 0);
    scn_put(&s, C(CZAR), SCN_LOWER, 0);
    scn_put(&s, C(FUR_SHOP), SCN_HAND, 0);
    scn_set_rubles(&s, 0, 100);
    scn_turn(&s, TRADING, 0);
    expect_illegal(&s, "buy Wharf from upper displacing Ship Builder");
    expect_illegal(&s, "buy Wharf from upper displacing Czar and Carpenter");
    expect_illegal(&s, "buy Hermitage from upper displacing Market");
    expect_illegal(&s, "buy Czar from lower displacing Author");
    expect_illegal(&s, "play Fur Shop displacing Fur Trapper");
    assert_int_equal(legal_kind(&s, STPETE_ACTION_BUY, -1), 0);
    assert_int_equal(legal_kind(&s, STPETE_ACTION_PLAY, -1), 0);
    /* a trading card as target, or a worker of another ware, is not even an action (§6.2) */
    expect_unparsable("buy Hermitage from upper displacing Bank");
    expect_unparsable("buy Czar from lower displacing Pope");
    expect_unparsable("buy Wharf from upper displacing Lumberjack");
    expect_unparsable("buy Wharf from upper");
    assert_true(legal(&s, "take Wharf from upper"));
    assert_true(legal(&s, "take Czar from lower"));
    scn_do(&s, "take Hermitage from upper");
    assert_int_equal(hand_size(&s, 0), 2);
    assert_int_equal(rub(&s, 0), 100);
    done(&s);
}

/* R8 (§6.2): Czar and Carpenter may be displaced by any green trading card. */
static void test_r8_czar_and_carpenter_takes_any_green_trading_card(void **unused)
{
    (void)unused;
    scn s = fresh(2);
    scn_put(&s, C(CZAR_AND_CARPENTER), SCN_DISPLAY, 0);
    scn_put(&s, C(SHIP_BUILDER), SCN_DISPLAY, 0);
    scn_put(&s, C(WEAVING_MILL), SCN_UPPER, 0);
    scn_put(&s, C(WHARF), SCN_UPPER, 0);
    scn_put(&s, C(GOLD_SMELTER), SCN_LOWER, 0);
    scn_turn(&s, TRADING, 0);
    assert_true(legal(&s, "buy Weaving Mill from upper displacing Czar and Carpenter"));
    assert_true(legal(&s, "buy Gold Smelter from lower displacing Czar and Carpenter"));
    assert_true(legal(&s, "buy Wharf from upper displacing Czar and Carpenter"));
    assert_true(legal(&s, "buy Wharf from upper displacing Ship Builder"));
    assert_int_equal(legal(&s, "buy Weaving Mill from upper displacing Shepherd"), 0);
    assert_int_equal(price(&s, 0, C(WHARF), UPPER, C(CZAR_AND_CARPENTER)), 4);
    assert_int_equal(price(&s, 0, C(WEAVING_MILL), UPPER, C(CZAR_AND_CARPENTER)), 1); /* 8 − 8 → 1 */
    int d = discards(&s, C(CZAR_AND_CARPENTER));
    scn_do(&s, "buy Weaving Mill from upper displacing Czar and Carpenter");
    assert_int_equal(rub(&s, 0), 24);
    assert_int_equal(disp(&s, 0, C(WEAVING_MILL)), 1);
    assert_int_equal(disp(&s, 0, C(CZAR_AND_CARPENTER)), 0);
    assert_int_equal(discards(&s, C(CZAR_AND_CARPENTER)), d + 1);
    scn_do(&s, "pass"); /* seat 1 */
    expect_illegal(&s, "buy Wharf from upper displacing Czar and Carpenter");
    scn_do(&s, "buy Wharf from upper displacing Ship Builder");
    assert_int_equal(rub(&s, 0), 19);
    assert_int_equal(disp(&s, 0, C(SHIP_BUILDER)), 0);
    done(&s);
}

/* R8 (§6.2): blue trading cards displace any building, orange any aristocrat (here the most expensive ones). */
static void test_r8_blue_and_orange_targets(void **unused)
{
    (void)unused;
    scn s = fresh(2);
    scn_put(&s, C(ACADEMY), SCN_DISPLAY, 0);
    scn_put(&s, C(OBSERVATORY), SCN_DISPLAY, 0);
    scn_put(&s, C(JUDGE), SCN_DISPLAY, 0);
    scn_put(&s, C(WINTER_PALACE), SCN_UPPER, 0);
    scn_put(&s, C(CZAR), SCN_HAND, 0);
    scn_turn(&s, ARISTOCRAT, 0);
    assert_true(legal(&s, "buy Winter Palace from upper displacing Academy"));
    assert_true(legal(&s, "buy Winter Palace from upper displacing Observatory")); /* face up: a target */
    assert_int_equal(legal_kind(&s, STPETE_ACTION_BUY, C(WINTER_PALACE)), 2);
    assert_int_equal(legal_kind(&s, STPETE_ACTION_PLAY, C(CZAR)), 1);
    scn_do(&s, "buy Winter Palace from upper displacing Academy"); /* 19 − 23 → 1 */
    assert_int_equal(rub(&s, 0), 24);
    assert_int_equal(disp(&s, 0, C(ACADEMY)), 0);
    scn_do(&s, "pass");
    scn_do(&s, "play Czar displacing Judge"); /* 24 − 16 = 8 */
    assert_int_equal(rub(&s, 0), 16);
    assert_int_equal(disp(&s, 0, C(CZAR)), 1);
    assert_int_equal(disp(&s, 0, C(JUDGE)), 0);
    assert_int_equal(hand_size(&s, 0), 0);
    assert_int_equal(disp_size(&s, 0), 3); /* Winter Palace, Observatory, Czar */
    done(&s);
}

/* ==== §7.1 Observatory: R9 ====================================================================== */

/* R9 (§7.1): draw the top card of a stack as the turn's action (two-step decision), then buy it at its
 * price without lower-row discount. */
static void test_r9_observatory_draw_and_buy(void **unused)
{
    (void)unused;
    scn s = fresh(2);
    scn_put(&s, C(OBSERVATORY), SCN_DISPLAY, 0);
    scn_put(&s, C(CARPENTER_WORKSHOP), SCN_DISPLAY, 0);
    scn_put(&s, C(MARKET), SCN_DISPLAY, 0);
    scn_put(&s, C(LIBRARY), SCN_UPPER, 0);
    scn_put(&s, C(MARKET), SCN_STACK_TOP, STPETE_STACK_BUILDING);
    scn_turn(&s, BUILDING, 0);
    int b = stack_size(&s, STPETE_STACK_BUILDING);
    assert_true(legal(&s, "observatory building"));
    assert_true(legal(&s, "observatory worker"));
    assert_true(legal(&s, "observatory aristocrat"));
    assert_true(legal(&s, "observatory trading"));

    scn_do(&s, "observatory building");
    assert_int_equal(stpete_state_decision(s.st), STPETE_DECISION_OBSERVATORY);
    assert_int_equal(stpete_state_observatory_card(s.st), C(MARKET));
    assert_int_equal(stack_size(&s, STPETE_STACK_BUILDING), b - 1);
    assert_int_equal(current(&s), 0);
    assert_int_equal(stpete_state_observatories_used(s.st, 0), 1);
    assert_int_equal(scn_card_total(scn_core(&s)), STPETE_NUM_CARDS); /* the drawn card is counted */
    /* exactly buy / take / discard */
    assert_int_equal(legal_total(&s), 3);
    assert_true(legal(&s, "observatory buy Market"));
    assert_true(legal(&s, "observatory take"));
    assert_true(legal(&s, "observatory discard"));
    expect_illegal(&s, "pass");
    expect_illegal(&s, "buy Library from upper");
    expect_illegal(&s, "observatory buy Library");
    expect_illegal(&s, "observatory trading");
    /* 5 − 1 (same name) − 1 (Workshop), no lower-row discount */
    assert_int_equal(price(&s, 0, C(MARKET), OBS, -1), 3);
    assert_int_equal(price(&s, 0, C(MARKET), LOWER, -1), 2);

    scn_do(&s, "observatory buy Market");
    assert_int_equal(rub(&s, 0), 22);
    assert_int_equal(disp(&s, 0, C(MARKET)), 2);
    assert_int_equal(stpete_state_observatory_card(s.st), -1);
    assert_int_equal(stpete_state_decision(s.st), STPETE_DECISION_TURN);
    assert_int_equal(current(&s), 1);
    assert_int_equal(row_size(&s, UPPER), 1);
    done(&s);
}

/* The longest refusal the library writes (237 bytes: the longest action string and the longest reason found, with
 * every id tried in every position of random games, both editions, 2-5 players) comes back whole from
 * stpete_state_last_error(): the state's message (STPETE_ERRMSG_SIZE) holds it. */
static void test_longest_refusal_is_whole(void **unused)
{
    (void)unused;
    static const char *const expected =
        "action 830 (observatory buy Church of the Resurrection of Jesus Christ displacing Potjomkin's Village) is "
        "not legal: Church of the Resurrection of Jesus Christ must displace a Potjomkin's Village, and the display "
        "of seat 0 has none (§6)";
    scn s = fresh(2);
    scn_put(&s, C(OBSERVATORY), SCN_DISPLAY, 0);
    scn_put(&s, C(CHURCH_OF_THE_RESURRECTION), SCN_STACK_TOP, STPETE_STACK_TRADING);
    scn_turn(&s, BUILDING, 0);
    scn_do(&s, "observatory trading"); /* seat 0 draws the Church, and has no Potjomkin's Village */
    const char *buy = "observatory buy Church of the Resurrection of Jesus Christ displacing Potjomkin's Village";
    assert_int_equal(scn_id(buy), 830);
    assert_int_equal(stpete_state_apply_string(s.st, buy), STPETE_E_ILLEGAL_ACTION);
    assert_int_equal(strlen(expected), 237);
    assert_string_equal(stpete_state_last_error(s.st), expected);
    assert_true(strlen(expected) < STPETE_ERRMSG_SIZE);
    done(&s);
}

/* R9 (§7.1): take the drawn card into hand if below the limit; discard is always possible. */
static void test_r9_observatory_take_or_discard(void **unused)
{
    (void)unused;
    scn s = fresh(2);
    scn_put(&s, C(OBSERVATORY), SCN_DISPLAY, 0);
    scn_put(&s, C(OBSERVATORY), SCN_DISPLAY, 1);
    scn_put(&s, C(MARKET), SCN_HAND, 0);
    scn_put(&s, C(AUTHOR), SCN_HAND, 0);
    scn_put(&s, C(LUMBERJACK), SCN_HAND, 1);
    scn_put(&s, C(SHEPHERD), SCN_HAND, 1);
    scn_put(&s, C(POPE), SCN_HAND, 1);
    scn_put(&s, C(JUDGE), SCN_STACK_TOP, STPETE_STACK_ARISTOCRAT);
    scn_put(&s, C(HOSPITAL), SCN_STACK_TOP, STPETE_STACK_BUILDING);
    scn_turn(&s, BUILDING, 0);
    int a = stack_size(&s, STPETE_STACK_ARISTOCRAT), b = stack_size(&s, STPETE_STACK_BUILDING);

    scn_do(&s, "observatory aristocrat"); /* seat 0 */
    assert_int_equal(stpete_state_observatory_card(s.st), C(JUDGE));
    scn_do(&s, "observatory take");
    assert_int_equal(hand_size(&s, 0), 3);
    assert_int_equal(hand_count(&s, 0, C(JUDGE)), 1);
    assert_int_equal(rub(&s, 0), 25);
    assert_int_equal(stack_size(&s, STPETE_STACK_ARISTOCRAT), a - 1);

    int d = discards(&s, C(HOSPITAL));
    scn_do(&s, "observatory building"); /* seat 1, hand full */
    assert_int_equal(stpete_state_observatory_card(s.st), C(HOSPITAL));
    expect_illegal(&s, "observatory take");
    assert_true(legal(&s, "observatory buy Hospital"));
    scn_do(&s, "observatory discard");
    assert_int_equal(discards(&s, C(HOSPITAL)), d + 1);
    assert_int_equal(hand_size(&s, 1), 3);
    assert_int_equal(rub(&s, 1), 25);
    assert_int_equal(stack_size(&s, STPETE_STACK_BUILDING), b - 1);
    assert_int_equal(current(&s), 0);
    done(&s);
}

/* R9 (§7.1, §6): a drawn trading card must displace as usual; the Observatory just used is face down and cannot
 * be its target; with a target the price has no lower-row discount. */
static void test_r9_observatory_trading_card_must_displace(void **unused)
{
    (void)unused;
    scn s = fresh(2);
    scn_put(&s, C(OBSERVATORY), SCN_DISPLAY, 0);
    scn_put(&s, C(OBSERVATORY), SCN_DISPLAY, 1);
    scn_put(&s, C(SHIP_BUILDER), SCN_DISPLAY, 1);
    scn_put(&s, C(WHARF), SCN_STACK_TOP, STPETE_STACK_TRADING);
    scn_put(&s, C(BANK), SCN_STACK_TOP, STPETE_STACK_TRADING);
    scn_turn(&s, BUILDING, 0);

    scn_do(&s, "observatory trading"); /* seat 0 draws the Bank */
    assert_int_equal(stpete_state_observatory_card(s.st), C(BANK));
    expect_illegal(&s, "observatory buy Bank displacing Observatory"); /* face down now */
    expect_illegal(&s, "observatory buy Bank displacing Market");
    assert_int_equal(legal_kind(&s, STPETE_ACTION_OBSERVATORY_BUY, -1), 0);
    assert_int_equal(legal_total(&s), 2); /* take, discard */
    int d = discards(&s, C(BANK));
    scn_do(&s, "observatory discard");
    assert_int_equal(discards(&s, C(BANK)), d + 1);
    assert_int_equal(disp(&s, 0, C(OBSERVATORY)), 1);

    scn_do(&s, "observatory trading"); /* seat 1 draws the Wharf */
    assert_int_equal(stpete_state_observatory_card(s.st), C(WHARF));
    assert_int_equal(price(&s, 1, C(WHARF), OBS, C(SHIP_BUILDER)), 5);
    expect_illegal(&s, "observatory buy Wharf displacing Czar and Carpenter");
    scn_do(&s, "observatory buy Wharf displacing Ship Builder");
    assert_int_equal(rub(&s, 1), 20);
    assert_int_equal(disp(&s, 1, C(WHARF)), 1);
    assert_int_equal(disp(&s, 1, C(SHIP_BUILDER)), 0);
    done(&s);
}

/* R9 (§7.1): the Observatory works in the building phase only. */
static void test_r9_observatory_building_phase_only(void **unused)
{
    (void)unused;
    scn s = fresh(2);
    scn_put(&s, C(OBSERVATORY), SCN_DISPLAY, 0);
    const int phases[] = { WORKER, ARISTOCRAT, TRADING };
    for (int i = 0; i < 3; i++) {
        scn_turn(&s, phases[i], 0);
        expect_illegal(&s, "observatory building");
        expect_illegal(&s, "observatory worker");
        assert_int_equal(legal_kind(&s, STPETE_ACTION_OBSERVATORY, -1), 0);
    }
    scn_turn(&s, BUILDING, 0);
    assert_int_equal(legal_kind(&s, STPETE_ACTION_OBSERVATORY, -1), 4);
    scn_turn(&s, BUILDING, 1); /* seat 1 has no Observatory */
    expect_illegal(&s, "observatory building");
    done(&s);
}

/* R9 (§7.1, §4.6): only a stack of at least 2 cards; so a draw never takes the last card nor ends the game. */
static void test_r9_observatory_needs_two_cards_in_stack(void **unused)
{
    (void)unused;
    scn s = fresh(2);
    scn_put(&s, C(OBSERVATORY), SCN_DISPLAY, 0);
    scn_put(&s, C(AUTHOR), SCN_STACK_TOP, STPETE_STACK_ARISTOCRAT);
    trim_stack(&s, STPETE_STACK_BUILDING, 1);
    trim_stack(&s, STPETE_STACK_ARISTOCRAT, 2);
    scn_turn(&s, BUILDING, 0);
    expect_illegal(&s, "observatory building");
    assert_int_equal(legal_kind(&s, STPETE_ACTION_OBSERVATORY, -1), 3);
    scn_do(&s, "observatory aristocrat");
    assert_int_equal(stpete_state_observatory_card(s.st), C(AUTHOR));
    assert_int_equal(stack_size(&s, STPETE_STACK_ARISTOCRAT), 1);
    scn_do(&s, "observatory buy Author");
    assert_int_equal(rub(&s, 0), 21);
    assert_int_equal(tg_is_final_round(s.st), 0);
    done(&s);
}

/* R9 (§7.1): a used Observatory is face down: no VP at this round's building scoring and not displaceable until
 * it is turned face up at the start of the next round. */
static void test_r9_face_down_observatory_no_vp_not_displaceable(void **unused)
{
    (void)unused;
    scn s = fresh(2);
    scn_put(&s, C(OBSERVATORY), SCN_DISPLAY, 0);
    scn_put(&s, C(MARKET), SCN_DISPLAY, 0);
    scn_put(&s, C(OBSERVATORY), SCN_DISPLAY, 1);
    scn_put(&s, C(BANK), SCN_UPPER, 0);
    scn_put(&s, C(PETERHOF), SCN_UPPER, 0);
    scn_turn(&s, BUILDING, 0);

    scn_do(&s, "observatory aristocrat"); /* seat 0 */
    scn_do(&s, "observatory discard");
    assert_int_equal(stpete_state_observatories_used(s.st, 0), 1);
    assert_true(legal(&s, "buy Peterhof from upper displacing Observatory")); /* seat 1: face up, 14 − 6 */
    assert_int_equal(price(&s, 1, C(PETERHOF), UPPER, C(OBSERVATORY)), 8);
    scn_do(&s, "pass"); /* seat 1 */
    expect_illegal(&s, "buy Bank from upper displacing Observatory");
    assert_true(legal(&s, "buy Bank from upper displacing Market"));
    assert_int_equal(legal_kind(&s, STPETE_ACTION_BUY, C(BANK)), 1);
    scn_do(&s, "pass"); /* seat 0: building phase ends */

    /* building scoring: seat 0 Market 1 VP, face-down Observatory 0; seat 1 face-up Observatory 1 VP */
    assert_int_equal(stpete_state_phase(s.st), ARISTOCRAT);
    assert_int_equal(scn_vp(&s, 0), 1);
    assert_int_equal(scn_vp(&s, 1), 1);
    assert_int_equal(stpete_state_observatories_used(s.st, 0), 1);
    assert_int_equal(current(&s), 0);
    expect_illegal(&s, "buy Bank from upper displacing Observatory"); /* still face down */
    pass_n(&s, 2); /* aristocrat */
    assert_int_equal(stpete_state_phase(s.st), TRADING);
    assert_int_equal(current(&s), 1);
    scn_do(&s, "pass");
    expect_illegal(&s, "buy Bank from upper displacing Observatory");
    scn_do(&s, "pass"); /* end of round 1: Observatories face up */

    assert_int_equal(stpete_state_round(s.st), 2);
    assert_int_equal(stpete_state_observatories_used(s.st, 0), 0);
    assert_int_equal(row_count(&s, LOWER, C(BANK)), 1);
    assert_int_equal(current(&s), 1);
    scn_do(&s, "pass"); /* seat 1 */
    int d = discards(&s, C(OBSERVATORY));
    assert_int_equal(price(&s, 0, C(BANK), LOWER, C(OBSERVATORY)), 6);
    scn_do(&s, "buy Bank from lower displacing Observatory");
    assert_int_equal(rub(&s, 0), 19);
    assert_int_equal(disp(&s, 0, C(OBSERVATORY)), 0);
    assert_int_equal(disp(&s, 0, C(BANK)), 1);
    assert_int_equal(discards(&s, C(OBSERVATORY)), d + 1);
    done(&s);
}

/* R9 (§7.1): each copy is used at most once per round; a player with both may use both. */
static void test_r9_each_observatory_once_per_round(void **unused)
{
    (void)unused;
    scn s = fresh(2);
    scn_put(&s, C(OBSERVATORY), SCN_DISPLAY, 0);
    scn_put(&s, C(OBSERVATORY), SCN_DISPLAY, 0);
    scn_put(&s, C(MARKET), SCN_DISPLAY, 1);
    scn_turn(&s, BUILDING, 0);
    int b = stack_size(&s, STPETE_STACK_BUILDING);

    scn_do(&s, "observatory building"); /* seat 0, first copy */
    scn_do(&s, "observatory discard");
    scn_do(&s, "pass"); /* seat 1 */
    assert_true(legal(&s, "observatory building"));
    scn_do(&s, "observatory building"); /* seat 0, second copy */
    scn_do(&s, "observatory discard");
    assert_int_equal(stpete_state_observatories_used(s.st, 0), 2);
    assert_int_equal(stack_size(&s, STPETE_STACK_BUILDING), b - 2);
    scn_do(&s, "pass"); /* seat 1 */
    expect_illegal(&s, "observatory building");
    expect_illegal(&s, "observatory trading");
    assert_int_equal(legal_kind(&s, STPETE_ACTION_OBSERVATORY, -1), 0);
    scn_do(&s, "pass"); /* seat 0: building phase ends */
    assert_int_equal(scn_vp(&s, 0), 0); /* both face down */
    assert_int_equal(scn_vp(&s, 1), 1);
    done(&s);
}

/* R9 (§7.1): a player with a single Observatory cannot use it twice in a round. */
static void test_r9_single_observatory_not_twice(void **unused)
{
    (void)unused;
    scn s = fresh(2);
    scn_put(&s, C(OBSERVATORY), SCN_DISPLAY, 0);
    scn_turn(&s, BUILDING, 0);
    scn_do(&s, "observatory worker");
    scn_do(&s, "observatory discard");
    scn_do(&s, "pass"); /* seat 1 */
    expect_illegal(&s, "observatory worker");
    scn_do(&s, "pass");
    assert_int_equal(stpete_state_phase(s.st), ARISTOCRAT);
    assert_int_equal(scn_vp(&s, 0), 0);
    done(&s);
}

/* R9 (§7.1, §4.3): an Observatory bought in the building phase can be used in the same phase; the draw and its
 * resolution are one action (it resets the pass count); an unused new Observatory scores its 1 VP. */
static void test_r9_observatory_bought_and_used_same_phase(void **unused)
{
    (void)unused;
    scn s = fresh(2);
    scn_put(&s, C(OBSERVATORY), SCN_UPPER, 0);
    scn_put(&s, C(OBSERVATORY), SCN_LOWER, 0);
    scn_put(&s, C(FIREHOUSE), SCN_STACK_TOP, STPETE_STACK_BUILDING);
    scn_turn(&s, BUILDING, 0);
    scn_do(&s, "buy Observatory from upper"); /* seat 0: 6 */
    assert_int_equal(rub(&s, 0), 19);
    scn_do(&s, "buy Observatory from lower"); /* seat 1: 6 − 1 */
    assert_int_equal(rub(&s, 1), 20);
    scn_do(&s, "pass"); /* seat 0 */
    assert_int_equal(stpete_state_consecutive_passes(s.st), 1);
    scn_do(&s, "observatory building"); /* seat 1 uses the card bought this phase */
    assert_int_equal(stpete_state_consecutive_passes(s.st), 0);
    assert_int_equal(stpete_state_observatory_card(s.st), C(FIREHOUSE));
    assert_int_equal(price(&s, 1, C(FIREHOUSE), OBS, -1), 11);
    scn_do(&s, "observatory buy Firehouse");
    assert_int_equal(rub(&s, 1), 9);
    assert_int_equal(disp(&s, 1, C(FIREHOUSE)), 1);
    assert_int_equal(stpete_state_consecutive_passes(s.st), 0);
    scn_do(&s, "pass"); /* seat 0 */
    assert_int_equal(stpete_state_phase(s.st), BUILDING);
    scn_do(&s, "pass"); /* seat 1 */
    assert_int_equal(stpete_state_phase(s.st), ARISTOCRAT);
    assert_int_equal(scn_vp(&s, 0), 1); /* unused Observatory */
    assert_int_equal(scn_vp(&s, 1), 3); /* Firehouse 3, face-down Observatory 0 */
    done(&s);
}

/* ==== §7.2 Pub: R10 ============================================================================= */

/* R10 (§7.2): right after building scoring a Pub owner buys VP at 2 R each; only then, never as a turn. */
static void test_r10_pub_buys_vp_after_building_scoring(void **unused)
{
    (void)unused;
    scn s = fresh(2);
    scn_put(&s, C(PUB), SCN_DISPLAY, 0);
    scn_put(&s, C(MARKET), SCN_DISPLAY, 0);
    scn_set_rubles(&s, 0, 9);
    scn_turn(&s, BUILDING, 0);
    expect_illegal(&s, "pub 1"); /* not a turn action */
    pass_n(&s, 2);
    assert_int_equal(stpete_state_decision(s.st), STPETE_DECISION_PUB);
    assert_int_equal(stpete_state_phase(s.st), BUILDING);
    assert_int_equal(current(&s), 0);
    assert_int_equal(scn_vp(&s, 0), 1); /* building scoring came first */
    assert_int_equal(legal_total(&s), 5); /* pub 0..4: 9 R buys at most 4 VP */
    assert_int_equal(legal_kind(&s, STPETE_ACTION_PUB, -1), 5);
    expect_illegal(&s, "pub 5");
    expect_illegal(&s, "pass");
    scn_do(&s, "pub 3");
    assert_int_equal(rub(&s, 0), 3);
    assert_int_equal(scn_vp(&s, 0), 4);
    assert_int_equal(stpete_state_decision(s.st), STPETE_DECISION_TURN);
    assert_int_equal(stpete_state_phase(s.st), ARISTOCRAT);
    assert_int_equal(current(&s), 0);
    done(&s);
}

/* R10 (§7.2): up to 5 VP per Pub owned (default). */
static void test_r10_pub_cap_five_per_pub(void **unused)
{
    (void)unused;
    scn s = fresh(2);
    scn_put(&s, C(PUB), SCN_DISPLAY, 0);
    scn_put(&s, C(PUB), SCN_DISPLAY, 0);
    scn_put(&s, C(CUSTOMS_HOUSE), SCN_DISPLAY, 1);
    scn_set_rubles(&s, 0, 30);
    scn_set_rubles(&s, 1, 30);
    scn_turn(&s, BUILDING, 0);
    pass_n(&s, 2);
    /* seat 1 has no Pub: only seat 0 decides */
    assert_int_equal(current(&s), 0);
    assert_int_equal(legal_kind(&s, STPETE_ACTION_PUB, -1), 11); /* 0..10 */
    scn_do(&s, "pub 10");
    assert_int_equal(rub(&s, 0), 10);
    assert_int_equal(scn_vp(&s, 0), 10);
    assert_int_equal(rub(&s, 1), 30);
    assert_int_equal(scn_vp(&s, 1), 2);
    assert_int_equal(stpete_state_phase(s.st), ARISTOCRAT);

    /* one Pub each (one of seat 0's moves to seat 1): at most 5 */
    scn_put(&s, C(PUB), SCN_DISPLAY, 1);
    assert_int_equal(disp(&s, 0, C(PUB)), 1);
    scn_set_rubles(&s, 0, 30);
    scn_turn(&s, BUILDING, 0);
    pass_n(&s, 2);
    assert_int_equal(current(&s), 1); /* building marker of seat 1: seat 1 decides first */
    assert_int_equal(legal_kind(&s, STPETE_ACTION_PUB, -1), 6);
    expect_illegal(&s, "pub 6");
    scn_do(&s, "pub 5");
    assert_int_equal(current(&s), 0);
    expect_illegal(&s, "pub 6");
    scn_do(&s, "pub 0");
    assert_int_equal(rub(&s, 1), 20);
    assert_int_equal(scn_vp(&s, 1), 2 + 2 + 5);
    assert_int_equal(rub(&s, 0), 30);
    assert_int_equal(scn_vp(&s, 0), 10);
    assert_int_equal(stpete_state_phase(s.st), ARISTOCRAT);
    done(&s);
}

/* R10 (§7.2 [option]): STPETE_PUB_CAP_PER_PLAYER: up to 5 VP per player, however many Pubs. */
static void test_r10_pub_cap_option_per_player(void **unused)
{
    (void)unused;
    stpete_options o;
    stpete_options_init(&o);
    o.players = 2;
    o.pub_cap = STPETE_PUB_CAP_PER_PLAYER;
    scn s = fresh_opts(&o);
    scn_put(&s, C(PUB), SCN_DISPLAY, 0);
    scn_put(&s, C(PUB), SCN_DISPLAY, 0);
    scn_set_rubles(&s, 0, 30);
    scn_turn(&s, BUILDING, 0);
    pass_n(&s, 2);
    assert_int_equal(current(&s), 0);
    assert_int_equal(legal_kind(&s, STPETE_ACTION_PUB, -1), 6); /* 0..5 */
    expect_illegal(&s, "pub 6");
    scn_do(&s, "pub 5");
    assert_int_equal(rub(&s, 0), 20);
    assert_int_equal(scn_vp(&s, 0), 5);
    assert_int_equal(stpete_state_phase(s.st), ARISTOCRAT);
    done(&s);
}

/* R10 (§7.2): owners decide in turn order from the building phase's start player; only with at least 2 R. */
static void test_r10_pub_order_and_two_rubles(void **unused)
{
    (void)unused;
    scn s = fresh(4);
    set_markers(&s, 1, 2, 3, 0); /* building start player: seat 2, so the order is 2, 3, 0, 1 */
    scn_put(&s, C(PUB), SCN_DISPLAY, 0);
    scn_put(&s, C(PUB), SCN_DISPLAY, 3);
    scn_turn(&s, BUILDING, 2);
    pass_n(&s, 4);
    assert_int_equal(stpete_state_decision(s.st), STPETE_DECISION_PUB);
    assert_int_equal(current(&s), 3); /* seat 3 before seat 0 */
    assert_int_equal(legal_kind(&s, STPETE_ACTION_PUB, -1), 6);
    scn_do(&s, "pub 1");
    assert_int_equal(stpete_state_decision(s.st), STPETE_DECISION_PUB);
    assert_int_equal(current(&s), 0);
    scn_do(&s, "pub 2");
    assert_int_equal(stpete_state_decision(s.st), STPETE_DECISION_TURN);
    assert_int_equal(stpete_state_phase(s.st), ARISTOCRAT);
    assert_int_equal(current(&s), 3); /* aristocrat marker */
    assert_int_equal(rub(&s, 3), 23);
    assert_int_equal(scn_vp(&s, 3), 1);
    assert_int_equal(rub(&s, 0), 21);
    assert_int_equal(scn_vp(&s, 0), 2);
    assert_int_equal(rub(&s, 1), 25);
    assert_int_equal(rub(&s, 2), 25);
    done(&s);

    /* a Pub owner with 1 R has no choice and is skipped; with 2 R the choice is 0 or 1 */
    s = fresh(2);
    scn_put(&s, C(PUB), SCN_DISPLAY, 0);
    scn_put(&s, C(PUB), SCN_DISPLAY, 1);
    scn_set_rubles(&s, 0, 2);
    scn_set_rubles(&s, 1, 1);
    scn_turn(&s, BUILDING, 0);
    pass_n(&s, 2);
    assert_int_equal(stpete_state_decision(s.st), STPETE_DECISION_PUB);
    assert_int_equal(current(&s), 0); /* seat 1 (building start) skipped: 1 R */
    assert_int_equal(legal_total(&s), 2);
    scn_do(&s, "pub 1");
    assert_int_equal(rub(&s, 0), 0);
    assert_int_equal(scn_vp(&s, 0), 1);
    assert_int_equal(rub(&s, 1), 1);
    assert_int_equal(stpete_state_phase(s.st), ARISTOCRAT);
    assert_int_equal(stpete_state_decision(s.st), STPETE_DECISION_TURN);

    /* nobody with 2 R: straight on to the aristocrat phase */
    scn_set_rubles(&s, 0, 1);
    scn_turn(&s, BUILDING, 0);
    pass_n(&s, 2);
    assert_int_equal(stpete_state_phase(s.st), ARISTOCRAT);
    assert_int_equal(stpete_state_decision(s.st), STPETE_DECISION_TURN);
    done(&s);
}

/* ==== §7.3 Warehouse: R11 ======================================================================= */

/* R11 (§7.3): with the Warehouse the hand limit is 4; displaced, it is 3 at once with no forced discard, and the
 * owner cannot take until below 3. */
static void test_r11_warehouse_hand_limit(void **unused)
{
    (void)unused;
    scn s = fresh(2);
    scn_put(&s, C(WAREHOUSE), SCN_DISPLAY, 0);
    scn_put(&s, C(MARKET), SCN_HAND, 0);
    scn_put(&s, C(AUTHOR), SCN_HAND, 0);
    scn_put(&s, C(LUMBERJACK), SCN_HAND, 0);
    scn_put(&s, C(CUSTOMS_HOUSE), SCN_UPPER, 0);
    scn_put(&s, C(POPE), SCN_UPPER, 0);
    scn_put(&s, C(BANK), SCN_UPPER, 0);
    scn_turn(&s, WORKER, 0);
    assert_int_equal(stpete_state_hand_limit(s.st, 0), 4);
    assert_int_equal(stpete_state_hand_limit(s.st, 1), 3);

    scn_do(&s, "take Customs House from upper"); /* seat 0: 4th card */
    assert_int_equal(hand_size(&s, 0), 4);
    scn_do(&s, "pass"); /* seat 1 */
    expect_illegal(&s, "take Pope from upper");
    int d = discards(&s, C(WAREHOUSE));
    assert_int_equal(price(&s, 0, C(BANK), UPPER, C(WAREHOUSE)), 11);
    scn_do(&s, "buy Bank from upper displacing Warehouse");
    assert_int_equal(rub(&s, 0), 14);
    assert_int_equal(discards(&s, C(WAREHOUSE)), d + 1);
    assert_int_equal(stpete_state_hand_limit(s.st, 0), 3);
    assert_int_equal(hand_size(&s, 0), 4); /* no forced discard */

    scn_do(&s, "pass"); /* seat 1 */
    expect_illegal(&s, "take Pope from upper");
    scn_do(&s, "play Market");
    assert_int_equal(rub(&s, 0), 9);
    assert_int_equal(hand_size(&s, 0), 3);
    scn_do(&s, "pass"); /* seat 1 */
    expect_illegal(&s, "take Pope from upper"); /* 3 is not below 3 */
    scn_do(&s, "play Author");
    assert_int_equal(rub(&s, 0), 5);
    scn_do(&s, "pass"); /* seat 1 */
    scn_do(&s, "take Pope from upper");
    assert_int_equal(hand_size(&s, 0), 3);
    assert_int_equal(hand_count(&s, 0, C(POPE)), 1);
    done(&s);
}

/* ==== §7.4 Potjomkin's Village ================================================================== */

/* §7.4: costs 2 (discounts apply, minimum 1) and scores nothing; worth 6 when displaced (see R7 test). */
static void test_s74_potjomkins_village(void **unused)
{
    (void)unused;
    scn s = fresh(2);
    scn_put(&s, C(POTJOMKINS_VILLAGE), SCN_UPPER, 0);
    scn_put(&s, C(CARPENTER_WORKSHOP), SCN_DISPLAY, 1);
    scn_turn(&s, BUILDING, 0);
    assert_int_equal(price(&s, 0, C(POTJOMKINS_VILLAGE), UPPER, -1), 2);
    assert_int_equal(price(&s, 1, C(POTJOMKINS_VILLAGE), LOWER, -1), 1); /* 2 − 1 − 1 → 1 */
    scn_do(&s, "buy Potjomkin's Village from upper");
    assert_int_equal(rub(&s, 0), 23);
    assert_int_equal(disp(&s, 0, C(POTJOMKINS_VILLAGE)), 1);
    scn_do(&s, "pass");
    scn_do(&s, "pass");
    assert_int_equal(stpete_state_phase(s.st), ARISTOCRAT);
    assert_int_equal(rub(&s, 0), 23); /* building scoring: nothing */
    assert_int_equal(scn_vp(&s, 0), 0);
    done(&s);
}

/* ==== §7.5 Mariinskij-Theater and Tax Man: R12 ================================================== */

/* R12 (§7.5): Mariinskij-Theater: +1 R per orange card in the display at building scoring, orange trading cards
 * and duplicates included, hand cards not. */
static void test_r12_mariinskij_theater(void **unused)
{
    (void)unused;
    scn s = fresh(2);
    scn_put(&s, C(MARIINSKIJ_THEATER), SCN_DISPLAY, 0);
    scn_put(&s, C(AUTHOR), SCN_DISPLAY, 0);
    scn_put(&s, C(AUTHOR), SCN_DISPLAY, 0);
    scn_put(&s, C(SENATOR), SCN_DISPLAY, 0);
    scn_put(&s, C(MARKET), SCN_DISPLAY, 0);
    scn_put(&s, C(ADMINISTRATOR), SCN_HAND, 0);
    scn_put(&s, C(AUTHOR), SCN_DISPLAY, 1); /* no Mariinskij: nothing */
    scn_turn(&s, BUILDING, 0);
    pass_n(&s, 2);
    assert_int_equal(stpete_state_phase(s.st), ARISTOCRAT);
    assert_int_equal(rub(&s, 0), 25 + 3);
    assert_int_equal(scn_vp(&s, 0), 1);
    assert_int_equal(rub(&s, 1), 25);
    /* nothing at the aristocrat scoring beyond the aristocrats' own income */
    pass_n(&s, 2);
    assert_int_equal(rub(&s, 0), 28 + 1 + 1 + 2);
    assert_int_equal(scn_vp(&s, 0), 1 + 2);
    done(&s);
}

/* R12 (§7.5): Tax Man: +1 R per green card in the display at aristocrat scoring, green trading cards included,
 * hand cards not. */
static void test_r12_tax_man(void **unused)
{
    (void)unused;
    scn s = fresh(2);
    scn_put(&s, C(TAX_MAN), SCN_DISPLAY, 0);
    scn_put(&s, C(LUMBERJACK), SCN_DISPLAY, 0);
    scn_put(&s, C(WHARF), SCN_DISPLAY, 0);
    scn_put(&s, C(CZAR_AND_CARPENTER), SCN_DISPLAY, 0);
    scn_put(&s, C(AUTHOR), SCN_DISPLAY, 0);
    scn_put(&s, C(SHEPHERD), SCN_HAND, 0);
    scn_turn(&s, ARISTOCRAT, 0);
    pass_n(&s, 2);
    assert_int_equal(stpete_state_phase(s.st), TRADING);
    assert_int_equal(rub(&s, 0), 25 + 3 + 1);
    assert_int_equal(scn_vp(&s, 0), 0);
    /* nothing extra at the worker scoring */
    scn_turn(&s, WORKER, 0);
    pass_n(&s, 2);
    assert_int_equal(rub(&s, 0), 29 + 3 + 6 + 3);
    assert_int_equal(scn_vp(&s, 0), 1);
    done(&s);
}

/* ==== §5.1 Carpenter Workshop and Gold Smelter ================================================== */

/* §5.1 rule 3: Carpenter Workshop: −1 R on every blue card its owner buys or plays (buildings and blue trading
 * cards), not on other colours. */
static void test_s51_carpenter_workshop_blue_only(void **unused)
{
    (void)unused;
    scn s = fresh(2);
    scn_put(&s, C(CARPENTER_WORKSHOP), SCN_DISPLAY, 0);
    scn_put(&s, C(MARKET), SCN_DISPLAY, 0);
    scn_put(&s, C(CUSTOMS_HOUSE), SCN_HAND, 0);
    scn_put(&s, C(HERMITAGE), SCN_HAND, 0);
    scn_put(&s, C(AUTHOR), SCN_UPPER, 0);
    scn_put(&s, C(LUMBERJACK), SCN_UPPER, 0);
    scn_turn(&s, BUILDING, 0);
    assert_int_equal(price(&s, 0, C(CUSTOMS_HOUSE), HAND, -1), 7);
    assert_int_equal(price(&s, 0, C(HERMITAGE), HAND, C(MARKET)), 18 - 5 - 1);
    assert_int_equal(price(&s, 0, C(AUTHOR), UPPER, -1), 4);
    assert_int_equal(price(&s, 0, C(LUMBERJACK), UPPER, -1), 3);
    assert_int_equal(price(&s, 1, C(CUSTOMS_HOUSE), HAND, -1), 8);
    scn_do(&s, "play Customs House");
    assert_int_equal(rub(&s, 0), 18);
    scn_do(&s, "pass");
    scn_do(&s, "play Hermitage displacing Market");
    assert_int_equal(rub(&s, 0), 6);
    assert_int_equal(disp(&s, 0, C(HERMITAGE)), 1);
    assert_int_equal(disp(&s, 0, C(MARKET)), 0);
    scn_do(&s, "pass");
    scn_do(&s, "buy Author from upper");
    assert_int_equal(rub(&s, 0), 2);
    done(&s);
}

/* §5.1 rule 4: Gold Smelter: −1 R on every orange card its owner buys or plays (aristocrats and orange trading
 * cards), not on other colours. */
static void test_s51_gold_smelter_orange_only(void **unused)
{
    (void)unused;
    scn s = fresh(2);
    scn_put(&s, C(GOLD_SMELTER), SCN_DISPLAY, 0);
    scn_put(&s, C(AUTHOR), SCN_DISPLAY, 0);
    scn_put(&s, C(AUTHOR), SCN_UPPER, 0);
    scn_put(&s, C(SENATOR), SCN_UPPER, 0);
    scn_put(&s, C(MARKET), SCN_UPPER, 0);
    scn_put(&s, C(JUDGE), SCN_HAND, 0);
    scn_turn(&s, ARISTOCRAT, 0);
    assert_int_equal(price(&s, 0, C(AUTHOR), UPPER, -1), 4 - 1 - 1);
    assert_int_equal(price(&s, 0, C(SENATOR), UPPER, C(AUTHOR)), 12 - 4 - 1);
    assert_int_equal(price(&s, 0, C(POPE), UPPER, C(AUTHOR)), 1);
    assert_int_equal(price(&s, 0, C(MARKET), UPPER, -1), 5);
    assert_int_equal(price(&s, 0, C(JUDGE), HAND, -1), 15);
    scn_do(&s, "buy Senator from upper displacing Author");
    assert_int_equal(rub(&s, 0), 18);
    assert_int_equal(disp(&s, 0, C(AUTHOR)), 0);
    assert_int_equal(disp(&s, 0, C(SENATOR)), 1);
    scn_do(&s, "pass");
    scn_do(&s, "play Judge");
    assert_int_equal(rub(&s, 0), 3);
    scn_do(&s, "pass");
    scn_do(&s, "buy Author from upper"); /* no more Author in the display: 4 − 1 */
    assert_int_equal(rub(&s, 0), 0);
    done(&s);
}

/* ==== §8 final scoring: R13, R14 ================================================================ */

/* R13 (§8) rulebook example: 52 VP, six different aristocrats (one duplicated), 17 R, empty hand: 74 VP. */
static void test_r13_worked_example_74(void **unused)
{
    (void)unused;
    scn s = fresh(2);
    const int orange[] = { C(AUTHOR), C(AUTHOR), C(ADMINISTRATOR), C(WAREHOUSE_MANAGER), C(SECRETARY),
                           C(CONTROLLER), C(JUDGE) };
    for (int i = 0; i < 7; i++)
        scn_put(&s, orange[i], SCN_DISPLAY, 0);
    scn_core(&s)->p[0].vp = 52;
    scn_set_rubles(&s, 0, 17);
    to_final_trading(&s);
    stpete_score sc = STPETE_SCORE_INIT;
    assert_int_equal(stpete_state_get_score(s.st, 0, &sc), STPETE_OK); /* projection before the end */
    assert_int_equal(sc.total, 74);
    pass_n(&s, 2);
    assert_int_equal(tg_is_terminal(s.st), 1);
    assert_int_equal(scn_vp(&s, 0), 74);
    assert_int_equal(stpete_state_get_score(s.st, 0, &sc), STPETE_OK);
    assert_int_equal(sc.vp_before, 52);
    assert_int_equal(sc.aristocrat_kinds, 6);
    assert_int_equal(sc.aristocrat_bonus, 21);
    assert_int_equal(sc.rubles, 17);
    assert_int_equal(sc.rubles_bonus, 1);
    assert_int_equal(sc.hand_cards, 0);
    assert_int_equal(sc.hand_penalty, 0);
    assert_int_equal(sc.total, 74);
    assert_int_equal(sc.tie_break, 7);
    assert_int_equal(rub(&s, 0), 17); /* rubles are not spent by the conversion */
    done(&s);
}

/* R13 (§8): aristocrat table by different orange names (orange trading cards count), 10 or more → 55. */
static void test_r13_aristocrat_table_capped_at_55(void **unused)
{
    (void)unused;
    static const int table[] = { 0, 1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 55, 55, 55 };
    static const int names[] = { C(AUTHOR), C(POPE), C(ADMINISTRATOR), C(SENATOR), C(WAREHOUSE_MANAGER),
                                 C(CZAR), C(SECRETARY), C(CONTROLLER), C(JUDGE), C(MISTRESS_OF_CEREMONIES),
                                 C(WEAPON_MASTER), C(CHAMBER_MAID), C(BUILDER) };
    scn s = fresh(2);
    scn_set_rubles(&s, 0, 0);
    stpete_score sc = STPETE_SCORE_INIT;
    for (int k = 0; k <= 13; k++) {
        if (k > 0)
            scn_put(&s, names[k - 1], SCN_DISPLAY, 0);
        assert_int_equal(stpete_state_get_score(s.st, 0, &sc), STPETE_OK);
        assert_int_equal(sc.aristocrat_kinds, k);
        assert_int_equal(sc.aristocrat_bonus, table[k]);
        if (k == 3) { /* a second copy adds nothing */
            scn_put(&s, C(AUTHOR), SCN_DISPLAY, 0);
            assert_int_equal(stpete_state_get_score(s.st, 0, &sc), STPETE_OK);
            assert_int_equal(sc.aristocrat_kinds, 3);
            assert_int_equal(sc.aristocrat_bonus, 6);
        }
    }
    /* blue and green cards are not counted */
    scn_put(&s, C(BANK), SCN_DISPLAY, 0);
    scn_put(&s, C(WHARF), SCN_DISPLAY, 0);
    assert_int_equal(stpete_state_get_score(s.st, 0, &sc), STPETE_OK);
    assert_int_equal(sc.aristocrat_kinds, 13);
    to_final_trading(&s);
    pass_n(&s, 2);
    assert_int_equal(scn_vp(&s, 0), 55);
    assert_int_equal(scn_vp(&s, 1), 2);
    done(&s);
}

/* R13 (§8): +1 VP per full 10 R, −5 VP per hand card; VP may go negative. */
static void test_r13_rubles_and_hand_penalty(void **unused)
{
    (void)unused;
    scn s = fresh(2);
    scn_core(&s)->p[0].vp = 3;
    scn_set_rubles(&s, 0, 39);
    scn_put(&s, C(MARKET), SCN_HAND, 0);
    scn_put(&s, C(AUTHOR), SCN_HAND, 0);
    scn_put(&s, C(WHARF), SCN_HAND, 0);
    scn_set_rubles(&s, 1, 9);
    to_final_trading(&s);
    pass_n(&s, 2);
    assert_int_equal(tg_is_terminal(s.st), 1);
    assert_int_equal(scn_vp(&s, 0), 3 + 3 - 15);
    assert_int_equal(scn_vp(&s, 1), 0);
    stpete_score sc = STPETE_SCORE_INIT;
    assert_int_equal(stpete_state_get_score(s.st, 0, &sc), STPETE_OK);
    assert_int_equal(sc.vp_before, 3);
    assert_int_equal(sc.rubles_bonus, 3);
    assert_int_equal(sc.hand_cards, 3);
    assert_int_equal(sc.hand_penalty, -15);
    assert_int_equal(sc.total, -9);
    assert_int_equal(hand_size(&s, 0), 3); /* the cards stay in hand */
    unsigned mask = 0;
    assert_int_equal(stpete_state_winners(s.st, &mask), STPETE_OK);
    assert_int_equal(mask, 2u);
    done(&s);
}

/* R14 (§8): tie-break on R mod 10 by default (19 R beats 22 R), or total R with the option. */
static void run_tie(int tie_break, unsigned want)
{
    stpete_options o;
    stpete_options_init(&o);
    o.players = 2;
    o.tie_break = tie_break;
    scn s = fresh_opts(&o);
    scn_core(&s)->p[0].vp = 31;
    scn_set_rubles(&s, 0, 19); /* 32 VP, 9 left */
    scn_core(&s)->p[1].vp = 30;
    scn_set_rubles(&s, 1, 22); /* 32 VP, 2 left */
    unsigned mask = 0;
    assert_int_equal(stpete_state_winners(s.st, &mask), STPETE_E_NOT_TERMINAL);
    to_final_trading(&s);
    pass_n(&s, 2);
    assert_int_equal(scn_vp(&s, 0), 32);
    assert_int_equal(scn_vp(&s, 1), 32);
    assert_int_equal(stpete_state_winners(s.st, &mask), STPETE_OK);
    assert_int_equal(mask, want);
    stpete_score sc = STPETE_SCORE_INIT;
    assert_int_equal(stpete_state_get_score(s.st, 1, &sc), STPETE_OK);
    assert_int_equal(sc.tie_break, tie_break == STPETE_TIE_BREAK_RUBLES_TOTAL ? 22 : 2);
    done(&s);
}

static void test_r14_tie_break_mod_10_default(void **unused)
{
    (void)unused;
    run_tie(STPETE_TIE_BREAK_RUBLES_MOD_10, 1u);
}

static void test_r14_tie_break_total_option(void **unused)
{
    (void)unused;
    run_tie(STPETE_TIE_BREAK_RUBLES_TOTAL, 2u);
}

/* R14 (§8): still tied after the tie-break: a shared win (and the option can split it). */
static void test_r14_shared_win(void **unused)
{
    (void)unused;
    for (int opt = 0; opt <= 1; opt++) {
        stpete_options o;
        stpete_options_init(&o);
        o.players = 3;
        o.tie_break = opt ? STPETE_TIE_BREAK_RUBLES_TOTAL : STPETE_TIE_BREAK_RUBLES_MOD_10;
        scn s = fresh_opts(&o);
        scn_core(&s)->p[0].vp = 10;
        scn_set_rubles(&s, 0, 15); /* 11, 5 */
        scn_core(&s)->p[1].vp = 9;
        scn_set_rubles(&s, 1, 25); /* 11, 5 */
        scn_core(&s)->p[2].vp = 11;
        scn_set_rubles(&s, 2, 4); /* 11, 4 */
        to_final_trading(&s);
        pass_n(&s, 3);
        for (int i = 0; i < 3; i++)
            assert_int_equal(scn_vp(&s, i), 11);
        unsigned mask = 0;
        assert_int_equal(stpete_state_winners(s.st, &mask), STPETE_OK);
        assert_int_equal(mask, opt ? 2u : 3u);
        done(&s);
    }
}

/* ==== §3 setup: R15 ============================================================================= */

static int count_held(scn *s, int seat)
{
    int n = 0;
    for (int k = 0; k < 4; k++)
        n += stpete_state_marker_holder(s->st, k) == seat;
    return n;
}

/* R15 (§3): 25 R each, 0 VP; markers 1/1/1/1, 2/1/1, 2/2 at random; 2 workers per player in the upper row;
 * stacks 31 − 2N, 28, 27, 30. Over several seeds. */
static void test_r15_setup(void **unused)
{
    (void)unused;
    for (int players = 2; players <= 4; players++) {
        int doubles_seen = 0, first_holder_seen = 0;
        for (uint64_t seed = 1; seed <= 24; seed++) {
            scn s = scn_new(players, seed);
            for (int i = 0; i < players; i++) {
                assert_int_equal(rub(&s, i), 25);
                assert_int_equal(scn_vp(&s, i), 0);
                assert_int_equal(hand_size(&s, i), 0);
                assert_int_equal(disp_size(&s, i), 0);
                assert_int_equal(stpete_state_observatories_used(s.st, i), 0);
            }
            int cards[STPETE_BOARD_SIZE];
            size_t n = 0;
            assert_int_equal(stpete_state_row(s.st, UPPER, cards, STPETE_BOARD_SIZE, &n), STPETE_OK);
            assert_int_equal(n, (size_t)(2 * players));
            for (size_t i = 0; i < n; i++) {
                stpete_card_info info = STPETE_CARD_INFO_INIT;
                assert_int_equal(stpete_card_get_info(STPETE_EDITION_FIRST, cards[i], &info), STPETE_OK);
                assert_int_equal(info.colour, STPETE_COLOUR_GREEN);
                assert_int_equal(info.trading, 0);
            }
            assert_int_equal(row_size(&s, LOWER), 0);
            assert_int_equal(stack_size(&s, STPETE_STACK_WORKER), 31 - 2 * players);
            assert_int_equal(stack_size(&s, STPETE_STACK_BUILDING), 28);
            assert_int_equal(stack_size(&s, STPETE_STACK_ARISTOCRAT), 27);
            assert_int_equal(stack_size(&s, STPETE_STACK_TRADING), 30);
            int held2 = 0;
            for (int i = 0; i < players; i++) {
                int h = count_held(&s, i);
                if (players == 4)
                    assert_int_equal(h, 1);
                else if (players == 2)
                    assert_int_equal(h, 2);
                else
                    assert_true(h == 1 || h == 2);
                if (h == 2)
                    held2 |= 1 << i;
            }
            if (players == 3) {
                assert_true(held2 == 1 || held2 == 2 || held2 == 4); /* exactly one player holds two */
                doubles_seen |= held2;
            }
            first_holder_seen |= 1 << stpete_state_marker_holder(s.st, WORKER);
            assert_int_equal(stpete_state_round(s.st), 1);
            assert_int_equal(stpete_state_phase(s.st), WORKER);
            assert_int_equal(current(&s), stpete_state_marker_holder(s.st, WORKER));
            assert_int_equal(stpete_state_decision(s.st), STPETE_DECISION_TURN);
            assert_int_equal(stpete_state_consecutive_passes(s.st), 0);
            assert_int_equal(tg_is_final_round(s.st), 0);
            done(&s);
        }
        if (players == 3)
            assert_int_equal(doubles_seen, 7); /* the double holder is random */
        assert_int_equal(first_holder_seen, (1 << players) - 1);
    }
}

/* R15 (§3.3 [option]): an explicit start-marker assignment; invalid assignments are refused. */
static void test_r15_explicit_start_markers(void **unused)
{
    (void)unused;
    stpete_options o;
    stpete_options_init(&o);
    o.players = 2;
    o.start_markers[0] = 1;
    o.start_markers[1] = 0;
    o.start_markers[2] = 0;
    o.start_markers[3] = 1;
    for (uint64_t seed = 1; seed <= 4; seed++) {
        o.seed = seed;
        scn s = scn_new_opts(&o);
        for (int k = 0; k < 4; k++)
            assert_int_equal(stpete_state_marker_holder(s.st, k), o.start_markers[k]);
        assert_int_equal(current(&s), 1);
        done(&s);
    }
    o.players = 3;
    const int ok3[4] = { 2, 2, 0, 1 };
    memcpy(o.start_markers, ok3, sizeof ok3);
    scn s = scn_new_opts(&o);
    for (int k = 0; k < 4; k++)
        assert_int_equal(stpete_state_marker_holder(s.st, k), ok3[k]);
    assert_int_equal(current(&s), 2);
    /* the explicit markers move on at the end of the round like dealt ones (§4.5) */
    scn_clear_board(&s);
    scn_turn(&s, TRADING, 1);
    pass_n(&s, 3);
    assert_int_equal(stpete_state_marker_holder(s.st, WORKER), 0);
    assert_int_equal(stpete_state_marker_holder(s.st, ARISTOCRAT), 1);
    done(&s);

    const int bad[][5] = {
        /* players, markers */
        { 3, 0, 0, 0, 1 },  /* seat 2 holds none, seat 0 three */
        { 2, 0, 0, 0, 1 },  /* 3/1 */
        { 4, 0, 1, 2, 2 },  /* seat 3 holds none */
        { 2, 0, -1, -1, -1 }, /* partial */
        { 2, 0, 1, 0, 2 },  /* seat out of range */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        stpete_options b;
        stpete_options_init(&b);
        b.players = bad[i][0];
        for (int k = 0; k < 4; k++)
            b.start_markers[k] = bad[i][k + 1];
        stpete_game *g = (stpete_game *)1;
        assert_int_equal(stpete_game_new(&b, &g, NULL), STPETE_E_INVALID_ARGUMENT);
        assert_null(g);
    }
}

/* ==== the listing's own paths (issue 11): the legal-action list at the boundaries the check also decides ====== */

/* The legal-action listing computes affordability and targets on its own (legal.c); these positions sit exactly on
 * a boundary of each fact, and legal() requires the list and the check to agree, in both directions. */

/* §7.3, R11: with a Warehouse and 3 hand cards, every board card may be taken; without it, none. */
static void test_listing_warehouse_hand_limit(void **unused)
{
    (void)unused;
    scn s = fresh(2);
    scn_put(&s, C(WAREHOUSE), SCN_DISPLAY, 0);
    scn_put(&s, C(MARKET), SCN_HAND, 0);
    scn_put(&s, C(AUTHOR), SCN_HAND, 0);
    scn_put(&s, C(LUMBERJACK), SCN_HAND, 0);
    scn_put(&s, C(CUSTOMS_HOUSE), SCN_UPPER, 0);
    scn_put(&s, C(POPE), SCN_LOWER, 0);
    scn_turn(&s, WORKER, 0);
    assert_true(legal(&s, "take Customs House from upper"));
    assert_true(legal(&s, "take Pope from lower"));
    assert_int_equal(legal_kind(&s, STPETE_ACTION_TAKE, -1), 2);
    scn_core(&s)->p[0].display[C(WAREHOUSE)] = 0; /* the same hand without the Warehouse: limit 3, full */
    scn_core(&s)->discard[C(WAREHOUSE)]++;
    assert_false(legal(&s, "take Customs House from upper"));
    assert_false(legal(&s, "take Pope from lower"));
    assert_int_equal(legal_kind(&s, STPETE_ACTION_TAKE, -1), 0);
    done(&s);
}

/* §5.1.1, R5: the same-name discount decides affordability: a third Market costs 3 from the upper row, 2 from the
 * lower row (§5.1.2). */
static void test_listing_same_name_discount(void **unused)
{
    (void)unused;
    scn s = fresh(2);
    scn_put(&s, C(MARKET), SCN_DISPLAY, 0);
    scn_put(&s, C(MARKET), SCN_DISPLAY, 0);
    scn_put(&s, C(MARKET), SCN_UPPER, 0);
    scn_put(&s, C(MARKET), SCN_LOWER, 0);
    scn_turn(&s, BUILDING, 0);
    scn_set_rubles(&s, 0, 3);
    assert_true(legal(&s, "buy Market from upper"));
    assert_true(legal(&s, "buy Market from lower"));
    scn_set_rubles(&s, 0, 2);
    assert_false(legal(&s, "buy Market from upper"));
    assert_true(legal(&s, "buy Market from lower"));
    scn_set_rubles(&s, 0, 1);
    assert_false(legal(&s, "buy Market from lower"));
    assert_int_equal(legal_kind(&s, STPETE_ACTION_BUY, -1), 0);
    done(&s);
}

/* §5.2, §7.4, R7: Potjomkin's Village counts 6 when displaced: a Bank (13) displacing it costs 7 — legal with 7 R,
 * not with 6 (with the village's printed cost 2 it would cost 11). */
static void test_listing_potjomkins_village_worth_6(void **unused)
{
    (void)unused;
    scn s = fresh(2);
    scn_put(&s, C(POTJOMKINS_VILLAGE), SCN_DISPLAY, 0);
    scn_put(&s, C(BANK), SCN_UPPER, 0);
    scn_turn(&s, TRADING, 0);
    scn_set_rubles(&s, 0, 7);
    assert_int_equal(price(&s, 0, C(BANK), UPPER, C(POTJOMKINS_VILLAGE)), 7);
    assert_true(legal(&s, "buy Bank from upper displacing Potjomkin's Village"));
    assert_int_equal(legal_kind(&s, STPETE_ACTION_BUY, C(BANK)), 1);
    scn_set_rubles(&s, 0, 6);
    assert_false(legal(&s, "buy Bank from upper displacing Potjomkin's Village"));
    assert_int_equal(legal_kind(&s, STPETE_ACTION_BUY, C(BANK)), 0);
    done(&s);
}

/* §7.1, §6.1, R9: of two Observatories one is used: the other may still draw and may still be displaced; with both
 * used, neither. */
static void test_listing_two_observatories_one_used(void **unused)
{
    (void)unused;
    scn s = fresh(2);
    scn_put(&s, C(OBSERVATORY), SCN_DISPLAY, 0);
    scn_put(&s, C(OBSERVATORY), SCN_DISPLAY, 0);
    scn_put(&s, C(BANK), SCN_UPPER, 0);
    scn_turn(&s, BUILDING, 0);
    scn_core(&s)->p[0].obs_used = 1;
    assert_true(legal(&s, "observatory building"));
    assert_true(legal(&s, "observatory aristocrat"));
    assert_int_equal(legal_kind(&s, STPETE_ACTION_OBSERVATORY, -1), 4);
    assert_true(legal(&s, "buy Bank from upper displacing Observatory"));
    scn_core(&s)->p[0].obs_used = 2;
    assert_int_equal(legal_kind(&s, STPETE_ACTION_OBSERVATORY, -1), 0);
    assert_false(legal(&s, "buy Bank from upper displacing Observatory"));
    assert_int_equal(legal_kind(&s, STPETE_ACTION_BUY, C(BANK)), 0);
    done(&s);
}

/* ==== §4.4 scoring order ========================================================================= */

typedef struct scoring_log {
    int seats[8];
    int n;
} scoring_log;

static void record_scoring(const stpete_state *st, const stpete_event *ev, void *user)
{
    (void)st;
    scoring_log *log = user;
    if (ev->kind == STPETE_EVENT_SCORING && log->n < 8)
        log->seats[log->n++] = ev->seat;
}

/* §4.4: scoring happens in turn order from the phase's start player (here seat 2 of 3 holds the aristocrat
 * marker, so seats 2, 0, 1 score in that order), and every player scores, with or without income. */
static void test_s44_scoring_order_from_start_player(void **unused)
{
    (void)unused;
    scn s = fresh(3);
    set_markers(&s, 0, 1, 2, 0);
    scn_put(&s, C(AUTHOR), SCN_DISPLAY, 1);
    scn_turn(&s, ARISTOCRAT, 2);
    scoring_log log = { { 0 }, 0 };
    assert_int_equal(stpete_state_set_event_callback(s.st, record_scoring, &log), STPETE_OK);
    pass_n(&s, 3);
    assert_int_equal(log.n, 3);
    assert_int_equal(log.seats[0], 2);
    assert_int_equal(log.seats[1], 0);
    assert_int_equal(log.seats[2], 1);
    assert_int_equal(rub(&s, 1), 26); /* the Author's 1 R */
    done(&s);
}

/* ==== §11 the second-edition preset ============================================================== */

static scn fresh_edition(int players, int edition)
{
    stpete_options o;
    stpete_options_init(&o);
    o.players = players;
    o.edition = edition;
    return fresh_opts(&o);
}

/* §11: the Mariinsky Theater scores +1 VP (not R) per orange card at building scoring, orange trading cards and
 * duplicates included (two Authors and the Senator: +3 VP). The first edition pays 3 R for the same display (§7.5). */
static void test_s11_mariinsky_theater_vp(void **unused)
{
    (void)unused;
    for (int edition = 1; edition <= 2; edition++) {
        scn s = fresh_edition(2, edition);
        scn_put(&s, C(MARIINSKIJ_THEATER), SCN_DISPLAY, 0);
        scn_put(&s, C(AUTHOR), SCN_DISPLAY, 0);
        scn_put(&s, C(AUTHOR), SCN_DISPLAY, 0);
        scn_put(&s, C(SENATOR), SCN_DISPLAY, 0);
        scn_put(&s, C(MARKET), SCN_DISPLAY, 0); /* 1 VP */
        scn_put(&s, C(AUTHOR), SCN_HAND, 0);    /* hand cards never count (§7.5) */
        scn_turn(&s, BUILDING, 0);
        pass_n(&s, 2);
        assert_int_equal(stpete_state_phase(s.st), ARISTOCRAT);
        assert_int_equal(rub(&s, 0), edition == 2 ? 25 : 28);
        assert_int_equal(scn_vp(&s, 0), edition == 2 ? 4 : 1);
        assert_int_equal(rub(&s, 1), 25);
        done(&s);
    }
}

/* §11: the four prices: Observatory 7, Judge 17, Mistress of Ceremonies 20, Mariinsky Theater 15 — as bought, and as
 * displaced (their value is their cost, §5.2), each against the first edition's. */
static void test_s11_four_prices(void **unused)
{
    (void)unused;
    for (int edition = 1; edition <= 2; edition++) {
        int e2 = edition == 2;
        scn s = fresh_edition(2, edition);
        scn_put(&s, C(MARKET), SCN_DISPLAY, 0);
        scn_put(&s, C(OBSERVATORY), SCN_DISPLAY, 1);
        scn_put(&s, C(JUDGE), SCN_DISPLAY, 1);
        scn_put(&s, C(MISTRESS_OF_CEREMONIES), SCN_DISPLAY, 1);
        scn_turn(&s, TRADING, 0);
        assert_int_equal(price(&s, 0, C(OBSERVATORY), UPPER, -1), e2 ? 7 : 6);
        assert_int_equal(price(&s, 0, C(JUDGE), UPPER, -1), e2 ? 17 : 16);
        assert_int_equal(price(&s, 0, C(MISTRESS_OF_CEREMONIES), UPPER, -1), e2 ? 20 : 18);
        assert_int_equal(price(&s, 0, C(MARIINSKIJ_THEATER), UPPER, C(MARKET)), e2 ? 15 - 5 : 10 - 5);
        assert_int_equal(price(&s, 1, C(BANK), UPPER, C(OBSERVATORY)), e2 ? 13 - 7 : 13 - 6);
        assert_int_equal(price(&s, 1, C(ADMIRAL), UPPER, C(JUDGE)), e2 ? 1 : 2);
        assert_int_equal(price(&s, 1, C(CZAR), UPPER, C(MISTRESS_OF_CEREMONIES)), e2 ? 4 : 6);
        /* buying them: exactly the price in rubles */
        scn_put(&s, C(MARIINSKIJ_THEATER), SCN_UPPER, 0);
        scn_set_rubles(&s, 0, e2 ? 10 : 5);
        assert_true(legal(&s, "buy Mariinskij-Theater from upper displacing Market"));
        scn_set_rubles(&s, 0, e2 ? 9 : 4);
        assert_false(legal(&s, "buy Mariinskij-Theater from upper displacing Market"));
        scn_set_rubles(&s, 0, e2 ? 10 : 5);
        scn_do(&s, "buy Mariinskij-Theater from upper displacing Market");
        assert_int_equal(rub(&s, 0), 0);
        assert_int_equal(disp(&s, 0, C(MARIINSKIJ_THEATER)), 1);
        assert_int_equal(disp(&s, 0, C(MARKET)), 0);
        scn_put(&s, C(JUDGE), SCN_LOWER, 0);
        scn_set_rubles(&s, 1, e2 ? 15 : 14); /* lower row and same name: two less (§5.1.1, §5.1.2) */
        scn_do(&s, "buy Judge from lower");
        assert_int_equal(rub(&s, 1), 0);
        assert_int_equal(disp(&s, 1, C(JUDGE)), 2);
        done(&s);
    }
}

/* §11: the first worker phase of a second-edition game is buy-only: no pass while a board card is affordable, no
 * take; each of the 2N opening workers is bought, two per player, then everyone passes and the phase ends. A player
 * who can afford no board card passes. Exact rubles after each buy. */
static void test_s11_buy_only_first_worker_phase(void **unused)
{
    (void)unused;
    for (int players = 2; players <= 4; players++) {
        stpete_options o;
        stpete_options_init(&o);
        o.players = players;
        o.seed = 5;
        o.edition = 2;
        scn s = scn_new_opts(&o);
        int rubles[4] = { 25, 25, 25, 25 }, bought[4] = { 0, 0, 0, 0 };
        for (int k = 0; k < 2 * players; k++) {
            int seat = current(&s);
            assert_int_equal(legal_kind(&s, STPETE_ACTION_PASS, -1), 0);
            assert_int_equal(legal_kind(&s, STPETE_ACTION_TAKE, -1), 0);
            assert_int_equal(legal_kind(&s, STPETE_ACTION_BUY, -1), legal_total(&s));
            expect_illegal(&s, "pass");
            int row[STPETE_BOARD_SIZE];
            size_t n = 0;
            assert_int_equal(stpete_state_row(s.st, UPPER, row, STPETE_BOARD_SIZE, &n), STPETE_OK);
            assert_int_equal(n, (size_t)(2 * players - k));
            char take[96], buy[96];
            snprintf(take, sizeof take, "take %s from upper", tg_card_name(STPETE_EDITION_FIRST, row[0]));
            expect_illegal(&s, take);
            int p = price(&s, seat, row[0], UPPER, -1);
            snprintf(buy, sizeof buy, "buy %s from upper", tg_card_name(STPETE_EDITION_FIRST, row[0]));
            scn_do(&s, buy);
            rubles[seat] -= p;
            bought[seat]++;
            assert_int_equal(rub(&s, seat), rubles[seat]);
        }
        for (int seat = 0; seat < players; seat++)
            assert_int_equal(bought[seat], 2); /* every player buys exactly two (§11) */
        assert_int_equal(row_size(&s, UPPER) + row_size(&s, LOWER), 0);
        for (int k = 0; k < players; k++) { /* nothing left to buy: pass is the only action */
            assert_int_equal(legal_total(&s), 1);
            assert_int_equal(legal_kind(&s, STPETE_ACTION_PASS, -1), 1);
            scn_do(&s, "pass");
        }
        assert_int_equal(stpete_state_phase(s.st), BUILDING);
        assert_int_equal(legal_kind(&s, STPETE_ACTION_PASS, -1), 1); /* the building phase plays as usual */
        done(&s);
    }
    /* a player who cannot afford any board card passes */
    stpete_options o;
    stpete_options_init(&o);
    o.players = 2;
    o.edition = 2;
    scn s = scn_new_opts(&o);
    scn_clear_board(&s);
    scn_put(&s, C(SHEPHERD), SCN_UPPER, 0);
    scn_turn(&s, WORKER, 0);
    scn_set_rubles(&s, 0, 4);
    assert_int_equal(legal_total(&s), 1);
    assert_true(legal(&s, "pass"));
    expect_illegal(&s, "take Shepherd from upper");
    scn_do(&s, "pass");
    expect_illegal(&s, "pass"); /* seat 1 has 25 R: must buy */
    scn_do(&s, "buy Shepherd from upper");
    assert_int_equal(rub(&s, 1), 20);
    done(&s);
}

/* §11 names: Pope → Abbot, Czar → Czarina, Potjomkin's Village → Potemkin Village, Mariinskij-Theater → Mariinsky
 * Theater in the game's card info, action strings and JSON; both editions' names are read. */
static void test_s11_names(void **unused)
{
    (void)unused;
    scn s = fresh_edition(3, 2);
    static const struct {
        int card;
        const char *first, *second;
    } names[] = { { C(POPE), "Pope", "Abbot" }, { C(CZAR), "Czar", "Czarina" },
                  { C(POTJOMKINS_VILLAGE), "Potjomkin's Village", "Potemkin Village" },
                  { C(MARIINSKIJ_THEATER), "Mariinskij-Theater", "Mariinsky Theater" } };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        assert_string_equal(tg_card_name(stpete_game_edition(s.game), names[i].card), names[i].second);
        assert_string_equal(tg_card_name(STPETE_EDITION_FIRST, names[i].card), names[i].first); /* edition-free: the first */
        stpete_card_info info = STPETE_CARD_INFO_INIT;
        assert_int_equal(stpete_card_get_info(stpete_game_edition(s.game), names[i].card, &info), STPETE_OK);
        assert_string_equal(info.name, names[i].second);
        int a = -1, b = -1;
        assert_int_equal(stpete_card_from_name(names[i].first, &a), STPETE_OK);
        assert_int_equal(stpete_card_from_name(names[i].second, &b), STPETE_OK);
        assert_int_equal(a, names[i].card);
        assert_int_equal(b, names[i].card);
    }
    stpete_card_info info = STPETE_CARD_INFO_INIT;
    assert_int_equal(stpete_card_get_info(stpete_game_edition(s.game), C(MARIINSKIJ_THEATER), &info), STPETE_OK);
    assert_int_equal(info.cost, 15);
    assert_int_equal(info.special, STPETE_SPECIAL_MARIINSKY_THEATER_VP);
    assert_int_equal(stpete_card_get_info(STPETE_EDITION_FIRST, C(MARIINSKIJ_THEATER), &info), STPETE_OK);
    assert_int_equal(info.cost, 10);
    int id = scn_id("buy Pope from upper displacing Author");
    assert_int_equal(scn_id("buy Abbot from upper displacing Author"), id);
    char text[STPETE_ACTION_STRING_MAX];
    assert_int_equal(stpete_action_to_string(stpete_game_edition(s.game), id, text, sizeof text), STPETE_OK);
    assert_string_equal(text, "buy Abbot from upper displacing Author");
    /* JSON and log lines carry the second edition's names */
    scn_put(&s, C(CZAR), SCN_UPPER, 0);
    scn_turn(&s, TRADING, 0);
    size_t len = 0;
    char json[1 << 14];
    assert_int_equal(stpete_state_to_json(s.st, json, sizeof json, &len), STPETE_OK);
    assert_non_null(strstr(json, "\"Czarina\""));
    assert_null(strstr(json, "\"Czar\""));
    assert_non_null(strstr(json, "\"edition\":2"));
    stpete_event ev = { sizeof ev, STPETE_EVENT_TAKE, 0, C(CZAR), -1, STPETE_SOURCE_UPPER, -1, -1, -1, -1, -1, TRADING, 1,
                        STPETE_EDITION_SECOND };
    char line[STPETE_EVENT_STRING_MAX];
    assert_int_equal(stpete_event_to_string(&ev, s.st, line, sizeof line), STPETE_OK);
    assert_string_equal(line, "seat 0 takes Czarina from the upper row into hand");
    /* the edition travels with the event: the same line without the state (a queue consumer, another seat) */
    assert_int_equal(stpete_event_to_string(&ev, NULL, line, sizeof line), STPETE_OK);
    assert_string_equal(line, "seat 0 takes Czarina from the upper row into hand");
    ev.edition = STPETE_EDITION_FIRST;
    assert_int_equal(stpete_event_to_string(&ev, NULL, line, sizeof line), STPETE_OK);
    assert_string_equal(line, "seat 0 takes Czar from the upper row into hand");
    ev.edition = 3;
    assert_int_equal(stpete_event_to_string(&ev, NULL, line, sizeof line), STPETE_E_INVALID_ARGUMENT);
    done(&s);
}

/* A position the invariants refuse (§2): stpete_core_validate() and the JSON reader of its document both refuse it
 * with the message expect. */
static void expect_invalid(scn *s, const char *expect)
{
    char why[sizeof ((stpete_error *)0)->message];
    assert_int_equal(stpete_core_validate(scn_core(s), why, sizeof why), STPETE_E_INCONSISTENT);
    assert_string_equal(why, expect);
    size_t len = 0;
    static char json[1 << 14];
    assert_int_equal(stpete_state_to_json(s->st, json, sizeof json, &len), STPETE_OK);
    stpete_state *loaded = NULL;
    stpete_error err = STPETE_ERROR_INIT;
    assert_int_equal(stpete_state_from_json(s->game, json, len, &loaded, &err), STPETE_E_INCONSISTENT);
    assert_null(loaded);
    assert_string_equal(err.message, expect);
}

/* stpete_core_validate() (lib/validate.c), the invariants of a position: every position reached by play satisfies
 * them, in both editions and both chance modes; a position broken in one invariant fails with the reason, and the
 * same position as a JSON document fails to load with the same status and text (the reader asks the same
 * function). */
static void test_validate_positions(void **unused)
{
    (void)unused;
    char why[sizeof ((stpete_error *)0)->message];
    for (int players = 2; players <= 4; players++)
        for (int edition = 1; edition <= 2; edition++)
            for (int mode = STPETE_CHANCE_SAMPLED; mode <= STPETE_CHANCE_EXPLICIT; mode++) {
                stpete_options o;
                stpete_options_init(&o);
                o.players = players;
                o.edition = edition;
                o.chance_mode = mode;
                o.seed = (uint64_t)(100 * players + 10 * edition + mode);
                scn s = scn_new_opts(&o);
                uint64_t r = o.seed;
                for (int step = 0; !tg_is_terminal(s.st); step++) {
                    int rc = stpete_core_validate(scn_core(&s), why, sizeof why);
                    if (rc)
                        fail_msg("players %d, edition %d, mode %d, step %d: %s", players, edition, mode, step, why);
                    int id;
                    r = r * 6364136223846793005u + 1442695040888963407u;
                    assert_int_equal(stpete_state_random_action(s.st, r >> 11, &id), STPETE_OK);
                    assert_int_equal(stpete_state_apply(s.st, id), STPETE_OK);
                }
                assert_int_equal(stpete_core_validate(scn_core(&s), why, sizeof why), STPETE_OK);
                scn_free(&s);
            }
    /* one invariant broken: a card of the worker stack moved into the building stack (§2) */
    scn s = scn_new(3, 7);
    stpete_core *c = scn_core(&s);
    int card = c->stack[STPETE_STACK_WORKER][--c->stack_n[STPETE_STACK_WORKER]];
    c->stack[STPETE_STACK_WORKER][c->stack_n[STPETE_STACK_WORKER]] = 0;
    memmove(c->stack[STPETE_STACK_BUILDING] + 1, c->stack[STPETE_STACK_BUILDING], c->stack_n[STPETE_STACK_BUILDING]);
    c->stack[STPETE_STACK_BUILDING][0] = (uint8_t)card;
    c->stack_n[STPETE_STACK_BUILDING]++;
    char expect[sizeof why];
    snprintf(expect, sizeof expect, "stacks.building[0]: %s belongs to another stack (§2)",
             tg_card_name(STPETE_EDITION_FIRST, card));
    expect_invalid(&s, expect);
    scn_free(&s);
}

/* A refused position names its cards as its own edition prints them (§11): a second-edition document with a
 * Potemkin Village too many in the discard pile says "Potemkin Village", not the first edition's "Potjomkin's
 * Village" (issue 32 item 5: the validator read the first edition's table). Both by a position and by a document. */
static void test_validate_names_cards_of_the_edition(void **unused)
{
    (void)unused;
    for (int edition = STPETE_EDITION_FIRST; edition <= STPETE_EDITION_SECOND; edition++) {
        stpete_options o;
        stpete_options_init(&o);
        o.players = 2;
        o.edition = edition;
        scn s = scn_new_opts(&o);
        stpete_core *c = scn_core(&s);
        stpete_card_info info = STPETE_CARD_INFO_INIT;
        assert_int_equal(stpete_card_get_info(edition, STPETE_CARD_POTJOMKINS_VILLAGE, &info), STPETE_OK);
        c->discard[STPETE_CARD_POTJOMKINS_VILLAGE] = (uint8_t)(info.copies + 1);
        char expect[sizeof ((stpete_error *)0)->message];
        snprintf(expect, sizeof expect, "discard: more than the %d copies of %s (§2)", info.copies, info.name);
        assert_non_null(strstr(expect, edition == STPETE_EDITION_SECOND ? "Potemkin Village" : "Potjomkin's Village"));
        expect_invalid(&s, expect);
        scn_free(&s);
    }
}

/* The listing's lanes of costs, colours and values (stpete_card_lanes, lib/engine/legal.c) are the card table's (§2,
 * §11, §12.2): for each table and non-trading type the cost, the colour and the value, and 0 in every lane past
 * them. */
static void test_card_lanes_match_table(void **unused)
{
    (void)unused;
    for (int e = 0; e < 3; e++) {
        const card_lanes *l = &stpete_card_lanes[e];
        for (int t = 0; t < 32; t++) {
            if (t >= FIRST_TRADING) {
                assert_int_equal(l->cost[t] | l->blue[t] | l->orange[t] | l->green[t] | l->value[t], 0);
                continue;
            }
            const card_def *d = &stpete_card_tables[e][t];
            assert_int_equal(d->trading, 0);
            assert_int_equal(l->cost[t], d->cost);
            assert_int_equal(l->blue[t], d->colour == STPETE_COLOUR_BLUE ? 0xFF : 0);
            assert_int_equal(l->orange[t], d->colour == STPETE_COLOUR_ORANGE ? 0xFF : 0);
            assert_int_equal(l->green[t], d->colour == STPETE_COLOUR_GREEN ? 0xFF : 0);
            assert_int_equal(l->value[t], d->value);
        }
    }
}

/* The phase income's packed incomes (stpete_card_income, lib/engine/scoring.c) are the card table's rubles and VP
 * (§2, §11, §12.2) for each table and type, 0 past the types, and sums of them unpack to their rubles and VP, a
 * negative sum of rubles included (the Sycophant's -1, §12.7.9, R26). */
static void test_card_income_match_table(void **unused)
{
    (void)unused;
    for (int e = 0; e < 3; e++)
        for (int t = 0; t < DISPLAY_CAP; t++) {
            int32_t in = stpete_card_income[e][t];
            const card_def *d = t < CARD_TYPES_ALL ? &stpete_card_tables[e][t] : NULL; /* the table's rows only */
            assert_int_equal(stpete_income_rubles(in), d ? d->rubles : 0);
            assert_int_equal(stpete_income_vp(in), d ? d->vp : 0);
        }
    const int32_t *ns = stpete_card_income[2];
    int32_t sum = 2 * ns[STPETE_CARD_SYCOPHANT];
    assert_int_equal(stpete_income_rubles(sum), -2);
    assert_int_equal(stpete_income_vp(sum), 0);
    sum += ns[STPETE_CARD_SYCOPHANT] + 6 * ns[STPETE_CARD_ADMINISTRATOR] + ns[STPETE_CARD_MINISTER_OF_FOREIGN_AFFAIRS];
    assert_int_equal(stpete_income_rubles(sum), -3 + 6 * 2 + 2);
    assert_int_equal(stpete_income_vp(sum), 4);
    sum = 5 * ns[STPETE_CARD_SYCOPHANT] + 3 * ns[STPETE_CARD_CONTROLLER]; /* -5 R + 12 R, 3 VP */
    assert_int_equal(stpete_income_rubles(sum), 7);
    assert_int_equal(stpete_income_vp(sum), 3);
    sum = 2 * ns[STPETE_CARD_SYCOPHANT] + ns[STPETE_CARD_CZAR]; /* -2 R, 6 VP */
    assert_int_equal(stpete_income_rubles(sum), -2);
    assert_int_equal(stpete_income_vp(sum), 6);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_r1_consecutive_passes_end_phase),
        cmocka_unit_test(test_r1_take_resets_pass_count),
        cmocka_unit_test(test_r2_deal_next_stack_into_upper_row),
        cmocka_unit_test(test_r2_nothing_dealt_when_board_full),
        cmocka_unit_test(test_r3_end_of_round_steps),
        cmocka_unit_test(test_r3_markers_move_left_three_players),
        cmocka_unit_test(test_r4_last_building_dealt_makes_final_round),
        cmocka_unit_test(test_r4_last_trading_card_dealt),
        cmocka_unit_test(test_r4_end_of_round_deal_of_last_worker),
        cmocka_unit_test(test_s42_any_card_any_phase),
        cmocka_unit_test(test_s42_take_needs_room_in_hand),
        cmocka_unit_test(test_s44_worker_scoring),
        cmocka_unit_test(test_s44_building_scoring),
        cmocka_unit_test(test_s44_aristocrat_scoring),
        cmocka_unit_test(test_r5_third_market_costs_3),
        cmocka_unit_test(test_r5_theater_lower_row_with_workshop_costs_17),
        cmocka_unit_test(test_r5_fourth_lumberjack_costs_1),
        cmocka_unit_test(test_r5_discounts_add_up),
        cmocka_unit_test(test_r6_lower_row_discount_only_when_bought_directly),
        cmocka_unit_test(test_r7_wharf_displacing_ship_builder_costs_5),
        cmocka_unit_test(test_r7_senator_displacing_secretary_costs_1),
        cmocka_unit_test(test_r7_st_isaacs_displacing_market_costs_8),
        cmocka_unit_test(test_r7_displaced_value_and_floor),
        cmocka_unit_test(test_r8_trading_card_needs_target),
        cmocka_unit_test(test_r8_czar_and_carpenter_takes_any_green_trading_card),
        cmocka_unit_test(test_r8_blue_and_orange_targets),
        cmocka_unit_test(test_r9_observatory_draw_and_buy),
        cmocka_unit_test(test_r9_observatory_take_or_discard),
        cmocka_unit_test(test_r9_observatory_trading_card_must_displace),
        cmocka_unit_test(test_longest_refusal_is_whole),
        cmocka_unit_test(test_r9_observatory_building_phase_only),
        cmocka_unit_test(test_r9_observatory_needs_two_cards_in_stack),
        cmocka_unit_test(test_r9_face_down_observatory_no_vp_not_displaceable),
        cmocka_unit_test(test_r9_each_observatory_once_per_round),
        cmocka_unit_test(test_r9_single_observatory_not_twice),
        cmocka_unit_test(test_r9_observatory_bought_and_used_same_phase),
        cmocka_unit_test(test_r10_pub_buys_vp_after_building_scoring),
        cmocka_unit_test(test_r10_pub_cap_five_per_pub),
        cmocka_unit_test(test_r10_pub_cap_option_per_player),
        cmocka_unit_test(test_r10_pub_order_and_two_rubles),
        cmocka_unit_test(test_r11_warehouse_hand_limit),
        cmocka_unit_test(test_s74_potjomkins_village),
        cmocka_unit_test(test_r12_mariinskij_theater),
        cmocka_unit_test(test_r12_tax_man),
        cmocka_unit_test(test_s51_carpenter_workshop_blue_only),
        cmocka_unit_test(test_s51_gold_smelter_orange_only),
        cmocka_unit_test(test_r13_worked_example_74),
        cmocka_unit_test(test_r13_aristocrat_table_capped_at_55),
        cmocka_unit_test(test_r13_rubles_and_hand_penalty),
        cmocka_unit_test(test_r14_tie_break_mod_10_default),
        cmocka_unit_test(test_r14_tie_break_total_option),
        cmocka_unit_test(test_r14_shared_win),
        cmocka_unit_test(test_r15_setup),
        cmocka_unit_test(test_r15_explicit_start_markers),
        cmocka_unit_test(test_listing_warehouse_hand_limit),
        cmocka_unit_test(test_listing_same_name_discount),
        cmocka_unit_test(test_listing_potjomkins_village_worth_6),
        cmocka_unit_test(test_listing_two_observatories_one_used),
        cmocka_unit_test(test_s44_scoring_order_from_start_player),
        cmocka_unit_test(test_s11_mariinsky_theater_vp),
        cmocka_unit_test(test_s11_four_prices),
        cmocka_unit_test(test_s11_buy_only_first_worker_phase),
        cmocka_unit_test(test_s11_names),
        cmocka_unit_test(test_validate_positions),
        cmocka_unit_test(test_validate_names_cards_of_the_edition),
        cmocka_unit_test(test_card_lanes_match_table),
        cmocka_unit_test(test_card_income_match_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
