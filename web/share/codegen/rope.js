// Code export of the `rope` kind (the registry is web/share/codegen.js): inv_freq in float64 as
// transformers' modeling_rope_utils computes it for each rope_type, then the angles p·θ_i.
import { rotaryDim, yarnFactor } from '../../api/schema/rope.js';
import { indent, lines, py, pyFloat } from './python.js';
import { IMPORTS, TORCH } from './module.js';

/** The lines that set inv_freq (and attention_factor where the type has one); also rope_precision's. */
export function ropeScaling(s, T) {
  const r = s.rope_scaling;
  const type = r?.rope_type ?? 'default';
  const arange2 = T.np ? 'np.arange(0, d, 2, dtype=np.float64)' : 'torch.arange(0, d, 2, dtype=torch.float64)';
  const dflt = (b) => `1.0 / ${b} ** (${arange2} / d)`;
  switch (type) {
    case 'default':
      return [`inv_freq = ${dflt('base')}   # θ_i = base^(−2i/d)`];
    case 'linear':
      return [`factor = ${pyFloat(r.factor)}`, `inv_freq = ${dflt('base')} / factor   # linear: positions / factor`];
    case 'ntk':
      return [`factor = ${pyFloat(r.factor)}`, 'base = base * factor ** (d / (d - 2))   # static NTK-aware', `inv_freq = ${dflt('base')}`];
    case 'dynamic':
      return [
        `factor = ${pyFloat(r.factor)}`,
        `m = ${py(s.max_position_embeddings ?? r.original_max_position_embeddings)}   # max_position_embeddings`,
        'seq_len = max(length, m)',
        'base = base * ((factor * seq_len / m) - (factor - 1)) ** (d / (d - 2))   # dynamic NTK',
        `inv_freq = ${dflt('base')}`,
      ];
    case 'yarn':
      return [
        r.convention === 'before_4.56' && yarnFactor(s) !== r.factor
          ? `factor = ${pyFloat(yarnFactor(s))}   # transformers before 4.56: max_position_embeddings / original_max_position_embeddings (rope_scaling.factor ${pyFloat(r.factor)} unused)`
          : `factor = ${pyFloat(r.factor)}`,
        `original_max = ${py(r.original_max_position_embeddings ?? s.max_position_embeddings)}`,
        `beta_fast, beta_slow, truncate = ${pyFloat(r.beta_fast)}, ${pyFloat(r.beta_slow)}, ${py(r.truncate)}`,
        'def mscale(scale, m=1.0):',
        '    return 1.0 if scale <= 1 else 0.1 * m * math.log(scale) + 1.0',
        r.attention_factor !== null ? `attention_factor = ${pyFloat(r.attention_factor)}`
          : r.mscale && r.mscale_all_dim ? `attention_factor = mscale(factor, ${pyFloat(r.mscale)}) / mscale(factor, ${pyFloat(r.mscale_all_dim)})`
            : 'attention_factor = mscale(factor)',
        'def correction_dim(rotations):',
        '    return (d * math.log(original_max / (rotations * 2 * math.pi))) / (2 * math.log(base))',
        'low, high = correction_dim(beta_fast), correction_dim(beta_slow)',
        'if truncate:',
        '    low, high = math.floor(low), math.ceil(high)',
        'low, high = max(low, 0), min(high, d - 1)',
        'if low == high:',
        '    high += 0.001',
        `pos_freqs = base ** (${arange2} / d)`,
        `ramp = ${T.np ? 'np.clip((np.arange(d // 2, dtype=np.float64) - low) / (high - low), 0, 1)' : 'torch.clamp((torch.arange(d // 2, dtype=torch.float64) - low) / (high - low), 0, 1)'}`,
        'extrapolation = 1.0 - ramp',
        'inv_freq = (1.0 / (factor * pos_freqs)) * (1 - extrapolation) + (1.0 / pos_freqs) * extrapolation   # YaRN',
      ];
    case 'llama3':
      return [
        `factor, low_freq_factor, high_freq_factor = ${pyFloat(r.factor)}, ${pyFloat(r.low_freq_factor)}, ${pyFloat(r.high_freq_factor)}`,
        `original_max = ${pyFloat(r.original_max_position_embeddings)}`,
        `inv_freq = ${dflt('base')}`,
        'wavelen = 2 * math.pi / inv_freq',
        `scaled = ${T.where}(wavelen > original_max / low_freq_factor, inv_freq / factor, inv_freq)`,
        'smooth = (original_max / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)',
        'smoothed = (1 - smooth) * scaled / factor + smooth * scaled',
        'medium = (wavelen <= original_max / low_freq_factor) & (wavelen >= original_max / high_freq_factor)',
        `inv_freq = ${T.where}(medium, smoothed, scaled)   # Llama 3.1`,
      ];
    case 'longrope': {
      // transformers' _compute_longrope_parameters, with its seq_len switch on length.
      const o = r.original_max_position_embeddings ?? s.max_position_embeddings;
      const scale = r.original_max_position_embeddings !== null && s.max_position_embeddings !== null
        ? `${s.max_position_embeddings} / ${r.original_max_position_embeddings}   # max_position_embeddings / original`
        : `${pyFloat(r.factor ?? 1)}`;
      const list = (v) => (T.np ? `np.array(${py(v)}, dtype=np.float64)` : `torch.tensor(${py(v)}, dtype=torch.float64)`);
      return [
        `original_max = ${py(o)}`,
        `short_factor = ${list(r.short_factor)}`,
        `long_factor = ${list(r.long_factor)}`,
        'ext = long_factor if length > original_max else short_factor   # the switch on the sequence length',
        `inv_freq = 1.0 / (ext * base ** (${arange2} / d))   # LongRoPE`,
        `scale = ${scale}`,
        r.attention_factor !== null ? `attention_factor = ${pyFloat(r.attention_factor)}`
          : 'attention_factor = 1.0 if scale <= 1 else math.sqrt(1 + math.log(scale) / math.log(original_max))',
      ];
    }
    default:
      throw new Error(`no code for rope_type ${type}`);
  }
}

