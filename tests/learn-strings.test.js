// The Learn path's strings (web/pages/learn/strings.js) and the word-order demo's
// (web/views/attention/word-order.js): English and Korean have the same keys, every key a step
// uses exists, every sentence renders with numbers in it (no "undefined", no NaN), and the Korean
// ones are Korean.
import { describe, it, expect } from 'vitest';
import LEARN from '../web/pages/learn/strings.js';
import { STRINGS as WORD_ORDER } from '../web/views/attention/word-order.js';
import { STEP_IDS } from '../web/pages/learn/steps.js';

/** An argument that reads as 7 wherever a string asks for a number or a field of it. */
const seven = new Proxy({}, {
  get: (_, key) => (key === Symbol.toPrimitive ? () => 7 : key === 'join' ? () => '7' : seven),
});

function render(value) {
  if (typeof value === 'function') return render(value(seven, seven, seven));
  if (Array.isArray(value)) return value.join(' ');
  return String(value);
}

describe.each([['Learn', LEARN], ['word order', WORD_ORDER]])('%s strings', (_, { en, ko }) => {
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
