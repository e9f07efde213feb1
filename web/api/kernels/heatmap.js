// How pe.heatmap and pe.heatmapRange call the heatmap kernel (c/heatmap.c). Not a kind: SCHEMA has
// no entry for it; web/api/kernels/index.js registers it as KERNELS.heatmap (non-enumerable).
//
//   pe.heatmap(table, { rows, cols, offset, window: { x0, x1, y0, y1 }, width, height, map, scale, vmin, vmax, special })
//     → Uint8ClampedArray of width × height RGBA pixels (a copy), ready for ImageData
//     scale: 'linear' (default) | 'sqrt' (vmin ≥ 0) | 'log' (vmin > 0, the floor; left out: the
//     table's minimum if above 0, else vmax · 1e-6), applied to the resampled values
//     (web/api/color-scales.js, c/heatmap.h)
//   pe.heatmap(table, { ..., colorRange: (range) => [vmin, vmax] }): the colours chosen from the
//     table's range (heatmapRange's object), read in the same pass as the pixels where it can be
//   pe.heatmapRange(table, { offset, count }) → { lo, hi, negInf, posInf, nan, finite }
//
// The window (in cells, default the whole table) is resampled to the pixels in C: the cell under
// each pixel where cells are larger than pixels, a tent-weighted mean where they are smaller (the
// filter and why: c/heatmap.h), then coloured as pe.colorize colours, with the colour range in
// float64 (c/heatmap.h pe_heatmap_colorize): any finite vmin < vmax at least 1e-300 apart is drawn,
// so a finite table always has its own colours (values ≤ 1e-38, subnormal, ±3e38; vmin −1e308).
// The window is read in float32: its ends must differ there.
//
// Memory: the last table drawn stays in WebAssembly memory with the scratch and pixel buffers,
// so a redraw of the same array (zoom, pan, colour map, another head) copies nothing in, and
// every draw copies the pixels out once. A table is recognised by identity (the same
// Float32Array): pass a new array for new values, never change a drawn one in place.
// The range of a table is kept beside it: a colour range chosen from it (colorRange, or vmin/vmax
// left out) on the whole window of a minified table comes out of the resampling pass itself
// (c/heatmap.c pe_heatmap_values_scan: 64 MB of a 4096 × 4096 table are not read a second time),
// and heatmapRange of the same table and slice then costs nothing.
// pe.compute hands over the WebAssembly buffer its kernel wrote (adopt: the result's `data` is a
// copy of it), so drawing a result just computed copies nothing in either; the next pe.compute
// frees that buffer first (release), so computing keeps no more memory than one output.
import { PEError } from '../spec.js';
import { PE_MAX_ELEMENTS } from '../schema/index.js';
import { COLORMAPS } from '../colormaps.js';
import { autoColorRange, checkColorRange, specialBytes } from './colormap.js';
import { COLOR_SCALES, LOG_FLOOR } from '../color-scales.js';

export const MAX_SIDE = 8192; // pixels per side (c/heatmap.c HEATMAP_MAX_SIDE; tests/house/constants.test.js)
const caches = new WeakMap(); // per module: its buffers in WebAssembly memory

function cacheOf(wasm) {
  let c = caches.get(wasm);
  if (!c) {
    // table: the array whose copy sits at tablePtr (in the buffer 'tbuf'); the others: buffers.
    c = {
      table: null, tablePtr: 0, tableOffset: 0, tableCount: 0, tbuf: 0, tbufCap: 0, scratch: 0, scratchCap: 0, out: 0, outCap: 0,
      vals: 0, valsCap: 0, misc: 0, miscCap: 0, scanned: null,
    };
    caches.set(wasm, c);
  }
  return c;
}

/** A buffer of at least `bytes` at c[name] (pointer) and c[name + 'Cap'] (its size), 16-byte aligned. */
function ensure(wasm, c, name, bytes) {
  if (c[`${name}Cap`] >= bytes) return c[name];
  if (c[`${name}Raw`]) wasm.free(c[`${name}Raw`]);
  c[`${name}Raw`] = 0;
  c[`${name}Cap`] = 0;
  c[name] = 0;
  const raw = wasm.malloc(bytes + 16);
  if (raw === 0) throw new PEError(name === 'tbuf' ? 'table' : 'width', `not enough memory for ${(bytes / 2 ** 20).toFixed(1)} MiB (${name})`);
  c[`${name}Raw`] = raw;
  c[name] = raw + ((16 - (raw % 16)) % 16);
  c[`${name}Cap`] = bytes;
  if (name === 'tbuf') Object.assign(c, { table: null, adopted: false, scanned: null });
  return c[name];
}

