/* stpete-arena: the results: the table of finished games, progress, the results file (--out: one JSON line
  * per game, written whole) and the replay records (--record), and reading a results file back (--resume) with
  * the validation of every field. */

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

#include "cli.h"
#include "arena.h"

/* ---- results ------------------------------------------------------------------------------------- */

void grow_results(arena *a, long n)
{
    if (n <= a->results_cap)
        return;
    result *r = realloc(a->results, (size_t)n * sizeof *r);
    if (!r)
        die(1, "out of memory");
    memset(r + a->results_cap, 0, (size_t)(n - a->results_cap) * sizeof *r);
    a->results = r;
    a->results_cap = n;
}

/* A forfeit on standard error: the game, the seat and bot, the reason and detail, and the last lines of the bot's
 * standard error (at most 5). Called with the mutex held. */
void report_forfeit(const arena *a, long g, int seat, const char *bot, const failure *f)
{
    fprintf(stderr, "%s%s: game %ld: seat %d (%s) forfeits: %s: %s\n", a->tty ? "\n" : "", PROGRAM, g, seat, bot, f->reason,
            f->detail);
    const char *t = f->stderr_tail, *end = t + strlen(t);
    while (end > t && end[-1] == '\n')
        end--;
    const char *start = end;
    for (int lines = 0; start > t; start--)
        if (start[-1] == '\n' && ++lines == 5)
            break;
    while (start < end && *start == '\n')
        start++;
    while (start < end) {
        const char *nl = memchr(start, '\n', (size_t)(end - start));
        const char *stop = nl ? nl : end;
        fprintf(stderr, "  | %.*s\n", (int)(stop - start), start);
        start = stop + (nl != NULL);
    }
}

void progress(const arena *a)
{
    double el = now_s() - a->t_start;
    double rate = el > 0 ? (double)a->games_done / el : 0;
    if (a->tty) {
        int width = 30, fill = a->games_todo ? (int)(width * a->games_done / a->games_todo) : width;
        char bar[64];
        for (int i = 0; i < width; i++)
            bar[i] = i < fill ? '#' : '.';
        bar[width] = '\0';
        double eta = rate > 0 ? (double)(a->games_todo - a->games_done) / rate : 0;
        fprintf(stderr, "\r[%s] %ld/%ld games  %.1f games/s  ETA %.0f s ", bar, a->games_done, a->games_todo, rate, eta);
        if (a->games_done == a->games_todo)
            fputc('\n', stderr);
    } else {
        long step = a->games_todo / 10 > 0 ? a->games_todo / 10 : 1;
        if (a->games_done % step == 0 || a->games_done == a->games_todo)
            fprintf(stderr, "%s: %ld/%ld games (%.1f games/s)\n", PROGRAM, a->games_done, a->games_todo, rate);
    }
    fflush(stderr);
}

/* Append a line (newline included) with one write(), so that a killed tournament never leaves half a line
 * behind another game's. */
void append_line(const arena *a, const char *line, size_t len)
{
    if (a->out_fd < 0)
        return;
    size_t done = 0;
    while (done < len) {
        ssize_t n = write(a->out_fd, line + done, len - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            die(1, "cannot write the results file: %s", strerror(errno));
        done += (size_t)n;
    }
}

json_t *int_array(const int *v, int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_integer(v[i]));
    return a;
}

json_t *result_json(const stpete_state *st, const int *vp, const double *ret, int P)
{
    json_t *r = json_object(), *w = json_array(), *rets = json_array();
    unsigned winners = 0;
    int terminal = stpete_state_is_terminal_or(st, 1);
    if (terminal)
        stpete_state_winners(st, &winners);
    for (int s = 0; s < P; s++) {
        if (ret[s] > 0)
            json_array_append_new(w, json_integer(s));
        json_array_append_new(rets, json_real(ret[s]));
    }
    json_object_set_new(r, "scores", int_array(vp, P));
    json_object_set_new(r, "winners", w);
    json_object_set_new(r, "returns", rets);
    json_object_set_new(r, "finished", json_boolean(terminal));
    return r;
}

