// What the RoPE heatmap draws (web/model/output.js displayData, pe.ropeView, c/rope_view.c): cos,
// sin and wrapped angles from the kernel's float64 angles, at the longest length. A JS cos of the
// float32 angle table is off by up to 0.031 at 2^20 positions (the error the README charges to
// the PyTorch tutorial); the kernel's tables are exact to float32 rounding.
// Tolerances: cos and sin are pe.ropeTables' values bit for bit (0); a wrapped angle is within
// half a float32 ulp of the float64 reference (p·θ_i) mod 2π, plus 1e-9 for the reference's own
// error (the float64 product p·θ_i at p < 2^20 is within 6e-11, 2π's rounding times the turns
// within 1e-10).
import { describe, it, expect } from 'vitest';
import { BUILDS, peFor, expectPEError } from './helpers/pe.js';
import { outputInfo, displayData } from '../web/model/output.js';
import { figureOf } from '../web/model/figure.js';
import { SCHEMA } from '../web/api/schema/index.js';
import { translator } from '../web/i18n/index.js';

const TWO_PI = 2 * Math.PI;
const ulp32 = (v) => {
  const e = Math.max(Math.floor(Math.log2(Math.abs(v) || 2 ** -126)), -126);
  return 2 ** (e - 23);
};

/**
 * The largest distance on the circle between wrapped[i] and (p·θ_i) mod 2π, beyond half an ulp:
 * over every row of the last 4096 (the largest angles) and every 61st row before them (a 67M-entry
 * table checked whole took over a minute of the suite).
 */
function wrappedExcess(wrapped, length, invFreq) {
  const n = invFreq.length;
  let worst = 0;
  let worstError = 0;
  for (let p = 0; p < length; p += p >= length - 4096 ? 1 : 61) {
    for (let k = 0, i = p * n; k < n; k++, i++) {
      const ref = (p * invFreq[k]) % TWO_PI;
      let d = Math.abs(wrapped[i] - ref);
      d = Math.min(d, TWO_PI - d);
      worstError = Math.max(worstError, d);
      worst = Math.max(worst, d - ulp32(wrapped[i]) / 2);
    }
  }
  return { worst, worstError };
}

function maxDiff(a, b) {
  let m = 0;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i] - b[i]);
    if (!(d <= m)) m = d;
  }
  return m;
}

