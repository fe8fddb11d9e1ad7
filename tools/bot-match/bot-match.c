/* bot-match: a small match runner for the reference bots (issue 13), to measure their strength. Not installed:
 * the tournament program is stpete-arena.
 *
 *   bot-match [--players N] [--games G] [--seed S] [--bots SPEC,SPEC...] [GAME OPTION]... [--quiet]
 *
 * The specs (stpete_bot_new(); keys separated by colons) are dealt to the seats in turn, as stpete-selfplay does:
 * "A,B" gives A B in 2-player games and A B A B in 4-player ones; "A,B,B" gives one A against two B in 3-player
 * games. Game g plays deal S + g / N with the seats rotated by g mod N (seat s gets the spec of seat s + g mod N),
 * so every bot plays every seat of every deal equally often; use a multiple of N games. A seat's result is its
 * share of the win (1/k for k tied winners, §8, R14). Printed per spec: its win rate per seat (its shares over the
 * seats it held; 1/N for equal bots) with a 95% Wilson score interval over the games, its wins, mean VP per seat
 * and mean time and iterations per decision. Bots are reseeded per game from S and g, so a run with iteration
 * budgets is reproducible. The game's options are the library's table's (tools/common/cli.h: --players,
 * --new-society, ..., --option NAME=VALUE). */
#define _POSIX_C_SOURCE 199309L
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <stpete/bots.h>
#include <stpete/stpete.h>

#include "cli.h"
#include "test_values.h"

#define MAX_SPECS 5

static void bot_match_usage(FILE *out)
{
    cli_options defaults;
    cli_options_init(&defaults);
    defaults.opts.players = 2;
    fprintf(out, "usage: bot-match [--games G] [--seed S] [--bots SPEC,SPEC...] [GAME OPTION]... [--quiet]\n\n");
    cli_options_usage(out, &defaults, NULL, NULL);
}

/* The options (the usage line above) into game and the rest; 0, or 1 after a reason or the usage on a bad one. */
static int parse_match_args(int argc, char **argv, cli_options *game, long *games, uint64_t *seed, const char **list,
                            int *quiet)
{
    for (int i = 1; i < argc; i++) {
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        int rc = cli_option("bot-match", game, argc, argv, &i); /* a game option (the library's table) */
        if (rc != CLI_NOT_COMMON) {
            if (rc != 0)
                return 1;
            continue;
        }
        if (!strcmp(argv[i], "--quiet")) {
            *quiet = 1;
            continue;
        }
        if (!val) {
            bot_match_usage(stderr);
            return 1;
        }
        if (!strcmp(argv[i], "--games"))
            *games = atol(val);
        else if (!strcmp(argv[i], "--seed"))
            *seed = strtoull(val, NULL, 10);
        else if (!strcmp(argv[i], "--bots"))
            *list = val;
        else {
            bot_match_usage(stderr);
            return 1;
        }
        i++;
    }
    if (*games < 1) {
        bot_match_usage(stderr);
        return 1;
    }
    return cli_options_check("bot-match", game) ? 1 : 0; /* the library's setup rule, in these flags' words */
}

/* What a match counts per distinct bot, and what it plays with. */
typedef struct match {
    int players, nspecs, nentries, entry_bot[MAX_SPECS];
    uint64_t seed;
    char specs[MAX_SPECS][STPETE_BOT_SPEC_MAX];
    stpete_bot *bots[MAX_SPECS];
    double rate_sum[MAX_SPECS], vp_sum[MAX_SPECS], seconds[MAX_SPECS];
    long seats_held[MAX_SPECS], decisions[MAX_SPECS], wins[MAX_SPECS];
    uint64_t iterations[MAX_SPECS];
} match;

/* Game g of the match (its deal and rotation of the seats) on st, counted into m; 0, or 1 after a bot's failure. */
static int play_match_game(match *m, stpete_state *st, long g)
{
    int rot = (int)(g % m->players);
    uint64_t deal = m->seed + (uint64_t)(g / m->players);
    int seat_spec[STPETE_MAX_PLAYERS];
    for (int s = 0; s < m->players; s++)
        seat_spec[s] = m->entry_bot[((s + rot) % m->players) % m->nentries];
    for (int b = 0; b < m->nspecs; b++)
        stpete_bot_set_seed(m->bots[b], m->seed * 1000003u + (uint64_t)g);
    stpete_state_reset(st, deal);
    while (!tg_is_terminal(st)) {
        int b = seat_spec[stpete_state_current_player(st)], id;
        if (stpete_bot_choose(m->bots[b], st, &id) != STPETE_OK) {
            fprintf(stderr, "bot-match: %s: %s\n", m->specs[b], stpete_bot_last_error(m->bots[b]));
            return 1;
        }
        stpete_bot_stats bs = STPETE_BOT_STATS_INIT;
        stpete_bot_get_stats(m->bots[b], &bs);
        m->seconds[b] += bs.elapsed_ns * 1e-9;
        m->iterations[b] += bs.iterations;
        m->decisions[b]++;
        if (stpete_state_apply(st, id) != STPETE_OK) {
            fprintf(stderr, "bot-match: %s chose an illegal action: %s\n", m->specs[b], stpete_state_last_error(st));
            return 1;
        }
    }
    unsigned winners = 0;
    stpete_state_winners(st, &winners);
    int k = __builtin_popcount(winners);
    double share[MAX_SPECS] = { 0 };
    int held[MAX_SPECS] = { 0 };
    for (int s = 0; s < m->players; s++) {
        int b = seat_spec[s], vp = 0;
        stpete_state_vp(st, s, &vp);
        m->vp_sum[b] += vp;
        m->seats_held[b]++;
        held[b]++;
        if (winners & (1u << s)) {
            share[b] += 1.0 / k;
            m->wins[b]++;
        }
    }
    for (int b = 0; b < m->nspecs; b++)
        m->rate_sum[b] += held[b] ? share[b] / held[b] : 0;
    return 0;
}

