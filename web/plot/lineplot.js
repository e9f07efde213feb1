// A Chart.js line plot of a few series over a shared integer x axis (positions, keys, …), with
// zoom and pan from chartjs-plugin-zoom. Only the Chart.js pieces a line chart needs are
// registered, so the bundle stays small.
//
// Cheap by construction: a series never gets more points than about twice the plot's width in
// pixels. When a visible range holds more samples than that, each pixel column keeps its
// minimum and maximum (the envelope looks as it would with every point); after a zoom or pan
// the visible range is sampled again, so zooming in reveals every point.
//
//   const lp = new LinePlot(container, { t, xLabel, yLabel, label });
//   lp.setData({ series: [{ label, values }], x0 });   // values: y at x = x0, x0 + 1, …
//   lp.applyTheme(); lp.resetZoom(); lp.destroy();
import { Chart, LineController, LineElement, PointElement, LinearScale, Legend, Tooltip } from 'chart.js';
import zoomPlugin from 'chartjs-plugin-zoom';
import { h, cssVar } from './dom.js';
import { float32String, formatInt, formatValue } from './format.js';
import { decimate } from './decimate.js';

export { decimate };

Chart.register(LineController, LineElement, PointElement, LinearScale, Legend, Tooltip, zoomPlugin);

/** Okabe & Ito's colour-blind safe palette, light- and dark-theme variants in style.css. */
export const SERIES_COLORS = 8;
const FALLBACK = ['#0072b2', '#e69f00', '#009e73', '#d55e00', '#cc79a7', '#56b4e9', '#8a7a00', '#555555'];

export function seriesColor(i) {
  return cssVar(`--series-${i % SERIES_COLORS}`, FALLBACK[i % SERIES_COLORS]);
}

export class LinePlot {
  /**
   * @param {HTMLElement} root  an empty element to build in
   * @param {{ t, xLabel: string, yLabel: string, label?: string, compact?: boolean }} opts
   */
  constructor(root, { t, xLabel, yLabel, label = '', compact = false }) {
    this.t = t;
    this.view = null; // the zoomed x range, or null for all of it
    this.series = [];
    this.x0 = 0;
    this.n = 0;
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
    this.box.addEventListener('keydown', (e) => this._key(e));

    const refine = () => {
      const x = this.chart.scales.x;
      this.view = { min: x.min, max: x.max };
      this._fill();
      this.chart.update('none');
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
          legend: { position: 'top', labels: { boxWidth: 14, boxHeight: 2, padding: 10 } },
          tooltip: {
            callbacks: {
              title: (items) => (items.length ? `${this.chart.options.scales.x.title.text} ${formatInt(items[0].parsed.x)}` : ''),
              label: (item) => `${item.dataset.label}: ${item.parsed.y === null ? '—' : float32String(item.parsed.y)}`,
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
    this._theme();
  }

  applyTheme() {
    this._theme();
    this.chart.update('none');
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
    o.plugins.legend.labels.color = cssVar('--fg', '#222');
    this.chart.data.datasets.forEach((d, i) => {
      d.borderColor = seriesColor(i);
      d.backgroundColor = d.borderColor;
    });
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
   *   every series has the same length; values[i] is the y at x = x0 + i
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
      d.borderColor = seriesColor(i);
      d.backgroundColor = d.borderColor;
      d.pointRadius = n <= 48 ? 2.5 : 0;
      d.borderDash = s.dash ? [5, 3] : undefined;
    });
    this._fill();
    this.chart.update('none');
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
    this.chart.update('none');
  }

  resetZoom() {
    this.view = null;
    this.chart.resetZoom?.('none');
    this._fill();
    this.chart.update('none');
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
    this.chart.destroy();
    this.el.remove();
  }
}
