// Highlights on the plots (issue 29, "text linked to marks"): a band, a cell or a line drawn over
// a heatmap or a line plot while a number in a sentence is hovered or focused, on an SVG overlay
// of its own, so the picture under it is never redrawn. Shapes, in the plot's own units:
//
//   heatmap (cells):  { rows: [a, b] }  rows a … b, every column     (a band)
//                     { cols: [a, b] }  columns a … b, every row     (a band)
//                     { rows, cols }    the rectangle of both
//                     { cell: [r, c] }  one cell, outlined
//                     { diagonal: d }   the cells with row − col = d (a line along them)
//   line plot (values): { x }  a vertical line;  { y }  a horizontal line ('y' axis);
//                     { range: [a, b] }  a band over the samples a … b (from a − ½ to b + ½);
//                     { point: [x, y] }  a ring around the point (x, y)
//
// hm.highlight(shape | [shapes] | null) and lp.highlight(…) take them; null clears. A bad shape is
// a PEError naming the field (highlight.rows, …). Renderers call heatShapes / lineShapes (pure,
// tested in tests/plot-highlight.test.js) and draw what they return.
import { PEError } from '../api/spec.js';

const SVG = 'http://www.w3.org/2000/svg';
const RING = 16; // CSS px: a heatmap shape smaller than this gets a ring around it
const RING_GAP = 6; // CSS px between a small shape and its ring

const list = (shapes) => (shapes == null ? [] : Array.isArray(shapes) ? shapes : [shapes]);

function intIn(field, v, max) {
  if (!Number.isInteger(v) || v < 0 || v >= max) throw new PEError(`highlight.${field}`, `highlight.${field}: ${v} is not a whole number in 0 … ${max - 1}`);
  return v;
}

function span(field, pair, max) {
  if (!Array.isArray(pair) || pair.length !== 2) throw new PEError(`highlight.${field}`, `highlight.${field}: expected [first, last]`);
  const [a, b] = pair.map((v) => intIn(field, v, max));
  if (a > b) throw new PEError(`highlight.${field}`, `highlight.${field}: first ${a} is after last ${b}`);
  return [a, b + 1];
}

/**
 * The heatmap shapes of `shapes` on a [rows, cols] table, in cell units:
 * [{ type: 'band' | 'cell' | 'diagonal', x0, x1, y0, y1 }] (a diagonal runs from (x0, y0) to (x1, y1)).
 */
export function heatShapes(shapes, rows, cols) {
  return list(shapes).map((s) => {
    if (s?.cell) {
      const [r, c] = s.cell;
      intIn('cell', r, rows);
      intIn('cell', c, cols);
      return { type: 'cell', x0: c, x1: c + 1, y0: r, y1: r + 1 };
    }
    if (s?.diagonal !== undefined) {
      const d = s.diagonal;
      if (!Number.isInteger(d) || d <= -cols || d >= rows) throw new PEError('highlight.diagonal', `highlight.diagonal: ${d} is not a whole number in ${1 - cols} … ${rows - 1}`);
      const c0 = Math.max(0, -d);
      const c1 = Math.min(cols - 1, rows - 1 - d);
      return { type: 'diagonal', x0: c0, y0: c0 + d, x1: c1 + 1, y1: c1 + d + 1 };
    }
    if (s?.rows || s?.cols) {
      const [y0, y1] = s.rows ? span('rows', s.rows, rows) : [0, rows];
      const [x0, x1] = s.cols ? span('cols', s.cols, cols) : [0, cols];
      return { type: 'band', x0, x1, y0, y1 };
    }
    throw new PEError('highlight', 'highlight: expected { rows }, { cols }, { cell } or { diagonal }');
  });
}

function num(field, v) {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new PEError(`highlight.${field}`, `highlight.${field}: ${v} is not a finite number`);
  return v;
}

