// Every head's attention pattern side by side, and their average: one small picture per head
// (row = query, column = key, colour = weight), the head-averaged picture first. Pointing at a
// cell reads the query and key tokens and the weight; a click picks that head and query for the
// other views (shared state `head` and `attnQuery`).
import { h, uid } from '../../plot/dom.js';
import { formatInt, formatMs, formatValue } from '../../plot/format.js';
import { DataTable, spread } from '../datatable.js';
import { SCHEMA } from '../../api/schema/index.js';
import { ENCODING_KINDS } from '../../api/schema/attention.js';
import { addBlocks, blockBounds, blockCounts, cellAt, drawPlane, ensureAttentionStyles, headMean, meanCell, pictureFloor, tokenLabel, weightText } from './common.js';

/** Heads drawn at most (the mean always is); more heads are listed as a note. */
const MAX_TILES = 16;
/** Pixels per side of a picture at most: longer sequences are drawn as block means. */
const TILE_PX = 128;

export default {
  id: 'attention-heads',
  kinds: ['attention'],
  title: { en: 'Heads and their average', ko: '헤드별 패턴과 평균' },
  explain: {
    en: 'Each picture is one head: row i is query i, column j is key j, brighter means more attention (each row sums to 1). The first picture averages the heads. Point at a cell to read the two tokens and the weight; click to follow that head and query in the other views.',
    ko: '그림 하나가 헤드 하나입니다. i행은 쿼리 i, j열은 키 j이고, 밝을수록 어텐션이 큽니다 (행마다 합이 1). 첫 그림은 헤드 평균입니다. 칸을 가리키면 두 토큰과 가중치가 보이고, 누르면 그 헤드와 쿼리를 다른 보기에서 따라갑니다.',
  },

  mount(el, ctx) {
    ensureAttentionStyles();
    const { t } = ctx;
    const id = uid('attn-heads');
    let state = null;

    const scaleSelect = h('select', { id: `${id}-scale` },
      h('option', { value: 'sqrt', text: t('attention.scale.sqrt') }),
      h('option', { value: 'log', text: t('attention.scale.log') }),
      h('option', { value: 'linear', text: t('attention.scale.linear') }));
    scaleSelect.addEventListener('input', () => ctx.setShared({ attnScale: scaleSelect.value }));
    // A quick way to switch the encoding (the parameters' JSON field holds its details).
    const encSelect = h('select', { id: `${id}-enc` },
      h('option', { value: '', text: t('attention.noEncoding') }),
      ENCODING_KINDS.map((k) => h('option', { value: k, text: t.tr(SCHEMA[k].label) || k })));
    encSelect.addEventListener('input', () => ctx.setSpec({ encoding: encSelect.value ? { kind: encSelect.value } : null }));
    const stats = h('p', { class: 'view-stats' });
    el.append(h('div', { class: 'view-toolbar' },
      h('div', { class: 'tool-field' }, h('label', { for: encSelect.id, text: t('attention.encoding') }), encSelect),
      h('div', { class: 'tool-field' }, h('label', { for: scaleSelect.id, text: t('attention.scale') }), scaleSelect), stats));
    const tiles = h('div', { class: 'attn-tiles', role: 'list' });
    const readout = h('p', { class: 'attn-readout', 'aria-live': 'polite', text: t('attention.heads.hint') });
    const more = h('p', { class: 'attn-note', hidden: true });
    el.append(tiles, readout, more);
    const table = new DataTable(el, { summary: t('table.summary') });
    let tileList = []; // { head (−1: mean), canvas, figure }

    function read(head, cell) {
      const { result } = state;
      const n = result.shape[1];
      const w = head < 0 ? meanCell(result, cell.row, cell.col) : result.data[(head * n + cell.row) * n + cell.col];
      readout.textContent = t('attention.heads.readout', {
        head: head < 0 ? t('attention.mean') : t('attention.headN', head),
        query: tokenLabel(result, cell.row), key: tokenLabel(result, cell.col), weight: weightText(w),
      });
    }

    function build(H) {
      const shown = Math.min(H, MAX_TILES);
      tileList = [];
      const make = (head) => {
        const canvas = h('canvas', {
          role: 'img', tabindex: 0,
          'aria-label': head < 0 ? t('attention.heads.meanAria') : t('attention.heads.aria', head),
        });
        const figure = h('figure', { class: `attn-tile${head < 0 ? ' is-mean' : ''}` },
          canvas, h('figcaption', { text: head < 0 ? t('attention.mean') : t('attention.headN', head) }));
        canvas.addEventListener('pointermove', (e) => {
          const cell = state && cellAt(canvas, state.result.shape[1], e);
          if (cell) read(head, cell);
        });
        canvas.addEventListener('click', (e) => {
          const cell = state && cellAt(canvas, state.result.shape[1], e);
          const patch = { attnQuery: cell ? cell.row : state?.shared.attnQuery ?? 0 };
          if (head >= 0) patch.head = head;
          ctx.setShared(patch);
        });
        canvas.addEventListener('keydown', (e) => {
          if (e.key !== 'Enter' && e.key !== ' ') return;
          e.preventDefault();
          if (head >= 0) ctx.setShared({ head });
        });
        tileList.push({ head, canvas, figure });
        // A figure with a caption may not be a list item itself (ARIA): the item holds it.
        return h('div', { role: 'listitem', class: 'attn-item' }, figure);
      };
      tiles.replaceChildren(make(-1), ...Array.from({ length: shown }, (_, k) => make(k)));
      more.hidden = H <= MAX_TILES;
      more.textContent = H > MAX_TILES ? t('attention.heads.more', MAX_TILES, H) : '';
    }

    function draw() {
      const { result, shared } = state;
      const [H, n] = result.shape;
      if (tileList.length !== Math.min(H, MAX_TILES) + 1) build(H);
      const t0 = performance.now();
      const opts = { map: shared.colormap ?? 'viridis', scale: shared.attnScale ?? 'sqrt' };
      // Each head as block means of at most TILE_PX² blocks, and their mean over all heads.
      const m = Math.min(n, TILE_PX);
      const bounds = blockBounds(n, m);
      const counts = blockCounts(n, m, bounds);
      const total = new Float64Array(m * m);
      const pictures = new Map();
      const tmp = new Float64Array(n);
      for (let k = 0; k < H; k++) {
        const acc = new Float64Array(m * m);
        addBlocks(acc, result.data, k * n * n, n, m, bounds, tmp, state.spec?.causal === true);
        const picture = new Float32Array(m * m);
        for (let b = 0; b < acc.length; b++) {
          total[b] += acc[b];
          picture[b] = acc[b] / counts[b];
        }
        if (k < MAX_TILES) pictures.set(k, picture);
      }
      const mean = new Float32Array(m * m);
      for (let b = 0; b < mean.length; b++) mean[b] = total[b] / (counts[b] * H);
      pictures.set(-1, mean);
      // One colour scale for every picture: 0 … the largest value drawn.
      let vmax = 0;
      for (const p of pictures.values()) for (let b = 0; b < p.length; b++) if (p[b] > vmax) vmax = p[b];
      opts.vmax = vmax;
      // The log scale's floor: the robust low of every picture (a few tiny weights do not set it).
      if (opts.scale === 'log') opts.lo = pictureFloor(pictures, vmax);
      for (const tile of tileList) {
        drawPlane(tile.canvas, ctx.colorize, pictures.get(tile.head), m, opts);
        tile.figure.classList.toggle('is-selected', tile.head === (shared.head ?? 0) && H > 1);
      }
      stats.textContent = t('attention.heads.stats', { heads: H, n: formatInt(n), ms: formatMs(performance.now() - t0), vmax: formatValue(vmax), lo: opts.lo ? formatValue(opts.lo) : null, blocks: m < n ? m : 0 });
      el.dataset.drawn = String(Number(el.dataset.drawn || 0) + 1);
      table.set(() => {
        const mean = headMean(result);
        const rows = spread(n, 12);
        const cols = spread(n, 8);
        return {
          caption: t('attention.heads.caption', n),
          columns: [t('attention.queryKey'), ...cols.map((c) => tokenLabel(result, c))],
          rows: rows.map((r) => [tokenLabel(result, r), ...cols.map((c) => weightText(mean[r * n + c]))]),
          note: rows.length < n ? t('table.sampled', rows.length, n, cols.length, n) : '',
        };
      });
    }

    return {
      update(next) {
        state = next;
        scaleSelect.value = next.shared.attnScale ?? 'sqrt';
        if (document.activeElement !== encSelect) encSelect.value = next.spec?.encoding?.kind ?? '';
        tiles.classList.toggle('stale', !!next.stale);
        if (['result', 'shared:colormap', 'shared:head', 'shared:attnScale'].some((c) => next.changed.has(c))) draw();
      },
      destroy() {
        tiles.replaceChildren();
      },
    };
  },
};
