// The properties view's math past the dense budget (web/views/generic/properties-math.js): the
// dot-product curve by FFT against direct float64 sums, and the shift fit from pairs of columns,
// which must prove the sinusoidal table's shift linear in every layout and give no verdict on a
// table with no such structure.
import { describe, it, expect, beforeAll } from 'vitest';
import { peFor } from './helpers/pe.js';
import { linearRelation, meanDotFFT, pairwise } from '../web/views/generic/properties-math.js';

describe('properties at the tutorial size', () => {
  let pe;
  beforeAll(async () => {
    pe = await peFor(true);
  });

  it('computes the mean dot product at every distance by FFT, as the direct sums do', () => {
    for (const [L, d] of [[1, 3], [2, 1], [57, 9], [300, 17]]) {
      let s = 11;
      const data = Float32Array.from({ length: L * d }, () => {
        s = (s * 1103515245 + 12345) % 2 ** 31;
        return s / 2 ** 31 - 0.5;
      });
      const fast = meanDotFFT(data, L, d);
      expect(fast.length).toBe(L);
      let worst = 0;
      for (let k = 0; k < L; k++) {
        let sum = 0;
        for (let p = 0; p + k < L; p++) for (let c = 0; c < d; c++) sum += data[p * d + c] * data[(p + k) * d + c];
        worst = Math.max(worst, Math.abs(sum / (L - k) - fast[k]));
      }
      expect(worst, `${L} × ${d}`).toBeLessThan(1e-12);
    }
  });

  it('gives the whole dot-product curve when the pairs are limited to a budget', () => {
    const { data } = pe.compute({ kind: 'sinusoidal', length: 2000, dim: 64 });
    const pw = pairwise(data, 2000, 64, 2 ** 20);
    expect(pw.partial).toBe(true);
    expect(pw.meanDot.length).toBe(2000);
    expect(pw.meanDot[0]).toBeCloseTo(32, 4); // sin² + cos² = 1 per pair
    let direct = 0;
    for (let p = 0; p + 1500 < 2000; p++) for (let c = 0; c < 64; c++) direct += data[p * 64 + c] * data[(p + 1500) * 64 + c];
    expect(pw.meanDot[1500]).toBeCloseTo(direct / 500, 9);
  });

  it('proves the 2000 × 1600 sinusoidal shift linear from pairs of columns, in every layout', () => {
    for (const layout of ['interleaved', 'concat', 'tensor2tensor']) {
      const { data } = pe.compute({ kind: 'sinusoidal', length: 2000, dim: 1600, layout });
      const lin = linearRelation(data, 2000, 1600);
      expect(lin.skipped, layout).toBeUndefined();
      expect(lin.pairing, layout).toBe(layout === 'interleaved' ? 'interleaved' : 'halves');
      expect(lin.fits.map((f) => f.k)).toEqual([1, 2, 5, 10, 50, 100]);
      for (const f of lin.fits) expect(f.residual, `${layout} k = ${f.k}`).toBeLessThan(1e-5);
    }
  });

  it('gives no verdict from pairs on a table without that structure', () => {
    const { data } = pe.compute({ kind: 'learned', length: 2000, dim: 1600 });
    const lin = linearRelation(data, 2000, 1600);
    expect(lin.skipped).toBe('large');
  });
});
