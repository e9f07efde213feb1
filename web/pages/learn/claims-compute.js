// The numbers of the Learn path's claim checks (./claims.js draws the boxes): each claim that
// tutorials repeat gets the numbers that show what is right, computed here from the API (pe.compute,
// the schema's defaults, the model gallery), never typed in. No DOM: tests/claims.test.js runs these
// in Node and builds the same sentences. A claim: { id, step, compute(pe) → values }; values are
// raw numbers and short strings, formatted by claimText (what the box says).
import { SCHEMA } from '../../api/pe.js';
import { GALLERY } from '../../api/models.js';
import { fromHFConfig } from '../../api/hfconfig.js';
import { formatInt } from '../../plot/format.js';
import { compareOrders, percentOf } from '../../views/attention/order.js';

/** Row p of a [rows, cols] result as a Float64Array. */
const rowOf = (r, p) => Float64Array.from(r.data.subarray(p * r.shape[1], (p + 1) * r.shape[1]));
const dot = (a, b) => a.reduce((s, v, i) => s + v * b[i], 0);
const norm = (a) => Math.sqrt(dot(a, a));
const TAU = 2 * Math.PI;

/** ω of each (sin, cos) pair of an interleaved sinusoidal table, read from its row 1: atan2(sin ω, cos ω). */
function pairFrequencies(pe, dim, base) {
  const r = pe.compute({ kind: 'sinusoidal', length: 2, dim, base });
  const one = rowOf(r, 1);
  return Float64Array.from({ length: dim / 2 }, (_, i) => Math.atan2(one[2 * i], one[2 * i + 1]));
}

/**
 * The values at position p of a sinusoidal table, columns from … from + count − 1 (the "read the
 * values" widget of the sinusoids step). Returns { cols, values } (values as float32 gives them).
 */
export function readValues(pe, { p, dim, from, count, base = 10000, layout = 'interleaved' }) {
  const r = pe.compute({ kind: 'sinusoidal', length: 1, offset: p, dim, base, layout });
  const last = Math.min(dim, from + count);
  const cols = [];
  const values = [];
  for (let c = from; c < last; c++) {
    cols.push(c);
    values.push(r.data[c]);
  }
  return { cols, values };
}

/** A table value as a tutorial prints it: five decimals, a true minus sign. */
export const fmt5 = (v) => v.toFixed(5).replace('-', '−');
const fix = (v, digits) => Number(v.toFixed(digits)).toString();
const minus = (x) => x.replace('-', '−');

