// How big P is next to E (for every additive table: sinusoidal, learned, integer, binary, the 2-D
// and 3-D sinusoids, a loaded table): the token embeddings E are a [VOCAB, d] table drawn by the
// kernel of `learned` with the std of a common initialisation (nn.Embedding's N(0, 1), GPT-2 and
// BERT's N(0, 0.02²), tensor2tensor's N(0, 1/d), or the reader's own), optionally multiplied by
// √d_model as Vaswani et al. §3.4 and The Annotated Transformer do. The view plots ‖P_p‖ over the
// positions against the median and 10–90 % band of ‖E_t‖, and says in one sentence, derived from
// the numbers, which of the two outweighs the other and where the sum E + P points (its cosine
// with P). The numbers: ./embed-scale-math.js.
//
// The choices are shared view state (embedInit, embedStd, embedScale), so a permalink carries
// them (~x.embedInit=torch&~x.embedScale=!t).
//
// Cost: E is computed once per (std, d) and cached; an update is ‖P_p‖ over the table (L·d) and
// the cosines of at most 256 tokens × 64 positions, ≤ 8 M multiply-adds (fewer tokens when wider).
import { h, uid } from '../../plot/dom.js';
import { both } from '../../i18n/index.js';
import { formatInt } from '../../plot/format.js';
import { DataTable, spread } from '../datatable.js';
import { lineDrawer, withAlpha } from '../common.js';
import {
  INIT_IDS, VOCAB, embedSeed, embedTable, fmt3, fmtCos, initStd, magnitudes, rowNorms, verdictOf,
} from './embed-scale-math.js';

const DEFAULTS = { embedInit: 'gpt2', embedStd: 0.02, embedScale: false };
const COLOR = { p: 0, e: 1 };

/** The view's choices from the shared state, with defaults for what is missing or malformed. */
function choicesOf(shared) {
  const init = INIT_IDS.includes(shared?.embedInit) ? shared.embedInit : DEFAULTS.embedInit;
  const own = Number(shared?.embedStd);
  const std = Number.isFinite(own) && own > 0 && own <= 10 ? own : DEFAULTS.embedStd;
  return { init, std, scaled: shared?.embedScale === true };
}

/** What the sum's direction says: 'p' (cos ≥ 0.95: P's direction), 'e' (≤ 0.3: E's), or 'both'. */
export const cosSide = (c) => (c >= 0.95 ? 'p' : c <= 0.3 ? 'e' : 'both');

/** The sentence's values for one result (what the tests compare with Node's): formatted numbers. */
export function sentenceParts(m, other) {
  return {
    d: m.d, e: fmt3(m.e.median), lo: fmt3(m.e.lo), hi: fmt3(m.e.hi),
    p: fmt3(m.p.median), pLo: fmt3(m.p.min), pHi: fmt3(m.p.max), constant: m.constantP,
    ratio: fmt3(m.ratio), verdict: verdictOf(m.ratio),
    cos: fmtCos(m.cos.median), cosLo: fmtCos(m.cos.lo), cosHi: fmtCos(m.cos.hi),
    otherE: fmt3(other.e.median),
  };
}

