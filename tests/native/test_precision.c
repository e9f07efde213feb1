// Native tests of the precision lab (c/precision.c, kind `rope_precision`): gcc + SIMDe under
// ASan/UBSan (run.sh).
//   1. Float32 rounded to bfloat16 and to float16 (every 31st block of 2^16 patterns by default,
//      all 2^32 with PE_EXHAUSTIVE=1; scalar and SIMD)
//      against independent integer references written here; every bfloat16 and float16 value
//      round-trips; float64 → float32 against the C cast.
//   2. The exact product rounded once: q·f against a 128-bit integer reference, with products
//      built to sit on a midpoint of the format (where rounding fl(q·f) again would be wrong).
//   3. SIMD against scalar, bit for bit, at every tail length (arrays and whole kernels).
//   4. Hand-known values: collisions of bfloat16 positions, the exact recipe's error, overflow.
//   5. Every bad argument's status.
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pe.h"
#include "precision.h"
#include "rope.h"
#include "test_util.h"

static const double PI = 3.141592653589793;

// The exhaustive loop and its helpers run 2^33 times: plain integer code, left out of the
// sanitizers (the kernels they call are not).
#define HOT __attribute__((no_sanitize("address", "undefined")))

HOT static float float_of(uint32_t b) { return BITS_AS(float, b); }
HOT static uint64_t bits64(double x) { return BITS_AS(uint64_t, x); }

// --- independent references ----------------------------------------------------------------------

// float32 bits → bfloat16 bits, round to nearest even: the classic bias trick on the integer
// (a carry into the exponent is the right result, up to ∞).
HOT static uint16_t ref_bf16(uint32_t f) {
    if ((f & 0x7FFFFFFFu) > 0x7F800000u) return (uint16_t)((f >> 16) | 0x40);   // NaN stays NaN
    uint32_t bias = 0x7FFFu + ((f >> 16) & 1u);
    return (uint16_t)((f + bias) >> 16);
}

// float32 bits → float16 bits, round to nearest even with subnormals and overflow to ∞: the
// value as an integer mantissa times a power of two, divided by the float16 quantum in integers.
HOT static uint16_t ref_fp16(uint32_t f) {
    const uint16_t sign = (uint16_t)((f >> 16) & 0x8000u);
    const uint32_t exp_field = (f >> 23) & 0xFFu, frac = f & 0x7FFFFFu;
    if (exp_field == 0xFF) return (uint16_t)(sign | (frac ? 0x7E00u : 0x7C00u));
    if (exp_field == 0 && frac == 0) return sign;
    // |x| = m · 2^e with m an integer
    uint32_t m = exp_field ? (frac | 0x800000u) : frac;
    int e = exp_field ? (int)exp_field - 150 : -149;
    int top = 31 - __builtin_clz(m) + e;          // floor(log2 |x|)
    int quantum = (top > -14 ? top : -14) - 10;   // float16's ulp at |x|
    uint64_t q;
    int shift = quantum - e;
    if (shift <= 0) {
        q = (uint64_t)m << -shift;
    } else if (shift > 40) {
        q = 0;
    } else {
        q = (uint64_t)m >> shift;
        uint64_t rem = (uint64_t)m & ((1ull << shift) - 1), half = 1ull << (shift - 1);
        if (rem > half || (rem == half && (q & 1))) q++;
    }
    if (q == 2048) {   // carried into the next binade
        q = 1024;
        quantum++;
    }
    if (q < 1024) return (uint16_t)(sign | q);   // subnormal (quantum is −24) or zero
    int field = quantum + 25;
    if (field >= 31) return (uint16_t)(sign | 0x7C00u);
    return (uint16_t)(sign | (uint16_t)(field << 10) | (uint16_t)(q - 1024));
}

// round(x, format) for x = m·2^e exactly (m < 2^127), p significant bits, normal exponents from
// emin, as a double (no overflow in the cases used).
static double ref_round_int(unsigned __int128 m, int e, int p, int emin) {
    if (m == 0) return 0.0;
    int top = 0;
    for (unsigned __int128 t = m; t > 1; t >>= 1) top++;
    top += e;
    int quantum = (top > emin ? top : emin) - (p - 1);
    int shift = quantum - e;
    unsigned __int128 q;
    if (shift <= 0) {
        q = m << -shift;
    } else if (shift > 126) {
        q = 0;
    } else {
        q = m >> shift;
        unsigned __int128 rem = m & ((((unsigned __int128)1) << shift) - 1);
        unsigned __int128 half = ((unsigned __int128)1) << (shift - 1);
        if (rem > half || (rem == half && (q & 1))) q++;
    }
    return ldexp((double)q, quantum);
}

// --- 1. exhaustive rounding ----------------------------------------------------------------------

