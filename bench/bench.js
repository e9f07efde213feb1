// PE Lab benchmark: the 2000×1600 float32 sinusoidal table (interleaved, base 10000, offset 0).
//
//   npm run bench                        (= bash build.sh && node bench/bench.js)
//   node bench/bench.js [--json FILE] [--runs N] [--warmup N] [--no-python]
//
// Measures, in one Node process:
//   WASM SIMD kernel      pe_sinusoidal() of web/wasm/pe_simd.wasm into a buffer malloc'ed once
//                         (the table computed into WASM memory, like the tutorial code produces a
//                         tensor in its own memory)
//   WASM scalar kernel    the same with web/wasm/pe_scalar.wasm
//   pe.compute SIMD/scalar  the public API end to end: validation, malloc/free, copy out to a
//                         fresh Float32Array
//   JS Math.sin/cos loop  the obvious plain-JS implementation (float64 angle, interleaved), into a
//                         Float32Array allocated once, like the kernel-only rows
// and, when /usr/bin/python3 exists, bench/python_sinusoidal.py (PyTorch and NumPy tutorial
// code, single-threaded) in a child process.
//
// Timing: warm-up runs, then timed runs with performance.now(); median and min in ms. The
// kernel-only methods run first, round-robin (one run of each per round, so drift affects all of
// them alike), then the end-to-end pe.compute runs. A full GC runs before every timed run,
// outside the timed region, when it can be exposed (global.gc from `node --expose-gc`, otherwise
// through v8.setFlagsFromString), so garbage from one run is not collected inside another.
// Accuracy: max abs error of every JS/WASM method against a float64 evaluation
// (Math.sin/Math.cos of p·ω, ω_i = 10000^(-2i/1600) in float64) over the whole table.
//
// This is a benchmark, not a test: it exits 0 even when a target is missed, unless --strict.
// After the sinusoidal table it runs RoPE (bench_rope.js), attention (bench_attention.js) and the
// page in headless Chromium (page.js), then prints every goal in one list.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';

import { createPE, simdSupported } from '../web/pe.js';
import { runRope } from './bench_rope.js';
import { runAttention } from './bench_attention.js';
import { runPage } from './page.js';

const LENGTH = 2000;
const DIM = 1600;
const BASE = 10000;
const OFFSET = 0;
const LAYOUT_INTERLEAVED = 0;
const PYTHON = '/usr/bin/python3';
const PYTHON_TIMEOUT_MS = 120_000;

// Targets from the issue.
const TARGET_TORCH_SPEEDUP = 4;
const TARGET_NUMPY_SPEEDUP = 8;
const TARGET_MAX_ABS_ERR = 2e-7;

// Far positions (the Python script's torch_err_at_1e6 rows): 10^6-16 .. 10^6 at dim 64.
const FAR_FIRST = 10 ** 6 - 16;
const FAR_ROWS = 17;
const FAR_DIM = 64;

const here = (rel) => fileURLToPath(new URL(rel, import.meta.url));

// --- options -------------------------------------------------------------------------------------

function usage(code) {
  const text = `usage: node bench/bench.js [--json FILE] [--runs N] [--warmup N] [--no-python]

  --json FILE   also write every number (samples included) as JSON to FILE
  --runs N      timed runs per method (default 30, at least 25 recommended)
  --warmup N    warm-up runs per method (default 5)
  --no-python   skip the PyTorch/NumPy reference timings
  --no-page     skip the page benchmark in headless Chromium (bench/page.js)
  --strict      exit 1 when any goal is missed (without it the benchmark only reports)
`;
  (code === 0 ? process.stdout : process.stderr).write(text);
  process.exit(code);
}

