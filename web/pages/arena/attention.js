// Attention maps of one example (Runner.attention → { data, shape: [layers, heads, T, T], tokens }):
// a small map per layer and head to pick from, and the picked one large, with the tokens along
// both axes, a line where the training length ends, and a read-out of the cell under the pointer.
// Values are softmax weights in [0, 1]; colours from pe.colorize (viridis) on the colour scale
// the learner picks, as the explorer's heatmaps do (web/plot/color-scale.js; the same control and
// strings as web/views/generic/heatmap.js): linear over 0 … 1, √, log from a floor, or auto (log
// or √ when the weights span decades, as a long causal map's ≈ 1/i do). One scale and range for
// every layer and head of the example, so their maps compare by eye; the colour bar beside the
// big map (web/plot/colorbar.js, as the explorer's) reads the colours back as weights.
import { h, uid } from '../../plot/dom.js';
import { float32String } from '../../plot/format.js';
import { colorizeRange, robustLow, scaleRange } from '../../plot/color-scale.js';
import { Colorbar } from '../../plot/colorbar.js';
import { scaleSelect } from '../../views/generic/scale-select.js';
import { tokenLabel } from './experiment.js';

const MARGIN = 30; // px for the token labels

/** The scale drawn and its range for attention weights `data` asked to be drawn on `requested`. */
export function attentionScale(requested, data) {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of data) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return scaleRange(requested, lo, hi, [0, 1], () => robustLow(data, 0, data.length));
}

/** An offscreen canvas of T × T pixels holding the coloured map of one head. */
function mapImage(colorize, data, offset, T, { scale, range }) {
  const values = data.subarray(offset, offset + T * T);
  const rgba = colorizeRange(colorize, values, 'viridis', scale, range[0], range[1]);
  const c = document.createElement('canvas');
  c.width = T;
  c.height = T;
  c.getContext('2d').putImageData(new ImageData(new Uint8ClampedArray(rgba), T, T), 0, 0);
  return c;
}

export class AttentionMaps {
  /**
   * @param {HTMLElement} root
   * @param {{ t: Function, colorize: Function }} o
   */
  constructor(root, { t, colorize }) {
    this.t = t;
    this.colorize = colorize;
    this.pick = { layer: 0, head: 0 };
    this.result = null;
    this.trainT = 0;
    this.thumbs = h('div', { class: 'arena-thumbs', role: 'group', 'aria-label': t('arena.att.pick') });
    this.canvas = h('canvas', { class: 'arena-att-canvas', role: 'img' });
    this.readout = h('p', { class: 'arena-readout', 'aria-live': 'polite' });
    this.caption = h('p', { class: 'arena-att-caption' });
    this.colorbar = new Colorbar({ title: t('heatmap.colorbar'), className: 'arena-att-cbar' });
    this.big = h('div', { class: 'arena-att-big' }, this.caption,
      h('div', { class: 'arena-att-map' }, this.canvas, this.colorbar.el), this.readout);
    this.el = h('div', { class: 'arena-att' }, this.thumbs, this.big);
    root.append(this.el);
    this.canvas.addEventListener('pointermove', (e) => this._hover(e));
    this.canvas.addEventListener('pointerleave', () => {
      this.readout.textContent = t('arena.att.hint');
    });
    this.readout.textContent = t('arena.att.hint');
    // The colour scale, as the explorer's heatmaps offer it ('auto' names the scale it chose).
    this.requested = 'auto';
    this.scaleChoice = scaleSelect(t, { id: uid('arena-att-scale') });
    this.scaleSelect = this.scaleChoice.select;
    this.scaleSelect.addEventListener('input', () => {
      this.requested = this.scaleSelect.value;
      if (!this.result) return;
      this._rescale();
      this._drawThumbs();
      this._drawBig();
    });
    this.tools = h('div', { class: 'arena-row arena-att-tools' }, h('div', { class: 'arena-field' },
      this.scaleChoice.label, this.scaleSelect));
    this.el.before(this.tools);
    this.resize = new ResizeObserver(() => this._drawBig());
    this.resize.observe(this.big);
  }

  /** r: the worker's answer; trainT: tokens per training sequence (the line on the map). */
  setData(r, trainT) {
    this.result = r;
    this.trainT = trainT;
    const [L, H] = r.shape;
    if (this.pick.layer >= L || this.pick.head >= H) this.pick = { layer: 0, head: 0 };
    this._rescale();
    this._drawThumbs();
    this._drawBig();
  }

  /** The scale and range of the current example (attentionScale); data-scale names the one drawn. */
  _rescale() {
    this.colors = attentionScale(this.requested, this.result.data);
    this.el.dataset.scale = this.colors.scale;
    this.scaleChoice.showChosen(this.requested, this.colors.scale);
  }

