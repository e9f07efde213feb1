// Permalinks: the explorer's whole state in the URL fragment, versioned and compact.
//
//   #v1/<kind>[?<key>=<value>(&<key>=<value>)*]
//
// Keys are the kind's spec fields (schema names) and view-state keys that start with "~":
//   ~map=cividis          colour map (default viridis)
//   ~scale=log            the heatmaps' colour scale: linear, sqrt, log (default auto)
//   ~head=3               the slice (head) of a 3-D output (default 0)
//   ~tf=sin               RoPE display transform: cos | sin | angle | wrapped
//   ~cols=0,1,8,9         the curves of the line plot: these columns … or ~rows=31,63 (rows)
//   ~cmp=(base:20000)     compare mode on, B = A with these fields changed; ~cmp=() B = A
//   ~lang=ko              the page language (absent: English)
//   ~x.<key>=<value>      another view's own shared state (JSON-like values only)
// Only values that differ from the defaults are written: spec fields against pe.defaults(kind),
// and inside objects, lists and nested specs every key whose removal does not change the
// normalized spec. Decoding starts from the defaults, so `#v1/rope` is RoPE at its defaults.
//
// Values use a URL-safe JSON (close to Rison), so links need no %-escapes for ordinary specs:
//   number   -12, 0.02, 1e-7                 (JavaScript's shortest round-trip form)
//   !t !f !n true, false, null
//   string   yarn  (a bare word: a letter or _ then letters, digits, _ . -)
//            'two words'  (quoted; inside, !' is ' and !! is !)
//   object   (rope_type:yarn,factor:4)
//   list     !(16,24,24)
// then %-encoded where a character is not safe in a fragment (spaces, Hangul, & = # %).
//
// Decoding never throws: it returns { status: 'ok', … }, { status: 'empty' } or
// { status: 'error', reason, detail } with reason one of
//   'toolong' | 'version' | 'syntax' | 'kind' | 'spec' | 'view'.
// Hostile input (script text, huge numbers, deep nesting, __proto__, megabytes of junk) is an
// 'error' or a validation failure, never an exception; nothing here touches the DOM.
// The explorer's older links (#sinusoidal?dim=32&layout=concat, JSON for objects) still decode
// (version 0); a bare #<kind> is a catalogue link (spec: null).
import { SCHEMA } from '../api/schema/index.js';
import { defaults, normalizeSpec } from '../api/spec.js';
import { checkView, MAX_SERIES, TRANSFORMS, VIEW_DEFAULTS, VIEW_FIELDS } from '../model/view-state.js';
import { sameJSON, copyJSON } from '../model/json.js';

export const PERMALINK_VERSION = 1;
/** Longest fragment decoded (characters); longer ones are refused as a whole. */
export const MAX_FRAGMENT = 262144;
/** Deepest nesting of objects and lists in one value. */
export const MAX_DEPTH = 16;
export { TRANSFORMS, VIEW_DEFAULTS, sameJSON, copyJSON };

// The view fields with a ~key of their own: never carried as ~x.<name>.
const VIEW_KEYS = ['colormap', 'scale', 'head', 'transform', 'series', 'compare'];
export const DEFAULT_LANG = 'en';
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const IDENT = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
const KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;
const NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;


class LinkError extends Error {
  /**
   * detail: the reason in English words; why: the same as data, so that the page can say it in
   * its own language (web/share/page.js): { code, ...arguments }, code one of parse, escape,
   * toolong, twice, notLink, noValue, notField, colormap, scale, head, transform, lang, bothSeries,
   * curves, rowcol, cmpShape, cmpField, viewKey, json, keyForbidden, value (a PEError's param,
   * expected and got: web/api/spec.js), compare.
   */
  constructor(reason, detail, why = null) {
    super(detail);
    this.reason = reason;
    this.detail = detail;
    this.why = why;
  }
}

/** A PEError as a `why` (code 'value'), when it says what its field allows; else null. */
function whyOf(e) {
  if (e?.name !== 'PEError' || !e.expected) return null;
  return { code: 'value', param: e.param, expected: e.expected, ...(Object.hasOwn(e, 'got') ? { got: e.got } : {}) };
}

