// Strings of the sine-likeness view (sine-likeness.js: how much of each column one sine wave
// explains), in every language (same keys in en and ko), registered with the page's dictionaries
// when the absolute family's code arrives (views.js imports this). Numbers arrive formatted.
import { registerStrings } from '../../i18n/index.js';

const strings = {
  en: {
    'absolute.sine.title': 'How sine-like is this table?',
    'absolute.sine.explain': 'For each column (one dimension over the positions), the share of its variance that a single sine wave explains: the best fit of a + b·cos(ωp) + c·sin(ωp) over a grid of frequencies ω. A column of the sinusoidal table is one wave (100 %). A column of random numbers is also fitted by some wave, by chance, to about 2·ln(2L)/L of its variance: that is the noise level, drawn beside it. A slow wave also fits a smooth trend, so a high value says “smooth like a wave”, not that the column oscillates.',
    'absolute.sine.axisX': 'columns, from least to most sine-like',
    'absolute.sine.axisY': 'variance one sine wave explains (%)',
    'absolute.sine.plotLabel': 'Share of each column’s variance that one sine wave explains, this table against the sinusoidal table and an untrained one of the same size',
    'absolute.sine.seriesThis': 'this table',
    'absolute.sine.seriesSin': 'sinusoidal table, same size',
    'absolute.sine.seriesNoise': 'untrained N(0, 0.02²) table, same size',
    'absolute.sine.sentence': ({ m, q1, q3, sin, noise, nq3 }) => `One sine wave explains ${m} of a typical column’s variance here (median; the middle half of the columns ${q1}–${q3}). At the same size, the sinusoidal table gives ${sin} and an untrained table ${noise} (its middle half up to ${nq3}).`,
    'absolute.sine.verdict.wave': 'This table is sine-like: even its lower quarter of columns is above the untrained table’s upper quarter.',
    'absolute.sine.verdict.noise': 'This table is no more sine-like than random numbers: its median column is within the untrained table’s range (at or below its upper quarter).',
    'absolute.sine.verdict.between': 'This table is between the two: its median column is above the untrained table’s upper quarter, but its lower quarter is not.',
    'absolute.sine.neighbours': ({ c, sin, noise }) => `Neighbouring positions: the mean cosine of rows p and p + 1 is ${c} (sinusoidal ${sin}, untrained ${noise}).`,
    'absolute.sine.sampled': (n, cols, rows) => `Measured on ${n} of ${cols} columns, evenly spread, over the first ${rows} positions (to keep it quick).`,
    'absolute.sine.rows': (rows) => `Measured over the first ${rows} positions (to keep it quick).`,
    'absolute.sine.tableCaption': 'Variance of each column explained by one sine wave',
    'absolute.sine.colColumn': 'column',
    'absolute.sine.colThis': 'this table',
    'absolute.sine.colWave': 'best wavelength (positions)',
    'absolute.sine.constant': 'constant',
  },
  ko: {
    'absolute.sine.title': '이 표는 얼마나 사인파 같을까?',
    'absolute.sine.explain': '열(위치에 따른 한 차원)마다, 사인파 하나가 그 분산을 얼마나 설명하는지 봅니다. 여러 주파수 ω에서 a + b·cos(ωp) + c·sin(ωp)를 맞춰 가장 잘 맞는 값을 씁니다. 사인파 표의 열은 파동 하나이므로 100 %입니다. 무작위 수로 된 열도 우연히 어떤 파동에 어느 정도 맞아, 분산의 약 2·ln(2L)/L이 설명됩니다. 이것이 잡음 수준이며 옆에 함께 그립니다. 느린 파동은 매끄러운 추세에도 잘 맞으므로, 값이 높다는 것은 “파동처럼 매끄럽다”는 뜻이지 열이 진동한다는 뜻은 아닙니다.',
    'absolute.sine.axisX': '열 (사인파와 덜 닮은 것부터)',
    'absolute.sine.axisY': '사인파 하나가 설명하는 분산 (%)',
    'absolute.sine.plotLabel': '열마다 사인파 하나가 설명하는 분산의 비율. 이 표와, 같은 크기의 사인파 표, 학습 전 표를 비교',
    'absolute.sine.seriesThis': '이 표',
    'absolute.sine.seriesSin': '같은 크기의 사인파 표',
    'absolute.sine.seriesNoise': '같은 크기의 학습 전 N(0, 0.02²) 표',
    'absolute.sine.sentence': ({ m, q1, q3, sin, noise, nq3 }) => `여기서는 사인파 하나가 보통의 열에서 분산의 ${m}를 설명합니다 (중앙값, 가운데 절반의 열은 ${q1}–${q3}). 같은 크기에서 사인파 표는 ${sin}, 학습 전 표는 ${noise}입니다 (가운데 절반의 위쪽 끝 ${nq3}).`,
    'absolute.sine.verdict.wave': '이 표는 사인파에 가깝습니다. 아래쪽 4분의 1 열조차 학습 전 표의 위쪽 4분의 1보다 높습니다.',
    'absolute.sine.verdict.noise': '이 표가 무작위 수보다 더 사인파에 가깝다고 할 수 없습니다. 중앙값 열이 학습 전 표의 범위(위쪽 4분의 1 경계 이하) 안에 있습니다.',
    'absolute.sine.verdict.between': '이 표는 그 중간입니다. 중앙값 열은 학습 전 표의 위쪽 4분의 1 경계보다 높지만, 아래쪽 4분의 1 열은 그렇지 않습니다.',
    'absolute.sine.neighbours': ({ c, sin, noise }) => `이웃한 위치: p행과 p + 1행의 코사인 평균은 ${c}입니다 (사인파 표 ${sin}, 학습 전 표 ${noise}).`,
    'absolute.sine.sampled': (n, cols, rows) => `빠르게 계산하려고 ${cols}개 열 가운데 고르게 고른 ${n}개 열을, 처음 ${rows}개 위치에서 쟀습니다.`,
    'absolute.sine.rows': (rows) => `빠르게 계산하려고 처음 ${rows}개 위치에서 쟀습니다.`,
    'absolute.sine.tableCaption': '열마다 사인파 하나가 설명하는 분산',
    'absolute.sine.colColumn': '열',
    'absolute.sine.colThis': '이 표',
    'absolute.sine.colWave': '가장 잘 맞는 파장 (위치 수)',
    'absolute.sine.constant': '상수',
  },
};

registerStrings(strings);
