// A canvas heatmap of a row-major [rows, cols] table: x = column, y = row.
//
// The canvas has exactly as many pixels as the screen area it covers (one pixel per cell where
// cells are larger than pixels: the browser scales it up crisply). Each redraw turns the visible
// window of the table into those pixels with the `render` function it is given, when it has one
// (every heatmap of the page is given pe.heatmap through web/model/pixels.js: c/heatmap.c
// resamples and colours in one pass, a tent-weighted mean where a pixel covers several cells, so
// fine detail cannot alias into moiré; see web/plot/README.md), or else resamples in JS
// (web/plot/resample.js: box means, which let false contrast through) and colours with
// `colorize`; data-resampler on the plot says which drew ('render' or 'js'). It knows no spec
// and no WebAssembly.
// Masked values (−Infinity, e.g. ALiBi above the diagonal) come out transparent, over a hatched
// background. Zoom: Ctrl/⌘ + wheel or pinch, the + − buttons, or + − 0 on the keyboard; pan by
// dragging or with the arrow keys once zoomed. Hover (or the arrow keys) reads (row, column,
// exact value); a click or Enter reports the cell to `onActivate`.
//
//   const hm = new Heatmap(element, { colorize, render, scan, t, axes: { x, y, value }, onActivate });
//   colorize(values: Float32Array, { map, vmin, vmax }) → Uint8ClampedArray RGBA
//   render(table, { rows, cols, offset, window: { x0, x1, y0, y1 }, width, height, map, vmin, vmax })
//     → Uint8ClampedArray of width × height RGBA pixels (optional); the first draw of new data
//     passes colorRange: (range) => [vmin, vmax] instead of vmin and vmax (pe.heatmap then reads
//     the table's range in the pass that resamples it), and the range given is the data's scan
//   scan(table, { offset, count }) → { lo, hi, negInf, posInf, nan, finite } (optional; default scanValues)
//   hm.setData({ data, rows, cols, offset, rowOffset, colOffset, range });
//   hm.setColormap('cividis'); hm.setScale('log'); hm.setStale(true); hm.highlight({ cols: [a, b] }); hm.destroy();
// Colour scale (web/plot/color-scale.js): 'linear' (default), 'sqrt', 'log' or 'auto' (log or sqrt
// for a non-negative table spanning decades); render gets the one in use as its `scale` option,
// the colour bar's ticks sit where that scale puts their colours, and data-scale on the plot names it.
import { h } from './dom.js';
import { Colorbar } from './colorbar.js';
import { colorRangeOf, planAxis, resample, scanValues } from './resample.js';
import { float32String, formatInt, formatValue, niceTicks } from './format.js';
import { COLORMAPS } from '../api/colormaps.js';
import { colorizeRange, robustLow, scaleRange } from './color-scale.js';
import { HeatMarks } from './highlight.js';

const MAX_CANVAS = 2048; // device pixels per side
const MIN_SPAN = 3; // cells visible at the deepest zoom

/** A name as a tick label: at most 8 characters, with an ellipsis when cut. */
function tickName(name) {
  const chars = [...String(name)];
  return chars.length <= 8 ? chars.join('') : `${chars.slice(0, 7).join('')}…`;
}

