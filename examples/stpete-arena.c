/* stpete-arena: tournaments among the library's bots and external programs (issue 13).
 *
 *   stpete-arena --players 3 --games 600 --bots greedy,ismcts:iterations=2000,'cmd:python3 mybot.py' --jobs 2
 *
 * Participants are the library's bots by their specs (stpete/bots.h) and external programs ("cmd:PROGRAM ARGS"),
 * which speak the line-based JSON protocol of doc/protocol.md on their stdin and stdout. Game g of a tournament
 * plays deal d = g / S under seating g mod S, where S is the number of seatings: every ordered choice of P of the
 * N participants (N >= P), or every distinct arrangement of the list repeated to P seats (N < P). So every
 * participant holds every seat equally often, and every deal is played under every seating. Everything about
 * game g (its deal, its seating, the bots' seeds) follows from the tournament seed and g alone, whatever --jobs.
 *
 * A game ends normally, or by a forfeit: an external bot that crashes, hangs past its time limit, prints a line
 * that is not a protocol message, or answers an action that is not legal forfeits the game at once. The forfeiting
 * seat gets return 0 and loses to every other seat; the other seats share the win (return 1/(P-1) each) and tie
 * among themselves. The result line says why, with the tail of the bot's stderr; the process is killed and a new
 * one is started for its next game.
 *
 * Each finished game is one JSON line appended to the results file (--out), written with one write() and
 * flushed, so a tournament that is killed loses no finished game; --resume reads the file, checks that its
 * definition hash is this tournament's, and plays only the missing games.
 *
 * Example code, not part of the library: POSIX (pthreads, posix_spawn, poll). */
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

extern char **environ;

#define PROTOCOL_VERSION 2 /* doc/protocol.md: 2 sends the seed as a string; a bot that answers 1 gets version 1 */
#define PROTOCOL_OLDEST 1
#define MAX_PARTICIPANTS 8
#define MAX_SEATINGS 5040 /* 8 * 7 * 6 * 5 (8 participants, 4 seats) */
#define MAX_LINE (1 << 20)
#define STDERR_TAIL 1024

static const char *prog = "stpete-arena";

/* ---- small helpers ------------------------------------------------------------------------------- */

static uint64_t splitmix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

static uint64_t mix3(uint64_t a, uint64_t b, uint64_t c)
{
    return splitmix(splitmix(splitmix(a) ^ b) ^ c);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t fnv1a(uint64_t h, const char *s)
{
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 0x100000001B3ull;
    }
    return h;
}

static void die(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", prog);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(code);
}

static void *xmalloc(size_t n)
{
    void *p = calloc(1, n ? n : 1);
    if (!p)
        die(1, "out of memory");
    return p;
}

static char *xstrdup(const char *s)
{
    char *p = strdup(s);
    if (!p)
        die(1, "out of memory");
    return p;
}

/* ---- participants -------------------------------------------------------------------------------- */

typedef struct participant {
    char spec[290];                 /* the spec as given */
    char label[300];                /* the spec, with #k for its k-th entry in the list */
    int external;                   /* a cmd: program */
    char canon[STPETE_BOT_SPEC_MAX]; /* a library bot's canonical spec */
    char *cmd;                      /* the command line of a cmd: spec */
    char **argv;                    /* its words */
    char name[128];                 /* the name it gave in its first handshake, or "" */
} participant;

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

typedef struct config {
    int players, edition, jobs, resume, bench, quiet, games_given;
    long games;
    uint64_t seed;
    long time_ms, start_ms;
    const char *json_path, *record_dir, *out_path;
    participant parts[MAX_PARTICIPANTS];
    int nparts;
    stpete_game *game;
    /* seatings: seat -> participant */
    int (*seatings)[STPETE_MAX_PLAYERS];
    int nseatings;
    char hash[17];
    char *definition; /* the canonical definition, as a JSON text */
} config;

static config cfg;

static void add_participant(const char *spec)
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

static void add_list(const char *list)
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
static void check_participants(void)
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
static void make_seatings(void)
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
static void make_definition(void)
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

/* ---- external bots ------------------------------------------------------------------------------- */

typedef struct proc {
    pid_t pid;          /* 0 when not running */
    int in, out, err;   /* our ends: its stdin, stdout, stderr */
    char *buf;          /* stdout bytes not yet consumed */
    size_t len, cap;
    char tail[STDERR_TAIL]; /* the last bytes of its stderr, a ring */
    size_t tail_pos, tail_len;
    int eof;
    size_t line_len;    /* bytes of the last line proc_read_line() returned (it may hold NUL bytes) */
    char name[128];
    int protocol;       /* the version its hello asked for (PROTOCOL_OLDEST..PROTOCOL_VERSION) */
    double rt_sum;      /* protocol round trips (request written to reply read), seconds */
    long rt_n;
} proc;

typedef struct failure {
    char reason[32];  /* crash, timeout, garbage, illegal, handshake */
    char detail[300];
    char stderr_tail[STDERR_TAIL + 1];
} failure;

/* Set by the SIGINT/SIGTERM handler, read by the worker threads: an atomic (lock-free, so async-signal-safe), not a
 * volatile sig_atomic_t, which is a data race between threads (ThreadSanitizer, issue 22). */
static atomic_int stop_requested;

static void tail_add(proc *p, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        p->tail[p->tail_pos] = s[i];
        p->tail_pos = (p->tail_pos + 1) % STDERR_TAIL;
        if (p->tail_len < STDERR_TAIL)
            p->tail_len++;
    }
}

/* The stderr tail as printable ASCII (other bytes become '?'), so that it is valid JSON text. */
static void tail_get(const proc *p, char *out)
{
    size_t start = (p->tail_pos + STDERR_TAIL - p->tail_len) % STDERR_TAIL;
    for (size_t i = 0; i < p->tail_len; i++) {
        unsigned char c = (unsigned char)p->tail[(start + i) % STDERR_TAIL];
        out[i] = (char)((c >= 32 && c < 127) || c == '\n' || c == '\t' ? c : '?');
    }
    out[p->tail_len] = '\0';
}

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

static void proc_drain_err(proc *p);

/* The process is gone: keep its stderr's last bytes, close our ends. */
static void proc_closed(proc *p)
{
    proc_drain_err(p);
    p->pid = 0;
    close_fd(&p->in);
    close_fd(&p->out);
    close_fd(&p->err);
}

/* Whether the bot's main process has ended, without reaping it: while it is a zombie its pid, which is also its
 * process group's id, cannot be reused, so the group can still be killed safely. */
