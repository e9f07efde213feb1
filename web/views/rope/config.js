// "Paste your model's config": a Hugging Face config.json (or a preset, web/api/models.js) becomes the page's rope
// spec (web/api/hfconfig.js: fromHFConfig) through ctx.setSpec, so every view shows that model's
// RoPE. What was read from which key, every positional key used or ignored (and why), and
// fromHFConfig's notes are listed; a config that cannot be used says why here and leaves the
// current parameters alone. A config of another kind (ALiBi models, Qwen2-VL's M-RoPE) opens
// that kind through a permalink; other layer types (Gemma 3's sliding layers) are one click away.
import { h, uid } from '../../plot/dom.js';
import { both } from '../../i18n/index.js';
import { fromHFConfig } from '../../api/hfconfig.js';
import { PRESETS } from '../../api/models.js';
import { ensureRopeStyles } from './common.js';
import { specLink } from './link.js';
import { sameJSON } from '../../model/json.js';

const SHOWN = ['base', 'dim', 'partial_rotary_factor', 'layout', 'rope_scaling', 'max_position_embeddings', 'length'];

function showValue(v) {
  if (v === null || v === undefined) return '—';
  if (Array.isArray(v)) return v.length > 6 ? `[${v.length}: ${v[0]} … ${v[v.length - 1]}]` : `[${v.join(', ')}]`;
  if (typeof v === 'object') return Object.entries(v).filter(([, x]) => x !== null).map(([k, x]) => `${k}: ${showValue(x)}`).join(', ');
  return String(v);
}

/** Opens a spec: the rope parameters in place, another kind through its permalink. */
export function openSpec(ctx, spec) {
  if (spec.kind === 'rope') ctx.setSpec(spec);
  else location.hash = specLink(spec, ctx.t?.lang ?? 'en');
}

