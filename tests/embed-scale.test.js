// The magnitudes view's numbers (web/views/absolute/embed-scale-math.js): ‖E_t‖ (× √d or not),
// ‖P_p‖, their ratio and cos(s·E + P, P), against NumPy in float64, for three initialisations
// and both scale settings.
//
// Tolerances, derived from where the two computations can differ:
//  - Same float32 tables in (E from the learned kernel, P from the kernel), float64 sums on both
//    sides: only the order of d = 512 additions differs, ≤ d·2⁻⁵³ ≈ 6e-14 relative: 1e-12.
//  - P computed independently by NumPy in float64 (sin/cos of p·ω): the kernel (c/sinusoidal.c)
//    turns each pair in double and rounds once to float32, so each value is within half a float32
//    ulp (2⁻²⁵ relative) of the exact one: ‖P_p‖ = √(d/2) to within 2⁻²⁴ ≈ 6e-8 relative, and a
//    cosine moves by at most 2·‖ΔP‖/‖P‖ ≤ 2⁻²³; stated with a factor 2 of room for the double
//    recurrence's drift: 2⁻²⁴ and 2⁻²² (≈ 2.4e-7). Measured: 2.9e-9 and 3.9e-9.
//  - E's spread: N(0, std²) rows have ‖E_t‖ ≈ std·√d within a few percent (1024 rows).
//   npx vitest run tests/embed-scale.test.js
import { describe, it, expect, beforeAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createPE } from '../web/pe.js';
import {
  embedTable, embedSeed, initStd, magnitudes, rowNorms, spreadIndices, verdictOf, fmt3, COS_TOKENS, COS_POSITIONS, VOCAB, cosTokens,
} from '../web/views/absolute/embed-scale-math.js';

const PYTHON = '/usr/bin/python3';
const havePython = existsSync(PYTHON) && spawnSync(PYTHON, ['-c', 'import numpy'], { encoding: 'utf8' }).status === 0;
if (!havePython) console.warn('[embed-scale.test] /usr/bin/python3 with numpy not found: the NumPy checks are skipped');

const D = 512;
const L = 128;
const SAME = 1e-12;
const NORM_F32 = 2 ** -24;
const COS_F32 = 2 ** -22;

// NumPy: the same sampling as the view (indices passed in), float64 throughout; P both as the
// kernel gave it and computed here from the formula (interleaved sin/cos, base 10000).
const SCRIPT = `
import json, sys, numpy as np
a = json.load(open(sys.argv[1]))
d, L, V = a['d'], a['L'], a['V']
E = np.fromfile(a['E'], dtype='<f4').reshape(V, d).astype(np.float64)
P = np.fromfile(a['P'], dtype='<f4').reshape(L, d).astype(np.float64)
p = np.arange(L, dtype=np.float64)[:, None]
w = 10000.0 ** (-np.arange(0, d, 2, dtype=np.float64) / d)
Pf = np.empty((L, d)); Pf[:, 0::2] = np.sin(p * w); Pf[:, 1::2] = np.cos(p * w)
ts, ps = np.array(a['tokens']), np.array(a['positions'])
out = {}
for name, PP in (('kernel', P), ('formula', Pf)):
  pn = np.linalg.norm(PP, axis=1)
  for scaled in (False, True):
    s = np.sqrt(d) if scaled else 1.0
    en = np.linalg.norm(s * E, axis=1)
    S = s * E[ts][None, :, :] + PP[ps][:, None, :]
    cos = (S * PP[ps][:, None, :]).sum(-1) / (np.linalg.norm(S, axis=-1) * pn[ps][:, None])
    q = lambda x, v: float(np.quantile(x, v))
    out[name + ('S' if scaled else '')] = dict(
      e=[q(en, .5), q(en, .1), q(en, .9)], p=[q(pn, .5), float(pn.min()), float(pn.max())],
      ratio=q(pn, .5) / q(en, .5), cos=[q(cos, .5), q(cos, .1), q(cos, .9)], pn=pn.tolist())
print(json.dumps(out))
`;

