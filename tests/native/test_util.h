// What the native tests share: a minimal check macro (counts checks, prints each failure, never
// aborts), a seeded generator of test data, and reading a value's bits as another type.
#ifndef PE_TEST_UTIL_H
#define PE_TEST_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

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

// xorshift32 (Marsaglia 2003: x ^= x << 13, x >> 17, x << 5) on a suite's own state, uniform in
// [lo, hi): test data from a fixed seed, the same on every run.
static inline float xorshift_uniform(uint32_t *state, float lo, float hi) {
    *state ^= *state << 13;
    *state ^= *state >> 17;
    *state ^= *state << 5;
    return lo + (hi - lo) * (float)(*state >> 8) / 16777216.0f;
}

// The bits of `x` read as a `type` of the same size (float ↔ uint32_t, double ↔ uint64_t): memcpy,
// the defined way in C; a GNU statement expression (gcc and clang).
#define BITS_AS(type, x)                                                       \
    __extension__({                                                            \
        __typeof__(x) bits_as_from_ = (x);                                     \
        type bits_as_to_;                                                      \
        _Static_assert(sizeof bits_as_to_ == sizeof bits_as_from_, "BITS_AS"); \
        memcpy(&bits_as_to_, &bits_as_from_, sizeof bits_as_to_);              \
        bits_as_to_;                                                           \
    })

#endif   // PE_TEST_UTIL_H
