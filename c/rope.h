// Rotary position embedding (kind `rope`): the public kernels, and their scalar and SIMD variants
// (exposed so the native tests can compare them at every tail length).
//
// Every public function takes the whole spec as arguments, in the same order, so that
// PE_ERR_ARG(k) names one spec field (web/api/kernels/rope.js lists the names). Optional values are
// passed as NaN (numbers) or 0 (integers) when unset.
#ifndef PE_ROPE_H
#define PE_ROPE_H

#include <stddef.h>
#include <stdint.h>

#include "pe.h"
#include "pe_simd.h"
#include "sinusoidal.h"   // pe_rotate_table_fn: the float64 cos/sin rotation shared with sinusoidal

// Channel pairing (see docs/reference.md, kind `rope`).
typedef enum {
    PE_ROPE_HALF = 0,          // GPT-NeoX / HF rotate_half: pair (i, i + rotary_dim/2)
    PE_ROPE_INTERLEAVED = 1,   // RoFormer / GPT-J rotate_every_two: pair (2i, 2i + 1)
} pe_rope_layout;

// rope_scaling.rope_type (Hugging Face names; transformers' modeling_rope_utils).
typedef enum {
    PE_ROPE_DEFAULT = 0,    // inv_freq_i = base^(-2i/d)
    PE_ROPE_LINEAR = 1,     // inv_freq_i / factor
    PE_ROPE_DYNAMIC = 2,    // dynamic NTK: base rescaled from the sequence length
    PE_ROPE_YARN = 3,       // YaRN: per-frequency blend of interpolation and extrapolation
    PE_ROPE_LLAMA3 = 4,     // Llama 3.1: low / high frequency bands with a smooth band between
    PE_ROPE_NTK = 5,        // static NTK-aware: base' = base·factor^(d/(d-2))
    PE_ROPE_LONGROPE = 6,   // LongRoPE (Phi-3): per-pair factors, short or long by the length
} pe_rope_type;

// The spec of kind `rope`, in the order of the public functions' spec arguments. Unset optional
// values: NaN for doubles, 0 for max_position_embeddings and original_max_position_embeddings.
typedef struct {
    int32_t length;                             // positions 0 .. length-1 (also dynamic's seq_len)
    int32_t dim;                                // head dim; rotary_dim = (int)(dim·partial_rotary_factor)
    double base;                                // rope_theta
    double partial_rotary_factor;               // (0, 1]
    int32_t max_position_embeddings;            // 0: unset
    int32_t rope_type;                          // pe_rope_type
    double factor;                              // every type but default
    int32_t original_max_position_embeddings;   // 0: unset
    double beta_fast, beta_slow;                // yarn
    int32_t truncate;                           // yarn: 0 or 1
    double mscale, mscale_all_dim;              // yarn, NaN or 0: unset
    double attention_factor;                    // yarn, NaN: unset (then from factor and mscale);
                                                // at most FLT_MAX (it scales float32 cos/sin)
    double low_freq_factor, high_freq_factor;   // llama3
} pe_rope_config;

// The spec arguments as a pe_rope_config, in a kernel that takes them one by one under these names
// (pe_rope, pe_rope_apply, pe_rope_view, pe_rope_precision, …): the one place that lists them in
// field order. A kernel whose arguments are named otherwise does not compile.
// clang-format off
#define PE_ROPE_SPEC_CONFIG                                                                      \
    {length, dim, base, partial_rotary_factor, max_position_embeddings, rope_type, factor,       \
     original_max_position_embeddings, beta_fast, beta_slow, truncate, mscale, mscale_all_dim,   \
     attention_factor, low_freq_factor, high_freq_factor}
// clang-format on

// LongRoPE's per-pair rescale factors (rope_type longrope; rope_scaling.short_factor and
// long_factor), rotary_dim/2 float64 each, finite and > 0: pair i's frequency is divided by
// short_factor[i] while length <= the original context, by long_factor[i] beyond it. The other
// types read nothing here (NULL lists are fine for them). Kept out of pe_rope_config so that the
// config's fields stay the scalar spec arguments.
typedef struct {
    const double *short_factor;
    const double *long_factor;
} pe_rope_lists;

