// Heatmap pixels from a float table (see heatmap.h for the filter and why).
//
// Two passes per output row y, over the columns [c0, c1) any pixel of the window reads:
//   1. down (SIMD, 4 columns at a time, scalar tail), over the rows j of pixel row y with their
//      weights wy_j (W = Σ_j wy_j, in double): acc[c] = Σ_j wy_j·T[j][c] over the finite values,
//      miss[c] = Σ_j wy_j over the non-finite ones (in double: W − miss[c] loses nothing when
//      most of a pixel is masked), flags[c] = which non-finite kinds occurred
//      (bit 0 −Inf, bit 1 +Inf, bit 2 NaN). A block of 4 finite values (the usual case) only
//      adds to acc; miss and flags are touched where a value is not finite.
//   2. across (scalar; a pixel covers a few cells): v = Σ_c wx_c·acc[c] / Σ_c wx_c·(W − miss[c]),
//      the 2-D weighted mean over the finite cells of the pixel's footprint, since the tent
//      weights are separable: w(j, c) = wy_j·wx_c. (W − miss[c] is exactly 0 when every value is
//      missing: miss then sums the same weights in the same order as W.) A row with nothing
//      missing divides by W·Σ_c wx_c.
// Then the row of values is coloured by pe_colorize's own loop (c/colormap.c) straight into out.
// The scalar and SIMD passes do the same float operations in the same order, so they agree bit
// for bit (and with the scalar WebAssembly build).
#include "heatmap.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "colormap.h"
#include "pe_simd.h"

#define HEATMAP_MAX_SIDE 8192

enum { FLAG_NEG_INF = 1, FLAG_POS_INF = 2, FLAG_NAN = 4 };

static int32_t pad4(int32_t n) { return (n + 3) & ~3; }

// Upper bound of the (cell, weight) pairs of an axis of n pixels over a window of at most len
// cells: a pixel's tent spans 2s cells, so at most 2s + 2 of them, and Σ 2s = 2·(b − a) ≤ 2·len.
static int32_t axis_pairs(int32_t len, int32_t n) { return 2 * len + 2 * n + 4; }

int32_t pe_heatmap_scratch_bytes(int32_t cols, int32_t width) {
    if (cols < 1 || cols > PE_MAX_ELEMENTS || width < 1 || width > HEATMAP_MAX_SIDE) return 0;
    // miss (doubles), acc, flags (cols each), the row of values, per pixel its first pair, count and weight
    // sum (width each), the pairs' cells and weights.
    int64_t words = 4 * (int64_t)pad4(cols) + 4 * (int64_t)pad4(width) + 2 * (int64_t)pad4(axis_pairs(cols, width));
    int64_t bytes = 4 * words;
    return bytes > INT32_MAX ? 0 : (int32_t)bytes;
}

// ∫_{-∞}^{u} T(t) dt for the unit-area tent T of half-width r (r > 1 here):
//   (u + r)² / 2r² on [−r, 0), 1 − (r − u)² / 2r² on [0, r), 0 before, 1 after.
static double tent_cdf(double u, double r) {
    if (u <= -r) return 0.0;
    if (u >= r) return 1.0;
    if (u < 0.0) return (u + r) * (u + r) / (2.0 * r * r);
    return 1.0 - (r - u) * (r - u) / (2.0 * r * r);
}

// The cells and weights of pixel i of an axis whose window [a, b) spans n pixels of len cells.
// Writes at most axis_pairs' share; returns the count. Magnified (s ≤ 1): the cell under the
// centre, weight 1. Minified: the tent's cells inside [0, len) with w_j = F(j+1−c) − F(j−c).
static int32_t axis_pixel(double a, double s, int32_t i, int32_t len, int32_t *cell, float *weight) {
    double c = a + (i + 0.5) * s;
    if (s <= 1.0) {
        int32_t j = (int32_t)floor(c);
        cell[0] = j < 0 ? 0 : j >= len ? len - 1 : j;
        weight[0] = 1.0f;
        return 1;
    }
    int32_t j0 = (int32_t)floor(c - s), j1 = (int32_t)ceil(c + s);
    if (j0 < 0) j0 = 0;
    if (j1 > len) j1 = len;
    int32_t k = 0;
    for (int32_t j = j0; j < j1; j++) {
        double w = tent_cdf(j + 1 - c, s) - tent_cdf(j - c, s);
        if (w > 1e-12) {
            cell[k] = j;
            weight[k] = (float)w;
            k++;
        }
    }
    if (k == 0) {   // cannot happen for a window inside [0, len]; keep one cell to stay defined
        cell[0] = j0 < len ? j0 : len - 1;
        weight[0] = 1.0f;
        k = 1;
    }
    return k;
}

