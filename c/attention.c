// Attention patterns: scaled dot-product attention (Vaswani et al., 2017) with a positional
// encoding, for every head h, query i and key j:
//   score[h, i, j] = (q[h, i]·k[h, j]) / √dim + b[h, j − i]          (b: bias encodings only)
//   w[h, i, j]     = exp(score − max_j score) / Σ_j exp(score − max_j score),  j ≤ i when causal
//
// q and k (contract, kind `attention`; G(s, p, c) is the learned generator's N(0, 1) deviate of
// entry (p, c) for the 64-bit seed s, c/absolute.c; S(t) = seed + t·2^32 the seed of stream t):
//   random  q[h, i, c] = G(S(1), h·2^20 + i, c) + T[i, c],  k[h, i, c] = G(S(2), h·2^20 + i, c) + T[i, c]
//   tokens  x_i = e(word_i) + T[i],  e(w)[c] = G(fnv1a64(UTF-8 bytes of w) + seed, 0, c)
//           q[h, i] = W_q[h]·x_i, k[h, i] = W_k[h]·x_i,  W_q[h][r, c] = G(S(4), h·2^20 + r, c)/√dim,
//           W_k the same with S(5)   (r the output channel; same word → same vector)
//   none    q_i = k_i = T[i] (additive), the all-ones vector (rotary), 0 (bias or no encoding)
// with T the additive table (length, dim), or 0 without one. Each G value is rounded to float32
// once (after the 1/√dim); sums and products are float32.
// Encodings: additive tables enter through T; rotary ones rotate q and k afterwards with the
// given cos/sin tables (pe_rope_rotate_*, as pe_rope_apply); bias ones add b.
//
// The kernel works row by row: a tile of 4 queries is scored against 8-key panels (the SIMD core
// below), then each row is masked, soft-maxed and normalised while it is in cache. Under the
// causal mask, panels past the tile's last query are never computed (the upper triangle is
// skipped; only the few entries of the diagonal panel past the query are computed, then
// dropped). exp is a degree-7 polynomial of the reduced argument (pe_attention_exp: measured
// within 0.97 ulp of float64 exp over [−87.3, 0], tests/native/test_attention.c).
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "absolute.h"   // pe_splitmix64_at, PE_MAX_SEED
#include "alibi.h"      // pe_alibi_slopes, PE_MAX_ALIBI_HEADS
#include "attention.h"
#include "relative.h"   // pe_t5_bucket, pe_distance_bias, pe_bias_mode

#define STREAM(seed, t) ((seed) + ((uint64_t)(t) << 32))
#define HEAD_ROWS 1048576u      // generator rows per head: row h·2^20 + i
#define PAIRS_PER_ROW 8192u     // as the learned generator (c/absolute.c)
#define TWO_PI 6.283185307179586
#define PANEL 8                 // keys per SIMD panel
#define TILE 4                  // queries per score tile

// --- exp -----------------------------------------------------------------------------------------
//
// e^x = 2^n · e^r with n = round(x·log2 e) and r = x − n·ln 2 (ln 2 split in a high part with 8
// significant bits, so n·LN2_HI is exact, and a low part), |r| ≤ ln2/2; e^r = 1 + r + r²·P(r) with
// P the degree-5 minimax polynomial of Cephes' expf (published coefficients). 2^n is built in
// the exponent bits. Below ln(FLT_MIN) the result is 0 (no subnormals). Measured against the
// float64 exp over every 2^-10 step of [−87.3, 0] (tests/native/test_attention.c): < 2 ulp.

static const float EXP_LOW = -87.33654f;   // ln(FLT_MIN), rounded to float32
static const float LOG2E = 1.44269504088896341f;
static const float LN2_HI = 0.693359375f;
static const float LN2_LO = -2.12194440e-4f;
static const float EXP_P0 = 1.9875691500e-4f, EXP_P1 = 1.3981999507e-3f, EXP_P2 = 8.3334519073e-3f,
                   EXP_P3 = 4.1665795894e-2f, EXP_P4 = 1.6666665459e-1f, EXP_P5 = 5.0000001201e-1f;

