// The spec schema: the one place where every kind's fields, types, defaults, ranges and help
// text live. The JS API validates against it, the page builds its controls from it, and later
// the URL, the web component and code export read it too.
//
// Field descriptor:
//   type     'int' | 'number' | 'enum' | 'bool'
//   default  the value `defaults(kind)` fills in (for required fields: the explorer's start value)
//   required true when `compute` refuses a spec that leaves the field out
//   min, max inclusive bounds ('int', 'number'); max may be a function of the spec
//   exclusiveMin true when min itself is not allowed
//   values   allowed strings ('enum')
//   label, help   short UI texts ({ en, ko })

/** Largest output, in float32 elements, that `compute` accepts (2^26 floats = 256 MiB). */
export const PE_MAX_ELEMENTS = 2 ** 26;

/** Positions are 32-bit in the kernels; offset + length must stay below this. */
export const PE_MAX_POSITION = 2 ** 31 - 1;

export const SCHEMA = {
  sinusoidal: {
    group: 'absolute',
    label: { en: 'Sinusoidal', ko: '사인파 (Sinusoidal)' },
    help: {
      en: 'Vaswani et al. (2017): each pair of channels is a sine and a cosine of the position at its own frequency.',
      ko: 'Vaswani 외 (2017): 채널 한 쌍마다 위치에 대한 사인과 코사인을 각자의 주파수로 담습니다.',
    },
    fields: {
      length: {
        type: 'int', required: true, default: 128, min: 1, max: 1 << 20,
        label: { en: 'Length (positions)', ko: '길이 (위치 수)' },
        help: { en: 'Number of positions (rows).', ko: '위치(행)의 개수.' },
      },
      dim: {
        type: 'int', required: true, default: 64, min: 1, max: 16384,
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

export const KINDS = Object.keys(SCHEMA);
