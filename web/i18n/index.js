// The page's languages. Every string the page shows lives in one file per language (en.js,
// ko.js, same keys); the field labels and help of each kind come from the schema ({ en, ko }).
// A missing key falls back to English, then to the key itself.
import baseEn from './en.js';
import baseKo from './ko.js';

// Each family's views keep their strings in web/views/<family>/strings.js ({ en, ko }), which
// registers them when the family's code arrives, so the first page does not carry them. The
// share layer's strings (web/share/strings.js) come with web/share/page.js, which the shell loads
// at once (a damaged link's notice needs them).
const en = { ...baseEn };
const ko = { ...baseKo };

export const STRINGS = { en, ko };

/** Adds a family's strings ({ en, ko }) to the dictionaries; every translator sees them. */
export function registerStrings(area) {
  Object.assign(en, area.en);
  Object.assign(ko, area.ko);
}

export const LANGS = Object.keys(STRINGS);
/** Each language's name in itself, for the switcher. */
export const LANG_NAMES = { en: 'English', ko: '한국어' };

/**
 * The language to start in: ?lang= in the URL, then the one the user chose before, then the
 * first of the browser's languages (navigator.languages) that the page has, then English.
 */
export function pickLang({ query = null, stored = null, languages = [] } = {}) {
  for (const candidate of [query, stored, ...languages]) {
    if (!candidate) continue;
    const base = String(candidate).toLowerCase().split(/[-_]/)[0];
    if (STRINGS[base]) return base;
  }
  return 'en';
}

/** t(key, ...args) in one language: a string, or the result of the string's function. */
export function translator(lang) {
  const dict = STRINGS[lang] ?? en;
  const t = (key, ...args) => {
    const v = dict[key] ?? en[key];
    if (v === undefined) return key;
    return typeof v === 'function' ? v(...args) : v;
  };
  t.lang = lang;
  t.has = (key) => dict[key] !== undefined || en[key] !== undefined;
  /** A schema text ({ en, ko } or a plain string) in this language. */
  t.tr = (text) => {
    if (text == null) return '';
    if (typeof text === 'string') return text;
    return text[lang] ?? text.en ?? '';
  };
  return t;
}

/** The same key in every language, as a schema-style text { en, ko }. */
export function both(key, ...args) {
  const out = {};
  for (const lang of LANGS) {
    const v = STRINGS[lang][key] ?? en[key];
    out[lang] = typeof v === 'function' ? v(...args) : v;
  }
  return out;
}

/**
 * The first key of `${prefix}.${suffix}` that exists (in English), as { en, ko }: a view's text
 * for this kind when there is one, else for its output class, else a generic one.
 */
export function textFor(prefix, ...suffixes) {
  for (const s of suffixes) {
    if (s != null && en[`${prefix}.${s}`] !== undefined) return both(`${prefix}.${s}`);
  }
  return both(prefix);
}
