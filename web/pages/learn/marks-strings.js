// Strings of the numbers linked to their marks (./linked.js) and of the figures' colour-scale
// choice (./figures.js), English and Korean, same keys; registered when this module runs. The
// scale's own names are the explorer's (web/views/generic/scale-strings.js).
import { registerStrings } from '../../i18n/index.js';

export const MARK_STRINGS = {
  en: {
    // A linked number's accessible name: the number as written, then what it marks.
    'learn.mark.label': ({ text, where }) => `${text}, marked in the figure: ${where}`,
    'learn.mark.range': (a, b) => (a === b ? `${a}` : `${a} to ${b}`),
    'learn.mark.diagonal': ({ y, x, d }) => `the cells where ${y} − ${x} = ${d}`,
    'learn.mark.pair': (i) => `pair ${i} in the turning circle`,
  },
  ko: {
    'learn.mark.label': ({ text, where }) => `${text}, 그림에 표시: ${where}`,
    'learn.mark.range': (a, b) => (a === b ? `${a}` : `${a}부터 ${b}까지`),
    'learn.mark.diagonal': ({ y, x, d }) => `${y} − ${x} = ${d}인 칸`,
    'learn.mark.pair': (i) => `회전 원의 ${i}번 쌍`,
  },
};

registerStrings(MARK_STRINGS);
