// Precision lab (kind `rope_precision`): what a RoPE recipe's number formats do to the angles.
//
// Reference: docs/reference.md, section `rope_precision`. For row r (position
// p = offset + r) and pair i, with ω_i the float64 inverse frequency that `rope` computes
// (pe_rope_inv_freq, c/rope.c) for the same fields:
//   1. f = round(ω_i, inv_freq_dtype)
//   2. q = round(p, position_dtype)
//   3. φ = round(q · f, phase_dtype)        the product taken exactly, then rounded once
//   4. c = round(cos φ, table_dtype), s = round(sin φ, table_dtype)   of the exact value of φ
//   data[r, i] = |atan2(s, c) − p·ω_i| reduced modulo 2π into [0, π] (p·ω_i exact); π when c or
//   s is not finite.
// round(x, t) is IEEE round-to-nearest-even into t: bfloat16 (8 significant bits, float32's
// exponent range), float16 (11 bits, subnormals), float32, float64; overflow gives ±∞.
//
// The rounding helpers below are exact (no libm): they are the building block of every step and
// are tested exhaustively natively (tests/native/test_precision.c) and against PyTorch's own
// conversions (tests/precision.test.js).
#ifndef PE_PRECISION_H
#define PE_PRECISION_H

#include <stdint.h>

#include "pe.h"
#include "pe_simd.h"
#include "rope.h"   // pe_rope_config, pe_rope_inv_freq: the frequencies `rope` computes

// Number formats of a recipe (the codes web/api/kernels/precision.js passes).
typedef enum {
    PE_RECIPE_FLOAT64 = 0,
    PE_RECIPE_FLOAT32 = 1,
    PE_RECIPE_BFLOAT16 = 2,
    PE_RECIPE_FLOAT16 = 3,
    // Step 1 only (inv_freq_dtype): float32 as frameworks form inv_freq, with a float32 pow and a
    // divide (transformers: 1.0 / (base ** (torch.arange(0, d, 2).float() / d))), not by rounding
    // the exact ω_i. See pe_inv_freq_float32_pow.
    PE_RECIPE_FLOAT32_POW = 4,
} pe_recipe_dtype;

// round(x, dtype) as a double (the value of the nearest dtype number, ties to even; ±∞ past the
// largest finite value; signed zeros kept; NaN returned as given). dtype outside pe_recipe_dtype: NaN.
double pe_round_dtype(double x, int32_t dtype);
double pe_round_float32(double x);
double pe_round_bfloat16(double x);
double pe_round_float16(double x);

// The IEEE bit patterns of bfloat16 and float16 numbers (for the tests): bits → value and
// value (already a number of that format, e.g. from pe_round_*) → bits.
double pe_bfloat16_value(uint16_t bits);
double pe_float16_value(uint16_t bits);
uint16_t pe_bfloat16_bits(double rounded);
uint16_t pe_float16_bits(double rounded);

// round(hi + lo, dtype) with hi + lo the exact value (hi = fl(hi + lo), as a two-product gives):
// rounded once, never twice. For dtype float64 it is hi.
double pe_round_exact(double hi, double lo, int32_t dtype);

// Array forms, the kernel's inner loops (scalar reference and SIMD twin, bit-identical):
//   round:  out[k] = round(x[k], dtype), k < n (out may equal x)
//   phase:  out[k] = round(q · f[k] exactly, dtype), k < n
typedef void (*pe_round_array_fn)(double *out, const double *x, int32_t n, int32_t dtype);
typedef void (*pe_phase_array_fn)(double *out, double q, const double *f, int32_t n, int32_t dtype);

void pe_round_array_scalar(double *out, const double *x, int32_t n, int32_t dtype);
void pe_phase_array_scalar(double *out, double q, const double *f, int32_t n, int32_t dtype);
#if PE_HAVE_SIMD
void pe_round_array_simd(double *out, const double *x, int32_t n, int32_t dtype);
void pe_phase_array_simd(double *out, double q, const double *f, int32_t n, int32_t dtype);
#endif

// out[k] = round(x[k], dtype) for k < n with this build's loop (SIMD or scalar); out may equal x.
// Errors: PE_ERR_ARG(1..4) for out, x (NULL), n (< 0), dtype; PE_ERR_TOO_LARGE when
// n > PE_MAX_ELEMENTS. (The rounding on its own, for tests against other libraries' casts.)
PE_API pe_status pe_round_values(double *out, const double *x, int32_t n, int32_t dtype);

