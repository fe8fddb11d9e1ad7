/* Internal declarations of libstpete, lowest layer (lib/facts/): the facts that need no position. Not installed.
 *
 * lib/ has one folder per layer; each calls only the layers below it, and each file includes the header of its own
 * layer, which includes the one below (doc/development.md draws the tree); a module of several files shares one
 * private header, which includes its layer's (engine/legal.h, as SQLite's whereInt.h). An internal function's
 * prefix names its file or module (Lua's rule: luaD_ is ldo.c): stpete_legal_pick is legal_pick.c's,
 * stpete_engine_copy engine.h's, stpete_bytes_find8 bytes.h's.
 *   json/    json.h: the JSON documents (jansson): write.c (states, views), read.c (parsing only), replay.c (replay
 *            records)
 *   api/     api.h: the handles and their entry points: state.c (states, checked entry points, queries), game.c
 *            (options, games), openspiel.c (chance outcomes, returns, observations, information states, history,
 *            undo, determinize), listeners.c (a state's callback and event queue), history.c (a state's history
 *            and checkpoints), event_text.c (the log line of an event)
 *   engine/  engine.h: the game on a plain position (stpete_core, no pointers, no handle): rules.c (setup, apply,
 *            phase flow), legality around its private legal.h (the inline core; legal.c the chance outcomes,
 *            legal_list.c the listing, legal_check.c the check of one id with its reason, legal_pick.c the playout
 *            step's pick), validate.c (a position's invariants), knowledge.c (what a seat knows, §9, and
 *            determinization), observation.c (the observation tensor and text), price.c, scoring.c, the inline
 *            rule facts and the event sink
 *   facts/   facts.h (allocation, the formats' words, PCG32, caller-sized structs and failures with a reason) and
 *            its topics: cards.h (the §2, §11 and §12.2 card tables: cards.c), actions.h (the action encoding:
 *            actions.c), bytes.h (bits, byte lists, ASCII text: bytes.c); names.c (the words of the formats), rng.c
 *            (PCG32), struct_size.c (caller-sized structs), error.c (stpete_error details, reasons into a buffer)
 *   bots/    above the public API: stpete/stpete.h and stpete/bots.h only, never an internal header
 * tests/checks/check-layers.py reads the layers from the folders and checks that no file calls a higher layer or
 * includes another layer's header, that no two files call each other in a circle, that prefixes name files and
 * that no two functions of the project share a name. The engine never sees a handle: it works on a stpete_core and
 * reports events to a stpete_sink it is given. */
#ifndef STPETE_FACTS_H
#define STPETE_FACTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stpete/stpete.h"

/* The facts by topic, each in its own header (no circle: actions.h includes cards.h; bytes.h includes none):
 * bytes.h (bits, byte lists, ASCII text), cards.h (the card table), actions.h (the action encoding). */
#include "facts/bytes.h"
#include "facts/cards.h"
#include "facts/actions.h"

/* ---- allocation through a game's allocator (stpete_options.allocator; all NULL = the C library's) ------ */

static inline void *stpete_facts_malloc(const stpete_allocator *al, size_t size)
{
    return al->malloc_fn ? al->malloc_fn(al->user, size) : malloc(size);
}

static inline void *stpete_facts_realloc(const stpete_allocator *al, void *ptr, size_t size)
{
    return al->realloc_fn ? al->realloc_fn(al->user, ptr, size) : realloc(ptr, size);
}

static inline void stpete_facts_free(const stpete_allocator *al, void *ptr)
{
    if (!ptr)
        return;
    if (al->free_fn)
        al->free_fn(al->user, ptr);
    else
        free(ptr);
}

/* ---- names.c: the words of the formats (JSON keys, action strings, logs), one table each ----------- */

extern const char *const stpete_phase_words[STPETE_NUM_PHASES];   /* "worker" ... "trading" */
extern const char *const stpete_stack_words[STPETE_NUM_STACKS];   /* "worker" ... "trading" */
extern const char *const stpete_decision_words[8];   /* "turn" ... "game-over", "chance", "prison" ... */
extern const char *const stpete_source_words[5];     /* "upper" ... "observatory", "discard" */
extern const char *const stpete_source_phrases[5];   /* "upper row" ... "Observatory draw", "discard pile" */
extern const char *const stpete_chance_event_words[4];            /* "none", "deal", "markers", "draw" (CHANCE_*) */
extern const char *const stpete_deal_then_words[3];               /* "setup", "next-phase", "round" (THEN_*) */

