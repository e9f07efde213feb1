// Add or concatenate? For x = e + p the attention logit x_i·x_j = e_i·e_j + p_i·p_j + (e_i·p_j +
// p_i·e_j) has cross terms; for x = [e; p] it is e_i·e_j + p_i·p_j exactly. This view measures the
// parts (root mean square over pairs of different patches, math.js crossTerms) on the grid shown:
// p = the grid rows of the shown table (class row left out), e = a random content table at ViT's
// initialisation N(0, 0.02²) from pe.compute (learned2d, init normal, the next seed); and the same
// for the other init of the table, so the two cases sit side by side. The numbers are also in
// data-values for the tests.
import { h } from '../../plot/dom.js';
import { both } from '../../i18n/index.js';
import { formatInt, formatValue } from '../../plot/format.js';
import { drawer } from '../common.js';
import { crossTerms, tokenPairs } from './math.js';
import { ensureLearnedStyles } from './style.js';

const CONTENT_STD = 0.02;
const INITS = ['sincos', 'normal'];

/** The grid of a learned2d spec as shown: the resized one when it is resized. */
const gridOf = (s) => ({ height: s.resize_height ?? s.height, width: s.resize_width ?? s.width });

export default {
  id: 'vision-sum-concat',
  kinds: ['learned2d'],
  title: both('vision.sc.title'),
  explain: both('vision.sc.explain'),

  mount(el, ctx) {
    ensureLearnedStyles();
    const { t, pe } = ctx;
    let state = null;
    const table = h('table', { class: 'sc-table mini-table' });
    const pairsText = h('p', { class: 'help' });
    const verdict = h('div', { class: 'sc-verdicts' });
    const concat = h('p', {});
    el.append(h('div', { class: 'table-scroll', tabindex: 0 }, table), pairsText, verdict, concat,
      h('p', { class: 'help', text: t('vision.sc.proj') }));

    /** The parts for the shown spec's table and for the same spec with the other init. */
    function measure() {
      const s = state.spec;
      const { height, width } = gridOf(s);
      const n = height * width;
      const prefix = s.cls_token ? 1 : 0;
      const seed = (s.seed + 1) % 2 ** 32;
      const e = pe.compute({ kind: 'learned2d', height, width, dim: s.dim, init: 'normal', std: CONTENT_STD, seed, cls_token: false }).data;
      const pairs = tokenPairs(n);
      const rows = [];
      for (const init of [s.init, ...INITS.filter((i) => i !== s.init)]) {
        let p;
        if (init === s.init) p = state.result.data;
        else if (init === 'sincos' && s.dim % 4 !== 0) continue; // MAE's table needs dim % 4 == 0
        else p = pe.compute({ ...s, init }).data;
        rows.push({ init, shown: init === s.init, ...crossTerms(e, p, prefix, s.dim, pairs) });
      }
      return { rows, n };
    }

    const drawing = drawer(el, () => {
      const { rows, n } = measure();
      const head = ['colTable', 'colPos', 'colContent', 'colCross', 'colRatio'].map((k) => h('th', { scope: 'col', text: t(`vision.sc.${k}`) }));
      table.replaceChildren(
        h('caption', { text: t('vision.sc.caption') }),
        h('thead', {}, h('tr', {}, head)),
        h('tbody', {}, rows.map((r) => {
          const name = t(`vision.sc.init.${r.init}`);
          return h('tr', { class: r.shown ? 'is-current' : null },
            h('th', { scope: 'row', text: r.shown ? t('vision.sc.rowShown', name) : name }),
            ...[r.position, r.content, r.cross, r.cross / r.position].map((v) => h('td', { text: formatValue(v) })));
        })),
      );
      pairsText.textContent = t('vision.sc.pairs', formatInt(rows[0].pairs), formatInt(n));
      verdict.replaceChildren(...rows.map((r) => {
        const ratio = r.cross / r.position;
        return h('span', { class: 'sc-verdict', text: t(ratio >= 0.5 ? 'vision.sc.big' : 'vision.sc.small', t(`vision.sc.init.${r.init}`), formatValue(ratio)) });
      }));
      concat.textContent = t('vision.sc.concat', formatValue(Math.max(...rows.map((r) => r.concatCross))));
      el.dataset.values = JSON.stringify(rows);
    });

    return {
      update(next) {
        state = next;
        el.classList.toggle('stale', !!next.stale);
        if (next.changed.has('result')) drawing.request();
      },
      destroy() {
        drawing.destroy();
      },
    };
  },
};
