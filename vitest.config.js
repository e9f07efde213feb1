import { readFileSync } from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer } from 'vitest/node';

// How many test files run at once. A browser suite spends much of its time waiting for its
// Chromium renderer (one process, mostly one core) and a Python suite for python3, so on 2 cores
// three files at a time keep both cores busy where one file at a time left one idle. Every wait is
// for a condition the page announces, with long budgets, so sharing the cores makes a suite
// slower, not red. PE_TEST_WORKERS overrides it (PE_TEST_WORKERS=1: one file at a time).
const workers = Math.max(1, Number(process.env.PE_TEST_WORKERS) || 3);

// Longest files first, so that none starts late and runs alone at the end: by this machine's
// Vitest cache when it has every file, else by tests/setup/durations.json (the wall times of a
// clean run, written by scripts/test-durations.js); a file in neither (a new one) goes first.
const DURATIONS = JSON.parse(readFileSync(new URL('./tests/setup/durations.json', import.meta.url), 'utf8'));
class LongestFirst extends BaseSequencer {
  async sort(files) {
    const root = this.ctx.config.root;
    const known = (f) => DURATIONS[path.relative(root, f.moduleId)] ?? Infinity;
    const cached = (f) => this.ctx.cache.getFileTestResults(`${f.project.name}:${path.relative(root, f.moduleId)}`);
    if (files.every(cached)) return super.sort(files);
    return [...files].sort((a, b) => known(b) - known(a));
  }
}

export default defineConfig({
  test: {
    include: ['tests/**/*.test.js'],
    // The page bundle is built once per run (tests/setup/bundle.js), not once per browser suite, and
    // one Chromium serves every browser suite (tests/setup/chromium.js), each in its own contexts.
    globalSetup: ['tests/setup/bundle.js', 'tests/setup/chromium.js'],
    // Generous budgets: on a busy 2-core machine a browser test can take minutes. Tests wait for
    // conditions the page announces (data-state, data-drawn, …), never for fixed times, so a slow
    // machine makes the suite slower, not red.
    testTimeout: 240_000,
    hookTimeout: 240_000,
    teardownTimeout: 60_000,
    fileParallelism: workers > 1,
    maxWorkers: workers,
    minWorkers: 1,
    sequence: { sequencer: LongestFirst },
  },
});
