/* stpete-play: the terminal (its size, colours), a text that wraps words at the terminal's width (what the
 * screen is written with), and the messages between two prompts (say). */

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

#include "play.h"

/* ---- the terminal ----------------------------------------------------------------------------------------- */

void ui_init(ui *u, const play_config *cfg)
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
void ui_measure(ui *u)
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
const char *sgr_colour(const ui *u, int colour)
{
    static const char *const c16[3] = { "\033[32m", "\033[94m", "\033[33m" };
    static const char *const c256[3] = { "\033[38;5;34m", "\033[38;5;33m", "\033[38;5;208m" };
    if (!u->colour || colour < 0 || colour > 2)
        return "";
    return u->colour256 ? c256[colour] : c16[colour];
}
const char *sgr_bold(const ui *u) { return u->colour ? "\033[1m" : ""; }
const char *sgr_dim(const ui *u) { return u->colour ? "\033[2m" : ""; }
const char *sgr_reset(const ui *u) { return u->colour ? "\033[0m" : ""; }

void tx_bytes(text *t, const char *s, size_t n)
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
int visible_width(const char *s)
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

void tx_newline(text *t)
{
    tx_bytes(t, "\n", 1);
    t->col = 0;
    t->lines++;
}

/* Append a piece that must not be split: on a new line (indented) if it does not fit after sep. */
void tx_piece(text *t, const char *sep, const char *piece)
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

/* Append formatted text as one piece, or several lines if it holds newlines. */
void tx_printf(text *t, const char *fmt, ...)
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
void tx_words(text *t, const char *words)
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

/* Append formatted text wrapped between its words (blanks collapse). */
void tx_sentence(text *t, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    tx_words(t, buf);
}

/* Start a line with an indentation that wrapped pieces keep. */
void tx_line(text *t, int indent)
{
    if (t->col > 0)
        tx_newline(t);
    for (int i = 0; i < indent; i++)
        tx_bytes(t, " ", 1);
    t->col = indent;
    t->indent = indent;
}

void tx_free(text *t)
{
    free(t->buf);
    memset(t, 0, sizeof *t);
}

/* ---- messages ------------------------------------------------------------------------------------------- */

/* A message under the board, between two prompts. */
void say(session *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(s->ui.out, fmt, ap);
    va_end(ap);
    fputc('\n', s->ui.out);
    fflush(s->ui.out);
}

/* A text to wrap at the terminal's width (one column short of it, so that no line ends in its last column). */
static text wrapped_text(session *s)
{
    ui_measure(&s->ui);
    text t = { 0 };
    t.width = s->ui.width > 20 ? s->ui.width - 1 : 20;
    return t;
}

/* Say a wrapped text, or its words unwrapped if it ran out of memory. */
static void say_text(session *s, text *t, const char *unwrapped)
{
    say(s, "%s", t->failed || !t->buf ? unwrapped : t->buf);
    tx_free(t);
}

/* A line of a list: "  HEAD", padded to head_width, then words wrapped between them at the terminal's width,
 * continued lines under the first word. */
void say_item(session *s, const char *head, int head_width, const char *words)
{
    text t = wrapped_text(s);
    tx_line(&t, 2);
    tx_printf(&t, "%-*s ", head_width, head);
    t.indent = 2 + head_width + 1;
    tx_words(&t, words);
    say_text(s, &t, words);
}

/* say(), wrapped between words at the terminal's width; continued lines indented 2 more than the first. */
void say_wrapped(session *s, const char *fmt, ...)
{
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    text t = wrapped_text(s);
    int lead = (int)strspn(buf, " ");
    tx_line(&t, lead);
    t.indent = lead + 2;
    tx_words(&t, buf + lead);
    say_text(s, &t, buf);
}
