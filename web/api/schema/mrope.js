// Schema of the `mrope` kind: Qwen2-VL's multimodal RoPE (field descriptors: web/api/schema/index.js).
import { PE_MAX_DIM, PE_MAX_LENGTH } from './limits.js';

export const PE_MROPE_MAX_SEGMENTS = 256;
export const PE_MROPE_MAX_GRID = 4096;

/**
 * How transformers versions compute get_rope_index (docs/transformers-versions.md): '4.49' is
 * 4.49–4.51 (the default), '4.52' is 4.52 and later 4.x (second_per_grid_t truncated
 * to an integer before multiplying), '5.x' is the 5.x rewrite (time ids as 4.52; text after an
 * image or video resumes at start + max(h, w)/merge, whatever t). The index is c/mrope.h's
 * pe_mrope_convention.
 */
export const MROPE_CONVENTIONS = ['4.49', '4.52', '5.x'];

const gridSide = (axis, en, ko) => ({
  type: 'int', min: 1, max: PE_MROPE_MAX_GRID, default: 4,
  label: { en, ko },
  help: { en: `Vision grid ${axis} before merging.`, ko: `병합 전 비전 격자의 ${ko}.` },
});

const segment = {
  type: 'object',
  discriminator: 'type',
  fields: {
    type: {
      type: 'enum', values: ['text', 'image', 'video'], default: 'text',
      label: { en: 'Segment', ko: '구간' },
      help: { en: 'Text tokens, an image, or a video.', ko: '텍스트 토큰, 이미지, 또는 비디오.' },
    },
    length: {
      type: 'int', min: 1, max: PE_MAX_LENGTH, default: 8,
      label: { en: 'Text tokens', ko: '텍스트 토큰 수' },
      help: { en: 'Number of text tokens in this run.', ko: '이 구간의 텍스트 토큰 수.' },
    },
    t: gridSide('frames (t)', 'Frames (t)', '프레임 (t)'),
    h: gridSide('height (h)', 'Height (h)', '세로 (h)'),
    w: gridSide('width (w)', 'Width (w)', '가로 (w)'),
    second_per_grid_t: {
      type: 'number', min: 0, exclusiveMin: true, max: 1000, default: 1,
      label: { en: 'Seconds per grid step', ko: '격자 한 칸의 초' },
      help: { en: 'Video time covered by one temporal grid step (Qwen2.5-VL).', ko: '시간 격자 한 칸이 덮는 비디오 시간 (Qwen2.5-VL).' },
    },
  },
  variants: {
    text: { required: ['length'] },
    image: { required: ['t', 'h', 'w'] },
    video: { required: ['t', 'h', 'w'], optional: ['second_per_grid_t'] },
  },
};

/** Tokens of a normalized segment after spatial merging. */
export function segmentTokens(seg, merge) {
  return seg.type === 'text' ? seg.length : seg.t * Math.floor(seg.h / merge) * Math.floor(seg.w / merge);
}

