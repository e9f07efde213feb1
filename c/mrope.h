// Qwen2-VL's multimodal RoPE (kind `mrope`): 3-axis (time, height, width) position ids for a
// sequence of text, image and video segments, and the rotary angles they give.
#ifndef PE_MROPE_H
#define PE_MROPE_H

#include <stdint.h>

#include "pe.h"

typedef enum {
    PE_SEG_TEXT = 0,    // [0, length, 0, 0]
    PE_SEG_IMAGE = 1,   // [1, t, h, w]: vision grid before merging
    PE_SEG_VIDEO = 2,   // [2, t, h, w]
} pe_segment_type;

#define PE_MROPE_MAX_SEGMENTS 256
#define PE_MROPE_MAX_GRID 4096       // t, h and w each
#define PE_MROPE_MAX_ID 16777216.0   // 2^24: every id is an exact float32

// Position ids as in transformers' Qwen2-VL get_rope_index: a text run shares one id on all three
// axes and counts up from the next free id; a visual block of t × (h/m) × (w/m) tokens gets grid
// ids (t_i, h_i, w_i) offset by the next free id; after a block the next free id is max + 1.
// With tokens_per_second > 0, video time ids follow Qwen2.5-VL: floor(t_i · seconds · tps).
//   ids:      (3, n) floats: rows t, h, w
//   angles:   (n, dim/2) floats, or NULL: angle[k, i] = ids[axis(i), k] · base^(-2i/dim), where
//             axis(i) is 0 for the first section[0] frequencies, 1 for the next section[1], 2 after
//   segments: (count, 4) int32 [type, a, b, c]; seconds: (count,) second_per_grid_t of videos
//             (in (0, FLT_MAX]: the time ids are float32 products)
//   n:        the total number of tokens (checked against the segments)
//   tokens_per_second: ≤ 0 (or −∞) for Qwen2-VL's time ids, else at most FLT_MAX; not NaN
// Errors: PE_ERR_ARG(k) for the k-th argument (segments also when a grid is not divisible by
// merge or an id would pass 2^24); PE_ERR_TOO_LARGE.
PE_API pe_status pe_mrope(float *ids, float *angles, const int32_t *segments, const double *seconds, int32_t count,
                          int32_t n, int32_t dim, double base, const int32_t *section, int32_t merge,
                          double tokens_per_second);

// Where transformers versions disagree on get_rope_index (docs/transformers-versions.md).
typedef enum {
    PE_MROPE_4_49 = 0,   // 4.49–4.51: time id floor(t_i · seconds · tps), fractional seconds kept
    PE_MROPE_4_52 = 1,   // 4.52+ 4.x: seconds truncated to an integer first: floor(t_i · trunc(seconds) · tps)
    PE_MROPE_5_X = 2,    // 5.x rewrite: video time ids as 4.52, image frames step 1; after a visual
                         // block the next free id is start + max(h/m, w/m) (t ignored), not max id + 1
} pe_mrope_convention;

// pe_mrope under a transformers convention, a pe_mrope_convention (pe_mrope itself is
// PE_MROPE_4_49). Errors as pe_mrope, and PE_ERR_ARG(12) for a convention outside the enum.
PE_API pe_status pe_mrope_versioned(float *ids, float *angles, const int32_t *segments, const double *seconds,
                                    int32_t count, int32_t n, int32_t dim, double base, const int32_t *section,
                                    int32_t merge, double tokens_per_second, int32_t convention);

#endif   // PE_MROPE_H
