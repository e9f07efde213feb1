// PE Lab page: builds each panel's controls from the spec schema (web/schema.js), computes the encoding
// with the WebAssembly API (web/pe.js) and draws it as a heatmap and a line plot. Every change redraws
// on the next animation frame; there is no compute button.

import { createPE, PEError } from './pe.js';
import { SCHEMA } from './schema.js';
import { Heatmap, formatValue } from './heatmap.js';
import { LinePlot } from './lineplot.js';
import { COLORMAPS, DEFAULT_COLORMAP } from './colormaps.js';

// ---------------------------------------------------------------------------------------------------
// UI strings, one object per language. Field labels and help come from the schema ({ en, ko }); every
// other string the page shows lives here. To add Korean, add a `ko` object with the same keys (missing
// keys fall back to English).

export const STRINGS = {
  en: {
    title: 'PE Lab',
    tagline:
      'How does a transformer know where a token is? Change a positional encoding’s parameters and watch its table change.',
    loading: 'Loading the WebAssembly module…',
    loadFailed: (msg) => `Could not start the WebAssembly module: ${msg}`,
    parameters: 'Parameters',
    display: 'Display',
    colormap: 'Colour map',
    colormapHelp: 'Diverging maps put white at 0.',
    dims: 'Dimensions to plot',
    dimsHelp: 'Comma-separated; ranges like 6-9 work. Click a column in the map to add or remove it.',
    dimsInvalid: (tok) => `“${tok}” is not a dimension. Use numbers like 0, 1, 6-9.`,
    dimsSkipped: (list, dim) => `Not shown: ${list} (this table’s dimensions run from 0 to ${dim - 1}).`,
    dimsTooMany: (max) => `Only the first ${max} are plotted.`,
    dimsNone: 'No dimension selected.',
    heatmapTitle: 'Encoding table',
    heatmapHelp: 'One row per position, one column per dimension of its encoding vector.',
    lineTitle: 'Selected dimensions across positions',
    axisDim: 'dimension',
    axisPos: 'position',
    axisValue: 'value',
    hoverHint: 'Point at the map to read a value; click a column to plot it below.',
    readout: (p, d, v) => `position ${p}, dimension ${d}: ${v}`,
    masked: 'masked',
    colorbar: 'Colour scale',
    heatmapAria: (rows, cols) => `Heatmap of ${fmtInt(rows)} positions by ${fmtInt(cols)} dimensions`,
    dataRange: (lo, hi) => `data range ${lo} … ${hi}`,
    series: (d) => `dim ${d}`,
    tooltipTitle: (p) => `position ${p}`,
    stats: (rows, cols, computeMs, drawMs) =>
      `${fmtInt(rows)} × ${fmtInt(cols)} = ${fmtInt(rows * cols)} values · computed in ${computeMs} · drawn in ${drawMs}`,
    logScale: (label) => `${label} (log scale)`,
    stale: 'The inputs are invalid; showing the last valid result.',
    otherError: (msg) => `Error: ${msg}`,
    simdOn: 'Computed in your browser by WebAssembly — SIMD build in use.',
    simdOff: 'Computed in your browser by WebAssembly — scalar build in use (no WebAssembly SIMD here).',
    private: 'Nothing is sent anywhere.',
  },
  // ko: { ... }   same keys; see the schema for the Korean field labels.
};

function fmtInt(n) {
  return n.toLocaleString('en-US');
}

function pickLang() {
  const q = new URLSearchParams(location.search).get('lang');
  const want = (q || document.documentElement.lang || 'en').slice(0, 2).toLowerCase();
  return STRINGS[want] ? want : 'en';
}

const LANG = pickLang();

/** A UI string (falls back to English). */
function t(key) {
  return (STRINGS[LANG] && STRINGS[LANG][key]) ?? STRINGS.en[key];
}

/** A schema text ({ en, ko }) in the page language. */
function tr(text) {
  if (text == null) return '';
  if (typeof text === 'string') return text;
  return text[LANG] ?? text.en ?? '';
}

// ---------------------------------------------------------------------------------------------------
// Small DOM helpers

function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v == null || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else if (v === true) e.setAttribute(k, '');
    else e.setAttribute(k, String(v));
  }
  for (const c of children) if (c != null) e.append(c);
  return e;
}

