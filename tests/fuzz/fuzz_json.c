/* Fuzz harness: the JSON readers (stpete_game_from_json, stpete_state_from_json, stpete_replay_from_json).
 * Any input: no crash, no leak, no undefined behaviour (run under ASan/UBSan). An accepted state must be
 * playable: serialize → parse → serialize gives the same bytes, its views serialize, its determinizations for
 * every seat load and play on, and it plays on to the end with every listed action accepted and every position
 * on the way loading again (issue 10: accepted means loadable forever).
 *
 * Two kinds of input:
 * - any bytes: read as a game, a full state and a replay record;
 * - bytes starting with 'V' (value mode): a valid state is made (players, seed and a number of random moves from
 *   the next bytes; byte 1 from 128: a New Society game of 2-5 players, §12) and then edited value by value, 3
 *   bytes an edit: which field (rubles, VP, round, passes, markers, stack sizes, phase, decision, the New
 *   Society's decisions too, ...) and which value (near the readers' bounds, or any 16-bit one).
 *   Byte mutations rarely keep a document valid enough to reach the rules checks; value edits do. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stpete/stpete.h>

#include "fuzz.h"

static char text_a[1 << 16], text_b[1 << 16];

static void check_loaded(const stpete_game *game, stpete_state *st)
{
    size_t la = 0, lb = 0;
    if (stpete_state_to_json(st, text_a, sizeof text_a, &la) != STPETE_OK)
        fuzz_fail("an accepted state does not serialize");
    stpete_state *again = NULL;
    if (stpete_state_from_json(game, text_a, la, &again, NULL) != STPETE_OK)
        fuzz_fail("a serialized state does not load");
    if (stpete_state_to_json(again, text_b, sizeof text_b, &lb) != STPETE_OK || la != lb ||
        memcmp(text_a, text_b, la) != 0 || tg_equal(st, again) != 1)
        fuzz_fail("serialize -> parse -> serialize is not the identity");
    stpete_state_free(again);
    for (int seat = STPETE_VIEW_PUBLIC; seat < stpete_game_num_players(game); seat++)
        if (stpete_state_view_to_json(st, seat, text_b, sizeof text_b, &lb) != STPETE_OK)
            fuzz_fail("a view does not serialize");
    /* determinizations for every seat load again and play on (issue 10) */
    for (int seat = 0; seat < stpete_game_num_players(game); seat++) {
        stpete_state *d = NULL;
        if (stpete_state_clone(st, &d, NULL) != STPETE_OK || stpete_state_determinize(d, seat, (uint64_t)seat * 7919, 0) != 0)
            fuzz_fail("a loaded state does not determinize");
        if (stpete_state_to_json(d, text_a, sizeof text_a, &la) != STPETE_OK ||
            stpete_state_from_json(game, text_a, la, &again, NULL) != STPETE_OK)
            fuzz_fail("a determinized loaded state does not load");
        stpete_state_free(again);
        again = NULL;
        stpete_state_free(d);
    }
    /* play on to the end: the first, then the last legal action alternately. Every accepted state must lead
     * to the end of the game (real games take 100 to 300 moves; 20,000 means it never ends), and every
     * position on the way must serialize and load again. */
    int move = 0;
    for (; move < 20000 && !tg_is_terminal(st); move++) {
        int ids[STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY];
        size_t n = 0;
        if (stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY, &n) != STPETE_OK || n == 0)
            fuzz_fail("a loaded state that is not over has no legal action");
        if (stpete_state_apply(st, ids[move % 2 ? n - 1 : 0]) != STPETE_OK)
            fuzz_fail("a listed action was refused");
        if (stpete_state_to_json(st, text_a, sizeof text_a, &la) != STPETE_OK ||
            stpete_state_from_json(game, text_a, la, &again, NULL) != STPETE_OK)
            fuzz_fail("a position reached from a loaded state does not load");
        stpete_state_free(again);
        again = NULL;
    }
    if (!tg_is_terminal(st))
        fuzz_fail("a game from a loaded state does not end");
}

/* ---- value mode ---------------------------------------------------------------------------------- */

/* Values near every bound the reader checks, and around them. */
static const long long interesting[] = { 0, 1, -1, 2, 3, 4, 5, 7, 8, 24, 25, 30, 31, 32, 254, 255, 256,
                                         99990, 99999, 100000, 100001, -99999, -100000, -100001, 2147483647,
                                         -2147483647 - 1 };
static const char *const words[] = { "worker", "building", "aristocrat", "trading", "turn", "observatory", "pub",
                                     "game-over", "Market", "Observatory", "Pub", "Warehouse", "Czar",
                                     "prison", "guild-hall", "trading-house" };

