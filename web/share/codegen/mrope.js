// Code export of the `mrope` kind, Qwen2-VL's multimodal RoPE (the registry is
// web/share/codegen.js): transformers' get_rope_index under the spec's version, then the angles.
import { indent, lines, py, pyFloat } from './python.js';
import { IMPORTS, TORCH } from './module.js';

const mrope = (s, T) => {
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

// The module form: Qwen2-VL's rotary embedding. The position ids come per prompt from
// get_rope_index (the tensor snippet's own lines, as a function); the module holds inv_freq and
// which of t, h, w each frequency follows (mrope_section), and forward(q, k, position_ids) rotates
// q and k with rotate_half.
const mropeModule = (s, codeOf) => {
  const code = codeOf('mrope')(s, TORCH).split('\n');
  const from = code.findIndex((l) => l.startsWith('segments = '));
  const to = code.findIndex((l) => l.startsWith('position_ids = '));
  const body = code.slice(from, to + 1).filter((l) => !l.startsWith('dim, base, mrope_section = '));
  return lines(IMPORTS, '', '',
    'def get_rope_index():',
    '    """The (t, h, w) position ids of the prompt\'s tokens, as transformers\' get_rope_index: [3, tokens]."""',
    indent(lines(body)),
    '    return position_ids',
    '', '',
    'def rotate_half(x):   # Qwen2-VL pairs channel i with i + d/2',
    '    x1, x2 = x.chunk(2, dim=-1)',
    '    return torch.cat((-x2, x1), dim=-1)',
    '', '',
    'class MultimodalRotaryEmbedding(nn.Module):',
    '    """M-RoPE (Qwen2-VL): frequency i turns with the t, h or w id of the token, by mrope_section."""',
    '',
    `    def __init__(self, head_dim, base=${pyFloat(s.base)}, mrope_section=${py(s.mrope_section)}):`,
    '        super().__init__()',
    "        self.register_buffer('inv_freq', base ** (-2.0 * torch.arange(head_dim // 2, dtype=torch.float64) / head_dim), persistent=False)",
    "        self.register_buffer('axis', torch.arange(3).repeat_interleave(torch.tensor(mrope_section)), persistent=False)   # 0 t, 1 h, 2 w",
    '',
    '    def forward(self, q, k, position_ids):   # q, k: (N, heads, S, head_dim); position_ids: [3, S]',
    '        angles = position_ids[self.axis].T.double() * self.inv_freq   # [S, head_dim/2], float64',
    '        cos, sin = torch.cos(angles).float().repeat(1, 2), torch.sin(angles).float().repeat(1, 2)',
    '        return q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin',
    '', '',
    "if __name__ == '__main__':",
    '    position_ids = get_rope_index()   # per prompt, from its text and image/video blocks',
    `    N, heads, head_dim, S = 2, 4, ${s.dim}, position_ids.shape[1]`,
    '    q, k = torch.randn(N, heads, S, head_dim), torch.randn(N, heads, S, head_dim)',
    '    rope = MultimodalRotaryEmbedding(head_dim)',
    '    q, k = rope(q, k, position_ids)',
    '    scores = q @ k.transpose(-2, -1) / math.sqrt(head_dim)',
    "    pe = position_ids.float()   # PE Lab's table: the (t, h, w) ids [3, tokens]");
};

export default {
  mrope: { tolerance: { exact: true }, code: mrope, module: mropeModule },
};
