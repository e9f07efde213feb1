// The one home of what the views share: stylesheets, drawing only while on screen, the Chart.js
// line plot (its own chunk), toolbar fields, a segmented control, colours with transparency,
// slope fractions.
import { h, uid } from '../plot/dom.js';
import { formatValue } from '../plot/format.js';

const styles = new Map();
/**
 * Adds a stylesheet (a URL beside the calling module: new URL('./x.css', import.meta.url)) to the
 * page once, as a same-origin <link>, which is what the page's CSP allows. Returns a promise
 * that settles when it has loaded (for canvases that read colours from it).
 */
export function ensureStyles(url) {
  const href = String(url);
  if (!styles.has(href)) {
    const link = h('link', { rel: 'stylesheet', href });
    styles.set(href, new Promise((resolve) => {
      link.addEventListener('load', resolve, { once: true });
      link.addEventListener('error', resolve, { once: true });
    }));
    document.head.append(link);
  }
  return styles.get(href);
}

// The shared view styles (common.css), there before the first family view draws.
if (typeof document !== 'undefined') ensureStyles(new URL('./common.css', import.meta.url));

/**
 * A group of radio buttons shown as one segmented control (keyboard: Tab in, arrows between).
 * options: [{ value, label }]; returns { el, set(value), get() }.
 */
export function segmented(legend, options, value, onChange) {
  const name = uid('seg');
  const box = h('fieldset', { class: 'tool-field segmented bias-seg' }, h('legend', { class: 'sr-only', text: legend }));
  const inputs = {};
  for (const o of options) {
    const input = h('input', { type: 'radio', name, id: `${name}-${o.value}`, value: o.value });
    input.checked = o.value === value;
    input.addEventListener('input', () => onChange(o.value));
    inputs[o.value] = input;
    box.append(input, h('label', { for: input.id, text: o.label }));
  }
  return {
    el: box,
    set(v) {
      if (inputs[v]) inputs[v].checked = true;
    },
    get: () => Object.keys(inputs).find((k) => inputs[k].checked),
  };
}

/** '#rrggbb' (or 'rgb(…)') with an alpha, as a CSS colour. */
export function withAlpha(color, alpha) {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(color.trim());
  if (m) return `rgba(${parseInt(m[1], 16)}, ${parseInt(m[2], 16)}, ${parseInt(m[3], 16)}, ${alpha})`;
  const r = /^rgba?\(([^)]+)\)$/.exec(color.trim());
  if (r) return `rgba(${r[1].split(',').slice(0, 3).join(',')}, ${alpha})`;
  return color;
}

let plotModule = null;
let plotLoaded = null;
/** web/plot/lineplot.js (LinePlot, seriesColor), loaded once, in its own chunk. */
function linePlotModule() {
  plotModule ??= import('../plot/lineplot.js').then((m) => (plotLoaded = m));
  return plotModule;
}

/**
 * Calls ready(module) with web/plot/lineplot.js: at once when it is loaded already (so a
 * remounted view draws in its first update), else when its chunk arrives.
 */
export function withLinePlot(ready) {
  if (plotLoaded) ready(plotLoaded);
  else linePlotModule().then(ready);
}

/** A Chart.js line plot in `box`: a promise of the LinePlot. */
export function makePlot(box, opts) {
  return linePlotModule().then(({ LinePlot }) => new LinePlot(box, opts));
}

/** A labelled number box for a view's toolbar: { wrap, input }. */
export function numberField(id, label, { min = 1, max, step = 1, value } = {}) {
  const input = h('input', { type: 'number', id, min, max, step, value, inputmode: 'numeric' });
  const wrap = h('div', { class: 'tool-field' }, h('label', { for: id, text: label }), input);
  return { wrap, input };
}

/** The integer in a number box, or null when it is not one within [min, max]. */
export function readInt(input, min, max) {
  const v = Number(input.value);
  if (input.value.trim() === '' || !Number.isInteger(v) || v < min || v > max) return null;
  return v;
}

/** A slope as a fraction when it is exactly 1/2^k (1/8, 1/256, 1/2¹⁶), else its decimal. */
export function fraction(m) {
  const k = -Math.log2(m);
  if (!Number.isInteger(k) || k < 0 || 2 ** -k !== m) return formatValue(m);
  return k <= 12 ? `1/${2 ** k}` : `1/2${sup(k)}`;
}

const SUP = { '0': '⁰', '1': '¹', '2': '²', '3': '³', '4': '⁴', '5': '⁵', '6': '⁶', '7': '⁷', '8': '⁸', '9': '⁹', '.': '·', '-': '⁻' };
/** An exponent in superscript digits: 2 + sup(-8) → 2⁻⁸. */
export function sup(n) {
  return String(n).replace('−', '-').split('').map((c) => SUP[c] ?? c).join('');
}

/**
 * Draws a view when it is out of date and can be seen: request() marks it out of date; it is
 * drawn on the next animation frame if the view is on (or within 300 px of) the screen, else when
 * it scrolls into view. update(state) then costs next to nothing, a burst of changes draws once
 * a frame, and views out of sight do no work at all (the similarity worker included). draw()
 * returning false means "not drawn yet" (its chart is still loading): it stays out of date. The
 * time of the last drawing is kept in el.dataset.ms, and a count in el.dataset.drawn, which the
 * tests and benches wait on.
 */
export function drawer(el, draw) {
  let visible = false;
  let dirty = false;
  let frame = 0;
  const flush = () => {
    frame = 0;
    if (!visible || !dirty) return;
    dirty = false;
    const t0 = performance.now();
    if (draw() === false) {
      dirty = true; // not drawn yet (its chart is still loading): try again when asked
      return;
    }
    el.dataset.ms = (performance.now() - t0).toFixed(2);
    el.dataset.drawn = String(Number(el.dataset.drawn || 0) + 1);
  };
  const io = new IntersectionObserver((entries) => {
    visible = entries[entries.length - 1].isIntersecting;
    if (visible && dirty && !frame) frame = requestAnimationFrame(flush);
  }, { rootMargin: '300px 0px' });
  io.observe(el);
  return {
    request() {
      dirty = true;
      if (visible && !frame) frame = requestAnimationFrame(flush);
    },
    destroy() {
      io.disconnect();
      cancelAnimationFrame(frame);
    },
  };
}

/**
 * drawer() for a view drawn with a line plot: draw(lineplotModule) runs once web/plot/lineplot.js
 * has arrived, and a drawing asked for before that is made when it does. { request, destroy }.
 */
export function lineDrawer(el, draw) {
  let mod = null;
  let asked = false;
  let destroyed = false;
  const drawing = drawer(el, () => (mod ? draw(mod) : false));
  withLinePlot((m) => {
    if (destroyed) return;
    mod = m;
    if (asked) drawing.request();
  });
  return {
    request() {
      asked = true;
      drawing.request();
    },
    destroy() {
      destroyed = true;
      drawing.destroy();
    },
  };
}
