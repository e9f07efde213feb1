// The word-order demo: two orders of the same words ("I love AI", "AI love I") that the learner
// types or drags, attention over each (pe.compute, content 'tokens', head average), the two
// pictures with the tokens on both axes, their difference (B put back in A's order, minus A), and
// what each word receives (its attention output with one-hot word values, as coloured shares),
// for any encoding or none, causal or not, with one sentence derived from the measured difference.
// The numbers: ./order.js. Used by the explorer's sentence view (./sentence.js) and by the Learn
// path's first step (web/pages/learn/).
//
//   const demo = mountWordOrder(el, { pe, t, a: 'I love AI', b: 'AI love I', encoding: null, causal: false });
//   demo.set({ encoding: { kind: 'rope' } }); demo.state(); demo.destroy();
// The word vectors and the head are random and untrained (one seed for both orders), which the
// demo says; ALiBi gets its standard 8 heads and the steepest is shown (./order.js demoHeads). The
// difference picture is coloured on the attention pictures' own scale (±the largest weight), so a
// change too small to see in the weights is too small to see there too; the verdict says how
// large the largest change is, in percent of a word's attention and in words (effectSize).
// The element gets data-drawn (a count) and data-out-diff / data-weight-diff / data-verdict /
// data-size / data-diff-range / data-head after every drawing; every canvas paints through
// pe.colorize.
import { h, uid } from '../../plot/dom.js';
import { registerStrings } from '../../i18n/index.js';
import { compareOrders, demoHeads, effectSize, matchOrder, percentOf, verdictOf, wordsOf } from './order.js';
import { ensureStyles, fraction } from '../common.js';
import { mountSoftmaxRow } from './softmax-row.js';

