// The `attention` kind against the independent PyTorch fixtures (tests/fixtures/gen_attention.py,
// ref_attention.py), its properties (rows sum to 1, the causal mask, the permutation lesson),
// its extras and validation, in both WASM builds.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { splitWords } from '../web/api/schema/attention.js';
import { loadManifest, readFixture } from './helpers/fixtures.js';
import { BUILDS, peFor, expectPEError, expectRejected } from './helpers/pe.js';

const manifest = loadManifest('attention');

/** The float64 weights, entropy and local mass of a case, one after the other in its file. */
function expected(testCase) {
  const all = readFixture('attention', testCase.file);
  const [H, L] = testCase.shape;
  return { weights: all.subarray(0, H * L * L), entropy: all.subarray(H * L * L, H * L * L + H * L), mass: all.subarray(H * L * L + H * L) };
}

function maxAbs(a, b) {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

/** Weights of the sentence permuted by perm: out[h, a, b] = w[h, perm[a], perm[b]]. */
function permuted(w, H, L, perm) {
  const out = new Float32Array(w.length);
  for (let h = 0; h < H; h++)
    for (let a = 0; a < L; a++)
      for (let b = 0; b < L; b++) out[(h * L + a) * L + b] = w[(h * L + perm[a]) * L + perm[b]];
  return out;
}

const SENTENCE = 'the cat sat on the mat 고양이가 매트 위에 앉았다 and the dog barked loudly';

describe.each(BUILDS)('attention, $name build', ({ name, simd }) => {
  let pe;
  const worst = { weights: 0, entropy: 0, local_mass: 0 };
  beforeAll(async () => {
    pe = await peFor(simd);
  });
  afterAll(() => {
    console.log(`attention ${name}: worst error vs PyTorch over ${manifest.cases.length} cases: weights ${worst.weights.toExponential(2)}, entropy ${worst.entropy.toExponential(2)}, local_mass ${worst.local_mass.toExponential(2)}`);
  });

  it('loads the requested build', () => {
    expect(pe.simd).toBe(simd);
  });

  it.each(manifest.cases.map((c) => [c.name, c]))('matches the PyTorch fixture %s', (_, testCase) => {
    const r = pe.compute(testCase.spec);
    expect(r.shape).toEqual(testCase.shape);
    const e = expected(testCase);
    const errs = { weights: maxAbs(r.data, e.weights), entropy: maxAbs(r.entropy, e.entropy), local_mass: maxAbs(r.local_mass, e.mass) };
    for (const key of Object.keys(errs)) {
      worst[key] = Math.max(worst[key], errs[key]);
      expect(errs[key], key).toBeLessThanOrEqual(testCase.tolerance[key]);
    }
    expect(r.data.some(Number.isNaN)).toBe(false);
    if (testCase.tokens) expect(r.tokens).toEqual(testCase.tokens);
    else expect(r.tokens).toBeUndefined();
  });

  it('covers every encoding family, causal and not, 1 and 8 heads, length 1 and every content', () => {
    const kinds = new Set(manifest.cases.map((c) => (c.spec.encoding === null ? 'none' : c.spec.encoding?.kind ?? 'rope')));
    for (const k of ['none', 'sinusoidal', 'sinusoidal2d', 'sinusoidal3d', 'learned', 'integer', 'binary', 'rope', 'mrope', 'alibi', 't5', 'shaw', 'distance']) {
      expect(kinds.has(k), k).toBe(true);
    }
    const specs = manifest.cases.map((c) => c.spec);
    expect(specs.some((s) => s.causal === false) && specs.some((s) => s.causal !== false)).toBe(true);
    expect(specs.some((s) => (s.heads ?? 1) === 1) && specs.some((s) => s.heads === 8)).toBe(true);
    expect(specs.some((s) => s.length === 1)).toBe(true);
    for (const content of ['tokens', 'none']) expect(specs.some((s) => s.content === content), content).toBe(true);
  });

  it('rows sum to 1, the causal upper triangle is exactly 0, extras agree with the weights', () => {
    for (const encoding of [null, { kind: 'rope' }, { kind: 'alibi' }, { kind: 'sinusoidal' }, { kind: 'distance', mode: 'causal' }]) {
      for (const causal of [true, false]) {
        const L = 37;
        const H = 3;
        const r = pe.compute({ kind: 'attention', length: L, dim: 20, heads: H, encoding, causal, seed: 8 });
        expect(r.entropy.length).toBe(H * L);
        expect(r.local_mass.length).toBe(H * L);
        for (let h = 0; h < H; h++) {
          for (let i = 0; i < L; i++) {
            let sum = 0;
            let ent = 0;
            let mass = 0;
            for (let j = 0; j < L; j++) {
              const w = r.data[(h * L + i) * L + j];
              if (causal && j > i) expect(w).toBe(0);
              expect(w).toBeGreaterThanOrEqual(0);
              sum += w;
              if (w > 0) ent -= w * Math.log(w);
              if (Math.abs(i - j) < 16) mass += w;
            }
            expect(Math.abs(sum - 1)).toBeLessThan(1e-6);
            expect(Math.abs(ent - r.entropy[h * L + i])).toBeLessThan(1e-5);
            expect(Math.abs(mass - r.local_mass[h * L + i])).toBeLessThan(1e-6);
          }
        }
      }
    }
  });

  it('length 1 is a single weight 1 for every encoding', () => {
    for (const encoding of [null, { kind: 'rope' }, { kind: 'mrope' }, { kind: 'alibi' }, { kind: 't5' }, { kind: 'shaw' }, { kind: 'integer' }]) {
      const r = pe.compute({ kind: 'attention', length: 1, heads: 2, dim: 8, encoding });
      expect(Array.from(r.data)).toEqual([1, 1]);
      expect(Array.from(r.entropy)).toEqual([0, 0]);
    }
  });

  it('does not overflow on huge logits: integer positions give one-hot rows', () => {
    const L = 300;
    const r = pe.compute({ kind: 'attention', length: L, dim: 64, encoding: { kind: 'integer' }, content: 'none', causal: false });
    // s_ij = i·j·√64, up to 7·10⁵: from row 3 on (neighbouring keys 24 apart) every row puts all its
    // weight on the last key; row 1 is a geometric series of ratio e^−8.
    for (let i = 3; i < L; i++) expect(r.data[i * L + L - 1]).toBe(1);
    expect(r.data[L + L - 1]).toBeCloseTo(1 - Math.exp(-8), 6);
    expect(r.data[0]).toBeCloseTo(1 / L, 7);
    expect(r.data.some(Number.isNaN)).toBe(false);
    const big = pe.compute({ kind: 'attention', length: 64, dim: 512, encoding: { kind: 'learned', std: 10 }, content: 'random' });
    expect(big.data.some((v) => !Number.isFinite(v))).toBe(false);
    for (let i = 0; i < 64; i++) expect(Math.abs(big.data.subarray(i * 64, i * 64 + 64).reduce((a, b) => a + b) - 1)).toBeLessThan(1e-6);
  });

  describe('the permutation lesson (measured)', () => {
    const words = splitWords(SENTENCE);
    const L = words.length;
    const perm = [7, 2, 11, 0, 14, 5, 9, 1, 12, 3, 8, 13, 6, 10, 4];
    const shuffled = perm.map((p) => words[p]).join(' ');
    const spec = (encoding, causal, tokens) => ({ kind: 'attention', length: L, dim: 32, heads: 4, content: 'tokens', tokens, encoding, causal, seed: 3 });

    it('uses a real permutation of every word', () => {
      expect(L).toBe(15);
      expect([...perm].sort((a, b) => a - b)).toEqual([...Array(L).keys()]);
    });

    it('without an encoding, the shuffled sentence gives the shuffled weights (to 1e-6)', () => {
      const a = pe.compute(spec(null, false, SENTENCE));
      const b = pe.compute(spec(null, false, shuffled));
      expect(b.tokens).toEqual(perm.map((p) => words[p]));
      const diff = maxAbs(b.data, permuted(a.data, 4, L, perm));
      expect(diff).toBeLessThan(1e-6);
      // Without positions, the two "the" (words 0 and 4) are the same query: identical rows.
      expect(words[0]).toBe(words[4]);
      expect(Array.from(a.data.subarray(4 * L, 5 * L))).toEqual(Array.from(a.data.subarray(0, L)));
    });

    it('with any positional encoding they are not', () => {
      const encodings = [{ kind: 'sinusoidal' }, { kind: 'learned', std: 1 }, { kind: 'integer', normalize: true }, { kind: 'binary' },
        { kind: 'rope' }, { kind: 'mrope' }, { kind: 'alibi' }, { kind: 't5' }, { kind: 'shaw' }, { kind: 'distance' }];
      const diffs = {};
      for (const encoding of encodings) {
        const a = pe.compute(spec(encoding, false, SENTENCE));
        const b = pe.compute(spec(encoding, false, shuffled));
        diffs[encoding.kind] = maxAbs(b.data, permuted(a.data, 4, L, perm));
        expect(diffs[encoding.kind], encoding.kind).toBeGreaterThan(1e-3);
      }
      console.log(`permutation (${name}): max |W(shuffled) − P·W·Pᵀ| ${Object.entries(diffs).map(([k, v]) => `${k} ${v.toFixed(3)}`).join(', ')}`);
    });

    it('the causal mask alone already carries order', () => {
      const a = pe.compute(spec(null, true, SENTENCE));
      const b = pe.compute(spec(null, true, shuffled));
      expect(maxAbs(b.data, permuted(a.data, 4, L, perm))).toBeGreaterThan(1e-2);
    });
  });

  it('tokens: the same word gives the same q and k, Korean and English alike', () => {
    const text = '나는 cat 나는 cat';
    const r = pe.compute({ kind: 'attention', length: 4, dim: 16, heads: 2, encoding: null, content: 'tokens', tokens: text, causal: false });
    expect(r.tokens).toEqual(['나는', 'cat', '나는', 'cat']);
    for (let h = 0; h < 2; h++) {
      const row = (i) => Array.from(r.data.subarray((h * 4 + i) * 4, (h * 4 + i + 1) * 4));
      expect(row(2)).toEqual(row(0));   // same word: same row
      expect(row(3)).toEqual(row(1));
      expect(row(0)[0]).toBe(row(0)[2]); // and same column
    }
    // Whitespace of any kind separates words; the count must match length.
    const spaced = pe.compute({ kind: 'attention', length: 3, dim: 8, content: 'tokens', tokens: '  a\u3000b\n\tc  ' });
    expect(spaced.tokens).toEqual(['a', 'b', 'c']);
  });

  it('seeds change random content, the same seed reproduces it', () => {
    const s = { kind: 'attention', length: 16, dim: 8, encoding: null, causal: false };
    const a = pe.compute({ ...s, seed: 1 }).data;
    expect(pe.compute({ ...s, seed: 1 }).data).toEqual(a);
    expect(maxAbs(pe.compute({ ...s, seed: 2 }).data, a)).toBeGreaterThan(1e-3);
  });

  it('fills in defaults and reports the normalized spec, which computes the same again', () => {
    expect(pe.defaults('attention')).toEqual({
      kind: 'attention', length: 64, dim: 64, heads: 1, causal: true,
      encoding: { kind: 'rope', base: 10000, layout: 'half', partial_rotary_factor: 1, rope_scaling: null, max_position_embeddings: null, grid_height: null, grid_width: null },
      content: 'random', tokens: null, seed: 0,
    });
    // The defaults object is fresh each time.
    pe.defaults('attention').encoding.base = 5;
    expect(pe.defaults('attention').encoding.base).toBe(10000);
    const r = pe.compute({ kind: 'attention', length: 12, heads: 2, encoding: { kind: 'alibi' } });
    expect(r.spec.encoding).toEqual({ kind: 'alibi', mode: 'causal' });
    expect(pe.compute({ kind: 'attention', length: 12, causal: false, encoding: { kind: 'alibi' } }).spec.encoding.mode).toBe('symmetric');
    expect(pe.compute({ kind: 'attention', length: 12, encoding: { kind: 't5' } }).spec.encoding.bidirectional).toBe(false);
    const m = pe.compute({ kind: 'attention', length: 12, dim: 64, encoding: { kind: 'mrope' } }).spec.encoding;
    expect(m.segments).toEqual([{ type: 'text', length: 12 }]);
    expect(m.mrope_section).toEqual([8, 12, 12]);
    expect(pe.compute(r.spec).data).toEqual(r.data);
    // Repeating an inherited field with the same value is allowed (round trips).
    expect(pe.compute({ kind: 'attention', length: 12, heads: 2, encoding: { kind: 'alibi', length: 12, heads: 2 } }).data).toEqual(r.data);
  });

  it('rope with a YaRN factor scales the scores by attention_factor² (as applyRope rotates)', () => {
    const spec = { kind: 'attention', length: 20, dim: 16, encoding: { kind: 'rope', rope_scaling: { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 8 } } };
    const r = pe.compute(spec);
    expect(r.attention_factor).toBeCloseTo(0.1 * Math.log(4) + 1, 6);
  });

  const BAD = [
    ['length 0', { length: 0 }, 'length'],
    ['length too long', { length: 8193 }, 'length'],
    ['length missing', { length: undefined }, 'length'],
    ['dim 0', { dim: 0 }, 'dim'],
    ['dim too wide', { dim: 513 }, 'dim'],
    ['heads 0', { heads: 0 }, 'heads'],
    ['heads over the output limit', { length: 4096, heads: 8 }, 'heads'],
    ['heads 65', { heads: 65 }, 'heads'],
    ['causal a string', { causal: 'yes' }, 'causal'],
    ['content unknown', { content: 'images' }, 'content'],
    ['seed negative', { seed: -1 }, 'seed'],
    ['seed fractional', { seed: 0.5 }, 'seed'],
    ['tokens a number', { tokens: 5 }, 'tokens'],
    ['tokens missing for content tokens', { content: 'tokens' }, 'tokens'],
    ['tokens only whitespace', { content: 'tokens', tokens: ' \n ' }, 'tokens'],
    ['tokens and length disagree', { content: 'tokens', tokens: 'one two three', length: 4 }, 'length'],
    ['encoding a number', { encoding: 5 }, 'encoding'],
    ['encoding an array', { encoding: [] }, 'encoding'],
    ['encoding unknown kind', { encoding: { kind: 'fourier' } }, 'encoding.kind'],
    ['encoding kind none', { encoding: { kind: 'none' } }, 'encoding.kind'],
    ['encoding kind attention', { encoding: { kind: 'attention' } }, 'encoding.kind'],
    ['encoding without kind', { encoding: { base: 10 } }, 'encoding.kind'],
    ['encoding.base 0', { encoding: { kind: 'rope', base: 0 } }, 'encoding.base'],
    ['encoding.layout unknown', { encoding: { kind: 'sinusoidal', layout: 'spiral' } }, 'encoding.layout'],
    ['encoding.length differs', { encoding: { kind: 'rope', length: 5 } }, 'encoding.length'],
    ['encoding.dim differs', { encoding: { kind: 'sinusoidal', dim: 8 } }, 'encoding.dim'],
    ['encoding.heads differs', { heads: 2, encoding: { kind: 'alibi', heads: 3 } }, 'encoding.heads'],
    ['encoding unknown field', { encoding: { kind: 'rope', theta: 5 } }, 'encoding.theta'],
    ['encoding.rope_scaling.factor missing', { encoding: { kind: 'rope', rope_scaling: { rope_type: 'linear' } } }, 'encoding.rope_scaling.factor'],
    ['encoding.max_distance too small', { encoding: { kind: 't5', num_buckets: 32, max_distance: 4 } }, 'encoding.max_distance'],
    ['encoding.std 0', { encoding: { kind: 'learned', std: 0 } }, 'encoding.std'],
    ['encoding.mode unknown', { encoding: { kind: 'alibi', mode: 'both' } }, 'encoding.mode'],
    ['rope needs an even dim', { dim: 7, encoding: { kind: 'rope' } }, 'dim'],
    ['mrope segments miss the length', { length: 10, encoding: { kind: 'mrope', segments: [{ type: 'text', length: 3 }] } }, 'encoding.segments'],
    ['mrope section must sum to dim/2', { dim: 16, encoding: { kind: 'mrope', mrope_section: [4, 4, 4] } }, 'encoding.mrope_section'],
    ['sinusoidal2d grid is not the length', { length: 10, encoding: { kind: 'sinusoidal2d', height: 3, width: 3 } }, 'encoding.height'],
    ['unknown top-level field', { temperature: 2 }, 'temperature'],
    ['encoding with an own __proto__ key', { encoding: JSON.parse('{"kind":"rope","__proto__":{"base":2}}') }, 'encoding.__proto__'],
  ];

  it.each(BAD)('%s → PEError naming the field', (_, patch, param) => {
    const spec = { kind: 'attention', length: 16, dim: 16, ...patch };
    pe.compute({ kind: 'attention', length: 16, dim: 16 });
    const e = expectRejected(pe, () => pe.compute(spec), param);
    expect(e.message.length).toBeGreaterThan(15);
    expect(pe.compute({ kind: 'attention', length: 2, encoding: null, content: 'none' }).data[2]).toBe(0.5);
  });

  it('error messages say what is allowed', () => {
    expect(expectPEError(() => pe.compute({ kind: 'attention', length: 3, content: 'tokens', tokens: '하나 둘' }), 'length').message)
      .toBe('length must equal the number of words in tokens (2: 하나 둘), got 3');
    expectPEError(() => pe.compute({ kind: 'attention', length: 3, encoding: { kind: 'rope', base: 1 } }), 'encoding.base',
      /^encoding\.base must be a finite number in \(1, /);
    expectPEError(() => pe.compute({ kind: 'attention', length: 3, encoding: { kind: 'rope', length: 4 } }), 'encoding.length',
      /encoding\.length follows the enclosing spec \(length 3\)/);
    expectPEError(() => pe.compute({ kind: 'attention', length: 3, encoding: { kind: 'rop' } }), 'encoding.kind', /did you mean "rope"/);
  });

  it('turns C status codes into PEErrors naming the field (the C guard behind the JS one)', () => {
    const cases = [
      [{ heads: 0 }, 'heads'], [{ length: 0 }, 'length'], [{ dim: 0 }, 'dim'], [{ causal: 'x' }, 'causal'],
      [{ content: 'x' }, 'content'], [{ seed: 0.5 }, 'seed'], [{ seed: -1 }, 'seed'], [{ dim: 600 }, 'dim'],
      [{ content: 'tokens', tokens: null }, 'tokens'],
    ];
    for (const [patch, param] of cases) {
      expectPEError(() => pe._computeUnvalidated({ kind: 'attention', length: 8, dim: 8, encoding: null, ...patch }), param,
        /kernel status 1\d\d/, JSON.stringify(patch));
    }
  });
});

describe('attention: the two builds agree', () => {
  it('SIMD and scalar within 1e-6 on every fixture spec', async () => {
    const simd = await peFor(true);
    const scalar = await peFor(false);
    let worst = 0;
    for (const c of manifest.cases) worst = Math.max(worst, maxAbs(simd.compute(c.spec).data, scalar.compute(c.spec).data));
    expect(worst).toBeLessThan(1e-6);
  });
});
