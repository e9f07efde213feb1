// What the explorer draws of a rope spec in place of its float32 angle table (kind `rope`):
// cos, sin or the angle wrapped into [0, 2π), each from the float64 angle p·inv_freq_i that the
// kernel forms, never from the float32 angle it returns (at p = 2^20 that angle is off by up to
// 0.03 rad, and so is a cos taken of it).
#ifndef PE_ROPE_VIEW_H
#define PE_ROPE_VIEW_H

#include <stdint.h>

#include "pe.h"

// The transforms (web/api/kernels/rope.js VIEW names them).
typedef enum {
    PE_ROPE_VIEW_COS = 0,       // cos(p·inv_freq_i): pe_rope's cos_out, bit for bit
    PE_ROPE_VIEW_SIN = 1,       // sin(p·inv_freq_i): pe_rope's sin_out, bit for bit
    PE_ROPE_VIEW_WRAPPED = 2,   // float32((p·inv_freq_i) mod 2π), from the exact fixed-point phase
} pe_rope_view_transform;

// out: (length, rotary_dim/2) floats, the transform of every angle of the spec (the spec
// arguments, inv_freq and attention_factor_out as for pe_rope). Wrapped angles are in [0, 2π]:
// the phase p·T mod 2^64 of sincos.h times 2π/2^64, rounded once to float32 (which may round a
// phase just below a whole turn up to 2π itself).
// Errors: PE_ERR_ARG(1) NULL out, (2) an unknown transform, (3..4) NULL inv_freq or
// attention_factor_out, PE_ERR_ARG(4 + k) for the k-th spec argument (1 = length);
// PE_ERR_TOO_LARGE when length·rotary_dim/2 > PE_MAX_ELEMENTS.
PE_API pe_status pe_rope_view(float *out, int32_t transform, double *inv_freq, double *attention_factor_out,
                              int32_t length, int32_t dim, double base, double partial_rotary_factor,
                              int32_t max_position_embeddings, int32_t rope_type, double factor,
                              int32_t original_max_position_embeddings, double beta_fast, double beta_slow,
                              int32_t truncate, double mscale, double mscale_all_dim, double attention_factor,
                              double low_freq_factor, double high_freq_factor, const double *short_factor,
                              const double *long_factor);

// Axial 2-D RoPE (pe_rope_axial, c/vision.h): out (height·width, rotary_dim/2) floats, the angles
// of pe_rope_axial's table wrapped into [0, 2π] as above. Errors: PE_ERR_ARG(1) NULL out,
// (2..5) height, width, rotary_dim (a multiple of 4), base, as pe_rope_axial checks them;
// PE_ERR_TOO_LARGE.
PE_API pe_status pe_rope_axial_wrapped(float *out, int32_t height, int32_t width, int32_t rotary_dim, double base);

#endif   // PE_ROPE_VIEW_H
