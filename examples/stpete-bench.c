/* stpete-bench: how fast the engine plays, on one core.
 *
 *   stpete-bench [--players 2|3|4] [--edition 1|2] [--seed S] [--games G] [--seconds T] [--iterations N]
 *                [--bot SPEC] [--json] [--games-only]
 *
 * Pin it to one core yourself: `taskset -c 0 ./build/examples/stpete-bench`. Measures, for each player count
 * (all three unless --players is given):
 *   - random full games per second: stpete_state_reset, then until the end a uniform random legal action and
 *     stpete_state_apply, the action picked two ways: from the legality masks (stpete_state_random_action, a
 *     playout's way since 0.4) and by listing (stpete_state_legal_actions into a caller buffer, then the listed id
 *     at the random index). The random bot is stpete-selfplay's `random` bot (splitmix64 seeded with
 *     seed ^ 0xB0751E5, index = next % count of the sorted legal list; stpete_state_random_action picks that same
 *     action) and game g uses seed S + g, so `stpete-bench --games G --seed S` plays exactly the games of
 *     `stpete-selfplay --games G --seed S --bots random` (both print the same digest of every action and final
 *     score; tests/bench-check.py compares them; the two ways must give the same digest, or the bench fails);
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
 * Timed parts run for --seconds each (default 1) unless --games / --iterations fix their size. --pick listing makes
 * the first run of games pick from the listing (for a profile of that way). --games-only plays the random games and
 * prints their digest, nothing else: `valgrind --tool=callgrind stpete-bench --players 2
 * --games 300 --seed 11 --games-only` profiles the games alone (README "Performance"). --json prints one
 * JSON object instead of text. Only the public API is used. */
#define _POSIX_C_SOURCE 199309L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>
#include <stpete/bots.h>
#include <stpete/stpete.h>

#include "cli.h"

/* ---- the counting allocator --------------------------------------------------------------------- */

typedef struct counter {
    unsigned long long calls; /* malloc_fn + realloc_fn calls */
    unsigned long long frees;
    size_t last_size;         /* size of the last request */
} counter;

static void *count_malloc(void *user, size_t size)
{
    counter *c = user;
    c->calls++;
    c->last_size = size;
    return malloc(size);
}

static void *count_realloc(void *user, void *ptr, size_t size)
{
    counter *c = user;
    c->calls++;
    c->last_size = size;
    return realloc(ptr, size);
}

static void count_free(void *user, void *ptr)
{
    counter *c = user;
    c->frees++;
    free(ptr);
}

/* ---- clock and the random bot ------------------------------------------------------------------- */

/* Wall-clock time, for the --seconds budgets. */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* CPU time of the process: the rates are computed from it, so that other programs sharing the core (a busy
 * machine) do not count against the engine. On an idle core it equals the wall-clock time. Read only at the start
 * and end of a measurement (it is a system call). */
