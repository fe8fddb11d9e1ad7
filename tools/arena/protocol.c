/* stpete-arena: talking to an external bot (doc/protocol.md): spawn it, write requests and read its lines
 * within deadlines, turn every failure into a forfeit, reap and kill its processes; and --trivial-bot. */

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

extern char **environ; /* posix_spawn() passes it to the bot */

/* ---- external bots ------------------------------------------------------------------------------- */

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
void tail_get(const proc *p, char *out)
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
int proc_exited(const proc *p)
{
    siginfo_t si;
    memset(&si, 0, sizeof si);
    return waitid(P_PID, (id_t)p->pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == p->pid;
}

/* The bot's life ends (it exited, or it is killed): SIGKILL to its whole process group, the group the arena made it
 * the leader of at spawn (so the children it forked die with it, also when it exited by itself), then reap it and
 * close our ends. Returns its wait status. */
int proc_reap(proc *p)
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

void proc_kill(proc *p)
{
    if (p->pid)
        proc_reap(p);
}

void proc_quit(proc *p)
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

/* Read what poll() found ready: stderr into the tail (closed at its end), stdout into the buffer (eof at its end). */
static void read_ready(proc *p, const struct pollfd *fds)
{
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

/* A whole line in the buffer: taken out of it, malloc'd without its newline (and a '\r' before it), its length in
 * p->line_len; else NULL. */
static char *take_line(proc *p)
{
    char *nl = p->len ? memchr(p->buf, '\n', p->len) : NULL;
    if (!nl)
        return NULL;
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

/* Read one line of the bot's stdout within deadline (monotonic seconds), draining its stderr meanwhile.
 * Returns a malloc'd line without its newline, or NULL with f set. */
static char *proc_read_line(proc *p, double deadline, failure *f)
{
    for (;;) {
        char *line = take_line(p);
        if (line)
            return line;
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
        if (p->stop && atomic_load(p->stop)) {
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
        read_ready(p, fds);
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
void proc_drain_err(proc *p)
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

int proc_send(proc *p, const char *line, size_t len, failure *f)
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

/* The word of a card's special ability (stpete_card_info::special, §7) in the hello's card table, or NULL. */
static const char *special_word(int special)
{
    static const char *const words[] = {
        [STPETE_SPECIAL_NONE] = NULL,
        [STPETE_SPECIAL_OBSERVATORY] = "observatory",
        [STPETE_SPECIAL_PUB] = "pub",
        [STPETE_SPECIAL_WAREHOUSE] = "warehouse",
        [STPETE_SPECIAL_POTJOMKINS_VILLAGE] = "worth-6-displaced",
        [STPETE_SPECIAL_MARIINSKIJ_THEATER] = "rubles-per-orange",
        [STPETE_SPECIAL_TAX_MAN] = "rubles-per-green",
        [STPETE_SPECIAL_CARPENTER_WORKSHOP] = "blue-discount",
        [STPETE_SPECIAL_GOLD_SMELTER] = "orange-discount",
        [STPETE_SPECIAL_CZAR_AND_CARPENTER] = "any-green-trading-displaces",
        [STPETE_SPECIAL_MARIINSKY_THEATER_VP] = "vp-per-orange",
        /* the New Society (§12.7) */
        [STPETE_SPECIAL_COFFEE_HOUSE] = "rubles-per-orange-at-building",
        [STPETE_SPECIAL_DEBTORS_PRISON] = "prison",
        [STPETE_SPECIAL_TRADING_HOUSE] = "trading-house",
        [STPETE_SPECIAL_SYCOPHANT] = "sycophant",
        [STPETE_SPECIAL_OBSHCHINA_COMMUNE] = "green-discount",
        [STPETE_SPECIAL_NEW_SOCIETY] = "any-worker-displaces",
        [STPETE_SPECIAL_GUILD_HALL] = "guild-hall",
        [STPETE_SPECIAL_TEXTILE_FACTORY] = "vp-per-weaving",
        [STPETE_SPECIAL_MAYOR] = "rubles-per-blue",
    };
    return special >= 0 && special < (int)(sizeof words / sizeof *words) ? words[special] : NULL;
}

/* The card types a trading card may displace (§6.2), asked from the action encoding: those for which buying it
 * from the upper row displacing them is an action (stpete_action_encode()). A JSON array of card types, or null
 * for a card that is not a trading card. */
static json_t *displaced_types(int card, int trading, int card_types)
{
    if (!trading)
        return json_null();
    json_t *targets = json_array();
    for (int t = 0; t < card_types; t++) {
        stpete_action a = { STPETE_ACTION_BUY, STPETE_SOURCE_UPPER, card, t, STPETE_NONE, STPETE_NONE };
        int id;
        if (stpete_action_encode(&a, &id) == STPETE_OK)
            json_array_append_new(targets, json_integer(t));
    }
    return targets;
}

/* The hello's card table (doc/protocol.md): one object per card type of the game (49, or 62 with the New Society),
 * indexed by the card type of stpete.h, each row stpete_game_get_card_info()'s (§2, §11, §12.2), with the card
 * types a trading card displaces. */
static json_t *card_table(const stpete_game *game)
{
    json_t *cards = json_array();
    int types = stpete_game_num_card_types(game);
    for (int c = 0; c < types; c++) {
        stpete_card_info info = STPETE_CARD_INFO_INIT;
        if (stpete_game_get_card_info(game, c, &info) != STPETE_OK)
            die(1, "no description of card type %d", c);
        const char *special = special_word(info.special);
        json_t *row = json_object();
        json_object_set_new(row, "card", json_integer(c));
        json_object_set_new(row, "name", json_string(info.name));
        json_object_set_new(row, "colour", json_string(stpete_colour_name(info.colour)));
        json_object_set_new(row, "stack", json_string(stpete_stack_name(info.stack)));
        json_object_set_new(row, "trading", json_boolean(info.trading));
        json_object_set_new(row, "cost", json_integer(info.cost));
        json_object_set_new(row, "rubles", json_integer(info.rubles));
        json_object_set_new(row, "vp", json_integer(info.vp));
        json_object_set_new(row, "copies", json_integer(info.copies));
        json_object_set_new(row, "special", special ? json_string(special) : json_null());
        json_object_set_new(row, "displaces", displaced_types(c, info.trading, types));
        json_array_append_new(cards, row);
    }
    return cards;
}

/* The hello message: protocol version, the game's options (the deal's seed is not among them) and its card
 * table. */
static char *hello_message(const config *c)
{
    json_t *m = json_object(), *g = json_object();
    stpete_options o;
    stpete_options_init(&o);
    stpete_game_get_options(c->game, &o);
    json_object_set_new(m, "type", json_string("hello"));
    json_object_set_new(m, "protocol", json_integer(PROTOCOL_VERSION));
    json_t *versions = json_array(); /* every version the arena speaks: the bot answers the one it wants */
    for (int v = PROTOCOL_OLDEST; v <= PROTOCOL_VERSION; v++)
        json_array_append_new(versions, json_integer(v));
    json_object_set_new(m, "protocols", versions);
    /* every option of the game but its deal's seed (the library's table; its JSON words, doc/format.md): a bot
     * that does not know an option ignores it */
    for (int i = 0; i < stpete_option_count(); i++) {
        stpete_option_info in = STPETE_OPTION_INFO_INIT;
        stpete_option_get_info(i, &in);
        if (in.type != STPETE_OPTION_SEED)
            json_object_set_new(g, in.name, arena_option_json(&o, &in));
    }
    json_object_set_new(g, "num_distinct_actions", json_integer(stpete_game_num_distinct_actions(c->game)));
    json_object_set_new(m, "game", g);
    json_object_set_new(m, "time_ms", json_integer(c->time_ms));
    json_object_set_new(m, "cards", card_table(c->game));
    char *s = json_dumps(m, JSON_COMPACT);
    json_decref(m);
    return s;
}

/* Spawn the bot's process: its own process group, default signals, pipes as its standard streams and no other
 * descriptor (cloexec_inherited()). 0 (our ends in p), or posix_spawn's error. */
static int spawn_bot(proc *p, const participant *part)
{
    int in[2], out[2], err[2];
    if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC))
        die(1, "pipe: %s", strerror(errno));
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_adddup2(&fa, err[1], 2);
#ifdef HAVE_POSIX_SPAWN_FILE_ACTIONS_ADDCLOSEFROM_NP
    /* every descriptor above 2 closed in the child before exec (glibc: close_range, else each one listed in
     * /proc/self/fd): whatever the arena inherited or another thread opened reaches no bot */
    posix_spawn_file_actions_addclosefrom_np(&fa, 3);
#endif
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
    return rc;
}

/* The bot's hello line: a hello of a protocol version the arena speaks (its name and version into p). 0, or -1
 * with f set. */
static int check_hello(proc *p, const char *line, failure *f)
{
    char why[96];
    int ok = -1;
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
        ok = 0;
    }
    json_decref(m);
    return ok;
}

/* Start a bot and shake hands within --start-ms. 0, or -1 with f set (the process is then gone). */
int proc_start(proc *p, participant *part, failure *f)
{
    proc keep = *p; /* what outlives a process: the tournament, the buffer, the round trips */
    memset(p, 0, sizeof *p);
    p->cfg = keep.cfg;
    p->stop = keep.stop;
    p->buf = keep.buf;
    p->cap = keep.cap;
    p->rt_sum = keep.rt_sum;
    p->rt_n = keep.rt_n;
    p->in = p->out = p->err = -1;
    int rc = spawn_bot(p, part);
    if (rc != 0) {
        proc_closed(p);
        fail(f, "crash", "cannot start '%s': %s", part->argv[0], strerror(rc));
        return -1;
    }
    char *hello = hello_message(p->cfg);
    char *line = NULL;
    int ok = -1;
    if (proc_send(p, hello, strlen(hello), f) == 0 && proc_send(p, "\n", 1, f) == 0) {
        double deadline = now_s() + (double)p->cfg->start_ms / 1000.0;
        while ((line = proc_read_line(p, deadline, f)) && !line[strspn(line, " \t")])
            free(line); /* blank lines are ignored */
        if (!line && !strcmp(f->reason, "timeout"))
            fail(f, "start-timeout", "no hello within the start time limit (%ld ms)", p->cfg->start_ms);
    }
    free(hello);
    if (line) {
        ok = check_hello(p, line, f);
        free(line);
    }
    if (ok != 0) {
        proc_drain_err(p);
        tail_get(p, f->stderr_tail);
        proc_kill(p);
        return -1;
    }
    return 0;
}

/* The last line of a bot's kept standard error, into out. */
static void last_stderr_line(const char *tail, char *out, size_t cap)
{
    const char *end = tail + strlen(tail);
    while (end > tail && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
        end--;
    const char *start = end;
    while (start > tail && start[-1] != '\n')
        start--;
    snprintf(out, cap, "%.*s", (int)(end - start), start);
}

/* Before the first game, start each external bot once and wait for its hello: one that exits first cannot run
 * (its program or script is missing, it fails as it starts), and the arena stops with one line (exit status 2)
 * instead of forfeiting every game with the same error. A bot that answers is told to quit; a slow or wrong hello
 * is left to the games, which forfeit it as before (doc/protocol.md). */
void probe_external(config *c, const atomic_int *stop)
{
    for (int i = 0; i < c->nparts; i++) {
        if (!c->parts[i].external)
            continue;
        proc p = { .cfg = c, .stop = stop };
        failure f = { .reason = "" };
        int started = proc_start(&p, &c->parts[i], &f) == 0;
        if (started)
            proc_quit(&p);
        free(p.buf);
        if (!started && !strcmp(f.reason, "crash")) {
            char why[200];
            last_stderr_line(f.stderr_tail, why, sizeof why);
            die(2, "bot '%s' cannot run: %s%s%s", c->parts[i].spec, f.detail, why[0] ? ": " : "", why);
        }
    }
}

void cloexec_inherited(void)
{
#ifdef CLOSE_RANGE_CLOEXEC
    if (close_range(3, ~0U, CLOSE_RANGE_CLOEXEC) == 0)
        return;
#endif
    long max = sysconf(_SC_OPEN_MAX);
    for (long fd = 3; fd < (max > 0 ? max : 1024); fd++) {
        int flags = fcntl((int)fd, F_GETFD);
        if (flags >= 0 && !(flags & FD_CLOEXEC))
            fcntl((int)fd, F_SETFD, flags | FD_CLOEXEC);
    }
}

/* Bots' descendants that left their bot's process group (setsid, setpgid) escape the group kill. On Linux the
 * arena is a child subreaper (PR_SET_CHILD_SUBREAPER): when such a process's parent dies it becomes the arena's
 * child instead of init's, and at the end of the tournament, once every bot has been reaped, every process still
 * the arena's child is one of them: killed (SIGKILL) and reaped, with any it adopts meanwhile, for up to 5 s. So no
 * process of a bot outlives the arena; until then they live on. Elsewhere they are not tracked. */
void become_subreaper(void)
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
        FILE *fp = fopen(path, "re");
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

void kill_adopted(void)
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

/* A number of the library's action decoding, or null for its STPETE_NONE (-1). */
static json_t *decoded_int(int v)
{
    return v >= 0 ? json_integer(v) : json_null();
}

/* A name from the library (stpete_source_name, stpete_stack_name), or null. */
static json_t *decoded_name(const char *name)
{
    return name ? json_string(name) : json_null();
}

/* A legal action's structured form as the library decodes it (stpete_action_decode): kind, card, source, target
 * (the displaced card type), stack and amount, null where the action has none (doc/protocol.md, "request"). */
static void add_action_structure(json_t *a, int id)
{
    stpete_action d;
    if (stpete_action_decode(id, &d) != STPETE_OK) /* never for a listed id */
        d = (stpete_action){ .kind = -1, .source = -1, .card = -1, .displaced = -1, .stack = -1, .amount = -1 };
    json_object_set_new(a, "kind", decoded_int(d.kind));
    json_object_set_new(a, "card", decoded_int(d.card));
    json_object_set_new(a, "source", decoded_name(d.source >= 0 ? stpete_source_name(d.source) : NULL));
    json_object_set_new(a, "target", decoded_int(d.displaced));
    json_object_set_new(a, "stack", decoded_name(d.stack >= 0 ? stpete_stack_name(d.stack) : NULL));
    json_object_set_new(a, "amount", decoded_int(d.amount));
}

/* The request line for seat's decision (doc/protocol.md): the legal actions with their strings, prices and
 * structured forms, and the seat's view; its length in *len (malloc'd, ends in a newline). */
static char *request_line(const proc *p, const stpete_state *st, int seat, long req, size_t *len)
{
    int ids[STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY]; /* the larger bound: any game's (§12.4.1) */
    size_t n = 0;
    stpete_state_legal_actions(st, ids, STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY, &n);
    json_t *m = json_object(), *legal = json_array();
    json_object_set_new(m, "type", json_string("request"));
    json_object_set_new(m, "request", json_integer(req));
    json_object_set_new(m, "seat", json_integer(seat));
    json_object_set_new(m, "time_left_ms", json_integer(p->cfg->time_ms));
    for (size_t i = 0; i < n; i++) {
        char text[STPETE_ACTION_STRING_MAX];
        int price = 0;
        stpete_action_to_string(stpete_game_edition(p->cfg->game), ids[i], text, sizeof text);
        json_t *a = json_object();
        json_object_set_new(a, "id", json_integer(ids[i]));
        json_object_set_new(a, "action", json_string(text));
        json_object_set_new(a, "price", stpete_state_action_price(st, ids[i], &price) == STPETE_OK
                                            ? json_integer(price) : json_null());
        add_action_structure(a, ids[i]);
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
    *len = pos;
    return line;
}

/* The action of an answer line to request req: a legal id, or a string of a legal action. 0 with *action, or -1
 * with f set (garbage or illegal). */
static int answer_action(const proc *p, const stpete_state *st, const char *reply, long req, int *action,
                         failure *f)
{
    char why[96];
    json_t *r = load_message(reply, p->line_len, why, sizeof why);
    json_t *a = json_object_get(r, "action"), *q = json_object_get(r, "request");
    int ok = -1, id = -1;
    if (why[0])
        fail(f, "garbage", "%s in the answer '%.120s'", why, reply);
    else if (!json_is_object(r) || !(json_is_integer(a) || json_is_string(a)))
        fail(f, "garbage", "expected {\"action\": ID or STRING}, got '%.120s'", reply);
    else if (q && (!json_is_integer(q) || json_integer_value(q) != req))
        fail(f, "garbage", "the answer is for request %" JSON_INTEGER_FORMAT ", not %ld",
             json_is_integer(q) ? json_integer_value(q) : (json_int_t)-1, req);
    else if (json_is_integer(a)) {
        json_int_t v = json_integer_value(a);
        if (v < 0 || v >= stpete_game_num_distinct_actions(p->cfg->game) || !stpete_state_is_legal_or(st, (int)v, 0))
            fail(f, "illegal", "action id %" JSON_INTEGER_FORMAT " is not legal", v);
        else
            ok = 0, id = (int)v;
    } else if (stpete_action_from_string(json_string_value(a), &id) != STPETE_OK) {
        fail(f, "illegal", "'%.100s' is not an action", json_string_value(a));
    } else if (!stpete_state_is_legal_or(st, id, 0)) {
        fail(f, "illegal", "'%.100s' is not legal now", json_string_value(a));
    } else {
        ok = 0;
    }
    if (ok == 0)
        *action = id;
    json_decref(r);
    return ok;
}

/* Choose with a cmd: bot: send the request, read and check the reply. 0, or -1 with f set. */
int external_choose(proc *p, const stpete_state *st, int seat, long req, int *action, failure *f)
{
    size_t len;
    char *line = request_line(p, st, seat, req, &len);
    double t0 = now_s();
    int rc = proc_send(p, line, len, f);
    free(line);
    if (rc)
        return -1;
    char *reply = NULL;
    for (;;) {
        reply = proc_read_line(p, t0 + (double)p->cfg->time_ms / 1000.0, f);
        if (!reply) {
            if (!strcmp(f->reason, "timeout"))
                fail(f, "timeout", "no answer within %ld ms (request %ld)", p->cfg->time_ms, req);
            return -1;
        }
        if (reply[strspn(reply, " \t")])
            break;
        free(reply); /* blank lines are ignored */
    }
    p->rt_sum += now_s() - t0;
    p->rt_n++;
    int ok = answer_action(p, st, reply, req, action, f);
    free(reply);
    return ok;
}

/* --trivial-bot: an external bot that answers the first legal action of each request (doc/protocol.md). */
int trivial_bot(void)
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
