// Schema of the simple absolute kinds `integer`, `binary` and `learned` (field descriptors are
// documented in web/api/schema/index.js). Every table is [length, dim], row p for position p.
import { PE_MAX_LENGTH, PE_MAX_DIM } from './limits.js';

export const PE_MAX_SEED = 2 ** 32 - 1;

const length = {
  type: 'int', required: true, default: 128, min: 1, max: PE_MAX_LENGTH,
  label: { en: 'Length (positions)', ko: '길이 (위치 수)' },
  help: { en: 'Number of positions (rows).', ko: '위치(행)의 개수.' },
};

const dim = (dflt) => ({
  type: 'int', required: true, default: dflt, min: 1, max: PE_MAX_DIM,
  label: { en: 'Dimension', ko: '차원' },
  help: { en: 'Embedding width (columns).', ko: '임베딩 폭(열).' },
});

export default {
  integer: {
    group: 'absolute',
    label: { en: 'Integer position', ko: '정수 위치' },
    help: {
      en: 'The naive encoding: every channel holds the position p itself, or p/(length − 1) in [0, 1] when normalized. Values grow without bound, which is why models do not use it.',
      ko: '가장 단순한 인코딩: 모든 채널이 위치 p를, 정규화하면 [0, 1]의 p/(length − 1)을 담습니다. 값이 끝없이 커지므로 모델은 쓰지 않습니다.',
    },
    fields: {
      length,
      dim: dim(16),
      normalize: {
        type: 'bool', default: false,
        label: { en: 'Normalize', ko: '정규화' },
        help: {
          en: 'Divide by length − 1 so the last position is 1 (length 1 gives 0).',
          ko: 'length − 1로 나누어 마지막 위치를 1로 만듭니다 (length가 1이면 0).',
        },
      },
    },
    shape: (s) => [s.length, s.dim],
  },
  binary: {
    group: 'absolute',
    label: { en: 'Binary position', ko: '이진 위치' },
    help: {
      en: 'Column k holds bit k of the position p (least significant first) as 0 or 1: a square-wave cousin of the sinusoidal encoding, with wavelengths 2, 4, 8, …',
      ko: '열 k는 위치 p의 k번째 비트(최하위 비트부터)를 0 또는 1로 담습니다. 파장 2, 4, 8, …인 사각파로 된 사인파 인코딩의 사촌입니다.',
    },
    fields: {
      length,
      dim: dim(16),
    },
    shape: (s) => [s.length, s.dim],
  },
  learned: {
    group: 'absolute',
    label: { en: 'Learned (initialisation)', ko: '학습형 (초기값)' },
    help: {
      en: 'A learned position table (GPT-2’s wpe, BERT’s position_embeddings) as it starts, before any training: random noise N(0, std²), the same table for the same seed. To look at a trained table instead, open its .npy or .safetensors file in the “Load a trained table” view below.',
      ko: '학습형 위치 표 (GPT-2의 wpe, BERT의 position_embeddings)가 학습을 시작하기 전의 모습입니다. 무작위 잡음 N(0, std²)이고, 시드가 같으면 표도 같습니다. 학습된 표를 보려면 아래 ‘학습된 표 불러오기’에서 .npy 또는 .safetensors 파일을 여세요.',
    },
    fields: {
      length,
      dim: dim(64),
      std: {
        type: 'number', default: 0.02, min: 0, exclusiveMin: true, max: 10,
        label: { en: 'Standard deviation', ko: '표준편차' },
        help: {
          en: 'Initial spread: GPT-2 and BERT use 0.02.',
          ko: '초기값의 퍼짐. GPT-2와 BERT는 0.02를 씁니다.',
        },
      },
      seed: {
        type: 'int', default: 0, min: 0, max: PE_MAX_SEED,
        label: { en: 'Seed', ko: '시드' },
        help: {
          en: 'Same seed, same table; entry (p, c) does not depend on length or dim.',
          ko: '같은 시드면 같은 표. 항목 (p, c)는 length나 dim과 무관합니다.',
        },
      },
    },
    shape: (s) => [s.length, s.dim],
  },
};
