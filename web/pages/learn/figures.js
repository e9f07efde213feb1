// The Learn path's figure and control pieces: the explorer's own heatmap (web/plot/heatmap.js)
// and Chart.js line plot (web/views/common.js makePlot), and small labelled controls. A figure
// counts its drawings in data-drawn on the step's figure box (the browser test waits on it).
// Both figures can highlight places for the numbers of the sentence under them (./linked.js).
import { h, uid } from '../../plot/dom.js';
import { Heatmap } from '../../plot/heatmap.js';
import { heatmapKernels } from '../../model/pixels.js';
import { makePlot, ensureStyles } from '../../views/common.js';
import { formatValue } from '../../plot/format.js';
import { heatmapScale } from '../../model/pixels.js';
import { scaleSelect } from '../../views/generic/scale-select.js';
import './marks-strings.js';

/** Marks one more drawing of the step's figure. */
export function markDrawn(box) {
  box.dataset.drawn = String(Number(box.dataset.drawn || 0) + 1);
}

/** A span a … b in words ("3 to 7", or "3"). */
const spanText = (t, [a, b]) => t('learn.mark.range', a, b);

/** What `shape` (one or a list, web/plot/highlight.js) marks on a heatmap with these axes, in words. */
function heatWhere(t, axes, shape) {
  return [shape].flat().map((s) => {
    if (s.cell) return `${axes.y} ${s.cell[0]}, ${axes.x} ${s.cell[1]}`;
    if (s.diagonal !== undefined) return t('learn.mark.diagonal', { y: axes.y, x: axes.x, d: s.diagonal });
    return [s.rows && `${axes.y} ${spanText(t, s.rows)}`, s.cols && `${axes.x} ${spanText(t, s.cols)}`].filter(Boolean).join(', ');
  }).join('; ');
}

/** What `shape` marks on a line plot with these labels, in words. */
function lineWhere(t, labels, shape) {
  return [shape].flat().map((s) => {
    if (s.range) return `${labels.x} ${spanText(t, s.range)}`;
    if (s.point) return `${labels.x} ${s.point[0]}, ${labels.y} ${formatValue(s.point[1])}`;
    if (s.y !== undefined) return `${labels.y} ${formatValue(s.y)}`;
    return `${labels.x} ${s.x}`;
  }).join('; ');
}

/**
 * A heatmap in `box`: set({ data, rows, cols, range?, colormap?, kind? }) draws it. axes: { x, y,
 * value } (names shown beside the axes and in the read-out). Beside "Colour: …" a small choice of
 * the explorer's colour scales (auto, linear, √, log; auto as the explorer resolves it for `kind`);
 * explore(kind, spec, view) is env.explore with the scale chosen added to the view, called again
 * when the scale changes. highlight(shape) marks cells (web/plot/highlight.js); mark(shape) is
 * { on, shape, where } for ./linked.js.
 */
export function heatFigure(box, { pe, t, explore = null }, axes, label) {
  ensureStyles(new URL('./marks.css', import.meta.url));
  const holder = h('div', { class: 'learn-heat' });
  const colour = h('p', { class: 'learn-colour', text: t('learn.colour', axes.value) });
  const scaleChoice = scaleSelect(t, { cls: 'learn-scale-select' });
  const scaleInput = scaleChoice.select;
  let scale = 'auto';
  let kind = null;
  let link = null;   // the last explore() arguments
  box.append(h('div', { class: 'learn-colour-row' }, colour,
    h('span', { class: 'learn-scale' }, scaleChoice.label, scaleInput)), holder);
  const hm = new Heatmap(holder, { ...heatmapKernels(pe), t, axes, label, compact: false });
  hm.readout.textContent = '';
  const target = { highlight: (shape) => hm.highlight(shape) };
  // The auto option names the scale it chose, as the explorer's does; data-scale: the one drawn.
  const showScale = () => {
    scaleChoice.showChosen(scale, hm.scaleUsed);
    box.dataset.scale = hm.scaleUsed;
  };
  const viewWith = (view) => (scale === 'auto' ? view : { ...view, scale });
  scaleInput.addEventListener('change', () => {
    scale = scaleInput.value;
    if (link && explore) explore(link[0], link[1], viewWith(link[2]));
    if (!hm.data) return;
    hm.setScale(heatmapScale({ kind }, { scale }));
    showScale();
    markDrawn(box);
  });
  return {
    hm,
    set({ data, rows, cols, range = null, colormap = 'viridis', axes: newAxes = null, kind: k = null }) {
      if (newAxes) {
        hm.axes = newAxes;
        hm.xlabel.textContent = newAxes.x;
        hm.ylabel.textContent = newAxes.y;
        colour.textContent = t('learn.colour', newAxes.value);
      }
      kind = k;
      hm.scale = heatmapScale({ kind }, { scale });
      if (hm.data) hm.setColormap(colormap);
      else hm.colormap = colormap;
      hm.setData({ data, rows, cols, range });
      showScale();
      markDrawn(box);
    },
    explore(kindOf, spec, view) {
      link = [kindOf, spec, view];
      explore?.(kindOf, spec, viewWith(view));
    },
    highlight: target.highlight,
    mark: (shape) => ({ on: target, shape, where: heatWhere(t, hm.axes, shape) }),
    destroy() {
      hm.destroy?.();
    },
  };
}

