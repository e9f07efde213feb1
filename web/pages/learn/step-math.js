// The small number helpers the steps share (./steps.js, ./steps-learned.js).
import { formatInt } from '../../plot/format.js';

/** A number in a sentence with `digits` decimals at most (thousands grouped from 10,000). */
export const fx = (v, digits = 2) => (Math.abs(v) >= 1e4 ? formatInt(Math.round(v)) : Number(v.toFixed(digits)).toString());
/** A number in a sentence: three significant digits (a float32's nine say nothing a learner needs), tiny ones as 2.4e-7. */
export const sci = (v) => (v === 0 ? '0' : Math.abs(v) < 1e-3 ? v.toExponential(1) : Number(v.toPrecision(3)).toString());

/** Row p of a [rows, cols] table as a Float64Array. */
export const row = (r, p) => Float64Array.from(r.data.subarray(p * r.shape[1], (p + 1) * r.shape[1]));
export const dot = (a, b) => a.reduce((s, v, i) => s + v * b[i], 0);