export default {
  id: 'absolute-embed-scale',
  kinds: (info) => info.class === 'table' && info.additive && info.rank === 2,
  title: both('absolute.embed.title'),
  explain: both('absolute.embed.explain'),

  mount(el, ctx) {
    const { t, pe } = ctx;
    const id = uid('es');
    let state = null;
    let mod = null;
    let plot = null;
    const cache = { key: '', E: null, eNorms: null };
    const pCache = { result: null, norms: null };

    // --- controls: the initialisation, its std (own), × √d_model
    const select = h('select', { id: `${id}-init` }, INIT_IDS.map((v) => h('option', { value: v, text: t(`absolute.embed.init.${v}`) })));
    const std = h('input', { id: `${id}-std`, type: 'number', min: 0, max: 10, step: 'any', inputmode: 'decimal', value: DEFAULTS.embedStd });
    const stdField = h('div', { class: 'tool-field' }, h('label', { for: std.id, text: t('absolute.embed.std') }), std);
    stdField.hidden = true; // shown for the user's own std only (update sets it from the view state)
    const scale = h('input', { id: `${id}-scale`, type: 'checkbox', class: 'embed-scale-toggle' });
    const scaleField = h('div', { class: 'tool-field' }, scale, h('label', { for: scale.id, text: t('absolute.embed.scale') }));
    select.addEventListener('input', () => ctx.setShared({ embedInit: select.value }));
    std.addEventListener('input', () => {
      const v = Number(std.value);
      const ok = std.value.trim() !== '' && Number.isFinite(v) && v > 0 && v <= 10;
      std.setAttribute('aria-invalid', String(!ok));
      stdError.hidden = ok;
      if (ok) ctx.setShared({ embedStd: v });
    });
    scale.addEventListener('input', () => ctx.setShared({ embedScale: scale.checked }));
    const stdError = h('p', { class: 'field-error', role: 'status', text: t('absolute.embed.badStd') });
    stdError.hidden = true;
    el.append(h('div', { class: 'view-toolbar' },
      h('div', { class: 'tool-field' }, h('label', { for: select.id, text: t('absolute.embed.init') }), select), stdField, scaleField), stdError);

    const sentence = h('p', { class: 'bias-verdict embed-sentence', 'aria-live': 'polite' });
    const cosLine = h('p', { class: 'bias-verdict embed-cos' });
    const stats = h('p', { class: 'view-stats embed-stats' });
    const box = h('div', { class: 'lp-box' });
    const note = h('p', { class: 'help', text: '' });
    el.append(sentence, cosLine, stats, box, note);
    const table = new DataTable(el, { summary: t('table.summary') });

    const drawing = lineDrawer(el, (m) => {
      mod = m;
      return draw();
    });

    /** E and its norms for the current choices and width (cached). */
    function embeddings(d, std0) {
      const seed = embedSeed(state.spec);
      const key = JSON.stringify([std0, d, seed]);
      if (cache.key !== key) {
        const E = embedTable(pe, { d, std: std0, seed });
        Object.assign(cache, { key, E, eNorms: rowNorms(E.data, E.rows, E.cols), seed });
      }
      return cache;
    }

    function draw() {
      const { result } = state;
      const [L, d] = result.shape;
      const c = choicesOf(state.shared);
      select.value = c.init;
      stdField.hidden = c.init !== 'custom';
      if (document.activeElement !== std) std.value = String(c.std);
      scale.checked = c.scaled;
      const std0 = initStd(c.init, d, c.std);
      const { E, eNorms, seed } = embeddings(d, std0);
      if (pCache.result !== result) Object.assign(pCache, { result, norms: rowNorms(result.data, L, d) });
      const P = { data: result.data, rows: L, cols: d };
      const m = magnitudes(E, eNorms, P, pCache.norms, c.scaled);
      // The other setting's ‖E‖: the same norms times the other factor (no second pass over the cosines).
      const v = sentenceParts(m, { e: { median: (m.e.median / m.s) * (c.scaled ? 1 : Math.sqrt(d)) } });
      const initText = c.init === 'vaswani' || c.init === 'custom' ? t(`absolute.embed.initShort.${c.init}`, fmt3(std0)) : t(`absolute.embed.initShort.${c.init}`);
      const scaleText = (on) => (on ? t('absolute.embed.withScale', formatInt(d)) : t('absolute.embed.noScale'));
      sentence.textContent = `${t('absolute.embed.sentence', {
        init: initText, scale: scaleText(c.scaled), e: v.e, lo: v.lo, hi: v.hi, d: formatInt(d),
        p: t('absolute.embed.pIs', v.p, v.constant, v.pLo, v.pHi), verdict: t(`absolute.embed.outweigh.${v.verdict.side}`, v.verdict.r),
      })} ${t('absolute.embed.other', scaleText(!c.scaled), v.otherE, v.p)}`;
      cosLine.textContent = `${t('absolute.embed.cos', v.cos, v.cosLo, v.cosHi)} ${t(`absolute.embed.cosRead.${cosSide(m.cos.median)}`)}`;
      stats.textContent = t('absolute.embed.stats', v.ratio, v.cos);
      note.textContent = t('absolute.embed.note', formatInt(VOCAB), seed, m.cosTokens, m.cosPositions);
      el.dataset.values = JSON.stringify({ ...v, init: c.init, std: std0, scaled: c.scaled });
      drawPlot(m, L, c.scaled);
      table.set(() => {
        const idx = spread(L, 16);
        return {
          caption: t('absolute.embed.tableCaption'),
          columns: [t('axis.position'), t('absolute.embed.seriesP'), t('absolute.embed.seriesE', c.scaled), t('absolute.embed.colRatio')],
          rows: idx.map((p) => [formatInt(p), fmt3(m.pNorms[p]), fmt3(m.e.median), fmt3(m.pNorms[p] / m.e.median)]),
          note: idx.length < L ? t('table.sampledRows', idx.length, L) : '',
        };
      });
      return undefined;
    }

    function drawPlot(m, L, scaled) {
      plot ??= new mod.LinePlot(box, { t, xLabel: t('axis.position'), yLabel: t('absolute.embed.axisY'), label: t('absolute.embed.plotLabel') });
      const flat = (x) => new Float32Array(L).fill(x);
      plot.batch(() => {
        plot.setData({
          series: [
            { label: t('absolute.embed.seriesP'), values: Float32Array.from(m.pNorms), color: COLOR.p, width: 2.5 },
            { label: t('absolute.embed.seriesE', scaled), values: flat(m.e.median), color: COLOR.e, width: 2 },
            { label: t('absolute.embed.seriesLo', scaled), values: flat(m.e.lo), color: COLOR.e, width: 1, dash: true },
            { label: t('absolute.embed.seriesHi', scaled), values: flat(m.e.hi), color: COLOR.e, width: 1, dash: true },
          ],
          x0: 0,
        });
        plot.setAxis('y', { beginAtZero: true, suggestedMax: 1.1 * Math.max(m.p.max, m.e.hi) }); // room above a flat ‖P‖
        // The 10–90 % band of ‖E‖, shaded under the curves.
        plot.setOverlay({
          under(g) {
            const top = g.y(m.e.hi);
            const bottom = g.y(m.e.lo);
            g.ctx.fillStyle = withAlpha(mod.seriesColor(COLOR.e), 0.18);
            g.ctx.fillRect(g.area.left, Math.max(g.area.top, top), g.area.right - g.area.left, Math.max(1, Math.min(g.area.bottom, bottom) - Math.max(g.area.top, top)));
          },
        });
      });
    }

    return {
      update(next) {
        state = next;
        el.classList.toggle('stale', !!next.stale);
        if (next.changed.has('theme')) plot?.applyTheme();
        if (next.changed.has('result') || [...next.changed].some((k) => k.startsWith('shared:embed')) || next.changed.has('theme')) drawing.request();
      },
      destroy() {
        drawing.destroy();
        plot?.destroy();
      },
    };
  },
};
