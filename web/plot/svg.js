// The current figure as stand-alone pictures, for exports (web/share/) and the embeddable
// <pe-plot> element (web/share/pe-plot.js). What to draw comes from figureOf (web/model/figure.js).
//
//   linesTree(lines, opts)        → an SVG element tree of the curves (no DOM needed)
//   svgString(tree) / svgElement(tree, document)   the tree as text, or as DOM nodes
//   heatmapCanvas({ colorize, render }, heatmap, opts)  → a <canvas> with the heatmap, its axes and colour bar
//     (render: the page's resampler, pe.heatmap, as the canvas heatmap is given it: web/model/pixels.js;
//     a bare colorize function in place of the object resamples in JS, box means, as a Heatmap
//     given no render does)
//
// Everything drawn here uses a fixed light theme (white paper), so an exported figure looks the
// same in a slide, a paper or a dark-mode blog. Text only ever goes in as text nodes.
// (No import of the schema, the i18n dictionaries or the API: this module is also the share
// view's lazily loaded part, web/share/tools.js.)
import { float32String, formatInt, formatValue, niceRealTicks, niceTicks } from './format.js';
import { colorRangeOf, planAxis, resample, scanValues } from './resample.js';
import { colorizeRange, robustLow, scaleRange, scaleTicks } from './color-scale.js';

/** Okabe & Ito's colour-blind safe palette (web/style.css uses the same). */
export const PALETTE = ['#0072b2', '#e69f00', '#009e73', '#d55e00', '#cc79a7', '#56b4e9', '#9c8a00', '#4d4d4d'];
export const PAPER = { bg: '#ffffff', fg: '#1a2030', muted: '#566074', grid: '#e3e6ec', maskA: '#dfe2e8', maskB: '#f4f5f8' };
export const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Noto Sans', 'Apple SD Gothic Neo', 'Malgun Gothic', 'Noto Sans CJK KR', sans-serif";

/** The colour range a heatmap uses (colorRangeOf, as web/plot/heatmap.js): symmetric for the diverging map. */
export function colorRange(scan, colormap, valueRange = null) {
  const [lo, hi] = valueRange ?? [scan.lo, scan.hi];
  return colorRangeOf(lo, hi, colormap === 'diverging');
}

/**
 * The colour scale and range of a figure's heatmap hm (hm.scale: 'linear' when left out, 'sqrt',
 * 'log' or 'auto'), as the canvas heatmap chooses them (web/plot/color-scale.js scaleRange).
 */
function scaledColors(hm, scan) {
  const [lo, hi] = hm.valueRange ?? [scan.lo, scan.hi];
  const low = () => robustLow(hm.data, hm.offset ?? 0, hm.rows * hm.cols);
  return scaleRange(hm.scale, lo, hi, colorRange(scan, hm.colormap, hm.valueRange), low);
}

// ---------------------------------------------------------------------------------------------
// SVG element trees

const SVG_NS = 'http://www.w3.org/2000/svg';
const node = (tag, attrs = {}, ...children) => ({ tag, attrs, children: children.flat().filter((c) => c != null && c !== false) });

const escapeXml = (s) => String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

/** The tree as SVG text (a whole document when the root is <svg>). */
export function svgString(tree) {
  const out = (n) => {
    if (typeof n === 'string' || typeof n === 'number') return escapeXml(n);
    const attrs = Object.entries(n.attrs).filter(([, v]) => v != null).map(([k, v]) => ` ${k}="${escapeXml(v)}"`).join('');
    return n.children.length ? `<${n.tag}${attrs}>${n.children.map(out).join('')}</${n.tag}>` : `<${n.tag}${attrs}/>`;
  };
  const body = out(tree);
  return tree.tag === 'svg' ? `<?xml version="1.0" encoding="UTF-8"?>\n${body}\n` : body;
}

/** The tree as DOM nodes of `doc` (text as text nodes only). */
export function svgElement(tree, doc = document) {
  const make = (n) => {
    if (typeof n === 'string' || typeof n === 'number') return doc.createTextNode(String(n));
    const e = doc.createElementNS(SVG_NS, n.tag);
    for (const [k, v] of Object.entries(n.attrs)) if (v != null && k !== 'xmlns') e.setAttribute(k, String(v));
    for (const c of n.children) e.append(make(c));
    return e;
  };
  return make(tree);
}

