// PE Lab benchmark, attention: the causal RoPE attention weights of one head, length 2048 and
// 4096, dim 64 (base 10000, half pairing), from q and k to the soft-maxed [length, length] table.
//
//   node bench/bench_attention.js [--json FILE] [--runs N] [--warmup N] [--no-python] [--lengths 2048,4096]
//   (also run by `npm run bench`, after the RoPE benchmark in bench/bench.js)
//
// Measures, in one Node process, per length:
//   WASM SIMD kernel     pe_attention() of web/wasm/pe_simd.wasm with content "random" (seed 0):
//                        it generates q and k (SplitMix64 + Box–Muller), rotates them with RoPE's
//                        cos/sin tables (pe_rope, computed once outside the timing, as PyTorch's are),
//                        scores, masks and soft-maxes row by row (plus entropy and local mass);
//                        buffers malloc'ed once in WASM memory
//   WASM scalar kernel   the same with web/wasm/pe_scalar.wasm
//   pe.compute (SIMD)    the public API end to end: validation, the RoPE tables, the kernel, the
//                        copy of the [length, length] result into a fresh Float32Array
// and, when /usr/bin/python3 has torch, bench/python_attention.py in a child process of the same
// run: the same q and k (its generator re-implemented in tests/fixtures/ref_attention.py) through
// q·cos + rotate_half(q)·sin, softmax(q kᵀ/√d + mask), torch.set_num_threads(1).
//
// Timing as in bench/bench.js: warm-up runs, then timed runs round-robin with a GC before each,
// median and min in ms. Accuracy: the max abs error of each WASM output over sampled query rows
// against the float64 reference rows the Python script prints (same q and k, float64 softmax).
// A benchmark, not a test: it exits 0 even when the target is missed.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';

import { createPE } from '../web/pe.js';

const DIM = 64;
const BASE = 10000;
const PYTHON = '/usr/bin/python3';
const PYTHON_TIMEOUT_MS = 600_000;
const TARGET_TORCH_SPEEDUP = 3;   // at length 2048
const TARGET_MAX_ABS_ERR = 1e-6;

const here = (rel) => fileURLToPath(new URL(rel, import.meta.url));
const log = (s = '') => process.stdout.write(`${s}\n`);

