/* The search and learning interface (issue 12; stpete.h @ref search), through the public API only:
 *  - explicit chance mode: at every node of random games whose chance outcomes are drawn by their probabilities,
 *    the chance node is consistent (current player, decision, legal ids = outcomes, probabilities exact and adding
 *    up to 1, JSON round trip) and the game ends within stpete_game_max_length();
 *  - twins: a sampled game and the explicit game given the same outcomes are the same game (legal actions, events,
 *    information state keys, final scores);
 *  - returns (constant-sum), the observation tensor and string (exactly what §9 lets a seat know: changing a secret
 *    never changes them, changing what it sees does), the information state key (perfect recall);
 *  - history and undo at every node, in both modes;
 *  - bad input: each a status and a message, the state unchanged. */
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

#define TEXT_CAP (1 << 17)
static char text_a[TEXT_CAP], text_b[TEXT_CAP];

/* A chance outcome drawn by its probability, or a uniform legal action at a player's node. */
static int search_random_step(const stpete_state *st, uint64_t *rng)
{
    int ids[STPETE_MAX_LEGAL_ACTIONS];
    double p[STPETE_MAX_LEGAL_ACTIONS];
    size_t n = 0;
    if (stpete_state_current_player(st) == STPETE_PLAYER_CHANCE) {
        assert_int_equal(stpete_state_chance_outcomes(st, ids, p, STPETE_MAX_LEGAL_ACTIONS, &n), STPETE_OK);
        double u = (double)(rng_next(rng) >> 11) * 0x1.0p-53, acc = 0;
        for (size_t i = 0; i < n; i++) {
            acc += p[i];
            if (u < acc)
                return ids[i];
        }
        return ids[n - 1];
    }
    assert_int_equal(stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS, &n), STPETE_OK);
    assert_true(n > 0);
    return ids[rng_below(rng, (int)n)];
}

static size_t state_json_into(const stpete_state *st, char *buf)
{
    size_t len = 0;
    assert_int_equal(stpete_state_to_json(st, buf, TEXT_CAP, &len), STPETE_OK);
    return len;
}

/* ---- explicit chance mode ---------------------------------------------------------------------------- */

/* Check a chance node against the rules: the outcomes are the card types of the stack being dealt or drawn from
 * (copies left / cards left, §4.5, §7.1), or the marker deals of §3.3 (uniform); the legal ids are the outcomes. */
static void assert_chance_node(const stpete_state *st, int players)
{
    int ids[STPETE_MAX_LEGAL_ACTIONS], legal[STPETE_MAX_LEGAL_ACTIONS];
    double p[STPETE_MAX_LEGAL_ACTIONS];
    size_t n = 0, nl = 0;
    assert_int_equal(stpete_state_decision(st), STPETE_DECISION_CHANCE);
    assert_int_equal(stpete_state_chance_outcomes(st, ids, p, STPETE_MAX_LEGAL_ACTIONS, &n), STPETE_OK);
    assert_int_equal(stpete_state_legal_actions(st, legal, STPETE_MAX_LEGAL_ACTIONS, &nl), STPETE_OK);
    assert_true(n > 0);
    assert_int_equal(n, nl);
    assert_memory_equal(ids, legal, n * sizeof *ids);
    double sum = 0;
    for (size_t i = 0; i < n; i++) {
        assert_true(i == 0 || ids[i] > ids[i - 1]);
        assert_true(p[i] > 0 && p[i] <= 1);
        assert_int_equal(tg_is_legal(st, ids[i]), 1);
        sum += p[i];
    }
    assert_true(fabs(sum - 1) < 1e-12);
    if (ids[0] >= STPETE_CHANCE_MARKERS_FIRST) { /* §3.3: 24, 36 or 6 deals, alike */
        assert_int_equal(n, players == 4 ? 24 : players == 3 ? 36 : 6);
        for (size_t i = 0; i < n; i++)
            assert_true(fabs(p[i] - 1.0 / (double)n) < 1e-15);
    }
    /* nothing but an outcome applies */
    /* a larger buffer than needed: the outcome ids (past the player actions) are not written into it either */
    uint8_t mask[STPETE_NUM_DISTINCT_ACTIONS + STPETE_NUM_CHANCE_OUTCOMES];
    memset(mask, 0xAA, sizeof mask);
    assert_int_equal(stpete_state_legal_action_mask(st, mask, sizeof mask), STPETE_OK);
    for (int id = 0; id < STPETE_NUM_DISTINCT_ACTIONS; id++)
        assert_int_equal(mask[id], 0);
    for (size_t i = STPETE_NUM_DISTINCT_ACTIONS; i < sizeof mask; i++)
        assert_int_equal(mask[i], 0xAA);
}

/* Random games in explicit-chance mode, outcomes drawn by their probabilities; every node checked, the JSON round
 * trip at every third node, the bound of stpete_game_max_length(). STPETE_SEARCH_GAMES games per player count
 * (default 25; 5 in the quick test setup). */
