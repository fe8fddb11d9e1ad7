/* stpete-play: the command line of the game: the prompt's commands (help, card, hint, board, log, save, load,
 * undo, quit) and what the person typed, matched to a legal action or a command and run. */

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

static int cmd_help(session *s, const char *arg);
static int cmd_hint(session *s, const char *arg);
static int cmd_board(session *s, const char *arg);
static int cmd_log(session *s, const char *arg);
static int cmd_save(session *s, const char *arg);
static int cmd_load(session *s, const char *arg);
static int cmd_quit(session *s, const char *arg);
static int cmd_undo(session *s, const char *arg);
static int cmd_card(session *s, const char *arg);

const command_def commands[] = {
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
const size_t num_commands = sizeof commands / sizeof *commands;
#define NUM_COMMANDS num_commands

/* ---- commands --------------------------------------------------------------------------------------------- */

static int cmd_help(session *s, const char *arg)
{
    (void)arg;
    /* wrapped between words at the terminal's width (issue 33: the terminal broke the long lines mid-word) */
    say_wrapped(s, "On your turn, type the number of a legal action, or an action: its words as listed (\"take "
                   "Market from lower\"), or any prefix that only one legal action has (\"take m\"), or the first "
                   "letters of its words (\"b wea low\").");
    say(s, "Commands:");
    for (size_t i = 0; i < NUM_COMMANDS; i++) {
        char head[64];
        snprintf(head, sizeof head, "%s%s%s", commands[i].name, commands[i].arg[0] ? " " : "", commands[i].arg);
        say_item(s, head, 13, commands[i].help);
    }
    say_wrapped(s, "The rules: doc/rules.md (installed in share/doc/libstpete/); prices follow §5, displacement §6.");
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
    int ids[PLAY_MAX_LEGAL];
    size_t n = 0, number = 0;
    stpete_state_legal_actions(s->st, ids, PLAY_MAX_LEGAL, &n);
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
    for (size_t i = 0; i < s->log_n; i++) /* wrapped as help is: the terminal would break a long line mid-word */
        say_wrapped(s, "  %s", s->log[i]);
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

/* The cards the person can see in play, in the order 'card' numbers them: both rows, the Observatory card, the
 * person's hand. Returns the count; where[i] names the place, sources[i] its stpete_source. */
static size_t cards_in_play(const session *s, int *cards, const char **where, int *sources, size_t cap)
{
    size_t n = 0, k = 0;
    int list[PLAY_ROW_MAX];
    for (int row = STPETE_SOURCE_UPPER; row <= STPETE_SOURCE_LOWER; row++) {
        stpete_state_row(s->st, row, list, PLAY_ROW_MAX, &k);
        for (size_t i = 0; i < k && n < cap; i++, n++)
            cards[n] = list[i], where[n] = row == STPETE_SOURCE_UPPER ? "upper row" : "lower row", sources[n] = row;
    }
    int drawn = stpete_state_observatory_card(s->st);
    if (drawn >= 0 && n < cap)
        cards[n] = drawn, where[n] = "Observatory card", sources[n++] = STPETE_SOURCE_OBSERVATORY;
    int picked = stpete_state_prison_card(s->st); /* the New Society's Debtor's Prison (§12.7.5) */
    if (picked >= 0 && n < cap)
        cards[n] = picked, where[n] = "Debtor's Prison card", sources[n++] = STPETE_SOURCE_DISCARD;
    stpete_state_hand(s->st, s->seat, list, STPETE_MAX_HAND, &k);
    for (size_t i = 0; i < k && n < cap; i++, n++)
        cards[n] = list[i], where[n] = "your hand", sources[n] = STPETE_SOURCE_HAND;
    return n;
}

/* The card a 'card' argument names: a number of the list, or a card name of the game's edition (any case; a
 * prefix only one card name has). -1 after saying why not. */
static int card_named(session *s, const char *arg)
{
    int cards[2 * PLAY_ROW_MAX + 2 + STPETE_MAX_HAND], sources[sizeof cards / sizeof *cards];
    const char *where[sizeof cards / sizeof *cards];
    size_t n = cards_in_play(s, cards, where, sources, sizeof cards / sizeof *cards);
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
    for (int c = 0; c < stpete_game_num_card_types(s->game); c++) {
        const char *name = screen_card_name(s->game, c);
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

/* What a card is (§2): its colour, stack and copies, cost and income (the library's card table), and what it does
 * (stpete_game_card_text(): what it displaces, §6.2, and its special ability, §7, §12.7). Into info. */
static void say_card(session *s, int card, stpete_card_info *info)
{
    stpete_game_get_card_info(s->game, card, info);
    char name[128], text[STPETE_CARD_TEXT_MAX];
    size_t len = 0;
    say_wrapped(s, "%s: %s %scard of the %s stack, %d cop%s in the game",
                card_text(&s->ui, s->game, card, name, sizeof name), stpete_colour_name(info->colour),
                info->trading ? "trading " : "", stpete_stack_name(info->stack), info->copies,
                info->copies == 1 ? "y" : "ies");
    say_wrapped(s, "  cost %d R; at each %s scoring it gives %+d R and %+d VP (§4.4)", info->cost,
                stpete_phase_name(info->colour), info->rubles, info->vp);
    if (stpete_game_card_text(s->game, card, text, sizeof text, &len) == STPETE_OK && len)
        say_wrapped(s, "  %s", text);
}

/* The person's price for the card in each place it is in play (§5), for a trading card per card it would displace
 * (§5.2, §6): the library's offers of the person (stpete_state_offers()). */
static void say_card_prices(session *s, int card, const stpete_card_info *info)
{
    int cards[2 * PLAY_ROW_MAX + 2 + STPETE_MAX_HAND], sources[sizeof cards / sizeof *cards];
    const char *where[sizeof cards / sizeof *cards];
    size_t n = cards_in_play(s, cards, where, sources, sizeof cards / sizeof *cards);
    stpete_offer offers[STPETE_MAX_OFFERS];
    size_t count = 0;
    stpete_state_offers(s->st, s->seat, offers, STPETE_MAX_OFFERS, &count);
    for (size_t i = 0; i < n; i++) {
        if (cards[i] != card || (i > 0 && cards[i - 1] == card && where[i - 1] == where[i]))
            continue; /* once per place */
        size_t said = 0;
        for (size_t j = 0; j < count; j++) {
            if (offers[j].source != sources[i] || offers[j].card != card)
                continue;
            if (info->trading)
                say(s, "  in the %s: your price %d R displacing %s", where[i], offers[j].price,
                    screen_card_name(s->game, offers[j].displaced));
            else
                say(s, "  in the %s: your price %d R (§5.1)", where[i], offers[j].price);
            said++;
        }
        if (!said)
            say(s, "  in the %s: %s", where[i], info->trading && sources[i] != STPETE_SOURCE_OBSERVATORY &&
                sources[i] != STPETE_SOURCE_DISCARD ? "nothing in your display it could displace (§6.1)"
                                                    : "not yours to buy (its owner decides, §7.1, §12.7.5)");
    }
}

/* 'card': the cards in play, numbered; 'card NAME' or 'card N': what the card is and does (the library's card
 * table and text, §2, §6.2, §7, §11, §12.7) and what it costs the person now (the library's offers, §5, §6). */
static int cmd_card(session *s, const char *arg)
{
    if (!arg[0]) {
        int cards[2 * PLAY_ROW_MAX + 2 + STPETE_MAX_HAND], sources[sizeof cards / sizeof *cards];
        const char *where[sizeof cards / sizeof *cards];
        size_t n = cards_in_play(s, cards, where, sources, sizeof cards / sizeof *cards);
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
    say_card(s, card, &info);
    say_card_prices(s, card, &info);
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
    free_bots(s->bots, s->hint_bot);
    stpete_state_free(s->st);
    stpete_game_free(s->game);
    memcpy(s->bots, bots, sizeof bots);
    memcpy(s->bot_names, names, sizeof names);
    s->hint_bot = hint;
    s->game = game;
    s->st = st;
    s->players = players;
    stpete_game_get_options(game, &s->cfg.game.opts); /* the loaded game's options (what the screen shows) */
    s->seed = 0;
    s->loaded = 1;
    s->moves_n = 0; /* a loaded game has no history to undo (stpete_state_history) */
    log_clear(s);
    stpete_state_set_event_callback(s->st, session_on_event, s);
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

/* The legal actions ids[cand[0..nc)] with their numbers, the first 12 of them. */
static void say_candidates(session *s, const int *ids, const size_t *cand, size_t nc)
{
    for (size_t k = 0; k < nc && k < 12; k++) {
        char text[256];
        action_text(s, ids[cand[k]], text, sizeof text);
        say(s, "  %3zu %s", cand[k] + first_number(s), text);
    }
    if (nc > 12)
        say(s, "  ... and %zu more", nc - 12);
}

/* What was typed matches no legal action: an action of the game that is not legal now gets the library's reason
 * (or is played, if it is legal under another spelling); else the legal actions that start with the same word,
 * or what can be typed. Returns the action id, or -1. */
static int refuse_typed(session *s, const char *typed, const char *want, const int *ids,
                        char (*strings)[STPETE_ACTION_STRING_MAX], size_t n)
{
    size_t cand[PLAY_MAX_LEGAL], nc = 0;
    /* No legal action: an action of the game that is not legal now gets the library's reason. */
    int id;
    if (stpete_action_from_string(want, &id) == STPETE_OK) {
        if (stpete_state_is_legal_or(s->st, id, 0))
            return id;
        stpete_state_apply(s->st, id); /* refused, the state unchanged: for the library's reason */
        say(s, "Not now: %s", stpete_state_last_error(s->st));
        return -1;
    }
    /* Near misses: the actions that start with the same word. */
    size_t first = strcspn(want, " ");
    for (size_t i = 0; i < n; i++)
        if (first && !strncmp(strings[i], want, first) && (strings[i][first] == ' ' || !strings[i][first]))
            cand[nc++] = i;
    if (nc) {
        say(s, "No legal action is '%s'. Legal actions that start with '%.*s':", typed, (int)first, want);
        say_candidates(s, ids, cand, nc);
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

/* The legal action the person means by typed: a number, the whole action, a prefix only one action has, or the
 * first letters of its words. Returns the id, or -1 after saying why not. */
static int match_action(session *s, const char *typed)
{
    int ids[PLAY_MAX_LEGAL];
    size_t n = 0;
    stpete_state_legal_actions(s->st, ids, PLAY_MAX_LEGAL, &n);
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
    char strings[PLAY_MAX_LEGAL][STPETE_ACTION_STRING_MAX];
    for (size_t i = 0; i < n; i++) {
        char raw[STPETE_ACTION_STRING_MAX];
        stpete_action_to_string(stpete_game_edition(s->game), ids[i], raw, sizeof raw);
        normalise(raw, strings[i], sizeof strings[i]);
        if (!strcmp(strings[i], want))
            return ids[i];
    }
    size_t cand[PLAY_MAX_LEGAL], nc = 0;
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
        say_candidates(s, ids, cand, nc);
        return -1;
    }
    return refuse_typed(s, typed, want, ids, strings, n);
}

/* Handle one line; returns 1 to leave the program. */
int handle_line(session *s, const char *line)
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
