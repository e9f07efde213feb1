// A picture of a patch grid: one square per patch, coloured by a value (C colour maps through
// pe.colorize), with the picked patch outlined. It is also the patch picker: click a square, or
// focus it and move with the arrow keys (Home / End: first / last column, PageUp / PageDown:
// first / last row). Hovering reports the square under the pointer.
//
//   const g = new GridImage(root, { colorize, label, onPick({ row, col }), onHover({ row, col } | null) });
//   g.set({ values, rows, cols, range: [lo, hi], colormap, pick: { row, col } | null, ghost });
//   (ghost: outline the pick dashed, e.g. the same place in another frame; mark: another cell to
//   outline dashed, e.g. a patch with the very same vector)
//   g.setLabel(text); g.destroy();
// With axes: { x, y } (titles, e.g. 'column', 'row') the picture gets row and column numbers
// beside it, at the centres of the squares they name (every square on small grids, a round step
// on large ones: gridTicks).
import { h } from '../../plot/dom.js';

const NICE_STEPS = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000];

/** The indices 0 … n − 1 to number on an axis: at most about `most`, a round step apart (and the last when it fits). */
export function gridTicks(n, most = 8) {
  if (n <= 0) return [];
  const raw = Math.max(1, Math.ceil((n - 1) / Math.max(1, most - 1)));
  const step = NICE_STEPS.find((s) => s >= raw) ?? raw;
  const out = [];
  for (let i = 0; i < n; i += step) out.push(i);
  const last = out[out.length - 1];
  if (n - 1 - last > step / 2) out.push(n - 1);   // the last square too, unless it would crowd the one before
  return out;
}

// Backing-store pixels along the longer side (before devicePixelRatio), about the size shown.
const TARGET = 420;
const TARGET_SMALL = 210;

export class GridImage {
  constructor(root, { colorize, label = '', small = false, onPick = null, onHover = null, axes = null }) {
    this.colorize = colorize;
    this.onPick = onPick;
    this.onHover = onHover;
    this.canvas = h('canvas', { class: 'vg-canvas', 'aria-hidden': 'true' });
    this.el = h('div', {
      class: `vg${small ? ' vg-small' : ''}`, tabindex: onPick ? 0 : null, role: onPick ? 'application' : 'img',
      'aria-label': label,
    }, this.canvas);
    if (axes) {
      this.xTicks = h('div', { class: 'vg-xticks', 'aria-hidden': 'true' });
      this.yTicks = h('div', { class: 'vg-yticks', 'aria-hidden': 'true' });
      this.ticksKey = '';
      root.append(h('div', { class: 'vg-axes' },
        h('span', { class: 'vg-ytitle', 'aria-hidden': 'true', text: `${axes.y} ↓` }), h('span'),
        this.yTicks, this.el,
        h('span'), this.xTicks,
        h('span'), h('span', { class: 'vg-xtitle', 'aria-hidden': 'true', text: `${axes.x} →` })));
    } else {
      root.append(this.el);
    }
    this.ctx = this.canvas.getContext('2d');
    this.src = document.createElement('canvas');
    this.srcCtx = this.src.getContext('2d');
    this.state = null;
    this.target = small ? TARGET_SMALL : TARGET;
    if (onPick) this._listen();
  }

  setLabel(text) {
    if (this.el.getAttribute('aria-label') !== text) this.el.setAttribute('aria-label', text);
  }

  set({ values, rows, cols, range, colormap = 'viridis', pick = null, ghost = false, mark = null }) {
    this.state = { values, rows, cols, range, colormap, pick };
    const dpr = Math.min(window.devicePixelRatio || 1, 3);
    const scale = Math.max(1, Math.floor((this.target * dpr) / Math.max(rows, cols)));
    const w = cols * scale;
    const hgt = rows * scale;
    if (this.canvas.width !== w || this.canvas.height !== hgt) {
      this.canvas.width = w;
      this.canvas.height = hgt;
    }
    if (this.src.width !== cols || this.src.height !== rows) {
      this.src.width = cols;
      this.src.height = rows;
    }
    const rgba = this.colorize(values.length === rows * cols ? values : values.subarray(0, rows * cols),
      { map: colormap, vmin: range[0], vmax: range[1] });
    this.srcCtx.putImageData(new ImageData(rgba, cols, rows), 0, 0);
    const c = this.ctx;
    c.imageSmoothingEnabled = false;
    c.clearRect(0, 0, w, hgt);
    c.drawImage(this.src, 0, 0, w, hgt);
    if (mark) this._outline(mark, scale, dpr, true);
    if (pick) this._outline(pick, scale, dpr, ghost);
    this._ticks(rows, cols);
  }