void write_record(const config *c, uint64_t deal, const int *ids, size_t n, long g)
{
    size_t len = 0;
    int rc = stpete_replay_to_json(c->game, deal, ids, n, NULL, 0, &len);
    char *text = rc == STPETE_E_BUFFER_TOO_SMALL ? xmalloc(len + 1) : NULL;
    if (text)
        rc = stpete_replay_to_json(c->game, deal, ids, n, text, len + 1, &len);
    char path[4096];
    snprintf(path, sizeof path, "%s/game-%06ld.json", c->record_dir, g);
    int fd = rc == STPETE_OK ? open_file(path, O_WRONLY | O_CREAT | O_TRUNC) : -1;
    int why = fd < 0 ? errno : 0;
    FILE *fp = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (fd >= 0 && !fp)
        close(fd);
    if (!fp || fwrite(text, 1, len, fp) != len || fputc('\n', fp) == EOF)
        fprintf(stderr, "%s: cannot write %s%s%s\n", PROGRAM, path, why ? ": " : "", why ? open_why(why) : "");
    if (fp)
        fclose(fp);
    free(text);
}

/* ---- resume -------------------------------------------------------------------------------------- */

/* An integer in [lo, hi]. */
static int int_in(json_t *v, json_int_t lo, json_int_t hi)
{
    return json_is_integer(v) && json_integer_value(v) >= lo && json_integer_value(v) <= hi;
}

/* An array of n integers in [lo, hi], into out. */
static int int_array_in(json_t *a, int *out, int n, json_int_t lo, json_int_t hi)
{
    if (!json_is_array(a) || (int)json_array_size(a) != n)
        return 0;
    for (int i = 0; i < n; i++) {
        if (!int_in(json_array_get(a, (size_t)i), lo, hi))
            return 0;
        out[i] = (int)json_integer_value(json_array_get(a, (size_t)i));
    }
    return 1;
}

static int is_forfeit_reason(const char *s)
{
    static const char *const reasons[] = { "crash", "timeout", "garbage", "illegal", "handshake", "start-timeout" };
    for (size_t i = 0; i < sizeof reasons / sizeof *reasons; i++)
        if (!strcmp(s, reasons[i]))
            return 1;
    return 0;
}

#define BAD(...) do { snprintf(why, why_size, __VA_ARGS__); return -1; } while (0)

/* Whether every key of object o is one of the NULL-terminated keys (a results file carries no other field); on an
 * unknown one, -1 with why naming it (where says which object). */
static int known_keys(json_t *o, const char *const *keys, const char *where, char *why, size_t why_size)
{
    const char *key;
    json_t *value;
    json_object_foreach(o, key, value) {
        size_t k = 0;
        while (keys[k] && strcmp(keys[k], key) != 0)
            k++;
        if (!keys[k])
            BAD("%s has an unknown key \"%.60s\"", where, key);
    }
    return 0;
}

/* The fewest actions a finished game of these options can take (the arena plays sampled chance, so every action
 * is a seat's). From the library: the fewest cards any stack holds after the setup, S (stpete_state_stack_size()
 * of an initial state). The game ends only once a deal has emptied a stack (§4.6). The cards that left that stack
 * after the setup were dealt onto the board or drawn by an Observatory (an action each, §7.1); the board, which
 * starts with 2N cards and never holds more than 8, loses cards only to buys and takes (an action each) and to the
 * lower row discarded at the end of each of the R - 1 rounds before the last (at most 8 each, §4.5). So
 * S <= X + 8R - 2N with X the buys, takes and draws. Every phase ends with N consecutive passes (§4.3), 4N passes
 * a round: the actions are at least X + 4NR >= S + 2N + (4N - 8)R >= S + 2N + 4N - 8, as R >= 1 and N >= 2.
 * With 5 players (the New Society, §12.3, R20) the opening deal puts 10 cards on the board, 2 above 8: S <= X + 8R
 * + 2 - 2N, and the bound is 2 lower. */
