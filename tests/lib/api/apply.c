/* Public-API tests, apply: failures leave the state unchanged; strings; the end of the game. Part of the program 'api'
 * (main.c); links the shared library and uses only the public headers. */
#include "api_tests.h"

/* ---- apply: failures leave the state unchanged -------------------------------------------------- */

/* An illegal action in the middle of a game, in each kind of decision that random play reaches (a turn, an
 * Observatory draw, a Pub step): refused, the state unchanged (before is scratch). */
static void check_illegal_mid_game(stpete_state *st, stpete_state *before)
{
    /* an illegal action in the middle of a game, in each kind of decision that random play reaches */
    uint64_t rng = 3;
    int reached_kinds = 0;
    for (int want = STPETE_DECISION_TURN; want <= STPETE_DECISION_PUB; want++) {
        assert_int_equal(stpete_state_reset(st, 500 + (uint64_t)want), STPETE_OK);
        int reached = 0;
        for (int tries = 0; tries < 50 && !reached; tries++) {
            if (play_until_decision(st, want, &rng)) {
                reached = 1;
                break;
            }
            assert_int_equal(stpete_state_reset(st, 600 + (uint64_t)tries), STPETE_OK);
        }
        if (!reached)
            continue;
        reached_kinds++;
        assert_int_equal(stpete_state_copy(before, st), STPETE_OK);
        int bad = want == STPETE_DECISION_TURN ? 960 : 0; /* discard without a draw; pass while resolving */
        assert_int_equal(stpete_state_apply(st, bad), STPETE_E_ILLEGAL_ACTION);
        assert_true(strlen(stpete_state_last_error(st)) > 0);
        assert_int_equal(tg_equal(st, before), 1);
        assert_int_equal(stpete_state_decision(st), want);
    }
    assert_int_equal(reached_kinds, 3); /* turn, Observatory draw and Pub step were all reached */
}

static void test_apply_invalid_and_illegal(void **unused)
{
    (void)unused;
    stpete_game *g = make_game(4, 77);
    stpete_state *st = make_state(g);
    stpete_state *before = NULL;
    assert_int_equal(stpete_state_clone(st, &before, NULL), STPETE_OK);

    /* out-of-range ids */
    static const int bad_ids[] = { -1, STPETE_CHANCE_CARD_FIRST + STPETE_NUM_CHANCE_OUTCOMES, INT_MIN, INT_MAX };
    for (size_t i = 0; i < sizeof bad_ids / sizeof bad_ids[0]; i++) {
        assert_int_equal(stpete_state_apply(st, bad_ids[i]), STPETE_E_INVALID_ARGUMENT);
        assert_true(strlen(stpete_state_last_error(st)) > 0);
        assert_int_equal(tg_equal(st, before), 1);
    }
    /* chance outcomes in sampled mode: the library draws them itself */
    for (int id = STPETE_CHANCE_CARD_FIRST; id < STPETE_CHANCE_CARD_FIRST + STPETE_NUM_CHANCE_OUTCOMES; id += 13) {
        assert_int_equal(stpete_state_apply(st, id), STPETE_E_ILLEGAL_ACTION);
        assert_non_null(strstr(stpete_state_last_error(st), "sampled mode"));
        assert_int_equal(tg_is_legal(st, id), 0);
        assert_int_equal(tg_equal(st, before), 1);
    }
    /* every unlisted id of the initial state is refused as illegal */
    int refused = 0;
    for (int id = 0; id < STPETE_NUM_DISTINCT_ACTIONS; id++) {
        if (tg_is_legal(st, id))
            continue;
        assert_int_equal(stpete_state_apply(st, id), STPETE_E_ILLEGAL_ACTION);
        assert_true(strlen(stpete_state_last_error(st)) > 0);
        assert_int_equal(tg_equal(st, before), 1);
        refused++;
    }
    assert_true(refused > 900);
    /* the playout step: NULL, an unknown pick; the state unchanged, *id untouched */
    int picked = -7;
    assert_int_equal(stpete_state_apply_random(NULL, 0, STPETE_PICK_MODULO, &picked), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_state_apply_random(st, 0, STPETE_PICK_MODULO, NULL), STPETE_E_INVALID_ARGUMENT);
    assert_non_null(strstr(stpete_state_last_error(st), "NULL"));
    for (int pick = -1; pick <= 2; pick += 3) {
        assert_int_equal(stpete_state_apply_random(st, 0, pick, &picked), STPETE_E_INVALID_ARGUMENT);
        assert_non_null(strstr(stpete_state_last_error(st), "pick"));
    }
    assert_int_equal(picked, -7);
    assert_int_equal(tg_equal(st, before), 1);
    /* a success clears the message */
    assert_true(strlen(stpete_state_last_error(st)) > 0);
    assert_int_equal(stpete_state_apply(st, 0), STPETE_OK);
    assert_string_equal(stpete_state_last_error(st), "");
    assert_int_equal(tg_equal(st, before), 0);

    check_illegal_mid_game(st, before);
    stpete_state_free(before);
    stpete_state_free(st);
    stpete_game_free(g);
}

