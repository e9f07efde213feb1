// <pe-plot>: a live PE Lab figure for any web page (blogs, course notes, slides).
//
//   <script type="module" src="https://…/pe-lab/dist/pe-plot.js"></script>
//   <pe-plot kind="rope" dim="128" length="256" rope_scaling='{"rope_type":"yarn","factor":4,
//            "original_max_position_embeddings":4096}' view="heatmap"></pe-plot>
//
// Attributes are the spec (web/api/schema/index.js), parsed with the schema's types: int and number fields
// as numbers, enums and strings as text, bools as true/false (or present = true), object, list and
// nested-spec fields as JSON, "null" for a nullable field. Snake or kebab case (rope_scaling or
// rope-scaling). Display attributes:
//   view       heatmap | lines | both (default)
//   colormap   viridis | cividis | diverging
//   color-scale auto | linear | sqrt | log (auto: log for attention weights, else linear)
//   head       the slice of a 3-D output (ALiBi heads, attention heads)
//   transform  RoPE angles shown as cos | sin | angle | wrapped
//   cols, rows the curves: "0,1,8,9" columns (or rows) of the table
//   lang       en | ko (default: the page's <html lang> when it is Korean, else English)
//   theme      light (default) | dark | auto (follows the reader's system)
//   link       none: no "Open in PE Lab" link; a URL (https://…/pe-lab/): the explorer it opens
//              (default: the explorer beside this script's folder)
//   downloads  (present) buttons for the heatmap (PNG), the curves (SVG) and the tensor (CSV,
//              .npy), as the explorer's "Share & export" card
//
// Your own matrix instead of a spec (a trained position table, a real model's attention weights):
//   <pe-plot matrix="attention" heads="12" labels='["The","cat","sat"]' caption="GPT-2, layer 5">
//     <script type="application/x-npy">k05VTVBZAQB2AHsnZGVzY3InOiAnPGY0Jy…</script>
//   </pe-plot>
//   matrix     table (positions × dimensions) | attention (query × key weights)
//   the data   a .npy (or .safetensors) file: base64 in a <script type="application/x-npy"> child
//              (an inert data block), or the URL in src, or bytes set on el.matrixBytes; read by
//              pe.loadMatrix, the C reader of the explorer's load view, so a bad file shows the
//              same error, inside the element
//   name       the tensor of a .safetensors file (e.g. wpe.weight)
//   heads      the 2-D file holds heads·query rows: shown as [heads, query, key] with a head slider
//   labels     JSON list of the rows' names (tokens); an attention matrix's keys take them too
//   caption    the figure's title (default: "Table" or "Attention weights" in the element's language)
// Every <pe-plot> on a page shares one WebAssembly instance (PePlot.engine()). The figure lives
// in a shadow root: the page's styles do not reach it and its styles do not reach the page. A bad
// attribute shows its error inside the element; changing an attribute redraws.
import { createPE, SCHEMA } from '../api/pe.js';
import { defaults } from '../api/spec.js';
import { Heatmap } from '../plot/heatmap.js';
import { h } from '../plot/dom.js';
import { translator } from '../i18n/index.js';
import { outputInfo, transformsFor } from '../model/output.js';
import { defaultSeries, toggleSeries } from '../model/series.js';
import { heatmapCanvas, linesTree, svgElement, svgString, valueText, PAPER } from '../plot/svg.js';
import { figureOf } from '../model/figure.js';
import { heatmapKernels } from '../model/pixels.js';
import { encodePermalink } from './permalink.js';
import { MATRIX_KINDS, labelled, parseField, readAttributes, readMatrixAttributes } from './pe-plot-attributes.js';
import { formatInt } from '../plot/format.js';
import { base64Bytes, inlineWasm } from './page.js';
import { canvasBlob, download, fileStem, toCsv, toNpy } from './export.js';
import PAGE_CSS from '../style.css';

/** The npm package's version (pe-lab@…), written in by scripts/bundle.js; null unbundled. */
/* global __PE_LAB_VERSION__ */
const PACKAGE_VERSION = typeof __PE_LAB_VERSION__ === 'string' ? __PE_LAB_VERSION__ : null;

const NPY_BLOCK = /^application\/(x-npy|octet-stream)$/i;
const LINES_SIZE = { width: 760, height: 440 };
const DARK = { bg: '#151921', fg: '#e6e9ef', muted: '#9aa3b3', grid: '#2a303c', maskA: '#2b313d', maskB: '#181c24' };

// ---------------------------------------------------------------------------------------------
// The shared engine: one WebAssembly instance for every element on the page.

