// Fine-tuning at another length with RoPE scaling (t.finetune, spec.rope_scaling; c/arena.h
// pe_arena_fork), in both WASM builds:
//   1. a fine-tune at the same lengths with no scaling continues exactly as the trainer itself
//      (the same losses, bit for bit): parameters, AdamW state and the step count carry over;
//   2. right after a fine-tune with a scaling, the new trainer evaluates as the old one does with
//      that scaling at evaluation, and with linear ×1 as the old one unscaled; the old trainer is
//      unchanged; spec and pretrained say what it is and where it came from (copies);
//   3. spec.rope_scaling in pe.trainer trains with the scaling from step 0 (= a fine-tune of the
//      fresh trainer at its own lengths);
//   4. bad options throw a PEError naming the field, with nothing leaked.
// The C side (the training tables equal the evaluation's scaled ones) is tests/native/test_arena_fork.c.
import { describe, it, expect, beforeAll } from 'vitest';
import { BUILDS, peFor, expectPEError, expectRejected } from './helpers/pe.js';

const SMALL = { task: 'reverse', layers: 1, d_model: 16, heads: 2, symbols: 6, train_length: 6, batch: 8, lr: 3e-3, seed: 4 };
const PI = { rope_type: 'linear', factor: 2 };

describe.each(BUILDS)('t.finetune, $name build', ({ simd }) => {
  let pe;
  beforeAll(async () => {
    pe = await peFor(simd);
  });

  it('at the same lengths with no scaling, continues bit for bit', () => {
    for (const spec of [SMALL, { ...SMALL, encoding: { kind: 'learned' }, train_length_min: 2 }, { ...SMALL, encoding: { kind: 't5' }, causal: false }]) {
      const a = pe.trainer(spec);
      const b = pe.trainer(spec);
      a.step(7);
      b.step(7);
      const f = a.finetune({ train_length: spec.train_length, train_length_min: spec.train_length_min });
      try {
        expect(f.steps).toBe(7);
        expect(Array.from(f.step(9)), spec.encoding?.kind ?? 'rope').toEqual(Array.from(b.step(9)));
        expect(Array.from(f.params())).toEqual(Array.from(b.params()));
      } finally {
        a.free();
        b.free();
        f.free();
      }
    }
  });

  it('evaluates as the scaled evaluation of the trainer it came from; the source is unchanged', () => {
    const t = pe.trainer(SMALL);
    t.step(20);
    const before = t.params();
    const o = { samples: 32, seed: 3 };
    const at2 = (tr, scaling) => tr.evaluate(12, { ...o, rope_scaling: scaling });
    const f = t.finetune({ train_length: 12, rope_scaling: PI });
    try {
      expect(f.sequenceLength).toBe(25);
      expect(f.evaluate(12, o)).toEqual(at2(t, PI));
      expect(at2(f, { rope_type: 'linear', factor: 1 })).toEqual(t.evaluate(12, o));
      expect(at2(f, { rope_type: 'ntk', factor: 2 })).toEqual(at2(t, { rope_type: 'ntk', factor: 2 }));
      expect(f.attention(12, { seed: 1 }).data).toEqual(t.attention(12, { seed: 1, rope_scaling: PI }).data);
      expect(f.evaluate(12, o)).not.toEqual(t.evaluate(12, o));
      expect(f.spec).toMatchObject({ train_length: 12, train_length_min: 12, rope_scaling: PI, task: 'reverse', seed: 4 });
      expect(f.pretrained).toEqual({ spec: t.spec, steps: 20 });
      f.pretrained.spec.train_length = 99;
      expect(t.spec.train_length).toBe(6);
      f.step(5);
      expect(f.steps).toBe(25);
      expect(t.steps).toBe(20);
      expect(Array.from(t.params())).toEqual(Array.from(before));
      expectPEError(() => f.finetune({ train_length: 24 }), 'trainer', 'already fine-tuned');
    } finally {
      t.free();
      f.free();
    }
  });

  it('spec.rope_scaling trains with the scaling from the first step', () => {
    const spec = { ...SMALL, rope_scaling: { rope_type: 'yarn', factor: 3 } };
    const a = pe.trainer(spec);
    const b0 = pe.trainer(SMALL);
    const b = b0.finetune({ train_length: 6, rope_scaling: spec.rope_scaling });
    try {
      expect(a.spec.rope_scaling).toEqual({ rope_type: 'yarn', factor: 3 });
      expect(a.pretrained).toBe(null);
      const losses = Array.from(a.step(5));
      expect(losses).toEqual(Array.from(b.step(5)));
      const plain = pe.trainer(SMALL);
      expect(Array.from(plain.step(5)), 'unscaled training differs').not.toEqual(losses);
      plain.free();
    } finally {
      a.free();
      b0.free();
      b.free();
    }
  });

  it('bad options name the field', () => {
    const t = pe.trainer(SMALL);
    const alibi = pe.trainer({ ...SMALL, encoding: { kind: 'alibi' } });
    try {
      expectRejected(pe, () => t.finetune(), 'options', 'must be an object');
      expectRejected(pe, () => t.finetune({}), 'train_length', 'required');
      expectRejected(pe, () => t.finetune({ train_length: 65 }), 'train_length', 'integer in [1, 64]');
      expectRejected(pe, () => t.finetune({ train_length: 12, train_length_min: 13 }), 'train_length_min', 'train_length = 12');
      expectRejected(pe, () => t.finetune({ train_length: 12, rope_scaling: { rope_type: 'dynamic', factor: 2 } }), 'rope_scaling.rope_type');
      expectRejected(pe, () => t.finetune({ train_length: 12, rope_scaling: { rope_type: 'linear', factor: 0.5 } }), 'rope_scaling.factor', '[1, 1024]');
      expectRejected(pe, () => t.finetune({ train_length: 12, steps: 3 }), 'steps', 'unknown option');
      expectRejected(pe, () => alibi.finetune({ train_length: 12, rope_scaling: PI }), 'rope_scaling', 'rope encoding only');
      expectPEError(() => pe.trainer({ ...SMALL, encoding: { kind: 'alibi' }, rope_scaling: PI }), 'rope_scaling', 'rope encoding only');
      expectPEError(() => pe.trainer({ ...SMALL, d_model: 4, rope_scaling: { rope_type: 'ntk', factor: 2 } }), 'rope_scaling', 'at least 4');
      const f = alibi.finetune({ train_length: 12 });
      expect(f.spec.rope_scaling).toBe(null);
      f.free();
      t.free();
      expectPEError(() => t.finetune({ train_length: 12 }), 'trainer', 'freed');
    } finally {
      t.free();
      alibi.free();
    }
  });
});

describe('the fine-tuning experiment\'s strings', () => {
  it('has the same keys in English and Korean', async () => {
    const { default: strings } = await import('../web/pages/arena/finetune-strings.js');
    expect(Object.keys(strings.ko).sort()).toEqual(Object.keys(strings.en).sort());
  });
});
