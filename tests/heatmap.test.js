// pe.heatmap and pe.heatmapRange (web/api/kernels/heatmap.js, c/heatmap.c) in both WASM builds:
// the pixels against a float64 reference written here (each cell's tent weight integrated
// numerically, one 2-D weighted mean per pixel, then pe.colorize's colours), non-finite cells,
// slices of a 3-D output, the cache of the last table, and every bad option as a PEError.
import { describe, it, expect, beforeAll } from 'vitest';
import { BUILDS, expectPEError, peFor } from './helpers/pe.js';

/** ∫_p^q of the unit-area tent of half-width r centred at c, by the midpoint rule (fine steps). */
function tentIntegral(p, q, c, r) {
  const steps = 400;
  let total = 0;
  for (let i = 0; i < steps; i++) {
    const u = p + ((i + 0.5) * (q - p)) / steps - c;
    total += Math.max(0, 1 - Math.abs(u) / r) / r;
  }
  return (total * (q - p)) / steps;
}

/** The weight of every cell for pixel i of n over the window [a, b) of len cells. */
function weights(a, b, n, i, len) {
  const s = (b - a) / n;
  const c = a + (i + 0.5) * s;
  const w = new Float64Array(len);
  if (s <= 1) w[Math.min(len - 1, Math.max(0, Math.floor(c)))] = 1;
  else for (let j = 0; j < len; j++) w[j] = tentIntegral(j, j + 1, c, s);
  return w;
}

/** Reference values: width × height float64 weighted means over the finite cells. */
function reference(table, rows, cols, { x0, x1, y0, y1 }, width, height, offset = 0) {
  const out = new Float64Array(width * height);
  for (let y = 0; y < height; y++) {
    const wy = weights(y0, y1, height, y, rows);
    for (let x = 0; x < width; x++) {
      const wx = weights(x0, x1, width, x, cols);
      let num = 0;
      let den = 0;
      const kinds = new Set();
      for (let r = 0; r < rows; r++) {
        if (wy[r] <= 1e-12) continue;
        for (let c = 0; c < cols; c++) {
          const w = wy[r] * wx[c];
          if (w <= 1e-12) continue;
          const v = table[offset + r * cols + c];
          if (Number.isFinite(v)) {
            num += w * v;
            den += w;
          } else kinds.add(Number.isNaN(v) ? 'nan' : v);
        }
      }
      let v = num / den;
      if (!(den > 0)) v = kinds.size === 1 && !kinds.has('nan') ? [...kinds][0] : NaN;
      out[y * width + x] = v;
    }
  }
  return out;
}