// inv_freq as frameworks compute it in float32 (PE_RECIPE_FLOAT32_POW), for n = rotary_dim/2 pairs:
//   e = fl32(2i / d), P = fl32(fl32(base) ^ e), f_i = fl32(1 / P)          (d = rotary_dim)
// P is float64 pow rounded once (correctly rounded but within 1e-16 of a float32 midpoint;
// PyTorch's vectorised powf is within 1 ulp of it), 1/P in float64 then float32 is the float32
// quotient (53 ≥ 2·24 + 2 bits). A scaled spec (omega from pe_rope_inv_freq, its frequencies
// after scaling) multiplies that by its scaling ω_i / ω0_i (ω0_i = base^(−2i/d) in float64), once
// rounded into float32: the framework's pow error carried into the scaled frequencies.
void pe_inv_freq_float32_pow(double *f, const double *omega, const pe_rope_config *c);

// Doubles of scratch the kernel needs for n = rotary_dim/2 pairs (the caller allocates them).
#define PE_PRECISION_SCRATCH(n) (8 * (int64_t)(n))

// The angle error of a recipe (see the top of this file).
//   out:       (length, n) floats, n = rotary_dim/2: the error in radians, in [0, π]
//   cos_out, sin_out: (length, n) floats, the recipe's c and s (as float32; float64 tables are
//              rounded to float32 here, the error uses the float64 values)
//   row_error: (length) floats, max over the pairs of a row
//   stats:     2 doubles: [collisions, first_collision] — rows r ≥ 1 whose c and s rows both
//              equal row r − 1's exactly (NaN equal to NaN), and the smallest such position p (or
//              −1 when there is none)
//   scratch:   PE_PRECISION_SCRATCH(n) doubles of work space; on PE_OK, scratch[0 .. n) holds ω_i
//              (float64, as `rope` computes it) and scratch[n .. 2n) the recipe's f_i (step 1)
//   offset:    position of row 0, in [0, PE_MAX_POSITION − length]
//   inv_freq_dtype, position_dtype, phase_dtype, table_dtype: pe_recipe_dtype codes
//              (PE_RECIPE_FLOAT32_POW for inv_freq_dtype only)
//   then the `rope` spec arguments of pe_rope, in its order (length, dim, base, ...).
// Errors: PE_ERR_ARG(1..11) for the arguments above (NULL pointers, offset, unknown dtypes),
// PE_ERR_ARG(11 + k) for the k-th rope spec argument (12 = length); PE_ERR_TOO_LARGE when
// length·n > PE_MAX_ELEMENTS. Never allocates; never aborts.
PE_API pe_status pe_rope_precision(float *out, float *cos_out, float *sin_out, float *row_error, double *stats,
                                   double *scratch, int32_t offset, int32_t inv_freq_dtype, int32_t position_dtype,
                                   int32_t phase_dtype, int32_t table_dtype, int32_t length, int32_t dim, double base,
                                   double partial_rotary_factor, int32_t max_position_embeddings, int32_t rope_type,
                                   double factor, int32_t original_max_position_embeddings, double beta_fast,
                                   double beta_slow, int32_t truncate, double mscale, double mscale_all_dim,
                                   double attention_factor, double low_freq_factor, double high_freq_factor);

// pe_rope_precision for every rope_scaling type, LongRoPE included: the same arguments, then
// LongRoPE's per-pair factor lists (rotary_dim/2 doubles each; NULL for other types). As in
// transformers, the long list applies once offset + length exceeds
// original_max_position_embeddings, the short one otherwise. PE_ERR_ARG(28) / (29) name a
// missing or bad short_factor / long_factor. pe_rope_precision is this with NULL lists.
PE_API pe_status pe_rope_precision_lists(float *out, float *cos_out, float *sin_out, float *row_error, double *stats,
                                         double *scratch, int32_t offset, int32_t inv_freq_dtype,
                                         int32_t position_dtype, int32_t phase_dtype, int32_t table_dtype,
                                         int32_t length, int32_t dim, double base, double partial_rotary_factor,
                                         int32_t max_position_embeddings, int32_t rope_type, double factor,
                                         int32_t original_max_position_embeddings, double beta_fast, double beta_slow,
                                         int32_t truncate, double mscale, double mscale_all_dim,
                                         double attention_factor, double low_freq_factor, double high_freq_factor,
                                         const double *short_factor, const double *long_factor);

