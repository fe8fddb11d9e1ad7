/* stpete-selfplay: built-in bots play complete games of Saint Petersburg.
 *
 *   stpete-selfplay [--players N] [--seed S] [--games G] [--bots LIST] [--quiet] [--record FILE]
 *
 * One game: a readable log, phase by phase (deals, every action with its price, each scoring, Pub and Observatory
 * choices, final scoring breakdown, winner). Several games: a summary (games, mean moves per game, mean winning
 * score, wins per seat). Bots: "random" (uniform among the legal actions) and "greedy" (one-step lookahead with a
 * projected-score heuristic). LIST is comma separated and repeats over the seats, e.g. "greedy,random".
 * Game g of a run uses seed S + g; the bots' own randomness is seeded from it too, so a run is reproducible.
 * --record FILE writes the game (one game only) as a replay record (JSON, doc/format.md) for stpete-replay. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stpete/stpete.h>

#include "gamelog.h"

enum bot_kind { BOT_RANDOM, BOT_GREEDY };

typedef struct run_config {
    int players;
    uint64_t seed;
    long games;
    int bots[STPETE_MAX_PLAYERS];
    int quiet;
    const char *record; /* replay record file, or NULL */
} run_config;

/* The actions of one game, for --record. */
typedef struct action_log {
    int *ids;
    size_t n, cap;
} action_log;

static int log_action(action_log *log, int id)
{
    if (log->n == log->cap) {
        size_t cap = log->cap ? 2 * log->cap : 256;
        int *ids = realloc(log->ids, cap * sizeof *ids);
        if (!ids)
            return STPETE_E_OUT_OF_MEMORY;
        log->ids = ids;
        log->cap = cap;
    }
    log->ids[log->n++] = id;
    return STPETE_OK;
}

/* Write the replay record of a game started from seed. */
static int write_record(const char *path, const stpete_game *game, uint64_t seed, const action_log *log)
{
    size_t len = 0;
    int rc = stpete_replay_to_json(game, seed, log->ids, log->n, NULL, 0, &len);
    char *text = rc == STPETE_E_BUFFER_TOO_SMALL ? malloc(len + 1) : NULL;
    if (!text)
        return rc == STPETE_E_BUFFER_TOO_SMALL ? STPETE_E_OUT_OF_MEMORY : rc;
    rc = stpete_replay_to_json(game, seed, log->ids, log->n, text, len + 1, &len);
    FILE *f = rc == STPETE_OK ? fopen(path, "wb") : NULL;
    if (rc == STPETE_OK && (!f || fwrite(text, 1, len, f) != len || fputc('\n', f) == EOF)) {
        fprintf(stderr, "stpete-selfplay: cannot write %s\n", path);
        rc = STPETE_E_INVALID_ARGUMENT;
    }
    if (f && fclose(f) != 0)
        rc = STPETE_E_INVALID_ARGUMENT;
    free(text);
    return rc;
}


/* ---- bots --------------------------------------------------------------------------------------- */