/** The line-plot shapes of `shapes`, in data units: [{ type: 'x' | 'y' | 'range' | 'point', x0, x1, y }]. */
export function lineShapes(shapes) {
  return list(shapes).map((s) => {
    if (s?.range) {
      const [a, b] = Array.isArray(s.range) && s.range.length === 2 ? s.range.map((v) => num('range', v)) : [NaN, NaN];
      if (!(a <= b)) throw new PEError('highlight.range', 'highlight.range: expected [first, last], first ≤ last');
      return { type: 'range', x0: a - 0.5, x1: b + 0.5 };
    }
    if (s?.point) {
      if (!Array.isArray(s.point) || s.point.length !== 2) throw new PEError('highlight.point', 'highlight.point: expected [x, y]');
      return { type: 'point', x0: num('point', s.point[0]), x1: s.point[0], y: num('point', s.point[1]) };
    }
    if (s?.x !== undefined) return { type: 'x', x0: num('x', s.x), x1: s.x };
    if (s?.y !== undefined) return { type: 'y', y: num('y', s.y) };
    throw new PEError('highlight', 'highlight: expected { x }, { y }, { range } or { point }');
  });
}

function el(name, attrs = {}) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

/** A line or outline drawn twice, dark under light, so it shows on every colour map. */
function haloed(make, attrs, [under, over] = ['rgba(0,0,0,0.75)', '#fff'], width = 2) {
  const common = { fill: 'none', 'vector-effect': 'non-scaling-stroke', 'stroke-linejoin': 'round', 'stroke-linecap': 'round', ...attrs };
  return [el(make, { ...common, stroke: under, 'stroke-width': width + 2.5 }), el(make, { ...common, stroke: over, 'stroke-width': width })];
}

/**
 * The overlay of a heatmap: an SVG over its plot box in cell units (its viewBox is the view
 * window, so zooming and panning move the marks with the cells). set(shapes, rows, cols) shows
 * them (the rest of the picture dimmed around bands and cells), place(win) follows the window.
 * data-marks on the overlay holds the shapes drawn, as JSON (the browser tests read it).
 */
export class HeatMarks {
  constructor(box) {
    this.svg = el('svg', { class: 'hm-marks', 'aria-hidden': 'true', preserveAspectRatio: 'none', focusable: 'false' });
    Object.assign(this.svg.style, { position: 'absolute', inset: '0', width: '100%', height: '100%', pointerEvents: 'none', overflow: 'hidden' });
    this.svg.style.display = 'none';
    this.shapes = [];
    box.append(this.svg);
  }

  set(shapes, rows, cols) {
    this.shapes = heatShapes(shapes, rows, cols);
    const svg = this.svg;
    svg.replaceChildren();
    svg.dataset.marks = JSON.stringify(this.shapes);
    svg.style.display = this.shapes.length ? '' : 'none';
    if (!this.shapes.length) return this.shapes;
    const areas = this.shapes.filter((s) => s.type !== 'diagonal');
    if (areas.length) {
      // Dim what is outside the bands and cells: the table with a hole per shape (even-odd, so
      // shapes of one highlight should not overlap).
      const rect = (x, y, w, hh) => `M${x} ${y}h${w}v${hh}h${-w}z`;
      svg.append(el('path', {
        d: [rect(0, 0, cols, rows), ...areas.map((s) => rect(s.x0, s.y0, s.x1 - s.x0, s.y1 - s.y0))].join(''),
        'fill-rule': 'evenodd', fill: '#000', 'fill-opacity': 0.5, 'data-dim': '',
      }));
    }
    // Cells per CSS pixel of the window shown: a shape smaller than RING px on screen (a cell, a
    // pair of columns on a phone) also gets a ring RING_GAP px outside it, so the eye finds it.
    const parent = svg.parentElement;
    const win = this.win ?? { x0: 0, x1: cols, y0: 0, y1: rows };
    const perX = (win.x1 - win.x0) / Math.max(1, parent?.clientWidth || 1);
    const perY = (win.y1 - win.y0) / Math.max(1, parent?.clientHeight || 1);
    for (const s of this.shapes) {
      if (s.type === 'diagonal') {
        svg.append(...haloed('line', { x1: s.x0, y1: s.y0, x2: s.x1, y2: s.y1 }));
        continue;
      }
      svg.append(...haloed('rect', { x: s.x0, y: s.y0, width: s.x1 - s.x0, height: s.y1 - s.y0, 'data-shape': s.type }, undefined, s.type === 'cell' ? 3 : 2));
      if ((s.x1 - s.x0) / perX < RING || (s.y1 - s.y0) / perY < RING) {
        const [gx, gy] = [RING_GAP * perX, RING_GAP * perY];
        // Kept inside the window shown (less its halo's width): a corner cell's ring would
        // otherwise be cut in half by the plot's edge.
        const [ix, iy] = [2.5 * perX, 2.5 * perY];
        const x0 = Math.max(win.x0 + ix, s.x0 - gx);
        const y0 = Math.max(win.y0 + iy, s.y0 - gy);
        const x1 = Math.min(win.x1 - ix, s.x1 + gx);
        const y1 = Math.min(win.y1 - iy, s.y1 + gy);
        svg.append(...haloed('rect', { x: x0, y: y0, width: Math.max(0, x1 - x0), height: Math.max(0, y1 - y0), rx: 2 * gx, ry: 2 * gy, 'data-ring': '' }));
      }
    }
    return this.shapes;
  }

