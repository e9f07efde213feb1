// The Arena's binding: the trainer behind pe.trainer(spec) (docs/reference.md#arena):
// a tiny transformer trained by the C engine (c/arena.h, c/arena_model.c, c/arena_train.c,
// c/arena_tasks.c) in one WebAssembly buffer that lives until t.free().
//
//   const t = pe.trainer({ kind: 'arena', encoding: { kind: 'alibi' } });
//   const losses = t.step(100);                        // Float32Array(100)
//   t.evaluate(32, { samples: 256, seed: 1 });         // { accuracy, token_accuracy, loss }
//   t.attention(8);                                    // { data, shape: [layers, heads, T, T], tokens }
//   t.positionTable();                                 // learned: { data, shape: [Tp, d_model] }, else null
//   t.free();
//
// Extensions beyond the contract (documented in web/pe.d.ts):
//   spec.rope_scaling: { rope_type: 'linear' | 'ntk' | 'yarn', factor } the model trains with (rope
//     only; null: unscaled); evaluate/attention option rope_scaling replaces it at evaluation
//     ({ rope_type: 'linear', factor: 1 } = unscaled; left out: the trained scaling); yarn's
//     original_max_position_embeddings = the first trainer's training sequence length
//   t.finetune({ train_length, train_length_min, rope_scaling }) → a new trainer that continues
//     this one (parameters, AdamW state, step count: pe_arena_fork) at the new lengths with that
//     scaling (position interpolation, Chen et al. 2023); its spec has the new lengths and
//     rope_scaling, t2.pretrained = { spec, steps } says where it came from; both stay usable
//   t.tensors() → [{ name, shape, offset }], t.params() → Float32Array, t.setParams(Float32Array):
//     the flat parameter vector (c/arena.h lists the order and the init)
//   t._gradients(tokens, targets) and t._adamw(grads): test hooks (tests/arena.test.js compares
//     them with the PyTorch reference, tests/fixtures/ref_arena.py)
//
// Memory: pe_arena_size says how many bytes the arena needs; it is malloc'ed here (16-byte
// aligned by hand: emmalloc aligns to 8) and kept; evaluation allocates a scratch buffer per call
// (pe_arena_eval_size) and frees it in finally. Bad input throws a PEError naming the field; the
// spec is validated by spec.js's normalizeSpec against web/api/schema/arena.js.
import { PEError, checkValue, describe, normalizeSpec, snapshot } from '../spec.js';
import ARENA, {
  ARENA_ENCODINGS, ARENA_ROPE_SCALING, ARENA_TASKS, PE_ARENA_MAX_EVAL_LENGTH, PE_ARENA_MAX_SAMPLES,
  PE_ARENA_MAX_STEPS, ropeScalingOption,
} from '../schema/arena.js';

const SCHEMA = ARENA.arena;
const SPEC_ARGS = ['task', 'encoding', 'causal', 'layers', 'd_model', 'heads', 'symbols', 'train_length', 'train_length_min', 'batch', 'lr', 'weight_decay', 'seed'];
/** c/pe.h PE_ARENA_DIVERGED: pe_arena_step's loss stopped being finite (tests/house/constants.test.js). */
export const DIVERGED = 310;
/** c/pe.h PE_ARENA_NOT_FINITE: evaluate/attention's forward pass is not finite. */
export const NOT_FINITE = 311;
/**
 * Largest |value| setParams accepts. Trained parameters stay far below it (AdamW moves a value by
 * about lr per step); the forward pass stays finite far above it (LayerNorm rescales every block;
 * measured: float32 overflows from about 1e9 on, for constant, alternating and random values, at
 * d_model 8 … 256), and evaluate/attention/step check the forward pass anyway.
 */
export const PARAM_MAX = 1e4;
/**
 * Most floating-point operations one t.step(n) call may cost: n·t.cost ≤ STEP_BUDGET (about a
 * minute of a 2-core laptop's WebAssembly SIMD; one step is always allowed). The largest model
 * (8 layers, d_model 256, length 64, batch 32: 1.6e11 per step, ~12 s) gets 6 steps per call,
 * the default model (3e8) more than 3000.
 */
