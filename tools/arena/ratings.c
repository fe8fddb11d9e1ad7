/* stpete-arena: the summary of a tournament: crosstable, Bradley-Terry (Elo-scale) ratings with their
 * intervals, mean VP per bot, and the --json table. */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <dirent.h>
#include <sys/prctl.h>
#endif
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include <stpete/bots.h>
#include <stpete/stpete.h>

#include "arena.h"

/* ---- summary: crosstable, ratings ---------------------------------------------------------------- */

/* Pairwise outcomes of a game between seats held by different participants: by return, then by final VP; equal
 * is a tie (half a win each). */
static void add_pairs(const result *r, double w[MAX_PARTICIPANTS][MAX_PARTICIPANTS], double weight)
{
    const int *who = cfg.seatings[r->seating];
    for (int a = 0; a < cfg.players; a++)
        for (int b = 0; b < cfg.players; b++) {
            if (a == b || who[a] == who[b])
                continue;
            int better = r->ret[a] > r->ret[b] + 1e-9 ||
                         (fabs(r->ret[a] - r->ret[b]) <= 1e-9 && r->forfeit_seat < 0 && r->vp[a] > r->vp[b]);
            int equal = fabs(r->ret[a] - r->ret[b]) <= 1e-9 && (r->forfeit_seat >= 0 || r->vp[a] == r->vp[b]);
            w[who[a]][who[b]] += weight * (better ? 1.0 : equal ? 0.5 : 0.0);
        }
}

/* Bradley-Terry strengths by Hunter's MM iterations, with one drawn game between every pair as a prior (so that
 * a bot that wins or loses everything gets a finite rating), as Elo-scale ratings with mean 0. */
