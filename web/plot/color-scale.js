// Colour scales of the heatmaps (issue 29): which scale a table is drawn on, its colour range, and
// the colour bar's ticks at the places that scale puts them. The colours themselves are computed
// in C (c/heatmap.h pe_color_scale: the scale applies to the resampled values) or, in the JS
// fallback, by unitValues here with the same formula (web/api/color-scales.js scalePosition):
//   linear  t = (v − lo) / (hi − lo)
//   sqrt    t = (√v − √lo) / (√hi − √lo)          (lo ≥ 0)
//   log     t = (ln v − ln lo) / (ln hi − ln lo)  (lo > 0: the floor, stated on the colour bar)
//
// 'auto' (the heatmap view asks for it for attention weights): a non-negative table whose values
// span two decades or more between a robust low (the 1st percentile of its positive values) and
// its maximum is drawn on the log scale, one decade or more on sqrt, else linear. A long causal
// attention table has weights ≈ 1/i: on the linear scale every row past the tenth is in the bottom
// tenth of the map (a dark picture); on the log scale t = 1 − ln i / ln L, a gradient over the rows.
import { formatValue, niceRealTicks } from './format.js';
import { COLOR_SCALES, LOG_FLOOR, scalePosition } from '../api/color-scales.js';

export { COLOR_SCALES, scalePosition };
/** What a heatmap may be asked for: a scale, or 'auto'. */
export const SCALE_CHOICES = ['auto', ...Object.keys(COLOR_SCALES)];

const SAMPLE = 65536; // values read for the robust low (a strided sample of a larger table)

/**
 * The robust low of count values from offset: the 1st percentile of the positive finite values of
 * a strided sample of at most 65 536 of them (NaN when none is positive). A few tiny values (a
 * softmax's 1e-30) do not pull the log scale's floor down; the pattern of the rest sets it.
 */
export function robustLow(data, offset, count) {
  const step = Math.max(1, Math.floor(count / SAMPLE));
  // A typed array and a selection, not an array of numbers and a sort: this runs on every redraw
  // of a new table, a slider drag included (512 × 512: 25–30 ms sorted, about 1 ms selected).
  const pos = new Float64Array(Math.ceil(count / step));
  let n = 0;
  for (let i = 0; i < count; i += step) {
    const v = data[offset + i];
    if (v > 0 && v < Infinity) pos[n++] = v;
  }
  if (n === 0) return NaN;
  return select(pos, n, Math.floor(0.01 * (n - 1)));
}

/** The k-th smallest of a[0 .. n) (Hoare's selection, in place, O(n) expected): what a sort would put at k. */
function select(a, n, k) {
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const pivot = a[(lo + hi) >>> 1];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
      if (i <= j) {
        const t = a[i];
        a[i] = a[j];
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k];
  }
  return a[k];
}

/**
 * The scale a table is drawn on: `requested` itself, or for 'auto' log / sqrt / linear by the
 * decades between low (robustLow) and the maximum of a non-negative table. sqrt and log need a
 * table with no negative value (and log one with a positive value): otherwise linear.
 */
export function resolveScale(requested, scan, low) {
  const nonNegative = Number.isFinite(scan?.lo) && scan.lo >= 0 && scan.hi > 0;
  if (requested === 'linear' || !nonNegative) return 'linear';
  if (requested === 'sqrt') return 'sqrt';
  if (requested === 'log') return low > 0 ? 'log' : 'linear';
  const decades = low > 0 ? Math.log10(scan.hi / low) : 0;
  return decades >= 2 ? 'log' : decades >= 1 ? 'sqrt' : 'linear';
}

/**
 * The colour range [lo, hi] on `scale` from the linear one: sqrt from 0 at least; log from the
 * floor max(low, hi · 1e-6) (values below it take the bottom colour).
 */
export function scaledRange(scale, [lo, hi], low) {
  if (scale === 'sqrt') return [Math.max(0, lo), hi];
  if (scale === 'log') {
    const floor = Math.max(low > 0 ? low : 0, hi * LOG_FLOOR);
    return floor < hi ? [floor, hi] : [hi * LOG_FLOOR, hi];
  }
  return [lo, hi];
}

/**
 * The scale drawn and its colour range, for a heatmap asked for `requested` whose values span
 * lo … hi and whose linear colour range is `linear` (colorRangeOf's); low() gives robustLow,
 * called only when a scale other than linear is asked for. → { scale, range: [vmin, vmax] }
 */
