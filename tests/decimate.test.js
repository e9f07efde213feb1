// web/plot/decimate.js (used by lineplot.js): a curve cut to two points (minimum and maximum) per pixel column
// before Chart.js sees it, so the envelope looks as with every point, and masked values stay gaps.
import { describe, it, expect } from 'vitest';
import { decimate } from '../web/plot/decimate.js';

describe('decimate', () => {
  it('keeps every point when they fit, and the min and max of each column otherwise', () => {
    const n = 2000;
    const values = Float32Array.from({ length: n }, (_, i) => Math.sin(i * 0.37) * (1 + i / n));
    expect(decimate(values, 5, 0, 99, 200)).toHaveLength(100);
    const budget = 600;
    const pts = decimate(values, 0, 0, n - 1, budget);
    expect(pts.length).toBeLessThanOrEqual(budget);
    for (let i = 1; i < pts.length; i++) expect(pts[i].x).toBeGreaterThan(pts[i - 1].x);
    // Each column's extremes are kept: the overall envelope is exact.
    const ys = pts.map((p) => p.y);
    expect(Math.max(...ys)).toBe(Math.max(...values));
    expect(Math.min(...ys)).toBe(Math.min(...values));
    const columns = budget / 2;
    for (let b = 0; b < columns; b++) {
      const s = Math.floor((b * n) / columns);
      const e = Math.floor(((b + 1) * n) / columns);
      const inCol = pts.filter((p) => p.x >= s && p.x < e).map((p) => p.y);
      expect(Math.max(...inCol)).toBe(Math.max(...values.subarray(s, e)));
      expect(Math.min(...inCol)).toBe(Math.min(...values.subarray(s, e)));
    }
  });

  it('turns masked values into gaps (null)', () => {
    const values = Float32Array.from({ length: 1000 }, (_, i) => (i >= 400 && i < 500 ? -Infinity : i % 7));
    const pts = decimate(values, 0, 0, 999, 100);
    expect(pts.some((p) => p.y === null)).toBe(true);
    expect(pts.every((p) => p.y === null || Number.isFinite(p.y))).toBe(true);
  });
});
