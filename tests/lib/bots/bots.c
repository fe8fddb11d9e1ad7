/* The reference bots (bots.h, issue 13): specs, legality of every choice, determinism, no peeking at what the
 * acting seat cannot know (§9), the documented evaluation and returns, bad input (failing allocations: in
 * failing_allocator.c's sweep). Public API only. STPETE_BOT_GAMES sets the games per kind and player count of the
 * legality test (default 6; the valgrind setup uses fewer). */
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

#include "stpete/bots.h"
#include "stpete/stpete.h"
#include "test_game.h"
#include "test_json.h"
#include "test_rng.h"

/* The learned bot's canonical default spec (bots.h; its defaults are doc/learning.md's measurements). */
#define LEARNED_DEFAULT_SPEC "learned:iterations=4000:ms=0:c=0.7:depth=0:seed=0"

static stpete_bot *make_bot(const stpete_game *g, const char *spec)
{
    stpete_bot *b = NULL;
    stpete_error msg = STPETE_ERROR_INIT;
    int rc = stpete_bot_new(g, spec, &b, &msg);
    if (rc != STPETE_OK)
        fail_msg("stpete_bot_new(%s): %s: %s", spec, stpete_strerror(rc), msg.message);
    return b;
}

/* ---- specs ------------------------------------------------------------------------------------------ */

static void expect_spec(const stpete_game *g, const char *spec, const char *canonical)
{
    stpete_bot *b = make_bot(g, spec);
    char buf[STPETE_BOT_SPEC_MAX];
    size_t len = 0;
    assert_int_equal(stpete_bot_spec(b, buf, sizeof buf, &len), STPETE_OK);
    assert_string_equal(buf, canonical);
    assert_int_equal(len, strlen(canonical));
    stpete_bot_free(b);
    /* the canonical spec makes the same bot */
    b = make_bot(g, canonical);
    assert_int_equal(stpete_bot_spec(b, buf, sizeof buf, &len), STPETE_OK);
    assert_string_equal(buf, canonical);
    stpete_bot_free(b);
}

static void test_specs(void **unused)
{
    (void)unused;
    stpete_game *g = make_game(2, 1);
    expect_spec(g, "random", "random:seed=0");
    expect_spec(g, "random:seed=18446744073709551615", "random:seed=18446744073709551615");
    expect_spec(g, "greedy", "greedy");
    expect_spec(g, "mc", "mc:iterations=1000:ms=0:playout=random:depth=0:temp=10:seed=0");
    expect_spec(g, "learned", LEARNED_DEFAULT_SPEC);
    expect_spec(g, "learned:seed=9:depth=4:c=0.25:iterations=50", "learned:iterations=50:ms=0:c=0.25:depth=4:seed=9");
    expect_spec(g, "mc:playout=greedy:iterations=10:depth=40",
                "mc:iterations=10:ms=0:playout=greedy:depth=40:temp=10:seed=0");
    expect_spec(g, "ismcts", "ismcts:iterations=1000:ms=0:c=0.7:playout=random:depth=0:temp=10:seed=0");
    expect_spec(g, "ismcts:seed=3:c=0.25:temp=2.5:depth=12:ms=100",
                "ismcts:iterations=1000:ms=100:c=0.25:playout=random:depth=12:temp=2.5:seed=3");
    expect_spec(g, "ismcts:c=1.000000:temp=0.000001:iterations=0:ms=1",
                "ismcts:iterations=0:ms=1:c=1:playout=random:depth=0:temp=0.000001:seed=0");

    /* the buffer protocol of the JSON writers */
    stpete_bot *b = make_bot(g, "greedy");
    size_t len = 0;
    char small[4] = "xyz";
    assert_int_equal(stpete_bot_spec(b, NULL, 0, &len), STPETE_E_BUFFER_TOO_SMALL);
    assert_int_equal(len, 6);
    assert_int_equal(stpete_bot_spec(b, small, sizeof small, &len), STPETE_E_BUFFER_TOO_SMALL);
    assert_int_equal(len, 6);
    assert_int_equal(stpete_bot_spec(b, NULL, 7, &len), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_bot_spec(b, small, sizeof small, NULL), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_bot_spec(NULL, small, sizeof small, &len), STPETE_E_INVALID_ARGUMENT);
    stpete_bot_free(b);
    stpete_game_free(g);
}

typedef struct bad_spec {
    const char *spec;
    int status;
    const char *message; /* a part of the message */
} bad_spec;

/* Bot specs stpete_bot_new() refuses, with the status and the words of its message. */
static const bad_spec bad_spec_cases[] = {
    { "", STPETE_E_PARSE, "empty bot spec" },
    { ":seed=1", STPETE_E_PARSE, "no kind" },
    { "clever", STPETE_E_PARSE, "unknown bot kind 'clever'" },
    { "Random", STPETE_E_PARSE, "unknown bot kind 'Random'" },
    { "ismcts:bogus=1", STPETE_E_PARSE, "unknown key 'bogus' for a ismcts bot" },
    { "random:iterations=5", STPETE_E_PARSE, "unknown key 'iterations' for a random bot (keys: seed)" },
    { "greedy:seed=1", STPETE_E_PARSE, "it takes no keys" },
    { "mc:c=0.5", STPETE_E_PARSE, "unknown key 'c' for a mc bot" },
    { "learned:playout=random", STPETE_E_PARSE,
      "unknown key 'playout' for a learned bot (keys: iterations, ms, c, depth, seed)" },
    { "learned:temp=5", STPETE_E_PARSE, "unknown key 'temp' for a learned bot" },
    { "learned:iterations=0", STPETE_E_INVALID_ARGUMENT, "iterations=0 needs a time limit" },
    { "Learned", STPETE_E_PARSE, "unknown bot kind 'Learned' (expected random, greedy, mc, ismcts or learned)" },
    { "ismcts:iterations", STPETE_E_PARSE, "'iterations' is not KEY=VALUE" },
    { "ismcts:", STPETE_E_PARSE, "is not KEY=VALUE" },
    { "ismcts::seed=1", STPETE_E_PARSE, "is not KEY=VALUE" },
    { "ismcts:iterations=abc", STPETE_E_PARSE, "bad value 'abc' for iterations" },
    { "ismcts:iterations=-1", STPETE_E_PARSE, "bad value '-1' for iterations" },
    { "ismcts:iterations=", STPETE_E_PARSE, "bad value '' for iterations" },
    { "ismcts:iterations= 5", STPETE_E_PARSE, "bad value ' 5'" },
    { "ismcts:c=1e3", STPETE_E_PARSE, "bad value '1e3' for c" },
    { "ismcts:c=.5", STPETE_E_PARSE, "bad value '.5' for c" },
    { "ismcts:c=0.1234567", STPETE_E_PARSE, "at most 6 decimal places" },
    { "ismcts:c=nan", STPETE_E_PARSE, "bad value 'nan'" },
    { "mc:playout=smart", STPETE_E_PARSE, "bad value 'smart' for playout: expected random or greedy" },
    { "ismcts:seed=1:seed=2", STPETE_E_PARSE, "key 'seed' given twice" },
    { "ismcts:iterations=0", STPETE_E_INVALID_ARGUMENT, "iterations=0 needs a time limit" },
    { "mc:iterations=0:ms=0", STPETE_E_INVALID_ARGUMENT, "iterations=0 needs a time limit" },
    { "ismcts:iterations=1000000001", STPETE_E_INVALID_ARGUMENT, "iterations=1000000001 is out of range" },
    { "ismcts:ms=3600001", STPETE_E_INVALID_ARGUMENT, "ms=3600001 is out of range" },
    { "ismcts:c=100.5", STPETE_E_INVALID_ARGUMENT, "c=100.5 is out of range" },
    { "ismcts:depth=10001", STPETE_E_INVALID_ARGUMENT, "depth=10001 is out of range" },
    { "ismcts:temp=0", STPETE_E_INVALID_ARGUMENT, "temp=0 is out of range" },
    { "ismcts:temp=1000.000001", STPETE_E_INVALID_ARGUMENT, "temp=1000.000001 is out of range" },
    { "random:seed=18446744073709551616", STPETE_E_INVALID_ARGUMENT, "seed=18446744073709551616 is out of range" },
};

