// Property-based tests of pe.heatmap under hostile input (fast-check; issue 26 §4): tables of any
// float32 values (tiny, subnormal, huge, ±Infinity, NaN) in odd shapes, and options drawn from
// good and bad values alike (vmin/vmax from −1e308 to 1e308, windows whose ends meet in float32,
// sizes, maps, colorRange callbacks that return garbage, throw, or try to draw). Every call either
// returns width × height RGBA pixels or throws a PEError naming an option, never a kernel status;
// a finite table with no colour options is always drawn, each cell in the colour of its place in
// the table's own range; and the module still draws a known table right afterwards.
// Runs about PE_FC_RUNS cases per property (default 120), from PE_FC_SEED.
import { describe, it, expect, beforeAll } from 'vitest';
import fc from 'fast-check';
import { PEError } from '../web/pe.js';
import { BUILDS, peFor } from './helpers/pe.js';

const RUNS = Number(process.env.PE_FC_RUNS) || 120;
const SEED = Number(process.env.PE_FC_SEED) || 20261126;
const FLT_MAX = 3.4028234663852886e38;
const OPTIONS = new Set(['table', 'rows', 'cols', 'offset', 'width', 'height', 'window', 'map', 'vmin', 'vmax', 'colorRange', 'special']);

/** Float32 values of every kind, the awkward ones often. */
const arbValue = fc.oneof(
  { arbitrary: fc.float(), weight: 3 }, // any float32: subnormals, ±Infinity, NaN, −0 included
  { arbitrary: fc.float({ min: -1, max: 1, noNaN: true }), weight: 2 },
  {
    arbitrary: fc.constantFrom(0, -0, 1e-45, -1e-45, 3e-45, 1e-39, -1e-39, 1.1754942e-38, 1e-38, 3e38, -3e38, FLT_MAX, -FLT_MAX,
      Infinity, -Infinity, NaN),
    weight: 2,
  },
);

/** Finite float32 values at one scale (tiny, subnormal, huge, ordinary), so a table's range is that scale's. */
const arbFinite = fc.oneof(
  fc.float({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(1e-45, 1e-39, 1e-30, 1, 1e30, 3e38).chain((s) => fc.float({ min: -1, max: 1, noNaN: true }).map((u) => Math.fround(u * s))),
);

/** A table: rows × cols values from `offset` in an array with `extra` values after. */
const arbTable = (value) => fc.record({
  rows: fc.integer({ min: 1, max: 13 }),
  cols: fc.integer({ min: 1, max: 13 }),
  offset: fc.integer({ min: 0, max: 3 }),
  extra: fc.integer({ min: 0, max: 2 }),
}).chain(({ rows, cols, offset, extra }) => fc.array(value, { minLength: offset + rows * cols + extra, maxLength: offset + rows * cols + extra })
  .map((values) => ({ rows, cols, offset, data: Float32Array.from(values) })));

/** A number for vmin, vmax or a window end: good ones, and every kind of bad one. */
const arbNumber = fc.oneof(
  fc.double(),
  fc.float(),
  fc.constantFrom(-1e308, 1e308, -Number.MAX_VALUE, Number.MAX_VALUE, 1e-310, 5e-324, -3e38, 3e38, 1e-37, 1, 1 + 1e-9, 0, -0,
    Infinity, -Infinity, NaN),
  fc.constantFrom('1', null, true, {}, [], 10n),
);

/** A window over rows × cols: inside, sub-cell, with ends equal in float32, outside, or junk. */
const arbWindow = (rows, cols) => fc.oneof(
  { arbitrary: fc.constant(undefined), weight: 4 },
  fc.tuple(fc.double({ min: 0, max: cols, noNaN: true }), fc.double({ min: 0, max: cols, noNaN: true }),
    fc.double({ min: 0, max: rows, noNaN: true }), fc.double({ min: 0, max: rows, noNaN: true }))
    .map(([a, b, c, d]) => ({ x0: Math.min(a, b), x1: Math.max(a, b), y0: Math.min(c, d), y1: Math.max(c, d) })),
  { arbitrary: fc.tuple(fc.integer({ min: 0, max: 999 }), fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 0, max: 999 }), fc.integer({ min: 1, max: 1000 }))
    .map(([a, b, c, d]) => ({ x0: (cols * a) / 1000, x1: (cols * Math.max(a + 1, b)) / 1000, y0: (rows * c) / 1000, y1: (rows * Math.max(c + 1, d)) / 1000 })),
  weight: 3 },
  fc.tuple(fc.integer({ min: 0, max: cols - 1 }), fc.integer({ min: 0, max: rows - 1 }), fc.constantFrom(1e-9, 2 ** -20, 1e-300))
    .map(([x, y, e]) => ({ x0: x, x1: x + e, y0: y, y1: y + 1 })),
  fc.record({ x0: arbNumber, x1: arbNumber, y0: arbNumber, y1: arbNumber }),
  fc.constantFrom(null, 5, 'all'),
);

