/* Public-API tests, options and games: the defaults, refused options with their reasons (stpete_options_check), struct
 * sizes. Part of the program 'api' (main.c); links the shared library and uses only the public headers. */
#include "api_tests.h"

/* ---- options and games ------------------------------------------------------------------------- */

/* stpete_game_get_options() returns what stpete_game_new() was given, and the state starts from it (2-4 players). */
static void check_options_round_trip(void)
{
    stpete_options o, got;
    stpete_options_init(&got); /* its struct_size */
    stpete_game *g = NULL;
    for (int players = 2; players <= 4; players++) {
        stpete_options_init(&o);
        o.players = players;
        o.seed = UINT64_C(0xDEADBEEFCAFEF00D) + (uint64_t)players;
        o.pub_cap = STPETE_PUB_CAP_PER_PLAYER;
        o.tie_break = STPETE_TIE_BREAK_RUBLES_TOTAL;
        o.public_rubles = 1;
        o.public_hands = 1;
        for (int k = 0; k < 4; k++)
            o.start_markers[k] = k % players;
        assert_int_equal(stpete_game_new(&o, &g, NULL), STPETE_OK);
        assert_int_equal(stpete_game_num_players(g), players);
        assert_int_equal(stpete_game_get_options(g, &got), STPETE_OK);
        assert_int_equal(got.struct_size, sizeof got);
        assert_int_equal(got.players, players);
        assert_true(got.seed == o.seed);
        assert_int_equal(got.pub_cap, STPETE_PUB_CAP_PER_PLAYER);
        assert_int_equal(got.tie_break, STPETE_TIE_BREAK_RUBLES_TOTAL);
        assert_int_equal(got.public_rubles, 1);
        assert_int_equal(got.public_hands, 1);
        assert_memory_equal(got.start_markers, o.start_markers, sizeof o.start_markers);
        stpete_state *st = make_state(g);
        for (int k = 0; k < 4; k++)
            assert_int_equal(stpete_state_marker_holder(st, k), o.start_markers[k]);
        assert_int_equal(stpete_state_current_player(st), o.start_markers[STPETE_PHASE_WORKER]);
        stpete_state_free(st);
        stpete_game_free(g);
    }
}

static void test_options_defaults(void **unused)
{
    (void)unused;
    stpete_options o, m = STPETE_OPTIONS_INIT;
    memset(&o, 0x5a, sizeof o);
    stpete_options_init(&o);
    stpete_options_init(NULL); /* ignored */
    assert_int_equal(o.struct_size, sizeof(stpete_options));
    assert_int_equal(o.players, 4);
    assert_true(o.seed == 0);
    assert_int_equal(o.pub_cap, STPETE_PUB_CAP_PER_PUB);
    assert_int_equal(o.tie_break, STPETE_TIE_BREAK_RUBLES_MOD_10);
    for (int k = 0; k < 4; k++)
        assert_int_equal(o.start_markers[k], -1);
    assert_int_equal(o.public_rubles, 0);
    assert_int_equal(o.public_hands, 0);
    assert_null(o.allocator.malloc_fn);
    assert_null(o.allocator.realloc_fn);
    assert_null(o.allocator.free_fn);
    assert_null(o.allocator.user);
    /* the macro and the function agree field by field */
    assert_int_equal(m.struct_size, o.struct_size);
    assert_int_equal(m.players, o.players);
    assert_true(m.seed == o.seed);
    assert_int_equal(m.pub_cap, o.pub_cap);
    assert_int_equal(m.tie_break, o.tie_break);
    assert_memory_equal(m.start_markers, o.start_markers, sizeof o.start_markers);
    assert_int_equal(m.public_rubles, o.public_rubles);
    assert_int_equal(m.public_hands, o.public_hands);

    /* NULL options = the defaults */
    stpete_game *g = NULL;
    assert_int_equal(stpete_game_new(NULL, &g, NULL), STPETE_OK);
    assert_int_equal(stpete_game_num_players(g), 4);
    stpete_options got;
    memset(&got, 0, sizeof got);
    /* the caller must say how large its struct is */
    assert_int_equal(stpete_game_get_options(g, &got), STPETE_E_UNSUPPORTED_VERSION);
    got.struct_size = sizeof got + 1;
    assert_int_equal(stpete_game_get_options(g, &got), STPETE_E_UNSUPPORTED_VERSION);
    stpete_options_init(&got);
    assert_int_equal(stpete_game_get_options(g, &got), STPETE_OK);
    assert_int_equal(got.players, 4);
    assert_true(got.seed == 0);
    assert_int_equal(got.pub_cap, STPETE_PUB_CAP_PER_PUB);
    assert_int_equal(got.tie_break, STPETE_TIE_BREAK_RUBLES_MOD_10);
    stpete_game_free(g);

    check_options_round_trip();
}

