#!/usr/bin/env node
// Trains the learned position tables that the Learn path's "learned" step shows beside an
// untrained one (web/pages/learn/trained-table.js, written by this script): the Arena's trainer
// (c/arena_train.c, the same WebAssembly the page runs) on its k-back task, encoder, learned
// positions, at 64 positions and d_model 64, for three seeds. Same spec and seed ⇒ the same bits
// in the same build, so the tables are reproducible: `node scripts/train-learned-table.js` writes
// the module again, `--check` retrains and compares with the module (exit 1 on a difference).
//   node scripts/train-learned-table.js [--check]     (about a minute per seed on one core)
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPE } from '../web/pe.js';

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const OUT = path.join(ROOT, 'web/pages/learn/trained-table.js');
export const SPEC = Object.freeze({
  kind: 'arena', task: 'kback', encoding: { kind: 'learned' }, causal: false, layers: 2, d_model: 64, heads: 4,
  symbols: 16, train_length: 64, train_length_min: 8, batch: 32, lr: 3e-3, weight_decay: 0,
});
export const STEPS = 1500;
export const SEEDS = [0, 1, 2];

/** Steps whose losses the module keeps: a test retrains them and compares bit for bit (seconds, not minutes). */
export const CHECKED_STEPS = 20;

/**
 * Trains one seed: { seed, table (Float32Array [rows, d]), shape, first (the first CHECKED_STEPS losses), accuracy, token_accuracy, loss }
 * (only { seed, first } without evaluate).
 */
export function train(pe, seed, steps = STEPS, { evaluate = true } = {}) {
  const t = pe.trainer({ ...SPEC, seed });
  try {
    const first = Array.from(t.step(Math.min(CHECKED_STEPS, steps)));
    for (let done = CHECKED_STEPS; done < steps; done += 100) t.step(Math.min(100, steps - done));
    if (!evaluate) return { seed, first };
    const ev = t.evaluate(SPEC.train_length, { samples: 256, seed: 12345 });
    const tab = t.positionTable();
    return { seed, table: Float32Array.from(tab.data), shape: tab.shape, first, ...ev };
  } finally {
    t.free();
  }
}

const b64 = (f32) => Buffer.from(f32.buffer, f32.byteOffset, f32.byteLength).toString('base64');

async function main() {
  const check = process.argv.includes('--check');
  const pe = await createPE();
  const runs = [];
  for (const seed of SEEDS) {
    const t0 = Date.now();
    const r = train(pe, seed);
    console.log(`seed ${seed}: ${STEPS} steps in ${((Date.now() - t0) / 1000).toFixed(1)} s, accuracy ${r.accuracy.toFixed(3)} (tokens ${r.token_accuracy.toFixed(3)}), table [${r.shape}]`);
    runs.push(r);
  }
  if (check) {
    const { TRAINED } = await import(OUT);
    const same = TRAINED.seeds.every((s, i) => s.data === b64(runs[i].table));
    console.log(same ? 'the module holds these tables, bit for bit' : 'the module differs from a fresh training');
    process.exit(same ? 0 : 1);
  }
  const fix = (v) => Number(v.toFixed(4));
  const body = {
    spec: SPEC, steps: STEPS, shape: runs[0].shape,
    seeds: runs.map((r) => ({
      seed: r.seed, accuracy: fix(r.accuracy), token_accuracy: fix(r.token_accuracy), loss: fix(r.loss),
      first_losses: b64(Float32Array.from(r.first)), data: b64(r.table),
    })),
  };
  writeFileSync(OUT, `// Written by scripts/train-learned-table.js (do not edit): learned position tables the Arena's
// trainer produced for ${SEEDS.length} seeds, ${STEPS} steps each (the spec below), as base64 float32
// [${runs[0].shape}] (row 0 is the BOS token's position), with the first ${CHECKED_STEPS} training losses
// (tests/learned-trained.test.js retrains those). \`node scripts/train-learned-table.js --check\` trains
// them all again and compares bit for bit.
export const TRAINED = ${JSON.stringify(body, null, 1).replace(/\n\s*/g, ' ')};

/** The table of seed index i as a Float32Array [rows, d]. */
export function trainedTable(i) {
  const bytes = Uint8Array.from(atob(TRAINED.seeds[i].data), (c) => c.charCodeAt(0));
  return new Float32Array(bytes.buffer);
}
`);
  console.log(`wrote ${path.relative(ROOT, OUT)}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) await main();
