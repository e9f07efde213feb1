// The sinusoidal kind against NumPy float64 fixtures, and its properties, in both WASM builds.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { loadManifest, loadExpected, maxAbsError } from './helpers/fixtures.js';
import { BUILDS, peFor } from './helpers/pe.js';

const manifest = loadManifest('sinusoidal');

describe.each(BUILDS)('sinusoidal, $name build', ({ name, simd }) => {
  let pe;
  const worstByLayout = {};
  beforeAll(async () => {
    pe = await peFor(simd);
  });
  afterAll(() => {
    // Printed so the run shows the real accuracy, not only pass/fail.
    const lines = Object.entries(worstByLayout).map(([layout, w]) => `${layout} ${w.toExponential(3)}`);
    console.log(`sinusoidal ${name}: worst abs error vs NumPy float64 over ${manifest.cases.length} fixtures: ${lines.join(', ')}`);
  });

  it('loads the requested build', () => {
    expect(pe.simd).toBe(simd);
  });

  it.each(manifest.cases.map((c) => [c.name, c]))('matches the fixture %s', (_, testCase) => {
    const result = pe.compute(testCase.spec);
    expect(result.shape).toEqual(testCase.shape);
    expect(result.data).toBeInstanceOf(Float32Array);
    expect(result.data.length).toBe(testCase.shape[0] * testCase.shape[1]);
    const { worst, at } = maxAbsError(result.data, loadExpected('sinusoidal', testCase), testCase);
    const layout = testCase.spec.layout;
    worstByLayout[layout] = Math.max(worstByLayout[layout] ?? 0, worst);
    expect(worst, `worst error at flat index ${at}`).toBeLessThanOrEqual(testCase.tolerance);
  });

  it('covers every layout, odd and even dims, several bases, offsets and large positions', () => {
    const specs = manifest.cases.map((c) => c.spec);
    expect(new Set(specs.map((s) => s.layout))).toEqual(new Set(['interleaved', 'concat', 'tensor2tensor']));
    expect(specs.some((s) => s.dim % 2 === 1)).toBe(true);
    expect(new Set(specs.map((s) => s.base))).toEqual(new Set([10000, 20000, 500000]));
    expect(specs.some((s) => s.offset + s.length >= 2 ** 20)).toBe(true);
  });

  it('keeps every value in [-1, 1]', () => {
    for (const layout of ['interleaved', 'concat', 'tensor2tensor']) {
      const { data } = pe.compute({ kind: 'sinusoidal', length: 3000, dim: 129, layout, offset: 12345 });
      let min = Infinity;
      let max = -Infinity;
      for (const v of data) { min = Math.min(min, v); max = Math.max(max, v); }
      expect(min).toBeGreaterThanOrEqual(-1);
      expect(max).toBeLessThanOrEqual(1);
    }
  });

  it('starts interleaved tables with [0, 1, 0, 1, ...] and concat tables with [0..0, 1..1]', () => {
    const interleaved = pe.compute({ kind: 'sinusoidal', length: 2, dim: 12 }).data.subarray(0, 12);
    expect(Array.from(interleaved)).toEqual([0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1]);
    const concat = pe.compute({ kind: 'sinusoidal', length: 1, dim: 7, layout: 'concat' }).data;
    expect(Array.from(concat)).toEqual([0, 0, 0, 1, 1, 1, 0]);
  });

  it('gives every position a distinct row', () => {
    const dim = 64;
    const { data } = pe.compute({ kind: 'sinusoidal', length: 4096, dim });
    const seen = new Set();
    for (let row = 0; row < 4096; row++) {
      seen.add(Array.from(data.subarray(row * dim, (row + 1) * dim)).join(','));
    }
    expect(seen.size).toBe(4096);
  });

  it('shifts by offset: rows of an offset table equal the later rows of a longer one', () => {
    const long = pe.compute({ kind: 'sinusoidal', length: 40, dim: 18, layout: 'concat' }).data;
    const shifted = pe.compute({ kind: 'sinusoidal', length: 10, dim: 18, layout: 'concat', offset: 30 }).data;
    expect(Array.from(shifted)).toEqual(Array.from(long.subarray(30 * 18)));
  });

  it('returns copies, never views into WASM memory', () => {
    const first = pe.compute({ kind: 'sinusoidal', length: 8, dim: 8 });
    expect(first.data.buffer.byteLength).toBe(first.data.byteLength);
    const snapshot = Array.from(first.data);
    first.data.fill(42);
    pe.compute({ kind: 'sinusoidal', length: 8, dim: 8, base: 20000 });
    const again = pe.compute({ kind: 'sinusoidal', length: 8, dim: 8 });
    expect(Array.from(again.data)).toEqual(snapshot);
  });

  it('computes tables larger than the initial heap (memory growth)', () => {
    const { data, shape } = pe.compute({ kind: 'sinusoidal', length: 4096, dim: 2048, offset: 7 });
    expect(shape).toEqual([4096, 2048]);
    const p = 4096 + 6;   // last row's position
    expect(Math.abs(data[4095 * 2048] - Math.sin(p))).toBeLessThan(2e-7);
    expect(Math.abs(data[4095 * 2048 + 1] - Math.cos(p))).toBeLessThan(2e-7);
  });
});

describe('SIMD and scalar builds', () => {
  it('agree bit for bit', async () => {
    const simd = await peFor(true);
    const scalar = await peFor(false);
    for (const layout of ['interleaved', 'concat', 'tensor2tensor']) {
      for (const dim of [1, 2, 7, 8, 9, 15, 16, 17, 33, 513, 1600]) {
        const spec = { kind: 'sinusoidal', length: 37, dim, layout, base: 20000, offset: 999983 };
        const a = simd.compute(spec).data;
        const b = scalar.compute(spec).data;
        expect(Buffer.from(a.buffer).equals(Buffer.from(b.buffer)), `${layout} dim ${dim}`).toBe(true);
      }
    }
  });
});
