// The word-order lesson as numbers, DOM-free (the explorer's sentence view, the Learn path's first
// step and tests/learn-order.test.js share it). Two orders of the same words, A and B; attention
// over each (pe.compute, kind 'attention', content 'tokens'); B's token t is A's token match[t]
// (the k-th "the" of B is the k-th "the" of A).
//
// What a token receives: with the value of each token taken to be its word (a one-hot vector over
// the distinct words of the sentence), the attention output of token i is the mix
//   out[i, w] = Σ_{j : word_j = w} weight[i, j]
// i.e. the share of its attention that goes to each word. Without positions and without the
// causal mask, attention is permutation-equivariant: B's weights are A's with rows and columns
// permuted, so every token receives exactly the same mix in both orders.
import { splitWords } from '../../api/schema/attention.js';

/**
 * How B's tokens map onto A's: match[t] = the index in A of B's token t, or null when B is not a
 * reordering of A's words (another word, or another count of one).
 */
export function matchOrder(a, b) {
  if (a.length !== b.length) return null;
  const slots = new Map();
  a.forEach((w, i) => {
    if (!slots.has(w)) slots.set(w, []);
    slots.get(w).push(i);
  });
  const used = new Map();
  const match = [];
  for (const w of b) {
    const list = slots.get(w);
    const k = used.get(w) ?? 0;
    if (!list || k >= list.length) return null;
    used.set(w, k + 1);
    match.push(list[k]);
  }
  return match;
}

/** The distinct words of a sentence, in order of first appearance. */
export function vocabulary(words) {
  return [...new Set(words)];
}

/** The head average of a [heads, n, n] weight array, as Float64Array [n, n]. */
export function meanHeads(data, shape) {
  const [H, n] = shape;
  const out = new Float64Array(n * n);
  for (let h = 0; h < H; h++) for (let t = 0; t < n * n; t++) out[t] += data[h * n * n + t];
  for (let t = 0; t < n * n; t++) out[t] /= H;
  return out;
}

/**
 * The attention output of every token with one-hot word values: out[i·V + v] = Σ_{j: word_j = vocab[v]}
 * w[i, j], for weights w [n, n] (head-averaged). Rows sum to 1 (to rounding).
 */
export function wordMix(weights, words, vocab) {
  const n = words.length;
  const V = vocab.length;
  const index = new Map(vocab.map((w, v) => [w, v]));
  const out = new Float64Array(n * V);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) out[i * V + index.get(words[j])] += weights[i * n + j];
  return out;
}

/** B's [n, n] plane with rows and columns put in A's order: out[match[a], match[b]] = w[a, b]. */
export function toOrderA(plane, match) {
  const n = match.length;
  const out = new Float64Array(n * n);
  for (let a = 0; a < n; a++) for (let b = 0; b < n; b++) out[match[a] * n + match[b]] = plane[a * n + b];
  return out;
}

/** B's rows (of width V) put in A's order: out[match[t]] = rows[t]. */
export function rowsToOrderA(rows, match, V) {
  const out = new Float64Array(rows.length);
  match.forEach((a, t) => out.set(rows.subarray(t * V, (t + 1) * V), a * V));
  return out;
}

const SYMMETRIC_BIASES = new Set(['alibi', 'distance']);

/**
 * The attention spec of one order: content 'tokens', the encoding (a spec without length/dim, or
 * null), causal or not. Symmetric biases follow the mask (causal → their causal mode).
 */
export function orderSpec(words, { encoding = null, causal = false, dim = 64, heads = 1, seed = 0 } = {}) {
  let enc = encoding;
  if (enc && SYMMETRIC_BIASES.has(enc.kind)) enc = { ...enc, mode: causal ? 'causal' : 'symmetric' };
  if (enc?.kind === 't5') enc = { ...enc, bidirectional: !causal };
  if (enc?.kind === 'mrope') enc = { ...enc, segments: [{ type: 'text', length: words.length }] };
  // A grid encoding reads the sentence as one row of tokens.
  if (enc?.kind === 'sinusoidal2d') enc = { ...enc, height: 1, width: words.length };
  if (enc?.kind === 'sinusoidal3d') enc = { ...enc, depth: 1, height: 1, width: words.length };
  return { kind: 'attention', length: words.length, dim, heads, encoding: enc, content: 'tokens', tokens: words.join(' '), causal, seed };
}

/** How many heads the demo gives ALiBi: its standard set, slopes 2^(−8(h + 1)/8) = 1/2 … 1/256. */
export const ALIBI_DEMO_HEADS = 8;

/**
 * The heads the demo computes for an encoding, and the one it shows: ALiBi's standard 8 heads and
 * its steepest (head 0, slope 1/2; one ALiBi head alone would have the gentlest slope, 1/256, and
 * change the weights by about a thousandth); one head otherwise. { heads, head, slope? }
 */
export function demoHeads(encoding) {
  if (encoding?.kind === 'alibi') return { heads: ALIBI_DEMO_HEADS, head: 0, slope: 2 ** (-8 / ALIBI_DEMO_HEADS) };
  return { heads: 1, head: null };
}

