// A vertical colour bar: the colour map as a ramp (top = high), ticks of lo … hi placed where
// their colour is on the scale drawn (color-scale.js scaleTicks: linear, √ or log from a floor),
// and an optional title of what the colours measure. The explorer's heatmaps (heatmap.js) and the
// Arena's attention maps draw theirs with it. It knows nothing of WebAssembly: `colorize` is given.
//
//   const bar = new Colorbar({ title: t('heatmap.colorbar') });   parent.append(bar.el);
//   bar.draw({ colorize, colormap: 'viridis', scale: 'sqrt', lo: 0, hi: 1, height: 300, title: '' });
import { h } from './dom.js';
import { scaleTicks } from './color-scale.js';

export class Colorbar {
  /** @param {{ title?: string, className?: string }} o  title: the tooltip; className: added to .hm-cbar */
  constructor({ title = '', className = '' } = {}) {
    this.ramp = h('canvas', { class: 'hm-cbar-canvas', width: 1, height: 256, 'aria-hidden': 'true' });
    this.ticks = h('div', { class: 'hm-cbar-ticks', 'aria-hidden': 'true' });
    this.title = h('div', { class: 'hm-cbar-title', 'aria-hidden': 'true' }); // what the colours measure
    this.el = h('div', { class: `hm-cbar${className ? ` ${className}` : ''}`, title }, this.ramp, this.ticks, this.title);
    this.key = '';
  }

  /**
   * Draws the bar for values lo … hi coloured by `colorize` (pe.colorize's signature) with
   * `colormap` on `scale`; `height` (CSS px) sets how many ticks fit. Nothing is redrawn when
   * nothing changed.
   */
  draw({ colorize, colormap, scale, lo, hi, height = 300, title = '' }) {
    if (this.title.textContent !== title) this.title.textContent = title;
    const key = `${colormap}:${scale}:${lo}:${hi}:${height}`;
    if (this.key === key) return;
    this.key = key;
    const ramp = new Float32Array(256);
    for (let i = 0; i < 256; i++) ramp[i] = (255 - i + 0.5) / 256; // top = high
    const rgba = colorize(ramp, { map: colormap, vmin: 0, vmax: 1 });
    this.ramp.getContext('2d').putImageData(new ImageData(rgba, 1, 256), 0, 0);
    this.ticks.textContent = '';
    for (const { label, pos } of scaleTicks(scale, lo, hi, Math.max(2, Math.min(8, Math.floor(height / 40))))) {
      const tick = h('span', { class: 'hm-tick', text: label });
      tick.style.top = `${(1 - pos) * 100}%`;
      this.ticks.append(tick);
    }
  }
}
