// PE Lab benchmark, end to end: pe.compute as a caller meets it, for the two large outputs, the
// 2000 × 1600 sinusoidal table (12.2 MiB) and the causal RoPE attention weights at length 4096
// (one head, dim 64: 64 MiB), beside the kernel alone and the PyTorch anchor of the same run.
//
//   node bench/end-to-end.js [--runs N] [--json FILE] [--no-python] [--strict]
//   (also run by `npm run bench`, through bench/bench.js)
//
// Every method runs in a fresh Node process of its own (as a script that imports web/pe.js
// would), `runs` calls in a row with nothing in between: no warm-up left out, no forced GC. So a
// call pays what it pays there: a new result array is new memory the system maps and zeroes page
// by page (after a GC, freed memory can come back), and the garbage of the calls before it.
//   kernel only        the kernel into one buffer in WebAssembly memory (the other benches' row)
//   pe.compute         r = pe.compute(spec), dropped: a new array for every call
//   + pe.release       r = pe.compute(spec) … pe.release(r): the next call copies into r's memory
//   + { reuse }        pe.compute(spec, { reuse: last.data }): copies into the caller's array
//   + { borrow }       pe.compute(spec, { borrow: true }): no copy, `data` valid until the next call
// The figure of each is the median over the calls (the first call is shown apart). The goals:
// end to end, ≥ 4× the PyTorch tutorial's sinusoidal table and ≥ 10× PyTorch's eager attention at
// 4096 (bench/python_sinusoidal.py and bench/python_attention.py, same run), for the fastest
// documented path, { borrow }; the ratios of the others are printed under it.
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

import { Goals, environment, environmentLine, fmtMs, fmtRatio, fmtNeedRatio, loadWatch, log, median, runIfMain, runPython, writeJson } from './harness.js';

const SELF = fileURLToPath(import.meta.url);
const CHILD_TIMEOUT_MS = 600_000;

const CASES = {
  sinusoidal: {
    title: 'sinusoidal 2000 × 1600 (interleaved, base 10000; 12.2 MiB)',
    spec: { kind: 'sinusoidal', length: 2000, dim: 1600 },
    need: 4,
    python: { script: 'python_sinusoidal.py', args: ['--length', '2000', '--dim', '1600'], key: 'torch_tutorial_ms', label: 'PyTorch tutorial PositionalEncoding' },
    /** The kernel alone: pe_sinusoidal into a buffer malloc'ed once. */
    kernel(w) {
      const ptr = w.malloc(2000 * 1600 * 4);
      return () => w.pe_sinusoidal(ptr, 2000, 1600, 10000, 0, 0);
    },
  },
  attention: {
    title: 'causal RoPE attention, length 4096, 1 head, dim 64 (64 MiB)',
    spec: { kind: 'attention', length: 4096, dim: 64, heads: 1, encoding: { kind: 'rope', base: 10000 }, content: 'random', seed: 0, causal: true },
    need: 10,
    python: { script: 'python_attention.py', args: ['--length', '4096', '--dim', '64', '--rows', '1'], key: 'torch_attention_ms', label: 'PyTorch eager softmax(q kᵀ/√d + mask)' },
    /** The kernel alone, as bench/attention.js times it (buffers and RoPE tables made once). */
    async kernel(w) {
      const { kernelMethod } = await import('./attention.js');
      return kernelMethod(w, 4096, 'simd').run;
    },
  },
};

const MODES = {
  kernel: 'kernel only (WebAssembly memory, nothing copied out)',
  compute: 'pe.compute: a new array each call, dropped',
  release: 'pe.compute, then pe.release(result)',
  reuse: 'pe.compute(spec, { reuse: last.data })',
  borrow: 'pe.compute(spec, { borrow: true })',
};

// --- the child: one method, `runs` calls in a fresh process --------------------------------------

/** A few sampled values of the last output: the methods must agree on them. */
const checksum = (a) => {
  let s = 0;
  for (let i = 0; i < a.length; i += 9973) s += a[i];
  return s;
};

async function child({ name, mode, runs }) {
  const c = CASES[name];
  const pe = mode === 'kernel' ? null : await (await import('../web/pe.js')).createPE({ simd: true });
  let call;
  let last = null;
  if (mode === 'kernel') {
    const { instance } = await WebAssembly.instantiate(
      (await import('node:fs')).readFileSync(new URL('../web/wasm/pe_simd.wasm', import.meta.url)), { env: { emscripten_notify_memory_growth() {} } });
    const w = instance.exports;
    w._initialize?.();
    const run = await c.kernel(w);
    call = () => run();
  } else if (mode === 'compute') {
    call = () => { last = pe.compute(c.spec).data; };
  } else if (mode === 'release') {
    let sum = 0;
    call = () => {
      const r = pe.compute(c.spec);
      sum = checksum(r.data);   // the caller reads its result before giving it back
      pe.release(r);
    };
    last = { get sum() { return sum; } };
  } else if (mode === 'borrow') {
    let sum = 0;
    call = () => { sum = checksum(pe.compute(c.spec, { borrow: true }).data); };   // read before the next call
    last = { get sum() { return sum; } };
  } else {
    call = () => { last = pe.compute(c.spec, { reuse: last }).data; };
  }
  const samples = [];
  for (let k = 0; k < runs; k++) {
    const t0 = performance.now();
    call();
    samples.push(performance.now() - t0);
  }
  const sum = last === null ? null : last.sum ?? checksum(last);
  process.stdout.write(`${JSON.stringify({ samples, checksum: sum })}\n`);
}

