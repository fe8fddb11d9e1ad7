/* Persistence and observation (issue 3): JSON states, per-seat and public views (§9 of the rules spec), replay
 * records, the event queue. Uses only the public API, plus jansson to read and mutate documents the way a
 * careless or hostile writer would. */
#include <jansson.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "stpete/stpete.h"
#include "test_game.h"
#include "test_rng.h"

#define JSON_CAP (64 * 1024)

/* ---- helpers ------------------------------------------------------------------------------------ */

static int random_action(const stpete_state *st, uint64_t *rng)
{
    int ids[STPETE_MAX_LEGAL_ACTIONS];
    size_t n = 0;
    assert_int_equal(stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS, &n), STPETE_OK);
    assert_true(n > 0);
    return ids[rng_below(rng, (int)n)];
}

/* Serialize into a malloc'd string (asserting the length protocol). */
static char *to_json(const stpete_state *st, size_t *len_out)
{
    size_t len = 0;
    assert_int_equal(stpete_state_to_json(st, NULL, 0, &len), STPETE_E_BUFFER_TOO_SMALL);
    char *buf = malloc(len + 1);
    assert_non_null(buf);
    size_t len2 = 0;
    assert_int_equal(stpete_state_to_json(st, buf, len + 1, &len2), STPETE_OK);
    assert_int_equal(len2, len);
    assert_int_equal(strlen(buf), len);
    if (len_out)
        *len_out = len;
    return buf;
}

static char *view_json(const stpete_state *st, int seat)
{
    static char buf[JSON_CAP];
    size_t len = 0;
    assert_int_equal(stpete_state_view_to_json(st, seat, buf, sizeof buf, &len), STPETE_OK);
    return buf;
}

/* Load a document text with jansson (for inspection and mutation). */
static json_t *parse(const char *text)
{
    json_error_t e;
    json_t *j = json_loads(text, 0, &e);
    assert_non_null(j);
    return j;
}

/* Dump a mutated document and try to load it as a state of game; returns the status (and frees j). */
static int load_mutated(json_t *j, const stpete_game *g, stpete_error *err)
{
    char *text = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    assert_non_null(text);
    stpete_state *out = (stpete_state *)&out; /* must become NULL */
    memset(err, 0x55, sizeof *err);
    err->struct_size = sizeof *err; /* every other member must be written by the call */
    int rc = stpete_state_from_json(g, text, strlen(text), &out, err);
    free(text);
    if (rc == STPETE_OK)
        stpete_state_free(out);
    else
        assert_null(out);
    return rc;
}

/* ---- round trip ---------------------------------------------------------------------------------- */

/* At every node of many random games: serialize → parse → equal position, and serialize again → the same bytes
 * (issue 3 item 1, DESIGN §4). STPETE_SERIALIZE_GAMES sets the games per player count (default 500). */
static void test_round_trip_every_node(void **unused)
{
    (void)unused;
    int games = test_games("STPETE_SERIALIZE_GAMES", 500);
    long nodes = 0;
    for (int players = 2; players <= 4; players++) {
        stpete_game *g = make_game(players, 0);
        stpete_state *st = make_state(g);
        for (int k = 0; k < games; k++) {
            uint64_t rng = (uint64_t)players * 100003u + (uint64_t)k;
            assert_int_equal(stpete_state_reset(st, rng), STPETE_OK);
            for (;;) {
                static char a[JSON_CAP], b[JSON_CAP];
                size_t len, len_b;
                assert_int_equal(stpete_state_to_json(st, a, sizeof a, &len), STPETE_OK);
                stpete_state *back = NULL;
                stpete_error err = STPETE_ERROR_INIT;
                int rc = stpete_state_from_json(g, a, len, &back, &err);
                if (rc != STPETE_OK)
                    fail_msg("node %ld: %s: %s\n%s", nodes, stpete_strerror(rc), err.message, a);
                assert_int_equal(tg_equal(st, back), 1);
                assert_int_equal(stpete_state_to_json(back, b, sizeof b, &len_b), STPETE_OK);
                assert_int_equal(len_b, len);
                assert_memory_equal(a, b, len + 1);
                stpete_state_free(back);
                nodes++;
                if (tg_is_terminal(st))
                    break;
                assert_int_equal(stpete_state_apply(st, random_action(st, &rng)), STPETE_OK);
            }
        }
        stpete_state_free(st);
        stpete_game_free(g);
    }
    assert_true(nodes > 3L * games * 100);
}

/* A loaded state plays on exactly like the original: the same legal actions at every step and the same end
 * under the same actions (issue 3 item 1). */
static void test_loaded_state_plays_on_identically(void **unused)
{
    (void)unused;
    for (int players = 2; players <= 4; players++)
        for (int k = 0; k < 20; k++) {
            stpete_game *g = make_game(players, (uint64_t)k);
            stpete_state *st = make_state(g);
            uint64_t rng = (uint64_t)k * 7u + (uint64_t)players;
            int cut = 10 + rng_below(&rng, 120);
            for (int i = 0; i < cut && !tg_is_terminal(st); i++)
                assert_int_equal(stpete_state_apply(st, random_action(st, &rng)), STPETE_OK);
            size_t len;
            char *text = to_json(st, &len);
            stpete_game *g2 = NULL;
            stpete_state *copy = NULL;
            assert_int_equal(stpete_game_from_json(text, len, NULL, &g2, NULL), STPETE_OK);
            assert_int_equal(stpete_state_from_json(g2, text, len, &copy, NULL), STPETE_OK);
            free(text);
            while (!tg_is_terminal(st)) {
                int a[STPETE_MAX_LEGAL_ACTIONS], b[STPETE_MAX_LEGAL_ACTIONS];
                size_t na, nb;
                assert_int_equal(stpete_state_legal_actions(st, a, STPETE_MAX_LEGAL_ACTIONS, &na), STPETE_OK);
                assert_int_equal(stpete_state_legal_actions(copy, b, STPETE_MAX_LEGAL_ACTIONS, &nb), STPETE_OK);
                assert_int_equal(na, nb);
                assert_memory_equal(a, b, na * sizeof *a);
                int id = a[rng_below(&rng, (int)na)];
                assert_int_equal(stpete_state_apply(st, id), STPETE_OK);
                assert_int_equal(stpete_state_apply(copy, id), STPETE_OK);
            }
            assert_int_equal(tg_is_terminal(copy), 1);
            unsigned wa, wb;
            assert_int_equal(stpete_state_winners(st, &wa), STPETE_OK);
            assert_int_equal(stpete_state_winners(copy, &wb), STPETE_OK);
            assert_int_equal(wa, wb);
            for (int s = 0; s < players; s++) {
                int va, vb;
                stpete_state_vp(st, s, &va);
                stpete_state_vp(copy, s, &vb);
                assert_int_equal(va, vb);
            }
            assert_int_equal(tg_equal(st, copy), 1);
            stpete_state_free(copy);
            stpete_state_free(st);
            stpete_game_free(g2);
            stpete_game_free(g);
        }
}

/* A game with other options is refused (STPETE_E_MISMATCH); one with the same rule options (o) but another seed
 * is not, and the state it loads serializes to the same bytes (text, of st). */
