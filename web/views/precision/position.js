// "Error by position": the worst angle error of each row (result.row_error, the max over the
// pairs) against the position, on a log scale, for every row the page computed (up to 2^20, and
// anywhere up to 2^31 via `offset`), or for 2^16 or 2^20 positions around them: those come from
// pe.precisionSweep (c/precision.c), the same row_error bit for bit without the error, cos and sin
// tables, so a million positions take a fraction of a second wherever the window is. The LinePlot (web/plot/lineplot.js) hands Chart.js at most
// one minimum and one maximum per pixel column of the visible range (decimate), so a million rows
// draw as cheaply as a thousand and no spike is lost; zooming in resamples. The first collision
// (a row equal to the one before) is marked. Buttons move the window far out by setting `offset`.
import { h, uid } from '../../plot/dom.js';
import { float32String, formatInt, formatValue } from '../../plot/format.js';
import { PE_MAX_POSITION } from '../../api/schema/limits.js';
import { DataTable, spread } from '../datatable.js';
import { drawer, sup, withLinePlot } from '../common.js';
import { finiteRange, log10Of, logY, MARK_COLOR, recipeControls, recipeLabel, plotHandle, precisionView } from './common.js';

/** Where the jump buttons put the window: centred on 2^k (clamped to the positions allowed). */
const JUMPS = [0, 16, 20, 24, 30];
/** How many positions the curve shows: 0 = the table's rows, else 2^k around them (the sweep). */
const SPANS = [0, 16, 20];

export default precisionView('precision-position', 'pos', (el, ctx) => {
  const { t, schema } = ctx;
  let state = null;
  let plot = null;
  let destroyed = false;
  let logs = null; // log10 of the curve's row_error, per curve
  let logsOf = null;
  let span = 0; // SPANS entry
  let curve = null; // { key, row_error, first, collisions, first_collision, ms }

  const jumps = h('div', { class: 'chips', role: 'group', 'aria-label': t('precision.pos.jumpLabel') });
  const jumpButtons = JUMPS.map((k) => {
    const b = h('button', {
      type: 'button', class: 'chip', 'data-jump': k, text: k ? t('precision.pos.jumpTo', `2${sup(k)}`, formatInt(2 ** k)) : t('precision.pos.jumpStart'),
      on: { click: () => jump(k) },
    });
    jumps.append(b);
    return b;
  });
  const spans = h('div', { class: 'chips', role: 'group', 'aria-label': t('precision.pos.spanLabel') });
  const spanButtons = SPANS.map((k) => {
    const b = h('button', { type: 'button', class: 'chip', 'data-span': k, on: { click: () => setSpan(k) } });
    spans.append(b);
    return b;
  });
  const stats = h('p', { class: 'view-stats' });
  const recipe = recipeControls(ctx, `${uid('ppos')}`);
  el.append(recipe.el,
    h('div', { class: 'view-toolbar' }, h('span', { class: 'prec-tool-label', text: t('precision.pos.spanLabel') }), spans),
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

  /** Dynamic NTK ties the frequencies to the length: only the table's own rows are that spec. */
  const dynamic = (spec) => spec.rope_scaling?.rope_type === 'dynamic';

  function setSpan(k) {
    if (!state || k === span) return;
    span = k;
    describe();
    drawing.request();
  }

  /**
   * The curve to show: the table's row_error, or 2^span positions centred on the table's rows
   * (clamped to [0, PE_MAX_POSITION)) from pe.precisionSweep, kept until the spec or span changes.
   */
  function currentCurve() {
    const { result, spec } = state;
    const L = span ? 2 ** span : 0;
    if (!L || L <= spec.length || dynamic(spec)) {
      if (curve?.result !== result) {
        curve = { result, row_error: result.row_error, first: spec.offset, collisions: result.collisions, first_collision: result.first_collision, ms: null };
      }
      return curve;
    }
    const centre = spec.offset + Math.floor(spec.length / 2);
    const first = Math.max(0, Math.min(PE_MAX_POSITION - L, centre - L / 2));
    const key = `${JSON.stringify(spec)}|${first}|${L}`;
    if (curve?.key === key) return curve;
    const t0 = performance.now();
    try {
      const r = ctx.pe.precisionSweep({ ...spec, offset: first, length: L });
      curve = { key, row_error: r.row_error, first, collisions: r.collisions, first_collision: r.first_collision, ms: performance.now() - t0 };
    } catch {
      // (out of memory, say) the table's rows, which the page has
      curve = { result, row_error: result.row_error, first: spec.offset, collisions: result.collisions, first_collision: result.first_collision, ms: null };
    }
    return curve;
  }

  const drawing = drawer(el, draw);
  withLinePlot((m) => {
    if (destroyed) return;
    plot = new m.LinePlot(box, { t, xLabel: t('precision.x.position'), yLabel: t('precision.y.error'), label: t('precision.pos.aria') });
    if (state) drawing.request();
  });

  function draw() {
    if (!state || !plot || destroyed) return false;
    const { spec } = state;
    const c = currentCurve();
    if (logsOf !== c.row_error) {
      logs = log10Of(c.row_error);
      logsOf = c.row_error;
    }
    const label = recipeLabel(t, schema, spec.recipe);
    const fc = c.first_collision;
    plot.batch(() => {
      plot.setData({ series: [{ label, values: logs }], x0: c.first });
      const [lo, hi] = finiteRange(logs);
      logY(plot, Math.max(lo, -17), Math.min(Math.max(hi, lo + 1), 1), float32String);
      plot.setMarkers(fc >= 0 ? [{ x: fc, label: t('precision.pos.mark', formatInt(fc)), color: MARK_COLOR }] : []);
    });
    el.dataset.firstCollision = String(fc);
    el.dataset.rows = String(c.row_error.length);
    el.dataset.first = String(c.first);
    return true;
  }

  function describe() {
    const { spec } = state;
    const c = currentCurve();
    const re = c.row_error;
    let worst = 0;
    let at = 0;
    for (let r = 0; r < re.length; r++) {
      if (re[r] > worst || (Number.isNaN(re[r]) && worst === worst)) {
        worst = re[r];
        at = r;
      }
    }
    const first = c.first;
    const last = first + re.length - 1;
    stats.textContent = t('precision.pos.stats', formatInt(first), formatInt(last), formatInt(re.length))
      + (c.ms != null ? ` · ${t('precision.pos.sweepMs', formatInt(Math.max(1, Math.round(c.ms))))}` : '');
    el.dataset.span = String(span);
    const fc = c.first_collision;
    summary.textContent = [
      t('precision.pos.worst', formatValue(worst), formatInt(first + at), recipeLabel(t, schema, spec.recipe)),
      fc >= 0 ? t('precision.pos.collide', formatInt(fc), formatInt(c.collisions)) : t('precision.pos.noCollide'),
    ].join(' ');
    const fixed = dynamic(spec);
    for (const b of spanButtons) {
      const k = Number(b.dataset.span);
      b.textContent = k ? t('precision.pos.spanCount', `2${sup(k)}`, formatInt(2 ** k)) : t('precision.pos.spanTable', formatInt(spec.length));
      b.setAttribute('aria-pressed', String(k === span));
      b.disabled = fixed && k !== 0;
      b.title = b.disabled ? t('precision.pos.spanDynamic') : '';
    }
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

  return plotHandle({ keep: (next) => { state = next; }, box, plot: () => plot, drawing, stop: () => { destroyed = true; },
    refresh: (next) => next.changed.has('result'), describe: () => { recipe.show(state.spec.recipe); describe(); } });
});
