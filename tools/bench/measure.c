/* stpete-bench: the measurements of one player count (bench.h describes each). */

#define _POSIX_C_SOURCE 199309L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>
#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#endif
#include <stpete/bots.h>
#include <stpete/stpete.h>
#include "cli.h"
#include "bench.h"

/* ---- the counting allocator --------------------------------------------------------------------- */

typedef struct counter {
    unsigned long long calls; /* malloc_fn + realloc_fn calls */
    unsigned long long frees;
    size_t last_size;         /* size of the last request */
} counter;

static void *measure_malloc(void *user, size_t size)
{
    counter *c = user;
    c->calls++;
    c->last_size = size;
    return malloc(size);
}

static void *measure_realloc(void *user, void *ptr, size_t size)
{
    counter *c = user;
    c->calls++;
    c->last_size = size;
    return realloc(ptr, size);
}

static void measure_free(void *user, void *ptr)
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
#ifdef __EMSCRIPTEN__
/* WebAssembly under Node: the process's CPU time (process.cpuUsage(), every thread of it: V8's compilers and
 * collector too), which emscripten's clocks do not give (they are wall time); -1 in a browser. */
EM_JS(double, node_cpu_seconds, (void), {
    if (typeof process === 'undefined' || !process.cpuUsage) return -1;
    var u = process.cpuUsage();
    return (u.user + u.system) / 1e6;
});
#endif

static double cpu_now(void)
{
#ifdef __EMSCRIPTEN__
    double t = node_cpu_seconds();
    if (t >= 0)
        return t;
#endif
    struct timespec ts;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
        return now();
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* splitmix64, exactly as stpete-selfplay's random bot. */
static uint64_t measure_random(uint64_t *x)
{
    return stpete_splitmix64(x);
}

/* The digest of a run (FNV-1a style over 64-bit words), the same function as stpete-selfplay's. */
static uint64_t digest_add(uint64_t h, uint64_t word)
{
    return (h ^ word) * UINT64_C(0x100000001B3);
}

#define DIGEST_INIT UINT64_C(0xCBF29CE484222325)

/* ---- one player count --------------------------------------------------------------------------- */

enum { SAMPLE_POSITIONS = 1024, RECORD_CAP = 1 << 16 };

static int bench_die(const char *what, int rc)
{
    fprintf(stderr, "stpete-bench: %s: %s\n", what, stpete_strerror(rc));
    return rc ? rc : 1;
}

const char *const pick_way_names[WAYS] = { "play", "mask", "listing" };

/* One random action (selfplay's random bot) picked and applied the given way (enum pick_way), into *id:
 * STPETE_OK; STPETE_E_GAME_OVER at the end of the game; or apply's failure. */
static inline int measure_random_step(stpete_state *st, int way, uint64_t *rng, int *id)
{
    if (way == WAY_PLAY) /* the playout step: pick and apply in one call, which says when the game is over */
        return stpete_state_apply_random(st, measure_random(rng), STPETE_PICK_MODULO, id);
    if (stpete_state_is_terminal_or(st, 1))
        return STPETE_E_GAME_OVER;
    if (way == WAY_LISTING) {
        int ids[STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY];
        size_t n = 0;
        stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY, &n);
        *id = ids[measure_random(rng) % n];
    } else {
        stpete_state_random_action(st, measure_random(rng), id);
    }
    return stpete_state_apply(st, *id);
}

/* Play random games (selfplay's random bot) until `games` are played, or for `seconds` if games is 0, each action
 * picked and applied the given way (enum pick_way: the same action every way). Records the first RECORD_CAP
 * actions (with the game boundaries) for the apply-only replay, and samples positions. */
