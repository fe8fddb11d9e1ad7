/* Public-API tests, queries: bad input on every query, display and hand buffers, the legal actions (listing, mask,
 * check), prices. Part of the program 'api' (main.c); links the shared library and uses only the public headers. */
#include "api_tests.h"

/* ---- queries: bad input ------------------------------------------------------------------------ */

/* Buffers too small report the size they need; the listing fills only a buffer large enough (stpete.h's buffer
 * convention). */
static void check_small_buffers(const stpete_state *st)
{
    int buf[STPETE_NUM_CARDS];
    size_t count = 0;
    uint8_t m[STPETE_NUM_DISTINCT_ACTIONS];
    /* buffers too small report the needed size */
    size_t upper = 0;
    assert_int_equal(stpete_state_row(st, STPETE_SOURCE_UPPER, buf, 8, &upper), STPETE_OK);
    assert_int_equal(upper, 4); /* 2 workers per player (§3.4) */
    count = 0;
    assert_int_equal(stpete_state_row(st, STPETE_SOURCE_UPPER, NULL, 0, &count), STPETE_E_BUFFER_TOO_SMALL);
    assert_int_equal(count, upper);
    count = 0;
    assert_int_equal(stpete_state_row(st, STPETE_SOURCE_UPPER, buf, upper - 1, &count), STPETE_E_BUFFER_TOO_SMALL);
    assert_int_equal(count, upper);
    count = 99;
    assert_int_equal(stpete_state_row(st, STPETE_SOURCE_LOWER, NULL, 0, &count), STPETE_OK);
    assert_int_equal(count, 0);
    count = 99;
    assert_int_equal(stpete_state_hand(st, 0, NULL, 0, &count), STPETE_OK);
    assert_int_equal(count, 0);
    count = 99;
    assert_int_equal(stpete_state_display(st, 1, NULL, 0, &count), STPETE_OK);
    assert_int_equal(count, 0);

    size_t nlegal = 0;
    int ids[STPETE_MAX_LEGAL_ACTIONS];
    assert_int_equal(stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS, &nlegal), STPETE_OK);
    assert_true(nlegal > 1);
    count = 0;
    assert_int_equal(stpete_state_legal_actions(st, NULL, 0, &count), STPETE_E_BUFFER_TOO_SMALL);
    assert_int_equal(count, nlegal);
    count = 0;
    int few[STPETE_MAX_LEGAL_ACTIONS];
    assert_int_equal(stpete_state_legal_actions(st, few, nlegal - 1, &count), STPETE_E_BUFFER_TOO_SMALL);
    assert_int_equal(count, nlegal);
    count = 0;
    assert_int_equal(stpete_state_legal_actions(st, few, nlegal, &count), STPETE_OK);
    assert_int_equal(count, nlegal);
    assert_memory_equal(few, ids, nlegal * sizeof ids[0]);
    assert_int_equal(stpete_state_legal_action_mask(st, m, STPETE_NUM_DISTINCT_ACTIONS - 1),
                     STPETE_E_BUFFER_TOO_SMALL);
    assert_int_equal(stpete_state_legal_action_mask(st, m, 0), STPETE_E_BUFFER_TOO_SMALL);
}

/* Prices (§5, §6.2): a trading card priced with a displaced type that is not one of its targets is refused; good
 * queries answer at least 1 R, and a non-trading card ignores the displaced type. */
