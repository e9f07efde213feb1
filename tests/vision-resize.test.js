// learned2d: a ViT-style table on a patch grid and its bicubic resize (c/vision_resize.c) against
// PyTorch's F.interpolate(mode='bicubic', align_corners=False), without and with antialias=True
// (resize_antialias), in float64 (tests/fixtures/gen_vision_resize.py), in both WASM builds; the refusals of bad specs; and the
// numbers behind the learned2d views (web/views/vision/math.js).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { loadManifest, loadExpected, maxAbsError } from './helpers/fixtures.js';
import { BUILDS, peFor, expectPEError, expectRejected } from './helpers/pe.js';
import { crossTerms, gridCosine, gridOfRows, neighbourSimilarity, samePlace, tokenPairs } from '../web/views/vision/math.js';

const manifest = loadManifest('learned2d');

describe.each(BUILDS)('learned2d resize, $name build', ({ name, simd }) => {
  let pe;
  // The worst error of the plain and of the antialiased resize, each.
  const worst = [false, true].map(() => ({ rel: 0, abs: 0, name: '' }));
  beforeAll(async () => {
    pe = await peFor(simd);
  });
  afterAll(() => {
    for (const [i, w] of worst.entries()) {
      console.log(`learned2d ${name}, antialias ${i === 1}: worst |kernel − PyTorch float64| = ${w.abs.toExponential(3)} `
        + `(${w.rel.toExponential(3)} of the table's largest value) in ${w.name}; allowed 2e-6 of it`);
    }
  });

  it('has antialiased cases among the fixtures, up and down', () => {
    const aa = manifest.cases.filter((c) => c.spec.resize_antialias);
    expect(aa.some((c) => c.spec.resize_height > c.spec.height)).toBe(true);
    expect(aa.some((c) => c.spec.resize_height < c.spec.height)).toBe(true);
  });

  it.each(manifest.cases.map((c) => [c.name, c]))('matches PyTorch bicubic: %s', (_, testCase) => {
    const result = pe.compute(testCase.spec);
    expect(result.shape).toEqual(testCase.shape);
    const { worst: err, at } = maxAbsError(result.data, loadExpected('learned2d', testCase), testCase);
    const rel = err / (testCase.tolerance / 2e-6);
    const w = worst[testCase.spec.resize_antialias ? 1 : 0];
    if (rel >= w.rel) Object.assign(w, { rel, abs: err, name: testCase.name });
    expect(err, `worst at flat index ${at}`).toBeLessThanOrEqual(testCase.tolerance);
    // The class row passes through, and `source` is the unresized table.
    const plain = pe.compute({ ...testCase.spec, resize_height: null, resize_width: null });
    const same = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);   // fast on 10⁵ values
    expect(same(result.source, plain.data), 'source is the unresized table').toBe(true);
    if (testCase.spec.cls_token) expect(same(result.data.subarray(0, testCase.spec.dim), plain.data.subarray(0, testCase.spec.dim)), 'class row').toBe(true);
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
    expectPEError(() => pe.compute({ ...base, resize_height: 3, resize_width: 3, resize_antialias: 'yes' }), 'resize_antialias', /true or false/);
    expectPEError(() => pe.compute({ ...base, resize_antialias: 1 }), 'resize_antialias');
    expectPEError(() => pe.compute({ ...base, height: 4096, width: 4096, dim: 4, resize_height: 1, resize_width: 1 }), 'height', 'before resizing');
    expectPEError(() => pe.compute({ ...base, dim: 768, resize_height: 4000, resize_width: 4000 }), undefined, 'PE_MAX_ELEMENTS');
    // The C guards behind the schema: their statuses name the spec's fields.
    expectPEError(() => pe._computeUnvalidated({ ...base, resize_height: 5, resize_width: 5000 }), 'resize_width');
    expectPEError(() => pe._computeUnvalidated({ ...base, init: 'normal', std: -1, resize_height: 5, resize_width: 5 }), 'std');
    expectPEError(() => pe._computeUnvalidated({ ...base, dim: 6 }), 'dim');
    expect(pe.compute({ ...base, resize_height: 3, resize_width: 3 }).shape).toEqual([10, 64]);
  });
});