static void test_explicit_chance_games(void **unused)
{
    (void)unused;
    long chance_nodes = 0, draws = 0;
    int games = test_games("STPETE_SEARCH_GAMES", 25);
    for (int players = 2; players <= 4; players++) {
        stpete_game *g = make_game_with(.players = players, .seed = 3, .chance_mode = STPETE_CHANCE_EXPLICIT);
        stpete_state *st = make_state(g);
        uint64_t rng = 71u * (uint64_t)players;
        for (int game = 0; game < games; game++) {
            assert_int_equal(stpete_state_reset(st, (uint64_t)game), STPETE_OK);
            assert_int_equal(stpete_state_current_player(st), STPETE_PLAYER_CHANCE); /* the marker deal first */
            int moves = 0;
            while (!tg_is_terminal(st)) {
                int cp = stpete_state_current_player(st);
                if (cp == STPETE_PLAYER_CHANCE) {
                    assert_chance_node(st, players);
                    chance_nodes++;
                } else {
                    assert_true(cp >= 0 && cp < players);
                    size_t n = 7;
                    assert_int_equal(stpete_state_chance_outcomes(st, NULL, NULL, 0, &n), STPETE_OK);
                    assert_int_equal(n, 0);
                }
                if (moves % 3 == 0) { /* JSON round trip, chance nodes included */
                    size_t la = state_json_into(st, text_a);
                    stpete_state *back = NULL;
                    stpete_error err = STPETE_ERROR_INIT;
                    if (stpete_state_from_json(g, text_a, la, &back, &err) != STPETE_OK)
                        fail_msg("explicit-mode state does not load: %s", err.message);
                    assert_int_equal(tg_equal(back, st), 1);
                    size_t lb = state_json_into(back, text_b);
                    assert_int_equal(la, lb);
                    assert_memory_equal(text_a, text_b, la);
                    stpete_state_free(back);
                }
                int id = search_random_step(st, &rng);
                stpete_action a;
                if (stpete_action_decode(id, &a) == STPETE_OK && a.kind == STPETE_ACTION_OBSERVATORY) {
                    assert_int_equal(stpete_state_apply(st, id), STPETE_OK);
                    assert_int_equal(stpete_state_current_player(st), STPETE_PLAYER_CHANCE); /* the draw (§7.1) */
                    draws++;
                } else {
                    assert_int_equal(stpete_state_apply(st, id), STPETE_OK);
                }
                moves++;
            }
            assert_true(moves <= stpete_game_max_length(g));
            double r[4] = { 0, 0, 0, 0 };
            assert_int_equal(stpete_state_returns(st, r, 4), STPETE_OK);
            assert_true(fabs(r[0] + r[1] + r[2] + r[3] - 1) < 1e-12);
        }
        assert_int_equal(stpete_game_max_length(g), 502 * players + 117);
        stpete_state_free(st);
        stpete_game_free(g);
    }
    print_message("# %ld chance nodes checked, %ld Observatory draws as chance nodes\n", chance_nodes, draws);
    assert_true(draws > 0);
}

/* Events of a sampled game that carry a chance outcome: the cards dealt and drawn. */
typedef struct outcome_log {
    int ids[400];
    int n;
} outcome_log;

static void log_outcomes(const stpete_state *st, const stpete_event *ev, void *user)
{
    (void)st;
    outcome_log *log = user;
    if ((ev->kind == STPETE_EVENT_DEAL || ev->kind == STPETE_EVENT_OBSERVATORY_DRAW) && log->n < 400)
        log->ids[log->n++] = STPETE_CHANCE_CARD_FIRST + ev->card;
}

/* The explicit game given a sampled game's outcomes is the same game: at every player's node the same legal
 * actions and the same information state keys; at the end the same scores and winners. */
