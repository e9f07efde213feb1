// Curves cut to the plot's width before Chart.js sees them (web/plot/lineplot.js): DOM-free, so
// Node tests import it without Chart.js.

/**
 * Points {x, y} of values[ia..ib] (x = x0 + index) with at most about `budget` points: all of
 * them when they fit, otherwise the minimum and maximum of each of budget/2 buckets, in order.
 */
export function decimate(values, x0, ia, ib, budget) {
  const n = ib - ia + 1;
  if (n <= 0) return [];
  // Non-finite values (a masked −∞) become gaps: Chart.js breaks the line at null.
  const y = (v) => (v - v === 0 ? v : null);
  if (n <= budget) {
    const pts = new Array(n);
    for (let i = 0; i < n; i++) pts[i] = { x: x0 + ia + i, y: y(values[ia + i]) };
    return pts;
  }
  const buckets = Math.max(1, Math.floor(budget / 2));
  const pts = [];
  for (let b = 0; b < buckets; b++) {
    const s = ia + Math.floor((b * n) / buckets);
    const e = ia + Math.floor(((b + 1) * n) / buckets);
    let lo = -1;
    let hi = -1;
    let gap = -1;
    for (let i = s; i < e; i++) {
      const v = values[i];
      if (v - v !== 0) {
        if (gap < 0) gap = i;
        continue;
      }
      if (lo < 0 || v < values[lo]) lo = i;
      if (hi < 0 || v > values[hi]) hi = i;
    }
    if (lo < 0) {
      pts.push({ x: x0 + gap, y: null });
      continue;
    }
    const a = Math.min(lo, hi);
    const z = Math.max(lo, hi);
    if (gap >= 0 && gap < a) pts.push({ x: x0 + gap, y: null });
    pts.push({ x: x0 + a, y: values[a] });
    if (z !== a) pts.push({ x: x0 + z, y: values[z] });
    if (gap > z) pts.push({ x: x0 + gap, y: null });
  }
  return pts;
}
