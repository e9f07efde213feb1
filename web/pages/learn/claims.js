// Claim checks on the Learn path: one short box per claim that tutorials repeat (the claim, what
// is right with the number that shows it, the source), placed at the end of a step. The
// numbers come from ./claims-compute.js (the API), the words from ./claims-strings.js. The box
// carries its values in data-values (tests/browser/claims.test.js compares them with Node's).
// The sinusoids step's "tables" check holds a small "read the values" widget.
import { h, uid } from '../../plot/dom.js';
import { ensureStyles } from '../../views/common.js';
import { PRESETS } from '../arena/presets.js';
import { settingsParams } from '../arena/experiment.js';
import { claimsOf, readValues, fmt5 } from './claims-compute.js';
import { SOURCES } from './claims-strings.js';
import { encodePermalink } from '../../share/permalink.js';
import { formatInt } from '../../plot/format.js';

/** The Arena with one of its presets, in the page's language (as web/app/pages.js pageHash writes it). */
function arenaHash(presetId, lang) {
  const preset = PRESETS.find((p) => p.id === presetId);
  const q = Object.entries(settingsParams(preset.settings));
  if (lang && lang !== 'en') q.push(['~lang', lang]);
  return `#arena?${q.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v).replace(/%2C/g, ',')}`).join('&')}`;
}

/** One claim-check box: the claim, what is right (with its numbers), extra content, the sources. */
export function claimBox(t, id, values, extra = []) {
  const sources = SOURCES[id] ?? [];
  return h('aside', { class: 'claim-check', 'data-claim': id, 'data-values': JSON.stringify(values), 'aria-label': `${t('claim.label')}: ${t(`claim.${id}.claim`)}` },
    h('p', { class: 'claim-head' },
      h('span', { class: 'claim-tag', text: t('claim.label') }), ' ',
      h('span', { class: 'claim-usual', text: t('claim.usual') }), ' ',
      h('q', { class: 'claim-said', text: t(`claim.${id}.claim`).replace(/^“|”$/g, '') })),
    h('p', { class: 'claim-right', text: t(`claim.${id}.right`, values) }),
    ...extra,
    sources.length ? h('p', { class: 'claim-source' }, h('span', { text: t('claim.source') }), ' ',
      ...sources.flatMap((s, i) => [i ? '; ' : '', h('cite', { lang: 'en', translate: 'no' }, h('a', { href: s.href, rel: 'noopener', target: '_blank', text: s.text }))])) : '');
}

/** A small labelled number field. */
function field(label, { min, max, step = 1, value }) {
  const id = uid('claim-f');
  const input = h('input', { id, type: 'number', min, max, step, value, inputmode: 'numeric' });
  return { input, el: h('label', { class: 'claim-field', for: id }, h('span', { text: label }), input) };
}

/** "Read the values": position, d, columns, base and layout in, the float32 values out. */
export function valueReader(pe, t, start = { p: 5, dim: 512, from: 2, count: 3, base: 10000, layout: 'interleaved' }) {
  const p = field(t('claim.read.p'), { min: 0, max: 1000000, value: start.p });
  const d = field(t('claim.read.d'), { min: 2, max: 4096, step: 2, value: start.dim });
  const from = field(t('claim.read.from'), { min: 0, max: 4095, value: start.from });
  const count = field(t('claim.read.count'), { min: 1, max: 8, value: start.count });
  const base = field(t('claim.read.base'), { min: 2, max: 1e9, value: start.base });
  const layoutId = uid('claim-l');
  const layout = h('select', { id: layoutId }, ...['interleaved', 'concat', 'tensor2tensor'].map((v) => h('option', { value: v, text: t(`claim.read.${v}`) })));
  layout.value = start.layout;
  const out = h('output', { class: 'claim-values', 'aria-live': 'polite' });
  const box = h('fieldset', { class: 'claim-reader' }, h('legend', { text: t('claim.read.title') }),
    h('div', { class: 'claim-fields' }, p.el, d.el, from.el, count.el, base.el,
      h('label', { class: 'claim-field', for: layoutId }, h('span', { text: t('claim.read.layout') }), layout)),
    out);
  function read() {
    try {
      const r = readValues(pe, {
        p: Number(p.input.value), dim: Number(d.input.value), from: Number(from.input.value),
        count: Math.min(8, Math.max(1, Number(count.input.value))), base: Number(base.input.value), layout: layout.value,
      });
      out.replaceChildren(...r.cols.map((c, i) => h('span', { class: 'claim-value', 'data-col': c },
        h('small', { text: t('claim.read.col', c) }), h('strong', { text: fmt5(r.values[i]) }))));
      box.dataset.values = r.values.map(fmt5).join(', ');
    } catch (err) {
      out.replaceChildren(h('span', { class: 'claim-error', text: t('claim.read.error', err?.message ?? String(err)) }));
      box.dataset.values = '';
    }
  }
  for (const el of [p.input, d.input, from.input, count.input, base.input, layout]) el.addEventListener('input', read);
  layout.addEventListener('change', read);
  read();
  return box;
}

/** The claim checks of one step, as elements (none when the step has none). env: { pe, t, lang }. */
export function claimChecks(stepId, { pe, t, lang }) {
  const claims = claimsOf(stepId);
  if (!claims.length) return [];
  ensureStyles(new URL('./claims.css', import.meta.url));
  return claims.map((c) => {
    const extra = [];
    if (c.id === 'tables') extra.push(valueReader(pe, t));
    if (c.id === 'base10000') {
      // The base-10000 claim's real limits, measured: the same d and base in the precision lab.
      const spec = { kind: 'rope_precision', length: 8192, dim: 512, base: 10000, recipe: 'float32' };
      extra.push(h('p', { class: 'claim-link' }, h('a', {
        href: encodePermalink({ kind: spec.kind, spec, lang }), text: t('claim.precisionLab', { d: spec.dim, base: formatInt(spec.base) }),
      })));
    }
    if (c.id === 'sinExtrapolate') extra.push(h('p', { class: 'claim-link' }, h('a', { href: arenaHash('absolute', lang), text: t('claim.arena') })));
    return claimBox(t, c.id, c.compute(pe), extra);
  });
}

/** A step that also shows its claim checks, in one group at the end of the step. */
export function withClaims(step) {
  return {
    ...step,
    mount(env) {
      const handle = step.mount(env);
      let boxes = [];
      try {
        boxes = claimChecks(step.id, env);
      } catch (err) {
        console.warn(err);   // a claim check that cannot compute leaves the step as it was
      }
      // After the step's own flow (figure, sentence, question, explorer link): a side note, not a detour.
      if (boxes.length) (env.derived.closest('article') ?? env.derived.parentElement).append(h('div', { class: 'claim-checks' }, ...boxes));
      return handle;
    },
  };
}