static void test_bad_specs(void **unused)
{
    (void)unused;
    char overlong[STPETE_BOT_SPEC_MAX + 10];
    strcpy(overlong, "ismcts");
    while (strlen(overlong) < STPETE_BOT_SPEC_MAX)
        strcat(overlong, ":seed=1");
    stpete_game *g = make_game(3, 1);
    for (size_t i = 0; i < sizeof bad_spec_cases / sizeof bad_spec_cases[0]; i++) {
        stpete_bot *b = (stpete_bot *)&b; /* not NULL: the failure must set it */
        stpete_error msg = STPETE_ERROR_INIT;
        int rc = stpete_bot_new(g, bad_spec_cases[i].spec, &b, &msg);
        if (rc != bad_spec_cases[i].status || b != NULL || !strstr(msg.message, bad_spec_cases[i].message))
            fail_msg("spec '%s': got %s '%s', expected %s with '%s'", bad_spec_cases[i].spec, stpete_strerror(rc),
                     msg.message, stpete_strerror(bad_spec_cases[i].status), bad_spec_cases[i].message);
        /* no message buffer: the same status */
        assert_int_equal(stpete_bot_new(g, bad_spec_cases[i].spec, &b, NULL), bad_spec_cases[i].status);
    }
    stpete_bot *b = NULL;
    stpete_error msg = STPETE_ERROR_INIT;
    assert_int_equal(stpete_bot_new(g, overlong, &b, &msg), STPETE_E_PARSE);
    assert_non_null(strstr(msg.message, "at most 255 are accepted"));
    assert_int_equal(stpete_bot_new(g, "clever", &b, &msg), STPETE_E_PARSE);
    assert_int_equal(msg.status, STPETE_E_PARSE);
    assert_non_null(strstr(msg.message, "unknown"));
    /* a detail struct of another size is refused before anything (stpete.h, "Structs that may grow") */
    stpete_error odd = STPETE_ERROR_INIT;
    odd.struct_size = 0;
    assert_int_equal(stpete_bot_new(g, "random", &b, &odd), STPETE_E_UNSUPPORTED_VERSION);
    assert_null(b);
    assert_int_equal(stpete_bot_new(g, "random", NULL, &msg), STPETE_E_INVALID_ARGUMENT);
    assert_non_null(strstr(msg.message, "out is NULL"));
    assert_int_equal(stpete_bot_new(NULL, "random", &b, &msg), STPETE_E_INVALID_ARGUMENT);
    assert_non_null(strstr(msg.message, "game is NULL"));
    assert_int_equal(stpete_bot_new(g, NULL, &b, &msg), STPETE_E_INVALID_ARGUMENT);
    assert_non_null(strstr(msg.message, "spec is NULL"));
    assert_null(b);
    stpete_game_free(g);
}

/* ---- legality ------------------------------------------------------------------------------------------ */

/* Every seat played by the same bot (it is seat-independent): every choice is legal, and choosing leaves the
 * state unchanged. Returns the number of decisions. */
static long play_with_bot(stpete_bot *bot, stpete_state *st, stpete_state *before)
{
    long decisions = 0;
    while (!tg_is_terminal(st)) {
        int id = -1, seat = stpete_state_current_player(st);
        assert_int_equal(stpete_state_copy(before, st), STPETE_OK);
        int rc = stpete_bot_choose(bot, st, &id);
        if (rc != STPETE_OK)
            fail_msg("choose: %s: %s", stpete_strerror(rc), stpete_bot_last_error(bot));
        assert_int_equal(tg_equal(before, st), 1);
        if (tg_is_legal(st, id) != 1)
            fail_msg("the bot chose action %d, which is not legal", id);
        stpete_bot_stats s = STPETE_BOT_STATS_INIT;
        assert_int_equal(stpete_bot_get_stats(bot, &s), STPETE_OK);
        assert_int_equal(s.action, id);
        assert_int_equal(s.seat, seat);
        assert_true(s.legal_actions >= 1);
        assert_true(s.value >= -1000 && s.value <= 1000);
        assert_int_equal(stpete_state_apply(st, id), STPETE_OK);
        decisions++;
    }
    return decisions;
}

static void legality(const char *spec, long games)
{
    long decisions = 0;
    for (int players = 2; players <= 4; players++) {
        stpete_game *g = make_game(players, 1);
        stpete_state *st = NULL, *before = NULL;
        assert_int_equal(stpete_state_new(g, &st, NULL), STPETE_OK);
        assert_int_equal(stpete_state_new(g, &before, NULL), STPETE_OK);
        stpete_bot *bot = make_bot(g, spec);
        long here = 0;
        for (long game = 0; game < games; game++) {
            assert_int_equal(stpete_state_reset(st, 1000 + (uint64_t)game), STPETE_OK);
            assert_int_equal(stpete_bot_set_seed(bot, (uint64_t)game), STPETE_OK);
            here += play_with_bot(bot, st, before);
        }
        print_message("# %s, %d players: %ld games, %ld decisions, all legal\n", spec, players, games, here);
        decisions += here;
        stpete_bot_free(bot);
        stpete_state_free(before);
        stpete_state_free(st);
        stpete_game_free(g);
    }
    assert_true(decisions >= 300 * games);
}

static long games_per_kind(void)
{
    return test_games("STPETE_BOT_GAMES", 6);
}

static void test_legal_random(void **unused)
{
    (void)unused;
    legality("random", 4 * games_per_kind());
}

static void test_legal_greedy(void **unused)
{
    (void)unused;
    legality("greedy", games_per_kind());
}

static void test_legal_mc(void **unused)
{
    (void)unused;
    legality("mc:iterations=8:depth=8", games_per_kind());
    legality("mc:iterations=4:depth=3:playout=greedy", 1);
}

static void test_legal_ismcts(void **unused)
{
    (void)unused;
    legality("ismcts:iterations=24:depth=8", games_per_kind());
    legality("ismcts:iterations=8:depth=3:playout=greedy", 1);
    legality("ismcts:iterations=12:depth=0:c=0", 1); /* playouts to the end, no exploration term */
}

static void test_legal_learned(void **unused)
{
    (void)unused;
    legality("learned:iterations=24", games_per_kind());
    legality("learned:iterations=12:depth=6:c=0", 1); /* random actions before the network, no exploration */
}

/* The New Society (§12) at 2-5 players: the learned bot's second network (lib/bots/bot_value.h), and ismcts,
 * play legal actions. */
static void test_legal_new_society(void **unused)
{
    (void)unused;
    const char *specs[] = { "learned:iterations=16", "ismcts:iterations=8:depth=8" };
    for (size_t k = 0; k < sizeof specs / sizeof specs[0]; k++)
        for (int players = 2; players <= 5; players++) {
            stpete_game *g = make_game_with(.players = players, .seed = 5, .new_society = 1);
            stpete_state *st = NULL, *before = NULL;
            assert_int_equal(stpete_state_new(g, &st, NULL), STPETE_OK);
            assert_int_equal(stpete_state_new(g, &before, NULL), STPETE_OK);
            stpete_bot *bot = make_bot(g, specs[k]);
            assert_true(play_with_bot(bot, st, before) > 100);
            stpete_bot_free(bot);
            stpete_state_free(before);
            stpete_state_free(st);
            stpete_game_free(g);
        }
}

/* The second edition (§11: other prices, the buy-only first worker phase): every kind plays legal actions. */
static void test_legal_second_edition(void **unused)
{
    (void)unused;
    const char *specs[] = { "random", "greedy", "mc:iterations=6:depth=8", "ismcts:iterations=12:depth=8",
                            "learned:iterations=12" };
    for (size_t k = 0; k < sizeof specs / sizeof specs[0]; k++)
        for (int players = 2; players <= 4; players++) {
            stpete_game *g = make_game_with(.players = players, .seed = 3, .edition = 2);
            stpete_state *st = NULL, *before = NULL;
            assert_int_equal(stpete_state_new(g, &st, NULL), STPETE_OK);
            assert_int_equal(stpete_state_new(g, &before, NULL), STPETE_OK);
            stpete_bot *bot = make_bot(g, specs[k]);
            assert_true(play_with_bot(bot, st, before) > 100);
            stpete_bot_free(bot);
            stpete_state_free(before);
            stpete_state_free(st);
            stpete_game_free(g);
        }
}

