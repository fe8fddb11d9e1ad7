/* stpete-play: input: standard input read line by line, the key that closes the final table, and the
 * signals (Ctrl-C, SIGTERM, SIGHUP) caught while waiting for it. */

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

volatile sig_atomic_t caught_signal;

void on_signal(int sig)
{
    caught_signal = sig;
}

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
int read_line(session *s, input *in, size_t *consumed, const char **line)
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
void check_pending(void)
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
void wait_for_key(session *s, const sigset_t *wait_mask)
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

const char *signal_reason(int sig)
{
    return sig == SIGINT ? "Interrupted (Ctrl-C)" : sig == SIGHUP ? "Hung up (SIGHUP)" : "Terminated (SIGTERM)";
}
