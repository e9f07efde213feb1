// The patch similarity view (sinusoidal2d, sinusoidal3d, axial 2-D RoPE): pick a patch and see how
// alike its position encoding is to every other patch's, as a picture of the grid: the figure ViT
// papers show for learned position embeddings.
//
// - sinusoidal2d / sinusoidal3d: cosine similarity of the rows of the table, e_p·e_k / (|e_p||e_k|).
//   2-D: the same patch under each layout (mae, sum, tatp22) side by side, computed here with
//   pe.compute (cached per spec). 3-D: a frame slider picks the patch's frame; every frame is shown
//   as a strip (up to MAX_FRAMES around the picked one).
// - rope with grid_height/grid_width (axial 2-D RoPE), beside the same RoPE in 1-D over the patches
//   in raster order (why images need the axial form): RoPE adds nothing to the tokens, so the
//   similarity is that of q at the picked patch and k at every patch with q = k = the all-ones
//   vector before rotation: (q_p·k_k)/dim = the mean of cos(θ_p − θ_k) over the rotated pairs
//   (pass-through channels count 1), i.e. the cosine similarity of the two rotated vectors
//   (math.js). Cos and sin come from pe.ropeTables. The section hides itself for 1-D RoPE.
//
// The picked patch lives in the shared view state (`visionPatch`), so a permalink keeps it.
// One pass over the table per picked patch and picture (n·dim multiply-adds); the norms and the
// other layouts' tables are cached per result; the small pictures are drawn on the frame after the
// main one. Colours: the shared colour map over [lowest similarity shown, rounded down, 1], the
// same for every picture of the view so the layouts (or frames) compare by eye.
import { h, uid } from '../../plot/dom.js';
import { both } from '../../i18n/index.js';
import { float32String, formatInt, formatMs, formatValue } from '../../plot/format.js';
import { isAxial } from '../../api/schema/rope.js';
import { DataTable, spread } from '../datatable.js';
import { GridImage } from './grid-image.js';
import { cosineRow, ropeRow, rowNorms } from './math.js';
import { ensureVisionStyles } from './style.js';

const LAYOUTS = ['mae', 'sum', 'tatp22'];
const MAX_FRAMES = 10; // frames in the 3-D strip
const MULTIPLES_BUDGET = 1 << 20; // values per table up to which the other layouts are computed (~10 ms)

/** The colour scale's low end: the smallest similarity shown, rounded down to a tenth. */
const niceLo = (x) => Math.max(-1, Math.min(0.9, Math.floor(x * 10 + 1e-6) / 10));
function minOf(v) {
  let m = Infinity;
  for (let i = 0; i < v.length; i++) if (v[i] < m) m = v[i];
  return m;
}

// source (the result's, or a table computed here) → row norms. Keyed by the source object, not
// its array: a new result may reuse the last one's array (web/app/app.js reusable).
const norms = new WeakMap();
const normsOf = (source, n, d) => {
  let v = norms.get(source.key ?? source.data);
  if (!v) norms.set(source.key ?? source.data, (v = rowNorms(source.data, n, d)));
  return v;
};

/** The patch grid of a spec: { frames, rows, cols } (tokens frame-major, then row, then column). */
function gridOf(spec) {
  if (spec.kind === 'rope') return { frames: 1, rows: spec.grid_height, cols: spec.grid_width };
  if (spec.kind === 'sinusoidal3d') return { frames: spec.depth, rows: spec.height, cols: spec.width };
  return { frames: 1, rows: spec.height, cols: spec.width };
}