  _drawThumbs() {
    const { data, shape: [L, H, T] } = this.result;
    const t = this.t;
    this.thumbs.replaceChildren();
    this.thumbs.style.gridTemplateColumns = `auto repeat(${H}, minmax(0, 1fr))`;
    this.thumbs.append(h('span'));
    for (let k = 0; k < H; k++) this.thumbs.append(h('span', { class: 'arena-thumb-head', text: t('arena.att.head', k + 1) }));
    for (let l = 0; l < L; l++) {
      this.thumbs.append(h('span', { class: 'arena-thumb-layer', text: t('arena.att.layer', l + 1) }));
      for (let k = 0; k < H; k++) {
        const img = mapImage(this.colorize, data, (l * H + k) * T * T, T, this.colors);
        img.className = 'arena-thumb-img';
        const on = l === this.pick.layer && k === this.pick.head;
        const b = h('button', {
          type: 'button', class: `arena-thumb${on ? ' is-on' : ''}`, 'aria-pressed': on ? 'true' : 'false',
          'aria-label': t('arena.att.thumb', l + 1, k + 1),
          on: {
            click: () => {
              this.pick = { layer: l, head: k };
              this._drawThumbs();
              this._drawBig();
            },
          },
        }, img);
        this.thumbs.append(b);
      }
    }
  }

  /** The big map's side in CSS pixels: the width available (less the colour bar), at most 620, and no more than ~32 px a cell. */
  _size() {
    const w = (this.big.clientWidth || 480) - (this.colorbar.el.offsetWidth || 60) - 8;
    const T = this.result ? this.result.shape[2] : 16;
    return Math.max(200, Math.min(w, 620, MARGIN + 32 * T));
  }

  _drawBig() {
    if (!this.result) return;
    const { data, shape: [, H, T], tokens } = this.result;
    const { layer, head } = this.pick;
    const t = this.t;
    const size = this._size();
    const dpr = window.devicePixelRatio || 1;
    const c = this.canvas;
    c.style.width = `${size}px`;
    c.style.height = `${size}px`;
    c.width = Math.round(size * dpr);
    c.height = Math.round(size * dpr);
    const g = c.getContext('2d');
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, size, size);
    const cell = (size - MARGIN) / T;
    this.geom = { cell, T };
    g.imageSmoothingEnabled = false;
    g.drawImage(mapImage(this.colorize, data, (layer * H + head) * T * T, T, this.colors), MARGIN, MARGIN, cell * T, cell * T);
    // Token labels: every one when they fit, else every k-th.
    const style = getComputedStyle(this.el);
    g.fillStyle = style.color;
    const font = Math.max(7, Math.min(11, cell * 0.8));
    g.font = `${font}px ${style.fontFamily}`;
    const every = Math.max(1, Math.ceil((font * 1.3) / cell));
    g.textBaseline = 'middle';
    for (let i = 0; i < T; i += every) {
      const label = tokenLabel(tokens[i]);
      const y = MARGIN + (i + 0.5) * cell;
      g.textAlign = 'right';
      g.fillText(label, MARGIN - 3, y, MARGIN - 4);
      g.save();
      g.translate(MARGIN + (i + 0.5) * cell, MARGIN - 3);
      g.rotate(-Math.PI / 2);
      g.textAlign = 'left';
      g.fillText(label, 0, 0, MARGIN - 4);
      g.restore();
    }
    // Where the training sequences end: positions past the line were never seen in training.
    if (this.trainT > 0 && this.trainT < T) {
      const p = MARGIN + this.trainT * cell;
      g.strokeStyle = '#ff3b30';
      g.lineWidth = 1.5;
      g.setLineDash([4, 3]);
      g.beginPath();
      g.moveTo(p, MARGIN);
      g.lineTo(p, size);
      g.moveTo(MARGIN, p);
      g.lineTo(size, p);
      g.stroke();
      g.setLineDash([]);
    }
    // The colour bar spans the map's rows (below the token labels).
    const bar = this.colorbar.el.style;
    bar.marginTop = `${MARGIN}px`;
    bar.height = `${cell * T}px`;
    this.colorbar.draw({
      colorize: this.colorize, colormap: 'viridis', scale: this.colors.scale, lo: this.colors.range[0], hi: this.colors.range[1],
      height: cell * T, title: t('arena.att.weight'),
    });
    c.setAttribute('aria-label', t('arena.att.aria', layer + 1, head + 1, T));
    this.caption.textContent = t('arena.att.caption', layer + 1, head + 1);
  }

  _hover(e) {
    if (!this.result || !this.geom) return;
    const r = this.canvas.getBoundingClientRect();
    const { cell, T } = this.geom;
    const col = Math.floor((e.clientX - r.left - MARGIN) / cell);
    const row = Math.floor((e.clientY - r.top - MARGIN) / cell);
    if (row < 0 || col < 0 || row >= T || col >= T) {
      this.readout.textContent = this.t('arena.att.hint');
      return;
    }
    const { data, shape: [, H], tokens } = this.result;
    const v = data[((this.pick.layer * H + this.pick.head) * T + row) * T + col];
    this.readout.textContent = this.t('arena.att.read', row, tokenLabel(tokens[row]), col, tokenLabel(tokens[col]), float32String(v));
  }

  destroy() {
    this.resize.disconnect();
    this.tools.remove();
    this.el.remove();
  }
}
