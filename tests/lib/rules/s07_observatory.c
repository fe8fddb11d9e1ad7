/* Rule scenario tests, §7.1 the Observatory (R9): draws, buys, takes and discards, when and how often. Exact
 * positions built with scenario.h, acted on through the public API, checked for exact rubles, VP and card
 * locations. Part of the program 'rules' (main.c; rules_tests.h holds the shared helpers). Section numbers (§)
 * and ruling ids (R) refer to doc/rules.md. */
#include "rules_tests.h"

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

TEST_GROUP(rules_s07_observatory,
    cmocka_unit_test(test_r9_observatory_draw_and_buy),
    cmocka_unit_test(test_longest_refusal_is_whole),
    cmocka_unit_test(test_r9_observatory_take_or_discard),
    cmocka_unit_test(test_r9_observatory_trading_card_must_displace),
    cmocka_unit_test(test_r9_observatory_building_phase_only),
    cmocka_unit_test(test_r9_observatory_needs_two_cards_in_stack),
    cmocka_unit_test(test_r9_face_down_observatory_no_vp_not_displaceable),
    cmocka_unit_test(test_r9_each_observatory_once_per_round),
    cmocka_unit_test(test_r9_single_observatory_not_twice),
    cmocka_unit_test(test_r9_observatory_bought_and_used_same_phase));
