// Bicubic resize of a position table's patch grid (its antialiased variant: further down),
// as torch.nn.functional.interpolate(mode='bicubic', align_corners=False) computes it
// (aten/src/ATen/native/UpSample.h), per axis:
//   scale = n_in / n_out,  x = scale·(dst + 0.5) − 0.5   (not clamped at 0 for cubic),
//   x0 = floor(x),  t = x − x0,
//   w = [K(t + 1), K(t), K(1 − t), K(2 − t)] on the source indices x0 − 1 … x0 + 2, each clamped
//   into [0, n_in − 1] (the border repeats), with Keys' cubic convolution kernel, A = −0.75:
//   K(s) = ((A + 2)s − (A + 3))s² + 1            for |s| ≤ 1
//   K(s) = ((A·s − 5A)s + 8A)s − 4A              for 1 < |s| < 2.
// The 2-D value is the tensor product: out(y, x) = Σ_i Σ_j wy_i · wx_j · in(y_i, x_j), per channel.
// Weights are computed in float64; the sum over the taps (16 here) runs over the channels in
// float32 (4 lanes at a time, scalar tail), each tap's weight rounded once to float32.
#include "vision_resize.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "pe_simd.h"
#include "vision.h"

static double cubic1(double s) { return ((PE_BICUBIC_A + 2.0) * s - (PE_BICUBIC_A + 3.0)) * s * s + 1.0; }
static double cubic2(double s) {
    return ((PE_BICUBIC_A * s - 5.0 * PE_BICUBIC_A) * s + 8.0 * PE_BICUBIC_A) * s - 4.0 * PE_BICUBIC_A;
}

void pe_bicubic_taps(int32_t dst, int32_t n_in, int32_t n_out, int32_t index[4], double weight[4]) {
    const double scale = (double)n_in / (double)n_out;
    const double x = scale * ((double)dst + 0.5) - 0.5;
    const double x0 = floor(x);
    const double t = x - x0;
    weight[0] = cubic2(t + 1.0);
    weight[1] = cubic1(t);
    weight[2] = cubic1(1.0 - t);
    weight[3] = cubic2(2.0 - t);
    for (int k = 0; k < 4; k++) {
        double i = x0 - 1.0 + k;
        index[k] = i < 0.0 ? 0 : i > (double)(n_in - 1) ? n_in - 1 : (int32_t)i;
    }
}

// acc[c] += w · src[c] for c < n. SIMD main loop, scalar tail.
static void axpy(float *acc, const float *src, float w, int32_t n) {
    int32_t c = 0;
#if PE_HAVE_SIMD
    const v128_t wv = wasm_f32x4_splat(w);
    for (; c + PE_LANES <= n; c += PE_LANES)
        wasm_v128_store(acc + c, wasm_f32x4_add(wasm_v128_load(acc + c), wasm_f32x4_mul(wv, wasm_v128_load(src + c))));
#endif
    for (; c < n; c++) acc[c] += w * src[c];
}

// What both resizes do first: check the arguments (statuses documented in vision_resize.h), copy
// the class row through, and point at the two grids.
static pe_status start(float *out, const float *in, int32_t prefix, int32_t in_height, int32_t in_width,
                       int32_t out_height, int32_t out_width, int32_t dim, const float **grid_in, float **grid_out) {
    if (out == NULL) return PE_ERR_ARG(1);
    if (in == NULL) return PE_ERR_ARG(2);
    if (prefix < 0 || prefix > 1) return PE_ERR_ARG(3);
    if (in_height < 1 || in_height > PE_MAX_GRID) return PE_ERR_ARG(4);
    if (in_width < 1 || in_width > PE_MAX_GRID) return PE_ERR_ARG(5);
    if (out_height < 1 || out_height > PE_MAX_GRID) return PE_ERR_ARG(6);
    if (out_width < 1 || out_width > PE_MAX_GRID) return PE_ERR_ARG(7);
    if (dim < 1 || dim > PE_MAX_DIM) return PE_ERR_ARG(8);
    if (((int64_t)in_height * in_width + prefix) * dim > PE_MAX_ELEMENTS ||
        ((int64_t)out_height * out_width + prefix) * dim > PE_MAX_ELEMENTS)
        return PE_ERR_TOO_LARGE;
    const size_t in_count = ((size_t)in_height * (size_t)in_width + (size_t)prefix) * (size_t)dim;
    const size_t out_count = ((size_t)out_height * (size_t)out_width + (size_t)prefix) * (size_t)dim;
    if ((uintptr_t)out < (uintptr_t)(in + in_count) && (uintptr_t)in < (uintptr_t)(out + out_count))
        return PE_ERR_ARG(1);   // out overlaps in: later taps would read rewritten values
    memcpy(out, in, sizeof(float) * (size_t)dim * (size_t)prefix);   // the cls row passes through
    *grid_in = in + (size_t)dim * (size_t)prefix;
    *grid_out = out + (size_t)dim * (size_t)prefix;
    return PE_OK;
}

