// "Collisions": rows whose cos and sin equal the row before exactly (result.collisions and
// result.first_collision, from the kernel), how many there are, and why, in a sentence built from
// the numbers: the recipe's position format spacing at the first collision, or its angle format,
// or its table format. Below, the running count of collided rows against the position (found
// again here by comparing rows of result.cos/sin, so the curve and the kernel's count must agree).
import { h } from '../../plot/dom.js';
import { formatInt, formatValue } from '../../plot/format.js';
import { DataTable, spread } from '../datatable.js';
import { drawer, withLinePlot } from '../common.js';
import { MARK_COLOR, dtypesOf, recipeLabel, roundPosition, spacingAt, plotHandle, precisionView } from './common.js';

const same = (a, b) => a === b || (a !== a && b !== b);

/** Running count of rows equal to the row before: Float32Array [length] (row 0: 0), and the rows. */
export function collisionCurve(result) {
  const [L, n] = result.shape;
  const { cos, sin } = result;
  const running = new Float32Array(L);
  const rows = [];
  let count = 0;
  for (let r = 1; r < L; r++) {
    let eq = true;
    const a = r * n;
    const b = a - n;
    for (let i = 0; i < n; i++) {
      if (!same(cos[a + i], cos[b + i]) || !same(sin[a + i], sin[b + i])) {
        eq = false;
        break;
      }
    }
    if (eq) {
      count++;
      if (rows.length < 1000) rows.push(r);
    }
    running[r] = count;
  }
  return { running, count, rows };
}

/** Why position p collides with p − 1 under this recipe: { cause, ... } for the sentence. */
export function collisionCause(spec, p, omega0) {
  const d = dtypesOf(spec.recipe);
  const qa = roundPosition(p, d.position_dtype);
  const qb = roundPosition(p - 1, d.position_dtype);
  if (qa === qb) return { cause: 'position', dtype: d.position_dtype, gap: spacingAt(p, d.position_dtype), q: qa };
  if (!Number.isFinite(qa)) return { cause: 'overflow', dtype: d.position_dtype };
  if (d.phase_dtype !== 'float64') {
    const angle = p * omega0;
    return { cause: 'phase', dtype: d.phase_dtype, angle, gap: spacingAt(Math.max(1, Math.floor(angle)), d.phase_dtype) };
  }
  return { cause: 'table', dtype: d.table_dtype };
}

export default precisionView('precision-collisions', 'col', (el, ctx) => {
  const { t, schema } = ctx;
  let state = null;
  let plot = null;
  let destroyed = false;
  let curve = null;
  let curveOf = null;

  const headline = h('p', { class: 'prec-verdict', 'aria-live': 'polite' });
  const why = h('p', { class: 'prec-summary' });
  const box = h('div', { class: 'lp-box' });
  el.append(headline, why, box);
  const table = new DataTable(el, { summary: t('table.summary') });

  const curveFor = (result) => {
    if (curveOf !== result) {
      curve = collisionCurve(result);
      curveOf = result;
    }
    return curve;
  };

  const drawing = drawer(el, draw);
  withLinePlot((m) => {
    if (destroyed) return;
    plot = new m.LinePlot(box, {
      t, xLabel: t('precision.x.position'), yLabel: t('precision.col.y'), label: t('precision.col.aria'), compact: true, legend: false,
    });
    if (state) drawing.request();
  });

  function draw() {
    if (!state || !plot || destroyed) return false;
    const { result, spec } = state;
    const c = curveFor(result);
    const fc = result.first_collision;
    plot.batch(() => {
      plot.setData({ series: [{ label: t('precision.col.y'), values: c.running }], x0: spec.offset });
      plot.setAxis('y', { min: 0, suggestedMax: Math.max(1, c.count), precision: 0 });
      plot.setMarkers(fc >= 0 ? [{ x: fc, label: t('precision.pos.mark', formatInt(fc)), color: MARK_COLOR }] : []);
    });
    el.dataset.collisions = String(c.count);
    return true;
  }

  function describe() {
    const { result, spec } = state;
    const fc = result.first_collision;
    const L = spec.length;
    const first = spec.offset;
    const last = first + L - 1;
    const recipe = recipeLabel(t, schema, spec.recipe);
    el.dataset.first = String(fc);
    if (fc < 0) {
      headline.textContent = t('precision.col.none', formatInt(first), formatInt(last), recipe);
      why.textContent = '';
      why.hidden = true;
    } else {
      const share = (100 * result.collisions) / Math.max(1, L - 1);
      headline.textContent = t('precision.col.some', formatInt(fc), formatInt(result.collisions), formatInt(L - 1), formatValue(share), recipe);
      const c = collisionCause(spec, fc, result.exact_inv_freq[0]);
      why.hidden = false;
      if (c.cause === 'position') why.textContent = t('precision.col.whyPosition', c.dtype, formatInt(c.gap), formatInt(fc), formatInt(fc - 1), formatInt(c.q));
      else if (c.cause === 'overflow') why.textContent = t('precision.col.whyOverflow', c.dtype, formatInt(fc));
      else if (c.cause === 'phase') why.textContent = t('precision.col.whyPhase', c.dtype, formatInt(fc), formatValue(c.angle), formatValue(c.gap));
      else why.textContent = t('precision.col.whyTable', c.dtype);
    }
    table.set(() => {
      const c = curveFor(state.result);
      const idx = spread(L, 30);
      return {
        caption: t('precision.col.caption', formatInt(first), formatInt(last)),
        columns: [t('precision.x.position'), t('precision.col.y')],
        rows: idx.map((r) => [formatInt(first + r), formatInt(c.running[r])]),
        note: t('precision.col.rowsNote', c.rows.slice(0, 12).map((r) => formatInt(first + r)).join(', ') || '—'),
      };
    });
  }

  return plotHandle({ keep: (next) => { state = next; }, box, plot: () => plot, drawing, stop: () => { destroyed = true; },
    refresh: (next) => next.changed.has('result'), describe });
});
