/* Rule scenario tests, §5 prices (R5-R7): same-name and row discounts, the 1 R floor, §5.1's Carpenter Workshop
 * and Gold Smelter. Exact positions built with scenario.h, acted on through the public API, checked for exact
 * rubles, VP and card locations. Part of the program 'rules' (main.c; rules_tests.h holds the shared helpers).
 * Section numbers (§) and ruling ids (R) refer to doc/rules.md. */
#include "rules_tests.h"

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

TEST_GROUP(rules_s05_prices,
    cmocka_unit_test(test_r5_third_market_costs_3),
    cmocka_unit_test(test_r5_theater_lower_row_with_workshop_costs_17),
    cmocka_unit_test(test_r5_fourth_lumberjack_costs_1),
    cmocka_unit_test(test_r5_discounts_add_up),
    cmocka_unit_test(test_r6_lower_row_discount_only_when_bought_directly),
    cmocka_unit_test(test_r7_wharf_displacing_ship_builder_costs_5),
    cmocka_unit_test(test_r7_senator_displacing_secretary_costs_1),
    cmocka_unit_test(test_r7_st_isaacs_displacing_market_costs_8),
    cmocka_unit_test(test_r7_displaced_value_and_floor),
    cmocka_unit_test(test_s51_carpenter_workshop_blue_only),
    cmocka_unit_test(test_s51_gold_smelter_orange_only));
