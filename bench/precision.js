// PE Lab benchmark, the precision lab (kind rope_precision, c/precision.c): the full sweep of
// 2^20 positions at dim 128 (base 10000, the float32 recipe, transformers' path): every position's
// worst angle error (the error curve) and the rows whose cos/sin equal the row before (the
// collision count), as the page's "error by position" and "collisions" views need them.
//
//   node bench/precision.js [--json FILE] [--runs N] [--warmup N] [--python-repeats N] [--no-python] [--strict]
//   (also run by `npm run bench` through bench/bench.js)
//
// Measures, in one Node process, single-threaded:
//   WASM SIMD sweep    pe_rope_precision_sweep() of web/wasm/pe_simd.wasm (row_error and the
//                      collisions, without the per-entry tables) over the positions in chunks of
//                      65,536 rows (one row of overlap, so collisions across chunk edges count),
//                      buffers malloc'ed once; the error curve copied out per chunk
//   WASM scalar sweep  the same with web/wasm/pe_scalar.wasm
//   pe.precisionSweep  the public API (web/pe.js, SIMD build): all 2^20 positions in one call,
//                      allocation, copy-out and free included (what the page's view calls)
//   full kernel        pe_rope_precision() (every entry's cos, sin and error) over the first chunk,
//                      for comparison: time × 16, and its row_error against the sweep's
// and, when /usr/bin/python3 has PyTorch, bench/python_precision.py: the same computation
// (float32 f, q and φ, cos/sin of φ rounded to float32, the error against p·ω in float64, its max
// per row, the collisions) in PyTorch, torch.set_num_threads(1), in a child process of the same
// run: the anchor. A WASM sweep takes about 0.1 s: by default 2 warm-up runs (V8 compiles WASM
// in a baseline tier first and optimizes hot functions while they run, so a first run is partly
// baseline code) and 9 timed runs, median reported. PyTorch's takes seconds: one warm-up call and
// --python-repeats timed calls (default 1).
//
// Agreement: the worst error, its position, the collision count and 64 sampled rows of the
// curve against PyTorch's (float32 outputs of float64 work: within 1e-6 rad).
import { performance } from 'node:perf_hooks';

import os from 'node:os';

import {
  Goals, createPEFrom, environment, environmentLine, exposeGc, fmtMs, fmtRatio, loadKernels, loadWatch, log, measure,
  runIfMain, runPython, writeJson, countOption,
} from './harness.js';

const POSITIONS = 2 ** 20;
const DIM = 128;
const BASE = 10000;
const PAIRS = DIM / 2;
const CHUNK = 65536;
const FLOAT32 = 1; // pe_recipe_dtype (c/precision.h)
const PYTHON_TIMEOUT_MS = 1_800_000;

// Goals: the budget for the sweep; agreement with PyTorch.
const TARGET_SWEEP_MS = 100;
const TARGET_AGREEMENT = 1e-6;

/**
 * The sweep with pe_rope_precision_sweep (row_error and collisions only, c/precision.c) over the
 * positions in chunks of CHUNK rows (one row of overlap, so collisions across chunk edges count):
 * run() fills `rows` (the error curve) and the collision count.
 */
function sweepMethod(w) {
  const cap = CHUNK + 1;
  const ptr = (bytes) => {
    const p = w.malloc(bytes);
    if (!p) throw new Error('precision bench: malloc failed');
    return p;
  };
  const rowErr = ptr(cap * 4);
  const stats = ptr(2 * 8);
  const scratch = ptr(8 * PAIRS * 8); // PE_PRECISION_SWEEP_SCRATCH(n)
  const rows = new Float32Array(POSITIONS);
  let collisions = 0;
  return {
    rows,
    collisions: () => collisions,
    run() {
      collisions = 0;
      for (let start = 0; start < POSITIONS; start += CHUNK) {
        const lead = start > 0 ? 1 : 0; // the row before the chunk, for collisions across the edge
        const length = Math.min(CHUNK, POSITIONS - start) + lead;
        const status = w.pe_rope_precision_sweep(rowErr, stats, scratch, start - lead, FLOAT32, FLOAT32, FLOAT32, FLOAT32,
          length, DIM, BASE, 1, 0, 0, NaN, 0, 32, 1, 1, NaN, NaN, NaN, NaN, NaN);
        if (status !== 0) throw new Error(`pe_rope_precision_sweep returned status ${status}`);
        rows.set(new Float32Array(w.memory.buffer, rowErr + lead * 4, length - lead), start);
        collisions += new Float64Array(w.memory.buffer, stats, 2)[0];
      }
    },
  };
}

