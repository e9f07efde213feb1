// Schema of the `alibi` kind (field descriptors are documented in web/schema.js).
// The C side has the same limits in c/relative.h and c/alibi.h.

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

export default {
  alibi: {
    group: 'bias',
    label: { en: 'ALiBi', ko: 'ALiBi' },
    help: {
      en: 'Press et al. (2022): no position vectors at all; each head adds −m_h·(i − j) to its attention scores, with geometric slopes m_h (get_slopes, also for head counts that are not a power of two). Result: data [heads, length, length] and slopes [heads].',
      ko: 'Press 외 (2022): 위치 벡터 없이 각 헤드가 어텐션 점수에 −m_h·(i − j)를 더합니다. 기울기 m_h는 등비수열입니다 (get_slopes, 2의 거듭제곱이 아닌 헤드 수 포함). 결과: data [heads, length, length], slopes [heads].',
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
};