/* Explicit-chance mode (stpete.h): the caller applies the outcome of every random event. A bot refuses a chance
 * node (no seat is to act) and chooses legal actions at every decision; its playouts draw the chance outcomes
 * themselves. */
static void test_bot_explicit_chance(void **unused)
{
    (void)unused;
    const char *specs[] = { "random", "greedy", "mc:iterations=6:depth=30", "ismcts:iterations=12:depth=30",
                            "ismcts:iterations=4:depth=0", "learned:iterations=12:depth=20" };
    for (int players = 2; players <= 4; players++) {
        stpete_options o;
        stpete_options_init(&o);
        o.players = players;
        o.chance_mode = STPETE_CHANCE_EXPLICIT;
        stpete_game *g = NULL;
        stpete_state *st = NULL;
        assert_int_equal(stpete_game_new(&o, &g, NULL), STPETE_OK);
        assert_int_equal(stpete_state_new(g, &st, NULL), STPETE_OK);
        for (size_t k = 0; k < sizeof specs / sizeof specs[0]; k++) {
            stpete_bot *bot = make_bot(g, specs[k]);
            uint64_t rng = 40 + k;
            int chance_nodes = 0, decisions = 0;
            uint64_t playout_actions = 0;
            assert_int_equal(stpete_state_reset(st, rng), STPETE_OK);
            while (!tg_is_terminal(st)) {
                int id = -1;
                if (stpete_state_current_player(st) == STPETE_PLAYER_CHANCE) {
                    int outcomes[STPETE_MAX_LEGAL_ACTIONS];
                    size_t n = 0;
                    assert_int_equal(stpete_state_chance_outcomes(st, outcomes, NULL, STPETE_MAX_LEGAL_ACTIONS, &n),
                                     STPETE_OK);
                    if (chance_nodes++ == 0) {
                        assert_int_equal(stpete_bot_choose(bot, st, &id), STPETE_E_INVALID_ARGUMENT);
                        assert_non_null(strstr(stpete_bot_last_error(bot), "no seat is to act"));
                        assert_int_equal(id, -1);
                    }
                    assert_int_equal(stpete_state_apply(st, outcomes[rng_below(&rng, (int)n)]), STPETE_OK);
                    continue;
                }
                assert_int_equal(stpete_bot_choose(bot, st, &id), STPETE_OK);
                assert_int_equal(tg_is_legal(st, id), 1);
                stpete_bot_stats s = STPETE_BOT_STATS_INIT;
                stpete_bot_get_stats(bot, &s);
                playout_actions += s.playout_actions;
                assert_int_equal(stpete_state_apply(st, id), STPETE_OK);
                decisions++;
            }
            assert_true(chance_nodes > 10 && decisions > 50);
            if (k >= 2)
                assert_true(playout_actions > 0);
            stpete_bot_free(bot);
        }
        stpete_state_free(st);
        stpete_game_free(g);
    }
}

/* ---- determinism ----------------------------------------------------------------------------------- */

/* Two bots of the same spec and seed play a game against each other's copy: the same choices and statistics. A
 * third bot with another seed chooses differently at least once (the seed is used). */
static void determinism(const char *spec)
{
    stpete_game *g = make_game(3, 7);
    stpete_state *st = NULL;
    assert_int_equal(stpete_state_new(g, &st, NULL), STPETE_OK);
    stpete_bot *a = make_bot(g, spec), *b = make_bot(g, spec), *other = make_bot(g, spec);
    stpete_bot_set_seed(a, 42);
    stpete_bot_set_seed(b, 42);
    stpete_bot_set_seed(other, 43);
    int differ = 0;
    for (int m = 0; m < 60 && !tg_is_terminal(st); m++) {
        int ia = -1, ib = -2, io = -3;
        assert_int_equal(stpete_bot_choose(a, st, &ia), STPETE_OK);
        assert_int_equal(stpete_bot_choose(b, st, &ib), STPETE_OK);
        assert_int_equal(stpete_bot_choose(other, st, &io), STPETE_OK);
        assert_int_equal(ia, ib);
        stpete_bot_stats sa = STPETE_BOT_STATS_INIT, sb = STPETE_BOT_STATS_INIT, so = STPETE_BOT_STATS_INIT;
        stpete_bot_get_stats(a, &sa);
        stpete_bot_get_stats(b, &sb);
        stpete_bot_get_stats(other, &so);
        assert_int_equal(sa.iterations, sb.iterations);
        assert_int_equal(sa.nodes, sb.nodes);
        assert_int_equal(sa.playout_actions, sb.playout_actions);
        assert_true(sa.value == sb.value);
        differ += io != ia || so.value != sa.value;
        assert_int_equal(stpete_state_apply(st, ia), STPETE_OK);
    }
    assert_true(differ > 0);
    /* reseeding replays: the same state, the same seed, the same choice */
    int first = -1, again = -2;
    stpete_bot_set_seed(a, 5);
    assert_int_equal(stpete_bot_choose(a, st, &first), STPETE_OK);
    stpete_bot_set_seed(a, 5);
    assert_int_equal(stpete_bot_choose(a, st, &again), STPETE_OK);
    assert_int_equal(first, again);
    stpete_bot_free(a);
    stpete_bot_free(b);
    stpete_bot_free(other);
    stpete_state_free(st);
    stpete_game_free(g);
}

static void test_bot_determinism(void **unused)
{
    (void)unused;
    determinism("random");
    determinism("mc:iterations=40:depth=10");
    determinism("ismcts:iterations=60:depth=10");
    determinism("learned:iterations=60");
    determinism("learned:iterations=30:depth=5");
}

/* The random bot is stpete-selfplay's: ids[splitmix64(seed) % n] over the sorted legal list. */
static void test_random_is_selfplays(void **unused)
{
    (void)unused;
    stpete_game *g = make_game(4, 3);
    stpete_state *st = NULL;
    assert_int_equal(stpete_state_new(g, &st, NULL), STPETE_OK);
    stpete_bot *bot = make_bot(g, "random:seed=99");
    uint64_t rng = 99;
    while (!tg_is_terminal(st)) {
        int ids[STPETE_MAX_LEGAL_ACTIONS], id = -1;
        size_t n = 0;
        stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS, &n);
        assert_int_equal(stpete_bot_choose(bot, st, &id), STPETE_OK);
        assert_int_equal(id, ids[rng_next(&rng) % n]);
        assert_int_equal(stpete_state_apply(st, id), STPETE_OK);
    }
    stpete_bot_free(bot);
    stpete_state_free(st);
    stpete_game_free(g);
}

/* ---- no peeking (§9) ------------------------------------------------------------------------------------ */


static void swap_items(json_t *a, size_t i, json_t *b, size_t j)
{
    json_t *x = json_incref(json_array_get(a, i)), *y = json_incref(json_array_get(b, j));
    json_array_set(a, i, y);
    json_array_set(b, j, x);
    json_decref(x);
    json_decref(y);
}

/* The two last cards of the first stack whose two last cards differ, swapped: the next deal differs. */
static int swap_stack_top(json_t *doc, int seat)
{
    (void)seat;
    const char *key;
    json_t *stack;
    json_object_foreach(json_object_get(doc, "stacks"), key, stack)
    {
        size_t n = json_array_size(stack);
        if (n >= 2 && strcmp(json_string_value(json_array_get(stack, n - 1)),
                             json_string_value(json_array_get(stack, n - 2))) != 0) {
            swap_items(stack, n - 1, stack, n - 2);
            return 1;
        }
    }
    return 0;
}

/* The next seat's rubles changed: secret to this seat without the public_rubles option (§9). */
static int change_rubles(json_t *doc, int seat)
{
    json_t *players = json_object_get(doc, "players");
    json_t *other = json_array_get(players, (size_t)(seat + 1) % json_array_size(players));
    json_int_t r = json_integer_value(json_object_get(other, "rubles"));
    return json_object_set_new(other, "rubles", json_integer(r > 10 ? r - 7 : r + 7)) == 0;
}

/* The other seats' hand cards marked unseen (`hand_known` false: a position from a source that did not see them
 * taken, doc/format.md); the number marked. */