static void test_sampled_and_explicit_twins(void **unused)
{
    (void)unused;
    for (int players = 2; players <= 4; players++)
        for (uint64_t seed = 1; seed <= 10; seed++) {
            stpete_game *gs = make_game(players, seed);
            stpete_game *ge = make_game_with(.players = players, .seed = seed, .chance_mode = STPETE_CHANCE_EXPLICIT);
            outcome_log log = { { 0 }, 0 };
            stpete_state *s = NULL, *e = make_state(ge);
            assert_int_equal(stpete_state_new_with_callback(gs, log_outcomes, &log, &s, NULL), STPETE_OK);
            /* the marker deal of the sampled game, as an outcome */
            int code = 0;
            for (int k = 3; k >= 0; k--)
                code = code * 4 + stpete_state_marker_holder(s, k);
            assert_int_equal(stpete_state_apply(e, STPETE_CHANCE_MARKERS_FIRST + code), STPETE_OK);
            int next = 0;
            uint64_t rng = seed * 977 + (uint64_t)players;
            for (;;) {
                while (stpete_state_current_player(e) == STPETE_PLAYER_CHANCE) { /* the same cards */
                    assert_true(next < log.n);
                    assert_int_equal(stpete_state_apply(e, log.ids[next++]), STPETE_OK);
                }
                assert_int_equal(next, log.n);
                assert_int_equal(tg_is_terminal(e), tg_is_terminal(s));
                if (tg_is_terminal(s))
                    break;
                int a[STPETE_MAX_LEGAL_ACTIONS], b[STPETE_MAX_LEGAL_ACTIONS];
                size_t na = 0, nb = 0;
                assert_int_equal(stpete_state_legal_actions(s, a, STPETE_MAX_LEGAL_ACTIONS, &na), STPETE_OK);
                assert_int_equal(stpete_state_legal_actions(e, b, STPETE_MAX_LEGAL_ACTIONS, &nb), STPETE_OK);
                assert_int_equal(na, nb);
                assert_memory_equal(a, b, na * sizeof *a);
                for (int seat = 0; seat < players; seat++) {
                    uint64_t ka, kb;
                    float oa[1024], ob[1024];
                    assert_int_equal(stpete_state_information_state_key(s, seat, &ka), STPETE_OK);
                    assert_int_equal(stpete_state_information_state_key(e, seat, &kb), STPETE_OK);
                    assert_true(ka == kb);
                    assert_int_equal(stpete_state_observation_tensor(s, seat, oa, 1024), STPETE_OK);
                    assert_int_equal(stpete_state_observation_tensor(e, seat, ob, 1024), STPETE_OK);
                    assert_memory_equal(oa, ob, (size_t)stpete_game_observation_tensor_size(gs) * sizeof *oa);
                }
                int id = a[rng_below(&rng, (int)na)];
                assert_int_equal(stpete_state_apply(s, id), STPETE_OK);
                assert_int_equal(stpete_state_apply(e, id), STPETE_OK);
            }
            for (int seat = 0; seat < players; seat++) {
                int va = 0, vb = 0;
                stpete_state_vp(s, seat, &va);
                stpete_state_vp(e, seat, &vb);
                assert_int_equal(va, vb);
                assert_int_equal(stpete_state_rubles(s, seat), stpete_state_rubles(e, seat));
            }
            unsigned wa, wb;
            assert_int_equal(stpete_state_winners(s, &wa), STPETE_OK);
            assert_int_equal(stpete_state_winners(e, &wb), STPETE_OK);
            assert_int_equal(wa, wb);
            stpete_state_free(s);
            stpete_state_free(e);
            stpete_game_free(gs);
            stpete_game_free(ge);
        }
}

/* Exact probabilities at known chance nodes: the first deal of the game (§3.4) draws from the 31 workers (§2.1). */
static void test_chance_probabilities(void **unused)
{
    (void)unused;
    stpete_options o;
    stpete_options_init(&o);
    o.players = 2;
    o.chance_mode = STPETE_CHANCE_EXPLICIT;
    const int markers[4] = { 0, 1, 0, 1 };
    memcpy(o.start_markers, markers, sizeof markers);
    stpete_game *g = NULL;
    assert_int_equal(stpete_game_new(&o, &g, NULL), STPETE_OK);
    stpete_state *st = make_state(g); /* explicit markers: the first chance node is the first worker's deal */
    int ids[STPETE_MAX_LEGAL_ACTIONS];
    double p[STPETE_MAX_LEGAL_ACTIONS];
    size_t n = 0;
    assert_int_equal(stpete_state_chance_outcomes(st, ids, p, STPETE_MAX_LEGAL_ACTIONS, &n), STPETE_OK);
    assert_int_equal(n, 6);
    for (size_t i = 0; i < 5; i++) {
        assert_int_equal(ids[i], STPETE_CHANCE_CARD_FIRST + (int)i); /* Lumberjack ... Ship Builder */
        assert_true(fabs(p[i] - 6.0 / 31.0) < 1e-15);
    }
    assert_int_equal(ids[5], STPETE_CHANCE_CARD_FIRST + STPETE_CARD_CZAR_AND_CARPENTER);
    assert_true(fabs(p[5] - 1.0 / 31.0) < 1e-15);
    /* deal the only Czar and Carpenter: it leaves the outcomes, a Lumberjack is now 6/30 */
    assert_int_equal(stpete_state_apply_string(st, "chance Czar and Carpenter"), STPETE_OK);
    assert_int_equal(stpete_state_chance_outcomes(st, ids, p, STPETE_MAX_LEGAL_ACTIONS, &n), STPETE_OK);
    assert_int_equal(n, 5);
    assert_true(fabs(p[0] - 6.0 / 30.0) < 1e-15);
    assert_int_equal(stpete_state_stack_size(st, STPETE_STACK_WORKER), 30);
    int row[STPETE_BOARD_SIZE];
    size_t rn = 0;
    assert_int_equal(stpete_state_row(st, STPETE_SOURCE_UPPER, row, STPETE_BOARD_SIZE, &rn), STPETE_OK);
    assert_int_equal(rn, 1);
    assert_int_equal(row[0], STPETE_CARD_CZAR_AND_CARPENTER);
    /* bad outcomes: a card not in the stack, a marker deal, a player's action; nothing changes */
    stpete_state *before = NULL;
    assert_int_equal(stpete_state_clone(st, &before, NULL), STPETE_OK);
    static const int bad[] = { STPETE_CHANCE_CARD_FIRST + STPETE_CARD_CZAR_AND_CARPENTER,
                               STPETE_CHANCE_CARD_FIRST + STPETE_CARD_MARKET, STPETE_CHANCE_MARKERS_FIRST + 0x44, 0, 7 };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_equal(stpete_state_apply(st, bad[i]), STPETE_E_ILLEGAL_ACTION);
        assert_true(strlen(stpete_state_last_error(st)) > 0);
        assert_int_equal(tg_equal(st, before), 1);
    }
    for (int k = 0; k < 3; k++) /* the other 3 workers of the setup (§3.4), then the first turn */
        assert_int_equal(stpete_state_apply_string(st, "chance Lumberjack"), STPETE_OK);
    assert_int_equal(stpete_state_current_player(st), 0);
    assert_int_equal(stpete_state_apply(st, STPETE_CHANCE_CARD_FIRST), STPETE_E_ILLEGAL_ACTION); /* at a turn */
    assert_non_null(strstr(stpete_state_last_error(st), "player's decision"));
    stpete_state_free(before);
    stpete_state_free(st);
    stpete_game_free(g);
}

