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
static void add_pairs(const config *c, const result *r, double w[MAX_PARTICIPANTS][MAX_PARTICIPANTS], double weight)
{
    const int *who = c->seatings[r->seating];
    for (int a = 0; a < c->players; a++)
        for (int b = 0; b < c->players; b++) {
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
static void fit_bt(const config *c, double w[MAX_PARTICIPANTS][MAX_PARTICIPANTS], double *elo)
{
    int N = c->nparts;
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

/* The tally of the games done, per participant (summary()). */
typedef struct tally {
    double w[MAX_PARTICIPANTS][MAX_PARTICIPANTS]; /* pairwise score of row against column (add_pairs()) */
    double score[MAX_PARTICIPANTS], vp[MAX_PARTICIPANTS];
    long played[MAX_PARTICIPANTS], seats[MAX_PARTICIPANTS], vp_n[MAX_PARTICIPANTS], forfeits[MAX_PARTICIPANTS];
    long wins[MAX_PARTICIPANTS];
    double time_ms[MAX_PARTICIPANTS]; /* thinking time, over its decisions */
    long decisions[MAX_PARTICIPANTS];
    long ngames, nforfeit;
    long *done; /* the numbers of the games done, ngames of them */
    double elo[MAX_PARTICIPANTS], lo[MAX_PARTICIPANTS], hi[MAX_PARTICIPANTS];
} tally;

/* Count one game done into t. */
static void count_game(const config *c, const result *r, tally *t)
{
    add_pairs(c, r, t->w, 1.0);
    t->nforfeit += r->forfeit_seat >= 0;
    const int *who = c->seatings[r->seating];
    double share[MAX_PARTICIPANTS] = { 0 };
    int held[MAX_PARTICIPANTS] = { 0 };
    for (int s = 0; s < c->players; s++) {
        held[who[s]]++;
        t->seats[who[s]]++;
        share[who[s]] += r->ret[s];
        t->time_ms[who[s]] += r->time_ms[s];
        t->decisions[who[s]] += r->decisions[s];
        t->wins[who[s]] += r->ret[s] > 0;
        if (r->forfeit_seat < 0) {
            t->vp[who[s]] += r->vp[s];
            t->vp_n[who[s]]++;
        }
        if (s == r->forfeit_seat)
            t->forfeits[who[s]]++;
    }
    for (int i = 0; i < c->nparts; i++)
        if (held[i]) {
            t->played[i]++;
            t->score[i] += share[i] / held[i];
        }
}

/* The ratings and their 95% intervals: percentiles of 200 bootstrap resamples of the games (seeded from the
 * tournament seed). */
static void rate(const arena *a, tally *t)
{
    const config *c = &a->cfg;
    int N = c->nparts;
    fit_bt(c, t->w, t->elo);
    enum { BOOT = 200 };
    double *boot = xmalloc((size_t)BOOT * MAX_PARTICIPANTS * sizeof *boot);
    uint64_t rng = c->seed ^ 0xB00757A9ull;
    for (int b = 0; b < BOOT && t->ngames > 0; b++) {
        double bw[MAX_PARTICIPANTS][MAX_PARTICIPANTS] = { { 0 } }, be[MAX_PARTICIPANTS];
        for (long k = 0; k < t->ngames; k++) {
            rng = splitmix(rng);
            add_pairs(c, &a->results[t->done[rng % (uint64_t)t->ngames]], bw, 1.0);
        }
        fit_bt(c, bw, be);
        for (int i = 0; i < N; i++)
            boot[i * BOOT + b] = be[i];
    }
    for (int i = 0; i < N; i++) {
        if (t->ngames > 0) {
            qsort(boot + i * BOOT, BOOT, sizeof *boot, cmp_double);
            t->lo[i] = boot[i * BOOT + 4];   /* 2.5% of 200 */
            t->hi[i] = boot[i * BOOT + 194]; /* 97.5% */
        } else {
            t->lo[i] = t->hi[i] = 0;
        }
    }
    free(boot);
}

/* A participant's mean thinking time per decision, in ms (0 before any). */
static double ms_per_decision(const tally *t, int i)
{
    return t->decisions[i] ? t->time_ms[i] / (double)t->decisions[i] : 0.0;
}

/* Print text wrapped between words at width columns. */
static void print_wrapped(const char *text, int width)
{
    while (*text) {
        int n = (int)strlen(text), cut = n;
        if (n > width) {
            cut = width;
            while (cut > 0 && text[cut] != ' ')
                cut--;
            if (cut == 0)
                cut = (int)strcspn(text, " ");
        }
        printf("%.*s\n", cut, text);
        text += cut;
        text += strspn(text, " ");
    }
}

/* How the seats are filled (make_seatings()), one sentence into line (the table's and the start's note). */
void seating_sentence(const config *c, char *line, size_t cap)
{
    int P = c->players, N = c->nparts;
    size_t at = 0;
    if (N >= P) {
        snprintf(line, cap, "%d bots for %d seats, one seat each: %s", N, P,
                 N == P ? "every order equally often" : "every ordered choice of them equally often");
        return;
    }
    at += (size_t)snprintf(line, cap, "%d bots for %d seats, the list repeated to fill them (", N, P);
    for (int s = 0; s < P && at < cap; s++)
        at += (size_t)snprintf(line + at, cap - at, "%s%s", s ? ", " : "", c->parts[s % N].label);
    for (int i = 0; i < N && at < cap; i++) {
        int held = P / N + (i < P % N);
        at += (size_t)snprintf(line + at, cap - at, "%s%s %d seat%s", i == 0 ? "): " : ", ", c->parts[i].label, held,
                               held == 1 ? "" : "s");
    }
    if (at < cap)
        snprintf(line + at, cap - at, " of every game, every arrangement equally often");
}

/* The table: a line per bot with its games, seats, score per seat and Wilson interval, mean VP per seat,
 * forfeits and rating (no timing: the table is the same for the same tournament; --json has each bot's time per
 * decision). */
static void print_table(const config *c, const tally *t)
{
    int N = c->nparts;
    long deals = (c->games + c->nseatings - 1) / c->nseatings;
    int ns = 0;
    stpete_game_is_new_society(c->game, &ns);
    const char *rules = stpete_game_edition(c->game) == 2 ? "second edition"
                        : ns                             ? "first edition, New Society" /* §12 */
                                                         : "first edition";
    printf("%d players, %s, %ld game%s (%d seating%s x %ld deal%s), seed %" PRIu64 ", definition %s\n", c->players,
           rules, t->ngames, t->ngames == 1 ? "" : "s", c->nseatings,
           c->nseatings == 1 ? "" : "s", deals, deals == 1 ? "" : "s", c->seed, c->hash);
    char seating[2048] = "seats: ";
    seating_sentence(c, seating + 7, sizeof seating - 7);
    print_wrapped(seating, 105);
    if (t->nforfeit)
        printf("forfeits: %ld game%s (forfeiting seat: return 0, a loss against every other seat)\n", t->nforfeit,
               t->nforfeit == 1 ? "" : "s");
    int width = 6;
    for (int i = 0; i < N; i++)
        if ((int)strlen(c->parts[i].label) > width)
            width = (int)strlen(c->parts[i].label) > 60 ? 60 : (int)strlen(c->parts[i].label);
    printf("\n%-3s %-*s %6s %6s  %-21s %7s %8s  %s\n", "#", width, "bot", "games", "seats", "score [95%]", "mean VP",
           "forfeits", "Elo (Bradley-Terry) [95%]");
    for (int i = 0; i < N; i++) {
        double n = (double)t->played[i], p = n > 0 ? t->score[i] / n : 0, z = 1.96;
        double centre = n > 0 ? (p + z * z / (2 * n)) / (1 + z * z / n) : 0;
        double half = n > 0 ? z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n) : 0;
        char label[64];
        snprintf(label, sizeof label, "%.60s", c->parts[i].label);
        char sc[40];
        snprintf(sc, sizeof sc, "%.3f [%.3f, %.3f]", p, fmax(0, centre - half), fmin(1, centre + half));
        printf("%-3d %-*s %6ld %6ld  %-21s %7.1f %8ld  %+6.0f [%+.0f, %+.0f]\n", i + 1, width, label, t->played[i],
               t->seats[i], sc,
               t->vp_n[i] ? t->vp[i] / (double)t->vp_n[i] : 0.0, t->forfeits[i], t->elo[i], t->lo[i], t->hi[i]);
    }
}

/* The crosstable, and the names the external bots gave. */
static void print_crosstable(const config *c, const tally *t)
{
    int N = c->nparts;
    printf("\nscore: mean return per seat (1/k for k tied winners; 1/%d for equal bots), its 95%% interval over\n"
           "games; mean VP per seat in games without a forfeit. Crosstable: the row's pairwise score against the\n"
           "column (better return, then more VP, wins; equal is half), over the seat pairs where they met:\n\n     ",
           c->players);
    for (int j = 0; j < N; j++)
        printf(" %6d", j + 1);
    printf("\n");
    for (int i = 0; i < N; i++) {
        printf("%-4d ", i + 1);
        for (int j = 0; j < N; j++) {
            double n = t->w[i][j] + t->w[j][i];
            if (i == j || n == 0)
                printf(" %6s", "-");
            else
                printf(" %6.3f", t->w[i][j] / n);
        }
        printf("\n");
    }
    for (int i = 0; i < N; i++)
        if (c->parts[i].external && c->parts[i].name[0])
            printf("bot %d calls itself '%s'\n", i + 1, c->parts[i].name);
    fflush(stdout);
}

/* One bot's object of the --json table (new reference). */
static json_t *bot_json(const config *c, const tally *t, int i)
{
    json_t *b = json_object();
    double n = (double)t->played[i], p = n > 0 ? t->score[i] / n : 0;
    json_object_set_new(b, "bot", json_string(c->parts[i].label));
    json_object_set_new(b, "name", json_string(c->parts[i].name));
    json_object_set_new(b, "games", json_integer(t->played[i]));
    json_object_set_new(b, "seats", json_integer(t->seats[i]));
    json_object_set_new(b, "score", json_real(p));
    json_object_set_new(b, "wins", json_integer(t->wins[i]));
    json_object_set_new(b, "mean_vp", t->vp_n[i] ? json_real(t->vp[i] / (double)t->vp_n[i]) : json_null());
    json_object_set_new(b, "forfeits", json_integer(t->forfeits[i]));
    json_object_set_new(b, "decisions", json_integer(t->decisions[i]));
    json_object_set_new(b, "ms_per_decision", json_real(ms_per_decision(t, i)));
    json_object_set_new(b, "elo", json_real(t->elo[i]));
    json_object_set_new(b, "elo_low", json_real(t->lo[i]));
    json_object_set_new(b, "elo_high", json_real(t->hi[i]));
    return b;
}

/* The --json file: the definition, the bots' table and the crosstable. */
static void write_json(const config *c, const tally *t)
{
    int N = c->nparts;
    json_t *j = json_object(), *bots = json_array(), *xt = json_array();
    json_error_t e;
    json_object_set_new(j, "definition", json_loads(c->definition, 0, &e));
    json_object_set_new(j, "hash", json_string(c->hash));
    json_object_set_new(j, "games", json_integer(t->ngames));
    json_object_set_new(j, "seatings", json_integer(c->nseatings));
    json_object_set_new(j, "forfeits", json_integer(t->nforfeit));
    for (int i = 0; i < N; i++) {
        json_t *row = json_array();
        json_array_append_new(bots, bot_json(c, t, i));
        for (int k = 0; k < N; k++) {
            double n2 = t->w[i][k] + t->w[k][i];
            json_array_append_new(row, i == k || n2 == 0 ? json_null() : json_real(t->w[i][k] / n2));
        }
        json_array_append_new(xt, row);
    }
    json_object_set_new(j, "bots", bots);
    json_object_set_new(j, "crosstable", xt);
    int fd = open_file(c->json_path, O_WRONLY | O_CREAT | O_TRUNC);
    if (fd < 0)
        die(1, "cannot write %s: %s", c->json_path, open_why(errno));
    if (json_dumpfd(j, fd, JSON_INDENT(2) | JSON_SORT_KEYS) != 0 || close(fd) != 0)
        die(1, "cannot write %s", c->json_path);
    json_decref(j);
}

void summary(const arena *a)
{
    const config *c = &a->cfg;
    tally *t = xmalloc(sizeof *t);
    t->done = xmalloc((size_t)(c->games > 0 ? c->games : 1) * sizeof *t->done);
    for (long g = 0; g < c->games; g++)
        if (a->results[g].done) {
            t->done[t->ngames++] = g;
            count_game(c, &a->results[g], t);
        }
    rate(a, t);
    print_table(c, t);
    print_crosstable(c, t);
    if (c->json_path)
        write_json(c, t);
    free(t->done);
    free(t);
}
