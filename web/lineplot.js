// Chart.js line plot of selected columns (dimensions) of a row-major [rows, cols] table across rows
// (positions). Only the Chart.js pieces a line chart needs are registered, so the bundle stays small.
//
//   const lp = new LinePlot(canvas, { strings });
//   lp.setData({ data, rows, cols, rowOffset, dims: [0, 1, 4, 5] });
//   lp.applyTheme();   // re-read colours from CSS custom properties (e.g. after a colour-scheme change)

import {
  Chart,
  LineController,
  LineElement,
  PointElement,
  LinearScale,
  Legend,
  Tooltip,
  Title,
} from 'chart.js';
import { formatValue } from './heatmap.js';

Chart.register(LineController, LineElement, PointElement, LinearScale, Legend, Tooltip, Title);

/** Tableau 10: distinguishable on light and dark backgrounds. */
export const PALETTE = [
  '#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f',
  '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac',
];

/** Above this many rows a series is reduced to the min and max of each of MAX_BUCKETS buckets. */
const MAX_POINTS = 2400;
const MAX_BUCKETS = 1200;

const DEFAULT_STRINGS = {
  x: 'position',
  y: 'value',
  series: (d) => `dim ${d}`,
  tooltipTitle: (p) => `position ${p}`,
};

/** Points {x, y} of column `col`; min/max per bucket when there are too many rows to draw. */
export function columnPoints(data, rows, cols, col, rowOffset = 0) {
  if (rows <= MAX_POINTS) {
    const pts = new Array(rows);
    for (let r = 0; r < rows; r++) pts[r] = { x: rowOffset + r, y: data[r * cols + col] };
    return pts;
  }
  const pts = [];
  for (let b = 0; b < MAX_BUCKETS; b++) {
    const r0 = Math.floor((b * rows) / MAX_BUCKETS);
    const r1 = Math.floor(((b + 1) * rows) / MAX_BUCKETS);
    let rmin = r0;
    let rmax = r0;
    for (let r = r0 + 1; r < r1; r++) {
      const v = data[r * cols + col];
      if (v < data[rmin * cols + col]) rmin = r;
      if (v > data[rmax * cols + col]) rmax = r;
    }
    const a = Math.min(rmin, rmax);
    const z = Math.max(rmin, rmax);
    pts.push({ x: rowOffset + a, y: data[a * cols + col] });
    if (z !== a) pts.push({ x: rowOffset + z, y: data[z * cols + col] });
  }
  return pts;
}

function cssVar(name, fallback) {
  const v = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return v || fallback;
}

export class LinePlot {
  /** @param {HTMLCanvasElement} canvas  inside a container with a definite height */
  constructor(canvas, { strings = {} } = {}) {
    this.s = { ...DEFAULT_STRINGS, ...strings };
    this.chart = new Chart(canvas, {
      type: 'line',
      data: { datasets: [] },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        parsing: false,
        normalized: true,
        spanGaps: false,
        interaction: { mode: 'index', intersect: false },
        elements: {
          point: { radius: 0, hoverRadius: 3, hitRadius: 4 },
          line: { borderWidth: 1.75, tension: 0 },
        },
        scales: {
          x: {
            type: 'linear',
            title: { display: true, text: this.s.x },
            ticks: { precision: 0, maxRotation: 0, includeBounds: false },
          },
          y: {
            type: 'linear',
            title: { display: true, text: this.s.y },
          },
        },
        plugins: {
          legend: { position: 'top', labels: { boxWidth: 14, boxHeight: 2, padding: 10 } },
          tooltip: {
            callbacks: {
              title: (items) => (items.length ? this.s.tooltipTitle(items[0].parsed.x) : ''),
              label: (item) => `${item.dataset.label}: ${formatValue(item.parsed.y)}`,
            },
          },
        },
      },
    });
    this.applyTheme();
  }

  applyTheme() {
    Chart.defaults.font.family = getComputedStyle(document.body).fontFamily || Chart.defaults.font.family;
    const fg = cssVar('--muted', '#555');
    const grid = cssVar('--grid', 'rgba(0,0,0,0.08)');
    const o = this.chart.options;
    for (const axis of [o.scales.x, o.scales.y]) {
      axis.ticks.color = fg;
      axis.title.color = fg;
      axis.grid = { ...(axis.grid || {}), color: grid };
      axis.border = { ...(axis.border || {}), color: grid };
    }
    o.plugins.legend.labels.color = cssVar('--fg', '#222');
    this.chart.update('none');
  }

  /** @param {{ data: Float32Array, rows: number, cols: number, rowOffset?: number, dims: number[] }} t */
  setData({ data, rows, cols, rowOffset = 0, dims }) {
    this.chart.data.datasets = dims.map((d, i) => {
      const color = PALETTE[i % PALETTE.length];
      return {
        label: this.s.series(d),
        data: columnPoints(data, rows, cols, d, rowOffset),
        borderColor: color,
        backgroundColor: color,
        pointRadius: rows <= 48 ? 2 : 0,
      };
    });
    const x = this.chart.options.scales.x;
    x.min = rowOffset;
    x.max = rowOffset + Math.max(rows - 1, 1);
    this.chart.update('none');
  }

  destroy() {
    this.chart.destroy();
  }
}