/** `{ why }` to spread into a result, or nothing. */
const withWhy = (why) => (why ? { why } : {});

/** A short, printable excerpt of untrusted text for messages (shown with textContent only). */
export function excerpt(text, max = 40) {
  // eslint-disable-next-line no-control-regex -- control characters are what this replaces
  const s = String(text).replace(/[\u0000-\u001f\u007f-\u009f]/g, '�');
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

// ---------------------------------------------------------------------------------------------
// Values

/** The value in the URL-safe JSON above (before %-encoding). Throws on what it cannot write. */
export function encodeValue(v) {
  if (v === null) return '!n';
  if (v === true) return '!t';
  if (v === false) return '!f';
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new TypeError(`cannot write ${v} in a link`);
    return String(Object.is(v, -0) ? 0 : v).replace('e+', 'e');
  }
  if (typeof v === 'string') {
    if (IDENT.test(v)) return v;
    return `'${v.replace(/!/g, '!!').replace(/'/g, "!'")}'`;
  }
  if (Array.isArray(v)) return `!(${v.map(encodeValue).join(',')})`;
  if (typeof v === 'object') {
    const parts = [];
    for (const [k, x] of Object.entries(v)) {
      if (x === undefined) continue;
      if (!KEY.test(k) || FORBIDDEN_KEYS.has(k)) throw new TypeError(`cannot write the key "${k}" in a link`);
      parts.push(`${k}:${encodeValue(x)}`);
    }
    return `(${parts.join(',')})`;
  }
  throw new TypeError(`cannot write a ${typeof v} in a link`);
}

/** Parses one value (already %-decoded). Throws LinkError('syntax', …) on anything malformed. */
export function parseValue(text) {
  const s = String(text);
  let i = 0;
  // what: the words; code (and key): the same for share.why.what.<code> (web/share/strings.js).
  const fail = (what, code, key) => {
    throw new LinkError('syntax', `${what} at character ${i + 1} of “${excerpt(s)}”`,
      { code: 'parse', what: code, at: i + 1, text: excerpt(s), ...(key === undefined ? {} : { key }) });
  };
  function value(depth) {
    if (depth > MAX_DEPTH) fail('too deeply nested', 'nested');
    const c = s[i];
    if (c === '!') {
      const d = s[i + 1];
      if (d === 't') { i += 2; return true; }
      if (d === 'f') { i += 2; return false; }
      if (d === 'n') { i += 2; return null; }
      if (d === '(') {
        i += 2;
        const out = [];
        if (s[i] === ')') { i++; return out; }
        for (;;) {
          out.push(value(depth + 1));
          if (s[i] === ',') { i++; continue; }
          if (s[i] === ')') { i++; return out; }
          fail('expected , or )', 'commaOrClose');
        }
      }
      fail('unknown ! escape', 'bang');
    }
    if (c === '(') {
      i++;
      const out = {};
      if (s[i] === ')') { i++; return out; }
      for (;;) {
        const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(s.slice(i, i + 128));
        if (!m) fail('expected a key', 'key');
        const key = m[0];
        if (FORBIDDEN_KEYS.has(key)) fail(`the key “${key}” is not allowed`, 'keyForbidden', key);
        if (Object.hasOwn(out, key)) fail(`the key “${key}” is repeated`, 'keyRepeated', key);
        i += key.length;
        if (s[i] !== ':') fail('expected :', 'colon');
        i++;
        out[key] = value(depth + 1);
        if (s[i] === ',') { i++; continue; }
        if (s[i] === ')') { i++; return out; }
        fail('expected , or )', 'commaOrClose');
      }
    }
    if (c === "'") {
      i++;
      let str = '';
      for (;;) {
        if (i >= s.length) fail('unterminated string', 'unterminated');
        const ch = s[i];
        if (ch === "'") { i++; return str; }
        if (ch === '!') {
          const nx = s[i + 1];
          if (nx !== '!' && nx !== "'") fail('bad escape in a string', 'stringEscape');
          str += nx;
          i += 2;
          continue;
        }
        str += ch;
        i++;
      }
    }
    if (c === '-' || (c >= '0' && c <= '9')) {
      const m = /^-?[0-9.eE+-]*/.exec(s.slice(i, i + 64));
      const tok = m[0];
      if (tok.length > 40 || !NUMBER.test(tok)) fail('bad number', 'number');
      const n = Number(tok);
      if (!Number.isFinite(n)) fail('number out of range', 'range');
      i += tok.length;
      return n;
    }
    const m = /^[A-Za-z_][A-Za-z0-9_.-]*/.exec(s.slice(i, i + 256));
    if (m) {
      i += m[0].length;
      return m[0];
    }
    return fail(i >= s.length ? 'missing value' : 'unexpected character', i >= s.length ? 'missing' : 'character');
  }
  const v = value(0);
  if (i !== s.length) fail('unexpected text after the value', 'trailing');
  return v;
}

