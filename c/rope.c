// Rotary position embedding (Su et al., RoFormer, 2021) with the Hugging Face rope_scaling types.
//
// Frequencies, with d = rotary_dim = (int)(dim·partial_rotary_factor) and i = 0 .. d/2-1, all in
// float64 (formulas of transformers' modeling_rope_utils, v4.5x):
//   default   inv_freq_i = 1 / base^(2i/d)
//   linear    inv_freq_i = 1 / base^(2i/d) / factor
//   ntk       base' = base·factor^(d/(d-2)), then default with base'
//   dynamic   base' = base·(factor·s/m − (factor − 1))^(d/(d-2)), s = max(length, m),
//             m = max_position_embeddings (or rope_scaling.original_max_position_embeddings)
//   yarn      with o = original_max_position_embeddings (or max_position_embeddings):
//               corr(β) = d·ln(o / (2πβ)) / (2·ln base)
//               lo = corr(beta_fast), hi = corr(beta_slow) (floor / ceil when truncate),
//               lo = max(lo, 0), hi = min(hi, d − 1), hi += 0.001 when lo == hi
//               ramp_i = clamp((i − lo) / (hi − lo), 0, 1), e_i = 1 − ramp_i
//               inv_freq_i = (1/(factor·base^(2i/d)))·(1 − e_i) + (1/base^(2i/d))·e_i
//             factor is used as given, as transformers does since 4.56 (PR #40320; before, a set
//             original_max_position_embeddings replaced it by max_position_embeddings / o)
//             attention_factor = rope_scaling.attention_factor, else
//               g(factor, mscale) / g(factor, mscale_all_dim) when both are set and non-zero,
//               else g(factor, 1), with g(s, m) = 1 if s <= 1 else 0.1·m·ln s + 1
//   llama3    with o = original_max_position_embeddings, λ_i = 2π / inv_freq_i (default):
//               λ_i > o/low_freq_factor   → inv_freq_i / factor          (low frequencies)
//               λ_i < o/high_freq_factor  → inv_freq_i                   (high frequencies)
//               otherwise, s = (o/λ_i − low_freq_factor)/(high_freq_factor − low_freq_factor):
//                            (1 − s)·inv_freq_i / factor + s·inv_freq_i  (smooth band; none
//                            when high_freq_factor = low_freq_factor, as in Llama 4)
//   longrope  (LongRoPE, Phi-3) with o = original_max_position_embeddings (or max_position_embeddings)
//             and per-pair lists: inv_freq_i = 1 / (ext_i·base^(2i/d)), ext = long_factor when
//             length > o, else short_factor (transformers switches on seq_len the same way)
//             attention_factor = rope_scaling.attention_factor, else √(1 + ln s / ln o) (1 when
//             s <= 1), with s = max_position_embeddings / o when both are set (Phi-3's rule; it
//             overrides factor), else factor (else 1)
// Angles p·inv_freq_i are formed in float64; cos and sin come from an exact fixed-point start
// and a float64 rotation down the rows (sincos.h), so they stay within half a float32 ulp of
// float64 at every position.
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "pe.h"
#include "rope.h"
#include "sincos.h"

// Frequencies are prepared in blocks on the stack (no heap in kernels).
#define FREQ_BLOCK 256
// Rows between exact re-anchorings of the float64 rotation (bounds its drift to ~1e-11).
#define ANCHOR_ROWS 65536
// Rows per pass over a frequency block when writing cos/sin tables (as in sinusoidal.c).
#define ROW_TILE 8
// Rows of scaled cos/sin prepared at once by pe_rope_apply, then used for every head: the tile
// (2 · APPLY_TILE · FREQ_BLOCK floats, 32 KiB) stays in L1 while the heads stream past it.
#define APPLY_TILE 16

static const double PE_PI = 3.141592653589793;

// Spec argument k of pe_rope / pe_rope_apply is config field k: the public functions shift it.
#define CFG_ERR(k) PE_ERR_ARG(k)
// clang-format off
enum {
    ARG_LENGTH = 1, ARG_DIM, ARG_BASE, ARG_PARTIAL, ARG_MAX_POS, ARG_TYPE, ARG_FACTOR,
    ARG_ORIGINAL_MAX_POS, ARG_BETA_FAST, ARG_BETA_SLOW, ARG_TRUNCATE, ARG_MSCALE,
    ARG_MSCALE_ALL_DIM, ARG_ATTENTION_FACTOR, ARG_LOW_FREQ, ARG_HIGH_FREQ,
    ARG_SHORT_FACTOR = PE_ROPE_ARG_SHORT_FACTOR, ARG_LONG_FACTOR = PE_ROPE_ARG_LONG_FACTOR,
};
// clang-format on

static pe_status shift_arg(pe_status status, int32_t first) {
    if (status > 100 && status < 200) return PE_ERR_ARG(first + PE_ERR_ARG_INDEX(status));
    return status;
}

