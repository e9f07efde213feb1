// pe.release: a caller gives a result back, and the next output of the same size is copied into
// its memory instead of memory the system must first map and zero (issue 32). What must hold: the
// memory really is used again; a result nobody released never changes, whatever is computed or
// released after it; a released array reads as empty (it can never show a later result's values);
// and releasing anything else — twice, another module's, the caller's own reuse array, a
// non-result — is a PEError naming 'result' that leaves everything as it was.
import { describe, it, expect, beforeAll } from 'vitest';
import { createPE } from '../web/pe.js';
import { expectPEError } from './helpers/pe.js';

// Outputs of at least 2^16 bytes are pooled: 128 × 128 floats is exactly that.
const big = { kind: 'sinusoidal', length: 128, dim: 128 };
const big500 = { ...big, base: 500 };
const small = { kind: 'sinusoidal', length: 4, dim: 8 };

describe('pe.release', () => {
  let pe;
  let other;
  beforeAll(async () => {
    pe = await createPE();
    other = await createPE();
  });

  /**
   * Runs fn with structuredClone watched: release moves a buffer's memory with it (a transfer) into
   * the pool, so the ArrayBuffers it returns are the pooled memory. Returns them.
   */
  function moved(fn) {
    const original = globalThis.structuredClone;
    const seen = [];
    globalThis.structuredClone = (value, options) => {
      const out = original(value, options);
      seen.push(out);
      return out;
    };
    try {
      fn();
    } finally {
      globalThis.structuredClone = original;
    }
    return seen;
  }

  it('copies the next output of that size into the released memory, as a new array', () => {
    const a = pe.compute(big);
    const expected = Array.from(pe.compute(big500).data);
    const buffer = a.data.buffer;
    const [pooled] = moved(() => pe.release(a));
    expect(buffer.byteLength).toBe(0);        // detached: its memory now belongs to the pool
    expect(pooled.byteLength).toBe(128 * 128 * 4);
    const b = pe.compute(big500);
    expect(b.data.buffer).toBe(pooled);       // the same memory, used again
    expect(b.data === a.data).toBe(false);    // a new array (identity caches see a new table)
    expect(Array.from(b.data)).toEqual(expected);
  });

  it('hands released memory only to an output of the same byte length, any shape', () => {
    const [pooled] = moved(() => pe.release(pe.compute(big)));
    const s = pe.compute(small);
    expect(s.data.buffer).not.toBe(pooled);
    const b = pe.compute({ kind: 'sinusoidal', length: 64, dim: 256 });   // 128 × 128 floats too
    expect(b.data.buffer).toBe(pooled);
    expect(b.shape).toEqual([64, 256]);
    expect(b.data[1]).toBe(1);
    expect(pe.compute(big).data.buffer).not.toBe(pooled);   // taken once, not twice
  });

  it('keeps at most 16 released buffers, the newest', () => {
    const pooled = moved(() => {
      const results = Array.from({ length: 20 }, (_, i) => pe.compute({ ...big, base: 100 + i }));
      for (const r of results) pe.release(r);
    });
    expect(pooled).toHaveLength(20);
    const next = Array.from({ length: 20 }, () => pe.compute(big).data.buffer);
    expect(next.slice(0, 16)).toEqual(pooled.slice(4).reverse());   // newest first
    for (const b of next.slice(16)) expect(pooled).not.toContain(b);
  });

  it('does not pool small arrays, but takes them back all the same', () => {
    const r = pe.compute(small);
    const pooled = moved(() => pe.release(r));
    expect(r.data.length).toBe(0);
    expect(pe.compute(small).data.buffer).not.toBe(pooled[0]);
  });

  it('never changes a result nobody released, whatever is computed and released after it', () => {
    const kept = pe.compute(big);
    const copy = Float32Array.from(kept.data);
    for (let i = 0; i < 4; i++) {
      const r = pe.compute({ ...big, base: 100 + i });
      pe.release(r);
    }
    pe.release(pe.compute(big500));
    pe.compute(big500);
    expect(kept.data).toEqual(copy);
    expect(kept.data.buffer.byteLength).toBe(copy.byteLength);
  });

  it('detaches a released array and every view of it: it reads as empty, never as a later result', () => {
    const a = pe.compute(big);
    const row = a.data.subarray(128, 256);
    const alias = new Float32Array(a.data.buffer);
    pe.release(a);
    for (const v of [a.data, row, alias]) expect(v.length).toBe(0);
    const b = pe.compute(big500);
    expect(b.data.length).toBe(128 * 128);
    for (const v of [a.data, row, alias]) expect(v.length).toBe(0);
  });

  it('draws the next result in the released memory afresh: no heatmap cache keyed by the old array', () => {
    const view = { rows: 128, cols: 128, width: 16, height: 16 };
    const a = pe.compute(big);
    const pixelsA = pe.heatmap(a.data, view);
    const expected = pe.heatmap(pe.compute(big500).data, view);
    pe.release(a);
    expectPEError(() => pe.heatmap(a.data, view), 'offset');   // empty now: nothing to draw
    const b = pe.compute(big500);
    const pixelsB = pe.heatmap(b.data, view);
    expect(Array.from(pixelsB)).toEqual(Array.from(expected));
    expect(Array.from(pixelsB)).not.toEqual(Array.from(pixelsA));
  });

  it('takes back every array of a result: attention\'s data, entropy and local_mass', () => {
    const spec = { kind: 'attention', length: 128, heads: 1, dim: 16 };
    const r = pe.compute(spec);
    const expected = Array.from(pe.compute(spec).data);
    pe.release(r);
    for (const name of ['data', 'entropy', 'local_mass']) expect(r[name].length).toBe(0);
    expect(r.shape).toEqual([1, 128, 128]);   // not arrays: left alone
    const again = pe.compute(spec);
    expect(Array.from(again.data)).toEqual(expected);
  });

  it('works for the other methods that return arrays (applyRope)', () => {
    const rope = { kind: 'rope', length: 64, dim: 256 };
    const x = new Float32Array(64 * 256).fill(1);
    const first = pe.applyRope(x, rope);
    const expected = Array.from(first.data);
    pe.release(first);
    expect(first.data.length).toBe(0);
    expect(x.length).toBe(64 * 256);         // the input is the caller's and was never lent
    expect(Array.from(pe.applyRope(x, rope).data)).toEqual(expected);
  });

  it('refuses what it did not lend, or lent and took back, with a PEError naming result', () => {
    const r = pe.compute(big);
    pe.release(r);
    expectPEError(() => pe.release(r), 'result', 'not released yet');        // twice
    expectPEError(() => pe.release(r.data), 'result', 'empty');
    const foreign = other.compute(big);
    expectPEError(() => pe.release(foreign), 'result');                     // another module's
    expect(foreign.data.length).toBe(128 * 128);
    other.release(foreign);
    const mine = new Float32Array(128 * 128);
    expectPEError(() => pe.release(mine), 'result', 'did not return');
    expect(mine.length).toBe(128 * 128);
    // computed into the caller's own array: that array stays the caller's
    const into = pe.compute(big, { reuse: mine });
    expect(into.data).toBe(mine);
    expectPEError(() => pe.release(into), 'result');
    expect(mine.length).toBe(128 * 128);
    for (const bad of [undefined, null, 42, 'data', {}, { data: [1, 2] }]) expectPEError(() => pe.release(bad), 'result');
    // the module is still fine
    expect(pe.compute(small).data[1]).toBe(1);
  });
});

