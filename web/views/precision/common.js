// Shared pieces of the precision lab's views (kind rope_precision): the stylesheet, recipe names,
// rounding of positions into a format (integers only, for the sentences), the log axis of a
// LinePlot. Drawing only while on screen, the line plot and the toolbar
// fields are every view's: ../common.js.
import { h } from '../../plot/dom.js';
import { both } from '../../i18n/index.js';
import { formatInt } from '../../plot/format.js';
import { RECIPES, RECIPE_FIELDS } from '../../api/schema/precision.js';
import { ensureStyles, sup } from '../common.js';

/** Adds precision.css (beside this file) to the page once. */
export const ensurePrecisionStyles = () => ensureStyles(new URL('./precision.css', import.meta.url));

/**
 * A precision view's descriptor: kind rope_precision, title and explanation from the strings
 * precision.<key>.title and .explain, and mount(el, ctx) once precision.css is on the page.
 */
export function precisionView(id, key, mount) {
  return {
    id,
    kinds: ['rope_precision'],
    title: both(`precision.${key}.title`),
    explain: both(`precision.${key}.explain`),
    mount(el, ctx) {
      ensurePrecisionStyles();
      return mount(el, ctx);
    },
  };
}

/**
 * What a plotting view's mount returns. update(next): keep(next) (the view keeps the state), its
 * plot's box marked stale with the page (no box: a view that does not follow the page's spec),
 * the plot re-themed; when refresh(next) says the view's inputs changed, describe() (when given),
 * and a new drawing then or on a theme change. destroy(): stop(), then the drawer and the plot.
 * plot() gives the plot once it exists (it loads on demand).
 */
export function plotHandle({ keep, box = null, plot, drawing, refresh, describe = null, stop }) {
  return {
    update(next) {
      keep(next);
      box?.classList.toggle('stale', !!next.stale);
      if (next.changed.has('theme')) plot()?.applyTheme();
      const mine = refresh(next);
      if (mine) describe?.();
      if (mine || next.changed.has('theme')) drawing.request();
    },
    destroy() {
      stop();
      drawing.destroy();
      plot()?.destroy();
    },
  };
}

/** The named recipes, in the schema's order. */
export const RECIPE_NAMES = Object.keys(RECIPES);

/** The recipe's name when it is a named one (also an object equal to a preset), else null. */
export function recipeName(recipe) {
  if (typeof recipe === 'string') return recipe;
  return RECIPE_NAMES.find((n) => RECIPE_FIELDS.every((f) => RECIPES[n][f] === recipe?.[f])) ?? null;
}

/** The four dtypes of a recipe (a name or an object). */
export const dtypesOf = (recipe) => (typeof recipe === 'string' ? RECIPES[recipe] : recipe);

/** A recipe as text: its label from the schema, or its four dtypes. */
export function recipeLabel(t, schema, recipe) {
  const name = recipeName(recipe);
  if (name) return t.tr(schema.fields.recipe.valueLabels?.[name]) || name;
  const d = dtypesOf(recipe);
  return RECIPE_FIELDS.map((f) => d[f]).join(' · ');
}

// Significant bits and the smallest normal exponent of each format (positions are integers, so
// subnormals never matter here).
const BITS = { float64: 53, float32: 24, bfloat16: 8, float16: 11, float32_pow: 24 };

/** The spacing of a format's numbers at the integer p (≥ 1). */
export function spacingAt(p, dtype) {
  const e = Math.floor(Math.log2(Math.max(1, p)));
  return 2 ** Math.max(0, e - BITS[dtype] + 1);
}

/** An integer p ≥ 0 rounded into a format (ties to even; float16 overflows to ∞ from 65520). */
export function roundPosition(p, dtype) {
  if (dtype === 'float16' && p >= 65520) return Infinity;
  const q = spacingAt(p, dtype);
  const lo = Math.floor(p / q) * q;
  const r = p - lo;
  if (r * 2 < q) return lo;
  if (r * 2 > q) return lo + q;
  return (lo / q) % 2 === 0 ? lo : lo + q;
}

/** The smallest value drawn on a log axis (float64 rounding of an angle is ~1e-16). */
export const LOG_FLOOR = 1e-17;

/**
 * log10 of every value. Values ≤ LOG_FLOOR (an exact 0, at position 0 say) are put on the
 * bottom of the axis, the floor of the smallest value above it, so they neither stretch the
 * axis down nor leave a gap; non-finite values stay non-finite (gaps). The floor is shared by
 * every array given: log10Of(a, b) → [la, lb].
 */