static float pow2i(int32_t n) {   // 2^n for n in [−126, 127]
    uint32_t bits = (uint32_t)(n + 127) << 23;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

float pe_attention_exp(float x) {
    if (!(x >= EXP_LOW)) return 0.0f;   // also −∞ (and NaN)
    const float n = rintf(x * LOG2E);   // round half to even, as f32x4.nearest
    float r = x - n * LN2_HI;
    r = r - n * LN2_LO;
    float p = EXP_P0;
    p = p * r + EXP_P1;
    p = p * r + EXP_P2;
    p = p * r + EXP_P3;
    p = p * r + EXP_P4;
    p = p * r + EXP_P5;
    const float e = (p * (r * r) + r) + 1.0f;
    return e * pow2i((int32_t)n);
}

#if PE_HAVE_SIMD
v128_t pe_attention_exp_x4(v128_t x) {
    const v128_t low = wasm_f32x4_splat(EXP_LOW);
    const v128_t keep = wasm_f32x4_ge(x, low);       // false for −∞ and NaN
    x = wasm_f32x4_pmax(low, x);                     // low < x ? x : low: kept lanes unchanged
    const v128_t n = wasm_f32x4_nearest(wasm_f32x4_mul(x, wasm_f32x4_splat(LOG2E)));
    v128_t r = wasm_f32x4_sub(x, wasm_f32x4_mul(n, wasm_f32x4_splat(LN2_HI)));
    r = wasm_f32x4_sub(r, wasm_f32x4_mul(n, wasm_f32x4_splat(LN2_LO)));
    v128_t p = wasm_f32x4_splat(EXP_P0);
    p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(EXP_P1));
    p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(EXP_P2));
    p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(EXP_P3));
    p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(EXP_P4));
    p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(EXP_P5));
    v128_t e = wasm_f32x4_add(wasm_f32x4_mul(p, wasm_f32x4_mul(r, r)), r);
    e = wasm_f32x4_add(e, wasm_f32x4_splat(1.0f));
    // 2^n: n + 1.5·2^23 holds the integer n in its low mantissa bits (|n| ≤ 127), which is
    // cheaper than a saturating conversion; the bits then become the exponent of 2^n.
    const v128_t shifted = wasm_f32x4_add(n, wasm_f32x4_splat(12582912.0f));
    const v128_t biased = wasm_i32x4_sub(shifted, wasm_i32x4_splat(0x4B400000 - 127));   // n + 127
    return wasm_v128_and(wasm_f32x4_mul(e, wasm_i32x4_shl(biased, 23)), keep);
}
#endif

// --- softmax of one row --------------------------------------------------------------------------

float pe_attention_softmax_scalar(float *row, int32_t n) {
    float m = -INFINITY;
    for (int32_t j = 0; j < n; j++)
        if (row[j] > m) m = row[j];
    if (m == -INFINITY) {   // every entry masked: defined as zeros
        memset(row, 0, sizeof(float) * (size_t)(n > 0 ? n : 0));
        return 0.0f;
    }
    m += 0.0f;   // −0 → +0, so both variants subtract the same zero
    float z[4] = {0.0f, 0.0f, 0.0f, 0.0f}, sx[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int32_t j = 0; j < n; j++) {
        const float x = row[j] - m;
        const float e = pe_attention_exp(x);
        row[j] = e;
        z[j & 3] += e;
        sx[j & 3] += e * fmaxf(x, EXP_LOW);   // e = 0 where x < EXP_LOW: no 0·(−∞)
    }
    const float total = (z[0] + z[1]) + (z[2] + z[3]);
    const float weighted = (sx[0] + sx[1]) + (sx[2] + sx[3]);
    const float inv = 1.0f / total;   // total ≥ 1: the max contributes e^0 = 1
    for (int32_t j = 0; j < n; j++) row[j] *= inv;
    return (float)(log((double)total) - (double)weighted / (double)total);
}

#if PE_HAVE_SIMD
// The same float32 operations as the scalar reference: lane l of the vector sums holds the
// partial sum of j ≡ l (mod 4), the tail is added to its lane after.
float pe_attention_softmax_simd(float *row, int32_t n) {
    const int32_t n4 = n & ~3;
    v128_t mv = wasm_f32x4_splat(-INFINITY);
    for (int32_t j = 0; j < n4; j += 4) mv = wasm_f32x4_pmax(mv, wasm_v128_load(row + j));   // mv < v ? v : mv
    float m = fmaxf(fmaxf(wasm_f32x4_extract_lane(mv, 0), wasm_f32x4_extract_lane(mv, 1)),
                    fmaxf(wasm_f32x4_extract_lane(mv, 2), wasm_f32x4_extract_lane(mv, 3)));
    for (int32_t j = n4; j < n; j++)
        if (row[j] > m) m = row[j];
    if (m == -INFINITY) {
        memset(row, 0, sizeof(float) * (size_t)(n > 0 ? n : 0));
        return 0.0f;
    }
    m += 0.0f;
    const v128_t mm = wasm_f32x4_splat(m), low = wasm_f32x4_splat(EXP_LOW);
    v128_t zv = wasm_f32x4_splat(0.0f), sv = wasm_f32x4_splat(0.0f);
    for (int32_t j = 0; j < n4; j += 4) {
        const v128_t x = wasm_f32x4_sub(wasm_v128_load(row + j), mm);
        const v128_t e = pe_attention_exp_x4(x);
        wasm_v128_store(row + j, e);
        zv = wasm_f32x4_add(zv, e);
        sv = wasm_f32x4_add(sv, wasm_f32x4_mul(e, wasm_f32x4_pmax(low, x)));
    }
    float z[4], sx[4];
    wasm_v128_store(z, zv);
    wasm_v128_store(sx, sv);
    for (int32_t j = n4; j < n; j++) {
        const float x = row[j] - m;
        const float e = pe_attention_exp(x);
        row[j] = e;
        z[j & 3] += e;
        sx[j & 3] += e * fmaxf(x, EXP_LOW);
    }
    const float total = (z[0] + z[1]) + (z[2] + z[3]);
    const float weighted = (sx[0] + sx[1]) + (sx[2] + sx[3]);
    const float inv = 1.0f / total;
    const v128_t iv = wasm_f32x4_splat(inv);
    for (int32_t j = 0; j < n4; j += 4) wasm_v128_store(row + j, wasm_f32x4_mul(wasm_v128_load(row + j), iv));
    for (int32_t j = n4; j < n; j++) row[j] *= inv;
    return (float)(log((double)total) - (double)weighted / (double)total);
}
#endif

