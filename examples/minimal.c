/* The README's example: drive one game with the first legal action every time. */
#include <stdio.h>
#include <stpete/stpete.h>

int main(void)
{
    stpete_options opts;
    stpete_options_init(&opts);              /* spec defaults: 4 players, Pub cap per Pub, R mod 10 tie-break */
    opts.players = 3;
    opts.seed = 42;
    stpete_game *game;
    stpete_state *st;
    if (stpete_game_new(&game, &opts) || stpete_state_new(&st, game))
        return 1;
    while (!stpete_state_is_terminal(st)) {
        int ids[STPETE_MAX_LEGAL_ACTIONS];
        size_t n;
        stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS, &n);
        int pick = ids[n - 1];                 /* a real bot chooses better; ids are sorted */
        char text[STPETE_ACTION_STRING_MAX];
        stpete_action_to_string(pick, text, sizeof text);
        printf("seat %d: %s\n", stpete_state_current_player(st), text);
        if (stpete_state_apply(st, pick) != STPETE_OK)
            return fprintf(stderr, "%s\n", stpete_state_last_error(st)), 1;
    }
    unsigned winners;
    stpete_state_winners(st, &winners);
    printf("winners (bit mask of seats): %#x\n", winners);
    stpete_state_free(st);
    stpete_game_free(game);
    return 0;
}
