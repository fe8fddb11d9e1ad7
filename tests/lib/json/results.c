/* Results files (doc/format.md, "Results files"; include/stpete/stpete.h, stpete_results_*): the one home of the
 * format that stpete-arena and stpete.experiment write. A line written reads back; a line reads only if it
 * proves its game (the record replayed: a forged result, action or seed is refused), of this program and
 * definition; a failure changes nothing. Public API only. */
#include <inttypes.h>
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
#include "test_rng.h"

#define DEFINITION "{\"players\":3,\"seed\":5,\"bots\":[\"greedy\",\"random\",\"random\"]}"
#define PROGRAM "stpete-test"

enum { LINE_CAP = 1 << 16 };

/* A game of 3 players played by random steps to its end from seed, its actions into ids; returns the count. */
static size_t played_game(stpete_game *g, uint64_t seed, int *ids, size_t cap)
{
    stpete_state *st = make_state(g);
    assert_int_equal(stpete_state_reset(st, seed), STPETE_OK);
    uint64_t rng = seed;
    while (!tg_is_terminal(st))
        step_random(st, &rng);
    size_t n = 0;
    assert_int_equal(stpete_state_history(st, ids, cap, &n), STPETE_OK);
    stpete_state_free(st);
    return n;
}

/* The game line of game number of seed's game (ids, n) with fields, into line; returns its length. */
static size_t game_line(const stpete_game *g, long long number, uint64_t seed, const int *ids, size_t n,
                        const char *fields, char *line)
{
    size_t len = 0;
    assert_int_equal(stpete_results_game_to_json(g, DEFINITION, number, seed, ids, n, fields, line, LINE_CAP, &len),
                     STPETE_OK);
    assert_int_equal(strlen(line), len);
    assert_null(strchr(line, '\n')); /* one line */
    return len;
}

/* Read a line of this program and definition into st: the status, with number and fields. */
static int read_line_into(const stpete_game *g, const char *line, stpete_state *st, long long *number,
                          char *fields, size_t capacity, stpete_error *err)
{
    uint64_t seed = 0;
    size_t flen = 0;
    return stpete_results_read_line(g, PROGRAM, DEFINITION, line, strlen(line), st, number, &seed, fields, capacity,
                                    &flen, err);
}

/* The header and a game line read back: the header is -1, the game line its number, seed and fields, and the
 * state is the game's last position (equal to the played one, its history the actions). */
static void test_round_trip(void **unused)
{
    (void)unused;
    stpete_game *g = make_game(3, 1);
    static int ids[4096], back[4096];
    size_t n = played_game(g, 77, ids, 4096);
    char header[1024], fields[256];
    size_t len = 0;
    assert_int_equal(stpete_results_header_to_json(PROGRAM, DEFINITION, header, sizeof header, &len), STPETE_OK);
    assert_null(strchr(header, '\n'));
    static char line[LINE_CAP];
    game_line(g, 12, 77, ids, n, "{\"seating\":[0,1,2],\"time_ms\":[1.5,2,0]}", line);
    stpete_state *st = make_state(g), *want = make_state(g);
    long long number = 99;
    uint64_t seed = 9;
    size_t flen = 9;
    assert_int_equal(stpete_results_read_line(g, PROGRAM, DEFINITION, header, len, st, &number, &seed, fields,
                                              sizeof fields, &flen, NULL), STPETE_OK);
    assert_true(number == -1 && seed == 0 && flen == 0);
    strcat(line, "\n"); /* as read from a file */
    assert_int_equal(stpete_results_read_line(g, PROGRAM, DEFINITION, line, strlen(line), st, &number, &seed, fields,
                                              sizeof fields, &flen, NULL), STPETE_OK);
    assert_true(number == 12 && seed == 77);
    assert_string_equal(fields, "{\"seating\":[0,1,2],\"time_ms\":[1.5,2,0]}");
    assert_int_equal(flen, strlen(fields));
    assert_int_equal(stpete_state_reset(want, 77), STPETE_OK);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(stpete_state_apply(want, ids[i]), STPETE_OK);
    assert_int_equal(tg_equal(st, want), 1);
    size_t hn = 0;
    assert_int_equal(stpete_state_history(st, back, 4096, &hn), STPETE_OK);
    assert_int_equal(hn, n);
    assert_memory_equal(back, ids, n * sizeof *ids);
    stpete_state_free(want);
    stpete_state_free(st);
    stpete_game_free(g);
}

