// One query's attention over the keys: a curve per head (up to 8) and their average, for the
// query picked here or by clicking a heads picture (shared `attnQuery`). The strongest keys are
// listed with their tokens.
import { h, uid } from '../../plot/dom.js';
import { DataTable, spread } from '../datatable.js';
import { ensureAttentionStyles, meanRow, tokenLabel, weightText } from './common.js';
import { makePlot, readInt } from '../common.js';
import { MAX_CURVES } from '../../model/figure.js';

const TOP = 5;

export default {
  id: 'attention-row',
  kinds: ['attention'],
  title: { en: 'One query’s attention', ko: '쿼리 하나의 어텐션' },
  explain: {
    en: 'How one query spreads its attention over the keys: a curve per head and the head average (dashed). With a causal mask the keys after the query get nothing. Pick the query here, or click a row of a heads picture.',
    ko: '쿼리 하나가 키들에 어텐션을 나누는 모양: 헤드마다 곡선 하나와 헤드 평균 (점선). 인과 마스크가 있으면 쿼리 뒤의 키는 0입니다. 여기서 쿼리를 고르거나 헤드 그림의 행을 누르세요.',
  },

  mount(el, ctx) {
    ensureAttentionStyles();
    const { t } = ctx;
    const id = uid('attn-row');
    let state = null;
    let plot = null;
    let plotting = null;

    const input = h('input', { id: `${id}-q`, type: 'number', min: 0, step: 1, value: 0, inputmode: 'numeric' });
    const slider = h('input', { type: 'range', min: 0, step: 1, value: 0, 'aria-label': t('attention.row.slider') });
    const pick = (v) => ctx.setShared({ attnQuery: v });
    input.addEventListener('input', () => {
      const v = readInt(input, 0, Number(input.max));
      if (v !== null) pick(v);
    });
    slider.addEventListener('input', () => pick(Number(slider.value)));
    el.append(h('div', { class: 'view-toolbar' },
      h('div', { class: 'tool-field tool-grow' }, h('label', { for: input.id, text: t('attention.row.query') }), input, slider)));
    const summary = h('p', { class: 'attn-note', 'aria-live': 'polite' });
    const box = h('div', { class: 'attn-plot' });
    el.append(summary, box);
    const table = new DataTable(el, { summary: t('table.summary') });

    function query(n) {
      const q = state.shared.attnQuery ?? n - 1;
      return Math.min(Math.max(0, q | 0), n - 1);
    }

    function draw() {
      const { result } = state;
      const [H, n] = result.shape;
      const q = query(n);
      input.max = String(n - 1);
      slider.max = String(n - 1);
      if (document.activeElement !== input) input.value = String(q);
      slider.value = String(q);
      const mean = meanRow(result, q);
      const heads = Math.min(H, MAX_CURVES);
      const series = [];
      for (let k = 0; k < heads; k++) series.push({ label: t('attention.headN', k), values: result.data.subarray((k * n + q) * n, (k * n + q + 1) * n) });
      if (H > 1) series.push({ label: t('attention.mean'), values: mean, dash: true });
      const top = [...mean.keys()].sort((a, b) => mean[b] - mean[a]).slice(0, TOP).filter((j) => mean[j] > 0);
      summary.textContent = t('attention.row.summary', {
        query: tokenLabel(result, q),
        top: top.map((j) => `${tokenLabel(result, j)} ${mean[j].toFixed(3)}`).join(', '),
        heads: H,
      });
      const label = t('attention.row.aria', tokenLabel(result, q), H);
      if (!plot) {
        plotting ??= makePlot(box, { t, xLabel: t('attention.key'), yLabel: t('attention.weight'), label }).then((p) => {
          plot = p;
          if (state) draw();
        });
        return;
      }
      plot.box.setAttribute('aria-label', label);
      plot.setData({ series, x0: 0 });
      el.dataset.drawn = String(Number(el.dataset.drawn || 0) + 1);
      table.set(() => {
        const keys = spread(n, 24);
        return {
          caption: t('attention.row.caption', tokenLabel(result, q)),
          columns: [t('attention.key'), ...series.map((s) => s.label)],
          rows: keys.map((j) => [tokenLabel(result, j), ...series.map((s) => weightText(s.values[j]))]),
          note: keys.length < n ? t('attention.row.sampled', keys.length, n) : '',
        };
      });
    }

    return {
      update(next) {
        state = next;
        box.classList.toggle('stale', !!next.stale);
        if (next.changed.has('theme')) plot?.applyTheme();
        if (['result', 'shared:attnQuery'].some((c) => next.changed.has(c))) draw();
      },
      destroy() {
        plot?.destroy();
      },
    };
  },
};
