/* stpete-selfplay: built-in bots play complete games of Saint Petersburg.
 *
 *   stpete-selfplay [--players N] [--edition E] [--new-society] [GAME OPTION]... [--seed S] [--games G]
 *                   [--bots LIST] [--quiet] [--record FILE]
 *
 * One game: a readable log, phase by phase (deals, every action with its price, each scoring, Pub and Observatory
 * choices, final scoring breakdown, winner). Several games: a summary (games, mean moves per game, mean winning
 * score, wins per seat). Bots: the library's (stpete/bots.h), by their specs: "random" (uniform among the legal
 * actions), "greedy" (one-step look-ahead on the projected score), "mc", "ismcts" and "learned" (searches over
 * determinizations), with parameters after colons, e.g. "ismcts:iterations=500". LIST is comma separated and
 * repeats over the seats, e.g. "greedy,random"; seats with the same spec share one bot.
 * Game g of a run uses seed S + g; every bot is reseeded at the start of each game with
 * (S + g) ^ STPETE_BOT_SEED_SALT (the seed of its spec is replaced), so a run is reproducible (with iteration
 * budgets, not with ms=).
 * --record FILE writes the game (one game only) as a replay record (JSON, doc/format.md) for stpete-replay.
 * The game's options are the library's table of options (tools/common/cli.h: --option NAME=VALUE, or each
 * option's flag). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stpete/bots.h>
#include <stpete/stpete.h>

#include "cli.h"
#include "gamelog.h"

typedef struct run_config {
    cli_options game;  /* the game's options (players, edition, the New Society, ...: the library's table) */
    int players;       /* game.opts.players */
    uint64_t seed;
    long games;
    char names[STPETE_MAX_PLAYERS][STPETE_BOT_SPEC_MAX]; /* each seat's spec, as given */
    stpete_bot *bots[STPETE_MAX_PLAYERS];                /* each seat's bot (shared by seats with the same spec) */
    stpete_bot *owned[STPETE_MAX_PLAYERS];               /* the distinct bots */
    int n_owned;
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
static int selfplay_write_record(const char *path, const stpete_game *game, uint64_t seed, const action_log *log)
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


/* ---- running games ------------------------------------------------------------------------------- */

typedef struct totals {
    uint64_t digest; /* FNV-1a style over every applied action id and every final score: equal digests, same games */
    long moves;
    long winning_score_sum;
    long wins[STPETE_MAX_PLAYERS];
    long shared;
} totals;

static uint64_t selfplay_digest_add(uint64_t h, uint64_t word)
{
    return (h ^ word) * UINT64_C(0x100000001B3); /* the same function as stpete-bench's */
}

static int selfplay_game(const run_config *cfg, stpete_state *st, uint64_t seed, totals *t, action_log *log)
{
    int rc = stpete_state_reset(st, seed);
    for (int s = 0; s < cfg->players; s++)
        stpete_bot_set_seed(cfg->bots[s], seed ^ STPETE_BOT_SEED_SALT);
    while (rc == STPETE_OK && !stpete_state_is_terminal_or(st, 1)) {
        int id = -1;
        stpete_bot *bot = cfg->bots[stpete_state_current_player(st)];
        rc = stpete_bot_choose(bot, st, &id);
        if (rc != STPETE_OK) {
            fprintf(stderr, "stpete-selfplay: bot: %s\n", stpete_bot_last_error(bot));
            return rc;
        }
        rc = stpete_state_apply(st, id);
        t->digest = selfplay_digest_add(t->digest, (uint64_t)id);
        if (rc == STPETE_OK && log)
            rc = log_action(log, id);
        t->moves++;
    }
    if (rc != STPETE_OK) {
        fprintf(stderr, "stpete-selfplay: %s: %s\n", stpete_strerror(rc), stpete_state_last_error(st));
        return rc;
    }
    for (int s = 0; s < cfg->players; s++) {
        stpete_score sc = STPETE_SCORE_INIT;
        stpete_state_get_score(st, s, &sc);
        t->digest = selfplay_digest_add(t->digest, (uint64_t)(int64_t)sc.total);
    }
    unsigned winners = 0;
    stpete_state_winners(st, &winners);
    for (int s = 0; s < cfg->players; s++)
        if (winners & (1u << s)) {
            t->wins[s]++;
            stpete_score sc = STPETE_SCORE_INIT;
            stpete_state_get_score(st, s, &sc);
            t->winning_score_sum += sc.total;
        }
    if (__builtin_popcount(winners) > 1)
        t->shared++;
    return STPETE_OK;
}

/* This program's defaults: the library's, 4 players. */
static void selfplay_defaults(run_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cli_options_init(&cfg->game);
    cfg->seed = 1;
    cfg->games = 1;
}

