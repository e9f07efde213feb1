// "Apply to a model": a model's RoPE (a built-in preset, or a pasted config.json read by
// web/api/hfconfig.js), a context length and a recipe give a one-line verdict built from computed
// numbers, the numbers behind it, and a NumPy/PyTorch program that reproduces them (code.js).
// The models are the gallery's rotary ones (./models.js: web/api/models.js through the config
// reader), so every gallery model opens here with its own RoPE, LongRoPE's lists included.
//
// The numbers: windows of WINDOW positions ending at 2^k (k = 7, 8, …) and at the context, each
// computed by the kernel (pe.compute with `offset`), so a 1M-token context costs a few
// milliseconds. A pair has lost its resolution in a window when its worst angle error there
// reaches half the angle it turns per position (ω_i / 2): neighbouring positions are then no
// longer told apart by that pair. The model, context and recipe are shared view state
// (precisionModel, precisionContext, precisionModelRecipe): a permalink keeps them (a pasted
// config is not kept: the link names it "your config" and falls back to the default model).
import { h, uid } from '../../plot/dom.js';
import { float32String, formatInt, formatValue } from '../../plot/format.js';
import { PE_MAX_POSITION } from '../../api/schema/limits.js';
import { longropeOriginal } from '../../api/schema/rope.js';
import { DataTable } from '../datatable.js';
import { drawer, numberField, readInt, segmented, withLinePlot } from '../common.js';
import { RECIPE_NAMES, dtypesOf, finiteRange, log10Of, logY, plotHandle, precisionView, recipeLabel } from './common.js';
import { modelCode } from './code.js';
import { MODELS, atContext, contextOf, endOfContext, ropeOfConfig } from './models.js';

export { MODELS };

export const WINDOW = 64;

export const DEFAULT_MODEL = 'llama-3.1-8b';
export const DEFAULT_RECIPE = 'bf16_table';

/** The rope fields of the precision kind from a config (./models.js; null: no rotary positions). */
export const modelSpec = ropeOfConfig;

/** Window ends: 2^k for 2^k ≥ 2·WINDOW below the context, then the context. */
export function windowEnds(context) {
  const ends = [];
  for (let e = 2 * WINDOW; e < context; e *= 2) ends.push(e);
  ends.push(context);
  return ends;
}

/** Pairs as text: "0–11", "3, 7, 9", with the fastest/slowest noted by the caller. */
function pairList(list) {
  const runs = [];
  for (const i of list) {
    const r = runs[runs.length - 1];
    if (r && i === r[1] + 1) r[1] = i;
    else runs.push([i, i]);
  }
  return runs.map(([a, b]) => (a === b ? `${a}` : `${a}–${b}`)).join(', ');
}

/**
 * The verdict's numbers for a model spec, a context and a recipe: per window { end, worst, lost
 * (pair indices), collisions }, the exact ω, and the summary { lost, firstLoss, firstCollision, worst, worstAt }.
 */
export function assess(pe, rope, context, recipe) {
  const seq = atContext(rope, context);   // LongRoPE: the list of this context's side in every window
  const windows = [];
  let omega = null;
  let worst = 0;
  let worstAt = 0;
  let firstLoss = -1;
  let firstCollision = -1;
  for (const end of windowEnds(context)) {
    const length = Math.min(WINDOW, end);
    const r = pe.compute({ kind: 'rope_precision', ...seq, length, offset: end - length, recipe });
    omega ??= r.exact_inv_freq;
    const n = r.shape[1];
    const top = new Float64Array(n);
    for (let row = 0; row < length; row++) {
      for (let i = 0; i < n; i++) {
        const e = r.data[row * n + i];
        if (e > top[i] || Number.isNaN(e)) top[i] = Number.isNaN(e) ? Math.PI : e;
      }
      if (r.row_error[row] > worst) {
        worst = r.row_error[row];
        worstAt = end - length + row;
      }
    }
    const lost = [];
    for (let i = 0; i < n; i++) if (top[i] >= omega[i] / 2) lost.push(i);
    if (lost.length && firstLoss < 0) firstLoss = end - length;
    if (r.first_collision >= 0 && firstCollision < 0) firstCollision = r.first_collision;
    windows.push({ end, worst: Math.max(...top), lost, collisions: r.collisions });
  }
  const last = windows[windows.length - 1];
  return { windows, omega, n: omega.length, lost: last.lost, firstLoss, firstCollision, worst, worstAt };
}

