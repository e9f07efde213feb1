// Position similarity (for the kinds learned and sinusoidal): the cosine similarity of every pair
// of rows, cos(PE(p), PE(q)), as a heatmap, beside the same matrix for a reference table of the
// same size (sinusoidal for a learned table, the random initialisation for a sinusoidal one). With
// a trained table loaded in the load view (GPT-2's wpe, …) the left one is that table.
//
// The matrix is computed in a worker (similarity-worker.js, math.js: unit rows, then 2 × 4 tiles
// of dot products over the lower triangle): about 0.3 s for GPT-2's 1024 × 768 on one core,
// off the main thread, which only copies the table's first rows (the worker computes the
// reference table itself, with its own instance of the WebAssembly API). Only the first N rows are used, N ≤ 1024 and N²·dim ≤ 2^30, so the work
// stays bounded; the reference's matrix is cached (it changes only with N and dim).
import { Heatmap } from '../../plot/heatmap.js';
import { h, uid } from '../../plot/dom.js';
import { both } from '../../i18n/index.js';
import { SCHEMA } from '../../api/schema/index.js';
import { float32String, formatInt, formatMs, formatValue } from '../../plot/format.js';
import { DataTable, spread } from '../datatable.js';
import { block } from './math.js';
import { meanByDistance } from '../../model/similarity.js';
import { heatmapKernels } from '../../model/pixels.js';
import { drawer } from '../common.js';

const MAX_ROWS = 1024;
const WORK = 2 ** 30; // N² · dim
const DEBOUNCE_MS = 60;
const DISTANCES = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512];
const REFERENCES = { learned: ['sinusoidal', 'learned', 'none'], sinusoidal: ['learned', 'none'] };

/** How many leading rows to compare: all of them up to MAX_ROWS, fewer for very wide tables. */
export function similarityRows(rows, cols) {
  return Math.max(1, Math.min(rows, MAX_ROWS, Math.floor(Math.sqrt(WORK / Math.max(cols, 1)))));
}

