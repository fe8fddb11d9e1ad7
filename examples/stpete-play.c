/* stpete-play: a person plays Saint Petersburg against bots in a terminal.
 *
 *   stpete-play [--players N] [--seat S] [--bots LIST] [--seed S] [--load FILE] [--plain] [--help]
 *
 * Each time it is the person's turn, the screen shows the board (both rows, with the price this player would pay
 * for each card and what a trading card could displace), every display grouped by colour, hands (the backs of the
 * others' cards, §9), rubles (the others' only with the public_rubles option), VP, stack sizes, phase, round,
 * start-player markers, the Observatory card, whose turn it is, the log of what happened since the person's last
 * move (stpete_event_to_string(), the library's words), and the legal actions, numbered, with their prices. The
 * person types a number, an action (a unique prefix is enough, e.g. "buy mark"), or a command (help, hint, board,
 * log, save, load, quit). The bots move at once.
 *
 * Output is plain ANSI, not ncurses: the game is turn-based with line input, so the terminal's own line editing,
 * scrollback and copy/paste are kept, and the same text serves the colour screen, --plain (and pipes: plain is
 * automatic when standard output is not a terminal) and screen readers; the only escape sequences are colours
 * (SGR) and clear-screen. NO_COLOR turns colours off (https://no-color.org/), TERM=dumb implies --plain.
 *
 * Nothing is lost on the way out: quit, end of input (EOF), Ctrl-C (SIGINT), SIGTERM and SIGHUP save a game in
 * progress (autosave file, --autosave) and print how to continue it with --load. */
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

#define PROGRAM "stpete-play"
#define MIN_WIDTH 80
#define MIN_HEIGHT 24
#define PROMPT "move> "
/* The library's bots (include/stpete/bots.h): a spec is KIND[:KEY=VALUE]... */
#define BOT_KINDS "random, greedy, mc, ismcts; parameters after colons, e.g. ismcts:iterations=500"

/* ---- options ---------------------------------------------------------------------------------------------- */

typedef struct play_config {
    int players;        /* 0 = not given (default 3) */
    int seat;
    const char *bots;   /* comma-separated opponent specs, repeated over the other seats */
    uint64_t seed;
    int seed_given;
    const char *load;
    const char *autosave;
    int plain;
    int public_rubles;
    int public_hands;
    int edition;        /* 0 = not given (default 1) */
    int help, version;
} play_config;

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
    if (parse_int(value, STPETE_MIN_PLAYERS, STPETE_MAX_PLAYERS, &v))
        return snprintf(err, size, "--players must be 2, 3 or 4, not '%s'", value), -1;
    cfg->players = (int)v;
    return 0;
}

static int set_seat(play_config *cfg, const char *value, char *err, size_t size)
{
    long v;
    if (parse_int(value, 0, STPETE_MAX_PLAYERS - 1, &v))
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
    { "--players", "N", "number of players, 2, 3 or 4 (default 3)", set_players },
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
    { "--help", NULL, "show this help and exit", set_help },
    { "--version", NULL, "show the version and exit", set_version },
};
#define NUM_OPTIONS (sizeof options / sizeof *options)

/* Parse argv into cfg; 0 = go on, otherwise the exit status (2 = usage error). */
static int parse_args(int argc, char **argv, play_config *cfg)
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
    if (cfg->load && (cfg->players || cfg->seed_given || cfg->public_rubles || cfg->public_hands || cfg->edition)) {
        fprintf(stderr, PROGRAM ": --load takes the players, seed and rule options from the file: do not give "
                        "--players, --seed, --public-rubles, --public-hands or --edition with it\n");
        return 2;
    }
    if (!cfg->players)
        cfg->players = 3;
    if (!cfg->load && cfg->seat >= cfg->players) {
        fprintf(stderr, PROGRAM ": --seat %d is not a seat of a %d-player game (0..%d)\n", cfg->seat, cfg->players,
                cfg->players - 1);
        return 2;
    }
    return 0;
}

/* ---- the terminal ----------------------------------------------------------------------------------------- */

typedef struct ui {
    FILE *out;
    int screen;     /* clear the screen before each board (a terminal, not --plain) */
    int colour;     /* colours (a terminal, not --plain, no NO_COLOR) */
    int colour256;
    int echo;       /* standard input is not a terminal: echo what is read after the prompt */
    int compact;    /* the board drawn short, to fit the terminal (chosen by draw_screen() from its size) */
    size_t log_note; /* compact, and no log line fits: how many there are, said after the actions */
    size_t actions_shown; /* compact, and still too long: the first legal actions shown ('board' lists all); 0: all */
    int width, height;
} ui;

static void ui_init(ui *u, const play_config *cfg)
{
    const char *term = getenv("TERM");
    const char *no_colour = getenv("NO_COLOR");
    const char *colorterm = getenv("COLORTERM");
    u->out = stdout;
    u->screen = !cfg->plain && isatty(STDOUT_FILENO) && !(term && !strcmp(term, "dumb"));
    u->colour = u->screen && !(no_colour && no_colour[0]);
    u->colour256 = u->colour && ((term && strstr(term, "256")) || (colorterm && colorterm[0]));
    u->echo = !isatty(STDIN_FILENO);
    u->width = MIN_WIDTH;
    u->height = MIN_HEIGHT;
}

/* The terminal's size now (it may have been resized since the last board). */
static void ui_measure(ui *u)
{
    struct winsize ws;
    u->width = MIN_WIDTH;
    u->height = MIN_HEIGHT;
    if (!u->screen)
        return;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 && ws.ws_row > 0) {
        u->width = ws.ws_col;
        u->height = ws.ws_row;
    }
}

/* SGR sequences; "" when colours are off. */
static const char *sgr_colour(const ui *u, int colour)
{
    static const char *const c16[3] = { "\033[32m", "\033[94m", "\033[33m" };
    static const char *const c256[3] = { "\033[38;5;34m", "\033[38;5;33m", "\033[38;5;208m" };
    if (!u->colour || colour < 0 || colour > 2)
        return "";
    return u->colour256 ? c256[colour] : c16[colour];
}
static const char *sgr_bold(const ui *u) { return u->colour ? "\033[1m" : ""; }
static const char *sgr_dim(const ui *u) { return u->colour ? "\033[2m" : ""; }
static const char *sgr_reset(const ui *u) { return u->colour ? "\033[0m" : ""; }

/* A growing text with word wrapping at the terminal's width; escape sequences take no columns. */
typedef struct text {
    char *buf;
    size_t len, cap;
    int col, width, indent, lines;
    int slack; /* columns past width that a wrapped line's trailing mark (",") may take */
    int failed;
} text;

static void tx_bytes(text *t, const char *s, size_t n)
{
    if (t->failed)
        return;
    if (t->len + n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 4096;
        while (t->len + n + 1 > cap)
            cap *= 2;
        char *b = realloc(t->buf, cap);
        if (!b) {
            t->failed = 1;
            return;
        }
        t->buf = b;
        t->cap = cap;
    }
    memcpy(t->buf + t->len, s, n);
    t->len += n;
    t->buf[t->len] = '\0';
}

/* Columns a string takes: escape sequences none, each UTF-8 character one. */
static int visible_width(const char *s)
{
    int w = 0;
    while (*s) {
        if (*s == '\033') {
            while (*s && *s != 'm')
                s++;
            if (*s)
                s++;
            continue;
        }
        if (((unsigned char)*s & 0xC0) != 0x80)
            w++;
        s++;
    }
    return w;
}

static void tx_newline(text *t)
{
    tx_bytes(t, "\n", 1);
    t->col = 0;
    t->lines++;
}

/* Append a piece that must not be split: on a new line (indented) if it does not fit after sep. */
static void tx_piece(text *t, const char *sep, const char *piece)
{
    int w = visible_width(piece), sw = visible_width(sep);
    if (t->col > t->indent && t->col + sw + w > t->width) {
        /* A wrapped line keeps the separator's mark, not its blanks: a bar starts the next line ("| Market"), a
         * comma ends this one when it fits the width (or the line is already wider, with a piece wider than it). */
        size_t from = strspn(sep, " "), keep = strlen(sep);
        while (keep && sep[keep - 1] == ' ')
            keep--;
        int bar = keep > from && memchr(sep + from, '|', keep - from) != NULL;
        if (!bar && keep && (t->col + (int)keep <= t->width + t->slack || t->col > t->width))
            tx_bytes(t, sep, keep);
        tx_newline(t);
        for (int i = 0; i < t->indent; i++)
            tx_bytes(t, " ", 1);
        t->col = t->indent;
        if (bar) {
            tx_bytes(t, sep + from, keep - from);
            tx_bytes(t, " ", 1);
            t->col += (int)(keep - from) + 1;
        }
    } else {
        tx_bytes(t, sep, strlen(sep));
        t->col += sw;
    }
    tx_bytes(t, piece, strlen(piece));
    t->col += w;
}