// Characters left as they are in a fragment value: everything encodeURIComponent keeps, plus
// the value syntax's , and : (never & = # % or spaces).
function escapeValue(text) {
  return encodeURIComponent(text).replace(/%2C/g, ',').replace(/%3A/g, ':');
}

function unescape(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new LinkError('syntax', `bad %-escape in “${excerpt(text)}”`, { code: 'escape', text: excerpt(text) });
  }
}

// ---------------------------------------------------------------------------------------------
// Compact specs

/**
 * Removes, one by one, every nested key of `root` whose removal leaves `normalize(root)` equal to
 * `target` (deep, into objects and list items). Top-level keys are listed in `keys`. Mutates root.
 */
function prune(root, keys, normalize, target) {
  const equal = () => {
    try {
      return sameJSON(normalize(root), target);
    } catch {
      return false;
    }
  };
  const visit = (obj, names) => {
    for (const k of names) {
      if (k === 'kind' && obj !== root) continue;
      const saved = obj[k];
      delete obj[k];
      if (equal()) continue;
      obj[k] = saved;
      if (Array.isArray(saved)) {
        for (const item of saved) if (item && typeof item === 'object' && !Array.isArray(item)) visit(item, Object.keys(item));
      } else if (saved && typeof saved === 'object') {
        visit(saved, Object.keys(saved));
      }
    }
  };
  visit(root, keys);
  return root;
}

/**
 * The fields of a valid spec that a link needs: those that differ from the defaults, pruned.
 * Fields the spec leaves out count as the defaults (as when a link is read).
 */
export function compactSpec(spec) {
  const d = defaults(spec.kind);
  const full = normalizeSpec({ ...d, ...spec });
  const out = {};
  for (const name of Object.keys(SCHEMA[full.kind].fields)) {
    if (!sameJSON(full[name], d[name])) out[name] = copyJSON(full[name]);
  }
  const normalize = (r) => normalizeSpec({ ...d, ...r, kind: full.kind });
  return prune(out, Object.keys(out).filter((k) => out[k] && typeof out[k] === 'object'), normalize, full);
}

/** B's fields for a link: those of `overrides` that change B = { ...A, ...overrides }, pruned. */
export function compactOverrides(specA, overrides) {
  const a = normalizeSpec({ ...defaults(specA.kind), ...specA });
  const b = normalizeSpec({ ...a, ...overrides, kind: a.kind });
  const out = {};
  for (const name of Object.keys(SCHEMA[a.kind].fields)) {
    if (Object.hasOwn(overrides, name) && !sameJSON(b[name], a[name])) out[name] = copyJSON(b[name]);
  }
  const normalize = (r) => normalizeSpec({ ...a, ...r, kind: a.kind });
  return prune(out, Object.keys(out).filter((k) => out[k] && typeof out[k] === 'object'), normalize, b);
}

// ---------------------------------------------------------------------------------------------
// Encoding

const isPlain = (v) => {
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return true;
  if (typeof v === 'number') return Number.isFinite(v);
  if (Array.isArray(v)) return v.every(isPlain);
  if (typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
    return Object.entries(v).every(([k, x]) => KEY.test(k) && !FORBIDDEN_KEYS.has(k) && isPlain(x));
  }
  return false;
};