static int proc_exited(const proc *p)
{
    siginfo_t si;
    memset(&si, 0, sizeof si);
    return waitid(P_PID, (id_t)p->pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == p->pid;
}

/* The bot's life ends (it exited, or it is killed): SIGKILL to its whole process group, the group the arena made it
 * the leader of at spawn (so the children it forked die with it, also when it exited by itself), then reap it and
 * close our ends. Returns its wait status. */
static int proc_reap(proc *p)
{
    int status = 0;
    kill(-p->pid, SIGKILL);
    kill(p->pid, SIGKILL);
    while (waitpid(p->pid, &status, 0) < 0 && errno == EINTR) {
    }
    /* Members of its group whose parent died are the arena's children (a subreaper, become_subreaper()): reap
     * them too, so that a bot restarted game after game leaves no zombies piling up until kill_adopted() at the
     * end. Not a blocking wait: a process that joins the group after the kill above (setpgid) would hold it
     * forever; while one of them is alive the group exists (its id is not reused), so it is sent SIGKILL again,
     * for up to about 1 s; any left is kill_adopted()'s. */
    for (int i = 0; i < 1000; i++) {
        pid_t r = waitpid(-p->pid, NULL, WNOHANG);
        if (r > 0 || (r < 0 && errno == EINTR))
            continue;
        if (r < 0)
            break; /* no child of the arena left in the group */
        kill(-p->pid, SIGKILL);
        usleep(1000);
    }
    proc_closed(p);
    return status;
}

static void proc_kill(proc *p)
{
    if (p->pid)
        proc_reap(p);
}

static void proc_quit(proc *p)
{
    if (!p->pid)
        return;
    static const char quit[] = "{\"type\":\"quit\"}\n";
    if (write(p->in, quit, sizeof quit - 1) < 0) {
        /* it is gone already */
    }
    close_fd(&p->in);
    for (int i = 0; i < 50 && !proc_exited(p); i++)
        usleep(10000);
    proc_reap(p); /* exited by itself or not: its group goes with it */
}

static void fail(failure *f, const char *reason, const char *fmt, ...)
{
    va_list ap;
    snprintf(f->reason, sizeof f->reason, "%s", reason);
    va_start(ap, fmt);
    vsnprintf(f->detail, sizeof f->detail, fmt, ap);
    va_end(ap);
}

/* Describe how a process ended (after EOF on its stdout): waits up to 200 ms for it. */
static void describe_exit(proc *p, char *buf, size_t size)
{
    for (int i = 0; i < 20; i++) {
        if (proc_exited(p)) {
            int status = proc_reap(p);
            if (WIFEXITED(status))
                snprintf(buf, size, "the bot exited with status %d", WEXITSTATUS(status));
            else if (WIFSIGNALED(status))
                snprintf(buf, size, "the bot was killed by signal %d (%s)", WTERMSIG(status),
                         strsignal(WTERMSIG(status)));
            else
                snprintf(buf, size, "the bot ended");
            return;
        }
        usleep(10000);
    }
    snprintf(buf, size, "the bot closed its standard output");
}

/* Read one line of the bot's stdout within deadline (monotonic seconds), draining its stderr meanwhile.
 * Returns a malloc'd line without its newline, or NULL with f set. */
static char *proc_read_line(proc *p, double deadline, failure *f)
{
    for (;;) {
        char *nl = p->len ? memchr(p->buf, '\n', p->len) : NULL;
        if (nl) {
            size_t n = (size_t)(nl - p->buf);
            char *line = xmalloc(n + 1);
            memcpy(line, p->buf, n);
            line[n] = '\0';
            memmove(p->buf, nl + 1, p->len - n - 1);
            p->len -= n + 1;
            if (n && line[n - 1] == '\r')
                line[--n] = '\0';
            p->line_len = n;
            return line;
        }
        if (p->len > MAX_LINE) {
            fail(f, "garbage", "a line longer than %d bytes", MAX_LINE);
            return NULL;
        }
        if (p->eof) {
            char how[160];
            describe_exit(p, how, sizeof how);
            fail(f, "crash", "%s before answering", how);
            return NULL;
        }
        double left = deadline - now_s();
        if (left <= 0) {
            fail(f, "timeout", "no answer within the time limit");
            return NULL;
        }
        if (atomic_load(&stop_requested)) {
            fail(f, "stopped", "the tournament was interrupted");
            return NULL;
        }
        struct pollfd fds[2] = { { p->out, POLLIN, 0 }, { p->err, POLLIN, 0 } };
        int ms = (int)(left * 1000) + 1;
        if (ms > 100)
            ms = 100;
        int r = poll(fds, p->err >= 0 ? 2 : 1, ms);
        if (r < 0 && errno != EINTR) {
            fail(f, "crash", "poll: %s", strerror(errno));
            return NULL;
        }
        if (r <= 0) {
            /* nothing to read: if its main process has ended, it will not answer, even when a child it forked
             * still holds its stdout open (no end of file would come). What it wrote before it ended is read
             * first: it may have answered and exited after poll() returned. */
            if (r == 0 && p->pid && proc_exited(p)) {
                struct pollfd again = { p->out, POLLIN, 0 };
                if (poll(&again, 1, 0) == 0)
                    p->eof = 1;
            }
            continue;
        }
        if (fds[1].revents & (POLLIN | POLLHUP | POLLERR)) {
            char tmp[4096];
            ssize_t n = read(p->err, tmp, sizeof tmp);
            if (n > 0)
                tail_add(p, tmp, (size_t)n);
            else if (n == 0) {
                close(p->err);
                p->err = -1;
            }
        }
        if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
            if (p->cap - p->len < 65536) {
                p->cap = p->cap ? 2 * p->cap : 131072;
                char *more = realloc(p->buf, p->cap);
                if (!more)
                    die(1, "out of memory");
                p->buf = more;
            }
            ssize_t n = read(p->out, p->buf + p->len, p->cap - p->len);
            if (n > 0)
                p->len += (size_t)n;
            else if (n == 0 || errno != EINTR)
                p->eof = 1;
        }
    }
}

/* One protocol message from a line of @p n bytes: one JSON value, then nothing but spaces (doc/protocol.md). A
 * NUL byte, a second value or any other byte after it is refused: NULL with @p why set. Otherwise the value (which
 * may be NULL for a line that is no JSON at all, why empty). */
