/* Fuzz harness: the JSON readers (stpete_game_from_json, stpete_state_from_json, stpete_replay_from_json).
 * Any input: no crash, no leak, no undefined behaviour (run under ASan/UBSan). An accepted state must be
 * playable: serialize → parse → serialize gives the same bytes, its views serialize, and it plays on to the
 * end (or a move cap) with every listed action accepted. */
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
    if (stpete_state_from_json(&again, game, text_a, la, NULL) != STPETE_OK)
        fuzz_fail("a serialized state does not load");
    if (stpete_state_to_json(again, text_b, sizeof text_b, &lb) != STPETE_OK || la != lb ||
        memcmp(text_a, text_b, la) != 0 || stpete_state_equal(st, again) != 1)
        fuzz_fail("serialize -> parse -> serialize is not the identity");
    stpete_state_free(again);
    for (int seat = STPETE_VIEW_PUBLIC; seat < stpete_game_num_players(game); seat++)
        if (stpete_state_view_to_json(st, seat, text_b, sizeof text_b, &lb) != STPETE_OK)
            fuzz_fail("a view does not serialize");
    /* play on to the end: the first, then the last legal action alternately. Every accepted state must lead
     * to the end of the game (real games take 100 to 300 moves; 20,000 means it never ends), and every
     * position on the way must serialize and load again. */
    int move = 0;
    for (; move < 20000 && !stpete_state_is_terminal(st); move++) {
        int ids[STPETE_MAX_LEGAL_ACTIONS];
        size_t n = 0;
        if (stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS, &n) != STPETE_OK || n == 0)
            fuzz_fail("a loaded state that is not over has no legal action");
        if (stpete_state_apply(st, ids[move % 2 ? n - 1 : 0]) != STPETE_OK)
            fuzz_fail("a listed action was refused");
        if (move % 64 == 63) {
            if (stpete_state_to_json(st, text_a, sizeof text_a, &la) != STPETE_OK ||
                stpete_state_from_json(&again, game, text_a, la, NULL) != STPETE_OK)
                fuzz_fail("a position reached from a loaded state does not load");
            stpete_state_free(again);
            again = NULL;
        }
    }
    if (!stpete_state_is_terminal(st))
        fuzz_fail("a game from a loaded state does not end");
    if (stpete_state_to_json(st, text_a, sizeof text_a, &la) != STPETE_OK ||
        stpete_state_from_json(&again, game, text_a, la, NULL) != STPETE_OK)
        fuzz_fail("the end of a game from a loaded state does not load");
    stpete_state_free(again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *json = (const char *)data;
    stpete_json_error err;
    stpete_game *game = NULL;
    if (stpete_game_from_json(&game, json, size, NULL, &err) == STPETE_OK) {
        stpete_state *st = NULL;
        if (stpete_state_from_json(&st, game, json, size, &err) == STPETE_OK)
            check_loaded(game, st);
        else if (st)
            fuzz_fail("a refused state was built");
        stpete_state_free(st);
        stpete_game_free(game);
    } else if (game) {
        fuzz_fail("a refused game was built");
    }
    size_t n = 0;
    int actions[512];
    game = NULL;
    int rc = stpete_replay_from_json(&game, actions, 512, &n, json, size, NULL, &err);
    if (rc == STPETE_OK) {
        stpete_state *st = NULL;
        if (stpete_state_new(&st, game) != STPETE_OK)
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