static void check_price_queries(const stpete_state *st)
{
    const int E = STPETE_E_INVALID_ARGUMENT;
    int price = 0;
    /* a trading card priced with a displaced type that is not one of its targets (§6.2) */
    static const int bad_targets[][2] = {
        { STPETE_CARD_WHARF, -1 },
        { STPETE_CARD_WHARF, STPETE_CARD_LUMBERJACK },
        { STPETE_CARD_WHARF, STPETE_CARD_FUR_SHOP },
        { STPETE_CARD_CARPENTER_WORKSHOP, STPETE_CARD_GOLD_MINER },
        { STPETE_CARD_BANK, STPETE_CARD_AUTHOR },
        { STPETE_CARD_BANK, STPETE_CARD_HERMITAGE },
        { STPETE_CARD_BANK, STPETE_NUM_CARD_TYPES },
        { STPETE_CARD_POPE, STPETE_CARD_MARKET },
        { STPETE_CARD_CZAR, STPETE_CARD_SENATOR },
    };
    for (size_t i = 0; i < sizeof bad_targets / sizeof bad_targets[0]; i++)
        assert_int_equal(stpete_state_price(st, 0, bad_targets[i][0], STPETE_SOURCE_UPPER, bad_targets[i][1], &price),
                         E);
    /* good price queries: ≥ 1, and a non-trading card ignores `displaced` */
    assert_int_equal(stpete_state_price(st, 0, STPETE_CARD_MARKET, STPETE_SOURCE_UPPER, -1, &price), STPETE_OK);
    assert_int_equal(price, 5);
    assert_int_equal(stpete_state_price(st, 1, STPETE_CARD_MARKET, STPETE_SOURCE_LOWER, 42, &price), STPETE_OK);
    assert_int_equal(price, 4);
    assert_int_equal(stpete_state_price(st, 0, STPETE_CARD_WHARF, STPETE_SOURCE_HAND, STPETE_CARD_SHIP_BUILDER,
                                        &price), STPETE_OK);
    assert_int_equal(price, 5);
    assert_int_equal(stpete_state_price(st, 0, STPETE_CARD_PUB, STPETE_SOURCE_LOWER, -1, &price), STPETE_OK);
    assert_int_equal(price, 1);
}

/* Queries with a NULL out-pointer or buffer, a bad seat, card, row, stack, source or target are refused
 * (STPETE_E_INVALID_ARGUMENT); good price queries answer (§5, §6.2). */
static void check_bad_arguments(const stpete_state *st)
{
    const int E = STPETE_E_INVALID_ARGUMENT;
    int buf[STPETE_NUM_CARDS];
    size_t count = 0;
    int vp = 0, price = 0;
    stpete_score score = STPETE_SCORE_INIT;
    /* NULL out-pointers */
    assert_int_equal(stpete_state_row(st, 0, buf, 8, NULL), E);
    assert_int_equal(stpete_state_display(st, 0, buf, STPETE_NUM_CARDS, NULL), E);
    assert_int_equal(stpete_state_hand(st, 0, buf, STPETE_MAX_HAND, NULL), E);
    assert_int_equal(stpete_state_vp(st, 0, NULL), E);
    assert_int_equal(stpete_state_price(st, 0, STPETE_CARD_MARKET, STPETE_SOURCE_UPPER, -1, NULL), E);
    assert_int_equal(stpete_state_get_score(st, 0, NULL), E);
    assert_int_equal(stpete_state_winners(st, NULL), E);
    assert_int_equal(stpete_state_legal_actions(st, buf, STPETE_MAX_LEGAL_ACTIONS, NULL), E);
    assert_int_equal(stpete_state_legal_action_mask(st, NULL, STPETE_NUM_DISTINCT_ACTIONS), E);
    /* NULL buffer with a non-zero capacity */
    assert_int_equal(stpete_state_row(st, 0, NULL, 8, &count), E);
    assert_int_equal(stpete_state_display(st, 0, NULL, 8, &count), E);
    assert_int_equal(stpete_state_hand(st, 0, NULL, 4, &count), E);
    assert_int_equal(stpete_state_legal_actions(st, NULL, 10, &count), E);

    /* bad seats (2 players: seats 0 and 1 only) */
    static const int bad_seats[] = { -1, 2, 3, 4, 100, INT_MIN, INT_MAX };
    for (size_t i = 0; i < sizeof bad_seats / sizeof bad_seats[0]; i++) {
        int s = bad_seats[i];
        assert_int_equal(stpete_state_display_count(st, s, 0), E);
        assert_int_equal(stpete_state_display(st, s, buf, STPETE_NUM_CARDS, &count), E);
        assert_int_equal(stpete_state_hand(st, s, buf, STPETE_MAX_HAND, &count), E);
        assert_int_equal(stpete_state_hand_limit(st, s), E);
        assert_int_equal(stpete_state_rubles(st, s), E);
        assert_int_equal(stpete_state_vp(st, s, &vp), E);
        assert_int_equal(stpete_state_observatories_used(st, s), E);
        assert_int_equal(stpete_state_price(st, s, STPETE_CARD_MARKET, STPETE_SOURCE_UPPER, -1, &price), E);
        assert_int_equal(stpete_state_get_score(st, s, &score), E);
    }
    /* bad cards */
    static const int bad_cards[] = { -1, STPETE_NUM_CARD_TYPES, 255, INT_MIN, INT_MAX };
    for (size_t i = 0; i < sizeof bad_cards / sizeof bad_cards[0]; i++) {
        int c = bad_cards[i];
        assert_int_equal(stpete_state_display_count(st, 0, c), E);
        assert_int_equal(stpete_state_discard_count(st, c), E);
        assert_int_equal(stpete_state_price(st, 0, c, STPETE_SOURCE_UPPER, -1, &price), E);
    }
    /* bad rows, stacks, phases, sources */
    static const int bad_small[] = { -1, 4, 5, INT_MIN, INT_MAX };
    for (size_t i = 0; i < sizeof bad_small / sizeof bad_small[0]; i++) {
        int k = bad_small[i];
        assert_int_equal(stpete_state_row(st, k, buf, 8, &count), E);
        assert_int_equal(stpete_state_stack_size(st, k), E);
        assert_int_equal(stpete_state_marker_holder(st, k), E);
        assert_int_equal(stpete_state_price(st, 0, STPETE_CARD_MARKET, k == 4 ? 5 : k, -1, &price), E); /* 4: discard */
    }
    assert_int_equal(stpete_state_row(st, STPETE_SOURCE_HAND, buf, 8, &count), E);
    assert_int_equal(stpete_state_row(st, STPETE_SOURCE_OBSERVATORY, buf, 8, &count), E);
    check_price_queries(st);
}

