// "Copy as code": a NumPy or PyTorch snippet that recreates the tensor of a spec, the same values
// pe.compute returns (float32, same shape, same order). Every snippet ends with the tensor in a
// variable called `pe`. Written from the definitions in docs/reference.md and c/*.c (the same ones
// tests/fixtures/ref_*.py follow); tests/codegen.test.js runs them with NumPy and PyTorch and
// compares with pe.compute.
//
//   codeFor(spec, 'numpy' | 'torch', { link, shape, form, result }) → { code, tolerance, exact, check }
//
// Two forms: 'tensor' (the table itself, NumPy or PyTorch) and 'module' (PyTorch only: the
// nn.Module a tutorial writes, its buffer built once for max_len, forward slicing it, and a usage
// block; web/share/codegen/module.js). With pe.compute's `result`, the snippet ends with a line
// printing the shape of pe and one entry, and `check.expected` is what it prints.
//
// `spec` must be normalized (pe.normalize(spec), or result.spec of pe.compute). This module is the
// registry: one generator per family in web/share/codegen/<family>.js, each a default export
// { kind: { tolerance, code(spec, flavour, codeOf), module?(spec, codeOf) } }, merged here; what the generators share
// (Python literals, the NumPy/PyTorch flavour) is web/share/codegen/python.js, and the numbers
// they derive from a spec (rotary_dim, YaRN's factor, the recipes, how an encoding enters
// attention) come from web/api/schema/.
//
// `tolerance` says how close the snippet gets (the float64 formulas, rounded to float32 once):
// integer-valued tables are exact; see TOLERANCE for the rest.
import { flavour, lines, sci } from './codegen/python.js';
import sinusoidal from './codegen/sinusoidal.js';
import vision from './codegen/vision.js';
import rope from './codegen/rope.js';
import precision from './codegen/precision.js';
import mrope from './codegen/mrope.js';
import absolute from './codegen/absolute.js';
import relative from './codegen/relative.js';
import attention from './codegen/attention.js';

export { py, pyFloat, sci } from './codegen/python.js';

export const LANGUAGES = ['numpy', 'torch'];

/** The forms of a snippet: the tensor itself, or the nn.Module a tutorial writes around it. */
export const FORMS = ['tensor', 'module'];

const GENERATORS = {
  ...sinusoidal,
  ...vision,
  ...rope,
  ...precision,
  ...mrope,
  ...absolute,
  ...relative,
  ...attention,
};

/** How close each kind's snippet is to pe.compute (max abs difference, relative, or exact). */
export const TOLERANCE = Object.freeze(Object.fromEntries(Object.entries(GENERATORS).map(([kind, g]) => [kind, g.tolerance])));

/** Whether a kind has a code export. */
export function hasCode(kind) {
  return Object.hasOwn(GENERATORS, kind);
}

/** Whether a kind's code export has the nn.Module form (FORMS[1]). */
export function hasModule(kind) {
  return hasCode(kind) && typeof GENERATORS[kind].module === 'function';
}

const codeOf = (kind) => GENERATORS[kind].code;

/** How a tolerance reads in a snippet's first comment. */
const howClose = (tol) => (tol.exact ? 'exactly' : tol.abs ? `to ${sci(tol.abs)} (max abs difference)` : `to ${sci(tol.rel)} relative`);

/** The largest difference an entry of value v may have from pe.compute's under `tol`. */
const slack = (tol, v) => (tol.exact ? 0 : tol.abs ?? tol.rel * Math.max(Math.abs(v), 1));

/** v to `digits` decimals as Python's f'{v:.4f}' writes it (a negative zero keeps its sign). */
export function pyFixed(v, digits) {
  const s = v.toFixed(digits);
  return (Object.is(v, -0) || v < 0) && !s.startsWith('-') ? `-${s}` : s;
}

/**
 * The self-check of a snippet: a last line printing the shape of `pe` and one entry to 4 decimals,
 * and what it prints, from pe.compute's result. The entry is one whose printed digits cannot
 * change within the snippet's tolerance (a finite value well away from a rounding boundary),
 * looked for from the middle of the table. Returns { print, expected, index, digits }.
 */
