// PE Lab benchmark, attention: the causal RoPE attention weights of one head, length 2048 and
// 4096, dim 64 (base 10000, half pairing), from q and k to the soft-maxed [length, length] table.
//
//   node bench/attention.js [--json FILE] [--runs N] [--warmup N] [--no-python] [--strict] [--lengths 2048,4096]
//   (also run by `npm run bench`, after RoPE, through bench/bench.js)
//
// Measures, in one Node process, single-threaded, per length:
//   WASM SIMD kernel     pe_attention() of web/wasm/pe_simd.wasm with content "random" (seed 0):
//                        it generates q and k (SplitMix64 + Box–Muller), rotates them with RoPE's
//                        cos/sin tables (pe_rope, computed once outside the timing, as PyTorch's are),
//                        scores, masks and soft-maxes row by row (plus entropy and local mass);
//                        buffers malloc'ed once in WASM memory
//   WASM scalar kernel   the same with web/wasm/pe_scalar.wasm
//   pe.compute           the public API end to end: validation, the RoPE tables, the kernel, the
//                        copy of the [length, length] result into a fresh Float32Array
// and, when /usr/bin/python3 has PyTorch, bench/python_attention.py in a child process of the same
// run (the anchor): the same q and k (its generator re-implemented in tests/fixtures/ref_attention.py)
// through q·cos + rotate_half(q)·sin, softmax(q kᵀ/√d + mask), torch.set_num_threads(1).
//
// Timing (bench/harness.js measure): warm-up runs, then timed runs round-robin with a GC before
// each; median and min in ms. Accuracy: the max abs error of each WASM output over sampled query
// rows against the float64 reference rows the Python script prints (same q and k, float64 softmax),
// so it needs the Python anchor.
import { performance } from 'node:perf_hooks';

import {
  Goals, UsageError, createPEFrom, environment, environmentLine, exposeGc, fmtErr, fmtMs,
  fmtNeedErr, fmtNeedRatio, fmtRatio, loadKernels, loadWatch, log, measure, runIfMain, runPython,
  timingTable, writeJson,
} from './harness.js';

const DIM = 64;
const BASE = 10000;
const PYTHON_TIMEOUT_MS = 600_000;

// Goals: speed against PyTorch's eager attention at length 2048 (other lengths are reported for
// information), accuracy against float64 at every length.
const TARGET_TORCH_SPEEDUP = { 2048: 3 };
const TARGET_MAX_ABS_ERR = 1e-6;

// --- methods -------------------------------------------------------------------------------------

