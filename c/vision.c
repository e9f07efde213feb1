// 2-D and 3-D sinusoidal encodings, built from 1-D sinusoidal tables (c/sinusoidal.c).
//
// Every layout is a concatenation (or, for `sum`, an addition) of per-axis 1-D encodings, so each
// axis' table is computed once, written straight into the tokens at the start of that axis (row 0,
// column 0, ...) inside the output, and then copied across the grid. The output doubles as the
// scratch space: no allocation, and every value is a single exactly-started sin or cos (sum: two
// of them added in float32).
//   mae     (MAE get_2d_sincos_pos_embed)  token(r, c) = [concat1d(c; dim/2) | concat1d(r; dim/2)]
//   sum                                     token(r, c) = interleaved1d(r; dim) + interleaved1d(c; dim)
//   tatp22  (PositionalEncoding2D)          token(r, c) = [interleaved1d(r; ch) | interleaved1d(c; ch)][:dim]
//   3-D     (PositionalEncoding3D)          token(d, r, c) = [i1d(d; ch) | i1d(r; ch) | i1d(c; ch)][:dim]
// where concat1d / interleaved1d(p; n) is the n-wide 1-D table of that layout (ω_i = base^(-2i/n)).
#include "vision.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "pe_simd.h"
#include "sinusoidal.h"

static int base_ok(double base) { return base > 1.0 && isfinite(base); }

static pe_status check_grid(const float *out, int32_t height, int32_t width, int32_t dim, double base, int arg) {
    // `arg` is the position of `height` among the kernel's arguments.
    if (out == NULL) return PE_ERR_ARG(1);
    if (height < 1 || height > PE_MAX_GRID) return PE_ERR_ARG(arg);
    if (width < 1 || width > PE_MAX_GRID) return PE_ERR_ARG(arg + 1);
    if (dim < 1 || dim > PE_MAX_DIM) return PE_ERR_ARG(arg + 2);
    if (!base_ok(base)) return PE_ERR_ARG(arg + 3);
    return PE_OK;
}

// Channels [lo, hi) of token `src` into token `dst` (tokens `dim` floats long).
static void copy_channels(float *out, ptrdiff_t dst, ptrdiff_t src, int32_t dim, int32_t lo, int32_t hi) {
    if (hi > lo && dst != src) memcpy(out + dst * dim + lo, out + src * dim + lo, sizeof(float) * (size_t)(hi - lo));
}

// dst[j] = a[j] + b[j] for j < n. SIMD main loop, scalar tail.
static void add_rows(float *dst, const float *a, const float *b, int32_t n) {
    int32_t j = 0;
#if PE_HAVE_SIMD
    for (; j + PE_LANES <= n; j += PE_LANES)
        wasm_v128_store(dst + j, wasm_f32x4_add(wasm_v128_load(a + j), wasm_v128_load(b + j)));
#endif
    for (; j < n; j++) dst[j] = a[j] + b[j];
}

// Interleaved 1-D encodings of rows and columns, added: I(r) + I(c).
static void sinusoidal2d_sum(float *out, int32_t height, int32_t width, int32_t dim, double base,
                             pe_rotate_table_fn fn) {
    const ptrdiff_t grid_row = (ptrdiff_t)width * dim;
    // I(c) into the tokens of row 0; I(r), r >= 1, into the tokens of column 0.
    pe_sinusoidal_block(out, dim, width, dim, dim, base, PE_SIN_INTERLEAVED, 0, fn);
    if (height > 1)
        pe_sinusoidal_block(out + grid_row, grid_row, height - 1, dim, dim, base, PE_SIN_INTERLEAVED, 1, fn);
    for (int32_t r = 1; r < height; r++)
        for (int32_t c = 1; c < width; c++)
            add_rows(out + r * grid_row + (ptrdiff_t)c * dim, out + r * grid_row, out + (ptrdiff_t)c * dim, dim);
    // Row 0 and column 0 still hold one axis each: add the other axis' position 0,
    // I(0) = [0, 1, 0, 1, ...] (sin 0, cos 0; an odd last column is sin 0 = 0).
    for (int32_t r = 0; r < height; r++)
        for (int32_t c = 0; c < (r == 0 ? width : 1); c++) {
            float *token = out + r * grid_row + (ptrdiff_t)c * dim;   // (dim,)
            for (int32_t j = 1; j < dim; j += 2) token[j] += 1.0f;
        }
}

