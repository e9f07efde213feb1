// The numbers of the magnitudes view (embed-scale.js): how big the position table P is next to
// the token embeddings E it is added to. No DOM: tests/embed-scale.test.js runs these in Node and
// compares them with numpy in float64.
//
// E is a [vocab, d] table drawn by the C kernel of the kind `learned` (N(0, std²) rows), with the
// std of a common initialisation; it is multiplied by √d when `scaled` (Vaswani et al. §3.4, The
// Annotated Transformer: `self.lut(x) * math.sqrt(self.d_model)`). For each row the view needs
// ‖s·E_t‖ = s·‖E_t‖ and, for a sample of (t, p), cos(s·E_t + P_p, P_p) =
// (s·E_t·P_p + ‖P_p‖²) / (‖s·E_t + P_p‖·‖P_p‖), with ‖s·E_t + P_p‖² = s²‖E_t‖² + 2s·E_t·P_p + ‖P_p‖².
// Every sum is accumulated in float64 over the float32 tables.

/** Token rows drawn for E: the norms of random rows do not depend on the vocabulary's size. */
export const VOCAB = 1024;
/** The seed of E (the next one when the position table is a learned table of this very seed). */
export const EMBED_SEED = 1234;
/** At most this many tokens × positions enter the cosine (tokens and positions spread evenly). */
export const COS_TOKENS = 256;
export const COS_POSITIONS = 64;
/** At most this many multiply-adds for the cosines (256 × 64 at d = 512; fewer tokens when wider). */
export const COS_WORK = 2 ** 23;

/** How many tokens enter the cosine at width d: COS_TOKENS, fewer (at least 16) so the work stays ≤ COS_WORK. */
export const cosTokens = (d) => Math.max(16, Math.min(COS_TOKENS, Math.floor(COS_WORK / (COS_POSITIONS * Math.max(d, 1)))));

/** The initialisations tutorials use: std of N(0, std²) for a model width d (custom: the user's). */
export const INITS = {
  torch: { std: () => 1 },                 // torch.nn.Embedding's default: N(0, 1)
  gpt2: { std: () => 0.02 },               // GPT-2, BERT: N(0, 0.02²)
  vaswani: { std: (d) => d ** -0.5 },      // tensor2tensor: N(0, d^−1), std d^−½, then × √d
  custom: { std: (d, own) => own },
};
export const INIT_IDS = Object.keys(INITS);

/** The std of an initialisation at width d (own: the custom std). */
export function initStd(init, d, own = 0.02) {
  const i = INITS[init] ?? INITS.gpt2;
  return i.std(d, own);
}

/** The seed of E for a position spec: EMBED_SEED, or the next one if P is a learned table of that seed. */
export function embedSeed(spec) {
  return spec?.kind === 'learned' && spec.seed === EMBED_SEED ? EMBED_SEED + 1 : EMBED_SEED;
}

/** The token embeddings E: { data, rows, cols } from the kernel of `learned` (N(0, std²)). */
export function embedTable(pe, { d, std, seed = EMBED_SEED, vocab = VOCAB }) {
  const r = pe.compute({ kind: 'learned', length: vocab, dim: d, std, seed });
  return { data: r.data, rows: vocab, cols: d };
}

/** ‖row‖ of every row of a row-major [rows, cols] table (Float64Array, float64 sums). */
export function rowNorms(data, rows, cols) {
  const out = new Float64Array(rows);
  for (let r = 0; r < rows; r++) {
    let s = 0;
    for (let c = r * cols, e = c + cols; c < e; c++) s += data[c] * data[c];
    out[r] = Math.sqrt(s);
  }
  return out;
}

/** The q-quantile of values, interpolated linearly between order statistics (numpy's default). */
export function quantile(sorted, q) {
  const n = sorted.length;
  if (!n) return NaN;
  const x = q * (n - 1);
  const lo = Math.floor(x);
  const hi = Math.min(lo + 1, n - 1);
  return sorted[lo] + (x - lo) * (sorted[hi] - sorted[lo]);
}

