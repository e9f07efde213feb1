// The simplest absolute encodings (kinds `integer`, `binary`, `learned`): tables (length, dim).
#ifndef PE_ABSOLUTE_H
#define PE_ABSOLUTE_H

#include <stdint.h>

#include "pe.h"
#include "pe_simd.h"
#include "random.h"   // G(seed, p, c) of `learned`, PE_MAX_SEED

// Every column of row p holds p, or p/(length − 1) when normalize (0 when length is 1).
// out: (length, dim). Errors: PE_ERR_ARG(1..4) for out, length, dim, normalize (0 or 1);
// PE_ERR_TOO_LARGE.
PE_API pe_status pe_integer(float *out, int32_t length, int32_t dim, int32_t normalize);

// Column k of row p holds bit k of p (least significant first) as 0 or 1.
// out: (length, dim). Errors: PE_ERR_ARG(1..3); PE_ERR_TOO_LARGE.
PE_API pe_status pe_binary(float *out, int32_t length, int32_t dim);

// A seeded N(0, std²) table like GPT-2/BERT's initialisation, deterministic per seed: entry
// (p, c) = float32(std·G(seed, p, c)) (G: c/random.h), independent of length and dim.
// out: (length, dim). Errors: PE_ERR_ARG(1..5) for out, length, dim, std (0 < std ≤ 10), seed (an integer in
// [0, 2^32 − 1]); PE_ERR_TOO_LARGE.
PE_API pe_status pe_learned(float *out, int32_t length, int32_t dim, double std, double seed);

// Row writers, scalar reference and SIMD (compared at every tail length by the native tests).
typedef void (*pe_fill_row_fn)(float *row, int32_t n, float value);
typedef void (*pe_bits_row_fn)(float *row, int32_t n, uint32_t p);
void pe_fill_row_scalar(float *row, int32_t n, float value);
void pe_bits_row_scalar(float *row, int32_t n, uint32_t p);
#if PE_HAVE_SIMD
void pe_fill_row_simd(float *row, int32_t n, float value);
void pe_bits_row_simd(float *row, int32_t n, uint32_t p);
#endif

#endif   // PE_ABSOLUTE_H