// --- scores --------------------------------------------------------------------------------------

// A plain copy loop; kept out of clang's vectorizer, whose unrolled transpose was 5 KB of the
// module for a step that costs a few per cent of the kernel.
#if defined(__clang__)
#define PE_NO_VECTORIZE _Pragma("clang loop vectorize(disable) interleave(disable) unroll(disable)")
#else
#define PE_NO_VECTORIZE
#endif

void pe_attention_pack(float *panels, const float *k, int32_t n, int32_t dim) {
    const int32_t count = (n + PANEL - 1) / PANEL;
    for (int32_t p = 0; p < count; p++) {
        float *panel = panels + (size_t)p * (size_t)dim * PANEL;   // (dim, 8)
        for (int32_t l = 0; l < PANEL; l++) {
            const int32_t j = p * PANEL + l;
            const float *key = j < n ? k + (size_t)j * (size_t)dim : k;   // past n: zeros
            PE_NO_VECTORIZE
            for (int32_t c = 0; c < dim; c++) panel[c * PANEL + l] = j < n ? key[c] : 0.0f;
        }
    }
}

void pe_attention_scores_scalar(float *out, ptrdiff_t out_stride, const float *q, const float *k,
                                const float *panels, const float *bias0, int32_t rows,
                                int32_t end0, int32_t step, int32_t dim, float scale) {
    (void)panels;
    for (int32_t r = 0; r < rows; r++) {
        const float *qr = q + (size_t)r * (size_t)dim;
        const float *b = bias0 != NULL ? bias0 - r : NULL;   // bias of row r at key j: b[j]
        float *o = out + (ptrdiff_t)r * out_stride;
        const int32_t end = end0 + r * step;
        for (int32_t j = 0; j < end; j++) {
            const float *kj = k + (size_t)j * (size_t)dim;
            float s = 0.0f;
            for (int32_t c = 0; c < dim; c++) s += qr[c] * kj[c];   // channel order
            s *= scale;
            o[j] = b != NULL ? s + b[j] : s;
        }
    }
}

#if PE_HAVE_SIMD
// Writes keys j .. j+7 of one row from its two accumulators, up to the row's end.
static inline void store_panel(float *o, v128_t a0, v128_t a1, int32_t j, int32_t end,
                               const float *b, v128_t scale) {
    if (j >= end) return;
    v128_t s0 = wasm_f32x4_mul(a0, scale), s1 = wasm_f32x4_mul(a1, scale);
    if (j + PANEL <= end) {
        if (b != NULL) {
            s0 = wasm_f32x4_add(s0, wasm_v128_load(b + j));
            s1 = wasm_f32x4_add(s1, wasm_v128_load(b + j + 4));
        }
        wasm_v128_store(o + j, s0);
        wasm_v128_store(o + j + 4, s1);
        return;
    }
    float t[PANEL];   // the diagonal (or last) panel: only keys before end
    wasm_v128_store(t, s0);
    wasm_v128_store(t + 4, s1);
    for (int32_t l = 0; j + l < end; l++) o[j + l] = b != NULL ? t[l] + b[j + l] : t[l];
}

// A tile of 4 queries × 8 keys in 8 accumulators: per channel two key loads, four broadcasts and
// 8 multiply-adds, each lane summing its key's products in channel order like the reference.
void pe_attention_scores_simd(float *out, ptrdiff_t out_stride, const float *q, const float *k,
                              const float *panels, const float *bias0, int32_t rows, int32_t end0,
                              int32_t step, int32_t dim, float scale) {
    (void)k;
    const int32_t end_max = end0 + step * (rows - 1);
    const float *q0 = q;   // rows past `rows` repeat row 0 and are not stored
    const float *q1 = rows > 1 ? q + dim : q;
    const float *q2 = rows > 2 ? q + 2 * (ptrdiff_t)dim : q;
    const float *q3 = rows > 3 ? q + 3 * (ptrdiff_t)dim : q;
    const v128_t sc = wasm_f32x4_splat(scale);
    for (int32_t j = 0; j < end_max; j += PANEL) {
        const float *panel = panels + (size_t)(j / PANEL) * (size_t)dim * PANEL;
        v128_t a00 = wasm_f32x4_splat(0.0f), a01 = a00, a10 = a00, a11 = a00;
        v128_t a20 = a00, a21 = a00, a30 = a00, a31 = a00;
#define PE_STEP(k0, k1, s0, s1, s2, s3)                                   \
    a00 = wasm_f32x4_add(a00, wasm_f32x4_mul(s0, k0));                    \
    a01 = wasm_f32x4_add(a01, wasm_f32x4_mul(s0, k1));                    \
    a10 = wasm_f32x4_add(a10, wasm_f32x4_mul(s1, k0));                    \
    a11 = wasm_f32x4_add(a11, wasm_f32x4_mul(s1, k1));                    \
    a20 = wasm_f32x4_add(a20, wasm_f32x4_mul(s2, k0));                    \
    a21 = wasm_f32x4_add(a21, wasm_f32x4_mul(s2, k1));                    \
    a30 = wasm_f32x4_add(a30, wasm_f32x4_mul(s3, k0));                    \
    a31 = wasm_f32x4_add(a31, wasm_f32x4_mul(s3, k1))
        // Per channel: two key loads, four query loads broadcast to every lane (v128.load32_splat,
        // one instruction that needs no register for the scalar), eight multiply-adds.
        for (int32_t c = 0; c < dim; c++) {
            const v128_t k0 = wasm_v128_load(panel + c * PANEL), k1 = wasm_v128_load(panel + c * PANEL + 4);
            PE_STEP(k0, k1, wasm_v128_load32_splat(q0 + c), wasm_v128_load32_splat(q1 + c),
                    wasm_v128_load32_splat(q2 + c), wasm_v128_load32_splat(q3 + c));
        }
#undef PE_STEP
        store_panel(out, a00, a01, j, end0, bias0, sc);
        if (rows > 1) store_panel(out + out_stride, a10, a11, j, end0 + step, bias0 ? bias0 - 1 : NULL, sc);
        if (rows > 2) store_panel(out + 2 * out_stride, a20, a21, j, end0 + 2 * step, bias0 ? bias0 - 2 : NULL, sc);
        if (rows > 3) store_panel(out + 3 * out_stride, a30, a31, j, end0 + 3 * step, bias0 ? bias0 - 3 : NULL, sc);
    }
}
#endif