/* ---- rng.c: PCG32 (O'Neill, pcg-random.org), state lives in the game state -------------------- */

typedef struct stpete_rng {
    uint64_t state;
    uint64_t inc;
} stpete_rng;

/* PCG32 streams: the deal's ("StPete" in ASCII, so seeds do not collide with other PCG users' default stream)
 * and determinization's ("Resamp"). */
#define STPETE_RNG_STREAM_DEAL UINT64_C(0x537450657465)
#define STPETE_RNG_STREAM_RESAMPLE UINT64_C(0x526573616d70)

void stpete_rng_seed(stpete_rng *rng, uint64_t seed, uint64_t stream);
uint32_t stpete_rng_next(stpete_rng *rng);
/* Uniform integer in [0, bound), bound >= 1, unbiased (Lemire's multiply-and-reject). */
uint32_t stpete_rng_below(stpete_rng *rng, uint32_t bound);
/* Uniform random permutation of a[0..n). */
void stpete_rng_shuffle(stpete_rng *rng, uint8_t *a, int n);


/* ---- struct_size.c and error.c: caller-sized structs and the stpete_error detail (1.0), reasons ----------- */

#include <stdarg.h>
/* The first size of each struct that may grow: the 1.0 layout (1.0 is the baseline of soname 1; a later version
 * keeps these as the minimum). stpete_options too (issue 31): the 0.x layouts were never soname 1, and a size between two layouts ends inside a
 * member (one ending in the allocator's free_fn copied one byte of a pointer, which stpete_game_free() then called). */
#define STPETE_OPTIONS_SIZE_1_0 offsetof(stpete_options, new_society) /* 1.1 appended the New Society's (§12) */
#define STPETE_CARD_INFO_SIZE_1_0 sizeof(stpete_card_info)
#define STPETE_SCORE_SIZE_1_0 sizeof(stpete_score)
#define STPETE_EVENT_SIZE_1_0 sizeof(stpete_event)
#define STPETE_ERROR_SIZE_1_0 sizeof(stpete_error)
/* Whether a caller's struct_size is one this library can serve, i.e. the size of a released layout of the struct
 * (stpete.h, "Structs that may grow"): 1 or 0. Soname 1 has one layout of each struct, so first == library and the
 * range is that one size; a struct that grows must keep accepting exactly its released sizes (a size between two
 * layouts ends inside a member), so its check then becomes the list of those sizes. */
int stpete_struct_size_ok(size_t caller, size_t first, size_t library);
/* Copy src (the library's complete struct of `library` bytes) into dst, both beginning with size_t struct_size:
 * only dst->struct_size bytes; dst->struct_size kept. STPETE_OK, or STPETE_E_UNSUPPORTED_VERSION (nothing
 * written) for a size outside [first, library]. */
int stpete_struct_out(void *dst, const void *src, size_t first, size_t library);
/* STPETE_OK for NULL or a usable err->struct_size, else STPETE_E_UNSUPPORTED_VERSION (check before anything). */
int stpete_error_check(const stpete_error *err);
/* Record a failure (status and printf-style message) into e, a stpete_error being built (may be NULL); returns
 * status. */
int stpete_error_fail(stpete_error *e, int status, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
int stpete_error_vfail(stpete_error *e, int status, const char *fmt, va_list ap);
/* Copy a complete local detail into the caller's (NULL ignored) with its status ("" and -1s on success); returns
 * status. */
int stpete_error_finish(stpete_error *caller, const stpete_error *local, int status);
/* A call's whole detail in one step, into the caller's stpete_error (NULL ignored; its size checked before):
 * status and message; returns status (also STPETE_OK with "" for a success). */
int stpete_error_caller_fail(stpete_error *caller, int status, const char *what);
/* The start of a constructor (stpete.h, "Parameters"): err is NULL or of a size this library serves
 * (STPETE_E_UNSUPPORTED_VERSION otherwise), and it has an out-parameter (STPETE_E_INVALID_ARGUMENT with
 * "out is NULL" otherwise). The caller has set *out to NULL first. */
int stpete_error_begin(stpete_error *err, int has_out);

/* The "fail with a reason" helper of the engine's checks, whose reasons go into a caller's buffer: the message
 * (printf-style) into why (may be NULL, size why_size); returns status. (The other destinations have one each:
 * stpete_error_fail() a stpete_error being built, stpete_error_caller_fail() a caller's stpete_error in one step,
 * stpete_state_fail() a state's last error, bot_fail() a bot's.) */
int stpete_error_why(char *why, size_t why_size, int status, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

#endif /* STPETE_FACTS_H */