export class Heatmap {
  /**
   * @param {HTMLElement} root  an empty element to build in
   * @param {{ colorize: Function, render?: Function, scan?: Function, t, axes: { x: string, y: string, value: string }, onActivate?: Function,
   *   onWindow?: Function, colormap?: string, scale?: string, compact?: boolean, label?: string }} opts
   */
  constructor(root, { colorize, render = null, scan = null, t, axes, onActivate = null, onWindow = null, colormap = 'viridis', scale = 'linear', compact = false, label = '' }) {
    this.colorize = colorize;
    this.render = render;
    this.scanner = scan;
    this.t = t;
    this.axes = axes;
    this.onActivate = onActivate;
    this.onWindow = onWindow;
    this.colormap = colormap;
    this.scale = scale; // asked for; this.scaleUsed: the one drawn (colorRange)
    this.scaleUsed = 'linear';
    this.label = label;
    this.data = null;
    this.win = null;
    this.cursor = null; // { row, col } in table cells
    this.frame = 0;
    this.lastDrawMs = 0;

    this.plot = h('div', {
      class: 'hm-plot', tabindex: 0, role: 'application', 'aria-roledescription': t('heatmap.roledescription'),
    });
    this.canvas = h('canvas', { class: 'hm-canvas', 'aria-hidden': 'true' });
    this.cursorBox = h('div', { class: 'hm-cursor', hidden: true });
    this.tools = h('div', { class: 'hm-tools' },
      this._tool('+', t('heatmap.zoomIn'), () => this.zoomBy(1.6)),
      this._tool('−', t('heatmap.zoomOut'), () => this.zoomBy(1 / 1.6)),
      this._tool('⤢', t('heatmap.zoomReset'), () => this.resetView()));
    this.plot.append(this.canvas, this.cursorBox);
    this.highlights = new HeatMarks(this.plot); // highlight(): bands, cells, diagonals over the picture
    this.xTicks = h('div', { class: 'hm-xticks', 'aria-hidden': 'true' });
    this.yTicks = h('div', { class: 'hm-yticks', 'aria-hidden': 'true' });
    this.colorbar = new Colorbar({ title: t('heatmap.colorbar') });
    this.cbar = this.colorbar.el;
    this.ylabel = h('div', { class: 'hm-ylabel', 'aria-hidden': 'true', text: axes.y });
    this.xlabel = h('div', { class: 'hm-xlabel', 'aria-hidden': 'true', text: axes.x });
    this.readout = h('p', { class: 'hm-readout', 'aria-live': 'polite' });
    this.legend = h('div', { class: 'hm-legend' });
    this.el = h('div', { class: `hm${compact ? ' hm-compact' : ''}` },
      h('div', { class: 'hm-grid' }, this.ylabel, this.yTicks, h('div', { class: 'hm-plot-wrap' }, this.plot),
        this.cbar, this.xTicks, this.xlabel),
      h('div', { class: 'hm-foot' }, this.readout, this.legend, this.tools));
    this.compact = compact;
    root.append(this.el);
    this.ctx = this.canvas.getContext('2d');
    this._hint();

    this._listen();
    this.resizeObserver = new ResizeObserver((entries) => {
      const box = entries[entries.length - 1].contentRect;
      // The plot's size as laid out, kept for draw(): reading clientWidth there, after the page's
      // DOM writes of the same change, would force an extra layout of the whole page per redraw.
      this.box = { w: Math.round(box.width), h: Math.round(box.height) };
      if (this.size && this.box.w === this.size.w && this.box.h === this.size.h) return;
      this.schedule();
    });
    this.resizeObserver.observe(this.plot);
  }

  _tool(text, label, fn) {
    return h('button', { type: 'button', class: 'hm-tool', 'aria-label': label, title: label, text, on: { click: fn } });
  }

  _hint() {
    // Small heatmaps (side by side in the compare view) leave the hint to the big one.
    this.readout.textContent = this.compact ? '' : this.t('heatmap.hint');
    this.readout.classList.add('is-hint');
  }

  // --- data -----------------------------------------------------------------------------------

  /**
   * @param {{ data: Float32Array, rows: number, cols: number, offset?: number, rowOffset?: number,
   *   colOffset?: number, range?: [number, number] | null, valueRange?: [number, number] | null,
   *   rowNames?: string[] | null, colNames?: string[] | null }} d
   *   range: the exact colour range (no symmetry or padding applied); valueRange: the value range
   *   to fit the colours to instead of this table's (e.g. over every head of a 3-D output);
   *   rowNames / colNames: a name for each row / column (M-RoPE's t, h, w; the words of a
   *   sentence), shown on the ticks and in the readout instead of bare numbers; low: the robust
   *   low for the sqrt / log scales instead of this table's (panes sharing one range share it too)
   */
  setData({ data, rows, cols, offset = 0, rowOffset = 0, colOffset = 0, range = null, valueRange = null, rowNames = null, colNames = null, low }) {
    const sameShape = this.data && this.rows === rows && this.cols === cols;
    const names = (list, n) => (Array.isArray(list) && list.length === n ? list : null);
    Object.assign(this, { data, rows, cols, offset, rowOffset, colOffset, rowNames: names(rowNames, rows), colNames: names(colNames, cols) });
    // The scan (range, non-finite kinds) of new data: with a render function, the first draw reads
    // it from the render's own pass over the table (see _pixels); otherwise now.
    this.scan = null;
    this.low = low; // robustLow of the data, read when a scale other than linear needs it
    if (!this.render) this._setScan(this._scanNow());
    this.fixedRange = range;
    this.valueRange = valueRange;
    if (!sameShape) {
      this.win = { x0: 0, x1: cols, y0: 0, y1: rows };
      this.cursor = null;
      this.highlights.set(null);
    }
    this.draw();
  }

