#!/usr/bin/env node
// Runs every test layer of PE Lab and closes with one summary line, `N passed, N failed`:
//   lint     ESLint, the types of web/pe.d.ts (tsc), clang-format  one test per tool
//   native   tests/native/run.sh: C kernels under ASan/UBSan      one test per suite (test_*.c)
//   fuzz     tests/fuzz/run.sh --replay: the committed corpora    one test per harness
//   vitest   every tests/**/*.test.js (Node and Chromium)         Vitest's own count
// Every layer runs even when an earlier one failed, so one run shows everything that is broken.
//
//   node scripts/test.js                 all layers
//   node scripts/test.js native vitest   some layers
//   node scripts/test.js vitest -- tests/rope.test.js   arguments after -- go to Vitest
//   node scripts/test.js quick           the edit–test loop (npm run test:quick): lint and the Node
//                                        suites only: no Chromium, no native ASan, no Python
//
// Vitest (mostly Chromium waiting for frames) runs beside the other layers, which run one after
// another and print their output as a block when they are done; PE_TEST_SERIAL=1 runs every layer
// in turn instead. The summary lists the layers in the order above either way.

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const dash = argv.indexOf('--');
const vitestArgs = dash >= 0 ? argv.slice(dash + 1) : [];
const chosen = dash >= 0 ? argv.slice(0, dash) : argv;
const LAYERS = ['lint', 'native', 'fuzz', 'vitest'];
for (const l of chosen) {
  if (!LAYERS.includes(l) && l !== 'quick') {
    console.error(`scripts/test.js: unknown layer '${l}' (layers: ${LAYERS.join(', ')}, or quick)`);
    process.exit(2);
  }
}
// quick: the suites that need neither Chromium nor Python (the browser suites, the fixture
// generators' reproduction, the code-export runs); PE_TEST_QUICK skips the Python parts of the rest.
const QUICK_EXCLUDE = ['tests/browser/**', 'tests/fixtures.test.js', 'tests/codegen.test.js', 'tests/precision-code.test.js'];
const quick = chosen.includes('quick');
if (quick) {
  process.env.PE_TEST_QUICK = '1';
  vitestArgs.push(...QUICK_EXCLUDE.flatMap((g) => ['--exclude', g]));
}
const layers = quick ? ['lint', 'vitest'] : chosen.length ? chosen : LAYERS;

/**
 * Where a layer's output goes: straight to the terminal, or (for a layer running beside Vitest)
 * into a block printed when the layer is done.
 */
class Output {
  constructor(buffered) {
    this.buffered = buffered;
    this.text = '';
  }

  log(line) {
    this.write(`${line}\n`);
  }

  write(d, stream = process.stdout) {
    if (this.buffered) this.text += d;
    else stream.write(d);
  }
}
const TERMINAL = new Output(false);

/** Runs a command, also collecting its stdout; resolves { code, out }. */
function run(cmd, args, sink = TERMINAL) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: ROOT, stdio: ['ignore', 'pipe', sink.buffered ? 'pipe' : 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      sink.write(d);
    });
    child.stderr?.on('data', (d) => sink.write(d, process.stderr));
    child.on('error', (e) => resolve({ code: 127, out: String(e) }));
    child.on('close', (code) => resolve({ code: code ?? 1, out }));
  });
}

const totals = { passed: 0, failed: 0, skipped: 0 };
const lines = [];
function record(layer, passed, failed, skipped = 0, note = '') {
  totals.passed += passed;
  totals.failed += failed;
  totals.skipped += skipped;
  lines.push(`${layer}: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}${note ? ` (${note})` : ''}`);
}

async function lint(out = TERMINAL) {
  out.log('\n== lint (ESLint, tsc --noEmit on tests/types, clang-format --dry-run)');
  let passed = 0;
  let failed = 0;
  if (existsSync(path.join(ROOT, 'eslint.config.js'))) {
    // Cached by content in build/ (ESLint re-checks every file whose bytes or config changed).
    const r = await run('npx', ['--no-install', 'eslint', '--max-warnings=0', '--cache', '--cache-strategy', 'content',
      '--cache-location', 'build/cache/eslint/', '.'], out);
    r.code === 0 ? passed++ : failed++;
  }
  if (existsSync(path.join(ROOT, 'tests', 'types', 'tsconfig.json'))) {
    // Incremental: tsc keeps what it learnt of unchanged files (the DOM lib above all) in build/.
    const r = await run('npx', ['--no-install', 'tsc', '-p', 'tests/types', '--incremental',
      '--tsBuildInfoFile', 'build/cache/tsc/types.tsbuildinfo'], out);
    r.code === 0 ? passed++ : failed++;
  }
  if (existsSync(path.join(ROOT, '.clang-format'))) {
    const r = await run('bash', ['scripts/format.sh', '--check'], out);
    r.code === 0 ? passed++ : failed++;
  }
  if (passed + failed) record('lint', passed, failed);
}

