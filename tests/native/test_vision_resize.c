// Native tests of the bicubic resize of a position table's grid (c/vision_resize.c): the taps of
// PyTorch's formula, the identity, constants, the SIMD loop against a float64 loop at every tail
// length, and bad arguments. (The values against PyTorch itself: tests/vision-resize.test.js.)
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pe.h"
#include "test_util.h"

// 2 → 4 along one axis: scale 0.5, x = 0.5·(dst + 0.5) − 0.5 = −0.25, 0.25, 0.75, 1.25.
static void test_taps(void) {
    int32_t idx[4];
    double w[4];
    pe_bicubic_taps(0, 2, 4, idx, w);   // x = −0.25: x0 = −1, t = 0.75; indices −2..1 clamp to 0,0,0,1
    CHECK(idx[0] == 0 && idx[1] == 0 && idx[2] == 0 && idx[3] == 1, "clamped indices %d %d %d %d", idx[0], idx[1],
          idx[2], idx[3]);
    double sum = w[0] + w[1] + w[2] + w[3];
    CHECK(fabs(sum - 1.0) < 1e-15, "weights sum to 1 (%.17g)", sum);
    // K(t) at t = 0.75 with A = −0.75: ((1.25·0.75) − 2.25)·0.5625 + 1
    CHECK(fabs(w[1] - ((1.25 * 0.75 - 2.25) * 0.5625 + 1.0)) < 1e-15, "K(0.75)");
    for (int n_out = 1; n_out <= 40; n_out++)
        for (int d = 0; d < n_out; d++) {
            pe_bicubic_taps(d, 14, n_out, idx, w);
            double s = w[0] + w[1] + w[2] + w[3];
            CHECK(fabs(s - 1.0) < 1e-12, "14 → %d, dst %d: weights sum %.17g", n_out, d, s);
            for (int k = 0; k < 4; k++) CHECK(idx[k] >= 0 && idx[k] < 14, "index in range");
        }
}

static double reference(const float *grid, int ih, int iw, int oh, int ow, int dim, int y, int x, int c) {
    int32_t yi[4], xi[4];
    double wy[4], wx[4];
    pe_bicubic_taps(y, ih, oh, yi, wy);
    pe_bicubic_taps(x, iw, ow, xi, wx);
    double s = 0;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) s += wy[i] * wx[j] * grid[(yi[i] * iw + xi[j]) * dim + c];
    return s;
}

static void test_values(void) {
    static float in[(1 + 5 * 6) * 9], out[(1 + 7 * 6) * 9];
    uint32_t rng = 12345;
    for (int dim = 1; dim <= 9; dim++)
        for (int prefix = 0; prefix <= 1; prefix++) {
            for (int i = 0; i < (prefix + 30) * dim; i++) in[i] = xorshift_uniform(&rng, -1.0f, 1.0f);
            CHECK(pe_resize_bicubic(out, in, prefix, 5, 6, 7, 4, dim) == PE_OK, "ok");
            for (int c = 0; c < prefix * dim; c++) CHECK(out[c] == in[c], "cls row copied");
            double worst = 0;
            for (int y = 0; y < 7; y++)
                for (int x = 0; x < 4; x++)
                    for (int c = 0; c < dim; c++) {
                        double e = reference(in + prefix * dim, 5, 6, 7, 4, dim, y, x, c);
                        double err = fabs(out[(prefix + y * 4 + x) * dim + c] - e);
                        if (err > worst) worst = err;
                    }
            CHECK(worst < 1e-6, "dim %d prefix %d: worst %.3g", dim, prefix, worst);
            // Same size: every weight is 0 or 1, the table comes back bit for bit.
            CHECK(pe_resize_bicubic(out, in, prefix, 5, 6, 5, 6, dim) == PE_OK, "ok");
            CHECK(memcmp(out, in, sizeof(float) * (size_t)((prefix + 30) * dim)) == 0, "identity dim %d", dim);
        }
    // A constant grid stays constant (the weights sum to 1).
    for (int i = 0; i < 30 * 3; i++) in[i] = 0.25f;
    CHECK(pe_resize_bicubic(out, in, 0, 5, 6, 7, 4, 3) == PE_OK, "ok");
    for (int i = 0; i < 28 * 3; i++) CHECK(fabsf(out[i] - 0.25f) < 1e-7f, "constant at %d: %g", i, out[i]);
}

static void test_bad_arguments(void) {
    static float in[64], out[256];
    CHECK(pe_resize_bicubic(NULL, in, 1, 2, 2, 3, 3, 4) == PE_ERR_ARG(1), "NULL out");
    CHECK(pe_resize_bicubic(out, NULL, 1, 2, 2, 3, 3, 4) == PE_ERR_ARG(2), "NULL in");
    CHECK(pe_resize_bicubic(out, in, 2, 2, 2, 3, 3, 4) == PE_ERR_ARG(3), "prefix 2");
    CHECK(pe_resize_bicubic(out, in, 1, 0, 2, 3, 3, 4) == PE_ERR_ARG(4), "in_height 0");
    CHECK(pe_resize_bicubic(out, in, 1, 2, PE_MAX_GRID + 1, 3, 3, 4) == PE_ERR_ARG(5), "in_width too big");
    CHECK(pe_resize_bicubic(out, in, 1, 2, 2, -1, 3, 4) == PE_ERR_ARG(6), "out_height < 0");
    CHECK(pe_resize_bicubic(out, in, 1, 2, 2, 3, 0, 4) == PE_ERR_ARG(7), "out_width 0");
    CHECK(pe_resize_bicubic(out, in, 1, 2, 2, 3, 3, 0) == PE_ERR_ARG(8), "dim 0");
    CHECK(pe_resize_bicubic(out, in, 1, 2, 2, PE_MAX_GRID, PE_MAX_GRID, 8) == PE_ERR_TOO_LARGE, "too large");
    CHECK(pe_resize_bicubic(out + 4, out, 1, 2, 2, 3, 3, 4) == PE_ERR_ARG(1), "out overlaps in");
    CHECK(pe_resize_bicubic(out + 20, out, 1, 2, 2, 3, 3, 4) == PE_OK, "out right after in is fine");
}

int main(void) {
    printf("vision resize (%s)\n", pe_simd_enabled() ? "SIMD via SIMDe" : "scalar");
    test_taps();
    test_values();
    test_bad_arguments();
    return test_summary("native vision resize");
}