static int finite_positive(double v) { return isfinite(v) && v > 0.0; }
static int unset(double v) { return isnan(v); }

int32_t pe_rope_rotary_dim(const pe_rope_config *c) {
    return (int32_t)((double)c->dim * c->partial_rotary_factor);   // Python int(): truncation
}

// The rotary width is the one the type needs (even, >= 2; >= 4 for the d/(d-2) exponent): a bad
// one is reported on dim when partial_rotary_factor is 1 (nothing else to blame), else on it.
static pe_status check_rotary_dim(const pe_rope_config *c, int32_t min) {
    int32_t rotary = pe_rope_rotary_dim(c);
    if (rotary >= min && rotary % 2 == 0) return PE_OK;
    return c->partial_rotary_factor == 1.0 ? CFG_ERR(ARG_DIM) : CFG_ERR(ARG_PARTIAL);
}

// Every entry of a LongRoPE list is a finite divisor > 0 (at most 1e6, as the schema's scaling numbers).
static int valid_list(const double *list, int32_t n) {
    if (list == NULL) return 0;
    for (int32_t i = 0; i < n; i++)
        if (!(finite_positive(list[i]) && list[i] <= 1e6 && list[i] >= 1e-6)) return 0;
    return 1;
}

// LongRoPE's original context o: original_max_position_embeddings, else max_position_embeddings.
static int32_t longrope_original(const pe_rope_config *c) {
    return c->original_max_position_embeddings > 0 ? c->original_max_position_embeddings : c->max_position_embeddings;
}

pe_status pe_rope_check(const pe_rope_config *c) { return pe_rope_check_lists(c, NULL); }

pe_status pe_rope_check_lists(const pe_rope_config *c, const pe_rope_lists *lists) {
    if (c->length < 1 || c->length > PE_MAX_LENGTH) return CFG_ERR(ARG_LENGTH);
    if (c->dim < 2 || c->dim > PE_MAX_DIM) return CFG_ERR(ARG_DIM);
    if (!(c->base > 1.0) || !isfinite(c->base)) return CFG_ERR(ARG_BASE);   // also rejects NaN
    if (!(c->partial_rotary_factor > 0.0 && c->partial_rotary_factor <= 1.0)) return CFG_ERR(ARG_PARTIAL);
    if (c->max_position_embeddings < 0) return CFG_ERR(ARG_MAX_POS);
    if (c->rope_type < PE_ROPE_DEFAULT || c->rope_type > PE_ROPE_LONGROPE) return CFG_ERR(ARG_TYPE);
    const int needs_exponent = c->rope_type == PE_ROPE_DYNAMIC || c->rope_type == PE_ROPE_NTK;
    pe_status status = check_rotary_dim(c, needs_exponent ? 4 : 2);
    if (status != PE_OK) return status;
    if (c->rope_type == PE_ROPE_DEFAULT) return PE_OK;
    if (c->original_max_position_embeddings < 0) return CFG_ERR(ARG_ORIGINAL_MAX_POS);
    if (c->rope_type == PE_ROPE_LONGROPE) {
        // factor is optional here (the attention factor's scale when max_position_embeddings is unset).
        if (!unset(c->factor) && !finite_positive(c->factor)) return CFG_ERR(ARG_FACTOR);
        if (longrope_original(c) < 1) return CFG_ERR(ARG_ORIGINAL_MAX_POS);
        if (!unset(c->attention_factor) && !(finite_positive(c->attention_factor) && c->attention_factor <= FLT_MAX))
            return CFG_ERR(ARG_ATTENTION_FACTOR);
        const int32_t n = pe_rope_rotary_dim(c) / 2;
        if (lists == NULL || !valid_list(lists->short_factor, n)) return CFG_ERR(ARG_SHORT_FACTOR);
        if (!valid_list(lists->long_factor, n)) return CFG_ERR(ARG_LONG_FACTOR);
        return PE_OK;
    }

    // Every other type scales by factor; the rest is checked only where the type reads it.
    if (!finite_positive(c->factor)) return CFG_ERR(ARG_FACTOR);
    switch (c->rope_type) {
    case PE_ROPE_DYNAMIC:
        if (c->max_position_embeddings == 0 && c->original_max_position_embeddings == 0) return CFG_ERR(ARG_MAX_POS);
        break;
    case PE_ROPE_YARN:
        if (c->original_max_position_embeddings == 0 && c->max_position_embeddings == 0)
            return CFG_ERR(ARG_ORIGINAL_MAX_POS);
        if (!finite_positive(c->beta_fast)) return CFG_ERR(ARG_BETA_FAST);
        if (!finite_positive(c->beta_slow) || c->beta_slow > c->beta_fast) return CFG_ERR(ARG_BETA_SLOW);
        if (c->truncate != 0 && c->truncate != 1) return CFG_ERR(ARG_TRUNCATE);
        if (!unset(c->mscale) && !(isfinite(c->mscale) && c->mscale >= 0.0)) return CFG_ERR(ARG_MSCALE);
        if (!unset(c->mscale_all_dim) && !(isfinite(c->mscale_all_dim) && c->mscale_all_dim >= 0.0))
            return CFG_ERR(ARG_MSCALE_ALL_DIM);
        if (!unset(c->attention_factor) && !(finite_positive(c->attention_factor) && c->attention_factor <= FLT_MAX))
            return CFG_ERR(ARG_ATTENTION_FACTOR);
        break;
    case PE_ROPE_LLAMA3:
        if (c->original_max_position_embeddings < 1) return CFG_ERR(ARG_ORIGINAL_MAX_POS);
        if (!finite_positive(c->low_freq_factor)) return CFG_ERR(ARG_LOW_FREQ);
        // high == low (Llama 4) leaves no smooth band between the two edges.
        if (!(isfinite(c->high_freq_factor) && c->high_freq_factor >= c->low_freq_factor))
            return CFG_ERR(ARG_HIGH_FREQ);
        break;
    default: break;
    }
    return PE_OK;
}

