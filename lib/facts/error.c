/* Failures with a reason: the stpete_error detail of calls without a handle (stpete.h conventions), and a reason
 * into a caller's buffer (the engine's checks). A fact file: no rules, no handles. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "facts/facts.h"

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
    return has_out ? STPETE_OK : stpete_error_caller_fail(err, STPETE_E_INVALID_ARGUMENT, "out is NULL");
}

int stpete_error_caller_fail(stpete_error *caller, int status, const char *what)
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

int stpete_error_why(char *why, size_t why_size, int status, const char *fmt, ...)
{
    if (why && why_size) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, why_size, fmt, ap);
        va_end(ap);
    }
    return status;
}
