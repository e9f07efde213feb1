// learned2d: a ViT-style table on a patch grid and its bicubic resize (c/vision_resize.c) against
// PyTorch's F.interpolate(mode='bicubic', align_corners=False) in float64
// (tests/fixtures/gen_vision_resize.py), in both WASM builds; and the refusals of bad specs.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { loadManifest, loadExpected, maxAbsError } from './helpers/fixtures.js';
import { BUILDS, peFor, expectPEError, expectRejected } from './helpers/pe.js';

const manifest = loadManifest('learned2d');

describe.each(BUILDS)('learned2d resize, $name build', ({ name, simd }) => {
  let pe;
  let worst = { rel: 0, abs: 0, name: '' };
  beforeAll(async () => {
    pe = await peFor(simd);
  });
  afterAll(() => {
    console.log(`learned2d ${name}: worst |kernel − PyTorch float64| = ${worst.abs.toExponential(3)} `
      + `(${worst.rel.toExponential(3)} of the table's largest value) in ${worst.name}; allowed 2e-6 of it`);
  });

  it.each(manifest.cases.map((c) => [c.name, c]))('matches PyTorch bicubic: %s', (_, testCase) => {
    const result = pe.compute(testCase.spec);
    expect(result.shape).toEqual(testCase.shape);
    const { worst: err, at } = maxAbsError(result.data, loadExpected('learned2d', testCase), testCase);
    const rel = err / (testCase.tolerance / 2e-6);
    if (rel >= worst.rel) worst = { rel, abs: err, name: testCase.name };
    expect(err, `worst at flat index ${at}`).toBeLessThanOrEqual(testCase.tolerance);
    // The class row passes through, and `source` is the unresized table.
    const plain = pe.compute({ ...testCase.spec, resize_height: null, resize_width: null });
    expect(result.source).toEqual(plain.data);
    if (testCase.spec.cls_token) expect(result.data.subarray(0, testCase.spec.dim)).toEqual(plain.data.subarray(0, testCase.spec.dim));
  });

  it('a sincos table keeps a zero class row and MAE’s grid (column half first)', () => {
    const r = pe.compute({ kind: 'learned2d', height: 2, width: 3, dim: 8 });
    const grid = pe.compute({ kind: 'sinusoidal2d', height: 2, width: 3, dim: 8, layout: 'mae' });
    expect(r.shape).toEqual([7, 8]);
    expect(Array.from(r.data.subarray(0, 8))).toEqual(new Array(8).fill(0));
    expect(r.data.subarray(8)).toEqual(grid.data);
    expect(r.source).toBeUndefined();
  });

  it('a normal table is the learned kind’s table with the same seed', () => {
    const r = pe.compute({ kind: 'learned2d', height: 3, width: 4, dim: 10, init: 'normal', std: 0.02, seed: 5 });
    const flat = pe.compute({ kind: 'learned', length: 13, dim: 10, std: 0.02, seed: 5 });
    expect(r.data).toEqual(flat.data);
  });

  it('refuses bad specs with a PEError naming the field and its range', () => {
    const base = { kind: 'learned2d', height: 14, width: 14, dim: 64 };
    expectRejected(pe, () => pe.compute({ ...base, resize_height: 24 }), 'resize_width', /resize_width must be an integer in \[1, 4096\] when resize_height is set/,
      () => pe.compute({ ...base, resize_height: 2, resize_width: 2 }));
    expectPEError(() => pe.compute({ ...base, resize_width: 9 }), 'resize_height', 'set both or neither');
    expectPEError(() => pe.compute({ ...base, resize_height: 0, resize_width: 3 }), 'resize_height', /\[1, 4096\], got 0/);
    expectPEError(() => pe.compute({ ...base, resize_height: 3, resize_width: 4097 }), 'resize_width', /\[1, 4096\], got 4097/);
    expectPEError(() => pe.compute({ ...base, resize_height: 2.5, resize_width: 3 }), 'resize_height', /integer/);
    expectPEError(() => pe.compute({ ...base, dim: 6 }), 'dim', 'multiple of 4 for init "sincos"');
    expectPEError(() => pe.compute({ ...base, init: 'learned' }), 'init', /sincos.*normal/);
    expectPEError(() => pe.compute({ ...base, init: 'normal', std: 0 }), 'std');
    expectPEError(() => pe.compute({ ...base, cls_token: 1 }), 'cls_token');
    expectPEError(() => pe.compute({ ...base, height: 4096, width: 4096, dim: 4, resize_height: 1, resize_width: 1 }), 'height', 'before resizing');
    expectPEError(() => pe.compute({ ...base, dim: 768, resize_height: 4000, resize_width: 4000 }), undefined, 'PE_MAX_ELEMENTS');
    // The C guards behind the schema: their statuses name the spec's fields.
    expectPEError(() => pe._computeUnvalidated({ ...base, resize_height: 5, resize_width: 5000 }), 'resize_width');
    expectPEError(() => pe._computeUnvalidated({ ...base, init: 'normal', std: -1, resize_height: 5, resize_width: 5 }), 'std');
    expectPEError(() => pe._computeUnvalidated({ ...base, dim: 6 }), 'dim');
    expect(pe.compute({ ...base, resize_height: 3, resize_width: 3 }).shape).toEqual([10, 64]);
  });
});
