// The rope kind against NumPy/PyTorch float64 fixtures (tests/fixtures/gen_rope.py), its
// properties, and its validation, in both WASM builds.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createPE } from '../web/pe.js';
import { loadManifest, readFixture } from './helpers/fixtures.js';
import { BUILDS, peFor, expectPEError, expectRejected } from './helpers/pe.js';

const manifest = loadManifest('rope');
const read = (file, Type) => readFixture('rope', file, Type);
const typeOf = (spec) => spec.rope_scaling?.rope_type ?? 'default';

/** Worst |a − e| / |e| (e ≠ 0; a must be exactly 0 where e is 0) of the stored rows. */
function worstRelative(actual, expected, rows, width) {
  let worst = 0;
  rows.forEach((row, k) => {
    for (let j = 0; j < width; j++) {
      const e = expected[k * width + j];
      const a = actual[row * width + j];
      const err = e === 0 ? (a === 0 ? 0 : Infinity) : Math.abs(a - e) / Math.abs(e);
      if (!(err <= worst)) worst = err;   // NaN counts as the worst
    }
  });
  return worst;
}

function worstAbsolute(actual, expected, rows, width, offset = 0) {
  let worst = 0;
  rows.forEach((row, k) => {
    for (let j = 0; j < width; j++) {
      const err = Math.abs(actual[row * width + j] - expected[offset + k * width + j]);
      if (!(err <= worst)) worst = err;
    }
  });
  return worst;
}

