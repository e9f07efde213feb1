// The properties of an additive positional table PE ([L, d], row p = the vector added at position
// p), computed from the numbers, never asserted. Pure functions in float64, used by the
// properties view through a worker (properties-worker.js) and testable in Node.
//
//   pairwise(data, L, d)        uniqueness (the closest two positions) and the mean dot product
//                               PE(p)·PE(p+k) for every distance k (by FFT past the budget)
//   linearRelation(data, L, d)  for a few shifts k, the relative residual of the best
//                               least-squares matrix M_k with PE(p+k) ≈ M_k·PE(p) (past the
//                               budget: of the best map acting on pairs of columns, an upper bound)
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

/** An in-place radix-2 FFT of length n (a power of two), its tables made once. */
function fftPlan(n) {
  const rev = new Uint32Array(n);
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    rev[i] = j;
  }
  const cos = new Float64Array(n / 2);
  const sin = new Float64Array(n / 2);
  for (let k = 0; k < n / 2; k++) {
    cos[k] = Math.cos((-2 * Math.PI * k) / n);
    sin[k] = Math.sin((-2 * Math.PI * k) / n);
  }
  return (re, im) => {
    for (let i = 1; i < n; i++) {
      const j = rev[i];
      if (i < j) {
        let t = re[i];
        re[i] = re[j];
        re[j] = t;
        t = im[i];
        im[i] = im[j];
        im[j] = t;
      }
    }
    for (let len = 2; len <= n; len <<= 1) {
      const half = len >> 1;
      const step = n / len;
      for (let i = 0; i < n; i += len) {
        for (let k = 0; k < half; k++) {
          const wr = cos[k * step];
          const wi = sin[k * step];
          const a = i + k;
          const b = a + half;
          const tr = re[b] * wr - im[b] * wi;
          const ti = re[b] * wi + im[b] * wr;
          re[b] = re[a] - tr;
          im[b] = im[a] - ti;
          re[a] += tr;
          im[a] += ti;
        }
      }
    }
  };
}

/**
 * meanDot[k] = mean over p of PE(p)·PE(p+k) for every k < L, from the table's structure along
 * the positions rather than L²·d/2 dot products: Σ_p PE(p)·PE(p+k) = Σ_c r_c(k), the sum over
 * columns of each column's autocorrelation, and Σ_c r_c = IFFT(Σ_c |FFT(x_c)|²) with zero
 * padding to N ≥ 2L (no wrap-around). Two real columns share one complex FFT (a + ib):
 * |A_f|² + |B_f|² = (|Z_f|² + |Z_{N−f}|²) / 2. O(d·N log N) in float64 (≈ 10⁻¹³ of meanDot[0]).
 * Columns are read a block at a time, row by row, so the table is walked in memory order.
 */
export function meanDotFFT(data, L, d) {
  let N = 1;
  while (N < 2 * L) N <<= 1;
  const fft = fftPlan(N);
  const power = new Float64Array(N);
  const BLOCK = 32; // complex FFTs per block: 64 columns
  const re = Array.from({ length: BLOCK }, () => new Float64Array(N));
  const im = Array.from({ length: BLOCK }, () => new Float64Array(N));
  for (let c0 = 0; c0 < d; c0 += 2 * BLOCK) {
    const pairs = Math.min(BLOCK, Math.ceil((d - c0) / 2));
    for (let b = 0; b < pairs; b++) {
      re[b].fill(0);
      im[b].fill(0);
    }
    for (let p = 0; p < L; p++) {
      const row = p * d + c0;
      for (let b = 0; b < pairs; b++) {
        re[b][p] = data[row + 2 * b];
        if (c0 + 2 * b + 1 < d) im[b][p] = data[row + 2 * b + 1];
      }
    }
    for (let b = 0; b < pairs; b++) {
      const x = re[b];
      const y = im[b];
      fft(x, y);
      for (let f = 0; f < N; f++) {
        const g = (N - f) & (N - 1);
        power[f] += (x[f] * x[f] + y[f] * y[f] + x[g] * x[g] + y[g] * y[g]) / 2;
      }
    }
  }
  // The autocorrelation is the inverse transform of the (real, even) power: a forward FFT of it,
  // divided by N, gives the same.
  const x = re[0];
  const y = im[0];
  x.set(power);
  y.fill(0);
  fft(x, y);
  const meanDot = new Float64Array(L);
  for (let k = 0; k < L; k++) meanDot[k] = x[k] / N / (L - k);
  return meanDot;
}

