// Internal: the sinusoidal kernel's variants, exposed so native tests can compare the scalar
// reference with the SIMD path at every tail length.
#ifndef PE_SINUSOIDAL_H
#define PE_SINUSOIDAL_H

#include <stddef.h>
#include <stdint.h>

#include "pe.h"
#include "pe_simd.h"

// Writes sin and cos of (first_position + r)·ω_i for rows r < rows and pairs i < n, with ω_i
// given as fixed-point turns (sincos.h), at sin_out[r·row_stride + i·pair_stride] and the same
// offset from cos_out. The SIMD variant takes pair_stride 1, or 2 with cos_out == sin_out + 1.
typedef void (*pe_sincos_table_fn)(float *sin_out, float *cos_out, ptrdiff_t row_stride,
                                   ptrdiff_t pair_stride, int32_t rows, uint32_t first_position,
                                   const uint32_t *turns_hi, const uint32_t *turns_lo, int32_t n);

void pe_sincos_table_scalar(float *sin_out, float *cos_out, ptrdiff_t row_stride,
                            ptrdiff_t pair_stride, int32_t rows, uint32_t first_position,
                            const uint32_t *turns_hi, const uint32_t *turns_lo, int32_t n);
#if PE_HAVE_SIMD
void pe_sincos_table_simd(float *sin_out, float *cos_out, ptrdiff_t row_stride,
                          ptrdiff_t pair_stride, int32_t rows, uint32_t first_position,
                          const uint32_t *turns_hi, const uint32_t *turns_lo, int32_t n);
#endif

pe_status pe_sinusoidal_check(int32_t length, int32_t dim, double base, int32_t layout,
                              int32_t offset);
pe_status pe_sinusoidal_variant(float *out, int32_t length, int32_t dim, double base,
                                int32_t layout, int32_t offset, pe_sincos_table_fn table_fn);

#endif // PE_SINUSOIDAL_H
