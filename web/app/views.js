// The registry of views. The page shows, for the chosen kind, every view here whose `kinds`
// accepts it, in this order. To add a view: write it under web/views/ (see web/views/README.md)
// and list it here; the shell (web/app/app.js) needs no change.
import heatmap from '../views/generic/heatmap.js';
import lines from '../views/generic/lines.js';
import properties from '../views/generic/properties.js';
import compare from '../views/generic/compare.js';
import load from '../views/generic/load.js';
import rope from '../views/rope/index.js';
import precision from '../views/precision/index.js';
import absolute from '../views/absolute/index.js';
import relative from '../views/relative/index.js';
import vision from '../views/vision/index.js';
import attention from '../views/attention/index.js';
import share from '../share/index.js';

// Generic views first, then each family's own (their folders list them), compare last.
export const VIEWS = [load, heatmap, lines, properties, ...rope, ...precision, ...relative, ...absolute, ...vision, ...attention, ...share, compare];

/**
 * Advanced views: shown folded (their header only) until the reader opens them; a folded view
 * mounts only when opened. The first views of each family stay open.
 */
export const ADVANCED = new Set([
  'rope-wavelengths', 'rope-relative',
]);

/** Whether a view starts folded (an `advanced: true` descriptor or a listed id). */
export function isAdvanced(view) {
  return view.advanced === true || ADVANCED.has(view.id);
}

/** Whether a view applies to an output (info from web/model/output.js). */
export function viewApplies(view, info) {
  const k = view.kinds;
  if (typeof k === 'function') return !!k(info);
  if (Array.isArray(k)) return k.includes(info.kind);
  return k === '*' || k === undefined;
}

/** The views for an output, in registry order. */
export function viewsFor(info) {
  return VIEWS.filter((v) => viewApplies(v, info));
}