/* ---- returns -------------------------------------------------------------------------------------------- */

static void test_search_returns(void **unused)
{
    (void)unused;
    stpete_game *g = make_game(3, 5);
    stpete_state *st = make_state(g);
    double r[4] = { 9, 9, 9, 9 };
    assert_int_equal(stpete_state_returns(st, r, 3), STPETE_OK);
    assert_true(r[0] == 0 && r[1] == 0 && r[2] == 0 && r[3] == 9);
    assert_int_equal(stpete_state_returns(st, r, 2), STPETE_E_BUFFER_TOO_SMALL);
    assert_int_equal(stpete_state_returns(st, NULL, 3), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_state_returns(NULL, r, 3), STPETE_E_INVALID_ARGUMENT);
    uint64_t rng = 5;
    int shared = 0;
    for (int game = 0; game < 60; game++) {
        assert_int_equal(stpete_state_reset(st, (uint64_t)game), STPETE_OK);
        while (!tg_is_terminal(st))
            assert_int_equal(stpete_state_apply(st, search_random_step(st, &rng)), STPETE_OK);
        unsigned w;
        assert_int_equal(stpete_state_winners(st, &w), STPETE_OK);
        int k = __builtin_popcount(w);
        shared += k > 1;
        assert_int_equal(stpete_state_returns(st, r, 3), STPETE_OK);
        for (int s = 0; s < 3; s++)
            assert_true(r[s] == (w >> s & 1u ? 1.0 / k : 0.0)); /* §8, R14: 1/k for each of k winners */
    }
    print_message("# %d shared wins in 60 games\n", shared);
    /* a shared win (§8, R14: same VP, same rubles mod 10), from a finished game edited: 1/2 each */
    size_t len = state_json_into(st, text_a);
    json_t *doc = json_loadb(text_a, len, 0, NULL);
    json_t *players = json_object_get(doc, "players");
    for (size_t i = 0; i < 3; i++) {
        json_object_set_new(json_array_get(players, i), "vp", json_integer(i == 2 ? 40 : 50));
        json_object_set_new(json_array_get(players, i), "rubles", json_integer(13));
    }
    char *text = json_dumps(doc, JSON_COMPACT);
    json_decref(doc);
    stpete_state *tied = NULL;
    assert_int_equal(stpete_state_from_json(g, text, strlen(text), &tied, NULL), STPETE_OK);
    free(text);
    assert_int_equal(stpete_state_returns(tied, r, 3), STPETE_OK);
    assert_true(r[0] == 0.5 && r[1] == 0.5 && r[2] == 0.0);
    stpete_state_free(tied);
    stpete_state_free(st);
    stpete_game_free(g);
}

/* ---- observations ---------------------------------------------------------------------------------------- */

/* Play until the state has hand cards and rubles differ between seats. */
static void play_some(stpete_state *st, int moves, uint64_t *rng)
{
    for (int m = 0; m < moves && !tg_is_terminal(st); m++) {
        int ids[STPETE_MAX_LEGAL_ACTIONS];
        size_t n = 0;
        assert_int_equal(stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS, &n), STPETE_OK);
        int pick = ids[rng_below(rng, (int)n)];
        if (rng_below(rng, 3) == 0)
            pick = take_action_or(ids, n, pick);
        assert_int_equal(stpete_state_apply(st, pick), STPETE_OK);
    }
}