// YaRN's attention scaling g(s, m) = 0.1·m·ln s + 1 (1 when s <= 1).
static double yarn_mscale(double scale, double m) { return scale <= 1.0 ? 1.0 : 0.1 * m * log(scale) + 1.0; }

// YaRN's correction dimension: the i (of d) at which a frequency turns num_rotations times over
// the original context o, d·ln(o / (2π·num_rotations)) / (2·ln base).
static double yarn_correction_dim(double num_rotations, int32_t d, double base, double o) {
    return ((double)d * log(o / (num_rotations * 2.0 * PE_PI))) / (2.0 * log(base));
}

pe_status pe_rope_inv_freq(double *inv_freq, double *attention_factor, const pe_rope_config *c) {
    return pe_rope_inv_freq_lists(inv_freq, attention_factor, c, NULL);
}

pe_status pe_rope_inv_freq_lists(double *inv_freq, double *attention_factor, const pe_rope_config *c,
                                 const pe_rope_lists *lists) {
    const int32_t d = pe_rope_rotary_dim(c), n = d / 2;
    double base = c->base;
    double af = 1.0;
    if (c->rope_type == PE_ROPE_NTK) {
        base = c->base * pow(c->factor, (double)d / (double)(d - 2));
    } else if (c->rope_type == PE_ROPE_DYNAMIC) {
        double m = c->max_position_embeddings > 0 ? c->max_position_embeddings : c->original_max_position_embeddings;
        double s = (double)c->length > m ? (double)c->length : m;   // seq_len, at least m
        base = c->base * pow(c->factor * s / m - (c->factor - 1.0), (double)d / (double)(d - 2));
    }
    for (int32_t i = 0; i < n; i++) inv_freq[i] = 1.0 / pow(base, (double)(2 * i) / (double)d);

    if (c->rope_type == PE_ROPE_LINEAR) {
        for (int32_t i = 0; i < n; i++) inv_freq[i] /= c->factor;
    } else if (c->rope_type == PE_ROPE_YARN) {
        double o =
            c->original_max_position_embeddings > 0 ? c->original_max_position_embeddings : c->max_position_embeddings;
        double lo = yarn_correction_dim(c->beta_fast, d, base, o);
        double hi = yarn_correction_dim(c->beta_slow, d, base, o);
        if (c->truncate) {
            lo = floor(lo);
            hi = ceil(hi);
        }
        if (lo < 0.0) lo = 0.0;
        if (hi > (double)(d - 1)) hi = (double)(d - 1);
        if (lo == hi) hi += 0.001;   // no zero-width ramp
        for (int32_t i = 0; i < n; i++) {
            double pos_freq = pow(base, (double)(2 * i) / (double)d);
            double extrapolation = 1.0 / pos_freq, interpolation = 1.0 / (c->factor * pos_freq);
            double ramp = ((double)i - lo) / (hi - lo);
            ramp = ramp < 0.0 ? 0.0 : ramp > 1.0 ? 1.0 : ramp;
            double e = 1.0 - ramp;   // share of extrapolation (the unscaled frequency)
            inv_freq[i] = interpolation * (1.0 - e) + extrapolation * e;
        }
        if (!unset(c->attention_factor)) af = c->attention_factor;
        else if (!unset(c->mscale) && c->mscale != 0.0 && !unset(c->mscale_all_dim) && c->mscale_all_dim != 0.0)
            af = yarn_mscale(c->factor, c->mscale) / yarn_mscale(c->factor, c->mscale_all_dim);
        else
            af = yarn_mscale(c->factor, 1.0);
    } else if (c->rope_type == PE_ROPE_LONGROPE) {
        if (lists == NULL || lists->short_factor == NULL || lists->long_factor == NULL)
            return CFG_ERR(ARG_SHORT_FACTOR);
        const double o = (double)longrope_original(c);
        const double *ext = (double)c->length > o ? lists->long_factor : lists->short_factor;
        for (int32_t i = 0; i < n; i++) inv_freq[i] = 1.0 / (ext[i] * pow(base, (double)(2 * i) / (double)d));
        double s = c->original_max_position_embeddings > 0 && c->max_position_embeddings > 0
                       ? (double)c->max_position_embeddings / (double)c->original_max_position_embeddings
                   : unset(c->factor) ? 1.0
                                      : c->factor;
        if (!unset(c->attention_factor)) af = c->attention_factor;
        else if (s > 1.0)
            af = o > 1.0 ? sqrt(1.0 + log(s) / log(o)) : INFINITY;   // o = 1: ln o = 0
    } else if (c->rope_type == PE_ROPE_LLAMA3) {
        double o = c->original_max_position_embeddings;
        double low_wavelen = o / c->low_freq_factor, high_wavelen = o / c->high_freq_factor;
        for (int32_t i = 0; i < n; i++) {
            double wavelen = 2.0 * PE_PI / inv_freq[i];
            if (wavelen > low_wavelen) {
                inv_freq[i] = inv_freq[i] / c->factor;
            } else if (wavelen >= high_wavelen && c->high_freq_factor > c->low_freq_factor) {
                // (With high == low the band is empty: a wavelength exactly on the edge is kept,
                // where transformers' formula would divide 0 by 0.)
                double smooth = (o / wavelen - c->low_freq_factor) / (c->high_freq_factor - c->low_freq_factor);
                inv_freq[i] = (1.0 - smooth) * inv_freq[i] / c->factor + smooth * inv_freq[i];
            }
        }
    }
    for (int32_t i = 0; i < n; i++)
        if (!(isfinite(inv_freq[i]) && inv_freq[i] >= 0.0)) return CFG_ERR(ARG_FACTOR);
    // The application scales cos and sin by af in float32 tables: past FLT_MAX they were ±Infinity
    // and even a zero vector came out NaN (0·∞; found by tests/fuzz). A derived af (mscale ratio)
    // that large is reported on factor like any other derived value.
    if (!finite_positive(af) || af > FLT_MAX) return CFG_ERR(ARG_FACTOR);
    *attention_factor = af;
    return PE_OK;
}

