// Training on a range of lengths, and kback without wrap (pe.trainer's train_length_min; the
// Arena's contract in c/arena.h and web/api/schema/arena.js). Prints two tables, each figure the
// mean [min–max] over seeds 0, 1, 2 (evaluation: 512 examples, evaluation seed 1):
//
//   1. copy, rope, decoder (the contract's default model: 2 layers, d_model 32, 4 heads, 16
//      symbols, batch 32, lr 1e-3), train_length 16, trained 1000 steps with train_length_min 1
//      (lengths uniform in 1 … 16) or 16 (one fixed length); token accuracy and exact match
//      (accuracy) at n = 8 and 12, shorter than the training length.
//   2. kback (y_j = x_{j−2}, j ≥ 3; no wrap), t5, encoder, the page's settings (lr 3e-3, 1000 steps,
//      train_length 16), token accuracy at 16 and at 2× (n = 32).
//
//   node bench/arena-lengths.js            (about a minute with the SIMD build)
//   node bench/arena-lengths.js --steps 400
// Deterministic: the same numbers on every run and machine (training is bit-reproducible).
import { createPE } from '../web/pe.js';

const args = process.argv.slice(2);
const STEPS = Number(args[args.indexOf('--steps') + 1]) || 1000;
const SEEDS = [0, 1, 2];
const EVAL = { samples: 512, seed: 1 };

const pe = await createPE({ simd: true });

/** mean [min–max] of the values, to `digits` decimals. */
function summary(values, digits = 3) {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return `${mean.toFixed(digits)} [${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}]`;
}

/** Trains spec (with each seed) STEPS steps; returns per seed { [length]: evaluation }. */
function run(spec, lengths) {
  return SEEDS.map((seed) => {
    const t = pe.trainer({ ...spec, seed });
    try {
      for (let done = 0; done < STEPS;) {
        const n = Math.min(t.maxSteps, STEPS - done);
        t.step(n);
        done += n;
      }
      return Object.fromEntries(lengths.map((n) => [n, t.evaluate(n, EVAL)]));
    } finally {
      t.free();
    }
  });
}

function table(title, header, rows) {
  console.log(`\n${title}`);
  const widths = header.map((h, k) => Math.max(h.length, ...rows.map((r) => r[k].length)));
  const line = (cells) => cells.map((c, k) => c.padEnd(widths[k])).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
}

const started = performance.now();
const COPY = { kind: 'arena', task: 'copy', encoding: { kind: 'rope' }, causal: true, train_length: 16 };
const copyRows = [];
for (const min of [1, 16]) {
  const results = run({ ...COPY, train_length_min: min }, [8, 12, 16]);
  for (const n of [8, 12, 16]) {
    copyRows.push([`${min} … 16`, String(n), summary(results.map((r) => r[n].token_accuracy)), summary(results.map((r) => r[n].accuracy))]);
  }
}
table(`copy, rope, decoder, train_length 16, ${STEPS} steps, lr 1e-3 (mean [min–max] over seeds ${SEEDS.join(', ')})`,
  ['trained on n =', 'eval n', 'token accuracy', 'exact match'], copyRows);

const KBACK = { kind: 'arena', task: 'kback', encoding: { kind: 't5' }, causal: false, train_length: 16, lr: 3e-3 };
const kback = run(KBACK, [16, 32]);
table(`kback (no wrap), t5, encoder, train_length 16, ${STEPS} steps, lr 3e-3 (mean [min–max] over seeds ${SEEDS.join(', ')})`,
  ['eval n', 'token accuracy', 'exact match'],
  [16, 32].map((n) => [String(n), summary(kback.map((r) => r[n].token_accuracy)), summary(kback.map((r) => r[n].accuracy))]));
console.log(`\n(${((performance.now() - started) / 1000).toFixed(0)} s)`);
