/* stpete-arena: options, --help, the benchmark (--bench) and main: one run of a tournament from start to
 * summary. The tournament itself is described in arena.h. */

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
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include <stpete/bots.h>
#include <stpete/stpete.h>

#include "arena.h"

/* ---- main ---------------------------------------------------------------------------------------- */

/* The one variable outside the arena: set by the SIGINT/SIGTERM handler, read by the worker threads (through
 * arena.stop). An atomic (lock-free, so async-signal-safe), not a volatile sig_atomic_t, which is a data race
 * between threads (ThreadSanitizer, issue 22). */
static atomic_int stop_requested;

static void arena_on_signal(int sig)
{
    (void)sig;
    atomic_store(&stop_requested, 1);
}

/* This program's defaults: 2 players, 100 games, seed 1, 10 s per decision and to start. */
static void arena_defaults(config *c)
{
    cli_options_init(&c->options);
    c->options.opts.players = 2;
    c->jobs = 1;
    c->games = 100;
    c->seed = 1;
    c->time_ms = 10000;
    c->start_ms = 10000;
}

static void arena_usage(FILE *out)
{
    config c;
    memset(&c, 0, sizeof c);
    arena_defaults(&c);
    fprintf(out,
            "Usage: stpete-arena [OPTION]...\n"
            "Play a tournament of Saint Petersburg among the library's bots and external\n"
            "programs (doc/protocol.md): every seating equally often, games in parallel, a\n"
            "crosstable, Bradley-Terry ratings with 95%% intervals and mean VP per bot at the\n"
            "end.\n"
            "\n"
            "Options:\n"
            "  --games G             number of games (default 100), rounded up to a multiple\n"
            "                        of the number of seatings\n"
            "  --bots LIST           comma-separated bot specs: KIND[:KEY=VALUE]... of the\n"
            "                        library (random, greedy, mc, ismcts, learned; bots.h),\n"
            "                        or cmd:PROGRAM [ARGUMENT]... for an external bot\n"
            "                        (default greedy,random)\n"
            "  --bot SPEC            add one bot spec (may contain commas); repeatable, after\n"
            "                        or instead of --bots\n"
            "  --jobs J              games played in parallel (default 1)\n"
            "  --seed S              tournament seed: decides every deal and every bot's seed\n"
            "                        (default 1)\n"
            "  --time-ms T           time limit of an external bot per decision, in ms\n"
            "                        (default 10000)\n"
            "  --start-ms T          time limit of an external bot to start and answer hello,\n"
            "                        in ms (default 10000)\n"
            "  --out FILE            append one JSON line per finished game to FILE (after a\n"
            "                        header line): the library's results file, each game\n"
            "                        with its actions; one run at a time (the file locked)\n"
            "  --resume              continue the tournament of --out FILE: replay and check\n"
            "                        its games, play the missing ones\n"
            "  --json FILE           write the final table (ratings, crosstable, time per\n"
            "                        decision) as JSON\n"
            "  --record DIR          write a replay record (stpete-replay) of every game to\n"
            "                        DIR/game-NNNNNN.json\n"
            "  --quiet               no progress output\n"
            "  --bench               measure the protocol round trip of an external bot (the\n"
            "                        first cmd: of --bots, or this program's --trivial-bot)\n"
            "                        over 20 2-player games (or --games) and exit\n"
            "  --trivial-bot         act as an external bot that plays the first legal action\n"
            "                        (for --bench and tests)\n"
            "  -h, --help            show this help and exit\n"
            "  --version             show the version and exit\n"
            "\n");
    cli_options_usage(out, &c.options, NULL, NULL);
    fprintf(out,
            "\n"
            "Forfeits: an external bot that crashes, exceeds its time limit, prints a line\n"
            "that is not a protocol message or answers an illegal action forfeits the game:\n"
            "it gets return 0 and loses to every other seat, which share the win. It is\n"
            "restarted for its next game. Exit status: 0, 1 on a system error, 2 on bad\n"
            "options or specs (before any game), 130 when interrupted (finished games are\n"
            "kept).\n"
            "\n"
            "Example:\n"
            "  stpete-arena --players 3 --games 600 --jobs 2 \\\n"
            "      --bots greedy,ismcts:iterations=2000,'cmd:python3 mybot.py'\n");
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

/* The bot of --bench: the first cmd: participant, or this program as --trivial-bot. */
static participant bench_bot(config *c, const char *self)
{
    for (int i = 0; i < c->nparts; i++)
        if (c->parts[i].external)
            return c->parts[i];
    char cmd[4200], exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0)
        exe[n] = '\0';
    snprintf(cmd, sizeof cmd, "cmd:'%s' --trivial-bot", n > 0 ? exe : self);
    c->nparts = 0;
    add_participant(c, cmd);
    return c->parts[0];
}