/* The edits of a state's document below (state_edit of test_json.h) always change it. */

static json_t *other_player(json_t *doc, int seat)
{
    json_t *players = json_object_get(doc, "players");
    return json_array_get(players, (size_t)(seat + 1) % json_array_size(players));
}

static int e_other_rubles(json_t *doc, int seat)
{
    json_t *p = other_player(doc, seat);
    json_object_set_new(p, "rubles", json_integer(json_integer_value(json_object_get(p, "rubles")) + 17));
    return 1;
}

static int e_own_rubles(json_t *doc, int seat)
{
    json_t *p = json_array_get(json_object_get(doc, "players"), (size_t)seat);
    json_object_set_new(p, "rubles", json_integer(json_integer_value(json_object_get(p, "rubles")) + 17));
    return 1;
}

static int e_stack_order(json_t *doc, int seat)
{
    (void)seat;
    json_t *trading = json_object_get(json_object_get(doc, "stacks"), "trading");
    size_t n = json_array_size(trading);
    if (n >= 2) { /* swap the top and the bottom card */
        json_t *top = json_incref(json_array_get(trading, n - 1)), *bottom = json_incref(json_array_get(trading, 0));
        json_array_set_new(trading, 0, top);
        json_array_set_new(trading, n - 1, bottom);
    }
    return 1;
}

/* Another seat's hand cards become unseen (hand_known false) ... */
static int e_forget_other_hand(json_t *doc, int seat)
{
    json_t *known = json_object_get(other_player(doc, seat), "hand_known");
    for (size_t h = 0; h < json_array_size(known); h++)
        json_array_set_new(known, h, json_false());
    return 1;
}

/* ... and then one of them is exchanged with the top card of its stack (same back, §9). */
static int e_forget_and_swap_other_hand(json_t *doc, int seat)
{
    e_forget_other_hand(doc, seat);
    json_t *p = other_player(doc, seat), *hand = json_object_get(p, "hand");
    if (json_array_size(hand) == 0)
        return 1;
    const char *back = json_string_value(json_array_get(json_object_get(p, "hand_backs"), 0));
    json_t *stack = json_object_get(json_object_get(doc, "stacks"), back);
    size_t n = json_array_size(stack);
    for (size_t i = 0; i < n; i++)
        if (strcmp(json_string_value(json_array_get(stack, i)), json_string_value(json_array_get(hand, 0))) != 0) {
            json_t *a = json_incref(json_array_get(stack, i)), *b = json_incref(json_array_get(hand, 0));
            json_array_set_new(stack, i, b);
            json_array_set_new(hand, 0, a);
            return 1;
        }
    return 1;
}

static int observation_equal(const stpete_state *a, const stpete_state *b, int seat)
{
    float x[1024], y[1024];
    int size = stpete_game_observation_tensor_size(stpete_state_game(a));
    assert_int_equal(stpete_state_observation_tensor(a, seat, x, 1024), STPETE_OK);
    assert_int_equal(stpete_state_observation_tensor(b, seat, y, 1024), STPETE_OK);
    size_t la, lb;
    assert_int_equal(stpete_state_observation_string(a, seat, text_a, TEXT_CAP, &la), STPETE_OK);
    assert_int_equal(stpete_state_observation_string(b, seat, text_b, TEXT_CAP, &lb), STPETE_OK);
    int tensor_same = memcmp(x, y, (size_t)size * sizeof *x) == 0;
    int text_same = la == lb && memcmp(text_a, text_b, la) == 0;
    assert_int_equal(tensor_same, text_same); /* the text and the tensor carry the same information */
    return tensor_same;
}

/* The observation holds exactly what §9 lets the seat know: changing anything secret to it (the order of a stack,
 * another seat's unseen hand card, another seat's rubles when secret) never changes it; changing what it knows
 * (its own rubles; others' rubles when public) does. Resampling for the seat never changes it. */
static void test_observation_holds_exactly_what_the_seat_knows(void **unused)
{
    (void)unused;
    int swapped_hands = 0;
    for (int players = 2; players <= 4; players++)
        for (int pub = 0; pub <= 1; pub++) {
            stpete_game *g = make_game_with(.players = players, .seed = 11, .public_rubles = pub);
            stpete_state *st = make_state(g);
            uint64_t rng = (uint64_t)(players * 10 + pub);
            for (int step = 0; step < 8 && !tg_is_terminal(st); step++) {
                play_some(st, 15, &rng);
                for (int seat = 0; seat < players; seat++) {
                    stpete_state *x = edited_state(st, seat, e_stack_order);
                    assert_true(observation_equal(st, x, seat));
                    stpete_state_free(x);
                    x = edited_state(st, seat, e_other_rubles);
                    assert_int_equal(observation_equal(st, x, seat), !pub); /* secret unless the option */
                    stpete_state_free(x);
                    x = edited_state(st, seat, e_own_rubles);
                    assert_false(observation_equal(st, x, seat));
                    stpete_state_free(x);
                    stpete_state *forgot = edited_state(st, seat, e_forget_other_hand);
                    x = edited_state(st, seat, e_forget_and_swap_other_hand);
                    if (!tg_equal(x, forgot)) {
                        assert_true(observation_equal(forgot, x, seat)); /* an unseen card is secret */
                        swapped_hands++;
                    }
                    assert_int_equal(stpete_state_determinize(x, seat, rng_next(&rng), 0), STPETE_OK);
                    assert_true(observation_equal(forgot, x, seat));
                    stpete_state_free(x);
                    stpete_state_free(forgot);
                }
            }
            stpete_state_free(st);
            stpete_game_free(g);
        }
    assert_true(swapped_hands > 10);
}

