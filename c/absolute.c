// The simplest absolute encodings, (length, dim) tables with p = row:
//   integer  every column holds p, or p/(length − 1) when normalized
//   binary   column k holds bit k of p (least significant first), 0 or 1
//   learned  a seeded N(0, std²) table, the initialisation of a learned embedding (GPT-2, BERT)
#include <math.h>
#include <stddef.h>

#include "absolute.h"

// Arguments 2 and 3 of every kernel here: length (1..2^20) and dim (1..16384).
static pe_status table_args(int32_t length, int32_t dim) {
    if (length < 1 || length > PE_MAX_LENGTH) return PE_ERR_ARG(2);
    if (dim < 1 || dim > PE_MAX_DIM) return PE_ERR_ARG(3);
    return PE_OK;
}

static int too_large(int32_t length, int32_t dim) { return (int64_t)length * dim > PE_MAX_ELEMENTS; }

// --- integer ------------------------------------------------------------------------------------

void pe_fill_row_scalar(float *row, int32_t n, float value) {
    for (int32_t k = 0; k < n; k++) row[k] = value;
}

#if PE_HAVE_SIMD
void pe_fill_row_simd(float *row, int32_t n, float value) {
    const v128_t v = wasm_f32x4_splat(value);
    int32_t k = 0;
    for (; k + PE_LANES <= n; k += PE_LANES) wasm_v128_store(row + k, v);
    for (; k < n; k++) row[k] = value;
}
#endif

pe_status pe_integer(float *out, int32_t length, int32_t dim, int32_t normalize) {
    if (out == NULL) return PE_ERR_ARG(1);
    pe_status status = table_args(length, dim);
    if (status != PE_OK) return status;
    if (normalize != 0 && normalize != 1) return PE_ERR_ARG(4);
    if (too_large(length, dim)) return PE_ERR_TOO_LARGE;
#if PE_HAVE_SIMD
    const pe_fill_row_fn fill = pe_fill_row_simd;
#else
    const pe_fill_row_fn fill = pe_fill_row_scalar;
#endif
    for (int32_t p = 0; p < length; p++) {
        // p < 2^20 is exact in float32; p/(length − 1) is the float64 quotient rounded once.
        float value = !normalize ? (float)p : length == 1 ? 0.0f : (float)((double)p / (double)(length - 1));
        fill(out + (size_t)p * (size_t)dim, dim, value);   // row p of (length, dim)
    }
    return PE_OK;
}

// --- binary -------------------------------------------------------------------------------------

void pe_bits_row_scalar(float *row, int32_t n, uint32_t p) {
    for (int32_t k = 0; k < n; k++) row[k] = k < 32 && ((p >> k) & 1u) ? 1.0f : 0.0f;
}

#if PE_HAVE_SIMD
// Four columns at a time: lane k tests p against the mask 1 << k. Shifting the masks left by 4
// per step empties them past bit 31, so columns from 32 on come out 0 with no special case.
void pe_bits_row_simd(float *row, int32_t n, uint32_t p) {
    const v128_t pv = wasm_i32x4_splat((int32_t)p);
    const v128_t one = wasm_f32x4_splat(1.0f);
    v128_t mask = wasm_i32x4_make(1, 2, 4, 8);
    int32_t k = 0;
    for (; k + PE_LANES <= n; k += PE_LANES) {
        v128_t set = wasm_i32x4_ne(wasm_v128_and(pv, mask), wasm_i32x4_splat(0));
        wasm_v128_store(row + k, wasm_v128_and(set, one));   // all-ones lanes keep 1.0f
        mask = wasm_i32x4_shl(mask, 4);
    }
    pe_bits_row_scalar(row + k, n - k, k < 32 ? p >> k : 0u);   // tail: bit k + t of p
}
#endif

