// The committed fixtures are what the independent NumPy/PyTorch generators produce: every
// tests/fixtures/gen_*.py is run into a temporary root and compared file by file.
//
// Float files (.f64, .f32) and the numbers in manifests are compared to a relative 1e-7, not bit
// for bit: the generators call libm's sin, cos, pow, exp and log, whose last bits differ between
// machines (glibc picks an FMA or an SSE2 code path by CPU). Between the machine that wrote the
// fixtures and an AMD EPYC the worst drift was 3e-8 absolute (sin at position 1e9, where one ulp
// of the angle is 1.2e-7) and a few ulps everywhere else; every kernel's tolerance against these
// references is far looser. Any other file (.npy, .safetensors, rounding tables) must be
// identical, and so must every string, count and shape in a manifest.
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCommand } from './helpers/pe.js';
import { cacheKey, cachedPass, filesUnder, rememberPass, ROOT } from './helpers/cache.js';

/** Relative tolerance for generated floats: libm differences between machines stay far below it. */
const FLOAT_RTOL = 1e-7;

/** The worst relative difference between two float arrays (Infinity when a NaN/∞ pattern differs). */
function worstFloat(a, b) {
  if (a.length !== b.length) return Infinity;
  let worst = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (Object.is(x, y) || (Number.isNaN(x) && Number.isNaN(y))) continue;
    if (!Number.isFinite(x) || !Number.isFinite(y)) return Infinity;
    worst = Math.max(worst, Math.abs(x - y) / Math.max(1, Math.abs(y)));
  }
  return worst;
}

const floatsOf = (buf, ext) => (buf.length % (ext === 'f64' ? 8 : 4) !== 0 ? null
  : ext === 'f64' ? new Float64Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length))
    : new Float32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length)));

/** The worst relative difference between the numbers of two JSON values of the same shape, or Infinity. */
function worstJson(a, b) {
  if (typeof a === 'number' && typeof b === 'number') {
    if (Number.isInteger(a) && Number.isInteger(b)) return a === b ? 0 : Infinity; // counts, shapes, seeds
    return worstFloat([a], [b]);
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return Infinity;
    return a.reduce((w, v, i) => Math.max(w, worstJson(v, b[i])), 0);
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a).sort();
    if (JSON.stringify(ka) !== JSON.stringify(Object.keys(b).sort())) return Infinity;
    return ka.reduce((w, k) => Math.max(w, worstJson(a[k], b[k])), 0);
  }
  return Object.is(a, b) ? 0 : Infinity;
}

/** How far a generated file is from the committed one: 0 when identical, Infinity when not comparable. */
function fileDrift(name, made, kept) {
  if (made.equals(kept)) return 0;
  const ext = name.split('.').pop();
  if (ext === 'f64' || ext === 'f32') {
    const a = floatsOf(made, ext);
    const b = floatsOf(kept, ext);
    return a && b ? worstFloat(a, b) : Infinity;
  }
  if (ext === 'json') {
    try {
      return worstJson(JSON.parse(made.toString('utf8')), JSON.parse(kept.toString('utf8')));
    } catch {
      return Infinity;
    }
  }
  return Infinity;
}

const python = '/usr/bin/python3';
// What the generators' output depends on besides their sources and the committed files: Python,
// NumPy, PyTorch, mpmath, the bytes of the libm they call, and the CPU (glibc picks its libm code
// path by CPU features). Printed by the same run that checks NumPy and PyTorch are there.
const TOOLCHAIN_PY = `
import hashlib, json, platform, sys
import numpy, torch
try:
    import mpmath
    mp = mpmath.__version__
except ImportError:
    mp = None
libs = sorted({l.split()[-1] for l in open('/proc/self/maps') if '/libm' in l and l.split()[-1].startswith('/')})
print(json.dumps([sys.version, platform.libc_ver(), numpy.__version__, torch.__version__, mp,
                  [[p, hashlib.sha256(open(p, 'rb').read()).hexdigest()] for p in libs]]))
`;
const toolchain = existsSync(python) ? spawnSync(python, ['-c', TOOLCHAIN_PY], { encoding: 'utf8' }) : null;
const hasPython = toolchain?.status === 0;
const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));
const generators = readdirSync(fixtures).filter((f) => /^gen_.*\.py$/.test(f)).sort();

/**
 * The cache key of a generator's check (tests/helpers/cache.js): every file under tests/fixtures/
 * (the generators, their references and every committed fixture), the toolchain, the CPU, and for
 * a generator that runs Node on web/ (gen_models.py reads the gallery) Node's version and web/api/.
 */
