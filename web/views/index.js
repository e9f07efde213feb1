// The registry of views. The page shows, for the chosen kind, every view here whose `kinds`
// accepts it, in this order. To add a view: write web/views/<id>.js (see README.md) and list it
// here; the shell (web/app.js) needs no change.
import heatmap from './heatmap.js';
import lines from './lines.js';
import properties from './properties.js';
import compare from './compare.js';
import load from './load.js';
import rope from './rope/index.js';
import bias from './bias/index.js';
import vision from './vision/index.js';
import attention from './attention/index.js';
import share from './share/index.js';

// Generic views first, then each family's own (their folders list them), compare last.
export const VIEWS = [load, heatmap, lines, properties, ...rope, ...bias, ...vision, ...attention, ...share, compare];

/** Whether a view applies to an output (info from web/views/output.js). */
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
