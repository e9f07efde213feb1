// pe.precisionSweep (c/precision.c, pe_rope_precision_sweep): rope_precision's row_error and
// collisions without its tables. It must give compute's numbers bit for bit, for every named
// recipe, custom recipes, scalings, dims, bases, offsets up to 2^31 and lengths that are not
// multiples of the sweep's batch or vector width, in both WASM builds; and refuse bad input the
// way compute does.
//   npx vitest run tests/precision-sweep.test.js
import { describe, it, expect, beforeAll } from 'vitest';
import { BUILDS, peFor, expectPEError } from './helpers/pe.js';
import { RECIPES } from '../web/api/schema/precision.js';
import { PE_MAX_POSITION } from '../web/api/schema/limits.js';

const bits = (a) => new Uint32Array(a.buffer, a.byteOffset, a.length);

/** The first row where two Float32Arrays differ in any bit, or -1. */
function firstDifference(a, b) {
  if (a.length !== b.length) return -2;
  const x = bits(a);
  const y = bits(b);
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return i;
  return -1;
}

const SCALINGS = [
  null,
  { rope_type: 'linear', factor: 4 },
  { rope_type: 'ntk', factor: 8 },
  { rope_type: 'dynamic', factor: 2 },
  { rope_type: 'yarn', factor: 16, original_max_position_embeddings: 4096 },
  { rope_type: 'llama3', factor: 8, original_max_position_embeddings: 8192, low_freq_factor: 1, high_freq_factor: 4 },
];