/** What a colorRange callback does (pe is the module under test, other a second table). */
const CALLBACKS = {
  lohi: () => ({ lo, hi }) => [lo, hi],
  padded: () => ({ lo, hi }) => (lo === hi ? [lo - Math.abs(lo) - 1, hi + Math.abs(hi) + 1] : Number.isNaN(lo) ? [0, 1] : [lo, hi]),
  wide: () => () => [-1e308, 1e308],
  fixed: (pe, other, [a, b]) => () => [a, b],
  junk: () => () => 'red',
  short: () => () => [1],
  throws: () => () => {
    throw new TypeError('boom');
  },
  draws: (pe, other) => () => (pe.heatmap(other, { rows: 2, cols: 2, width: 2, height: 2, vmin: 0, vmax: 1 }), [0, 1]),
  swallows: (pe, other) => () => {
    try {
      pe.heatmap(other, { rows: 2, cols: 2, width: 2, height: 2, vmin: 0, vmax: 1 });
    } catch { /* refused, as it must be */ }
    return [0, 1];
  },
  scans: (pe, other) => () => (pe.heatmapRange(other), [0, 1]),
  computes: (pe) => ({ lo, hi }) => (pe.compute({ kind: 'sinusoidal', length: 16, dim: 8 }), lo < hi ? [lo, hi] : [0, 1]),
};

/** Options for a table: sizes, window, map, vmin/vmax or colorRange, special; each good or bad. */
const arbOptions = (rows, cols) => fc.record({
  width: fc.oneof({ arbitrary: fc.integer({ min: 1, max: 24 }), weight: 6 }, fc.constantFrom(cols, 0, -1, 1.5, 8193, NaN, '3')),
  height: fc.oneof({ arbitrary: fc.integer({ min: 1, max: 24 }), weight: 6 }, fc.constantFrom(rows, 0, 9000, undefined)),
  window: arbWindow(rows, cols),
  map: fc.oneof({ arbitrary: fc.constantFrom(undefined, 'viridis', 'cividis', 'diverging'), weight: 6 }, fc.constantFrom('jet', 3)),
  colors: fc.oneof(
    fc.constant({}),
    fc.record({ vmin: arbNumber, vmax: arbNumber }),
    fc.record({ vmin: arbNumber }),
    fc.record({ vmax: arbNumber }),
    fc.record({ callback: fc.constantFrom(...Object.keys(CALLBACKS)), fixed: fc.tuple(arbNumber, arbNumber) }),
  ),
  special: fc.oneof({ arbitrary: fc.constant(undefined), weight: 6 }, fc.constantFrom({ nan: [1, 2, 3, 4] }, { negInf: [1, 2, 3] }, 'none')),
  knownFirst: fc.boolean(), // the table's range remembered before the call (heatmapRange)
});

/** The colour of each of the map's 256 entries, from pe.colorize of each entry's middle. */
const lutOf = (pe, map) => pe.colorize(Float32Array.from({ length: 256 }, (_, k) => (k + 0.5) / 256), { map, vmin: 0, vmax: 1 });

/** The range pe.heatmap chooses when vmin and vmax are left out (web/api/kernels/colormap.js autoColorRange). */
function autoRange(lo, hi, map) {
  if (Number.isNaN(lo)) return [0, 1];
  if (map === 'diverging') {
    const m = Math.max(Math.abs(lo), Math.abs(hi)) || 1;
    return [-m, m];
  }
  return lo === hi ? [lo - (Math.abs(lo) / 2 || 0.5), hi + (Math.abs(hi) / 2 || 0.5)] : [lo, hi];
}

