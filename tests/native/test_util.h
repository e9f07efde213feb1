// A minimal check macro for the native tests: counts checks, prints each failure, never aborts.
#ifndef PE_TEST_UTIL_H
#define PE_TEST_UTIL_H

#include <stdio.h>

static int test_passed, test_failed;

#define CHECK(cond, ...)                                      \
    do {                                                      \
        if (cond) {                                           \
            test_passed++;                                    \
        } else {                                              \
            test_failed++;                                    \
            if (test_failed <= 20) {                          \
                printf("  FAIL %s:%d: ", __FILE__, __LINE__); \
                printf(__VA_ARGS__);                          \
                printf("\n");                                 \
            }                                                 \
        }                                                     \
    } while (0)

static int test_summary(const char *suite) {
    printf("%s: %d checks passed, %d failed\n", suite, test_passed, test_failed);
    return test_failed == 0 ? 0 : 1;
}

#endif   // PE_TEST_UTIL_H
