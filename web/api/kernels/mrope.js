// How the `mrope` kind calls its C kernel (c/mrope.c).
import { segmentTokens, MROPE_CONVENTIONS } from '../schema/mrope.js';

export const SEGMENT = { text: 0, image: 1, video: 2 };

export default {
  mrope: {
    args: ['ids', 'angles', 'segments', 'segments', 'segments', 'segments', 'dim', 'base',
      'mrope_section', 'spatial_merge_size', 'tokens_per_second', 'convention'],
    compute(k, s) {
      const count = s.segments.length;
      const table = new Int32Array(4 * count);       // (count, 4): [type, a, b, c]
      const seconds = new Float64Array(count);
      s.segments.forEach((seg, i) => {
        table.set(seg.type === 'text' ? [0, seg.length, 0, 0] : [SEGMENT[seg.type], seg.t, seg.h, seg.w], 4 * i);
        seconds[i] = seg.second_per_grid_t ?? 1;
      });
      const n = s.segments.reduce((total, seg) => total + segmentTokens(seg, s.spatial_merge_size), 0);
      const { data, angles } = k.run(
        {
          inputs: { segments: table, seconds, section: new Int32Array(s.mrope_section) },
          outputs: { data: 3 * n, angles: n * (s.dim / 2) },
        },
        (p) => k.wasm.pe_mrope_versioned(p.data, p.angles, p.segments, p.seconds, count, n, s.dim, s.base,
          p.section, s.spatial_merge_size, s.tokens_per_second ?? 0, MROPE_CONVENTIONS.indexOf(s.convention ?? '4.49')),
      );
      return { data, angles };
    },
  },
};
