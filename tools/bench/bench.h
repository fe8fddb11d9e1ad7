/* stpete-bench: how fast the engine plays, on one core.
 *
 *   stpete-bench [--players 2|3|4] [--edition 1|2] [--seed S] [--games G] [--seconds T] [--iterations N]
 *                [--bot SPEC] [--json] [--games-only] [--warm-up]
 *
 * Pin it to one core yourself: `taskset -c 0 ./build/tools/stpete-bench`. Measures, for each player count
 * (all three unless --players is given):
 *   - random full games per second: stpete_state_reset, then until the end a uniform random legal action,
 *     picked and applied three ways (enum pick_way): the playout step stpete_state_apply_random (pick and apply in
 *     one call, no second check: a playout's way), stpete_state_random_action then stpete_state_apply, and by
 *     listing (stpete_state_legal_actions into a caller buffer, the listed id at the random index, then
 *     stpete_state_apply). The random bot is stpete-selfplay's `random` bot (splitmix64 seeded with
 *     seed ^ STPETE_BOT_SEED_SALT, index = next % count of the sorted legal list; stpete_state_random_action picks that
 *     same
 *     action) and game g uses seed S + g, so `stpete-bench --games G --seed S` plays exactly the games of
 *     `stpete-selfplay --games G --seed S --bots random` (both print the same digest of every action and final
 *     score; tests/bench/bench-check.py compares them; every way must give the same digest, or the bench fails);
 *   - applied actions per second: the same games' actions replayed with stpete_state_apply only (plus one
 *     stpete_state_reset per game, included);
 *   - nanoseconds per legal-action listing, over positions sampled from those games, per listing plus one
 *     PRNG call and pick, and per PRNG call and mask pick (stpete_state_random_action): the floors of a playout
 *     step without its apply (the text output shows the gap between it and the in-game cost per action). These cycle through the same sampled positions, which the branch
 *     predictor learns; the listing at game positions (the replay above with one listing before each apply, minus
 *     the replay) is what a listing costs on positions it has not seen;
 *   - nanoseconds per stpete_state_clone(+ stpete_state_free, NULL) and per stpete_state_copy;
 *   - bytes per state (what stpete_state_new asks the allocator for);
 *   - heap allocations per game (through the options' allocator hooks, which count every call), after one warm-up
 *     game on the same state: a state's history (stpete_state_history) grows in its first games and is then
 *     reused by every reset;
 *   - JSON: ns per stpete_state_to_json and per stpete_state_from_json (+ free) of the sampled positions, bytes
 *     per text and MB/s (each text is first checked to load back to an equal position), and jansson alone on the
 *     same texts (json_dumpb of the loaded tree, json_loadb + json_decref): the floor of the library's JSON;
 *   - the search interface (issue 12), over the same sampled positions: ns per stpete_state_observation_tensor and
 *     per stpete_state_information_state_key (of the seat to act), and per stpete_state_undo (measured as
 *     undo + apply of the same action on clones taken along random games, minus the apply figure above);
 *   - random games in the explicit chance mode (stpete_options.chance_mode): at each chance node an outcome drawn
 *     by its probability (stpete_state_chance_outcomes), at each decision the random bot; games per second and
 *     their ratio to the sampled mode's games per second;
 *   - the ismcts bot (bots.h, default spec; --bot SPEC measures another) choosing for the first player of the
 *     opening position, again and again: iterations per second (--iterations: at least that many iterations),
 *     ms per decision, and the allocator calls per decision.
 * Timed parts run for --seconds each (default 1) unless --games / --iterations fix their size. --pick mask or
 * --pick listing makes the first run of games pick that way (for a profile of that way). --games-only plays the random games and
 * prints their digest, nothing else: `valgrind --tool=callgrind stpete-bench --players 2
 * --games 300 --seed 11 --games-only` profiles the games alone (doc/performance.md). --warm-up plays the random
 * games once, untimed, before the timed run of the same games (with --games both must give the same digest): a
 * just-in-time compiler (V8 running the wasm build) is then measured on its optimized code. --json prints one
 * JSON object instead of text. Only the public API is used.
 *
 * A tool, not part of the library. Its modules: measure.c (every measurement of one player count), report.c
 * (the text and JSON output), main.c (options, --help). This header is internal to the program (not installed). */
