/* fuzz_fail() for the harnesses (tests/fuzz/fuzz.h). */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"

void fuzz_fail(const char *what)
{
    fprintf(stderr, "fuzz invariant broken: %s\n", what);
    fflush(NULL);
    abort();
}
