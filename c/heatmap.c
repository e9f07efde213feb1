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
// Then the row of values is coloured straight into out: by pe_colorize's own loop (c/colormap.c)
// where float32 holds the colour range, in float64 otherwise (see "colours" below).
//
// Minified rows (more than one table row per pixel row): the tents of neighbouring pixel rows
// overlap, so each table row belongs to two or three of them. Rather than reading the row once
// per pixel row, pass 1 walks the table rows once, in order, and adds each row into every pixel
// row that is open at it (each has its own slot of acc, miss and flags; a slot is closed, passed
// across and coloured after its last row). Pixel row y is open at row j when
// floor(c_y − s) ≤ j < ceil(c_y + s), i.e. c_y lies in the open interval (j − s, j + 1 + s) of
// length 2s + 1 < 3s; the centres c_y are s apart, so at most 3 rows are open at once (SLOTS = 4
// leaves a margin for rounding). Every pixel row still adds its rows in increasing j, with the
// same float operations: the single pass gives the same bits as one pass per pixel row (tested),
// and reads a 4096 × 4096 table once instead of about twice.
// The scalar and SIMD passes do the same float operations in the same order, so they agree bit
// for bit (and with the scalar WebAssembly build).
#include "heatmap.h"

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "colormap.h"
#include "pe_simd.h"

#define HEATMAP_MAX_SIDE 8192
#define SLOTS 4                          // pixel rows open at once in the single pass (at most 3 needed)
#define SINGLE_PASS_MAX_COLS (1 << 20)   // wider tables keep one slot (scratch ≤ 64 MiB)

enum { FLAG_NEG_INF = 1, FLAG_POS_INF = 2, FLAG_NAN = 4 };

static int32_t pad4(int32_t n) { return (n + 3) & ~3; }

// Upper bound of the (cell, weight) pairs of an axis of n pixels over a window of at most len
// cells: a pixel's tent spans 2s cells, so at most 2s + 2 of them, and Σ 2s = 2·(b − a) ≤ 2·len.
static int32_t axis_pairs(int32_t len, int32_t n) { return 2 * len + 2 * n + 4; }

static int32_t slots_for(int32_t cols) { return cols <= SINGLE_PASS_MAX_COLS ? SLOTS : 1; }

