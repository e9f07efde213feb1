// Copy-as-code for "Apply to a model": a NumPy or PyTorch program that runs a recipe over a
// model's whole context, the way PE Lab defines it (c/precision.c: f, q, φ and the cos/sin table
// each rounded into its format, the error against the exact p·ω), and prints the numbers the
// verdict rests on as one JSON line: the worst angle error and where, the collisions of
// neighbouring rows, and the pairs whose error near the end of the context reaches half their
// step. DOM-free (tests/precision-code.test.js runs what it writes with /usr/bin/python3).
//
// ω_i (the model's frequencies after its rope_scaling, float64) are written out as numbers, so
// the program needs no copy of each scaling rule. NumPy rounds every step once (bfloat16 by
// round-to-odd into float32, then to nearest even); PyTorch uses a model's casts, where float64 →
// bfloat16/float16 goes through float32 and can round twice at an exact midpoint (rarely).
import { RECIPE_FIELDS } from '../../api/schema/precision.js';

/** Rows per chunk of the program's loop (memory stays at a few hundred MB at dim 256). */
export const CODE_CHUNK = 65536;

const pyNum = (v) => {
  if (Number.isInteger(v)) return `${v}.0`;
  return String(v);
};
const pyStr = (s) => `'${String(s).replace(/[\\']/g, '\\$&')}'`;

/** Float64 values as a Python list, a few per line. */
function pyList(values, indent) {
  const items = Array.from(values, (v) => (Number.isFinite(v) ? String(v) : 'float("nan")'));
  const out = [];
  for (let i = 0; i < items.length; i += 4) out.push(`${indent}${items.slice(i, i + 4).join(', ')},`);
  return out.join('\n');
}

/**
 * The program. opts: { lib: 'numpy' | 'torch', title, omega (Float64Array), dim (rotary dim),
 * base, dtypes ({ inv_freq_dtype, … }), recipe (name or null), context, window }.
 */
