/* The opponents of stpete-play, behind the interface of the library's bots (include/stpete/bots.h, issue 13:
 * stpete_bot_new / _set_seed / _choose / _free), so that switching to them is a matter of these few functions.
 * Until the library has bots, a local "random" and "greedy" stand in (play-opponent.c). Example code. */
#ifndef STPETE_EXAMPLES_PLAY_OPPONENT_H
#define STPETE_EXAMPLES_PLAY_OPPONENT_H

#include <stddef.h>
#include <stdint.h>

#include <stpete/stpete.h>

typedef struct opponent opponent;

/* Create an opponent for a game from a spec ("random", "greedy"). On failure *out is NULL and msg says why.
 * Returns STPETE_OK, STPETE_E_INVALID_ARGUMENT (NULL), STPETE_E_PARSE (unknown spec), STPETE_E_OUT_OF_MEMORY. */
int opponent_new(opponent **out, const stpete_game *game, const char *spec, char *msg, size_t size);

/* Reseed the opponent's own PRNG. */
void opponent_set_seed(opponent *o, uint64_t seed);

/* Choose a legal action for the seat to act in st (read only). Returns STPETE_OK, STPETE_E_GAME_OVER,
 * STPETE_E_INVALID_ARGUMENT or STPETE_E_OUT_OF_MEMORY. */
int opponent_choose(opponent *o, const stpete_state *st, int *action);

/* The names of the opponents this build offers, for --help. */
const char *opponent_kinds(void);

void opponent_free(opponent *o);

#endif
