// The Learn path's strings (web/pages/learn/strings.js, the claim checks' claims-strings.js) and
// the word-order demo's (web/views/attention/word-order.js): English and Korean have the same keys,
// every key a step uses exists, every sentence renders with numbers in it (no "undefined", no NaN),
// and the Korean ones are Korean.
import { describe, it, expect } from 'vitest';
import LEARN from '../web/pages/learn/strings.js';
import CLAIMS from '../web/pages/learn/claims-strings.js';
import { STRINGS as WORD_ORDER } from '../web/views/attention/word-order.js';
import { STEP_IDS } from '../web/pages/learn/steps.js';
import ROPE from '../web/views/rope/strings.js';
import ATTENTION from '../web/views/attention/strings.js';
import RELATIVE from '../web/views/relative/strings.js';
import VISION from '../web/views/vision/strings.js';
import PRECISION from '../web/views/precision/strings.js';
import PAGE_KO from '../web/i18n/ko.js';
import PAGE_EN from '../web/i18n/en.js';
import { readFileSync } from 'node:fs';

/** An argument that reads as 7 wherever a string asks for a number or a field of it. */
const seven = new Proxy({}, {
  get: (_, key) => (key === Symbol.toPrimitive ? () => 7 : key === 'join' ? () => '7' : seven),
});

function render(value) {
  if (typeof value === 'function') return render(value(seven, seven, seven));
  if (Array.isArray(value)) return value.join(' ');
  return String(value);
}

describe.each([['Learn', LEARN], ['claim checks', CLAIMS], ['word order', WORD_ORDER]])('%s strings', (_, { en, ko }) => {
  it('has the same keys in English and Korean', () => {
    expect(Object.keys(ko).sort()).toEqual(Object.keys(en).sort());
  });

  it('renders every string in both languages, Korean in Hangul', () => {
    for (const key of Object.keys(en)) {
      for (const [lang, dict] of [['en', en], ['ko', ko]]) {
        const text = render(dict[key]);
        expect(text, `${lang} ${key}`).not.toMatch(/undefined|NaN|\[object/);
        expect(text.length, `${lang} ${key}`).toBeGreaterThan(0);
      }
      // Names, symbols and tokens may stay as they are; any sentence is Korean.
      const koText = render(ko[key]);
      if (/[a-z]{4,} [a-z]{3,} [a-z]{3,}/.test(render(en[key])) && !/^[\w\s.()−-]+$/.test(render(en[key]))) {
        expect(koText, `ko ${key}`).toMatch(/[\uac00-\ud7a3]/);
      }
    }
  });
});

describe('Learn steps', () => {
  it('every step has a title, a summary, a lead and a question in both languages', () => {
    expect(STEP_IDS.length).toBeGreaterThanOrEqual(10);
    expect(STEP_IDS.length).toBeLessThanOrEqual(14);
    for (const id of STEP_IDS) {
      for (const part of ['title', 'summary', 'lead', 'try']) {
        expect(LEARN.en[`learn.${id}.${part}`], `en ${id}.${part}`).toBeDefined();
        expect(LEARN.ko[`learn.${id}.${part}`], `ko ${id}.${part}`).toBeDefined();
      }
    }
  });
});

describe('Learn strings say what is true, in the words a learner reads', () => {
  it('step 10 does not call LongRoPE missing: it names the explorer view that draws it', () => {
    for (const lang of ['en', 'ko']) {
      const note = LEARN[lang]['learn.scaling.note'];
      expect(note, lang).not.toMatch(/no longrope|longrope 종류가 없/i);
      expect(note, lang).toContain(ROPE[lang]['rope.long.title']);
      expect(note, lang).toContain('"longrope"');
    }
  });

  it('agrees in number with 1 (one pair keeps its wavelength, one is stretched)', () => {
    const one = LEARN.en['learn.scaling.derived']({ name: 'YaRN', kept: 1, full: 1, pairs: 64, f: 8, first: '1', last: '8', context: '32,768' });
    expect(one).toContain('1 of 64 pairs keeps its wavelength, 1 is stretched the full 8×');
    const many = LEARN.en['learn.scaling.derived']({ name: 'YaRN', kept: 20, full: 2, pairs: 64, f: 8, first: '1', last: '8', context: '32,768' });
    expect(many).toContain('20 of 64 pairs keep their wavelength, 2 are stretched the full 8×');
    const slow = (n) => LEARN.en['learn.sinusoids.derived']({ first: '6.28', lastIndex: 31, lastCols: '62, 63', last: '54,000', L: 128, slow: n, pairs: 32 });
    expect(slow(1)).toContain('1 of the 32 pairs has a wavelength over four times the 128 positions shown, so it barely moves here.');
    expect(slow(9)).toContain('9 of the 32 pairs have wavelengths over four times the 128 positions shown, so they barely move here.');
  });

  it('Korean avoids words that mislead: 짝짓기 (mating), 열 두 (twelve), 나눗수, 어텐션 mixed with 주의', () => {
    const BAD = [/짝짓기/, /열 두/, /나눗수/, /주의를 (준|기울)/];
    for (const [name, dict] of [['learn', LEARN.ko], ['claim checks', CLAIMS.ko], ['word order', WORD_ORDER.ko], ['attention', ATTENTION.ko], ['rope', ROPE.ko],
      ['relative', RELATIVE.ko], ['vision', VISION.ko], ['precision', PRECISION.ko]]) {
      for (const [key, value] of Object.entries(dict)) {
        const text = render(value);
        for (const bad of BAD) expect(text, `${name} ${key}`).not.toMatch(bad);
      }
    }
    for (const [key, value] of Object.entries(PAGE_KO)) {
      for (const bad of BAD) expect(render(value), `i18n/ko ${key}`).not.toMatch(bad);
    }
    // The schema's labels and help, and the config reader's report, carry Korean text too.
    for (const file of ['../web/api/schema/rope.js', '../web/api/schema/index.js', '../web/api/hfconfig-text.js']) {
      const text = readFileSync(new URL(file, import.meta.url), 'utf8');
      for (const bad of BAD) expect(text, file).not.toMatch(bad);
    }
  });

  it('the linearity note agrees in number with 1 (span 1 dimension)', () => {
    expect(PAGE_EN['view.properties.linear.note'](5, 1)).toContain('span 1 dimension (');
    expect(PAGE_EN['view.properties.linear.note'](5, 3)).toContain('span 3 dimensions (');
  });

  it('precision sentences agree in number with 1', () => {
    const P = PRECISION.en;
    expect(P['precision.pos.collide']('300', '1')).toBe('From position 300 on, 1 row is identical to the row before it.');
    expect(P['precision.pos.collide']('300', '12')).toBe('From position 300 on, 12 rows are identical to the row before them.');
    expect(P['precision.pair.lost']('9', '1', '64', '0.5', '0')).toMatch(/1 of 64 pairs has an error of at least half its step: it no longer tells 9/);
    expect(P['precision.col.some']('257', '1', '100', '1', 'bf16')).toMatch(/1 of the 100 neighbouring rows \(1 %\) is identical/);
  });
});