static void fit_bt(double w[MAX_PARTICIPANTS][MAX_PARTICIPANTS], double *elo)
{
    int N = cfg.nparts;
    double gam[MAX_PARTICIPANTS], ww[MAX_PARTICIPANTS][MAX_PARTICIPANTS];
    for (int i = 0; i < N; i++) {
        gam[i] = 1;
        for (int j = 0; j < N; j++)
            ww[i][j] = i == j ? 0 : w[i][j] + 0.5;
    }
    for (int it = 0; it < 10000; it++) {
        double change = 0, logsum = 0;
        for (int i = 0; i < N; i++) {
            double wins = 0, den = 0;
            for (int j = 0; j < N; j++) {
                if (j == i)
                    continue;
                wins += ww[i][j];
                den += (ww[i][j] + ww[j][i]) / (gam[i] + gam[j]);
            }
            double next = den > 0 ? wins / den : gam[i];
            change = fmax(change, fabs(log(next / gam[i])));
            gam[i] = next;
        }
        for (int i = 0; i < N; i++)
            logsum += log(gam[i]);
        for (int i = 0; i < N; i++)
            gam[i] /= exp(logsum / N);
        if (change < 1e-10)
            break;
    }
    for (int i = 0; i < N; i++)
        elo[i] = 400.0 * log10(gam[i]);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void summary(void)
{
    int N = cfg.nparts, P = cfg.players;
    double w[MAX_PARTICIPANTS][MAX_PARTICIPANTS] = { { 0 } };
    double score[MAX_PARTICIPANTS] = { 0 }, vp[MAX_PARTICIPANTS] = { 0 };
    long played[MAX_PARTICIPANTS] = { 0 }, vp_n[MAX_PARTICIPANTS] = { 0 }, forfeits[MAX_PARTICIPANTS] = { 0 };
    long wins[MAX_PARTICIPANTS] = { 0 }, ngames = 0, nforfeit = 0;
    long *done = xmalloc((size_t)(cfg.games > 0 ? cfg.games : 1) * sizeof *done);
    for (long g = 0; g < cfg.games; g++) {
        const result *r = &results[g];
        if (!r->done)
            continue;
        done[ngames++] = g;
        nforfeit += r->forfeit_seat >= 0;
        add_pairs(r, w, 1.0);
        const int *who = cfg.seatings[r->seating];
        double share[MAX_PARTICIPANTS] = { 0 };
        int held[MAX_PARTICIPANTS] = { 0 };
        for (int s = 0; s < P; s++) {
            held[who[s]]++;
            share[who[s]] += r->ret[s];
            wins[who[s]] += r->ret[s] > 0;
            if (r->forfeit_seat < 0) {
                vp[who[s]] += r->vp[s];
                vp_n[who[s]]++;
            }
            if (s == r->forfeit_seat)
                forfeits[who[s]]++;
        }
        for (int i = 0; i < N; i++)
            if (held[i]) {
                played[i]++;
                score[i] += share[i] / held[i];
            }
    }
    double elo[MAX_PARTICIPANTS], lo[MAX_PARTICIPANTS], hi[MAX_PARTICIPANTS];
    fit_bt(w, elo);
    /* 95% intervals: percentiles of 200 bootstrap resamples of the games (seeded from the tournament seed) */
    enum { BOOT = 200 };
    double *boot = xmalloc((size_t)BOOT * MAX_PARTICIPANTS * sizeof *boot);
    uint64_t rng = cfg.seed ^ 0xB00757A9ull;
    for (int b = 0; b < BOOT && ngames > 0; b++) {
        double bw[MAX_PARTICIPANTS][MAX_PARTICIPANTS] = { { 0 } }, be[MAX_PARTICIPANTS];
        for (long k = 0; k < ngames; k++) {
            rng = splitmix(rng);
            add_pairs(&results[done[rng % (uint64_t)ngames]], bw, 1.0);
        }
        fit_bt(bw, be);
        for (int i = 0; i < N; i++)
            boot[i * BOOT + b] = be[i];
    }
    for (int i = 0; i < N; i++) {
        if (ngames > 0) {
            qsort(boot + i * BOOT, BOOT, sizeof *boot, cmp_double);
            lo[i] = boot[i * BOOT + 4];   /* 2.5% of 200 */
            hi[i] = boot[i * BOOT + 194]; /* 97.5% */
        } else {
            lo[i] = hi[i] = 0;
        }
    }
    free(boot);

    stpete_options o;
    stpete_options_init(&o);
    stpete_game_get_options(cfg.game, &o);
    long deals = (cfg.games + cfg.nseatings - 1) / cfg.nseatings;
    printf("%d players, %s, %ld game%s (%d seating%s x %ld deal%s), seed %" PRIu64 ", definition %s\n", P,
           cfg.edition == 2 ? "second edition" : "first edition", ngames, ngames == 1 ? "" : "s", cfg.nseatings,
           cfg.nseatings == 1 ? "" : "s", deals, deals == 1 ? "" : "s", cfg.seed, cfg.hash);
    if (nforfeit)
        printf("forfeits: %ld game%s (forfeiting seat: return 0, a loss against every other seat)\n", nforfeit,
               nforfeit == 1 ? "" : "s");
    int width = 6;
    for (int i = 0; i < N; i++)
        if ((int)strlen(cfg.parts[i].label) > width)
            width = (int)strlen(cfg.parts[i].label) > 60 ? 60 : (int)strlen(cfg.parts[i].label);
    printf("\n%-3s %-*s %6s  %-21s %7s %8s  %s\n", "#", width, "bot", "games", "score [95%]", "mean VP", "forfeits",
           "Elo (Bradley-Terry) [95%]");
    for (int i = 0; i < N; i++) {
        double n = (double)played[i], p = n > 0 ? score[i] / n : 0, z = 1.96;
        double centre = n > 0 ? (p + z * z / (2 * n)) / (1 + z * z / n) : 0;
        double half = n > 0 ? z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n) : 0;
        char label[64];
        snprintf(label, sizeof label, "%.60s", cfg.parts[i].label);
        char sc[40];
        snprintf(sc, sizeof sc, "%.3f [%.3f, %.3f]", p, fmax(0, centre - half), fmin(1, centre + half));
        printf("%-3d %-*s %6ld  %-21s %7.1f %8ld  %+6.0f [%+.0f, %+.0f]\n", i + 1, width, label, played[i], sc,
               vp_n[i] ? vp[i] / (double)vp_n[i] : 0.0, forfeits[i], elo[i], lo[i], hi[i]);
    }
    printf("\nscore: mean return per game (1/k for k tied winners; 1/%d for equal bots); mean VP over games\n"
           "without a forfeit. Crosstable: the row's pairwise score against the column (better return, then more\n"
           "VP, wins; equal is half), over the seat pairs where they met:\n\n     ", P);
    for (int j = 0; j < N; j++)
        printf(" %6d", j + 1);
    printf("\n");
    for (int i = 0; i < N; i++) {
        printf("%-4d ", i + 1);
        for (int j = 0; j < N; j++) {
            double n = w[i][j] + w[j][i];
            if (i == j || n == 0)
                printf(" %6s", "-");
            else
                printf(" %6.3f", w[i][j] / n);
        }
        printf("\n");
    }
    for (int i = 0; i < N; i++)
        if (cfg.parts[i].external && cfg.parts[i].name[0])
            printf("bot %d calls itself '%s'\n", i + 1, cfg.parts[i].name);
    fflush(stdout);

    if (cfg.json_path) {
        json_t *j = json_object(), *bots = json_array(), *xt = json_array();
        json_error_t e;
        json_object_set_new(j, "definition", json_loads(cfg.definition, 0, &e));
        json_object_set_new(j, "hash", json_string(cfg.hash));
        json_object_set_new(j, "games", json_integer(ngames));
        json_object_set_new(j, "seatings", json_integer(cfg.nseatings));
        json_object_set_new(j, "forfeits", json_integer(nforfeit));
        for (int i = 0; i < N; i++) {
            json_t *b = json_object(), *row = json_array();
            double n = (double)played[i], p = n > 0 ? score[i] / n : 0;
            json_object_set_new(b, "bot", json_string(cfg.parts[i].label));
            json_object_set_new(b, "name", json_string(cfg.parts[i].name));
            json_object_set_new(b, "games", json_integer(played[i]));
            json_object_set_new(b, "score", json_real(p));
            json_object_set_new(b, "wins", json_integer(wins[i]));
            json_object_set_new(b, "mean_vp", vp_n[i] ? json_real(vp[i] / (double)vp_n[i]) : json_null());
            json_object_set_new(b, "forfeits", json_integer(forfeits[i]));
            json_object_set_new(b, "elo", json_real(elo[i]));
            json_object_set_new(b, "elo_low", json_real(lo[i]));
            json_object_set_new(b, "elo_high", json_real(hi[i]));
            json_array_append_new(bots, b);
            for (int k = 0; k < N; k++) {
                double n2 = w[i][k] + w[k][i];
                json_array_append_new(row, i == k || n2 == 0 ? json_null() : json_real(w[i][k] / n2));
            }
            json_array_append_new(xt, row);
        }
        json_object_set_new(j, "bots", bots);
        json_object_set_new(j, "crosstable", xt);
        int fd = open_file(cfg.json_path, O_WRONLY | O_CREAT | O_TRUNC);
        if (fd < 0)
            die(1, "cannot write %s: %s", cfg.json_path, open_why(errno));
        if (json_dumpfd(j, fd, JSON_INDENT(2) | JSON_SORT_KEYS) != 0 || close(fd) != 0)
            die(1, "cannot write %s", cfg.json_path);
        json_decref(j);
    }
    free(done);
}
