// Relative-position tables and biases (kinds `t5`, `shaw`, `distance`, `alibi`), and the Toeplitz
// fill they share: every entry [i, j] of these tables depends on r = j − i alone.
#ifndef PE_RELATIVE_H
#define PE_RELATIVE_H

#include <stdint.h>

#include "pe.h"
#include "pe_simd.h"

// Biggest table side: (length, length) must fit in PE_MAX_ELEMENTS (8192² = 2^26).
#define PE_MAX_BIAS_LENGTH 8192
// num_buckets of `t5`.
#define PE_MAX_T5_BUCKETS 4096
// Head counts of `alibi` (any count, powers of two or not).
#define PE_MAX_ALIBI_HEADS 1024

// Which entries a bias table covers (kinds `alibi` and `distance`).
typedef enum {
    PE_BIAS_CAUSAL = 0,      // b(i − j) for j ≤ i, −Infinity above the diagonal (j > i)
    PE_BIAS_SYMMETRIC = 1,   // b(|i − j|) everywhere
} pe_bias_mode;

// Distance functions of `distance`: b(d) with u = d / scale, d = |i − j| (see pe_distance_bias).
typedef enum {
    PE_DIST_LINEAR = 0,        // −strength·u
    PE_DIST_LOG = 1,           // −strength·ln(1 + u)
    PE_DIST_GAUSSIAN = 2,      // −strength·u²/2
    PE_DIST_EXPONENTIAL = 3,   // strength·(e^(−u) − 1)
} pe_distance_fn;

// T5 buckets of r = j − i (key minus query), as transformers' T5Attention._relative_position_bucket
// computes them (float32 log, truncated), as floats.
// out: (length, length). Errors: PE_ERR_ARG(1..5) for out, length (1..8192), num_buckets
// (4..4096), max_distance (> max_exact, ≤ 2^20), bidirectional (0 or 1).
PE_API pe_status pe_t5(float *out, int32_t length, int32_t num_buckets, int32_t max_distance, int32_t bidirectional);

// Shaw et al. (2018) clipped relative positions: clip(j − i, −k, k) + k, k = max_relative_position.
// out: (length, length). Errors: PE_ERR_ARG(1..3) for out, length (1..8192), k (0..2^20).
PE_API pe_status pe_shaw(float *out, int32_t length, int32_t max_relative_position);

// A bias b(d) of the distance d = |i − j| (see pe_distance_fn), causal or symmetric.
// out: (length, length). Errors: PE_ERR_ARG(1..6) for out, length (1..8192), function,
// strength (0..1000), scale (0.01..1e6), mode.
PE_API pe_status pe_distance(float *out, int32_t length, int32_t function, double strength, double scale, int32_t mode);

// ALiBi (Press et al., 2022, "Train Short, Test Long"): bias[h, i, j] = −m_h·(i − j) for j ≤ i
// and −Infinity above the diagonal (causal), or −m_h·|i − j| everywhere (symmetric); each value is
// the float64 product rounded once to float32.
// out: (heads, length, length); slopes: (heads), m_h rounded to float32.
// Errors: PE_ERR_ARG(1..5) for out, slopes, length (1..8192), heads (1..1024), mode;
// PE_ERR_TOO_LARGE when heads·length² > PE_MAX_ELEMENTS.
PE_API pe_status pe_alibi(float *out, float *slopes, int32_t length, int32_t heads, int32_t mode);

// Profiles: the 2·length − 1 distinct values of a table above, one per relative position
// r = j − i = −(length − 1) … length − 1 (index r + length − 1), exactly the entries the table
// holds (row length − 1, then row 0 from its second entry). What the views plot against r,
// without a length² table. Arguments and errors as the table's; alibi's out is
// (heads, 2·length − 1), and it writes the slopes too.
PE_API pe_status pe_t5_profile(float *out, int32_t length, int32_t num_buckets, int32_t max_distance,
                               int32_t bidirectional);
PE_API pe_status pe_shaw_profile(float *out, int32_t length, int32_t max_relative_position);
PE_API pe_status pe_distance_profile(float *out, int32_t length, int32_t function, double strength, double scale,
                                     int32_t mode);
PE_API pe_status pe_alibi_profile(float *out, float *slopes, int32_t length, int32_t heads, int32_t mode);

// Writes the per-head slopes m_h of ALiBi exactly as Press et al.'s get_slopes(heads) returns
// them, in float64 and in its order (see c/relative.c). slopes: (heads). Errors: PE_ERR_ARG(1..2).
pe_status pe_alibi_slopes(double *slopes, int32_t heads);

// The T5 bucket of one relative position (arguments as pe_t5, assumed valid).
int32_t pe_t5_bucket(int32_t relative_position, int32_t num_buckets, int32_t max_distance, int32_t bidirectional);
// b(d) of pe_distance in float64 (arguments assumed valid), +0 at d = 0.
double pe_distance_bias(int32_t d, int32_t function, double strength, double scale);

// Toeplitz fill: given row 0 (entries r = 0 .. n−1) and row n−1 (entries r = −(n−1) .. 0) of an
// (n, n) table whose entry [i, j] depends on r = j − i alone, writes rows 1 .. n−2:
//   row i = row_{n−1}[n−1−i .. n−1] ++ row_0[1 .. n−1−i].
// Copies only; the scalar and SIMD variants write identical bytes.
typedef void (*pe_toeplitz_fn)(float *out, int32_t n);
void pe_toeplitz_fill_scalar(float *out, int32_t n);
#if PE_HAVE_SIMD
void pe_toeplitz_fill_simd(float *out, int32_t n);
#endif
// The variant this build uses (SIMD when compiled with it).
pe_toeplitz_fn pe_toeplitz_fill_default(void);

#endif   // PE_RELATIVE_H
