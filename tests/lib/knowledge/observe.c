/* Hidden information (§9): stpete_state_determinize, the determinization for search bots. Uses only the public API
 * (views and JSON from the serialization tests' module) to check that a seat's knowledge is kept exactly and that
 * what it cannot know is redrawn, consistently with the rules and without bias. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "stpete/stpete.h"
#include "test_game.h"
#include "test_json.h"
#include "test_rng.h"

static char before_text[1 << 16], after_text[1 << 16];

/* Random observe_play biased towards taking cards into hand, so that hands hold secrets; stops after `moves` moves. */
static void observe_play(stpete_state *st, int moves, uint64_t *rng)
{
    assert_int_equal(play_taking(st, moves, rng), STPETE_OK);
}

/* The same position with every hand card unseen (JSON "hand_known" false) and no rubles recalled
 * ("rubles_recalled" false): as if loaded from a source that did not record which cards were taken in view of all
 * nor the purses. In observe_play every hand card is seen (§9), so only such positions have hidden hand cards to
 * redraw. Replaces *st. */
static void forget_all_hands(stpete_state **st)
{
    json_t *doc = state_doc(*st);
    json_object_set_new(doc, "rubles_recalled", json_false()); /* nor does it remember the purses */
    json_t *players = json_object_get(doc, "players");
    for (size_t p = 0; p < json_array_size(players); p++) {
        json_t *known = json_object_get(json_array_get(players, p), "hand_known");
        for (size_t h = 0; h < json_array_size(known); h++)
            json_array_set_new(known, h, json_false());
    }
    stpete_state *out = load_doc(stpete_state_game(*st), doc);
    json_decref(doc);
    stpete_state_free(*st);
    *st = out;
}

/* The seat's view is byte-identical after resampling, the result is a valid full state (it loads: 116 cards,
 * stacks of their kind, §2) that plays on to the end, and something the seat cannot see did change. */
static void test_resample_keeps_the_seats_knowledge(void **unused)
{
    (void)unused;
    int changed_stacks = 0, changed_hands = 0, states_with_hidden_hands = 0;
    for (int players = 2; players <= 4; players++)
        for (int k = 0; k < 40; k++) {
            stpete_game *g = make_game(players, (uint64_t)(k + 100 * players));
            stpete_state *st = NULL, *copy = NULL;
            assert_int_equal(stpete_state_new(g, &st, NULL), STPETE_OK);
            uint64_t rng = (uint64_t)k * 13u + (uint64_t)players;
            observe_play(st, 20 + rng_below(&rng, 150), &rng);
            forget_all_hands(&st);
            for (int seat = 0; seat < players; seat++) {
                assert_int_equal(stpete_state_clone(st, &copy, NULL), STPETE_OK);
                size_t lb, la;
                assert_int_equal(stpete_state_view_to_json(st, seat, before_text, sizeof before_text, &lb), 0);
                assert_int_equal(stpete_state_determinize(copy, seat, rng_next(&rng), 0), STPETE_OK);
                assert_int_equal(stpete_state_view_to_json(copy, seat, after_text, sizeof after_text, &la), 0);
                assert_int_equal(la, lb);
                assert_memory_equal(before_text, after_text, la);
                /* a valid full state: it loads (all of §2's checks) and plays on */
                assert_int_equal(stpete_state_to_json(copy, after_text, sizeof after_text, &la), STPETE_OK);
                stpete_state *loaded = NULL;
                stpete_error err = STPETE_ERROR_INIT;
                if (stpete_state_from_json(g, after_text, la, &loaded, &err) != STPETE_OK)
                    fail_msg("resampled state does not load: %s", err.message);
                stpete_state_free(loaded);
                /* what changed */
                int own_before[STPETE_MAX_HAND], own_after[STPETE_MAX_HAND];
                size_t n1, n2;
                stpete_state_hand(st, seat, own_before, STPETE_MAX_HAND, &n1);
                stpete_state_hand(copy, seat, own_after, STPETE_MAX_HAND, &n2);
                assert_int_equal(n1, n2);
                assert_memory_equal(own_before, own_after, n1 * sizeof *own_before);
                assert_int_equal(stpete_state_to_json(st, before_text, sizeof before_text, &lb), STPETE_OK);
                char *sa = strstr(before_text, "\"stacks\""), *sb = strstr(after_text, "\"stacks\"");
                char *ea = strstr(before_text, "\"upper_row\""), *eb = strstr(after_text, "\"upper_row\"");
                changed_stacks += (ea - sa) != (eb - sb) || memcmp(sa, sb, (size_t)(ea - sa)) != 0;
                if (hand_cards_of_others(st, seat, players) > 0) {
                    states_with_hidden_hands++;
                    for (int p = 0; p < players; p++) {
                        int h1[STPETE_MAX_HAND], h2[STPETE_MAX_HAND];
                        stpete_state_hand(st, p, h1, STPETE_MAX_HAND, &n1);
                        stpete_state_hand(copy, p, h2, STPETE_MAX_HAND, &n2);
                        changed_hands += memcmp(h1, h2, n1 * sizeof *h1) != 0;
                    }
                }
                observe_play(copy, 10000, &rng);
                assert_int_equal(tg_is_terminal(copy), 1);
                stpete_state_free(copy);
            }
            stpete_state_free(st);
            stpete_game_free(g);
        }
    assert_true(changed_stacks > 300); /* 360 resamples; a stack of 2+ cards keeps its order rarely */
    assert_true(states_with_hidden_hands > 50);
    assert_true(changed_hands > states_with_hidden_hands / 3);
}