static void check_loaded_by_rules(stpete_options o, const char *text, size_t len, const stpete_state *st)
{
    /* A game with other options is refused (MISMATCH); one with the same rule options but another seed is not,
     * and the state it loads serializes to the same bytes. */
    stpete_game *other = make_game(3, 5);
    stpete_state *out = NULL;
    stpete_error err = STPETE_ERROR_INIT;
    assert_int_equal(stpete_state_from_json(other, text, len, &out, &err), STPETE_E_MISMATCH);
    assert_null(out);
    assert_true(strlen(err.message) > 0);
    o.seed = 99;
    stpete_game *same_rules = NULL;
    assert_int_equal(stpete_game_new(&o, &same_rules, NULL), STPETE_OK);
    assert_int_equal(stpete_state_from_json(same_rules, text, len, &out, NULL), STPETE_OK);
    assert_int_equal(tg_equal(out, st), 1);
    char *again = to_json(out, NULL);
    assert_string_equal(again, text);
    free(again);
    stpete_state_free(out);
    stpete_game_free(same_rules);
    stpete_game_free(other);
}

/* The options of the document make the game: stpete_game_from_json() gives the same options (§3, §7.2, §8, §9). */
static void test_game_from_json_options(void **unused)
{
    (void)unused;
    stpete_options o;
    stpete_options_init(&o);
    o.players = 3;
    o.seed = UINT64_MAX; /* needs all 64 bits: written as a decimal string */
    o.pub_cap = STPETE_PUB_CAP_PER_PLAYER;
    o.tie_break = STPETE_TIE_BREAK_RUBLES_TOTAL;
    o.start_markers[0] = 2, o.start_markers[1] = 0, o.start_markers[2] = 1, o.start_markers[3] = 2;
    o.public_rubles = 1;
    stpete_game *g = NULL;
    assert_int_equal(stpete_game_new(&o, &g, NULL), STPETE_OK);
    stpete_state *st = make_state(g);
    size_t len;
    char *text = to_json(st, &len);
    /* A state carries its PRNG, not the seed: options.seed is null and the game read from it has seed 0. A
     * replay record carries the seed, as a decimal string (all 64 bits). */
    assert_non_null(strstr(text, "\"seed\":null"));
    stpete_game *g2 = NULL, *g3 = NULL;
    assert_int_equal(stpete_game_from_json(text, len, NULL, &g2, NULL), STPETE_OK);
    char record[4096];
    size_t rlen, n_actions;
    assert_int_equal(stpete_replay_to_json(g, UINT64_MAX, NULL, 0, record, sizeof record, &rlen), STPETE_OK);
    assert_non_null(strstr(record, "\"seed\": \"18446744073709551615\""));
    assert_int_equal(stpete_replay_from_json(record, rlen, NULL, &g3, NULL, 0, &n_actions, NULL), STPETE_OK);
    stpete_options o3;
    stpete_options_init(&o3);
    assert_int_equal(stpete_game_get_options(g3, &o3), STPETE_OK);
    assert_true(o3.seed == UINT64_MAX);
    stpete_game_free(g3);
    stpete_options back;
    stpete_options_init(&back);
    assert_int_equal(stpete_game_get_options(g2, &back), STPETE_OK);
    assert_int_equal(back.players, 3);
    assert_true(back.seed == 0);
    assert_int_equal(back.pub_cap, STPETE_PUB_CAP_PER_PLAYER);
    assert_int_equal(back.tie_break, STPETE_TIE_BREAK_RUBLES_TOTAL);
    assert_memory_equal(back.start_markers, o.start_markers, sizeof o.start_markers);
    assert_int_equal(back.public_rubles, 1);
    assert_int_equal(back.public_hands, 0);
    check_loaded_by_rules(o, text, len, st);
    free(text);
    stpete_state_free(st);
    stpete_game_free(g2);
    stpete_game_free(g);
}

/* ---- views (§9) ---------------------------------------------------------------------------------- */

/* Play until every seat holds a hand card (takes are preferred), so that hands have something to hide. */
static void play_until_hands(stpete_state *st, int players, uint64_t *rng)
{
    for (int guard = 0; guard < 2000 && !tg_is_terminal(st); guard++) {
        int full = 1;
        for (int s = 0; s < players; s++) {
            size_t n = 0;
            stpete_state_hand(st, s, NULL, 0, &n);
            full &= n > 0;
        }
        if (full)
            return;
        int ids[STPETE_MAX_LEGAL_ACTIONS];
        size_t n = 0;
        stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS, &n);
        int pick = take_action_or(ids, n, ids[rng_below(rng, (int)n)]);
        assert_int_equal(stpete_state_apply(st, pick), STPETE_OK);
    }
    fail_msg("no position with a hand card for every seat");
}

/* Check one player entry of a view against the state: public parts always, secrets only when allowed. */
static void check_player_view(const json_t *pj, const stpete_state *st, int seat, int sees_rubles, int sees_hand)
{
    int vp;
    stpete_state_vp(st, seat, &vp);
    assert_int_equal(json_integer_value(json_object_get(pj, "vp")), vp);
    int hand[STPETE_MAX_HAND];
    size_t n = 0;
    stpete_state_hand(st, seat, hand, STPETE_MAX_HAND, &n);
    assert_int_equal(json_integer_value(json_object_get(pj, "hand_size")), (json_int_t)n);
    assert_int_equal(json_array_size(json_object_get(pj, "hand_backs")), n);
    static const char *const backs[4] = { "worker", "building", "aristocrat", "trading" };
    for (size_t i = 0; i < n; i++) { /* the back of a card is that of its stack (§1, §9) */
        assert_string_equal(json_string_value(json_array_get(json_object_get(pj, "hand_backs"), i)),
                            backs[tg_card_stack(hand[i])]);
    }
    const json_t *r = json_object_get(pj, "rubles");
    if (sees_rubles)
        assert_int_equal(json_integer_value(r), stpete_state_rubles(st, seat));
    else
        assert_true(json_is_null(r));
    /* the hand (format 3): each card's name when the viewer sees it or saw it taken (§7.1, §9), else null */
    const json_t *h = json_object_get(pj, "hand"), *known = json_object_get(pj, "hand_known");
    assert_int_equal(json_array_size(h), n);
    for (size_t i = 0; i < n; i++) {
        if (sees_hand || json_is_true(json_array_get(known, i)))
            assert_string_equal(json_string_value(json_array_get(h, i)), tg_card_name(STPETE_EDITION_FIRST, hand[i]));
        else
            assert_true(json_is_null(json_array_get(h, i)));
    }
}

static void check_view(const stpete_state *st, int players, int viewer, int public_rubles, int public_hands)
{
    json_t *j = parse(view_json(st, viewer));
    assert_string_equal(json_string_value(json_object_get(j, "view")), viewer < 0 ? "public" : "seat");
    assert_true(json_is_null(json_object_get(j, "rng")));
    /* no seed either: the seed and the stack sizes would give away the order of every stack (§9) */
    assert_true(json_is_null(json_object_get(json_object_get(j, "options"), "seed")));
    const json_t *stacks = json_object_get(j, "stacks"), *sizes = json_object_get(j, "stack_sizes");
    static const char *const keys[4] = { "worker", "building", "aristocrat", "trading" };
    for (int s = 0; s < 4; s++) { /* stack order never revealed, sizes public */
        assert_true(json_is_null(json_object_get(stacks, keys[s])));
        assert_int_equal(json_integer_value(json_object_get(sizes, keys[s])), stpete_state_stack_size(st, s));
    }
    for (int s = 0; s < players; s++)
        check_player_view(json_array_get(json_object_get(j, "players"), (size_t)s), st, s,
                          s == viewer || public_rubles, s == viewer || public_hands);
    json_decref(j);
    /* A view is not a playable state: refused with REDACTED and a message (issue 3 item 2). */
    stpete_state *out = NULL;
    stpete_error err = STPETE_ERROR_INIT;
    const char *text = view_json(st, viewer);
    assert_int_equal(stpete_state_from_json(stpete_state_game(st), text, strlen(text), &out, &err),
                     STPETE_E_REDACTED);
    assert_null(out);
    assert_non_null(strstr(err.message, "§9"));
}