function fmtMs(ms) {
  if (ms < 0.1) return '< 0.1 ms';
  if (ms < 10) return `${ms.toFixed(1)} ms`;
  return `${Math.round(ms)} ms`;
}

// ---------------------------------------------------------------------------------------------------
// Sliders derived from a field's schema range

function roundSig(v, digits) {
  if (v === 0 || !Number.isFinite(v)) return v;
  const p = 10 ** (digits - Math.ceil(Math.log10(Math.abs(v))));
  return Math.round(v * p) / p;
}

/** Snap to a "round" value (1/2/5 x 10^k, and powers of two for integers) if one is within `tol`. */
function snapRound(v, isInt, tol) {
  if (!(v > 0)) return v;
  const k = Math.floor(Math.log10(v));
  const cands = [];
  for (const e of [k, k + 1]) for (const m of [1, 2, 2.5, 5]) cands.push(m * 10 ** e);
  if (isInt) cands.push(2 ** Math.round(Math.log2(v)));
  let best = v;
  let err = tol;
  for (const c of cands) {
    const e = Math.abs(c - v) / v;
    if (e < err) {
      err = e;
      best = c;
    }
  }
  return best;
}

const SLIDER_STEPS = 1000;

/**
 * A mapping between slider positions [0, SLIDER_STEPS] and field values, or null when a slider makes
 * no sense (not numeric, or no fixed finite range).
 */
