// PE Lab benchmark, RoPE: rotary position embedding applied to a [32 heads, 4096, 128] float32
// tensor (half pairing, base 10000; 16.8 M values, 64 MiB).
//
//   node bench/rope.js [--json FILE] [--runs N] [--warmup N] [--no-python] [--strict]
//   (also run by `npm run bench`, after the sinusoidal table, through bench/bench.js)
//
// Measures, in one Node process, single-threaded:
//   WASM SIMD kernel        pe_rope_apply() of web/wasm/pe_simd.wasm, x and out malloc'ed once in
//                           WASM memory (like PyTorch rotating a tensor already in its memory);
//                           it computes the cos/sin of every position itself (float64, exact)
//   WASM SIMD, interleaved  the same with GPT-J pairing
//   WASM scalar kernel      the same with web/wasm/pe_scalar.wasm
//   JS loop                 plain JS with cos/sin tables precomputed once (outside the timing)
//   pe.applyRope            the public API end to end: validation, copy in, kernel, copy out
// and, when /usr/bin/python3 has PyTorch, bench/python_rope.py (transformers' rotate_half code,
// torch.set_num_threads(1)) in a child process of the same run: the anchor.
//
// Timing (bench/harness.js measure): warm-up runs, then timed runs round-robin with a GC before
// each; median and min in ms. Accuracy: max abs error against a float64 evaluation of the rotation
// (Math.cos/Math.sin of p·inv_freq, inv_freq_i = 10000^(-2i/128)) over the whole output.
import { performance } from 'node:perf_hooks';

import {
  Goals, createPEFrom, environment, environmentLine, exposeGc, fmtErr, fmtMs, fmtRatio, loadKernels,
  loadWatch, log, measure, runIfMain, runPython, timingTable, worstWasmErr, writeJson,
} from './harness.js';

const HEADS = 32;
const LENGTH = 4096;
const DIM = 128;
const BASE = 10000;
const PYTHON_TIMEOUT_MS = 300_000;

// Goals: speed against transformers' PyTorch code, accuracy against float64.
const TARGET_TORCH_SPEEDUP = 2;
const TARGET_MAX_ABS_ERR = 2e-6;   // float32 rotation of |x| < ~5 with exact cos/sin

// --- inputs and the float64 reference ------------------------------------------------------------

