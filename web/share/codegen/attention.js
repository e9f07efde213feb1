// Code export of the `attention` kind (the registry is web/share/codegen.js), from the
// definitions of web/api/schema/attention.js (and c/attention_inputs.c): q and k from the content
// (G is the learned generator's N(0, 1) deviate, rounded to float32), the encoding added, rotating
// or biasing, scores q·kᵀ/√dim, the causal mask, a softmax. The snippet embeds the encoding's own
// snippet (as a function, from that kind's generator) and computes the scores in float64 from the
// float32 q and k.
import { SCHEMA } from '../../api/schema/index.js';
import { ENCODING_CLASS, WHITESPACE } from '../../api/schema/attention.js';
import { indent, lines, py } from './python.js';

/** The encoding's own snippet without its imports, to become the body of a function. */
function encodingFunction(enc, T, codeOf) {
  return codeOf(enc.kind)(enc, T).split('\n').filter((l) => !/^import /.test(l)).join('\n').trim();
}

/** codeOf(kind) is that kind's generator (the registry's). */
const attention = (s, T, codeOf) => {
  const np = T.np;
  const e = s.encoding;
  const cls = e ? ENCODING_CLASS[e.kind] : null;
  // length, dim (and alibi's heads) come from the attention spec, as the schema's `inherit` says.
  const enc = e ? { ...e, ...SCHEMA.attention.fields.encoding.inherit(e.kind, s, SCHEMA[e.kind]) } : null;
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
    out.push('def encoding():', indent(encodingFunction(enc, T, codeOf)), `    ${ret}`);
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
    out.push(`words = [w for w in re.split(${py(WHITESPACE.source).replace(/\\\\/g, '\\')}, tokens) if w]   # as JavaScript's \\s`,
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

export default {
  attention: { tolerance: { abs: 1e-5 }, code: attention }, // float32 dot products and exp in the kernel, float64 here
};