HOT static void test_every_float32(void) {
    enum { CHUNK = 1 << 16 };
    static double x[CHUNK], scalar[CHUNK], simd[CHUNK];
    const int32_t dtypes[2] = {PE_RECIPE_BFLOAT16, PE_RECIPE_FLOAT16};
    long bad[2][2] = {{0, 0}, {0, 0}}, simd_bad[2] = {0, 0};
    // All 2^32 patterns with PE_EXHAUSTIVE=1 (minutes under the sanitizers); by default every 31st
    // block of 2^16 (every sign and exponent, 2114 blocks: seconds), where the SIMD loop runs too.
    const char *env = getenv("PE_EXHAUSTIVE");
    const int all = env != NULL && env[0] == '1';
    const uint64_t step = all ? 1 : 31;
    long blocks = 0;
    for (uint64_t high = 0; high < 0x10000; high += step) {
        blocks++;
        for (uint32_t low = 0; low < CHUNK; low++) x[low] = (double)float_of((uint32_t)(high << 16) | low);
        for (int d = 0; d < 2; d++) {
            pe_round_array_scalar(scalar, x, CHUNK, dtypes[d]);
            // The SIMD loop (SIMDe natively, slow under the sanitizers) on every 16th block of
            // 2^16 inputs, and the direct scalar function there too; the scalar loop on all.
            const int sampled = !all || high % 16 == 0;
            if (sampled) pe_round_array_simd(simd, x, CHUNK, dtypes[d]);
            long chunk_bad = 0, chunk_simd = 0;
            for (uint32_t low = 0; low < CHUNK; low++) {
                const uint32_t f = (uint32_t)(high << 16) | low;
                if (sampled && bits64(scalar[low]) != bits64(simd[low])) chunk_simd++;
                if (x[low] != x[low]) {   // NaN in, NaN out
                    if (scalar[low] == scalar[low]) chunk_bad++;
                    continue;
                }
                uint16_t want = d == 0 ? ref_bf16(f) : ref_fp16(f);
                uint16_t got = d == 0 ? pe_bfloat16_bits(scalar[low]) : pe_float16_bits(scalar[low]);
                double direct = !sampled ? scalar[low] : d == 0 ? pe_round_bfloat16(x[low]) : pe_round_float16(x[low]);
                if (got != want || bits64(direct) != bits64(scalar[low])) {
                    chunk_bad++;
                    if (bad[d][0] + chunk_bad <= 3)
                        printf("  %s of float32 0x%08x: got 0x%04x, want 0x%04x\n", d ? "float16" : "bfloat16", f, got,
                               want);
                }
            }
            bad[d][0] += chunk_bad;
            simd_bad[d] += chunk_simd;
            if (high + step >= 0x10000 || high % 4096 == 4095) {   // one check per 2^28 inputs, and at the end
                CHECK(bad[d][0] == bad[d][1], "%s: %ld float32 inputs rounded wrongly up to 0x%04llxffff",
                      d ? "float16" : "bfloat16", bad[d][0] - bad[d][1], (unsigned long long)high);
                bad[d][1] = bad[d][0];
            }
        }
    }
    CHECK(simd_bad[0] == 0, "bfloat16: SIMD differs from scalar on %ld float32 inputs (2^28 sampled)", simd_bad[0]);
    CHECK(simd_bad[1] == 0, "float16: SIMD differs from scalar on %ld float32 inputs", simd_bad[1]);
    printf("  %s float32 (%ld blocks of 2^16) → bfloat16 and float16: %ld and %ld wrong%s\n", all ? "every" : "sampled",
           blocks, bad[0][0], bad[1][0], all ? "" : " (PE_EXHAUSTIVE=1: all 2^32)");
}

static void test_round_trips(void) {
    long bad_bf = 0, bad_fp = 0;
    for (uint32_t b = 0; b < 0x10000; b++) {
        const double v = pe_bfloat16_value((uint16_t)b);
        if (v == v) {
            const double r = pe_round_bfloat16(v);
            if (bits64(r) != bits64(v) || pe_bfloat16_bits(r) != b) bad_bf++;
            if (bits64(pe_round_dtype(v, PE_RECIPE_BFLOAT16)) != bits64(v)) bad_bf++;
            if (ref_bf16(b << 16) != b) bad_bf++;   // the reference agrees on exact values
        }
        const double h = pe_float16_value((uint16_t)b);
        if (h == h) {
            const double r = pe_round_float16(h);
            if (bits64(r) != bits64(h) || pe_float16_bits(r) != b) bad_fp++;
            if (ref_fp16(BITS_AS(uint32_t, (float)h)) != b) bad_fp++;
        }
    }
    CHECK(bad_bf == 0, "bfloat16 values that do not round-trip: %ld", bad_bf);
    CHECK(bad_fp == 0, "float16 values that do not round-trip: %ld", bad_fp);
    // Known values.
    CHECK(pe_round_float16(65504.0) == 65504.0, "float16 max");
    CHECK(pe_round_float16(65519.99) == 65504.0, "below the float16 overflow threshold");
    CHECK(pe_round_float16(65520.0) == INFINITY, "65520 overflows float16 (tie to even: 2^16)");
    CHECK(pe_round_float16(-1e300) == -INFINITY, "−∞");
    CHECK(pe_round_float16(0x1p-25) == 0.0 && signbit(pe_round_float16(-0x1p-25)), "2^-25 ties to ±0");
    CHECK(pe_round_float16(0x1.0000000000001p-25) == 0x1p-24, "just above 2^-25: the smallest subnormal");
    CHECK(pe_round_bfloat16(257.0) == 256.0 && pe_round_bfloat16(259.0) == 260.0, "bfloat16 ties to even");
    CHECK(pe_round_bfloat16(0x1.ffp127) == INFINITY, "bfloat16 overflow");
    CHECK(pe_round_bfloat16(0x1.ffp127) == INFINITY && pe_round_bfloat16(0x1.fefffffp127) == 0x1.fep127,
          "bfloat16's overflow threshold: the midpoint of its largest number and 2^128");
    CHECK(pe_round_bfloat16(0x1p-133) == 0x1p-133 && pe_round_bfloat16(0x1p-134) == 0.0,
          "bfloat16 subnormals (float32's)");
    CHECK(isnan(pe_round_dtype(NAN, PE_RECIPE_FLOAT16)) && isnan(pe_round_dtype(1.0, 7)), "NaN, bad dtype");
    CHECK(pe_round_dtype(0.1, PE_RECIPE_FLOAT64) == 0.1, "float64 is the identity");

    // float64 → float32 against the C cast (round to nearest even), random doubles of every scale.
    uint64_t s = 88172645463325252ull;
    long bad32 = 0;
    for (int k = 0; k < 4000000; k++) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        uint64_t b = (s & 0x800FFFFFFFFFFFFFull) | ((uint64_t)(1023 - 160 + (int)((s >> 52) % 330)) << 52);
        double x = BITS_AS(double, b);
        if (k % 4 == 0) x = (double)(float)x + ldexp((double)(float)x, -25);   // ties
        double want = (fabs(x) >= 0x1.ffffffp127) ? copysign(INFINITY, x) : (double)(float)x;
        if (bits64(pe_round_float32(x)) != bits64(want)) bad32++;
    }
    CHECK(bad32 == 0, "float64 → float32 disagrees with the C cast on %ld of 4e6 doubles", bad32);
}