pe_status pe_sinusoidal2d(float *out, int32_t height, int32_t width, int32_t dim, double base, int32_t layout) {
    pe_status status = check_grid(out, height, width, dim, base, 2);
    if (status != PE_OK) return status;
    if (layout < PE_2D_MAE || layout > PE_2D_TATP22) return PE_ERR_ARG(6);
    if (layout == PE_2D_MAE && dim % 4 != 0) return PE_ERR_ARG(4);
    if ((int64_t)height * width * dim > PE_MAX_ELEMENTS) return PE_ERR_TOO_LARGE;

    pe_rotate_table_fn fn = pe_rotate_table_default();
    const ptrdiff_t grid_row = (ptrdiff_t)width * dim;
    if (layout == PE_2D_SUM) {
        sinusoidal2d_sum(out, height, width, dim, base, fn);
        return PE_OK;
    }
    // Two channel blocks: [row_lo, row_hi) from the row index, [col_lo, col_hi) from the column.
    int32_t row_lo, row_hi, col_lo, col_hi;
    if (layout == PE_2D_MAE) {
        int32_t half = dim / 2;
        col_lo = 0, col_hi = half, row_lo = half, row_hi = dim;
        pe_sinusoidal_block(out + col_lo, dim, width, half, half, base, PE_SIN_CONCAT, 0, fn);
        pe_sinusoidal_block(out + row_lo, grid_row, height, half, half, base, PE_SIN_CONCAT, 0, fn);
    } else {   // tatp22: each axis gets ch = 2·ceil(dim/4) channels, the whole cut to dim
        int32_t ch = 2 * ((dim + 3) / 4);
        row_lo = 0, row_hi = ch < dim ? ch : dim;
        col_lo = row_hi, col_hi = 2 * ch < dim ? 2 * ch : dim;
        pe_sinusoidal_block(out + row_lo, grid_row, height, ch, row_hi - row_lo, base, PE_SIN_INTERLEAVED, 0, fn);
        if (col_hi > col_lo)
            pe_sinusoidal_block(out + col_lo, dim, width, ch, col_hi - col_lo, base, PE_SIN_INTERLEAVED, 0, fn);
    }
    for (int32_t r = 0; r < height; r++)
        for (int32_t c = 0; c < width; c++) {
            ptrdiff_t token = (ptrdiff_t)r * width + c;
            copy_channels(out, token, c, dim, col_lo, col_hi);                      // from (0, c)
            copy_channels(out, token, (ptrdiff_t)r * width, dim, row_lo, row_hi);   // from (r, 0)
        }
    return PE_OK;
}

pe_status pe_sinusoidal3d(float *out, int32_t depth, int32_t height, int32_t width, int32_t dim, double base) {
    if (out == NULL) return PE_ERR_ARG(1);
    if (depth < 1 || depth > PE_MAX_GRID) return PE_ERR_ARG(2);
    pe_status status = check_grid(out, height, width, dim, base, 3);
    if (status != PE_OK) return status;
    if ((int64_t)depth * height * width * dim > PE_MAX_ELEMENTS) return PE_ERR_TOO_LARGE;

    pe_rotate_table_fn fn = pe_rotate_table_default();
    const int32_t ch = 2 * ((dim + 5) / 6);
    // Channel blocks [lo[a], hi[a]) for the axes a = depth, height, width.
    int32_t lo[3], hi[3];
    for (int a = 0; a < 3; a++) {
        lo[a] = a * ch < dim ? a * ch : dim;
        hi[a] = (a + 1) * ch < dim ? (a + 1) * ch : dim;
    }
    const ptrdiff_t stride[3] = {(ptrdiff_t)height * width * dim, (ptrdiff_t)width * dim, dim};
    const int32_t extent[3] = {depth, height, width};
    for (int a = 0; a < 3; a++)   // axis a's table into the tokens along that axis from the origin
        if (hi[a] > lo[a])
            pe_sinusoidal_block(out + lo[a], stride[a], extent[a], ch, hi[a] - lo[a], base, PE_SIN_INTERLEAVED, 0, fn);
    for (int32_t d = 0; d < depth; d++)
        for (int32_t r = 0; r < height; r++)
            for (int32_t c = 0; c < width; c++) {
                ptrdiff_t token = ((ptrdiff_t)d * height + r) * width + c;
                copy_channels(out, token, (ptrdiff_t)d * height * width, dim, lo[0], hi[0]);
                copy_channels(out, token, (ptrdiff_t)r * width, dim, lo[1], hi[1]);
                copy_channels(out, token, c, dim, lo[2], hi[2]);
            }
    return PE_OK;
}

// --- axial 2-D RoPE ------------------------------------------------------------------------------

