// ALiBi's heads side by side: one small heatmap per head (small multiples) with the causal mask
// hatched, and the list of slopes m_h as decimals and, where exact, as 1/2^k. The generic heatmap
// shows one head at a time; this view shows what differs between them: only the slope.
//
// Thumbnails sample the table at most THUMB × THUMB points per head (the cell under each pixel's
// centre: ALiBi is a linear ramp, so nothing is lost) and colour every head in one pe.colorize
// call, so an update costs O(heads · THUMB²), whatever the length. A thumbnail is a button: it
// picks that head in the big heatmap (shared `head`).
import { h } from '../../plot/dom.js';
import { both } from '../../i18n/index.js';
import { float32String, formatInt, formatValue } from '../../plot/format.js';
import { DataTable, spread } from '../datatable.js';
import { drawer, fraction, segmented, sup } from '../common.js';

/**
 * A slope as a power of two: { exponent, exact } with m = 2^exponent (exponent rounded to 4
 * decimals when not an integer); exact when m is 1/2^k for a whole k.
 */
function slopePower(m) {
  const e = Math.log2(m);
  const k = Math.round(e);
  if (2 ** k === m) return { exponent: k, exact: true };
  return { exponent: Number(e.toFixed(4)), exact: false };
}

const THUMB = 112; // sample points per side
const MAX_THUMBS = 64;
const MAX_ORDER = 16; // heads named in the steepest-to-gentlest order before "…"