let enginePromise = null;
let engineLoads = 0;

function engine() {
  if (!enginePromise) {
    engineLoads += 1;
    const wasm = typeof document !== 'undefined' ? inlineWasm() : null;
    enginePromise = createPE(wasm ? { wasm } : {});
    enginePromise.catch(() => {
      enginePromise = null; // let a later element try again
    });
  }
  return enginePromise;
}

// ---------------------------------------------------------------------------------------------
// Styles: the page's stylesheet with its theme variables on :host, plus the element's own rules.

function shadowCss() {
  const dark = /@media \(prefers-color-scheme: dark\) \{\s*:root \{([^}]*)\}\s*\}/.exec(PAGE_CSS);
  let css = PAGE_CSS.replace(/:root \{/, ':host {');
  if (dark) {
    css = css.replace(dark[0], () => `@media (prefers-color-scheme: dark) { :host([theme="auto"]) {${dark[1]}} }\n:host([theme="dark"]) {${dark[1]}}`);
  }
  return `${css}
:host { display: block; color-scheme: light; margin: 1rem 0; }
:host([theme="dark"]) { color-scheme: dark; }
@media (prefers-color-scheme: dark) { :host([theme="auto"]) { color-scheme: dark; } }
:host([hidden]) { display: none; }
.pp-root {
  all: initial; display: block; box-sizing: border-box; font-family: var(--font); font-size: 14px;
  line-height: 1.45; color: var(--fg); background: var(--surface); border: 1px solid var(--border);
  border-radius: var(--radius); padding: 0.75rem 0.9rem 0.6rem; text-align: left;
}
.pp-head { display: flex; flex-wrap: wrap; align-items: baseline; justify-content: space-between; gap: 0.2rem 1rem; margin-bottom: 0.4rem; }
.pp-title { font-weight: 650; font-size: 0.95rem; }
.pp-link { font-size: 0.8rem; color: var(--accent); }
.pp-error { margin: 0.4rem 0; padding: 0.5rem 0.7rem; border: 1px solid var(--error); border-radius: 8px; background: var(--error-bg); color: var(--error); font-size: 0.85rem; overflow-wrap: anywhere; }
.pp-error[hidden], .pp-heatmap[hidden], .pp-lines[hidden], .pp-tools[hidden] { display: none; }
.pp-tools { display: flex; flex-wrap: wrap; gap: 0.4rem 1rem; align-items: center; font-size: 0.8rem; color: var(--muted); margin: 0 0 0.4rem; }
.pp-tools input[type=range] { width: 8rem; }
.hm-plot { height: var(--pe-plot-heatmap-height, clamp(200px, 40vw, 380px)); }
.pp-lines svg { display: block; width: 100%; height: auto; touch-action: pan-y; }
.pp-lines { margin-top: 0.6rem; }
.pp-readout { min-height: 1.3em; margin: 0.2rem 0 0; font-size: 0.8rem; color: var(--muted); font-variant-numeric: tabular-nums; }
.pp-loading { color: var(--muted); font-size: 0.85rem; }
.pp-downloads { display: flex; flex-wrap: wrap; gap: 0.35rem; margin-top: 0.5rem; }
.pp-downloads[hidden] { display: none; }
.pp-downloads .button { font-size: 0.78rem; padding: 0.2rem 0.55rem; }
`;
}

let sheet = null;
function styleSheet() {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(shadowCss());
  }
  return sheet;
}

// ---------------------------------------------------------------------------------------------
// Attributes → spec and display options

export { parseField, readAttributes, readMatrixAttributes };

export class PePlot extends HTMLElement {
  /** The shared WebAssembly engine (a promise of the pe.js API). */
  static engine() {
    return engine();
  }

  /** How many times the page loaded the WebAssembly module (1 however many elements). */
  static get engineLoads() {
    return engineLoads;
  }

  /** The version of the pe-lab package this element was built from (null when unbundled). */
  static get version() {
    return PACKAGE_VERSION;
  }

  /** The user's matrix as the bytes of a .npy or .safetensors file (matrix="…" elements). */
  get matrixBytes() {
    return this.bytes ?? null;
  }

  set matrixBytes(bytes) {
    this.bytes = bytes ?? null;
    this.schedule();
  }

