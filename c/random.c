// SplitMix64 + Box–Muller (the generator G of c/random.h, where it is fully specified): the
// scalar reference, and a SIMD variant that evaluates ln, cos and sin by series in float64 lanes.
#include <math.h>
#include <stddef.h>

#include "random.h"

#define SPLITMIX64_GAMMA 0x9E3779B97F4A7C15ull
#define TWO_PI 6.283185307179586

int pe_random_seed_ok(double seed) { return seed >= 0.0 && seed <= PE_MAX_SEED && seed == floor(seed); }

// --- scalar reference ---------------------------------------------------------------------------

uint64_t pe_splitmix64_at(uint64_t seed, uint64_t t) {
    uint64_t z = seed + (t + 1) * SPLITMIX64_GAMMA;   // unsigned: wraps mod 2^64
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// ρ and θ of pair q.
static void polar(uint64_t seed, uint64_t q, double *rho, double *theta) {
    const double u1 = (double)((pe_splitmix64_at(seed, 2 * q) >> 11) + 1) * 0x1p-53;
    const double u2 = (double)(pe_splitmix64_at(seed, 2 * q + 1) >> 11) * 0x1p-53;
    *rho = sqrt(-2.0 * log(u1));
    *theta = TWO_PI * u2;
}

double pe_random_normal(uint64_t seed, uint32_t p, uint32_t c) {
    double rho, theta;
    polar(seed, (uint64_t)p * PE_RANDOM_PAIRS_PER_ROW + c / 2, &rho, &theta);
    return c % 2 == 0 ? rho * cos(theta) : rho * sin(theta);
}

// Columns c0 .. c1 − 1 (c0 even) of row p: out and add point at column 0 of the row.
static void row_columns(float *out, uint64_t seed, uint32_t p, int32_t c0, int32_t c1, double scale, const float *add) {
    const uint64_t first = (uint64_t)p * PE_RANDOM_PAIRS_PER_ROW;
    for (int32_t c = c0; c < c1; c += 2) {
        double rho, theta;
        polar(seed, first + (uint64_t)(c / 2), &rho, &theta);   // pair q holds columns c and c + 1
        const float z0 = (float)(scale * (rho * cos(theta)));
        out[c] = add != NULL ? z0 + add[c] : z0;
        if (c + 1 < c1) {
            const float z1 = (float)(scale * (rho * sin(theta)));
            out[c + 1] = add != NULL ? z1 + add[c + 1] : z1;
        }
    }
}

void pe_random_row_scalar(float *out, uint64_t seed, uint32_t p, int32_t n, double scale, const float *add) {
    row_columns(out, seed, p, 0, n, scale, add);
}

// --- SIMD ---------------------------------------------------------------------------------------

#if PE_HAVE_SIMD
// The same deviates, two pairs (four values) per step in float64 lanes: SplitMix64 with i64x2
// multiplies, u from the top 53 bits through the exponent (exact), ln u1 = e·ln 2 + 2·atanh(s)
// (s = (m − 1)/(m + 1), m ∈ [√½, √2), |s| < 0.172, series to s^19), and cos/sin of 2π·u2 from
// the quadrant n = round(4·u2) and Taylor series on [−π/4, π/4] (to r^13 and r^14), evaluated by
// Estrin's scheme (short dependency chains). Both are within 3e-14 relative of the float64
// functions (and the reference's cos/sin of its rounded θ within 1e-15 absolute of the series'),
// so the float32 results are the reference's rounded values except next to a rounding boundary:
// then 1 ulp apart (measured: 72 of 1.2·10^9 values; none of the 38880 of tests/native).

// i64x2.mul: lanes multiplied mod 2^64.
static inline v128_t mul64_x2(v128_t a, uint64_t b) {
#if defined(PE_NATIVE_SIMDE)
    // SIMDe's portable i64x2.mul multiplies signed lanes (overflow that UBSan rightly reports),
    // while the wasm instruction wraps by definition: the native tests wrap explicitly.
    const uint64_t a0 = (uint64_t)wasm_i64x2_extract_lane(a, 0), a1 = (uint64_t)wasm_i64x2_extract_lane(a, 1);
    return wasm_i64x2_make((int64_t)(a0 * b), (int64_t)(a1 * b));
#else
    return wasm_i64x2_mul(a, wasm_i64x2_splat((int64_t)b));
#endif
}

static inline v128_t splitmix_x2(v128_t seed, v128_t t) {   // output t of each lane
    v128_t z = wasm_i64x2_add(seed, mul64_x2(wasm_i64x2_add(t, wasm_i64x2_splat(1)), 0x9E3779B97F4A7C15ull));
    z = mul64_x2(wasm_v128_xor(z, wasm_u64x2_shr(z, 30)), 0xBF58476D1CE4E5B9ull);
    z = mul64_x2(wasm_v128_xor(z, wasm_u64x2_shr(z, 27)), 0x94D049BB133111EBull);
    return wasm_v128_xor(z, wasm_u64x2_shr(z, 31));
}

// (z >> 11)·2^-53, exactly: 1 + (z >> 12)·2^-52 is built in the bits, then bit 11 added.
static inline v128_t unit_x2(v128_t z) {
    const v128_t one_bits = wasm_i64x2_splat(0x3FF0000000000000ll);
    const v128_t f = wasm_v128_or(wasm_u64x2_shr(z, 12), one_bits);                         // [1, 2)
    const v128_t bit11 = wasm_i64x2_shr(wasm_i64x2_shl(z, 52), 63);                         // all ones or 0
    const v128_t half_ulp = wasm_v128_and(bit11, wasm_i64x2_splat(0x3CA0000000000000ll));   // 2^-53
    return wasm_f64x2_add(wasm_f64x2_sub(f, wasm_f64x2_splat(1.0)), half_ulp);
}

#define F64(v) wasm_f64x2_splat(v)
static inline v128_t madd(v128_t a, v128_t b, v128_t c) { return wasm_f64x2_add(wasm_f64x2_mul(a, b), c); }

static inline v128_t log_x2(v128_t u) {   // u in [2^-53, 1]
    v128_t e = wasm_i64x2_sub(wasm_u64x2_shr(u, 52), wasm_i64x2_splat(1023));
    v128_t m = wasm_v128_or(wasm_v128_and(u, wasm_i64x2_splat(0x000FFFFFFFFFFFFFll)),
                            wasm_i64x2_splat(0x3FF0000000000000ll));   // [1, 2)
    const v128_t big = wasm_f64x2_gt(m, F64(1.4142135623730951));
    m = wasm_v128_bitselect(wasm_f64x2_mul(m, F64(0.5)), m, big);
    e = wasm_i64x2_sub(e, big);   // big lanes are −1: e + 1
    const v128_t ed = wasm_f64x2_convert_low_i32x4(wasm_i32x4_shuffle(e, e, 0, 2, 0, 2));
    const v128_t s = wasm_f64x2_div(wasm_f64x2_sub(m, F64(1.0)), wasm_f64x2_add(m, F64(1.0)));
    // atanh(s)/s = Σ_{k=0..9} y^k/(2k + 1), y = s² ≤ 0.0295 (next term < 3e-17), by Estrin.
    const v128_t y = wasm_f64x2_mul(s, s), y2 = wasm_f64x2_mul(y, y), y4 = wasm_f64x2_mul(y2, y2);
    const v128_t y8 = wasm_f64x2_mul(y4, y4);
    const v128_t p01 = madd(y, F64(1.0 / 3), F64(1.0)), p23 = madd(y, F64(1.0 / 7), F64(1.0 / 5));
    const v128_t p45 = madd(y, F64(1.0 / 11), F64(1.0 / 9)), p67 = madd(y, F64(1.0 / 15), F64(1.0 / 13));
    const v128_t p89 = madd(y, F64(1.0 / 19), F64(1.0 / 17));
    const v128_t p = madd(y8, p89, madd(y4, madd(y2, p67, p45), madd(y2, p23, p01)));
    const v128_t logm = wasm_f64x2_mul(wasm_f64x2_add(s, s), p);
    return madd(ed, F64(0.6931471805599453), logm);
}

// cos(2π·u) and sin(2π·u) for u in [0, 1).
static inline void sincos_turns_x2(v128_t u, v128_t *c_out, v128_t *s_out) {
    const v128_t n = wasm_f64x2_nearest(wasm_f64x2_mul(u, F64(4.0)));                                // 0..4
    const v128_t r = wasm_f64x2_mul(wasm_f64x2_sub(u, wasm_f64x2_mul(n, F64(0.25))), F64(TWO_PI));   // |r| ≤ π/4
    // sin r = r·Σ_{k≤6} (−1)^k y^k/(2k+1)!, cos r = Σ_{k≤7} (−1)^k y^k/(2k)!, y = r², by Estrin
    // (next terms below 3e-14 and 1e-15 of the result).
    const v128_t y = wasm_f64x2_mul(r, r), y2 = wasm_f64x2_mul(y, y), y4 = wasm_f64x2_mul(y2, y2);
    const v128_t s01 = madd(y, F64(-1.0 / 6), F64(1.0)), s23 = madd(y, F64(-1.0 / 5040), F64(1.0 / 120));
    const v128_t s45 = madd(y, F64(-1.0 / 39916800), F64(1.0 / 362880));
    const v128_t sp = madd(y4, madd(y2, F64(1.0 / 6227020800.0), s45), madd(y2, s23, s01));
    const v128_t c01 = madd(y, F64(-0.5), F64(1.0)), c23 = madd(y, F64(-1.0 / 720), F64(1.0 / 24));
    const v128_t c45 = madd(y, F64(-1.0 / 3628800), F64(1.0 / 40320));
    const v128_t c67 = madd(y, F64(-1.0 / 87178291200.0), F64(1.0 / 479001600.0));
    const v128_t pc = madd(y4, madd(y2, c67, c45), madd(y2, c23, c01));
    const v128_t ps = wasm_f64x2_mul(sp, r);
    // Quadrant n: (cos, sin)(2π·u) = (c, s), (−s, c), (−c, −s), (s, −c) for n mod 4 = 0, 1, 2, 3.
    const v128_t ni = wasm_i64x2_extend_low_i32x4(wasm_i32x4_trunc_sat_f64x2_zero(n));
    const v128_t zero = wasm_i64x2_splat(0);
    const v128_t swap = wasm_i64x2_ne(wasm_v128_and(ni, wasm_i64x2_splat(1)), zero);
    const v128_t neg_sin = wasm_i64x2_ne(wasm_v128_and(ni, wasm_i64x2_splat(2)), zero);
    const v128_t neg_cos =
        wasm_i64x2_ne(wasm_v128_and(wasm_i64x2_add(ni, wasm_i64x2_splat(1)), wasm_i64x2_splat(2)), zero);
    const v128_t sign = wasm_i64x2_splat((int64_t)0x8000000000000000ull);
    v128_t c = wasm_v128_bitselect(ps, pc, swap), sn = wasm_v128_bitselect(pc, ps, swap);
    *c_out = wasm_v128_xor(c, wasm_v128_and(neg_cos, sign));
    *s_out = wasm_v128_xor(sn, wasm_v128_and(neg_sin, sign));
}

// Rounding to float32 is monotonic: when v − e and v + e round to the same float32 (same bits),
// so does every value between them, the reference's included when it is within e of v.
static inline v128_t same_f32_x2(v128_t v, v128_t e) {
    return wasm_i32x4_eq(wasm_f32x4_demote_f64x2_zero(wasm_f64x2_sub(v, e)),
                         wasm_f32x4_demote_f64x2_zero(wasm_f64x2_add(v, e)));
}

// exact: check every step against the series' error bound, and leave the steps that fail it to
// the reference. The bound is far above the measured error (within 3e-14 relative, and the
// reference's own cos/sin of its rounded θ are within 1e-15 absolute): 2^-40·|v| + 2^-46·|scale·ρ|.
static inline void row_simd(float *out, uint64_t seed, uint32_t p, int32_t n, double scale, const float *add,
                            int exact) {
    const uint64_t first = (uint64_t)p * PE_RANDOM_PAIRS_PER_ROW;
    const v128_t sv = wasm_i64x2_splat((int64_t)seed), scv = wasm_f64x2_splat(scale);
    int32_t c = 0;
    for (; c + 4 <= n; c += 4) {
        const uint64_t q = first + (uint64_t)(c / 2);   // pairs q, q + 1
        const v128_t t = wasm_i64x2_make((int64_t)(2 * q), (int64_t)(2 * q + 2));
        const v128_t u1 = wasm_f64x2_add(unit_x2(splitmix_x2(sv, t)), wasm_f64x2_splat(0x1p-53));
        const v128_t u2 = unit_x2(splitmix_x2(sv, wasm_i64x2_add(t, wasm_i64x2_splat(1))));
        const v128_t rho = wasm_f64x2_sqrt(wasm_f64x2_mul(wasm_f64x2_splat(-2.0), log_x2(u1)));
        v128_t cs, sn;
        sincos_turns_x2(u2, &cs, &sn);
        const v128_t v0 = wasm_f64x2_mul(scv, wasm_f64x2_mul(rho, cs));
        const v128_t v1 = wasm_f64x2_mul(scv, wasm_f64x2_mul(rho, sn));
        if (exact) {
            const v128_t abs_e = wasm_f64x2_mul(wasm_f64x2_abs(wasm_f64x2_mul(scv, rho)), F64(0x1p-46));
            const v128_t e0 = madd(wasm_f64x2_abs(v0), F64(0x1p-40), abs_e);
            const v128_t e1 = madd(wasm_f64x2_abs(v1), F64(0x1p-40), abs_e);
            if (!wasm_i32x4_all_true(wasm_v128_and(same_f32_x2(v0, e0), same_f32_x2(v1, e1)))) {
                row_columns(out, seed, p, c, c + 4, scale, add);
                continue;
            }
        }
        const v128_t z0 = wasm_f32x4_demote_f64x2_zero(v0);
        const v128_t z1 = wasm_f32x4_demote_f64x2_zero(v1);
        v128_t z = wasm_i32x4_shuffle(z0, z1, 0, 4, 1, 5);   // c, c+1 of pair q; c+2, c+3 of q+1
        if (add != NULL) z = wasm_f32x4_add(z, wasm_v128_load(add + c));
        wasm_v128_store(out + c, z);
    }
    row_columns(out, seed, p, c, n, scale, add);   // the last 1..3 columns
}

void pe_random_row_simd(float *out, uint64_t seed, uint32_t p, int32_t n, double scale, const float *add) {
    row_simd(out, seed, p, n, scale, add, 0);
}

void pe_random_row_simd_exact(float *out, uint64_t seed, uint32_t p, int32_t n, double scale, const float *add) {
    row_simd(out, seed, p, n, scale, add, 1);
}
#endif
