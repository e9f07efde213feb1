// Schema of the `rope_precision` kind (the precision lab; field descriptors are documented in
// web/api/schema/index.js): what a RoPE recipe's number formats do to the rotation angles
// (docs/reference.md#rope_precision; the C kernel is c/precision.c). The rope
// fields are rope's own descriptors, so they validate and read the same.
import { PE_MAX_POSITION } from './limits.js';
import ropeSchema, { rotaryDim } from './rope.js';

export const DTYPES = ['float64', 'float32', 'bfloat16', 'float16'];
/**
 * Step 1's formats: DTYPES and 'float32_pow', float32 as frameworks form inv_freq (a float32
 * pow, then a float32 divide; c/precision.h, pe_inv_freq_float32_pow), not the exact ω rounded.
 */
export const INV_FREQ_DTYPES = [...DTYPES, 'float32_pow'];

/** The four formats of a recipe, in the order of the steps of the computation. */
export const RECIPE_FIELDS = ['inv_freq_dtype', 'position_dtype', 'phase_dtype', 'table_dtype'];

/** The named recipes (docs/reference.md#rope_precision): { name: { inv_freq_dtype, position_dtype, phase_dtype, table_dtype } }. */
export const RECIPES = Object.freeze(Object.fromEntries(Object.entries({
  exact: ['float64', 'float64', 'float64', 'float64'],
  float32: ['float32', 'float32', 'float32', 'float32'],
  float32_pow: ['float32_pow', 'float32', 'float32', 'float32'],
  bf16_table: ['float32', 'float32', 'float32', 'bfloat16'],
  bf16_positions: ['float32', 'bfloat16', 'float32', 'float32'],
  bf16_inv_freq: ['bfloat16', 'float32', 'float32', 'float32'],
  bf16_phase: ['float32', 'float32', 'bfloat16', 'float32'],
  fp16: ['float16', 'float16', 'float16', 'float16'],
}).map(([name, d]) => [name, Object.freeze(Object.fromEntries(RECIPE_FIELDS.map((f, i) => [f, d[i]])))])));

/** The four dtypes of a (normalized) recipe: a name or an object. */
export function recipeDtypes(recipe) {
  return typeof recipe === 'string' ? RECIPES[recipe] : recipe;
}

const rope = ropeSchema.rope;
const dtype = (en, ko, label, values = DTYPES) => ({
  type: 'enum', default: 'float32', values, label, help: { en, ko },
});

