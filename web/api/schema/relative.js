// Schema of the relative family: `alibi`, `t5`, `shaw` and `distance` (field descriptors are
// documented in web/api/schema/index.js). Every table is [length, length] (ALiBi: per head):
// entry [i, j] depends on j − i. The C side has the same limits in c/relative.h.
import { PE_MAX_LENGTH } from './limits.js';

/** Largest side of a (length, length) bias table: 8192² = 2^26 = PE_MAX_ELEMENTS. */
export const PE_MAX_BIAS_LENGTH = 8192;
export const PE_MAX_ALIBI_HEADS = 1024;

export const biasLength = {
  type: 'int', required: true, default: 64, min: 1, max: PE_MAX_BIAS_LENGTH,
  label: { en: 'Length (positions)', ko: '길이 (위치 수)' },
  help: {
    en: 'Number of positions: the table has one row per query and one column per key.',
    ko: '위치의 개수. 표는 쿼리마다 한 행, 키마다 한 열입니다.',
  },
};

export const biasMode = {
  type: 'enum', default: 'causal', values: ['causal', 'symmetric'],
  label: { en: 'Mode', ko: '모드' },
  help: {
    en: 'causal: b(i − j) for keys j ≤ i and −∞ above the diagonal (a decoder mask). symmetric: b(|i − j|) everywhere (an encoder).',
    ko: 'causal: 키 j ≤ i에는 b(i − j), 대각선 위는 −∞ (디코더 마스크). symmetric: 모든 곳에 b(|i − j|) (인코더).',
  },
};


export const PE_MAX_T5_BUCKETS = 4096;

/** T5's max_exact: half of the buckets of one direction. */
export const t5MaxExact = (s) => Math.floor((s.bidirectional ? Math.floor(s.num_buckets / 2) : s.num_buckets) / 2);

