/* Public-API tests, life cycle: caller-sized structs, NULL arguments of every entry point. Part of the program 'api'
 * (main.c); links the shared library and uses only the public headers. */
#include "api_tests.h"

/* ---- life cycle: NULL arguments ---------------------------------------------------------------- */

/* Every constructor refuses a stpete_error of an unusable size (err) with STPETE_E_UNSUPPORTED_VERSION and sets
 * *out to NULL. */
static void check_constructors_refuse(const stpete_game *g, const stpete_state *st, stpete_options *o,
                                      stpete_error *err)
{
    stpete_game *g2 = (stpete_game *)&g2;
    assert_int_equal(stpete_game_new(o, &g2, err), STPETE_E_UNSUPPORTED_VERSION);
    assert_null(g2);
    stpete_state *s2 = (stpete_state *)&s2;
    assert_int_equal(stpete_state_new(g, &s2, err), STPETE_E_UNSUPPORTED_VERSION);
    assert_null(s2);
    s2 = (stpete_state *)&s2;
    assert_int_equal(stpete_state_clone(st, &s2, err), STPETE_E_UNSUPPORTED_VERSION);
    assert_null(s2);
    s2 = (stpete_state *)&s2;
    assert_int_equal(stpete_state_from_json(g, "{}", 2, &s2, err), STPETE_E_UNSUPPORTED_VERSION);
    assert_null(s2);
    g2 = (stpete_game *)&g2;
    assert_int_equal(stpete_game_from_json("{}", 2, NULL, &g2, err), STPETE_E_UNSUPPORTED_VERSION);
    assert_null(g2);
    g2 = (stpete_game *)&g2;
    size_t n = 0;
    assert_int_equal(stpete_replay_from_json("{}", 2, NULL, &g2, NULL, 0, &n, err),
                     STPETE_E_UNSUPPORTED_VERSION);
    assert_null(g2);
    stpete_bot *b = (stpete_bot *)&b;
    assert_int_equal(stpete_bot_new(g, "random", &b, err), STPETE_E_UNSUPPORTED_VERSION);
    assert_null(b);
}

/* The struct_size rule of stpete.h ("Structs that may grow") for every call that reads or writes such a struct: a
 * size below the 1.0 layout (0, 1, a size_t, half the struct) or above the library's is refused with
 * STPETE_E_UNSUPPORTED_VERSION before anything is written, and never crashes; a constructor given such a detail
 * struct still sets *out to NULL. */
static void test_struct_sizes(void **unused)
{
    (void)unused;
    stpete_game *g = make_game(3, 4);
    stpete_state *st = make_state(g);
    assert_int_equal(stpete_state_set_event_queue(st, 1), STPETE_OK);
    assert_int_equal(stpete_state_reset(st, 4), STPETE_OK);
    const size_t bad[] = { 0, 1, sizeof(size_t), sizeof(size_t) + 4, 4096 };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        union {
            stpete_card_info info;
            stpete_score score;
            stpete_event event;
            stpete_error error;
            stpete_bot_stats stats;
            unsigned char bytes[8192];
        } u;
        memset(&u, 0x55, sizeof u);
        u.info.struct_size = bad[i];
        assert_int_equal(stpete_card_get_info(1, 0, &u.info), STPETE_E_UNSUPPORTED_VERSION);
        assert_int_equal(u.bytes[sizeof(size_t)], 0x55); /* nothing written */
        u.score.struct_size = bad[i];
        assert_int_equal(stpete_state_get_score(st, 0, &u.score), STPETE_E_UNSUPPORTED_VERSION);
        assert_int_equal(u.bytes[sizeof(size_t)], 0x55);
        u.event.struct_size = bad[i];
        assert_int_equal(stpete_state_pending_events(st) > 0, 1);
        int pending = stpete_state_pending_events(st);
        assert_int_equal(stpete_state_next_event(st, &u.event), STPETE_E_UNSUPPORTED_VERSION);
        assert_int_equal(stpete_state_pending_events(st), pending); /* the event is not lost */
        char line[STPETE_EVENT_STRING_MAX];
        assert_int_equal(stpete_event_to_string(&u.event, NULL, line, sizeof line), STPETE_E_UNSUPPORTED_VERSION);
        u.error.struct_size = bad[i];
        stpete_options o;
        stpete_options_init(&o);
        assert_int_equal(stpete_options_check(&o, &u.error), STPETE_E_UNSUPPORTED_VERSION);
        assert_int_equal(u.bytes[sizeof(size_t)], 0x55);
        check_constructors_refuse(g, st, &o, &u.error);
        assert_int_equal(u.bytes[sizeof(size_t)], 0x55);
        stpete_bot *b = NULL;
        assert_int_equal(stpete_bot_new(g, "random", &b, NULL), STPETE_OK);
        u.stats.struct_size = bad[i];
        assert_int_equal(stpete_bot_get_stats(b, &u.stats), STPETE_E_UNSUPPORTED_VERSION);
        stpete_bot_free(b);
        o.struct_size = bad[i];
        assert_int_equal(stpete_options_check(&o, NULL), STPETE_E_UNSUPPORTED_VERSION);
        assert_int_equal(stpete_game_get_options(g, &o), STPETE_E_UNSUPPORTED_VERSION);
    }
    /* a good size works after a refusal, and a success clears the state's last error */
    stpete_event ev = STPETE_EVENT_INIT;
    assert_int_equal(stpete_state_next_event(st, &ev), 1);
    assert_string_equal(stpete_state_last_error(st), "");
    assert_int_equal(ev.edition, STPETE_EDITION_FIRST);
    stpete_state_free(st);
    stpete_game_free(g);
}