export function selfCheck(result, tol) {
  const { data, shape } = result;
  const strides = shape.map((_, i) => shape.slice(i + 1).reduce((a, b) => a * b, 1));
  const indexOf = (flat) => strides.map((st, i) => Math.floor(flat / st) % shape[i]);
  const ok = (v, digits, strict) => {
    if (!Number.isFinite(v)) return false;
    if (strict && (Math.abs(v) < 1e-2 || Math.abs(v) > 1e4)) return false;
    const unit = 10 ** -digits;
    const frac = Math.abs(v) / unit - Math.floor(Math.abs(v) / unit);   // where v sits in its step
    const margin = Math.abs(frac - 0.5) * unit;                         // distance to a rounding tie
    return margin > 4 * slack(tol, v) + 1e-9 * unit;
  };
  const n = data.length;
  const start = indexOf(Math.floor(n / 2)).map((x, i) => (i === 0 ? x : Math.min(1, shape[i] - 1)));
  const first = start.reduce((a, x, i) => a + x * strides[i], 0);
  let found = null;
  for (const [digits, strict] of [[4, true], [4, false], [2, false]]) {
    for (let k = 0; k < n && found === null; k++) {
      const flat = (first + k) % n;
      if (ok(data[flat], digits, strict)) found = { flat, digits };
    }
    if (found) break;
  }
  found ??= { flat: 0, digits: 4 };
  const index = indexOf(found.flat);
  const v = data[found.flat];
  const fmt = `.${found.digits}f`;
  return {
    print: `print(tuple(pe.shape), f'{pe[${index.join(', ')}].item():${fmt}}')`,
    expected: `(${shape.join(', ')}) ${Number.isFinite(v) ? pyFixed(v, found.digits) : v > 0 ? 'inf' : v < 0 ? '-inf' : 'nan'}`,
    index,
    digits: found.digits,
  };
}

/**
 * A snippet that recreates pe.compute(spec).data as the variable `pe` (float32, same shape):
 * form 'tensor' in NumPy ('numpy') or PyTorch ('torch'), or form 'module', a PyTorch nn.Module
 * whose buffer (or forward output) is that table, in a usage block (`lang` is then ignored).
 * `spec` is a normalized spec; `shape` (optional) goes in the first comment; with `result`
 * (pe.compute's, for this spec) the snippet ends with the line of selfCheck(result). Returns
 * { code, tolerance, exact, check } or, for a kind without that form, { code: null, reason }.
 */
export function codeFor(spec, lang = 'numpy', { link = null, shape = null, form = 'tensor', result = null } = {}) {
  const s = spec;
  if (!LANGUAGES.includes(lang)) throw new Error(`codeFor: language must be numpy or torch, got ${lang}`);
  if (!FORMS.includes(form)) throw new Error(`codeFor: form must be tensor or module, got ${form}`);
  if (!hasCode(s.kind)) {
    return { code: null, reason: `${s.kind}: no code export yet` };
  }
  if (form === 'module' && !hasModule(s.kind)) {
    return { code: null, reason: `${s.kind}: no nn.Module form` };
  }
  const tol = TOLERANCE[s.kind];
  const dims = shape ?? result?.shape;
  const header = [
    form === 'module'
      ? `# PE Lab: ${s.kind} as a PyTorch nn.Module; its table pe, float32${dims ? ` [${dims.join(', ')}]` : ''}, equals pe.compute(spec).data ${howClose(tol)}`
      : `# PE Lab: ${s.kind}, float32${dims ? ` [${dims.join(', ')}]` : ''}; equals pe.compute(spec).data ${howClose(tol)}`,
    link ? `# ${link}` : null,
  ];
  const body = form === 'module' ? GENERATORS[s.kind].module(s, codeOf) : codeOf(s.kind)(s, flavour(lang), codeOf);
  const check = result ? selfCheck(result, tol) : null;
  const tail = check ? `${form === 'module' ? '    ' : ''}${check.print}   # self-check` : null;
  const code = `${lines(header, body, tail)}\n`;
  return { code, tolerance: tol, exact: !!tol.exact, check };
}
