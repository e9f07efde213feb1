// <pe-plot>'s attributes (web/share/pe-plot.js): the spec fields, the display attributes and a
// matrix of the user's, read and checked; the element itself knows only the parsed values.
import { SCHEMA } from '../api/pe.js';
import { defaults, normalizeSpec } from '../api/spec.js';
import { checkView, parseSeriesList } from '../model/view-state.js';

const VIEW_ATTRS = ['kind', 'view', 'colormap', 'color-scale', 'head', 'transform', 'cols', 'rows', 'lang', 'theme', 'link', 'downloads'];
const MATRIX_ATTRS = ['matrix', 'src', 'name', 'heads', 'labels', 'caption'];
const GLOBAL_ATTRS = new Set(['id', 'class', 'style', 'title', 'hidden', 'dir', 'tabindex', 'slot', 'part', 'role', 'translate', 'inert', 'nonce', 'autofocus']);
/** What a matrix of the user's is shown as: the kind whose axes and views it takes. */
export const MATRIX_KINDS = {
  table: { kind: 'learned', title: { en: 'Table', ko: '표' } },
  attention: { kind: 'attention', title: { en: 'Attention weights', ko: '어텐션 가중치' } },
};

const fieldName = (attr) => attr.toLowerCase().replace(/-/g, '_');

const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A short JSON example of a field's value, for its error message: its default, or its example. */
function jsonExample(field) {
  const value = field.default ?? Object.values(field.examples ?? {})[0]
    ?? (field.type === 'spec' ? { kind: field.kinds?.[0] ?? 'rope' } : null);
  const text = JSON.stringify(value);
  return text && text.length <= 60 ? text : `${text.slice(0, 57)}…`;
}

/** Parses one attribute value by its field descriptor; throws Error with a message on a bad one. */
export function parseField(name, field, raw) {
  const text = raw.trim();
  if (field.nullable && text === 'null') return null;
  switch (field.type) {
    case 'int':
      if (!/^-?\d+$/.test(text)) throw new Error(`${name} must be a whole number, got "${raw}"`);
      return Number(text);
    case 'number': {
      // Decimal notation only: Number() would also read "0x10" as 16 and "" as 0.
      const n = DECIMAL.test(text) ? Number(text) : NaN;
      if (!Number.isFinite(n)) throw new Error(`${name} must be a number, got "${raw}"`);
      return n;
    }
    case 'bool':
      if (text === '' || text === 'true' || text === name) return true;
      if (text === 'false') return false;
      throw new Error(`${name} must be true or false, got "${raw}"`);
    case 'enum':
    case 'string':
      return raw;
    default:
      try {
        return JSON.parse(text);
      } catch {
        throw new Error(`${name} must be JSON (e.g. ${jsonExample(field)}), got "${raw.length > 60 ? `${raw.slice(0, 60)}…` : raw}"`);
      }
  }
}

/** The spec and display options of an element's attributes: { spec, opts } or throws Error. */
export function readAttributes(el) {
  const kind = el.getAttribute('kind');
  if (!kind) throw new Error('the kind attribute is required, e.g. kind="sinusoidal"');
  if (!Object.prototype.hasOwnProperty.call(SCHEMA, kind)) {
    throw new Error(`kind must be one of ${Object.keys(SCHEMA).join(', ')}, got "${kind.slice(0, 40)}"`);
  }
  const fields = SCHEMA[kind].fields;
  const spec = defaults(kind); // what an attribute leaves out: the explorer's start values
  for (const { name, value } of el.attributes) {
    const lower = name.toLowerCase();
    if (VIEW_ATTRS.includes(lower) || GLOBAL_ATTRS.has(lower) || lower.startsWith('aria-') || lower.startsWith('data-') || lower.startsWith('on')) continue;
    const key = fieldName(lower);
    if (!Object.prototype.hasOwnProperty.call(fields, key)) {
      throw new Error(`unknown attribute "${name}" for kind ${kind}; its fields are ${Object.keys(fields).join(', ')}`);
    }
    spec[key] = parseField(key, fields[key], value);
  }
  return { spec: normalizeSpec(spec), opts: readDisplay(el) };
}

