// The Arena's fine-tuning experiment (issue 30): Chen et al. 2023, "Extending Context Window of
// Large Language Models via Positional Interpolation" (arXiv 2306.15595), at the Arena's scale.
// RoPE is trained at length L; then, at 2L, four ways are compared over several seeds:
//   (a) none      no scaling, evaluation only (what the model does past its training length)
//   (b) pi        position interpolation at evaluation only (linear, factor 2), and NTK-aware and
//                 YaRN at evaluation (factor 2) beside it
//   (c) ftPI      fine-tuned S steps at 2L with PI (t.finetune, rope_scaling linear ×2)
//   (d) ftPlain   fine-tuned S steps at 2L without scaling: the control with the same extra compute
// Every run also records the fit at L, and (c) and (d) at L after fine-tuning.
// This module: the settings (and their URL form), the trainer specs, the rows of the results,
// and the findings in words derived from the numbers (stats.js: mean [min–max], "beyond the
// seeds' spread" only where the ranges do not overlap). No DOM, no WebAssembly.
import { DEFAULTS } from './experiment.js';
import { FIT, fmtSpread } from './findings.js';
import { above, spread } from './stats.js';

/**
 * The experiment. Measured on the page (seeds 0 … 2; scripts/arena-finetune.js gives the same
 * numbers): reverse in a decoder at length 6, 1000 steps, fits in 3 of 3 seeds (tokens right 1.00);
 * at 12, tokens right: (a) 0.23 [0.21–0.25], (b) PI 0.23 [0.22–0.26], (c) 300 steps with PI 0.81
 * [0.69–0.89], (d) 300 steps unscaled 0.70 [0.69–0.72]: (c) above (d) in 3 of 3 seeds but the ranges
 * touch. Probed before choosing it: copy in a decoder at 8 is solved by PI at evaluation alone (the
 * answer lies n + 1 back, which PI maps onto the trained distance), k-back in an encoder by both
 * fine-tunes within 100 steps. With 1000 fine-tuning steps: (c) 0.93 [0.91–0.96], (d) 0.86
 * [0.69–0.96], still overlapping. Wall time in headless Chromium (2 workers, 2 cores): 22 s at load
 * average 5, 74 s at 17. Chen et al. fine-tune 1000 steps (LLaMA, 2048 → up to 32768).
 */
export const FT_DEFAULTS = Object.freeze({
  task: 'reverse', causal: true, len: 6, steps: 1000, ftSteps: 300, factor: 2, seed: DEFAULTS.seed, seeds: DEFAULTS.seeds,
  lr: DEFAULTS.lr,
});
export const FT_LIMITS = { steps: { min: 1, max: 5000 }, ftSteps: { min: 1, max: 5000 }, seeds: { min: 2, max: 8 } };
/** The evaluation-time scalings compared with no scaling at 2L (b). */
export const EVAL_SCALINGS = ['linear', 'ntk', 'yarn'];
/** The conditions, in the table's order, with the entry of a run holding each at 2L. */
export const CONDITIONS = ['none', 'linear', 'ntk', 'yarn', 'ftPI', 'ftPlain'];
/** Examples per evaluation (as the Arena's other evaluations). */
export const FT_SAMPLES = 256;

const intIn = (v, { min, max }) => (v !== null && /^\d+$/.test(v) && Number(v) >= min && Number(v) <= max ? Number(v) : null);

/** The settings of the URL (#arena?ft=1&ftn=…&fts=…&ftseeds=…): missing or bad ones keep the defaults. */
export function readFinetune(params) {
  const s = { ...FT_DEFAULTS };
  s.steps = intIn(params.get('ftn'), FT_LIMITS.steps) ?? s.steps;
  s.ftSteps = intIn(params.get('fts'), FT_LIMITS.ftSteps) ?? s.ftSteps;
  s.seeds = intIn(params.get('ftseeds'), FT_LIMITS.seeds) ?? s.seeds;
  return { settings: s, open: params.get('ft') === '1' };
}

/** The pe.trainer spec of one seed's pretraining. */
export function baseSpec(s, seed) {
  return { kind: 'arena', task: s.task, causal: s.causal, encoding: { kind: 'rope' }, train_length: s.len, lr: s.lr, seed };
}

/** The t.finetune options of (c) and (d). */
export function finetuneOptions(s, scaled) {
  const L2 = 2 * s.len;
  return { train_length: L2, rope_scaling: scaled ? { rope_type: 'linear', factor: s.factor } : null };
}

/** The rope_scaling option of an evaluation-time scaling at 2L. */
export const evalScaling = (s, type) => ({ rope_type: type, factor: s.factor });