export const STEP_BUDGET = 1e12;
/** c/arena.h pe_arena_tensor_id (PE_T_*), in order: the names tensors() gives. */
export const TENSOR_NAMES = ['wte', 'wpe', 't5', 'ln1.weight', 'ln1.bias', 'qkv.weight', 'qkv.bias', 'attproj.weight',
  'attproj.bias', 'ln2.weight', 'ln2.bias', 'fc.weight', 'fc.bias', 'fcproj.weight', 'fcproj.bias', 'lnf.weight',
  'lnf.bias', 'head.weight', 'head.bias'];

/** The arena spec with every default filled in (a fresh object each call). */
export function arenaDefaults() {
  const out = { kind: 'arena' };
  for (const [name, field] of Object.entries(SCHEMA.fields)) out[name] = field.default;
  return out;
}

/**
 * Validates an arena spec (kind "arena" may be left out); returns the complete spec. Throws
 * PEError naming the first bad field.
 */
export function normalizeArenaSpec(input) {
  return normalizeSpec(input, { schemas: ARENA, implicitKind: 'arena' });
}

function checkOptions(input, allowed, where) {
  if (input === undefined) return {};
  const options = snapshot(input, 'options');
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new PEError('options', `${where} options must be an object like { ${allowed.join(', ')} }, got ${describe(options)}`);
  }
  for (const key of Object.keys(options)) {
    if (!allowed.includes(key)) throw new PEError(key, `unknown option "${key}" of ${where}; its options are ${allowed.join(', ')}`);
  }
  return options;
}

const LENGTH = { type: 'int', min: 1, max: PE_ARENA_MAX_EVAL_LENGTH };
const SAMPLES = { type: 'int', min: 1, max: PE_ARENA_MAX_SAMPLES };
const SEED = SCHEMA.fields.seed;
const STEPS = { type: 'int', min: 1, max: PE_ARENA_MAX_STEPS };

/** The C arguments (rope_type, factor) of a checked rope_scaling; null: [0, 1] (none, or the trained one). */
const scalingCodes = (s) => (s === null ? [0, 1] : [ARENA_ROPE_SCALING[s.rope_type], s.factor]);

function scalingArgs(value) {
  return scalingCodes(value === undefined ? null : checkValue('rope_scaling', ropeScalingOption, value));
}

const FINETUNE_OPTIONS = ['train_length', 'train_length_min', 'rope_scaling'];

/** The spec of a fine-tune of `spec` (options: finetune's), checked as a whole (PEError naming the option). */
function finetuneSpec(spec, options) {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new PEError('options', `finetune options must be an object like { ${FINETUNE_OPTIONS.join(', ')} }, got ${describe(options)}`);
  }
  const o = checkOptions(options, FINETUNE_OPTIONS, 'finetune');
  if (o.train_length === undefined) throw new PEError('train_length', `finetune: train_length is required: an integer in [1, ${SCHEMA.fields.train_length.max}]`);
  const train_length = checkValue('train_length', SCHEMA.fields.train_length, o.train_length);
  const next = { ...spec, train_length, train_length_min: o.train_length_min ?? train_length, rope_scaling: o.rope_scaling ?? null };
  return normalizeArenaSpec(next);
}

/**
 * Floating-point operations of one training step, about: forward 2·B·T·(12·L·C² + C·V) in the
 * linear layers (qkv 3C², attproj C², fc 4C², fcproj 4C² per layer; the head C·V) plus 4·L·B·T²·C
 * in attention (q·kᵀ and the weighted sum, every pair counted), and the backward pass twice the
 * forward's: 3× in all.
 */
export function stepCost(spec, T) {
  const { batch: B, layers: L, d_model: C } = spec;
  const V = spec.symbols + 2;
  return 3 * (2 * B * T * (12 * L * C * C + C * V) + 4 * L * B * T * T * C);
}

const typedArrayProto = Object.getPrototypeOf(Float32Array.prototype);
const typedArrayTag = Object.getOwnPropertyDescriptor(typedArrayProto, Symbol.toStringTag).get;

