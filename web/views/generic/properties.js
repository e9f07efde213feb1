// The properties view of additive tables ([positions, dim], added to the token embeddings):
// four properties a positional encoding is often said to have, each computed from the table
// on screen (web/views/generic/properties-math.js, in a worker) rather than asserted.
import { h } from '../../plot/dom.js';
import { both } from '../../i18n/index.js';
import { formatInt, formatMs, formatValue, float32String } from '../../plot/format.js';
import { DataTable, spread } from '../datatable.js';
import { whenNearViewport } from '../lazy.js';
import { rowOffset } from '../../model/output.js';

const DEBOUNCE_MS = 60;

export default {
  id: 'properties',
  kinds: (info) => info.additive,
  title: both('view.properties.title'),
  explain: both('view.properties.explain'),

  mount(el, ctx) {
    const { t } = ctx;
    let worker = null;
    let requestId = 0;
    let timer = 0;
    let state = null;
    let p0 = 0; // row offset of the table on screen

    const tile = (key) => {
      const value = h('p', { class: 'prop-value', 'aria-live': 'polite' });
      const detail = h('div', { class: 'prop-detail' });
      const section = h('section', { class: `prop prop-${key}` },
        h('h4', { text: t(`view.properties.${key}.title`) }),
        h('p', { class: 'prop-what', text: t(`view.properties.${key}.what`) }),
        value, detail);
      return { section, value, detail };
    };
    const uniq = tile('unique');
    const linear = tile('linear');
    const cons = tile('consistency');
    const dots = tile('dot');
    const grid = h('div', { class: 'props-grid' }, uniq.section, linear.section, cons.section, dots.section);
    el.append(grid);
    const status = h('p', { class: 'view-stats' });
    el.append(status);

    const plotBox = h('div', { class: 'lp-box lp-small' });
    dots.detail.append(plotBox);
    let plot = null; // made with the first numbers (Chart.js loads in its own chunk)
    // Asked for once the view is on screen and the next frame has been painted: Chart.js stays off
    // the first screen's load and main-thread work.
    const plotReady = new Promise((resolve) => whenNearViewport(el, () => requestAnimationFrame(() => setTimeout(resolve, 0)), '0px'))
      .then(() => import('../../plot/lineplot.js'))
      .then(({ LinePlot }) => {
        plot = new LinePlot(plotBox, {
          t, xLabel: t('view.properties.dot.x'), yLabel: t('view.properties.dot.y'), label: t('view.properties.dot.title'), compact: true,
        });
        return plot;
      });
    let destroyed = false;
    const table = new DataTable(dots.detail, { summary: t('table.summary') });

    function pending() {
      for (const tl of [uniq, linear, cons, dots]) tl.section.classList.add('is-pending');
      status.textContent = t('view.properties.computing');
    }

    function send() {
      timer = 0;
      if (!state) return;
      const { result } = state;
      const [rows, cols] = result.shape;
      worker ??= startWorker();
      requestId += 1;
      const data = result.data.slice(); // the views share result.data: send a copy
      worker.postMessage({ id: requestId, data, rows, cols }, [data.buffer]);
      pending();
    }

    function startWorker() {
      const w = new Worker(new URL('./properties-worker.js', import.meta.url), { type: 'module' });
      w.onmessage = (e) => {
        const { id, part, value, ms } = e.data;
        if (id !== requestId) return;
        show(part, value);
        status.textContent = part === 'linear' ? t('view.properties.done', formatMs(ms)) : t('view.properties.computing');
        el.dataset.done = part === 'linear' ? String(id) : '';
      };
      w.onerror = (e) => {
        status.textContent = t('view.properties.failed', e.message || '');
      };
      return w;
    }

    const pos = (p) => formatInt(p + p0);

    function show(part, v) {
      if (part === 'consistency') {
        cons.section.classList.remove('is-pending');
        if (!v) {
          cons.value.textContent = t('view.properties.tooShort', 8);
          cons.detail.textContent = '';
          return;
        }
        cons.value.textContent = t('view.properties.consistency.value', {
          a: v.first.map(pos), b: v.second.map(pos), normA: formatValue(v.normA), normB: formatValue(v.normB), cos: formatValue(v.cosine),
        });
        // The note follows the numbers: equal or unequal lengths, and whether the two steps are
        // the same vector or point different ways.
        const scale = Math.max(v.normA, v.normB, 1e-30);
        const same = Math.abs(v.normA - v.normB) <= 1e-5 * scale;
        const identical = v.distance <= 1e-5 * scale;
        const note = identical ? t('view.properties.consistency.noteIdentical')
          : same ? t('view.properties.consistency.noteTurned', formatValue(v.distance), formatValue(v.cosine))
            : t('view.properties.consistency.noteDiffer', formatValue(v.distance));
        cons.detail.replaceChildren(h('p', { class: `verdict ${same ? 'ok' : 'no'}`, text: t(same ? 'view.properties.consistency.same' : 'view.properties.consistency.differ') }),
          h('p', { class: 'help', text: note }));
      } else if (part === 'pairwise') {
        uniq.section.classList.remove('is-pending');
        dots.section.classList.remove('is-pending');
        if (!v) {
          uniq.value.textContent = t('view.properties.tooShort', 2);
          return;
        }
        const [i, j] = v.minPair;
        uniq.value.textContent = t('view.properties.unique.value', { dist: float32String(v.minDist), i: pos(i), j: pos(j) });
        const unique = v.minDist > 0;
        uniq.detail.replaceChildren(
          h('p', { class: `verdict ${unique ? 'ok' : 'no'}`, text: unique ? t('view.properties.unique.yes') : t('view.properties.unique.no', pos(i), pos(j)) }),
          h('p', { class: 'help', text: t('view.properties.unique.range', formatValue(v.maxDist)) + (v.partial ? ` ${t('view.properties.partial', v.n)}` : '') }));
        // Mean dot product against distance.
        plotReady.then((p) => {
          if (!destroyed) p.setData({ series: [{ label: t('view.properties.dot.series'), values: v.meanDot }], x0: 0 });
        });
        const m = v.meanDot.length; // every distance, also when the pairs above were limited
        dots.value.textContent = t('view.properties.dot.value', formatValue(v.meanDot[0]), formatValue(v.meanDot[Math.min(m - 1, 1)]),
          formatValue(v.meanDot[m - 1]), m - 1);
        table.set(() => {
          const idx = spread(m, 24);
          return {
            caption: t('view.properties.dot.title'),
            columns: [t('view.properties.dot.x'), t('view.properties.dot.y')],
            rows: idx.map((k) => [formatInt(k), formatValue(v.meanDot[k])]),
            note: idx.length < m ? t('table.sampledRows', idx.length, m) : '',
          };
        });
      } else if (part === 'linear') {
        linear.section.classList.remove('is-pending');
        if (v.skipped) {
          linear.value.textContent = t(`view.properties.linear.${v.skipped}`, v.maxDim);
          linear.detail.textContent = '';
          return;
        }
        const worst = Math.max(...v.fits.map((f) => f.residual));
        linear.value.textContent = t('view.properties.linear.value', formatValue(worst));
        const rows = v.fits.map((f) => h('tr', {}, h('th', { scope: 'row', text: formatInt(f.k) }), h('td', { text: formatValue(f.residual) })));
        const exact = worst < 1e-4;
        linear.detail.replaceChildren(
          h('table', { class: 'mini-table' },
            h('caption', { class: 'sr-only', text: t('view.properties.linear.title') }),
            h('thead', {}, h('tr', {}, h('th', { scope: 'col', text: 'k' }), h('th', { scope: 'col', text: t('view.properties.linear.residual') }))),
            h('tbody', {}, rows)),
          h('p', { class: `verdict ${v.underdetermined ? 'warn' : exact ? 'ok' : 'no'}`,
            text: v.underdetermined ? t('view.properties.linear.underdetermined', v.n, v.rank)
              : exact ? t('view.properties.linear.yes') : t('view.properties.linear.no') }),
          h('p', { class: 'help', text: v.pairing ? t('view.properties.linear.notePairs', v.n) : t('view.properties.linear.note', v.n, v.rank) }));
      }
    }

    return {
      update(next) {
        state = next;
        p0 = rowOffset(ctx.info, next.spec);
        grid.classList.toggle('stale', !!next.stale);
        if (next.changed.has('theme')) plot?.applyTheme();
        if (!next.changed.has('result')) return;
        pending();
        clearTimeout(timer);
        timer = setTimeout(send, requestId === 0 ? 0 : DEBOUNCE_MS);
      },
      destroy() {
        clearTimeout(timer);
        worker?.terminate();
        destroyed = true;
        plotReady.then((p) => p.destroy());
      },
    };
  },
};