// Every claim, in the order of the issue that lists them (#30). `step`: the Learn step that shows it.
export const CLAIMS = [
  {
    id: 'slowDims', step: 'sinusoids',
    compute(pe) {
      const w = pairFrequencies(pe, 512, 10000);
      return { w0: fix(w[0], 3), wl0: fix(TAU / w[0], 2), d: 512 };
    },
  },
  {
    id: 'base10000', step: 'sinusoids',
    compute(pe) {
      const w = pairFrequencies(pe, 512, 10000);
      const last = w.length - 1;
      return { wlLast: formatInt(Math.round(TAU / w[last])), cols: `${2 * last}, ${2 * last + 1}`, d: 512 };
    },
  },
  {
    id: 'tables', step: 'sinusoids',
    compute(pe) {
      const { cols, values } = readValues(pe, { p: 5, dim: 512, from: 2, count: 3 });
      return { p: 5, d: 512, from: cols[0], to: cols[cols.length - 1], values: values.map(fmt5).join(', ') };
    },
  },
  {
    id: 'fourier', step: 'sinusoids',
    compute(pe) {
      // The step's own table (d = 64, 128 positions): the columns' cosine similarity over positions.
      const d = 64;
      const L = 128;
      const r = pe.compute({ kind: 'sinusoidal', length: L, dim: d, base: 10000 });
      const col = (c) => Float64Array.from({ length: L }, (_, p) => r.data[p * d + c]);
      const cols = Array.from({ length: d }, (_, c) => col(c));
      let best = { a: 0, b: 1, g: 0 };
      for (let a = 0; a < d; a++) {
        for (let b = a + 1; b < d; b++) {
          const g = Math.abs(dot(cols[a], cols[b]) / (norm(cols[a]) * norm(cols[b])));
          if (g > best.g) best = { a, b, g };
        }
      }
      const w = pairFrequencies(pe, d, 10000);
      return { ratio: fix(w[1] / w[0], 3), d, L, a: best.a, b: best.b, g: best.g.toFixed(4) };
    },
  },
  {
    id: 'diffs', step: 'shift',
    compute(pe) {
      const r = pe.compute({ kind: 'sinusoidal', length: 106, dim: 512, base: 10000 });
      const sub = (p, q) => rowOf(r, p).map((v, i) => v - rowOf(r, q)[i]);
      const a = sub(5, 3);
      const b = sub(105, 103);
      return { cos: fix(dot(a, b) / (norm(a) * norm(b)), 3), na: fix(norm(a), 3), nb: fix(norm(b), 3), d: 512 };
    },
  },
  {
    id: 'sinExtrapolate', step: 'shift',
    compute(pe) {
      // A position far past any training length: computed like any other, with the same length.
      const far = 1000000;
      const v = rowOf(pe.compute({ kind: 'sinusoidal', length: 1, offset: far, dim: 512, base: 10000 }), 0);
      const v0 = rowOf(pe.compute({ kind: 'sinusoidal', length: 1, dim: 512, base: 10000 }), 0);
      return { far: formatInt(far), len: fix(norm(v), 2), len0: fix(norm(v0), 2), max: fix(Math.max(...v.map(Math.abs)), 3) };
    },
  },
  {
    id: 'raiseBase', step: 'decay',
    compute() {
      const base = (id) => fromHFConfig(GALLERY.find((g) => g.id === id).config).spec.base;
      let rope = 0;
      let raised = 0;
      for (const g of GALLERY) {
        const s = fromHFConfig(g.config).spec;
        if (s.kind !== 'rope' && s.kind !== 'mrope') continue;
        rope++;
        if (s.base > 10000) raised++;
      }
      return { codeLlama: formatInt(base('codellama-7b')), llama3: formatInt(base('llama-3-8b')), rope, raised, models: GALLERY.length };
    },
  },
  {
    id: 'ropeExtrapolate', step: 'scaling',
    compute(pe) {
      // A 4,096-token RoPE model (d = 128, base 10000): pairs that never turn once within training.
      const L = 4096;
      const w = pe.compute({ kind: 'rope', length: 16, dim: 128, base: 10000 }).inv_freq;
      const slow = Array.from(w).filter((x) => TAU / x > L).length;
      return { L: formatInt(L), slow, pairs: w.length };
    },
  },
  {
    id: 'yarnLlama2', step: 'scaling',
    compute() {
      const llama2 = fromHFConfig(GALLERY.find((g) => g.id === 'llama-2-7b').config).spec;
      return { base: formatInt(llama2.base), context: formatInt(llama2.max_position_embeddings ?? 4096) };
    },
  },
  {
    id: 'alibi', step: 'relative',
    compute(pe) {
      const L = 8;
      const at = (mode) => pe.compute({ kind: 'alibi', length: L, heads: 8, mode }).data;
      const sym = at('symmetric');
      const causal = at('causal');
      const i = 4;
      const k = 3;
      // Head 0: the key k behind query i, and the key k ahead of it.
      return {
        k, behind: minus(fix(sym[i * L + i - k], 3)), ahead: minus(fix(sym[i * L + i + k], 3)),
        causalAhead: Number.isFinite(causal[i * L + i + k]) ? fix(causal[i * L + i + k], 3) : '−∞',
      };
    },
  },
  {
    id: 'bagOfWords', step: 'order',
    compute(pe) {
      // The step's sentences with no positional encoding: without a mask, then with the causal mask.
      const a = ['I', 'love', 'AI'];
      const b = ['AI', 'love', 'I'];
      const change = (causal) => compareOrders(pe, a, b, { encoding: null, causal, dim: 64, heads: 1 }).outDiff;
      const open = change(false);
      return { open: open < 1e-6 ? '0' : percentOf(open), masked: percentOf(change(true)) };
    },
  },
  {
    id: 'mropeThirds', step: 'mrope',
    compute(pe) {
      const spec = pe.compute({ kind: 'mrope', segments: [{ type: 'text', length: 1 }] }).spec;
      const s = spec.mrope_section;
      const pairs = spec.dim / 2;
      const pct = (x) => fix((100 * x) / pairs, 1);
      return { section: s.join(', '), pairs, t: s[0], h: s[1], w: s[2], pt: pct(s[0]), ph: pct(s[1]), pw: pct(s[2]), third: fix(pairs / 3, 2) };
    },
  },
  {
    id: 'rowCol', step: 'patches',
    compute(pe) {
      const H = 14;
      const W = 14;
      const table = (layout) => pe.compute({ kind: 'sinusoidal2d', height: H, width: W, dim: 64, base: 10000, layout });
      const [r, c] = [2, 5];
      // Patch (r, c) against patch (c, r): one code on both axes (sum) and MAE's split channels.
      const apart = (layout) => {
        const t = table(layout);
        const a = rowOf(t, r * W + c);
        const b = rowOf(t, c * W + r);
        return { max: Math.max(...a.map((v, i) => Math.abs(v - b[i]))), dist: norm(a.map((v, i) => v - b[i])) };
      };
      const sum = apart('sum');
      const mae = apart('mae');
      return { r, c, sumDiff: sum.max === 0 ? '0' : sum.max.toExponential(1), maeDist: fix(mae.dist, 2) };
    },
  },
  {
    id: 'vitLearned', step: 'patches',
    compute(pe) {
      const r = pe.compute({ kind: 'sinusoidal2d', height: 14, width: 14, dim: 64, base: 10000, layout: 'mae' });
      return { rows: formatInt(r.shape[0]), h: 14, w: 14 };
    },
  },
  {
    id: 'sineLike', step: 'learned',
    compute(pe) {
      // Neighbouring rows' average |cosine| (as the step measures it): a sinusoidal table against the step's untrained one (seed 0).
      const L = 64;
      const d = 64;
      const neighbours = (r) => {
        let s = 0;
        for (let p = 0; p + 1 < L; p++) {
          const a = rowOf(r, p);
          const b = rowOf(r, p + 1);
          const c = dot(a, b) / (norm(a) * norm(b));
          s += Math.abs(c);
        }
        return s / (L - 1);
      };
      const sin = neighbours(pe.compute({ kind: 'sinusoidal', length: L, dim: d, base: 10000 }));
      const init = neighbours(pe.compute({ kind: 'learned', length: L, dim: d, std: 0.02, seed: 0 }));
      return { d, sin: fix(sin, 3), init: fix(init, 3) };
    },
  },
];

/** The claims a step shows, in order. */
export const claimsOf = (step) => CLAIMS.filter((c) => c.step === step);

/** The schema the values come from (for the reader's limits). */
export const SINUSOIDAL_FIELDS = SCHEMA.sinusoidal.fields;