static void test_views_hide_secrets(void **unused)
{
    (void)unused;
    for (int variant = 0; variant < 4; variant++) {
        int pr = variant & 1, ph = variant >> 1;
        for (int players = 2; players <= 4; players++) {
            stpete_game *g = make_game_with(.players = players, .seed = (uint64_t)(players + 10 * variant), .public_rubles = pr,
                                            .public_hands = ph);
            stpete_state *st = make_state(g);
            uint64_t rng = (uint64_t)variant * 31u + (uint64_t)players;
            play_until_hands(st, players, &rng);
            for (int viewer = STPETE_VIEW_PUBLIC; viewer < players; viewer++)
                check_view(st, players, viewer, pr, ph);
            /* The view of a seat is the full state minus the secrets: the board is in it. */
            char *full_text = to_json(st, NULL); /* malloc'd; view_json() returns a static buffer */
            json_t *full = parse(full_text), *view = parse(view_json(st, 0));
            assert_true(json_equal(json_object_get(full, "upper_row"), json_object_get(view, "upper_row")));
            assert_true(json_equal(json_object_get(full, "discard"), json_object_get(view, "discard")));
            json_decref(full);
            json_decref(view);
            free(full_text);
            size_t len;
            assert_int_equal(stpete_state_view_to_json(st, players, NULL, 0, &len), STPETE_E_INVALID_ARGUMENT);
            assert_int_equal(stpete_state_view_to_json(st, -2, NULL, 0, &len), STPETE_E_INVALID_ARGUMENT);
            stpete_state_free(st);
            stpete_game_free(g);
        }
    }
}

/* ---- bad input ----------------------------------------------------------------------------------- */

static void *only_malloc(void *user, size_t size)
{
    (void)user;
    return malloc(size);
}

static void test_null_and_buffer_arguments(void **unused)
{
    (void)unused;
    stpete_game *g = make_game(2, 1);
    stpete_state *st = make_state(g);
    size_t len = 0, need = 0;
    char small[8];
    assert_int_equal(stpete_state_to_json(NULL, small, sizeof small, &len), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_state_to_json(st, small, sizeof small, NULL), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_state_to_json(st, NULL, 5, &len), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_state_to_json(st, small, sizeof small, &need), STPETE_E_BUFFER_TOO_SMALL);
    assert_true(need > sizeof small);
    char *buf = malloc(need + 1);
    /* exactly the length is one byte short (the NUL) */
    assert_int_equal(stpete_state_to_json(st, buf, need, &len), STPETE_E_BUFFER_TOO_SMALL);
    assert_int_equal(stpete_state_to_json(st, buf, need + 1, &len), STPETE_OK);
    assert_int_equal(len, need);
    stpete_state *out = (stpete_state *)buf;
    stpete_game *gout = (stpete_game *)buf;
    assert_int_equal(stpete_state_from_json(g, buf, len, NULL, NULL), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_state_from_json(NULL, buf, len, &out, NULL), STPETE_E_INVALID_ARGUMENT);
    assert_null(out);
    assert_int_equal(stpete_state_from_json(g, NULL, len, &out, NULL), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_game_from_json(buf, len, NULL, NULL, NULL), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_game_from_json(NULL, len, NULL, &gout, NULL), STPETE_E_INVALID_ARGUMENT);
    assert_null(gout);
    stpete_allocator partial = { only_malloc, NULL, NULL, NULL };
    assert_int_equal(stpete_game_from_json(buf, len, &partial, &gout, NULL), STPETE_E_INVALID_ARGUMENT);
    assert_null(gout);
    int ids[4] = { 0 };
    size_t n;
    assert_int_equal(stpete_replay_to_json(NULL, 1, ids, 0, NULL, 0, &len), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_replay_to_json(g, 1, NULL, 3, NULL, 0, &len), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_replay_from_json(buf, len, NULL, NULL, ids, 4, &n, NULL), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_replay_from_json(buf, len, NULL, &gout, NULL, 4, &n, NULL), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_replay_from_json(buf, len, NULL, &gout, ids, 4, NULL, NULL), STPETE_E_INVALID_ARGUMENT);
    /* a state document is not a replay record */
    stpete_error err = STPETE_ERROR_INIT;
    assert_int_equal(stpete_replay_from_json(buf, len, NULL, &gout, ids, 4, &n, &err), STPETE_E_PARSE);
    assert_non_null(strstr(err.message, "format"));
    free(buf);
    stpete_state_free(st);
    stpete_game_free(g);
}

/* Every truncation of a valid document is refused, never a crash, never a state; syntax errors carry a line and
 * column (issue 3 item 4). */
static void test_truncated_documents(void **unused)
{
    (void)unused;
    stpete_game *g = make_game(3, 4);
    stpete_state *st = make_state(g);
    uint64_t rng = 4;
    for (int i = 0; i < 60; i++)
        stpete_state_apply(st, random_action(st, &rng));
    size_t len;
    char *text = to_json(st, &len);
    for (size_t cut = 0; cut < len; cut++) {
        stpete_state *out = NULL;
        stpete_game *gout = NULL;
        stpete_error err = STPETE_ERROR_INIT;
        assert_int_equal(stpete_state_from_json(g, text, cut, &out, &err), STPETE_E_PARSE);
        assert_null(out);
        assert_true(err.line >= 1 && err.column >= 0 && err.position >= 0);
        assert_true(strlen(err.message) > 0);
        assert_int_equal(stpete_game_from_json(text, cut, NULL, &gout, NULL), STPETE_E_PARSE);
        assert_null(gout);
    }
    /* a syntax error on line 3 is reported on line 3 */
    const char *bad = "{\n  \"format\": \"stpete-state\",\n  \"format_version\": 1,,\n}";
    stpete_state *out = NULL;
    stpete_error err = STPETE_ERROR_INIT;
    assert_int_equal(stpete_state_from_json(g, bad, strlen(bad), &out, &err), STPETE_E_PARSE);
    assert_int_equal(err.line, 3);
    assert_true(err.column > 1);
    /* trailing garbage, duplicate keys, a NUL inside, not an object */
    const char *others[] = { "{} x", "{\"format\":\"stpete-state\",\"format\":\"stpete-state\"}", "[1,2]", "\"text\"",
                             "" };
    for (size_t i = 0; i < sizeof others / sizeof *others; i++)
        assert_int_equal(stpete_state_from_json(g, others[i], strlen(others[i]), &out, &err), STPETE_E_PARSE);
    char with_nul[] = "{\"format\":\"stpete\0state\"}";
    assert_int_equal(stpete_state_from_json(g, with_nul, sizeof with_nul - 1, &out, &err), STPETE_E_PARSE);
    free(text);
    stpete_state_free(st);
    stpete_game_free(g);
}

/* A mutation of a valid document, by a path of keys / indexes (ints as strings starting with '#'). */
typedef struct mutation {
    const char *what;
    int expect;
    void (*apply)(json_t *doc);
} mutation;