export default {
  id: 'alibi-heads',
  kinds: ['alibi'],
  title: both('relative.heads.title'),
  explain: both('relative.heads.explain'),

  mount(el, ctx) {
    const { t, pe } = ctx;
    let state = null;
    let scale = 'shared';
    const scaleSwitch = segmented(t('relative.heads.scale'), [
      { value: 'shared', label: t('relative.heads.scaleShared') },
      { value: 'own', label: t('relative.heads.scaleOwn') },
    ], scale, (v) => {
      scale = v;
      drawing.request();
    });
    const stats = h('p', { class: 'view-stats' });
    el.append(h('div', { class: 'view-toolbar' },
      h('div', { class: 'tool-field' }, h('span', { class: 'bias-tool-label', text: t('relative.heads.scale') }), scaleSwitch.el), stats));
    const grid = h('div', { class: 'bias-thumbs', role: 'group', 'aria-label': t('relative.heads.gridLabel') });
    const legend = h('div', { class: 'bias-thumb-legend' });
    const note = h('p', { class: 'help', role: 'status' });
    note.hidden = true;
    el.append(grid, legend, note);

    const slopeTitle = h('h4', { class: 'bias-subtitle', text: t('relative.heads.slopesTitle') });
    const formula = h('p', { class: 'help bias-formula' });
    const slopeList = h('ol', { class: 'bias-slopes', start: 0 });
    const orderNote = h('p', { class: 'help bias-order' });
    el.append(h('section', { class: 'bias-slope-box', 'aria-label': t('relative.heads.slopesTitle') }, slopeTitle, formula, orderNote, slopeList));
    const table = new DataTable(el, { summary: t('table.summary') });

    const rampCanvas = h('canvas', { class: 'bias-ramp', width: 128, height: 1, 'aria-hidden': 'true' });
    const rampCtx = rampCanvas.getContext('2d');
    const thumbs = []; // { button, canvas, ctx2d, caption }
    let lastKey = '';

    function thumb(i) {
      if (thumbs[i]) return thumbs[i];
      const canvas = h('canvas', { class: 'bias-thumb-canvas', 'aria-hidden': 'true' });
      const caption = h('span', { class: 'bias-thumb-caption' });
      const button = h('button', { type: 'button', class: 'bias-thumb' }, h('span', { class: 'bias-thumb-plot' }, canvas), caption);
      button.addEventListener('click', () => ctx.setShared({ head: Number(button.dataset.head) }));
      thumbs[i] = { button, canvas, ctx2d: canvas.getContext('2d'), caption };
      return thumbs[i];
    }

    /** A slope as text: "1/2⁵ = 0.03125" when exact, else "2^−1.5 ≈ 0.3536". */
    function slopeText(m) {
      const p = slopePower(m);
      if (p.exact) return { short: fraction(m), long: `1/2${sup(-p.exponent)} = 1/${formatInt(2 ** -p.exponent)} = ${float32String(m)}`, p };
      return { short: formatValue(m), long: `2^${formatValue(p.exponent)} ≈ ${float32String(m)}`, p };
    }

    /** The slope list (every head, not only the thumbnails): text, kept right even before the thumbnails are drawn. */
    function describeSlopes(result) {
      const heads = result.shape[0];
      const slopes = result.slopes;
      const key = `${heads}`;
      if (key !== lastKey) {
        lastKey = key;
        const pow2 = (heads & (heads - 1)) === 0;
        const e = 8 / heads;
        formula.textContent = pow2 ? t('relative.heads.formulaPow2', heads, slopeText(slopes[0]).short, e === 1 ? '−(h + 1)' : `−${formatValue(e)}·(h + 1)`)
          : t('relative.heads.formulaOther', heads, 2 ** Math.floor(Math.log2(heads)));
        // Which heads are steep, read from the slopes: for a head count that is not a power of two
        // they interleave (12 heads: 8, 0, 9, 1, …), so "the first heads" would be wrong.
        const ranked = Array.from(slopes, (m, hd) => hd).sort((x, y) => slopes[y] - slopes[x] || x - y);
        const sorted = ranked.every((hd, i) => hd === i);
        const shown = ranked.length > MAX_ORDER ? [...ranked.slice(0, MAX_ORDER), '…'] : ranked;
        orderNote.hidden = heads < 2;
        orderNote.textContent = heads < 2 ? '' : t('relative.heads.order', {
          sorted, steep: ranked[0], mSteep: slopeText(slopes[ranked[0]]).short,
          gentle: ranked[heads - 1], mGentle: slopeText(slopes[ranked[heads - 1]]).short, order: shown.join(', '),
        });
        el.dataset.steepest = String(ranked[0]);
        slopeList.replaceChildren(...Array.from(slopes, (m, hd) => {
          const s = slopeText(m);
          const p = s.p;
          const item = h('li', { 'data-head': hd }, h('span', { class: 'bias-slope-head', text: `m${sub(hd)}` }), ' = ');
          if (p.exact) {
            item.append(h('span', { class: 'bias-frac', text: `1/${formatInt(2 ** -p.exponent)}` }), ' = 2', h('sup', { text: `−${-p.exponent}` }));
          } else {
            item.append('2', h('sup', { text: formatValue(p.exponent) }));
          }
          item.append(h('span', { class: 'bias-slope-dec', text: ` ${p.exact ? '=' : '≈'} ${float32String(m)}` }));
          return item;
        }));
      }
    }

    const drawing = drawer(el, draw);
    function draw() {
      if (!state) return false;
      const t0 = performance.now();
      const { result, spec, shared } = state;
      const [heads, L] = result.shape;
      const slopes = result.slopes;
      const shownHeads = spread(heads, MAX_THUMBS);
      const P = Math.min(L, THUMB);
      // Sample every shown head at P × P cell centres.
      const plane = L * L;
      const idx = new Int32Array(P);
      for (let k = 0; k < P; k++) idx[k] = Math.min(L - 1, Math.floor(((k + 0.5) * L) / P));
      const values = new Float32Array(shownHeads.length * P * P);
      let lo = Infinity;
      shownHeads.forEach((hd, n) => {
        const base = hd * plane;
        const o = n * P * P;
        for (let y = 0; y < P; y++) {
          const row = base + idx[y] * L;
          for (let x = 0; x < P; x++) values[o + y * P + x] = result.data[row + idx[x]];
        }
      });
      // The farthest key of the steepest head gives the lowest bias: −m·(L − 1).
      const minOf = (m) => (L > 1 ? Math.fround(-m * (L - 1)) : -1);
      for (const hd of shownHeads) lo = Math.min(lo, minOf(slopes[hd]));
      const map = shared.colormap ?? 'viridis';
      let rgba;
      if (scale === 'shared') {
        rgba = pe.colorize(values, { map, vmin: lo, vmax: 0 });
      } else {
        // Each head on its own scale: colour head by head into one buffer.
        rgba = new Uint8ClampedArray(values.length * 4);
        shownHeads.forEach((hd, n) => {
          const part = values.subarray(n * P * P, (n + 1) * P * P);
          rgba.set(pe.colorize(part, { map, vmin: minOf(slopes[hd]), vmax: 0 }), n * P * P * 4);
        });
      }
      const sel = Math.min(shared.head ?? 0, heads - 1);
      shownHeads.forEach((hd, n) => {
        const th = thumb(n);
        if (th.canvas.width !== P) {
          th.canvas.width = P;
          th.canvas.height = P;
        }
        th.ctx2d.putImageData(new ImageData(rgba.subarray(n * P * P * 4, (n + 1) * P * P * 4), P, P), 0, 0);
        const s = slopeText(slopes[hd]);
        th.caption.textContent = '';
        // The visible words first, then the full sentence for screen readers: the button's name
        // starts with what it shows (WCAG 2.5.3, label in name).
        th.caption.append(h('strong', { text: t('relative.heads.head', hd) }), h('span', { text: `m = ${s.short}` }),
          h('span', { class: 'sr-only', text: ` ${t('relative.heads.thumbLabel', hd, s.long, formatValue(minOf(slopes[hd])), L)}` }));
        th.button.dataset.head = String(hd);
        th.button.setAttribute('aria-pressed', String(hd === sel));
        th.button.removeAttribute('aria-label');
      });
      const count = shownHeads.length;
      if (grid.childElementCount !== count) grid.replaceChildren(...thumbs.slice(0, count).map((th) => th.button));
      // Legend: the colour scale and the hatched mask.
      const ramp = new Float32Array(128);
      for (let i = 0; i < 128; i++) ramp[i] = (i + 0.5) / 128;
      rampCtx.putImageData(new ImageData(pe.colorize(ramp, { map, vmin: 0, vmax: 1 }), 128, 1), 0, 0);
      legend.replaceChildren(
        h('span', { class: 'bias-legend-item' },
          h('span', { class: 'bias-ramp-end', text: scale === 'shared' ? formatValue(lo) : t('relative.heads.farthest') }), rampCanvas,
          h('span', { class: 'bias-ramp-end', text: '0' }),
          h('span', { text: scale === 'shared' ? t('relative.heads.legendShared') : t('relative.heads.legendOwn') })),
        spec.mode === 'causal' ? h('span', { class: 'bias-legend-item' }, h('span', { class: 'hm-swatch hm-swatch-masked' }), t('heatmap.masked')) : null);
      note.textContent = count < heads ? t('relative.heads.someHeads', count, heads) : '';
      note.hidden = count >= heads;

      stats.textContent = t('relative.heads.stats', count, P, (performance.now() - t0).toFixed(1));
      el.dataset.heads = String(heads);

      table.set(() => {
        const ds = [...new Set([1, 2, 10, L - 1].filter((d) => d >= 1 && d < L))];
        return {
          caption: t('relative.heads.tableCaption', heads),
          columns: [t('axis.head'), 'm', t('relative.heads.power'), ...ds.map((d) => t('relative.heads.atDistance', d))],
          rows: Array.from(slopes, (m, hd) => {
            const p = slopePower(m);
            return [formatInt(hd), float32String(m), p.exact ? `1/2^${-p.exponent}` : `2^${formatValue(p.exponent)}`,
              ...ds.map((d) => formatValue(Math.fround(-m * d)))];
          }),
          note: '',
        };
      });
    }

    return {
      update(next) {
        state = next;
        el.classList.toggle('stale', !!next.stale);
        if (next.changed.has('result')) describeSlopes(next.result);
        if (['result', 'shared:head', 'shared:colormap'].some((c) => next.changed.has(c))) drawing.request();
      },
      destroy() {
        drawing.destroy();
      },
    };
  },
};

const SUB = '₀₁₂₃₄₅₆₇₈₉';
const sub = (n) => String(n).split('').map((c) => SUB[c]).join('');
