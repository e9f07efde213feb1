// "Error by position": the worst angle error of each row (result.row_error, the max over the
// pairs) against the position, on a log scale, for every row the page computed (up to 2^20, and
// anywhere up to 2^31 via `offset`). The LinePlot (web/plot/lineplot.js) hands Chart.js at most
// one minimum and one maximum per pixel column of the visible range (decimate), so a million rows
// draw as cheaply as a thousand and no spike is lost; zooming in resamples. The first collision
// (a row equal to the one before) is marked. Buttons move the window far out by setting `offset`.
import { h, uid } from '../../plot/dom.js';
import { both } from '../../i18n/index.js';
import { float32String, formatInt, formatValue } from '../../plot/format.js';
import { PE_MAX_POSITION } from '../../api/schema/limits.js';
import { DataTable, spread } from '../datatable.js';
import { drawer, sup, withLinePlot } from '../common.js';
import { ensurePrecisionStyles, finiteRange, log10Of, logY, recipeControls, recipeLabel, setMarks, useMarks } from './common.js';

/** Where the jump buttons put the window: centred on 2^k (clamped to the positions allowed). */
const JUMPS = [0, 16, 20, 24, 30];

export default {
  id: 'precision-position',
  kinds: ['rope_precision'],
  title: both('precision.pos.title'),
  explain: both('precision.pos.explain'),

  mount(el, ctx) {
    ensurePrecisionStyles();
    const { t, schema } = ctx;
    let state = null;
    let plot = null;
    let mod = null;
    let destroyed = false;
    let logs = null; // log10 of row_error, per result
    let logsOf = null;

    const jumps = h('div', { class: 'chips', role: 'group', 'aria-label': t('precision.pos.jumpLabel') });
    const jumpButtons = JUMPS.map((k) => {
      const b = h('button', {
        type: 'button', class: 'chip', 'data-jump': k, text: k ? t('precision.pos.jumpTo', `2${sup(k)}`, formatInt(2 ** k)) : t('precision.pos.jumpStart'),
        on: { click: () => jump(k) },
      });
      jumps.append(b);
      return b;
    });
    const stats = h('p', { class: 'view-stats' });
    const recipe = recipeControls(ctx, `${uid('ppos')}`);
    el.append(recipe.el,
      h('div', { class: 'view-toolbar' }, h('span', { class: 'prec-tool-label', text: t('precision.pos.jumpLabel') }), jumps, stats));
    const summary = h('p', { class: 'prec-summary', 'aria-live': 'polite' });
    const box = h('div', { class: 'lp-box' });
    el.append(summary, box);
    const table = new DataTable(el, { summary: t('table.summary') });

    function jump(k) {
      if (!state) return;
      const L = state.spec.length;
      const centre = k ? 2 ** k : 0;
      const offset = Math.max(0, Math.min(PE_MAX_POSITION - L, centre - Math.floor(L / 2)));
      ctx.setSpec({ offset });
    }

    const drawing = drawer(el, draw);
    withLinePlot((m) => {
      if (destroyed) return;
      mod = m;
      plot = new m.LinePlot(box, { t, xLabel: t('precision.x.position'), yLabel: t('precision.y.error'), label: t('precision.pos.aria') });
      useMarks(plot);
      if (state) drawing.request();
    });

    function draw() {
      if (!state || !plot || destroyed) return false;
      const { result, spec } = state;
      if (logsOf !== result) {
        logs = log10Of(result.row_error);
        logsOf = result;
      }
      const label = recipeLabel(t, schema, spec.recipe);
      plot.setData({ series: [{ label, values: logs }], x0: spec.offset });
      const [lo, hi] = finiteRange(logs);
      logY(plot, Math.max(lo, -17), Math.min(Math.max(hi, lo + 1), 1), float32String);
      const fc = result.first_collision;
      setMarks(plot, fc >= 0 ? [{ x: fc, label: t('precision.pos.mark', formatInt(fc)), color: mod.seriesColor(3) }] : []);
      plot.chart.update('none');
      el.dataset.firstCollision = String(fc);
      el.dataset.rows = String(result.row_error.length);
      return true;
    }

    function describe() {
      const { result, spec } = state;
      const re = result.row_error;
      let worst = 0;
      let at = 0;
      for (let r = 0; r < re.length; r++) {
        if (re[r] > worst || (Number.isNaN(re[r]) && worst === worst)) {
          worst = re[r];
          at = r;
        }
      }
      const first = spec.offset;
      const last = spec.offset + spec.length - 1;
      stats.textContent = t('precision.pos.stats', formatInt(first), formatInt(last), formatInt(re.length));
      const fc = result.first_collision;
      summary.textContent = [
        t('precision.pos.worst', formatValue(worst), formatInt(first + at), recipeLabel(t, schema, spec.recipe)),
        fc >= 0 ? t('precision.pos.collide', formatInt(fc), formatInt(result.collisions)) : t('precision.pos.noCollide'),
      ].join(' ');
      for (const b of jumpButtons) {
        const k = Number(b.dataset.jump);
        const inside = k ? first <= 2 ** k && 2 ** k <= last : first === 0;
        b.setAttribute('aria-pressed', String(inside));
      }
      table.set(() => {
        const idx = spread(re.length, 40);
        if (fc >= 0 && !idx.includes(fc - first)) idx.push(fc - first);
        idx.sort((a, b) => a - b);
        return {
          caption: t('precision.pos.caption', formatInt(first), formatInt(last)),
          columns: [t('precision.x.position'), t('precision.y.error')],
          rows: idx.map((r) => [formatInt(first + r), float32String(re[r])]),
          note: idx.length < re.length ? t('table.sampledRows', idx.length, re.length) : '',
        };
      });
    }

    return {
      update(next) {
        state = next;
        box.classList.toggle('stale', !!next.stale);
        if (next.changed.has('theme') && plot) plot.applyTheme();
        if (next.changed.has('result')) {
          recipe.show(next.spec.recipe);
          describe();
        }
        if (next.changed.has('result') || next.changed.has('theme')) drawing.request();
      },
      destroy() {
        destroyed = true;
        drawing.destroy();
        plot?.destroy();
      },
    };
  },
};
