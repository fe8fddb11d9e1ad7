/**
 * @file bots.h
 * @brief libstpete reference bots: random, greedy, flat Monte Carlo (mc), information-set MCTS (ismcts) and
 *        ismcts with a learned evaluation (learned).
 *
 * The bots live in the same shared library as the rules (one `libstpete.so`, one `stpete.pc`), and are written
 * only against the public API of stpete.h, as any user's bot would be. Their symbols are in version node
 * `STPETE_1.0` (the kind `learned` added no symbol).
 *
 * A bot is created for a game from a *spec*, a string `KIND[:KEY=VALUE]...`, e.g. `"random"`, `"greedy"`,
 * `"mc:iterations=1000:playout=greedy"`, `"ismcts:iterations=2000:c=0.7:seed=3"`. It is seat-independent: it
 * plays whichever seat is to act in the state it is given. One bot is used by one thread at a time; the game may
 * be shared.
 *
 * | kind     | what it does (details below)                                   | keys (defaults)                  |
 * | -------- | -------------------------------------------------------------- | -------------------------------- |
 * | `random` | a uniformly random legal action                                | `seed` (0)                       |
 * | `greedy` | one-step look-ahead on the acting seat's projected score       | none                             |
 * | `mc`     | flat Monte Carlo over determinizations                         | `iterations` (1000), `ms` (0),   |
 * |          |                                                                | `playout` (`random`), `depth`    |
 * |          |                                                                | (0), `temp` (10), `seed` (0)     |
 * | `ismcts` | single-observer information-set MCTS                           | as `mc`, and `c` (0.7)           |
 * | `learned`| ismcts whose leaves a learned network evaluates                | `iterations` (4000), `ms` (0),   |
 * |          |                                                                | `c` (0.7), `depth` (0), `seed`   |
 * |          |                                                                | (0)                              |
 *
 * - `random`: `ids[stpete_splitmix64() % n]` over the sorted legal list (the random bot of `stpete-selfplay`).
 * - `greedy`: each legal action is applied to a copy and the acting seat's projected score (below) is compared;
 *   the first best id wins ties.
 * - `mc`: the legal actions in turn, each iteration on a new determinization, then a playout; the best mean return
 *   wins (ties: the higher mean final score, VP, of the acting seat in those playouts, then the lower id).
 * - `ismcts` (Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG 4(2), 2012):
 *   one determinization per iteration, UCB1 over the actions legal in it with availability counts, expansion of
 *   one untried action, a playout, returns backed up to every node for the seat that acted there; the most visited
 *   root action is chosen.
 * - `learned` (issue 43; doc/learning.md): the ismcts search, in which a new leaf is played on for `depth` random
 *   actions (0: none) and then evaluated by a small network trained by self-play (the first learned Saint
 *   Petersburg player): the network reads the observation tensor of the seat the bot chooses for
 *   (stpete_state_observation_tensor() of the leaf's determinization: what §9 lets that seat know there, never a
 *   hidden fact) and gives every seat's expected return. Its weights are compiled into the library (one network
 *   for the base game, both editions and 2-4 players, one for the New Society, 2-5); it computes in integers
 *   only, so its numbers, and the bot's games, are the same on every platform (native and WebAssembly), and it
 *   allocates nothing. At equal CPU time per decision it makes about four times the iterations of ismcts (no
 *   playout to the end). The committed network is weaker than ismcts's random playouts at equal time
 *   (doc/learning.md has the matches and what would make it stronger).
 *
 * Keys: `iterations` = determinized playouts per decision (0 = no limit, then `ms` must be set; mc rounds it up to
 * a multiple of the number of legal actions, so that each gets as many); `ms` = a
 * wall-clock limit per decision in milliseconds (0 = none; with both, the first reached stops the search);
 * `c` = the UCB1 exploration constant (returns are in [0, 1]); `playout` = the playout policy, `random` or
 * `greedy` (the greedy bot's choice for every seat); `depth` = playout actions before the playout stops and the
 * position is evaluated (0 = play to the end; learned: random actions before the network evaluates, 0 = at once,
 * and its playouts are always random); `temp` = the temperature, in VP, of the evaluation at the cut-off;
 * `seed` = the bot's own PRNG seed (stpete_bot_set_seed() changes it later).
 *
 * Returns (OpenSpiel's `Returns`): at the end of a game each of the k winners gets 1/k and the others 0 (§8,
 * R14; constant-sum 1). At a playout cut-off, the seats' projected scores v (below) are turned into
 * win estimates by a softmax, exp(v_s / temp) / Σ_t exp(v_t / temp): constant-sum 1 as well, and for two players
 * the logistic function of the projected score difference. The learned bot's cut-off returns are its network's:
 * the softmax of its outputs for the seats of the game, from the observation of one seat (the seat it searches
 * for; for stpete_bot_evaluate(), the seat to act), constant-sum 1 (doc/learning.md gives the layout).
 *
 * Projected score (the greedy bot's evaluation, as in stpete-selfplay): on a finished game the final score
 * (§8); otherwise the final score as if the game ended now (stpete_state_get_score(): VP, aristocrat bonus,
 * rubles / 10, −5 per hand card) plus the display's income per round (VP + rubles / 4, §4.4) times the rounds
 * that probably remain, 1 + (smallest stack) / 6 (§4.6), plus rubles / 4.
 *
 * What a bot knows (§9): only what its seat may know. The search bots never read hidden information of the real
 * state: each iteration plays on a determinization (stpete_state_determinize() for the acting seat, with
 * ::STPETE_DETERMINIZE_RUBLES: the other seats' secret rubles set to its own) of a copy; the determinization draws
 * from what the seat knows only (the hidden cards, the stack orders and the other players' hand cards the seat has
 * not seen taken, play no part), so their choices are the same for every position the seat cannot tell from the
 * real one (same seed). The
 * greedy bot's evaluation reads only the acting seat's own cards and rubles and the public stack sizes.
 *
 * Chance (stpete.h, explicit-chance mode): a bot chooses only at a seat's decision; in its playouts and tree
 * descents it draws the outcome of each chance node by its probability (stpete_state_chance_outcomes()). In both
 * modes the ismcts tree is keyed by the players' actions: the cards dealt are part of each determinization.
 *
 * Determinism: the same spec, seed and sequence of states give the same choices on every platform when the
 * budget is in iterations. A limit in `ms` depends on the machine's speed: such a bot is not reproducible.
 */
