/* Replays a fuzz corpus through a harness without libFuzzer (any C compiler): every file named on the command
 * line, or every file in a named directory, is one input. TAP output, one line per input; a broken invariant
 * aborts (fuzz_fail), a crash is a crash: both fail the test. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int count;

static void run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        printf("not ok %d - %s (cannot open)\n", ++count, path);
        return;
    }
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    while (buf && (n += fread(buf + n, 1, cap - n, f)) == cap) {
        uint8_t *bigger = realloc(buf, cap *= 2);
        if (!bigger)
            free(buf);
        buf = bigger;
    }
    fclose(f);
    if (!buf) {
        printf("not ok %d - %s (out of memory)\n", ++count, path);
        return;
    }
    /* an exact-size copy, so ASan sees reads past the input */
    uint8_t *exact = malloc(n ? n : 1);
    memcpy(exact, buf, n);
    free(buf);
    LLVMFuzzerTestOneInput(exact, n);
    free(exact);
    printf("ok %d - %s\n", ++count, path);
    fflush(stdout);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        struct stat sb;
        if (stat(argv[i], &sb) == 0 && S_ISDIR(sb.st_mode)) {
            DIR *d = opendir(argv[i]);
            char **names = NULL;
            size_t n = 0;
            for (struct dirent *e; d && (e = readdir(d));) {
                if (e->d_name[0] == '.')
                    continue;
                names = realloc(names, (n + 1) * sizeof *names);
                size_t len = strlen(argv[i]) + strlen(e->d_name) + 2;
                names[n] = malloc(len);
                snprintf(names[n++], len, "%s/%s", argv[i], e->d_name);
            }
            if (d)
                closedir(d);
            qsort(names, n, sizeof *names, by_name); /* a stable order on every file system */
            for (size_t k = 0; k < n; k++) {
                run_file(names[k]);
                free(names[k]);
            }
            free(names);
        } else {
            run_file(argv[i]);
        }
    }
    printf("1..%d\n", count);
    return count ? 0 : 1;
}
