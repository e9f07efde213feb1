// The arena trainer (pe.trainer, web/api/kernels/arena.js, c/arena_*.c) in both WASM builds:
//   1. gradients against the independent PyTorch float64 model (tests/fixtures/ref_arena.py) for
//      the same parameters and batch, every encoding, causal and not. Norm: per parameter tensor,
//      the relative L2 error ||g − g_ref||₂ / ||g_ref||₂, at most 1e-5 (the worst is printed);
//   2. three AdamW steps against torch.optim.AdamW on given gradients: max |p − p_ref| ≤ 1e-6;
//   3. determinism: the same spec and seed give bit-identical losses, a fresh trainer too; the two
//      builds agree bit for bit as well (the SIMD loops do the scalar reference's operations);
//   4. the API: shapes of attention/positionTable, evaluate's fields, free();
//   5. bad specs and options throw a PEError naming the field;
//   6. train_length_min: a fixed length trains bit for bit as before it existed
//      (fixtures/recorded/arena_fixed_length_losses.json), padded batches match PyTorch (the padded_* and
//      kback_* gradient cases), kback scores y_3 … y_n without wrapping.
// No timing here: speed is bench/arena.js.
import { readFileSync } from 'node:fs';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { loadManifest, readFixture } from './helpers/fixtures.js';
import { BUILDS, peFor, expectPEError } from './helpers/pe.js';

const manifest = loadManifest('arena');
const gradientCases = manifest.cases.filter((c) => c.type === 'gradients');
const adamwCases = manifest.cases.filter((c) => c.type === 'adamw');

/** Places the fixture's tensors (concatenated, no padding) at the trainer's offsets. */
function toTrainerLayout(trainer, testCase, values, at = 0) {
  const layout = new Map(trainer.tensors().map((t) => [t.name, t]));
  const out = new Float32Array(trainer.paramCount);
  for (const [name, shape] of testCase.tensors) {
    const size = shape.reduce((a, b) => a * b, 1);
    const t = layout.get(name);
    expect(t, `tensor ${name}`).toBeDefined();
    expect(t.shape.reduce((a, b) => a * b, 1), name).toBe(size);
    for (let k = 0; k < size; k++) out[t.offset + k] = values[at + k];
    at += size;
  }
  return out;
}

function tensorSize(testCase) {
  return testCase.tensors.reduce((total, [, shape]) => total + shape.reduce((a, b) => a * b, 1), 0);
}

