// The numbers behind the bias views, as plain functions of typed arrays (no DOM: the similarity
// worker imports this file too). Each formula follows the C kernel it mirrors, so the charts agree
// with the tables the kernels compute (tests/browser/bias-views.test.js checks them against
// pe.compute):
//   alibiSlopes    c/alibi.c      get_slopes of Press et al., any head count, float64
//   t5Bucket       c/relative.c   transformers' _relative_position_bucket, float32 large branch
//   shawIndex      c/relative.c   clip(r, −k, k) + k
//   distanceBias   c/relative.c   b(d) of the `distance` kind, float64
// Relative positions are r = key − query (j − i), as in the spec contract.

/** The ALiBi slopes m_h for `heads` heads (Float64Array), in get_slopes order. */
export function alibiSlopes(heads) {
  const out = new Float64Array(heads);
  let log2c = 0;
  while (2 << log2c <= heads) log2c++;
  const c = 1 << log2c;
  const fill = (at, log2n, step, count) => {
    const start = 2 ** -(2 ** -(log2n - 3));
    for (let k = 0; k < count; k++) out[at + k] = start * start ** (k * step);
  };
  fill(0, log2c, 1, c);
  if (c < heads) fill(c, log2c + 1, 2, heads - c); // the even-indexed slopes of 2c heads
  return out;
}

/**
 * A slope as a power of two: { exponent, exact } with m = 2^exponent (exponent rounded to 4
 * decimals when not an integer); exact when m is 1/2^k for a whole k.
 */
export function slopePower(m) {
  const e = Math.log2(m);
  const k = Math.round(e);
  if (2 ** k === m) return { exponent: k, exact: true };
  return { exponent: Number(e.toFixed(4)), exact: false };
}

/** T5's bucket of relative position r (transformers' _relative_position_bucket; c/relative.c). */
export function t5Bucket(r, numBuckets, maxDistance, bidirectional) {
  let bucket = 0;
  let nb = numBuckets;
  let n;
  if (bidirectional) {
    nb = Math.trunc(nb / 2);
    if (r > 0) bucket = nb;
    n = Math.abs(r);
  } else {
    n = r < 0 ? -r : 0;
  }
  const maxExact = Math.trunc(nb / 2);
  if (n < maxExact) return bucket + n;
  const f = Math.fround;
  const logX = f(Math.log(f(n / maxExact)));
  const logRatio = f(Math.log(maxDistance / maxExact));
  const y = f(f(logX / logRatio) * (nb - maxExact));
  const cap = nb - 1 - maxExact;
  return bucket + maxExact + (y >= cap ? cap : Math.trunc(y));
}

/** Shaw et al.'s relative embedding index: clip(r, −k, k) + k. */
export function shawIndex(r, k) {
  return Math.min(k, Math.max(-k, r)) + k;
}

export const DISTANCE_FUNCTIONS = ['linear', 'log', 'gaussian', 'exponential'];

/** The `distance` kind's b(d), u = d / scale (0 at d = 0, falling with d). */
export function distanceBias(d, fn, strength, scale) {
  const u = d / scale;
  switch (fn) {
    case 'linear': return 0 - strength * u;
    case 'log': return 0 - strength * Math.log1p(u);
    case 'gaussian': return 0 - strength * (0.5 * u * u);
    default: return 0 + strength * Math.expm1(-u);
  }
}

/**
 * A curve over r = −(n−1) … n−1 (index r + n − 1) as a Float32Array: f(r), with keys after the
 * query (r > 0) masked (−Infinity) when `causal`.
 */
export function overDistance(n, f, causal = false) {
  const out = new Float32Array(2 * n - 1);
  for (let i = 0; i < out.length; i++) {
    const r = i - (n - 1);
    out[i] = causal && r > 0 ? -Infinity : f(r);
  }
  return out;
}

// --- absolute tables -------------------------------------------------------------------------

/** The first `rows` rows and `cols` columns of a row-major [R, C] table, as a new array. */
export function block(data, C, rows, cols) {
  if (cols === C) return data.slice(0, rows * C);
  const out = new Float32Array(rows * cols);
  for (let r = 0; r < rows; r++) out.set(data.subarray(r * C, r * C + cols), r * cols);
  return out;
}

/** ‖PE(p+1) − PE(p)‖ for p = 0 … rows−2 (Float32Array, length rows − 1). */
export function stepNorms(data, rows, cols) {
  const out = new Float32Array(Math.max(0, rows - 1));
  for (let p = 0; p + 1 < rows; p++) {
    let s = 0;
    const a = p * cols;
    for (let c = 0; c < cols; c++) {
      const d = data[a + cols + c] - data[a + c];
      s += d * d;
    }
    out[p] = Math.sqrt(s);
  }
  return out;
}