export default {
  rope_precision: {
    group: 'rope',
    label: { en: 'RoPE precision lab', ko: 'RoPE 정밀도 실험실' },
    help: {
      en: 'How far the rotation angle of each pair drifts when the frequencies, positions, angles or cos/sin tables are kept in float32, bfloat16 or float16 instead of exactly. The table is the angle error in radians (0 to π).',
      ko: '주파수, 위치, 각도, cos/sin 표를 정확한 값 대신 float32, bfloat16, float16으로 저장하면 쌍마다 회전 각도가 얼마나 어긋나는지 보여 줍니다. 표의 값은 라디안 단위의 각도 오차(0에서 π)입니다.',
    },
    fields: {
      length: {
        ...rope.fields.length, default: 4096,
        help: {
          en: 'Number of positions (rows), starting at offset. The rows are the end of a sequence of offset + length tokens: the length dynamic NTK compares with max_position_embeddings, and LongRoPE with its original context.',
          ko: '위치(행)의 개수로, offset부터 셉니다. 이 행들은 offset + length개 토큰으로 된 시퀀스의 끝부분입니다. dynamic NTK는 이 길이를 max_position_embeddings와, LongRoPE는 원래 문맥 길이와 비교합니다.',
        },
      },
      dim: rope.fields.dim,
      base: rope.fields.base,
      offset: {
        type: 'int', default: 0, min: 0, max: (s) => PE_MAX_POSITION - s.length,
        label: { en: 'Offset (first position)', ko: '오프셋 (첫 위치)' },
        help: {
          en: 'Position of the first row: look at positions far into a long context without computing every row before them.',
          ko: '첫 행의 위치. 앞의 행을 모두 계산하지 않고도 긴 문맥의 먼 위치를 살펴볼 수 있습니다.',
        },
      },
      partial_rotary_factor: rope.fields.partial_rotary_factor,
      rope_scaling: rope.fields.rope_scaling,
      max_position_embeddings: rope.fields.max_position_embeddings,
      recipe: {
        type: 'named', default: 'float32',
        presets: RECIPES,
        fields: {
          inv_freq_dtype: dtype(
            'Format of the inverse frequencies θ_i (step 1: f = round(θ_i)). float32_pow: float32 as frameworks compute it, 1.0 / (base ** (arange(0, d, 2) / d)) with a float32 pow and divide, a few ulps from round(θ_i). The pow here is correctly rounded; libraries differ from it by 1 ulp in some entries, by CPU: glibc\'s powf (and NumPy on CPUs without AVX-512) in about 1 in 2000, PyTorch\'s vectorised pow in about 1 in 65, NumPy on AVX-512 CPUs in about 1 in 5.',
            '역주파수 θ_i를 담는 형식 (1단계: f = round(θ_i)). float32_pow는 프레임워크가 계산하는 방식 그대로, 1.0 / (base ** (arange(0, d, 2) / d))를 float32 거듭제곱과 나눗셈으로 구한 값으로, round(θ_i)와 몇 ulp 다를 수 있습니다. 여기서 쓰는 거듭제곱은 정확히 반올림한 값이고, 라이브러리와 CPU에 따라 일부 항목이 1 ulp씩 다릅니다. glibc의 powf(AVX-512가 없는 CPU의 NumPy도 같음)는 약 2000개에 1개, PyTorch의 벡터화된 pow는 약 65개에 1개, AVX-512 CPU의 NumPy는 약 5개에 1개꼴입니다.',
            { en: 'inv_freq format', ko: 'inv_freq 형식' },
            INV_FREQ_DTYPES,
          ),
          position_dtype: dtype(
            'Format of the positions p (step 2: q = round(p)). bfloat16 holds every integer only up to 256.',
            '위치 p를 담는 형식 (2단계: q = round(p)). bfloat16은 256까지의 정수만 모두 정확히 담습니다.',
            { en: 'Position format', ko: '위치 형식' },
          ),
          phase_dtype: dtype(
            'Format of the angle q·f, computed exactly and rounded once (step 3).',
            '각도 q·f를 담는 형식. 정확히 곱한 뒤 한 번만 반올림합니다 (3단계).',
            { en: 'Angle format', ko: '각도 형식' },
          ),
          table_dtype: dtype(
            'Format of the cos and sin tables (step 4: cos and sin of the rounded angle, rounded once).',
            'cos, sin 표를 담는 형식 (4단계: 반올림된 각도의 cos, sin을 한 번 반올림).',
            { en: 'Table format', ko: '표 형식' },
          ),
        },
        label: { en: 'Recipe', ko: '레시피' },
        valueLabels: {
          exact: { en: 'exact (all float64)', ko: 'exact (모두 float64)' },
          float32: { en: 'float32 (transformers today)', ko: 'float32 (현재 transformers)' },
          float32_pow: { en: 'float32, inv_freq from pow (as transformers forms it)', ko: 'float32, inv_freq를 pow로 (transformers 방식 그대로)' },
          bf16_table: { en: 'bfloat16 cos/sin table', ko: 'bfloat16 cos/sin 표' },
          bf16_positions: { en: 'bfloat16 positions', ko: 'bfloat16 위치' },
          bf16_inv_freq: { en: 'bfloat16 inv_freq', ko: 'bfloat16 inv_freq' },
          bf16_phase: { en: 'bfloat16 angles', ko: 'bfloat16 각도' },
          fp16: { en: 'float16 everywhere', ko: '모두 float16' },
        },
        help: {
          en: 'The number formats of the four steps: a named recipe, or a custom one that sets the format of each step (float64, float32, bfloat16 or float16; inv_freq also float32_pow).',
          ko: '네 단계의 수 형식입니다. 이름 붙은 레시피를 고르거나, ‘직접 지정’에서 단계마다 형식을 고릅니다 (float64, float32, bfloat16, float16 중 하나, inv_freq는 float32_pow도 가능).',
        },
      },
    },
    // The angle error of every position and pair, radians in [0, π].
    shape: (s) => [s.length, rotaryDim(s) / 2],
    view: {
      class: 'generic',
      axes: {
        row: { en: 'position', ko: '위치' },
        col: { en: 'pair', ko: '쌍' },
        value: { en: 'angle error (rad)', ko: '각도 오차 (라디안)' },
      },
    },
    // rope's rules for rotary_dim and the scaling types (its axial rules do not apply: no grid),
    // LongRoPE's included: the kernel takes the factor lists (c/precision.c,
    // pe_rope_precision_lists).
    check: (s) => rope.check(s),
  },
};