  /** Row and column numbers at the centres of their squares (when the picture has axes). */
  _ticks(rows, cols) {
    if (!this.xTicks || this.ticksKey === `${rows}×${cols}`) return;
    this.ticksKey = `${rows}×${cols}`;
    const place = (box, n, prop) => box.replaceChildren(...gridTicks(n).map((i) => {
      const tick = h('span', { class: 'vg-tick', text: String(i) });
      tick.style[prop] = `${((i + 0.5) / n) * 100}%`;
      return tick;
    }));
    place(this.xTicks, cols, 'left');
    place(this.yTicks, rows, 'top');
  }

  /**
   * A white line on a dark one around the cell (its colour stays visible inside), seen on every
   * colour of every map; dashed for a ghost or a mark. Tiny cells get a box of a few pixels.
   */
  _outline(cell, scale, dpr, dashed) {
    const c = this.ctx;
    const lw = Math.max(1, Math.round(Math.min(1.5 * dpr, scale / 8)));
    const m = Math.max(scale, Math.round(6 * dpr));
    const x = cell.col * scale + scale / 2 - m / 2 - lw;
    const y = cell.row * scale + scale / 2 - m / 2 - lw;
    const size = m + 2 * lw;
    c.setLineDash(dashed ? [2 * lw, 2 * lw] : []);
    c.lineWidth = lw * 2;
    c.strokeStyle = 'rgba(0,0,0,0.85)';
    c.strokeRect(x, y, size, size);
    c.lineWidth = lw;
    c.strokeStyle = '#fff';
    c.strokeRect(x, y, size, size);
    c.setLineDash([]);
  }

  _cellAt(e) {
    const s = this.state;
    if (!s) return null;
    const r = this.canvas.getBoundingClientRect();
    const fx = (e.clientX - r.left) / r.width;
    const fy = (e.clientY - r.top) / r.height;
    if (!(fx >= 0 && fx < 1 && fy >= 0 && fy < 1)) return null;
    return { row: Math.floor(fy * s.rows), col: Math.floor(fx * s.cols) };
  }

  _listen() {
    const el = this.el;
    el.addEventListener('click', (e) => {
      const cell = this._cellAt(e);
      if (cell) this.onPick(cell);
    });
    el.addEventListener('pointermove', (e) => this.onHover?.(this._cellAt(e)));
    el.addEventListener('pointerleave', () => this.onHover?.(null));
    el.addEventListener('keydown', (e) => {
      const s = this.state;
      if (!s || e.altKey || e.ctrlKey || e.metaKey) return;
      let { row, col } = s.pick ?? { row: 0, col: 0 };
      const step = e.shiftKey ? 5 : 1;
      switch (e.key) {
        case 'ArrowLeft': col -= step; break;
        case 'ArrowRight': col += step; break;
        case 'ArrowUp': row -= step; break;
        case 'ArrowDown': row += step; break;
        case 'Home': col = 0; break;
        case 'End': col = s.cols - 1; break;
        case 'PageUp': row = 0; break;
        case 'PageDown': row = s.rows - 1; break;
        default: return;
      }
      e.preventDefault();
      const pick = { row: Math.min(s.rows - 1, Math.max(0, row)), col: Math.min(s.cols - 1, Math.max(0, col)) };
      // Keys pressed before the next drawing move on from this pick, not from the one drawn last.
      s.pick = pick;
      this.onPick(pick);
    });
  }

  destroy() {
    (this.el.closest('.vg-axes') ?? this.el).remove();
  }
}