export const STRINGS = {
  en: {
    'wo.a': 'First order',
    'wo.b': 'Second order (the same words)',
    'wo.chips': 'Drag a word (or focus it and press ← →) to reorder the second sentence',
    'wo.reverse': 'Reverse',
    'wo.shuffle': 'Shuffle',
    'wo.encoding': 'Positional encoding',
    'wo.enc.none': 'none',
    'wo.causal': 'Causal mask (each word sees only the words before it)',
    'wo.notReorder': (b) => `“${b}” is not a reordering of the first sentence's words: use the same words, each as often. The last good pair stays on screen.`,
    'wo.empty': 'Type a sentence of at least two words.',
    'wo.too-long': (n) => `At most ${n} words here.`,
    'wo.query': 'query ↓',
    'wo.key': 'key →',
    'wo.figA': 'Attention, first order',
    'wo.figB': 'Attention, second order',
    'wo.figD': 'Difference: second, put back in the first order, − first',
    'wo.weight': 'attention weight',
    'wo.delta': 'difference, on the attention pictures’ scale',
    'wo.note': 'The word vectors and the attention head here are random and untrained (the same seed for both orders): the pictures show what the positions change, not what a trained model would attend to.',
    'wo.alibiHeads': ({ heads, m }) => `ALiBi gives every head its own slope. Shown here is the steepest of its ${heads} heads (m = ${m}), the one that cares most about distance; its gentlest (m = 1/256) takes only 1/256 off a score per position, which barely matters over a few words.`,
    'wo.size.tiny': ({ pct, word }) => `But the change is tiny: at most ${pct} % of a word’s attention moves (at “${word}”), too little to see in the bars or the pictures.`,
    'wo.size.small': ({ pct, word }) => `The change is small: at most ${pct} % of a word’s attention moves (at “${word}”); look closely at its bars.`,
    'wo.size.clear': ({ pct, word }) => `Up to ${pct} % of a word’s attention moves (at “${word}”): you can see it in the bars.`,
    'wo.readout': ({ query, key, value }) => `query ${query} → key ${key}: ${value}`,
    'wo.mixTitle': 'What each word receives: its attention output, as shares of the words it attends to',
    'wo.mixA': 'first order',
    'wo.legendA': 'upper bar: first order',
    'wo.sentence': 'whole sentence (mean)',
    'wo.legendB': 'lower bar: second order',
    'wo.mixB': 'second order',
    'wo.mixAria': ({ word, a, b }) => `${word}: first order ${a}; second order ${b}`,
    'wo.share': (word, pct) => `${word} ${pct}`,
    'wo.verdict.same-sentence': 'The two orders are the same sentence: reorder the second one to compare.',
    'wo.verdict.distances': ({ out, enc }) => `Identical here too (largest change ${out}): ${enc} without the mask only sees how far apart two words are, and this reordering keeps every distance. Try an order that is not the reverse.`,
    'wo.verdict.same-other': ({ out }) => `Identical (largest change ${out}): this reordering changes nothing the model can see.`,
    'wo.verdict.differs-mask': ({ size }) => `Different to the model: there is no positional encoding, but the causal mask lets each word see only the words before it, and which words come first depends on the order. ${size}`,
    'wo.verdict.differs-encoding': ({ enc, size }) => `Different to the model: ${enc} tells attention where each word is, so the same words in another order are a different input. ${size}`,
    'wo.verdict.differs-both': ({ enc, size }) => `Different to the model: ${enc} tells attention where each word is, and the causal mask hides the later words as well. ${size}`,
    'sm.title': 'How a row of scores becomes weights: softmax, step by step',
    'sm.explain': 'Pick a query word of the first order and step through what softmax does to its row. The numbers are the demo’s own: its head’s weights, and the scores they come from.',
    'sm.query': 'Query word',
    'sm.back': '◀ Back',
    'sm.next': 'Next ▶',
    'sm.play': '▶ Play',
    'sm.pause': '❚❚ Pause',
    'sm.masked': 'masked',
    'sm.stage.scores': ({ q, list }) => `1 of 3 · The scores of “${q}” against each word (q·k/√d), minus the largest: softmax only looks at their differences. ${list}.`,
    'sm.stage.exps': ({ list, sum, top }) => `2 of 3 · e to the power of each: the largest (“${top}”) becomes 1 and the others shrink fast (a score 1 lower gives 0.37, 3 lower 0.05). ${list}; their sum is ${sum}.`,
    'sm.stage.weights': ({ list, sum }) => `3 of 3 · Each divided by the sum, ${sum}: the attention weights, which add up to 1. ${list}.`,
  },
  ko: {
    'wo.a': '첫 번째 순서',
    'wo.b': '두 번째 순서 (같은 단어들)',
    'wo.chips': '단어를 끌어서 (또는 포커스를 두고 ← → 키로) 두 번째 문장의 순서를 바꿉니다',
    'wo.reverse': '뒤집기',
    'wo.shuffle': '섞기',
    'wo.encoding': '위치 인코딩',
    'wo.enc.none': '없음',
    'wo.causal': '인과 마스크 (각 단어는 앞에 나온 단어만 봅니다)',
    'wo.notReorder': (b) => `“${b}”는 첫 문장의 단어를 다시 늘어놓은 것이 아닙니다. 같은 단어를 같은 횟수만큼 쓰세요. 화면에는 마지막으로 올바른 쌍이 남아 있습니다.`,
    'wo.empty': '두 단어 이상의 문장을 입력하세요.',
    'wo.too-long': (n) => `여기서는 ${n}단어까지만 됩니다.`,
    'wo.query': '쿼리 ↓',
    'wo.key': '키 →',
    'wo.figA': '어텐션, 첫 번째 순서',
    'wo.figB': '어텐션, 두 번째 순서',
    'wo.figD': '차이: 두 번째를 첫 번째 순서로 되돌린 것 − 첫 번째',
    'wo.weight': '어텐션 가중치',
    'wo.delta': '차이 (어텐션 그림과 같은 눈금)',
    'wo.note': '여기서 단어 벡터와 어텐션 헤드는 학습하지 않은 무작위 값입니다 (두 순서에 같은 시드를 씁니다). 그림이 보여 주는 것은 위치가 무엇을 바꾸는지이지, 학습된 모델이 어디에 주목하는지가 아닙니다.',
    'wo.alibiHeads': ({ heads, m }) => `ALiBi는 헤드마다 기울기가 다릅니다. 여기서는 헤드 ${heads}개 가운데 거리에 가장 민감한, 가장 가파른 헤드(m = ${m})를 보여 줍니다. 가장 완만한 헤드(m = 1/256)는 한 칸마다 점수를 1/256만 깎으므로, 몇 단어짜리 문장에서는 거의 아무것도 바꾸지 못합니다.`,
    'wo.size.tiny': ({ pct, word }) => `다만 변화는 아주 작습니다. 한 단어의 어텐션 가운데 많아야 ${pct}%가 옮겨 갈 뿐이라(“${word}”에서), 막대로도 그림으로도 보이지 않습니다.`,
    'wo.size.small': ({ pct, word }) => `변화는 작습니다. 한 단어의 어텐션 가운데 많아야 ${pct}%가 옮겨 갑니다(“${word}”에서). 막대를 자세히 보세요.`,
    'wo.size.clear': ({ pct, word }) => `한 단어의 어텐션 가운데 최대 ${pct}%가 옮겨 갑니다(“${word}”에서). 막대에서도 뚜렷이 보입니다.`,
    'wo.readout': ({ query, key, value }) => `쿼리 ${query} → 키 ${key}: ${value}`,
    'wo.mixTitle': '단어마다 받는 것: 어텐션 출력에서 각 단어가 차지하는 몫',
    'wo.mixA': '첫 번째 순서',
    'wo.legendA': '위 막대: 첫 번째 순서',
    'wo.sentence': '문장 전체 (평균)',
    'wo.legendB': '아래 막대: 두 번째 순서',
    'wo.mixB': '두 번째 순서',
    'wo.mixAria': ({ word, a, b }) => `${word}: 첫 번째 순서 ${a}; 두 번째 순서 ${b}`,
    'wo.share': (word, pct) => `${word} ${pct}`,
    'wo.verdict.same-sentence': '두 순서가 같은 문장입니다. 두 번째 문장의 순서를 바꿔서 비교해 보세요.',
    'wo.verdict.distances': ({ out, enc }) => `이번에도 똑같습니다 (최대 변화 ${out}). 마스크가 없으면 이 바이어스(${enc})는 두 단어가 얼마나 떨어져 있는지만 보는데, 이 순서는 모든 거리를 그대로 둡니다. 뒤집기가 아닌 다른 순서로 바꿔 보세요.`,
    'wo.verdict.same-other': ({ out }) => `똑같습니다 (최대 변화 ${out}). 이렇게 바꿔서는 모델이 볼 수 있는 것이 달라지지 않습니다.`,
    'wo.verdict.differs-mask': ({ size }) => `달라졌습니다. 위치 인코딩은 없지만, 인과 마스크 때문에 각 단어는 앞의 단어만 봅니다. 어떤 단어가 앞에 오느냐는 순서에 달려 있습니다. ${size}`,
    'wo.verdict.differs-encoding': ({ enc, size }) => `달라졌습니다. 위치 인코딩(${enc})이 단어마다 위치를 알려 주므로, 같은 단어라도 순서가 다르면 다른 입력이 됩니다. ${size}`,
    'wo.verdict.differs-both': ({ enc, size }) => `달라졌습니다. 위치 인코딩(${enc})이 단어마다 위치를 알려 주고, 인과 마스크도 뒤의 단어를 가립니다. ${size}`,
    'sm.title': '점수 한 줄이 가중치가 되기까지: 소프트맥스를 한 단계씩',
    'sm.explain': '첫 번째 순서에서 쿼리 단어를 하나 고르고, 소프트맥스가 그 행에 하는 일을 단계별로 따라가 보세요. 숫자는 데모의 것 그대로입니다. 헤드의 가중치와, 그 가중치를 만든 점수입니다.',
    'sm.query': '쿼리 단어',
    'sm.back': '◀ 이전',
    'sm.next': '다음 ▶',
    'sm.play': '▶ 재생',
    'sm.pause': '❚❚ 멈춤',
    'sm.masked': '가려짐',
    'sm.stage.scores': ({ q, list }) => `1/3 · “${q}”의 단어별 점수(q·k/√d)에서 가장 큰 점수를 뺀 값입니다. 소프트맥스는 점수의 차이만 봅니다. ${list}.`,
    'sm.stage.exps': ({ list, sum, top }) => `2/3 · 각 값에 e의 거듭제곱을 취하면 가장 큰 점수(“${top}”)는 1이 되고, 나머지는 빠르게 작아집니다(1 낮으면 0.37, 3 낮으면 0.05). ${list}. 합은 ${sum}입니다.`,
    'sm.stage.weights': ({ list, sum }) => `3/3 · 각 값을 그 합(${sum})으로 나누면 어텐션 가중치가 되고, 모두 더하면 1입니다. ${list}.`,
  },
};
STRINGS.en['wo.verdict.bag'] = ({ out, a, b }) => `Identical (the largest change in what a word receives is ${out}): with no positions and no mask, attention sees only which words are there, so “${a}” and “${b}” are the same bag of words to it.`;
STRINGS.ko['wo.verdict.bag'] = ({ out, a, b }) => `똑같습니다 (단어가 받는 것의 최대 변화 ${out}). 위치도 마스크도 없으면 어텐션은 어떤 단어가 있는지만 봅니다. 그래서 “${a}”와 “${b}”는 같은 단어 주머니일 뿐입니다.`;
registerStrings(STRINGS);

