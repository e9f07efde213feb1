// The rope tables a view draws (rope_view.h): cos, sin or wrapped angles, one table per call, in
// the kernel's float64 angles. cos and sin follow pe_rope's own path (c/rope.c): an exact start
// from the fixed-point phase every ANCHOR_ROWS rows, then the float64 rotation down the rows
// (sincos.h), so they are its tables bit for bit; a tile of both is rotated on the stack and the
// one asked for is kept (no allocation, no second table). Wrapped angles take the phase itself.
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "pe.h"
#include "rope.h"
#include "rope_view.h"
#include "sincos.h"
#include "sinusoidal.h"
#include "vision.h"

// As c/rope.c: frequency blocks on the stack, exact re-anchoring every ANCHOR_ROWS rows (the
// same rows, so the same values), ROW_TILE rows per call of the rotation (a divisor of ANCHOR_ROWS).
#define FREQ_BLOCK 256
#define ANCHOR_ROWS 65536
#define ROW_TILE 8

static const double TWO_PI = 6.283185307179586;

static pe_status shift_arg(pe_status status, int32_t first) {
    if (status > 100 && status < 200) return PE_ERR_ARG(first + PE_ERR_ARG_INDEX(status));
    return status;
}

// The phase p·T (turns · 2^64, whole turns dropped) as radians in [0, 2π], rounded once.
static float wrapped_at(uint32_t p, pe_turns t) {
    uint64_t turns = ((uint64_t)t.hi << 32) | t.lo;
    uint64_t phase = (uint64_t)p * turns;
    return (float)((double)phase * 0x1p-64 * TWO_PI);
}

// Rows [0, length) of pairs [block, block + nb) of a (length, n) table: cos or sin (pe_rope's
// rotation) or wrapped angles.
static void view_block(float *out, int32_t transform, const double *inv_freq, int32_t n, int32_t block, int32_t nb,
                       int32_t length, pe_rotate_table_fn table_fn) {
    pe_turns turns[FREQ_BLOCK];
    for (int32_t i = 0; i < nb; i++) turns[i] = pe_turns_from_omega(inv_freq[block + i]);
    if (transform == PE_ROPE_VIEW_WRAPPED) {
        for (int32_t p = 0; p < length; p++) {
            float *row = out + (size_t)p * (size_t)n + (size_t)block;
            for (int32_t i = 0; i < nb; i++) row[i] = wrapped_at((uint32_t)p, turns[i]);
        }
        return;
    }
    double state_sin[FREQ_BLOCK], state_cos[FREQ_BLOCK], step_sin[FREQ_BLOCK], step_cos[FREQ_BLOCK];
    float tile_sin[ROW_TILE * FREQ_BLOCK], tile_cos[ROW_TILE * FREQ_BLOCK];   // (rows, nb)
    for (int32_t i = 0; i < nb; i++) {
        step_sin[i] = sin(inv_freq[block + i]);
        step_cos[i] = cos(inv_freq[block + i]);
    }
    const float *tile = transform == PE_ROPE_VIEW_COS ? tile_cos : tile_sin;
    for (int32_t row = 0; row < length; row += ROW_TILE) {
        if (row % ANCHOR_ROWS == 0)
            for (int32_t i = 0; i < nb; i++) pe_sincos_at((uint32_t)row, turns[i], &state_sin[i], &state_cos[i]);
        int32_t rows = length - row < ROW_TILE ? length - row : ROW_TILE;
        table_fn(tile_sin, tile_cos, nb, 1, rows, state_sin, state_cos, step_sin, step_cos, nb);
        for (int32_t r = 0; r < rows; r++)
            memcpy(out + (size_t)(row + r) * (size_t)n + (size_t)block, tile + (size_t)r * (size_t)nb,
                   sizeof(float) * (size_t)nb);
    }
}

pe_status pe_rope_view(float *out, int32_t transform, double *inv_freq, double *attention_factor_out, int32_t length,
                       int32_t dim, double base, double partial_rotary_factor, int32_t max_position_embeddings,
                       int32_t rope_type, double factor, int32_t original_max_position_embeddings, double beta_fast,
                       double beta_slow, int32_t truncate, double mscale, double mscale_all_dim,
                       double attention_factor, double low_freq_factor, double high_freq_factor,
                       const double *short_factor, const double *long_factor) {
    const int32_t first = 4;   // spec argument k is argument first + k
    if (out == NULL) return PE_ERR_ARG(1);
    if (transform < PE_ROPE_VIEW_COS || transform > PE_ROPE_VIEW_WRAPPED) return PE_ERR_ARG(2);
    if (inv_freq == NULL) return PE_ERR_ARG(3);
    if (attention_factor_out == NULL) return PE_ERR_ARG(4);
    const pe_rope_config c = PE_ROPE_SPEC_CONFIG;
    pe_rope_lists lists = {short_factor, long_factor};
    pe_status status = pe_rope_check_lists(&c, &lists);
    if (status != PE_OK) return shift_arg(status, first);
    const int32_t n = pe_rope_rotary_dim(&c) / 2;
    if ((int64_t)length * n > PE_MAX_ELEMENTS) return PE_ERR_TOO_LARGE;
    status = pe_rope_inv_freq_lists(inv_freq, attention_factor_out, &c, &lists);
    if (status != PE_OK) return shift_arg(status, first);
    const pe_rotate_table_fn table_fn = pe_rotate_table_default();
    for (int32_t block = 0; block < n; block += FREQ_BLOCK) {
        int32_t nb = n - block < FREQ_BLOCK ? n - block : FREQ_BLOCK;
        view_block(out, transform, inv_freq, n, block, nb, length, table_fn);
    }
    return PE_OK;
}

pe_status pe_rope_axial_wrapped(float *out, int32_t height, int32_t width, int32_t rotary_dim, double base) {
    if (out == NULL) return PE_ERR_ARG(1);
    if (height < 1 || height > PE_MAX_GRID) return PE_ERR_ARG(2);
    if (width < 1 || width > PE_MAX_GRID) return PE_ERR_ARG(3);
    if (rotary_dim < 4 || rotary_dim > PE_MAX_DIM || rotary_dim % 4 != 0) return PE_ERR_ARG(4);
    if (!(base > 1.0 && isfinite(base))) return PE_ERR_ARG(5);
    const int32_t pairs = rotary_dim / 2, half = pairs / 2;
    const int64_t tokens = (int64_t)height * width;
    if (tokens > PE_MAX_LENGTH || tokens * pairs > PE_MAX_ELEMENTS) return PE_ERR_TOO_LARGE;
    // θ_j as pe_rope_axial forms it (c/vision.c): the first half turns with the row, the second
    // with the column. One frequency at a time (no table of them on the stack).
    for (int32_t j = 0; j < half; j++) {
        const pe_turns t = pe_turns_from_omega(pow(base, -2.0 * (double)j / (double)pairs));
        for (int32_t r = 0; r < height; r++)
            for (int32_t col = 0; col < width; col++) {
                float *row = out + ((ptrdiff_t)r * width + col) * pairs;
                row[j] = wrapped_at((uint32_t)r, t);
                row[half + j] = wrapped_at((uint32_t)col, t);
            }
    }
    return PE_OK;
}
