// The Arena's presets: experiments that check a paper or a lesson. A preset is settings (the
// rest stays at the defaults) plus its title and explanation in strings.js
// ('arena.preset.<id>', 'arena.preset.<id>.explain'); picking one fills the form and the URL.
// A preset with `paper` also has the paper's ranking, compared with the measured one
// (findings.js paperCheck). No DOM.
import { DEFAULTS, ENCODINGS, sameSettings, taskSteps } from './experiment.js';

/** Kazemnejad et al. 2023, "The Impact of Positional Encoding on Length Generalization in
 * Transformers": mean rank over lengths beyond training, NoPE ≈ T5 > ALiBi > Rotary ≈ APE. */
const KAZEMNEJAD = { order: [['none', 't5'], ['alibi'], ['rope', 'sinusoidal']] };
const PAPER_ENCS = ['none', 'sinusoidal', 'alibi', 't5', 'rope'];

// k-back keeps its distance (two back) at every length only in an encoder: in a decoder the answer
// follows the question and its separator, so the token it needs lies n + 3 places back.
const preset = (id, s, extra = {}) => ({
  id, ...extra,
  settings: { ...DEFAULTS, enc: ENCODINGS.slice(), steps: taskSteps(s.task ?? DEFAULTS.task, s.causal ?? DEFAULTS.causal), ...s },
});

export const PRESETS = [
  preset('default', {}),
  preset('kazemnejad-sort', { task: 'sort', causal: true, enc: PAPER_ENCS, min: 1 }, { paper: KAZEMNEJAD }),
  preset('absolute', { task: 'kback', causal: false, enc: ['sinusoidal', 'learned', 't5', 'rope'], min: 8 }),
  preset('position-free', { task: 'kback', causal: false, enc: ['none', 'learned', 'rope'], min: 8 }),
  preset('pi-copy', { task: 'copy', causal: true, enc: ['rope'], min: 16, scaling: 'linear', factor: 'auto' }),
  preset('pi-kback', { task: 'kback', causal: false, enc: ['rope'], min: 16, scaling: 'linear', factor: 'auto' }),
  preset('yarn-kback', { task: 'kback', causal: false, enc: ['rope'], min: 16, scaling: 'yarn', factor: 'auto' }),
  preset('ntk-copy', { task: 'copy', causal: true, enc: ['rope'], min: 16, scaling: 'ntk', factor: 'auto' }),
];

/** The preset with these settings (the measure shown aside), or null. */
export function presetOf(settings) {
  return PRESETS.find((p) => sameSettings(p.settings, settings)) ?? null;
}

export const presetById = (id) => PRESETS.find((p) => p.id === id) ?? null;

/**
 * The paper an experiment checks: that of a preset with the same task and model (the paper's
 * claim is about the task, whatever the steps, lengths or seeds), or null.
 */
export function paperFor(settings) {
  return PRESETS.find((p) => p.paper && p.settings.task === settings.task && p.settings.causal === settings.causal)?.paper ?? null;
}
