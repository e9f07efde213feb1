// The colour maps of c/colormap.c, by name: the C enum value, and whether 0 belongs in the
// middle (a diverging map gets a range symmetric about 0). Plain data: the binding
// (kernels/colormap.js), the renderers (web/plot/) and the view state (web/model/view-state.js)
// read it without touching WebAssembly.
export const COLORMAPS = Object.freeze({
  viridis: Object.freeze({ id: 0, diverging: false }),
  cividis: Object.freeze({ id: 1, diverging: false }),
  diverging: Object.freeze({ id: 2, diverging: true }),
});

/** The names, in menu order. */
export const COLORMAP_NAMES = Object.keys(COLORMAPS);