/* The layout of doc/observation.md on a known position: the start of a 3-player game. */
static void test_observation_layout(void **unused)
{
    (void)unused;
    stpete_options o;
    stpete_options_init(&o);
    o.players = 3;
    o.seed = 4;
    const int markers[4] = { 2, 0, 1, 2 };
    memcpy(o.start_markers, markers, sizeof markers);
    stpete_game *g = NULL;
    assert_int_equal(stpete_game_new(&o, &g, NULL), STPETE_OK);
    stpete_state *st = make_state(g);
    assert_int_equal(stpete_game_observation_tensor_size(g), 668);
    float x[668];
    assert_int_equal(stpete_state_observation_tensor(st, 1, x, 668), STPETE_OK); /* seat 1's point of view */
    assert_true(x[0] == 1);                                                  /* round */
    assert_true(x[1] == 1 && x[2] == 0 && x[3] == 0 && x[4] == 0);          /* worker phase */
    assert_true(x[5] == 1 && x[6] + x[7] + x[8] + x[9] == 0);               /* a turn */
    assert_true(x[13] == 1 && x[12] + x[14] + x[15] == 0); /* seat 2 acts: 1 seat after the observer */
    assert_true(x[16] == 25 && x[17] == 28 && x[18] == 27 && x[19] == 30);  /* stacks after 6 workers */
    float upper = 0;
    for (int t = 0; t < STPETE_NUM_CARD_TYPES; t++)
        upper += x[20 + t];
    assert_true(upper == 6);
    assert_true(x[216 + 1] == 1); /* the worker marker: seat 2, relative 1 */
    assert_true(x[220 + 2] == 1); /* the building marker: seat 0, relative 2 */
    assert_true(x[224 + 0] == 1); /* the aristocrat marker: the observer */
    for (int k = 0; k < 3; k++) {  /* three seats present, the fourth block empty */
        assert_true(x[232 + 109 * k] == 1);
        assert_true(x[232 + 109 * k + 5] == 3); /* hand limit */
    }
    assert_true(x[232 + 2] == 25 && x[232 + 3] == 1); /* own rubles, known */
    assert_true(x[232 + 109 + 2] == 0 && x[232 + 109 + 3] == 0); /* another seat's: secret */
    for (int i = 232 + 3 * 109; i < 668; i++)
        assert_true(x[i] == 0);
    /* bad input */
    assert_int_equal(stpete_state_observation_tensor(st, 3, x, 668), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_state_observation_tensor(st, -1, x, 668), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_state_observation_tensor(st, 0, x, 667), STPETE_E_BUFFER_TOO_SMALL);
    assert_int_equal(stpete_state_observation_tensor(st, 0, NULL, 668), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_game_observation_tensor_size(NULL), STPETE_E_INVALID_ARGUMENT);
    size_t len = 0;
    assert_int_equal(stpete_state_observation_string(st, 0, NULL, 0, &len), STPETE_E_BUFFER_TOO_SMALL);
    assert_true(len > 100);
    char small[20];
    assert_int_equal(stpete_state_observation_string(st, 0, small, sizeof small, &len), STPETE_E_BUFFER_TOO_SMALL);
    assert_int_equal(stpete_state_observation_string(st, 0, text_a, TEXT_CAP, &len), STPETE_OK);
    assert_int_equal(strlen(text_a), len);
    assert_non_null(strstr(text_a, "seat 1: 0 VP, ? R"));
    assert_non_null(strstr(text_a, "seat 0: 0 VP, 25 R"));
    stpete_state_free(st);
    stpete_game_free(g);
}

/* ---- information state ------------------------------------------------------------------------------------ */

/* Whether two states' upper and lower rows hold the same cards in the same order. */
static int same_rows(const stpete_state *a, const stpete_state *b)
{
    int same = 1;
    for (int r = 0; r < 2; r++) {
        int ra[8], rb[8];
        size_t na, nb;
        stpete_state_row(a, r, ra, 8, &na);
        stpete_state_row(b, r, rb, 8, &nb);
        same &= na == nb && memcmp(ra, rb, na * sizeof *ra) == 0;
    }
    return same;
}

