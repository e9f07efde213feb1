// Heatmap pixels straight from a float table: a window of a row-major [rows, cols] table drawn as
// width × height RGBA pixels in one pass (resample, then colour through c/colormap.c), so the
// page makes one copy out of WebAssembly per frame and no intermediate array in JS.
//
// Each axis is resampled on its own (the filter is separable):
//   magnified (the window spans at most one cell per pixel, s = (b − a) / n ≤ 1): pixel i shows
//     the cell under its centre, a + (i + ½)·s — crisp cells, no blending;
//   minified (s > 1): pixel i is the weighted MEAN of the cells around its centre
//     c = a + (i + ½)·s, with the triangle ("tent", bilinear) weights of half-width s:
//       w_j = ∫_j^{j+1} T(u − c) du,   T(u) = max(0, 1 − |u| / s) / s,
//     the filter image libraries use to shrink pictures (e.g. Pillow's BILINEAR resize scales its
//     support by the reduction factor).
// Why a mean, and why the tent rather than the pixel's own box:
//   • A pixel has one colour. A mean says what the cells under it add up to; min/max needs two
//     colours per pixel (an envelope), and picking one of them paints rapidly alternating cells as
//     a flat "all high" (or "all low") band, a pattern that is not in the data either.
//   • Point sampling (one cell per pixel) turns every period shorter than two pixels into a false
//     wave at full contrast: the moiré arcs and hatching of a 2000 × 1600 sinusoidal table. The
//     pixel's own box mean damps a wave of f cycles per pixel to |sinc f| of its contrast
//     (sinc f = sin πf / πf): 9 % at f = 1.1, where it folds into a broad false arc of 0.1 cycle
//     per pixel, and up to 22 % (f ≈ 1.43). The tent (box ∗ box) damps to sinc² f: 0.8 % at
//     f = 1.1 and at most 4.7 % anywhere beyond f = 1, so the broad false arcs are gone; waves
//     just above the Nyquist limit (0.5 < f < 1) fold into fine grain at 40 % (f = 0.5) falling
//     to 5 % (f = 0.8). The cost: a slightly softer picture, and each cell counts for two pixels.
// Non-finite cells take no part in the means (the weights are renormalised over the finite
// ones); a pixel whose cells are all non-finite is −Inf when they are all −Inf (a masked area
// stays masked), +Inf when all +Inf, NaN otherwise. Then colours as pe_heatmap_colorize does.
#ifndef PE_HEATMAP_H
#define PE_HEATMAP_H

#include <stdint.h>

#include "pe.h"

// Colour scales: where a value v falls between vmin and vmax, as a position t on the colour map
// (entry k = clamp(floor(256·t), 0, 255)):
//   linear  t = (v − vmin) / (vmax − vmin)                                    (any vmin < vmax)
//   sqrt    t = (√v − √vmin) / (√vmax − √vmin),   v ≤ vmin → entry 0           (vmin ≥ 0)
//   log     t = (ln v − ln vmin) / (ln vmax − ln vmin),   v ≤ vmin → entry 0   (vmin > 0: the floor)
// so values spread over decades (attention weights ≈ 1/i) use the whole map; exact zeros and
// negatives take the bottom colour under sqrt and log, non-finite values their special colours.
typedef enum {
    PE_SCALE_LINEAR = 0,
    PE_SCALE_SQRT = 1,
    PE_SCALE_LOG = 2,
    PE_SCALE_COUNT = 3,
} pe_color_scale;

// Bytes of scratch memory pe_heatmap needs for a table of `cols` columns drawn `width` pixels
// wide (0 when either is out of range). The caller owns it; pe_heatmap never allocates.
PE_API int32_t pe_heatmap_scratch_bytes(int32_t cols, int32_t width);

// Draws the window [x0, x1) × [y0, y1) (in cells; window = {x0, x1, y0, y1}) of the row-major
// [rows, cols] table as width × height RGBA pixels (4 bytes each, R first, row-major) into out,
// coloured by `map` (pe_colormap) between vmin and vmax on the colour scale `scale`
// (pe_color_scale), non-finite pixels in `special`'s colours (NULL: the map's defaults), as
// pe_heatmap_colorize colours a value. The scale applies to the resampled (mean) values.
// Errors: PE_ERR_ARG(k) for argument k: out, scratch or table NULL (1, 2, 3); rows or cols
// < 1 or rows·cols over PE_MAX_ELEMENTS (4, 5); width or height < 1, over 8192, or
// width·height over PE_MAX_ELEMENTS (6, 7); window NULL, not finite, empty or outside
// [0, cols] × [0, rows] in float32 (8); map, vmin, vmax, scale as pe_heatmap_colorize (9, 10,
// 11, 13). scratch: pe_heatmap_scratch_bytes(cols, width) bytes, 16-byte aligned.
PE_API pe_status pe_heatmap(uint8_t *out, void *scratch, const float *table, int32_t rows, int32_t cols, int32_t width,
                            int32_t height, const float *window, int32_t map, double vmin, double vmax,
                            const uint8_t *special, int32_t scale);