static json_t *load_message(const char *line, size_t n, char *why, size_t why_size)
{
    json_error_t e;
    why[0] = '\0';
    json_t *m = json_loadb(line, n, JSON_DISABLE_EOF_CHECK, &e);
    if (!m)
        return NULL;
    for (size_t i = (size_t)e.position; i < n; i++)
        if (line[i] != ' ') {
            snprintf(why, why_size, "byte 0x%02x at offset %zu after the JSON value (only spaces may follow it)",
                     (unsigned char)line[i], i);
            json_decref(m);
            return NULL;
        }
    return m;
}

/* Drain whatever stderr the bot wrote, without waiting. */
static void proc_drain_err(proc *p)
{
    if (p->err < 0)
        return;
    for (;;) {
        struct pollfd fd = { p->err, POLLIN, 0 };
        if (poll(&fd, 1, 0) <= 0 || !(fd.revents & (POLLIN | POLLHUP)))
            return;
        char tmp[4096];
        ssize_t n = read(p->err, tmp, sizeof tmp);
        if (n <= 0)
            return;
        tail_add(p, tmp, (size_t)n);
    }
}

static int proc_send(proc *p, const char *line, size_t len, failure *f)
{
    size_t done = 0;
    while (done < len) {
        ssize_t n = write(p->in, line + done, len - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            char how[160];
            p->eof = 1;
            describe_exit(p, how, sizeof how);
            fail(f, "crash", "cannot write to the bot (%s): %s", strerror(errno), how);
            return -1;
        }
        done += (size_t)n;
    }
    return 0;
}

/* The hello message: protocol version and the game's options (the deal's seed is not among them). */
static char *hello_message(void)
{
    json_t *m = json_object(), *g = json_object();
    stpete_options o;
    stpete_options_init(&o);
    stpete_game_get_options(cfg.game, &o);
    json_object_set_new(m, "type", json_string("hello"));
    json_object_set_new(m, "protocol", json_integer(PROTOCOL_VERSION));
    json_t *versions = json_array(); /* every version the arena speaks: the bot answers the one it wants */
    for (int v = PROTOCOL_OLDEST; v <= PROTOCOL_VERSION; v++)
        json_array_append_new(versions, json_integer(v));
    json_object_set_new(m, "protocols", versions);
    json_object_set_new(g, "players", json_integer(o.players));
    json_object_set_new(g, "edition", json_integer(o.edition));
    json_object_set_new(g, "pub_cap", json_string(o.pub_cap == STPETE_PUB_CAP_PER_PLAYER ? "per-player" : "per-pub"));
    json_object_set_new(g, "tie_break", json_string(o.tie_break == STPETE_TIE_BREAK_RUBLES_TOTAL ? "rubles-total"
                                                                                              : "rubles-mod-10"));
    json_object_set_new(g, "public_rubles", json_boolean(o.public_rubles));
    json_object_set_new(g, "public_hands", json_boolean(o.public_hands));
    json_object_set_new(g, "chance_mode", json_string("sampled"));
    json_object_set_new(m, "game", g);
    json_object_set_new(m, "time_ms", json_integer(cfg.time_ms));
    char *s = json_dumps(m, JSON_COMPACT);
    json_decref(m);
    return s;
}

/* Start a bot and shake hands within --start-ms. 0, or -1 with f set (the process is then gone). */
static int proc_start(proc *p, participant *part, failure *f)
{
    int in[2], out[2], err[2];
    char *buf = p->buf;
    size_t cap = p->cap;
    double rt_sum = p->rt_sum;
    long rt_n = p->rt_n;
    memset(p, 0, sizeof *p);
    p->buf = buf;
    p->cap = cap;
    p->rt_sum = rt_sum;
    p->rt_n = rt_n;
    p->in = p->out = p->err = -1;
    if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC))
        die(1, "pipe: %s", strerror(errno));
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_adddup2(&fa, err[1], 2);
    posix_spawnattr_init(&at);
    posix_spawnattr_setpgroup(&at, 0);
    sigset_t def;
    sigemptyset(&def);
    sigaddset(&def, SIGPIPE);
    sigaddset(&def, SIGINT);
    sigaddset(&def, SIGTERM);
    posix_spawnattr_setsigdefault(&at, &def);
    sigset_t none;
    sigemptyset(&none);
    posix_spawnattr_setsigmask(&at, &none);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
    int rc = posix_spawnp(&p->pid, part->argv[0], &fa, &at, part->argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    close(in[0]);
    close(out[1]);
    close(err[1]);
    p->in = in[1];
    p->out = out[0];
    p->err = err[0];
    if (rc != 0) {
        proc_closed(p);
        fail(f, "crash", "cannot start '%s': %s", part->argv[0], strerror(rc));
        return -1;
    }
    char *hello = hello_message();
    size_t hl = strlen(hello);
    char *line = NULL;
    int ok = 0;
    if (proc_send(p, hello, hl, f) == 0 && proc_send(p, "\n", 1, f) == 0) {
        double deadline = now_s() + (double)cfg.start_ms / 1000.0;
        while ((line = proc_read_line(p, deadline, f)) && !line[strspn(line, " \t")])
            free(line); /* blank lines are ignored */
        if (!line && !strcmp(f->reason, "timeout"))
            fail(f, "start-timeout", "no hello within the start time limit (%ld ms)", cfg.start_ms);
    }
    free(hello);
    if (line) {
        char why[96];
        json_t *m = load_message(line, p->line_len, why, sizeof why);
        json_t *t = json_object_get(m, "type"), *v = json_object_get(m, "protocol"), *n = json_object_get(m, "name");
        if (why[0])
            fail(f, "garbage", "%s in the hello '%.120s'", why, line);
        else if (!json_is_object(m) || !json_is_string(t) || strcmp(json_string_value(t), "hello"))
            fail(f, "garbage", "expected a hello message, got '%.120s'", line);
        else if (!json_is_integer(v) || json_integer_value(v) < PROTOCOL_OLDEST ||
                 json_integer_value(v) > PROTOCOL_VERSION)
        {
            char ver[48] = "(none given)";
            if (json_is_integer(v))
                snprintf(ver, sizeof ver, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
            fail(f, "handshake", "the bot speaks protocol %s, not %d to %d", ver, PROTOCOL_OLDEST, PROTOCOL_VERSION);
        }
        else {
            snprintf(p->name, sizeof p->name, "%s", json_is_string(n) ? json_string_value(n) : "");
            p->protocol = (int)json_integer_value(v);
            ok = 1;
        }
        json_decref(m);
        free(line);
    }
    if (!ok) {
        proc_drain_err(p);
        tail_get(p, f->stderr_tail);
        proc_kill(p);
        return -1;
    }
    return 0;
}

/* Bots' descendants that left their bot's process group (setsid, setpgid) escape the group kill. On Linux the
 * arena is a child subreaper (PR_SET_CHILD_SUBREAPER): when such a process's parent dies it becomes the arena's
 * child instead of init's, and at the end of the tournament, once every bot has been reaped, every process still
 * the arena's child is one of them: killed (SIGKILL) and reaped, with any it adopts meanwhile, for up to 5 s. So no
 * process of a bot outlives the arena; until then they live on. Elsewhere they are not tracked. */
static void become_subreaper(void)
{
#ifdef __linux__
    prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
#endif
}

#ifdef __linux__
/* Kill every child of this process (after the bots were reaped: adopted descendants); 1 if there was one. */
static int kill_children(void)
{
    DIR *d = opendir("/proc");
    if (!d)
        return 0;
    pid_t self = getpid();
    int found = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        char path[300], buf[512];
        if (e->d_name[0] < '1' || e->d_name[0] > '9')
            continue;
        snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        FILE *fp = fopen(path, "r");
        if (!fp)
            continue;
        size_t n = fread(buf, 1, sizeof buf - 1, fp);
        fclose(fp);
        buf[n] = '\0';
        const char *close_paren = strrchr(buf, ')'); /* "pid (comm) state ppid ...": comm may hold anything */
        char state;
        long ppid;
        if (close_paren && sscanf(close_paren + 1, " %c %ld", &state, &ppid) == 2 && ppid == (long)self) {
            kill((pid_t)strtol(e->d_name, NULL, 10), SIGKILL);
            found = 1;
        }
    }
    closedir(d);
    return found;
}
#endif

