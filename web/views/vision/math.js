// The numbers behind the vision views, kept free of the DOM (and cheap: one pass per picked patch).

/** Euclidean norm of every row of a row-major [n, d] table. */
export function rowNorms(data, n, d) {
  const out = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    let s = 0;
    const o = k * d;
    for (let i = 0; i < d; i++) s += data[o + i] * data[o + i];
    out[k] = Math.sqrt(s);
  }
  return out;
}

/**
 * Cosine similarity of row `p` with every row of a row-major [n, d] table (the ViT figure:
 * cos(e_p, e_k) = e_p·e_k / (|e_p| |e_k|)), into out[0..n). Rows of zero length give 0.
 * `first`/`count` restrict the rows compared (a frame of a video).
 */
export function cosineRow(data, n, d, p, norms, out = new Float32Array(n), first = 0, count = n - first) {
  const po = p * d;
  const np = norms[p];
  for (let k = first; k < first + count; k++) {
    const o = k * d;
    let s = 0;
    for (let i = 0; i < d; i++) s += data[po + i] * data[o + i];
    const den = np * norms[k];
    out[k - first] = den > 0 ? s / den : 0;
  }
  return out;
}

/**
 * Axial 2-D RoPE: the score of q at patch p against k at every patch, with q = k = the all-ones
 * vector of `dim` channels before rotation, divided by dim. Each rotated pair contributes
 * (1,1)·R(θ_k − θ_p)(1,1) = 2 cos(θ_p − θ_k); channels beyond rotary_dim pass through and
 * contribute 1 each. So this is exactly the cosine similarity of the two rotated vectors:
 * 1 at the picked patch, and it depends only on the row and column offsets.
 * cos, sin: [n, pairs] tables of the angles (pe.ropeTables).
 */
export function ropeRow(cos, sin, n, pairs, dim, p, out = new Float32Array(n)) {
  const po = p * pairs;
  const rest = dim - 2 * pairs;
  for (let k = 0; k < n; k++) {
    const o = k * pairs;
    let s = 0;
    for (let i = 0; i < pairs; i++) s += cos[po + i] * cos[o + i] + sin[po + i] * sin[o + i];
    out[k] = (2 * s + rest) / dim;
  }
  return out;
}

/**
 * The segments of an M-RoPE result, as the builder shows them: for each segment its first token,
 * token count, the first id it uses (the offset of a visual block, where a text run resumes) and
 * the largest id so far. ids: the [3, n] result.
 */
export function segmentSpans(segments, merge, ids, n) {
  const spans = [];
  let start = 0;
  let maxSoFar = -1;
  for (const seg of segments) {
    const count = seg.type === 'text' ? seg.length : seg.t * Math.floor(seg.h / merge) * Math.floor(seg.w / merge);
    let lo = Infinity;
    let hi = -Infinity;
    for (let a = 0; a < 3; a++) {
      for (let k = start; k < start + count && k < n; k++) {
        const v = ids[a * n + k];
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
    }
    spans.push({ seg, start, count, firstId: count ? ids[start] : NaN, minId: lo, maxId: hi, prevMax: maxSoFar });
    if (hi > maxSoFar) maxSoFar = hi;
    start += count;
  }
  return spans;
}
