/* What front ends draw without hard-coding it (issue 26), through the public API only: colour names (§1), the cards
 * a trading card could displace with their prices (§5.2, §6.2, R8), checked against the legal actions at every
 * decision of seeded random games and at positions loaded from JSON, and the game-over line naming the winners
 * (§8, R14). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "stpete/stpete.h"
#include "test_game.h"
#include "test_rng.h"

static void test_colour_names(void **unused)
{
    (void)unused;
    assert_string_equal(stpete_colour_name(STPETE_COLOUR_GREEN), "green");
    assert_string_equal(stpete_colour_name(STPETE_COLOUR_BLUE), "blue");
    assert_string_equal(stpete_colour_name(STPETE_COLOUR_ORANGE), "orange");
    assert_null(stpete_colour_name(-1));
    assert_null(stpete_colour_name(3));
    for (int c = 0; c < STPETE_NUM_CARD_TYPES; c++) { /* every card's colour has a name */
        stpete_card_info info = STPETE_CARD_INFO_INIT;
        assert_int_equal(stpete_card_get_info(STPETE_EDITION_FIRST, c, &info), STPETE_OK);
        assert_non_null(stpete_colour_name(info.colour));
    }
}

static int find(const stpete_displacement *d, size_t n, int displaced)
{
    for (size_t i = 0; i < n; i++)
        if (d[i].displaced == displaced)
            return (int)i;
    return -1;
}

static int is_legal(const int *ids, size_t n, int id)
{
    for (size_t i = 0; i < n; i++)
        if (ids[i] == id)
            return 1;
    return 0;
}

/* At a decision: every legal displacing buy or play is listed for its card and source with the action's price, in
 * ascending card type; and every listed displacement of a card in a row or the hand that the seat can afford is a
 * legal action (ordinary turns). Returns how many displacements were compared. */
static int check_against_legal(const stpete_state *st)
{
    int seat = stpete_state_current_player(st);
    if (seat < 0)
        return 0;
    int ids[STPETE_MAX_LEGAL_ACTIONS];
    size_t n = 0;
    assert_int_equal(stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS, &n), STPETE_OK);
    int compared = 0;
    for (size_t i = 0; i < n; i++) {
        stpete_action a;
        assert_int_equal(stpete_action_decode(ids[i], &a), STPETE_OK);
        if (a.displaced < 0)
            continue;
        stpete_displacement d[STPETE_NUM_CARD_TYPES];
        size_t k = 0;
        assert_int_equal(stpete_state_displacements(st, seat, a.card, a.source, d, STPETE_NUM_CARD_TYPES, &k),
                         STPETE_OK);
        for (size_t j = 1; j < k; j++)
            assert_true(d[j - 1].displaced < d[j].displaced);
        int at = find(d, k, a.displaced);
        assert_true(at >= 0);
        int price = -1;
        assert_int_equal(stpete_state_action_price(st, ids[i], &price), STPETE_OK);
        assert_int_equal(d[at].price, price);
        compared++;
    }
    if (stpete_state_decision(st) != STPETE_DECISION_TURN)
        return compared;
    int rubles = stpete_state_rubles(st, seat);
    for (int source = STPETE_SOURCE_UPPER; source <= STPETE_SOURCE_HAND; source++) {
        int cards[STPETE_BOARD_SIZE];
        size_t m = 0;
        if (source == STPETE_SOURCE_HAND)
            assert_int_equal(stpete_state_hand(st, seat, cards, STPETE_BOARD_SIZE, &m), STPETE_OK);
        else
            assert_int_equal(stpete_state_row(st, source, cards, STPETE_BOARD_SIZE, &m), STPETE_OK);
        for (size_t c = 0; c < m; c++) {
            stpete_card_info info = STPETE_CARD_INFO_INIT;
            stpete_card_get_info(STPETE_EDITION_FIRST, cards[c], &info);
            if (!info.trading)
                continue;
            stpete_displacement d[STPETE_NUM_CARD_TYPES];
            size_t k = 0;
            assert_int_equal(stpete_state_displacements(st, seat, cards[c], source, d, STPETE_NUM_CARD_TYPES, &k),
                             STPETE_OK);
            for (size_t j = 0; j < k; j++) {
                assert_true(d[j].price >= 1);
                assert_true(stpete_state_display_count(st, seat, d[j].displaced) > 0);
                stpete_action a = { source == STPETE_SOURCE_HAND ? STPETE_ACTION_PLAY : STPETE_ACTION_BUY, source,
                                    cards[c], d[j].displaced, -1, -1 };
                int id;
                assert_int_equal(stpete_action_encode(&a, &id), STPETE_OK);
                if (d[j].price <= rubles)
                    assert_true(is_legal(ids, n, id));
                else
                    assert_false(is_legal(ids, n, id));
            }
        }
    }
    return compared;
}

