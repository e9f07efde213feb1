// Schema of the 2-D and 3-D sinusoidal kinds and of `learned2d`, a ViT-style position table over a
// patch grid that can be resized (field descriptors are documented in web/api/schema/index.js).
import { PE_MAX_DIM, PE_MAX_ELEMENTS } from './limits.js';
import { PE_MAX_SEED } from './absolute.js';

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
  learned2d: {
    group: 'vision',
    label: { en: 'Learned table on a patch grid (ViT)', ko: '패치 격자 위의 학습형 표 (ViT)' },
    help: {
      en: 'ViT learns one position vector per patch, numbered row by row, plus one for the class token: a 1-D table laid on a 2-D grid. Start from a fresh random table (as before training) or from MAE’s fixed 2-D sine-cosine table stored in the same layout, or load a trained one. When the image size changes, the grid part is resized with bicubic interpolation and the class row is kept.',
      ko: 'ViT는 패치마다 위치 벡터를 하나씩 배웁니다. 패치에 행 순서로 번호를 매기고, 클래스 토큰 몫으로 벡터를 하나 더 둡니다. 2차원 격자에 얹힌 1차원 표인 셈입니다. 학습 전처럼 무작위 표에서 시작하거나, 같은 배치로 저장한 MAE의 고정 2차원 사인·코사인 표에서 시작하거나, 학습된 표를 불러올 수 있습니다. 이미지 크기가 바뀌면 격자 부분을 쌍삼차(bicubic) 보간으로 크기를 바꾸고 클래스 행은 그대로 둡니다.',
    },
    fields: {
      height: grid('height (rows)', 'Height (rows)', '세로 (행)', 14),
      width: grid('width (columns)', 'Width (columns)', '가로 (열)', 14),
      dim: { ...dim, default: 768 },
      cls_token: {
        type: 'bool', default: true,
        label: { en: 'Class token row', ko: '클래스 토큰 행' },
        help: {
          en: 'Row 0 belongs to the class token ([1 + rows·columns, dim], as in ViT); it is never resized.',
          ko: '0번 행은 클래스 토큰의 몫입니다 (ViT처럼 [1 + 행·열, 차원]). 크기를 바꿀 때 이 행은 건드리지 않습니다.',
        },
      },
      init: {
        type: 'enum', default: 'sincos', values: ['sincos', 'normal'],
        label: { en: 'Table', ko: '표' },
        help: {
          en: 'MAE 2-D sin-cos: MAE’s fixed table (class row zero), a stand-in with structure. Random: a fresh N(0, std²) table, as a learned table starts before training.',
          ko: 'MAE 2차원 사인·코사인: MAE의 고정 표(클래스 행은 0)로, 구조가 있는 대역입니다. 무작위: 학습 전 학습형 표의 출발점인 새 N(0, std²) 표입니다.',
        },
        valueLabels: {
          sincos: { en: 'MAE 2-D sin-cos', ko: 'MAE 2차원 사인·코사인' },
          normal: { en: 'random N(0, std²)', ko: '무작위 N(0, std²)' },
        },
      },
      std: {
        type: 'number', default: 0.02, min: 0, exclusiveMin: true, max: 10,
        label: { en: 'Standard deviation', ko: '표준편차' },
        help: { en: 'Spread of the random table: ViT uses 0.02.', ko: '무작위 표의 퍼짐. ViT는 0.02를 씁니다.' },
      },
      seed: {
        type: 'int', default: 0, min: 0, max: PE_MAX_SEED,
        label: { en: 'Seed', ko: '시드' },
        help: { en: 'Same seed, same random table.', ko: '시드가 같으면 무작위 표도 같습니다.' },
      },
      resize_height: {
        type: 'int', nullable: true, default: null, min: 1, max: PE_MAX_GRID,
        label: { en: 'Resize to rows', ko: '바꿀 세로 (행)' },
        help: {
          en: 'New number of patch rows (e.g. 24 for 384-pixel images with 16-pixel patches); empty: keep the grid.',
          ko: '새 패치 행 수 (예: 16픽셀 패치로 384픽셀 이미지를 보면 24). 비워 두면 격자를 그대로 둡니다.',
        },
      },
      resize_width: {
        type: 'int', nullable: true, default: null, min: 1, max: PE_MAX_GRID,
        label: { en: 'Resize to columns', ko: '바꿀 가로 (열)' },
        help: {
          en: 'New number of patch columns; set together with the rows.',
          ko: '새 패치 열 수. 행과 함께 정합니다.',
        },
      },
      resize_antialias: {
        type: 'bool', default: false,
        label: { en: 'Antialiased resize (timm)', ko: '안티에일리어싱 크기 조정 (timm)' },
        help: {
          en: 'Which bicubic resize. Off: interpolate(mode="bicubic", align_corners=False), as Hugging Face ViT’s interpolate_pos_encoding does (Keys’ cubic, A = −0.75, four taps per axis). On: the same call with antialias=True, the default of timm’s resample_abs_pos_embed (A = −0.5; when shrinking, the filter widens by the scale and averages more patches). Only used when the grid is resized.',
          ko: '어떤 쌍삼차 보간으로 크기를 바꿀지 정합니다. 끄면 Hugging Face ViT의 interpolate_pos_encoding처럼 interpolate(mode="bicubic", align_corners=False)를 씁니다 (Keys 삼차 커널, A = −0.75, 축마다 탭 4개). 켜면 같은 호출에 antialias=True를 더한 것으로, timm의 resample_abs_pos_embed 기본값입니다 (A = −0.5이고, 줄일 때는 필터가 비율만큼 넓어져 더 많은 패치를 평균합니다). 격자 크기를 바꿀 때만 쓰입니다.',
        },
      },
    },
    // [cls row?, then the (resized) grid row-major: k = 1 + row·width + col]
    shape: (s) => [(s.cls_token ? 1 : 0) + (s.resize_height ?? s.height) * (s.resize_width ?? s.width), s.dim],
    check: (s) => {
      if ((s.resize_height === null) !== (s.resize_width === null)) {
        const missing = s.resize_height === null ? 'resize_height' : 'resize_width';
        const other = missing === 'resize_height' ? 'resize_width' : 'resize_height';
        return { param: missing, message: `${missing} must be an integer in [1, ${PE_MAX_GRID}] when ${other} is set (set both or neither), got null` };
      }
      if (s.init === 'sincos' && s.dim % 4 !== 0) {
        return { param: 'dim', message: `dim must be a multiple of 4 for init "sincos" (sin and cos for each of the two axes), got ${s.dim}` };
      }
      const before = (learned2dPrefix(s) + s.height * s.width) * s.dim;   // the table before resizing
      if (before > PE_MAX_ELEMENTS) {
        return { param: 'height', message: `the table before resizing [${learned2dPrefix(s) + s.height * s.width}, ${s.dim}] has ${before} values, more than the limit of ${PE_MAX_ELEMENTS} (PE_MAX_ELEMENTS); reduce height or width or dim` };
      }
      return null;
    },
  },
};

/** Rows before the grid in a learned2d table: 1 with the class token row, else 0. */
export const learned2dPrefix = (s) => (s.cls_token ? 1 : 0);