const isInt = (x, lo, hi) => Number.isInteger(x) && x >= lo && x <= hi;

/** table as a Float32Array (a copy of an array of numbers), or a PEError naming `name`. */
function asFloat32(table, name) {
  if (table instanceof Float32Array) return table;
  if (table == null || !isInt(table.length, 0, 2 ** 32 - 1)) throw new PEError(name, `${name} must be a Float32Array or an array of numbers`);
  return Float32Array.from(table);
}

function checkTable(table, options) {
  table = asFloat32(table, 'table');
  const { rows, cols, offset = 0 } = options;
  if (!isInt(rows, 1, PE_MAX_ELEMENTS)) throw new PEError('rows', `rows must be an integer ≥ 1, got ${String(rows)}`);
  if (!isInt(cols, 1, PE_MAX_ELEMENTS) || rows * cols > PE_MAX_ELEMENTS) {
    throw new PEError('cols', `cols must be an integer ≥ 1 with rows × cols ≤ ${PE_MAX_ELEMENTS}, got ${String(cols)}`);
  }
  if (!isInt(offset, 0, table.length) || offset + rows * cols > table.length) {
    throw new PEError('offset', `offset + rows × cols must fit in the table's ${table.length} values, got offset ${String(offset)}`);
  }
  return { table, rows, cols, offset };
}

/**
 * The WebAssembly address of table[offset]: the whole array is copied in once (so every slice of
 * a 3-D output, and its range, reuse one copy) unless the same array is there already.
 */
function loadTable(wasm, c, table, offset, count) {
  if (c.table === table && offset >= c.tableOffset && offset + count <= c.tableOffset + c.tableCount) {
    return c.tablePtr + 4 * (offset - c.tableOffset);
  }
  const whole = table.length <= PE_MAX_ELEMENTS;
  const [from, n] = whole ? [0, table.length] : [offset, count];
  const ptr = ensure(wasm, c, 'tbuf', Math.max(1, n) * 4);
  new Float32Array(wasm.memory.buffer, ptr, n).set(whole ? table : table.subarray(from, from + n));
  Object.assign(c, { table, tableOffset: from, tableCount: n, tablePtr: ptr });
  return ptr + 4 * (offset - from);
}

/** The range object of the float pair and flags the kernel wrote at misc, misc + 8. */
function readRange(wasm, misc) {
  const f = new Float32Array(wasm.memory.buffer, misc, 2);
  const flags = new Int32Array(wasm.memory.buffer, misc + 8, 1)[0];
  const none = !(f[0] <= f[1]);
  return {
    lo: none ? NaN : f[0], hi: none ? NaN : f[1],
    negInf: !!(flags & 1), posInf: !!(flags & 2), nan: !!(flags & 4), finite: flags === 0,
  };
}

/** The range of `table`'s count values from offset when it is known already (a copy), else null. */
function knownRange(c, table, offset, count) {
  const k = c.scanned;
  return k && k.table === table && k.offset === offset && k.count === count ? { ...k.range } : null;
}

/** Scans count values at ptr (table's, from offset) in C and remembers their range. */
function scanIn(wasm, c, ptr, count, table, offset) {
  const misc = ensure(wasm, c, 'misc', 64);
  const status = wasm.pe_heatmap_scan(misc, misc + 8, ptr, count);
  if (status !== 0) throw new PEError('table', `heatmap scan failed (kernel status ${status})`);
  const range = readRange(wasm, misc);
  c.scanned = { table, offset, count, range };
  return { ...range };
}

// colorRange runs while the pixels' values wait in the module's buffers: drawing from it would
// overwrite them (or free the table about to be drawn). Refused always, whatever is known yet.
function notBusy(c) {
  if (c.busy) throw new PEError('colorRange', 'colorRange must not call pe.heatmap or pe.heatmapRange');
}

/** The caller's colorRange (or the automatic range) of `range`, with drawing refused meanwhile. */
function pickedRange(c, pick, range, user) {
  let picked;
  c.busy = true;
  try {
    picked = pick({ ...range });
  } catch (err) {
    if (!user || (err instanceof PEError && err.param === 'colorRange')) throw err;
    const e = new PEError('colorRange', `colorRange threw: ${err?.message ?? String(err)}`);
    e.cause = err;
    throw e;
  } finally {
    c.busy = false;
  }
  if (!Array.isArray(picked) || picked.length !== 2) {
    throw new PEError('colorRange', `colorRange must return [vmin, vmax], got ${Array.isArray(picked) ? `${picked.length} values` : String(picked)}`);
  }
  return picked;
}


