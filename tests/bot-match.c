/* bot-match: a small match runner for the reference bots (issue 13), to measure their strength. Not installed:
 * the tournament program is stpete-arena.
 *
 *   bot-match [--players N] [--games G] [--seed S] [--bots SPEC,SPEC...] [--new-society] [--quiet]
 *
 * The specs (stpete_bot_new(); keys separated by colons) are dealt to the seats in turn, as stpete-selfplay does:
 * "A,B" gives A B in 2-player games and A B A B in 4-player ones; "A,B,B" gives one A against two B in 3-player
 * games. Game g plays deal S + g / N with the seats rotated by g mod N (seat s gets the spec of seat s + g mod N),
 * so every bot plays every seat of every deal equally often; use a multiple of N games. A seat's result is its
 * share of the win (1/k for k tied winners, §8, R14). Printed per spec: its win rate per seat (its shares over the
 * seats it held; 1/N for equal bots) with a 95% Wilson score interval over the games, its wins, mean VP per seat
 * and mean time and iterations per decision. Bots are reseeded per game from S and g, so a run with iteration
 * budgets is reproducible. */
#define _POSIX_C_SOURCE 199309L
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <stpete/bots.h>
#include <stpete/stpete.h>

#include "test_values.h"

#define MAX_SPECS 5

static void usage(FILE *out)
{
    fprintf(out, "usage: bot-match [--players 2|3|4|5] [--games G] [--seed S] [--bots SPEC,SPEC...] [--new-society] "
                 "[--quiet]\n");
}

