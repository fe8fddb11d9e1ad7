/* Public-API tests, states: equality by position, clone and copy, determinism, seeds, reset, the initial state. Part of
 * the program 'api' (main.c); links the shared library and uses only the public headers. */
#include "api_tests.h"

/* ---- equality is by position, not by history ---------------------------------------------------- */

/* Two move orders that reach the same position compare equal (stpete_state_equal compares positions: no stale
 * bytes past a hand, row or stack count). */
static void test_equal_positions_from_different_orders(void **unused)
{
    (void)unused;
    int found = 0;
    for (uint64_t seed = 1; seed < 50 && !found; seed++) {
        stpete_game *g = make_game(2, seed);
        stpete_state *a = make_state(g);
        int upper[STPETE_BOARD_SIZE];
        size_t n = 0;
        assert_int_equal(stpete_state_row(a, STPETE_SOURCE_UPPER, upper, STPETE_BOARD_SIZE, &n), STPETE_OK);
        int x = upper[0], y = -1;
        for (size_t i = 1; i < n; i++)
            if (upper[i] != x)
                y = upper[i];
        if (y >= 0) {
            found = 1;
            stpete_state *b = make_state(g);
            char take_x[STPETE_ACTION_STRING_MAX], take_y[STPETE_ACTION_STRING_MAX], play_x[STPETE_ACTION_STRING_MAX];
            snprintf(take_x, sizeof take_x, "take %s from upper", tg_card_name(STPETE_EDITION_FIRST, x));
            snprintf(take_y, sizeof take_y, "take %s from upper", tg_card_name(STPETE_EDITION_FIRST, y));
            snprintf(play_x, sizeof play_x, "play %s", tg_card_name(STPETE_EDITION_FIRST, x));
            const char *seq_a[] = { take_x, "pass", take_y, "pass", play_x };
            const char *seq_b[] = { take_y, "pass", take_x, "pass", play_x };
            int actor = stpete_state_current_player(a);
            for (int i = 0; i < 5; i++) {
                assert_int_equal(stpete_state_apply_string(a, seq_a[i]), STPETE_OK);
                assert_int_equal(stpete_state_apply_string(b, seq_b[i]), STPETE_OK);
            }
            /* same hand (y), same display (x), same rubles: the same position */
            int hand_a[STPETE_MAX_HAND], hand_b[STPETE_MAX_HAND];
            size_t na = 0, nb = 0;
            assert_int_equal(stpete_state_hand(a, actor, hand_a, STPETE_MAX_HAND, &na), 0);
            assert_int_equal(stpete_state_hand(b, actor, hand_b, STPETE_MAX_HAND, &nb), 0);
            assert_int_equal(na, 1);
            assert_int_equal(nb, 1);
            assert_int_equal(hand_a[0], y);
            assert_int_equal(hand_b[0], y);
            assert_int_equal(tg_equal(a, b), 1);
            /* and they stay equal under the same future */
            uint64_t ra = 77, rb = 77;
            while (!tg_is_terminal(a)) {
                assert_int_equal(step_random(a, &ra), step_random(b, &rb));
                assert_int_equal(tg_equal(a, b), 1);
            }
            stpete_state_free(b);
        }
        stpete_state_free(a);
        stpete_game_free(g);
    }
    assert_true(found);
}

/* ---- clone, copy ------------------------------------------------------------------------------- */

static int count_events_cb_calls;
static void count_events_cb(const stpete_state *state, const stpete_event *ev, void *user)
{
    (void)state;
    (void)ev;
    (void)user;
    count_events_cb_calls++;
}