/** The models grouped by family, in the gallery's order: [[family, [id, …]], …]. */
const FAMILIES = Object.entries(MODELS).reduce((groups, [id, m]) => {
  const group = groups.find(([f]) => f === m.family);
  if (group) group[1].push(id);
  else groups.push([m.family, [id]]);
  return groups;
}, []);

export default precisionView('precision-model', 'model', (el, ctx) => {
  const { t, schema, pe } = ctx;
  const id = uid('pmodel');
  let state = null;
  let plot = null;
  let destroyed = false;
  let pasted = null; // { spec, label } of a pasted config
  let lang = 'torch';
  let current = null; // the last assessment

  // --- model: the gallery's rotary models, grouped by family, and a pasted config
  const modelSelect = h('select', { id: `${id}-model`, class: 'prec-model' },
    [...FAMILIES.map(([family, ids]) => h('optgroup', { label: family },
      ids.map((key) => h('option', { value: key, text: MODELS[key].label, title: MODELS[key].repo })))),
    h('option', { value: 'custom', text: t('precision.model.yours'), hidden: true })]);
  // A model brings its own context (max_position_embeddings): the field starts from it again.
  modelSelect.addEventListener('input', () => {
    if (modelSelect.value === 'custom') return;
    pasted = null;
    ctx.setShared({ precisionModel: modelSelect.value, precisionContext: null });
  });
  const repo = h('code', { class: 'prec-repo' });
  const area = h('textarea', {
    id: `${id}-cfg`, class: 'json prec-config', rows: 5, spellcheck: 'false', autocomplete: 'off',
    placeholder: '{ "hidden_size": 4096, "num_attention_heads": 32, "rope_theta": 500000, … }',
  });
  const error = h('p', { class: 'field-error', role: 'alert' });
  error.hidden = true;
  const use = h('button', { type: 'button', class: 'button', text: t('precision.model.use'), on: { click: usePasted } });
  const paste = h('details', { class: 'prec-paste' },
    h('summary', { text: t('precision.model.paste') }),
    h('label', { class: 'sr-only', for: area.id, text: t('precision.model.paste') }), area,
    h('div', { class: 'controls-actions' }, use), error);

  // --- context and recipe
  const ctxField = numberField(`${id}-ctx`, t('precision.model.context'), { min: 2 * WINDOW, max: PE_MAX_POSITION, step: 1 });
  ctxField.input.classList.add('prec-wide');
  ctxField.input.addEventListener('input', () => {
    const v = readInt(ctxField.input, WINDOW, PE_MAX_POSITION);
    ctxField.input.setAttribute('aria-invalid', String(v === null));
    if (v !== null) ctx.setShared({ precisionContext: v });
  });
  const recipeSelect = h('select', { id: `${id}-recipe` },
    RECIPE_NAMES.map((n) => h('option', { value: n, text: recipeLabel(t, schema, n) })));
  recipeSelect.addEventListener('input', () => ctx.setShared({ precisionModelRecipe: recipeSelect.value }));
  const stats = h('p', { class: 'view-stats' });
  el.append(h('p', { class: 'help', text: t('precision.model.presetsHelp', Object.keys(MODELS).length) }),
    h('div', { class: 'view-toolbar' },
      h('div', { class: 'tool-field' }, h('label', { for: modelSelect.id, text: t('precision.model.presets') }), modelSelect), repo),
    paste,
    h('div', { class: 'view-toolbar' }, ctxField.wrap,
      h('div', { class: 'tool-field' }, h('label', { for: recipeSelect.id, text: t('precision.model.recipe') }), recipeSelect), stats));

  const verdict = h('p', { class: 'prec-verdict', 'aria-live': 'polite' });
  const detail = h('p', { class: 'prec-summary' });
  const show = h('button', { type: 'button', class: 'button', text: t('precision.model.show'), on: { click: showInLab } });
  const box = h('div', { class: 'lp-box' });
  el.append(verdict, detail, h('div', { class: 'controls-actions' }, show), box);
  const numbers = h('div', { class: 'table-scroll prec-numbers', tabindex: 0 });
  el.append(h('h4', { class: 'prec-subtitle', text: t('precision.model.numbers') }), numbers);
  const table = new DataTable(el, { summary: t('table.summary') });

  // --- code
  const codeSwitch = segmented(t('precision.model.codeLang'), [
    { value: 'torch', label: 'PyTorch' }, { value: 'numpy', label: 'NumPy' },
  ], lang, (v) => {
    lang = v;
    writeCode();
  });
  const copyStatus = h('span', { class: 'prec-copied', role: 'status' });
  const copy = h('button', { type: 'button', class: 'button', text: t('precision.model.copy'), on: { click: copyCode } });
  const code = h('code', {});
  const pre = h('pre', { class: 'prec-code', tabindex: 0, 'aria-label': t('precision.model.codeLabel') }, code);
  el.append(h('h4', { class: 'prec-subtitle', text: t('precision.model.codeTitle') }),
    h('p', { class: 'help', text: t('precision.model.codeHelp') }),
    h('div', { class: 'view-toolbar' }, codeSwitch.el, copy, copyStatus), pre);

  function usePasted() {
    try {
      const spec = modelSpec(area.value);
      if (!spec) throw new Error(t('precision.model.noRope'));
      pasted = { spec, label: t('precision.model.yours') };
      error.hidden = true;
      area.removeAttribute('aria-invalid');
      ctx.setShared({ precisionModel: 'custom', precisionContext: spec.max_position_embeddings ?? state?.shared.precisionContext ?? 4096 });
    } catch (err) {
      error.textContent = t('precision.model.bad', err?.message ?? String(err));
      error.hidden = false;
      area.setAttribute('aria-invalid', 'true');
    }
  }

  /** The model, context and recipe the view shows. */
  function settings() {
    const sh = state.shared;
    let key = sh.precisionModel;
    let model;
    if (key === 'custom' && pasted) model = { ...pasted.spec, label: pasted.label };
    else {
      if (!MODELS[key]) key = DEFAULT_MODEL;
      model = { ...MODELS[key].rope, label: MODELS[key].label, repo: MODELS[key].repo };
    }
    const c = sh.precisionContext;
    const context = Number.isInteger(c) && c >= 2 * WINDOW && c <= PE_MAX_POSITION ? c : contextOf(model);
    const recipe = RECIPE_NAMES.includes(sh.precisionModelRecipe) ? sh.precisionModelRecipe : DEFAULT_RECIPE;
    return { key, model, context: Math.max(2 * WINDOW, context), recipe };
  }
  const ropeOf = (m) => ({ dim: m.dim, base: m.base, partial_rotary_factor: m.partial_rotary_factor, rope_scaling: m.rope_scaling, max_position_embeddings: m.max_position_embeddings });

  function compute() {
    const s = settings();
    const key = JSON.stringify([ropeOf(s.model), s.context, s.recipe]);
    if (current?.key !== key) {
      try {
        current = { key, s, a: assess(pe, ropeOf(s.model), s.context, s.recipe), error: null };
      } catch (err) {
        current = { key, s, a: null, error: err?.message ?? String(err) };
      }
    }
    return current;
  }

  function showInLab() {
    const { s } = compute();
    const spec = endOfContext(ropeOf(s.model), s.context, s.recipe, state.spec.length);
    delete spec.kind;   // the page's kind already
    ctx.setSpec(spec);
  }

  function writeCode() {
    if (!current?.a) {
      code.textContent = '';
      return;
    }
    const { s, a } = current;
    const n = a.n;
    code.textContent = modelCode({
      lib: lang, omega: a.omega, dim: 2 * n, base: s.model.base, dtypes: dtypesOf(s.recipe), recipe: s.recipe,
      context: s.context, window: WINDOW,
      title: t('precision.model.codeHead', s.model.label, formatInt(s.context)),
    });
    el.dataset.codeLang = lang;
  }

  async function copyCode() {
    let ok = false;
    try {
      await navigator.clipboard.writeText(code.textContent);
      ok = true;
    } catch {
      const range = document.createRange();
      range.selectNodeContents(code);
      const sel = getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
      ok = document.execCommand?.('copy') ?? false;
    }
    copyStatus.textContent = ok ? t('precision.model.copied') : t('precision.model.copyFailed');
  }

  function describe() {
    const { s, a, error: err } = compute();
    if (document.activeElement !== modelSelect) modelSelect.value = s.key;
    repo.textContent = s.model.repo ?? '';
    if (document.activeElement !== ctxField.input) ctxField.input.value = String(s.context);
    ctxField.input.removeAttribute('aria-invalid');
    recipeSelect.value = s.recipe;
    const name = recipeLabel(t, schema, s.recipe);
    const sc = s.model.rope_scaling;
    stats.textContent = t('precision.model.stats', s.model.label, Math.trunc(s.model.dim * s.model.partial_rotary_factor), formatInt(s.model.base), sc?.rope_type ?? 'default');
    if (sc?.rope_type === 'longrope') {
      const o = longropeOriginal(s.model);
      stats.textContent += ` · ${t(s.context > o ? 'precision.model.longList' : 'precision.model.shortList', formatInt(o))}`;
    }
    if (!a) {
      verdict.textContent = t('precision.model.failed', err);
      detail.textContent = '';
      numbers.replaceChildren();
      writeCode();
      return;
    }
    const ctxText = formatInt(s.context);
    const n = a.n;
    let which = pairList(a.lost);
    if (a.lost.length === n) which = t('precision.model.all');
    else if (a.lost.length && a.lost[0] === 0 && a.lost[a.lost.length - 1] === a.lost.length - 1) which = t('precision.model.fastest', a.lost.length, which);
    else if (a.lost.length && a.lost[0] === n - a.lost.length && a.lost[a.lost.length - 1] === n - 1) which = t('precision.model.slowest', a.lost.length, which);
    verdict.textContent = a.lost.length
      ? t('precision.model.lost', name, ctxText, a.lost.length, n, which, formatInt(Math.max(0, a.firstLoss)))
      : t('precision.model.fine', name, ctxText, n);
    const parts = [t('precision.model.worst', formatValue(a.worst), formatInt(a.worstAt))];
    if (a.firstCollision >= 0) parts.push(t('precision.model.collide', formatInt(a.firstCollision)));
    parts.push(t('precision.model.how', WINDOW, a.windows.length));
    detail.textContent = parts.join(' ');
    el.dataset.lost = String(a.lost.length);
    el.dataset.model = s.key;
    el.dataset.context = String(s.context);
    el.dataset.recipe = s.recipe;
    const head = [t('precision.model.colEnd'), t('precision.model.colWorst'), t('precision.model.colLost'), t('precision.model.colCollisions')];
    const rows = a.windows.map((w) => [formatInt(w.end), float32String(w.worst), w.lost.length ? `${w.lost.length} (${pairList(w.lost)})` : '0', formatInt(w.collisions)]);
    numbers.replaceChildren(h('table', { class: 'mini-table' },
      h('caption', { class: 'sr-only', text: t('precision.model.numbersCaption', s.model.label, ctxText) }),
      h('thead', {}, h('tr', {}, head.map((c) => h('th', { scope: 'col', text: c })))),
      h('tbody', {}, rows.map((r) => h('tr', {}, r.map((c, i) => (i ? h('td', { text: c }) : h('th', { scope: 'row', text: c }))))))));
    table.set(() => ({ caption: t('precision.model.numbersCaption', s.model.label, ctxText), columns: head, rows, note: '' }));
    writeCode();
  }

  const drawing = drawer(el, draw);
  withLinePlot((m) => {
    if (destroyed) return;
    plot = new m.LinePlot(box, { t, xLabel: t('precision.model.x'), yLabel: t('precision.y.error'), label: t('precision.model.aria'), compact: true });
    if (state) drawing.request();
  });

  function draw() {
    if (!state || !plot || destroyed) return false;
    const { s, a } = compute();
    if (!a) return true;
    const logs = log10Of(a.windows.map((w) => w.worst));
    plot.batch(() => {
      plot.setData({ series: [{ label: t('precision.model.series', recipeLabel(t, schema, s.recipe)), values: logs }], x0: 0 });
      plot.setAxis('x', { format: (v) => (Number.isInteger(v) && a.windows[v] ? formatInt(a.windows[v].end) : ''), autoSkip: true });
      plot.setTooltip({ title: (x) => t('precision.model.tooltip', formatInt(a.windows[x]?.end ?? 0)) });
      const [lo, hi] = finiteRange(logs);
      logY(plot, Math.max(lo, -17), Math.min(hi, 1), float32String);
    });
    return true;
  }

  // The page's own parameters do not change this view: compute once, then on its own controls.
  return plotHandle({ keep: (next) => { state = next; }, plot: () => plot, drawing, stop: () => { destroyed = true; },
    refresh: (next) => !current || ['shared:precisionModel', 'shared:precisionContext', 'shared:precisionModelRecipe'].some((k) => next.changed.has(k)), describe });
});