/**
 * The fragment (with its leading #) for a state:
 *   { kind, spec, view?: { colormap, head, transform, series: { mode, list }, compare, …other },
 *     lang? }
 * `spec` must be valid (links hold what renders); view.compare is B's overrides (null: off).
 */
export function encodePermalink({ kind, spec, view = {}, lang = DEFAULT_LANG }) {
  const k = kind ?? spec.kind;
  const parts = [];
  const put = (key, value, raw = false) => parts.push(`${key}=${raw ? value : escapeValue(encodeValue(value))}`);
  const compact = compactSpec({ ...spec, kind: k });
  for (const [name, v] of Object.entries(compact)) put(name, v);
  const v = view ?? {};
  if (v.colormap !== undefined && v.colormap !== VIEW_DEFAULTS.colormap) put('~map', v.colormap);
  if (v.scale !== undefined && v.scale !== VIEW_FIELDS.scale.default) put('~scale', v.scale);
  if (v.head !== undefined && v.head !== VIEW_DEFAULTS.head) put('~head', v.head);
  if (v.transform != null) put('~tf', v.transform);
  if (v.series && Array.isArray(v.series.list)) {
    put(v.series.mode === 'rows' ? '~rows' : '~cols', v.series.list.slice(0, MAX_SERIES).join(','), true);
  }
  if (v.compare != null) {
    // B must be valid (the compare view only records a B that computed): else no comparison.
    let b = null;
    try {
      b = compactOverrides({ ...spec, kind: k }, v.compare);
    } catch { /* left out */ }
    if (b) put('~cmp', b);
  }
  for (const [key, x] of Object.entries(v)) {
    if (VIEW_KEYS.includes(key)) continue;
    if (x === undefined || !KEY.test(key) || FORBIDDEN_KEYS.has(key) || !isPlain(x)) continue;
    const text = escapeValue(encodeValue(x));
    if (text.length <= 2000) parts.push(`~x.${key}=${text}`);
  }
  if (lang && lang !== DEFAULT_LANG) put('~lang', lang);
  return `#v${PERMALINK_VERSION}/${k}${parts.length ? `?${parts.join('&')}` : ''}`;
}

// ---------------------------------------------------------------------------------------------
// Decoding

function checkKind(kind) {
  if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(kind) || !Object.hasOwn(SCHEMA, kind)) {
    throw new LinkError('kind', `“${excerpt(kind)}”`);
  }
  return kind;
}

function splitParams(query) {
  const out = [];
  const seen = new Set();
  if (query === undefined || query === '') return out;
  for (const part of query.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const rawKey = eq < 0 ? part : part.slice(0, eq);
    const key = unescape(rawKey);
    if (seen.has(key)) throw new LinkError('syntax', `“${excerpt(key)}” is given twice`, { code: 'twice', key: excerpt(key) });
    seen.add(key);
    out.push([key, eq < 0 ? null : part.slice(eq + 1)]);
  }
  return out;
}

/** A view field of a link, checked by the view-state schema; a bad one is a LinkError. */
function viewValue(name, value, message, code) {
  try {
    return checkView(name, value);
  } catch {
    throw new LinkError('view', message(value), { code, text: excerpt(typeof value === 'string' ? value : JSON.stringify(value) ?? String(value)) });
  }
}

function decodeSeries(raw, mode) {
  const text = unescape(raw);
  if (text === '') return { mode, list: [] };
  const items = text.split(',');
  if (items.length > MAX_SERIES) throw new LinkError('view', `more than ${MAX_SERIES} curves`, { code: 'curves', max: MAX_SERIES });
  const list = items.map((x) => {
    if (!/^(0|[1-9][0-9]{0,7})$/.test(x)) throw new LinkError('view', `“${excerpt(x)}” is not a row or column number`, { code: 'rowcol', text: excerpt(x) });
    return Number(x);
  });
  return { mode, list };
}

function validSpec(spec) {
  try {
    return normalizeSpec(spec);
  } catch (e) {
    if (e?.name === 'PEError') throw new LinkError('spec', e.message, whyOf(e));
    throw new LinkError('spec', String(e?.message ?? e));
  }
}

