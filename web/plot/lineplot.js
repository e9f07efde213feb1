// A Chart.js line plot of a few series over a shared integer x axis (positions, keys, …), with
// zoom and pan from chartjs-plugin-zoom. Only the Chart.js pieces a line chart needs are
// registered, so the bundle stays small.
//
// Cheap by construction: a series never gets more points than about twice the plot's width in
// pixels. When a visible range holds more samples than that, each pixel column keeps its
// minimum and maximum (the envelope looks as it would with every point); after a zoom or pan
// the visible range is sampled again, so zooming in reveals every point.
//
// Views draw only through these methods, never through Chart.js (`lp.chart` is the plot's own):
//
//   const lp = new LinePlot(container, { t, xLabel, yLabel, label, legend });
//   lp.setData({ series: [{ label, values, color, width, dash, stepped, axis, points, spanGaps }], x0 });
//                                                      // values: y at x = x0, x0 + 1, …
//   lp.setAxis('y', { min, max, step, format });       // bounds, ticks, title; 'y2': a right axis
//   lp.setTooltip({ title: (x) => …, value: (y) => … });
//   lp.setMarkers([{ x, label, color, dash }]);        // dashed vertical lines over the curves
//   lp.setOverlay({ under(g), over(g) });              // own canvas drawing below/above the curves
//   lp.highlight({ x } | { y } | { range: [a, b] } | { point: [x, y] } | [...] | null);
//                                                      // marks on an SVG over the chart: no redraw
//   lp.batch(() => { …any of the above… });            // one Chart.js update at the end
//   lp.applyTheme(); lp.resetZoom(); lp.destroy();
import { Chart, LineController, LineElement, PointElement, LinearScale, Legend, Tooltip } from 'chart.js';
import zoomPlugin from 'chartjs-plugin-zoom';
import { h, cssVar } from './dom.js';
import { float32String, formatInt, formatValue } from './format.js';
import { decimate } from './decimate.js';
import { drawMarkers } from './markers.js';
import { LineMarks } from './highlight.js';

export { decimate };

/** Each chart's LinePlot, for the overlay plugin (Chart.js options would proxy the instance). */
const owners = new WeakMap();

/** Draws a LinePlot's overlay and markers: `under` before the curves, `over` and markers after. */
const overlayPlugin = {
  id: 'peLinePlotOverlay',
  beforeDatasetsDraw(chart) {
    owners.get(chart)?._drawLayer('under');
  },
  afterDatasetsDraw(chart) {
    owners.get(chart)?._drawLayer('over');
  },
  afterDraw(chart) {
    owners.get(chart)?._placeMarks();
  },
};

Chart.register(LineController, LineElement, PointElement, LinearScale, Legend, Tooltip, zoomPlugin, overlayPlugin);

/** Okabe & Ito's colour-blind safe palette, light- and dark-theme variants in style.css. */
export const SERIES_COLORS = 8;
const FALLBACK = ['#0072b2', '#e69f00', '#009e73', '#d55e00', '#cc79a7', '#56b4e9', '#8a7a00', '#555555'];

export function seriesColor(i) {
  return cssVar(`--series-${i % SERIES_COLORS}`, FALLBACK[i % SERIES_COLORS]);
}

/** A series' colour: a palette index (follows the theme), a CSS colour, or by default its own index's. */
function colorOf(c, i) {
  if (c == null) return seriesColor(i);
  return typeof c === 'number' ? seriesColor(c) : c;
}

