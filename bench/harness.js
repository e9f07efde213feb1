// Shared pieces of the PE Lab benchmarks (bench/sinusoidal.js, rope.js, attention.js, page.js and
// the entry bench/bench.js): command-line options, GC exposure, the timing loop, statistics, the
// Python anchors, the environment header, tables, goal lines and JSON output. Each helper lives
// here once; the family modules keep only what they measure.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';

const PYTHON = '/usr/bin/python3';

/** Absolute path of a file given relative to bench/. */
export const here = (rel) => fileURLToPath(new URL(rel, import.meta.url));

export const log = (s = '') => process.stdout.write(`${s}\n`);

// --- options -------------------------------------------------------------------------------------

/** A bad command line: parseArgs prints the message and the usage, and exits 2. */
export class UsageError extends Error {}

function integer(text, flag, least) {
  const v = Number(text);
  if (!Number.isInteger(v) || v < least) throw new UsageError(`${flag} must be an integer >= ${least}`);
  return v;
}

/** An extra option --flag N (an integer ≥ 1) stored as opts[key]. */
export function countOption(flag, key, help) {
  return { flag, value: 'N', help, set: (o, v) => { o[key] = integer(v, flag, 1); } };
}

/** The options every benchmark understands; `value` names the argument of those that take one. */
const COMMON = {
  json: { flag: '--json', value: 'FILE', help: 'also write every number (samples included) as JSON to FILE', set: (o, v) => { o.json = v; } },
  runs: { flag: '--runs', value: 'N', help: 'timed runs per method', set: (o, v) => { o.runs = integer(v, '--runs', 1); } },
  warmup: { flag: '--warmup', value: 'N', help: 'warm-up runs per method', set: (o, v) => { o.warmup = integer(v, '--warmup', 0); } },
  python: { flag: '--no-python', help: 'skip the PyTorch/NumPy anchors (and the goals measured against them)', set: (o) => { o.python = false; } },
  strict: { flag: '--strict', help: 'exit 1 when any goal is missed (without it the benchmark only reports)', set: (o) => { o.strict = true; } },
};

/**
 * Parses argv into { json, runs, warmup, python, strict, ...defaults }. `use` picks the common
 * options, `extra` adds { flag, value?, help, set(opts, text) } entries. --help prints the usage
 * and exits 0; a bad option prints it and exits 2.
 */
export function parseArgs(argv, { script, defaults = {}, use = Object.keys(COMMON), extra = [] }) {
  const specs = [...use.map((k) => COMMON[k]), ...extra];
  const opts = { json: null, runs: 30, warmup: 5, python: true, strict: false, ...defaults };
  const usage = () => {
    const cells = specs.map((s) => [`${s.flag}${s.value ? ` ${s.value}` : ''}`, s.help
      + (s.value === 'N' && defaults[s.flag.slice(2)] != null ? ` (default ${defaults[s.flag.slice(2)]})` : '')]);
    const w = Math.max(...cells.map(([f]) => f.length));
    return `usage: node ${script} ${specs.map((s) => `[${s.flag}${s.value ? ` ${s.value}` : ''}]`).join(' ')}\n\n`
      + `${cells.map(([f, h]) => `  ${f.padEnd(w)}  ${h}`).join('\n')}\n`;
  };
  try {
    for (let k = 0; k < argv.length; k++) {
      const [flag, inline] = argv[k].startsWith('--') && argv[k].includes('=') ? argv[k].split(/=(.*)/s) : [argv[k], null];
      if (flag === '-h' || flag === '--help') {
        process.stdout.write(usage());
        process.exit(0);
      }
      const spec = specs.find((s) => s.flag === flag);
      if (!spec) throw new UsageError(`unknown option ${argv[k]}`);
      if (spec.value && inline == null && k + 1 >= argv.length) throw new UsageError(`${flag} needs a value`);
      spec.set(opts, spec.value ? (inline ?? argv[++k]) : undefined);
    }
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`${script}: ${e.message}\n${usage()}`);
    process.exit(2);
  }
  return opts;
}

// --- GC ------------------------------------------------------------------------------------------

/** A full-GC function and how it was obtained (global.gc, or exposed at run time, or a no-op). */
export function exposeGc() {
  if (typeof globalThis.gc === 'function') return { gc: globalThis.gc, how: 'global.gc (--expose-gc)' };
  try {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc');
    if (typeof gc === 'function') return { gc, how: 'exposed at run time (v8.setFlagsFromString)' };
  } catch { /* fall through */ }
  return { gc: () => {}, how: 'not available: GC may run inside timed regions (run node --expose-gc)' };
}

