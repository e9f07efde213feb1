// Test helpers for the JS API (web/pe.js): the two WASM builds, one cached module per build, and
// the one way a test expects a PEError (expectRejected adds: and the heap did not grow).
import { expect } from 'vitest';
import { spawn } from 'node:child_process';
import { createPE, PEError } from '../../web/pe.js';

/**
 * The two WASM builds every kernel suite runs in, for `describe.each(BUILDS)('…, $name build',
 * ({ name, simd }) => …)`.
 */
export const BUILDS = Object.freeze([
  Object.freeze({ name: 'SIMD', simd: true }),
  Object.freeze({ name: 'scalar', simd: false }),
]);

const modules = new Map();

/**
 * The module of one build (`simd` true or false), created once per test file and shared by its
 * suites. Suites that need a module of their own (heap measurements from a fresh start, other
 * options) call createPE themselves.
 */
export function peFor(simd) {
  if (!modules.has(simd)) modules.set(simd, createPE({ simd }));
  return modules.get(simd);
}

/**
 * Calls `fn` and expects it to throw a PEError naming `param` (skipped when `param` is undefined),
 * whose message contains `message` (a string) or matches it (a RegExp). `label` prefixes the
 * assertion messages (say, the spec that was tried). Returns the error for further checks.
 */
export function expectPEError(fn, param, message, label) {
  let error;
  try {
    fn();
  } catch (e) {
    error = e;
  }
  expect(error, label ?? 'expected a PEError').toBeInstanceOf(PEError);
  expect(error.name, label).toBe('PEError');
  if (param !== undefined) expect(error.param, label).toBe(param);
  if (typeof message === 'string') expect(error.message, label).toContain(message);
  else if (message instanceof RegExp) expect(error.message, label).toMatch(message);
  return error;
}

/**
 * expectPEError(fn, param, message) on the module `pe`, and its WASM heap the size it was before
 * `fn`, checked after `after()` has run too (say, a call that shows the module still computes).
 * Returns the error.
 */
export function expectRejected(pe, fn, param, message, after = () => {}) {
  const before = pe.memoryBytes;
  const error = expectPEError(fn, param, message);
  after();
  expect(pe.memoryBytes, 'WASM heap bytes').toBe(before);
  return error;
}

/**
 * Runs a command without blocking the test worker (spawnSync would stall Vitest's messages to
 * its main process for as long as a slow Python run takes, which on a busy machine ends in an
 * RPC timeout): resolves { status, stdout, stderr }; status is null when it was killed at `timeout`.
 */
export function runCommand(cmd, args, { timeout = 300_000, env } = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], ...(env ? { env: { ...process.env, ...env } } : {}) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeout);
    child.on('error', (e) => { clearTimeout(timer); resolve({ status: null, stdout, stderr: String(e) }); });
    child.on('close', (status) => { clearTimeout(timer); resolve({ status, stdout, stderr }); });
  });
}
