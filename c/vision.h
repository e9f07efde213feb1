// 2-D and 3-D sinusoidal encodings for patch grids and video (kinds `sinusoidal2d`,
// `sinusoidal3d` of docs/reference.md). Tokens are row-major over the grid:
// k = row·width + col (2-D), k = (d·height + row)·width + col (3-D).
#ifndef PE_VISION_H
#define PE_VISION_H

#include <stdint.h>

#include "pe.h"

typedef enum {
    PE_2D_MAE = 0,      // [concat1d(col; dim/2) | concat1d(row; dim/2)], ω_i = base^(-i/(dim/4))
    PE_2D_SUM = 1,      // interleaved1d(row; dim) + interleaved1d(col; dim)
    PE_2D_TATP22 = 2,   // [interleaved1d(row; ch) | interleaved1d(col; ch)][:dim], ch = 2·ceil(dim/4)
} pe_2d_layout;

#define PE_MAX_GRID 4096   // height, width and depth each

// out: (height·width, dim). mae needs dim % 4 == 0.
// Errors: PE_ERR_ARG(1..6) for out, height, width, dim, base, layout; PE_ERR_TOO_LARGE.
PE_API pe_status pe_sinusoidal2d(float *out, int32_t height, int32_t width, int32_t dim, double base, int32_t layout);

// tatp22 PositionalEncoding3D: [interleaved1d(d; ch) | (h; ch) | (w; ch)][:dim], ch = 2·ceil(dim/6).
// out: (depth·height·width, dim). Errors: PE_ERR_ARG(1..6) for out, depth, height, width, dim,
// base; PE_ERR_TOO_LARGE.
PE_API pe_status pe_sinusoidal3d(float *out, int32_t depth, int32_t height, int32_t width, int32_t dim, double base);

// Axial 2-D RoPE on a patch grid (the `rope` kind with grid_height/grid_width; Heo et al. 2024,
// "Rotary Position Embedding for Vision Transformer", RoPE-Axial): of the rotary_dim/2 = F
// frequency pairs, the first F/2 rotate with the row index and the last F/2 with the column
// index, each half using θ_j = base^(-2j/F), j < F/2 (the frequencies of a 1-D RoPE of width F).
//   angles:   (height·width, F) floats, or NULL: angle[k, i] = axis(k, i) · θ_(i mod F/2)
//   cos_out, sin_out: (height·width, F) floats, or both NULL: exact cos and sin of those angles
//   inv_freq: (F) float64: θ for each pair (the two halves repeat)
// Tokens row-major: k = row·width + col. Errors: PE_ERR_ARG(1) when no table is asked for,
// (2)/(3) when only one of cos_out, sin_out is, (4) NULL inv_freq, (5..8) for height, width,
// rotary_dim (a multiple of 4), base; PE_ERR_TOO_LARGE.
PE_API pe_status pe_rope_axial(float *angles, float *cos_out, float *sin_out, double *inv_freq, int32_t height,
                               int32_t width, int32_t rotary_dim, double base);

// Bicubic resizing of a learned table's patch grid: c/vision_resize.h.
#include "vision_resize.h"

#endif   // PE_VISION_H