/**
 * A copy of a genuine Float32Array, read through its internal slots (no getter, no Proxy trap
 * runs: a Proxy is not a view), or null for anything else.
 */
function float32Copy(value) {
  if (!ArrayBuffer.isView(value) || typedArrayTag.call(value) !== 'Float32Array') return null;
  try {
    return new Float32Array(value);
  } catch {
    return null;   // a detached buffer
  }
}

/**
 * A trainer for a spec. ctx: { wasm (the module's exports), run(io, call, args) } from
 * web/api/pe.js (allocates io.inputs/outputs, calls, copies the outputs out, frees; a status
 * PE_ERR_ARG(k) becomes a PEError naming args[k − 1]).
 */
export function createTrainer(ctx, input) {
  const spec = normalizeArenaSpec(input);
  const w = ctx.wasm;
  const encoding = spec.encoding === null ? 'none' : spec.encoding.kind;
  const specArgs = [ARENA_TASKS[spec.task], ARENA_ENCODINGS[encoding], spec.causal ? 1 : 0, spec.layers, spec.d_model,
    spec.heads, spec.symbols, spec.train_length, spec.train_length_min, spec.batch, spec.lr, spec.weight_decay, spec.seed];

  let tooLarge = false;
  const { bytes: [bytes] } = ctx.run({ outputs: { bytes: { count: 1, type: Int32Array } } }, (p) => {
    const st = w.pe_arena_size(p.bytes, ...specArgs);
    if (st === 1) { tooLarge = true; return 0; }   // PE_ERR_TOO_LARGE
    return st;
  }, ['bytes', ...SPEC_ARGS]);
  if (tooLarge) throw new PEError('batch', 'the arena would exceed 1 GiB (PE_ARENA_MAX_BYTES); reduce batch, d_model, layers or train_length');
  const raw = allocate(w, bytes);
  const arena = (raw + 15) & ~15;
  const status = w.pe_arena_init(arena, bytes, ...specArgs);
  if (status !== 0) {
    w.free(raw);
    throw new PEError('spec', `the arena could not be initialised (kernel status ${status})`);
  }
  if (spec.rope_scaling === null) return wrapArena(ctx, spec, raw, arena, null);
  // Trained with a scaling from the start: a fork of the fresh arena at its own lengths.
  try {
    return fork(ctx, arena, spec, null);
  } finally {
    w.free(raw);
  }
}

/** malloc(bytes + 16) for a 16-byte aligned arena, or a PEError. */
function allocate(w, bytes) {
  const raw = w.malloc(bytes + 16);
  if (raw === 0) throw new PEError('batch', `not enough memory for the arena (${(bytes / 2 ** 20).toFixed(1)} MiB); reduce batch, d_model, layers or train_length`);
  return raw;
}

/** A trainer on a fork of the arena `src` for the (checked) spec `next` (pe_arena_fork). */
function fork(ctx, src, next, pretrained) {
  const w = ctx.wasm;
  const lengths = [next.train_length, next.train_length_min];
  const { bytes: [bytes] } = ctx.run({ outputs: { bytes: { count: 1, type: Int32Array } } }, (p) => {
    const st = w.pe_arena_fork_size(p.bytes, src, ...lengths);
    return st === 1 ? 100 + 3 : st;   // PE_ERR_TOO_LARGE: the new train_length
  }, ['bytes', 'arena', 'train_length', 'train_length_min']);
  const raw = allocate(w, bytes);
  const arena = (raw + 15) & ~15;
  try {
    ctx.run({}, () => w.pe_arena_fork(arena, bytes, src, ...lengths, ...scalingCodes(next.rope_scaling)),
      ['arena', 'bytes', 'arena', 'train_length', 'train_length_min', 'rope_scaling', 'rope_scaling.factor']);
  } catch (err) {
    w.free(raw);
    throw err;
  }
  return wrapArena(ctx, next, raw, arena, pretrained);
}