static void kill_adopted(void)
{
#ifdef __linux__
    double deadline = now_s() + 5;
    for (;;) {
        int found = kill_children();
        while (waitpid(-1, NULL, WNOHANG) > 0)
            found = 1;
        if (!found || now_s() > deadline)
            break;
        usleep(2000);
    }
#endif
}

/* ---- results ------------------------------------------------------------------------------------- */

typedef struct result {
    int done;
    int seating;
    int vp[STPETE_MAX_PLAYERS];
    double ret[STPETE_MAX_PLAYERS];
    int forfeit_seat; /* -1: none */
    int actions;
    char reason[32];
} result;

static result *results;
static long results_cap;
static pthread_mutex_t mtx = PTHREAD_MUTEX_INITIALIZER;
static int out_fd = -1;
static long next_game, games_done, games_todo;
static double t_start;
static int tty;

static void grow_results(long n)
{
    if (n <= results_cap)
        return;
    result *r = realloc(results, (size_t)n * sizeof *r);
    if (!r)
        die(1, "out of memory");
    memset(r + results_cap, 0, (size_t)(n - results_cap) * sizeof *r);
    results = r;
    results_cap = n;
}

/* A forfeit on standard error: the game, the seat and bot, the reason and detail, and the last lines of the bot's
 * standard error (at most 5). Called with the mutex held. */