export function scaleRange(requested, lo, hi, linear, low) {
  if (!requested || requested === 'linear') return { scale: 'linear', range: linear };
  const l = low();
  const scale = resolveScale(requested, { lo, hi }, l);
  return { scale, range: scaledRange(scale, linear, l) };
}

/** A power of ten as a tick label: 0.01, 0.1, 1, 10, 100, else 1e−4 or 1e5. */
function powerLabel(k) {
  return k >= -2 && k <= 2 ? String(Number((10 ** k).toPrecision(1))) : `1e${k < 0 ? '−' : ''}${Math.abs(k)}`;
}

/**
 * The colour bar's ticks of lo … hi on `scale`, about `count` of them: [{ v, label, pos }] with pos
 * the position from the bottom (0) to the top (1), where the colour of v is. Linear: nice values
 * evenly spaced. sqrt: nice values of v placed at their √ positions (crowded at the top, sparse
 * near 0, as the colours are). log: the powers of ten in the range (every other one, or fewer,
 * when there are many), and the floor at the bottom labelled "≤ floor": every smaller value,
 * zeros included, has its colour.
 */
export function scaleTicks(scale, lo, hi, count) {
  const at = (v, label = formatValue(v)) => ({ v, label, pos: scalePosition(scale, v, lo, hi) });
  if (scale !== 'log') {
    // sqrt: nice values of v chosen as if linear in √v, so they spread over the bar.
    const vs = scale === 'sqrt'
      ? niceRealTicks(Math.sqrt(lo), Math.sqrt(hi), count).map((r) => Number((r * r).toPrecision(6)))
      : niceRealTicks(lo, hi, count);
    return vs.filter((v) => v >= lo && v <= hi).map((v) => at(v));
  }
  const k0 = Math.ceil(Math.log10(lo) - 1e-9);
  const k1 = Math.floor(Math.log10(hi) + 1e-9);
  const every = Math.max(1, Math.ceil((k1 - k0 + 1) / Math.max(2, count)));
  const ticks = [];
  for (let k = k1; k >= k0; k -= every) ticks.push(at(10 ** k, powerLabel(k)));
  ticks.reverse();
  // The floor: labelled unless a power of ten sits on it, or so close that the labels would touch.
  if (!(ticks.length && ticks[0].pos < 0.06)) ticks.unshift({ v: lo, label: `≤ ${formatValue(lo)}`, pos: 0 });
  else if (Math.abs(ticks[0].v - lo) <= 1e-9 * lo) ticks[0].label = `≤ ${ticks[0].label}`;
  return ticks;
}

/**
 * The JS fallback's colours: values put on 0 … 1 by scalePosition in float64 (non-finite values
 * stay), for colorize with vmin 0, vmax 1 (entry floor(256·t), as the C kernel's).
 */
export function unitValues(values, scale, lo, hi) {
  const unit = new Float32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    unit[i] = v - v === 0 ? Math.min(scalePosition(scale, v, lo, hi), 255.5 / 256) : v;
  }
  return unit;
}

/**
 * colorize's colours (the JS fallback's) of values in lo … hi on `scale`. Linear: colorize itself
 * where float32 holds the range (colorize computes in float32); otherwise (a table of values
 * ≤ 1e-38 or subnormal, whose 256 / (hi − lo) overflows, or of ±3e38, whose hi − lo does) the
 * values are put on 0 … 1 in float64 first, from halves (hi − lo may overflow):
 * u = (v/2 − lo/2) / (hi/2 − lo/2). sqrt and log: unitValues. ±∞ and NaN stay.
 */
export function colorizeRange(colorize, values, map, scale, lo, hi) {
  if (scale !== 'linear') return colorize(unitValues(values, scale, lo, hi), { map, vmin: 0, vmax: 1 });
  const f = Math.fround;
  const [a, b] = [f(lo), f(hi)];
  const width = f(b - a); // float32 arithmetic: the float64 result of float32 operands, rounded
  if (Number.isFinite(a) && Number.isFinite(b) && b > a && Number.isFinite(width) && Number.isFinite(f(256 / width))) {
    return colorize(values, { map, vmin: lo, vmax: hi });
  }
  const half = hi / 2 - lo / 2;
  const unit = new Float32Array(values.length);
  for (let i = 0; i < values.length; i++) unit[i] = (values[i] / 2 - lo / 2) / half;
  return colorize(unit, { map, vmin: 0, vmax: 1 });
}