/* Perfect recall: equal keys (and strings) for positions the seat cannot tell apart given what it has seen (the
 * same public history: resampled stacks, a copy, a JSON round trip), different keys once anything public
 * differs; the key is the documented hash, the same on every platform. */
static void test_information_state_key(void **unused)
{
    (void)unused;
    stpete_game *g = make_game(2, 1);
    stpete_state *st = make_state(g);
    uint64_t k0, k1, k2;
    assert_int_equal(stpete_state_information_state_key(st, 0, &k0), STPETE_OK);
    assert_int_equal(stpete_state_information_state_key(st, 1, &k1), STPETE_OK);
    assert_true(k0 != k1);
    /* the documented hash (doc/observation.md) of this game's start: the same on every platform */
    print_message("# key of seat 0 at the start of the 2-player game of seed 1: %016llx\n", (unsigned long long)k0);
    assert_true(k0 == UINT64_C(0x95ba165768fc913d));
    uint64_t rng = 8;
    int differed = 0;
    for (int m = 0; m < 120 && !tg_is_terminal(st); m++) {
        stpete_state *c = NULL;
        assert_int_equal(stpete_state_clone(st, &c, NULL), STPETE_OK);
        assert_int_equal(stpete_state_determinize(c, 0, (uint64_t)m, 0), STPETE_OK);
        assert_int_equal(stpete_state_information_state_key(st, 0, &k1), STPETE_OK);
        assert_int_equal(stpete_state_information_state_key(c, 0, &k2), STPETE_OK);
        assert_true(k1 == k2);
        size_t la, lb;
        stpete_state *loaded = NULL;
        size_t lj = state_json_into(st, text_a);
        assert_int_equal(stpete_state_from_json(g, text_a, lj, &loaded, NULL), STPETE_OK);
        assert_int_equal(stpete_state_information_state_key(loaded, 0, &k2), STPETE_OK);
        assert_true(k1 == k2);
        /* after the same action, different deals (a resampled future) give different keys when a card is dealt */
        int id = search_random_step(st, &rng);
        int deals_before = stpete_state_stack_size(st, 0) + stpete_state_stack_size(st, 1) +
                           stpete_state_stack_size(st, 2) + stpete_state_stack_size(st, 3);
        assert_int_equal(stpete_state_apply(st, id), STPETE_OK);
        assert_int_equal(stpete_state_apply(c, id), STPETE_OK);
        int deals_after = stpete_state_stack_size(st, 0) + stpete_state_stack_size(st, 1) +
                          stpete_state_stack_size(st, 2) + stpete_state_stack_size(st, 3);
        assert_int_equal(stpete_state_information_state_key(st, 0, &k1), STPETE_OK);
        assert_int_equal(stpete_state_information_state_key(c, 0, &k2), STPETE_OK);
        if (!same_rows(st, c)) { /* the dealt cards differ: the seat tells the positions apart */
            assert_true(k1 != k2);
            differed++;
        } else if (deals_after == deals_before) {
            assert_true(k1 == k2);
        }
        assert_int_equal(stpete_state_information_state_string(st, 0, text_a, TEXT_CAP, &la), STPETE_OK);
        assert_int_equal(stpete_state_information_state_string(c, 0, text_b, TEXT_CAP, &lb), STPETE_OK);
        assert_int_equal(k1 == k2, la == lb && memcmp(text_a, text_b, la) == 0);
        stpete_state_free(loaded);
        stpete_state_free(c);
        /* c had its own future: follow the real game again */
    }
    assert_true(differed > 3);
    assert_int_equal(stpete_state_information_state_key(st, 2, &k1), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_state_information_state_key(st, 0, NULL), STPETE_E_INVALID_ARGUMENT);
    stpete_state_free(st);
    stpete_game_free(g);
}

/* ---- history and undo ------------------------------------------------------------------------------------- */

typedef struct undo_seen {
    int count, last;
} undo_seen;

static void on_undo(const stpete_state *st, const stpete_event *ev, void *user)
{
    (void)st;
    undo_seen *u = user;
    if (ev->kind == STPETE_EVENT_UNDO) {
        u->count++;
        u->last = ev->amount;
    }
}

/* At every node of random games, in both chance modes: undo gives back the position before the last action (by
 * stpete_state_equal and by JSON bytes) and reports it; the history lists exactly the ids applied; undoing
 * everything reaches the start; undo at the start is refused. */
