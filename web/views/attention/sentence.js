// The word-order lesson in the explorer: the same words in two orders ("I love AI", "AI love I",
// or the sentence of the parameters and its reverse), typed or dragged, attention over each with
// the tokens on both axes, their difference, and what each word receives, measured (the demo:
// ./word-order.js, its numbers: ./order.js). It starts from the explorer's encoding and mask and
// follows them when they change there; its own choices stay local until "Show in the other views"
// puts the second order into the parameters (content "tokens"), where the heads view labels it.
import { h } from '../../plot/dom.js';
import { registerStrings } from '../../i18n/index.js';
import { splitWords } from '../../api/schema/attention.js';
import { mountWordOrder, MAX_WORDS } from './word-order.js';

registerStrings({
  en: { 'wo.use': 'Show the second order in the other views' },
  ko: { 'wo.use': '두 번째 순서를 다른 보기에도 쓰기' },
});

const key = (spec) => JSON.stringify([spec.encoding, spec.causal]);

export default {
  id: 'attention-sentence',
  kinds: ['attention'],
  title: { en: 'Word order: the same words, two orders', ko: '단어 순서: 같은 단어, 두 가지 순서' },
  explain: {
    en: 'Type two orders of the same words, or drag the words of the second. Without a positional encoding and without the causal mask, attention only sees which words are there: every word receives exactly the same mix in both orders, and the difference picture is blank. Any encoding, or the mask alone, tells the orders apart; the sentence under the controls says which, from the measured difference.',
    ko: '같은 단어로 두 가지 순서를 입력하거나, 두 번째 문장의 단어를 끌어서 옮겨 보세요. 위치 인코딩도 인과 마스크도 없으면 어텐션은 어떤 단어가 있는지만 봅니다. 두 순서에서 단어마다 받는 것이 완전히 같고, 차이 그림은 비어 있습니다. 인코딩이 있거나 마스크만 있어도 두 순서가 갈립니다. 컨트롤 아래 문장이 잰 차이를 바탕으로 그 이유를 알려 줍니다.',
  },

  mount(el, ctx) {
    const { t } = ctx;
    let demo = null;
    let seen = null;
    const use = h('button', { type: 'button', class: 'button', text: t('wo.use') });
    use.addEventListener('click', () => {
      const s = demo?.state();
      if (!s?.result) return;
      ctx.setSpec({ content: 'tokens', tokens: s.b.join(' '), length: s.b.length, encoding: s.encoding, causal: s.causal });
    });

    return {
      update(state) {
        if (!state.changed.has('result') || state.stale) return;
        const spec = state.spec;
        if (!demo) {
          const words = spec.content === 'tokens' ? splitWords(spec.tokens) : [];
          const a = words.length >= 2 && words.length <= MAX_WORDS ? words : ['I', 'love', 'AI'];
          // The demo marks its drawings (data-drawn, data-verdict, …) on the view's body.
          demo = mountWordOrder(el, { pe: ctx.pe, t, a, b: [...a].reverse(), encoding: spec.encoding, causal: spec.causal });
          el.append(h('p', {}, use));
          seen = key(spec);
          return;
        }
        // The explorer's encoding or mask changed: the demo follows.
        if (key(spec) !== seen) {
          seen = key(spec);
          demo.set({ encoding: spec.encoding, causal: spec.causal });
        }
      },
      destroy() {
        demo?.destroy();
      },
    };
  },
};