static json_t *at(json_t *doc, const char *path)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", path);
    json_t *cur = doc;
    for (char *tok = strtok(buf, "/"); tok && cur; tok = strtok(NULL, "/"))
        cur = tok[0] == '#' ? json_array_get(cur, (size_t)atoi(tok + 1)) : json_object_get(cur, tok);
    assert_non_null(cur);
    return cur;
}

static void m_version(json_t *d) { json_object_set_new(d, "format_version", json_integer(STPETE_FORMAT_VERSION_NEW_SOCIETY + 1)); }
static void m_version_text(json_t *d) { json_object_set_new(d, "format_version", json_string("1")); }
static void m_format(json_t *d) { json_object_set_new(d, "format", json_string("chess")); }
static void m_unknown_key(json_t *d) { json_object_set_new(d, "cheat", json_true()); }
static void m_missing_key(json_t *d) { json_object_del(d, "round"); }
static void m_negative_rubles(json_t *d) { json_object_set_new(at(d, "players/#0"), "rubles", json_integer(-1)); }
static void m_rubles_text(json_t *d) { json_object_set_new(at(d, "players/#0"), "rubles", json_string("25")); }
static void m_huge_vp(json_t *d) { json_object_set_new(at(d, "players/#1"), "vp", json_integer(1LL << 40)); }
static void m_extra_card(json_t *d) { json_array_append_new(at(d, "lower_row"), json_string("Lumberjack")); }
static void m_missing_card(json_t *d) { json_array_remove(at(d, "upper_row"), 0); }
static void m_card_twice(json_t *d) /* the top worker also in a display: a card in two places */
{
    json_t *stack = at(d, "stacks/worker");
    json_array_append(at(d, "players/#0/display"), json_array_get(stack, json_array_size(stack) - 1));
}
static void m_wrong_stack(json_t *d) /* a worker moved into the building stack (sizes kept consistent) */
{
    json_t *w = at(d, "stacks/worker"), *b = at(d, "stacks/building");
    json_array_append(b, json_array_get(w, 0));
    json_array_remove(w, 0);
    json_object_set_new(at(d, "stack_sizes"), "worker", json_integer((json_int_t)json_array_size(w)));
    json_object_set_new(at(d, "stack_sizes"), "building", json_integer((json_int_t)json_array_size(b)));
}
static void m_stack_size(json_t *d) { json_object_set_new(at(d, "stack_sizes"), "trading", json_integer(3)); }
static void m_unknown_card(json_t *d) { json_array_set_new(at(d, "upper_row"), 0, json_string("Lumberjill")); }
static void m_current(json_t *d) { json_object_set_new(d, "current_player", json_integer(7)); }
static void m_phase(json_t *d) { json_object_set_new(d, "phase", json_string("lunch")); }
static void m_rng_even(json_t *d) { json_object_set_new(at(d, "rng"), "inc", json_string("0000000000000002")); }
/* 16 hex digits exactly, as written and as doc/format.md and the schema say (issue 31 item 9: 1.0 took 1 to 16) */
static void m_rng_short(json_t *d) { json_object_set_new(at(d, "rng"), "inc", json_string("5")); }
static void m_hash_short(json_t *d)
{
    const char *h = json_string_value(json_object_get(d, "public_hash"));
    char shorter[16];
    memcpy(shorter, h + 1, 15);
    shorter[15] = '\0';
    json_object_set_new(d, "public_hash", json_string(shorter));
}
static void m_rng_long(json_t *d) { json_object_set_new(at(d, "rng"), "inc", json_string("00000000000000005")); }
static void m_rng_text(json_t *d) { json_object_set_new(at(d, "rng"), "state", json_string("xyz")); }
static void m_markers(json_t *d) /* seat 0 holds 3 markers (§3) */
{
    json_t *m = at(d, "start_player_markers");
    for (int k = 0; k < 3; k++)
        json_array_set_new(m, (size_t)k, json_integer(0));
}
static void m_observatory(json_t *d) { json_object_set_new(d, "decision", json_string("observatory")); }
static void m_pub(json_t *d) { json_object_set_new(d, "decision", json_string("pub")); }
static void m_hand_size(json_t *d) { json_object_set_new(at(d, "players/#1"), "hand_size", json_integer(2)); }
static void m_players(json_t *d) { json_object_set_new(at(d, "options"), "players", json_integer(2)); }
static void m_seat_count(json_t *d) { json_array_remove(at(d, "players"), 2); }
static void m_view(json_t *d) { json_object_set_new(d, "view", json_string("seat")); }
static void m_nested(json_t *d) { json_object_set_new(d, "round", json_pack("[[[[]]]]")); }
static void m_seed(json_t *d) { json_object_set_new(at(d, "options"), "seed", json_string("7")); }
static void m_marker_text(json_t *d) { json_array_set_new(at(d, "start_player_markers"), 0, json_string("0")); }
static void m_back_number(json_t *d) { json_object_set_new(at(d, "players/#0"), "hand_backs", json_integer(1)); }
static void m_pub_next(json_t *d) { json_object_set_new(d, "pub_next", json_integer(1)); }
static void m_empty_stack(json_t *d) /* the aristocrat stack moved to the discard pile, final_round still false */
{
    json_t *a = at(d, "stacks/aristocrat"), *discard = at(d, "discard");
    for (size_t i = 0; i < json_array_size(a); i++)
        json_array_append(discard, json_array_get(a, i));
    json_array_clear(a);
    json_object_set_new(at(d, "stack_sizes"), "aristocrat", json_integer(0));
}

static void m_game_over_round_1(json_t *d) /* issue 10: "game-over" in round 1 with every stack full */
{
    json_object_set_new(d, "decision", json_string("game-over"));
}
static void m_game_over_not_final(json_t *d) /* a finished game whose final round never began (no stack empty) */
{
    json_object_set_new(d, "decision", json_string("game-over"));
    json_object_set_new(d, "phase", json_string("trading"));
    json_object_set_new(d, "final_round", json_true());
}
static void m_final_round_no_empty_stack(json_t *d) { json_object_set_new(d, "final_round", json_true()); }