/** Encodings the demo offers (any attention encoding works through `set`). */
export const DEMO_ENCODINGS = ['none', 'sinusoidal', 'learned', 'rope', 'alibi', 't5', 'shaw'];
export const ENCODING_NAMES = {
  en: { sinusoidal: 'the sinusoidal encoding', learned: 'a learned table', rope: 'RoPE', alibi: 'ALiBi', t5: 'T5\'s bias', shaw: 'Shaw\'s relative encoding', integer: 'the integer encoding', binary: 'the binary encoding', distance: 'the distance bias', mrope: 'M-RoPE' },
  ko: { sinusoidal: '사인파', learned: '학습된 표', rope: 'RoPE', alibi: 'ALiBi', t5: 'T5', shaw: 'Shaw', integer: '정수', binary: '이진수', distance: '거리 함수', mrope: 'M-RoPE' },
};
const SHORT = { none: null, sinusoidal: 'sinusoidal', learned: 'learned', rope: 'RoPE', alibi: 'ALiBi', t5: 'T5', shaw: 'Shaw' };
export const MAX_WORDS = 24;

// Okabe & Ito's palette: one colour per distinct word in the share bars, and the ink of a word
// written on it: white on the two dark ones, black on the others (white on orange or sky blue is
// 2.3 : 1; each pair here is at least 4.5 : 1, WCAG AA for small text).
const WORD_COLORS = ['#0072b2', '#e69f00', '#009e73', '#d55e00', '#cc79a7', '#56b4e9', '#9c8a00', '#4d4d4d'];
const WORD_INKS = ['#ffffff', '#000000', '#000000', '#000000', '#000000', '#000000', '#000000', '#ffffff'];
const wordColor = (v) => WORD_COLORS[v % WORD_COLORS.length];
const wordInk = (v) => WORD_INKS[v % WORD_INKS.length];