describe.each(BUILDS)('the RoPE heatmap draws the kernel\'s values, $name build', ({ simd }) => {
  // The longest length in the SIMD build (the one pages use); the scalar build, the same C, at 2^16.
  const LENGTH = simd ? 2 ** 20 : 2 ** 16;
  it(`cos, sin and wrapped at length ${simd ? '2^20' : '2^16'}, dim 128 equal the kernel's tables to float32 rounding`, async () => {
    const pe = await peFor(simd);
    const result = pe.compute({ kind: 'rope', length: LENGTH, dim: 128 });
    const info = outputInfo('rope', SCHEMA.rope, result.shape);
    expect(info.class).toBe('angles');
    const shown = (transform) => displayData({ result, info, shared: { transform } }, pe);
    let tables = pe.ropeTables(result.spec);
    const cos = shown('cos');
    const worstCos = maxDiff(cos, tables.cos);
    expect(shown(undefined), 'cos is the default').toBe(cos);
    tables = { sin: tables.sin };
    const worstSin = maxDiff(shown('sin'), tables.sin);
    tables = null;
    // What the page drew before: Math.cos of the float32 angles.
    let jsWorst = 0;
    const ref = pe.ropeTables({ kind: 'rope', length: LENGTH, dim: 128 }).cos;
    for (let i = 0; i < ref.length; i += 7) jsWorst = Math.max(jsWorst, Math.abs(Math.fround(Math.cos(result.data[i])) - ref[i]));
    const invFreq = Array.from({ length: 64 }, (_, i) => 1 / 10000 ** ((2 * i) / 128));
    const wrapped = shown('wrapped');
    const { worst, worstError } = wrappedExcess(wrapped, LENGTH, invFreq);
    let lo = Infinity;
    let hi = -Infinity;
    for (const v of wrapped) {
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
    console.log(`rope ${LENGTH} × 64 (${simd ? 'SIMD' : 'scalar'}): worst |cos − ropeTables.cos| ${worstCos}, sin ${worstSin}; ` +
      `wrapped: worst error ${worstError.toExponential(3)} rad (beyond half an ulp: ${worst.toExponential(3)}), range [${lo}, ${hi}]; ` +
      `Math.cos of the float32 angles was off by ${jsWorst.toFixed(4)}`);
    expect(worstCos).toBe(0);
    expect(worstSin).toBe(0);
    expect(worst).toBeLessThanOrEqual(1e-9);
    expect(lo).toBeGreaterThanOrEqual(0);
    expect(hi).toBeLessThanOrEqual(Math.fround(TWO_PI));
    if (LENGTH === 2 ** 20) expect(jsWorst, 'the old way is visibly wrong here').toBeGreaterThan(0.03);
    expect(shown('angle'), 'the angles are the result itself').toBe(result.data);
  }, 600_000);

  it('the figure (exports, <pe-plot>) draws the same values', async () => {
    const pe = await peFor(simd);
    const result = pe.compute({ kind: 'rope', length: 3000, dim: 64, base: 500000 });
    const info = outputInfo('rope', SCHEMA.rope, result.shape);
    const t = translator('en');
    for (const transform of ['cos', 'sin']) {
      const fig = figureOf({ result, info, spec: result.spec, shared: { transform } }, t, pe);
      expect(maxDiff(fig.heatmap.data, pe.ropeTables(result.spec)[transform])).toBe(0);
    }
    const fresh = pe.compute(result.spec);
    expect(() => displayData({ result: fresh, info, shared: {} }), 'without the kernels').toThrow(/pass pe/);
  });

  it('every scaling type and partial rotary factor: cos and sin are ropeTables\' own', async () => {
    const pe = await peFor(simd);
    const specs = [
      { kind: 'rope', length: 700, dim: 96, partial_rotary_factor: 0.5, layout: 'interleaved' },
      { kind: 'rope', length: 70000, dim: 16, base: 1e6, rope_scaling: { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 4096 } },
      { kind: 'rope', length: 513, dim: 1024, rope_scaling: { rope_type: 'llama3', factor: 8, low_freq_factor: 1, high_freq_factor: 4, original_max_position_embeddings: 8192 } },
      { kind: 'rope', length: 300, dim: 8, rope_scaling: { rope_type: 'longrope', short_factor: [1, 2, 1.5, 1], long_factor: [3, 4, 2, 1], original_max_position_embeddings: 256 } },
    ];
    for (const spec of specs) {
      const tables = pe.ropeTables(spec);
      for (const transform of ['cos', 'sin']) {
        const v = pe.ropeView(spec, { transform });
        expect(v.shape, JSON.stringify(spec)).toEqual(tables.shape);
        expect(maxDiff(v.data, tables[transform]), `${transform} ${JSON.stringify(spec)}`).toBe(0);
      }
      const w = pe.ropeView(spec, { transform: 'wrapped' });
      const n = tables.shape[1];
      // wrapped agrees with the exact tables: cos(wrapped) within float32 rounding of the angle.
      let worst = 0;
      for (let i = 0; i < w.data.length; i++) {
        worst = Math.max(worst, Math.abs(Math.cos(w.data[i]) - tables.cos[i]) - ulp32(w.data[i]) / 2 - 2 ** -24);
      }
      expect(worst, `wrapped ${JSON.stringify(spec)} (${n} pairs)`).toBeLessThanOrEqual(0);
    }
  });

  it('axial 2-D RoPE: cos and sin are ropeTables\', wrapped is the angle table mod 2π', async () => {
    const pe = await peFor(simd);
    const spec = { kind: 'rope', length: 40 * 30, dim: 64, grid_height: 40, grid_width: 30, base: 100 };
    const tables = pe.ropeTables(spec);
    expect(maxDiff(pe.ropeView(spec, { transform: 'cos' }).data, tables.cos)).toBe(0);
    expect(maxDiff(pe.ropeView(spec, { transform: 'sin' }).data, tables.sin)).toBe(0);
    const angles = pe.compute(spec).data;   // small positions: the float32 angles are near exact
    const w = pe.ropeView(spec, { transform: 'wrapped' }).data;
    let worst = 0;
    for (let i = 0; i < w.length; i++) {
      let d = Math.abs(w[i] - (angles[i] % TWO_PI));
      d = Math.min(d, TWO_PI - d);
      worst = Math.max(worst, d - ulp32(w[i]) / 2 - ulp32(angles[i]) / 2);
    }
    expect(worst).toBeLessThanOrEqual(1e-9);
  });

  it('refuses a bad transform or spec, naming it', async () => {
    const pe = await peFor(simd);
    expectPEError(() => pe.ropeView({ kind: 'rope', length: 8, dim: 8 }, { transform: 'tan' }), 'transform', /cos, sin, wrapped/);
    expectPEError(() => pe.ropeView({ kind: 'rope', length: 8, dim: 0 }, { transform: 'cos' }), 'dim');
    expectPEError(() => pe.ropeView({ kind: 'sinusoidal', length: 8, dim: 8 }, { transform: 'cos' }), 'kind');
  });
});
