// Qwen2-VL M-RoPE position ids and angles against the PyTorch reference, in both WASM builds.
import { describe, it, expect, beforeAll } from 'vitest';
import { loadManifest, loadExpected } from './helpers/fixtures.js';
import { BUILDS, peFor, expectPEError, runCommand } from './helpers/pe.js';
import { existsSync } from 'node:fs';
import { codeFor } from '../web/share/codegen.js';

const manifest = loadManifest('mrope');

// Ids as rows t, h, w.
const rowsOf = (data, n) => [0, 1, 2].map((a) => Array.from(data.subarray(a * n, (a + 1) * n)));

describe.each(BUILDS)('mrope, $name build', ({ simd }) => {
  let pe;
  beforeAll(async () => {
    pe = await peFor(simd);
  });

  it.each(manifest.cases.map((c) => [c.name, c]))('matches the reference: %s', (_, testCase) => {
    const expected = loadExpected('mrope', testCase);
    const [, n] = testCase.ids;
    const result = pe.compute(testCase.spec);
    expect(result.shape).toEqual([3, n]);
    expect(Array.from(result.data)).toEqual(Array.from(expected.subarray(0, 3 * n)));   // ids exact
    const angles = expected.subarray(3 * n);
    expect(result.angles.length).toBe(angles.length);
    let worst = 0;
    for (let j = 0; j < angles.length; j++) {
      worst = Math.max(worst, Math.abs(result.angles[j] - angles[j]) / Math.max(Math.abs(angles[j]), 1e-30));
    }
    expect(worst, 'relative angle error').toBeLessThanOrEqual(2 ** -24);
  });

  it('shares one id on all three axes for text, and resumes text at max + 1 after each block', () => {
    const { data, shape } = pe.compute({
      kind: 'mrope', dim: 16, mrope_section: [2, 3, 3],
      segments: [{ type: 'text', length: 3 }, { type: 'image', t: 1, h: 4, w: 6 }, { type: 'text', length: 2 },
        { type: 'video', t: 3, h: 2, w: 2 }, { type: 'text', length: 1 }],
    });
    const [t, h, w] = rowsOf(data, shape[1]);
    expect(t.slice(0, 3)).toEqual([0, 1, 2]);
    expect(h.slice(0, 3)).toEqual([0, 1, 2]);
    // image: grid 1 × 2 × 3 after merging, offset by 3
    expect(t.slice(3, 9)).toEqual([3, 3, 3, 3, 3, 3]);
    expect(h.slice(3, 9)).toEqual([3, 3, 3, 4, 4, 4]);
    expect(w.slice(3, 9)).toEqual([3, 4, 5, 3, 4, 5]);
    expect(t.slice(9, 11)).toEqual([6, 7]);           // max was 5: text resumes at 6
    // video: 3 frames of 1 × 1, offset by 8; then text at 8 + 2 + 1 = 11
    expect(t.slice(11, 14)).toEqual([8, 9, 10]);
    expect(h.slice(11, 14)).toEqual([8, 8, 8]);
    expect(t[14]).toBe(11);
  });

  it('uses t ids for the first section, h for the next, w for the last', () => {
    const r = pe.compute({
      kind: 'mrope', dim: 16, base: 10000, mrope_section: [2, 3, 3],
      segments: [{ type: 'text', length: 1 }, { type: 'image', t: 1, h: 2, w: 4 }],
    });
    const k = 2;   // second image token: t = 1, h = 1, w = 2
    const row = r.angles.subarray(k * 8, (k + 1) * 8);
    const inv = (i) => 10000 ** (-2 * i / 16);
    expect(row[0]).toBeCloseTo(1 * inv(0), 6);
    expect(row[2]).toBeCloseTo(1 * inv(2), 6);
    expect(row[5]).toBeCloseTo(2 * inv(5), 6);
  });

  // The transformers versions (docs/transformers-versions.md): what each computes where they part.
  const video = (convention, extra = {}) => pe.compute({
    kind: 'mrope', dim: 16, mrope_section: [2, 3, 3], tokens_per_second: 2, ...extra,
    segments: [{ type: 'text', length: 2 }, { type: 'video', t: 4, h: 2, w: 4, second_per_grid_t: 0.5 }, { type: 'text', length: 2 }],
    ...(convention ? { convention } : {}),
  });

  it('defaults to 4.49–4.51: 0.5 s per frame at 2 tokens/s gives time ids 0, 1, 2, 3', () => {
    const r = video();
    expect(r.spec.convention).toBe('4.49');
    const [t] = rowsOf(r.data, r.shape[1]);
    expect([t[2], t[4], t[6], t[8]]).toEqual([2, 3, 4, 5]);   // one token per frame row pair (1 × 2 grid)
    expect(t.slice(10)).toEqual([6, 7]);                      // text after: max 5 + 1
  });

  it('4.52 truncates 0.5 s to 0: every frame gets time id 0, text resumes after the widest side', () => {
    const r = video('4.52');
    const [t, , w] = rowsOf(r.data, r.shape[1]);
    expect(t.slice(2, 10)).toEqual([2, 2, 2, 2, 2, 2, 2, 2]);
    expect(w.slice(2, 4)).toEqual([2, 3]);
    expect(t.slice(10)).toEqual([4, 5]);                      // max id 3 (w) + 1
  });

  it('5.x resumes text after a video at start + max(h, w)/merge, whatever t', () => {
    const spec = { kind: 'mrope', dim: 16, mrope_section: [2, 3, 3],
      segments: [{ type: 'text', length: 3 }, { type: 'video', t: 6, h: 4, w: 8 }, { type: 'text', length: 2 }] };
    const old = pe.compute(spec);
    const v5 = pe.compute({ ...spec, convention: '5.x' });
    const n = old.shape[1];
    const [t4] = rowsOf(old.data, n);
    const [t5, h5, w5] = rowsOf(v5.data, n);
    // video: 6 frames of 2 × 4 tokens from id 3; frame f has time id 3 + f in both
    expect(t4.slice(3, 3 + 48)).toEqual(t5.slice(3, 3 + 48));
    expect(t5[3 + 47]).toBe(8);
    expect(w5[3 + 47]).toBe(6);
    expect(h5[3 + 47]).toBe(4);
    expect(t4.slice(n - 2)).toEqual([9, 10]);                 // 4.x: max (8) + 1
    expect(t5.slice(n - 2)).toEqual([7, 8]);                  // 5.x: 3 + max(2, 4)
  });

  it('agrees across versions where they should: text and images without tokens_per_second', () => {
    const spec = { kind: 'mrope', segments: [{ type: 'text', length: 4 }, { type: 'image', t: 1, h: 6, w: 10 }, { type: 'text', length: 3 }] };
    const base = Array.from(pe.compute(spec).data);
    for (const convention of ['4.52', '5.x']) expect(Array.from(pe.compute({ ...spec, convention }).data)).toEqual(base);
  });

  it('rejects an unknown convention, naming the choices', () => {
    expectPEError(() => pe.compute({ kind: 'mrope', convention: '4.50' }), 'convention', '"4.49", "4.52", "5.x"');
    expectPEError(() => pe._computeUnvalidated({ kind: 'mrope', convention: 'later' }), 'convention');
  });

  it.each([
    [{ segments: [] }, 'segments'],
    [{ segments: [{ type: 'image', t: 1, h: 3, w: 4 }] }, 'segments[0].h'],
    [{ segments: [{ type: 'text' }] }, 'segments[0].length'],
    [{ segments: [{ type: 'audio', length: 3 }] }, 'segments[0].type'],
    [{ segments: [{ type: 'video', t: 2, h: 2, w: 2, second_per_grid_t: 0 }] }, 'segments[0].second_per_grid_t'],
    [{ segments: [{ type: 'text', length: 2, h: 4 }] }, 'segments[0].h'],
    [{ mrope_section: [16, 24, 25] }, 'mrope_section'],
    [{ mrope_section: [16, 24] }, 'mrope_section'],
    [{ mrope_section: [16, -1, 49] }, 'mrope_section[1]'],
    [{ dim: 127 }, 'dim'],
    [{ tokens_per_second: -1 }, 'tokens_per_second'],
    [{ spatial_merge_size: 0 }, 'spatial_merge_size'],
    [{ segments: 'text' }, 'segments'],
  ])('rejects %j with a PEError naming %s', (fields, param) => {
    expectPEError(() => pe.compute({ kind: 'mrope', ...fields }), param);
    expect(pe.compute({ kind: 'mrope' }).shape).toEqual([3, 6 + 24 + 5]);
  });

  it('checks segments and sizes in C too', () => {
    const bad = { kind: 'mrope', segments: [{ type: 'image', t: 1, h: 3, w: 4 }] };
    expectPEError(() => pe._computeUnvalidated(bad), 'segments');
  });
});

