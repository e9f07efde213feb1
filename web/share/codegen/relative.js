// Code export of the relative family: `alibi`, `t5`, `shaw` and `distance` (the registry is
// web/share/codegen.js).
import { lines, py, pyFloat } from './python.js';
import { IMPORTS, TORCH } from './module.js';

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

// The module form: a bias added to the attention scores (N, heads, S, S), built once for max_len
// (ALiBi and the distance biases), or the relative index a learned table is looked up with (T5's
// buckets, Shaw's clipped offsets), as those papers' code and tutorials write it.
const biasUsage = (make, heads, length, note) => lines(
  "if __name__ == '__main__':",
  `    N, heads, head_dim = 2, ${heads}, 64`,
  `    q, k = torch.randn(N, heads, ${length}, head_dim), torch.randn(N, heads, ${length}, head_dim)`,
  `    rel_bias = ${make}`,
  '    scores = rel_bias(q @ k.transpose(-2, -1) / math.sqrt(head_dim))   # no position embedding: the scores get the bias',
  '    attn = scores.softmax(dim=-1)   # (N, heads, S, S)',
  `    pe = ${note}`);

/** The lines of a snippet from the one starting with `from` to the one starting with `to`. */
const excerpt = (code, from, to) => {
  const l = code.split('\n');
  const a = l.findIndex((x) => x.startsWith(from));
  const b = l.findIndex((x, i) => i > a && x.startsWith(to));
  return l.slice(a, b + 1);
};

const alibiModule = (s, codeOf) => lines(IMPORTS, '', '',
  excerpt(codeOf('alibi')(s, TORCH), 'def get_slopes', '    return power_of_2(c)'), '', '',
  'class ALiBi(nn.Module):',
  '    """Attention with Linear Biases (Press et al. 2022): −m_h·|i − j| added to head h\'s scores."""',
  '',
  `    def __init__(self, heads, max_len, causal=${py(s.mode === 'causal')}):`,
  '        super().__init__()',
  '        slopes = torch.tensor(get_slopes(heads), dtype=torch.float64)[:, None, None]   # m_h',
  '        i, j = torch.arange(max_len)[:, None], torch.arange(max_len)[None, :]   # query, key',
  '        if causal:   # the causal mask comes with it',
  '            bias = torch.where(j > i, -float("inf"), -slopes * (i - j))',
  '        else:',
  '            bias = -slopes * (i - j).abs()',
  "        self.register_buffer('bias', (bias + 0.0).float(), persistent=False)   # [heads, max_len, max_len], built once",
  '',
  '    def forward(self, scores):   # scores: (N, heads, S, S)',
  '        S = scores.size(-1)',
  '        return scores + self.bias[:, :S, :S]',
  '', '',
  biasUsage(`ALiBi(heads, max_len=${s.length})`, s.heads, s.length, "rel_bias.bias   # PE Lab's table [heads, max_len, max_len]"));

const distanceModule = (s) => lines(IMPORTS, '', '',
  'class DistanceBias(nn.Module):',
  `    """b(|i − j| / scale) added to every head's scores: ${s.function}${s.mode === 'causal' ? ', causal' : ''}."""`,
  '',
  `    def __init__(self, max_len, strength=${pyFloat(s.strength)}, scale=${pyFloat(s.scale)}, causal=${py(s.mode === 'causal')}):`,
  '        super().__init__()',
  '        i, j = torch.arange(max_len)[:, None], torch.arange(max_len)[None, :]   # query, key',
  '        u = (i - j).abs() / scale',
  `        bias = ${{
    linear: '-strength * u',
    log: '-strength * torch.log1p(u)',
    gaussian: '-strength * (0.5 * u * u)',
    exponential: 'strength * torch.expm1(-u)',
  }[s.function]} + 0.0   # b(d) in float64, u = d / scale`,
  '        if causal:',
  '            bias = torch.where(j > i, -float("inf"), bias)',
  "        self.register_buffer('bias', bias.float(), persistent=False)   # [max_len, max_len], built once",
  '',
  '    def forward(self, scores):   # scores: (N, heads, S, S); one bias for every head',
  '        S = scores.size(-1)',
  '        return scores + self.bias[:S, :S]',
  '', '',
  biasUsage(`DistanceBias(max_len=${s.length})`, 4, s.length, "rel_bias.bias   # PE Lab's table [max_len, max_len]"));

