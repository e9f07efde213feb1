// Code export of the `sinusoidal` kind (the registry is web/share/codegen.js): the table of
// docs/reference.md#sinusoidal in float64, rounded to float32 once.
import { lines, py, pyFloat } from './python.js';

const sinusoidal = (s, T) => {
  const body = s.layout === 'interleaved'
    ? [
      `omega = base ** (-2.0 * ${T.arange('(dim + 1) // 2')} / dim)   # ω_i = base^(−2i/dim)`,
      `pe[:, 0::2] = ${T.fn('sin')}(p * omega)`,
      `pe[:, 1::2] = ${T.fn('cos')}(p * omega[: dim // 2])   # an odd dim ends with a sine`,
    ]
    : [
      'h = dim // 2',
      s.layout === 'concat'
        ? `omega = base ** (-2.0 * ${T.arange('h')} / dim)   # ω_i = base^(−2i/dim)`
        : `omega = ${T.fn('exp')}(-${T.arange('h')} * math.log(base) / max(h - 1, 1))   # tensor2tensor`,
      `pe[:, :h] = ${T.fn('sin')}(p * omega)`,
      `pe[:, h : 2 * h] = ${T.fn('cos')}(p * omega)   # an odd dim leaves the last column 0`,
    ];
  return lines(
    s.layout === 'tensor2tensor' ? 'import math' : null,
    T.import,
    '',
    `length, dim, base, offset = ${s.length}, ${s.dim}, ${pyFloat(s.base)}, ${s.offset}`,
    `layout = ${py(s.layout)}`,
    '',
    `p = ${T.arange('offset', 'offset + length')}[:, None]   # positions`,
    `pe = ${T.zeros('length, dim')}`,
    body,
    `pe = ${T.to32('pe')}   # [length, dim]`,
  );
};

export default {
  sinusoidal: { tolerance: { abs: 1e-6 }, code: sinusoidal },
};