/* The start-player markers of the options (§3.3 [option], R15): accepted and refused assignments. */
static void check_marker_options(void)
{
    stpete_options o;
    /* start markers (§3.3 [option]): all -1, or every entry a seat and every seat holding 1 or 2 */
    static const struct {
        int players, m[4], rc;
    } markers[] = {
        { 4, { 0, 1, 2, 3 }, STPETE_OK },
        { 4, { 3, 2, 1, 0 }, STPETE_OK },
        { 4, { 0, 0, 1, 2 }, STPETE_E_INVALID_ARGUMENT },  /* seat 3 holds none */
        { 4, { 0, 1, 2, 4 }, STPETE_E_INVALID_ARGUMENT },  /* seat out of range */
        { 4, { -1, 1, 2, 3 }, STPETE_E_INVALID_ARGUMENT }, /* partial -1 */
        { 4, { 0, 1, 2, -1 }, STPETE_E_INVALID_ARGUMENT }, /* partial -1 */
        { 4, { -2, -1, -1, -1 }, STPETE_E_INVALID_ARGUMENT },
        { 3, { 0, 0, 1, 2 }, STPETE_OK },
        { 3, { 2, 1, 2, 0 }, STPETE_OK },
        { 3, { 0, 1, 2, 3 }, STPETE_E_INVALID_ARGUMENT },  /* seat 3 in a 3-player game */
        { 3, { 0, 0, 0, 1 }, STPETE_E_INVALID_ARGUMENT },  /* 3-1-0 */
        { 3, { 0, 0, 1, 1 }, STPETE_E_INVALID_ARGUMENT },  /* seat 2 holds none */
        { 2, { 0, 1, 0, 1 }, STPETE_OK },
        { 2, { 1, 1, 0, 0 }, STPETE_OK },
        { 2, { 0, 0, 0, 1 }, STPETE_E_INVALID_ARGUMENT },  /* 3-1 split */
        { 2, { 1, 0, 1, 1 }, STPETE_E_INVALID_ARGUMENT },  /* 1-3 split */
        { 2, { 0, 0, 0, 0 }, STPETE_E_INVALID_ARGUMENT },
        { 2, { 0, 1, 2, 1 }, STPETE_E_INVALID_ARGUMENT },  /* seat out of range */
        { 2, { 0, 1, -1, -1 }, STPETE_E_INVALID_ARGUMENT },/* partial -1 */
        { 2, { -1, -1, -1, -1 }, STPETE_OK },
    };
    for (size_t i = 0; i < sizeof markers / sizeof markers[0]; i++) {
        stpete_options_init(&o);
        o.players = markers[i].players;
        memcpy(o.start_markers, markers[i].m, sizeof o.start_markers);
        int rc = game_new_status(&o);
        if (rc != markers[i].rc)
            fail_msg("markers case %zu: got %d, want %d", i, rc, markers[i].rc);
    }
}