/** Min/max decimation of values[0..n) to about `budget` points, gaps (null) kept. */
function samplePoints(values, budget) {
  const n = values.length;
  const y = (v) => (v - v === 0 ? v : null);
  if (n <= budget) return Array.from({ length: n }, (_, i) => [i, y(values[i])]);
  const buckets = Math.max(1, Math.floor(budget / 2));
  const pts = [];
  for (let b = 0; b < buckets; b++) {
    const s = Math.floor((b * n) / buckets);
    const e = Math.floor(((b + 1) * n) / buckets);
    let lo = -1;
    let hi = -1;
    let gap = false;
    for (let i = s; i < e; i++) {
      const v = values[i];
      if (v - v !== 0) { gap = true; continue; }
      if (lo < 0 || v < values[lo]) lo = i;
      if (hi < 0 || v > values[hi]) hi = i;
    }
    if (lo < 0) { pts.push([s, null]); continue; }
    const pair = lo <= hi ? [lo, hi] : [hi, lo];
    pts.push([pair[0], values[pair[0]]]);
    if (pair[1] !== pair[0]) pts.push([pair[1], values[pair[1]]]);
    if (gap) pts.push([e - 1, null]);
  }
  return pts;
}

/** Short tick text (a real minus sign, as the page). */
const tickText = (v) => formatValue(v);

/**
 * The line plot as an SVG tree: { tree, geometry } where geometry maps data to pixels (for
 * interactive overlays). lines: figureOf(…).lines. opts: { width, height, title, theme }.
 */
