/* Rule scenario tests, §4 the phases and the turn: R1-R4 (passes, deals, the end of a round, the final round),
 * §4.2's actions, §4.4's scorings and their order. Exact positions built with scenario.h, acted on through the
 * public API, checked for exact rubles, VP and card locations. Part of the program 'rules' (main.c; rules_tests.h
 * holds the shared helpers). Section numbers (§) and ruling ids (R) refer to doc/rules.md. */
#include "rules_tests.h"

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

TEST_GROUP(rules_s04_phases,
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
    cmocka_unit_test(test_s44_scoring_order_from_start_player));