// The numbers behind the learned2d views (web/views/vision/math.js), on hand-made tables.
describe('learned-table view numbers', () => {
  it('reads a loaded table’s grid from its rows: ViT’s [1 + g², d] or [g², d]', () => {
    expect(gridOfRows(197)).toEqual({ prefix: 1, height: 14, width: 14 });
    expect(gridOfRows(577)).toEqual({ prefix: 1, height: 24, width: 24 });
    expect(gridOfRows(196)).toEqual({ prefix: 0, height: 14, width: 14 });
    expect(gridOfRows(1024)).toEqual({ prefix: 0, height: 32, width: 32 });
    expect(gridOfRows(2)).toEqual({ prefix: 1, height: 1, width: 1 });
    expect(gridOfRows(198)).toBe(null);
  });

  it('maps a patch to the same place in the image on the resized grid', () => {
    expect(samePlace(0, 0, 14, 14, 24, 24)).toEqual({ row: 0, col: 0 });
    expect(samePlace(13, 13, 14, 14, 24, 24)).toEqual({ row: 23, col: 23 });
    expect(samePlace(4, 9, 14, 14, 24, 24)).toEqual({ row: 7, col: 16 });   // (4.5·24/14 − 0.5, 9.5·24/14 − 0.5) rounded
    expect(samePlace(7, 7, 14, 14, 7, 7)).toEqual({ row: 3, col: 3 });
  });

  it('leaves the class row out of the similarity grid', () => {
    // cls row = the picked patch's own vector: if it were counted, the grid would be off by one.
    const d = 2;
    const t = new Float32Array([1, 0, /* grid 1 × 3: */ 1, 0, 0, 1, -1, 0]);
    expect(Array.from(gridCosine(t, d, 1, 1, 3, 0))).toEqual([1, 0, -1]);
    expect(neighbourSimilarity(t, d, 1, 1, 3)).toBeCloseTo(0, 12);   // (0 + 0) / 2
  });

  it('measures the cross terms: zero for zero content, e·p + p·e otherwise, none when concatenated', () => {
    const d = 3;
    const p = new Float32Array([0, 0, 0, 1, 2, 3, 4, 5, 6]); // class row, then 2 patches
    const e0 = new Float32Array(6);
    const pairs = tokenPairs(2);
    expect(Array.from(pairs)).toEqual([0, 1]);
    const zero = crossTerms(e0, p, 1, d, pairs);
    expect(zero.cross).toBe(0);
    expect(zero.position).toBe(32);
    const e = new Float32Array([1, 0, 0, 0, 1, 0]);
    const r = crossTerms(e, p, 1, d, pairs);
    expect(r.cross).toBe(4 + 2);   // e_0·p_1 + p_0·e_1 = 4 + 2
    expect(r.content).toBe(0);
    expect(r.concatCross).toBe(0);
    // Many tokens: a sample of distinct pairs (i ≠ j), every index in range.
    const many = tokenPairs(1000, 500);
    expect(many.length).toBe(1000);
    for (let k = 0; k < many.length; k += 2) expect(many[k] !== many[k + 1] && many[k] < 1000 && many[k + 1] < 1000).toBe(true);
  });
});

// pe.resizeTable(table, spec): the resize of a caller's table (a loaded ViT pos_embed), through
// the learned2d binding's resize(). Skipped while web/api/pe.js does not have the method yet.
describe.each(BUILDS)('pe.resizeTable, $name build', ({ simd }) => {
  let pe;
  beforeAll(async () => {
    pe = await peFor(simd);
  });
  const has = () => typeof pe?.resizeTable === 'function';

  it('resizes a given table exactly as learned2d resizes its own', async (ctx) => {
    if (!has()) ctx.skip();
    const spec = { kind: 'learned2d', height: 5, width: 7, dim: 13, init: 'normal', std: 1, seed: 3, resize_height: 9, resize_width: 4 };
    const own = pe.compute(spec);
    const copy = own.source.slice();
    const r = pe.resizeTable(own.source, { height: 5, width: 7, dim: 13, resize_height: 9, resize_width: 4 });
    expect(r.shape).toEqual([37, 13]);
    expect(r.data.every((v, i) => v === own.data[i])).toBe(true);
    expect(own.source).toEqual(copy);   // not modified
  });

  it('resizes antialiased (timm) when resize_antialias is set, as learned2d does, and not otherwise', async (ctx) => {
    if (!has()) ctx.skip();
    const spec = { kind: 'learned2d', height: 24, width: 24, dim: 7, init: 'normal', std: 1, seed: 4, resize_height: 7, resize_width: 7, resize_antialias: true };
    const own = pe.compute(spec);
    const shape = { height: 24, width: 24, dim: 7, resize_height: 7, resize_width: 7 };
    const aa = pe.resizeTable(own.source, { ...shape, resize_antialias: true });
    expect(aa.spec.resize_antialias).toBe(true);
    expect(aa.data.every((v, i) => v === own.data[i])).toBe(true);
    const plain = pe.resizeTable(own.source, shape);
    const gap = plain.data.reduce((m, v, i) => Math.max(m, Math.abs(v - aa.data[i])), 0);
    expect(gap, 'the two resizes differ on a unit-variance table').toBeGreaterThan(0.1);
    expectPEError(() => pe.resizeTable(own.source, { ...shape, resize_antialias: 'true' }), 'resize_antialias');
  });

  it('differs from the plain resize by up to 0.4 on the page’s example (vision.lg.antialias says so)', () => {
    const spec = { kind: 'learned2d', height: 14, width: 14, dim: 768, init: 'normal', std: 1, seed: 0, resize_height: 24, resize_width: 24 };
    const plain = pe.compute(spec).data;
    const aa = pe.compute({ ...spec, resize_antialias: true }).data;
    const gap = plain.reduce((m, v, i) => Math.max(m, Math.abs(v - aa[i])), 0);
    expect(gap).toBeGreaterThan(0.35);
    expect(gap).toBeLessThan(0.45);
  });

  it('refuses a table of the wrong size or a spec without the new grid, naming the field', async (ctx) => {
    if (!has()) ctx.skip();
    const spec = { height: 14, width: 14, dim: 6, resize_height: 24, resize_width: 24 };
    expectPEError(() => pe.resizeTable(new Float32Array(196 * 6), spec), 'table', /\[197, 6\] = 1182 values .* got 1176 values/);
    expectPEError(() => pe.resizeTable([1, 2, 3], spec), 'table', 'Float32Array');
    expectPEError(() => pe.resizeTable(new Float32Array(196 * 6), { ...spec, cls_token: false, resize_height: null, resize_width: null }), 'resize_height');
    expectPEError(() => pe.resizeTable(new Float32Array(196 * 6), { ...spec, cls_token: false, resize_width: 0 }), 'resize_width', /\[1, 4096\]/);
    expect(pe.resizeTable(new Float32Array(196 * 6).fill(0.5), { ...spec, cls_token: false }).data.every((v) => Math.abs(v - 0.5) < 1e-6)).toBe(true);
  });
});
