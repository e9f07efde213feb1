// Resampling the visible window of a [rows, cols] table for a canvas.
//
// Each axis gets a plan. Where a cell is at least as wide as a screen pixel (magnified), the
// canvas keeps one pixel per cell and the browser scales it up with `image-rendering: pixelated`
// (crisp cells, no work here; `cssScale`/`cssOffset` place the canvas so the window's fractional
// edges land on the plot's edges). Where several cells share a pixel (minified), each pixel is
// the area-weighted mean of the cells it covers (a box filter: no aliasing, no column skipped).
// The filter is separable: down the rows first, then across.
// Non-finite values stay out of the means; a pixel with no finite value keeps −Infinity (or
// +Infinity) when that is all it covers, NaN otherwise, so masked areas stay masked.

/**
 * CSR lists for n outputs over the source interval [a, b) (cells 0..len-1): { offsets:
 * Int32Array(n+1), index: Int32Array, weight: Float32Array }. n ≥ b − a: each output takes the
 * cell under its centre; n < b − a: the area-weighted cells it covers.
 */
export function axisWeights(a, b, n, len) {
  const scale = (b - a) / n;
  const offsets = new Int32Array(n + 1);
  if (scale <= 1) {
    const index = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      offsets[i + 1] = i + 1;
      index[i] = Math.min(len - 1, Math.max(0, Math.floor(a + (i + 0.5) * scale)));
    }
    return { offsets, index, weight: new Float32Array(n).fill(1) };
  }
  const idx = [];
  const wts = [];
  for (let i = 0; i < n; i++) {
    const lo = a + i * scale;
    const hi = Math.min(b, a + (i + 1) * scale);
    for (let j = Math.max(0, Math.floor(lo)); j < Math.min(len, Math.ceil(hi)); j++) {
      const w = Math.min(hi, j + 1) - Math.max(lo, j);
      if (w > 1e-9) {
        idx.push(j);
        wts.push(w);
      }
    }
    offsets[i + 1] = idx.length;
  }
  return { offsets, index: Int32Array.from(idx), weight: Float32Array.from(wts) };
}

const planCache = new Map();

/**
 * How to draw the window [a, b) of an axis of `len` cells on `px` device pixels:
 * { count (canvas pixels), identity (count cells from `start`, one each), weights (CSR),
 *   cssScale (canvas size / plot size), cssOffset (canvas start / plot size) }.
 */
export function planAxis(a, b, px, len) {
  const key = `${a},${b},${px},${len}`;
  const hit = planCache.get(key);
  if (hit) return hit;
  let plan;
  if (b - a <= px) {
    const start = Math.max(0, Math.floor(a));
    const end = Math.min(len, Math.ceil(b));
    const count = Math.max(1, end - start);
    const offsets = new Int32Array(count + 1);
    const index = new Int32Array(count);
    for (let i = 0; i < count; i++) {
      offsets[i + 1] = i + 1;
      index[i] = start + i;
    }
    plan = {
      count, identity: true, start, weights: { offsets, index, weight: new Float32Array(count).fill(1) },
      cssScale: count / (b - a), cssOffset: (start - a) / (b - a),
    };
  } else {
    plan = { count: px, identity: false, start: 0, weights: axisWeights(a, b, px, len), cssScale: 1, cssOffset: 0 };
  }
  if (planCache.size > 32) planCache.delete(planCache.keys().next().value);
  planCache.set(key, plan);
  return plan;
}

function combine(sum, wsum, flags) {
  if (wsum > 0) return sum / wsum;
  if (flags === 1) return -Infinity;
  if (flags === 2) return Infinity;
  return NaN;
}

/**
 * The values of a [rows, cols] table (row-major from `offset` in data) resampled by an x plan
 * and a y plan (planAxis): a Float32Array of xPlan.count × yPlan.count, row-major. `finite`
 * true promises no non-finite values (faster loops). Rows are combined first, with whole-row
 * loops over contiguous memory, then columns, on the (usually much shorter) result.
 */
