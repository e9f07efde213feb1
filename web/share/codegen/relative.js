// Code export of the relative family: `alibi`, `t5`, `shaw` and `distance` (the registry is
// web/share/codegen.js).
import { lines, py, pyFloat } from './python.js';

const alibi = (s, T) => lines('import math', T.import, '',
  `length, heads, mode = ${s.length}, ${s.heads}, ${py(s.mode)}`,
  '',
  'def get_slopes(n):   # Press et al., also for head counts that are not a power of two',
  '    def power_of_2(m):',
  '        start = 2 ** (-2 ** -(math.log2(m) - 3))',
  '        return [start * start**i for i in range(m)]',
  '    if math.log2(n).is_integer():',
  '        return power_of_2(n)',
  '    c = 2 ** math.floor(math.log2(n))',
  '    return power_of_2(c) + get_slopes(2 * c)[0::2][: n - c]',
  '',
  `slopes = ${T.np ? 'np.array(get_slopes(heads))' : 'torch.tensor(get_slopes(heads), dtype=torch.float64)'}[:, None, None]`,
  `i = ${T.iarange('length')}[:, None]   # query`,
  `j = ${T.iarange('length')}[None, :]   # key`,
  "if mode == 'causal':",
  `    pe = ${T.where}(j > i, -${T.inf}, -slopes * (i - j))`,
  'else:',
  `    pe = -slopes * ${T.fn('abs')}(i - j)`,
  `pe = ${T.to32('pe + 0.0')}   # [heads, length, length]`);

const t5 = (s, T) => {
  const head = ['import math', T.import, '',
    `length, num_buckets, max_distance, bidirectional = ${s.length}, ${s.num_buckets}, ${s.max_distance}, ${py(s.bidirectional)}`, ''];
  if (!T.np) {
    return lines(head,
      '# transformers\' T5Attention._relative_position_bucket',
      'def relative_position_bucket(relative_position, bidirectional, num_buckets, max_distance):',
      '    relative_buckets = 0',
      '    if bidirectional:',
      '        num_buckets //= 2',
      '        relative_buckets += (relative_position > 0).to(torch.long) * num_buckets',
      '        relative_position = torch.abs(relative_position)',
      '    else:',
      '        relative_position = -torch.min(relative_position, torch.zeros_like(relative_position))',
      '    max_exact = num_buckets // 2',
      '    is_small = relative_position < max_exact',
      '    relative_position_if_large = max_exact + (',
      '        torch.log(relative_position.float() / max_exact)',
      '        / math.log(max_distance / max_exact)',
      '        * (num_buckets - max_exact)',
      '    ).to(torch.long)',
      '    relative_position_if_large = torch.min(',
      '        relative_position_if_large, torch.full_like(relative_position_if_large, num_buckets - 1)',
      '    )',
      '    relative_buckets += torch.where(is_small, relative_position, relative_position_if_large)',
      '    return relative_buckets',
      '',
      'context = torch.arange(length, dtype=torch.long)[:, None]   # query',
      'memory = torch.arange(length, dtype=torch.long)[None, :]    # key',
      'pe = relative_position_bucket(memory - context, bidirectional, num_buckets, max_distance).float()',
      '# [length, length] bucket ids');
  }
  return lines(head,
    '# transformers\' _relative_position_bucket; the log branch in float32, as torch evaluates it',
    'rel = np.arange(length)[None, :] - np.arange(length)[:, None]   # key − query',
    'nb = num_buckets',
    'if bidirectional:',
    '    nb //= 2',
    '    bucket = (rel > 0) * nb',
    '    n = np.abs(rel)',
    'else:',
    '    bucket = np.zeros_like(rel)',
    '    n = -np.minimum(rel, 0)',
    'max_exact = nb // 2',
    'is_small = n < max_exact',
    'x = np.where(is_small, max_exact, n).astype(np.float32) / np.float32(max_exact)',
    'log_x = np.log(x.astype(np.float64)).astype(np.float32)   # the correctly rounded float32 log',
    'y = log_x / np.float32(math.log(max_distance / max_exact)) * np.float32(nb - max_exact)',
    'large = max_exact + np.minimum(y, np.float32(nb - 1 - max_exact)).astype(np.int64)',
    'pe = (bucket + np.where(is_small, n, large)).astype(np.float32)   # [length, length] bucket ids');
};

const shaw = (s, T) => lines(T.import, '',
  `length, k = ${s.length}, ${s.max_relative_position}   # max_relative_position`,
  '',
  `rel = ${T.iarange('length')}[None, :] - ${T.iarange('length')}[:, None]   # key − query`,
  `pe = ${T.to32(`(${T.np ? 'np.clip(rel, -k, k)' : 'torch.clamp(rel, -k, k)'} + k)`)}   # [length, length] embedding index`);

const distance = (s, T) => {
  const b = {
    linear: '-strength * u',
    log: `-strength * ${T.fn('log1p')}(u)`,
    gaussian: '-strength * (0.5 * u * u)',
    exponential: `strength * ${T.fn('expm1')}(-u)`,
  }[s.function];
  return lines(T.import, '',
    `length, strength, scale, mode = ${s.length}, ${pyFloat(s.strength)}, ${pyFloat(s.scale)}, ${py(s.mode)}`,
    `function = ${py(s.function)}`,
    '',
    `i = ${T.iarange('length')}[:, None]   # query`,
    `j = ${T.iarange('length')}[None, :]   # key`,
    `u = ${T.fn('abs')}(i - j) / scale`,
    `pe = ${b} + 0.0   # b(d), u = d / scale`,
    "if mode == 'causal':",
    `    pe = ${T.where}(j > i, -${T.inf}, pe)`,
    `pe = ${T.to32('pe')}   # [length, length]`);
};

export default {
  alibi: { tolerance: { rel: 1e-6 }, code: alibi },
  t5: { tolerance: { exact: true }, code: t5 },
  shaw: { tolerance: { exact: true }, code: shaw },
  distance: { tolerance: { rel: 1e-6 }, code: distance },
};