static void report_forfeit(long g, int seat, const char *bot, const failure *f)
{
    fprintf(stderr, "%s%s: game %ld: seat %d (%s) forfeits: %s: %s\n", tty ? "\n" : "", prog, g, seat, bot, f->reason,
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

static void progress(void)
{
    double el = now_s() - t_start;
    double rate = el > 0 ? (double)games_done / el : 0;
    if (tty) {
        int width = 30, fill = games_todo ? (int)(width * games_done / games_todo) : width;
        char bar[64];
        for (int i = 0; i < width; i++)
            bar[i] = i < fill ? '#' : '.';
        bar[width] = '\0';
        double eta = rate > 0 ? (double)(games_todo - games_done) / rate : 0;
        fprintf(stderr, "\r[%s] %ld/%ld games  %.1f games/s  ETA %.0f s ", bar, games_done, games_todo, rate, eta);
        if (games_done == games_todo)
            fputc('\n', stderr);
    } else {
        long step = games_todo / 10 > 0 ? games_todo / 10 : 1;
        if (games_done % step == 0 || games_done == games_todo)
            fprintf(stderr, "%s: %ld/%ld games (%.1f games/s)\n", prog, games_done, games_todo, rate);
    }
    fflush(stderr);
}

/* Append a line (newline included) with one write(), so that a killed tournament never leaves half a line
 * behind another game's. */
static void append_line(const char *line, size_t len)
{
    if (out_fd < 0)
        return;
    size_t done = 0;
    while (done < len) {
        ssize_t n = write(out_fd, line + done, len - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            die(1, "cannot write the results file: %s", strerror(errno));
        done += (size_t)n;
    }
}

/* ---- a worker: plays games ------------------------------------------------------------------------- */

typedef struct worker {
    stpete_state *st;
    stpete_bot *bots[MAX_PARTICIPANTS];
    proc procs[MAX_PARTICIPANTS][STPETE_MAX_PLAYERS]; /* per participant, per occurrence in a game */
    int *ids;
    size_t nids, capids;
    pthread_t thread;
} worker;

static json_t *int_array(const int *v, int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_integer(v[i]));
    return a;
}

static json_t *result_json(const stpete_state *st, const int *vp, const double *ret, int P)
{
    json_t *r = json_object(), *w = json_array(), *rets = json_array();
    unsigned winners = 0;
    int terminal = cli_over(st);
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

/* Choose with a cmd: bot: send the request, read and check the reply. 0, or -1 with f set. */
static int external_choose(proc *p, const stpete_state *st, int seat, long req, int *action, failure *f)
{
    int ids[STPETE_MAX_LEGAL_ACTIONS];
    size_t n = 0;
    stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS, &n);
    json_t *m = json_object(), *legal = json_array();
    json_object_set_new(m, "type", json_string("request"));
    json_object_set_new(m, "request", json_integer(req));
    json_object_set_new(m, "seat", json_integer(seat));
    json_object_set_new(m, "time_left_ms", json_integer(cfg.time_ms));
    for (size_t i = 0; i < n; i++) {
        char text[STPETE_ACTION_STRING_MAX];
        int price = 0;
        stpete_action_to_string(stpete_game_edition(cfg.game), ids[i], text, sizeof text);
        json_t *a = json_object();
        json_object_set_new(a, "id", json_integer(ids[i]));
        json_object_set_new(a, "action", json_string(text));
        json_object_set_new(a, "price", stpete_state_action_price(st, ids[i], &price) == STPETE_OK
                                            ? json_integer(price) : json_null());
        json_array_append_new(legal, a);
    }
    json_object_set_new(m, "legal", legal);
    char *head = json_dumps(m, JSON_COMPACT);
    json_decref(m);
    size_t vlen = 0;
    stpete_state_view_to_json(st, seat, NULL, 0, &vlen);
    size_t hlen = strlen(head);
    char *line = xmalloc(hlen + vlen + 16);
    memcpy(line, head, hlen - 1); /* without the closing brace */
    memcpy(line + hlen - 1, ",\"view\":", 8);
    size_t pos = hlen - 1 + 8, got = 0;
    stpete_state_view_to_json(st, seat, line + pos, vlen + 1, &got);
    pos += got;
    line[pos++] = '}';
    line[pos++] = '\n';
    free(head);
    double t0 = now_s();
    int rc = proc_send(p, line, pos, f);
    free(line);
    if (rc)
        return -1;
    char *reply = NULL;
    for (;;) {
        reply = proc_read_line(p, t0 + (double)cfg.time_ms / 1000.0, f);
        if (!reply) {
            if (!strcmp(f->reason, "timeout"))
                fail(f, "timeout", "no answer within %ld ms (request %ld)", cfg.time_ms, req);
            return -1;
        }
        if (reply[strspn(reply, " \t")])
            break;
        free(reply); /* blank lines are ignored */
    }
    p->rt_sum += now_s() - t0;
    p->rt_n++;
    char why[96];
    json_t *r = load_message(reply, p->line_len, why, sizeof why);
    json_t *a = json_object_get(r, "action"), *q = json_object_get(r, "request");
    int ok = -1;
    if (why[0])
        fail(f, "garbage", "%s in the answer '%.120s'", why, reply);
    else if (!json_is_object(r) || !(json_is_integer(a) || json_is_string(a)))
        fail(f, "garbage", "expected {\"action\": ID or STRING}, got '%.120s'", reply);
    else if (q && (!json_is_integer(q) || json_integer_value(q) != req))
        fail(f, "garbage", "the answer is for request %" JSON_INTEGER_FORMAT ", not %ld",
             json_is_integer(q) ? json_integer_value(q) : (json_int_t)-1, req);
    else if (json_is_integer(a)) {
        json_int_t id = json_integer_value(a);
        if (id < 0 || id >= STPETE_NUM_DISTINCT_ACTIONS || !cli_legal(st, (int)id))
            fail(f, "illegal", "action id %" JSON_INTEGER_FORMAT " is not legal", id);
        else {
            *action = (int)id;
            ok = 0;
        }
    } else {
        int id;
        if (stpete_action_from_string(json_string_value(a), &id) != STPETE_OK)
            fail(f, "illegal", "'%.100s' is not an action", json_string_value(a));
        else if (!cli_legal(st, id))
            fail(f, "illegal", "'%.100s' is not legal now", json_string_value(a));
        else {
            *action = id;
            ok = 0;
        }
    }
    json_decref(r);
    free(reply);
    return ok;
}

static void write_record(const stpete_game *game, uint64_t deal, const int *ids, size_t n, long g)
{
    size_t len = 0;
    int rc = stpete_replay_to_json(game, deal, ids, n, NULL, 0, &len);
    char *text = rc == STPETE_E_BUFFER_TOO_SMALL ? xmalloc(len + 1) : NULL;
    if (text)
        rc = stpete_replay_to_json(game, deal, ids, n, text, len + 1, &len);
    char path[4096];
    snprintf(path, sizeof path, "%s/game-%06ld.json", cfg.record_dir, g);
    FILE *fp = rc == STPETE_OK ? fopen(path, "wb") : NULL;
    if (!fp || fwrite(text, 1, len, fp) != len || fputc('\n', fp) == EOF)
        fprintf(stderr, "%s: cannot write %s\n", prog, path);
    if (fp)
        fclose(fp);
    free(text);
}

static void play_game(worker *w, long g)
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

static void *worker_main(void *arg)
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

static void worker_init(worker *w)
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

static void worker_free(worker *w)
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

/* Check a game line of a results file against this tournament's definition, field by field (the schema of
 * doc/arena.md's results file): the game number within this run, its deal, deal seed, seating and bots those of
 * game g, the actions within the longest game, each seat's VP within ±STPETE_VP_MAX, returns in [0, 1] adding up
 * to 1, the winners the seats with a return, a forfeit naming a seat of the game with a known reason and the
 * returns a forfeit gives, timings and decisions per seat. 0 with *r filled, or -1 with why set. */
static int check_game_line(json_t *m, result *r, char *why, size_t why_size)
{
    int P = cfg.players, S = cfg.nseatings;
    json_t *gv = json_object_get(m, "game"), *res = json_object_get(m, "result");
    json_t *ff = json_object_get(m, "forfeit");
    if (!int_in(gv, 0, cfg.games - 1))
        BAD("\"game\" must be a game number of this run, an integer in [0, %ld] (a file with more games is resumed "
            "with a larger --games)", cfg.games - 1);
    long g = (long)json_integer_value(gv);
    memset(r, 0, sizeof *r);
    r->seating = (int)(g % S);
    const int *who = cfg.seatings[r->seating];
    if (!int_in(json_object_get(m, "deal"), g / S, g / S))
        BAD("\"deal\" must be %ld (game %ld of %d seatings)", g / S, g, S);
    char deal_seed[20];
    snprintf(deal_seed, sizeof deal_seed, "%016" PRIx64, mix3(cfg.seed, 0xDEA1, (uint64_t)(g / S)));
    json_t *ds = json_object_get(m, "deal_seed");
    if (!json_is_string(ds) || strcmp(json_string_value(ds), deal_seed))
        BAD("\"deal_seed\" must be \"%s\", game %ld's", deal_seed, g);
    int seating[STPETE_MAX_PLAYERS];
    if (!int_array_in(json_object_get(m, "seating"), seating, P, 0, cfg.nparts - 1) ||
        memcmp(seating, who, (size_t)P * sizeof(int)) != 0)
        BAD("\"seating\" must be game %ld's seating of this tournament", g);
    json_t *names = json_object_get(m, "bots");
    if (!json_is_array(names) || (int)json_array_size(names) != P)
        BAD("\"bots\" must be an array of %d labels", P);
    for (int s = 0; s < P; s++) {
        json_t *nm = json_array_get(names, (size_t)s);
        if (!json_is_string(nm) || strcmp(json_string_value(nm), cfg.parts[who[s]].label))
            BAD("\"bots\"[%d] must be \"%s\", the participant of seat %d", s, cfg.parts[who[s]].label, s);
    }
    json_t *actions = json_object_get(m, "actions");
    if (!int_in(actions, 0, stpete_game_max_length(cfg.game)))
        BAD("\"actions\" must be an integer in [0, %d] (the longest game)", stpete_game_max_length(cfg.game));
    r->actions = (int)json_integer_value(actions);
    if (!json_is_object(res))
        BAD("\"result\" must be an object");
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
    if (!json_equal(ff, json_object_get(res, "forfeit")))
        BAD("\"forfeit\" and \"result\".\"forfeit\" must be equal");
    r->forfeit_seat = -1;
    if (!json_is_null(ff)) {
        json_t *fs = json_object_get(ff, "seat"), *reason = json_object_get(ff, "reason");
        json_t *fb = json_object_get(ff, "bot");
        if (!json_is_object(ff) || !int_in(fs, 0, P - 1))
            BAD("\"forfeit\" must be null or an object whose \"seat\" is a seat of this %d-player game", P);
        r->forfeit_seat = (int)json_integer_value(fs);
        if (!json_is_string(reason) || !is_forfeit_reason(json_string_value(reason)))
            BAD("\"forfeit\".\"reason\" must be one of crash, timeout, garbage, illegal, handshake, start-timeout");
        if (!json_is_string(fb) || strcmp(json_string_value(fb), cfg.parts[who[r->forfeit_seat]].label))
            BAD("\"forfeit\".\"bot\" must be \"%s\", the participant of seat %d", cfg.parts[who[r->forfeit_seat]].label,
                r->forfeit_seat);
        if (!json_is_string(json_object_get(ff, "detail")) || !json_is_string(json_object_get(ff, "stderr")))
            BAD("\"forfeit\".\"detail\" and \"stderr\" must be strings");
        for (int s = 0; s < P; s++)
            if (fabs(r->ret[s] - (s == r->forfeit_seat ? 0.0 : 1.0 / (P - 1))) > 1e-9) /* written with 12 digits */
                BAD("\"result\".\"returns\" must be those of a forfeit of seat %d (0 for it, 1/%d for the others)",
                    r->forfeit_seat, P - 1);
        snprintf(r->reason, sizeof r->reason, "%s", json_string_value(reason));
    } else if (!json_is_null(ff)) {
        BAD("\"forfeit\" must be null or an object");
    }
    json_t *times = json_object_get(m, "time_ms");
    if (!json_is_array(times) || (int)json_array_size(times) != P)
        BAD("\"time_ms\" must be %d numbers", P);
    for (int s = 0; s < P; s++) {
        json_t *v = json_array_get(times, (size_t)s);
        if (!json_is_number(v) || !(json_number_value(v) >= 0 && json_number_value(v) < 1e15))
            BAD("\"time_ms\"[%d] must be a number of milliseconds, at least 0", s);
    }
    int decisions[STPETE_MAX_PLAYERS];
    if (!int_array_in(json_object_get(m, "decisions"), decisions, P, 0, r->actions))
        BAD("\"decisions\" must be %d integers in [0, %d] (the game's actions)", P, r->actions);
    r->done = 1;
    return 0;
}

#undef BAD

/* Read the results file of a tournament to resume: its header must carry this definition's hash, and every game line
 * must pass check_game_line(). A bad line is refused with its number (exit 2), the file unchanged; blank lines are
 * skipped; a last line cut short by a kill is dropped (and cut from the file). */
static long read_results(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return 0; /* nothing to resume: a new tournament */
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    long lineno = 0, loaded = 0;
    off_t good = 0;
    int header = 0;
    while ((n = getline(&line, &cap, fp)) > 0) {
        lineno++;
        if (line[n - 1] != '\n') {
            fprintf(stderr, "%s: %s: line %ld is incomplete (the tournament was killed while writing it): dropped\n",
                    prog, path, lineno);
            break;
        }
        if (strspn(line, " \t\r\n") == (size_t)n) { /* a blank line (one appended by an editor): nothing */
            good += n;
            continue;
        }
        json_error_t e;
        json_t *m = json_loadb(line, (size_t)n, 0, &e);
        json_t *type = json_object_get(m, "type"), *hash = json_object_get(m, "hash");
        if (!json_is_object(m) || !json_is_string(type) || !json_is_string(hash))
            die(2, "%s: line %ld is not a result line of stpete-arena; not resuming (the file is unchanged)", path,
                lineno);
        if (strcmp(json_string_value(hash), cfg.hash) != 0)
            die(2, "%s: line %ld belongs to another tournament (definition %s, this one is %s): "
                   "same --players, --edition, --seed, --bots, --time-ms and --start-ms are needed to resume",
                path, lineno, json_string_value(hash), cfg.hash);
        if (!strcmp(json_string_value(type), "tournament")) {
            header = 1;
        } else if (!strcmp(json_string_value(type), "game")) {
            result r;
            char why[300];
            if (check_game_line(m, &r, why, sizeof why) != 0)
                die(2, "%s: line %ld is not a valid game line of this tournament: %s; not resuming (the file is "
                       "unchanged)", path, lineno, why);
            long g = (long)json_integer_value(json_object_get(m, "game"));
            if (results[g].done)
                die(2, "%s: line %ld: game %ld is there twice; not resuming (the file is unchanged)", path, lineno, g);
            results[g] = r;
            loaded++;
        } else {
            die(2, "%s: line %ld has an unknown \"type\"; not resuming (the file is unchanged)", path, lineno);
        }
        json_decref(m);
        good += n;
    }
    free(line);
    fclose(fp);
    if (good > 0 && !header)
        die(2, "%s: no tournament header line", path);
    if (truncate(path, good) != 0)
        die(1, "%s: %s", path, strerror(errno));
    return loaded;
}

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

static void summary(void)
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
        if (json_dump_file(j, cfg.json_path, JSON_INDENT(2) | JSON_SORT_KEYS) != 0)
            die(1, "cannot write %s", cfg.json_path);
        json_decref(j);
    }
    free(done);
}

