// Schema of the `rope` kind (field descriptors are documented in web/api/schema/index.js), with its
// nested rope_scaling object in Hugging Face config.json names (transformers' modeling_rope_utils).
import { PE_MAX_POSITION, PE_MAX_LENGTH, PE_MAX_DIM } from './limits.js';

export const ROPE_TYPES = ['default', 'linear', 'dynamic', 'yarn', 'llama3', 'ntk', 'longrope'];

/**
 * YaRN's factor as transformers versions read it (docs/transformers-versions.md): since 4.56
 * (PR #40320) rope_scaling.factor is used as given; before, a set original_max_position_embeddings
 * replaced it by max_position_embeddings / original_max_position_embeddings.
 */
export const YARN_CONVENTIONS = ['since_4.56', 'before_4.56'];

/** The factor YaRN uses for a (normalized) spec under its convention. */
export function yarnFactor(spec) {
  const r = spec.rope_scaling;
  if (r?.rope_type !== 'yarn') return r?.factor ?? null;
  if (r.convention === 'before_4.56' && r.original_max_position_embeddings != null && spec.max_position_embeddings != null) {
    return spec.max_position_embeddings / r.original_max_position_embeddings;
  }
  return r.factor;
}

/** Most entries a LongRoPE factor list can need: rotary_dim/2 for the widest head. */
export const LONGROPE_MAX_PAIRS = PE_MAX_DIM / 2;

/**
 * LongRoPE's original context o: rope_scaling.original_max_position_embeddings, else
 * max_position_embeddings (null when neither is set).
 */
export function longropeOriginal(spec) {
  return spec.rope_scaling?.original_max_position_embeddings ?? spec.max_position_embeddings ?? null;
}

/** Which LongRoPE list a (normalized) spec uses: 'long' once length exceeds o, else 'short'. */
export function longropeList(spec) {
  const o = longropeOriginal(spec);
  return o !== null && spec.length > o ? 'long' : 'short';
}

/**
 * LongRoPE's scale s for the attention factor: max_position_embeddings / o when both are set
 * (Phi-3's rule, which transformers applies over factor), else factor, else 1.
 */
export function longropeScale(spec) {
  const r = spec.rope_scaling;
  if (r?.original_max_position_embeddings != null && spec.max_position_embeddings != null) {
    return spec.max_position_embeddings / r.original_max_position_embeddings;
  }
  return r?.factor ?? 1;
}

/** rotary_dim = int(dim · partial_rotary_factor), truncated like Python's int(). */
export function rotaryDim(spec) {
  return Math.trunc(spec.dim * spec.partial_rotary_factor);
}

/** True when a (normalized) rope spec is axial 2-D RoPE on a grid. */
export function isAxial(spec) {
  return spec.grid_height != null && spec.grid_width != null;
}

// Axial 2-D RoPE's rules: both grid sides or neither, length = rows × columns, rotary_dim a
// multiple of 4 (two axes of sin/cos pairs), no rope_scaling. undefined when the spec is 1-D.
function checkAxial(s) {
  if (s.grid_height == null && s.grid_width == null) return undefined;
  if (s.grid_height == null || s.grid_width == null) {
    const missing = s.grid_height == null ? 'grid_height' : 'grid_width';
    return { param: missing, message: `${missing} is required when ${missing === 'grid_height' ? 'grid_width' : 'grid_height'} is set (axial 2-D RoPE needs both grid sides)` };
  }
  if (s.length !== s.grid_height * s.grid_width) {
    return { param: 'length', message: `length must be grid_height × grid_width = ${s.grid_height * s.grid_width} for axial 2-D RoPE, got ${s.length}` };
  }
  if (rotaryDim(s) % 4 !== 0) {
    return { param: s.partial_rotary_factor === 1 ? 'dim' : 'partial_rotary_factor', message: `axial 2-D RoPE needs rotary_dim = int(dim · partial_rotary_factor) to be a multiple of 4 (sin/cos pairs for two axes), got ${rotaryDim(s)}` };
  }
  if (s.rope_scaling !== null && s.rope_scaling.rope_type !== 'default') {
    return { param: 'rope_scaling', message: 'rope_scaling must be null for axial 2-D RoPE (the scaling methods are defined for 1-D positions)' };
  }
  return null;
}

