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

config cfg;

void add_participant(const char *spec)
{
    if (cfg.nparts == MAX_PARTICIPANTS)
        die(2, "at most %d bots", MAX_PARTICIPANTS);
    participant *p = &cfg.parts[cfg.nparts++];
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

void add_list(const char *list)
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
        add_participant(one);
        free(one);
        s += len;
        if (!*s)
            break;
        s++;
    }
}

/* Check the library bots' specs against the game, and label repeated entries. */
void check_participants(void)
{
    for (int i = 0; i < cfg.nparts; i++) {
        participant *p = &cfg.parts[i];
        if (!p->external) {
            stpete_bot *bot = NULL;
            stpete_error err = STPETE_ERROR_INIT;
            size_t len;
            if (stpete_bot_new(cfg.game, p->spec, &bot, &err) != STPETE_OK)
                die(2, "bad bot spec '%s': %s", p->spec, err.message);
            stpete_bot_spec(bot, p->canon, sizeof p->canon, &len);
            stpete_bot_free(bot);
        }
    }
    for (int i = 0; i < cfg.nparts; i++) {
        int k = 1;
        for (int j = 0; j < i; j++)
            k += !strcmp(cfg.parts[j].spec, cfg.parts[i].spec);
        if (k > 1)
            snprintf(cfg.parts[i].label, sizeof cfg.parts[i].label, "%.280s#%d", cfg.parts[i].spec, k);
    }
}

/* The seatings: every ordered choice of P distinct participants when N >= P; otherwise every distinct
 * arrangement of the list repeated to P entries (A,B over 3 seats: A B A, so A A B, A B A, B A A). */