  _scanNow() {
    const { data, offset, rows, cols } = this;
    return this.scanner ? this.scanner(data, { offset, count: rows * cols }) : scanValues(data, offset, rows * cols);
  }

  _setScan(scan) {
    this.scan = scan;
    this._updateLegend();
    this._updateLabel();
  }

  setColormap(name) {
    if (!COLORMAPS[name] || name === this.colormap) return;
    this.colormap = name;
    this._updateLegend();
    this.draw();
  }

  setScale(name) {
    if (name === this.scale) return;
    this.scale = name;
    this.draw();
  }

  /** Highlights shapes of cells over the picture (web/plot/highlight.js), null clears; returns them in cell units. */
  highlight(shapes) {
    return this.data ? this.highlights.set(shapes, this.rows, this.cols) : [];
  }

  setStale(stale) {
    this.plot.classList.toggle('stale', !!stale);
  }

  /**
   * The colour range in use: [lo, hi]; symmetric around 0 for the diverging map; on the sqrt scale
   * from 0 up, on the log scale from its floor (color-scale.js). Sets scaleUsed.
   */
  colorRange() {
    const [lo, hi] = this.fixedRange ?? this.valueRange ?? [this.scan?.lo, this.scan?.hi];
    const linear = this.fixedRange ?? colorRangeOf(lo, hi, !!COLORMAPS[this.colormap].diverging);
    const low = () => (this.low ??= robustLow(this.data, this.offset, this.rows * this.cols));
    const { scale, range } = scaleRange(this.scale, lo, hi, linear, low);
    this.scaleUsed = scale;
    return range;
  }

  // --- view window ----------------------------------------------------------------------------

  get zoomed() {
    const w = this.win;
    return !!w && (w.x0 > 0 || w.y0 > 0 || w.x1 < this.cols || w.y1 < this.rows);
  }

  setWindow(win, { silent = false } = {}) {
    if (!this.data) return;
    const clampAxis = (a, b, len) => {
      const minSpan = Math.min(len, MIN_SPAN);
      let span = Math.min(len, Math.max(minSpan, b - a));
      let lo = Math.min(Math.max(0, a), len - span);
      if (span >= len) {
        lo = 0;
        span = len;
      }
      return [lo, lo + span];
    };
    const [x0, x1] = clampAxis(win.x0, win.x1, this.cols);
    const [y0, y1] = clampAxis(win.y0, win.y1, this.rows);
    this.win = { x0, x1, y0, y1 };
    this.plot.classList.toggle('is-zoomed', this.zoomed);
    this.schedule();
    if (!silent && this.onWindow) this.onWindow(this.win);
  }

  resetView() {
    if (this.data) this.setWindow({ x0: 0, x1: this.cols, y0: 0, y1: this.rows });
  }

  /** Zoom by factor around (cx, cy) in cell coordinates (default: the window's centre). */
  zoomBy(factor, cx, cy) {
    if (!this.win) return;
    const w = this.win;
    cx ??= (w.x0 + w.x1) / 2;
    cy ??= (w.y0 + w.y1) / 2;
    this.setWindow({
      x0: cx - (cx - w.x0) / factor, x1: cx + (w.x1 - cx) / factor,
      y0: cy - (cy - w.y0) / factor, y1: cy + (w.y1 - cy) / factor,
    });
  }

