// The Arena's two charts (LinePlot, loaded with the line-plot chunk): the training loss, one
// curve per encoding (the mean of its seeds' smoothed curves), and accuracy against evaluation
// length, one line per encoding at the mean over seeds with a band from the lowest seed to the
// highest (a page-local Chart.js plugin draws the bands under the lines, in each encoding's colour),
// and the training length as a dashed line.
//
//   const charts = new ArenaCharts(lossBox, accBox, { t, onReady });
//   charts.drawLoss(jobs, settings) → drew data?; charts.drawAcc(jobs, settings, metric) → drew data?
import { float32String, formatValue, niceRealTicks } from '../../plot/format.js';
import { sup, withLinePlot } from '../../views/common.js';
import { setMarks, useMarks } from '../../views/precision/common.js';
import { COLOR, evalLengths, smooth } from './experiment.js';
import { groupRuns, spread, valuesAt } from './stats.js';

export const SMOOTH = 10;
const BAND_ALPHA = 0.16;

/** The min–max band of each encoding over its seeds: options.bands = [{ color, points: [[x, lo, hi]] }]. */
const bandPlugin = {
  id: 'peArenaBand',
  beforeDatasetsDraw(chart, _args, opts) {
    if (!opts?.bands?.length) return;
    const { ctx, chartArea: a, scales } = chart;
    ctx.save();
    ctx.beginPath();
    ctx.rect(a.left, a.top, a.right - a.left, a.bottom - a.top);
    ctx.clip();
    ctx.globalAlpha = BAND_ALPHA;
    for (const b of opts.bands) {
      if (b.points.length < 2) continue;
      ctx.fillStyle = b.color;
      ctx.beginPath();
      b.points.forEach(([x, , hi], i) => {
        const px = scales.x.getPixelForValue(x);
        const py = scales.y.getPixelForValue(hi);
        if (i === 0) ctx.moveTo(px, py);
        else ctx.lineTo(px, py);
      });
      for (let i = b.points.length - 1; i >= 0; i--) {
        const [x, lo] = b.points[i];
        ctx.lineTo(scales.x.getPixelForValue(x), scales.y.getPixelForValue(lo));
      }
      ctx.closePath();
      ctx.fill();
    }
    ctx.restore();
  },
};
let registered = false;

/** The mean over a group's runs of their smoothed losses, step by step (over the runs that got that far). */
export function meanLoss(runs, n, w = SMOOTH) {
  const sum = new Float64Array(n);
  const count = new Uint16Array(n);
  for (const r of runs) {
    const s = smooth(r.losses, r.steps, w);
    for (let i = 0; i < r.steps && i < n; i++) {
      sum[i] += s[i];
      count[i] += 1;
    }
  }
  const out = new Float32Array(n).fill(NaN);
  for (let i = 0; i < n; i++) if (count[i]) out[i] = sum[i] / count[i];
  return out;
}

export class ArenaCharts {
  constructor(lossBox, accBox, { t, onReady }) {
    this.t = t;
    this.loss = null;
    this.acc = null;
    this.mod = null;
    this.bands = 0;
    this.destroyed = false;
    // onReady after the constructor has returned, also when the chunk is already loaded.
    withLinePlot((m) => queueMicrotask(() => {
      if (this.destroyed) return;
      this.mod = m;
      this._make(m, lossBox, accBox);
      onReady();
    }));
  }

