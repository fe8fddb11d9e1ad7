/* A program written for libstpete 0.3 (tests/migrate/migrate-check.py runs tools/migrate-1.0.py on it; the result must be
 * sample-1.0.c, which the build compiles against 1.0 and runs). It exercises every mechanical rewrite, and every
 * declaration form of a struct that needs struct_size in 1.0 (each is used by a call that fails without it). */
#include <stdio.h>
#include <string.h>

#include <stpete/bots.h>
#include <stpete/stpete.h>

/* The state's document loads back into a game and a state of its own; syntax errors say where. */
static int check_json(stpete_game *game, stpete_state *st)
{
    char json[8192];
    size_t len = 0;
    if (stpete_state_to_json(st, json, sizeof json, &len) != STPETE_OK)
        return 12;
    stpete_json_error err;
    stpete_game *loaded_game = NULL;
    stpete_state *loaded = NULL;
    if (stpete_game_from_json(&loaded_game, json, len, NULL, &err) != STPETE_OK ||
        stpete_state_from_json(&loaded, loaded_game, json, len, &err) != STPETE_OK)
        return fprintf(stderr, "%s\n", err.text), 13;
    stpete_state *bad = NULL;
    if (stpete_state_from_json(&bad, game, "{", 1, &err) != STPETE_E_PARSE || err.line != 1 || bad)
        return 14;
    struct stpete_json_error jerr;
    stpete_json_error first, second = {0};
    stpete_game *bad_game = NULL;
    if (stpete_game_from_json(&bad_game, "[", 1, NULL, &jerr) != STPETE_E_PARSE || jerr.line != 1 || bad_game ||
        stpete_state_from_json(&bad, game, "{\n", 2, &first) != STPETE_E_PARSE || first.line != 2 ||
        stpete_state_from_json(&bad, game, "{}", 2, &second) == STPETE_OK || second.text[0] == 0)
        return 15;
    stpete_state_free(loaded);
    stpete_game_free(loaded_game);
    return 0;
}

int main(void)
{
    stpete_options opts;
    stpete_options_init(&opts);
    opts.players = 3;
    opts.seed = 7;
    if (stpete_options_check(&opts, NULL, 0) != STPETE_OK)
        return 1;
    stpete_game *game = NULL;
    stpete_state *st = NULL, *copy = NULL;
    if (stpete_game_new(&game, &opts) != STPETE_OK || stpete_state_new(&st, game) != STPETE_OK)
        return 1;
    stpete_card_info info;
    if (stpete_card_get_info(STPETE_CARD_MARKET, &info) != STPETE_OK || strcmp(info.name, "Market") != 0)
        return 2;
    if (stpete_game_card_info(game, STPETE_CARD_POPE, &info) != STPETE_OK || strcmp(info.name, "Pope") != 0)
        return 3;
    char text[STPETE_ACTION_STRING_MAX];
    if (stpete_action_to_string(0, text, sizeof text) != STPETE_OK || strcmp(text, "pass") != 0)
        return 4;
    if (stpete_game_action_to_string(game, 0, text, sizeof text) != STPETE_OK)
        return 5;
    if (stpete_max_game_length(game) != 1506 || stpete_observation_tensor_size(game) <= 0)
        return 6;
    stpete_bot *bot = NULL;
    if (stpete_bot_new(&bot, game, "greedy", NULL, 0) != STPETE_OK)
        return 7;
    stpete_bot *bots[3] = { bot, bot, bot };
    size_t played = 0;
    if (stpete_bot_play(st, bots, 3, 0, &played) != STPETE_OK || played == 0)
        return 8;
    if (stpete_state_current_player(st) != STPETE_PLAYER_TERMINAL || stpete_state_decision(st) != STPETE_DECISION_NONE)
        return 9;
    stpete_score score;
    if (stpete_state_score(st, 0, &score) != STPETE_OK)
        return 10;
    stpete_score scores[3], *best = &scores[0];
    struct stpete_score again = { 0 };
    for (int seat = 0; seat < 3; seat++)
        if (stpete_state_score(st, seat, &scores[seat]) != STPETE_OK)
            return 20 + seat;
    if (stpete_state_score(st, 0, &again) != STPETE_OK || again.total != best->total)
        return 23;
    again = (stpete_score){0};
    if (stpete_state_score(st, 1, &again) != STPETE_OK || again.total != scores[1].total)
        return 24;
    /* a call in a comment: stpete_state_resample(copy, seat, seed); a name: stpete_state_resample() */
    if (stpete_state_clone(&copy, st) != STPETE_OK || stpete_state_resample(copy, 1, 99) != STPETE_OK)
        return 11;
    int rc = check_json(game, st);
    if (rc)
        return rc;
    printf("%zu actions; seat 0 scores %d VP\n", played, score.total);
    stpete_state_free(copy);
    stpete_bot_free(bot);
    stpete_state_free(st);
    stpete_game_free(game);
    return 0;
}