static void test_rule_inconsistent_documents(void **unused)
{
    (void)unused;
    static const mutation mutations[] = {
        { "a newer format_version", STPETE_E_UNSUPPORTED_VERSION, m_version },
        { "format_version as text", STPETE_E_PARSE, m_version_text },
        { "another format", STPETE_E_PARSE, m_format },
        { "an unknown key", STPETE_E_PARSE, m_unknown_key },
        { "a missing key", STPETE_E_PARSE, m_missing_key },
        { "negative rubles", STPETE_E_INCONSISTENT, m_negative_rubles },
        { "rubles as text", STPETE_E_PARSE, m_rubles_text },
        { "VP out of range", STPETE_E_INCONSISTENT, m_huge_vp },
        { "117 cards", STPETE_E_INCONSISTENT, m_extra_card },
        { "115 cards", STPETE_E_INCONSISTENT, m_missing_card },
        { "a card in two places", STPETE_E_INCONSISTENT, m_card_twice },
        { "a worker in the building stack", STPETE_E_INCONSISTENT, m_wrong_stack },
        { "a wrong stack size", STPETE_E_INCONSISTENT, m_stack_size },
        { "an unknown card", STPETE_E_PARSE, m_unknown_card },
        { "a seat out of range", STPETE_E_INCONSISTENT, m_current },
        { "an unknown phase", STPETE_E_PARSE, m_phase },
        { "an even PCG increment", STPETE_E_INCONSISTENT, m_rng_even },
        { "a non-hex PRNG state", STPETE_E_PARSE, m_rng_text },
        { "a PRNG increment of 1 hex digit", STPETE_E_PARSE, m_rng_short },
        { "a PRNG increment of 17 hex digits", STPETE_E_PARSE, m_rng_long },
        { "a public_hash of 15 hex digits", STPETE_E_PARSE, m_hash_short },
        { "three markers on one seat", STPETE_E_INCONSISTENT, m_markers },
        { "an Observatory decision without a card", STPETE_E_INCONSISTENT, m_observatory },
        { "a Pub decision outside the building phase", STPETE_E_INCONSISTENT, m_pub },
        { "a hand size that does not match", STPETE_E_INCONSISTENT, m_hand_size },
        { "options of another game", STPETE_E_MISMATCH, m_players },
        { "a seat missing", STPETE_E_PARSE, m_seat_count },
        { "a view", STPETE_E_REDACTED, m_view },
        { "nested arrays instead of a number", STPETE_E_PARSE, m_nested },
        { "a seed in a state (it would reveal the stacks, §9)", STPETE_E_PARSE, m_seed },
        { "a marker as text", STPETE_E_PARSE, m_marker_text },
        { "hand backs as a number", STPETE_E_PARSE, m_back_number },
        { "a Pub step in progress outside a Pub decision", STPETE_E_INCONSISTENT, m_pub_next },
        { "an empty stack outside the final round (§4.6)", STPETE_E_INCONSISTENT, m_empty_stack },
        { "a finished game in round 1 with every stack full (§4.6, §8)", STPETE_E_INCONSISTENT, m_game_over_round_1 },
        { "a finished game whose final round never began (§4.6)", STPETE_E_INCONSISTENT, m_game_over_not_final },
        { "a final round with no empty stack (§4.6, R4)", STPETE_E_INCONSISTENT, m_final_round_no_empty_stack },
    };
    stpete_game *g = make_game(3, 8);
    stpete_state *st = make_state(g); /* worker phase of round 1: not a Pub or Observatory decision */
    char *text = to_json(st, NULL);
    for (size_t i = 0; i < sizeof mutations / sizeof *mutations; i++) {
        json_t *doc = parse(text);
        mutations[i].apply(doc);
        stpete_error err = STPETE_ERROR_INIT;
        int rc = load_mutated(doc, g, &err);
        if (rc != mutations[i].expect)
            fail_msg("%s: expected %s, got %s (%s)", mutations[i].what, stpete_strerror(mutations[i].expect),
                     stpete_strerror(rc), rc ? err.message : "");
        assert_int_equal(err.line, -1); /* not a syntax error */
        assert_true(strlen(err.message) > 0 && strlen(err.message) < sizeof err.message);
    }
    free(text);
    stpete_state_free(st);
    stpete_game_free(g);
}

/* ---- accepted means loadable forever (issue 10) --------------------------------------------------- */

/* Set every player's rubles and VP of a document to the given values. */
static void set_money(json_t *doc, int players, json_int_t rubles, json_int_t vp)
{
    for (int i = 0; i < players; i++) {
        json_t *pj = json_array_get(json_object_get(doc, "players"), (size_t)i);
        json_object_set_new(pj, "rubles", json_integer(rubles));
        json_object_set_new(pj, "vp", json_integer(i % 2 ? -vp : vp));
    }
}

/* From states at each bound the reader accepts (rubles STPETE_RUBLES_MAX, VP ±STPETE_VP_MAX, and 10 below), play
 * on to the end: every position on the way is written, read back and written again to the same bytes; rubles and
 * VP stay within the bounds (they saturate). Before issue 10 a state with 99,990 VP wrote a position it could not
 * read 102 moves later. */
static void test_states_at_the_bounds_stay_loadable(void **unused)
{
    (void)unused;
    static const json_int_t money[][2] = { { STPETE_RUBLES_MAX, STPETE_VP_MAX },
                                           { STPETE_RUBLES_MAX - 10, STPETE_VP_MAX - 10 },
                                           { 0, -STPETE_VP_MAX } };
    int positions = 0;
    for (int players = 2; players <= 4; players++)
        for (size_t b = 0; b < sizeof money / sizeof *money; b++) {
            stpete_game *g = make_game(players, 40 + b);
            stpete_state *st = make_state(g);
            uint64_t rng = 99 + b + (uint64_t)players;
            for (int m = 0; m < 30; m++) /* a position with some cards in play */
                assert_int_equal(stpete_state_apply(st, random_action(st, &rng)), STPETE_OK);
            char *text = to_json(st, NULL);
            json_t *doc = parse(text);
            free(text);
            set_money(doc, players, money[b][0], money[b][1]);
            char *edited = json_dumps(doc, JSON_COMPACT);
            json_decref(doc);
            stpete_state *cur = NULL;
            stpete_error err = STPETE_ERROR_INIT;
            assert_int_equal(stpete_state_from_json(g, edited, strlen(edited), &cur, &err), STPETE_OK);
            free(edited);
            while (!tg_is_terminal(cur)) {
                assert_int_equal(stpete_state_apply(cur, random_action(cur, &rng)), STPETE_OK);
                size_t len = 0;
                char *again = to_json(cur, &len);
                stpete_state *back = NULL;
                int rc = stpete_state_from_json(g, again, len, &back, &err);
                if (rc != STPETE_OK)
                    fail_msg("a position reached by play does not load: %s", err.message);
                char *third = to_json(back, NULL);
                assert_string_equal(again, third);
                assert_int_equal(tg_equal(back, cur), 1);
                for (int i = 0; i < players; i++) {
                    int vp = 0;
                    assert_int_equal(stpete_state_vp(cur, i, &vp), STPETE_OK);
                    assert_in_range(stpete_state_rubles(cur, i), 0, STPETE_RUBLES_MAX);
                    assert_true(vp >= -STPETE_VP_MAX && vp <= STPETE_VP_MAX);
                }
                free(again);
                free(third);
                stpete_state_free(back);
                positions++;
            }
            stpete_state_free(cur);
            stpete_state_free(st);
            stpete_game_free(g);
        }
    print_message("# %d positions from states at the bounds written and read back\n", positions);
}

/* Oversized input is refused before it is parsed (STPETE_E_TOO_LARGE), with a message; so is a replay record
 * with more actions than the longest possible game (issue 10). */