/* ---- the trivial bot and the benchmark ----------------------------------------------------------- */

/* --trivial-bot: an external bot that answers the first legal action of each request (doc/protocol.md). */
static int trivial_bot(void)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    setvbuf(stdout, NULL, _IOLBF, 0);
    while ((n = getline(&line, &cap, stdin)) > 0) {
        json_error_t e;
        json_t *m = json_loads(line, 0, &e);
        const char *type = json_string_value(json_object_get(m, "type"));
        if (type && !strcmp(type, "hello")) {
            printf("{\"type\":\"hello\",\"protocol\":%d,\"name\":\"first\"}\n", PROTOCOL_VERSION);
        } else if (type && !strcmp(type, "request")) {
            json_t *first = json_array_get(json_object_get(m, "legal"), 0);
            printf("{\"action\":%" JSON_INTEGER_FORMAT "}\n", json_integer_value(json_object_get(first, "id")));
        } else if (type && !strcmp(type, "quit")) {
            json_decref(m);
            break;
        }
        json_decref(m);
        fflush(stdout);
    }
    free(line);
    return 0;
}

/* ---- main ---------------------------------------------------------------------------------------- */

static void on_signal(int sig)
{
    (void)sig;
    atomic_store(&stop_requested, 1);
}

static void usage(FILE *out)
{
    fprintf(out,
            "Usage: stpete-arena [OPTION]...\n"
            "Play a tournament of Saint Petersburg among the library's bots and external programs (doc/protocol.md):\n"
            "every seating equally often, games in parallel, a crosstable, Bradley-Terry ratings with 95%%\n"
            "intervals and mean VP per bot at the end.\n"
            "\n"
            "Options:\n"
            "  --players N     number of players, 2, 3 or 4 (default 2)\n"
            "  --games G       number of games (default 100), rounded up to a multiple of the number of seatings\n"
            "  --bots LIST     comma-separated bot specs: KIND[:KEY=VALUE]... of the library (random, greedy, mc,\n"
            "                  ismcts; stpete/bots.h), or cmd:PROGRAM [ARGUMENT]... for an external bot\n"
            "                  (default greedy,random)\n"
            "  --bot SPEC      add one bot spec (may contain commas); repeatable, after or instead of --bots\n"
            "  --jobs J        games played in parallel (default 1)\n"
            "  --edition E     1 = the first edition (default), 2 = the second-edition preset\n"
            "  --seed S        tournament seed: decides every deal and every bot's seed (default 1)\n"
            "  --time-ms T     time limit of an external bot per decision, in ms (default 10000)\n"
            "  --start-ms T    time limit of an external bot to start and answer hello, in ms (default 10000)\n"
            "  --out FILE      append one JSON line per finished game to FILE (after a header line)\n"
            "  --resume        continue the tournament of --out FILE: play only the games missing there\n"
            "  --json FILE     write the final table (ratings, crosstable) as JSON\n"
            "  --record DIR    write a replay record (stpete-replay) of every game to DIR/game-NNNNNN.json\n"
            "  --quiet         no progress output\n"
            "  --bench         measure the protocol round trip of an external bot (the first cmd: of --bots,\n"
            "                  or this program's --trivial-bot) over 20 2-player games (or --games) and exit\n"
            "  --trivial-bot   act as an external bot that plays the first legal action (for --bench and tests)\n"
            "  -h, --help      show this help and exit\n"
            "  --version       show the version and exit\n"
            "\n"
            "Forfeits: an external bot that crashes, exceeds its time limit, prints a line that is not a protocol\n"
            "message or answers an illegal action forfeits the game: it gets return 0 and loses to every other\n"
            "seat, which share the win. It is restarted for its next game. Exit status: 0, 1 on a system error,\n"
            "2 on bad options or specs (before any game), 130 when interrupted (finished games are kept).\n"
            "\n"
            "Example:\n"
            "  stpete-arena --players 3 --games 600 --bots greedy,ismcts:iterations=2000,'cmd:python3 mybot.py' "
            "--jobs 2\n");
}

