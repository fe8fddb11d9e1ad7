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

/* One command-line option: a row of this table and a setter. A new option (e.g. --edition) is one row. */
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

static int set_players(play_config *cfg, const char *value, char *err, size_t size)
{
    long v;
    if (parse_int(value, STPETE_MIN_PLAYERS, 5, &v)) /* 5: with --new-society only, the library's check (§12.0) */
        return snprintf(err, size, "--players must be 2, 3, 4 or 5 (5 with --new-society), not '%s'", value), -1;
    cfg->players = (int)v;
    return 0;
}

static int set_seat(play_config *cfg, const char *value, char *err, size_t size)
{
    long v;
    if (parse_int(value, 0, 3, &v))
        return snprintf(err, size, "--seat must be a seat number 0..3, not '%s'", value), -1;
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

static int set_public_rubles(play_config *cfg, const char *value, char *err, size_t size)
{
    (void)value, (void)err, (void)size;
    cfg->public_rubles = 1;
    return 0;
}

static int set_public_hands(play_config *cfg, const char *value, char *err, size_t size)
{
    (void)value, (void)err, (void)size;
    cfg->public_hands = 1;
    return 0;
}

/* The New Society (§12) and its options: flags the library checks when the game is made (start_game()). */
#define FLAG_SETTER(fn, field)                                                                                  \
    static int fn(play_config *cfg, const char *value, char *err, size_t size)                                  \
    {                                                                                                           \
        (void)value, (void)err, (void)size;                                                                     \
        cfg->field = 1;                                                                                         \
        return 0;                                                                                               \
    }
FLAG_SETTER(set_new_society, new_society)
FLAG_SETTER(set_markers_one_seat, markers_one_seat)
FLAG_SETTER(set_used_prison_scores, used_prison_scores)
FLAG_SETTER(set_textile, textile_without_new_society)

static int set_edition(play_config *cfg, const char *value, char *err, size_t size)
{
    long v;
    if (parse_int(value, 1, 2, &v))
        return snprintf(err, size, "--edition must be 1 (2004) or 2 (the 2014 preset), not '%s'", value), -1;
    cfg->edition = (int)v;
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
    { "--players", "N", "number of players, 2, 3 or 4, or 5 with --new-society (default 3)", set_players },
    { "--seat", "S", "your seat, 0 to N-1 (default 0); seats play in clockwise order", set_seat },
    { "--bots", "LIST", "the other seats' bots, comma separated, repeated over the seats in order: the "
                        "library's random, greedy, mc and ismcts, with parameters after colons, e.g. "
                        "ismcts:iterations=500 (default greedy)", set_bots },
    { "--seed", "S", "the game's seed: the same seed gives the same deal (default: from the clock, shown on "
                     "screen)", set_seed },
    { "--load", "FILE", "continue a saved game (JSON, from save or the autosave file); the rule options come from "
                        "the file", set_load },
    { "--autosave", "FILE", "where quit, end of input and Ctrl-C save a game in progress (default "
                            "$XDG_STATE_HOME/stpete/autosave.json, else ~/.local/state/stpete/autosave.json)",
      set_autosave },
    { "--plain", NULL, "plain lines: no colours and no clearing of the screen (for pipes and screen readers; "
                       "automatic when standard output is not a terminal)", set_plain },
    { "--public-rubles", NULL, "rule option: everyone's rubles are public (rules, section 9)", set_public_rubles },
    { "--public-hands", NULL, "rule option: everyone's hand cards are public (rules, section 9)", set_public_hands },
    { "--edition", "E", "1 = the first edition (default), 2 = the second-edition preset of 2014 (rules, section 11)",
      set_edition },
    { "--new-society", NULL, "play the New Society expansion, 2 to 5 players (rules, section 12; first edition)",
      set_new_society },
    { "--markers-one-seat", NULL, "New Society option: with 5 players the markers move one seat a round, not two "
                                  "(rules, section 12.4.1, R19)", set_markers_one_seat },
    { "--used-prison-scores", NULL, "New Society option: a used Debtor's Prison still scores its VP (rules, "
                                    "section 12.7.5, R22)", set_used_prison_scores },
    { "--textile-without-new-society", NULL, "New Society option: the Textile Factory does not count the New "
                                             "Society (rules, section 12.7.8, R29)", set_textile },
    { "--help", NULL, "show this help and exit", set_help },
    { "--version", NULL, "show the version and exit", set_version },
};
#define NUM_OPTIONS (sizeof options / sizeof *options)

/* Parse argv into cfg; 0 = go on, otherwise the exit status (2 = play_usage error). */
static int play_parse_args(int argc, char **argv, play_config *cfg)
{
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
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
    if (cfg->load && (cfg->players || cfg->seed_given || cfg->public_rubles || cfg->public_hands || cfg->edition ||
                      cfg->new_society || cfg->markers_one_seat || cfg->used_prison_scores ||
                      cfg->textile_without_new_society)) {
        fprintf(stderr, PROGRAM ": --load takes the players, seed and rule options from the file: do not give "
                        "--players, --seed, --public-rubles, --public-hands, --edition or the New Society's "
                        "options with it\n");
        return 2;
    }
    if (!cfg->players)
        cfg->players = 3;
    stpete_options opts;
    stpete_error err = STPETE_ERROR_INIT;
    play_options(cfg, &opts);
    if (!cfg->load && stpete_options_check(&opts, &err) != STPETE_OK) { /* the library's check: 5 players, §12.0 */
        fprintf(stderr, PROGRAM ": %s\n", err.message);
        return 2;
    }
    if (!cfg->load && cfg->seat >= cfg->players) {
        fprintf(stderr, PROGRAM ": --seat %d is not a seat of a %d-player game (0..%d)\n", cfg->seat, cfg->players,
                cfg->players - 1);
        return 2;
    }
    return 0;
}

static void play_usage(FILE *out)
{
    fprintf(out, "Usage: " PROGRAM " [OPTION]...\n"
                 "Play Saint Petersburg (first edition, or the second with --edition 2) against bots in a "
                 "terminal.\n\n"
                 "Options:\n");
    for (size_t i = 0; i < NUM_OPTIONS; i++) {
        char head[64];
        snprintf(head, sizeof head, "%s%s%s", options[i].name, options[i].arg ? " " : "",
                 options[i].arg ? options[i].arg : "");
        fprintf(out, "  %-20s", head);
        /* the description wrapped at 79 columns, continued under itself */
        int col = 23;
        for (const char *w = options[i].help; *w;) {
            int len = (int)strcspn(w, " ");
            if (col > 23 && col + 1 + len > 79) {
                fprintf(out, "\n%22s", "");
                col = 23;
            }
            fprintf(out, " %.*s", len, w);
            col += 1 + len;
            w += len;
            w += strspn(w, " ");
        }
        fputc('\n', out);
    }
    fprintf(out, "\nBots: %s.\n\n"
                 "On your turn, type the number of a legal action, an action (a unique prefix is enough: \"buy "
                 "mark\" for\n\"buy Market from upper\" when it is the only Market you can buy), or a command:\n",
            BOT_KINDS);
    for (size_t i = 0; i < num_commands; i++) {
        char head[64];
        snprintf(head, sizeof head, "%s%s%s", commands[i].name, commands[i].arg[0] ? " " : "", commands[i].arg);
        fprintf(out, "  %-20s %s\n", head, commands[i].help);
    }
    fprintf(out, "\nQuit, end of input (Ctrl-D) and Ctrl-C save a game in progress to the autosave file and say "
                 "how to\ncontinue it. NO_COLOR in the environment turns colours off.\n\n"
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