static int forget_hands_in_doc(json_t *doc, int seat)
{
    int marked = 0;
    json_t *players = json_object_get(doc, "players");
    for (size_t p = 0; p < json_array_size(players); p++) {
        json_t *known = json_object_get(json_array_get(players, p), "hand_known");
        for (size_t i = 0; (int)p != seat && i < json_array_size(known); i++, marked++)
            json_array_set_new(known, i, json_false());
    }
    return marked;
}

/* An unseen hand card of another seat exchanged with a card of another type from the stack of its back. */
static int swap_unseen_hand_card(json_t *doc, int seat)
{
    json_t *players = json_object_get(doc, "players"), *stacks = json_object_get(doc, "stacks");
    for (size_t p = 0; p < json_array_size(players); p++) {
        json_t *pl = json_array_get(players, p);
        json_t *hand = json_object_get(pl, "hand"), *backs = json_object_get(pl, "hand_backs");
        json_t *known = json_object_get(pl, "hand_known");
        for (size_t i = 0; (int)p != seat && i < json_array_size(hand); i++) {
            json_t *stack = json_object_get(stacks, json_string_value(json_array_get(backs, i)));
            for (size_t j = 0; !json_is_true(json_array_get(known, i)) && j < json_array_size(stack); j++)
                if (strcmp(json_string_value(json_array_get(stack, j)), json_string_value(json_array_get(hand, i)))) {
                    swap_items(hand, i, stack, j);
                    return 1;
                }
        }
    }
    return 0;
}

/* The bot, seeded the same, makes the same choice with the same statistics in a and b. */
static void same_choice(stpete_bot *bot, const char *spec, const stpete_state *a, const stpete_state *b,
                        const char *difference)
{
    assert_int_equal(tg_equal(a, b), 0); /* they do differ */
    int want = -1, got = -2, seat = stpete_state_current_player(a);
    stpete_bot_stats sa = STPETE_BOT_STATS_INIT, sb = STPETE_BOT_STATS_INIT;
    stpete_bot_set_seed(bot, 77);
    assert_int_equal(stpete_bot_choose(bot, a, &want), STPETE_OK);
    stpete_bot_get_stats(bot, &sa);
    stpete_bot_set_seed(bot, 77);
    assert_int_equal(stpete_bot_choose(bot, b, &got), STPETE_OK);
    stpete_bot_get_stats(bot, &sb);
    if (got != want || sa.value != sb.value || sa.iterations != sb.iterations || sa.nodes != sb.nodes ||
        sa.playout_actions != sb.playout_actions)
        fail_msg("%s, seat %d: chose %d (value %.17g, %llu playout actions) in one position and %d (value %.17g, "
                 "%llu) in another that differs only in %s", spec, seat, want, sa.value,
                 (unsigned long long)sa.playout_actions, got, sb.value, (unsigned long long)sb.playout_actions,
                 difference);
}

/* Positions that differ only in what the acting seat cannot know (§9): the stack orders and the deal's PRNG
 * (stpete_state_determinize(0) for that seat), one stack's order, another seat's secret rubles (through JSON), and in
 * positions whose other hands are unseen (`hand_known` false), which card such a hand holds. */
static void no_peeking(const char *spec, int players, int positions, int edition)
{
    stpete_game *g = make_game_with(.players = players, .seed = 11, .edition = edition);
    stpete_state *st = NULL;
    assert_int_equal(stpete_state_new(g, &st, NULL), STPETE_OK);
    stpete_bot *bot = make_bot(g, spec);
    uint64_t rng = 5;
    int checked = 0, hidden_hands = 0;
    for (int attempt = 0; attempt < 40 * positions && checked < positions; attempt++) {
        assert_int_equal(play_taking(st, 3 + rng_below(&rng, 6), &rng), STPETE_OK);
        if (tg_is_terminal(st)) {
            assert_int_equal(stpete_state_reset(st, rng_next(&rng)), STPETE_OK);
            continue;
        }
        int seat = stpete_state_current_player(st);
        size_t n = 0;
        stpete_state_legal_actions(st, NULL, 0, &n);
        if (n < 2)
            continue;
        for (int v = 0; v < 2; v++) {
            stpete_state *other = NULL;
            assert_int_equal(stpete_state_clone(st, &other, NULL), STPETE_OK);
            assert_int_equal(stpete_state_determinize(other, seat, 100 + (uint64_t)v, 0), STPETE_OK);
            same_choice(bot, spec, st, other, "the stack orders and the deal's PRNG");
            stpete_state_free(other);
        }
        stpete_state *top = edited_state(st, seat, swap_stack_top), *rubles = edited_state(st, seat, change_rubles);
        same_choice(bot, spec, st, top, "the order of a stack");
        same_choice(bot, spec, st, rubles, "another seat's rubles");
        stpete_state *unseen = edited_state(st, seat, forget_hands_in_doc);
        if (unseen) {
            stpete_state *swapped = edited_state(unseen, seat, swap_unseen_hand_card);
            assert_non_null(swapped);
            same_choice(bot, spec, unseen, swapped, "an unseen hand card of another seat");
            stpete_state_free(swapped);
            hidden_hands++;
        }
        stpete_state_free(unseen);
        stpete_state_free(top);
        stpete_state_free(rubles);
        checked++;
    }
    assert_int_equal(checked, positions);
    assert_true(hidden_hands > 0); /* some positions had other players' hand cards to hide */
    stpete_bot_free(bot);
    stpete_state_free(st);
    stpete_game_free(g);
}

static void test_no_peeking(void **unused)
{
    (void)unused;
    for (int players = 2; players <= 4; players++) {
        no_peeking("random", players, 10, 1);
        no_peeking("greedy", players, 10, 1);
        no_peeking("mc:iterations=30:depth=12", players, 8, 1);
        no_peeking("mc:iterations=10:depth=4:playout=greedy", players, 4, 1);
        no_peeking("ismcts:iterations=60:depth=12", players, 8, 1);
        no_peeking("ismcts:iterations=40:depth=0", players, 4, 1); /* playouts to the end of the game */
        no_peeking("learned:iterations=60", players, 8, 1);      /* the network on the seat's observation */
        no_peeking("learned:iterations=30:depth=6", players, 4, 1);
    }
    no_peeking("learned:iterations=30", 2, 4, 2);
    /* the second edition (§11): other card names in the JSON the determinization goes through */
    no_peeking("mc:iterations=20:depth=12", 3, 4, 2);
    no_peeking("ismcts:iterations=30:depth=12", 2, 4, 2);
}

/* ---- evaluation and returns ---------------------------------------------------------------------------- */

/* The projected score of bots.h, written again from its documentation. */
static double projected(const stpete_state *st, int seat)
{
    stpete_score sc = STPETE_SCORE_INIT;
    assert_int_equal(stpete_state_get_score(st, seat, &sc), STPETE_OK);
    if (tg_is_terminal(st))
        return sc.total;
    int smallest = 1000;
    for (int s = 0; s < 4; s++)
        if (stpete_state_stack_size(st, s) < smallest)
            smallest = stpete_state_stack_size(st, s);
    double vp = 0, rubles = 0;
    for (int card = 0; card < STPETE_NUM_CARD_TYPES; card++) {
        stpete_card_info info = STPETE_CARD_INFO_INIT;
        stpete_card_get_info(STPETE_EDITION_FIRST, card, &info);
        vp += stpete_state_display_count(st, seat, card) * info.vp;
        rubles += stpete_state_display_count(st, seat, card) * info.rubles;
    }
    return sc.total + (1.0 + smallest / 6.0) * (vp + rubles / 4.0) + sc.rubles / 4.0;
}

