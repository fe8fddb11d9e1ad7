/* stpete-arena: the tournament's schedule: the participants from their specs, every seating, the
 * definition that decides every game (and its hash), and the workers that play games in parallel threads. */

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

/* ---- participants -------------------------------------------------------------------------------- */

/* Split a command line into words: blanks separate, '...' and "..." quote, a backslash escapes the next
 * character (outside single quotes). Returns NULL (with *why) for an unterminated quote or no word. */
static char **split_words(const char *s, const char **why)
{
    size_t n = 0, cap = 4;
    char **argv = xmalloc(cap * sizeof *argv);
    char *word = xmalloc(strlen(s) + 1);
    while (*s) {
        while (*s == ' ' || *s == '\t')
            s++;
        if (!*s)
            break;
        size_t len = 0;
        char quote = 0;
        while (*s && (quote || (*s != ' ' && *s != '\t'))) {
            if (quote == '\'' && *s == '\'')
                quote = 0;
            else if (quote == '"' && *s == '"')
                quote = 0;
            else if (!quote && (*s == '\'' || *s == '"'))
                quote = *s;
            else if (*s == '\\' && quote != '\'' && s[1])
                word[len++] = *++s;
            else
                word[len++] = *s;
            s++;
        }
        if (quote) {
            *why = "an unterminated quote";
            goto fail;
        }
        word[len] = '\0';
        if (n + 2 > cap) {
            cap *= 2;
            char **more = realloc(argv, cap * sizeof *argv);
            if (!more)
                die(1, "out of memory");
            argv = more;
        }
        argv[n++] = xstrdup(word);
    }
    if (n == 0) {
        *why = "no program";
        goto fail;
    }
    argv[n] = NULL;
    free(word);
    return argv;
fail:
    for (size_t i = 0; i < n; i++)
        free(argv[i]);
    free(argv);
    free(word);
    return NULL;
}

/* Is the program runnable: a path that is an executable file, or a name found on PATH? */
static int program_found(const char *name)
{
    struct stat sb;
    if (strchr(name, '/'))
        return stat(name, &sb) == 0 && S_ISREG(sb.st_mode) && access(name, X_OK) == 0;
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/bin:/bin";
    char buf[4096];
    while (*path) {
        size_t len = strcspn(path, ":");
        if (snprintf(buf, sizeof buf, "%.*s/%s", (int)len, len ? path : ".", name) < (int)sizeof buf &&
            stat(buf, &sb) == 0 && S_ISREG(sb.st_mode) && access(buf, X_OK) == 0)
            return 1;
        path += len;
        if (*path == ':')
            path++;
    }
    return 0;
}

/* ---- configuration ------------------------------------------------------------------------------- */

void add_participant(config *c, const char *spec)
{
    if (c->nparts == MAX_PARTICIPANTS)
        die(2, "at most %d bots", MAX_PARTICIPANTS);
    participant *p = &c->parts[c->nparts++];
    if (strlen(spec) >= sizeof p->spec)
        die(2, "bad bot spec '%.40s...': longer than %zu characters", spec, sizeof p->spec - 1);
    snprintf(p->spec, sizeof p->spec, "%s", spec);
    snprintf(p->label, sizeof p->label, "%s", spec);
    if (!strncmp(spec, "cmd:", 4)) {
        const char *why = NULL;
        p->external = 1;
        p->cmd = xstrdup(spec + 4);
        p->argv = split_words(p->cmd, &why);
        if (!p->argv)
            die(2, "bad bot spec '%s': %s (write cmd:PROGRAM [ARGUMENT]...)", spec, why);
        if (!program_found(p->argv[0]))
            die(2, "bad bot spec '%s': program '%s' not found or not executable", spec, p->argv[0]);
    }
}

void add_list(config *c, const char *list)
{
    const char *s = list;
    if (!*s)
        die(2, "--bots: an empty list");
    while (1) {
        size_t len = strcspn(s, ",");
        if (len == 0)
            die(2, "--bots: an empty spec in '%s'", list);
        char *one = xmalloc(len + 1);
        memcpy(one, s, len);
        add_participant(c, one);
        free(one);
        s += len;
        if (!*s)
            break;
        s++;
    }
}