// --- Gaussian rows -------------------------------------------------------------------------------

// Columns c0 .. c1 − 1 (c0 even) of row p: out and add point at column 0 of the row.
static void normal_columns(float *out, uint64_t seed, uint32_t p, int32_t c0, int32_t c1,
                           double scale, const float *add) {
    const uint64_t first = (uint64_t)p * PAIRS_PER_ROW;
    for (int32_t c = c0; c < c1; c += 2) {
        const uint64_t q = first + (uint64_t)(c / 2);   // pair q holds columns c and c + 1
        const double u1 = (double)((pe_splitmix64_at(seed, 2 * q) >> 11) + 1) * 0x1p-53;
        const double u2 = (double)(pe_splitmix64_at(seed, 2 * q + 1) >> 11) * 0x1p-53;
        const double rho = sqrt(-2.0 * log(u1)), theta = TWO_PI * u2;
        const float z0 = (float)(scale * (rho * cos(theta)));
        out[c] = add != NULL ? z0 + add[c] : z0;
        if (c + 1 < c1) {
            const float z1 = (float)(scale * (rho * sin(theta)));
            out[c + 1] = add != NULL ? z1 + add[c + 1] : z1;
        }
    }
}

void pe_attention_normal_scalar(float *out, uint64_t seed, uint32_t p, int32_t n, double scale,
                                const float *add) {
    normal_columns(out, seed, p, 0, n, scale, add);
}

#if PE_HAVE_SIMD
// The same deviates, two pairs (four values) per step in float64 lanes: SplitMix64 with i64x2
// multiplies, u from the top 53 bits through the exponent (exact), ln u1 = e·ln 2 + 2·atanh(s)
// (s = (m − 1)/(m + 1), m ∈ [√½, √2), |s| < 0.172, series to s^19), and cos/sin of 2π·u2 from
// the quadrant n = round(4·u2) and Taylor series on [−π/4, π/4] (to r^13 and r^14), evaluated by
// Estrin's scheme (short dependency chains). Both are within 3e-14 relative of the float64
// functions, so the float32 results are the reference's rounded values except within 3e-14 of a
// rounding boundary: then 1 ulp apart (measured: none in 38880 values, tests/native).

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
    const v128_t f = wasm_v128_or(wasm_u64x2_shr(z, 12), one_bits);               // [1, 2)
    const v128_t bit11 = wasm_i64x2_shr(wasm_i64x2_shl(z, 52), 63);                // all ones or 0
    const v128_t half_ulp = wasm_v128_and(bit11, wasm_i64x2_splat(0x3CA0000000000000ll));   // 2^-53
    return wasm_f64x2_add(wasm_f64x2_sub(f, wasm_f64x2_splat(1.0)), half_ulp);
}

#define F64(v) wasm_f64x2_splat(v)
static inline v128_t madd(v128_t a, v128_t b, v128_t c) { return wasm_f64x2_add(wasm_f64x2_mul(a, b), c); }

static inline v128_t log_x2(v128_t u) {   // u in [2^-53, 1]
    v128_t e = wasm_i64x2_sub(wasm_u64x2_shr(u, 52), wasm_i64x2_splat(1023));
    v128_t m = wasm_v128_or(wasm_v128_and(u, wasm_i64x2_splat(0x000FFFFFFFFFFFFFll)),
                            wasm_i64x2_splat(0x3FF0000000000000ll));                // [1, 2)
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
    const v128_t n = wasm_f64x2_nearest(wasm_f64x2_mul(u, F64(4.0)));                 // 0..4
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
    const v128_t neg_cos = wasm_i64x2_ne(wasm_v128_and(wasm_i64x2_add(ni, wasm_i64x2_splat(1)), wasm_i64x2_splat(2)), zero);
    const v128_t sign = wasm_i64x2_splat((int64_t)0x8000000000000000ull);
    v128_t c = wasm_v128_bitselect(ps, pc, swap), sn = wasm_v128_bitselect(pc, ps, swap);
    *c_out = wasm_v128_xor(c, wasm_v128_and(neg_cos, sign));
    *s_out = wasm_v128_xor(sn, wasm_v128_and(neg_sin, sign));
}

