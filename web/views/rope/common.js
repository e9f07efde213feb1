// Shared pieces of the rope views: their stylesheet, the training context and scaling factor a
// spec implies, specs with the same frequencies at another length, log axes. Drawing only while
// on screen, the line plot and the toolbar fields are every view's: ../common.js.
import { formatInt, formatValue } from '../../plot/format.js';
import { ensureStyles } from '../common.js';

/** Adds rope.css (beside this file) to the page once. */
export const ensureRopeStyles = () => ensureStyles(new URL('./rope.css', import.meta.url));

/** The training context used when the spec names none (GPT-J / GPT-NeoX era), until the user picks one. */
export const DEFAULT_CONTEXT = 2048;
/** The factor the scaling comparison uses when the spec has no rope_scaling. */
export const DEFAULT_FACTOR = 4;
export const METHODS = ['linear', 'dynamic', 'yarn', 'llama3', 'ntk'];

/**
 * The context the model was trained on: rope_scaling.original_max_position_embeddings, else
 * max_position_embeddings, else the user's choice (shared.ropeContext). { value, from } where from
 * names the spec field, or is null for the user's value.
 */
export function trainingContext(spec, shared = {}) {
  const orig = spec.rope_scaling?.original_max_position_embeddings;
  if (orig) return { value: orig, from: 'rope_scaling.original_max_position_embeddings' };
  if (spec.max_position_embeddings) return { value: spec.max_position_embeddings, from: 'max_position_embeddings' };
  const own = shared.ropeContext;
  return { value: Number.isInteger(own) && own >= 1 ? own : DEFAULT_CONTEXT, from: null };
}

/** The spec's rope_type, 'default' when it has no rope_scaling. */
export const ropeType = (spec) => spec.rope_scaling?.rope_type ?? 'default';
export const isAxialSpec = (spec) => spec.grid_height != null && spec.grid_width != null;

/**
 * The context a scaled model is meant to reach: for dynamic NTK the length its frequencies are
 * computed at; otherwise max_position_embeddings when it exceeds the training context, else
 * training context × factor.
 */
export function targetContext(spec, train) {
  const sc = spec.rope_scaling;
  if (!sc || sc.rope_type === 'default') return null;
  if (sc.rope_type === 'dynamic') return Math.max(spec.length, train);
  if (spec.max_position_embeddings > train) return spec.max_position_embeddings;
  return Math.round(train * (sc.factor ?? 1));
}

/**
 * A spec with the same frequencies as `spec` but `n` positions (n even, ≥ 2). Only dynamic NTK
 * depends on the length: base' = base·(f·s/m − (f − 1))^(d/(d−2)) with s = max(length, m). With
 * s' = n and m' = n/2 that is base·(f' + 1)^…, so f' = f·s/m − f gives the same base' (and when
 * s ≤ m nothing is scaled). So a few rows stand for a table of any length, cheaply.
 */
export function sameFreqAtLength(spec, n) {
  const sc = spec.rope_scaling;
  if (sc?.rope_type !== 'dynamic') return { ...spec, length: n };
  const m = spec.max_position_embeddings || sc.original_max_position_embeddings;
  const s = Math.max(spec.length, m);
  const r = (sc.factor * s) / m - (sc.factor - 1);
  if (!(r > 1)) return { ...spec, length: n, rope_scaling: null };
  return { ...spec, length: n, max_position_embeddings: n / 2, rope_scaling: { rope_type: 'dynamic', factor: r - 1 } };
}

/** The spec without its rope_scaling (the frequencies the model was trained with). */
export const unscaled = (spec) => ({ ...spec, rope_scaling: null });

/** A wavelength or context for labels: 6.283, 2,048, 131,072, 3.2e9. */
export function formatLength(v) {
  if (!Number.isFinite(v)) return formatValue(v);
  if (v < 1e4) return formatValue(v);
  if (v < 1e9) return formatInt(Math.round(v));
  return formatValue(v);
}

/**
 * Makes a plot's y axis logarithmic in look: the values given are log10 of the real ones; the
 * ticks sit on whole powers of ten and the tooltips show the real value. Updates the plot (once
 * per plot.batch()).
 */
export function logAxis(plot, lo, hi) {
  const min = Math.floor(lo);
  plot.setTooltip({ value: (v) => formatLength(10 ** v) });
  plot.setAxis('y', {
    min, max: Math.max(Math.ceil(hi), min + 1), step: 1,
    format: (v) => (Number.isInteger(v) ? formatLength(10 ** v) : ''),
  });
}

/** Deterministic N(0, 1) samples (mulberry32 + Box–Muller) for the fixed random q and k. */
export function gaussian(n, seed) {
  let a = seed >>> 0;
  const uniform = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = new Float32Array(n);
  for (let i = 0; i < n; i += 2) {
    const u = Math.max(uniform(), 1e-12);
    const v = uniform();
    const r = Math.sqrt(-2 * Math.log(u));
    out[i] = r * Math.cos(2 * Math.PI * v);
    if (i + 1 < n) out[i + 1] = r * Math.sin(2 * Math.PI * v);
  }
  return out;
}

/**
 * The handle of a rope view drawn as one line plot in `box`: keeps the state (setState), greys the
 * box while the result is stale, re-themes the plot, and asks `screen` (a drawer) to redraw when
 * one of `redrawOn` changed. plot() returns the LinePlot once plotReady has resolved.
 */
export function linePlotView({ box, screen, plot, plotReady, setState, redrawOn = ['result'] }) {
  return {
    update(next) {
      setState(next);
      box.classList.toggle('stale', !!next.stale);
      if (next.changed.has('theme')) plot()?.applyTheme();
      if (redrawOn.some((key) => next.changed.has(key))) screen.request();
    },
    destroy() {
      screen.destroy();
      plotReady.then(() => plot()?.destroy());
    },
  };
}
