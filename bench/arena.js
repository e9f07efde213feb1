// PE Lab benchmark, Arena: training steps of the arena's default model (shared/spec-contract.md
// "Arena": 2 layers, d_model 32, 4 heads, 16 symbols, copy at train_length 16 as a causal decoder,
// T = 33, batch 32, RoPE), one thread.
//
//   node bench/arena.js [--json FILE] [--runs N] [--warmup N] [--no-python] [--strict] [--sweep-steps N]
//                       [--no-page] [--page-only] [--shots DIR]
//   (also run by `npm run bench` through bench/bench.js)
//
// Measures, in one Node process:
//   WASM SIMD step     t.step(1) of pe.trainer on web/wasm/pe_simd.wasm (batch generation, forward,
//                      backward, AdamW; the loss copied out), median over timed runs
//   WASM scalar step   the same on web/wasm/pe_scalar.wasm
//   the sweep          6 encodings × N steps (default 1000) with the SIMD build, one t.step(N) each,
//                      wall-clock total on one thread, each encoding's CPU time too, and the
//                      page's cost on two workers (one per core, three encodings each)
//   CPU ms per step    process.cpuUsage over `runs` further steps: the work itself, which a busy
//                      shared machine does not inflate the way it inflates wall-clock medians
// and, when /usr/bin/python3 has PyTorch, bench/python_arena.py: the same model and step in
// PyTorch float32 (nn.Linear, AdamW), torch.set_num_threads(1), in a child process: the anchor.
// Then, in headless Chromium (the page part; --no-page skips it, --page-only runs only it):
//   the page's default experiment   #arena as a visitor opens it (kback, encoder, length 16, the six
//                      encodings × 3 seeds, trained on lengths 8 … 16 for the task's step budget, lr 3e-3;
//                      evaluation at 0.5× … 4× the training length, 256 examples per point),
//                      Run clicked, timed until every encoding is done (data-state="done", every
//                      accuracy-vs-length point in): the page's own clock (data-wall-ms) and ours,
//                      with the 1-min load average at the start, its peak and at the end, the CPU
//                      time Chromium's processes used over the run (/proc), and where the time went
//                      (worker time in t.step and t.evaluate per encoding, main-thread draw time)
//   --shots DIR saves DIR/arena-running.png (mid-run) and DIR/arena-done.png.
// Goals: WASM SIMD step ≥ 2× faster than PyTorch's (medians); the sweep < 60 s; the page's default
// experiment < 90 s (on a busy machine the CPU-time line says what an idle one would take).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

import {
  Goals, createPEFrom, environment, environmentLine, exposeGc, fmtMs, fmtNeedRatio, fmtRatio, loadKernels,
  here, loadWatch, log, measure, runIfMain, runPython, timingTable, writeJson, countOption,
} from './harness.js';

const SPEC = { kind: 'arena', task: 'copy', encoding: { kind: 'rope' }, causal: true, layers: 2, d_model: 32, heads: 4, symbols: 16, train_length: 16, batch: 32 };
const ENCODINGS = ['none', 'sinusoidal', 'learned', 'alibi', 't5', 'rope'];
const TARGET_TORCH_SPEEDUP = 2;
const TARGET_SWEEP_S = 60;
const PYTHON_TIMEOUT_MS = 300_000;
const TARGET_PAGE_S = 90; // the default experiment runs every encoding with three seeds
const PAGE_TIMEOUT_MS = 900_000; // a very busy machine: 15 minutes before the page part gives up

function stepMethod(pe, key, label) {
  const t = pe.trainer(SPEC);
  let last = null;
  return { key, label, trainer: t, run() { last = t.step(1); }, output: () => last };
}

