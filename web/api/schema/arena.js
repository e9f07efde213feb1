// Schema of the arena spec (docs/reference.md#arena): a tiny transformer
// trained in WebAssembly (c/arena.h). Not a kind of pe.compute, so it is NOT listed in
// web/api/schema/index.js; web/api/kernels/arena.js validates against it with spec.js's
// normalizeSpec (this table as its `schemas`). Field descriptors as in web/api/schema/index.js,
// plus `defaultFrom`: the field whose (validated) value is the default. The arena has no output
// shape. The C side has the same limits in c/arena.h.
export const PE_ARENA_MAX_LAYERS = 8;
export const PE_ARENA_MAX_D_MODEL = 256;
export const PE_ARENA_MAX_HEADS = 16;
export const PE_ARENA_MAX_SYMBOLS = 64;
export const PE_ARENA_MAX_TRAIN_LENGTH = 64;
export const PE_ARENA_MAX_BATCH = 256;
export const PE_ARENA_MAX_EVAL_LENGTH = 256;
export const PE_ARENA_MAX_SAMPLES = 65536;
export const PE_ARENA_MAX_STEPS = 100000;

/** The encodings and their C codes (pe_arena_encoding). */
export const ARENA_ENCODINGS = { none: 0, sinusoidal: 1, learned: 2, alibi: 3, t5: 4, rope: 5 };
/** The tasks and their C codes (pe_arena_task). */
export const ARENA_TASKS = { copy: 0, reverse: 1, kback: 2, sort: 3 };
/** Evaluation-time RoPE scaling (an extension of evaluate/attention): rope_type → pe_rope_type. */
export const ARENA_ROPE_SCALING = { linear: 1, yarn: 3, ntk: 5 };

const noFields = {};
const scalingFields = {
  rope_type: { type: 'enum', values: Object.keys(ARENA_ROPE_SCALING), label: { en: 'Type', ko: '종류' } },
  factor: { type: 'number', min: 1, max: 1024, default: 2, label: { en: 'Factor', ko: '배율' } },
};
const scalingVariants = { linear: { required: ['factor'] }, ntk: { required: ['factor'] }, yarn: { required: ['factor'] } };

export const ropeScalingOption = {
  type: 'object', nullable: true, default: null,
  discriminator: 'rope_type',
  fields: scalingFields,
  variants: scalingVariants,
  label: { en: 'RoPE scaling at evaluation', ko: '평가 때의 RoPE 스케일링' },
  help: {
    en: 'rope only: { rope_type: "linear" | "ntk" | "yarn", factor } applied when evaluating, in place of the scaling the trainer trains with (spec.rope_scaling; { rope_type: "linear", factor: 1 } is the unscaled model); null or left out: the trained scaling. yarn takes the training sequence length of the first trainer (before any finetune) as original_max_position_embeddings.',
    ko: 'rope 전용: 평가할 때 학습 때의 스케일링(spec.rope_scaling) 대신 적용하는 { rope_type: "linear" | "ntk" | "yarn", factor }입니다 ({ rope_type: "linear", factor: 1 }은 스케일링하지 않은 모델입니다). null이거나 빠지면 학습 때의 스케일링을 씁니다. yarn은 처음 트레이너(finetune 이전)의 학습 시퀀스 길이를 original_max_position_embeddings로 씁니다.',
  },
};