static void test_oversized_documents(void **unused)
{
    (void)unused;
    stpete_game *g = make_game(2, 1);
    stpete_error err = STPETE_ERROR_INIT;
    size_t big = STPETE_JSON_REPLAY_MAX + 1;
    char *text = malloc(big);
    assert_non_null(text);
    memset(text, ' ', big); /* valid JSON whitespace: only the size is wrong */
    text[0] = '[';
    text[big - 1] = ']';
    stpete_state *st = (stpete_state *)&st;
    assert_int_equal(stpete_state_from_json(g, text, STPETE_JSON_STATE_MAX + 1, &st, &err), STPETE_E_TOO_LARGE);
    assert_null(st);
    assert_non_null(strstr(err.message, "bytes"));
    stpete_game *out = (stpete_game *)&out;
    assert_int_equal(stpete_game_from_json(text, big, NULL, &out, &err), STPETE_E_TOO_LARGE);
    assert_null(out);
    size_t n = 0;
    assert_int_equal(stpete_replay_from_json(text, big, NULL, &out, NULL, 0, &n, &err), STPETE_E_TOO_LARGE);
    assert_null(out);
    free(text);

    /* a record one action longer than the bound: refused before any action is replayed */
    int max = stpete_game_max_length(g);
    assert_int_equal(max, 1004);
    json_t *doc = json_pack("{s:s, s:i, s:{s:i, s:s, s:s, s:s, s:n, s:b, s:b}, s:[], s:n}", "format", "stpete-replay",
                            "format_version", 1, "options", "players", 2, "seed", "1", "pub_cap", "per-pub",
                            "tie_break", "rubles-mod-10", "start_markers", "public_rubles", 0, "public_hands", 0,
                            "actions", "result");
    json_t *actions = json_object_get(doc, "actions");
    for (int i = 0; i <= max; i++)
        json_array_append_new(actions, json_pack("{s:i}", "id", 0));
    char *record = json_dumps(doc, JSON_COMPACT);
    json_decref(doc);
    assert_true(strlen(record) < STPETE_JSON_REPLAY_MAX);
    n = 0;
    assert_int_equal(stpete_replay_from_json(record, strlen(record), NULL, &out, NULL, 0, &n, &err),
                     STPETE_E_TOO_LARGE);
    assert_null(out);
    assert_non_null(strstr(err.message, "longest possible game"));
    free(record);
    stpete_game_free(g);
}

/* ---- replay records ------------------------------------------------------------------------------ */

static char *replay_text(const stpete_game *g, uint64_t seed, const int *ids, size_t n)
{
    size_t len = 0;
    assert_int_equal(stpete_replay_to_json(g, seed, ids, n, NULL, 0, &len), STPETE_E_BUFFER_TOO_SMALL);
    char *buf = malloc(len + 1);
    assert_int_equal(stpete_replay_to_json(g, seed, ids, n, buf, len + 1, &len), STPETE_OK);
    return buf;
}

/* Record a random game (from a reset seed), read it back: same actions, and replaying them reaches the same end.
 * In explicit-chance mode the record holds the chance outcomes too (issue 12). */
static void test_replay_round_trip(void **unused)
{
    (void)unused;
    for (int explicit_chance = 0; explicit_chance < 2; explicit_chance++)
        for (int players = 2; players <= 4; players++)
            for (int partial = 0; partial < 2; partial++) {
                stpete_options o;
                stpete_options_init(&o);
                o.players = players;
                o.seed = 1234; /* the replay's seed is the reset seed, not this one */
                o.chance_mode = explicit_chance ? STPETE_CHANCE_EXPLICIT : STPETE_CHANCE_SAMPLED;
                stpete_game *g = NULL;
                assert_int_equal(stpete_game_new(&o, &g, NULL), STPETE_OK);
                stpete_state *st = make_state(g);
                uint64_t seed = 77u + (uint64_t)players, rng = seed;
                assert_int_equal(stpete_state_reset(st, seed), STPETE_OK);
                int ids[4000];
                size_t n = 0;
                while (!tg_is_terminal(st) && (!partial || n < 50)) {
                    ids[n] = random_action(st, &rng);
                    assert_int_equal(stpete_state_apply(st, ids[n]), STPETE_OK);
                    n++;
                }
                char *text = replay_text(g, seed, ids, n);
                json_t *doc = parse(text);
                assert_int_equal(json_is_true(at(doc, "result/game_over")), !partial);
                assert_int_equal(json_array_size(at(doc, "actions")), n);
                json_decref(doc);
                size_t count = 0;
                stpete_game *g2 = (stpete_game *)text;
                assert_int_equal(stpete_replay_from_json(text, strlen(text), NULL, &g2, NULL, 0, &count, NULL),
                                 STPETE_E_BUFFER_TOO_SMALL);
                assert_null(g2);
                assert_int_equal(count, n);
                int *back = malloc(n * sizeof *back + 1);
                assert_int_equal(stpete_replay_from_json(text, strlen(text), NULL, &g2, back, n, &count, NULL),
                                 STPETE_OK);
                assert_memory_equal(back, ids, n * sizeof *ids);
                stpete_state *again = make_state(g2); /* the replay's game starts from the recorded seed */
                for (size_t i = 0; i < n; i++)
                    assert_int_equal(stpete_state_apply(again, back[i]), STPETE_OK);
                assert_int_equal(tg_equal(again, st), 1);
                free(back);
                free(text);
                stpete_state_free(again);
                stpete_state_free(st);
                stpete_game_free(g2);
                stpete_game_free(g);
            }
}

/* A record (text, of the actions ids) whose string names another action, whose result the actions do not reach,
 * or without an action's id is refused; the action's string is optional and a null result is not checked. */
static void check_replay_edits(const char *text, const int *ids)
{
    int out[64];
    size_t n;
    stpete_error err = STPETE_ERROR_INIT;
    stpete_game *g2 = NULL;
    json_t *doc;
    char *t2;
    /* a string naming another action, at the first action that is not a pass */
    int k = 0;
    while (ids[k] == 0)
        k++;
    char path[32], expect[32];
    snprintf(path, sizeof path, "actions/#%d", k);
    snprintf(expect, sizeof expect, "actions[%d]", k);
    doc = parse(text);
    json_object_set_new(at(doc, path), "action", json_string("pass"));
    t2 = json_dumps(doc, 0);
    for (int i = 0; i < 64; i++)
        out[i] = -7;
    assert_int_equal(stpete_replay_from_json(t2, strlen(t2), NULL, &g2, out, 64, &n, &err), STPETE_E_INCONSISTENT);
    assert_non_null(strstr(err.message, expect));
    for (int i = 0; i < 64; i++) /* a failure writes nothing */
        assert_int_equal(out[i], -7);
    free(t2);
    json_decref(doc);
    /* a result that the actions do not reach */
    doc = parse(text);
    json_array_set_new(at(doc, "result/vp"), 0, json_integer(99));
    t2 = json_dumps(doc, 0);
    assert_int_equal(stpete_replay_from_json(t2, strlen(t2), NULL, &g2, out, 64, &n, &err), STPETE_E_INCONSISTENT);
    assert_non_null(strstr(err.message, "result"));
    free(t2);
    json_decref(doc);
    /* the id is required, the string optional; a null result is not checked */
    doc = parse(text);
    json_object_del(at(doc, "actions/#0"), "action");
    json_object_set_new(doc, "result", json_null());
    t2 = json_dumps(doc, 0);
    assert_int_equal(stpete_replay_from_json(t2, strlen(t2), NULL, &g2, out, 64, &n, &err), STPETE_OK);
    stpete_game_free(g2);
    free(t2);
    json_decref(doc);
    doc = parse(text);
    json_object_del(at(doc, "actions/#0"), "id");
    t2 = json_dumps(doc, 0);
    assert_int_equal(stpete_replay_from_json(t2, strlen(t2), NULL, &g2, out, 64, &n, &err), STPETE_E_PARSE);
    free(t2);
    json_decref(doc);
}