// LongRoPE's rules: one factor per pair in each list, an original context (o) to switch on.
function checkLongrope(s, rotary) {
  const r = s.rope_scaling;
  for (const key of ['short_factor', 'long_factor']) {
    if (r[key].length !== rotary / 2) {
      return {
        param: `rope_scaling.${key}`,
        message: `rope_scaling.${key} must have rotary_dim/2 = ${rotary / 2} entries (one per frequency pair; rotary_dim = int(${s.dim} · ${s.partial_rotary_factor}) = ${rotary}), got ${r[key].length}`,
      };
    }
  }
  if (longropeOriginal(s) === null) {
    return {
      param: 'rope_scaling.original_max_position_embeddings',
      message: `rope_scaling.original_max_position_embeddings (or max_position_embeddings) is required when rope_scaling.rope_type is "longrope" (length is compared with it to choose short_factor or long_factor): an integer in [1, ${PE_MAX_POSITION}]`,
    };
  }
  const o = longropeOriginal(s);
  if (o === 1 && r.attention_factor === null && longropeScale(s) > 1) {
    return {
      param: 'rope_scaling.original_max_position_embeddings',
      message: 'rope_scaling.original_max_position_embeddings must be at least 2 for longrope without attention_factor (the attention factor divides by ln of it), got 1',
    };
  }
  return null;
}

// Scaling numbers are bounded so that every derived quantity (inv_freq, attention factor, angle)
// is a finite float32 for every length and base the schema allows: a factor of 1e-40 once gave
// +Infinity angles. Real configs use factors of 1 to 64 and betas of 1 to 32.
export const SCALE_MIN = 1e-6;
export const SCALE_MAX = 1e6;
const positive = (en, ko, extra = {}) => ({
  type: 'number', min: SCALE_MIN, max: SCALE_MAX, ...extra, help: { en, ko },
});