/* --bench: the bot of bench_bot() against random, 2 players, over 20 games (or --games); the protocol's round
 * trip printed. */
static void bench(arena *a, const char *self)
{
    config *c = &a->cfg;
    participant bot = bench_bot(c, self), rnd;
    memset(&rnd, 0, sizeof rnd);
    snprintf(rnd.label, sizeof rnd.label, "random");
    snprintf(rnd.spec, sizeof rnd.spec, "random");
    c->parts[0] = bot;
    c->parts[1] = rnd;
    c->nparts = 2;
    c->players = 2;
    stpete_game_free(c->game);
    stpete_options o;
    stpete_options_init(&o);
    o.players = 2;
    if (stpete_game_new(&o, &c->game, NULL))
        die(1, "cannot create the game");
    make_seatings(c);
    make_definition(c);
    long games = c->games_given ? c->games : 20;
    c->games = games;
    c->quiet = 1;
    grow_results(a, games);
    worker w;
    worker_init(&w, a);
    double t0 = now_s();
    for (long g = 0; g < games; g++)
        play_game(&w, g);
    double el = now_s() - t0;
    proc *p = &w.procs[0][0];
    long forfeit = 0, decisions = p->rt_n;
    for (long g = 0; g < games; g++)
        forfeit += a->results[g].forfeit_seat >= 0;
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

/* An option that takes a value (argv[i + 1]); CLI_NOT_COMMON when it is known, else the exit status. */
static int arena_value_option(config *c, const char *a, const char *val, const char **list, int *gave_bot)
{
    if (!strcmp(a, "--games")) {
        c->games = parse_long(a, val, 1, 10000000);
        c->games_given = 1;
    } else if (!strcmp(a, "--bots")) {
        if (*list)
            die(2, "--bots given twice (use --bot SPEC to add one)");
        *list = val;
        add_list(c, val);
    } else if (!strcmp(a, "--bot")) {
        *gave_bot = 1;
        add_participant(c, val);
    } else if (!strcmp(a, "--jobs"))
        c->jobs = (int)parse_long(a, val, 1, 256);
    else if (!strcmp(a, "--seed")) {
        char *end;
        errno = 0;
        c->seed = strtoull(val, &end, 0);
        if (!*val || *end || errno || val[0] == '-')
            die(2, "--seed takes a number in [0, 2^64), not '%s'", val);
    } else if (!strcmp(a, "--time-ms"))
        c->time_ms = parse_long(a, val, 1, 3600000);
    else if (!strcmp(a, "--start-ms"))
        c->start_ms = parse_long(a, val, 1, 3600000);
    else if (!strcmp(a, "--out"))
        c->out_path = val;
    else if (!strcmp(a, "--json"))
        c->json_path = val;
    else if (!strcmp(a, "--record"))
        c->record_dir = val;
    else
        return cli_unknown(PROGRAM, a);
    return CLI_NOT_COMMON;
}

/* The options into c (defaults first). CLI_NOT_COMMON to go on, else the exit status (--help, --version,
 * --trivial-bot, a arena_usage error); dies (exit 2) on a bad value. */
static int parse_options(config *c, int argc, char **argv)
{
    const char *list = NULL;
    int gave_bot = 0;
    arena_defaults(c);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        int rc = cli_common(PROGRAM, a, arena_usage);
        if (rc != CLI_NOT_COMMON)
            return rc;
        if (!strcmp(a, "--trivial-bot"))
            return trivial_bot();
        rc = cli_option(PROGRAM, &c->options, argc, argv, &i); /* a game option (the library's table) */
        if (rc != CLI_NOT_COMMON) {
            if (rc != 0)
                return rc;
            continue;
        }
        int *flag = !strcmp(a, "--resume") ? &c->resume : !strcmp(a, "--bench") ? &c->bench
                  : !strcmp(a, "--quiet")  ? &c->quiet : NULL;
        if (flag) {
            *flag = 1;
            continue;
        }
        if (cli_check_value(PROGRAM, a, val, "--games --bots --bot --jobs --seed --time-ms --start-ms --out --json "
                                             "--record "))
            return CLI_USAGE_ERROR;
        i++;
        rc = arena_value_option(c, a, val, &list, &gave_bot);
        if (rc != CLI_NOT_COMMON)
            return rc;
    }
    if (!list && !gave_bot && !c->bench)
        add_list(c, "greedy,random");
    if (cli_options_check(PROGRAM, &c->options)) /* the library's setup rule (§3, §11, §12.0), in these flags */
        return CLI_USAGE_ERROR;
    c->players = c->options.opts.players;
    return CLI_NOT_COMMON;
}

