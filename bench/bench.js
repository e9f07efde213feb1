// PE Lab benchmark, the entry point of `npm run bench`: every part in turn, with the same options,
// then every goal in one list.
//
//   npm run bench                        (= setup, bash build.sh, node bench/bench.js)
//   node bench/bench.js [--json FILE] [--runs N] [--warmup N] [--no-python] [--no-page] [--strict]
//
// Parts, in order (each also runs on its own: node bench/<part>.js --help):
//   bench/sinusoidal.js  the 2000 × 1600 sinusoidal table: WASM kernels, pe.compute, JS, PyTorch/NumPy
//   bench/rope.js        RoPE applied to [32, 4096, 128]: WASM kernels, pe.applyRope, JS, PyTorch
//   bench/attention.js   causal RoPE attention weights at lengths 2048 and 4096: WASM, pe.compute, PyTorch
//   bench/end-to-end.js  pe.compute as a caller meets it (a fresh process per method, no forced GC):
//                        sinusoidal 2000 × 1600 and attention 4096, plain, with pe.release, with
//                        { reuse }, beside the kernel alone and PyTorch
//   bench/precision.js   the precision lab's full sweep, 2^20 positions × dim 128: WASM SIMD, PyTorch
//   bench/page.js        the page in headless Chromium: weight, first plot, input → painted frame
// With --json FILE the sinusoidal JSON goes to FILE and the others next to it (FILE.rope.json, …).
//
// A benchmark, not a test: it exits 0 even when a goal is missed (1 only when it crashes), unless
// --strict is given, which makes a missed goal exit 1.
import { runAttention } from './attention.js';
import { runEndToEnd } from './end-to-end.js';
import { crash, parseArgs, summarize } from './harness.js';
import { runPage } from './page.js';
import { runRope } from './rope.js';
import { runSinusoidal } from './sinusoidal.js';

const noPage = { flag: '--no-page', help: 'skip the page benchmark in headless Chromium (bench/page.js)', set: (o) => { o.page = false; } };
const opts = parseArgs(process.argv.slice(2), { script: 'bench/bench.js', defaults: { runs: 30, warmup: 5, page: true }, extra: [noPage] });

/** FILE.json → FILE<ext> for the parts after the first. */
const sibling = (ext) => opts.json && opts.json.replace(/(\.json)?$/, ext);

async function main() {
  const parts = [];
  parts.push({ part: 'sinusoidal', ...(await runSinusoidal(opts)) });
  parts.push({ part: 'rope', ...(await runRope({ ...opts, json: sibling('.rope.json') })) });
  // Attention at 4096 is slow in PyTorch and the scalar kernel: at most 10 timed runs.
  parts.push({ part: 'attention', ...(await runAttention({ ...opts, runs: Math.min(opts.runs, 10), json: sibling('.attention.json') })) });
  // End to end: at least 21 calls per method, each method in a fresh process.
  parts.push({ part: 'end-to-end', ...(await runEndToEnd({ ...opts, runs: Math.max(21, opts.runs), json: sibling('.end-to-end.json') })) });
  parts.push({ part: 'arena', ...(await (await import('./arena.js')).runArena({ ...opts, runs: Math.min(opts.runs, 20), json: sibling('.arena.json') })) });
  // The precision sweep: about 0.1 s per WASM run (9 timed after 2 warm-ups), one PyTorch run.
  parts.push({ part: 'precision', ...(await (await import('./precision.js')).runPrecision({ ...opts, runs: 9, warmup: 2, json: sibling('.precision.json') })) });
  if (opts.page) parts.push({ part: 'page', ...(await runPage({ json: sibling('.page.json') })) });
  const missed = summarize(parts);
  if (opts.strict && missed.length) process.exit(1);
}

main().catch(crash('bench'));