#ifndef STPETE_TOOLS_BENCH_H
#define STPETE_TOOLS_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include <stpete/bots.h>

/* How the random games pick and apply an action (--pick): the playout step stpete_state_apply_random (play), or
 * stpete_state_random_action then stpete_state_apply (mask), or the listing stpete_state_legal_actions, the
 * listed id at the random index, then stpete_state_apply (listing). The same action every way. */
enum pick_way { WAY_PLAY, WAY_MASK, WAY_LISTING, WAYS };
extern const char *const pick_way_names[WAYS];

/* What one player count measured (measure.c), what the output prints (report.c). */
typedef struct result {
    int players;
    long games;
    long moves;
    double games_seconds; /* CPU time, as every *_seconds below */
    double games_wall_seconds;
    uint64_t digest;
    uint64_t warm_up_digest; /* --warm-up: the digest of the untimed first run of the same games */
    double allocs_per_game;
    long replay_actions;
    double replay_seconds;
    long replay_listed_actions;
    double replay_listed_seconds; /* the same replay with one listing before each apply */
    long listings;
    double listing_seconds;
    long picks;
    double pick_seconds; /* listing + one random pick: the floor of a random playout step without apply */
    long mask_picks;
    double mask_pick_seconds; /* one PRNG call + stpete_state_random_action */
    int way_first; /* the way the games above picked (--pick): a pick_way */
    long way_games[WAYS], way_moves[WAYS]; /* the same games played each way (the first way's are the above) */
    double way_seconds[WAYS];
    long clones;
    double clone_seconds;
    long copies;
    double copy_seconds;
    long serialized, parsed;
    double serialize_seconds, parse_seconds;
    double json_bytes;    /* mean length of a state's JSON text */
    long jansson_loaded, jansson_dumped;
    double jansson_load_seconds, jansson_dump_seconds; /* jansson alone on the same texts: the format's floor */
    size_t state_bytes;
    long ismcts_decisions;
    uint64_t ismcts_iterations;
    double ismcts_seconds;
    double ismcts_allocs;  /* allocator calls per decision */
    char bot_spec[STPETE_BOT_SPEC_MAX]; /* the canonical spec of the bot measured */
    long tensors, keys, undos;
    double tensor_seconds, key_seconds, undo_seconds; /* undo_seconds: undo + apply */
    long chance_games, chance_moves;
    double chance_seconds;
} result;

/* The options (main.c). */
typedef struct config {
    stpete_options opts; /* the game's options (the library's table: --option NAME=VALUE, --edition, ...) */
    int players;     /* 0 = every player count the options allow (2-4, or 2-5 with the New Society) */
    uint64_t seed;
    long games;      /* 0 = timed */
    double seconds;
    long iterations; /* 0 = timed */
    int json;
    const char *bot; /* the spec of the bot measured (default "ismcts") */
    int games_only;  /* --games-only: the random games and their digest, nothing else (for profilers) */
    int way;         /* --pick: how the first run of random games picks (a pick_way) */
    int warm_up;     /* --warm-up: the random games played once, untimed, before the timed run (for a JIT) */
} config;

/* measure.c: measure everything for one player count into *r. 0, or nonzero (after a message on stderr). */
int run_players(const config *cfg, int players, result *r);
/* report.c: one player count's measures as text on stdout. */
void print_text(const result *r);
/* report.c: the measures of n player counts as one JSON object on stdout. */
void print_json(const result *rs, int n, const config *cfg);

#endif