/* The definition's hash: 16 hex digits of FNV-1a over its canonical text, whatever the key order and spacing. */
static void test_hash(void **unused)
{
    (void)unused;
    char a[STPETE_RESULTS_HASH_SIZE], b[STPETE_RESULTS_HASH_SIZE];
    size_t len = 0;
    assert_int_equal(stpete_results_hash(DEFINITION, a, sizeof a, &len), STPETE_OK);
    assert_int_equal(len, 16);
    assert_int_equal(stpete_results_hash(" { \"bots\" : [\"greedy\",\"random\",\"random\"], \"seed\":5,\"players\":3}",
                                         b, sizeof b, &len), STPETE_OK);
    assert_string_equal(a, b);
    /* the canonical text (compact, keys sorted), hashed here independently */
    const char *canon = "{\"bots\":[\"greedy\",\"random\",\"random\"],\"players\":3,\"seed\":5}";
    uint64_t h = UINT64_C(0xCBF29CE484222325);
    for (const char *p = canon; *p; p++)
        h = (h ^ (unsigned char)*p) * UINT64_C(0x100000001B3);
    char want[STPETE_RESULTS_HASH_SIZE];
    snprintf(want, sizeof want, "%016" PRIx64, h);
    assert_string_equal(a, want);
    assert_int_equal(stpete_results_hash("{\"seed\":6}", b, sizeof b, &len), STPETE_OK);
    assert_string_not_equal(a, b);
    assert_int_equal(stpete_results_hash("[1]", b, sizeof b, &len), STPETE_E_PARSE);
    assert_int_equal(stpete_results_hash("{", b, sizeof b, &len), STPETE_E_PARSE);
    assert_int_equal(stpete_results_hash(DEFINITION, b, 16, &len), STPETE_E_BUFFER_TOO_SMALL);
    assert_int_equal(len, 16);
    assert_int_equal(stpete_results_hash(NULL, b, sizeof b, &len), STPETE_E_INVALID_ARGUMENT);
}

/* Edit a game line (text) with edit and read it: the status (the state must stay as it was). */
static int read_edited(const stpete_game *g, const char *text, void (*edit)(json_t *), stpete_state *st)
{
    json_t *doc = json_loads(text, 0, NULL);
    assert_non_null(doc);
    edit(doc);
    char *forged = json_dumps(doc, JSON_COMPACT);
    json_decref(doc);
    stpete_state *before = NULL;
    assert_int_equal(stpete_state_clone(st, &before, NULL), STPETE_OK);
    long long number = 7;
    char fields[256] = "x";
    stpete_error err = STPETE_ERROR_INIT;
    int rc = read_line_into(g, forged, st, &number, fields, sizeof fields, &err);
    if (rc != STPETE_OK) {
        assert_true(strlen(err.message) > 0);
        assert_int_equal(tg_equal(st, before), 1); /* nothing written */
        assert_true(number == 7 && fields[0] == 'x');
    }
    stpete_state_free(before);
    free(forged);
    return rc;
}

static json_t *line_at(json_t *doc, const char *a, const char *b)
{
    json_t *v = json_object_get(doc, a);
    return b ? json_object_get(v, b) : v;
}

/* A consistent forgery: two seats' scores swapped in the recorded result (and its winners, had it any). */
static void swap_scores(json_t *doc)
{
    json_t *vp = line_at(line_at(doc, "record", "result"), "vp", NULL);
    json_t *first = json_deep_copy(json_array_get(vp, 0));
    json_array_set(vp, 0, json_array_get(vp, 1));
    json_array_set_new(vp, 1, first);
    json_t *winners = line_at(line_at(doc, "record", "result"), "winners", NULL);
    for (size_t i = 0; i < json_array_size(winners); i++) {
        json_int_t w = json_integer_value(json_array_get(winners, i));
        json_array_set_new(winners, i, json_integer(w == 0 ? 1 : w == 1 ? 0 : w));
    }
}

static void other_action(json_t *doc)
{
    json_t *list = line_at(doc, "record", "actions");
    json_object_set_new(json_array_get(list, json_array_size(list) / 2), "id", json_integer(960));
}

static void fewer_actions(json_t *doc)
{
    json_array_remove(line_at(doc, "record", "actions"), 0);
}

