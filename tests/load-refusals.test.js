// The load view says why a file was refused in the page's language: every refusal the C reader
// gives for the matrix fixtures' bad files falls in a reason class that has its own Korean
// sentence (not the catch-all), and the English page shows the reader's own words.
import { describe, it, expect, beforeAll } from 'vitest';
import { loadManifest, readFixture } from './helpers/fixtures.js';
import { peFor } from './helpers/pe.js';
import { refusalReason } from '../web/views/generic/load.js';
import { translator } from '../web/i18n/index.js';

const manifest = loadManifest('matrix');
const refused = manifest.cases.filter((c) => c.expect !== 'ok' && c.param === 'bytes');

describe('load view refusals', () => {
  let pe;
  beforeAll(async () => {
    pe = await peFor(true);
  });

  it.each(refused.map((c) => [c.name, c]))('%s: a known reason, said in Korean', (_, c) => {
    let message = null;
    try {
      pe.loadMatrix(readFixture('matrix', c.file, Uint8Array), c.options);
    } catch (err) {
      message = err.message;
    }
    expect(message).not.toBe(null);
    const reason = refusalReason(message);
    expect(reason, message).not.toBe('other');
    const ko = translator('ko')('view.load.why', reason, message);
    const fallback = translator('ko')('view.load.why', 'other', message);
    expect(ko).not.toBe(fallback);
    expect(ko).toMatch(/[가-힣]/);
    expect(ko).toContain(message);
    expect(translator('en')('view.load.why', reason, message)).toBe(message);
  });

  it('covers every class it knows', () => {
    const seen = new Set(refused.map((c) => {
      try {
        pe.loadMatrix(readFixture('matrix', c.file, Uint8Array), c.options);
      } catch (err) {
        return refusalReason(err.message);
      }
      return null;
    }));
    expect([...seen].sort()).toEqual(expect.arrayContaining(['dtype', 'header', 'notFile', 'offsets', 'shape', 'truncated', 'values']));
  });
});
