// "Copy as code": a NumPy or PyTorch snippet that recreates the tensor of a spec, the same values
// pe.compute returns (float32, same shape, same order). Every snippet ends with the tensor in a
// variable called `pe`. Written from the definitions in shared/spec-contract.md and c/*.c (the
// same ones tests/fixtures/ref_*.py follow); tests/codegen.test.js runs them with NumPy and
// PyTorch and compares with pe.compute.
//
//   codeFor(spec, 'numpy' | 'torch', { link, shape }) → { code, tolerance, exact }
//
// `spec` must be normalized (pe.normalize(spec), or result.spec of pe.compute): this module
// imports nothing, so the share view can load it lazily (web/share/tools.js).
//
// `tolerance` says how close the snippet gets (the float64 formulas, rounded to float32 once):
// integer-valued tables are exact; see TOLERANCE for the rest.

/** rotary_dim = int(dim · partial_rotary_factor), as web/api/schema/rope.js. */
const rotaryDim = (s) => Math.trunc(s.dim * s.partial_rotary_factor);
/** YaRN's factor under the spec's transformers convention, as web/api/schema/rope.js's yarnFactor. */
function yarnFactor(s) {
  const r = s.rope_scaling;
  const ratio = r.convention === 'before_4.56' && r.original_max_position_embeddings != null && s.max_position_embeddings != null;
  return ratio ? s.max_position_embeddings / r.original_max_position_embeddings : r.factor;
}

export const LANGUAGES = ['numpy', 'torch'];

/** How close each kind's snippet is to pe.compute (max abs difference, or 'exact'). */
export const TOLERANCE = {
  sinusoidal: { abs: 1e-6 },
  sinusoidal2d: { abs: 1e-6 },
  sinusoidal3d: { abs: 1e-6 },
  rope: { rel: 1e-6 }, // angles grow with the position: relative to max(|angle|, 1)
  rope_precision: { abs: 1e-6 }, // angle errors in [0, π]; the exact p·ω from a two-product
  mrope: { exact: true },
  integer: { exact: true },
  binary: { exact: true },
  learned: { abs: 1e-7 },
  alibi: { rel: 1e-6 },
  t5: { exact: true },
  shaw: { exact: true },
  distance: { rel: 1e-6 },
  attention: { abs: 1e-5 }, // float32 dot products and exp in the kernel, float64 here
};

/** 1e-6 rather than 0.000001. */
export const sci = (v) => (v !== 0 && Math.abs(v) < 1e-3 ? v.toExponential().replace('e-', 'e-') : String(v));

// ---------------------------------------------------------------------------------------------
// Python literals

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

const lines = (...parts) => parts.flat(Infinity).filter((l) => l !== null && l !== undefined && l !== false).join('\n');

// ---------------------------------------------------------------------------------------------
// Kinds. Each generator gets the normalized spec and a flavour object:
//   T.np      true for NumPy, false for PyTorch
//   T.lib     'np' | 'torch'
//   T.f64     the float64 dtype name, T.arange(a), T.cast32(x) …

