/* 0.3 code that tools/migrate-1.0.py cannot rewrite alone: it must report each line marked LEFT (and only those). */
#include <stdio.h>

#include <stpete/bots.h>
#include <stpete/stpete.h>

int play(stpete_state *st, stpete_state *other, const stpete_game *game)
{
    char msg[256];
    stpete_bot *bot = NULL;
    if (stpete_bot_new(&bot, game, "random", msg, sizeof msg) != STPETE_OK) /* LEFT */
        return puts(msg);
    while (!stpete_state_is_terminal(st)) { /* LEFT */
        int id = 0;
        stpete_bot_choose(bot, st, &id);
        if (stpete_state_is_legal(st, id)) /* LEFT */
            stpete_state_apply(st, id);
    }
    printf("%s %d\n", stpete_card_name(0), stpete_state_equal(st, other)); /* LEFT */
    if (stpete_state_is_final_round(st) && stpete_options_check(NULL, msg, sizeof msg)) /* LEFT */
        puts(stpete_game_card_name(game, 1)); /* LEFT */
    stpete_bot_free(bot);
    return 0;
}

/* Objects of the structs that need struct_size in 1.0, in forms it cannot initialise alone. */
struct seat_result {
    stpete_score score; /* LEFT */
    int seat;
};

int scores(stpete_state *st, int players)
{
    stpete_score all[STPETE_MAX_PLAYERS]; /* LEFT */
    stpete_score first = { .total = -1 }; /* LEFT */
    stpete_json_error *errs = calloc(2, sizeof *errs); /* LEFT */
    stpete_score last;
    memset(&last, 0, sizeof last); /* LEFT */
    last = (stpete_score){ .total = 0 }; /* LEFT */
    for (int seat = 0; seat < players; seat++)
        stpete_state_score(st, seat, &all[seat]);
    free(errs);
    return first.total + last.total;
}
