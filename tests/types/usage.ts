// A typed use of the public API, compiled (never run) against web/pe.d.ts by `npm test`
// (scripts/test.js, layer "types": tsc --noEmit -p tests/types). A change to the API that breaks
// these lines, or a .d.ts that no longer says what the API does, fails the run.
import { createPE, PEError, KINDS, type ArenaEvaluation, type PE, type RopeSpec, type Spec, type Trainer } from '../../web/pe.js';

async function main(): Promise<void> {
  const pe: PE = await createPE({ simd: 'auto' });
  const table = pe.compute({ kind: 'sinusoidal', length: 128, dim: 64 });
  const first: number = table.data[0];
  const [rows, cols] = table.shape;
  const base: number = table.spec.base;
  const again = pe.compute({ kind: 'sinusoidal', length: 128, dim: 64, base: 500 }, { reuse: table.data });
  const same: boolean = again.data === table.data;
  pe.release(again);          // a result back to the module: its arrays read as empty from now on
  pe.release(pe.compute({ kind: 'alibi', length: 64, heads: 12 }).data);
  // @ts-expect-error release takes a result or one of its arrays, not a number
  pe.release(42);
  // @ts-expect-error release returns nothing
  const nothing: number = pe.release(table);
  const lent = pe.compute({ kind: 'sinusoidal', length: 128, dim: 64 }, { borrow: true });
  const borrowed: true = lent.borrowed;   // valid until the next call: copy what must outlive it
  const kept: Float32Array = lent.data.slice();
  // @ts-expect-error borrow is a boolean
  pe.compute({ kind: 'sinusoidal', length: 128, dim: 64 }, { borrow: 'yes' });

  const rope: RopeSpec = { kind: 'rope', length: 4, dim: 128, rope_scaling: { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 4096 } };
  const r = pe.compute(rope);
  const freqs: Float32Array = r.inv_freq;
  const af: number = r.attention_factor;
  const tables = pe.ropeTables(rope);
  const wrapped: Float32Array = pe.ropeView(rope, { transform: 'wrapped' }).data;
  const rotated = pe.applyRope(new Float32Array(4 * 128), rope, { heads: 1 });
  const resized = pe.resizeTable(new Float32Array(197 * 64), { height: 14, width: 14, dim: 64, resize_height: 24, resize_width: 24 });
  const resizedRows: number = resized.shape[0];

  const lab = pe.compute({ kind: 'rope_precision', length: 4096, dim: 128, recipe: { inv_freq_dtype: 'float32', position_dtype: 'bfloat16', phase_dtype: 'float32', table_dtype: 'float32' } });
  const labCos: Float32Array = lab.cos;
  const firstCollision: number = lab.first_collision;
  const bf16 = pe.compute({ kind: 'rope_precision', offset: 15962, length: 1, dim: 128, recipe: 'bf16_phase' });
  const worstRow: Float32Array = bf16.row_error;
  const sweep = pe.precisionSweep({ length: 2 ** 20, dim: 128, recipe: 'float32' });
  const curve: Float32Array = sweep.row_error;
  const sweepCollisions: number = sweep.collisions + sweep.first_collision;

  const alibi = pe.compute({ kind: 'alibi', length: 64, heads: 12 });
  const slopes: Float32Array = alibi.slopes;
  const att = pe.compute({ kind: 'attention', length: 16, encoding: { kind: 'alibi' }, content: 'tokens', tokens: 'I love AI' });
  const entropy: Float32Array = att.entropy;
  // A patch grid as the encoding (its height · width makes the length), and YaRN under an older
  // transformers' convention.
  const patches = pe.compute({ kind: 'attention', length: 12, encoding: { kind: 'sinusoidal2d', height: 3, width: 4, layout: 'mae' } });
  const yarnOld = pe.compute({ kind: 'rope', length: 64, dim: 64, max_position_embeddings: 8192, rope_scaling: { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 2048, convention: 'before_4.56' } });
  const patchEntropy: Float32Array = patches.entropy;
  const yarnAngles: Float32Array = yarnOld.data;
  const ids = pe.compute({ kind: 'mrope', segments: [{ type: 'text', length: 4 }, { type: 'image', t: 1, h: 4, w: 4 }] });
  const angles: Float32Array = ids.angles;

  const d = pe.defaults('t5');
  const buckets: number = d.num_buckets;
  const pixels: Uint8ClampedArray = pe.colorize(table.data, { map: 'cividis', vmin: -1, vmax: 1 });
  const picture: Uint8ClampedArray = pe.heatmap(table.data, { rows: 8, cols: 4, width: 2, height: 4, window: { x0: 0, x1: 4, y0: 0, y1: 8 } });
  const finiteRange: boolean = pe.heatmapRange(table.data, { offset: 0 }).finite;
  const chosen: Uint8ClampedArray = pe.heatmap(table.data, { rows: 8, cols: 4, width: 2, height: 4, colorRange: (r) => [r.lo, r.hi] });
  const loaded = pe.loadMatrix(new Uint8Array(0), { name: 'wpe.weight' });
  const shape: [number, number] = loaded.shape;

  const trainer: Trainer = pe.trainer({ kind: 'arena', encoding: { kind: 'alibi' }, task: 'reverse', causal: false, train_length: 16, train_length_min: 1 });
  const budget: number = trainer.maxSteps * trainer.cost;
  const losses: Float32Array = trainer.step(Math.min(10, trainer.maxSteps));
  const evaluation: ArenaEvaluation = trainer.evaluate(32, { samples: 64, seed: 1, rope_scaling: null });
  const heads: number = trainer.attention(8).shape[1];
  const positions = trainer.positionTable();
  trainer.free();

  const specs: Spec[] = KINDS.map((kind) => pe.defaults(kind));
  try {
    pe.compute({ kind: 'sinusoidal', length: 8, dim: 0 });
  } catch (e) {
    if (e instanceof PEError) console.log(e.param.toUpperCase(), e.message);
  }
  console.log(budget, first, rows, cols, base, freqs, af, labCos, firstCollision, worstRow, tables.cos, rotated.data, slopes, entropy, angles, buckets, pixels, shape, specs);
  console.log(losses, evaluation.accuracy, heads, positions?.shape, same);
}

// @ts-expect-error: 'kind' must name a kind
const wrongKind: Spec = { kind: 'sinusoid' };
// @ts-expect-error: layout is one of the listed values
const wrongLayout: Spec = { kind: 'sinusoidal', layout: 'zigzag' };
console.log(wrongKind, wrongLayout);
void main();
