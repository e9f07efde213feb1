// PE Lab benchmark, sinusoidal: the 2000×1600 float32 sinusoidal table (interleaved, base 10000,
// offset 0; 12.2 MiB).
//
//   node bench/sinusoidal.js [--json FILE] [--runs N] [--warmup N] [--no-python] [--strict]
//   (also the first part of `npm run bench`, through bench/bench.js)
//
// Measures, in one Node process, single-threaded:
//   WASM SIMD kernel      pe_sinusoidal() of web/wasm/pe_simd.wasm into a buffer malloc'ed once
//                         (the table computed into WASM memory, like the tutorial code produces a
//                         tensor in its own memory)
//   WASM scalar kernel    the same with web/wasm/pe_scalar.wasm
//   pe.compute SIMD/scalar  the public API end to end: validation, malloc/free, copy out to a
//                         fresh Float32Array
//   JS Math.sin/cos loop  the obvious plain-JS implementation (float64 angle, interleaved), into a
//                         Float32Array allocated once, like the kernel-only rows
// and, when /usr/bin/python3 has NumPy and PyTorch, bench/python_sinusoidal.py (the PyTorch and
// NumPy tutorial code, single-threaded) in a child process of the same run: the anchors.
//
// Timing (bench/harness.js measure): warm-up runs, then timed runs round-robin with a GC before
// each; median and min in ms. The kernel-only methods run first, then the end-to-end pe.compute.
// Accuracy: max abs error of every JS/WASM method against a float64 evaluation (Math.sin/Math.cos
// of p·ω, ω_i = 10000^(-2i/1600)) over the whole table, and at positions ~10^6.
import os from 'node:os';
import { performance } from 'node:perf_hooks';

import {
  Goals, createPEFrom, environment, exposeGc, fmtErr, fmtMs, fmtRatio, loadKernels, loadWatch, log,
  measure, onThatBasis, runIfMain, runPython, timingTable, worstWasmErr, writeJson,
} from './harness.js';

const LENGTH = 2000;
const DIM = 1600;
const BASE = 10000;
const OFFSET = 0;
const LAYOUT_INTERLEAVED = 0;
const PYTHON_TIMEOUT_MS = 120_000;

// Goals (the issue): speed against the tutorial code, accuracy against float64.
const TARGET_TORCH_SPEEDUP = 4;
const TARGET_NUMPY_SPEEDUP = 8;
const TARGET_MAX_ABS_ERR = 2e-7;

// Far positions (the Python script's torch_err_at_1e6 rows): 10^6-16 .. 10^6 at dim 64.
const FAR_FIRST = 10 ** 6 - 16;
const FAR_ROWS = 17;
const FAR_DIM = 64;

// --- methods -------------------------------------------------------------------------------------

/** The kernel alone: pe_sinusoidal into a buffer malloc'ed once in WASM memory. */
function kernelMethod(w, name) {
  const count = LENGTH * DIM;
  const ptr = w.malloc(count * 4);
  if (ptr === 0) throw new Error(`${name}: malloc of ${count * 4} bytes failed`);
  return {
    run() {
      const status = w.pe_sinusoidal(ptr, LENGTH, DIM, BASE, LAYOUT_INTERLEAVED, OFFSET);
      if (status !== 0) throw new Error(`${name}: pe_sinusoidal returned status ${status}`);
    },
    // memory.buffer may be replaced by growth: view it afresh.
    output: () => new Float32Array(w.memory.buffer, ptr, count),
  };
}

/**
 * The obvious JS implementation: float64 ω and angle, Math.sin/Math.cos, interleaved, into `out`.
 * Into a Float64Array it is the float64 reference the accuracy is measured against.
 */
function sinusoidalJS(out, length, dim, base, offset) {
  const pairs = (dim + 1) >> 1;
  const omega = new Float64Array(pairs);
  for (let i = 0; i < pairs; i++) omega[i] = base ** (-2 * i / dim);
  for (let r = 0; r < length; r++) {
    const p = offset + r;
    const row = r * dim;
    for (let i = 0; i < pairs; i++) {
      const angle = p * omega[i];
      out[row + 2 * i] = Math.sin(angle);
      if (2 * i + 1 < dim) out[row + 2 * i + 1] = Math.cos(angle);
    }
  }
  return out;
}

const reference64 = (length, dim, base, offset) => sinusoidalJS(new Float64Array(length * dim), length, dim, base, offset);

function jsMethod() {
  const out = new Float32Array(LENGTH * DIM);
  return { run: () => sinusoidalJS(out, LENGTH, DIM, BASE, OFFSET), output: () => out };
}

