/* libFuzzer entry point shared by the harnesses (tests/fuzz/README.md). */
#ifndef STPETE_FUZZ_H
#define STPETE_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "../include/test_values.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A broken invariant: print it and abort, which libFuzzer and the corpus runner both report as a failure. */
void fuzz_fail(const char *what);

#endif