static int play_games(const config *cfg, int way, stpete_state *st, result *r, int *record, long *recorded,
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
            return bench_die("reset", rc);
        uint64_t rng = seed ^ STPETE_BOT_SEED_SALT;
        long game_start = *recorded;
        int recording = record && !record_full;
        for (;;) {
            int id = 0;
            /* every 11th position of the first games (about 70 with 2 players), kept for the listing, clone and copy
             * benchmarks: enough positions that the branch predictor cannot learn them */
            if (sample && sampled < SAMPLE_POSITIONS && moves % 11 == 0 && !stpete_state_is_terminal_or(st, 1))
                stpete_state_copy(sample[sampled++], st);
            rc = measure_random_step(st, way, &rng, &id);
            if (rc == STPETE_E_GAME_OVER)
                break;
            if (rc)
                return bench_die(stpete_state_last_error(st), rc);
            if (recording) {
                if (*recorded < RECORD_CAP)
                    record[(*recorded)++] = id;
                else
                    recording = 0, record_full = 1;
            }
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

/* --warm-up: the random games of the timed run played once before it, untimed, so that a just-in-time compiler
 * (V8 running the wasm build: its baseline tier first, optimized code for the hot functions later) has compiled
 * them; their digest goes to r->warm_up_digest (with --games the timed games must give the same). Nothing without
 * --warm-up. */
static int warm_up(const config *cfg, stpete_state *st, result *r)
{
    if (!cfg->warm_up)
        return 0;
    result w = *r;
    long recorded = 0, record_games = 0;
    int rc = play_games(cfg, cfg->way, st, &w, NULL, &recorded, &record_games, NULL);
    r->warm_up_digest = w.digest;
    return rc;
}

/* Keep a sum of listed ids or lengths, so that the compiler cannot drop what is measured: a volatile store is
 * behaviour it must keep (a local, not a global: no state outlives the call). */
static void keep(long v)
{
    volatile long sink = v;
    (void)sink;
}

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
            while (!stpete_state_is_terminal_or(st, 1)) {
                if (listing) {
                    int ids[STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY];
                    size_t n = 0;
                    stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY, &n);
                    listed += (long)n;
                }
                int rc = stpete_state_apply(st, record[i++]);
                if (rc)
                    return bench_die(stpete_state_last_error(st), rc);
            }
        }
        actions += recorded;
        rounds++;
    }
    keep(listed);
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
                int ids[STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY];
                size_t n = 0;
                stpete_state_legal_actions(sample[i], ids, STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY, &n);
                sum += (long)n + ids[0];
            }
        listings += 16L * SAMPLE_POSITIONS;
    }
    keep(sum);
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
                int ids[STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY], id = 0;
                size_t n = 0;
                if (mask) {
                    stpete_state_random_action(sample[i], measure_random(&rng), &id);
                } else {
                    stpete_state_legal_actions(sample[i], ids, STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY, &n);
                    id = ids[measure_random(&rng) % n];
                }
                sum += id;
            }
        picks += 16L * SAMPLE_POSITIONS;
    }
    keep(sum);
    *(mask ? &r->mask_picks : &r->picks) = picks;
    *(mask ? &r->mask_pick_seconds : &r->pick_seconds) = cpu_now() - cpu;
}

/* The random games again, as many, with each other way of picking (enum pick_way): their rates, and the same
 * digest. */
static int other_pick_games(const config *cfg, stpete_state *st, result *r)
{
    config again = *cfg;
    again.games = r->games;
    for (int way = 0; way < WAYS; way++) {
        if (way == r->way_first)
            continue;
        result other;
        memset(&other, 0, sizeof other);
        other.players = r->players;
        long recorded = 0, record_games = 0;
        int rc = play_games(&again, way, st, &other, NULL, &recorded, &record_games, NULL);
        if (rc)
            return rc;
        if (other.digest != r->digest) {
            fprintf(stderr, "stpete-bench: the games picked by %s and by %s differ (digests %016" PRIx64
                            " and %016" PRIx64 ")\n", pick_way_names[r->way_first], pick_way_names[way], r->digest,
                    other.digest);
            return 1;
        }
        r->way_games[way] = other.games;
        r->way_moves[way] = other.moves;
        r->way_seconds[way] = other.games_seconds;
    }
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
                return bench_die("clone", rc);
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
    keep((long)sum);
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
            if (rc == STPETE_OK && !stpete_state_equal_or(back, sample[i], 0))
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
        keep((long)sum);

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
    return rc == STPETE_OK ? 0 : bench_die("JSON", rc);
}

/* The search interface (issue 12) over the sampled positions: the observation tensor and the information-state
 * key of the seat to act (seat 0 at the end). Undo needs a history, which the sampled positions (copies) do not
 * have: UNDO_POSITIONS clones taken along random games (stpete_state_clone keeps the history, of every depth up to
 * a whole game) each undo their last action and apply it again (the apply cost, measured alone above, is
 * subtracted when printed). */
enum { UNDO_POSITIONS = 256 };

/* The positions undo is timed on: clones taken along random games (every 7th move from the 4th), with the action
 * that led to each. STPETE_OK, or the failing status (what was cloned is freed by the caller). */
static int undo_positions(const config *cfg, stpete_state *play, stpete_state **deep, int *last)
{
    int rc = STPETE_OK;
    uint64_t rng = cfg->seed ^ UINT64_C(0x756E646F);
    for (int j = 0, g = 0; rc == STPETE_OK && j < UNDO_POSITIONS; g++) {
        rc = stpete_state_reset(play, cfg->seed + 1000003u * (uint64_t)(g + 1));
        for (long m = 0; rc == STPETE_OK && j < UNDO_POSITIONS && !stpete_state_is_terminal_or(play, 1); m++) {
            int ids[STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY];
            size_t k = 0;
            stpete_state_legal_actions(play, ids, STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY, &k);
            int id = ids[measure_random(&rng) % k];
            rc = stpete_state_apply(play, id);
            if (rc == STPETE_OK && m % 7 == 3) {
                last[j] = id;
                rc = stpete_state_clone(play, &deep[j++], NULL);
            }
        }
    }
    return rc;
}

/* Time the observation tensors and the information-state keys of the sampled positions, each of its seat. */
static void time_views(const config *cfg, stpete_state **sample, const int *seat, float *tensor, int size, result *r)
{
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
    keep((long)fsum);

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
    keep((long)ksum);
}

