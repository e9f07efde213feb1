// The Arena's experiment: the settings a learner picks (task, encodings, causal, the range of
// training lengths, steps, the base seed and the number of seeds, lr, RoPE scaling at evaluation),
// their URL form (#arena?task=…&enc=…), the runs (one per encoding and seed) and their trainer
// specs, and the evaluation lengths. No DOM, no WebAssembly.
import { ARENA_ENCODINGS, ARENA_ROPE_SCALING, ARENA_TASKS, PE_ARENA_MAX_EVAL_LENGTH, PE_ARENA_MAX_STEPS,
  PE_ARENA_MAX_TRAIN_LENGTH } from '../../api/schema/arena.js';

export const ENCODINGS = Object.keys(ARENA_ENCODINGS);
export const TASKS = Object.keys(ARENA_TASKS);
export const SCALINGS = ['none', ...Object.keys(ARENA_ROPE_SCALING)];
/** Factors of evaluation-time RoPE scaling: 'auto' = evaluation length ÷ training length. */
export const FACTORS = ['auto', '2', '4', '8'];

/** Palette slots (web/plot/lineplot.js seriesColor, --series-k): one colour per encoding, everywhere. */
export const COLOR = { none: 7, sinusoidal: 5, learned: 1, alibi: 2, t5: 4, rope: 0, 'rope+scaled': 3 };

/**
 * Steps each task gets by default, per model (decoder, encoder). Measured with
 * scripts/arena-experiment.js (3 seeds, lr 3e-3, tokens right at the training length):
 *   k-back, encoder, lengths 8 … 16: at 800 steps sinusoidal fit in 2 of 3 seeds (0.89 in the
 *     third), learned, t5 and rope in 3 of 3; at 1000 sinusoidal fit in 3 of 3 as well (none and
 *     alibi cannot: findings.js knownCause).
 *   sort, decoder, lengths 1 … 16, 1000 steps: sinusoidal fit in 3 of 3 seeds, alibi and rope in
 *     2 of 3 (0.88, 0.87), none and t5 in 0 of 3 (0.80, 0.83): sort needs more than this budget.
 *   copy, decoder, lengths 1 … 16, 1000 steps: no encoding fit (0.13 … 0.65 at 1×, 2 seeds).
 *   reverse, encoder, lengths 8 … 16, 1000 steps: learned 0.48, rope 0.33 at 1× (one seed).
 *   copy, decoder, and k-back, encoder, at length 16 only, rope, 1000 steps: 3 of 3 seeds fit.
 * The other budgets are not measured yet. Picking a task fills its budget in; the page says that
 * the findings list every encoding that did not fit it.
 */
export const TASK_STEPS = {
  decoder: { copy: 1000, reverse: 1000, kback: 1000, sort: 1000 },
  encoder: { copy: 1000, reverse: 1000, kback: 1000, sort: 1000 },
};
export const taskSteps = (task, causal) => TASK_STEPS[causal ? 'decoder' : 'encoder'][task];

/**
 * The model is the contract's default (layers 2, d_model 32, heads 4, 16 symbols, batch 32). The
 * first experiment: k-back in an encoder, where each output needs the token a fixed distance back
 * (y_j = x_{j−2}, j ≥ 3), trained on lengths 8 … 16 and run with three seeds.
 */
export const DEFAULTS = Object.freeze({
  task: 'kback',
  enc: ENCODINGS.slice(),
  causal: false,
  len: 16,
  min: 8,
  steps: taskSteps('kback', false),
  seed: 0,
  seeds: 3,
  lr: 3e-3,
  scaling: 'none',
  factor: 'auto',
  metric: 'tok', // what the accuracy chart and the findings measure: 'tok' tokens right, 'seq' whole sequences
});
export const METRICS = { tok: 'token_accuracy', seq: 'accuracy' };

export const LIMITS = {
  len: { min: 3, max: PE_ARENA_MAX_TRAIN_LENGTH },
  min: { min: 1, max: PE_ARENA_MAX_TRAIN_LENGTH },
  steps: { min: 1, max: PE_ARENA_MAX_STEPS },
  seed: { min: 0, max: 4294967295 - 16 },
  seeds: { min: 1, max: 8 },
  lr: { min: 1e-5, max: 0.1 },
};

/**
 * Multiples of the training length the trained models are evaluated at: below it too, so a model
 * that fits only the layout of its training length shows as such (and is not read as one that
 * fails to extrapolate).
 */
export const EVAL_FACTORS = [0.5, 0.75, 1, 1.5, 2, 4];
/** The multiple every comparison between encodings is made at, chosen before any run. */
export const COMPARE_FACTOR = 2;

/** The evaluation lengths for training length L: distinct, ascending, within the API's limits. */
export function evalLengths(L, task = 'copy') {
  const out = [];
  const least = task === 'kback' ? 3 : 1; // k-back scores y_3 … y_n
  for (const f of EVAL_FACTORS) {
    const n = Math.max(least, Math.min(PE_ARENA_MAX_EVAL_LENGTH, Math.round(L * f)));
    if (!out.includes(n)) out.push(n);
  }
  return out;
}

/** Examples per evaluation point. */
export const EVAL_SAMPLES = 256;

