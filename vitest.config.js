import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.js'],
    // The page bundle is built once per run (tests/setup/bundle.js), not once per browser suite.
    globalSetup: ['tests/setup/bundle.js'],
    // Generous budgets: on a busy 2-core machine a browser test can take minutes. Tests wait for
    // conditions the page announces (data-state, data-drawn, …), never for fixed times, so a slow
    // machine makes the suite slower, not red.
    testTimeout: 240_000,
    hookTimeout: 240_000,
    teardownTimeout: 60_000,
    // One file at a time keeps the browser suites predictable on 2 cores.
    fileParallelism: false,
  },
});
