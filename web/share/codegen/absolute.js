// Code export of the absolute family: `integer`, `binary` and `learned` (the registry is
// web/share/codegen.js).
import { lines, py, pyFloat } from './python.js';
import { additiveUsage, bufferModule, IMPORTS, tableFunction, TORCH } from './module.js';

const integer = (s, T) => lines(T.import, '',
  `length, dim, normalize = ${s.length}, ${s.dim}, ${py(s.normalize)}`,
  '',
  `p = ${T.arange('length')}`,
  'if normalize:',
  `    p = p / (length - 1) if length > 1 else p * 0.0`,
  `pe = ${T.np ? 'np.repeat(p[:, None], dim, axis=1).astype(np.float32)' : 'p[:, None].repeat(1, dim).float()'}   # [length, dim]`);

const binary = (s, T) => lines(T.import, '',
  `length, dim = ${s.length}, ${s.dim}`,
  '',
  `p = ${T.iarange('length')}[:, None]`,
  `k = ${T.iarange('dim')}[None, :]`,
  T.np ? 'pe = np.where(k < 32, (p >> np.minimum(k, 31)) & 1, 0).astype(np.float32)   # bit k of p'
    : 'pe = torch.where(k < 32, (p >> k.clamp(max=31)) & 1, 0).float()   # bit k of p',
  '# [length, dim]');

const learned = (s, T) => {
  if (T.np) {
    return lines(T.import, '',
      `length, dim, std, seed = ${s.length}, ${s.dim}, ${pyFloat(s.std)}, ${s.seed}`,
      '',
      '# SplitMix64 + Box–Muller, as documented in c/absolute.c: entry (p, c) uses the pair',
      '# q = p·8192 + c//2 (so a table never depends on length or dim)',
      'def splitmix64(t):',
      "    with np.errstate(over='ignore'):",
      '        z = np.uint64(seed) + (t + np.uint64(1)) * np.uint64(0x9E3779B97F4A7C15)',
      '        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)',
      '        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)',
      '        return z ^ (z >> np.uint64(31))',
      '',
      'p = np.arange(length, dtype=np.uint64)[:, None]',
      'c = np.arange(dim, dtype=np.uint64)[None, :]',
      'q = p * np.uint64(8192) + c // np.uint64(2)',
      'u1 = ((splitmix64(np.uint64(2) * q) >> np.uint64(11)) + np.uint64(1)).astype(np.float64) * 2.0**-53',
      'u2 = (splitmix64(np.uint64(2) * q + np.uint64(1)) >> np.uint64(11)).astype(np.float64) * 2.0**-53',
      'rho, theta = np.sqrt(-2.0 * np.log(u1)), 6.283185307179586 * u2',
      'z = np.where(c % np.uint64(2) == 0, rho * np.cos(theta), rho * np.sin(theta))',
      'pe = (std * z).astype(np.float32)   # [length, dim]');
  }
  return lines(T.import, '',
    `length, dim, std, seed = ${s.length}, ${s.dim}, ${pyFloat(s.std)}, ${s.seed}`,
    '',
    '# SplitMix64 + Box–Muller, as documented in c/absolute.c, on int64 tensors (they wrap like',
    '# uint64; srl is the logical right shift). Entry (p, c) uses the pair q = p·8192 + c//2.',
    'def i64(x):',
    '    return x - (1 << 64) if x >= 1 << 63 else x',
    'def srl(z, k):',
    '    return (z >> k) & ((1 << (64 - k)) - 1)',
    'def splitmix64(t):',
    '    z = seed + (t + 1) * i64(0x9E3779B97F4A7C15)',
    '    z = (z ^ srl(z, 30)) * i64(0xBF58476D1CE4E5B9)',
    '    z = (z ^ srl(z, 27)) * i64(0x94D049BB133111EB)',
    '    return z ^ srl(z, 31)',
    '',
    'p = torch.arange(length, dtype=torch.int64)[:, None]',
    'c = torch.arange(dim, dtype=torch.int64)[None, :]',
    'q = p * 8192 + c // 2',
    'u1 = (srl(splitmix64(2 * q), 11) + 1).double() * 2.0**-53',
    'u2 = srl(splitmix64(2 * q + 1), 11).double() * 2.0**-53',
    'rho, theta = torch.sqrt(-2.0 * torch.log(u1)), 6.283185307179586 * u2',
    'z = torch.where(c % 2 == 0, rho * torch.cos(theta), rho * torch.sin(theta))',
    'pe = (std * z).float()   # [length, dim]');
};

// The module form: integer and binary as a fixed buffer added to x; learned as tutorials write
// it, an nn.Embedding(max_len, d_model) looked up at positions 0 … S−1, here with its weight set to
// PE Lab's draw (a model would start from nn.init.normal_(std) and train it).
const fixed = (cls, doc) => (s, codeOf) => bufferModule({
  cls, doc, dModel: s.dim, rows: s.length,
  fn: tableFunction(`${cls === 'IntegerPositionalEncoding' ? 'integer' : 'binary'}_table`, codeOf(s.kind)(s, TORCH)),
  call: `${cls === 'IntegerPositionalEncoding' ? 'integer' : 'binary'}_table()`,
});

const learnedModule = (s, codeOf) => lines(IMPORTS, '', '',
  tableFunction('learned_init', codeOf('learned')(s, TORCH), { doc: "PE Lab's draw of N(0, std²): the weight the lab shows" }), '', '',
  'class LearnedPositionalEmbedding(nn.Module):',
  '    """A trained table of positions (BERT, GPT-2): one d_model vector per position, added to x."""',
  '',
  '    def __init__(self, max_len, d_model):',
  '        super().__init__()',
  '        self.pe = nn.Embedding(max_len, d_model)',
  '        with torch.no_grad():',
  `            self.pe.weight.copy_(learned_init())   # usually nn.init.normal_(self.pe.weight, std=${pyFloat(s.std)}), then trained`,
  "        self.register_buffer('position_ids', torch.arange(max_len)[None], persistent=False)   # [1, max_len]",
  '',
  '    def forward(self, x):   # x: (N, S, d_model)',
  '        return x + self.pe(self.position_ids[:, : x.size(1)])',
  '', '',
  additiveUsage({
    make: `LearnedPositionalEmbedding(max_len=${s.length}, d_model=d_model)`,
    dModel: s.dim,
    seq: s.length,
    table: "pos.pe.weight.detach()   # the embedding's weight: PE Lab's table [max_len, d_model]",
  }));

export default {
  integer: { tolerance: { exact: true }, code: integer, module: fixed('IntegerPositionalEncoding', 'The position itself (or p / (length − 1)) in every channel, added to x.') },
  binary: { tolerance: { exact: true }, code: binary, module: fixed('BinaryPositionalEncoding', 'Bit k of the position in channel k, added to x.') },
  learned: { tolerance: { abs: 1e-7 }, code: learned, module: learnedModule },
};
