// The Learn path's claim checks (web/pages/learn/claims-compute.js, claims-strings.js): every
// number a claim check cites is computed from the API, and it is the number checked independently
// here (NumPy in float64, /usr/bin/python3, Nov 2026: wavelength 2π·10000^(510/512) = 60,611.48;
// cos(PE(5) − PE(3), PE(105) − PE(103)) = 0.02915 at d = 512, both lengths 6.9665; PE(5) at
// d = 512, columns 2–4: −0.993855, 0.110692, −0.998229). English and Korean have the same keys and
// every sentence renders with its numbers in both languages.
import { describe, it, expect, beforeAll } from 'vitest';
import { CLAIMS, claimsOf, readValues } from '../web/pages/learn/claims-compute.js';
import CLAIM_STRINGS, { SOURCES } from '../web/pages/learn/claims-strings.js';
import { STEP_IDS } from '../web/pages/learn/steps.js';
import { GALLERY } from '../web/api/models.js';
import { BUILDS, peFor } from './helpers/pe.js';

const { en, ko } = CLAIM_STRINGS;

describe.each(BUILDS)('claim checks, $name build', ({ simd }) => {
  let pe;
  let v;
  beforeAll(async () => {
    pe = await peFor(simd);
    v = Object.fromEntries(CLAIMS.map((c) => [c.id, c.compute(pe)]));
  });

  it('cite the numbers the issue gives, as computed (checked against NumPy)', () => {
    expect(v.slowDims).toEqual({ w0: '1', wl0: '6.28', d: 512 });
    expect(v.base10000.wlLast).toBe('60,611');
    expect(v.base10000.cols).toBe('510, 511');
    expect(v.tables.values).toBe('−0.99385, 0.11069, −0.99823');
    expect(v.diffs).toEqual({ cos: '0.029', na: '6.967', nb: '6.967', d: 512 });
    expect(v.mropeThirds.section).toBe('16, 24, 24');
    expect(v.mropeThirds.pairs).toBe(64);
    expect(v.rowCol.sumDiff).toBe('0');
    expect(Number(v.rowCol.maeDist)).toBeGreaterThan(1);
    expect(v.alibi.behind).toBe(v.alibi.ahead);
    expect(v.alibi.causalAhead).toBe('−∞');
    expect(v.bagOfWords.open).toBe('0');
    expect(Number(v.bagOfWords.masked)).toBeGreaterThan(5);
    expect(v.fourier).toMatchObject({ ratio: '0.75', a: 60, b: 62, g: '1.0000' });
    expect(v.sinExtrapolate).toMatchObject({ len: '16', len0: '16', max: '1' });
    // The learned step's own measure at seed 0 (its sentence says 0.103 too), against a sinusoidal table.
    expect(v.sineLike).toEqual({ d: 64, sin: '0.966', init: '0.103' });
  });

  it('count the gallery as it is (its 38 models, their bases)', () => {
    expect(v.raiseBase.models).toBe(GALLERY.length);
    expect(v.raiseBase).toMatchObject({ codeLlama: '1,000,000', llama3: '500,000', models: 38, rope: 36, raised: 17 });
  });

  it('read any position, d and columns, in each layout', () => {
    const r = readValues(pe, { p: 5, dim: 512, from: 2, count: 3 });
    expect(r.cols).toEqual([2, 3, 4]);
    expect(r.values.map((x) => Number(x.toFixed(5)))).toEqual([-0.99385, 0.11069, -0.99823]);
    // concat: sines in columns 0 … d/2 − 1, cosines after them.
    const c = readValues(pe, { p: 5, dim: 8, from: 0, count: 8, layout: 'concat' });
    const w = [0, 1, 2, 3].map((i) => 10000 ** (-2 * i / 8));
    c.values.forEach((x, i) => expect(x).toBeCloseTo(i < 4 ? Math.sin(5 * w[i]) : Math.cos(5 * w[i - 4]), 6));
    expect(() => readValues(pe, { p: -1, dim: 8, from: 0, count: 2 })).toThrow();
  });

  it('every sentence renders its numbers in both languages', () => {
    for (const c of CLAIMS) {
      for (const [lang, dict] of [['en', en], ['ko', ko]]) {
        const text = dict[`claim.${c.id}.right`](v[c.id]);
        expect(text, `${lang} ${c.id}`).not.toMatch(/undefined|NaN|\[object/);
        for (const value of Object.values(v[c.id])) expect(text, `${lang} ${c.id} cites ${value}`).toContain(String(value));
        expect(dict[`claim.${c.id}.claim`], `${lang} ${c.id}`).toBeTruthy();
      }
      expect(SOURCES[c.id]?.length, c.id).toBeGreaterThan(0);
    }
  });
});

describe('claim-check strings', () => {
  it('English and Korean have the same keys, Korean sentences in Hangul', () => {
    expect(Object.keys(ko).sort()).toEqual(Object.keys(en).sort());
    for (const c of CLAIMS) expect(ko[`claim.${c.id}.claim`]).toMatch(/[\uac00-\ud7a3]|PE\(/);
  });

  it('every claim sits on a step that exists; the order of the issue is kept', () => {
    for (const c of CLAIMS) expect(STEP_IDS, c.id).toContain(c.step);
    expect(claimsOf('sinusoids').map((c) => c.id)).toEqual(['slowDims', 'base10000', 'tables', 'fourier']);
  });

  it('Korean keeps the glossary: 어텐션, 위치 인코딩, 차원, 파장, 외삽', () => {
    const seven = new Proxy({}, { get: (_, key) => (key === Symbol.toPrimitive ? () => 7 : '7') });
    const all = Object.values(ko).map((x) => (typeof x === 'function' ? x(seven) : x)).join(' ');
    for (const word of ['어텐션', '위치 인코딩', '파장', '외삽']) expect(all).toContain(word);
    expect(all).not.toMatch(/주의 메커니즘|위치 부호화|외분/);
  });
});
