// How the `rope` kind calls its C kernels (c/rope.c): the angle table for compute(), the cos/sin
// tables for pe.ropeTables(), the rotation of vectors for pe.applyRope(), and one table of cos, sin
// or wrapped angles for pe.ropeView() (c/rope_view.c), the values a view draws.
import { PEError, normalizeSpec } from '../spec.js';
import { PE_MAX_ELEMENTS } from '../schema/limits.js';
import { rotaryDim, isAxial, yarnFactor } from '../schema/rope.js';

export const LAYOUT = { half: 0, interleaved: 1 };
// pe_rope_view's transforms (c/rope_view.h).
export const VIEW = { cos: 0, sin: 1, wrapped: 2 };
export const ROPE_TYPE = { default: 0, linear: 1, dynamic: 2, yarn: 3, llama3: 4, ntk: 5, longrope: 6 };

// The spec arguments shared by pe_rope, pe_rope_apply and pe_rope_precision, in C order (pe_rope_config in
// c/rope.h), named by the spec field each comes from. pe_rope and pe_rope_apply take LongRoPE's two
// lists after them (pe_rope_lists), as do pe_rope_precision_lists and pe_rope_precision_sweep_lists.
export const SPEC_ARGS = [
  'length', 'dim', 'base', 'partial_rotary_factor', 'max_position_embeddings',
  'rope_scaling.rope_type', 'rope_scaling.factor', 'rope_scaling.original_max_position_embeddings',
  'rope_scaling.beta_fast', 'rope_scaling.beta_slow', 'rope_scaling.truncate', 'rope_scaling.mscale',
  'rope_scaling.mscale_all_dim', 'rope_scaling.attention_factor', 'rope_scaling.low_freq_factor',
  'rope_scaling.high_freq_factor', 'rope_scaling.short_factor', 'rope_scaling.long_factor',
];

// Unset optional values cross as NaN (numbers) or 0 (integers); C checks only what a type reads.
const num = (v) => (v === null || v === undefined ? NaN : v);
const int = (v) => (v === null || v === undefined ? 0 : v);
const flag = (v) => (v === undefined || v === true ? 1 : v === false ? 0 : -1);   // -1: C rejects it

export function specValues(s) {
  const r = s.rope_scaling ?? { rope_type: 'default' };
  return [
    s.length, s.dim, s.base, s.partial_rotary_factor, int(s.max_position_embeddings),
    // YaRN's factor under its convention (the kernel takes the factor it should use).
    Object.hasOwn(ROPE_TYPE, r.rope_type) ? ROPE_TYPE[r.rope_type] : -1,
    num(r.rope_type === 'yarn' ? yarnFactor(s) : r.factor), int(r.original_max_position_embeddings),
    num(r.beta_fast ?? 32), num(r.beta_slow ?? 1), flag(r.truncate), num(r.mscale),
    num(r.mscale_all_dim), num(r.attention_factor), num(r.low_freq_factor), num(r.high_freq_factor),
  ];
}

/**
 * LongRoPE's lists as float64 inputs for k.run ({} for every other type: the kernels then get
 * null pointers, which they read only for longrope).
 */
export function listInputs(s) {
  const r = s.rope_scaling;
  if (r?.rope_type !== 'longrope') return {};
  // C reads rotary_dim/2 entries: a list of another length (a spec that skipped validation)
  // crosses as a null pointer, which C refuses naming the list.
  const pairs = Math.trunc((s.dim | 0) * s.partial_rotary_factor) >> 1;
  const inputs = {};
  for (const key of ['short_factor', 'long_factor']) {
    if (Array.isArray(r[key]) && r[key].length === pairs) inputs[key] = Float64Array.from(r[key], Number);
  }
  return inputs;
}
export const listPointers = (p) => [p.short_factor ?? 0, p.long_factor ?? 0];

// Output sizes of a spec; for specs that skipped validation (the C-guard tests) anything out of
// range becomes 1 value, since C refuses the spec before writing.
function sizes(s) {
  const pairs = Math.trunc((s.dim | 0) * s.partial_rotary_factor) >> 1;
  const ok = (v) => Number.isInteger(v) && v >= 1 && v <= PE_MAX_ELEMENTS;
  return { pairs: ok(pairs) ? pairs : 1, table: ok((s.length | 0) * pairs) ? (s.length | 0) * pairs : 1 };
}