// --- 2. the exact product, rounded once ------------------------------------------------------------

static void test_exact_product(void) {
    static const struct {
        int32_t dtype;
        int p, emin;
    } formats[] = {
        {PE_RECIPE_FLOAT32, 24, -126},
        {PE_RECIPE_BFLOAT16, 8, -126},
        {PE_RECIPE_FLOAT16, 11, -14},
    };
    enum { N = 4096 };
    static double f[N], got[N], got_simd[N];
    uint64_t s = 0x9E3779B97F4A7C15ull;
    long bad = 0, simd_bad = 0, midpoints = 0;
    for (int fmt = 0; fmt < 3; fmt++) {
        for (int round = 0; round < 64; round++) {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            const double q = (double)(s % 2147483648ull);
            for (int k = 0; k < N; k++) {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                if (k % 2 == 0 && q > 0) {
                    // f = m/q for a midpoint m of the format near q·2^-j: fl(q·f) is often m itself
                    // while q·f is not (then rounding fl(q·f) again is wrong).
                    int top = (int)floor(log2(q)) - (int)(s % 20);
                    if (formats[fmt].p == 11 && top > 15) top = 15 - (int)(s % 8);
                    double ulp = ldexp(1.0, top - formats[fmt].p + 1);
                    double m = ldexp(1.0, top) + ((double)((s >> 20) % (1u << (formats[fmt].p - 1))) + 0.5) * ulp;
                    f[k] = m / q;
                } else {
                    f[k] = ldexp((double)(s >> 11), -53) * 2.0 + 1e-7;   // (1e-7, 2)
                }
            }
            pe_phase_array_scalar(got, q, f, N, formats[fmt].dtype);
            pe_phase_array_simd(got_simd, q, f, N, formats[fmt].dtype);
            for (int k = 0; k < N; k++) {
                int e;
                double mant = frexp(f[k], &e);
                int64_t m = (int64_t)ldexp(mant, 53);
                unsigned __int128 exact = (unsigned __int128)(uint64_t)q * (uint64_t)m;
                double want = ref_round_int(exact, e - 53, formats[fmt].p, formats[fmt].emin);
                if (formats[fmt].dtype == PE_RECIPE_FLOAT16 && fabs(want) > 65504.0) want = INFINITY;
                if (bits64(got[k]) != bits64(want)) {
                    if (bad < 3) printf("  q=%.17g f=%.17g: got %.17g want %.17g\n", q, f[k], got[k], want);
                    bad++;
                }
                if (bits64(got[k]) != bits64(got_simd[k])) simd_bad++;
                double once_more = pe_round_dtype(q * f[k], formats[fmt].dtype);
                if (bits64(once_more) != bits64(want)) midpoints++;
            }
        }
    }
    CHECK(bad == 0, "round(q·f) wrong on %ld of %d products", bad, 3 * 64 * N);
    CHECK(simd_bad == 0, "phase SIMD differs from scalar on %ld products", simd_bad);
    // The test is only meaningful if it met products where rounding twice goes wrong.
    CHECK(midpoints > 100, "only %ld products where round(fl(q·f)) is wrong", midpoints);
    printf("  exact products: %d checked, %ld where rounding fl(q·f) again would be wrong\n", 3 * 64 * N, midpoints);
    // float64 phases are fl(q·f)
    double one = 0.1, out;
    pe_phase_array_scalar(&out, 3.0, &one, 1, PE_RECIPE_FLOAT64);
    CHECK(out == 3.0 * 0.1, "float64 phase = fl(q·f)");
}

// --- 3. SIMD against scalar ------------------------------------------------------------------------

static pe_rope_config config(int32_t length, int32_t dim, double base) {
    pe_rope_config c = {length, dim, base, 1.0, 0, PE_ROPE_DEFAULT, NAN, 0, 32.0, 1.0, 1, NAN, NAN, NAN, NAN, NAN};
    return c;
}

static pe_status run_c(float *out, float *cs, float *sn, float *re, double *st, double *scratch, int32_t offset,
                       const int32_t dt[4], const pe_rope_config *c) {
    return pe_rope_precision(out, cs, sn, re, st, scratch, offset, dt[0], dt[1], dt[2], dt[3], c->length, c->dim,
                             c->base, c->partial_rotary_factor, c->max_position_embeddings, c->rope_type, c->factor,
                             c->original_max_position_embeddings, c->beta_fast, c->beta_slow, c->truncate, c->mscale,
                             c->mscale_all_dim, c->attention_factor, c->low_freq_factor, c->high_freq_factor);
}

static const int32_t RECIPES[][4] = {
    {0, 0, 0, 0}, {1, 1, 1, 1}, {1, 1, 1, 2}, {1, 2, 1, 1}, {2, 1, 1, 1},
    {1, 1, 2, 1}, {3, 3, 3, 3}, {0, 3, 2, 1}, {3, 0, 0, 2},
};
#define N_RECIPES ((int)(sizeof RECIPES / sizeof RECIPES[0]))

