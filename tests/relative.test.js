// The attention-bias kinds alibi, t5, shaw and distance against the independent fixtures
// (tests/fixtures/gen_relative.py: NumPy, and torch for T5), their properties and validation, in
// both WASM builds.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createPE } from '../web/pe.js';
import { loadManifest, loadProfile, compareToeplitz } from './helpers/fixtures.js';
import { BUILDS, peFor, expectPEError, expectRejected } from './helpers/pe.js';

const KINDS = ['alibi', 't5', 'shaw', 'distance'];
const manifests = Object.fromEntries(KINDS.map((k) => [k, loadManifest(k)]));

/** Entry [i, j] of a (length, length) table, for a relative position r = j − i. */
const atRelative = (data, length, r) => (r >= 0 ? data[r] : data[-r * length]);

describe.each(BUILDS)('attention biases, $name build', ({ name, simd }) => {
  let pe;
  const worst = {};
  beforeAll(async () => {
    pe = await peFor(simd);
  });
  afterAll(() => {
    const lines = Object.entries(worst).map(([k, w]) =>
      `${k} abs ${w.abs.toExponential(3)} rel ${w.rel.toExponential(3)}, ${w.notRounded} of ${w.values} values not the reference rounded to float32`);
    console.log(`bias kinds ${name}: worst error vs the references: ${lines.join('; ')}`);
  });

  it('loads the requested build', () => {
    expect(pe.simd).toBe(simd);
  });

  for (const kind of KINDS) {
    it.each(manifests[kind].cases.map((c) => [c.name, c]))(`${kind} matches the fixture %s`, (_, testCase) => {
      const result = pe.compute(testCase.spec);
      expect(result.shape).toEqual(testCase.shape);
      expect(result.data).toBeInstanceOf(Float32Array);
      const cmp = compareToeplitz(result.data, loadProfile(kind, testCase), testCase);
      const w = (worst[kind] ??= { abs: 0, rel: 0, notRounded: 0, values: 0 });
      w.abs = Math.max(w.abs, cmp.worstAbs);
      w.rel = Math.max(w.rel, cmp.worstRel);
      w.notRounded += cmp.notRounded;
      w.values += result.data.length;
      expect(cmp.bad, cmp.first ?? '').toBe(0);
      // ALiBi is one float64 product rounded once: exactly the reference rounded to float32.
      if (kind === 'alibi') expect(cmp.notRounded).toBe(0);
      if (testCase.slopes) expect(Array.from(result.slopes)).toEqual(testCase.slopes.map(Math.fround));
    });
  }

  it('alibi: slopes for every head count 1..64 are get_slopes rounded to float32, in its order', () => {
    const table = manifests.alibi.slopes_by_heads;
    for (let heads = 1; heads <= 64; heads++) {
      const { slopes, data, shape } = pe.compute({ kind: 'alibi', length: 2, heads });
      expect(shape).toEqual([heads, 2, 2]);
      expect(Array.from(slopes), `heads ${heads}`).toEqual(table[heads].map(Math.fround));
      for (let h = 0; h < heads; h++) expect(data[h * 4 + 2]).toBe(-slopes[h]);   // [h, 1, 0] = −m_h
    }
    // Known values: 8 heads 1/2 … 1/256; 6 heads: the 4-head slopes, then 1/2 and 1/8.
    expect(Array.from(pe.compute({ kind: 'alibi', length: 1 }).slopes)).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((k) => 2 ** -k));
    expect(Array.from(pe.compute({ kind: 'alibi', length: 1, heads: 6 }).slopes)).toEqual([2 ** -2, 2 ** -4, 2 ** -6, 2 ** -8, 2 ** -1, 2 ** -3]);
  });

  it('alibi: +0 on the diagonal, −Infinity above it when causal, symmetric otherwise', () => {
    const n = 37;
    const causal = pe.compute({ kind: 'alibi', length: n, heads: 3 }).data;
    const symmetric = pe.compute({ kind: 'alibi', length: n, heads: 3, mode: 'symmetric' }).data;
    for (let h = 0; h < 3; h++) {
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < n; j++) {
          const at = (h * n + i) * n + j;
          if (i === j) expect(Object.is(causal[at], 0) && Object.is(symmetric[at], 0)).toBe(true);
          if (j > i) expect(causal[at]).toBe(-Infinity);
          else expect(causal[at]).toBe(symmetric[at]);
          expect(symmetric[at]).toBe(symmetric[(h * n + j) * n + i]);
        }
      }
    }
  });

  it('t5: buckets at the log boundaries and where float32 and float64 disagree, as transformers computes them', () => {
    // Pinned by value: the default (32 buckets, max_distance 128) at the powers of two.
    const def = pe.compute({ kind: 't5', length: 130 }).data;
    expect([8, 15, 16, 31, 32, 63, 64, 127, 128, 129].map((r) => atRelative(def, 130, r)))
      .toEqual([24, 25, 26, 27, 28, 29, 30, 31, 31, 31]);
    expect([-7, -8, -16, -32, -64, -128].map((r) => atRelative(def, 130, r))).toEqual([7, 8, 10, 12, 14, 15]);
    const uni = pe.compute({ kind: 't5', length: 130, bidirectional: false }).data;
    expect([5, 0, -15, -16, -32, -64, -128, -129].map((r) => atRelative(uni, 130, r))).toEqual([0, 0, 15, 16, 21, 26, 31, 31]);
    // num_buckets 18: the reference's float32 log gives 14 at r = 8 where float64 gives 13.
    const b18 = pe.compute({ kind: 't5', length: 65, num_buckets: 18 }).data;
    expect([8, 16, 64].map((r) => atRelative(b18, 65, r))).toEqual([14, 15, 17]);
    // Every pinned point of the fixture (computed by torch), including the disagreements.
    const pins = manifests.t5.pinned;
    expect(pins.filter((p) => p.bucket !== p.float64_math).length).toBeGreaterThanOrEqual(10);
    const groups = new Map();
    for (const p of pins) {
      const key = `${p.num_buckets}/${p.max_distance}/${p.bidirectional}`;
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(p);
    }
    for (const points of groups.values()) {
      const { num_buckets, max_distance, bidirectional } = points[0];
      const length = Math.max(...points.map((p) => Math.abs(p.relative_position))) + 1;
      const { data } = pe.compute({ kind: 't5', length, num_buckets, max_distance, bidirectional });
      for (const p of points) {
        expect(atRelative(data, length, p.relative_position), JSON.stringify(p)).toBe(p.bucket);
      }
    }
  });

  it('t5: covers every relative position in [-300, 300] in both modes for several configurations', () => {
    const cases = manifests.t5.cases.filter((c) => c.spec.length >= 301);
    for (const bidirectional of [true, false]) {
      const configs = new Set(cases.filter((c) => c.spec.bidirectional === bidirectional).map((c) => `${c.spec.num_buckets}/${c.spec.max_distance}`));
      expect(configs.has('32/128')).toBe(true);
      expect(configs.size).toBeGreaterThanOrEqual(8);
    }
  });

  it('shaw: clip(j − i, −k, k) + k, and k = 0 is all zeros', () => {
    const { data } = pe.compute({ kind: 'shaw', length: 9, max_relative_position: 2 });
    expect(Array.from(data.subarray(4 * 9, 5 * 9))).toEqual([0, 0, 0, 1, 2, 3, 4, 4, 4]);
    expect(pe.compute({ kind: 'shaw', length: 5, max_relative_position: 0 }).data.every((v) => v === 0)).toBe(true);
  });

  it('distance: 0 on the diagonal, falling with distance, −Infinity above it when causal', () => {
    for (const fn of ['linear', 'log', 'gaussian', 'exponential']) {
      const n = 50;
      const { data } = pe.compute({ kind: 'distance', length: n, function: fn, scale: 3, strength: 2, mode: 'symmetric' });
      const row = data.subarray(0, n);   // b(0), b(1), …
      expect(Object.is(row[0], 0), fn).toBe(true);
      for (let d = 1; d < n; d++) expect(row[d], `${fn} d=${d}`).toBeLessThan(row[d - 1]);
      if (fn === 'exponential') expect(row[n - 1]).toBeGreaterThan(-2);   // saturates at −strength
      const causal = pe.compute({ kind: 'distance', length: n, function: fn, scale: 3, strength: 2 }).data;
      expect(causal[1]).toBe(-Infinity);
      expect(causal[n]).toBe(row[1]);
    }
    const flat = pe.compute({ kind: 'distance', length: 6, strength: 0, mode: 'symmetric' }).data;
    expect(flat.every((v) => Object.is(v, 0))).toBe(true);
    // linear with strength/scale = m is one ALiBi head of slope m
    const alibi = pe.compute({ kind: 'alibi', length: 20, heads: 1 });
    const lin = pe.compute({ kind: 'distance', length: 20, strength: 1, scale: 256 }).data;
    expect(Array.from(lin)).toEqual(Array.from(alibi.data));
  });

  it('returns copies and survives memory growth: alibi 8 × 2048 × 2048', () => {
    const { data, shape, slopes } = pe.compute({ kind: 'alibi', length: 2048, heads: 8, mode: 'symmetric' });
    expect(shape).toEqual([8, 2048, 2048]);
    expect(data.buffer.byteLength).toBe(data.byteLength);
    expect(data[data.length - 1]).toBe(0);
    expect(data[7 * 2048 * 2048 + 2047]).toBe(Math.fround(-2047 * 2 ** -8));
    expect(slopes[7]).toBe(2 ** -8);
  });
});

