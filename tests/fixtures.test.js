// The committed fixtures are exactly what the independent NumPy generator produces.
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const python = '/usr/bin/python3';
const hasNumpy = existsSync(python) && spawnSync(python, ['-c', 'import numpy'], { stdio: 'ignore' }).status === 0;
const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));

describe('fixtures', () => {
  // CI installs NumPy; elsewhere a missing NumPy skips this one check (the fixtures are committed).
  it.skipIf(!hasNumpy && !process.env.CI)('are reproduced byte for byte by tests/fixtures/generate.py', () => {
    const out = mkdtempSync(join(tmpdir(), 'pe-fixtures-'));
    try {
      const run = spawnSync(python, [join(fixtures, 'generate.py'), '--out', out], { encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(0);
      const committed = readdirSync(join(fixtures, 'sinusoidal')).sort();
      expect(readdirSync(out).sort()).toEqual(committed);
      for (const name of committed) {
        const same = readFileSync(join(out, name)).equals(readFileSync(join(fixtures, 'sinusoidal', name)));
        expect(same, name).toBe(true);
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