#ifndef STPETE_BOTS_H
#define STPETE_BOTS_H

#include <stddef.h>
#include <stdint.h>

#include "stpete/stpete.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------------ */
/** @defgroup bots Bots
 * The library's reference bots (random, greedy, mc, ismcts, learned): made from a spec, they choose a legal action for the
 * seat to act, using only what that seat may know (§9); stpete_bot_play() plays a state on with one bot per seat.
 * The file's description (bots.h) has the table of kinds and keys, the returns and the projected score. */
/** @{ */

/** Longest spec stpete_bot_new() accepts, including the NUL; a canonical spec (stpete_bot_spec()) always fits. */
#define STPETE_BOT_SPEC_MAX 256

/**
 * The salt of the bots' seeds in the project's programs: stpete-selfplay, stpete-bench and the bindings' same-game
 * tests seed the bots of a game with seed ^ ::STPETE_BOT_SEED_SALT (stpete_bot_set_seed()), so that a bot's
 * numbers are not the game's. A convention of the programs, not of the rules; use it to replay their games.
 */
#define STPETE_BOT_SEED_SALT UINT64_C(0xB0751E5)

/**
 * splitmix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014): the bots'
 * PRNG (the random bot picks `ids[stpete_splitmix64(&s) % n]`), shared with the programs and tests that replay its
 * choices. Static inline: no symbol, no ABI. @norule
 * @param state the generator's 64-bit state, advanced by one step
 * @return the next 64-bit number.
 */
