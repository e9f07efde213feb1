// Runs an Arena experiment headless in Node, as the page runs it (web/pages/arena/): the page's
// settings (a preset, with URL-style overrides) → one trainer per encoding and seed
// (experiment.js trainerSpec) → evaluation at the page's lengths (0.5× … 4×, 256 examples each) →
// the table (mean [min–max] over seeds, tokens right and exact match) and the page's findings
// (findings.js) in English or Korean. One thread; runs one after another.
//
//   node scripts/arena-experiment.js [--preset ID] [--seed BASE] [--seeds N] [--lang en|ko]
//                                    [--metric tok|seq] [--set key=value ...] [--json FILE] [--wasm FILE]
//                                    [--from FILE]
//   e.g. nice -n 10 node scripts/arena-experiment.js --preset kazemnejad-sort --seed 0
//        nice -n 10 node scripts/arena-experiment.js --set task=copy --set causal=1 --set steps=600
// --set takes the page's URL parameters (task, enc, causal, len, min, steps, seed, seeds, lr,
// scaling, factor, metric); --wasm loads another build of the engine (default: web/wasm/pe_simd.wasm);
// --json FILE saves the runs, --from FILE prints the table and findings of saved runs again (with
// --seed/--seeds: of some of their seeds; a run depends on its own seed only).
import { readFileSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { createPE } from '../web/api/pe.js';
import { translator } from '../web/i18n/index.js';
import {
  EVAL_SAMPLES, METRICS, evalLengths, readSettings, runsOf, scalingAt, settingsParams, trainerSpec,
} from '../web/pages/arena/experiment.js';
import { findings, fmtSpread, paperCheck } from '../web/pages/arena/findings.js';
import { PRESETS, paperFor, presetById } from '../web/pages/arena/presets.js';
import { groupRuns, spread, valuesAt } from '../web/pages/arena/stats.js';
import '../web/pages/arena/strings.js';

function parseArgs(argv) {
  const o = { preset: 'default', seed: null, seeds: null, lang: 'en', metric: null, set: [], json: null, wasm: null, from: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--preset') o.preset = next();
    else if (a === '--seed') o.seed = next();
    else if (a === '--seeds') o.seeds = next();
    else if (a === '--lang') o.lang = next();
    else if (a === '--metric') o.metric = next();
    else if (a === '--set') o.set.push(next());
    else if (a === '--json') o.json = next();
    else if (a === '--wasm') o.wasm = next();
    else if (a === '--from') o.from = next();
    else if (a === '--help' || a === '-h') {
      console.log(readFileSync(new URL(import.meta.url), 'utf8').split('\n').filter((l) => l.startsWith('//')).map((l) => l.slice(3)).join('\n'));
      console.log(`presets: ${PRESETS.map((p) => p.id).join(', ')}`);
      process.exit(0);
    } else throw new Error(`unknown argument ${a} (--help lists them)`);
  }
  return o;
}

/** The experiment's settings: the preset's, then --seed/--seeds/--metric, then --set, read as the page reads its URL. */
export function experimentSettings(o) {
  const preset = presetById(o.preset);
  if (!preset) throw new Error(`unknown preset ${o.preset}; presets: ${PRESETS.map((p) => p.id).join(', ')}`);
  const params = new URLSearchParams(settingsParams(preset.settings));
  if (o.seed !== null) params.set('seed', o.seed);
  if (o.seeds !== null) params.set('seeds', o.seeds);
  if (o.metric !== null) params.set('metric', o.metric);
  for (const kv of o.set) {
    const at = kv.indexOf('=');
    if (at < 1) throw new Error(`--set wants key=value, got ${kv}`);
    params.set(kv.slice(0, at), kv.slice(at + 1));
  }
  const { settings, bad } = readSettings(params);
  if (bad.length) throw new Error(`not valid: ${bad.join(', ')}`);
  return { preset, settings };
}

/** Trains and evaluates every run of the experiment, one after another. */
export async function runExperiment(pe, settings, log = () => {}) {
  const lengths = evalLengths(settings.len, settings.task);
  const jobs = [];
  for (const run of runsOf(settings)) {
    const t0 = performance.now();
    const tr = pe.trainer(trainerSpec(settings, run.enc, run.seed));
    const losses = tr.step(settings.steps);
    const trainS = (performance.now() - t0) / 1000;
    const evals = [];
    const scaledEvals = [];
    for (const length of lengths) {
      evals.push({ length, ...tr.evaluate(length, { samples: EVAL_SAMPLES, seed: run.seed }) });
      if (run.enc === 'rope' && settings.scaling !== 'none') {
        scaledEvals.push({ length, ...tr.evaluate(length, { samples: EVAL_SAMPLES, seed: run.seed, rope_scaling: scalingAt(settings, length) }) });
      }
    }
    tr.free();
    const job = { ...run, evals, scaledEvals, lastLoss: losses[losses.length - 1], trainS, totalS: (performance.now() - t0) / 1000 };
    jobs.push(job);
    const at = evals.find((e) => e.length === settings.len);
    log(`  ${run.id.padEnd(14)} ${trainS.toFixed(1).padStart(5)} s  loss ${job.lastLoss.toFixed(4)}  1×: tokens ${at.token_accuracy.toFixed(3)} exact ${at.accuracy.toFixed(3)}`);
  }
  return jobs;
}

/** The table: one row per encoding (and rope with scaling), mean [min–max] over seeds per length. */
export function table(jobs, settings, t) {
  const lengths = evalLengths(settings.len, settings.task);
  const rows = [];
  for (const g of groupRuns(jobs)) {
    const variants = [[t(`arena.encName.${g.enc}`), false]];
    if (g.enc === 'rope' && settings.scaling !== 'none') variants.push([t('arena.ropeScaled', t(`arena.scaling.${settings.scaling}`)), true]);
    for (const [label, scaled] of variants) {
      for (const metric of ['token_accuracy', 'accuracy']) {
        rows.push([`${label} ${metric === 'accuracy' ? t('arena.metric.short.seq') : t('arena.metric.short.tok')}`,
          ...lengths.map((n) => {
            const s = spread(valuesAt(g, n, metric, scaled));
            return s ? fmtSpread(s) : '—';
          })]);
      }
    }
  }
  const head = ['', ...lengths.map((n) => `${n} (${Number((n / settings.len).toFixed(2))}×)`)];
  const widths = head.map((_, i) => Math.max(...[head, ...rows].map((r) => [...r[i]].length)));
  const line = (r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(head), ...rows.map(line)].join('\n');
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const t = translator(o.lang);
  const { preset } = experimentSettings(o);
  let { settings } = experimentSettings(o);
  let jobs;
  let seconds;
  if (o.from) {
    ({ settings, jobs, seconds } = JSON.parse(readFileSync(o.from, 'utf8')));
    if (o.metric !== null) settings.metric = o.metric;
    // --seed/--seeds pick a run of seeds out of the saved ones (runs depend on their own seed only).
    const base = o.seed === null ? settings.seed : Number(o.seed);
    const count = o.seeds === null ? settings.seeds - (base - settings.seed) : Number(o.seeds);
    if (base < settings.seed || base + count > settings.seed + settings.seeds) throw new Error(`the saved runs have seeds ${settings.seed} … ${settings.seed + settings.seeds - 1}`);
    jobs = jobs.filter((j) => j.seed >= base && j.seed < base + count);
    settings = { ...settings, seed: base, seeds: count };
    seconds = jobs.reduce((n, j) => n + j.totalS, 0);
  } else {
    const pe = await createPE(o.wasm ? { wasm: readFileSync(o.wasm) } : {});
    const log = (s) => process.stderr.write(`${s}\n`);
    log(`preset ${preset.id}; #arena?${new URLSearchParams(settingsParams(settings))}`);
    const t0 = performance.now();
    jobs = await runExperiment(pe, settings, log);
    seconds = (performance.now() - t0) / 1000;
  }
  const metric = METRICS[settings.metric];
  console.log(`#arena?${new URLSearchParams(settingsParams(settings))}`);
  console.log(t('arena.script.head', { seeds: settings.seeds, base: settings.seed, samples: EVAL_SAMPLES, seconds: seconds.toFixed(0) }));
  console.log(table(jobs, settings, t));
  console.log();
  for (const s of findings(jobs, settings, t, metric)) console.log(`- ${s}`);
  const paper = paperFor(settings);
  if (paper) for (const s of paperCheck(jobs, settings, paper, t, metric)) console.log(`- ${s}`);
  if (o.json) writeFileSync(o.json, `${JSON.stringify({ settings, seconds, jobs }, null, 1)}\n`);
}

if (process.argv[1] && new URL(import.meta.url).pathname === process.argv[1]) {
  main().catch((e) => {
    console.error(e.message);
    process.exit(1);
  });
}
