// The one reader of the committed reference fixtures, tests/fixtures/<kind>/ (manifest.json plus raw
// little-endian files), written by the generators tests/fixtures/gen_<family>.py from independent
// NumPy/PyTorch references; tests/fixtures/README.md describes each format. Row tables (most kinds)
// and the Toeplitz profiles of the relative kinds (alibi, t5, shaw, distance) are compared here.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../fixtures/', import.meta.url));

/** The manifest of one kind (tests/fixtures/<kind>/manifest.json): { kind, reference, cases: […], … }. */
export function loadManifest(kind) {
  return JSON.parse(readFileSync(`${root}${kind}/manifest.json`, 'utf8'));
}

/**
 * The raw file `file` of a kind as a typed array of `Type` (Float64Array by default; Float32Array,
 * Uint8Array, …) over a copy of its bytes.
 */
export function readFixture(kind, file, Type = Float64Array) {
  const bytes = readFileSync(`${root}${kind}/${file}`);
  return new Type(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}

const rowWidthOf = (testCase) => testCase.shape.slice(1).reduce((a, b) => a * b, 1);

/** The stored rows of a case as a Float64Array (row-major, only `rows` when they are listed). */
export function loadExpected(kind, testCase) {
  const values = readFixture(kind, testCase.file);
  const rowCount = testCase.rows ? testCase.rows.length : testCase.shape[0];
  const rowWidth = rowWidthOf(testCase);
  if (values.length !== rowCount * rowWidth) {
    throw new Error(`fixture ${testCase.file}: ${values.length} values, expected ${rowCount * rowWidth}`);
  }
  return values;
}

/**
 * Largest |actual - expected| over the stored rows of a case. `actual` is the full output.
 * Returns { worst, at } with the flat index of the worst element in the full output.
 */
export function maxAbsError(actual, expected, testCase) {
  const rowWidth = rowWidthOf(testCase);
  const rows = testCase.rows ?? Array.from({ length: testCase.shape[0] }, (_, i) => i);
  let worst = 0;
  let at = -1;
  rows.forEach((row, k) => {
    for (let j = 0; j < rowWidth; j++) {
      const a = actual[row * rowWidth + j];
      const err = Number.isNaN(a) ? Infinity : Math.abs(a - expected[k * rowWidth + j]);
      if (err > worst || at < 0) { worst = Math.max(worst, err); at = row * rowWidth + j; }
    }
  });
  return { worst, at };
}

/**
 * The Toeplitz profile of a relative-kind case (tests/fixtures/gen_relative.py): per plane, the
 * 2·length − 1 float64 values at r = j − i = −(length − 1) … length − 1.
 */
export function loadProfile(kind, testCase) {
  const values = readFixture(kind, testCase.file);
  const n = testCase.spec.length;
  if (values.length !== testCase.planes * (2 * n - 1)) throw new Error(`fixture ${testCase.file}: ${values.length} values`);
  return values;
}

/**
 * Checks every entry [p, i, j] of `actual` (planes × n × n, row-major) against the stored value
 * at r = j − i. Infinities must match exactly; finite values within tol.abs + tol.rel·|e|.
 * Returns { bad, worstAbs, worstRel, notRounded, first }: notRounded counts values other than
 * the stored float64 rounded to float32; first describes the first mismatch.
 */
export function compareToeplitz(actual, profile, testCase) {
  const n = testCase.spec.length;
  const width = 2 * n - 1;
  const { abs, rel } = testCase.tolerance;
  let bad = 0;
  let worstAbs = 0;
  let worstRel = 0;
  let notRounded = 0;
  let first = null;
  for (let p = 0; p < testCase.planes; p++) {
    for (let i = 0; i < n; i++) {
      const row = (p * n + i) * n;
      const base = p * width + n - 1 - i;   // profile index of j = 0
      for (let j = 0; j < n; j++) {
        const e = profile[base + j];
        const v = actual[row + j];
        if (!Object.is(v, Math.fround(e))) notRounded++;
        let ok;
        if (!Number.isFinite(e)) {
          ok = v === e;
        } else {
          const err = Math.abs(v - e);   // NaN when v is NaN: not ok
          ok = err <= abs + rel * Math.abs(e);
          if (err > worstAbs) worstAbs = err;
          if (e !== 0 && err / Math.abs(e) > worstRel) worstRel = err / Math.abs(e);
        }
        if (!ok) {
          bad++;
          first ??= `[${p}, ${i}, ${j}]: got ${v}, expected ${e}`;
        }
      }
    }
  }
  return { bad, worstAbs, worstRel, notRounded, first };
}