describe.each(BUILDS)('rope, $name build', ({ name, simd }) => {
  let pe;
  const worst = {};   // by rope_type: { inv_freq, angles, tables, apply }
  const note = (type, what, value) => {
    worst[type] ??= { inv_freq: 0, angles: 0, tables: 0, apply: 0 };
    worst[type][what] = Math.max(worst[type][what], value);
  };
  beforeAll(async () => {
    pe = await peFor(simd);
  });
  afterAll(() => {
    const lines = Object.entries(worst).map(([type, w]) =>
      `${type}: inv_freq rel ${w.inv_freq.toExponential(2)}, angles rel ${w.angles.toExponential(2)}, cos/sin abs ${w.tables.toExponential(2)}, apply abs ${w.apply.toExponential(2)}`);
    console.log(`rope ${name}: worst errors vs NumPy/PyTorch float64 over ${manifest.cases.length} fixtures\n  ${lines.join('\n  ')}`);
  });

  it('loads the requested build', () => {
    expect(pe.simd).toBe(simd);
  });

  it.each(manifest.cases.map((c) => [c.name, c]))('matches the fixture %s', (_, c) => {
    const type = typeOf(c.spec);
    const [length, pairs] = c.shape;
    const rows = c.rows ?? Array.from({ length }, (__, i) => i);

    const result = pe.compute(c.spec);
    expect(result.shape).toEqual(c.shape);
    // The fixture spec is complete for 1-D RoPE; the grid fields (axial 2-D) default to null.
    expect(result.spec).toEqual({ ...c.spec, grid_height: null, grid_width: null });
    expect(result.data).toBeInstanceOf(Float32Array);
    expect(result.data.length).toBe(length * pairs);
    expect(result.inv_freq).toBeInstanceOf(Float32Array);
    const inv = worstRelative(result.inv_freq, c.inv_freq, [0], pairs);
    note(type, 'inv_freq', inv);
    expect(inv, 'inv_freq').toBeLessThanOrEqual(c.inv_freq_rtol);
    expect(result.attention_factor).toBeCloseTo(c.attention_factor, 14);
    const angles = worstRelative(result.data, read(c.angles, Float64Array), rows, pairs);
    note(type, 'angles', angles);
    expect(angles, 'angles').toBeLessThanOrEqual(c.angles_rtol);

    const tables = pe.ropeTables(c.spec);
    expect(tables.shape).toEqual(c.shape);
    const cossin = read(c.tables, Float64Array);
    const tableErr = Math.max(
      worstAbsolute(tables.cos, cossin, rows, pairs, 0),
      worstAbsolute(tables.sin, cossin, rows, pairs, rows.length * pairs),
    );
    note(type, 'tables', tableErr);
    expect(tableErr, 'cos/sin').toBeLessThanOrEqual(c.tables_tolerance);
    expect(Array.from(tables.inv_freq)).toEqual(Array.from(result.inv_freq));

    if (c.apply) {
      const x = read(c.apply.x, Float32Array);
      const copy = x.slice();
      const expected = read(c.apply.out, Float64Array);
      const out = pe.applyRope(x, c.spec, { heads: c.apply.heads });
      expect(out.shape).toEqual([c.apply.heads, c.spec.length, c.spec.dim]);
      expect(out.attention_factor).toBe(result.attention_factor);
      let err = 0;
      for (let k = 0; k < expected.length; k++) err = Math.max(err, Math.abs(out.data[k] - expected[k]));
      note(type, 'apply', err);
      expect(err, 'application').toBeLessThanOrEqual(c.apply.tolerance);
      expect(x).toEqual(copy);   // x is never modified
    }
  });

  it('covers every rope_type, both layouts, partial rotary, truncate, dynamic either side, llama3 edges, large positions', () => {
    const specs = manifest.cases.map((c) => c.spec);
    expect(new Set(specs.map(typeOf))).toEqual(new Set(['default', 'linear', 'dynamic', 'yarn', 'llama3', 'ntk', 'longrope']));
    const applied = manifest.cases.filter((c) => c.apply);
    expect(new Set(applied.map((c) => c.spec.layout))).toEqual(new Set(['half', 'interleaved']));
    expect(new Set(applied.map((c) => typeOf(c.spec)))).toEqual(new Set(['default', 'linear', 'dynamic', 'yarn', 'llama3', 'ntk', 'longrope']));
    // LongRoPE on both sides of the switch (length vs the original context), Phi-3.5's lists among them.
    const lists = manifest.cases.filter((c) => c.longrope_list);
    expect(new Set(lists.map((c) => c.longrope_list))).toEqual(new Set(['short', 'long']));
    expect(lists.some((c) => c.spec.dim === 96 && c.spec.length === 4096 && c.longrope_list === 'short')).toBe(true);
    expect(lists.some((c) => c.spec.dim === 96 && c.spec.length === 4097 && c.longrope_list === 'long')).toBe(true);
    expect(specs.some((s) => s.partial_rotary_factor < 1 && s.dim % 2 === 1)).toBe(true);
    const yarnTruncate = specs.filter((s) => typeOf(s) === 'yarn').map((s) => s.rope_scaling.truncate);
    expect(new Set(yarnTruncate)).toEqual(new Set([true, false]));
    const dynamic = specs.filter((s) => typeOf(s) === 'dynamic' && s.max_position_embeddings);
    expect(dynamic.some((s) => s.length < s.max_position_embeddings)).toBe(true);
    expect(dynamic.some((s) => s.length > s.max_position_embeddings)).toBe(true);
    const bands = manifest.cases.filter((c) => c.bands).map((c) => c.bands.join(','));
    expect(new Set(bands)).toEqual(new Set(['high,smooth', 'high,low', 'smooth,smooth']));
    expect(specs.some((s) => s.length === 2 ** 20)).toBe(true);
  });

  it('keeps cos/sin within 2e-7 of float64 at every position < 2^20 (dim 4, Math.cos/Math.sin)', () => {
    const { cos, sin, inv_freq: inv } = pe.ropeTables({ length: 2 ** 20, dim: 4, base: 500000 });
    // The kernel's float64 inv_freq is 1 and 500000^-0.5: take them from the formula, not the float32 extra.
    const omega = [1, 500000 ** -0.5];
    expect(inv[1]).toBe(Math.fround(omega[1]));
    let err = 0;
    for (let p = 0; p < 2 ** 20; p++) {
      for (let i = 0; i < 2; i++) {
        err = Math.max(err, Math.abs(cos[2 * p + i] - Math.cos(p * omega[i])), Math.abs(sin[2 * p + i] - Math.sin(p * omega[i])));
      }
    }
    expect(err).toBeLessThanOrEqual(2e-7);
  });

  it('rotates without changing norms, and q·k depends only on the distance', () => {
    const dim = 64;
    const length = 300;
    const q = Float32Array.from({ length: dim }, (_, i) => Math.sin(i * 1.7) + 0.3);
    const k = Float32Array.from({ length: dim }, (_, i) => Math.cos(i * 0.9) - 0.2);
    for (const layout of ['half', 'interleaved']) {
      const spec = { kind: 'rope', length, dim, layout, rope_scaling: { rope_type: 'llama3', factor: 8, original_max_position_embeddings: 64, low_freq_factor: 1, high_freq_factor: 4 } };
      const tile = (v) => { const x = new Float32Array(length * dim); for (let p = 0; p < length; p++) x.set(v, p * dim); return x; };
      const qs = pe.applyRope(tile(q), spec).data;
      const ks = pe.applyRope(tile(k), spec).data;
      const dot = (a, i, b, j) => { let s = 0; for (let c = 0; c < dim; c++) s += a[i * dim + c] * b[j * dim + c]; return s; };
      const norm = (a, i) => Math.sqrt(dot(a, i, a, i));
      for (const p of [0, 1, 77, 299]) expect(norm(qs, p)).toBeCloseTo(norm(q, 0), 4);
      for (const [i, j] of [[10, 3], [150, 143], [299, 292]]) expect(dot(qs, i, ks, j)).toBeCloseTo(dot(qs, 7, ks, 0), 3);
    }
  });

  it('satisfies the layout identity: half on permuted channels = interleaved, permuted (bit for bit)', () => {
    const length = 37;
    const dim = 40;
    const n = dim / 2;
    const x = Float32Array.from({ length: 3 * length * dim }, (_, i) => Math.sin(i * 0.37) * 3);
    const perm = new Float32Array(x.length);
    for (let r = 0; r < 3 * length; r++) {
      for (let i = 0; i < n; i++) {
        perm[r * dim + i] = x[r * dim + 2 * i];
        perm[r * dim + n + i] = x[r * dim + 2 * i + 1];
      }
    }
    const spec = { kind: 'rope', length, dim, rope_scaling: { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 8 } };
    const inter = pe.applyRope(x, { ...spec, layout: 'interleaved' }).data;
    const half = pe.applyRope(perm, { ...spec, layout: 'half' }).data;
    for (let r = 0; r < 3 * length; r++) {
      for (let i = 0; i < n; i++) {
        expect(half[r * dim + i]).toBe(inter[r * dim + 2 * i]);
        expect(half[r * dim + n + i]).toBe(inter[r * dim + 2 * i + 1]);
      }
    }
  });

  it('infers heads from x.length, or takes options.heads; position 0 keeps x (times attention_factor)', () => {
    const spec = { length: 5, dim: 6 };   // kind may be left out
    const one = Float32Array.from({ length: 30 }, (_, i) => i - 15);
    const r1 = pe.applyRope(one, spec);
    expect(r1.shape).toEqual([5, 6]);
    expect(r1.spec.kind).toBe('rope');
    expect(Array.from(r1.data.subarray(0, 6))).toEqual(Array.from(one.subarray(0, 6)));
    expect(pe.applyRope(one, spec, { heads: 1 }).shape).toEqual([1, 5, 6]);
    const three = new Float32Array(90).fill(1);
    expect(pe.applyRope(three, spec).shape).toEqual([3, 5, 6]);
    const yarnSpec = { ...spec, rope_scaling: { rope_type: 'yarn', factor: 16, original_max_position_embeddings: 4 } };
    const scaled = pe.applyRope(one, yarnSpec);
    const af = 0.1 * Math.log(16) + 1;
    expect(scaled.attention_factor).toBeCloseTo(af, 14);
    for (let c = 0; c < 6; c++) expect(scaled.data[c]).toBeCloseTo(one[c] * af, 5);
    // Partial rotary: the channels past rotary_dim pass through untouched.
    const x = Float32Array.from({ length: 2 * 5 * 8 }, (_, i) => i % 11 - 5);
    const partial = pe.applyRope(x, { length: 5, dim: 8, partial_rotary_factor: 0.5 }).data;   // rotary_dim 4
    for (let r = 0; r < 10; r++) {
      expect(Array.from(partial.subarray(r * 8 + 4, r * 8 + 8))).toEqual(Array.from(x.subarray(r * 8 + 4, r * 8 + 8)));
      if (r % 5 > 0) expect(partial[r * 8]).not.toBe(x[r * 8]);
    }
  });

  it('returns copies, and computes large applications (memory growth)', () => {
    const heads = 8;
    const length = 2048;
    const dim = 128;
    const x = new Float32Array(heads * length * dim).fill(0.5);
    const r = pe.applyRope(x, { kind: 'rope', length, dim });
    expect(r.data.buffer.byteLength).toBe(r.data.byteLength);
    expect(r.data.buffer).not.toBe(x.buffer);
    const p = length - 1;
    const c = Math.cos(p);
    const s = Math.sin(p);
    const last = ((heads - 1) * length + p) * dim;
    expect(r.data[last]).toBeCloseTo(0.5 * c - 0.5 * s, 6);
    expect(r.data[last + 64]).toBeCloseTo(0.5 * c + 0.5 * s, 6);
  });
});

