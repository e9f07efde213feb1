// Sinusoidal absolute position encodings (Vaswani et al., 2017) in three layouts:
//   interleaved    PE[p, 2i] = sin(p·ω_i), PE[p, 2i+1] = cos(p·ω_i),  ω_i = base^(-2i/dim)
//                  odd dim: PE[p, dim-1] = sin(p·ω_h), h = (dim-1)/2
//   concat         PE[p, i] = sin(p·ω_i), PE[p, h+i] = cos(p·ω_i),   h = floor(dim/2)
//                  odd dim: last column 0
//   tensor2tensor  concat with ω_k = exp(-k·ln(base) / max(h-1, 1))  (get_timing_signal_1d)
// with p = offset + row. Angles go through the exact fixed-point phase of sincos.h.
#include <math.h>
#include <stddef.h>

#include "pe.h"
#include "sincos.h"

// Frequencies are prepared in blocks on the stack (no heap in kernels).
#define FREQ_BLOCK 256

// ω of pair i for the layout, in float64 (the contract defines ω in float64).
static double sinusoidal_omega(int32_t i, int32_t dim, double base, int32_t layout) {
    if (layout == PE_SIN_TENSOR2TENSOR) {
        int32_t pairs = dim / 2;
        int32_t denom = pairs - 1 > 1 ? pairs - 1 : 1;
        return exp(-(double)i * log(base) / (double)denom);
    }
    return pow(base, -2.0 * (double)i / (double)dim);
}

// Scalar reference: position by position, the phase straight from p·T.
void pe_sincos_table_scalar(float *sin_out, float *cos_out, ptrdiff_t row_stride,
                            ptrdiff_t pair_stride, int32_t rows, uint32_t first_position,
                            const uint32_t *turns_hi, const uint32_t *turns_lo, int32_t n) {
    for (int32_t r = 0; r < rows; r++) {
        float *s_row = sin_out + (ptrdiff_t)r * row_stride;
        float *c_row = cos_out + (ptrdiff_t)r * row_stride;
        for (int32_t i = 0; i < n; i++) {
            pe_turns t = {turns_hi[i], turns_lo[i]};
            pe_sincos_phase_scalar(pe_phase_hi(first_position + (uint32_t)r, t),
                                   &s_row[i * pair_stride], &c_row[i * pair_stride]);
        }
    }
}

#if PE_HAVE_SIMD
// `vectors` × 4 pairs (up to 16) down all rows. The phases advance by an exact 64-bit add per row, so the
// inner loop needs no multiply (wasm has no cheap 64-bit one) and matches p·T bit for bit.
static inline __attribute__((always_inline)) void sincos_columns_simd(
    float *sin_out, float *cos_out, ptrdiff_t row_stride, ptrdiff_t pair_stride, int32_t rows,
    uint32_t first_position, const uint32_t *turns_hi, const uint32_t *turns_lo, int vectors) {
    v128_t t_hi[4], t_lo[4], t_lo_biased[4], ph_hi[4], ph_lo_biased[4];
    for (int v = 0; v < vectors; v++) {
        uint32_t start_hi[PE_LANES], start_lo[PE_LANES];
        for (int k = 0; k < PE_LANES; k++) {
            int j = v * PE_LANES + k;
            uint64_t turns = ((uint64_t)turns_hi[j] << 32) | turns_lo[j];
            uint64_t phase = (uint64_t)first_position * turns;    // mod 2^64
            start_hi[k] = (uint32_t)(phase >> 32);
            start_lo[k] = (uint32_t)phase ^ 0x80000000u;   // biased, see pe_phase_step_x4
        }
        t_hi[v] = wasm_v128_load(turns_hi + v * PE_LANES);
        t_lo[v] = wasm_v128_load(turns_lo + v * PE_LANES);
        ph_hi[v] = wasm_v128_load(start_hi);
        t_lo_biased[v] = wasm_v128_xor(t_lo[v], wasm_i32x4_splat((int32_t)0x80000000u));
        ph_lo_biased[v] = wasm_v128_load(start_lo);
    }
    for (int32_t r = 0; r < rows; r++) {
        float *s_row = sin_out + (ptrdiff_t)r * row_stride;
        float *c_row = cos_out + (ptrdiff_t)r * row_stride;
        for (int v = 0; v < vectors; v++) {
            v128_t s, c;
            pe_sincos_phase_x4(ph_hi[v], &s, &c);
            if (pair_stride == 2) {   // interleaved: s0 c0 s1 c1 | s2 c2 s3 c3
                wasm_v128_store(s_row + 8 * v, wasm_i32x4_shuffle(s, c, 0, 4, 1, 5));
                wasm_v128_store(s_row + 8 * v + 4, wasm_i32x4_shuffle(s, c, 2, 6, 3, 7));
            } else {
                wasm_v128_store(s_row + 4 * v, s);
                wasm_v128_store(c_row + 4 * v, c);
            }
            pe_phase_step_x4(&ph_hi[v], &ph_lo_biased[v], t_hi[v], t_lo[v], t_lo_biased[v]);
        }
    }
}