static long parse_long(const char *opt, const char *val, long lo, long hi)
{
    char *end;
    errno = 0;
    long v = strtol(val, &end, 10);
    if (!*val || *end || errno || v < lo || v > hi)
        die(2, "%s takes a number in [%ld, %ld], not '%s'", opt, lo, hi, val);
    return v;
}

static void bench(const char *self)
{
    /* the first cmd: participant, or this program as --trivial-bot, against random, 2 players */
    int ext = -1;
    for (int i = 0; i < cfg.nparts; i++)
        if (cfg.parts[i].external && ext < 0)
            ext = i;
    participant bot, rnd;
    memset(&bot, 0, sizeof bot);
    memset(&rnd, 0, sizeof rnd);
    if (ext >= 0) {
        bot = cfg.parts[ext];
    } else {
        char cmd[4200], exe[4096];
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (n > 0)
            exe[n] = '\0';
        snprintf(cmd, sizeof cmd, "cmd:'%s' --trivial-bot", n > 0 ? exe : self);
        cfg.nparts = 0;
        add_participant(cmd);
        bot = cfg.parts[0];
    }
    snprintf(rnd.label, sizeof rnd.label, "random");
    snprintf(rnd.spec, sizeof rnd.spec, "random");
    cfg.parts[0] = bot;
    cfg.parts[1] = rnd;
    cfg.nparts = 2;
    cfg.players = 2;
    stpete_game_free(cfg.game);
    stpete_options o;
    stpete_options_init(&o);
    o.players = 2;
    if (stpete_game_new(&o, &cfg.game, NULL))
        die(1, "cannot create the game");
    make_seatings();
    make_definition();
    long games = cfg.games_given ? cfg.games : 20;
    cfg.games = games;
    cfg.quiet = 1;
    grow_results(games);
    worker w;
    worker_init(&w);
    double t0 = now_s();
    for (long g = 0; g < games; g++)
        play_game(&w, g);
    double el = now_s() - t0;
    proc *p = &w.procs[0][0];
    long forfeit = 0, decisions = 0;
    for (long g = 0; g < games; g++)
        forfeit += results[g].forfeit_seat >= 0;
    decisions = p->rt_n;
    printf("protocol round trip: %.1f us per decision (%ld decisions in %ld 2-player games against random)\n",
           decisions ? 1e6 * p->rt_sum / (double)decisions : 0.0, decisions, games);
    printf("  bot: %s\n", bot.cmd);
    printf("  measured from writing a request (view and legal actions) to reading the answer; whole games: %.1f ms "
           "per game, %.1f us per external decision with building the request\n",
           1e3 * el / (double)games, decisions ? 1e6 * el / (double)decisions : 0.0);
    if (forfeit)
        printf("forfeits: %ld\n", forfeit);
    worker_free(&w);
}

