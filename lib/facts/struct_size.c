/* The caller-sized public structs (stpete.h conventions, "Structs that may grow"): whether a caller's struct_size
 * is one this library serves, and the copy of only that many bytes. A fact file: no rules, no handles. */
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