static void test_options_bad(void **unused)
{
    (void)unused;
    stpete_options o;
    assert_int_equal(stpete_game_new(NULL, NULL, NULL), STPETE_E_INVALID_ARGUMENT);
    stpete_options_init(&o);
    assert_int_equal(stpete_game_new(&o, NULL, NULL), STPETE_E_INVALID_ARGUMENT);

    static const int bad_players[] = { -1, 0, 1, 5, 100 };
    for (size_t i = 0; i < sizeof bad_players / sizeof bad_players[0]; i++) {
        stpete_options_init(&o);
        o.players = bad_players[i];
        assert_int_equal(game_new_status(&o), STPETE_E_INVALID_ARGUMENT);
    }
    for (int players = 2; players <= 4; players++) {
        stpete_options_init(&o);
        o.players = players;
        assert_int_equal(game_new_status(&o), STPETE_OK);
    }
    static const int bad_enum[] = { -1, 2, 3, 1000 };
    for (size_t i = 0; i < sizeof bad_enum / sizeof bad_enum[0]; i++) {
        stpete_options_init(&o);
        o.pub_cap = bad_enum[i];
        assert_int_equal(game_new_status(&o), STPETE_E_INVALID_ARGUMENT);
        stpete_options_init(&o);
        o.tie_break = bad_enum[i];
        assert_int_equal(game_new_status(&o), STPETE_E_INVALID_ARGUMENT);
    }
    stpete_options_init(&o);
    o.public_rubles = 2;
    assert_int_equal(game_new_status(&o), STPETE_E_INVALID_ARGUMENT);
    stpete_options_init(&o);
    o.public_hands = -1;
    assert_int_equal(game_new_status(&o), STPETE_E_INVALID_ARGUMENT);

    check_marker_options();

    /* partial allocators */
    for (int mask = 1; mask < 7; mask++) {
        stpete_options_init(&o);
        o.allocator.malloc_fn = (mask & 1) ? count_malloc : NULL;
        o.allocator.realloc_fn = (mask & 2) ? count_realloc : NULL;
        o.allocator.free_fn = (mask & 4) ? count_free : NULL;
        assert_int_equal(game_new_status(&o), STPETE_E_INVALID_ARGUMENT);
    }

    /* struct_size: 0 or larger than the library's struct */
    stpete_options_init(&o);
    o.struct_size = 0;
    assert_int_equal(game_new_status(&o), STPETE_E_UNSUPPORTED_VERSION);
    o.struct_size = sizeof(stpete_options) + 1;
    assert_int_equal(game_new_status(&o), STPETE_E_UNSUPPORTED_VERSION);
    o.struct_size = sizeof(stpete_options) + 64;
    assert_int_equal(game_new_status(&o), STPETE_E_UNSUPPORTED_VERSION);
    o.struct_size = (size_t)-1;
    assert_int_equal(game_new_status(&o), STPETE_E_UNSUPPORTED_VERSION);
    /* unsupported version wins over otherwise bad fields: the library must not read an unknown layout */
    o.struct_size = sizeof(stpete_options) + 8;
    o.players = 9;
    assert_int_equal(game_new_status(&o), STPETE_E_UNSUPPORTED_VERSION);
}

/* stpete_options.struct_size is exactly the size of a released layout (stpete.h, "Structs that may grow"; issue 31
 * item 3): soname 1 has only the 1.0 layout. Every size from 0 to sizeof + 8 is probed through every call that reads
 * or writes the struct: only sizeof(stpete_options) is accepted. 1.0 accepted every size from its 0.1 layout up,
 * so a size ending inside allocator.free_fn copied one byte of a pointer, which stpete_game_free() then called. */
static void test_options_struct_sizes(void **unused)
{
    (void)unused;
    stpete_game *ref = make_game(3, 4);
    for (size_t size = 0; size <= sizeof(stpete_options) + 8; size++) {
        /* the two released layouts: 1.0's (up to edition) and the one with the New Society's members (§12) */
        int want = size == sizeof(stpete_options) || size == offsetof(stpete_options, new_society)
                       ? STPETE_OK
                       : STPETE_E_UNSUPPORTED_VERSION;
        stpete_options o;
        stpete_options_init(&o);
        o.players = 3;
        o.allocator.malloc_fn = count_malloc; /* a whole allocator: a truncated copy of it must never be used */
        o.allocator.realloc_fn = count_realloc;
        o.allocator.free_fn = count_free;
        counting c = { 0, 0, 0, 0, 0 };
        o.allocator.user = &c;
        o.struct_size = size;
        stpete_error e = STPETE_ERROR_INIT;
        if (stpete_options_check(&o, &e) != want || e.status != want)
            fail_msg("stpete_options_check with struct_size %zu: %d (%s), want %d", size, e.status, e.message, want);
        stpete_game *g = (stpete_game *)&g;
        int rc = stpete_game_new(&o, &g, NULL);
        if (rc != want)
            fail_msg("stpete_game_new with struct_size %zu: %d, want %d", size, rc, want);
        if (want == STPETE_OK)
            assert_int_equal(stpete_game_num_players(g), 3);
        else
            assert_null(g);
        stpete_game_free(g);
        union {
            stpete_options o;
            unsigned char bytes[sizeof(stpete_options) + 16];
        } out;
        memset(&out, 0x5A, sizeof out);
        out.o.struct_size = size;
        rc = stpete_game_get_options(ref, &out.o);
        if (rc != want)
            fail_msg("stpete_game_get_options with struct_size %zu: %d, want %d", size, rc, want);
        if (want == STPETE_OK) {
            assert_int_equal(out.o.players, 3);
            assert_true(out.o.struct_size == size);
            for (size_t i = size; i < sizeof out.bytes; i++) /* nothing past the caller's layout */
                if (out.bytes[i] != 0x5A)
                    fail_msg("stpete_game_get_options with struct_size %zu wrote byte %zu", size, i);
        } else {
            assert_true(out.o.struct_size == size);
            for (size_t i = sizeof(size_t); i < sizeof out.bytes; i++)
                if (out.bytes[i] != 0x5A)
                    fail_msg("stpete_game_get_options with struct_size %zu wrote byte %zu", size, i);
        }
    }
    stpete_game_free(ref);
}

