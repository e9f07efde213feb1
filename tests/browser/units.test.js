// The page's DOM-free modules, in Node: colour maps through pe.colorize (both builds),
// resampling, number formats, the properties' maths, the language files, output descriptions.
import { describe, it, expect, beforeAll } from 'vitest';
import { createPE, SCHEMA } from '../../web/pe.js';
import { peFor, expectPEError } from '../helpers/pe.js';
import { axisWeights, resampleWindow, scanValues } from '../../web/plot/resample.js';
import { float32String, formatValue, niceRealTicks, niceTicks } from '../../web/plot/format.js';
import { consistency, linearRelation, pairwise } from '../../web/views/generic/properties-math.js';
import { STRINGS, pickLang, translator, textFor } from '../../web/i18n/index.js';
import { outputInfo, displayData } from '../../web/model/output.js';
import { defaultSeries, parseList } from '../../web/model/series.js';
import { difference, presets } from '../../web/views/generic/compare.js';
import { viewsFor } from '../../web/app/views.js';

describe('pe.colorize (c/colormap.c)', () => {
  let simd;
  let scalar;
  beforeAll(async () => {
    simd = await peFor(true);
    scalar = await peFor(false);
  });

  it('maps the ends of the range to the ends of the map', () => {
    for (const pe of [simd, scalar]) {
      const px = pe.colorize(new Float32Array([0, 1, 0.5]), { map: 'viridis', vmin: 0, vmax: 1 });
      expect(px).toBeInstanceOf(Uint8ClampedArray);
      expect([...px.slice(0, 4)]).toEqual([68, 1, 84, 255]); // #440154
      expect([...px.slice(4, 8)]).toEqual([253, 231, 37, 255]); // #fde725
      const d = pe.colorize(new Float32Array([-1, 0, 1]), { map: 'diverging', vmin: -1, vmax: 1 });
      expect([...d.slice(0, 4)]).toEqual([5, 48, 97, 255]);
      expect(Math.min(...d.slice(4, 7))).toBeGreaterThan(235); // white in the middle
      expect([...d.slice(8, 12)]).toEqual([103, 0, 31, 255]);
    }
  });

  it('paints NaN and ±Infinity distinctly (−∞ transparent: "masked")', () => {
    const px = simd.colorize(new Float32Array([NaN, -Infinity, Infinity, 0]), { map: 'cividis', vmin: -1, vmax: 1 });
    expect([...px.slice(0, 4)]).toEqual([255, 0, 255, 255]);
    expect([...px.slice(4, 8)]).toEqual([0, 0, 0, 0]);
    expect([...px.slice(8, 12)]).toEqual([255, 255, 255, 255]);
    const custom = simd.colorize([NaN, -Infinity, Infinity], { vmin: 0, vmax: 1, special: { negInf: [1, 2, 3, 4] } });
    expect([...custom.slice(4, 8)]).toEqual([1, 2, 3, 4]);
  });

  it('gives the same pixels in the SIMD and scalar builds', () => {
    const n = 10_007;
    const v = new Float32Array(n);
    for (let i = 0; i < n; i++) v[i] = Math.sin(i * 0.37) * 3 + (i % 97 === 0 ? -Infinity : 0) + (i % 101 === 0 ? NaN : 0);
    for (const map of ['viridis', 'cividis', 'diverging']) {
      expect(simd.colorize(v, { map, vmin: -2.5, vmax: 2.5 })).toEqual(scalar.colorize(v, { map, vmin: -2.5, vmax: 2.5 }));
    }
  });

  it('fits the range to the data when none is given', () => {
    const px = simd.colorize(new Float32Array([2, 4]), { map: 'viridis' });
    expect([...px.slice(0, 4)]).toEqual([68, 1, 84, 255]);
    expect([...px.slice(4, 8)]).toEqual([253, 231, 37, 255]);
  });

  it('refuses bad options with a PEError naming the option', () => {
    const v = new Float32Array(4);
    expectPEError(() => simd.colorize(v, { map: 'jet' }), 'map');
    expectPEError(() => simd.colorize(v, { vmin: 1, vmax: 1 }), 'vmax');
    expectPEError(() => simd.colorize(v, { vmin: NaN, vmax: 1 }), 'vmin');
    expectPEError(() => simd.colorize(null), 'values');
    expectPEError(() => simd.colorize(v, { vmin: 0, vmax: 1, special: { nan: [1, 2] } }), 'special');
    expect(simd.colorize(v, { vmin: 0, vmax: 1 }).length).toBe(16); // still usable
  });
});