/** The full kernel (every entry's cos, sin and error) over the first CHUNK positions: rows and time. */
function fullKernelChunk(w) {
  const out = w.malloc(CHUNK * PAIRS * 4);
  const cos = w.malloc(CHUNK * PAIRS * 4);
  const sin = w.malloc(CHUNK * PAIRS * 4);
  const rowErr = w.malloc(CHUNK * 4);
  const stats = w.malloc(16);
  const scratch = w.malloc(8 * PAIRS * 8);
  if (!out || !cos || !sin || !rowErr || !stats || !scratch) throw new Error('precision bench: malloc failed');
  const t0 = performance.now();
  const status = w.pe_rope_precision(out, cos, sin, rowErr, stats, scratch, 0, FLOAT32, FLOAT32, FLOAT32, FLOAT32,
    CHUNK, DIM, BASE, 1, 0, 0, NaN, 0, 32, 1, 1, NaN, NaN, NaN, NaN, NaN);
  const ms = performance.now() - t0;
  if (status !== 0) throw new Error(`pe_rope_precision returned status ${status}`);
  const rows = new Float32Array(w.memory.buffer, rowErr, CHUNK).slice();
  for (const p of [out, cos, sin, rowErr, stats, scratch]) w.free(p);
  return { ms, rows };
}

