// A learned position table on the patch grid (the `learned2d` kind, or a trained ViT pos_embed
// opened from a file), before and after its grid is resized for a new image size (bicubic as
// Hugging Face does, or antialiased as timm does: resize_antialias): two pictures of one patch's
// cosine similarity to every patch, the class row left out, the picked patch and the patch at the
// same place in the image on the new grid.
//
// The table before resizing is result.source (the spec has resize_height/resize_width) or
// result.data; after resizing, result.data. A loaded table ([1 + g², d] or [g², d]; pe.loadMatrix
// reads 2-D tables) replaces the spec's table in this view only, and is resized by
// pe.resizeTable(table, spec) when the API has it. Numbers: math.js (gridCosine,
// neighbourSimilarity, samePlace); they are also in data-values for the tests.
import { h, uid } from '../../plot/dom.js';
import { both } from '../../i18n/index.js';
import { float32String, formatInt, formatValue } from '../../plot/format.js';
import { DataTable, spread } from '../datatable.js';
import { drawer } from '../common.js';
import { GridImage } from './grid-image.js';
import { gridCosine, gridOfRows, neighbourSimilarity, samePlace } from './math.js';
import { colorBar } from './similarity.js';
import { ensureLearnedStyles } from './style.js';

const CODE = "np.save('pos_embed.npy', timm.create_model('vit_base_patch16_224', pretrained=True).pos_embed.detach().numpy())";  // [1, 197, 768]: the leading 1 is dropped on load
const TARGET = 24; // the button's new grid: 384-pixel images with 16-pixel patches

const niceLo = (x) => Math.max(-1, Math.min(0.9, Math.floor(x * 10 + 1e-6) / 10));
function minOf(v) {
  let m = Infinity;
  for (let i = 0; i < v.length; i++) if (v[i] < m) m = v[i];
  return m;
}

/** The tables this view shows: { before, after } each { data, dim, prefix, height, width } (after may be null). */
function tablesOf(state, loaded, pe) {
  const { spec, result } = state;
  const resized = spec.resize_height !== null;
  const prefix = spec.cls_token ? 1 : 0;
  if (loaded) {
    const before = { data: loaded.data, dim: loaded.dim, prefix: loaded.prefix, height: loaded.height, width: loaded.width };
    if (!resized || typeof pe.resizeTable !== 'function') return { before, after: null };
    const r = pe.resizeTable(loaded.data, {
      height: loaded.height, width: loaded.width, dim: loaded.dim, cls_token: loaded.prefix === 1,
      resize_height: spec.resize_height, resize_width: spec.resize_width, resize_antialias: spec.resize_antialias,
    });
    return { before, after: { data: r.data, dim: loaded.dim, prefix: loaded.prefix, height: spec.resize_height, width: spec.resize_width } };
  }
  const before = { data: resized ? result.source : result.data, dim: spec.dim, prefix, height: spec.height, width: spec.width };
  const after = resized ? { data: result.data, dim: spec.dim, prefix, height: spec.resize_height, width: spec.resize_width } : null;
  return { before, after };
}