// --- angle table ---------------------------------------------------------------------------------

void pe_rope_angles_scalar(float *out, const double *inv_freq, int32_t n, int32_t first, int32_t rows) {
    for (int32_t r = 0; r < rows; r++) {
        double p = (double)(first + r);
        float *row = out + (size_t)r * (size_t)n;
        for (int32_t i = 0; i < n; i++) row[i] = (float)(p * inv_freq[i]);
    }
}

#if PE_HAVE_SIMD
// Four angles per step: two float64 products per vector, demoted and packed.
void pe_rope_angles_simd(float *out, const double *inv_freq, int32_t n, int32_t first, int32_t rows) {
    for (int32_t r = 0; r < rows; r++) {
        double p = (double)(first + r);
        v128_t pv = wasm_f64x2_splat(p);
        float *row = out + (size_t)r * (size_t)n;
        int32_t i = 0;
        for (; i + 4 <= n; i += 4) {
            v128_t a01 = wasm_f32x4_demote_f64x2_zero(wasm_f64x2_mul(pv, wasm_v128_load(inv_freq + i)));
            v128_t a23 = wasm_f32x4_demote_f64x2_zero(wasm_f64x2_mul(pv, wasm_v128_load(inv_freq + i + 2)));
            wasm_v128_store(row + i, wasm_i32x4_shuffle(a01, a23, 0, 1, 4, 5));
        }
        for (; i < n; i++) row[i] = (float)(p * inv_freq[i]);
    }
}
#endif

// --- rotation of vectors -------------------------------------------------------------------------

void pe_rope_rotate_scalar(float *out, const float *x, const float *cos_row, const float *sin_row, int32_t n,
                           int32_t layout, int32_t half) {
    ptrdiff_t step = layout == PE_ROPE_HALF ? 1 : 2;         // distance between pairs
    ptrdiff_t partner = layout == PE_ROPE_HALF ? half : 1;   // b_i − a_i
    for (int32_t i = 0; i < n; i++) {
        ptrdiff_t a = (ptrdiff_t)i * step, b = a + partner;
        float xa = x[a], xb = x[b], c = cos_row[i], s = sin_row[i];
        out[a] = xa * c - xb * s;
        out[b] = xb * c + xa * s;
    }
}

