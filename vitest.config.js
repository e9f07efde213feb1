import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.js'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // One worker at a time keeps the browser tests and the benchmarks-free suites predictable on 2 cores.
    fileParallelism: false,
  },
});
