// Number formatting shared by the page's views: compact labels, exact float32 read-outs, ticks.

const MINUS = '\u2212';

/** A compact label: 4 significant digits, exponent outside [1e-3, 1e5), a real minus sign. */
export function formatValue(v) {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+∞';
  if (v === -Infinity) return `${MINUS}∞`;
  if (v === 0) return '0';
  const a = Math.abs(v);
  const s = a >= 1e5 || a < 1e-3 ? v.toExponential(2).replace('e+', 'e') : String(Number(v.toPrecision(4)));
  return s.replace('-', MINUS).replace('e-', `e${MINUS}`);
}

/** The shortest decimal that reads back as the same float32: the exact stored value, no noise digits. */
export function float32String(v) {
  if (!Number.isFinite(v)) return formatValue(v);
  if (v === 0) return Object.is(v, -0) ? `${MINUS}0` : '0';
  const f = Math.fround(v);
  for (let p = 1; p <= 9; p++) {
    const s = f.toPrecision(p);
    if (Math.fround(Number(s)) === f) return String(Number(s)).replace('-', MINUS);
  }
  return String(f).replace('-', MINUS);
}

/** An integer with digit groups from 10 000 up (as axis ticks). */
export function formatInt(n) {
  return Math.abs(n) >= 10000 ? n.toLocaleString('en-US') : String(n);
}

/** A duration in milliseconds, for status lines. */
export function formatMs(ms) {
  if (ms < 0.1) return '< 0.1 ms';
  if (ms < 10) return `${ms.toFixed(1)} ms`;
  return `${Math.round(ms)} ms`;
}

/** Round steps (1, 2, 5 × 10^k) covering span in about `count` steps. */
function niceStep(span, count) {
  const raw = span / Math.max(1, count);
  const mag = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (m * mag >= raw * 0.999) return m * mag;
  return 10 * mag;
}

/** Integer ticks in [first, last], about maxTicks of them, at 1/2/5 × 10^k steps. */
export function niceTicks(first, last, maxTicks) {
  if (!(last > first)) return [first];
  const step = Math.max(1, Math.round(niceStep(last - first, maxTicks)));
  const ticks = [];
  for (let v = Math.ceil(first / step) * step; v <= last; v += step) ticks.push(v);
  return ticks;
}

/** Round real-valued ticks in [lo, hi] (for colour bars), about `count` of them. */
export function niceRealTicks(lo, hi, count) {
  if (!(hi > lo)) return [lo];
  const step = niceStep(hi - lo, count);
  const ticks = [];
  const start = Math.ceil(lo / step - 1e-9);
  for (let i = start; i * step <= hi * (1 + 1e-12) + 1e-12 * step; i++) {
    const v = Number((i * step).toPrecision(12));
    if (v >= lo - 1e-12 * step && v <= hi + 1e-12 * step) ticks.push(v === 0 ? 0 : v);
  }
  return ticks;
}
