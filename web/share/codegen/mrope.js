// Code export of the `mrope` kind, Qwen2-VL's multimodal RoPE (the registry is
// web/share/codegen.js): transformers' get_rope_index under the spec's version, then the angles.
import { lines, py, pyFloat } from './python.js';

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

export default {
  mrope: { tolerance: { exact: true }, code: mrope },
};