// --- The antialiased variant: interpolate(..., mode='bicubic', align_corners=False, antialias=True),
// timm's resample_abs_pos_embed default. PyTorch's separable AA path (aten/src/ATen/native/cpu/
// UpSampleKernel.cpp, HelperInterpCubic::aa_filter and HelperInterpBase::
// _compute_indices_min_size_weights_aa, after Pillow's ImagingResample precompute_coeffs), per axis
// for output index i of n_in → n_out:
//   scale = n_in / n_out,  support = 2·max(scale, 1)  (the cubic's interp_size 4, halved, widened
//   by the scale when shrinking),  invscale = 1 / max(scale, 1),
//   center = scale·(i + 0.5),
//   xmin = max(trunc(center − support + 0.5), 0),  xmax = min(trunc(center + support + 0.5), n_in),
//   w_j = K((xmin + j − center + 0.5)·invscale) for j < xmax − xmin, over those source indices only
//   (no border repetition), then each divided by Σ w_j (left as they are if the sum is 0),
// with Keys' kernel at A = −0.5 (aa_filter's fixed coefficient, not upsample's −0.75):
//   K(s) = ((A + 2)|s| − (A + 3))s² + 1      for |s| < 1
//   K(s) = ((A|s| − 5A)|s| + 8A)|s| − 4A      for 1 ≤ |s| < 2,   0 beyond.
// PyTorch applies the axes one after the other; the tensor product below is the same sum.

static double cubic_aa(double s) {
    const double a = PE_BICUBIC_AA_A;
    s = fabs(s);
    if (s < 1.0) return ((a + 2.0) * s - (a + 3.0)) * s * s + 1.0;
    if (s < 2.0) return ((a * s - 5.0 * a) * s + 8.0 * a) * s - 4.0 * a;
    return 0.0;
}

// One output index's taps along one axis: `count` source indices and their weights. Plain: the 4
// clamped taps of pe_bicubic_taps. Antialiased: the source indices first .. first + count − 1
// (count ≤ 2·ceil(support) + 1 ≤ 4·PE_MAX_GRID + 1), whose weights are computed where they are
// used (a few flops against a dim-long axpy) so that the kernel needs no weight tables of that
// length: no scratch, no allocation.
typedef struct {
    int antialias;
    int32_t first, count;
    int32_t index[4];
    double weight[4];
    double center, invscale, norm;   // antialiased: norm = 1 / Σ w_j, or 1 when the sum is 0
} taps;

static void taps_of(int antialias, int32_t dst, int32_t n_in, int32_t n_out, taps *w) {
    w->antialias = antialias;
    if (!antialias) {
        w->count = 4;
        pe_bicubic_taps(dst, n_in, n_out, w->index, w->weight);
        return;
    }
    const double scale = (double)n_in / (double)n_out;
    const double support = scale >= 1.0 ? 2.0 * scale : 2.0;
    w->invscale = scale >= 1.0 ? 1.0 / scale : 1.0;
    w->center = scale * ((double)dst + 0.5);
    int64_t lo = (int64_t)(w->center - support + 0.5), hi = (int64_t)(w->center + support + 0.5);
    if (lo < 0) lo = 0;
    if (hi > n_in) hi = n_in;
    w->first = (int32_t)lo;
    w->count = hi > lo ? (int32_t)(hi - lo) : 0;
    w->norm = 1.0;
    double total = 0.0;
    for (int32_t j = 0; j < w->count; j++) total += cubic_aa(((double)(w->first + j) - w->center + 0.5) * w->invscale);
    if (total != 0.0) w->norm = 1.0 / total;
}

static int32_t tap_index(const taps *w, int32_t j) { return w->antialias ? w->first + j : w->index[j]; }

static double tap_weight(const taps *w, int32_t j) {
    if (!w->antialias) return w->weight[j];
    return cubic_aa(((double)(w->first + j) - w->center + 0.5) * w->invscale) * w->norm;
}

// Both resizes: out(y, x) = Σ_i Σ_j wy_i · wx_j · in(y_i, x_j), per channel, each product of
// weights rounded once to float32 (zero products skipped: the antialiased window's edge taps often
// fall on K's zeros, and a same-size plain resize has 12 of its 16).
static pe_status resize(int antialias, float *out, const float *in, int32_t prefix, int32_t in_height, int32_t in_width,
                        int32_t out_height, int32_t out_width, int32_t dim) {
    const float *grid_in;
    float *grid_out;
    const pe_status status =
        start(out, in, prefix, in_height, in_width, out_height, out_width, dim, &grid_in, &grid_out);
    if (status != PE_OK) return status;
    const size_t row = (size_t)dim;
    for (int32_t y = 0; y < out_height; y++) {
        taps wy;
        taps_of(antialias, y, in_height, out_height, &wy);
        for (int32_t x = 0; x < out_width; x++) {
            taps wx;
            taps_of(antialias, x, in_width, out_width, &wx);
            float *acc = grid_out + ((size_t)y * (size_t)out_width + (size_t)x) * row;   // (dim,)
            memset(acc, 0, sizeof(float) * row);
            for (int32_t i = 0; i < wy.count; i++) {
                const double a = tap_weight(&wy, i);
                const float *src_row = grid_in + (size_t)tap_index(&wy, i) * (size_t)in_width * row;
                for (int32_t j = 0; j < wx.count; j++) {
                    const float w = (float)(a * tap_weight(&wx, j));
                    if (w != 0.0f) axpy(acc, src_row + (size_t)tap_index(&wx, j) * row, w, dim);
                }
            }
        }
    }
    return PE_OK;
}

pe_status pe_resize_bicubic(float *out, const float *in, int32_t prefix, int32_t in_height, int32_t in_width,
                            int32_t out_height, int32_t out_width, int32_t dim) {
    return resize(0, out, in, prefix, in_height, in_width, out_height, out_width, dim);
}

pe_status pe_resize_bicubic_aa(float *out, const float *in, int32_t prefix, int32_t in_height, int32_t in_width,
                               int32_t out_height, int32_t out_width, int32_t dim) {
    return resize(1, out, in, prefix, in_height, in_width, out_height, out_width, dim);
}
