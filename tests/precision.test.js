// The precision lab (kind rope_precision, c/precision.c) against PyTorch (tests/fixtures/
// gen_precision.py): the recipe's cos/sin tables, the angle error, collisions, the exhaustive
// rounding of every bfloat16 and float16 number (and the midpoints between them) against
// PyTorch's casts, the public reports, properties and validation, in both WASM builds.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { readFileSync } from 'node:fs';
import { loadManifest, readFixture } from './helpers/fixtures.js';
import { BUILDS, peFor, expectPEError } from './helpers/pe.js';
import { RECIPES as NAMED_RECIPES, RECIPE_FIELDS } from '../web/api/schema/precision.js';

const KIND = 'rope_precision';
const manifest = loadManifest(KIND);
const DTYPES = ['float64', 'float32', 'bfloat16', 'float16'];
// The named recipes as [inv_freq, position, phase, table] dtypes (the schema's table, float32_pow
// included: the tests below hold for every named recipe).
const RECIPES = Object.fromEntries(Object.entries(NAMED_RECIPES).map(([name, r]) => [name, RECIPE_FIELDS.map((f) => r[f])]));
const tableDtype = (recipe) => (typeof recipe === 'string' ? RECIPES[recipe][3] : recipe.table_dtype);

// --- numbers --------------------------------------------------------------------------------------

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
const floatOfBits = (b) => { u32[0] = b >>> 0; return f32[0]; };
const bitsOfFloat = (x) => { f32[0] = x; return u32[0]; };

/** The spacing of a format's numbers at |x| (x a number of that format, or near one). */
function ulp(x, dtype) {
  const [p, emin] = { float64: [53, -1022], float32: [24, -126], bfloat16: [8, -126], float16: [11, -14] }[dtype];
  const a = Math.abs(x);
  const e = a === 0 ? emin : Math.max(Math.floor(Math.log2(a)), emin);
  return 2 ** (e - p + 1);
}

/** float16 bits of a float16 number (a double holding it exactly). */
function halfBits(v) {
  const sign = v < 0 || Object.is(v, -0) ? 0x8000 : 0;
  const a = Math.abs(v);
  if (Number.isNaN(a)) return sign | 0x7e00;
  if (a === Infinity) return sign | 0x7c00;
  if (a < 2 ** -14) return sign | (a * 2 ** 24);
  const e = Math.floor(Math.log2(a));
  return sign | ((e + 15) << 10) | (a / 2 ** e * 1024 - 1024);
}

function halfValue(b) {
  const e = (b >> 10) & 0x1f;
  const frac = b & 0x3ff;
  const v = e === 0 ? frac * 2 ** -24 : (frac + 1024) * 2 ** (e - 25);
  return b & 0x8000 ? -v : v;
}

/** The float32 inputs of the rounding fixture (gen_precision.py's module doc): [value, mid, mid − 1, mid + 1] bits. */
function roundingInputs(fmt) {
  const [p, emin] = fmt === 'bfloat16' ? [8, -126] : [11, -14];
  const bits = new Uint32Array(65536 * 4);
  const valid = new Uint8Array(65536);
  for (let b = 0; b < 65536; b++) {
    let v;
    if (fmt === 'bfloat16') {
      if (((b >> 7) & 0xff) === 0xff) continue;
      v = floatOfBits(b << 16);
    } else {
      if (((b >> 10) & 0x1f) === 0x1f) continue;
      v = halfValue(b);
    }
    const a = Math.abs(v);
    const top = a > 0 ? Math.floor(Math.log2(a)) : emin;
    const quantum = 2 ** (Math.max(top, emin) - (p - 1));
    const negative = v < 0 || Object.is(v, -0);
    const mid = (negative ? -1 : 1) * (a + quantum / 2);
    const mb = bitsOfFloat(mid);
    bits.set([bitsOfFloat(v), mb, mb - 1, mb + 1], 4 * b);
    valid[b] = 1;
  }
  return { bits, valid };
}

/** The raw WebAssembly module of a build (as web/api/pe.js loads it), for pe_round_values. */
async function rawModule(simd) {
  const bytes = readFileSync(new URL(`../web/wasm/${simd ? 'pe_simd' : 'pe_scalar'}.wasm`, import.meta.url));
  const { instance } = await WebAssembly.instantiate(bytes, { env: { emscripten_notify_memory_growth() {} } });
  instance.exports._initialize?.();
  return instance.exports;
}