describe('rope, SIMD and scalar builds', () => {
  it('agree bit for bit on angles, cos/sin and applications', async () => {
    const simd = await peFor(true);
    const scalar = await peFor(false);
    const same = (a, b) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
    const scalings = [null, { rope_type: 'yarn', factor: 8, original_max_position_embeddings: 32 },
      { rope_type: 'llama3', factor: 8, original_max_position_embeddings: 32, low_freq_factor: 1, high_freq_factor: 4 }];
    for (const rope_scaling of scalings) {
      for (const dim of [2, 4, 6, 8, 10, 14, 16, 18, 34, 130, 1030]) {
        for (const layout of ['half', 'interleaved']) {
          const spec = { kind: 'rope', length: 41, dim, layout, rope_scaling };
          const label = `${dim} ${layout} ${rope_scaling?.rope_type}`;
          expect(same(simd.compute(spec).data, scalar.compute(spec).data), label).toBe(true);
          const a = simd.ropeTables(spec);
          const b = scalar.ropeTables(spec);
          expect(same(a.cos, b.cos) && same(a.sin, b.sin), label).toBe(true);
          const x = Float32Array.from({ length: 3 * 41 * dim }, (_, i) => Math.sin(i));
          expect(same(simd.applyRope(x, spec).data, scalar.applyRope(x, spec).data), label).toBe(true);
        }
      }
    }
  });
});