static void test_apply_string(void **unused)
{
    (void)unused;
    stpete_game *g = make_game(2, 8);
    stpete_state *st = make_state(g);
    stpete_state *before = NULL;
    assert_int_equal(stpete_state_clone(st, &before, NULL), STPETE_OK);
    assert_int_equal(stpete_state_apply_string(st, NULL), STPETE_E_INVALID_ARGUMENT);
    assert_true(strlen(stpete_state_last_error(st)) > 0);
    assert_int_equal(tg_equal(st, before), 1);
    assert_int_equal(stpete_state_apply_string(st, "fly to the moon"), STPETE_E_PARSE);
    assert_true(strlen(stpete_state_last_error(st)) > 0);
    assert_int_equal(tg_equal(st, before), 1);
    assert_int_equal(stpete_state_apply_string(st, ""), STPETE_E_PARSE);
    assert_int_equal(tg_equal(st, before), 1);
    assert_int_equal(stpete_state_apply_string(st, "observatory discard"), STPETE_E_ILLEGAL_ACTION);
    assert_true(strlen(stpete_state_last_error(st)) > 0);
    assert_int_equal(tg_equal(st, before), 1);
    /* a legal string applies like its id */
    int ids[STPETE_MAX_LEGAL_ACTIONS];
    size_t n = 0;
    assert_int_equal(stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS, &n), STPETE_OK);
    int id = ids[n - 1];
    char s[STPETE_ACTION_STRING_MAX];
    assert_int_equal(stpete_action_to_string(STPETE_EDITION_FIRST, id, s, sizeof s), STPETE_OK);
    assert_int_equal(stpete_state_apply_string(st, s), STPETE_OK);
    assert_string_equal(stpete_state_last_error(st), "");
    assert_int_equal(stpete_state_apply(before, id), STPETE_OK);
    assert_int_equal(tg_equal(st, before), 1);
    stpete_state_free(before);
    stpete_state_free(st);
    stpete_game_free(g);
}

static void test_game_over(void **unused)
{
    (void)unused;
    for (int players = 2; players <= 4; players++) {
        stpete_game *g = make_game(players, 4242);
        stpete_state *st = make_state(g);
        unsigned mask = 0;
        assert_int_equal(stpete_state_winners(st, &mask), STPETE_E_NOT_TERMINAL);
        play_to_end(st, 99);
        assert_int_equal(tg_is_terminal(st), 1);
        assert_int_equal(stpete_state_current_player(st), STPETE_PLAYER_TERMINAL);
        assert_int_equal(stpete_state_decision(st), STPETE_DECISION_GAME_OVER);
        assert_int_equal(stpete_state_phase(st), STPETE_PHASE_TRADING);
        assert_int_equal(tg_is_final_round(st), 1);
        size_t n = 99;
        int ids[STPETE_MAX_LEGAL_ACTIONS];
        assert_int_equal(stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS, &n), STPETE_OK);
        assert_int_equal(n, 0);
        n = 99;
        assert_int_equal(stpete_state_legal_actions(st, NULL, 0, &n), STPETE_OK);
        assert_int_equal(n, 0);
        assert_int_equal(stpete_state_winners(st, &mask), STPETE_OK);
        assert_true(mask != 0 && mask < (1u << players));

        stpete_state *before = NULL;
        assert_int_equal(stpete_state_clone(st, &before, NULL), STPETE_OK);
        for (int id = 0; id < STPETE_NUM_DISTINCT_ACTIONS; id++) {
            assert_int_equal(tg_is_legal(st, id), 0);
            assert_int_equal(stpete_state_apply(st, id), STPETE_E_GAME_OVER);
            assert_true(strlen(stpete_state_last_error(st)) > 0);
            assert_int_equal(tg_equal(st, before), 1);
        }
        assert_int_equal(stpete_state_apply_string(st, "pass"), STPETE_E_GAME_OVER);
        assert_true(strlen(stpete_state_last_error(st)) > 0);
        assert_int_equal(tg_equal(st, before), 1);
        /* score breakdown of a finished game: the scoring applied (§8, R13) */
        for (int s = 0; s < players; s++) {
            stpete_score sc = STPETE_SCORE_INIT;
            int vp = 0;
            assert_int_equal(stpete_state_get_score(st, s, &sc), STPETE_OK);
            assert_int_equal(stpete_state_vp(st, s, &vp), STPETE_OK);
            assert_int_equal(sc.total, vp);
            assert_int_equal(sc.total, sc.vp_before + sc.aristocrat_bonus + sc.rubles_bonus + sc.hand_penalty);
            assert_int_equal(sc.rubles, stpete_state_rubles(st, s));
            assert_int_equal(sc.tie_break, sc.rubles % 10);
        }
        stpete_state_free(before);
        stpete_state_free(st);
        stpete_game_free(g);
    }
}

TEST_GROUP(api_apply,
    cmocka_unit_test(test_apply_invalid_and_illegal),
    cmocka_unit_test(test_apply_string),
    cmocka_unit_test(test_game_over));
