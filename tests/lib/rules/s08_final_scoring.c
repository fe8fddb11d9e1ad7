/* Rule scenario tests, §8 the final scoring (R13, R14): the aristocrat table, rubles and hand penalty, tie
 * breaks. Exact positions built with scenario.h, acted on through the public API, checked for exact rubles, VP
 * and card locations. Part of the program 'rules' (main.c; rules_tests.h holds the shared helpers). Section
 * numbers (§) and ruling ids (R) refer to doc/rules.md. */
#include "rules_tests.h"

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

TEST_GROUP(rules_s08_final_scoring,
    cmocka_unit_test(test_r13_worked_example_74),
    cmocka_unit_test(test_r13_aristocrat_table_capped_at_55),
    cmocka_unit_test(test_r13_rubles_and_hand_penalty),
    cmocka_unit_test(test_r14_tie_break_mod_10_default),
    cmocka_unit_test(test_r14_tie_break_total_option),
    cmocka_unit_test(test_r14_shared_win));
