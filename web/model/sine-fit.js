// How sine-like a position table is (issue 29: "learned tables look sine-like" made checkable).
// For a column x_p (p = 0 … L − 1) of a [L, d] table, the share of its variance that one
// sinusoid explains, the best over a grid of frequencies:
//
//   R²(x) = max_ω  1 − RSS(ω) / TSS,   RSS(ω) from the least-squares fit x_p ≈ a + b·cos(ωp) + c·sin(ωp),
//   TSS = Σ (x_p − x̄)²,   ω_k = π·k / (2L), k = 1 … 2L  (half a DFT bin apart, up to Nyquist).
//
// With the intercept a the fit is the regression of the centred x on the centred cos and sin
// columns u, v: [u·u u·v; u·v v·v]·[b; c] = [u·x; v·x], explained = b·(u·x) + c·(v·x). A column of a
// sinusoidal table (x_p = sin(ω_i·p) or cos) has R² = 1 up to the grid (ω_i between two grid
// points); a column of independent noise has R² about 2·ln(2L)/L (the best of 2L random
// directions of two dimensions each: 0.15 at L = 64). A slow wave (less than one cycle) also fits
// a smooth trend: R² says "one wave explains it", not "it oscillates". float64 throughout.

/** Work (column × frequency × row products) at most: wider tables are measured on spread columns. */
export const MAX_WORK = 6e7;

/** The frequency grid for L rows: ω_k = π·k / (2L), k = 1 … 2L. */
export const sineGrid = (L) => Float64Array.from({ length: 2 * L }, (_, k) => (Math.PI * (k + 1)) / (2 * L));

/**
 * The columns measured for a [rows, cols] table: all of them, or `count` evenly spread ones (the
 * first and the last included) when rows·2rows·cols would pass MAX_WORK.
 */
export function sineColumns(rows, cols, maxWork = MAX_WORK) {
  const count = Math.max(2, Math.min(cols, Math.floor(maxWork / (2 * rows * 2 * rows))));
  if (count >= cols) return Int32Array.from({ length: cols }, (_, c) => c);
  return Int32Array.from({ length: count }, (_, k) => Math.round((k * (cols - 1)) / (count - 1)));
}

/**
 * R² of the best single sinusoid for the columns `columns` of data [rows, cols] (row-major,
 * any numeric array). Returns { columns, r2: Float64Array, omega: Float64Array (the best ω, NaN
 * for a constant column), median, q1, q3 (of the non-constant columns; NaN when none) }.
 */
export function sineFit(data, rows, cols, columns = sineColumns(rows, cols)) {
  if (!(rows >= 3)) throw new RangeError(`sineFit needs at least 3 rows, got ${rows}`);
  const grid = sineGrid(rows);
  const M = grid.length;
  // The centred cos and sin columns of every grid frequency, and their 2 × 2 Gram matrices.
  const U = new Float64Array(M * rows);
  const V = new Float64Array(M * rows);
  const gram = new Float64Array(M * 3);
  for (let k = 0; k < M; k++) {
    const w = grid[k];
    let su = 0;
    let sv = 0;
    for (let p = 0; p < rows; p++) {
      su += U[k * rows + p] = Math.cos(w * p);
      sv += V[k * rows + p] = Math.sin(w * p);
    }
    su /= rows;
    sv /= rows;
    let uu = 0;
    let uv = 0;
    let vv = 0;
    for (let p = 0; p < rows; p++) {
      const u = (U[k * rows + p] -= su);
      const v = (V[k * rows + p] -= sv);
      uu += u * u;
      uv += u * v;
      vv += v * v;
    }
    gram[3 * k] = uu;
    gram[3 * k + 1] = uv;
    gram[3 * k + 2] = vv;
  }
  const x = new Float64Array(rows);
  const r2 = new Float64Array(columns.length);
  const omega = new Float64Array(columns.length);
  columns.forEach((c, j) => {
    let mean = 0;
    for (let p = 0; p < rows; p++) mean += x[p] = Number(data[p * cols + c]);
    mean /= rows;
    let tss = 0;
    for (let p = 0; p < rows; p++) tss += (x[p] -= mean) * x[p];
    if (!(tss > 0) || !Number.isFinite(tss)) {
      r2[j] = NaN;
      omega[j] = NaN;
      return;
    }
    let best = -1;
    let bestW = NaN;
    for (let k = 0; k < M; k++) {
      let ux = 0;
      let vx = 0;
      const o = k * rows;
      for (let p = 0; p < rows; p++) {
        ux += U[o + p] * x[p];
        vx += V[o + p] * x[p];
      }
      const uu = gram[3 * k];
      const uv = gram[3 * k + 1];
      const vv = gram[3 * k + 2];
      const det = uu * vv - uv * uv;
      // At ω = π the sine column is 0: a one-column fit.
      const explained = det > 1e-12 * uu * vv ? (vv * ux * ux - 2 * uv * ux * vx + uu * vx * vx) / det : uu > 0 ? (ux * ux) / uu : 0;
      if (explained > best) {
        best = explained;
        bestW = grid[k];
      }
    }
    r2[j] = Math.min(1, Math.max(0, best / tss));
    omega[j] = bestW;
  });
  const sorted = Float64Array.from(r2.filter((v) => !Number.isNaN(v))).sort();
  const at = (q) => (sorted.length ? quantile(sorted, q) : NaN);
  return { columns, r2, omega, median: at(0.5), q1: at(0.25), q3: at(0.75) };
}

/** The q-quantile of sorted values (linear between order statistics, as NumPy's default). */
function quantile(sorted, q) {
  const pos = q * (sorted.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

/** The mean cosine of neighbouring rows p, p + 1 of data [rows, cols] (rows of zero length skipped). */
export function neighbourCosine(data, rows, cols) {
  let sum = 0;
  let n = 0;
  for (let p = 0; p + 1 < rows; p++) {
    let ab = 0;
    let aa = 0;
    let bb = 0;
    for (let c = 0; c < cols; c++) {
      const a = data[p * cols + c];
      const b = data[(p + 1) * cols + c];
      ab += a * b;
      aa += a * a;
      bb += b * b;
    }
    if (aa > 0 && bb > 0) {
      sum += ab / Math.sqrt(aa * bb);
      n++;
    }
  }
  return n ? sum / n : NaN;
}
