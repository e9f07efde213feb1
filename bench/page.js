// Page benchmark in headless Chromium (software rendering, --disable-gpu): page weight, first
// plot (navigation → first heatmap painted, cold and warm), and input-to-paint after a control
// change (input event → the first animation frame after the page has redrawn), each beside its
// goal and its anchor: the WebAssembly kernel's own time for the same table in the same page.
//
//   node bench/page.js [--json FILE] [--strict]   (npm run bench runs it after the kernel benchmarks)
//
// A benchmark, not a test: it reports; --strict turns a missed goal into exit 1.
import { gzipSync } from 'node:zlib';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

import { Goals, here, importPermalink, loadWatch, log, median, percentile, runIfMain, writeJson } from './harness.js';

const WEB = here('../web');

// Goals (issues 12 and 16): what a user waits for.
export const GOALS = {
  pageWeightKB: 250, // first screen, gzipped, WebAssembly included
  firstPlotColdMs: 400,
  firstPlotWarmMs: 150,
  paint512Ms: 16, // 512 × 512 slider step, input → painted frame
  paint2000Ms: 33, // 2000 × 1600
  attention512x8Ms: 16, // attention, 512 tokens × 8 heads, input → painted frame
  attention4096x1Ms: 100,
  viewUpdateMs: 2, // a lazy view's update() on the main thread (the drawing goes to a frame)
  hostileLinkMs: 200, // decoding a 250 000-character hostile link and refusing it
  scroll100Ms: 10000, // scrolling a post with 100 <pe-plot> figures to the bottom, every figure drawn
};

const ms = (x) => (x == null || Number.isNaN(x) ? '—' : `${x.toFixed(1)} ms`);
const kb = (x) => `${x.toFixed(1)} KB`;

/**
 * The browser helpers (playwright-core through tests/browser/helpers.js) and the static server,
 * imported only when the page part runs; { skipped } when Chromium or playwright-core is missing.
 */
async function browserTools() {
  let helpers;
  try {
    helpers = await import('../tests/browser/helpers.js');
  } catch (e) {
    return { skipped: `cannot load tests/browser/helpers.js (npm ci installs playwright-core): ${e.message.split('\n')[0]}` };
  }
  const avail = helpers.browserAvailability();
  if (!avail.run) return { skipped: avail.reason };
  const { startServer } = await import('../scripts/serve.js');
  return { launchChromium: helpers.launchChromium, startServer };
}