/**
 * A run: { seed, at1, at2: { none, linear, ntk, yarn, ftPI, ftPlain }, after1: { ftPI, ftPlain } }
 * of evaluations ({ accuracy, token_accuracy, loss }); `done` once every one is there.
 * The values of a condition over the complete runs.
 */
export function conditionValues(runs, condition, metric, where = 'at2') {
  return runs.filter((r) => r.done).map((r) => r[where][condition][metric]);
}

/** The rows of the results table: per condition, its spread at 2L and (fine-tunes) at L after. */
export function resultRows(runs, metric) {
  return CONDITIONS.map((c) => ({
    condition: c,
    at2: spread(conditionValues(runs, c, metric)),
    after1: c.startsWith('ft') ? spread(conditionValues(runs, c, metric, 'after1')) : null,
  }));
}

/** In how many complete runs condition a is above b (metric at 2L). */
const higherIn = (runs, a, b, metric) => runs.filter((r) => r.done && r.at2[a][metric] > r.at2[b][metric]).length;

/**
 * The findings, in the page's language: the fit at L; (a) against (b); the fine-tunes against
 * each other and against evaluation-only PI; what fine-tuning at 2L does at L; Chen et al.'s
 * claims beside the measured ones; the setup's differences from theirs.
 * @param {object[]} runs  every run (only complete ones count)
 * @param {typeof FT_DEFAULTS} s
 * @param {Function} t  translator
 * @param {'token_accuracy' | 'accuracy'} metric
 * @param {number} params  parameters of the model
 */
export function finetuneFindings(runs, s, t, metric, params) {
  const done = runs.filter((r) => r.done);
  const n = done.length;
  if (n < 2) return [];
  const L = s.len;
  const L2 = 2 * L;
  const unit = t(metric === 'accuracy' ? 'arena.unit.seq' : 'arena.unit.tok');
  const name = (c) => t(`arena.ft.cond.${c}`, s.ftSteps);
  const at = (c) => spread(conditionValues(done, c, metric));
  const out = [];
  const fit1 = done.map((r) => r.at1.token_accuracy);
  const fitK = fit1.filter((v) => v >= FIT).length;
  out.push(t('arena.ft.find.fit', { L, n, k: fitK, at: fmtSpread(spread(fit1)), steps: s.steps, task: t(`arena.taskName.${s.task}`) }));
  // A model that has not learned the task at L says nothing about extending it: the comparisons
  // below are then of a failed run, and Chen et al. are not checked.
  if (fitK < n) out.push(t('arena.ft.find.unfit', { k: fitK, n, steps: s.steps }));
  // A pair: "a above b beyond the spread" / "b above a" / "overlap", with k of n.
  const pair = (a, b) => {
    const sa = at(a);
    const sb = at(b);
    const key = above(sa, sb) ? 'above' : above(sb, sa) ? 'below' : 'overlap';
    return { key, text: t(`arena.ft.pair.${key}`, { a: name(a), b: name(b), sa: fmtSpread(sa), sb: fmtSpread(sb), k: higherIn(done, a, b, metric), n, L2, unit }) };
  };
  const evalOnly = pair('linear', 'none');
  const ft = pair('ftPI', 'ftPlain');
  const ftVsEval = pair('ftPI', 'linear');
  out.push(evalOnly.text, ft.text, ftVsEval.text);
  const others = EVAL_SCALINGS.filter((x) => x !== 'linear').map((x) => `${name(x)} ${fmtSpread(at(x))}`);
  out.push(t('arena.ft.find.others', { L2, unit, list: others, n }));
  // What the fine-tuned models do at the training length.
  const before = spread(done.map((r) => r.at1[metric]));
  const afterOf = (c) => spread(conditionValues(done, c, metric, 'after1'));
  const after = ['ftPI', 'ftPlain'].map((c) => `${name(c)} ${fmtSpread(afterOf(c))}`);
  const lost = ['ftPI', 'ftPlain'].filter((c) => above(before, afterOf(c))).map(name);
  out.push(t('arena.ft.find.at1', { L, unit, before: fmtSpread(before), after, n, lost }));
  // Chen et al.: fine-tuned PI above direct fine-tuning, and above PI without fine-tuning.
  const verdict = (p) => (p.key === 'above' ? 'agrees' : p.key === 'below' ? 'disagrees' : 'unresolved');
  out.push(fitK < n ? t('arena.ft.find.chenUnfit', { k: fitK, n }) : t('arena.ft.find.chen', { ft: verdict(ft), evalOnly: verdict(ftVsEval), n }));
  out.push(t('arena.ft.find.setup', { params, steps: s.steps, ftSteps: s.ftSteps, L, L2, task: t(`arena.taskName.${s.task}`) }));
  return out;
}
