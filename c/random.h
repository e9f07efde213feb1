// The seeded standard normal generator G(seed, p, c) of `learned` (c/absolute.c) and of the
// attention content and relative-bias tables (c/attention_inputs.c).
//
// Fully specified so that any language can reproduce it (tests/fixtures/ref_absolute.py does, in
// NumPy):
//   SplitMix64 (Steele, Lea, Flood 2014) from state `seed`: its t-th output (t = 0, 1, …) is
//     z = seed + (t + 1)·0x9E3779B97F4A7C15  (mod 2^64)
//     z = (z ^ (z >> 30))·0xBF58476D1CE4E5B9; z = (z ^ (z >> 27))·0x94D049BB133111EB; z ^ (z >> 31)
//   Entry (p, c) belongs to the pair q = p·8192 + floor(c/2) (8192 = PE_MAX_DIM/2 pairs a row, so
//   an entry never depends on length or dim: every table is a corner of one table per seed).
//   Box–Muller in float64 on outputs 2q and 2q + 1:
//     u1 = ((out_2q >> 11) + 1)·2^-53 ∈ (0, 1],  u2 = (out_2q+1 >> 11)·2^-53 ∈ [0, 1)
//     ρ = sqrt(−2·ln u1),  θ = 6.283185307179586·u2  (the float64 nearest 2π)
//     G(seed, p, c) = ρ·cos θ for even c, ρ·sin θ for odd c
#ifndef PE_RANDOM_H
#define PE_RANDOM_H

#include <stdint.h>

#include "pe_simd.h"

// Largest seed of the kinds that take one (seeds are integers in [0, 2^32 − 1]).
#define PE_MAX_SEED 4294967295.0
// Generator pairs per row p: entry (p, c) is pair p·PE_RANDOM_PAIRS_PER_ROW + floor(c/2).
#define PE_RANDOM_PAIRS_PER_ROW 8192u

// 1 when seed is an integer in [0, PE_MAX_SEED] (NaN and ±Infinity are not), else 0.
int pe_random_seed_ok(double seed);

// The t-th output (t = 0, 1, …) of SplitMix64 started from state `seed`.
uint64_t pe_splitmix64_at(uint64_t seed, uint64_t t);

// G(seed, p, c), the standard normal deviate of entry (p, c), in float64.
double pe_random_normal(uint64_t seed, uint32_t p, uint32_t c);

// Row writers: out[c] = float32(scale·G(seed, p, c)) for c < n, rounded once, then + add[c] in
// float32 when add is not NULL.
typedef void (*pe_random_row_fn)(float *out, uint64_t seed, uint32_t p, int32_t n, double scale, const float *add);
// The scalar reference (libm's log, sqrt, cos, sin).
void pe_random_row_scalar(float *out, uint64_t seed, uint32_t p, int32_t n, double scale, const float *add);
#if PE_HAVE_SIMD
// Four columns a step in float64 lanes with series for ln, cos and sin (see c/random.c), the
// last n % 4 columns by the reference. Within 1 ulp of the reference, and equal to it except
// for about 6 values in 10^8 (rounded the other way from next to a float32 rounding boundary).
void pe_random_row_simd(float *out, uint64_t seed, uint32_t p, int32_t n, double scale, const float *add);
// The same steps, bit for bit the scalar reference: a step with a value too near a float32
// rounding boundary for the series' error bound is recomputed by the reference (rarely).
void pe_random_row_simd_exact(float *out, uint64_t seed, uint32_t p, int32_t n, double scale, const float *add);
#endif

#endif   // PE_RANDOM_H
