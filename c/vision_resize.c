// Bicubic resize of a position table's patch grid, as torch.nn.functional.interpolate(mode=
// 'bicubic', align_corners=False) computes it (aten/src/ATen/native/UpSample.h), per axis:
//   scale = n_in / n_out,  x = scale·(dst + 0.5) − 0.5   (not clamped at 0 for cubic),
//   x0 = floor(x),  t = x − x0,
//   w = [K(t + 1), K(t), K(1 − t), K(2 − t)] on the source indices x0 − 1 … x0 + 2, each clamped
//   into [0, n_in − 1] (the border repeats), with Keys' cubic convolution kernel, A = −0.75:
//   K(s) = ((A + 2)s − (A + 3))s² + 1            for |s| ≤ 1
//   K(s) = ((A·s − 5A)s + 8A)s − 4A              for 1 < |s| < 2.
// The 2-D value is the tensor product: out(y, x) = Σ_i Σ_j wy_i · wx_j · in(y_i, x_j), per channel.
// Weights are computed in float64; the sum over the 16 taps runs over the channels in float32
// (4 lanes at a time, scalar tail), each tap's weight rounded once to float32.
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

pe_status pe_resize_bicubic(float *out, const float *in, int32_t prefix, int32_t in_height, int32_t in_width,
                            int32_t out_height, int32_t out_width, int32_t dim) {
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

    const size_t row = (size_t)dim;
    memcpy(out, in, sizeof(float) * row * (size_t)prefix);   // the cls row passes through
    const float *grid_in = in + row * (size_t)prefix;
    float *grid_out = out + row * (size_t)prefix;
    for (int32_t y = 0; y < out_height; y++) {
        int32_t yi[4];
        double wy[4];
        pe_bicubic_taps(y, in_height, out_height, yi, wy);
        for (int32_t x = 0; x < out_width; x++) {
            int32_t xi[4];
            double wx[4];
            pe_bicubic_taps(x, in_width, out_width, xi, wx);
            float *acc = grid_out + ((size_t)y * (size_t)out_width + (size_t)x) * row;   // (dim,)
            memset(acc, 0, sizeof(float) * row);
            for (int i = 0; i < 4; i++)
                for (int j = 0; j < 4; j++) {
                    const float *src = grid_in + ((size_t)yi[i] * (size_t)in_width + (size_t)xi[j]) * row;
                    axpy(acc, src, (float)(wy[i] * wx[j]), dim);
                }
        }
    }
    return PE_OK;
}
