// The view state: how a result is shown (colour map, colour scale, head, RoPE transform, curves,
// language, theme), described in the same field vocabulary as a spec (web/api/schema/index.js) and checked
// by the same validator (checkValue in web/api/spec.js). The page (web/app/), the permalinks
// (web/share/permalink.js) and <pe-plot> (web/share/pe-plot.js) read and check it here, so a
// value one of them accepts, the others accept too.
import { checkValue } from '../api/spec.js';
import { COLORMAP_NAMES } from '../api/colormaps.js';
import { COLOR_SCALE_NAMES } from '../api/color-scales.js';
import { LANGS } from '../i18n/index.js';

/** Most curves a link or an attribute may ask for. */
export const MAX_SERIES = 256;
/** How RoPE angles are shown: cos, sin, the angle, or the angle modulo 2π. */
export const TRANSFORMS = ['cos', 'sin', 'angle', 'wrapped'];
export const THEMES = ['light', 'dark', 'auto'];
/** The heatmaps' colour scales (web/api/color-scales.js), and 'auto': chosen from the table. */
export const SCALES = ['auto', ...COLOR_SCALE_NAMES];

export const VIEW_FIELDS = Object.freeze({
  colormap: { type: 'enum', values: COLORMAP_NAMES, default: 'viridis' },
  scale: { type: 'enum', values: SCALES, default: 'auto' },
  head: { type: 'int', min: 0, max: 1e6, default: 0 },
  transform: { type: 'enum', values: TRANSFORMS, default: null, nullable: true },
  seriesMode: { type: 'enum', values: ['cols', 'rows'], default: 'cols' },
  seriesList: { type: 'list', minItems: 0, maxItems: MAX_SERIES, default: [], item: { type: 'int', min: 0, max: 99999999 } },
  lang: { type: 'enum', values: LANGS, default: 'en' },
  theme: { type: 'enum', values: THEMES, default: 'light' },
});

/** View state that needs no mention in a link: what the page starts every kind with. */
export const VIEW_DEFAULTS = Object.freeze({ colormap: VIEW_FIELDS.colormap.default, head: VIEW_FIELDS.head.default });

/** Checks one view field; returns the value or throws a PEError naming the field and its range. */
export function checkView(name, value) {
  const field = VIEW_FIELDS[name];
  if (!field) throw new TypeError(`no view field "${name}"`);
  return checkValue(name, field, value);
}

/**
 * Reads a list of row or column numbers written as text ("0, 1, 8" or "0 1 8"): the numbers, or
 * a PEError naming `seriesList` when an item is not a whole number in range or there are too many.
 */
export function parseSeriesList(text) {
  const items = String(text).split(/[\s,]+/).filter(Boolean);
  const numbers = items.map((x) => (/^(0|[1-9][0-9]{0,7})$/.test(x) ? Number(x) : x));
  return checkView('seriesList', numbers);
}