function exposeGc() {
  if (typeof globalThis.gc === 'function') return globalThis.gc;
  try {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc');
    if (typeof gc === 'function') return gc;
  } catch { /* fall through */ }
  return () => {};
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

function measure(methods, { warmup, runs }, gc) {
  const stats = new Map(methods.map((m) => [m.key, []]));
  for (let k = 0; k < warmup; k++) for (const m of methods) m.run();
  for (let k = 0; k < runs; k++) {
    for (const m of methods) {
      m.release?.();
      gc();
      const t0 = performance.now();
      m.run();
      stats.get(m.key).push(performance.now() - t0);
    }
  }
  return stats;
}

async function instantiateKernel(bytes) {
  const { instance } = await WebAssembly.instantiate(bytes, { env: { emscripten_notify_memory_growth() {} } });
  const w = instance.exports;
  if (typeof w._initialize === 'function') w._initialize();
  return w;
}

/** pe_attention on buffers allocated once; the RoPE cos/sin tables made once by pe_rope. */
function kernelMethod(w, L, name) {
  const n = DIM / 2;
  const malloc = (bytes) => {
    const p = w.malloc(bytes);
    if (!p) throw new Error(`${name}: malloc of ${bytes} bytes failed`);
    return p;
  };
  const out = malloc(4 * L * L);
  const ent = malloc(4 * L);
  const mass = malloc(4 * L);
  const scratch = malloc(4 * w.pe_attention_scratch_floats(L, DIM, 1, 0));
  const cos = malloc(4 * L * n);
  const sin = malloc(4 * L * n);
  const inv = malloc(8 * n);
  const af = malloc(8);
  const st = w.pe_rope(0, cos, sin, inv, af, L, DIM, BASE, 1, 0, 0, NaN, 0, 32, 1, 1, NaN, NaN, NaN, NaN, NaN);
  if (st !== 0) throw new Error(`${name}: pe_rope returned status ${st}`);
  return {
    run() {
      // out, entropy, local_mass, scratch, table, cos, sin, bias, text, words, length, dim, heads,
      // causal, encoding (rotary), rotary_dim, layout (half), bias_heads, content (random), seed
      const status = w.pe_attention(out, ent, mass, scratch, 0, cos, sin, 0, 0, 0, L, DIM, 1, 1, 2, DIM, 0, 1, 0, 0);
      if (status !== 0) throw new Error(`${name}: pe_attention returned status ${status}`);
    },
    output: () => new Float32Array(w.memory.buffer, out, L * L),
  };
}

function apiMethod(pe, L) {
  const spec = { kind: 'attention', length: L, dim: DIM, heads: 1, encoding: { kind: 'rope', base: BASE }, content: 'random', seed: 0, causal: true };
  let last = null;
  return {
    run() { last = pe.compute(spec).data; },
    output: () => last,
    release() { last = null; },
  };
}

function runPython(L, runs) {
  if (!existsSync(PYTHON)) return { skipped: `${PYTHON} not found` };
  const args = [here('./python_attention.py'), '--length', String(L), '--dim', String(DIM), '--repeats', String(runs)];
  const r = spawnSync(PYTHON, args, { encoding: 'utf8', timeout: PYTHON_TIMEOUT_MS, maxBuffer: 1 << 26 });
  if (r.error) return { skipped: `python_attention.py failed: ${r.error.code === 'ETIMEDOUT' ? 'timed out' : r.error.message}` };
  if (r.status !== 0) return { skipped: `python_attention.py exited with ${r.status}: ${(r.stderr || '').trim().split('\n').slice(-3).join(' ')}` };
  try {
    const data = JSON.parse((r.stdout || '').trim().split('\n').filter(Boolean).pop());
    return data.skipped ? { skipped: `python_attention.py: ${data.skipped}` } : data;
  } catch {
    return { skipped: 'python_attention.py printed no JSON' };
  }
}

/** Max abs error of the sampled rows of a [L, L] output against the reference rows. */
function rowsErr(out, L, py) {
  if (py.skipped) return NaN;
  let worst = 0;
  py.rows.forEach((r, k) => {
    const ref = py.reference_rows[k];
    for (let j = 0; j < L; j++) worst = Math.max(worst, Math.abs(out[r * L + j] - ref[j]));
  });
  return worst;
}

/** Runs the attention benchmark: opts { runs, warmup, python, json, lengths }. */
export async function runAttention(opts = {}) {
  const { runs = 10, warmup = 3, python = true, json = null, lengths = [2048, 4096] } = opts;
  const gc = exposeGc();
  const started = performance.now();
  let loadMax = os.loadavg()[0];
  log();
  log(`Attention benchmark: causal RoPE attention weights, 1 head, dim ${DIM}, base ${BASE}, lengths ${lengths.join(', ')}, one thread`);
  log(`node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown CPU'}, load ${os.loadavg().map((v) => v.toFixed(2)).join(' ')}`);
  const simdBytes = readFileSync(here('../web/wasm/pe_simd.wasm'));
  const scalarBytes = readFileSync(here('../web/wasm/pe_scalar.wasm'));
  let simdW = null;
  try {
    simdW = await instantiateKernel(simdBytes);
  } catch (e) {
    log(`WASM SIMD not available here: ${e.message}`);
  }
  const scalarW = await instantiateKernel(scalarBytes);
  const pe = await createPE({ simd: !!simdW, wasm: simdW ? simdBytes : scalarBytes });

  const report = { dim: DIM, base: BASE, runs, warmup, lengths: {}, targets: [] };
  for (const L of lengths) {
    const methods = [
      simdW && { key: 'wasm_simd', label: 'WASM SIMD kernel (pe_attention: q, k, RoPE, scores, softmax)', ...kernelMethod(simdW, L, 'simd') },
      { key: 'wasm_scalar', label: 'WASM scalar kernel', ...kernelMethod(scalarW, L, 'scalar') },
    ].filter(Boolean);
    const api = { key: 'pe_compute', label: `pe.compute (${simdW ? 'SIMD' : 'scalar'}, copies the result out)`, ...apiMethod(pe, L) };
    const scalarRuns = Math.max(3, Math.ceil(runs / 3));
    const stats = new Map([
      ...measure(methods.slice(0, simdW ? 1 : 0), { warmup, runs }, gc),
      ...measure(methods.slice(simdW ? 1 : 0), { warmup: 1, runs: scalarRuns }, gc),
      ...measure([api], { warmup: 1, runs: Math.max(3, Math.ceil(runs / 2)) }, gc),
    ]);
    loadMax = Math.max(loadMax, os.loadavg()[0]);
    const pyRuns = L > 2048 ? Math.max(3, Math.ceil(runs / 2)) : runs;
    log(python ? `length ${L}: running ${PYTHON} bench/python_attention.py --length ${L} --repeats ${pyRuns} ...` : `length ${L}: no Python (--no-python)`);
    const py = python ? runPython(L, pyRuns) : { skipped: 'disabled with --no-python' };
    if (py.skipped) log(`Python reference skipped: ${py.skipped}`);
    else log(`Python ${py.python}, PyTorch ${py.torch_version} (BLAS: ${py.blas}), ${py.threads} thread`);
    const results = {};
    for (const m of [...methods, api]) {
      const s = stats.get(m.key);
      results[m.key] = { label: m.label, median_ms: median(s), min_ms: Math.min(...s), max_abs_err: rowsErr(m.output(), L, py) };
    }
    const base = results.wasm_simd?.median_ms ?? results.wasm_scalar.median_ms;
    const rows = Object.values(results).map((r) => [r.label, r.median_ms, r.min_ms, r.max_abs_err]);
    if (!py.skipped) {
      rows.push(['PyTorch softmax(q kᵀ/√d + mask), rotate_half RoPE', py.torch_attention_ms.median, py.torch_attention_ms.min, py.torch_max_abs_err]);
      rows.push(['PyTorch softmax(masked_fill(q kᵀ/√d)), rotate_half RoPE', py.torch_masked_fill_ms.median, py.torch_masked_fill_ms.min, py.torch_max_abs_err]);
    }
    log();
    const w = Math.max(...rows.map((r) => r[0].length));
    log(`length ${L}`);
    log(`${'method'.padEnd(w)}  ${'median ms'.padStart(10)}  ${'min ms'.padStart(9)}  ${'time / SIMD'.padStart(11)}  ${'max abs err'.padStart(11)}`);
    for (const [label, med, min, err] of rows) {
      log(`${label.padEnd(w)}  ${med.toFixed(2).padStart(10)}  ${min.toFixed(2).padStart(9)}  ${`${(med / base).toFixed(2)}x`.padStart(11)}  ${(Number.isNaN(err) ? 'n/a' : err.toExponential(2)).padStart(11)}`);
    }
    log(`max abs err: over ${py.skipped ? 0 : py.rows.length} sampled query rows against the float64 reference of the same q and k (tests/fixtures/ref_attention.py).`);
    log();
    report.lengths[L] = { results, python: py.skipped ? py : { ...py, reference_rows: undefined } };
    if (results.wasm_simd && !py.skipped) {
      const ratio = py.torch_attention_ms.median / results.wasm_simd.median_ms;
      const e2e = py.torch_attention_ms.median / results.pe_compute.median_ms;
      const need = L === 2048 ? TARGET_TORCH_SPEEDUP : null;
      const status = need === null ? 'info' : ratio >= need ? 'pass' : 'miss';
      report.targets.push({ name: `simd_vs_torch_${L}`, need, ratio, ratio_end_to_end: e2e, status });
    }
    const errs = Object.entries(results).map(([, r]) => r.max_abs_err).filter((e) => !Number.isNaN(e));
    if (errs.length) report.targets.push({ name: `accuracy_${L}`, need: TARGET_MAX_ABS_ERR, worst: Math.max(...errs), status: Math.max(...errs) <= TARGET_MAX_ABS_ERR ? 'pass' : 'miss' });
  }
  log('targets');
  for (const t of report.targets) {
    if (t.name.startsWith('simd_vs_torch')) {
      const tag = t.status === 'info' ? 'INFO' : t.status === 'pass' ? 'PASS' : 'MISS';
      log(`  ${tag}  WASM SIMD${t.need ? ` >= ${t.need}x` : ''} faster than PyTorch at length ${t.name.split('_').pop()}: ${t.ratio.toFixed(1)}x (end to end through pe.compute: ${t.ratio_end_to_end.toFixed(1)}x)`);
    } else {
      log(`  ${t.status === 'pass' ? 'PASS' : 'MISS'}  accuracy <= ${t.need.toExponential(0)} at length ${t.name.split('_').pop()}: worst ${t.worst.toExponential(2)}`);
    }
  }
  if (!report.targets.length) log('  SKIP  no PyTorch reference in this run');
  if (loadMax > Math.max(1, os.cpus().length / 2)) {
    log(`  note: the machine was busy (1-min load average up to ${loadMax.toFixed(2)}, ${os.cpus().length} CPUs): timings are noisy`);
  }
  log();
  log(`Attention benchmark: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  if (json) {
    writeFileSync(json, `${JSON.stringify(report, null, 2)}\n`);
    log(`wrote ${json}`);
  }
  return report;
}

// Standalone: node bench/bench_attention.js [--json FILE] [--runs N] [--warmup N] [--no-python] [--lengths 2048,4096]
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const argv = process.argv.slice(2);
  const opts = {};
  for (let k = 0; k < argv.length; k++) {
    const a = argv[k];
    if (a === '--json') opts.json = argv[++k];
    else if (a === '--runs') opts.runs = Number(argv[++k]);
    else if (a === '--warmup') opts.warmup = Number(argv[++k]);
    else if (a === '--no-python') opts.python = false;
    else if (a === '--lengths') opts.lengths = String(argv[++k]).split(',').map(Number);
    else {
      process.stderr.write('usage: node bench/bench_attention.js [--json FILE] [--runs N] [--warmup N] [--no-python] [--lengths 2048,4096]\n');
      process.exit(a === '-h' || a === '--help' ? 0 : 2);
    }
  }
  const okInts = [opts.runs ?? 1, opts.warmup ?? 0].every((v) => Number.isInteger(v) && v >= 0) && opts.runs !== 0;
  const okLengths = (opts.lengths ?? [2048]).every((v) => Number.isInteger(v) && v >= 1 && v <= 8192);
  if (!okInts || !okLengths) {
    process.stderr.write('bench_attention: --runs must be an integer >= 1, --warmup >= 0, --lengths integers in [1, 8192]\n');
    process.exit(2);
  }
  runAttention(opts).catch((e) => {
    process.stderr.write(`bench_attention: ${e?.stack ?? e}\n`);
    process.exit(1);
  });
}