// SIMD: sixteen pairs at a time, then four, then the scalar reference for the last n % 4.
// pair_stride is 1 (two contiguous runs) or 2 (interleaved, cos_out == sin_out + 1).
void pe_sincos_table_simd(float *sin_out, float *cos_out, ptrdiff_t row_stride,
                          ptrdiff_t pair_stride, int32_t rows, uint32_t first_position,
                          const uint32_t *turns_hi, const uint32_t *turns_lo, int32_t n) {
    int32_t i = 0;
    for (; i + 4 * PE_LANES <= n; i += 4 * PE_LANES)
        sincos_columns_simd(sin_out + i * pair_stride, cos_out + i * pair_stride, row_stride,
                            pair_stride, rows, first_position, turns_hi + i, turns_lo + i, 4);
    for (; i + PE_LANES <= n; i += PE_LANES)
        sincos_columns_simd(sin_out + i * pair_stride, cos_out + i * pair_stride, row_stride,
                            pair_stride, rows, first_position, turns_hi + i, turns_lo + i, 1);
    pe_sincos_table_scalar(sin_out + i * pair_stride, cos_out + i * pair_stride, row_stride,
                           pair_stride, rows, first_position, turns_hi + i, turns_lo + i, n - i);
}
#endif

pe_status pe_sinusoidal_check(int32_t length, int32_t dim, double base, int32_t layout,
                              int32_t offset) {
    if (length < 1 || length > PE_MAX_LENGTH) return PE_ERR_ARG(2);
    if (dim < 1 || dim > PE_MAX_DIM) return PE_ERR_ARG(3);
    if (!(base > 1.0) || !isfinite(base)) return PE_ERR_ARG(4);   // also rejects NaN
    if (layout < PE_SIN_INTERLEAVED || layout > PE_SIN_TENSOR2TENSOR) return PE_ERR_ARG(5);
    if (offset < 0 || offset > PE_MAX_POSITION - length) return PE_ERR_ARG(6);
    if ((int64_t)length * dim > PE_MAX_ELEMENTS) return PE_ERR_TOO_LARGE;
    return PE_OK;
}

pe_status pe_sinusoidal_variant(float *out, int32_t length, int32_t dim, double base,
                                int32_t layout, int32_t offset, pe_sincos_table_fn table_fn) {
    if (out == NULL) return PE_ERR_ARG(1);
    if (table_fn == NULL) return PE_ERR_ARG(7);
    pe_status status = pe_sinusoidal_check(length, dim, base, layout, offset);
    if (status != PE_OK) return status;

    const int32_t pairs = dim / 2;
    const int interleaved = layout == PE_SIN_INTERLEAVED;
    uint32_t turns_hi[FREQ_BLOCK], turns_lo[FREQ_BLOCK];

    for (int32_t block = 0; block < pairs; block += FREQ_BLOCK) {
        int32_t n = pairs - block < FREQ_BLOCK ? pairs - block : FREQ_BLOCK;
        for (int32_t i = 0; i < n; i++) {
            pe_turns t = pe_turns_from_omega(sinusoidal_omega(block + i, dim, base, layout));
            turns_hi[i] = t.hi;
            turns_lo[i] = t.lo;
        }
        if (interleaved)
            table_fn(out + 2 * block, out + 2 * block + 1, dim, 2, length, (uint32_t)offset,
                     turns_hi, turns_lo, n);
        else
            table_fn(out + block, out + pairs + block, dim, 1, length, (uint32_t)offset,
                     turns_hi, turns_lo, n);
    }

    if (dim % 2 == 1) {   // the odd last column
        pe_turns t = pe_turns_from_omega(sinusoidal_omega(pairs, dim, base, layout));
        for (int32_t row = 0; row < length; row++) {
            float *last = out + (size_t)row * (size_t)dim + (dim - 1);
            if (interleaved) {
                float unused_cos;
                pe_sincos_phase_scalar(pe_phase_hi((uint32_t)offset + (uint32_t)row, t), last, &unused_cos);
            } else {
                *last = 0.0f;
            }
        }
    }
    return PE_OK;
}

pe_status pe_sinusoidal(float *out, int32_t length, int32_t dim, double base, int32_t layout,
                        int32_t offset) {
#if PE_HAVE_SIMD
    return pe_sinusoidal_variant(out, length, dim, base, layout, offset, pe_sincos_table_simd);
#else
    return pe_sinusoidal_variant(out, length, dim, base, layout, offset, pe_sincos_table_scalar);
#endif
}