export default {
  mrope: {
    group: 'vision',
    label: { en: 'M-RoPE (Qwen2-VL)', ko: 'M-RoPE (Qwen2-VL)' },
    help: {
      en: 'Multimodal RoPE gives every token three position ids — time, height, width — so text, images and video share one rotary space.',
      ko: '멀티모달 RoPE는 토큰마다 시간·세로·가로 세 위치 id를 주어 텍스트, 이미지, 비디오가 하나의 회전 공간을 공유하게 합니다.',
    },
    fields: {
      dim: {
        type: 'int', default: 128, min: 2, max: PE_MAX_DIM, rule: 'even',
        label: { en: 'Head dimension', ko: '헤드 차원' },
        help: { en: 'Rotary dimension per head; dim/2 frequencies.', ko: '헤드당 회전 차원. 주파수는 dim/2개.' },
      },
      base: {
        type: 'number', default: 1000000, min: 1, exclusiveMin: true, max: 1e12,
        label: { en: 'Base (rope_theta)', ko: '밑 (rope_theta)' },
        help: { en: 'inv_freq_i = base^(−2i/dim).', ko: 'inv_freq_i = base^(−2i/dim).' },
      },
      mrope_section: {
        type: 'list', minItems: 3, maxItems: 3, default: [16, 24, 24],
        item: { type: 'int', min: 0, max: PE_MAX_DIM / 2 },
        label: { en: 'mrope_section (t, h, w)', ko: 'mrope_section (t, h, w)' },
        help: { en: 'How many frequencies use the time, height and width ids; they sum to dim/2.', ko: '시간·세로·가로 id를 쓰는 주파수 수. 합은 dim/2.' },
      },
      spatial_merge_size: {
        type: 'int', default: 2, min: 1, max: 64,
        label: { en: 'Spatial merge size', ko: '공간 병합 크기' },
        help: { en: 'Patches merged per side before the LLM: h and w must be multiples of it.', ko: 'LLM에 들어가기 전 한 변에서 합치는 패치 수. h와 w는 그 배수여야 합니다.' },
      },
      tokens_per_second: {
        type: 'number', nullable: true, default: null, min: 0, exclusiveMin: true, max: 10000,
        label: { en: 'Tokens per second (Qwen2.5-VL)', ko: '초당 토큰 (Qwen2.5-VL)' },
        help: { en: 'Set it to scale video time ids by real time, as Qwen2.5-VL does; null keeps Qwen2-VL frame ids.', ko: '설정하면 Qwen2.5-VL처럼 비디오 시간 id를 실제 시간으로 조정합니다. null이면 Qwen2-VL의 프레임 id.' },
      },
      convention: {
        type: 'enum', default: '4.49', values: MROPE_CONVENTIONS,
        label: { en: 'transformers version', ko: 'transformers 버전' },
        valueLabels: {
          '4.49': { en: '4.49–4.51 (default)', ko: '4.49–4.51 (기본)' },
          '4.52': { en: '4.52+ 4.x: seconds cut', ko: '4.52 이후 4.x: 초 자름' },
          '5.x': { en: '5.x: resume at max(h, w)', ko: '5.x: max(h, w)에서 이어감' },
        },
        help: {
          en: 'transformers versions disagree on the ids: 4.52 truncates second_per_grid_t to an integer before multiplying (0.5 s per frame gives every frame time id 0), and 5.x resumes text after an image or video at its start + max(h, w)/merge, ignoring t. Pick the version you run to see what it computes.',
          ko: 'transformers 버전마다 id가 다릅니다. 4.52부터는 second_per_grid_t를 곱하기 전에 정수로 잘라서 한 프레임이 0.5초면 모든 프레임의 시간 id가 0이 되고, 5.x는 이미지나 비디오 뒤의 텍스트를 t와 상관없이 시작 id + max(h, w)/merge에서 이어 갑니다. 쓰는 버전을 고르면 그 버전이 계산하는 값을 볼 수 있습니다.',
        },
      },
      segments: {
        type: 'list', minItems: 1, maxItems: PE_MROPE_MAX_SEGMENTS,
        default: [
          { type: 'text', length: 6 },
          { type: 'image', t: 1, h: 8, w: 12 },
          { type: 'text', length: 5 },
        ],
        item: segment,
        label: { en: 'Segments', ko: '구간' },
        help: { en: 'The sequence: text runs, images and videos in order.', ko: '순서대로 놓인 텍스트, 이미지, 비디오.' },
      },
    },
    shape: (s) => [3, s.segments.reduce((n, seg) => n + segmentTokens(seg, s.spatial_merge_size), 0)],
    check(s) {
      if (s.dim % 2 !== 0) return { param: 'dim', message: `dim must be even (pairs of channels rotate together), got ${s.dim}` };
      const sum = s.mrope_section.reduce((a, b) => a + b, 0);
      if (sum !== s.dim / 2) {
        return { param: 'mrope_section', message: `mrope_section must sum to dim/2 = ${s.dim / 2}, got [${s.mrope_section.join(', ')}] (sum ${sum})` };
      }
      const m = s.spatial_merge_size;
      for (const [i, seg] of s.segments.entries()) {
        for (const side of ['h', 'w']) {
          if (seg.type !== 'text' && seg[side] % m !== 0) {
            return { param: `segments[${i}].${side}`, message: `segments[${i}].${side} must be a multiple of spatial_merge_size ${m}, got ${seg[side]}` };
          }
        }
      }
      const tokens = s.segments.reduce((n, seg) => n + segmentTokens(seg, m), 0);
      if (tokens > PE_MAX_LENGTH) {
        return { param: 'segments', message: `the segments make ${tokens} tokens, more than the limit of ${PE_MAX_LENGTH}` };
      }
      return null;
    },
  },
};