/* Every query and apply refuses a NULL state (STPETE_E_INVALID_ARGUMENT). */
static void check_null_state(void)
{
    const int E = STPETE_E_INVALID_ARGUMENT;
    int buf[STPETE_NUM_CARDS];
    size_t count = 0;
    int vp = 0, price = 0;
    stpete_score score = STPETE_SCORE_INIT;
    unsigned mask = 0;
    /* NULL state */
    assert_int_equal(stpete_state_current_player(NULL), E);
    assert_int_equal(stpete_state_is_terminal(NULL, &(int){ 0 }), E);
    assert_int_equal(stpete_state_decision(NULL), E);
    assert_int_equal(stpete_state_phase(NULL), E);
    assert_int_equal(stpete_state_round(NULL), E);
    assert_int_equal(stpete_state_is_final_round(NULL, &(int){ 0 }), E);
    assert_int_equal(stpete_state_consecutive_passes(NULL), E);
    assert_int_equal(stpete_state_row(NULL, 0, buf, 8, &count), E);
    assert_int_equal(stpete_state_stack_size(NULL, 0), E);
    assert_int_equal(stpete_state_display_count(NULL, 0, 0), E);
    assert_int_equal(stpete_state_display(NULL, 0, buf, STPETE_NUM_CARDS, &count), E);
    assert_int_equal(stpete_state_hand(NULL, 0, buf, STPETE_MAX_HAND, &count), E);
    assert_int_equal(stpete_state_hand_limit(NULL, 0), E);
    assert_int_equal(stpete_state_rubles(NULL, 0), E);
    assert_int_equal(stpete_state_vp(NULL, 0, &vp), E);
    assert_int_equal(stpete_state_observatories_used(NULL, 0), E);
    assert_int_equal(stpete_state_observatory_card(NULL), E);
    assert_int_equal(stpete_state_marker_holder(NULL, 0), E);
    assert_int_equal(stpete_state_discard_count(NULL, 0), E);
    assert_int_equal(stpete_state_price(NULL, 0, STPETE_CARD_MARKET, STPETE_SOURCE_UPPER, -1, &price), E);
    assert_int_equal(stpete_state_get_score(NULL, 0, &score), E);
    assert_int_equal(stpete_state_winners(NULL, &mask), E);
    assert_int_equal(stpete_state_legal_actions(NULL, buf, STPETE_MAX_LEGAL_ACTIONS, &count), E);
    uint8_t m[STPETE_NUM_DISTINCT_ACTIONS];
    assert_int_equal(stpete_state_legal_action_mask(NULL, m, sizeof m), E);
    assert_int_equal(stpete_state_is_legal(NULL, 0, &(int){ 0 }), E);
    assert_int_equal(stpete_state_apply(NULL, 0), E);
    assert_int_equal(stpete_state_apply_string(NULL, "pass"), E);
}

