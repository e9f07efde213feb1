// PE Lab benchmark, RoPE: rotary position embedding applied to a [32 heads, 4096, 128] float32
// tensor (half pairing, base 10000; 16.8 M values, 64 MiB).
//
//   node bench/bench_rope.js [--json FILE] [--runs N] [--warmup N] [--no-python]
//   (also run by `npm run bench`, after the sinusoidal benchmark in bench/bench.js)
//
// Measures, in one Node process:
//   WASM SIMD kernel        pe_rope_apply() of web/wasm/pe_simd.wasm, x and out malloc'ed once in
//                           WASM memory (like PyTorch rotating a tensor already in its memory);
//                           it computes the cos/sin of every position itself (float64, exact)
//   WASM SIMD, interleaved  the same with GPT-J pairing
//   WASM scalar kernel      the same with web/wasm/pe_scalar.wasm
//   JS loop                 plain JS with cos/sin tables precomputed once (outside the timing)
//   pe.applyRope (SIMD)     the public API end to end: validation, copy in, kernel, copy out
// and, when /usr/bin/python3 has torch, bench/python_rope.py (transformers' rotate_half code,
// torch.set_num_threads(1)) in a child process of the same run.
//
// Timing as in bench/bench.js: warm-up runs, then timed runs round-robin with a GC before each,
// median and min in ms. Accuracy: max abs error against a float64 evaluation of the rotation
// (Math.cos/Math.sin of p·inv_freq, inv_freq_i = 10000^(-2i/128)) over the whole output.
// A benchmark, not a test: it exits 0 even when the target is missed.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';

import { createPE } from '../web/pe.js';

const HEADS = 32;
const LENGTH = 4096;
const DIM = 128;
const BASE = 10000;
const PYTHON = '/usr/bin/python3';
const PYTHON_TIMEOUT_MS = 300_000;
const TARGET_TORCH_SPEEDUP = 2;
const TARGET_MAX_ABS_ERR = 2e-6;   // float32 rotation of |x| < ~5 with exact cos/sin

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

// --- inputs and the float64 reference ------------------------------------------------------------

function input() {
  const x = new Float32Array(HEADS * LENGTH * DIM);
  let s = 12345;
  for (let k = 0; k < x.length; k++) {   // deterministic, roughly N(0, 1)
    s = (s * 1103515245 + 12345) >>> 0;
    const u = s / 2 ** 32;
    s = (s * 1103515245 + 12345) >>> 0;
    x[k] = Math.sqrt(-2 * Math.log(u + 1e-12)) * Math.cos(2 * Math.PI * (s / 2 ** 32));
  }
  return x;
}

const invFreq = () => Float64Array.from({ length: DIM / 2 }, (_, i) => 1 / BASE ** ((2 * i) / DIM));

/** cos/sin tables [LENGTH, DIM/2] in float64. */
function tables64() {
  const n = DIM / 2;
  const inv = invFreq();
  const cos = new Float64Array(LENGTH * n);
  const sin = new Float64Array(LENGTH * n);
  for (let p = 0; p < LENGTH; p++) {
    for (let i = 0; i < n; i++) {
      cos[p * n + i] = Math.cos(p * inv[i]);
      sin[p * n + i] = Math.sin(p * inv[i]);
    }
  }
  return { cos, sin };
}

/** Max abs error of out against the float64 rotation of x (half or interleaved pairing). */
function maxAbsErr(out, x, { cos, sin }, interleaved) {
  const n = DIM / 2;
  let worst = 0;
  for (let r = 0; r < HEADS * LENGTH; r++) {
    const p = r % LENGTH;
    const o = r * DIM;
    for (let i = 0; i < n; i++) {
      const a = interleaved ? o + 2 * i : o + i;
      const b = interleaved ? a + 1 : a + n;
      const c = cos[p * n + i];
      const s = sin[p * n + i];
      const ea = Math.abs(out[a] - (x[a] * c - x[b] * s));
      const eb = Math.abs(out[b] - (x[b] * c + x[a] * s));
      if (!(ea <= worst)) worst = ea;
      if (!(eb <= worst)) worst = eb;
    }
  }
  return worst;
}