  _make(m, lossBox, accBox) {
    const { t } = this;
    this.loss = new m.LinePlot(lossBox, { t, xLabel: t('arena.loss.x'), yLabel: t('arena.loss.y'), label: t('arena.loss.title') });
    const ly = this.loss.chart.options.scales.y;
    // The axis holds log10(loss): ticks at round losses (1, 2, 5 × 10^k, or finer within a decade).
    ly.afterBuildTicks = (axis) => {
      const span = axis.max - axis.min;
      let ticks = [];
      if (span < 0.6) {
        ticks = niceRealTicks(10 ** axis.min, 10 ** axis.max, 5).filter((v) => v > 0).map((v) => ({ value: Math.log10(v) }));
      } else {
        for (let k = Math.floor(axis.min); k <= Math.ceil(axis.max); k++) {
          for (const m2 of span <= 2.5 ? [1, 2, 5] : [1]) {
            const v = k + Math.log10(m2);
            if (v >= axis.min - 1e-9 && v <= axis.max + 1e-9) ticks.push({ value: v });
          }
        }
      }
      if (ticks.length >= 2) axis.ticks = ticks;
    };
    ly.ticks.callback = (v) => {
      const k = Math.round(v);
      if (Math.abs(v - k) < 1e-9 && Math.abs(k) >= 3) return `10${sup(k)}`;
      return formatValue(Number((10 ** v).toPrecision(3)));
    };
    this.loss.chart.options.plugins.tooltip.callbacks.label = (item) =>
      `${item.dataset.label}: ${item.parsed.y === null ? '—' : float32String(10 ** item.parsed.y)}`;

    this.acc = new m.LinePlot(accBox, { t, xLabel: t('arena.acc.x'), yLabel: t('arena.acc.y'), label: t('arena.acc.title') });
    if (!registered) {
      this.acc.chart.constructor.register(bandPlugin);
      registered = true;
    }
    useMarks(this.acc); // the training length's dashed line (the precision views' marker)
    const ay = this.acc.chart.options.scales.y;
    ay.min = 0;
    ay.max = 1;
  }

  _colour(chart, keys) {
    chart.data.datasets.forEach((d, i) => {
      d.borderColor = this.mod.seriesColor(COLOR[keys[i]]);
      d.backgroundColor = d.borderColor;
    });
  }

  /** The loss curves: one per encoding, the mean of its seeds. Returns whether any step was drawn. */
  drawLoss(jobs, settings) {
    if (!this.loss) return false;
    const n = settings.steps;
    const groups = groupRuns(jobs);
    const series = groups.map((g) => {
      const mean = meanLoss(g.runs, n);
      const values = new Float32Array(n).fill(NaN);
      for (let i = 0; i < n; i++) if (mean[i] === mean[i]) values[i] = Math.log10(Math.max(mean[i], 1e-8));
      return { label: this.t(`arena.encName.${g.enc}`), values };
    });
    this.loss.setData({ series, x0: 1 });
    this._colour(this.loss.chart, groups.map((g) => g.enc));
    this.loss.chart.update('none');
    return jobs.some((j) => j.steps > 0);
  }

  /** Accuracy against evaluation length: mean line and min–max band per encoding. Returns whether any point was drawn. */
  drawAcc(jobs, settings, metric) {
    if (!this.acc) return false;
    const { t } = this;
    const lengths = evalLengths(settings.len, settings.task);
    const x0 = lengths[0];
    const n = lengths[lengths.length - 1] - x0 + 1;
    const series = [];
    const keys = [];
    const bands = [];
    const add = (label, key, g, scaled) => {
      const values = new Float32Array(n).fill(NaN);
      const points = [];
      for (const len of lengths) {
        const s = spread(valuesAt(g, len, metric, scaled));
        if (!s) continue;
        values[len - x0] = s.mean;
        points.push([len, s.min, s.max]);
      }
      series.push({ label, values, dash: scaled });
      keys.push(key);
      bands.push({ color: this.mod.seriesColor(COLOR[key]), points });
    };
    for (const g of groupRuns(jobs)) {
      add(t(`arena.encName.${g.enc}`), g.enc, g, false);
      if (g.enc === 'rope' && settings.scaling !== 'none') {
        add(t('arena.ropeScaled', t(`arena.scaling.${settings.scaling}`)), 'rope+scaled', g, true);
      }
    }
    this.acc.setData({ series, x0 });
    const chart = this.acc.chart;
    this._colour(chart, keys);
    chart.data.datasets.forEach((d) => {
      d.spanGaps = true;
      d.pointRadius = 3;
    });
    setMarks(this.acc, [{ x: settings.len, label: t('arena.acc.mark', settings.len), color: this.mod.seriesColor(7) }]);
    chart.options.plugins.peArenaBand = { bands };
    this.bands = bands.filter((b) => b.points.length >= 2).length;
    chart.update('none');
    return jobs.some((j) => j.evals.length > 0);
  }

  destroy() {
    this.destroyed = true;
    this.loss?.destroy();
    this.acc?.destroy();
  }
}