/**
 * Half the width of the 95 % interval of an accuracy p measured on `samples` independent examples
 * (normal approximation): what one point of one seed can tell apart.
 */
export function interval95(samples = EVAL_SAMPLES, p = 0.5) {
  return 1.96 * Math.sqrt((p * (1 - p)) / samples);
}

/**
 * The runs of an experiment: one per encoding and seed (seeds base, base + 1, …), the first seed
 * of every encoding first, so a picture of all the encodings comes before the repeats.
 */
export function runsOf(s) {
  const out = [];
  for (let k = 0; k < s.seeds; k++) {
    for (const enc of s.enc) out.push({ id: `${enc}#${s.seed + k}`, enc, seed: s.seed + k });
  }
  return out;
}

const intIn = (s, { min, max }) => {
  if (s === null || !/^\d+$/.test(s)) return null;
  const v = Number(s);
  return v >= min && v <= max ? v : null;
};

/**
 * The settings of URL parameters: every missing or bad one takes its default; `bad` lists the
 * names of those that were present but not valid (the page says so). A link without `min` but
 * with `len` (written before training on a range of lengths) trains at one length, as it did.
 * @param {URLSearchParams} params
 */
export function readSettings(params) {
  const s = { ...DEFAULTS, enc: DEFAULTS.enc.slice() };
  const bad = [];
  const get = (k) => (params.has(k) ? params.get(k) : null);
  const take = (k, value) => {
    if (get(k) === null) return;
    if (value === null) bad.push(k);
    else s[k] = value;
  };
  take('task', TASKS.includes(get('task')) ? get('task') : null);
  if (get('enc') !== null) {
    const list = get('enc').split(',').filter(Boolean);
    const ok = list.every((e) => ENCODINGS.includes(e)) && list.length > 0;
    take('enc', ok ? ENCODINGS.filter((e) => list.includes(e)) : null);
  }
  take('causal', get('causal') === '1' ? true : get('causal') === '0' ? false : null);
  if (get('steps') === null && (get('task') !== null || get('causal') !== null)) s.steps = taskSteps(s.task, s.causal);
  take('len', intIn(get('len'), LIMITS.len));
  if (get('min') === null) {
    if (get('len') !== null) s.min = s.len;
  } else {
    const m = intIn(get('min'), LIMITS.min);
    take('min', m !== null && m <= s.len ? m : null);
  }
  s.min = Math.min(s.min, s.len);
  take('steps', intIn(get('steps'), LIMITS.steps));
  take('seed', intIn(get('seed'), LIMITS.seed));
  take('seeds', intIn(get('seeds'), LIMITS.seeds));
  const lr = get('lr') === null ? null : Number(get('lr'));
  take('lr', lr !== null && Number.isFinite(lr) && lr >= LIMITS.lr.min && lr <= LIMITS.lr.max ? lr : null);
  take('scaling', SCALINGS.includes(get('scaling')) ? get('scaling') : null);
  take('factor', FACTORS.includes(get('factor')) ? get('factor') : null);
  take('metric', Object.hasOwn(METRICS, get('metric')) ? get('metric') : null);
  return { settings: s, bad };
}

/** The URL parameters of settings (all of them: a permalink states the whole experiment). */
export function settingsParams(s) {
  const p = {
    task: s.task, enc: s.enc.join(','), causal: s.causal ? '1' : '0', len: String(s.len), min: String(s.min),
    steps: String(s.steps), seed: String(s.seed), seeds: String(s.seeds), lr: String(s.lr),
  };
  if (s.enc.includes('rope') && s.scaling !== 'none') {
    p.scaling = s.scaling;
    p.factor = s.factor;
  }
  p.metric = s.metric;
  return p;
}

/** The pe.trainer spec of one run (an encoding and a seed) of an experiment. */
export function trainerSpec(s, enc, seed = s.seed) {
  return {
    kind: 'arena', task: s.task, encoding: { kind: enc }, causal: s.causal, train_length: s.len, train_length_min: s.min,
    lr: s.lr, seed,
  };
}

/** The rope_scaling option at evaluation length n, or null. */
export function scalingAt(s, n) {
  if (s.scaling === 'none') return null;
  const factor = s.factor === 'auto' ? Math.max(1, n / s.len) : Number(s.factor);
  return { rope_type: s.scaling, factor };
}

/** Same experiment? (what a Run would compute is the same; the measure shown is not part of it) */
export function sameSettings(a, b) {
  const key = (s) => JSON.stringify({ ...settingsParams(s), metric: null });
  return key(a) === key(b);
}

/** A token id as text: BOS, SEP, then the symbols as letters a, b, … (numbers past z). */
export function tokenLabel(id) {
  if (id === 0) return 'BOS';
  if (id === 1) return 'SEP';
  const k = id - 2;
  return k < 26 ? String.fromCharCode(97 + k) : String(k);
}

/** A mean over a trailing window of w values (loss curves are noisy batch by batch). */
export function smooth(values, n, w) {
  const out = new Float32Array(n);
  let s = 0;
  for (let i = 0; i < n; i++) {
    s += values[i];
    if (i >= w) s -= values[i - w];
    out[i] = s / Math.min(i + 1, w);
  }
  return out;
}
