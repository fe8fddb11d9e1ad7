/* The caller-sized public structs (stpete.h conventions, "Structs that may grow") and the stpete_error detail of
 * calls without a handle. A fact file: no rules, no handles. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "facts/facts.h"

int stpete_struct_size_ok(size_t caller, size_t first, size_t library)
{
    return caller >= first && caller <= library;
}

int stpete_struct_out(void *dst, const void *src, size_t first, size_t library)
{
    size_t caller;
    memcpy(&caller, dst, sizeof caller);
    if (!stpete_struct_size_ok(caller, first, library))
        return STPETE_E_UNSUPPORTED_VERSION;
    memcpy((char *)dst + sizeof caller, (const char *)src + sizeof caller, caller - sizeof caller);
    return STPETE_OK;
}

int stpete_error_check(const stpete_error *err)
{
    return !err || stpete_struct_size_ok(err->struct_size, STPETE_ERROR_SIZE_1_0, sizeof *err) ? STPETE_OK
                                                                                                : STPETE_E_UNSUPPORTED_VERSION;
}

int stpete_error_vfail(stpete_error *e, int status, const char *fmt, va_list ap)
{
    if (e) {
        e->status = status;
        e->line = e->column = e->position = -1; /* not a syntax error (the JSON reader sets those itself) */
        vsnprintf(e->message, sizeof e->message, fmt, ap);
    }
    return status;
}

int stpete_error_fail(stpete_error *e, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    stpete_error_vfail(e, status, fmt, ap);
    va_end(ap);
    return status;
}

int stpete_error_begin(stpete_error *err, int has_out)
{
    int rc = stpete_error_check(err);
    if (rc)
        return rc;
    return has_out ? STPETE_OK : stpete_caller_error_fail(err, STPETE_E_INVALID_ARGUMENT, "out is NULL");
}

int stpete_caller_error_fail(stpete_error *caller, int status, const char *what)
{
    stpete_error e = STPETE_ERROR_INIT;
    return stpete_error_finish(caller, &e, stpete_error_fail(&e, status, "%s", what));
}

int stpete_error_finish(stpete_error *caller, const stpete_error *local, int status)
{
    if (caller) {
        stpete_error done = *local;
        done.status = status;
        if (status == STPETE_OK) {
            done.message[0] = '\0';
            done.line = done.column = done.position = -1;
        }
        done.struct_size = sizeof done;
        /* the caller's size was checked by stpete_error_check() */
        stpete_struct_out(caller, &done, STPETE_ERROR_SIZE_1_0, sizeof done);
    }
    return status;
}