/* With public hands (§9 option) only the stacks are redrawn; the same seed gives the same draw. */
static void test_resample_public_hands_and_determinism(void **unused)
{
    (void)unused;
    stpete_game *g = make_game_with(.players = 3, .seed = 9, .public_hands = 1);
    stpete_state *st = NULL, *a = NULL, *b = NULL;
    assert_int_equal(stpete_state_new(g, &st, NULL), STPETE_OK);
    uint64_t rng = 9;
    observe_play(st, 80, &rng);
    assert_int_equal(stpete_state_clone(st, &a, NULL), STPETE_OK);
    assert_int_equal(stpete_state_clone(st, &b, NULL), STPETE_OK);
    assert_int_equal(stpete_state_determinize(a, 1, 555, 0), STPETE_OK);
    assert_int_equal(stpete_state_determinize(b, 1, 555, 0), STPETE_OK);
    assert_int_equal(tg_equal(a, b), 1);
    assert_int_equal(stpete_state_determinize(b, 1, 556, 0), STPETE_OK);
    assert_int_equal(tg_equal(a, b), 0);
    for (int p = 0; p < 3; p++) {
        int h1[STPETE_MAX_HAND], h2[STPETE_MAX_HAND];
        size_t n1, n2;
        stpete_state_hand(st, p, h1, STPETE_MAX_HAND, &n1);
        stpete_state_hand(a, p, h2, STPETE_MAX_HAND, &n2);
        assert_int_equal(n1, n2);
        assert_memory_equal(h1, h2, n1 * sizeof *h1);
    }
    /* the public view is unchanged too */
    size_t l1, l2;
    stpete_state_view_to_json(st, STPETE_VIEW_PUBLIC, before_text, sizeof before_text, &l1);
    stpete_state_view_to_json(a, STPETE_VIEW_PUBLIC, after_text, sizeof after_text, &l2);
    assert_int_equal(l1, l2);
    assert_memory_equal(before_text, after_text, l1);
    stpete_state_free(a);
    stpete_state_free(b);
    stpete_state_free(st);
    stpete_game_free(g);
}

/* A determinization is a function of the seed and of what the seat knows (§9): two positions the seat cannot tell
 * apart (equal information-state keys: one is a determinization of the other, with unseen hand cards and secret
 * rubles) give equal states for the same seed, whatever the secret order, hands and rubles they replace. */