static double cpu_now(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
        return now();
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* splitmix64, exactly as stpete-selfplay's random bot. */
static uint64_t next_random(uint64_t *x)
{
    uint64_t z = (*x += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* The digest of a run (FNV-1a style over 64-bit words), the same function as stpete-selfplay's. */
static uint64_t digest_add(uint64_t h, uint64_t word)
{
    return (h ^ word) * UINT64_C(0x100000001B3);
}

#define DIGEST_INIT UINT64_C(0xCBF29CE484222325)

/* ---- one player count --------------------------------------------------------------------------- */

enum { SAMPLE_POSITIONS = 1024, RECORD_CAP = 1 << 16 };

typedef struct result {
    int players;
    long games;
    long moves;
    double games_seconds; /* CPU time, as every *_seconds below */
    double games_wall_seconds;
    uint64_t digest;
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
    int listing_first; /* the games above picked from the listing (--pick listing), the other games from the masks */
    long other_games, other_moves; /* the same games again, each action picked the other way */
    double other_games_seconds;
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

typedef struct config {
    int players;     /* 0 = 2, 3 and 4 */
    int edition;     /* 1 or 2 (§11) */
    uint64_t seed;
    long games;      /* 0 = timed */
    double seconds;
    long iterations; /* 0 = timed */
    int json;
    const char *bot; /* the spec of the bot measured (default "ismcts") */
    int games_only;  /* --games-only: the random games and their digest, nothing else (for profilers) */
    int listing;     /* --pick listing: the first run of random games picks from the listing, not the masks */
} config;

static int die(const char *what, int rc)
{
    fprintf(stderr, "stpete-bench: %s: %s\n", what, stpete_strerror(rc));
    return rc ? rc : 1;
}

/* Play random games (selfplay's random bot) until `games` are played, or for `seconds` if games is 0, each action
 * picked from the listing (listing = 1) or the masks (stpete_state_random_action). Records the first RECORD_CAP
 * actions (with the game boundaries) for the apply-only replay, and samples positions. */
static int play_games(const config *cfg, int listing, stpete_state *st, result *r, int *record, long *recorded,
                      long *record_games, stpete_state **sample)
{
    uint64_t h = DIGEST_INIT;
    long g = 0, moves = 0, sampled = 0;
    int record_full = 0;
    *recorded = 0;
    *record_games = 0;
    double start = now(), elapsed = 0, cpu = cpu_now();
    for (;;) {
        if (cfg->games ? g >= cfg->games : (elapsed = now() - start) >= cfg->seconds)
            break;
        uint64_t seed = cfg->seed + (uint64_t)g;
        int rc = stpete_state_reset(st, seed);
        if (rc)
            return die("reset", rc);
        uint64_t rng = seed ^ UINT64_C(0xB0751E5);
        long game_start = *recorded;
        int recording = record && !record_full;
        while (!cli_over(st)) {
            int id = 0;
            if (listing) {
                int ids[STPETE_MAX_LEGAL_ACTIONS];
                size_t n = 0;
                stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS, &n);
                id = ids[next_random(&rng) % n];
            } else {
                stpete_state_random_action(st, next_random(&rng), &id);
            }
            /* every 11th position of the first games (about 70 with 2 players), kept for the listing, clone and copy
             * benchmarks: enough positions that the branch predictor cannot learn them */
            if (sample && sampled < SAMPLE_POSITIONS && moves % 11 == 0)
                stpete_state_copy(sample[sampled++], st);
            if (recording) {
                if (*recorded < RECORD_CAP)
                    record[(*recorded)++] = id;
                else
                    recording = 0, record_full = 1;
            }
            rc = stpete_state_apply(st, id);
            if (rc)
                return die(stpete_state_last_error(st), rc);
            h = digest_add(h, (uint64_t)id);
            moves++;
        }
        if (recording)
            ++*record_games;
        else
            *recorded = game_start;
        for (int s = 0; s < r->players; s++) {
            stpete_score sc = STPETE_SCORE_INIT;
            stpete_state_get_score(st, s, &sc);
            h = digest_add(h, (uint64_t)(int64_t)sc.total);
        }
        g++;
    }
    r->games_seconds = cpu_now() - cpu;
    r->games_wall_seconds = now() - start;
    r->games = g;
    r->moves = moves;
    r->digest = h;
    return 0;
}

/* Sums of listed ids and lengths, so that the compiler cannot drop what is measured. */
static volatile long sink;

/* Apply only: replay the recorded games (reset + the recorded ids) until the time or iteration budget is used.
 * With `listing`, each apply is preceded by a legal-action listing of the position: the difference between the two
 * replays is what a listing costs at the positions of a game, which the branch predictor has not seen before (the
 * listing figure below cycles through the same sampled positions and so measures it on trained predictors). */
static int replay(const config *cfg, stpete_state *st, const int *record, long recorded, long record_games, int listing,
                  result *r)
{
    long listed = 0;
    long actions = 0, rounds = 0;
    double start = now(), elapsed = 0, cpu = cpu_now();
    while (cfg->iterations ? actions < cfg->iterations : (elapsed = now() - start) < cfg->seconds) {
        long i = 0;
        for (long g = 0; g < record_games; g++) {
            stpete_state_reset(st, cfg->seed + (uint64_t)g);
            while (!cli_over(st)) {
                if (listing) {
                    int ids[STPETE_MAX_LEGAL_ACTIONS];
                    size_t n = 0;
                    stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS, &n);
                    listed += (long)n;
                }
                int rc = stpete_state_apply(st, record[i++]);
                if (rc)
                    return die(stpete_state_last_error(st), rc);
            }
        }
        actions += recorded;
        rounds++;
    }
    sink = listed;
    if (listing) {
        r->replay_listed_actions = actions;
        r->replay_listed_seconds = cpu_now() - cpu;
    } else {
        r->replay_actions = actions;
        r->replay_seconds = cpu_now() - cpu;
    }
    return 0;
}

static void bench_listing(const config *cfg, stpete_state **sample, result *r)
{
    long listings = 0, sum = 0;
    double start = now(), elapsed = 0, cpu = cpu_now();
    while (cfg->iterations ? listings < cfg->iterations : (elapsed = now() - start) < cfg->seconds) {
        for (int k = 0; k < 16; k++) /* 16 passes between clock reads */
            for (int i = 0; i < SAMPLE_POSITIONS; i++) {
                int ids[STPETE_MAX_LEGAL_ACTIONS];
                size_t n = 0;
                stpete_state_legal_actions(sample[i], ids, STPETE_MAX_LEGAL_ACTIONS, &n);
                sum += (long)n + ids[0];
            }
        listings += 16L * SAMPLE_POSITIONS;
    }
    sink = sum;
    r->listings = listings;
    r->listing_seconds = cpu_now() - cpu;
}

/* The floor of one random playout step without its apply, over the sampled positions: one PRNG call and a pick,
 * from a listing (one legal-action listing, then the listed id at the random index) or, with `mask`, from the masks
 * (stpete_state_random_action). ns per action in games minus this is what apply (and the game loop) costs. */
static void bench_pick(const config *cfg, stpete_state **sample, int mask, result *r)
{
    long picks = 0, sum = 0;
    uint64_t rng = cfg->seed;
    double start = now(), elapsed = 0, cpu = cpu_now();
    while (cfg->iterations ? picks < cfg->iterations : (elapsed = now() - start) < cfg->seconds) {
        for (int k = 0; k < 16; k++)
            for (int i = 0; i < SAMPLE_POSITIONS; i++) {
                int ids[STPETE_MAX_LEGAL_ACTIONS], id = 0;
                size_t n = 0;
                if (mask) {
                    stpete_state_random_action(sample[i], next_random(&rng), &id);
                } else {
                    stpete_state_legal_actions(sample[i], ids, STPETE_MAX_LEGAL_ACTIONS, &n);
                    id = ids[next_random(&rng) % n];
                }
                sum += id;
            }
        picks += 16L * SAMPLE_POSITIONS;
    }
    sink = sum;
    *(mask ? &r->mask_picks : &r->picks) = picks;
    *(mask ? &r->mask_pick_seconds : &r->pick_seconds) = cpu_now() - cpu;
}

/* The random games again, as many, with the other pick (listing or masks): their rate, and the same digest. */
static int other_pick_games(const config *cfg, stpete_state *st, result *r)
{
    config again = *cfg;
    again.games = r->games;
    result other;
    memset(&other, 0, sizeof other);
    other.players = r->players;
    long recorded = 0, record_games = 0;
    int rc = play_games(&again, !cfg->listing, st, &other, NULL, &recorded, &record_games, NULL);
    if (rc)
        return rc;
    if (other.digest != r->digest) {
        fprintf(stderr, "stpete-bench: the games picked from the listing and from the masks differ (digests %016" PRIx64
                        " and %016" PRIx64 ")\n", r->digest, other.digest);
        return 1;
    }
    r->other_games = other.games;
    r->other_moves = other.moves;
    r->other_games_seconds = other.games_seconds;
    return 0;
}

static int bench_clone_copy(const config *cfg, stpete_state **sample, result *r)
{
    long n = 0;
    double start = now(), elapsed = 0, cpu = cpu_now();
    while (cfg->iterations ? n < cfg->iterations : (elapsed = now() - start) < cfg->seconds) {
        for (int i = 0; i < SAMPLE_POSITIONS; i++) {
            stpete_state *c = NULL;
            int rc = stpete_state_clone(sample[i], &c, NULL);
            if (rc)
                return die("clone", rc);
            stpete_state_free(c);
        }
        n += SAMPLE_POSITIONS;
    }
    r->clones = n;
    r->clone_seconds = cpu_now() - cpu;

    n = 0;
    start = now();
    elapsed = 0;
    cpu = cpu_now();
    while (cfg->iterations ? n < cfg->iterations : (elapsed = now() - start) < cfg->seconds) {
        for (int k = 0; k < 16; k++)
            for (int i = 1; i < SAMPLE_POSITIONS; i++)
                stpete_state_copy(sample[0], sample[i]); /* same game: always succeeds */
        n += 16L * (SAMPLE_POSITIONS - 1);
    }
    r->copies = n;
    r->copy_seconds = cpu_now() - cpu;
    return 0;
}

/* jansson alone on the same texts (the library reads and writes state JSON with jansson): json_loadb + json_decref
 * of each text, and json_dumpb of each loaded tree with the flags the library writes states with (compact, ASCII).
 * The floor of the format as the library does it: what stpete_state_from_json and stpete_state_to_json add on top is
 * the checks of a position and the building of the tree. */
static int bench_jansson(const config *cfg, char **texts, const size_t *lens, char *buf, size_t cap, result *r)
{
    json_t *trees[SAMPLE_POSITIONS] = { NULL };
    json_error_t err;
    int rc = STPETE_OK;
    long n = 0;
    size_t sum = 0;
    double start = now(), elapsed = 0, cpu = cpu_now();
    while (rc == STPETE_OK && (cfg->iterations ? n < cfg->iterations : (elapsed = now() - start) < cfg->seconds)) {
        for (int i = 0; i < SAMPLE_POSITIONS && rc == STPETE_OK; i++) {
            json_t *t = json_loadb(texts[i], lens[i], 0, &err);
            if (!t)
                rc = STPETE_E_PARSE;
            json_decref(t);
        }
        n += SAMPLE_POSITIONS;
    }
    r->jansson_loaded = n;
    r->jansson_load_seconds = cpu_now() - cpu;
    for (int i = 0; i < SAMPLE_POSITIONS && rc == STPETE_OK; i++)
        if (!(trees[i] = json_loadb(texts[i], lens[i], 0, &err)))
            rc = STPETE_E_PARSE;
    n = 0;
    start = now();
    elapsed = 0;
    cpu = cpu_now();
    while (rc == STPETE_OK && (cfg->iterations ? n < cfg->iterations : (elapsed = now() - start) < cfg->seconds)) {
        for (int i = 0; i < SAMPLE_POSITIONS; i++)
            sum += json_dumpb(trees[i], buf, cap, JSON_COMPACT | JSON_ENSURE_ASCII);
        n += SAMPLE_POSITIONS;
    }
    r->jansson_dumped = n;
    r->jansson_dump_seconds = cpu_now() - cpu;
    sink = (long)sum;
    for (int i = 0; i < SAMPLE_POSITIONS; i++)
        json_decref(trees[i]);
    return rc;
}

/* JSON: stpete_state_to_json of the sampled positions into a caller buffer, then stpete_state_from_json of those
 * texts (a new state each time, freed). Each text is checked to load back to an equal position first. */
static int bench_json(const config *cfg, const stpete_game *game, stpete_state **sample, result *r)
{
    enum { JSON_CAP = 1 << 15 };
    char *buf = malloc(JSON_CAP);
    char **texts = calloc(SAMPLE_POSITIONS, sizeof *texts);
    size_t *lens = calloc(SAMPLE_POSITIONS, sizeof *lens);
    int rc = buf && texts && lens ? STPETE_OK : STPETE_E_OUT_OF_MEMORY;
    double total = 0;
    for (int i = 0; i < SAMPLE_POSITIONS && rc == STPETE_OK; i++) {
        rc = stpete_state_to_json(sample[i], buf, JSON_CAP, &lens[i]);
        texts[i] = rc == STPETE_OK ? malloc(lens[i] + 1) : NULL;
        if (rc == STPETE_OK && !texts[i])
            rc = STPETE_E_OUT_OF_MEMORY;
        if (rc == STPETE_OK) {
            memcpy(texts[i], buf, lens[i] + 1);
            total += (double)lens[i];
            stpete_state *back = NULL;
            rc = stpete_state_from_json(game, texts[i], lens[i], &back, NULL);
            if (rc == STPETE_OK && !cli_same(back, sample[i]))
                rc = STPETE_E_MISMATCH;
            stpete_state_free(back);
        }
    }
    if (rc == STPETE_OK) {
        r->json_bytes = total / SAMPLE_POSITIONS;
        long n = 0;
        size_t len = 0, sum = 0;
        double start = now(), elapsed = 0, cpu = cpu_now();
        while (cfg->iterations ? n < cfg->iterations : (elapsed = now() - start) < cfg->seconds) {
            for (int i = 0; i < SAMPLE_POSITIONS; i++) {
                stpete_state_to_json(sample[i], buf, JSON_CAP, &len);
                sum += len;
            }
            n += SAMPLE_POSITIONS;
        }
        r->serialized = n;
        r->serialize_seconds = cpu_now() - cpu;
        sink = (long)sum;

        n = 0;
        start = now();
        elapsed = 0;
        cpu = cpu_now();
        while (rc == STPETE_OK && (cfg->iterations ? n < cfg->iterations : (elapsed = now() - start) < cfg->seconds)) {
            for (int i = 0; i < SAMPLE_POSITIONS && rc == STPETE_OK; i++) {
                stpete_state *st = NULL;
                rc = stpete_state_from_json(game, texts[i], lens[i], &st, NULL);
                stpete_state_free(st);
            }
            n += SAMPLE_POSITIONS;
        }
        r->parsed = n;
        r->parse_seconds = cpu_now() - cpu;
    }
    if (rc == STPETE_OK)
        rc = bench_jansson(cfg, texts, lens, buf, JSON_CAP, r);
    for (int i = 0; texts && i < SAMPLE_POSITIONS; i++)
        free(texts[i]);
    free(texts);
    free(lens);
    free(buf);
    return rc == STPETE_OK ? 0 : die("JSON", rc);
}

/* The search interface (issue 12) over the sampled positions: the observation tensor and the information-state
 * key of the seat to act (seat 0 at the end). Undo needs a history, which the sampled positions (copies) do not
 * have: UNDO_POSITIONS clones taken along random games (stpete_state_clone keeps the history, of every depth up to
 * a whole game) each undo their last action and apply it again (the apply cost, measured alone above, is
 * subtracted when printed). */
enum { UNDO_POSITIONS = 256 };

static int bench_search(const config *cfg, const stpete_game *game, stpete_state **sample, result *r)
{
    int size = stpete_game_observation_tensor_size(game);
    float *tensor = malloc((size_t)size * sizeof *tensor);
    stpete_state *play = NULL, *deep[UNDO_POSITIONS] = { NULL };
    int last[UNDO_POSITIONS];
    int rc = tensor ? stpete_state_clone(sample[0], &play, NULL) : STPETE_E_OUT_OF_MEMORY;
    uint64_t rng = cfg->seed ^ UINT64_C(0x756E646F);
    for (int j = 0, g = 0; rc == STPETE_OK && j < UNDO_POSITIONS; g++) {
        rc = stpete_state_reset(play, cfg->seed + 1000003u * (uint64_t)(g + 1));
        for (long m = 0; rc == STPETE_OK && j < UNDO_POSITIONS && !cli_over(play); m++) {
            int ids[STPETE_MAX_LEGAL_ACTIONS];
            size_t k = 0;
            stpete_state_legal_actions(play, ids, STPETE_MAX_LEGAL_ACTIONS, &k);
            int id = ids[next_random(&rng) % k];
            rc = stpete_state_apply(play, id);
            if (rc == STPETE_OK && m % 7 == 3) {
                last[j] = id;
                rc = stpete_state_clone(play, &deep[j++], NULL);
            }
        }
    }
    if (rc != STPETE_OK) {
        for (int j = 0; j < UNDO_POSITIONS; j++)
            stpete_state_free(deep[j]);
        stpete_state_free(play);
        free(tensor);
        return die("search setup", rc);
    }
    int seat[SAMPLE_POSITIONS];
    for (int i = 0; i < SAMPLE_POSITIONS; i++) {
        int p = stpete_state_current_player(sample[i]);
        seat[i] = p >= 0 ? p : 0;
    }
    long n = 0;
    float fsum = 0;
    double start = now(), cpu = cpu_now();
    while (cfg->iterations ? n < cfg->iterations : now() - start < cfg->seconds) {
        for (int i = 0; i < SAMPLE_POSITIONS; i++) {
            stpete_state_observation_tensor(sample[i], seat[i], tensor, (size_t)size);
            fsum += tensor[i % size];
        }
        n += SAMPLE_POSITIONS;
    }
    r->tensor_seconds = cpu_now() - cpu;
    r->tensors = n;
    sink = (long)fsum;

    n = 0;
    uint64_t ksum = 0;
    start = now();
    cpu = cpu_now();
    while (cfg->iterations ? n < cfg->iterations : now() - start < cfg->seconds) {
        for (int k = 0; k < 16; k++)
            for (int i = 0; i < SAMPLE_POSITIONS; i++) {
                uint64_t key = 0;
                stpete_state_information_state_key(sample[i], seat[i], &key);
                ksum += key;
            }
        n += 16L * SAMPLE_POSITIONS;
    }
    r->key_seconds = cpu_now() - cpu;
    r->keys = n;
    sink = (long)ksum;

    n = 0;
    start = now();
    cpu = cpu_now();
    while (rc == STPETE_OK && (cfg->iterations ? n < cfg->iterations : now() - start < cfg->seconds)) {
        for (int j = 0; j < UNDO_POSITIONS && rc == STPETE_OK; j++) {
            rc = stpete_state_undo(deep[j]);
            if (rc == STPETE_OK)
                rc = stpete_state_apply(deep[j], last[j]);
        }
        n += UNDO_POSITIONS;
    }
    r->undo_seconds = cpu_now() - cpu;
    r->undos = n;
    for (int j = 0; j < UNDO_POSITIONS; j++)
        stpete_state_free(deep[j]);
    stpete_state_free(play);
    free(tensor);
    return rc == STPETE_OK ? 0 : die("undo", rc);
}

/* Random games in the explicit chance mode: the same random bot at decisions, and at chance nodes an outcome drawn
 * by its probability (inverse CDF over stpete_state_chance_outcomes with a uniform double). */
static int bench_chance(const config *cfg, int players, result *r)
{
    stpete_options opts;
    stpete_options_init(&opts);
    opts.players = players;
    opts.edition = cfg->edition;
    opts.seed = cfg->seed;
    opts.chance_mode = STPETE_CHANCE_EXPLICIT;
    stpete_game *game = NULL;
    stpete_state *st = NULL;
    int rc = stpete_game_new(&opts, &game, NULL);
    if (rc == STPETE_OK)
        rc = stpete_state_new(game, &st, NULL);
    long g = 0, moves = 0;
    double start = now(), cpu = cpu_now();
    while (rc == STPETE_OK && (cfg->games ? g < cfg->games : now() - start < cfg->seconds)) {
        uint64_t seed = cfg->seed + (uint64_t)g;
        rc = stpete_state_reset(st, seed);
        uint64_t rng = seed ^ UINT64_C(0xB0751E5);
        while (rc == STPETE_OK && !cli_over(st)) {
            int ids[STPETE_MAX_LEGAL_ACTIONS];
            double prob[STPETE_MAX_LEGAL_ACTIONS];
            size_t k = 0;
            int id;
            if (stpete_state_current_player(st) == STPETE_PLAYER_CHANCE) {
                stpete_state_chance_outcomes(st, ids, prob, STPETE_MAX_LEGAL_ACTIONS, &k);
                double u = (double)(next_random(&rng) >> 11) * 0x1.0p-53;
                size_t i = 0;
                while (i + 1 < k && (u -= prob[i]) >= 0)
                    i++;
                id = ids[i];
            } else {
                stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS, &k);
                id = ids[next_random(&rng) % k];
            }
            rc = stpete_state_apply(st, id);
            moves++;
        }
        g++;
    }
    r->chance_seconds = cpu_now() - cpu;
    r->chance_games = g;
    r->chance_moves = moves;
    stpete_state_free(st);
    stpete_game_free(game);
    return rc == STPETE_OK ? 0 : die("explicit-chance games", rc);
}

/* The ismcts bot of bots.h with its default spec, choosing again and again for the first player of the opening
 * position (the same tree size each time): iterations (determinization + tree descent + playout) per second. */
static int bench_ismcts(const config *cfg, const stpete_game *game, const counter *cnt, result *r)
{
    stpete_bot *bot = NULL;
    stpete_state *st = NULL;
    stpete_error err = STPETE_ERROR_INIT;
    int rc = stpete_bot_new(game, cfg->bot, &bot, &err);
    size_t len;
    if (rc == STPETE_OK)
        rc = stpete_bot_spec(bot, r->bot_spec, sizeof r->bot_spec, &len);
    if (rc == STPETE_OK)
        rc = stpete_state_new(game, &st, NULL);
    long n = 0;
    uint64_t iterations = 0;
    unsigned long long before = cnt->calls;
    double start = now(), cpu = cpu_now();
    while (rc == STPETE_OK && (cfg->iterations ? iterations < (uint64_t)cfg->iterations
                                                : now() - start < cfg->seconds)) {
        int id;
        stpete_bot_stats bs = STPETE_BOT_STATS_INIT;
        rc = stpete_bot_choose(bot, st, &id);
        if (rc == STPETE_OK)
            rc = stpete_bot_get_stats(bot, &bs);
        iterations += bs.iterations;
        n++;
    }
    r->ismcts_seconds = cpu_now() - cpu;
    r->ismcts_decisions = n;
    r->ismcts_iterations = iterations;
    r->ismcts_allocs = n ? (double)(cnt->calls - before) / (double)n : 0;
    if (rc != STPETE_OK)
        fprintf(stderr, "stpete-bench: ismcts: %s\n", bot ? stpete_bot_last_error(bot) : err.message);
    stpete_state_free(st);
    stpete_bot_free(bot);
    return rc == STPETE_OK ? 0 : die("ismcts", rc);
}

/* Everything measured after the random games: the apply-only replays, listing and pick, clone and copy, JSON, the
 * search interface, explicit-chance games and the bot. */
static int measure_the_rest(const config *cfg, int players, const stpete_game *game, stpete_state *st, counter *cnt,
                            const int *record, long recorded, long record_games, stpete_state **sample, result *r)
{
    int rc = other_pick_games(cfg, st, r);
    if (rc == 0)
        rc = replay(cfg, st, record, recorded, record_games, 0, r);
    if (rc == 0)
        rc = replay(cfg, st, record, recorded, record_games, 1, r);
    if (rc == 0) {
        bench_listing(cfg, sample, r);
        bench_pick(cfg, sample, 0, r);
        bench_pick(cfg, sample, 1, r);
    }
    if (rc == 0)
        rc = bench_clone_copy(cfg, sample, r);
    if (rc == 0)
        rc = bench_json(cfg, game, sample, r);
    if (rc == 0)
        rc = bench_search(cfg, game, sample, r);
    if (rc == 0)
        rc = bench_chance(cfg, players, r);
    if (rc == 0)
        rc = bench_ismcts(cfg, game, cnt, r);
    return rc;
}

static int run_players(const config *cfg, int players, result *r)
{
    memset(r, 0, sizeof *r);
    r->players = players;
    counter cnt = { 0, 0, 0 };
    stpete_options opts;
    stpete_options_init(&opts);
    opts.players = players;
    opts.edition = cfg->edition;
    opts.seed = cfg->seed;
    opts.allocator.malloc_fn = count_malloc;
    opts.allocator.realloc_fn = count_realloc;
    opts.allocator.free_fn = count_free;
    opts.allocator.user = &cnt;
    stpete_game *game = NULL;
    stpete_state *st = NULL;
    stpete_state *sample[SAMPLE_POSITIONS] = { NULL };
    int *record = malloc(RECORD_CAP * sizeof *record);
    int rc = record ? stpete_game_new(&opts, &game, NULL) : STPETE_E_OUT_OF_MEMORY;
    if (rc == STPETE_OK)
        rc = stpete_state_new(game, &st, NULL);
    r->state_bytes = cnt.last_size;
    for (int i = 0; i < SAMPLE_POSITIONS && rc == STPETE_OK; i++)
        rc = stpete_state_clone(st, &sample[i], NULL);
    if (rc != STPETE_OK) {
        free(record);
        return die("setup", rc);
    }

    long recorded = 0, record_games = 0;
    /* warm-up: a first game grows the state's history buffers, which every later game reuses (not in the digest) */
    for (rc = stpete_state_reset(st, cfg->seed ^ UINT64_C(0x5741524D)); rc == STPETE_OK && !cli_over(st);) {
        int ids[STPETE_MAX_LEGAL_ACTIONS];
        size_t n = 0;
        stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS, &n);
        rc = stpete_state_apply(st, ids[n - 1 - (size_t)stpete_state_round(st) % n]);
    }
    if (rc != STPETE_OK) {
        free(record);
        return die("warm-up", rc);
    }
    unsigned long long before = cnt.calls;
    r->listing_first = cfg->listing;
    rc = play_games(cfg, cfg->listing, st, r, record, &recorded, &record_games, sample);
    r->allocs_per_game = r->games ? (double)(cnt.calls - before) / (double)r->games : 0;
    if (rc == 0 && !cfg->games_only) /* --games-only: every other measurement stays out of a profile */
        rc = measure_the_rest(cfg, players, game, st, &cnt, record, recorded, record_games, sample, r);

    for (int i = 0; i < SAMPLE_POSITIONS; i++)
        stpete_state_free(sample[i]);
    stpete_state_free(st);
    stpete_game_free(game);
    free(record);
    return rc;
}