/**
 * A line plot in `box`: set(series, x0) draws it once Chart.js has loaded (series: [{ label,
 * values, dash? }]). Labels: { x, y }. highlight(shape) marks places (web/plot/highlight.js), kept
 * until the plot has loaded; mark(shape) is { on, shape, where } for ./linked.js.
 */
export function lineFigure(box, { t }, labels, ariaLabel) {
  const holder = h('div', { class: 'learn-lines' });
  box.append(holder);
  let plot = null;
  let pending = null;
  let marked = null;
  let destroyed = false;
  makePlot(holder, { t, xLabel: labels.x, yLabel: labels.y, label: ariaLabel }).then((p) => {
    if (destroyed) {
      p.destroy?.();
      return;
    }
    plot = p;
    if (pending) draw(...pending);
    if (marked) plot.highlight(marked);
  });
  function draw(series, x0, newLabels) {
    if (!plot) {
      pending = [series, x0, newLabels];
      return;
    }
    pending = null;
    if (newLabels) plot.setLabels(newLabels);
    plot.setData({ series, x0 });
    markDrawn(box);
  }
  const highlight = (shape) => {
    marked = shape;
    plot?.highlight(shape);
  };
  const target = { highlight };
  return {
    set: (series, x0 = 0, newLabels = null) => draw(series, x0, newLabels),
    highlight,
    mark: (shape) => ({ on: target, shape, where: lineWhere(t, labels, shape) }),
    destroy() {
      destroyed = true;
      plot?.destroy?.();
    },
  };
}

/**
 * A labelled slider with its value beside it. opts: { min, max, step, value, log (a log₁₀ scale:
 * min/max/value are the real values), format }. Returns { el, input, get(), set(v) }.
 * A log slider moves in steps of 0.01 decade (…, 490, 501, …), so its value is also a number
 * box: a learner asked to try base 500 or 500,000 can type it.
 */
export function slider(label, { min, max, step = 1, value, log = false, format = formatValue, onInput }) {
  const id = uid('learn-s');
  const toPos = (v) => (log ? Math.log10(v) : v);
  const fromPos = (p) => (log ? Number((10 ** p).toPrecision(3)) : p);
  const input = h('input', {
    id, type: 'range', min: toPos(min), max: toPos(max), step: log ? 0.01 : step, value: toPos(value),
  });
  let current = value;
  const out = log
    ? h('input', { type: 'number', class: 'learn-value learn-number', min, max, step: 'any', value, inputmode: 'decimal', 'aria-label': label })
    : h('output', { for: id, class: 'learn-value' });
  const show = () => {
    if (log) out.value = String(current);
    else out.textContent = format(current);
  };
  show();
  input.addEventListener('input', () => {
    current = fromPos(Number(input.value));
    show();
    onInput?.(current);
  });
  if (log) {
    out.addEventListener('input', () => {
      const v = Number(out.value);
      const ok = out.value.trim() !== '' && Number.isFinite(v) && v >= min && v <= max;
      out.setAttribute('aria-invalid', String(!ok));
      if (!ok) return; // keep the last good value; the box says it is out of range
      current = v;
      input.value = String(toPos(v));
      onInput?.(current);
    });
  }
  const el = h('div', { class: 'learn-control' }, h('label', { for: id, text: label }), input, out);
  return {
    el,
    input,
    get: () => current,
    set(v) {
      current = v;
      input.value = String(toPos(v));
      show();
    },
  };
}

/** A labelled choice of options [{ value, label }] as a <select>. Returns { el, input, get() }. */
export function choice(label, options, value, onChange) {
  const id = uid('learn-c');
  const input = h('select', { id }, ...options.map((o) => h('option', { value: o.value, text: o.label })));
  input.value = value;
  input.addEventListener('change', () => onChange(input.value));
  const el = h('div', { class: 'learn-control' }, h('label', { for: id, text: label }), input);
  return { el, input, get: () => input.value };
}