/** The input tensor [HEADS, LENGTH, DIM]: deterministic, roughly N(0, 1). */
function input() {
  const x = new Float32Array(HEADS * LENGTH * DIM);
  let s = 12345;
  for (let k = 0; k < x.length; k++) {
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

/** The kernel alone: pe_rope_apply from x to out, both malloc'ed once in WASM memory. */
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

/** The public API end to end: a fresh output per call, dropped before the next timed run. */
function apiMethod(pe, x) {
  const spec = { kind: 'rope', length: LENGTH, dim: DIM, base: BASE };
  let last = null;
  return {
    run() { last = pe.applyRope(x, spec, { heads: HEADS }).data; },
    output: () => last,
    release() { last = null; },
  };
}

// --- goals ---------------------------------------------------------------------------------------

/** Speed: PyTorch rotate_half (cos/sin precomputed) median / WASM SIMD kernel median, same run. */
function speedGoal(goals, results, py) {
  const key = 'simd_vs_torch';
  const name = 'WASM SIMD speed-up over PyTorch rotate_half';
  const simd = results.wasm_simd;
  if (goals.skipWithoutAnchor(key, name, py, simd)) return;
  const ratio = py.torch_apply_ms.median / simd.median_ms;
  const full = py.torch_full_ms.median / simd.median_ms;
  const e2e = py.torch_apply_ms.median / results.pe_apply.median_ms;
  goals.speedup({
    key, name, value: ratio, need: TARGET_TORCH_SPEEDUP,
    anchor: `PyTorch with cos/sin precomputed ${fmtMs(py.torch_apply_ms.median)} ms / WASM SIMD kernel ${fmtMs(simd.median_ms)} ms (medians)`,
    details: [`against PyTorch computing its cos/sin too: ${fmtRatio(full)}; end to end through pe.applyRope: ${fmtRatio(e2e)}`],
    extra: { ratio, ratio_full: full, ratio_end_to_end: e2e },
  });
}

/** Accuracy: the worst WASM max abs error against the float64 rotation. */
function accuracyGoal(goals, results, py) {
  const worst = worstWasmErr(results);
  goals.maxAbsErr({
    key: 'accuracy', name: 'accuracy, worst WASM max abs err', value: worst, need: TARGET_MAX_ABS_ERR,
    anchor: `float64 rotation${py.skipped ? '' : `; PyTorch's float32 angles: ${fmtErr(py.torch_apply_max_abs_err)}`}`,
    extra: { worst },
  });
}

// --- main ----------------------------------------------------------------------------------------

/** Runs the RoPE benchmark: opts { runs, warmup, python, json }. Returns { targets }. */
export async function runRope({ runs = 30, warmup = 5, python = true, json = null } = {}) {
  const started = performance.now();
  const { gc } = exposeGc();
  const load = loadWatch();
  log();
  log(`RoPE benchmark: apply to [${HEADS}, ${LENGTH}, ${DIM}] float32 (half pairing, base ${BASE}), one thread`);
  log(environmentLine(environment()));

  const x = input();
  const t64 = tables64();
  const kernels = await loadKernels();
  const { simd: simdW, scalar: scalarW } = kernels;
  const pe = await createPEFrom(kernels, !!simdW);

  const methods = [
    simdW && { key: 'wasm_simd', label: 'WASM SIMD kernel (pe_rope_apply, cos/sin included)', interleaved: false, ...kernelMethod(simdW, x, 0, 'simd') },
    simdW && { key: 'wasm_simd_interleaved', label: 'WASM SIMD kernel, interleaved pairing', interleaved: true, ...kernelMethod(simdW, x, 1, 'simd interleaved') },
    { key: 'wasm_scalar', label: 'WASM scalar kernel', interleaved: false, ...kernelMethod(scalarW, x, 0, 'scalar') },
    { key: 'js_loop', label: 'JS loop (cos/sin precomputed)', interleaved: false, ...jsMethod(x, t64) },
  ].filter(Boolean);
  const api = { key: 'pe_apply', label: `pe.applyRope (${simdW ? 'SIMD' : 'scalar'}, copies in and out)`, interleaved: false, ...apiMethod(pe, x) };
  // The end-to-end API copies 64 MiB in and out: fewer runs.
  const stats = new Map([
    ...measure(methods, { warmup, runs, gc }),
    ...measure([api], { warmup: Math.min(warmup, 2), runs: Math.max(5, Math.floor(runs / 3)), gc }),
  ]);
  const results = {};
  for (const m of [...methods, api]) {
    const s = stats.get(m.key);
    results[m.key] = { label: m.label, median_ms: s.median, min_ms: s.min, max_abs_err: maxAbsErr(m.output(), x, t64, m.interleaved) };
  }

  const py = runPython('python_rope.py', ['--heads', String(HEADS), '--length', String(LENGTH), '--dim', String(DIM), '--repeats', String(runs)],
    { enabled: python, timeoutMs: PYTHON_TIMEOUT_MS, requires: ['torch_apply_ms', 'torch_full_ms', 'torch_gptj_ms'] });
  log();

  const rows = Object.values(results).map((r) => [r.label, r.median_ms, r.min_ms, r.max_abs_err]);
  if (!py.skipped) {
    rows.push(['PyTorch rotate_half, cos/sin precomputed', py.torch_apply_ms.median, py.torch_apply_ms.min, py.torch_apply_max_abs_err]);
    rows.push(['PyTorch rotate_half + cos/sin of the call', py.torch_full_ms.median, py.torch_full_ms.min, py.torch_full_max_abs_err]);
    rows.push(['PyTorch rotate_every_two (GPT-J), precomputed', py.torch_gptj_ms.median, py.torch_gptj_ms.min, py.torch_gptj_max_abs_err]);
  }
  log(timingTable(rows, (results.wasm_simd ?? results.wasm_scalar).median_ms, simdW ? 'SIMD' : 'scalar'));
  log('max abs err: against the float64 rotation of the same input (Math.cos/Math.sin of p·inv_freq; Python: numpy/torch float64).');
  log();

  const goals = new Goals();
  log('goals');
  speedGoal(goals, results, py);
  accuracyGoal(goals, results, py);
  const busy = load.note();
  if (busy) log(`  note: ${busy}`);
  log();
  log(`RoPE benchmark: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  writeJson(json, { shape: [HEADS, LENGTH, DIM], base: BASE, runs, warmup, results, python: py, targets: goals.targets });
  return { targets: goals.targets };
}

runIfMain(import.meta.url, { script: 'bench/rope.js', part: 'rope', defaults: { runs: 30, warmup: 5 } }, runRope);