  constructor() {
    super();
    this.attachShadow({ mode: 'open' });
    this.shadowRoot.adoptedStyleSheets = [styleSheet()];
    this.pe = null;
    this.heatmap = null;
    this.frame = 0;
    this.state = null;
    this.shared = {};
    this.renders = 0;
    this.root = h('div', { class: 'pp-root', part: 'root' });
    this.titleEl = h('span', { class: 'pp-title' });
    this.linkEl = h('a', { class: 'pp-link', target: '_blank', rel: 'noopener' });
    this.errorEl = h('p', { class: 'pp-error', role: 'alert' });
    this.errorEl.hidden = true;
    this.tools = h('div', { class: 'pp-tools' });
    this.hmBox = h('div', { class: 'pp-heatmap' });
    this.linesBox = h('div', { class: 'pp-lines' });
    this.readout = h('p', { class: 'pp-readout', 'aria-live': 'polite' });
    this.linesBox.append(this.readout);
    this.dlBox = h('div', { class: 'pp-downloads' });
    this.dlBox.hidden = true;
    this.root.append(h('div', { class: 'pp-head' }, this.titleEl, this.linkEl), this.errorEl, this.tools, this.hmBox, this.linesBox, this.dlBox);
    this.shadowRoot.append(this.root);
    // Every attribute, known or not (a misspelt one must show its error too), redraws when its
    // value really changes; data-* attributes are the element's own report (data-state), so
    // writing them must not start another render (that loop once ran every frame, forever).
    this.attrs = new MutationObserver((records) => {
      const changed = records.some((m) => !m.attributeName.startsWith('data-')
        && m.oldValue !== this.getAttribute(m.attributeName));
      if (changed && this.isConnected) this.schedule();
    });
    this.attrs.observe(this, { attributes: true, attributeOldValue: true });
    // A matrix element's data block may arrive after the element (or be replaced): redraw.
    this.kids = new MutationObserver(() => {
      if (this.isConnected && this.hasAttribute('matrix')) this.schedule();
    });
    this.kids.observe(this, { childList: true, subtree: true, characterData: true });
    // Nothing is computed until the element comes near the screen: a post with many figures
    // costs only the ones the reader scrolls to.
    this.visible = false;
    this.dirty = true;
    this.seen = typeof IntersectionObserver === 'function'
      ? new IntersectionObserver((entries) => {
        this.visible = entries[entries.length - 1].isIntersecting;
        if (this.visible && this.dirty) this.schedule();
      }, { rootMargin: '200px 0px' })
      : null;
    this.resize = new ResizeObserver(() => {
      const w = Math.round(this.linesBox.clientWidth);
      if (this.state && w && w !== this.linesWidth) this.drawLines();
    });
  }

  connectedCallback() {
    this.resize.observe(this.linesBox);
    if (this.seen) this.seen.observe(this);
    else this.visible = true;
    this.dirty = true;
    this.schedule();
  }

  disconnectedCallback() {
    this.resize.disconnect();
    this.seen?.disconnect();
    cancelAnimationFrame(this.frame);
    this.frame = 0;
    this.heatmap?.destroy();
    this.heatmap = null;
    this.hmKey = null;
  }