function runChild(name, mode, runs) {
  const r = spawnSync(process.execPath, [SELF, '--child', JSON.stringify({ name, mode, runs })],
    { encoding: 'utf8', timeout: CHILD_TIMEOUT_MS, maxBuffer: 1 << 20 });
  if (r.status !== 0) throw new Error(`end-to-end child ${name}/${mode} failed (${r.status ?? r.signal}): ${(r.stderr || '').trim().slice(-500)}`);
  const { samples, checksum: sum } = JSON.parse(r.stdout.trim().split('\n').pop());
  return { label: MODES[mode], samples, median_ms: median(samples), first_ms: samples[0], min_ms: Math.min(...samples), checksum: sum };
}

// --- the parent ----------------------------------------------------------------------------------

function table(rows) {
  const header = ['method', 'median ms', 'first ms', 'min ms', 'PyTorch / it'];
  const cells = rows.map(([label, med, first, mn, ratio]) => [label, fmtMs(med), fmtMs(first), fmtMs(mn), fmtRatio(ratio)]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i].length)));
  const line = (r) => r.map((s, i) => (i ? s.padStart(widths[i]) : s.padEnd(widths[i]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n');
}

function benchCase(name, { runs, python }) {
  const c = CASES[name];
  log(`${c.title}: ${runs} calls per method, each method in a fresh process`);
  const results = {};
  for (const mode of Object.keys(MODES)) results[mode] = runChild(name, mode, runs);
  const py = runPython(c.python.script, [...c.python.args, '--repeats', String(runs)],
    { enabled: python, timeoutMs: CHILD_TIMEOUT_MS, maxBuffer: 1 << 24, requires: [c.python.key] });
  const anchor = py.skipped ? null : py[c.python.key].median;
  const rows = Object.values(results).map((r) => [r.label, r.median_ms, r.first_ms, r.min_ms, anchor && anchor / r.median_ms]);
  if (anchor) rows.push([c.python.label, anchor, null, py[c.python.key].min, 1]);
  log();
  log(table(rows));
  const sums = ['compute', 'release', 'reuse', 'borrow'].map((m) => results[m].checksum);
  if (!sums.every((s) => Object.is(s, sums[0]))) throw new Error(`${name}: the methods disagree on the output (${sums.join(', ')})`);
  log();
  return { results, anchor_ms: anchor, anchor_min_ms: anchor && py[c.python.key].min, python: py.skipped ? py : { [c.python.key]: py[c.python.key], torch_version: py.torch_version } };
}

/** Runs the end-to-end benchmark: opts { runs, python, json }. Returns { targets }. */
export async function runEndToEnd({ runs = 21, python = true, json = null } = {}) {
  const started = performance.now();
  const load = loadWatch();
  log();
  log('End-to-end benchmark: pe.compute as a caller meets it (a fresh Node process per method, no forced GC)');
  log(environmentLine(environment()));
  const perCase = {};
  for (const name of Object.keys(CASES)) {
    perCase[name] = benchCase(name, { runs, python });
    load.sample();
  }
  const goals = new Goals();
  log('goals');
  for (const [name, { results, anchor_ms: anchor, anchor_min_ms: anchorMin, python: py }] of Object.entries(perCase)) {
    const key = `${name}_end_to_end`;
    const goalName = `${name}: PyTorch / pe.compute end to end, { borrow: true } (median of ${runs} calls)`;
    if (!anchor) {
      goals.skip(key, goalName, `no Python anchor: ${py.skipped}`);
      continue;
    }
    const ratio = (m) => anchor / results[m].median_ms;
    goals.check({
      key, name: goalName, value: ratio('borrow'), need: CASES[name].need, atLeast: true, show: fmtRatio, showNeed: fmtNeedRatio,
      anchor: `PyTorch ${fmtMs(anchor)} ms / ${fmtMs(results.borrow.median_ms)} ms`,
      details: [`results the caller owns: with pe.release ${fmtRatio(ratio('release'))}, { reuse } ${fmtRatio(ratio('reuse'))}, a new array each call ${fmtRatio(ratio('compute'))}; the kernel alone: ${fmtRatio(ratio('kernel'))}`,
        // the fastest call of each: what is left when nothing else ran meanwhile (a busy machine)
        `fastest call against PyTorch's fastest: { borrow } ${fmtRatio(anchorMin / results.borrow.min_ms)}, pe.release ${fmtRatio(anchorMin / results.release.min_ms)}, new arrays ${fmtRatio(anchorMin / results.compute.min_ms)}, the kernel ${fmtRatio(anchorMin / results.kernel.min_ms)}`],
      extra: Object.fromEntries(Object.keys(MODES).map((m) => [`ratio_${m}`, ratio(m)])),
    });
  }
  const busy = load.note();
  if (busy) log(`  note: ${busy}`);
  log();
  log(`End-to-end benchmark: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  writeJson(json, { runs, cases: perCase, targets: goals.targets });
  return { targets: goals.targets };
}

const at = process.argv.indexOf('--child');
if (at > 0) {
  child(JSON.parse(process.argv[at + 1])).catch((e) => {
    process.stderr.write(`${e?.stack ?? e}\n`);
    process.exit(1);
  });
} else {
  runIfMain(import.meta.url, { script: 'bench/end-to-end.js', part: 'end-to-end', defaults: { runs: 21 }, use: ['json', 'runs', 'python', 'strict'] }, runEndToEnd);
}