function parseArgs(argv) {
  const opts = { json: null, runs: 30, warmup: 5, python: true, page: true, strict: false };
  for (let k = 0; k < argv.length; k++) {
    const a = argv[k];
    const value = () => {
      if (k + 1 >= argv.length) { process.stderr.write(`bench: ${a} needs a value\n`); usage(2); }
      return argv[++k];
    };
    const count = (name, min) => {
      const v = Number(value());
      if (!Number.isInteger(v) || v < min) { process.stderr.write(`bench: ${name} must be an integer >= ${min}\n`); usage(2); }
      return v;
    };
    if (a === '--json') opts.json = value();
    else if (a.startsWith('--json=')) opts.json = a.slice(7);
    else if (a === '--runs') opts.runs = count('--runs', 1);
    else if (a === '--warmup') opts.warmup = count('--warmup', 0);
    else if (a === '--no-python') opts.python = false;
    else if (a === '--no-page') opts.page = false;
    else if (a === '--strict') opts.strict = true;
    else if (a === '-h' || a === '--help') usage(0);
    else { process.stderr.write(`bench: unknown option ${a}\n`); usage(2); }
  }
  return opts;
}

const opts = parseArgs(process.argv.slice(2));

// --- GC ------------------------------------------------------------------------------------------

function exposeGc() {
  if (typeof globalThis.gc === 'function') return { gc: globalThis.gc, how: 'global.gc (--expose-gc)' };
  try {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc');
    if (typeof gc === 'function') return { gc, how: 'exposed at run time (v8.setFlagsFromString)' };
  } catch { /* fall through */ }
  return { gc: () => {}, how: 'not available: GC may run inside timed regions (run node --expose-gc)' };
}
const { gc, how: gcHow } = exposeGc();

// --- methods -------------------------------------------------------------------------------------

async function instantiateKernel(bytes) {
  const imports = { env: { emscripten_notify_memory_growth() {} } };
  const { instance } = await WebAssembly.instantiate(bytes, imports);
  const w = instance.exports;
  if (typeof w._initialize === 'function') w._initialize();
  return w;
}

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

/** The obvious JS implementation: float64 ω and angle, Math.sin/Math.cos, interleaved. */
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

function jsMethod() {
  const out = new Float32Array(LENGTH * DIM);
  return { run: () => sinusoidalJS(out, LENGTH, DIM, BASE, OFFSET), output: () => out };
}

function computeMethod(pe) {
  const spec = { kind: 'sinusoidal', length: LENGTH, dim: DIM, base: BASE, layout: 'interleaved', offset: OFFSET };
  let last = null;
  return {
    run() { last = pe.compute(spec).data; },
    output: () => last,
    release() { last = null; },
  };
}

// --- timing --------------------------------------------------------------------------------------

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Warm-up then timed runs of several methods, round-robin; GC before each timed run. */
function measure(methods, { warmup, runs }) {
  const stats = new Map(methods.map((m) => [m.key, { first: null, samples: [] }]));
  for (let k = 0; k < warmup; k++) {
    for (const m of methods) {
      const t0 = performance.now();
      m.run();
      const dt = performance.now() - t0;
      if (k === 0) stats.get(m.key).first = dt;
    }
  }
  for (let k = 0; k < runs; k++) {
    for (const m of methods) {
      m.release?.();
      gc();
      const t0 = performance.now();
      m.run();
      stats.get(m.key).samples.push(performance.now() - t0);
    }
  }
  for (const s of stats.values()) {
    s.median = median(s.samples);
    s.min = Math.min(...s.samples);
  }
  return stats;
}

// --- accuracy ------------------------------------------------------------------------------------

function reference64(length, dim, base, offset) {
  const pairs = (dim + 1) >> 1;
  const omega = new Float64Array(pairs);
  for (let i = 0; i < pairs; i++) omega[i] = base ** (-2 * i / dim);
  const ref = new Float64Array(length * dim);
  for (let r = 0; r < length; r++) {
    const p = offset + r;
    for (let i = 0; i < pairs; i++) {
      const angle = p * omega[i];
      ref[r * dim + 2 * i] = Math.sin(angle);
      if (2 * i + 1 < dim) ref[r * dim + 2 * i + 1] = Math.cos(angle);
    }
  }
  return ref;
}

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

// --- Python reference ----------------------------------------------------------------------------