const rope = (s, T) => {
  const head = [
    'import math',
    T.import,
    '',
    `length, dim, base = ${s.length}, ${s.dim}, ${pyFloat(s.base)}`,
    `partial_rotary_factor = ${pyFloat(s.partial_rotary_factor)}`,
    `d = int(dim * partial_rotary_factor)   # rotary_dim = ${rotaryDim(s)}`,
  ];
  const tail = [
    `pe = ${T.to32('angles')}   # [length, rotary_dim/2] angles p·θ_i`,
    `# cos, sin = ${T.fn('cos')}(angles) * attention_factor, ${T.fn('sin')}(angles) * attention_factor`,
    s.layout === 'half'
      ? '# layout "half" (GPT-NeoX, HF rotate_half): channel i pairs with i + d/2'
      : '# layout "interleaved" (RoFormer, GPT-J): channel 2i pairs with 2i + 1',
  ];
  if (s.grid_height != null && s.grid_width != null) {
    return lines(head,
      `grid_height, grid_width = ${s.grid_height}, ${s.grid_width}`,
      '',
      '# axial 2-D RoPE: the first half of the pairs turn with the row, the second with the column',
      'pairs = d // 2',
      `theta = base ** (-2.0 * ${T.arange('pairs // 2')} / pairs)`,
      `rows, cols = ${T.fn('meshgrid')}(${T.arange('grid_height')}, ${T.arange('grid_width')}, indexing='ij')`,
      `angles = ${T.cat('rows.reshape(-1, 1) * theta, cols.reshape(-1, 1) * theta', 1)}`,
      'attention_factor = 1.0',
      tail);
  }
  const type = s.rope_scaling?.rope_type ?? 'default';
  return lines(head,
    type === 'yarn' || type === 'longrope' ? null : 'attention_factor = 1.0',
    '',
    `# inv_freq in float64, as transformers' modeling_rope_utils (rope_type "${type}")`,
    ropeScaling(s, T),
    '',
    `angles = ${T.arange('length')}[:, None] * inv_freq[None, :]`,
    tail);
};

