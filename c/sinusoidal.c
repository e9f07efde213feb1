// Sinusoidal absolute position encodings (Vaswani et al., 2017) in three layouts:
//   interleaved    PE[p, 2i] = sin(p·ω_i), PE[p, 2i+1] = cos(p·ω_i),  ω_i = base^(-2i/dim)
//                  odd dim: PE[p, dim-1] = sin(p·ω_h), h = (dim-1)/2
//   concat         PE[p, i] = sin(p·ω_i), PE[p, h+i] = cos(p·ω_i),   h = floor(dim/2)
//                  odd dim: last column 0
//   tensor2tensor  concat with ω_k = exp(-k·ln(base) / max(h-1, 1))  (get_timing_signal_1d)
// with p = offset + row. Each column starts from an exact fixed-point phase and is rotated down
// the rows in float64 (sincos.h).
#include <math.h>
#include <stddef.h>

#include "pe.h"
#include "sincos.h"

// Frequencies are prepared in blocks on the stack (no heap in kernels): 40 bytes a pair.
#define FREQ_BLOCK 1024
// Rows between exact re-anchorings of the float64 rotation (bounds its drift to ~1e-11).
#define ANCHOR_ROWS 65536
// Rows written per pass over a frequency block. The rotation state of the block is saved and
// reloaded between tiles; short tiles keep the writes close to row-major, so each cache line of
// the output is completed while it is still in L1. 8 measured fastest for 2000×1600 (bench/):
// 0.97 ms against 1.5 ms for 64-row tiles and 1.7 ms for whole columns.
#define ROW_TILE 8

// ω of pair i for the layout, in float64 (docs/reference.md defines ω in float64).
static double sinusoidal_omega(int32_t i, int32_t dim, double base, int32_t layout) {
    if (layout == PE_SIN_TENSOR2TENSOR) {
        int32_t pairs = dim / 2;
        int32_t denom = pairs - 1 > 1 ? pairs - 1 : 1;
        return exp(-(double)i * log(base) / (double)denom);
    }
    return pow(base, -2.0 * (double)i / (double)dim);
}

// Scalar reference: each pair rotated down the rows from its state.
void pe_rotate_table_scalar(float *sin_out, float *cos_out, ptrdiff_t row_stride, ptrdiff_t pair_stride, int32_t rows,
                            double *state_sin, double *state_cos, const double *step_sin, const double *step_cos,
                            int32_t n) {
    for (int32_t i = 0; i < n; i++) {
        double s = state_sin[i], c = state_cos[i];
        float *s_out = sin_out + i * pair_stride, *c_out = cos_out + i * pair_stride;
        for (int32_t r = 0; r < rows; r++) {
            s_out[(ptrdiff_t)r * row_stride] = (float)s;
            c_out[(ptrdiff_t)r * row_stride] = (float)c;
            pe_rotate_scalar(&s, &c, step_sin[i], step_cos[i]);
        }
        state_sin[i] = s;
        state_cos[i] = c;
    }
}

#if PE_HAVE_SIMD
// SIMD: four pairs (two float64 vectors each of sin and cos) down all rows, then the scalar
// reference for the last n % 4. pair_stride is 1 (sin and cos runs apart) or 2 (interleaved,
// cos_out == sin_out + 1).
void pe_rotate_table_simd(float *sin_out, float *cos_out, ptrdiff_t row_stride, ptrdiff_t pair_stride, int32_t rows,
                          double *state_sin, double *state_cos, const double *step_sin, const double *step_cos,
                          int32_t n) {
    int32_t i = 0;
    for (; i + 4 <= n; i += 4) {
        v128_t s01 = wasm_v128_load(state_sin + i), s23 = wasm_v128_load(state_sin + i + 2);
        v128_t c01 = wasm_v128_load(state_cos + i), c23 = wasm_v128_load(state_cos + i + 2);
        v128_t ws01 = wasm_v128_load(step_sin + i), ws23 = wasm_v128_load(step_sin + i + 2);
        v128_t wc01 = wasm_v128_load(step_cos + i), wc23 = wasm_v128_load(step_cos + i + 2);
        if (pair_stride == 2) {
            float *out = sin_out + 2 * i;
            for (int32_t r = 0; r < rows; r++, out += row_stride) {
                v128_t fs01 = wasm_f32x4_demote_f64x2_zero(s01), fc01 = wasm_f32x4_demote_f64x2_zero(c01);
                v128_t fs23 = wasm_f32x4_demote_f64x2_zero(s23), fc23 = wasm_f32x4_demote_f64x2_zero(c23);
                wasm_v128_store(out, wasm_i32x4_shuffle(fs01, fc01, 0, 4, 1, 5));       // s0 c0 s1 c1
                wasm_v128_store(out + 4, wasm_i32x4_shuffle(fs23, fc23, 0, 4, 1, 5));   // s2 c2 s3 c3
                pe_rotate_x2(&s01, &c01, ws01, wc01);
                pe_rotate_x2(&s23, &c23, ws23, wc23);
            }
        } else {
            float *s_out = sin_out + i, *c_out = cos_out + i;
            for (int32_t r = 0; r < rows; r++, s_out += row_stride, c_out += row_stride) {
                v128_t fs01 = wasm_f32x4_demote_f64x2_zero(s01), fc01 = wasm_f32x4_demote_f64x2_zero(c01);
                v128_t fs23 = wasm_f32x4_demote_f64x2_zero(s23), fc23 = wasm_f32x4_demote_f64x2_zero(c23);
                wasm_v128_store(s_out, wasm_i32x4_shuffle(fs01, fs23, 0, 1, 4, 5));   // s0 s1 s2 s3
                wasm_v128_store(c_out, wasm_i32x4_shuffle(fc01, fc23, 0, 1, 4, 5));   // c0 c1 c2 c3
                pe_rotate_x2(&s01, &c01, ws01, wc01);
                pe_rotate_x2(&s23, &c23, ws23, wc23);
            }
        }
        wasm_v128_store(state_sin + i, s01);
        wasm_v128_store(state_sin + i + 2, s23);
        wasm_v128_store(state_cos + i, c01);
        wasm_v128_store(state_cos + i + 2, c23);
    }
    pe_rotate_table_scalar(sin_out + i * pair_stride, cos_out + i * pair_stride, row_stride, pair_stride, rows,
                           state_sin + i, state_cos + i, step_sin + i, step_cos + i, n - i);
}
#endif

