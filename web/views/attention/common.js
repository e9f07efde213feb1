// Shared pieces of the attention views (web/views/attention/): their stylesheet, token labels,
// a per-head weight picture on a canvas (colours from C, pe.colorize), the head average, and the
// colour map. (The line plot, toolbar fields and stylesheet loading are every view's: ../common.js.)
import { float32String, formatInt } from '../../plot/format.js';
import { LOG_FLOOR } from '../../api/color-scales.js';
import { robustLow, scalePosition } from '../../plot/color-scale.js';
import { ensureStyles } from '../common.js';

/** Adds attention.css (beside this file) to the page once. */
export const ensureAttentionStyles = () => ensureStyles(new URL('./attention.css', import.meta.url));

/** "3 “cat”" for token 3 of a result with tokens, else "3". */
export function tokenLabel(result, i) {
  const w = result?.tokens?.[i];
  return w === undefined ? formatInt(i) : `${formatInt(i)} “${w}”`;
}

/** The mean over heads of a [heads, n, n] result, as a Float32Array [n, n] (cached per result). */
const means = new WeakMap();
export function headMean(result) {
  const cached = means.get(result);
  if (cached) return cached;
  const [H, n] = result.shape;
  const plane = n * n;
  const data = result.data;
  const sum = new Float64Array(plane);
  for (let h = 0; h < H; h++) {
    const o = h * plane;
    for (let t = 0; t < plane; t++) sum[t] += data[o + t];
  }
  const out = new Float32Array(plane);
  for (let t = 0; t < plane; t++) out[t] = sum[t] / H;
  means.set(result, out);
  return out;
}

/** Row q of the head average of a [heads, n, n] result (Float32Array n). */
export function meanRow(result, q) {
  const [H, n] = result.shape;
  const out = new Float32Array(n);
  for (let k = 0; k < H; k++) {
    const o = (k * n + q) * n;
    for (let j = 0; j < n; j++) out[j] += result.data[o + j];
  }
  for (let j = 0; j < n; j++) out[j] /= H;
  return out;
}

/** The head average of one cell. */
export function meanCell(result, i, j) {
  const [H, n] = result.shape;
  let sum = 0;
  for (let k = 0; k < H; k++) sum += result.data[(k * n + i) * n + j];
  return sum / H;
}

/** First index of each of m blocks over n cells (block b holds cells with floor(i·m/n) = b), and n. */
export function blockBounds(n, m) {
  const bounds = new Int32Array(m + 1);
  for (let b = 0; b <= m; b++) bounds[b] = Math.ceil((b * n) / m);
  return bounds;
}

/**
 * Adds the block sums of the n × n plane at values[offset ..] on an m × m grid (m ≤ n) into acc
 * (Float64Array m·m): block (a, b) holds the cells i, j with floor(i·m/n) = a, floor(j·m/n) = b.
 * The rows of a block row are added first (long, simple loops), then that sum is cut into blocks.
 * causal: the plane is 0 above the diagonal (j > i, a causal mask's weights), which is skipped:
 * half the reads, the same sums.
 */
export function addBlocks(acc, values, offset, n, m, bounds = blockBounds(n, m), tmp = new Float64Array(n), causal = false) {
  for (let a = 0; a < m; a++) {
    tmp.fill(0);
    for (let i = bounds[a]; i < bounds[a + 1]; i++) {
      const o = offset + i * n;
      const end = causal ? i + 1 : n;
      for (let j = 0; j < end; j++) tmp[j] += values[o + j];
    }
    const row = a * m;
    let j = 0;
    for (let b = 0; b < m; b++) {
      const end = bounds[b + 1];
      let sum = 0;
      for (; j < end; j++) sum += tmp[j];
      acc[row + b] += sum;
    }
  }
}

/** The cells in each block of blockBounds(n, m): (rows of a)·(columns of b). */
export function blockCounts(n, m, bounds = blockBounds(n, m)) {
  const counts = new Float64Array(m * m);
  for (let a = 0; a < m; a++) for (let b = 0; b < m; b++) counts[a * m + b] = (bounds[a + 1] - bounds[a]) * (bounds[b + 1] - bounds[b]);
  return counts;
}

/**
 * Draws an n × n plane of weights (values in [0, 1]) into a canvas of n × n pixels, scaled up by
 * CSS. The colour map spans lo … vmax on `scale` (web/api/color-scales.js scalePosition):
 * 'linear' colours w, 'sqrt' √w (small weights become visible), 'log' ln w above the floor lo
 * (each decade gets the same share of the colours). lo is 0 except on log.
 */
export function drawPlane(canvas, colorize, values, n, { map = 'viridis', scale = 'sqrt', vmax = 1, lo = 0 } = {}) {
  const top = vmax > 0 ? vmax : 1;
  let v = values;
  if (scale !== 'linear') {
    v = new Float32Array(values.length);
    for (let t = 0; t < values.length; t++) v[t] = scalePosition(scale, values[t], lo, top);
  }
  const rgba = colorize(v, { map, vmin: 0, vmax: scale === 'linear' ? top : 1 });
  if (canvas.width !== n || canvas.height !== n) {
    canvas.width = n;
    canvas.height = n;
  }
  canvas.getContext('2d').putImageData(new ImageData(rgba, n, n), 0, 0);
}

/**
 * The log scale's floor for a set of pictures: the smallest robust low among them (1st percentile of
 * each one's positive weights), at most vmax/10 and at least vmax·1e-6 (LOG_FLOOR's decades).
 */
export function pictureFloor(pictures, vmax) {
  let lo = Infinity;
  for (const p of pictures.values()) {
    const r = robustLow(p, 0, p.length);
    if (r < lo) lo = r;
  }
  return Math.min(vmax / 10, Math.max(vmax * LOG_FLOOR, Number.isFinite(lo) ? lo : vmax * LOG_FLOOR));
}

/** The cell (row, col) of an n × n picture under a pointer event, or null. */
export function cellAt(canvas, n, event) {
  const r = canvas.getBoundingClientRect();
  if (!r.width || !r.height) return null;
  const col = Math.floor(((event.clientX - r.left) / r.width) * n);
  const row = Math.floor(((event.clientY - r.top) / r.height) * n);
  return row >= 0 && row < n && col >= 0 && col < n ? { row, col } : null;
}

export const weightText = (w) => float32String(w);