describe.each(BUILDS)('pe.heatmap properties, $name build', ({ simd }) => {
  let pe;
  let check;
  beforeAll(async () => {
    pe = await peFor(simd);
    // A known table drawn right: the module is still sound after whatever came before.
    const ramp = Float32Array.from({ length: 48 }, (_, i) => i / 47);
    const want = [...pe.colorize(ramp, { vmin: 0, vmax: 1 })];
    check = () => expect([...pe.heatmap(Float32Array.from(ramp), { rows: 6, cols: 8, width: 8, height: 6, vmin: 0, vmax: 1 })]).toEqual(want);
  });

  it('returns width × height pixels or throws a PEError naming an option, for any table and options', () => {
    const other = Float32Array.from([1, 2, 3, 4]);
    const seen = { drawn: 0, refused: {} };
    fc.assert(fc.property(arbTable(arbValue).chain((t) => fc.tuple(fc.constant(t), arbOptions(t.rows, t.cols))), ([t, o]) => {
      const { colors, knownFirst, ...rest } = o;
      const options = { rows: t.rows, cols: t.cols, offset: t.offset, ...rest };
      if (colors.callback) options.colorRange = CALLBACKS[colors.callback](pe, other, colors.fixed);
      else Object.assign(options, colors);
      for (const k of Object.keys(options)) if (options[k] === undefined) delete options[k];
      if (knownFirst) pe.heatmapRange(t.data, { offset: t.offset, count: t.rows * t.cols });
      let pixels;
      try {
        pixels = pe.heatmap(t.data, options);
      } catch (err) {
        const what = `${err?.name}: ${err?.message}`;
        expect(err, what).toBeInstanceOf(PEError);
        expect(OPTIONS.has(err.param), `param ${err.param}: ${what}`).toBe(true);
        expect(err.message, what).not.toMatch(/status \d+/);
        seen.refused[err.param] = (seen.refused[err.param] ?? 0) + 1;
        return;
      }
      expect(pixels).toBeInstanceOf(Uint8ClampedArray);
      expect(pixels.length).toBe(options.width * options.height * 4);
      seen.drawn += 1;
    }), { numRuns: RUNS, seed: SEED });
    check();
    console.log(`heatmap properties (${simd ? 'SIMD' : 'scalar'}): ${seen.drawn} drawn, refused by option: ${JSON.stringify(seen.refused)}`);
  });

  it('draws every finite table with no colour options, each cell in the colour of its place in the range', () => {
    fc.assert(fc.property(arbTable(arbFinite), fc.constantFrom('viridis', 'cividis', 'diverging'), fc.boolean(), (t, map, knownFirst) => {
      const count = t.rows * t.cols;
      const cells = t.data.subarray(t.offset, t.offset + count);
      if (knownFirst) pe.heatmapRange(t.data, { offset: t.offset, count });
      // One pixel per cell: each pixel is its cell.
      const pixels = pe.heatmap(t.data, { rows: t.rows, cols: t.cols, offset: t.offset, width: t.cols, height: t.rows, map });
      expect(pixels.length).toBe(count * 4);
      let lo = Infinity;
      let hi = -Infinity;
      for (const v of cells) [lo, hi] = [Math.min(lo, v), Math.max(hi, v)];
      const [vmin, vmax] = autoRange(lo, hi, map);
      const lut = lutOf(pe, map);
      const colour = (k) => (k < 0 || k > 255 ? null : [...lut.subarray(4 * k, 4 * k + 4)].join());
      for (let i = 0; i < count; i++) {
        // The entry in float64 (from halves: vmax − vmin may overflow); a boundary may round either way.
        const k = Math.min(255, Math.max(0, Math.floor(((cells[i] / 2 - vmin / 2) / (vmax / 2 - vmin / 2)) * 256)));
        const got = [...pixels.subarray(4 * i, 4 * i + 4)].join();
        expect([colour(k - 1), colour(k), colour(k + 1)], `cell ${i} = ${cells[i]} in [${vmin}, ${vmax}], entry ${k}`).toContain(got);
      }
      // Minified to one pixel, and the range read in the same pass: still drawn.
      expect(pe.heatmap(Float32Array.from(t.data), { rows: t.rows, cols: t.cols, offset: t.offset, width: 1, height: 1, map }).length).toBe(4);
    }), { numRuns: RUNS, seed: SEED });
    check();
  });

  it('draws any finite vmin < vmax at least 1e-300 apart, and names vmin or vmax otherwise', () => {
    const table = Float32Array.from([-FLT_MAX, -3e38, -1, -1e-45, 0, 1e-45, 1e-39, 1, 3e38, FLT_MAX, NaN, -Infinity]);
    fc.assert(fc.property(arbNumber, arbNumber, (vmin, vmax) => {
      const draw = () => pe.heatmap(table, { rows: 3, cols: 4, width: 4, height: 3, vmin, vmax });
      const good = typeof vmin === 'number' && typeof vmax === 'number' && Number.isFinite(vmin) && Number.isFinite(vmax) && vmax - vmin >= 1e-300;
      if (good) {
        const pixels = draw();
        expect(pixels.length).toBe(48);
        // The lowest finite cell is at or below vmin's colour, the highest at or above vmax's.
        const lut = lutOf(pe, 'viridis');
        if (vmin >= -3e38 && vmin < -FLT_MAX / 2) expect([...pixels.subarray(0, 4)]).toEqual([...lut.subarray(0, 4)]);
        if (vmax <= 3e38 && vmax > FLT_MAX / 2) expect([...pixels.subarray(36, 40)]).toEqual([...lut.subarray(1020, 1024)]);
        return;
      }
      let error;
      try {
        draw();
      } catch (err) {
        error = err;
      }
      expect(error, `vmin ${String(vmin)}, vmax ${String(vmax)}`).toBeInstanceOf(PEError);
      expect(['vmin', 'vmax']).toContain(error.param);
      expect(error.message).toMatch(/finite number|at least 1e-300/);
    }), { numRuns: RUNS, seed: SEED });
    check();
  });
});