static void test_simd_matches_scalar(void) {
    enum { MAX_N = 19 };
    static double a[MAX_N + 2], b[MAX_N + 2], x[MAX_N + 2];
    for (int n = 0; n <= MAX_N; n++) {
        for (int d = 0; d < 4; d++) {
            for (int k = 0; k < n + 2; k++) x[k] = (k % 3 == 0 ? -1.0 : 1.0) * exp(0.9 * k - 6.0) * (1.0 + 1e-9 * k);
            if (n > 2) x[2] = NAN;
            if (n > 3) x[3] = 1e300;
            memset(a, 0x5A, sizeof a);
            memset(b, 0x5A, sizeof b);
            pe_round_array_scalar(a, x + 1, n, d);   // misaligned start
            pe_round_array_simd(b, x + 1, n, d);
            CHECK(memcmp(a, b, sizeof a) == 0, "round arrays: simd == scalar (n=%d, dtype=%d)", n, d);
            memset(a, 0x5A, sizeof a);
            memset(b, 0x5A, sizeof b);
            pe_phase_array_scalar(a, 123457.0, x + 1, n, d);
            pe_phase_array_simd(b, 123457.0, x + 1, n, d);
            CHECK(memcmp(a, b, sizeof a) == 0, "phase arrays: simd == scalar (n=%d, dtype=%d)", n, d);
            pe_phase_array_scalar(a, INFINITY, x + 1, n, d);
            pe_phase_array_simd(b, INFINITY, x + 1, n, d);
            CHECK(memcmp(a, b, sizeof a) == 0, "phase arrays at q = ∞: simd == scalar (n=%d, dtype=%d)", n, d);
        }
    }
    // Whole kernels: every tail of the two-lane loops, every recipe, offsets near the limits.
    enum { LEN = 40, PAIRS = 9 };
    static float o1[LEN * PAIRS], o2[LEN * PAIRS], c1[LEN * PAIRS], c2[LEN * PAIRS], s1[LEN * PAIRS], s2[LEN * PAIRS],
        r1[LEN], r2[LEN];
    static double w1[8 * PAIRS], w2[8 * PAIRS];
    const int32_t offsets[] = {0, 250, 65500, 1 << 20, PE_MAX_POSITION - LEN};
    for (int pairs = 1; pairs <= PAIRS; pairs++)
        for (int rcp = 0; rcp < N_RECIPES; rcp++)
            for (int o = 0; o < 5; o++) {
                pe_rope_config c = config(LEN, 2 * pairs, 10000.0);
                double st1[2], st2[2];
                pe_status a1 = pe_rope_precision_variant(o1, c1, s1, r1, st1, w1, offsets[o], RECIPES[rcp], &c,
                                                         pe_round_array_scalar, pe_phase_array_scalar);
                pe_status a2 = pe_rope_precision_variant(o2, c2, s2, r2, st2, w2, offsets[o], RECIPES[rcp], &c,
                                                         pe_round_array_simd, pe_phase_array_simd);
                size_t count = (size_t)LEN * pairs;
                int same = a1 == PE_OK && a2 == PE_OK && !memcmp(o1, o2, count * 4) && !memcmp(c1, c2, count * 4) &&
                           !memcmp(s1, s2, count * 4) && !memcmp(r1, r2, LEN * 4) && !memcmp(st1, st2, sizeof st1);
                CHECK(same, "kernel simd == scalar (pairs=%d, recipe=%d, offset=%d)", pairs, rcp, offsets[o]);
                int in_range = 1;
                for (size_t k = 0; k < count; k++)
                    if (!(o1[k] >= 0.0f && o1[k] <= (float)PI)) in_range = 0;
                CHECK(in_range, "errors in [0, π] (pairs=%d, recipe=%d, offset=%d)", pairs, rcp, offsets[o]);
            }
}

// --- 4. hand-known values ----------------------------------------------------------------------------

