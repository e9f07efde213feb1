// Native tests of the heatmap kernel (c/heatmap.c), built with gcc + SIMDe under ASan/UBSan (run.sh).
//   1. Values against a float64 reference written independently here (each cell's tent weight
//      integrated piece by piece with the trapezoid rule, exact for a piecewise-linear tent; one
//      2-D weighted sum per pixel), at every column count 1..13 (every tail of the 4-wide loop),
//      magnified and minified windows, with NaN and ±Infinity sprinkled and whole masked areas.
//   2. SIMD and scalar passes agree bit for bit, and so do the single pass over the table's rows
//      and one pass per pixel row (also on larger tables, every row-per-pixel ratio from 1.01 to
//      40); pe_heatmap's pixels are pe_colorize's colours of pe_heatmap_values' values.
//   3. Aliasing: a wave of 1.1 and of 1.43 cycles per pixel comes out nearly flat (the box mean
//      would leave 9 % and 22 % of its contrast), a slow wave keeps its contrast.
//   4. pe_heatmap_scan against a scalar reference at every count 0..67; pe_heatmap_values_scan gives
//      pe_heatmap_values' values and pe_heatmap_scan's range, whether or not its pass read every
//      value (whole and zoomed windows, minified and magnified, with non-finite values).
//   5. Colour ranges float32 cannot hold (values ≤ 1e-38 and subnormal, ±3e38, −1e308 … 1e308, ends
//      equal in float32): pe_heatmap_colorize's entry against a long double reference, SIMD and
//      scalar bit for bit at every tail, pe_colorize's bytes where float32 holds the range, and
//      pe_heatmap's pixels are pe_heatmap_colorize's colours of pe_heatmap_values' values.
//   6. Every bad argument returns its status code.
//   7. Colour scales sqrt and log (test_scales).
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "colormap.h"
#include "heatmap.h"
#include "pe.h"
#include "test_util.h"

static uint32_t rng_state = 2024u;
static float rnd(float lo, float hi) { return xorshift_uniform(&rng_state, lo, hi); }

// ∫_p^q of the unit-area tent of half-width r centred at c: split at its corners, trapezoids.
static double tent(double u, double r) { return fabs(u) >= r ? 0.0 : (1.0 - fabs(u) / r) / r; }
static double tent_integral(double p, double q, double c, double r) {
    double cuts[5] = {p, c - r, c, c + r, q};
    double total = 0.0, a = p;
    for (int k = 1; k < 5; k++) {
        double b = k == 4 ? q : cuts[k];
        if (b <= a || b > q) continue;
        total += 0.5 * (b - a) * (tent(a - c, r) + tent(b - c, r));
        a = b;
    }
    return total;
}

// Weights of every cell 0..len-1 for pixel i of n over the window [a, b).
static void ref_weights(double *w, double a, double b, int n, int i, int len) {
    double s = (b - a) / n, c = a + (i + 0.5) * s;
    for (int j = 0; j < len; j++) w[j] = 0.0;
    if (s <= 1.0) {
        int j = (int)floor(c);
        w[j < 0 ? 0 : j >= len ? len - 1 : j] = 1.0;
        return;
    }
    for (int j = 0; j < len; j++) w[j] = tent_integral(j, j + 1, c, s);
}

static double ref_pixel(const float *t, int rows, int cols, const double *wy, const double *wx) {
    double num = 0.0, den = 0.0;
    int neg = 0, pos = 0, nan = 0;
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            double w = wy[r] * wx[c];
            if (w <= 1e-12) continue;
            float v = t[r * cols + c];
            if (isfinite(v)) {
                num += w * v;
                den += w;
            } else if (isnan(v)) {
                nan = 1;
            } else if (v > 0) {
                pos = 1;
            } else {
                neg = 1;
            }
        }
    if (den > 0.0) return num / den;
    if (neg && !pos && !nan) return -INFINITY;
    if (pos && !neg && !nan) return INFINITY;
    return NAN;
}

static int same_special(float a, double b) {
    if (isnan(b)) return isnan(a);
    return a == b;
}

enum { MAX_ROWS = 96, MAX_COLS = 40, MAX_W = 24, MAX_H = 20 };
static float table[MAX_ROWS * MAX_COLS];
static float vs[MAX_W * MAX_H], vv[MAX_W * MAX_H], v1[MAX_W * MAX_H], v2[MAX_W * MAX_H];
static uint8_t rgba[4 * MAX_W * MAX_H], ref_rgba[4 * MAX_W * MAX_H];
static double wy[MAX_ROWS], wx[MAX_COLS];
static _Alignas(16) uint8_t scratch[1 << 16];