describe.each(BUILDS)('arena trainer, $name build', ({ name, simd }) => {
  let pe;
  const worst = { grad: 0, gradAt: '', loss: 0, adamw: 0 };
  beforeAll(async () => {
    pe = await peFor(simd);
  });
  afterAll(() => {
    console.log(`arena ${name}: worst gradient relative L2 error ${worst.grad.toExponential(2)} (${worst.gradAt}), `
      + `worst loss relative error ${worst.loss.toExponential(2)}, worst AdamW abs error ${worst.adamw.toExponential(2)}`);
  });

  it('loads the requested build', () => {
    expect(pe.simd).toBe(simd);
  });

  it.each(gradientCases.map((c) => [c.name, c]))('gradients match PyTorch float64: %s', (_, testCase) => {
    const t = pe.trainer(testCase.spec);
    try {
      t.setParams(toTrainerLayout(t, testCase, readFixture('arena', testCase.params)));
      const { loss, grads } = t._gradients(testCase.tokens.flat(), testCase.targets.flat());
      const lossErr = Math.abs(loss - testCase.loss) / Math.abs(testCase.loss);
      worst.loss = Math.max(worst.loss, lossErr);
      expect(lossErr, 'loss').toBeLessThanOrEqual(testCase.tolerance.loss_rel);
      const expected = readFixture('arena', testCase.grads);
      const layout = new Map(t.tensors().map((x) => [x.name, x]));
      let at = 0;
      for (const [tensor, shape] of testCase.tensors) {
        const size = shape.reduce((a, b) => a * b, 1);
        const { offset } = layout.get(tensor);
        let diff = 0;
        let norm = 0;
        for (let k = 0; k < size; k++) {
          const e = expected[at + k];
          diff += (grads[offset + k] - e) ** 2;
          norm += e ** 2;
        }
        at += size;
        const rel = norm > 0 ? Math.sqrt(diff / norm) : Math.sqrt(diff);
        if (rel > worst.grad) { worst.grad = rel; worst.gradAt = `${testCase.name} ${tensor}`; }
        expect(rel, `${testCase.name} ${tensor}`).toBeLessThanOrEqual(testCase.tolerance.grad_rel_l2);
      }
    } finally {
      t.free();
    }
  });

  it.each(adamwCases.map((c) => [c.name, c]))('AdamW steps match torch.optim.AdamW: %s', (_, testCase) => {
    const t = pe.trainer(testCase.spec);
    try {
      t.setParams(toTrainerLayout(t, testCase, readFixture('arena', testCase.params)));
      const steps = readFixture('arena', testCase.steps);
      const size = tensorSize(testCase);
      for (let s = 0; s < 3; s++) {
        t._adamw(toTrainerLayout(t, testCase, steps, s * size));
        const want = toTrainerLayout(t, testCase, steps, (3 + s) * size);
        const got = t.params();
        let err = 0;
        for (const { offset, shape } of t.tensors()) {
          const n = shape.reduce((a, b) => a * b, 1);
          for (let k = offset; k < offset + n; k++) err = Math.max(err, Math.abs(got[k] - want[k]));
        }
        worst.adamw = Math.max(worst.adamw, err);
        expect(err, `step ${s + 1}`).toBeLessThanOrEqual(testCase.tolerance.abs);
      }
    } finally {
      t.free();
    }
  });

  it('is deterministic: same spec and seed, bit-identical losses', () => {
    const spec = { kind: 'arena', encoding: { kind: 't5' }, layers: 1, d_model: 16, heads: 2, train_length: 6, batch: 8, seed: 7 };
    const a = pe.trainer(spec);
    const b = pe.trainer(spec);
    const c = pe.trainer({ ...spec, seed: 8 });
    try {
      const la = Array.from(a.step(5)).concat(Array.from(a.step(3)));
      const lb = Array.from(b.step(8));
      expect(la).toEqual(lb);
      expect(Array.from(c.step(8))).not.toEqual(lb);
      expect(a.steps).toBe(8);
      expect(a.evaluate(6, { samples: 32, seed: 3 })).toEqual(b.evaluate(6, { samples: 32, seed: 3 }));
      expect(Array.from(a.params())).toEqual(Array.from(b.params()));
    } finally {
      a.free();
      b.free();
      c.free();
    }
  });

  it('a fixed length (train_length_min absent or = train_length) trains as before train_length_min existed, bit for bit', () => {
    // tests/fixtures/recorded/arena_fixed_length_losses.json: 20 losses and an evaluation per spec, recorded
    // from the build before train_length_min (and the padding it brings) existed.
    const { cases } = JSON.parse(readFileSync(new URL('./fixtures/recorded/arena_fixed_length_losses.json', import.meta.url), 'utf8'));
    for (const { spec, losses, evaluate } of cases) {
      for (const s of [spec, { ...spec, train_length_min: spec.train_length }]) {
        const t = pe.trainer(s);
        try {
          expect(Array.from(t.step(20)), JSON.stringify(s)).toEqual(losses);
          expect(t.evaluate(5, { samples: 16, seed: 2 })).toEqual(evaluate);
        } finally {
          t.free();
        }
      }
    }
  });

  it('trains on a range of lengths: other losses than one fixed length, finite, deterministic', () => {
    const spec = { kind: 'arena', layers: 1, d_model: 16, heads: 2, symbols: 8, train_length: 8, batch: 4, seed: 1 };
    for (const causal of [true, false]) {
      const fixed = pe.trainer({ ...spec, causal });
      const a = pe.trainer({ ...spec, causal, train_length_min: 1 });
      const b = pe.trainer({ ...spec, causal, train_length_min: 1 });
      try {
        const la = Array.from(a.step(6));
        expect(la.every(Number.isFinite)).toBe(true);
        expect(la).toEqual(Array.from(b.step(6)));
        expect(la).not.toEqual(Array.from(fixed.step(6)));
        expect(a.sequenceLength).toBe(fixed.sequenceLength);   // padded to train_length
      } finally {
        fixed.free();
        a.free();
        b.free();
      }
    }
  });

  it('kback scores y_3 … y_n only (no wrap): evaluation at length 3 counts one target per example', () => {
    const t = pe.trainer({ task: 'kback', train_length: 4, batch: 2, layers: 1, d_model: 8, heads: 2 });
    try {
      // token_accuracy is a fraction of samples·(n − 2) targets: at n = 3 one per example
      const e = t.evaluate(3, { samples: 7 });
      expect(Number.isInteger(e.token_accuracy * 7)).toBe(true);
      expect(e.accuracy).toBe(e.token_accuracy);
      expectPEError(() => t.evaluate(2), 'length', 'length must be an integer in [3, 256] for kback');
      expect(t.attention(2).shape).toEqual([1, 2, 5, 5]);   // the weights need no target
    } finally {
      t.free();
    }
  });

  it('gives the same bits in both builds', async () => {
    const other = await peFor(!simd);
    const spec = { kind: 'arena', encoding: { kind: 'rope' }, d_model: 24, heads: 3, symbols: 7, train_length: 5, batch: 5, seed: 3 };
    const a = pe.trainer(spec);
    const b = other.trainer(spec);
    try {
      expect(Array.from(a.step(4))).toEqual(Array.from(b.step(4)));
      expect(Array.from(a.params())).toEqual(Array.from(b.params()));
    } finally {
      a.free();
      b.free();
    }
  });

  it('returns the documented shapes', () => {
    const t = pe.trainer({ kind: 'arena', encoding: { kind: 'learned' }, causal: false, task: 'sort', train_length: 6, batch: 4 });
    try {
      expect(t.spec).toEqual({ kind: 'arena', task: 'sort', encoding: { kind: 'learned' }, causal: false, layers: 2, d_model: 32, heads: 4, symbols: 16, train_length: 6, train_length_min: 6, batch: 4, lr: 1e-3, weight_decay: 0, rope_scaling: null, seed: 0 });
      const losses = t.step(3);
      expect(losses).toBeInstanceOf(Float32Array);
      expect(losses.length).toBe(3);
      expect(losses.every(Number.isFinite)).toBe(true);
      const table = t.positionTable();
      expect(table.shape).toEqual([7, 32]);
      expect(table.data.length).toBe(7 * 32);
      const att = t.attention(9, { seed: 2 });
      expect(att.shape).toEqual([2, 4, 10, 10]);
      expect(att.tokens.length).toBe(10);
      expect(att.tokens[0]).toBe(0);
      for (let row = 0; row < 2 * 4 * 10; row++) {
        const sum = att.data.subarray(row * 10, row * 10 + 10).reduce((x, y) => x + y, 0);
        expect(Math.abs(sum - 1)).toBeLessThan(1e-5);
      }
      const e = t.evaluate(12, { samples: 10 });   // longer than training: the last row is reused
      for (const key of ['accuracy', 'token_accuracy', 'loss']) expect(Number.isFinite(e[key]), key).toBe(true);
      expect(e.accuracy).toBeGreaterThanOrEqual(0);
      expect(e.token_accuracy).toBeLessThanOrEqual(1);
    } finally {
      t.free();
    }
    const r = pe.trainer({ kind: 'arena', train_length: 4, batch: 2 });
    try {
      expect(r.positionTable()).toBeNull();
      const att = r.attention(3);
      expect(att.shape).toEqual([2, 4, 7, 7]);
      expect(att.data[1]).toBe(0);   // causal: key 1 is masked for query 0
      const plain = r.evaluate(8, { samples: 16 });
      const scaled = r.evaluate(8, { samples: 16, rope_scaling: { rope_type: 'yarn', factor: 2 } });
      expect(scaled.loss).not.toBe(plain.loss);
      // factor 1 leaves linear (PI) and ntk's frequencies as they are: the same bits
      for (const rope_type of ['linear', 'ntk']) {
        expect(r.evaluate(8, { samples: 16, rope_scaling: { rope_type, factor: 1 } }), rope_type).toEqual(plain);
        expect(r.evaluate(8, { samples: 16, rope_scaling: { rope_type, factor: 4 } }).loss, rope_type).not.toBe(plain.loss);
      }
      const a1 = r.attention(3, { rope_scaling: { rope_type: 'linear', factor: 2 } });
      expect(a1.shape).toEqual([2, 4, 7, 7]);
      expect(Array.from(a1.data)).not.toEqual(Array.from(att.data));
    } finally {
      r.free();
    }
    expectPEError(() => r.step(1), 'trainer');
  });

  it('refuses bad specs and options, naming the field', () => {
    const bad = [
      [{ kind: 'rope' }, 'kind'],
      [{ task: 'shuffle' }, 'task'],
      [{ encoding: { kind: 'shaw' } }, 'encoding.kind'],
      [{ encoding: { kind: 'rope', base: 500 } }, 'encoding.base'],
      [{ causal: 1 }, 'causal'],
      [{ layers: 0 }, 'layers'],
      [{ d_model: 1000 }, 'd_model'],
      [{ heads: 3 }, 'heads'],
      [{ d_model: 12, heads: 4 }, 'heads'],
      [{ symbols: 65 }, 'symbols'],
      [{ train_length: 0.5 }, 'train_length'],
      [{ train_length_min: 0 }, 'train_length_min'],
      [{ train_length_min: 1.5 }, 'train_length_min'],
      [{ train_length_min: '4' }, 'train_length_min'],
      [{ train_length: 8, train_length_min: 9 }, 'train_length_min'],
      [{ train_length_min: 17 }, 'train_length_min'],   // above the default train_length 16
      [{ task: 'kback', train_length: 2 }, 'train_length'],   // nothing would be scored
      [{ batch: 0 }, 'batch'],
      [{ lr: 0 }, 'lr'],
      [{ lr: Number.NaN }, 'lr'],
      [{ weight_decay: -1 }, 'weight_decay'],
      [{ seed: -1 }, 'seed'],
      [{ sead: 1 }, 'sead'],
      [{ layers: 8, d_model: 256, batch: 256, train_length: 64 }, 'batch'],
    ];
    for (const [spec, param] of bad) expectPEError(() => pe.trainer(spec), param, undefined, JSON.stringify(spec));
    expectPEError(() => pe.trainer(null), 'spec');
    const t = pe.trainer({ train_length: 3, batch: 2, encoding: { kind: 'alibi' } });
    try {
      expectPEError(() => t.step(0), 'n');
      expectPEError(() => t.evaluate(0), 'length');
      expectPEError(() => t.evaluate(300), 'length');
      expectPEError(() => t.evaluate(4, { samples: 0 }), 'samples');
      expectPEError(() => t.evaluate(4, { seed: 1.5 }), 'seed');
      expectPEError(() => t.evaluate(4, { samplez: 3 }), 'samplez');
      expectPEError(() => t.evaluate(4, { rope_scaling: { rope_type: 'linear', factor: 2 } }), 'rope_scaling');
      expectPEError(() => t.attention(4, { rope_scaling: { rope_type: 'dynamic', factor: 2 } }), 'rope_scaling.rope_type');
      expectPEError(() => t.setParams(new Float32Array(3)), 'params');
      const p = t.params();
      p[5] = Number.NaN;
      expectPEError(() => t.setParams(p), 'params');
      expect(t.step(1).length).toBe(1);   // still usable
    } finally {
      t.free();
    }
    const r = pe.trainer({ train_length: 3, batch: 2 });
    try {
      expectPEError(() => r.evaluate(4, { rope_scaling: { rope_type: 'ntk', factor: 0.5 } }), 'rope_scaling.factor');
    } finally {
      r.free();
    }
  });

  it('setParams names the tensor and the element of a value that is not finite or too large', () => {
    const t = pe.trainer({ layers: 1, d_model: 8, heads: 2, symbols: 4, train_length: 3, batch: 2 });
    try {
      const layout = new Map(t.tensors().map((x) => [x.name, x]));
      const qkv = layout.get('h0.qkv.weight');   // [8, 24]
      const p = t.params();
      p[qkv.offset + 24 + 5] = Number.NaN;
      expectPEError(() => t.setParams(p), 'params', 'h0.qkv.weight[1, 5]) must be finite, got NaN');
      p[qkv.offset + 24 + 5] = 0;
      p[layout.get('lnf.bias').offset + 2] = -Infinity;
      expectPEError(() => t.setParams(p), 'params', 'lnf.bias[2]) must be finite, got -Infinity');
      p[layout.get('lnf.bias').offset + 2] = 0;
      p[layout.get('wte').offset] = 2 ** 100;   // finite, but the forward pass would overflow
      expectPEError(() => t.setParams(p), 'params', 'wte[0, 0]) must be in [-10000, 10000], got 1.2676506002282294e+30');
      p[layout.get('wte').offset] = 1e4;
      t.setParams(p);
      expect(Number.isFinite(t.evaluate(3, { samples: 4 }).loss)).toBe(true);
      // not a Float32Array (a Proxy around one, another typed array, a detached one)
      expectPEError(() => t.setParams(new Proxy(p, {})), 'params', 'Float32Array');
      expectPEError(() => t.setParams(new Float64Array(p)), 'params', 'Float32Array');
      const gone = new Float32Array(p);
      structuredClone(gone.buffer, { transfer: [gone.buffer] });
      expectPEError(() => t.setParams(gone), 'params', 'Float32Array');
    } finally {
      t.free();
    }
  });

  it('never returns NaN from a forward pass that is not finite: evaluate, attention and step name params', () => {
    const t = pe.trainer({ layers: 1, d_model: 8, heads: 2, symbols: 4, train_length: 3, batch: 2, lr: 0.5 });
    try {
      // Infinite gradients make AdamW's update ∞/∞ = NaN: the parameters stop being finite.
      t._adamw(new Float32Array(t.paramCount).fill(Infinity));
      expect(t.params().some(Number.isNaN)).toBe(true);
      expectPEError(() => t.evaluate(3, { samples: 4 }), 'params', /evaluate: the parameters are not finite \(params\[\d+\] \(wte\[0, 0\]\) is NaN\)/);
      expectPEError(() => t.attention(3), 'params', 'attention: the parameters are not finite');
      const e = expectPEError(() => t.step(2), 'params', 'training cannot start: the parameters are not finite');
      expect(e.message).not.toContain('lr');
      t.setParams(new Float32Array(t.paramCount));   // all zero: finite again
      expect(Number.isFinite(t.evaluate(3, { samples: 4 }).loss)).toBe(true);
    } finally {
      t.free();
    }
  });

  it('bounds the cost of one step(n) call and says it (t.cost, t.maxSteps)', () => {
    const small = pe.trainer({ train_length: 4, batch: 2 });
    try {
      // 3·(2·B·T·(12·L·C² + C·V) + 4·L·B·T²·C) with B 2, T 9, L 2, C 32, V 18
      expect(small.cost).toBe(3 * (2 * 2 * 9 * (12 * 2 * 32 * 32 + 32 * 18) + 4 * 2 * 2 * 81 * 32));
      expect(small.maxSteps).toBe(Math.min(100000, Math.floor(1e12 / small.cost)));
    } finally {
      small.free();
    }
    // the largest accepted model: about 1.7e11 operations a step, 5 per call
    const big = pe.trainer({ layers: 8, d_model: 256, heads: 4, symbols: 64, train_length: 64, batch: 32 });
    try {
      expect(big.maxSteps).toBe(5);
      expectPEError(() => big.step(6), 'n', 'n must be at most 5 for this model');
      expect(big.steps).toBe(0);
    } finally {
      big.free();
    }
  });

  it('reads the spec and the options once, and hostile objects become PEErrors', () => {
    const throwing = { kind: 'arena', get layers() { throw new Error('boom'); } };
    expectPEError(() => pe.trainer(throwing), 'layers', 'layers could not be read: boom');
    const { proxy, revoke } = Proxy.revocable({ kind: 'arena' }, {});
    revoke();
    expectPEError(() => pe.trainer(proxy), 'spec', 'could not be read');
    const keys = new Proxy({}, { ownKeys() { throw new Error('no keys'); } });
    expectPEError(() => pe.trainer(keys), 'spec', 'no keys');
    // a getter that answers differently on each read cannot validate as one thing and build another
    let reads = 0;
    const flip = { get layers() { reads++; return reads === 1 ? 1 : 100; }, train_length: 3, batch: 2 };
    const t = pe.trainer(flip);
    try {
      expect(t.spec.layers).toBe(1);
      expect(reads).toBe(1);
      expectPEError(() => t.evaluate(3, { get samples() { throw new Error('nope'); } }), 'options.samples', 'nope');
      const o = Proxy.revocable({}, {});
      o.revoke();
      expectPEError(() => t.evaluate(3, o.proxy), 'options', 'could not be read');
      expectPEError(() => t.attention(3, new Proxy({}, { ownKeys() { throw new Error('x'); } })), 'options');
      expectPEError(() => t.attention(3, { rope_scaling: { get rope_type() { throw new Error('y'); } } }), 'options.rope_scaling.rope_type');
    } finally {
      t.free();
    }
  });
});
