// The Learn path's linked numbers (web/pages/learn/linked.js, issue 29): the derived sentence is
// split at the numbers that mark a place in the figure, from the strings' own functions (never
// edited), in English and Korean; the text joined is always exactly the plain sentence, and a
// number that cannot be placed for sure stays plain.
import { describe, it, expect } from 'vitest';
import { translator } from '../web/i18n/index.js';
import '../web/pages/learn/strings.js';
import { linkSegments } from '../web/pages/learn/linked.js';

const linked = (segments) => Object.fromEntries(segments.filter((s) => s.name).map((s) => [s.name, s.text]));
const names = (segments) => segments.filter((s) => s.name).map((s) => s.name);

describe('linkSegments', () => {
  for (const lang of ['en', 'ko']) {
    const t = translator(lang);

    it(`${lang}: sinusoids: the wavelengths and the last pair's columns, text unchanged`, () => {
      const params = { first: '6.28', lastIndex: 31, lastCols: '62, 63', last: '8,659', L: 128, slow: 9, pairs: 32 };
      const seg = linkSegments(t, 'learn.sinusoids.derived', params, ['first', 'lastIndex', 'lastCols', 'last', 'slow']);
      expect(seg.map((s) => s.text).join('')).toBe(t('learn.sinusoids.derived', params));
      expect(linked(seg)).toEqual({ first: '6.28', lastIndex: '31', lastCols: '62, 63', last: '8,659', slow: '9' });
    });

    it(`${lang}: a number the string compares (kept === 1) is found in the text instead`, () => {
      // The plural branch depends on kept and full: wrapped, they would take the wrong one.
      const params = { name: 'YaRN', kept: 1, full: 35, pairs: 64, f: 8, first: '1', last: '8', context: '32,768' };
      const seg = linkSegments(t, 'learn.scaling.derived', params, ['kept', 'full', 'first', 'last']);
      expect(seg.map((s) => s.text).join('')).toBe(t('learn.scaling.derived', params));
      expect(linked(seg).kept).toBe('1');
      expect(linked(seg).full).toBe('35');
    });

    it(`${lang}: a number formatted by the string (n(half)) and one it computes with stay right`, () => {
      const params = { half: 46, back: '0.41', kback: 12000, N: 2048, base: '10,000' };
      const seg = linkSegments(t, 'learn.decay.derivedBack', params, ['half', 'kback', 'back']);
      expect(seg.map((s) => s.text).join('')).toBe(t('learn.decay.derivedBack', params));
      expect(linked(seg)).toEqual({ half: '46', kback: '12,000', back: '0.41' });
      // shift: PE(${p + k}) computes with p and k; each is still linked where it is printed.
      const shift = { p: 20, k: 5, err: '2.4e-7', q: 21, dist: '0.93', L: 256 };
      const s2 = linkSegments(t, 'learn.shift.derived', shift, ['p', 'k']);
      expect(s2.map((s) => s.text).join('')).toBe(t('learn.shift.derived', shift));
      expect(s2.find((s) => s.name === 'k')?.text).toBe('5');
      expect(t('learn.shift.derived', shift)).toContain('25');
    });
  }

  it('a number that must be searched for and is printed twice is not guessed: it stays plain', () => {
    const t = translator('en');
    // kept = 1 takes the singular branch, so its wrapper is refused and the text is searched;
    // pair 0's stretch is also written 1: two places, so kept stays plain (full is still linked).
    const params = { name: 'YaRN', kept: 1, full: 35, pairs: 64, f: 8, first: '1', last: '8', context: '32,768' };
    const seg = linkSegments(t, 'learn.scaling.derived', params, ['kept', 'full']);
    expect(seg.map((s) => s.text).join('')).toBe(t('learn.scaling.derived', params));
    expect(names(seg)).toEqual(['full']);
  });

  it('names that are not parameters, or a string with none, give the plain sentence', () => {
    const t = translator('en');
    expect(linkSegments(t, 'learn.scaling.derivedOne', {}, ['kept'])).toEqual([{ text: t('learn.scaling.derivedOne') }]);
  });
});