function runPython(runs) {
  if (!opts.python) return { skipped: 'disabled with --no-python' };
  if (!existsSync(PYTHON)) return { skipped: `${PYTHON} not found` };
  const script = here('./python_sinusoidal.py');
  const args = [script, '--length', String(LENGTH), '--dim', String(DIM), '--repeats', String(runs)];
  const t0 = performance.now();
  const r = spawnSync(PYTHON, args, { encoding: 'utf8', timeout: PYTHON_TIMEOUT_MS, maxBuffer: 1 << 20 });
  const seconds = (performance.now() - t0) / 1000;
  const stderrTail = (r.stderr || '').trim().split('\n').slice(-5).join('\n');
  if (r.error) {
    const why = r.error.code === 'ETIMEDOUT' ? `timed out after ${PYTHON_TIMEOUT_MS / 1000} s` : r.error.message;
    return { skipped: `python_sinusoidal.py failed: ${why}`, stderr: stderrTail };
  }
  if (r.status !== 0) {
    return { skipped: `python_sinusoidal.py exited with ${r.status ?? r.signal}${stderrTail ? `: ${stderrTail}` : ''}` };
  }
  const line = (r.stdout || '').trim().split('\n').filter(Boolean).pop();
  let data;
  try {
    data = JSON.parse(line);
  } catch {
    return { skipped: `python_sinusoidal.py printed no JSON (stdout: ${JSON.stringify((r.stdout || '').slice(0, 200))})` };
  }
  if (data.skipped) return { skipped: `python_sinusoidal.py: ${data.skipped}`, raw: data };
  for (const key of ['torch_tutorial_ms', 'numpy_tutorial_ms']) {
    if (!Number.isFinite(data[key]?.median)) return { skipped: `python_sinusoidal.py JSON lacks ${key}.median`, raw: data };
  }
  return { ...data, seconds };
}

// --- formatting ----------------------------------------------------------------------------------

const fmtMs = (x) => (x == null ? '—' : x < 10 ? x.toFixed(3) : x < 100 ? x.toFixed(2) : x.toFixed(1));
const fmtRatio = (x) => (x == null ? '—' : x >= 10 ? `${x.toFixed(1)}×` : `${x.toFixed(2)}×`);
const fmtErr = (x) => (x == null ? '—' : x === 0 ? '0' : x.toExponential(2));

