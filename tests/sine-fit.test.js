// The sine-likeness measure (web/model/sine-fit.js): the best single sinusoid's R² per column,
// against NumPy's least squares (numpy.linalg.lstsq on [1, cos ωp, sin ωp] at every grid ω, an
// independent float64 implementation), and its known values: 1 for a sinusoid on the grid, 0 or
// NaN for constant columns, about 2·ln(2L)/L for noise.
//   npx vitest run tests/sine-fit.test.js
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { neighbourCosine, sineColumns, sineFit, sineGrid } from '../web/model/sine-fit.js';

const PYTHON = '/usr/bin/python3';
const havePython = existsSync(PYTHON) && spawnSync(PYTHON, ['-c', 'import numpy'], { encoding: 'utf8' }).status === 0;
if (!havePython) console.warn('[sine-fit.test] /usr/bin/python3 with numpy not found: the NumPy check is skipped');

/** A deterministic N(0, 1) table (Box–Muller on a small LCG). */
function noise(rows, cols, seed = 1) {
  let s = seed >>> 0;
  const u = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) + 0.5) / 2 ** 32;
  return Float64Array.from({ length: rows * cols }, () => Math.sqrt(-2 * Math.log(u())) * Math.cos(2 * Math.PI * u()));
}

describe('sineFit', () => {
  it('finds R² = 1 and the frequency of a sinusoid on the grid, with any offset and phase', () => {
    const L = 40;
    const grid = sineGrid(L);
    const data = new Float64Array(L * 3);
    for (let p = 0; p < L; p++) {
      data[p * 3] = Math.sin(grid[7] * p);
      data[p * 3 + 1] = 2.5 + 0.3 * Math.cos(grid[30] * p + 1.1);
      data[p * 3 + 2] = 4;   // constant: no variance to explain
    }
    const f = sineFit(data, L, 3);
    expect(f.r2[0]).toBeCloseTo(1, 12);
    expect(f.omega[0]).toBe(grid[7]);
    expect(f.r2[1]).toBeCloseTo(1, 12);
    expect(f.omega[1]).toBe(grid[30]);
    expect(f.r2[2]).toBeNaN();
    expect(f.median).toBeCloseTo(1, 12);
  });

  it('gives noise about 2·ln(2L)/L, far below a sinusoidal table', () => {
    const L = 64;
    const f = sineFit(noise(L, 64), L, 64);
    const expected = (2 * Math.log(2 * L)) / L;   // 0.152
    console.log(`[sine-fit] N(0, 1) table 64 × 64: median R² ${f.median.toFixed(3)} (quartiles ${f.q1.toFixed(3)} … ${f.q3.toFixed(3)}); 2·ln(2L)/L = ${expected.toFixed(3)}`);
    expect(f.median).toBeGreaterThan(expected / 2);
    expect(f.median).toBeLessThan(expected * 1.5);
    expect(f.q3).toBeLessThan(0.3);
  });

  it('measures spread columns of a wide table, the first and the last included', () => {
    expect(Array.from(sineColumns(64, 10))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const cols = sineColumns(1024, 768);
    expect(cols.length).toBe(Math.floor(6e7 / (2 * 1024 * 2 * 1024)));
    expect(cols[0]).toBe(0);
    expect(cols[cols.length - 1]).toBe(767);
  });

  it('refuses fewer than 3 rows', () => {
    expect(() => sineFit(new Float64Array(4), 2, 2)).toThrow(/at least 3 rows/);
  });

  it('neighbourCosine: 1 for equal rows, −1 for alternating signs', () => {
    expect(neighbourCosine(Float64Array.from([1, 2, 1, 2, 1, 2]), 3, 2)).toBeCloseTo(1, 15);
    expect(neighbourCosine(Float64Array.from([1, 2, -1, -2, 1, 2]), 3, 2)).toBeCloseTo(-1, 15);
  });

  it.skipIf(!havePython)('equals NumPy lstsq, float64, on noise, a sinusoidal table and a smooth trend', () => {
    const L = 24;
    const C = 6;
    const data = noise(L, C, 7);
    for (let p = 0; p < L; p++) {
      data[p * C + 4] = Math.sin(p / Math.pow(10000, 4 / 6)) + 0.1 * data[p * C + 4];   // a slow wave and some noise
      data[p * C + 5] = p * p;                                                            // a trend
    }
    const js = sineFit(data, L, C);
    const script = `
import json, sys, numpy as np
L, C, data = json.load(sys.stdin)
x = np.array(data, dtype=np.float64).reshape(L, C)
p = np.arange(L, dtype=np.float64)
out = []
for c in range(C):
    y = x[:, c]
    tss = np.sum((y - y.mean()) ** 2)
    best = 0.0
    for k in range(1, 2 * L + 1):
        w = np.pi * k / (2 * L)
        A = np.stack([np.ones(L), np.cos(w * p), np.sin(w * p)], axis=1)
        coef, *_ = np.linalg.lstsq(A, y, rcond=None)
        rss = np.sum((y - A @ coef) ** 2)
        best = max(best, 1 - rss / tss)
    out.append(best)
print(json.dumps(out))`;
    const run = spawnSync(PYTHON, ['-c', script], { input: JSON.stringify([L, C, Array.from(data)]), encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    const np = JSON.parse(run.stdout);
    let worst = 0;
    np.forEach((v, c) => { worst = Math.max(worst, Math.abs(v - js.r2[c])); });
    console.log(`[sine-fit] R² against NumPy lstsq (24 × 6): worst |difference| ${worst.toExponential(2)}`);
    // Both float64; the normal equations lose a few digits to lstsq's QR on nearly collinear
    // low-frequency columns (condition number up to ~1e4 at ω = π/48): 1e-9 is far from that.
    expect(worst).toBeLessThan(1e-9);
  });
});