export function linesTree(lines, { width = 720, height = 420, title = lines.title, theme = PAPER, interactive = false } = {}) {
  const series = lines.series;
  const n = series.length ? series[0].values.length : 0;
  const font = { 'font-family': FONT, 'font-size': 12 };
  // Legend rows: items wrap at the plot's width.
  const legendItems = [];
  let lx = 64;
  let ly = title ? 44 : 20;
  for (const [i, s] of series.entries()) {
    const w = 26 + Math.min(220, s.label.length * 7);
    if (lx + w > width - 16 && lx > 64) {
      lx = 64;
      ly += 18;
    }
    legendItems.push({ x: lx, y: ly, label: s.label, color: PALETTE[i % PALETTE.length] });
    lx += w + 12;
  }
  const top = (series.length ? ly + 16 : ly) + 4;
  const left = 64;
  const right = 16;
  const bottom = 48;
  const pw = Math.max(40, width - left - right);
  const ph = Math.max(40, height - top - bottom);
  // y range over every finite value shown.
  let lo = Infinity;
  let hi = -Infinity;
  for (const s of series) {
    for (let i = 0; i < s.values.length; i++) {
      const v = s.values[i];
      if (v - v !== 0) continue;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  }
  if (!(lo <= hi)) [lo, hi] = [0, 1];
  if (!(hi > lo)) {
    const pad = Math.abs(lo) * 0.5 || 0.5;
    [lo, hi] = [lo - pad, hi + pad];
  } else {
    const pad = (hi - lo) * 0.04;
    [lo, hi] = [lo - pad, hi + pad];
  }
  const x0 = lines.x0 ?? 0;
  const xMax = x0 + Math.max(n - 1, 1);
  const X = (x) => left + ((x - x0) / (xMax - x0)) * pw;
  const Y = (v) => top + (1 - (v - lo) / (hi - lo)) * ph;
  const f = (v) => Math.round(v * 100) / 100;

  const grid = [];
  const ticks = [];
  for (const v of niceRealTicks(lo, hi, Math.max(2, Math.min(8, Math.floor(ph / 45))))) {
    const y = f(Y(v));
    grid.push(node('line', { x1: left, x2: left + pw, y1: y, y2: y, stroke: theme.grid, 'stroke-width': 1 }));
    ticks.push(node('text', { x: left - 6, y: y + 4, 'text-anchor': 'end', fill: theme.muted, ...font }, tickText(v)));
  }
  for (const v of niceTicks(x0, xMax, Math.max(2, Math.min(10, Math.floor(pw / 70))))) {
    const x = f(X(v));
    grid.push(node('line', { x1: x, x2: x, y1: top, y2: top + ph, stroke: theme.grid, 'stroke-width': 1 }));
    ticks.push(node('text', { x, y: top + ph + 16, 'text-anchor': 'middle', fill: theme.muted, ...font }, formatInt(v)));
  }
  const budget = Math.max(200, Math.round(pw * 2));
  const paths = series.map((s, i) => {
    const color = PALETTE[i % PALETTE.length];
    let d = '';
    let pen = false;
    const pts = samplePoints(s.values, budget);
    for (const [k, v] of pts) {
      if (v === null) { pen = false; continue; }
      d += `${pen ? 'L' : 'M'}${f(X(x0 + k))} ${f(Y(v))}`;
      pen = true;
    }
    const dots = n <= 48 ? pts.filter(([, v]) => v !== null).map(([k, v]) => node('circle', { cx: f(X(x0 + k)), cy: f(Y(v)), r: 2.5, fill: color })) : [];
    return node('g', { 'data-series': i }, node('path', { d: d || 'M0 0', fill: 'none', stroke: color, 'stroke-width': 1.75, 'stroke-linejoin': 'round', 'stroke-linecap': 'round' }), dots);
  });
  const legend = legendItems.map((it) => node('g', {},
    node('rect', { x: it.x, y: it.y - 5, width: 18, height: 3, fill: it.color }),
    node('text', { x: it.x + 24, y: it.y, fill: theme.fg, ...font }, it.label)));
  const tree = node('svg', {
    xmlns: SVG_NS, width, height, viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': title ?? '',
  },
  node('rect', { x: 0, y: 0, width, height, fill: theme.bg }),
  title ? node('text', { x: left, y: 22, fill: theme.fg, 'font-family': FONT, 'font-size': 15, 'font-weight': 600 }, title) : null,
  legend,
  node('g', { class: 'grid' }, grid),
  node('rect', { x: left, y: top, width: pw, height: ph, fill: 'none', stroke: theme.muted, 'stroke-width': 1 }),
  node('g', { class: 'ticks' }, ticks),
  node('text', { x: left + pw / 2, y: height - 10, 'text-anchor': 'middle', fill: theme.muted, ...font }, lines.xLabel ?? ''),
  node('text', { x: 14, y: top + ph / 2, 'text-anchor': 'middle', fill: theme.muted, transform: `rotate(-90 14 ${f(top + ph / 2)})`, ...font }, lines.yLabel ?? ''),
  node('g', { class: 'curves' }, paths),
  interactive ? node('g', { class: 'hover' }) : null);
  return { tree, geometry: { left, top, pw, ph, x0, xMax, lo, hi, n, X, Y } };
}

// ---------------------------------------------------------------------------------------------
// Heatmap pictures (browser only: canvas)

/**
 * Colour pixels of the whole table at most maxW × maxH: one per cell where cells are larger
 * (crisp cells), else exactly maxW × maxH. With `render` (pe.heatmap: the page's resampler) they
 * are the canvas heatmap's pixels at that size, the colour range read in the same pass as the
 * canvas heatmap draws new data; without it, JS box means coloured by `colorize`.
 */
export function heatmapPixels({ colorize, render = null, scan: scanner = null }, hm, maxW, maxH) {
  const xp = planAxis(0, hm.cols, Math.max(1, Math.round(maxW)), hm.cols);
  const yp = planAxis(0, hm.rows, Math.max(1, Math.round(maxH)), hm.rows);
  const count = hm.rows * hm.cols;
  if (render && hm.scale && hm.scale !== 'linear') {
    // Another scale than linear is chosen from the range: read first, as the canvas heatmap does.
    const scan = scanner ? scanner(hm.data, { offset: hm.offset, count }) : scanValues(hm.data, hm.offset, count);
    const { scale, range: [lo, hi] } = scaledColors(hm, scan);
    const rgba = render(hm.data, {
      rows: hm.rows, cols: hm.cols, offset: hm.offset, window: { x0: 0, x1: hm.cols, y0: 0, y1: hm.rows },
      width: xp.count, height: yp.count, map: hm.colormap, vmin: lo, vmax: hi, ...(scale !== 'linear' && { scale }),
    });
    return { rgba, width: xp.count, height: yp.count, lo, hi, scan, scale };
  }
  if (render) {
    let scan = null;
    let range = null;
    const rgba = render(hm.data, {
      rows: hm.rows, cols: hm.cols, offset: hm.offset, window: { x0: 0, x1: hm.cols, y0: 0, y1: hm.rows },
      width: xp.count, height: yp.count, map: hm.colormap,
      colorRange: (s) => {
        scan = s;
        range = colorRange(s, hm.colormap, hm.valueRange);
        return range;
      },
    });
    return { rgba, width: xp.count, height: yp.count, lo: range[0], hi: range[1], scan, scale: 'linear' };
  }
  const scan = scanValues(hm.data, hm.offset, count);
  const values = resample(hm.data, hm.rows, hm.cols, xp, yp, { offset: hm.offset, finite: scan.finite });
  const { scale, range: [lo, hi] } = scaledColors(hm, scan);
  const rgba = colorizeRange(colorize, values, hm.colormap, scale, lo, hi);
  return { rgba, width: xp.count, height: yp.count, lo, hi, scan, scale };
}

function hatch(ctx, x, y, w, h, theme) {
  ctx.save();
  ctx.beginPath();
  ctx.rect(x, y, w, h);
  ctx.clip();
  ctx.fillStyle = theme.maskB;
  ctx.fillRect(x, y, w, h);
  ctx.strokeStyle = theme.maskA;
  ctx.lineWidth = 3;
  for (let k = -h; k < w; k += 8) {
    ctx.beginPath();
    ctx.moveTo(x + k, y + h);
    ctx.lineTo(x + k + h, y);
    ctx.stroke();
  }
  ctx.restore();
}

/**
 * A stand-alone heatmap picture: title, the table (whole, resampled to the plot), row and column
 * ticks, axis names and a colour bar. Returns a canvas of width·scale × height·scale pixels.
 */
export function heatmapCanvas(draw, hm, { width = 760, scale = 2, theme = PAPER, doc = document } = {}) {
  const { colorize, render, scan } = typeof draw === 'function' ? { colorize: draw, render: null, scan: null } : draw;
  const left = 70;
  const right = 96;
  const top = hm.title ? 40 : 16;
  const bottom = 52;
  const pw = width - left - right;
  const aspect = hm.rows / hm.cols;
  const ph = Math.round(Math.min(pw * 1.25, Math.max(220, pw * Math.min(aspect, 1.25))));
  const height = top + ph + bottom;
  const canvas = doc.createElement('canvas');
  canvas.width = Math.round(width * scale);
  canvas.height = Math.round(height * scale);
  const ctx = canvas.getContext('2d');
  ctx.scale(scale, scale);
  ctx.fillStyle = theme.bg;
  ctx.fillRect(0, 0, width, height);
  const px = heatmapPixels({ colorize, render, scan }, hm, pw * scale, ph * scale);
  const img = doc.createElement('canvas');
  img.width = px.width;
  img.height = px.height;
  img.getContext('2d').putImageData(new ImageData(px.rgba, px.width, px.height), 0, 0);
  if (px.scan.negInf || px.scan.nan) hatch(ctx, left, top, pw, ph, theme);
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(img, left, top, pw, ph);
  ctx.strokeStyle = theme.muted;
  ctx.lineWidth = 1;
  ctx.strokeRect(left - 0.5, top - 0.5, pw + 1, ph + 1);

  ctx.font = `12px ${FONT}`;
  ctx.fillStyle = theme.muted;
  ctx.textBaseline = 'middle';
  // Row ticks (cell centres) and column ticks.
  ctx.textAlign = 'right';
  for (const r of niceTicks(0, hm.rows - 1, Math.max(2, Math.min(10, Math.floor(ph / 40))))) {
    const y = top + ((r + 0.5) / hm.rows) * ph;
    ctx.fillText(formatInt(r + hm.rowOffset), left - 8, y);
    ctx.fillRect(left - 4, y, 4, 1);
  }
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  for (const c of niceTicks(0, hm.cols - 1, Math.max(2, Math.min(10, Math.floor(pw / 64))))) {
    const x = left + ((c + 0.5) / hm.cols) * pw;
    ctx.fillText(formatInt(c), x, top + ph + 6);
    ctx.fillRect(x, top + ph, 1, 4);
  }
  ctx.fillText(hm.axes.x, left + pw / 2, top + ph + 26);
  ctx.save();
  ctx.translate(16, top + ph / 2);
  ctx.rotate(-Math.PI / 2);
  ctx.textBaseline = 'middle';
  ctx.fillText(hm.axes.y, 0, 0);
  ctx.restore();
  // Colour bar.
  const bx = left + pw + 18;
  const bw = 14;
  const ramp = new Float32Array(256);
  for (let i = 0; i < 256; i++) ramp[i] = (255 - i + 0.5) / 256;
  const rampPx = colorize(ramp, { map: hm.colormap, vmin: 0, vmax: 1 });
  const bar = doc.createElement('canvas');
  bar.width = 1;
  bar.height = 256;
  bar.getContext('2d').putImageData(new ImageData(rampPx, 1, 256), 0, 0);
  ctx.imageSmoothingEnabled = true;
  ctx.drawImage(bar, bx, top, bw, ph);
  ctx.strokeRect(bx - 0.5, top - 0.5, bw + 1, ph + 1);
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  const { lo, hi } = px;
  for (const { label, pos } of scaleTicks(px.scale, lo, hi, Math.max(2, Math.min(8, Math.floor(ph / 40))))) {
    const y = top + (1 - pos) * ph;
    ctx.fillText(label, bx + bw + 6, y);
    ctx.fillRect(bx + bw, y, 3, 1);
  }
  ctx.save();
  ctx.translate(width - 8, top + ph / 2);
  ctx.rotate(-Math.PI / 2);
  ctx.textAlign = 'center';
  ctx.fillText(hm.axes.value, 0, 0);
  ctx.restore();
  if (hm.title) {
    ctx.fillStyle = theme.fg;
    ctx.font = `600 15px ${FONT}`;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'alphabetic';
    ctx.fillText(hm.title, left, 24);
  }
  return canvas;
}

/** Exact text of a value for read-outs. */
export const valueText = (v) => (v - v === 0 ? float32String(v) : formatValue(v));