static void other_seed(json_t *doc)
{
    json_object_set_new(line_at(doc, "record", "options"), "seed", json_string("78"));
}

static void other_hash(json_t *doc)
{
    json_object_set_new(doc, "hash", json_string("0123456789abcdef"));
}

static void other_players(json_t *doc)
{
    json_object_set_new(line_at(doc, "record", "options"), "players", json_integer(4));
}

static void unknown_key(json_t *doc)
{
    json_object_set_new(doc, "score", json_integer(1));
}

static void negative_number(json_t *doc)
{
    json_object_set_new(doc, "game", json_integer(-1));
}

static void fields_not_object(json_t *doc)
{
    json_object_set_new(doc, "fields", json_array());
}

static void no_record(json_t *doc)
{
    json_object_del(doc, "record");
}

static void unchanged(json_t *doc)
{
    (void)doc;
}

/* Every forgery of a game line is refused with the reason's status, nothing written: a result swapped between
 * seats (the forgery a line without its actions could not refuse, issue 46 item 14), an action, the actions'
 * count, the seed, the hash, the players, an unknown key, a bad number or fields, no record; and a real game of
 * other rules. */
static void test_forgeries(void **unused)
{
    (void)unused;
    stpete_game *g = make_game(3, 1);
    static int ids[4096];
    size_t n = played_game(g, 77, ids, 4096);
    static char line[LINE_CAP];
    game_line(g, 3, 77, ids, n, "{}", line);
    stpete_state *st = make_state(g);
    assert_int_equal(read_edited(g, line, unchanged, st), STPETE_OK);
    assert_int_equal(stpete_state_reset(st, 5), STPETE_OK);
    static const struct {
        void (*edit)(json_t *);
        int status;
    } cases[] = {
        { swap_scores, STPETE_E_INCONSISTENT }, { other_action, STPETE_E_INCONSISTENT },
        { fewer_actions, STPETE_E_INCONSISTENT }, { other_seed, STPETE_E_INCONSISTENT },
        { other_hash, STPETE_E_MISMATCH },       { other_players, STPETE_E_INCONSISTENT },
        { unknown_key, STPETE_E_PARSE },         { negative_number, STPETE_E_PARSE },
        { fields_not_object, STPETE_E_PARSE },   { no_record, STPETE_E_PARSE },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        int rc = read_edited(g, line, cases[i].edit, st);
        if (rc != cases[i].status)
            fail_msg("forgery %zu read with status %d, want %d", i, rc, cases[i].status);
    }
    /* a real game of other rules (the second edition, §11): its line is another run's */
    stpete_game *ed2 = make_game_with(.players = 3, .seed = 1, .edition = 2);
    n = played_game(ed2, 77, ids, 4096);
    game_line(ed2, 3, 77, ids, n, "{}", line);
    long long number = 0;
    char fields[16];
    assert_int_equal(read_line_into(g, line, st, &number, fields, sizeof fields, NULL), STPETE_E_MISMATCH);
    stpete_game_free(ed2);
    stpete_state_free(st);
    stpete_game_free(g);
}

/* The header: of this program, this definition (whatever its key order) and its hash, version 1; anything else
 * is refused. */