/* Check the library bots' specs against the game, and label repeated entries. */
void check_participants(config *c)
{
    for (int i = 0; i < c->nparts; i++) {
        participant *p = &c->parts[i];
        if (!p->external) {
            stpete_bot *bot = NULL;
            stpete_error err = STPETE_ERROR_INIT;
            size_t len;
            if (stpete_bot_new(c->game, p->spec, &bot, &err) != STPETE_OK)
                die(2, "bad bot spec '%s': %s", p->spec, err.message);
            stpete_bot_spec(bot, p->canon, sizeof p->canon, &len);
            stpete_bot_free(bot);
        }
    }
    for (int i = 0; i < c->nparts; i++) {
        int k = 1;
        for (int j = 0; j < i; j++)
            k += !strcmp(c->parts[j].spec, c->parts[i].spec);
        if (k > 1)
            snprintf(c->parts[i].label, sizeof c->parts[i].label, "%.280s#%d", c->parts[i].spec, k);
    }
}

/* The seatings: every ordered choice of P distinct participants when N >= P; otherwise every distinct
 * arrangement of the list repeated to P entries (A,B over 3 seats: A B A, so A A B, A B A, B A A). */
void make_seatings(config *c)
{
    int P = c->players, N = c->nparts;
    int entries[STPETE_MAX_PLAYERS * 2], M = N >= P ? N : P;
    for (int i = 0; i < M; i++)
        entries[i] = i % N;
    c->seatings = xmalloc(MAX_SEATINGS * sizeof *c->seatings);
    c->nseatings = 0;
    /* enumerate P-tuples of distinct entry indices in lexicographic order, keep distinct participant tuples */
    int idx[STPETE_MAX_PLAYERS];
    long total = 1;
    for (int i = 0; i < P; i++)
        total *= M;
    for (long code = 0; code < total; code++) {
        long rest = code;
        int used = 0, ok = 1;
        for (int s = P - 1; s >= 0; s--) {
            idx[s] = (int)(rest % M);
            rest /= M;
        }
        for (int s = 0; s < P && ok; s++) {
            if (used & (1 << idx[s]))
                ok = 0;
            used |= 1 << idx[s];
        }
        if (!ok)
            continue;
        int tuple[STPETE_MAX_PLAYERS];
        for (int s = 0; s < P; s++)
            tuple[s] = entries[idx[s]];
        int dup = 0;
        for (int k = 0; k < c->nseatings && !dup; k++)
            dup = !memcmp(c->seatings[k], tuple, (size_t)P * sizeof(int));
        if (!dup)
            memcpy(c->seatings[c->nseatings++], tuple, (size_t)P * sizeof(int));
    }
}

/* The definition of the tournament (what decides each game's play), as canonical JSON, and its hash. The number
 * of games is not part of it: a tournament can be resumed with more games. */