/* --record DIR: created if needed, and a directory. */
static void make_record_dir(const config *c)
{
    struct stat sb;
    if (stat(c->record_dir, &sb) != 0 && mkdir(c->record_dir, 0777) != 0)
        die(2, "--record: cannot create %s: %s", c->record_dir, strerror(errno));
    if (stat(c->record_dir, &sb) != 0 || !S_ISDIR(sb.st_mode))
        die(2, "--record: %s is not a directory", c->record_dir);
}

/* --out FILE: locked for this run (flock, exclusive: a second run on the file is refused, exit 2, before it reads
 * or writes anything), read back with --resume (refused without it when the file has games), appended to, with
 * its header line (the library's, stpete_results_header_to_json()) if it is new. Returns the number of games it
 * held. */
static long open_results(arena *a)
{
    const config *c = &a->cfg;
    struct stat sb;
    long already = 0;
    int found = lstat(c->out_path, &sb) == 0;
    if (found && S_ISLNK(sb.st_mode)) /* said before anything else; open_file() refuses a link planted later */
        die(2, "cannot open %s: %s", c->out_path, open_why(ELOOP));
    a->out_fd = open_file(c->out_path, O_WRONLY | O_CREAT | O_APPEND);
    if (a->out_fd < 0)
        die(2, "cannot open %s: %s", c->out_path, open_why(errno));
    if (flock(a->out_fd, LOCK_EX | LOCK_NB) != 0)
        die(2, "%s is in use by another run (it holds the file's lock): one run at a time writes a results file "
               "(the file is unchanged)", c->out_path);
    int exists = fstat(a->out_fd, &sb) == 0 && sb.st_size > 0;
    if (exists && !c->resume)
        die(2, "%s exists: add --resume to continue its tournament, or remove it", c->out_path);
    if (exists)
        already = read_results(a, c->out_path);
    if (fstat(a->out_fd, &sb) != 0 || sb.st_size == 0) {
        size_t need = 0, len = 0;
        stpete_results_header_to_json(PROGRAM, c->definition, NULL, 0, &need);
        char *head = xmalloc(need + 2);
        if (stpete_results_header_to_json(PROGRAM, c->definition, head, need + 1, &len) != STPETE_OK)
            die(1, "cannot write the results file's header");
        head[len++] = '\n';
        append_line(a, head, len);
        free(head);
    }
    return already;
}

/* Everything before the games: the participants checked, --record and --out, the seatings (the games rounded up
 * to a multiple), the definition, the table of results and what is left to play. */
