/* Internal declarations of libstpete: the handles (facts.h describes the layers). Not installed. struct
 * stpete_game and struct stpete_state, and what their files share: game.c, state.c, search.c, eventlog.c and the
 * JSON files above them (json.h). */
#ifndef STPETE_HANDLES_H
#define STPETE_HANDLES_H

#include "core.h"

/* ---- game.c: options and games ----------------------------------------------------------------- */

struct stpete_game {
    stpete_options opts;
    stpete_rules rules;
};

/* The rules of valid options (every option but the seed and the allocator), padding zeroed. */
void stpete_rules_of(const stpete_options *o, stpete_rules *r);
/* Whether two positions belong to the same game: the one home of that question (stpete_game_check_compatible()). */
int stpete_rules_same(const stpete_rules *a, const stpete_rules *b);

/* ---- state.c: the state handle ----------------------------------------------------------------- */

/* Longest message: "action %d (%s) is not legal: %s" with a 95-byte action string and a 160-byte reason. */
#define STPETE_ERRMSG_SIZE 320

struct stpete_state {
    const stpete_game *game;
    event_hub hub;
    history hist;
    stpete_core core;
    char errmsg[STPETE_ERRMSG_SIZE];
};

/* A failing call: the message (printf-style) into the state's last error; returns status. */
int stpete_state_fail(stpete_state *st, int status, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* A successful call: clears the last error; returns STPETE_OK. */
int stpete_state_succeed(stpete_state *st);
/* Free a state and what it owns, now (stpete_state_free defers it inside the state's own callback). */
void stpete_state_release(stpete_state *st);

#endif /* STPETE_HANDLES_H */