static void test_clone_copy_independence(void **unused)
{
    (void)unused;
    stpete_game *g = make_game(4, 31337);
    stpete_state *a = make_state(g);
    uint64_t rng = 17;
    for (int i = 0; i < 30; i++)
        step_random(a, &rng);
    stpete_state *b = NULL;
    assert_int_equal(stpete_state_clone(a, &b, NULL), STPETE_OK);
    assert_ptr_equal(stpete_state_game(b), g);
    assert_int_equal(tg_equal(a, b), 1);
    stpete_state *a0 = NULL;
    assert_int_equal(stpete_state_clone(a, &a0, NULL), STPETE_OK);

    /* advancing the clone does not touch the original */
    uint64_t rng_b = 99;
    for (int i = 0; i < 20 && !tg_is_terminal(b); i++)
        step_random(b, &rng_b);
    assert_int_equal(tg_equal(a, a0), 1);
    assert_int_equal(tg_equal(a, b), 0);

    /* the same moves on original and clone give equal states (the PRNG is part of the state) */
    stpete_state *c = NULL;
    assert_int_equal(stpete_state_clone(a, &c, NULL), STPETE_OK);
    uint64_t r1 = 5, r2 = 5;
    while (!tg_is_terminal(a)) {
        int x = step_random(a, &r1);
        int y = step_random(c, &r2);
        assert_int_equal(x, y);
        assert_int_equal(tg_equal(a, c), 1);
    }
    /* copy restores a position, without allocating, into a state that diverged */
    assert_int_equal(stpete_state_copy(a, a0), STPETE_OK);
    assert_int_equal(tg_equal(a, a0), 1);
    assert_string_equal(stpete_state_last_error(a), "");
    step_random(a, &rng);
    assert_int_equal(tg_equal(a, a0), 0);
    assert_int_equal(stpete_state_copy(a, a), STPETE_OK); /* self copy is a no-op */

    /* the event callback is not copied by clone; copy keeps the destination's */
    count_events_cb_calls = 0;
    assert_int_equal(stpete_state_set_event_callback(a0, count_events_cb, NULL), STPETE_OK);
    stpete_state *d = NULL;
    assert_int_equal(stpete_state_clone(a0, &d, NULL), STPETE_OK);
    step_random(d, &rng);
    assert_int_equal(count_events_cb_calls, 0);
    assert_int_equal(stpete_state_copy(a0, d), STPETE_OK);
    assert_int_equal(tg_equal(a0, d), 1);
    step_random(a0, &rng);                  /* a move on a0... */
    assert_true(count_events_cb_calls > 0); /* ...is reported to a0's own callback */

    stpete_state_free(a);
    stpete_state_free(a0);
    stpete_state_free(b);
    stpete_state_free(c);
    stpete_state_free(d);
    stpete_game_free(g);
}

static void test_copy_mismatch(void **unused)
{
    (void)unused;
    stpete_options base;
    stpete_options_init(&base);
    base.players = 4;
    stpete_game *g = NULL;
    assert_int_equal(stpete_game_new(&base, &g, NULL), STPETE_OK);
    stpete_state *st = make_state(g);

    for (int variant = 0; variant < 6; variant++) {
        stpete_options o = base;
        switch (variant) {
        case 0: o.players = 3; break;
        case 1: o.players = 2; break;
        case 2: o.pub_cap = STPETE_PUB_CAP_PER_PLAYER; break;
        case 3: o.tie_break = STPETE_TIE_BREAK_RUBLES_TOTAL; break;
        case 4: o.start_markers[0] = 0; o.start_markers[1] = 1; o.start_markers[2] = 2; o.start_markers[3] = 3; break;
        default: o.public_rubles = 1; break;
        }
        stpete_game *h = NULL;
        assert_int_equal(stpete_game_new(&o, &h, NULL), STPETE_OK);
        stpete_state *other = make_state(h);
        stpete_state *before = NULL, *other_before = NULL;
        assert_int_equal(stpete_state_clone(st, &before, NULL), STPETE_OK);
        assert_int_equal(stpete_state_clone(other, &other_before, NULL), STPETE_OK);
        assert_int_equal(stpete_state_copy(st, other), STPETE_E_MISMATCH);
        assert_true(strlen(stpete_state_last_error(st)) > 0);
        assert_int_equal(stpete_state_copy(other, st), STPETE_E_MISMATCH);
        assert_int_equal(tg_equal(st, before), 1);
        assert_int_equal(tg_equal(other, other_before), 1);
        assert_int_equal(tg_equal(st, other), 0);
        stpete_state_free(before);
        stpete_state_free(other_before);
        stpete_state_free(other);
        stpete_game_free(h);
    }
    /* a second game with the same options: copy works both ways */
    stpete_game *same = NULL;
    assert_int_equal(stpete_game_new(&base, &same, NULL), STPETE_OK);
    stpete_state *twin = make_state(same);
    uint64_t rng = 1;
    for (int i = 0; i < 10; i++)
        step_random(twin, &rng);
    assert_int_equal(stpete_state_copy(st, twin), STPETE_OK);
    assert_int_equal(tg_equal(st, twin), 1);
    stpete_state_free(twin);
    stpete_game_free(same);
    stpete_state_free(st);
    stpete_game_free(g);
}

/* ---- determinism, seeds, reset ------------------------------------------------------------------ */