void pe_attention_normal_simd(float *out, uint64_t seed, uint32_t p, int32_t n, double scale,
                              const float *add) {
    const uint64_t first = (uint64_t)p * PAIRS_PER_ROW;
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
        const v128_t z0 = wasm_f32x4_demote_f64x2_zero(wasm_f64x2_mul(scv, wasm_f64x2_mul(rho, cs)));
        const v128_t z1 = wasm_f32x4_demote_f64x2_zero(wasm_f64x2_mul(scv, wasm_f64x2_mul(rho, sn)));
        v128_t z = wasm_i32x4_shuffle(z0, z1, 0, 4, 1, 5);   // c, c+1 of pair q; c+2, c+3 of q+1
        if (add != NULL) z = wasm_f32x4_add(z, wasm_v128_load(add + c));
        wasm_v128_store(out + c, z);
    }
    normal_columns(out, seed, p, c, n, scale, add);   // the last 1..3 columns
}
#endif

// --- relative biases -----------------------------------------------------------------------------

static int bad_seed(double seed) {
    return !(seed >= 0.0 && seed <= PE_MAX_SEED) || seed != floor(seed);
}

// One standard normal deviate G(seed, p, c) (the learned generator's entry (p, c)).
static double normal_at(uint64_t seed, uint32_t p, uint32_t c) { return pe_learned_normal(seed, p, c); }

pe_status pe_attention_bias_alibi(float *bias, int32_t length, int32_t heads, int32_t mode) {
    if (bias == NULL) return PE_ERR_ARG(1);
    if (length < 1 || length > PE_MAX_BIAS_LENGTH) return PE_ERR_ARG(2);
    if (heads < 1 || heads > PE_MAX_ALIBI_HEADS) return PE_ERR_ARG(3);
    if (mode != PE_BIAS_CAUSAL && mode != PE_BIAS_SYMMETRIC) return PE_ERR_ARG(4);
    const int32_t width = 2 * length - 1;
    if ((int64_t)heads * width > PE_MAX_ELEMENTS) return PE_ERR_TOO_LARGE;
    double m[PE_MAX_ALIBI_HEADS];
    pe_alibi_slopes(m, heads);
    for (int32_t h = 0; h < heads; h++) {
        float *plane = bias + (size_t)h * (size_t)width + (length - 1);   // plane[r], r = j − i
        for (int32_t r = -(length - 1); r < length; r++) {
            const int32_t d = r < 0 ? -r : r;
            plane[r] = r > 0 && mode == PE_BIAS_CAUSAL ? -INFINITY : (float)(0.0 - m[h] * (double)d);
        }
    }
    return PE_OK;
}

pe_status pe_attention_bias_t5(float *bias, int32_t length, int32_t heads, int32_t num_buckets,
                               int32_t max_distance, int32_t bidirectional, double seed) {
    if (bias == NULL) return PE_ERR_ARG(1);
    if (length < 1 || length > PE_MAX_BIAS_LENGTH) return PE_ERR_ARG(2);
    if (heads < 1 || heads > PE_MAX_ATTENTION_HEADS) return PE_ERR_ARG(3);
    if (num_buckets < 4 || num_buckets > PE_MAX_T5_BUCKETS) return PE_ERR_ARG(4);
    if (bidirectional != 0 && bidirectional != 1) return PE_ERR_ARG(6);
    const int32_t max_exact = (bidirectional ? num_buckets / 2 : num_buckets) / 2;
    if (max_distance <= max_exact || max_distance > PE_MAX_LENGTH) return PE_ERR_ARG(5);
    if (bad_seed(seed)) return PE_ERR_ARG(7);
    const int32_t width = 2 * length - 1;
    const uint64_t s = STREAM((uint64_t)seed, PE_STREAM_BIAS);
    for (int32_t h = 0; h < heads; h++) {
        float *plane = bias + (size_t)h * (size_t)width + (length - 1);
        for (int32_t r = -(length - 1); r < length; r++) {
            const int32_t b = pe_t5_bucket(r, num_buckets, max_distance, bidirectional);
            plane[r] = (float)normal_at(s, (uint32_t)h, (uint32_t)b);   // T[h, bucket]
        }
    }
    return PE_OK;
}

pe_status pe_attention_bias_shaw(float *bias, int32_t length, int32_t heads,
                                 int32_t max_relative_position, double seed) {
    if (bias == NULL) return PE_ERR_ARG(1);
    if (length < 1 || length > PE_MAX_BIAS_LENGTH) return PE_ERR_ARG(2);
    if (heads < 1 || heads > PE_MAX_ATTENTION_HEADS) return PE_ERR_ARG(3);
    if (max_relative_position < 0 || max_relative_position > PE_MAX_LENGTH) return PE_ERR_ARG(4);
    if (bad_seed(seed)) return PE_ERR_ARG(5);
    const int32_t width = 2 * length - 1, k = max_relative_position;
    const uint64_t s = STREAM((uint64_t)seed, PE_STREAM_BIAS);
    for (int32_t h = 0; h < heads; h++) {
        float *plane = bias + (size_t)h * (size_t)width + (length - 1);
        for (int32_t r = -(length - 1); r < length; r++) {
            const int32_t index = (r < -k ? -k : r > k ? k : r) + k;   // clip(r, −k, k) + k
            plane[r] = (float)normal_at(s, (uint32_t)h, (uint32_t)index);
        }
    }
    return PE_OK;
}

