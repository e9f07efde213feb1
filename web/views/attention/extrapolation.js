// Extrapolation: how attention behaves past the length a model was trained on. For a training
// length T, each encoding's attention is computed up to 4T positions (causal, 8 heads, the
// spec's dim and seed; positions alone or random content), and one chart shows, against the
// query position, the head-averaged entropy of the weights (how spread out they are) or the
// mass on the 16 nearest keys (how local). The kernel reports both per query (result.entropy,
// result.local_mass), so no [length, length] table is read here.
import { h, uid } from '../../plot/dom.js';
import { formatInt, formatMs, formatValue } from '../../plot/format.js';
import { DataTable, spread } from '../datatable.js';
import { maxHeads } from '../../api/schema/attention.js';
import { ensureAttentionStyles } from './common.js';
import { makePlot, readInt } from '../common.js';

/** The training-length marker: a mid grey, readable on light and dark themes and unlike any curve. */
const MARK_COLOR = '#808080';

const FACTOR = 4;
const HEADS = 8;
const T_MIN = 8;
const T_MAX = 256;

/** The encodings compared, with the training length t (the scaled one needs it). */
export const ENCODINGS = [
  { key: 'none', encoding: () => null, dash: true },
  { key: 'sinusoidal', encoding: () => ({ kind: 'sinusoidal' }) },
  { key: 'rope', encoding: () => ({ kind: 'rope' }) },
  { key: 'ropeYarn', encoding: (t) => ({ kind: 'rope', rope_scaling: { rope_type: 'yarn', factor: FACTOR, original_max_position_embeddings: t } }) },
  { key: 'alibi', encoding: () => ({ kind: 'alibi' }) },
];

/**
 * Per encoding, the head-averaged entropy and local mass at every query position 0..4t−1.
 * Exported for the tests: { length, heads, series: [{ key, entropy: Float64Array, mass: Float64Array }] }.
 */
export function extrapolation(pe, { t, dim, seed, content }) {
  const length = FACTOR * t;
  const heads = Math.min(HEADS, maxHeads(length, dim));
  const series = ENCODINGS.map((e) => {
    const r = pe.compute({ kind: 'attention', length, dim, heads, causal: true, encoding: e.encoding(t), content, seed });
    const entropy = new Float64Array(length);
    const mass = new Float64Array(length);
    for (let k = 0; k < heads; k++) {
      for (let i = 0; i < length; i++) {
        entropy[i] += r.entropy[k * length + i] / heads;
        mass[i] += r.local_mass[k * length + i] / heads;
      }
    }
    return { key: e.key, dash: !!e.dash, entropy, mass };
  });
  return { length, heads, series };
}

