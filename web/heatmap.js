// Canvas heatmap of a row-major [rows, cols] Float32Array: x = column (dimension), y = row (position).
//
// The picture is drawn through ImageData with a 256-entry colour LUT. The canvas never has more pixels
// than the screen area it covers: a table larger than that is box-averaged down first (so a 2000 x 1600
// table costs one pass over the data), a smaller one is upscaled by the browser with
// `image-rendering: pixelated`, so every cell stays a crisp rectangle.
//
//   const hm = new Heatmap(element, { strings, onColumnClick });
//   hm.setData({ data, rows, cols, rowOffset });   // draws (on the next animation frame)
//   hm.setColormap('diverging');
//   hm.setStale(true);                              // dims the picture while the inputs are invalid

import { COLORMAPS, DEFAULT_COLORMAP, packedLut } from './colormaps.js';

const DEFAULT_STRINGS = {
  x: 'dimension',
  y: 'position',
  value: 'value',
  hoverHint: 'Point at the map to read a value.',
  readout: (pos, dim, value) => `position ${pos}, dimension ${dim}: ${value}`,
  masked: 'masked',
  colorbar: 'colour scale',
  ariaLabel: (rows, cols) => `heatmap of ${rows} positions by ${cols} dimensions`,
  dataRange: (lo, hi) => `data range ${lo} … ${hi}`,
};

const MASK_RGBA = [128, 128, 128, 255]; // non-finite values (e.g. -Infinity in masked tables)

/** Format a number compactly for labels and the readout. */
export function formatValue(v) {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '∞';
  if (v === -Infinity) return '−∞';
  if (v === 0) return '0';
  const a = Math.abs(v);
  let s;
  if (a >= 1e5 || a < 1e-3) s = v.toExponential(2).replace('e+', 'e');
  else s = String(Number(v.toPrecision(4)));
  return s.replace('-', '−');
}

/** Tick label for an integer: digit groups from 10 000 up. */
export function formatTick(n) {
  return Math.abs(n) >= 10000 ? n.toLocaleString('en-US') : String(n);
}

/** Integer ticks between first and last (inclusive), about maxTicks of them, at 1/2/5 x 10^k steps. */
export function niceTicks(first, last, maxTicks) {
  const span = last - first;
  if (span <= 0) return [first];
  const raw = span / Math.max(1, maxTicks);
  const mag = 10 ** Math.floor(Math.log10(raw));
  let step = mag;
  for (const m of [1, 2, 5, 10]) {
    if (m * mag >= raw) {
      step = m * mag;
      break;
    }
  }
  step = Math.max(1, Math.round(step));
  const ticks = [];
  for (let v = Math.ceil(first / step) * step; v <= last; v += step) ticks.push(v);
  return ticks;
}

/** Finite minimum and maximum of an array (NaN, NaN when nothing is finite). */
export function finiteRange(data) {
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < data.length; i++) {
    const v = data[i];
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (lo === -Infinity || hi === Infinity) {
    // Infinities present: scan again for the finite range only.
    lo = Infinity;
    hi = -Infinity;
    for (let i = 0; i < data.length; i++) {
      const v = data[i];
      if (v - v !== 0) continue;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  }
  if (lo > hi) return [NaN, NaN];
  return [lo, hi];
}

/**
 * Box-average a [rows, cols] table down to [th, tw] (th <= rows, tw <= cols). Non-finite entries are
 * left out of the averages; a box with no finite entry becomes NaN.
 */
export function downsample(data, rows, cols, th, tw) {
  if (th === rows && tw === cols) return data;
  const out = new Float32Array(th * tw);
  const acc = new Float64Array(cols);
  const cnt = new Uint32Array(cols);
  const c0 = new Uint32Array(tw + 1);
  for (let x = 0; x <= tw; x++) c0[x] = Math.floor((x * cols) / tw);
  for (let y = 0; y < th; y++) {
    const r0 = Math.floor((y * rows) / th);
    const r1 = Math.max(r0 + 1, Math.floor(((y + 1) * rows) / th));
    acc.fill(0);
    cnt.fill(0);
    for (let r = r0; r < r1; r++) {
      const base = r * cols;
      for (let c = 0; c < cols; c++) {
        const v = data[base + c];
        if (v - v === 0) {
          acc[c] += v;
          cnt[c]++;
        }
      }
    }
    const o = y * tw;
    for (let x = 0; x < tw; x++) {
      let s = 0;
      let n = 0;
      for (let c = c0[x], e = Math.max(c0[x] + 1, c0[x + 1]); c < e; c++) {
        s += acc[c];
        n += cnt[c];
      }
      out[o + x] = n ? s / n : NaN;
    }
  }
  return out;
}

function el(tag, className, parent) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (parent) parent.appendChild(e);
  return e;
}