/* The greedy bot chooses the first legal action with the best projected score after it, and reports that score. */
static void test_greedy_evaluation(void **unused)
{
    (void)unused;
    stpete_game *g = make_game(3, 21);
    stpete_state *st = NULL, *after = NULL;
    assert_int_equal(stpete_state_new(g, &st, NULL), STPETE_OK);
    assert_int_equal(stpete_state_new(g, &after, NULL), STPETE_OK);
    stpete_bot *bot = make_bot(g, "greedy");
    uint64_t rng = 1;
    int decisions = 0;
    while (!tg_is_terminal(st)) {
        int ids[STPETE_MAX_LEGAL_ACTIONS], id = -1, seat = stpete_state_current_player(st);
        size_t n = 0;
        stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS, &n);
        assert_int_equal(stpete_bot_choose(bot, st, &id), STPETE_OK);
        double best = -1e300;
        int want = -1;
        for (size_t i = 0; i < n; i++) {
            stpete_state_copy(after, st);
            stpete_state_apply(after, ids[i]);
            double v = projected(after, seat);
            if (v > best + 1e-9) {
                best = v;
                want = ids[i];
            }
        }
        assert_int_equal(id, want);
        stpete_bot_stats s = STPETE_BOT_STATS_INIT;
        stpete_bot_get_stats(bot, &s);
        assert_true(fabs(s.value - best) < 1e-9);
        /* greedy against random-ish opponents: apply the bot's choice half of the time */
        assert_int_equal(stpete_state_apply(st, rng_below(&rng, 2) ? id : ids[rng_below(&rng, (int)n)]), STPETE_OK);
        decisions++;
    }
    assert_true(decisions > 100);
    stpete_bot_free(bot);
    stpete_state_free(after);
    stpete_state_free(st);
    stpete_game_free(g);
}

/* stpete_bot_evaluate: 1/k per winner at the end; before, the softmax of the projected scores with the bot's
 * temperature (constant-sum 1). */
static void test_returns(void **unused)
{
    (void)unused;
    for (int players = 2; players <= 4; players++) {
        stpete_game *g = make_game(players, 30 + (uint64_t)players);
        stpete_state *st = NULL;
        assert_int_equal(stpete_state_new(g, &st, NULL), STPETE_OK);
        stpete_bot *hot = make_bot(g, "ismcts:temp=20"), *cold = make_bot(g, "mc:temp=2.5");
        uint64_t rng = 3;
        int moves = 0;
        while (!tg_is_terminal(st)) {
            double rh[4], rc[4], v[4], top = -1e300, sum = 0, total = 0;
            assert_int_equal(stpete_bot_evaluate(hot, st, rh, 4), STPETE_OK);
            assert_int_equal(stpete_bot_evaluate(cold, st, rc, (size_t)players), STPETE_OK);
            for (int s = 0; s < players; s++) {
                v[s] = projected(st, s);
                top = v[s] > top ? v[s] : top;
            }
            for (int s = 0; s < players; s++)
                sum += exp((v[s] - top) / 20.0);
            for (int s = 0; s < players; s++) {
                assert_true(fabs(rh[s] - exp((v[s] - top) / 20.0) / sum) < 1e-12);
                total += rh[s];
                /* a colder temperature is sharper: the leader's share grows, the others' shrink */
                if (v[s] == top)
                    assert_true(rc[s] >= rh[s] - 1e-12);
            }
            assert_true(fabs(total - 1.0) < 1e-12);
            if (players == 2) /* the logistic function of the projected score difference */
                assert_true(fabs(rh[0] - 1.0 / (1.0 + exp(-(v[0] - v[1]) / 20.0))) < 1e-12);
            int ids[STPETE_MAX_LEGAL_ACTIONS];
            size_t n = 0;
            stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS, &n);
            assert_int_equal(stpete_state_apply(st, ids[rng_below(&rng, (int)n)]), STPETE_OK);
            moves++;
        }
        unsigned winners = 0;
        assert_int_equal(stpete_state_winners(st, &winners), STPETE_OK);
        double r[4];
        assert_int_equal(stpete_bot_evaluate(hot, st, r, 4), STPETE_OK);
        for (int s = 0; s < players; s++)
            assert_true(r[s] == ((winners >> s) & 1u ? 1.0 / __builtin_popcount(winners) : 0.0));
        /* bad input */
        assert_int_equal(stpete_bot_evaluate(hot, st, r, (size_t)players - 1), STPETE_E_BUFFER_TOO_SMALL);
        assert_non_null(strstr(stpete_bot_last_error(hot), "returns"));
        assert_int_equal(stpete_bot_evaluate(hot, NULL, r, 4), STPETE_E_INVALID_ARGUMENT);
        assert_int_equal(stpete_bot_evaluate(hot, st, NULL, 4), STPETE_E_INVALID_ARGUMENT);
        assert_int_equal(stpete_bot_evaluate(NULL, st, r, 4), STPETE_E_INVALID_ARGUMENT);
        stpete_bot_free(hot);
        stpete_bot_free(cold);
        stpete_state_free(st);
        stpete_game_free(g);
    }
}

/* A 2-player game decided by its last decisions: with the end within its reach, ismcts plays as well as the
 * returns at the end allow. Seat 0 (ismcts) and seat 1 (ismcts, another seed) in the final round of a game that
 * greedy played up to there: every choice is legal, and the value reported is a return in [0, 1]. */
static void test_search_values(void **unused)
{
    (void)unused;
    stpete_game *g = make_game(2, 4);
    stpete_state *st = NULL;
    assert_int_equal(stpete_state_new(g, &st, NULL), STPETE_OK);
    stpete_bot *greedy = make_bot(g, "greedy"), *mcts = make_bot(g, "ismcts:iterations=200:depth=0"),
               *mc = make_bot(g, "mc:iterations=50:depth=0");
    while (!tg_is_terminal(st)) {
        int id = -1;
        stpete_bot *b = tg_is_final_round(st) ? (stpete_state_current_player(st) ? mc : mcts) : greedy;
        assert_int_equal(stpete_bot_choose(b, st, &id), STPETE_OK);
        stpete_bot_stats s = STPETE_BOT_STATS_INIT;
        stpete_bot_get_stats(b, &s);
        if (b != greedy) {
            assert_true(s.value >= 0 && s.value <= 1);
            if (s.legal_actions > 1) {
                assert_true(s.iterations >= (b == mc ? 50u : 200u));
                assert_true(b == mc || (s.nodes > 1 && s.nodes <= s.iterations + 1));
            } else {
                assert_int_equal(s.iterations, 0);
            }
        }
        assert_int_equal(stpete_state_apply(st, id), STPETE_OK);
    }
    stpete_bot_free(greedy);
    stpete_bot_free(mcts);
    stpete_bot_free(mc);
    stpete_state_free(st);
    stpete_game_free(g);
}

/* A time budget stops the search (not reproducible; only its effect is checked, never a speed). */
static void test_time_budget(void **unused)
{
    (void)unused;
    stpete_game *g = make_game(2, 9);
    stpete_state *st = NULL;
    assert_int_equal(stpete_state_new(g, &st, NULL), STPETE_OK);
    const char *specs[] = { "ismcts:iterations=0:ms=20", "mc:iterations=0:ms=20", "ismcts:iterations=1000000:ms=20" };
    for (int i = 0; i < 3; i++) {
        stpete_bot *b = make_bot(g, specs[i]);
        int id = -1;
        assert_int_equal(stpete_bot_choose(b, st, &id), STPETE_OK);
        assert_int_equal(tg_is_legal(st, id), 1);
        stpete_bot_stats s = STPETE_BOT_STATS_INIT;
        stpete_bot_get_stats(b, &s);
        assert_true(s.elapsed_ns >= UINT64_C(20000000));
        assert_true(s.iterations > 0 && s.iterations < 1000000);
        stpete_bot_free(b);
    }
    stpete_state_free(st);
    stpete_game_free(g);
}

/* ---- bad input ------------------------------------------------------------------------------------------ */

/* A finished game: every bot answers STPETE_E_GAME_OVER and keeps the statistics of its last success; the
 * statistics' struct sizes and NULL arguments. */
