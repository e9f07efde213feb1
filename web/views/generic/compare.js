// The compare view: the current setting (A) beside a second one (B) of the same kind, and the
// difference A − B. B follows A except for the fields changed in B, so "A with base 20000" stays
// that while A's other parameters move. Every kind gets it; for 3-D outputs it compares the
// head chosen in the heatmap view.
import { Heatmap } from '../../plot/heatmap.js';
import { h, uid } from '../../plot/dom.js';
import { both } from '../../i18n/index.js';
import { float32String, formatInt, formatValue } from '../../plot/format.js';
import { scanValues } from '../../plot/resample.js';
import { displayData, outputInfo, rowOffset, sliceOffset } from '../../model/output.js';
import { heatmapKernels, heatmapScale } from '../../model/pixels.js';
import { robustLow } from '../../plot/color-scale.js';
import { sameJSON } from '../../model/json.js';


/**
 * One-click comparisons from the schema: each other value of an enum or bool, each example of an
 * object field (e.g. rope_scaling: yarn), and × 2 of an optional number.
 */
export function presets(fields, spec) {
  const out = [];
  for (const [name, f] of Object.entries(fields)) {
    if (f.type === 'enum') {
      for (const v of f.values) if (v !== spec[name]) out.push({ field: name, value: v, kind: 'set' });
    } else if (f.type === 'bool') {
      out.push({ field: name, value: !spec[name], kind: 'set' });
    } else if (f.type === 'object' && f.discriminator && f.examples) {
      const current = spec[name]?.[f.discriminator];
      for (const [type, example] of Object.entries(f.examples)) {
        if (type !== current && type !== f.fields?.[f.discriminator]?.default) {
          out.push({ field: name, value: example, kind: 'object', label: type });
        }
      }
    } else if (f.type === 'number' && !f.required && Number.isFinite(spec[name]) && spec[name] !== 0) {
      const v = spec[name] * 2;
      if (!(typeof f.max === 'number' && v > f.max)) out.push({ field: name, value: v, kind: 'double' });
    }
  }
  return out.slice(0, 8);
}

/** A − B over their common [rows, cols]; masked in both stays masked (−∞ − −∞ is not NaN here). */
export function difference(a, aOff, b, bOff, rows, cols, aCols, bCols) {
  const out = new Float32Array(rows * cols);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const x = a[aOff + r * aCols + c];
      const y = b[bOff + r * bCols + c];
      let d = x - y;
      if (d !== d && x === y) d = x;
      out[r * cols + c] = d;
    }
  }
  return out;
}

