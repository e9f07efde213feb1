// "Copy as code": a NumPy or PyTorch snippet that recreates the tensor of a spec, the same values
// pe.compute returns (float32, same shape, same order). Every snippet ends with the tensor in a
// variable called `pe`. Written from the definitions in docs/reference.md and c/*.c (the same ones
// tests/fixtures/ref_*.py follow); tests/codegen.test.js runs them with NumPy and PyTorch and
// compares with pe.compute.
//
//   codeFor(spec, 'numpy' | 'torch', { link, shape }) → { code, tolerance, exact }
//
// `spec` must be normalized (pe.normalize(spec), or result.spec of pe.compute). This module is the
// registry: one generator per family in web/share/codegen/<family>.js, each a default export
// { kind: { tolerance, code(spec, flavour, codeOf) } }, merged here; what the generators share
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

const codeOf = (kind) => GENERATORS[kind].code;

/**
 * A snippet that recreates pe.compute(spec).data in NumPy ('numpy') or PyTorch ('torch'), as the
 * variable `pe` (float32, same shape). `spec` is a normalized spec; `shape` (optional) goes in
 * the first comment. Returns { code, tolerance, exact } or, for a kind without a code export,
 * { code: null, reason }.
 */
export function codeFor(spec, lang = 'numpy', { link = null, shape = null } = {}) {
  const s = spec;
  if (!LANGUAGES.includes(lang)) throw new Error(`codeFor: language must be numpy or torch, got ${lang}`);
  if (!hasCode(s.kind)) {
    return { code: null, reason: `${s.kind}: no code export yet` };
  }
  const tol = TOLERANCE[s.kind];
  const how = tol.exact ? 'exactly' : tol.abs ? `to ${sci(tol.abs)} (max abs difference)` : `to ${sci(tol.rel)} relative`;
  const header = [
    `# PE Lab: ${s.kind}, float32${shape ? ` [${shape.join(', ')}]` : ''}; equals pe.compute(spec).data ${how}`,
    link ? `# ${link}` : null,
  ];
  const code = `${lines(header, codeOf(s.kind)(s, flavour(lang), codeOf))}\n`;
  return { code, tolerance: tol, exact: !!tol.exact };
}