static int fewest_actions(const config *c)
{
    stpete_state *st = NULL;
    if (stpete_state_new(c->game, &st, NULL) != STPETE_OK)
        die(1, "cannot create a state");
    int least = stpete_state_stack_size(st, 0);
    for (int k = 1; k < 4; k++)
        if (stpete_state_stack_size(st, k) < least)
            least = stpete_state_stack_size(st, k);
    stpete_state_free(st);
    return least + 2 * c->players + 4 * c->players - 8 - (c->players > 4 ? 2 : 0);
}

/* The fields that follow from the game number alone: deal, deal seed, seating and bots; the game number g
 * within [0, --games). */
static int check_identity(const config *c, json_t *m, long *g_out, char *why, size_t why_size)
{
    int P = c->players, S = c->nseatings;
    json_t *gv = json_object_get(m, "game");
    if (!int_in(gv, 0, c->games - 1))
        BAD("\"game\" must be a game number of this run, an integer in [0, %ld] (a file with more games is resumed "
            "with a larger --games)", c->games - 1);
    long g = *g_out = (long)json_integer_value(gv);
    const int *who = c->seatings[g % S];
    if (!int_in(json_object_get(m, "deal"), g / S, g / S))
        BAD("\"deal\" must be %ld (game %ld of %d seatings)", g / S, g, S);
    char deal_seed[20];
    snprintf(deal_seed, sizeof deal_seed, "%016" PRIx64, mix3(c->seed, 0xDEA1, (uint64_t)(g / S)));
    json_t *ds = json_object_get(m, "deal_seed");
    if (!json_is_string(ds) || strcmp(json_string_value(ds), deal_seed))
        BAD("\"deal_seed\" must be \"%s\", game %ld's", deal_seed, g);
    int seating[STPETE_MAX_PLAYERS];
    if (!int_array_in(json_object_get(m, "seating"), seating, P, 0, c->nparts - 1) ||
        memcmp(seating, who, (size_t)P * sizeof(int)) != 0)
        BAD("\"seating\" must be game %ld's seating of this tournament", g);
    json_t *names = json_object_get(m, "bots");
    if (!json_is_array(names) || (int)json_array_size(names) != P)
        BAD("\"bots\" must be an array of %d labels", P);
    for (int s = 0; s < P; s++) {
        json_t *nm = json_array_get(names, (size_t)s);
        if (!json_is_string(nm) || strcmp(json_string_value(nm), c->parts[who[s]].label))
            BAD("\"bots\"[%d] must be \"%s\", the participant of seat %d", s, c->parts[who[s]].label, s);
    }
    return 0;
}

/* "result": scores within ±STPETE_VP_MAX, returns in [0, 1] adding up to 1, the winners the seats with a return,
 * ascending; "finished" a boolean; its keys those of result_json() and "forfeit". Into r. */
static int check_result(const config *c, json_t *res, result *r, char *why, size_t why_size)
{
    static const char *const keys[] = { "scores", "winners", "returns", "finished", "forfeit", NULL };
    int P = c->players;
    if (!json_is_object(res))
        BAD("\"result\" must be an object");
    if (known_keys(res, keys, "\"result\"", why, why_size))
        return -1;
    if (!int_array_in(json_object_get(res, "scores"), r->vp, P, -STPETE_VP_MAX, STPETE_VP_MAX))
        BAD("\"result\".\"scores\" must be %d integers in [%d, %d] (VP)", P, -STPETE_VP_MAX, STPETE_VP_MAX);
    json_t *rets = json_object_get(res, "returns");
    double sum = 0;
    if (!json_is_array(rets) || (int)json_array_size(rets) != P)
        BAD("\"result\".\"returns\" must be %d numbers", P);
    for (int s = 0; s < P; s++) {
        json_t *v = json_array_get(rets, (size_t)s);
        r->ret[s] = json_number_value(v);
        if (!json_is_number(v) || !(r->ret[s] >= 0 && r->ret[s] <= 1))
            BAD("\"result\".\"returns\"[%d] must be a number in [0, 1]", s);
        sum += r->ret[s];
    }
    if (fabs(sum - 1) > 1e-9)
        BAD("\"result\".\"returns\" must add up to 1, not %.17g", sum);
    json_t *winners = json_object_get(res, "winners");
    int nw = 0;
    for (int s = 0; s < P; s++)
        nw += r->ret[s] > 0;
    if (!json_is_array(winners) || (int)json_array_size(winners) != nw)
        BAD("\"result\".\"winners\" must list the %d seat(s) with a return above 0", nw);
    for (int k = 0, s = 0; s < P; s++)
        if (r->ret[s] > 0 && !int_in(json_array_get(winners, (size_t)k++), s, s))
            BAD("\"result\".\"winners\" must list the seats with a return above 0, ascending");
    if (!json_is_boolean(json_object_get(res, "finished")))
        BAD("\"result\".\"finished\" must be true or false");
    return 0;
}

