// Schema of the 2-D and 3-D sinusoidal kinds (field descriptors are documented in web/api/schema/index.js).
import { PE_MAX_DIM } from './limits.js';

export const PE_MAX_GRID = 4096;

const grid = (axis, en, ko, dflt) => ({
  type: 'int', required: true, default: dflt, min: 1, max: PE_MAX_GRID,
  label: { en, ko },
  help: { en: `Number of patches along the ${axis}.`, ko: `${ko.split(' ')[0]} 방향 패치 수.` },
});

const dim = {
  type: 'int', required: true, default: 64, min: 1, max: PE_MAX_DIM,
  label: { en: 'Dimension', ko: '차원' },
  help: { en: 'Embedding width of each token.', ko: '토큰마다의 임베딩 폭.' },
};

const base = {
  type: 'number', default: 10000, min: 1, exclusiveMin: true, max: 1e12,
  label: { en: 'Base', ko: '밑 (base)' },
  help: { en: 'Frequencies are ω = base^(−2i/n) for each axis’ n channels.', ko: '각 축의 n개 채널에 대해 ω = base^(−2i/n).' },
};

export default {
  sinusoidal2d: {
    group: 'vision',
    label: { en: '2-D sinusoidal (patches)', ko: '2차원 사인파 (패치)' },
    help: {
      en: 'Vision transformers place patches on a grid: each token is encoded by its row and its column.',
      ko: '비전 트랜스포머는 패치를 격자에 놓습니다. 각 토큰은 행과 열로 인코딩됩니다.',
    },
    fields: {
      height: grid('height (rows)', 'Height (rows)', '세로 (행)', 14),
      width: grid('width (columns)', 'Width (columns)', '가로 (열)', 14),
      dim,
      base,
      layout: {
        type: 'enum', default: 'mae', values: ['mae', 'sum', 'tatp22'],
        label: { en: 'Layout', ko: '배치' },
        help: {
          en: 'mae: first half encodes the column, second half the row (MAE). sum: row encoding + column encoding. tatp22: row block then column block (positional-encodings package).',
          ko: 'mae: 앞 절반은 열, 뒤 절반은 행을 인코딩 (MAE). sum: 행 인코딩 + 열 인코딩. tatp22: 행 블록 다음 열 블록 (positional-encodings 패키지).',
        },
      },
    },
    // Tokens are row-major over the grid: k = row·width + col.
    shape: (s) => [s.height * s.width, s.dim],
    check: (s) => (s.layout === 'mae' && s.dim % 4 !== 0
      ? { param: 'dim', message: `dim must be a multiple of 4 for layout "mae" (sin and cos for each of the two axes), got ${s.dim}` }
      : null),
  },
  sinusoidal3d: {
    group: 'vision',
    label: { en: '3-D sinusoidal (video)', ko: '3차원 사인파 (비디오)' },
    help: {
      en: 'Video models see (time, height, width): each token gets a block of channels per axis.',
      ko: '비디오 모델은 (시간, 세로, 가로)를 봅니다. 각 토큰은 축마다 채널 블록을 받습니다.',
    },
    fields: {
      depth: grid('time axis (frames)', 'Depth (frames)', '깊이 (프레임)', 4),
      height: grid('height (rows)', 'Height (rows)', '세로 (행)', 8),
      width: grid('width (columns)', 'Width (columns)', '가로 (열)', 8),
      dim,
      base,
    },
    // Tokens depth-major, then row, then column.
    shape: (s) => [s.depth * s.height * s.width, s.dim],
  },
};
