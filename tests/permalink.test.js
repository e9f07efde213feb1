// Permalinks (web/share/permalink.js) in Node: round trips for every kind, compactness, the value syntax,
// the explorer's older links, and hostile fragments (never an exception, never a polluted object).
//   npx vitest run tests/permalink.test.js
import { describe, it, expect } from 'vitest';
import { SCHEMA } from '../web/api/schema/index.js';
import { defaults, normalizeSpec } from '../web/api/spec.js';
import {
  compactSpec, decodePermalink, encodePermalink, encodeValue, excerpt, MAX_FRAGMENT, parseValue,
} from '../web/share/permalink.js';

const KINDS = Object.keys(SCHEMA);
const roundTrip = (state) => decodePermalink(encodePermalink(state));
/** A partial spec with the defaults filled in, normalized (what a link of it decodes to). */
const full = (s) => normalizeSpec({ ...defaults(s.kind), ...s });
// Characters a fragment may hold without %-escapes (RFC 3986 pchar, "/" and "?").
const FRAGMENT_SAFE = /^#[A-Za-z0-9\-._~!$&'()*+,;=:@/?%]*$/;

/** Specs off the defaults, one or more per kind (every nested field type). */
const VARIANTS = [
  { kind: 'sinusoidal', length: 512, dim: 33, base: 500.5, layout: 'tensor2tensor', offset: 1000 },
  { kind: 'sinusoidal2d', height: 7, width: 9, dim: 24, layout: 'sum', base: 1e12 },
  { kind: 'sinusoidal3d', depth: 2, height: 3, width: 5, dim: 18, base: 100 },
  { kind: 'rope', dim: 64, rope_scaling: { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 4096, beta_fast: 16, truncate: false, mscale: 0.707 } },
  { kind: 'rope', dim: 128, base: 500000, rope_scaling: { rope_type: 'llama3', factor: 8, original_max_position_embeddings: 8192, low_freq_factor: 1, high_freq_factor: 4 } },
  { kind: 'rope', length: 300, dim: 32, max_position_embeddings: 128, rope_scaling: { rope_type: 'dynamic', factor: 2 }, layout: 'interleaved', partial_rotary_factor: 0.5 },
  { kind: 'rope', length: 24, dim: 32, grid_height: 4, grid_width: 6 },
  { kind: 'mrope', dim: 16, mrope_section: [2, 3, 3], tokens_per_second: 2.5, segments: [{ type: 'text', length: 3 }, { type: 'video', t: 5, h: 2, w: 2, second_per_grid_t: 0.7 }, { type: 'image', t: 1, h: 4, w: 4 }] },
  { kind: 'integer', length: 9, dim: 3, normalize: true },
  { kind: 'binary', length: 1024, dim: 11 },
  { kind: 'learned', length: 10, dim: 7, std: 1e-7, seed: 4294967295 },
  { kind: 'alibi', length: 33, heads: 12, mode: 'symmetric' },
  { kind: 't5', length: 100, num_buckets: 18, max_distance: 20, bidirectional: false },
  { kind: 'shaw', length: 8, max_relative_position: 0 },
  { kind: 'distance', length: 16, function: 'exponential', strength: 0, scale: 0.01, mode: 'symmetric' },
  { kind: 'attention', length: 7, content: 'tokens', tokens: "안녕하세요 it's a&b=c #x 100% 'q' !!", encoding: { kind: 'alibi' }, causal: false, heads: 2 },
  { kind: 'attention', length: 16, encoding: null, content: 'none' },
  { kind: 'attention', length: 16, encoding: { kind: 'sinusoidal2d', height: 4, width: 4, layout: 'tatp22' } },
];