/* ---- output ------------------------------------------------------------------------------------- */

static double per_second(long n, double s)
{
    return s > 0 ? (double)n / s : 0;
}

static double ns_per(double s, long n)
{
    return n > 0 ? s * 1e9 / (double)n : 0;
}

/* ns per listing at the positions of the recorded games: the replay with listings minus the replay without. */
static double listing_in_game_ns(const result *r)
{
    double d = ns_per(r->replay_listed_seconds, r->replay_listed_actions) - ns_per(r->replay_seconds, r->replay_actions);
    return d > 0 ? d : 0;
}

/* Games per second and ns per action of the random games with the pick from the masks (listing = 0) or from the
 * listing (listing = 1). */
static double games_rate(const result *r, int listing)
{
    return listing == r->listing_first ? per_second(r->games, r->games_seconds)
                                       : per_second(r->other_games, r->other_games_seconds);
}

static double action_ns(const result *r, int listing)
{
    return listing == r->listing_first ? ns_per(r->games_seconds, r->moves)
                                       : ns_per(r->other_games_seconds, r->other_moves);
}

static void print_text(const result *r)
{
    printf("%d players\n", r->players);
    printf("  random games:           %ld in %.3f s CPU = %.0f games/s (%.1f actions per game, %.1f ns per action "
           "incl. the pick from the %s)\n",
           r->games, r->games_seconds, per_second(r->games, r->games_seconds),
           r->games ? (double)r->moves / (double)r->games : 0, ns_per(r->games_seconds, r->moves),
           r->listing_first ? "listing" : "masks");
    printf("  random games, pick from the masks:   %.0f games/s (%.1f ns per action)\n", games_rate(r, 0),
           action_ns(r, 0));
    printf("  random games, listing + pick:        %.0f games/s (%.1f ns per action; masks / listing %.2fx)\n",
           games_rate(r, 1), action_ns(r, 1), games_rate(r, 1) > 0 ? games_rate(r, 0) / games_rate(r, 1) : 0);
    printf("  digest:                 %016" PRIx64 " (seeds from the --seed, same as stpete-selfplay --bots random)\n",
           r->digest);
    printf("  applied actions:        %.0f actions/s (%.1f ns per apply)\n",
           per_second(r->replay_actions, r->replay_seconds), ns_per(r->replay_seconds, r->replay_actions));
    printf("  legal-action listing:   %.1f ns (%.1f ns with one PRNG call and pick; gap to the in-game action: "
           "%.1f ns)\n",
           ns_per(r->listing_seconds, r->listings), ns_per(r->pick_seconds, r->picks),
           action_ns(r, 1) - ns_per(r->pick_seconds, r->picks));
    printf("  mask pick:              %.1f ns (one PRNG call and stpete_state_random_action; gap to the in-game "
           "action: %.1f ns)\n",
           ns_per(r->mask_pick_seconds, r->mask_picks), action_ns(r, 0) - ns_per(r->mask_pick_seconds, r->mask_picks));
    double learned = ns_per(r->listing_seconds, r->listings);
    printf("  listing at game positions: %.1f ns (the replay with a listing before each apply, minus the replay; "
           "%.2fx the listing on learned positions)\n",
           listing_in_game_ns(r), learned > 0 ? listing_in_game_ns(r) / learned : 0);
    printf("  clone (+ free):         %.1f ns\n", ns_per(r->clone_seconds, r->clones));
    printf("  copy into:              %.1f ns\n", ns_per(r->copy_seconds, r->copies));
    printf("  bytes per state:        %zu\n", r->state_bytes);
    printf("  heap allocations/game:  %.3f\n", r->allocs_per_game);
    printf("  JSON serialize:         %.0f ns per state (%.0f bytes, %.1f MB/s)\n",
           ns_per(r->serialize_seconds, r->serialized), r->json_bytes,
           per_second(r->serialized, r->serialize_seconds) * r->json_bytes / 1e6);
    printf("  JSON parse (+ free):    %.0f ns per state (%.1f MB/s)\n", ns_per(r->parse_seconds, r->parsed),
           per_second(r->parsed, r->parse_seconds) * r->json_bytes / 1e6);
    printf("  jansson alone:          %.0f ns per json_dumpb, %.0f ns per json_loadb + json_decref (same texts)\n",
           ns_per(r->jansson_dump_seconds, r->jansson_dumped), ns_per(r->jansson_load_seconds, r->jansson_loaded));
    double undo_ns = ns_per(r->undo_seconds, r->undos) - ns_per(r->replay_seconds, r->replay_actions);
    printf("  observation tensor:     %.1f ns\n", ns_per(r->tensor_seconds, r->tensors));
    printf("  information-state key:  %.1f ns\n", ns_per(r->key_seconds, r->keys));
    printf("  undo:                   %.1f ns (%.1f ns with the action applied again)\n", undo_ns > 0 ? undo_ns : 0,
           ns_per(r->undo_seconds, r->undos));
    printf("  explicit-chance games:  %.0f games/s (%.1f actions per game incl. chance outcomes; %.0f%% of the "
           "sampled mode's games/s)\n",
           per_second(r->chance_games, r->chance_seconds),
           r->chance_games ? (double)r->chance_moves / (double)r->chance_games : 0,
           per_second(r->games, r->games_seconds) > 0
               ? 100.0 * per_second(r->chance_games, r->chance_seconds) / per_second(r->games, r->games_seconds)
               : 0);
    printf("  bot %s:\n"
           "                          %.0f iterations/s from the opening position (%.1f ms per decision of %.0f "
           "iterations, %.1f allocations per decision)\n", r->bot_spec,
           per_second((long)r->ismcts_iterations, r->ismcts_seconds),
           r->ismcts_decisions ? 1e3 * r->ismcts_seconds / (double)r->ismcts_decisions : 0,
           r->ismcts_decisions ? (double)r->ismcts_iterations / (double)r->ismcts_decisions : 0, r->ismcts_allocs);
}

