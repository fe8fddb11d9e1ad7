/* stpete-play: drawing the screen: the board, the players, the legal actions, the final table, and the
 * layouts (full, compact for a small terminal) chosen from the terminal's size. */

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

/* ---- drawing ---------------------------------------------------------------------------------------------- */

/* A card's name in its colour (workers green, buildings blue, aristocrats orange; trading cards their colour). */
const char *card_text(const ui *u, const stpete_game *game, int card, char *buf, size_t size)
{
    stpete_card_info info = STPETE_CARD_INFO_INIT;
    stpete_game_get_card_info(game, card, &info); /* the name of the game's edition (§11) or expansion (§12) */
    snprintf(buf, size, "%s%s%s", sgr_colour(u, info.colour), info.name, u->colour ? sgr_reset(u) : "");
    return buf;
}

/* A card's name as the game prints it (stpete_game_get_card_info(): §2, §11, §12.2), "?" for no card. */
const char *screen_card_name(const stpete_game *game, int card)
{
    stpete_card_info info = STPETE_CARD_INFO_INIT;
    return stpete_game_get_card_info(game, card, &info) == STPETE_OK ? info.name : "?";
}

/* One board card as the person sees it: its price for the person (§5), and for a trading card each card of the
 * person's display it could displace with that price (§5.2, §6.2): the library's offers of the person (offers,
 * stpete_state_offers()), those of this card in this row. */
static void draw_board_card(text *t, const session *s, int card, int row, const stpete_offer *offers, size_t count,
                            const char *sep)
{
    char name[128], piece[512];
    stpete_card_info info = STPETE_CARD_INFO_INIT;
    stpete_game_get_card_info(s->game, card, &info);
    card_text(&s->ui, s->game, card, name, sizeof name);
    const stpete_offer *d[PLAY_CARD_TYPES];
    size_t targets = 0;
    for (size_t i = 0; i < count && targets < PLAY_CARD_TYPES; i++)
        if (offers[i].source == row && offers[i].card == card)
            d[targets++] = &offers[i];
    if (!info.trading) {
        snprintf(piece, sizeof piece, "%s %d R", name, targets ? d[0]->price : 0);
        tx_piece(t, sep, piece);
        return;
    }
    int len = snprintf(piece, sizeof piece, "%s (trading)", name);
    if (s->ui.compact && targets) { /* the cheapest; 'card NAME' shows each */
        int low = d[0]->price;
        for (size_t i = 1; i < targets; i++)
            low = d[i]->price < low ? d[i]->price : low;
        snprintf(piece, sizeof piece, "%s %s%d R", name, targets > 1 ? "from " : "", low);
    }
    if (!targets)
        snprintf(s->ui.compact ? piece + strlen(name) : piece + len, sizeof piece - (size_t)len, " %s%s%s",
                 sgr_dim(&s->ui), s->ui.compact ? "(nothing to displace)" : "nothing of yours to displace",
                 sgr_reset(&s->ui));
    for (size_t i = 0; !s->ui.compact && i < targets; i++) { /* one piece per target: the line wraps between them */
        char tname[128], more[256];
        snprintf(i ? more : piece + len, i ? sizeof more : sizeof piece - (size_t)len, " %d R displacing %s",
                 d[i]->price, card_text(&s->ui, s->game, d[i]->displaced, tname, sizeof tname));
        if (i)
            tx_piece(t, ",", more);
        else
            tx_piece(t, sep, piece);
    }
    if (s->ui.compact || !targets)
        tx_piece(t, sep, piece);
}

/* The income of each seat at the next scoring (stpete_state_next_scoring(), stpete_state_income(): §4.4, §7.5,
 * §12.7), one piece each: "worker scoring: you +3 R, seat 1 +3 R +1 VP, ..." ("worker: ... s1" on a small
 * screen). Nothing once no scoring is left. */