export async function runPrecision({ runs = 9, warmup = 2, python = true, json = null, pythonRepeats = 1 } = {}) {
  const env = environment();
  log(`\n== precision: the full sweep, ${POSITIONS.toLocaleString('en-US')} positions × dim ${DIM} (error curve + collisions), float32 recipe`);
  log(environmentLine(env));
  const { gc } = exposeGc();
  const watch = loadWatch();
  const kernels = await loadKernels();
  const goals = new Goals();
  if (!kernels.simd) {
    goals.skip('sweep_ms', 'WASM SIMD sweep', 'no WASM SIMD');
    return { targets: goals.targets };
  }
  const k = sweepMethod(kernels.simd);
  const ks = sweepMethod(kernels.scalar);
  const pe = await createPEFrom(kernels, true);
  const apiSpec = { length: POSITIONS, dim: DIM, base: BASE, recipe: 'float32' };
  let apiResult = null;
  const stats = measure([
    { key: 'wasm_simd', run: () => k.run() },
    { key: 'api', run: () => { apiResult = pe.precisionSweep(apiSpec); } },
    { key: 'wasm_scalar', run: () => ks.run() },
  ], { warmup, runs, gc });
  const simd = stats.get('wasm_simd');
  const scalar = stats.get('wasm_scalar');
  const api = stats.get('api');
  const apiSame = apiResult.row_error.every((v, i) => Object.is(v, k.rows[i])) && apiResult.collisions === k.collisions();
  let worst = 0;
  let worstAt = 0;
  for (let i = 0; i < POSITIONS; i++) if (k.rows[i] > worst) { worst = k.rows[i]; worstAt = i; }
  // CPU time of one more SIMD sweep: on a shared machine the wall time above includes waiting.
  const cpu0 = process.cpuUsage();
  k.run();
  const cpuUsage = process.cpuUsage(cpu0);
  const cpuMs = cpuUsage.user / 1000;
  const sysMs = cpuUsage.system / 1000;
  const full = fullKernelChunk(kernels.simd);
  const sameRows = full.rows.every((v, i) => Object.is(v, k.rows[i]));
  log(`  WASM scalar sweep: median ${fmtMs(scalar.median)} ms; the full kernel (every entry's cos, sin, error) over the first ${CHUNK.toLocaleString('en-US')} positions: ${fmtMs(full.ms)} ms`
    + ` (× ${POSITIONS / CHUNK} ≈ ${fmtMs((full.ms * POSITIONS) / CHUNK)} ms for the sweep), its row_error ${sameRows ? 'equal to the sweep\'s bit for bit' : 'DIFFERENT from the sweep\'s'}`);
  log(`  WASM SIMD sweep: median ${fmtMs(simd.median)} ms, min ${fmtMs(simd.min)} ms (${runs} run${runs === 1 ? '' : 's'}), ${fmtMs(cpuMs)} ms of CPU time (user; ${fmtMs(sysMs)} ms system) in one more run;`
    + ` worst error ${worst.toExponential(4)} rad at ${worstAt}, ${k.collisions()} collisions`);
  log(`  pe.precisionSweep (JS API, SIMD, 2^20 positions in one call): median ${fmtMs(api.median)} ms, min ${fmtMs(api.min)} ms; ${apiSame ? 'the same rows and collisions as the chunked sweep' : 'DIFFERENT from the chunked sweep'}`);
  log(`  load average (1, 5, 15 min) after the WASM runs: ${os.loadavg().map((v) => v.toFixed(2)).join(', ')} on ${os.cpus().length} CPUs`);

  const py = runPython('python_precision.py', ['--positions', String(POSITIONS), '--dim', String(DIM), '--base', String(BASE), '--repeats', String(pythonRepeats)],
    { enabled: python, timeoutMs: PYTHON_TIMEOUT_MS, requires: ['torch_sweep_ms'] });
  const anchor = py.skipped ? null : `PyTorch, the same sweep: ${fmtMs(py.torch_sweep_ms.median)} ms (median); WASM SIMD ${fmtRatio(py.torch_sweep_ms.median / simd.median)} its speed`;
  goals.check({
    key: 'sweep_ms', name: 'WASM SIMD full sweep (2^20 positions, dim 128)', value: simd.median, need: TARGET_SWEEP_MS,
    show: (v) => `${fmtMs(v)} ms`, anchor,
    details: [`CPU time of a SIMD sweep (user): ${fmtMs(cpuMs)} ms`, `pe.precisionSweep, one call: ${fmtMs(api.median)} ms`, `scalar build ${fmtMs(scalar.median)} ms; the full kernel, extrapolated from ${CHUNK.toLocaleString('en-US')} positions: ${fmtMs((full.ms * POSITIONS) / CHUNK)} ms`, watch.note()].filter(Boolean),
  });
  if (!apiSame) goals.check({ key: 'api_equals_sweep', name: 'pe.precisionSweep equals the chunked sweep', value: 0, need: 1, atLeast: true, show: String });
  if (!sameRows) goals.check({ key: 'sweep_equals_kernel', name: 'sweep row_error equals the full kernel\'s', value: 0, need: 1, atLeast: true, show: String });
  if (py.skipped) goals.skip('sweep_agreement', 'agreement with PyTorch', `no Python anchor: ${py.skipped}`);
  else {
    let dev = Math.abs(py.worst - worst);
    py.sample_positions.forEach((p, i) => { dev = Math.max(dev, Math.abs(py.sample_errors[i] - k.rows[p])); });
    const same = py.collisions === k.collisions();
    goals.check({
      key: 'sweep_agreement', name: 'error curve against PyTorch (worst and 64 sampled rows, rad)', value: same ? dev : Infinity,
      need: TARGET_AGREEMENT, show: (v) => v.toExponential(2),
      anchor: `PyTorch worst ${py.worst.toExponential(4)} at ${py.worst_at}, ${py.collisions} collisions; PE Lab ${k.collisions()}`,
    });
  }
  writeJson(json, { positions: POSITIONS, dim: DIM, base: BASE, recipe: 'float32', runs, warmup, env,
    wasm_simd: { median_ms: simd.median, min_ms: simd.min, worst, worst_at: worstAt, collisions: k.collisions() },
    wasm_scalar: { median_ms: scalar.median }, api_sweep: { median_ms: api.median, min_ms: api.min, same: apiSame },
    wasm_simd_cpu_ms: cpuMs, wasm_simd_sys_ms: sysMs, loadavg_after: os.loadavg(), full_kernel_first_chunk_ms: full.ms, python: py, targets: goals.targets });
  return { targets: goals.targets };
}

const pythonRepeatsOption = countOption('--python-repeats', 'pythonRepeats', 'timed PyTorch sweeps (default 1; each takes seconds)');

runIfMain(import.meta.url, { script: 'bench/precision.js', part: 'precision', defaults: { runs: 9, warmup: 2 }, extra: [pythonRepeatsOption] }, runPrecision);
