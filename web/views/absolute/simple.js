// Integer, binary and sinusoidal positions side by side (for the kinds integer, binary and
// sinusoidal): the same positions and dimensions as three heatmaps, and a chart of why each
// simpler one fails:
//   range  integer: the values grow with the length, without bound (largest |value| against length)
//   steps  binary: the distance between neighbours jumps, at powers of two (‖PE(p+1) − PE(p)‖)
//   bit    a sinusoid is the smooth version of a binary counter bit (bit k as ±1, the sine of the
//          same period, and the sinusoidal table's channel of the nearest wavelength)
//
// Cost: the tables are at most MAX_ROWS × MAX_COLS (the current kind's is a block of its result;
// the other two are computed once per length and dimension and cached), so an update is a few
// copies and three small heatmap draws, whatever the size of the current table.
import { Heatmap } from '../../plot/heatmap.js';
import { heatmapKernels } from '../../model/pixels.js';
import { h, uid } from '../../plot/dom.js';
import { both } from '../../i18n/index.js';
import { SCHEMA } from '../../api/schema/index.js';
import { formatInt, formatValue } from '../../plot/format.js';
import { DataTable, spread } from '../datatable.js';
import { bitWave, block, maxAbsPrefix, stepNorms } from './math.js';
import { drawer, segmented, withLinePlot } from '../common.js';

const KINDS = ['integer', 'binary', 'sinusoidal'];
const MAX_ROWS = 1024;
const MAX_COLS = 256;
const MAX_SIN_ELEMENTS = 1 << 21; // a sinusoidal table computed for comparison: rows × full dim
const TABS = ['range', 'steps', 'bit'];
const DEFAULT_TAB = { integer: 'range', binary: 'steps', sinusoidal: 'bit' };
const COLOR = { integer: 3, binary: 0, sinusoidal: 2, smooth: 1 };

/** ω of frequency pair i and the column holding its sine, for a sinusoidal spec of dim D. */
function sinChannels(spec, D) {
  const half = Math.floor(D / 2);
  const out = [];
  for (let i = 0; i < half; i++) {
    const omega = spec.layout === 'tensor2tensor'
      ? Math.exp((-i * Math.log(spec.base)) / Math.max(half - 1, 1))
      : spec.base ** ((-2 * i) / D);
    out.push({ i, omega, col: spec.layout === 'interleaved' ? 2 * i : i });
  }
  return out;
}