int32_t pe_heatmap_scratch_bytes(int32_t cols, int32_t width) {
    if (cols < 1 || cols > PE_MAX_ELEMENTS || width < 1 || width > HEATMAP_MAX_SIDE) return 0;
    // Per slot: miss (doubles), acc, flags (cols each); the row of values, per pixel its first pair,
    // count and weight sum (width each), the pairs' cells and weights.
    int64_t words = 4 * (int64_t)slots_for(cols) * pad4(cols) + 4 * (int64_t)pad4(width) +
                    2 * (int64_t)pad4(axis_pairs(cols, width));
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

// One pixel row's column sums (pass 1) and what pass 2 needs of them.
typedef struct {
    float *acc;
    double *miss;
    int32_t *flags;
    double total;    // W: the sum of the weights of the rows added
    int32_t any;     // a value added was not finite (miss and flags were written)
    int32_t dirty;   // miss and flags hold values from an earlier pixel row
} heatmap_slot;

// The kind bit of a value that is not finite.
static int32_t kind_of(float v) { return v != v ? FLAG_NAN : v > 0.0f ? FLAG_POS_INF : FLAG_NEG_INF; }

// Pass 1 for one source row and the m pixel rows it belongs to (weights w[k] > 0): where v is
// finite acc_k += w_k·v, otherwise miss_k += w_k and flags_k |= its kind. Returns 1 when a value
// of the row was not finite.
static int32_t down_scalar(heatmap_slot *const *sl, const float *w, int32_t m, const float *row, int32_t c_from,
                           int32_t n) {
    int32_t any = 0;
    for (int32_t c = c_from; c < n; c++) {
        float v = row[c];
        if (v - v == 0.0f) {
            for (int32_t k = 0; k < m; k++) sl[k]->acc[c] += w[k] * v;
        } else {
            for (int32_t k = 0; k < m; k++) {
                sl[k]->miss[c] += (double)w[k];
                sl[k]->flags[c] |= kind_of(v);
            }
            any = 1;
        }
    }
    return any;
}

#if PE_HAVE_SIMD
// Rare: the block of 4 values at row + c holds a non-finite value. Non-finite lanes add +0 to acc
// (the product's bits are masked away; acc is never −0), as the scalar loop leaves it alone;
// their weights go to miss lane by lane. Kept out of line: the loops below stay small.
static __attribute__((noinline)) void down_block_rare(heatmap_slot *const *sl, const float *w, int32_t m,
                                                      const float *row, int32_t c) {
    const v128_t v = wasm_v128_load(row + c);
    const v128_t finite = wasm_f32x4_eq(wasm_f32x4_sub(v, v), wasm_f32x4_splat(0.0f));
    float lanes[4];
    wasm_v128_store(lanes, v);
    for (int32_t k = 0; k < m; k++) {
        v128_t add = wasm_v128_and(wasm_f32x4_mul(wasm_f32x4_splat(w[k]), v), finite);
        wasm_v128_store(sl[k]->acc + c, wasm_f32x4_add(wasm_v128_load(sl[k]->acc + c), add));
        for (int32_t l = 0; l < 4; l++) {
            float x = lanes[l];
            if (x - x == 0.0f) continue;
            sl[k]->miss[c + l] += (double)w[k];
            sl[k]->flags[c + l] |= kind_of(x);
        }
    }
}

// M is a constant in each copy (down_simd's switch), so the pixel rows' loop unrolls.
static inline __attribute__((always_inline)) int32_t down_simd_m(heatmap_slot *const *sl, const float *w,
                                                                 const int32_t M, const float *row, int32_t n) {
    const v128_t zero = wasm_f32x4_splat(0.0f);
    v128_t w4[SLOTS];
    float *acc[SLOTS];
    for (int32_t k = 0; k < M; k++) {
        w4[k] = wasm_f32x4_splat(w[k]);
        acc[k] = sl[k]->acc;
    }
    int32_t any = 0, c = 0;
    for (; c + 4 <= n; c += 4) {
        v128_t v = wasm_v128_load(row + c);
        v128_t finite = wasm_f32x4_eq(wasm_f32x4_sub(v, v), zero);   // v − v is NaN for NaN and ±Inf
        if (wasm_i32x4_all_true(finite)) {
            for (int32_t k = 0; k < M; k++)
                wasm_v128_store(acc[k] + c, wasm_f32x4_add(wasm_v128_load(acc[k] + c), wasm_f32x4_mul(w4[k], v)));
            continue;
        }
        down_block_rare(sl, w, M, row, c);
        any = 1;
    }
    return down_scalar(sl, w, M, row, c, n) | any;
}

// Each slot's sums are its own, so four open rows (never more than three in practice) are two pairs.
static int32_t down_simd(heatmap_slot *const *sl, const float *w, int32_t m, const float *row, int32_t n) {
    switch (m) {
    case 1: return down_simd_m(sl, w, 1, row, n);
    case 2: return down_simd_m(sl, w, 2, row, n);
    case 3: return down_simd_m(sl, w, 3, row, n);
    default: return down_simd_m(sl, w, 2, row, n) | down_simd(sl + 2, w + 2, m - 2, row, n);
    }
}
#endif

// A pixel with no finite cell: −Inf if only −Inf occurred, +Inf if only +Inf, NaN otherwise.
static float no_finite(int32_t flags) {
    if (flags == FLAG_NEG_INF) return -INFINITY;
    if (flags == FLAG_POS_INF) return INFINITY;
    return NAN;
}

typedef struct {
    heatmap_slot slot[SLOTS];
    int32_t slots;
    float *vals;
    int32_t *xfirst, *xcount, *xcell;
    float *xweight, *xsum;
} heatmap_scratch;

static heatmap_scratch carve(void *scratch, int32_t cols, int32_t width) {
    heatmap_scratch s;
    float *f = (float *)scratch;
    int32_t pc = pad4(cols), pw = pad4(width), pp = pad4(axis_pairs(cols, width));
    s.slots = slots_for(cols);
    for (int32_t k = 0; k < s.slots; k++) {   // per slot 4·pc words: miss first, 8-byte aligned
        float *base = f + 4 * (size_t)k * (size_t)pc;
        s.slot[k].miss = (double *)(void *)base;
        s.slot[k].acc = base + 2 * pc;
        s.slot[k].flags = (int32_t *)(void *)(base + 3 * pc);
        s.slot[k].dirty = 1;
    }
    f += 4 * (size_t)s.slots * (size_t)pc;
    s.vals = f;
    s.xfirst = (int32_t *)(void *)(f + pw);
    s.xcount = (int32_t *)(void *)(f + 2 * pw);
    s.xsum = f + 3 * pw;
    s.xcell = (int32_t *)(void *)(f + 4 * pw);
    s.xweight = f + 4 * pw + pp;
    return s;
}

static int32_t down(heatmap_slot *const *sl, const float *w, int32_t m, const float *row, int32_t nc, int32_t simd) {
#if PE_HAVE_SIMD
    if (simd) return down_simd(sl, w, m, row, nc);
#else
    (void)simd;
#endif
    return down_scalar(sl, w, m, row, 0, nc);
}

// A slot opened for a new pixel row: zero sums (miss and flags only if an earlier row wrote them).
static void open_slot(heatmap_slot *sl, int32_t nc) {
    memset(sl->acc, 0, (size_t)nc * sizeof(float));
    if (sl->dirty) {
        memset(sl->miss, 0, (size_t)nc * sizeof(double));
        memset(sl->flags, 0, (size_t)nc * sizeof(int32_t));
    }
    sl->total = 0.0;
    sl->any = 0;
}

// Σ_k w[k]·acc[cell[k] − c0] for k < n, in k order (one pixel of pass 2).
static inline float tap_sum(const float *w, const int32_t *cell, int32_t n, const float *acc, int32_t c0) {
    float num = 0.0f;
    for (int32_t k = 0; k < n; k++) num += w[k] * acc[cell[k] - c0];
    return num;
}

// Pass 2: the row of values (s->vals) from a slot's column sums. Each pixel's sum is a chain of
// dependent adds, so four pixels are summed side by side (each still in its own k order: the
// same bits as one at a time, four times the throughput).
static void across(heatmap_scratch *s, const heatmap_slot *sl, int32_t width, int32_t c0) {
    const double total = sl->total;
    if (!sl->any) {
        const float *acc = sl->acc;
        int32_t x = 0;
        for (; x + 4 <= width; x += 4) {
            const int32_t f0 = s->xfirst[x], f1 = s->xfirst[x + 1], f2 = s->xfirst[x + 2], f3 = s->xfirst[x + 3];
            const int32_t n0 = s->xcount[x], n1 = s->xcount[x + 1], n2 = s->xcount[x + 2], n3 = s->xcount[x + 3];
            int32_t n = n0 < n1 ? n0 : n1;
            n = n < n2 ? n : n2;
            n = n < n3 ? n : n3;
            const float *w = s->xweight;
            const int32_t *cell = s->xcell;
            float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;
            for (int32_t k = 0; k < n; k++) {
                a0 += w[f0 + k] * acc[cell[f0 + k] - c0];
                a1 += w[f1 + k] * acc[cell[f1 + k] - c0];
                a2 += w[f2 + k] * acc[cell[f2 + k] - c0];
                a3 += w[f3 + k] * acc[cell[f3 + k] - c0];
            }
            for (int32_t k = n; k < n0; k++) a0 += w[f0 + k] * acc[cell[f0 + k] - c0];
            for (int32_t k = n; k < n1; k++) a1 += w[f1 + k] * acc[cell[f1 + k] - c0];
            for (int32_t k = n; k < n2; k++) a2 += w[f2 + k] * acc[cell[f2 + k] - c0];
            for (int32_t k = n; k < n3; k++) a3 += w[f3 + k] * acc[cell[f3 + k] - c0];
            s->vals[x] = a0 / ((float)total * s->xsum[x]);
            s->vals[x + 1] = a1 / ((float)total * s->xsum[x + 1]);
            s->vals[x + 2] = a2 / ((float)total * s->xsum[x + 2]);
            s->vals[x + 3] = a3 / ((float)total * s->xsum[x + 3]);
        }
        for (; x < width; x++) {
            const float num = tap_sum(s->xweight + s->xfirst[x], s->xcell + s->xfirst[x], s->xcount[x], sl->acc, c0);
            s->vals[x] = num / ((float)total * s->xsum[x]);
        }
        return;
    }
    for (int32_t x = 0; x < width; x++) {
        const int32_t *cell = s->xcell + s->xfirst[x];
        const float *w = s->xweight + s->xfirst[x];
        const int32_t n = s->xcount[x];
        float num = 0.0f, den = 0.0f;
        int32_t fl = 0;
        for (int32_t k = 0; k < n; k++) {
            int32_t c = cell[k] - c0;
            num += w[k] * sl->acc[c];
            den += w[k] * (float)(total - sl->miss[c]);
            fl |= sl->flags[c];
        }
        s->vals[x] = den > 0.0f ? num / den : no_finite(fl);
    }
}

// --- colours -------------------------------------------------------------------------------------
//
// The colour range comes in float64. Where float32 holds it (see narrow_ok) the colours are
// pe_colorize's own, bit for bit. Otherwise (a table of tiny or subnormal values, e.g. 1e-39 …
// 4e-39, whose width 256 / (vmax − vmin) overflows in float32; ±3e38, whose width overflows;
// vmin −1e308, not a float32 at all) the same index is computed in float64, from halves so that
// vmax − vmin cannot overflow even for −1e308 … 1e308:
//   k = clamp(floor((v/2 − vmin/2) · s), 0, 255),   s = 256 / (vmax/2 − vmin/2),
// i.e. (v − vmin) / (vmax − vmin) · 256.
// v/2 is exact for every float32 (float64 has 971 more exponents below), so only the product rounds.

typedef struct {
    int32_t map;
    int32_t wide;                 // 1: the float64 formula
    float vmin, vmax;             // the float32 range (wide = 0)
    double half_vmin, scale;      // vmin/2 and s (wide = 1)
    const uint8_t *special;       // never NULL
    int32_t curve;                // pe_color_scale: sqrt and log take colorize_curve_* (below)
    double cmin, cvmin, cscale;   // vmin, f(vmin) and 256 / (f(vmax) − f(vmin)) (curve ≠ linear)
} heatmap_colors;

// 1 when pe_colorize's float32 formula holds the range: vmin and vmax finite in float32 (checked
// before the cast: a cast of a double beyond FLT_MAX is undefined in C), vmax > vmin there, and
// vmax − vmin and 256 / (vmax − vmin) finite in float32 (pe_colorize's own conditions).
static int32_t narrow_ok(double vmin, double vmax) {
    if (!(fabs(vmin) <= FLT_MAX && fabs(vmax) <= FLT_MAX)) return 0;
    const float lo = (float)vmin, hi = (float)vmax, width = hi - lo;
    return hi > lo && isfinite(width) && isfinite(256.0f / width);
}

// f of the colour scale (heatmap.h): √ for sqrt, ln for log; x for linear.
static double curve_of(int32_t curve, double x) {
    return curve == PE_SCALE_SQRT ? sqrt(x) : curve == PE_SCALE_LOG ? log(x) : x;
}

// The colours of the range vmin … vmax (finite, checked by check_colors); special NULL = the map's.
static heatmap_colors colors_for(int32_t map, double vmin, double vmax, const uint8_t *special, int32_t curve) {
    heatmap_colors k = {map,   0,    0.0f, 1.0f, 0.0, 1.0, special ? special : pe_colormap_default_special(map),
                        curve, vmin, 0.0,  1.0};
    if (curve != PE_SCALE_LINEAR) {
        k.cvmin = curve_of(curve, vmin);
        k.cscale = 256.0 / (curve_of(curve, vmax) - k.cvmin);
        return k;
    }
    if (narrow_ok(vmin, vmax)) {
        k.vmin = (float)vmin;
        k.vmax = (float)vmax;
    } else {
        k.wide = 1;
        k.half_vmin = 0.5 * vmin;
        k.scale = 256.0 / (0.5 * vmax - 0.5 * vmin);
    }
    return k;
}

// PE_OK when vmin … vmax can be coloured: both finite, vmax > vmin, and s = 256 / (vmax/2 − vmin/2)
// finite (vmax − vmin above about 3e-306), else the status of argument vmin_arg or vmin_arg + 1;
// for sqrt also vmin ≥ 0, for log vmin > 0, and 256 / (f(vmax) − f(vmin)) finite and positive.
// The scale itself (known) is checked by the caller.
static pe_status check_colors(double vmin, double vmax, int32_t vmin_arg, int32_t curve) {
    if (!isfinite(vmin)) return PE_ERR_ARG(vmin_arg);
    if (curve == PE_SCALE_SQRT && !(vmin >= 0.0)) return PE_ERR_ARG(vmin_arg);
    if (curve == PE_SCALE_LOG && !(vmin > 0.0)) return PE_ERR_ARG(vmin_arg);
    if (!isfinite(vmax) || !(vmax > vmin)) return PE_ERR_ARG(vmin_arg + 1);
    const double half = 0.5 * vmax - 0.5 * vmin;
    if (!(half > 0.0) || !isfinite(256.0 / half)) return PE_ERR_ARG(vmin_arg + 1);
    if (curve != PE_SCALE_LINEAR) {
        const double s = 256.0 / (curve_of(curve, vmax) - curve_of(curve, vmin));
        if (!(s > 0.0) || !isfinite(s)) return PE_ERR_ARG(vmin_arg + 1);
    }
    return PE_OK;
}

// --- sqrt and log ----------------------------------------------------------------------------------
//
// k = clamp(floor((f(v) − f(vmin)) · s), 0, 255),  s = 256 / (f(vmax) − f(vmin)),  f = √ or ln,
// in float64 (v promoted exactly), and v ≤ vmin → 0 before f: zeros and negatives (√ of a
// negative, ln 0 = −∞) take the bottom entry, as a value below vmin does on the linear scale.
static inline int32_t curve_index(float v, const heatmap_colors *k) {
    const double x = (double)v;
    if (!(x > k->cmin)) return 0;
    const double t = (curve_of(k->curve, x) - k->cvmin) * k->cscale;
    if (t >= 255.0) return 255;
    return (int32_t)t;   // t ≥ 0: f is increasing and x > vmin
}

static void colorize_curve_scalar(uint8_t *out, const float *values, int32_t count, const heatmap_colors *k) {
    const uint8_t *lut = pe_colormap_table(k->map);
    for (int32_t i = 0; i < count; i++) {
        const float v = values[i];
        const uint8_t *rgba;
        if (v - v == 0.0f) rgba = lut + 4 * curve_index(v, k);
        else if (v != v)
            rgba = k->special + 4 * PE_SPECIAL_NAN;
        else
            rgba = k->special + 4 * (v > 0.0f ? PE_SPECIAL_POS_INF : PE_SPECIAL_NEG_INF);
        memcpy(out + 4 * (ptrdiff_t)i, rgba, 4);
    }
}

static inline int32_t wide_index(float v, double half_vmin, double scale) {
    const double t = (0.5 * (double)v - half_vmin) * scale;
    if (t < 0.0) return 0;
    if (t >= 255.0) return 255;
    return (int32_t)t;
}

static void colorize_wide_scalar(uint8_t *out, const float *values, int32_t count, const heatmap_colors *k) {
    const uint8_t *lut = pe_colormap_table(k->map);
    for (int32_t i = 0; i < count; i++) {
        const float v = values[i];
        const uint8_t *rgba;
        if (v - v == 0.0f) rgba = lut + 4 * wide_index(v, k->half_vmin, k->scale);
        else if (v != v)
            rgba = k->special + 4 * PE_SPECIAL_NAN;
        else
            rgba = k->special + 4 * (v > 0.0f ? PE_SPECIAL_POS_INF : PE_SPECIAL_NEG_INF);
        memcpy(out + 4 * (ptrdiff_t)i, rgba, 4);
    }
}

#if PE_HAVE_SIMD
static inline int32_t rgba_word(const uint8_t *p) {
    uint32_t v;
    memcpy(&v, p, 4);
    return (int32_t)v;
}

// Four values at a time, in float64: each pair promoted, mapped to t, truncated with saturation
// and clamped to 0 … 255; non-finite lanes take their special colour after. The same float64
// operations as the scalar loops, so the same bits. ROOT is a constant in each copy:
//   ROOT = 0, the wide linear range: t = (v/2 − vmin/2)·s (t ≥ 0 there, so truncation is the
//     floor; t < 0 truncates to 0 or below and is clamped to 0, as wide_index's t < 0 → 0);
//   ROOT = 1, the sqrt scale: t = (√v − √vmin)·s with f64x2.sqrt (correctly rounded, as sqrt()).
//     Lanes with v ≤ vmin: √v ≤ √vmin gives t ≤ 0, and √ of a negative is NaN, which trunc_sat
//     makes 0: entry 0, as curve_index's early return. (log has no WebAssembly SIMD instruction:
//     it stays scalar.)
static inline __attribute__((always_inline)) void colorize_f64_simd(uint8_t *out, const float *values, int32_t count,
                                                                    const heatmap_colors *k, const int32_t ROOT) {
    const uint8_t *lut = pe_colormap_table(k->map);
    const v128_t half = wasm_f64x2_splat(0.5), from = wasm_f64x2_splat(ROOT ? k->cvmin : k->half_vmin);
    const v128_t scale = wasm_f64x2_splat(ROOT ? k->cscale : k->scale), zero = wasm_f32x4_splat(0.0f);
    const v128_t lo = wasm_i32x4_splat(0), hi = wasm_i32x4_splat(255);
    const v128_t nan_rgba = wasm_i32x4_splat(rgba_word(k->special + 4 * PE_SPECIAL_NAN));
    const v128_t neg_rgba = wasm_i32x4_splat(rgba_word(k->special + 4 * PE_SPECIAL_NEG_INF));
    const v128_t pos_rgba = wasm_i32x4_splat(rgba_word(k->special + 4 * PE_SPECIAL_POS_INF));
    int32_t i = 0;
    for (; i + 4 <= count; i += 4) {
        const v128_t v = wasm_v128_load(values + i);
        const v128_t v01 = wasm_f64x2_promote_low_f32x4(v);
        const v128_t v23 = wasm_f64x2_promote_low_f32x4(wasm_i32x4_shuffle(v, v, 2, 3, 2, 3));
        const v128_t x01 = ROOT ? wasm_f64x2_sqrt(v01) : wasm_f64x2_mul(half, v01);
        const v128_t x23 = ROOT ? wasm_f64x2_sqrt(v23) : wasm_f64x2_mul(half, v23);
        const v128_t t01 = wasm_f64x2_mul(wasm_f64x2_sub(x01, from), scale);
        const v128_t t23 = wasm_f64x2_mul(wasm_f64x2_sub(x23, from), scale);
        const v128_t k01 = wasm_i32x4_trunc_sat_f64x2_zero(t01), k23 = wasm_i32x4_trunc_sat_f64x2_zero(t23);
        const v128_t idx = wasm_i32x4_min(wasm_i32x4_max(wasm_i32x4_shuffle(k01, k23, 0, 1, 4, 5), lo), hi);
        v128_t rgba = wasm_i32x4_make(
            rgba_word(lut + 4 * wasm_i32x4_extract_lane(idx, 0)), rgba_word(lut + 4 * wasm_i32x4_extract_lane(idx, 1)),
            rgba_word(lut + 4 * wasm_i32x4_extract_lane(idx, 2)), rgba_word(lut + 4 * wasm_i32x4_extract_lane(idx, 3)));
        const v128_t finite = wasm_f32x4_eq(wasm_f32x4_sub(v, v), zero);   // v − v is NaN for NaN, ±Inf
        if (!wasm_i32x4_all_true(finite)) {
            const v128_t is_nan = wasm_f32x4_ne(v, v), is_pos = wasm_f32x4_gt(v, zero);
            const v128_t special =
                wasm_v128_bitselect(nan_rgba, wasm_v128_bitselect(pos_rgba, neg_rgba, is_pos), is_nan);
            rgba = wasm_v128_bitselect(rgba, special, finite);
        }
        wasm_v128_store(out + 4 * (ptrdiff_t)i, rgba);
    }
    if (ROOT) colorize_curve_scalar(out + 4 * (ptrdiff_t)i, values + i, count - i, k);
    else
        colorize_wide_scalar(out + 4 * (ptrdiff_t)i, values + i, count - i, k);
}

static void colorize_wide_simd(uint8_t *out, const float *values, int32_t count, const heatmap_colors *k) {
    colorize_f64_simd(out, values, count, k, 0);
}

static void colorize_sqrt_simd(uint8_t *out, const float *values, int32_t count, const heatmap_colors *k) {
    colorize_f64_simd(out, values, count, k, 1);
}
#endif

// count values → RGBA through the colours k (pe_colorize's loops for a float32 range).
static void colorize_with(uint8_t *out, const float *values, int32_t count, const heatmap_colors *k, int32_t simd) {
    if (k->curve != PE_SCALE_LINEAR) {
#if PE_HAVE_SIMD
        if (simd && k->curve == PE_SCALE_SQRT) {
            colorize_sqrt_simd(out, values, count, k);
            return;
        }
#endif
        colorize_curve_scalar(out, values, count, k);
        return;
    }
#if PE_HAVE_SIMD
    if (simd) {
        if (k->wide) colorize_wide_simd(out, values, count, k);
        else
            pe_colorize_simd(out, values, count, k->map, k->vmin, k->vmax, k->special);
        return;
    }
#else
    (void)simd;
#endif
    if (k->wide) colorize_wide_scalar(out, values, count, k);
    else
        pe_colorize_scalar(out, values, count, k->map, k->vmin, k->vmax, k->special);
}

typedef struct {
    uint8_t *rgba;
    float *values_out;
    int32_t width;
    heatmap_colors colors;
} heatmap_sink;

// Pixel row y of the output from its values: coloured into rgba, or copied to values_out.
static void emit_row(const heatmap_sink *o, int32_t y, const float *vals) {
    if (o->rgba) {
        colorize_with(o->rgba + 4 * (ptrdiff_t)y * o->width, vals, o->width, &o->colors, PE_HAVE_SIMD);
    } else {
        memcpy(o->values_out + (ptrdiff_t)y * o->width, vals, (size_t)o->width * sizeof(float));
    }
}

// Pass 2 and the output of pixel row y, from its slot; the slot may be reused after.
static void close_row(heatmap_scratch *s, heatmap_slot *sl, const heatmap_sink *o, int32_t y, int32_t c0) {
    across(s, sl, o->width, c0);
    sl->dirty = sl->any;
    emit_row(o, y, s->vals);
}

// --- range ---------------------------------------------------------------------------------------

typedef struct {
    float lo, hi;    // finite minimum and maximum so far (+Inf, −Inf before any)
    int32_t flags;   // the non-finite kinds seen
} heatmap_range;

static void scan_scalar(heatmap_range *r, const float *v, int32_t n) {
    for (int32_t i = 0; i < n; i++) {
        float x = v[i];
        if (x - x == 0.0f) {
            if (x < r->lo) r->lo = x;
            if (x > r->hi) r->hi = x;
        } else {
            r->flags |= kind_of(x);
        }
    }
}

// Merges the range of count values into r. SIMD: blocks of SCAN_BLOCK values take the plain
// minimum and maximum, and OR together the bits of v − v (zero exactly when every value is
// finite); a block where that is not zero (NaN or ±Inf somewhere) is scanned again lane by lane.
#define SCAN_BLOCK 64
static void scan_span(heatmap_range *r, const float *values, int32_t count) {
    int32_t i = 0;
#if PE_HAVE_SIMD
    v128_t lo4 = wasm_f32x4_splat(INFINITY), hi4 = wasm_f32x4_splat(-INFINITY);
    for (; i + SCAN_BLOCK <= count; i += SCAN_BLOCK) {
        v128_t blo = lo4, bhi = hi4, bad = wasm_i32x4_splat(0);
        for (int32_t k = 0; k < SCAN_BLOCK; k += 4) {
            v128_t v = wasm_v128_load(values + i + k);
            blo = wasm_f32x4_pmin(blo, v);   // v < blo ? v : blo
            bhi = wasm_f32x4_pmax(bhi, v);   // bhi < v ? v : bhi
            bad = wasm_v128_or(bad, wasm_f32x4_sub(v, v));
        }
        if (wasm_v128_any_true(bad)) {
            scan_scalar(r, values + i, SCAN_BLOCK);   // rare: finite values only, and name the kinds
        } else {
            lo4 = blo;
            hi4 = bhi;
        }
    }
    float l[4], h[4];
    wasm_v128_store(l, lo4);
    wasm_v128_store(h, hi4);
    for (int k = 0; k < 4; k++) {
        if (l[k] < r->lo) r->lo = l[k];
        if (h[k] > r->hi) r->hi = h[k];
    }
#endif
    scan_scalar(r, values + i, count - i);
}

// Rows [j0, j1) of the tent of pixel row y (centre c = a + (y + ½)·s, s > 1), clipped to the table.
static void row_span(double a, double s, int32_t y, int32_t rows, int32_t *j0, int32_t *j1) {
    double c = a + (y + 0.5) * s;
    *j0 = (int32_t)floor(c - s);
    *j1 = (int32_t)ceil(c + s);
    if (*j0 < 0) *j0 = 0;
    if (*j1 > rows) *j1 = rows;
}

// Runs the whole window; colours each row into rgba when it is not NULL, else copies the values
// to values_out. Arguments already checked. single: read each table row once (the single pass,
// above) where rows are minified and the scratch has the slots; 0 = one pass per pixel row.
// range (may be NULL): when the single pass reads every value of the table (the whole window,
// minified both ways), each row's range is merged into it while the row is in cache, and 1 is
// returned; otherwise 0 and range is left alone.
static int32_t heatmap_run(uint8_t *rgba, float *values_out, void *scratch, const float *table, int32_t rows,
                           int32_t cols, int32_t width, int32_t height, const float *window,
                           const heatmap_colors *colors, int32_t simd, int32_t single, heatmap_range *range) {
    heatmap_scratch s = carve(scratch, cols, width);
    heatmap_sink o = {rgba, values_out, width, {0}};
    if (colors) o.colors = *colors;
    double x0 = window[0], x1 = window[1], y0 = window[2], y1 = window[3];
    double sx = (x1 - x0) / width, sy = (y1 - y0) / height;
    // One whole cell per pixel (a table no larger than the canvas): the pixels are the cells
    // themselves, which is what both passes compute (a mean of one cell with weight 1), −0 aside
    // (it colours as +0). No sums: each row is coloured, or copied, straight from the table.
    if (sx == 1.0 && sy == 1.0 && x0 == floor(x0) && y0 == floor(y0)) {
        const int32_t cx = (int32_t)x0, cy = (int32_t)y0;
        const int32_t whole = range != NULL && cx == 0 && cy == 0 && width == cols && height == rows;
        for (int32_t y = 0; y < height; y++) {
            const float *src = table + (ptrdiff_t)(cy + y) * cols + cx;
            if (whole) scan_span(range, src, width);
            emit_row(&o, y, src);
        }
        return whole;
    }
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
    heatmap_slot *sl[SLOTS];
    float w[SLOTS];

    if (sy <= 1.0) {   // magnified rows: the one row under each pixel row
        heatmap_slot *one = &s.slot[0];
        for (int32_t y = 0; y < height; y++) {
            int32_t cell;
            axis_pixel(y0, sy, y, rows, &cell, &w[0]);
            open_slot(one, nc);
            sl[0] = one;
            one->any = down(sl, w, 1, table + (ptrdiff_t)cell * cols + c0, nc, simd);
            one->total = w[0];
            close_row(&s, one, &o, y, c0);
        }
        return 0;
    }

    if (!single || s.slots < SLOTS) {   // one pass over its rows per pixel row
        heatmap_slot *one = &s.slot[0];
        sl[0] = one;
        for (int32_t y = 0; y < height; y++) {
            double c = y0 + (y + 0.5) * sy;
            int32_t j0, j1;
            row_span(y0, sy, y, rows, &j0, &j1);
            open_slot(one, nc);
            for (int32_t j = j0; j < j1; j++) {
                double wj = tent_cdf(j + 1 - c, sy) - tent_cdf(j - c, sy);
                if (!(wj > 1e-12)) continue;
                w[0] = (float)wj;
                one->any |= down(sl, w, 1, table + (ptrdiff_t)j * cols + c0, nc, simd);
                one->total += (double)w[0];
            }
            close_row(&s, one, &o, y, c0);
        }
        return 0;
    }

    // The single pass: pixel rows [done, next) are open, in slots y % SLOTS.
    int32_t next = 0, done = 0, jstart, jend, unused;
    row_span(y0, sy, 0, rows, &jstart, &unused);
    row_span(y0, sy, height - 1, rows, &unused, &jend);
    int32_t first[SLOTS], last[SLOTS];   // each open row's span, by slot
    const int32_t whole = range != NULL && c0 == 0 && c1 == cols && jstart == 0 && jend == rows;
    for (int32_t j = jstart; j < jend; j++) {
        while (next < height && next - done < SLOTS) {   // open the pixel rows that start at j
            int32_t k = next % SLOTS;
            row_span(y0, sy, next, rows, &first[k], &last[k]);
            if (first[k] > j) break;
            open_slot(&s.slot[k], nc);
            next++;
        }
        int32_t m = 0;
        for (int32_t y = done; y < next; y++) {
            int32_t k = y % SLOTS;
            if (j >= last[k]) continue;
            double c = y0 + (y + 0.5) * sy;
            double wj = tent_cdf(j + 1 - c, sy) - tent_cdf(j - c, sy);
            if (!(wj > 1e-12)) continue;
            w[m] = (float)wj;
            sl[m] = &s.slot[k];
            sl[m]->total += (double)w[m];
            m++;
        }
        if (m > 0) {
            int32_t any = down(sl, w, m, table + (ptrdiff_t)j * cols + c0, nc, simd);
            for (int32_t k = 0; k < m; k++) sl[k]->any |= any;
        }
        if (whole) scan_span(range, table + (ptrdiff_t)j * cols, cols);
        while (done < next && last[done % SLOTS] <= j + 1) {   // close the rows that end at j
            close_row(&s, &s.slot[done % SLOTS], &o, done, c0);
            done++;
        }
    }
    while (done < height) {   // cannot happen (every span ends by jend); keeps out defined
        int32_t k = done % SLOTS;
        if (done >= next) open_slot(&s.slot[k], nc);
        close_row(&s, &s.slot[k], &o, done, c0);
        done++;
    }
    return whole;
}

void pe_heatmap_values_impl(float *out, void *scratch, const float *table, int32_t rows, int32_t cols, int32_t width,
                            int32_t height, const float *window, int32_t simd, int32_t single) {
    heatmap_run(NULL, out, scratch, table, rows, cols, width, height, window, NULL, simd, single, NULL);
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
                     int32_t height, const float *window, int32_t map, double vmin, double vmax, const uint8_t *special,
                     int32_t scale) {
    if (out == NULL) return PE_ERR_ARG(1);
    pe_status st = check_table(scratch, table, rows, cols, width, height, window);
    if (st != PE_OK) return st;
    if (map < 0 || map >= PE_COLORMAP_COUNT) return PE_ERR_ARG(9);
    if (scale < 0 || scale >= PE_SCALE_COUNT) return PE_ERR_ARG(13);
    st = check_colors(vmin, vmax, 10, scale);
    if (st != PE_OK) return st;
    const heatmap_colors colors = colors_for(map, vmin, vmax, special, scale);
    heatmap_run(out, NULL, scratch, table, rows, cols, width, height, window, &colors, PE_HAVE_SIMD, 1, NULL);
    return PE_OK;
}

void pe_heatmap_colorize_impl(uint8_t *out, const float *values, int32_t count, int32_t map, double vmin, double vmax,
                              const uint8_t *special, int32_t scale, int32_t simd) {
    const heatmap_colors colors = colors_for(map, vmin, vmax, special, scale);
    colorize_with(out, values, count, &colors, simd);
}

pe_status pe_heatmap_colorize(uint8_t *out, const float *values, int32_t count, int32_t map, double vmin, double vmax,
                              const uint8_t *special, int32_t scale) {
    if (out == NULL) return PE_ERR_ARG(1);
    if (values == NULL && count > 0) return PE_ERR_ARG(2);
    if (count < 0 || count > PE_MAX_ELEMENTS) return PE_ERR_ARG(3);
    if (map < 0 || map >= PE_COLORMAP_COUNT) return PE_ERR_ARG(4);
    if (scale < 0 || scale >= PE_SCALE_COUNT) return PE_ERR_ARG(8);
    pe_status st = check_colors(vmin, vmax, 5, scale);
    if (st != PE_OK) return st;
    if (count == 0) return PE_OK;   // values may be NULL: no `values + i` on it
    pe_heatmap_colorize_impl(out, values, count, map, vmin, vmax, special, scale, PE_HAVE_SIMD);
    return PE_OK;
}

pe_status pe_heatmap_values(float *out, void *scratch, const float *table, int32_t rows, int32_t cols, int32_t width,
                            int32_t height, const float *window) {
    if (out == NULL) return PE_ERR_ARG(1);
    pe_status st = check_table(scratch, table, rows, cols, width, height, window);
    if (st != PE_OK) return st;
    pe_heatmap_values_impl(out, scratch, table, rows, cols, width, height, window, PE_HAVE_SIMD, 1);
    return PE_OK;
}

pe_status pe_heatmap_values_scan(float *out, void *scratch, const float *table, int32_t rows, int32_t cols,
                                 int32_t width, int32_t height, const float *window, float *range, int32_t *flags) {
    if (out == NULL) return PE_ERR_ARG(1);
    pe_status st = check_table(scratch, table, rows, cols, width, height, window);
    if (st != PE_OK) return st;
    if (range == NULL) return PE_ERR_ARG(9);
    if (flags == NULL) return PE_ERR_ARG(10);
    heatmap_range r = {INFINITY, -INFINITY, 0};
    if (!heatmap_run(NULL, out, scratch, table, rows, cols, width, height, window, NULL, PE_HAVE_SIMD, 1, &r))
        scan_span(&r, table, rows * cols);   // the window did not read every value
    range[0] = r.lo;
    range[1] = r.hi;
    *flags = r.flags;
    return PE_OK;
}

pe_status pe_heatmap_scan(float *range, int32_t *flags, const float *values, int32_t count) {
    if (range == NULL) return PE_ERR_ARG(1);
    if (flags == NULL) return PE_ERR_ARG(2);
    if (values == NULL && count > 0) return PE_ERR_ARG(3);
    if (count < 0 || count > PE_MAX_ELEMENTS) return PE_ERR_ARG(4);
    heatmap_range r = {INFINITY, -INFINITY, 0};
    scan_span(&r, values, count);
    range[0] = r.lo;
    range[1] = r.hi;
    *flags = r.flags;
    return PE_OK;
}
