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

const char *prog = "stpete-arena";

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
    cloexec_inherited(); /* before any thread or bot: nothing the arena inherited reaches a bot */
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
        int found = lstat(cfg.out_path, &sb) == 0;
        if (found && S_ISLNK(sb.st_mode)) /* said before anything else; open_file() refuses a link planted later */
            die(2, "cannot open %s: %s", cfg.out_path, open_why(ELOOP));
        int exists = found && sb.st_size > 0;
        if (exists && !cfg.resume)
            die(2, "%s exists: add --resume to continue its tournament, or remove it", cfg.out_path);
        if (exists)
            already = read_results(cfg.out_path);
        out_fd = open_file(cfg.out_path, O_WRONLY | O_CREAT | O_APPEND);
        if (out_fd < 0)
            die(2, "cannot open %s: %s", cfg.out_path, open_why(errno));
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
