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

/* The edition of a game's options as the log headers say it: "first edition" or "second edition" (§11). */
const char *gamelog_edition(const stpete_options *opts);

#endif