static void test_known_values(void) {
    enum { LEN = 4096, PAIRS = 64 };
    static float out[LEN * PAIRS], cs[LEN * PAIRS], sn[LEN * PAIRS], re[LEN];
    static double scratch[8 * PAIRS];
    double st[2];
    pe_rope_config c = config(LEN, 2 * PAIRS, 10000.0);

    // bf16 positions: 257 rounds to 256 (tie to even), so rows 256 and 257 are equal.
    const int32_t bf16_positions[4] = {1, 2, 1, 1};
    CHECK(run_c(out, cs, sn, re, st, scratch, 0, bf16_positions, &c) == PE_OK, "bf16_positions runs");
    CHECK(st[1] == 257.0, "bf16_positions: first collision at 257, got %g", st[1]);
    CHECK(!memcmp(cs + 256 * PAIRS, cs + 257 * PAIRS, PAIRS * 4), "rows 256 and 257 have the same cos");
    // Positions 0..256 are exact in bfloat16; from 256 on a row repeats its neighbour when its p
    // rounds to the same number: 4096 − 257 positions in [257, 4096) take (4096 − 256)/2^(k−7)…
    long expected = 0;
    double prev = -1.0;
    for (int p = 0; p < LEN; p++) {
        double q = pe_round_bfloat16((double)p);
        if (p > 0 && q == prev) expected++;
        prev = q;
    }
    CHECK(st[0] == (double)expected, "bf16_positions: %g collisions, expected %ld", st[0], expected);

    // float32 everywhere: no collisions below 2^24, error 0 at p = 0, small at 4095.
    const int32_t f32[4] = {1, 1, 1, 1};
    CHECK(run_c(out, cs, sn, re, st, scratch, 0, f32, &c) == PE_OK, "float32 runs");
    CHECK(st[0] == 0.0 && st[1] == -1.0, "float32: no collision, got %g at %g", st[0], st[1]);
    CHECK(re[0] == 0.0f, "error 0 at p = 0");
    CHECK(re[LEN - 1] < 1e-3f && re[LEN - 1] > 0.0f, "float32 error at 4095: %g", re[LEN - 1]);

    // exact: errors at the level of float64 rounding.
    const int32_t exact[4] = {0, 0, 0, 0};
    CHECK(run_c(out, cs, sn, re, st, scratch, 1000000, exact, &c) == PE_OK, "exact runs");
    float worst = 0.0f;
    for (int r = 0; r < LEN; r++) worst = re[r] > worst ? re[r] : worst;
    CHECK(worst < 1e-9f, "exact recipe: worst error %g at positions ~1e6", worst);

    // The error itself: a wrong angle by 0.5 rad reads 0.5, a half turn π, a quarter π/2.
    CHECK(pe_angle_error(cos(3.0), sin(3.0), 2, 1.5) < 1e-15, "exact angle, error 0");
    CHECK(fabs(pe_angle_error(cos(2.0), sin(2.0), 1, 1.5) - 0.5) < 1e-15, "0.5 rad off");
    CHECK(fabs(pe_angle_error(cos(10.0), sin(10.0), 10, 1.0 + PI / 10.0) - PI) < 1e-12, "a half turn");
    CHECK(fabs(pe_angle_error(-1.0, 0.0, 1000000, 1e-6) - (PI - 1.0)) < 1e-9, "1 rad vs π");
    CHECK(pe_angle_error(NAN, 0.0, 3, 1.0) == PI && pe_angle_error(0.0, INFINITY, 3, 1.0) == PI, "not finite: π");

    // fp16 overflows past 65504: positions ≥ 65520 are ∞, φ = ∞, c and s NaN, error π.
    pe_rope_config small = config(40, 4, 10000.0);
    const int32_t fp16[4] = {3, 3, 3, 3};
    static float o2[160], c2[160], s2[160], r2[40];
    CHECK(run_c(o2, c2, s2, r2, st, scratch, 65500, fp16, &small) == PE_OK, "fp16 runs past 65504");
    CHECK(r2[39] == (float)PI && o2[39 * 2] == (float)PI && isnan(c2[39 * 2]), "error π once ∞");
    CHECK(st[0] > 0.0 && st[1] == 65501.0, "fp16 positions collide from 65501 (65500 and 65501 → 65504): %g", st[1]);
}

// --- 5. bad arguments ----------------------------------------------------------------------------

static void test_bad_arguments(void) {
    static float o[64], cs[64], sn[64], re[8];
    static double scratch[64], st[2];
    const int32_t ok[4] = {1, 1, 1, 1};
    pe_rope_config c = config(8, 8, 10000.0);
    CHECK(run_c(o, cs, sn, re, st, scratch, 0, ok, &c) == PE_OK, "a good call");
    CHECK(run_c(NULL, cs, sn, re, st, scratch, 0, ok, &c) == PE_ERR_ARG(1), "out NULL");
    CHECK(run_c(o, NULL, sn, re, st, scratch, 0, ok, &c) == PE_ERR_ARG(2), "cos NULL");
    CHECK(run_c(o, cs, NULL, re, st, scratch, 0, ok, &c) == PE_ERR_ARG(3), "sin NULL");
    CHECK(run_c(o, cs, sn, NULL, st, scratch, 0, ok, &c) == PE_ERR_ARG(4), "row_error NULL");
    CHECK(run_c(o, cs, sn, re, NULL, scratch, 0, ok, &c) == PE_ERR_ARG(5), "stats NULL");
    CHECK(run_c(o, cs, sn, re, st, NULL, 0, ok, &c) == PE_ERR_ARG(6), "scratch NULL");
    CHECK(run_c(o, cs, sn, re, st, scratch, -1, ok, &c) == PE_ERR_ARG(7), "offset < 0");
    CHECK(run_c(o, cs, sn, re, st, scratch, PE_MAX_POSITION - 7, ok, &c) == PE_ERR_ARG(7),
          "offset + length past int32");
    CHECK(run_c(o, cs, sn, re, st, scratch, PE_MAX_POSITION - 8, ok, &c) == PE_OK, "the last offset");
    for (int k = 0; k < 4; k++) {
        int32_t bad[4] = {1, 1, 1, 1};
        bad[k] = 5;   // 4 is float32_pow, step 1's own (test_float32_pow)
        CHECK(run_c(o, cs, sn, re, st, scratch, 0, bad, &c) == PE_ERR_ARG(8 + k), "dtype %d = 5", k);
        bad[k] = -1;
        CHECK(run_c(o, cs, sn, re, st, scratch, 0, bad, &c) == PE_ERR_ARG(8 + k), "dtype %d = −1", k);
    }
    // run_c on a copy b of the good config c, changed by the assignments given (`b.dim = 7, …`)
    pe_rope_config b;
#define WITH(...) (b = c, __VA_ARGS__, run_c(o, cs, sn, re, st, scratch, 0, ok, &b))
    CHECK(WITH(b.length = 0) == PE_ERR_ARG(12), "length 0");
    CHECK(WITH(b.dim = 7) == PE_ERR_ARG(13), "odd dim");
    CHECK(WITH(b.base = NAN) == PE_ERR_ARG(14), "base NaN");
    CHECK(WITH(b.partial_rotary_factor = 1.5) == PE_ERR_ARG(15), "partial_rotary_factor 1.5");
    CHECK(WITH(b.rope_type = 9) == PE_ERR_ARG(17), "rope_type 9");
    CHECK(WITH(b.rope_type = PE_ROPE_LINEAR, b.factor = -1.0) == PE_ERR_ARG(18), "factor −1");
    CHECK(WITH(b.rope_type = PE_ROPE_LLAMA3, b.factor = 8, b.original_max_position_embeddings = 8192,
               b.low_freq_factor = 4, b.high_freq_factor = 1) == PE_ERR_ARG(27),
          "high_freq_factor < low");
    CHECK(WITH(b.length = PE_MAX_LENGTH, b.dim = PE_MAX_DIM) == PE_ERR_TOO_LARGE, "too large");
#undef WITH
    CHECK(pe_rope_precision_variant(o, cs, sn, re, st, scratch, 0, ok, &c, NULL, pe_phase_array_scalar) ==
              PE_ERR_ARG(28),
          "round_fn NULL");
    CHECK(pe_rope_precision_variant(o, cs, sn, re, st, scratch, 0, ok, &c, pe_round_array_scalar, NULL) ==
              PE_ERR_ARG(29),
          "phase_fn NULL");
    double v[3] = {1.0, 257.0, 65520.0}, r[3];
    CHECK(pe_round_values(r, v, 3, PE_RECIPE_BFLOAT16) == PE_OK && r[1] == 256.0, "pe_round_values");
    CHECK(pe_round_values(r, v, 3, PE_RECIPE_FLOAT16) == PE_OK && r[2] == INFINITY, "pe_round_values fp16");
    CHECK(pe_round_values(NULL, v, 3, 1) == PE_ERR_ARG(1) && pe_round_values(r, NULL, 3, 1) == PE_ERR_ARG(2) &&
              pe_round_values(r, v, -1, 1) == PE_ERR_ARG(3) && pe_round_values(r, v, 3, 4) == PE_ERR_ARG(4) &&
              pe_round_values(r, v, PE_MAX_ELEMENTS + 1, 1) == PE_ERR_TOO_LARGE,
          "pe_round_values: bad arguments");
    CHECK(pe_rope_precision_variant(o, cs, sn, re, st, scratch, 0, NULL, &c, pe_round_array_scalar,
                                    pe_phase_array_scalar) == PE_ERR_ARG(8),
          "dtypes NULL");
}