static void test_determinism(void **unused)
{
    (void)unused;
    for (int players = 2; players <= 4; players++) {
        for (uint64_t seed = 0; seed < 5; seed++) {
            /* two independent games with the same options and seed */
            stpete_game *g1 = make_game(players, seed * 7919 + 1);
            stpete_game *g2 = make_game(players, seed * 7919 + 1);
            stpete_state *a = make_state(g1);
            stpete_state *b = make_state(g2);
            uint64_t ra = seed + 100, rb = seed + 100;
            int moves = 0;
            assert_int_equal(tg_equal(a, b), 1);
            while (!tg_is_terminal(a)) {
                int ids_a[STPETE_MAX_LEGAL_ACTIONS], ids_b[STPETE_MAX_LEGAL_ACTIONS];
                size_t na = 0, nb = 0;
                assert_int_equal(stpete_state_legal_actions(a, ids_a, STPETE_MAX_LEGAL_ACTIONS, &na), STPETE_OK);
                assert_int_equal(stpete_state_legal_actions(b, ids_b, STPETE_MAX_LEGAL_ACTIONS, &nb), STPETE_OK);
                assert_int_equal(na, nb);
                assert_memory_equal(ids_a, ids_b, na * sizeof ids_a[0]);
                int x = step_random(a, &ra);
                int y = step_random(b, &rb);
                assert_int_equal(x, y);
                assert_true(++moves < 5000);
            }
            assert_int_equal(tg_is_terminal(b), 1);
            assert_int_equal(tg_equal(a, b), 1);
            unsigned wa = 0, wb = 0;
            assert_int_equal(stpete_state_winners(a, &wa), STPETE_OK);
            assert_int_equal(stpete_state_winners(b, &wb), STPETE_OK);
            assert_int_equal(wa, wb);
            for (int s = 0; s < players; s++) {
                int va = 0, vb = 0;
                assert_int_equal(stpete_state_vp(a, s, &va), STPETE_OK);
                assert_int_equal(stpete_state_vp(b, s, &vb), STPETE_OK);
                assert_int_equal(va, vb);
            }
            stpete_state_free(a);
            stpete_state_free(b);
            stpete_game_free(g1);
            stpete_game_free(g2);
        }
    }
}

/* A summary of a setup: upper row, start markers. */
static void setup_signature(const stpete_state *st, char *out, size_t size)
{
    int row[STPETE_BOARD_SIZE];
    size_t n = 0;
    assert_int_equal(stpete_state_row(st, STPETE_SOURCE_UPPER, row, STPETE_BOARD_SIZE, &n), STPETE_OK);
    size_t len = 0;
    for (size_t i = 0; i < n; i++)
        len += (size_t)snprintf(out + len, size - len, "%d,", row[i]);
    for (int k = 0; k < 4; k++)
        len += (size_t)snprintf(out + len, size - len, "m%d", stpete_state_marker_holder(st, k));
}

static void test_seeds_differ(void **unused)
{
    (void)unused;
    enum { SEEDS = 64 };
    for (int players = 2; players <= 4; players++) {
        static char sig[SEEDS][128];
        stpete_state *states[SEEDS];
        stpete_game *games[SEEDS];
        for (int i = 0; i < SEEDS; i++) {
            games[i] = make_game(players, (uint64_t)i);
            states[i] = make_state(games[i]);
            setup_signature(states[i], sig[i], sizeof sig[i]);
        }
        int distinct_sig = 0, distinct_state = 0;
        for (int i = 0; i < SEEDS; i++) {
            int dup_sig = 0, dup_state = 0;
            for (int j = 0; j < i; j++) {
                dup_sig |= strcmp(sig[i], sig[j]) == 0;
                dup_state |= tg_equal(states[i], states[j]) == 1;
            }
            distinct_sig += !dup_sig;
            distinct_state += !dup_state;
        }
        /* the visible setup differs for most seeds; full positions (stacks, PRNG) for all */
        assert_true(distinct_sig >= SEEDS * 9 / 10);
        assert_int_equal(distinct_state, SEEDS);
        /* the same seed, the same setup */
        stpete_game *again = make_game(players, 5);
        stpete_state *st = make_state(again);
        assert_int_equal(tg_equal(st, states[5]), 1);
        stpete_state_free(st);
        stpete_game_free(again);
        for (int i = 0; i < SEEDS; i++) {
            stpete_state_free(states[i]);
            stpete_game_free(games[i]);
        }
    }
}