function flavour(lang) {
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

const gen = {};

// --- sinusoidal -----------------------------------------------------------------------------

gen.sinusoidal = (s, T) => {
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

// --- 2-D and 3-D sinusoids -----------------------------------------------------------------

gen.sinusoidal2d = (s, T) => {
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

gen.sinusoidal3d = (s, T) => lines('import math', T.import, '',
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

// --- rope ----------------------------------------------------------------------------------

function ropeScaling(s, T) {
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

gen.rope = (s, T) => {
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

// --- rope_precision (the precision lab) -----------------------------------------------------
//
// The contract's recipe (shared/spec-contract.md, rope_precision; c/precision.c): f, q, φ and the
// cos/sin tables each rounded once into their dtype, then the angle error against the exact p·ω.

/** The named recipes: inv_freq, position, phase and table dtypes (web/api/schema/precision.js). */
const RECIPES = {
  exact: ['float64', 'float64', 'float64', 'float64'],
  float32: ['float32', 'float32', 'float32', 'float32'],
  float32_pow: ['float32_pow', 'float32', 'float32', 'float32'],
  bf16_table: ['float32', 'float32', 'float32', 'bfloat16'],
  bf16_positions: ['float32', 'bfloat16', 'float32', 'float32'],
  bf16_inv_freq: ['bfloat16', 'float32', 'float32', 'float32'],
  bf16_phase: ['float32', 'float32', 'bfloat16', 'float32'],
  fp16: ['float16', 'float16', 'float16', 'float16'],
};

gen.rope_precision = (s, T) => {
  const np = T.np;
  const r = s.recipe;
  const d = typeof r === 'string' ? RECIPES[r]
    : [r.inv_freq_dtype, r.position_dtype, r.phase_dtype, r.table_dtype];
  const type = s.rope_scaling?.rope_type ?? 'default';
  const roundFn = np
    ? [
      '# round(x, dtype) of float64 values, once (ties to even), as float64',
      'def rnd(x, dtype):',
      "    if dtype == 'float64':",
      '        return x',
      "    if dtype in ('float32', 'float16'):",
      "        return x.astype(np.float32 if dtype == 'float32' else np.float16).astype(np.float64)",
      '    # bfloat16: to float32 rounding to odd (toward zero, last bit set when inexact), then to',
      '    # nearest even on the top 16 bits',
      '    f = x.astype(np.float32)',
      '    f = np.where(np.abs(f.astype(np.float64)) > np.abs(x), np.nextafter(f, np.float32(0)), f)',
      '    b = f.view(np.uint32) | (f.astype(np.float64) != x).astype(np.uint32)',
      '    b = (b + np.uint32(0x7FFF) + ((b >> 16) & np.uint32(1))) & np.uint32(0xFFFF0000)',
      '    return b.astype(np.uint32).view(np.float32).astype(np.float64)',
    ]
    : [
      "DT = {'float32': torch.float32, 'bfloat16': torch.bfloat16, 'float16': torch.float16}",
      '# round(x, dtype) of float64 values, once (ties to even), as float64',
      'def rnd(x, dtype):',
      "    if dtype == 'float64':",
      '        return x',
      "    if dtype == 'float32':",
      '        return x.float().double()',
      '    # torch casts float64 to bfloat16/float16 through float32: round to odd into float32',
      '    # first (toward zero, last bit set when inexact), so the cast rounds once',
      '    f = x.float()',
      '    f = torch.where(f.double().abs() > x.abs(), torch.nextafter(f, torch.zeros_like(f)), f)',
      '    b = f.view(torch.int32) | (f.double() != x).int()',
      '    return b.view(torch.float32).to(DT[dtype]).double()',
    ];
  return lines(
    'import math',
    T.import,
    '',
    `length, dim, base, offset = ${s.length}, ${s.dim}, ${pyFloat(s.base)}, ${s.offset}`,
    `partial_rotary_factor = ${pyFloat(s.partial_rotary_factor)}`,
    `d = int(dim * partial_rotary_factor)   # rotary_dim = ${rotaryDim(s)}`,
    `inv_freq_dtype, position_dtype, phase_dtype, table_dtype = ${d.map(py).join(', ')}${typeof r === 'string' ? `   # recipe "${r}"` : ''}`,
    '',
    `# ω_i in float64, as transformers' modeling_rope_utils (rope_type "${type}")`,
    ropeScaling(s, T),
    '',
    roundFn,
    '',
    `p = ${T.arange('offset', 'offset + length')}`,
    d[0] === 'float32_pow' ? [
      '# f as frameworks form it: 1.0 / (base ** (arange(0, d, 2) / d)) in float32, times the scaling ω/ω0',
      np ? [
        '# (the power correctly rounded, the same on every CPU: NumPy\'s float32 ** on AVX-512 CPUs is',
        '# 1 ulp off in about a fifth of the entries)',
        'e = np.arange(0, d, 2).astype(np.float32) / np.float32(d)',
        'power = np.array([math.pow(float(np.float32(base)), float(x)) for x in e]).astype(np.float32)',
        'fw = (np.float32(1.0) / power).astype(np.float64)',
      ]
        : 'fw = (1.0 / (base ** (torch.arange(0, d, 2, dtype=torch.int64).float() / d))).double()',
      `f = rnd(fw * (inv_freq * base ** (2.0 * ${T.arange('d // 2')} / d)), 'float32')`,
    ] : 'f = rnd(inv_freq, inv_freq_dtype)',
    'q = rnd(p, position_dtype)',
    '# the angle, rounded once (q·f is exact in float64 when q and f are float32 or narrower)',
    'phi = rnd(q[:, None] * f[None, :], phase_dtype)',
    np ? 'with np.errstate(invalid="ignore"):   # cos(inf) is NaN where float16 overflows' : null,
    `${np ? '    ' : ''}cos_t, sin_t = rnd(${T.fn('cos')}(phi), table_dtype), rnd(${T.fn('sin')}(phi), table_dtype)`,
    '',
    '# the exact angle p·ω_i modulo 2π: p·ω = theta + theta_lo exactly (Dekker two-product), then',
    '# reduced by 2π held as two float64 numbers',
    'theta = p[:, None] * inv_freq[None, :]',
    'def split(a):',
    '    t = 134217729.0 * a',
    '    hi = t - (t - a)',
    '    return hi, a - hi',
    'ph, pl = split(p[:, None])',
    'wh, wl = split(inv_freq[None, :])',
    'theta_lo = ((ph * wh - theta) + ph * wl + pl * wh) + pl * wl',
    'two_pi = 2 * math.pi',
    `reduced = ${T.fn('fmod')}(theta, two_pi)`,
    `reduced = reduced - ${T.fn('round')}((theta - reduced) / two_pi) * 2.4492935982947064e-16 + theta_lo`,
    `err = ${T.fn(np ? 'arctan2' : 'atan2')}(sin_t, cos_t) - reduced`,
    `err = ${T.fn('abs')}(${T.fn('remainder')}(err + math.pi, two_pi) - math.pi)`,
    `err = ${T.where}(${T.fn('isfinite')}(cos_t) & ${T.fn('isfinite')}(sin_t), ${T.fn(np ? 'minimum' : 'clamp')}(err, ${np ? 'math.pi' : 'max=math.pi'}), math.pi)   # π where the recipe overflows`,
    `pe = ${T.to32('err')}   # [length, rotary_dim/2] angle error (rad), in [0, π]`,
  );
};

// --- mrope ---------------------------------------------------------------------------------

gen.mrope = (s, T) => {
  const np = T.np;
  return lines(T.import, '',
    `segments = ${py(s.segments)}`,
    `spatial_merge_size = ${s.spatial_merge_size}`,
    `tokens_per_second = ${s.tokens_per_second === null ? 'None' : pyFloat(s.tokens_per_second)}   # None: Qwen2-VL; a number: Qwen2.5-VL`,
    `dim, base, mrope_section = ${s.dim}, ${pyFloat(s.base)}, ${py(s.mrope_section)}`,
    `convention = '${s.convention ?? '4.49'}'   # transformers version of get_rope_index: '4.49' (4.49-4.51), '4.52' (4.52+ 4.x) or '5.x'`,
    '',
    '# position ids (t, h, w) as transformers\' get_rope_index',
    'chunks, start = [], 0',
    'for seg in segments:',
    "    if seg['type'] == 'text':",
    `        a = ${np ? "np.arange(seg['length'])" : "torch.arange(seg['length'])"} + start`,
    `        chunk = ${np ? 'np.stack([a, a, a])' : 'torch.stack([a, a, a])'}`,
    '    else:',
    "        t, h, w = seg['t'], seg['h'] // spatial_merge_size, seg['w'] // spatial_merge_size",
    `        frame = ${np ? 'np.repeat(np.arange(t), h * w)' : 'torch.arange(t).repeat_interleave(h * w)'}`,
    '        if tokens_per_second is None:',
    '            t_idx = frame',
    '        else:  # Qwen2.5-VL: float32 seconds, truncated; images have no time (5.x: one step per frame)',
    "            second = seg.get('second_per_grid_t', 1.0) if seg['type'] == 'video' else 0.0",
    "            if convention != '4.49':",
    '                second = float(int(second))   # 4.52 and 5.x: whole seconds before multiplying',
    np ? '            t_idx = (frame.astype(np.float32) * np.float32(second) * np.float32(tokens_per_second)).astype(np.int64)'
      : '            t_idx = (frame.float() * torch.tensor(second, dtype=torch.float32) * tokens_per_second).long()',
    "            if seg['type'] == 'image' and convention == '5.x':",
    '                t_idx = frame',
    `        h_idx = ${np ? 'np.tile(np.repeat(np.arange(h), w), t)' : 'torch.arange(h).repeat_interleave(w).repeat(t)'}`,
    `        w_idx = ${np ? 'np.tile(np.arange(w), t * h)' : 'torch.arange(w).repeat(t * h)'}`,
    `        chunk = ${np ? 'np.stack([t_idx, h_idx, w_idx])' : 'torch.stack([t_idx, h_idx, w_idx])'} + start`,
    '    chunks.append(chunk)',
    "    # 4.x: the next id follows the largest; 5.x: a visual block moves it by max(h, w), whatever t",
    "    start = start + max(h, w) if convention == '5.x' and seg['type'] != 'text' else int(chunk.max()) + 1",
    `position_ids = ${T.cat('*chunks', 1).replace('[*chunks]', 'chunks')}   # [3, tokens]`,
    `pe = ${np ? 'position_ids.astype(np.float32)' : 'position_ids.float()'}`,
    '',
    '# angles [tokens, dim/2]: frequency i takes the t, h or w id by mrope_section',
    `inv_freq = base ** (-2.0 * ${T.arange('dim // 2')} / dim)`,
    `axis = ${np ? 'np.repeat(np.arange(3), mrope_section)' : 'torch.arange(3).repeat_interleave(torch.tensor(mrope_section))'}`,
    `angles = ${np ? '(position_ids[axis].T * inv_freq).astype(np.float32)' : '(position_ids[axis].T.double() * inv_freq).float()'}`);
};

// --- integer, binary, learned ----------------------------------------------------------------

gen.integer = (s, T) => lines(T.import, '',
  `length, dim, normalize = ${s.length}, ${s.dim}, ${py(s.normalize)}`,
  '',
  `p = ${T.arange('length')}`,
  'if normalize:',
  `    p = p / (length - 1) if length > 1 else p * 0.0`,
  `pe = ${T.np ? 'np.repeat(p[:, None], dim, axis=1).astype(np.float32)' : 'p[:, None].repeat(1, dim).float()'}   # [length, dim]`);

gen.binary = (s, T) => lines(T.import, '',
  `length, dim = ${s.length}, ${s.dim}`,
  '',
  `p = ${T.iarange('length')}[:, None]`,
  `k = ${T.iarange('dim')}[None, :]`,
  T.np ? 'pe = np.where(k < 32, (p >> np.minimum(k, 31)) & 1, 0).astype(np.float32)   # bit k of p'
    : 'pe = torch.where(k < 32, (p >> k.clamp(max=31)) & 1, 0).float()   # bit k of p',
  '# [length, dim]');

gen.learned = (s, T) => {
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

// --- biases --------------------------------------------------------------------------------

gen.alibi = (s, T) => lines('import math', T.import, '',
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

gen.t5 = (s, T) => {
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

gen.shaw = (s, T) => lines(T.import, '',
  `length, k = ${s.length}, ${s.max_relative_position}   # max_relative_position`,
  '',
  `rel = ${T.iarange('length')}[None, :] - ${T.iarange('length')}[:, None]   # key − query`,
  `pe = ${T.to32(`(${T.np ? 'np.clip(rel, -k, k)' : 'torch.clamp(rel, -k, k)'} + k)`)}   # [length, length] embedding index`);

gen.distance = (s, T) => {
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

// --- attention -------------------------------------------------------------------------------
//
// The definitions of web/api/schema/attention.js (and c/attention_inputs.c): q and k from the content (G is
// the learned generator's N(0, 1) deviate, rounded to float32), the encoding added, rotating or
// biasing, scores q·kᵀ/√dim, the causal mask, a softmax. The snippet embeds the encoding's own
// snippet (as a function) and computes the scores in float64 from the float32 q and k.

const ENCODING_CLASS = {
  sinusoidal: 'additive', sinusoidal2d: 'additive', sinusoidal3d: 'additive', integer: 'additive',
  binary: 'additive', learned: 'additive', rope: 'rotary', mrope: 'rotary', alibi: 'bias', t5: 'bias',
  shaw: 'bias', distance: 'bias',
};
// The fields an encoding takes from the attention spec (web/api/schema/attention.js `inherit`).
const INHERITS = {
  length: ['sinusoidal', 'rope', 'integer', 'binary', 'learned', 'alibi', 't5', 'shaw', 'distance'],
  dim: ['sinusoidal', 'sinusoidal2d', 'sinusoidal3d', 'rope', 'mrope', 'integer', 'binary', 'learned'],
  heads: ['alibi'],
};
const WHITESPACE = '[\\t\\n\\x0b\\x0c\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]+';

const indent = (code, by = '    ') => code.split('\n').map((l) => (l ? by + l : l)).join('\n');

function encodingFunction(enc, T) {
  // The encoding's own snippet without its header, imports and final comment, as a function.
  const body = gen[enc.kind](enc, T).split('\n').filter((l) => !/^import /.test(l)).join('\n').trim();
  return body;
}

gen.attention = (s, T) => {
  const np = T.np;
  const e = s.encoding;
  const cls = e ? ENCODING_CLASS[e.kind] : null;
  const enc = e ? { ...e } : null;
  if (enc) for (const [field, kinds] of Object.entries(INHERITS)) if (kinds.includes(enc.kind)) enc[field] = s[field];
  const out = [];
  out.push('import math', s.content === 'tokens' ? 'import re' : null, T.import, '');
  out.push(`length, dim, heads, causal, seed = ${s.length}, ${s.dim}, ${s.heads}, ${py(s.causal)}, ${s.seed}`);
  out.push(`content = ${py(s.content)}   # random | tokens | none`);
  if (s.content === 'tokens') out.push(`tokens = ${py(s.tokens)}`);
  out.push('');
  // G and the streams.
  if (np) {
    out.push(
      '# G(s, p, c): the learned generator\'s N(0, 1) deviate of entry (p, c) for the 64-bit seed s',
      '# (SplitMix64 + Box–Muller, c/absolute.c); S(t) = seed + t·2^32 is the seed of stream t.',
      'def G(s, p, c):',
      "    with np.errstate(over='ignore'):",
      '        def splitmix64(t):',
      '            z = np.uint64(s) + (t + np.uint64(1)) * np.uint64(0x9E3779B97F4A7C15)',
      '            z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)',
      '            z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)',
      '            return z ^ (z >> np.uint64(31))',
      '        p, c = np.asarray(p, dtype=np.uint64), np.asarray(c, dtype=np.uint64)',
      '        q = p * np.uint64(8192) + c // np.uint64(2)',
      '        u1 = ((splitmix64(np.uint64(2) * q) >> np.uint64(11)) + np.uint64(1)).astype(np.float64) * 2.0**-53',
      '        u2 = (splitmix64(np.uint64(2) * q + np.uint64(1)) >> np.uint64(11)).astype(np.float64) * 2.0**-53',
      '        rho, theta = np.sqrt(-2.0 * np.log(u1)), 6.283185307179586 * u2',
      '        return np.where(c % np.uint64(2) == 0, rho * np.cos(theta), rho * np.sin(theta))',
    );
  } else {
    out.push(
      '# G(s, p, c): the learned generator\'s N(0, 1) deviate of entry (p, c) for the 64-bit seed s',
      '# (SplitMix64 + Box–Muller, c/absolute.c, on int64 tensors that wrap like uint64);',
      '# S(t) = seed + t·2^32 is the seed of stream t.',
      'def i64(x):',
      '    x %= 1 << 64',
      '    return x - (1 << 64) if x >= 1 << 63 else x',
      'def srl(z, k):',
      '    return (z >> k) & ((1 << (64 - k)) - 1)',
      'def G(s, p, c):',
      '    def splitmix64(t):',
      '        z = t * i64(0x9E3779B97F4A7C15) + i64(s + 0x9E3779B97F4A7C15)',
      '        z = (z ^ srl(z, 30)) * i64(0xBF58476D1CE4E5B9)',
      '        z = (z ^ srl(z, 27)) * i64(0x94D049BB133111EB)',
      '        return z ^ srl(z, 31)',
      '    p, c = torch.as_tensor(p, dtype=torch.int64), torch.as_tensor(c, dtype=torch.int64)',
      '    q = p * 8192 + c // 2',
      '    u1 = (srl(splitmix64(2 * q), 11) + 1).double() * 2.0**-53',
      '    u2 = srl(splitmix64(2 * q + 1), 11).double() * 2.0**-53',
      '    rho, theta = torch.sqrt(-2.0 * torch.log(u1)), 6.283185307179586 * u2',
      '    return torch.where(c % 2 == 0, rho * torch.cos(theta), rho * torch.sin(theta))',
    );
  }
  out.push('def S(t):', '    return (seed + (t << 32)) % (1 << 64)', '');
  const asF32 = (x) => (np ? `${x}.astype(np.float32)` : `${x}.float()`);
  const f64 = (x) => (np ? `${x}.astype(np.float64)` : `${x}.double()`);
  // The encoding.
  let table = '0.0';
  if (!enc) {
    out.push('# no positional encoding');
  } else {
    out.push(`# the positional encoding: ${enc.kind} (${cls === 'additive' ? 'added to the embeddings' : cls === 'rotary' ? 'rotates q and k' : 'biases the scores'})`);
    const ret = enc.kind === 'rope' ? 'return angles, attention_factor' : enc.kind === 'mrope' ? 'return angles' : 'return pe';
    out.push('def encoding():', indent(encodingFunction(enc, T)), `    ${ret}`);
    if (cls === 'additive') {
      out.push('T = encoding()   # [length, dim] float32');
      table = 'T';
    } else if (enc.kind === 'rope') {
      out.push('angles, attention_factor = encoding()',
        '# the exact cos/sin of the float64 angles, rounded to float32, then times attention_factor',
        `cos = ${asF32(`(${f64(asF32(`${T.fn('cos')}(angles)`))} * attention_factor)`)}`,
        `sin = ${asF32(`(${f64(asF32(`${T.fn('sin')}(angles)`))} * attention_factor)`)}`,
        'rotary_dim, pairing = 2 * cos.shape[1], ' + py(enc.layout));
    } else if (enc.kind === 'mrope') {
      out.push('angles = encoding()   # float32 [length, dim/2]',
        `cos = ${asF32(`${T.fn('cos')}(${f64('angles')})`)}`,
        `sin = ${asF32(`${T.fn('sin')}(${f64('angles')})`)}`,
        "rotary_dim, pairing = 2 * cos.shape[1], 'half'   # Qwen2-VL rotates with rotate_half");
    } else if (enc.kind === 't5' || enc.kind === 'shaw') {
      out.push(`index = ${np ? 'encoding().astype(np.int64)' : 'encoding().long()'}   # [length, length] ${enc.kind === 't5' ? 'bucket' : 'embedding index'} of j − i`,
        '# one learned bias per head and index: float32(G(S(3), h, index))',
        `learned = ${asF32(`G(S(3), ${T.iarange('heads')}[:, None], ${T.iarange('int(index.max()) + 1')}[None, :])`)}`,
        'bias = learned[:, index]   # [heads, length, length]');
    } else if (enc.kind === 'alibi') {
      out.push('bias = encoding()   # [heads, length, length] float32');
    } else {
      out.push('bias = encoding()[None]   # [1, length, length] float32, every head');
    }
  }
  out.push('');
  // Content.
  out.push('# q and k [heads, length, dim], float32');
  if (s.content === 'random') {
    out.push(`p = ${T.iarange('heads')}[:, None, None] * 2**20 + ${T.iarange('length')}[None, :, None]`,
      `c = ${T.iarange('dim')}[None, None, :]`,
      `q = ${asF32('G(S(1), p, c)')} + ${table}`,
      `k = ${asF32('G(S(2), p, c)')} + ${table}`);
  } else if (s.content === 'tokens') {
    out.push(`words = [w for w in re.split(${py(WHITESPACE).replace(/\\\\/g, '\\')}, tokens) if w]   # as JavaScript's \\s`,
      'def fnv1a64(data):',
      '    h = 0xCBF29CE484222325',
      '    for byte in data:',
      '        h = ((h ^ byte) * 0x100000001B3) % (1 << 64)',
      '    return h',
      `x = ${T.np ? 'np.stack' : 'torch.stack'}([${asF32(`G((fnv1a64(w.encode('utf-8')) + seed) % (1 << 64), 0, ${T.iarange('dim')})`)} for w in words]) + ${table}`,
      `r = ${T.iarange('heads')}[:, None, None] * 2**20 + ${T.iarange('dim')}[None, :, None]`,
      `c = ${T.iarange('dim')}[None, None, :]`,
      `W_q = ${asF32('(G(S(4), r, c) * (1.0 / math.sqrt(dim)))')}   # [heads, dim (out), dim (in)]`,
      `W_k = ${asF32('(G(S(5), r, c) * (1.0 / math.sqrt(dim)))')}`,
      `q = ${asF32(`(${f64('x')}[None] @ ${f64('W_q')}.${np ? 'transpose(0, 2, 1)' : 'transpose(1, 2)'})`)}`,
      `k = ${asF32(`(${f64('x')}[None] @ ${f64('W_k')}.${np ? 'transpose(0, 2, 1)' : 'transpose(1, 2)'})`)}`);
  } else {
    const fill = cls === 'additive' ? (np ? 'np.broadcast_to(T, (heads, length, dim))' : 'T.expand(heads, length, dim)')
      : cls === 'rotary' ? (np ? 'np.ones((heads, length, dim), dtype=np.float32)' : 'torch.ones(heads, length, dim)')
        : (np ? 'np.zeros((heads, length, dim), dtype=np.float32)' : 'torch.zeros(heads, length, dim)');
    out.push(`q = k = ${fill}   # positions alone`);
  }
  out.push(`q, k = ${np ? 'np.broadcast_to(q, (heads, length, dim)).astype(np.float64), np.broadcast_to(k, (heads, length, dim)).astype(np.float64)' : 'q.expand(heads, length, dim).double(), k.expand(heads, length, dim).double()'}`);
  if (cls === 'rotary') {
    out.push('',
      '# rotate the first rotary_dim channels of q and k (the rest pass through)',
      'def rotate(x):',
      '    n = rotary_dim // 2',
      `    c, s = ${f64('cos')}[None], ${f64('sin')}[None]`,
      `    x = x${np ? '.copy()' : '.clone()'}`,
      "    if pairing == 'half':",
      '        x1, x2 = x[..., :n] * 1.0, x[..., n:rotary_dim] * 1.0',
      '        x[..., :n], x[..., n:rotary_dim] = x1 * c - x2 * s, x2 * c + x1 * s',
      '    else:',
      '        x1, x2 = x[..., 0:rotary_dim:2] * 1.0, x[..., 1:rotary_dim:2] * 1.0',
      '        x[..., 0:rotary_dim:2], x[..., 1:rotary_dim:2] = x1 * c - x2 * s, x2 * c + x1 * s',
      '    return x',
      'q, k = rotate(q), rotate(k)');
  }
  out.push('',
    '# scores, mask, softmax',
    `scale = float(${np ? 'np.float32(1.0 / math.sqrt(dim))' : 'torch.tensor(1.0 / math.sqrt(dim), dtype=torch.float32)'})`,
    `scores = (q @ k.${np ? 'transpose(0, 2, 1)' : 'transpose(1, 2)'}) * scale`);
  if (cls === 'bias') out.push(`scores = scores + ${f64('bias')}`);
  out.push(`i, j = ${T.iarange('length')}[:, None], ${T.iarange('length')}[None, :]`,
    'if causal:',
    `    scores = ${T.where}(j > i, -${T.inf}, scores)`,
    `scores = scores - scores.max(${np ? 'axis=-1, keepdims=True' : 'dim=-1, keepdim=True'})${np ? '' : '.values'}`,
    `weights = ${T.fn('exp')}(scores)`,
    `weights = weights / weights.sum(${np ? 'axis=-1, keepdims=True' : 'dim=-1, keepdim=True'})`,
    `pe = ${asF32('weights')}   # [heads, length, length], rows sum to 1`);
  return lines(out);
};

// ---------------------------------------------------------------------------------------------

/** Whether a kind has a code export. */
export function hasCode(kind) {
  return Object.prototype.hasOwnProperty.call(gen, kind);
}

/**
 * A snippet that recreates pe.compute(spec).data in NumPy ('numpy') or PyTorch ('torch'), as the
 * variable `pe` (float32, same shape). `spec` is a normalized spec; `shape` (optional) goes in
 * the first comment. Returns { code, tolerance, exact } or, for a kind without a code export,
 * { code: null, reason }.
 */
export function codeFor(spec, lang = 'numpy', { link = null, shape = null } = {}) {
  const s = spec;
  if (!LANGUAGES.includes(lang)) throw new Error(`codeFor: language must be numpy or torch, got ${lang}`);
  if (!hasCode(s.kind)) {
    return { code: null, reason: `${s.kind}: no code export yet` };
  }
  const tol = TOLERANCE[s.kind];
  const how = tol.exact ? 'exactly' : tol.abs ? `to ${sci(tol.abs)} (max abs difference)` : `to ${sci(tol.rel)} relative`;
  const header = [
    `# PE Lab: ${s.kind}, float32${shape ? ` [${shape.join(', ')}]` : ''}; equals pe.compute(spec).data ${how}`,
    link ? `# ${link}` : null,
  ];
  const code = `${lines(header, gen[s.kind](s, flavour(lang)))}\n`;
  return { code, tolerance: tol, exact: !!tol.exact };
}