static void selfplay_usage(FILE *out)
{
    run_config cfg;
    selfplay_defaults(&cfg);
    fprintf(out,
            "Usage: stpete-selfplay [OPTION]...\n"
            "Built-in bots play complete games of Saint Petersburg (first edition, the\n"
            "second-edition preset, or the New Society): one game prints a readable log\n"
            "(deals, every action with its price, scorings, final scoring, winner), several\n"
            "games a summary.\n"
            "\n"
            "Options:\n"
            "  --seed S              seed of the first game; game g of a run uses S + g\n"
            "                        (default 1)\n"
            "  --games G             number of games (default 1); more than one prints a\n"
            "                        summary: games, mean moves per game, mean winning score,\n"
            "                        shared wins, a digest of every action and final score,\n"
            "                        wins per seat\n"
            "  --bots LIST           comma-separated bot specs, repeated over the seats\n"
            "                        (default greedy,random); a spec is KIND[:KEY=VALUE]...,\n"
            "                        KIND random, greedy, mc, ismcts or learned,\n"
            "                        e.g. ismcts:iterations=500:c=0.7 (stpete/bots.h)\n"
            "  --quiet               no log of a single game\n"
            "  --record FILE         write the game (one game only) as a replay record (JSON)\n"
            "                        for stpete-replay\n"
            "  -h, --help            show this help and exit\n"
            "  --version             show the version and exit\n"
            "\n");
    cli_options_usage(out, &cfg.game, NULL, NULL);
    fprintf(out,
            "\n"
            "Example:\n"
            "  stpete-selfplay --players 3 --games 10000 --bots greedy\n");
}

/* Create the bots of a comma-separated spec list, repeated over the seats. Seats whose specs are the same
 * (canonically) share one bot, as they shared one random-number stream before the bots moved into the library:
 * the games are the same as those of 0.2. The bots are in cfg->owned (freed by the caller). */
static int parse_bots(const char *list, const stpete_game *game, run_config *cfg)
{
    char specs[STPETE_MAX_PLAYERS][STPETE_BOT_SPEC_MAX], canon[STPETE_MAX_PLAYERS][STPETE_BOT_SPEC_MAX];
    int n = 0, owner[STPETE_MAX_PLAYERS];
    const char *p = list;
    while (*p && n < STPETE_MAX_PLAYERS) {
        size_t len = strcspn(p, ",");
        if (len >= STPETE_BOT_SPEC_MAX) {
            fprintf(stderr, "stpete-selfplay: --bots: a spec is longer than %d characters\n", STPETE_BOT_SPEC_MAX - 1);
            return -1;
        }
        memcpy(specs[n], p, len);
        specs[n++][len] = '\0';
        p += len;
        if (*p == ',' && *++p == '\0')
            n = 0; /* a trailing comma */
    }
    if (n == 0 || *p) {
        fprintf(stderr, "stpete-selfplay: --bots takes 1 to 5 comma-separated bot specs\n");
        return -1;
    }
    for (int i = 0; i < n; i++) {
        stpete_error err = STPETE_ERROR_INIT;
        size_t len;
        stpete_bot *bot = NULL;
        if (stpete_bot_new(game, specs[i], &bot, &err) != STPETE_OK) {
            fprintf(stderr, "stpete-selfplay: --bots: %s\n", err.message);
            return -1;
        }
        stpete_bot_spec(bot, canon[i], sizeof canon[i], &len);
        owner[i] = cfg->n_owned;
        for (int j = 0; j < i; j++)
            if (strcmp(canon[i], canon[j]) == 0)
                owner[i] = owner[j];
        if (owner[i] == cfg->n_owned)
            cfg->owned[cfg->n_owned++] = bot;
        else
            stpete_bot_free(bot);
    }
    for (int s = 0; s < cfg->players; s++) {
        cfg->bots[s] = cfg->owned[owner[s % n]];
        snprintf(cfg->names[s], sizeof cfg->names[s], "%s", specs[s % n]);
    }
    return 0;
}

/* The options of the command line into cfg and the bot list into *bots; CLI_NOT_COMMON to go on, else the exit
 * status (after --help or --version, or a usage error, said on stderr). */