// The module form: a rotary embedding as transformers and tutorials write it. inv_freq (θ_i, with
// the rope_scaling of the spec) is a buffer; the angles p·θ_i for max_len positions and their
// cos/sin (times attention_factor) are computed once; forward(q, k) rotates the first rotary_dim
// channels of q and k, in the layout of the spec, and passes the rest through.
const ropeModule = (s) => {
  const type = s.rope_scaling?.rope_type ?? 'default';
  const axial = s.grid_height != null && s.grid_width != null;
  const half = s.layout === 'half';
  const freqs = axial
    ? [
      '        # axial 2-D RoPE: the first half of the pairs turn with the row, the second with the column',
      '        pairs = self.rotary_dim // 2',
      '        inv_freq = base ** (-2.0 * torch.arange(pairs // 2, dtype=torch.float64) / pairs)',
      '        attention_factor = 1.0',
      '        rows, cols = torch.meshgrid(torch.arange(grid_height, dtype=torch.float64), torch.arange(grid_width, dtype=torch.float64), indexing=\'ij\')',
      '        freqs = torch.cat([rows.reshape(-1, 1) * inv_freq, cols.reshape(-1, 1) * inv_freq], dim=1)   # [max_len, rotary_dim/2]',
    ]
    : [
      '        inv_freq, attention_factor = rope_inv_freq(self.rotary_dim, base, max_len)',
      '        freqs = torch.outer(torch.arange(max_len, dtype=torch.float64), inv_freq)   # angles p·θ_i [max_len, rotary_dim/2]',
    ];
  return lines(IMPORTS, '', '',
    axial ? null : [
      'def rope_inv_freq(d, base, length):',
      `    """θ_i in float64 as transformers' modeling_rope_utils (rope_type "${type}"), and the attention factor."""`,
      type === 'yarn' || type === 'longrope' ? null : '    attention_factor = 1.0',
      indent(lines(ropeScaling(s, TORCH))),
      '    return inv_freq, attention_factor',
      '', ''],
    half
      ? ['def rotate_half(x):   # GPT-NeoX / Llama: channel i pairs with i + d/2', '    x1, x2 = x.chunk(2, dim=-1)', '    return torch.cat((-x2, x1), dim=-1)']
      : ['def rotate_every_two(x):   # RoFormer / GPT-J: channel 2i pairs with 2i + 1', '    x1, x2 = x[..., 0::2], x[..., 1::2]', '    return torch.stack((-x2, x1), dim=-1).flatten(-2)'],
    '', '',
    'class RotaryEmbedding(nn.Module):',
    `    """RoPE (Su et al. 2021), layout ${py(s.layout)}: rotates the first rotary_dim channels of q and k by p·θ_i."""`,
    '',
    axial
      ? `    def __init__(self, head_dim, grid_height, grid_width, base=${pyFloat(s.base)}, partial_rotary_factor=${pyFloat(s.partial_rotary_factor)}):`
      : `    def __init__(self, head_dim, max_len, base=${pyFloat(s.base)}, partial_rotary_factor=${pyFloat(s.partial_rotary_factor)}):`,
    '        super().__init__()',
    `        self.rotary_dim = int(head_dim * partial_rotary_factor)   # ${rotaryDim(s)}`,
    freqs,
    "        self.register_buffer('inv_freq', inv_freq, persistent=False)   # float64 [rotary_dim/2]",
    "        self.register_buffer('freqs', freqs.float(), persistent=False)   # the angles PE Lab shows",
    '        # cos and sin of the float64 angles, rounded to float32 once, built once for max_len',
    "        self.register_buffer('cos_cached', (torch.cos(freqs) * attention_factor).float(), persistent=False)",
    "        self.register_buffer('sin_cached', (torch.sin(freqs) * attention_factor).float(), persistent=False)",
    '',
    axial ? '    def forward(self, q, k):   # q, k: (N, S, head_dim) or (N, heads, S, head_dim), tokens row-major'
      : '    def forward(self, q, k):   # q, k: (N, S, head_dim) or (N, heads, S, head_dim)',
    '        S, r = q.size(-2), self.rotary_dim',
    half
      ? '        cos, sin = self.cos_cached[:S].repeat(1, 2), self.sin_cached[:S].repeat(1, 2)   # [S, rotary_dim]'
      : '        cos, sin = self.cos_cached[:S].repeat_interleave(2, -1), self.sin_cached[:S].repeat_interleave(2, -1)   # [S, rotary_dim]',
    '',
    '        def rotate(x):',
    `            x_rot = x[..., :r] * cos + ${half ? 'rotate_half' : 'rotate_every_two'}(x[..., :r]) * sin`,
    '            return torch.cat([x_rot, x[..., r:]], dim=-1)   # channels past rotary_dim pass through',
    '        return rotate(q), rotate(k)',
    '', '',
    "if __name__ == '__main__':",
    '    # inside attention: q and k of shape (N, heads, S, head_dim), rotated before q·kᵀ',
    `    N, heads, head_dim = 2, 4, ${s.dim}`,
    axial ? `    rope = RotaryEmbedding(head_dim, grid_height=${s.grid_height}, grid_width=${s.grid_width})`
      : `    rope = RotaryEmbedding(head_dim, max_len=${s.length})`,
    `    q, k = torch.randn(N, heads, ${s.length}, head_dim), torch.randn(N, heads, ${s.length}, head_dim)`,
    '    q, k = rope(q, k)',
    axial ? '    scores = q @ k.transpose(-2, -1) / math.sqrt(head_dim)   # depends on positions through the row and column offsets'
      : '    scores = q @ k.transpose(-2, -1) / math.sqrt(head_dim)   # depends on positions only through i − j',
    "    pe = rope.freqs   # the angles p·θ_i: PE Lab's table [max_len, rotary_dim/2]");
};

export default {
  // angles grow with the position: relative to max(|angle|, 1)
  rope: { tolerance: { rel: 1e-6 }, code: rope, module: ropeModule },
};
