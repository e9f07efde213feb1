// Code export of the `rope_precision` kind, the precision lab (the registry is
// web/share/codegen.js): the recipe of docs/reference.md#rope_precision (c/precision.c): f, q, φ
// and the cos/sin tables each rounded once into their dtype, then the angle error against the
// exact p·ω.
import { rotaryDim } from '../../api/schema/rope.js';
import { RECIPE_FIELDS, recipeDtypes } from '../../api/schema/precision.js';
import { lines, py, pyFloat } from './python.js';
import { ropeScaling } from './rope.js';

const ropePrecision = (s, T) => {
  const np = T.np;
  const r = s.recipe;
  const dtypes = recipeDtypes(r);   // a named recipe's four dtypes, or the object's
  const d = RECIPE_FIELDS.map((field) => dtypes[field]);
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

export default {
  // angle errors in [0, π]; the exact p·ω from a two-product
  rope_precision: { tolerance: { abs: 1e-6 }, code: ropePrecision },
};