void make_seatings(void)
{
    int P = cfg.players, N = cfg.nparts;
    int entries[STPETE_MAX_PLAYERS * 2], M = N >= P ? N : P;
    for (int i = 0; i < M; i++)
        entries[i] = i % N;
    cfg.seatings = xmalloc(MAX_SEATINGS * sizeof *cfg.seatings);
    cfg.nseatings = 0;
    /* enumerate P-tuples of distinct entry indices in lexicographic order, keep distinct participant tuples */
    int idx[STPETE_MAX_PLAYERS];
    long total = 1;
    for (int i = 0; i < P; i++)
        total *= M;
    for (long code = 0; code < total; code++) {
        long c = code;
        int used = 0, ok = 1;
        for (int s = P - 1; s >= 0; s--) {
            idx[s] = (int)(c % M);
            c /= M;
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
        for (int k = 0; k < cfg.nseatings && !dup; k++)
            dup = !memcmp(cfg.seatings[k], tuple, (size_t)P * sizeof(int));
        if (!dup)
            memcpy(cfg.seatings[cfg.nseatings++], tuple, (size_t)P * sizeof(int));
    }
}

/* The definition of the tournament (what decides each game's play), as canonical JSON, and its hash. The number
 * of games is not part of it: a tournament can be resumed with more games. */
void make_definition(void)
{
    json_t *d = json_object(), *bots = json_array();
    json_object_set_new(d, "protocol", json_integer(PROTOCOL_VERSION));
    json_object_set_new(d, "players", json_integer(cfg.players));
    json_object_set_new(d, "edition", json_integer(cfg.edition));
    json_object_set_new(d, "seed", json_integer((json_int_t)cfg.seed));
    json_object_set_new(d, "seed_hex", json_sprintf("%016" PRIx64, cfg.seed));
    json_object_set_new(d, "time_ms", json_integer(cfg.time_ms));
    json_object_set_new(d, "start_ms", json_integer(cfg.start_ms));
    for (int i = 0; i < cfg.nparts; i++)
        json_array_append_new(bots, json_string(cfg.parts[i].external ? cfg.parts[i].label : cfg.parts[i].canon));
    json_object_set_new(d, "bots", bots);
    cfg.definition = json_dumps(d, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(d);
    if (!cfg.definition)
        die(1, "out of memory");
    snprintf(cfg.hash, sizeof cfg.hash, "%016" PRIx64, fnv1a(0xCBF29CE484222325ull, cfg.definition));
}

/* ---- a worker: plays games ------------------------------------------------------------------------- */

void play_game(worker *w, long g)
{
    int P = cfg.players, S = cfg.nseatings;
    int seating = (int)(g % S);
    const int *who = cfg.seatings[seating];
    uint64_t deal = mix3(cfg.seed, 0xDEA1, (uint64_t)(g / S));
    proc *seat_proc[STPETE_MAX_PLAYERS] = { NULL };
    failure f;
    memset(&f, 0, sizeof f);
    int forfeit = -1;
    double seat_time[STPETE_MAX_PLAYERS] = { 0 };
    int decisions[STPETE_MAX_PLAYERS] = { 0 };
    stpete_state_reset(w->st, deal);
    w->nids = 0;
    /* bots: library bots reseeded per game; external ones started if needed and told of the new game */
    for (int s = 0; s < P && forfeit < 0; s++) {
        participant *part = &cfg.parts[who[s]];
        uint64_t bseed = mix3(cfg.seed, (uint64_t)g, (uint64_t)s);
        if (!part->external) {
            stpete_bot_set_seed(w->bots[who[s]], bseed);
            continue;
        }
        int occ = 0;
        for (int t = 0; t < s; t++)
            occ += who[t] == who[s];
        proc *p = &w->procs[who[s]][occ];
        seat_proc[s] = p;
        if (p->pid && proc_exited(p))
            proc_reap(p); /* it exited after its last game: no fault, it is started again (its group killed) */
        if (!p->pid && proc_start(p, part, &f) != 0) {
            forfeit = s;
            break;
        }
        pthread_mutex_lock(&mtx);
        if (!part->name[0] && p->name[0])
            snprintf(part->name, sizeof part->name, "%s", p->name);
        pthread_mutex_unlock(&mtx);
        char msg[200];
        /* protocol 2: the seed as a decimal string, which every JSON parser reads exactly (a double holds only 53
         * bits); protocol 1: a number, for the bots that ask for it */
        const char *quote = p->protocol >= 2 ? "\"" : "";
        int len = snprintf(msg, sizeof msg,
                           "{\"type\":\"new_game\",\"game\":%ld,\"seat\":%d,\"seed\":%s%" PRIu64 "%s}\n", g, s,
                           quote, bseed, quote);
        if (proc_send(p, msg, (size_t)len, &f) != 0) {
            proc_drain_err(p);
            tail_get(p, f.stderr_tail);
            proc_kill(p);
            forfeit = s;
        }
    }
    long req = 0;
    while (forfeit < 0 && !cli_over(w->st)) {
        int s = stpete_state_current_player(w->st), id = -1;
        double t0 = now_s();
        if (seat_proc[s]) {
            if (external_choose(seat_proc[s], w->st, s, ++req, &id, &f) != 0) {
                proc_drain_err(seat_proc[s]);
                tail_get(seat_proc[s], f.stderr_tail);
                proc_kill(seat_proc[s]);
                forfeit = s;
                break;
            }
        } else if (stpete_bot_choose(w->bots[who[s]], w->st, &id) != STPETE_OK) {
            die(1, "%s: %s", cfg.parts[who[s]].label, stpete_bot_last_error(w->bots[who[s]]));
        }
        seat_time[s] += now_s() - t0;
        decisions[s]++;
        if (stpete_state_apply(w->st, id) != STPETE_OK)
            die(1, "%s chose an illegal action: %s", cfg.parts[who[s]].label, stpete_state_last_error(w->st));
        if (w->nids == w->capids) {
            w->capids = w->capids ? 2 * w->capids : 512;
            int *more = realloc(w->ids, w->capids * sizeof *more);
            if (!more)
                die(1, "out of memory");
            w->ids = more;
        }
        w->ids[w->nids++] = id;
    }
    if (atomic_load(&stop_requested) && forfeit >= 0 && !strcmp(f.reason, "stopped"))
        return; /* interrupted: not a result */
    /* the result */
    int vp[STPETE_MAX_PLAYERS];
    double ret[STPETE_MAX_PLAYERS];
    for (int s = 0; s < P; s++) {
        stpete_score sc = STPETE_SCORE_INIT;
        if (cli_over(w->st) && stpete_state_get_score(w->st, s, &sc) == STPETE_OK)
            vp[s] = sc.total;
        else
            stpete_state_vp(w->st, s, &vp[s]);
    }
    if (forfeit >= 0) {
        for (int s = 0; s < P; s++)
            ret[s] = s == forfeit ? 0.0 : 1.0 / (P - 1);
    } else {
        stpete_state_returns(w->st, ret, STPETE_MAX_PLAYERS);
    }
    json_t *line = json_object();
    json_object_set_new(line, "type", json_string("game"));
    json_object_set_new(line, "hash", json_string(cfg.hash));
    json_object_set_new(line, "game", json_integer(g));
    json_object_set_new(line, "deal", json_integer(g / S));
    json_object_set_new(line, "deal_seed", json_sprintf("%016" PRIx64, deal));
    json_object_set_new(line, "seating", int_array(who, P));
    json_t *names = json_array(), *times = json_array();
    for (int s = 0; s < P; s++) {
        json_array_append_new(names, json_string(cfg.parts[who[s]].label));
        json_array_append_new(times, json_real(round(seat_time[s] * 1e6) / 1e3));
    }
    json_object_set_new(line, "bots", names);
    json_object_set_new(line, "actions", json_integer((json_int_t)w->nids));
    json_t *res = result_json(w->st, vp, ret, P);
    json_object_set_new(line, "result", json_incref(res));
    if (forfeit >= 0) {
        json_t *ff = json_object();
        json_object_set_new(ff, "seat", json_integer(forfeit));
        json_object_set_new(ff, "bot", json_string(cfg.parts[who[forfeit]].label));
        json_object_set_new(ff, "reason", json_string(f.reason));
        json_object_set_new(ff, "detail", json_string(f.detail));
        json_object_set_new(ff, "stderr", json_string(f.stderr_tail));
        json_object_set_new(line, "forfeit", json_incref(ff));
        json_object_set_new(res, "forfeit", ff);
    } else {
        json_object_set_new(line, "forfeit", json_null());
        json_object_set_new(res, "forfeit", json_null());
    }
    json_object_set_new(line, "time_ms", times);
    json_object_set_new(line, "decisions", int_array(decisions, P));
    /* tell the other external bots how it ended */
    for (int s = 0; s < P; s++) {
        proc *p = seat_proc[s];
        if (!p || !p->pid || s == forfeit)
            continue;
        json_t *m = json_object();
        json_object_set_new(m, "type", json_string("game_end"));
        json_object_set_new(m, "game", json_integer(g));
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
    json_decref(res);
    char *text = json_dumps(line, JSON_COMPACT | JSON_REAL_PRECISION(12));
    json_decref(line);
    if (!text)
        die(1, "out of memory");
    size_t tl = strlen(text);
    char *nl = xmalloc(tl + 2);
    memcpy(nl, text, tl);
    nl[tl] = '\n';
    free(text);
    if (cfg.record_dir)
        write_record(cfg.game, deal, w->ids, w->nids, g);
    pthread_mutex_lock(&mtx);
    append_line(nl, tl + 1);
    result *r = &results[g];
    r->done = 1;
    r->seating = seating;
    memcpy(r->vp, vp, sizeof vp);
    memcpy(r->ret, ret, sizeof ret);
    r->forfeit_seat = forfeit;
    r->actions = (int)w->nids;
    snprintf(r->reason, sizeof r->reason, "%s", forfeit >= 0 ? f.reason : "");
    if (forfeit >= 0 && strcmp(f.reason, "stopped") != 0) /* on the terminal too, not only in --out */
        report_forfeit(g, forfeit, cfg.parts[who[forfeit]].label, &f);
    games_done++;
    if (!cfg.quiet)
        progress();
    pthread_mutex_unlock(&mtx);
    free(nl);
}

void *worker_main(void *arg)
{
    worker *w = arg;
    for (;;) {
        long g = -1;
        pthread_mutex_lock(&mtx);
        while (next_game < cfg.games && results[next_game].done)
            next_game++;
        if (next_game < cfg.games && !atomic_load(&stop_requested))
            g = next_game++;
        pthread_mutex_unlock(&mtx);
        if (g < 0)
            break;
        play_game(w, g);
    }
    return NULL;
}

void worker_init(worker *w)
{
    memset(w, 0, sizeof *w);
    if (stpete_state_new(cfg.game, &w->st, NULL) != STPETE_OK)
        die(1, "cannot create a state");
    for (int i = 0; i < cfg.nparts; i++) {
        stpete_error err = STPETE_ERROR_INIT;
        if (!cfg.parts[i].external && stpete_bot_new(cfg.game, cfg.parts[i].spec, &w->bots[i], &err))
            die(1, "%s: %s", cfg.parts[i].label, err.message);
    }
}

void worker_free(worker *w)
{
    for (int i = 0; i < cfg.nparts; i++) {
        stpete_bot_free(w->bots[i]);
        for (int k = 0; k < STPETE_MAX_PLAYERS; k++) {
            proc_quit(&w->procs[i][k]);
            free(w->procs[i][k].buf);
        }
    }
    free(w->ids);
    stpete_state_free(w->st);
}