static void check_finished_game_and_stats(stpete_game *g, stpete_state *st)
{
    /* a finished game */
    stpete_bot *r = make_bot(g, "random"), *m = make_bot(g, "ismcts:iterations=5");
    int id = -1;
    while (!tg_is_terminal(st)) {
        assert_int_equal(stpete_bot_choose(r, st, &id), STPETE_OK);
        assert_int_equal(stpete_state_apply(st, id), STPETE_OK);
    }
    stpete_bot_stats before = STPETE_BOT_STATS_INIT, after = STPETE_BOT_STATS_INIT;
    stpete_bot_get_stats(r, &before);
    id = 1234;
    assert_int_equal(stpete_bot_choose(r, st, &id), STPETE_E_GAME_OVER);
    assert_int_equal(stpete_bot_choose(m, st, &id), STPETE_E_GAME_OVER);
    assert_int_equal(id, 1234);
    assert_non_null(strstr(stpete_bot_last_error(m), "the game is over"));
    stpete_bot_get_stats(r, &after);
    assert_memory_equal(&before, &after, sizeof before); /* the statistics of the last success stay */
    /* statistics: struct sizes */
    stpete_bot_stats s = STPETE_BOT_STATS_INIT;
    s.struct_size = 0;
    assert_int_equal(stpete_bot_get_stats(r, &s), STPETE_E_UNSUPPORTED_VERSION);
    s.struct_size = sizeof s + 1;
    assert_int_equal(stpete_bot_get_stats(r, &s), STPETE_E_UNSUPPORTED_VERSION);
    stpete_bot_stats small;
    memset(&small, 0xAB, sizeof small);
    /* smaller than the 1.0 layout (soname 1 has no older one): refused, nothing written (stpete.h conventions) */
    small.struct_size = offsetof(stpete_bot_stats, elapsed_ns);
    assert_int_equal(stpete_bot_get_stats(r, &small), STPETE_E_UNSUPPORTED_VERSION);
    unsigned char untouched[sizeof small];
    memset(untouched, 0xAB, sizeof untouched);
    assert_memory_equal((unsigned char *)&small + sizeof small.struct_size, untouched + sizeof small.struct_size,
                        sizeof small - sizeof small.struct_size);
    assert_int_equal(stpete_bot_get_stats(NULL, &s), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_bot_get_stats(r, NULL), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_bot_set_seed(NULL, 1), STPETE_E_INVALID_ARGUMENT);
    assert_string_equal(stpete_bot_last_error(NULL), "");
    stpete_bot_free(NULL);
    stpete_bot_free(r);
    stpete_bot_free(m);
}

/* Each bot refuses NULL arguments and a state of other rules (other players, public hands, the second edition,
 * explicit chance: stpete_game_check_compatible()) with a reason, *id untouched, and plays a state of its rules
 * with another seed. */
static void check_choose_refusals(stpete_game *g, stpete_state *st, stpete_state *const other[5], stpete_state *st_seed)
{
    stpete_state *st3 = other[0], *st_public = other[1], *st_ed2 = other[2], *st_ed2_loaded = other[3],
                 *st_explicit = other[4];
    const char *specs[] = { "random", "greedy", "mc:iterations=5", "ismcts:iterations=5" };
    for (int k = 0; k < 4; k++) {
        stpete_bot *b = make_bot(g, specs[k]);
        int id = 1234;
        stpete_bot_stats s = STPETE_BOT_STATS_INIT;
        assert_int_equal(stpete_bot_get_stats(b, &s), STPETE_OK);
        assert_int_equal(s.action, -1);
        assert_int_equal(s.seat, -1);
        assert_int_equal(stpete_bot_choose(NULL, st, &id), STPETE_E_INVALID_ARGUMENT);
        assert_int_equal(stpete_bot_choose(b, NULL, &id), STPETE_E_INVALID_ARGUMENT);
        assert_non_null(strstr(stpete_bot_last_error(b), "state is NULL"));
        assert_int_equal(stpete_bot_choose(b, st, NULL), STPETE_E_INVALID_ARGUMENT);
        assert_int_equal(stpete_bot_choose(b, st3, &id), STPETE_E_MISMATCH);
        assert_non_null(strstr(stpete_bot_last_error(b), "other rule options"));
        assert_int_equal(stpete_bot_choose(b, st_public, &id), STPETE_E_MISMATCH);
        assert_int_equal(stpete_bot_choose(b, st_ed2, &id), STPETE_E_MISMATCH);
        assert_int_equal(stpete_bot_choose(b, st_ed2_loaded, &id), STPETE_E_MISMATCH);
        assert_int_equal(stpete_bot_choose(b, st_explicit, &id), STPETE_E_MISMATCH);
        assert_non_null(strstr(stpete_bot_last_error(b), "other rule options"));
        double returns[STPETE_MAX_PLAYERS];
        assert_int_equal(stpete_bot_evaluate(b, st_ed2, returns, STPETE_MAX_PLAYERS), STPETE_E_MISMATCH);
        assert_int_equal(stpete_bot_evaluate(b, st_explicit, returns, STPETE_MAX_PLAYERS), STPETE_E_MISMATCH);
        assert_int_equal(id, 1234);
        assert_int_equal(stpete_bot_choose(b, st_seed, &id), STPETE_OK);
        assert_int_equal(tg_is_legal(st_seed, id), 1);
        assert_string_equal(stpete_bot_last_error(b), "");
        stpete_bot_free(b);
    }
}

/* Apply the first chance outcome until st is at a player's decision. */
static void to_decision(stpete_state *st)
{
    while (stpete_state_current_player(st) == STPETE_PLAYER_CHANCE) {
        int outcomes[STPETE_MAX_LEGAL_ACTIONS];
        size_t k = 0;
        assert_int_equal(stpete_state_chance_outcomes(st, outcomes, NULL, STPETE_MAX_LEGAL_ACTIONS, &k),
                         STPETE_OK);
        assert_int_equal(stpete_state_apply(st, outcomes[0]), STPETE_OK);
    }
}

/* The JSON of a second-edition or an explicit-chance state is refused by game g (stpete_state_from_json(),
 * STPETE_E_MISMATCH); the second-edition one loads into its own game g_ed2, returned. */
static stpete_state *check_loaded_refused(const stpete_game *g, const stpete_game *g_ed2, const stpete_state *st_ed2,
                                          const stpete_state *st_explicit)
{
    stpete_state *st_ed2_loaded = NULL;
    static char json[1 << 16];
    size_t len = 0;
    stpete_error err = STPETE_ERROR_INIT;
    stpete_state *refused = NULL;
    assert_int_equal(stpete_state_to_json(st_ed2, json, sizeof json, &len), STPETE_OK);
    assert_int_equal(stpete_state_from_json(g, json, len, &refused, &err), STPETE_E_MISMATCH);
    assert_null(refused);
    assert_int_equal(stpete_state_from_json(g_ed2, json, len, &st_ed2_loaded, &err), STPETE_OK);
    assert_int_equal(stpete_state_to_json(st_explicit, json, sizeof json, &len), STPETE_OK);
    assert_int_equal(stpete_state_from_json(g, json, len, &refused, &err), STPETE_E_MISMATCH);
    assert_null(refused);
    return st_ed2_loaded;
}

static void test_choose_bad_input(void **unused)
{
    (void)unused;
    stpete_game *g = make_game(2, 2), *g3 = make_game(3, 2);
    stpete_options o;
    stpete_options_init(&o);
    o.players = 2;
    o.seed = 12345; /* another seed, the same rules: accepted */
    stpete_game *g_seed = NULL;
    assert_int_equal(stpete_game_new(&o, &g_seed, NULL), STPETE_OK);
    o.public_hands = 1; /* other rules */
    stpete_game *g_public = NULL;
    assert_int_equal(stpete_game_new(&o, &g_public, NULL), STPETE_OK);
    /* Another game for every rule option the library compares (stpete_game_check_compatible()): the second edition
     * (§11) and the explicit chance mode, each otherwise the bot's game. */
    o.public_hands = 0;
    o.edition = 2;
    stpete_game *g_ed2 = NULL;
    assert_int_equal(stpete_game_new(&o, &g_ed2, NULL), STPETE_OK);
    o.edition = 1;
    o.chance_mode = STPETE_CHANCE_EXPLICIT;
    stpete_game *g_explicit = NULL;
    assert_int_equal(stpete_game_new(&o, &g_explicit, NULL), STPETE_OK);
    assert_int_equal(stpete_game_check_compatible(g, g_seed), STPETE_OK);
    assert_int_equal(stpete_game_check_compatible(g, g), STPETE_OK);
    assert_int_equal(stpete_game_check_compatible(g, g_ed2), STPETE_E_MISMATCH);
    assert_int_equal(stpete_game_check_compatible(g_explicit, g), STPETE_E_MISMATCH);
    assert_int_equal(stpete_game_check_compatible(g, NULL), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_game_check_compatible(NULL, g), STPETE_E_INVALID_ARGUMENT);
    stpete_state *st = NULL, *st3 = NULL, *st_seed = NULL, *st_public = NULL, *st_ed2 = NULL, *st_explicit = NULL;
    assert_int_equal(stpete_state_new(g_ed2, &st_ed2, NULL), STPETE_OK);
    assert_int_equal(stpete_state_new(g_explicit, &st_explicit, NULL), STPETE_OK);
    /* Loaded positions ask the same question: JSON of a second-edition or an explicit-chance state is refused by
     * the bot's game (stpete_state_from_json) and, loaded into its own game, by the bot (below). */
    stpete_state *st_ed2_loaded = NULL;
    st_ed2_loaded = check_loaded_refused(g, g_ed2, st_ed2, st_explicit);
    /* at a decision, so that the chance node is not what refuses it */
    to_decision(st_explicit);
    assert_int_equal(stpete_state_new(g, &st, NULL), STPETE_OK);
    assert_int_equal(stpete_state_new(g3, &st3, NULL), STPETE_OK);
    assert_int_equal(stpete_state_new(g_seed, &st_seed, NULL), STPETE_OK);
    assert_int_equal(stpete_state_new(g_public, &st_public, NULL), STPETE_OK);
    check_choose_refusals(g, st, (stpete_state *const[5]){ st3, st_public, st_ed2, st_ed2_loaded, st_explicit }, st_seed);
    check_finished_game_and_stats(g, st);
    stpete_state_free(st);
    stpete_state_free(st3);
    stpete_state_free(st_seed);
    stpete_state_free(st_public);
    stpete_state_free(st_ed2);
    stpete_state_free(st_ed2_loaded);
    stpete_state_free(st_explicit);
    stpete_game_free(g);
    stpete_game_free(g3);
    stpete_game_free(g_seed);
    stpete_game_free(g_public);
    stpete_game_free(g_ed2);
    stpete_game_free(g_explicit);
}

