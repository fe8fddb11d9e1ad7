/* Public-API tests, the library: version, status codes and their texts, the names of the formats' words, error messages
 * in UTF-8. Part of the program 'api' (main.c); links the shared library and uses only the public headers. */
#include "api_tests.h"

/* ---- library: version, status codes ------------------------------------------------------------ */

static void test_version(void **unused)
{
    (void)unused;
    assert_non_null(stpete_version());
    assert_string_equal(stpete_version(), STPETE_VERSION_STRING);
    assert_int_equal(stpete_version_number(), STPETE_VERSION_NUMBER);
    char buf[32];
    snprintf(buf, sizeof buf, "%d.%d.%d", STPETE_VERSION_MAJOR, STPETE_VERSION_MINOR, STPETE_VERSION_PATCH);
    assert_string_equal(stpete_version(), buf);
    assert_int_equal(STPETE_VERSION_NUMBER,
                     STPETE_VERSION_MAJOR * 10000 + STPETE_VERSION_MINOR * 100 + STPETE_VERSION_PATCH);
    assert_int_equal(stpete_num_distinct_actions(), STPETE_NUM_DISTINCT_ACTIONS);
    assert_int_equal(STPETE_NUM_DISTINCT_ACTIONS, 972);
    assert_int_equal(STPETE_ACTION_ENCODING_VERSION, 1);
}

static void test_strerror(void **unused)
{
    (void)unused;
    static const int codes[] = { STPETE_OK, STPETE_E_INVALID_ARGUMENT, STPETE_E_ILLEGAL_ACTION,
                                 STPETE_E_BUFFER_TOO_SMALL, STPETE_E_OUT_OF_MEMORY, STPETE_E_GAME_OVER,
                                 STPETE_E_NOT_TERMINAL, STPETE_E_PARSE, STPETE_E_UNSUPPORTED_VERSION,
                                 STPETE_E_MISMATCH, STPETE_E_REENTRANT, STPETE_E_REDACTED,
                                 STPETE_E_INCONSISTENT, STPETE_E_TOO_LARGE, STPETE_E_NO_PRICE };
    const size_t n = sizeof codes / sizeof codes[0];
    const char *unknown = stpete_strerror(-1000);
    assert_non_null(unknown);
    assert_string_equal(unknown, "unknown status");
    for (size_t i = 0; i < n; i++) {
        /* the codes are dense below -100 (1.0): 0, -101, ..., -114, so that no value or sentinel is one */
        assert_int_equal(codes[i], i ? -100 - (int)i : 0);
        assert_true(i ? STPETE_FAILED(codes[i]) : !STPETE_FAILED(codes[i]));
        const char *s = stpete_strerror(codes[i]);
        assert_non_null(s);
        assert_true(strlen(s) > 0);
        assert_string_not_equal(s, unknown);
        for (size_t j = 0; j < i; j++)
            assert_string_not_equal(s, stpete_strerror(codes[j]));
    }
    assert_string_equal(stpete_strerror(STPETE_E_ILLEGAL_ACTION), "illegal action");
    assert_int_equal(STPETE_E_FIRST, codes[1]);
    assert_int_equal(STPETE_E_LAST, codes[n - 1]);
    /* no sentinel is a status (1.0): each names no code and is not a failure */
    static const int sentinels[] = { STPETE_PLAYER_CHANCE, STPETE_PLAYER_TERMINAL, STPETE_CARD_NONE, STPETE_NONE,
                                     STPETE_VIEW_PUBLIC };
    for (size_t i = 0; i < sizeof sentinels / sizeof *sentinels; i++) {
        assert_false(STPETE_FAILED(sentinels[i]));
        assert_string_equal(stpete_strerror(sentinels[i]), unknown);
    }
    static const int bad[] = { 1, 2, -1, -4, -14, -15, -16, -100, -115, 100, INT_MAX, INT_MIN };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_string_equal(stpete_strerror(bad[i]), "unknown status");
}