/** The [n, n] plane of one head of a [heads, n, n] array, as Float64Array. */
export function headPlane(data, shape, h) {
  const n = shape[1];
  return Float64Array.from(data.subarray(h * n * n, (h + 1) * n * n));
}

/**
 * Both orders computed and compared. a, b: word lists (b a reordering of a, see matchOrder);
 * options as orderSpec, plus head: the head to compare (null: the mean of the heads). Returns null when b is not a reordering of a, else
 * { a, b, match, vocab, weightsA, weightsB, backB, diff, mixA, mixB, mixBack, mixDiff, outDiff,
 *   weightDiff, sameSentence, distancesKept } where the planes are head-averaged [n, n] (B's as
 * computed, and put back in A's order), diff = backB − weightsA, mix* the word mixes [n, V] (B's
 * put back in A's order), outDiff = max |mixBack − mixA| (the largest change in what a token
 * receives), weightDiff = max |backB − weightsA| over every head (over the chosen head only when
 * one is chosen), sameSentence: B reads exactly as
 * A, distancesKept: the reordering keeps every distance |i − j| between tokens (the identity or
 * the reversal).
 */
export function compareOrders(pe, a, b, options = {}) {
  const match = matchOrder(a, b);
  if (!match) return null;
  const n = a.length;
  const ra = pe.compute(orderSpec(a, options));
  const rb = pe.compute(orderSpec(b, options));
  // Every head: B's weights in A's order against A's.
  const [H] = ra.shape;
  const head = options.head ?? null;
  let weightDiff = 0;
  for (let h = 0; h < H; h++) {
    if (head !== null && h !== head) continue;
    const pa = ra.data.subarray(h * n * n, (h + 1) * n * n);
    const pb = toOrderA(rb.data.subarray(h * n * n, (h + 1) * n * n), match);
    for (let t = 0; t < n * n; t++) weightDiff = Math.max(weightDiff, Math.abs(pb[t] - pa[t]));
  }
  const weightsA = head === null ? meanHeads(ra.data, ra.shape) : headPlane(ra.data, ra.shape, head);
  const weightsB = head === null ? meanHeads(rb.data, rb.shape) : headPlane(rb.data, rb.shape, head);
  const backB = toOrderA(weightsB, match);
  const diff = new Float64Array(n * n);
  for (let t = 0; t < n * n; t++) diff[t] = backB[t] - weightsA[t];
  const vocab = vocabulary(a);
  const V = vocab.length;
  const mixA = wordMix(weightsA, a, vocab);
  const mixB = wordMix(weightsB, b, vocab);
  const mixBack = rowsToOrderA(mixB, match, V);
  let outDiff = 0;
  for (let t = 0; t < mixA.length; t++) outDiff = Math.max(outDiff, Math.abs(mixBack[t] - mixA[t]));
  const sameSentence = a.every((w, i) => w === b[i]);
  const identity = match.every((m, i) => m === i);
  const reversal = match.every((m, i) => m === n - 1 - i);
  return {
    a, b, match, vocab, weightsA, weightsB, backB, diff, mixA, mixB, mixBack,
    outDiff, weightDiff, sameSentence, distancesKept: identity || reversal, tokensA: ra.tokens, tokensB: rb.tokens,
  };
}

/**
 * How large a change in a share of attention (0 … 1) is for the eye: 'none' (rounding), 'tiny'
 * (under 1 % of a word's attention: nothing to see in a bar), 'small' (under 5 %: a sliver) or
 * 'clear'.
 */
export function effectSize(x) {
  if (!(x >= 1e-6)) return 'none';
  if (x < 0.01) return 'tiny';
  if (x < 0.05) return 'small';
  return 'clear';
}

/** A share of attention in percent, with the digits the point needs: '0.13', '1.3', '17' (the strings add %). */
export function percentOf(x) {
  const p = x * 100;
  if (p >= 10) return String(Math.round(p));
  if (p >= 1) return String(Number(p.toFixed(1)));
  return String(Number(p.toPrecision(2)));
}

/** The words of a text (one token per whitespace-separated word). */
export const wordsOf = (text) => splitWords(text);

/**
 * Why the two orders look the same or not, as a key and its arguments for the translator:
 * 'same-sentence', 'bag' (no positions, no mask), 'distances' (a symmetric distance bias and a
 * reordering that keeps every distance), 'same-other' (equal for another reason), 'differs-mask'
 * (the mask alone), 'differs-encoding' (the encoding, maybe with the mask).
 */
export function verdictOf(c, { encoding, causal }) {
  const same = c.outDiff < 1e-6 && c.weightDiff < 1e-6;
  if (c.sameSentence) return 'same-sentence';
  if (same) {
    if (!encoding && !causal) return 'bag';
    if (encoding && SYMMETRIC_BIASES.has(encoding.kind) && !causal && c.distancesKept) return 'distances';
    return 'same-other';
  }
  if (!encoding) return 'differs-mask';
  return causal ? 'differs-both' : 'differs-encoding';
}