describe('magnitudes of E and P (the embed-scale view)', () => {
  let pe;
  beforeAll(async () => {
    pe = await createPE();
  });

  const P = () => {
    const r = pe.compute({ kind: 'sinusoidal', length: L, dim: D, base: 10000 });
    return { data: r.data, rows: L, cols: D };
  };

  it('sinusoidal rows have ‖P_p‖ = √(d/2) to float32 rounding', () => {
    const p = P();
    const norms = rowNorms(p.data, p.rows, p.cols);
    const want = Math.sqrt(D / 2);
    for (const n of norms) expect(Math.abs(n - want) / want).toBeLessThan(NORM_F32);
  });

  it('E rows follow their init: ‖E_t‖ ≈ std·√d (N(0, 1), N(0, 0.02²), N(0, 1/d))', () => {
    for (const init of ['torch', 'gpt2', 'vaswani']) {
      const std = initStd(init, D);
      const E = embedTable(pe, { d: D, std });
      const m = magnitudes(E, rowNorms(E.data, E.rows, E.cols), P(), rowNorms(P().data, L, D), false);
      expect(Math.abs(m.e.median / (std * Math.sqrt(D)) - 1)).toBeLessThan(0.02);
    }
    expect(initStd('vaswani', 512)).toBeCloseTo(1 / Math.sqrt(512), 15);
    expect(initStd('custom', 512, 0.5)).toBe(0.5);
  });

  it('the sentence at N(0, 0.02²), d = 512: positions outweigh the words about 35 to 1; with × √512, 1.6 to 1', () => {
    const E = embedTable(pe, { d: D, std: 0.02 });
    const en = rowNorms(E.data, E.rows, E.cols);
    const pn = rowNorms(P().data, L, D);
    const off = magnitudes(E, en, P(), pn, false);
    const on = magnitudes(E, en, P(), pn, true);
    expect(fmt3(off.p.median)).toBe('16.0');
    expect(fmt3(off.e.median)).toBe('0.452');
    expect(verdictOf(off.ratio)).toEqual({ side: 'p', r: '35.4' });
    expect(fmt3(on.e.median)).toBe('10.2');
    expect(verdictOf(on.ratio).side).toBe('p');
    expect(on.cos.median).toBeLessThan(off.cos.median); // scaling E turns the sum away from P
    expect(off.constantP).toBe(true);
  });

  it('formats the sentence’s numbers: three digits, whole from 100, e-notation at the ends', () => {
    expect([16, 0.45254, 35.41, 254, 3256.4, 0, 2.4e-4, 1.5e6, -0.5].map(fmt3)).toEqual(['16.0', '0.453', '35.4', '254', '3256', '0', '2.40e−4', '1.50e6', '−0.500']);
  });

  it('bounds the cosine’s work: 256 tokens × 64 positions at d = 512, fewer tokens when wider', () => {
    expect(cosTokens(512)).toBe(COS_TOKENS);
    expect(cosTokens(4096)).toBe(32);
    expect(cosTokens(1 << 20)).toBe(16);
  });

  it('the E seed steps aside from a learned P of the same seed', () => {
    expect(embedSeed({ kind: 'sinusoidal' })).toBe(1234);
    expect(embedSeed({ kind: 'learned', seed: 1234 })).toBe(1235);
  });

  it.skipIf(!havePython)('norms, ratio and cos(E + P, P) equal NumPy float64 (three inits × scale on/off)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'embed-scale-'));
    try {
      const p = P();
      const pn = rowNorms(p.data, L, D);
      writeFileSync(path.join(dir, 'P.bin'), Buffer.from(p.data.buffer, p.data.byteOffset, p.data.byteLength));
      for (const init of ['torch', 'gpt2', 'vaswani']) {
        const E = embedTable(pe, { d: D, std: initStd(init, D) });
        writeFileSync(path.join(dir, 'E.bin'), Buffer.from(E.data.buffer, E.data.byteOffset, E.data.byteLength));
        const args = {
          d: D, L, V: VOCAB, E: path.join(dir, 'E.bin'), P: path.join(dir, 'P.bin'),
          tokens: spreadIndices(VOCAB, cosTokens(D)), positions: spreadIndices(L, COS_POSITIONS),
        };
        writeFileSync(path.join(dir, 'args.json'), JSON.stringify(args));
        const run = spawnSync(PYTHON, ['-c', SCRIPT, path.join(dir, 'args.json')], { encoding: 'utf8', maxBuffer: 1 << 26 });
        expect(run.status, run.stderr).toBe(0);
        const ref = JSON.parse(run.stdout);
        const en = rowNorms(E.data, E.rows, E.cols);
        for (const scaled of [false, true]) {
          const m = magnitudes(E, en, p, pn, scaled);
          const rel = (a, b) => Math.abs(a - b) / Math.abs(b);
          for (const [name, tolNorm, tolCos] of [['kernel', SAME, SAME], ['formula', NORM_F32, COS_F32]]) {
            const r = ref[name + (scaled ? 'S' : '')];
            const label = `${init} scaled=${scaled} P=${name}`;
            if (name === 'kernel') {
              expect(rel(m.e.median, r.e[0]), label).toBeLessThan(SAME);
              expect(rel(m.e.lo, r.e[1]), label).toBeLessThan(SAME);
              expect(rel(m.e.hi, r.e[2]), label).toBeLessThan(SAME);
            }
            expect(rel(m.p.median, r.p[0]), label).toBeLessThan(tolNorm);
            expect(rel(m.ratio, r.ratio), label).toBeLessThan(tolNorm);
            for (let i = 0; i < L; i++) expect(rel(m.pNorms[i], r.pn[i]), `${label} p=${i}`).toBeLessThan(tolNorm);
            expect(Math.abs(m.cos.median - r.cos[0]), label).toBeLessThan(tolCos);
            expect(Math.abs(m.cos.lo - r.cos[1]), label).toBeLessThan(tolCos);
            expect(Math.abs(m.cos.hi - r.cos[2]), label).toBeLessThan(tolCos);
          }
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
