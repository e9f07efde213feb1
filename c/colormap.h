// Colour maps for the heatmaps: float values → RGBA pixels through a 256-entry table, with
// NaN, −Infinity and +Infinity painted in colours of their own (e.g. the −Infinity that ALiBi
// puts above the diagonal of a causal bias is "masked", not "very small").
#ifndef PE_COLORMAP_H
#define PE_COLORMAP_H

#include <stdint.h>

#include "pe.h"
#include "pe_simd.h"

// Colour maps (tables generated from matplotlib by scripts/gen_colormaps.py).
typedef enum {
    PE_COLORMAP_VIRIDIS = 0,     // sequential, perceptually uniform, colour-blind safe
    PE_COLORMAP_CIVIDIS = 1,     // sequential, designed for colour-vision deficiency
    PE_COLORMAP_DIVERGING = 2,   // RdBu reversed: blue (low) – white (middle) – red (high)
    PE_COLORMAP_COUNT = 3,
} pe_colormap;

// Which entry of `special` (and of the default special colours) a non-finite value takes.
enum { PE_SPECIAL_NAN = 0, PE_SPECIAL_NEG_INF = 1, PE_SPECIAL_POS_INF = 2 };

// Writes count RGBA pixels (4 bytes each, R first) to out, one per value:
//   finite v  → table entry k = clamp(floor((v − vmin) · (256 / (vmax − vmin))), 0, 255), computed
//               in float32 without fused multiply-add (so every build agrees bit for bit);
//               values below vmin take entry 0, values from vmax up take entry 255
//   NaN, −Inf, +Inf → special[0..3], special[4..7], special[8..11] (RGBA each), or, when special
//               is NULL, the map's defaults: −Inf transparent (0, 0, 0, 0) so whatever is drawn
//               behind shows through as "masked"; NaN magenta; +Inf white (black for diverging).
// Errors: PE_ERR_ARG(1..7) for out (NULL), values (NULL while count > 0), count (< 0 or over
// PE_MAX_ELEMENTS), map (unknown), vmin (not finite), vmax (not finite, not above vmin, or with
// vmax − vmin or 256 / (vmax − vmin) not finite in float32); special may be NULL.
PE_API pe_status pe_colorize(uint8_t *out, const float *values, int32_t count, int32_t map, float vmin, float vmax,
                             const uint8_t *special);

// The two implementations behind pe_colorize, for the native tests. They take checked arguments
// and a non-NULL special.
void pe_colorize_scalar(uint8_t *out, const float *values, int32_t count, int32_t map, float vmin, float vmax,
                        const uint8_t *special);
#if PE_HAVE_SIMD
void pe_colorize_simd(uint8_t *out, const float *values, int32_t count, int32_t map, float vmin, float vmax,
                      const uint8_t *special);
#endif

// A map's 256 × RGBA table (NULL for an unknown map), and its default special colours (12 bytes).
const uint8_t *pe_colormap_table(int32_t map);
const uint8_t *pe_colormap_default_special(int32_t map);

#endif   // PE_COLORMAP_H
