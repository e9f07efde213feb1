// Shared helpers of the libFuzzer harnesses (tests/fuzz/run.sh builds them with clang
// -fsanitize=fuzzer,address,undefined; tests/fuzz/replay.c replays a corpus without libFuzzer).
//
// Every buffer a kernel gets is a heap block of exactly the size the harness computed from the
// kernel's documented shape, so AddressSanitizer reports any access past it. A broken invariant
// is reported with FINDING(...): a message on stderr, then abort(), which libFuzzer records as a
// crash with its input.
#ifndef PE_FUZZ_UTIL_H
#define PE_FUZZ_UTIL_H

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FINDING(...)                                              \
    do {                                                          \
        fprintf(stderr, "\nFINDING %s:%d: ", __FILE__, __LINE__); \
        fprintf(stderr, __VA_ARGS__);                             \
        fprintf(stderr, "\n");                                    \
        abort();                                                  \
    } while (0)

#define REQUIRE(cond, ...)                 \
    do {                                   \
        if (!(cond)) FINDING(__VA_ARGS__); \
    } while (0)

// --- decoding fuzz bytes -------------------------------------------------------------------------
//
// Values are read as tokens: a tag byte, then 0, 2, 4 or 8 more bytes. When the input runs out,
// every read returns the default the caller passes, so a short input is still a typical call.
//   int:    tag < 0x40: the tag itself (0..63)
//           0x40..0x7F: EDGE_INTS[tag − 0x40]     (boundaries of every documented range)
//           0x80..0xBF: ((tag & 0x3F) << 16) | u16 (0 .. 2^22 − 1)
//           0xC0..0xFF: an int32, little-endian
//   double: tag < 0x40: tag / 4 (0 .. 15.75)
//           0x40..0x7F: EDGE_DOUBLES[tag − 0x40]  (0, ±1, NaN, ±Inf, tiny, huge, range ends)
//           0x80..0xBF: an int32 · 2^−(tag & 0x1F)
//           0xC0..0xFF: a float64, little-endian (any bit pattern)
typedef struct {
    const uint8_t *p;
    size_t n;
} reader;

// clang-format off
static const int32_t EDGE_INTS[64] = {
    0, 1, -1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33,
    63, 64, 65, 127, 128, 255, 256, 257, 1023, 1024, 1025, 2047, 2048, 2049, 4095, 4096,
    4097, 8191, 8192, 8193, 16383, 16384, 16385, 46340, 46341, 65535, 65536, (1 << 20) - 1, 1 << 20,
    (1 << 20) + 1, (1 << 24) - 1, 1 << 24, (1 << 24) + 1, (1 << 26) - 1, 1 << 26, (1 << 26) + 1,
    1 << 30, INT32_MAX - (1 << 20), INT32_MAX - 1, INT32_MAX, INT32_MIN, INT32_MIN + 1, -2,
    -(1 << 20), 6, 12, 24, 1000,
};

static const double EDGE_DOUBLES[64] = {
    0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 10000.0, 1e6,
    1e12, NAN, INFINITY, -INFINITY, DBL_MIN, 4.9406564584124654e-324, DBL_MAX, -DBL_MAX,
    FLT_MAX, 3.4028235677973366e38 /* just above FLT_MAX */, 1e39, 1e-39, 1e-45, 9007199254740992.0,
    9007199254740994.0, 4294967295.0, 4294967296.0, 0.01, 0.0099999999999999985, 1000.0,
    1000.0000000000001, 1e-300, 1e300, 32.0, 1.0000000000000002, 0.99999999999999989, 4.0, 8.0,
    0.25, 0.1, 10.0, 1e-9, 1e9, 1e-6, 3.0, 64.0, 1e5, 1e15, 2147483648.0, 2147483647.0,
    0.375, 1.5, -0.5, 1000000.5, 100.0, 16.0, 0.75, 40.0, 6.283185307179586, 3.141592653589793,
    1e-3, 255.99999999999997, 256.0, -1e-300, 1e-20, 1e20,
};
// clang-format on

static inline int rd_more(const reader *r) { return r->n > 0; }

static inline uint8_t rd_u8(reader *r, uint8_t dflt) {
    if (r->n == 0) return dflt;
    r->n--;
    return *r->p++;
}

// k little-endian bytes (missing bytes read as 0).
static inline uint64_t rd_le(reader *r, int k) {
    uint64_t v = 0;
    for (int i = 0; i < k; i++) v |= (uint64_t)rd_u8(r, 0) << (8 * i);
    return v;
}