function sliderScale(desc) {
  if (desc.type !== 'int' && desc.type !== 'number') return null;
  const { min, max } = desc;
  if (typeof min !== 'number' || typeof max !== 'number' || !Number.isFinite(min) || !Number.isFinite(max)) return null;
  if (!(max > min)) return null;
  const isInt = desc.type === 'int';
  const log = min >= 0 && max / Math.max(min, 1) >= 1000;
  if (log) {
    const shift = min > 0 ? 0 : 1;
    let lo = Math.log10(min + shift);
    const hi = Math.log10(max + shift);
    if (desc.exclusiveMin) lo += (hi - lo) / SLIDER_STEPS;
    return {
      log: true,
      toPos: (v) => ((Math.log10(Math.max(v + shift, 1e-300)) - lo) / (hi - lo)) * SLIDER_STEPS,
      fromPos: (p) => {
        let v = 10 ** (lo + (p / SLIDER_STEPS) * (hi - lo)) - shift;
        if (isInt) {
          v = Math.round(v);
          if (v >= 100) v = snapRound(v, true, 0.02);
        } else {
          v = snapRound(roundSig(v, 3), false, 0.03);
        }
        v = Math.min(max, Math.max(min, v));
        if (desc.exclusiveMin && v <= min) v = roundSig(10 ** lo - shift, 3);
        return v;
      },
    };
  }
  return {
    log: false,
    toPos: (v) => ((v - min) / (max - min)) * SLIDER_STEPS,
    fromPos: (p) => {
      let v = min + (p / SLIDER_STEPS) * (max - min);
      v = isInt ? Math.round(v) : roundSig(v, 3);
      return Math.min(max, Math.max(min, v));
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// One control per schema field

function fieldControl(kind, name, desc, value, onValue) {
  const id = `f-${kind}-${name}`;
  const helpId = `${id}-help`;
  const errId = `${id}-error`;
  const wrap = h('div', { class: `field field-${desc.type}`, 'data-field': name });
  const label = h('label', { for: id, text: tr(desc.label) || name });
  const help = h('p', { class: 'help', id: helpId, text: tr(desc.help) });
  const error = h('p', { class: 'field-error', id: errId, 'aria-live': 'polite' });
  error.hidden = true;
  let input;
  let slider = null;
  let scale = null;

  if (desc.type === 'enum') {
    input = h('select', { id, name, 'aria-describedby': `${helpId} ${errId}` });
    for (const v of desc.values) input.append(h('option', { value: v, text: v }));
    input.value = value;
    input.addEventListener('input', () => onValue(name, input.value));
    wrap.append(label, h('div', { class: 'field-row' }, input));
  } else if (desc.type === 'bool') {
    input = h('input', { id, name, type: 'checkbox', 'aria-describedby': `${helpId} ${errId}` });
    input.checked = !!value;
    input.addEventListener('input', () => onValue(name, input.checked));
    wrap.append(h('div', { class: 'field-row field-check' }, input, label));
  } else {
    const isInt = desc.type === 'int';
    input = h('input', {
      id,
      name,
      type: 'number',
      inputmode: isInt ? 'numeric' : 'decimal',
      step: isInt ? 1 : 'any',
      'aria-describedby': `${helpId} ${errId}`,
    });
    if (typeof desc.min === 'number') input.min = String(desc.min);
    if (typeof desc.max === 'number') input.max = String(desc.max);
    input.value = String(value);
    scale = sliderScale(desc);
    const row = h('div', { class: 'field-row' }, input);
    if (scale) {
      slider = h('input', {
        type: 'range',
        min: 0,
        max: SLIDER_STEPS,
        step: 1,
        tabindex: -1,
        'aria-label': scale.log ? t('logScale')(tr(desc.label) || name) : tr(desc.label) || name,
        class: scale.log ? 'log' : null,
      });
      slider.value = String(scale.toPos(value));
      slider.addEventListener('input', () => {
        const v = scale.fromPos(Number(slider.value));
        input.value = String(v);
        onValue(name, v);
      });
      row.append(slider);
    }
    input.addEventListener('input', () => {
      const v = input.valueAsNumber; // NaN for an empty or unparsable box: the API reports it
      if (slider && Number.isFinite(v)) slider.value = String(scale.toPos(v));
      onValue(name, v);
    });
    wrap.append(label, row);
  }
  wrap.append(help, error);

  return {
    name,
    el: wrap,
    input,
    setError(msg) {
      error.textContent = msg || '';
      error.hidden = !msg;
      wrap.classList.toggle('invalid', !!msg);
      if (msg) input.setAttribute('aria-invalid', 'true');
      else input.removeAttribute('aria-invalid');
    },
    /** Bounds that depend on the rest of the spec (e.g. offset <= max position - length). */
    updateBounds(spec) {
      if (typeof desc.max === 'function' && input.type === 'number') {
        const m = desc.max(spec);
        if (Number.isFinite(m)) input.max = String(m);
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// Which dimensions the line plot shows

const MAX_SERIES = 10;

/** Parse "0, 1, 6-9" into dimensions; returns { dims, bad } (bad: the first unparsable token). */
export function parseDims(text) {
  const dims = [];
  // "6 - 9" -> "6-9" before splitting on commas and spaces
  for (const tok of text.replace(/\s*([-–:])\s*/g, '$1').split(/[\s,;]+/).filter(Boolean)) {
    const m = /^(\d+)(?:[-–:](\d+))?$/.exec(tok);
    if (!m) return { dims, bad: tok };
    const a = Number(m[1]);
    const b = m[2] === undefined ? a : Number(m[2]);
    const [lo, hi] = a <= b ? [a, b] : [b, a];
    for (let d = lo; d <= hi && dims.length < 10000; d++) if (!dims.includes(d)) dims.push(d);
  }
  return { dims, bad: null };
}

/** Three sin/cos pairs (interleaved layout) with short, medium and long wavelengths at the default size. */
const DEFAULT_DIMS = [0, 1, 8, 9, 24, 25];

function defaultDims(dim) {
  return DEFAULT_DIMS.filter((d) => d < dim);
}

// ---------------------------------------------------------------------------------------------------
// A panel: controls + heatmap + line plot for one kind

function createPanel(mount, kind, pe) {
  const schema = SCHEMA[kind];
  const spec = { ...pe.defaults(kind), kind };
  const fields = {};
  let last = null; // { spec, result }
  let renders = 0;
  let lastEdited = null; // the field the user changed most recently

  // --- skeleton
  const titleId = `panel-${kind}-title`;
  mount.setAttribute('aria-labelledby', titleId);
  const head = h('div', { class: 'panel-head' },
    h('h2', { id: titleId, text: tr(schema.label) }),
    h('p', { class: 'panel-help', text: tr(schema.help) }));
  const controls = h('div', { class: 'controls', role: 'group', 'aria-label': t('parameters') });
  const paramBox = h('fieldset', { class: 'box' }, h('legend', { text: t('parameters') }));
  for (const [name, desc] of Object.entries(schema.fields)) {
    const f = fieldControl(kind, name, desc, spec[name] ?? desc.default, onValue);
    fields[name] = f;
    paramBox.append(f.el);
  }
  const generalError = h('p', { class: 'field-error general-error', 'aria-live': 'polite' });
  generalError.hidden = true;
  paramBox.append(generalError);

  // display options
  const displayBox = h('fieldset', { class: 'box' }, h('legend', { text: t('display') }));
  const cmapId = `f-${kind}-colormap`;
  const cmapSelect = h('select', { id: cmapId, name: 'colormap' });
  for (const [key, cm] of Object.entries(COLORMAPS)) cmapSelect.append(h('option', { value: key, text: tr(cm.label) }));
  cmapSelect.value = DEFAULT_COLORMAP;
  displayBox.append(h('div', { class: 'field', 'data-field': 'colormap' },
    h('label', { for: cmapId, text: t('colormap') }),
    h('div', { class: 'field-row' }, cmapSelect),
    h('p', { class: 'help', text: t('colormapHelp') })));

  const dimsId = `f-${kind}-plotdims`;
  const dimsInput = h('input', {
    id: dimsId, name: 'plotdims', type: 'text', autocomplete: 'off', spellcheck: 'false',
    inputmode: 'text', 'aria-describedby': `${dimsId}-help ${dimsId}-note`,
  });
  dimsInput.value = defaultDims(spec.dim).join(', ');
  let dimsEdited = false;
  const dimsNote = h('p', { class: 'field-note', id: `${dimsId}-note`, 'aria-live': 'polite' });
  dimsNote.hidden = true;
  displayBox.append(h('div', { class: 'field', 'data-field': 'plotdims' },
    h('label', { for: dimsId, text: t('dims') }),
    h('div', { class: 'field-row' }, dimsInput),
    h('p', { class: 'help', id: `${dimsId}-help`, text: t('dimsHelp') }),
    dimsNote));
  controls.append(paramBox, displayBox);

  const stats = h('p', { class: 'stats', 'aria-live': 'off' });
  const staleNote = h('p', { class: 'stale-note', role: 'status' });
  staleNote.hidden = true;
  const hmBox = h('div', { class: 'heatmap', id: `heatmap-${kind}` });
  const hmCard = h('figure', { class: 'card' },
    h('figcaption', {},
      h('h3', { text: t('heatmapTitle') }),
      h('p', { class: 'card-help', text: t('heatmapHelp') })),
    stats, staleNote, hmBox);
  const lineCanvas = h('canvas', { id: `lineplot-${kind}`, role: 'img', 'aria-label': t('lineTitle') });
  const lineCard = h('figure', { class: 'card' },
    h('figcaption', {}, h('h3', { text: t('lineTitle') })),
    h('div', { class: 'chart-box' }, lineCanvas));
  const plots = h('div', { class: 'plots' }, hmCard, lineCard);
  mount.append(head, h('div', { class: 'panel-body' }, controls, plots));

  const heatmap = new Heatmap(hmBox, {
    strings: {
      x: t('axisDim'), y: t('axisPos'), value: t('axisValue'), hoverHint: t('hoverHint'),
      readout: t('readout'), masked: t('masked'), colorbar: t('colorbar'),
      ariaLabel: t('heatmapAria'), dataRange: t('dataRange'),
    },
    onColumnClick: toggleDim,
  });
  const lineplot = new LinePlot(lineCanvas, {
    strings: { x: t('axisPos'), y: t('axisValue'), series: t('series'), tooltipTitle: t('tooltipTitle') },
  });

  cmapSelect.addEventListener('input', () => heatmap.setColormap(cmapSelect.value));
  dimsInput.addEventListener('input', () => {
    dimsEdited = true;
    schedule('line');
  });
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => lineplot.applyTheme());

  // --- scheduling: at most one compute and one line-plot update per animation frame
  const dirty = new Set();
  let frame = 0;
  function schedule(what) {
    dirty.add(what);
    if (!frame) frame = requestAnimationFrame(flush);
  }
  function flush() {
    frame = 0;
    const todo = new Set(dirty);
    dirty.clear();
    if (todo.has('compute')) compute();
    else if (todo.has('line')) updateLine();
  }

  function onValue(name, value) {
    spec[name] = value;
    lastEdited = name;
    schedule('compute');
  }

  function clearErrors() {
    for (const f of Object.values(fields)) f.setError(null);
    generalError.hidden = true;
  }

  function showError(err) {
    clearErrors();
    const isPE = err instanceof PEError || (err && err.name === 'PEError');
    const msg = err && err.message ? err.message : String(err);
    if (isPE && err.param && fields[err.param]) {
      fields[err.param].setError(msg);
      // A limit on another field (e.g. the output size) also shows where the user is typing.
      if (lastEdited && lastEdited !== err.param && fields[lastEdited]) fields[lastEdited].setError(msg);
    } else {
      generalError.textContent = isPE ? msg : t('otherError')(msg);
      generalError.hidden = false;
      if (!isPE) console.warn(err);
    }
    if (last) {
      heatmap.setStale(true);
      plots.classList.add('stale');
      staleNote.textContent = t('stale');
      staleNote.hidden = false;
    }
  }

  function compute() {
    const s = { ...spec };
    for (const f of Object.values(fields)) f.updateBounds(s);
    let result;
    const t0 = performance.now();
    try {
      result = pe.compute(s);
    } catch (err) {
      showError(err);
      return;
    }
    const ms = performance.now() - t0;
    clearErrors();
    heatmap.setStale(false);
    plots.classList.remove('stale');
    staleNote.hidden = true;
    last = { spec: s, result };
    const [rows, cols] = result.shape;
    heatmap.setData({ data: result.data, rows, cols, rowOffset: s.offset || 0 });
    stats.textContent = t('stats')(rows, cols, fmtMs(ms), fmtMs(heatmap.lastDrawMs));
    if (!dimsEdited) dimsInput.value = defaultDims(cols).join(', ');
    updateLine();
    renders++;
    mount.dataset.renders = String(renders);
  }

  function updateLine() {
    if (!last) return;
    const [rows, cols] = last.result.shape;
    const { dims, bad } = parseDims(dimsInput.value);
    const notes = [];
    if (bad) notes.push(t('dimsInvalid')(bad));
    const ok = dims.filter((d) => d < cols);
    const skipped = dims.filter((d) => d >= cols);
    if (skipped.length) {
      const list = skipped.length > 4 ? `${skipped.slice(0, 4).join(', ')}, …` : skipped.join(', ');
      notes.push(t('dimsSkipped')(list, cols));
    }
    if (ok.length > MAX_SERIES) notes.push(t('dimsTooMany')(MAX_SERIES));
    if (!ok.length && !bad) notes.push(t('dimsNone'));
    dimsNote.textContent = notes.join(' ');
    dimsNote.hidden = !notes.length;
    dimsNote.classList.toggle('is-error', !!bad);
    dimsInput.toggleAttribute('aria-invalid', !!bad);
    lineplot.setData({
      data: last.result.data, rows, cols, rowOffset: last.spec.offset || 0, dims: ok.slice(0, MAX_SERIES),
    });
  }

  function toggleDim(col) {
    const { dims } = parseDims(dimsInput.value);
    const i = dims.indexOf(col);
    if (i >= 0) dims.splice(i, 1);
    else dims.push(col);
    dimsInput.value = dims.join(', ');
    dimsEdited = true;
    schedule('line');
  }

  compute();
  return { spec, fields, heatmap, lineplot };
}

// ---------------------------------------------------------------------------------------------------

async function main() {
  const root = document.documentElement;
  document.querySelector('[data-i18n="title"]')?.replaceChildren(t('title'));
  document.querySelector('[data-i18n="tagline"]')?.replaceChildren(t('tagline'));
  const engine = document.getElementById('engine');
  if (engine) engine.textContent = t('loading');
  let pe;
  try {
    pe = await createPE();
  } catch (err) {
    root.dataset.state = 'error';
    const msg = err && err.message ? err.message : String(err);
    const banner = h('p', { class: 'load-error', role: 'alert', text: t('loadFailed')(msg) });
    document.querySelector('main')?.prepend(banner);
    if (engine) engine.textContent = '';
    console.warn(err);
    return;
  }
  for (const mount of document.querySelectorAll('[data-kind]')) {
    const kind = mount.dataset.kind;
    if (SCHEMA[kind]) createPanel(mount, kind, pe);
  }
  if (engine) {
    engine.textContent = `${pe.simd ? t('simdOn') : t('simdOff')} ${t('private')}`;
    engine.dataset.simd = String(!!pe.simd);
  }
  root.dataset.state = 'ready';
}

main();