/* A state read back from its own JSON (stpete_state_to_json, stpete_state_from_json). */
static stpete_state *reload(const stpete_state *st)
{
    size_t len = 0;
    assert_int_equal(stpete_state_to_json(st, NULL, 0, &len), STPETE_E_BUFFER_TOO_SMALL);
    char *text = malloc(len + 1);
    assert_non_null(text);
    assert_int_equal(stpete_state_to_json(st, text, len + 1, &len), STPETE_OK);
    stpete_state *back = NULL;
    stpete_error err = STPETE_ERROR_INIT;
    assert_int_equal(stpete_state_from_json(stpete_state_game(st), text, len, &back, &err), STPETE_OK);
    free(text);
    return back;
}

static void test_displacements_match_legal_actions(void **unused)
{
    (void)unused;
    int compared = 0, loaded = 0;
    for (int players = 2; players <= 4; players++) {
        for (int edition = 1; edition <= 2; edition++) {
            for (uint64_t seed = 1; seed <= 6; seed++) {
                stpete_game *g = NULL;
                stpete_state *st = new_state_with(&g, .players = players, .edition = edition, .seed = seed);
                uint64_t rng = seed * 1000 + (uint64_t)players;
                for (int step = 0; !tg_is_terminal(st); step++) {
                    compared += check_against_legal(st);
                    if (step % 37 == 0) { /* a loaded position answers as the played one */
                        stpete_state *back = reload(st);
                        loaded += check_against_legal(back);
                        stpete_state_free(back);
                    }
                    step_random(st, &rng);
                }
                stpete_state_free(st);
                stpete_game_free(g);
            }
        }
    }
    print_message("# %d legal displacing actions compared, %d at loaded positions\n", compared, loaded);
    assert_true(compared > 100);
    assert_true(loaded > 5);
}

/* Bad input changes nothing; the count and a short buffer; at a loaded position, each entry's price is
 * stpete_state_price's, with the lower row's discount (§5.1). */
static void test_displacements_bad_input_and_buffers(void **unused)
{
    (void)unused;
    stpete_game *g = NULL;
    stpete_state *st = new_state_with(&g, .players = 2, .seed = 3);
    stpete_displacement d[STPETE_NUM_CARD_TYPES];
    size_t k = 99;
    const int E = STPETE_E_INVALID_ARGUMENT;
    assert_int_equal(stpete_state_displacements(NULL, 0, STPETE_CARD_WHARF, 0, d, 49, &k), E);
    assert_int_equal(stpete_state_displacements(st, 2, STPETE_CARD_WHARF, 0, d, 49, &k), E);
    assert_int_equal(stpete_state_displacements(st, -1, STPETE_CARD_WHARF, 0, d, 49, &k), E);
    assert_int_equal(stpete_state_displacements(st, 0, STPETE_CARD_MARKET, 0, d, 49, &k), E); /* not trading */
    assert_int_equal(stpete_state_displacements(st, 0, -1, 0, d, 49, &k), E);
    assert_int_equal(stpete_state_displacements(st, 0, STPETE_NUM_CARD_TYPES, 0, d, 49, &k), E);
    assert_int_equal(stpete_state_displacements(st, 0, STPETE_CARD_WHARF, 5, d, 49, &k), E); /* 4: discard (§12) */
    assert_int_equal(stpete_state_displacements(st, 0, STPETE_CARD_WHARF, -1, d, 49, &k), E);
    assert_int_equal(stpete_state_displacements(st, 0, STPETE_CARD_WHARF, 0, NULL, 1, &k), E);
    assert_int_equal(stpete_state_displacements(st, 0, STPETE_CARD_WHARF, 0, d, 49, NULL), E);
    assert_int_equal(k, 99); /* nothing written on bad input */
    /* an empty display: nothing to displace */
    assert_int_equal(stpete_state_displacements(st, 0, STPETE_CARD_WHARF, 0, NULL, 0, &k), STPETE_OK);
    assert_int_equal(k, 0);

    /* play until seat 0's display holds at least two types some trading card may displace */
    uint64_t rng = 17;
    int card = -1;
    size_t want = 0;
    while (!tg_is_terminal(st) && card < 0) {
        for (int c = 0; c < STPETE_NUM_CARD_TYPES && card < 0; c++) {
            stpete_card_info info = STPETE_CARD_INFO_INIT;
            stpete_card_get_info(STPETE_EDITION_FIRST, c, &info);
            if (info.trading && stpete_state_displacements(st, 0, c, STPETE_SOURCE_LOWER, NULL, 0, &want) ==
                                    STPETE_E_BUFFER_TOO_SMALL && want >= 2)
                card = c;
        }
        if (card < 0)
            step_random(st, &rng);
    }
    assert_true(card >= 0);
    stpete_state *back = reload(st);
    stpete_displacement one[1] = { { -7, -7 } };
    assert_int_equal(stpete_state_displacements(back, 0, card, STPETE_SOURCE_LOWER, one, 1, &k),
                     STPETE_E_BUFFER_TOO_SMALL);
    assert_int_equal(k, want);
    assert_int_equal(stpete_state_displacements(back, 0, card, STPETE_SOURCE_LOWER, d, want, &k), STPETE_OK);
    assert_int_equal(k, want);
    assert_memory_equal(one, d, sizeof one); /* the first entry, also when the buffer was short */
    for (size_t j = 0; j < k; j++) {
        int price = -1;
        assert_int_equal(stpete_state_price(back, 0, card, STPETE_SOURCE_LOWER, d[j].displaced, &price), STPETE_OK);
        assert_int_equal(d[j].price, price);
        assert_true(stpete_state_display_count(back, 0, d[j].displaced) > 0);
        int upper = -1; /* the lower row's discount (§5.1): one ruble less, at least 1 R */
        stpete_state_price(back, 0, card, STPETE_SOURCE_UPPER, d[j].displaced, &upper);
        assert_true(price == upper - 1 || price == 1);
    }
    stpete_state_free(back);
    stpete_state_free(st);
    stpete_game_free(g);
}