pe_status pe_attention_bias_distance(float *bias, int32_t length, int32_t function, double strength,
                                     double scale, int32_t mode) {
    if (bias == NULL) return PE_ERR_ARG(1);
    if (length < 1 || length > PE_MAX_BIAS_LENGTH) return PE_ERR_ARG(2);
    if (function < PE_DIST_LINEAR || function > PE_DIST_EXPONENTIAL) return PE_ERR_ARG(3);
    if (!(strength >= 0.0 && strength <= 1000.0)) return PE_ERR_ARG(4);
    if (!(scale >= 0.01 && scale <= 1e6)) return PE_ERR_ARG(5);
    if (mode != PE_BIAS_CAUSAL && mode != PE_BIAS_SYMMETRIC) return PE_ERR_ARG(6);
    float *plane = bias + (length - 1);
    for (int32_t r = -(length - 1); r < length; r++)
        plane[r] = r > 0 && mode == PE_BIAS_CAUSAL ? -INFINITY
                                                  : (float)pe_distance_bias(r < 0 ? -r : r, function, strength, scale);
    return PE_OK;
}

pe_status pe_attention_cos_sin(float *cos_out, float *sin_out, const float *angles, int32_t n) {
    if (cos_out == NULL) return PE_ERR_ARG(1);
    if (sin_out == NULL) return PE_ERR_ARG(2);
    if (angles == NULL) return PE_ERR_ARG(3);
    if (n < 0) return PE_ERR_ARG(4);
    if (n > PE_MAX_ELEMENTS) return PE_ERR_TOO_LARGE;
    for (int32_t t = 0; t < n; t++) {
        cos_out[t] = (float)cos((double)angles[t]);
        sin_out[t] = (float)sin((double)angles[t]);
    }
    return PE_OK;
}

// --- the kernel ----------------------------------------------------------------------------------

uint64_t pe_fnv1a64(const uint8_t *bytes, int32_t n) {
    uint64_t h = 0xCBF29CE484222325ull;
    for (int32_t t = 0; t < n; t++) h = (h ^ bytes[t]) * 0x100000001B3ull;
    return h;
}

static int32_t panel_keys(int32_t n) { return (n + PANEL - 1) / PANEL * PANEL; }

int32_t pe_attention_scratch_floats(int32_t length, int32_t dim, int32_t heads, int32_t content) {
    if (length < 1 || length > PE_MAX_ATTENTION_LENGTH || dim < 1 || dim > PE_MAX_ATTENTION_DIM ||
        heads < 1 || heads > PE_MAX_ATTENTION_HEADS || content < PE_CONTENT_RANDOM || content > PE_CONTENT_PREPARED)
        return -1;
    const int64_t qk = (int64_t)heads * length * dim;
    if (qk > PE_MAX_ATTENTION_QK) return -1;
    const int32_t keys = panel_keys(length > dim ? length : dim);
    int64_t total = 2 * qk + (int64_t)keys * dim;
    if (content == PE_CONTENT_TOKENS) total += (int64_t)length * dim + (int64_t)dim * dim;
    return (int32_t)total;
}

static const pe_attention_ops OPS_SCALAR = {
    pe_attention_scores_scalar, pe_attention_softmax_scalar, pe_attention_normal_scalar,
    pe_rope_rotate_scalar, 0,
};
#if PE_HAVE_SIMD
static const pe_attention_ops OPS_SIMD = {
    pe_attention_scores_simd, pe_attention_softmax_simd, pe_attention_normal_simd,
    pe_rope_rotate_simd, 1,
};
#endif

const pe_attention_ops *pe_attention_ops_scalar(void) { return &OPS_SCALAR; }
const pe_attention_ops *pe_attention_ops_default(void) {
#if PE_HAVE_SIMD
    return &OPS_SIMD;
#else
    return &OPS_SCALAR;
#endif
}

// Random q and k (heads, length, dim) with the additive table (or NULL) added.
static void random_qk(float *q, float *k, int32_t heads, int32_t length, int32_t dim, uint64_t seed,
                      const float *add_table, const pe_attention_ops *ops) {
    const size_t plane = (size_t)length * (size_t)dim;
    for (int32_t h = 0; h < heads; h++)
        for (int32_t i = 0; i < length; i++) {
            const size_t at = (size_t)h * plane + (size_t)i * (size_t)dim;
            const uint32_t p = (uint32_t)h * HEAD_ROWS + (uint32_t)i;
            const float *row = add_table != NULL ? add_table + (size_t)i * (size_t)dim : NULL;
            ops->normal(q + at, STREAM(seed, PE_STREAM_Q), p, dim, 1.0, row);
            ops->normal(k + at, STREAM(seed, PE_STREAM_K), p, dim, 1.0, row);
        }
}

pe_status pe_attention_random(float *q, float *k, int32_t heads, int32_t length, int32_t dim,
                              double seed) {
    if (q == NULL) return PE_ERR_ARG(1);
    if (k == NULL) return PE_ERR_ARG(2);
    if (heads < 1 || heads > PE_MAX_ATTENTION_HEADS) return PE_ERR_ARG(3);
    if (length < 1 || length > PE_MAX_ATTENTION_LENGTH) return PE_ERR_ARG(4);
    if (dim < 1 || dim > PE_MAX_ATTENTION_DIM) return PE_ERR_ARG(5);
    if (bad_seed(seed)) return PE_ERR_ARG(6);
    if ((int64_t)heads * length * dim > PE_MAX_ATTENTION_QK) return PE_ERR_TOO_LARGE;
    random_qk(q, k, heads, length, dim, (uint64_t)seed, NULL, pe_attention_ops_default());
    return PE_OK;
}