function refuseTooLarge(s) {
  const pairs = Math.trunc((s.dim | 0) * s.partial_rotary_factor) >> 1;
  if ((s.length | 0) * pairs > PE_MAX_ELEMENTS) {
    throw new PEError('length', `the output [${s.length}, ${pairs}] has more than ${PE_MAX_ELEMENTS} values (PE_MAX_ELEMENTS)`);
  }
}

const freqOutputs = (pairs) => ({
  inv_freq: { count: pairs, type: Float64Array },
  attention_factor: { count: 1, type: Float64Array },
});

// inv_freq is reported as float32 (the contract); the kernels use the float64 values.
const extras = (r) => ({ inv_freq: Float32Array.from(r.inv_freq), attention_factor: r.attention_factor[0] });

/** A rope spec for applyRope/ropeTables: kind may be left out. */
function ropeSpec(spec) {
  if (spec !== null && typeof spec === 'object' && !Array.isArray(spec) && spec.kind === undefined) {
    return normalizeSpec({ kind: 'rope', ...spec });
  }
  const s = normalizeSpec(spec);
  if (s.kind !== 'rope') throw new PEError('kind', `this needs a spec of kind "rope", got kind "${s.kind}"`);
  return s;
}

function describeArray(x) {
  if (ArrayBuffer.isView(x)) return `a ${x.constructor.name} of ${x.length} values`;
  if (Array.isArray(x)) return 'a plain array (convert it with new Float32Array(array))';
  if (x === null || x === undefined) return String(x);
  return `a value of type ${typeof x}`;
}

// pe_rope_apply's status when a pair of finite x rotates beyond float32 (PE_ERR_ARG(2), x; c/rope.h).
const X_OVERFLOW = 102;
const FLT_MAX = 3.4028234663852886e38;

/**
 * The PEError for a rotation beyond float32: where (the first pair of finite x whose rotation,
 * by the float32 cos·af and sin·af the kernel uses, is beyond ±FLT_MAX), and what to change.
 * cosSin(p, i) gives the kernel's [af·cos, af·sin] of position p, pair i. The attention factor
 * is blamed when the spec sets it and x alone would have fitted there.
 */
function overflowError(x, s, heads, af, cosSin) {
  const g = (v) => Number(v.toPrecision(7));   // float32 has about 7 digits
  const n = rotaryDim(s) / 2;
  const [step, partner] = s.layout === 'interleaved' ? [2, 1] : [1, n];
  let largest = 0;
  for (const v of x) if (Math.abs(v) > largest && Number.isFinite(v)) largest = Math.abs(v);
  let at = null;
  search: for (let h = 0; h < heads; h++) {
    for (let p = 0; p < s.length; p++) {
      const row = (h * s.length + p) * s.dim;
      for (let i = 0; i < n; i++) {
        const xa = x[row + i * step];
        const xb = x[row + i * step + partner];
        // Only pairs with af·(|x_a| + |x_b|) near FLT_MAX can overflow.
        if (!(af * (Math.abs(xa) + Math.abs(xb)) > FLT_MAX * (1 - 1e-6))) continue;
        const [c, sn] = cosSin(p, i);
        const a = xa * c - xb * sn;
        const b = xb * c + xa * sn;
        at ??= { h, p, i, xa, xb, a, b };
        if (!Number.isFinite(Math.fround(a)) || !Number.isFinite(Math.fround(b))) {
          at = { h, p, i, xa, xb, a, b };
          break search;
        }
      }
    }
  }
  const where = at ? ` at head ${at.h}, position ${at.p}, pair ${at.i} (x_a = ${g(at.xa)}, x_b = ${g(at.xb)})` : '';
  const given = s.rope_scaling?.attention_factor;
  const fitsWithout = at && Number.isFinite(Math.fround(at.a / af)) && Number.isFinite(Math.fround(at.b / af));
  if (given != null && af > 1 && fitsWithout) {
    const most = FLT_MAX / (2 * largest);
    return new PEError('rope_scaling.attention_factor',
      `rope_scaling.attention_factor ${given} scales the rotated x beyond float32's range (±${g(FLT_MAX)})${where}: the result would overflow float32. ` +
      `For this x (largest |x| ${g(largest)}) rope_scaling.attention_factor must be in (0, ${g(most)}] to be sure to fit; or scale x down.`);
  }
  const limit = FLT_MAX / (2 * af);
  return new PEError('x',
    `x: rotating x gives a value beyond float32's range (±${g(FLT_MAX)})${where}${af !== 1 ? ` with the attention factor ${g(af)}` : ''}: the result would overflow float32. ` +
    `x with every |x| ≤ ${g(limit)} always fits${af !== 1 ? ' with this attention factor' : ''}; scale x down.`);
}

