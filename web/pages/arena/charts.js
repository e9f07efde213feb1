// The Arena's two charts (LinePlot, loaded with the line-plot chunk, drawn through its methods
// only: web/plot/README.md): the training loss, one curve per encoding (the mean of its seeds'
// smoothed curves) on a log axis, and accuracy against evaluation length, one line per encoding
// at the mean over seeds with a band from the lowest seed to the highest (drawn under the curves
// with setOverlay, in each encoding's colour), and the training length as a dashed marker.
//
//   const charts = new ArenaCharts(lossBox, accBox, { t, onReady });
//   charts.drawLoss(jobs, settings) → drew data?; charts.drawAcc(jobs, settings, metric) → drew data?
import { float32String, formatValue, niceRealTicks } from '../../plot/format.js';
import { sup, withLinePlot } from '../../views/common.js';
import { COLOR, evalLengths, smooth } from './experiment.js';
import { groupRuns, spread, valuesAt } from './stats.js';

export const SMOOTH = 10;
const BAND_ALPHA = 0.16;

/** Ticks of a log10(loss) axis: round losses (1, 2, 5 × 10^k, or finer within a decade). */
function lossTicks({ min, max }) {
  const span = max - min;
  if (span < 0.6) return niceRealTicks(10 ** min, 10 ** max, 5).filter((v) => v > 0).map((v) => Math.log10(v));
  const ticks = [];
  for (let k = Math.floor(min); k <= Math.ceil(max); k++) {
    for (const m of span <= 2.5 ? [1, 2, 5] : [1]) {
      const v = k + Math.log10(m);
      if (v >= min - 1e-9 && v <= max + 1e-9) ticks.push(v);
    }
  }
  return ticks.length >= 2 ? ticks : null;
}

/** The label of a log10(loss) tick: 10⁻⁴ on whole decades far from 1, else the loss. */
function lossLabel(v) {
  const k = Math.round(v);
  if (Math.abs(v - k) < 1e-9 && Math.abs(k) >= 3) return `10${sup(k)}`;
  return formatValue(Number((10 ** v).toPrecision(3)));
}

/** Draws the min–max bands ([{ color, points: [[x, lo, hi]] }]) on a LinePlot overlay. */
function drawBands(g, bands) {
  const { ctx, area } = g;
  ctx.beginPath();
  ctx.rect(area.left, area.top, area.right - area.left, area.bottom - area.top);
  ctx.clip();
  ctx.globalAlpha = BAND_ALPHA;
  for (const b of bands) {
    if (b.points.length < 2) continue;
    ctx.fillStyle = b.color;
    ctx.beginPath();
    b.points.forEach(([x, , hi], i) => (i === 0 ? ctx.moveTo(g.x(x), g.y(hi)) : ctx.lineTo(g.x(x), g.y(hi))));
    for (let i = b.points.length - 1; i >= 0; i--) ctx.lineTo(g.x(b.points[i][0]), g.y(b.points[i][1]));
    ctx.closePath();
    ctx.fill();
  }
}

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
    this.loss.batch(() => {
      this.loss.setAxis('y', { ticksAt: lossTicks, format: lossLabel });
      this.loss.setTooltip({ value: (y) => float32String(10 ** y) });
    });
    this.acc = new m.LinePlot(accBox, { t, xLabel: t('arena.acc.x'), yLabel: t('arena.acc.y'), label: t('arena.acc.title') });
    this.acc.setAxis('y', { min: 0, max: 1 });
  }

  /** The loss curves: one per encoding, the mean of its seeds. Returns whether any step was drawn. */
  drawLoss(jobs, settings) {
    if (!this.loss) return false;
    const n = settings.steps;
    const series = groupRuns(jobs).map((g) => {
      const mean = meanLoss(g.runs, n);
      const values = new Float32Array(n).fill(NaN);
      for (let i = 0; i < n; i++) if (mean[i] === mean[i]) values[i] = Math.log10(Math.max(mean[i], 1e-8));
      return { label: this.t(`arena.encName.${g.enc}`), values, color: COLOR[g.enc] };
    });
    this.loss.setData({ series, x0: 1 });
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
      series.push({ label, values, dash: scaled, color: COLOR[key], points: 3, spanGaps: true });
      bands.push({ color: this.mod.seriesColor(COLOR[key]), points });
    };
    for (const g of groupRuns(jobs)) {
      add(t(`arena.encName.${g.enc}`), g.enc, g, false);
      if (g.enc === 'rope' && settings.scaling !== 'none') {
        add(t('arena.ropeScaled', t(`arena.scaling.${settings.scaling}`)), 'rope+scaled', g, true);
      }
    }
    this.acc.batch(() => {
      this.acc.setData({ series, x0 });
      this.acc.setOverlay({ under: (g) => drawBands(g, bands) });
      this.acc.setMarkers([{ x: settings.len, label: t('arena.acc.mark', settings.len), color: COLOR.none }]);
    });
    this.bands = bands.filter((b) => b.points.length >= 2).length;
    return jobs.some((j) => j.evals.length > 0);
  }

  destroy() {
    this.destroyed = true;
    this.loss?.destroy();
    this.acc?.destroy();
  }
}