static void test_queries_bad_input(void **unused)
{
    (void)unused;
    stpete_game *g = make_game(2, 11);
    stpete_state *st = make_state(g);
    stpete_state *before = NULL;
    assert_int_equal(stpete_state_clone(st, &before, NULL), STPETE_OK);
    check_null_state();
    check_bad_arguments(st);
    check_small_buffers(st);

    /* is_legal: out-of-range ids are simply not legal */
    static const int bad_ids[] = { -1, STPETE_NUM_DISTINCT_ACTIONS, 5000, INT_MIN, INT_MAX };
    for (size_t i = 0; i < sizeof bad_ids / sizeof bad_ids[0]; i++)
        assert_int_equal(tg_is_legal(st, bad_ids[i]), 0);

    /* winners before the end */
    unsigned mask = 12345;
    assert_int_equal(stpete_state_winners(st, &mask), STPETE_E_NOT_TERMINAL);
    assert_int_equal(mask, 12345);

    /* none of this changed the state */
    assert_int_equal(tg_equal(st, before), 1);
    stpete_state_free(before);
    stpete_state_free(st);
    stpete_game_free(g);
}

/* Display buffer too small once a player owns cards. */
static void test_display_hand_buffers(void **unused)
{
    (void)unused;
    stpete_game *g = make_game(3, 21);
    stpete_state *st = make_state(g);
    uint64_t rng = 7;
    int checked_display = 0, checked_hand = 0;
    while (!tg_is_terminal(st) && (!checked_display || !checked_hand)) {
        for (int s = 0; s < 3; s++) {
            int cards[STPETE_NUM_CARDS];
            size_t n = 0, n2 = 0;
            assert_int_equal(stpete_state_display(st, s, cards, STPETE_NUM_CARDS, &n), STPETE_OK);
            if (n >= 2) {
                int few[STPETE_NUM_CARDS];
                assert_int_equal(stpete_state_display(st, s, few, n - 1, &n2), STPETE_E_BUFFER_TOO_SMALL);
                assert_int_equal(n2, n);
                assert_int_equal(stpete_state_display(st, s, NULL, 0, &n2), STPETE_E_BUFFER_TOO_SMALL);
                assert_int_equal(n2, n);
                /* ascending, one entry per copy, agreeing with display_count */
                int per[STPETE_NUM_CARD_TYPES] = { 0 };
                for (size_t i = 0; i < n; i++) {
                    if (i)
                        assert_true(cards[i - 1] <= cards[i]);
                    per[cards[i]]++;
                }
                for (int t = 0; t < STPETE_NUM_CARD_TYPES; t++)
                    assert_int_equal(stpete_state_display_count(st, s, t), per[t]);
                checked_display = 1;
            }
            assert_int_equal(stpete_state_hand(st, s, cards, STPETE_MAX_HAND, &n), STPETE_OK);
            if (n >= 1) {
                assert_int_equal(stpete_state_hand(st, s, NULL, 0, &n2), STPETE_E_BUFFER_TOO_SMALL);
                assert_int_equal(n2, n);
                int few[STPETE_MAX_HAND];
                assert_int_equal(stpete_state_hand(st, s, few, n - 1, &n2), STPETE_E_BUFFER_TOO_SMALL);
                assert_int_equal(n2, n);
                checked_hand = 1;
            }
        }
        step_random(st, &rng);
    }
    assert_true(checked_display);
    assert_true(checked_hand);
    stpete_state_free(st);
    stpete_game_free(g);
}