// Axial 2-D RoPE: the angle table or the cos/sin tables of a grid spec (c/vision.c).
function axialTables(k, s, { angles = false, tables = false }) {
  const pairs = rotaryDim(s) / 2;
  const count = s.length * pairs;
  const outputs = { inv_freq: { count: pairs, type: Float64Array } };
  if (angles) outputs.data = count;
  if (tables) Object.assign(outputs, { cos: count, sin: count });
  const r = k.run({ outputs }, (p) => k.wasm.pe_rope_axial(p.data ?? 0, p.cos ?? 0, p.sin ?? 0, p.inv_freq,
    s.grid_height, s.grid_width, rotaryDim(s), s.base));
  const result = { ...r, inv_freq: Float32Array.from(r.inv_freq) };
  if (angles) result.attention_factor = 1;
  return result;
}

export default {
  rope: {
    // The C arguments of pe_rope in order: PE_ERR_ARG(k) → args[k-1].
    args: ['out', 'cos', 'sin', 'inv_freq', 'attention_factor', ...SPEC_ARGS],
    // The C arguments of pe_rope_apply.
    applyArgs: ['out', 'x', 'inv_freq', 'attention_factor', 'heads', 'layout', ...SPEC_ARGS],

    /** The angle table (length, rotary_dim/2), with inv_freq and attention_factor. */
    compute(k, s) {
      if (isAxial(s)) return axialTables(k, s, { angles: true });
      refuseTooLarge(s);
      const { pairs, table } = sizes(s);
      const r = k.run({ inputs: listInputs(s), outputs: { data: table, ...freqOutputs(pairs) } }, (p) =>
        k.wasm.pe_rope(p.data, 0, 0, p.inv_freq, p.attention_factor, ...specValues(s), ...listPointers(p)));
      return { data: r.data, ...extras(r) };
    },

    /** cos and sin of the angle table (without the attention factor). */
    tables(k, spec) {
      const s = ropeSpec(spec);
      if (isAxial(s)) {
        const r = axialTables(k, s, { tables: true });
        return { cos: r.cos, sin: r.sin, shape: [s.length, rotaryDim(s) / 2], spec: s, inv_freq: r.inv_freq, attention_factor: 1 };
      }
      const { pairs, table } = sizes(s);
      const r = k.run({ inputs: listInputs(s), outputs: { cos: table, sin: table, ...freqOutputs(pairs) } }, (p) =>
        k.wasm.pe_rope(0, p.cos, p.sin, p.inv_freq, p.attention_factor, ...specValues(s), ...listPointers(p)));
      return { cos: r.cos, sin: r.sin, shape: [s.length, pairs], spec: s, ...extras(r) };
    },

    // The C arguments of pe_rope_view in order.
    viewArgs: ['out', 'transform', 'inv_freq', 'attention_factor', ...SPEC_ARGS],

    /**
     * One table of the spec's angles transformed (VIEW): cos, sin (ropeTables' values, bit for bit)
     * or the angle wrapped into [0, 2π], all from the kernel's float64 angles. The output is `data`
     * (the context keeps it resident for pe.heatmap, as pe.compute's).
     */
    view(k, spec, transform) {
      const s = ropeSpec(spec);
      if (!Object.hasOwn(VIEW, transform)) {
        throw new PEError('transform', `transform must be one of ${Object.keys(VIEW).join(', ')}, got ${String(transform)}`);
      }
      if (isAxial(s)) {
        const pairs = rotaryDim(s) / 2;
        if (transform === 'wrapped') {
          const r = k.run({ outputs: { data: s.length * pairs } }, (p) =>
            k.wasm.pe_rope_axial_wrapped(p.data, s.grid_height, s.grid_width, rotaryDim(s), s.base));
          return { data: r.data, shape: [s.length, pairs], spec: s, transform };
        }
        const r = axialTables(k, s, { tables: true });
        return { data: r[transform], shape: [s.length, pairs], spec: s, transform };
      }
      refuseTooLarge(s);
      const { pairs, table } = sizes(s);
      const r = k.run({ inputs: listInputs(s), outputs: { data: table, ...freqOutputs(pairs) } }, (p) =>
        k.wasm.pe_rope_view(p.data, VIEW[transform], p.inv_freq, p.attention_factor, ...specValues(s), ...listPointers(p)));
      return { data: r.data, shape: [s.length, pairs], spec: s, transform };
    },

    /**
     * Rotates x (Float32Array, row-major [length, dim] or [heads, length, dim]). options.heads
     * states the head count; without it, heads = x.length / (length·dim) and the result has
     * shape [length, dim] when that is 1.
     */
    apply(k, x, spec, options = {}) {
      const s = ropeSpec(spec);
      if (options === null || typeof options !== 'object' || Array.isArray(options)) {
        throw new PEError('options', `options must be an object like { heads: 32 }, got ${describeArray(options)}`);
      }
      for (const key of Object.keys(options)) {
        if (key !== 'heads') throw new PEError(key, `unknown option "${key}" for applyRope; its options are: heads`);
      }
      const row = s.length * s.dim;
      const shapeText = `[length, dim] = [${s.length}, ${s.dim}] or [heads, ${s.length}, ${s.dim}]`;
      if (!(x instanceof Float32Array)) {
        throw new PEError('x', `x must be a Float32Array of shape ${shapeText} (row-major), got ${describeArray(x)}`);
      }
      let heads;
      if (options.heads !== undefined) {
        heads = options.heads;
        const maxHeads = Math.max(1, Math.floor(PE_MAX_ELEMENTS / row));
        if (!Number.isInteger(heads) || heads < 1 || heads > maxHeads) {
          throw new PEError('heads', `heads must be an integer in [1, ${maxHeads}], got ${typeof heads === 'number' ? heads : describeArray(heads)}`);
        }
        if (x.length !== heads * row) {
          throw new PEError('x', `x has ${x.length} values, but heads · length · dim = ${heads} · ${s.length} · ${s.dim} = ${heads * row}`);
        }
      } else {
        if (x.length === 0 || x.length % row !== 0) {
          throw new PEError('x', `x has ${x.length} values, not a positive multiple of length · dim = ${s.length} · ${s.dim} = ${row} (shape ${shapeText})`);
        }
        heads = x.length / row;
      }
      if (x.length > PE_MAX_ELEMENTS) {
        throw new PEError('x', `x has ${x.length} values, more than the limit of ${PE_MAX_ELEMENTS} (PE_MAX_ELEMENTS)`);
      }
      const n = rotaryDim(s) / 2;
      if (isAxial(s)) {
        const t = axialTables(k, s, { tables: true });
        const rotated = k.run({ inputs: { x, cos: t.cos, sin: t.sin }, outputs: { data: x.length } }, (p) => {
          const status = k.wasm.pe_rope_apply_tables(p.data, p.x, p.cos, p.sin, heads, s.length, s.dim, rotaryDim(s),
            Object.hasOwn(LAYOUT, s.layout) ? LAYOUT[s.layout] : -1);
          if (status === X_OVERFLOW) throw overflowError(x, s, heads, 1, (q, i) => [t.cos[q * n + i], t.sin[q * n + i]]);
          return status;
        });
        const shape = options.heads === undefined && heads === 1 ? [s.length, s.dim] : [heads, s.length, s.dim];
        return { data: rotated.data, shape, spec: s, inv_freq: t.inv_freq, attention_factor: 1 };
      }
      const r = k.run({ inputs: { x, ...listInputs(s) }, outputs: { data: x.length, ...freqOutputs(n) } }, (p) => {
        const status = k.wasm.pe_rope_apply(p.data, p.x, p.inv_freq, p.attention_factor, heads,
          Object.hasOwn(LAYOUT, s.layout) ? LAYOUT[s.layout] : -1,
          ...specValues(s), ...listPointers(p));
        if (status === X_OVERFLOW) {
          // x was checked above, so this is the rotation overflowing; inv_freq and the attention
          // factor are set (c/rope.h), the float32 af·cos and af·sin the kernel rotated by.
          const af = new Float64Array(k.wasm.memory.buffer, p.attention_factor, 1)[0];
          const invFreq = new Float64Array(k.wasm.memory.buffer, p.inv_freq, n).slice();
          throw overflowError(x, s, heads, af, (q, i) => [Math.fround(af * Math.cos(q * invFreq[i])), Math.fround(af * Math.sin(q * invFreq[i]))]);
        }
        return status;
      });
      const shape = options.heads === undefined && heads === 1 ? [s.length, s.dim] : [heads, s.length, s.dim];
      return { data: r.data, shape, spec: s, ...extras(r) };
    },
  },
};