/* A game played to its end (§8, R14): the winners hold the top score; more than one only when they tie on it
 * (the tie-break, rubles mod 10 or in total by the game's option, is not in the file: a seat with the top score
 * may have lost it), each with the return 1/k of k winners and the others 0 (stpete_state_returns()); and at least
 * fewest_actions() actions. */
static int check_finished(const config *c, const result *r, int least, char *why, size_t why_size)
{
    int P = c->players, top = r->vp[0], nw = 0;
    for (int s = 1; s < P; s++)
        if (r->vp[s] > top)
            top = r->vp[s];
    for (int s = 0; s < P; s++)
        nw += r->ret[s] > 0;
    for (int s = 0; s < P; s++) {
        if (r->ret[s] > 0 && r->vp[s] != top)
            BAD("seat %d is a winner with %d VP, but the top score is %d VP (§8: the most VP wins)", s, r->vp[s], top);
        if (r->ret[s] > 0 && fabs(r->ret[s] - 1.0 / nw) > 1e-9)
            BAD("\"result\".\"returns\"[%d] must be 1/%d, a share of the %d tied winner(s) (§8, R14)", s, nw, nw);
    }
    if (r->actions < least)
        BAD("\"actions\" %d: a finished game of %d players takes at least %d actions", r->actions, P, least);
    return 0;
}

/* "forfeit": null for a finished game; for a game that is not, a seat of the game with its participant's label, a
 * known reason, detail and stderr, equal to "result"."forfeit", and the returns a forfeit gives. Into r. */
static int check_forfeit(const config *c, json_t *m, result *r, int finished, char *why, size_t why_size)
{
    static const char *const keys[] = { "seat", "bot", "reason", "detail", "stderr", NULL };
    int P = c->players;
    const int *who = c->seatings[r->seating];
    json_t *ff = json_object_get(m, "forfeit");
    if (!json_equal(ff, json_object_get(json_object_get(m, "result"), "forfeit")))
        BAD("\"forfeit\" and \"result\".\"forfeit\" must be equal");
    r->forfeit_seat = -1;
    if (json_is_null(ff) != finished)
        BAD("\"forfeit\" must be null exactly when \"result\".\"finished\" is true (a game ends by its final "
            "scoring or by a forfeit)");
    if (json_is_null(ff))
        return 0;
    json_t *fs = json_object_get(ff, "seat"), *reason = json_object_get(ff, "reason"), *fb = json_object_get(ff, "bot");
    if (!json_is_object(ff) || !int_in(fs, 0, P - 1))
        BAD("\"forfeit\" must be null or an object whose \"seat\" is a seat of this %d-player game", P);
    if (known_keys(ff, keys, "\"forfeit\"", why, why_size))
        return -1;
    r->forfeit_seat = (int)json_integer_value(fs);
    if (!json_is_string(reason) || !is_forfeit_reason(json_string_value(reason)))
        BAD("\"forfeit\".\"reason\" must be one of crash, timeout, garbage, illegal, handshake, start-timeout");
    if (!json_is_string(fb) || strcmp(json_string_value(fb), c->parts[who[r->forfeit_seat]].label))
        BAD("\"forfeit\".\"bot\" must be \"%s\", the participant of seat %d", c->parts[who[r->forfeit_seat]].label,
            r->forfeit_seat);
    if (!json_is_string(json_object_get(ff, "detail")) || !json_is_string(json_object_get(ff, "stderr")))
        BAD("\"forfeit\".\"detail\" and \"stderr\" must be strings");
    for (int s = 0; s < P; s++)
        if (fabs(r->ret[s] - (s == r->forfeit_seat ? 0.0 : 1.0 / (P - 1))) > 1e-9) /* written with 12 digits */
            BAD("\"result\".\"returns\" must be those of a forfeit of seat %d (0 for it, 1/%d for the others)",
                r->forfeit_seat, P - 1);
    snprintf(r->reason, sizeof r->reason, "%s", json_string_value(reason));
    return 0;
}