export default {
  alibi: {
    group: 'relative',
    label: { en: 'ALiBi', ko: 'ALiBi' },
    help: {
      en: 'Press et al. (2022): no position vectors at all; each head adds −m_h·(i − j) to its attention scores, with geometric slopes m_h (as in the paper, also for head counts that are not a power of two). One table per head.',
      ko: 'Press 외 (2022): 위치 벡터 없이 각 헤드가 어텐션 점수에 −m_h·(i − j)를 더합니다. 기울기 m_h는 등비수열입니다 (논문의 방식대로, 헤드 수가 2의 거듭제곱이 아닐 때도). 헤드마다 표가 하나입니다.',
    },
    fields: {
      length: biasLength,
      heads: {
        type: 'int', default: 8, min: 1, max: PE_MAX_ALIBI_HEADS,
        label: { en: 'Heads', ko: '헤드 수' },
        help: {
          en: 'Number of attention heads; head h has slope m_h (for 8 heads: 1/2, 1/4, …, 1/256).',
          ko: '어텐션 헤드 수. 헤드 h의 기울기는 m_h입니다 (8개면 1/2, 1/4, …, 1/256).',
        },
      },
      mode: biasMode,
    },
    shape: (s) => [s.heads, s.length, s.length],
  },
  t5: {
    group: 'relative',
    label: { en: 'T5 relative buckets', ko: 'T5 상대 위치 버킷' },
    help: {
      en: 'Raffel et al. (2020): the relative position j − i (key minus query) falls into a bucket, exact for small distances and log-spaced up to max_distance; each bucket has a learned bias per head. Shows the bucket ids, exactly as transformers\' _relative_position_bucket.',
      ko: 'Raffel 외 (2020): 상대 위치 j − i (키 − 쿼리)를 버킷으로 나눕니다. 가까운 거리는 정확히, 먼 거리는 max_distance까지 로그 간격으로. 버킷마다 헤드별 학습된 바이어스가 있습니다. transformers의 _relative_position_bucket과 똑같은 버킷 번호를 보여 줍니다.',
    },
    fields: {
      length: biasLength,
      num_buckets: {
        type: 'int', default: 32, min: 4, max: PE_MAX_T5_BUCKETS,
        label: { en: 'Buckets', ko: '버킷 수' },
        help: {
          en: 'Number of buckets (bidirectional: half for keys before the query, half for keys after).',
          ko: '버킷 개수 (양방향이면 쿼리 앞의 키에 절반, 뒤의 키에 절반).',
        },
      },
      max_distance: {
        type: 'int', default: 128, min: 2, max: PE_MAX_LENGTH,
        label: { en: 'Max distance', ko: '최대 거리' },
        help: {
          en: 'Distances from here on share the last bucket. Must exceed max_exact (num_buckets/4 when bidirectional, num_buckets/2 otherwise).',
          ko: '이 거리부터는 마지막 버킷을 함께 씁니다. max_exact(양방향이면 num_buckets/4, 아니면 num_buckets/2)보다 커야 합니다.',
        },
      },
      bidirectional: {
        type: 'bool', default: true,
        label: { en: 'Bidirectional', ko: '양방향' },
        help: {
          en: 'true (encoder): keys after the query get their own buckets. false (decoder): every key after the query is bucket 0.',
          ko: 'true (인코더): 쿼리 뒤의 키도 자기 버킷을 가집니다. false (디코더): 쿼리 뒤의 키는 모두 버킷 0.',
        },
      },
    },
    shape: (s) => [s.length, s.length],
    check: (s) => (s.max_distance <= t5MaxExact(s)
      ? { param: 'max_distance', message: `max_distance must be greater than max_exact = ${t5MaxExact(s)} (num_buckets ${s.num_buckets}, ${s.bidirectional ? 'bidirectional: num_buckets/4' : 'unidirectional: num_buckets/2'}), got ${s.max_distance}` }
      : null),
  },
  shaw: {
    group: 'relative',
    label: { en: 'Shaw relative positions', ko: 'Shaw 상대 위치' },
    help: {
      en: 'Shaw et al. (2018): entry [i, j] = clip(j − i, −k, k) + k, the index of the learned relative embedding that query i uses for key j; distances beyond k share the end embeddings.',
      ko: 'Shaw 외 (2018): 항목 [i, j] = clip(j − i, −k, k) + k. 쿼리 i가 키 j에 쓰는 학습된 상대 임베딩의 번호이며, k보다 먼 거리는 양 끝 임베딩을 함께 씁니다.',
    },
    fields: {
      length: biasLength,
      max_relative_position: {
        type: 'int', default: 16, min: 0, max: PE_MAX_LENGTH,
        label: { en: 'Clip distance k', ko: '자르는 거리 k' },
        help: {
          en: 'Relative positions are clipped to [−k, k], giving 2k + 1 embeddings.',
          ko: '상대 위치를 [−k, k]로 자릅니다. 임베딩은 2k + 1개입니다.',
        },
      },
    },
    shape: (s) => [s.length, s.length],
  },
  distance: {
    group: 'relative',
    label: { en: 'Distance bias', ko: '거리 바이어스' },
    help: {
      en: 'A bias b(d) of the distance d = |i − j| added to the attention scores, with u = d / scale: linear −strength·u (one ALiBi head of slope strength/scale), log −strength·ln(1 + u), gaussian −strength·u²/2, exponential strength·(e^(−u) − 1). All are 0 on the diagonal and fall with distance. One table [length, length] shared by all heads (for per-head slopes use alibi).',
      ko: '거리 d = |i − j|의 함수 b(d)를 어텐션 점수에 더합니다. u = d / scale일 때 linear −strength·u (기울기 strength/scale인 ALiBi 헤드 하나), log −strength·ln(1 + u), gaussian −strength·u²/2, exponential strength·(e^(−u) − 1). 모두 대각선에서 0이고 거리에 따라 줄어듭니다. 모든 헤드가 공유하는 표 하나 [length, length] (헤드별 기울기는 alibi).',
    },
    fields: {
      length: biasLength,
      function: {
        type: 'enum', default: 'linear', values: ['linear', 'log', 'gaussian', 'exponential'],
        label: { en: 'Function b(d)', ko: '함수 b(d)' },
        help: {
          en: 'linear: −strength·u. log: −strength·ln(1 + u). gaussian: −strength·u²/2. exponential: strength·(e^(−u) − 1), a penalty that saturates at −strength. u = d / scale.',
          ko: 'linear: −strength·u. log: −strength·ln(1 + u). gaussian: −strength·u²/2. exponential: strength·(e^(−u) − 1), −strength에서 포화하는 감점. u = d / scale.',
        },
      },
      strength: {
        type: 'number', default: 1, min: 0, max: 1000,
        label: { en: 'Strength', ko: '세기' },
        help: {
          en: 'How much the bias weighs against the content scores (0: no bias).',
          ko: '바이어스가 내용 점수에 비해 얼마나 무거운지 (0이면 바이어스 없음).',
        },
      },
      scale: {
        type: 'number', default: 8, min: 0.01, max: 1e6,
        label: { en: 'Scale (positions)', ko: '스케일 (위치)' },
        help: {
          en: 'Distance unit in positions: b is a function of u = d / scale.',
          ko: '거리 단위 (위치 수). b는 u = d / scale의 함수입니다.',
        },
      },
      mode: biasMode,
    },
    shape: (s) => [s.length, s.length],
  },
};