/* The bots of the list's entries (at most MAX_SPECS), one per distinct canonical spec (canon); 0, or 1 after
 * printing why a spec is refused. */
static int load_bots(match *m, const stpete_game *game, const char *list, char canon[MAX_SPECS][STPETE_BOT_SPEC_MAX])
{
    for (const char *p = list; *p && m->nentries < MAX_SPECS;) {
        size_t len = strcspn(p, ",");
        if (len >= STPETE_BOT_SPEC_MAX)
            len = STPETE_BOT_SPEC_MAX - 1;
        char spec[STPETE_BOT_SPEC_MAX];
        stpete_error msg = STPETE_ERROR_INIT;
        memcpy(spec, p, len);
        spec[len] = '\0';
        stpete_bot *bot = NULL;
        if (stpete_bot_new(game, spec, &bot, &msg) != STPETE_OK) {
            fprintf(stderr, "bot-match: %s: %s\n", spec, msg.message);
            return 1;
        }
        stpete_bot_spec(bot, canon[m->nspecs], sizeof canon[m->nspecs], &len);
        int b = 0;
        while (b < m->nspecs && strcmp(canon[b], canon[m->nspecs]) != 0)
            b++;
        if (b == m->nspecs) {
            memcpy(m->specs[m->nspecs], spec, sizeof spec);
            m->bots[m->nspecs++] = bot;
        } else {
            stpete_bot_free(bot);
        }
        m->entry_bot[m->nentries++] = b;
        p += strcspn(p, ",");
        if (*p == ',')
            p++;
    }
    return 0;
}

/* The result of each distinct bot: its win rate per seat with a 95 % interval, wins, mean VP, time and iterations
 * per decision. */
static void print_match(const match *m, char canon[MAX_SPECS][STPETE_BOT_SPEC_MAX], long games)
{
    printf("%d players, %ld games (deals from seed %" PRIu64 ", every rotation of the seats)\n", m->players, games,
           m->seed);
    for (int b = 0; b < m->nspecs; b++) {
        /* Wilson score interval of the per-seat rate, over the games (a game's value: its shares / its seats) */
        double n = (double)games, p = m->rate_sum[b] / n, z = 1.96;
        double centre = (p + z * z / (2 * n)) / (1 + z * z / n);
        double half = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n);
        printf("  %s\n    win rate per seat %.3f [%.3f, %.3f] (95%%; equal bots: %.3f), wins %ld, mean VP %.1f, "
               "%.2f ms and %.0f iterations per decision\n",
               canon[b], p, centre - half > 0 ? centre - half : 0, centre + half, 1.0 / m->players, m->wins[b],
               m->vp_sum[b] / (double)m->seats_held[b],
               m->decisions[b] ? 1e3 * m->seconds[b] / (double)m->decisions[b] : 0.0,
               m->decisions[b] ? (double)m->iterations[b] / (double)m->decisions[b] : 0.0);
    }
}

int main(int argc, char **argv)
{
    int quiet = 0;
    long games = 100;
    uint64_t seed = 1;
    const char *list = "greedy,random";
    cli_options game_options;
    cli_options_init(&game_options);
    game_options.opts.players = 2;
    if (parse_match_args(argc, argv, &game_options, &games, &seed, &list, &quiet))
        return 2;
    stpete_options opts = game_options.opts;
    int players = opts.players;
    stpete_game *game = NULL;
    stpete_state *st = NULL;
    if (stpete_game_new(&opts, &game, NULL) || stpete_state_new(game, &st, NULL))
        return 1;

    /* the list's entries, and the distinct bots they name (the same canonical spec: one bot) */
    match m;
    memset(&m, 0, sizeof m);
    char canon[MAX_SPECS][STPETE_BOT_SPEC_MAX];
    m.players = players;
    m.seed = seed;
    if (load_bots(&m, game, list, canon))
        return 2;
    for (long g = 0; g < games; g++) {
        if (play_match_game(&m, st, g))
            return 1;
        if (!quiet && (g + 1) % 50 == 0) {
            fprintf(stderr, "%ld games:", g + 1);
            for (int b = 0; b < m.nspecs; b++)
                fprintf(stderr, " %s %.3f", m.specs[b], m.rate_sum[b] / (double)(g + 1));
            fprintf(stderr, "\n");
        }
    }
    print_match(&m, canon, games);
    for (int b = 0; b < m.nspecs; b++)
        stpete_bot_free(m.bots[b]);
    stpete_state_free(st);
    stpete_game_free(game);
    return 0;
}