// Pass 1 for one source row: acc += w·v where v is finite; miss += w and flags |= its kind where
// not. Returns 1 when a value was not finite.
static int32_t down_scalar(float *acc, double *miss, int32_t *flags, const float *row, int32_t n, float w) {
    int32_t any = 0;
    for (int32_t c = 0; c < n; c++) {
        float v = row[c];
        if (v - v == 0.0f) {
            acc[c] += w * v;
        } else {
            miss[c] += (double)w;
            flags[c] |= v != v ? FLAG_NAN : v > 0.0f ? FLAG_POS_INF : FLAG_NEG_INF;
            any = 1;
        }
    }
    return any;
}

#if PE_HAVE_SIMD
static int32_t down_simd(float *acc, double *miss, int32_t *flags, const float *row, int32_t n, float w) {
    const v128_t w4 = wasm_f32x4_splat(w), zero = wasm_f32x4_splat(0.0f);
    int32_t any = 0, c = 0;
    for (; c + 4 <= n; c += 4) {
        v128_t v = wasm_v128_load(row + c);
        v128_t finite = wasm_f32x4_eq(wasm_f32x4_sub(v, v), zero);   // v − v is NaN for NaN and ±Inf
        if (wasm_i32x4_all_true(finite)) {
            wasm_v128_store(acc + c, wasm_f32x4_add(wasm_v128_load(acc + c), wasm_f32x4_mul(w4, v)));
            continue;
        }
        // Rare: non-finite lanes add +0 to acc (the product's bits are masked away; acc is never
        // −0), as the scalar loop leaves it alone; their weights go to miss lane by lane.
        v128_t add = wasm_v128_and(wasm_f32x4_mul(w4, v), finite);
        wasm_v128_store(acc + c, wasm_f32x4_add(wasm_v128_load(acc + c), add));
        float lanes[4];
        wasm_v128_store(lanes, v);
        for (int32_t l = 0; l < 4; l++) {
            float x = lanes[l];
            if (x - x == 0.0f) continue;
            miss[c + l] += (double)w;
            flags[c + l] |= x != x ? FLAG_NAN : x > 0.0f ? FLAG_POS_INF : FLAG_NEG_INF;
        }
        any = 1;
    }
    return down_scalar(acc + c, miss + c, flags + c, row + c, n - c, w) | any;
}
#endif

// A pixel with no finite cell: −Inf if only −Inf occurred, +Inf if only +Inf, NaN otherwise.
static float no_finite(int32_t flags) {
    if (flags == FLAG_NEG_INF) return -INFINITY;
    if (flags == FLAG_POS_INF) return INFINITY;
    return NAN;
}

typedef struct {
    float *acc, *vals;
    double *miss;
    int32_t *flags;
    int32_t *xfirst, *xcount, *xcell;
    float *xweight, *xsum;
} heatmap_scratch;

static heatmap_scratch carve(void *scratch, int32_t cols, int32_t width) {
    heatmap_scratch s;
    float *f = (float *)scratch;
    int32_t pc = pad4(cols), pw = pad4(width), pp = pad4(axis_pairs(cols, width));
    s.miss = (double *)scratch;   // 2·pc words, first: 8-byte aligned
    s.acc = f + 2 * pc;
    s.flags = (int32_t *)(void *)(f + 3 * pc);
    s.vals = f + 4 * pc;
    s.xfirst = (int32_t *)(void *)(f + 4 * pc + pw);
    s.xcount = (int32_t *)(void *)(f + 4 * pc + 2 * pw);
    s.xsum = f + 4 * pc + 3 * pw;
    s.xcell = (int32_t *)(void *)(f + 4 * pc + 4 * pw);
    s.xweight = f + 4 * pc + 4 * pw + pp;
    return s;
}

static int32_t down(heatmap_scratch *s, const float *row, int32_t nc, float w, int32_t simd) {
#if PE_HAVE_SIMD
    if (simd) return down_simd(s->acc, s->miss, s->flags, row, nc, w);
#else
    (void)simd;
#endif
    return down_scalar(s->acc, s->miss, s->flags, row, nc, w);
}

// Pass 2: the row of values (s->vals) from the column sums of pass 1; total = W, any: a value
// of this pixel row was not finite.
static void across(heatmap_scratch *s, int32_t width, int32_t c0, double total, int32_t any) {
    for (int32_t x = 0; x < width; x++) {
        const int32_t *cell = s->xcell + s->xfirst[x];
        const float *w = s->xweight + s->xfirst[x];
        const int32_t n = s->xcount[x];
        float num = 0.0f;
        if (!any) {
            for (int32_t k = 0; k < n; k++) num += w[k] * s->acc[cell[k] - c0];
            s->vals[x] = num / ((float)total * s->xsum[x]);
            continue;
        }
        float den = 0.0f;
        int32_t fl = 0;
        for (int32_t k = 0; k < n; k++) {
            int32_t c = cell[k] - c0;
            num += w[k] * s->acc[c];
            den += w[k] * (float)(total - s->miss[c]);
            fl |= s->flags[c];
        }
        s->vals[x] = den > 0.0f ? num / den : no_finite(fl);
    }
}

