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

// --- The antialiased resize (pe_resize_bicubic_aa), against a float64 reference written here the
// way Pillow's ImagingResample writes it: a coefficient table per axis (support = 2·filterscale
// with filterscale = max(in/out, 1), the window [center − support, center + support) rounded to
// whole indices and cut to the grid, Keys' cubic at a = −0.5 on (x − center + 0.5)/filterscale,
// normalised), then two separable passes, columns first then rows.
#define AA_MAX_TAPS 64

static double keys_half(double x) {   // Keys' cubic convolution, a = −0.5 (Pillow's bicubic_filter)
    const double a = -0.5;
    if (x < 0.0) x = -x;
    if (x < 1.0) return ((a + 2.0) * x - (a + 3.0)) * x * x + 1.0;
    if (x < 2.0) return (((x - 5.0) * x + 8.0) * x - 4.0) * a;
    return 0.0;
}

// Coefficients of every output index along one axis: bounds[2·o] = first index, bounds[2·o + 1] =
// count, coeffs[o·AA_MAX_TAPS + k].
static void aa_coeffs(int n_in, int n_out, int *bounds, double *coeffs) {
    const double scale = (double)n_in / n_out;
    const double filterscale = scale < 1.0 ? 1.0 : scale;
    const double support = 2.0 * filterscale;
    for (int o = 0; o < n_out; o++) {
        const double center = (o + 0.5) * scale;
        int xmin = (int)(center - support + 0.5), xmax = (int)(center + support + 0.5);
        if (xmin < 0) xmin = 0;
        if (xmax > n_in) xmax = n_in;
        double *k = coeffs + (size_t)o * AA_MAX_TAPS;
        double ww = 0;
        CHECK(xmax - xmin <= AA_MAX_TAPS, "reference window %d fits", xmax - xmin);
        for (int x = 0; x < xmax - xmin; x++) ww += k[x] = keys_half((x + xmin - center + 0.5) / filterscale);
        for (int x = 0; x < xmax - xmin; x++) k[x] = ww != 0.0 ? k[x] / ww : k[x];
        bounds[2 * o] = xmin;
        bounds[2 * o + 1] = xmax - xmin;
    }
}

// grid (ih, iw, dim) float → ref (oh, ow, dim) double, separable.
static void aa_reference(const float *grid, int ih, int iw, int oh, int ow, int dim, double *ref) {
    static int by[2 * 64], bx[2 * 64];
    static double cy[64 * AA_MAX_TAPS], cx[64 * AA_MAX_TAPS], mid[64 * 64 * 16];   // (ih, ow, dim)
    CHECK(oh <= 64 && ow <= 64 && ih * ow * dim <= 64 * 64 * 16, "reference sizes");
    aa_coeffs(ih, oh, by, cy);
    aa_coeffs(iw, ow, bx, cx);
    for (int r = 0; r < ih; r++)
        for (int o = 0; o < ow; o++)
            for (int c = 0; c < dim; c++) {
                double s = 0;
                for (int k = 0; k < bx[2 * o + 1]; k++)
                    s += cx[o * AA_MAX_TAPS + k] * grid[(r * iw + bx[2 * o] + k) * dim + c];
                mid[(r * ow + o) * dim + c] = s;
            }
    for (int o = 0; o < oh; o++)
        for (int x = 0; x < ow; x++)
            for (int c = 0; c < dim; c++) {
                double s = 0;
                for (int k = 0; k < by[2 * o + 1]; k++)
                    s += cy[o * AA_MAX_TAPS + k] * mid[((by[2 * o] + k) * ow + x) * dim + c];
                ref[(o * ow + x) * dim + c] = s;
            }
}

