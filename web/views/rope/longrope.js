// LongRoPE (rope_type "longrope", Phi-3): every frequency pair has its own divisor, one list for
// contexts up to the original training length (short_factor) and one beyond it (long_factor).
// This view draws both lists against the pair index (log scale), marks the one the current length
// uses, and states the switch and the attention factor from the kernel's own result. For any other
// spec it explains the idea and offers Phi-3.5-mini's published factors.
import { h, uid } from '../../plot/dom.js';
import { both } from '../../i18n/index.js';
import { formatInt, formatValue } from '../../plot/format.js';
import { longropeOriginal, longropeList, longropeScale } from '../../api/schema/rope.js';
import { phi35Spec } from '../../api/models.js';
import { DataTable, spread } from '../datatable.js';
import { ensureRopeStyles, ropeType, formatLength, logAxis, linePlotView } from './common.js';
import { drawer, makePlot } from '../common.js';

/**
 * What the view states about a longrope spec, from the kernel's result: { list, o, scale,
 * attention_factor, derived, short: [min, max], long: [min, max] }. Exported for the tests.
 */
export function longropeSummary(spec, result) {
  const r = spec.rope_scaling;
  const range = (v) => [Math.min(...v), Math.max(...v)];
  return {
    list: longropeList(spec),
    o: longropeOriginal(spec),
    scale: longropeScale(spec),
    attention_factor: result.attention_factor,
    derived: r.attention_factor === null,
    short: range(r.short_factor),
    long: range(r.long_factor),
  };
}

export default {
  id: 'rope-longrope',
  kinds: ['rope'],
  title: both('rope.long.title'),
  explain: both('rope.long.explain'),

  mount(el, ctx) {
    ensureRopeStyles();
    const { t } = ctx;
    const id = uid('rlong');
    let state = null;
    let plot = null;

    const summary = h('div', { class: 'rope-summary', id: `${id}-summary`, 'aria-live': 'polite' });
    const tryPhi = h('button', {
      type: 'button', class: 'chip', 'data-action': 'phi35', text: t('rope.long.tryPhi'),
      on: { click: () => ctx.setSpec(phi35Spec(4096)) },
    });
    const box = h('div', { class: 'lp-box' });
    el.append(summary, h('div', { class: 'view-toolbar' }, tryPhi), box);
    const table = new DataTable(el, { summary: t('table.summary') });
    const screen = drawer(el, draw);
    const plotReady = makePlot(box, { t, xLabel: t('axis.pair'), yLabel: t('rope.long.y'), label: t('rope.long.aria') }).then((p) => {
      plot = p;
      if (state) screen.request();
    });

    function draw() {
      if (!state) return false;
      const { spec, result } = state;
      const isLong = ropeType(spec) === 'longrope' && !spec.grid_height;
      el.dataset.longrope = isLong ? longropeList(spec) : 'none';
      tryPhi.hidden = isLong;
      box.hidden = !isLong;
      table.details.hidden = !isLong;
      if (!isLong) {
        summary.replaceChildren(h('p', { text: t('rope.long.none') }));
        return true;
      }
      const s = longropeSummary(spec, result);
      const r = spec.rope_scaling;
      const lines = [
        h('p', { text: s.list === 'long' ? t('rope.long.usingLong', formatLength(spec.length), formatLength(s.o)) : t('rope.long.usingShort', formatLength(spec.length), formatLength(s.o)) }),
        h('p', { text: t('rope.long.ranges', formatValue(s.short[0]), formatValue(s.short[1]), formatValue(s.long[0]), formatValue(s.long[1])) }),
        h('p', {
          text: s.derived
            ? (s.scale > 1 ? t('rope.long.afDerived', formatValue(s.attention_factor), formatValue(s.scale), formatLength(s.o)) : t('rope.long.afOne', formatValue(s.scale)))
            : t('rope.long.afGiven', formatValue(s.attention_factor)),
        }),
      ];
      summary.replaceChildren(...lines);
      if (!plot) return false;
      const log = (v) => Float32Array.from(v, (x) => Math.log10(x));
      const all = [...r.short_factor, ...r.long_factor];
      const lo = Math.log10(Math.min(...all));
      const hi = Math.log10(Math.max(...all));
      // The list in use drawn thick.
      const width = (list) => (s.list === list ? 4 : 1.5);
      plot.batch(() => {
        plot.setData({
          series: [
            { label: s.list === 'short' ? t('rope.long.inUse', 'short_factor') : 'short_factor', values: log(r.short_factor), width: width('short') },
            { label: s.list === 'long' ? t('rope.long.inUse', 'long_factor') : 'long_factor', values: log(r.long_factor), width: width('long') },
          ],
          x0: 0,
        });
        logAxis(plot, Math.min(lo, 0), Math.max(hi, 0.5));
      });
      table.set(() => {
        const n = r.short_factor.length;
        const idx = spread(n, 48);
        return {
          caption: t('rope.long.caption', s.list),
          columns: [t('axis.pair'), 'short_factor', 'long_factor', t('rope.long.invCol')],
          rows: idx.map((i) => [formatInt(i), formatValue(r.short_factor[i]), formatValue(r.long_factor[i]), formatValue(result.inv_freq[i])]),
          note: idx.length < n ? t('table.sampledRows', idx.length, n) : '',
        };
      });
      return true;
    }

    return linePlotView({
      box, screen, plotReady, plot: () => plot, setState: (next) => { state = next; },
    });
  },
};