/* Apply one edit to a document: field selector f, value selector v. */
static void edit(json_t *doc, int players, unsigned f, unsigned v)
{
    long long value = v & 0x8000u ? interesting[v % (sizeof interesting / sizeof *interesting)]
                                  : (long long)(int16_t)(v << 1);
    json_t *pl = json_array_get(json_object_get(doc, "players"), f / 16 % (unsigned)players);
    static const char *const stacks[] = { "worker", "building", "aristocrat", "trading" };
    switch (f % 16) {
    case 0: json_object_set_new(pl, "rubles", json_integer(value)); break;
    case 1: json_object_set_new(pl, "vp", json_integer(value)); break;
    case 2: json_object_set_new(doc, "round", json_integer(value)); break;
    case 3: json_object_set_new(doc, "consecutive_passes", json_integer(value)); break;
    case 4: json_object_set_new(doc, "pub_next", json_integer(value)); break;
    case 5: json_object_set_new(doc, "current_player", json_integer(value)); break;
    case 6: json_array_set_new(json_object_get(doc, "start_player_markers"), v % 4, json_integer(value % 5)); break;
    case 7: json_object_set_new(json_object_get(doc, "stack_sizes"), stacks[v % 4], json_integer(value)); break;
    case 8: json_object_set_new(doc, "final_round", json_boolean(v & 1)); break;
    case 9: json_object_set_new(doc, "phase", json_string(words[v % 4])); break;
    case 10: /* a decision of the base game or of the New Society (§12.7.5-§12.7.7) */
        json_object_set_new(doc, "decision", json_string(v % 7 < 4 ? words[4 + v % 7] : words[13 + v % 7 - 4]));
        break;
    case 11: json_object_set_new(pl, "observatories_used", json_integer(value)); break;
    case 12: json_object_set_new(doc, "observatory_card",
                                 v & 1 ? json_null() : json_string(words[8 + v / 2 % 5])); break;
    case 13: /* move the top card of a stack to the discard pile (sizes kept consistent) */ {
        json_t *stack = json_object_get(json_object_get(doc, "stacks"), stacks[v % 4]);
        size_t n = json_array_size(stack);
        if (n) {
            json_array_append(json_object_get(doc, "discard"), json_array_get(stack, n - 1));
            json_array_remove(stack, n - 1);
            json_object_set_new(json_object_get(doc, "stack_sizes"), stacks[v % 4], json_integer((json_int_t)n - 1));
        }
        break;
    }
    case 14: json_object_set_new(pl, "hand_size", json_integer(value)); break;
    default: /* a whole player's money at a bound at once */
        json_object_set_new(pl, "rubles", json_integer(v & 1 ? 100000 : 0));
        json_object_set_new(pl, "vp", json_integer(v & 2 ? 100000 : -100000));
        break;
    }
}

static void value_mode(const uint8_t *data, size_t size)
{
    if (size < 5)
        return;
    stpete_options o;
    stpete_options_init(&o);
    o.players = 2 + data[1] % 3;
    if (data[1] >= 128) { /* a New Society game (§12) of 2-5 players, and its rulings */
        o.new_society = 1;
        o.players = 2 + data[1] % 4;
        o.markers_one_seat = data[1] / 4 % 2;
        o.used_prison_scores = data[1] / 8 % 2;
    }
    o.seed = (uint64_t)data[2] << 8 | data[3];
    stpete_game *game = NULL;
    stpete_state *st = NULL;
    if (stpete_game_new(&o, &game, NULL) != STPETE_OK || stpete_state_new(game, &st, NULL) != STPETE_OK)
        fuzz_fail("no game");
    for (int m = 0; m < data[4] * 2 && !tg_is_terminal(st); m++) {
        int ids[STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY];
        size_t n = 0;
        stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY, &n);
        stpete_state_apply(st, ids[(size_t)(m * 7 + data[4]) % n]);
    }
    size_t len = 0;
    if (stpete_state_to_json(st, text_a, sizeof text_a, &len) != STPETE_OK)
        fuzz_fail("a state does not serialize");
    stpete_state_free(st);
    st = NULL;
    json_t *doc = json_loadb(text_a, len, 0, NULL);
    if (!doc)
        fuzz_fail("the library's JSON does not parse");
    for (size_t i = 5; i + 2 < size; i += 3)
        edit(doc, o.players, data[i], (unsigned)data[i + 1] << 8 | data[i + 2]);
    char *edited = json_dumps(doc, JSON_COMPACT);
    json_decref(doc);
    if (edited) {
        if (stpete_state_from_json(game, edited, strlen(edited), &st, NULL) == STPETE_OK)
            check_loaded(game, st);
        else if (st)
            fuzz_fail("a refused state was built");
        stpete_state_free(st);
        free(edited);
    }
    stpete_game_free(game);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 0 && data[0] == 'V') {
        value_mode(data, size);
        return 0;
    }
    const char *json = (const char *)data;
    stpete_error err = STPETE_ERROR_INIT;
    stpete_game *game = NULL;
    if (stpete_game_from_json(json, size, NULL, &game, &err) == STPETE_OK) {
        stpete_state *st = NULL;
        if (stpete_state_from_json(game, json, size, &st, &err) == STPETE_OK)
            check_loaded(game, st);
        else if (st)
            fuzz_fail("a refused state was built");
        stpete_state_free(st);
        stpete_game_free(game);
    } else if (game) {
        fuzz_fail("a refused game was built");
    }
    size_t n = 0;
    static int actions[4096];
    game = NULL;
    int rc = stpete_replay_from_json(json, size, NULL, &game, actions, 4096, &n, &err);
    if (rc == STPETE_OK) {
        stpete_state *st = NULL;
        if (stpete_state_new(game, &st, NULL) != STPETE_OK)
            fuzz_fail("no state for a replay's game");
        for (size_t i = 0; i < n; i++)
            if (stpete_state_apply(st, actions[i]) != STPETE_OK)
                fuzz_fail("a verified replay action was refused");
        stpete_state_free(st);
        stpete_game_free(game);
    } else if (game) {
        fuzz_fail("a refused replay built a game");
    }
    return 0;
}
