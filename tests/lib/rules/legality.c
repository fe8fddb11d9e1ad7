/* Rule scenario tests, the listing's own paths (issue 11): the legal-action list at the boundaries the check also
 * decides (§4.2, §5, §7). Exact positions built with scenario.h, acted on through the public API, checked for
 * exact rubles, VP and card locations. Part of the program 'rules' (main.c; rules_tests.h holds the shared
 * helpers). Section numbers (§) and ruling ids (R) refer to doc/rules.md. */
#include "rules_tests.h"

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

TEST_GROUP(rules_legality,
    cmocka_unit_test(test_listing_warehouse_hand_limit),
    cmocka_unit_test(test_listing_same_name_discount),
    cmocka_unit_test(test_listing_potjomkins_village_worth_6),
    cmocka_unit_test(test_listing_two_observatories_one_used));
