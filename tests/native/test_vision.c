// Native tests of the 2-D/3-D sinusoidal kernels: composition from 1-D tables, bad arguments.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pe.h"
#include "test_util.h"

// Token (r, c) of mae must be [concat1d(c; dim/2) | concat1d(r; dim/2)], bit for bit equal to
// the 1-D kernel's rows (both come from the same exact-start rotation).
static void test_mae_is_two_concat_tables(void) {
    enum { H = 5, W = 7, D = 12 };
    static float grid[H * W * D], rows[H * D / 2], cols[W * D / 2];
    CHECK(pe_sinusoidal2d(grid, H, W, D, 10000.0, PE_2D_MAE) == PE_OK, "ok");
    CHECK(pe_sinusoidal(rows, H, D / 2, 10000.0, PE_SIN_CONCAT, 0) == PE_OK, "ok");
    CHECK(pe_sinusoidal(cols, W, D / 2, 10000.0, PE_SIN_CONCAT, 0) == PE_OK, "ok");
    for (int r = 0; r < H; r++)
        for (int c = 0; c < W; c++) {
            const float *token = grid + (r * W + c) * D;
            CHECK(memcmp(token, cols + c * D / 2, sizeof(float) * D / 2) == 0, "mae (%d,%d) column half", r, c);
            CHECK(memcmp(token + D / 2, rows + r * D / 2, sizeof(float) * D / 2) == 0, "mae (%d,%d) row half", r, c);
        }
}

// sum: token (r, c) = I(r) + I(c) in float32, every odd dim and grid shape edge.
static void test_sum_matches_1d(void) {
    for (int dim = 1; dim <= 9; dim++)
        for (int h = 1; h <= 3; h++)
            for (int w = 1; w <= 3; w++) {
                float grid[9 * 9], rows[3 * 9], cols[3 * 9];
                CHECK(pe_sinusoidal2d(grid, h, w, dim, 10000.0, PE_2D_SUM) == PE_OK, "ok");
                pe_sinusoidal(rows, h, dim, 10000.0, PE_SIN_INTERLEAVED, 0);
                pe_sinusoidal(cols, w, dim, 10000.0, PE_SIN_INTERLEAVED, 0);
                for (int r = 0; r < h; r++)
                    for (int c = 0; c < w; c++)
                        for (int j = 0; j < dim; j++)
                            CHECK(grid[(r * w + c) * dim + j] == rows[r * dim + j] + cols[c * dim + j],
                                  "sum dim %d grid %dx%d token (%d,%d) ch %d", dim, h, w, r, c, j);
            }
}

static void test_3d_blocks(void) {
    enum { T = 3, H = 2, W = 4, D = 13 };   // ch = 6: blocks [0,6) [6,12) [12,13)
    static float grid[T * H * W * D], axis[W * 6];
    CHECK(pe_sinusoidal3d(grid, T, H, W, D, 10000.0) == PE_OK, "ok");
    pe_sinusoidal(axis, W, 6, 10000.0, PE_SIN_INTERLEAVED, 0);
    for (int t = 0; t < T; t++)
        for (int r = 0; r < H; r++)
            for (int c = 0; c < W; c++)
                CHECK(grid[((t * H + r) * W + c) * D + 12] == axis[c * 6], "width block, cut to one column");
}

static void test_bad_arguments(void) {
    float buf[64];
    CHECK(pe_sinusoidal2d(NULL, 2, 2, 4, 10000, 0) == PE_ERR_ARG(1), "NULL");
    CHECK(pe_sinusoidal2d(buf, 0, 2, 4, 10000, 0) == PE_ERR_ARG(2), "height 0");
    CHECK(pe_sinusoidal2d(buf, 2, PE_MAX_GRID + 1, 4, 10000, 0) == PE_ERR_ARG(3), "width too big");
    CHECK(pe_sinusoidal2d(buf, 2, 2, 0, 10000, 0) == PE_ERR_ARG(4), "dim 0");
    CHECK(pe_sinusoidal2d(buf, 2, 2, 6, 10000, PE_2D_MAE) == PE_ERR_ARG(4), "mae dim %% 4");
    CHECK(pe_sinusoidal2d(buf, 2, 2, 4, NAN, 0) == PE_ERR_ARG(5), "base NaN");
    CHECK(pe_sinusoidal2d(buf, 2, 2, 4, 10000, 3) == PE_ERR_ARG(6), "layout 3");
    CHECK(pe_sinusoidal2d(buf, PE_MAX_GRID, PE_MAX_GRID, 8, 10000, 0) == PE_ERR_TOO_LARGE, "too large");
    CHECK(pe_sinusoidal3d(NULL, 1, 1, 1, 4, 10000) == PE_ERR_ARG(1), "3d NULL");
    CHECK(pe_sinusoidal3d(buf, -1, 1, 1, 4, 10000) == PE_ERR_ARG(2), "3d depth");
    CHECK(pe_sinusoidal3d(buf, 1, 0, 1, 4, 10000) == PE_ERR_ARG(3), "3d height");
    CHECK(pe_sinusoidal3d(buf, 1, 1, 0, 4, 10000) == PE_ERR_ARG(4), "3d width");
    CHECK(pe_sinusoidal3d(buf, 1, 1, 1, PE_MAX_DIM + 1, 10000) == PE_ERR_ARG(5), "3d dim");
    CHECK(pe_sinusoidal3d(buf, 1, 1, 1, 4, 0.5) == PE_ERR_ARG(6), "3d base");
    CHECK(pe_sinusoidal3d(buf, PE_MAX_GRID, PE_MAX_GRID, 8, 8, 10000) == PE_ERR_TOO_LARGE, "3d too large");
}

