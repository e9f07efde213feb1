// What every code-export generator (web/share/codegen/<family>.js) writes with: Python literals of
// JS values, line joining, and the flavour object that spells one snippet in NumPy or PyTorch.

/** 1e-6 rather than 0.000001. */
export const sci = (v) => (v !== 0 && Math.abs(v) < 1e-3 ? v.toExponential().replace('e-', 'e-') : String(v));

/** A Python float literal of a JS number. */
export function pyFloat(v) {
  if (!Number.isFinite(v)) return v > 0 ? "float('inf')" : v < 0 ? "float('-inf')" : "float('nan')";
  const s = String(v).replace('e+', 'e');
  return /[.e]/.test(s) ? s : `${s}.0`;
}

/** A Python literal of a JSON-like value (ints stay ints). */
export function py(v) {
  if (v === null || v === undefined) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : pyFloat(v);
  if (typeof v === 'string') {
    return `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n').replace(/\r/g, '\\r')
      // eslint-disable-next-line no-control-regex -- control characters are what this escapes
      .replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, (c) => {
        // \xHH holds one byte: U+2028/U+2029 need Python's \uHHHH (written \x2028 they read as " 28").
        const code = c.charCodeAt(0);
        return code > 0xff ? `\\u${code.toString(16).padStart(4, '0')}` : `\\x${code.toString(16).padStart(2, '0')}`;
      })}'`;
  }
  if (Array.isArray(v)) return `[${v.map(py).join(', ')}]`;
  return `{${Object.entries(v).map(([k, x]) => `${py(k)}: ${py(x)}`).join(', ')}}`;
}

/** The lines of nested arrays joined, null, undefined and false left out. */
export const lines = (...parts) => parts.flat(Infinity).filter((l) => l !== null && l !== undefined && l !== false).join('\n');

/** Every non-empty line of `code` indented. */
export const indent = (code, by = '    ') => code.split('\n').map((l) => (l ? by + l : l)).join('\n');

/**
 * The flavour a generator writes in:
 *   T.np      true for NumPy, false for PyTorch
 *   T.lib     'np' | 'torch'
 *   T.f64     the float64 dtype name, T.arange(a), T.to32(x) …
 */
export function flavour(lang) {
  const np = lang === 'numpy';
  return {
    np,
    lib: np ? 'np' : 'torch',
    import: np ? 'import numpy as np' : 'import torch',
    f64: np ? 'np.float64' : 'torch.float64',
    arange: (a, b) => (np ? `np.arange(${b === undefined ? a : `${a}, ${b}`}, dtype=np.float64)` : `torch.arange(${b === undefined ? a : `${a}, ${b}`}, dtype=torch.float64)`),
    iarange: (a) => (np ? `np.arange(${a})` : `torch.arange(${a})`),
    zeros: (shape) => (np ? `np.zeros((${shape}), dtype=np.float64)` : `torch.zeros(${shape}, dtype=torch.float64)`),
    to32: (x) => { const e = /^[\w.[\]:, ]*$/.test(x) && !x.includes(' ') ? x : `(${x})`; return np ? `${e}.astype(np.float32)` : `${e}.float()`; },
    cat: (list, axis) => (np ? `np.concatenate([${list}], axis=${axis})` : `torch.cat([${list}], dim=${axis})`),
    stack: (list, axis) => (np ? `np.stack([${list}], axis=${axis})` : `torch.stack([${list}], dim=${axis})`),
    fn: (name) => (np ? `np.${name}` : `torch.${name}`),
    inf: np ? 'np.inf' : 'float("inf")',
    where: np ? 'np.where' : 'torch.where',
  };
}
