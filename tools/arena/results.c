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

/* The game line of game g (its deal's seed, its actions ids[0..n) and the arena's fields), newline included, as
 * the library writes it (stpete_results_game_to_json(): the game's replay record, which --resume replays).
 * Returns malloc'd text, *len its length; dies out of memory. */
char *results_line(const config *c, long g, uint64_t deal, const int *ids, size_t n, json_t *fields, size_t *len)
{
    char *text = json_dumps(fields, JSON_COMPACT | JSON_REAL_PRECISION(12));
    if (!text)
        die(1, "out of memory");
    size_t need = 0;
    int rc = stpete_results_game_to_json(c->game, c->definition, g, deal, ids, n, text, NULL, 0, &need);
    char *line = rc == STPETE_E_BUFFER_TOO_SMALL ? xmalloc(need + 2) : NULL;
    if (line)
        rc = stpete_results_game_to_json(c->game, c->definition, g, deal, ids, n, text, line, need + 1, len);
    free(text);
    if (rc != STPETE_OK)
        die(1, "game %ld: cannot write its results line: %s", g, stpete_strerror(rc));
    line[(*len)++] = '\n';
    line[*len] = '\0';
    return line;
}

/* ---- resume -------------------------------------------------------------------------------------- */

/* An integer in [lo, hi]. */
static int int_in(json_t *v, json_int_t lo, json_int_t hi)
{
    return json_is_integer(v) && json_integer_value(v) >= lo && json_integer_value(v) <= hi;
}