static void test_history_and_undo(void **unused)
{
    (void)unused;
    for (int mode = 0; mode <= 1; mode++)
        for (int players = 2; players <= 4; players++) {
            stpete_game *g = make_game_with(.players = players, .seed = 21, .chance_mode = mode);
            stpete_state *st = make_state(g), *start = make_state(g), *prev = make_state(g);
            undo_seen seen = { 0, -1 };
            assert_int_equal(stpete_state_set_event_callback(st, on_undo, &seen), STPETE_OK);
            static int applied[4000];
            int n = 0;
            uint64_t rng = 5u * (uint64_t)players + (uint64_t)mode;
            while (!tg_is_terminal(st)) {
                size_t before_len = state_json_into(st, text_b);
                assert_int_equal(stpete_state_copy(prev, st), STPETE_OK);
                int id = search_random_step(st, &rng);
                assert_int_equal(stpete_state_apply(st, id), STPETE_OK);
                applied[n++] = id;
                if (n % 5 == 0 || tg_is_terminal(st)) { /* undo and apply again */
                    assert_int_equal(stpete_state_undo(st), STPETE_OK);
                    assert_int_equal(seen.last, id);
                    assert_int_equal(tg_equal(st, prev), 1);
                    size_t len = state_json_into(st, text_a);
                    assert_int_equal(len, before_len);
                    assert_memory_equal(text_a, text_b, len);
                    assert_int_equal(stpete_state_apply(st, id), STPETE_OK);
                }
            }
            static int hist[4000];
            size_t hn = 0;
            assert_int_equal(stpete_state_history(st, NULL, 0, &hn), n ? STPETE_E_BUFFER_TOO_SMALL : STPETE_OK);
            assert_int_equal(hn, n);
            assert_int_equal(stpete_state_history(st, hist, 4000, &hn), STPETE_OK);
            assert_memory_equal(hist, applied, (size_t)n * sizeof *hist);
            /* a clone keeps the history; a copy starts its own */
            stpete_state *cl = NULL;
            assert_int_equal(stpete_state_clone(st, &cl, NULL), STPETE_OK);
            assert_int_equal(stpete_state_history(cl, hist, 4000, &hn), STPETE_OK);
            assert_int_equal(hn, n);
            assert_int_equal(stpete_state_copy(prev, st), STPETE_OK);
            assert_int_equal(stpete_state_history(prev, hist, 4000, &hn), STPETE_OK);
            assert_int_equal(hn, 0);
            assert_int_equal(stpete_state_undo(prev), STPETE_E_INVALID_ARGUMENT);
            /* undo everything */
            int undos = seen.count;
            for (int i = 0; i < n; i++)
                assert_int_equal(stpete_state_undo(cl), STPETE_OK);
            assert_int_equal(tg_equal(cl, start), 1);
            stpete_state *before = NULL;
            assert_int_equal(stpete_state_clone(cl, &before, NULL), STPETE_OK);
            assert_int_equal(stpete_state_undo(cl), STPETE_E_INVALID_ARGUMENT);
            assert_non_null(strstr(stpete_state_last_error(cl), "nothing to undo"));
            assert_int_equal(tg_equal(cl, before), 1);
            assert_int_equal(seen.count, undos); /* cl has no callback */
            assert_int_equal(stpete_state_undo(NULL), STPETE_E_INVALID_ARGUMENT);
            stpete_state_free(before);
            stpete_state_free(cl);
            stpete_state_free(prev);
            stpete_state_free(start);
            stpete_state_free(st);
            stpete_game_free(g);
        }
}

static void try_undo_in_callback(const stpete_state *st, const stpete_event *ev, void *user)
{
    (void)ev;
    int *rc = user;
    *rc = stpete_state_undo((stpete_state *)(uintptr_t)st);
}

/* Undo from the state's own callback is refused (STPETE_E_REENTRANT); resampling restarts the history. */
static void test_undo_reentrant_and_resample(void **unused)
{
    (void)unused;
    stpete_game *g = make_game(2, 2);
    stpete_state *st = make_state(g);
    uint64_t rng = 1;
    for (int i = 0; i < 10; i++)
        assert_int_equal(stpete_state_apply(st, search_random_step(st, &rng)), STPETE_OK);
    int rc = 0;
    assert_int_equal(stpete_state_set_event_callback(st, try_undo_in_callback, &rc), STPETE_OK);
    assert_int_equal(stpete_state_apply(st, search_random_step(st, &rng)), STPETE_OK);
    assert_int_equal(rc, STPETE_E_REENTRANT);
    assert_int_equal(stpete_state_set_event_callback(st, NULL, NULL), STPETE_OK);
    assert_int_equal(stpete_state_determinize(st, 0, 3, 0), STPETE_OK);
    size_t n = 9;
    assert_int_equal(stpete_state_history(st, NULL, 0, &n), STPETE_OK);
    assert_int_equal(n, 0);
    assert_int_equal(stpete_state_undo(st), STPETE_E_INVALID_ARGUMENT);
    stpete_state_free(st);
    stpete_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_explicit_chance_games),
        cmocka_unit_test(test_sampled_and_explicit_twins),
        cmocka_unit_test(test_chance_probabilities),
        cmocka_unit_test(test_search_returns),
        cmocka_unit_test(test_observation_holds_exactly_what_the_seat_knows),
        cmocka_unit_test(test_observation_layout),
        cmocka_unit_test(test_information_state_key),
        cmocka_unit_test(test_history_and_undo),
        cmocka_unit_test(test_undo_reentrant_and_resample),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