static void test_values(void) {
    double worst = 0.0;
    int cases = 0, mismatches = 0;
    for (int cols = 1; cols <= 13; cols++)
        for (int rows = 1; rows <= 61; rows += 6)
            for (int w = 1; w <= 9; w += 2)
                for (int hgt = 1; hgt <= 11; hgt += 5)
                    for (int kind = 0; kind < 4; kind++) {
                        // kind 0: finite; 1: NaN/±Inf sprinkled; 2: a masked (−Inf) triangle;
                        // 3: a zoomed window with fractional edges.
                        for (int i = 0; i < rows * cols; i++) table[i] = rnd(-2.0f, 2.0f);
                        if (kind == 1)
                            for (int i = 0; i < rows * cols; i++)
                                if (i % 5 == 2) table[i] = i % 3 == 0 ? NAN : i % 3 == 1 ? INFINITY : -INFINITY;
                        if (kind == 2)
                            for (int r = 0; r < rows; r++)
                                for (int c = 0; c < cols; c++)
                                    if (c > r) table[r * cols + c] = -INFINITY;
                        float win[4] = {0.0f, (float)cols, 0.0f, (float)rows};
                        if (kind == 3) {
                            win[0] = 0.37f * cols;
                            win[1] = win[0] + 0.5f * cols + 0.25f;
                            if (win[1] > cols) win[1] = (float)cols;
                            win[2] = 0.21f * rows;
                            win[3] = (float)rows - 0.3f;
                        }
                        pe_heatmap_values_impl(vs, scratch, table, rows, cols, w, hgt, win, 1, 1);
                        pe_heatmap_values_impl(vv, scratch, table, rows, cols, w, hgt, win, 0, 1);
                        pe_heatmap_values_impl(v1, scratch, table, rows, cols, w, hgt, win, 1, 0);
                        pe_heatmap_values_impl(v2, scratch, table, rows, cols, w, hgt, win, 0, 0);
                        const size_t bytes = sizeof(float) * w * hgt;
                        if (memcmp(vs, vv, bytes) != 0 || memcmp(vs, v1, bytes) != 0 || memcmp(vs, v2, bytes) != 0)
                            mismatches++;
                        for (int y = 0; y < hgt; y++) {
                            ref_weights(wy, win[2], win[3], hgt, y, rows);
                            for (int x = 0; x < w; x++) {
                                ref_weights(wx, win[0], win[1], w, x, cols);
                                double ref = ref_pixel(table, rows, cols, wy, wx);
                                float got = vs[y * w + x];
                                if (isfinite(ref)) {
                                    double err = fabs(got - ref);
                                    if (!(err <= worst)) worst = err;
                                    CHECK(err <= 2e-6, "rows %d cols %d %dx%d kind %d pixel (%d,%d): %.9g vs %.9g",
                                          rows, cols, w, hgt, kind, x, y, got, ref);
                                } else {
                                    CHECK(same_special(got, ref), "rows %d cols %d kind %d pixel (%d,%d): %g vs %g",
                                          rows, cols, kind, x, y, got, ref);
                                }
                            }
                        }
                        // The colours are pe_colorize's of the values, byte for byte.
                        CHECK(pe_heatmap(rgba, scratch, table, rows, cols, w, hgt, win, PE_COLORMAP_DIVERGING, -1.5f,
                                         1.5f, NULL, 0) == PE_OK,
                              "pe_heatmap status");
                        pe_colorize(ref_rgba, vs, w * hgt, PE_COLORMAP_DIVERGING, -1.5f, 1.5f, NULL);
                        CHECK(memcmp(rgba, ref_rgba, 4 * (size_t)w * hgt) == 0, "rgba rows %d cols %d %dx%d kind %d",
                              rows, cols, w, hgt, kind);
                        cases++;
                    }
    CHECK(mismatches == 0, "SIMD/scalar or single/per-row passes differ in %d of %d cases", mismatches, cases);
    printf("  values: %d cases, worst |error| vs the float64 reference %.3g\n", cases, worst);
}

// The single pass against one pass per pixel row on larger tables: rows per pixel row from just
// over 1 (three pixel rows open at a row) to 40, whole and zoomed windows, finite values, a
// masked (−Inf) triangle and sprinkled NaN/±Inf; both SIMD and scalar. Bit for bit.
static void test_single_pass(void) {
    enum { R = 403, C = 37, W = 29, HMAX = 399 };
    static float big[R * C], a[W * HMAX], b[W * HMAX];
    static _Alignas(16) uint8_t scr[1 << 17];
    const int heights[] = {1, 2, 10, 41, 100, 200, 300, 360, 398, 399};
    int cases = 0, mismatches = 0;
    for (size_t hi = 0; hi < sizeof heights / sizeof heights[0]; hi++)
        for (int kind = 0; kind < 3; kind++)
            for (int zoom = 0; zoom < 2; zoom++)
                for (int simd = 0; simd < 2; simd++) {
                    const int hgt = heights[hi];
                    for (int i = 0; i < R * C; i++) {
                        big[i] = rnd(-3.0f, 3.0f);
                        if (kind == 1 && (i / C) < (i % C) * 11) big[i] = -INFINITY;
                        if (kind == 2 && i % 7 == 3) big[i] = i % 3 == 0 ? NAN : i % 3 == 1 ? INFINITY : -INFINITY;
                    }
                    float win[4] = {0.0f, (float)C, 0.0f, (float)R};
                    if (zoom) {
                        win[0] = 3.25f, win[1] = 30.5f, win[2] = 17.75f, win[3] = 402.5f;
                    }
                    pe_heatmap_values_impl(a, scr, big, R, C, W, hgt, win, simd, 1);
                    pe_heatmap_values_impl(b, scr, big, R, C, W, hgt, win, simd, 0);
                    if (memcmp(a, b, sizeof(float) * W * hgt) != 0) mismatches++;
                    cases++;
                }
    CHECK(mismatches == 0, "single pass and per-row passes differ in %d of %d cases", mismatches, cases);
    printf("  single pass: %d cases (403 rows drawn 1..399 pixels tall) equal to the per-row passes\n", cases);
}

