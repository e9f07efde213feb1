// 2-D and 3-D sinusoidal encodings against NumPy/PyTorch float64 fixtures, in both WASM builds.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createPE, PEError } from '../web/pe.js';
import { loadManifest, loadExpected, maxAbsError } from './helpers/fixtures.js';

const kinds = ['sinusoidal2d', 'sinusoidal3d'];
const builds = [
  { name: 'SIMD', options: { simd: true } },
  { name: 'scalar', options: { simd: false } },
];

describe.each(builds)('vision encodings, $name build', ({ name, options }) => {
  let pe;
  const worst = {};
  beforeAll(async () => {
    pe = await createPE(options);
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
    let error;
    try {
      pe.compute(spec);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PEError);
    expect(error.param).toBe(param);
    expect(pe.compute({ kind: 'sinusoidal2d', height: 2, width: 2, dim: 4 }).shape).toEqual([4, 4]);
  });

  it('checks grids in C too', () => {
    for (const [fields, param] of [[{ height: -1 }, 'height'], [{ dim: 6 }, 'dim'], [{ layout: 'x' }, 'layout']]) {
      expect(() => pe._computeUnvalidated({ kind: 'sinusoidal2d', height: 2, width: 2, dim: 8, ...fields }))
        .toThrow(expect.objectContaining({ param }));
    }
  });
});