static void test_aa_values(void) {
    // Up, down, identity, odd and non-square, to and from a single patch.
    static const int sizes[][4] = {{14, 14, 16, 16}, {16, 14, 14, 16}, {7, 7, 24, 24}, {24, 24, 7, 7}, {5, 6, 5, 6},
                                   {5, 7, 9, 4},     {9, 4, 3, 11},    {1, 1, 3, 2},   {3, 3, 1, 1},   {31, 2, 2, 31}};
    static float in[(1 + 31 * 31) * 9], out[(1 + 31 * 31) * 9], plain[(1 + 31 * 31) * 9];
    static double ref[31 * 31 * 9];
    uint32_t rng = 777;
    double worst_all = 0, differs = 0;
    for (size_t n = 0; n < sizeof sizes / sizeof sizes[0]; n++) {
        const int ih = sizes[n][0], iw = sizes[n][1], oh = sizes[n][2], ow = sizes[n][3];
        for (int dim = 1; dim <= 9; dim++)   // every SIMD tail, and two full vectors
            for (int prefix = 0; prefix <= 1; prefix++) {
                for (int i = 0; i < (prefix + ih * iw) * dim; i++) in[i] = xorshift_uniform(&rng, -1.0f, 1.0f);
                CHECK(pe_resize_bicubic_aa(out, in, prefix, ih, iw, oh, ow, dim) == PE_OK, "ok");
                for (int c = 0; c < prefix * dim; c++) CHECK(out[c] == in[c], "cls row copied");
                aa_reference(in + prefix * dim, ih, iw, oh, ow, dim, ref);
                double worst = 0;
                for (int i = 0; i < oh * ow * dim; i++) {
                    const double err = fabs(out[prefix * dim + i] - ref[i]);
                    if (err > worst) worst = err;
                }
                // |in| ≤ 1; up to 63 × 4 taps (31 → 2 by 2 → 31) summed in float32, weights rounded once.
                CHECK(worst < 2e-6, "%dx%d → %dx%d dim %d prefix %d: worst %.3g", ih, iw, oh, ow, dim, prefix, worst);
                if (worst > worst_all) worst_all = worst;
                if (ih == oh && iw == ow)   // same size: K(0) = 1 and K(±1) = K(2) = 0, bit for bit
                    CHECK(memcmp(out, in, sizeof(float) * (size_t)((prefix + ih * iw) * dim)) == 0, "identity");
                CHECK(pe_resize_bicubic(plain, in, prefix, ih, iw, oh, ow, dim) == PE_OK, "ok");
                for (int i = 0; i < (prefix + oh * ow) * dim; i++)
                    if (fabs(plain[i] - out[i]) > differs) differs = fabs(plain[i] - out[i]);
            }
    }
    printf("  antialiased bicubic: worst |kernel − float64 reference| %.3g; largest gap to the plain resize %.3f\n",
           worst_all, differs);
    CHECK(differs > 0.05, "the antialiased resize is not the plain one (%.3g)", differs);
    // A constant grid stays constant (each output's weights sum to 1, down and up).
    for (int i = 0; i < 24 * 24 * 3; i++) in[i] = 0.25f;
    CHECK(pe_resize_bicubic_aa(out, in, 0, 24, 24, 7, 5, 3) == PE_OK, "ok");
    for (int i = 0; i < 35 * 3; i++)   // ~30 float32 sums of rounded weights: a few ulps
        CHECK(fabsf(out[i] - 0.25f) < 5e-7f, "constant down at %d: %g", i, out[i]);
    CHECK(pe_resize_bicubic_aa(out, in, 0, 5, 7, 24, 24, 3) == PE_OK, "ok");
    for (int i = 0; i < 24 * 24 * 3; i++) CHECK(fabsf(out[i] - 0.25f) < 1e-7f, "constant up at %d: %g", i, out[i]);
    // A far shrink (4096 → 1 along a row): one output, every source index in the window.
    static float line[4096];
    for (int i = 0; i < 4096; i++) line[i] = (float)(i % 7) - 3.0f;
    float one;
    CHECK(pe_resize_bicubic_aa(&one, line, 0, 1, 4096, 1, 1, 1) == PE_OK, "4096 → 1");
    CHECK(isfinite(one) && fabsf(one) < 3.0f, "4096 → 1 gives %g", one);
}

static void test_aa_bad_arguments(void) {
    static float in[64], out[256];
    CHECK(pe_resize_bicubic_aa(NULL, in, 1, 2, 2, 3, 3, 4) == PE_ERR_ARG(1), "NULL out");
    CHECK(pe_resize_bicubic_aa(out, NULL, 1, 2, 2, 3, 3, 4) == PE_ERR_ARG(2), "NULL in");
    CHECK(pe_resize_bicubic_aa(out, in, -1, 2, 2, 3, 3, 4) == PE_ERR_ARG(3), "prefix −1");
    CHECK(pe_resize_bicubic_aa(out, in, 1, PE_MAX_GRID + 1, 2, 3, 3, 4) == PE_ERR_ARG(4), "in_height too big");
    CHECK(pe_resize_bicubic_aa(out, in, 1, 2, 0, 3, 3, 4) == PE_ERR_ARG(5), "in_width 0");
    CHECK(pe_resize_bicubic_aa(out, in, 1, 2, 2, 0, 3, 4) == PE_ERR_ARG(6), "out_height 0");
    CHECK(pe_resize_bicubic_aa(out, in, 1, 2, 2, 3, PE_MAX_GRID + 1, 4) == PE_ERR_ARG(7), "out_width too big");
    CHECK(pe_resize_bicubic_aa(out, in, 1, 2, 2, 3, 3, PE_MAX_DIM + 1) == PE_ERR_ARG(8), "dim too big");
    CHECK(pe_resize_bicubic_aa(out, in, 1, 2, 2, PE_MAX_GRID, PE_MAX_GRID, 8) == PE_ERR_TOO_LARGE, "too large");
    CHECK(pe_resize_bicubic_aa(out, out + 4, 1, 2, 2, 3, 3, 4) == PE_ERR_ARG(1), "out overlaps in");
    CHECK(pe_resize_bicubic_aa(out + 20, out, 1, 2, 2, 3, 3, 4) == PE_OK, "out right after in is fine");
}

int main(void) {
    printf("vision resize (%s)\n", pe_simd_enabled() ? "SIMD via SIMDe" : "scalar");
    test_taps();
    test_values();
    test_bad_arguments();
    test_aa_values();
    test_aa_bad_arguments();
    return test_summary("native vision resize");
}