// rope_scaling's fields, in the reference's order (also the validation order: a bound may use the
// fields before it).
const scalingFields = {
  rope_type: {
    type: 'enum', default: 'default', values: ROPE_TYPES,
    label: { en: 'Scaling type', ko: '스케일링 종류' },
    help: {
      en: 'How the frequencies are stretched for contexts longer than training: linear (position interpolation), dynamic NTK, YaRN, Llama 3.1, static NTK-aware, or LongRoPE (Phi-3: a searched factor per pair).',
      ko: '학습 때보다 긴 문맥을 위해 주파수를 늘이는 방법: linear (위치 보간), dynamic NTK, YaRN, Llama 3.1, 정적 NTK-aware, LongRoPE (Phi-3: 쌍마다 탐색해 둔 배수).',
    },
  },
  factor: positive(
    'Context extension factor s: linear divides every frequency by s; the others use it in their own way.',
    '문맥 확장 배수 s. linear는 모든 주파수를 s로 나누고, 나머지는 각자의 방식으로 씁니다.',
    { default: 2, label: { en: 'Factor', ko: '배수 (factor)' } },
  ),
  original_max_position_embeddings: {
    type: 'int', nullable: true, default: null, min: 1, max: PE_MAX_POSITION,
    label: { en: 'Original context', ko: '원래 문맥 길이' },
    help: {
      en: 'Context length of pre-training. yarn and llama3 place their bands from it (yarn falls back to max_position_embeddings); longrope switches from short_factor to long_factor once length exceeds it.',
      ko: '사전 학습 때의 문맥 길이. yarn과 llama3는 이 값으로 구간을 정합니다 (yarn은 없으면 max_position_embeddings). longrope는 length가 이 값을 넘으면 short_factor 대신 long_factor를 씁니다.',
    },
  },
  beta_fast: positive(
    'YaRN: frequencies that turn more than beta_fast times over the original context are kept (extrapolated).',
    'YaRN: 원래 문맥에서 beta_fast번 넘게 도는 주파수는 그대로 둡니다 (외삽).',
    { default: 32, label: { en: 'β fast', ko: 'β fast' } },
  ),
  beta_slow: positive(
    'YaRN: frequencies that turn fewer than beta_slow times are divided by factor (interpolated); a linear ramp lies between.',
    'YaRN: beta_slow번보다 적게 도는 주파수는 factor로 나눕니다 (보간). 그 사이는 선형으로 섞습니다.',
    { default: 1, max: (s) => s.beta_fast, rule: 'at most rope_scaling.beta_fast', label: { en: 'β slow', ko: 'β slow' } },
  ),
  truncate: {
    type: 'bool', default: true,
    label: { en: 'Truncate ramp', ko: '램프 정수화' },
    help: {
      en: 'YaRN: round the ramp ends to whole pairs (floor / ceil), as transformers does by default.',
      ko: 'YaRN: 램프 양 끝을 정수 쌍으로 내림/올림합니다 (transformers 기본값).',
    },
  },
  mscale: {
    type: 'number', nullable: true, default: null, min: 0, max: 1000,
    label: { en: 'mscale', ko: 'mscale' },
    help: {
      en: 'YaRN (DeepSeek): with mscale_all_dim, attention_factor = g(factor, mscale) / g(factor, mscale_all_dim), g(s, m) = 0.1·m·ln s + 1. 0 or null: unused.',
      ko: 'YaRN (DeepSeek): mscale_all_dim과 함께 attention_factor = g(factor, mscale) / g(factor, mscale_all_dim), g(s, m) = 0.1·m·ln s + 1. 0이나 null이면 쓰지 않습니다.',
    },
  },
  mscale_all_dim: {
    type: 'number', nullable: true, default: null, min: 0, max: 1000,
    label: { en: 'mscale_all_dim', ko: 'mscale_all_dim' },
    help: {
      en: 'YaRN (DeepSeek): the denominator\'s m in attention_factor (see mscale).',
      ko: 'YaRN (DeepSeek): attention_factor 분모의 m (mscale 참고).',
    },
  },
  attention_factor: {
    type: 'number', nullable: true, default: null, min: 0, exclusiveMin: true, max: 1000,
    label: { en: 'Attention factor', ko: '어텐션 배율' },
    help: {
      en: 'YaRN and LongRoPE: scale applied to cos and sin (so to q·k twice). Null: YaRN 0.1·ln(factor) + 1; LongRoPE √(1 + ln s / ln o), s = max_position_embeddings / o.',
      ko: 'YaRN, LongRoPE: cos와 sin에 곱하는 배율 (q·k에는 두 번). null이면 YaRN은 0.1·ln(factor) + 1, LongRoPE는 √(1 + ln s / ln o) (s = max_position_embeddings / o).',
    },
  },
  short_factor: {
    type: 'list', minItems: 1, maxItems: LONGROPE_MAX_PAIRS,
    item: { type: 'number', min: SCALE_MIN, max: SCALE_MAX },
    label: { en: 'Short factors (per pair)', ko: '짧은 문맥 배수 (쌍마다)' },
    help: {
      en: 'LongRoPE: one divisor per frequency pair (rotary_dim/2 numbers), used while length ≤ the original context: θ_i = base^(−2i/d) / short_factor[i].',
      ko: 'LongRoPE: 주파수 쌍마다 하나씩 나누는 수 (rotary_dim/2개). length가 원래 문맥 길이 이하일 때 씁니다: θ_i = base^(−2i/d) / short_factor[i].',
    },
  },
  long_factor: {
    type: 'list', minItems: 1, maxItems: LONGROPE_MAX_PAIRS,
    item: { type: 'number', min: SCALE_MIN, max: SCALE_MAX },
    label: { en: 'Long factors (per pair)', ko: '긴 문맥 배수 (쌍마다)' },
    help: {
      en: 'LongRoPE: the divisors used once length exceeds the original context (rotary_dim/2 numbers).',
      ko: 'LongRoPE: length가 원래 문맥 길이를 넘으면 쓰는 나누는 수 (rotary_dim/2개).',
    },
  },
  convention: {
    type: 'enum', default: 'since_4.56', values: YARN_CONVENTIONS,
    label: { en: 'transformers version', ko: 'transformers 버전' },
    valueLabels: {
      'since_4.56': { en: '4.56 and later: factor as given', ko: '4.56 이후: factor 그대로' },
      'before_4.56': { en: 'before 4.56: factor = max positions / original', ko: '4.56 이전: factor = 최대 위치 수 / 원래 문맥' },
    },
    help: {
      en: 'YaRN: transformers before 4.56 replaced factor by max_position_embeddings / original_max_position_embeddings whenever the original context was set (PR #40320 changed it). Pick the version you run to see what it computes.',
      ko: 'YaRN: transformers 4.56 이전에는 원래 문맥 길이가 있으면 factor 대신 max_position_embeddings / original_max_position_embeddings를 썼습니다 (PR #40320에서 바뀜). 쓰는 버전을 고르면 그 버전이 계산하는 값을 볼 수 있습니다.',
    },
  },
  low_freq_factor: positive(
    'Llama 3.1: wavelengths longer than original context / low_freq_factor are divided by factor.',
    'Llama 3.1: 파장이 원래 문맥 / low_freq_factor보다 길면 factor로 나눕니다.',
    { default: 1, label: { en: 'Low-frequency factor', ko: '저주파 계수' } },
  ),
  high_freq_factor: positive(
    'Llama 3.1: wavelengths shorter than original context / high_freq_factor are kept; between the two edges the frequency is blended smoothly.',
    'Llama 3.1: 파장이 원래 문맥 / high_freq_factor보다 짧으면 그대로 둡니다. 두 경계 사이는 부드럽게 섞습니다.',
    {
      default: 4, min: (s) => s.low_freq_factor, rule: 'at least rope_scaling.low_freq_factor (equal: no smooth band, as in Llama 4)',
      label: { en: 'High-frequency factor', ko: '고주파 계수' },
    },
  ),
};

