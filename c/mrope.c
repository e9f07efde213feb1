// Qwen2-VL M-RoPE position ids and angles (see mrope.h for the rules, transformers'
// Qwen2VLForConditionalGeneration.get_rope_index for the reference behaviour).
#include "mrope.h"

#include <float.h>
#include <math.h>
#include <stddef.h>

// Tokens of a segment after merging (text: its length).
static int64_t segment_tokens(const int32_t *seg, int32_t merge) {
    if (seg[0] == PE_SEG_TEXT) return seg[1];
    return (int64_t)seg[1] * (seg[2] / merge) * (seg[3] / merge);
}

static int segment_ok(const int32_t *seg, double seconds, int32_t merge) {
    if (seg[0] == PE_SEG_TEXT) return seg[1] >= 1 && seg[1] <= PE_MAX_LENGTH;
    if (seg[0] != PE_SEG_IMAGE && seg[0] != PE_SEG_VIDEO) return 0;
    for (int a = 1; a <= 3; a++)
        if (seg[a] < 1 || seg[a] > PE_MROPE_MAX_GRID) return 0;
    if (seg[2] % merge != 0 || seg[3] % merge != 0) return 0;
    // At most FLT_MAX: time ids are float32 products (time_id), and a factor that is infinite in
    // float32 made frame 0's id 0 · ∞ = NaN (found by tests/fuzz).
    if (seg[0] == PE_SEG_VIDEO && !(seconds > 0.0 && seconds <= FLT_MAX)) return 0;
    return 1;
}

// Time id of frame index `frame` of a segment. Qwen2.5-VL multiplies in float32 tensors
// (frame · second_per_grid_t · tokens_per_second, then .long()), so this does too: the ids then
// match the reference even where the product lands next to an integer. From 4.52 (and in 5.x)
// second_per_grid_t is first cast to the int64 dtype of the frame range, i.e. truncated: 0.5 s
// per frame gives 0, and every frame time id 0.
static double time_id(const int32_t *seg, double seconds, int32_t frame, double tokens_per_second, int32_t convention) {
    if (tokens_per_second <= 0.0) return frame;   // Qwen2-VL
    // Qwen2.5-VL images: 4.x give them second_per_grid_t = 0 (time id 0); 5.x a time step of 1.
    if (seg[0] != PE_SEG_VIDEO) return convention == PE_MROPE_5_X ? frame : 0.0;
    float step = convention == PE_MROPE_4_49 ? (float)seconds : (float)trunc(seconds);
    float product = (float)frame * step;
    product = product * (float)tokens_per_second;
    return floor((double)product);   // truncated, ids >= 0
}

// How far a visual block of grid_h × grid_w tokens per frame, whose largest time offset is `top`,
// moves the next free id: 4.x continue after the block's largest id (max + 1); 5.x moves by
// max(grid_h, grid_w), whatever the time ids.
static double block_span(double top, int32_t grid_h, int32_t grid_w, int32_t convention) {
    if (convention == PE_MROPE_5_X) return fmax(grid_h, grid_w);
    return fmax(top, fmax(grid_h - 1, grid_w - 1)) + 1.0;
}

pe_status pe_mrope(float *ids, float *angles, const int32_t *segments, const double *seconds, int32_t count, int32_t n,
                   int32_t dim, double base, const int32_t *section, int32_t merge, double tokens_per_second) {
    return pe_mrope_versioned(ids, angles, segments, seconds, count, n, dim, base, section, merge, tokens_per_second,
                              PE_MROPE_4_49);
}