/** Runs the page benchmark: opts { json }. Returns { targets }. */
export async function runPage({ json = null } = {}) {
  const goals = new Goals();
  log('PE Lab benchmark: the page in headless Chromium');
  const tools = await browserTools();
  if (tools.skipped) {
    goals.skip('page', 'page benchmark', tools.skipped);
    return { targets: goals.targets };
  }
  if (!existsSync(path.join(WEB, 'wasm', 'pe_simd.wasm'))) throw new Error('run `bash build.sh` first');
  if (!existsSync(path.join(WEB, 'dist', 'app.js'))) {
    const { bundle } = await import('../scripts/bundle.js');
    await bundle({ webDir: WEB });
  }
  const load = loadWatch();
  const server = await tools.startServer({ port: 0, root: WEB });
  const browser = await tools.launchChromium();
  const report = {};
  /** A time (ms) or size (KB) against its goal, lower is better. */
  const goal = (name, key, value, need, unit, { anchor, details } = {}) => goals.check({
    key, name, value, need, show: unit === 'KB' ? kb : ms, showNeed: (x) => `${x} ${unit}`, anchor, details,
  });

  async function open(hash = '') {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    await page.goto(`${server.url}${hash}`, { waitUntil: 'load' });
    await page.waitForFunction(() => document.documentElement.dataset.state === 'ready');
    await page.waitForFunction(() => performance.getEntriesByName('pe:first-plot').length > 0);
    return { context, page };
  }
  const marks = (page) => page.evaluate(() => ({
    firstPlot: performance.getEntriesByName('pe:first-plot')[0]?.startTime,
    lines: performance.getEntriesByName('pe:lines-drawn')[0]?.startTime,
  }));

  try {
    // Page weight: every response of the first screen, gzipped.
    {
      const context = await browser.newContext();
      const page = await context.newPage();
      const bodies = new Map();
      page.on('response', async (r) => {
        try {
          bodies.set(r.url(), await r.body());
        } catch { /* redirects have no body */ }
      });
      await page.goto(server.url, { waitUntil: 'load' });
      await page.waitForFunction(() => document.querySelector('#view-properties .view-body')?.dataset.done);
      await context.close();
      let total = 0;
      for (const body of bodies.values()) total += gzipSync(body, { level: 9 }).length;
      report.pageWeight = { bytes_gzipped: total, requests: bodies.size };
      goal(`page weight, ${bodies.size} requests, gzipped`, 'page_weight_kb', total / 1000, GOALS.pageWeightKB, 'KB');
    }

    // First plot: cold = a fresh context each time (no caches), warm = reloads of one page.
    const cold = [];
    for (let i = 0; i < 5; i++) {
      const { context, page } = await open();
      cold.push(await marks(page));
      await context.close();
    }
    const warm = [];
    {
      const { context, page } = await open();
      for (let i = 0; i < 5; i++) {
        await page.reload({ waitUntil: 'load' });
        await page.waitForFunction(() => performance.getEntriesByName('pe:first-plot').length > 0);
        warm.push(await marks(page));
      }
      await context.close();
    }
    report.firstPlot = { cold, warm };
    const fp = (xs) => median(xs.map((m) => m.firstPlot));
    const firstPlotGoal = (label, key, loads, need) => goal(label, key, fp(loads), need, 'ms', {
      anchor: `line plot drawn at ${ms(median(loads.map((m) => m.lines)))} in the same loads`,
      details: [`min ${ms(Math.min(...loads.map((m) => m.firstPlot)))} over ${loads.length} loads`],
    });
    firstPlotGoal('first plot, cold (navigation → heatmap painted)', 'first_plot_cold_ms', cold, GOALS.firstPlotColdMs);
    firstPlotGoal('first plot, warm', 'first_plot_warm_ms', warm, GOALS.firstPlotWarmMs);

    // Input to paint: a control change, timed from the input event to the next animation frame
    // after the page finished its redraw. Anchor: the WebAssembly compute of the same spec, in the
    // same page, in the same run.
    const steps = async (hash, field, values, n, views = []) => {
      const { context, page } = await open(hash);
      await page.waitForFunction(() => performance.getEntriesByName('pe:lines-drawn').length > 0);
      const out = await page.evaluate(async ({ field, values, n, views }) => {
        const input = document.getElementById(field);
        const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
        const last = (xs) => (xs && xs.length ? xs[xs.length - 1] : NaN);
        const rows = [];
        for (let i = 0; i < n; i++) {
          const before = window.__peLab.renders;
          const t0 = performance.now();
          input.value = String(values[i % values.length]);
          input.dispatchEvent(new Event('input', { bubbles: true }));
          while (window.__peLab.renders === before) await frame();
          const d = window.__peLab;
          const row = { compute: last(d.computeMs), work: last(d.renderMs) };
          for (const v of views) row[v] = last(d.viewMs[v]);
          await frame(); // the frame that shows the redraw
          row.paint = performance.now() - t0;
          rows.push(row);
          await frame();
        }
        return rows;
      }, { field, values, n, views });
      await context.close();
      return out;
    };
    const paintGoal = (label, key, samples, need) => {
      const col = (k) => samples.map((x) => x[k]).filter(Number.isFinite);
      report[key] = samples;
      goal(`input → painted frame, ${label} (${samples.length} changes)`, key, median(col('paint')), need, 'ms', {
        anchor: `compute in the page ${ms(median(col('compute')))} → ${(median(col('paint')) / median(col('compute'))).toFixed(1)}× the compute`,
        details: [`p90 ${ms(percentile(col('paint'), 0.9))}`],
      });
    };
    const bases = [10000, 10001, 12000, 9000];
    paintGoal('sinusoidal 512 × 512', 'paint_512_ms', await steps('#sinusoidal?length=512&dim=512', 'f-sinusoidal-base', bases, 40), GOALS.paint512Ms);
    paintGoal('sinusoidal 2000 × 1600', 'paint_2000_ms', await steps('#sinusoidal?length=2000&dim=1600', 'f-sinusoidal-base', bases, 16), GOALS.paint2000Ms);
    const enc = [10002, 10003, 10006, 10005].map((b) => JSON.stringify({ kind: 'rope', base: b }));
    paintGoal('attention 512 tokens × 8 heads', 'attention_512x8_ms', await steps('#attention?length=512&heads=8', 'f-attention-encoding', enc, 20), GOALS.attention512x8Ms);
    paintGoal('attention 4096 tokens × 1 head', 'attention_4096x1_ms', await steps('#attention?length=4096&heads=1', 'f-attention-encoding', enc, 8), GOALS.attention4096x1Ms);

    // The lazy views' own update() on a change (their drawing is scheduled for a frame).
    for (const [label, hash, field, values, views] of [
      ['rope views (Qwen2.5 YaRN)', '#rope?dim=128&base=1000000', 'f-rope-base', [1000997, 1001994, 1002991], ['rope-wavelengths', 'rope-scaling', 'rope-relative']],
      ['vision views (sinusoidal2d 14 × 14)', '#sinusoidal2d', 'f-sinusoidal2d-base', [10000, 10007, 9000], ['vision-similarity']],
    ]) {
      const samples = await steps(hash, field, values, 9, views);
      for (const v of views) {
        const xs = samples.map((x) => x[v]).filter(Number.isFinite);
        if (!xs.length) {
          goals.info(`update_${v}_ms`, label, `${v} did not update (not on screen)`);
          continue;
        }
        goal(`${v} update() per change, ${label}`, `update_${v}_ms`, median(xs), GOALS.viewUpdateMs, 'ms', { details: [`max ${ms(Math.max(...xs))}`] });
      }
    }

    // A blog post with 100 <pe-plot> figures, one screen apart: scroll to the bottom a screen per
    // frame, then wait until the last figure has drawn. Anchor: the same post's first figure.
    {
      const figures = Array.from({ length: 100 }, (_, i) => `<section style="height: 720px"><pe-plot id="p${i}" kind="${i % 2 ? 'rope' : 'sinusoidal'}" length="${32 + i}" dim="16" view="heatmap"></pe-plot></section>`).join('');
      const html = `<!doctype html><meta charset="utf-8"><title>post</title><script type="module" src="./dist/pe-plot.js"></script><body>${figures}</body>`;
      const context = await browser.newContext({ viewport: { width: 900, height: 800 }, deviceScaleFactor: 1 });
      const page = await context.newPage();
      await page.route(`${server.url}post.html`, (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html }));
      const t0 = Date.now();
      await page.goto(`${server.url}post.html`);
      await page.waitForFunction(() => document.getElementById('p0')?.dataset.state === 'ready');
      const firstMs = Date.now() - t0;
      const scrollMs = await page.evaluate(async () => {
        const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
        const start = performance.now();
        while (window.scrollY + window.innerHeight < document.body.scrollHeight - 1) {
          window.scrollBy(0, window.innerHeight);
          await frame();
        }
        while (document.getElementById('p99').dataset.state !== 'ready') await frame();
        return performance.now() - start;
      });
      const renders = await page.$$eval('pe-plot', (els) => els.reduce((n, e) => n + e.renders, 0));
      await context.close();
      report.scroll100 = { scrollMs, firstMs, renders };
      goal('scrolling 100 <pe-plot> figures to the bottom', 'scroll_100_ms', scrollMs, GOALS.scroll100Ms, 'ms', {
        anchor: `the post's first figure drawn ${ms(firstMs)} after navigation`, details: [`${renders} renders for 100 figures`],
      });
    }

    // A hostile link is decoded and refused (in Node: the same module the page runs), as long
    // as the longest fragment decoded (a longer one is refused whole, without being read).
    {
      const { decodePermalink } = await importPermalink();
      let seed = 12345;
      const alphabet = "()!',:~&=?#%/<>\"' \\abcdefghijklmnopqrstuvwxyz0123456789._-eE+\u0000\u2028한";
      let link = '#v1/sinusoidal?dim=';
      while (link.length < 250000) {
        seed = (seed * 1103515245 + 12345) >>> 0;
        link += alphabet[seed % alphabet.length];
      }
      const times = [];
      for (let i = 0; i < 5; i++) {
        const t0 = performance.now();
        decodePermalink(link);
        times.push(performance.now() - t0);
      }
      goal('refusing a 250 000-character hostile link (decodePermalink)', 'hostile_link_ms', median(times), GOALS.hostileLinkMs, 'ms');
    }
  } finally {
    await browser.close();
    await server.close();
  }
  const busy = load.note();
  if (busy) log(`  note: ${busy}`);
  log();
  writeJson(json, { goals: GOALS, report, targets: goals.targets });
  return { targets: goals.targets };
}

runIfMain(import.meta.url, { script: 'bench/page.js', part: 'page', use: ['json', 'strict'] }, runPage);
