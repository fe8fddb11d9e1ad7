/* bot-match: a small match runner for the reference bots (issue 13), to measure their strength. Not installed:
 * the tournament program is stpete-arena.
 *
 *   bot-match [--players N] [--games G] [--seed S] [--bots SPEC,SPEC...] [--quiet]
 *
 * The specs (stpete_bot_new(); keys separated by colons) are dealt to the seats in turn, as stpete-selfplay does
 * (2 specs, 4 players: A B A B). Each deal (seed S + d) is played once per rotation of the seats (seat s gets
 * spec (s + r) mod the number of specs... rotated by r = 0..N-1), so every bot plays every seat of every deal
 * equally often. A bot's score in a game is its share of the win (1/k for k tied winners, §8, R14), summed over
 * the seats it holds. Printed per spec: the mean share per game with a 95% interval (normal approximation over
 * games), mean VP per seat, wins, and the mean time per decision. Bots are reseeded per game from the game
 * number, so a run is reproducible (iteration budgets). */
#define _POSIX_C_SOURCE 199309L
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <stpete/bots.h>
#include <stpete/stpete.h>

#define MAX_SPECS 4

static void usage(FILE *out)
{
    fprintf(out, "usage: bot-match [--players 2|3|4] [--games G] [--seed S] [--bots SPEC,SPEC...] [--quiet]\n");
}

int main(int argc, char **argv)
{
    int players = 2, quiet = 0;
    long games = 100;
    uint64_t seed = 1;
    const char *list = "greedy,random";
    for (int i = 1; i < argc; i++) {
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(argv[i], "--quiet")) {
            quiet = 1;
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
    if (players < 2 || players > 4 || games < 1) {
        usage(stderr);
        return 2;
    }
    stpete_options opts;
    stpete_options_init(&opts);
    opts.players = players;
    stpete_game *game = NULL;
    stpete_state *st = NULL;
    if (stpete_game_new(&game, &opts) || stpete_state_new(&st, game))
        return 1;

    char specs[MAX_SPECS][STPETE_BOT_SPEC_MAX];
    stpete_bot *bots[MAX_SPECS] = { NULL };
    int nspecs = 0;
    for (const char *p = list; *p && nspecs < MAX_SPECS;) {
        size_t len = strcspn(p, ",");
        if (len >= STPETE_BOT_SPEC_MAX)
            len = STPETE_BOT_SPEC_MAX - 1;
        memcpy(specs[nspecs], p, len);
        specs[nspecs][len] = '\0';
        char msg[256];
        if (stpete_bot_new(&bots[nspecs], game, specs[nspecs], msg, sizeof msg) != STPETE_OK) {
            fprintf(stderr, "bot-match: %s: %s\n", specs[nspecs], msg);
            return 2;
        }
        nspecs++;
        p += len;
        if (*p == ',')
            p++;
    }
    double share_sum[MAX_SPECS] = { 0 }, share_sq[MAX_SPECS] = { 0 }, vp_sum[MAX_SPECS] = { 0 };
    long seats_held[MAX_SPECS] = { 0 }, decisions[MAX_SPECS] = { 0 }, wins[MAX_SPECS] = { 0 };
    double seconds[MAX_SPECS] = { 0 };
    uint64_t iterations[MAX_SPECS] = { 0 };
    for (long g = 0; g < games; g++) {
        int rot = (int)(g % players);
        uint64_t deal = seed + (uint64_t)(g / players);
        int seat_spec[STPETE_MAX_PLAYERS];
        for (int s = 0; s < players; s++)
            seat_spec[s] = ((s + rot) % players) % nspecs;
        for (int b = 0; b < nspecs; b++)
            stpete_bot_set_seed(bots[b], seed * 1000003u + (uint64_t)g);
        stpete_state_reset(st, deal);
        while (!stpete_state_is_terminal(st)) {
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
        for (int s = 0; s < players; s++) {
            int b = seat_spec[s], vp = 0;
            stpete_state_vp(st, s, &vp);
            vp_sum[b] += vp;
            seats_held[b]++;
            if (winners & (1u << s)) {
                share[b] += 1.0 / k;
                wins[b]++;
            }
        }
        for (int b = 0; b < nspecs; b++) {
            share_sum[b] += share[b];
            share_sq[b] += share[b] * share[b];
        }
        if (!quiet && (g + 1) % 50 == 0) {
            fprintf(stderr, "%ld games:", g + 1);
            for (int b = 0; b < nspecs; b++)
                fprintf(stderr, " %s %.3f", specs[b], share_sum[b] / (double)(g + 1));
            fprintf(stderr, "\n");
        }
    }
    printf("%d players, %ld games (deals from seed %" PRIu64 ", every rotation of the seats)\n", players, games, seed);
    for (int b = 0; b < nspecs; b++) {
        double mean = share_sum[b] / (double)games;
        double var = share_sq[b] / (double)games - mean * mean;
        double half = 1.96 * sqrt(var > 0 ? var / (double)games : 0);
        char canon[STPETE_BOT_SPEC_MAX];
        size_t len;
        stpete_bot_spec(bots[b], canon, sizeof canon, &len);
        printf("  %-60s win share %.3f ± %.3f (95%%), wins %ld, mean VP %.1f, %.2f ms/decision, %.0f it/decision\n",
               canon, mean, half, wins[b], vp_sum[b] / (double)seats_held[b],
               decisions[b] ? 1e3 * seconds[b] / (double)decisions[b] : 0.0,
               decisions[b] ? (double)iterations[b] / (double)decisions[b] : 0.0);
    }
    for (int b = 0; b < nspecs; b++)
        stpete_bot_free(bots[b]);
    stpete_state_free(st);
    stpete_game_free(game);
    return 0;
}