/* ---- error messages ----------------------------------------------------------------------------- */

/* Length of the valid UTF-8 prefix of s (whole string if valid). */
static size_t utf8_valid_prefix(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (p[i]) {
        int extra = p[i] < 0x80 ? 0 : (p[i] & 0xE0) == 0xC0 ? 1 : (p[i] & 0xF0) == 0xE0 ? 2 : (p[i] & 0xF8) == 0xF0 ? 3 : -1;
        if (extra < 0)
            return i;
        for (int k = 1; k <= extra; k++)
            if ((p[i + k] & 0xC0) != 0x80)
                return i;
        i += (size_t)extra + 1;
    }
    return i;
}

/* Every refusal's message is complete valid UTF-8 that names the action (bindings decode it as UTF-8). */
static void test_error_messages_are_utf8(void **unused)
{
    (void)unused;
    stpete_game *g = make_game(3, 5);
    stpete_state *st = make_state(g);
    uint64_t rng = 3;
    int checked = 0;
    for (int game = 0; game < 20; game++) {
        assert_int_equal(stpete_state_reset(st, (uint64_t)game), STPETE_OK);
        while (!tg_is_terminal(st)) {
            for (int id = 0; id < STPETE_NUM_DISTINCT_ACTIONS; id += 7) {
                if (tg_is_legal(st, id))
                    continue;
                assert_int_equal(stpete_state_apply(st, id), STPETE_E_ILLEGAL_ACTION);
                const char *msg = stpete_state_last_error(st);
                assert_int_equal(utf8_valid_prefix(msg), strlen(msg));
                char name[STPETE_ACTION_STRING_MAX];
                assert_int_equal(stpete_action_to_string(STPETE_EDITION_FIRST, id, name, sizeof name), STPETE_OK);
                assert_non_null(strstr(msg, name));
                checked++;
            }
            step_random(st, &rng);
        }
    }
    assert_true(checked > 1000);
    stpete_state_free(st);
    stpete_game_free(g);
}

/* The name functions give the JSON format's words, NULL out of range (§1, §4). */
static void test_names(void **unused)
{
    (void)unused;
    static const char *const phases[] = { "worker", "building", "aristocrat", "trading" };
    for (int i = 0; i < STPETE_NUM_PHASES; i++) {
        assert_string_equal(stpete_phase_name(i), phases[i]);
        assert_string_equal(stpete_stack_name(i), phases[i]); /* a stack is named by its phase */
    }
    assert_string_equal(stpete_decision_name(STPETE_DECISION_GAME_OVER), "game-over");
    assert_int_equal(STPETE_DECISION_GAME_OVER, STPETE_DECISION_GAME_OVER);
    assert_string_equal(stpete_source_name(STPETE_SOURCE_LOWER), "lower");
    assert_string_equal(stpete_event_kind_name(STPETE_EVENT_PHASE_START), "phase-start");
    assert_string_equal(stpete_event_kind_name(STPETE_EVENT_GAME_OVER), "game-over");
    static const int bad[] = { -1, 4, 100, INT_MIN, INT_MAX };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_null(stpete_phase_name(bad[i]));
        assert_null(stpete_stack_name(bad[i]));
        assert_null(stpete_decision_name(bad[i] == 4 ? STPETE_DECISION_TRADING_HOUSE + 1 : bad[i]));
        assert_null(stpete_source_name(bad[i] == 4 ? STPETE_SOURCE_DISCARD + 1 : bad[i]));
        assert_null(stpete_event_kind_name(bad[i] == 4 ? STPETE_EVENT_GOLD_DISC + 1 : bad[i]));
    }
}

TEST_GROUP(api_library,
    cmocka_unit_test(test_version),
    cmocka_unit_test(test_strerror),
    cmocka_unit_test(test_error_messages_are_utf8),
    cmocka_unit_test(test_names));