describe('attention biases: SIMD and scalar builds agree bit for bit at every length (tail) 1..70', () => {
  it('for every kind and mode', async () => {
    const simd = await peFor(true);
    const scalar = await peFor(false);
    const specs = (length) => [
      { kind: 'alibi', length, heads: 5 }, { kind: 'alibi', length, heads: 3, mode: 'symmetric' },
      { kind: 't5', length, num_buckets: 16, max_distance: 20 }, { kind: 't5', length, bidirectional: false },
      { kind: 'shaw', length, max_relative_position: 5 },
      { kind: 'distance', length, function: 'log' }, { kind: 'distance', length, function: 'gaussian', mode: 'symmetric' },
    ];
    for (let length = 1; length <= 70; length++) {
      for (const spec of specs(length)) {
        const a = simd.compute(spec);
        const b = scalar.compute(spec);
        expect(Buffer.from(a.data.buffer).equals(Buffer.from(b.data.buffer)), JSON.stringify(spec)).toBe(true);
      }
    }
  });
});

// [description, spec, the field the error must name, a fragment the message must contain]
const invalid = [
  ['alibi without length', { kind: 'alibi' }, 'length', 'length is required'],
  ['alibi length 0', { kind: 'alibi', length: 0 }, 'length', 'integer in [1, 8192]'],
  ['alibi length 8193', { kind: 'alibi', length: 8193 }, 'length', 'got 8193'],
  ['alibi heads 0', { kind: 'alibi', length: 4, heads: 0 }, 'heads', 'integer in [1, 1024]'],
  ['alibi heads 1.5', { kind: 'alibi', length: 4, heads: 1.5 }, 'heads', 'got 1.5'],
  ['alibi heads as a string', { kind: 'alibi', length: 4, heads: '8' }, 'heads', '(a string)'],
  ['alibi mode unknown', { kind: 'alibi', length: 4, mode: 'forward' }, 'mode', '"causal", "symmetric"'],
  ['alibi output over PE_MAX_ELEMENTS', { kind: 'alibi', length: 8192, heads: 2 }, 'length', 'PE_MAX_ELEMENTS'],
  ['alibi unknown field', { kind: 'alibi', length: 4, slope: 1 }, 'slope', 'unknown field'],
  ['t5 num_buckets 3', { kind: 't5', length: 4, num_buckets: 3 }, 'num_buckets', 'integer in [4, 4096]'],
  ['t5 num_buckets 4097', { kind: 't5', length: 4, num_buckets: 4097 }, 'num_buckets', 'got 4097'],
  ['t5 max_distance 1', { kind: 't5', length: 4, max_distance: 1 }, 'max_distance', 'integer in [2, 1048576]'],
  ['t5 max_distance not above max_exact', { kind: 't5', length: 4, num_buckets: 64, max_distance: 16 }, 'max_distance', 'greater than max_exact = 16'],
  ['t5 max_distance not above max_exact (unidirectional)', { kind: 't5', length: 4, num_buckets: 32, max_distance: 16, bidirectional: false }, 'max_distance', 'max_exact = 16'],
  ['t5 bidirectional as 1', { kind: 't5', length: 4, bidirectional: 1 }, 'bidirectional', 'true or false'],
  ['t5 length too big', { kind: 't5', length: 10000 }, 'length', 'integer in [1, 8192]'],
  ['shaw k negative', { kind: 'shaw', length: 4, max_relative_position: -1 }, 'max_relative_position', 'integer in [0, 1048576]'],
  ['shaw k fractional', { kind: 'shaw', length: 4, max_relative_position: 2.5 }, 'max_relative_position', 'got 2.5'],
  ['distance function unknown', { kind: 'distance', length: 4, function: 'cubic' }, 'function', '"linear", "log", "gaussian", "exponential"'],
  ['distance strength negative', { kind: 'distance', length: 4, strength: -1 }, 'strength', 'finite number in [0, 1000]'],
  ['distance strength NaN', { kind: 'distance', length: 4, strength: NaN }, 'strength', 'got NaN'],
  ['distance scale 0', { kind: 'distance', length: 4, scale: 0 }, 'scale', 'finite number in [0.01, 1000000]'],
  ['distance scale Infinity', { kind: 'distance', length: 4, scale: Infinity }, 'scale', 'got Infinity'],
  ['distance mode unknown', { kind: 'distance', length: 4, mode: 'both' }, 'mode', 'got "both"'],
];