// Runs the whole window; colours each row into rgba when it is not NULL, else copies the values
// to values_out. Arguments already checked.
static void heatmap_run(uint8_t *rgba, float *values_out, void *scratch, const float *table, int32_t rows, int32_t cols,
                        int32_t width, int32_t height, const float *window, int32_t map, float vmin, float vmax,
                        const uint8_t *special, int32_t simd) {
    heatmap_scratch s = carve(scratch, cols, width);
    double x0 = window[0], x1 = window[1], y0 = window[2], y1 = window[3];
    double sx = (x1 - x0) / width, sy = (y1 - y0) / height;
    // The horizontal plan, once: each pixel's cells and weights, and the columns any of them reads.
    int32_t used = 0, c0 = cols, c1 = 0;
    for (int32_t x = 0; x < width; x++) {
        int32_t n = axis_pixel(x0, sx, x, cols, s.xcell + used, s.xweight + used);
        s.xfirst[x] = used;
        s.xcount[x] = n;
        float sum = 0.0f;
        for (int32_t k = 0; k < n; k++) sum += s.xweight[used + k];
        s.xsum[x] = sum;
        if (s.xcell[used] < c0) c0 = s.xcell[used];
        if (s.xcell[used + n - 1] + 1 > c1) c1 = s.xcell[used + n - 1] + 1;
        used += n;
    }
    const int32_t nc = c1 - c0;
    // miss and flags are written only where a value is not finite (down returns 1 then): they
    // are cleared before the first row and after a row that wrote them, not for every row.
    int32_t dirty = 1;
    for (int32_t y = 0; y < height; y++) {
        memset(s.acc, 0, (size_t)nc * sizeof(float));
        if (dirty) {
            memset(s.miss, 0, (size_t)nc * sizeof(double));
            memset(s.flags, 0, (size_t)nc * sizeof(int32_t));
        }
        // The pixel row's rows, one at a time (axis_pixel's formula, without storing the pairs).
        int32_t any = 0;
        double total = 0.0;
        if (sy <= 1.0) {
            int32_t cell;
            float weight;
            axis_pixel(y0, sy, y, rows, &cell, &weight);
            any = down(&s, table + (ptrdiff_t)cell * cols + c0, nc, weight, simd);
            total = weight;
        } else {
            double c = y0 + (y + 0.5) * sy;
            int32_t j0 = (int32_t)floor(c - sy), j1 = (int32_t)ceil(c + sy);
            if (j0 < 0) j0 = 0;
            if (j1 > rows) j1 = rows;
            for (int32_t j = j0; j < j1; j++) {
                double w = tent_cdf(j + 1 - c, sy) - tent_cdf(j - c, sy);
                if (!(w > 1e-12)) continue;
                any |= down(&s, table + (ptrdiff_t)j * cols + c0, nc, (float)w, simd);
                total += (double)(float)w;
            }
        }
        dirty = any;
        across(&s, width, c0, total, any);
        if (rgba) {
#if PE_HAVE_SIMD
            pe_colorize_simd(rgba + 4 * (ptrdiff_t)y * width, s.vals, width, map, vmin, vmax, special);
#else
            pe_colorize_scalar(rgba + 4 * (ptrdiff_t)y * width, s.vals, width, map, vmin, vmax, special);
#endif
        } else {
            memcpy(values_out + (ptrdiff_t)y * width, s.vals, (size_t)width * sizeof(float));
        }
    }
}

void pe_heatmap_values_impl(float *out, void *scratch, const float *table, int32_t rows, int32_t cols, int32_t width,
                            int32_t height, const float *window, int32_t simd) {
    heatmap_run(NULL, out, scratch, table, rows, cols, width, height, window, 0, 0.0f, 1.0f, NULL, simd);
}