// "Copy as code" knows the convention: the exported NumPy and PyTorch snippets give the kernel's
// ids under each transformers version (tests/codegen.test.js checks the default).
describe('mrope code export under each convention', () => {
  const havePython = existsSync('/usr/bin/python3') && !process.env.PE_TEST_QUICK;
  it.skipIf(!havePython).each(['4.49', '4.52', '5.x'])('reproduces the ids of %s in NumPy and PyTorch', async (convention) => {
    const pe = await peFor(true);
    const spec = { kind: 'mrope', dim: 16, mrope_section: [2, 3, 3], tokens_per_second: 2, convention,
      segments: [{ type: 'text', length: 2 }, { type: 'video', t: 5, h: 2, w: 4, second_per_grid_t: 1.5 },
        { type: 'image', t: 2, h: 4, w: 2 }, { type: 'text', length: 3 }] };
    const result = pe.compute(spec);
    for (const lang of ['numpy', 'torch']) {
      const { code } = codeFor(result.spec, lang);
      const script = `${code}\nimport json\nprint(json.dumps([float(v) for v in ${lang === 'numpy' ? 'pe.ravel()' : 'pe.flatten().tolist()'}]))\n`;
      const run = await runCommand('/usr/bin/python3', ['-c', script], { timeout: 120_000 });
      expect(run.status, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout.trim().split('\n').pop()), `${lang} ${convention}`).toEqual(Array.from(result.data));
    }
  }, 180_000);
});