static void draw_incomes(text *t, const session *s, int label)
{
    int phase = stpete_state_next_scoring(s->st);
    if (phase < 0)
        return;
    tx_line(t, 2);
    tx_printf(t, "next:");
    t->indent = label;
    while (t->col < label)
        tx_bytes(t, " ", 1), t->col++;
    tx_printf(t, "%s%s", stpete_phase_name(phase), s->ui.compact ? ":" : " scoring:");
    for (int seat = 0; seat < stpete_game_num_players(s->game); seat++) {
        int rubles = 0, vp = 0;
        char piece[96], who[32];
        stpete_state_income(s->st, seat, phase, &rubles, &vp);
        if (s->ui.compact) /* "s1": the 80x24 screen */
            snprintf(who, sizeof who, "s%d", seat);
        else
            seat_label(s, seat, who, sizeof who);
        int n = snprintf(piece, sizeof piece, "%s", seat == s->seat ? "you" : who);
        if (rubles)
            n += snprintf(piece + n, sizeof piece - (size_t)n, " %+d R", rubles); /* a Sycophant's: -1 R */
        if (vp)
            snprintf(piece + n, sizeof piece - (size_t)n, " %+d VP", vp);
        else if (!rubles) /* nothing: no unit, which would say what the phase pays (it read "+0 VP" at workers) */
            snprintf(piece + n, sizeof piece - (size_t)n, " +0");
        tx_piece(t, seat ? ", " : " ", piece);
    }
}

/* The stacks' sizes, the discard pile, the cards discarded last (the library's, stpete_state_last_discards()) and
 * the next scoring's incomes (draw_incomes); the most compact screen leaves the last two to 'board'. */
static void draw_stacks(text *t, const session *s, int label)
{
    int compact = s->ui.compact;
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
    for (int card = 0; card < stpete_game_num_card_types(s->game); card++)
        discarded += stpete_state_discard_count(s->st, card);
    char piece[64];
    snprintf(piece, sizeof piece, "| discard%s %d", compact ? "" : " pile", discarded);
    tx_piece(t, " ", piece);
    int last[PLAY_ROW_MAX + 2]; /* the cards discarded last: the library's (stpete_state_last_discards()); the
                                   most compact screen leaves them and the incomes to 'board' */
    size_t lasts = 0;
    if (compact < 2)
        stpete_state_last_discards(s->st, last, PLAY_ROW_MAX + 2, &lasts);
    for (size_t i = 0; i < lasts; i++) {
        char name[128], piece[192];
        snprintf(piece, sizeof piece, "%s%s%s", i ? "" : "last: ", card_text(&s->ui, s->game, last[i], name, sizeof name),
                 i + 1 < lasts ? "," : "");
        tx_piece(t, i ? " " : ", ", piece);
    }
    if (compact < 2)
        draw_incomes(t, s, label);
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
    stpete_offer offers[STPETE_MAX_OFFERS]; /* what each card costs the person: the library's offers */
    size_t count = 0;
    stpete_state_offers(s->st, s->seat, offers, STPETE_MAX_OFFERS, &count);
    for (int row = STPETE_SOURCE_UPPER; row <= STPETE_SOURCE_LOWER; row++) {
        int cards[PLAY_ROW_MAX];
        size_t n = 0;
        stpete_state_row(s->st, row, cards, PLAY_ROW_MAX, &n);
        tx_line(t, 2);
        tx_printf(t, "%s:", compact ? stpete_source_name(row) : row_names[row]);
        t->indent = label;
        while (t->col < label)
            tx_bytes(t, " ", 1), t->col++;
        if (!n)
            tx_piece(t, "", "(empty)");
        for (size_t i = 0; i < n; i++)
            draw_board_card(t, s, cards[i], row, offers, count, i ? " | " : "");
    }
    draw_stacks(t, s, label);
    int drawn = stpete_state_observatory_card(s->st);
    if (drawn >= 0) {
        char name[128], who[32];
        tx_line(t, 2);
        tx_sentence(t, "Observatory card: %s, drawn by %s", card_text(&s->ui, s->game, drawn, name, sizeof name),
                    seat_label(s, stpete_state_current_player(s->st), who, sizeof who));
    }
    int picked = stpete_state_prison_card(s->st); /* the New Society's Debtor's Prison (§12.7.5, R21) */
    if (picked >= 0) {
        char name[128], who[32];
        tx_line(t, 2);
        tx_sentence(t, "Debtor's Prison card: %s, picked from the discard pile by %s",
                    card_text(&s->ui, s->game, picked, name, sizeof name),
                    seat_label(s, stpete_state_current_player(s->st), who, sizeof who));
    }
}