/** The largest |value| in the first n rows, for n = 1 … rows (index n − 1). */
export function maxAbsPrefix(data, rows, cols) {
  const out = new Float32Array(rows);
  let m = 0;
  for (let p = 0; p < rows; p++) {
    for (let c = p * cols, e = c + cols; c < e; c++) {
      const v = Math.abs(data[c]);
      if (v > m) m = v;
    }
    out[p] = m;
  }
  return out;
}

/** Bit k of p as a ±1 square wave: +1 where the bit is 0, −1 where it is 1 (in phase with a sine). */
export const bitWave = (p, k) => (Math.floor(p / 2 ** k) % 2 ? -1 : 1);

// --- cosine similarity -----------------------------------------------------------------------

/** Rows scaled to unit length (Float32Array); a zero row becomes NaN (its cosine is undefined). */
export function unitRows(data, rows, cols) {
  const out = new Float32Array(rows * cols);
  for (let r = 0; r < rows; r++) {
    const o = r * cols;
    let s = 0;
    for (let c = 0; c < cols; c++) s += data[o + c] * data[o + c];
    const inv = s > 0 ? 1 / Math.sqrt(s) : NaN;
    for (let c = 0; c < cols; c++) out[o + c] = data[o + c] * inv;
  }
  return out;
}

/**
 * Rows [i0, i1) of the cosine-similarity matrix S (rows × rows) of unit rows `u`, lower triangle
 * j ≤ i, into `out`; i0 even. Tiles of 2 query rows × 4 key rows keep 8 sums in registers and
 * load each value once per tile (about 3× faster than one dot product at a time in V8).
 */
export function similarityRows(u, rows, cols, out, i0, i1) {
  for (let i = i0; i < i1; i += 2) {
    const i2 = Math.min(i + 1, rows - 1);
    const a0 = i * cols;
    const a1 = i2 * cols;
    const jEnd = i2 + 1;
    let j = 0;
    for (; j + 4 <= jEnd; j += 4) {
      const b0 = j * cols;
      const b1 = b0 + cols;
      const b2 = b1 + cols;
      const b3 = b2 + cols;
      let s00 = 0, s01 = 0, s02 = 0, s03 = 0, s10 = 0, s11 = 0, s12 = 0, s13 = 0;
      for (let c = 0; c < cols; c++) {
        const x = u[a0 + c];
        const y = u[a1 + c];
        const p = u[b0 + c];
        const q = u[b1 + c];
        const r = u[b2 + c];
        const s = u[b3 + c];
        s00 += x * p; s01 += x * q; s02 += x * r; s03 += x * s;
        s10 += y * p; s11 += y * q; s12 += y * r; s13 += y * s;
      }
      const o0 = i * rows + j;
      const o1 = i2 * rows + j;
      out[o0] = s00; out[o0 + 1] = s01; out[o0 + 2] = s02; out[o0 + 3] = s03;
      out[o1] = s10; out[o1 + 1] = s11; out[o1 + 2] = s12; out[o1 + 3] = s13;
    }
    for (; j < jEnd; j++) {
      const b = j * cols;
      let s0 = 0;
      let s1 = 0;
      for (let c = 0; c < cols; c++) {
        s0 += u[a0 + c] * u[b + c];
        s1 += u[a1 + c] * u[b + c];
      }
      out[i * rows + j] = s0;
      out[i2 * rows + j] = s1;
    }
  }
}

/** Copies the lower triangle to the upper one and clamps rounding (1.0000001) into [−1, 1]. */
export function finishSimilarity(out, rows) {
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j <= i; j++) {
      let v = out[i * rows + j];
      if (v > 1) v = 1;
      else if (v < -1) v = -1;
      out[i * rows + j] = v;
      out[j * rows + i] = v;
    }
  }
  return out;
}

/** The whole cosine-similarity matrix of the rows of a [rows, cols] table (Float32Array rows²). */
export function cosineSimilarity(data, rows, cols) {
  const u = unitRows(data, rows, cols);
  const out = new Float32Array(rows * rows);
  similarityRows(u, rows, cols, out, 0, rows);
  return finishSimilarity(out, rows);
}

/** The mean of S[p, p+k] over p, for each k in ks (NaN when no pair is that far apart). */
export function meanByDistance(S, n, ks) {
  return ks.map((k) => {
    if (k >= n) return NaN;
    let s = 0;
    let count = 0;
    for (let p = 0; p + k < n; p++) {
      const v = S[p * n + p + k];
      if (v === v) {
        s += v;
        count++;
      }
    }
    return count ? s / count : NaN;
  });
}