function fixtureKey(generator) {
  const source = readFileSync(join(fixtures, generator), 'utf8');
  const readsWeb = /subprocess|["']web["']/.test(source);
  const cpu = readFileSync('/proc/cpuinfo', 'utf8').split('\n').filter((l) => /^(model name|flags)\s*:/.test(l)).slice(0, 2).join('\n');
  return cacheKey({
    strings: ['fixtures v1', generator, toolchain.stdout, cpu, String(FLOAT_RTOL), readsWeb ? process.version : ''],
    files: [...filesUnder(fixtures), ...(readsWeb ? filesUnder(join(ROOT, 'web', 'api')) : [])],
  });
}

/** Runs fn when one of `n` slots is free: at most n generators at once. */
function limiter(n) {
  let free = n;
  const waiting = [];
  return async (fn) => {
    if (free > 0) free -= 1;
    else await new Promise((r) => waiting.push(r));
    try {
      return await fn();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else free += 1;
    }
  };
}
const slot = limiter(2);

describe('fixtures', () => {
  it('have at least one generator', () => {
    expect(generators.length).toBeGreaterThan(0);
  });

  // CI installs NumPy and PyTorch; elsewhere a missing one skips this check (fixtures are committed).
  it('tell a few ulps of libm drift from a real change', () => {
    const kept = Buffer.from(new Float64Array([0.5, -0.25, 1e9, NaN]).buffer);
    const drift = Buffer.from(new Float64Array([0.5 + 2 ** -52, -0.25, 1e9 + 1e-6, NaN]).buffer);
    const changed = Buffer.from(new Float64Array([0.5 + 1e-6, -0.25, 1e9, NaN]).buffer);
    expect(fileDrift('a.f64', drift, kept)).toBeLessThan(FLOAT_RTOL);
    expect(fileDrift('a.f64', changed, kept)).toBeGreaterThan(FLOAT_RTOL);
    expect(fileDrift('a.f64', kept.subarray(8), kept)).toBe(Infinity);
    expect(fileDrift('m.json', Buffer.from('{"n":3,"x":0.1}'), Buffer.from('{"n":3,"x":0.10000000000000002}'))).toBeLessThan(FLOAT_RTOL);
    expect(fileDrift('m.json', Buffer.from('{"n":4,"x":0.1}'), Buffer.from('{"n":3,"x":0.1}'))).toBe(Infinity);
    expect(fileDrift('m.json', Buffer.from('{"kind":"a"}'), Buffer.from('{"kind":"b"}'))).toBe(Infinity);
    expect(fileDrift('t.npy', Buffer.from([1, 2]), Buffer.from([1, 3]))).toBe(Infinity);
  });

  // The generators run two at a time: each spends much of its wall time starting Python and
  // importing NumPy/PyTorch, which leaves a core idle when they run one after another.
  it.skipIf(!hasPython && !process.env.CI).concurrent.for(generators)('are reproduced by %s (floats to a relative 1e-7)', async (generator, { expect }) => {
    // The same generator, references, committed files and toolchain passed before: the result
    // cannot differ (see fixtureKey), so the run is skipped. PE_TEST_NO_CACHE=1 runs it anyway.
    const key = fixtureKey(generator);
    const before = cachedPass('fixtures', key);
    if (before) {
      console.log(`${generator}: inputs unchanged since it reproduced the committed fixtures on ${before.passed} (worst relative drift ${before.worst}); not rerun`);
      return;
    }
    const out = mkdtempSync(join(tmpdir(), 'pe-fixtures-'));
    try {
      const run = await slot(() => runCommand(python, [join(fixtures, generator), '--out', out], { timeout: 300_000 }));
      expect(run.status, run.stderr).toBe(0);
      const kinds = readdirSync(out).sort();
      let worst = 0;
      expect(kinds.length, `${generator} wrote nothing`).toBeGreaterThan(0);
      for (const kind of kinds) {
        const committed = readdirSync(join(fixtures, kind)).sort();
        expect(readdirSync(join(out, kind)).sort(), kind).toEqual(committed);
        for (const name of committed) {
          const drift = fileDrift(name, readFileSync(join(out, kind, name)), readFileSync(join(fixtures, kind, name)));
          worst = Math.max(worst, drift);
          expect(drift, `${kind}/${name}`).toBeLessThanOrEqual(FLOAT_RTOL);
        }
      }
      console.log(`${generator}: worst relative drift from the committed fixtures ${worst.toExponential(2)}`);
      rememberPass('fixtures', key, { worst: worst.toExponential(2) });
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
