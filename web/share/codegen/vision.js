// Code export of the 2-D and 3-D sinusoids, `sinusoidal2d` and `sinusoidal3d` (the registry is
// web/share/codegen.js): MAE's and the positional-encodings package's definitions in float64.
import { lines, py, pyFloat } from './python.js';
import { bufferModule, tableFunction, TORCH } from './module.js';

const sinusoidal2d = (s, T) => {
  const head = [T.import, '', `height, width, dim, base = ${s.height}, ${s.width}, ${s.dim}, ${pyFloat(s.base)}`, `layout = ${py(s.layout)}`, ''];
  if (s.layout === 'mae') {
    return lines(head,
      '# MAE get_2d_sincos_pos_embed: [column encoding | row encoding], each [sin | cos]',
      'def half(pos):',
      `    omega = 1.0 / base ** (${T.arange('dim // 4')} / (dim / 4.0))`,
      '    a = pos[:, None] * omega[None, :]',
      `    return ${T.cat(`${T.fn('sin')}(a), ${T.fn('cos')}(a)`, 1)}`,
      '',
      `rows, cols = ${T.fn('meshgrid')}(${T.arange('height')}, ${T.arange('width')}, indexing='ij')`,
      `pe = ${T.cat('half(cols.reshape(-1)), half(rows.reshape(-1))', 1)}`,
      `pe = ${T.to32('pe')}   # [height·width, dim], tokens row-major`);
  }
  if (s.layout === 'sum') {
    return lines(head,
      '# interleaved 1-D encoding of the row + that of the column (each rounded to float32, then added)',
      'def interleaved(n):',
      `    p = ${T.arange('n')}[:, None]`,
      `    omega = base ** (-2.0 * ${T.arange('(dim + 1) // 2')} / dim)`,
      `    out = ${T.zeros('n, dim')}`,
      `    out[:, 0::2] = ${T.fn('sin')}(p * omega)`,
      `    out[:, 1::2] = ${T.fn('cos')}(p * omega[: dim // 2])`,
      `    return ${T.to32('out')}`,
      '',
      'pe = (interleaved(height)[:, None, :] + interleaved(width)[None, :, :]).reshape(height * width, dim)   # float32');
  }
  return lines('import math', head,
    '# positional-encodings PositionalEncoding2D: [row block | column block], interleaved sin/cos, cut to dim',
    'channels = int(math.ceil(dim / 4) * 2)',
    'def emb(n):',
    `    inv_freq = 1.0 / base ** (${T.np ? 'np.arange(0, channels, 2, dtype=np.float64)' : 'torch.arange(0, channels, 2, dtype=torch.float64)'} / channels)`,
    `    a = ${T.arange('n')}[:, None] * inv_freq[None, :]`,
    `    return ${T.stack(`${T.fn('sin')}(a), ${T.fn('cos')}(a)`, -1)}.reshape(n, channels)`,
    '',
    `e = ${T.zeros('height, width, 2 * channels')}`,
    'e[:, :, :channels] = emb(height)[:, None, :]',
    'e[:, :, channels:] = emb(width)[None, :, :]',
    `pe = ${T.to32('e[:, :, :dim].reshape(height * width, dim)')}   # [height·width, dim]`);
};

const sinusoidal3d = (s, T) => lines('import math', T.import, '',
  `depth, height, width, dim, base = ${s.depth}, ${s.height}, ${s.width}, ${s.dim}, ${pyFloat(s.base)}`,
  '',
  '# positional-encodings PositionalEncoding3D: [depth block | row block | column block], cut to dim',
  'channels = int(math.ceil(dim / 6) * 2)',
  'def emb(n):',
  `    inv_freq = 1.0 / base ** (${T.np ? 'np.arange(0, channels, 2, dtype=np.float64)' : 'torch.arange(0, channels, 2, dtype=torch.float64)'} / channels)`,
  `    a = ${T.arange('n')}[:, None] * inv_freq[None, :]`,
  `    return ${T.stack(`${T.fn('sin')}(a), ${T.fn('cos')}(a)`, -1)}.reshape(n, channels)`,
  '',
  `e = ${T.zeros('depth, height, width, 3 * channels')}`,
  'e[:, :, :, :channels] = emb(depth)[:, None, None, :]',
  'e[:, :, :, channels : 2 * channels] = emb(height)[None, :, None, :]',
  'e[:, :, :, 2 * channels :] = emb(width)[None, None, :, :]',
  `pe = ${T.to32('e[..., :dim].reshape(depth * height * width, dim)')}   # [depth·height·width, dim]`);

// The module form: the fixed table as MAE and ViT keep it, a buffer pos_embed-like `pe`
// [1, tokens, d_model] added to the patch tokens (N, tokens, d_model), row-major.
const gridModule = (name, cls, doc) => (s, codeOf) => bufferModule({
  cls, doc, dModel: s.dim, rows: s.kind === 'sinusoidal3d' ? s.depth * s.height * s.width : s.height * s.width,
  fn: tableFunction(name, codeOf(s.kind)(s, TORCH)),
  call: `${name}()`,
  usageNote: 'a ViT adds it to patch embeddings (a Conv2d of stride patch_size) the same way, tokens row-major',
});

export default {
  sinusoidal2d: {
    tolerance: { abs: 1e-6 }, code: sinusoidal2d,
    module: gridModule('sincos_2d_table', 'SinCos2DPositionalEncoding', 'Fixed 2-D sines and cosines for a grid of patches, added to the patch tokens.'),
  },
  sinusoidal3d: {
    tolerance: { abs: 1e-6 }, code: sinusoidal3d,
    module: gridModule('sincos_3d_table', 'SinCos3DPositionalEncoding', 'Fixed 3-D sines and cosines for a grid of video patches, added to the tokens.'),
  },
};