export function resample(data, rows, cols, xPlan, yPlan, { offset = 0, finite = false } = {}) {
  const width = xPlan.count;
  const height = yPlan.count;
  const { offsets: yo, index: yi, weight: ywt } = yPlan.weights;
  const { offsets: xo, index: xi, weight: xwt } = xPlan.weights;
  // The columns any output pixel reads: [c0, c1).
  let c0 = cols;
  let c1 = 0;
  for (let k = 0; k < xi.length; k++) {
    if (xi[k] < c0) c0 = xi[k];
    if (xi[k] + 1 > c1) c1 = xi[k] + 1;
  }
  const nc = Math.max(0, c1 - c0);
  // Pass 1, down: output row y = the weighted rows it covers, over columns c0..c1.
  const tmp = new Float32Array(height * nc);
  const wsum = finite ? null : new Float32Array(nc);
  const flags = finite ? null : new Uint8Array(nc);
  for (let y = 0; y < height; y++) {
    const s = yo[y];
    const e = yo[y + 1];
    const o = y * nc;
    if (e - s === 1) {
      const src = offset + yi[s] * cols + c0;
      tmp.set(data.subarray(src, src + nc), o);
      continue;
    }
    if (finite) {
      let total = 0;
      for (let k = s; k < e; k++) total += ywt[k];
      for (let k = s; k < e; k++) {
        const w = ywt[k] / total;
        const src = offset + yi[k] * cols + c0;
        for (let c = 0; c < nc; c++) tmp[o + c] += w * data[src + c];
      }
      continue;
    }
    wsum.fill(0);
    flags.fill(0);
    for (let k = s; k < e; k++) {
      const w = ywt[k];
      const src = offset + yi[k] * cols + c0;
      for (let c = 0; c < nc; c++) {
        const v = data[src + c];
        if (v - v === 0) {
          tmp[o + c] += w * v;
          wsum[c] += w;
        } else {
          flags[c] |= v === -Infinity ? 1 : v === Infinity ? 2 : 4;
        }
      }
    }
    for (let c = 0; c < nc; c++) tmp[o + c] = combine(tmp[o + c], wsum[c], flags[c]);
  }
  // Pass 2, across: whole cells are already in place.
  if (xPlan.identity) return tmp;
  const out = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    const base = y * nc - c0;
    const o = y * width;
    if (finite) {
      for (let x = 0; x < width; x++) {
        let sum = 0;
        let ws = 0;
        for (let k = xo[x], e = xo[x + 1]; k < e; k++) {
          sum += xwt[k] * tmp[base + xi[k]];
          ws += xwt[k];
        }
        out[o + x] = sum / ws;
      }
      continue;
    }
    for (let x = 0; x < width; x++) {
      const s = xo[x];
      const e = xo[x + 1];
      let sum = 0;
      let ws = 0;
      let fl = 0;
      for (let k = s; k < e; k++) {
        const v = tmp[base + xi[k]];
        if (v - v === 0) {
          sum += xwt[k] * v;
          ws += xwt[k];
        } else {
          fl |= v === -Infinity ? 1 : v === Infinity ? 2 : 4;
        }
      }
      out[o + x] = combine(sum, ws, fl);
    }
  }
  return out;
}

/**
 * The window { x0, x1, y0, y1 } resampled to exactly width × height pixels (nearest cell when
 * magnified, box mean when minified), e.g. for an image of fixed size.
 */
export function resampleWindow(data, rows, cols, win, width, height, opts = {}) {
  const plan = (a, b, n, len) => ({ count: n, identity: false, start: 0, weights: axisWeights(a, b, n, len) });
  return resample(data, rows, cols, plan(win.x0, win.x1, width, cols), plan(win.y0, win.y1, height, rows), opts);
}

/**
 * The colour range of a heatmap whose values span lo … hi (its scan, or a range given for several
 * tables): [0, 1] when nothing is finite, symmetric around 0 for a diverging map, and widened
 * where lo and hi are one float32 (one colour needs room around it). The one definition that the
 * canvas heatmap (heatmap.js) and the exported pictures (svg.js) use.
 */
export function colorRangeOf(lo, hi, diverging) {
  if (!Number.isFinite(lo)) return [0, 1];
  if (diverging) {
    const m = Math.max(Math.abs(lo), Math.abs(hi)) || 1;
    return [-m, m];
  }
  if (lo === hi || !(Math.fround(hi) > Math.fround(lo))) {
    const pad = Math.abs(lo) * 0.5 || 0.5;
    return [lo - pad, hi + pad];
  }
  return [lo, hi];
}

/** Finite minimum and maximum, and which non-finite values occur. */
export function scanValues(data, offset = 0, length = data.length - offset) {
  let lo = Infinity;
  let hi = -Infinity;
  let negInf = false;
  let posInf = false;
  let nan = false;
  for (let i = offset, end = offset + length; i < end; i++) {
    const v = data[i];
    if (v - v === 0) {
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    } else if (v === -Infinity) negInf = true;
    else if (v === Infinity) posInf = true;
    else nan = true;
  }
  const finiteAll = !negInf && !posInf && !nan;
  return { lo: lo > hi ? NaN : lo, hi: lo > hi ? NaN : hi, negInf, posInf, nan, finite: finiteAll };
}