int main(int argc, char **argv)
{
    const char *list = NULL;
    int gave_bot = 0;
    cfg.players = 2;
    cfg.edition = 1;
    cfg.jobs = 1;
    cfg.games = 100;
    cfg.seed = 1;
    cfg.time_ms = 10000;
    cfg.start_ms = 10000;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        int common = cli_common(prog, a, usage);
        if (common != CLI_NOT_COMMON)
            return common;
        if (!strcmp(a, "--trivial-bot"))
            return trivial_bot();
        if (!strcmp(a, "--resume")) {
            cfg.resume = 1;
            continue;
        }
        if (!strcmp(a, "--bench")) {
            cfg.bench = 1;
            continue;
        }
        if (!strcmp(a, "--quiet")) {
            cfg.quiet = 1;
            continue;
        }
        if (cli_check_value(prog, a, val, "--players --games --bots --bot --jobs --edition --seed --time-ms "
                                          "--start-ms --out --json --record "))
            return CLI_USAGE_ERROR;
        i++;
        if (!strcmp(a, "--players"))
            cfg.players = (int)parse_long(a, val, 2, 4);
        else if (!strcmp(a, "--games")) {
            cfg.games = parse_long(a, val, 1, 10000000);
            cfg.games_given = 1;
        }
        else if (!strcmp(a, "--bots")) {
            if (list)
                die(2, "--bots given twice (use --bot SPEC to add one)");
            list = val;
            add_list(val);
        } else if (!strcmp(a, "--bot")) {
            gave_bot = 1;
            add_participant(val);
        } else if (!strcmp(a, "--jobs"))
            cfg.jobs = (int)parse_long(a, val, 1, 256);
        else if (!strcmp(a, "--edition"))
            cfg.edition = (int)parse_long(a, val, 1, 2);
        else if (!strcmp(a, "--seed")) {
            char *end;
            errno = 0;
            cfg.seed = strtoull(val, &end, 0);
            if (!*val || *end || errno || val[0] == '-')
                die(2, "--seed takes a number in [0, 2^64), not '%s'", val);
        } else if (!strcmp(a, "--time-ms"))
            cfg.time_ms = parse_long(a, val, 1, 3600000);
        else if (!strcmp(a, "--start-ms"))
            cfg.start_ms = parse_long(a, val, 1, 3600000);
        else if (!strcmp(a, "--out"))
            cfg.out_path = val;
        else if (!strcmp(a, "--json"))
            cfg.json_path = val;
        else if (!strcmp(a, "--record"))
            cfg.record_dir = val;
        else
            return cli_unknown(prog, a);
    }
    if (!list && !gave_bot && !cfg.bench)
        add_list("greedy,random");
    signal(SIGPIPE, SIG_IGN);
    json_object_seed(0); /* jansson's hash seed, set once before any thread uses jansson */
    stpete_options o;
    stpete_options_init(&o);
    o.players = cfg.players;
    o.edition = cfg.edition;
    if (stpete_game_new(&o, &cfg.game, NULL) != STPETE_OK)
        die(2, "cannot create a game of these options");
    if (cfg.bench) {
        bench(argv[0]);
        stpete_game_free(cfg.game);
        return 0;
    }
    check_participants();
    become_subreaper();
    if (cfg.resume && !cfg.out_path)
        die(2, "--resume needs --out FILE (the results file of the tournament to continue)");
    if (cfg.record_dir) {
        struct stat sb;
        if (stat(cfg.record_dir, &sb) != 0 && mkdir(cfg.record_dir, 0777) != 0)
            die(2, "--record: cannot create %s: %s", cfg.record_dir, strerror(errno));
        if (stat(cfg.record_dir, &sb) != 0 || !S_ISDIR(sb.st_mode))
            die(2, "--record: %s is not a directory", cfg.record_dir);
    }
    make_seatings();
    if (cfg.games % cfg.nseatings) {
        long g = (cfg.games / cfg.nseatings + 1) * cfg.nseatings;
        fprintf(stderr, "%s: %ld games rounded up to %ld, a multiple of the %d seatings\n", prog, cfg.games, g,
                cfg.nseatings);
        cfg.games = g;
    }
    make_definition();
    grow_results(cfg.games);
    long already = 0;
    if (cfg.out_path) {
        struct stat sb;
        int exists = stat(cfg.out_path, &sb) == 0 && sb.st_size > 0;
        if (exists && !cfg.resume)
            die(2, "%s exists: add --resume to continue its tournament, or remove it", cfg.out_path);
        if (exists)
            already = read_results(cfg.out_path);
        out_fd = open(cfg.out_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
        if (out_fd < 0)
            die(2, "cannot open %s: %s", cfg.out_path, strerror(errno));
        if (!exists || fstat(out_fd, &sb) != 0 || sb.st_size == 0) {
            char *head = NULL;
            if (asprintf(&head, "{\"type\":\"tournament\",\"hash\":\"%s\",\"version\":\"%s\",\"definition\":%s}\n",
                         cfg.hash, stpete_version(), cfg.definition) < 0)
                die(1, "out of memory");
            append_line(head, strlen(head));
            free(head);
        }
    }
    long present = 0;
    for (long g = 0; g < cfg.games; g++)
        present += results[g].done;
    games_todo = cfg.games - present;
    if (cfg.resume && !cfg.quiet)
        fprintf(stderr, "%s: %ld games in %s, %ld of %ld to play\n", prog, already, cfg.out_path, games_todo,
                cfg.games);
    tty = isatty(2);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    t_start = now_s();
    int J = cfg.jobs;
    worker *ws = xmalloc((size_t)J * sizeof *ws);
    for (int j = 0; j < J; j++)
        worker_init(&ws[j]);
    for (int j = 0; j < J; j++)
        if (pthread_create(&ws[j].thread, NULL, worker_main, &ws[j]) != 0)
            die(1, "cannot start a thread");
    for (int j = 0; j < J; j++)
        pthread_join(ws[j].thread, NULL);
    for (int j = 0; j < J; j++)
        worker_free(&ws[j]);
    free(ws);
    kill_adopted();
    if (out_fd >= 0)
        close(out_fd);
    int rc = 0;
    if (atomic_load(&stop_requested)) {
        fprintf(stderr, "\n%s: interrupted after %ld of %ld games%s%s\n", prog, games_done, games_todo,
                cfg.out_path ? "; continue with --resume --out " : "", cfg.out_path ? cfg.out_path : "");
        rc = 130;
    }
    summary();
    for (int i = 0; i < cfg.nparts; i++) {
        if (cfg.parts[i].argv) {
            for (char **p = cfg.parts[i].argv; *p; p++)
                free(*p);
            free(cfg.parts[i].argv);
        }
        free(cfg.parts[i].cmd);
    }
    free(cfg.seatings);
    free(results);
    free(cfg.definition);
    stpete_game_free(cfg.game);
    return rc;
}