export default {
  id: 'compare',
  kinds: () => true,
  title: both('view.compare.title'),
  explain: both('view.compare.explain'),

  mount(el, ctx) {
    const { t, info, schema } = ctx;
    const tr = t.tr;
    const id = uid('cmp');
    let state = null;
    let overrides = null; // null: not comparing; {}: comparing, B = A
    let controls = null;
    let bResult = null;

    const intro = h('div', { class: 'compare-intro' });
    const active = h('div', { class: 'compare-active' });
    active.hidden = true;
    el.append(intro, active);

    // --- inactive: one-click presets and a plain start button
    let introKey = null; // the chips on screen: rebuilt only when they change, so a click is never lost
    function renderIntro() {
      if (!state) {
        intro.replaceChildren();
        introKey = null;
        return;
      }
      const list = presets(schema.fields, state.spec).map((p) => {
        const label = tr(schema.fields[p.field].label) || p.field;
        const text = p.kind === 'double' ? t('view.compare.presetDouble', label, String(p.value))
          : t('view.compare.presetSet', label, p.kind === 'object' ? p.label : String(p.value));
        return { text, patch: { [p.field]: p.value } };
      });
      const key = JSON.stringify(list);
      if (key === introKey) return;
      introKey = key;
      intro.replaceChildren();
      const chips = h('div', { class: 'chips', role: 'group', 'aria-label': t('view.compare.presets') });
      for (const { text, patch } of list) {
        chips.append(h('button', { type: 'button', class: 'chip', text, on: { click: () => start(patch) } }));
      }
      intro.append(h('p', { class: 'help', text: t('view.compare.try') }), chips,
        h('button', { type: 'button', class: 'button', id: `${id}-start`, text: t('view.compare.start'), on: { click: () => start({}) } }));
    }

    // --- active: B's controls, three heatmaps, numbers
    const bBox = h('div', { class: 'compare-controls' });
    const bHead = h('div', { class: 'compare-bhead' },
      h('h4', { text: t('view.compare.bTitle') }),
      h('p', { class: 'compare-diff-list', role: 'status' }));
    const bError = h('p', { class: 'field-error general-error', role: 'status' });
    bError.hidden = true;
    const actions = h('div', { class: 'compare-actions' },
      h('button', { type: 'button', class: 'button', text: t('view.compare.reset'), on: { click: () => start({}) } }),
      h('button', { type: 'button', class: 'button', id: `${id}-stop`, text: t('view.compare.stop'), on: { click: stop } }));
    const panes = h('div', { class: 'compare-grid' });
    const numbers = h('p', { class: 'compare-numbers', 'aria-live': 'polite' });
    const shapeNote = h('p', { class: 'field-note' });
    shapeNote.hidden = true;
    const summary = h('div', { class: 'compare-summary' }, h('h5', { text: t('view.compare.summary') }), numbers, shapeNote);
    active.append(h('div', { class: 'compare-b' }, bHead, bBox, bError, actions), panes);

    const axes = { x: tr(info.axes.col), y: tr(info.axes.row), value: tr(info.axes.value) };
    const pane = (title) => {
      const box = h('div', { class: 'compare-pane' }, h('h5', { text: title }));
      panes.append(box);
      return box;
    };
    let maps = null;
    function makeMaps() {
      const heatmaps = [];
      const sync = (src) => (win) => {
        for (const m of heatmaps) if (m !== src && m.rows === src.rows && m.cols === src.cols) m.setWindow(win, { silent: true });
      };
      const make = (title, colormap) => {
        const m = new Heatmap(pane(title), { ...heatmapKernels(ctx.pe), t, axes, colormap, compact: true, label: title });
        m.onWindow = sync(m);
        heatmaps.push(m);
        return m;
      };
      maps = { a: make(t('view.compare.aTitle')), b: make(t('view.compare.bTitle')), d: make(t('view.compare.dTitle'), 'diverging') };
      panes.append(summary);
    }

    function bSpec() {
      return { ...state.spec, ...overrides };
    }

    // Compare mode and B's overrides live in the shared state (`compare`), so a permalink
    // (web/share/permalink.js) holds them and reopening it starts the comparison again.
    function start(initial, { focus = true } = {}) {
      overrides = { ...initial };
      intro.hidden = true;
      active.hidden = false;
      if (!maps) makeMaps();
      bBox.replaceChildren();
      controls = ctx.buildControls(bBox, {
        fields: schema.fields, spec: bSpec(), idPrefix: `${id}-b`, compact: true,
        onChange: (values) => {
          // B's overrides: the fields where B differs from A.
          overrides = {};
          for (const name of Object.keys(schema.fields)) {
            if (!sameJSON(values[name], state.spec[name])) overrides[name] = values[name];
          }
          recompute();
        },
      });
      recompute();
      if (focus) el.querySelector(`#${id}-stop`)?.focus({ preventScroll: true });
    }

    function stop({ focus = true } = {}) {
      overrides = null;
      ctx.setShared({ compare: null });
      active.hidden = true;
      intro.hidden = false;
      renderIntro();
      if (focus) el.querySelector(`#${id}-start`)?.focus({ preventScroll: true });
    }

    function recompute() {
      if (!state || !overrides) return;
      const spec = bSpec();
      controls.clearErrors();
      bError.hidden = true;
      try {
        bResult = ctx.pe.compute(spec);
      } catch (err) {
        const msg = err?.message ?? String(err);
        if (!controls.showError(err?.param, msg)) {
          bError.textContent = msg;
          bError.hidden = false;
        }
        panes.classList.add('stale');
        return;
      }
      panes.classList.remove('stale');
      ctx.setShared({ compare: { ...overrides } });
      draw();
    }

    function draw() {
      const { info } = state;
      const show = (v) => {
        if (v && typeof v === 'object' && !Array.isArray(v)) return `{ ${Object.entries(v).map(([k, x]) => `${k}: ${show(x)}`).join(', ')} }`;
        return typeof v === 'string' ? v : JSON.stringify(v);
      };
      const names = Object.keys(overrides).map((n) => `${tr(schema.fields[n]?.label) || n}: ${show(overrides[n])}`);
      bHead.querySelector('.compare-diff-list').textContent = names.length ? t('view.compare.differs', names.join(', ')) : t('view.compare.sameAsA');
      const a = { shape: state.result.shape, data: displayData(state, ctx.pe) };
      const infoB = outputInfo(info.kind, schema, bResult.shape);
      const bData = displayData({ result: bResult, info: infoB, shared: state.shared }, ctx.pe);
      const head = state.shared.head ?? 0;
      const sa = sliceOffset(info, head);
      const sb = sliceOffset(infoB, head);
      const colormap = state.shared.colormap ?? 'viridis';
      const ra = scanValues(a.data, sa.offset, info.rows * info.cols);
      const rb = scanValues(bData, sb.offset, infoB.rows * infoB.cols);
      // A and B share one colour range, so equal colours mean equal values.
      let lo = Math.min(ra.lo, rb.lo);
      let hi = Math.max(ra.hi, rb.hi);
      if (!Number.isFinite(lo)) [lo, hi] = [0, 1];
      if (colormap === 'diverging') [lo, hi] = [-Math.max(Math.abs(lo), Math.abs(hi), 1e-30), Math.max(Math.abs(lo), Math.abs(hi), 1e-30)];
      if (!(Math.fround(hi) > Math.fround(lo))) [lo, hi] = [lo - 0.5, hi + 0.5];
      maps.a.colormap = colormap;
      maps.b.colormap = colormap;
      // The main view's colour scale (attention: log by default), with one floor for both panes.
      maps.a.scale = maps.b.scale = heatmapScale(info, state.shared);
      const lows = [robustLow(a.data, sa.offset, info.rows * info.cols), robustLow(bData, sb.offset, infoB.rows * infoB.cols)].filter((x) => x > 0);
      const low = lows.length ? Math.min(...lows) : undefined;
      maps.a.setData({ data: a.data, rows: info.rows, cols: info.cols, offset: sa.offset, rowOffset: rowOffset(info, state.spec), range: [lo, hi], low });
      maps.b.setData({ data: bData, rows: infoB.rows, cols: infoB.cols, offset: sb.offset, rowOffset: rowOffset(infoB, bResult.spec), range: [lo, hi], low });
      const rows = Math.min(info.rows, infoB.rows);
      const cols = Math.min(info.cols, infoB.cols);
      const diff = difference(a.data, sa.offset, bData, sb.offset, rows, cols, info.cols, infoB.cols);
      maps.d.setData({ data: diff, rows, cols, rowOffset: rowOffset(info, state.spec) });
      const sameShape = rows === info.rows && cols === info.cols && rows === infoB.rows && cols === infoB.cols;
      shapeNote.hidden = sameShape;
      shapeNote.textContent = sameShape ? '' : t('view.compare.shapes', a.shape.join(' × '), bResult.shape.join(' × '), `${rows} × ${cols}`);
      // Largest and RMS difference over the finite entries.
      let max = 0;
      let at = 0;
      let sum = 0;
      let n = 0;
      for (let i = 0; i < diff.length; i++) {
        const v = diff[i];
        if (v - v !== 0) continue;
        const av = Math.abs(v);
        if (av > max) {
          max = av;
          at = i;
        }
        sum += v * v;
        n++;
      }
      if (max === 0) numbers.replaceChildren(t('view.compare.identical'));
      else {
        numbers.replaceChildren(
          h('span', { class: 'num-line', text: t('view.compare.max', {
            max: float32String(diff[at]), row: `${axes.y} ${formatInt(Math.floor(at / cols) + rowOffset(info, state.spec))}`,
            col: `${axes.x} ${formatInt(at % cols)}`,
          }) }),
          h('span', { class: 'num-line', text: t('view.compare.rms', formatValue(Math.sqrt(sum / Math.max(1, n)))) }));
      }
    }

    renderIntro();
    return {
      update(next) {
        const specChanged = !state || !sameJSON(state.spec, next.spec);
        state = next;
        panes.classList.toggle('stale', !!next.stale);
        const wanted = next.shared.compare ?? null;
        if (wanted && !overrides && !next.stale) {
          start(wanted, { focus: false });
          return;
        }
        if (!wanted && overrides && next.changed.has('shared:compare')) {
          stop({ focus: false });
          return;
        }
        if (!overrides) {
          if (specChanged) renderIntro();
          return;
        }
        if (next.changed.has('result')) {
          controls.setValues(bSpec());
          recompute();
        } else if (['shared:colormap', 'shared:head', 'shared:transform', 'shared:scale'].some((c) => next.changed.has(c))) {
          if (bResult) draw();
        }
      },
      destroy() {
        if (maps) for (const m of Object.values(maps)) m.destroy();
      },
    };
  },
};