static void print_json(const result *rs, int n, const config *cfg)
{
    printf("{\"library\":\"%s\",\"seed\":%" PRIu64 ",\"edition\":%d,\"seconds\":%g,\"time\":\"process CPU time\","
           "\"results\":[",
           stpete_version(), cfg->seed, cfg->edition, cfg->seconds);
    for (int i = 0; i < n; i++) {
        const result *r = &rs[i];
        printf("%s{\"players\":%d,\"games\":%ld,\"actions\":%ld,\"games_seconds\":%.6f,"
               "\"games_wall_seconds\":%.6f,\"games_per_second\":%.1f,"
               "\"actions_per_game\":%.2f,\"ns_per_action_in_games\":%.2f,\"digest\":\"%016" PRIx64 "\","
               "\"applied_actions_per_second\":%.1f,\"ns_per_apply\":%.2f,\"ns_per_legal_listing\":%.2f,"
               "\"ns_per_listing_and_pick\":%.2f,\"ns_per_listing_at_game_positions\":%.2f,"
               "\"pick\":\"%s\",\"games_per_second_mask_pick\":%.1f,\"ns_per_action_in_games_mask_pick\":%.2f,"
               "\"games_per_second_listing_pick\":%.1f,\"ns_per_action_in_games_listing_pick\":%.2f,"
               "\"ns_per_mask_pick\":%.2f,"
               "\"ns_per_clone\":%.2f,\"ns_per_copy\":%.2f,\"bytes_per_state\":%zu,"
               "\"heap_allocations_per_game\":%.3f,\"json_bytes_per_state\":%.1f,\"ns_per_json_serialize\":%.1f,"
               "\"ns_per_json_parse\":%.1f,\"ns_per_jansson_dump\":%.1f,\"ns_per_jansson_load\":%.1f,\"ismcts_iterations_per_second\":%.1f,"
               "\"ismcts_ms_per_decision\":%.3f,\"ismcts_allocations_per_decision\":%.2f,\"bot\":\"%s\","
               "\"ns_per_observation_tensor\":%.2f,\"ns_per_information_state_key\":%.2f,"
               "\"ns_per_undo_and_apply\":%.2f,\"explicit_chance_games\":%ld,"
               "\"explicit_chance_games_per_second\":%.1f,\"explicit_chance_actions_per_game\":%.2f}",
               i ? "," : "", r->players, r->games, r->moves, r->games_seconds, r->games_wall_seconds,
               per_second(r->games, r->games_seconds),
               r->games ? (double)r->moves / (double)r->games : 0, ns_per(r->games_seconds, r->moves), r->digest,
               per_second(r->replay_actions, r->replay_seconds), ns_per(r->replay_seconds, r->replay_actions),
               ns_per(r->listing_seconds, r->listings), ns_per(r->pick_seconds, r->picks), listing_in_game_ns(r),
               r->listing_first ? "listing" : "mask", games_rate(r, 0), action_ns(r, 0), games_rate(r, 1),
               action_ns(r, 1), ns_per(r->mask_pick_seconds, r->mask_picks),
               ns_per(r->clone_seconds, r->clones),
               ns_per(r->copy_seconds, r->copies), r->state_bytes, r->allocs_per_game, r->json_bytes,
               ns_per(r->serialize_seconds, r->serialized), ns_per(r->parse_seconds, r->parsed),
               ns_per(r->jansson_dump_seconds, r->jansson_dumped), ns_per(r->jansson_load_seconds, r->jansson_loaded),
               per_second((long)r->ismcts_iterations, r->ismcts_seconds),
               r->ismcts_decisions ? 1e3 * r->ismcts_seconds / (double)r->ismcts_decisions : 0, r->ismcts_allocs,
               r->bot_spec, ns_per(r->tensor_seconds, r->tensors), ns_per(r->key_seconds, r->keys),
               ns_per(r->undo_seconds, r->undos), r->chance_games, per_second(r->chance_games, r->chance_seconds),
               r->chance_games ? (double)r->chance_moves / (double)r->chance_games : 0);
    }
    printf("]}\n");
}