// The contrast (max − min) / 2 of the middle pixels of a table of sin(2π·f·j/s) down the rows,
// drawn `height` pixels tall (s = rows / height cells per pixel, f cycles per pixel).
static double contrast(double f, int rows, int height) {
    static float tall[8000 * 3];
    static float out[3 * 200];
    double s = (double)rows / height;
    for (int j = 0; j < rows; j++)
        for (int c = 0; c < 3; c++) tall[j * 3 + c] = (float)sin(2.0 * 3.14159265358979323846 * f * (j + 0.5) / s);
    float win[4] = {0.0f, 3.0f, 0.0f, (float)rows};
    pe_heatmap_values_impl(out, scratch, tall, rows, 3, 3, height, win, 1, 1);
    double lo = 1e9, hi = -1e9;
    for (int y = 4; y < height - 4; y++) {
        double v = out[y * 3 + 1];
        if (v < lo) lo = v;
        if (v > hi) hi = v;
    }
    return (hi - lo) / 2.0;
}

static void test_aliasing(void) {
    double a11 = contrast(1.1, 7919, 200), a143 = contrast(1.43, 7919, 200), slow = contrast(0.05, 7919, 200);
    printf("  aliasing: contrast left at 1.1 cycles/pixel %.4f, at 1.43 %.4f; at 0.05 %.4f\n", a11, a143, slow);
    CHECK(a11 < 0.02, "a wave of 1.1 cycles per pixel keeps %.4f of its contrast (box mean: 0.09)", a11);
    CHECK(a143 < 0.06, "a wave of 1.43 cycles per pixel keeps %.4f of its contrast (box mean: 0.22)", a143);
    CHECK(slow > 0.9, "a slow wave (0.05 cycles per pixel) keeps only %.4f of its contrast", slow);
}

static void test_scan(void) {
    static float v[67];
    for (int n = 0; n <= 67; n++)
        for (int kind = 0; kind < 5; kind++) {
            float lo = INFINITY, hi = -INFINITY;
            int32_t fl = 0;
            for (int i = 0; i < n; i++) {
                v[i] = rnd(-100.0f, 100.0f);
                if (kind && i % 4 == (n + kind) % 4) v[i] = kind == 1 ? NAN : kind == 2 ? -INFINITY : INFINITY;
                if (kind == 4) v[i] = -INFINITY;
                float x = v[i];
                if (isfinite(x)) {
                    lo = x < lo ? x : lo;
                    hi = x > hi ? x : hi;
                } else {
                    fl |= isnan(x) ? 4 : x > 0 ? 2 : 1;
                }
            }
            float range[2];
            int32_t flags = -1;
            CHECK(pe_heatmap_scan(range, &flags, n ? v : NULL, n) == PE_OK, "scan status n %d", n);
            CHECK(range[0] == lo && range[1] == hi && flags == fl, "scan n %d kind %d: [%g, %g] %d vs [%g, %g] %d", n,
                  kind, range[0], range[1], flags, lo, hi, fl);
        }
}

static void test_values_scan(void) {
    enum { R = 211, C = 45 };
    static float t[R * C], a[64 * 64], b[64 * 64];
    static _Alignas(16) uint8_t scr[1 << 16];
    int cases = 0;
    for (int kind = 0; kind < 5; kind++)
        for (int size = 0; size < 3; size++)
            for (int zoom = 0; zoom < 2; zoom++) {
                // kind 0 finite, 1 a −Inf triangle, 2 NaN and ±Inf sprinkled, 3 all −Inf,
                // 4 the extremes in the first and last row and column only.
                for (int i = 0; i < R * C; i++) {
                    t[i] = rnd(-1.0f, 1.0f);
                    int r = i / C, c = i % C;
                    if (kind == 1 && c > r / 4) t[i] = -INFINITY;
                    if (kind == 2 && i % 9 == 4) t[i] = i % 2 ? NAN : (i % 3 ? INFINITY : -INFINITY);
                    if (kind == 3) t[i] = -INFINITY;
                    if (kind == 4 && r == 0 && c == C - 1) t[i] = -7.0f;
                    if (kind == 4 && r == R - 1 && c == 0) t[i] = 9.0f;
                }
                const int w = size == 0 ? 10 : size == 1 ? 45 : 64, hgt = size == 0 ? 7 : size == 1 ? 60 : 64;
                float win[4] = {0.0f, (float)C, 0.0f, (float)R};
                if (zoom) win[0] = 1.5f, win[3] = 150.25f;
                float range[2], ref[2];
                int32_t flags = -1, ref_flags = -1;
                CHECK(pe_heatmap_values_scan(a, scr, t, R, C, w, hgt, win, range, &flags) == PE_OK,
                      "values_scan status");
                CHECK(pe_heatmap_values(b, scr, t, R, C, w, hgt, win) == PE_OK, "values status");
                CHECK(pe_heatmap_scan(ref, &ref_flags, t, R * C) == PE_OK, "scan status");
                CHECK(memcmp(a, b, sizeof(float) * w * hgt) == 0, "values_scan values, kind %d size %d zoom %d", kind,
                      size, zoom);
                CHECK(memcmp(range, ref, sizeof range) == 0 && flags == ref_flags,
                      "values_scan range kind %d size %d zoom %d: [%g, %g] %d vs [%g, %g] %d", kind, size, zoom,
                      range[0], range[1], flags, ref[0], ref[1], ref_flags);
                cases++;
            }
    // One whole cell per pixel (the table no larger than the canvas): the values are the cells,
    // whole or a window of whole cells, and the range is the whole table's.
    for (int kind = 0; kind < 3; kind++) {
        for (int i = 0; i < R * C; i++) {
            t[i] = rnd(-1.0f, 1.0f);
            if (kind == 1 && i % 13 == 5) t[i] = i % 2 ? -INFINITY : NAN;
            if (kind == 2 && i == R * C - 1) t[i] = 3.0f;
        }
        static float id[R * C];
        float whole[4] = {0.0f, (float)C, 0.0f, (float)R}, part[4] = {4.0f, 40.0f, 17.0f, 80.0f};
        float range[2], ref[2];
        int32_t flags = -1, ref_flags = -1;
        CHECK(pe_heatmap_values_scan(id, scr, t, R, C, C, R, whole, range, &flags) == PE_OK, "identity status");
        CHECK(pe_heatmap_scan(ref, &ref_flags, t, R * C) == PE_OK, "identity scan status");
        CHECK(memcmp(id, t, sizeof(float) * R * C) == 0, "identity values are the cells, kind %d", kind);
        CHECK(memcmp(range, ref, sizeof range) == 0 && flags == ref_flags, "identity range kind %d", kind);
        CHECK(pe_heatmap_values_scan(id, scr, t, R, C, 36, 63, part, range, &flags) == PE_OK, "window status");
        int same = 1;
        for (int y = 0; y < 63; y++)
            if (memcmp(id + y * 36, t + (17 + y) * C + 4, sizeof(float) * 36) != 0) same = 0;
        CHECK(same, "a window of whole cells gives its cells, kind %d", kind);
        CHECK(memcmp(range, ref, sizeof range) == 0 && flags == ref_flags, "window range is the table's, kind %d",
              kind);
        cases += 2;
    }
    printf("  values and range in one pass: %d cases equal to pe_heatmap_values + pe_heatmap_scan\n", cases);
}

