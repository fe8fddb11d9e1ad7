/* The readable game log shared by the example programs (stpete-selfplay, stpete-replay): an event callback that
 * prints each event of libstpete as a line of text. Example code, not part of the library. */
#ifndef STPETE_EXAMPLES_GAMELOG_H
#define STPETE_EXAMPLES_GAMELOG_H

#include <stdio.h>

#include <stpete/stpete.h>

typedef struct gamelog {
    FILE *out;
    int dealing; /* a "dealt:" line is open */
} gamelog;

/* Event callback (stpete_event_fn); user_data is a gamelog. */
void gamelog_event(const stpete_state *st, const stpete_event *ev, void *user_data);

/* The name of a card type in a game's edition (§2, §11): stpete_card_get_info()'s name; "?" out of range. */
const char *gamelog_card_name(const stpete_game *game, int card);

/* Whether the game is over (§4.6, §8): stpete_state_is_terminal()'s answer, 1 also when it returns a status (so a
 * loop "while (!gamelog_over(st))" never runs on an error). */
int gamelog_over(const stpete_state *st);

/* The edition of a game's options as the log headers say it: "first edition" or "second edition" (§11). */
const char *gamelog_edition(const stpete_options *opts);

#endif