/* Time undo and the apply again of the undo positions. STPETE_OK, or the failing status. */
static int time_undos(const config *cfg, stpete_state **deep, const int *last, result *r)
{
    int rc = STPETE_OK;
    long n = 0;
    double start = now(), cpu = cpu_now();
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
    return rc;
}

static int bench_search(const config *cfg, const stpete_game *game, stpete_state **sample, result *r)
{
    int size = stpete_game_observation_tensor_size(game);
    float *tensor = malloc((size_t)size * sizeof *tensor);
    stpete_state *play = NULL, *deep[UNDO_POSITIONS] = { NULL };
    int last[UNDO_POSITIONS];
    int rc = tensor ? stpete_state_clone(sample[0], &play, NULL) : STPETE_E_OUT_OF_MEMORY;
    if (rc == STPETE_OK)
        rc = undo_positions(cfg, play, deep, last);
    if (rc == STPETE_OK) {
        int seat[SAMPLE_POSITIONS];
        for (int i = 0; i < SAMPLE_POSITIONS; i++) {
            int p = stpete_state_current_player(sample[i]);
            seat[i] = p >= 0 ? p : 0;
        }
        time_views(cfg, sample, seat, tensor, size, r);
        rc = time_undos(cfg, deep, last, r);
        if (rc != STPETE_OK)
            rc = bench_die("undo", rc);
    } else {
        rc = bench_die("search setup", rc);
    }
    for (int j = 0; j < UNDO_POSITIONS; j++)
        stpete_state_free(deep[j]);
    stpete_state_free(play);
    free(tensor);
    return rc == STPETE_OK ? 0 : rc;
}

/* The options of a measured game: the command line's game options and seed, for players players. */
static void bench_options_of(const config *cfg, int players, stpete_options *opts)
{
    *opts = cfg->opts;
    opts->players = players;
    opts->seed = cfg->seed;
}

/* Random games in the explicit chance mode: the same random bot at decisions, and at chance nodes an outcome drawn
 * by its probability (inverse CDF over stpete_state_chance_outcomes with a uniform double). */
static int bench_chance(const config *cfg, int players, result *r)
{
    stpete_options opts;
    bench_options_of(cfg, players, &opts);
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
        uint64_t rng = seed ^ STPETE_BOT_SEED_SALT;
        while (rc == STPETE_OK && !stpete_state_is_terminal_or(st, 1)) {
            int ids[STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY];
            double prob[STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY];
            size_t k = 0;
            int id;
            if (stpete_state_current_player(st) == STPETE_PLAYER_CHANCE) {
                stpete_state_chance_outcomes(st, ids, prob, STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY, &k);
                double u = (double)(measure_random(&rng) >> 11) * 0x1.0p-53;
                size_t i = 0;
                while (i + 1 < k && (u -= prob[i]) >= 0)
                    i++;
                id = ids[i];
            } else {
                stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY, &k);
                id = ids[measure_random(&rng) % k];
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
    return rc == STPETE_OK ? 0 : bench_die("explicit-chance games", rc);
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
    return rc == STPETE_OK ? 0 : bench_die("ismcts", rc);
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

int run_players(const config *cfg, int players, result *r)
{
    memset(r, 0, sizeof *r);
    r->players = players;
    counter cnt = { 0, 0, 0 };
    stpete_options opts;
    bench_options_of(cfg, players, &opts);
    opts.allocator.malloc_fn = measure_malloc;
    opts.allocator.realloc_fn = measure_realloc;
    opts.allocator.free_fn = measure_free;
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
        return bench_die("setup", rc);
    }

    long recorded = 0, record_games = 0;
    /* warm-up: a first game grows the state's history buffers, which every later game reuses (not in the digest) */
    for (rc = stpete_state_reset(st, cfg->seed ^ UINT64_C(0x5741524D));
         rc == STPETE_OK && !stpete_state_is_terminal_or(st, 1);) {
        int ids[STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY];
        size_t n = 0;
        stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY, &n);
        rc = stpete_state_apply(st, ids[n - 1 - (size_t)stpete_state_round(st) % n]);
    }
    if (rc != STPETE_OK) {
        free(record);
        return bench_die("warm-up", rc);
    }
    unsigned long long before = cnt.calls;
    r->way_first = cfg->way;
    rc = warm_up(cfg, st, r);
    if (rc == 0)
        rc = play_games(cfg, cfg->way, st, r, record, &recorded, &record_games, sample);
    if (rc == 0 && cfg->warm_up && cfg->games && r->digest != r->warm_up_digest) {
        fprintf(stderr, "stpete-bench: the warm-up games and the timed games differ (digests %016" PRIx64
                        " and %016" PRIx64 ")\n", r->warm_up_digest, r->digest);
        rc = 1;
    }
    r->way_games[cfg->way] = r->games;
    r->way_moves[cfg->way] = r->moves;
    r->way_seconds[cfg->way] = r->games_seconds;
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
