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

// --- learned tables on a patch grid (learned2d, a loaded ViT pos_embed) -------------------------

/**
 * The patch grid of a loaded table of `rows` rows: a class row then a square grid when rows − 1 is
 * a square (ViT's [1 + g², d]), else a square grid alone; null when neither fits.
 * Returns { prefix, height, width }.
 */
export function gridOfRows(rows) {
  const side = (n) => {
    const s = Math.round(Math.sqrt(n));
    return n >= 1 && s * s === n ? s : 0;
  };
  if (rows >= 2 && side(rows - 1)) return { prefix: 1, height: side(rows - 1), width: side(rows - 1) };
  if (side(rows)) return { prefix: 0, height: side(rows), width: side(rows) };
  return null;
}

/** The patch of an h' × w' grid at the same place, relative to the image, as (row, col) of an h × w grid. */
export function samePlace(row, col, h, w, h2, w2) {
  const at = (i, n, n2) => Math.min(n2 - 1, Math.max(0, Math.round(((i + 0.5) * n2) / n - 0.5)));
  return { row: at(row, h, h2), col: at(col, w, w2) };
}

/**
 * Cosine similarity of grid patch `p` to every grid patch of a table whose grid starts at row
 * `prefix` (the class row left out): Float32Array [height·width].
 */
export function gridCosine(data, dim, prefix, height, width, p) {
  const n = prefix + height * width;
  const norms = rowNorms(data, n, dim);
  return cosineRow(data, n, dim, prefix + p, norms, new Float32Array(height * width), prefix, height * width);
}

/**
 * The mean cosine similarity of every patch to its right-hand and lower neighbours: how smooth
 * the table is across the grid (1: neighbours share their vector).
 */
export function neighbourSimilarity(data, dim, prefix, height, width) {
  const n = prefix + height * width;
  const norms = rowNorms(data, n, dim);
  const cos = (a, b) => {
    let s = 0;
    const oa = a * dim;
    const ob = b * dim;
    for (let i = 0; i < dim; i++) s += data[oa + i] * data[ob + i];
    const den = norms[a] * norms[b];
    return den > 0 ? s / den : 0;
  };
  let sum = 0;
  let count = 0;
  for (let r = 0; r < height; r++) {
    for (let c = 0; c < width; c++) {
      const k = prefix + r * width + c;
      if (c + 1 < width) { sum += cos(k, k + 1); count++; }
      if (r + 1 < height) { sum += cos(k, k + width); count++; }
    }
  }
  return count ? sum / count : NaN;
}

/** Pairs (i, j), i ≠ j, of n tokens: every pair when there are at most `most`, else `most` spread by fixed strides. */
export function tokenPairs(n, most = 20000) {
  const all = (n * (n - 1)) / 2;
  const pairs = [];
  if (all <= most) {
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) pairs.push(i, j);
  } else {
    for (let k = 0; k < most; k++) {
      const i = (k * 7919) % n;
      const j = (i + 1 + ((k * 104729) % (n - 1))) % n;
      pairs.push(i, j);
    }
  }
  return Int32Array.from(pairs);
}

/**
 * The parts of the attention logit x_i·x_j between tokens i ≠ j, when x = e + p (content e,
 * position p, rows of row-major [n, d] tables; p's rows start at row `pFirst`):
 *   x_i·x_j = e_i·e_j + p_i·p_j + (e_i·p_j + p_i·e_j),
 * as root mean squares over `pairs` (tokenPairs): content, position and cross. With x = [e; p]
 * (concatenated) the dot product is e_i·e_j + p_i·p_j exactly; `concatCross` is the largest
 * |[e_i; p_i]·[e_j; p_j] − e_i·e_j − p_i·p_j| measured (rounding only).
 */
export function crossTerms(e, p, pFirst, d, pairs) {
  let content = 0;
  let position = 0;
  let cross = 0;
  let concatCross = 0;
  const m = pairs.length / 2;
  for (let k = 0; k < m; k++) {
    const i = pairs[2 * k];
    const j = pairs[2 * k + 1];
    const ei = i * d;
    const ej = j * d;
    const pi = (pFirst + i) * d;
    const pj = (pFirst + j) * d;
    let ee = 0;
    let pp = 0;
    let ep = 0;
    let cc = 0;
    for (let c = 0; c < d; c++) {
      ee += e[ei + c] * e[ej + c];
      pp += p[pi + c] * p[pj + c];
      ep += e[ei + c] * p[pj + c] + p[pi + c] * e[ej + c];
    }
    for (let c = 0; c < d; c++) cc += e[ei + c] * e[ej + c];   // [e; p]·[e; p], block by block
    for (let c = 0; c < d; c++) cc += p[pi + c] * p[pj + c];
    content += ee * ee;
    position += pp * pp;
    cross += ep * ep;
    concatCross = Math.max(concatCross, Math.abs(cc - ee - pp));
  }
  const rms = (s) => Math.sqrt(s / Math.max(1, m));
  return { content: rms(content), position: rms(position), cross: rms(cross), concatCross, pairs: m };
}