// options.borrow: the explicit exception — `data` is the kernel's own output in WebAssembly
// memory, no copy, valid until the next call of the module.
describe('pe.compute(spec, { borrow: true })', () => {
  let pe;
  beforeAll(async () => {
    pe = await createPE();
  });

  it('returns the same values without a copy, marked borrowed, in the module\'s memory', () => {
    const owned = pe.compute(big);
    const b = pe.compute(big, { borrow: true });
    expect(b.borrowed).toBe(true);
    expect(owned.borrowed).toBeUndefined();
    expect(b.shape).toEqual([128, 128]);
    expect(Array.from(b.data)).toEqual(Array.from(owned.data));
    // not the caller's memory: it cannot be given as reuse, nor released
    expectPEError(() => pe.compute(big, { reuse: b.data }), 'reuse', 'WebAssembly memory');
    expectPEError(() => pe.release(b), 'result');
    expectPEError(() => pe.release(b.data), 'result');
  });

  it('is valid until the next call: the next compute may write over it, an owned result never changes', () => {
    const owned = pe.compute(big);
    const copy = Float32Array.from(owned.data);
    const b = pe.compute(big, { borrow: true });
    const before = Float32Array.from(b.data);
    pe.compute(big500, { borrow: true });
    // the borrowed view now shows whatever the module put there (here: the next output)
    expect(b.data.length === 0 || !b.data.every((v, i) => v === before[i])).toBe(true);
    expect(owned.data).toEqual(copy);
  });

  it('draws through pe.heatmap without copying in, and its other arrays are lent as usual', () => {
    const view = { rows: 128, cols: 128, width: 16, height: 16 };
    const expected = pe.heatmap(pe.compute(big).data, view);
    const b = pe.compute(big, { borrow: true });
    expect(Array.from(pe.heatmap(b.data, view))).toEqual(Array.from(expected));
    const att = pe.compute({ kind: 'attention', length: 128, heads: 1, dim: 16 }, { borrow: true });
    expect(att.borrowed).toBe(true);
    pe.release(att);   // entropy and local_mass are copies, lent as usual
    expect(att.entropy.length).toBe(0);
  });

  it('refuses a non-boolean borrow, and borrow with reuse, naming borrow', () => {
    expectPEError(() => pe.compute(big, { borrow: 1 }), 'borrow', 'true or false');
    expectPEError(() => pe.compute(big, { borrow: true, reuse: new Float32Array(128 * 128) }), 'borrow', 'exclude');
    expect(pe.compute(big, { borrow: false }).borrowed).toBeUndefined();
  });
});
