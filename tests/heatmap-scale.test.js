// Colour scales of pe.heatmap (issue 29; c/heatmap.h pe_color_scale, web/api/color-scales.js):
// the colour of each value on the linear, sqrt and log scales against a float64 reference written
// here (entry k = floor(256 · t), t from Math.sqrt / Math.log; a value whose 256·t lies within
// 1e-9 of a whole number may take either neighbour), in both WebAssembly builds; the scale applies
// to the resampled values; zeros and values below the floor take the bottom colour, −∞ stays
// masked; bad scales and ranges are PEErrors naming the option.
import { describe, it, expect, beforeAll } from 'vitest';
import { BUILDS, expectPEError, peFor } from './helpers/pe.js';
import { scalePosition } from '../web/api/color-scales.js';

/** The reference entry of v on scale between lo and hi (an independent float64 formula). */
function refEntry(scale, v, lo, hi) {
  let t;
  if (scale === 'linear') t = (v - lo) / (hi - lo);
  else if (!(v > lo)) t = 0;
  else if (scale === 'sqrt') t = (Math.sqrt(v) - Math.sqrt(lo)) / (Math.sqrt(hi) - Math.sqrt(lo));
  else t = Math.log(v / lo) / Math.log(hi / lo);
  const x = 256 * t;
  const k = Math.min(255, Math.max(0, Math.floor(x)));
  const edge = Math.abs(x - Math.round(x)) < 1e-9 && x > 0.5 && x < 255.5;
  return { k, alt: edge ? Math.min(255, Math.max(0, Math.round(x) - (Math.round(x) === Math.floor(x) ? 1 : 0))) : k };
}

/** The 256 colours of a map, from pe.colorize of each entry's middle. */
function lutOf(pe, map) {
  const mids = Float32Array.from({ length: 256 }, (_, k) => (k + 0.5) / 256);
  return pe.colorize(mids, { map, vmin: 0, vmax: 1 });
}

const same = (px, i, lut, k) => px[4 * i] === lut[4 * k] && px[4 * i + 1] === lut[4 * k + 1] && px[4 * i + 2] === lut[4 * k + 2] && px[4 * i + 3] === lut[4 * k + 3];