// The exact angle error of one table entry: |atan2(s, c) − p·ω| reduced into [0, π], p·ω taken
// from ω's 64-bit fixed-point turns (sincos.h); π when c or s is not finite.
double pe_angle_error(double c, double s, uint32_t p, double omega);

// For the native tests: the sweep's fast evaluation of one entry (c/precision.c, fast_entry):
// returns 1 with *out = the kernel's (float)error of the entry whose phase is phi (position p,
// exact frequency omega, table format table_dtype: float32, bfloat16 or float16) when it is
// certain without libm, else 0 (then the sweep computes the entry as the kernel does).
int pe_precision_fast_entry(double phi, int32_t table_dtype, uint32_t p, double omega, float *out);
// The same for two entries, as the sweep takes them in the SIMD build (two lanes): bit k of the
// result is set when entry k is certain (out[k] then holds its error).
int pe_precision_fast_entry_pair(const double phi[2], int32_t table_dtype, const uint32_t p[2], const double omega[2],
                                 float out[2]);

// The kernel with its inner loops given, for the native tests (same statuses as
// pe_rope_precision, plus PE_ERR_ARG(28) or (29) for a NULL function). c is a rope config
// (c/rope.h) whose field k is spec argument 11 + k; dtypes are the four recipe codes in order.
pe_status pe_rope_precision_variant(float *out, float *cos_out, float *sin_out, float *row_error, double *stats,
                                    double *scratch, int32_t offset, const int32_t dtypes[4], const pe_rope_config *c,
                                    pe_round_array_fn round_fn, pe_phase_array_fn phase_fn);

// The sweep: pe_rope_precision's row_error and stats alone, without its (length, n) tables, for
// long runs of positions (the page's error curve and collisions; npm run bench). Identical
// row_error (bit for bit) and stats; per row only the pairs that can hold the row's largest
// error are computed in full (see c/precision.c).
//   scratch: PE_PRECISION_SWEEP_SCRATCH(n) doubles
// Errors: PE_ERR_ARG(1..3) for row_error, stats, scratch (NULL); 4 offset; 5..8 the dtypes;
// PE_ERR_ARG(8 + k) for the k-th rope spec argument (9 = length). Never allocates; never aborts.
#define PE_PRECISION_SWEEP_SCRATCH(n) (8 * (int64_t)(n))
PE_API pe_status pe_rope_precision_sweep(float *row_error, double *stats, double *scratch, int32_t offset,
                                         int32_t inv_freq_dtype, int32_t position_dtype, int32_t phase_dtype,
                                         int32_t table_dtype, int32_t length, int32_t dim, double base,
                                         double partial_rotary_factor, int32_t max_position_embeddings,
                                         int32_t rope_type, double factor, int32_t original_max_position_embeddings,
                                         double beta_fast, double beta_slow, int32_t truncate, double mscale,
                                         double mscale_all_dim, double attention_factor, double low_freq_factor,
                                         double high_freq_factor);

// pe_rope_precision_sweep with LongRoPE's lists, as pe_rope_precision_lists (PE_ERR_ARG(25) /
// (26) name a missing or bad short_factor / long_factor).
PE_API pe_status pe_rope_precision_sweep_lists(
    float *row_error, double *stats, double *scratch, int32_t offset, int32_t inv_freq_dtype, int32_t position_dtype,
    int32_t phase_dtype, int32_t table_dtype, int32_t length, int32_t dim, double base, double partial_rotary_factor,
    int32_t max_position_embeddings, int32_t rope_type, double factor, int32_t original_max_position_embeddings,
    double beta_fast, double beta_slow, int32_t truncate, double mscale, double mscale_all_dim, double attention_factor,
    double low_freq_factor, double high_freq_factor, const double *short_factor, const double *long_factor);

// The sweep with its inner loops given, for the native tests (PE_ERR_ARG(25) or (26) for a NULL
// function). c's field k is spec argument 8 + k.
pe_status pe_rope_precision_sweep_variant(float *row_error, double *stats, double *scratch, int32_t offset,
                                          const int32_t dtypes[4], const pe_rope_config *c, pe_round_array_fn round_fn,
                                          pe_phase_array_fn phase_fn);

#endif   // PE_PRECISION_H