export class LinePlot {
  /**
   * @param {HTMLElement} root  an empty element to build in
   * @param {{ t, xLabel: string, yLabel: string, label?: string, compact?: boolean, legend?: boolean }} opts
   *   legend: false hides the legend (a view whose own controls name the curves)
   */
  constructor(root, { t, xLabel, yLabel, label = '', compact = false, legend = true }) {
    this.t = t;
    this.view = null; // the zoomed x range, or null for all of it
    this.series = [];
    this.x0 = 0;
    this.n = 0;
    this.marks = [];
    this.overlay = {};
    this.held = 0; // batch() depth
    this.pending = false; // an update asked for inside a batch
    this.tipTitle = this._xTitle; // the tooltip's texts (setTooltip)
    this.tipValue = float32String;
    this.canvas = h('canvas', { 'aria-hidden': 'true' });
    this.box = h('div', {
      class: `chart-box${compact ? ' chart-compact' : ''}`, tabindex: 0, role: 'application',
      'aria-roledescription': t('lines.roledescription'), 'aria-label': label,
    }, this.canvas);
    const tool = (text, name, fn) => h('button', { type: 'button', class: 'hm-tool', 'aria-label': name, title: name, text, on: { click: fn } });
    this.tools = h('div', { class: 'hm-tools' },
      tool('+', t('lines.zoomIn'), () => this.zoomBy(1.6)),
      tool('−', t('lines.zoomOut'), () => this.zoomBy(1 / 1.6)),
      tool('⤢', t('lines.zoomReset'), () => this.resetZoom()));
    this.el = h('div', { class: 'chart-wrap' }, this.box,
      h('div', { class: 'chart-foot' }, h('p', { class: 'chart-hint', text: compact ? '' : t('lines.hint') }), this.tools));
    root.append(this.el);
    this.highlights = new LineMarks(this.box);
    this.box.addEventListener('keydown', (e) => this._key(e));

    const refine = () => {
      const x = this.chart.scales.x;
      this.view = { min: x.min, max: x.max };
      this._fill();
      this._update();
    };
    this.chart = new Chart(this.canvas, {
      type: 'line',
      data: { datasets: [] },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        parsing: false,
        normalized: true,
        spanGaps: false,
        interaction: { mode: 'nearest', axis: 'x', intersect: false },
        elements: { point: { radius: 0, hoverRadius: 3, hitRadius: 4 }, line: { borderWidth: 1.75, tension: 0 } },
        scales: {
          x: { type: 'linear', title: { display: true, text: xLabel }, ticks: { precision: 0, maxRotation: 0, callback: (v) => formatInt(v) } },
          y: { type: 'linear', title: { display: true, text: yLabel }, ticks: { callback: (v) => formatValue(v) } },
        },
        plugins: {
          legend: { display: legend, position: 'top', labels: { boxWidth: 14, boxHeight: 2, padding: 10 } },
          tooltip: {
            callbacks: {
              title: (items) => (items.length ? this.tipTitle(items[0].parsed.x) : ''),
              label: (item) => `${item.dataset.label}: ${item.parsed.y === null ? '—' : this.tipValue(item.parsed.y)}`,
            },
          },
          zoom: {
            limits: { x: { min: 0, max: 1, minRange: 2 } },
            pan: { enabled: true, mode: 'x', onPanComplete: refine },
            zoom: { wheel: { enabled: true, modifierKey: 'ctrl' }, pinch: { enabled: true }, mode: 'x', onZoomComplete: refine },
          },
        },
      },
    });
    owners.set(this.chart, this);
    this._theme();
  }

  /**
   * Runs fn(), holding back the Chart.js update of every method it calls (setData, setAxis,
   * setMarkers, …) until it returns: one update for data, styles, axes and markers together.
   * Returns what fn returns. Batches nest; the outermost one updates.
   */
  batch(fn) {
    this.held += 1;
    try {
      return fn();
    } finally {
      this.held -= 1;
      if (!this.held && this.pending) {
        this.pending = false;
        this.chart.update('none');
      }
    }
  }

  /** One Chart.js update now, or at the end of the batch() running. */
  _update() {
    if (this.held) this.pending = true;
    else this.chart.update('none');
  }

  applyTheme() {
    this._theme();
    this._update();
  }

  _theme() {
    const fg = cssVar('--muted', '#555');
    const grid = cssVar('--grid', 'rgba(0,0,0,0.08)');
    Chart.defaults.font.family = getComputedStyle(document.body).fontFamily || Chart.defaults.font.family;
    const o = this.chart.options;
    for (const axis of [o.scales.x, o.scales.y]) {
      axis.ticks.color = fg;
      axis.title.color = fg;
      axis.grid = { ...(axis.grid || {}), color: grid };
      axis.border = { ...(axis.border || {}), color: grid };
    }
    // A second axis (setAxis('y2', …)) takes the text colour; its tick marks keep Chart.js's.
    for (const [id, axis] of Object.entries(o.scales)) {
      if (id === 'x' || id === 'y') continue;
      axis.ticks.color = fg;
      axis.title.color = fg;
    }
    o.plugins.legend.labels.color = cssVar('--fg', '#222');
    this.chart.data.datasets.forEach((d, i) => {
      d.borderColor = colorOf(this.series[i]?.color, i);
      d.backgroundColor = d.borderColor;
    });
  }

  /**
   * Sets options of an axis ('x', 'y', or 'y2': a second value axis on the right, made on first
   * use; a series is drawn against it with axis: 'y2'). Only the keys given change:
   *   title         the axis title
   *   display       false hides the axis
   *   min, max, suggestedMin, suggestedMax, beginAtZero   the value range (not on x: the data
   *                 and the zoom set it)
   *   step, precision, autoSkip   tick spacing, decimals, thinning of crowded labels
   *   format        (v) => the label of the tick at v ('' for none)
   *   ticksAt       ({ min, max }) => the tick values, or null to keep Chart.js's
   *   grid          false: no grid lines across the plotting area (a second axis's default)
   * Updates the plot (once per batch()).
   */
  setAxis(id, opts) {
    const sc = this.chart.options.scales;
    if (!sc[id]) {
      sc[id] = { type: 'linear', position: 'right', title: { display: true, text: '' }, grid: { drawOnChartArea: false }, ticks: {} };
      const fg = cssVar('--muted', '#555');
      sc[id].ticks.color = fg;
      sc[id].title.color = fg;
    }
    const axis = sc[id];
    const has = (k) => Object.hasOwn(opts, k);
    if (has('title')) axis.title.text = opts.title;
    if (has('display')) axis.display = opts.display;
    for (const k of ['min', 'max', 'suggestedMin', 'suggestedMax', 'beginAtZero']) {
      if (!has(k)) continue;
      if (id === 'x' && (k === 'min' || k === 'max')) throw new Error('LinePlot.setAxis: the x range follows the data and the zoom');
      axis[k] = opts[k];
    }
    if (has('step')) axis.ticks.stepSize = opts.step;
    if (has('precision')) axis.ticks.precision = opts.precision;
    if (has('autoSkip')) axis.ticks.autoSkip = opts.autoSkip;
    if (has('format')) {
      const format = opts.format;
      axis.ticks.callback = (v) => format(v);
    }
    if (has('ticksAt')) {
      const at = opts.ticksAt;
      axis.afterBuildTicks = at
        ? (scale) => {
          const values = at({ min: scale.min, max: scale.max });
          if (values) scale.ticks = values.map((value) => ({ value }));
        }
        : undefined;
    }
    if (has('grid')) axis.grid = { ...(axis.grid || {}), drawOnChartArea: opts.grid !== false };
    this._update();
  }

  /**
   * How the tooltip reads: title(x) the heading of the point at x (default: the x axis title
   * and x), value(y) each curve's value (default: the float32 text). null restores a default.
   * Takes effect at the next hover: no update.
   */
  setTooltip({ title, value } = {}) {
    if (title !== undefined) this.tipTitle = title ?? this._xTitle;
    if (value !== undefined) this.tipValue = value ?? float32String;
  }

  /**
   * Dashed vertical lines over the curves, each labelled at the top of the plotting area:
   * [{ x, label, color (CSS colour or palette index), dash? ([5, 4]) }]; [] removes them.
   * Updates the plot (once per batch()).
   */
  setMarkers(marks) {
    const plate = cssVar('--surface', '#ffffff');
    this.marks = marks.map((m, i) => ({ plate, ...m, color: colorOf(m.color, i) }));
    this._update();
  }

  /**
   * Own drawing on the canvas: under(g) before the curves, over(g) after them (and before the
   * markers), each given g = { ctx, area: { left, top, right, bottom }, x(v), y(v, axis = 'y'),
   * font } (x and y map values to pixels). {} removes them. Updates the plot (once per batch()).
   */
  setOverlay({ under = null, over = null } = {}) {
    this.overlay = { under, over };
    this._update();
  }

  /**
   * Highlights places of the plot (web/plot/highlight.js: { x }, { y }, { range: [a, b] },
   * { point: [x, y] }, or a list of them; null clears) on an SVG over the chart: the curves are
   * not redrawn. The marks follow later draws (zoom, new data). Returns the shapes.
   */
  highlight(shapes) {
    const s = this.highlights.set(shapes);
    this._placeMarks();
    return s;
  }

  _placeMarks() {
    const a = this.chart?.chartArea;
    const sc = this.chart?.scales;
    if (!a || !sc?.x || !sc?.y) {
      this.highlights.draw(null);
      return;
    }
    this.highlights.draw({
      area: { left: a.left, top: a.top, right: a.right, bottom: a.bottom },
      x: (v) => sc.x.getPixelForValue(v),
      y: (v) => sc.y.getPixelForValue(v),
    });
  }

  /** The tooltip's default heading: the x axis title and x. */
  _xTitle = (x) => `${this.chart.options.scales.x.title.text} ${formatInt(x)}`;

  _drawLayer(layer) {
    const fn = this.overlay[layer];
    const marks = layer === 'over' ? this.marks : [];
    if (!fn && !marks.length) return;
    const { ctx, chartArea: a, scales } = this.chart;
    const g = {
      ctx,
      area: { left: a.left, top: a.top, right: a.right, bottom: a.bottom },
      x: (v) => scales.x.getPixelForValue(v),
      y: (v, axis = 'y') => scales[axis].getPixelForValue(v),
      font: this.chart.options.font?.family ?? getComputedStyle(document.body).fontFamily ?? 'sans-serif',
    };
    if (fn) {
      ctx.save();
      fn(g);
      ctx.restore();
    }
    drawMarkers(g, marks);
  }

  /** New axis titles (drawn with the next setData). */
  setLabels({ x, y }) {
    // Chart.js options are proxies that resolve on every write: an unchanged title (every
    // redraw of a slider drag) writes nothing.
    const shown = (this.titles ??= {});
    const sc = this.chart.options.scales;
    if (x !== undefined && x !== shown.x) sc.x.title.text = shown.x = x;
    if (y !== undefined && y !== shown.y) sc.y.title.text = shown.y = y;
  }

  /**
   * @param {{ series: { label: string, values: ArrayLike<number> }[], x0?: number }} d
   *   every series has the same length; values[i] is the y at x = x0 + i. A series may also
   *   say how it is drawn: color (a palette index, which follows the theme, or a CSS colour;
   *   default: the palette colour of its place), width (px; default 1.75), dash (true: dashed),
   *   stepped (true: steps centred on the samples), axis ('y2': against the second axis),
   *   points (dot radius; default 2.5 up to 48 samples, else none), spanGaps (true: lines across
   *   missing values). Updates the plot (once per batch()).
   */
  setData({ series, x0 = 0 }) {
    const n = series.length ? series[0].values.length : 0;
    const extentChanged = n !== this.n || x0 !== this.x0;
    this.series = series;
    this.x0 = x0;
    this.n = n;
    const lim = this.chart.options.plugins.zoom.limits.x;
    lim.min = x0;
    lim.max = x0 + Math.max(n - 1, 1);
    if (this.view && extentChanged) {
      // Keep the zoomed range where it still fits the new data.
      const min = Math.max(lim.min, this.view.min);
      const max = Math.min(lim.max, this.view.max);
      this.view = max - min >= 2 ? { min, max } : null;
    }
    // Reuse the dataset objects (and so Chart.js's elements) when the number of curves is the same.
    const sets = this.chart.data.datasets;
    if (sets.length !== series.length) {
      this.chart.data.datasets = series.map(() => ({ data: [] }));
    }
    this.chart.data.datasets.forEach((d, i) => {
      const s = series[i];
      d.label = s.label;
      d.borderColor = colorOf(s.color, i);
      d.backgroundColor = d.borderColor;
      d.pointRadius = s.points ?? (n <= 48 ? 2.5 : 0);
      d.borderDash = s.dash ? [5, 3] : undefined;
      d.borderWidth = s.width;
      d.stepped = s.stepped === true ? 'middle' : (s.stepped || false);
      d.yAxisID = s.axis ?? 'y';
      d.spanGaps = s.spanGaps;
    });
    this._fill();
    this._update();
  }

  /** Sample the visible range into the datasets (and set the x range). */
  _fill() {
    const lim = this.chart.options.plugins.zoom.limits.x;
    const min = this.view ? this.view.min : lim.min;
    const max = this.view ? this.view.max : lim.max;
    const x = this.chart.options.scales.x;
    x.min = min;
    x.max = max;
    const ia = Math.max(0, Math.floor(min - this.x0) - 1);
    const ib = Math.min(this.n - 1, Math.ceil(max - this.x0) + 1);
    // Two points (the minimum and maximum) per pixel column of the plotting area, once Chart.js
    // has laid it out (the box's width before).
    const columns = this.chart?.chartArea?.width || this.box.clientWidth || 600;
    const budget = Math.max(200, Math.round(columns * 2));
    this.chart.data.datasets.forEach((d, i) => {
      d.data = decimate(this.series[i].values, this.x0, ia, ib, budget);
    });
  }

  get zoomed() {
    return !!this.view;
  }

  zoomBy(factor) {
    if (!this.n) return;
    const lim = this.chart.options.plugins.zoom.limits.x;
    const min = this.view ? this.view.min : lim.min;
    const max = this.view ? this.view.max : lim.max;
    const c = (min + max) / 2;
    const half = Math.max(1, (max - min) / factor / 2);
    this._setView(c - half, c + half);
  }

  panBy(fraction) {
    if (!this.view) return;
    const span = this.view.max - this.view.min;
    this._setView(this.view.min + fraction * span, this.view.max + fraction * span);
  }

  _setView(min, max) {
    const lim = this.chart.options.plugins.zoom.limits.x;
    const span = Math.min(lim.max - lim.min, Math.max(2, max - min));
    min = Math.min(Math.max(lim.min, min), lim.max - span);
    max = min + span;
    this.view = min <= lim.min && max >= lim.max ? null : { min, max };
    this._fill();
    this._update();
  }

  resetZoom() {
    this.view = null;
    this.chart.resetZoom?.('none');
    this._fill();
    this._update();
  }

  _key(e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    switch (e.key) {
      case '+': case '=': this.zoomBy(1.6); break;
      case '-': case '_': this.zoomBy(1 / 1.6); break;
      case '0': this.resetZoom(); break;
      case 'ArrowLeft': this.panBy(-0.2); break;
      case 'ArrowRight': this.panBy(0.2); break;
      default: return;
    }
    e.preventDefault();
  }

  destroy() {
    owners.delete(this.chart);
    this.chart.destroy();
    this.el.remove();
  }
}