describe.each(BUILDS)('pe.heatmap colour scales, %s build', (name, simd) => {
  let pe;
  beforeAll(async () => {
    pe = await peFor(simd);
  });

  const CASES = [
    ['linear', -1, 3], ['linear', 0, 1],
    ['sqrt', 0, 1], ['sqrt', 0.25, 4], ['sqrt', 0, 1e-3],
    ['log', 1e-6, 1], ['log', 1 / 512, 1], ['log', 1e-3, 250],
  ];
  it.each(CASES)('%s scale on [%s, %s]: every value takes the reference entry', (scale, lo, hi) => {
    // Values across the range (log-spaced and even), its ends, zeros, negatives, beyond the top.
    const xs = [];
    for (let i = 0; i <= 600; i++) xs.push(lo + ((hi - lo) * i) / 600);
    for (let i = 0; i <= 600; i++) xs.push(Math.max(lo, 1e-9) * (hi / Math.max(lo, 1e-9)) ** (i / 600));
    xs.push(0, -0, -1, lo / 2, hi * 2, 3e38);
    const values = Float32Array.from(xs);
    const n = values.length;
    for (const map of ['viridis', 'cividis']) {
      const lut = lutOf(pe, map);
      // One row of cells drawn one pixel per cell: the pixels are the cells' colours.
      const px = pe.heatmap(values, { rows: 1, cols: n, width: n, height: 1, map, scale, vmin: lo, vmax: hi });
      let edges = 0;
      for (let i = 0; i < n; i++) {
        const { k, alt } = refEntry(scale, values[i], lo, hi);
        const ok = same(px, i, lut, k) || same(px, i, lut, alt);
        if (!ok) expect.soft(`${values[i]} → not entry ${k}`).toBe('');
        if (k !== alt) edges++;
      }
      expect(edges).toBeLessThan(n / 10);
    }
  });

  it('the mapping matches scalePosition (the colour bar ticks use it) to within one entry', () => {
    for (const [scale, lo, hi] of CASES) {
      for (let i = 0; i <= 100; i++) {
        const v = lo + ((hi - lo) * i ** 2) / 1e4;
        const { k } = refEntry(scale, Math.fround(v), lo, hi);
        expect(Math.abs(Math.min(255, Math.floor(256 * scalePosition(scale, Math.fround(v), lo, hi))) - k)).toBeLessThanOrEqual(1);
      }
    }
  });

  it('zeros and values below the floor are the bottom colour, −∞ transparent, under sqrt and log', () => {
    const lut = lutOf(pe, 'viridis');
    const values = Float32Array.from([0, -2, 1e-9, -Infinity, 1]);
    for (const [scale, lo] of [['sqrt', 0.01], ['log', 1e-4]]) {
      const px = pe.heatmap(values, { rows: 1, cols: 5, width: 5, height: 1, scale, vmin: lo, vmax: 1 });
      for (const i of [0, 1, 2]) expect(same(px, i, lut, 0), `${scale} ${values[i]}`).toBe(true);
      expect([...px.subarray(12, 16)]).toEqual([0, 0, 0, 0]);
      expect(same(px, 4, lut, 255)).toBe(true);
    }
  });

  it('a causal table of weights 1/i drawn small: the scale applies to the resampled means', () => {
    const L = 512;
    const table = new Float32Array(L * L);
    for (let i = 0; i < L; i++) for (let j = 0; j <= i; j++) table[i * L + j] = 1 / (i + 1);
    const opts = { rows: L, cols: L, width: 64, height: 64 };
    const means = pe.heatmap(table, { ...opts, vmin: 0, vmax: 1 }); // linear
    const logPx = pe.heatmap(table, { ...opts, scale: 'log', vmin: 1 / L, vmax: 1 });
    const lut = lutOf(pe, 'viridis');
    const entry = (px, i) => lut.findIndex((_, k) => k % 4 === 0 && same(px, i, lut, k / 4)) / 4;
    // Below the diagonal (the weights; above it are zeros): on the linear scale almost every pixel
    // lies in the bottom tenth of the map (1/i < 0.1 from row 10 on); on the log scale, with the
    // floor 1/512, t = 1 − ln i / ln 512 reaches above a tenth until row 512^0.9 ≈ 274.
    let below = 0;
    let brightLinear = 0;
    let brightLog = 0;
    for (let y = 0; y < 64; y++) {
      for (let x = 0; x < y; x++) {
        below++;
        if (entry(means, y * 64 + x) >= 26) brightLinear++;
        if (entry(logPx, y * 64 + x) >= 26) brightLog++;
      }
    }
    expect(brightLinear / below).toBeLessThan(0.03);
    expect(brightLog / below).toBeGreaterThan(0.2);
  });

  it('refuses an unknown scale and ranges the scale cannot draw, naming the option', () => {
    const t = Float32Array.from([0, 0.5, 1, 2]);
    const base = { rows: 2, cols: 2, width: 2, height: 2 };
    expectPEError(() => pe.heatmap(t, { ...base, scale: 'cubic' }), 'scale', /scale must be one of/);
    expectPEError(() => pe.heatmap(t, { ...base, scale: 'log', vmin: 0, vmax: 1 }), 'vmin', /above 0/);
    expectPEError(() => pe.heatmap(t, { ...base, scale: 'sqrt', vmin: -1, vmax: 1 }), 'vmin', /0 or above/);
    expectPEError(() => pe.heatmap(t, { ...base, scale: 'log', colorRange: () => [0, 1] }), 'colorRange', /above 0/);
    // Left out, the log floor is the table's minimum when above 0, else vmax · 1e-6.
    expect(() => pe.heatmap(t, { ...base, scale: 'log' })).not.toThrow();
    expect(() => pe.heatmap(t, { ...base, scale: 'sqrt' })).not.toThrow();
  });
});