/**
 * { n, partial, minDist, minPair: [i, j], maxDist, meanDot: Float64Array(L) }: the closest and
 * farthest pair over the first n positions (all of them when L²·d/2 fits the budget; minDist is
 * recomputed exactly for the closest pair), and meanDot[k], the mean over p of PE(p)·PE(p+k),
 * for every distance k < L (directly with the pairs when they are all there, by FFT otherwise).
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
  let meanDot;
  if (n < L) meanDot = meanDotFFT(data, L, d);
  else {
    meanDot = new Float64Array(n);
    for (let k = 0; k < n; k++) meanDot[k] = dotSum[k] / (n - k);
  }
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
/**
 * The shift fit from the table's structure, for tables too large for the dense fit: a map M_k
 * made of one 2 × 2 block per pair of columns (each block the least-squares map of the pair's
 * values at p onto those at p + k; an odd last column gets a 1 × 1 block), for the two pairings
 * sinusoidal tables use: interleaved (2i, 2i+1) and halves (i, i + ⌈d/2⌉); the better one counts.
 * A block-diagonal map is one of the maps the dense fit searches, so its residual bounds the best
 * map's from above: a residual near 0 proves the shift linear. Returns the fits as linearRelation
 * does, with pairing: 'interleaved' | 'halves', or null when neither pairing fits (no verdict).
 * O(L·d) per shift.
 */
export function linearRelationPairs(data, L, d, ks, n) {
  const half = Math.ceil(d / 2);
  // Per block: its first and second column (−1: a 1 × 1 block).
  const pairings = {
    interleaved: [Int32Array.from({ length: half }, (_, i) => 2 * i), Int32Array.from({ length: half }, (_, i) => (2 * i + 1 < d ? 2 * i + 1 : -1))],
    halves: [Int32Array.from({ length: half }, (_, i) => i), Int32Array.from({ length: half }, (_, i) => (i + half < d ? i + half : -1))],
  };
  const at = (row, c) => (c < 0 ? 0 : data[row + c]);
  let best = null;
  for (const [pairing, [ca, cb]] of Object.entries(pairings)) {
    const fits = [];
    for (const k of ks) {
      // Normal equations of every block, rows in memory order: Sxx = Σ x xᵀ, Syx = Σ y xᵀ.
      const xx0 = new Float64Array(half); const xx1 = new Float64Array(half); const xx3 = new Float64Array(half);
      const yx0 = new Float64Array(half); const yx1 = new Float64Array(half); const yx2 = new Float64Array(half); const yx3 = new Float64Array(half);
      for (let p = 0; p < n; p++) {
        const rx = p * d;
        const ry = (p + k) * d;
        for (let b = 0; b < half; b++) {
          const x0 = data[rx + ca[b]]; const x1 = at(rx, cb[b]);
          const y0 = data[ry + ca[b]]; const y1 = at(ry, cb[b]);
          xx0[b] += x0 * x0; xx1[b] += x0 * x1; xx3[b] += x1 * x1;
          yx0[b] += y0 * x0; yx1[b] += y0 * x1; yx2[b] += y1 * x0; yx3[b] += y1 * x1;
        }
      }
      // M = Syx·Sxx⁻¹ per block (a singular block maps to 0: its residual is then all of y).
      const M = new Float64Array(4 * half);
      for (let b = 0; b < half; b++) {
        let i0 = 0; let i1 = 0; let i3 = 0;
        if (cb[b] < 0) i0 = xx0[b] > 0 ? 1 / xx0[b] : 0;
        else {
          const det = xx0[b] * xx3[b] - xx1[b] * xx1[b];
          if (det > 1e-12 * xx0[b] * xx3[b]) [i0, i1, i3] = [xx3[b] / det, -xx1[b] / det, xx0[b] / det];
        }
        M.set([yx0[b] * i0 + yx1[b] * i1, yx0[b] * i1 + yx1[b] * i3, yx2[b] * i0 + yx3[b] * i1, yx2[b] * i1 + yx3[b] * i3], 4 * b);
      }
      // The residual, summed directly (not ‖Y‖² − fit², which cancels).
      let res2 = 0;
      let y2 = 0;
      for (let p = 0; p < n; p++) {
        const rx = p * d;
        const ry = (p + k) * d;
        for (let b = 0; b < half; b++) {
          const x0 = data[rx + ca[b]]; const x1 = at(rx, cb[b]);
          const y0 = data[ry + ca[b]]; const y1 = at(ry, cb[b]);
          const e0 = y0 - (M[4 * b] * x0 + M[4 * b + 1] * x1);
          const e1 = y1 - (M[4 * b + 2] * x0 + M[4 * b + 3] * x1);
          res2 += e0 * e0 + e1 * e1;
          y2 += y0 * y0 + y1 * y1;
        }
      }
      fits.push({ k, residual: y2 > 0 ? Math.sqrt(res2 / y2) : 0 });
    }
    const worst = Math.max(...fits.map((f) => f.residual));
    if (!best || worst < best.worst) best = { pairing, fits, worst };
    if (worst < 1e-4) break; // proven: the other pairing cannot change the verdict
  }
  return best.worst < 1e-4 ? { n, rank: null, underdetermined: false, fits: best.fits, pairing: best.pairing } : null;
}

export function linearRelation(data, L, d, budget = LINEAR_BUDGET) {
  const ks = SHIFTS.filter((k) => k <= Math.floor(L / 4));
  if (!ks.length) return { skipped: 'short' };
  const kmax = Math.max(...ks);
  let n = L - kmax;
  const cost = (m) => (2 + 2 * ks.length) * m * d * d;
  if (cost(n) > budget) {
    // Too large for the dense fit: the pairs' fit proves a linear shift when there is one.
    const pairs = linearRelationPairs(data, L, d, ks, n);
    if (pairs) return pairs;
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