static void test_replay_rejects_bad_records(void **unused)
{
    (void)unused;
    stpete_game *g = make_game(2, 5);
    stpete_state *st = make_state(g);
    uint64_t rng = 5;
    int ids[64];
    for (int i = 0; i < 40; i++) {
        ids[i] = random_action(st, &rng);
        stpete_state_apply(st, ids[i]);
    }
    /* writing refuses an illegal sequence */
    int bad[2] = { ids[0], 960 /* observatory discard: no Observatory draw pending */ };
    size_t len;
    assert_int_equal(stpete_replay_to_json(g, 5, bad, 2, NULL, 0, &len), STPETE_E_ILLEGAL_ACTION);
    char *text = replay_text(g, 5, ids, 40);
    int out[64];
    size_t n;
    stpete_error err = STPETE_ERROR_INIT;
    stpete_game *g2 = NULL;
    /* an illegal action at index 7 */
    json_t *doc = parse(text);
    json_object_set_new(at(doc, "actions/#7"), "id", json_integer(960));
    json_object_del(at(doc, "actions/#7"), "action");
    char *t2 = json_dumps(doc, 0);
    assert_int_equal(stpete_replay_from_json(t2, strlen(t2), NULL, &g2, out, 64, &n, &err), STPETE_E_INCONSISTENT);
    assert_null(g2);
    assert_non_null(strstr(err.message, "actions[7]"));
    free(t2);
    json_decref(doc);
    check_replay_edits(text, ids);
    /* a truncated record */
    for (size_t cut = 0; cut < strlen(text); cut += 7) {
        assert_int_equal(stpete_replay_from_json(text, cut, NULL, &g2, out, 64, &n, &err), STPETE_E_PARSE);
        assert_null(g2);
    }
    free(text);
    stpete_state_free(st);
    stpete_game_free(g);
}

/* ---- events -------------------------------------------------------------------------------------- */

typedef struct tally {
    int vp[STPETE_MAX_PLAYERS];      /* VP from scoring and Pub events */
    int rubles[STPETE_MAX_PLAYERS];  /* rubles from scoring, minus prices and Pub payments */
    int final_vp[STPETE_MAX_PLAYERS];
    int game_over;
    unsigned winners;
} tally;

static void count_event(tally *t, const stpete_event *ev)
{
    switch (ev->kind) {
    case STPETE_EVENT_SCORING:
        t->vp[ev->seat] += ev->vp;
        t->rubles[ev->seat] += ev->rubles;
        break;
    case STPETE_EVENT_PUB:
        t->vp[ev->seat] += ev->vp;
        t->rubles[ev->seat] -= ev->rubles;
        break;
    case STPETE_EVENT_BUY:
    case STPETE_EVENT_PLAY:
        t->rubles[ev->seat] -= ev->price;
        break;
    case STPETE_EVENT_FINAL_SCORING:
        t->final_vp[ev->seat] = ev->vp;
        break;
    case STPETE_EVENT_GAME_OVER:
        t->game_over++;
        t->winners = (unsigned)ev->amount;
        break;
    default:
        break;
    }
}

typedef struct recorder {
    stpete_event events[512];
    int n;
} recorder;

static void record_event(const stpete_state *st, const stpete_event *ev, void *user)
{
    (void)st;
    recorder *r = user;
    if (r->n < 512)
        r->events[r->n++] = *ev;
}

/* Two events are the same event: every member (not memcmp: the struct may have padding after its last int). */
static int same_event(const stpete_event *a, const stpete_event *b)
{
    return a->struct_size == b->struct_size && a->kind == b->kind && a->seat == b->seat && a->card == b->card &&
           a->displaced == b->displaced && a->source == b->source && a->stack == b->stack && a->price == b->price &&
           a->rubles == b->rubles && a->vp == b->vp && a->amount == b->amount && a->phase == b->phase &&
           a->round == b->round && a->edition == b->edition;
}

/* Summing the events of a game reproduces its final scores (issue 3 item 5): VP from scorings and Pubs plus the
 * §8 final-scoring bonus give the final VP; 25 R plus scoring income minus prices and Pub payments give the
 * rubles left (R15, §4.4, §5, §7.2, §8). The queue delivers exactly what the callback sees. */
static void test_event_queue_reproduces_scores(void **unused)
{
    (void)unused;
    for (int players = 2; players <= 4; players++)
        for (int k = 0; k < 30; k++) {
            stpete_game *g = make_game(players, (uint64_t)(k * 3 + players));
            stpete_state *st = make_state(g);
            assert_int_equal(stpete_state_pending_events(st), 0);
            assert_int_equal(stpete_state_set_event_queue(st, 1), STPETE_OK);
            recorder rec = { .n = 0 };
            assert_int_equal(stpete_state_set_event_callback(st, record_event, &rec), STPETE_OK);
            assert_int_equal(stpete_state_reset(st, (uint64_t)k), STPETE_OK); /* the deal of §3 is reported too */
            tally t;
            memset(&t, 0, sizeof t);
            uint64_t rng = (uint64_t)k;
            int deals = 0;
            for (;;) {
                stpete_event ev = STPETE_EVENT_INIT;
                int got = 0;
                assert_int_equal(stpete_state_pending_events(st), rec.n);
                while (stpete_state_next_event(st, &ev) == 1) {
                    assert_true(got < rec.n);
                    assert_true(same_event(&ev, &rec.events[got])); /* queue == callback */
                    count_event(&t, &ev);
                    deals += ev.kind == STPETE_EVENT_DEAL;
                    got++;
                }
                assert_int_equal(got, rec.n);
                rec.n = 0;
                if (tg_is_terminal(st))
                    break;
                assert_int_equal(stpete_state_apply(st, random_action(st, &rng)), STPETE_OK);
            }
            assert_true(deals >= 2 * players);
            assert_int_equal(t.game_over, 1);
            unsigned winners;
            stpete_state_winners(st, &winners);
            assert_int_equal(t.winners, winners);
            for (int s = 0; s < players; s++) {
                stpete_score sc = STPETE_SCORE_INIT;
                assert_int_equal(stpete_state_get_score(st, s, &sc), STPETE_OK);
                int vp;
                stpete_state_vp(st, s, &vp);
                assert_int_equal(t.vp[s], sc.vp_before);
                assert_int_equal(t.vp[s] + sc.aristocrat_bonus + sc.rubles_bonus + sc.hand_penalty, vp);
                assert_int_equal(t.final_vp[s], vp);
                assert_int_equal(25 + t.rubles[s], stpete_state_rubles(st, s));
            }
            stpete_state_free(st);
            stpete_game_free(g);
        }
}

