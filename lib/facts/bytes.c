/* Bits, byte lists and ASCII text (bytes.h): the out-of-line part. */
#include <string.h>

#include "facts/facts.h"

int stpete_bytes_text_equals(const char *name, const char *text, size_t n)
{
    if (strlen(name) != n)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (stpete_bytes_ascii_lower((unsigned char)name[i]) != stpete_bytes_ascii_lower((unsigned char)text[i]))
            return 0;
    return 1;
}
