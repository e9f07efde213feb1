// Cosine similarity of the rows of a table, as plain functions of typed arrays (no DOM: the
// similarity worker of web/views/absolute/ runs them off the main thread).
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