/* A player's line: the seat, its bot, rubles (§9: another seat's only when public), VP and hand (another seat's
 * cards by their backs, §9, unless hands are public). */
static void draw_player_head(text *t, const session *s, int seat)
{
    char who[32], piece[256];
    int vp = 0, cards[STPETE_MAX_HAND];
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
    int shown = 0; /* §9: whether this person sees the seat's rubles, the library's answer */
    if (stpete_state_rubles_visible(s->st, s->seat, seat, &shown) == STPETE_OK && shown)
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
        /* §9: the person's own hand, or every hand with the game's option (the library has no per-card answer yet,
         * issue 41; tests/checks/check-option-words.py lists this line) */
        if (seat == s->seat || s->cfg.game.opts.public_hands)
            snprintf(piece, sizeof piece, "%s%s", card_text(&s->ui, s->game, cards[i], name, sizeof name),
                     i + 1 < n ? "," : "");
        else { /* §9: the back of the card, that is its stack */
            stpete_card_info info = STPETE_CARD_INFO_INIT; /* the game's table: the New Society's cards too */
            int stack = stpete_game_get_card_info(s->game, cards[i], &info) == STPETE_OK ? info.stack : -1;
            snprintf(piece, sizeof piece, "%s[%s back]%s", sgr_colour(&s->ui, stack < 3 ? stack : -1),
                     stpete_stack_name(stack), stack < 3 ? sgr_reset(&s->ui) : "");
        }
        tx_piece(t, " ", piece);
    }
}

/* The start-player markers the seat holds. */
static void draw_markers(text *t, const session *s, int seat)
{
    char piece[256];
    int markers = 0;
    for (int phase = 0; phase < STPETE_NUM_PHASES; phase++)
        if (stpete_state_marker_holder(s->st, phase) == seat) {
            snprintf(piece, sizeof piece, "%s%s", markers ? "" : s->ui.compact ? "marker: " : "start-player marker: ",
                     stpete_phase_name(phase));
            tx_piece(t, markers ? ", " : "; ", piece);
            markers++;
        }
    if (stpete_state_gold_disc_holder(s->st) == seat) /* 5 players: the seat without a marker (§12.3, R18) */
        tx_piece(t, "; ", "gold disc");
}

