// "Two recipes": the current recipe's worst error per position beside a second recipe's, picked
// here (shared `precisionRecipeB`, so a permalink keeps it), on one log-scale chart. The second
// recipe is computed with the same parameters (pe.compute), once per change, only while the view
// is on screen; both curves reach Chart.js decimated to the pixel columns (LinePlot).
import { h, uid } from '../../plot/dom.js';
import { float32String, formatInt, formatValue } from '../../plot/format.js';
import { DataTable, spread } from '../datatable.js';
import { drawer, withLinePlot } from '../common.js';
import { RECIPE_NAMES, finiteRange, log10Of, logY, recipeLabel, recipeName, plotHandle, precisionView } from './common.js';

/** The second recipe: the shared one, else bf16_table (float32 when the page shows bf16_table). */
export function recipeB(spec, shared) {
  const b = shared.precisionRecipeB;
  if (RECIPE_NAMES.includes(b)) return b;
  return recipeName(spec.recipe) === 'bf16_table' ? 'float32' : 'bf16_table';
}

function worstOf(a) {
  let w = 0;
  let at = 0;
  for (let i = 0; i < a.length; i++) {
    if (a[i] > w || (Number.isNaN(a[i]) && !Number.isNaN(w))) {
      w = a[i];
      at = i;
    }
  }
  return { w, at };
}

export default precisionView('precision-compare', 'cmp', (el, ctx) => {
  const { t, schema, pe } = ctx;
  const id = uid('pcmp');
  let state = null;
  let plot = null;
  let destroyed = false;
  let other = null; // { key, result } of recipe B
  let failed = null;

  const select = h('select', { id: `${id}-b` },
    RECIPE_NAMES.map((n) => h('option', { value: n, text: recipeLabel(t, schema, n) })));
  select.addEventListener('input', () => ctx.setShared({ precisionRecipeB: select.value }));
  const stats = h('p', { class: 'view-stats' });
  el.append(h('div', { class: 'view-toolbar' },
    h('div', { class: 'tool-field' }, h('label', { for: select.id, text: t('precision.cmp.pick') }), select), stats));
  const summary = h('p', { class: 'prec-summary', 'aria-live': 'polite' });
  const box = h('div', { class: 'lp-box' });
  el.append(summary, box);
  const table = new DataTable(el, { summary: t('table.summary') });

  function resultB() {
    const name = recipeB(state.spec, state.shared);
    const spec = { ...state.spec, recipe: name };
    const key = JSON.stringify(spec);
    if (other?.key !== key) {
      failed = null;
      try {
        const r = pe.compute(spec);
        other = { key, name, result: r };
      } catch (err) {
        failed = err?.message ?? String(err);
        other = null;
      }
    }
    return other;
  }

  const drawing = drawer(el, draw);
  withLinePlot((m) => {
    if (destroyed) return;
    plot = new m.LinePlot(box, { t, xLabel: t('precision.x.position'), yLabel: t('precision.y.error'), label: t('precision.cmp.aria') });
    if (state) drawing.request();
  });

  function draw() {
    if (!state || !plot || destroyed) return false;
    const { result, spec } = state;
    const b = resultB();
    // One floor for both curves (log10Of): an exact 0 sits on the same bottom line in each.
    const [a, bl] = b ? log10Of(result.row_error, b.result.row_error) : [log10Of(result.row_error), null];
    const nameA = recipeLabel(t, schema, spec.recipe);
    const series = [{ label: t('precision.cmp.current', nameA), values: a }];
    if (b) series.push({ label: recipeLabel(t, schema, b.name), values: bl, dash: true });
    plot.batch(() => {
      plot.setData({ series, x0: spec.offset });
      const [lo, hi] = finiteRange(a, bl ?? []);
      logY(plot, Math.max(lo, -17), Math.min(hi, 1), float32String);
    });
    el.dataset.recipeB = b?.name ?? '';
    describe(b);
    return true;
  }

  function describe(b) {
    const { result, spec } = state;
    const name = recipeB(spec, state.shared);
    select.value = name;
    stats.textContent = t('precision.cmp.stats', formatInt(spec.offset), formatInt(spec.offset + spec.length - 1));
    if (!b) {
      summary.textContent = failed ? t('precision.cmp.failed', failed) : '';
      return;
    }
    const wa = worstOf(result.row_error);
    const wb = worstOf(b.result.row_error);
    const nameA = recipeLabel(t, schema, spec.recipe);
    const nameB = recipeLabel(t, schema, b.name);
    const parts = [t('precision.cmp.worst', nameA, formatValue(wa.w), formatInt(spec.offset + wa.at), nameB, formatValue(wb.w), formatInt(spec.offset + wb.at))];
    if (wa.w > 0 && wb.w > 0 && Number.isFinite(wa.w) && Number.isFinite(wb.w)) {
      const ratio = wa.w >= wb.w ? wa.w / wb.w : wb.w / wa.w;
      parts.push(t('precision.cmp.ratio', wa.w >= wb.w ? nameA : nameB, formatValue(ratio)));
    }
    parts.push(t('precision.cmp.collisions', nameA, formatInt(result.collisions), nameB, formatInt(b.result.collisions)));
    summary.textContent = parts.join(' ');
    table.set(() => {
      const idx = spread(spec.length, 30);
      return {
        caption: t('precision.cmp.caption', nameA, nameB),
        columns: [t('precision.x.position'), nameA, nameB],
        rows: idx.map((r) => [formatInt(spec.offset + r), float32String(result.row_error[r]), float32String(b.result.row_error[r])]),
        note: idx.length < spec.length ? t('table.sampledRows', idx.length, spec.length) : '',
      };
    });
  }

  return plotHandle({ keep: (next) => { state = next; }, box, plot: () => plot, drawing, stop: () => { destroyed = true; },
    refresh: (next) => {
      if (next.changed.has('shared:precisionRecipeB') || next.changed.has('result')) select.value = recipeB(next.spec, next.shared);
      return ['result', 'shared:precisionRecipeB'].some((k) => next.changed.has(k));
    } });
});