/** The public API end to end: a fresh Float32Array per call, dropped before the next timed run. */
function computeMethod(pe) {
  const spec = { kind: 'sinusoidal', length: LENGTH, dim: DIM, base: BASE, layout: 'interleaved', offset: OFFSET };
  let last = null;
  return {
    run() { last = pe.compute(spec).data; },
    output: () => last,
    release() { last = null; },
  };
}

// --- accuracy ------------------------------------------------------------------------------------

function maxAbsErr(data, ref) {
  if (data.length !== ref.length) throw new Error(`output has ${data.length} values, expected ${ref.length}`);
  let worst = 0;
  for (let k = 0; k < ref.length; k++) {
    const e = Math.abs(data[k] - ref[k]);
    if (!(e <= worst)) worst = e;   // NaN propagates as the worst
  }
  return worst;
}

function sameBits(a, b) {
  if (a.length !== b.length) return false;
  const x = new Uint32Array(a.buffer, a.byteOffset, a.length);
  const y = new Uint32Array(b.buffer, b.byteOffset, b.length);
  for (let k = 0; k < x.length; k++) if (x[k] !== y[k]) return false;
  return true;
}

/** Max abs error of a kernel module on the far rows 10^6-16 .. 10^6 at dim 64. */
function farErrKernel(w, ref) {
  const count = FAR_ROWS * FAR_DIM;
  const ptr = w.malloc(count * 4);
  try {
    const status = w.pe_sinusoidal(ptr, FAR_ROWS, FAR_DIM, BASE, LAYOUT_INTERLEAVED, FAR_FIRST);
    if (status !== 0) throw new Error(`pe_sinusoidal (far rows) returned status ${status}`);
    return maxAbsErr(new Float32Array(w.memory.buffer, ptr, count), ref);
  } finally {
    w.free(ptr);
  }
}

// --- goals ---------------------------------------------------------------------------------------

/**
 * Speed against a Python anchor of the same run: anchor median / WASM SIMD kernel median must reach
 * `need`; the end-to-end pe.compute ratio and the min-over-min ratio are printed under it.
 */
function speedGoal(goals, { key, name, anchorName, pyMs, need }, results, py) {
  const simd = results.wasm_simd_kernel;
  if (goals.skipWithoutAnchor(key, name, py, simd)) return;
  const e2e = results.pe_compute_simd;
  const kernelRatio = pyMs.median / simd.median_ms;
  const e2eRatio = e2e ? pyMs.median / e2e.median_ms : null;
  const minRatio = pyMs.min / simd.min_ms;
  const details = [];
  if (e2eRatio != null) details.push(`end to end, pe.compute SIMD: ${fmtRatio(e2eRatio)} (${fmtMs(pyMs.median)} / ${fmtMs(e2e.median_ms)} ms) ${onThatBasis(e2eRatio >= need)}`);
  details.push(`min over min, kernel-only: ${fmtRatio(minRatio)} (${fmtMs(pyMs.min)} / ${fmtMs(simd.min_ms)} ms) ${onThatBasis(minRatio >= need)}`);
  goals.speedup({
    key, name, value: kernelRatio, need, details,
    anchor: `${anchorName} ${fmtMs(pyMs.median)} ms / WASM SIMD kernel ${fmtMs(simd.median_ms)} ms (medians)`,
    extra: { ratio_kernel: kernelRatio, ratio_end_to_end: e2eRatio, pass_end_to_end: e2eRatio == null ? null : e2eRatio >= need,
      ratio_min_kernel: minRatio, pass_min_kernel: minRatio >= need },
  });
}

/** Accuracy: the worst WASM max abs error over the table (and at positions ~10^6) against float64. */
function accuracyGoal(goals, results, far, py) {
  const wasmKeys = Object.keys(results).filter((k) => k !== 'js_loop');
  const worst = worstWasmErr(results);
  const farWorst = Math.max(...[far.wasm_simd, far.wasm_scalar].filter((x) => x != null));
  goals.maxAbsErr({
    key: 'accuracy', name: 'accuracy, worst WASM max abs err', value: worst, need: TARGET_MAX_ABS_ERR,
    anchor: `float64 evaluation${py.skipped ? '' : `; PyTorch tutorial ${fmtErr(py.torch_max_abs_err)}`}`,
    details: [
      wasmKeys.map((k) => `${k} ${fmtErr(results[k].max_abs_err)}`).join(', '),
      `at positions ~10^6 (dim 64): ${fmtErr(farWorst)} ${onThatBasis(farWorst <= TARGET_MAX_ABS_ERR)}`,
    ],
    extra: { worst_max_abs_err: worst, far_worst_max_abs_err: farWorst, pass_far: farWorst <= TARGET_MAX_ABS_ERR },
  });
}