// --- methods -------------------------------------------------------------------------------------

async function instantiateKernel(bytes) {
  const { instance } = await WebAssembly.instantiate(bytes, { env: { emscripten_notify_memory_growth() {} } });
  const w = instance.exports;
  if (typeof w._initialize === 'function') w._initialize();
  return w;
}

function kernelMethod(w, x, layout, name) {
  const count = x.length;
  const xp = w.malloc(count * 4);
  const out = w.malloc(count * 4);
  const inv = w.malloc((DIM / 2) * 8);
  const af = w.malloc(8);
  if (!xp || !out || !inv || !af) throw new Error(`${name}: malloc failed`);
  new Float32Array(w.memory.buffer, xp, count).set(x);
  return {
    run() {
      const status = w.pe_rope_apply(out, xp, inv, af, HEADS, layout, LENGTH, DIM, BASE, 1, 0, 0,
        NaN, 0, 32, 1, 1, NaN, NaN, NaN, NaN, NaN);
      if (status !== 0) throw new Error(`${name}: pe_rope_apply returned status ${status}`);
    },
    output: () => new Float32Array(w.memory.buffer, out, count),
  };
}

/** Plain JS, half pairing, cos/sin (float32) precomputed outside the timing. */
function jsMethod(x, t64) {
  const n = DIM / 2;
  const cos = Float32Array.from(t64.cos);
  const sin = Float32Array.from(t64.sin);
  const out = new Float32Array(x.length);
  return {
    run() {
      for (let r = 0; r < HEADS * LENGTH; r++) {
        const p = (r % LENGTH) * n;
        const o = r * DIM;
        for (let i = 0; i < n; i++) {
          const a = x[o + i];
          const b = x[o + n + i];
          out[o + i] = a * cos[p + i] - b * sin[p + i];
          out[o + n + i] = b * cos[p + i] + a * sin[p + i];
        }
      }
    },
    output: () => out,
  };
}

function apiMethod(pe, x) {
  const spec = { kind: 'rope', length: LENGTH, dim: DIM, base: BASE };
  let last = null;
  return {
    run() { last = pe.applyRope(x, spec, { heads: HEADS }).data; },
    output: () => last,
    release() { last = null; },
  };
}

function runPython(runs) {
  if (!existsSync(PYTHON)) return { skipped: `${PYTHON} not found` };
  const args = [here('./python_rope.py'), '--heads', String(HEADS), '--length', String(LENGTH), '--dim', String(DIM),
    '--repeats', String(runs)];
  const r = spawnSync(PYTHON, args, { encoding: 'utf8', timeout: PYTHON_TIMEOUT_MS, maxBuffer: 1 << 20 });
  if (r.error) return { skipped: `python_rope.py failed: ${r.error.code === 'ETIMEDOUT' ? 'timed out' : r.error.message}` };
  if (r.status !== 0) return { skipped: `python_rope.py exited with ${r.status}: ${(r.stderr || '').trim().split('\n').slice(-3).join(' ')}` };
  try {
    const data = JSON.parse((r.stdout || '').trim().split('\n').filter(Boolean).pop());
    return data.skipped ? { skipped: `python_rope.py: ${data.skipped}` } : data;
  } catch {
    return { skipped: 'python_rope.py printed no JSON' };
  }
}

// --- main ----------------------------------------------------------------------------------------

