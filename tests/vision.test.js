// 2-D and 3-D sinusoidal encodings against NumPy/PyTorch float64 fixtures, in both WASM builds.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { loadManifest, loadExpected, maxAbsError } from './helpers/fixtures.js';
import { BUILDS, peFor, expectPEError } from './helpers/pe.js';

const kinds = ['sinusoidal2d', 'sinusoidal3d'];

describe.each(BUILDS)('vision encodings, $name build', ({ name, simd }) => {
  let pe;
  const worst = {};
  beforeAll(async () => {
    pe = await peFor(simd);
  });
  afterAll(() => {
    console.log(`vision ${name}: worst abs error vs float64 fixtures: ${Object.entries(worst).map(([k, w]) => `${k} ${w.toExponential(3)}`).join(', ')}`);
  });

  for (const kind of kinds) {
    const manifest = loadManifest(kind);
    it.each(manifest.cases.map((c) => [c.name, c]))(`${kind} matches the fixture %s`, (_, testCase) => {
      const result = pe.compute(testCase.spec);
      expect(result.shape).toEqual(testCase.shape);
      const { worst: err, at } = maxAbsError(result.data, loadExpected(kind, testCase), testCase);
      const key = kind === 'sinusoidal2d' ? testCase.spec.layout : kind;
      worst[key] = Math.max(worst[key] ?? 0, err);
      expect(err, `worst at flat index ${at}`).toBeLessThanOrEqual(testCase.tolerance);
    });
  }

  it('pins the MAE channel order: the first half encodes the column, the second the row', () => {
    const dim = 8;
    const { data } = pe.compute({ kind: 'sinusoidal2d', height: 3, width: 5, dim, layout: 'mae' });
    const token = (r, c) => Array.from(data.subarray((r * 5 + c) * dim, (r * 5 + c + 1) * dim));
    // Token (row 0, column 2): first half = concat1d(2), second half = position 0 = [0, 0, 1, 1].
    expect(token(0, 2).slice(4)).toEqual([0, 0, 1, 1]);
    expect(token(0, 2)[0]).toBeCloseTo(Math.sin(2), 6);
    // Token (row 2, column 0): first half = position 0, second half encodes row 2.
    expect(token(2, 0).slice(0, 4)).toEqual([0, 0, 1, 1]);
    expect(token(2, 0)[4]).toBeCloseTo(Math.sin(2), 6);
  });

  it('makes tokens of the same row share the row channels (tatp22) and differ in the column ones', () => {
    const dim = 16;
    const { data } = pe.compute({ kind: 'sinusoidal2d', height: 4, width: 4, dim, layout: 'tatp22' });
    const token = (r, c) => data.subarray((r * 4 + c) * dim, (r * 4 + c + 1) * dim);
    expect(Array.from(token(2, 1).subarray(0, 8))).toEqual(Array.from(token(2, 3).subarray(0, 8)));
    expect(Array.from(token(2, 1).subarray(8))).not.toEqual(Array.from(token(2, 3).subarray(8)));
  });

  it('gives every patch of a 16×16 grid a distinct encoding in every layout', () => {
    for (const layout of ['mae', 'sum', 'tatp22']) {
      const { data } = pe.compute({ kind: 'sinusoidal2d', height: 16, width: 16, dim: 32, layout });
      const seen = new Set();
      for (let k = 0; k < 256; k++) seen.add(Array.from(data.subarray(k * 32, (k + 1) * 32)).join(','));
      // sum is symmetric in (row, col): I(r)+I(c) = I(c)+I(r), so transposed patches coincide.
      expect(seen.size, layout).toBe(layout === 'sum' ? 16 * 17 / 2 : 256);
    }
  });

  it.each([
    [{ kind: 'sinusoidal2d', height: 0, width: 4, dim: 8 }, 'height'],
    [{ kind: 'sinusoidal2d', height: 4, width: 4097, dim: 8 }, 'width'],
    [{ kind: 'sinusoidal2d', height: 4, width: 4, dim: 6 }, 'dim'],
    [{ kind: 'sinusoidal2d', height: 4, width: 4, dim: 8, layout: 'grid' }, 'layout'],
    [{ kind: 'sinusoidal2d', height: 4, width: 4, dim: 8, base: 1 }, 'base'],
    [{ kind: 'sinusoidal2d', height: 4096, width: 4096, dim: 8 }, 'height'],
    [{ kind: 'sinusoidal3d', depth: 0, height: 2, width: 2, dim: 6 }, 'depth'],
    [{ kind: 'sinusoidal3d', depth: 2, height: 2, width: 2, dim: 6, layout: 'mae' }, 'layout'],
    [{ kind: 'sinusoidal3d', depth: 2.5, height: 2, width: 2, dim: 6 }, 'depth'],
  ])('rejects %j with a PEError naming %s', (spec, param) => {
    expectPEError(() => pe.compute(spec), param);
    expect(pe.compute({ kind: 'sinusoidal2d', height: 2, width: 2, dim: 4 }).shape).toEqual([4, 4]);
  });

  it('checks grids in C too', () => {
    for (const [fields, param] of [[{ height: -1 }, 'height'], [{ dim: 6 }, 'dim'], [{ layout: 'x' }, 'layout']]) {
      expectPEError(() => pe._computeUnvalidated({ kind: 'sinusoidal2d', height: 2, width: 2, dim: 8, ...fields }), param);
    }
  });
});

