#!/usr/bin/env node
// Writes tests/setup/durations.json, each test file's wall time (s) in the last `npm test`
// (build/vitest-report.json): vitest.config.js starts the longest files first with it, so on a
// clean clone (no Vitest cache) a long file does not start last and run alone at the end.
//   node scripts/test-durations.js [REPORT]   (default build/vitest-report.json)
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const report = JSON.parse(readFileSync(process.argv[2] ?? path.join(ROOT, 'build', 'vitest-report.json'), 'utf8'));
const durations = Object.fromEntries(report.testResults
  // paths from the checkout's root (the report may come from another clone)
  .map((f) => [f.name.slice(f.name.lastIndexOf('/tests/') + 1), Math.round((f.endTime - f.startTime) / 100) / 10])
  .sort((a, b) => b[1] - a[1]));
writeFileSync(path.join(ROOT, 'tests', 'setup', 'durations.json'), `${JSON.stringify(durations, null, 2)}\n`);
console.log(`tests/setup/durations.json: ${Object.keys(durations).length} files`);