// --- validation ----------------------------------------------------------------------------------

const ok = { kind: 'rope', length: 16, dim: 8 };
const yarnOk = { ...ok, rope_scaling: { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 64 } };
const llamaOk = { ...ok, rope_scaling: { rope_type: 'llama3', factor: 8, original_max_position_embeddings: 64, low_freq_factor: 1, high_freq_factor: 4 } };
const withScaling = (base, fields) => ({ ...base, rope_scaling: { ...base.rope_scaling, ...fields } });

// [description, spec, the field the PEError must name, a fragment of its message]
const INVALID = [
  ['missing length', { kind: 'rope', dim: 8 }, 'length', 'required'],
  ['missing dim', { kind: 'rope', length: 8 }, 'dim', 'required'],
  ['length 0', { ...ok, length: 0 }, 'length', 'integer in [1, 1048576]'],
  ['length fractional', { ...ok, length: 1.5 }, 'length', 'got 1.5'],
  ['dim 1', { ...ok, dim: 1 }, 'dim', 'integer in [2, 16384]'],
  ['dim odd', { ...ok, dim: 7 }, 'dim', 'even integer'],
  ['dim too big', { ...ok, dim: 16386 }, 'dim', 'got 16386'],
  ['dim 2 for ntk', { ...ok, dim: 2, rope_scaling: { rope_type: 'ntk', factor: 2 } }, 'dim', 'd/(d−2)'],
  ['base 1', { ...ok, base: 1 }, 'base', 'finite number in (1, 1000000000000]'],
  ['base NaN', { ...ok, base: NaN }, 'base', 'got NaN'],
  ['base a string', { ...ok, base: '1e4' }, 'base', '(a string)'],
  ['layout unknown', { ...ok, layout: 'concat' }, 'layout', '"half", "interleaved"'],
  ['partial_rotary_factor 0', { ...ok, partial_rotary_factor: 0 }, 'partial_rotary_factor', 'finite number in (0, 1]'],
  ['partial_rotary_factor 1.5', { ...ok, partial_rotary_factor: 1.5 }, 'partial_rotary_factor', 'got 1.5'],
  ['partial_rotary_factor giving an odd rotary_dim', { ...ok, partial_rotary_factor: 0.375 }, 'partial_rotary_factor', 'int(8 · 0.375) = 3'],
  ['partial_rotary_factor giving rotary_dim 0', { ...ok, partial_rotary_factor: 0.1 }, 'partial_rotary_factor', '= 0'],
  ['max_position_embeddings 0', { ...ok, max_position_embeddings: 0 }, 'max_position_embeddings', 'null or an integer in [1, 2147483647]'],
  ['max_position_embeddings fractional', { ...ok, max_position_embeddings: 2.5 }, 'max_position_embeddings', 'got 2.5'],
  ['rope_scaling a number', { ...ok, rope_scaling: 2 }, 'rope_scaling', 'null or an object'],
  ['rope_scaling an array', { ...ok, rope_scaling: [] }, 'rope_scaling', 'an array'],
  ['rope_scaling without rope_type', { ...ok, rope_scaling: { factor: 2 } }, 'rope_scaling.rope_type', 'required'],
  ['rope_type unknown', { ...ok, rope_scaling: { rope_type: 'su', factor: 2 } }, 'rope_scaling.rope_type', 'got "su"'],
  ['longrope without lists', { ...ok, rope_scaling: { rope_type: 'longrope', original_max_position_embeddings: 8 } }, 'rope_scaling.short_factor', 'is required'],
  ['longrope list of the wrong length', { ...ok, rope_scaling: { rope_type: 'longrope', short_factor: [1, 1, 1], long_factor: [1, 1, 1, 1], original_max_position_embeddings: 8 } },
    'rope_scaling.short_factor', 'rotary_dim/2 = 4 entries'],
  ['longrope with a zero factor', { ...ok, rope_scaling: { rope_type: 'longrope', short_factor: [1, 1, 1, 1], long_factor: [1, 0, 1, 1], original_max_position_embeddings: 8 } },
    'rope_scaling.long_factor[1]', 'got 0'],
  ['longrope without an original context', { ...ok, rope_scaling: { rope_type: 'longrope', short_factor: [1, 1, 1, 1], long_factor: [1, 1, 1, 1] } },
    'rope_scaling.original_max_position_embeddings', 'is required'],
  ['longrope with a string list', { ...ok, rope_scaling: { rope_type: 'longrope', short_factor: '1,1,1,1', long_factor: [1, 1, 1, 1], original_max_position_embeddings: 8 } },
    'rope_scaling.short_factor', 'a list of'],
  ['rope_type constructor', { ...ok, rope_scaling: { rope_type: 'constructor' } }, 'rope_scaling.rope_type', 'one of "default"'],
  ['type and rope_type disagree', { ...ok, rope_scaling: { type: 'linear', rope_type: 'yarn', factor: 2 } }, 'rope_scaling.type', 'disagree'],
  ['factor missing', { ...ok, rope_scaling: { rope_type: 'linear' } }, 'rope_scaling.factor', 'required when rope_type is "linear"'],
  ['factor null', { ...ok, rope_scaling: { rope_type: 'linear', factor: null } }, 'rope_scaling.factor', 'required'],
  ['factor -1', { ...ok, rope_scaling: { rope_type: 'linear', factor: -1 } }, 'rope_scaling.factor', 'rope_scaling.factor must be a finite number in [0.000001, 1000000], got -1'],
  ['factor 0', { ...ok, rope_scaling: { rope_type: 'ntk', factor: 0 } }, 'rope_scaling.factor', 'got 0'],
  ['factor Infinity', { ...ok, rope_scaling: { rope_type: 'dynamic', factor: Infinity }, max_position_embeddings: 8 }, 'rope_scaling.factor', 'got Infinity'],
  ['a field of another type', { ...ok, rope_scaling: { rope_type: 'linear', factor: 2, beta_fast: 32 } }, 'rope_scaling.beta_fast', 'not used when rope_type is "linear"'],
  ['an unknown field', { ...ok, rope_scaling: { rope_type: 'linear', factr: 2 } }, 'rope_scaling.factr', 'did you mean "factor"'],
  ['dynamic without max_position_embeddings', { ...ok, rope_scaling: { rope_type: 'dynamic', factor: 2 } }, 'max_position_embeddings', 'required when rope_scaling.rope_type is "dynamic"'],
  ['yarn without any context length', { ...ok, rope_scaling: { rope_type: 'yarn', factor: 2 } }, 'rope_scaling.original_max_position_embeddings', 'required'],
  ['yarn original 0', withScaling(yarnOk, { original_max_position_embeddings: 0 }), 'rope_scaling.original_max_position_embeddings', 'got 0'],
  ['yarn beta_fast 0', withScaling(yarnOk, { beta_fast: 0 }), 'rope_scaling.beta_fast', 'finite number in [0.000001, 1000000]'],
  ['yarn beta_slow above beta_fast', withScaling(yarnOk, { beta_fast: 2, beta_slow: 3 }), 'rope_scaling.beta_slow', 'at most rope_scaling.beta_fast'],
  ['yarn truncate a string', withScaling(yarnOk, { truncate: 'yes' }), 'rope_scaling.truncate', 'true or false'],
  ['yarn mscale negative', withScaling(yarnOk, { mscale: -1 }), 'rope_scaling.mscale', 'null or a finite number in [0, 1000]'],
  ['yarn mscale_all_dim NaN', withScaling(yarnOk, { mscale_all_dim: NaN }), 'rope_scaling.mscale_all_dim', 'got NaN'],
  ['yarn attention_factor 0', withScaling(yarnOk, { attention_factor: 0 }), 'rope_scaling.attention_factor', 'null or a finite number in (0, 1000]'],
  ['llama3 without original', { ...ok, rope_scaling: { rope_type: 'llama3', factor: 8, low_freq_factor: 1, high_freq_factor: 4 } }, 'rope_scaling.original_max_position_embeddings', 'required when rope_type is "llama3"'],
  ['llama3 low_freq_factor 0', withScaling(llamaOk, { low_freq_factor: 0 }), 'rope_scaling.low_freq_factor', 'got 0'],
  ['llama3 high_freq_factor below low', withScaling(llamaOk, { high_freq_factor: 0.5 }), 'rope_scaling.high_freq_factor', 'at least rope_scaling.low_freq_factor'],
  ['an own __proto__ key in rope_scaling', { ...ok, rope_scaling: JSON.parse('{"rope_type":"linear","factor":2,"__proto__":{"factor":-1}}') }, 'rope_scaling.__proto__', 'unknown field'],
  ['factor a numeric string', { ...ok, rope_scaling: { rope_type: 'linear', factor: '2' } }, 'rope_scaling.factor', '(a string)'],
  ['factor an object with valueOf', { ...ok, rope_scaling: { rope_type: 'linear', factor: { valueOf: () => 2 } } }, 'rope_scaling.factor', 'got a value of type object'],
  ['unknown top-level field', { ...ok, offset: 3 }, 'offset', 'unknown field'],
  ['output over PE_MAX_ELEMENTS', { ...ok, length: 2 ** 20, dim: 256 }, 'length', 'PE_MAX_ELEMENTS'],
];

