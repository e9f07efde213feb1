// The absolute kinds integer, binary and learned against the NumPy fixtures
// (tests/fixtures/gen_absolute.py), their properties and validation, in both WASM builds.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createPE } from '../web/pe.js';
import { loadManifest, loadExpected, maxAbsError } from './helpers/fixtures.js';
import { BUILDS, peFor, expectPEError, expectRejected } from './helpers/pe.js';

const KINDS = ['integer', 'binary', 'learned'];
const manifests = Object.fromEntries(KINDS.map((k) => [k, loadManifest(k)]));

describe.each(BUILDS)('absolute kinds, $name build', ({ name, simd }) => {
  let pe;
  const worst = {};
  beforeAll(async () => {
    pe = await peFor(simd);
  });
  afterAll(() => {
    const lines = Object.entries(worst).map(([k, w]) => `${k} ${w.toExponential(3)}`);
    console.log(`absolute kinds ${name}: worst abs error vs NumPy float64: ${lines.join(', ')}`);
  });

  for (const kind of KINDS) {
    it.each(manifests[kind].cases.map((c) => [c.name, c]))(`${kind} matches the fixture %s`, (_, testCase) => {
      const result = pe.compute(testCase.spec);
      expect(result.shape).toEqual(testCase.shape);
      const { worst: w, at } = maxAbsError(result.data, loadExpected(kind, testCase), testCase);
      worst[kind] = Math.max(worst[kind] ?? 0, w);
      expect(result.data.some(Number.isNaN)).toBe(false);
      expect(w, `worst error at flat index ${at}`).toBeLessThanOrEqual(testCase.tolerance);
    });
  }

  it('integer: p in every column, p/(length − 1) normalized, 0 for a single position', () => {
    const raw = pe.compute({ kind: 'integer', length: 5, dim: 3 }).data;
    expect(Array.from(raw)).toEqual([0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4]);
    const norm = pe.compute({ kind: 'integer', length: 5, dim: 2, normalize: true }).data;
    expect(Array.from(norm)).toEqual([0, 0, 0.25, 0.25, 0.5, 0.5, 0.75, 0.75, 1, 1]);
    expect(Array.from(pe.compute({ kind: 'integer', length: 1, dim: 2, normalize: true }).data)).toEqual([0, 0]);
  });

  it('binary: bits least significant first; every row distinct while 2^dim ≥ length', () => {
    const { data } = pe.compute({ kind: 'binary', length: 6, dim: 3 });
    expect(Array.from(data)).toEqual([0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0, 0, 1, 1, 0, 1]);
    const dim = 10;
    const table = pe.compute({ kind: 'binary', length: 1024, dim }).data;
    const rows = new Set();
    for (let p = 0; p < 1024; p++) {
      let value = 0;
      for (let k = 0; k < dim; k++) value += table[p * dim + k] * 2 ** k;
      expect(value).toBe(p);
      rows.add(value);
    }
    expect(rows.size).toBe(1024);
    // Columns past bit 31 (and past every bit of p) are 0.
    expect(pe.compute({ kind: 'binary', length: 3, dim: 70 }).data.subarray(140 + 2).every((v) => v === 0)).toBe(true);
  });

  it('learned: N(0, std²), deterministic per seed, entry (p, c) independent of length and dim', () => {
    const big = pe.compute({ kind: 'learned', length: 512, dim: 256, std: 1, seed: 7 }).data;
    let sum = 0;
    let squares = 0;
    for (const v of big) {
      sum += v;
      squares += v * v;
    }
    const mean = sum / big.length;
    const sd = Math.sqrt(squares / big.length - mean * mean);
    expect(Math.abs(mean)).toBeLessThan(0.01);
    expect(Math.abs(sd - 1)).toBeLessThan(0.01);
    const a = pe.compute({ kind: 'learned', length: 10, dim: 7, seed: 3 }).data;
    const b = pe.compute({ kind: 'learned', length: 30, dim: 9, seed: 3 }).data;
    for (let p = 0; p < 10; p++) {
      expect(Array.from(a.subarray(p * 7, p * 7 + 7))).toEqual(Array.from(b.subarray(p * 9, p * 9 + 7)));
    }
    expect(Array.from(pe.compute({ kind: 'learned', length: 10, dim: 7, seed: 3 }).data)).toEqual(Array.from(a));
    const other = pe.compute({ kind: 'learned', length: 10, dim: 7, seed: 4 }).data;
    expect(other.some((v, i) => v !== a[i])).toBe(true);
    const scaled = pe.compute({ kind: 'learned', length: 10, dim: 7, seed: 3, std: 0.04 }).data;
    scaled.forEach((v, i) => expect(v).toBe(Math.fround(2 * a[i])));   // std·z, one rounding
  });
});