static void test_determinize_depends_only_on_the_seats_knowledge(void **unused)
{
    (void)unused;
    stpete_game *g = make_game(3, 21);
    stpete_state *st = NULL, *other = NULL;
    assert_int_equal(stpete_state_new(g, &st, NULL), STPETE_OK);
    uint64_t rng = 21;
    observe_play(st, 70, &rng);
    forget_all_hands(&st);
    for (int seat = 0; seat < 3; seat++) {
        assert_int_equal(stpete_state_clone(st, &other, NULL), STPETE_OK);
        assert_int_equal(stpete_state_determinize(other, seat, 4242 + (uint64_t)seat, STPETE_DETERMINIZE_RUBLES),
                         STPETE_OK);
        uint64_t k1 = 0, k2 = 0;
        assert_int_equal(stpete_state_information_state_key(st, seat, &k1), STPETE_OK);
        assert_int_equal(stpete_state_information_state_key(other, seat, &k2), STPETE_OK);
        assert_true(k1 == k2);                              /* the seat cannot tell them apart */
        assert_int_equal(tg_equal(other, st), 0); /* but the secrets differ */
        stpete_state *a = NULL;
        assert_int_equal(stpete_state_clone(st, &a, NULL), STPETE_OK);
        assert_int_equal(stpete_state_determinize(a, seat, 77, STPETE_DETERMINIZE_RUBLES), STPETE_OK);
        assert_int_equal(stpete_state_determinize(other, seat, 77, STPETE_DETERMINIZE_RUBLES), STPETE_OK);
        assert_int_equal(tg_equal(a, other), 1);
        stpete_state_free(a);
        stpete_state_free(other);
        other = NULL;
    }
    stpete_state_free(st);
    stpete_game_free(g);
}

static void test_resample_bad_input(void **unused)
{
    (void)unused;
    stpete_game *g = make_game(2, 1);
    stpete_state *st = NULL, *before = NULL;
    assert_int_equal(stpete_state_new(g, &st, NULL), STPETE_OK);
    assert_int_equal(stpete_state_clone(st, &before, NULL), STPETE_OK);
    assert_int_equal(stpete_state_determinize(NULL, 0, 1, 0), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_state_determinize(st, 2, 1, 0), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_state_determinize(st, -1, 1, 0), STPETE_E_INVALID_ARGUMENT);
    assert_true(strlen(stpete_state_last_error(st)) > 0);
    assert_int_equal(tg_equal(st, before), 1);
    stpete_state_free(before);
    stpete_state_free(st);
    stpete_game_free(g);
}

/* Unseen cards per stack kind from the full JSON: the stack's list plus the hidden hand cards with its back. */
static const char *const stack_keys[4] = { "worker", "building", "aristocrat", "trading" };

static int stack_kind(int card)
{
    return tg_card_stack(card);
}

/* The cards of each stack of a state's document (text), counted by type into pool and pool_n (the pool a
 * determinization draws from, with the hidden hand's cards). */
static void count_stacks(const char *text, int pool[4][STPETE_NUM_CARD_TYPES], int pool_n[4])
{
    json_t *doc = json_loads(text, 0, NULL);
    assert_non_null(doc);
    for (int s = 0; s < 4; s++) {
        json_t *list = json_object_get(json_object_get(doc, "stacks"), stack_keys[s]);
        for (size_t i = 0; i < json_array_size(list); i++) {
            int t;
            assert_int_equal(stpete_card_from_name(json_string_value(json_array_get(list, i)), &t), STPETE_OK);
            pool[s][t]++;
            pool_n[s]++;
        }
    }
    json_decref(doc);
}

/* Play st (2 players) to a position where seat 1 holds a trading card and another card in hand, the trading stack
 * at least 5 cards. */
static void play_to_hidden_trading_card(stpete_state *st)
{
    uint64_t rng = 3;
    int found = 0;
    for (int attempt = 0; attempt < 2000 && !found; attempt++) {
        assert_int_equal(stpete_state_reset(st, (uint64_t)attempt), STPETE_OK);
        for (int m = 0; m < 300 && !found && !tg_is_terminal(st); m++) {
            observe_play(st, 1, &rng);
            int h[STPETE_MAX_HAND], trading = 0;
            size_t n1;
            stpete_state_hand(st, 1, h, STPETE_MAX_HAND, &n1);
            for (size_t i = 0; i < n1; i++)
                trading += stack_kind(h[i]) == STPETE_STACK_TRADING;
            found = trading >= 1 && n1 >= 2 && stpete_state_stack_size(st, STPETE_STACK_TRADING) >= 5;
        }
    }
    assert_true(found);
}

/* Count the bottom card of each stack of a state's document (text) into bottom. */
static void count_bottom_cards(const char *text, int bottom[4][STPETE_NUM_CARD_TYPES])
{
    json_t *j = json_loads(text, 0, NULL);
    for (int s = 0; s < 4; s++) {
        json_t *list = json_object_get(json_object_get(j, "stacks"), stack_keys[s]);
        int t;
        if (json_array_size(list) > 0) {
            assert_int_equal(stpete_card_from_name(json_string_value(json_array_get(list, 0)), &t), 0);
            bottom[s][t]++;
        }
    }
    json_decref(j);
}