#if PE_HAVE_SIMD
// Four pairs per step, the same float32 operations in the same order as the scalar reference.
// Interleaved rows are split into even (a) and odd (b) lanes and merged back after.
void pe_rope_rotate_simd(float *out, const float *x, const float *cos_row, const float *sin_row, int32_t n,
                         int32_t layout, int32_t half) {
    int32_t i = 0;
    if (layout == PE_ROPE_HALF) {
        for (; i + 4 <= n; i += 4) {
            v128_t a = wasm_v128_load(x + i), b = wasm_v128_load(x + half + i);
            v128_t c = wasm_v128_load(cos_row + i), s = wasm_v128_load(sin_row + i);
            wasm_v128_store(out + i, wasm_f32x4_sub(wasm_f32x4_mul(a, c), wasm_f32x4_mul(b, s)));
            wasm_v128_store(out + half + i, wasm_f32x4_add(wasm_f32x4_mul(b, c), wasm_f32x4_mul(a, s)));
        }
        pe_rope_rotate_scalar(out + i, x + i, cos_row + i, sin_row + i, n - i, layout, half);
    } else {
        for (; i + 4 <= n; i += 4) {
            v128_t v0 = wasm_v128_load(x + 2 * i), v1 = wasm_v128_load(x + 2 * i + 4);
            v128_t a = wasm_i32x4_shuffle(v0, v1, 0, 2, 4, 6), b = wasm_i32x4_shuffle(v0, v1, 1, 3, 5, 7);
            v128_t c = wasm_v128_load(cos_row + i), s = wasm_v128_load(sin_row + i);
            v128_t oa = wasm_f32x4_sub(wasm_f32x4_mul(a, c), wasm_f32x4_mul(b, s));
            v128_t ob = wasm_f32x4_add(wasm_f32x4_mul(b, c), wasm_f32x4_mul(a, s));
            wasm_v128_store(out + 2 * i, wasm_i32x4_shuffle(oa, ob, 0, 4, 1, 5));       // a0 b0 a1 b1
            wasm_v128_store(out + 2 * i + 4, wasm_i32x4_shuffle(oa, ob, 2, 6, 3, 7));   // a2 b2 a3 b3
        }
        pe_rope_rotate_scalar(out + 2 * i, x + 2 * i, cos_row + i, sin_row + i, n - i, layout, half);
    }
}
#endif

// --- values near float32's limit ----------------------------------------------------------------
//
// |out_a| = |x_a·c − x_b·s| ≤ (|x_a| + |x_b|)·max(|c|, |s|), and |c|, |s| ≤ af (float32 af·cos,
// af·sin: at most af·(1 + 2^-24)). So a row whose every |x| is at most
//   limit = FLT_MAX / (2·af·(1 + 2^-20))
// rotates in float32 without overflow, products and sums alike: the fast path. A row with a larger
// |x| (or a non-finite one) goes pair by pair: the float32 result as above where it is finite, else
// (x finite, a product or the sum overflowed) the float64 value x_a·c − x_b·s of the same float32
// operands, rounded once; beyond float32 even so, the kernel stops with PE_ERR_ARG(2) (x).

float pe_rope_x_limit(double attention_factor) {
    double limit = (double)FLT_MAX / (2.0 * attention_factor * (1.0 + 0x1p-20));
    return limit >= (double)FLT_MAX ? FLT_MAX : (float)limit;
}

int pe_rope_within_scalar(const float *x, int32_t n, float limit) {
    int within = 1;
    for (int32_t i = 0; i < n; i++) within &= !(fabsf(x[i]) > limit);   // NaN counts as within
    return within;
}

#if PE_HAVE_SIMD
int pe_rope_within_simd(const float *x, int32_t n, float limit) {
    int32_t i = 0;
    v128_t over = wasm_i32x4_splat(0), lim = wasm_f32x4_splat(limit);
    for (; i + 4 <= n; i += 4) over = wasm_v128_or(over, wasm_f32x4_gt(wasm_f32x4_abs(wasm_v128_load(x + i)), lim));
    return !wasm_v128_any_true(over) && pe_rope_within_scalar(x + i, n - i, limit);
}
#endif

// pe_rope_rotate_scalar's pairs, one at a time, with the float64 fallback described above.
// Returns 0 at the first pair of finite x whose rotation is beyond float32 (out is then partly
// written), else 1.
static int rotate_careful(float *out, const float *x, const float *cos_row, const float *sin_row, int32_t n,
                          int32_t layout, int32_t half) {
    ptrdiff_t step = layout == PE_ROPE_HALF ? 1 : 2;
    ptrdiff_t partner = layout == PE_ROPE_HALF ? half : 1;
    for (int32_t i = 0; i < n; i++) {
        ptrdiff_t a = (ptrdiff_t)i * step, b = a + partner;
        float xa = x[a], xb = x[b], c = cos_row[i], s = sin_row[i];
        float oa = xa * c - xb * s, ob = xb * c + xa * s;   // pe_rope_rotate_scalar's operations
        if (isfinite(xa) && isfinite(xb)) {
            // Each float32 product is exact in float64; the sum is rounded twice (to float64,
            // then float32), within one float32 ulp of the exact rotation. Finite float32
            // values are kept as they are (the same bits as the fast path).
            if (!isfinite(oa)) oa = (float)((double)xa * c - (double)xb * s);
            if (!isfinite(ob)) ob = (float)((double)xb * c + (double)xa * s);
            if (!isfinite(oa) || !isfinite(ob)) return 0;
        }
        out[a] = oa;
        out[b] = ob;
    }
    return 1;
}

