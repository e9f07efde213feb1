// Every rope_scaling method on one plot: scaled inv_freq ÷ original inv_freq per frequency pair,
// for linear, dynamic NTK (at a chosen length), YaRN, Llama 3.1 and static NTK-aware, all with
// the current spec's factor and training context, each computed by the kernel (pe.compute). The
// current method is drawn thick. Linear divides every pair by the factor; YaRN and Llama 3.1
// keep the fast pairs, divide the slow ones and blend between (a ramp, bands); the NTK rules
// change the base, so every pair but the first is slowed a little more than the one before.
import { h, uid } from '../../plot/dom.js';
import { both } from '../../i18n/index.js';
import { formatInt, formatValue } from '../../plot/format.js';
import { DataTable, spread } from '../datatable.js';
import {
  ensureRopeStyles, trainingContext, ropeType, sameFreqAtLength, formatLength, METHODS, DEFAULT_FACTOR, linePlotView,
} from './common.js';
import { drawer, makePlot, numberField, readInt } from '../common.js';

const MAX_LEN = 2 ** 31 - 1;

/** The rope_scaling of `type` with the current spec's factor and training context L. */
function scalingFor(type, spec, factor, L) {
  const cur = spec.rope_scaling;
  if (cur?.rope_type === type) {
    const sc = { ...cur };
    if ((type === 'yarn' || type === 'llama3') && !sc.original_max_position_embeddings) sc.original_max_position_embeddings = L;
    return sc;
  }
  switch (type) {
    case 'yarn': return { rope_type: type, factor, original_max_position_embeddings: L };
    case 'llama3': return { rope_type: type, factor, original_max_position_embeddings: L, low_freq_factor: 1, high_freq_factor: 4 };
    default: return { rope_type: type, factor };
  }
}

/**
 * The ratio curves: { methods: [{ type, ratio: Float64Array, attention_factor, error }], pairs }.
 * A 1-row table holds each method's inv_freq; dynamic NTK's depends on the length, so it runs on
 * an equivalent 2-row spec (sameFreqAtLength). Exported for the tests.
 */
export function scalingRatios(pe, spec, { factor, context, dynLength }) {
  // The 1-D frequencies of this base and size (axial 2-D RoPE has no scaling).
  const base = { ...spec, grid_height: null, grid_width: null, length: 1 };
  const orig = pe.compute({ ...base, rope_scaling: null }).inv_freq;
  const methods = METHODS.map((type) => {
    const own = ropeType(spec) === type;
    let s = { ...base, rope_scaling: scalingFor(type, spec, factor, context) };
    if (!own || !spec.max_position_embeddings) s.max_position_embeddings = context;
    if (type === 'dynamic') s = sameFreqAtLength({ ...s, length: dynLength }, 2);
    try {
      const r = pe.compute(s);
      const ratio = Float64Array.from(r.inv_freq, (v, i) => v / orig[i]);
      return { type, ratio, attention_factor: r.attention_factor, error: null };
    } catch (err) {
      return { type, ratio: null, attention_factor: 1, error: err?.message ?? String(err) };
    }
  });
  return { methods, pairs: orig.length };
}

/** The pairs where a ratio curve leaves 1 and where it reaches 1/factor: [first < 1, first ≈ 1/f]. */
function band(ratio, factor) {
  let a = -1;
  let b = -1;
  for (let i = 0; i < ratio.length; i++) {
    if (a < 0 && ratio[i] < 1 - 1e-5) a = i;
    if (b < 0 && ratio[i] <= (1 / factor) * (1 + 1e-5)) b = i;
  }
  return [a, b];
}

