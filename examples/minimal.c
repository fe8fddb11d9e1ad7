#include <stdio.h>
#include <stpete/stpete.h>

int main(void)
{
    stpete_options opts;
    stpete_options_init(&opts);                 /* the spec's defaults */
    opts.players = 3;
    opts.seed = 42;                             /* same options + seed = same game */
    stpete_game *game;
    stpete_state *st;
    if (stpete_game_new(&opts, &game, NULL) || stpete_state_new(game, &st, NULL))
        return 1;
    int over = 0;                               /* predicates answer through a pointer */
    while (stpete_state_is_terminal(st, &over) == STPETE_OK && !over) {
        int ids[STPETE_MAX_LEGAL_ACTIONS];
        size_t n;
        stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS, &n);
        char text[STPETE_ACTION_STRING_MAX];
        stpete_action_to_string(STPETE_EDITION_FIRST, ids[n - 1], text, sizeof text);   /* a bot would choose */
        printf("seat %d: %s\n", stpete_state_current_player(st), text);
        if (stpete_state_apply(st, ids[n - 1]) != STPETE_OK)      /* never fails for a listed id */
            return fprintf(stderr, "%s\n", stpete_state_last_error(st)), 1;
    }
    unsigned winners;                           /* bit mask of seats */
    stpete_state_winners(st, &winners);
    printf("winners: %#x\n", winners);
    stpete_state_free(st);
    stpete_game_free(game);
    return 0;
}