// The colour-table entry of v in vmin … vmax, exactly (long double: 64-bit mantissa, wide exponent).
static int ref_entry(float v, double vmin, double vmax) {
    long double t = ((long double)v - vmin) / ((long double)vmax - vmin) * 256.0L;
    return t < 0.0L ? 0 : t >= 255.0L ? 255 : (int)t;
}

// Which of the map's 256 entries an RGBA pixel is (−1: none).
static int entry_of(const uint8_t *px, int32_t map) {
    const uint8_t *lut = pe_colormap_table(map);
    for (int k = 0; k < 256; k++)
        if (memcmp(lut + 4 * k, px, 4) == 0) return k;
    return -1;
}

static void test_wide_colors(void) {
    static const double ranges[][2] = {
        {0.0, 1e-37},  {1e-39, 4e-39},    {0.0, 1e-44},   {-3e38, 3e38}, {-3.4e38, 3.4e38}, {-1e308, 1e308},
        {-1e308, 1.0}, {1.0, 1.0 + 1e-9}, {1e-45, 3e-45}, {0.5, 3.0e38}, {-1e-40, 1e-40},
    };
    enum { N = 67 };
    float v[N];
    uint8_t a[4 * N], b[4 * N];
    int cases = 0, off_by_one = 0;
    for (size_t r = 0; r < sizeof ranges / sizeof ranges[0]; r++) {
        const double lo = ranges[r][0], hi = ranges[r][1];
        // Values across and beyond the range: the middle of every fourth entry (where float32 has the
        // resolution), the ends, and a few non-finite values.
        for (int i = 0; i < N; i++) {
            const double f = ((i - 1) * 4 + 1.5) / 256.0;   // the middle of entry 4(i − 1) + 1
            double x = lo + (hi - lo) * f;
            if (!isfinite(x)) x = lo * (1.0 - f) + hi * f;   // −1e308 … 1e308: no overflow
            v[i] = fabs(x) <= 3.4e38 ? (float)x : x > 0 ? 3.4e38f : -3.4e38f;
        }
        v[0] = fabs(lo) <= 3.4e38 ? (float)lo : -3.4e38f;
        v[N - 1] = fabs(hi) <= 3.4e38 ? (float)hi : 3.4e38f;
        v[7] = NAN;
        v[13] = -INFINITY;
        v[21] = INFINITY;
        for (int32_t map = 0; map < PE_COLORMAP_COUNT; map++) {
            CHECK(pe_heatmap_colorize(a, v, N, map, lo, hi, NULL, 0) == PE_OK, "range %zu status", r);
            for (int i = 0; i < N; i++) {
                if (!isfinite(v[i])) continue;
                // The entry's colour (neighbouring entries may share one), or a neighbour's at a boundary.
                const int want = ref_entry(v[i], lo, hi);
                const uint8_t *lut = pe_colormap_table(map);
                const int exact = memcmp(a + 4 * i, lut + 4 * want, 4) == 0;
                const int near = (want > 0 && memcmp(a + 4 * i, lut + 4 * (want - 1), 4) == 0) ||
                                 (want < 255 && memcmp(a + 4 * i, lut + 4 * (want + 1), 4) == 0);
                CHECK(exact || near, "range %zu [%g, %g] value %g: entry %d, want %d", r, lo, hi, v[i],
                      entry_of(a + 4 * i, map), want);
                off_by_one += !exact;
            }
            const uint8_t *special = pe_colormap_default_special(map);
            CHECK(memcmp(a + 4 * 7, special + 4 * PE_SPECIAL_NAN, 4) == 0, "range %zu NaN colour", r);
            CHECK(memcmp(a + 4 * 13, special + 4 * PE_SPECIAL_NEG_INF, 4) == 0, "range %zu -Inf colour", r);
            CHECK(memcmp(a + 4 * 21, special + 4 * PE_SPECIAL_POS_INF, 4) == 0, "range %zu +Inf colour", r);
            for (int32_t n = 0; n <= 13; n++) {   // every tail of the 4-wide loop
                memset(a, 1, sizeof a);
                memset(b, 2, sizeof b);
                pe_heatmap_colorize_impl(a, v + 3, n, map, lo, hi, special, 0, 1);
                pe_heatmap_colorize_impl(b, v + 3, n, map, lo, hi, special, 0, 0);
                CHECK(memcmp(a, b, 4 * (size_t)n) == 0, "range %zu: SIMD and scalar differ at count %d", r, n);
            }
            cases++;
        }
    }
    // The minimum and the maximum of a tiny table take the two ends of the map.
    const float tiny[4] = {1e-39f, 2e-39f, 3e-39f, 4e-39f};
    CHECK(pe_heatmap_colorize(a, tiny, 4, 0, 1e-39f, 4e-39f, NULL, 0) == PE_OK, "tiny status");
    CHECK(entry_of(a, 0) == 0 && entry_of(a + 12, 0) == 255, "tiny ends: %d %d", entry_of(a, 0), entry_of(a + 12, 0));
    // Where float32 holds the range, pe_colorize's bytes.
    for (int i = 0; i < N; i++) v[i] = rnd(-3.0f, 3.0f);
    for (int32_t map = 0; map < PE_COLORMAP_COUNT; map++) {
        CHECK(pe_heatmap_colorize(a, v, N, map, -1.25, 2.5, NULL, 0) == PE_OK, "narrow status");
        CHECK(pe_colorize(b, v, N, map, -1.25f, 2.5f, NULL) == PE_OK, "pe_colorize status");
        CHECK(memcmp(a, b, sizeof a) == 0, "narrow range: pe_colorize's bytes, map %d", map);
    }
    // pe_heatmap: the colours of its values, for a table of tiny values and one of huge ones.
    const int rows = 29, cols = 17, w = 7, hgt = 33;
    const float win[4] = {0.0f, (float)cols, 0.0f, (float)rows};
    for (int kind = 0; kind < 2; kind++) {
        for (int i = 0; i < rows * cols; i++)
            table[i] = (float)((double)rnd(0.0f, 1.0f) * (kind ? 6.0e38 : 1e-38) - (kind ? 3.0e38 : 0.0));
        const double lo = kind ? -3.0e38 : 0.0, hi = kind ? 3.0e38 : 1e-38;
        CHECK(pe_heatmap(rgba, scratch, table, rows, cols, w, hgt, win, 0, lo, hi, NULL, 0) == PE_OK, "pe_heatmap %d",
              kind);
        CHECK(pe_heatmap_values(vs, scratch, table, rows, cols, w, hgt, win) == PE_OK, "values %d", kind);
        CHECK(pe_heatmap_colorize(ref_rgba, vs, w * hgt, 0, lo, hi, NULL, 0) == PE_OK, "colorize %d", kind);
        CHECK(memcmp(rgba, ref_rgba, 4 * (size_t)w * hgt) == 0, "pe_heatmap's colours, kind %d", kind);
        int distinct = 0, seen[256] = {0};
        for (int i = 0; i < w * hgt; i++) {
            int k = entry_of(rgba + 4 * i, 0);
            if (k >= 0 && !seen[k]++) distinct++;
        }
        CHECK(distinct > 4, "kind %d: the pixels use %d colours (a flat picture?)", kind, distinct);
    }
    printf("  colour ranges float32 cannot hold: %d cases, %d entries one off the long double reference\n", cases,
           off_by_one);
}