static void test_header(void **unused)
{
    (void)unused;
    stpete_game *g = make_game(3, 1);
    stpete_state *st = make_state(g);
    char line[1024], other[1024];
    size_t len = 0;
    long long number = 0;
    char fields[16];
    assert_int_equal(stpete_results_header_to_json(PROGRAM, DEFINITION, line, sizeof line, &len), STPETE_OK);
    assert_int_equal(read_line_into(g, line, st, &number, fields, sizeof fields, NULL), STPETE_OK);
    assert_true(number == -1);
    assert_int_equal(stpete_results_header_to_json("stpete-other", DEFINITION, other, sizeof other, &len), STPETE_OK);
    assert_int_equal(read_line_into(g, other, st, &number, fields, sizeof fields, NULL), STPETE_E_MISMATCH);
    assert_int_equal(stpete_results_header_to_json(PROGRAM, "{\"players\":4}", other, sizeof other, &len),
                     STPETE_OK);
    assert_int_equal(read_line_into(g, other, st, &number, fields, sizeof fields, NULL), STPETE_E_MISMATCH);
    static const struct {
        const char *from, *to;
        int status;
    } edits[] = {
        { "\"format_version\":1", "\"format_version\":2", STPETE_E_UNSUPPORTED_VERSION },
        { "\"format\":\"stpete-results\"", "\"format\":\"stpete-replay\"", STPETE_E_PARSE },
        { "\"hash\":\"", "\"hash\":\"0", STPETE_E_INCONSISTENT },
        { "\"library\":", "\"extra\":1,\"library\":", STPETE_E_PARSE },
    };
    for (size_t i = 0; i < sizeof edits / sizeof *edits; i++) {
        const char *at = strstr(line, edits[i].from);
        assert_non_null(at);
        snprintf(other, sizeof other, "%.*s%s%s", (int)(at - line), line, edits[i].to, at + strlen(edits[i].from));
        int rc = read_line_into(g, other, st, &number, fields, sizeof fields, NULL);
        if (rc != edits[i].status)
            fail_msg("header edit %zu read with status %d, want %d", i, rc, edits[i].status);
    }
    assert_int_equal(read_line_into(g, "{\"game\":1", st, &number, fields, sizeof fields, NULL), STPETE_E_PARSE);
    assert_int_equal(read_line_into(g, "[]", st, &number, fields, sizeof fields, NULL), STPETE_E_PARSE);
    stpete_state_free(st);
    stpete_game_free(g);
}

/* The writer: only legal games, fields and definitions that are JSON objects, numbers in range, a buffer's size
 * asked first; the reader: a fields buffer too small says the size. */
static void test_bad_input(void **unused)
{
    (void)unused;
    stpete_game *g = make_game(3, 1);
    static int ids[4096];
    size_t n = played_game(g, 77, ids, 4096), len = 0, need = 0;
    static char line[LINE_CAP];
    int illegal[2] = { ids[0], 960 };
    assert_int_equal(stpete_results_game_to_json(g, DEFINITION, 0, 77, illegal, 2, "{}", line, LINE_CAP, &len),
                     STPETE_E_ILLEGAL_ACTION);
    assert_int_equal(stpete_results_game_to_json(g, DEFINITION, 0, 77, ids, n, "[]", line, LINE_CAP, &len),
                     STPETE_E_PARSE);
    assert_int_equal(stpete_results_game_to_json(g, "3", 0, 77, ids, n, "{}", line, LINE_CAP, &len), STPETE_E_PARSE);
    assert_int_equal(stpete_results_game_to_json(g, DEFINITION, -1, 77, ids, n, "{}", line, LINE_CAP, &len),
                     STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_results_game_to_json(g, DEFINITION, STPETE_RESULTS_GAME_MAX + 1, 77, ids, n, "{}", line,
                                                 LINE_CAP, &len), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_results_game_to_json(NULL, DEFINITION, 0, 77, ids, n, "{}", line, LINE_CAP, &len),
                     STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_results_game_to_json(g, DEFINITION, 0, 77, ids, n, "{}", NULL, 0, &need),
                     STPETE_E_BUFFER_TOO_SMALL);
    assert_int_equal(stpete_results_game_to_json(g, DEFINITION, 0, 77, ids, n, "{}", line, need + 1, &len),
                     STPETE_OK);
    assert_int_equal(len, need);
    game_line(g, 0, 77, ids, n, "{\"a\":\"0123456789\"}", line);
    stpete_state *st = make_state(g);
    long long number = 5;
    uint64_t seed = 5;
    char small[8];
    size_t flen = 0;
    assert_int_equal(stpete_results_read_line(g, PROGRAM, DEFINITION, line, strlen(line), st, &number, &seed, small,
                                              sizeof small, &flen, NULL), STPETE_E_BUFFER_TOO_SMALL);
    assert_int_equal(flen, strlen("{\"a\":\"0123456789\"}"));
    assert_true(number == 5 && seed == 5);
    assert_int_equal(stpete_results_read_line(g, PROGRAM, DEFINITION, line, strlen(line), NULL, &number, &seed, small,
                                              sizeof small, &flen, NULL), STPETE_E_INVALID_ARGUMENT);
    stpete_state_free(st);
    stpete_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip), cmocka_unit_test(test_hash),      cmocka_unit_test(test_forgeries),
        cmocka_unit_test(test_header),     cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests_name("results", tests, NULL, NULL);
}
