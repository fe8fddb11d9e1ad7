/* The shared helpers of the program 'api' (tests/lib/api/: one file per subject, main.c runs them): random play to
 * a decision or the end, a game's creation status, the listing's consistency, a counting allocator. Public API
 * only. */
#ifndef STPETE_API_TESTS_H
#define STPETE_API_TESTS_H

#include <limits.h>
#include <stdio.h>

#include "test_groups.h" /* cmocka first: the helpers below assert */

#include "stpete/bots.h"
#include "stpete/stpete.h"
#include "test_game.h"
#include "test_rng.h"

/* Play random legal actions until the game ends; returns the number of moves. */
static inline int play_to_end(stpete_state *st, uint64_t rng_seed)
{
    uint64_t rng = rng_seed;
    int moves = 0;
    while (!tg_is_terminal(st)) {
        step_random(st, &rng);
        moves++;
        assert_true(moves < 5000);
    }
    return moves;
}

/* Play until the current decision is `want` (or the game ends); returns 1 if reached. */
static inline int play_until_decision(stpete_state *st, int want, uint64_t *rng)
{
    int moves = 0;
    while (!tg_is_terminal(st)) {
        if (stpete_state_decision(st) == want)
            return 1;
        step_random(st, rng);
        assert_true(++moves < 5000);
    }
    return want == STPETE_DECISION_GAME_OVER;
}

/* stpete_game_new()'s status for o; *out set to NULL on failure. */
static inline int game_new_status(const stpete_options *o)
{
    stpete_game *g = (stpete_game *)(uintptr_t)1; /* must be set to NULL on failure */
    int rc = stpete_game_new(o, &g, NULL);
    if (rc != STPETE_OK)
        assert_null(g);
    stpete_game_free(rc == STPETE_OK ? g : NULL);
    return rc;
}

/* A caller's allocator that counts (count_malloc, count_realloc, count_free) and can fail the n-th allocation. */
typedef struct counting {
    long mallocs, reallocs, frees, live;
    long fail_after; /* fail the n-th allocation from now (0 = never) */
} counting;

/* The listing, the mask and the check of every id agree (§4.2): ids ascending, the mask's bytes, is_legal. */
static inline void check_legal_consistency(const stpete_state *st)
{
    int ids[STPETE_MAX_LEGAL_ACTIONS];
    size_t n = 0;
    uint8_t mask[STPETE_NUM_DISTINCT_ACTIONS + 16];
    memset(mask, 0xee, sizeof mask);
    assert_int_equal(stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS, &n), STPETE_OK);
    assert_int_equal(stpete_state_legal_action_mask(st, mask, sizeof mask), STPETE_OK);
    for (size_t i = 1; i < n; i++)
        assert_true(ids[i - 1] < ids[i]);
    size_t k = 0, set = 0;
    for (int id = 0; id < STPETE_NUM_DISTINCT_ACTIONS; id++) {
        int listed = k < n && ids[k] == id;
        if (listed)
            k++;
        assert_int_equal(mask[id], listed);
        assert_int_equal(tg_is_legal(st, id), listed);
        set += mask[id];
    }
    assert_int_equal(k, n);
    assert_int_equal(set, n);
    assert_int_equal(mask[STPETE_NUM_DISTINCT_ACTIONS], 0xee); /* writes only `STPETE_NUM_DISTINCT_ACTIONS` bytes */
    if (tg_is_terminal(st))
        assert_int_equal(n, 0);
    else
        assert_true(n > 0 && n <= STPETE_MAX_LEGAL_ACTIONS);
}

static inline void *count_malloc(void *user, size_t size)
{
    counting *c = user;
    if (c->fail_after > 0 && --c->fail_after == 0)
        return NULL;
    c->mallocs++;
    c->live++;
    return malloc(size);
}

static inline void *count_realloc(void *user, void *ptr, size_t size)
{
    counting *c = user;
    if (c->fail_after > 0 && --c->fail_after == 0)
        return NULL;
    if (!ptr) { /* realloc(NULL, n) is a malloc: a new block */
        c->mallocs++;
        c->live++;
    } else {
        c->reallocs++;
    }
    return realloc(ptr, size);
}

static inline void count_free(void *user, void *ptr)
{
    counting *c = user;
    assert_non_null(ptr); /* "never called with NULL" */
    c->frees++;
    c->live--;
    free(ptr);
}

EXTERN_TEST_GROUP(api_library);
EXTERN_TEST_GROUP(api_cards);
EXTERN_TEST_GROUP(api_actions);
EXTERN_TEST_GROUP(api_options);
EXTERN_TEST_GROUP(api_lifecycle);
EXTERN_TEST_GROUP(api_queries);
EXTERN_TEST_GROUP(api_apply);
EXTERN_TEST_GROUP(api_events);
EXTERN_TEST_GROUP(api_state);
EXTERN_TEST_GROUP(api_allocator);

#endif /* STPETE_API_TESTS_H */