export default {
  id: 'rope-config',
  kinds: ['rope'],
  title: both('rope.cfg.title'),
  explain: both('rope.cfg.explain'),

  mount(el, ctx) {
    ensureRopeStyles();
    const { t, schema } = ctx;
    const id = uid('rcfg');
    let applied = null; // the spec set from a config, to tell when the user has moved on

    const chips = h('div', { class: 'chips', role: 'group', 'aria-label': t('rope.cfg.presets') });
    for (const p of PRESETS) {
      chips.append(h('button', {
        type: 'button', class: 'chip', 'data-preset': p.id, text: p.label, title: p.repo,
        on: {
          click: () => {
            area.value = JSON.stringify(p.config, null, 2);
            apply(p.label);
          },
        },
      }));
    }
    const area = h('textarea', {
      id: `${id}-text`, class: 'json rope-config-text', rows: 7, spellcheck: 'false', autocomplete: 'off',
      placeholder: '{ "hidden_size": 4096, "num_attention_heads": 32, "rope_theta": 500000, … }',
      'aria-describedby': `${id}-help`,
    });
    area.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        apply(null);
      }
    });
    const use = h('button', { type: 'button', class: 'button rope-primary', text: t('rope.cfg.use'), on: { click: () => apply(null) } });
    const error = h('p', { class: 'field-error', role: 'alert', id: `${id}-error` });
    error.hidden = true;
    const done = h('div', { class: 'rope-applied', role: 'status' });
    el.append(
      h('p', { class: 'help', text: t('rope.cfg.presetsHelp') }), chips,
      h('label', { class: 'rope-label', for: area.id, text: t('rope.cfg.label') }), area,
      h('p', { class: 'help', id: `${id}-help`, text: t('rope.cfg.help') }),
      h('div', { class: 'controls-actions' }, use), error, done);

    function fail(err) {
      const msg = err?.message ?? String(err);
      const param = String(err?.param ?? '');
      let text;
      if (param === 'config') text = t('rope.cfg.badJson', msg);
      else if (/(^|\.)(rope_type|type)$/.test(param)) text = t('rope.cfg.badType', msg);
      else text = t('rope.cfg.bad', msg);
      error.textContent = text;
      error.hidden = false;
      area.setAttribute('aria-invalid', 'true');
      area.setAttribute('aria-describedby', `${id}-help ${error.id}`);
    }

    function apply(label) {
      if (!area.value.trim()) {
        fail({ param: 'config', message: t('rope.cfg.empty') });
        return;
      }
      let out;
      try {
        out = fromHFConfig(area.value);
      } catch (err) {
        fail(err);
        return;
      }
      error.hidden = true;
      area.removeAttribute('aria-invalid');
      area.setAttribute('aria-describedby', `${id}-help`);
      const { spec, notes, from, report, alternates } = out;
      if (spec.kind !== 'rope') {
        openSpec(ctx, spec);   // the page moves to that kind; this view goes with the rope page
        return;
      }
      applied = spec;
      ctx.setSpec(spec);
      const rows = SHOWN.map((name) => {
        const f = schema.fields[name];
        let source = from[name] ? t('rope.cfg.fromKey', from[name]) : t('rope.cfg.default');
        if (name === 'length') source = t('rope.cfg.lengthRule');
        if (name === 'rope_scaling' && spec.rope_scaling) source = from['rope_scaling.original_max_position_embeddings'] ? 'rope_scaling, original_max_position_embeddings' : 'rope_scaling';
        else if (name === 'rope_scaling' && report.some((r) => !r.used && /^(text_config\.)?rope_(scaling|parameters)/.test(r.key))) source = t('rope.cfg.scalingIgnored');
        if (name === 'layout' && spec.layout === 'interleaved') source = t('rope.cfg.inferred');
        return h('tr', {}, h('th', { scope: 'row', text: t.tr(f?.label) || name }),
          h('td', {}, h('span', { class: 'rope-from-value', text: showValue(spec[name]) }), h('span', { class: 'rope-from-source', text: source })));
      });
      done.replaceChildren(...[
        h('p', { class: 'rope-ok', text: t('rope.cfg.applied', label ?? t('rope.cfg.yours')) }),
        h('table', { class: 'mini-table rope-from' },
          h('caption', { class: 'sr-only', text: t('rope.cfg.tableCaption') }),
          h('thead', {}, h('tr', {}, [t('rope.cfg.field'), t('rope.cfg.value')].map((c) => h('th', { scope: 'col', text: c })))),
          h('tbody', {}, rows)),
        alternates.length ? h('div', { class: 'chips rope-alternates', role: 'group', 'aria-label': t('rope.cfg.alternates') },
          alternates.map((a) => h('button', {
            type: 'button', class: 'chip', 'data-layers': a.layers, text: t('rope.cfg.showAlt', a.layers), title: t.tr(a),
            on: { click: () => openSpec(ctx, a.spec) },
          }))) : null,
        notes.length ? h('ul', { class: 'rope-notes' }, notes.map((n) => h('li', { text: t.tr(n) }))) : null,
        report.length ? h('details', { class: 'rope-report' },
          h('summary', { text: t('rope.cfg.keysSummary', report.filter((r) => r.used).length, report.filter((r) => !r.used).length) }),
          h('table', { class: 'mini-table rope-keys' },
            h('caption', { class: 'sr-only', text: t('rope.cfg.keysCaption') }),
            h('thead', {}, h('tr', {}, [t('rope.cfg.key'), t('rope.cfg.status'), t('rope.cfg.why')].map((c) => h('th', { scope: 'col', text: c })))),
            h('tbody', {}, report.map((r) => h('tr', { 'data-used': String(r.used) },
              h('th', { scope: 'row', text: r.key }),
              h('td', { text: r.used ? t('rope.cfg.used') : t('rope.cfg.ignored') }),
              h('td', { text: t.tr(r) })))))) : null,
        h('p', { class: 'help rope-moved', text: t('rope.cfg.moved') })].filter(Boolean));
      done.querySelector('.rope-moved').hidden = true;
    }

    return {
      update(next) {
        if (!applied || !next.changed.has('result')) return;
        const moved = SHOWN.some((k) => !sameJSON(next.spec[k], applied[k]));
        const note = done.querySelector('.rope-moved');
        if (note) note.hidden = !moved;
      },
      destroy() {},
    };
  },
};
