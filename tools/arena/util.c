/* stpete-arena: small helpers of every module: seeds mixed with splitmix64, the clock, a hash, and the exits
 * on a fatal error (die, out of memory). */

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

#include "arena.h"

/* ---- small helpers ------------------------------------------------------------------------------- */

uint64_t splitmix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

uint64_t mix3(uint64_t a, uint64_t b, uint64_t c)
{
    return splitmix(splitmix(splitmix(a) ^ b) ^ c);
}

double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void die(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", PROGRAM);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(code);
}

void *xmalloc(size_t n)
{
    void *p = calloc(1, n ? n : 1);
    if (!p)
        die(1, "out of memory");
    return p;
}

char *xstrdup(const char *s)
{
    char *p = strdup(s);
    if (!p)
        die(1, "out of memory");
    return p;
}

int open_file(const char *path, int flags)
{
    return open(path, flags | O_CLOEXEC | O_NOFOLLOW, 0666);
}

const char *open_why(int err)
{
    return err == ELOOP ? "it is a symbolic link, which the arena does not follow (name the file itself)" : strerror(err);
}

json_t *arena_option_json(const stpete_options *o, const stpete_option_info *in)
{
    char text[STPETE_OPTION_VALUE_MAX + 2];
    return cli_option_json(o, in, text, sizeof text) == 0 ? json_loads(text, JSON_DECODE_ANY, NULL) : NULL;
}