// --- 6. inv_freq as frameworks form it (PE_RECIPE_FLOAT32_POW) ------------------------------------

/** Float32 ulps between two float32 numbers (held as doubles) of the same sign. */
static long ulps32(double a, double b) {
    const int32_t ia = BITS_AS(int32_t, (float)a), ib = BITS_AS(int32_t, (float)b);
    return labs((long)ia - (long)ib);
}

static void test_float32_pow(void) {
    enum { N = 64 };
    float o[4 * N], cs[4 * N], sn[4 * N], re[4];
    double st[2], scratch[8 * N];
    const int32_t pow_recipe[4] = {PE_RECIPE_FLOAT32_POW, 1, 1, 1};
    // Every f_i is a float32 number near round(ω_i): at dim 128 (exponents 2i/128 exact in
    // float32) the float32 pow and the divide round twice, ≤ 1 ulp each way in practice
    // (PyTorch measured in tests/precision.test.js); some entries differ, most do not. At other
    // dims 2i/d is itself rounded to float32, and the pow magnifies that (up to 5 ulps here).
    struct {
        double base;
        int32_t dim;
        long max_ulps;
    } cases[] = {{10000.0, 128, 1}, {500000.0, 128, 1}, {1e6, 96, 6}, {1e6, 80, 6}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        pe_rope_config c = config(4, cases[k].dim, cases[k].base);
        CHECK(run_c(o, cs, sn, re, st, scratch, 0, pow_recipe, &c) == PE_OK, "float32_pow runs (dim %d)", c.dim);
        const int n = c.dim / 2;
        long worst = 0, differ = 0;
        for (int i = 0; i < n; i++) {
            const double omega = scratch[i], f = scratch[n + i];
            CHECK(omega == 1.0 / pow(c.base, (double)(2 * i) / c.dim), "scratch[%d] holds ω (dim %d)", i, c.dim);
            CHECK(f == (double)(float)f, "f_%d is a float32 number", i);
            const long u = ulps32(f, (double)(float)omega);
            if (u > worst) worst = u;
            differ += u != 0;
        }
        CHECK(worst <= cases[k].max_ulps, "float32_pow: %ld ulps from round(ω) (dim %d, ≤ %ld)", worst, c.dim,
              cases[k].max_ulps);
        CHECK(differ > 0 && differ < n, "float32_pow: %ld of %d entries differ from round(ω) (dim %d)", differ, n,
              c.dim);
        // The float32 recipe's f is round(ω) itself.
        const int32_t f32[4] = {1, 1, 1, 1};
        CHECK(run_c(o, cs, sn, re, st, scratch, 0, f32, &c) == PE_OK, "float32 runs");
        for (int i = 0; i < n; i++) CHECK(scratch[n + i] == (double)(float)scratch[i], "float32: f = round(ω)");
    }
    // A scaled spec: f_i = round32(framework_i · ω_i/ω0_i). Linear scaling by 4 divides by a
    // power of two: exactly the unscaled framework value / 4.
    pe_rope_config plain = config(4, 128, 10000.0), lin = plain;
    lin.rope_type = PE_ROPE_LINEAR;
    lin.factor = 4.0;
    double fw[N];
    CHECK(run_c(o, cs, sn, re, st, scratch, 0, pow_recipe, &plain) == PE_OK, "plain");
    memcpy(fw, scratch + N, sizeof fw);
    CHECK(run_c(o, cs, sn, re, st, scratch, 0, pow_recipe, &lin) == PE_OK, "linear");
    long bad = 0;
    for (int i = 0; i < N; i++) bad += scratch[N + i] != fw[i] / 4.0;
    CHECK(bad == 0, "linear ×1/4: %ld of 64 frequencies are not the framework's / 4", bad);
    // float32_pow is a step-1 format only.
    for (int k = 1; k < 4; k++) {
        int32_t dt[4] = {1, 1, 1, 1};
        dt[k] = PE_RECIPE_FLOAT32_POW;
        CHECK(run_c(o, cs, sn, re, st, scratch, 0, dt, &plain) == PE_ERR_ARG(8 + k), "float32_pow refused in step %d",
              k + 1);
    }
    CHECK(isnan(pe_round_dtype(1.0, PE_RECIPE_FLOAT32_POW)), "pe_round_dtype: float32_pow is no rounding");
}

