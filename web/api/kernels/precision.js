// How the `rope_precision` kind calls its C kernel (c/precision.c): the angle error table with
// the recipe's cos/sin tables, the worst error per row and the collisions
// (docs/reference.md#rope_precision).
import { PE_MAX_ELEMENTS } from '../schema/limits.js';
import { DTYPES, INV_FREQ_DTYPES, RECIPE_FIELDS, recipeDtypes } from '../schema/precision.js';
import { SPEC_ARGS, specValues, listInputs, listPointers } from './rope.js';

// Dtype codes of c/precision.h (pe_recipe_dtype): float64 0, float32 1, bfloat16 2, float16 3,
// and for inv_freq only float32_pow 4.
const code = (name, field) => {
  const i = (field === 'inv_freq_dtype' ? INV_FREQ_DTYPES : DTYPES).indexOf(name);
  return i < 0 ? -1 : i;   // -1: C refuses it
};

export default {
  rope_precision: {
    // The C arguments of pe_rope_precision_lists in order (LongRoPE's two lists last, the last two
    // of SPEC_ARGS): PE_ERR_ARG(k) → args[k-1].
    args: ['out', 'cos', 'sin', 'row_error', 'stats', 'scratch', 'offset',
      ...RECIPE_FIELDS.map((f) => `recipe.${f}`), ...SPEC_ARGS],

    /**
     * The angle error [length, rotary_dim/2] with cos, sin, row_error, collisions,
     * first_collision, and the recipe's inv_freq f_i beside the exact ω_i (exact_inv_freq).
     */
    compute(k, s) {
      const pairs = Math.trunc((s.dim | 0) * s.partial_rotary_factor) >> 1;
      const length = s.length | 0;
      // Specs that skipped validation (the C-guard tests): C refuses them before writing.
      const ok = (v) => Number.isInteger(v) && v >= 1 && v <= PE_MAX_ELEMENTS;
      const n = ok(pairs) ? pairs : 1;
      const table = ok(length * n) ? length * n : 1;
      const rows = ok(length) ? length : 1;
      const d = recipeDtypes(s.recipe) ?? {};
      const r = k.run({
        inputs: listInputs(s),
        outputs: {
          data: table, cos: table, sin: table, row_error: rows,
          stats: { count: 2, type: Float64Array },
          scratch: { count: 8 * n, type: Float64Array },   // PE_PRECISION_SCRATCH(n)
        },
      }, (p) => k.wasm.pe_rope_precision_lists(p.data, p.cos, p.sin, p.row_error, p.stats, p.scratch,
        s.offset, ...RECIPE_FIELDS.map((f) => code(d[f], f)), ...specValues(s), ...listPointers(p)));
      return {
        data: r.data, cos: r.cos, sin: r.sin, row_error: r.row_error,
        collisions: r.stats[0], first_collision: r.stats[1],
        // On success the kernel leaves ω in scratch[0, n) and f in scratch[n, 2n) (c/precision.h).
        exact_inv_freq: r.scratch.slice(0, n), inv_freq: r.scratch.slice(n, 2 * n),
      };
    },

    // The C arguments of pe_rope_precision_sweep_lists in order: PE_ERR_ARG(k) → sweepArgs[k-1].
    sweepArgs: ['row_error', 'stats', 'scratch', 'offset', ...RECIPE_FIELDS.map((f) => `recipe.${f}`), ...SPEC_ARGS],

    /**
     * The sweep (see pe.precisionSweep): row_error [length] and the collisions, exactly as
     * compute gives them, without the [length, rotary_dim/2] tables.
     */
    sweep(k, s) {
      const pairs = Math.trunc((s.dim | 0) * s.partial_rotary_factor) >> 1;
      const ok = (v) => Number.isInteger(v) && v >= 1 && v <= PE_MAX_ELEMENTS;
      const n = ok(pairs) ? pairs : 1;
      const rows = ok(s.length | 0) ? s.length | 0 : 1;
      const d = recipeDtypes(s.recipe) ?? {};
      const r = k.run({
        inputs: listInputs(s),
        outputs: {
          row_error: rows,
          stats: { count: 2, type: Float64Array },
          scratch: { count: 8 * n, type: Float64Array },   // PE_PRECISION_SWEEP_SCRATCH(n)
        },
      }, (p) => k.wasm.pe_rope_precision_sweep_lists(p.row_error, p.stats, p.scratch, s.offset,
        ...RECIPE_FIELDS.map((f) => code(d[f], f)), ...specValues(s), ...listPointers(p)));
      return { row_error: r.row_error, collisions: r.stats[0], first_collision: r.stats[1] };
    },
  },
};