function table(header, rows, align) {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
  const line = (cells) => cells.map((s, c) => (align[c] === 'l' ? s.padEnd(widths[c]) : s.padStart(widths[c]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

// --- main ----------------------------------------------------------------------------------------

async function main() {
  const started = performance.now();
  const log = (s = '') => process.stdout.write(`${s}\n`);
  const cpus = os.cpus();
  const env = {
    date: new Date().toISOString(),
    node: process.version,
    v8: process.versions.v8,
    cpu: cpus[0]?.model ?? 'unknown',
    cpus: cpus.length,
    platform: `${os.platform()} ${os.arch()}`,
    gc: gcHow,
  };
  // Read each module once: the kernel-only and the pe.compute rows run the very same bytes, even
  // if someone rebuilds web/wasm/ while the benchmark runs.
  const wasmFiles = {};
  for (const name of ['pe_simd', 'pe_scalar']) {
    const bytes = readFileSync(here(`../web/wasm/${name}.wasm`));
    wasmFiles[name] = { bytes, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
  }
  const git = spawnSync('git', ['describe', '--always', '--dirty'], { cwd: here('..'), encoding: 'utf8' });
  env.git = git.status === 0 ? git.stdout.trim() : null;
  env.loadavg = os.loadavg().map((x) => Number(x.toFixed(2)));
  env.wasm = Object.fromEntries(Object.entries(wasmFiles).map(([k, v]) => [k, { size: v.size, sha256: v.sha256 }]));

  log('PE Lab benchmark: sinusoidal table');
  log(`  table    ${LENGTH} x ${DIM} float32, interleaved, base ${BASE}, offset ${OFFSET} (${(LENGTH * DIM * 4 / 2 ** 20).toFixed(1)} MiB)`);
  log(`  date     ${env.date}`);
  log(`  node     ${env.node} (V8 ${env.v8}), ${env.platform}`);
  log(`  cpu      ${env.cpu} (${env.cpus} logical CPUs; everything here runs single-threaded), load average ${env.loadavg.join(' ')}`);
  log(`  code     git ${env.git ?? 'unknown'}; pe_simd.wasm ${wasmFiles.pe_simd.size} B sha256 ${wasmFiles.pe_simd.sha256.slice(0, 12)}, pe_scalar.wasm ${wasmFiles.pe_scalar.size} B sha256 ${wasmFiles.pe_scalar.sha256.slice(0, 12)}`);
  log(`  timing   ${opts.warmup} warm-up + ${opts.runs} timed runs per method, performance.now(); GC ${gcHow}`);
  log();

  if (!simdSupported()) {
    log('This engine does not support WebAssembly SIMD: the SIMD rows cannot be measured.');
  }
  const haveSimd = simdSupported();

  // Kernel-only modules, instantiated directly as web/pe.js does.
  const simdW = haveSimd ? await instantiateKernel(wasmFiles.pe_simd.bytes) : null;
  const scalarW = await instantiateKernel(wasmFiles.pe_scalar.bytes);
  const notes = [];
  if (simdW && simdW.pe_simd_enabled() !== 1) notes.push('pe_simd.wasm reports pe_simd_enabled() = 0: it was not built with SIMD');
  if (scalarW.pe_simd_enabled() !== 0) notes.push('pe_scalar.wasm reports pe_simd_enabled() = 1');

  const peSimd = haveSimd ? await createPE({ simd: true, wasm: wasmFiles.pe_simd.bytes }) : null;
  const peScalar = await createPE({ simd: false, wasm: wasmFiles.pe_scalar.bytes });
  if (peSimd && !peSimd.simd) notes.push('createPE({ simd: true }) loaded a build with pe.simd === false');
  if (peScalar.simd) notes.push('createPE({ simd: false }) loaded a build with pe.simd === true');

  const methods = [
    simdW && { key: 'wasm_simd_kernel', label: 'WASM SIMD kernel (pe_sinusoidal, into WASM memory)', ...kernelMethod(simdW, 'SIMD') },
    { key: 'wasm_scalar_kernel', label: 'WASM scalar kernel (pe_sinusoidal, into WASM memory)', ...kernelMethod(scalarW, 'scalar') },
    { key: 'js_loop', label: 'JS Math.sin/cos loop (float64 angle, into Float32Array)', ...jsMethod() },
    peSimd && { key: 'pe_compute_simd', label: 'pe.compute, SIMD build (end to end, fresh Float32Array)', ...computeMethod(peSimd) },
    { key: 'pe_compute_scalar', label: 'pe.compute, scalar build (end to end, fresh Float32Array)', ...computeMethod(peScalar) },
  ].filter(Boolean);
  const kernelOnly = methods.filter((m) => !m.key.startsWith('pe_compute'));
  const endToEnd = methods.filter((m) => m.key.startsWith('pe_compute'));

  // Timings: kernel-only first (no allocation in the timed region), then end to end.
  gc();
  const stats = new Map([
    ...measure(kernelOnly, opts),
    ...measure(endToEnd, opts),
  ]);

  // Accuracy over the whole table, from each method's last output.
  const ref = reference64(LENGTH, DIM, BASE, OFFSET);
  const results = {};
  for (const m of methods) {
    const s = stats.get(m.key);
    results[m.key] = {
      label: m.label,
      median_ms: s.median,
      min_ms: s.min,
      first_call_ms: s.first,
      samples_ms: s.samples,
      max_abs_err: maxAbsErr(m.output(), ref),
    };
  }
  // End to end returns exactly what the kernel computes.
  const identical = {};
  if (simdW && peSimd) identical.pe_compute_simd_vs_kernel = sameBits(methods.find((m) => m.key === 'pe_compute_simd').output(), methods.find((m) => m.key === 'wasm_simd_kernel').output());
  identical.pe_compute_scalar_vs_kernel = sameBits(methods.find((m) => m.key === 'pe_compute_scalar').output(), methods.find((m) => m.key === 'wasm_scalar_kernel').output());
  for (const [k, same] of Object.entries(identical)) if (!same) notes.push(`${k}: pe.compute output differs from the kernel-only output`);
  if (simdW) identical.simd_vs_scalar_kernel = sameBits(methods[0].output(), methods[1].output());

  // Far positions, like the Python script's torch_err_at_1e6.
  const farRef = reference64(FAR_ROWS, FAR_DIM, BASE, FAR_FIRST);
  const far = {
    rows: [FAR_FIRST, FAR_FIRST + FAR_ROWS - 1],
    dim: FAR_DIM,
    wasm_simd: simdW ? farErrKernel(simdW, farRef) : null,
    wasm_scalar: farErrKernel(scalarW, farRef),
    js_loop: maxAbsErr(sinusoidalJS(new Float32Array(FAR_ROWS * FAR_DIM), FAR_ROWS, FAR_DIM, BASE, FAR_FIRST), farRef),
  };

  // Python reference, after the JS/WASM measurements (it runs in its own process).
  log(`running ${opts.python ? `${PYTHON} bench/python_sinusoidal.py --length ${LENGTH} --dim ${DIM} --repeats ${opts.runs}` : 'no Python (--no-python)'} ...`);
  const py = runPython(opts.runs);
  if (py.skipped) log(`Python reference skipped: ${py.skipped}`);
  else log(`Python ${py.python}, PyTorch ${py.torch_version}, NumPy ${py.numpy_version}, ${py.threads} thread, ${py.repeats} repeats (${py.seconds.toFixed(1)} s)`);
  log();

  // --- table -------------------------------------------------------------------------------------
  const simdMs = results.wasm_simd_kernel?.median_ms ?? null;
  const e2eMs = results.pe_compute_simd?.median_ms ?? null;
  const ratio = (ms) => (simdMs ? ms / simdMs : null);
  const rows = methods.map((m) => {
    const r = results[m.key];
    return [m.label, fmtMs(r.median_ms), fmtMs(r.min_ms), fmtRatio(ratio(r.median_ms)), fmtErr(r.max_abs_err)];
  });
  const pyRows = [];
  if (!py.skipped) {
    pyRows.push(['PyTorch tutorial (float32, 1 thread)', py.torch_tutorial_ms, py.torch_max_abs_err]);
    pyRows.push(['NumPy tutorial (float64, 1 thread)', py.numpy_tutorial_ms, py.numpy_max_abs_err]);
    if (py.numpy_tutorial_f32_ms) pyRows.push(['NumPy tutorial + .astype(float32) (1 thread)', py.numpy_tutorial_f32_ms, py.numpy_f32_max_abs_err]);
    for (const [label, t, err] of pyRows) rows.push([label, fmtMs(t.median), fmtMs(t.min), fmtRatio(ratio(t.median)), fmtErr(err)]);
  }
  log(table(['method', 'median ms', 'min ms', 'time / SIMD kernel', 'max abs err'], rows, ['l', 'r', 'r', 'r', 'r']));
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

  // --- targets -----------------------------------------------------------------------------------
  const targets = [];
  const verdict = (ok) => (ok ? 'PASS' : 'MISS');
  log('targets');
  const speedTarget = (name, key, pyMs, need) => {
    if (py.skipped || simdMs == null) {
      const why = py.skipped ? `no Python reference: ${py.skipped}` : 'no WASM SIMD';
      log(`  SKIP  ${name}  (${why})`);
      targets.push({ name, key, status: 'skip', reason: why });
      return;
    }
    const kernelRatio = pyMs.median / simdMs;
    const e2eRatio = e2eMs ? pyMs.median / e2eMs : null;
    const minRatio = pyMs.min / results.wasm_simd_kernel.min_ms;
    log(`  ${verdict(kernelRatio >= need)}  ${name}: ${fmtRatio(kernelRatio)} with the kernel-only SIMD median (${fmtMs(pyMs.median)} / ${fmtMs(simdMs)} ms)`);
    if (e2eRatio != null) {
      log(`        end to end, pe.compute SIMD: ${fmtRatio(e2eRatio)} (${fmtMs(pyMs.median)} / ${fmtMs(e2eMs)} ms) -> ${verdict(e2eRatio >= need)} on that basis`);
    }
    log(`        min over min, kernel-only: ${fmtRatio(minRatio)} (${fmtMs(pyMs.min)} / ${fmtMs(results.wasm_simd_kernel.min_ms)} ms) -> ${verdict(minRatio >= need)} on that basis`);
    targets.push({ name, key, need, status: kernelRatio >= need ? 'pass' : 'miss', ratio_kernel: kernelRatio,
      ratio_end_to_end: e2eRatio, pass_end_to_end: e2eRatio == null ? null : e2eRatio >= need,
      ratio_min_kernel: minRatio, pass_min_kernel: minRatio >= need });
  };
  speedTarget(`WASM SIMD >= ${TARGET_TORCH_SPEEDUP}x faster than the PyTorch tutorial code`, 'simd_vs_torch',
    py.torch_tutorial_ms, TARGET_TORCH_SPEEDUP);
  speedTarget(`WASM SIMD >= ${TARGET_NUMPY_SPEEDUP}x faster than the NumPy tutorial code`, 'simd_vs_numpy',
    py.numpy_tutorial_ms, TARGET_NUMPY_SPEEDUP);
  {
    const wasmKeys = methods.map((m) => m.key).filter((k) => k !== 'js_loop');
    const worst = Math.max(...wasmKeys.map((k) => results[k].max_abs_err));
    const ok = worst <= TARGET_MAX_ABS_ERR;
    const name = `accuracy <= ${TARGET_MAX_ABS_ERR.toExponential(0)}`;
    log(`  ${verdict(ok)}  ${name}: worst WASM max abs err ${fmtErr(worst)} (${wasmKeys.map((k) => `${k} ${fmtErr(results[k].max_abs_err)}`).join(', ')})`);
    const farWorst = Math.max(...[far.wasm_simd, far.wasm_scalar].filter((x) => x != null));
    log(`        at positions ~10^6 (dim 64): ${fmtErr(farWorst)} -> ${verdict(farWorst <= TARGET_MAX_ABS_ERR)}`);
    targets.push({ name, key: 'accuracy', need: TARGET_MAX_ABS_ERR, status: ok ? 'pass' : 'miss', worst_max_abs_err: worst,
      far_worst_max_abs_err: farWorst, pass_far: farWorst <= TARGET_MAX_ABS_ERR });
  }
  env.loadavg_end = os.loadavg().map((x) => Number(x.toFixed(2)));
  const busy = Math.max(env.loadavg[0], env.loadavg_end[0]);
  if (busy > Math.max(1, env.cpus / 2)) {
    notes.push(`the machine was busy (1-min load average ${env.loadavg[0]} at start, ${env.loadavg_end[0]} at end, ${env.cpus} CPUs): timings are noisy, rerun on an idle machine before trusting a PASS/MISS`);
  }
  for (const n of notes) log(`  note: ${n}`);
  const seconds = (performance.now() - started) / 1000;
  log();
  log(`total ${seconds.toFixed(1)} s`);

  if (opts.json) {
    const out = {
      env,
      config: { length: LENGTH, dim: DIM, base: BASE, layout: 'interleaved', offset: OFFSET, warmup: opts.warmup, runs: opts.runs },
      methods: results,
      python: py,
      identical,
      far_positions: far,
      targets,
      notes,
      seconds,
    };
    writeFileSync(opts.json, `${JSON.stringify(out, null, 2)}\n`);
    log(`wrote ${opts.json}`);
  }
  return targets;
}

// Then RoPE (bench/bench_rope.js), attention (bench/bench_attention.js) and the page
// (bench/page.js), with the same options; their JSON goes next to this one. Last, every goal in
// one list; --strict makes a missed one exit 1.
const sibling = (ext) => opts.json && opts.json.replace(/(\.json)?$/, ext);
async function all() {
  const goals = [];
  const add = (part, targets) => goals.push(...(targets || []).map((t) => ({ part, ...t })));
  add('sinusoidal', await main());
  add('rope', (await runRope({ ...opts, json: sibling('.rope.json') }))?.targets);
  add('attention', (await runAttention({ ...opts, runs: Math.min(opts.runs ?? 10, 10), json: sibling('.attention.json') }))?.targets);
  if (opts.page) add('page', (await runPage({ json: sibling('.page.json') })).targets);
  const missed = goals.filter((g) => g.status === 'miss');
  process.stdout.write(`\ngoals: ${goals.filter((g) => g.status === 'pass').length} met, ${missed.length} missed, `
    + `${goals.filter((g) => g.status === 'skip').length} skipped${missed.length ? ` (missed: ${missed.map((g) => `${g.part}/${g.name ?? g.key}`).join(', ')})` : ''}\n`);
  if (opts.strict && missed.length) process.exit(1);
}
all().catch((e) => {
  process.stderr.write(`bench: ${e?.stack ?? e}\n`);
  process.exit(1);
});