pe_status pe_binary(float *out, int32_t length, int32_t dim) {
    if (out == NULL) return PE_ERR_ARG(1);
    pe_status status = table_args(length, dim);
    if (status != PE_OK) return status;
    if (too_large(length, dim)) return PE_ERR_TOO_LARGE;
#if PE_HAVE_SIMD
    const pe_bits_row_fn bits = pe_bits_row_simd;
#else
    const pe_bits_row_fn bits = pe_bits_row_scalar;
#endif
    for (int32_t p = 0; p < length; p++) bits(out + (size_t)p * (size_t)dim, dim, (uint32_t)p);
    return PE_OK;
}

// --- learned ------------------------------------------------------------------------------------
//
// The generator, fully specified so that any language can reproduce it (tests/fixtures/ref_absolute.py
// does, in NumPy):
//   SplitMix64 (Steele, Lea, Flood 2014) from state `seed`: its t-th output (t = 0, 1, …) is
//     z = seed + (t + 1)·0x9E3779B97F4A7C15  (mod 2^64)
//     z = (z ^ (z >> 30))·0xBF58476D1CE4E5B9; z = (z ^ (z >> 27))·0x94D049BB133111EB; z ^ (z >> 31)
//   Entry (p, c) belongs to the pair q = p·8192 + floor(c/2) (8192 = PE_MAX_DIM/2 pairs a row, so
//   an entry never depends on length or dim: every table is a corner of one table per seed).
//   Box–Muller in float64 on outputs 2q and 2q + 1:
//     u1 = ((out_2q >> 11) + 1)·2^-53 ∈ (0, 1],  u2 = (out_2q+1 >> 11)·2^-53 ∈ [0, 1)
//     ρ = sqrt(−2·ln u1),  θ = 6.283185307179586·u2  (the float64 nearest 2π)
//     z = ρ·cos θ for even c, ρ·sin θ for odd c
//   value = float32(std·z), rounded once.

#define SPLITMIX64_GAMMA 0x9E3779B97F4A7C15ull
#define LEARNED_PAIRS_PER_ROW 8192u
#define TWO_PI 6.283185307179586

uint64_t pe_splitmix64_at(uint64_t seed, uint64_t t) {
    uint64_t z = seed + (t + 1) * SPLITMIX64_GAMMA;   // unsigned: wraps mod 2^64
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// ρ and θ of pair q.
static void learned_polar(uint64_t seed, uint64_t q, double *rho, double *theta) {
    const double u1 = (double)((pe_splitmix64_at(seed, 2 * q) >> 11) + 1) * 0x1p-53;
    const double u2 = (double)(pe_splitmix64_at(seed, 2 * q + 1) >> 11) * 0x1p-53;
    *rho = sqrt(-2.0 * log(u1));
    *theta = TWO_PI * u2;
}

double pe_learned_normal(uint64_t seed, uint32_t p, uint32_t c) {
    double rho, theta;
    learned_polar(seed, (uint64_t)p * LEARNED_PAIRS_PER_ROW + c / 2, &rho, &theta);
    return c % 2 == 0 ? rho * cos(theta) : rho * sin(theta);
}

// Transcendental per pair and no vector log/sin/cos in WebAssembly: scalar only.
pe_status pe_learned(float *out, int32_t length, int32_t dim, double std, double seed) {
    if (out == NULL) return PE_ERR_ARG(1);
    pe_status status = table_args(length, dim);
    if (status != PE_OK) return status;
    if (!(std > 0.0 && std <= 10.0)) return PE_ERR_ARG(4);   // also rejects NaN
    if (!(seed >= 0.0 && seed <= PE_MAX_SEED) || seed != floor(seed)) return PE_ERR_ARG(5);
    if (too_large(length, dim)) return PE_ERR_TOO_LARGE;
    const uint64_t s = (uint64_t)seed;
    for (int32_t p = 0; p < length; p++) {
        float *row = out + (size_t)p * (size_t)dim;   // row p of (length, dim)
        for (int32_t c = 0; c < dim; c += 2) {
            double rho, theta;
            learned_polar(s, (uint64_t)p * LEARNED_PAIRS_PER_ROW + (uint64_t)(c / 2), &rho, &theta);
            row[c] = (float)(std * (rho * cos(theta)));
            if (c + 1 < dim) row[c + 1] = (float)(std * (rho * sin(theta)));
        }
    }
    return PE_OK;
}