export default {
  rope: {
    group: 'rope',
    label: { en: 'Rotary (RoPE)', ko: '회전 위치 임베딩 (RoPE)' },
    help: {
      en: 'Su et al. (2021): each pair of channels of q and k is rotated by p·θ_i, so q·k depends only on the distance. The table shows the angles p·θ_i.',
      ko: 'Su 외 (2021): q와 k의 채널 한 쌍마다 p·θ_i만큼 회전시켜 q·k가 거리에만 의존하게 합니다. 표는 각도 p·θ_i입니다.',
    },
    fields: {
      length: {
        type: 'int', required: true, default: 256, min: 1, max: PE_MAX_LENGTH,
        label: { en: 'Length (positions)', ko: '길이 (위치 수)' },
        help: {
          en: 'Number of positions (rows); also the sequence length that dynamic NTK compares with max_position_embeddings.',
          ko: '위치(행)의 개수. dynamic NTK가 max_position_embeddings와 비교하는 시퀀스 길이이기도 합니다.',
        },
      },
      dim: {
        type: 'int', required: true, default: 128, min: 2, max: PE_MAX_DIM,
        label: { en: 'Head dimension', ko: '헤드 차원' },
        help: {
          en: 'Width of one attention head (q and k); the first rotary_dim = int(dim · partial_rotary_factor) channels are rotated.',
          ko: '어텐션 헤드 하나(q, k)의 폭. 앞쪽 rotary_dim = int(dim · partial_rotary_factor)개 채널이 회전합니다.',
        },
      },
      base: {
        type: 'number', default: 10000, min: 1, exclusiveMin: true, max: 1e12,
        label: { en: 'Base (rope_theta)', ko: '밑 (rope_theta)' },
        help: {
          en: 'θ_i = base^(−2i/rotary_dim). Llama 3 uses 500000, Qwen2.5 1000000.',
          ko: 'θ_i = base^(−2i/rotary_dim). Llama 3는 500000, Qwen2.5는 1000000을 씁니다.',
        },
      },
      layout: {
        type: 'enum', default: 'half', values: ['half', 'interleaved'],
        label: { en: 'Pairing', ko: '짝 구성' },
        help: {
          en: 'half: channel i pairs with i + rotary_dim/2 (GPT-NeoX, Hugging Face rotate_half). interleaved: 2i pairs with 2i+1 (RoFormer, GPT-J).',
          ko: 'half: 채널 i와 i + rotary_dim/2가 짝 (GPT-NeoX, Hugging Face rotate_half). interleaved: 2i와 2i+1이 짝 (RoFormer, GPT-J).',
        },
      },
      partial_rotary_factor: {
        type: 'number', default: 1, min: 0, exclusiveMin: true, max: 1,
        label: { en: 'Rotary fraction', ko: '회전 비율' },
        help: {
          en: 'Fraction of the head that is rotated (GPT-NeoX: 0.25); the other channels pass through unchanged.',
          ko: '헤드에서 회전하는 비율 (GPT-NeoX: 0.25). 나머지 채널은 그대로 통과합니다.',
        },
      },
      rope_scaling: {
        type: 'object', nullable: true, default: null,
        discriminator: 'rope_type',
        aliases: { type: 'rope_type' },   // older config.json files say "type"
        fields: scalingFields,
        variants: {
          default: {},
          linear: { required: ['factor'] },
          dynamic: { required: ['factor'], optional: ['original_max_position_embeddings'] },
          yarn: {
            required: ['factor'],
            optional: ['original_max_position_embeddings', 'beta_fast', 'beta_slow', 'truncate', 'mscale',
              'mscale_all_dim', 'attention_factor', 'convention'],
          },
          llama3: { required: ['factor', 'original_max_position_embeddings', 'low_freq_factor', 'high_freq_factor'] },
          ntk: { required: ['factor'] },
          // factor only sets the attention factor's scale when max_position_embeddings is not
          // given; unset by default (transformers reads it with .get()).
          longrope: {
            required: ['short_factor', 'long_factor'],
            optional: ['factor', 'original_max_position_embeddings', 'attention_factor'],
            defaults: { factor: null },
          },
        },
        // A starting object per type for the explorer (the published settings of a known model).
        examples: {
          default: { rope_type: 'default' },
          linear: { rope_type: 'linear', factor: 2 },
          dynamic: { rope_type: 'dynamic', factor: 2 },
          yarn: { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 32768 },
          llama3: { rope_type: 'llama3', factor: 8, original_max_position_embeddings: 8192, low_freq_factor: 1, high_freq_factor: 4 },
          ntk: { rope_type: 'ntk', factor: 2 },
          // Illustrative, for the default 128-channel head (64 pairs): short factors of 1 and long
          // factors rising from 1 to 16 (geometrically) toward the low frequencies. Phi-3.5's real
          // lists (48 pairs of a 96-channel head) are in the model gallery.
          longrope: {
            rope_type: 'longrope',
            short_factor: Array.from({ length: 64 }, () => 1),
            long_factor: Array.from({ length: 64 }, (_, i) => Number((16 ** (i / 63)).toFixed(4))),
            original_max_position_embeddings: 4096,
          },
        },
        label: { en: 'RoPE scaling', ko: 'RoPE 스케일링' },
        help: {
          en: 'The scaling a model\'s config.json sets (rope_scaling), or none: pick its type, then that type\'s settings.',
          ko: '모델의 config.json이 정하는 스케일링(rope_scaling)입니다. 없음으로 두거나, 종류를 고른 뒤 그 종류의 설정을 정합니다.',
        },
      },
      max_position_embeddings: {
        type: 'int', nullable: true, default: null, min: 1, max: PE_MAX_POSITION,
        label: { en: 'Max positions', ko: '최대 위치 수' },
        help: {
          en: 'The model\'s max_position_embeddings: dynamic NTK rescales once length exceeds it; yarn uses it when original_max_position_embeddings is not given.',
          ko: '모델의 max_position_embeddings. dynamic NTK는 length가 이를 넘으면 다시 계산하고, yarn은 original_max_position_embeddings가 없을 때 씁니다.',
        },
      },
      grid_height: {
        type: 'int', nullable: true, default: null, min: 1, max: 4096,
        label: { en: 'Grid rows (axial 2-D)', ko: '격자 행 수 (축별 2차원)' },
        help: {
          en: 'Set with grid_width for axial 2-D RoPE on a patch grid (Heo et al. 2024): the first half of the frequency pairs rotate with the row, the second half with the column. length must then be rows × columns.',
          ko: 'grid_width와 함께 설정하면 패치 격자 위의 축별 2차원 RoPE (Heo 외 2024): 주파수 쌍의 앞 절반은 행, 뒤 절반은 열로 회전합니다. 이때 length는 행 × 열이어야 합니다.',
        },
      },
      grid_width: {
        type: 'int', nullable: true, default: null, min: 1, max: 4096,
        label: { en: 'Grid columns (axial 2-D)', ko: '격자 열 수 (축별 2차원)' },
        help: {
          en: 'Columns of the patch grid for axial 2-D RoPE; tokens are row-major (k = row·width + column).',
          ko: '축별 2차원 RoPE의 패치 격자 열 수. 토큰은 행 우선 순서 (k = 행·가로 + 열).',
        },
      },
    },
    // Angles p·θ_i for every position and frequency.
    shape: (s) => [s.length, rotaryDim(s) / 2],
    check: (s) => {
      const axial = checkAxial(s);
      if (axial !== undefined) return axial;
      const type = s.rope_scaling?.rope_type ?? 'default';
      const rotary = rotaryDim(s);
      const need = type === 'dynamic' || type === 'ntk' ? 4 : 2;
      if (rotary < need || rotary % 2 !== 0) {
        const why = need === 4 ? ` for rope_type "${type}" (it raises to the power d/(d−2))` : ' (channels rotate in pairs)';
        if (s.partial_rotary_factor === 1) {
          return { param: 'dim', message: `dim must be an even integer ≥ ${need}${why} when partial_rotary_factor is 1, got ${s.dim}` };
        }
        return {
          param: 'partial_rotary_factor',
          message: `partial_rotary_factor must make rotary_dim = int(dim · partial_rotary_factor) an even integer ≥ ${need}${why}, got int(${s.dim} · ${s.partial_rotary_factor}) = ${rotary}`,
        };
      }
      const scaling = s.rope_scaling;
      if (type === 'dynamic' && s.max_position_embeddings === null && scaling.original_max_position_embeddings === null) {
        return {
          param: 'max_position_embeddings',
          message: `max_position_embeddings is required when rope_scaling.rope_type is "dynamic" (length is compared with it): an integer in [1, ${PE_MAX_POSITION}]`,
        };
      }
      if (type === 'longrope') {
        const broken = checkLongrope(s, rotary);
        if (broken) return broken;
      }
      if (type === 'yarn' && s.max_position_embeddings === null && scaling.original_max_position_embeddings === null) {
        return {
          param: 'rope_scaling.original_max_position_embeddings',
          message: `rope_scaling.original_max_position_embeddings (or max_position_embeddings) is required when rope_scaling.rope_type is "yarn" (its correction range is measured over the original context): an integer in [1, ${PE_MAX_POSITION}]`,
        };
      }
      return null;
    },
  },
};