static void tx_printf(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Append formatted text as one piece, or several lines if it holds newlines. */
static void tx_printf(text *t, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    char *line = buf;
    for (;;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        if (*line)
            tx_piece(t, "", line);
        if (!nl)
            break;
        tx_newline(t);
        line = nl + 1;
    }
}

/* Append words, wrapped between them. */
static void tx_words(text *t, const char *words)
{
    char word[256];
    int first = 1;
    while (*words) {
        size_t n = strcspn(words, " ");
        if (n) {
            snprintf(word, sizeof word, "%.*s", (int)(n < sizeof word ? n : sizeof word - 1), words);
            tx_piece(t, first ? "" : " ", word);
            first = 0;
        }
        words += n;
        words += strspn(words, " ");
    }
}

static void tx_sentence(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Append formatted text wrapped between its words (blanks collapse). */
static void tx_sentence(text *t, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    tx_words(t, buf);
}

/* Start a line with an indentation that wrapped pieces keep. */
static void tx_line(text *t, int indent)
{
    if (t->col > 0)
        tx_newline(t);
    for (int i = 0; i < indent; i++)
        tx_bytes(t, " ", 1);
    t->col = indent;
    t->indent = indent;
}

static void tx_free(text *t)
{
    free(t->buf);
    memset(t, 0, sizeof *t);
}

/* ---- the session ------------------------------------------------------------------------------------------ */

typedef struct session session;

/* The prompt's commands: a row each. */
typedef struct command_def {
    const char *name;
    const char *arg;
    const char *help;
    int (*run)(session *s, const char *arg); /* returns 1 to leave the program */
} command_def;

static int cmd_help(session *s, const char *arg);
static int cmd_hint(session *s, const char *arg);
static int cmd_board(session *s, const char *arg);
static int cmd_log(session *s, const char *arg);
static int cmd_save(session *s, const char *arg);
static int cmd_load(session *s, const char *arg);
static int cmd_quit(session *s, const char *arg);
static int cmd_undo(session *s, const char *arg);
static int cmd_card(session *s, const char *arg);

static const command_def commands[] = {
    { "help", "", "this help", cmd_help },
    { "card", "[NAME|N]", "what a card does and costs you; alone: the cards in play, numbered", cmd_card },
    { "hint", "", "what the greedy bot would play in your place", cmd_hint },
    { "board", "", "draw the board again (all of it, scrolling, when the terminal is too small)", cmd_board },
    { "log", "", "the log of the whole game", cmd_log },
    { "save", "[FILE]", "save the game as JSON (default: the autosave file)", cmd_save },
    { "load", "FILE", "load a saved game (your seat and bots stay)", cmd_load },
    { "undo", "", "take back your last move (and the bots' moves after it)", cmd_undo },
    { "quit", "", "save the game to the autosave file and leave", cmd_quit },
};
#define NUM_COMMANDS (sizeof commands / sizeof *commands)

static void usage(FILE *out)
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
    for (size_t i = 0; i < NUM_COMMANDS; i++) {
        char head[64];
        snprintf(head, sizeof head, "%s%s%s", commands[i].name, commands[i].arg[0] ? " " : "", commands[i].arg);
        fprintf(out, "  %-20s %s\n", head, commands[i].help);
    }
    fprintf(out, "\nQuit, end of input (Ctrl-D) and Ctrl-C save a game in progress to the autosave file and say "
                 "how to\ncontinue it. NO_COLOR in the environment turns colours off.\n\n"
                 "Example:\n  " PROGRAM " --players 3 --seat 0 --bots greedy --seed 7\n");
}

struct session {
    play_config cfg;
    ui ui;
    stpete_game *game;
    stpete_state *st;
    stpete_bot *bots[STPETE_MAX_PLAYERS];
    char bot_names[STPETE_MAX_PLAYERS][STPETE_BOT_SPEC_MAX];
    stpete_bot *hint_bot;
    int seat;              /* the person's seat */
    int players;
    uint64_t seed;         /* the seed the game started from; shown, not needed to continue */
    int loaded;            /* the game came from a file */
    char **log;            /* every log line of this game */
    size_t log_n, log_cap;
    size_t log_mark;       /* the first line the person has not seen on a board yet */
    int dealing;           /* the last log line is a deal line still collecting cards */
    char autosave[4096];
    int redraw;            /* draw the board before the next prompt */
    int full_board;        /* 'board': the full layout once, as lines that scroll (not cleared, not compact) */
    size_t *moves;         /* the length of the state's history before each of the person's moves (for undo) */
    size_t moves_n, moves_cap;
};

static volatile sig_atomic_t caught_signal;

static void on_signal(int sig)
{
    caught_signal = sig;
}

static int log_append(session *s, const char *line)
{
    if (s->log_n == s->log_cap) {
        size_t cap = s->log_cap ? 2 * s->log_cap : 256;
        char **l = realloc(s->log, cap * sizeof *l);
        if (!l)
            return -1;
        s->log = l;
        s->log_cap = cap;
    }
    char *copy = strdup(line);
    if (!copy)
        return -1;
    s->log[s->log_n++] = copy;
    return 0;
}

static void log_clear(session *s)
{
    for (size_t i = 0; i < s->log_n; i++)
        free(s->log[i]);
    s->log_n = s->log_mark = 0;
    s->dealing = 0;
}

/* "seat 1" for others, "seat 0 (you)" for the person. */
static const char *seat_label(const session *s, int seat, char *buf, size_t size)
{
    snprintf(buf, size, seat == s->seat ? "seat %d (you)" : "seat %d", seat);
    return buf;
}

/* The event callback: one log line per event, in the library's words (stpete_event_to_string()). The deals of
 * one step are gathered on one line; a displacement is already part of its buy or play line. Another seat's
 * rubles are left out unless they are public (§9): the line is then made without the state. */
static void on_event(const stpete_state *st, const stpete_event *ev, void *user)
{
    session *s = user;
    char line[STPETE_EVENT_STRING_MAX + 64];
    if (ev->kind == STPETE_EVENT_DISPLACE)
        return;
    if (ev->kind == STPETE_EVENT_DEAL) {
        const char *name = cli_card_name(s->game, ev->card);
        if (s->dealing && s->log_n > 0) {
            char *prev = s->log[s->log_n - 1];
            size_t n = strlen(prev) + strlen(name) + 3;
            char *grown = realloc(prev, n);
            if (grown) {
                strcat(grown, ", ");
                strcat(grown, name);
                s->log[s->log_n - 1] = grown;
            }
            return;
        }
        snprintf(line, sizeof line, "dealt from the %s stack to the upper row: %s", stpete_stack_name(ev->stack),
                 name);
        s->dealing = log_append(s, line) == 0;
        return;
    }
    s->dealing = 0;
    int secret = ev->seat >= 0 && ev->seat != s->seat && !s->cfg.public_rubles &&
                 ev->kind != STPETE_EVENT_FINAL_SCORING;
    if (stpete_event_to_string(ev, secret ? NULL : st, line, sizeof line) != STPETE_OK)
        snprintf(line, sizeof line, "(event %s)", stpete_event_kind_name(ev->kind));
    log_append(s, line); /* the game-over line names the winners itself */
}

/* Create the opponents of the seats other than the person's, and the hint bot. */
static int make_bots(session *s, const stpete_game *game, stpete_bot **bots, char names[][STPETE_BOT_SPEC_MAX],
                     stpete_bot **hint, char *msg, size_t size)
{
    const char *list = s->cfg.bots ? s->cfg.bots : "greedy";
    char specs[STPETE_MAX_PLAYERS][STPETE_BOT_SPEC_MAX];
    int n = 0;
    for (const char *p = list; n < STPETE_MAX_PLAYERS;) {
        size_t len = strcspn(p, ",");
        if (len == 0 || len >= sizeof specs[0]) {
            snprintf(msg, size, "--bots takes a comma-separated list of bots (%s), not '%s'", BOT_KINDS, list);
            return -1;
        }
        memcpy(specs[n], p, len);
        specs[n++][len] = '\0';
        p += len;
        if (!*p)
            break;
        p++;
    }
    int players = stpete_game_num_players(game);
    int k = 0;
    for (int seat = 0; seat < players; seat++) {
        if (seat == s->seat)
            continue;
        const char *spec = specs[k++ % n];
        stpete_error why = STPETE_ERROR_INIT;
        if (stpete_bot_new(game, spec, &bots[seat], &why) != STPETE_OK) {
            snprintf(msg, size, "--bots: %s", why.message[0] ? why.message : "cannot create the bot");
            return -1;
        }
        stpete_bot_set_seed(bots[seat], s->seed * 4 + (uint64_t)seat);
        snprintf(names[seat], sizeof names[seat], "%s", spec);
    }
    stpete_error why = STPETE_ERROR_INIT;
    if (stpete_bot_new(game, "greedy", hint, &why) != STPETE_OK) {
        snprintf(msg, size, "cannot create the hint bot: %s", why.message);
        return -1;
    }
    return 0;
}

static void free_bots(stpete_bot **bots, stpete_bot *hint)
{
    for (int seat = 0; seat < STPETE_MAX_PLAYERS; seat++) {
        stpete_bot_free(bots[seat]);
        bots[seat] = NULL;
    }
    stpete_bot_free(hint);
}

/* ---- drawing ---------------------------------------------------------------------------------------------- */

/* A card's name in its colour (workers green, buildings blue, aristocrats orange; trading cards their colour). */
static const char *card_text(const ui *u, const stpete_game *game, int card, char *buf, size_t size)
{
    stpete_card_info info = STPETE_CARD_INFO_INIT;
    stpete_card_get_info(stpete_game_edition(game), card, &info); /* the name of the game's edition (§11) */
    snprintf(buf, size, "%s%s%s", sgr_colour(u, info.colour), info.name, u->colour ? sgr_reset(u) : "");
    return buf;
}

static int card_stack(int card)
{
    return cli_card_stack(card);
}

/* One board card as the person sees it: its price for the person (§5), and for a trading card each card of the
 * person's display it could displace with that price (§5.2, §6.2). */
static void draw_board_card(text *t, const session *s, int card, int row, const char *sep)
{
    char name[128], piece[512];
    stpete_card_info info = STPETE_CARD_INFO_INIT;
    stpete_card_get_info(stpete_game_edition(s->game), card, &info);
    card_text(&s->ui, s->game, card, name, sizeof name);
    if (!info.trading) {
        int price = 0;
        stpete_state_price(s->st, s->seat, card, row, -1, &price);
        snprintf(piece, sizeof piece, "%s %d R", name, price);
        tx_piece(t, sep, piece);
        return;
    }
    /* what it could displace, with the price, is the library's answer (§6.1: not a face-down Observatory) */
    stpete_displacement d[STPETE_NUM_CARD_TYPES];
    size_t targets = 0;
    stpete_state_displacements(s->st, s->seat, card, row, d, STPETE_NUM_CARD_TYPES, &targets);
    int len = snprintf(piece, sizeof piece, "%s (trading)", name);
    if (s->ui.compact && targets) { /* the cheapest; 'card NAME' shows each */
        int low = d[0].price;
        for (size_t i = 1; i < targets; i++)
            low = d[i].price < low ? d[i].price : low;
        snprintf(piece, sizeof piece, "%s %s%d R", name, targets > 1 ? "from " : "", low);
    }
    if (!targets)
        snprintf(s->ui.compact ? piece + strlen(name) : piece + len, sizeof piece - (size_t)len, " %s%s%s",
                 sgr_dim(&s->ui), s->ui.compact ? "(nothing to displace)" : "nothing of yours to displace",
                 sgr_reset(&s->ui));
    for (size_t i = 0; !s->ui.compact && i < targets; i++) { /* one piece per target: the line wraps between them */
        char tname[128], more[256];
        snprintf(i ? more : piece + len, i ? sizeof more : sizeof piece - (size_t)len, " %d R displacing %s",
                 d[i].price, card_text(&s->ui, s->game, d[i].displaced, tname, sizeof tname));
        if (i)
            tx_piece(t, ",", more);
        else
            tx_piece(t, sep, piece);
    }
    if (s->ui.compact || !targets)
        tx_piece(t, sep, piece);
}

static void draw_board(text *t, const session *s)
{
    static const char *const row_names[2] = { "upper row", "lower row" };
    int compact = s->ui.compact, label = compact ? 10 : 13; /* compact: no heading, "upper:" (the header says whose
                                                               prices) */
    if (!compact) {
        tx_line(t, 0);
        tx_printf(t, "%sBoard%s (your price for each card)", sgr_bold(&s->ui), sgr_reset(&s->ui));
    }
    for (int row = STPETE_SOURCE_UPPER; row <= STPETE_SOURCE_LOWER; row++) {
        int cards[STPETE_BOARD_SIZE];
        size_t n = 0;
        stpete_state_row(s->st, row, cards, STPETE_BOARD_SIZE, &n);
        tx_line(t, 2);
        tx_printf(t, "%s:", compact ? stpete_source_name(row) : row_names[row]);
        t->indent = label;
        while (t->col < label)
            tx_bytes(t, " ", 1), t->col++;
        if (!n)
            tx_piece(t, "", "(empty)");
        for (size_t i = 0; i < n; i++)
            draw_board_card(t, s, cards[i], row, i ? " | " : "");
    }
    tx_line(t, 2);
    tx_printf(t, "stacks:");
    t->indent = label;
    while (t->col < label)
        tx_bytes(t, " ", 1), t->col++;
    const char *const plural[4] = { "workers", "buildings", "aristocrats", compact ? "trading" : "trading cards" };
    for (int k = 0; k < STPETE_NUM_STACKS; k++) {
        char piece[64];
        snprintf(piece, sizeof piece, "%s%d %s%s", sgr_colour(&s->ui, k < 3 ? k : -1),
                 stpete_state_stack_size(s->st, k), plural[k], k < 3 ? sgr_reset(&s->ui) : "");
        tx_piece(t, k ? ", " : "", piece);
    }
    int discarded = 0;
    for (int card = 0; card < STPETE_NUM_CARD_TYPES; card++)
        discarded += stpete_state_discard_count(s->st, card);
    char piece[64];
    snprintf(piece, sizeof piece, "| discard%s %d", compact ? "" : " pile", discarded);
    tx_piece(t, " ", piece);
    int drawn = stpete_state_observatory_card(s->st);
    if (drawn >= 0) {
        char name[128], who[32];
        tx_line(t, 2);
        tx_sentence(t, "Observatory card: %s, drawn by %s", card_text(&s->ui, s->game, drawn, name, sizeof name),
                    seat_label(s, stpete_state_current_player(s->st), who, sizeof who));
    }
}

static void draw_player(text *t, const session *s, int seat)
{
    char who[32], piece[256];
    int vp = 0, cards[STPETE_NUM_CARDS];
    size_t n = 0;
    int current = stpete_state_current_player(s->st) == seat;
    tx_line(t, 0);
    snprintf(piece, sizeof piece, "%s%s%s%s", current ? "> " : "  ", seat == s->seat ? sgr_bold(&s->ui) : "",
             seat_label(s, seat, who, sizeof who), seat == s->seat ? sgr_reset(&s->ui) : "");
    tx_piece(t, "", piece);
    int compact = s->ui.compact; /* one line when it fits: no bot name, "marker:", the display after " | " */
    if (seat != s->seat && !compact)
        tx_printf(t, " (%s)", s->bot_names[seat][0] ? s->bot_names[seat] : "bot");
    t->indent = 4;
    stpete_state_vp(s->st, seat, &vp);
    if (seat == s->seat || s->cfg.public_rubles)
        snprintf(piece, sizeof piece, "%d R", stpete_state_rubles(s->st, seat));
    else
        snprintf(piece, sizeof piece, "rubles secret");
    tx_piece(t, "  ", piece);
    snprintf(piece, sizeof piece, "%d VP", vp);
    tx_piece(t, ", ", piece);
    stpete_state_hand(s->st, seat, cards, STPETE_MAX_HAND, &n);
    snprintf(piece, sizeof piece, "hand %zu/%d%s", n, stpete_state_hand_limit(s->st, seat), n || !compact ? ":" : "");
    tx_piece(t, ", ", piece);
    if (!n && !compact)
        tx_piece(t, " ", "empty");
    for (size_t i = 0; i < n; i++) {
        char name[128];
        if (seat == s->seat || s->cfg.public_hands)
            snprintf(piece, sizeof piece, "%s%s", card_text(&s->ui, s->game, cards[i], name, sizeof name),
                     i + 1 < n ? "," : "");
        else /* §9: the back of the card, that is its stack */
            snprintf(piece, sizeof piece, "%s[%s back]%s", sgr_colour(&s->ui, card_stack(cards[i]) < 3 ?
                     card_stack(cards[i]) : -1), stpete_stack_name(card_stack(cards[i])),
                     card_stack(cards[i]) < 3 ? sgr_reset(&s->ui) : "");
        tx_piece(t, " ", piece);
    }
    int markers = 0;
    for (int phase = 0; phase < STPETE_NUM_PHASES; phase++)
        if (stpete_state_marker_holder(s->st, phase) == seat) {
            snprintf(piece, sizeof piece, "%s%s", markers ? "" : compact ? "marker: " : "start-player marker: ",
                     stpete_phase_name(phase));
            tx_piece(t, markers ? ", " : "; ", piece);
            markers++;
        }
    /* the display, grouped by colour (§1); the display list is sorted by card type */
    stpete_state_display(s->st, seat, cards, STPETE_NUM_CARDS, &n);
    if (compact > 1 && seat != s->seat && n) { /* the shortest: cards per colour ('board' shows them all) */
        int count[3] = { 0 }, kinds = 0;
        for (size_t i = 0; i < n; i++) {
            stpete_card_info info = STPETE_CARD_INFO_INIT;
            stpete_card_get_info(stpete_game_edition(s->game), cards[i], &info);
            count[info.colour]++;
            kinds += info.colour == STPETE_COLOUR_ORANGE && (i == 0 || cards[i - 1] != cards[i]);
        }
        int shown = 0;
        for (int colour = 0; colour < 3; colour++) {
            if (!count[colour])
                continue;
            snprintf(piece, sizeof piece, "%s%s %d%s%s", sgr_colour(&s->ui, colour), stpete_colour_name(colour),
                     count[colour], sgr_reset(&s->ui), "");
            if (colour == STPETE_COLOUR_ORANGE)
                snprintf(piece + strlen(piece), sizeof piece - strlen(piece), " (%d kind%s)", kinds,
                         kinds == 1 ? "" : "s");
            tx_piece(t, shown++ ? ", " : " | ", piece);
        }
        return;
    }
    if (!compact)
        tx_line(t, 4);
    else if (!n)
        tx_piece(t, " | ", "display empty");
    t->indent = compact ? 4 : 6;
    int shown = 0; /* colours shown so far */
    for (int colour = 0; colour < 3; colour++) {
        char head[64];
        snprintf(head, sizeof head, "%s%s:%s", sgr_colour(&s->ui, colour), stpete_colour_name(colour),
                 sgr_reset(&s->ui));
        int any = 0;
        for (size_t i = 0; i < n;) {
            size_t j = i;
            while (j < n && cards[j] == cards[i])
                j++;
            stpete_card_info info = STPETE_CARD_INFO_INIT;
            stpete_card_get_info(stpete_game_edition(s->game), cards[i], &info);
            if (info.colour == colour) {
                char name[128], extra[32] = "";
                if (cards[i] == STPETE_CARD_OBSERVATORY && stpete_state_observatories_used(s->st, seat) > 0)
                    snprintf(extra, sizeof extra, " (%d used)", stpete_state_observatories_used(s->st, seat));
                if (j - i > 1)
                    snprintf(piece, sizeof piece, "%zux %s%s", j - i, card_text(&s->ui, s->game, cards[i], name, sizeof name),
                             extra);
                else
                    snprintf(piece, sizeof piece, "%s%s", card_text(&s->ui, s->game, cards[i], name, sizeof name), extra);
                if (!any) { /* the colour's name and its first card stay together */
                    char first[320];
                    snprintf(first, sizeof first, "%s %s", head, piece);
                    tx_piece(t, shown ? "  " : compact ? " | " : "", first);
                    shown++;
                } else {
                    tx_piece(t, ", ", piece);
                }
                any = 1;
            }
            i = j;
        }
        if (!any && !compact) {
            char none[96];
            snprintf(none, sizeof none, "%s -", head);
            tx_piece(t, colour ? "  " : "", none);
        }
    }
}

/* The number of the first listed action: 1, except in a Pub decision (§7.2), where the number of "pub k" is k, the
 * VP bought. */
static size_t first_number(const session *s)
{
    return stpete_state_decision(s->st) == STPETE_DECISION_PUB ? 0 : 1;
}

/* The text of a legal action with its card names coloured and its price (stpete_state_action_price()). */
static void action_text(const session *s, int id, char *buf, size_t size)
{
    char plain[STPETE_ACTION_STRING_MAX];
    stpete_action a;
    stpete_action_to_string(stpete_game_edition(s->game), id, plain, sizeof plain);
    stpete_action_decode(id, &a);
    int card = a.card >= 0 ? a.card : (a.kind == STPETE_ACTION_OBSERVATORY_TAKE ||
                                       a.kind == STPETE_ACTION_OBSERVATORY_DISCARD ?
                                       stpete_state_observatory_card(s->st) : -1);
    size_t len = 0;
    const char *p = plain;
    const int names[2] = { card, a.displaced };
    for (int k = 0; k < 2; k++) {
        const char *name = names[k] >= 0 ? cli_card_name(s->game, names[k]) : NULL;
        const char *at = name ? strstr(p, name) : NULL;
        if (!at)
            continue;
        char coloured[128];
        len += (size_t)snprintf(buf + len, size - len, "%.*s%s", (int)(at - p), p,
                                card_text(&s->ui, s->game, names[k], coloured, sizeof coloured));
        p = at + strlen(name);
        if (len >= size)
            return;
    }
    len += (size_t)snprintf(buf + len, size - len, "%s", p);
    if (len >= size)
        return;
    int rubles = 0;
    if (stpete_state_action_price(s->st, id, &rubles) == STPETE_OK)
        snprintf(buf + len, size - len, " (%d R)", rubles);
    else if (a.kind == STPETE_ACTION_OBSERVATORY_TAKE || a.kind == STPETE_ACTION_OBSERVATORY_DISCARD) {
        /* "observatory take" names no card: say which */
        char name[128];
        if (card >= 0)
            snprintf(buf + len, size - len, " (%s)", card_text(&s->ui, s->game, card, name, sizeof name));
    }
}

/* Shorter words for the compact layout, in place: " from upper" " up", " from lower" " low", " displacing "
 * " displ. ", a price "(5 R)" "5 R". Typed actions still use the full words (or the numbers). */
static void compact_words(char *text)
{
    static const char *const pairs[][2] = { { " from upper", " up" }, { " from lower", " low" },
                                             { " displacing ", " displ. " }, { " (", " " } };
    for (size_t k = 0; k < sizeof pairs / sizeof *pairs; k++) {
        char *at = strstr(text, pairs[k][0]);
        if (!at || (k == 3 && !strstr(at, " R)")))
            continue;
        size_t from = strlen(pairs[k][0]), to = strlen(pairs[k][1]);
        memcpy(at, pairs[k][1], to);
        memmove(at + to, at + from, strlen(at + from) + 1);
        if (k == 3) { /* and the closing parenthesis of the price */
            char *close = strstr(at, " R)");
            if (close)
                memmove(close + 2, close + 3, strlen(close + 3) + 1);
        }
    }
}

static void draw_actions(text *t, const session *s)
{
    int ids[STPETE_MAX_LEGAL_ACTIONS];
    size_t n = 0;
    stpete_state_legal_actions(s->st, ids, STPETE_MAX_LEGAL_ACTIONS, &n);
    char items[STPETE_MAX_LEGAL_ACTIONS][256], heads[STPETE_MAX_LEGAL_ACTIONS][224];
    int widest = 0;
    for (size_t i = 0; i < n; i++) {
        char body[224];
        action_text(s, ids[i], body, sizeof body);
        heads[i][0] = '\0';
        if (s->ui.compact) { /* "buy Market from upper (5 R)" as "buy Market up 5 R" */
            compact_words(body);
            /* the choices of one card and row after one head: "buy Wharf up displ.: 8 Ship Builder 5 R ..." */
            const char *at = strstr(body, " displ. ");
            size_t head = at ? (size_t)(at - body) + strlen(" displ.") : !strncmp(body, "take ", 5) ? 4 : 0;
            snprintf(heads[i], sizeof heads[i], "%.*s", (int)head, body);
            memmove(body, body + head + (head > 0), strlen(body + head + (head > 0)) + 1);
        }
        snprintf(items[i], sizeof items[i], s->ui.compact ? "%zu %s" : "%3zu %s", i + first_number(s), body);
        if (visible_width(items[i]) > widest)
            widest = visible_width(items[i]);
    }
    int decision = stpete_state_decision(s->st);
    tx_line(t, 0);
    tx_printf(t, "%s%s%s", sgr_bold(&s->ui),
              decision == STPETE_DECISION_OBSERVATORY ? "Your Observatory draw: buy it, take it into hand, or discard it"
              : decision == STPETE_DECISION_PUB        ? "Your Pub: how many VP do you buy, at 2 R each (§7.2)? Type "
                                                         "the number of VP"
                                                       : "Your legal actions",
              sgr_reset(&s->ui));
    if (s->ui.compact) { /* one after the other from the heading's line on, wrapped between items */
        t->indent = 2;
        tx_printf(t, "%s", decision == STPETE_DECISION_TURN ? ":" : "");
        for (size_t i = 0; i < n; i++) {
            if (heads[i][0] && (i == 0 || strcmp(heads[i], heads[i - 1]))) { /* a new group: its head */
                char head[232];
                snprintf(head, sizeof head, "%.220s:", heads[i]);
                tx_piece(t, "  ", head);
            }
            tx_piece(t, heads[i][0] && i > 0 && !strcmp(heads[i], heads[i - 1]) ? ", " : "  ", items[i]);
            if (s->ui.actions_shown && i + 1 == s->ui.actions_shown && i + 1 < n) { /* the rest keep their numbers */
                char more[96];
                snprintf(more, sizeof more, "%s(and %zu more, %zu-%zu: 'board' lists all)%s", sgr_dim(&s->ui),
                         n - i - 1, i + 1 + first_number(s), n - 1 + first_number(s), sgr_reset(&s->ui));
                tx_piece(t, "  ", more);
                break;
            }
        }
        if (s->ui.log_note) { /* the log did not fit: say that there is one */
            char note[96];
            snprintf(note, sizeof note, "%s(and %zu new log line%s: type 'log')%s", sgr_dim(&s->ui), s->ui.log_note,
                     s->ui.log_note == 1 ? "" : "s", sgr_reset(&s->ui));
            tx_piece(t, "  ", note);
        }
        return;
    }
    int colw = widest + 3;
    int cols = colw > 0 ? (s->ui.width - 1) / colw : 1;
    if (cols < 1)
        cols = 1;
    size_t rows = (n + (size_t)cols - 1) / (size_t)cols;
    for (size_t r = 0; r < rows; r++) {
        tx_line(t, 0);
        for (int c = 0; c < cols; c++) {
            size_t i = (size_t)c * rows + r;
            if (i >= n)
                break;
            tx_bytes(t, items[i], strlen(items[i]));
            int w = visible_width(items[i]);
            t->col += w;
            if (c + 1 < cols && i + rows < n)
                for (int k = w; k < colw; k++)
                    tx_bytes(t, " ", 1), t->col++;
        }
    }
}

static void draw_final(text *t, const session *s)
{
    unsigned winners = 0;
    stpete_state_winners(s->st, &winners);
    tx_line(t, 0);
    tx_printf(t, "%sGAME OVER after round %d: final scores (§8)%s", sgr_bold(&s->ui), stpete_state_round(s->st),
              sgr_reset(&s->ui));
    tx_line(t, 0);
    tx_printf(t, "  %-13s %6s %14s %11s %8s %6s %9s", "seat", "VP", "aristocrats", "rubles", "hand", "total",
              "tie-break");
    for (int seat = 0; seat < s->players; seat++) {
        stpete_score sc = STPETE_SCORE_INIT;
        char who[32], a[32], r[32], h[32];
        stpete_state_get_score(s->st, seat, &sc);
        snprintf(a, sizeof a, "%+d (%d kind%s)", sc.aristocrat_bonus, sc.aristocrat_kinds,
                 sc.aristocrat_kinds == 1 ? "" : "s");
        snprintf(r, sizeof r, "%+d (%d R)", sc.rubles_bonus, sc.rubles);
        snprintf(h, sizeof h, "%+d (%d)", sc.hand_penalty, sc.hand_cards);
        if (sc.hand_penalty == 0)
            snprintf(h, sizeof h, "0");
        tx_line(t, 0);
        tx_printf(t, "%s %-13s %6d %14s %11s %8s %6d %9d", winners & (1u << seat) ? "*" : " ",
                  seat_label(s, seat, who, sizeof who), sc.vp_before, a, r, h, sc.total, sc.tie_break);
    }
    tx_line(t, 0);
    tx_printf(t, "%s:", __builtin_popcount(winners) > 1 ? "Winners (a shared win)" : "Winner");
    for (int seat = 0; seat < s->players; seat++)
        if (winners & (1u << seat)) {
            char who[32];
            tx_printf(t, " %s", seat_label(s, seat, who, sizeof who));
        }
    tx_printf(t, "%s", winners & (1u << s->seat) ? ". You win!" : ".");
}

/* The board and the players (head), and the legal actions or the final scores (tail), full or compact (u->compact:
 * shorter words, a player on one line when it fits; for a terminal of 80x24). */
static void build_screen(session *s, text *head, text *tail)
{
    ui *u = &s->ui;
    memset(head, 0, sizeof *head);
    memset(tail, 0, sizeof *tail);
    head->width = tail->width = u->width > 20 ? u->width - (u->compact > 0) : 20; /* compact: room for a comma */
    head->slack = tail->slack = u->compact > 0;
    int over = cli_over(s->st);
    int phase = stpete_state_phase(s->st);
    char piece[256];
    tx_line(head, 0);
    head->indent = 2;
    const char *title = u->compact ? "" : "Saint Petersburg";
    if (s->loaded)
        snprintf(piece, sizeof piece, "%s%s%s%s%d players, a loaded game", sgr_bold(u), title, sgr_reset(u),
                 *title ? ", " : "", s->players);
    else
        snprintf(piece, sizeof piece, "%s%s%s%s%d players, seed %" PRIu64, sgr_bold(u), title, sgr_reset(u),
                 *title ? ", " : "", s->players, s->seed);
    tx_piece(head, "", piece);
    stpete_options opts;
    stpete_options_init(&opts);
    stpete_game_get_options(s->game, &opts);
    if (opts.edition == 2)
        tx_piece(head, ", ", u->compact ? "edition 2" : "second edition (rules, section 11)");
    if (!over) {
        char who[32];
        snprintf(piece, sizeof piece, "round %d%s", stpete_state_round(s->st),
                 !cli_final_round(s->st) ? "" : u->compact ? " (final)" : " (the final round)");
        tx_piece(head, " | ", piece);
        snprintf(piece, sizeof piece, "%s%s phase%s", sgr_colour(u, phase < 3 ? phase : -1), stpete_phase_name(phase),
                 phase < 3 ? sgr_reset(u) : "");
        tx_piece(head, " | ", piece);
        snprintf(piece, sizeof piece, "%s to play", seat_label(s, stpete_state_current_player(s->st), who, sizeof who));
        tx_piece(head, " | ", piece);
    }
    draw_board(head, s);
    for (int seat = 0; seat < s->players; seat++)
        draw_player(head, s, seat);
    if (over)
        draw_final(tail, s);
    else
        draw_actions(tail, s);
    if (!over && !u->compact) {
        tx_line(tail, 0);
        tx_sentence(tail, "Type a number, an action (a unique prefix is enough), or help, hint, save, load, log, "
                         "quit.");
    }
}

/* Draw everything the person needs to decide (or the final scores), after what happened since the last board:
 * the full layout when it fits the terminal, else the compact one (4 players in 80x24). */
/* The log since the person's last move: all of it on plain lines; on a screen, the newest entries that fit in
 * the rows the board (head) and the actions (tail) leave, at least the newest one. */
static void build_log(session *s, text *logt, const text *head, const text *tail)
{
    ui *u = &s->ui;
    memset(logt, 0, sizeof *logt);
    logt->width = head->width;
    size_t first = s->log_mark;
    /* rows: head->lines + 1, tail->lines + 1, the log's heading, the prompt */
    int needed = head->lines + tail->lines + 4;
    if (u->screen) {
        int budget = u->height - needed, used = 0;
        first = s->log_n;
        while (first > s->log_mark) {
            text probe = { 0 };
            probe.width = logt->width;
            tx_line(&probe, 2);
            probe.indent = 4;
            tx_words(&probe, s->log[first - 1]);
            int lines = probe.lines + 1 + (first - 1 > s->log_mark && !u->compact); /* + the "earlier" note */
            tx_free(&probe);
            if (used + lines > budget)
                break;
            used += lines - (first - 1 > s->log_mark && !u->compact);
            first--;
        }
        if (first == s->log_n && first > s->log_mark && !u->compact)
            first--; /* at least the newest entry (compact: only if it fits; 'log' shows them) */
    }
    if (first > s->log_mark && !u->compact) {
        tx_line(logt, 0);
        tx_sentence(logt, "%s... %zu earlier line(s) since your last move: type 'log' for the whole game%s", sgr_dim(u),
                    first - s->log_mark, sgr_reset(u));
    }
    if (s->log_n > s->log_mark && !u->log_note) {
        tx_line(logt, 0);
        if (u->compact && first > s->log_mark) /* the note about earlier lines on the heading's line */
            tx_printf(logt, "%sSince your last move:%s %s(%zu %s: type 'log')%s", sgr_bold(u), sgr_reset(u),
                      sgr_dim(u), first - s->log_mark, first == s->log_n ? "lines" : "earlier", sgr_reset(u));
        else
            tx_printf(logt, "%sSince your last move:%s", sgr_bold(u), sgr_reset(u));
    }
    for (size_t i = first; i < s->log_n; i++) {
        tx_line(logt, 2);
        logt->indent = 4;
        tx_words(logt, s->log[i]);
    }
}

/* Rows a text takes on the screen. */
static int text_rows(const text *t)
{
    return t->lines + (t->len && t->col > 0);
}

/* Draw everything the person needs to decide (or the final scores), after what happened since the last board:
 * the full layout when it fits the terminal, else the compact one (4 players in 80x24). */
static void draw_screen(session *s)
{
    ui *u = &s->ui;
    ui_measure(u);
    text head, logt, tail;
    int rows;
    /* Shorter and shorter until it fits: the full layout; compact (1); without the log's lines (a note after the
     * actions instead); the other seats' displays as counts per colour (2); the first legal actions only, one
     * fewer each time (a note says how many more, with their numbers unchanged). 'board' shows the full layout
     * once, as lines that scroll (s->full_board). */
    int screen = u->screen;
    int ids[STPETE_MAX_LEGAL_ACTIONS];
    size_t legal = 0;
    if (!cli_over(s->st))
        stpete_state_legal_actions(s->st, ids, STPETE_MAX_LEGAL_ACTIONS, &legal);
    u->log_note = 0;
    u->actions_shown = 0;
    for (u->compact = 0;;) {
        build_screen(s, &head, &tail);
        build_log(s, &logt, &head, &tail);
        rows = text_rows(&head) + text_rows(&logt) + text_rows(&tail) + 1; /* + the prompt */
        if (!screen || rows <= u->height || u->actions_shown == 1 || (u->compact == 2 && legal < 2))
            break;
        tx_free(&head);
        tx_free(&logt);
        tx_free(&tail);
        if (u->compact == 0)
            u->compact = 1;
        else if (!u->log_note && s->log_n > s->log_mark) /* the note goes after the actions, and no heading */
            u->log_note = s->log_n - s->log_mark;
        else if (u->compact == 1)
            u->compact = 2;
        else
            u->actions_shown = u->actions_shown ? u->actions_shown - 1 : legal - 1;
    }
    if (s->full_board && u->compact) { /* 'board' on a small terminal: all of it, scrolling */
        tx_free(&head);
        tx_free(&logt);
        tx_free(&tail);
        u->compact = 0;
        u->log_note = 0;
        u->actions_shown = 0;
        build_screen(s, &head, &tail);
        build_log(s, &logt, &head, &tail);
        screen = 0;
    }
    s->full_board = 0;
    /* Too small a terminal: the top of the board has scrolled away. Say so next to the prompt. */
    if (screen && u->compact && u->width >= MIN_WIDTH && rows > u->height) { /* one line: the top scrolled away */
        tx_line(&tail, 0);
        tx_sentence(&tail, "%s(%d rows, the terminal %d: the top scrolled away; 'board' shows all)%s", sgr_dim(u), rows,
                    u->height, sgr_reset(u));
    } else if (screen && (u->width < MIN_WIDTH || rows > u->height)) {
        tx_line(&tail, 0);
        tx_sentence(&tail, "%sThe terminal is %dx%d, too small for this board (it needs %dx%d): enlarge the window and "
                         "type 'board', or start " PROGRAM " with --plain.%s", sgr_bold(u), u->width, u->height,
                  u->width > MIN_WIDTH ? u->width : MIN_WIDTH, rows, sgr_reset(u));
    }

    if (screen)
        fputs("\033[H\033[2J", u->out); /* home, clear: no alternate screen, so the last board stays after exit */
    else
        fputs("\n----------------------------------------------------------------------\n", u->out);
    for (text *t = &head; t; t = t == &head ? &logt : t == &logt ? &tail : NULL) {
        if (t->len && t->col > 0)
            tx_newline(t);
        if (t->failed)
            fputs("(out of memory while drawing)\n", u->out);
        else if (t->buf)
            fputs(t->buf, u->out);
    }
    fflush(u->out);
    tx_free(&head);
    tx_free(&logt);
    tx_free(&tail);
}

/* A message under the board, between two prompts. */
static void say(session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(session *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(s->ui.out, fmt, ap);
    va_end(ap);
    fputc('\n', s->ui.out);
    fflush(s->ui.out);
}

static void say_wrapped(session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* say(), wrapped between words at the terminal's width; continued lines indented 2 more than the first. */
static void say_wrapped(session *s, const char *fmt, ...)
{
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    ui_measure(&s->ui);
    text t = { 0 };
    t.width = s->ui.width > 20 ? s->ui.width - 1 : 20;
    int lead = (int)strspn(buf, " ");
    tx_line(&t, lead);
    t.indent = lead + 2;
    tx_words(&t, buf + lead);
    say(s, "%s", t.failed || !t.buf ? buf : t.buf);
    tx_free(&t);
}

/* ---- saving and loading ----------------------------------------------------------------------------------- */

static int mkdir_parents(const char *path)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    for (char *p = dir + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(dir, 0700) != 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    return 0;
}

/* Write the state as JSON (stpete_state_to_json()) to path, through a temporary file renamed over it, so that a
 * failure leaves an older save intact. Returns 0, or -1 with why. */
static int save_state(const stpete_state *st, const char *path, char *why, size_t size)
{
    size_t len = 0;
    int rc = stpete_state_to_json(st, NULL, 0, &len);
    char *json = rc == STPETE_E_BUFFER_TOO_SMALL ? malloc(len + 2) : NULL;
    if (!json || stpete_state_to_json(st, json, len + 1, &len) != STPETE_OK) {
        free(json);
        snprintf(why, size, "cannot serialize the game: %s", stpete_strerror(rc == STPETE_OK ? STPETE_E_OUT_OF_MEMORY : rc));
        return -1;
    }
    json[len++] = '\n';
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    int ok = f && fwrite(json, 1, len, f) == len;
    if (f && fclose(f) != 0)
        ok = 0;
    free(json);
    if (!ok || rename(tmp, path) != 0) {
        snprintf(why, size, "cannot write %s: %s", path, strerror(errno));
        if (f)
            remove(tmp);
        return -1;
    }
    return 0;
}

/* Read a saved game: its game (stpete_game_from_json()) and state (stpete_state_from_json()). */
static int load_state(const char *path, stpete_game **game, stpete_state **st, char *why, size_t size)
{
    *game = NULL;
    *st = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(why, size, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    size_t cap = STPETE_JSON_STATE_MAX + 1, len = 0;
    char *text = malloc(cap);
    if (text)
        len = fread(text, 1, cap, f);
    int read_error = ferror(f);
    fclose(f);
    if (!text || read_error) {
        free(text);
        snprintf(why, size, "cannot read %s", path);
        return -1;
    }
    stpete_error err = STPETE_ERROR_INIT;
    int rc = stpete_game_from_json(text, len, NULL, game, &err);
    if (rc == STPETE_OK)
        rc = stpete_state_from_json(*game, text, len, st, &err);
    free(text);
    if (rc != STPETE_OK) {
        stpete_game_free(*game);
        *game = NULL;
        if (err.line > 0)
            snprintf(why, size, "%s is not a saved game: %s (%s, line %d, column %d)", path, err.message,
                     stpete_strerror(rc), err.line, err.column);
        else
            snprintf(why, size, "%s is not a saved game: %s (%s)", path, err.message[0] ? err.message : "", stpete_strerror(rc));
        return -1;
    }
    return 0;
}

static void autosave_path(session *s)
{
    const char *state_home = getenv("XDG_STATE_HOME");
    const char *home = getenv("HOME");
    if (s->cfg.autosave)
        snprintf(s->autosave, sizeof s->autosave, "%s", s->cfg.autosave);
    else if (state_home && state_home[0] == '/')
        snprintf(s->autosave, sizeof s->autosave, "%s/stpete/autosave.json", state_home);
    else if (home && home[0])
        snprintf(s->autosave, sizeof s->autosave, "%s/.local/state/stpete/autosave.json", home);
    else
        snprintf(s->autosave, sizeof s->autosave, "stpete-autosave.json");
}

/* How to go on with a saved game. */
static void say_resume(session *s, const char *path)
{
    say(s, "Continue it with: " PROGRAM " --load '%s' --seat %d%s%s", path, s->seat, s->cfg.bots ? " --bots " : "",
        s->cfg.bots ? s->cfg.bots : "");
}

/* Save a game in progress on the way out (quit, end of input, a signal): the autosave file, else the current
 * directory, else the JSON on standard error. */
static void save_on_exit(session *s, const char *reason)
{
    if (cli_over(s->st)) {
        say(s, "%s: the game is over, nothing to save.", reason);
        return;
    }
    char why[5000] = "";
    const char *path = s->autosave;
    if (mkdir_parents(path) != 0)
        snprintf(why, sizeof why, "cannot create the directory of %s: %s", path, strerror(errno));
    if (why[0] || save_state(s->st, path, why, sizeof why) != 0) {
        path = "stpete-autosave.json";
        char why2[512];
        if (save_state(s->st, path, why2, sizeof why2) != 0) {
            say(s, "%s: %s; %s. The game follows as JSON on standard error: save it to a file and load it with "
                   "--load.", reason, why, why2);
            size_t len = 0;
            stpete_state_to_json(s->st, NULL, 0, &len);
            char *json = malloc(len + 1);
            if (json && stpete_state_to_json(s->st, json, len + 1, &len) == STPETE_OK)
                fprintf(stderr, "%s\n", json);
            free(json);
            return;
        }
    }
    say(s, "%s: the game is saved to %s.", reason, path);
    say_resume(s, path);
}

/* ---- commands --------------------------------------------------------------------------------------------- */

static int cmd_help(session *s, const char *arg)
{
    (void)arg;
    say(s, "On your turn, type the number of a legal action, or an action: its words as listed (\"take Market "
           "from lower\"),\nor any prefix that only one legal action has (\"take m\"), or the first letters of its "
           "words (\"b wea low\").\nCommands:");
    for (size_t i = 0; i < NUM_COMMANDS; i++) {
        char head[64];
        snprintf(head, sizeof head, "%s%s%s", commands[i].name, commands[i].arg[0] ? " " : "", commands[i].arg);
        say(s, "  %-12s %s", head, commands[i].help);
    }
    say(s, "The rules: doc/rules.md (installed in share/doc/libstpete/); prices follow §5, displacement §6.");
    return 0;
}

static int cmd_hint(session *s, const char *arg)
{
    (void)arg;
    int id = -1;
    if (stpete_bot_choose(s->hint_bot, s->st, &id) != STPETE_OK) {
        say(s, "No hint: the game is over.");
        return 0;
    }
    int ids[STPETE_MAX_LEGAL_ACTIONS];
    size_t n = 0, number = 0;
    stpete_state_legal_actions(s->st, ids, STPETE_MAX_LEGAL_ACTIONS, &n);
    for (size_t i = 0; i < n; i++)
        if (ids[i] == id)
            number = i + first_number(s);
    char text[256];
    action_text(s, id, text, sizeof text);
    say(s, "Hint (the greedy bot would play): %zu %s", number, text);
    return 0;
}

/* Draw the board again; on a terminal too small for the full layout, the full layout once as lines that scroll
 * (the compact screen shortens the other seats' displays). */
static int cmd_board(session *s, const char *arg)
{
    (void)arg;
    s->redraw = 1;
    s->full_board = s->ui.compact != 0;
    return 0;
}

static int cmd_log(session *s, const char *arg)
{
    (void)arg;
    say(s, "The game so far (%zu lines):", s->log_n);
    for (size_t i = 0; i < s->log_n; i++)
        say(s, "  %s", s->log[i]);
    return 0;
}

static int cmd_save(session *s, const char *arg)
{
    const char *path = arg[0] ? arg : s->autosave;
    char why[512];
    if ((!arg[0] && mkdir_parents(path) != 0) || save_state(s->st, path, why, sizeof why) != 0) {
        say(s, "Not saved: %s", arg[0] ? why : "cannot create the autosave directory");
        return 0;
    }
    say(s, "Saved to %s.", path);
    say_resume(s, path);
    return 0;
}

/* Take back the person's last move and everything after it (the bots' moves, chance and the deals, §3.1: the
 * state's history restores its PRNG), with stpete_state_undo(). */
static int cmd_undo(session *s, const char *arg)
{
    (void)arg;
    if (s->moves_n == 0) {
        say(s, "Nothing to undo: you have not moved since the game %s.", s->loaded ? "was loaded" : "began");
        return 0;
    }
    size_t target = s->moves[--s->moves_n], n = 0;
    stpete_state_history(s->st, NULL, 0, &n);
    int undone = 0;
    size_t before = s->log_n;
    while (n > target && stpete_state_undo(s->st) == STPETE_OK) {
        n--;
        undone++;
    }
    s->log_mark = before; /* the log then lists what was taken back, newest first, each with its seat */
    say(s, "Undone: %d move%s, back to before your last move:", undone, undone == 1 ? "" : "s");
    for (size_t i = before; i < s->log_n; i++)
        say(s, "  %s", s->log[i]);
    s->redraw = 1;
    return 0;
}

/* What each special ability does, with its rule (enum stpete_special, the card table's flag: stpete_card_info). */
static const char *const special_texts[] = {
    [STPETE_SPECIAL_NONE] = NULL,
    [STPETE_SPECIAL_OBSERVATORY] = "in the building phase, as your action, draw the top card of a stack holding at "
                                   "least 2 cards, then buy it, take it into hand or discard it; used, it is face "
                                   "down until the next round: no VP and not displaceable (§7.1, R9)",
    [STPETE_SPECIAL_PUB] = "right after each building scoring, buy VP at 2 R each, up to 5 VP per Pub (or per "
                           "player, a rule option) (§7.2, R10)",
    [STPETE_SPECIAL_WAREHOUSE] = "your hand limit is 4 instead of 3 (§7.3)",
    [STPETE_SPECIAL_POTJOMKINS_VILLAGE] = "scores nothing, but is worth 6 R when a trading card displaces it (§7.4, "
                                          "§5.2)",
    [STPETE_SPECIAL_MARIINSKIJ_THEATER] = "at the building scoring, +1 R for every orange card in your display "
                                          "(§7.5)",
    [STPETE_SPECIAL_TAX_MAN] = "at the aristocrat scoring, +1 R for every green card in your display (§7.5)",
    [STPETE_SPECIAL_CARPENTER_WORKSHOP] = "blue cards cost you 1 R less (§5.1)",
    [STPETE_SPECIAL_GOLD_SMELTER] = "orange cards cost you 1 R less (§5.1)",
    [STPETE_SPECIAL_CZAR_AND_CARPENTER] = "any green trading card may displace it (§6.2)",
    [STPETE_SPECIAL_MARIINSKY_THEATER_VP] = "at the building scoring, +1 VP for every orange card in your display "
                                            "(§11)",
};

/* The cards the person can see in play, in the order 'card' numbers them: both rows, the Observatory card, the
 * person's hand. Returns the count; where[i] names the place. */
static size_t cards_in_play(const session *s, int *cards, const char **where, size_t cap)
{
    size_t n = 0, k = 0;
    int list[STPETE_BOARD_SIZE];
    for (int row = STPETE_SOURCE_UPPER; row <= STPETE_SOURCE_LOWER; row++) {
        stpete_state_row(s->st, row, list, STPETE_BOARD_SIZE, &k);
        for (size_t i = 0; i < k && n < cap; i++, n++)
            cards[n] = list[i], where[n] = row == STPETE_SOURCE_UPPER ? "upper row" : "lower row";
    }
    int drawn = stpete_state_observatory_card(s->st);
    if (drawn >= 0 && n < cap)
        cards[n] = drawn, where[n++] = "Observatory card";
    stpete_state_hand(s->st, s->seat, list, STPETE_MAX_HAND, &k);
    for (size_t i = 0; i < k && n < cap; i++, n++)
        cards[n] = list[i], where[n] = "your hand";
    return n;
}

/* The card a 'card' argument names: a number of the list, or a card name of the game's edition (any case; a
 * prefix only one card name has). -1 after saying why not. */
static int card_named(session *s, const char *arg)
{
    int cards[2 * STPETE_BOARD_SIZE + 1 + STPETE_MAX_HAND];
    const char *where[sizeof cards / sizeof *cards];
    size_t n = cards_in_play(s, cards, where, sizeof cards / sizeof *cards);
    char *end;
    long k = strtol(arg, &end, 10);
    if (end != arg && !*end) {
        if (k >= 1 && (size_t)k <= n)
            return cards[k - 1];
        say(s, "No card %ld: type 'card' for the list (1 to %zu).", k, n);
        return -1;
    }
    int found = -1, matches = 0;
    char candidates[512] = "";
    for (int c = 0; c < STPETE_NUM_CARD_TYPES; c++) {
        const char *name = cli_card_name(s->game, c);
        if (!strcasecmp(name, arg))
            return c;
        if (strncasecmp(name, arg, strlen(arg)))
            continue;
        size_t len = strlen(candidates);
        snprintf(candidates + len, sizeof candidates - len, "%s%s", matches ? ", " : "", name);
        found = c;
        matches++;
    }
    if (matches == 1)
        return found;
    if (matches)
        say(s, "Which card? %s.", candidates);
    else
        say(s, "No card is called '%s': type 'card' for the cards in play.", arg);
    return -1;
}

/* 'card': the cards in play, numbered; 'card NAME' or 'card N': what the card does, from the library's card table
 * of the game's edition (stpete_game_card_info, §2, §11), and what it costs the person now (§5, §6). */
static int cmd_card(session *s, const char *arg)
{
    if (!arg[0]) {
        int cards[2 * STPETE_BOARD_SIZE + 1 + STPETE_MAX_HAND];
        const char *where[sizeof cards / sizeof *cards];
        size_t n = cards_in_play(s, cards, where, sizeof cards / sizeof *cards);
        say(s, "Cards in play (type 'card N' or 'card NAME'; any card of the game has a name):");
        for (size_t i = 0; i < n; i++) {
            char name[128];
            say(s, "  %2zu %s (%s)", i + 1, card_text(&s->ui, s->game, cards[i], name, sizeof name), where[i]);
        }
        return 0;
    }
    int card = card_named(s, arg);
    if (card < 0)
        return 0;
    stpete_card_info info = STPETE_CARD_INFO_INIT;
    stpete_card_get_info(stpete_game_edition(s->game), card, &info);
    static const char *const kinds[3] = { "worker", "building", "aristocrat" };
    char name[128];
    say_wrapped(s, "%s: %s %s (§%s), %d cop%s in the game", card_text(&s->ui, s->game, card, name, sizeof name),
        stpete_colour_name(info.colour), info.trading ? "trading card" : kinds[info.colour],
        info.trading ? "2.4" : info.colour == 0 ? "2.1" : info.colour == 1 ? "2.2" : "2.3", info.copies,
        info.copies == 1 ? "y" : "ies");
    say_wrapped(s, "  cost %d R; at each %s scoring it gives %d R and %d VP (§4.4)", info.cost,
        stpete_phase_name(info.colour), info.rubles, info.vp);
    if (info.trading) { /* its targets: the types stpete_state_price accepts as displaced (§6.2) */
        char list[1024] = "";
        size_t len = 0;
        for (int t = 0; t < STPETE_NUM_CARD_TYPES; t++) {
            int price;
            if (stpete_state_price(s->st, s->seat, card, STPETE_SOURCE_UPPER, t, &price) == STPETE_OK &&
                len < sizeof list)
                len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", len ? ", " : "",
                                        cli_card_name(s->game, t));
        }
        say_wrapped(s, "  displaces one of: %s (§6.2); its price is its cost minus the displaced card's value (§5.2)", list);
    }
    if (info.special > 0 && (size_t)info.special < sizeof special_texts / sizeof *special_texts &&
        special_texts[info.special])
        say_wrapped(s, "  special: %s", special_texts[info.special]);
    int cards[2 * STPETE_BOARD_SIZE + 1 + STPETE_MAX_HAND];
    const char *where[sizeof cards / sizeof *cards];
    size_t n = cards_in_play(s, cards, where, sizeof cards / sizeof *cards);
    for (size_t i = 0; i < n; i++) {
        if (cards[i] != card || (i > 0 && cards[i - 1] == card && where[i - 1] == where[i]))
            continue; /* once per place */
        int source = !strcmp(where[i], "lower row") ? STPETE_SOURCE_LOWER : !strcmp(where[i], "upper row") ?
                     STPETE_SOURCE_UPPER : !strcmp(where[i], "your hand") ? STPETE_SOURCE_HAND :
                     STPETE_SOURCE_OBSERVATORY;
        if (!info.trading) {
            int price = 0;
            stpete_state_price(s->st, s->seat, card, source, -1, &price);
            say(s, "  in the %s: your price %d R (§5.1)", where[i], price);
            continue;
        }
        stpete_displacement d[STPETE_NUM_CARD_TYPES];
        size_t k = 0;
        stpete_state_displacements(s->st, s->seat, card, source, d, STPETE_NUM_CARD_TYPES, &k);
        if (!k)
            say(s, "  in the %s: nothing in your display it could displace (§6.1)", where[i]);
        for (size_t j = 0; j < k; j++)
            say(s, "  in the %s: your price %d R displacing %s", where[i], d[j].price,
                cli_card_name(s->game, d[j].displaced));
    }
    return 0;
}

static int cmd_load(session *s, const char *arg)
{
    if (!arg[0]) {
        say(s, "load needs a file name: load FILE");
        return 0;
    }
    stpete_game *game = NULL;
    stpete_state *st = NULL;
    char why[512];
    if (load_state(arg, &game, &st, why, sizeof why) != 0) {
        say(s, "Not loaded: %s. Your game goes on.", why);
        return 0;
    }
    int players = stpete_game_num_players(game);
    if (s->seat >= players) {
        say(s, "Not loaded: %s is a %d-player game and you play seat %d (restart with --load and --seat). Your "
               "game goes on.", arg, players, s->seat);
        stpete_state_free(st);
        stpete_game_free(game);
        return 0;
    }
    stpete_bot *bots[STPETE_MAX_PLAYERS] = { 0 }, *hint = NULL;
    char names[STPETE_MAX_PLAYERS][STPETE_BOT_SPEC_MAX] = { { 0 } };
    if (make_bots(s, game, bots, names, &hint, why, sizeof why) != 0) {
        free_bots(bots, hint);
        stpete_state_free(st);
        stpete_game_free(game);
        say(s, "Not loaded: %s. Your game goes on.", why);
        return 0;
    }
    stpete_options opts;
    stpete_options_init(&opts);
    stpete_game_get_options(game, &opts);
    free_bots(s->bots, s->hint_bot);
    stpete_state_free(s->st);
    stpete_game_free(s->game);
    memcpy(s->bots, bots, sizeof bots);
    memcpy(s->bot_names, names, sizeof names);
    s->hint_bot = hint;
    s->game = game;
    s->st = st;
    s->players = players;
    s->cfg.public_rubles = opts.public_rubles;
    s->cfg.public_hands = opts.public_hands;
    s->seed = 0;
    s->loaded = 1;
    s->moves_n = 0; /* a loaded game has no history to undo (stpete_state_history) */
    log_clear(s);
    stpete_state_set_event_callback(s->st, on_event, s);
    char line[256];
    snprintf(line, sizeof line, "loaded %s: round %d, %s phase", arg, stpete_state_round(st),
             stpete_phase_name(stpete_state_phase(st)));
    log_append(s, line);
    s->redraw = 1;
    return 0;
}

static int cmd_quit(session *s, const char *arg)
{
    (void)arg;
    save_on_exit(s, "Quit");
    return 1;
}

/* ---- reading what the person typed ------------------------------------------------------------------------ */

/* Lower case, blanks collapsed to one space, trimmed. */
static void normalise(const char *in, char *out, size_t size)
{
    size_t n = 0;
    int space = 0;
    for (; *in && n + 1 < size; in++) {
        if (isspace((unsigned char)*in)) {
            space = n > 0;
            continue;
        }
        if (space && n + 2 < size)
            out[n++] = ' ';
        space = 0;
        out[n++] = (char)tolower((unsigned char)*in);
    }
    out[n] = '\0';
}

/* Whether every word of typed is a prefix of a word of action, in order ("b wea low" for "buy Weaving Mill from
 * lower"). Both normalised. */
static int words_match(const char *typed, const char *action)
{
    const char *a = action;
    while (*typed) {
        size_t tl = strcspn(typed, " ");
        int found = 0;
        while (*a) {
            size_t al = strcspn(a, " ");
            const char *word = a;
            a += al;
            while (*a == ' ')
                a++;
            if (tl <= al && !strncmp(word, typed, tl)) {
                found = 1;
                break;
            }
        }
        if (!found)
            return 0;
        typed += tl;
        while (*typed == ' ')
            typed++;
    }
    return 1;
}

/* The legal action the person means by typed: a number, the whole action, a prefix only one action has, or the
 * first letters of its words. Returns the id, or -1 after saying why not. */
static int match_action(session *s, const char *typed)
{
    int ids[STPETE_MAX_LEGAL_ACTIONS];
    size_t n = 0;
    stpete_state_legal_actions(s->st, ids, STPETE_MAX_LEGAL_ACTIONS, &n);
    char want[256];
    normalise(typed, want, sizeof want);
    size_t digits = strspn(want, "0123456789");
    if (digits && !want[digits]) {
        long k = digits < 5 ? strtol(want, NULL, 10) : 0;
        size_t base = first_number(s);
        if (k >= (long)base && (size_t)k < n + base)
            return ids[(size_t)k - base];
        say(s, "There is no action number %s: the legal actions are numbered %zu to %zu.", want, base, n + base - 1);
        return -1;
    }
    char strings[STPETE_MAX_LEGAL_ACTIONS][STPETE_ACTION_STRING_MAX];
    for (size_t i = 0; i < n; i++) {
        char raw[STPETE_ACTION_STRING_MAX];
        stpete_action_to_string(stpete_game_edition(s->game), ids[i], raw, sizeof raw);
        normalise(raw, strings[i], sizeof strings[i]);
        if (!strcmp(strings[i], want))
            return ids[i];
    }
    size_t cand[STPETE_MAX_LEGAL_ACTIONS], nc = 0;
    for (size_t i = 0; i < n; i++)
        if (!strncmp(strings[i], want, strlen(want)))
            cand[nc++] = i;
    if (nc == 0)
        for (size_t i = 0; i < n; i++)
            if (words_match(want, strings[i]))
                cand[nc++] = i;
    if (nc == 1)
        return ids[cand[0]];
    if (nc > 1) {
        say(s, "'%s' is ambiguous: %zu legal actions match. Type more of it, or a number:", typed, nc);
        for (size_t k = 0; k < nc && k < 12; k++) {
            char text[256];
            action_text(s, ids[cand[k]], text, sizeof text);
            say(s, "  %3zu %s", cand[k] + first_number(s), text);
        }
        if (nc > 12)
            say(s, "  ... and %zu more", nc - 12);
        return -1;
    }
    /* No legal action: an action of the game that is not legal now gets the library's reason. */
    int id;
    if (stpete_action_from_string(want, &id) == STPETE_OK) {
        if (cli_legal(s->st, id))
            return id;
        stpete_state_apply(s->st, id); /* refused, the state unchanged: for the library's reason */
        say(s, "Not now: %s", stpete_state_last_error(s->st));
        return -1;
    }
    /* Near misses: the actions that start with the same word. */
    size_t first = strcspn(want, " ");
    nc = 0;
    for (size_t i = 0; i < n; i++)
        if (first && !strncmp(strings[i], want, first) && (strings[i][first] == ' ' || !strings[i][first]))
            cand[nc++] = i;
    if (nc) {
        say(s, "No legal action is '%s'. Legal actions that start with '%.*s':", typed, (int)first, want);
        for (size_t k = 0; k < nc && k < 12; k++) {
            char text[256];
            action_text(s, ids[cand[k]], text, sizeof text);
            say(s, "  %3zu %s", cand[k] + first_number(s), text);
        }
        if (nc > 12)
            say(s, "  ... and %zu more", nc - 12);
    } else {
        char list[256] = "";
        for (size_t i = 0; i < NUM_COMMANDS; i++) {
            strcat(list, i ? ", " : "");
            strcat(list, commands[i].name);
        }
        say(s, "'%s' is neither a command (%s) nor a legal action: type a number from %zu to %zu, or an action as "
               "listed.", typed, list, first_number(s), n + first_number(s) - 1);
    }
    return -1;
}

/* Handle one line; returns 1 to leave the program. */
static int handle_line(session *s, const char *line)
{
    char word[32];
    size_t lead = strspn(line, " \t");
    size_t wl = strcspn(line + lead, " \t\r\n");
    if (wl == 0)
        return 0;
    snprintf(word, sizeof word, "%.*s", (int)(wl < sizeof word ? wl : sizeof word - 1), line + lead);
    const char *arg = line + lead + wl;
    arg += strspn(arg, " \t");
    char argbuf[4096];
    snprintf(argbuf, sizeof argbuf, "%s", arg);
    argbuf[strcspn(argbuf, "\r\n")] = '\0';
    for (size_t len = strlen(argbuf); len && isspace((unsigned char)argbuf[len - 1]); len--)
        argbuf[len - 1] = '\0';
    if (!strcmp(word, "?"))
        snprintf(word, sizeof word, "help");
    if (!strcasecmp(word, "exit"))
        snprintf(word, sizeof word, "quit");
    for (size_t i = 0; i < NUM_COMMANDS; i++)
        if (!strcasecmp(word, commands[i].name))
            return commands[i].run(s, argbuf);
    char typed[4096];
    snprintf(typed, sizeof typed, "%s", line + lead);
    typed[strcspn(typed, "\r\n")] = '\0';
    int id = match_action(s, typed);
    if (id < 0)
        return 0;
    s->log_mark = s->log_n; /* the person's own move opens the next log */
    size_t before = 0;
    stpete_state_history(s->st, NULL, 0, &before);
    if (stpete_state_apply(s->st, id) != STPETE_OK) {
        say(s, "Not applied: %s", stpete_state_last_error(s->st));
        return 0;
    }
    s->redraw = 1;
    if (s->moves_n == s->moves_cap) { /* remember where the move began, for undo */
        size_t cap = s->moves_cap ? 2 * s->moves_cap : 64;
        size_t *m = realloc(s->moves, cap * sizeof *m);
        if (!m)
            return 0; /* the move stands; it cannot be undone */
        s->moves = m;
        s->moves_cap = cap;
    }
    s->moves[s->moves_n++] = before;
    return 0;
}

/* ---- the game --------------------------------------------------------------------------------------------- */

static int start_game(session *s, char *why, size_t size)
{
    if (s->cfg.load) {
        if (load_state(s->cfg.load, &s->game, &s->st, why, size) != 0)
            return -1;
        s->loaded = 1;
        s->players = stpete_game_num_players(s->game);
        if (s->seat >= s->players) {
            snprintf(why, size, "%s is a %d-player game: --seat must be 0..%d", s->cfg.load, s->players,
                     s->players - 1);
            return -1;
        }
        stpete_options opts;
        stpete_options_init(&opts);
        stpete_game_get_options(s->game, &opts);
        s->cfg.public_rubles = opts.public_rubles;
        s->cfg.public_hands = opts.public_hands;
        stpete_state_set_event_callback(s->st, on_event, s);
        char line[4200];
        snprintf(line, sizeof line, "loaded %s: round %d, %s phase", s->cfg.load, stpete_state_round(s->st),
                 stpete_phase_name(stpete_state_phase(s->st)));
        log_append(s, line);
    } else {
        stpete_options opts;
        stpete_options_init(&opts);
        opts.players = s->cfg.players;
        opts.seed = s->seed;
        opts.public_rubles = s->cfg.public_rubles;
        opts.public_hands = s->cfg.public_hands;
        opts.edition = s->cfg.edition ? s->cfg.edition : 1;
        int rc = stpete_game_new(&opts, &s->game, NULL);
        if (rc == STPETE_OK) /* the callback is set before the deal: the log starts with the setup (§3) */
            rc = stpete_state_new_with_callback(s->game, on_event, s, &s->st, NULL);
        if (rc != STPETE_OK) {
            snprintf(why, size, "cannot start a game: %s", stpete_strerror(rc));
            return -1;
        }
        s->players = s->cfg.players;
    }
    return make_bots(s, s->game, s->bots, s->bot_names, &s->hint_bot, why, size);
}

/* Standard input, read with read(2) into our own buffer (not stdio), so that waiting for it can be pselect(2)
 * with the signals unblocked: they are blocked everywhere else, so a Ctrl-C is either caught while waiting (and
 * interrupts the wait) or left pending until the next wait. No signal is lost between a check and a read. */
typedef struct input {
    char *buf;
    size_t len, cap;
    int eof;
    sigset_t wait_mask; /* the mask while waiting: our signals unblocked */
} input;

/* The next line, without its newline, in in->buf (valid until the next call; *consumed bytes are dropped then).
 * 1 = a line, 0 = end of input, -1 = interrupted by a signal, -2 = a read error. */
static int input_line(input *in, size_t *consumed)
{
    if (*consumed) {
        memmove(in->buf, in->buf + *consumed, in->len - *consumed);
        in->len -= *consumed;
        *consumed = 0;
    }
    for (;;) {
        char *nl = in->len ? memchr(in->buf, '\n', in->len) : NULL;
        if (nl || (in->eof && in->len)) {
            size_t n = nl ? (size_t)(nl - in->buf) : in->len;
            if (nl)
                *nl = '\0';
            *consumed = nl ? n + 1 : n;
            return 1;
        }
        if (in->eof)
            return 0;
        if (in->cap - in->len < 1024) {
            size_t cap = in->cap ? 2 * in->cap : 4096;
            char *b = realloc(in->buf, cap + 1);
            if (!b)
                return -2;
            in->buf = b;
            in->cap = cap;
        }
        fd_set fds;
        FD_ZERO(&fds);
        FD_SET(STDIN_FILENO, &fds);
        if (pselect(STDIN_FILENO + 1, &fds, NULL, NULL, NULL, &in->wait_mask) < 0) {
            if (errno == EINTR)
                return -1;
            return -2;
        }
        ssize_t got = read(STDIN_FILENO, in->buf + in->len, in->cap - in->len);
        if (got < 0 && errno != EINTR && errno != EAGAIN)
            return -2;
        if (got == 0)
            in->eof = 1;
        if (got > 0)
            in->len += (size_t)got;
        in->buf[in->len] = '\0';
    }
}

/* Prompt and read one line; 1 = a line (in *line), 0 = end of input, -1 = interrupted by a signal. */
static int read_line(session *s, input *in, size_t *consumed, const char **line)
{
    fputs(PROMPT, s->ui.out);
    fflush(s->ui.out);
    int got = input_line(in, consumed);
    if (got <= 0) {
        fputc('\n', s->ui.out);
        if (got == -2)
            say(s, "Cannot read standard input: %s", strerror(errno));
        return got == -1 ? -1 : 0;
    }
    *line = in->buf;
    if (s->ui.echo) /* not typed on a terminal: show it, so that the output reads as a session */
        fprintf(s->ui.out, "%s\n", *line);
    return 1;
}

/* A signal that arrived while it was blocked (while the bots played): handled as if caught. */
static void check_pending(void)
{
    sigset_t pending;
    if (caught_signal || sigpending(&pending) != 0)
        return;
    static const int sigs[3] = { SIGINT, SIGTERM, SIGHUP };
    for (int i = 0; i < 3; i++)
        if (sigismember(&pending, sigs[i]) == 1)
            caught_signal = sigs[i];
}

/* The final table stays on the screen until a key is pressed (a closing terminal would take the scores with it):
 * on a terminal only, one key without Enter (no echo, not line by line); a signal or the end of input also ends
 * the wait. */
static void wait_for_key(session *s, const sigset_t *wait_mask)
{
    struct termios saved, raw;
    if (!s->ui.screen || !isatty(STDIN_FILENO) || tcgetattr(STDIN_FILENO, &saved) != 0)
        return;
    fprintf(s->ui.out, "%sPress any key to leave.%s", sgr_dim(&s->ui), sgr_reset(&s->ui)); /* the prompt's row */
    fflush(s->ui.out);
    raw = saved;
    raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
    raw.c_cc[VMIN] = 1;
    raw.c_cc[VTIME] = 0;
    tcsetattr(STDIN_FILENO, TCSANOW, &raw);
    fd_set fds;
    FD_ZERO(&fds);
    FD_SET(STDIN_FILENO, &fds);
    char key;
    if (pselect(STDIN_FILENO + 1, &fds, NULL, NULL, NULL, wait_mask) > 0 && read(STDIN_FILENO, &key, 1) < 0)
        key = 0; /* a read error ends the wait too */
    tcsetattr(STDIN_FILENO, TCSANOW, &saved);
    fputc('\n', s->ui.out);
}

static const char *signal_reason(int sig)
{
    return sig == SIGINT ? "Interrupted (Ctrl-C)" : sig == SIGHUP ? "Hung up (SIGHUP)" : "Terminated (SIGTERM)";
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
        if (cli_over(s->st)) {
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
    int rc = parse_args(argc, argv, &s.cfg);
    if (rc)
        return rc;
    if (s.cfg.help || s.cfg.version)
        return cli_common(PROGRAM, s.cfg.help ? "--help" : "--version", usage);
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
