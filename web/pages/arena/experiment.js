// The Arena's experiment: the settings a learner picks (task, encodings, causal, training length,
// steps, seed, lr, RoPE scaling at evaluation), their URL form (#arena?task=…&enc=…), the trainer
// spec of each encoding, and the evaluation lengths. No DOM, no WebAssembly.
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
 * The model is the contract's default (layers 2, d_model 32, heads 4, 16 symbols, batch 32). The
 * first experiment: k-back in an encoder, where each output needs the token a fixed distance back
 * (y_j = x_{j−2}): a relative encoding can do that at any length, an absolute one only where it
 * was trained, and no encoding at all cannot do it. (A decoder's copy needs the token n + 1 back,
 * a distance that grows with the length, so there every encoding fails past the training length.)
 */
export const DEFAULTS = Object.freeze({
  task: 'kback',
  enc: ENCODINGS.slice(),
  causal: false,
  len: 16,
  steps: 1000,
  seed: 0,
  lr: 3e-3,
  scaling: 'none',
  factor: 'auto',
  metric: 'tok', // what the accuracy chart and the findings measure: 'tok' tokens right, 'seq' whole sequences
});
export const METRICS = { tok: 'token_accuracy', seq: 'accuracy' };

export const LIMITS = {
  len: { min: 2, max: PE_ARENA_MAX_TRAIN_LENGTH },
  steps: { min: 1, max: PE_ARENA_MAX_STEPS },
  seed: { min: 0, max: 4294967295 },
  lr: { min: 1e-5, max: 0.1 },
};

/** Multiples of the training length the trained models are evaluated at (1× to 8×). */
export const EVAL_FACTORS = [1, 1.25, 1.5, 2, 3, 4, 6, 8];

/** The evaluation lengths for training length L: distinct, ascending, within the API's limit. */
export function evalLengths(L) {
  const out = [];
  for (const f of EVAL_FACTORS) {
    const n = Math.min(PE_ARENA_MAX_EVAL_LENGTH, Math.round(L * f));
    if (!out.includes(n)) out.push(n);
  }
  return out;
}

/** Examples per evaluation: fewer for long sequences (the cost grows with length²). */
export function evalSamples(length) {
  return length <= 64 ? 128 : 64;
}

const intIn = (s, { min, max }) => {
  if (s === null || !/^\d+$/.test(s)) return null;
  const v = Number(s);
  return v >= min && v <= max ? v : null;
};

/**
 * The settings of URL parameters: every missing or bad one takes its default; `bad` lists the
 * names of those that were present but not valid (the page says so).
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
  take('len', intIn(get('len'), LIMITS.len));
  take('steps', intIn(get('steps'), LIMITS.steps));
  take('seed', intIn(get('seed'), LIMITS.seed));
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
    task: s.task, enc: s.enc.join(','), causal: s.causal ? '1' : '0', len: String(s.len),
    steps: String(s.steps), seed: String(s.seed), lr: String(s.lr),
  };
  if (s.enc.includes('rope') && s.scaling !== 'none') {
    p.scaling = s.scaling;
    p.factor = s.factor;
  }
  p.metric = s.metric;
  return p;
}

/** The pe.trainer spec of one encoding in an experiment. */
export function trainerSpec(s, enc) {
  return { kind: 'arena', task: s.task, encoding: { kind: enc }, causal: s.causal, train_length: s.len, lr: s.lr, seed: s.seed };
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