// --- 7. The sweep: the kernel's row_error and collisions, bit for bit ------------------------------

static void test_sweep(void) {
    enum { L = 600, MAXN = 64 };
    static float out[L * MAXN], cs[L * MAXN], sn[L * MAXN], re[L], re2[L];
    static double scratch[8 * MAXN], scratch2[8 * MAXN];
    double st[2], st2[2];
    static const int32_t recipes[][4] = {{0, 0, 0, 0}, {1, 1, 1, 1}, {1, 1, 1, 2}, {1, 2, 1, 1}, {2, 1, 1, 1},
                                         {1, 1, 2, 1}, {3, 3, 3, 3}, {4, 1, 1, 1}, {0, 2, 3, 2}, {1, 3, 1, 2},
                                         {0, 1, 2, 3}, {2, 2, 2, 2}, {3, 1, 1, 1}, {1, 1, 3, 0}};
    static const int32_t offsets[] = {0, 250, 4000, 15700, 65300, 1000000, 16777000, 2147000000};
    struct {
        int32_t dim;
        double base;
        int32_t type;
    } specs[] = {{128, 10000.0, PE_ROPE_DEFAULT}, {64, 500000.0, PE_ROPE_LLAMA3}, {20, 1e6, PE_ROPE_DEFAULT}};
    long rows = 0, bad_rows = 0, bad_stats = 0;
    for (size_t sp = 0; sp < sizeof specs / sizeof specs[0]; sp++) {
        for (size_t rc = 0; rc < sizeof recipes / sizeof recipes[0]; rc++) {
            for (size_t o = 0; o < sizeof offsets / sizeof offsets[0]; o++) {
                pe_rope_config c = config(L, specs[sp].dim, specs[sp].base);
                if (specs[sp].type == PE_ROPE_LLAMA3) {
                    c.rope_type = PE_ROPE_LLAMA3;
                    c.factor = 8.0;
                    c.original_max_position_embeddings = 8192;
                    c.low_freq_factor = 1.0;
                    c.high_freq_factor = 4.0;
                }
                if (offsets[o] > PE_MAX_POSITION - L) continue;
                CHECK(pe_rope_precision_variant(out, cs, sn, re, st, scratch, offsets[o], recipes[rc], &c,
                                                pe_round_array_scalar, pe_phase_array_scalar) == PE_OK,
                      "kernel runs");
                for (int simd = 0; simd < 2; simd++) {
                    pe_status s2 =
                        simd ? pe_rope_precision_sweep(re2, st2, scratch2, offsets[o], recipes[rc][0], recipes[rc][1],
                                                       recipes[rc][2], recipes[rc][3], c.length, c.dim, c.base,
                                                       c.partial_rotary_factor, c.max_position_embeddings, c.rope_type,
                                                       c.factor, c.original_max_position_embeddings, c.beta_fast,
                                                       c.beta_slow, c.truncate, c.mscale, c.mscale_all_dim,
                                                       c.attention_factor, c.low_freq_factor, c.high_freq_factor)
                             : pe_rope_precision_sweep_variant(re2, st2, scratch2, offsets[o], recipes[rc], &c,
                                                               pe_round_array_scalar, pe_phase_array_scalar);
                    CHECK(s2 == PE_OK, "sweep runs");
                    for (int r = 0; r < L; r++) {
                        rows++;
                        if (memcmp(re + r, re2 + r, 4)) {
                            if (bad_rows < 5)
                                printf("  sweep row_error differs: dim %d recipe %zu offset %d row %d: %.9g vs %.9g\n",
                                       c.dim, rc, offsets[o], r, re[r], re2[r]);
                            bad_rows++;
                        }
                    }
                    if (st[0] != st2[0] || st[1] != st2[1]) {
                        if (bad_stats < 5)
                            printf("  sweep stats differ: dim %d recipe %zu offset %d: %g/%g vs %g/%g\n", c.dim, rc,
                                   offsets[o], st[0], st[1], st2[0], st2[1]);
                        bad_stats++;
                    }
                }
            }
        }
    }
    CHECK(bad_rows == 0, "sweep: %ld of %ld rows differ from the kernel's row_error", bad_rows, rows);
    CHECK(bad_stats == 0, "sweep: %ld runs with other collisions than the kernel's", bad_stats);
    pe_rope_config c = config(4, 8, 10000.0);
    const int32_t ok[4] = {1, 1, 1, 1}, bad[4] = {1, 4, 1, 1};
    CHECK(pe_rope_precision_sweep_variant(NULL, st2, scratch2, 0, ok, &c, pe_round_array_scalar,
                                          pe_phase_array_scalar) == PE_ERR_ARG(1),
          "sweep: row_error NULL");
    CHECK(pe_rope_precision_sweep_variant(re2, st2, scratch2, -1, ok, &c, pe_round_array_scalar,
                                          pe_phase_array_scalar) == PE_ERR_ARG(4),
          "sweep: offset < 0");
    CHECK(pe_rope_precision_sweep_variant(re2, st2, scratch2, 0, bad, &c, pe_round_array_scalar,
                                          pe_phase_array_scalar) == PE_ERR_ARG(6),
          "sweep: float32_pow positions");
    c.dim = 7;
    CHECK(pe_rope_precision_sweep_variant(re2, st2, scratch2, 0, ok, &c, pe_round_array_scalar,
                                          pe_phase_array_scalar) == PE_ERR_ARG(10),
          "sweep: odd dim is spec argument 2");
}