const t5Module = (s, codeOf) => lines(IMPORTS, '', '',
  excerpt(codeOf('t5')(s, TORCH), '# transformers', '    return relative_buckets'), '', '',
  'class T5RelativeBias(nn.Module):',
  '    """T5 (Raffel et al. 2020): one learned bias per head and bucket of j − i, added to the scores."""',
  '',
  `    def __init__(self, heads, max_len, num_buckets=${s.num_buckets}, max_distance=${s.max_distance}, bidirectional=${py(s.bidirectional)}):`,
  '        super().__init__()',
  '        self.relative_attention_bias = nn.Embedding(num_buckets, heads)',
  '        context = torch.arange(max_len, dtype=torch.long)[:, None]   # query',
  '        memory = torch.arange(max_len, dtype=torch.long)[None, :]    # key',
  '        buckets = relative_position_bucket(memory - context, bidirectional, num_buckets, max_distance)',
  "        self.register_buffer('buckets', buckets, persistent=False)   # [max_len, max_len], built once",
  '',
  '    def forward(self, scores):   # scores: (N, heads, S, S)',
  '        S = scores.size(-1)',
  '        bias = self.relative_attention_bias(self.buckets[:S, :S])   # [S, S, heads]',
  '        return scores + bias.permute(2, 0, 1)[None]',
  '', '',
  biasUsage(`T5RelativeBias(heads, max_len=${s.length})`, 8, s.length, "rel_bias.buckets.float()   # the bucket ids: PE Lab's table [max_len, max_len]"));

const shawModule = (s) => lines(IMPORTS, '', '',
  'class ShawRelativeKeys(nn.Module):',
  '    """Shaw et al. 2018: a learned vector a_(j−i) per clipped offset, q_i · a_(j−i) added to the scores."""',
  '',
  `    def __init__(self, head_dim, max_len, max_relative_position=${s.max_relative_position}):`,
  '        super().__init__()',
  '        k = max_relative_position',
  '        self.rel_k = nn.Embedding(2 * k + 1, head_dim)',
  '        rel = torch.arange(max_len)[None, :] - torch.arange(max_len)[:, None]   # key − query',
  "        self.register_buffer('index', torch.clamp(rel, -k, k) + k, persistent=False)   # [max_len, max_len], built once",
  '',
  '    def forward(self, q, k):   # q, k: (N, heads, S, head_dim)',
  '        S = q.size(-2)',
  '        a = self.rel_k(self.index[:S, :S])   # [S, S, head_dim]',
  "        scores = q @ k.transpose(-2, -1) + torch.einsum('nhid,ijd->nhij', q, a)",
  '        return scores / math.sqrt(q.size(-1))',
  '', '',
  "if __name__ == '__main__':",
  '    N, heads, head_dim = 2, 4, 64',
  `    q, k = torch.randn(N, heads, ${s.length}, head_dim), torch.randn(N, heads, ${s.length}, head_dim)`,
  `    rel = ShawRelativeKeys(head_dim, max_len=${s.length})`,
  '    attn = rel(q, k).softmax(dim=-1)   # (N, heads, S, S)',
  "    pe = rel.index.float()   # the embedding index of j − i: PE Lab's table [max_len, max_len]");

export default {
  alibi: { tolerance: { rel: 1e-6 }, code: alibi, module: alibiModule },
  t5: { tolerance: { exact: true }, code: t5, module: t5Module },
  shaw: { tolerance: { exact: true }, code: shaw, module: shawModule },
  distance: { tolerance: { rel: 1e-6 }, code: distance, module: distanceModule },
};