/* Whether a is the JSON array of n integers v. */
static int ints_equal(json_t *a, const int *v, int n)
{
    if (!json_is_array(a) || (int)json_array_size(a) != n)
        return 0;
    for (int i = 0; i < n; i++)
        if (!int_in(json_array_get(a, (size_t)i), v[i], v[i]))
            return 0;
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

/* The fields that follow from the game number alone: deal, deal seed (the record's seed too), seating and bots. */
static int check_identity(const config *c, json_t *f, long g, uint64_t seed, char *why, size_t why_size)
{
    int P = c->players, S = c->nseatings;
    const int *who = c->seatings[g % S];
    if (!int_in(json_object_get(f, "deal"), g / S, g / S))
        BAD("\"deal\" must be %ld (game %ld of %d seatings)", g / S, g, S);
    uint64_t deal = mix3(c->seed, 0xDEA1, (uint64_t)(g / S));
    char deal_seed[20];
    snprintf(deal_seed, sizeof deal_seed, "%016" PRIx64, deal);
    json_t *ds = json_object_get(f, "deal_seed");
    if (!json_is_string(ds) || strcmp(json_string_value(ds), deal_seed) || seed != deal)
        BAD("\"deal_seed\" and the record's seed must be game %ld's, %s", g, deal_seed);
    if (!ints_equal(json_object_get(f, "seating"), who, P))
        BAD("\"seating\" must be game %ld's seating of this tournament", g);
    json_t *names = json_object_get(f, "bots");
    if (!json_is_array(names) || (int)json_array_size(names) != P)
        BAD("\"bots\" must be an array of %d labels", P);
    for (int s = 0; s < P; s++) {
        json_t *nm = json_array_get(names, (size_t)s);
        if (!json_is_string(nm) || strcmp(json_string_value(nm), c->parts[who[s]].label))
            BAD("\"bots\"[%d] must be \"%s\", the participant of seat %d", s, c->parts[who[s]].label, s);
    }
    return 0;
}

/* The game as the library replayed it from its record (st, at its last position): "actions" its length, and
 * "decisions" each seat's share of them, counted by replaying the history once more (who was to act before each
 * action); into r->actions and r->decisions. */
static int check_counts(const config *c, json_t *f, const stpete_state *st, uint64_t seed, result *r, char *why,
                        size_t why_size)
{
    int P = c->players;
    size_t n = 0;
    stpete_state_history(st, NULL, 0, &n);
    int *ids = xmalloc((n ? n : 1) * sizeof *ids);
    stpete_state *again = NULL;
    if (stpete_state_history(st, ids, n, &n) != STPETE_OK || stpete_state_new(c->game, &again, NULL) != STPETE_OK ||
        stpete_state_reset(again, seed) != STPETE_OK)
        die(1, "cannot replay a game");
    memset(r->decisions, 0, sizeof r->decisions);
    for (size_t i = 0; i < n; i++) {
        r->decisions[stpete_state_current_player(again)]++;
        stpete_state_apply(again, ids[i]);
    }
    stpete_state_free(again);
    free(ids);
    r->actions = (int)n;
    if (!int_in(json_object_get(f, "actions"), (json_int_t)n, (json_int_t)n))
        BAD("\"actions\" must be %zu, the record's", n);
    if (!ints_equal(json_object_get(f, "decisions"), r->decisions, P))
        BAD("\"decisions\" must be each seat's share of the record's actions");
    json_t *times = json_object_get(f, "time_ms");
    if (!json_is_array(times) || (int)json_array_size(times) != P)
        BAD("\"time_ms\" must be %d numbers", P);
    for (int s = 0; s < P; s++) {
        json_t *v = json_array_get(times, (size_t)s);
        if (!json_is_number(v) || !(json_number_value(v) >= 0 && json_number_value(v) < 1e15))
            BAD("\"time_ms\"[%d] must be a number of milliseconds, at least 0", s);
        r->time_ms[s] = json_number_value(v);
    }
    return 0;
}

/* "forfeit" (equal to "result"."forfeit"): null exactly when the record's game is finished; otherwise a seat of
 * an external bot (a library bot never forfeits), its label, a known reason, detail and stderr. Into r. */
static int check_forfeit(const config *c, json_t *f, long g, int finished, result *r, char *why, size_t why_size)
{
    static const char *const keys[] = { "seat", "bot", "reason", "detail", "stderr", NULL };
    const int *who = c->seatings[g % c->nseatings];
    json_t *ff = json_object_get(f, "forfeit");
    if (!json_equal(ff, json_object_get(json_object_get(f, "result"), "forfeit")))
        BAD("\"forfeit\" and \"result\".\"forfeit\" must be equal");
    r->forfeit_seat = -1;
    if (json_is_null(ff) != finished)
        BAD("\"forfeit\" must be null exactly when the record's game is finished (a game ends by its final scoring "
            "or by a forfeit)");
    if (json_is_null(ff))
        return 0;
    json_t *fs = json_object_get(ff, "seat"), *reason = json_object_get(ff, "reason"), *fb = json_object_get(ff, "bot");
    if (!json_is_object(ff) || !int_in(fs, 0, c->players - 1))
        BAD("\"forfeit\" must be null or an object whose \"seat\" is a seat of this %d-player game", c->players);
    if (known_keys(ff, keys, "\"forfeit\"", why, why_size))
        return -1;
    r->forfeit_seat = (int)json_integer_value(fs);
    if (!c->parts[who[r->forfeit_seat]].external)
        BAD("\"forfeit\".\"seat\" %d is a library bot's, which never forfeits", r->forfeit_seat);
    if (!json_is_string(reason) || !is_forfeit_reason(json_string_value(reason)))
        BAD("\"forfeit\".\"reason\" must be one of crash, timeout, garbage, illegal, handshake, start-timeout");
    if (!json_is_string(fb) || strcmp(json_string_value(fb), c->parts[who[r->forfeit_seat]].label))
        BAD("\"forfeit\".\"bot\" must be \"%s\", the participant of seat %d", c->parts[who[r->forfeit_seat]].label,
            r->forfeit_seat);
    if (!json_is_string(json_object_get(ff, "detail")) || !json_is_string(json_object_get(ff, "stderr")))
        BAD("\"forfeit\".\"detail\" and \"stderr\" must be strings");
    snprintf(r->reason, sizeof r->reason, "%s", json_string_value(reason));
    return 0;
}

/* "result": what the record's game reached, recomputed (the file is never believed): scores (the final score, §8,
 * or the VP so far), returns (stpete_state_returns(), or a forfeit's: 0 for the forfeiting seat, 1/(P - 1) for the
 * others), the winners, finished. Into r->vp and r->ret. */
static int check_result(const config *c, json_t *f, const stpete_state *st, result *r, char *why, size_t why_size)
{
    static const char *const keys[] = { "scores", "winners", "returns", "finished", "forfeit", NULL };
    int P = c->players, finished = stpete_state_is_terminal_or(st, 0);
    json_t *res = json_object_get(f, "result");
    if (!json_is_object(res))
        BAD("\"result\" must be an object");
    if (known_keys(res, keys, "\"result\"", why, why_size))
        return -1;
    int winners[STPETE_MAX_PLAYERS], nw = 0;
    for (int s = 0; s < P; s++) {
        stpete_score sc = STPETE_SCORE_INIT;
        if (finished && stpete_state_get_score(st, s, &sc) == STPETE_OK)
            r->vp[s] = sc.total;
        else
            stpete_state_vp(st, s, &r->vp[s]);
    }
    if (finished)
        stpete_state_returns(st, r->ret, STPETE_MAX_PLAYERS);
    else
        for (int s = 0; s < P; s++)
            r->ret[s] = s == r->forfeit_seat ? 0.0 : 1.0 / (P - 1);
    for (int s = 0; s < P; s++)
        if (r->ret[s] > 0)
            winners[nw++] = s;
    json_t *fin = json_object_get(res, "finished");
    if (!json_is_boolean(fin) || json_is_true(fin) != finished)
        BAD("\"result\".\"finished\" must be %s: the record's game %s", finished ? "true" : "false",
            finished ? "is over" : "is not over");
    if (!ints_equal(json_object_get(res, "scores"), r->vp, P))
        BAD("\"result\".\"scores\" must be the VP the record's game reaches");
    if (!ints_equal(json_object_get(res, "winners"), winners, nw))
        BAD("\"result\".\"winners\" must be the seats the record's game makes winners (§8, R14)");
    json_t *rets = json_object_get(res, "returns");
    if (!json_is_array(rets) || (int)json_array_size(rets) != P)
        BAD("\"result\".\"returns\" must be %d numbers", P);
    for (int s = 0; s < P; s++) /* written with 12 digits */
        if (!json_is_number(json_array_get(rets, (size_t)s)) ||
            fabs(json_number_value(json_array_get(rets, (size_t)s)) - r->ret[s]) > 1e-9)
            BAD("\"result\".\"returns\"[%d] must be %.12g, the record's game's", s, r->ret[s]);
    return 0;
}

/* Check a game line's fields (f) against this tournament and the game the library replayed from its record (st,
 * seed): no unknown key; check_identity(), check_counts(), check_forfeit(), check_result(). 0 with *r filled, or
 * -1 with why set. */
static int check_game_fields(const config *c, long g, json_t *f, const stpete_state *st, uint64_t seed, result *r,
                             char *why, size_t why_size)
{
    static const char *const keys[] = { "deal", "deal_seed", "seating", "bots", "actions", "result", "forfeit",
                                        "time_ms", "decisions", NULL };
    memset(r, 0, sizeof *r);
    r->seating = (int)(g % c->nseatings);
    int finished = stpete_state_is_terminal_or(st, 0);
    if (known_keys(f, keys, "\"fields\"", why, why_size) || check_identity(c, f, g, seed, why, why_size) ||
        check_counts(c, f, st, seed, r, why, why_size) || check_forfeit(c, f, g, finished, r, why, why_size) ||
        check_result(c, f, st, r, why, why_size))
        return -1;
    r->done = 1;
    return 0;
}

#undef BAD

/* A line that the library refused, said plainly: a results file of stpete-arena 1.1 (its header's "type"), or the
 * library's reason. Dies (exit 2). */
static void refuse_line(const char *path, long lineno, const char *line, size_t n, const stpete_error *err)
{
    if (lineno == 1 && n > 25 && !strncmp(line, "{\"type\":\"tournament\"", 21))
        die(2, "%s was written by stpete-arena 1.1, whose results files hold no game's actions to check; start the "
               "tournament again with another --out (the file is unchanged)", path);
    if (err->status == STPETE_E_MISMATCH && !strncmp(err->message, "written by ", 11)) /* another program's */
        die(2, "%s was %s: another program's results file; not resuming (the file is unchanged)", path, err->message);
    if (err->status == STPETE_E_MISMATCH) /* another header, another hash, another game's rules */
        die(2, "%s: line %ld belongs to another tournament: %s; the same game options, --seed, --bots, --time-ms "
               "and --start-ms are needed to resume (the file is unchanged)",
            path, lineno, err->message);
    die(2, "%s: line %ld: %s; not resuming (the file is unchanged)", path, lineno, err->message);
}

/* One line of a results file to resume (not blank, newline included), through the library
 * (stpete_results_read_line(): the header of this tournament, or a game line whose record it replays into st),
 * then the game's fields checked (check_game_fields(), a game not seen before), into the table. Returns 1 for a
 * game line, 0 for the header; dies (exit 2) on any other line. */
static int read_line_of(arena *a, const char *path, long lineno, const char *line, size_t n, stpete_state *st)
{
    const config *c = &a->cfg;
    size_t cap = n + 1, flen = 0; /* the fields are shorter than their line */
    char *fields = xmalloc(cap);
    long long g = -1;
    uint64_t seed = 0;
    stpete_error err = STPETE_ERROR_INIT;
    if (stpete_results_read_line(c->game, PROGRAM, c->definition, line, n, st, &g, &seed, fields, cap, &flen, &err))
        refuse_line(path, lineno, line, n, &err);
    if (g < 0) {
        free(fields);
        return 0;
    }
    json_error_t e;
    json_t *f = json_loads(fields, 0, &e);
    result r;
    memset(&r, 0, sizeof r); /* set by check_game_fields(); clang cannot see that die() does not return */
    char why[300];
    if (g >= c->games)
        die(2, "%s: line %ld: game %lld is not a game of this run, [0, %ld] (a file with more games is resumed with a "
               "larger --games); not resuming (the file is unchanged)", path, lineno, g, c->games - 1);
    if (!f || check_game_fields(c, (long)g, f, st, seed, &r, why, sizeof why) != 0)
        die(2, "%s: line %ld is not a valid game line of this tournament: %s; not resuming (the file is "
               "unchanged)", path, lineno, f ? why : "fields");
    if (a->results[g].done)
        die(2, "%s: line %ld: game %lld is there twice; not resuming (the file is unchanged)", path, lineno, g);
    a->results[g] = r;
    json_decref(f);
    free(fields);
    return 1;
}

/* Read the results file of a tournament to resume: its header must be this tournament's, and every game line must
 * prove its game (read_line_of()). A bad line is refused with its number (exit 2), the file unchanged; blank lines
 * are skipped; a last line cut short by a kill is dropped (and cut from the file). */
long read_results(arena *a, const char *path)
{
    int fd = open_file(path, O_RDWR);
    if (fd < 0 && errno == ENOENT)
        return 0; /* nothing to resume: a new tournament */
    FILE *fp = fd >= 0 ? fdopen(fd, "rb") : NULL;
    if (!fp)
        die(2, "cannot open %s: %s", path, open_why(errno));
    stpete_state *st = NULL;
    if (stpete_state_new(a->cfg.game, &st, NULL) != STPETE_OK)
        die(1, "cannot create a state");
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    long lineno = 0, headers = 0, games = 0;
    off_t good = 0;
    while ((n = getline(&line, &cap, fp)) > 0) {
        lineno++;
        if (line[n - 1] != '\n') {
            fprintf(stderr, "%s: %s: line %ld is incomplete (the tournament was killed while writing it): dropped\n",
                    PROGRAM, path, lineno);
            break;
        }
        if (strspn(line, " \t\r\n") != (size_t)n) { /* not a blank line (one appended by an editor) */
            int game = read_line_of(a, path, lineno, line, (size_t)n, st);
            games += game;
            headers += !game;
        }
        good += n;
    }
    free(line);
    stpete_state_free(st);
    if (good > 0 && headers == 0)
        die(2, "%s: no tournament header line", path);
    if (ftruncate(fd, good) != 0) /* the file read, not whatever the name means by now */
        die(1, "%s: %s", path, strerror(errno));
    fclose(fp);
    return games;
}