/**
 * Takes ownership of the `bytes` of WebAssembly memory at `ptr` (from malloc), which hold exactly
 * the values of `table` (a Float32Array copied out of them): the table is then resident, and the
 * buffer is freed by release() or replaced by a later table.
 */
function adopt(wasm, table, ptr, bytes) {
  const c = cacheOf(wasm);
  if (c.tbufRaw) wasm.free(c.tbufRaw);
  Object.assign(c, { tbufRaw: ptr, tbuf: ptr, tbufCap: bytes, table, tablePtr: ptr, tableOffset: 0, tableCount: table.length, adopted: true, scanned: null });
}

/** Frees an adopted table's buffer (a table copied in keeps its buffer, reused for the next). */
function release(wasm) {
  const c = caches.get(wasm);
  if (!c?.adopted) return;
  wasm.free(c.tbufRaw);
  Object.assign(c, { tbufRaw: 0, tbuf: 0, tbufCap: 0, table: null, tablePtr: 0, tableOffset: 0, tableCount: 0, adopted: false, scanned: null });
}

/** The automatic range [vmin, vmax] on a scale: sqrt starts at 0 or above, log at its floor. */
function scaledAuto(scale, [lo, hi], given) {
  if (given !== undefined || scale === 'linear') return [lo, hi];
  if (scale === 'sqrt') return [Math.max(0, lo), hi];
  return [lo > 0 ? lo : hi * LOG_FLOOR, hi];
}

/** checkColorRange, and the scale's own rule: vmin ≥ 0 for sqrt, > 0 for log. */
function checkScaleRange(scale, vmin, vmax, from, auto) {
  checkColorRange(vmin, vmax, from, auto);
  if ((scale === 'sqrt' && !(vmin >= 0)) || (scale === 'log' && !(vmin > 0))) {
    const pre = from ? `${from} must return [vmin, vmax]: ` : '';
    throw new PEError(from ?? 'vmin', `${pre}vmin must be ${scale === 'log' ? 'above 0 (the floor of the log scale)' : '0 or above for the sqrt scale'}, got ${vmin}`);
  }
}