static void test_event_queue_switching(void **unused)
{
    (void)unused;
    stpete_game *g = make_game(4, 3);
    stpete_state *st = make_state(g);
    stpete_event ev = STPETE_EVENT_INIT;
    assert_int_equal(stpete_state_next_event(st, &ev), 0); /* off: empty */
    assert_int_equal(stpete_state_next_event(NULL, &ev), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_state_next_event(st, NULL), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_state_pending_events(NULL), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_state_set_event_queue(NULL, 1), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_state_set_event_queue(st, 2), STPETE_E_INVALID_ARGUMENT);
    assert_int_equal(stpete_state_set_event_queue(st, 1), STPETE_OK);
    assert_int_equal(stpete_state_pending_events(st), 0); /* on, nothing reported yet: empty */
    assert_int_equal(stpete_state_next_event(st, &ev), 0);
    assert_int_equal(stpete_state_apply(st, 0), STPETE_OK); /* a pass */
    assert_int_equal(stpete_state_pending_events(st), 1);
    assert_int_equal(stpete_state_next_event(st, &ev), 1);
    assert_int_equal(ev.kind, STPETE_EVENT_PASS);
    assert_int_equal(ev.amount, 1);
    /* many actions without draining: the queue grows and keeps everything in order */
    uint64_t rng = 3;
    int applied = 0;
    while (!tg_is_terminal(st)) {
        assert_int_equal(stpete_state_apply(st, random_action(st, &rng)), STPETE_OK);
        applied++;
    }
    int pending = stpete_state_pending_events(st), last = -1, n = 0;
    assert_true(pending > applied);
    while (stpete_state_next_event(st, &ev) == 1)
        last = ev.kind, n++;
    assert_int_equal(n, pending);
    assert_int_equal(last, STPETE_EVENT_GAME_OVER);
    /* clones do not inherit the queue; turning it off drops pending events */
    assert_int_equal(stpete_state_reset(st, 9), STPETE_OK);
    assert_true(stpete_state_pending_events(st) > 0);
    stpete_state *c = NULL;
    assert_int_equal(stpete_state_clone(st, &c, NULL), STPETE_OK);
    assert_int_equal(stpete_state_pending_events(c), 0);
    assert_int_equal(stpete_state_set_event_queue(st, 0), STPETE_OK);
    assert_int_equal(stpete_state_pending_events(st), 0);
    assert_int_equal(stpete_state_next_event(st, &ev), 0);
    /* on again: only what happens from now on */
    assert_int_equal(stpete_state_set_event_queue(st, 1), STPETE_OK);
    assert_int_equal(stpete_state_pending_events(st), 0);
    assert_int_equal(stpete_state_apply(st, random_action(st, &rng)), STPETE_OK);
    assert_true(stpete_state_pending_events(st) > 0);
    stpete_state_free(c);
    stpete_state_free(st);
    stpete_game_free(g);
}

/* Inside a callback, the queue is read-only too: next_event and set_event_queue return REENTRANT. */
typedef struct reentry {
    stpete_state *st;
    int calls, next_rc, set_rc, apply_rc;
} reentry;

static void try_reenter(const stpete_state *st, const stpete_event *ev, void *user)
{
    (void)st;
    (void)ev;
    reentry *r = user;
    stpete_event e = STPETE_EVENT_INIT;
    r->calls++;
    r->next_rc = stpete_state_next_event(r->st, &e);
    r->set_rc = stpete_state_set_event_queue(r->st, 0);
    r->apply_rc = stpete_state_apply(r->st, 0);
}

static void test_event_queue_reentrancy(void **unused)
{
    (void)unused;
    stpete_game *g = make_game(2, 3);
    stpete_state *st = make_state(g);
    reentry r = { st, 0, 0, 0, 0 };
    assert_int_equal(stpete_state_set_event_queue(st, 1), STPETE_OK);
    assert_int_equal(stpete_state_set_event_callback(st, try_reenter, &r), STPETE_OK);
    stpete_state *before = NULL;
    assert_int_equal(stpete_state_clone(st, &before, NULL), STPETE_OK);
    assert_int_equal(stpete_state_apply(st, 0), STPETE_OK);
    assert_int_equal(r.calls, 1);
    assert_int_equal(r.next_rc, STPETE_E_REENTRANT);
    assert_int_equal(r.set_rc, STPETE_E_REENTRANT);
    assert_int_equal(r.apply_rc, STPETE_E_REENTRANT);
    assert_int_equal(stpete_state_pending_events(st), 1); /* the queue kept its event */
    assert_int_equal(stpete_state_consecutive_passes(st), 1); /* only the outer pass happened */
    assert_int_equal(stpete_state_apply(before, 0), STPETE_OK);
    assert_int_equal(tg_equal(st, before), 1); /* exactly one pass: the refused calls changed nothing */
    stpete_state_free(before);
    stpete_state_free(st);
    stpete_game_free(g);
}

/* An allocator that fails from the n-th call on (counting malloc and realloc). */
typedef struct failing {
    int calls, fail_at, live;
} failing;

static void *f_malloc(void *user, size_t size)
{
    failing *f = user;
    if (++f->calls >= f->fail_at)
        return NULL;
    f->live++;
    return malloc(size);
}

static void *f_realloc(void *user, void *ptr, size_t size)
{
    failing *f = user;
    if (++f->calls >= f->fail_at)
        return NULL;
    if (!ptr)
        f->live++;
    return realloc(ptr, size);
}

static void f_free(void *user, void *ptr)
{
    failing *f = user;
    f->live--;
    free(ptr);
}

/* Growing the queue happens before the step: when it fails, apply returns OUT_OF_MEMORY and nothing changed. */
static void test_event_queue_out_of_memory(void **unused)
{
    (void)unused;
    failing f = { 0, 1 << 30, 0 };
    stpete_options o;
    stpete_options_init(&o);
    o.players = 2;
    o.allocator = (stpete_allocator){ f_malloc, f_realloc, f_free, &f };
    stpete_game *g = NULL;
    assert_int_equal(stpete_game_new(&o, &g, NULL), STPETE_OK);
    stpete_state *st = make_state(g), *before = NULL;
    assert_int_equal(stpete_state_clone(st, &before, NULL), STPETE_OK);
    assert_int_equal(stpete_state_set_event_queue(st, 1), STPETE_OK);
    f.fail_at = f.calls + 1; /* the next allocation fails */
    assert_int_equal(stpete_state_apply(st, 0), STPETE_E_OUT_OF_MEMORY);
    assert_int_equal(tg_equal(st, before), 1);
    assert_int_equal(stpete_state_pending_events(st), 0);
    assert_true(strlen(stpete_state_last_error(st)) > 0);
    assert_int_equal(stpete_state_reset(st, 1), STPETE_E_OUT_OF_MEMORY);
    assert_int_equal(tg_equal(st, before), 1);
    f.fail_at = 1 << 30;
    assert_int_equal(stpete_state_apply(st, 0), STPETE_OK);
    assert_int_equal(stpete_state_pending_events(st), 1);
    /* loading through a failing allocator: a clean OUT_OF_MEMORY, nothing built, nothing leaked */
    char *text = to_json(st, NULL);
    for (int n = 1; n <= 3; n++) {
        f.calls = 0;
        f.fail_at = n;
        stpete_game *g2 = NULL;
        stpete_state *s2 = NULL;
        int rc = stpete_game_from_json(text, strlen(text), &o.allocator, &g2, NULL);
        if (rc == STPETE_OK)
            rc = stpete_state_from_json(g2, text, strlen(text), &s2, NULL);
        if (n <= 2) {
            assert_int_equal(rc, STPETE_E_OUT_OF_MEMORY);
            assert_null(s2);
        } else {
            assert_int_equal(rc, STPETE_OK);
        }
        stpete_state_free(s2);
        stpete_game_free(g2);
    }
    free(text);
    stpete_state_free(before);
    stpete_state_free(st);
    stpete_game_free(g);
    assert_int_equal(f.live, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_every_node),
        cmocka_unit_test(test_loaded_state_plays_on_identically),
        cmocka_unit_test(test_game_from_json_options),
        cmocka_unit_test(test_views_hide_secrets),
        cmocka_unit_test(test_null_and_buffer_arguments),
        cmocka_unit_test(test_truncated_documents),
        cmocka_unit_test(test_rule_inconsistent_documents),
        cmocka_unit_test(test_states_at_the_bounds_stay_loadable),
        cmocka_unit_test(test_oversized_documents),
        cmocka_unit_test(test_replay_round_trip),
        cmocka_unit_test(test_replay_rejects_bad_records),
        cmocka_unit_test(test_event_queue_reproduces_scores),
        cmocka_unit_test(test_event_queue_switching),
        cmocka_unit_test(test_event_queue_reentrancy),
        cmocka_unit_test(test_event_queue_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
