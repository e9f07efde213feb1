// "Attention drift": the score q·k between a query at position m and a key at m − d, both rotated
// with the recipe's cos/sin (result.cos, result.sin), against m. For exact RoPE it depends on d
// alone, so the curve is flat; the recipe's drift away from the flat line is the bug.
//
// Per pair i, with (c, s) the recipe's table entries at m and at n = m − d, the rotated score is
//   C·(q₁k₁ + q₂k₂) + S·(q₁k₂ − q₂k₁),  C = c_m c_n + s_m s_n,  S = s_m c_n − c_m s_n
// (R_mᵀR_n for the recipe's rotations, which need not be unit length); the exact score puts
// C = cos(dω_i), S = sin(dω_i). q and k are a seeded N(0, 1) draw (seed 7) or all ones (then the
// S term vanishes: only the cos part drifts). O(length · pairs) per draw, in JS.
import { h, uid } from '../../plot/dom.js';
import { formatInt, formatValue } from '../../plot/format.js';
import { DataTable, spread } from '../datatable.js';
import { drawer, numberField, readInt, segmented, withLinePlot } from '../common.js';
import { gaussian } from '../rope/common.js';
import { recipeLabel, plotHandle, precisionView } from './common.js';

export const DRIFT_SEED = 7;
/** 8 significant digits: the drift is often far below formatValue's 4. */
const fine = (v) => (Number.isFinite(v) ? String(Number(v.toPrecision(8))).replace('-', '−') : formatValue(v));
export const DEFAULT_DISTANCE = 16;

/** q and k (each [2n], pair i = entries i and i + n, the half layout) for the chosen vectors. */
export function driftVectors(n, vectors) {
  if (vectors === 'ones') return { q: new Float64Array(2 * n).fill(1), k: new Float64Array(2 * n).fill(1) };
  const g = gaussian(4 * n, DRIFT_SEED);
  return { q: Float64Array.from(g.subarray(0, 2 * n)), k: Float64Array.from(g.subarray(2 * n)) };
}

/**
 * The recipe's score at every m with both m and m − d computed (m from offset + d on), and the
 * exact score. Returns { values: Float64Array, x0, exact }; values NaN where a table is not finite.
 */
export function driftScores(result, spec, d, vectors) {
  const [L, n] = result.shape;
  const { cos, sin } = result;
  const { q, k } = driftVectors(n, vectors);
  const a = new Float64Array(n);
  const b = new Float64Array(n);
  let exact = 0;
  for (let i = 0; i < n; i++) {
    const q1 = q[i], q2 = q[i + n], k1 = k[i], k2 = k[i + n];
    a[i] = q1 * k1 + q2 * k2;
    b[i] = q1 * k2 - q2 * k1;
    const w = d * result.exact_inv_freq[i];
    exact += Math.cos(w) * a[i] + Math.sin(w) * b[i];
  }
  const count = Math.max(0, L - d);
  const values = new Float64Array(count);
  for (let r = d; r < L; r++) {
    const m = r * n;
    const o = (r - d) * n;
    let s = 0;
    for (let i = 0; i < n; i++) {
      const cm = cos[m + i], sm = sin[m + i], cn = cos[o + i], sn = sin[o + i];
      s += (cm * cn + sm * sn) * a[i] + (sm * cn - cm * sn) * b[i];
    }
    values[r - d] = s;
  }
  return { values, x0: spec.offset + d, exact };
}