/* The shortest display: the number of cards per colour, and of aristocrat kinds ('board' shows them all). */
static void draw_display_counts(text *t, const session *s, const int *cards, size_t n)
{
    char piece[256];
    int count[3] = { 0 }, kinds = 0;
    for (size_t i = 0; i < n; i++) {
        stpete_card_info info = STPETE_CARD_INFO_INIT;
        stpete_game_get_card_info(s->game, cards[i], &info);
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
}

/* The display's cards of one colour (§1), copies counted, a used Observatory said; the colour's name before its
 * first card (or "-" alone in the full layout). Returns how many colours are shown, shown included. */
static int draw_colour(text *t, const session *s, int seat, const int *cards, size_t n, int colour, int shown)
{
    char head[64], piece[256];
    snprintf(head, sizeof head, "%s%s:%s", sgr_colour(&s->ui, colour), stpete_colour_name(colour), sgr_reset(&s->ui));
    int any = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && cards[j] == cards[i])
            j++;
        stpete_card_info info = STPETE_CARD_INFO_INIT;
        stpete_game_get_card_info(s->game, cards[i], &info);
        if (info.colour == colour) {
            char name[128], extra[32] = "";
            int used = 0;
            if (cards[i] == STPETE_CARD_OBSERVATORY && stpete_state_observatories_used(s->st, seat) > 0)
                snprintf(extra, sizeof extra, " (%d used)", stpete_state_observatories_used(s->st, seat));
            else if (cards[i] == STPETE_CARD_DEBTORS_PRISON && stpete_state_is_prison_used(s->st, seat, &used) ==
                     STPETE_OK && used) /* §12.7.5, R22: not again, nor displaced, this round */
                snprintf(extra, sizeof extra, " (used)");
            if (j - i > 1)
                snprintf(piece, sizeof piece, "%zux %s%s", j - i, card_text(&s->ui, s->game, cards[i], name, sizeof name),
                         extra);
            else
                snprintf(piece, sizeof piece, "%s%s", card_text(&s->ui, s->game, cards[i], name, sizeof name), extra);
            if (!any) { /* the colour's name and its first card stay together */
                char first[320];
                snprintf(first, sizeof first, "%s %s", head, piece);
                tx_piece(t, shown ? "  " : s->ui.compact ? " | " : "", first);
                shown++;
            } else {
                tx_piece(t, ", ", piece);
            }
            any = 1;
        }
        i = j;
    }
    if (!any && !s->ui.compact) {
        char none[96];
        snprintf(none, sizeof none, "%s -", head);
        tx_piece(t, colour ? "  " : "", none);
    }
    return shown;
}

/* One player: its line (draw_player_head()), its markers and its display by colour, or in the shortest layout
 * another seat's display as counts. */
static void draw_player(text *t, const session *s, int seat)
{
    int cards[PLAY_DISPLAY_MAX];
    size_t n = 0;
    int compact = s->ui.compact;
    draw_player_head(t, s, seat);
    draw_markers(t, s, seat);
    /* the display, grouped by colour (§1); the display list is sorted by card type */
    stpete_state_display(s->st, seat, cards, PLAY_DISPLAY_MAX, &n);
    if (compact > 1 && (seat != s->seat || stpete_state_is_terminal_or(s->st, 1)) && n) { /* over: every seat */
        draw_display_counts(t, s, cards, n);
        return;
    }
    if (!compact)
        tx_line(t, 4);
    else if (!n)
        tx_piece(t, " | ", "display empty");
    t->indent = compact ? 4 : 6;
    int shown = 0; /* colours shown so far */
    for (int colour = 0; colour < 3; colour++)
        shown = draw_colour(t, s, seat, cards, n, colour, shown);
}

/* The number of the first listed action: 1, except in a Pub decision (§7.2), where the number of "pub k" is k, the
 * VP bought. */
size_t first_number(const session *s)
{
    int decision = stpete_state_decision(s->st);
    return decision == STPETE_DECISION_PUB || decision == STPETE_DECISION_GUILD_HALL ? 0 : 1;
}