pe_status pe_sinusoidal_check(int32_t length, int32_t dim, double base, int32_t layout, int32_t offset) {
    if (length < 1 || length > PE_MAX_LENGTH) return PE_ERR_ARG(2);
    if (dim < 1 || dim > PE_MAX_DIM) return PE_ERR_ARG(3);
    if (!(base > 1.0) || !isfinite(base)) return PE_ERR_ARG(4);   // also rejects NaN
    if (layout < PE_SIN_INTERLEAVED || layout > PE_SIN_TENSOR2TENSOR) return PE_ERR_ARG(5);
    if (offset < 0 || offset > PE_MAX_POSITION - length) return PE_ERR_ARG(6);
    if ((int64_t)length * dim > PE_MAX_ELEMENTS) return PE_ERR_TOO_LARGE;
    return PE_OK;
}

void pe_sinusoidal_block(float *out, ptrdiff_t row_stride, int32_t length, int32_t dim, int32_t columns, double base,
                         int32_t layout, int32_t offset, pe_rotate_table_fn table_fn) {
    const int32_t pairs = dim / 2;
    const int interleaved = layout == PE_SIN_INTERLEAVED;
    pe_turns turns[FREQ_BLOCK];
    double state_sin[FREQ_BLOCK], state_cos[FREQ_BLOCK], step_sin[FREQ_BLOCK], step_cos[FREQ_BLOCK];

    // Interleaved: `columns / 2` full pairs, then a sin-only column when `columns` is odd (the odd
    // last column of an odd dim, or a cut through a pair); it rides along as one more pair of the
    // last block, its cos going nowhere. Concat layouts always write whole rows.
    const int32_t full_pairs = interleaved ? columns / 2 : pairs;
    const int32_t frequencies = full_pairs + (interleaved && columns % 2 == 1 ? 1 : 0);
    for (int32_t block = 0; block < frequencies; block += FREQ_BLOCK) {
        int32_t n = frequencies - block < FREQ_BLOCK ? frequencies - block : FREQ_BLOCK;
        for (int32_t i = 0; i < n; i++) {
            double omega = sinusoidal_omega(block + i, dim, base, layout);
            turns[i] = pe_turns_from_omega(omega);
            step_sin[i] = sin(omega);
            step_cos[i] = cos(omega);
        }
        int32_t full = block + n > full_pairs ? full_pairs - block : n;   // pairs with both columns
        for (int32_t row = 0; row < length; row += ROW_TILE) {
            if (row % ANCHOR_ROWS == 0)   // exact start, then float64 rotation
                for (int32_t i = 0; i < n; i++)
                    pe_sincos_at((uint32_t)offset + (uint32_t)row, turns[i], &state_sin[i], &state_cos[i]);
            int32_t rows = length - row < ROW_TILE ? length - row : ROW_TILE;
            float *tile = out + (ptrdiff_t)row * row_stride;   // (rows, columns) with row_stride
            if (interleaved)
                table_fn(tile + 2 * block, tile + 2 * block + 1, row_stride, 2, rows, state_sin, state_cos, step_sin,
                         step_cos, full);
            else
                table_fn(tile + block, tile + pairs + block, row_stride, 1, rows, state_sin, state_cos, step_sin,
                         step_cos, full);
            if (full < n) {   // the sin-only column
                float *last = tile + 2 * (block + full);
                for (int32_t r = 0; r < rows; r++) {
                    last[(ptrdiff_t)r * row_stride] = (float)state_sin[full];
                    pe_rotate_scalar(&state_sin[full], &state_cos[full], step_sin[full], step_cos[full]);
                }
            }
        }
    }
    if (!interleaved && dim % 2 == 1)   // concat layouts: the odd last column is 0
        for (int32_t row = 0; row < length; row++) out[(ptrdiff_t)row * row_stride + (dim - 1)] = 0.0f;
}

pe_rotate_table_fn pe_rotate_table_default(void) {
#if PE_HAVE_SIMD
    return pe_rotate_table_simd;
#else
    return pe_rotate_table_scalar;
#endif
}

pe_status pe_sinusoidal_variant(float *out, int32_t length, int32_t dim, double base, int32_t layout, int32_t offset,
                                pe_rotate_table_fn table_fn) {
    if (out == NULL) return PE_ERR_ARG(1);
    if (table_fn == NULL) return PE_ERR_ARG(7);
    pe_status status = pe_sinusoidal_check(length, dim, base, layout, offset);
    if (status != PE_OK) return status;
    pe_sinusoidal_block(out, dim, length, dim, dim, base, layout, offset, table_fn);
    return PE_OK;
}

pe_status pe_sinusoidal(float *out, int32_t length, int32_t dim, double base, int32_t layout, int32_t offset) {
    return pe_sinusoidal_variant(out, length, dim, base, layout, offset, pe_rotate_table_default());
}
