/* Rule scenario tests, §6 displacement (R8): a trading card's targets. Exact positions built with scenario.h,
 * acted on through the public API, checked for exact rubles, VP and card locations. Part of the program 'rules'
 * (main.c; rules_tests.h holds the shared helpers). Section numbers (§) and ruling ids (R) refer to doc/rules.md. */
#include "rules_tests.h"

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

TEST_GROUP(rules_s06_displacement,
    cmocka_unit_test(test_r8_trading_card_needs_target),
    cmocka_unit_test(test_r8_czar_and_carpenter_takes_any_green_trading_card),
    cmocka_unit_test(test_r8_blue_and_orange_targets));