async function native(out = TERMINAL) {
  out.log('\n== native C tests (tests/native/run.sh)');
  const r = await run('bash', ['tests/native/run.sh'], out);
  // Each suite ends with "<suite>: N checks passed, M failed".
  const suites = [...r.out.matchAll(/^(.+?): (\d+) checks passed, (\d+) failed$/gm)];
  const bad = suites.filter((m) => Number(m[3]) > 0).length;
  const checks = suites.reduce((s, m) => s + Number(m[2]), 0);
  const expected = readdirCount('tests/native', /^test_.*\.c$/);
  const missing = Math.max(0, expected - suites.length);
  const failed = bad + missing + (r.code !== 0 && bad + missing === 0 ? 1 : 0);
  record('native', suites.length - bad, failed, 0, `${checks} checks in ${suites.length} suites`);
}

async function fuzz(out = TERMINAL) {
  out.log('\n== fuzz corpora replay (tests/fuzz/run.sh --replay)');
  const r = await run('bash', ['tests/fuzz/run.sh', '--replay'], out);
  const harnesses = readdirCount('tests/fuzz', /^fuzz_.*\.c$/);
  if (r.code === 0) record('fuzz', harnesses, 0, 0, 'corpora replayed, nothing found');
  else {
    const found = (r.out.match(/: FOUND/g) || []).length;
    record('fuzz', Math.max(0, harnesses - Math.max(found, 1)), Math.max(found, 1));
  }
}

async function vitest(out = TERMINAL) {
  out.log('\n== Vitest (Node and Chromium suites)');
  const report = path.join(ROOT, 'build', 'vitest-report.json');
  mkdirSync(path.dirname(report), { recursive: true });
  rmSync(report, { force: true });
  const r = await run('npx', ['--no-install', 'vitest', 'run', '--reporter=default', '--reporter=json',
    `--outputFile.json=${report}`, ...vitestArgs], out);
  if (!existsSync(report)) {
    record('vitest', 0, 1, 0, `Vitest exited ${r.code} without a report`);
    return;
  }
  const rep = JSON.parse(readFileSync(report, 'utf8'));
  const skipped = (rep.numPendingTests || 0) + (rep.numTodoTests || 0);
  // A file that fails to load (syntax error, failing beforeAll) counts as one failure of its own.
  const brokenFiles = (rep.testResults || []).filter((f) => f.status === 'failed'
    && !(f.assertionResults || []).some((a) => a.status === 'failed')).length;
  const failed = rep.numFailedTests + brokenFiles + (r.code !== 0 && rep.numFailedTests + brokenFiles === 0 ? 1 : 0);
  record('vitest', rep.numPassedTests, failed, skipped, `${rep.numTotalTestSuites} suites in ${(rep.testResults || []).length} files`);
}

function readdirCount(dir, re) {
  return readdirSync(path.join(ROOT, dir)).filter((f) => re.test(f)).length;
}

const t0 = Date.now();
const RUN = { lint, native, fuzz, vitest };
const others = layers.filter((l) => l !== 'vitest');
if (layers.includes('vitest') && others.length && !process.env.PE_TEST_SERIAL) {
  // Two lanes: Vitest streams to the terminal; the others run in turn into a block of their own.
  const lane = (async () => {
    const block = new Output(true);
    for (const layer of others) {
      const started = Date.now();
      await RUN[layer](block);
      block.log(`(${layer}: ${((Date.now() - started) / 1000).toFixed(0)} s)`);
    }
    return block;
  })();
  const vitestDone = RUN.vitest();
  const block = await lane;
  await vitestDone;
  process.stdout.write(`\n== the layers that ran beside Vitest: ${others.join(', ')}${block.text}`);
} else {
  for (const layer of layers) await RUN[layer]();
}
const secs = ((Date.now() - t0) / 1000).toFixed(0);
console.log(`\n== summary (${secs} s)`);
const order = (l) => LAYERS.indexOf(l.split(':')[0]);
for (const l of [...lines].sort((a, b) => order(a) - order(b))) console.log(l);
console.log(`${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
process.exit(totals.failed ? 1 : 0);