  panBy(dx, dy) {
    const w = this.win;
    if (!w) return;
    this.setWindow({ x0: w.x0 + dx, x1: w.x1 + dx, y0: w.y0 + dy, y1: w.y1 + dy });
  }

  // --- drawing --------------------------------------------------------------------------------

  schedule() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  draw() {
    if (this.frame) {
      cancelAnimationFrame(this.frame);
      this.frame = 0;
    }
    if (!this.data) return;
    // Read every size first: a read after a DOM write would force a second layout. (The first
    // read may have to lay out the page; that is the browser's work, not the heatmap's.)
    const cssW = this.box?.w || this.plot.clientWidth || 600;
    const cssH = this.box?.h || this.plot.clientHeight || 400;
    const t0 = performance.now();
    this.size = { w: cssW, h: cssH };
    const dpr = Math.min(window.devicePixelRatio || 1, 3);
    const pw = Math.max(1, Math.min(MAX_CANVAS, Math.round(cssW * dpr)));
    const ph = Math.max(1, Math.min(MAX_CANVAS, Math.round(cssH * dpr)));
    // One canvas pixel per cell where cells are larger than pixels (the browser scales it up,
    // crisply), box means where they are smaller.
    const { x0, x1, y0, y1 } = this.win;
    const xp = planAxis(x0, x1, pw, this.cols);
    const yp = planAxis(y0, y1, ph, this.rows);
    if (this.canvas.width !== xp.count || this.canvas.height !== yp.count) {
      this.canvas.width = xp.count;
      this.canvas.height = yp.count;
    }
    const geometry = `${xp.cssScale},${xp.cssOffset},${yp.cssScale},${yp.cssOffset}`;
    if (geometry !== this.geometry) {
      this.geometry = geometry;
      const cs = this.canvas.style;
      cs.width = `${xp.cssScale * 100}%`;
      cs.height = `${yp.cssScale * 100}%`;
      cs.left = `${xp.cssOffset * 100}%`;
      cs.top = `${yp.cssOffset * 100}%`;
    }
    const { rgba, lo, hi } = this._pixels(xp, yp);
    this.ctx.putImageData(new ImageData(rgba, xp.count, yp.count), 0, 0);
    this._drawTicks();
    this._drawColorbar(lo, hi);
    this._placeCursor();
    this.highlights.place(this.win);
    this.lastDrawMs = performance.now() - t0;
  }

  /**
   * The RGBA pixels of the window for the axis plans xp, yp, and the colour range [lo, hi] they
   * were coloured with (colorRange() once the scan is known). The first draw of new data lets
   * render read the scan in its own pass (colorRange option); otherwise the data is scanned here.
   */
  _pixels(xp, yp) {
    if (this.render) {
      // An identity plan draws whole cells [start, start + count); otherwise the window itself.
      const { x0, x1, y0, y1 } = this.win;
      const window = {
        x0: xp.identity ? xp.start : x0, x1: xp.identity ? xp.start + xp.count : x1,
        y0: yp.identity ? yp.start : y0, y1: yp.identity ? yp.start + yp.count : y1,
      };
      const opts = { rows: this.rows, cols: this.cols, offset: this.offset, window, width: xp.count, height: yp.count, map: this.colormap };
      // Another scale than linear is chosen from the range: known before the pixels are asked for.
      if (!this.scan && this.scale !== 'linear') this._setScan(this._scanNow());
      try {
        if (this.scan) {
          const [lo, hi] = this.colorRange();
          const rgba = this.render(this.data, { ...opts, vmin: lo, vmax: hi, ...(this.scaleUsed !== 'linear' && { scale: this.scaleUsed }) });
          this._drewWith('render');
          return { rgba, lo, hi };
        }
        let range = null;
        const rgba = this.render(this.data, {
          ...opts,
          colorRange: (scan) => {
            this._setScan(scan);
            range = this.colorRange();
            return range;
          },
        });
        if (range) {
          this._drewWith('render');
          return { rgba, lo: range[0], hi: range[1] };
        }
      } catch (err) {
        console.warn('heatmap: render failed, resampling in JS', err);
      }
    }
    if (!this.scan) this._setScan(this._scanNow());
    const [lo, hi] = this.colorRange();
    const values = resample(this.data, this.rows, this.cols, xp, yp, { offset: this.offset, finite: this.scan.finite });
    this._drewWith('js');
    return { rgba: colorizeRange(this.colorize, values, this.colormap, this.scaleUsed, lo, hi), lo, hi };
  }