export class Heatmap {
  /**
   * @param {HTMLElement} root  an empty element to build the heatmap in
   * @param {{ strings?: object, onColumnClick?: (col: number) => void, colormap?: string }} [opts]
   */
  constructor(root, { strings = {}, onColumnClick = null, colormap = DEFAULT_COLORMAP } = {}) {
    this.s = { ...DEFAULT_STRINGS, ...strings };
    this.onColumnClick = onColumnClick;
    this.colormap = colormap;
    this.lut = packedLut(colormap);
    this.rows = 0;
    this.cols = 0;
    this.rowOffset = 0;
    this.data = null;
    this.pointer = null; // last pointer position over the plot
    this.range = [NaN, NaN];
    this.frame = 0;
    this.lastDrawMs = 0;

    root.classList.add('hm');
    const grid = el('div', 'hm-grid', root);
    this.yLabel = el('div', 'hm-ylabel', grid);
    this.yLabel.textContent = this.s.y;
    this.yTicks = el('div', 'hm-yticks', grid);
    this.yTicks.setAttribute('aria-hidden', 'true');
    this.plot = el('div', 'hm-plot', grid);
    this.canvas = el('canvas', 'hm-canvas', this.plot);
    this.canvas.setAttribute('role', 'img');
    this.cursor = el('div', 'hm-cursor', this.plot);
    this.cursor.hidden = true;
    const cbar = el('div', 'hm-cbar', grid);
    cbar.setAttribute('aria-label', this.s.colorbar);
    this.cbarCanvas = el('canvas', 'hm-cbar-canvas', cbar);
    this.cbarCanvas.width = 1;
    this.cbarCanvas.height = 256;
    this.cbarTicks = el('div', 'hm-cbar-ticks', cbar);
    el('div', 'hm-corner', grid);
    this.xTicks = el('div', 'hm-xticks', grid);
    this.xTicks.setAttribute('aria-hidden', 'true');
    el('div', 'hm-corner', grid);
    this.xLabel = el('div', 'hm-xlabel', grid);
    this.xLabel.textContent = this.s.x;
    this.readout = el('p', 'hm-readout', root);
    this.readout.textContent = this.s.hoverHint;

    this.ctx = this.canvas.getContext('2d', { alpha: false });
    this.image = null;

    this.plot.addEventListener('pointermove', (e) => this._hover(e));
    this.plot.addEventListener('pointerdown', (e) => this._hover(e));
    this.plot.addEventListener('pointerleave', () => {
      this.cursor.hidden = true;
      this.pointer = null;
    });
    // Clicking a column (with a mouse or pen: a tap on a touch screen only reads the value) selects it.
    let pointerType = 'mouse';
    this.plot.addEventListener('pointerdown', (e) => {
      pointerType = e.pointerType;
    });
    this.plot.addEventListener('click', (e) => {
      if (pointerType === 'touch') return;
      const cell = this._cellAt(e);
      if (cell && this.onColumnClick) this.onColumnClick(cell.col);
    });
    if (typeof ResizeObserver !== 'undefined') {
      let last = '';
      this.resizeObserver = new ResizeObserver(() => {
        const key = `${this.plot.clientWidth}x${this.plot.clientHeight}`;
        if (key !== last) {
          last = key;
          this.schedule();
        }
      });
      this.resizeObserver.observe(this.plot);
    }
    this._drawColorbar();
  }

  /** @param {{ data: Float32Array, rows: number, cols: number, rowOffset?: number }} t */
  setData({ data, rows, cols, rowOffset = 0 }) {
    if (data.length !== rows * cols) throw new Error(`heatmap: ${data.length} values for ${rows} x ${cols}`);
    this.data = data;
    this.rows = rows;
    this.cols = cols;
    this.rowOffset = rowOffset;
    this.range = finiteRange(data);
    this.canvas.setAttribute('aria-label', this.s.ariaLabel(rows, cols));
    this.cursor.hidden = true;
    this.draw();
    if (this.pointer) this._hover(this.pointer); // keep the readout in step with the new data
  }

  setColormap(key) {
    if (!COLORMAPS[key] || key === this.colormap) return;
    this.colormap = key;
    this.lut = packedLut(key);
    this._drawColorbar();
    this.draw();
  }

  setStale(stale) {
    this.plot.classList.toggle('stale', stale);
  }

  /** Redraw on the next animation frame (coalesced). */
  schedule() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  /** The colour range in use: [lo, hi]; symmetric around 0 for diverging maps. */
  colorRange() {
    let [lo, hi] = this.range;
    if (Number.isNaN(lo)) return [-1, 1];
    if (COLORMAPS[this.colormap].kind === 'diverging') {
      const m = Math.max(Math.abs(lo), Math.abs(hi)) || 1;
      return [-m, m];
    }
    if (lo === hi) {
      const pad = Math.abs(lo) * 0.5 || 0.5;
      return [lo - pad, hi + pad];
    }
    return [lo, hi];
  }