export default {
  id: 'attention-extrapolation',
  kinds: ['attention'],
  title: { en: 'Past the training length', ko: '학습 길이 너머' },
  explain: {
    en: 'Each encoding’s attention at every query position up to 4× a training length T (causal, 8 heads averaged). Entropy is how spread out a query’s attention is (ln of the number of keys it would cover evenly); the mass on the 16 nearest keys is how local it is. Without an encoding (dashed) attention is uniform over the visible keys: entropy ln(i + 1), local mass 16/(i + 1). A sinusoidal table added to q and k keeps only a mild preference for nearby keys; RoPE’s rotation concentrates attention near the diagonal, but its local mass keeps falling as the text grows; YaRN (factor 4 over T) stretches the slow frequencies, widening that peak; ALiBi’s distance penalty makes entropy and local mass level off: attention at 4T looks like attention at T.',
    ko: '학습 길이 T의 4배까지 모든 쿼리 위치에서 인코딩마다의 어텐션 (인과, 8개 헤드 평균). 엔트로피는 쿼리의 어텐션이 얼마나 퍼졌는지 (고르게 덮는 키 수의 ln), 가장 가까운 16개 키의 질량은 얼마나 국소적인지입니다. 인코딩이 없으면 (점선) 어텐션은 보이는 키에 고르게 퍼집니다: 엔트로피 ln(i + 1), 국소 질량 16/(i + 1). q와 k에 더한 사인파 표는 가까운 키를 약하게만 선호합니다. RoPE의 회전은 어텐션을 대각선 근처에 모으지만 글이 길어질수록 국소 질량이 계속 줄어듭니다. YaRN (T에 대해 배수 4)은 느린 주파수를 늘여 봉우리를 넓힙니다. ALiBi의 거리 벌점은 엔트로피와 국소 질량을 평평하게 만듭니다: 4T에서의 어텐션이 T에서와 같아 보입니다.',
  },

  mount(el, ctx) {
    ensureAttentionStyles();
    const { t } = ctx;
    const id = uid('attn-extra');
    let state = null;
    let plot = null;
    let plotting = null;
    let facts = null;
    let factsKey = '';
    let plotted = ''; // factsKey|metric of the curves the plot shows
    let timer = 0;

    const tInput = h('input', { id: `${id}-t`, type: 'number', min: T_MIN, max: T_MAX, step: 1, value: 128, inputmode: 'numeric' });
    const metric = h('select', { id: `${id}-metric` },
      h('option', { value: 'entropy', text: t('attention.extra.entropy') }),
      h('option', { value: 'mass', text: t('attention.extra.mass') }));
    const content = h('select', { id: `${id}-content` },
      h('option', { value: 'none', text: t('attention.extra.positions') }),
      h('option', { value: 'random', text: t('attention.extra.random') }));
    const stats = h('p', { class: 'view-stats' });
    el.append(h('div', { class: 'view-toolbar' },
      h('div', { class: 'tool-field' }, h('label', { for: tInput.id, text: t('attention.extra.train') }), tInput),
      h('div', { class: 'tool-field' }, h('label', { for: metric.id, text: t('attention.extra.metric') }), metric),
      h('div', { class: 'tool-field' }, h('label', { for: content.id, text: t('attention.extra.content') }), content),
      stats));
    const note = h('p', { class: 'attn-note' });
    const box = h('div', { class: 'attn-plot' });
    el.append(note, box);
    const table = new DataTable(el, { summary: t('table.summary') });

    tInput.addEventListener('input', () => {
      const v = readInt(tInput, T_MIN, T_MAX);
      if (v !== null) ctx.setShared({ attnTrain: v });
    });
    metric.addEventListener('input', () => ctx.setShared({ attnMetric: metric.value }));
    content.addEventListener('input', () => ctx.setShared({ attnExtraContent: content.value }));

    function settings() {
      const s = state.shared;
      return {
        t: Number.isInteger(s.attnTrain) ? s.attnTrain : 128,
        dim: state.spec.dim,
        seed: s.attnExtraContent === 'random' ? state.spec.seed : 0,   // positions alone: no seed
        content: s.attnExtraContent === 'random' ? 'random' : 'none',
      };
    }

    function plotNow() {
      const m = state.shared.attnMetric === 'mass' ? 'mass' : 'entropy';
      const series = facts.series.map((s) => ({ label: t(`attention.extra.${s.key}`), values: s[m], dash: s.dash }));
      const label = t('attention.extra.aria', { metric: t(`attention.extra.${m}`), n: facts.length, t: facts.train });
      if (!plot) {
        plotting ??= makePlot(box, { t, xLabel: t('attention.extra.x'), yLabel: t(`attention.extra.${m}`), label }).then((p) => {
          plot = p;
          plotNow();
        });
        return;
      }
      plot.setLabels({ y: t(`attention.extra.${m}`) });
      plot.box.setAttribute('aria-label', label);
      // The training length, marked where the note says extrapolation starts.
      plot.batch(() => {
        plot.setMarkers([{ x: facts.train, label: t('attention.extra.mark', facts.train), color: MARK_COLOR }]);
        plot.setData({ series, x0: 0 });
      });
      el.dataset.markT = String(facts.train);
      plotted = `${factsKey}|${m}`;
      el.dataset.drawn = String(Number(el.dataset.drawn || 0) + 1);
      note.textContent = t('attention.extra.note', { t: facts.train, n: facts.length, heads: facts.heads });
      table.set(() => {
        const rows = spread(facts.length, 20);
        return {
          caption: t('attention.extra.caption', t(`attention.extra.${m}`)),
          columns: [t('attention.extra.x'), ...series.map((s) => s.label)],
          rows: rows.map((i) => [formatInt(i), ...series.map((s) => formatValue(s.values[i]))]),
          note: '',
        };
      });
    }

    // Recomputed only when what it depends on changes, and off the frame that drew the result.
    function refresh() {
      const s = settings();
      tInput.value = String(s.t);
      metric.value = state.shared.attnMetric === 'mass' ? 'mass' : 'entropy';
      content.value = s.content;
      const key = JSON.stringify(s);
      if (facts && key === factsKey) {
        // The same curves as drawn (a new result of another encoding, e.g. a slider drag): no
        // redraw of the line plot.
        if (!plot || plotted !== `${factsKey}|${metric.value}`) plotNow();
        return;
      }
      clearTimeout(timer);
      stats.textContent = t('attention.extra.computing');
      timer = setTimeout(() => {
        const t0 = performance.now();
        try {
          facts = { ...extrapolation(ctx.pe, s), train: s.t };
          factsKey = key;
          stats.textContent = t('attention.extra.stats', formatMs(performance.now() - t0));
          el.dataset.done = '1';
          plotNow();
        } catch (e) {
          stats.textContent = e.message;
        }
      }, 30);
    }

    return {
      update(next) {
        state = next;
        if (next.changed.has('theme')) plot?.applyTheme();
        if (['result', 'shared:attnTrain', 'shared:attnMetric', 'shared:attnExtraContent'].some((c) => next.changed.has(c))) refresh();
      },
      destroy() {
        clearTimeout(timer);
        plot?.destroy();
      },
    };
  },
};
