// Code export of the `sinusoidal` kind (the registry is web/share/codegen.js): the table of
// docs/reference.md#sinusoidal in float64, rounded to float32 once.
import { lines, py, pyFloat } from './python.js';
import { additiveUsage, IMPORTS } from './module.js';

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

// The module as "The Annotated Transformer" writes it: the table built once for max_len as the
// buffer pe [1, max_len, d_model], forward adding its first S rows to x (N, S, d_model).
const sinusoidalModule = (s) => {
  const fill = s.layout === 'interleaved'
    ? [
      '        # ω_i = base^(−2i/d_model): the exp(−2i·ln(base)/d_model) of tutorials, written as a power',
      '        div_term = base ** (-torch.arange(0, d_model, 2, dtype=torch.float64) / d_model)',
      '        pe[:, 0::2] = torch.sin(position * div_term)',
      '        pe[:, 1::2] = torch.cos(position * div_term[: d_model // 2])   # an odd d_model ends with a sine',
    ]
    : [
      '        h = d_model // 2',
      s.layout === 'concat'
        ? '        div_term = base ** (-2.0 * torch.arange(h, dtype=torch.float64) / d_model)   # ω_i = base^(−2i/d_model)'
        : '        div_term = torch.exp(-torch.arange(h, dtype=torch.float64) * math.log(base) / max(h - 1, 1))   # tensor2tensor',
      '        pe[:, :h] = torch.sin(position * div_term)   # [sin | cos] halves',
      '        pe[:, h : 2 * h] = torch.cos(position * div_term)   # an odd d_model leaves the last column 0',
    ];
  return lines(IMPORTS, '', '',
    'class SinusoidalPositionalEncoding(nn.Module):',
    `    """Fixed sines and cosines (Vaswani et al. 2017), layout ${py(s.layout)}, added to x."""`,
    '',
    `    def __init__(self, d_model, max_len, base=${pyFloat(s.base)}, offset=${s.offset}):`,
    '        super().__init__()',
    '        # in float64, rounded to float32 once',
    '        position = torch.arange(offset, offset + max_len, dtype=torch.float64)[:, None]',
    '        pe = torch.zeros(max_len, d_model, dtype=torch.float64)',
    fill,
    "        self.register_buffer('pe', pe.float()[None], persistent=False)   # [1, max_len, d_model], built once",
    '',
    '    def forward(self, x):   # x: (N, S, d_model), S ≤ max_len',
    '        return x + self.pe[:, : x.size(1)]',
    '', '',
    additiveUsage({
      make: `SinusoidalPositionalEncoding(d_model, max_len=${s.length})`,
      dModel: s.dim,
      seq: s.length,
      table: "pos.pe[0]   # the buffer: PE Lab's table [max_len, d_model]",
    }));
};

export default {
  sinusoidal: { tolerance: { abs: 1e-6 }, code: sinusoidal, module: sinusoidalModule },
};