// Axial RoPE: cos/sin tables equal the cos/sin of the angle table's float64 values, and the
// table-driven rotation checks its arguments.
static void test_rope_axial(void) {
    enum { H = 3, W = 5, ROT = 8, PAIRS = 4 };
    static float angles[H * W * PAIRS], cos_t[H * W * PAIRS], sin_t[H * W * PAIRS];
    double inv[PAIRS];
    CHECK(pe_rope_axial(angles, cos_t, sin_t, inv, H, W, ROT, 100.0) == PE_OK, "ok");
    for (int r = 0; r < H; r++)
        for (int c = 0; c < W; c++)
            for (int i = 0; i < PAIRS; i++) {
                double angle = (i < PAIRS / 2 ? r : c) * inv[i];
                int k = (r * W + c) * PAIRS + i;
                CHECK(fabs(cos_t[k] - cos(angle)) < 6e-8 && fabs(sin_t[k] - sin(angle)) < 6e-8,
                      "axial cos/sin at (%d,%d) pair %d", r, c, i);
                CHECK(angles[k] == (float)angle, "axial angle at (%d,%d) pair %d", r, c, i);
            }
    double inv_bad[PAIRS];
    CHECK(pe_rope_axial(NULL, NULL, NULL, inv_bad, H, W, ROT, 100) == PE_ERR_ARG(1), "no table");
    CHECK(pe_rope_axial(NULL, cos_t, NULL, inv_bad, H, W, ROT, 100) == PE_ERR_ARG(3), "cos without sin");
    CHECK(pe_rope_axial(angles, NULL, NULL, NULL, H, W, ROT, 100) == PE_ERR_ARG(4), "NULL inv_freq");
    CHECK(pe_rope_axial(angles, NULL, NULL, inv_bad, 0, W, ROT, 100) == PE_ERR_ARG(5), "height 0");
    CHECK(pe_rope_axial(angles, NULL, NULL, inv_bad, H, -1, ROT, 100) == PE_ERR_ARG(6), "width < 0");
    CHECK(pe_rope_axial(angles, NULL, NULL, inv_bad, H, W, 6, 100) == PE_ERR_ARG(7), "rotary_dim not a multiple of 4");
    CHECK(pe_rope_axial(angles, NULL, NULL, inv_bad, H, W, ROT, INFINITY) == PE_ERR_ARG(8), "base inf");
    CHECK(pe_rope_axial(angles, NULL, NULL, inv_bad, 4096, 4096, ROT, 100) == PE_ERR_TOO_LARGE, "too many tokens");

    float x[2 * 8], out[2 * 8];
    for (int i = 0; i < 16; i++) x[i] = (float)i;
    CHECK(pe_rope_apply_tables(out, x, cos_t, sin_t, 1, 2, 8, 8, PE_ROPE_HALF) == PE_OK, "apply ok");
    CHECK(out[0] == x[0] && out[4] == x[4], "position 0 (angle 0) is unchanged");
    CHECK(pe_rope_apply_tables(x + 1, x, cos_t, sin_t, 1, 1, 8, 8, 0) == PE_ERR_ARG(1), "partial overlap");
    CHECK(pe_rope_apply_tables(out, x, NULL, sin_t, 1, 2, 8, 8, 0) == PE_ERR_ARG(3), "NULL cos");
    CHECK(pe_rope_apply_tables(out, x, cos_t, sin_t, 0, 2, 8, 8, 0) == PE_ERR_ARG(5), "heads 0");
    CHECK(pe_rope_apply_tables(out, x, cos_t, sin_t, 1, 2, 8, 10, 0) == PE_ERR_ARG(8), "rotary_dim > dim");
    CHECK(pe_rope_apply_tables(out, x, cos_t, sin_t, 1, 2, 8, 8, 2) == PE_ERR_ARG(9), "layout 2");
    // Regression (tests/fuzz): out overlapping a table was accepted (only out against x was
    // checked), so later rows were rotated by already rewritten table values.
    static float block[2 * 8 + 8];
    CHECK(pe_rope_apply_tables(block, x, block + 15, sin_t, 1, 2, 8, 8, 0) == PE_ERR_ARG(3), "out overlaps cos_table");
    CHECK(pe_rope_apply_tables(block + 4, x, cos_t, block, 1, 2, 8, 8, 0) == PE_ERR_ARG(4), "out overlaps sin_table");
    CHECK(pe_rope_apply_tables(x, x, x, sin_t, 1, 2, 8, 8, 0) == PE_ERR_ARG(3), "in place over cos_table");
    CHECK(pe_rope_apply_tables(block, x, block + 16, sin_t, 1, 2, 8, 8, 0) == PE_OK, "a table right after out is fine");
    // Regression (tests/fuzz): heads·length·dim overflowed int64 (UBSan) before the size check.
    CHECK(pe_rope_apply_tables(out, x, cos_t, sin_t, INT32_MAX, PE_MAX_LENGTH, PE_MAX_DIM, 16, 0) == PE_ERR_TOO_LARGE,
          "2^31 − 1 heads");
}

int main(void) {
    printf("vision (%s)\n", pe_simd_enabled() ? "SIMD via SIMDe" : "scalar");
    test_mae_is_two_concat_tables();
    test_sum_matches_1d();
    test_3d_blocks();
    test_bad_arguments();
    test_rope_axial();
    return test_summary("native vision");
}