/** The trainer object around an initialised arena (raw: its allocation, freed by t.free()). */
function wrapArena(ctx, spec, raw, arena, pretrained) {
  const w = ctx.wasm;
  const encoding = spec.encoding === null ? 'none' : spec.encoding.kind;

  let live = true;
  const alive = () => {
    if (!live) throw new PEError('trainer', 'this trainer was freed (t.free()); create a new one with pe.trainer(spec)');
  };
  const info = () => ctx.run({ outputs: { info: { count: 8, type: Int32Array } } },
    (p) => w.pe_arena_info(p.info, arena), ['info', 'arena']).info;
  const [paramCount, tensorCount, seqLen, tableRows] = info();
  const cost = stepCost(spec, seqLen);
  const maxSteps = Math.max(1, Math.min(PE_ARENA_MAX_STEPS, Math.floor(STEP_BUDGET / cost)));
  // true from setParams until a step succeeds: a forward pass that is not finite then is the
  // caller's parameters' fault, not lr's
  let paramsFromCaller = false;
  let layout = null;   // the tensors, once asked for
  const tensorList = () => {
    if (layout !== null) return layout;
    const { out } = ctx.run({ outputs: { out: { count: 5 * tensorCount, type: Int32Array } } },
      (p) => w.pe_arena_tensors(p.out, arena), ['out', 'arena']);
    layout = Array.from({ length: tensorCount }, (_, k) => {
      const [id, layer, offset, rows, cols] = out.subarray(5 * k, 5 * k + 5);
      const name = layer >= 0 ? `h${layer}.${TENSOR_NAMES[id]}` : TENSOR_NAMES[id];
      return { name, shape: rows === 1 && !['wte', 'wpe', 't5'].includes(name) ? [cols] : [rows, cols], offset, rows, cols };
    });
    return layout;
  };
  /** "params[i] (h0.qkv.weight[r, c])": where flat index i lies. */
  const where = (i) => {
    const list = tensorList();
    let k = list.length - 1;
    while (k > 0 && list[k].offset > i) k--;
    const t = list[k];
    const at = i - t.offset;
    if (at >= t.rows * t.cols) return `params[${i}] (padding after ${t.name})`;
    return `params[${i}] (${t.name}${t.shape.length === 1 ? `[${at}]` : `[${Math.floor(at / t.cols)}, ${at % t.cols}]`})`;
  };
  /** The first non-finite parameter, as where() says it, or null. */
  const firstNotFinite = (data) => {
    for (let i = 0; i < data.length; i++) if (!Number.isFinite(data[i])) return `${where(i)} is ${data[i]}`;
    return null;
  };
  /** The PEError for a forward pass that is not finite (evaluate, attention, a first step). */
  const notFinite = (what) => {
    const bad = firstNotFinite(trainer.params());
    if (bad !== null) return new PEError('params', `${what}: the parameters are not finite (${bad}); set finite ones with setParams or start a new trainer`);
    return new PEError('params', `${what}: the forward pass is not finite with these parameters (finite, but large enough that float32 overflows); set smaller ones with setParams or start a new trainer`);
  };

  // A scratch buffer for evaluation at `length`, freed after fn(ptr, bytes).
  const withScratch = (length, fn) => {
    const { bytes: [n] } = ctx.run({ outputs: { bytes: { count: 1, type: Int32Array } } },
      (p) => w.pe_arena_eval_size(p.bytes, arena, length), ['bytes', 'arena', 'length']);
    const ptr = w.malloc(n + 16);
    if (ptr === 0) throw new PEError('length', `not enough memory to evaluate at length ${length}`);
    try {
      return fn((ptr + 15) & ~15, n);
    } finally {
      w.free(ptr);
    }
  };

  const trainer = {
    /** The normalized spec. */
    spec,
    /** Tokens per training sequence: 2·train_length + 1 (causal) or train_length + 1. */
    sequenceLength: seqLen,

    /**
     * Trains n steps (1 … maxSteps: n·cost may not exceed STEP_BUDGET); returns their losses
     * (mean cross-entropy of each batch).
     */
    step(n = 1) {
      alive();
      checkValue('n', STEPS, n);
      if (n > maxSteps) {
        throw new PEError('n', `n must be at most ${maxSteps} for this model: one step costs about ${cost.toPrecision(2)} floating-point operations (t.cost) and one call at most ${STEP_BUDGET.toPrecision(1)}; call step again for more, got ${n}`);
      }
      const before = info()[4];
      let diverged = false;
      const { losses } = ctx.run({ outputs: { losses: n } }, (p) => {
        const st = w.pe_arena_step(p.losses, arena, n);
        if (st === DIVERGED) { diverged = true; return 0; }
        return st;
      }, ['losses', 'arena', 'n']);
      if (diverged) {
        // The parameters before the failing step: unchanged when it was this call's first.
        if (info()[4] === before) {
          const bad = firstNotFinite(trainer.params());
          if (bad !== null || paramsFromCaller) throw notFinite('training cannot start');
        }
        paramsFromCaller = false;
        throw new PEError('lr', `training diverged (the loss is no longer finite) at lr ${spec.lr}; lower lr and start a new trainer`);
      }
      paramsFromCaller = false;
      return losses;
    },

    /** Floating-point operations of one step, about (forward and backward; see stepCost). */
    cost,
    /** The largest n one step(n) call accepts for this model (STEP_BUDGET / cost, at least 1). */
    maxSteps,

    /** Steps taken so far. */
    get steps() {
      alive();
      return info()[4];
    },

    /** { accuracy, token_accuracy, loss } on `samples` fresh examples of `length` symbols. */
    evaluate(length, options) {
      alive();
      checkValue('length', LENGTH, length);
      if (spec.task === 'kback' && length < 3) throw new PEError('length', `length must be an integer in [3, ${PE_ARENA_MAX_EVAL_LENGTH}] for kback (it scores y_3 … y_n: there is no token two back before), got ${length}`);
      const o = checkOptions(options, ['samples', 'seed', 'rope_scaling'], 'evaluate');
      const samples = o.samples === undefined ? 256 : checkValue('samples', SAMPLES, o.samples);
      const seed = o.seed === undefined ? 0 : checkValue('seed', SEED, o.seed);
      const [type, factor] = scalingArgs(o.rope_scaling);
      if (type !== 0 && encoding !== 'rope') throw new PEError('rope_scaling', `rope_scaling applies to the rope encoding only, this trainer has ${encoding}`);
      let broken = false;
      const { out } = withScratch(length, (scratch, n) => ctx.run({ outputs: { out: 3 } }, (p) => {
        const st = w.pe_arena_evaluate(p.out, arena, scratch, n, length, samples, seed, type, factor);
        if (st === NOT_FINITE) { broken = true; return 0; }
        return st;
      }, ['out', 'arena', 'scratch', 'scratch', 'length', 'samples', 'seed', 'rope_scaling', 'rope_scaling.factor']));
      if (broken) throw notFinite('evaluate');
      return { accuracy: out[0], token_accuracy: out[1], loss: out[2] };
    },

    /** The attention weights of one example: { data, shape: [layers, heads, T, T], tokens }. */
    attention(length, options) {
      alive();
      checkValue('length', LENGTH, length);
      const o = checkOptions(options, ['seed', 'rope_scaling'], 'attention');
      const seed = o.seed === undefined ? 0 : checkValue('seed', SEED, o.seed);
      const [type, factor] = scalingArgs(o.rope_scaling);
      if (type !== 0 && encoding !== 'rope') throw new PEError('rope_scaling', `rope_scaling applies to the rope encoding only, this trainer has ${encoding}`);
      const T = spec.causal ? 2 * length + 1 : length + 1;
      let broken = false;
      const r = withScratch(length, (scratch, n) => ctx.run({
        outputs: { data: spec.layers * spec.heads * T * T, tokens: { count: T, type: Int32Array } },
      }, (p) => {
        const st = w.pe_arena_attention(p.data, p.tokens, arena, scratch, n, length, seed, type, factor);
        if (st === NOT_FINITE) { broken = true; return 0; }
        return st;
      }, ['data', 'tokens', 'arena', 'scratch', 'scratch', 'length', 'seed', 'rope_scaling', 'rope_scaling.factor']));
      if (broken) throw notFinite('attention');
      return { data: r.data, shape: [spec.layers, spec.heads, T, T], tokens: r.tokens };
    },

    /** The learned position table { data, shape: [Tp, d_model] }, or null for other encodings. */
    positionTable() {
      alive();
      if (encoding !== 'learned') return null;
      const { data } = ctx.run({ outputs: { data: tableRows * spec.d_model } },
        (p) => w.pe_arena_position_table(p.data, arena), ['data', 'arena']);
      return { data, shape: [tableRows, spec.d_model] };
    },

    /** The parameter tensors: [{ name, shape, offset }] into params(). */
    tensors() {
      alive();
      return tensorList().map(({ name, shape, offset }) => ({ name, shape: shape.slice(), offset }));
    },

    /** A copy of the flat parameter vector (paramCount floats; tensors() says where each is). */
    params() {
      alive();
      return ctx.run({ outputs: { data: paramCount } }, (p) => w.pe_arena_get_params(p.data, arena), ['data', 'arena']).data;
    },

    /**
     * Replaces the parameters: a Float32Array of paramCount values, each finite with |value| ≤
     * PARAM_MAX. Copied before it is checked (a Proxy or a getter cannot change it meanwhile).
     */
    setParams(input) {
      alive();
      const data = float32Copy(input);
      if (data === null || data.length !== paramCount) {
        throw new PEError('params', `params must be a Float32Array of ${paramCount} values, got ${data === null ? describe(input) : `a Float32Array of length ${data.length}`}`);
      }
      for (let i = 0; i < data.length; i++) {
        if (!Number.isFinite(data[i])) throw new PEError('params', `${where(i)} must be finite, got ${data[i]}`);
        if (Math.abs(data[i]) > PARAM_MAX) throw new PEError('params', `${where(i)} must be in [-${PARAM_MAX}, ${PARAM_MAX}], got ${data[i]}`);
      }
      ctx.run({ inputs: { data } }, (p) => w.pe_arena_set_params(arena, p.data), ['arena', 'params']);
      paramsFromCaller = true;
    },

    /** Number of parameters (padding between tensors included). */
    paramCount,

    /**
     * Test hook: { loss, grads } of the mean loss on tokens/targets (Int32Array [b, T]); tokens −1
     * are padding (a suffix of a row: fed as SEP, no target, masked keys in the encoder).
     */
    _gradients(tokens, targets) {
      alive();
      const b = tokens.length / seqLen;
      const r = ctx.run({ inputs: { tokens: Int32Array.from(tokens), targets: Int32Array.from(targets) }, outputs: { grads: paramCount, loss: 1 } },
        (p) => w.pe_arena_gradients(p.grads, p.loss, arena, p.tokens, p.targets, b), ['grads', 'loss', 'arena', 'tokens', 'targets', 'batch']);
      return { loss: r.loss[0], grads: r.grads };
    },

    /** Test hook: one AdamW step with the given gradients (Float32Array of paramCount). */
    _adamw(grads) {
      alive();
      ctx.run({ inputs: { grads: Float32Array.from(grads) } }, (p) => w.pe_arena_adamw(arena, p.grads), ['arena', 'grads']);
    },

    /** Where a fine-tuned trainer came from: { spec, steps } of the trainer it continues, else null. */
    pretrained,

    /**
     * A new trainer that continues this one at train_length (and train_length_min, default
     * train_length) with rope_scaling (rope only; null or left out: unscaled): parameters, AdamW
     * moments and the step count carry over (pe_arena_fork). This trainer is not changed; free both.
     */
    finetune(options) {
      alive();
      if (pretrained !== null) throw new PEError('trainer', 'this trainer is already fine-tuned (t.pretrained); fine-tune the trainer it came from');
      const next = finetuneSpec(spec, options);
      return fork(ctx, arena, next, { spec: structuredClone(spec), steps: info()[4] });
    },

    /** Frees the WebAssembly memory of this trainer; later calls throw. */
    free() {
      if (!live) return;
      live = false;
      w.free(raw);
    },
  };
  return trainer;
}

// Not a kind of pe.compute: web/api/kernels/index.js lists it beside the kinds as KERNELS.arena.
export default { createTrainer };