describe('attention biases: validation', () => {
  let pe;
  beforeAll(async () => {
    pe = await createPE();
  });

  it.each(invalid)('rejects %s with a PEError naming the field', (_, spec, param, fragment) => {
    expectRejected(pe, () => pe.compute(spec), param, fragment, () => {
      expect(pe.compute({ kind: 'alibi', length: 3, heads: 1 }).data[3]).toBe(-(2 ** -8));
    });
  });

  it('fills in defaults', () => {
    expect(pe.defaults('alibi')).toEqual({ kind: 'alibi', length: 64, heads: 8, mode: 'causal' });
    expect(pe.defaults('t5')).toEqual({ kind: 't5', length: 64, num_buckets: 32, max_distance: 128, bidirectional: true });
    expect(pe.defaults('shaw')).toEqual({ kind: 'shaw', length: 64, max_relative_position: 16 });
    expect(pe.defaults('distance')).toEqual({ kind: 'distance', length: 64, function: 'linear', strength: 1, scale: 8, mode: 'causal' });
    for (const kind of KINDS) expect(pe.compute(pe.defaults(kind)).data.some(Number.isNaN)).toBe(false);
  });

  it('turns C status codes into PEErrors naming the field (the C guard behind the JS one)', () => {
    const cases = [
      [{ kind: 'alibi', length: 4, heads: 0 }, 'heads'], [{ kind: 'alibi', length: 0, heads: 1 }, 'length'], [{ kind: 'alibi', length: 1, heads: 2000 }, 'heads'],
      [{ kind: 'alibi', length: 4, mode: 'nope' }, 'mode'],
      [{ kind: 't5', length: 4, num_buckets: 2 }, 'num_buckets'], [{ kind: 't5', length: 4, max_distance: 8 }, 'max_distance'],
      [{ kind: 't5', length: 4, bidirectional: 'yes' }, 'bidirectional'], [{ kind: 't5', length: 0 }, 'length'],
      [{ kind: 'shaw', length: 4, max_relative_position: -3 }, 'max_relative_position'],
      [{ kind: 'distance', length: 4, function: 'x' }, 'function'], [{ kind: 'distance', length: 4, strength: NaN }, 'strength'],
      [{ kind: 'distance', length: 4, scale: 0.001 }, 'scale'], [{ kind: 'distance', length: 4, mode: 1 }, 'mode'],
    ];
    for (const [spec, param] of cases) {
      expectPEError(() => pe._computeUnvalidated(spec), param, /kernel status 1\d\d/, JSON.stringify(spec));
    }
    expect(pe.compute({ kind: 'shaw', length: 3, max_relative_position: 1 }).data[1]).toBe(2);
  });
});