const pct = (x) => `${Math.round(x * 100)}%`;
/** A colour-bar end: three significant digits. */
const tick = (x) => (x === 0 ? '0' : Number(x.toPrecision(3)).toString().replace('-', '−'));
const num = (x) => (Math.abs(x) < 1e-6 ? (x === 0 ? '0' : x.toExponential(1)) : Number(x.toPrecision(3)).toString());

/** One below the first heading of the section or article around `el` (h4 when there is none). */
function subheadingLevel(el) {
  const heading = el.closest('section, article')?.querySelector('h1, h2, h3, h4, h5');
  return heading ? Math.min(6, Number(heading.tagName[1]) + 1) : 4;
}

/** A Fisher–Yates shuffle that moves something when n > 1. */
function shuffled(list) {
  const p = [...list];
  if (new Set(list).size < 2) return p;
  do {
    for (let i = p.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [p[i], p[j]] = [p[j], p[i]];
    }
  } while (p.every((w, i) => w === list[i]));
  return p;
}

/**
 * A labelled n × n picture: tokens above (keys) and on the left (queries), a titled colour bar,
 * and a read-out of the cell under the pointer. Returns { el, canvas, draw(values, rowLabels,
 * colLabels, range, map) }.
 */
function matrixFigure(t, colorize, title, valueTitle, readout) {
  const canvas = h('canvas', { class: 'wo-canvas', role: 'img', tabindex: 0 });
  const cols = h('div', { class: 'wo-cols', 'aria-hidden': 'true' });
  const rows = h('div', { class: 'wo-rows', 'aria-hidden': 'true' });
  const cbar = h('canvas', { class: 'wo-cbar-canvas', width: 128, height: 1, 'aria-hidden': 'true' });
  const lo = h('span');
  const hi = h('span');
  const el = h('figure', { class: 'wo-fig' },
    h('figcaption', { text: title }),
    h('div', { class: 'wo-mat' },
      h('div', { class: 'wo-corner', 'aria-hidden': 'true' }, h('span', { text: t('wo.key') }), h('span', { text: t('wo.query') })),
      cols, rows, canvas),
    h('div', { class: 'wo-cbar' }, h('span', { class: 'wo-cbar-title', text: valueTitle }),
      h('div', { class: 'wo-cbar-scale' }, lo, cbar, hi)));
  let last = null;
  canvas.addEventListener('pointermove', (e) => {
    if (!last) return;
    const r = canvas.getBoundingClientRect();
    const n = last.n;
    const col = Math.floor(((e.clientX - r.left) / r.width) * n);
    const row = Math.floor(((e.clientY - r.top) / r.height) * n);
    if (row < 0 || row >= n || col < 0 || col >= n) return;
    readout.textContent = t('wo.readout', {
      query: `“${last.rowLabels[row]}” (${row})`, key: `“${last.colLabels[col]}” (${col})`, value: num(last.values[row * n + col]),
    });
  });
  return {
    el,
    canvas,
    draw(values, rowLabels, colLabels, [vmin, vmax], map) {
      const n = rowLabels.length;
      last = { values, rowLabels, colLabels, n };
      el.style.setProperty('--n', String(n));
      canvas.width = n;
      canvas.height = n;
      const rgba = colorize(Float32Array.from(values), { map, vmin, vmax });
      canvas.getContext('2d').putImageData(new ImageData(rgba, n, n), 0, 0);
      cols.replaceChildren(...colLabels.map((w) => h('span', { text: w, title: w })));
      rows.replaceChildren(...rowLabels.map((w) => h('span', { text: w, title: w })));
      const ramp = new Float32Array(128);
      for (let i = 0; i < 128; i++) ramp[i] = vmin + ((vmax - vmin) * i) / 127;
      cbar.getContext('2d').putImageData(new ImageData(colorize(ramp, { map, vmin, vmax }), 128, 1), 0, 0);
      lo.textContent = tick(vmin);
      hi.textContent = tick(vmax);
      canvas.setAttribute('aria-label', `${title}: ${rowLabels.join(' ')}`);
    },
  };
}