describe('absolute kinds: SIMD and scalar builds agree bit for bit at every dim (tail) 1..70', () => {
  it('for integer, binary and learned', async () => {
    const simd = await peFor(true);
    const scalar = await peFor(false);
    for (let dim = 1; dim <= 70; dim++) {
      for (const spec of [
        { kind: 'integer', length: 9, dim }, { kind: 'integer', length: 9, dim, normalize: true },
        { kind: 'binary', length: 40, dim }, { kind: 'learned', length: 3, dim, seed: dim },
      ]) {
        const a = simd.compute(spec).data;
        const b = scalar.compute(spec).data;
        expect(Buffer.from(a.buffer).equals(Buffer.from(b.buffer)), JSON.stringify(spec)).toBe(true);
      }
    }
  });
});

const invalid = [
  ['integer without dim', { kind: 'integer', length: 4 }, 'dim', 'dim is required'],
  ['integer length 0', { kind: 'integer', length: 0, dim: 2 }, 'length', 'integer in [1, 1048576]'],
  ['integer normalize as a string', { kind: 'integer', length: 4, dim: 2, normalize: 'yes' }, 'normalize', 'true or false'],
  ['integer output over PE_MAX_ELEMENTS', { kind: 'integer', length: 2 ** 20, dim: 65 }, 'length', 'PE_MAX_ELEMENTS'],
  ['binary dim 16385', { kind: 'binary', length: 4, dim: 16385 }, 'dim', 'integer in [1, 16384]'],
  ['binary unknown field', { kind: 'binary', length: 4, dim: 2, normalize: true }, 'normalize', 'unknown field'],
  ['learned std 0', { kind: 'learned', length: 4, dim: 2, std: 0 }, 'std', 'finite number in (0, 10]'],
  ['learned std negative', { kind: 'learned', length: 4, dim: 2, std: -0.02 }, 'std', 'got -0.02'],
  ['learned std NaN', { kind: 'learned', length: 4, dim: 2, std: NaN }, 'std', 'got NaN'],
  ['learned seed negative', { kind: 'learned', length: 4, dim: 2, seed: -1 }, 'seed', 'integer in [0, 4294967295]'],
  ['learned seed 2^32', { kind: 'learned', length: 4, dim: 2, seed: 2 ** 32 }, 'seed', 'got 4294967296'],
  ['learned seed fractional', { kind: 'learned', length: 4, dim: 2, seed: 0.5 }, 'seed', 'got 0.5'],
  ['learned seed BigInt', { kind: 'learned', length: 4, dim: 2, seed: 1n }, 'seed', '(a BigInt)'],
];

describe('absolute kinds: validation', () => {
  let pe;
  beforeAll(async () => {
    pe = await createPE();
  });

  it.each(invalid)('rejects %s with a PEError naming the field', (_, spec, param, fragment) => {
    expectRejected(pe, () => pe.compute(spec), param, fragment, () => {
      expect(Array.from(pe.compute({ kind: 'integer', length: 2, dim: 2 }).data)).toEqual([0, 0, 1, 1]);
    });
  });

  it('fills in defaults', () => {
    expect(pe.defaults('integer')).toEqual({ kind: 'integer', length: 128, dim: 16, normalize: false });
    expect(pe.defaults('binary')).toEqual({ kind: 'binary', length: 128, dim: 16 });
    expect(pe.defaults('learned')).toEqual({ kind: 'learned', length: 128, dim: 64, std: 0.02, seed: 0 });
  });

  it('turns C status codes into PEErrors naming the field (the C guard behind the JS one)', () => {
    const cases = [
      [{ kind: 'integer', length: 4, dim: 0 }, 'dim'], [{ kind: 'integer', length: 4, dim: 2, normalize: 2 }, 'normalize'],
      [{ kind: 'binary', length: -1, dim: 2 }, 'length'],
      [{ kind: 'learned', length: 4, dim: 2, std: 11 }, 'std'], [{ kind: 'learned', length: 4, dim: 2, std: NaN }, 'std'],
      [{ kind: 'learned', length: 4, dim: 2, seed: 2 ** 32 }, 'seed'], [{ kind: 'learned', length: 4, dim: 2, seed: 1.5 }, 'seed'],
      [{ kind: 'learned', length: 4, dim: 2, seed: -1 }, 'seed'],
    ];
    for (const [spec, param] of cases) {
      expectPEError(() => pe._computeUnvalidated(spec), param, /kernel status 1\d\d/, JSON.stringify(spec));
    }
  });
});