  place(win) {
    if (!win) return;
    this.win = { ...win };
    const box = `${win.x0} ${win.y0} ${win.x1 - win.x0} ${win.y1 - win.y0}`;
    if (this.svg.getAttribute('viewBox') !== box) this.svg.setAttribute('viewBox', box);
  }
}

/**
 * The overlay of a line plot: an SVG over its chart box in CSS pixels, redrawn from the shapes
 * by draw(g) (g: the plot's area and x(v), y(v) mappings) after each chart draw.
 * data-marks holds the shapes, as JSON.
 */
export class LineMarks {
  constructor(box) {
    this.svg = el('svg', { class: 'lp-marks', 'aria-hidden': 'true', focusable: 'false' });
    Object.assign(this.svg.style, { position: 'absolute', left: '0', top: '0', width: '100%', height: '100%', pointerEvents: 'none', overflow: 'hidden' });
    this.svg.style.display = 'none';
    this.shapes = [];
    box.append(this.svg);
  }

  set(shapes) {
    this.shapes = lineShapes(shapes);
    this.svg.dataset.marks = JSON.stringify(this.shapes);
    return this.shapes;
  }

  /** g: { area: { left, top, right, bottom }, x(v), y(v) }, or null before the chart is laid out. */
  draw(g) {
    const svg = this.svg;
    svg.replaceChildren();
    svg.style.display = this.shapes.length && g ? '' : 'none';
    if (!this.shapes.length || !g) return;
    const { left, top, right, bottom } = g.area;
    const clampX = (v) => Math.min(right, Math.max(left, v));
    const ink = ['var(--surface, #fff)', 'var(--fg, #222)'];
    for (const s of this.shapes) {
      if (s.type === 'range') {
        const a = clampX(g.x(s.x0));
        const b = clampX(g.x(s.x1));
        svg.append(el('rect', { x: a, y: top, width: Math.max(1, b - a), height: bottom - top, fill: 'var(--fg, #222)', 'fill-opacity': 0.12, 'data-shape': 'range' }));
        svg.append(...haloed('line', { x1: a, y1: top, x2: a, y2: bottom }, ink), ...haloed('line', { x1: b, y1: top, x2: b, y2: bottom }, ink));
      } else if (s.type === 'y') {
        const y = g.y(s.y);
        if (y >= top && y <= bottom) svg.append(...haloed('line', { x1: left, y1: y, x2: right, y2: y, 'stroke-dasharray': '6 4' }, ink));
      } else {
        const x = g.x(s.x0);
        if (!(x >= left && x <= right)) continue;
        svg.append(...haloed('line', { x1: x, y1: top, x2: x, y2: bottom, ...(s.type === 'point' && { 'stroke-dasharray': '3 4' }) }, ink));
        if (s.type === 'point') {
          const y = g.y(s.y);
          if (y >= top && y <= bottom) svg.append(...haloed('circle', { cx: x, cy: y, r: 7, 'data-shape': 'point' }, ink));
        }
      }
    }
  }
}
