// How sine-like a learned position table is (a loaded one included): per column, the share of its variance one sine wave explains
// (web/model/sine-fit.js), plotted over the columns beside the same measure for the sinusoidal
// table and an untrained N(0, 0.02²) table of the same size (the noise level), with a sentence and
// a verdict derived from the quartiles, and the neighbouring rows' mean cosine. It makes the
// tutorials' "learned tables become sine waves" checkable on any table a reader loads.
//
// Cost: ≤ 8e6 column × frequency × row products for the table and each reference,
// cached per shape; rows past 512 are left out, wide tables measured on spread columns (said).
import { h } from '../../plot/dom.js';
import { both } from '../../i18n/index.js';
import { formatInt } from '../../plot/format.js';
import { DataTable } from '../datatable.js';
import { lineDrawer } from '../common.js';
import { neighbourCosine, sineColumns, sineFit } from '../../model/sine-fit.js';
// Its own strings, imported here: the Learn path imports this module too, so it can be bundled
// apart from views.js and evaluated before views.js registers the family's strings.
import './sine-likeness-strings.js';

/** Rows measured at most (the first ones). */
export const MAX_ROWS = 512;
/** Column × frequency × row products per table at most. */
const WORK = 8e6;
const COLOR = { self: 0, sin: 1, noise: 2 };

export const pct = (v) => (Number.isNaN(v) ? '—' : `${(100 * v).toFixed(v < 0.1 ? 1 : 0)} %`);
export const cos3 = (v) => (Number.isNaN(v) ? '—' : v.toFixed(3).replace('-', '−'));

/** The first `rows` rows of a [R, C] table as float64, columns cols (all of them by default). */
function firstRows(data, rows, C) {
  return Float64Array.from(data.subarray(0, rows * C));
}

/**
 * The measure of a [R, C] table and of its two references (same rows and columns):
 * { self, sin, noise } each { fit, neighbours }, and the verdict 'wave' | 'noise' | 'between'.
 */
export function sineLikeness(pe, data, R, C, { refs = null } = {}) {
  const rows = Math.min(R, MAX_ROWS);
  const columns = sineColumns(rows, C, WORK);
  const measure = (d) => ({ fit: sineFit(d, rows, C, columns), neighbours: neighbourCosine(d, rows, C) });
  const self = measure(firstRows(data, rows, C));
  const r = refs ?? referenceTables(pe, rows, C, measure);
  const verdict = self.fit.q1 > r.noise.fit.q3 ? 'wave' : self.fit.median <= r.noise.fit.q3 ? 'noise' : 'between';
  return { rows, columns, self, sin: r.sin, noise: r.noise, verdict };
}

/** The sinusoidal (base 10000) and untrained (N(0, 0.02²), seed 0) tables of [rows, C], measured. */
function referenceTables(pe, rows, C, measure) {
  const even = C + (C % 2);
  const s = pe.compute({ kind: 'sinusoidal', length: rows, dim: even, base: 10000 });
  const sin = new Float64Array(rows * C);
  for (let p = 0; p < rows; p++) for (let c = 0; c < C; c++) sin[p * C + c] = s.data[p * even + c];
  const noise = pe.compute({ kind: 'learned', length: rows, dim: C, std: 0.02, seed: 0 });
  return { sin: measure(sin), noise: measure(Float64Array.from(noise.data)) };
}