/** pe_attention on buffers allocated once; the RoPE cos/sin tables made once by pe_rope. */
export function kernelMethod(w, L, name) {
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

/** The public API end to end: a fresh [L, L] Float32Array per call, dropped before the next run. */
function apiMethod(pe, L) {
  const spec = { kind: 'attention', length: L, dim: DIM, heads: 1, encoding: { kind: 'rope', base: BASE }, content: 'random', seed: 0, causal: true };
  let last = null;
  return {
    run() { last = pe.compute(spec).data; },
    output: () => last,
    release() { last = null; },
  };
}

/** Max abs error of the sampled rows of a [L, L] output against the reference rows (NaN without). */
function rowsErr(out, L, py) {
  if (py.skipped) return NaN;
  let worst = 0;
  py.rows.forEach((r, k) => {
    const ref = py.reference_rows[k];
    for (let j = 0; j < L; j++) worst = Math.max(worst, Math.abs(out[r * L + j] - ref[j]));
  });
  return worst;
}

// --- one length ----------------------------------------------------------------------------------

/** Times the kernels, the API and the Python anchor at length L; prints the table. */
function benchLength(L, { simdW, scalarW, pe, runs, warmup, python, gc }) {
  const simd = simdW && { key: 'wasm_simd', label: 'WASM SIMD kernel (pe_attention: q, k, RoPE, scores, softmax)', ...kernelMethod(simdW, L, 'simd') };
  const scalar = { key: 'wasm_scalar', label: 'WASM scalar kernel', ...kernelMethod(scalarW, L, 'scalar') };
  const api = { key: 'pe_compute', label: `pe.compute (${simdW ? 'SIMD' : 'scalar'}, copies the result out)`, ...apiMethod(pe, L) };
  // The scalar kernel and the end-to-end API are slow at these sizes: fewer runs.
  const stats = new Map([
    ...(simd ? measure([simd], { warmup, runs, gc }) : []),
    ...measure([scalar], { warmup: 1, runs: Math.max(3, Math.ceil(runs / 3)), gc }),
    ...measure([api], { warmup: 1, runs: Math.max(3, Math.ceil(runs / 2)), gc }),
  ]);
  const pyRuns = L > 2048 ? Math.max(3, Math.ceil(runs / 2)) : runs;
  log(`length ${L}:`);
  const py = runPython('python_attention.py', ['--length', String(L), '--dim', String(DIM), '--repeats', String(pyRuns)],
    { enabled: python, timeoutMs: PYTHON_TIMEOUT_MS, maxBuffer: 1 << 26, requires: ['torch_attention_ms', 'torch_masked_fill_ms'] });

  const results = {};
  for (const m of [simd, scalar, api].filter(Boolean)) {
    const s = stats.get(m.key);
    results[m.key] = { label: m.label, median_ms: s.median, min_ms: s.min, max_abs_err: rowsErr(m.output(), L, py) };
  }
  const rows = Object.values(results).map((r) => [r.label, r.median_ms, r.min_ms, r.max_abs_err]);
  if (!py.skipped) {
    rows.push(['PyTorch softmax(q kᵀ/√d + mask), rotate_half RoPE', py.torch_attention_ms.median, py.torch_attention_ms.min, py.torch_max_abs_err]);
    rows.push(['PyTorch softmax(masked_fill(q kᵀ/√d)), rotate_half RoPE', py.torch_masked_fill_ms.median, py.torch_masked_fill_ms.min, py.torch_max_abs_err]);
  }
  log();
  log(`length ${L}`);
  log(timingTable(rows, (results.wasm_simd ?? results.wasm_scalar).median_ms, simdW ? 'SIMD' : 'scalar'));
  log(`max abs err: over ${py.skipped ? 0 : py.rows.length} sampled query rows against the float64 reference of the same q and k (tests/fixtures/ref_attention.py).`);
  log();
  return { results, py };
}

// --- goals ---------------------------------------------------------------------------------------

/** Speed at length L: PyTorch eager attention median / WASM SIMD kernel median, same run. */
function speedGoal(goals, L, { results, py }) {
  const key = `simd_vs_torch_${L}`;
  const need = TARGET_TORCH_SPEEDUP[L];
  const name = `WASM SIMD speed-up over PyTorch attention at length ${L}`;
  if (py.skipped || !results.wasm_simd) {
    const why = py.skipped ? `no Python anchor: ${py.skipped}` : 'no WASM SIMD';
    if (need) goals.skip(key, name, why);
    else goals.info(key, name, `not measured (${why})`);
    return;
  }
  const ratio = py.torch_attention_ms.median / results.wasm_simd.median_ms;
  const e2e = py.torch_attention_ms.median / results.pe_compute.median_ms;
  const anchor = `PyTorch ${fmtMs(py.torch_attention_ms.median)} ms / WASM SIMD kernel ${fmtMs(results.wasm_simd.median_ms)} ms (medians)`;
  const details = [`end to end through pe.compute: ${fmtRatio(e2e)}`];
  if (need) {
    goals.check({ key, name, value: ratio, need, atLeast: true, show: fmtRatio, showNeed: fmtNeedRatio, anchor, details, extra: { ratio, ratio_end_to_end: e2e } });
  } else {
    goals.info(key, name, `${fmtRatio(ratio)} (no goal at this length); anchor: ${anchor}; ${details[0]}`, { need: null, ratio, ratio_end_to_end: e2e });
  }
}

/** Accuracy at length L: the worst WASM max abs error over the sampled rows against float64. */
function accuracyGoal(goals, L, { results, py }) {
  const key = `accuracy_${L}`;
  const name = `accuracy at length ${L}, worst WASM max abs err`;
  if (py.skipped) {
    goals.skip(key, name, `the float64 reference rows come from the Python anchor: ${py.skipped}`);
    return;
  }
  const worst = Math.max(...Object.values(results).map((r) => r.max_abs_err));
  goals.check({
    key, name, value: worst, need: TARGET_MAX_ABS_ERR, show: fmtErr, showNeed: fmtNeedErr,
    anchor: `float64 reference rows; PyTorch float32 ${fmtErr(py.torch_max_abs_err)}`, extra: { worst },
  });
}

// --- main ----------------------------------------------------------------------------------------

/** Runs the attention benchmark: opts { runs, warmup, python, json, lengths }. Returns { targets }. */
export async function runAttention({ runs = 10, warmup = 3, python = true, json = null, lengths = [2048, 4096] } = {}) {
  const started = performance.now();
  const { gc } = exposeGc();
  const load = loadWatch();
  log();
  log(`Attention benchmark: causal RoPE attention weights, 1 head, dim ${DIM}, base ${BASE}, lengths ${lengths.join(', ')}, one thread`);
  log(environmentLine(environment()));
  const kernels = await loadKernels();
  const { simd: simdW, scalar: scalarW } = kernels;
  const pe = await createPEFrom(kernels, !!simdW);

  const perLength = {};
  for (const L of lengths) {
    perLength[L] = benchLength(L, { simdW, scalarW, pe, runs, warmup, python, gc });
    load.sample();
  }

  const goals = new Goals();
  log('goals');
  for (const L of lengths) speedGoal(goals, L, perLength[L]);
  for (const L of lengths) accuracyGoal(goals, L, perLength[L]);
  const busy = load.note();
  if (busy) log(`  note: ${busy}`);
  log();
  log(`Attention benchmark: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  writeJson(json, {
    dim: DIM, base: BASE, runs, warmup,
    lengths: Object.fromEntries(lengths.map((L) => {
      const { results, py } = perLength[L];
      return [L, { results, python: py.skipped ? py : { ...py, reference_rows: undefined } }];
    })),
    targets: goals.targets,
  });
  return { targets: goals.targets };
}

/** --lengths 2048,4096: integers in [1, 8192]. */
const lengthsOption = {
  flag: '--lengths',
  value: 'L,L',
  help: 'comma-separated lengths (default 2048,4096; the speed goal is at 2048)',
  set(opts, text) {
    opts.lengths = String(text).split(',').map(Number);
    if (!opts.lengths.every((v) => Number.isInteger(v) && v >= 1 && v <= 8192)) throw new UsageError('--lengths must be integers in [1, 8192]');
  },
};

runIfMain(import.meta.url, { script: 'bench/attention.js', part: 'attention', defaults: { runs: 10, warmup: 3 }, extra: [lengthsOption] }, runAttention);