describe.each(BUILDS)('pe.heatmap, $name build', ({ simd }) => {
  let pe;
  beforeAll(async () => {
    pe = await peFor(simd);
  });

  it('matches the float64 reference, minified and magnified, with masked cells', () => {
    const rows = 37;
    const cols = 23;
    const table = new Float32Array(rows * cols);
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) table[r * cols + c] = c > r + 5 ? -Infinity : Math.sin(0.7 * r) * Math.cos(1.3 * c);
    }
    table[5] = NaN;
    let worstIndex = 0;
    for (const [win, width, height] of [
      [{ x0: 0, x1: cols, y0: 0, y1: rows }, 7, 9],
      [{ x0: 0, x1: cols, y0: 0, y1: rows }, 5, 37],
      [{ x0: 2.5, x1: 20.25, y0: 3.75, y1: 30 }, 6, 4],
      [{ x0: 4, x1: 9, y0: 10, y1: 13 }, 5, 3],
    ]) {
      const ref = reference(table, rows, cols, win, width, height);
      const refRgba = pe.colorize(Float32Array.from(ref), { map: 'viridis', vmin: -1, vmax: 1 });
      const rgba = pe.heatmap(table, { rows, cols, window: win, width, height, map: 'viridis', vmin: -1, vmax: 1 });
      expect(rgba).toBeInstanceOf(Uint8ClampedArray);
      expect(rgba.length).toBe(width * height * 4);
      const lut = pe.colorize(Float32Array.from({ length: 256 }, (_, k) => -1 + (2 * (k + 0.5)) / 256), { map: 'viridis', vmin: -1, vmax: 1 });
      const indexOf = (px, i) => {
        for (let k = 0; k < 256; k++) if (lut[4 * k] === px[4 * i] && lut[4 * k + 1] === px[4 * i + 1] && lut[4 * k + 2] === px[4 * i + 2]) return k;
        return -1;
      };
      for (let i = 0; i < width * height; i++) {
        if (!Number.isFinite(ref[i])) {
          // Masked stays masked (transparent), NaN magenta.
          expect([...rgba.subarray(4 * i, 4 * i + 4)], `pixel ${i}`).toEqual([...refRgba.subarray(4 * i, 4 * i + 4)]);
          continue;
        }
        // Float32 sums may cross a colour-table boundary the float64 value sits next to.
        const d = Math.abs(indexOf(rgba, i) - indexOf(refRgba, i));
        worstIndex = Math.max(worstIndex, d);
        expect(d, `pixel ${i} of ${width} × ${height}`).toBeLessThanOrEqual(1);
      }
    }
    console.log(`pe.heatmap (${simd ? 'SIMD' : 'scalar'}): worst colour-table step vs the float64 reference: ${worstIndex}`);
  });

  it('draws a slice of a 3-D output from its offset, and reads its range', () => {
    const heads = 3;
    const n = 16;
    const data = new Float32Array(heads * n * n);
    for (let i = 0; i < data.length; i++) data[i] = Math.floor(i / (n * n)) + (i % n) / n;
    const one = pe.heatmap(data, { rows: n, cols: n, offset: 2 * n * n, width: n, height: n, vmin: 0, vmax: 3 });
    const alone = pe.heatmap(data.slice(2 * n * n), { rows: n, cols: n, width: n, height: n, vmin: 0, vmax: 3 });
    expect([...one]).toEqual([...alone]);
    const range = pe.heatmapRange(data, { offset: n * n, count: n * n });
    expect(range.lo).toBe(1);
    expect(range.hi).toBeCloseTo(1 + (n - 1) / n, 6);
    expect(range.finite).toBe(true);
    const masked = Float32Array.from([1, -Infinity, NaN, 2, Infinity]);
    expect(pe.heatmapRange(masked)).toEqual({ lo: 1, hi: 2, negInf: true, posInf: true, nan: true, finite: false });
    expect(pe.heatmapRange(new Float32Array([NaN]))).toMatchObject({ lo: NaN, hi: NaN, nan: true });
  });

  it('draws a new array anew (the cached copy is per array) and defaults the colour range', () => {
    const a = new Float32Array(64).fill(0);
    const b = new Float32Array(64).fill(1);
    const pa = pe.heatmap(a, { rows: 8, cols: 8, width: 4, height: 4, vmin: 0, vmax: 1 });
    const pb = pe.heatmap(b, { rows: 8, cols: 8, width: 4, height: 4, vmin: 0, vmax: 1 });
    expect([...pa.subarray(0, 4)]).not.toEqual([...pb.subarray(0, 4)]);
    const ramp = Float32Array.from({ length: 64 }, (_, i) => i);
    const auto = pe.heatmap(ramp, { rows: 8, cols: 8, width: 8, height: 8 });
    expect([...auto]).toEqual([...pe.colorize(ramp)]);
  });

  it('draws a computed result from the buffer its kernel wrote, and older results still right', () => {
    // pe.compute leaves its output resident for pe.heatmap (no copy in); the next compute frees
    // it, so an older result is copied in again when drawn. Every draw equals the draw of a copy.
    const opts = { rows: 48, cols: 40, width: 17, height: 23, vmin: -1, vmax: 1 };
    const draw = (data) => [...pe.heatmap(data, opts)];
    const a = pe.compute({ kind: 'sinusoidal', length: 48, dim: 40, base: 10000 });
    const copyA = Float32Array.from(a.data);
    expect(pe.heatmapRange(a.data)).toEqual(pe.heatmapRange(copyA));
    expect(draw(a.data)).toEqual(draw(copyA));
    const b = pe.compute({ kind: 'sinusoidal', length: 48, dim: 40, base: 7 });
    expect(draw(b.data)).toEqual(draw(Float32Array.from(b.data)));
    expect(draw(a.data)).toEqual(draw(copyA));
    expect(draw(b.data)).not.toEqual(draw(a.data));
    // A compute that fails leaves the last drawn results drawable.
    expect(() => pe.compute({ kind: 'sinusoidal', length: 48, dim: 0 })).toThrow(expect.objectContaining({ name: 'PEError' }));
    expect(draw(b.data)).toEqual(draw(Float32Array.from(b.data)));
    // A 3-D result: a head from its offset, as a copy's.
    const att = pe.compute({ kind: 'attention', length: 24, heads: 3, dim: 16 });
    const hopts = { rows: 24, cols: 24, offset: 2 * 24 * 24, width: 9, height: 30, vmin: 0, vmax: 1 };
    expect([...pe.heatmap(att.data, hopts)]).toEqual([...pe.heatmap(Float32Array.from(att.data), hopts)]);
  });

  it('chooses the colours from the range with colorRange, reading the table once where it can', () => {
    // A minified table with its extremes in a corner and a masked area: colorRange sees the range
    // heatmapRange gives (from the resampling pass on the whole window, scanned otherwise), and
    // the pixels equal those of the vmin/vmax it returned; heatmapRange then agrees.
    const rows = 300;
    const cols = 120;
    const base = new Float32Array(rows * cols);
    for (let i = 0; i < base.length; i++) base[i] = Math.sin(i * 0.013) * ((i % cols) / cols);
    base[rows * cols - 1] = 5;
    base[cols - 1] = -4;
    for (let c = 0; c < 30; c++) base[7 * cols + c] = -Infinity;
    for (const window of [undefined, { x0: 3.5, x1: 100, y0: 0, y1: 200.5 }]) {
      for (const [width, height] of [[40, 50], [cols, rows + 20]]) {
        for (const map of ['viridis', 'diverging']) {
          const table = Float32Array.from(base); // a new array: nothing known of it yet
          const seen = [];
          const opts = { rows, cols, width, height, window, map };
          const pixels = pe.heatmap(table, { ...opts, colorRange: (range) => (seen.push(range), [range.lo * 0.5, range.hi]) });
          const what = `${JSON.stringify(window)} ${width}×${height} ${map}`;
          expect(seen, what).toEqual([{ lo: -4, hi: 5, negInf: true, posInf: false, nan: false, finite: false }]);
          expect([...pixels], what).toEqual([...pe.heatmap(Float32Array.from(base), { ...opts, vmin: -2, vmax: 5 })]);
          expect(pe.heatmapRange(table), what).toEqual(seen[0]);
          // Left out, vmin and vmax come from the same range (symmetric for the diverging map).
          const auto = pe.heatmap(Float32Array.from(base), opts);
          const [lo, hi] = map === 'diverging' ? [-5, 5] : [-4, 5];
          expect([...auto], what).toEqual([...pe.heatmap(Float32Array.from(base), { ...opts, vmin: lo, vmax: hi })]);
        }
      }
    }
    const t = Float32Array.from(base);
    const opts = { rows, cols, width: 30, height: 30 };
    expect(() => pe.heatmap(t, { ...opts, colorRange: 1 })).toThrow(expect.objectContaining({ name: 'PEError', param: 'colorRange' }));
    expect(() => pe.heatmap(t, { ...opts, vmin: 0, colorRange: () => [0, 1] })).toThrow(expect.objectContaining({ param: 'colorRange' }));
    for (const bad of [() => [1, 1], () => [0, NaN], () => null]) {
      expect(() => pe.heatmap(Float32Array.from(base), { ...opts, colorRange: bad })).toThrow(expect.objectContaining({ name: 'PEError' }));
    }
    // colorRange may not draw (the pixels' values wait in the module), and the module stays usable.
    expect(() => pe.heatmap(Float32Array.from(base), { ...opts, colorRange: () => (pe.heatmapRange(t), [0, 1]) }))
      .toThrow(expect.objectContaining({ param: 'colorRange' }));
    expect(pe.heatmap(t, { ...opts, vmin: 0, vmax: 1 }).length).toBe(30 * 30 * 4);
  });

  /** The colour of table entry k of `map` (entries 0 … 255), from pe.colorize of each entry's middle. */
  const lutOf = (map) => pe.colorize(Float32Array.from({ length: 256 }, (_, k) => (k + 0.5) / 256), { map, vmin: 0, vmax: 1 });
  /** The entry of v in lo … hi, exactly (float64 is exact enough for a float32 v here). */
  const entryOf = (v, lo, hi) => Math.min(255, Math.max(0, Math.floor(((v / 2 - lo / 2) / (hi / 2 - lo / 2)) * 256)));
  /** Each pixel of an identity draw has its cell's colour (or a neighbouring entry's at a boundary). */
  function expectColours(rgba, table, lo, hi, map, what) {
    const lut = lutOf(map);
    const colour = (k) => (k < 0 || k > 255 ? null : [...lut.subarray(4 * k, 4 * k + 4)].join());
    for (let i = 0; i < table.length; i++) {
      const k = entryOf(table[i], lo, hi);
      const got = [...rgba.subarray(4 * i, 4 * i + 4)].join();
      expect([colour(k - 1), colour(k), colour(k + 1)], `${what}: cell ${i} = ${table[i]} in [${lo}, ${hi}] wants entry ${k}`).toContain(got);
    }
  }

  it('draws finite tables of tiny, subnormal and huge values in their own range (issue 26)', () => {
    // Before: refused as "vmax … status 106" though no vmax was given (float32 cannot hold
    // 256 / (hi − lo) for 1e-39 … 4e-39, nor hi − lo for ±3e38). The colours are scaled in float64.
    const tables = {
      tiny: [1e-39, 2e-39, 3e-39, 4e-39, 2.5e-39, 1.5e-39],
      subnormal: [1e-45, 3e-45, 0, 2e-45, 7e-45, 4e-45],
      belowNormal: [0, 1e-38, 5e-39, 2e-39, 8e-39, 9.9e-39],
      huge: [-3e38, 3e38, 0, 1, -1.5e38, 2e38],
      extremes: [-3.4028234663852886e38, 3.4028234663852886e38, 1e30, -1e30, 0, 1e38],
      hugeConstant: [3e38, 3e38, 3e38, 3e38, 3e38, 3e38],
      subnormalConstant: [1e-45, 1e-45, 1e-45, 1e-45, 1e-45, 1e-45],
    };
    for (const [name, values] of Object.entries(tables)) {
      for (const map of ['viridis', 'diverging']) {
        const table = Float32Array.from(values);
        const opts = { rows: 2, cols: 3, width: 3, height: 2, map };
        const rgba = pe.heatmap(table, opts);
        expect(rgba.length, name).toBe(24);
        const { lo, hi } = pe.heatmapRange(table);
        const [vmin, vmax] = map === 'diverging' ? [-Math.max(-lo, hi), Math.max(-lo, hi)]
          : lo === hi ? [lo - Math.abs(lo) / 2, hi + Math.abs(hi) / 2] : [lo, hi];
        expectColours(rgba, table, vmin, vmax, map, `${name} ${map}`);
        if (map === 'viridis' && lo < hi) {
          // The smallest cell takes the first colour, the largest the last: the picture is not flat.
          const lut = lutOf(map);
          expect([...rgba.subarray(4 * table.indexOf(lo), 4 * table.indexOf(lo) + 4)], name).toEqual([...lut.subarray(0, 4)]);
          expect([...rgba.subarray(4 * table.indexOf(hi), 4 * table.indexOf(hi) + 4)], name).toEqual([...lut.subarray(1020, 1024)]);
        }
        // The same with colorRange, the range already known, and minified (values + range in one pass).
        expect([...pe.heatmap(table, { ...opts, colorRange: ({ lo: a, hi: b }) => [a, b === a ? b + Math.max(1, Math.abs(b)) : b] })], name).toHaveLength(24);
        expect(pe.heatmap(Float32Array.from(values), { ...opts, width: 1, height: 1 }), name).toHaveLength(4);
      }
    }
  });

  it('draws explicit colour ranges float32 cannot hold, in float64 (issue 26)', () => {
    // Before: "rejected by the heatmap kernel (status 110/111)" or "in float32".
    const table = Float32Array.from([-3e38, -1, 0, 1e-38, 1, 3e38]);
    const opts = { rows: 2, cols: 3, width: 3, height: 2 };
    for (const [vmin, vmax] of [[-1e308, 1e308], [-1e308, 1], [0, 1e308], [-3e38, 3e38], [0, 1e-37], [1, 1 + 1e-9], [-Number.MAX_VALUE, Number.MAX_VALUE]]) {
      for (const map of ['viridis', 'cividis']) {
        const rgba = pe.heatmap(table, { ...opts, map, vmin, vmax });
        expectColours(rgba, table, vmin, vmax, map, `[${vmin}, ${vmax}]`);
      }
    }
    // Where float32 holds the range, the colours are pe.colorize's, byte for byte.
    const ramp = Float32Array.from({ length: 64 }, (_, i) => i / 7 - 3);
    expect([...pe.heatmap(ramp, { rows: 8, cols: 8, width: 8, height: 8, vmin: -2.5, vmax: 4.25 })])
      .toEqual([...pe.colorize(ramp, { vmin: -2.5, vmax: 4.25 })]);
    // What cannot be drawn is refused by name, with the allowed range in words.
    for (const [patch, param, words] of [
      [{ vmin: -Infinity, vmax: 1 }, 'vmin', /finite number/], [{ vmin: 0, vmax: 2 * Number.MAX_VALUE }, 'vmax', /finite number/],
      [{ vmin: 0, vmax: 1e-310 }, 'vmax', /greater than vmin by at least 1e-300/],
      [{ vmin: 2, vmax: 1 }, 'vmax', /greater than vmin by at least 1e-300/],
      [{ vmin: 4e38 }, 'vmin', /below vmax by at least 1e-300; vmax, left out, is 3\.0\d*e\+38 from the table's range/],
      [{ vmax: -1e39 }, 'vmax', /above vmin by at least 1e-300/],
    ]) {
      const err = expectPEError(() => pe.heatmap(Float32Array.from([0, 1, 2, 3e38]), { rows: 2, cols: 2, width: 2, height: 2, ...patch }), param, words, JSON.stringify(patch));
      expect(err.message).not.toMatch(/status/);
    }
  });

  it('colours tiny, subnormal and huge values with pe.colorize too, as the heatmap does (issue 26)', () => {
    // Before: pe.colorize of 1e-39 … 4e-39 threw "vmax … (kernel status 106)" with no vmax given.
    for (const values of [[1e-39, 2e-39, 3e-39, 4e-39], [1e-45, 3e-45, 7e-45], [-3e38, 0, 3e38], [1e-38, 2e-38]]) {
      const v = Float32Array.from(values);
      const lo = Math.min(...v);
      const hi = Math.max(...v);
      const rgba = pe.colorize(v);
      expectColours(rgba, v, lo, hi, 'viridis', values.join(', '));
      // The same colours as the heatmap of the same values, one cell per pixel.
      expect([...rgba]).toEqual([...pe.heatmap(v, { rows: 1, cols: v.length, width: v.length, height: 1 })]);
    }
    expectPEError(() => pe.colorize(Float32Array.of(0, 1), { vmin: 0, vmax: 1e-310 }), 'vmax', /greater than vmin by at least 1e-300/);
    expectPEError(() => pe.colorize(Float32Array.of(0, 1), { vmin: 5 }), 'vmin', /below vmax by at least 1e-300; vmax, left out, is 1 from the table's range/);
  });

  it('refuses a window whose ends are equal in float32, naming the window (issue 26)', () => {
    // Before: "window: rejected by the heatmap kernel (status 108)".
    const t = new Float32Array(12);
    for (const window of [{ x0: 1, x1: 1 + 1e-9, y0: 0, y1: 3 }, { x0: 0, x1: 4, y0: 2 - 1e-8, y1: 2 }]) {
      expectPEError(() => pe.heatmap(t, { rows: 3, cols: 4, width: 2, height: 2, window, vmin: 0, vmax: 1 }), 'window', /distinct in float32/);
    }
    // One float32 step apart is a window (a sliver of one cell).
    const cell = Float32Array.from({ length: 12 }, (_, i) => i);
    const px = pe.heatmap(cell, { rows: 3, cols: 4, width: 2, height: 2, window: { x0: 1, x1: 1 + 2 ** -23, y0: 1, y1: 2 }, vmin: 0, vmax: 12 });
    expect([...px.subarray(0, 4)]).toEqual([...pe.colorize(Float32Array.of(5), { vmin: 0, vmax: 12 })]);
  });

  it('refuses drawing from colorRange even when the range is known, and draws its own table (issue 26)', () => {
    // Before: with the range remembered, a colorRange that drew another table was accepted and the
    // outer call returned that table's pixels.
    const a = Float32Array.from({ length: 64 }, (_, i) => i);
    const b = Float32Array.from({ length: 64 }, (_, i) => 63 - i);
    const opts = { rows: 8, cols: 8, width: 8, height: 8 };
    const own = [...pe.heatmap(Float32Array.from(a), { ...opts, vmin: 0, vmax: 63 })];
    for (const known of [false, true]) {
      if (known) pe.heatmapRange(a); // remembered: the outer call then runs colorRange before drawing
      expectPEError(() => pe.heatmap(a, { ...opts, colorRange: () => (pe.heatmap(b, { ...opts, vmin: 0, vmax: 63 }), [0, 63]) }), 'colorRange', /must not call/);
      expectPEError(() => pe.heatmap(a, { ...opts, colorRange: () => (pe.heatmapRange(b), [0, 63]) }), 'colorRange', /must not call/);
      // A colorRange that swallows the refusal still gets a's own pixels.
      const swallow = () => {
        try {
          pe.heatmap(b, { ...opts, vmin: 0, vmax: 63 });
        } catch { /* refused */ }
        return [0, 63];
      };
      expect([...pe.heatmap(a, { ...opts, colorRange: swallow })], `known ${known}`).toEqual(own);
      // A colorRange that computes (which frees the buffer of the last result) draws a's pixels too.
      const r = pe.compute({ kind: 'sinusoidal', length: 8, dim: 8 });
      pe.heatmapRange(r.data);
      const rOwn = [...pe.heatmap(Float32Array.from(r.data), { ...opts, vmin: -1, vmax: 1 })];
      const computing = () => (pe.compute({ kind: 'sinusoidal', length: 300, dim: 64 }), [-1, 1]);
      expect([...pe.heatmap(r.data, { ...opts, colorRange: computing })], `known ${known}`).toEqual(rOwn);
      // A colorRange that throws is named.
      expectPEError(() => pe.heatmap(a, { ...opts, colorRange: () => null.x }), 'colorRange', /colorRange threw/);
    }
    expect([...pe.heatmap(a, { ...opts, vmin: 0, vmax: 63 })]).toEqual(own);
  });

  it('names the bad option in a PEError', () => {
    const t = new Float32Array(12);
    const good = { rows: 3, cols: 4, width: 2, height: 2 };
    for (const [patch, param] of [
      [{ rows: 0 }, 'rows'], [{ cols: 5 }, 'offset'], [{ cols: 1.5 }, 'cols'], [{ offset: 1 }, 'offset'],
      [{ width: 0 }, 'width'], [{ height: 9000 }, 'height'], [{ window: { x0: 0, x1: 5, y0: 0, y1: 3 } }, 'window'],
      [{ window: { x0: 2, x1: 2, y0: 0, y1: 3 } }, 'window'], [{ window: { x0: 0, x1: 4, y0: NaN, y1: 3 } }, 'window'],
      [{ map: 'jet' }, 'map'], [{ vmin: 1, vmax: 1 }, 'vmax'], [{ vmin: NaN, vmax: 1 }, 'vmin'],
      [{ special: { nan: [1, 2, 3] } }, 'special'],
    ]) {
      expect(() => pe.heatmap(t, { ...good, ...patch }), JSON.stringify(patch)).toThrow(expect.objectContaining({ name: 'PEError', param }));
    }
    expect(() => pe.heatmap(null, good)).toThrow(expect.objectContaining({ param: 'table' }));
    expect(() => pe.heatmapRange(t, { offset: 13 })).toThrow(expect.objectContaining({ param: 'offset' }));
  });
});

describe('pe.heatmap, SIMD and scalar builds', () => {
  it('draw the same pixels, byte for byte', async () => {
    const [simd, scalar] = await Promise.all([peFor(true), peFor(false)]);
    for (const spec of [{ kind: 'sinusoidal', length: 333, dim: 97 }, { kind: 'alibi', length: 257, heads: 1 }]) {
      const r = simd.compute(spec);
      const [rows, cols] = r.shape.slice(-2);
      for (const [width, height] of [[61, 45], [cols, rows], [13, 200]]) {
        const o = { rows, cols, width, height, window: { x0: 0.5, x1: cols, y0: 0, y1: rows - 0.25 } };
        expect([...simd.heatmap(r.data, o)], `${spec.kind} ${width} × ${height}`).toEqual([...scalar.heatmap(r.data, o)]);
      }
    }
  });
});
