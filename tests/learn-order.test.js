// The word-order lesson (web/views/attention/order.js), against pe.compute in both WASM builds:
// without positions and without the causal mask, attention over "AI love I" is the attention over
// "I love AI" with rows and columns permuted (weights and outputs, to 1e-6); with any encoding it
// is not, except where the encoding can only see |i − j| (symmetric ALiBi, symmetric distance
// bias) and the reordering keeps every distance (the reversal), which the page then says.
import { describe, it, expect, beforeAll } from 'vitest';
import { ENCODING_KINDS } from '../web/api/schema/attention.js';
import { compareOrders, matchOrder, orderSpec, verdictOf, wordMix, vocabulary, meanHeads } from '../web/views/attention/order.js';
import { BUILDS, peFor } from './helpers/pe.js';

const A = ['I', 'love', 'AI'];
const REVERSED = ['AI', 'love', 'I'];
const ROTATED = ['love', 'AI', 'I'];
const LONG = 'the cat sat on the mat and the dog barked'.split(' ');
const LONG_B = 'the dog barked and the cat sat on the mat'.split(' ');

/** Every encoding kind of the attention. */
function encodingFor(kind) {
  return { kind };   // orderSpec fits grids (one row) and M-RoPE's segments to the sentence
}
const SYMMETRIC = new Set(['alibi', 'distance']);

describe.each(BUILDS)('word order, $name build', ({ simd }) => {
  let pe;
  beforeAll(async () => {
    pe = await peFor(simd);
  });

  it('matches a reordering token by token (repeated words by occurrence) and refuses other words', () => {
    expect(matchOrder(A, REVERSED)).toEqual([2, 1, 0]);
    expect(matchOrder(LONG, LONG_B)).toEqual([0, 8, 9, 6, 4, 1, 2, 3, 7, 5]);
    expect(matchOrder(A, ['I', 'like', 'AI'])).toBeNull();
    expect(matchOrder(A, ['I', 'I', 'AI'])).toBeNull();
    expect(matchOrder(A, ['I', 'love'])).toBeNull();
  });

  it('without positions and without the mask, the two orders are a permutation of each other (to 1e-6)', () => {
    let worst = 0;
    for (const [a, b] of [[A, REVERSED], [A, ROTATED], [LONG, LONG_B]]) {
      for (const heads of [1, 4]) {
        const c = compareOrders(pe, a, b, { encoding: null, causal: false, heads });
        // Independently of compareOrders: permute B's raw weights by hand, every head.
        const ra = pe.compute(orderSpec(a, { heads }));
        const rb = pe.compute(orderSpec(b, { heads }));
        const n = a.length;
        const m = matchOrder(a, b);
        let d = 0;
        for (let h = 0; h < heads; h++)
          for (let i = 0; i < n; i++)
            for (let j = 0; j < n; j++) d = Math.max(d, Math.abs(rb.data[(h * n + i) * n + j] - ra.data[(h * n + m[i]) * n + m[j]]));
        // The outputs: token i of B receives what token m[i] of A receives.
        const vocab = vocabulary(a);
        const oa = wordMix(meanHeads(ra.data, ra.shape), a, vocab);
        const ob = wordMix(meanHeads(rb.data, rb.shape), b, vocab);
        for (let i = 0; i < n; i++) for (let v = 0; v < vocab.length; v++) d = Math.max(d, Math.abs(ob[i * vocab.length + v] - oa[m[i] * vocab.length + v]));
        expect(d).toBeLessThan(1e-6);
        expect(c.weightDiff).toBeLessThan(1e-6);
        expect(c.outDiff).toBeLessThan(1e-6);
        expect(verdictOf(c, { encoding: null, causal: false })).toBe('bag');
        worst = Math.max(worst, d, c.weightDiff, c.outDiff);
      }
    }
    console.log(`  no positions, no mask: worst |B permuted back − A| = ${worst.toExponential(2)}`);
  });

  it('with any encoding (or the causal mask), the orders are not a permutation of each other', () => {
    const smallest = {};
    for (const kind of ENCODING_KINDS) {
      for (const causal of [false, true]) {
        for (const [a, b] of [[A, REVERSED], [A, ROTATED], [LONG, LONG_B]]) {
          const encoding = encodingFor(kind);
          const c = compareOrders(pe, a, b, { encoding, causal });
          const reversal = b === REVERSED;
          const label = `${kind} causal=${causal} ${b.join(' ')}`;
          if (SYMMETRIC.has(kind) && !causal && reversal) {
            // Only |i − j| is seen and the reversal keeps every distance: the same, and said so.
            expect(c.weightDiff, label).toBeLessThan(1e-6);
            expect(verdictOf(c, { encoding, causal }), label).toBe('distances');
            continue;
          }
          expect(c.outDiff, label).toBeGreaterThan(1e-3);
          expect(c.weightDiff, label).toBeGreaterThan(1e-3);
          expect(verdictOf(c, { encoding, causal }), label).toBe(causal ? 'differs-both' : 'differs-encoding');
          smallest[kind] = Math.min(smallest[kind] ?? Infinity, c.outDiff);
        }
      }
      // The mask alone tells the orders apart too.
      const masked = compareOrders(pe, A, REVERSED, { encoding: null, causal: true });
      expect(masked.outDiff).toBeGreaterThan(1e-3);
      expect(verdictOf(masked, { encoding: null, causal: true })).toBe('differs-mask');
    }
    console.log(`  smallest change in a token's output per encoding: ${Object.entries(smallest).map(([k, v]) => `${k} ${v.toExponential(1)}`).join(', ')}`);
  });

  it('the same sentence read twice is no lesson: said as such', () => {
    const c = compareOrders(pe, ['the', 'cat', 'the'], ['the', 'cat', 'the'], { encoding: { kind: 'rope' } });
    expect(verdictOf(c, { encoding: { kind: 'rope' }, causal: false })).toBe('same-sentence');
  });
});
