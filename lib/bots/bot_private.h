/* Private declarations of the reference bots (lib/bots/). The bots use only the public API (stpete/stpete.h and
 * stpete/bots.h), never the engine's internal header: they are written as any user's bot would be. */
#ifndef STPETE_BOT_PRIVATE_H
#define STPETE_BOT_PRIVATE_H

#include <stddef.h>
#include <stdint.h>

#include <stpete/bots.h>
#include <stpete/stpete.h>

struct bot_value_net;
struct bot_value_x;

enum bot_kind { BOT_RANDOM, BOT_GREEDY, BOT_MC, BOT_ISMCTS, BOT_LEARNED };
enum bot_playout { PLAYOUT_RANDOM, PLAYOUT_GREEDY };

/* A spec's configuration (stpete_bot_new()). */
typedef struct bot_params {
    int kind;            /* bot_kind */
    uint64_t iterations; /* per decision; 0 = no limit (ms then set) */
    uint64_t ms;         /* wall-clock limit per decision; 0 = none */
    double c;            /* UCB1 exploration constant (ismcts) */
    int playout;         /* bot_playout */
    int depth;           /* playout actions before the cut-off evaluation; 0 = to the end */
    double temp;         /* softmax temperature of the cut-off evaluation, in VP */
    uint64_t seed;       /* the spec's seed */
} bot_params;

/* One node of the ismcts tree: the position reached by an action sequence from the root (every action is
 * public, so the sequence identifies the information set of every seat up to hidden cards). */
typedef struct bot_node {
    int32_t parent, first_child, next_sibling; /* indices in the pool; -1 = none */
    int16_t action;                            /* the action that leads here from the parent */
    int8_t player;                             /* the seat that took it */
    uint32_t visits;                           /* iterations through this node */
    uint32_t avail;                            /* iterations in which its action was legal at the parent */
    double reward;                             /* sum of the returns of `player` over the visits */
} bot_node;

struct stpete_bot {
    const stpete_game *game;
    stpete_allocator alloc; /* the game's, with the C library's filled in */
    int players;
    bot_params p;
    uint64_t rng;           /* splitmix64 state */
    stpete_state *work;     /* one iteration's determinization */
    stpete_state *scratch;  /* greedy look-ahead */
    bot_node *nodes;        /* ismcts node pool */
    size_t node_cap, node_n;
    double *logs;           /* ismcts: logs[k] = log(k) for 1 <= k < log_n (UCB1's log of an availability count) */
    size_t log_n;
    uint32_t gen;                                 /* generation of the stamps below */
    uint32_t legal_stamp[STPETE_NUM_DISTINCT_ACTIONS_NEW_SOCIETY]; /* == gen: legal in the iteration's state */
    uint32_t child_stamp[STPETE_NUM_DISTINCT_ACTIONS_NEW_SOCIETY]; /* == gen: the node has a child for it */
    double card_vp[STPETE_NUM_CARD_TYPES_NEW_SOCIETY]; /* income per card at its scoring (§2, §4.4, §12.2) */
    double card_rubles[STPETE_NUM_CARD_TYPES_NEW_SOCIETY];
    const struct bot_value_net *net; /* learned: the game's network (bot_value.h) */
    int view;                        /* learned: the seat whose observation its evaluation reads */
    stpete_bot_stats stats;
    char spec[STPETE_BOT_SPEC_MAX];
    char error[256];
};

/* ---- bot_base.c ---- */

/* Allocation through the game's allocator. */
void *bot_malloc(stpete_bot *bot, size_t size);
void *bot_realloc(stpete_bot *bot, void *ptr, size_t size);
void bot_freemem(stpete_bot *bot, void *ptr);

/* Record a failure message (printf-style) and return rc. */
int bot_fail(stpete_bot *bot, int rc, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* splitmix64 (Steele, Lea and Flood 2014), as stpete-selfplay's bots. */
static inline uint64_t bot_next_random(uint64_t *x) /* inline: once per playout step */
{
    return stpete_splitmix64(x);
}

/* A uniform index in [0, n) for small n (multiply-shift, Lemire 2019: no division; bias below n / 2^32). */
static inline size_t bot_random_below(uint64_t *x, size_t n)
{
    return (size_t)(((bot_next_random(x) >> 32) * (uint64_t)n) >> 32);
}

/* Wall clock in nanoseconds (CLOCK_MONOTONIC). */
uint64_t bot_now_ns(void);

/* ---- bot_policy.c ---- */

/* The projected score of a seat (bots.h), in VP. */
double bot_evaluate(const stpete_bot *bot, const stpete_state *st, int seat);

/* The greedy choice among the n legal ids of st (n >= 1) for the seat to act in *choice, its projected score in
 * *value (may be NULL). STPETE_OK, or STPETE_E_OUT_OF_MEMORY (the look-ahead state could not grow; bot_fail). */
int bot_greedy_choice(stpete_bot *bot, const stpete_state *st, const int *ids, size_t n, int *choice,
                      double *value);

/* Returns of every seat (bots.h): 1/k per winner at the end, the softmax of projected scores before. */
void bot_returns(const stpete_bot *bot, const stpete_state *st, double out[STPETE_MAX_PLAYERS]);

/* Play st on with the bot's playout policy for at most the bot's depth (0 = to the end), then write the returns.
 * *actions counts the actions applied; a chance node (explicit-chance games) takes an outcome by bot_chance_step.
 * Returns a status (STPETE_E_OUT_OF_MEMORY from a greedy look-ahead, or a chance step's failure; bot_fail). */
int bot_playout(stpete_bot *bot, stpete_state *st, double out[STPETE_MAX_PLAYERS], uint64_t *actions);

/* Apply an outcome of the chance node of st (explicit-chance games), drawn by its probability with the bot's PRNG:
 * the bots' one place that samples chance outcomes. A status (bot_fail). */
int bot_chance_step(stpete_bot *bot, stpete_state *st);

/* One determinization of state for seat (§9) with seed, into dst (of the same game): a status of
 * stpete_state_copy() or stpete_state_determinize(). */
int bot_determinize(stpete_state *dst, const stpete_state *state, int seat, uint64_t seed);

/* ---- bot_value.c ---- */

/* The network of a game's family (the base game or the New Society). */
const struct bot_value_net *bot_value_net_of(const stpete_game *game);

/* The network's inputs for seat's view of st into x: its observation tensor (stpete_state_observation_tensor())
 * and the extra inputs, clamped to their limits, those that are not 0. A status of the tensor. */
int bot_value_inputs(const struct bot_value_net *net, const stpete_state *st, int seat, struct bot_value_x *x);

/* The returns of the relative seats 0..players-1 (0: the seat whose inputs x are) by the network; they add up to 1. */
void bot_value_forward(const struct bot_value_net *net, const struct bot_value_x *x, int players, double *returns);

/* ---- bot_search.c ---- */

/* The searches: choose among the n >= 2 legal ids of state for seat. */
int bot_choose_mc(stpete_bot *bot, const stpete_state *state, int seat, const int *ids, size_t n, int *action);
int bot_choose_ismcts(stpete_bot *bot, const stpete_state *state, int seat, const int *ids, size_t n,
                      int *action);

/* Whether the game is over (§4.6, §8), for the bots' loops: a state the library refuses to answer for counts as
 * over, so that no loop runs on an error. */
#define bot_game_over(state) stpete_state_is_terminal_or((state), 1)

#endif /* STPETE_BOT_PRIVATE_H */
