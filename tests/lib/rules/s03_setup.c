/* Rule scenario tests, §3 setup (R15): the deal, the start-player markers. Exact positions built with scenario.h,
 * acted on through the public API, checked for exact rubles, VP and card locations. Part of the program 'rules'
 * (main.c; rules_tests.h holds the shared helpers). Section numbers (§) and ruling ids (R) refer to doc/rules.md. */
#include "rules_tests.h"

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

TEST_GROUP(rules_s03_setup,
    cmocka_unit_test(test_r15_setup),
    cmocka_unit_test(test_r15_explicit_start_markers));
