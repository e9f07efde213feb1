// The help of every kind is the header a learner reads above the explorer's controls: it speaks
// of the idea, not of the code. No source files (c/absolute.c), no API calls (pe.loadMatrix), no
// result layouts ("Result: data [heads, length, length]"): those belong in docs/reference.md.
import { describe, it, expect } from 'vitest';
import { SCHEMA } from '../web/api/schema/index.js';

const DEVELOPER = [/\bc\/\w+\.[ch]\b/, /\bpe\.\w+/, /\bResult: data\b/, /결과: data/, /\bweb\/\w+/];

describe('kind headers speak to learners', () => {
  it.each(Object.keys(SCHEMA))('%s', (kind) => {
    const help = SCHEMA[kind].help ?? {};
    for (const lang of ['en', 'ko']) {
      for (const re of DEVELOPER) expect(help[lang] ?? '', `${kind} ${lang}`).not.toMatch(re);
    }
  });
});
