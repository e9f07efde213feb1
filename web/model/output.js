// What a kind's output is, so generic views know how to show it: its class, its axes and the
// slice of a 3-D output that a 2-D view draws.
//
// Classes:
//   table     additive [positions, dim] tables (absolute and vision kinds): added to the token
//             embeddings, so the properties view applies
//   angles    rotary angles [positions, pairs] (rope)
//   pairwise  [query, key] biases or weights, possibly per head [heads, query, key] (alibi, t5,
//             shaw, distance biases, attention)
//   ids       position ids [axes, tokens] (mrope)
//   generic   anything else
//
// A kind may say more in its schema: `view: { class, axes: { row, col, head, value } }` with
// axis names as { en, ko }; otherwise the class comes from the kind's group and the shape.
import { both } from '../i18n/index.js';
import { TRANSFORMS } from './view-state.js';

const ADDITIVE_GROUPS = new Set(['absolute', 'vision']);
const PAIRWISE_GROUPS = new Set(['relative', 'attention']);

function classify(kind, schema, shape) {
  const declared = schema?.view?.class;
  if (declared) return declared;
  const group = schema?.group;
  if (kind === 'mrope') return 'ids';
  if (kind === 'rope' || group === 'rope') return shape.length === 2 ? 'angles' : 'generic';
  if (PAIRWISE_GROUPS.has(group)) return 'pairwise';
  if (ADDITIVE_GROUPS.has(group) && shape.length === 2) return 'table';
  if (shape.length === 3 && shape[1] === shape[2]) return 'pairwise';
  return 'generic';
}

/** Axis names per class, as { en, ko } texts from the language files. */
function axesFor(kind, cls) {
  const k = (key) => both(key);
  switch (cls) {
    case 'table':
      return kind.startsWith('sinusoidal') && kind !== 'sinusoidal'
        ? { row: k('axis.token'), col: k('axis.dimension'), value: k('axis.value') }
        : { row: k('axis.position'), col: k('axis.dimension'), value: k('axis.value') };
    case 'angles':
      return { row: k('axis.position'), col: k('axis.pair'), value: k('axis.angle') };
    case 'pairwise': {
      const value = kind === 'attention' ? k('axis.weight') : kind === 't5' ? k('axis.bucket')
        : kind === 'shaw' ? k('axis.index') : k('axis.bias');
      return { row: k('axis.query'), col: k('axis.key'), head: k('axis.head'), value };
    }
    case 'ids':
      return { row: k('axis.idAxis'), col: k('axis.token'), value: k('axis.positionId') };
    default:
      return { row: k('axis.row'), col: k('axis.column'), head: k('axis.slice'), value: k('axis.value') };
  }
}

/**
 * The description generic views work from, for a kind and the shape of one of its results:
 * { kind, group, class, shape, slices (1, or heads for 3-D), rows, cols, additive, axes }.
 */
export function outputInfo(kind, schema, shape) {
  const cls = classify(kind, schema, shape);
  const rank = shape.length;
  const rows = rank >= 2 ? shape[rank - 2] : 1;
  const cols = rank >= 1 ? shape[rank - 1] : 1;
  const slices = rank > 2 ? shape.slice(0, rank - 2).reduce((a, b) => a * b, 1) : 1;
  const axes = { ...axesFor(kind, cls), ...(schema?.view?.axes ?? {}) };
  return {
    kind,
    group: schema?.group ?? 'other',
    class: cls,
    shape: [...shape],
    rank,
    slices,
    rows,
    cols,
    additive: cls === 'table',
    axes,
  };
}

/** The row offset to label rows with (a kind's `offset` field shifts positions). */
export function rowOffset(info, spec) {
  return (info.class === 'table' || info.class === 'angles') && Number.isInteger(spec?.offset) ? spec.offset : 0;
}

/** Offset into data of slice `s` of a result, and the slice clamped to what exists. */
export function sliceOffset(info, s) {
  const slice = Math.min(Math.max(0, s | 0), info.slices - 1);
  return { slice, offset: slice * info.rows * info.cols };
}

// --- what the views draw: the values themselves, or (for rotary angles) a function of them

/** The display transforms a class offers, the first being the default (null: values as they are). */
const CLASS_TRANSFORMS = { angles: TRANSFORMS };

export function transformsFor(info) {
  return CLASS_TRANSFORMS[info.class] ?? null;
}

/** The transform in use for this output and shared state (null when none applies). */
export function transformOf(info, shared) {
  const list = transformsFor(info);
  if (!list) return null;
  return list.includes(shared?.transform) ? shared.transform : list[0];
}

const cache = new WeakMap(); // result → { transform: Float32Array }

/**
 * The values the views draw for a state: result.data, or for rotary angles the table of the
 * transform on screen (cos, sin, wrapped), computed by the kernel from its float64 angles
 * (pe.ropeView, c/rope_view.c; never a JS cos of the float32 angles, off by up to 0.03 at 2^20)
 * and cached per result. `pe` is the API (createPE); it is needed only for those transforms.
 */
export function displayData({ result, info, shared }, pe) {
  const tf = transformOf(info, shared);
  if (!tf || tf === 'angle') return result.data;
  let byTf = cache.get(result);
  if (!byTf) cache.set(result, (byTf = {}));
  if (byTf[tf]) return byTf[tf];
  if (typeof pe?.ropeView !== 'function') throw new Error(`displayData: the ${tf} of rotary angles comes from the kernels: pass pe`);
  byTf[tf] = pe.ropeView(result.spec, { transform: tf }).data;
  return byTf[tf];
}

/** The name of the drawn value ({ en, ko }): the axis' value name, or the transform's. */
export function valueName(info, shared) {
  const tf = transformOf(info, shared);
  return tf ? both(`transform.${tf}`) : info.axes.value;
}

/**
 * Names for the rows and columns of a result's table where its cells have them, for ticks and
 * readouts: M-RoPE's three position axes (t, h, w) and the words of an attention sentence.
 * { rowNames, colNames }, each an array with one name per row / column, or null.
 */
export function axisNames(info, result) {
  if (info.class === 'ids' && info.rows === 3) return { rowNames: ['t', 'h', 'w'], colNames: null };
  const words = result?.tokens;
  if (info.class === 'pairwise' && Array.isArray(words) && words.length === info.rows && words.length === info.cols) {
    return { rowNames: words, colNames: words };
  }
  return { rowNames: null, colNames: null };
}
