// Bicubic resizing of a learned position table over its patch grid (the `learned2d` kind's
// resize_height/resize_width in docs/reference.md): what timm's resample_abs_pos_embed and Hugging
// Face's ViTEmbeddings.interpolate_pos_encoding do when the image size changes.
#ifndef PE_VISION_RESIZE_H
#define PE_VISION_RESIZE_H

#include <stdint.h>

#include "pe.h"

// PyTorch's cubic convolution coefficient (upsample_bicubic2d; Keys 1981 with A = −0.75).
#define PE_BICUBIC_A (-0.75)

// in:  (prefix + in_height·in_width, dim) floats: `prefix` leading tokens (ViT's cls row: 0 or 1)
//      then the grid, row-major (token prefix + r·in_width + c).
// out: (prefix + out_height·out_width, dim) floats: the prefix rows copied unchanged, then the
//      grid resized as torch.nn.functional.interpolate(grid[1, dim, H, W], size=(out_height,
//      out_width), mode='bicubic', align_corners=False) would (no antialiasing).
// out and in must not overlap. Errors: PE_ERR_ARG(1..8) for out, in, prefix (0 or 1), in_height,
// in_width, out_height, out_width (each 1..PE_MAX_GRID), dim (1..PE_MAX_DIM); PE_ERR_TOO_LARGE
// when either table would exceed PE_MAX_ELEMENTS.
PE_API pe_status pe_resize_bicubic(float *out, const float *in, int32_t prefix, int32_t in_height, int32_t in_width,
                                   int32_t out_height, int32_t out_width, int32_t dim);

// PyTorch's antialiased bicubic (interpolate(..., antialias=True), HelperInterpCubic::aa_filter):
// Keys' kernel with A = −0.5, as Pillow's bicubic filter.
#define PE_BICUBIC_AA_A (-0.5)

// The same as pe_resize_bicubic, the grid resized as torch.nn.functional.interpolate(..., mode=
// 'bicubic', align_corners=False, antialias=True) would (timm's resample_abs_pos_embed default):
// Keys' cubic at A = −0.5, its support widened by in/out when shrinking, each output's weights over
// the source indices inside the grid only, normalised to sum 1 (formula in vision_resize.c). Uses
// no scratch memory. Same arguments, same errors.
PE_API pe_status pe_resize_bicubic_aa(float *out, const float *in, int32_t prefix, int32_t in_height, int32_t in_width,
                                      int32_t out_height, int32_t out_width, int32_t dim);

// The four source indices (clamped into [0, n_in − 1]) and weights of output index `dst` along one
// axis of n_in → n_out (exposed for the native tests).
void pe_bicubic_taps(int32_t dst, int32_t n_in, int32_t n_out, int32_t index[4], double weight[4]);

#endif   // PE_VISION_RESIZE_H
