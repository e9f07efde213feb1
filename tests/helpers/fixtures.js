// Reads the fixtures written by tests/fixtures/generate.py (float64 references from NumPy).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../fixtures/', import.meta.url));

/** The manifest of one kind: { kind, reference, cases: [{ name, spec, shape, rows, file, tolerance }] }. */
export function loadManifest(kind) {
  return JSON.parse(readFileSync(`${root}${kind}/manifest.json`, 'utf8'));
}

/** The stored rows of a case as a Float64Array (row-major, only `rows` when they are listed). */
export function loadExpected(kind, testCase) {
  const bytes = readFileSync(`${root}${kind}/${testCase.file}`);
  const values = new Float64Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  const rowCount = testCase.rows ? testCase.rows.length : testCase.shape[0];
  const rowWidth = testCase.shape.slice(1).reduce((a, b) => a * b, 1);
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
  const rowWidth = testCase.shape.slice(1).reduce((a, b) => a * b, 1);
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