  /**
   * Announces which resampler drew the last picture (data-resampler on the plot): 'render' (the
   * function given, the page's C resampler) or 'js' (web/plot/resample.js, box means).
   */
  _drewWith(how) {
    if (this.plot.dataset.resampler !== how) this.plot.dataset.resampler = how;
  }

  _drawColorbar(lo, hi) {
    if (this.plot.dataset.scale !== this.scaleUsed) this.plot.dataset.scale = this.scaleUsed;
    this.colorbar.draw({
      colorize: this.colorize, colormap: this.colormap, scale: this.scaleUsed, lo, hi, height: this.size?.h || 300, title: this.axes.value ?? '',
    });
  }

  _drawTicks() {
    const { x0, x1, y0, y1 } = this.win;
    const { w, h: hgt } = this.size;
    const key = `${x0},${x1},${y0},${y1},${w},${hgt},${this.rowOffset},${this.colOffset},${this.rowNames?.join('\u0000')},${this.colNames?.join('\u0000')}`;
    if (key === this.ticksKey) return; // same window, same ticks: no DOM work
    this.ticksKey = key;
    const place = (box, a, b, offset, names, px, spacing, prop) => {
      box.textContent = '';
      const first = Math.ceil(a - 0.5);
      const last = Math.floor(b - 0.5);
      // Named cells (t, h, w; the words) are labelled one by one while each has room, else sampled.
      const every = names && (last - first + 1) * spacing * 0.5 <= px;
      const cells = every ? Array.from({ length: last - first + 1 }, (_, i) => first + i)
        : niceTicks(first, last, Math.max(2, Math.min(10, Math.floor(px / spacing))));
      let widest = 1;
      for (const c of cells) {
        const tick = h('span', { class: 'hm-tick', text: names ? tickName(names[c]) : formatInt(c + offset) });
        tick.style[prop] = `${((c + 0.5 - a) / (b - a)) * 100}%`;
        box.append(tick);
        widest = Math.max(widest, tick.textContent.length);
      }
      return widest;
    };
    place(this.xTicks, x0, x1, this.colOffset, this.colNames, w, 64, 'left');
    const widest = place(this.yTicks, y0, y1, this.rowOffset, this.rowNames, hgt, 36, 'top');
    this.yTicks.style.width = `${widest * 0.62 + 0.6}em`;
  }

  _updateLegend() {
    const s = this.scan;
    const key = `${s.negInf}${s.nan}${s.posInf}${this.colormap}`;
    if (key === this.legendKey) return;
    this.legendKey = key;
    this.legend.textContent = '';
    const item = (cls, text) => h('span', { class: 'hm-legend-item' }, h('span', { class: `hm-swatch ${cls}` }), text);
    if (s.negInf) this.legend.append(item('hm-swatch-masked', this.t('heatmap.masked')));
    if (s.nan) this.legend.append(item('hm-swatch-nan', this.t('heatmap.nan')));
    if (s.posInf) this.legend.append(item(COLORMAPS[this.colormap].diverging ? 'hm-swatch-posinf-dark' : 'hm-swatch-posinf', this.t('heatmap.posInf')));
  }

  _updateLabel() {
    const [lo, hi] = Number.isFinite(this.scan.lo) ? [this.scan.lo, this.scan.hi] : [NaN, NaN];
    const label = this.t('heatmap.aria', {
      what: this.label, rows: this.rows, cols: this.cols, y: this.axes.y, x: this.axes.x,
      lo: formatValue(lo), hi: formatValue(hi), masked: this.scan.negInf,
    });
    if (this.plot.getAttribute('aria-label') !== label) this.plot.setAttribute('aria-label', label);
  }

  // --- pointer and keyboard -------------------------------------------------------------------

