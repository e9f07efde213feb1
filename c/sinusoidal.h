// Sinusoidal encodings (kind `sinusoidal`): the public kernel, and its scalar and SIMD variants
// (exposed so the native tests can compare them at every tail length).
#ifndef PE_SINUSOIDAL_H
#define PE_SINUSOIDAL_H

#include <stddef.h>
#include <stdint.h>

#include "pe.h"
#include "pe_simd.h"

// Layouts (see docs/reference.md, kind `sinusoidal`).
typedef enum {
    PE_SIN_INTERLEAVED = 0,     // col 2i = sin(p·ω_i), col 2i+1 = cos(p·ω_i), ω_i = base^(-2i/dim)
    PE_SIN_CONCAT = 1,          // cols [0,h) sin, [h,2h) cos, same ω, h = dim/2
    PE_SIN_TENSOR2TENSOR = 2,   // concat with ω_k = exp(-k·ln(base)/max(h-1,1))
} pe_sin_layout;

// Writes the sinusoidal table for positions offset .. offset+length-1.
// out: (length, dim) row-major floats. Max abs error <= 2e-7 against float64 for every
// position up to PE_MAX_POSITION (the phase is reduced exactly in 64-bit fixed point).
// Errors: PE_ERR_ARG(1..6) for out, length, dim, base, layout, offset; PE_ERR_TOO_LARGE.
PE_API pe_status pe_sinusoidal(float *out, int32_t length, int32_t dim, double base, int32_t layout, int32_t offset);

// Writes sin and cos of pair i at row r, for rows r < rows and pairs i < n, starting from the
// state (state_sin[i], state_cos[i]) at row 0 and rotating by (step_sin[i], step_cos[i]) per row
// in float64, to sin_out[r·row_stride + i·pair_stride] and the same offset from cos_out
// (float32). On return the state holds row `rows`, so a table can be written in row tiles.
// The SIMD variant takes pair_stride 1, or 2 with cos_out == sin_out + 1.
typedef void (*pe_rotate_table_fn)(float *sin_out, float *cos_out, ptrdiff_t row_stride, ptrdiff_t pair_stride,
                                   int32_t rows, double *state_sin, double *state_cos, const double *step_sin,
                                   const double *step_cos, int32_t n);

void pe_rotate_table_scalar(float *sin_out, float *cos_out, ptrdiff_t row_stride, ptrdiff_t pair_stride, int32_t rows,
                            double *state_sin, double *state_cos, const double *step_sin, const double *step_cos,
                            int32_t n);
#if PE_HAVE_SIMD
void pe_rotate_table_simd(float *sin_out, float *cos_out, ptrdiff_t row_stride, ptrdiff_t pair_stride, int32_t rows,
                          double *state_sin, double *state_cos, const double *step_sin, const double *step_cos,
                          int32_t n);
#endif

pe_status pe_sinusoidal_check(int32_t length, int32_t dim, double base, int32_t layout, int32_t offset);
// Internal building block (also for the 2-D/3-D encodings): the first `columns` columns of the
// (length, dim) table, rows `row_stride` floats apart. Arguments are not checked here: callers
// validate. `columns` < dim only for the interleaved layout.
void pe_sinusoidal_block(float *out, ptrdiff_t row_stride, int32_t length, int32_t dim, int32_t columns, double base,
                         int32_t layout, int32_t offset, pe_rotate_table_fn table_fn);
// The rotation core this build uses (SIMD when compiled with it).
pe_rotate_table_fn pe_rotate_table_default(void);

pe_status pe_sinusoidal_variant(float *out, int32_t length, int32_t dim, double base, int32_t layout, int32_t offset,
                                pe_rotate_table_fn table_fn);

#endif   // PE_SINUSOIDAL_H