#if PE_HAVE_SIMD
#define ROPE_WITHIN pe_rope_within_simd
#else
#define ROPE_WITHIN pe_rope_within_scalar
#endif

// Rotates one row's pair block: the fast rotate_fn when its x is within limit, else carefully.
// x_row and out_row point at the block's first channel; 0 when the rotation overflows float32.
static int rotate_row(float *out_row, const float *x_row, const float *cos_row, const float *sin_row, int32_t nb,
                      int32_t layout, int32_t half, float limit, pe_rope_rotate_fn rotate_fn) {
    int within = layout == PE_ROPE_HALF ? ROPE_WITHIN(x_row, nb, limit) && ROPE_WITHIN(x_row + half, nb, limit)
                                        : ROPE_WITHIN(x_row, 2 * nb, limit);
    if (within) {
        rotate_fn(out_row, x_row, cos_row, sin_row, nb, layout, half);
        return 1;
    }
    return rotate_careful(out_row, x_row, cos_row, sin_row, nb, layout, half);
}

// --- public kernels ------------------------------------------------------------------------------

// Frequencies of pairs [block, block + nb) as fixed-point turns and float64 sin/cos of one step.
static void prepare_block(pe_turns *turns, double *step_sin, double *step_cos, const double *inv_freq, int32_t nb) {
    for (int32_t i = 0; i < nb; i++) {
        turns[i] = pe_turns_from_omega(inv_freq[i]);
        step_sin[i] = sin(inv_freq[i]);
        step_cos[i] = cos(inv_freq[i]);
    }
}

// Exact (sin, cos) of position p for each pair, times scale.
static void anchor_block(double *state_sin, double *state_cos, const pe_turns *turns, int32_t nb, uint32_t p,
                         double scale) {
    for (int32_t i = 0; i < nb; i++) {
        pe_sincos_at(p, turns[i], &state_sin[i], &state_cos[i]);
        state_sin[i] *= scale;
        state_cos[i] *= scale;
    }
}

pe_status pe_rope_variant(float *angles, float *cos_out, float *sin_out, double *inv_freq, double *attention_factor_out,
                          const pe_rope_config *c, pe_rope_angles_fn angles_fn, pe_rotate_table_fn table_fn,
                          const pe_rope_lists *lists) {
    const int32_t first = 5;   // spec argument k is argument first + k
    if (angles == NULL && cos_out == NULL && sin_out == NULL) return PE_ERR_ARG(1);
    if ((cos_out == NULL) != (sin_out == NULL)) return PE_ERR_ARG(cos_out == NULL ? 2 : 3);
    if (inv_freq == NULL) return PE_ERR_ARG(4);
    if (attention_factor_out == NULL) return PE_ERR_ARG(5);
    if (angles_fn == NULL) return PE_ERR_ARG(7);
    if (table_fn == NULL) return PE_ERR_ARG(8);
    pe_status status = pe_rope_check_lists(c, lists);
    if (status != PE_OK) return shift_arg(status, first);
    const int32_t n = pe_rope_rotary_dim(c) / 2, length = c->length;
    if ((int64_t)length * n > PE_MAX_ELEMENTS) return PE_ERR_TOO_LARGE;
    status = pe_rope_inv_freq_lists(inv_freq, attention_factor_out, c, lists);
    if (status != PE_OK) return shift_arg(status, first);

    if (angles != NULL) angles_fn(angles, inv_freq, n, 0, length);   // (length, n)
    if (cos_out == NULL) return PE_OK;

    pe_turns turns[FREQ_BLOCK];
    double state_sin[FREQ_BLOCK], state_cos[FREQ_BLOCK], step_sin[FREQ_BLOCK], step_cos[FREQ_BLOCK];
    for (int32_t block = 0; block < n; block += FREQ_BLOCK) {
        int32_t nb = n - block < FREQ_BLOCK ? n - block : FREQ_BLOCK;
        prepare_block(turns, step_sin, step_cos, inv_freq + block, nb);
        for (int32_t row = 0; row < length; row += ROW_TILE) {
            if (row % ANCHOR_ROWS == 0) anchor_block(state_sin, state_cos, turns, nb, (uint32_t)row, 1.0);
            int32_t rows = length - row < ROW_TILE ? length - row : ROW_TILE;
            size_t at = (size_t)row * (size_t)n + (size_t)block;   // tile (rows, nb) of (length, n)
            table_fn(sin_out + at, cos_out + at, n, 1, rows, state_sin, state_cos, step_sin, step_cos, nb);
        }
    }
    return PE_OK;
}