static void usage(FILE *out)
{
    fprintf(out,
            "Usage: stpete-bench [OPTION]...\n"
            "Measure the engine on one core: random full games per second, applied actions per second, ns per\n"
            "legal-action listing (on trained and on new positions), clone and copy, bytes per state, heap\n"
            "allocations per game, JSON serialize and parse throughput (and jansson's alone), observation\n"
            "tensor, information-state key and undo, explicit-chance games, and a bot's iterations per second.\n"
            "Rates are computed from the process's CPU time.\n"
            "Pin it to one core yourself: taskset -c 0 stpete-bench.\n"
            "\n"
            "Options:\n"
            "  --players N     measure one player count, 2, 3 or 4 (default: all three)\n"
            "  --edition E     1 = the first edition (default), 2 = the second-edition\n"
            "                  preset (rules, section 11)\n"
            "  --seed S        seed of the first game; game g uses S + g, the games of\n"
            "                  stpete-selfplay --bots random with the same seed (default 1)\n"
            "  --games G       play exactly G games per player count instead of a time budget\n"
            "  --seconds T     time budget of each measurement, in seconds (default 1)\n"
            "  --iterations N  exactly N iterations of each micro-measurement instead of a time budget\n"
            "  --bot SPEC      the bot whose iterations per second are measured (default\n"
            "                  ismcts; a spec of stpete/bots.h)\n"
            "  --json          print one JSON object instead of text\n"
            "  --pick WAY      how the random games pick an action: mask (default,\n"
            "                  stpete_state_random_action) or listing (stpete_state_legal_actions\n"
            "                  and the listed id); the other way is measured too, on the same games\n"
            "  --games-only    play the random games and print their digest, measure nothing\n"
            "                  else (a profiler then sees the games alone; with --json the\n"
            "                  other measures are 0)\n"
            "  -h, --help      show this help and exit\n"
            "  --version       show the version and exit\n");
}