export default {
  id: 'absolute-sine-likeness',
  kinds: ['learned'],
  title: both('absolute.sine.title'),
  explain: both('absolute.sine.explain'),

  mount(el, ctx) {
    const { t, pe } = ctx;
    let state = null;
    let mod = null;
    let plot = null;
    const refCache = { key: '', refs: null };
    const sentence = h('p', { class: 'bias-verdict sine-sentence', 'aria-live': 'polite' });
    const verdict = h('p', { class: 'bias-verdict sine-verdict' });
    const neighbours = h('p', { class: 'view-stats sine-neighbours' });
    const box = h('div', { class: 'lp-box' });
    const note = h('p', { class: 'help sine-note' });
    el.append(sentence, verdict, neighbours, box, note);
    const table = new DataTable(el, { summary: t('table.summary') });

    const drawing = lineDrawer(el, (m) => {
      mod = m;
      return draw();
    });

    function draw() {
      const { result } = state;
      const [R, C] = result.shape;
      if (R < 3) return undefined;
      const rows = Math.min(R, MAX_ROWS);
      const key = `${rows}×${C}`;
      let m;
      if (refCache.key === key) m = sineLikeness(pe, result.data, R, C, { refs: refCache.refs });
      else {
        m = sineLikeness(pe, result.data, R, C);
        Object.assign(refCache, { key, refs: { sin: m.sin, noise: m.noise } });
      }
      const f = m.self.fit;
      sentence.textContent = t('absolute.sine.sentence', {
        m: pct(f.median), q1: pct(f.q1), q3: pct(f.q3), sin: pct(m.sin.fit.median), noise: pct(m.noise.fit.median), nq3: pct(m.noise.fit.q3),
      });
      verdict.textContent = t(`absolute.sine.verdict.${m.verdict}`);
      neighbours.textContent = t('absolute.sine.neighbours', { c: cos3(m.self.neighbours), sin: cos3(m.sin.neighbours), noise: cos3(m.noise.neighbours) });
      const sampled = m.columns.length < C;
      note.textContent = sampled ? t('absolute.sine.sampled', formatInt(m.columns.length), formatInt(C), formatInt(m.rows))
        : R > m.rows ? t('absolute.sine.rows', formatInt(m.rows)) : '';
      note.hidden = !note.textContent;
      el.dataset.values = JSON.stringify({
        median: f.median, q1: f.q1, q3: f.q3, sin: m.sin.fit.median, noise: m.noise.fit.median, noiseQ3: m.noise.fit.q3,
        neighbours: m.self.neighbours, verdict: m.verdict, columns: m.columns.length, rows: m.rows,
      });
      drawPlot(m);
      table.set(() => ({
        caption: t('absolute.sine.tableCaption'),
        columns: [t('absolute.sine.colColumn'), t('absolute.sine.colThis'), t('absolute.sine.colWave')],
        rows: Array.from(m.columns, (c, j) => [formatInt(c), pct(f.r2[j]),
          Number.isNaN(f.omega[j]) ? t('absolute.sine.constant') : formatInt(Math.round((2 * Math.PI) / f.omega[j]))]),
      }));
      return undefined;
    }

    function drawPlot(m) {
      plot ??= new mod.LinePlot(box, { t, xLabel: t('absolute.sine.axisX'), yLabel: t('absolute.sine.axisY'), label: t('absolute.sine.plotLabel') });
      // Each table's columns sorted from least to most sine-like: the three distributions side by
      // side (the medians in the middle), whatever columns were measured.
      const series = (fit) => Float32Array.from(fit.r2.filter((v) => !Number.isNaN(v)).sort(), (v) => 100 * v);
      plot.batch(() => {
        plot.setData({
          series: [
            { label: t('absolute.sine.seriesThis'), values: series(m.self.fit), color: COLOR.self, width: 2.5 },
            { label: t('absolute.sine.seriesSin'), values: series(m.sin.fit), color: COLOR.sin, width: 1.5, dash: true },
            { label: t('absolute.sine.seriesNoise'), values: series(m.noise.fit), color: COLOR.noise, width: 1.5, dash: true },
          ],
          x0: 1,
        });
        plot.setAxis('y', { min: 0, max: 100 });
      });
    }

    return {
      update(next) {
        state = next;
        el.classList.toggle('stale', !!next.stale);
        if (next.changed.has('theme')) plot?.applyTheme();
        if (next.changed.has('result') || next.changed.has('theme')) drawing.request();
      },
      destroy() {
        drawing.destroy();
        plot?.destroy();
      },
    };
  },
};