/* No bias: from a position where seat 1 holds hidden cards (seen from seat 0), over 6000 resamples the bottom card
 * of every stack and every hidden hand card must follow the shares of the unseen cards of its kind (all of them
 * exchangeable, §9), within 5 standard deviations. A resampler that deals the hand first and the stack from the
 * leftovers in order, or draws hands from the wrong kind, fails this. */
static void test_resample_is_unbiased(void **unused)
{
    (void)unused;
    stpete_game *g = make_game(2, 3);
    stpete_state *st = NULL, *copy = NULL;
    assert_int_equal(stpete_state_new(g, &st, NULL), STPETE_OK);
    play_to_hidden_trading_card(st);
    forget_all_hands(&st);
    size_t len;
    assert_int_equal(stpete_state_to_json(st, before_text, sizeof before_text, &len), STPETE_OK);
    int pool[4][STPETE_NUM_CARD_TYPES] = { { 0 } }, pool_n[4] = { 0 };
    count_stacks(before_text, pool, pool_n);
    int hand[STPETE_MAX_HAND];
    size_t hand_n;
    stpete_state_hand(st, 1, hand, STPETE_MAX_HAND, &hand_n);
    for (size_t i = 0; i < hand_n; i++) {
        pool[stack_kind(hand[i])][hand[i]]++;
        pool_n[stack_kind(hand[i])]++;
    }
    int draws = 6000;
    static int bottom[4][STPETE_NUM_CARD_TYPES], in_hand[STPETE_MAX_HAND][STPETE_NUM_CARD_TYPES];
    for (int d = 0; d < draws; d++) {
        assert_int_equal(stpete_state_clone(st, &copy, NULL), STPETE_OK);
        assert_int_equal(stpete_state_determinize(copy, 0, (uint64_t)d, 0), STPETE_OK);
        assert_int_equal(stpete_state_to_json(copy, after_text, sizeof after_text, &len), STPETE_OK);
        count_bottom_cards(after_text, bottom);
        int x[STPETE_MAX_HAND];
        size_t n;
        stpete_state_hand(copy, 1, x, STPETE_MAX_HAND, &n);
        assert_int_equal(n, hand_n);
        for (size_t i = 0; i < n; i++) {
            assert_int_equal(stack_kind(x[i]), stack_kind(hand[i])); /* the back is public */
            in_hand[i][x[i]]++;
        }
        stpete_state_free(copy);
    }
    int checked = 0;
    for (int t = 0; t < STPETE_NUM_CARD_TYPES; t++) {
        int s = stack_kind(t);
        for (int k = -1; k < (int)hand_n; k++) {
            if (k >= 0 && stack_kind(hand[k]) != s)
                continue;
            if (k < 0 && stpete_state_stack_size(st, s) == 0)
                continue;
            int got = k < 0 ? bottom[s][t] : in_hand[k][t];
            double prob = (double)pool[s][t] / pool_n[s], mean = draws * prob, sd = sqrt(draws * prob * (1 - prob));
            if (fabs(got - mean) > 5 * sd + 1e-9)
                fail_msg("%s %s: drawn %d times, expected %.1f ± %.1f", tg_card_name(STPETE_EDITION_FIRST, t),
                         k < 0 ? "at the bottom of its stack" : "in the hidden hand", got, mean, sd);
            checked++;
        }
    }
    assert_true(checked > 40);
    stpete_state_free(st);
    stpete_game_free(g);
}

/* Perfect recall (§9, issue 12): in a game played from the start every hand card was taken in view of all (from
 * the board, or after an Observatory draw shown to everyone, §7.1), so a determinization keeps every hand card of
 * every seat and redraws only the order of the stacks; the seat's observation and information state key stay. */