int main(int argc, char **argv)
{
    int players = 2, quiet = 0, new_society = 0;
    long games = 100;
    uint64_t seed = 1;
    const char *list = "greedy,random";
    for (int i = 1; i < argc; i++) {
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(argv[i], "--quiet") || !strcmp(argv[i], "--new-society")) { /* §12: 5 players with it */
            *(argv[i][2] == 'q' ? &quiet : &new_society) = 1;
            continue;
        }
        if (!val) {
            usage(stderr);
            return 2;
        }
        if (!strcmp(argv[i], "--players"))
            players = atoi(val);
        else if (!strcmp(argv[i], "--games"))
            games = atol(val);
        else if (!strcmp(argv[i], "--seed"))
            seed = strtoull(val, NULL, 10);
        else if (!strcmp(argv[i], "--bots"))
            list = val;
        else {
            usage(stderr);
            return 2;
        }
        i++;
    }
    if (players < 2 || players > (new_society ? 5 : 4) || games < 1) {
        usage(stderr);
        return 2;
    }
    stpete_options opts;
    stpete_options_init(&opts);
    opts.players = players;
    opts.new_society = new_society;
    stpete_game *game = NULL;
    stpete_state *st = NULL;
    if (stpete_game_new(&opts, &game, NULL) || stpete_state_new(game, &st, NULL))
        return 1;

    /* the list's entries, and the distinct bots they name (the same canonical spec: one bot) */
    char specs[MAX_SPECS][STPETE_BOT_SPEC_MAX], canon[MAX_SPECS][STPETE_BOT_SPEC_MAX];
    stpete_bot *bots[MAX_SPECS] = { NULL };
    int nspecs = 0, nentries = 0, entry_bot[MAX_SPECS];
    for (const char *p = list; *p && nentries < MAX_SPECS;) {
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
            return 2;
        }
        stpete_bot_spec(bot, canon[nspecs], sizeof canon[nspecs], &len);
        int b = 0;
        while (b < nspecs && strcmp(canon[b], canon[nspecs]) != 0)
            b++;
        if (b == nspecs) {
            memcpy(specs[nspecs], spec, sizeof spec);
            bots[nspecs++] = bot;
        } else {
            stpete_bot_free(bot);
        }
        entry_bot[nentries++] = b;
        p += strcspn(p, ",");
        if (*p == ',')
            p++;
    }
    double rate_sum[MAX_SPECS] = { 0 }, vp_sum[MAX_SPECS] = { 0 };
    long seats_held[MAX_SPECS] = { 0 }, decisions[MAX_SPECS] = { 0 }, wins[MAX_SPECS] = { 0 };
    double seconds[MAX_SPECS] = { 0 };
    uint64_t iterations[MAX_SPECS] = { 0 };
    for (long g = 0; g < games; g++) {
        int rot = (int)(g % players);
        uint64_t deal = seed + (uint64_t)(g / players);
        int seat_spec[STPETE_MAX_PLAYERS];
        for (int s = 0; s < players; s++)
            seat_spec[s] = entry_bot[((s + rot) % players) % nentries];
        for (int b = 0; b < nspecs; b++)
            stpete_bot_set_seed(bots[b], seed * 1000003u + (uint64_t)g);
        stpete_state_reset(st, deal);
        while (!tg_is_terminal(st)) {
            int b = seat_spec[stpete_state_current_player(st)], id;
            if (stpete_bot_choose(bots[b], st, &id) != STPETE_OK) {
                fprintf(stderr, "bot-match: %s: %s\n", specs[b], stpete_bot_last_error(bots[b]));
                return 1;
            }
            stpete_bot_stats bs = STPETE_BOT_STATS_INIT;
            stpete_bot_get_stats(bots[b], &bs);
            seconds[b] += bs.elapsed_ns * 1e-9;
            iterations[b] += bs.iterations;
            decisions[b]++;
            if (stpete_state_apply(st, id) != STPETE_OK) {
                fprintf(stderr, "bot-match: %s chose an illegal action: %s\n", specs[b], stpete_state_last_error(st));
                return 1;
            }
        }
        unsigned winners = 0;
        stpete_state_winners(st, &winners);
        int k = __builtin_popcount(winners);
        double share[MAX_SPECS] = { 0 };
        int held[MAX_SPECS] = { 0 };
        for (int s = 0; s < players; s++) {
            int b = seat_spec[s], vp = 0;
            stpete_state_vp(st, s, &vp);
            vp_sum[b] += vp;
            seats_held[b]++;
            held[b]++;
            if (winners & (1u << s)) {
                share[b] += 1.0 / k;
                wins[b]++;
            }
        }
        for (int b = 0; b < nspecs; b++)
            rate_sum[b] += held[b] ? share[b] / held[b] : 0;
        if (!quiet && (g + 1) % 50 == 0) {
            fprintf(stderr, "%ld games:", g + 1);
            for (int b = 0; b < nspecs; b++)
                fprintf(stderr, " %s %.3f", specs[b], rate_sum[b] / (double)(g + 1));
            fprintf(stderr, "\n");
        }
    }
    printf("%d players, %ld games (deals from seed %" PRIu64 ", every rotation of the seats)\n", players, games, seed);
    for (int b = 0; b < nspecs; b++) {
        /* Wilson score interval of the per-seat rate, over the games (a game's value: its shares / its seats) */
        double n = (double)games, p = rate_sum[b] / n, z = 1.96;
        double centre = (p + z * z / (2 * n)) / (1 + z * z / n);
        double half = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n);
        printf("  %s\n    win rate per seat %.3f [%.3f, %.3f] (95%%; equal bots: %.3f), wins %ld, mean VP %.1f, "
               "%.2f ms and %.0f iterations per decision\n",
               canon[b], p, centre - half > 0 ? centre - half : 0, centre + half, 1.0 / players, wins[b], vp_sum[b] / (double)seats_held[b],
               decisions[b] ? 1e3 * seconds[b] / (double)decisions[b] : 0.0,
               decisions[b] ? (double)iterations[b] / (double)decisions[b] : 0.0);
    }
    for (int b = 0; b < nspecs; b++)
        stpete_bot_free(bots[b]);
    stpete_state_free(st);
    stpete_game_free(game);
    return 0;
}