export default {
  id: 'vision-similarity',
  kinds: ['sinusoidal2d', 'sinusoidal3d', 'rope'],
  title: both('vision.sim.title'),
  explain: (info) => both(`vision.sim.explain.${info.kind}`),

  mount(el, ctx) {
    const styled = ensureVisionStyles(); // settles when vision.css applies (it is loaded on demand)
    const { t, pe } = ctx;
    const id = uid('vsim');
    const section = () => el.closest('section') ?? el;
    let state = null;
    let pick = null; // { frame, row, col }
    let grid = null;
    let hover = null;
    const others = new Map(); // layout → { data, dim } or { error }, for the current spec
    let main = null; // Float32Array of the picked frame's similarities
    let mainMs = 0;
    let range = [-1, 1]; // the colour scale of every picture
    let mainMark = null; // a patch with the picked one's very vector, outlined
    let multiFrame = 0;

    // --- toolbar: the picked patch as numbers (keyboard), the frame (3-D), timing
    const num = (name, label) => {
      const input = h('input', { id: `${id}-${name}`, type: 'number', min: 0, step: 1, inputmode: 'numeric' });
      input.addEventListener('input', () => {
        const v = input.valueAsNumber;
        if (Number.isInteger(v)) setPick({ ...pick, [name]: v }, { fromInput: input });
      });
      return { input, box: h('div', { class: 'tool-field' }, h('label', { for: input.id, text: label }), input) };
    };
    const rowIn = num('row', t('vision.sim.row'));
    const colIn = num('col', t('vision.sim.col'));
    const frameIn = num('frame', t('vision.sim.frame'));
    const frameSlider = h('input', { type: 'range', min: 0, step: 1, value: 0, class: 'vs-frame-slider', 'aria-label': t('vision.sim.frameSlider') });
    frameSlider.addEventListener('input', () => setPick({ ...pick, frame: Number(frameSlider.value) }));
    frameIn.box.append(frameSlider);
    const stats = h('p', { class: 'view-stats' });
    el.append(h('div', { class: 'view-toolbar' },
      h('span', { class: 'vs-pick-label', text: t('vision.sim.patch') }), rowIn.box, colIn.box, frameIn.box, stats));

    // --- the big picture, with its colour bar and read-out
    const bigBox = h('div', { class: 'vs-big' });
    const readout = h('p', { class: 'vs-readout', 'aria-live': 'polite' });
    const closest = h('p', { class: 'vs-closest' });
    const cbar = colorBar(ctx.colorize, t);
    const side = h('div', { class: 'vs-side' }, cbar.el, readout, closest, h('p', { class: 'help', text: t('vision.sim.hint') }));
    el.append(h('div', { class: 'vs-main' }, bigBox, side));
    const big = new GridImage(bigBox, {
      colorize: ctx.colorize,
      axes: { x: t('vision.sim.col'), y: t('vision.sim.row') },
      onPick: ({ row, col }) => setPick({ ...pick, row, col }),
      onHover: (cell) => {
        hover = cell;
        showReadout();
      },
    });

    // --- small multiples: the layouts (2-D) or the frames (3-D)
    const multiTitle = h('h4', { class: 'vs-multi-title' });
    const multiNote = h('p', { class: 'help vs-multi-note' });
    const multiGrid = h('div', { class: 'vs-multiples' });
    const multiBox = h('div', { class: 'vs-multi' }, multiTitle, multiNote, multiGrid);
    el.append(multiBox);
    let figures = []; // { key, fig, image, caption, extra }

    const table = new DataTable(el, { summary: t('table.summary') });

    const clampPick = (next) => {
      const clamp = (v, n) => Math.min(n - 1, Math.max(0, Number.isInteger(v) ? v : 0));
      return { frame: clamp(next.frame ?? 0, grid.frames), row: clamp(next.row, grid.rows), col: clamp(next.col, grid.cols) };
    };
    /** The picked patch kept in the shared view state (`visionPatch`: [row, col] or [frame, row, col]), so links hold it. */
    const fromShared = (v) => (Array.isArray(v) && v.length === 2 ? { frame: 0, row: v[0], col: v[1] }
      : Array.isArray(v) && v.length === 3 ? { frame: v[0], row: v[1], col: v[2] } : null);
    let typing = null; // the number box being typed in: left as the user has it

    /** Pick a patch: through the shared state, whose change comes back as update(shared:visionPatch). */
    function setPick(next, { fromInput = null } = {}) {
      if (!grid) return;
      const p = clampPick(next);
      if (pick && p.frame === pick.frame && p.row === pick.row && p.col === pick.col) {
        syncInputs(fromInput);
        return;
      }
      typing = fromInput;
      ctx.setShared({ visionPatch: grid.frames > 1 ? [p.frame, p.row, p.col] : [p.row, p.col] });
      typing = null;
    }

    /** Show a picked patch: at once for a new result, on the next frame for a new pick (arrow keys held down on a big grid coalesce). */
    let pickFrame = 0;
    function showPick(p, { now = true } = {}) {
      pick = clampPick(p);
      syncInputs(typing);
      hover = null;
      cancelAnimationFrame(pickFrame);
      pickFrame = 0;
      if (now) draw();
      else {
        pickFrame = requestAnimationFrame(() => {
          pickFrame = 0;
          draw();
        });
      }
    }

    function syncInputs(except = null) {
      for (const [inp, v] of [[rowIn.input, pick.row], [colIn.input, pick.col], [frameIn.input, pick.frame]]) {
        if (inp !== except) inp.value = String(v);
      }
      frameSlider.value = String(pick.frame);
      frameSlider.setAttribute('aria-valuetext', String(pick.frame));
    }

    const tokenOf = (p) => (p.frame * grid.rows + p.row) * grid.cols + p.col;
    const where = (p) => t('vision.sim.where', formatInt(p.row), formatInt(p.col), grid.frames > 1 ? formatInt(p.frame) : null);

    /** Similarities of the picked token to every token of one frame, for a table (or the rope tables). */
    function similarities(source, frame) {
      const hw = grid.rows * grid.cols;
      if (source.rope) return ropeRow(source.cos, source.sin, hw, source.pairs, source.dim, tokenOf(pick));
      const n = grid.frames * hw;
      return cosineRow(source.data, n, source.dim, tokenOf(pick), normsOf(source, n, source.dim), new Float32Array(hw), frame * hw, hw);
    }

    function mainSource() {
      const { spec, result } = state;
      if (spec.kind === 'rope') {
        let tables = ropeCache.get(result);
        if (!tables) {
          const r = pe.ropeTables(spec);
          tables = { rope: true, cos: r.cos, sin: r.sin, pairs: r.shape[1], dim: spec.dim };
          ropeCache.set(result, tables);
        }
        return tables;
      }
      return { data: result.data, dim: spec.dim, key: result };
    }
    const ropeCache = new WeakMap();

    let othersBase = '';
    function otherLayout(layout) {
      const spec = { ...state.spec, layout };
      // Only the current spec's other layouts are kept (they can be large).
      const base = JSON.stringify({ ...state.spec, layout: null });
      if (base !== othersBase) {
        others.clear();
        othersBase = base;
      }
      const key = layout;
      if (!others.has(key)) {
        try {
          if (layout === 'raster') {
            // The same RoPE, 1-D, over the patches in raster order (k = row·width + column).
            const r = pe.ropeTables({ ...state.spec, grid_height: null, grid_width: null });
            others.set(key, { rope: true, cos: r.cos, sin: r.sin, pairs: r.shape[1], dim: state.spec.dim });
          } else {
            const r = layout === state.spec.layout ? state.result : pe.compute(spec);
            others.set(key, { data: r.data, dim: spec.dim });
          }
        } catch (err) {
          others.set(key, { error: err });
        }
      }
      return others.get(key);
    }

    function buildMultiples() {
      multiGrid.replaceChildren();
      figures = [];
      const kind = state.spec.kind;
      if (kind === 'sinusoidal2d' || kind === 'rope') {
        multiTitle.textContent = t(kind === 'rope' ? 'vision.sim.ropeTitle' : 'vision.sim.layoutsTitle');
        for (const layout of kind === 'rope' ? ['axial', 'raster'] : LAYOUTS) {
          const badge = h('span', { class: 'vs-badge', text: t('vision.sim.current') });
          const use = h('button', { type: 'button', class: 'chip vs-use', text: t('vision.sim.use') });
          use.hidden = kind === 'rope';
          const name = kind === 'rope' ? t(`vision.sim.rope.${layout}`) : layout;
          const caption = h('figcaption', {}, h('span', { class: 'vs-fig-name', text: name }), badge, use);
          const fig = h('figure', { class: 'vs-fig' });
          const image = new GridImage(fig, {
            colorize: ctx.colorize, small: true, onPick: ({ row, col }) => setPick({ ...pick, row, col }),
          });
          use.addEventListener('click', () => {
            ctx.setSpec({ layout });
            image.el.focus(); // the button goes away once this layout is the current one
          });
          const extra = h('p', { class: 'vs-fig-note' });
          fig.append(caption, extra);
          multiGrid.append(fig);
          figures.push({ key: layout, fig, image, caption, extra, badge, use });
        }
      } else if (kind === 'sinusoidal3d') {
        multiTitle.textContent = t('vision.sim.framesTitle');
        const count = Math.min(grid.frames, MAX_FRAMES);
        for (let i = 0; i < count; i++) {
          const caption = h('div', { class: 'vs-caption' });
          // A frame is a button: click it (or Enter / Space) to move the picked patch there. A div,
          // not a figure: a figure may not take the button role (ARIA).
          const fig = h('div', { class: 'vs-fig vs-frame', tabindex: 0, role: 'button' });
          const image = new GridImage(fig, { colorize: ctx.colorize, small: true, onPick: null });
          image.el.setAttribute('aria-hidden', 'true');
          fig.append(caption);
          const choose = () => setPick({ ...pick, frame: Number(fig.dataset.frame) });
          fig.addEventListener('click', choose);
          fig.addEventListener('keydown', (e) => {
            if (e.key === 'Enter' || e.key === ' ') {
              e.preventDefault();
              choose();
            }
          });
          multiGrid.append(fig);
          figures.push({ key: i, fig, image, caption });
        }
      }
      multiGrid.classList.toggle('vs-frames', kind === 'sinusoidal3d');
    }

    function draw() {
      if (!state || !pick) return;
      const t0 = performance.now();
      const { spec, shared } = state;
      const colormap = shared.colormap ?? 'viridis';
      main = similarities(mainSource(), pick.frame);
      range = [niceLo(minOf(main)), 1];
      const near = closestOf(main, pick);
      // A patch with the very same vector (sum layout: (c, r)) is outlined too.
      mainMark = near?.same ? near.q : null;
      big.set({ values: main, rows: grid.rows, cols: grid.cols, range, colormap, pick, mark: mainMark });
      big.setLabel(t('vision.sim.aria', {
        what: t(spec.kind === 'rope' ? 'vision.sim.whatRope' : 'vision.sim.whatCos'), where: where(pick),
        rows: grid.rows, cols: grid.cols, ...extent(main),
      }));
      cbar.set(colormap, range);
      closest.textContent = closestText(near);
      mainMs = performance.now() - t0;
      // The small pictures follow on the next frame, so a change shows the main one at once.
      cancelAnimationFrame(multiFrame);
      multiFrame = requestAnimationFrame(() => {
        multiFrame = 0;
        drawMultiples(colormap);
      });
      el.dataset.pick = `${pick.frame},${pick.row},${pick.col}`;
      el.dataset.draws = String(Number(el.dataset.draws || 0) + 1);
      showReadout();
      table.set(() => {
        const rs = spread(grid.rows, 16);
        const cs = spread(grid.cols, 16);
        return {
          caption: t('vision.sim.tableCaption', where(pick)),
          columns: [t('vision.sim.rowCol'), ...cs.map(formatInt)],
          rows: rs.map((r) => [formatInt(r), ...cs.map((c) => float32String(main[r * grid.cols + c]))]),
          note: rs.length < grid.rows || cs.length < grid.cols ? t('table.sampled', rs.length, grid.rows, cs.length, grid.cols) : '',
        };
      });
    }

    function drawMultiples(colormap) {
      if (!state || !pick) return;
      const t0 = performance.now();
      const { spec } = state;
      const hw = grid.rows * grid.cols;
      const jobs = []; // { f, v, pick }
      if (spec.kind === 'sinusoidal2d' || spec.kind === 'rope') {
        const rope = spec.kind === 'rope';
        const tooBig = hw * spec.dim > MULTIPLES_BUDGET;
        multiNote.textContent = tooBig ? t('vision.sim.tooBig') : t(rope ? 'vision.sim.ropeNote' : 'vision.sim.layoutsNote');
        for (const f of figures) {
          const current = f.key === (rope ? 'axial' : spec.layout);
          f.fig.classList.toggle('is-current', current);
          f.badge.hidden = !current;
          f.use.hidden = current || rope;
          const src = current ? mainSource() : tooBig ? null : otherLayout(f.key);
          f.image.el.hidden = !src || !!src.error;
          if (!src || src.error) {
            f.extra.textContent = src?.error ? t('vision.sim.unavailable', src.error.message) : '';
            continue;
          }
          const v = current ? main : similarities(src, 0);
          const near = closestOf(v, pick);
          f.extra.textContent = closestText(near, true);
          const what = t(rope ? 'vision.sim.whatRope' : 'vision.sim.whatCos');
          jobs.push({ f, v, pick, mark: near?.same ? near.q : null, label: `${rope ? t(`vision.sim.rope.${f.key}`) : f.key}: ${what}` });
        }
      } else if (spec.kind === 'sinusoidal3d') {
        // The frames around the picked one.
        const count = figures.length;
        const first = Math.min(Math.max(0, pick.frame - Math.floor(count / 2)), grid.frames - count);
        multiNote.textContent = grid.frames > count
          ? t('vision.sim.framesSome', formatInt(first), formatInt(first + count - 1), formatInt(grid.frames)) : t('vision.sim.framesNote');
        const src = mainSource();
        figures.forEach((f, i) => {
          const frame = first + i;
          f.fig.dataset.frame = String(frame);
          const current = frame === pick.frame;
          f.fig.classList.toggle('is-current', current);
          f.fig.setAttribute('aria-pressed', String(current));
          f.caption.textContent = t('vision.sim.frameN', formatInt(frame));
          const v = current ? main : similarities(src, frame);
          const { lo, hi } = extent(v);
          f.fig.setAttribute('aria-label', t('vision.sim.frameAria', formatInt(frame), lo, hi));
          jobs.push({ f, v, pick, ghost: !current });
        });
      }
      // One colour scale for every picture: widen the main one's if a small one goes lower.
      let lo = range[0];
      for (const j of jobs) lo = Math.min(lo, niceLo(minOf(j.v)));
      if (lo < range[0]) {
        range = [lo, 1];
        big.set({ values: main, rows: grid.rows, cols: grid.cols, range, colormap, pick, mark: mainMark });
        cbar.set(colormap, range);
      }
      for (const j of jobs) {
        j.f.image.set({ values: j.v, rows: grid.rows, cols: grid.cols, range, colormap, pick: j.pick, ghost: j.ghost, mark: j.mark });
        if (j.label) j.f.image.setLabel(t('vision.sim.aria', { what: j.label, where: where(pick), rows: grid.rows, cols: grid.cols, ...extent(j.v) }));
      }
      stats.textContent = t('vision.sim.stats', formatMs(mainMs + performance.now() - t0));
      // Announced once the stylesheet applies too: before it, the pictures have their bare size
      // and the row and column numbers do not line up with them.
      styled.then(() => { el.dataset.multiples = String(Number(el.dataset.multiples || 0) + 1); });
    }

    function extent(v) {
      let lo = Infinity;
      let hi = -Infinity;
      for (let i = 0; i < v.length; i++) {
        if (v[i] < lo) lo = v[i];
        if (v[i] > hi) hi = v[i];
      }
      return { lo: float32String(lo), hi: float32String(hi) };
    }

    /** The most similar patch other than the picked one (in the picked frame): { q, best, same } or null. */
    function closestOf(v, p) {
      let best = -Infinity;
      let at = -1;
      const self = p.row * grid.cols + p.col;
      for (let i = 0; i < v.length; i++) {
        if (i !== self && v[i] > best) {
          best = v[i];
          at = i;
        }
      }
      if (at < 0) return null;
      return { q: { frame: p.frame, row: Math.floor(at / grid.cols), col: at % grid.cols }, best, same: best > 1 - 1e-6 };
    }

    function closestText(c, short = false) {
      if (!c) return '';
      if (short) return t(c.same ? 'vision.sim.closestSameShort' : 'vision.sim.closestShort', where(c.q), formatValue(c.best));
      return t(c.same ? 'vision.sim.closestSame' : 'vision.sim.closest', where(c.q), formatValue(c.best));
    }

    function showReadout() {
      if (!pick || !main) return;
      if (hover) {
        const v = main[hover.row * grid.cols + hover.col];
        readout.textContent = t('vision.sim.readout', where(pick), where({ ...hover, frame: pick.frame }), float32String(v));
      } else readout.textContent = t('vision.sim.picked', where(pick));
    }

    return {
      update(next) {
        const axial = next.spec.kind !== 'rope' || isAxial(next.spec);
        section().hidden = !axial;
        if (!axial) {
          state = null;
          return;
        }
        const prev = state;
        state = next;
        el.classList.toggle('stale', !!next.stale);
        if (next.changed.has('result') || !prev) {
          const g = gridOf(next.spec);
          const reshaped = !grid || g.frames !== grid.frames || g.rows !== grid.rows || g.cols !== grid.cols;
          const kindChanged = !prev || prev.spec.kind !== next.spec.kind;
          grid = g;
          frameIn.box.hidden = grid.frames <= 1;
          frameIn.input.max = String(grid.frames - 1);
          frameSlider.max = String(grid.frames - 1);
          rowIn.input.max = String(grid.rows - 1);
          colIn.input.max = String(grid.cols - 1);
          if (reshaped || kindChanged || figures.length === 0) buildMultiples();
          // Off the diagonal by default, where the layouts differ most.
          showPick(fromShared(next.shared.visionPatch) ?? pick
            ?? { frame: Math.floor(grid.frames / 2), row: Math.floor(grid.rows * 0.3), col: Math.floor(grid.cols * 0.7) });
        } else if (next.changed.has('shared:visionPatch')) {
          showPick(fromShared(next.shared.visionPatch) ?? pick, { now: false });
        } else if (next.changed.has('shared:colormap')) draw();
      },
      destroy() {
        cancelAnimationFrame(multiFrame);
        cancelAnimationFrame(pickFrame);
        big.destroy();
      },
    };
  },
};

/** A horizontal colour bar in the chosen map, over the range [lo, hi]. */
export function colorBar(colorize, t) {
  const canvas = h('canvas', { class: 'vs-cbar-canvas', width: 256, height: 1, 'aria-hidden': 'true' });
  const ticks = [0, 1, 2].map(() => h('span'));
  const el = h('div', { class: 'vs-cbar' },
    h('p', { class: 'vs-cbar-title', text: t('vision.sim.scale') }), canvas,
    h('div', { class: 'vs-cbar-ticks', 'aria-hidden': 'true' }, ticks));
  let shown = null;
  return {
    el,
    set(map, [lo, hi]) {
      const key = `${map}:${lo}:${hi}`;
      if (key === shown) return;
      shown = key;
      const ramp = new Float32Array(256);
      for (let i = 0; i < 256; i++) ramp[i] = (i + 0.5) / 256;
      const rgba = colorize(ramp, { map, vmin: 0, vmax: 1 });
      canvas.getContext('2d').putImageData(new ImageData(rgba, 256, 1), 0, 0);
      [lo, (lo + hi) / 2, hi].forEach((v, i) => { ticks[i].textContent = formatValue(Number(v.toFixed(2))); });
    },
  };
}