/* The text of a legal action with its card names coloured and its price (stpete_state_action_price()). */
void action_text(const session *s, int id, char *buf, size_t size)
{
    char plain[STPETE_ACTION_STRING_MAX];
    stpete_action a;
    stpete_action_to_string(stpete_game_edition(s->game), id, plain, sizeof plain);
    stpete_action_decode(id, &a);
    int card = a.card >= 0 ? a.card : (a.kind == STPETE_ACTION_OBSERVATORY_TAKE ||
                                       a.kind == STPETE_ACTION_OBSERVATORY_DISCARD ?
                                       stpete_state_observatory_card(s->st) :
                                       a.kind == STPETE_ACTION_PRISON_TAKE || a.kind == STPETE_ACTION_PRISON_PUT_BACK ?
                                       stpete_state_prison_card(s->st) : -1);
    size_t len = 0;
    const char *p = plain;
    const int names[2] = { card, a.displaced };
    for (int k = 0; k < 2; k++) {
        const char *name = names[k] >= 0 ? screen_card_name(s->game, names[k]) : NULL;
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
    else if (a.kind == STPETE_ACTION_OBSERVATORY_TAKE || a.kind == STPETE_ACTION_OBSERVATORY_DISCARD ||
             a.kind == STPETE_ACTION_PRISON_TAKE || a.kind == STPETE_ACTION_PRISON_PUT_BACK) {
        /* "observatory take", "prison put back" name no card: say which */
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

/* The compact list of the legal actions: one after the other from the heading's line on, wrapped between items,
 * the choices of one card and row after one head; cut after ui.actions_shown items, with a note; the note of a
 * log that did not fit. */
static void draw_actions_compact(text *t, const session *s, char (*items)[256], char (*heads)[224], size_t n)
{
    t->indent = 2;
    tx_printf(t, "%s", stpete_state_decision(s->st) == STPETE_DECISION_TURN ? ":" : "");
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
}

/* The full list of the legal actions: in columns as wide as the widest item, filled down first. */
static void draw_actions_columns(text *t, const session *s, char (*items)[256], size_t n, int widest)
{
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

/* The legal actions, numbered, under a heading that says the decision (§4.2, §7.1, §7.2). */
static void draw_actions(text *t, const session *s)
{
    int ids[PLAY_MAX_LEGAL];
    size_t n = 0;
    stpete_state_legal_actions(s->st, ids, PLAY_MAX_LEGAL, &n);
    /* one row per listed action (up to 400 with the New Society, §12.4.1): on the heap, not 190 KB of stack */
    char (*items)[256] = malloc((n ? n : 1) * sizeof *items), (*heads)[224] = malloc((n ? n : 1) * sizeof *heads);
    if (!items || !heads) {
        free(items);
        free(heads);
        t->failed = 1; /* said instead of the board: "(out of memory while drawing)" */
        return;
    }
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
    t->indent = 2; /* a heading wider than the terminal wraps between its words, and its rows are counted */
    tx_piece(t, "", sgr_bold(&s->ui));
    tx_words(t, decision == STPETE_DECISION_OBSERVATORY ? "Your Observatory draw: buy it, take it into hand, or discard it"
                : decision == STPETE_DECISION_PUB      ? "Your Pub: how many VP do you buy, at 2 R each (§7.2)? Type "
                                                         "the number of VP"
                : decision == STPETE_DECISION_PRISON   ? "Your Debtor's Prison card: buy it, take it into hand, or "
                                                         "put it back (§12.7.5)"
                : decision == STPETE_DECISION_GUILD_HALL ? "Your Guild Hall: how many of its 4 as rubles, the rest as "
                                                           "VP (§12.7.7)? Type the rubles"
                : decision == STPETE_DECISION_TRADING_HOUSE ? "Your Trading House: pay 3 R for 2 VP (§12.7.6)?"
                                                            : "Your legal actions");
    tx_piece(t, "", sgr_reset(&s->ui));
    if (s->ui.compact)
        draw_actions_compact(t, s, items, heads, n);
    else
        draw_actions_columns(t, s, items, n, widest);
    free(items);
    free(heads);
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
    int over = stpete_state_is_terminal_or(s->st, 1);
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
    if (stpete_game_edition(s->game) == 2)
        tx_piece(head, ", ", u->compact ? "edition 2" : "second edition (rules, section 11)");
    int ns = 0;
    if (stpete_game_is_new_society(s->game, &ns) == STPETE_OK && ns)
        tx_piece(head, ", ", u->compact ? "New Society" : "the New Society (rules, section 12)");
    if (!over) {
        char who[32];
        snprintf(piece, sizeof piece, "round %d%s", stpete_state_round(s->st),
                 !stpete_state_is_final_round_or(s->st, 0) ? "" : u->compact ? " (final)" : " (the final round)");
        tx_piece(head, " | ", piece);
        snprintf(piece, sizeof piece, "%s%s phase%s", sgr_colour(u, phase < 3 ? phase : -1), stpete_phase_name(phase),
                 phase < 3 ? sgr_reset(u) : "");
        tx_piece(head, " | ", piece);
        snprintf(piece, sizeof piece, "%s to play", seat_label(s, stpete_state_current_player(s->st), who, sizeof who));
        tx_piece(head, " | ", piece);
    }
    if (!over || !u->compact) /* compact: the final table needs the rows, the board is of no more use */
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

/* Build the screen's three texts (the board, the log, the actions) in the layout that fits: shorter and shorter
 * until it does: the full layout; compact (1); without the log's lines (a note after the actions instead); the
 * other seats' displays as counts per colour (2); the first legal actions only, one fewer each time (a note says
 * how many more, with their numbers unchanged). Returns the rows it takes, the prompt's included. */
static int fit_layout(session *s, int screen, text *head, text *logt, text *tail)
{
    ui *u = &s->ui;
    int ids[PLAY_MAX_LEGAL], rows;
    size_t legal = 0;
    if (!stpete_state_is_terminal_or(s->st, 1))
        stpete_state_legal_actions(s->st, ids, PLAY_MAX_LEGAL, &legal);
    u->log_note = 0;
    u->actions_shown = 0;
    for (u->compact = 0;;) {
        build_screen(s, head, tail);
        build_log(s, logt, head, tail);
        rows = text_rows(head) + text_rows(logt) + text_rows(tail) + 1; /* + the prompt */
        if (!screen || rows <= u->height || u->actions_shown == 1 || (u->compact == 2 && legal < 2))
            return rows;
        tx_free(head);
        tx_free(logt);
        tx_free(tail);
        if (u->compact == 0)
            u->compact = 1;
        else if (!u->log_note && s->log_n > s->log_mark) /* the note goes after the actions, and no heading */
            u->log_note = s->log_n - s->log_mark;
        else if (u->compact == 1)
            u->compact = 2;
        else
            u->actions_shown = u->actions_shown ? u->actions_shown - 1 : legal - 1;
    }
}

/* Too small a terminal: the top of the board has scrolled away. Say so next to the prompt. */
static void note_too_small(ui *u, text *tail, int rows)
{
    if (u->compact && u->width >= MIN_WIDTH && rows > u->height) { /* one line: the top scrolled away */
        tx_line(tail, 0);
        tx_sentence(tail, "%s(%d rows, the terminal %d: the top scrolled away; 'board' shows all)%s", sgr_dim(u), rows,
                    u->height, sgr_reset(u));
    } else if (u->width < MIN_WIDTH || rows > u->height) {
        tx_line(tail, 0);
        tx_sentence(tail, "%sThe terminal is %dx%d, too small for this board (it needs %dx%d): enlarge the window and "
                         "type 'board', or start " PROGRAM " with --plain.%s", sgr_bold(u), u->width, u->height,
                  u->width > MIN_WIDTH ? u->width : MIN_WIDTH, rows, sgr_reset(u));
    }
}

/* Draw everything the person needs to decide (or the final scores), after what happened since the last board:
 * the full layout when it fits the terminal, else the compact one (4 players in 80x24). */
void draw_screen(session *s)
{
    ui *u = &s->ui;
    ui_measure(u);
    text head, logt, tail;
    int screen = u->screen;
    int rows = fit_layout(s, screen, &head, &logt, &tail);
    if (s->full_board && u->compact) { /* 'board' on a small terminal: all of it, once, as lines that scroll */
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
    if (screen)
        note_too_small(u, &tail, rows);
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