int main(int argc, char **argv)
{
    config cfg = { 0, 1, 1, 0, 1.0, 0, 0, "ismcts", 0, 0 };
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        int common = cli_common("stpete-bench", arg, usage);
        if (common != CLI_NOT_COMMON) {
            return common;
        } else if (!strcmp(arg, "--json")) {
            cfg.json = 1;
            continue;
        } else if (!strcmp(arg, "--games-only")) {
            cfg.games_only = 1;
            continue;
        } else if (cli_check_value("stpete-bench", arg, val,
                                   "--pick --bot --players --edition --seed --games --seconds --iterations ")) {
            return CLI_USAGE_ERROR;
        } else if (!strcmp(arg, "--pick")) {
            cfg.listing = !strcmp(val, "listing");
            end = cfg.listing || !strcmp(val, "mask") ? (char *)val + strlen(val) : NULL;
        } else if (!strcmp(arg, "--bot")) {
            cfg.bot = val;
            end = (char *)val + strlen(val);
        } else if (!strcmp(arg, "--players")) {
            cfg.players = (int)strtol(val, &end, 10);
            if (cfg.players < STPETE_MIN_PLAYERS || cfg.players > STPETE_MAX_PLAYERS)
                end = NULL;
        } else if (!strcmp(arg, "--edition")) {
            cfg.edition = (int)strtol(val, &end, 10);
            if (cfg.edition != 1 && cfg.edition != 2)
                end = NULL;
        } else if (!strcmp(arg, "--seed")) {
            cfg.seed = strtoull(val, &end, 10);
        } else if (!strcmp(arg, "--games")) {
            cfg.games = strtol(val, &end, 10);
            if (cfg.games < 1)
                end = NULL;
        } else if (!strcmp(arg, "--seconds")) {
            cfg.seconds = strtod(val, &end);
            if (!(cfg.seconds > 0))
                end = NULL;
        } else if (!strcmp(arg, "--iterations")) {
            cfg.iterations = strtol(val, &end, 10);
            if (cfg.iterations < 1)
                end = NULL;
        }
        if (!end || end == val || *end) {
            fprintf(stderr, "stpete-bench: bad value for %s: %s\n", arg, val);
            return 2;
        }
        i++;
    }
    result rs[3];
    int n = 0;
    for (int p = STPETE_MIN_PLAYERS; p <= STPETE_MAX_PLAYERS; p++) {
        if (cfg.players && p != cfg.players)
            continue;
        if (run_players(&cfg, p, &rs[n]) != 0)
            return 1;
        if (!cfg.json && cfg.games_only)
            printf("%d players: %ld random games, %ld actions, digest %016" PRIx64 "\n", p, rs[n].games, rs[n].moves,
                   rs[n].digest);
        else if (!cfg.json)
            print_text(&rs[n]);
        n++;
    }
    if (cfg.json)
        print_json(rs, n, &cfg);
    return 0;
}