  _cellAt(clientX, clientY) {
    if (!this.data) return null;
    const rect = this.plot.getBoundingClientRect();
    const fx = (clientX - rect.left) / rect.width;
    const fy = (clientY - rect.top) / rect.height;
    if (!(fx >= 0 && fx < 1 && fy >= 0 && fy < 1)) return null;
    const { x0, x1, y0, y1 } = this.win;
    return {
      col: Math.min(this.cols - 1, Math.floor(x0 + fx * (x1 - x0))),
      row: Math.min(this.rows - 1, Math.floor(y0 + fy * (y1 - y0))),
      fx: x0 + fx * (x1 - x0),
      fy: y0 + fy * (y1 - y0),
    };
  }

  _setCursor(cell, { follow = false } = {}) {
    if (!cell) {
      this.cursor = null;
      this.cursorBox.hidden = true;
      return;
    }
    this.cursor = { row: cell.row, col: cell.col };
    if (follow) {
      // Keep the cursor's cell inside the window.
      const w = this.win;
      let dx = 0;
      let dy = 0;
      if (cell.col < w.x0) dx = cell.col - w.x0;
      else if (cell.col + 1 > w.x1) dx = cell.col + 1 - w.x1;
      if (cell.row < w.y0) dy = cell.row - w.y0;
      else if (cell.row + 1 > w.y1) dy = cell.row + 1 - w.y1;
      if (dx || dy) this.panBy(dx, dy);
    }
    this._placeCursor();
    const v = this.data[this.offset + cell.row * this.cols + cell.col];
    const value = v - v === 0 ? float32String(v) : `${formatValue(v)}${v === -Infinity ? ` (${this.t('heatmap.maskedShort')})` : ''}`;
    this.readout.classList.remove('is-hint');
    const named = (i, offset, names) => (names ? `${formatInt(i + offset)} “${names[i]}”` : formatInt(i + offset));
    this.readout.textContent = this.t('heatmap.readout', {
      y: this.axes.y, row: named(cell.row, this.rowOffset, this.rowNames), x: this.axes.x,
      col: named(cell.col, this.colOffset, this.colNames), value,
    });
  }

  _placeCursor() {
    const c = this.cursor;
    if (!c || !this.win) {
      this.cursorBox.hidden = true;
      return;
    }
    const { x0, x1, y0, y1 } = this.win;
    const rect = this.size ?? { w: this.plot.clientWidth, h: this.plot.clientHeight };
    const cw = rect.w / (x1 - x0);
    const ch = rect.h / (y1 - y0);
    const inside = c.col + 1 > x0 && c.col < x1 && c.row + 1 > y0 && c.row < y1;
    const big = cw >= 3 && ch >= 3;
    const focused = this.plot.matches(':focus-visible');
    if (!inside || (!big && !focused)) {
      this.cursorBox.hidden = true;
      return;
    }
    const s = this.cursorBox.style;
    // Tiny cells: a small marker around the cell rather than a box as small as a pixel.
    const mw = Math.max(cw, 7);
    const mh = Math.max(ch, 7);
    s.left = `${(c.col - x0) * cw + cw / 2 - mw / 2}px`;
    s.top = `${(c.row - y0) * ch + ch / 2 - mh / 2}px`;
    s.width = `${mw}px`;
    s.height = `${mh}px`;
    this.cursorBox.hidden = false;
  }