  draw() {
    if (this.frame) {
      cancelAnimationFrame(this.frame);
      this.frame = 0;
    }
    if (!this.data) return;
    const t0 = performance.now();
    const { rows, cols } = this;
    const dpr = window.devicePixelRatio || 1;
    const pw = Math.round(this.plot.clientWidth * dpr) || 1024;
    const ph = Math.round(this.plot.clientHeight * dpr) || 1024;
    const tw = Math.max(1, Math.min(cols, pw));
    const th = Math.max(1, Math.min(rows, ph));
    const values = downsample(this.data, rows, cols, th, tw);

    if (this.canvas.width !== tw || this.canvas.height !== th) {
      this.canvas.width = tw;
      this.canvas.height = th;
      this.image = null;
    }
    if (!this.image) this.image = this.ctx.createImageData(tw, th);
    const px = new Uint32Array(this.image.data.buffer);
    const lut = this.lut;
    const mask = new Uint32Array(new Uint8Array(MASK_RGBA).buffer)[0];
    const [lo, hi] = this.colorRange();
    const scale = 256 / (hi - lo);
    for (let i = 0, n = tw * th; i < n; i++) {
      const v = values[i];
      if (v - v !== 0) {
        px[i] = mask;
        continue;
      }
      let k = ((v - lo) * scale) | 0;
      if (k < 0) k = 0;
      else if (k > 255) k = 255;
      px[i] = lut[k];
    }
    this.ctx.putImageData(this.image, 0, 0);
    this._drawTicks();
    this._drawColorbarTicks(lo, hi);
    this.lastDrawMs = performance.now() - t0;
  }

  _drawColorbar() {
    const ctx = this.cbarCanvas.getContext('2d');
    const img = ctx.createImageData(1, 256);
    const px = new Uint32Array(img.data.buffer);
    for (let i = 0; i < 256; i++) px[i] = this.lut[255 - i]; // top = high
    ctx.putImageData(img, 0, 0);
  }

  _drawColorbarTicks(lo, hi) {
    const [dlo, dhi] = this.range;
    const div = this.cbarTicks;
    div.textContent = '';
    const mid = (lo + hi) / 2;
    const items = [
      [hi, 0, 'hm-cbar-max'],
      [mid, 50, 'hm-cbar-mid'],
      [lo, 100, 'hm-cbar-min'],
    ];
    for (const [v, top, cls] of items) {
      const t = el('span', `hm-tick ${cls}`, div);
      t.style.top = `${top}%`;
      t.textContent = formatValue(v);
    }
    const title = Number.isNaN(dlo) ? '' : this.s.dataRange(formatValue(dlo), formatValue(dhi));
    div.parentElement.title = title;
  }

  _drawTicks() {
    const { rows, cols, rowOffset } = this;
    const w = this.plot.clientWidth || 600;
    const h = this.plot.clientHeight || 400;
    this.xTicks.textContent = '';
    for (const c of niceTicks(0, cols - 1, Math.max(2, Math.min(10, Math.floor(w / 70))))) {
      const t = el('span', 'hm-tick', this.xTicks);
      t.style.left = `${((c + 0.5) / cols) * 100}%`;
      t.textContent = formatTick(c);
    }
    this.yTicks.textContent = '';
    const first = rowOffset;
    const last = rowOffset + rows - 1;
    let widest = 1;
    for (const p of niceTicks(first, last, Math.max(2, Math.min(10, Math.floor(h / 40))))) {
      const t = el('span', 'hm-tick', this.yTicks);
      t.style.top = `${((p - first + 0.5) / rows) * 100}%`;
      t.textContent = formatTick(p);
      widest = Math.max(widest, t.textContent.length);
    }
    // The labels are absolutely placed, so size their column to the longest one.
    this.yTicks.style.width = `${widest + 0.5}ch`;
  }

  _cellAt(e) {
    if (!this.data) return null;
    const rect = this.plot.getBoundingClientRect();
    const fx = (e.clientX - rect.left) / rect.width;
    const fy = (e.clientY - rect.top) / rect.height;
    if (!(fx >= 0 && fx < 1 && fy >= 0 && fy < 1)) return null;
    const col = Math.min(this.cols - 1, Math.floor(fx * this.cols));
    const row = Math.min(this.rows - 1, Math.floor(fy * this.rows));
    return { row, col, value: this.data[row * this.cols + col] };
  }

  _hover(e) {
    this.pointer = { clientX: e.clientX, clientY: e.clientY };
    const cell = this._cellAt(e);
    if (!cell) {
      this.cursor.hidden = true;
      return;
    }
    const { row, col, value } = cell;
    const v = value - value === 0 ? formatValue(value) : `${formatValue(value)} (${this.s.masked})`;
    this.readout.textContent = this.s.readout(this.rowOffset + row, col, v);
    const rect = this.plot.getBoundingClientRect();
    const cw = rect.width / this.cols;
    const ch = rect.height / this.rows;
    if (cw >= 4 && ch >= 4) {
      const cs = this.cursor.style;
      cs.left = `${(col / this.cols) * 100}%`;
      cs.top = `${(row / this.rows) * 100}%`;
      cs.width = `${100 / this.cols}%`;
      cs.height = `${100 / this.rows}%`;
      this.cursor.hidden = false;
    } else {
      this.cursor.hidden = true;
    }
  }

  destroy() {
    if (this.resizeObserver) this.resizeObserver.disconnect();
    if (this.frame) cancelAnimationFrame(this.frame);
  }
}
