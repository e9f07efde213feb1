// The view state (web/model/view-state.js): one description, checked the same way by the page,
// the permalinks and <pe-plot>.
import { describe, it, expect } from 'vitest';
import { checkView, parseSeriesList, VIEW_FIELDS, VIEW_DEFAULTS, MAX_SERIES } from '../web/model/view-state.js';
import { decodePermalink, encodePermalink } from '../web/share/permalink.js';
import { COLORMAP_NAMES } from '../web/api/colormaps.js';
import { PEError } from '../web/pe.js';
import { expectPEError } from './helpers/pe.js';

describe('view state', () => {
  it('describes every field in the spec vocabulary, with a default', () => {
    for (const [name, field] of Object.entries(VIEW_FIELDS)) {
      expect(['enum', 'int', 'list'], name).toContain(field.type);
      expect(field, name).toHaveProperty('default');
      if (field.default !== null) expect(checkView(name, field.default)).toEqual(field.default);
    }
    expect(VIEW_FIELDS.colormap.values).toEqual(COLORMAP_NAMES);
    expect(VIEW_FIELDS.scale).toMatchObject({ values: ['auto', 'linear', 'sqrt', 'log'], default: 'auto' });
    expect(VIEW_DEFAULTS).toEqual({ colormap: 'viridis', head: 0 });
  });

  it('refuses a bad value with a PEError naming the field and its range', () => {
    const cases = [['colormap', 'hotpink', /colormap must be one of "viridis", "cividis", "diverging"/], ['head', -1, /head must be an integer in \[0, 1000000\]/],
      ['head', 1.5, /head/], ['transform', 'tan', /transform must be null or one of/], ['lang', 'fr', /lang must be one of "en", "ko"/],
      ['theme', 'sepia', /theme/], ['scale', 'cubic', /scale must be one of "auto", "linear", "sqrt", "log"/], ['seriesList', [1, -2], /seriesList\[1\]/]];
    for (const [name, value, re] of cases) {
      const error = expectPEError(() => checkView(name, value), undefined, re, `${name} = ${value}`);
      expect(error.param).toMatch(new RegExp(`^${name}`));
    }
  });

  it('reads curve lists as text, up to MAX_SERIES numbers', () => {
    expect(parseSeriesList('0, 1 8,9')).toEqual([0, 1, 8, 9]);
    expect(parseSeriesList('')).toEqual([]);
    expect(() => parseSeriesList('1, x')).toThrow(PEError);
    expect(() => parseSeriesList('0x10')).toThrow(PEError);
    expect(() => parseSeriesList(Array.from({ length: MAX_SERIES + 1 }, (_, i) => i).join(','))).toThrow(/seriesList/);
  });

  it('is what a permalink accepts and refuses', () => {
    const ok = decodePermalink('#v1/alibi?~map=cividis&~head=3&~lang=ko');
    expect(ok.status).toBe('ok');
    expect(ok.view).toMatchObject({ colormap: 'cividis', head: 3 });
    // A bad view value is dropped and named; the rest of the link stands.
    for (const bad of ['~map=hotpink', '~scale=cubic', '~head=-1', '~tf=tan', '~lang=fr']) {
      const d = decodePermalink(`#v1/rope?length=32&${bad}`);
      expect(d.status, bad).toBe('ok');
      expect(d.spec.length).toBe(32);
      expect(d.dropped.map((x) => x.key), bad).toEqual([bad.split('=')[0]]);
    }
    const hash = encodePermalink({ kind: 'rope', spec: { kind: 'rope' }, view: { colormap: 'diverging', head: 0, transform: 'sin' }, lang: 'en' });
    expect(decodePermalink(hash).view).toMatchObject({ colormap: 'diverging', transform: 'sin' });
  });
});