  _listen() {
    const p = this.plot;
    let drag = null;
    p.addEventListener('pointerdown', (e) => {
      if (e.button !== 0 || !this.data) return;
      drag = { x: e.clientX, y: e.clientY, win: { ...this.win }, moved: false, id: e.pointerId };
      // A touch has no hover: the cell under the finger is the read-out's.
      const cell = this._cellAt(e.clientX, e.clientY);
      if (cell) this._setCursor(cell);
      // Only a zoomed picture pans; otherwise a touch keeps scrolling the page.
      if (this.zoomed) p.setPointerCapture(e.pointerId);
    });
    p.addEventListener('pointermove', (e) => {
      if (drag && this.zoomed && (Math.abs(e.clientX - drag.x) > 3 || Math.abs(e.clientY - drag.y) > 3)) {
        drag.moved = true;
        p.classList.add('is-dragging');
        const rect = p.getBoundingClientRect();
        const w = drag.win;
        const dx = ((drag.x - e.clientX) / rect.width) * (w.x1 - w.x0);
        const dy = ((drag.y - e.clientY) / rect.height) * (w.y1 - w.y0);
        this.setWindow({ x0: w.x0 + dx, x1: w.x1 + dx, y0: w.y0 + dy, y1: w.y1 + dy });
        return;
      }
      const cell = this._cellAt(e.clientX, e.clientY);
      if (cell) this._setCursor(cell);
    });
    const end = (e) => {
      if (!drag) return;
      const wasDrag = drag.moved;
      drag = null;
      p.classList.remove('is-dragging');
      if (p.hasPointerCapture?.(e.pointerId)) p.releasePointerCapture(e.pointerId);
      if (!wasDrag && e.type === 'pointerup') {
        const cell = this._cellAt(e.clientX, e.clientY);
        if (cell) this._setCursor(cell);
        if (cell && this.onActivate) this.onActivate({ row: cell.row, col: cell.col });
      }
    };
    p.addEventListener('pointerup', end);
    p.addEventListener('pointercancel', end);
    p.addEventListener('pointerleave', (e) => {
      // A finger "leaves" as it lifts: the tapped cell stays read out (a mouse that leaves clears it).
      if (e.pointerType === 'touch') return;
      if (!drag && document.activeElement !== p) {
        this._setCursor(null);
        this._hint();
      }
    });
    p.addEventListener('wheel', (e) => {
      if (!(e.ctrlKey || e.metaKey) || !this.data) return;
      e.preventDefault();
      const cell = this._cellAt(e.clientX, e.clientY);
      this.zoomBy(Math.exp(-e.deltaY * 0.004), cell?.fx, cell?.fy);
    }, { passive: false });
    p.addEventListener('dblclick', (e) => {
      const cell = this._cellAt(e.clientX, e.clientY);
      if (cell) this.zoomBy(2, cell.fx, cell.fy);
    });
    p.addEventListener('focus', () => {
      if (!this.cursor && this.data) {
        const w = this.win;
        this._setCursor({ row: Math.floor(w.y0), col: Math.floor(w.x0) });
      } else this._placeCursor();
    });
    p.addEventListener('blur', () => this._placeCursor());
    p.addEventListener('keydown', (e) => this._key(e));
  }

  _key(e) {
    if (!this.data || e.altKey || e.ctrlKey || e.metaKey) return;
    const c = this.cursor ?? { row: Math.floor(this.win.y0), col: Math.floor(this.win.x0) };
    const step = e.shiftKey ? 10 : 1;
    const page = Math.max(1, Math.floor(this.win.y1 - this.win.y0));
    let { row, col } = c;
    switch (e.key) {
      case 'ArrowLeft': col -= step; break;
      case 'ArrowRight': col += step; break;
      case 'ArrowUp': row -= step; break;
      case 'ArrowDown': row += step; break;
      case 'PageUp': row -= page; break;
      case 'PageDown': row += page; break;
      case 'Home': col = 0; if (e.shiftKey) row = 0; break;
      case 'End': col = this.cols - 1; if (e.shiftKey) row = this.rows - 1; break;
      case '+': case '=': this.zoomBy(1.6, c.col + 0.5, c.row + 0.5); e.preventDefault(); return;
      case '-': case '_': this.zoomBy(1 / 1.6, c.col + 0.5, c.row + 0.5); e.preventDefault(); return;
      case '0': this.resetView(); e.preventDefault(); return;
      case 'Enter': case ' ':
        if (this.onActivate) this.onActivate({ row: c.row, col: c.col });
        e.preventDefault();
        return;
      default: return;
    }
    e.preventDefault();
    row = Math.min(this.rows - 1, Math.max(0, row));
    col = Math.min(this.cols - 1, Math.max(0, col));
    this._setCursor({ row, col }, { follow: true });
  }

  destroy() {
    this.resizeObserver.disconnect();
    if (this.frame) cancelAnimationFrame(this.frame);
    this.el.remove();
  }
}
