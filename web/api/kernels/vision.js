// How the 2-D and 3-D sinusoidal kinds call their C kernels (c/vision.c), and `learned2d`: a table
// made by c/absolute.c (normal) or c/vision.c (sincos), its grid resized by c/vision_resize.c.
import { learned2dPrefix } from '../schema/vision.js';
import { PEError, describe, normalizeSpec } from '../spec.js';

export const LAYOUT_2D = { mae: 0, sum: 1, tatp22: 2 };

// learned2d's status names: PE_ERR_ARG(k) of pe_resize_bicubic (and _aa) names LEARNED2D_ARGS[k − 1]; the
// table makers' statuses are renumbered into the same list (FROM_LEARNED, FROM_SIN2D).
const LEARNED2D_ARGS = ['out', 'source', 'cls_token', 'height', 'width', 'resize_height', 'resize_width', 'dim', 'std', 'seed'];
const ARG = (k) => 100 + k;
const renumber = (status, map) => (status > 100 && map[status - 100] ? ARG(map[status - 100]) : status);
const FROM_LEARNED = { 1: 1, 2: 4, 3: 8, 4: 9, 5: 10 };   // pe_learned(out, length, dim, std, seed)
const FROM_SIN2D = { 1: 1, 2: 4, 3: 5, 4: 8 };            // pe_sinusoidal2d(out, height, width, dim, …)

/** The grid resize the spec asks for: pe_resize_bicubic_aa (timm) or pe_resize_bicubic (Hugging Face). */
const resizer = (w, s) => (s.resize_antialias ? w.pe_resize_bicubic_aa : w.pe_resize_bicubic);

/** Writes the unresized table [prefix + height·width, dim] at pointer `out`: the class row 0, then the grid. */
function makeTable(w, out, s) {
  const prefix = learned2dPrefix(s);
  if (s.init === 'normal') {
    // Row 0 (the class token's) is drawn like every other: ViT initialises cls_pos like the grid.
    return renumber(w.pe_learned(out, prefix + s.height * s.width, s.dim, s.std, s.seed), FROM_LEARNED);
  }
  // MAE's get_2d_sincos_pos_embed(..., cls_token=True): a zero row, then the 2-D table.
  const status = renumber(w.pe_sinusoidal2d(out + prefix * s.dim * 4, s.height, s.width, s.dim, 10000, LAYOUT_2D.mae), FROM_SIN2D);
  if (status === 0 && prefix) new Float32Array(w.memory.buffer, out, s.dim).fill(0);
  return status;
}

export default {
  sinusoidal2d: {
    args: ['out', 'height', 'width', 'dim', 'base', 'layout'],
    compute(k, s) {
      return k.run({ outputs: { data: s.height * s.width * s.dim } }, (p) =>
        k.wasm.pe_sinusoidal2d(p.data, s.height, s.width, s.dim, s.base, LAYOUT_2D[s.layout] ?? -1));
    },
  },
  sinusoidal3d: {
    args: ['out', 'depth', 'height', 'width', 'dim', 'base'],
    compute(k, s) {
      return k.run({ outputs: { data: s.depth * s.height * s.width * s.dim } }, (p) =>
        k.wasm.pe_sinusoidal3d(p.data, s.depth, s.height, s.width, s.dim, s.base));
    },
  },
  learned2d: {
    args: LEARNED2D_ARGS,
    // Without a resize: data = the table. With one: data = the resized table and `source` = the
    // table before (the grid's bicubic resize, antialiased or not, c/vision_resize.c; the class row
    // is copied).
    compute(k, s) {
      const prefix = learned2dPrefix(s);
      const rows = prefix + s.height * s.width;
      if (s.resize_height === null) {
        return k.run({ outputs: { data: rows * s.dim } }, (p) => makeTable(k.wasm, p.data, s));
      }
      const outRows = prefix + s.resize_height * s.resize_width;
      return k.run({ outputs: { data: outRows * s.dim, source: rows * s.dim } }, (p) => makeTable(k.wasm, p.source, s)
        || resizer(k.wasm, s)(p.data, p.source, prefix, s.height, s.width, s.resize_height, s.resize_width, s.dim));
    },
    // A caller's table (a loaded ViT pos_embed), [prefix + height·width, dim] as the spec says,
    // resized to the spec's resize_height × resize_width (antialiased when resize_antialias):
    // { data, shape, spec }. For an API method
    // beside pe.applyRope (web/api/pe.js: resizeTable(table, spec)); `table` is not modified.
    resizeArgs: LEARNED2D_ARGS,
    resize(k, table, spec) {
      // init and std do not apply to a given table (init 'normal' only skips sincos's dim check).
      const s = normalizeSpec({ ...spec, kind: 'learned2d', init: 'normal' });
      if (s.resize_height === null) {
        throw new PEError('resize_height', 'resize_height must be an integer in [1, 4096] (with resize_width) to resize a table, got null');
      }
      const prefix = learned2dPrefix(s);
      const rows = prefix + s.height * s.width;
      if (!(table instanceof Float32Array) || table.length !== rows * s.dim) {
        throw new PEError('table', `table must be a Float32Array of [${rows}, ${s.dim}] = ${rows * s.dim} values (cls_token ${s.cls_token}, a ${s.height} × ${s.width} grid, dim ${s.dim}), got ${table instanceof Float32Array ? `${table.length} values` : describe(table)}`);
      }
      const outRows = prefix + s.resize_height * s.resize_width;
      const r = k.run({ inputs: { table }, outputs: { data: outRows * s.dim } }, (p) =>
        resizer(k.wasm, s)(p.data, p.table, prefix, s.height, s.width, s.resize_height, s.resize_width, s.dim));
      return { data: r.data, shape: [outRows, s.dim], spec: s };
    },
  },
};

