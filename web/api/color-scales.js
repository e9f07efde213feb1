// The colour scales of c/heatmap.h (pe_color_scale), by name: the C enum value. How a value v
// between vmin and vmax becomes a position t on the colour map:
//   linear  t = (v − vmin) / (vmax − vmin)
//   sqrt    t = (√v − √vmin) / (√vmax − √vmin)          (vmin ≥ 0; v ≤ vmin → 0)
//   log     t = (ln v − ln vmin) / (ln vmax − ln vmin)  (vmin > 0 is the floor; v ≤ vmin → 0)
// Plain data, as web/api/colormaps.js: the binding (kernels/heatmap.js), the renderers
// (web/plot/) and the view state (web/model/view-state.js) read it without touching WebAssembly.
export const COLOR_SCALES = Object.freeze({
  linear: Object.freeze({ id: 0 }),
  sqrt: Object.freeze({ id: 1 }),
  log: Object.freeze({ id: 2 }),
});

/** The names, in menu order. */
export const COLOR_SCALE_NAMES = Object.keys(COLOR_SCALES);

/** The log scale's floor when none is given: this fraction of the top of the range. */
export const LOG_FLOOR = 1e-6;

/**
 * t ∈ [0, 1] of v on `scale` between lo and hi, in float64 (NaN for a non-finite v): the
 * position the colour of v is taken from, and where the colour bar puts a tick at v.
 */
export function scalePosition(scale, v, lo, hi) {
  if (!Number.isFinite(v)) return NaN;
  if (scale === 'linear') return Math.min(1, Math.max(0, (v - lo) / (hi - lo)));
  if (!(v > lo)) return 0;
  const f = scale === 'sqrt' ? Math.sqrt : Math.log;
  return Math.min(1, (f(v) - f(lo)) / (f(hi) - f(lo)));
}
