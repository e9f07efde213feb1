// The numbers behind the relative family's views, as plain functions of typed arrays (no DOM). Each formula follows the C kernel it mirrors, so the charts agree
// with the tables the kernels compute (tests/browser/bias-views.test.js checks them against
// pe.compute):
//   alibiSlopes    c/relative.c   get_slopes of Press et al., any head count, float64
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