// Colours count values as RGBA (4 bytes each) between vmin and vmax, given in float64 so that any
// finite table has a colour range: where float32 holds the range (vmin and vmax finite in float32,
// vmax > vmin there, vmax − vmin and 256 / (vmax − vmin) finite in float32) the colours are
// exactly pe_colorize's of (float)vmin, (float)vmax; otherwise (values ≤ 1e-38 or subnormal,
// ±3e38, vmin −1e308, vmax − vmin below float32's resolution) the same colour-table entry is
// computed in float64: k = clamp(floor((v/2 − vmin/2) · 256 / (vmax/2 − vmin/2)), 0, 255).
// Non-finite values as pe_colorize (special NULL: the map's defaults).
// scale (pe_color_scale; 0, linear, is all of the above): sqrt and log compute the entry in
// float64, k = clamp(floor((f(v) − f(vmin)) · 256 / (f(vmax) − f(vmin))), 0, 255) with f = √ or
// ln, and v ≤ vmin → 0 (so √ and ln never see a value below vmin: zeros, negatives).
// Errors: PE_ERR_ARG(1..6) for out (NULL), values (NULL while count > 0), count (< 0 or over
// PE_MAX_ELEMENTS), map (unknown), vmin (not finite; below 0 for sqrt, not above 0 for log), vmax
// (not finite, not above vmin, or 256 / (vmax/2 − vmin/2), or 256 / (f(vmax) − f(vmin)), not
// finite in float64: vmax − vmin below about 3e-306), scale (8: unknown).
PE_API pe_status pe_heatmap_colorize(uint8_t *out, const float *values, int32_t count, int32_t map, double vmin,
                                     double vmax, const uint8_t *special, int32_t scale);

// For the native tests: pe_heatmap_colorize's colouring with the SIMD loop (simd = 1, when built
// with SIMD) or the scalar one (simd = 0), arguments already checked; both agree bit for bit.
void pe_heatmap_colorize_impl(uint8_t *out, const float *values, int32_t count, int32_t map, double vmin, double vmax,
                              const uint8_t *special, int32_t scale, int32_t simd);

// The resampled values (before colouring) of the same window, width × height floats, for the
// native tests and for callers that colour themselves. Same arguments and errors (out = values).
PE_API pe_status pe_heatmap_values(float *out, void *scratch, const float *table, int32_t rows, int32_t cols,
                                   int32_t width, int32_t height, const float *window);

// pe_heatmap_values, and the range of the whole table as pe_heatmap_scan gives it (range[0], range[1],
// flags), for callers that choose the colours from the range: colour the values with pe_colorize
// after. Where the window is the whole table and both axes are minified, the one pass that
// resamples also reads every value, so the range costs no second pass over the table (for a
// 4096 × 4096 table drawn 700 pixels wide, 64 MB not read again); otherwise the table is scanned.
// Errors: as pe_heatmap_values (1–8), range NULL (9), flags NULL (10).
PE_API pe_status pe_heatmap_values_scan(float *out, void *scratch, const float *table, int32_t rows, int32_t cols,
                                        int32_t width, int32_t height, const float *window, float *range,
                                        int32_t *flags);

// The finite minimum and maximum of count floats (range[0] > range[1], i.e. +Inf, −Inf, when
// none is finite) and which non-finite values occur: flags bit 0 −Inf, bit 1 +Inf, bit 2 NaN.
// Errors: PE_ERR_ARG(1) range NULL, (2) flags NULL, (3) values NULL while count > 0,
// (4) count < 0 or over PE_MAX_ELEMENTS.
PE_API pe_status pe_heatmap_scan(float *range, int32_t *flags, const float *values, int32_t count);

// For the native tests: pe_heatmap_values with the SIMD passes (simd = 1, when built with SIMD)
// or the scalar ones (simd = 0), and with minified rows read once in a single pass (single = 1,
// what pe_heatmap does) or once per pixel row (single = 0); arguments already checked. All four
// agree bit for bit.
void pe_heatmap_values_impl(float *out, void *scratch, const float *table, int32_t rows, int32_t cols, int32_t width,
                            int32_t height, const float *window, int32_t simd, int32_t single);

#endif   // PE_HEATMAP_H