export function modelCode({ lib, title, omega, dim, base, dtypes, recipe, context, window }) {
  const np = lib === 'numpy';
  const d = RECIPE_FIELDS.map((f) => dtypes[f]);
  const L = [];
  const add = (...lines) => L.push(...lines);
  add(`# ${title}`,
    `# Recipe${recipe ? ` "${recipe}"` : ''}: inv_freq ${d[0]}, positions ${d[1]}, angles ${d[2]}, cos/sin ${d[3]}.`,
    '# Runs it over every position of the context and prints, as JSON, the worst angle error (rad),',
    '# the rows whose cos/sin equal the row before (collisions), and the pairs whose error over the',
    `# last ${window} positions reaches half the angle they turn per position (ω_i / 2).`,
    'import json',
    'import math',
    np ? 'import numpy as np' : 'import torch',
    '',
    `context, window = ${context}, ${window}`,
    `dim, base = ${dim}, ${pyNum(base)}   # rotary dim, rope_theta`,
    `inv_freq_dtype, position_dtype, phase_dtype, table_dtype = ${d.map(pyStr).join(', ')}`,
    '# ω_i: the model\'s inverse frequencies after its rope_scaling, exact in float64 (from PE Lab)',
    `omega = ${np ? 'np.array' : 'torch.tensor'}([`,
    pyList(omega, '    '),
    `], dtype=${np ? 'np.float64' : 'torch.float64'})`,
    '');
  if (np) {
    add('# round(x, dtype): float64 values rounded once into dtype (ties to even), back as float64',
      'def rnd(x, dtype):',
      "    if dtype == 'float64':",
      '        return x',
      "    with np.errstate(over='ignore', invalid='ignore'):",
      "        if dtype == 'float32':",
      '            return x.astype(np.float32).astype(np.float64)',
      "        if dtype == 'float16':",
      '            return x.astype(np.float16).astype(np.float64)',
      '        # bfloat16: into float32 rounding to odd (toward zero, last bit set when inexact),',
      '        # then to nearest even on the top 16 bits: one rounding in all',
      '        f = x.astype(np.float32)',
      '        f = np.where(np.abs(f.astype(np.float64)) > np.abs(x), np.nextafter(f, np.float32(0)), f)',
      '        b = f.view(np.uint32) | (f.astype(np.float64) != x).astype(np.uint32)',
      '        b = (b + np.uint32(0x7FFF) + ((b >> np.uint32(16)) & np.uint32(1))) & np.uint32(0xFFFF0000)',
      '        return b.astype(np.uint32).view(np.float32).astype(np.float64)',
      '');
  } else {
    add("DT = {'float64': torch.float64, 'float32': torch.float32, 'bfloat16': torch.bfloat16, 'float16': torch.float16}",
      '# a model\'s cast into dtype, back as float64 (float64 → bfloat16/float16 goes through float32)',
      'def rnd(x, dtype):',
      '    return x.to(DT[dtype]).double()',
      '');
  }
  add('# 1. inv_freq in its format');
  if (d[0] === 'float32_pow') {
    if (np) {
      add('# as frameworks form it: 1.0 / (base ** (arange(0, dim, 2) / dim)) with a float32 pow and divide,',
        '# times the model\'s scaling ω_i / ω0_i (1 without rope_scaling), rounded to float32',
        'e = np.arange(0, dim, 2).astype(np.float32) / np.float32(dim)',
        '# the float32 power correctly rounded, the same on every CPU: NumPy\'s own float32 ** on',
        '# AVX-512 CPUs (SVML) is 1 ulp off in about a fifth of the entries',
        'power = np.array([math.pow(float(np.float32(base)), float(x)) for x in e]).astype(np.float32)',
        'fw = (np.float32(1.0) / power).astype(np.float64)',
        "f = rnd(fw * (omega * base ** (np.arange(0, dim, 2) / dim)), 'float32')");
    } else {
      add('# as transformers forms it: a float32 pow, then a divide (_compute_default_rope_parameters),',
        '# times the model\'s scaling ω_i / ω0_i (1 without rope_scaling), rounded to float32',
        'i2 = torch.arange(0, dim, 2, dtype=torch.int64)',
        'fw = 1.0 / (base ** (i2.float() / dim))',
        "f = rnd(fw.double() * (omega * base ** (i2.double() / dim)), 'float32')");
    }
  } else {
    add(np ? 'f = rnd(omega, inv_freq_dtype)' : 'f = omega if inv_freq_dtype == \'float64\' else rnd(omega.float(), inv_freq_dtype)');
  }
  const T = np
    ? { arange: (a, b) => `np.arange(${a}, ${b}, dtype=np.float64)`, cos: 'np.cos', sin: 'np.sin', atan2: 'np.arctan2', isnan: 'np.isnan', isfinite: 'np.isfinite', where: 'np.where', abs: 'np.abs', rem: 'np.remainder', amax: (x) => `${x}.max(axis=0)`, all: (x) => `${x}.all(axis=1)` }
    : { arange: (a, b) => `torch.arange(${a}, ${b}, dtype=torch.float64)`, cos: 'torch.cos', sin: 'torch.sin', atan2: 'torch.atan2', isnan: 'torch.isnan', isfinite: 'torch.isfinite', where: 'torch.where', abs: 'torch.abs', rem: 'torch.remainder', amax: (x) => `${x}.amax(dim=0)`, all: (x) => `${x}.all(dim=1)` };
  add('',
    'worst, worst_at, collisions, first_collision = 0.0, -1, 0, -1',
    `tail = ${np ? 'np.zeros(len(omega))' : 'torch.zeros(len(omega), dtype=torch.float64)'}   # max error per pair over the last window`,
    'prev = None',
    `for start in range(0, context, ${CODE_CHUNK}):`,
    `    p = ${T.arange('start', `min(start + ${CODE_CHUNK}, context)`)}`,
    '    q = rnd(p, position_dtype)                                  # 2. positions',
    '    phi = rnd(q[:, None] * f[None, :], phase_dtype)             # 3. the angle (q·f exact in float64), rounded once',
    np ? "    with np.errstate(invalid='ignore'):   # cos(±inf) is NaN where float16 overflows" : null,
    `    ${np ? '    ' : ''}c, s = rnd(${T.cos}(phi), table_dtype), rnd(${T.sin}(phi), table_dtype)   # 4. the cos/sin table`,
    '    # the angle error against the exact p·ω_i, in [0, π] (π where the table is not finite)',
    `    err = ${T.abs}(${T.rem}(${T.atan2}(s, c) - p[:, None] * omega[None, :] + math.pi, 2 * math.pi) - math.pi)`,
    `    err = ${T.where}(${T.isfinite}(c) & ${T.isfinite}(s), err, math.pi)`,
    '    row = err.max(1)' + (np ? '' : '.values'),
    `    r = int(row.argmax())`,
    '    if float(row[r]) > worst:',
    '        worst, worst_at = float(row[r]), start + r',
    '    # collisions: rows equal to the row before (NaN equal to NaN)',
    '    if prev is not None:',
    `        c = ${np ? 'np.concatenate' : 'torch.cat'}([prev[0], c])`,
    `        s = ${np ? 'np.concatenate' : 'torch.cat'}([prev[1], s])`,
    `    same = lambda a, b: (a == b) | (${T.isnan}(a) & ${T.isnan}(b))`,
    `    eq = ${T.all('(same(c[1:], c[:-1]) & same(s[1:], s[:-1]))')}`,
    `    hits = ${np ? 'np.flatnonzero(eq)' : 'torch.nonzero(eq).flatten()'}`,
    '    if len(hits):',
    '        collisions += len(hits)',
    '        if first_collision < 0:',
    '            first_collision = int(p[0]) - (prev is not None) + int(hits[0]) + 1',
    '    prev = (c[-1:], s[-1:])',
    '    last = p >= context - window',
    '    if bool(last.any()):',
    `        tail = ${np ? 'np.maximum' : 'torch.maximum'}(tail, ${T.amax('err[last]')}${np ? '' : ''})`,
    '',
    'lost = [i for i in range(len(omega)) if float(tail[i]) >= float(omega[i]) / 2]',
    "print(json.dumps({'worst': worst, 'worst_at': worst_at, 'collisions': collisions,",
    "                  'first_collision': first_collision, 'lost_pairs': lost}))");
  return L.filter((l) => l !== null).join('\n') + '\n';
}