// The entry of v on the sqrt or log scale of vmin … vmax (heatmap.h), in long double.
static int ref_curve_entry(float v, double vmin, double vmax, int32_t scale) {
    if (!((long double)v > vmin)) return 0;
    long double fv, f0, f1;
    if (scale == PE_SCALE_SQRT) {
        fv = sqrtl(v), f0 = sqrtl(vmin), f1 = sqrtl(vmax);
    } else {
        fv = logl(v), f0 = logl(vmin), f1 = logl(vmax);
    }
    const long double t = (fv - f0) / (f1 - f0) * 256.0L;
    return t >= 255.0L ? 255 : (int)t;
}

//   7. Colour scales sqrt and log: every entry's middle value (and the values below vmin, above vmax,
//      zeros, negatives, non-finite) against a long double reference, SIMD and scalar bit for bit
//      at every tail, pe_heatmap = pe_heatmap_colorize of pe_heatmap_values with the scale.
static void test_scales(void) {
    static const double ranges[][3] = {
        {PE_SCALE_SQRT, 0.0, 1.0},    {PE_SCALE_SQRT, 0.25, 4.0},  {PE_SCALE_SQRT, 0.0, 1e-30},
        {PE_SCALE_SQRT, 1e-39, 3e38}, {PE_SCALE_LOG, 1e-6, 1.0},   {PE_SCALE_LOG, 1e-3, 2.0},
        {PE_SCALE_LOG, 1e-30, 1e-10}, {PE_SCALE_LOG, 1e-45, 3e38},
    };
    enum { N = 256 + 12 };
    float v[N];
    uint8_t a[4 * N], b[4 * N];
    int cases = 0, off_by_one = 0;
    for (size_t r = 0; r < sizeof ranges / sizeof ranges[0]; r++) {
        const int32_t scale = (int32_t)ranges[r][0];
        const double lo = ranges[r][1], hi = ranges[r][2];
        for (int e = 0; e < 256; e++) {   // the middle of entry e: f⁻¹(f(lo) + (e + ½)/256 · (f(hi) − f(lo)))
            const double t = (e + 0.5) / 256.0;
            const double x = scale == PE_SCALE_SQRT ? pow(sqrt(lo) + t * (sqrt(hi) - sqrt(lo)), 2.0)
                                                    : exp(log(lo) + t * (log(hi) - log(lo)));
            v[e] = (float)x;
        }
        const float extra[12] = {0.0f,    -0.0f,    -1.0f, (float)lo, (float)(lo * 0.5), (float)hi,
                                 3.4e38f, -3.4e38f, NAN,   -INFINITY, INFINITY,          1e-45f};
        memcpy(v + 256, extra, sizeof extra);
        for (int32_t map = 0; map < PE_COLORMAP_COUNT; map++) {
            CHECK(pe_heatmap_colorize(a, v, N, map, lo, hi, NULL, scale) == PE_OK, "scale range %zu status", r);
            const uint8_t *lut = pe_colormap_table(map);
            for (int i = 0; i < N; i++) {
                if (!isfinite(v[i])) continue;
                const int want = ref_curve_entry(v[i], lo, hi, scale);
                const int exact = memcmp(a + 4 * i, lut + 4 * want, 4) == 0;
                const int near = (want > 0 && memcmp(a + 4 * i, lut + 4 * (want - 1), 4) == 0) ||
                                 (want < 255 && memcmp(a + 4 * i, lut + 4 * (want + 1), 4) == 0);
                CHECK(exact || near, "scale %d [%g, %g] value %g: entry %d, want %d", scale, lo, hi, v[i],
                      entry_of(a + 4 * i, map), want);
                off_by_one += !exact;
            }
            // Zeros and negatives take the bottom entry; the ends of the range the two ends.
            for (int i = 256; i < 259; i++)
                CHECK(memcmp(a + 4 * i, lut, 4) == 0, "scale %d: %g → entry 0", scale, v[i]);
            CHECK(memcmp(a + 4 * 262, lut + 4 * 255, 4) == 0, "scale %d: 3.4e38 → entry 255", scale);
            const uint8_t *special = pe_colormap_default_special(map);
            CHECK(memcmp(a + 4 * 264, special + 4 * PE_SPECIAL_NAN, 4) == 0, "scale %d NaN colour", scale);
            CHECK(memcmp(a + 4 * 265, special + 4 * PE_SPECIAL_NEG_INF, 4) == 0, "scale %d -Inf colour", scale);
            CHECK(memcmp(a + 4 * 266, special + 4 * PE_SPECIAL_POS_INF, 4) == 0, "scale %d +Inf colour", scale);
            static const int32_t froms[] = {3, 250, 255};   // finite, then non-finite lanes
            for (size_t f = 0; f < sizeof froms / sizeof froms[0]; f++) {
                const int32_t from = froms[f];
                for (int32_t n = 0; n <= 13; n++) {   // every tail of the 4-wide loop
                    memset(a, 1, sizeof a);
                    memset(b, 2, sizeof b);
                    pe_heatmap_colorize_impl(a, v + from, n, map, lo, hi, special, scale, 1);
                    pe_heatmap_colorize_impl(b, v + from, n, map, lo, hi, special, scale, 0);
                    CHECK(memcmp(a, b, 4 * (size_t)n) == 0, "scale %d: SIMD and scalar differ at count %d", scale, n);
                }
            }
            cases++;
        }
    }
    // pe_heatmap with a scale: the scale's colours of the resampled values (weights ≈ 1/i, causal).
    const int rows = 37, cols = 37, w = 11, hgt = 13;
    const float win[4] = {0.0f, (float)cols, 0.0f, (float)rows};
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++) table[i * cols + j] = j <= i ? 1.0f / (float)(i + 1) : 0.0f;
    for (int32_t scale = 0; scale < PE_SCALE_COUNT; scale++) {
        const double lo = scale == PE_SCALE_LOG ? 1.0 / 37.0 : 0.0;
        CHECK(pe_heatmap(rgba, scratch, table, rows, cols, w, hgt, win, 0, lo, 1.0, NULL, scale) == PE_OK, "scale %d",
              scale);
        CHECK(pe_heatmap_values(vs, scratch, table, rows, cols, w, hgt, win) == PE_OK, "values %d", scale);
        CHECK(pe_heatmap_colorize(ref_rgba, vs, w * hgt, 0, lo, 1.0, NULL, scale) == PE_OK, "colorize %d", scale);
        CHECK(memcmp(rgba, ref_rgba, 4 * (size_t)w * hgt) == 0, "pe_heatmap's colours, scale %d", scale);
    }
    printf("  colour scales sqrt and log: %d cases, %d entries one off the long double reference\n", cases, off_by_one);
}