/* "actions" within the longest game (stpete_game_max_length()), "time_ms" per seat at least 0, "decisions" per
 * seat adding up to the actions (each action is one seat's decision). Into r. */
static int check_counts(const config *c, json_t *m, result *r, char *why, size_t why_size)
{
    int P = c->players, most = stpete_game_max_length(c->game);
    json_t *actions = json_object_get(m, "actions");
    if (!int_in(actions, 0, most))
        BAD("\"actions\" must be an integer in [0, %d] (the longest game)", most);
    r->actions = (int)json_integer_value(actions);
    json_t *times = json_object_get(m, "time_ms");
    if (!json_is_array(times) || (int)json_array_size(times) != P)
        BAD("\"time_ms\" must be %d numbers", P);
    for (int s = 0; s < P; s++) {
        json_t *v = json_array_get(times, (size_t)s);
        if (!json_is_number(v) || !(json_number_value(v) >= 0 && json_number_value(v) < 1e15))
            BAD("\"time_ms\"[%d] must be a number of milliseconds, at least 0", s);
    }
    int decisions[STPETE_MAX_PLAYERS], sum = 0;
    if (!int_array_in(json_object_get(m, "decisions"), decisions, P, 0, r->actions))
        BAD("\"decisions\" must be %d integers in [0, %d] (the game's actions)", P, r->actions);
    for (int s = 0; s < P; s++)
        sum += decisions[s];
    if (sum != r->actions)
        BAD("\"decisions\" must add up to \"actions\" (%d), not %d: each action is one seat's decision", r->actions,
            sum);
    return 0;
}

/* Check a game line of a results file against this tournament's definition and the rules of its game, field by
 * field (the results file of doc/protocol.md): no unknown key; check_identity(), check_counts(), check_result(),
 * check_forfeit(), and for a finished game check_finished() with least, fewest_actions(). 0 with *r filled, or -1
 * with why set. */
static int check_game_line(const config *c, json_t *m, int least, result *r, char *why, size_t why_size)
{
    static const char *const keys[] = { "type", "hash", "game", "deal", "deal_seed", "seating", "bots", "actions",
                                        "result", "forfeit", "time_ms", "decisions", NULL };
    long g;
    memset(r, 0, sizeof *r);
    if (known_keys(m, keys, "the line", why, why_size) || check_identity(c, m, &g, why, why_size))
        return -1;
    r->seating = (int)(g % c->nseatings);
    if (check_counts(c, m, r, why, why_size) || check_result(c, json_object_get(m, "result"), r, why, why_size))
        return -1;
    int finished = json_is_true(json_object_get(json_object_get(m, "result"), "finished"));
    if (check_forfeit(c, m, r, finished, why, why_size))
        return -1;
    if (finished && check_finished(c, r, least, why, why_size))
        return -1;
    r->done = 1;
    return 0;
}

#undef BAD

/* The header line of a results file: the keys main() writes, the definition this tournament's (its hash alone
 * could be copied onto another definition). Dies (exit 2) otherwise. */