describe('rope validation', () => {
  let pe;
  beforeAll(async () => {
    pe = await createPE();
    pe.compute({ ...ok, length: 4096, dim: 256 });   // grow the heap once, before measuring it
    pe.applyRope(new Float32Array(4096 * 256), { length: 4096, dim: 256 });
  });

  const expectStillUsable = () => {
    const r = pe.compute(ok);
    expect(r.data[4]).toBe(1);   // row 1, pair 0: 1 · inv_freq_0
    expect(pe.applyRope(new Float32Array(16 * 8).fill(1), ok).data[0]).toBe(1);
  };

  it.each(INVALID)('rejects %s with a PEError naming the field', (_, spec, param, fragment) => {
    for (const call of [() => pe.compute(spec), () => pe.ropeTables(spec), () => pe.applyRope(new Float32Array(16 * 8), spec)]) {
      expectRejected(pe, call, param, fragment);
    }
    expectStillUsable();
  });

  it('accepts the legacy key "type", null optional values, and normalizes to a complete rope_scaling', () => {
    const r = pe.compute({ ...ok, rope_scaling: { type: 'yarn', factor: 4, mscale: null }, max_position_embeddings: 64 });
    expect(r.spec.rope_scaling).toEqual({ rope_type: 'yarn', factor: 4, original_max_position_embeddings: null, beta_fast: 32, beta_slow: 1, truncate: true, mscale: null, mscale_all_dim: null, attention_factor: null, convention: 'since_4.56' });
    expect(pe.compute(r.spec).spec).toEqual(r.spec);   // normalizing twice changes nothing
    expect(pe.compute({ ...ok, rope_scaling: { rope_type: 'default' } }).data).toEqual(pe.compute(ok).data);
    expect(pe.defaults('rope')).toEqual({ kind: 'rope', length: 256, dim: 128, base: 10000, layout: 'half', partial_rotary_factor: 1, rope_scaling: null, max_position_embeddings: null, grid_height: null, grid_width: null });
  });

  it.each([
    ['x missing', undefined, undefined, 'x', 'Float32Array'],
    ['x a plain array', [1, 2, 3], undefined, 'x', 'plain array'],
    ['x a Float64Array', new Float64Array(128), undefined, 'x', 'Float64Array'],
    ['x the wrong size', new Float32Array(100), undefined, 'x', 'not a positive multiple of length · dim = 16 · 8 = 128'],
    ['x empty', new Float32Array(0), undefined, 'x', 'not a positive multiple'],
    ['x not heads · length · dim', new Float32Array(256), { heads: 3 }, 'x', '3 · 16 · 8 = 384'],
    ['heads 0', new Float32Array(128), { heads: 0 }, 'heads', 'integer in [1,'],
    ['heads fractional', new Float32Array(128), { heads: 1.5 }, 'heads', 'got 1.5'],
    ['heads a string', new Float32Array(128), { heads: '1' }, 'heads', 'string'],
    ['an unknown option', new Float32Array(128), { head: 1 }, 'head', 'unknown option'],
    ['options not an object', new Float32Array(128), 5, 'options', 'options must be an object'],
  ])('applyRope rejects %s', (_, x, opts, param, fragment) => {
    expectRejected(pe, () => pe.applyRope(x, ok, opts), param, fragment);
    expectStillUsable();
  });

  it('accepts llama3 with high_freq_factor = low_freq_factor (Llama 4): no smooth band, nothing NaN', () => {
    const spec = { ...ok, dim: 128, base: 500000, rope_scaling: { rope_type: 'llama3', factor: 16, original_max_position_embeddings: 8192, low_freq_factor: 1, high_freq_factor: 1 } };
    const r = pe.compute(spec);
    const plain = pe.compute({ ...spec, rope_scaling: null }).inv_freq;
    r.inv_freq.forEach((v, i) => {
      const wavelen = (2 * Math.PI) / plain[i];
      expect(v, `pair ${i}`).toBe(wavelen > 8192 ? Math.fround(plain[i] / 16) : plain[i]);
    });
  });

  it('computes YaRN under both transformers conventions: before 4.56 the ratio replaces factor', () => {
    const yarn = (factor, convention) => ({ ...ok, dim: 64, base: 1000000, max_position_embeddings: 131072,
      rope_scaling: { rope_type: 'yarn', factor, original_max_position_embeddings: 32768, ...(convention ? { convention } : {}) } });
    const since = pe.compute(yarn(8));
    expect(since.spec.rope_scaling.convention).toBe('since_4.56');
    const before = pe.compute(yarn(8, 'before_4.56'));
    const asFour = pe.compute(yarn(4));
    expect(before.inv_freq).toEqual(asFour.inv_freq);
    expect(before.attention_factor).toBe(asFour.attention_factor);
    expect(before.inv_freq).not.toEqual(since.inv_freq);
    expect(since.attention_factor).toBeCloseTo(0.1 * Math.log(8) + 1, 14);
    expect(before.attention_factor).toBeCloseTo(0.1 * Math.log(4) + 1, 14);
    // Without max_position_embeddings both versions use factor.
    expect(pe.compute({ ...yarn(8, 'before_4.56'), max_position_embeddings: null }).inv_freq).toEqual(pe.compute({ ...yarn(8), max_position_embeddings: null }).inv_freq);
    expectPEError(() => pe.compute(yarn(8, '4.55')), 'rope_scaling.convention', '"since_4.56", "before_4.56"');
  });

  it('refuses a spec of another kind in applyRope and ropeTables', () => {
    expectPEError(() => pe.applyRope(new Float32Array(8), { kind: 'sinusoidal', length: 1, dim: 8 }), 'kind', /kind "rope"/);
    expectPEError(() => pe.ropeTables({ kind: 'sinusoidal', length: 1, dim: 8 }), 'kind');
  });

  it('turns C status codes into PEErrors naming the field, nested ones included (the C guard behind the JS one)', () => {
    const cases = [
      [{ length: 0 }, 'length'], [{ dim: 7 }, 'dim'], [{ base: 0.5 }, 'base'], [{ partial_rotary_factor: 2 }, 'partial_rotary_factor'],
      [{ max_position_embeddings: -4 }, 'max_position_embeddings'],
      [{ rope_scaling: { rope_type: 'longrope', original_max_position_embeddings: 4 } }, 'rope_scaling.short_factor'],
      [{ rope_scaling: { rope_type: 'longrope', original_max_position_embeddings: 4, short_factor: [1, 1, 1, 1], long_factor: [1, 2] } }, 'rope_scaling.long_factor'],
      [{ rope_scaling: { rope_type: 'longrope', original_max_position_embeddings: 4, short_factor: [1, -1, 1, 1], long_factor: [1, 1, 1, 1] } }, 'rope_scaling.short_factor'],
      [{ rope_scaling: { rope_type: 'longrope', short_factor: [1, 1, 1, 1], long_factor: [1, 1, 1, 1] } }, 'rope_scaling.original_max_position_embeddings'],
      [{ rope_scaling: { rope_type: 'su' } }, 'rope_scaling.rope_type'],
      [{ rope_scaling: { rope_type: 'constructor' } }, 'rope_scaling.rope_type'],
      [{ rope_scaling: { rope_type: 'linear', factor: -1 } }, 'rope_scaling.factor'],
      [{ rope_scaling: { rope_type: 'dynamic', factor: 2 } }, 'max_position_embeddings'],
      [{ rope_scaling: { rope_type: 'yarn', factor: 2 } }, 'rope_scaling.original_max_position_embeddings'],
      [{ rope_scaling: { rope_type: 'yarn', factor: 2, original_max_position_embeddings: 8, beta_fast: -1 } }, 'rope_scaling.beta_fast'],
      [{ rope_scaling: { rope_type: 'yarn', factor: 2, original_max_position_embeddings: 8, beta_slow: 99 } }, 'rope_scaling.beta_slow'],
      [{ rope_scaling: { rope_type: 'yarn', factor: 2, original_max_position_embeddings: 8, truncate: 'no' } }, 'rope_scaling.truncate'],
      [{ rope_scaling: { rope_type: 'yarn', factor: 2, original_max_position_embeddings: 8, mscale: -2 } }, 'rope_scaling.mscale'],
      [{ rope_scaling: { rope_type: 'yarn', factor: 2, original_max_position_embeddings: 8, mscale_all_dim: -2 } }, 'rope_scaling.mscale_all_dim'],
      [{ rope_scaling: { rope_type: 'yarn', factor: 2, original_max_position_embeddings: 8, attention_factor: -2 } }, 'rope_scaling.attention_factor'],
      [{ rope_scaling: { rope_type: 'llama3', factor: 2, original_max_position_embeddings: 8, low_freq_factor: 0, high_freq_factor: 4 } }, 'rope_scaling.low_freq_factor'],
      [{ rope_scaling: { rope_type: 'llama3', factor: 2, original_max_position_embeddings: 8, low_freq_factor: 4, high_freq_factor: 3 } }, 'rope_scaling.high_freq_factor'],
    ];
    for (const [fields, param] of cases) {
      expectPEError(() => pe._computeUnvalidated({ kind: 'rope', length: 4, dim: 8, ...fields }), param, /kernel status 1\d\d/, JSON.stringify(fields));
    }
    expectStillUsable();
  });
});