describe('resampling a window to pixels', () => {
  it('takes the cell under each pixel when magnifying', () => {
    const w = axisWeights(0, 4, 8, 4);
    expect([...w.index]).toEqual([0, 0, 1, 1, 2, 2, 3, 3]);
  });

  it('averages by area when minifying, non-finite values left out', () => {
    const w = axisWeights(0, 4, 2, 4);
    expect([...w.index]).toEqual([0, 1, 2, 3]);
    expect([...w.offsets]).toEqual([0, 2, 4]);
    const data = new Float32Array([1, 3, 5, -Infinity, -Infinity, -Infinity, 2, 2]); // 2 rows × 4
    const out = resampleWindow(data, 2, 4, { x0: 0, x1: 4, y0: 0, y1: 2 }, 2, 2);
    expect([...out]).toEqual([2, 5, -Infinity, 2]);
    // Separable, rows first: the mean of the columns' means (each over its finite values).
    const one = resampleWindow(data, 2, 4, { x0: 0, x1: 4, y0: 0, y1: 2 }, 1, 1);
    expect(one[0]).toBeCloseTo((1 + 3 + (5 + 2) / 2 + 2) / 4);
  });

  it('is the identity at one cell per pixel', () => {
    const data = Float32Array.from({ length: 12 }, (_, i) => i);
    expect([...resampleWindow(data, 3, 4, { x0: 0, x1: 4, y0: 0, y1: 3 }, 4, 3)]).toEqual([...data]);
    expect(scanValues(new Float32Array([1, -Infinity, 3]))).toMatchObject({ lo: 1, hi: 3, negInf: true, finite: false });
  });
});

describe('number formats', () => {
  it('reads out the exact float32 value, no more digits', () => {
    expect(float32String(0.1)).toBe('0.1');
    expect(float32String(Math.fround(1 / 3))).toBe('0.33333334');
    expect(float32String(-0.5)).toBe('−0.5');
    expect(formatValue(-Infinity)).toBe('−∞');
    expect(formatValue(123456)).toBe('1.23e5');
  });

  it('places round ticks', () => {
    expect(niceTicks(0, 127, 6)).toEqual([0, 50, 100]);
    expect(niceTicks(0, 127, 10)).toEqual([0, 20, 40, 60, 80, 100, 120]);
    expect(niceRealTicks(-1, 1, 4)).toEqual([-1, -0.5, 0, 0.5, 1]);
  });
});

describe('properties of additive tables, computed', () => {
  let pe;
  beforeAll(async () => {
    pe = await createPE();
  });

  it('finds the sinusoidal table unique, linear under shifts, consistent', () => {
    const L = 256;
    const d = 32;
    const { data } = pe.compute({ kind: 'sinusoidal', length: L, dim: d });
    const pw = pairwise(data, L, d);
    expect(pw.n).toBe(L);
    expect(pw.minDist).toBeGreaterThan(0.01);
    expect(pw.meanDot[0]).toBeCloseTo(d / 2, 4); // sin² + cos² = 1 per pair
    const lin = linearRelation(data, L, d);
    expect(lin.underdetermined).toBe(false);
    for (const f of lin.fits) expect(f.residual, `k = ${f.k}`).toBeLessThan(1e-5);
    const c = consistency(data, L, d);
    expect(c.first).toEqual([3, 5]);
    expect(c.second).toEqual([103, 105]);
    expect(Math.abs(c.normA - c.normB)).toBeLessThan(1e-5);
    expect(c.cosine).toBeLessThan(0.999);
  });

  it('finds no linear shift in a random table', () => {
    const L = 300;
    const d = 16;
    // A seeded random table (not from the API, so this test does not depend on other kinds).
    let s = 1;
    const data = Float32Array.from({ length: L * d }, () => {
      s = (s * 1103515245 + 12345) % 2 ** 31;
      return s / 2 ** 31 - 0.5;
    });
    const lin = linearRelation(data, L, d);
    expect(Math.min(...lin.fits.map((f) => f.residual))).toBeGreaterThan(0.3);
  });

  it('says when it cannot tell (more dimensions than positions)', () => {
    let s = 7;
    const random = Float32Array.from({ length: 40 * 64 }, () => {
      s = (s * 1103515245 + 12345) % 2 ** 31;
      return s / 2 ** 31 - 0.5;
    });
    const lin = linearRelation(random, 40, 64);
    expect(lin.underdetermined).toBe(true);
    expect(lin.rank).toBe(lin.n);
    const { data } = pe.compute({ kind: 'sinusoidal', length: 40, dim: 64 });
    expect(linearRelation(data.subarray(0, 64 * 3), 3, 64)).toEqual({ skipped: 'short' });
    expect(consistency(data, 4, 64)).toBeNull();
  });

  it('limits the pairwise work to a budget and says so', () => {
    const { data } = pe.compute({ kind: 'sinusoidal', length: 2000, dim: 64 });
    const pw = pairwise(data, 2000, 64, 2 ** 20);
    expect(pw.partial).toBe(true);
    expect(pw.n).toBeLessThan(2000);
  });
});