pe_status pe_rope_apply_variant(float *out, const float *x, double *inv_freq, double *attention_factor_out,
                                int32_t heads, int32_t layout, const pe_rope_config *c, pe_rotate_table_fn table_fn,
                                pe_rope_rotate_fn rotate_fn, const pe_rope_lists *lists) {
    const int32_t first = 6;   // spec argument k is argument first + k
    if (out == NULL) return PE_ERR_ARG(1);
    if (x == NULL) return PE_ERR_ARG(2);
    if (inv_freq == NULL) return PE_ERR_ARG(3);
    if (attention_factor_out == NULL) return PE_ERR_ARG(4);
    if (heads < 1) return PE_ERR_ARG(5);
    if (layout != PE_ROPE_HALF && layout != PE_ROPE_INTERLEAVED) return PE_ERR_ARG(6);
    if (table_fn == NULL) return PE_ERR_ARG(8);
    if (rotate_fn == NULL) return PE_ERR_ARG(9);
    pe_status status = pe_rope_check_lists(c, lists);
    if (status != PE_OK) return shift_arg(status, first);
    const int32_t length = c->length, dim = c->dim, rotary = pe_rope_rotary_dim(c), n = rotary / 2;
    // heads has no bound of its own: past PE_MAX_ELEMENTS the output is too large anyway, and
    // below it heads·length·dim ≤ 2^60 cannot overflow (2^31·2^20·2^14 did; found by tests/fuzz).
    if (heads > PE_MAX_ELEMENTS) return PE_ERR_TOO_LARGE;
    const int64_t count = (int64_t)heads * length * dim;
    if (count > PE_MAX_ELEMENTS) return PE_ERR_TOO_LARGE;
    // In place, or apart: a partial overlap would read rotated values.
    uintptr_t o = (uintptr_t)out, xi = (uintptr_t)x, bytes = (uintptr_t)count * sizeof(float);
    if (out != x && o < xi + bytes && xi < o + bytes) return PE_ERR_ARG(1);
    status = pe_rope_inv_freq_lists(inv_freq, attention_factor_out, c, lists);
    if (status != PE_OK) return shift_arg(status, first);
    const double af = *attention_factor_out;
    const float limit = pe_rope_x_limit(af);
    const int32_t rows_total = heads * length;   // rows of (heads·length, dim)

    if (rotary < dim && out != x)   // channels past rotary_dim pass through
        for (int32_t r = 0; r < rows_total; r++)
            memcpy(out + (size_t)r * dim + rotary, x + (size_t)r * dim + rotary,
                   sizeof(float) * (size_t)(dim - rotary));

    pe_turns turns[FREQ_BLOCK];
    double state_sin[FREQ_BLOCK], state_cos[FREQ_BLOCK], step_sin[FREQ_BLOCK], step_cos[FREQ_BLOCK];
    float tile_cos[APPLY_TILE * FREQ_BLOCK], tile_sin[APPLY_TILE * FREQ_BLOCK];   // (rows, nb)
    for (int32_t block = 0; block < n; block += FREQ_BLOCK) {
        int32_t nb = n - block < FREQ_BLOCK ? n - block : FREQ_BLOCK;
        // The pair block's first channel: a_block (half: block; interleaved: 2·block).
        size_t channel = layout == PE_ROPE_HALF ? (size_t)block : 2 * (size_t)block;
        prepare_block(turns, step_sin, step_cos, inv_freq + block, nb);
        for (int32_t row = 0; row < length; row += APPLY_TILE) {
            // af·cos and af·sin in float64 (the rotation is linear, so the scale rides along).
            if (row % ANCHOR_ROWS == 0) anchor_block(state_sin, state_cos, turns, nb, (uint32_t)row, af);
            int32_t rows = length - row < APPLY_TILE ? length - row : APPLY_TILE;
            table_fn(tile_sin, tile_cos, nb, 1, rows, state_sin, state_cos, step_sin, step_cos, nb);
            for (int32_t h = 0; h < heads; h++)
                for (int32_t r = 0; r < rows; r++) {
                    size_t at = ((size_t)h * (size_t)length + (size_t)(row + r)) * (size_t)dim + channel;
                    if (!rotate_row(out + at, x + at, tile_cos + (size_t)r * nb, tile_sin + (size_t)r * nb, nb, layout,
                                    n, limit, rotate_fn))
                        return PE_ERR_ARG(2);   // finite x rotated beyond float32
                }
        }
    }
    return PE_OK;
}

#if PE_HAVE_SIMD
#define ROPE_ANGLES pe_rope_angles_simd
#define ROPE_TABLE pe_rotate_table_simd
#define ROPE_ROTATE pe_rope_rotate_simd
#else
#define ROPE_ANGLES pe_rope_angles_scalar
#define ROPE_TABLE pe_rotate_table_scalar
#define ROPE_ROTATE pe_rope_rotate_scalar
#endif