export default {
  adopt,
  release,

  // The C arguments of pe_heatmap in order: PE_ERR_ARG(k) → args[k-1].
  args: ['out', 'scratch', 'table', 'rows', 'cols', 'width', 'height', 'window', 'map', 'vmin', 'vmax', 'special', 'scale'],

  /** pe.heatmapRange: finite range and non-finite kinds of rows × cols values (or `count`) from offset. */
  range(k, values, options = {}) {
    values = asFloat32(values, 'table');
    const { offset = 0 } = options ?? {};
    const count = options?.count ?? values.length - offset;
    if (!isInt(offset, 0, values.length)) throw new PEError('offset', `offset must be an integer in [0, ${values.length}], got ${String(offset)}`);
    if (!isInt(count, 0, Math.min(PE_MAX_ELEMENTS, values.length - offset))) {
      throw new PEError('count', `count must be an integer in [0, ${Math.min(PE_MAX_ELEMENTS, values.length - offset)}], got ${String(count)}`);
    }
    const w = k.wasm;
    const c = cacheOf(w);
    notBusy(c);
    if (count === 0) return { lo: NaN, hi: NaN, negInf: false, posInf: false, nan: false, finite: true };
    return knownRange(c, values, offset, count) ?? scanIn(w, c, loadTable(w, c, values, offset, count), count, values, offset);
  },

  compute(k, values, options = {}) {
    options ??= {};
    const { table, rows, cols, offset } = checkTable(values, options);
    const { width, height, map = 'viridis', special, scale = 'linear' } = options;
    if (typeof scale !== 'string' || !Object.hasOwn(COLOR_SCALES, scale)) {
      throw new PEError('scale', `scale must be one of ${Object.keys(COLOR_SCALES).map((m) => `"${m}"`).join(', ')}, got ${String(scale)}`);
    }
    if (!isInt(width, 1, MAX_SIDE)) throw new PEError('width', `width must be an integer in [1, ${MAX_SIDE}], got ${String(width)}`);
    if (!isInt(height, 1, MAX_SIDE)) throw new PEError('height', `height must be an integer in [1, ${MAX_SIDE}], got ${String(height)}`);
    const win = options.window ?? { x0: 0, x1: cols, y0: 0, y1: rows };
    const { x0, x1, y0, y1 } = win;
    // The kernel reads the window in float32: its ends must differ there (1 and 1 + 1e-9 do not).
    const f = Math.fround;
    const inAxis = (a, b, len) => [a, b].every((v) => typeof v === 'number' && Number.isFinite(v)) && a >= 0 && f(a) < f(b) && b <= len;
    if (!inAxis(x0, x1, cols) || !inAxis(y0, y1, rows)) {
      throw new PEError('window', `window must be { x0, x1, y0, y1 } with 0 ≤ x0 < x1 ≤ ${cols} and 0 ≤ y0 < y1 ≤ ${rows}, each pair of ends distinct in float32 (about 1e-7 × the end apart)`);
    }
    if (typeof map !== 'string' || !Object.hasOwn(COLORMAPS, map)) {
      throw new PEError('map', `map must be one of ${Object.keys(COLORMAPS).map((m) => `"${m}"`).join(', ')}, got ${String(map)}`);
    }
    const { colorRange } = options;
    if (colorRange !== undefined && typeof colorRange !== 'function') {
      throw new PEError('colorRange', `colorRange must be a function (range) => [vmin, vmax], got ${typeof colorRange}`);
    }
    if (colorRange && (options.vmin !== undefined || options.vmax !== undefined)) {
      throw new PEError('colorRange', 'give colorRange or vmin/vmax, not both');
    }
    let { vmin, vmax } = options;
    const bytes = specialBytes(special);
    const w = k.wasm;
    const c = cacheOf(w);
    notBusy(c);
    const count = rows * cols;
    // The colours chosen from the table's range: known already, or read in the resampling pass.
    const auto = vmin === undefined ? 'vmin' : vmax === undefined ? 'vmax' : null;
    const pick = colorRange ?? (auto ? ({ lo, hi }) => scaledAuto(scale, autoColorRange(map, lo, hi, vmin, vmax), vmin) : null);
    const from = colorRange ? 'colorRange' : null;
    const autoEnd = colorRange || (vmin === undefined && vmax === undefined) ? null : auto;
    const known = pick ? knownRange(c, table, offset, count) : null;
    if (known) [vmin, vmax] = pickedRange(c, pick, known, !!colorRange); // before anything is loaded
    if (!pick || known) checkScaleRange(scale, vmin, vmax, from, autoEnd);
    const tablePtr = loadTable(w, c, table, offset, count);
    const scratch = ensure(w, c, 'scratch', w.pe_heatmap_scratch_bytes(cols, width));
    const pixels = width * height * 4;
    const out = ensure(w, c, 'out', pixels);
    const misc = ensure(w, c, 'misc', 64);
    new Float32Array(w.memory.buffer, misc + 16, 4).set([x0, x1, y0, y1]);
    const specialAt = () => {
      if (!bytes) return 0;
      new Uint8Array(w.memory.buffer, misc + 32, 12).set(bytes);
      return misc + 32;
    };
    const fail = (status, args) => {
      const index = status - 100;
      const param = index >= 1 && index <= args.length ? args[index - 1] : 'table';
      throw new PEError(param, `${param}: rejected by the heatmap kernel (status ${status})`);
    };
    if (pick && !known) {
      // Values and range in one pass, then the colours from the range.
      const vals = ensure(w, c, 'vals', width * height * 4);
      const status = w.pe_heatmap_values_scan(vals, scratch, tablePtr, rows, cols, width, height, misc + 16, misc, misc + 8);
      if (status !== 0) fail(status, this.args);
      const range = readRange(w, misc);
      c.scanned = { table, offset, count, range };
      // The caller's function runs between the two kernel calls: it may not draw (the values wait
      // in vals), and nothing it may do (pe.compute) touches vals, out or misc.
      [vmin, vmax] = pickedRange(c, pick, range, !!colorRange);
      checkScaleRange(scale, vmin, vmax, from, autoEnd);
      const st = w.pe_heatmap_colorize(out, vals, width * height, COLORMAPS[map].id, vmin, vmax, specialAt(), COLOR_SCALES[scale].id);
      if (st !== 0) fail(st, ['out', 'values', 'count', 'map', 'vmin', 'vmax', 'special', 'scale']);
    } else {
      const status = w.pe_heatmap(out, scratch, tablePtr, rows, cols, width, height, misc + 16, COLORMAPS[map].id,
        vmin, vmax, specialAt(), COLOR_SCALES[scale].id);
      if (status !== 0) fail(status, this.args);
    }
    // The one copy out of WebAssembly memory.
    return new Uint8ClampedArray(w.memory.buffer, out, pixels).slice();
  },
};
