/* stpete-play: the command-line options, --help, the game loop (the bots move, the person types) and main. */

#define _DEFAULT_SOURCE /* pselect, ioctl's TIOCGWINSZ, sigaction, strcasecmp */

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <stpete/stpete.h>

#include <stpete/bots.h>

#include "cli.h"
#include "play.h"

/* ---- options ---------------------------------------------------------------------------------------------- */

/* One command-line option of this program: a row of this table and a setter. The game's options are the library's
 * table's (cli_option(): --players, --edition, --new-society, ..., --option NAME=VALUE). */
typedef struct option_def {
    const char *name;
    const char *arg;  /* the value's name, or NULL for a flag */
    const char *help;
    int (*set)(play_config *cfg, const char *value, char *err, size_t size);
} option_def;

static int parse_int(const char *value, long lo, long hi, long *out)
{
    char *end = NULL;
    errno = 0;
    long v = strtol(value, &end, 10);
    if (errno || end == value || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

static int set_seat(play_config *cfg, const char *value, char *err, size_t size)
{
    long v;
    /* a seat of some game (0..4: five players with the New Society); of this game's, checked with its options */
    if (parse_int(value, 0, STPETE_MAX_PLAYERS - 1, &v))
        return snprintf(err, size, "--seat must be a seat number 0..%d, not '%s'", STPETE_MAX_PLAYERS - 1, value), -1;
    cfg->seat = (int)v;
    return 0;
}

static int set_bots(play_config *cfg, const char *value, char *err, size_t size)
{
    (void)err, (void)size; /* checked when the bots are created */
    cfg->bots = value;
    return 0;
}

static int set_seed(play_config *cfg, const char *value, char *err, size_t size)
{
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(value, &end, 10);
    if (errno || end == value || *end || value[0] == '-')
        return snprintf(err, size, "--seed must be a number 0..2^64-1, not '%s'", value), -1;
    cfg->seed = v;
    cfg->seed_given = 1;
    return 0;
}

static int set_load(play_config *cfg, const char *value, char *err, size_t size)
{
    (void)err, (void)size;
    cfg->load = value;
    return 0;
}

static int set_autosave(play_config *cfg, const char *value, char *err, size_t size)
{
    (void)err, (void)size;
    cfg->autosave = value;
    return 0;
}

static int set_plain(play_config *cfg, const char *value, char *err, size_t size)
{
    (void)value, (void)err, (void)size;
    cfg->plain = 1;
    return 0;
}

static int set_help(play_config *cfg, const char *value, char *err, size_t size)
{
    (void)value, (void)err, (void)size;
    cfg->help = 1;
    return 0;
}

static int set_version(play_config *cfg, const char *value, char *err, size_t size)
{
    (void)value, (void)err, (void)size;
    cfg->version = 1;
    return 0;
}

static const option_def options[] = {
    { "--seat", "S", "your seat, 0 to N-1 (default 0); seats play in clockwise order", set_seat },
    { "--bots", "LIST", "the other seats' bots, comma separated, repeated over the seats in order: the "
                        "library's random, greedy, mc, ismcts and learned, with parameters after colons, e.g. "
                        "ismcts:iterations=500 (default greedy)", set_bots },
    { "--seed", "S", "the game's seed: the same seed gives the same deal (default: from the clock, shown on "
                     "screen)", set_seed },
    { "--load", "FILE", "continue a saved game (JSON, from save or the autosave file); the game options come from "
                        "the file", set_load },
    { "--autosave", "FILE", "where quit, end of input and Ctrl-C save a game in progress (default "
                            "$XDG_STATE_HOME/stpete/autosave.json, else ~/.local/state/stpete/autosave.json)",
      set_autosave },
    { "--plain", NULL, "plain lines: no colours and no clearing of the screen (for pipes and screen readers; "
                       "automatic when standard output is not a terminal)", set_plain },
    { "--help", NULL, "show this help and exit", set_help },
    { "--version", NULL, "show the version and exit", set_version },
};
#define NUM_OPTIONS (sizeof options / sizeof *options)

/* A game option (the library's table) as --NAME=VALUE too, as this program's own: 0, CLI_NOT_COMMON or the
 * usage error's status. */
static int game_option(play_config *cfg, int argc, char **argv, int *i)
{
    const char *eq = strchr(argv[*i], '=');
    if (!eq || !strncmp(argv[*i], "--option=", 9))
        return cli_option(PROGRAM, &cfg->game, argc, argv, i);
    char flag[64];
    snprintf(flag, sizeof flag, "%.*s", (int)(eq - argv[*i]), argv[*i]);
    char *pair[2] = { flag, (char *)eq + 1 };
    int k = 0, rc = cli_option(PROGRAM, &cfg->game, 2, pair, &k);
    if (rc == 0 && k == 0) { /* a flag that takes no value */
        fprintf(stderr, PROGRAM ": %s takes no value\n", flag);
        return 2;
    }
    return rc;
}

/* Parse argv into cfg; 0 = go on, otherwise the exit status (2 = play_usage error). */
static int play_parse_args(int argc, char **argv, play_config *cfg)
{
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        int rc = game_option(cfg, argc, argv, &i);
        if (rc != CLI_NOT_COMMON) {
            if (rc != 0)
                return rc;
            continue;
        }
        const char *eq = strchr(arg, '=');
        size_t name_len = eq ? (size_t)(eq - arg) : strlen(arg);
        const option_def *opt = NULL;
        for (size_t k = 0; k < NUM_OPTIONS; k++)
            if (strlen(options[k].name) == name_len && !strncmp(options[k].name, arg, name_len))
                opt = &options[k];
        for (size_t k = 0; !opt && !strcmp(arg, "-h") && k < NUM_OPTIONS; k++)
            if (!strcmp(options[k].name, "--help"))
                opt = &options[k];
        if (!opt) {
            return cli_unknown(PROGRAM, arg);
        }
        const char *value = NULL;
        if (opt->arg) {
            if (eq)
                value = eq + 1;
            else if (i + 1 < argc)
                value = argv[++i];
            else
                return cli_needs_value(PROGRAM, opt->name);
        } else if (eq) {
            fprintf(stderr, PROGRAM ": %s takes no value\n", opt->name);
            return 2;
        }
        char err[256] = "";
        if (opt->set(cfg, value, err, sizeof err) != 0) {
            fprintf(stderr, PROGRAM ": %s\n", err);
            return 2;
        }
    }
    if (cfg->load && (cfg->game.given || cfg->seed_given)) {
        fprintf(stderr, PROGRAM ": --load takes the seed and the game options from the file: do not give --seed or "
                        "a game option (--players, --edition, ...) with it\n");
        return 2;
    }
    if (!cfg->load && cli_options_check(PROGRAM, &cfg->game)) /* the library's setup rule: 5 players, §12.0 */
        return 2;
    if (!cfg->load && cfg->seat >= cfg->game.opts.players) {
        fprintf(stderr, PROGRAM ": --seat %d is not a seat of a %d-player game (0..%d)\n", cfg->seat,
                cfg->game.opts.players, cfg->game.opts.players - 1);
        return 2;
    }
    return 0;
}

/* This program's defaults: 3 players, seat 0, the library's other defaults. */
static void play_defaults(play_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cli_options_init(&cfg->game);
    cfg->game.opts.players = 3;
}

/* A line of --help: an option or command and its description from column 24 on, wrapped to 80 columns. */
static void help_line(FILE *out, const char *name, const char *arg, const char *help)
{
    char head[64];
    snprintf(head, sizeof head, "%s%s%s", name, arg && arg[0] ? " " : "", arg ? arg : "");
    if (strlen(head) > 20)
        fprintf(out, "  %s\n%24s", head, "");
    else
        fprintf(out, "  %-22s", head);
    cli_wrap(out, help, 24, 24);
}

static void play_usage(FILE *out)
{
    fprintf(out, "Usage: " PROGRAM " [OPTION]...\n"
                 "Play Saint Petersburg (first edition, the second-edition preset or the New\n"
                 "Society) against bots in a terminal.\n\n"
                 "Options:\n");
    for (size_t i = 0; i < NUM_OPTIONS; i++)
        help_line(out, options[i].name, options[i].arg, options[i].help);
    fputc('\n', out);
    play_config defaults;
    play_defaults(&defaults);
    cli_options_usage(out, &defaults.game, NULL, NULL);
    fputc('\n', out);
    cli_wrap(out, "Bots: " BOT_KINDS ".", 0, 0);
    fprintf(out, "\n"
                 "On your turn, type the number of a legal action, an action (a unique prefix is\n"
                 "enough: \"buy mark\" for \"buy Market from upper\" when it is the only Market you\n"
                 "can buy), or a command:\n");
    for (size_t i = 0; i < num_commands; i++)
        help_line(out, commands[i].name, commands[i].arg, commands[i].help);
    fprintf(out, "\nQuit, end of input (Ctrl-D) and Ctrl-C save a game in progress to the autosave\n"
                 "file and say how to continue it. NO_COLOR in the environment turns colours off.\n\n"
                 "Example:\n  " PROGRAM " --players 3 --seat 0 --bots greedy --seed 7\n");
}

static int run(session *s, const sigset_t *wait_mask)
{
    input in;
    memset(&in, 0, sizeof in);
    in.wait_mask = *wait_mask;
    size_t consumed = 0;
    const char *line = NULL;
    int status = 0;
    s->redraw = 1;
    for (;;) {
        check_pending();
        if (caught_signal) {
            save_on_exit(s, signal_reason(caught_signal));
            status = 128 + caught_signal;
            break;
        }
        if (stpete_state_is_terminal_or(s->st, 1)) {
            draw_screen(s);
            wait_for_key(s, wait_mask);
            break;
        }
        int seat = stpete_state_current_player(s->st);
        if (seat != s->seat) {
            int id = -1;
            int rc = stpete_bot_choose(s->bots[seat], s->st, &id);
            if (rc == STPETE_OK)
                rc = stpete_state_apply(s->st, id);
            if (rc != STPETE_OK) {
                say(s, "The bot of seat %d failed: %s (%s)", seat, stpete_strerror(rc), stpete_state_last_error(s->st));
                save_on_exit(s, "Stopped");
                status = 1;
                break;
            }
            continue;
        }
        if (s->redraw) {
            draw_screen(s);
            s->redraw = 0;
        }
        int got = read_line(s, &in, &consumed, &line);
        if (got < 0)
            continue; /* the signal is handled at the top */
        if (got == 0) {
            save_on_exit(s, "End of input");
            break;
        }
        if (handle_line(s, line))
            break;
    }
    free(in.buf);
    return status;
}

int main(int argc, char **argv)
{
    session s;
    memset(&s, 0, sizeof s);
    play_defaults(&s.cfg);
    int rc = play_parse_args(argc, argv, &s.cfg);
    if (rc)
        return rc;
    if (s.cfg.help || s.cfg.version)
        return cli_common(PROGRAM, s.cfg.help ? "--help" : "--version", play_usage);
    s.seat = s.cfg.seat;
    s.seed = s.cfg.seed_given ? s.cfg.seed : (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
    ui_init(&s.ui, &s.cfg);
    autosave_path(&s);

    /* Ctrl-C, SIGTERM and SIGHUP: blocked, except while waiting for input (input_line()), where they interrupt
     * the wait; the game in progress is then saved (run()). */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigset_t ours, wait_mask;
    sigemptyset(&ours);
    sigaddset(&ours, SIGINT);
    sigaddset(&ours, SIGTERM);
    sigaddset(&ours, SIGHUP);
    sigprocmask(SIG_BLOCK, &ours, &wait_mask);
    sigdelset(&wait_mask, SIGINT);
    sigdelset(&wait_mask, SIGTERM);
    sigdelset(&wait_mask, SIGHUP);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);

    char why[1024] = "";
    if (start_game(&s, why, sizeof why) != 0) {
        fprintf(stderr, PROGRAM ": %s\n", why);
        rc = 1;
    } else {
        rc = run(&s, &wait_mask);
    }
    free_bots(s.bots, s.hint_bot);
    stpete_state_free(s.st);
    stpete_game_free(s.game);
    log_clear(&s);
    free(s.log);
    free(s.moves);
    return rc;
}
