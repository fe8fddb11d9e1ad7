/* Public-API tests, a caller's allocator: every allocation through it, and failures. Part of the program 'api'
 * (main.c); links the shared library and uses only the public headers. */
#include "api_tests.h"

/* ---- allocator --------------------------------------------------------------------------------- */

/* Failing allocations through the allocator of o: STPETE_E_OUT_OF_MEMORY, *out = NULL, nothing leaked. */
static void check_failing_allocations(const stpete_options *o, counting *c)
{
    stpete_game *g = NULL;
    /* failing allocations: OUT_OF_MEMORY, *out = NULL, nothing leaked */
    *c = (counting){ 0, 0, 0, 0, 1 };
    stpete_game *bad = (stpete_game *)(uintptr_t)1;
    assert_int_equal(stpete_game_new(o, &bad, NULL), STPETE_E_OUT_OF_MEMORY);
    assert_null(bad);
    assert_int_equal(c->live, 0);

    *c = (counting){ 0, 0, 0, 0, 0 };
    assert_int_equal(stpete_game_new(o, &g, NULL), STPETE_OK);
    stpete_state *st = make_state(g);
    c->fail_after = 1;
    stpete_state *nst = (stpete_state *)(uintptr_t)1;
    assert_int_equal(stpete_state_new(g, &nst, NULL), STPETE_E_OUT_OF_MEMORY);
    assert_null(nst);
    c->fail_after = 1;
    nst = (stpete_state *)(uintptr_t)1;
    assert_int_equal(stpete_state_clone(st, &nst, NULL), STPETE_E_OUT_OF_MEMORY);
    assert_null(nst);
    c->fail_after = 0;
    stpete_state_free(st);
    stpete_game_free(g);
    assert_int_equal(c->live, 0);
}

static void test_allocator(void **unused)
{
    (void)unused;
    counting c = { 0, 0, 0, 0, 0 };
    stpete_options o;
    stpete_options_init(&o);
    o.players = 3;
    o.seed = 77;
    o.allocator.malloc_fn = count_malloc;
    o.allocator.realloc_fn = count_realloc;
    o.allocator.free_fn = count_free;
    o.allocator.user = &c;
    stpete_game *g = NULL;
    assert_int_equal(stpete_game_new(&o, &g, NULL), STPETE_OK);
    long after_game = c.mallocs + c.reallocs;
    assert_true(after_game >= 1);
    stpete_options got;
    stpete_options_init(&got);
    assert_int_equal(stpete_game_get_options(g, &got), STPETE_OK);
    assert_ptr_equal(got.allocator.user, &c);

    stpete_state *st = make_state(g);
    long after_state = c.mallocs + c.reallocs;
    assert_true(after_state > after_game);
    stpete_state *cl = NULL;
    assert_int_equal(stpete_state_clone(st, &cl, NULL), STPETE_OK);
    long after_clone = c.mallocs + c.reallocs;
    assert_true(after_clone > after_state);

    /* the history grows in the first games of a state (amortized); then playing, listing, copying and resetting
     * allocate nothing */
    uint64_t rng = 2;
    play_to_end(st, 3);
    play_to_end(cl, 4);
    long warm = c.mallocs + c.reallocs;
    assert_true(warm - after_clone <= 8);
    for (uint64_t seed = 10; seed < 20; seed++) {
        assert_int_equal(stpete_state_reset(st, seed), STPETE_OK);
        play_to_end(st, seed);
        assert_int_equal(stpete_state_copy(cl, st), STPETE_OK);
        assert_int_equal(stpete_state_reset(cl, seed), STPETE_OK);
        step_random(cl, &rng);
    }
    assert_int_equal(c.mallocs + c.reallocs, warm);
    stpete_state_free(cl);
    stpete_state_free(st);
    stpete_game_free(g);
    assert_int_equal(c.live, 0);
    assert_int_equal(c.frees, c.mallocs);

    check_failing_allocations(&o, &c);
}

TEST_GROUP(api_allocator,
    cmocka_unit_test(test_allocator));
