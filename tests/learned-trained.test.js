// The trained tables of the Learn path's learned step (web/pages/learn/trained-table.js) are what
// scripts/train-learned-table.js says they are: its spec, steps and seeds, tables of the Arena's
// [positions + 1, d_model] shape, and the start of each training reproduces bit for bit in this
// build (the first CHECKED_STEPS losses; `node scripts/train-learned-table.js --check` retrains
// the whole of it, about a minute and a half per seed).
//   npx vitest run tests/learned-trained.test.js
import { describe, it, expect, beforeAll } from 'vitest';
import { createPE } from '../web/pe.js';
import { TRAINED, trainedTable } from '../web/pages/learn/trained-table.js';
import { CHECKED_STEPS, SEEDS, SPEC, STEPS, train } from '../scripts/train-learned-table.js';

const losses = (b64) => new Float32Array(Uint8Array.from(Buffer.from(b64, 'base64')).buffer);

describe('the Learn path\'s trained position tables', () => {
  let pe;
  beforeAll(async () => {
    pe = await createPE();
  });

  it('are the script\'s spec, steps and seeds, with finite tables of the Arena\'s shape', () => {
    expect(TRAINED.spec).toEqual(JSON.parse(JSON.stringify(SPEC)));
    expect(TRAINED.steps).toBe(STEPS);
    expect(TRAINED.seeds.map((s) => s.seed)).toEqual(SEEDS);
    // An encoder's input is BOS x1 … xn: n + 1 positions.
    expect(TRAINED.shape).toEqual([SPEC.train_length + 1, SPEC.d_model]);
    TRAINED.seeds.forEach((s, i) => {
      const t = trainedTable(i);
      expect(t.length).toBe(TRAINED.shape[0] * TRAINED.shape[1]);
      expect(t.every(Number.isFinite)).toBe(true);
      expect(s.accuracy).toBeGreaterThan(0.9);   // the task was learned: a table of a working model
    });
  });

  // The first RETRAINED of the CHECKED_STEPS losses the module keeps (a few seconds in all).
  const RETRAINED = 4;
  it.each(SEEDS.map((seed, i) => [seed, i]))('seed %i: the first training steps reproduce bit for bit', (seed, i) => {
    expect(losses(TRAINED.seeds[i].first_losses).length).toBe(CHECKED_STEPS);
    const run = train(pe, seed, RETRAINED, { evaluate: false });
    expect(Array.from(run.first)).toEqual(Array.from(losses(TRAINED.seeds[i].first_losses).subarray(0, RETRAINED)));
  });
});