/* The other seats far ahead: every playout of the acting seat is lost. */
static int others_far_ahead(json_t *doc, int seat)
{
    json_t *players = json_object_get(doc, "players");
    for (size_t i = 0; i < json_array_size(players); i++)
        if ((int)i != seat)
            json_object_set_new(json_array_get(players, i), "vp", json_integer(5000));
    return 1;
}

/* mc breaks ties between equal mean returns by the seat's mean final score in those playouts: a seat that loses
 * every playout still buys what scores instead of taking the first id (pass) every time. Fails without the
 * tie-break (every choice is then pass). */
static void test_mc_tie_break(void **unused)
{
    (void)unused;
    int passes = 0, choices = 0;
    for (int players = 2; players <= 4; players++) {
        stpete_game *g = make_game(players, 70 + (uint64_t)players);
        stpete_state *st = NULL;
        assert_int_equal(stpete_state_new(g, &st, NULL), STPETE_OK);
        stpete_bot *mc = make_bot(g, "mc:iterations=60:seed=1");
        stpete_bot *r = make_bot(g, "random:seed=9");
        for (int step = 0; step < 60 && !tg_is_terminal(st); step++) {
            int seat = stpete_state_current_player(st);
            stpete_state *lost = edited_state(st, seat, others_far_ahead);
            size_t n = 0;
            int ids[STPETE_MAX_LEGAL_ACTIONS];
            assert_int_equal(stpete_state_legal_actions(lost, ids, STPETE_MAX_LEGAL_ACTIONS, &n), STPETE_OK);
            if (n > 1 && ids[0] == STPETE_ACTION_PASS) {
                int id;
                assert_int_equal(stpete_bot_choose(mc, lost, &id), STPETE_OK);
                stpete_bot_stats stats = STPETE_BOT_STATS_INIT;
                assert_int_equal(stpete_bot_get_stats(mc, &stats), STPETE_OK);
                assert_true(stats.value == 0); /* every playout lost */
                passes += id == STPETE_ACTION_PASS;
                choices++;
            }
            stpete_state_free(lost);
            int id;
            assert_int_equal(stpete_bot_choose(r, st, &id), STPETE_OK);
            assert_int_equal(stpete_state_apply(st, id), STPETE_OK);
        }
        stpete_bot_free(r);
        stpete_bot_free(mc);
        stpete_state_free(st);
        stpete_game_free(g);
    }
    print_message("# mc, every playout lost: %d passes in %d choices with pass among other actions\n", passes,
                  choices);
    assert_true(choices >= 30);
    assert_true(passes * 2 < choices);
}

/* In explicit-chance mode stpete_bot_play() stops at every chance node; the caller applies an outcome and goes
 * on. */
static void check_play_stops_at_chance(void)
{
    /* explicit chance: it stops at every chance node; the caller applies an outcome and goes on */
    stpete_options o;
    stpete_options_init(&o);
    o.players = 3;
    o.chance_mode = STPETE_CHANCE_EXPLICIT;
    stpete_game *g = NULL;
    stpete_state *st = NULL;
    assert_int_equal(stpete_game_new(&o, &g, NULL), STPETE_OK);
    assert_int_equal(stpete_state_new(g, &st, NULL), STPETE_OK);
    stpete_bot *r = make_bot(g, "random:seed=2");
    stpete_bot *bots[3] = { r, r, r };
    int stops = 0;
    while (!tg_is_terminal(st)) {
        size_t played;
        assert_int_equal(stpete_bot_play(bots, 3, st, 0, &played), STPETE_OK);
        if (tg_is_terminal(st))
            break;
        assert_int_equal(stpete_state_current_player(st), STPETE_PLAYER_CHANCE);
        int ids[STPETE_NUM_CHANCE_OUTCOMES];
        double p[STPETE_NUM_CHANCE_OUTCOMES];
        size_t n = 0;
        assert_int_equal(stpete_state_chance_outcomes(st, ids, p, STPETE_NUM_CHANCE_OUTCOMES, &n), STPETE_OK);
        assert_true(n > 0);
        assert_int_equal(stpete_state_apply(st, ids[(size_t)stops % n]), STPETE_OK);
        stops++;
    }
    assert_true(stops > 20);
    stpete_bot_free(r);
    stpete_state_free(st);
    stpete_game_free(g);
}