/* ---- options, names and front-end helpers (issues 11 and 14) ----------------------------------------------- */

/* stpete_options_check() explains what stpete_game_new() refuses, with the status stpete_game_new() returns. */
static void test_options_check_reasons(void **unused)
{
    (void)unused;
    struct {
        int field, value; /* 0 players, 1 pub_cap, 2 tie_break, 3 markers partial, 4 markers 3 on one seat,
                             5 public_rubles, 6 public_hands */
        const char *expect;
    } cases[] = {
        { 0, 5, "players must be 2, 3 or 4, not 5" },
        { 0, 1, "players must be 2, 3 or 4, not 1" },
        { 1, 7, "pub_cap must be" },
        { 2, -1, "tie_break must be" },
        { 3, 0, "start_markers must be all -1" },
        { 4, 0, "holds 3 start-player markers" },
        { 5, 2, "public_rubles must be 0 or 1, not 2" },
        { 6, -3, "public_hands must be 0 or 1, not -3" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        stpete_options o;
        stpete_options_init(&o);
        switch (cases[i].field) {
        case 0: o.players = cases[i].value; break;
        case 1: o.pub_cap = cases[i].value; break;
        case 2: o.tie_break = cases[i].value; break;
        case 3: o.start_markers[0] = 0; break;
        case 4: { const int m[4] = { 0, 0, 0, 1 }; o.players = 2; memcpy(o.start_markers, m, sizeof m); break; }
        case 5: o.public_rubles = cases[i].value; break;
        default: o.public_hands = cases[i].value; break;
        }
        stpete_error err = STPETE_ERROR_INIT;
        assert_int_equal(stpete_options_check(&o, &err), STPETE_E_INVALID_ARGUMENT);
        assert_int_equal(err.status, STPETE_E_INVALID_ARGUMENT);
        if (!strstr(err.message, cases[i].expect))
            fail_msg("case %zu: \"%s\" does not say \"%s\"", i, err.message, cases[i].expect);
        stpete_game *g = (stpete_game *)1;
        stpete_error err2 = STPETE_ERROR_INIT;
        assert_int_equal(stpete_game_new(&o, &g, &err2), STPETE_E_INVALID_ARGUMENT); /* the same verdict */
        assert_string_equal(err2.message, err.message);                              /* and reason */
        assert_null(g);
    }
    stpete_options o;
    stpete_options_init(&o);
    stpete_error err = STPETE_ERROR_INIT;
    err.message[0] = 'x';
    assert_int_equal(stpete_options_check(&o, &err), STPETE_OK);
    assert_string_equal(err.message, "");
    assert_int_equal(err.status, STPETE_OK);
    o.players = 9;
    assert_int_equal(stpete_options_check(&o, &err), STPETE_E_INVALID_ARGUMENT);
    assert_string_equal(err.message, "players must be 2, 3 or 4, not 9 (§3)");
    assert_int_equal(err.line, -1);
    assert_int_equal(stpete_options_check(&o, NULL), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_options_check(NULL, &err), STPETE_E_INVALID_ARGUMENT);
    /* the detail struct follows the struct_size rule: 0 or larger than the library's is refused, nothing written */
    stpete_error bad = STPETE_ERROR_INIT;
    bad.struct_size = 0;
    assert_int_equal(stpete_options_check(&o, &bad), STPETE_E_UNSUPPORTED_VERSION);
    bad.struct_size = sizeof bad + 8;
    assert_int_equal(stpete_options_check(&o, &bad), STPETE_E_UNSUPPORTED_VERSION);
    assert_string_equal(bad.message, "");
    o.struct_size = 0;
    assert_int_equal(stpete_options_check(&o, &err), STPETE_E_UNSUPPORTED_VERSION);
}

TEST_GROUP(api_options,
    cmocka_unit_test(test_options_defaults),
    cmocka_unit_test(test_options_bad),
    cmocka_unit_test(test_options_struct_sizes),
    cmocka_unit_test(test_options_check_reasons));
