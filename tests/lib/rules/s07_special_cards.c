/* Rule scenario tests, §7.2-§7.5 the other special cards: the Pub (R10), the Warehouse (R11), Potjomkin's
 * Village, the Mariinskij-Theater and the Tax Man (R12). Exact positions built with scenario.h, acted on through
 * the public API, checked for exact rubles, VP and card locations. Part of the program 'rules' (main.c;
 * rules_tests.h holds the shared helpers). Section numbers (§) and ruling ids (R) refer to doc/rules.md. */
#include "rules_tests.h"

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

TEST_GROUP(rules_s07_special_cards,
    cmocka_unit_test(test_r10_pub_buys_vp_after_building_scoring),
    cmocka_unit_test(test_r10_pub_cap_five_per_pub),
    cmocka_unit_test(test_r10_pub_cap_option_per_player),
    cmocka_unit_test(test_r10_pub_order_and_two_rubles),
    cmocka_unit_test(test_r11_warehouse_hand_limit),
    cmocka_unit_test(test_s74_potjomkins_village),
    cmocka_unit_test(test_r12_mariinskij_theater),
    cmocka_unit_test(test_r12_tax_man));