/** round(x, dtype) of every x through C's pe_round_values (c/precision.c). */
function roundInC(w, values, dtype) {
  const n = values.length;
  const ptr = w.malloc(n * 8);
  try {
    new Float64Array(w.memory.buffer, ptr, n).set(values);
    const status = w.pe_round_values(ptr, ptr, n, DTYPES.indexOf(dtype));
    if (status !== 0) throw new Error(`pe_round_values: status ${status}`);
    return new Float64Array(w.memory.buffer, ptr, n).slice();
  } finally {
    w.free(ptr);
  }
}

const sameValue = (a, b) => a === b || (Number.isNaN(a) && Number.isNaN(b));

describe.each(BUILDS)('rope_precision, $name build', ({ name, simd }) => {
  let pe;
  const worst = { error: 0, torchUlps: 0, torchNotRounded: 0, values: 0 };
  beforeAll(async () => {
    pe = await peFor(simd);
  });
  afterAll(() => {
    console.log(`rope_precision ${name}: ${manifest.cases.length} PyTorch fixtures, ${worst.values} values; `
      + `worst angle error difference ${worst.error.toExponential(2)} rad; PyTorch's recipe (float32 cos/sin) `
      + `not correctly rounded at ${worst.torchNotRounded} values, at most ${worst.torchUlps} table ulp from PE Lab`);
  });

  it('loads the requested build', () => {
    expect(pe.simd).toBe(simd);
  });

  it.each(manifest.cases.map((c) => [c.name, c]))('matches PyTorch: %s', (_, c) => {
    const r = pe.compute(c.spec);
    expect(r.shape).toEqual(c.shape);
    const [length, n] = c.shape;
    const size = length * n;
    const planes = readFixture(KIND, c.file, Float32Array);
    expect(planes.length).toBe(5 * size);
    const [cExact, sExact, cTorch, sTorch, error] = [0, 1, 2, 3, 4].map((k) => planes.subarray(k * size, (k + 1) * size));
    const dtype = tableDtype(c.spec.recipe);
    // PE Lab gives the contract's values (rounded once from the exact φ) …
    let notExact = 0;
    for (let k = 0; k < size; k++) {
      if (!sameValue(r.cos[k], cExact[k]) || !sameValue(r.sin[k], sExact[k])) notExact++;
    }
    expect(notExact, 'cos/sin other than the exact rounding').toBe(0);
    // … within one table-dtype ulp of PyTorch's recipe everywhere, equal where PyTorch's is
    // correctly rounded (its float32 cos/sin, cast to the table dtype, equal the exact rounding).
    // float64 tables are compared as float32 (the outputs' format).
    const unit = dtype === 'float64' ? 'float32' : dtype;
    let torchNotRounded = 0;
    for (let k = 0; k < size; k++) {
      for (const [mine, torch, exact] of [[r.cos[k], cTorch[k], cExact[k]], [r.sin[k], sTorch[k], sExact[k]]]) {
        if (sameValue(torch, exact)) {
          if (!sameValue(mine, torch)) expect.fail(`${c.name}[${k}]: ${mine}, PyTorch ${torch} (correctly rounded)`);
          continue;
        }
        torchNotRounded++;
        const ulps = Math.abs(mine - torch) / ulp(torch, unit);
        if (!(ulps <= 1)) expect.fail(`${c.name}[${k}]: ${mine}, PyTorch ${torch}: ${ulps} ulps`);
        worst.torchUlps = Math.max(worst.torchUlps, ulps);
      }
    }
    expect(torchNotRounded).toBe(c.torch_differs);
    worst.torchNotRounded += torchNotRounded;
    worst.values += 2 * size;
    // The angle error, against the exact angle (mpmath) of the same cos/sin.
    let bad = 0;
    let caseWorst = 0;
    for (let k = 0; k < size; k++) {
      const d = Math.abs(r.data[k] - error[k]);
      if (!(d <= c.error_tolerance)) bad++;
      if (!(d <= caseWorst)) caseWorst = d;
      if (!(r.data[k] >= 0 && r.data[k] <= Math.fround(Math.PI))) bad++;
    }
    expect(bad, `worst ${caseWorst}`).toBe(0);
    worst.error = Math.max(worst.error, caseWorst);
    // row_error is the row's maximum; collisions as PyTorch's tables say.
    for (let row = 0; row < length; row++) {
      let m = 0;
      for (let i = 0; i < n; i++) m = Math.max(m, r.data[row * n + i]);
      if (r.row_error[row] !== m) expect.fail(`row_error[${row}] = ${r.row_error[row]}, max ${m}`);
    }
    expect(r.collisions).toBe(c.collisions);
    expect(r.first_collision).toBe(c.first_collision);
  });

  it.each(['bfloat16', 'float16'])('rounds every %s number, and the midpoints around it, as PyTorch casts float32', async (fmt) => {
    const w = await rawModule(simd);
    const { bits, valid } = roundingInputs(fmt);
    const torch = readFixture(KIND, manifest.rounding[fmt].file, Uint16Array);
    const values = Float64Array.from(bits, (b) => floatOfBits(b));
    const rounded = roundInC(w, values, fmt);
    let checked = 0;
    let wrong = 0;
    let first = null;
    for (let b = 0; b < 65536; b++) {
      if (!valid[b]) continue;
      for (let j = 0; j < 4; j++) {
        const k = 4 * b + j;
        const got = fmt === 'bfloat16' ? bitsOfFloat(rounded[k]) >>> 16 : halfBits(rounded[k]);
        checked++;
        if (got !== torch[k]) {
          wrong++;
          first ??= `input 0x${bits[k].toString(16)}: C 0x${got.toString(16)}, PyTorch 0x${torch[k].toString(16)}`;
        }
      }
      // every number of the format rounds to itself
      if (rounded[4 * b] !== values[4 * b]) expect.fail(`${fmt} 0x${b.toString(16)} does not round-trip`);
    }
    expect(wrong, first ?? '').toBe(0);
    expect(checked).toBe(4 * manifest.rounding[fmt].patterns);
  });

  // The public reports, with what PE Lab and PyTorch (the manifest) measure.
  it('bfloat16 positions: 256 and 257 collide (257 rounds to 256, ties to even)', () => {
    const r = pe.compute({ kind: KIND, length: 300, dim: 128, recipe: 'bf16_positions' });
    expect(r.first_collision).toBe(257);
    expect(manifest.reports.bf16_positions_first_collision).toBe(257);
    expect(r.cos.subarray(256 * 64, 257 * 64)).toEqual(r.cos.subarray(257 * 64, 258 * 64));
    // below 256 every integer is a bfloat16 number: no collision; in [256, 512) the spacing is 2
    // and ties go to even: 4k − 1, 4k and 4k + 1 all round to 4k, so 2 rows of every 4 repeat
    // the one before (21 rows in 257 … 299)
    expect(r.collisions).toBe(21);
    expect(r.row_error[257]).toBeGreaterThan(0.9);   // pair 0 (ω = 1) is a whole radian off
  });

  it('bfloat16 phase at position 15962 (base 10000, pair 0): the angle rounds to 15936, not 15968', () => {
    const r = pe.compute({ kind: KIND, length: 1, dim: 128, offset: 15962, recipe: 'bf16_phase' });
    const rep = manifest.reports.bf16_phase_15962;
    expect(rep.phi).toBe(15936);   // bfloat16 spacing at 2^13..2^14 is 64: 15936 and 16000 are the neighbours
    expect(r.cos[0]).toBe(Math.fround(Math.cos(15936)));
    expect(r.cos[0]).toBeCloseTo(-0.26795, 5);
    expect(r.cos[0]).toBe(Math.fround(rep.cos));
    expect(Math.cos(15962)).toBeCloseTo(-0.90802, 5);   // the exact value it should have been
    expect(Math.abs(r.cos[0] - Math.cos(15968))).toBeGreaterThan(0.4);   // cos 15968 = −0.7548: not this
    expect(r.data[0]).toBeCloseTo(0.86726, 5);
    expect(Math.abs(r.data[0] - rep.error)).toBeLessThan(3e-7);
  });

  it('bfloat16 inv_freq at position 4095 (dim 128): 28 of 64 pairs off by more than 0.1 rad', () => {
    const r = pe.compute({ kind: KIND, length: 1, dim: 128, offset: 4095, recipe: 'bf16_inv_freq' });
    const count = (t) => Array.from(r.data).filter((e) => e > t).length;
    const rep = manifest.reports['bf16_inv_freq_4095_d128'];
    expect([count(0.1), count(0.01), count(0.001)]).toEqual([28, 44, 59]);
    expect([count(0.1), count(0.01), count(0.001)]).toEqual([rep['error_above_0.1'], rep['error_above_0.01'], rep['error_above_0.001']]);
    expect(r.row_error[0]).toBeCloseTo(2.61834, 4);
    expect(Math.abs(r.row_error[0] - rep.max_error)).toBeLessThan(3e-7);
  });

  it('dynamic NTK at an offset: the base of the whole sequence, offset + length (as transformers)', () => {
    // transformers rescales for seq_len = max(position_ids) + 1: rows 900 … 963 of a model with
    // max_position_embeddings 512 are a 964-token sequence, not a 64-token one (which is below 512
    // and would not rescale at all).
    const rope_scaling = { rope_type: 'dynamic', factor: 2 };
    const at = (offset, length) => pe.compute({ kind: 'rope_precision', length, offset, dim: 64, rope_scaling, max_position_embeddings: 512 }).exact_inv_freq;
    const rope = (length) => pe.compute({ kind: 'rope', length, dim: 64, rope_scaling, max_position_embeddings: 512 }).inv_freq;
    expect(Array.from(at(900, 64), Math.fround)).toEqual(Array.from(rope(964)));
    expect(Array.from(at(900, 64), Math.fround)).not.toEqual(Array.from(rope(64)));
    expect(Array.from(at(0, 964), Math.fround)).toEqual(Array.from(rope(964)));
  });

  it('has the contract defaults, and the extras with their shapes', () => {
    const d = pe.defaults(KIND);
    expect(d).toEqual({
      kind: KIND, length: 4096, dim: 128, base: 10000, offset: 0, partial_rotary_factor: 1,
      rope_scaling: null, max_position_embeddings: null, recipe: 'float32',
    });
    const r = pe.compute({ kind: KIND, length: 50, dim: 8 });
    expect(r.shape).toEqual([50, 4]);
    for (const k of ['data', 'cos', 'sin']) expect(r[k]).toBeInstanceOf(Float32Array);
    expect(r.cos.length).toBe(200);
    expect(r.row_error).toBeInstanceOf(Float32Array);
    expect(r.row_error.length).toBe(50);
    expect(r.collisions).toBe(0);
    expect(r.first_collision).toBe(-1);
    expect(r.data[0]).toBe(0);   // p = 0: the angle is exactly 0 in every format
  });

  it('gives a named recipe and the same recipe as an object identical results', () => {
    for (const [recipe, d] of Object.entries(RECIPES)) {
      const object = { inv_freq_dtype: d[0], position_dtype: d[1], phase_dtype: d[2], table_dtype: d[3] };
      const a = pe.compute({ kind: KIND, length: 70, dim: 10, offset: 250, recipe });
      const b = pe.compute({ kind: KIND, length: 70, dim: 10, offset: 250, recipe: object });
      expect(b.spec.recipe).toEqual(object);
      expect(a.spec.recipe).toBe(recipe);
      for (const k of ['data', 'cos', 'sin', 'row_error']) expect(b[k], `${recipe} ${k}`).toEqual(a[k]);
    }
  });

  it('keeps the exact recipe exact and finds no collisions in float32 below 2^24', () => {
    const r = pe.compute({ kind: KIND, length: 2048, dim: 64, offset: 2 ** 31 - 1 - 2048, recipe: 'exact' });
    expect(Math.max(...r.row_error)).toBeLessThan(1e-6);   // float64 φ = fl(p·ω) at p ≈ 2^31: ≤ 2.4e-7
    const f = pe.compute({ kind: KIND, length: 4096, dim: 64, offset: 1e6 });
    expect(f.collisions).toBe(0);
    expect(Math.max(...f.row_error)).toBeLessThan(0.1);
  });

  it('reports π where float16 overflows, and counts the rows past it as collisions', () => {
    const r = pe.compute({ kind: KIND, length: 40, dim: 4, offset: 65500, recipe: 'fp16' });
    // 65520 and above round to ∞ in float16: φ = ∞, cos and sin NaN, error π
    expect(r.row_error[39]).toBe(Math.fround(Math.PI));
    expect(Number.isNaN(r.cos[39 * 2])).toBe(true);
    expect(r.data.some(Number.isNaN)).toBe(false);
    expect(r.first_collision).toBe(65501);
  });

  it('refuses bad specs with a message naming the field', () => {
    const base = { kind: KIND, length: 16, dim: 8 };
    expectPEError(() => pe.compute({ ...base, recipe: 'bf16' }), 'recipe', 'one of "exact"');
    expectPEError(() => pe.compute({ ...base, recipe: 'bf16_tabel' }), 'recipe', 'did you mean "bf16_table"');
    expectPEError(() => pe.compute({ ...base, recipe: 3 }), 'recipe', 'or an object { inv_freq_dtype, position_dtype, phase_dtype, table_dtype }');
    expectPEError(() => pe.compute({ ...base, recipe: null }), 'recipe');
    expectPEError(() => pe.compute({ ...base, recipe: { inv_freq_dtype: 'float32', position_dtype: 'float32', phase_dtype: 'float32' } }),
      'recipe.table_dtype', 'is required');
    expectPEError(() => pe.compute({ ...base, recipe: { ...Object.fromEntries(['inv_freq_dtype', 'position_dtype', 'phase_dtype', 'table_dtype'].map((k) => [k, 'float32'])), phase_dtype: 'float8' } }),
      'recipe.phase_dtype', 'one of "float64", "float32", "bfloat16", "float16"');
    expectPEError(() => pe.compute({ ...base, recipe: { inv_freq_dtype: 'float32', position_dtype: 'float32', phase_dtype: 'float32', table_dtype: 'float32', tabel_dtype: 'x' } }),
      'recipe.tabel_dtype', 'did you mean "table_dtype"');
    expectPEError(() => pe.compute({ ...base, offset: -1 }), 'offset');
    expectPEError(() => pe.compute({ ...base, offset: 2 ** 31 - 16 }), 'offset');
    expectPEError(() => pe.compute({ ...base, dim: 7 }), 'dim');
    expectPEError(() => pe.compute({ ...base, layout: 'half' }), 'layout', 'unknown field "layout"');
    expectPEError(() => pe.compute({ ...base, rope_scaling: { rope_type: 'linear' } }), 'rope_scaling.factor');
    expectPEError(() => pe.compute({ ...base, length: 2 ** 20, dim: 16384 }), 'length', 'PE_MAX_ELEMENTS');
    // What validation would refuse reaches C and comes back as a status naming the field.
    expectPEError(() => pe._computeUnvalidated({ ...base, recipe: { inv_freq_dtype: 'float8', position_dtype: 'float32', phase_dtype: 'float32', table_dtype: 'float32' } }),
      'recipe.inv_freq_dtype');
    expectPEError(() => pe._computeUnvalidated({ ...base, recipe: { inv_freq_dtype: 'float32', position_dtype: 'float32', phase_dtype: 'float32', table_dtype: 'x' } }),
      'recipe.table_dtype');
    expectPEError(() => pe._computeUnvalidated({ ...base, offset: -5 }), 'offset');
    expectPEError(() => pe._computeUnvalidated({ ...base, base: -1 }), 'base');
    expect(pe.compute(base).shape).toEqual([16, 4]);   // still usable
  });
});

describe('rope_precision: the SIMD and scalar builds agree bit for bit', () => {
  it.each(Object.keys(RECIPES))('%s, at every tail of the two-lane loops', async (recipe) => {
    const [a, b] = await Promise.all([peFor(true), peFor(false)]);
    for (const dim of [2, 4, 6, 8, 10, 18, 128]) {
      const spec = { kind: KIND, length: 64, dim, offset: 65470, recipe };
      const x = a.compute(spec);
      const y = b.compute(spec);
      for (const k of ['data', 'cos', 'sin', 'row_error']) {
        expect(new Uint32Array(x[k].buffer), `${recipe} dim ${dim} ${k}`).toEqual(new Uint32Array(y[k].buffer));
      }
      expect([x.collisions, x.first_collision]).toEqual([y.collisions, y.first_collision]);
    }
  });
});