export function log10Of(...arrays) {
  let lowest = Infinity;
  const outs = arrays.map((values) => {
    const out = new Float32Array(values.length);
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      if (v > LOG_FLOOR) {
        out[i] = Math.log10(v);
        if (out[i] < lowest) lowest = out[i];
      } else out[i] = v - v === 0 ? -Infinity : NaN;
    }
    return out;
  });
  const bottom = lowest === Infinity ? Math.log10(LOG_FLOOR) : Math.floor(lowest);
  for (const out of outs) for (let i = 0; i < out.length; i++) if (out[i] === -Infinity) out[i] = bottom;
  return arrays.length === 1 ? outs[0] : outs;
}

/** A power of ten as text: 10⁻⁷. */
export const powerOfTen = (k) => `10${sup(k)}`;

/**
 * Makes a LinePlot's y axis logarithmic in look: the values given are log10 of the real ones;
 * ticks on whole powers of ten, tooltips with the real value (formatted by `fmt`). Updates the
 * plot (once per plot.batch()).
 */
export function logY(plot, lo, hi, fmt) {
  const min = Math.floor(lo);
  const max = Math.max(Math.ceil(hi), min + 1);
  plot.setTooltip({ value: (v) => fmt(10 ** v) });
  plot.setAxis('y', {
    min, max, step: Math.max(1, Math.ceil((max - min) / 8)),
    format: (v) => (Number.isInteger(v) ? powerOfTen(v) : ''),
  });
}

/** The finite range of some arrays: [lo, hi] (or [−8, 0] when there is nothing finite). */
export function finiteRange(...arrays) {
  let lo = Infinity;
  let hi = -Infinity;
  for (const a of arrays) {
    for (let i = 0; i < a.length; i++) {
      const v = a[i];
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  }
  return lo <= hi ? [lo, hi] : [-8, 0];
}

// The Arena page (web/pages/arena/charts.js) still calls these two; the precision views call
// plot.setMarkers. To go once the Arena calls plot.setMarkers itself.
/** Nothing: LinePlot draws markers itself (plot.setMarkers). */
export function useMarks() {}

/** The markers of a plot: plot.setMarkers(marks). */
export function setMarks(plot, marks) {
  plot.setMarkers(marks);
}

/** The palette colour (LinePlot.setMarkers) of the first-collision marker. */
export const MARK_COLOR = 3;

/** An integer with digit groups (positions). */
export const pos = (p) => formatInt(p);

/**
 * The recipe as controls: a named recipe, or "custom" with the four formats, each a <select>
 * (the page's parameter panel shows the recipe as JSON text). Changing one sets the page's
 * `recipe` (ctx.setSpec). Returns { el, show(recipe) } (show: reflect the page's recipe).
 */
export function recipeControls(ctx, id) {
  const { t, schema } = ctx;
  const field = schema.fields.recipe;
  const named = h('select', { id: `${id}-recipe`, class: 'prec-recipe' },
    [...RECIPE_NAMES.map((n) => h('option', { value: n, text: recipeLabel(t, schema, n) })),
      h('option', { value: 'custom', text: t('precision.recipe.custom') })]);
  const dtypeSelects = {};
  const custom = h('div', { class: 'prec-dtypes' });
  for (const f of RECIPE_FIELDS) {
    const sub = field.fields[f];
    const sel = h('select', { id: `${id}-${f}`, 'data-field': f }, sub.values.map((v) => h('option', { value: v, text: v })));
    sel.addEventListener('input', () => {
      const recipe = Object.fromEntries(RECIPE_FIELDS.map((k) => [k, dtypeSelects[k].value]));
      ctx.setSpec({ recipe: recipeName(recipe) ?? recipe });
    });
    dtypeSelects[f] = sel;
    custom.append(h('div', { class: 'tool-field' }, h('label', { for: sel.id, text: t.tr(sub.label) }), sel));
  }
  named.addEventListener('input', () => {
    if (named.value === 'custom') {
      custom.hidden = false;
      return;
    }
    ctx.setSpec({ recipe: named.value });
  });
  const el = h('div', { class: 'prec-recipe-box' },
    h('div', { class: 'view-toolbar' }, h('div', { class: 'tool-field' }, h('label', { for: named.id, text: t.tr(field.label) }), named)),
    custom);
  return {
    el,
    show(recipe) {
      const name = recipeName(recipe);
      const d = dtypesOf(recipe);
      if (document.activeElement !== named) named.value = name ?? 'custom';
      for (const f of RECIPE_FIELDS) dtypeSelects[f].value = d[f];
      custom.hidden = !!name && named.value !== 'custom';
    },
  };
}