/**
 * Mounts the demo in `el`. opts: { pe, t, a, b, encoding (a spec without length/dim, or null),
 * causal, encodings (the kinds offered), onChange(state), headingLevel (of the shares' title;
 * by default one below the heading of the section or article `el` sits in: h4 in an explorer
 * view, h3 in a Learn step) }.
 */
export function mountWordOrder(el, { pe, t, a = 'I love AI', b = 'AI love I', encoding = null, causal = false, encodings = DEMO_ENCODINGS, onChange = null, headingLevel = null }) {
  ensureStyles(new URL('./word-order.css', import.meta.url));
  const colorize = (v, o) => pe.colorize(v, o);
  const lang = t.lang === 'ko' ? 'ko' : 'en';
  const id = uid('wo');
  const words = (x) => (Array.isArray(x) ? [...x] : wordsOf(x));   // a text or a list of words
  const state = { a: words(a), b: words(b), encoding, causal };

  const inputA = h('input', { id: `${id}-a`, type: 'text', class: 'wo-text', spellcheck: 'false', autocomplete: 'off' });
  const inputB = h('input', { id: `${id}-b`, type: 'text', class: 'wo-text', spellcheck: 'false', autocomplete: 'off' });
  inputA.value = state.a.join(' ');
  inputB.value = state.b.join(' ');
  const chips = h('ol', { class: 'wo-chips', 'aria-label': t('wo.chips') });
  const reverse = h('button', { type: 'button', class: 'button', text: t('wo.reverse') });
  const shuffle = h('button', { type: 'button', class: 'button', text: t('wo.shuffle') });
  const select = h('select', { id: `${id}-enc`, class: 'wo-enc', 'data-learn-control': '' });
  const kinds = [...encodings];
  if (encoding && !kinds.includes(encoding.kind)) kinds.push(encoding.kind);
  for (const k of kinds) select.append(h('option', { value: k, text: k === 'none' ? t('wo.enc.none') : (SHORT[k] ?? k) }));
  select.value = encoding?.kind ?? 'none';
  const causalBox = h('input', { id: `${id}-causal`, type: 'checkbox', class: 'wo-causal' });
  causalBox.checked = causal;
  const message = h('p', { class: 'wo-message', role: 'status' });
  const note = h('p', { class: 'wo-note help' });
  const verdict = h('p', { class: 'wo-verdict', 'aria-live': 'polite' });
  const readout = h('p', { class: 'wo-readout', 'aria-live': 'polite' });
  const figA = matrixFigure(t, colorize, t('wo.figA'), t('wo.weight'), readout);
  const figB = matrixFigure(t, colorize, t('wo.figB'), t('wo.weight'), readout);
  const figD = matrixFigure(t, colorize, t('wo.figD'), t('wo.delta'), readout);
  const mix = h('div', { class: 'wo-mix' });
  const smBox = h('div', { class: 'wo-softmax' });
  el.classList.add('wo');
  el.append(
    h('div', { class: 'wo-inputs' },
      h('div', { class: 'wo-field' }, h('label', { for: inputA.id, text: t('wo.a') }), inputA),
      h('div', { class: 'wo-field' }, h('label', { for: inputB.id, text: t('wo.b') }), inputB)),
    h('div', { class: 'wo-row' }, chips, reverse, shuffle),
    h('div', { class: 'wo-row' },
      h('div', { class: 'wo-field wo-inline' }, h('label', { for: select.id, text: t('wo.encoding') }), select),
      h('div', { class: 'field-row field-check' }, causalBox, h('label', { for: causalBox.id, text: t('wo.causal') }))),
    message, verdict, note,
    h('div', { class: 'wo-figs' }, figA.el, figB.el, figD.el),
    readout,
    h(`h${headingLevel ?? subheadingLevel(el)}`, { class: 'wo-mix-title', text: t('wo.mixTitle') }), mix, smBox);
  const softmax = mountSoftmaxRow(smBox, { t, headingLevel: headingLevel ?? subheadingLevel(el) });

  // --- the second order's words as chips: drag, or ← → on a focused chip
  let dragFrom = -1;
  function renderChips() {
    chips.replaceChildren(...state.b.map((w, i) => {
      const li = h('li', { class: 'wo-chip', draggable: 'true', tabindex: 0, 'data-index': String(i), text: w });
      li.addEventListener('dragstart', (e) => {
        dragFrom = i;
        e.dataTransfer?.setData('text/plain', String(i));
      });
      li.addEventListener('dragover', (e) => e.preventDefault());
      li.addEventListener('drop', (e) => {
        e.preventDefault();
        const from = dragFrom >= 0 ? dragFrom : Number(e.dataTransfer?.getData('text/plain'));
        dragFrom = -1;
        if (Number.isInteger(from) && from !== i) move(from, i);
      });
      li.addEventListener('keydown', (e) => {
        const to = e.key === 'ArrowLeft' ? i - 1 : e.key === 'ArrowRight' ? i + 1 : -1;
        if (to < 0 || to >= state.b.length) return;
        e.preventDefault();
        move(i, to);
        chips.children[to]?.focus();
      });
      return li;
    }));
  }
  function move(from, to) {
    const next = [...state.b];
    const [w] = next.splice(from, 1);
    next.splice(to, 0, w);
    setB(next);
  }
  function setB(words) {
    state.b = words;
    inputB.value = words.join(' ');
    run();
  }

  inputA.addEventListener('input', () => {
    // A new first sentence: the second becomes its reverse, the classic pair.
    state.a = wordsOf(inputA.value);
    state.b = [...state.a].reverse();
    inputB.value = state.b.join(' ');
    run();
  });
  inputB.addEventListener('input', () => {
    state.b = wordsOf(inputB.value);
    run({ keepText: true });
  });
  reverse.addEventListener('click', () => setB([...state.b].reverse()));
  shuffle.addEventListener('click', () => setB(shuffled(state.b)));
  select.addEventListener('change', () => {
    state.encoding = select.value === 'none' ? null : { kind: select.value };
    run();
  });
  causalBox.addEventListener('change', () => {
    state.causal = causalBox.checked;
    run();
  });

  let good = null;
  function run({ keepText = false } = {}) {
    if (!keepText) renderChips();
    message.textContent = '';
    if (state.a.length < 2) {
      message.textContent = t('wo.empty');
      return;
    }
    if (state.a.length > MAX_WORDS) {
      message.textContent = t('wo.too-long', MAX_WORDS);
      return;
    }
    if (!matchOrder(state.a, state.b)) {
      message.textContent = t('wo.notReorder', state.b.join(' '));
      return;
    }
    if (keepText) renderChips();
    let c;
    try {
      c = compareOrders(pe, state.a, state.b, { encoding: state.encoding, causal: state.causal, ...demoHeads(state.encoding) });
    } catch (err) {
      message.textContent = err?.message ?? String(err);
      return;
    }
    good = c;
    draw(c);
    onChange?.(api.state());
  }

  function draw(c) {
    const n = c.a.length;
    softmax.set({ words: c.a, weights: c.weightsA });
    let wmax = 0;
    for (const v of [c.weightsA, c.weightsB]) for (let i = 0; i < v.length; i++) wmax = Math.max(wmax, v[i]);
    figA.draw(c.weightsA, c.a, c.a, [0, wmax || 1], 'viridis');
    figB.draw(c.weightsB, c.b, c.b, [0, wmax || 1], 'viridis');
    // The difference on the weights' own scale: a change too small to see in the two pictures
    // stays faint here too (autoscaling it would paint rounding-sized changes at full colour).
    const span = wmax || 1;
    figD.draw(c.diff, c.a, c.a, [-span, span], 'diverging');
    el.dataset.diffRange = String(span);

    // What each word receives, first order above second, one colour per word.
    const V = c.vocab.length;
    const bar = (row, label) => h('div', { class: 'wo-bar', title: label },
      ...c.vocab.map((w, v) => {
        const seg = h('span', { class: 'wo-seg', title: t('wo.share', w, pct(row[v])), text: row[v] >= 0.12 ? w : '' });
        // CSSOM, not a style attribute: the page's CSP allows no inline styles.
        seg.style.width = `${(row[v] * 100).toFixed(2)}%`;
        seg.style.background = wordColor(v);
        seg.style.color = wordInk(v);
        return seg;
      }));
    const rowsEl = [];
    let worst = { i: 0, d: -1 };
    for (let i = 0; i < n; i++) {
      const ra = c.mixA.subarray(i * V, (i + 1) * V);
      const rb = c.mixBack.subarray(i * V, (i + 1) * V);
      let d = 0;
      for (let v = 0; v < V; v++) d = Math.max(d, Math.abs(ra[v] - rb[v]));
      if (d > worst.d) worst = { i, d };
      const text = (row) => c.vocab.map((w, v) => t('wo.share', w, pct(row[v]))).join(', ');
      rowsEl.push(h('div', { class: 'wo-mix-row', role: 'group', 'aria-label': t('wo.mixAria', { word: c.a[i], a: text(ra), b: text(rb) }) },
        h('span', { class: 'wo-mix-word', text: c.a[i] }),
        h('div', { class: 'wo-mix-bars' }, bar(ra, `${t('wo.mixA')}: ${text(ra)}`), bar(rb, `${t('wo.mixB')}: ${text(rb)}`))));
    }
    // The sentence as one vector: the mean of every token's output (mean pooling). Without
    // positions and mask it is the same for any order: a set, not a sequence.
    const meanOf = (rows) => {
      const out = new Float64Array(V);
      for (let i = 0; i < n; i++) for (let v = 0; v < V; v++) out[v] += rows[i * V + v] / n;
      return out;
    };
    const sa = meanOf(c.mixA);
    const sb = meanOf(c.mixBack);
    let sentenceDiff = 0;
    for (let v = 0; v < V; v++) sentenceDiff = Math.max(sentenceDiff, Math.abs(sa[v] - sb[v]));
    const textOf = (row) => c.vocab.map((w, v) => t('wo.share', w, pct(row[v]))).join(', ');
    rowsEl.push(h('div', { class: 'wo-mix-row wo-mix-sentence', role: 'group', 'aria-label': t('wo.mixAria', { word: t('wo.sentence'), a: textOf(sa), b: textOf(sb) }) },
      h('span', { class: 'wo-mix-word', text: t('wo.sentence') }),
      h('div', { class: 'wo-mix-bars' }, bar(sa, `${t('wo.mixA')}: ${textOf(sa)}`), bar(sb, `${t('wo.mixB')}: ${textOf(sb)}`))));
    el.dataset.sentenceDiff = String(sentenceDiff);
    mix.replaceChildren(h('div', { class: 'wo-mix-legend' },
      h('span', { class: 'wo-legend-a', text: t('wo.legendA') }), h('span', { class: 'wo-legend-b', text: t('wo.legendB') }),
      ...c.vocab.map((w, v) => {
        const swatch = h('i');
        swatch.style.background = wordColor(v);
        return h('span', { class: 'wo-key' }, swatch, w);
      })), ...rowsEl);

    const key = verdictOf(c, state);
    const enc = state.encoding ? ENCODING_NAMES[lang][state.encoding.kind] ?? state.encoding.kind : null;
    const size = effectSize(c.outDiff);
    const sizeText = size === 'none' ? '' : t(`wo.size.${size}`, { pct: percentOf(c.outDiff), word: c.a[worst.i] });
    verdict.textContent = t(`wo.verdict.${key}`, {
      out: num(c.outDiff), word: c.a[worst.i], enc, a: c.a.join(' '), b: c.b.join(' '), size: sizeText,
    }).trim();
    const heads = demoHeads(state.encoding);
    note.textContent = heads.head === null ? t('wo.note') : `${t('wo.note')} ${t('wo.alibiHeads', { heads: heads.heads, m: fraction(heads.slope) })}`;
    el.dataset.size = size;
    el.dataset.head = heads.head === null ? 'mean' : String(heads.head);
    verdict.className = `wo-verdict ${key.startsWith('differs') ? 'is-differs' : 'is-same'}`;
    readout.textContent = '';
    el.dataset.outDiff = String(c.outDiff);
    el.dataset.weightDiff = String(c.weightDiff);
    el.dataset.verdict = key;
    el.dataset.drawn = String(Number(el.dataset.drawn || 0) + 1);
  }

  const api = {
    /** Change the pair, the encoding or the mask from outside (strings or word lists). */
    set(patch) {
      if (patch.a !== undefined) {
        state.a = words(patch.a);
        inputA.value = state.a.join(' ');
      }
      if (patch.b !== undefined) {
        state.b = words(patch.b);
        inputB.value = state.b.join(' ');
      }
      if (patch.encoding !== undefined) {
        state.encoding = patch.encoding;
        const k = patch.encoding?.kind ?? 'none';
        if (![...select.options].some((o) => o.value === k)) select.append(h('option', { value: k, text: SHORT[k] ?? k }));
        select.value = k;
      }
      if (patch.causal !== undefined) {
        state.causal = !!patch.causal;
        causalBox.checked = state.causal;
      }
      run();
    },
    /** { a, b, encoding, causal, result } (result: the last comparison drawn, or null). */
    state: () => ({ a: [...state.a], b: [...state.b], encoding: state.encoding, causal: state.causal, result: good }),
    destroy() {
      softmax.destroy();
    },
  };
  run();
  return api;
}