/** The display attributes (view state) of an element, checked as the page checks its view state. */
function readDisplay(el) {
  const opts = {};
  const view = el.getAttribute('view') ?? 'both';
  if (!['heatmap', 'lines', 'both'].includes(view)) throw new Error(`view must be heatmap, lines or both, got "${view}"`);
  opts.view = view;
  // The display attributes are view state (web/model/view-state.js): the same fields and checks
  // as the page and its links.
  const attr = (name) => el.getAttribute(name);
  opts.colormap = checkView('colormap', attr('colormap') ?? 'viridis');
  // The view field `scale` as color-scale: `scale` is a spec field (the distance kind's).
  opts.scale = checkView('scale', attr('color-scale') ?? 'auto');
  const head = attr('head');
  opts.head = head === null ? 0 : checkView('head', /^\s*\d{1,7}\s*$/.test(head) ? Number(head) : head);
  opts.transform = checkView('transform', attr('transform'));
  for (const mode of ['cols', 'rows']) {
    const list = attr(mode);
    if (list === null) continue;
    if (opts.series) throw new Error('give cols or rows, not both');
    try {
      opts.series = { mode, list: parseSeriesList(list) };
    } catch {
      throw new Error(`${mode} must be numbers separated by commas, got "${list}"`);
    }
  }
  opts.lang = checkView('lang', attr('lang') ?? (document.documentElement.lang?.toLowerCase().startsWith('ko') ? 'ko' : 'en'));
  opts.theme = checkView('theme', attr('theme') ?? 'light');
  const link = el.getAttribute('link');
  opts.link = link !== 'none';
  // link="https://…/pe-lab/": the explorer to open (a component loaded from a package CDN has
  // no explorer beside it); otherwise the explorer next to this script's folder.
  opts.linkBase = link && /^https?:\/\//i.test(link.trim()) ? link.trim() : null;
  opts.downloads = el.hasAttribute('downloads') && el.getAttribute('downloads') !== 'false';
  return opts;
}

/**
 * The attributes of an element showing the user's own matrix (matrix="table" | "attention"):
 * { matrix: { type, kind, src, name, heads, labels, caption }, opts } or throws Error.
 */
export function readMatrixAttributes(el) {
  const type = el.getAttribute('matrix');
  if (!Object.prototype.hasOwnProperty.call(MATRIX_KINDS, type)) {
    throw new Error(`matrix must be table or attention, got "${String(type).slice(0, 40)}"`);
  }
  if (el.hasAttribute('kind')) throw new Error('give kind (a spec to compute) or matrix (your own data), not both');
  for (const { name } of el.attributes) {
    const lower = name.toLowerCase();
    if (VIEW_ATTRS.includes(lower) || MATRIX_ATTRS.includes(lower) || GLOBAL_ATTRS.has(lower) || lower.startsWith('aria-') || lower.startsWith('data-') || lower.startsWith('on')) continue;
    throw new Error(`unknown attribute "${name}" for matrix="${type}"; it takes ${MATRIX_ATTRS.join(', ')} and the display attributes`);
  }
  const matrix = { type, kind: MATRIX_KINDS[type].kind, src: el.getAttribute('src'), name: el.getAttribute('name'), heads: null, labels: null, caption: el.getAttribute('caption') };
  const heads = el.getAttribute('heads');
  if (heads !== null) {
    if (!/^\s*\d{1,6}\s*$/.test(heads) || Number(heads) < 1) throw new Error(`heads must be a whole number ≥ 1, got "${heads.slice(0, 40)}"`);
    matrix.heads = Number(heads);
  }
  const labels = el.getAttribute('labels');
  if (labels !== null) {
    let list;
    try {
      list = JSON.parse(labels);
    } catch {
      list = null;
    }
    if (!Array.isArray(list) || !list.every((x) => typeof x === 'string' || typeof x === 'number')) {
      throw new Error(`labels must be a JSON list of names, e.g. ["The", "cat"], got "${labels.length > 60 ? `${labels.slice(0, 60)}…` : labels}"`);
    }
    matrix.labels = list.map(String);
  }
  return { matrix, opts: readDisplay(el) };
}

/**
 * t with the rows' (and a square attention matrix's keys') names in the heatmap's read-out and the
 * curves' legend: "query 3 “cat” · key 1 “The” → 0.25".
 */
export function labelled(t, info, labels) {
  const colNames = info.class === 'pairwise' && info.cols === labels.length ? labels : null;
  const colAxis = t.tr(info.axes.col);
  const named = (names, text) => {
    const i = Number(String(text).replace(/[^\d]/g, ''));
    return names && Number.isInteger(i) && i < names.length ? `${text} “${names[i]}”` : text;
  };
  const w = (key, ...args) => {
    if (key === 'heatmap.readout') return t(key, { ...args[0], row: named(labels, args[0].row), col: named(colNames, args[0].col) });
    if (key === 'view.lines.series') return t(key, args[0], named(args[0] === colAxis ? colNames : labels, args[1]));
    return t(key, ...args);
  };
  return Object.assign(w, t);
}

// ---------------------------------------------------------------------------------------------