describe.each(BUILDS)('pe.precisionSweep, $name build', ({ simd }) => {
  let pe;
  beforeAll(async () => { pe = await peFor(simd); });

  /** Sweep and compute of one spec: the same row_error (bits), collisions and first collision. */
  function agree(spec) {
    const full = pe.compute({ kind: 'rope_precision', ...spec });
    const sweep = pe.precisionSweep(spec);
    const label = JSON.stringify(spec);
    expect(sweep.shape, label).toEqual([full.spec.length]);
    expect(firstDifference(sweep.row_error, full.row_error), label).toBe(-1);
    expect(sweep.collisions, label).toBe(full.collisions);
    expect(sweep.first_collision, label).toBe(full.first_collision);
    expect(sweep.spec, label).toEqual(full.spec);
    return { full, sweep };
  }

  it('equals compute for every named recipe, near 0 and far out', () => {
    for (const recipe of Object.keys(RECIPES)) {
      for (const offset of [0, 65000, 1_000_000, 16_777_000, PE_MAX_POSITION - 1001]) {
        agree({ length: 1001, dim: 128, offset, recipe });
      }
    }
  });

  it('equals compute for custom recipes, dims, bases, partial rotary and scalings', () => {
    const dtypes = ['float64', 'float32', 'bfloat16', 'float16'];
    let k = 0;
    for (const dim of [4, 20, 64, 96]) {
      for (const rope_scaling of SCALINGS) {
        const recipe = {
          inv_freq_dtype: [...dtypes, 'float32_pow'][k % 5],
          position_dtype: dtypes[(k >> 1) % 4],
          phase_dtype: dtypes[(k + 1) % 4],
          table_dtype: dtypes[(k >> 2) % 4],
        };
        k++;
        const base = [10000, 500000, 1e6, 100][k % 4];
        const max_position_embeddings = rope_scaling?.rope_type === 'dynamic' ? 128 : null; // dynamic: length 333 > 128 rescales
        agree({ length: 333, dim, base, recipe, rope_scaling, max_position_embeddings, offset: (k * 7919) % 3_000_000, partial_rotary_factor: dim >= 64 ? 0.5 : 1 });
      }
    }
  });

  it('equals compute for lengths that are not multiples of the batch or the vector width', () => {
    for (const length of [1, 2, 3, 63, 64, 65, 127, 129, 4097]) {
      agree({ length, dim: 128, offset: 1_048_000, recipe: 'float32' });
      agree({ length, dim: 32, offset: 200, recipe: 'bf16_positions' });
    }
  });

  it('equals compute where the rounded table decides the row (the table\'s angle bound)', () => {
    // float64 elsewhere: every pair's phase error is ~0 and the row's maximum is the table's
    // rounding alone, so the sweep's window of candidates (twice the table's angle bound) is what
    // keeps the right pair; with float32 phases the two kinds of error compete.
    for (const table_dtype of ['bfloat16', 'float16', 'float32']) {
      for (const rest of ['float64', 'float32']) {
        const recipe = { inv_freq_dtype: rest, position_dtype: rest, phase_dtype: rest, table_dtype };
        for (const offset of [0, 4093, 1_000_000]) agree({ length: 701, dim: 128, offset, recipe });
      }
    }
  });

  it('equals compute for pair counts around the bound pass\'s blocks of 4 pairs (float32 path)', () => {
    // the float32 recipe's bound pass goes 4 pairs at a time and may stop after any block: every
    // pair count from 1 to 19 (a scalar tail of 0 to 3 pairs), near 0 and where rows stop early
    for (let pairs = 1; pairs <= 19; pairs++) {
      for (const offset of [0, 1_000_000, 16_777_000]) agree({ length: 257, dim: 2 * pairs, offset, recipe: 'float32' });
    }
  });

  it('finds the collisions compute finds (bfloat16 positions from 257 on)', () => {
    const { sweep } = agree({ length: 4096, dim: 64, recipe: 'bf16_positions' });
    expect(sweep.first_collision).toBe(257);
    expect(sweep.collisions).toBeGreaterThan(3000);
  });

  it('sweeps 2^20 positions in one call, the same rows as compute on windows of it', () => {
    const spec = { length: 2 ** 20, dim: 128, recipe: 'float32' };
    const sweep = pe.precisionSweep(spec);
    expect(sweep.row_error.length).toBe(2 ** 20);
    for (const start of [0, 333_333, 2 ** 20 - 2048]) {
      // Same frequencies (default scaling does not depend on length): rows of a shorter spec at an offset.
      const part = pe.compute({ kind: 'rope_precision', ...spec, length: 2048, offset: start });
      expect(firstDifference(sweep.row_error.subarray(start, start + 2048), part.row_error), `rows from ${start}`).toBe(-1);
    }
    let worst = 0;
    for (const v of sweep.row_error) worst = Math.max(worst, v);
    expect(worst).toBeGreaterThan(0.03); // float32 angles at p ~ 10^6 are off by ~half a float32 ulp of p
    expect(worst).toBeLessThan(0.1);
  });

  it('refuses bad input as compute does, and stays usable', () => {
    expectPEError(() => pe.precisionSweep({ kind: 'rope', length: 4, dim: 8 }), 'kind', /precisionSweep needs kind "rope_precision"/);
    expectPEError(() => pe.precisionSweep({ length: 4, dim: 7 }), 'dim');
    expectPEError(() => pe.precisionSweep({ length: 0, dim: 8 }), 'length');
    expectPEError(() => pe.precisionSweep({ length: 8, dim: 8, offset: PE_MAX_POSITION }), 'offset');
    expectPEError(() => pe.precisionSweep({ length: 8, dim: 8, recipe: 'float8' }), 'recipe');
    agree({ length: 16, dim: 8 });
  });

  it.each([
    ['alibi', { kind: 'alibi' }, 'got "alibi"'],
    ['alibi with its own fields', { kind: 'alibi', heads: 8, length: 16 }, 'got "alibi"'],
    ['rope without length', { kind: 'rope' }, 'got "rope"'],
    ['an unknown kind', { kind: 'quantum' }, 'got "quantum"'],
    ['a prototype name', { kind: 'toString' }, 'got "toString"'],
    ['a number', { kind: 7 }, 'got 7'],
  ])('blames kind %s on kind, naming the kind it accepts, before any other field', (_, spec, got) => {
    const e = expectPEError(() => pe.precisionSweep(spec), 'kind', /kind "rope_precision"/);
    expect(e.message).toContain(got);
  });

  it.each([[5], [null], ['rope_precision'], [[{ length: 4 }]]])('refuses %j as the spec itself', (spec) => {
    expectPEError(() => pe.precisionSweep(spec), 'spec', /spec object/);
  });
});