export default {
  id: 'absolute-similarity',
  kinds: ['learned', 'sinusoidal'],
  title: both('absolute.sim.title'),
  explain: both('absolute.sim.explain'),

  mount(el, ctx) {
    const { t, pe, kind } = ctx;
    const tr = t.tr;
    const id = uid('sim');
    let state = null;
    let worker = null;
    let timer = 0;
    let requestId = 0;
    const pending = { current: 0, ref: 0 };
    let ref = REFERENCES[kind][0];
    const refCache = { key: '', sim: null, n: 0 };
    let current = null; // { sim, n, offset }

    const select = h('select', { id: `${id}-ref` },
      REFERENCES[kind].map((r) => h('option', { value: r, text: t(`absolute.sim.ref.${r}`) })));
    select.value = ref;
    select.addEventListener('input', () => {
      ref = select.value;
      refPane.hidden = ref === 'none';
      schedule(0);
    });
    const status = h('p', { class: 'view-stats', role: 'status' });
    el.append(h('div', { class: 'view-toolbar' },
      h('div', { class: 'tool-field' }, h('label', { for: select.id, text: t('absolute.sim.compareWith') }), select), status));

    const grid = h('div', { class: 'bias-pair bias-waiting' });
    const axes = { x: t('axis.position'), y: t('axis.position'), value: t('absolute.sim.value') };
    const pane = (titleEl) => {
      const p = h('section', { class: 'bias-pane bias-sim-pane' }, titleEl);
      grid.append(p);
      return p;
    };
    const curTitle = h('h4', { class: 'bias-pane-title' });
    const refTitle = h('h4', { class: 'bias-pane-title' });
    const curPane = pane(curTitle);
    const refPane = pane(refTitle);
    const hmCur = new Heatmap(curPane, { ...heatmapKernels(ctx.pe), t, axes, compact: true, colormap: 'diverging', label: t('absolute.sim.title') });
    const hmRef = new Heatmap(refPane, { ...heatmapKernels(ctx.pe), t, axes, compact: true, colormap: 'diverging', label: t('absolute.sim.title') });
    el.append(grid);

    const summaryTitle = h('h4', { class: 'bias-subtitle', text: t('absolute.sim.byDistance') });
    const summary = h('div', { class: 'table-scroll bias-sim-summary', tabindex: 0, role: 'region', 'aria-label': t('absolute.sim.byDistance') });
    const readHelp = h('p', { class: 'help bias-why' });
    el.append(summaryTitle, summary, readHelp);
    const table = new DataTable(el, { summary: t('table.summary') });

    const drawing = drawer(el, () => schedule());

    function startWorker() {
      const w = new Worker(new URL('./similarity-worker.js', import.meta.url), { type: 'module' });
      w.onmessage = (e) => {
        const { id: rid, slot, sim, rows, ms, error } = e.data;
        if (rid !== pending[slot]) return;
        pending[slot] = -1;
        if (error) {
          status.textContent = t('absolute.sim.failed', error);
          return;
        }
        grid.classList.remove('bias-waiting');
        if (slot === 'ref') {
          Object.assign(refCache, { sim, n: rows });
          hmRef.setData({ data: sim, rows, cols: rows, range: [-1, 1] });
        } else {
          current = { sim, n: rows, offset: current?.pendingOffset ?? 0 };
          hmCur.setData({ data: sim, rows, cols: rows, range: [-1, 1], rowOffset: current.offset, colOffset: current.offset });
        }
        showSummary();
        const busy = pending.current > 0 || pending.ref > 0;
        status.textContent = busy ? t('absolute.sim.computing') : t('absolute.sim.done', formatMs(ms), formatInt(rows));
        if (!busy) el.dataset.done = String(requestId);
      };
      w.onerror = (e) => {
        status.textContent = t('absolute.sim.failed', e.message || '');
      };
      return w;
    }

    /** One table to the worker: its values (transferred), or a spec for the worker to compute. */
    function post(slot, { data = null, spec = null }, rows, cols) {
      worker ??= startWorker();
      requestId += 1;
      pending[slot] = requestId;
      worker.postMessage({ id: requestId, slot, data, spec, rows, cols }, data ? [data.buffer] : []);
    }

    function send() {
      timer = 0;
      if (!state) return;
      const t0 = performance.now();
      const { result, spec } = state;
      const [rows, cols] = result.shape;
      const n = similarityRows(rows, cols);
      current = { ...(current ?? {}), pendingOffset: kind === 'sinusoidal' && !result.format ? spec.offset ?? 0 : 0 };
      el.dataset.done = '';
      status.textContent = t('absolute.sim.computing');
      post('current', { data: block(result.data, cols, n, cols) }, n, cols); // a copy: the views share result.data
      if (ref !== 'none') {
        const key = JSON.stringify([ref, n, cols]);
        if (key !== refCache.key) {
          refCache.key = key;
          refCache.sim = null;
          post('ref', { spec: { ...pe.defaults(ref), length: n, dim: cols } }, n, cols);
        }
      }
      titles(n, rows);
      el.dataset.sendMs = (performance.now() - t0).toFixed(1); // the main thread's part: one copy
    }

    function schedule(ms = DEBOUNCE_MS) {
      clearTimeout(timer);
      timer = setTimeout(send, requestId === 0 ? 0 : ms);
    }

    function titles(n, rows) {
      const r = state.result;
      const name = r.format ? t('absolute.sim.loaded', r.name ?? `.${r.format}`, r.shape.map(formatInt).join(' × ')) : tr(SCHEMA[kind].label);
      curTitle.textContent = name;
      refTitle.textContent = ref === 'none' ? '' : t(`absolute.sim.refTitle.${ref}`);
      curTitle.title = curTitle.textContent;
      refTitle.title = refTitle.textContent;
      hmCur.label = name;
      el.dataset.rows = String(n);
      readHelp.textContent = n < rows ? `${t('absolute.sim.read')} ${t('absolute.sim.firstRows', formatInt(n), formatInt(rows))}` : t('absolute.sim.read');
    }

    function showSummary() {
      const ks = DISTANCES.filter((k) => current && k < current.n);
      const curMeans = current?.sim ? meanByDistance(current.sim, current.n, ks) : [];
      const refOn = ref !== 'none' && refCache.sim;
      const refMeans = refOn ? meanByDistance(refCache.sim, refCache.n, ks) : [];
      const cell = (v) => (v === undefined || Number.isNaN(v) ? '—' : formatValue(v));
      summary.replaceChildren(h('table', { class: 'mini-table' },
        h('caption', { class: 'sr-only', text: t('absolute.sim.byDistance') }),
        h('thead', {}, h('tr', {}, h('th', { scope: 'col', text: t('absolute.sim.kApart') }),
          h('th', { scope: 'col', text: curTitle.textContent }),
          refOn ? h('th', { scope: 'col', text: t(`absolute.sim.refShort.${ref}`) }) : null)),
        h('tbody', {}, ks.map((k, i) => h('tr', {}, h('th', { scope: 'row', text: formatInt(k) }),
          h('td', { text: cell(curMeans[i]) }), refOn ? h('td', { text: cell(refMeans[i]) }) : null)))));
      table.set(() => {
        const n = current?.n ?? 0;
        const idx = spread(n, 12);
        const off = current?.offset ?? 0;
        return {
          caption: t('absolute.sim.tableCaption', curTitle.textContent, n),
          columns: [`${t('axis.position')} \\ ${t('axis.position')}`, ...idx.map((q) => formatInt(q + off))],
          rows: idx.map((p) => [formatInt(p + off), ...idx.map((q) => float32String(current.sim[p * n + q]))]),
          note: idx.length < n ? t('table.sampled', idx.length, n, idx.length, n) : '',
        };
      });
    }

    return {
      update(next) {
        state = next;
        grid.classList.toggle('stale', !!next.stale);
        hmCur.setStale(next.stale);
        if (!next.changed.has('result')) return;
        status.textContent = t('absolute.sim.computing');
        drawing.request(); // computed only once the view is (nearly) on screen
      },
      destroy() {
        drawing.destroy();
        clearTimeout(timer);
        worker?.terminate();
        hmCur.destroy();
        hmRef.destroy();
      },
    };
  },
};
