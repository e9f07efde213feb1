// One resampler for every heatmap picture (issue 28): the main heatmap view, compare mode's panes,
// the exported PNG, Learn's figures and the absolute family's panes all draw through the page's C
// resampler (pe.heatmap, c/heatmap.c, tent weights; web/model/pixels.js hands it to the renderer),
// so the same table at the same size gives the same pixels everywhere. Before, compare mode, the
// export, Learn and the absolute views resampled in JS (box means, 9–22 % false contrast).
//   npx vitest run tests/browser/one-resampler.test.js
// Screenshots: tests/artifacts/one-resampler-*.png.
import { describe, it, expect } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { ARTIFACTS, suiteAvailability, gotoApp, watchPage, logProblems, waitDrawn, inSight } from '../helpers/browser.js';
import { useBrowser } from '../helpers/browser-suite.js';

const avail = suiteAvailability('one-resampler.test');
const MAIN = '#view-heatmap .hm-plot';
const PANE_A = '#view-compare .compare-pane:nth-child(1) .hm-plot';
// The exported picture's plot area (web/plot/svg.js heatmapCanvas, width 760, scale 2, a title):
// left 70, top 40, pw = 760 − 70 − 96 CSS pixels; ph from the table's aspect.
const EXPORT = { left: 70, top: 40, pw: 594, scale: 2 };
const exportPh = (rows, cols) => Math.round(Math.min(EXPORT.pw * 1.25, Math.max(220, EXPORT.pw * Math.min(rows / cols, 1.25))));

