// Schema of the `sinusoidal` kind (field descriptors are documented in web/api/schema/index.js).
import { PE_MAX_POSITION, PE_MAX_LENGTH, PE_MAX_DIM } from './limits.js';

export default {
  sinusoidal: {
    group: 'absolute',
    label: { en: 'Sinusoidal', ko: '사인파 (Sinusoidal)' },
    help: {
      en: 'Vaswani et al. (2017): each pair of channels is a sine and a cosine of the position at its own frequency.',
      ko: 'Vaswani 외 (2017): 채널 한 쌍마다 위치에 대한 사인과 코사인을 각자의 주파수로 담습니다.',
    },
    fields: {
      length: {
        type: 'int', required: true, default: 128, min: 1, max: PE_MAX_LENGTH,
        label: { en: 'Length (positions)', ko: '길이 (위치 수)' },
        help: { en: 'Number of positions (rows).', ko: '위치(행)의 개수.' },
      },
      dim: {
        type: 'int', required: true, default: 64, min: 1, max: PE_MAX_DIM,
        label: { en: 'Dimension', ko: '차원' },
        help: { en: 'Embedding width (columns); odd widths are allowed.', ko: '임베딩 폭(열). 홀수도 허용됩니다.' },
      },
      base: {
        type: 'number', default: 10000, min: 1, exclusiveMin: true, max: 1e12,
        label: { en: 'Base', ko: '밑 (base)' },
        help: { en: 'Frequencies are ω_i = base^(−2i/d): a larger base gives longer wavelengths.', ko: '주파수 ω_i = base^(−2i/d). base가 클수록 파장이 길어집니다.' },
      },
      layout: {
        type: 'enum', default: 'interleaved', values: ['interleaved', 'concat', 'tensor2tensor'],
        label: { en: 'Layout', ko: '배치' },
        help: {
          en: 'interleaved: sin, cos, sin, cos… (PyTorch tutorial). concat: all sines then all cosines. tensor2tensor: concat with ω_k = base^(−k/(K−1)).',
          ko: 'interleaved: sin, cos를 번갈아 (PyTorch 튜토리얼). concat: 사인 전부 다음 코사인 전부. tensor2tensor: concat이며 ω_k = base^(−k/(K−1)).',
        },
      },
      offset: {
        type: 'int', default: 0, min: 0, max: (spec) => PE_MAX_POSITION - spec.length,
        label: { en: 'Offset (first position)', ko: '오프셋 (첫 위치)' },
        help: { en: 'Position of the first row.', ko: '첫 행의 위치.' },
      },
    },
    shape: (spec) => [spec.length, spec.dim],
  },
};