// --- statistics ----------------------------------------------------------------------------------

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** The p-quantile (0..1) by the nearest-rank-below rule. */
export function percentile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
}

const min = (xs) => Math.min(...xs);

// --- timing --------------------------------------------------------------------------------------

/**
 * Times methods ({ key, run(), release?() }): `warmup` untimed rounds (the very first call's time is
 * kept as `first`), then `runs` timed rounds, round-robin (one run of each method per round, so
 * machine drift affects all of them alike). Before every timed run: the method drops its last
 * output (release) and a full GC runs, both outside the timed region. Wall-clock performance.now().
 * Returns Map key → { first, samples, median, min } in ms.
 */
export function measure(methods, { warmup, runs, gc }) {
  const stats = new Map(methods.map((m) => [m.key, { first: null, samples: [] }]));
  for (let k = 0; k < warmup; k++) {
    for (const m of methods) {
      const t0 = performance.now();
      m.run();
      if (k === 0) stats.get(m.key).first = performance.now() - t0;
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
    s.min = min(s.samples);
  }
  return stats;
}

// --- WebAssembly and the JS API ------------------------------------------------------------------

/** The public API (web/pe.js: createPE, …), as benches and embedders import it. */
const importPE = () => import('../web/pe.js');

/** web/share/permalink.js (decodePermalink, …). */
export const importPermalink = () => import('../web/share/permalink.js');

/** Instantiates a kernel module the way web/api/pe.js does, without the JS wrapper. */
async function instantiateKernel(bytes) {
  const { instance } = await WebAssembly.instantiate(bytes, { env: { emscripten_notify_memory_growth() {} } });
  const w = instance.exports;
  if (typeof w._initialize === 'function') w._initialize();
  return w;
}

/**
 * Reads web/wasm/pe_simd.wasm and pe_scalar.wasm once (so every row of a run uses the same bytes,
 * even if someone rebuilds meanwhile) and instantiates both. simd is null where the engine has no
 * WebAssembly SIMD (logged; simdError says why).
 */
export async function loadKernels() {
  const files = {};
  for (const name of ['simd', 'scalar']) {
    const path = here(`../web/wasm/pe_${name}.wasm`);
    if (!existsSync(path)) throw new Error(`${path} is missing: run \`bash build.sh\` first`);
    const bytes = readFileSync(path);
    files[name] = { bytes, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
  }
  let simd = null;
  let simdError = null;
  try {
    simd = await instantiateKernel(files.simd.bytes);
  } catch (e) {
    simdError = e.message;
    log(`WASM SIMD not available here (${simdError}): the SIMD rows cannot be measured.`);
  }
  return { files, simd, simdError, scalar: await instantiateKernel(files.scalar.bytes) };
}

/** The public API (createPE) on the bytes loadKernels read: the SIMD build or the scalar one. */
export async function createPEFrom(kernels, simd) {
  const { createPE } = await importPE();
  return createPE({ simd, wasm: kernels.files[simd ? 'simd' : 'scalar'].bytes });
}

// --- environment ---------------------------------------------------------------------------------

/** What the numbers depend on: date, Node/V8, CPU, platform, git revision, load average. */
export function environment(extra = {}) {
  const cpus = os.cpus();
  const git = spawnSync('git', ['describe', '--always', '--dirty'], { cwd: here('..'), encoding: 'utf8' });
  return {
    date: new Date().toISOString(),
    node: process.version,
    v8: process.versions.v8,
    cpu: cpus[0]?.model ?? 'unknown',
    cpus: cpus.length,
    platform: `${os.platform()} ${os.arch()}`,
    git: git.status === 0 ? git.stdout.trim() : null,
    loadavg: os.loadavg().map((x) => Number(x.toFixed(2))),
    ...extra,
  };
}

/** One line for a family's header: Node, CPU, load average. */
export const environmentLine = (env) => `node ${env.node}, ${env.cpu}, load ${env.loadavg.join(' ')}`;

/**
 * Watches the 1-min load average over a part of the run; note() returns a warning line when the
 * machine was busy (load above half the CPUs, at least 1), otherwise null.
 */
export function loadWatch() {
  const cpus = os.cpus().length;
  const start = os.loadavg()[0];
  let peak = start;
  return {
    start,
    sample() { peak = Math.max(peak, os.loadavg()[0]); return peak; },
    note() {
      this.sample();
      return peak > Math.max(1, cpus / 2)
        ? `the machine was busy (1-min load average up to ${peak.toFixed(2)}, ${cpus} CPUs): timings are noisy, rerun on an idle machine before trusting a PASS/MISS`
        : null;
    },
  };
}

// --- Python anchors ------------------------------------------------------------------------------

/**
 * Runs bench/<script> with /usr/bin/python3 in a child process and parses the JSON object it prints
 * last. Returns that object plus `seconds`, or { skipped: reason } when Python is disabled or
 * missing, the script fails, times out, prints no JSON, reports {"skipped"} itself (no NumPy or
 * PyTorch), or lacks one of the `requires` timing keys. Logs the command and the outcome.
 */
export function runPython(script, args, { enabled = true, timeoutMs, maxBuffer = 1 << 20, requires = [] }) {
  const outcome = (() => {
    if (!enabled) return { skipped: 'disabled with --no-python' };
    if (!existsSync(PYTHON)) return { skipped: `${PYTHON} not found` };
    log(`running ${PYTHON} bench/${script} ${args.join(' ')} ...`);
    const t0 = performance.now();
    const r = spawnSync(PYTHON, [here(`./${script}`), ...args], { encoding: 'utf8', timeout: timeoutMs, maxBuffer });
    const seconds = (performance.now() - t0) / 1000;
    const stderrTail = (r.stderr || '').trim().split('\n').slice(-5).join('\n');
    if (r.error) {
      const why = r.error.code === 'ETIMEDOUT' ? `timed out after ${timeoutMs / 1000} s` : r.error.message;
      return { skipped: `${script} failed: ${why}`, stderr: stderrTail };
    }
    if (r.status !== 0) return { skipped: `${script} exited with ${r.status ?? r.signal}${stderrTail ? `: ${stderrTail}` : ''}` };
    let data;
    try {
      data = JSON.parse((r.stdout || '').trim().split('\n').filter(Boolean).pop());
    } catch {
      return { skipped: `${script} printed no JSON (stdout: ${JSON.stringify((r.stdout || '').slice(0, 200))})` };
    }
    if (data.skipped) return { skipped: `${script}: ${data.skipped}` };
    const missing = requires.find((k) => !Number.isFinite(data[k]?.median));
    if (missing) return { skipped: `${script} JSON lacks ${missing}.median` };
    return { ...data, seconds };
  })();
  if (outcome.skipped) {
    log(`Python anchor skipped: ${outcome.skipped}`);
  } else {
    const p = outcome;
    log(`Python ${p.python}, PyTorch ${p.torch_version}, NumPy ${p.numpy_version}${p.blas ? ` (BLAS: ${p.blas})` : ''}, `
      + `${p.threads} thread, ${p.repeats} repeats (${p.seconds.toFixed(1)} s)`);
  }
  return outcome;
}

// --- formatting ----------------------------------------------------------------------------------

export const fmtMs = (x) => (x == null || Number.isNaN(x) ? '—' : x < 10 ? x.toFixed(3) : x < 100 ? x.toFixed(2) : x.toFixed(1));
export const fmtRatio = (x) => (x == null || Number.isNaN(x) ? '—' : x >= 10 ? `${x.toFixed(1)}×` : `${x.toFixed(2)}×`);
export const fmtNeedRatio = (x) => `${x}×`;
export const fmtNeedErr = (x) => x.toExponential(0);
export const fmtErr = (x) => (x == null ? '—' : Number.isNaN(x) ? 'n/a' : x === 0 ? '0' : x.toExponential(2));

/** A plain-text table; align[c] is 'l' or 'r'. */
function table(header, rows, align) {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
  const line = (cells) => cells.map((s, c) => (align[c] === 'l' ? s.padEnd(widths[c]) : s.padStart(widths[c]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/**
 * The timing table every kernel family prints: rows [label, median ms, min ms, max abs err], with a
 * column of each median divided by `baseMs` (the WASM SIMD kernel's median, or the scalar one's).
 */
export function timingTable(rows, baseMs, baseName) {
  return table(['method', 'median ms', 'min ms', `time / ${baseName}`, 'max abs err'],
    rows.map(([label, med, mn, err]) => [label, fmtMs(med), fmtMs(mn), fmtRatio(baseMs ? med / baseMs : null), fmtErr(err)]),
    ['l', 'r', 'r', 'r', 'r']);
}

// --- goals ---------------------------------------------------------------------------------------

const TAG = { pass: 'PASS', miss: 'MISS', skip: 'SKIP', info: 'INFO' };
const INDENT = ' '.repeat(8);

/**
 * The goals of one part, printed as they are checked, one format for every part:
 *   PASS  name: figure (goal ≥ need); anchor: what the figure is measured against in this run
 *         further lines (other bases of comparison, per-method numbers)
 * and kept as records { key, name, status, value?, need?, ... } for the summary and the JSON.
 */
export class Goals {
  constructor() {
    this.targets = [];
  }

  /**
   * A figure against its goal. atLeast: the figure must be >= need (speed-ups), otherwise <= need
   * (times, sizes, errors). show formats the figure, showNeed the goal (default: show); details
   * are printed below.
   */
  check({ key, name, value, need, atLeast = false, show = String, showNeed = show, anchor = null, details = [], extra = {} }) {
    const ok = atLeast ? value >= need : value <= need;
    const status = ok ? 'pass' : 'miss';
    this.line(status, `${name}: ${show(value)} (goal ${atLeast ? '≥' : '≤'} ${showNeed(need)})${anchor ? `; anchor: ${anchor}` : ''}`, details);
    this.targets.push({ key, name, status, value, need, ...(anchor ? { anchor } : {}), ...extra });
    return ok;
  }

  /** check() for a speed-up over an anchor (a ratio of medians): it must reach need; shown as 2.50×. */
  speedup(spec) {
    return this.check({ ...spec, atLeast: true, show: fmtRatio, showNeed: fmtNeedRatio });
  }

  /** check() for a max abs error against a float64 reference: it must stay at or under need; shown as 1.23e-7. */
  maxAbsErr(spec) {
    return this.check({ ...spec, show: fmtErr, showNeed: fmtNeedErr });
  }

  /**
   * Skips the goal `key` when a speed-up over a Python anchor cannot be measured: the anchor did not
   * run (py.skipped says why) or there is no WASM SIMD result (`simd`). Returns true when it skipped.
   */
  skipWithoutAnchor(key, name, py, simd) {
    if (!py.skipped && simd) return false;
    this.skip(key, name, py.skipped ? `no Python anchor: ${py.skipped}` : 'no WASM SIMD');
    return true;
  }

  /** A goal that could not be measured in this run, and why. */
  skip(key, name, reason) {
    this.line('skip', `${name} (${reason})`);
    this.targets.push({ key, name, status: 'skip', reason });
  }

  /** A figure printed for information, with no goal: not counted in the summary. */
  info(key, name, text, extra = {}) {
    this.line('info', `${name}: ${text}`);
    this.targets.push({ key, name, status: 'info', ...extra });
  }

  line(status, text, details = []) {
    log(`  ${TAG[status]}  ${text}`);
    for (const d of details) log(`${INDENT}${d}`);
  }
}

/** The worst max abs error of a part's WASM methods: every result but the plain-JS loop (js_loop). */
export const worstWasmErr = (results) => Math.max(...Object.entries(results).filter(([k]) => k !== 'js_loop').map(([, r]) => r.max_abs_err));

/** A secondary verdict for a detail line: "→ PASS on that basis". */
export const onThatBasis = (ok) => `→ ${ok ? 'PASS' : 'MISS'} on that basis`;

/**
 * Prints the one-line summary of every part's goals ({ part, targets }) and returns the missed
 * ones: `goals: N met, N missed, N skipped (missed: part/key, …)`. INFO lines are not counted.
 */
export function summarize(parts) {
  const all = parts.flatMap(({ part, targets }) => (targets || []).map((t) => ({ part, ...t })));
  const count = (s) => all.filter((g) => g.status === s);
  const missed = count('miss');
  log(`\ngoals: ${count('pass').length} met, ${missed.length} missed, ${count('skip').length} skipped`
    + `${missed.length ? ` (missed: ${missed.map((g) => `${g.part}/${g.key}`).join(', ')})` : ''}`);
  return missed;
}

// --- output and entry points ---------------------------------------------------------------------

/** Writes obj as indented JSON to file, if a file was asked for. */
export function writeJson(file, obj) {
  if (!file) return;
  writeFileSync(file, `${JSON.stringify(obj, null, 2)}\n`);
  log(`wrote ${file}`);
}

/** Prints an uncaught error as `script: stack` and exits 1 (a crash, not a missed goal). */
export function crash(script) {
  return (e) => {
    process.stderr.write(`${script}: ${e?.stack ?? e}\n`);
    process.exit(1);
  };
}

/**
 * Lets a family module run on its own (`node bench/rope.js [options]`): when metaUrl is the
 * script node was started with, parses the options, runs run(opts) → { targets }, prints the
 * goals summary and exits 1 under --strict when a goal was missed.
 */
export function runIfMain(metaUrl, { script, part, defaults, use, extra }, run) {
  if (!process.argv[1] || metaUrl !== pathToFileURL(process.argv[1]).href) return;
  const opts = parseArgs(process.argv.slice(2), { script, defaults, use, extra });
  run(opts).then(({ targets }) => {
    const missed = summarize([{ part, targets }]);
    if (opts.strict && missed.length) process.exit(1);
  }).catch(crash(script));
}