  /** Renders on the next frame when on (or near) the screen; otherwise once it scrolls there. */
  schedule() {
    this.dirty = true;
    if (this.frame || !this.visible) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.dirty = false;
      this.render();
    });
  }

  showError(message) {
    this.errorEl.textContent = message;
    this.errorEl.hidden = false;
    this.dataset.state = 'error';
    this.hmBox.hidden = true;
    this.linesBox.hidden = true;
    this.tools.hidden = true;
    this.dlBox.hidden = true;
  }

  /**
   * The user's matrix, shaped like a computed result: the bytes from el.matrixBytes, the
   * <script type="application/x-npy"> child (base64) or src, read by pe.loadMatrix (the C reader
   * of the explorer's load view); heads splits the rows into slices.
   */
  async matrixResult(m) {
    let bytes = this.bytes ?? null;
    if (!bytes) {
      const block = [...this.children].find((c) => c.localName === 'script' && NPY_BLOCK.test(c.type));
      if (block) bytes = base64Bytes(block.textContent);
    }
    if (!bytes && m.src) {
      const url = new URL(m.src, document.baseURI).href;
      if (this.fetched?.url !== url) {
        const response = await fetch(url);
        if (!response.ok) throw new Error(`could not load ${url} (HTTP ${response.status})`);
        this.fetched = { url, bytes: new Uint8Array(await response.arrayBuffer()) };
      }
      bytes = this.fetched.bytes;
    }
    if (!bytes) {
      throw new Error('matrix needs its data: a <script type="application/x-npy"> child holding a .npy file in base64, a src URL, or el.matrixBytes');
    }
    const r = this.pe.loadMatrix(bytes, m.name ? { name: m.name } : undefined);
    let shape = r.shape;
    if (m.heads) {
      if (shape[0] % m.heads) throw new Error(`heads="${m.heads}" must divide the matrix's ${shape[0]} rows`);
      shape = [m.heads, shape[0] / m.heads, shape[1]];
    }
    const rows = shape[shape.length - 2];
    if (m.labels && m.labels.length !== rows) throw new Error(`labels has ${m.labels.length} names for ${rows} rows`);
    return { ...r, shape, spec: { kind: m.kind } };
  }

  async render() {
    let parsed;
    try {
      parsed = this.hasAttribute('matrix') ? readMatrixAttributes(this) : readAttributes(this);
    } catch (err) {
      this.titleEl.textContent = 'PE Lab';
      this.showError(err?.message ?? String(err));
      return;
    }
    const { spec, opts, matrix = null } = parsed;
    const kind = matrix ? matrix.kind : spec.kind;
    const t = translator(opts.lang);
    const title = matrix ? matrix.caption ?? t.tr(MATRIX_KINDS[matrix.type].title) : t.tr(SCHEMA[kind].label);
    this.t = t;
    this.opts = opts;
    if (!this.pe) {
      this.titleEl.textContent = title;
      try {
        this.pe = await engine();
      } catch (err) {
        this.showError(t('app.loadFailed', err?.message ?? String(err)));
        return;
      }
      // The attributes may have changed while the module loaded.
      return this.render();
    }
    let result;
    try {
      result = matrix ? await this.matrixResult(matrix) : this.pe.compute(spec);
    } catch (err) {
      this.titleEl.textContent = title;
      this.showError(err?.message ?? String(err));
      return;
    }
    this.errorEl.hidden = true;
    this.errorEl.textContent = '';
    const info = outputInfo(kind, SCHEMA[kind], result.shape);
    this.t = matrix?.labels ? labelled(t, info, matrix.labels) : t;
    this.labelsKey = matrix?.labels ? matrix.labels.join('\u0000') : '';
    this.matrix = matrix;
    const shared = {
      colormap: opts.colormap,
      scale: opts.scale,
      head: Math.min(opts.head, info.slices - 1),
      ...(opts.transform && transformsFor(info) ? { transform: opts.transform } : {}),
      ...(this.userSeries ?? opts.series ? { series: this.userSeries ?? opts.series } : {}),
    };
    this.state = { spec: result.spec, result, info, shared };
    this.titleEl.textContent = title;
    this.linkEl.hidden = !opts.link || !!matrix;
    if (opts.link && !matrix) {
      this.linkEl.textContent = t('share.openFull');
      this.linkEl.href = new URL(`${opts.linkBase ? '' : '../index.html'}${opts.lang !== 'en' ? `?lang=${opts.lang}` : ''}${encodePermalink({ kind: spec.kind, spec: result.spec, view: shared, lang: opts.lang })}`, opts.linkBase ?? import.meta.url).href;
    }
    this.root.dataset.theme = opts.theme;
    this.drawTools();
    this.hmBox.hidden = opts.view === 'lines';
    this.linesBox.hidden = opts.view === 'heatmap';
    if (opts.view !== 'lines') this.drawHeatmap();
    if (opts.view !== 'heatmap') this.drawLines();
    this.drawDownloads(title);
    this.renders += 1;
    this.dataset.state = 'ready';
    this.dispatchEvent(new CustomEvent('pe-plot-render', { detail: { shape: result.shape } }));
  }

  drawTools() {
    const { info, shared } = this.state;
    this.tools.replaceChildren();
    this.tools.hidden = info.slices <= 1;
    if (info.slices <= 1) return;
    const label = this.t.tr(info.axes.head);
    const slider = h('input', { type: 'range', min: 0, max: info.slices - 1, step: 1, value: shared.head, 'aria-label': label });
    const value = h('span', { text: `${label} ${shared.head}` });
    slider.addEventListener('input', () => {
      this.state.shared.head = Number(slider.value);
      value.textContent = `${label} ${slider.value}`;
      if (this.opts.view !== 'lines') this.drawHeatmap();
      if (this.opts.view !== 'heatmap') this.drawLines();
    });
    this.tools.append(h('label', {}, value, slider));
  }

  /** The downloads row (the downloads attribute): the same files as the explorer's card. */
  drawDownloads(title) {
    this.dlBox.hidden = !this.opts.downloads;
    this.dlBox.replaceChildren();
    if (!this.opts.downloads) return;
    const t = this.t;
    const { spec, result } = this.state;
    const stem = this.matrix
      ? (this.matrix.caption ?? this.matrix.type).replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 60) || this.matrix.type
      : fileStem(spec, defaults(spec.kind));
    const fig = () => figureOf(this.state, this.t, this.pe);
    const files = {
      heatmapPng: async () => [await canvasBlob(heatmapCanvas(heatmapKernels(this.pe), fig().heatmap)), `${stem}-heatmap.png`],
      linesSvg: async () => [new Blob([svgString(linesTree(fig().lines, LINES_SIZE).tree)], { type: 'image/svg+xml' }), `${stem}-curves.svg`],
      csv: async () => [new Blob([toCsv(result.data, result.shape, `PE Lab: ${title}`)], { type: 'text/csv' }), `${stem}.csv`],
      npy: async () => [new Blob([toNpy(result.data, result.shape)], { type: 'application/octet-stream' }), `${stem}.npy`],
    };
    for (const [key, make] of Object.entries(files)) {
      this.dlBox.append(h('button', {
        type: 'button', class: 'button', 'data-export': key, text: t(`share.dl.${key}`),
        on: {
          click: async () => {
            const [blob, name] = await make();
            download(blob, name);
          },
        },
      }));
    }
  }

  drawHeatmap() {
    const { info } = this.state;
    const t = this.t;
    const fig = figureOf(this.state, t, this.pe);
    const key = `${this.opts.lang}:${info.kind}:${info.class}:${this.labelsKey}`;
    if (!this.heatmap || this.hmKey !== key) {
      this.heatmap?.destroy();
      this.hmBox.replaceChildren();
      this.hmKey = key;
      this.heatmap = new Heatmap(this.hmBox, {
        ...heatmapKernels(this.pe), t, axes: { x: fig.heatmap.axes.x, y: fig.heatmap.axes.y, value: fig.heatmap.axes.value }, label: fig.title,
        onActivate: ({ row, col }) => {
          const series = this.state.shared.series ?? defaultSeries(this.state.info);
          this.userSeries = toggleSeries(series, series.mode === 'rows' ? row : col);
          this.state.shared.series = this.userSeries;
          if (this.opts.view !== 'heatmap') this.drawLines();
        },
      });
    }
    const hm = fig.heatmap;
    this.heatmap.colormap = hm.colormap;
    this.heatmap.scale = hm.scale ?? 'linear';
    this.heatmap.axes.value = hm.axes.value;
    this.heatmap.setData({ data: hm.data, rows: hm.rows, cols: hm.cols, offset: hm.offset, rowOffset: hm.rowOffset, valueRange: hm.valueRange });
  }

  drawLines() {
    const fig = figureOf(this.state, this.t, this.pe);
    const width = Math.max(280, Math.round(this.linesBox.clientWidth || 640));
    this.linesWidth = width;
    const dark = this.opts.theme === 'dark' || (this.opts.theme === 'auto' && matchMedia('(prefers-color-scheme: dark)').matches);
    const theme = dark ? DARK : PAPER;
    const height = Math.round(Math.min(360, Math.max(220, width * 0.5)));
    const { tree, geometry: g } = linesTree(fig.lines, { width, height, title: null, theme, interactive: true });
    const svg = svgElement(tree);
    svg.setAttribute('aria-label', `${fig.lines.yLabel} / ${fig.lines.xLabel}: ${fig.lines.series.map((s) => s.label).join(', ')}`);
    const hover = svg.querySelector('g.hover');
    const series = fig.lines.series;
    const show = (clientX) => {
      const rect = svg.getBoundingClientRect();
      const x = ((clientX - rect.left) / rect.width) * width;
      if (!g.n || x < g.left || x > g.left + g.pw) return;
      const k = Math.max(0, Math.min(g.n - 1, Math.round(((x - g.left) / g.pw) * (g.xMax - g.x0))));
      const px = g.X(g.x0 + k);
      hover.replaceChildren(svgElement({ tag: 'line', attrs: { x1: px, x2: px, y1: g.top, y2: g.top + g.ph, stroke: theme.muted, 'stroke-dasharray': '3 3' }, children: [] }));
      this.readout.textContent = `${fig.lines.xLabel} ${formatInt(g.x0 + k)}: ${series.map((s) => `${s.label} = ${valueText(s.values[k])}`).join(' · ')}`;
    };
    svg.addEventListener('pointermove', (e) => show(e.clientX));
    svg.addEventListener('pointerleave', () => hover.replaceChildren());
    const old = this.linesBox.querySelector('svg');
    if (old) old.replaceWith(svg);
    else this.linesBox.prepend(svg);
  }
}

if (typeof customElements !== 'undefined' && !customElements.get('pe-plot')) {
  customElements.define('pe-plot', PePlot);
  globalThis.PePlot = PePlot;
}