static void test_resample_keeps_every_seen_card(void **unused)
{
    (void)unused;
    int hands_seen = 0;
    for (int players = 2; players <= 4; players++) {
        stpete_game *g = make_game(players, 40 + (uint64_t)players);
        stpete_state *st = NULL, *copy = NULL;
        assert_int_equal(stpete_state_new(g, &st, NULL), STPETE_OK);
        uint64_t rng = 17u * (uint64_t)players;
        for (int step = 0; step < 12; step++) {
            observe_play(st, 12, &rng);
            if (tg_is_terminal(st))
                break;
            for (int seat = 0; seat < players; seat++) {
                assert_int_equal(stpete_state_clone(st, &copy, NULL), STPETE_OK);
                assert_int_equal(stpete_state_determinize(copy, seat, rng_next(&rng), 0), STPETE_OK);
                for (int p = 0; p < players; p++) {
                    int h1[STPETE_MAX_HAND], h2[STPETE_MAX_HAND];
                    size_t n1, n2;
                    stpete_state_hand(st, p, h1, STPETE_MAX_HAND, &n1);
                    stpete_state_hand(copy, p, h2, STPETE_MAX_HAND, &n2);
                    assert_int_equal(n1, n2);
                    assert_memory_equal(h1, h2, n1 * sizeof *h1);
                    hands_seen += p != seat && n1 > 0;
                }
                float a[1024], b[1024];
                int size = stpete_game_observation_tensor_size(g);
                assert_true(size > 0 && size <= 1024);
                assert_int_equal(stpete_state_observation_tensor(st, seat, a, 1024), STPETE_OK);
                assert_int_equal(stpete_state_observation_tensor(copy, seat, b, 1024), STPETE_OK);
                assert_memory_equal(a, b, (size_t)size * sizeof *a);
                uint64_t k1, k2;
                assert_int_equal(stpete_state_information_state_key(st, seat, &k1), STPETE_OK);
                assert_int_equal(stpete_state_information_state_key(copy, seat, &k2), STPETE_OK);
                assert_true(k1 == k2);
                stpete_state_free(copy);
            }
        }
        stpete_state_free(st);
        stpete_game_free(g);
    }
    assert_true(hands_seen > 20);
}

/* §9: the card an Observatory draws is shown to everyone: every per-seat view and the public view name it while
 * its owner decides (and the full state too). */
static void test_observatory_card_in_every_view(void **unused)
{
    (void)unused;
    int found = 0;
    for (int players = 2; players <= 4; players++) {
        stpete_game *g = make_game(players, 77);
        stpete_state *st = NULL;
        assert_int_equal(stpete_state_new(g, &st, NULL), STPETE_OK);
        uint64_t rng = 3 + (uint64_t)players;
        for (uint64_t seed = 1; seed < 400 && found < 3 * (players - 1); seed++) {
            assert_int_equal(stpete_state_reset(st, seed), STPETE_OK);
            while (!tg_is_terminal(st) && found < 3 * (players - 1)) {
                if (stpete_state_decision(st) == STPETE_DECISION_OBSERVATORY) {
                    const char *drawn = tg_card_name(STPETE_EDITION_FIRST, stpete_state_observatory_card(st));
                    assert_non_null(drawn);
                    for (int seat = STPETE_VIEW_PUBLIC; seat < players; seat++) {
                        size_t len = 0;
                        assert_int_equal(stpete_state_view_to_json(st, seat, before_text, sizeof before_text, &len),
                                         STPETE_OK);
                        json_t *v = json_loads(before_text, 0, NULL);
                        assert_non_null(v);
                        const char *shown = json_string_value(json_object_get(v, "observatory_card"));
                        assert_non_null(shown);
                        assert_string_equal(shown, drawn);
                        json_decref(v);
                    }
                    found++;
                }
                int ids[STPETE_MAX_LEGAL_ACTIONS];
                size_t n = 0;
                assert_int_equal(stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS, &n), STPETE_OK);
                int pick = ids[rng_below(&rng, (int)n)];
                for (size_t i = 0; i < n && rng_below(&rng, 2); i++) /* prefer Observatory draws when offered */
                    if (ids[i] >= 741 && ids[i] < 745)
                        pick = ids[i];
                assert_int_equal(stpete_state_apply(st, pick), STPETE_OK);
            }
        }
        stpete_state_free(st);
        stpete_game_free(g);
    }
    assert_int_equal(found, 9); /* three draws seen in each player count */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_resample_keeps_the_seats_knowledge),
        cmocka_unit_test(test_resample_public_hands_and_determinism),
        cmocka_unit_test(test_resample_bad_input),
        cmocka_unit_test(test_determinize_depends_only_on_the_seats_knowledge),
        cmocka_unit_test(test_resample_is_unbiased),
        cmocka_unit_test(test_observatory_card_in_every_view),
        cmocka_unit_test(test_resample_keeps_every_seen_card),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