export default {
  id: 'rope-scaling',
  kinds: ['rope'],
  title: both('rope.scale.title'),
  explain: both('rope.scale.explain'),

  mount(el, ctx) {
    ensureRopeStyles();
    const { t, pe } = ctx;
    const id = uid('rscale');
    let state = null;
    let plot = null;
    let ownFactor = DEFAULT_FACTOR;
    let dynLength = null; // the user's length for dynamic NTK, or null: follow the context

    const factorField = numberField(`${id}-factor`, t('rope.scale.factor'), { min: 1, max: 1000, step: 'any' });
    const ctxField = numberField(`${id}-ctx`, t('rope.wave.context'), { min: 1, max: MAX_LEN });
    const dynField = numberField(`${id}-dyn`, t('rope.scale.dynLength'), { min: 1, max: MAX_LEN });
    const note = h('p', { class: 'help', id: `${id}-note` });
    for (const f of [factorField, ctxField, dynField]) f.input.setAttribute('aria-describedby', note.id);
    const invalid = (input, bad) => (bad ? input.setAttribute('aria-invalid', 'true') : input.removeAttribute('aria-invalid'));
    factorField.input.addEventListener('input', () => {
      const v = Number(factorField.input.value);
      const ok = factorField.input.value.trim() !== '' && Number.isFinite(v) && v > 0 && v <= 1000;
      invalid(factorField.input, !ok);
      if (ok) {
        ownFactor = v;
        screen.request();
      }
    });
    ctxField.input.addEventListener('input', () => {
      const v = readInt(ctxField.input, 1, MAX_LEN);
      invalid(ctxField.input, v === null);
      if (v !== null) ctx.setShared({ ropeContext: v });
    });
    dynField.input.addEventListener('input', () => {
      const v = readInt(dynField.input, 1, MAX_LEN);
      invalid(dynField.input, v === null);
      if (v !== null) {
        dynLength = v;
        screen.request();
      }
    });
    el.append(h('div', { class: 'view-toolbar' }, factorField.wrap, ctxField.wrap, dynField.wrap), note);
    const summary = h('div', { class: 'rope-summary', 'aria-live': 'polite' });
    const box = h('div', { class: 'lp-box' });
    el.append(summary, box);
    const table = new DataTable(el, { summary: t('table.summary') });
    const screen = drawer(el, draw);
    const plotReady = makePlot(box, { t, xLabel: t('axis.pair'), yLabel: t('rope.scale.y'), label: t('rope.scale.aria') }).then((p) => {
      plot = p;
      if (state) screen.request();
    });

    function draw() {
      if (!state) return false;
      const { spec, shared } = state;
      const current = ropeType(spec);
      const train = trainingContext(spec, shared);
      const specFactor = spec.rope_scaling?.factor;
      const factor = specFactor ?? ownFactor;
      const L = train.value;
      const dyn = dynLength ?? (current === 'dynamic' ? Math.max(spec.length, L) : Math.round(L * factor));

      if (document.activeElement !== factorField.input || specFactor != null) factorField.input.value = String(factor);
      factorField.input.disabled = specFactor != null;
      if (document.activeElement !== ctxField.input || train.from) ctxField.input.value = String(L);
      ctxField.input.disabled = !!train.from;
      if (document.activeElement !== dynField.input) dynField.input.value = String(dyn);
      const fixed = [specFactor != null ? 'factor' : null, train.from].filter(Boolean);
      note.textContent = fixed.length ? t('rope.scale.fromSpec', fixed.join(', ')) : t('rope.scale.own');

      const { methods, pairs } = scalingRatios(pe, spec, { factor, context: L, dynLength: dyn });
      const lines = [h('p', {
        text: current === 'default'
          ? t('rope.scale.noScaling', formatValue(factor), formatLength(L))
          : t('rope.scale.current', current, formatValue(factor), formatLength(L)),
      })];
      for (const m of methods) {
        if (m.error) {
          lines.push(h('p', { class: 'rope-warn', text: t('rope.scale.failed', m.type, m.error) }));
          continue;
        }
        const [a, b] = band(m.ratio, factor);
        if (m.type === 'yarn') lines.push(h('p', { text: t('rope.scale.yarnBand', a, b, formatValue(m.attention_factor)) }));
        if (m.type === 'llama3') lines.push(h('p', { text: t('rope.scale.llamaBand', a, b) }));
        if (m.type === 'dynamic' && !(m.ratio[pairs - 1] < 1 - 1e-6)) lines.push(h('p', { class: 'help', text: t('rope.scale.dynNone', formatLength(dyn), formatLength(L)) }));
      }
      // YaRN's factor depends on the transformers version (docs/transformers-versions.md): say
      // which one this is, and what the other computes, when they differ for this spec.
      const sc = spec.rope_scaling;
      if (current === 'yarn' && sc.original_max_position_embeddings != null && spec.max_position_embeddings != null) {
        const ratio = spec.max_position_embeddings / sc.original_max_position_embeddings;
        const before = sc.convention === 'before_4.56';
        const p = h('p', { class: 'rope-version', 'data-convention': sc.convention });
        p.textContent = ratio === sc.factor
          ? t('rope.scale.versionSame', formatValue(sc.factor))
          : before ? t('rope.scale.versionBefore', formatValue(ratio), formatValue(sc.factor))
            : t('rope.scale.versionSince', formatValue(sc.factor), formatValue(ratio));
        lines.push(p);
      }
      summary.replaceChildren(...lines);

      const shown = methods.filter((m) => m.ratio);
      const label = (m) => {
        const name = m.type === 'dynamic' ? t('rope.scale.dynAt', formatLength(dyn)) : m.type;
        return m.type === current ? t('rope.scale.currentMark', name) : name;
      };
      if (plot) {
        plot.batch(() => {
          // Room above 1 for the curves that keep a pair; labels on 0, 0.2, …, 1 only.
          plot.setAxis('y', {
            min: 0, max: 1.1, step: 0.1,
            format: (v) => (v <= 1 + 1e-9 && Math.abs(v * 5 - Math.round(v * 5)) < 1e-9 ? formatValue(v) : ''),
          });
          // The current method's curve drawn thick.
          plot.setData({ series: shown.map((m) => ({ label: label(m), values: Float32Array.from(m.ratio), width: m.type === current ? 4 : 1.5 })), x0: 0 });
        });
      }
      table.set(() => {
        const idx = spread(pairs, 32);
        return {
          caption: t('rope.scale.caption', formatValue(factor), formatLength(L)),
          columns: [t('axis.pair'), ...shown.map(label)],
          rows: idx.map((i) => [formatInt(i), ...shown.map((m) => formatValue(m.ratio[i]))]),
          note: idx.length < pairs ? t('table.sampledRows', idx.length, pairs) : '',
        };
      });
      return !!plot;
    }

    return linePlotView({
      box, screen, plotReady, plot: () => plot, setState: (next) => { state = next; }, redrawOn: ['result', 'shared:ropeContext'],
    });
  },
};
