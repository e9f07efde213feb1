// The simplest absolute encodings (kinds `integer`, `binary`, `learned`): tables (length, dim).
#ifndef PE_ABSOLUTE_H
#define PE_ABSOLUTE_H

#include <stdint.h>

#include "pe.h"
#include "pe_simd.h"

// Largest seed of `learned` (seeds are integers in [0, 2^32 − 1]).
#define PE_MAX_SEED 4294967295.0

// Every column of row p holds p, or p/(length − 1) when normalize (0 when length is 1).
// out: (length, dim). Errors: PE_ERR_ARG(1..4) for out, length, dim, normalize (0 or 1);
// PE_ERR_TOO_LARGE.
PE_API pe_status pe_integer(float *out, int32_t length, int32_t dim, int32_t normalize);

// Column k of row p holds bit k of p (least significant first) as 0 or 1.
// out: (length, dim). Errors: PE_ERR_ARG(1..3); PE_ERR_TOO_LARGE.
PE_API pe_status pe_binary(float *out, int32_t length, int32_t dim);

// A seeded N(0, std²) table like GPT-2/BERT's initialisation, deterministic per seed, entry
// (p, c) independent of length and dim (see pe_learned_normal). out: (length, dim).
// Errors: PE_ERR_ARG(1..5) for out, length, dim, std (0 < std ≤ 10), seed (an integer in
// [0, 2^32 − 1]); PE_ERR_TOO_LARGE.
PE_API pe_status pe_learned(float *out, int32_t length, int32_t dim, double std, double seed);

// The standard normal deviate of entry (p, c) for a seed, in float64 (see c/absolute.c).
double pe_learned_normal(uint64_t seed, uint32_t p, uint32_t c);
// The t-th output (t = 0, 1, …) of SplitMix64 started from state `seed`.
uint64_t pe_splitmix64_at(uint64_t seed, uint64_t t);

// Row writers, scalar reference and SIMD (compared at every tail length by the native tests).
typedef void (*pe_fill_row_fn)(float *row, int32_t n, float value);
typedef void (*pe_bits_row_fn)(float *row, int32_t n, uint32_t p);
void pe_fill_row_scalar(float *row, int32_t n, float value);
void pe_bits_row_scalar(float *row, int32_t n, uint32_t p);
#if PE_HAVE_SIMD
void pe_fill_row_simd(float *row, int32_t n, float value);
void pe_bits_row_simd(float *row, int32_t n, uint32_t p);
#endif

#endif // PE_ABSOLUTE_H