static void line_of(int round, int mask, char *buf, size_t size)
{
    stpete_event ev = { sizeof ev, STPETE_EVENT_GAME_OVER, -1, -1, -1, -1, -1, -1, -1, -1, mask, -1, round, 1 };
    assert_int_equal(stpete_event_to_string(&ev, NULL, buf, size), STPETE_OK);
}

static void test_game_over_line_names_winners(void **unused)
{
    (void)unused;
    char buf[STPETE_EVENT_STRING_MAX];
    line_of(6, 0x4, buf, sizeof buf);
    assert_string_equal(buf, "Game over after round 6: seat 2 wins");
    line_of(5, 0x5, buf, sizeof buf);
    assert_string_equal(buf, "Game over after round 5: seats 0 and 2 share the win");
    line_of(7, 0xb, buf, sizeof buf);
    assert_string_equal(buf, "Game over after round 7: seats 0, 1 and 3 share the win");
    line_of(8, 0xf, buf, sizeof buf);
    assert_string_equal(buf, "Game over after round 8: seats 0, 1, 2 and 3 share the win");
    line_of(6, 0x10, buf, sizeof buf); /* the fifth seat of the New Society (§12.0, R17) */
    assert_string_equal(buf, "Game over after round 6: seat 4 wins");
    line_of(7, 0x19, buf, sizeof buf);
    assert_string_equal(buf, "Game over after round 7: seats 0, 3 and 4 share the win");
    /* in real games: the line names the seats stpete_state_winners() gives */
    for (int players = 2; players <= 4; players++) {
        stpete_game *g = NULL;
        stpete_state *st = new_state_with(&g, .players = players, .seed = (uint64_t)players);
        assert_int_equal(stpete_state_set_event_queue(st, 1), STPETE_OK);
        uint64_t rng = 5;
        while (!tg_is_terminal(st))
            step_random(st, &rng);
        stpete_event ev = STPETE_EVENT_INIT, last = STPETE_EVENT_INIT;
        while (stpete_state_next_event(st, &ev) == 1)
            last = ev;
        assert_int_equal(last.kind, STPETE_EVENT_GAME_OVER);
        unsigned winners = 0;
        assert_int_equal(stpete_state_winners(st, &winners), STPETE_OK);
        char expect[128];
        int total = __builtin_popcount(winners), seen = 0, len;
        len = snprintf(expect, sizeof expect, "Game over after round %d: seat%s ", stpete_state_round(st),
                       total > 1 ? "s" : "");
        for (int s = 0; s < players; s++)
            if (winners >> s & 1) {
                seen++;
                len += snprintf(expect + len, sizeof expect - (size_t)len, "%s%d",
                                seen == 1 ? "" : seen == total ? " and " : ", ", s);
            }
        snprintf(expect + len, sizeof expect - (size_t)len, "%s", total > 1 ? " share the win" : " wins");
        assert_int_equal(stpete_event_to_string(&last, st, buf, sizeof buf), STPETE_OK);
        assert_string_equal(buf, expect);
        stpete_state_free(st);
        stpete_game_free(g);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_colour_names),
        cmocka_unit_test(test_displacements_match_legal_actions),
        cmocka_unit_test(test_displacements_bad_input_and_buffers),
        cmocka_unit_test(test_game_over_line_names_winners),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