static void test_statuses(void) {
    float t[12] = {0};
    float win[4] = {0, 3, 0, 4};
    float out[4];
    uint8_t px[16];
    int32_t need = pe_heatmap_scratch_bytes(3, 2);
    CHECK(need > 0 && need <= (int32_t)sizeof scratch, "scratch bytes %d", need);
    CHECK(pe_heatmap_scratch_bytes(0, 2) == 0 && pe_heatmap_scratch_bytes(3, 0) == 0, "scratch bytes of bad sizes");
    CHECK(pe_heatmap(px, scratch, t, 4, 3, 2, 2, win, 0, 0.0f, 1.0f, NULL, 0) == PE_OK, "good call");
    CHECK(pe_heatmap(NULL, scratch, t, 4, 3, 2, 2, win, 0, 0.0f, 1.0f, NULL, 0) == PE_ERR_ARG(1), "out NULL");
    CHECK(pe_heatmap(px, NULL, t, 4, 3, 2, 2, win, 0, 0.0f, 1.0f, NULL, 0) == PE_ERR_ARG(2), "scratch NULL");
    CHECK(pe_heatmap(px, scratch + 4, t, 4, 3, 2, 2, win, 0, 0.0f, 1.0f, NULL, 0) == PE_ERR_ARG(2),
          "scratch unaligned");
    CHECK(pe_heatmap(px, scratch, NULL, 4, 3, 2, 2, win, 0, 0.0f, 1.0f, NULL, 0) == PE_ERR_ARG(3), "table NULL");
    CHECK(pe_heatmap(px, scratch, t, 0, 3, 2, 2, win, 0, 0.0f, 1.0f, NULL, 0) == PE_ERR_ARG(4), "rows 0");
    CHECK(pe_heatmap(px, scratch, t, 4, -1, 2, 2, win, 0, 0.0f, 1.0f, NULL, 0) == PE_ERR_ARG(5), "cols -1");
    CHECK(pe_heatmap(px, scratch, t, 1 << 14, 1 << 14, 2, 2, win, 0, 0.0f, 1.0f, NULL, 0) == PE_ERR_ARG(5),
          "rows·cols");
    CHECK(pe_heatmap(px, scratch, t, 4, 3, 0, 2, win, 0, 0.0f, 1.0f, NULL, 0) == PE_ERR_ARG(6), "width 0");
    CHECK(pe_heatmap(px, scratch, t, 4, 3, 8193, 2, win, 0, 0.0f, 1.0f, NULL, 0) == PE_ERR_ARG(6), "width 8193");
    CHECK(pe_heatmap(px, scratch, t, 4, 3, 2, 0, win, 0, 0.0f, 1.0f, NULL, 0) == PE_ERR_ARG(7), "height 0");
    CHECK(pe_heatmap(px, scratch, t, 4, 3, 2, 2, NULL, 0, 0.0f, 1.0f, NULL, 0) == PE_ERR_ARG(8), "window NULL");
    const float bad[][4] = {{-0.5f, 3, 0, 4}, {0, 3.5f, 0, 4}, {2, 2, 0, 4},       {0, 3, 1, 0.5f},
                            {0, 3, 0, 4.5f},  {NAN, 3, 0, 4},  {0, INFINITY, 0, 4}};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
        CHECK(pe_heatmap(px, scratch, t, 4, 3, 2, 2, bad[k], 0, 0.0f, 1.0f, NULL, 0) == PE_ERR_ARG(8), "window %zu", k);
    CHECK(pe_heatmap(px, scratch, t, 4, 3, 2, 2, win, 3, 0.0f, 1.0f, NULL, 0) == PE_ERR_ARG(9), "map 3");
    CHECK(pe_heatmap(px, scratch, t, 4, 3, 2, 2, win, 0, NAN, 1.0f, NULL, 0) == PE_ERR_ARG(10), "vmin NaN");
    CHECK(pe_heatmap(px, scratch, t, 4, 3, 2, 2, win, 0, 1.0f, 1.0f, NULL, 0) == PE_ERR_ARG(11), "vmax = vmin");
    CHECK(pe_heatmap(px, scratch, t, 4, 3, 2, 2, win, 0, -INFINITY, 1.0, NULL, 0) == PE_ERR_ARG(10), "vmin -Inf");
    CHECK(pe_heatmap(px, scratch, t, 4, 3, 2, 2, win, 0, 0.0, INFINITY, NULL, 0) == PE_ERR_ARG(11), "vmax Inf");
    CHECK(pe_heatmap(px, scratch, t, 4, 3, 2, 2, win, 0, 0.0, 1e-310, NULL, 0) == PE_ERR_ARG(11), "vmax - vmin 1e-310");
    CHECK(pe_heatmap(px, scratch, t, 4, 3, 2, 2, win, 0, 2.0, 1.0, NULL, 0) == PE_ERR_ARG(11), "vmax < vmin");
    CHECK(pe_heatmap(px, scratch, t, 4, 3, 2, 2, win, 0, -1e308, 1e308, NULL, 0) == PE_OK, "vmin -1e308, vmax 1e308");
    CHECK(pe_heatmap(px, scratch, t, 4, 3, 2, 2, win, 0, 0.0, 1e-37, NULL, 0) == PE_OK, "vmin 0, vmax 1e-37");
    CHECK(pe_heatmap(px, scratch, t, 4, 3, 2, 2, win, 0, 1.0, 1.0 + 1e-9, NULL, 0) == PE_OK, "ends equal in float32");
    CHECK(pe_heatmap_colorize(px, t, 4, 0, 0.0, 1.0, NULL, 0) == PE_OK, "colorize good call");
    CHECK(pe_heatmap_colorize(NULL, t, 4, 0, 0.0, 1.0, NULL, 0) == PE_ERR_ARG(1), "colorize out NULL");
    CHECK(pe_heatmap_colorize(px, NULL, 4, 0, 0.0, 1.0, NULL, 0) == PE_ERR_ARG(2), "colorize values NULL");
    CHECK(pe_heatmap_colorize(px, NULL, 0, 0, 0.0, 1.0, NULL, 0) == PE_OK, "colorize nothing");
    CHECK(pe_heatmap_colorize(px, t, -1, 0, 0.0, 1.0, NULL, 0) == PE_ERR_ARG(3), "colorize count -1");
    CHECK(pe_heatmap_colorize(px, t, 4, 3, 0.0, 1.0, NULL, 0) == PE_ERR_ARG(4), "colorize map 3");
    CHECK(pe_heatmap_colorize(px, t, 4, 0, NAN, 1.0, NULL, 0) == PE_ERR_ARG(5), "colorize vmin NaN");
    CHECK(pe_heatmap_colorize(px, t, 4, 0, 0.0, 5e-324, NULL, 0) == PE_ERR_ARG(6), "colorize too narrow");
    CHECK(pe_heatmap_colorize(px, t, 4, 0, 0.0, -1.0, NULL, 0) == PE_ERR_ARG(6), "colorize vmax < vmin");
    CHECK(pe_heatmap_colorize(px, t, 4, 0, 0.0, 1.0, NULL, 3) == PE_ERR_ARG(8), "colorize scale 3");
    CHECK(pe_heatmap_colorize(px, t, 4, 0, 0.0, 1.0, NULL, -1) == PE_ERR_ARG(8), "colorize scale -1");
    CHECK(pe_heatmap_colorize(px, t, 4, 0, 0.0, 1.0, NULL, PE_SCALE_SQRT) == PE_OK, "colorize sqrt from 0");
    CHECK(pe_heatmap_colorize(px, t, 4, 0, -0.5, 1.0, NULL, PE_SCALE_SQRT) == PE_ERR_ARG(5), "colorize sqrt vmin < 0");
    CHECK(pe_heatmap_colorize(px, t, 4, 0, 0.0, 1.0, NULL, PE_SCALE_LOG) == PE_ERR_ARG(5), "colorize log vmin 0");
    CHECK(pe_heatmap_colorize(px, t, 4, 0, 1e-300, 1.0, NULL, PE_SCALE_LOG) == PE_OK, "colorize log 1e-300");
    CHECK(pe_heatmap_colorize(px, t, 4, 0, 1.0, 1.0 + 1e-17, NULL, PE_SCALE_LOG) == PE_ERR_ARG(6),
          "colorize log ends equal");
    CHECK(pe_heatmap(px, scratch, t, 4, 3, 2, 2, win, 0, 0.0, 1.0, NULL, 3) == PE_ERR_ARG(13), "scale 3");
    CHECK(pe_heatmap(px, scratch, t, 4, 3, 2, 2, win, 0, 0.0, 1.0, NULL, PE_SCALE_LOG) == PE_ERR_ARG(10), "log vmin 0");
    CHECK(pe_heatmap(px, scratch, t, 4, 3, 2, 2, win, 0, -1.0, 1.0, NULL, PE_SCALE_SQRT) == PE_ERR_ARG(10),
          "sqrt vmin -1");
    CHECK(pe_heatmap(px, scratch, t, 4, 3, 2, 2, win, 0, 1e-6, 1.0, NULL, PE_SCALE_LOG) == PE_OK, "log good call");
    CHECK(pe_heatmap_values(NULL, scratch, t, 4, 3, 2, 2, win) == PE_ERR_ARG(1), "values out NULL");
    CHECK(pe_heatmap_values(out, scratch, t, 4, 3, 2, 2, win) == PE_OK, "values good call");
    float rg[2];
    int32_t fl;
    CHECK(pe_heatmap_values_scan(out, scratch, t, 4, 3, 2, 2, win, rg, &fl) == PE_OK, "values_scan good call");
    CHECK(pe_heatmap_values_scan(NULL, scratch, t, 4, 3, 2, 2, win, rg, &fl) == PE_ERR_ARG(1), "values_scan out NULL");
    CHECK(pe_heatmap_values_scan(out, scratch, t, 0, 3, 2, 2, win, rg, &fl) == PE_ERR_ARG(4), "values_scan rows 0");
    CHECK(pe_heatmap_values_scan(out, scratch, t, 4, 3, 2, 2, win, NULL, &fl) == PE_ERR_ARG(9),
          "values_scan range NULL");
    CHECK(pe_heatmap_values_scan(out, scratch, t, 4, 3, 2, 2, win, rg, NULL) == PE_ERR_ARG(10),
          "values_scan flags NULL");
    float range[2];
    int32_t flags;
    CHECK(pe_heatmap_scan(NULL, &flags, t, 1) == PE_ERR_ARG(1), "scan range NULL");
    CHECK(pe_heatmap_scan(range, NULL, t, 1) == PE_ERR_ARG(2), "scan flags NULL");
    CHECK(pe_heatmap_scan(range, &flags, NULL, 1) == PE_ERR_ARG(3), "scan values NULL");
    CHECK(pe_heatmap_scan(range, &flags, t, -1) == PE_ERR_ARG(4), "scan count -1");
}

int main(void) {
    test_values();
    test_single_pass();
    test_aliasing();
    test_scan();
    test_values_scan();
    test_wide_colors();
    test_scales();
    test_statuses();
    return test_summary("test_heatmap");
}