/** Runs the arena benchmark: opts { runs, warmup, python, json, sweepSteps }. Returns { targets }. */
export async function runArena({
  runs = 30, warmup = 5, python = true, json = null, sweepSteps = 1000, page = true, pageOnly = false, shots = null,
} = {}) {
  if (pageOnly) {
    const goals = new Goals();
    const pageReport = await runArenaPage({ goals, shots });
    writeJson(json, { page: pageReport, targets: goals.targets });
    return { targets: goals.targets };
  }
  const started = performance.now();
  const { gc } = exposeGc();
  const load = loadWatch();
  log();
  log(`Arena benchmark: training steps of the default model (2 layers, d_model 32, 4 heads, T 33, batch 32, rope), one thread`);
  log(environmentLine(environment()));

  const kernels = await loadKernels();
  const simdPE = kernels.simd ? await createPEFrom(kernels, true) : null;
  const scalarPE = await createPEFrom(kernels, false);
  const methods = [
    simdPE && stepMethod(simdPE, 'wasm_simd', 'WASM SIMD, t.step(1)'),
    stepMethod(scalarPE, 'wasm_scalar', 'WASM scalar, t.step(1)'),
  ].filter(Boolean);
  const stats = measure(methods, { warmup, runs, gc });
  const results = {};
  for (const m of methods) {
    const s = stats.get(m.key);
    // CPU time of `runs` more steps (process.cpuUsage): on a shared machine the wall-clock
    // medians include time spent waiting for a core; this is the work itself.
    const c0 = process.cpuUsage();
    m.trainer.step(runs);
    const c = process.cpuUsage(c0);
    results[m.key] = { label: m.label, median_ms: s.median, min_ms: s.min, cpu_ms: (c.user + c.system) / 1000 / runs };
    m.trainer.free();
  }

  // The sweep: every encoding trained sweepSteps steps from scratch, SIMD when available.
  const sweepPE = simdPE ?? scalarPE;
  const sweep = {};
  const t0 = performance.now();
  for (const kind of ENCODINGS) {
    const t = sweepPE.trainer({ ...SPEC, encoding: { kind } });
    const s0 = performance.now();
    const c0 = process.cpuUsage();
    const losses = t.step(sweepSteps);
    const evaluation = t.evaluate(16, { samples: 256, seed: 1 });
    const c = process.cpuUsage(c0);
    sweep[kind] = {
      seconds: (performance.now() - s0) / 1000, cpu_seconds: (c.user + c.system) / 1e6,
      last_loss: losses[losses.length - 1], ...evaluation,
    };
    t.free();
  }
  const sweepSeconds = (performance.now() - t0) / 1000;
  // The page trains one encoding per worker, a worker per core: on this 2-core machine three
  // encodings after one another on each core. Its wall time is about the busier core's share.
  const cpu = ENCODINGS.map((k) => sweep[k].cpu_seconds);
  const twoWorkers = Math.max(cpu.filter((_, k) => k % 2 === 0).reduce((a, b) => a + b, 0),
    cpu.filter((_, k) => k % 2 === 1).reduce((a, b) => a + b, 0));

  const py = runPython('python_arena.py', ['--repeats', String(runs)],
    { enabled: python, timeoutMs: PYTHON_TIMEOUT_MS, requires: ['torch_step_ms'] });
  log();
  const rows = Object.values(results).map((r) => [r.label, r.median_ms, r.min_ms, null]);
  if (!py.skipped) rows.push(['PyTorch float32 step (forward, backward, AdamW)', py.torch_step_ms.median, py.torch_step_ms.min, null]);
  log(timingTable(rows, (results.wasm_simd ?? results.wasm_scalar).median_ms, simdPE ? 'SIMD' : 'scalar'));
  log();
  log(`sweep: ${ENCODINGS.length} encodings × ${sweepSteps} steps (${simdPE ? 'SIMD' : 'scalar'}), copy at length 16:`);
  for (const [kind, r] of Object.entries(sweep)) {
    log(`  ${kind.padEnd(10)} ${r.seconds.toFixed(1).padStart(5)} s (CPU ${r.cpu_seconds.toFixed(1)} s)  loss ${r.last_loss.toFixed(4)}  accuracy ${r.accuracy.toFixed(3)}  token accuracy ${r.token_accuracy.toFixed(3)}`);
  }
  log(`  total ${sweepSeconds.toFixed(1)} s wall, ${cpu.reduce((a, b) => a + b, 0).toFixed(1)} s CPU on one thread; `
    + `the page's two workers (three encodings each, idle cores): about ${twoWorkers.toFixed(1)} s`);
  log(`  CPU ms per step (the work without waiting for a core): ${Object.values(results).map((r) => `${r.label} ${fmtMs(r.cpu_ms)}`).join(', ')}`);
  log();

  const goals = new Goals();
  log('goals');
  if (py.skipped || !results.wasm_simd) {
    goals.skip('simd_vs_torch', 'WASM SIMD step speed-up over PyTorch', py.skipped ? `no Python anchor: ${py.skipped}` : 'no WASM SIMD');
  } else {
    const ratio = py.torch_step_ms.median / results.wasm_simd.median_ms;
    goals.check({
      key: 'simd_vs_torch', name: 'WASM SIMD step speed-up over PyTorch', value: ratio, need: TARGET_TORCH_SPEEDUP, atLeast: true,
      show: fmtRatio, showNeed: fmtNeedRatio,
      anchor: `PyTorch ${fmtMs(py.torch_step_ms.median)} ms / WASM SIMD ${fmtMs(results.wasm_simd.median_ms)} ms per step (medians)`,
      details: [`on the minima: ${fmtRatio(py.torch_step_ms.min / results.wasm_simd.min_ms)}`],
      extra: { ratio },
    });
  }
  goals.check({
    key: 'sweep', name: `${ENCODINGS.length} encodings × ${sweepSteps} steps`, value: sweepSeconds, need: TARGET_SWEEP_S,
    show: (x) => `${x.toFixed(1)} s`, anchor: `${simdPE ? 'WASM SIMD' : 'WASM scalar (no SIMD here)'}, one thread, all six in turn`,
    details: [`the page's two workers on idle cores: about ${twoWorkers.toFixed(1)} s (CPU time of the busier one)`],
    extra: { seconds: sweepSeconds, two_workers_cpu_seconds: twoWorkers },
  });
  const busy = load.note();
  if (busy) log(`  note: ${busy}`);
  const pageReport = page ? await runArenaPage({ goals, shots }) : null;
  log();
  log(`Arena benchmark: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  writeJson(json, { spec: SPEC, runs, warmup, results, sweep_steps: sweepSteps, sweep, sweep_seconds: sweepSeconds, python: py, page: pageReport, targets: goals.targets });
  return { targets: goals.targets };
}

const sweepOption = countOption('--sweep-steps', 'sweepSteps', 'steps per encoding in the sweep (default 1000)');
const pageOptions = [
  { flag: '--no-page', help: 'skip the page\'s default experiment in headless Chromium', set: (o) => { o.page = false; } },
  { flag: '--page-only', help: 'run only the page\'s default experiment', set: (o) => { o.pageOnly = true; } },
  { flag: '--shots', value: 'DIR', help: 'save screenshots of the page mid-run and at the end to DIR', set: (o, v) => { o.shots = v; } },
];
runIfMain(import.meta.url, { script: 'bench/arena.js', part: 'arena', defaults: { runs: 30, warmup: 5 }, extra: [sweepOption, ...pageOptions] }, runArena);

// --- the page's default experiment in headless Chromium --------------------------------------------
// The functions handed to page.evaluate / waitForFunction run in the page:
/* global document, window, location */

/** Clock ticks per second of /proc/<pid>/stat (getconf CLK_TCK; 100 on Linux in practice). */
function clockTicks() {
  try {
    const out = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout;
    const n = Number(out.trim());
    return n > 0 ? n : 100;
  } catch {
    return 100;
  }
}

/**
 * CPU seconds (user + system, children that exited included) of every process descending from
 * this one: Chromium's browser, renderer, GPU and utility processes. null without /proc.
 */
function descendantsCpuSeconds(ticks) {
  if (!existsSync('/proc/self/stat')) return null;
  const procs = new Map(); // pid → { ppid, ticks }
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // fields from 3 (state) on
    procs.set(Number(name), { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]) });
  }
  const mine = new Set([process.pid]);
  let total = 0;
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, p] of procs) {
      if (!mine.has(pid) && mine.has(p.ppid)) {
        mine.add(pid);
        total += p.ticks;
        grew = true;
      }
    }
  }
  return total / ticks;
}

/**
 * The page's default experiment (#arena as it opens: six encodings × three seeds, then the
 * evaluation lengths), from the click on Run until every encoding is done. Adds its goal to
 * `goals`; returns what it measured (null when Chromium is not available).
 */
export async function runArenaPage({ goals, shots = null }) {
  log();
  log('the page: the default experiment of #arena in headless Chromium (Run → every encoding evaluated)');
  let helpers;
  try {
    helpers = await import('../tests/browser/helpers.js');
  } catch (e) {
    goals.skip('page_experiment', 'the page\'s default experiment', `cannot load the browser helpers: ${e.message.split('\n')[0]}`);
    return null;
  }
  const avail = helpers.browserAvailability();
  if (!avail.run) {
    goals.skip('page_experiment', 'the page\'s default experiment', avail.reason);
    return null;
  }
  const web = here('../web');
  if (!existsSync(path.join(web, 'wasm', 'pe_simd.wasm'))) throw new Error('run `bash build.sh` first');
  if (!existsSync(path.join(web, 'dist', 'app.js'))) {
    const { bundle } = await import('../scripts/bundle.js');
    await bundle({ webDir: web });
  }
  const { startServer } = await import('../scripts/serve.js');
  const server = await startServer({ port: 0, root: web });
  const browser = await helpers.launchChromium();
  const ticks = clockTicks();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
    context.setDefaultTimeout(PAGE_TIMEOUT_MS);
    const page = await context.newPage();
    await page.goto(`${server.url}?lang=en#arena`, { waitUntil: 'load' });
    await page.waitForFunction(() => document.documentElement.dataset.pageState === 'ready' && !!document.querySelector('.arena'));
    const settings = await page.evaluate(() => {
      // Long tasks on the main thread over the run (drawing, messages): the page's own cost.
      window.__arenaLong = [];
      try {
        new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__arenaLong.push(e.duration); })
          .observe({ type: 'longtask' });
      } catch { /* no Long Tasks API */ }
      return new URLSearchParams(location.hash.split('?')[1] ?? '').toString();
    });
    const load = { start: os.loadavg()[0], peak: os.loadavg()[0] };
    const sampler = setInterval(() => { load.peak = Math.max(load.peak, os.loadavg()[0]); }, 1000);
    const cpu0 = descendantsCpuSeconds(ticks);
    const t0 = performance.now();
    await page.click('.arena-primary');
    if (shots) {
      mkdirSync(shots, { recursive: true });
      // Mid-run: once about half of all steps are taken.
      await page.waitForFunction(() => {
        const r = document.querySelector('.arena').arenaResults();
        const done = r.jobs.reduce((n, j) => n + j.steps, 0);
        return done >= r.jobs.length * r.settings.steps / 2;
      });
      await page.screenshot({ path: path.join(shots, 'arena-running.png'), fullPage: true });
    }
    await page.waitForFunction(() => document.querySelector('.arena')?.dataset.state === 'done', null, { polling: 250 });
    const wall = (performance.now() - t0) / 1000;
    const cpu1 = descendantsCpuSeconds(ticks);
    clearInterval(sampler);
    load.end = os.loadavg()[0];
    load.peak = Math.max(load.peak, load.end);
    const r = await page.evaluate(() => {
      const res = document.querySelector('.arena').arenaResults();
      return {
        wallMs: Number(document.querySelector('.arena').dataset.wallMs), draw: res.draw,
        longTasks: window.__arenaLong ?? [], settings: res.settings, workers: Math.max(...res.jobs.map((j) => j.worker)) + 1,
        jobs: res.jobs.map((j) => ({ id: j.id, enc: j.enc, state: j.state, steps: j.steps, worker: j.worker, trainMs: j.trainMs, evalMs: j.evalMs, evals: j.evals.length, last: j.losses[j.losses.length - 1] })),
      };
    });
    if (shots) await page.screenshot({ path: path.join(shots, 'arena-done.png'), fullPage: true });
    await context.close();

    const cpu = cpu0 === null || cpu1 === null ? null : cpu1 - cpu0;
    const cores = os.cpus().length;
    const workerS = r.jobs.reduce((n, j) => n + (j.trainMs + j.evalMs) / 1000, 0);
    const perWorker = Array.from({ length: r.workers }, (_, w) => r.jobs.filter((j) => j.worker === w)
      .reduce((n, j) => n + (j.trainMs + j.evalMs) / 1000, 0));
    const longMs = r.longTasks.reduce((a, b) => a + b, 0);
    log(`  settings: ${settings || '(the defaults)'}; ${r.jobs.length} runs (encodings × seeds) on ${r.workers} workers (${cores} CPUs)`);
    for (const j of r.jobs) {
      log(`  ${j.id.padEnd(14)} worker ${j.worker}  ${j.steps} steps ${(j.trainMs / 1000).toFixed(1).padStart(5)} s `
        + `(${(j.trainMs / j.steps).toFixed(2)} ms/step)  evaluation ${(j.evalMs / 1000).toFixed(1)} s (${j.evals} lengths)  `
        + `last loss ${j.last.toFixed(4)}  ${j.state}`);
    }
    log(`  workers busy ${perWorker.map((s) => `${s.toFixed(1)} s`).join(', ')} (t.step + t.evaluate, wall clock inside the worker); `
      + `main thread: draw() ${(r.draw.ms / 1000).toFixed(2)} s over ${r.draw.count} draws, long tasks ${(longMs / 1000).toFixed(2)} s (${r.longTasks.length})`);
    log(`  load average (1 min): ${load.start.toFixed(2)} at the start, up to ${load.peak.toFixed(2)}, ${load.end.toFixed(2)} at the end`);
    const idleEstimate = cpu === null ? null : cpu / cores;
    const details = [];
    if (cpu !== null) {
      details.push(`Chromium's processes used ${cpu.toFixed(1)} s of CPU over the run: on ${cores} idle cores that is at least ${(cpu / cores).toFixed(1)} s`);
    }
    details.push(`the page's own clock (data-wall-ms): ${(r.wallMs / 1000).toFixed(1)} s; load average ${load.start.toFixed(2)} → peak ${load.peak.toFixed(2)} on ${cores} CPUs`);
    goals.check({
      key: 'page_experiment', name: `the page's default experiment (${r.jobs.length} runs, encodings × seeds, × ${r.settings.steps} steps + evaluation)`,
      value: wall, need: TARGET_PAGE_S, show: (x) => `${x.toFixed(1)} s`,
      anchor: `Run clicked → data-state "done" in headless Chromium, ${r.workers} workers`, details,
      extra: { seconds: wall, cpu_seconds: cpu, load },
    });
    return { settings, wall_seconds: wall, page_wall_ms: r.wallMs, cpu_seconds: cpu, idle_estimate_seconds: idleEstimate, load, cores, workers: r.workers, per_worker_seconds: perWorker, worker_seconds: workerS, draw: r.draw, long_task_ms: longMs, jobs: r.jobs };
  } finally {
    await browser.close();
    await server.close();
  }
}
