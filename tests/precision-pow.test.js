// The precision lab's `float32_pow` step (c/precision.c, pe_inv_freq_float32_pow): inv_freq as
// frameworks form it in float32 (a pow, then a divide), against PyTorch's own inv_freq
// (tests/fixtures/gen_precision_inv_freq.py), in both WASM builds; and how far that lands from
// the rounded exact value, which is what the step is there to show.
import { describe, it, expect, beforeAll } from 'vitest';
import { readFileSync } from 'node:fs';
import { BUILDS, peFor, expectPEError } from './helpers/pe.js';

const fixture = JSON.parse(readFileSync(new URL('./fixtures/rope_precision_inv_freq/inv_freq.json', import.meta.url), 'utf8'));

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
const bitsOf = (x) => { f32[0] = x; return u32[0]; };
const ulps = (a, b) => Math.abs(a - b);   // positive float32 bit patterns

const specOf = (c, recipe) => ({
  kind: 'rope_precision', length: 2, dim: c.dim, base: c.base, recipe,
  rope_scaling: c.factor === 1 ? null : { rope_type: 'linear', factor: c.factor },
});

describe('PyTorch\'s float32 inv_freq against the rounded exact value (the fixture itself)', () => {
  it('lands up to 1 ulp away at dim 128, in about 30 % of the entries; more at dims that are no power of two', () => {
    const rows = fixture.cases.map((c) => {
      const u = c.torch.map((b, i) => ulps(b, c.rounded[i]));
      return { ...c, worst: Math.max(...u), share: u.filter((x) => x > 0).length / u.length };
    });
    console.log(`\nPyTorch ${fixture.torch_version} inv_freq vs round(exact):\n${rows.map((r) =>
      `  base ${r.base}, dim ${r.dim}, factor ${r.factor}: worst ${r.worst} ulp, ${(100 * r.share).toFixed(1)} % of entries off`).join('\n')}`);
    for (const r of rows.filter((x) => x.dim === 128)) {
      expect(r.worst, `base ${r.base}`).toBe(1);
      expect(r.share, `base ${r.base}`).toBeGreaterThan(0.2);
      expect(r.share, `base ${r.base}`).toBeLessThan(0.4);
    }
    // 2i/d not exact in float32 (d = 96, 80): the pow magnifies its rounding.
    expect(Math.max(...rows.filter((x) => x.dim % 64 !== 0).map((r) => r.worst))).toBeGreaterThanOrEqual(3);
  });
});

describe.each(BUILDS)('float32_pow inv_freq, $name build', ({ simd }) => {
  let pe;
  beforeAll(async () => {
    pe = await peFor(simd);
  });

  it('is PyTorch\'s inv_freq: within 1 ulp everywhere, equal in all but a few entries', () => {
    let worst = 0;
    let differ = 0;
    let total = 0;
    for (const c of fixture.cases) {
      const r = pe.compute(specOf(c, 'float32_pow'));
      const got = Array.from(r.inv_freq, bitsOf);
      expect(Array.from(r.inv_freq, (x) => Math.fround(x))).toEqual(Array.from(r.inv_freq));   // float32 numbers
      got.forEach((b, i) => {
        const u = ulps(b, c.torch[i]);
        worst = Math.max(worst, u);
        differ += u !== 0;
      });
      total += got.length;
      // …and not the rounded exact value (the float32 recipe's f), where PyTorch is not either.
      const exact = Array.from(pe.compute(specOf(c, 'float32')).inv_freq, bitsOf);
      expect(exact, `${c.base}/${c.dim}: the float32 recipe's f is round(ω)`).toEqual(c.rounded);
      expect(got, `${c.base}/${c.dim}`).not.toEqual(c.rounded);
    }
    console.log(`float32_pow vs PyTorch: worst ${worst} ulp, ${differ} of ${total} entries differ`);
    expect(worst).toBeLessThanOrEqual(1);
    expect(differ).toBeLessThanOrEqual(Math.ceil(total * 0.02));   // PyTorch's powf is not always correctly rounded
  });

  it('changes the angles the way a 1-ulp frequency does: errors grow with the position', () => {
    const spec = { kind: 'rope_precision', length: 1, dim: 128, base: 10000, offset: 1_000_000 };
    const a = pe.compute({ ...spec, recipe: 'float32' });
    const b = pe.compute({ ...spec, recipe: 'float32_pow' });
    expect(b.data).not.toEqual(a.data);
    // A 1-ulp step in f moves the angle by p·ulp(f): pair 1 (f ≈ 0.866) at p = 10^6 by ~0.06 rad.
    const i = 1;
    const shift = Math.abs(b.inv_freq[i] - a.inv_freq[i]) * 1_000_000;
    if (shift > 0) expect(Math.abs(b.data[i] - a.data[i])).toBeGreaterThan(shift / 4);
  });

  it('is a step-1 format only', () => {
    expectPEError(() => pe.compute({ kind: 'rope_precision', length: 4, dim: 8,
      recipe: { inv_freq_dtype: 'float32', position_dtype: 'float32_pow', phase_dtype: 'float32', table_dtype: 'float32' } }),
    'recipe.position_dtype');
  });
});