/* stpete_bot_play() refuses bad arguments and a bot of another game's rules with a status, the state unchanged. */
static void check_play_refusals(stpete_bot *const *bots, int players, stpete_state *st)
{
    size_t played = 99;
    /* bad arguments: a status, the state unchanged */
    stpete_state_reset(st, 3);
    stpete_state *before = NULL;
    assert_int_equal(stpete_state_clone(st, &before, NULL), STPETE_OK);
    assert_int_equal(stpete_bot_play(bots, 4, NULL, 0, &played), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_bot_play(NULL, 4, st, 0, &played), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_bot_play(bots, (size_t)players - 1, st, 0, &played), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(played, 0);
    stpete_bot *none[STPETE_MAX_PLAYERS] = { 0 };
    assert_int_equal(stpete_bot_play(none, 4, st, 0, &played), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(tg_equal(st, before), 1);
    /* a bot of another game's rules */
    stpete_game *other = make_game(players == 2 ? 3 : 2, 1);
    stpete_bot *stranger = make_bot(other, "greedy");
    stpete_bot *mixed[STPETE_MAX_PLAYERS] = { stranger, stranger, stranger, stranger };
    assert_int_equal(stpete_bot_play(mixed, 4, st, 0, &played), STPETE_E_MISMATCH);
    assert_int_equal(played, 0);
    assert_int_equal(tg_equal(st, before), 1);
    stpete_bot_free(stranger);
    stpete_game_free(other);
    stpete_state_free(before);
}

/* stpete_bot_play(): the game a loop of stpete_bot_choose() and stpete_state_apply() plays, in one call; stops at
 * max_actions and at chance nodes; bad arguments refused with the state unchanged. */
static void test_play(void **unused)
{
    (void)unused;
    for (int players = 2; players <= 4; players++) {
        stpete_game *g = make_game(players, 40 + (uint64_t)players);
        stpete_bot *a = make_bot(g, "greedy"), *b = make_bot(g, "random:seed=5");
        stpete_bot *bots[STPETE_MAX_PLAYERS] = { a, b, b, a };
        stpete_state *loop = NULL, *st = NULL;
        assert_int_equal(stpete_state_new(g, &loop, NULL), STPETE_OK);
        assert_int_equal(stpete_state_new(g, &st, NULL), STPETE_OK);
        /* the reference: the caller's loop */
        size_t moves = 0;
        while (!tg_is_terminal(loop)) {
            int id;
            assert_int_equal(stpete_bot_choose(bots[stpete_state_current_player(loop)], loop, &id), STPETE_OK);
            assert_int_equal(stpete_state_apply(loop, id), STPETE_OK);
            moves++;
        }
        /* the same in one call, after a first stop at 25 actions */
        stpete_bot_set_seed(b, 5);
        size_t played = 99;
        assert_int_equal(stpete_bot_play(bots, (size_t)players, st, 25, &played), STPETE_OK);
        assert_int_equal(played, 25);
        static int history[4096];
        size_t hist = 0;
        assert_int_equal(stpete_state_history(st, history, 4096, &hist), STPETE_OK);
        assert_int_equal(hist, 25);
        assert_int_equal(stpete_bot_play(bots, (size_t)players, st, 0, &played), STPETE_OK);
        assert_int_equal(played, moves - 25);
        assert_true(tg_is_terminal(st));
        assert_int_equal(tg_equal(st, loop), 1);
        /* at the end: nothing to play */
        assert_int_equal(stpete_bot_play(bots, (size_t)players, st, 0, &played), STPETE_OK);
        assert_int_equal(played, 0);
        check_play_refusals(bots, players, st);
        stpete_state_free(st);
        stpete_state_free(loop);
        stpete_bot_free(a);
        stpete_bot_free(b);
        stpete_game_free(g);
    }
    check_play_stops_at_chance();
}

/* ---- the state freed by its own callback during stpete_bot_play() (issue 31 item 1) --------------------- */

typedef struct free_at {
    stpete_state *st;
    long events, at;   /* events seen; free the state at event number `at` (1 = the first) */
    long after_free;   /* events delivered after the free: must stay 0 */
    long *cumulative;  /* reference run: events seen after each action */
} free_at;

static void count_or_free(const stpete_state *st, const stpete_event *ev, void *user)
{
    free_at *f = user;
    (void)st;
    (void)ev;
    if (f->at > 0 && f->events >= f->at) {
        f->after_free++;
        return;
    }
    if (++f->events == f->at)
        stpete_state_free(f->st); /* deferred to the end of the action's step */
}

/* Play the game again with the same bots and chance outcomes, the state freed by its callback at event at:
 * stpete_bot_play() stops exactly after the action that reported it, and nothing follows (cumulative: the events
 * after each action of the reference game). */
static void check_freed_at(stpete_game *g, stpete_bot **bots, int players, const long *cumulative, long at, long total,
                           int mode)
{
    uint64_t rng;
    for (int s = 0; s < players; s++) /* the same bots again: the same choices */
        assert_int_equal(stpete_bot_set_seed(bots[s], s == 0 ? 5 : 9), STPETE_OK);
    free_at f = { NULL, 0, at, 0, NULL };
    assert_int_equal(stpete_state_new(g, &f.st, NULL), STPETE_OK);
    assert_int_equal(stpete_state_set_event_callback(f.st, count_or_free, &f), STPETE_OK);
    rng = 77;
    size_t i = 0; /* actions applied */
    int freed = 0;
    while (!freed) {
        if (stpete_state_current_player(f.st) == STPETE_PLAYER_CHANCE) {
            int ids[STPETE_MAX_LEGAL_ACTIONS];
            size_t n = 0;
            assert_int_equal(stpete_state_legal_actions(f.st, ids, STPETE_MAX_LEGAL_ACTIONS, &n),
                             STPETE_OK);
            assert_int_equal(stpete_state_apply_tracked(f.st, ids[rng_below(&rng, (int)n)], &freed),
                             STPETE_OK);
            i++;
            continue;
        }
        size_t played = 0;
        assert_int_equal(stpete_bot_play(bots, (size_t)players, f.st, 0, &played), STPETE_OK);
        i += played;
        freed = f.events >= at; /* else stopped at a chance node */
    }
    /* it stopped exactly after the action that reported event `at`, and nothing followed */
    size_t want = 0;
    while (cumulative[want] < at)
        want++;
    if (i != want + 1)
        fail_msg("%d players, mode %d, free at event %ld of %ld: %zu actions, want %zu", players, mode,
                 at, total, i, want + 1);
    assert_int_equal(f.after_free, 0);
}

/* The header lets an event callback free its state (deferred to the end of the reporting call). 1.0's
 * stpete_bot_play() then read the freed state (heap-use-after-free in stpete_state_current_player, SIGSEGV
 * without ASan). Now it stops after the action whose events freed the state, returns STPETE_OK and counts that
 * action in *played. The free is tried at events spread over whole games (the first, every kind, the last), for
 * 2-4 players, both chance modes and editions; a reference run of the same bots without the free says which action
 * reported each event. */
static void test_play_state_freed_by_callback(void **unused)
{
    (void)unused;
    static const char *const specs[] = { "random:seed=5", "greedy", "random:seed=9", "greedy" };
    for (int players = 2; players <= 4; players++)
        for (int mode = 0; mode < 2; mode++) {
            stpete_game *g = make_game_with(.players = players, .seed = (uint64_t)(40 + players),
                                            .chance_mode = mode ? STPETE_CHANCE_EXPLICIT : STPETE_CHANCE_SAMPLED,
                                            .edition = 1 + (players + mode) % 2);
            stpete_bot *bots[4];
            for (int s = 0; s < players; s++)
                bots[s] = make_bot(g, specs[s]);
            /* reference: one action at a time (explicit chance: the outcomes from a PRNG of the test) */
            long cumulative[4096];
            size_t actions = 0;
            free_at ref = { NULL, 0, 0, 0, NULL };
            stpete_state *st = NULL;
            assert_int_equal(stpete_state_new(g, &st, NULL), STPETE_OK);
            assert_int_equal(stpete_state_set_event_callback(st, count_or_free, &ref), STPETE_OK);
            uint64_t rng = 77;
            int terminal = 0;
            while (!terminal) {
                size_t played = 0;
                if (stpete_state_current_player(st) == STPETE_PLAYER_CHANCE) {
                    int ids[STPETE_MAX_LEGAL_ACTIONS];
                    size_t n = 0;
                    assert_int_equal(stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS, &n), STPETE_OK);
                    assert_int_equal(stpete_state_apply(st, ids[rng_below(&rng, (int)n)]), STPETE_OK);
                } else {
                    assert_int_equal(stpete_bot_play(bots, (size_t)players, st, 1, &played), STPETE_OK);
                    assert_int_equal(played, 1);
                }
                assert_true(actions < sizeof cumulative / sizeof *cumulative);
                cumulative[actions++] = ref.events;
                assert_int_equal(stpete_state_is_terminal(st, &terminal), STPETE_OK);
            }
            stpete_state_free(st);
            long total = ref.events;
            long at_list[] = { 1, 2, 3, 7, 40, total / 3, total / 2, total - 5, total - 1, total };
            for (size_t a = 0; a < sizeof at_list / sizeof *at_list; a++)
                check_freed_at(g, bots, players, cumulative, at_list[a], total, mode);
            for (int s = 0; s < players; s++)
                stpete_bot_free(bots[s]);
            stpete_game_free(g);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_play_state_freed_by_callback),
        cmocka_unit_test(test_specs),
        cmocka_unit_test(test_bad_specs),
        cmocka_unit_test(test_legal_random),
        cmocka_unit_test(test_legal_greedy),
        cmocka_unit_test(test_legal_mc),
        cmocka_unit_test(test_legal_ismcts),
        cmocka_unit_test(test_legal_learned),
        cmocka_unit_test(test_legal_new_society),
        cmocka_unit_test(test_legal_second_edition),
        cmocka_unit_test(test_bot_explicit_chance),
        cmocka_unit_test(test_bot_determinism),
        cmocka_unit_test(test_random_is_selfplays),
        cmocka_unit_test(test_no_peeking),
        cmocka_unit_test(test_greedy_evaluation),
        cmocka_unit_test(test_returns),
        cmocka_unit_test(test_search_values),
        cmocka_unit_test(test_time_budget),
        cmocka_unit_test(test_play),
        cmocka_unit_test(test_mc_tie_break),
        cmocka_unit_test(test_choose_bad_input),
    };
    return cmocka_run_group_tests_name("bots", tests, NULL, NULL);
}
