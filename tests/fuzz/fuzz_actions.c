/* Fuzz harness: action sequences, in base games and New Society games (§12). The input chooses the rule options,
 * the seed and then, two bytes per step, either a legal action (by index into the legal list: chance outcomes too, at
 * a chance node of the explicit-chance mode) or a raw id that may be illegal or out of range.
 * Invariants: a refused action leaves the state byte-identical; an accepted one keeps every card in one place (the
 * 116 of the base game, §2; the 144 with the New Society, §12.2) and rubles >= 0; the state round-trips through JSON
 * and each seat's view and the public view serialize; at the end, the actions make a replay record that reads back
 * to the same game.
 *
 * Byte 0: below 128, a base game of 2 + b % 3 players, pub_cap b / 3 % 2, tie_break b / 6 % 2 (as before the New
 * Society came in); from 128 (c = b - 128), a New Society game of 2 + c % 4 players with markers_one_seat c / 4 % 2,
 * used_prison_scores c / 8 % 2, textile_without_new_society c / 16 % 2 and the explicit-chance mode if c / 32 % 2. */
#include <string.h>

#include <stpete/stpete.h>

#include "fuzz.h"

enum { MAX_STEPS = 700, CARDS_MAX = STPETE_NUM_CARDS_NEW_SOCIETY };

static int cards_placed(const stpete_state *st, int players, int card_types)
{
    int total = 0, cards[CARDS_MAX];
    size_t n = 0;
    for (int s = 0; s < 4; s++)
        total += stpete_state_stack_size(st, s);
    for (int r = 0; r < 2; r++) {
        stpete_state_row(st, r, cards, CARDS_MAX, &n);
        total += (int)n;
    }
    for (int t = 0; t < card_types; t++)
        total += stpete_state_discard_count(st, t);
    for (int p = 0; p < players; p++) {
        stpete_state_display(st, p, cards, CARDS_MAX, &n);
        total += (int)n;
        stpete_state_hand(st, p, cards, CARDS_MAX, &n);
        total += (int)n;
        if (stpete_state_rubles(st, p) < 0)
            fuzz_fail("negative rubles");
    }
    return total + (stpete_state_observatory_card(st) >= 0) + (stpete_state_prison_card(st) >= 0);
}

/* The options of byte 0 (see the head of this file). */
static void actions_options(uint8_t b, stpete_options *o)
{
    if (b < 128) {
        o->players = 2 + b % 3;
        o->pub_cap = b / 3 % 2;
        o->tie_break = b / 6 % 2;
        return;
    }
    int c = b - 128;
    o->new_society = 1;
    o->players = 2 + c % 4;
    o->markers_one_seat = c / 4 % 2;
    o->used_prison_scores = c / 8 % 2;
    o->textile_without_new_society = c / 16 % 2;
    if (c / 32 % 2)
        o->chance_mode = STPETE_CHANCE_EXPLICIT;
}

static char text[1 << 16], text2[1 << 16];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 9)
        return 0;
    stpete_options opts;
    stpete_options_init(&opts);
    actions_options(data[0], &opts);
    memcpy(&opts.seed, data + 1, sizeof opts.seed);
    data += 9, size -= 9;
    stpete_game *game = NULL;
    stpete_state *st = NULL, *before = NULL;
    if (stpete_game_new(&opts, &game, NULL) != STPETE_OK || stpete_state_new(game, &st, NULL) != STPETE_OK ||
        stpete_state_clone(st, &before, NULL) != STPETE_OK)
        fuzz_fail("setup failed");
    int card_types = stpete_game_num_card_types(game);
    int cards = opts.new_society ? STPETE_NUM_CARDS_NEW_SOCIETY : STPETE_NUM_CARDS;
    /* raw ids: past every action and chance outcome id of the game, and below 0 */
    int id_span = (opts.new_society ? 2500 : 1100);
    static int played[MAX_STEPS];
    size_t n_played = 0;
    for (size_t i = 0; i + 1 < size && n_played < MAX_STEPS; i += 2) {
        int ids[STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY];
        size_t n = 0;
        stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY, &n);
        int id = data[i] & 0x80 ? ((data[i] & 0x7F) << 8 | data[i + 1]) % id_span - 64
                                : (n ? ids[data[i + 1] % n] : 0);
        stpete_state_copy(before, st);
        int rc = stpete_state_apply(st, id);
        if (rc != STPETE_OK) {
            if (tg_equal(st, before) != 1)
                fuzz_fail("a refused action changed the state");
            continue;
        }
        played[n_played++] = id;
        if (cards_placed(st, opts.players, card_types) != cards)
            fuzz_fail("the cards are not each in one place");
    }
    size_t len = 0, len2 = 0;
    stpete_state *back = NULL;
    if (stpete_state_to_json(st, text, sizeof text, &len) != STPETE_OK ||
        stpete_state_from_json(game, text, len, &back, NULL) != STPETE_OK || tg_equal(back, st) != 1)
        fuzz_fail("the state does not round-trip through JSON");
    stpete_state_free(back);
    for (int seat = STPETE_VIEW_PUBLIC; seat < opts.players; seat++)
        if (stpete_state_view_to_json(st, seat, text2, sizeof text2, &len2) != STPETE_OK)
            fuzz_fail("a view does not serialize");
    if (stpete_replay_to_json(game, opts.seed, played, n_played, text, sizeof text, &len) != STPETE_OK)
        fuzz_fail("the played actions do not make a replay record");
    stpete_game *g2 = NULL;
    static int read_back[MAX_STEPS];
    size_t n_back = 0;
    if (stpete_replay_from_json(text, len, NULL, &g2, read_back, MAX_STEPS, &n_back, NULL) != STPETE_OK ||
        n_back != n_played || memcmp(read_back, played, n_played * sizeof *played) != 0)
        fuzz_fail("the replay record does not read back");
    if (stpete_replay_to_json(g2, opts.seed, read_back, n_back, text2, sizeof text2, &len2) != STPETE_OK ||
        len2 != len || memcmp(text, text2, len) != 0)
        fuzz_fail("the replay record does not round-trip");
    stpete_game_free(g2);
    stpete_state_free(before);
    stpete_state_free(st);
    stpete_game_free(game);
    return 0;
}
