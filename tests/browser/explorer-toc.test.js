// Browser tests of the explorer's table of contents and folded (advanced) views (web/app/toc.js,
// web/app/views.js ADVANCED): the contents list every view of the kind in the page language, a
// click scrolls to the view without touching the address bar (it holds the permalink), a folded
// view mounts only when opened, and everything follows a language switch.
//   npx vitest run tests/browser/explorer-toc.test.js
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { suiteAvailability, openPage, screenshot, viewKit, logProblems, clickSteady, inSight } from '../helpers/browser.js';

const avail = suiteAvailability('explorer-toc.test');

describe.skipIf(avail.skip)('explorer table of contents in Chromium', () => {
  let page;
  let log;
  let close;
  const { showKind } = viewKit(() => page);

  /** The contents: [view id, text] per link, and the sections' ids in page order. */
  const contents = () => page.evaluate(() => ({
    links: [...document.querySelectorAll('.kind-toc .toc-link')].map((a) => [a.dataset.view, a.firstChild.textContent]),
    sections: [...document.querySelectorAll('#views > section')].map((s) => s.id.replace(/^view-/, '')),
    pending: document.querySelectorAll('.kind-toc .toc-link.is-pending').length,
  }));
  const settled = () => page.waitForFunction(() => document.querySelector('.kind-toc .toc-link')
    && !document.querySelector('.kind-toc .toc-link.is-pending'));

  beforeAll(async () => {
    ({ page, log, close } = await openPage({ avail, url: '?lang=en', context: { viewport: { width: 1280, height: 900 } } }));
    await showKind('rope');
    await settled();
    await page.waitForFunction(() => document.documentElement.dataset.link === 'written');
  });

  afterAll(async () => {
    await close?.();
  });

  it('lists every view of the kind, by its title, in page order', async () => {
    const c = await contents();
    expect(c.links.map(([id]) => id)).toEqual(c.sections);
    expect(c.sections.length).toBeGreaterThan(8);
    const titles = await page.evaluate(() => [...document.querySelectorAll('#views > section h3')].map((h) => h.textContent));
    // A folded lazy view's header is filled when its code arrives; the contents say the same.
    for (const [i, [, text]] of c.links.entries()) {
      if (titles[i]) expect(text).toBe(titles[i]);
      expect(text.length, c.links[i][0]).toBeGreaterThan(3);
    }
    expect(c.links.find(([id]) => id === 'heatmap')[1]).toBe('The whole table');
    // Open on a wide screen.
    expect(await page.evaluate(() => document.querySelector('.kind-toc details').open)).toBe(true);
    await screenshot(page, 'explorer-toc-rope-en', '.kind-head');
  });

  it('scrolls to a view on click without changing the fragment, and focuses it', async () => {
    const hash = await page.evaluate(() => location.hash);
    expect(hash).toMatch(/^#v1\/rope/);
    await page.click('.kind-toc a[data-view="rope-pair"]');
    await page.waitForFunction(() => {
      const r = document.getElementById('view-rope-pair').getBoundingClientRect();
      return r.top >= -2 && r.top < window.innerHeight / 2;
    });
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('view-rope-pair');
    expect(await page.evaluate(() => location.hash)).toBe(hash);
    expect(logProblems(log)).toEqual({});
  });

  it('keeps advanced views folded until opened; a click in the contents opens and mounts one', async () => {
    const state = () => page.evaluate(() => {
      const s = document.getElementById('view-rope-relative');
      return { open: s.querySelector('details.view-fold')?.open, canvases: s.querySelectorAll('.view-body canvas').length, folded: s.classList.contains('is-folded') };
    });
    expect(await state()).toEqual({ open: false, canvases: 0, folded: true });
    // Scrolling past a folded view does not mount it.
    await page.evaluate(() => document.getElementById('view-rope-relative').scrollIntoView());
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    expect((await state()).canvases).toBe(0);
    // Its link says it is folded, and opens it.
    expect(await page.textContent('.kind-toc a[data-view="rope-relative"] .toc-folded')).toBe(' (folded)');
    await page.click('.kind-toc a[data-view="rope-relative"]');
    await page.waitForFunction(() => Number(document.querySelector('#view-rope-relative .view-body')?.dataset.drawn || 0) > 0);
    const s = await state();
    expect(s.open).toBe(true);
    expect(s.folded).toBe(false);
    expect(s.canvases).toBeGreaterThan(0);
    // Opened stays opened when the view is mounted again (a new shape).
    await page.fill('#f-rope-dim', '64');
    await page.waitForFunction(() => document.getElementById('view-rope-relative')?.querySelector('details.view-fold')?.open === true
      && Number(document.querySelector('#view-rope-relative .view-body')?.dataset.drawn || 0) > 0);
    // The other advanced view is still folded, and opening its summary mounts it.
    expect(await page.evaluate(() => document.querySelector('#view-rope-wavelengths details.view-fold').open)).toBe(false);
    await clickSteady(page, '#view-rope-wavelengths summary');
    await page.waitForFunction(() => document.querySelector('#view-rope-wavelengths details.view-fold').open === true);
    await page.waitForFunction(() => Number(document.querySelector('#view-rope-wavelengths .view-body')?.dataset.drawn || 0) > 0);
    expect(logProblems(log)).toEqual({});
  });

  it('follows the kind and the language', async () => {
    await showKind('sinusoidal');
    await settled();
    let c = await contents();
    expect(c.links.map(([id]) => id)).toEqual(c.sections);
    expect(c.links.some(([id]) => id.startsWith('rope-'))).toBe(false);
    await page.click('#lang [lang="ko"]');
    await page.waitForFunction(() => document.documentElement.lang === 'ko');
    await settled();
    c = await contents();
    expect(c.links.find(([id]) => id === 'heatmap')[1]).not.toBe('The whole table');
    expect(c.links.every(([, text]) => /[가-힣]/.test(text))).toBe(true);
    expect(await page.textContent('.kind-toc summary')).toMatch(/이 페이지의 보기 \d+개/);
    await showKind('rope');
    await settled();
    c = await contents();
    expect(c.links.find(([id]) => id === 'rope-relative')[1]).toMatch(/[가-힣]/);
    await screenshot(page, 'explorer-toc-rope-ko', '.kind-head');
    await page.click('#lang [lang="en"]');
    await page.waitForFunction(() => document.documentElement.lang === 'en');
    expect(logProblems(log)).toEqual({});
  });

  it('is folded on a phone', async () => {
    await page.setViewportSize({ width: 390, height: 800 });
    // Through the address bar, not the catalogue: on a phone the catalogue wraps above the page
    // while it relayouts, and what this test is about is the contents, not the catalogue.
    for (const kind of ['sinusoidal', 'rope']) {
      await page.evaluate((k) => { location.hash = `#${k}`; }, kind);
      await page.waitForFunction((k) => document.getElementById('main')?.dataset.kind === k, kind);
    }
    await settled();
    expect(await page.evaluate(() => document.querySelector('.kind-toc details').open)).toBe(false);
    await page.click('.kind-toc summary');
    expect(await page.isVisible('.kind-toc a[data-view="rope-pair"]')).toBe(true);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  // Last: choosing a display writes it into the permalink, which the tests above compare.
  it('titles the heatmap\'s colour bar with what the colours measure, and follows the display', async () => {
    await showKind('rope');
    const title = () => page.textContent('#view-heatmap .hm-cbar-title');
    await inSight(page, '#view-heatmap', () => page.waitForFunction(() => document.querySelector('#view-heatmap .hm-cbar-title')?.textContent === 'cos(angle)'));
    await page.selectOption('#view-heatmap select[id$="-tf"]', 'wrapped');
    await page.waitForFunction(() => document.querySelector('#view-heatmap .hm-cbar-title')?.textContent === 'angle mod 2π (rad)');
    expect(await title()).toBe('angle mod 2π (rad)');
    await page.selectOption('#view-heatmap select[id$="-tf"]', 'cos');
    await page.waitForFunction(() => document.querySelector('#view-heatmap .hm-cbar-title')?.textContent === 'cos(angle)');
  });
});
