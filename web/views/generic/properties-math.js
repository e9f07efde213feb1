// The properties of an additive positional table PE ([L, d], row p = the vector added at position
// p), computed from the numbers, never asserted. Pure functions in float64, used by the
// properties view through a worker (properties-worker.js) and testable in Node.
//
//   pairwise(data, L, d)        uniqueness (the closest two positions) and the mean dot product
//                               PE(p)·PE(p+k) for every distance k
//   linearRelation(data, L, d)  for a few shifts k, the relative residual of the best
//                               least-squares matrix M_k with PE(p+k) ≈ M_k·PE(p)
//   consistency(data, L, d)     PE(5) − PE(3) against PE(105) − PE(103)
//
// Work is bounded: `budget` multiply-adds per property; past it the pairwise pass uses the first
// n positions (and says so) and the linear fit fewer positions, or declines (and says why).

export const PAIRWISE_BUDGET = 2 ** 27;
export const LINEAR_BUDGET = 6e8;
export const SHIFTS = [1, 2, 5, 10, 50, 100];

function toFloat64Rows(data, n, d) {
  const out = new Float64Array(n * d);
  for (let i = 0; i < n * d; i++) out[i] = data[i];
  return out;
}

/**
 * { n, partial, minDist, minPair: [i, j], maxDist, meanDot: Float64Array(n) } over the first n
 * positions (all of them when L²·d/2 fits the budget). meanDot[k] is the mean over p of
 * PE(p)·PE(p+k); minDist is recomputed exactly for the closest pair.
 */
export function pairwise(data, L, d, budget = PAIRWISE_BUDGET) {
  const n = Math.max(2, Math.min(L, Math.floor(Math.sqrt((2 * budget) / Math.max(1, d)))));
  if (L < 2) return null;
  const x = toFloat64Rows(data, n, d);
  const norms = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let c = 0, o = i * d; c < d; c++) s += x[o + c] * x[o + c];
    norms[i] = s;
  }
  const dotSum = new Float64Array(n);
  for (let i = 0; i < n; i++) dotSum[0] += norms[i];
  let best = Infinity;
  let bi = 0;
  let bj = 1;
  let worst = 0;
  for (let i = 0; i < n; i++) {
    const oi = i * d;
    for (let j = i + 1; j < n; j++) {
      const oj = j * d;
      let dot = 0;
      for (let c = 0; c < d; c++) dot += x[oi + c] * x[oj + c];
      dotSum[j - i] += dot;
      const dist2 = norms[i] + norms[j] - 2 * dot;
      if (dist2 < best) {
        best = dist2;
        bi = i;
        bj = j;
      }
      if (dist2 > worst) worst = dist2;
    }
  }
  let exact = 0;
  for (let c = 0; c < d; c++) {
    const diff = x[bi * d + c] - x[bj * d + c];
    exact += diff * diff;
  }
  const meanDot = new Float64Array(n);
  for (let k = 0; k < n; k++) meanDot[k] = dotSum[k] / (n - k);
  return { n, partial: n < L, minDist: Math.sqrt(exact), minPair: [bi, bj], maxDist: Math.sqrt(Math.max(0, worst)), meanDot };
}

/**
 * Orthonormal basis (modified Gram–Schmidt, done twice) of the span of the columns of X, with X
 * given column-major (d columns of length n). Columns that add less than `tol` of their own norm
 * are dropped (rank deficiency). Returns { q: Float64Array[] , rank }.
 */
function orthonormalColumns(cols, n, tol = 1e-6) {
  const q = [];
  for (const col of cols) {
    const v = Float64Array.from(col);
    let norm0 = 0;
    for (let i = 0; i < n; i++) norm0 += v[i] * v[i];
    norm0 = Math.sqrt(norm0);
    if (norm0 === 0) continue;
    for (let pass = 0; pass < 2; pass++) {
      for (const b of q) {
        let dot = 0;
        for (let i = 0; i < n; i++) dot += b[i] * v[i];
        for (let i = 0; i < n; i++) v[i] -= dot * b[i];
      }
    }
    let norm = 0;
    for (let i = 0; i < n; i++) norm += v[i] * v[i];
    norm = Math.sqrt(norm);
    if (norm <= tol * norm0) continue;
    for (let i = 0; i < n; i++) v[i] /= norm;
    q.push(v);
  }
  return { q, rank: q.length };
}

