// Wavelength of every frequency pair (2π/θᵢ, log scale) against the training context: the pairs
// that complete a full turn inside it and those that never do, which is why RoPE models fail
// beyond the length they were trained on; with rope_scaling, the scaled wavelengths beside the
// original ones and how many pairs still reach angles never seen in training.
import { h, uid } from '../../plot/dom.js';
import { both } from '../../i18n/index.js';
import { formatInt, formatValue } from '../../plot/format.js';
import { DataTable } from '../datatable.js';
import {
  ensureRopeStyles, trainingContext, targetContext, ropeType, unscaled, formatLength, logAxis, isAxialSpec,
  linePlotView,
} from './common.js';
import { drawer, makePlot, numberField, readInt } from '../common.js';

const TWO_PI = 2 * Math.PI;
const MAX_CONTEXT = 2 ** 31 - 1;

/**
 * The numbers of the view for a spec, its inv_freq and the unscaled inv_freq: wavelengths, the
 * pairs that turn fully within the training context and those reaching unseen angles at the
 * target context. Exported for the tests.
 */
export function wavelengthFacts(spec, invFreq, baseFreq, train) {
  const n = invFreq.length;
  const target = targetContext(spec, train);
  const scaled = new Float64Array(n);
  const orig = new Float64Array(n);
  let full = 0;
  let unseen = 0;
  let safe = Infinity;
  for (let i = 0; i < n; i++) {
    scaled[i] = TWO_PI / invFreq[i];
    orig[i] = TWO_PI / baseFreq[i];
    if (orig[i] <= train) {
      full++;
      continue;
    }
    // A pair that never turned fully in training meets new angles at positions past
    // train·θᵢ/θ'ᵢ (its scaled angle passes the largest one seen); a little slack for float32.
    safe = Math.min(safe, (train * baseFreq[i]) / invFreq[i]);
    if (target !== null && target * invFreq[i] > train * baseFreq[i] * (1 + 1e-5)) unseen++;
  }
  // The longest input on which every pair stays within the angles seen in training.
  if (Number.isFinite(safe)) safe = Math.abs(Math.round(safe) - safe) <= 1e-5 * safe ? Math.round(safe) : Math.floor(safe);
  return { n, scaled, orig, full, never: n - full, unseen, target, safe };
}

export default {
  id: 'rope-wavelengths',
  kinds: ['rope'],
  title: both('rope.wave.title'),
  explain: both('rope.wave.explain'),

  mount(el, ctx) {
    ensureRopeStyles();
    const { t, pe } = ctx;
    const id = uid('rwave');
    let state = null;
    let plot = null;
    let facts = null;

    const ctxField = numberField(`${id}-ctx`, t('rope.wave.context'), { min: 1, max: MAX_CONTEXT });
    const ctxNote = h('p', { class: 'help', id: `${id}-ctx-note` });
    ctxField.input.setAttribute('aria-describedby', ctxNote.id);
    ctxField.input.addEventListener('input', () => {
      const v = readInt(ctxField.input, 1, MAX_CONTEXT);
      if (v === null) ctxField.input.setAttribute('aria-invalid', 'true');
      else ctxField.input.removeAttribute('aria-invalid');
      if (v !== null) ctx.setShared({ ropeContext: v });
    });
    el.append(h('div', { class: 'view-toolbar' }, ctxField.wrap), ctxNote);

    const summary = h('div', { class: 'rope-summary', 'aria-live': 'polite' });
    const box = h('div', { class: 'lp-box' });
    el.append(summary, box);
    const table = new DataTable(el, { summary: t('table.summary') });
    const screen = drawer(el, draw);
    const plotReady = makePlot(box, { t, xLabel: t('axis.pair'), yLabel: t('rope.wave.y'), label: t('rope.wave.aria') }).then((p) => {
      plot = p;
      if (state) screen.request();
    });

    function compute() {
      const { spec, result, shared } = state;
      const train = trainingContext(spec, shared);
      let baseFreq = result.inv_freq;
      if (ropeType(spec) !== 'default') baseFreq = pe.compute({ ...unscaled(spec), length: 1 }).inv_freq;
      facts = { ...wavelengthFacts(spec, result.inv_freq, baseFreq, train.value), train };
    }

    function draw() {
      if (!state) return false;
      compute();
      const { spec } = state;
      const f = facts;
      const type = ropeType(spec);
      const scaledOn = type !== 'default';

      // The context box: the config's value (read-only) or the user's.
      const fromSpec = f.train.from !== null;
      if (document.activeElement !== ctxField.input || fromSpec) ctxField.input.value = String(f.train.value);
      ctxField.input.disabled = fromSpec;
      ctxNote.textContent = fromSpec ? t('rope.wave.contextFrom', f.train.from) : t('rope.wave.contextOwn');

      const lines = [h('p', { text: t('rope.wave.full', { n: f.n, full: f.full, never: f.never, train: formatLength(f.train.value) }) })];
      if (scaledOn && f.target !== null) {
        lines.push(h('p', {
          class: f.unseen ? 'rope-warn' : 'rope-ok',
          text: t('rope.wave.scaled', {
            type, train: formatLength(f.train.value), safe: Number.isFinite(f.safe) ? formatLength(f.safe) : null,
            times: formatValue(f.safe / f.train.value), target: formatLength(f.target), unseen: f.unseen,
          }),
        }));
      } else if (!isAxialSpec(spec)) {
        lines.push(h('p', { class: 'help', text: t('rope.wave.tryScaling') }));
      }
      summary.replaceChildren(...lines);

      if (plot) {
        const log = (arr) => Float32Array.from(arr, (v) => Math.log10(v));
        const series = [];
        const waveName = scaledOn ? t('rope.wave.unscaled') : t('rope.wave.series');
        series.push({ label: waveName, values: log(f.orig) });
        if (scaledOn) series.push({ label: t('rope.wave.scaledSeries', type), values: log(f.scaled) });
        const flat = (v) => new Float32Array(f.n).fill(Math.log10(v));
        series.push({ label: t('rope.wave.trainLine', formatLength(f.train.value)), values: flat(f.train.value), dash: true });
        if (scaledOn && f.target !== null && f.target !== f.train.value) {
          series.push({ label: t('rope.wave.targetLine', formatLength(f.target)), values: flat(f.target), dash: true });
        }
        let lo = Infinity;
        let hi = -Infinity;
        for (const s of series) for (const v of s.values) {
          if (v < lo) lo = v;
          if (v > hi) hi = v;
        }
        plot.batch(() => {
          logAxis(plot, lo, hi);
          plot.setData({ series, x0: 0 });
        });
        box.classList.toggle('stale', !!state.stale);
      }
      table.set(() => ({
        caption: t('rope.wave.caption', formatLength(f.train.value)),
        columns: [t('axis.pair'), scaledOn ? t('rope.wave.unscaled') : t('rope.wave.series'),
          ...(scaledOn ? [t('rope.wave.scaledSeries', type)] : []), t('rope.wave.turns'), t('rope.wave.fullCol')],
        rows: Array.from({ length: f.n }, (_, i) => [
          formatInt(i), formatLength(f.orig[i]), ...(scaledOn ? [formatLength(f.scaled[i])] : []),
          formatLength(f.train.value / f.orig[i]), f.orig[i] <= f.train.value ? t('rope.yes') : t('rope.no'),
        ]),
      }));
      return !!plot;
    }

    return linePlotView({
      box, screen, plotReady, plot: () => plot, setState: (next) => { state = next; }, redrawOn: ['result', 'shared:ropeContext'],
    });
  },
};