// Checks arguments 2..8 (shared by pe_heatmap and pe_heatmap_values); PE_OK when good.
static pe_status check_table(const void *scratch, const float *table, int32_t rows, int32_t cols, int32_t width,
                             int32_t height, const float *window) {
    if (scratch == NULL || ((uintptr_t)scratch & 15) != 0) return PE_ERR_ARG(2);
    if (table == NULL) return PE_ERR_ARG(3);
    if (rows < 1 || rows > PE_MAX_ELEMENTS) return PE_ERR_ARG(4);
    if (cols < 1 || cols > PE_MAX_ELEMENTS || (int64_t)rows * cols > PE_MAX_ELEMENTS) return PE_ERR_ARG(5);
    if (width < 1 || width > HEATMAP_MAX_SIDE) return PE_ERR_ARG(6);
    if (height < 1 || height > HEATMAP_MAX_SIDE || (int64_t)width * height > PE_MAX_ELEMENTS) return PE_ERR_ARG(7);
    if (window == NULL) return PE_ERR_ARG(8);
    for (int k = 0; k < 4; k++)
        if (!isfinite(window[k])) return PE_ERR_ARG(8);
    if (!(window[0] >= 0.0f && window[0] < window[1] && window[1] <= (float)cols)) return PE_ERR_ARG(8);
    if (!(window[2] >= 0.0f && window[2] < window[3] && window[3] <= (float)rows)) return PE_ERR_ARG(8);
    return PE_OK;
}

pe_status pe_heatmap(uint8_t *out, void *scratch, const float *table, int32_t rows, int32_t cols, int32_t width,
                     int32_t height, const float *window, int32_t map, float vmin, float vmax, const uint8_t *special) {
    if (out == NULL) return PE_ERR_ARG(1);
    pe_status st = check_table(scratch, table, rows, cols, width, height, window);
    if (st != PE_OK) return st;
    if (map < 0 || map >= PE_COLORMAP_COUNT) return PE_ERR_ARG(9);
    if (!isfinite(vmin)) return PE_ERR_ARG(10);
    float range = vmax - vmin;
    if (!isfinite(vmax) || !(vmax > vmin) || !isfinite(range) || !isfinite(256.0f / range)) return PE_ERR_ARG(11);
    if (special == NULL) special = pe_colormap_default_special(map);
    heatmap_run(out, NULL, scratch, table, rows, cols, width, height, window, map, vmin, vmax, special, PE_HAVE_SIMD);
    return PE_OK;
}

pe_status pe_heatmap_values(float *out, void *scratch, const float *table, int32_t rows, int32_t cols, int32_t width,
                            int32_t height, const float *window) {
    if (out == NULL) return PE_ERR_ARG(1);
    pe_status st = check_table(scratch, table, rows, cols, width, height, window);
    if (st != PE_OK) return st;
    pe_heatmap_values_impl(out, scratch, table, rows, cols, width, height, window, PE_HAVE_SIMD);
    return PE_OK;
}

static void scan_scalar(float *lo, float *hi, int32_t *flags, const float *v, int32_t n) {
    for (int32_t i = 0; i < n; i++) {
        float x = v[i];
        if (x - x == 0.0f) {
            if (x < *lo) *lo = x;
            if (x > *hi) *hi = x;
        } else {
            *flags |= x != x ? FLAG_NAN : x > 0.0f ? FLAG_POS_INF : FLAG_NEG_INF;
        }
    }
}

pe_status pe_heatmap_scan(float *range, int32_t *flags, const float *values, int32_t count) {
    if (range == NULL) return PE_ERR_ARG(1);
    if (flags == NULL) return PE_ERR_ARG(2);
    if (values == NULL && count > 0) return PE_ERR_ARG(3);
    if (count < 0 || count > PE_MAX_ELEMENTS) return PE_ERR_ARG(4);
    float lo = INFINITY, hi = -INFINITY;
    int32_t fl = 0;
    int32_t i = 0;
#if PE_HAVE_SIMD
    // Finite lanes only: non-finite ones are replaced by +Inf for the minimum, −Inf for the maximum.
    const v128_t zero = wasm_f32x4_splat(0.0f), ninf = wasm_f32x4_splat(-INFINITY), pinf = wasm_f32x4_splat(INFINITY);
    v128_t lo4 = pinf, hi4 = ninf, any = wasm_i32x4_splat(0);
    for (; i + 4 <= count; i += 4) {
        v128_t v = wasm_v128_load(values + i);
        v128_t finite = wasm_f32x4_eq(wasm_f32x4_sub(v, v), zero);
        lo4 = wasm_f32x4_pmin(lo4, wasm_v128_bitselect(v, pinf, finite));
        hi4 = wasm_f32x4_pmax(hi4, wasm_v128_bitselect(v, ninf, finite));
        any = wasm_v128_or(any, wasm_v128_not(finite));
    }
    float l[4], h[4];
    wasm_v128_store(l, lo4);
    wasm_v128_store(h, hi4);
    for (int k = 0; k < 4; k++) {
        if (l[k] < lo) lo = l[k];
        if (h[k] > hi) hi = h[k];
    }
    if (wasm_v128_any_true(any)) scan_scalar(&lo, &hi, &fl, values, i);   // rare: name the kinds
#endif
    scan_scalar(&lo, &hi, &fl, values + i, count - i);
    range[0] = lo;
    range[1] = hi;
    *flags = fl;
    return PE_OK;
}