/**
 * For each shift k in SHIFTS with k ≤ L/4: the relative residual ‖Y − M_k·X‖ / ‖Y‖ of the best
 * M_k (least squares), X = rows 0..n−1, Y = rows k..k+n−1, n = L − max k (fewer when over the
 * budget). Returns { n, rank, underdetermined, fits: [{ k, residual }] } or { skipped: reason,
 * maxDim? } (reason 'short': fewer than 4 positions; 'large': over the budget, maxDim says how
 * wide a table of this length may be).
 * underdetermined: the n positions' vectors are independent (rank = n), so some M_k fits any Y
 * exactly and a residual of 0 says nothing.
 */
export function linearRelation(data, L, d, budget = LINEAR_BUDGET) {
  const ks = SHIFTS.filter((k) => k <= Math.floor(L / 4));
  if (!ks.length) return { skipped: 'short' };
  const kmax = Math.max(...ks);
  let n = L - kmax;
  const cost = (m) => (2 + 2 * ks.length) * m * d * d;
  if (cost(n) > budget) {
    n = Math.floor(budget / ((2 + 2 * ks.length) * d * d));
    if (n < Math.min(L - kmax, d + 16)) {
      // The widest table that would fit the budget at this length.
      const maxDim = Math.floor(Math.sqrt(budget / ((2 + 2 * ks.length) * Math.max(1, L - kmax))));
      return { skipped: 'large', maxDim };
    }
  }
  // Columns of X (and of each Y_k) as contiguous float64 vectors.
  const column = (c, start) => {
    const v = new Float64Array(n);
    for (let i = 0; i < n; i++) v[i] = data[(start + i) * d + c];
    return v;
  };
  const xCols = [];
  for (let c = 0; c < d; c++) xCols.push(column(c, 0));
  const { q, rank } = orthonormalColumns(xCols, n);
  const fits = [];
  for (const k of ks) {
    let res2 = 0;
    let y2 = 0;
    for (let c = 0; c < d; c++) {
      const y = column(c, k);
      for (let i = 0; i < n; i++) y2 += y[i] * y[i];
      for (const b of q) {
        let dot = 0;
        for (let i = 0; i < n; i++) dot += b[i] * y[i];
        for (let i = 0; i < n; i++) y[i] -= dot * b[i];
      }
      for (let i = 0; i < n; i++) res2 += y[i] * y[i];
    }
    fits.push({ k, residual: y2 > 0 ? Math.sqrt(res2 / y2) : 0 });
  }
  return { n, rank, underdetermined: rank >= n, fits };
}

/**
 * PE(b) − PE(a) for (a, b) = (3, 5) and (103, 105), or the last two positions two apart when the
 * table is shorter: { first: [a, b], second: [a, b], normA, normB, cosine }, or null when L < 8.
 */
export function consistency(data, L, d) {
  if (L < 8) return null;
  const a = [3, 5];
  const b = L >= 106 ? [103, 105] : [L - 3, L - 1];
  const da = new Float64Array(d);
  const db = new Float64Array(d);
  for (let c = 0; c < d; c++) {
    da[c] = data[a[1] * d + c] - data[a[0] * d + c];
    db[c] = data[b[1] * d + c] - data[b[0] * d + c];
  }
  let na = 0;
  let nb = 0;
  let dot = 0;
  for (let c = 0; c < d; c++) {
    na += da[c] * da[c];
    nb += db[c] * db[c];
    dot += da[c] * db[c];
  }
  na = Math.sqrt(na);
  nb = Math.sqrt(nb);
  let diff = 0;
  for (let c = 0; c < d; c++) diff += (da[c] - db[c]) ** 2;
  return {
    first: a, second: b, normA: na, normB: nb,
    cosine: na > 0 && nb > 0 ? dot / (na * nb) : NaN,
    distance: Math.sqrt(diff),
  };
}