static void prepare(arena *a)
{
    config *c = &a->cfg;
    check_participants(c);
    become_subreaper();
    if (c->resume && !c->out_path)
        die(2, "--resume needs --out FILE (the results file of the tournament to continue)");
    probe_external(c, a->stop); /* a bot that cannot run stops the arena here: no game, no file written */
    if (c->record_dir)
        make_record_dir(c);
    make_seatings(c);
    if (c->nparts < c->players && !c->quiet) { /* some bot plays more than one seat of every game: say so first */
        char seating[2048];
        seating_sentence(c, seating, sizeof seating);
        fprintf(stderr, "%s: %s\n", PROGRAM, seating);
    }
    if (c->games % c->nseatings) {
        long g = (c->games / c->nseatings + 1) * c->nseatings;
        fprintf(stderr, "%s: %ld games rounded up to %ld, a multiple of the %d seatings\n", PROGRAM, c->games, g,
                c->nseatings);
        c->games = g;
    }
    make_definition(c);
    grow_results(a, c->games);
    long already = c->out_path ? open_results(a) : 0, present = 0;
    for (long g = 0; g < c->games; g++)
        present += a->results[g].done;
    a->games_todo = c->games - present;
    if (c->resume && !c->quiet)
        fprintf(stderr, "%s: %ld games in %s, %ld of %ld to play\n", PROGRAM, already, c->out_path, a->games_todo,
                c->games);
    a->tty = isatty(2);
}

/* The games, in --jobs threads, until every game is done or a stop is requested; then the adopted processes
 * killed. */
static void run_workers(arena *a)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = arena_on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    a->t_start = now_s();
    int J = a->cfg.jobs;
    worker *ws = xmalloc((size_t)J * sizeof *ws);
    for (int j = 0; j < J; j++)
        worker_init(&ws[j], a);
    for (int j = 0; j < J; j++)
        if (pthread_create(&ws[j].thread, NULL, worker_main, &ws[j]) != 0)
            die(1, "cannot start a thread");
    for (int j = 0; j < J; j++)
        pthread_join(ws[j].thread, NULL);
    for (int j = 0; j < J; j++)
        worker_free(&ws[j]);
    free(ws);
    kill_adopted();
    if (a->out_fd >= 0)
        close(a->out_fd);
}

static void free_arena(arena *a)
{
    config *c = &a->cfg;
    for (int i = 0; i < c->nparts; i++) {
        if (c->parts[i].argv) {
            for (char **p = c->parts[i].argv; *p; p++)
                free(*p);
            free(c->parts[i].argv);
        }
        free(c->parts[i].cmd);
    }
    free(c->seatings);
    free(a->results);
    free(c->definition);
    stpete_game_free(c->game);
    pthread_mutex_destroy(&a->mtx);
}

int main(int argc, char **argv)
{
    arena a;
    memset(&a, 0, sizeof a);
    a.stop = &stop_requested;
    a.out_fd = -1;
    pthread_mutex_init(&a.mtx, NULL);
    int rc = parse_options(&a.cfg, argc, argv);
    if (rc != CLI_NOT_COMMON)
        return rc;
    cloexec_inherited(); /* before any thread or bot: nothing the arena inherited reaches a bot */
    signal(SIGPIPE, SIG_IGN);
    json_object_seed(0); /* jansson's hash seed, set once before any thread uses jansson */
    stpete_error err = STPETE_ERROR_INIT;
    if (stpete_game_new(&a.cfg.options.opts, &a.cfg.game, &err) != STPETE_OK) /* checked in parse_options() */
        die(2, "cannot create a game of these options: %s", err.message);
    if (a.cfg.bench) {
        bench(&a, argv[0]);
        free_arena(&a);
        return 0;
    }
    prepare(&a);
    run_workers(&a);
    rc = 0;
    if (atomic_load(&stop_requested)) {
        fprintf(stderr, "\n%s: interrupted after %ld of %ld games%s%s\n", PROGRAM, a.games_done, a.games_todo,
                a.cfg.out_path ? "; continue with --resume --out " : "", a.cfg.out_path ? a.cfg.out_path : "");
        rc = 130;
    }
    summary(&a);
    free_arena(&a);
    return rc;
}
