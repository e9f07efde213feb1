// Strings of the heatmap view's colour-scale control (issue 29), in every language (same keys in
// en and ko); registered with the page's dictionaries when this module runs.
import { registerStrings } from '../../i18n/index.js';

export const SCALE_STRINGS = {
  en: {
    'view.heatmap.scale': 'Scale',
    'scale.auto': 'auto',
    'scale.auto.chosen': (used) => `auto (${used})`,
    'scale.linear': 'linear',
    'scale.sqrt': '√ (square root)',
    'scale.log': 'log',
    'scale.help': 'How values become colours. log and √ spread weights that span decades (attention ≈ 1/i) over the whole colour bar; auto picks one for attention weights that span two decades or more. On the log scale every value at or below the floor (the lowest tick, ≤) gets the bottom colour.',
  },
  ko: {
    'view.heatmap.scale': '척도',
    'scale.auto': '자동',
    'scale.auto.chosen': (used) => `자동 (${used})`,
    'scale.linear': '선형',
    'scale.sqrt': '√ (제곱근)',
    'scale.log': '로그',
    'scale.help': '값을 색으로 바꾸는 방식입니다. 로그와 √는 여러 자릿수에 걸친 가중치(어텐션 ≈ 1/i)를 색 눈금 전체에 고르게 펼칩니다. 자동은 두 자릿수 이상에 걸친 어텐션 가중치에 이 둘 중 하나를 고릅니다. 로그 척도에서는 바닥값(가장 아래 눈금, ≤) 이하의 값이 모두 가장 아래 색을 받습니다.',
  },
};

registerStrings(SCALE_STRINGS);
