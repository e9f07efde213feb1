// docs/reference.md is the project's reference of every spec kind and of the Arena, written by
// scripts/gen-reference.js from web/api/schema/: it must be exactly what the generator writes
// now, so a schema change that is not carried into the reference fails here.
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { KINDS, SCHEMA } from '../../web/api/schema/index.js';
import ARENA from '../../web/api/schema/arena.js';
import { OUT, rangeOf, reference } from '../../scripts/gen-reference.js';

const ROOT = path.dirname(path.dirname(OUT));

describe('docs/reference.md', () => {
  // In plain Node: the test runner rewrites imported modules, and with them the source text of
  // the bounds written as expressions.
  it('is what scripts/gen-reference.js writes (run node scripts/gen-reference.js after a schema change)', () => {
    const run = spawnSync(process.execPath, ['scripts/gen-reference.js', '--check'], { cwd: ROOT, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('has a section per kind and one for the Arena, with every field, its default and its range', async () => {
    const text = await reference();
    const sections = Object.fromEntries(text.split(/^## /m).slice(1).map((s) => [s.slice(0, s.indexOf('\n')), s]));
    for (const [kind, fields] of [...KINDS.map((k) => [k, SCHEMA[k].fields]), ['Arena', ARENA.arena.fields]]) {
      expect(sections[kind], `section ${kind}`).toBeTruthy();
      for (const [name, f] of Object.entries(fields)) {
        const row = sections[kind].split('\n').find((l) => l.startsWith(`| \`${name}\` |`));
        expect(row, `${kind}.${name}`).toBeTruthy();
        expect(row).toContain(`\`${JSON.stringify(f.default) ?? '—'}\``);
        expect(row).toContain(rangeOf(f).replace(/\|/g, '\\|'));
      }
    }
  });

  it('writes a range from the descriptor, bounds given as expressions included', () => {
    expect(rangeOf({ type: 'int', min: 0, max: (spec) => 10 - spec.length })).toBe('integer in [0, 10 - spec.length]');
    expect(rangeOf({ type: 'number', min: 0, exclusiveMin: true, max: 1, nullable: true })).toBe('number in (0, 1], or null');
  });
});