describe('language files', () => {
  it('have the same keys, of the same kind, in Korean and English', () => {
    const en = STRINGS.en;
    const ko = STRINGS.ko;
    expect(Object.keys(ko).sort()).toEqual(Object.keys(en).sort());
    for (const k of Object.keys(en)) {
      expect(typeof ko[k], k).toBe(typeof en[k]);
      if (typeof en[k] === 'string') expect(ko[k].length, k).toBeGreaterThan(0);
    }
  });

  it('pick the language from the URL, the last choice, then navigator.languages', () => {
    expect(pickLang({ languages: ['ko-KR', 'en-US'] })).toBe('ko');
    expect(pickLang({ languages: ['fr-FR', 'en-GB'] })).toBe('en');
    expect(pickLang({ languages: ['de'] })).toBe('en');
    expect(pickLang({ query: 'en', stored: 'ko', languages: ['ko'] })).toBe('en');
    expect(pickLang({ stored: 'ko', languages: ['en'] })).toBe('ko');
    const t = translator('ko');
    expect(t('view.heatmap.title')).toBe('전체 표');
    expect(t.tr({ en: 'a', ko: '가' })).toBe('가');
    expect(textFor('view.heatmap.explain', 'no-such-kind', 'table').ko).toBe(STRINGS.ko['view.heatmap.explain.table']);
  });
});

describe('outputs and views of every kind in the schema', () => {
  let pe;
  beforeAll(async () => {
    pe = await createPE();
  });

  it('describes each kind’s output and gives it the generic views', () => {
    for (const kind of Object.keys(SCHEMA)) {
      const r = pe.compute(pe.defaults(kind));
      const info = outputInfo(kind, SCHEMA[kind], r.shape);
      expect(['table', 'angles', 'pairwise', 'ids', 'generic'], kind).toContain(info.class);
      expect(info.rows * info.cols * info.slices, kind).toBe(r.data.length);
      const ids = viewsFor(info).map((v) => v.id);
      expect(ids, kind).toEqual(expect.arrayContaining(['heatmap', 'lines', 'compare']));
      expect(ids.includes('properties'), kind).toBe(info.additive);
      const series = defaultSeries(info);
      expect(series.list.length, kind).toBeGreaterThan(0);
      expect(displayData({ result: r, info, shared: {} }, pe).length).toBe(r.data.length);
    }
    expect(outputInfo('sinusoidal', SCHEMA.sinusoidal, [128, 64]).class).toBe('table');
  });

  it('parses the line plot’s list and compares masked tables', () => {
    expect(parseList('0, 1, 6-9')).toEqual({ list: [0, 1, 6, 7, 8, 9], bad: null });
    expect(parseList('3, x').bad).toBe('x');
    const d = difference(new Float32Array([1, -Infinity]), 0, new Float32Array([0.5, -Infinity]), 0, 1, 2, 2, 2);
    expect([...d]).toEqual([0.5, -Infinity]);
    const p = presets(SCHEMA.sinusoidal.fields, pe.defaults('sinusoidal'));
    expect(p).toEqual(expect.arrayContaining([{ field: 'layout', value: 'concat', kind: 'set' }, { field: 'base', value: 20000, kind: 'double' }]));
  });
});