/* Formatting a queued event later with its state adds nothing the state knows now (its rubles and VP have moved
 * on): the line is the one without the state. */
static void test_event_line_later_has_no_details(void **unused)
{
    (void)unused;
    stpete_game *g = make_game(2, 9);
    stpete_state *st = make_state(g);
    assert_int_equal(stpete_state_set_event_queue(st, 1), STPETE_OK);
    uint64_t rng = 3;
    for (int i = 0; i < 60 && !tg_is_terminal(st); i++)
        step_random(st, &rng);
    stpete_event ev = STPETE_EVENT_INIT;
    int lines = 0;
    while (stpete_state_next_event(st, &ev) == 1) {
        char with[STPETE_EVENT_STRING_MAX], without[STPETE_EVENT_STRING_MAX];
        assert_int_equal(stpete_event_to_string(&ev, st, with, sizeof with), STPETE_OK);
        assert_int_equal(stpete_event_to_string(&ev, NULL, without, sizeof without), STPETE_OK);
        assert_string_equal(with, without);
        lines++;
    }
    assert_true(lines > 20);
    stpete_state_free(st);
    stpete_game_free(g);
}

static void test_lifecycle_null(void **unused)
{
    (void)unused;
    stpete_game *g = make_game(3, 5);
    stpete_state *st = make_state(g);
    stpete_state *out = (stpete_state *)(uintptr_t)1;

    stpete_game_free(NULL);
    stpete_state_free(NULL);
    stpete_options opts;
    assert_int_equal(stpete_game_get_options(NULL, &opts), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_game_get_options(g, NULL), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_game_num_players(NULL), STPETE_E_INVALID_ARGUMENT);

    assert_int_equal(stpete_state_new(g, NULL, NULL), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_state_new(NULL, &out, NULL), STPETE_E_INVALID_ARGUMENT);
    assert_null(out);
    out = (stpete_state *)(uintptr_t)1;
    assert_int_equal(stpete_state_clone(st, NULL, NULL), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_state_clone(NULL, &out, NULL), STPETE_E_INVALID_ARGUMENT);
    assert_null(out);
    assert_int_equal(stpete_state_copy(NULL, st), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_state_copy(st, NULL), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_state_equal(NULL, st, &(int){ 0 }), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_state_equal(st, NULL, &(int){ 0 }), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_state_equal(NULL, NULL, &(int){ 0 }), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(tg_equal(st, st), 1);
    assert_int_equal(stpete_state_reset(NULL, 1), STPETE_E_INVALID_ARGUMENT);
    assert_null(stpete_state_game(NULL));
    assert_ptr_equal(stpete_state_game(st), g);
    assert_non_null(stpete_state_last_error(NULL));
    assert_string_equal(stpete_state_last_error(NULL), "");
    assert_string_equal(stpete_state_last_error(st), "");
    assert_int_equal(stpete_state_set_event_callback(NULL, NULL, NULL), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_state_set_event_callback(st, NULL, NULL), STPETE_OK);

    stpete_state_free(st);
    stpete_game_free(g);
}

TEST_GROUP(api_lifecycle,
    cmocka_unit_test(test_struct_sizes),
    cmocka_unit_test(test_event_line_later_has_no_details),
    cmocka_unit_test(test_lifecycle_null));