// Moves n floats from src to dst (non-overlapping halves of one token).
static void move_floats(float *dst, const float *src, int32_t n) { memcpy(dst, src, sizeof(float) * (size_t)n); }
static void fill_floats(float *dst, float value, int32_t n) {
    for (int32_t i = 0; i < n; i++) dst[i] = value;
}

// cos/sin tables of axial RoPE, built inside the outputs: each axis' 1-D table is the concat
// sinusoidal table of width F ([sin θ | cos θ] with θ_j = base^(-2j/F)), written at the tokens
// along that axis (rows into cos_out, columns into sin_out), then spread over the grid.
static void axial_tables(float *cos_out, float *sin_out, int32_t height, int32_t width, int32_t pairs, double base) {
    const int32_t half = pairs / 2;
    const ptrdiff_t grid_row = (ptrdiff_t)width * pairs;
    pe_rotate_table_fn fn = pe_rotate_table_default();
    pe_sinusoidal_block(cos_out, grid_row, height, pairs, pairs, base, PE_SIN_CONCAT, 0,
                        fn);                                                                // (r, 0): [sin_r | cos_r]
    pe_sinusoidal_block(sin_out, pairs, width, pairs, pairs, base, PE_SIN_CONCAT, 0, fn);   // (0, c): [sin_c | cos_c]
    for (int32_t r = 1; r < height; r++) {
        const float *row_axis = cos_out + r * grid_row;   // [sin_r | cos_r]
        for (int32_t c = 1; c < width; c++) {
            const float *col_axis = sin_out + (ptrdiff_t)c * pairs;   // [sin_c | cos_c]
            float *s = sin_out + r * grid_row + (ptrdiff_t)c * pairs,
                  *k = cos_out + r * grid_row + (ptrdiff_t)c * pairs;
            move_floats(s, row_axis, half);
            move_floats(s + half, col_axis, half);
            move_floats(k, row_axis + half, half);
            move_floats(k + half, col_axis + half, half);
        }
        float *s0 = sin_out + r * grid_row, *k0 = cos_out + r * grid_row;   // token (r, 0): column 0
        move_floats(s0, k0, half);                                          // sin_r
        fill_floats(s0 + half, 0.0f, half);                                 // sin(0·θ)
        move_floats(k0, k0 + half, half);                                   // cos_r
        fill_floats(k0 + half, 1.0f, half);                                 // cos(0·θ)
    }
    for (int32_t c = 0; c < width; c++) {   // row 0: [sin 0 | sin_c], [cos 0 | cos_c]
        float *s = sin_out + (ptrdiff_t)c * pairs, *k = cos_out + (ptrdiff_t)c * pairs;
        move_floats(k + half, s + half, half);
        fill_floats(k, 1.0f, half);
        move_floats(s + half, s, half);
        fill_floats(s, 0.0f, half);
    }
}

pe_status pe_rope_axial(float *angles, float *cos_out, float *sin_out, double *inv_freq, int32_t height, int32_t width,
                        int32_t rotary_dim, double base) {
    if (angles == NULL && cos_out == NULL && sin_out == NULL) return PE_ERR_ARG(1);
    if ((cos_out == NULL) != (sin_out == NULL)) return cos_out == NULL ? PE_ERR_ARG(2) : PE_ERR_ARG(3);
    if (inv_freq == NULL) return PE_ERR_ARG(4);
    if (height < 1 || height > PE_MAX_GRID) return PE_ERR_ARG(5);
    if (width < 1 || width > PE_MAX_GRID) return PE_ERR_ARG(6);
    if (rotary_dim < 4 || rotary_dim > PE_MAX_DIM || rotary_dim % 4 != 0) return PE_ERR_ARG(7);
    if (!base_ok(base)) return PE_ERR_ARG(8);
    const int32_t pairs = rotary_dim / 2, half = pairs / 2;
    const int64_t tokens = (int64_t)height * width;
    if (tokens > PE_MAX_LENGTH || tokens * pairs > PE_MAX_ELEMENTS) return PE_ERR_TOO_LARGE;

    for (int32_t j = 0; j < half; j++) inv_freq[j] = inv_freq[half + j] = pow(base, -2.0 * (double)j / (double)pairs);
    if (angles != NULL)
        for (int32_t r = 0; r < height; r++)
            for (int32_t c = 0; c < width; c++) {
                float *row = angles + ((ptrdiff_t)r * width + c) * pairs;   // (pairs,)
                for (int32_t j = 0; j < half; j++) {
                    row[j] = (float)((double)r * inv_freq[j]);
                    row[half + j] = (float)((double)c * inv_freq[j]);
                }
            }
    if (cos_out != NULL) axial_tables(cos_out, sin_out, height, width, pairs, base);
    return PE_OK;
}