describe('web/plot/color-scale.js: the scale chosen, its range and its colour-bar ticks', () => {
  it('auto: log for a non-negative table spanning two decades, sqrt for one, else linear', async () => {
    const { resolveScale, robustLow, scaledRange } = await import('../web/plot/color-scale.js');
    const L = 512;
    const causal = new Float32Array(L * L);
    for (let i = 0; i < L; i++) for (let j = 0; j <= i; j++) causal[i * L + j] = 1 / (i + 1);
    const low = robustLow(causal, 0, L * L);
    expect(low).toBeGreaterThan(1 / L - 1e-9);
    expect(low).toBeLessThan(1 / 400);
    expect(resolveScale('auto', { lo: 0, hi: 1 }, low)).toBe('log');
    expect(resolveScale('auto', { lo: 0, hi: 1 }, 0.05)).toBe('sqrt');
    expect(resolveScale('auto', { lo: 0, hi: 1 }, 0.5)).toBe('linear');
    expect(resolveScale('auto', { lo: -1, hi: 1 }, 1e-6)).toBe('linear'); // signed: linear
    expect(resolveScale('log', { lo: -1, hi: 1 }, 1e-6)).toBe('linear');
    expect(resolveScale('sqrt', { lo: 0, hi: 1 }, NaN)).toBe('sqrt');
    // The log floor: the robust low, but never more than six decades below the top.
    expect(scaledRange('log', [0, 1], low)).toEqual([low, 1]);
    expect(scaledRange('log', [0, 2], 1e-30)).toEqual([2e-6, 2]);
    expect(scaledRange('sqrt', [-0, 4], 1)).toEqual([0, 4]);
    // A few tiny values (a softmax's 1e-30) do not set the floor.
    const sharp = Float32Array.from({ length: 1000 }, (_, i) => (i < 5 ? 1e-30 : 0.01 + i / 1000));
    expect(robustLow(sharp, 0, 1000)).toBeGreaterThan(0.01);
  });

  it('log ticks are powers of ten, placed where their colours are, with the floor stated', async () => {
    const { scaleTicks, scalePosition } = await import('../web/plot/color-scale.js');
    const ticks = scaleTicks('log', 1 / 512, 1, 6);
    expect(ticks.map((x) => x.label)).toEqual(['≤ 0.001953', '0.01', '0.1', '1']);
    for (const { v, pos } of ticks.slice(1)) {
      expect(Math.log10(v)).toBeCloseTo(Math.round(Math.log10(v)), 12);
      expect(pos).toBeCloseTo(Math.log(v * 512) / Math.log(512), 12);
    }
    expect(ticks[0].pos).toBe(0);
    // Many decades: every other power (or fewer), still powers of ten.
    const wide = scaleTicks('log', 1e-12, 1, 4);
    expect(wide.length).toBeLessThanOrEqual(6);
    for (const { v, label } of wide) if (!label.startsWith('≤')) expect(Math.log10(v) % 1).toBeCloseTo(0, 9);
    // sqrt: nice values at their √ positions.
    for (const { v, pos } of scaleTicks('sqrt', 0, 1, 6)) expect(pos).toBeCloseTo(Math.sqrt(v), 12);
    expect(scaleTicks('sqrt', 0, 1, 6).length).toBeGreaterThanOrEqual(4);
    // linear: unchanged (evenly spaced nice values).
    expect(scaleTicks('linear', 0, 1, 6).map((x) => x.v)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(scalePosition('log', 0, 1e-3, 1)).toBe(0);
  });
});

describe('the JS fallback colours (colorizeRange) are the kernel\'s on every scale', () => {
  it.each(BUILDS)('%s build', async ({ simd }) => {
    const pe = await peFor(simd);
    const { colorizeRange } = await import('../web/plot/color-scale.js');
    const values = Float32Array.from({ length: 4001 }, (_, i) => (i === 7 ? -Infinity : i === 9 ? NaN : 10 ** (-7 + (7.5 * i) / 4000)));
    for (const [scale, lo, hi] of [['linear', 0, 2], ['sqrt', 0, 2], ['sqrt', 0.01, 2], ['log', 1e-6, 2], ['log', 3e-3, 0.5]]) {
      const js = colorizeRange((v, o) => pe.colorize(v, o), values, 'viridis', scale, lo, hi);
      const c = pe.heatmap(values, { rows: 1, cols: values.length, width: values.length, height: 1, scale, vmin: lo, vmax: hi });
      let differ = 0;
      for (let i = 0; i < c.length; i += 4) if (c[i] !== js[i] || c[i + 1] !== js[i + 1] || c[i + 2] !== js[i + 2] || c[i + 3] !== js[i + 3]) differ++;
      // t rounded to float32 before colorize may move a value at an entry's edge by one entry.
      expect(differ, `${scale} [${lo}, ${hi}]`).toBeLessThanOrEqual(values.length / 200);
    }
  });
});

describe('robustLow selects what a sort would (it runs on every redraw of a new table)', () => {
  it('equals the 1st percentile of the sorted positive sample, on tables with zeros, ties, negatives and NaN', async () => {
    const { robustLow } = await import('../web/plot/color-scale.js');
    let seed = 12345;
    const rand = () => {
      seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
      return seed / 4294967296;
    };
    const bySort = (data, count) => {
      const step = Math.max(1, Math.floor(count / 65536));
      const pos = [];
      for (let i = 0; i < count; i += step) if (data[i] > 0 && data[i] < Infinity) pos.push(data[i]);
      pos.sort((a, b) => a - b);
      return pos.length ? pos[Math.floor(0.01 * (pos.length - 1))] : NaN;
    };
    for (let t = 0; t < 60; t++) {
      const n = 1 + Math.floor(rand() * 200000);
      const d = new Float32Array(n);
      for (let i = 0; i < n; i++) {
        const r = rand();
        d[i] = r < 0.1 ? 0 : r < 0.15 ? -r : r < 0.25 ? Math.round(r * 10) / 10 : r < 0.26 ? NaN : rand() ** 5;
      }
      expect(robustLow(d, 0, n), `table ${t} of ${n}`).toBe(bySort(d, n));
    }
    expect(robustLow(new Float32Array([0, -1, NaN]), 0, 3)).toBeNaN();
  });
});