export default precisionView('precision-drift', 'drift', (el, ctx) => {
  const { t, schema } = ctx;
  const id = uid('pdrift');
  let state = null;
  let plot = null;
  let destroyed = false;

  const dField = numberField(`${id}-d`, t('precision.drift.d'), { min: 1, step: 1, value: DEFAULT_DISTANCE });
  dField.input.addEventListener('input', () => {
    if (!state) return;
    const v = readInt(dField.input, 1, Math.max(1, state.spec.length - 2));
    dField.input.setAttribute('aria-invalid', String(v === null));
    if (v !== null) ctx.setShared({ precisionDistance: v });
  });
  const vec = segmented(t('precision.drift.vectors'), [
    { value: 'random', label: t('precision.drift.random', DRIFT_SEED) },
    { value: 'ones', label: t('precision.drift.ones') },
  ], 'random', (v) => ctx.setShared({ precisionVectors: v }));
  const stats = h('p', { class: 'view-stats' });
  el.append(h('div', { class: 'view-toolbar' }, dField.wrap,
    h('div', { class: 'tool-field' }, h('span', { class: 'prec-tool-label', text: t('precision.drift.vectors') }), vec.el), stats));
  const summary = h('p', { class: 'prec-summary', 'aria-live': 'polite' });
  const box = h('div', { class: 'lp-box' });
  el.append(summary, box);
  const table = new DataTable(el, { summary: t('table.summary') });

  const settings = () => {
    const sh = state.shared;
    const L = state.spec.length;
    let d = Number.isInteger(sh.precisionDistance) && sh.precisionDistance >= 1 ? sh.precisionDistance : DEFAULT_DISTANCE;
    const clipped = d > L - 2;
    if (clipped) d = Math.max(1, Math.floor(L / 2));
    return { d, clipped, vectors: sh.precisionVectors === 'ones' ? 'ones' : 'random' };
  };
  let cache = null;
  const scores = () => {
    const s = settings();
    const key = [s.d, s.vectors];
    if (!cache || cache.result !== state.result || cache.key.join() !== key.join()) {
      cache = { result: state.result, key, s, ...driftScores(state.result, state.spec, s.d, s.vectors) };
    }
    return cache;
  };

  const drawing = drawer(el, draw);
  withLinePlot((m) => {
    if (destroyed) return;
    plot = new m.LinePlot(box, { t, xLabel: t('precision.drift.x'), yLabel: t('precision.drift.y'), label: t('precision.drift.aria') });
    if (state) drawing.request();
  });

  function draw() {
    if (!state || !plot || destroyed) return false;
    const c = scores();
    const flat = new Float64Array(c.values.length).fill(c.exact);
    plot.batch(() => {
      plot.setData({
        series: [
          { label: t('precision.drift.series', recipeLabel(t, schema, state.spec.recipe)), values: c.values },
          { label: t('precision.drift.exact'), values: flat, dash: true },
        ],
        x0: c.x0,
      });
      plot.setAxis('y', { format: fine });
      plot.setTooltip({ value: fine });
    });
    el.dataset.distance = String(c.s.d);
    el.dataset.vectors = c.s.vectors;
    return true;
  }

  function describe() {
    const c = scores();
    if (document.activeElement !== dField.input) dField.input.value = String(c.s.d);
    dField.input.max = String(Math.max(1, state.spec.length - 2));
    dField.input.removeAttribute('aria-invalid');
    vec.set(c.s.vectors);
    let lo = Infinity;
    let hi = -Infinity;
    let worst = 0;
    let worstAt = -1;
    for (let i = 0; i < c.values.length; i++) {
      const v = c.values[i];
      if (!Number.isFinite(v)) {
        worstAt = i;
        worst = Infinity;
        break;
      }
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
      if (Math.abs(v - c.exact) > worst) {
        worst = Math.abs(v - c.exact);
        worstAt = i;
      }
    }
    stats.textContent = t('precision.drift.stats', c.s.d, formatInt(c.values.length));
    if (!c.values.length) summary.textContent = t('precision.drift.short', c.s.d);
    else if (worst === Infinity) summary.textContent = t('precision.drift.nonFinite', formatInt(c.x0 + worstAt));
    else {
      const rel = Math.abs(c.exact) > 0 ? (100 * worst) / Math.abs(c.exact) : null;
      summary.textContent = t('precision.drift.summary', c.s.d, fine(c.exact), fine(lo), fine(hi),
        formatValue(worst), rel === null ? null : formatValue(rel), formatInt(c.x0 + worstAt));
    }
    if (c.s.clipped) summary.textContent += ` ${t('precision.drift.clipped', c.s.d)}`;
    table.set(() => {
      const cc = scores();
      const idx = spread(cc.values.length, 30);
      return {
        caption: t('precision.drift.caption', cc.s.d),
        columns: [t('precision.drift.x'), t('precision.drift.series', recipeLabel(t, schema, state.spec.recipe)), t('precision.drift.exact')],
        rows: idx.map((i) => [formatInt(cc.x0 + i), fine(cc.values[i]), fine(cc.exact)]),
        note: idx.length < cc.values.length ? t('table.sampledRows', idx.length, cc.values.length) : '',
      };
    });
  }

  return plotHandle({ keep: (next) => { state = next; }, box, plot: () => plot, drawing, stop: () => { destroyed = true; },
    refresh: (next) => ['result', 'shared:precisionDistance', 'shared:precisionVectors'].some((k) => next.changed.has(k)), describe });
});