static void test_reset(void **unused)
{
    (void)unused;
    for (int players = 2; players <= 4; players++) {
        stpete_game *g = make_game(players, 1);
        stpete_state *st = make_state(g);
        uint64_t rng = 8;
        for (uint64_t seed = 0; seed < 20; seed++) {
            /* play a bit, then reset: equal to a fresh state of a game with that seed */
            for (int i = 0; i < 25 && !tg_is_terminal(st); i++)
                step_random(st, &rng);
            uint64_t s = seed * UINT64_C(0x9E3779B97F4A7C15);
            assert_int_equal(stpete_state_reset(st, s), STPETE_OK);
            stpete_game *h = make_game(players, s);
            stpete_state *fresh = make_state(h);
            assert_int_equal(tg_equal(st, fresh), 1);
            assert_int_equal(stpete_state_round(st), 1);
            assert_int_equal(stpete_state_phase(st), STPETE_PHASE_WORKER);
            stpete_state_free(fresh);
            stpete_game_free(h);
        }
        /* reset to the game's own seed = a new state */
        assert_int_equal(stpete_state_reset(st, 1), STPETE_OK);
        stpete_state *fresh = make_state(g);
        assert_int_equal(tg_equal(st, fresh), 1);
        stpete_state_free(fresh);
        /* reset after the end of a game */
        play_to_end(st, 4);
        assert_int_equal(stpete_state_reset(st, 1), STPETE_OK);
        assert_int_equal(tg_is_terminal(st), 0);
        fresh = make_state(g);
        assert_int_equal(tg_equal(st, fresh), 1);
        stpete_state_free(fresh);
        stpete_state_free(st);
        stpete_game_free(g);
    }
}

/* Initial state: the public facts of §3 setup (R15). */
static void test_initial_state(void **unused)
{
    (void)unused;
    for (int players = 2; players <= 4; players++) {
        for (uint64_t seed = 0; seed < 10; seed++) {
            stpete_game *g = make_game(players, seed);
            stpete_state *st = make_state(g);
            assert_int_equal(stpete_state_round(st), 1);
            assert_int_equal(stpete_state_phase(st), STPETE_PHASE_WORKER);
            assert_int_equal(stpete_state_decision(st), STPETE_DECISION_TURN);
            assert_int_equal(tg_is_terminal(st), 0);
            assert_int_equal(tg_is_final_round(st), 0);
            assert_int_equal(stpete_state_consecutive_passes(st), 0);
            assert_int_equal(stpete_state_observatory_card(st), -1);
            assert_int_equal(stpete_state_current_player(st), stpete_state_marker_holder(st, STPETE_PHASE_WORKER));
            int held[4] = { 0 };
            for (int k = 0; k < 4; k++) {
                int s = stpete_state_marker_holder(st, k);
                assert_true(s >= 0 && s < players);
                held[s]++;
            }
            for (int s = 0; s < players; s++) {
                assert_true(held[s] == (players == 4 ? 1 : players == 2 ? 2 : held[s]));
                assert_true(held[s] >= 1 && held[s] <= 2);
                assert_int_equal(stpete_state_rubles(st, s), 25);
                int vp = -1;
                assert_int_equal(stpete_state_vp(st, s, &vp), STPETE_OK);
                assert_int_equal(vp, 0);
                assert_int_equal(stpete_state_hand_limit(st, s), 3);
                assert_int_equal(stpete_state_observatories_used(st, s), 0);
            }
            size_t n = 0;
            int row[STPETE_BOARD_SIZE];
            assert_int_equal(stpete_state_row(st, STPETE_SOURCE_UPPER, row, STPETE_BOARD_SIZE, &n), STPETE_OK);
            assert_int_equal(n, 2 * (size_t)players);
            for (size_t i = 0; i < n; i++)
                assert_true(row[i] <= STPETE_CARD_CZAR_AND_CARPENTER);
            assert_int_equal(stpete_state_stack_size(st, STPETE_STACK_WORKER), 31 - 2 * players);
            assert_int_equal(stpete_state_stack_size(st, STPETE_STACK_BUILDING), 28);
            assert_int_equal(stpete_state_stack_size(st, STPETE_STACK_ARISTOCRAT), 27);
            assert_int_equal(stpete_state_stack_size(st, STPETE_STACK_TRADING), 30);
            stpete_state_free(st);
            stpete_game_free(g);
        }
    }
}

TEST_GROUP(api_state,
    cmocka_unit_test(test_equal_positions_from_different_orders),
    cmocka_unit_test(test_clone_copy_independence),
    cmocka_unit_test(test_copy_mismatch),
    cmocka_unit_test(test_determinism),
    cmocka_unit_test(test_seeds_differ),
    cmocka_unit_test(test_reset),
    cmocka_unit_test(test_initial_state));
