/* One cmocka program from several subject files (OpenSpiel's basic_tests.h shares helpers the same way): each file
 * of a program (tests/lib/api/options.c, ...) ends with TEST_GROUP(name, cmocka_unit_test(...), ...), its tests in
 * order; the program's main.c declares the groups with EXTERN_TEST_GROUP(name) and runs them in order as one
 * cmocka group (one TAP plan, as one file's tests ran) with run_test_groups(). */
#ifndef STPETE_TEST_GROUPS_H
#define STPETE_TEST_GROUPS_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* The tests of one subject file, in order. */
#define TEST_GROUP(name, ...)                                                                                    \
    const struct CMUnitTest name##_tests[] = { __VA_ARGS__ };                                                    \
    const size_t name##_count = sizeof name##_tests / sizeof name##_tests[0]

/* A subject file's group, seen from its program's main.c. */
#define EXTERN_TEST_GROUP(name)                                                                                  \
    extern const struct CMUnitTest name##_tests[];                                                               \
    extern const size_t name##_count

/* A group in the list given to run_test_groups(). */
typedef struct test_group {
    const struct CMUnitTest *tests;
    size_t count;
} test_group;
#define GROUP_OF(name) { name##_tests, name##_count }

/* Run the tests of n groups, in order, as one cmocka group called name; cmocka's status (0: all passed). */
static inline int run_test_groups(const char *name, const test_group *groups, size_t n)
{
    size_t total = 0;
    for (size_t g = 0; g < n; g++)
        total += groups[g].count;
    struct CMUnitTest *all = malloc(total * sizeof *all);
    if (!all)
        return 1;
    size_t k = 0;
    for (size_t g = 0; g < n; g++) {
        memcpy(all + k, groups[g].tests, groups[g].count * sizeof *all);
        k += groups[g].count;
    }
    /* the function behind cmocka_run_group_tests_name(), which needs an array of known size */
    int rc = _cmocka_run_group_tests(name, all, total, NULL, NULL);
    free(all);
    return rc;
}

#endif /* STPETE_TEST_GROUPS_H */
