/* Games, states, random play and game counts for the C tests (tests/test_*.c): one helper each instead of a copy
 * per file. Include after <cmocka.h> (the helpers fail the running test when the library refuses). */
#ifndef STPETE_TEST_GAME_H
#define STPETE_TEST_GAME_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "stpete/stpete.h"
#include "test_rng.h"
#include "test_values.h"

/* What a test game changes from the defaults of stpete_options_init(); a zero field keeps the default (edition 0
 * means the first). */
typedef struct test_game {
    int players; /* 2..4, 5 with new_society */
    uint64_t seed;
    int public_rubles, public_hands; /* §9 options */
    int chance_mode;                 /* STPETE_CHANCE_SAMPLED (0) or STPETE_CHANCE_EXPLICIT */
    int edition;                     /* 1 or 2 (§11) */
    int pub_cap;                     /* STPETE_PUB_CAP_PER_PUB (0) or STPETE_PUB_CAP_PER_PLAYER (§7.2, R10) */
    int new_society;                 /* the New Society (§12): 2..5 players */
    int used_prison_scores, textile_without_new_society; /* its rulings R22, R29 */
} test_game;

/* A new game (the caller frees it); the test fails if the library refuses the options. */
static inline stpete_game *test_game_new(test_game t)
{
    stpete_options o;
    stpete_options_init(&o);
    o.players = t.players;
    o.seed = t.seed;
    o.public_rubles = t.public_rubles;
    o.public_hands = t.public_hands;
    o.chance_mode = t.chance_mode;
    o.edition = t.edition ? t.edition : 1;
    o.pub_cap = t.pub_cap;
    o.new_society = t.new_society;
    o.used_prison_scores = t.used_prison_scores;
    o.textile_without_new_society = t.textile_without_new_society;
    stpete_game *g = NULL;
    assert_int_equal(stpete_game_new(&o, &g, NULL), STPETE_OK);
    assert_non_null(g);
    return g;
}

/* make_game_with(.players = 3, .seed = 9, .public_hands = 1): the fields named, defaults for the others. */
#define make_game_with(...) test_game_new((test_game){ __VA_ARGS__ })

/* A game with every default but the players and the seed. */
static inline stpete_game *make_game(int players, uint64_t seed)
{
    return make_game_with(.players = players, .seed = seed);
}

/* A new state of g at its start (the caller frees it). */
static inline stpete_state *make_state(const stpete_game *g)
{
    stpete_state *st = NULL;
    assert_int_equal(stpete_state_new(g, &st, NULL), STPETE_OK);
    assert_non_null(st);
    return st;
}

/* A new game of t's options and its state at the start (the caller frees both). */
static inline stpete_state *test_state_new(test_game t, stpete_game **g)
{
    *g = test_game_new(t);
    return make_state(*g);
}

/* new_state_with(&g, .players = 3, .edition = 2): a game of the fields named (defaults for the others) in *g, and its
 * first state. */
#define new_state_with(g, ...) test_state_new((test_game){ __VA_ARGS__ }, g)

/* Apply one legal action of st drawn uniformly with the tests' PRNG (test_rng.h); returns its id. */
static inline int step_random(stpete_state *st, uint64_t *rng)
{
    int ids[STPETE_MAX_LEGAL_ACTIONS];
    size_t n = 0;
    assert_int_equal(stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS, &n), STPETE_OK);
    assert_true(n > 0);
    int id = ids[rng_below(rng, (int)n)];
    assert_int_equal(stpete_state_apply(st, id), STPETE_OK);
    return id;
}

/* Up to `moves` uniformly random moves (step_random), fewer if the game ends. */
static inline void play_random(stpete_state *st, int moves, uint64_t *rng)
{
    for (int i = 0; i < moves && !tg_is_terminal(st); i++)
        step_random(st, rng);
}

/* How many random games a soak loop plays: the environment variable `name` when it holds a count in
 * [1, 10000000), else `fallback` (the full number). The 'quick' setup of tests/meson.build (a bare `meson test`)
 * sets these variables lower, the 'valgrind' setup lower still; `meson test --setup full` leaves them unset. */
static inline int test_games(const char *name, int fallback)
{
    const char *env = getenv(name);
    long v = env && *env ? strtol(env, NULL, 10) : 0;
    return v > 0 && v < 10000000 ? (int)v : fallback;
}

#endif /* STPETE_TEST_GAME_H */
