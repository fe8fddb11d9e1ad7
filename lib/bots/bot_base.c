/* The bots' base layer: allocation through the game's allocator, failure messages, their PRNG and clock. Public
 * API only. */
#define _POSIX_C_SOURCE 199309L
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bot_private.h"

void *bot_malloc(stpete_bot *bot, size_t size)
{
    return bot->alloc.malloc_fn ? bot->alloc.malloc_fn(bot->alloc.user, size) : malloc(size);
}

void *bot_realloc(stpete_bot *bot, void *ptr, size_t size)
{
    return bot->alloc.realloc_fn ? bot->alloc.realloc_fn(bot->alloc.user, ptr, size) : realloc(ptr, size);
}

void bot_freemem(stpete_bot *bot, void *ptr)
{
    if (!ptr)
        return;
    if (bot->alloc.free_fn)
        bot->alloc.free_fn(bot->alloc.user, ptr);
    else
        free(ptr);
}

int bot_fail(stpete_bot *bot, int rc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(bot->error, sizeof bot->error, fmt, ap);
    va_end(ap);
    return rc;
}

uint64_t bot_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * UINT64_C(1000000000) + (uint64_t)ts.tv_nsec;
}
