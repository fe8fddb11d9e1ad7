/* Games and states for the C tests (tests/test_*.c): one helper instead of a make_game per file. Include after
 * <cmocka.h> (the helpers fail the running test when the library refuses). */
#ifndef STPETE_TEST_GAME_H
#define STPETE_TEST_GAME_H

#include <stddef.h>
#include <stdint.h>

#include "stpete/stpete.h"
#include "test_values.h"

/* What a test game changes from the defaults of stpete_options_init(); a zero field keeps the default (edition 0
 * means the first). */
typedef struct test_game {
    int players; /* 2..4 */
    uint64_t seed;
    int public_rubles, public_hands; /* §9 options */
    int chance_mode;                 /* STPETE_CHANCE_SAMPLED (0) or STPETE_CHANCE_EXPLICIT */
    int edition;                     /* 1 or 2 (§11) */
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

#endif /* STPETE_TEST_GAME_H */