static inline int32_t rd_int(reader *r, int32_t dflt) {
    if (r->n == 0) return dflt;
    uint8_t tag = rd_u8(r, 0);
    if (tag < 0x40) return tag;
    if (tag < 0x80) return EDGE_INTS[tag - 0x40];
    if (tag < 0xC0) return (int32_t)(((uint32_t)(tag & 0x3F) << 16) | (uint32_t)rd_le(r, 2));
    return (int32_t)(uint32_t)rd_le(r, 4);
}

// An enumerated argument: one byte b < 0xF0 gives b mod (count + 1) (so the first invalid code
// `count` comes up too), 0xF0 and above read a whole int token (negative, huge).
static inline int32_t rd_enum(reader *r, int32_t count, int32_t dflt) {
    if (!rd_more(r)) return dflt;
    uint8_t b = rd_u8(r, 0);
    if (b < 0xF0) return b % (count + 1);
    return rd_int(r, dflt);
}

static inline double rd_double(reader *r, double dflt) {
    if (r->n == 0) return dflt;
    uint8_t tag = rd_u8(r, 0);
    if (tag < 0x40) return tag / 4.0;
    if (tag < 0x80) return EDGE_DOUBLES[tag - 0x40];
    if (tag < 0xC0) return (double)(int32_t)(uint32_t)rd_le(r, 4) * ldexp(1.0, -(tag & 0x1F));
    uint64_t bits = rd_le(r, 8);
    double v;
    memcpy(&v, &bits, 8);
    return v;
}

// --- deterministic filler ------------------------------------------------------------------------

static inline uint64_t mix64(uint64_t *s) {   // SplitMix64
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// n floats in [−8, 8), or, with `specials` set, one in eight replaced by an extreme value
// (NaN, ±Inf, ±FLT_MAX, subnormals, −0).
static inline void fill_floats(float *x, size_t n, uint64_t seed, int specials) {
    static const float extreme[8] = {NAN, INFINITY, -INFINITY, FLT_MAX, -FLT_MAX, 1e-45f, -0.0f, 1e30f};
    uint64_t s = seed;
    for (size_t k = 0; k < n; k++) {
        uint64_t z = mix64(&s);
        x[k] = (float)((double)(z >> 40) / (double)(1u << 24) * 16.0 - 8.0);
        if (specials && (z & 7) == 0) x[k] = extreme[(z >> 3) & 7];
    }
}

// --- exact-size buffers ----------------------------------------------------------------------------

// Elements a harness allocates at most for one output (more is refused or skipped).
#define FUZZ_CAP ((int64_t)1 << 20)
// The buffer given when the documented size is invalid or above FUZZ_CAP: the kernel must refuse,
// and any write into it past SMALL elements is a heap-buffer-overflow.
#define FUZZ_SMALL 16

// A heap block of exactly `count` elements of `size` bytes (malloc(0)-like for 0: any access
// is reported), or FUZZ_SMALL elements when count is negative or above FUZZ_CAP.
static inline void *alloc_exact(int64_t count, size_t size, int *exact) {
    int ok = count >= 0 && count <= FUZZ_CAP;
    if (exact) *exact = ok;
    size_t bytes = (ok ? (size_t)count : FUZZ_SMALL) * size;
    void *p = malloc(bytes);   // ASan: malloc(0) is a valid block of 0 bytes, any access reported
    if (p == NULL && bytes > 0) abort();
    if (bytes > 0) memset(p, 0xA5, bytes);   // a pattern the output checks can tell from values
    return p;
}

// FUZZ_VERBOSE=1 in the environment: the harnesses print what each input did (for checking seeds).
static inline int fuzz_verbose(void) {
    static int verbose = -1;
    if (verbose < 0) verbose = getenv("FUZZ_VERBOSE") != NULL;
    return verbose;
}

// A block of exactly count elements, no cap: for buffers made of several documented ones (an
// output with an input overlapping it), each of which the harness already bounded.
static inline void *alloc_block(int64_t count, size_t size) {
    size_t bytes = (size_t)count * size;
    void *p = malloc(bytes);
    if (p == NULL && bytes > 0) abort();
    if (bytes > 0) memset(p, 0xA5, bytes);
    return p;
}

// --- argument checks the harnesses predict --------------------------------------------------------

// Bit k of a mask of argument positions (or spec fields) the harness found invalid.
#define BIT(k) (1ull << (k))

static inline int in_range(int64_t v, int64_t lo, int64_t hi) { return v >= lo && v <= hi; }

static inline int is_integer(double v) { return isfinite(v) && v == floor(v); }

#endif   // PE_FUZZ_UTIL_H