// The frequencies and the tables of a rope spec.
//   angles:   (length, rotary_dim/2) floats, angle[p, i] = float32(p · inv_freq_i) (float64 product)
//   cos_out:  (length, rotary_dim/2) floats, cos(p · inv_freq_i)
//   sin_out:  (length, rotary_dim/2) floats, sin(p · inv_freq_i)
//   inv_freq: (rotary_dim/2) float64
//   attention_factor_out: one float64 (1 unless yarn or longrope)
// angles may be NULL, and cos_out and sin_out may be NULL together (those tables are skipped).
// cos and sin are within 2e-7 of float64 at every position (exact fixed-point start, float64
// rotation down the rows; sincos.h).
// Errors: PE_ERR_ARG(1) when no table is asked for, PE_ERR_ARG(2) or (3) when only one of cos_out
// and sin_out is, PE_ERR_ARG(4..5) for NULL inv_freq or attention_factor_out, PE_ERR_ARG(5 + k)
// for the k-th spec argument (1 = length); PE_ERR_TOO_LARGE when length·rotary_dim/2 >
// PE_MAX_ELEMENTS.
PE_API pe_status pe_rope(float *angles, float *cos_out, float *sin_out, double *inv_freq, double *attention_factor_out,
                         int32_t length, int32_t dim, double base, double partial_rotary_factor,
                         int32_t max_position_embeddings, int32_t rope_type, double factor,
                         int32_t original_max_position_embeddings, double beta_fast, double beta_slow, int32_t truncate,
                         double mscale, double mscale_all_dim, double attention_factor, double low_freq_factor,
                         double high_freq_factor, const double *short_factor, const double *long_factor);

// Applies precomputed tables instead of a spec's frequencies (axial 2-D RoPE): x and out as for
// pe_rope_apply; cos_table, sin_table: (length, rotary_dim/2). Errors: PE_ERR_ARG(1..4) for NULL
// or partly overlapping buffers (out may equal x; a table overlapping out is (3) or (4)),
// (5..9) heads, length, dim, rotary_dim, layout; PE_ERR_TOO_LARGE. The tables are cos and sin
// (|·| ≤ 1); PE_ERR_ARG(2) when finite x rotates beyond float32, as for pe_rope_apply.
PE_API pe_status pe_rope_apply_tables(float *out, const float *x, const float *cos_table, const float *sin_table,
                                      int32_t heads, int32_t length, int32_t dim, int32_t rotary_dim, int32_t layout);

// Applies RoPE to x: (heads, length, dim) row-major floats, the row of head h at position p
// starting at x + (h·length + p)·dim. The first rotary_dim channels of every row are rotated pair
// by pair in the layout,
//   out_a = x_a·(af·cos) − x_b·(af·sin),   out_b = x_b·(af·cos) + x_a·(af·sin)
// with (a, b) = (i, i + rotary_dim/2) (half) or (2i, 2i + 1) (interleaved) and af the attention
// factor; the other channels are copied. out: same shape; out == x (in place) is allowed, any
// other overlap is not. inv_freq and attention_factor_out as for pe_rope.
// Near float32's limit (|x|·af above FLT_MAX/2) a pair whose float32 products overflow is
// computed from the same operands in float64 and rounded once; non-finite x gives non-finite out
// for its pair only.
// Errors: PE_ERR_ARG(1..4) for NULL pointers, (5) heads, (6) layout, PE_ERR_ARG(6 + k) for the
// k-th spec argument; PE_ERR_TOO_LARGE when heads·length·dim > PE_MAX_ELEMENTS; PE_ERR_ARG(2)
// when a pair of finite x rotates beyond ±FLT_MAX (out is then partly written; inv_freq and
// attention_factor_out are set, so a caller can say which pair and why).
PE_API pe_status pe_rope_apply(float *out, const float *x, double *inv_freq, double *attention_factor_out,
                               int32_t heads, int32_t layout, int32_t length, int32_t dim, double base,
                               double partial_rotary_factor, int32_t max_position_embeddings, int32_t rope_type,
                               double factor, int32_t original_max_position_embeddings, double beta_fast,
                               double beta_slow, int32_t truncate, double mscale, double mscale_all_dim,
                               double attention_factor, double low_freq_factor, double high_freq_factor,
                               const double *short_factor, const double *long_factor);

// rotary_dim of a config: (int)(dim · partial_rotary_factor), as Python's int() (truncation).
int32_t pe_rope_rotary_dim(const pe_rope_config *c);