/* splitmix64: the bots' own PRNG (the game's PRNG lives inside the state). */
static uint64_t next_random(uint64_t *x)
{
    uint64_t z = (*x += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* Projected final score of a seat: final scoring as if the game ended now, plus the display's income for the
 * rounds that probably remain (estimated from the smallest stack), with rubles valued at a quarter VP. */
static double evaluate(const stpete_state *st, int seat)
{
    stpete_score score;
    stpete_state_score(st, seat, &score);
    if (stpete_state_is_terminal(st))
        return score.total;
    int smallest = 99;
    for (int s = 0; s < 4; s++) {
        int n = stpete_state_stack_size(st, s);
        if (n < smallest)
            smallest = n;
    }
    double rounds_left = 1.0 + smallest / 6.0;
    double income_vp = 0, income_r = 0;
    for (int card = 0; card < STPETE_NUM_CARD_TYPES; card++) {
        int copies = stpete_state_display_count(st, seat, card);
        if (copies > 0) {
            stpete_card_info info;
            stpete_card_get_info(card, &info);
            income_vp += copies * info.vp;
            income_r += copies * info.rubles;
        }
    }
    return score.total + rounds_left * (income_vp + income_r / 4.0) + score.rubles / 4.0;
}

static int greedy_choice(const stpete_state *st, stpete_state *scratch, const int *ids, size_t n)
{
    int seat = stpete_state_current_player(st);
    int best = ids[0];
    double best_value = -1e300;
    for (size_t i = 0; i < n; i++) {
        stpete_state_copy(scratch, st);
        stpete_state_apply(scratch, ids[i]);
        double v = evaluate(scratch, seat);
        if (v > best_value + 1e-9) {
            best_value = v;
            best = ids[i];
        }
    }
    return best;
}

static int choose(const run_config *cfg, const stpete_state *st, stpete_state *scratch, uint64_t *rng)
{
    int ids[STPETE_MAX_LEGAL_ACTIONS];
    size_t n = 0;
    stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS, &n);
    if (cfg->bots[stpete_state_current_player(st)] == BOT_GREEDY)
        return greedy_choice(st, scratch, ids, n);
    return ids[next_random(rng) % n];
}

/* ---- running games ------------------------------------------------------------------------------- */

typedef struct totals {
    uint64_t digest; /* FNV-1a style over every applied action id and every final score: equal digests, same games */
    long moves;
    long winning_score_sum;
    long wins[STPETE_MAX_PLAYERS];
    long shared;
} totals;

static uint64_t digest_add(uint64_t h, uint64_t word)
{
    return (h ^ word) * UINT64_C(0x100000001B3); /* the same function as stpete-bench's */
}

static int play_game(const run_config *cfg, stpete_state *st, stpete_state *scratch, uint64_t seed, totals *t,
                     action_log *log)
{
    int rc = stpete_state_reset(st, seed);
    uint64_t rng = seed ^ UINT64_C(0xB0751E5);
    while (rc == STPETE_OK && !stpete_state_is_terminal(st)) {
        int id = choose(cfg, st, scratch, &rng);
        rc = stpete_state_apply(st, id);
        t->digest = digest_add(t->digest, (uint64_t)id);
        if (rc == STPETE_OK && log)
            rc = log_action(log, id);
        t->moves++;
    }
    if (rc != STPETE_OK) {
        fprintf(stderr, "stpete-selfplay: %s: %s\n", stpete_strerror(rc), stpete_state_last_error(st));
        return rc;
    }
    for (int s = 0; s < cfg->players; s++) {
        stpete_score sc;
        stpete_state_score(st, s, &sc);
        t->digest = digest_add(t->digest, (uint64_t)(int64_t)sc.total);
    }
    unsigned winners = 0;
    stpete_state_winners(st, &winners);
    for (int s = 0; s < cfg->players; s++)
        if (winners & (1u << s)) {
            t->wins[s]++;
            stpete_score sc;
            stpete_state_score(st, s, &sc);
            t->winning_score_sum += sc.total;
        }
    if (__builtin_popcount(winners) > 1)
        t->shared++;
    return STPETE_OK;
}

static void usage(FILE *out)
{
    fprintf(out,
            "Usage: stpete-selfplay [OPTION]...\n"
            "Built-in bots play complete games of Saint Petersburg (first edition): one game prints a readable log\n"
            "(deals, every action with its price, scorings, final scoring, winner), several games a summary.\n"
            "\n"
            "Options:\n"
            "  --players N    number of players, 2, 3 or 4 (default 4)\n"
            "  --seed S       seed of the first game; game g of a run uses S + g (default 1)\n"
            "  --games G      number of games (default 1); more than one prints a summary: games, mean moves per\n"
            "                 game, mean winning score, shared wins, a digest of every action and final score,\n"
            "                 wins per seat\n"
            "  --bots LIST    comma-separated bots, random or greedy, repeated over the seats (default\n"
            "                 greedy,random)\n"
            "  --quiet        no log of a single game\n"
            "  --record FILE  write the game (one game only) as a replay record (JSON) for stpete-replay\n"
            "  -h, --help     show this help and exit\n"
            "\n"
            "Example:\n"
            "  stpete-selfplay --players 3 --games 10000 --bots greedy\n");
}

static int parse_bots(const char *list, int players, int *bots)
{
    int kinds[STPETE_MAX_PLAYERS], n = 0;
    const char *p = list;
    while (*p && n < STPETE_MAX_PLAYERS) {
        size_t len = strcspn(p, ",");
        if (len == 6 && strncmp(p, "random", 6) == 0)
            kinds[n++] = BOT_RANDOM;
        else if (len == 6 && strncmp(p, "greedy", 6) == 0)
            kinds[n++] = BOT_GREEDY;
        else
            return -1;
        p += len;
        if (*p == ',')
            p++;
    }
    if (n == 0 || *p)
        return -1;
    for (int s = 0; s < players; s++)
        bots[s] = kinds[s % n];
    return 0;
}

int main(int argc, char **argv)
{
    run_config cfg = { 4, 1, 1, { BOT_GREEDY, BOT_RANDOM, BOT_GREEDY, BOT_RANDOM }, 0, NULL };
    const char *bots = "greedy,random";
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(arg, "--quiet")) {
            cfg.quiet = 1;
            continue;
        } else if (!val) {
            usage(stderr);
            return 2;
        } else if (!strcmp(arg, "--players")) {
            cfg.players = (int)strtol(val, &end, 10);
        } else if (!strcmp(arg, "--seed")) {
            cfg.seed = strtoull(val, &end, 10);
        } else if (!strcmp(arg, "--games")) {
            cfg.games = strtol(val, &end, 10);
        } else if (!strcmp(arg, "--record")) {
            cfg.record = val;
            end = (char *)val + strlen(val);
        } else if (!strcmp(arg, "--bots")) {
            bots = val;
            end = (char *)val + strlen(val);
        } else {
            usage(stderr);
            return 2;
        }
        if (!end || *end || cfg.games < 1) {
            fprintf(stderr, "stpete-selfplay: bad value for %s: %s\n", arg, val);
            return 2;
        }
        i++;
    }
    if (cfg.players < STPETE_MIN_PLAYERS || cfg.players > STPETE_MAX_PLAYERS) {
        fprintf(stderr, "stpete-selfplay: --players must be 2, 3 or 4\n");
        return 2;
    }
    if (cfg.record && cfg.games != 1) {
        fprintf(stderr, "stpete-selfplay: --record writes one game: use it with --games 1\n");
        return 2;
    }
    if (parse_bots(bots, cfg.players, cfg.bots) != 0) {
        fprintf(stderr, "stpete-selfplay: --bots takes a comma-separated list of random and greedy\n");
        return 2;
    }

    stpete_options opts;
    stpete_options_init(&opts);
    opts.players = cfg.players;
    opts.seed = cfg.seed;
    stpete_game *game = NULL;
    stpete_state *st = NULL, *scratch = NULL;
    int rc = stpete_game_new(&game, &opts);
    if (rc == STPETE_OK)
        rc = stpete_state_new(&st, game);
    if (rc == STPETE_OK)
        rc = stpete_state_clone(&scratch, st);
    if (rc != STPETE_OK) {
        fprintf(stderr, "stpete-selfplay: %s\n", stpete_strerror(rc));
        return 1;
    }

    gamelog lg = { stdout, 0 };
    int single = cfg.games == 1 && !cfg.quiet;
    if (single) {
        printf("libstpete %s: Saint Petersburg (first edition), %d players, seed %" PRIu64 "\n", stpete_version(),
               cfg.players, cfg.seed);
        for (int s = 0; s < cfg.players; s++)
            printf("  seat %d: %s bot\n", s, cfg.bots[s] == BOT_GREEDY ? "greedy" : "random");
        stpete_state_set_event_callback(st, gamelog_event, &lg);
    }
    totals t = { UINT64_C(0xCBF29CE484222325), 0, 0, { 0 }, 0 };
    action_log log = { NULL, 0, 0 };
    for (long g = 0; g < cfg.games && rc == STPETE_OK; g++)
        rc = play_game(&cfg, st, scratch, cfg.seed + (uint64_t)g, &t, cfg.record ? &log : NULL);
    if (rc == STPETE_OK && cfg.record) {
        rc = write_record(cfg.record, game, cfg.seed, &log);
        if (rc != STPETE_OK)
            fprintf(stderr, "stpete-selfplay: --record: %s\n", stpete_strerror(rc));
    }
    free(log.ids);
    if (rc == STPETE_OK && !single) {
        long wins_total = 0;
        for (int s = 0; s < cfg.players; s++)
            wins_total += t.wins[s];
        printf("games: %ld (%d players, bots %s, seeds %" PRIu64 "..%" PRIu64 ")\n", cfg.games, cfg.players, bots,
               cfg.seed, cfg.seed + (uint64_t)cfg.games - 1);
        printf("mean moves per game: %.1f\n", (double)t.moves / (double)cfg.games);
        printf("mean winning score: %.2f VP\n", (double)t.winning_score_sum / (double)wins_total);
        printf("shared wins: %ld\n", t.shared);
        printf("digest: %016" PRIx64 "\n", t.digest);
        for (int s = 0; s < cfg.players; s++)
            printf("wins seat %d (%s): %ld (%.1f%%)\n", s, cfg.bots[s] == BOT_GREEDY ? "greedy" : "random",
                   t.wins[s], 100.0 * (double)t.wins[s] / (double)cfg.games);
    }
    stpete_state_free(scratch);
    stpete_state_free(st);
    stpete_game_free(game);
    return rc == STPETE_OK ? 0 : 1;
}
