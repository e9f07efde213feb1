// <pe-plot> on a page with many figures: an idle element never renders again, an element renders
// only once it comes near the screen, a display attribute is checked like the page's view state.
// (Regression: each render wrote data-state, which the element observed, so it re-rendered on
// every animation frame, forever.) The time to scroll through 100 figures is in npm run bench.
import { describe, it, expect } from 'vitest';
import { suiteAvailability, nextFrames, watchPage, logProblems } from '../helpers/browser.js';
import { useBrowser } from '../helpers/browser-suite.js';

const avail = suiteAvailability('pe-plot.test');

/** A blog post with n figures, one screen apart, served from the PE Lab origin. */
export function postWithFigures(n) {
  const figures = Array.from({ length: n }, (_, i) =>
    `<section style="height: 720px"><h2>Figure ${i}</h2><pe-plot id="p${i}" kind="${i % 2 ? 'rope' : 'sinusoidal'}" length="${32 + i}" dim="16" view="heatmap"></pe-plot></section>`).join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A post</title>
<script type="module" src="./dist/pe-plot.js"></script></head><body>${figures}</body></html>`;
}

describe.skipIf(avail.skip)('<pe-plot> with many figures (Chromium)', () => {
  const session = useBrowser({ avail });

  async function openPost(n) {
    const context = await session.browser.newContext({ viewport: { width: 900, height: 800 }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    const log = await watchPage(page, new URL(session.server.url).origin);
    await page.route(`${session.server.url}post.html`, (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: postWithFigures(n) }));
    await page.goto(`${session.server.url}post.html`);
    await page.waitForFunction(() => document.getElementById('p0')?.dataset.state === 'ready');
    return { context, page, log };
  }
  const renderCounts = (page) => page.$$eval('pe-plot', (els) => els.map((e) => e.renders));

  it('renders only the figures near the screen, and nothing more while idle', async () => {
    const { context, page, log } = await openPost(100);
    await nextFrames(page);
    const first = await renderCounts(page);
    expect(first[0]).toBe(1);
    const shown = first.filter((r) => r > 0).length;
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(5); // one screen (+200 px) holds at most two sections
    expect(first.every((r) => r <= 1)).toBe(true);
    // Idle for 120 animation frames (2 s on an idle machine, longer on a busy one): no element
    // renders again (it used to render on every frame). Counted in frames, not milliseconds, so a
    // slow machine still gives the regression as many chances to show.
    await page.evaluate(() => new Promise((resolve) => {
      let left = 120;
      const tick = () => (--left > 0 ? requestAnimationFrame(tick) : resolve());
      requestAnimationFrame(tick);
    }));
    expect(await renderCounts(page)).toEqual(first);
    await context.close();
    expect(log.pageErrors).toEqual([]);
  });

  it('renders each figure once as the reader scrolls to it', async () => {
    const { context, page, log } = await openPost(100);
    for (let i = 0; i < 100; i += 4) {
      await page.evaluate((k) => document.getElementById(`p${k}`).scrollIntoView(), i);
      await page.waitForFunction((k) => document.getElementById(`p${k}`).dataset.state === 'ready', i);
    }
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.waitForFunction(() => document.getElementById('p99').dataset.state === 'ready');
    await nextFrames(page);
    const counts = await renderCounts(page);
    expect(counts.filter((r) => r === 0).length).toBeLessThan(100); // most were reached…
    expect(counts.every((r) => r <= 1), counts.join(',')).toBe(true); // …and none rendered twice
    expect(counts[99]).toBe(1);
    await context.close();
    expect(log.pageErrors).toEqual([]);
  });

  it('renders again when an attribute really changes, not when its own data-* change', async () => {
    const { context, page } = await openPost(2);
    await nextFrames(page);
    const before = await page.$eval('#p0', (e) => e.renders);
    await page.$eval('#p0', (e) => { e.dataset.note = 'x'; e.setAttribute('dim', '16'); });
    await nextFrames(page);
    await nextFrames(page);
    expect(await page.$eval('#p0', (e) => e.renders)).toBe(before);
    await page.$eval('#p0', (e) => e.setAttribute('dim', '24'));
    await page.waitForFunction((n) => document.getElementById('p0').renders > n, before);
    expect(await page.$eval('#p0', (e) => e.renders)).toBe(before + 1);
    await context.close();
  });

  it('refuses a hexadecimal number and names a JSON example of the field itself', async () => {
    const { context, page } = await openPost(1);
    const errorOf = () => page.$eval('#p0', (e) => e.shadowRoot.querySelector('.pp-error').textContent);
    await page.$eval('#p0', (e) => e.setAttribute('base', '0x10'));
    await page.waitForFunction(() => document.getElementById('p0').dataset.state === 'error');
    expect(await errorOf()).toMatch(/^base must be a number, got "0x10"/);
    await page.$eval('#p0', (e) => { e.removeAttribute('base'); e.setAttribute('kind', 'attention'); e.setAttribute('encoding', '{oops'); e.removeAttribute('dim'); });
    await page.waitForFunction(() => /encoding must be JSON/.test(document.getElementById('p0').shadowRoot.querySelector('.pp-error').textContent));
    const message = await errorOf();
    expect(message).toMatch(/"kind":"rope"/);
    expect(message).not.toMatch(/rope_type/);
    await context.close();
  });
});

describe.skipIf(avail.skip)('<pe-plot matrix>: the user\'s own data, read by the load view\'s C reader (Chromium)', () => {
  const session = useBrowser({ avail });

  /** A .npy v1.0 file of float32 values, C order. */
  function npy(values, shape) {
    const dict = `{'descr': '<f4', 'fortran_order': False, 'shape': (${shape.join(', ')}), }`;
    const pad = 64 - ((10 + dict.length + 1) % 64);
    const header = `${dict}${' '.repeat(pad % 64)}\n`;
    const out = Buffer.alloc(10 + header.length + values.length * 4);
    out.write('\x93NUMPY', 0, 'latin1');
    out[6] = 1;
    out.writeUInt16LE(header.length, 8);
    out.write(header, 10, 'latin1');
    values.forEach((v, i) => out.writeFloatLE(v, 10 + header.length + i * 4));
    return out.toString('base64');
  }

  it('draws a table and a labelled attention matrix from .npy blocks, and shows a bad file\'s error inside', async () => {
    const table = Array.from({ length: 12 * 6 }, (_, i) => Math.sin(i / 5));
    const attn = Array.from({ length: 2 * 3 * 3 }, (_, i) => (i % 3) / 3);
    const body = `<pe-plot id="t" matrix="table" caption="mine"><script type="application/x-npy">${npy(table, [12, 6])}</script></pe-plot>
<pe-plot id="a" matrix="attention" heads="2" labels='["x","y","z"]' lang="ko"><script type="application/x-npy">${npy(attn, [6, 3])}</script></pe-plot>
<pe-plot id="bad" matrix="table"><script type="application/x-npy">${Buffer.from('not a numpy file at all').toString('base64')}</script></pe-plot>
<pe-plot id="heads" matrix="attention" heads="4"><script type="application/x-npy">${npy(attn, [6, 3])}</script></pe-plot>`;
    const context = await session.browser.newContext({ viewport: { width: 900, height: 3000 }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    const log = await watchPage(page, new URL(session.server.url).origin);
    await page.route(`${session.server.url}mine.html`, (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: `<!doctype html><html><head><meta charset="utf-8"><script type="module" src="./dist/pe-plot.js"></script></head><body>${body}</body></html>` }));
    await page.goto(`${session.server.url}mine.html`);
    await page.waitForFunction(() => [...document.querySelectorAll('pe-plot')].every((e) => e.dataset.state));
    const got = await page.$$eval('pe-plot', (els) => els.map((e) => ({
      id: e.id, state: e.dataset.state, title: e.shadowRoot.querySelector('.pp-title').textContent,
      error: e.shadowRoot.querySelector('.pp-error').textContent, shape: e.state?.result.shape ?? null,
      data: e.state ? Array.from(e.state.result.data) : null, legend: [...e.shadowRoot.querySelectorAll('.pp-lines svg text')].map((t) => t.textContent).join(' '),
    })));
    expect(got.map((g) => [g.id, g.state])).toEqual([['t', 'ready'], ['a', 'ready'], ['bad', 'error'], ['heads', 'error']]);
    expect(got[0].title).toBe('mine');
    expect(got[0].shape).toEqual([12, 6]);
    expect(got[0].data).toEqual(table.map(Math.fround));
    expect(got[1].title).toBe('어텐션 가중치');
    expect(got[1].shape).toEqual([2, 3, 3]);
    expect(got[1].legend).toMatch(/쿼리 1 “y”/); // the curves name their rows
    expect(got[2].error).toMatch(/npy|NUMPY|magic/i); // the C reader's message (c/npy.c)
    expect(got[3].error).toBe('heads="4" must divide the matrix\'s 6 rows');
    expect(logProblems(log)).toEqual({});
    await context.close();
  });
});
