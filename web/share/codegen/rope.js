// Code export of the `rope` kind (the registry is web/share/codegen.js): inv_freq in float64 as
// transformers' modeling_rope_utils computes it for each rope_type, then the angles p·θ_i.
import { rotaryDim, yarnFactor } from '../../api/schema/rope.js';
import { lines, py, pyFloat } from './python.js';

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

export default {
  // angles grow with the position: relative to max(|angle|, 1)
  rope: { tolerance: { rel: 1e-6 }, code: rope },
};
