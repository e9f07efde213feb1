// Code export of the 2-D and 3-D sinusoids, `sinusoidal2d` and `sinusoidal3d` (the registry is
// web/share/codegen.js): MAE's and the positional-encodings package's definitions in float64; and
// of `learned2d`: that table (or the learned kind's random one) with a class row, its grid resized
// as Hugging Face (F.interpolate bicubic) or timm (antialias=True, resize_antialias) do; in NumPy
// the same formulas as matrices.
import { lines, py, pyFloat } from './python.js';
import { bufferModule, tableFunction, TORCH } from './module.js';
import absolute from './absolute.js';

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

const learned2d = (s, T) => {
  const prefix = s.cls_token ? 1 : 0;
  const source = s.init === 'normal'
    ? absolute.learned.code({ length: prefix + s.height * s.width, dim: s.dim, std: s.std, seed: s.seed }, T)
    : lines(sinusoidal2d({ height: s.height, width: s.width, dim: s.dim, base: 10000, layout: 'mae' }, T),
      prefix ? `pe = ${T.cat(`${T.to32(T.zeros('1, dim'))}, pe`, 0)}   # MAE's class row: zeros` : null);
  const head = lines(source, '', `prefix, rows, cols = ${prefix}, ${s.height}, ${s.width}   # class rows, then the grid row-major`);
  if (s.resize_height === null) return head;
  const size = `new_rows, new_cols = ${s.resize_height}, ${s.resize_width}`;
  const aa = !!s.resize_antialias;
  if (!T.np) {
    return lines(head, size, '',
      aa ? "# timm resample_abs_pos_embed (its default antialias=True): the grid part, PIL-style bicubic"
        : '# HF ViT interpolate_pos_encoding (and timm with antialias=False): the grid part, bicubic',
      'grid = pe[prefix:].double().reshape(1, rows, cols, dim).permute(0, 3, 1, 2)   # [1, dim, rows, cols]',
      `grid = torch.nn.functional.interpolate(grid, size=(new_rows, new_cols), mode='bicubic', align_corners=False, antialias=${aa ? 'True' : 'False'})`,
      'pe = torch.cat([pe[:prefix], grid.permute(0, 2, 3, 1).reshape(-1, dim).float()], dim=0)   # [prefix + new_rows·new_cols, dim]');
  }
  const resize = aa
    ? ["# PyTorch's antialiased bicubic (timm's default; Pillow's filter, A = -0.5): when shrinking the",
      '# kernel widens by the scale; the weights over the window inside the grid are normalised to 1',
      'def bicubic_matrix(n_in, n_out, A=-0.5):',
      '    scale = n_in / n_out',
      '    fs = max(scale, 1.0)',
      '    m = np.zeros((n_out, n_in))',
      '    for o in range(n_out):',
      '        center = scale * (o + 0.5)',
      '        lo, hi = max(int(center - 2 * fs + 0.5), 0), min(int(center + 2 * fs + 0.5), n_in)',
      '        u = np.abs((np.arange(lo, hi) - center + 0.5) / fs)',
      '        w = np.where(u < 1, ((A + 2) * u - (A + 3)) * u * u + 1, np.where(u < 2, ((A * u - 5 * A) * u + 8 * A) * u - 4 * A, 0.0))',
      '        m[o, lo:hi] = w / w.sum()',
      '    return m']
    : null;
  return lines(head, size, '', ...(resize ?? [
    "# PyTorch's bicubic (align_corners=False, A = -0.75, border indices clamped) as a matrix per axis",
    'def bicubic_matrix(n_in, n_out, A=-0.75):',
    '    x = (np.arange(n_out) + 0.5) * (n_in / n_out) - 0.5',
    '    x0 = np.floor(x)',
    '    t = x - x0',
    '    k1 = lambda u: ((A + 2) * u - (A + 3)) * u * u + 1',
    '    k2 = lambda u: ((A * u - 5 * A) * u + 8 * A) * u - 4 * A',
    '    w = np.stack([k2(t + 1), k1(t), k1(1 - t), k2(2 - t)], axis=1)',
    '    idx = np.clip(x0[:, None].astype(np.int64) + np.arange(-1, 3), 0, n_in - 1)',
    '    m = np.zeros((n_out, n_in))',
    '    np.add.at(m, (np.repeat(np.arange(n_out), 4), idx.ravel()), w.ravel())',
    '    return m']),
    '',
    'grid = pe[prefix:].reshape(rows, cols, dim).astype(np.float64)',
    "grid = np.einsum('yi,xj,ijd->yxd', bicubic_matrix(rows, new_rows), bicubic_matrix(cols, new_cols), grid)",
    'pe = np.concatenate([pe[:prefix], grid.reshape(-1, dim).astype(np.float32)], axis=0)   # [prefix + new_rows·new_cols, dim]');
};

export default {
  learned2d: {
    tolerance: { abs: 1e-6 }, code: learned2d,
    module: (s, codeOf) => bufferModule({
      cls: 'ViTPositionTable', doc: 'A ViT-style pos_embed [1, tokens, d_model] (class row first), added to the tokens.',
      dModel: s.dim, rows: (s.cls_token ? 1 : 0) + (s.resize_height ?? s.height) * (s.resize_width ?? s.width),
      fn: tableFunction('vit_table', codeOf(s.kind)(s, TORCH)),
      call: 'vit_table()',
      usageNote: 'in a ViT the class token comes first, then the patches row-major',
    }),
  },
  sinusoidal2d: {
    tolerance: { abs: 1e-6 }, code: sinusoidal2d,
    module: gridModule('sincos_2d_table', 'SinCos2DPositionalEncoding', 'Fixed 2-D sines and cosines for a grid of patches, added to the patch tokens.'),
  },
  sinusoidal3d: {
    tolerance: { abs: 1e-6 }, code: sinusoidal3d,
    module: gridModule('sincos_3d_table', 'SinCos3DPositionalEncoding', 'Fixed 3-D sines and cosines for a grid of video patches, added to the tokens.'),
  },
};