describe('the value syntax', () => {
  it('round-trips JSON-like values', () => {
    const values = [0, -1, 0.02, 1e-7, 1e21, -2.5e-300, 123456789, true, false, null, '', 'yarn', 'a b', "it's", '!!', 'x!y', '1', '-3', 't', '한국어',
      [], [1, [2, []]], {}, { a: 1, b: [true, null, 'x y'], c: { d: 'e' } }];
    for (const v of values) expect(parseValue(encodeValue(v)), JSON.stringify(v)).toEqual(v);
  });

  it('keeps ordinary values readable', () => {
    expect(encodeValue({ rope_type: 'yarn', factor: 4 })).toBe('(rope_type:yarn,factor:4)');
    expect(encodeValue([16, 24, 24])).toBe('!(16,24,24)');
    expect(encodeValue(1e21)).toBe('1e21');
    expect(encodeValue("it's")).toBe("'it!'s'");
    expect(() => encodeValue(NaN)).toThrow();
    expect(() => encodeValue({ __proto__: null, ['__proto__']: 1 })).toThrow();
  });

  it('refuses malformed values with a message', () => {
    for (const bad of ['', '(', '!(1,', '(a:1', "'open", '!x', '1e999', '-', '1.', '(a:1,a:2)', '(__proto__:1)', '(constructor:1)', '(1:2)', '<img>', 'a b', '!(!(', '0x10', '1,2']) {
      expect(() => parseValue(bad), bad).toThrow();
    }
  });
});

describe('permalinks of every kind', () => {
  it.each(KINDS)('%s at its defaults is #v1/<kind> and decodes to the defaults', (kind) => {
    const spec = defaults(kind);
    const hash = encodePermalink({ kind, spec });
    expect(hash).toBe(`#v1/${kind}`);
    const d = decodePermalink(hash);
    expect(d.status).toBe('ok');
    expect(d.kind).toBe(kind);
    expect(d.spec).toEqual(normalizeSpec(spec));
    expect(d.view).toEqual({});
    expect(d.lang).toBe(null);
  });

  it.each(VARIANTS.map((s, i) => [`${s.kind} #${i}`, s]))('%s round-trips, holding only what differs from the defaults', (_, spec) => {
    const hash = encodePermalink({ kind: spec.kind, spec });
    expect(hash).toMatch(FRAGMENT_SAFE);
    const d = decodePermalink(hash);
    expect(d.status, JSON.stringify(d)).toBe('ok');
    expect(d.spec).toEqual(full(spec));
    // Compact: no field equal to its default, nested defaults pruned.
    const compact = compactSpec(spec);
    const dflt = defaults(spec.kind);
    for (const [k, v] of Object.entries(compact)) expect(JSON.stringify(v), k).not.toBe(JSON.stringify(dflt[k]));
    expect(normalizeSpec({ ...dflt, ...compact })).toEqual(full(spec));
  });

  it('drops the defaults inside nested objects and lists', () => {
    const hash = encodePermalink({ spec: { kind: 'rope', rope_scaling: { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 4096, beta_fast: 32, beta_slow: 1, truncate: true, mscale: null } } });
    expect(hash).toBe('#v1/rope?rope_scaling=(rope_type:yarn,factor:4,original_max_position_embeddings:4096)');
    const m = encodePermalink({ spec: { kind: 'mrope', segments: [{ type: 'video', t: 2, h: 4, w: 4, second_per_grid_t: 1 }] } });
    expect(m).toBe('#v1/mrope?segments=!((type:video,t:2,h:4,w:4))');
    const a = encodePermalink({ spec: { kind: 'attention', length: 8, encoding: { kind: 'alibi', mode: 'causal' } } });
    expect(a).toBe('#v1/attention?length=8&encoding=(kind:alibi)');
  });

  it('holds the view state, compare mode and language, and reads them back', () => {
    const spec = { kind: 'alibi', length: 32, heads: 8 };
    const view = { colormap: 'cividis', head: 3, series: { mode: 'rows', list: [4, 31] }, compare: { mode: 'symmetric' }, custom_zoom: { x0: 1, x1: 5 }, ignored: () => 1 };
    const hash = encodePermalink({ spec, view, lang: 'ko' });
    expect(hash).toBe('#v1/alibi?length=32&~map=cividis&~head=3&~rows=4,31&~cmp=(mode:symmetric)&~x.custom_zoom=(x0:1,x1:5)&~lang=ko');
    const d = decodePermalink(hash);
    expect(d.view).toEqual({ colormap: 'cividis', head: 3, series: { mode: 'rows', list: [4, 31] }, compare: { mode: 'symmetric' }, custom_zoom: { x0: 1, x1: 5 } });
    expect(d.lang).toBe('ko');
    // compare mode with B = A, and the defaults of the view, written as nothing
    expect(encodePermalink({ spec, view: { colormap: 'viridis', head: 0, compare: {} } })).toBe('#v1/alibi?length=32&~cmp=()');
    expect(decodePermalink('#v1/alibi?~cmp=()').view).toEqual({ compare: {} });
    const r = roundTrip({ spec: { kind: 'rope' }, view: { transform: 'wrapped', series: { mode: 'cols', list: [] } } });
    expect(r.view).toEqual({ transform: 'wrapped', series: { mode: 'cols', list: [] } });
  });

  it('holds the heatmap colour scale (~scale), auto written as nothing', () => {
    const spec = { kind: 'attention', length: 512 };
    for (const scale of ['linear', 'sqrt', 'log']) {
      const hash = encodePermalink({ spec, view: { colormap: 'cividis', scale } });
      expect(hash).toBe(`#v1/attention?length=512&~map=cividis&~scale=${scale}`);
      expect(decodePermalink(hash).view).toEqual({ colormap: 'cividis', scale });
    }
    expect(encodePermalink({ spec, view: { scale: 'auto' } })).toBe('#v1/attention?length=512');
    // The field has its own key: a ~x.scale is refused, and an unknown scale is dropped and named.
    expect(decodePermalink('#v1/attention?~x.scale=log').dropped.map((x) => x.key)).toEqual(['~x.scale']);
    const bad = decodePermalink('#v1/attention?length=16&~scale=cubic');
    expect(bad.dropped).toMatchObject([{ key: '~scale', why: { code: 'scale', text: 'cubic' } }]);
    expect(bad.spec.length).toBe(16);
  });

  it('leaves out a comparison that is not valid rather than writing a broken link', () => {
    const hash = encodePermalink({ spec: { kind: 'sinusoidal' }, view: { compare: { dim: 0 } } });
    expect(hash).toBe('#v1/sinusoidal');
  });

  it('reads the explorer\'s older links and catalogue links', () => {
    expect(decodePermalink('#sinusoidal?dim=32&base=100&layout=concat').spec).toEqual(full({ kind: 'sinusoidal', dim: 32, base: 100, layout: 'concat' }));
    const r = decodePermalink('#rope?rope_scaling=%7B%22rope_type%22%3A%22linear%22%2C%22factor%22%3A2%7D');
    expect(r.status).toBe('ok');
    expect(r.spec.rope_scaling.factor).toBe(2);
    expect(decodePermalink('#rope')).toMatchObject({ status: 'ok', kind: 'rope', spec: null, hasParams: false });
    expect(decodePermalink('')).toEqual({ status: 'empty' });
    expect(decodePermalink('#')).toEqual({ status: 'empty' });
  });
});