static void check_header(const config *c, json_t *m, const char *path, long lineno)
{
    static const char *const keys[] = { "type", "hash", "version", "definition", NULL };
    char why[160];
    json_error_t e;
    json_t *ours = json_loads(c->definition, 0, &e);
    if (known_keys(m, keys, "the header", why, sizeof why))
        die(2, "%s: line %ld: %s; not resuming (the file is unchanged)", path, lineno, why);
    if (!json_is_string(json_object_get(m, "version")) || !json_equal(json_object_get(m, "definition"), ours))
        die(2, "%s: line %ld: the header must carry a \"version\" and this tournament's \"definition\" %s; not "
               "resuming (the file is unchanged)", path, lineno, c->definition);
    json_decref(ours);
}

/* One line of a results file to resume (not blank, newline included): a header (check_header()) or a game line
 * (check_game_line(), a game not seen before), into the table. Returns 1 for a game line, 0 for the header; dies
 * (exit 2) on any other line. */
static int read_line_of(arena *a, const char *path, long lineno, const char *line, size_t n, int least)
{
    const config *c = &a->cfg;
    json_error_t e;
    json_t *m = json_loadb(line, n, 0, &e);
    json_t *type = json_object_get(m, "type"), *hash = json_object_get(m, "hash");
    if (!json_is_object(m) || !json_is_string(type) || !json_is_string(hash))
        die(2, "%s: line %ld is not a result line of stpete-arena; not resuming (the file is unchanged)", path,
            lineno);
    if (strcmp(json_string_value(hash), c->hash) != 0)
        die(2, "%s: line %ld belongs to another tournament (definition %s, this one is %s): "
               "the same game options, --seed, --bots, --time-ms and --start-ms are needed to resume",
            path, lineno, json_string_value(hash), c->hash);
    int game = 0;
    if (!strcmp(json_string_value(type), "tournament")) {
        check_header(c, m, path, lineno);
    } else if (!strcmp(json_string_value(type), "game")) {
        result r;
        char why[300];
        if (check_game_line(c, m, least, &r, why, sizeof why) != 0)
            die(2, "%s: line %ld is not a valid game line of this tournament: %s; not resuming (the file is "
                   "unchanged)", path, lineno, why);
        long g = (long)json_integer_value(json_object_get(m, "game"));
        if (a->results[g].done)
            die(2, "%s: line %ld: game %ld is there twice; not resuming (the file is unchanged)", path, lineno, g);
        a->results[g] = r;
        game = 1;
    } else {
        die(2, "%s: line %ld has an unknown \"type\"; not resuming (the file is unchanged)", path, lineno);
    }
    json_decref(m);
    return game;
}

/* Read the results file of a tournament to resume: its header must carry this definition's hash, and every game line
 * must pass check_game_line(). A bad line is refused with its number (exit 2), the file unchanged; blank lines are
 * skipped; a last line cut short by a kill is dropped (and cut from the file). */
long read_results(arena *a, const char *path)
{
    int fd = open_file(path, O_RDWR);
    if (fd < 0 && errno == ENOENT)
        return 0; /* nothing to resume: a new tournament */
    FILE *fp = fd >= 0 ? fdopen(fd, "rb") : NULL;
    if (!fp)
        die(2, "cannot open %s: %s", path, open_why(errno));
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    long lineno = 0, headers = 0, games = 0;
    off_t good = 0;
    int least = fewest_actions(&a->cfg);
    while ((n = getline(&line, &cap, fp)) > 0) {
        lineno++;
        if (line[n - 1] != '\n') {
            fprintf(stderr, "%s: %s: line %ld is incomplete (the tournament was killed while writing it): dropped\n",
                    PROGRAM, path, lineno);
            break;
        }
        if (strspn(line, " \t\r\n") != (size_t)n) { /* not a blank line (one appended by an editor) */
            int game = read_line_of(a, path, lineno, line, (size_t)n, least);
            games += game;
            headers += !game;
        }
        good += n;
    }
    free(line);
    if (good > 0 && headers == 0)
        die(2, "%s: no tournament header line", path);
    if (ftruncate(fd, good) != 0) /* the file read, not whatever the name means by now */
        die(1, "%s: %s", path, strerror(errno));
    fclose(fp);
    return games;
}
