// Code export of the absolute family: `integer`, `binary` and `learned` (the registry is
// web/share/codegen.js).
import { lines, py, pyFloat } from './python.js';

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

export default {
  integer: { tolerance: { exact: true }, code: integer },
  binary: { tolerance: { exact: true }, code: binary },
  learned: { tolerance: { abs: 1e-7 }, code: learned },
};