pe_status pe_rope(float *angles, float *cos_out, float *sin_out, double *inv_freq, double *attention_factor_out,
                  int32_t length, int32_t dim, double base, double partial_rotary_factor,
                  int32_t max_position_embeddings, int32_t rope_type, double factor,
                  int32_t original_max_position_embeddings, double beta_fast, double beta_slow, int32_t truncate,
                  double mscale, double mscale_all_dim, double attention_factor, double low_freq_factor,
                  double high_freq_factor, const double *short_factor, const double *long_factor) {
    const pe_rope_config c = PE_ROPE_SPEC_CONFIG;
    return pe_rope_variant(angles, cos_out, sin_out, inv_freq, attention_factor_out, &c, ROPE_ANGLES, ROPE_TABLE,
                           &(const pe_rope_lists){short_factor, long_factor});
}

pe_status pe_rope_apply(float *out, const float *x, double *inv_freq, double *attention_factor_out, int32_t heads,
                        int32_t layout, int32_t length, int32_t dim, double base, double partial_rotary_factor,
                        int32_t max_position_embeddings, int32_t rope_type, double factor,
                        int32_t original_max_position_embeddings, double beta_fast, double beta_slow, int32_t truncate,
                        double mscale, double mscale_all_dim, double attention_factor, double low_freq_factor,
                        double high_freq_factor, const double *short_factor, const double *long_factor) {
    const pe_rope_config c = PE_ROPE_SPEC_CONFIG;
    return pe_rope_apply_variant(out, x, inv_freq, attention_factor_out, heads, layout, &c, ROPE_TABLE, ROPE_ROTATE,
                                 &(const pe_rope_lists){short_factor, long_factor});
}

// Rotation with cos/sin tables given by the caller (axial 2-D RoPE, c/vision.c): the same row
// rotation as pe_rope_apply, cos[p·n + i] and sin[p·n + i] for position p and pair i.
pe_status pe_rope_apply_tables(float *out, const float *x, const float *cos_table, const float *sin_table,
                               int32_t heads, int32_t length, int32_t dim, int32_t rotary_dim, int32_t layout) {
    if (out == NULL) return PE_ERR_ARG(1);
    if (x == NULL) return PE_ERR_ARG(2);
    if (cos_table == NULL) return PE_ERR_ARG(3);
    if (sin_table == NULL) return PE_ERR_ARG(4);
    if (heads < 1) return PE_ERR_ARG(5);
    if (length < 1 || length > PE_MAX_LENGTH) return PE_ERR_ARG(6);
    if (dim < 2 || dim > PE_MAX_DIM) return PE_ERR_ARG(7);
    if (rotary_dim < 2 || rotary_dim > dim || rotary_dim % 2 != 0) return PE_ERR_ARG(8);
    if (layout != PE_ROPE_HALF && layout != PE_ROPE_INTERLEAVED) return PE_ERR_ARG(9);
    if (heads > PE_MAX_ELEMENTS) return PE_ERR_TOO_LARGE;   // as in pe_rope_apply_variant: no overflow
    const int64_t count = (int64_t)heads * length * dim;
    if (count > PE_MAX_ELEMENTS) return PE_ERR_TOO_LARGE;
    uintptr_t o = (uintptr_t)out, xi = (uintptr_t)x, bytes = (uintptr_t)count * sizeof(float);
    if (out != x && o < xi + bytes && xi < o + bytes) return PE_ERR_ARG(1);
    const int32_t n = rotary_dim / 2;
    // out is written while the tables are still read (every head reads them again): a table
    // overlapping out would be rotated by its own rewritten values. Refused, as rope.h says
    // (found by tests/fuzz: only out against x was checked).
    const uintptr_t table_bytes = (uintptr_t)length * (uintptr_t)n * sizeof(float);
    const uintptr_t ct = (uintptr_t)cos_table, st = (uintptr_t)sin_table;
    if (o < ct + table_bytes && ct < o + bytes) return PE_ERR_ARG(3);
    if (o < st + table_bytes && st < o + bytes) return PE_ERR_ARG(4);
    const float limit = pe_rope_x_limit(1.0);   // cos and sin tables: |·| ≤ 1
    for (int32_t h = 0; h < heads; h++)
        for (int32_t p = 0; p < length; p++) {
            size_t at = ((size_t)h * (size_t)length + (size_t)p) * (size_t)dim;   // (dim,)
            if (!rotate_row(out + at, x + at, cos_table + (size_t)p * n, sin_table + (size_t)p * n, n, layout, n, limit,
                            ROPE_ROTATE))
                return PE_ERR_ARG(2);   // finite x rotated beyond float32
            if (rotary_dim < dim && out != x)
                memcpy(out + at + rotary_dim, x + at + rotary_dim, sizeof(float) * (size_t)(dim - rotary_dim));
        }
    return PE_OK;
}