/** { median, lo (10 %), hi (90 %), min, max, mean } of an array of numbers (NaN left out). */
export function band(values) {
  const s = Float64Array.from(Array.from(values).filter((v) => !Number.isNaN(v))).sort();
  let sum = 0;
  for (const v of s) sum += v;
  return { median: quantile(s, 0.5), lo: quantile(s, 0.1), hi: quantile(s, 0.9), min: s[0], max: s[s.length - 1], mean: sum / s.length };
}

/** n indices spread evenly over 0 … total − 1 (all of them when n ≥ total), first and last included. */
export function spreadIndices(total, n) {
  if (total <= n) return Array.from({ length: total }, (_, i) => i);
  return Array.from({ length: n }, (_, i) => Math.round((i * (total - 1)) / (n - 1)));
}

/**
 * cos(s·E_t + P_p, P_p) for the sampled tokens × positions, position-major: { values (Float64Array,
 * NaN where P_p = 0), tokens, positions }. eNorms: ‖E_t‖ unscaled; pNorms: ‖P_p‖.
 */
export function sumCosines(E, eNorms, P, pNorms, s, { tokens = cosTokens(E.cols), positions = COS_POSITIONS } = {}) {
  const d = E.cols;
  const ts = spreadIndices(E.rows, tokens);
  const ps = spreadIndices(P.rows, positions);
  const values = new Float64Array(ts.length * ps.length);
  let k = 0;
  for (const p of ps) {
    const pn = pNorms[p];
    const po = p * d;
    for (const t of ts) {
      if (pn === 0) {
        values[k++] = NaN;
        continue;
      }
      let dp = 0;
      const eo = t * d;
      for (let c = 0; c < d; c++) dp += E.data[eo + c] * P.data[po + c];
      const en = s * eNorms[t];
      const sumNorm = Math.sqrt(Math.max(0, en * en + 2 * s * dp + pn * pn));
      values[k++] = sumNorm === 0 ? NaN : (s * dp + pn * pn) / (sumNorm * pn);
    }
  }
  return { values, tokens: ts, positions: ps };
}

/**
 * Everything the view shows for E (unscaled norms given) and P at scale on/off:
 * { d, s, e: band of ‖s·E_t‖, p: band of ‖P_p‖ over positions, pNorms, ratio: median ‖P‖ / median
 * ‖s·E‖, cos: band of cos(s·E + P, P) over cosTokens × cosPositions, constantP: whether ‖P_p‖ is the same at every position (±0.1 %) }.
 */
export function magnitudes(E, eNorms, P, pNorms, scaled) {
  const d = E.cols;
  const s = scaled ? Math.sqrt(d) : 1;
  const e = band(Float64Array.from(eNorms, (v) => v * s));
  const p = band(pNorms);
  const sample = sumCosines(E, eNorms, P, pNorms, s);
  const cos = band(sample.values);
  return {
    d, s, e, p, pNorms, cos, cosTokens: sample.tokens.length, cosPositions: sample.positions.length,
    ratio: p.median / e.median,
    constantP: p.max - p.min <= 1e-3 * p.max,
  };
}

/**
 * A number in the view's sentence: three significant digits (16.0, 0.452, 35.4), whole numbers
 * from 100 on (254, 3256), tiny or huge ones in e-notation (2.4e−4).
 */
export function fmt3(v) {
  const a = Math.abs(v);
  if (a === 0) return '0';
  let s;
  if (a >= 1e5 || a < 1e-3) s = v.toExponential(2).replace('e+', 'e');
  else if (a >= 100) s = String(Math.round(v));
  else s = v.toPrecision(3);
  return s.replace(/-/g, '−');
}
/** A cosine in the view's sentence: four decimals. */
export const fmtCos = (v) => v.toFixed(4).replace('-', '−');

/** Which side outweighs the other at a ratio ‖P‖ / ‖E‖: 'p', 'e' or 'same' (within 1.25×), and the ratio as "r to 1". */
export function verdictOf(ratio) {
  if (ratio >= 1.25) return { side: 'p', r: fmt3(ratio) };
  if (ratio <= 0.8) return { side: 'e', r: fmt3(1 / ratio) };
  return { side: 'same', r: fmt3(ratio) };
}
