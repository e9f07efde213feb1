// Browser tests of the page's update scheduling (web/app/view-host.js updateViews, web/views/lazy.js
// watchVisibility) and of the heatmap's "input to screen" line: a view out of sight does no work
// on a change and catches up, with the latest state, when it comes into view; the heatmap says how
// long the user waited, in both languages. Behaviour only, never timing.
//   npx vitest run tests/browser/visible-views.test.js
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { suiteAvailability, openPage, logProblems, waitDrawn, inSight } from '../helpers/browser.js';

const avail = suiteAvailability('visible-views.test');

describe.skipIf(avail.skip)('views update only in sight', () => {
  let page;
  let log;
  let close;

  beforeAll(async () => {
    ({ page, log, close } = await openPage({ avail, url: '?lang=en#sinusoidal?length=64&dim=32' }));
    await waitDrawn(page, '#view-lines');
  });
  afterAll(async () => {
    await close?.();
  });

  const updates = (id) => page.evaluate((v) => (window.__peLab.viewMs[v] ?? []).length, id);
  const renders = () => page.evaluate(() => window.__peLab.renders);

  it('skips a view out of sight and brings it up to date when it comes into view', async () => {
    await page.evaluate(() => window.scrollTo(0, 0));
    // The compare view sits far below the first screen; wait until the page knows it is out of sight.
    await page.waitForFunction(() => document.getElementById('view-compare')?.getBoundingClientRect().top > window.innerHeight + 400);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const before = await updates('compare');
    const heatmapBefore = await updates('heatmap');
    for (const base of [10001, 10002, 10003]) {
      const n = await renders();
      await page.fill('#f-sinusoidal-base', String(base));
      await page.waitForFunction((k) => window.__peLab.renders > k, n);
    }
    expect(await updates('heatmap')).toBeGreaterThanOrEqual(heatmapBefore + 3);
    expect(await updates('compare')).toBe(before);
    // Into view: one catch-up update, and it carries the result it missed.
    await inSight(page, '#view-compare', () => page.waitForFunction((k) => (window.__peLab.viewMs.compare ?? []).length > k, before));
    expect(await updates('compare')).toBe(before + 1);
    expect(logProblems(log)).toEqual({});
  });

  it('skips the views below the screen from the first change after the page loads', async () => {
    // Views whose code loads near the screen mount outside updateViews; they are watched from
    // their mount, so the first change already leaves a mounted view out of sight alone.
    const other = await openPage({ avail, url: '?lang=en#attention?length=64' });
    try {
      const p = other.page;
      // Mounted and drawn (it loads within 800 px of the screen) without scrolling to it.
      await p.waitForFunction(() => document.querySelector('#view-attention-heads [data-drawn]'));
      expect(await p.evaluate(() => document.getElementById('view-attention-heads').getBoundingClientRect().top - window.innerHeight)).toBeGreaterThan(400);
      await p.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const count = () => p.evaluate(() => (window.__peLab.viewMs['attention-heads'] ?? []).length);
      const before = await count();
      const n = await p.evaluate(() => window.__peLab.renders);
      await p.fill('#f-attention-dim', '32');
      await p.waitForFunction((k) => window.__peLab.renders > k, n);
      await p.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      expect(await count()).toBe(before);
      await inSight(p, '#view-attention-heads', () => p.waitForFunction((k) => (window.__peLab.viewMs['attention-heads'] ?? []).length > k, before));
      expect(logProblems(other.log)).toEqual({});
    } finally {
      await other.close();
    }
  });

  it('says in the heatmap how long the input took to reach the screen, in English and Korean', async () => {
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.fill('#f-sinusoidal-base', '10500');
    await page.waitForFunction(() => /input to screen in [\d.,]+\s*ms/.test(document.querySelector('#view-heatmap .view-stats')?.textContent ?? ''));
    const ms = Number(await page.evaluate(() => document.querySelector('#view-heatmap .view-body').dataset.paintMs));
    expect(ms).toBeGreaterThan(0);
    const stats = await page.textContent('#view-heatmap .view-stats');
    expect(stats).toMatch(/^64 × 32 values · input to screen in/);
    expect(stats).not.toMatch(/computed in|drawn in/);
    await page.click('#lang [lang="ko"]');
    await page.waitForFunction(() => document.documentElement.lang === 'ko');
    await page.fill('#f-sinusoidal-base', '10600');
    await page.waitForFunction(() => /입력부터 화면까지 [\d.,]+\s*ms/.test(document.querySelector('#view-heatmap .view-stats')?.textContent ?? ''));
    expect(logProblems(log)).toEqual({});
  });
});