// --- main ----------------------------------------------------------------------------------------

/** Runs the sinusoidal benchmark: opts { runs, warmup, python, json }. Returns { targets }. */
export async function runSinusoidal({ runs = 30, warmup = 5, python = true, json = null } = {}) {
  const started = performance.now();
  const { gc, how: gcHow } = exposeGc();
  const load = loadWatch();
  const kernels = await loadKernels();
  const { files, simd: simdW, scalar: scalarW } = kernels;
  const env = environment({
    gc: gcHow,
    wasm: Object.fromEntries(Object.entries(files).map(([k, v]) => [`pe_${k}`, { size: v.size, sha256: v.sha256 }])),
  });

  log('PE Lab benchmark: sinusoidal table');
  log(`  table    ${LENGTH} x ${DIM} float32, interleaved, base ${BASE}, offset ${OFFSET} (${(LENGTH * DIM * 4 / 2 ** 20).toFixed(1)} MiB)`);
  log(`  date     ${env.date}`);
  log(`  node     ${env.node} (V8 ${env.v8}), ${env.platform}`);
  log(`  cpu      ${env.cpu} (${env.cpus} logical CPUs; everything here runs single-threaded), load average ${env.loadavg.join(' ')}`);
  log(`  code     git ${env.git ?? 'unknown'}; ${Object.entries(files).map(([k, v]) => `pe_${k}.wasm ${v.size} B sha256 ${v.sha256.slice(0, 12)}`).join(', ')}`);
  log(`  timing   ${warmup} warm-up + ${runs} timed runs per method, performance.now(); GC ${gcHow}`);
  log();

  const notes = [];
  if (simdW && simdW.pe_simd_enabled() !== 1) notes.push('pe_simd.wasm reports pe_simd_enabled() = 0: it was not built with SIMD');
  if (scalarW.pe_simd_enabled() !== 0) notes.push('pe_scalar.wasm reports pe_simd_enabled() = 1');
  const peSimd = simdW ? await createPEFrom(kernels, true) : null;
  const peScalar = await createPEFrom(kernels, false);
  if (peSimd && !peSimd.simd) notes.push('createPE({ simd: true }) loaded a build with pe.simd === false');
  if (peScalar.simd) notes.push('createPE({ simd: false }) loaded a build with pe.simd === true');

  const kernelOnly = [
    simdW && { key: 'wasm_simd_kernel', label: 'WASM SIMD kernel (pe_sinusoidal, into WASM memory)', ...kernelMethod(simdW, 'SIMD') },
    { key: 'wasm_scalar_kernel', label: 'WASM scalar kernel (pe_sinusoidal, into WASM memory)', ...kernelMethod(scalarW, 'scalar') },
    { key: 'js_loop', label: 'JS Math.sin/cos loop (float64 angle, into Float32Array)', ...jsMethod() },
  ].filter(Boolean);
  const endToEnd = [
    peSimd && { key: 'pe_compute_simd', label: 'pe.compute, SIMD build (end to end, fresh Float32Array)', ...computeMethod(peSimd) },
    { key: 'pe_compute_scalar', label: 'pe.compute, scalar build (end to end, fresh Float32Array)', ...computeMethod(peScalar) },
  ].filter(Boolean);
  const methods = [...kernelOnly, ...endToEnd];

  // Timings: kernel-only first (no allocation in the timed region), then end to end.
  gc();
  const stats = new Map([...measure(kernelOnly, { warmup, runs, gc }), ...measure(endToEnd, { warmup, runs, gc })]);

  // Accuracy over the whole table, from each method's last output.
  const ref = reference64(LENGTH, DIM, BASE, OFFSET);
  const results = {};
  for (const m of methods) {
    const s = stats.get(m.key);
    results[m.key] = { label: m.label, median_ms: s.median, min_ms: s.min, first_call_ms: s.first, samples_ms: s.samples,
      max_abs_err: maxAbsErr(m.output(), ref) };
  }
  // End to end returns exactly what the kernel computes.
  const out = (key) => methods.find((m) => m.key === key)?.output();
  const identical = {};
  if (peSimd) identical.pe_compute_simd_vs_kernel = sameBits(out('pe_compute_simd'), out('wasm_simd_kernel'));
  identical.pe_compute_scalar_vs_kernel = sameBits(out('pe_compute_scalar'), out('wasm_scalar_kernel'));
  for (const [k, same] of Object.entries(identical)) if (!same) notes.push(`${k}: pe.compute output differs from the kernel-only output`);
  if (simdW) identical.simd_vs_scalar_kernel = sameBits(out('wasm_simd_kernel'), out('wasm_scalar_kernel'));

  // Far positions, like the Python script's torch_err_at_1e6.
  const farRef = reference64(FAR_ROWS, FAR_DIM, BASE, FAR_FIRST);
  const far = {
    rows: [FAR_FIRST, FAR_FIRST + FAR_ROWS - 1],
    dim: FAR_DIM,
    wasm_simd: simdW ? farErrKernel(simdW, farRef) : null,
    wasm_scalar: farErrKernel(scalarW, farRef),
    js_loop: maxAbsErr(sinusoidalJS(new Float32Array(FAR_ROWS * FAR_DIM), FAR_ROWS, FAR_DIM, BASE, FAR_FIRST), farRef),
  };

  // The Python anchors, after the JS/WASM measurements (they run in their own process).
  const py = runPython('python_sinusoidal.py', ['--length', String(LENGTH), '--dim', String(DIM), '--repeats', String(runs)],
    { enabled: python, timeoutMs: PYTHON_TIMEOUT_MS, requires: ['torch_tutorial_ms', 'numpy_tutorial_ms'] });
  log();

  // --- table -------------------------------------------------------------------------------------
  const rows = methods.map((m) => [m.label, results[m.key].median_ms, results[m.key].min_ms, results[m.key].max_abs_err]);
  if (!py.skipped) {
    const pyRow = (label, t, err) => rows.push([label, t.median, t.min, err]);
    pyRow('PyTorch tutorial (float32, 1 thread)', py.torch_tutorial_ms, py.torch_max_abs_err);
    pyRow('NumPy tutorial (float64, 1 thread)', py.numpy_tutorial_ms, py.numpy_max_abs_err);
    if (py.numpy_tutorial_f32_ms) pyRow('NumPy tutorial + .astype(float32) (1 thread)', py.numpy_tutorial_f32_ms, py.numpy_f32_max_abs_err);
  }
  log(timingTable(rows, results.wasm_simd_kernel?.median_ms, 'SIMD kernel'));
  log();
  log('time / SIMD kernel: median time divided by the WASM SIMD kernel median (how many times slower).');
  log('max abs err: over the whole table, against float64 Math.sin/Math.cos of p·ω, ω_i = 10000^(-2i/1600)');
  log('  (Python rows: against the float64 numpy reference, tests/fixtures/ref_sinusoidal.py).');
  log(`pe.compute output bit-identical to the kernel-only output: ${Object.entries(identical).filter(([k]) => k.startsWith('pe_')).map(([k, v]) => `${k.includes('simd') ? 'SIMD' : 'scalar'} ${v ? 'yes' : 'NO'}`).join(', ')}`
    + (identical.simd_vs_scalar_kernel === undefined ? '' : `; SIMD and scalar kernels bit-identical: ${identical.simd_vs_scalar_kernel ? 'yes' : 'no'}`));
  log();
  log(`far positions ${far.rows[0]}..${far.rows[1]}, dim ${FAR_DIM} (max abs err against float64):`);
  log(`  WASM SIMD kernel ${fmtErr(far.wasm_simd)}, WASM scalar kernel ${fmtErr(far.wasm_scalar)}, JS loop ${fmtErr(far.js_loop)}`
    + (py.skipped ? '' : `, PyTorch tutorial ${fmtErr(py.torch_err_at_1e6)} (torch_err_at_1e6)`));
  log();

  // --- the heatmap image of the table ------------------------------------------------------------
  // What the page draws per frame: the table on a 700 × 600 canvas. pe.heatmap (c/heatmap.c: tent
  // means, colour, one copy out) with the table already in WASM memory (a redraw: zoom, pan) and
  // a new table (copied in, range scanned, drawn: a slider step), against the anchor: the JS
  // resampling (web/plot/resample.js box means) + pe.colorize that the page used before.
  const heatmap = {};
  if (peSimd) {
    const { planAxis, resample } = await import('../web/plot/resample.js');
    const table = peSimd.compute({ kind: 'sinusoidal', length: LENGTH, dim: DIM, base: BASE, offset: OFFSET }).data;
    const W = 700;
    const H = 600;
    const opts = { rows: LENGTH, cols: DIM, width: W, height: H, map: 'viridis', vmin: -1, vmax: 1 };
    const fresh = Array.from({ length: 4 }, () => table.slice());
    let k = 0;
    const hm = [
      { key: 'heatmap_c_redraw', label: `pe.heatmap ${W} × ${H}, table in WASM memory (redraw)`, run: () => peSimd.heatmap(table, opts) },
      // As the page draws a new table: its range (legend, colours) read in the resampling pass.
      { key: 'heatmap_c_new', label: `pe.heatmap ${W} × ${H} with colorRange, new table (copy in)`, run: () => {
        const t = fresh[k++ % fresh.length];
        peSimd.heatmap(t, { ...opts, vmin: undefined, vmax: undefined, colorRange: (r) => [r.lo, r.hi] });
      } },
      { key: 'heatmap_js', label: `JS resample (box means) + pe.colorize ${W} × ${H} (the old path)`, run: () => {
        const xp = planAxis(0, DIM, W, DIM);
        const yp = planAxis(0, LENGTH, H, LENGTH);
        peSimd.colorize(resample(table, LENGTH, DIM, xp, yp, { finite: true }), { map: 'viridis', vmin: -1, vmax: 1 });
      } },
    ].map((m) => ({ ...m, output: () => null, release() {} }));
    gc();
    const st = measure(hm, { warmup, runs: Math.min(runs, 15), gc });
    for (const m of hm) heatmap[m.key] = { label: m.label, median_ms: st.get(m.key).median, min_ms: st.get(m.key).min };
    log('heatmap image of the table (what the page draws per frame):');
    for (const m of hm) log(`  ${m.label.padEnd(72)} median ${st.get(m.key).median.toFixed(1).padStart(6)} ms, min ${st.get(m.key).min.toFixed(1).padStart(6)} ms`);
    log(`  old path / pe.heatmap: ${(heatmap.heatmap_js.median_ms / heatmap.heatmap_c_redraw.median_ms).toFixed(1)}× (redraw), `
      + `${(heatmap.heatmap_js.median_ms / heatmap.heatmap_c_new.median_ms).toFixed(1)}× (new table, with the copy in and the range)`);
    // The tutorial's own picture: the NumPy table and matplotlib's pcolormesh of it (Agg, 700 × 600,
    // bench/python_sinusoidal.py), against the page's: pe.compute and a new table's pe.heatmap.
    const mpl = py.skipped ? null : py.numpy_matplotlib_ms;
    const page = (results.pe_compute_simd?.median_ms ?? NaN) + heatmap.heatmap_c_new.median_ms;
    heatmap.table_and_image = { page_ms: page, numpy_matplotlib_ms: mpl?.median ?? null };
    if (mpl) {
      log(`  table + image, ${LENGTH} × ${DIM} at ${W} × ${H}: NumPy tutorial + matplotlib pcolormesh (Agg) median ${mpl.median.toFixed(1)} ms, `
        + `min ${mpl.min.toFixed(1)} ms; pe.compute + pe.heatmap (colorRange) ${page.toFixed(1)} ms → ${(mpl.median / page).toFixed(0)}× faster`);
    } else {
      log(`  (the NumPy + matplotlib anchor: ${py.skipped ? py.skipped : 'matplotlib is missing; bash scripts/setup.sh bench installs python3-matplotlib'})`);
    }
    log();
  }

  // --- goals -------------------------------------------------------------------------------------
  const goals = new Goals();
  log('goals (verdict on the kernel-only SIMD median)');
  speedGoal(goals, { key: 'simd_vs_torch', name: 'WASM SIMD speed-up over the PyTorch tutorial code', anchorName: 'PyTorch tutorial',
    pyMs: py.torch_tutorial_ms, need: TARGET_TORCH_SPEEDUP }, results, py);
  speedGoal(goals, { key: 'simd_vs_numpy', name: 'WASM SIMD speed-up over the NumPy tutorial code', anchorName: 'NumPy tutorial',
    pyMs: py.numpy_tutorial_ms, need: TARGET_NUMPY_SPEEDUP }, results, py);
  accuracyGoal(goals, results, far, py);
  env.loadavg_end = os.loadavg().map((x) => Number(x.toFixed(2)));
  const busy = load.note();
  if (busy) notes.push(busy);
  for (const n of notes) log(`  note: ${n}`);
  const seconds = (performance.now() - started) / 1000;
  log();
  log(`sinusoidal benchmark: ${seconds.toFixed(1)} s`);

  writeJson(json, {
    env,
    config: { length: LENGTH, dim: DIM, base: BASE, layout: 'interleaved', offset: OFFSET, warmup, runs },
    methods: results,
    python: py,
    identical,
    far_positions: far,
    heatmap,
    targets: goals.targets,
    notes,
    seconds,
  });
  return { targets: goals.targets };
}

runIfMain(import.meta.url, { script: 'bench/sinusoidal.js', part: 'sinusoidal', defaults: { runs: 30, warmup: 5 } }, runSinusoidal);