describe('hostile and damaged fragments', () => {
  const HOSTILE = [
    ['#v1/<img src=x onerror=alert(1)>', 'kind'],
    ['#v1/%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E', 'kind'],
    ['#<script>window.__pwned=1</script>', 'syntax'],
    ['#v1/sinusoidal?dim=<script>alert(1)</script>', 'syntax'],
    ["#v1/attention?content=tokens&length=1&tokens='<img src=x onerror=alert(1)>'", 'spec'],
    ['#v1/sinusoidal?layout=%3Cb%3Ebold%3C/b%3E', 'syntax'],
    ["#v1/sinusoidal?layout='%3Cb%3Ebold%3C/b%3E'", 'spec'],
    ['#v1/sinusoidal?dim=1e999', 'syntax'],
    ['#v1/sinusoidal?dim=99999999999999999999999999', 'spec'],
    ['#v1/sinusoidal?dim=1e308', 'spec'],
    ['#v1/sinusoidal?dim=-0', 'spec'],
    ['#v1/sinusoidal?base=0x10', 'syntax'],
    ['#v1/sinusoidal?__proto__=(polluted:1)', 'spec'],
    ['#v1/rope?rope_scaling=(__proto__:(polluted:1))', 'syntax'],
    ['#v1/rope?rope_scaling=(constructor:(prototype:(polluted:1)))', 'syntax'],
    ['#v1/__proto__', 'kind'],
    ['#v1/constructor?x=1', 'kind'],
    ['#v1/toString', 'kind'],
    ['#__proto__?polluted=1', 'syntax'],
    ['#sinusoidal?__proto__=1', 'spec'],
    ['#rope?rope_scaling={"__proto__":{"polluted":1}}', 'syntax'],
    ['#v1/sinusoidal?~x.__proto__=(polluted:1)', 'view'],
    ['#v1/sinusoidal?~map=<script>', 'syntax'],
    ['#v1/sinusoidal?~map=hotpink', 'view'],
    ['#v1/sinusoidal?~head=-1', 'view'],
    ['#v1/sinusoidal?~cols=1,x', 'view'],
    ['#v1/sinusoidal?~cols=1&~rows=2', 'syntax'],
    ['#v1/sinusoidal?~lang=fr', 'view'],
    ['#v1/sinusoidal?~cmp=!(1)', 'view'],
    ['#v1/sinusoidal?~cmp=(nope:1)', 'view'],
    ['#v1/sinusoidal?dim=5&dim=6', 'syntax'],
    ['#v1/sinusoidal?dim', 'syntax'],
    ['#v1/sinusoidal?dim=%E0%A4%A', 'syntax'],
    ['#v2/sinusoidal', 'version'],
    ['#v0/sinusoidal', 'version'],
    ['#v99999999/x', 'version'],
    ['#v1', 'version'],
    ['#v1/', 'kind'],
    ['#%%%', 'syntax'],
    ['#?dim=5', 'syntax'],
    ['#javascript:alert(1)', 'syntax'],
    [`#v1/mrope?segments=${'!('.repeat(100000)}`, 'syntax'],
    [`#v1/sinusoidal?dim=${'9'.repeat(100000)}`, 'syntax'],
    [`#${'x'.repeat(2 ** 20)}`, 'toolong'],
    [`#v1/sinusoidal?${'&'.repeat(MAX_FRAGMENT)}`, 'toolong'],
  ];

  // A versioned link to a known kind keeps its kind and good fields: a bad parameter there is
  // dropped and named (status ok, `dropped`); anything else is refused whole (status error).
  const partOfLink = (hash) => /^#v1\/(sinusoidal|rope|mrope|attention)\?/.test(hash) && hash.length <= MAX_FRAGMENT;
  it.each(HOSTILE.map(([h, r]) => [h.length > 70 ? `${h.slice(0, 60)}… (${h.length} chars)` : h, h, r]))('%s → refused or dropped, no exception', (_, hash, reason) => {
    const d = decodePermalink(hash);
    if (partOfLink(hash) && d.status === 'ok') {
      expect(d.dropped.length, 'the dropped parameter is named').toBeGreaterThan(0);
      for (const x of d.dropped) {
        expect(typeof x.key).toBe('string');
        expect(x.detail.length).toBeGreaterThan(5);
        expect(x.detail.length).toBeLessThan(400);
      }
      expect(d.spec).toEqual(normalizeSpec(d.spec)); // what is kept is a valid spec
    } else {
      expect(d.status).toBe('error');
      expect(d.reason).toBe(reason);
      expect(typeof d.detail).toBe('string');
      expect(d.detail.length).toBeLessThan(400);
    }
    expect({}.polluted).toBeUndefined();
    expect(Object.prototype.polluted).toBeUndefined();
  });

  it('1 MB of random junk after #v1/ never throws, always says why', () => {
    let seed = 12345;
    const rnd = () => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return seed;
    };
    const alphabet = "()!',:~&=?#%/<>\"' \\abcdefghijklmnopqrstuvwxyz0123456789._-eE+\u0000\u2028한";
    for (const size of [10, 100, 1000, 10000, 200000, 2 ** 20]) {
      let s = '#v1/sinusoidal?dim=';
      while (s.length < size) s += alphabet[rnd() % alphabet.length];
      const d = decodePermalink(s);
      // dim is dropped and named (the rest of the link is empty), or the whole link refused.
      if (d.status === 'ok') expect(d.dropped.map((x) => x.key)).toContain('dim');
      else expect(d.detail.length).toBeGreaterThan(5);
    }
    for (let i = 0; i < 3000; i++) {
      let s = '#v1/';
      const n = rnd() % 60;
      for (let k = 0; k < n; k++) s += alphabet[rnd() % alphabet.length];
      const d = decodePermalink(s);
      expect(['ok', 'error']).toContain(d.status);
    }
    expect(Object.prototype.polluted).toBeUndefined();
  });

  it('treats non-strings as nothing', () => {
    for (const v of [undefined, null, 42, {}, []]) expect(decodePermalink(v).status).toBe('empty');
  });

  it('shortens untrusted text for messages and strips control characters', () => {
    expect(excerpt('a'.repeat(100))).toHaveLength(41);
    expect(excerpt('a\u0000b\nc')).toBe('a�b�c');
  });
});
