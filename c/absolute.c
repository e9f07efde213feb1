// The simplest absolute encodings, (length, dim) tables with p = row:
//   integer  every column holds p, or p/(length − 1) when normalized
//   binary   column k holds bit k of p (least significant first), 0 or 1
//   learned  a seeded N(0, std²) table, the initialisation of a learned embedding (GPT-2, BERT),
//            from the generator of c/random.h
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
// value(p, c) = float32(std·G(seed, p, c)), rounded once, with G the standard normal generator
// (SplitMix64 + Box–Muller) fully specified in c/random.h: row p is one row of the generator.

pe_status pe_learned(float *out, int32_t length, int32_t dim, double std, double seed) {
    if (out == NULL) return PE_ERR_ARG(1);
    pe_status status = table_args(length, dim);
    if (status != PE_OK) return status;
    if (!(std > 0.0 && std <= 10.0)) return PE_ERR_ARG(4);   // also rejects NaN
    if (!pe_random_seed_ok(seed)) return PE_ERR_ARG(5);
    if (too_large(length, dim)) return PE_ERR_TOO_LARGE;
#if PE_HAVE_SIMD
    const pe_random_row_fn row = pe_random_row_simd_exact;   // the scalar reference's bits, faster
#else
    const pe_random_row_fn row = pe_random_row_scalar;
#endif
    const uint64_t s = (uint64_t)seed;
    for (int32_t p = 0; p < length; p++) row(out + (size_t)p * (size_t)dim, s, (uint32_t)p, dim, std, NULL);
    return PE_OK;
}