describe.skipIf(avail.skip)('one resampler for every heatmap (Chromium)', () => {
  const session = useBrowser({ avail });

  /** Fixes a plot's CSS size and waits until its canvas has the device pixels that size makes. */
  async function sizePlot(page, selector, w, h, dpr) {
    await page.evaluate(([sel, cw, ch]) => {
      const plot = document.querySelector(sel);
      plot.scrollIntoView({ block: 'center' });
      Object.assign(plot.style, { width: `${cw}px`, height: `${ch}px`, maxWidth: 'none', maxHeight: 'none', flex: 'none' });
    }, [selector, w, h]);
    await page.waitForFunction(([sel, pw, ph]) => {
      const c = document.querySelector(`${sel} canvas.hm-canvas`);
      return c && c.width === pw && c.height === ph;
    }, [selector, w * dpr, h * dpr]);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  }

  /** The canvas's RGBA bytes as base64 (transferred once, compared in Node). */
  const canvasBytes = (page, selector) => page.evaluate((sel) => {
    const c = document.querySelector(`${sel} canvas.hm-canvas`);
    const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let s = '';
    for (let i = 0; i < px.length; i += 0x8000) s += String.fromCharCode(...px.subarray(i, i + 0x8000));
    return btoa(s);
  }, selector);

  it('a 2000 × 1600 RoPE table: the main view, compare mode and the exported PNG have the same pixels', async () => {
    const dpr = 2;
    const context = await session.browser.newContext({ viewport: { width: 1400, height: 1000 }, deviceScaleFactor: dpr, locale: 'en-US', colorScheme: 'light', acceptDownloads: true });
    const page = await context.newPage();
    const log = await watchPage(page, new URL(session.server.url).origin);
    const rows = 2000;
    const cols = 1600;
    await gotoApp(page, `${session.server.url}?lang=en#v1/rope?length=${rows}&dim=${2 * cols}&~cmp=()`);
    // The heatmap view has drawn once its plot says which resampler drew.
    await page.waitForSelector(`${MAIN}[data-resampler]`);
    const w = EXPORT.pw;
    const h = exportPh(rows, cols);
    // The three pictures at the export's plot size, in device pixels: minified (2000 × 1600 cells).
    await sizePlot(page, MAIN, w, h, dpr);
    const main = await canvasBytes(page, MAIN);
    await page.waitForSelector('#view-compare .compare-active:not([hidden])');
    await sizePlot(page, PANE_A, w, h, dpr);
    const paneA = await canvasBytes(page, PANE_A);
    await inSight(page, '#view-share', () => page.waitForSelector('#view-share .view-body[data-ready="true"]'));
    const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#view-share [data-export="heatmapPng"]')]);
    const chunks = [];
    for await (const chunk of await dl.createReadStream()) chunks.push(chunk);
    const png = Buffer.concat(chunks);
    writeFileSync(path.join(ARTIFACTS, 'one-resampler-export.png'), png);
    const exported = await page.evaluate(async ([b64, x, y, pw, ph]) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
      const c = document.createElement('canvas');
      c.width = bitmap.width;
      c.height = bitmap.height;
      const g = c.getContext('2d');
      g.drawImage(bitmap, 0, 0);
      const px = g.getImageData(x, y, pw, ph).data;
      let s = '';
      for (let i = 0; i < px.length; i += 0x8000) s += String.fromCharCode(...px.subarray(i, i + 0x8000));
      return btoa(s);
    }, [png.toString('base64'), EXPORT.left * EXPORT.scale, EXPORT.top * EXPORT.scale, w * EXPORT.scale, h * EXPORT.scale]);
    // What the JS box mean would have drawn at this size, to show the comparison can tell them apart.
    // A string, so Vitest does not rewrite the imports meant for the browser.
    const boxMean = await page.evaluate(`(async () => {
      const { createPE } = await import('/api/pe.js');
      const { resampleWindow } = await import('/plot/resample.js');
      const pe = await createPE();
      const data = pe.ropeView({ kind: 'rope', length: ${rows}, dim: ${2 * cols} }, { transform: 'cos' }).data;
      const values = resampleWindow(data, ${rows}, ${cols}, { x0: 0, x1: ${cols}, y0: 0, y1: ${rows} }, ${w * dpr}, ${h * dpr}, { finite: true });
      const range = pe.heatmapRange(data);
      const px = pe.colorize(values, { map: 'viridis', vmin: range.lo, vmax: range.hi });
      let s = '';
      for (let i = 0; i < px.length; i += 0x8000) s += String.fromCharCode(...px.subarray(i, i + 0x8000));
      return btoa(s);
    })()`);
    await page.locator('#view-heatmap').screenshot({ path: path.join(ARTIFACTS, 'one-resampler-main.png') });
    await page.locator('#view-compare').screenshot({ path: path.join(ARTIFACTS, 'one-resampler-compare.png') });
    const a = Buffer.from(main, 'base64');
    const differing = (b) => {
      let n = 0;
      for (let i = 0; i < a.length; i += 4) if (a[i] !== b[i] || a[i + 1] !== b[i + 1] || a[i + 2] !== b[i + 2] || a[i + 3] !== b[i + 3]) n++;
      return n;
    };
    const pixels = a.length / 4;
    const counts = { paneA: differing(Buffer.from(paneA, 'base64')), exported: differing(Buffer.from(exported, 'base64')), boxMean: differing(Buffer.from(boxMean, 'base64')) };
    console.log(`${rows} × ${cols} at ${w * dpr} × ${h * dpr} pixels: pixels unlike the main view's: compare ${counts.paneA}, export ${counts.exported} (of ${pixels}); the JS box mean would differ in ${counts.boxMean}`);
    expect(Buffer.from(paneA, 'base64').length).toBe(a.length);
    expect(Buffer.from(exported, 'base64').length).toBe(a.length);
    expect(counts.paneA).toBe(0);
    expect(counts.exported).toBe(0);
    expect(counts.boxMean, 'the box mean is another picture').toBeGreaterThan(pixels / 100);
    const how = await page.evaluate(() => [...document.querySelectorAll('.hm-plot')].map((p) => p.dataset.resampler ?? 'none'));
    expect(how).toEqual(['render', 'render', 'render', 'render']);   // main, compare A, B, A − B
    expect(logProblems(log)).toEqual({});
    await context.close();
  }, 300_000);

  it('Learn\'s figures and the absolute family\'s panes draw through the same resampler', async () => {
    const context = await session.browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1, locale: 'en-US', colorScheme: 'light' });
    const page = await context.newPage();
    const log = await watchPage(page, new URL(session.server.url).origin);
    for (const step of ['sinusoids', 'learned', 'relative', 'rope']) {
      await page.goto('about:blank');
      await page.goto(`${session.server.url}?lang=en#learn/${step}`);
      await page.waitForFunction(() => Number(document.querySelector('.learn-figure')?.dataset.drawn || 0) > 0
        && document.querySelector('.learn-figure .hm-plot')?.dataset.resampler);
      expect(await page.evaluate(() => [...document.querySelectorAll('.learn-figure .hm-plot')].map((p) => p.dataset.resampler)), step)
        .toEqual(['render']);
    }
    await page.locator('.learn-figure').screenshot({ path: path.join(ARTIFACTS, 'one-resampler-learn-rope.png') });
    await gotoApp(page, `${session.server.url}?lang=en#v1/sinusoidal?length=3000&dim=1024`);
    for (const view of ['#view-absolute-simple', '#view-absolute-similarity']) {
      await waitDrawn(page, view, 0);
      await page.waitForFunction((v) => [...document.querySelectorAll(`${v} .hm-plot`)].every((p) => p.dataset.resampler), view);
      const how = await page.evaluate((v) => [...document.querySelectorAll(`${v} .hm-plot`)].map((p) => p.dataset.resampler), view);
      expect(how.length, view).toBeGreaterThan(0);
      expect(new Set(how), view).toEqual(new Set(['render']));
    }
    await page.locator('#view-absolute-simple').screenshot({ path: path.join(ARTIFACTS, 'one-resampler-absolute-simple.png') });
    expect(logProblems(log)).toEqual({});
    await context.close();
  }, 300_000);
});
