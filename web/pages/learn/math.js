// Formulas for the Learn path as MathML, typeset by the browser itself with the math font this
// module ships (./math-font.js, a subset of DejaVu Math TeX Gyre: without a font with a MATH table,
// Chromium stretched brackets differently per language, issue 29). A formula is written as nested
// calls: row(mi('p'), mo('+'), mn(1)); math() puts it in a box that scrolls sideways on a phone.
import { h } from '../../plot/dom.js';
import { ensureStyles } from '../../views/common.js';
import { MATH_FONT_FAMILY, MATH_FONT_WOFF2 } from './math-font.js';

const NS = 'http://www.w3.org/1998/Math/MathML';

let font = null;
/**
 * Adds the math font to the document (once) and links ./math-font.css, which gives it to <math>.
 * The FontFace is built from bytes, not a URL: nothing is fetched, so the page's font-src policy
 * ('self', or 'none' in the offline single file) does not apply. Returns the FontFace.
 */
export function loadMathFont() {
  if (!font) {
    ensureStyles(new URL('./math-font.css', import.meta.url));
    const bin = atob(MATH_FONT_WOFF2.replace(/\s+/g, ''));
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    font = new FontFace(MATH_FONT_FAMILY, bytes);
    document.fonts.add(font);
    font.load().catch((err) => console.warn('the math font did not load:', err));
  }
  return font;
}

/** The name of a formula's scrolling box, in the page's language. */
const BOX_LABEL = { en: 'Formula', ko: '수식' };

function node(tag, children, attrs = {}) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  for (const c of children) el.append(typeof c === 'string' ? c : c);
  return el;
}

export const mi = (x, attrs) => node('mi', [String(x)], attrs);
export const mn = (x) => node('mn', [String(x)]);
export const mo = (x) => node('mo', [String(x)]);
export const row = (...c) => node('mrow', c);
export const sup = (base, exp) => node('msup', [base, exp]);
export const sub = (base, index) => node('msub', [base, index]);
export const subsup = (base, index, exp) => node('msubsup', [base, index, exp]);
export const frac = (a, b) => node('mfrac', [a, b]);
export const sqrt = (...c) => node('msqrt', c);
export const paren = (...c) => row(mo('('), ...c, mo(')'));
export const under = (base, below) => node('munder', [base, below]);
export const matrix = (rows) => row(mo('['), node('mtable', rows.map((r) => node('mtr', r.map((c) => node('mtd', [c]))))), mo(']'));
/** A function name (sin, cos) with the thin space that follows it. */
export const fn = (name) => row(mi(name, { mathvariant: 'normal' }), node('mspace', [], { width: '0.17em' }));

/**
 * A display formula with a text alternative (read by screen readers), in a box that scrolls
 * sideways when the formula is wider than the page: focusable (the keyboard scrolls it too) and
 * named in the page's language.
 */
export function math(label, ...children) {
  loadMathFont();
  const formula = node('math', [row(...children)], { display: 'block', 'aria-label': label, class: 'learn-math' });
  const lang = document.documentElement.lang;
  return h('div', { class: 'learn-math-box', role: 'region', tabindex: 0, 'aria-label': BOX_LABEL[lang] ?? BOX_LABEL.en }, formula);
}

// --- the formulas the steps show ----------------------------------------------------------------

const w = (i) => sub(mi('ω'), mi(i));
const PE = (...arg) => row(mi('PE'), paren(...arg));

export const FORMULAS = {
  sinusoids: () => math('PE(p, 2i) = sin(p·ω_i), PE(p, 2i+1) = cos(p·ω_i), ω_i = base^(−2i/d)',
    PE(mi('p'), mo(','), mn(2), mi('i')), mo('='), fn('sin'), paren(mi('p'), w('i')), mo(','), mspace(),
    PE(mi('p'), mo(','), mn(2), mi('i'), mo('+'), mn(1)), mo('='), fn('cos'), paren(mi('p'), w('i')), mo(','), mspace(),
    w('i'), mo('='), sup(fn('base'), row(mo('−'), frac(row(mn(2), mi('i')), mi('d'))))),
  shift: () => math('PE(p+k) = M_k PE(p), each pair rotated by k ω_i',
    PE(mi('p'), mo('+'), mi('k')), mo('='), sub(mi('M'), mi('k')), PE(mi('p')), mo(','), mspace(),
    matrix([[row(fn('sin'), paren(paren(mi('p'), mo('+'), mi('k')), w('i')))], [row(fn('cos'), paren(paren(mi('p'), mo('+'), mi('k')), w('i')))]]),
    mo('='),
    matrix([[row(fn('cos'), mi('k'), w('i')), row(fn('sin'), mi('k'), w('i'))], [row(mo('−'), fn('sin'), mi('k'), w('i')), row(fn('cos'), mi('k'), w('i'))]]),
    matrix([[row(fn('sin'), mi('p'), w('i'))], [row(fn('cos'), mi('p'), w('i'))]])),
  dot: () => math('PE(p)·PE(p+k) = sum over i of cos(k ω_i)',
    PE(mi('p')), mo('·'), PE(mi('p'), mo('+'), mi('k')), mo('='), under(mo('∑'), mi('i')), fn('cos'), paren(mi('k'), w('i'))),
  relative: () => math('s(i, j) = q_i·k_j / sqrt(d) + b(j − i); ALiBi: b = −m (i − j)',
    mi('s'), paren(mi('i'), mo(','), mi('j')), mo('='), frac(row(sub(mi('q'), mi('i')), mo('·'), sub(mi('k'), mi('j'))), sqrt(mi('d'))),
    mo('+'), mi('b'), paren(mi('j'), mo('−'), mi('i')), mo(','), mspace(), fn('ALiBi'), mo(':'), mi('b'), mo('='), mo('−'), mi('m'), paren(mi('i'), mo('−'), mi('j'))),
  rope: () => math('R(m θ) q · R(n θ) k = q · R((n − m) θ) k',
    row(mi('R'), paren(mi('m'), mi('θ')), mi('q')), mo('·'), row(mi('R'), paren(mi('n'), mi('θ')), mi('k')), mo('='),
    mi('q'), mo('·'), mi('R'), paren(paren(mi('n'), mo('−'), mi('m')), mi('θ')), mi('k'), mo(','), mspace(),
    mi('R'), paren(mi('φ')), mo('='), matrix([[row(fn('cos'), mi('φ')), row(mo('−'), fn('sin'), mi('φ'))], [row(fn('sin'), mi('φ')), row(fn('cos'), mi('φ'))]])),
  decay: () => math('s(δ) = (2/d) sum over i of cos(δ θ_i)',
    mi('s'), paren(mi('δ')), mo('='), frac(mn(2), mi('d')), under(mo('∑'), mi('i')), fn('cos'), paren(mi('δ'), sub(mi('θ'), mi('i')))),
};

function mspace() {
  return node('mspace', [], { width: '1em' });
}