void make_definition(config *c)
{
    json_t *d = json_object(), *bots = json_array();
    json_object_set_new(d, "protocol", json_integer(PROTOCOL_VERSION));
    /* the game's options (the library's table): the integers (players, edition) always, as in 1.0, and every
     * other one only when set away from its default, so that a tournament without them keeps its 1.0 definition and
     * hash (and resumes); not the seed and chance mode, which are the arena's own (--seed, sampled chance) */
    stpete_options def;
    stpete_options_init(&def);
    for (int i = 0; i < stpete_option_count(); i++) {
        stpete_option_info in = STPETE_OPTION_INFO_INIT;
        stpete_option_get_info(i, &in);
        json_t *v = arena_option_json(&c->options.opts, &in), *dv = arena_option_json(&def, &in);
        if (in.category != STPETE_OPTION_PLAY && (in.type == STPETE_OPTION_INT || !json_equal(v, dv)))
            json_object_set(d, in.name, v);
        json_decref(v);
        json_decref(dv);
    }
    json_object_set_new(d, "seed", json_integer((json_int_t)c->seed));
    json_object_set_new(d, "seed_hex", json_sprintf("%016" PRIx64, c->seed));
    json_object_set_new(d, "time_ms", json_integer(c->time_ms));
    json_object_set_new(d, "start_ms", json_integer(c->start_ms));
    for (int i = 0; i < c->nparts; i++)
        json_array_append_new(bots, json_string(c->parts[i].external ? c->parts[i].label : c->parts[i].canon));
    json_object_set_new(d, "bots", bots);
    c->definition = json_dumps(d, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(d);
    if (!c->definition)
        die(1, "out of memory");
    size_t len = 0; /* the library's hash of it: the results file's (stpete_results_hash()) */
    if (stpete_results_hash(c->definition, c->hash, sizeof c->hash, &len) != STPETE_OK)
        die(1, "cannot hash the tournament's definition");
}

/* ---- a worker: plays games ------------------------------------------------------------------------- */

/* One game as a worker plays it: what follows from its number, the external bots' processes of its seats, and
 * how it went. */
typedef struct game_run {
    long g;
    int seating;
    const int *who;    /* seat -> participant */
    uint64_t deal;     /* the deal's seed */
    proc *seat_proc[STPETE_MAX_PLAYERS]; /* the process of an external bot's seat, else NULL */
    failure f;         /* why it was forfeited */
    int forfeit;       /* the forfeiting seat, or -1 */
    double seat_time[STPETE_MAX_PLAYERS];
    int decisions[STPETE_MAX_PLAYERS];
    int vp[STPETE_MAX_PLAYERS];
    double ret[STPETE_MAX_PLAYERS];
} game_run;

/* Tell an external bot of its new game (started if needed). 0, or -1 with r->f set (a forfeit of seat s). */
static int start_external(worker *w, game_run *r, int s, uint64_t bseed)
{
    arena *a = w->a;
    participant *part = &a->cfg.parts[r->who[s]];
    int occ = 0;
    for (int t = 0; t < s; t++)
        occ += r->who[t] == r->who[s];
    proc *p = &w->procs[r->who[s]][occ];
    r->seat_proc[s] = p;
    if (p->pid && proc_exited(p))
        proc_reap(p); /* it exited after its last game: no fault, it is started again (its group killed) */
    if (!p->pid && proc_start(p, part, &r->f) != 0)
        return -1;
    pthread_mutex_lock(&a->mtx);
    if (!part->name[0] && p->name[0])
        snprintf(part->name, sizeof part->name, "%s", p->name);
    pthread_mutex_unlock(&a->mtx);
    char msg[200];
    /* protocol 2: the seed as a decimal string, which every JSON parser reads exactly (a double holds only 53
     * bits); protocol 1: a number, for the bots that ask for it */
    const char *quote = p->protocol >= 2 ? "\"" : "";
    int len = snprintf(msg, sizeof msg, "{\"type\":\"new_game\",\"game\":%ld,\"seat\":%d,\"seed\":%s%" PRIu64 "%s}\n",
                       r->g, s, quote, bseed, quote);
    if (proc_send(p, msg, (size_t)len, &r->f) != 0) {
        proc_drain_err(p);
        tail_get(p, r->f.stderr_tail);
        proc_kill(p);
        return -1;
    }
    return 0;
}

/* The bots of the game's seats: library bots reseeded for it, external ones started if needed and told of it.
 * Stops at the first forfeit (r->forfeit). */
static void start_bots(worker *w, game_run *r)
{
    const config *c = &w->a->cfg;
    for (int s = 0; s < c->players && r->forfeit < 0; s++) {
        uint64_t bseed = mix3(c->seed, (uint64_t)r->g, (uint64_t)s);
        if (!c->parts[r->who[s]].external)
            stpete_bot_set_seed(w->bots[r->who[s]], bseed);
        else if (start_external(w, r, s, bseed) != 0)
            r->forfeit = s;
    }
}

/* Play the game from its deal to its end or a forfeit, each action recorded in w->ids. */
static void play_moves(worker *w, game_run *r)
{
    const config *c = &w->a->cfg;
    long req = 0;
    while (r->forfeit < 0 && !stpete_state_is_terminal_or(w->st, 1)) {
        int s = stpete_state_current_player(w->st), id = -1;
        double t0 = now_s();
        if (r->seat_proc[s]) {
            if (external_choose(r->seat_proc[s], w->st, s, ++req, &id, &r->f) != 0) {
                proc_drain_err(r->seat_proc[s]);
                tail_get(r->seat_proc[s], r->f.stderr_tail);
                proc_kill(r->seat_proc[s]);
                r->forfeit = s;
                break;
            }
        } else if (stpete_bot_choose(w->bots[r->who[s]], w->st, &id) != STPETE_OK) {
            die(1, "%s: %s", c->parts[r->who[s]].label, stpete_bot_last_error(w->bots[r->who[s]]));
        }
        r->seat_time[s] += now_s() - t0;
        r->decisions[s]++;
        if (stpete_state_apply(w->st, id) != STPETE_OK)
            die(1, "%s chose an illegal action: %s", c->parts[r->who[s]].label, stpete_state_last_error(w->st));
        if (w->nids == w->capids) {
            w->capids = w->capids ? 2 * w->capids : 512;
            int *more = realloc(w->ids, w->capids * sizeof *more);
            if (!more)
                die(1, "out of memory");
            w->ids = more;
        }
        w->ids[w->nids++] = id;
    }
}

/* Each seat's VP (after the final scoring, §8, or so far) and return: OpenSpiel's, or a forfeit's (0 for the
 * forfeiting seat, a share of the win for the others). */
static void final_result(worker *w, game_run *r)
{
    int P = w->a->cfg.players;
    for (int s = 0; s < P; s++) {
        stpete_score sc = STPETE_SCORE_INIT;
        if (stpete_state_is_terminal_or(w->st, 1) && stpete_state_get_score(w->st, s, &sc) == STPETE_OK)
            r->vp[s] = sc.total;
        else
            stpete_state_vp(w->st, s, &r->vp[s]);
    }
    if (r->forfeit >= 0) {
        for (int s = 0; s < P; s++)
            r->ret[s] = s == r->forfeit ? 0.0 : 1.0 / (P - 1);
    } else {
        stpete_state_returns(w->st, r->ret, STPETE_MAX_PLAYERS);
    }
}

/* The forfeit object of the results file and of game_end, or null (new reference). */
static json_t *forfeit_json(const config *c, const game_run *r)
{
    if (r->forfeit < 0)
        return json_null();
    json_t *ff = json_object();
    json_object_set_new(ff, "seat", json_integer(r->forfeit));
    json_object_set_new(ff, "bot", json_string(c->parts[r->who[r->forfeit]].label));
    json_object_set_new(ff, "reason", json_string(r->f.reason));
    json_object_set_new(ff, "detail", json_string(r->f.detail));
    json_object_set_new(ff, "stderr", json_string(r->f.stderr_tail));
    return ff;
}

/* The arena's fields of the game's line of the results file (doc/protocol.md), with its result res (new
 * reference); the line (results_line()) adds the game's number and its replay record. */
static json_t *game_fields(const worker *w, const game_run *r, json_t *res)
{
    const config *c = &w->a->cfg;
    int P = c->players;
    json_t *f = json_object();
    json_object_set_new(f, "deal", json_integer(r->g / c->nseatings));
    json_object_set_new(f, "deal_seed", json_sprintf("%016" PRIx64, r->deal));
    json_object_set_new(f, "seating", int_array(r->who, P));
    json_t *names = json_array(), *times = json_array();
    for (int s = 0; s < P; s++) {
        json_array_append_new(names, json_string(c->parts[r->who[s]].label));
        json_array_append_new(times, json_real(round(r->seat_time[s] * 1e6) / 1e3));
    }
    json_object_set_new(f, "bots", names);
    json_object_set_new(f, "actions", json_integer((json_int_t)w->nids));
    json_object_set_new(f, "result", json_incref(res));
    json_object_set_new(f, "forfeit", json_incref(json_object_get(res, "forfeit")));
    json_object_set_new(f, "time_ms", times);
    json_object_set_new(f, "decisions", int_array(r->decisions, P));
    return f;
}

/* Tell the other external bots of the game how it ended (game_end). */
static void tell_game_end(const worker *w, game_run *r, json_t *res)
{
    for (int s = 0; s < w->a->cfg.players; s++) {
        proc *p = r->seat_proc[s];
        if (!p || !p->pid || s == r->forfeit)
            continue;
        json_t *m = json_object();
        json_object_set_new(m, "type", json_string("game_end"));
        json_object_set_new(m, "game", json_integer(r->g));
        json_object_set_new(m, "seat", json_integer(s));
        json_object_set_new(m, "result", json_incref(res));
        char *text = json_dumps(m, JSON_COMPACT | JSON_REAL_PRECISION(12));
        json_decref(m);
        failure ignore;
        if (proc_send(p, text, strlen(text), &ignore) != 0 || proc_send(p, "\n", 1, &ignore) != 0)
            proc_kill(p); /* gone after its last move: started again for its next game */
        free(text);
        proc_drain_err(p);
    }
}

/* The game is done: its line appended to the results file, its row in the table, a forfeit reported on the
 * terminal too, the progress line; under the mutex. */
static void record_result(worker *w, const game_run *r, const char *line, size_t len)
{
    arena *a = w->a;
    const config *c = &a->cfg;
    pthread_mutex_lock(&a->mtx);
    append_line(a, line, len);
    result *row = &a->results[r->g];
    row->done = 1;
    row->seating = r->seating;
    memcpy(row->vp, r->vp, sizeof row->vp);
    memcpy(row->ret, r->ret, sizeof row->ret);
    row->forfeit_seat = r->forfeit;
    row->actions = (int)w->nids;
    memcpy(row->decisions, r->decisions, sizeof row->decisions);
    for (int s = 0; s < c->players; s++)
        row->time_ms[s] = round(r->seat_time[s] * 1e6) / 1e3;
    snprintf(row->reason, sizeof row->reason, "%s", r->forfeit >= 0 ? r->f.reason : "");
    if (r->forfeit >= 0 && strcmp(r->f.reason, "stopped") != 0) /* on the terminal too, not only in --out */
        report_forfeit(a, r->g, r->forfeit, c->parts[r->who[r->forfeit]].label, &r->f);
    a->games_done++;
    if (!c->quiet)
        progress(a);
    pthread_mutex_unlock(&a->mtx);
}

void play_game(worker *w, long g)
{
    const config *c = &w->a->cfg;
    game_run r;
    memset(&r, 0, sizeof r);
    r.g = g;
    r.seating = (int)(g % c->nseatings);
    r.who = c->seatings[r.seating];
    r.deal = mix3(c->seed, 0xDEA1, (uint64_t)(g / c->nseatings));
    r.forfeit = -1;
    stpete_state_reset(w->st, r.deal);
    w->nids = 0;
    start_bots(w, &r);
    play_moves(w, &r);
    if (atomic_load(w->a->stop) && r.forfeit >= 0 && !strcmp(r.f.reason, "stopped"))
        return; /* interrupted: not a result */
    final_result(w, &r);
    json_t *res = result_json(w->st, r.vp, r.ret, c->players);
    json_object_set_new(res, "forfeit", forfeit_json(c, &r));
    json_t *fields = game_fields(w, &r, res);
    tell_game_end(w, &r, res);
    json_decref(res);
    size_t len = 0;
    char *nl = results_line(c, g, r.deal, w->ids, w->nids, fields, &len);
    json_decref(fields);
    if (c->record_dir)
        write_record(c, r.deal, w->ids, w->nids, g);
    record_result(w, &r, nl, len);
    free(nl);
}

void *worker_main(void *arg)
{
    worker *w = arg;
    arena *a = w->a;
    for (;;) {
        long g = -1;
        pthread_mutex_lock(&a->mtx);
        while (a->next_game < a->cfg.games && a->results[a->next_game].done)
            a->next_game++;
        if (a->next_game < a->cfg.games && !atomic_load(a->stop))
            g = a->next_game++;
        pthread_mutex_unlock(&a->mtx);
        if (g < 0)
            break;
        play_game(w, g);
    }
    return NULL;
}

void worker_init(worker *w, arena *a)
{
    memset(w, 0, sizeof *w);
    w->a = a;
    if (stpete_state_new(a->cfg.game, &w->st, NULL) != STPETE_OK)
        die(1, "cannot create a state");
    for (int i = 0; i < a->cfg.nparts; i++) {
        stpete_error err = STPETE_ERROR_INIT;
        if (!a->cfg.parts[i].external && stpete_bot_new(a->cfg.game, a->cfg.parts[i].spec, &w->bots[i], &err))
            die(1, "%s: %s", a->cfg.parts[i].label, err.message);
        for (int k = 0; k < STPETE_MAX_PLAYERS; k++) {
            w->procs[i][k].cfg = &a->cfg;
            w->procs[i][k].stop = a->stop;
        }
    }
}

void worker_free(worker *w)
{
    for (int i = 0; i < w->a->cfg.nparts; i++) {
        stpete_bot_free(w->bots[i]);
        for (int k = 0; k < STPETE_MAX_PLAYERS; k++) {
            proc_quit(&w->procs[i][k]);
            free(w->procs[i][k].buf);
        }
    }
    free(w->ids);
    stpete_state_free(w->st);
}