static int selfplay_parse_args(int argc, char **argv, run_config *cfg, const char **bots)
{
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        int rc = cli_common("stpete-selfplay", arg, selfplay_usage);
        if (rc != CLI_NOT_COMMON)
            return rc;
        rc = cli_option("stpete-selfplay", &cfg->game, argc, argv, &i); /* a game option (the library's table) */
        if (rc != CLI_NOT_COMMON) {
            if (rc != 0)
                return rc;
            continue;
        } else if (!strcmp(arg, "--quiet")) {
            cfg->quiet = 1;
            continue;
        } else if (cli_check_value("stpete-selfplay", arg, val, "--seed --games --record --bots ")) {
            return CLI_USAGE_ERROR;
        } else if (!strcmp(arg, "--seed")) {
            cfg->seed = strtoull(val, &end, 10);
        } else if (!strcmp(arg, "--games")) {
            cfg->games = strtol(val, &end, 10);
        } else if (!strcmp(arg, "--record")) {
            cfg->record = val;
            end = (char *)val + strlen(val);
        } else if (!strcmp(arg, "--bots")) {
            *bots = val;
            end = (char *)val + strlen(val);
        }
        if (!end || *end || cfg->games < 1) {
            fprintf(stderr, "stpete-selfplay: bad value for %s: %s\n", arg, val);
            return 2;
        }
        i++;
    }
    if (cli_options_check("stpete-selfplay", &cfg->game)) /* the library's setup rule, in these flags' words */
        return CLI_USAGE_ERROR;
    cfg->players = cfg->game.opts.players;
    if (cfg->record && cfg->games != 1) {
        fprintf(stderr, "stpete-selfplay: --record writes one game: use it with --games 1\n");
        return 2;
    }
    return CLI_NOT_COMMON;
}

/* The summary of several games: their number and seeds, mean moves and winning score, shared wins, the digest and
 * the wins per seat. */
static void print_summary(const run_config *cfg, const stpete_game *game, const char *bots, const totals *t)
{
    long wins_total = 0;
    for (int s = 0; s < cfg->players; s++)
        wins_total += t->wins[s];
    int ns = 0;
    stpete_game_is_new_society(game, &ns);
    printf("games: %ld (%d players%s, bots %s, seeds %" PRIu64 "..%" PRIu64 ")\n", cfg->games, cfg->players,
           stpete_game_edition(game) == 2 ? ", second edition" : ns ? ", New Society" : "", bots, cfg->seed,
           cfg->seed + (uint64_t)cfg->games - 1);
    printf("mean moves per game: %.1f\n", (double)t->moves / (double)cfg->games);
    printf("mean winning score: %.2f VP\n", (double)t->winning_score_sum / (double)wins_total);
    printf("shared wins: %ld\n", t->shared);
    printf("digest: %016" PRIx64 "\n", t->digest);
    for (int s = 0; s < cfg->players; s++)
        printf("wins seat %d (%s): %ld (%.1f%%)\n", s, cfg->names[s],
               t->wins[s], 100.0 * (double)t->wins[s] / (double)cfg->games);
}

int main(int argc, char **argv)
{
    run_config cfg;
    selfplay_defaults(&cfg);
    const char *bots = "greedy,random";
    int status = selfplay_parse_args(argc, argv, &cfg, &bots);
    if (status != CLI_NOT_COMMON)
        return status;
    stpete_options opts = cfg.game.opts;
    opts.seed = cfg.seed;
    stpete_game *game = NULL;
    stpete_state *st = NULL;
    int rc = stpete_game_new(&opts, &game, NULL);
    if (rc == STPETE_OK)
        rc = stpete_state_new(game, &st, NULL);
    if (rc != STPETE_OK) {
        fprintf(stderr, "stpete-selfplay: %s\n", stpete_strerror(rc));
        return 1;
    }
    if (parse_bots(bots, game, &cfg) != 0) {
        stpete_state_free(st);
        stpete_game_free(game);
        return 2;
    }

    gamelog lg = { stdout, 0 };
    int single = cfg.games == 1 && !cfg.quiet;
    if (single) {
        printf("libstpete %s: Saint Petersburg (%s), %d players, seed %" PRIu64 "\n", stpete_version(),
               gamelog_edition(&opts), cfg.players, cfg.seed);
        for (int s = 0; s < cfg.players; s++)
            printf("  seat %d: %s bot\n", s, cfg.names[s]);
        stpete_state_set_event_callback(st, gamelog_event, &lg);
    }
    totals t = { UINT64_C(0xCBF29CE484222325), 0, 0, { 0 }, 0 };
    action_log log = { NULL, 0, 0 };
    for (long g = 0; g < cfg.games && rc == STPETE_OK; g++)
        rc = selfplay_game(&cfg, st, cfg.seed + (uint64_t)g, &t, cfg.record ? &log : NULL);
    if (rc == STPETE_OK && cfg.record) {
        rc = selfplay_write_record(cfg.record, game, cfg.seed, &log);
        if (rc != STPETE_OK)
            fprintf(stderr, "stpete-selfplay: --record: %s\n", stpete_strerror(rc));
    }
    free(log.ids);
    if (rc == STPETE_OK && !single)
        print_summary(&cfg, game, bots, &t);
    for (int i = 0; i < cfg.n_owned; i++)
        stpete_bot_free(cfg.owned[i]);
    stpete_state_free(st);
    stpete_game_free(game);
    return rc == STPETE_OK ? 0 : 1;
}