describe.each(BUILDS)('relative profiles (pe.relativeProfile), $name build', ({ simd }) => {
  let pe;
  beforeAll(async () => {
    pe = await peFor(simd);
  });

  it.each([
    ['t5', { kind: 't5', num_buckets: 18, max_distance: 128, bidirectional: true }],
    ['t5 one way', { kind: 't5', num_buckets: 32, max_distance: 128, bidirectional: false }],
    ['shaw', { kind: 'shaw', max_relative_position: 7 }],
    ['distance log, causal', { kind: 'distance', function: 'log', strength: 2, scale: 5, mode: 'causal' }],
    ['distance gaussian, symmetric', { kind: 'distance', function: 'gaussian', strength: 2, scale: 5, mode: 'symmetric' }],
    ['alibi, 5 heads', { kind: 'alibi', heads: 5, mode: 'causal' }],
  ])('%s: every r holds the table entry, bit for bit, at lengths 1 to 40', (_, spec) => {
    for (let L = 1; L <= 40; L++) {
      const t = pe.compute({ length: L, ...spec });
      const p = pe.relativeProfile({ length: L, ...spec });
      const planes = spec.heads ?? 1;
      expect(p.shape).toEqual(spec.kind === 'alibi' ? [planes, 2 * L - 1] : [2 * L - 1]);
      expect(p.r0).toBe(-(L - 1));
      for (let h = 0; h < planes; h++) {
        for (let r = -(L - 1); r < L; r++) {
          const row = r >= 0 ? 0 : L - 1;
          const col = r >= 0 ? r : L - 1 + r;
          expect(Object.is(p.data[h * (2 * L - 1) + r + L - 1], t.data[h * L * L + row * L + col]), `${spec.kind} L=${L} h=${h} r=${r}`).toBe(true);
        }
      }
      if (spec.kind === 'alibi') expect(Array.from(p.slopes)).toEqual(Array.from(t.slopes));
    }
  });

  it('refuses kinds without a profile, and bad specs, naming the field', () => {
    expectPEError(() => pe.relativeProfile({ kind: 'rope', length: 4, dim: 8 }), 'kind', /relativeProfile needs kind/);
    expectPEError(() => pe.relativeProfile({ kind: 't5', length: 0 }), 'length');
    expectPEError(() => pe.relativeProfile({ kind: 'alibi', length: 8, heads: 2000 }), 'heads');
  });
});