static void test_legal_list_and_mask(void **unused)
{
    (void)unused;
    for (int players = 2; players <= 4; players++) {
        stpete_game *g = make_game(players, 1000 + (uint64_t)players);
        stpete_state *st = make_state(g);
        uint64_t rng = 31 * (uint64_t)players;
        int moves = 0;
        while (!tg_is_terminal(st)) {
            check_legal_consistency(st);
            step_random(st, &rng);
            assert_true(++moves < 5000);
        }
        check_legal_consistency(st);
        stpete_state_free(st);
        stpete_game_free(g);
    }
}

/* stpete_state_action_price(): the price of every priced legal action equals the price query with its decoded
 * arguments (§5); free actions have none (STPETE_E_NO_PRICE); illegal ones are refused. */
static void test_action_price(void **unused)
{
    (void)unused;
    stpete_game *g = make_game(3, 5);
    stpete_state *st = make_state(g);
    uint64_t rng = 17;
    long priced = 0, free_ = 0;
    for (int game = 0; game < 20; game++) {
        assert_int_equal(stpete_state_reset(st, 500 + (uint64_t)game), STPETE_OK);
        while (!tg_is_terminal(st)) {
            int ids[STPETE_MAX_LEGAL_ACTIONS];
            size_t n = 0;
            assert_int_equal(stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS, &n), STPETE_OK);
            int seat = stpete_state_current_player(st);
            for (size_t i = 0; i < n; i++) {
                stpete_action a;
                assert_int_equal(stpete_action_decode(ids[i], &a), STPETE_OK);
                int rubles = -1, rc = stpete_state_action_price(st, ids[i], &rubles);
                if (a.kind == STPETE_ACTION_BUY || a.kind == STPETE_ACTION_PLAY ||
                    a.kind == STPETE_ACTION_OBSERVATORY_BUY) {
                    int p = -1;
                    assert_int_equal(stpete_state_price(st, seat, a.card, a.source, a.displaced, &p), STPETE_OK);
                    assert_int_equal(rc, STPETE_OK);
                    assert_int_equal(rubles, p);
                    assert_true(p >= 1 && p <= stpete_state_rubles(st, seat));
                    priced++;
                } else if (a.kind == STPETE_ACTION_PUB) {
                    assert_int_equal(rc, STPETE_OK);
                    assert_int_equal(rubles, 2 * a.amount); /* §7.2 */
                } else {
                    assert_int_equal(rc, STPETE_E_NO_PRICE);
                    assert_int_equal(rubles, 0);
                    free_++;
                }
            }
            /* an id that is not legal now */
            uint8_t mask[STPETE_NUM_DISTINCT_ACTIONS];
            assert_int_equal(stpete_state_legal_action_mask(st, mask, sizeof mask), STPETE_OK);
            for (int id = 0; id < STPETE_NUM_DISTINCT_ACTIONS; id += 37)
                if (!mask[id]) {
                    int r = 0;
                    assert_int_equal(stpete_state_action_price(st, id, &r), STPETE_E_ILLEGAL_ACTION);
                }
            step_random(st, &rng);
        }
    }
    assert_true(priced > 1000 && free_ > 1000);
    int r = 0;
    assert_int_equal(stpete_state_action_price(st, 0, &r), STPETE_E_GAME_OVER);
    assert_int_equal(stpete_state_action_price(st, -1, &r), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_state_action_price(st, STPETE_NUM_DISTINCT_ACTIONS, &r), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_state_action_price(st, 0, NULL), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_state_action_price(NULL, 0, &r), STPETE_E_INVALID_ARGUMENT);
    stpete_state_free(st);
    stpete_game_free(g);
}

TEST_GROUP(api_queries,
    cmocka_unit_test(test_queries_bad_input),
    cmocka_unit_test(test_display_hand_buffers),
    cmocka_unit_test(test_legal_list_and_mask),
    cmocka_unit_test(test_action_price));
