// Views draw line plots through LinePlot's methods (web/plot/README.md), never through Chart.js:
// no view reads or writes `plot.chart` (its options, datasets, scales, update or constructor).
import { describe, it, expect } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const CHECKED = ['web/views'];

function* modules(dir) {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) yield* modules(p);
    else if (name.endsWith('.js')) yield p;
  }
}

/** The lines of a module that reach a Chart.js chart: `.chart.…`, `.chart[…]` or `x = plot.chart`. */
export function chartReaches(src) {
  return src.split('\n')
    .map((line, i) => ({ line: i + 1, text: line.replace(/\/\/.*$/, '') }))
    .filter(({ text }) => /\.chart(?![-\w])/.test(text));
}

describe('LinePlot API only', () => {
  it('finds a reach into Chart.js (the check can fail)', () => {
    expect(chartReaches("const y = plot.chart.options.scales.y;\nconst c = plot.chart;\nx.querySelector('.chart-box');").map((r) => r.line)).toEqual([1, 2]);
  });

  it.each(CHECKED)('%s never touches plot.chart', (dir) => {
    const found = [];
    for (const file of modules(path.join(ROOT, dir))) {
      for (const r of chartReaches(readFileSync(file, 'utf8'))) found.push(`${path.relative(ROOT, file)}:${r.line}: ${r.text.trim()}`);
    }
    expect(found).toEqual([]);
  });
});
