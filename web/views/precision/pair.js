// "Error by pair at a position": the angle error of every pair at one chosen position (a row of
// result.data), on a log scale, beside half the angle each pair turns per position (ω_i / 2):
// a pair whose error reaches that line can no longer tell the position from its neighbours. The
// position is shared view state (`precisionPosition`), so a permalink keeps it.
import { h, uid } from '../../plot/dom.js';
import { float32String, formatInt, formatValue } from '../../plot/format.js';
import { DataTable } from '../datatable.js';
import { drawer, numberField, readInt, withLinePlot } from '../common.js';
import { finiteRange, log10Of, logY, recipeLabel, plotHandle, precisionView } from './common.js';

/** The row shown: the shared position when it is inside the computed rows, else the last row. */
export function pickedPosition(spec, shared) {
  const first = spec.offset;
  const last = spec.offset + spec.length - 1;
  const p = shared.precisionPosition;
  return Number.isInteger(p) && p >= first && p <= last ? { p, own: true } : { p: last, own: !Number.isInteger(p) };
}

export default precisionView('precision-pair', 'pair', (el, ctx) => {
  const { t, schema } = ctx;
  const id = uid('ppair');
  let state = null;
  let plot = null;
  let destroyed = false;

  const field = numberField(`${id}-p`, t('precision.pair.position'), { min: 0, step: 1 });
  field.input.addEventListener('input', () => {
    if (!state) return;
    const v = readInt(field.input, state.spec.offset, state.spec.offset + state.spec.length - 1);
    field.input.setAttribute('aria-invalid', String(v === null));
    if (v !== null) ctx.setShared({ precisionPosition: v });
  });
  const stats = h('p', { class: 'view-stats' });
  const note = h('p', { class: 'help', role: 'status' });
  el.append(h('div', { class: 'view-toolbar' }, field.wrap, stats), note);
  const summary = h('p', { class: 'prec-summary', 'aria-live': 'polite' });
  const box = h('div', { class: 'lp-box' });
  el.append(summary, box);
  const table = new DataTable(el, { summary: t('table.summary') });

  const drawing = drawer(el, draw);
  withLinePlot((m) => {
    if (destroyed) return;
    plot = new m.LinePlot(box, { t, xLabel: t('precision.x.pair'), yLabel: t('precision.y.error'), label: t('precision.pair.aria') });
    if (state) drawing.request();
  });

  /** The chosen row's errors, the half steps ω_i/2 and what they say. */
  function rowOf() {
    const { result, spec, shared } = state;
    const n = result.shape[1];
    const { p, own } = pickedPosition(spec, shared);
    const r = p - spec.offset;
    const err = result.data.subarray(r * n, (r + 1) * n);
    const half = Float64Array.from(result.exact_inv_freq, (w) => w / 2);
    let lost = 0;
    let worst = 0;
    let worstAt = 0;
    for (let i = 0; i < n; i++) {
      if (!(err[i] < half[i])) lost++;
      if (err[i] > worst || Number.isNaN(err[i])) {
        worst = err[i];
        worstAt = i;
      }
    }
    return { p, own, n, err, half, lost, worst, worstAt };
  }

  function draw() {
    if (!state || !plot || destroyed) return false;
    const row = rowOf();
    const [le, lh] = log10Of(row.err, row.half);
    plot.batch(() => {
      plot.setData({
        series: [
          { label: t('precision.pair.series', formatInt(row.p), recipeLabel(t, schema, state.spec.recipe)), values: le },
          { label: t('precision.pair.half'), values: lh, dash: true },
        ],
        x0: 0,
      });
      const [lo, hi] = finiteRange(le, lh);
      logY(plot, Math.max(lo, -17), Math.min(hi, 1), float32String);
    });
    el.dataset.position = String(row.p);
    return true;
  }

  function describe() {
    const { spec } = state;
    const row = rowOf();
    if (document.activeElement !== field.input) field.input.value = String(row.p);
    field.input.min = String(spec.offset);
    field.input.max = String(spec.offset + spec.length - 1);
    field.input.removeAttribute('aria-invalid');
    note.textContent = row.own ? '' : t('precision.pair.outside', formatInt(state.shared.precisionPosition), formatInt(row.p));
    note.hidden = row.own;
    stats.textContent = t('precision.pair.stats', formatInt(spec.offset), formatInt(spec.offset + spec.length - 1));
    summary.textContent = row.lost
      ? t('precision.pair.lost', formatInt(row.p), row.lost, row.n, formatValue(row.worst), row.worstAt)
      : t('precision.pair.fine', formatInt(row.p), row.n, formatValue(row.worst), row.worstAt);
    table.set(() => {
      const r = rowOf();
      return {
        caption: t('precision.pair.caption', formatInt(r.p)),
        columns: [t('precision.x.pair'), t('precision.y.error'), t('precision.pair.half'), t('precision.pair.lostCol')],
        rows: Array.from(r.err, (e, i) => [i, float32String(e), float32String(r.half[i]), e < r.half[i] ? t('precision.no') : t('precision.yes')]),
        note: '',
      };
    });
  }

  return plotHandle({ keep: (next) => { state = next; }, box, plot: () => plot, drawing, stop: () => { destroyed = true; },
    refresh: (next) => next.changed.has('result') || next.changed.has('shared:precisionPosition'), describe });
});