pe_status pe_mrope_versioned(float *ids, float *angles, const int32_t *segments, const double *seconds, int32_t count,
                             int32_t n, int32_t dim, double base, const int32_t *section, int32_t merge,
                             double tokens_per_second, int32_t convention) {
    if (ids == NULL) return PE_ERR_ARG(1);
    if (segments == NULL) return PE_ERR_ARG(3);
    if (seconds == NULL) return PE_ERR_ARG(4);
    if (count < 1 || count > PE_MROPE_MAX_SEGMENTS) return PE_ERR_ARG(5);
    if (n < 1 || n > PE_MAX_LENGTH) return PE_ERR_ARG(6);
    if (dim < 2 || dim > PE_MAX_DIM || dim % 2 != 0) return PE_ERR_ARG(7);
    if (!(base > 1.0) || !isfinite(base)) return PE_ERR_ARG(8);
    if (section == NULL) return PE_ERR_ARG(9);
    if (section[0] < 0 || section[1] < 0 || section[2] < 0 || (int64_t)section[0] + section[1] + section[2] != dim / 2)
        return PE_ERR_ARG(9);
    if (merge < 1 || merge > 64) return PE_ERR_ARG(10);
    // NaN, or above FLT_MAX (infinite in the float32 product; see segment_ok). ≤ 0, −∞ included,
    // means Qwen2-VL's time ids.
    if (isnan(tokens_per_second) || tokens_per_second > FLT_MAX) return PE_ERR_ARG(11);
    if (convention < PE_MROPE_4_49 || convention > PE_MROPE_5_X) return PE_ERR_ARG(12);

    // Check every segment, the token count and the largest id before writing anything.
    int64_t total = 0;
    double next_id = 0.0;
    for (int32_t s = 0; s < count; s++) {
        const int32_t *seg = segments + 4 * s;
        if (!segment_ok(seg, seconds[s], merge)) return PE_ERR_ARG(3);
        total += segment_tokens(seg, merge);
        if (total > PE_MAX_LENGTH) return PE_ERR_TOO_LARGE;
        if (seg[0] == PE_SEG_TEXT) {
            next_id += seg[1];
        } else {
            // The largest id of the block (the last frame's time id, or a side) must fit too.
            double top = time_id(seg, seconds[s], seg[1] - 1, tokens_per_second, convention);
            double largest = next_id + fmax(top, fmax(seg[2] / merge - 1, seg[3] / merge - 1));
            if (largest > PE_MROPE_MAX_ID) return PE_ERR_ARG(3);
            next_id += block_span(top, seg[2] / merge, seg[3] / merge, convention);
        }
        if (next_id > PE_MROPE_MAX_ID) return PE_ERR_ARG(3);
    }
    if (total != n) return PE_ERR_ARG(6);
    if (angles != NULL && (int64_t)n * (dim / 2) > PE_MAX_ELEMENTS) return PE_ERR_TOO_LARGE;

    float *id_t = ids, *id_h = ids + n, *id_w = ids + 2 * (ptrdiff_t)n;   // (3, n)
    int64_t k = 0;
    double start = 0.0;   // the next free id
    for (int32_t s = 0; s < count; s++) {
        const int32_t *seg = segments + 4 * s;
        if (seg[0] == PE_SEG_TEXT) {
            for (int32_t j = 0; j < seg[1]; j++, k++) id_t[k] = id_h[k] = id_w[k] = (float)(start + j);
            start += seg[1];
            continue;
        }
        int32_t grid_h = seg[2] / merge, grid_w = seg[3] / merge;
        double top = 0.0;
        for (int32_t f = 0; f < seg[1]; f++) {
            double t = time_id(seg, seconds[s], f, tokens_per_second, convention);
            top = fmax(top, t);
            for (int32_t r = 0; r < grid_h; r++)
                for (int32_t c = 0; c < grid_w; c++, k++) {
                    id_t[k] = (float)(start + t);
                    id_h[k] = (float)(start + r);
                    id_w[k] = (float)(start + c);
                }
        }
        start += block_span(top, grid_h, grid_w, convention);
    }

    if (angles != NULL) {
        const int32_t half = dim / 2;
        for (int32_t i = 0; i < half; i++) {
            double inv_freq = pow(base, -2.0 * (double)i / (double)dim);
            const float *axis = i < section[0] ? id_t : i < section[0] + section[1] ? id_h : id_w;
            for (int32_t j = 0; j < n; j++)   // (n, dim/2)
                angles[(ptrdiff_t)j * half + i] = (float)((double)axis[j] * inv_freq);
        }
    }
    return PE_OK;
}