export default {
  arena: {
    group: 'arena',
    label: { en: 'Arena: train a tiny transformer', ko: '아레나: 작은 트랜스포머 학습' },
    help: {
      en: 'A tiny transformer trained in your browser on copy, reverse, kback or sort with one positional encoding; compare how each one learns and how far it generalises to longer sequences.',
      ko: '브라우저에서 작은 트랜스포머를 copy, reverse, kback, sort 과제로 학습합니다. 위치 인코딩마다 학습이 어떻게 되고, 더 긴 시퀀스로 얼마나 일반화되는지 비교합니다.',
    },
    fields: {
      task: {
        type: 'enum', default: 'copy', values: Object.keys(ARENA_TASKS),
        label: { en: 'Task', ko: '과제' },
        help: {
          en: 'copy: y = x; reverse: y = x reversed; kback: y_j = x_{j−2} for j ≥ 3 (y_1, y_2 are not scored: there is no token two back); sort: y = x ascending.',
          ko: 'copy: y = x; reverse: x를 뒤집음; kback: j ≥ 3에서 y_j = x_{j−2} (y_1, y_2는 채점하지 않음: 두 칸 앞 토큰이 없음); sort: 오름차순 정렬.',
        },
      },
      encoding: {
        type: 'object', nullable: true,
        get default() { return { kind: 'rope' }; },
        discriminator: 'kind',
        fields: { kind: { type: 'enum', values: Object.keys(ARENA_ENCODINGS), label: { en: 'Kind', ko: '종류' } } },
        variants: Object.fromEntries(Object.keys(ARENA_ENCODINGS).map((k) => [k, noFields])),
        rule: 'or null for none',
        label: { en: 'Positional encoding', ko: '위치 인코딩' },
        help: {
          en: '{ kind }: none, sinusoidal (added), learned (added; longer sequences reuse the last row), alibi (score bias), t5 (learned bucket bias), rope (rotates q and k).',
          ko: '{ kind }: none, sinusoidal (더함), learned (더함; 더 긴 시퀀스는 마지막 행을 다시 씀), alibi (점수 바이어스), t5 (학습되는 버킷 바이어스), rope (q와 k 회전).',
        },
      },
      causal: {
        type: 'bool', default: true,
        label: { en: 'Causal (decoder)', ko: '인과 (디코더)' },
        help: {
          en: 'true: a decoder on BOS x SEP y, teacher-forced; false: an encoder on BOS x predicting y_j at x_j.',
          ko: 'true: BOS x SEP y에 대한 디코더 (teacher forcing); false: BOS x를 보고 x_j 자리에서 y_j를 예측하는 인코더.',
        },
      },
      layers: {
        type: 'int', default: 2, min: 1, max: PE_ARENA_MAX_LAYERS,
        label: { en: 'Layers', ko: '층 수' }, help: { en: 'Transformer blocks.', ko: '트랜스포머 블록 수.' },
      },
      d_model: {
        type: 'int', default: 32, min: 2, max: PE_ARENA_MAX_D_MODEL,
        label: { en: 'd_model', ko: 'd_model' },
        help: { en: 'Width of the residual stream; MLP width 4·d_model.', ko: '잔차 스트림의 폭. MLP 폭은 4·d_model.' },
      },
      heads: {
        type: 'int', default: 4, min: 1, max: PE_ARENA_MAX_HEADS, rule: 'd_model/heads an even integer',
        label: { en: 'Heads', ko: '헤드 수' }, help: { en: 'Attention heads per layer.', ko: '층마다의 어텐션 헤드 수.' },
      },
      symbols: {
        type: 'int', default: 16, min: 2, max: PE_ARENA_MAX_SYMBOLS,
        label: { en: 'Symbols', ko: '기호 수' },
        help: { en: 'Alphabet of x (ids 2 … symbols + 1; 0 = BOS, 1 = SEP).', ko: 'x의 알파벳 크기 (id 2 … symbols + 1; 0 = BOS, 1 = SEP).' },
      },
      train_length: {
        type: 'int', default: 16, min: 1, max: PE_ARENA_MAX_TRAIN_LENGTH,
        label: { en: 'Training length', ko: '학습 길이' },
        rule: 'at least 3 for kback',
        help: { en: 'Symbols per training example (the longest, with a minimum training length).', ko: '학습 예제 하나의 기호 수 (최소 학습 길이가 있으면 가장 긴 것).' },
      },
      train_length_min: {
        type: 'int', default: 16, defaultFrom: 'train_length', min: 1, max: PE_ARENA_MAX_TRAIN_LENGTH,
        rule: 'at most train_length; default train_length',
        label: { en: 'Shortest training length', ko: '최소 학습 길이' },
        help: {
          en: 'Each training example\'s length is drawn uniformly from [train_length_min, train_length] (as length-generalization studies train); a batch is padded to its longest example and the padding carries no loss. Default train_length: one fixed length.',
          ko: '학습 예제마다 길이를 [train_length_min, train_length]에서 균등하게 뽑습니다 (길이 일반화 연구들의 학습 방식). 배치는 가장 긴 예제에 맞춰 채우고, 채운 자리에는 손실이 없습니다. 기본값 train_length: 고정 길이 하나.',
        },
      },
      batch: {
        type: 'int', default: 32, min: 1, max: PE_ARENA_MAX_BATCH,
        label: { en: 'Batch', ko: '배치' }, help: { en: 'Examples per step.', ko: '스텝마다의 예제 수.' },
      },
      lr: {
        type: 'number', default: 1e-3, min: 0, max: 1, exclusiveMin: true,
        label: { en: 'Learning rate', ko: '학습률' }, help: { en: 'AdamW, constant.', ko: 'AdamW, 일정.' },
      },
      weight_decay: {
        type: 'number', default: 0, min: 0, max: 1,
        label: { en: 'Weight decay', ko: '가중치 감쇠' },
        help: { en: 'Decoupled (AdamW), on matrices only.', ko: '분리형 (AdamW), 행렬에만.' },
      },
      rope_scaling: {
        type: 'object', nullable: true, default: null,
        discriminator: 'rope_type', fields: scalingFields, variants: scalingVariants,
        rule: 'rope only',
        label: { en: 'RoPE scaling in training', ko: '학습 때의 RoPE 스케일링' },
        help: {
          en: 'rope only: { rope_type: "linear" | "ntk" | "yarn", factor } the model trains (and, by default, evaluates) with; linear is position interpolation (Chen et al. 2023). Usually set by t.finetune, which continues a trained model at a longer train_length; yarn takes the training sequence length of the first trainer as original_max_position_embeddings. null: unscaled.',
          ko: 'rope 전용: 모델이 학습할 때 (그리고 기본적으로 평가할 때) 쓰는 { rope_type: "linear" | "ntk" | "yarn", factor }입니다. linear는 위치 보간(Chen et al. 2023)입니다. 보통 학습된 모델을 더 긴 train_length에서 이어 학습하는 t.finetune이 정합니다. yarn은 처음 트레이너의 학습 시퀀스 길이를 original_max_position_embeddings로 씁니다. null: 스케일링 없음.',
        },
      },
      seed: {
        type: 'int', default: 0, min: 0, max: 4294967295,
        label: { en: 'Seed', ko: '시드' }, help: { en: 'Initial parameters and training data.', ko: '초기 파라미터와 학습 데이터.' },
      },
    },
    check(s) {
      if (s.train_length_min > s.train_length) {
        return { param: 'train_length_min', message: `train_length_min must be an integer in [1, train_length = ${s.train_length}], got ${s.train_length_min}` };
      }
      if (s.task === 'kback' && s.train_length < 3) {
        return { param: 'train_length', message: `train_length must be an integer in [3, ${PE_ARENA_MAX_TRAIN_LENGTH}] for kback (it scores y_3 … y_n), got ${s.train_length}` };
      }
      if (s.d_model % s.heads !== 0 || (s.d_model / s.heads) % 2 !== 0) {
        return { param: 'heads', message: `heads must divide d_model into an even head size (d_model/heads an even integer), got d_model ${s.d_model} and heads ${s.heads}` };
      }
      if (s.rope_scaling !== null && s.encoding?.kind !== 'rope') {
        return { param: 'rope_scaling', message: `rope_scaling applies to the rope encoding only, got encoding ${s.encoding === null ? 'none' : s.encoding.kind}` };
      }
      if (s.rope_scaling?.rope_type === 'ntk' && s.d_model / s.heads < 4) {
        return { param: 'rope_scaling', message: `rope_scaling ntk needs a head size d_model/heads of at least 4, got ${s.d_model / s.heads}` };
      }
      return null;
    },
  },
};