// out[t, r] = Σ_c x[t, c]·w[r, c] for t < count, r < dim (float32, channel order): the "scores"
// of the rows of x against the dim rows of w (packed into panels for the SIMD variant).
static void project_rows(float *out, const float *x, int32_t count, const float *w,
                         const float *panels, int32_t dim, const pe_attention_ops *ops) {
    for (int32_t t = 0; t < count; t += TILE) {
        const int32_t rows = count - t < TILE ? count - t : TILE;
        ops->scores(out + (size_t)t * (size_t)dim, dim, x + (size_t)t * (size_t)dim, w, panels, NULL,
                    rows, dim, 0, dim, 1.0f);
    }
}

pe_status pe_attention_variant(float *out, float *entropy, float *local_mass, float *scratch,
                               const float *table, const float *rot_cos, const float *rot_sin,
                               const float *bias, const uint8_t *text, const int32_t *words,
                               int32_t length, int32_t dim, int32_t heads, int32_t causal,
                               int32_t encoding, int32_t rotary_dim, int32_t rotary_layout,
                               int32_t bias_heads, int32_t content, double seed,
                               const pe_attention_ops *ops) {
    if (out == NULL) return PE_ERR_ARG(1);
    if (scratch == NULL) return PE_ERR_ARG(4);
    if (ops == NULL) return PE_ERR_ARG(21);
    if (length < 1 || length > PE_MAX_ATTENTION_LENGTH) return PE_ERR_ARG(11);
    if (dim < 1 || dim > PE_MAX_ATTENTION_DIM) return PE_ERR_ARG(12);
    if (heads < 1 || heads > PE_MAX_ATTENTION_HEADS) return PE_ERR_ARG(13);
    if (causal != 0 && causal != 1) return PE_ERR_ARG(14);
    if (encoding < PE_ENCODING_NONE || encoding > PE_ENCODING_BIAS) return PE_ERR_ARG(15);
    if (content < PE_CONTENT_RANDOM || content > PE_CONTENT_PREPARED) return PE_ERR_ARG(19);
    if (bad_seed(seed)) return PE_ERR_ARG(20);
    if ((int64_t)heads * length * length > PE_MAX_ELEMENTS) return PE_ERR_TOO_LARGE;
    if ((int64_t)heads * length * dim > PE_MAX_ATTENTION_QK) return PE_ERR_TOO_LARGE;
    switch (encoding) {
    case PE_ENCODING_ADDITIVE:
        if (table == NULL) return PE_ERR_ARG(5);
        break;
    case PE_ENCODING_ROTARY:
        if (rot_cos == NULL) return PE_ERR_ARG(6);
        if (rot_sin == NULL) return PE_ERR_ARG(7);
        if (rotary_dim < 2 || rotary_dim > dim || rotary_dim % 2 != 0) return PE_ERR_ARG(16);
        if (rotary_layout != PE_ROPE_HALF && rotary_layout != PE_ROPE_INTERLEAVED) return PE_ERR_ARG(17);
        break;
    case PE_ENCODING_BIAS:
        if (bias == NULL) return PE_ERR_ARG(8);
        if (bias_heads != 1 && bias_heads != heads) return PE_ERR_ARG(18);
        break;
    default:
        break;
    }
    if (content == PE_CONTENT_TOKENS) {
        if (text == NULL) return PE_ERR_ARG(9);
        if (words == NULL) return PE_ERR_ARG(10);
        if (words[0] < 0) return PE_ERR_ARG(10);
        for (int32_t t = 0; t < length; t++)
            if (words[t + 1] <= words[t]) return PE_ERR_ARG(10);   // every word has bytes
    }

    const size_t plane = (size_t)length * (size_t)dim;   // one head of q or k: (length, dim)
    float *q = scratch, *k = q + (size_t)heads * plane;
    float *panels = k + (size_t)heads * plane;                                 // packed keys
    float *x = panels + (size_t)panel_keys(length > dim ? length : dim) * (size_t)dim;   // tokens
    float *w = x + plane;
    const uint64_t s = (uint64_t)seed;
    const float *add_table = encoding == PE_ENCODING_ADDITIVE ? table : NULL;

    // 1. q and k (heads, length, dim) from the content, with the additive table.
    if (content == PE_CONTENT_RANDOM) {
        random_qk(q, k, heads, length, dim, s, add_table, ops);
    } else if (content == PE_CONTENT_PREPARED) {
        if (add_table != NULL)   // q + T, k + T in float32, as the generator adds it
            for (int32_t h = 0; h < 2 * heads; h++)
                for (size_t t = 0; t < plane; t++) q[(size_t)h * plane + t] += add_table[t];
    } else if (content == PE_CONTENT_NONE) {
        for (int32_t i = 0; i < length; i++) {
            float *row = q + (size_t)i * (size_t)dim;   // head 0, then copied
            if (add_table != NULL) memcpy(row, add_table + (size_t)i * (size_t)dim, sizeof(float) * (size_t)dim);
            else for (int32_t c = 0; c < dim; c++) row[c] = encoding == PE_ENCODING_ROTARY ? 1.0f : 0.0f;
        }
        for (int32_t h = 1; h < heads; h++) memcpy(q + (size_t)h * plane, q, sizeof(float) * plane);
        memcpy(k, q, sizeof(float) * (size_t)heads * plane);
    } else {
        for (int32_t i = 0; i < length; i++) {
            const uint64_t word_seed = pe_fnv1a64(text + words[i], words[i + 1] - words[i]) + s;
            ops->normal(x + (size_t)i * (size_t)dim, word_seed, 0, dim, 1.0,
                        add_table != NULL ? add_table + (size_t)i * (size_t)dim : NULL);
        }
        const double w_scale = 1.0 / sqrt((double)dim);
        for (int32_t h = 0; h < heads; h++)
            for (int32_t proj = 0; proj < 2; proj++) {
                const uint64_t ws = STREAM(s, proj == 0 ? PE_STREAM_WQ : PE_STREAM_WK);
                for (int32_t r = 0; r < dim; r++)
                    ops->normal(w + (size_t)r * (size_t)dim, ws, (uint32_t)h * HEAD_ROWS + (uint32_t)r, dim, w_scale, NULL);
                if (ops->packs) pe_attention_pack(panels, w, dim, dim);
                // q[h, i, r] = Σ_c W[r, c]·x_i[c]: the "scores" of x_i against the rows of W.
                float *dst = (proj == 0 ? q : k) + (size_t)h * plane;
                project_rows(dst, x, length, w, panels, dim, ops);
            }
    }

    // 2. Rotary encodings rotate q and k of every head, row by row.
    if (encoding == PE_ENCODING_ROTARY) {
        const int32_t n = rotary_dim / 2;
        for (int32_t i = 0; i < length; i++) {
            const float *c_row = rot_cos + (size_t)i * (size_t)n, *s_row = rot_sin + (size_t)i * (size_t)n;
            for (int32_t h = 0; h < heads; h++) {
                float *qr = q + (size_t)h * plane + (size_t)i * (size_t)dim;
                float *kr = k + (size_t)h * plane + (size_t)i * (size_t)dim;
                ops->rotate(qr, qr, c_row, s_row, n, rotary_layout, n);
                ops->rotate(kr, kr, c_row, s_row, n, rotary_layout, n);
            }
        }
    }

    // 3. Per head: scores of a tile of queries, then each row masked, soft-maxed, summarised.
    const float scale = (float)(1.0 / sqrt((double)dim));
    const int32_t width = 2 * length - 1;
    for (int32_t h = 0; h < heads; h++) {
        const float *qh = q + (size_t)h * plane, *kh = k + (size_t)h * plane;
        if (ops->packs) pe_attention_pack(panels, kh, length, dim);
        const float *plane_bias = encoding == PE_ENCODING_BIAS
                                      ? bias + (size_t)(bias_heads == 1 ? 0 : h) * (size_t)width : NULL;
        float *oh = out + (size_t)h * (size_t)length * (size_t)length;   // (length, length)
        for (int32_t i0 = 0; i0 < length; i0 += TILE) {
            const int32_t rows = length - i0 < TILE ? length - i0 : TILE;
            float *tile = oh + (size_t)i0 * (size_t)length;
            // Row i's bias at key j is plane_bias[j − i + length − 1].
            const float *bias0 = plane_bias != NULL ? plane_bias + (length - 1 - i0) : NULL;
            ops->scores(tile, length, qh + (size_t)i0 * (size_t)dim, kh, panels, bias0, rows,
                        causal ? i0 + 1 : length, causal, dim, scale);
            for (int32_t r = 0; r < rows; r++) {
                const int32_t i = i0 + r, n = causal ? i + 1 : length;
                float *row = tile + (size_t)r * (size_t)length;
                const float ent = ops->softmax(row, n);
                if (n < length) memset(row + n, 0, sizeof(float) * (size_t)(length - n));
                const size_t at = (size_t)h * (size_t)length + (size_t)i;
                if (entropy != NULL) entropy[at] = ent;
                if (local_mass != NULL) {
                    const int32_t lo = i - (PE_ATTENTION_WINDOW - 1) > 0 ? i - (PE_ATTENTION_WINDOW - 1) : 0;
                    const int32_t hi = i + PE_ATTENTION_WINDOW < n ? i + PE_ATTENTION_WINDOW : n;
                    float mass = 0.0f;
                    for (int32_t j = lo; j < hi; j++) mass += row[j];
                    local_mass[at] = mass;
                }
            }
        }
    }
    return PE_OK;
}

pe_status pe_attention(float *out, float *entropy, float *local_mass, float *scratch,
                       const float *table, const float *rot_cos, const float *rot_sin,
                       const float *bias, const uint8_t *text, const int32_t *words,
                       int32_t length, int32_t dim, int32_t heads, int32_t causal,
                       int32_t encoding, int32_t rotary_dim, int32_t rotary_layout,
                       int32_t bias_heads, int32_t content, double seed) {
    return pe_attention_variant(out, entropy, local_mass, scratch, table, rot_cos, rot_sin, bias,
                                text, words, length, dim, heads, causal, encoding, rotary_dim,
                                rotary_layout, bias_heads, content, seed, pe_attention_ops_default());
}
