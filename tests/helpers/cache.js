// A cache of checks whose outcome is a pure function of files and tool versions (the Python
// fixture generators, say): a check that passed is recorded under the SHA-256 of everything it
// read, and skipped next time while all of that is byte for byte the same. Any change to one
// input gives a new key, so the check runs again. Records live in build/test-cache/ (ignored by
// git; delete it, or set PE_TEST_NO_CACHE=1, to run every check afresh). A failing check is never
// recorded.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const DIR = path.join(ROOT, 'build', 'test-cache');

/** Whether caching is on (PE_TEST_NO_CACHE=1 turns it off). */
export const cacheEnabled = () => !process.env.PE_TEST_NO_CACHE;

/** Every file under `dir` (absolute), recursively, sorted; none when it does not exist. */
export function filesUnder(dir, skip = (name) => name === '__pycache__' || name === 'node_modules') {
  if (!existsSync(dir)) return [];
  const out = [];
  const walk = (d) => {
    for (const name of readdirSync(d).sort()) {
      if (skip(name)) continue;
      const p = path.join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(p);
    }
  };
  walk(dir);
  return out;
}

/**
 * The key of a check: SHA-256 over `strings` (tool versions, flags, …) and the path (relative to
 * the repository) and bytes of every file of `files`, in the order given.
 */
export function cacheKey({ strings = [], files = [] }) {
  const h = createHash('sha256');
  for (const s of strings) h.update(`s${s.length}:${s}\0`);
  for (const f of files) {
    const bytes = readFileSync(f);
    h.update(`f${path.relative(ROOT, f)}:${bytes.length}\0`);
    h.update(bytes);
  }
  return h.digest('hex');
}

const recordOf = (area, key) => path.join(DIR, area, `${key}.json`);

/** The record a passing check left under `key` in `area`, or null (also when caching is off). */
export function cachedPass(area, key) {
  if (!cacheEnabled()) return null;
  try {
    return JSON.parse(readFileSync(recordOf(area, key), 'utf8'));
  } catch {
    return null;
  }
}

/** Records that the check `key` of `area` passed, with `info` (shown when it is skipped next time). */
export function rememberPass(area, key, info = {}) {
  if (!cacheEnabled()) return;
  const file = recordOf(area, key);
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify({ ...info, passed: new Date().toISOString() }));
  renameSync(tmp, file);
}
