// Numbers in a derived sentence linked to their marks in the figure (issue 29, as distill articles
// do): hovering or focusing a number highlights its place (a band, a cell, a line) and leaving it
// clears the highlight. The sentence is the string's own function in ./strings.js, never edited:
// linkSegments calls it with the marked numbers wrapped so that each comes out between private-use
// characters, and checks that, with the wrappers taken out, the text is exactly what the plain
// call gives (a number the string compares, `slow === 1`, or computes with, `p + k`, fails that
// check); a number the check refuses is found in the plain text instead when it occurs there
// exactly once. Numbers that cannot be placed stay plain text.
import { h } from '../../plot/dom.js';
import { ensureStyles } from '../../views/common.js';
import './marks-strings.js';

const OPEN = '\uE000';
const MID = '\uE001';
const CLOSE = '\uE002';
const WRAPPED = /\uE000(\d+)\uE001([^\uE000-\uE002]*)\uE002/g;
const strip = (s) => s.replace(WRAPPED, '$2');

/** A parameter that prints itself between markers and computes as its value. */
class Wrapped {
  constructor(i, value) {
    this.i = i;
    this.value = value;
  }

  wrap(text) {
    return `${OPEN}${this.i}${MID}${text}${CLOSE}`;
  }

  [Symbol.toPrimitive](hint) {
    return hint === 'string' ? this.wrap(String(this.value)) : this.value;
  }

  toString() {
    return this.wrap(String(this.value));
  }

  toLocaleString(...args) {
    return this.wrap(this.value.toLocaleString(...args));
  }
}

function call(t, key, params, names, wrapNames) {
  const p = { ...params };
  for (const name of wrapNames) p[name] = new Wrapped(names.indexOf(name), params[name]);
  try {
    const out = t(key, p);
    return typeof out === 'string' ? out : null;
  } catch {
    return null;
  }
}

/** The text split at the wrapped numbers: [{ text, name? }]. */
function split(text, names) {
  const out = [];
  let at = 0;
  for (const m of text.matchAll(WRAPPED)) {
    if (m.index > at) out.push({ text: text.slice(at, m.index) });
    out.push({ text: m[2], name: names[Number(m[1])] });
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push({ text: text.slice(at) });
  return out;
}

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Where `value` is written in the plain segments: the only whole-number occurrence, or null. */
function findOnce(segments, value) {
  const texts = new Set([String(value)]);
  if (typeof value === 'number' && Math.abs(value) >= 10000) texts.add(value.toLocaleString('en-US'));
  let found = null;
  for (const text of texts) {
    // Not part of a longer number: no digit, decimal point or group separator before or after.
    const re = new RegExp(`(?<![\\d.,])${escape(text)}(?![\\d]|[.,]\\d)`, 'g');
    segments.forEach((seg, si) => {
      if (seg.name) return;
      for (const m of seg.text.matchAll(re)) {
        if (found) found.many = true;
        else found = { si, at: m.index, length: text.length };
      }
    });
  }
  return found && !found.many ? found : null;
}

/**
 * The sentence t(key, params) in segments [{ text, name? }], `name` on the numbers of `names`
 * (parameter names) that could be placed. The texts joined are always t(key, params).
 */
export function linkSegments(t, key, params, names) {
  const plain = t(key, params);
  const wanted = names.filter((n) => params[n] !== undefined && params[n] !== null);
  const accepted = [];
  for (const name of wanted) {
    const out = call(t, key, params, wanted, [...accepted, name]);
    if (out !== null && strip(out) === plain && out.includes(`${OPEN}${wanted.indexOf(name)}${MID}`)) accepted.push(name);
  }
  const segments = accepted.length ? split(call(t, key, params, wanted, accepted), wanted) : [{ text: plain }];
  for (const name of wanted.filter((n) => !accepted.includes(n))) {
    const f = findOnce(segments, params[name]);
    if (!f) continue;
    const seg = segments[f.si].text;
    segments.splice(f.si, 1, ...[
      { text: seg.slice(0, f.at) },
      { text: seg.slice(f.at, f.at + f.length), name },
      { text: seg.slice(f.at + f.length) },
    ].filter((s) => s.text));
  }
  return segments;
}

/** The figures whose highlights a paragraph last showed (to clear them when it is rebuilt). */
const shownBy = new WeakMap();

/**
 * Writes t(key, params) into `p`, each number of `marks` ({ name: { on, shape, where } }) a
 * span that acts as a button (role, tab stop, Enter / Space): hover or focus shows on.highlight(shape), leaving or blur clears it. `where` says in
 * words what is highlighted (its accessible name: the number, then that). Returns the names linked.
 */
export function writeLinked(p, t, key, params, marks) {
  ensureStyles(new URL('./marks.css', import.meta.url));
  for (const fig of shownBy.get(p) ?? []) fig.highlight(null);
  const figs = new Set(Object.values(marks).map((m) => m.on));
  shownBy.set(p, figs);
  const segments = linkSegments(t, key, params, Object.keys(marks));
  let active = null;
  const show = (b, m) => {
    if (active && active !== b) active.classList.remove('is-marked');
    active = b;
    b.classList.add('is-marked');
    for (const f of figs) if (f !== m.on) f.highlight(null);
    m.on.highlight(m.shape);
  };
  const hide = (b, m) => {
    if (active !== b) return;
    active = null;
    b.classList.remove('is-marked');
    m.on.highlight(null);
  };
  p.replaceChildren(...segments.map((s) => {
    if (!s.name) return s.text;
    const m = marks[s.name];
    // A span, not a <button>: an inline box breaks with the text around it ("0, the steepest"
    // would otherwise wrap before its comma); role, tab stop and keys make it a button.
    const b = h('span', {
      role: 'button', tabindex: 0, class: 'learn-mark', 'data-mark': s.name,
      'aria-label': t('learn.mark.label', { text: s.text, where: m.where }), text: s.text,
    });
    b.addEventListener('pointerenter', () => show(b, m));
    b.addEventListener('pointerleave', () => {
      if (document.activeElement !== b) hide(b, m);
    });
    b.addEventListener('focus', () => show(b, m));
    b.addEventListener('blur', () => hide(b, m));
    // A tap on a phone (no hover) shows it too, and Enter or Space as on a button.
    b.addEventListener('click', () => show(b, m));
    b.addEventListener('keydown', (e) => {
      if (e.key !== 'Enter' && e.key !== ' ') return;
      e.preventDefault();
      show(b, m);
    });
    return b;
  }));
  return segments.filter((s) => s.name).map((s) => s.name);
}