/** Runs the RoPE benchmark: opts { runs, warmup, python, json }. */
export async function runRope(opts = {}) {
  const { runs = 30, warmup = 5, python = true, json = null } = opts;
  const gc = exposeGc();
  const started = performance.now();
  const loadStart = os.loadavg()[0];
  log();
  log(`RoPE benchmark: apply to [${HEADS}, ${LENGTH}, ${DIM}] float32 (half pairing, base ${BASE}), one thread`);
  log(`node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown CPU'}, load ${os.loadavg().map((v) => v.toFixed(2)).join(' ')}`);

  const x = input();
  const t64 = tables64();
  const simdBytes = readFileSync(here('../web/wasm/pe_simd.wasm'));
  const scalarBytes = readFileSync(here('../web/wasm/pe_scalar.wasm'));
  let simdW = null;
  try {
    simdW = await instantiateKernel(simdBytes);
  } catch (e) {
    log(`WASM SIMD not available here: ${e.message}`);
  }
  const scalarW = await instantiateKernel(scalarBytes);
  const pe = await createPE({ simd: simdW ? true : false, wasm: simdW ? simdBytes : scalarBytes });

  const methods = [
    simdW && { key: 'wasm_simd', label: 'WASM SIMD kernel (pe_rope_apply, cos/sin included)', interleaved: false, ...kernelMethod(simdW, x, 0, 'simd') },
    simdW && { key: 'wasm_simd_interleaved', label: 'WASM SIMD kernel, interleaved pairing', interleaved: true, ...kernelMethod(simdW, x, 1, 'simd interleaved') },
    { key: 'wasm_scalar', label: 'WASM scalar kernel', interleaved: false, ...kernelMethod(scalarW, x, 0, 'scalar') },
    { key: 'js_loop', label: 'JS loop (cos/sin precomputed)', interleaved: false, ...jsMethod(x, t64) },
  ].filter(Boolean);
  const api = { key: 'pe_apply', label: `pe.applyRope (${simdW ? 'SIMD' : 'scalar'}, copies in and out)`, interleaved: false, ...apiMethod(pe, x) };
  const stats = new Map([...measure(methods, { warmup, runs }, gc), ...measure([api], { warmup: Math.min(warmup, 2), runs: Math.max(5, Math.floor(runs / 3)) }, gc)]);
  const results = {};
  for (const m of [...methods, api]) {
    const s = stats.get(m.key);
    results[m.key] = { label: m.label, median_ms: median(s), min_ms: Math.min(...s), max_abs_err: maxAbsErr(m.output(), x, t64, m.interleaved) };
  }

  log(python ? `running ${PYTHON} bench/python_rope.py --repeats ${runs} ...` : 'no Python (--no-python)');
  const py = python ? runPython(runs) : { skipped: 'disabled with --no-python' };
  if (py.skipped) log(`Python reference skipped: ${py.skipped}`);
  else log(`Python ${py.python}, PyTorch ${py.torch_version}, ${py.threads} thread`);
  log();

  const base = results.wasm_simd?.median_ms ?? results.wasm_scalar.median_ms;
  const rows = Object.values(results).map((r) => [r.label, r.median_ms, r.min_ms, r.max_abs_err]);
  if (!py.skipped) {
    rows.push(['PyTorch rotate_half, cos/sin precomputed', py.torch_apply_ms.median, py.torch_apply_ms.min, py.torch_apply_max_abs_err]);
    rows.push(['PyTorch rotate_half + cos/sin of the call', py.torch_full_ms.median, py.torch_full_ms.min, py.torch_full_max_abs_err]);
    rows.push(['PyTorch rotate_every_two (GPT-J), precomputed', py.torch_gptj_ms.median, py.torch_gptj_ms.min, py.torch_gptj_max_abs_err]);
  }
  const w = Math.max(...rows.map((r) => r[0].length));
  log(`${'method'.padEnd(w)}  ${'median ms'.padStart(10)}  ${'min ms'.padStart(9)}  ${'time / SIMD'.padStart(11)}  ${'max abs err'.padStart(11)}`);
  for (const [label, med, min, err] of rows) {
    log(`${label.padEnd(w)}  ${med.toFixed(2).padStart(10)}  ${min.toFixed(2).padStart(9)}  ${`${(med / base).toFixed(2)}x`.padStart(11)}  ${err.toExponential(2).padStart(11)}`);
  }
  log('max abs err: against the float64 rotation of the same input (Math.cos/Math.sin of p·inv_freq; Python: numpy/torch float64).');
  log();
  log('targets');
  const targets = [];
  if (py.skipped || !results.wasm_simd) {
    log(`  SKIP  WASM SIMD >= ${TARGET_TORCH_SPEEDUP}x faster than PyTorch (${py.skipped ?? 'no WASM SIMD'})`);
  } else {
    const ratio = py.torch_apply_ms.median / results.wasm_simd.median_ms;
    const full = py.torch_full_ms.median / results.wasm_simd.median_ms;
    const e2e = py.torch_apply_ms.median / results.pe_apply.median_ms;
    const ok = ratio >= TARGET_TORCH_SPEEDUP;
    log(`  ${ok ? 'PASS' : 'MISS'}  WASM SIMD >= ${TARGET_TORCH_SPEEDUP}x faster than PyTorch rotate_half: ${ratio.toFixed(2)}x (${py.torch_apply_ms.median.toFixed(1)} / ${results.wasm_simd.median_ms.toFixed(1)} ms, PyTorch with cos/sin precomputed)`);
    log(`        against PyTorch computing its cos/sin too: ${full.toFixed(2)}x; end to end through pe.applyRope: ${e2e.toFixed(2)}x`);
    targets.push({ name: 'simd_vs_torch', need: TARGET_TORCH_SPEEDUP, ratio, ratio_full: full, ratio_end_to_end: e2e, status: ok ? 'pass' : 'miss' });
  }
  const worst = Math.max(...Object.entries(results).filter(([k]) => k !== 'js_loop').map(([, r]) => r.max_abs_err));
  log(`  ${worst <= TARGET_MAX_ABS_ERR ? 'PASS' : 'MISS'}  accuracy <= ${TARGET_MAX_ABS_ERR.toExponential(0)}: worst WASM max abs err ${worst.toExponential(2)}`
    + (py.skipped ? '' : ` (PyTorch's float32 angles: ${py.torch_apply_max_abs_err.toExponential(2)})`));
  targets.push({ name: 'accuracy', need: TARGET_MAX_ABS_ERR, worst, status: worst <= TARGET_MAX_ABS_ERR ? 'pass' : 'miss' });
  const load = Math.max(os.loadavg()[0], loadStart);
  if (load > Math.max(1, os.cpus().length / 2)) {
    log(`  note: the machine was busy (1-min load average up to ${load.toFixed(2)}, ${os.cpus().length} CPUs): timings are noisy`);
  }
  log();
  log(`RoPE benchmark: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  if (json) {
    writeFileSync(json, `${JSON.stringify({ shape: [HEADS, LENGTH, DIM], base: BASE, runs, warmup, results, python: py, targets }, null, 2)}\n`);
    log(`wrote ${json}`);
  }
  return { targets };
}

// Standalone: node bench/bench_rope.js [--json FILE] [--runs N] [--warmup N] [--no-python]
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const argv = process.argv.slice(2);
  const opts = {};
  for (let k = 0; k < argv.length; k++) {
    const a = argv[k];
    if (a === '--json') opts.json = argv[++k];
    else if (a === '--runs') opts.runs = Number(argv[++k]);
    else if (a === '--warmup') opts.warmup = Number(argv[++k]);
    else if (a === '--no-python') opts.python = false;
    else {
      process.stderr.write('usage: node bench/bench_rope.js [--json FILE] [--runs N] [--warmup N] [--no-python]\n');
      process.exit(a === '-h' || a === '--help' ? 0 : 2);
    }
  }
  if (![opts.runs ?? 1, opts.warmup ?? 0].every((v) => Number.isInteger(v) && v >= 0) || opts.runs === 0) {
    process.stderr.write('bench_rope: --runs must be an integer >= 1 and --warmup >= 0\n');
    process.exit(2);
  }
  runRope(opts).catch((e) => {
    process.stderr.write(`bench_rope: ${e?.stack ?? e}\n`);
    process.exit(1);
  });
}
