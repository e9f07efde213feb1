// Performance of the page in headless Chromium (software rendering: --disable-gpu), printed as a
// report. The targets are: first plot ≤ 300 ms from a local server, median redraw ≤ 16 ms after a
// control change for a 512 × 512 heatmap with its plots, page weight ≤ 250 KB gzipped with the
// WebAssembly. Timings on a shared 2-core machine vary a lot, so only generous bounds are asserted
// for them (the numbers are printed); the page weight is asserted exactly.
//   npx vitest run tests/browser/perf.test.js
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { gzipSync } from 'node:zlib';
import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../scripts/serve.js';
import { bundle } from '../../scripts/bundle.js';
import { browserAvailability, launchChromium } from './helpers.js';

const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'web');
const avail = browserAvailability();

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
const ms = (x) => `${x.toFixed(1)} ms`;

describe.skipIf(!avail.run && !avail.mustFail)('page performance (headless Chromium)', () => {
  let server;
  let browser;
  const report = [];

  beforeAll(async () => {
    if (!avail.run) throw new Error(avail.reason);
    if (!existsSync(path.join(WEB, 'wasm', 'pe_simd.wasm'))) throw new Error('run `bash build.sh` first');
    await bundle({ webDir: WEB });
    server = await startServer({ port: 0, root: WEB });
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    const load = loadavg().map((x) => x.toFixed(1)).join(', ');
    if (report.length) {
      console.log(`\nPE Lab page performance (headless Chromium, --disable-gpu; ${cpus().length} cores, load average ${load}:`
        + ` other work on the machine inflates the medians, the minimum is the closest to the uncontended cost)\n${report.join('\n')}\n`);
    }
  });

  async function open(hash = '', viewport = { width: 1280, height: 900 }) {
    const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
    const page = await context.newPage();
    await page.goto(`${server.url}${hash}`, { waitUntil: 'load' });
    await page.waitForFunction(() => document.documentElement.dataset.state === 'ready', null, { timeout: 20_000 });
    await page.waitForFunction(() => performance.getEntriesByName('pe:lines-drawn').length > 0, null, { timeout: 20_000 });
    return { context, page };
  }

  const marks = (page) => page.evaluate(() => ({
    firstPlot: performance.getEntriesByName('pe:first-plot')[0]?.startTime,
    lines: performance.getEntriesByName('pe:lines-drawn')[0]?.startTime,
    script: performance.getEntriesByName('pe:script')[0]?.startTime,
    wasm: performance.getEntriesByName('pe:wasm-ready')[0]?.startTime,
  }));

  it('weighs at most 250 KB gzipped, WebAssembly included', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const bodies = new Map();
    page.on('response', async (r) => {
      try {
        bodies.set(r.url(), await r.body());
      } catch { /* redirects have no body */ }
    });
    await page.goto(server.url, { waitUntil: 'load' });
    await page.waitForFunction(() => document.querySelector('#view-properties .view-body')?.dataset.done, null, { timeout: 30_000 });
    await page.waitForTimeout(200);
    await context.close();
    let total = 0;
    const rows = [];
    for (const [url, body] of bodies) {
      const gz = gzipSync(body, { level: 9 }).length;
      total += gz;
      rows.push(`    ${new URL(url).pathname.padEnd(34)} ${String(body.length).padStart(8)} B  ${String(gz).padStart(7)} B gzipped`);
    }
    report.push(`Page weight: ${(total / 1024).toFixed(1)} KiB gzipped in ${bodies.size} requests (target ≤ 250 KB)`, ...rows);
    expect(total).toBeLessThanOrEqual(250 * 1000);
  });

  it('draws the first plot quickly', async () => {
    // Cold: a fresh browser context each time (no caches); warm: reloads of one page.
    const cold = [];
    for (let i = 0; i < 5; i++) {
      const { context, page } = await open();
      cold.push(await marks(page));
      await context.close();
    }
    const { context, page } = await open();
    const warm = [];
    for (let i = 0; i < 5; i++) {
      await page.reload({ waitUntil: 'load' });
      await page.waitForFunction(() => performance.getEntriesByName('pe:lines-drawn').length > 0, null, { timeout: 20_000 });
      warm.push(await marks(page));
    }
    await context.close();
    const line = (name, xs) => `    ${name.padEnd(34)} median ${ms(median(xs))}, min ${ms(Math.min(...xs))}, max ${ms(Math.max(...xs))}`;
    report.push('Time from navigation start (target: first plot ≤ 300 ms):',
      line('first plot (heatmap), cold', cold.map((m) => m.firstPlot)),
      line('first plot (heatmap), warm', warm.map((m) => m.firstPlot)),
      line('line plot too (Chart.js), cold', cold.map((m) => m.lines)),
      line('line plot too (Chart.js), warm', warm.map((m) => m.lines)),
      line('  of which: script running, cold', cold.map((m) => m.script)),
      line('  of which: WebAssembly ready, cold', cold.map((m) => m.wasm)));
    expect(median(warm.map((m) => m.firstPlot))).toBeLessThan(2000);
  });

  async function redraws(label, hash, field, values, n) {
    const { context, page } = await open(hash);
    await page.waitForTimeout(300);
    const samples = await page.evaluate(async ({ field, values, n }) => {
      const input = document.getElementById(field);
      const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
      const out = [];
      for (let i = 0; i < n; i++) {
        const before = window.__peLab.renders;
        const t0 = performance.now();
        input.value = String(values[i % values.length]);
        input.dispatchEvent(new Event('input', { bubbles: true }));
        while (window.__peLab.renders === before) await frame();
        const d = window.__peLab;
        out.push({
          work: d.renderMs[d.renderMs.length - 1],
          compute: d.computeMs[d.computeMs.length - 1],
          heatmap: d.viewMs.heatmap[d.viewMs.heatmap.length - 1],
          lines: d.viewMs.lines[d.viewMs.lines.length - 1],
          latency: d.lastRenderEnd - t0,
        });
        await frame();
      }
      return out;
    }, { field, values, n });
    await context.close();
    const stat = (k) => samples.map((s) => s[k]);
    report.push(`Redraw after a control change, ${label} (${n} changes):`,
      `    whole redraw (compute + every view)  median ${ms(median(stat('work')))}, p90 ${ms(pct(stat('work'), 0.9))}, min ${ms(Math.min(...stat('work')))}`,
      `      compute (WebAssembly)              median ${ms(median(stat('compute')))}, min ${ms(Math.min(...stat('compute')))}`,
      `      heatmap (resample, colorize, put)  median ${ms(median(stat('heatmap')))}, min ${ms(Math.min(...stat('heatmap')))}`,
      `      line plot (Chart.js update)        median ${ms(median(stat('lines')))}, min ${ms(Math.min(...stat('lines')))}`,
      `    input event → redraw done          median ${ms(median(stat('latency')))} (includes waiting for the next frame)`);
    return samples;
  }

  it('redraws a 512 × 512 heatmap with its plots at interactive rates', async () => {
    const s = await redraws('512 × 512', '#sinusoidal?length=512&dim=512', 'f-sinusoidal-base', [10000, 10001, 12000, 9000], 40);
    expect(median(s.map((x) => x.work))).toBeLessThan(100);
  });

  it('stays interactive at 2000 × 1600', async () => {
    const s = await redraws('2000 × 1600', '#sinusoidal?length=2000&dim=1600', 'f-sinusoidal-base', [10000, 10001, 12000, 9000], 12);
    expect(median(s.map((x) => x.work))).toBeLessThan(400);
  });
});