function decodeV1(body) {
  const q = body.indexOf('?');
  const kind = checkKind(unescape(q < 0 ? body : body.slice(0, q)));
  const fields = SCHEMA[kind].fields;
  const spec = defaults(kind);
  const given = new Set();
  const view = {};
  let lang = null;
  let compare = null;
  // One bad parameter does not spoil the link: it is dropped (its default stays) and named in
  // `dropped`, so the page keeps the kind and every good field and says what it left out.
  const dropped = [];
  const drop = (key, e) => {
    if (!(e instanceof LinkError)) throw e;
    dropped.push({ key, detail: e.detail, ...withWhy(e.why) });
  };
  for (const [key, raw] of splitParams(q < 0 ? '' : body.slice(q + 1))) {
    try {
      if (raw === null) throw new LinkError('syntax', `“${excerpt(key)}” has no value`, { code: 'noValue', key: excerpt(key) });
      if (!key.startsWith('~')) {
        if (!Object.hasOwn(fields, key) || FORBIDDEN_KEYS.has(key)) {
          throw new LinkError('spec', `“${excerpt(key)}” is not a field of ${kind}`, { code: 'notField', key: excerpt(key), kind });
        }
        spec[key] = parseValue(unescape(raw));
        given.add(key);
        continue;
      }
      switch (key) {
        case '~map':
          view.colormap = viewValue('colormap', parseValue(unescape(raw)), (v) => `unknown colour map “${excerpt(v)}”`, 'colormap');
          break;
        case '~scale':
          view.scale = viewValue('scale', parseValue(unescape(raw)), (v) => `unknown colour scale “${excerpt(v)}”`, 'scale');
          break;
        case '~head':
          view.head = viewValue('head', parseValue(unescape(raw)), () => `head must be a whole number ≥ 0, got “${excerpt(raw)}”`, 'head');
          break;
        case '~tf':
          view.transform = viewValue('transform', parseValue(unescape(raw)), (v) => `unknown transform “${excerpt(v)}”`, 'transform');
          break;
        case '~cols':
        case '~rows':
          if (view.series) throw new LinkError('syntax', 'both ~cols and ~rows are given', { code: 'bothSeries' });
          view.series = decodeSeries(raw, key === '~rows' ? 'rows' : 'cols');
          break;
        case '~cmp': {
          const v = parseValue(unescape(raw));
          if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new LinkError('view', 'the comparison (~cmp) must be a list of fields in ( )', { code: 'cmpShape' });
          for (const name of Object.keys(v)) {
            if (!Object.hasOwn(fields, name)) throw new LinkError('view', `the comparison changes “${excerpt(name)}”, which is not a field of ${kind}`, { code: 'cmpField', key: excerpt(name), kind });
          }
          compare = v;
          break;
        }
        case '~lang':
          lang = viewValue('lang', parseValue(unescape(raw)), (v) => `unknown language “${excerpt(v)}”`, 'lang');
          break;
        default:
          if (key.startsWith('~x.')) {
            const name = key.slice(3);
            if (!KEY.test(name) || FORBIDDEN_KEYS.has(name) || VIEW_KEYS.includes(name)) {
              throw new LinkError('view', `bad view key “${excerpt(key)}”`, { code: 'viewKey', key: excerpt(key) });
            }
            view[name] = parseValue(unescape(raw));
          }
          // Other ~keys: a later v1 page's view state; ignored.
      }
    } catch (e) {
      drop(excerpt(key), e);
    }
  }
  // The spec: a field the validator refuses is dropped (back to its default) and the rest tried
  // again; a refusal that names no field of the link (a rule between fields) keeps the old answer.
  let full = null;
  for (;;) {
    try {
      full = normalizeSpec(spec);
      break;
    } catch (e) {
      const field = String(e?.param ?? '').split(/[.[]/)[0];
      if (e?.name !== 'PEError' || !given.has(field)) throw new LinkError('spec', e?.message ?? String(e), whyOf(e));
      dropped.push({ key: field, detail: e.message, ...withWhy(whyOf(e)) });
      given.delete(field);
      spec[field] = fields[field].default;
    }
  }
  if (compare) {
    try {
      normalizeSpec({ ...full, ...compare, kind });
      view.compare = compare;
    } catch (e) {
      dropped.push({ key: '~cmp', detail: `the comparison's setting B is not valid: ${e?.message ?? e}`,
        why: { code: 'compare', inner: whyOf(e), message: String(e?.message ?? e) } });
    }
  }
  return { status: 'ok', version: 1, kind, spec: full, view, lang, hasParams: true, dropped };
}

// The explorer's first links: #kind?field=value&…, JSON for objects and lists.
function decodeLegacy(body) {
  const q = body.indexOf('?');
  const kind = checkKind(q < 0 ? body : body.slice(0, q));
  if (q < 0 || q === body.length - 1) return { status: 'ok', version: 0, kind, spec: null, view: {}, lang: null, hasParams: false };
  const fields = SCHEMA[kind].fields;
  const spec = defaults(kind);
  for (const [name, raw] of splitParams(body.slice(q + 1).replace(/\+/g, '%20'))) {
    if (!Object.hasOwn(fields, name) || FORBIDDEN_KEYS.has(name)) throw new LinkError('spec', `“${excerpt(name)}” is not a field of ${kind}`, { code: 'notField', key: excerpt(name), kind });
    const text = raw === null ? '' : unescape(raw);
    const f = fields[name];
    if (f.type === 'int' || f.type === 'number') spec[name] = text === '' ? NaN : Number(text);
    else if (f.type === 'bool') spec[name] = text === 'true';
    else if (f.type === 'enum' || f.type === 'string') spec[name] = text;
    else {
      try {
        spec[name] = JSON.parse(text, (k, v) => {
          if (FORBIDDEN_KEYS.has(k)) throw new LinkError('syntax', `the key “${k}” is not allowed`, { code: 'keyForbidden', key: k });
          return v;
        });
      } catch (e) {
        if (e instanceof LinkError) throw e;
        throw new LinkError('syntax', `${name} is not valid JSON`, { code: 'json', key: name });
      }
    }
  }
  return { status: 'ok', version: 0, kind, spec: validSpec(spec), view: {}, lang: null, hasParams: true };
}

/**
 * Reads a fragment (location.hash, with or without its #). Returns
 *   { status: 'ok', version, kind, spec, view, lang, hasParams }   spec normalized (null for a
 *                                                                  bare #kind catalogue link)
 *   { status: 'empty' }                                            no fragment
 *   { status: 'error', reason, detail, why? }                      fall back; say why
 * `dropped` (v1) lists { key, detail, why? } of the fields left out. `detail` is English; `why`
 * holds the same as data (LinkError above) for a notice in the page's language.
 */
export function decodePermalink(hash) {
  try {
    const text = typeof hash === 'string' ? hash : '';
    if (text.length > MAX_FRAGMENT) throw new LinkError('toolong', `${text.length} characters (the limit is ${MAX_FRAGMENT})`, { code: 'toolong', length: text.length, limit: MAX_FRAGMENT });
    const body = text.startsWith('#') ? text.slice(1) : text;
    if (body === '') return { status: 'empty' };
    const m = /^v([0-9]{1,6})\//.exec(body);
    if (m) {
      if (Number(m[1]) !== PERMALINK_VERSION) throw new LinkError('version', `v${m[1]}`);
      return decodeV1(body.slice(m[0].length));
    }
    if (/^v[0-9]+(?:$|[^A-Za-z0-9_])/.test(body)) throw new LinkError('version', excerpt(body.split(/[/?]/)[0], 12));
    if (/^[A-Za-z][A-Za-z0-9_]*(\?|$)/.test(body)) return decodeLegacy(body);
    throw new LinkError('syntax', `“${excerpt(unescapeLoose(body))}” is not a PE Lab link`, { code: 'notLink', text: excerpt(unescapeLoose(body)) });
  } catch (e) {
    if (e instanceof LinkError) return { status: 'error', reason: e.reason, detail: e.detail, ...withWhy(e.why) };
    // A bug here must not blank the page: report it as a damaged link.
    return { status: 'error', reason: 'syntax', detail: excerpt(e?.message ?? e, 80) };
  }
}

function unescapeLoose(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

