// How one row of scores becomes attention weights (issue 29, "motion where it explains"): for a
// query word of the word-order demo (./word-order.js), its row of the demo's head, in three stages
// the learner steps through or plays:
//   1. the scores minus their largest, s_j − max s. Softmax does not change when every score of a
//      row moves by the same amount, so the kernel's weights give these exactly:
//      s_j − max s = ln w_j − ln max w (a masked key, w_j = 0, has no score: it is left out);
//   2. e^(s_j − max s) = w_j / max w: each score becomes a positive size, the largest exactly 1;
//   3. divided by their sum Σ e^(s_j − max s) = 1 / max w: the weights, which add up to 1.
// The bars move between the stages (a CSS transition on their width; none when the reader asks
// for reduced motion). Numbers only from the head's weights, float64.
import { h, uid } from '../../plot/dom.js';

/** The three stages of one row of softmax weights w (ArrayLike, a masked key 0). */
export function softmaxStages(w) {
  let top = 0;
  for (let j = 0; j < w.length; j++) top = Math.max(top, w[j]);
  const masked = Array.from(w, (v) => !(v > 0));
  const scores = Array.from(w, (v, j) => (masked[j] ? -Infinity : Math.log(v) - Math.log(top)));
  const exps = Array.from(w, (v) => v / top);
  const sum = exps.reduce((s, v) => s + v, 0);
  const weights = exps.map((v) => v / sum);
  return { scores, exps, weights, sum, masked };
}

const STAGES = ['scores', 'exps', 'weights'];
const STEP_MS = 1400;

const num = (v) => (v === -Infinity ? '−∞' : Number(v.toFixed(Math.abs(v) >= 10 ? 1 : 2)).toString().replace('-', '−'));

/**
 * The panel: a query select, Back / Next / Play, the stage's sentence and one bar per key word.
 * set({ words, weights }) takes the first order's words and its [n, n] weights (row-major).
 */
export function mountSoftmaxRow(el, { t, headingLevel = 4 }) {
  const id = uid('sm');
  const query = h('select', { id: `${id}-q`, class: 'sm-query' });
  const back = h('button', { type: 'button', class: 'button', text: t('sm.back') });
  const next = h('button', { type: 'button', class: 'button', text: t('sm.next') });
  const play = h('button', { type: 'button', class: 'button primary', text: t('sm.play') });
  const caption = h('p', { class: 'sm-caption', 'aria-live': 'polite' });
  const bars = h('div', { class: 'sm-bars', role: 'list' });
  el.classList.add('sm');
  el.append(
    h(`h${headingLevel}`, { class: 'sm-title', text: t('sm.title') }),
    h('p', { class: 'help', text: t('sm.explain') }),
    h('div', { class: 'wo-row' },
      h('div', { class: 'wo-field wo-inline' }, h('label', { for: query.id, text: t('sm.query') }), query), back, next, play),
    caption, bars);
  let data = null;
  let stage = 0;
  let timer = 0;
  const reduced = () => globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;

  function stop() {
    clearTimeout(timer);
    timer = 0;
    play.textContent = t('sm.play');
  }
  function show(k) {
    stage = Math.max(0, Math.min(STAGES.length - 1, k));
    back.disabled = stage === 0;
    next.disabled = stage === STAGES.length - 1;
    draw();
  }
  function draw() {
    if (!data) return;
    const { words, weights } = data;
    const n = words.length;
    const q = Math.min(Number(query.value) || 0, n - 1);
    const st = softmaxStages(weights.subarray ? weights.subarray(q * n, (q + 1) * n) : weights.slice(q * n, (q + 1) * n));
    const name = STAGES[stage];
    const values = st[name];
    // Stage 1: bars to the left, on a scale of at least one unit of score (a score 1 lower is a
    // weight e times smaller), so differences of a few hundredths stay slivers; stages 2 and 3:
    // out of 1.
    const low = Math.min(...st.scores.filter((v) => v > -Infinity), -1);
    if (bars.children.length !== n) {
      bars.replaceChildren(...words.map((w) => h('div', { class: 'sm-item', role: 'listitem' },
        h('span', { class: 'sm-word', text: w }), h('span', { class: 'sm-track' }, h('span', { class: 'sm-bar' })), h('span', { class: 'sm-value' }))));
    }
    bars.classList.toggle('is-scores', name === 'scores');
    words.forEach((w, j) => {
      const item = bars.children[j];
      item.querySelector('.sm-word').textContent = w;
      const bar = item.querySelector('.sm-bar');
      const v = values[j];
      const frac = st.masked[j] ? 0 : name === 'scores' ? v / low : v;
      // CSSOM, not a style attribute: the page's CSP allows no inline styles.
      bar.style.width = `${(Math.max(0, Math.min(1, frac)) * 100).toFixed(2)}%`;
      item.classList.toggle('is-masked', st.masked[j]);
      item.querySelector('.sm-value').textContent = st.masked[j] ? t('sm.masked') : num(v);
    });
    const list = (vals) => words.map((w, j) => (st.masked[j] ? null : `${w} ${num(vals[j])}`)).filter(Boolean).join(', ');
    caption.textContent = t(`sm.stage.${name}`, { q: words[q], list: list(values), sum: num(st.sum), top: words[st.exps.indexOf(1)] ?? words[0] });
    el.dataset.stage = name;
    el.dataset.values = JSON.stringify(values.map((v) => (v === -Infinity ? null : v)));
  }
  function step() {
    if (stage >= STAGES.length - 1) {
      stop();
      return;
    }
    show(stage + 1);
    timer = setTimeout(step, reduced() ? 0 : STEP_MS);
  }
  back.addEventListener('click', () => { stop(); show(stage - 1); });
  next.addEventListener('click', () => { stop(); show(stage + 1); });
  play.addEventListener('click', () => {
    if (timer) {
      stop();
      return;
    }
    show(0);
    play.textContent = t('sm.pause');
    timer = setTimeout(step, reduced() ? 0 : STEP_MS);
  });
  query.addEventListener('input', () => { stop(); draw(); });

  return {
    /** The first order's words and its [n, n] weights (the demo's head). */
    set({ words, weights }) {
      const same = data && data.words.join('\u0000') === words.join('\u0000');
      data = { words, weights };
      if (!same) {
        const keep = Number(query.value) || 0;
        query.replaceChildren(...words.map((w, i) => h('option', { value: String(i), text: `${i + 1}. ${w}` })));
        query.value = String(Math.min(keep, words.length - 1));
        bars.replaceChildren();
      }
      show(stage);
    },
    destroy() {
      stop();
    },
  };
}