export default {
  id: 'vision-learned',
  kinds: ['learned2d'],
  title: both('vision.lg.title'),
  explain: both('vision.lg.explain'),

  mount(el, ctx) {
    const styled = ensureLearnedStyles();
    const { t, pe } = ctx;
    const id = uid('vlg');
    let state = null;
    let loaded = null; // { data, dim, prefix, height, width, label }
    let pick = null; // { row, col } on the grid before resizing
    let tables = null;
    let smooth = null; // { before, after } for `tables`
    const where = (p) => t('vision.sim.where', formatInt(p.row), formatInt(p.col), null);

    // --- where the table comes from: the parameters, or a file
    const file = h('input', { id: `${id}-file`, type: 'file', accept: '.npy,.safetensors,application/octet-stream' });
    const back = h('button', { type: 'button', class: 'chip', text: t('vision.lg.useSpec') });
    back.hidden = true;
    const status = h('p', { class: 'help', role: 'status' });
    el.append(
      h('p', { class: 'help lg-source', text: t('vision.lg.source') }),
      h('pre', { class: 'lg-code' }, h('code', { text: `import numpy as np, timm\n${CODE}` })),
      h('div', { class: 'file-row' }, h('div', { class: 'tool-field' }, h('label', { for: file.id, text: t('vision.lg.file') }), file), back),
      status,
    );
    file.addEventListener('change', async () => {
      const f = file.files?.[0];
      if (!f) return;
      status.textContent = t('vision.lg.reading', f.name);
      try {
        const r = pe.loadMatrix(new Uint8Array(await f.arrayBuffer()), undefined);
        const g = gridOfRows(r.shape[0]);
        if (!g) {
          status.textContent = t('vision.lg.badRows', formatInt(r.shape[0]));
          return;
        }
        loaded = { data: r.data, dim: r.shape[1], ...g, label: `${f.name} [${r.shape.map(formatInt).join(' × ')}]` };
        status.textContent = t('vision.lg.loaded', loaded.label, formatInt(g.height), formatInt(g.width), g.prefix === 1);
        back.hidden = false;
        refresh();
      } catch (err) {
        status.textContent = t('vision.lg.refused', err?.message ?? String(err));
      }
    });
    back.addEventListener('click', () => {
      loaded = null;
      file.value = '';
      back.hidden = true;
      status.textContent = '';
      refresh();
      file.focus();
    });

    // --- the two pictures
    const pictures = [0, 1].map(() => {
      const caption = h('figcaption', { class: 'lg-caption' });
      const fig = h('figure', { class: 'lg-fig' }, caption);
      const image = new GridImage(fig, {
        colorize: ctx.colorize,
        axes: { x: t('vision.sim.col'), y: t('vision.sim.row') },
        onPick: ({ row, col }) => setPick(fig === pictures[0]?.fig ? { row, col } : fromAfter(row, col)),
      });
      fig.append(caption);
      return { fig, caption, image };
    });
    const cbar = colorBar(ctx.colorize, t);
    const resizeButton = h('button', { type: 'button', class: 'chip', text: t('vision.lg.resizeTo') });
    resizeButton.addEventListener('click', () => ctx.setSpec({ resize_height: TARGET, resize_width: TARGET }));
    const noAfter = h('p', { class: 'help' });
    const afterEmpty = h('div', { class: 'lg-empty' }, noAfter, resizeButton);
    pictures[1].fig.append(afterEmpty);
    el.append(h('div', { class: 'lg-pair' }, pictures[0].fig, pictures[1].fig), cbar.el);
    const numbers = h('div', { class: 'lg-numbers', 'aria-live': 'polite' });
    const smoothText = h('p', {});
    const placeText = h('p', {});
    numbers.append(smoothText, placeText);
    const resizeNote = h('p', { class: 'help lg-resize-note' }); // which interpolation: Hugging Face's or timm's
    el.append(numbers, h('p', { class: 'help', text: t('vision.sim.hint') }), resizeNote);
    const table = new DataTable(el, { summary: t('table.summary') });

    /** A pick on the resized grid, as the patch at the same place on the grid before. */
    function fromAfter(row, col) {
      const { before, after } = tables;
      return samePlace(row, col, after.height, after.width, before.height, before.width);
    }
    function setPick(p) {
      if (!tables) return;
      const { height, width } = tables.before;
      const next = { row: Math.min(height - 1, Math.max(0, p.row)), col: Math.min(width - 1, Math.max(0, p.col)) };
      ctx.setShared({ visionPatch: [next.row, next.col] });
    }

    function refresh() {
      if (!state) return;
      tables = tablesOf(state, loaded, pe);
      const { before, after } = tables;
      smooth = {
        before: neighbourSimilarity(before.data, before.dim, before.prefix, before.height, before.width),
        after: after ? neighbourSimilarity(after.data, after.dim, after.prefix, after.height, after.width) : null,
      };
      const shared = state.shared.visionPatch;
      const p = Array.isArray(shared) && shared.length === 2 ? { row: shared[0], col: shared[1] } : pick
        ?? { row: Math.floor(before.height * 0.3), col: Math.floor(before.width * 0.7) };
      pick = { row: Math.min(before.height - 1, Math.max(0, p.row)), col: Math.min(before.width - 1, Math.max(0, p.col)) };
      drawing.request();
    }

    const drawing = drawer(el, () => {
      const { before, after } = tables;
      const colormap = state.shared.colormap ?? 'viridis';
      const pickAt = (tb, p) => p.row * tb.width + p.col;
      const vBefore = gridCosine(before.data, before.dim, before.prefix, before.height, before.width, pickAt(before, pick));
      const there = after ? samePlace(pick.row, pick.col, before.height, before.width, after.height, after.width) : null;
      const vAfter = after ? gridCosine(after.data, after.dim, after.prefix, after.height, after.width, pickAt(after, there)) : null;
      const range = [niceLo(Math.min(minOf(vBefore), vAfter ? minOf(vAfter) : 1)), 1];
      const show = (pic, tb, v, p, captionText, which) => {
        pic.image.el.hidden = false;
        pic.image.set({ values: v, rows: tb.height, cols: tb.width, range, colormap, pick: p });
        pic.caption.textContent = captionText;
        let lo = Infinity;
        for (const x of v) lo = Math.min(lo, x);
        pic.image.setLabel(t('vision.lg.aria', which, where(p), tb.height, tb.width, float32String(lo), '1'));
      };
      show(pictures[0], before, vBefore, pick, t('vision.lg.before', formatInt(before.height), formatInt(before.width)), t('vision.lg.before', before.height, before.width));
      afterEmpty.hidden = !!after;
      pictures[1].image.el.closest('.vg-axes').hidden = !after;
      const aa = state.spec.resize_antialias === true;
      resizeNote.textContent = t('vision.lg.antialias', aa);
      if (after) {
        show(pictures[1], after, vAfter, there, t('vision.lg.after', formatInt(after.height), formatInt(after.width), aa), t('vision.lg.after', after.height, after.width, aa));
      } else {
        pictures[1].caption.textContent = '';
        noAfter.textContent = t(loaded ? 'vision.lg.noResizeLoaded' : 'vision.lg.noResize');
        resizeButton.hidden = !!loaded;
      }
      cbar.set(colormap, range);
      // The picked patch's right-hand neighbour (the left one on the last column), before and after.
      const right = (tb, p, v) => v[p.row * tb.width + (p.col + 1 < tb.width ? p.col + 1 : Math.max(0, p.col - 1))];
      const values = { smoothBefore: smooth.before, smoothAfter: smooth.after, pick: [pick.row, pick.col],
        there: there ? [there.row, there.col] : null, rightBefore: right(before, pick, vBefore), rightAfter: after ? right(after, there, vAfter) : null };
      numbers.dataset.values = JSON.stringify(values);
      numbers.dataset.source = loaded ? 'loaded' : 'spec';
      smoothText.textContent = after ? t('vision.lg.smooth', formatValue(smooth.before), formatValue(smooth.after)) : t('vision.lg.smoothOne', formatValue(smooth.before));
      placeText.textContent = after ? t('vision.lg.place', where(pick), where(there), formatValue(values.rightBefore), formatValue(values.rightAfter)) : '';
      table.set(() => {
        const rs = spread(before.height, 16);
        const cs = spread(before.width, 16);
        return {
          caption: t('vision.lg.tableCaption', where(pick)),
          columns: [t('vision.sim.rowCol'), ...cs.map(formatInt)],
          rows: rs.map((r) => [formatInt(r), ...cs.map((c) => float32String(vBefore[r * before.width + c]))]),
          note: rs.length < before.height || cs.length < before.width ? t('table.sampled', rs.length, before.height, cs.length, before.width) : '',
        };
      });
      el.dataset.pick = `${pick.row},${pick.col}`;
      // Announced once the stylesheet applies: before it, the pictures have their bare size.
      styled.then(() => { numbers.dataset.ready = String(Number(numbers.dataset.ready || 0) + 1); });
    });

    return {
      update(next) {
        state = next;
        el.classList.toggle('stale', !!next.stale);
        if (next.changed.has('result') || next.changed.has('shared:visionPatch') || !tables) refresh();
        else if (next.changed.has('shared:colormap') || next.changed.has('theme')) drawing.request();
      },
      destroy() {
        drawing.destroy();
        for (const p of pictures) p.image.destroy();
      },
    };
  },
};