// --- 8. The sweep's fast entries: the kernel's float error, or a refusal --------------------------

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t next_random(void) {   // xorshift64*
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1Dull;
}
static double uniform(void) { return (double)(next_random() >> 11) * 0x1p-53; }

static void test_fast_entry(void) {
    static const int32_t tables[] = {PE_RECIPE_FLOAT32, PE_RECIPE_BFLOAT16, PE_RECIPE_FLOAT16};
    long tried = 0, taken = 0, wrong = 0, pair_bad = 0;
    for (int k = 0; k < 3000000; k++) {
        const int32_t table = tables[k % 3];
        const uint32_t p = (uint32_t)(next_random() >> (33 + (k / 3) % 31));   // p of every size
        const double omega = pow(10000.0, -uniform());                         // ω in [1e-4, 1]
        double phi;
        switch ((k / 93) % 6) {
        case 0: phi = pe_round_float32((double)p * omega); break;   // a float32 phase
        case 1: phi = pe_round_bfloat16((double)p * omega); break;
        case 2: phi = (double)p * omega; break;   // a float64 phase
        case 3:   // next to a multiple of π/4 (where cos or sin crosses 0, or the quadrant turns)
            phi = pe_round_float32(floor(uniform() * 1e6) * (PI / 4.0)) + (uniform() - 0.5) * 1e-6;
            break;
        case 4: phi = ldexp(uniform(), -(int)(next_random() % 40)); break;   // tiny phases
        default:   // errors next to π, where the kernel wraps and caps
            phi = pe_round_float32((double)p * omega + PI * (1.0 - ldexp(uniform(), -(int)(next_random() % 30))));
            break;
        }
        const double c = pe_round_dtype(cos(phi), table), s = pe_round_dtype(sin(phi), table);
        const float want = (float)pe_angle_error(c, s, p, omega);
        float got = -1.0f;
        tried++;
        // the two-lane form (SIMD) gives the same answers as the scalar one, in either lane
        static double pair_phi[2], pair_omega[2];
        static uint32_t pair_p[2];
        pair_phi[k & 1] = phi, pair_omega[k & 1] = omega, pair_p[k & 1] = p;
        if (k & 1) {
            float two[2] = {-1.0f, -1.0f}, one[2] = {-2.0f, -2.0f};
            const int bits = pe_precision_fast_entry_pair(pair_phi, table, pair_p, pair_omega, two);
            int ones = 0;
            for (int j = 0; j < 2; j++)
                ones |= pe_precision_fast_entry(pair_phi[j], table, pair_p[j], pair_omega[j], one + j) << j;
            if (bits != ones || ((bits & 1) && memcmp(two, one, 4)) || ((bits & 2) && memcmp(two + 1, one + 1, 4)))
                pair_bad++;
        }
        if (pe_precision_fast_entry(phi, table, p, omega, &got)) {
            taken++;
            if (memcmp(&got, &want, sizeof got)) {
                if (wrong < 5)
                    printf("  fast entry: φ %.17g p %u ω %.17g table %d: %.9g, the kernel %.9g\n", phi, p, omega, table,
                           got, want);
                wrong++;
            }
        }
    }
    CHECK(wrong == 0, "fast entries: %ld of %ld differ from the kernel's", wrong, taken);
    CHECK(pair_bad == 0, "fast entries: the two-lane form differs from the scalar one on %ld pairs", pair_bad);
    // tiny phases and tiny errors (small p) are left to the kernel: about 1 in 5 of these draws
    CHECK(taken > tried * 3 / 4, "fast entries: only %ld of %ld certain", taken, tried);
    printf("  fast entries: %ld of %ld certain, all equal to the kernel's\n", taken, tried);
    float e = 0.0f;
    CHECK(!pe_precision_fast_entry(1.0, PE_RECIPE_FLOAT64, 1, 1.0, &e), "fast entry: no float64 tables");
    CHECK(!pe_precision_fast_entry(NAN, PE_RECIPE_FLOAT32, 1, 1.0, &e), "fast entry: NaN phase refused");
    CHECK(!pe_precision_fast_entry(INFINITY, PE_RECIPE_FLOAT32, 1, 1.0, &e), "fast entry: ∞ refused");
    CHECK(!pe_precision_fast_entry(0x1p40, PE_RECIPE_FLOAT32, 1, 1.0, &e), "fast entry: huge phase refused");
    CHECK(!pe_precision_fast_entry(1.0, PE_RECIPE_FLOAT32, 1, 1.0, &e),
          "fast entry: an error near 0 is left to the kernel");
}

int main(void) {
    test_fast_entry();
    test_sweep();
    test_float32_pow();
    test_round_trips();
    test_exact_product();
    test_simd_matches_scalar();
    test_known_values();
    test_bad_arguments();
    if (!getenv("SKIP_EXHAUSTIVE")) test_every_float32();
    return test_summary("precision");
}
