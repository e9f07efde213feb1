// How pe.colorize calls the colour-map kernel (c/colormap.c). Not a kind: SCHEMA has no entry
// for it, so pe.compute never reaches it; web/api/kernels/index.js registers it as KERNELS.colorize.
//
//   pe.colorize(values, { map: 'viridis', vmin: -1, vmax: 1 })   → Uint8ClampedArray RGBA
//
// values: Float32Array (or any array of numbers). map: 'viridis' | 'cividis' | 'diverging'.
// vmin/vmax: the values that get the two ends of the map (default: the finite range of values;
// a constant input gets a range around it). special: optional colours of non-finite values,
// { nan, negInf, posInf } each [r, g, b, a]; by default −Infinity is transparent (draw a
// "masked" pattern behind it), NaN magenta, +Infinity white (black for diverging).
import { PEError } from '../spec.js';
import { COLORMAPS } from '../colormaps.js';

export { COLORMAPS };

/** Finite minimum and maximum of values ([NaN, NaN] when none is finite). */
export function finiteRange(values) {
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v - v !== 0) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return lo > hi ? [NaN, NaN] : [lo, hi];
}

export function specialBytes(special) {
  if (special == null) return null;
  if (typeof special !== 'object') throw new PEError('special', 'special must be { nan, negInf, posInf } with [r, g, b, a] colours');
  const bytes = new Uint8Array(12);
  const defaults = { nan: [255, 0, 255, 255], negInf: [0, 0, 0, 0], posInf: [255, 255, 255, 255] };
  ['nan', 'negInf', 'posInf'].forEach((key, i) => {
    const c = special[key] ?? defaults[key];
    if (!Array.isArray(c) || c.length !== 4 || !c.every((x) => Number.isInteger(x) && x >= 0 && x <= 255)) {
      throw new PEError('special', `special.${key} must be [r, g, b, a] with integers in [0, 255]`);
    }
    bytes.set(c, 4 * i);
  });
  return bytes;
}

/**
 * The colour range when vmin or vmax is left out: the values' finite range lo … hi ([0, 1] when
 * none is finite), symmetric around 0 for a diverging map, widened when flat; a given bound wins.
 */
export function autoColorRange(map, lo, hi, vmin, vmax) {
  if (Number.isNaN(lo)) [lo, hi] = [0, 1];
  if (COLORMAPS[map].diverging) {
    const m = Math.max(Math.abs(lo), Math.abs(hi)) || 1;
    [lo, hi] = [-m, m];
  } else if (lo === hi) {
    const pad = Math.abs(lo) * 0.5 || 0.5;
    [lo, hi] = [lo - pad, hi + pad];
  }
  return [vmin ?? lo, vmax ?? hi];
}

// The colours are scaled in float64 (c/heatmap.c pe_heatmap_colorize), so any finite range with
// room for the colour table is drawn: a table of values ≤ 1e-38 or subnormal, ±3e38, vmin −1e308.
const MIN_WIDTH = 1e-300; // vmax − vmin; C needs 256 / ((vmax − vmin) / 2) finite (about 3e-306)

/**
 * A PEError unless vmin and vmax are finite numbers with vmax − vmin ≥ MIN_WIDTH. from: the
 * option that chose them ('colorRange'), else the one that is wrong; auto: which end came from
 * the table's own range (the other was given).
 */
export function checkColorRange(vmin, vmax, from, auto) {
  const pre = from ? `${from} must return [vmin, vmax]: ` : '';
  for (const [name, v] of [['vmin', vmin], ['vmax', vmax]]) {
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new PEError(from ?? name, `${pre}${name} must be a finite number, got ${String(v)}`);
  }
  if (vmax - vmin >= MIN_WIDTH) return;
  if (auto === 'vmax') {
    throw new PEError('vmin', `vmin must be below vmax by at least ${MIN_WIDTH}; vmax, left out, is ${vmax} from the table's range, got vmin ${vmin}`);
  }
  if (auto === 'vmin') {
    throw new PEError('vmax', `vmax must be above vmin by at least ${MIN_WIDTH}; vmin, left out, is ${vmin} from the table's range, got vmax ${vmax}`);
  }
  throw new PEError(from ?? 'vmax', `${pre}vmax must be greater than vmin by at least ${MIN_WIDTH}, got vmin ${vmin}, vmax ${vmax}`);
}

export default {
  // The C arguments in order: PE_ERR_ARG(k) → args[k-1].
  args: ['out', 'values', 'count', 'map', 'vmin', 'vmax', 'special'],
  compute(k, values, options = {}) {
    if (!(values instanceof Float32Array)) {
      if (values == null || typeof values.length !== 'number') {
        throw new PEError('values', 'values must be a Float32Array or an array of numbers');
      }
      values = Float32Array.from(values);
    }
    const { map = 'viridis', special } = options ?? {};
    if (typeof map !== 'string' || !Object.hasOwn(COLORMAPS, map)) {
      throw new PEError('map', `map must be one of ${Object.keys(COLORMAPS).map((m) => `"${m}"`).join(', ')}, got ${String(map)}`);
    }
    let { vmin, vmax } = options ?? {};
    if (vmin === undefined || vmax === undefined) {
      [vmin, vmax] = autoColorRange(map, ...finiteRange(values), vmin, vmax);
    }
    // Any finite range at least MIN_WIDTH wide: colours in float64 where float32 cannot hold it
    // (tiny or subnormal values, ±3e38), else exactly pe_colorize's (c/heatmap.h).
    const given = { vmin: options?.vmin !== undefined, vmax: options?.vmax !== undefined };
    checkColorRange(vmin, vmax, null, given.vmin === given.vmax ? null : given.vmin ? 'vmax' : 'vmin');
    const bytes = specialBytes(special);
    const n = values.length;
    const io = { inputs: { values }, outputs: { rgba: { count: n, type: Uint32Array } } };
    if (bytes) io.inputs.special = bytes;
    const { rgba } = k.run(io, (p) =>
      k.wasm.pe_heatmap_colorize(p.rgba, p.values, n, COLORMAPS[map].id, vmin, vmax, p.special ?? 0));
    return new Uint8ClampedArray(rgba.buffer, rgba.byteOffset, rgba.byteLength);
  },
};