static inline uint64_t stpete_splitmix64(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/** A bot: a spec's configuration, its PRNG and its search memory. Opaque; one thread at a time. */
typedef struct stpete_bot stpete_bot;

/**
 * Create a bot for a game from a spec `KIND[:KEY=VALUE]...` (see the table of kinds above; keys in any order,
 * each at most once, no blanks). It allocates through the game's stpete_options::allocator. The bots play by
 * stpete_state_legal_actions() (§4.2) and evaluate positions by the final scoring of §8.
 * @param game     the game whose states the bot will play; must outlive the bot
 * @param spec     NUL-terminated spec, shorter than ::STPETE_BOT_SPEC_MAX
 * @param out      receives the new bot, owned by the caller (free with stpete_bot_free()); NULL on failure
 * @param err      receives the status and the reason of a failure (e.g. "unknown key 'iter' for mc"); may be
 *                 NULL
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL @p out, @p game or @p spec, or a value out of its
 *         range (iterations above 10^9, iterations=0 without ms, ms above one hour, c outside [0, 100], depth
 *         above 10000, temp outside (0, 1000]); ::STPETE_E_PARSE for an empty or overlong spec, an unknown kind or
 *         key, a key given twice, a key without `=`, or a value that is not a number or not one of the names
 *         listed; ::STPETE_E_UNSUPPORTED_VERSION if the game's options cannot be read or err->struct_size is bad;
 *         ::STPETE_E_OUT_OF_MEMORY.
 */
STPETE_API int stpete_bot_new(const stpete_game *game, const char *spec, stpete_bot **out, stpete_error *err);

/**
 * Free a bot, through its game's allocator. @norule
 * @param bot the bot, owned by the caller until this call; NULL is a no-op
 */
STPETE_API void stpete_bot_free(stpete_bot *bot);

/**
 * Reseed the bot's own PRNG (splitmix64; the game's PRNG lives in the state). After it, the same sequence of
 * states gives the same choices (with an iteration budget). The greedy bot draws no random numbers. @norule
 * @param bot  the bot
 * @param seed any 64-bit seed
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL.
 */
STPETE_API int stpete_bot_set_seed(stpete_bot *bot, uint64_t seed);

/**
 * Choose an action for the seat to act in @p state (stpete_state_current_player(): the turn of §4.1, an
 * Observatory decision §7.1, a Pub purchase §7.2). The state is not modified; the bot may read only what that
 * seat may know (§9). With a single legal action, it is returned without search.
 * @param bot    the bot
 * @param state  a state of the bot's game (stpete_game_check_compatible())
 * @param action receives a legal action id (stpete_state_legal_actions())
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL, or a state that has no seat to act (a chance node);
 *         ::STPETE_E_MISMATCH if the state is of another game than the bot's (stpete_game_check_compatible(): rule
 *         options, chance mode, edition), for every kind of bot; ::STPETE_E_GAME_OVER if the game is over;
 *         ::STPETE_E_OUT_OF_MEMORY if the search or the determinization could not allocate (nothing is chosen).
 *         stpete_bot_last_error() says why.
 */
STPETE_API int stpete_bot_choose(stpete_bot *bot, const stpete_state *state, int *action);

/**
 * Play a state forward with one bot per seat, in one call (for experiments and tournaments that only need the
 * outcome: a loop of stpete_bot_choose() and stpete_state_apply() without a round trip per action from another
 * language). While a seat is to act, `bots[seat]` chooses and its action is applied (§4.1–§4.6: the turn order,
 * Observatory and Pub decisions as stpete_state_current_player() gives them). It stops at the end of the game
 * (§4.6), at a chance node of the explicit-chance mode (the caller applies an outcome, then calls again), or after
 * @p max_actions actions. Events are reported to the state's callback and queue as by stpete_state_apply().
 * @param bots        array of @p count bots, `bots[s]` plays seat s; the same bot may play several seats
 * @param count       number of bots, at least the number of players
 * @param state       the state to play on (modified); its game's rule options must be the bots'
 * @param max_actions most actions to apply (0 = no limit)
 * @param played      receives the number of actions applied by this call, also on failure; may be NULL
 * @return ::STPETE_OK when the game is over, a chance node is reached or @p max_actions were applied (test with
 *         stpete_state_is_terminal() and stpete_state_current_player()); ::STPETE_E_INVALID_ARGUMENT for NULL
 *         @p state or @p bots, a NULL bot for a seat that had to act, or @p count smaller than the number of players;
 *         otherwise the first failure of stpete_bot_choose() (::STPETE_E_MISMATCH, ::STPETE_E_OUT_OF_MEMORY; that
 *         bot's stpete_bot_last_error() says why; its ::STPETE_E_GAME_OVER cannot occur, the loop stops first)
 *         or of stpete_state_apply() (stpete_state_last_error()). On failure the state holds the actions applied
 *         before it, *@p played of them. If the state's event callback frees the state (stpete_state_free() from
 *         the callback, deferred to the end of that action's step), the call stops after that action, never uses
 *         the state again and returns ::STPETE_OK, *@p played counting that action (stpete_state_apply_tracked()).
 */
STPETE_API int stpete_bot_play(stpete_bot *const *bots, size_t count, stpete_state *state, size_t max_actions,
                               size_t *played);

/**
 * Write the bot's canonical spec: its kind and every key with its value, defaults filled in, in the order of the
 * table above (e.g. `"ismcts:iterations=1000:ms=0:c=0.7:playout=random:depth=0:temp=10:seed=0"`). Given to
 * stpete_bot_new(), it makes the same bot. The seed is the one of the spec, not of stpete_bot_set_seed().
 * @norule
 * @param bot  the bot
 * @param buf  caller's buffer of @p capacity bytes, or NULL with @p capacity 0; receives a NUL-terminated string
 * @param capacity bytes available in @p buf (::STPETE_BOT_SPEC_MAX always suffices)
 * @param len  receives the length without the NUL (also when the buffer is too small)
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL @p bot or @p len, or NULL @p buf with @p capacity > 0;
 *         ::STPETE_E_BUFFER_TOO_SMALL (nothing useful written).
 */
STPETE_API int stpete_bot_spec(const stpete_bot *bot, char *buf, size_t capacity, size_t *len);

/**
 * Detail message of the last failed call on this bot, e.g. "the game is over (§4.6): no action to choose". Empty
 * after success. @norule
 * @param bot the bot
 * @return a NUL-terminated string owned by the bot, valid until the next call on it; "" for NULL.
 */
STPETE_API const char *stpete_bot_last_error(const stpete_bot *bot);

/**
 * The returns the bot's searches give a position where a playout stops (see "Returns" above): on a finished game
 * 1/k for each of the k winners and 0 for the others (§8, R14); before the end, the softmax of the seats'
 * projected scores with the bot's `temp` (the random and greedy bots use the default, 10 VP). Constant-sum:
 * the returns add up to 1. It reads every seat's position as the state holds it, rubles and hands included: the
 * searches call it on determinizations, never on the real state. A `learned` bot gives its network's returns
 * instead, from the observation tensor of the seat to act (seat 0 at a chance node): only what that seat may know
 * (§9), so it may be called on the real state; it computes in integers (the same numbers on every platform) and
 * allocates nothing (doc/learning.md).
 * @param bot     the bot (its temperature)
 * @param state   a state of the bot's game (stpete_game_check_compatible())
 * @param returns caller's array of @p capacity doubles; receives one return per seat, in [0, 1]
 * @param capacity capacity of @p returns, at least the number of players
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL; ::STPETE_E_BUFFER_TOO_SMALL if @p capacity is smaller than
 *         the number of players; ::STPETE_E_MISMATCH if the state is of another game than the bot's
 *         (stpete_game_check_compatible(): rule options, chance mode, edition).
 */
STPETE_API int stpete_bot_evaluate(stpete_bot *bot, const stpete_state *state, double *returns, size_t capacity);

/** What the last stpete_bot_choose() did. Initialise with ::STPETE_BOT_STATS_INIT (it sets struct_size). */
typedef struct stpete_bot_stats {
    size_t struct_size;       /**< sizeof(stpete_bot_stats) of the caller's header */
    uint64_t iterations;      /**< determinized playouts run (mc, ismcts); 0 for random and greedy, and when there
                                   was a single legal action */
    uint64_t elapsed_ns;      /**< wall-clock duration of the call, in nanoseconds */
    uint64_t nodes;           /**< ismcts: tree nodes built, the root included; 0 for the other kinds */
    uint64_t playout_actions; /**< mc, ismcts: actions applied in playouts (after the tree) */
    double value;             /**< mc, ismcts: mean return of the chosen action for the acting seat, in [0, 1];
                                   greedy: its projected score in VP; random: 0 */
    int action;               /**< the action chosen; -1 before the first choice */
    int seat;                 /**< the seat it was chosen for; -1 before the first choice */
    int legal_actions;        /**< number of legal actions it was chosen among; 0 before the first choice */
} stpete_bot_stats;

/** Static initialiser of ::stpete_bot_stats: struct_size set, nothing chosen yet. */
#define STPETE_BOT_STATS_INIT { sizeof(stpete_bot_stats), 0, 0, 0, 0, 0.0, -1, -1, 0 }

/**
 * Statistics of the last successful stpete_bot_choose() (all zero, action and seat −1, before the first).
 * @norule
 * @param bot the bot
 * @param out receives the statistics (caller-owned). Its struct_size must be set first: only that many bytes are
 *            written, so a caller built against an older header is never overrun.
 * @return ::STPETE_OK; ::STPETE_E_INVALID_ARGUMENT for NULL; ::STPETE_E_UNSUPPORTED_VERSION if out->struct_size
 *         is 0 or larger than this library's struct.
 */
STPETE_API int stpete_bot_get_stats(const stpete_bot *bot, stpete_bot_stats *out);
/** @} */

#ifdef __cplusplus
}
#endif

#endif /* STPETE_BOTS_H */