// Spec argument numbers of LongRoPE's lists, after the 16 fields of pe_rope_config.
#define PE_ROPE_ARG_SHORT_FACTOR 17
#define PE_ROPE_ARG_LONG_FACTOR 18

// Validates a config and, for longrope, its lists (NULL lists, or a list with an entry that is not
// finite and > 0, give PE_ROPE_ARG_SHORT_FACTOR or PE_ROPE_ARG_LONG_FACTOR). Returns PE_OK or
// PE_ERR_ARG(k) for its k-th field (1 = length). lists may be NULL for every other type.
pe_status pe_rope_check_lists(const pe_rope_config *c, const pe_rope_lists *lists);

// pe_rope_check_lists without lists: a longrope config is refused (PE_ROPE_ARG_SHORT_FACTOR).
pe_status pe_rope_check(const pe_rope_config *c);

// inv_freq (rotary_dim/2 float64) and the attention factor of a valid config (lists as for
// pe_rope_check_lists). Returns PE_ERR_ARG(k) (k-th field) if a derived value is not finite, else PE_OK.
pe_status pe_rope_inv_freq_lists(double *inv_freq, double *attention_factor, const pe_rope_config *c,
                                 const pe_rope_lists *lists);

// pe_rope_inv_freq_lists without lists (every type but longrope).
pe_status pe_rope_inv_freq(double *inv_freq, double *attention_factor, const pe_rope_config *c);

// Rotates n pairs of one row: pair i is (x[a_i], x[b_i]) with a_i = i, b_i = i + half (half
// layout: pass x at the pair block and half = rotary_dim/2) or a_i = 2i, b_i = 2i + 1
// (interleaved: half ignored), by cos[i], sin[i] (already scaled by the attention factor).
typedef void (*pe_rope_rotate_fn)(float *out, const float *x, const float *cos_row, const float *sin_row, int32_t n,
                                  int32_t layout, int32_t half);

void pe_rope_rotate_scalar(float *out, const float *x, const float *cos_row, const float *sin_row, int32_t n,
                           int32_t layout, int32_t half);
#if PE_HAVE_SIMD
void pe_rope_rotate_simd(float *out, const float *x, const float *cos_row, const float *sin_row, int32_t n,
                         int32_t layout, int32_t half);
#endif

// The fast path's bound: rows whose every |x| is at most pe_rope_x_limit(af) rotate in float32
// without overflow (FLT_MAX / (2·af), a little less). pe_rope_within_* say whether all n values
// of x are (NaN counts as within: it only makes its own pair NaN).
float pe_rope_x_limit(double attention_factor);
int pe_rope_within_scalar(const float *x, int32_t n, float limit);
#if PE_HAVE_SIMD
int pe_rope_within_simd(const float *x, int32_t n, float limit);
#endif

// Writes angle[r·n + i] = float32((first + r) · inv_freq[i]) for rows r < rows, pairs i < n.
typedef void (*pe_rope_angles_fn)(float *out, const double *inv_freq, int32_t n, int32_t first, int32_t rows);

void pe_rope_angles_scalar(float *out, const double *inv_freq, int32_t n, int32_t first, int32_t rows);
#if PE_HAVE_SIMD
void pe_rope_angles_simd(float *out, const double *inv_freq, int32_t n, int32_t first, int32_t rows);
#endif

// The public kernels with their inner loops given (scalar or SIMD), for the native tests. They
// return the same status codes as pe_rope and pe_rope_apply (config field k of c is spec argument
// k, the lists 17 and 18), plus the first argument after c for a NULL function. lists: as for
// pe_rope_check_lists (the last argument, NULL unless longrope).
pe_status pe_rope_variant(float *angles, float *cos_out, float *sin_out, double *inv_freq, double *attention_factor_out,
                          const pe_rope_config *c, pe_rope_angles_fn angles_fn, pe_rotate_table_fn table_fn,
                          const pe_rope_lists *lists);
pe_status pe_rope_apply_variant(float *out, const float *x, double *inv_freq, double *attention_factor_out,
                                int32_t heads, int32_t layout, const pe_rope_config *c, pe_rotate_table_fn table_fn,
                                pe_rope_rotate_fn rotate_fn, const pe_rope_lists *lists);

#endif   // PE_ROPE_H