// --- values near float32's limit ---------------------------------------------------------------------

const FLT_MAX = 3.4028234663852886e38;

describe.each(BUILDS)('applyRope near float32\'s range, $name build', ({ simd }) => {
  let pe;
  beforeAll(async () => {
    pe = await peFor(simd);
  });

  it('refuses a finite x whose rotation is beyond float32 (3e38 at position 1: (cos 1 + sin 1)·3e38 = 4.1e38), naming x', () => {
    const e = expectRejected(pe, () => pe.applyRope(new Float32Array(4).fill(3e38), { kind: 'rope', length: 2, dim: 2 }), 'x', 'float32');
    expect(e.message).toMatch(/head 0, position 1/);
    // In place of a row that fits: position 0 does not rotate.
    expect(Array.from(pe.applyRope(new Float32Array([3e38, 3e38]), { kind: 'rope', length: 1, dim: 2 }).data)).toEqual([Math.fround(3e38), Math.fround(3e38)]);
  });

  it('refuses an attention_factor that scales a finite x beyond float32, naming it and the largest that fits', () => {
    const spec = { kind: 'rope', length: 2, dim: 2, rope_scaling: { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 1, attention_factor: 1000 } };
    const e = expectRejected(pe, () => pe.applyRope(new Float32Array(4).fill(1e36), spec), 'rope_scaling.attention_factor', 'float32');
    expect(e.message).toContain('must be in (0, 170.1412]');   // FLT_MAX / (2 · 1e36)
    expect(pe.applyRope(new Float32Array(4).fill(1e35), spec).data.every(Number.isFinite)).toBe(true);
  });

  it('refuses the same overflow in the axial (2-D) path', () => {
    const spec = { kind: 'rope', length: 4, dim: 8, grid_height: 2, grid_width: 2 };
    expectRejected(pe, () => pe.applyRope(new Float32Array(32).fill(3e38), spec), 'x', 'float32');
  });

  it('computes a rotation whose float32 products overflow but whose result fits (attention_factor 1000, |x|·1000 > FLT_MAX)', () => {
    // Pair 0 turns by θ = 0.3927 (π/8) at position 1 (longrope, short_factor 1/θ); x at angle π/8 with
    // |x|·1000 = 1.25·FLT_MAX: x_a·(1000·cos θ) = 1.07·FLT_MAX overflows in float32, but the
    // rotated pair is |x|·1000·(cos π/4, sin π/4) = 0.88·FLT_MAX each.
    const theta = Math.PI / 8;
    const spec = { kind: 'rope', length: 2, dim: 2, rope_scaling: { rope_type: 'longrope', short_factor: [1 / theta], long_factor: [1], original_max_position_embeddings: 8, attention_factor: 1000 } };
    const r = (1.25 * FLT_MAX) / 1000;
    const x = new Float32Array([0, 0, r * Math.cos(theta), r * Math.sin(theta)]);
    const { data, inv_freq: [w] } = pe.applyRope(x, spec);
    expect(data.every(Number.isFinite), Array.from(data).join(', ')).toBe(true);
    const [c, s] = [Math.fround(1000 * Math.cos(w)), Math.fround(1000 * Math.sin(w))];
    expect(data[2]).toBe(Math.fround(x[2] * c - x[3] * s));   // float64, rounded once
    expect(data[3]).toBe(Math.fround(x[3] * c + x[2] * s));
    expect(data[2] / FLT_MAX).toBeCloseTo(0.884, 3);
  });

  it('leaves a non-finite x as it is, pair by pair (only finite input must give finite output)', () => {
    const x = new Float32Array([Infinity, 1, 1, 1]);   // [length 2, dim 2]
    const { data } = pe.applyRope(x, { kind: 'rope', length: 2, dim: 2 });
    expect(data[0]).toBe(Infinity);
    expect(data[2]).toBe(Math.fround(Math.fround(Math.cos(1)) - Math.fround(Math.sin(1))));
  });
});