describe.each(BUILDS)('axial 2-D RoPE, $name build', ({ simd }) => {
  let pe;
  beforeAll(async () => {
    pe = await peFor(simd);
  });
  const manifest = loadManifest('rope_axial');

  it.each(manifest.cases.map((c) => [c.name, c]))('matches the float64 reference: %s', (_, testCase) => {
    const expected = loadExpected('rope_axial', testCase);
    const s = testCase.spec;
    const pairs = Math.trunc(s.dim * s.partial_rotary_factor) / 2;
    const count = s.length * pairs;
    const result = pe.compute(s);
    expect(result.shape).toEqual([s.length, pairs]);
    let angleErr = 0;
    for (let j = 0; j < count; j++) {
      angleErr = Math.max(angleErr, Math.abs(result.data[j] - expected[j]) / Math.max(Math.abs(expected[j]), 1e-30));
    }
    expect(angleErr, 'relative angle error').toBeLessThanOrEqual(2 ** -24);
    const { cos, sin } = pe.ropeTables(s);
    let worst = 0;
    for (let j = 0; j < count; j++) {
      worst = Math.max(worst, Math.abs(cos[j] - expected[count + j]), Math.abs(sin[j] - expected[2 * count + j]));
    }
    expect(worst).toBeLessThanOrEqual(testCase.tolerance);
  });

  it('rotates the first half of the pairs with the row and the second half with the column', () => {
    const spec = { kind: 'rope', length: 12, dim: 8, base: 100, grid_height: 3, grid_width: 4 };
    const { data } = pe.compute(spec);   // (12, 4): pairs 0-1 row, 2-3 column
    const token = (r, c) => Array.from(data.subarray((r * 4 + c) * 4, (r * 4 + c + 1) * 4));
    expect(token(2, 0).slice(2)).toEqual([0, 0]);
    expect(token(0, 3).slice(0, 2)).toEqual([0, 0]);
    expect(token(2, 3)[0]).toBe(2);
    expect(token(2, 3)[2]).toBe(3);
  });

  it('applies the grid rotation to vectors: q·k depends only on the 2-D offset', () => {
    const spec = { kind: 'rope', length: 16, dim: 8, base: 100, grid_height: 4, grid_width: 4 };
    const v = new Float32Array(16 * 8);
    for (let i = 0; i < v.length; i++) v[i] = ((i % 8) + 1) / 8;   // the same vector at every token
    const { data } = pe.applyRope(v, spec);
    const dot = (a, b) => { let s = 0; for (let j = 0; j < 8; j++) s += data[a * 8 + j] * data[b * 8 + j]; return s; };
    // tokens (0,0)·(1,2) and (2,1)·(3,3): both offsets (1, 2)
    expect(dot(0, 6)).toBeCloseTo(dot(9, 15), 5);
    expect(dot(0, 6)).not.toBeCloseTo(dot(0, 9), 3);
  });

  it.each([
    [{ grid_height: 4 }, 'grid_width'],
    [{ grid_height: 4, grid_width: 5 }, 'length'],
    [{ length: 12, dim: 6, grid_height: 3, grid_width: 4 }, 'dim'],
    [{ length: 12, grid_height: 3, grid_width: 4, rope_scaling: { rope_type: 'linear', factor: 2 } }, 'rope_scaling'],
    [{ length: 12, grid_height: 3, grid_width: 0 }, 'grid_width'],
  ])('rejects %j with a PEError naming %s', (fields, param) => {
    expectPEError(() => pe.compute({ kind: 'rope', length: 16, dim: 8, ...fields }), param);
  });
});
