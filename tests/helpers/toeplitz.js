// Reads the Toeplitz fixtures of the bias kinds (tests/fixtures/gen_relative.py): per plane, the
// 2·length − 1 values at r = j − i, and compares full kernel outputs against them.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../fixtures/', import.meta.url));

export function loadBiasManifest(kind) {
  return JSON.parse(readFileSync(`${root}${kind}/manifest.json`, 'utf8'));
}

export function loadProfile(kind, testCase) {
  const bytes = readFileSync(`${root}${kind}/${testCase.file}`);
  const values = new Float64Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
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