export default {
  id: 'absolute-simple',
  kinds: KINDS,
  title: both('absolute.simple.title'),
  explain: both('absolute.simple.explain'),

  mount(el, ctx) {
    const { t, pe, kind } = ctx;
    const tr = t.tr;
    const id = uid('bs');
    let state = null;
    let tab = DEFAULT_TAB[kind];
    let bit = null; // chosen by the user, or null: follow the length
    let mod = null;
    let destroyed = false;
    const tables = {}; // kind → { key, data, rows, cols, spec }

    // --- three panes
    const grid = h('div', { class: 'bias-trio bias-waiting' }); // waiting: nothing drawn yet (not hatched as if masked)
    const panes = {};
    for (const k of KINDS) {
      const verdict = h('p', { class: 'bias-verdict' });
      const head = h('h4', { class: 'bias-pane-title' }, tr(SCHEMA[k].label),
        k === kind ? h('span', { class: 'bias-badge', text: t('view.current') }) : null);
      const pane = h('section', { class: `bias-pane${k === kind ? ' is-current' : ''}`, 'aria-label': tr(SCHEMA[k].label) }, head);
      grid.append(pane);
      const hm = new Heatmap(pane, {
        ...heatmapKernels(ctx.pe), t, compact: true, label: tr(SCHEMA[k].label),
        axes: { x: t('axis.dimension'), y: t('axis.position'), value: t('axis.value') },
      });
      pane.append(verdict);
      panes[k] = { hm, verdict, key: '' };
    }
    const capNote = h('p', { class: 'help', role: 'status' });
    capNote.hidden = true;
    el.append(grid, capNote);

    // --- the chart of why each fails
    const tabs = segmented(t('absolute.simple.chartChoice'), TABS.map((v) => ({ value: v, label: t(`absolute.simple.tab.${v}`) })), tab, (v) => {
      tab = v;
      drawChart();
    });
    const bitInput = h('input', { id: `${id}-bit`, type: 'number', min: 0, step: 1, inputmode: 'numeric' });
    bitInput.addEventListener('input', () => {
      const v = bitInput.valueAsNumber;
      if (Number.isInteger(v) && v >= 0 && v <= Number(bitInput.max)) {
        bit = v;
        drawChart();
      }
    });
    const bitField = h('div', { class: 'tool-field' }, h('label', { for: bitInput.id, text: t('absolute.simple.bit') }), bitInput);
    const chartTitle = h('h4', { class: 'bias-subtitle' });
    const chartWhy = h('p', { class: 'help bias-why' });
    el.append(chartTitle, h('div', { class: 'view-toolbar' }, tabs.el, bitField), chartWhy);
    chartTitle.textContent = t(`absolute.simple.chartTitle.${tab}`);
    bitField.hidden = tab !== 'bit';
    const box = h('div', { class: 'lp-box' });
    el.append(box);
    const table = new DataTable(el, { summary: t('table.summary') });
    const plots = {};

    withLinePlot((m) => {
      if (destroyed) return;
      mod = m;
      if (state?.dims) drawChart();
    });

    const needs = { all: false, panes: false };
    const drawing = drawer(el, () => {
      if (needs.all) {
        const dims = refresh();
        state.dims = dims;
        verdicts(dims);
        capNote.textContent = dims.R < dims.L || dims.C < dims.D ? t('absolute.simple.capped', dims.R, dims.C) : '';
        capNote.hidden = !capNote.textContent;
        drawPanes();
        drawChart();
      } else if (needs.panes && state.dims) {
        drawPanes();
      }
      needs.all = false;
      needs.panes = false;
      // The chart module is still loading: the view is not whole yet, so it does not count as
      // drawn; drawChart announces it (data-tab, data-drawn) once the chart is there.
      return mod ? undefined : false;
    });

    /** The [R, C] block of each kind for the current state (computed or cut from the result). */
    function refresh() {
      const { spec, result } = state;
      const L = result.shape[0];
      const D = result.shape[1];
      const sinSpec = kind === 'sinusoidal' ? { ...spec, offset: 0 } : pe.defaults('sinusoidal');
      const R = Math.max(1, Math.min(L, MAX_ROWS, kind === 'sinusoidal' ? MAX_ROWS : Math.floor(MAX_SIN_ELEMENTS / D)));
      const C = Math.min(D, MAX_COLS);
      for (const k of KINDS) {
        let key;
        let make;
        if (k === kind && !(k === 'sinusoidal' && spec.offset)) {
          key = null; // the result itself: always fresh (a shifted sinusoidal table is recomputed from 0 below)
          make = () => block(result.data, D, R, C);
        } else if (k === 'sinusoidal') {
          key = JSON.stringify([R, C, D, sinSpec]);
          make = () => block(pe.compute({ ...sinSpec, length: R, dim: D }).data, D, R, C);
        } else {
          key = JSON.stringify([k, R, C]);
          make = () => pe.compute({ ...pe.defaults(k), length: R, dim: C }).data;
        }
        if (key === null || tables[k]?.key !== key) {
          const spec2 = k === kind ? spec : k === 'sinusoidal' ? sinSpec : pe.defaults(k);
          tables[k] = { key, data: make(), rows: R, cols: C, spec: spec2, fresh: true };
        }
      }
      return { L, D, R, C, sinSpec };
    }

    function verdicts({ L, D, R, C }) {
      const ints = tables.integer;
      if (ints.spec.normalize && kind === 'integer') {
        panes.integer.verdict.textContent = t('absolute.simple.intNormVerdict', formatValue(1 / Math.max(L - 1, 1)), L);
      } else {
        panes.integer.verdict.textContent = t('absolute.simple.intVerdict', formatInt(L - 1), formatInt(L));
      }
      // The binary table has D bits; the largest jump below L is at the highest power of two.
      const top = L > 1 ? 2 ** Math.floor(Math.log2(L - 1)) : 0;
      const flips = top ? Math.min(Math.log2(top) + 1, D) : 0;
      let text = top >= 2
        ? t('absolute.simple.binVerdict', formatInt(top - 1), formatInt(top), formatInt(top + 1), flips, D, formatValue(Math.sqrt(flips)))
        : t('absolute.simple.binShort');
      if (D < 31 && L > 2 ** D) text += ` ${t('absolute.simple.binWrap', D, formatInt(2 ** D))}`;
      panes.binary.verdict.textContent = text;
      const steps = stepNorms(tables.sinusoidal.data, R, C);
      let lo = Infinity;
      let hi = -Infinity;
      for (const v of steps) {
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
      }
      panes.sinusoidal.verdict.textContent = steps.length
        ? t('absolute.simple.sinVerdict', formatValue(lo), formatValue(hi), hi - lo <= 1e-4 * hi)
        : t('absolute.simple.sinShort');
    }

    function drawPanes() {
      grid.classList.remove('bias-waiting');
      const map = state.shared.colormap ?? 'viridis';
      for (const k of KINDS) {
        const tb = tables[k];
        const p = panes[k];
        if (tb.fresh) {
          p.hm.colormap = map;
          p.hm.setData({ data: tb.data, rows: tb.rows, cols: tb.cols });
          tb.fresh = false;
        } else {
          p.hm.setColormap(map);
        }
        p.hm.setStale(state.stale);
      }
    }

    /** The series of the chosen tab: { x0, xLabel, yLabel, series: [{ label, values, color, stepped, dash }] }. */
    function chartData(R, C) {
      const label = (k) => tr(SCHEMA[k].label);
      if (tab === 'range') {
        const ints = new Float32Array(R);
        const norm = kind === 'integer' && tables.integer.spec.normalize;
        for (let n = 1; n <= R; n++) ints[n - 1] = norm ? (n > 1 ? 1 : 0) : n - 1;
        return {
          x0: 1, xLabel: t('absolute.simple.lengthAxis'), yLabel: t('absolute.simple.rangeAxis'),
          // Sinusoidal first: Chart.js draws the first curve on top, and it shares its level with binary.
          series: [
            { label: label('sinusoidal'), values: maxAbsPrefix(tables.sinusoidal.data, R, C), color: COLOR.sinusoidal, width: 2.5 },
            { label: label('binary'), values: maxAbsPrefix(tables.binary.data, R, C), color: COLOR.binary, dash: true },
            { label: label('integer'), values: ints, color: COLOR.integer },
          ],
          fromZero: true,
        };
      }
      if (tab === 'steps') {
        return {
          x0: 0, xLabel: t('absolute.simple.stepAxisX'), yLabel: t('absolute.simple.stepAxisY'),
          series: ['sinusoidal', 'binary', 'integer'].map((k) => ({
            label: label(k), values: stepNorms(tables[k].data, R, C), color: COLOR[k], width: k === 'sinusoidal' ? 2.5 : undefined,
          })),
          fromZero: true,
        };
      }
      // bit k against the sine of the same period and the nearest sinusoidal channel
      const maxBit = Math.max(0, Math.min(C - 1, 30));
      bitInput.max = String(maxBit);
      const k = Math.min(bit ?? Math.max(0, Math.floor(Math.log2(Math.max(R, 2))) - 3), maxBit);
      if (document.activeElement !== bitInput) bitInput.value = String(k);
      const T = 2 ** (k + 1);
      const wave = new Float32Array(R);
      const smooth = new Float32Array(R);
      for (let p = 0; p < R; p++) {
        wave[p] = bitWave(p, k);
        smooth[p] = Math.sin((2 * Math.PI * (p + 0.5)) / T);
      }
      const series = [
        { label: t('absolute.simple.bitSeries', k), values: wave, color: COLOR.binary, stepped: true },
        { label: t('absolute.simple.smoothSeries', formatInt(T)), values: smooth, color: COLOR.smooth },
      ];
      const sin = tables.sinusoidal;
      const chans = sinChannels(sin.spec, state.dims.D).filter((c) => c.col < C);
      if (chans.length) {
        let best = chans[0];
        for (const c of chans) {
          if (Math.abs(Math.log((2 * Math.PI) / c.omega / T)) < Math.abs(Math.log((2 * Math.PI) / best.omega / T))) best = c;
        }
        const col = new Float32Array(R);
        for (let p = 0; p < R; p++) col[p] = sin.data[p * C + best.col];
        series.push({ label: t('absolute.simple.channelSeries', best.col, formatValue((2 * Math.PI) / best.omega)), values: col, color: COLOR.sinusoidal, dash: true });
      }
      return { x0: 0, xLabel: t('axis.position'), yLabel: t('axis.value'), series, k, T };
    }

    function drawChart() {
      if (!state || !mod || destroyed) return;
      const { R, C } = state.dims;
      tabs.set(tab);
      bitField.hidden = tab !== 'bit';
      chartTitle.textContent = t(`absolute.simple.chartTitle.${tab}`);
      const d = chartData(R, C);
      chartWhy.textContent = t(`absolute.simple.why.${tab}`, d.k, d.T);
      plots[tab] ??= new mod.LinePlot(box, { t, xLabel: d.xLabel, yLabel: d.yLabel, label: t(`absolute.simple.chartTitle.${tab}`) });
      for (const [k, p] of Object.entries(plots)) p.el.hidden = k !== tab;
      const plot = plots[tab];
      plot.batch(() => { // one Chart.js update for the data, its styles and the axis
        plot.setData({
          series: d.series.map((s) => ({
            label: s.label, values: s.values, dash: s.dash, color: s.color, stepped: s.stepped, width: s.width ?? (s.stepped ? 2.25 : 1.75),
          })),
          x0: d.x0,
        });
        plot.setAxis('y', { beginAtZero: !!d.fromZero });
      });
      el.dataset.tab = tab;
      el.dataset.drawn = String(Number(el.dataset.drawn || 0) + 1);
      table.set(() => {
        const n = d.series[0].values.length;
        const idx = spread(n, 24);
        return {
          caption: t(`absolute.simple.chartTitle.${tab}`),
          columns: [d.xLabel, ...d.series.map((s) => s.label)],
          rows: idx.map((i) => [formatInt(i + d.x0), ...d.series.map((s) => formatValue(s.values[i]))]),
          note: idx.length < n ? t('table.sampledRows', idx.length, n) : '',
        };
      });
    }

    return {
      update(next) {
        state = { ...next, dims: state?.dims };
        grid.classList.toggle('stale', !!next.stale);
        if (next.changed.has('theme')) for (const p of Object.values(plots)) p.applyTheme();
        if (next.changed.has('result')) needs.all = true;
        if (next.changed.has('shared:colormap') || next.changed.has('stale')) needs.panes = true;
        if (needs.all || needs.panes) drawing.request();
      },
      destroy() {
        destroyed = true;
        drawing.destroy();
        for (const p of Object.values(panes)) p.hm.destroy();
        for (const p of Object.values(plots)) p.destroy();
      },
    };
  },
};
