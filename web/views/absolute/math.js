// The numbers behind the absolute family's views, as plain functions of typed arrays (no DOM).
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
