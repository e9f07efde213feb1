// The committed fixtures are exactly what the independent NumPy/PyTorch generators produce:
// every tests/fixtures/gen_*.py is run into a temporary root and compared file by file.
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCommand } from './helpers/pe.js';

const python = '/usr/bin/python3';
const hasPython = existsSync(python) && spawnSync(python, ['-c', 'import numpy, torch'], { stdio: 'ignore' }).status === 0;
const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));
const generators = readdirSync(fixtures).filter((f) => /^gen_.*\.py$/.test(f)).sort();

describe('fixtures', () => {
  it('have at least one generator', () => {
    expect(generators.length).toBeGreaterThan(0);
  });

  // CI installs NumPy and PyTorch; elsewhere a missing one skips this check (fixtures are committed).
  it.skipIf(!hasPython && !process.env.CI).each(generators)('are reproduced byte for byte by %s', async (generator) => {
    const out = mkdtempSync(join(tmpdir(), 'pe-fixtures-'));
    try {
      const run = await runCommand(python, [join(fixtures, generator), '--out', out], { timeout: 300_000 });
      expect(run.status, run.stderr).toBe(0);
      const kinds = readdirSync(out).sort();
      expect(kinds.length, `${generator} wrote nothing`).toBeGreaterThan(0);
      for (const kind of kinds) {
        const committed = readdirSync(join(fixtures, kind)).sort();
        expect(readdirSync(join(out, kind)).sort(), kind).toEqual(committed);
        for (const name of committed) {
          const same = readFileSync(join(out, kind, name)).equals(readFileSync(join(fixtures, kind, name)));
          expect(same, `${kind}/${name}`).toBe(true);
        }
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
