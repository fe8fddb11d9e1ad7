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
 * progress (autosave file, --autosave) and print how to continue it with --load.
 *
 * A tool, not part of the library. Its modules, one role each:
 *   text.c      the terminal (size, colours), word-wrapped text, and the messages between prompts (say);
 *   session.c   the game, its bots, its log (the library's events), saving and loading;
 *   screen.c    drawing: the board, the players, the legal actions, the final table, full and compact layouts;
 *   commands.c  the command line of the game: the prompt's commands, and what was typed matched and run;
 *   input.c     standard input, the closing key, the signals caught while waiting;
 *   main.c      options, --help, the game loop, main.
 * Each module calls only those above it in this list (text.c calls none of them, main.c may call all): screen.c
 * shows the session, session.c does not draw. This header is internal to the program (not installed). */
#ifndef STPETE_TOOLS_PLAY_H
#define STPETE_TOOLS_PLAY_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <stpete/stpete.h>

#include <stpete/bots.h>

#include "cli.h"

#define PROGRAM "stpete-play"
#define MIN_WIDTH 80
#define MIN_HEIGHT 24
#define PROMPT "move> "
/* The library's bots (include/stpete/bots.h): a spec is KIND[:KEY=VALUE]... */
/* The bounds of any game the program plays, the New Society's included (§12): the legal actions, the card types
 * (62, §12.2.3), a row (10 cards at the 5-player opening, §12.3, R20) and a display (every card of 144). */
#define PLAY_MAX_LEGAL STPETE_MAX_LEGAL_ACTIONS_NEW_SOCIETY
#define PLAY_CARD_TYPES STPETE_NUM_CARD_TYPES_NEW_SOCIETY
#define PLAY_ROW_MAX 10
#define PLAY_DISPLAY_MAX STPETE_NUM_CARDS_NEW_SOCIETY
#define BOT_KINDS "random, greedy, mc, ismcts, learned; parameters after colons, e.g. ismcts:iterations=500"

/* The options (main.c). */
typedef struct play_config {
    cli_options game;   /* the game's options (the library's table: --players, --edition, --new-society, ...;
                           default 3 players); after a load, the loaded game's */
    int seat;
    const char *bots;   /* comma-separated opponent specs, repeated over the other seats */
    uint64_t seed;
    int seed_given;
    const char *load;
    const char *autosave;
    int plain;
    int help, version;
} play_config;

/* The terminal (text.c). */
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

/* A growing text with word wrapping at the terminal's width; escape sequences take no columns. */
typedef struct text {
    char *buf;
    size_t len, cap;
    int col, width, indent, lines;
    int slack; /* columns past width that a wrapped line's trailing mark (",") may take */
    int failed;
} text;

typedef struct session session;

/* The prompt's commands: a row each (the table is in commands.c). */
typedef struct command_def {
    const char *name;
    const char *arg;
    const char *help;
    int (*run)(session *s, const char *arg); /* returns 1 to leave the program */
} command_def;

/* One person's game: options, terminal, game and state, bots, log, autosave file (session.c); every module works
 * on it. */
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

/* Standard input, read with read(2) into our own buffer (not stdio), so that waiting for it can be pselect(2)
 * with the signals unblocked: they are blocked everywhere else, so a Ctrl-C is either caught while waiting (and
 * interrupts the wait) or left pending until the next wait. No signal is lost between a check and a read. */
typedef struct input {
    char *buf;
    size_t len, cap;
    int eof;
    sigset_t wait_mask; /* the mask while waiting: our signals unblocked */
} input;

/* ---- shared by the modules ---- */

/* input.c: the signal caught (SIGINT, SIGTERM, SIGHUP), 0 if none; set by the handler, read by the game loop. */
extern volatile sig_atomic_t caught_signal;
/* commands.c: the prompt's commands, num_commands rows. */
extern const command_def commands[];
extern const size_t num_commands;

/* text.c */
/* The terminal's abilities from the options, the environment (TERM, NO_COLOR, COLORTERM) and isatty. */
void ui_init(ui *u, const play_config *cfg);
/* The terminal's size now (it may have been resized since the last board). */
void ui_measure(ui *u);
/* SGR sequences; "" when colours are off. */
const char *sgr_colour(const ui *u, int colour);
/* Append bytes as they are (no wrapping); t->failed on out of memory. */
void tx_bytes(text *t, const char *s, size_t n);
/* Columns a string takes: escape sequences none, each UTF-8 character one. */
int visible_width(const char *s);
/* End the line. */
void tx_newline(text *t);
/* Append a piece that must not be split: on a new line (indented) if it does not fit after sep. */
void tx_piece(text *t, const char *sep, const char *piece);
/* Append formatted text as one piece, or several lines if it holds newlines. */
void tx_printf(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Append words, wrapped between them. */
void tx_words(text *t, const char *words);
/* Append formatted text wrapped between its words (blanks collapse). */
void tx_sentence(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Start a line with an indentation that wrapped pieces keep. */
void tx_line(text *t, int indent);
/* Free the text and zero it. */
void tx_free(text *t);
/* SGR sequences; "" when colours are off. */
const char *sgr_bold(const ui *u);
const char *sgr_dim(const ui *u);
const char *sgr_reset(const ui *u);
/* A message under the board, between two prompts. */
void say(session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* say(), wrapped between words at the terminal's width; continued lines indented 2 more than the first. */
void say_wrapped(session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A line of a list: "  HEAD", padded to head_width, then words wrapped between them at the terminal's width,
 * continued lines under the first word. */
void say_item(session *s, const char *head, int head_width, const char *words);
/* session.c */
/* The event callback: one log line per event, in the library's words (stpete_event_to_string()). The deals of
 * one step are gathered on one line; a displacement is already part of its buy or play line. Another seat's
 * rubles are left out unless they are public (§9): the line is then made without the state. */
void session_on_event(const stpete_state *st, const stpete_event *ev, void *user);
/* Append a copy of line to the game's log. 0, or -1 on out of memory. */
int log_append(session *s, const char *line);
/* Empty the log (its array stays allocated). */
void log_clear(session *s);
/* "seat 1" for others, "seat 0 (you)" for the person. */
const char *seat_label(const session *s, int seat, char *buf, size_t size);
/* Create the opponents of the seats other than the person's, and the hint bot. */
int make_bots(session *s, const stpete_game *game, stpete_bot **bots, char names[][STPETE_BOT_SPEC_MAX],
              stpete_bot **hint, char *msg, size_t size);
/* Free the opponents (setting them NULL) and the hint bot. */
void free_bots(stpete_bot **bots, stpete_bot *hint);
/* Create the directories above path (mkdir -p of its dirname). 0, or -1 with errno. */
int mkdir_parents(const char *path);
/* Write the state as JSON (stpete_state_to_json()) to path, through a temporary file renamed over it, so that a
 * failure leaves an older save intact. Returns 0, or -1 with why. */
int save_state(const stpete_state *st, const char *path, char *why, size_t size);
/* Read a saved game: its game (stpete_game_from_json()) and state (stpete_state_from_json()). */
int load_state(const char *path, stpete_game **game, stpete_state **st, char *why, size_t size);
/* The autosave file: --autosave, else $XDG_STATE_HOME/stpete/autosave.json, ~/.local/state/stpete/autosave.json or
 * ./stpete-autosave.json. */
void autosave_path(session *s);
/* How to go on with a saved game. */
void say_resume(session *s, const char *path);
/* Save a game in progress on the way out (quit, end of input, a signal): the autosave file, else the current
 * directory, else the JSON on standard error. */
void save_on_exit(session *s, const char *reason);
/* A new game from the options, or the --load file, with the event callback and the bots. 0, or -1 with why. */
int start_game(session *s, char *why, size_t size);
void play_options(const play_config *cfg, stpete_options *opts);
/* screen.c */
/* A card's name in its colour (workers green, buildings blue, aristocrats orange; trading cards their colour). */
const char *card_text(const ui *u, const stpete_game *game, int card, char *buf, size_t size);
const char *screen_card_name(const stpete_game *game, int card);
/* The number of the first listed action: 1, except in a Pub decision (§7.2), where the number of "pub k" is k, the
 * VP bought. */
size_t first_number(const session *s);
/* The text of a legal action with its card names coloured and its price (stpete_state_action_price()). */
void action_text(const session *s, int id, char *buf, size_t size);
/* Draw everything the person needs to decide (or the final scores), after what happened since the last board:
 * the full layout when it fits the terminal, else the compact one (4 players in 80x24). */
void draw_screen(session *s);
/* commands.c */
/* Handle one line; returns 1 to leave the program. */
int handle_line(session *s, const char *line);
/* input.c */
/* The handler of SIGINT, SIGTERM and SIGHUP: records the signal in caught_signal. */
void on_signal(int sig);
/* Prompt and read one line; 1 = a line (in *line), 0 = end of input, -1 = interrupted by a signal. */
int read_line(session *s, input *in, size_t *consumed, const char **line);
/* A signal that arrived while it was blocked (while the bots played): handled as if caught. */
void check_pending(void);
/* The final table stays on the screen until a key is pressed (a closing terminal would take the scores with it):
 * on a terminal only, one key without Enter (no echo, not line by line); a signal or the end of input also ends
 * the wait. */
void wait_for_key(session *s, const sigset_t *wait_mask);
/* How a signal is named in the goodbye message ("Interrupted (Ctrl-C)", ...). */
const char *signal_reason(int sig);

#endif
