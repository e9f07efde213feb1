// Browser tests of the vision views (web/views/vision/): patch similarity for sinusoidal2d, axial
// 2-D RoPE and sinusoidal3d, and the M-RoPE builder; in English and Korean. The real page, the
// real WebAssembly build (web/dist built once per run by tests/setup/bundle.js), the system
// Chromium. Saves tests/artifacts/vision-*.png.
//   npx vitest run tests/browser/vision-views.test.js
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { suiteAvailability, openPage, gotoApp, screenshot, canvasStats, logProblems, waitViewSet } from '../helpers/browser.js';

const SIM = '#view-vision-similarity';
const BIG = `${SIM} .vs-big canvas`;
const MB = '#view-mrope-builder';

const avail = suiteAvailability('vision-views.test');

describe.skipIf(avail.skip)('vision views in Chromium', () => {
  let server;
  let page;
  let log;
  let close;

  const draws = (sel) => page.evaluate((s) => Number(document.querySelector(`${s} .view-body`)?.dataset.draws || 0), sel);
  async function drawsAfter(sel, n) {
    await page.waitForFunction(([s, k]) => Number(document.querySelector(`${s} .view-body`)?.dataset.draws || 0) > k, [sel, n]);
  }
  /** Open the page at a hash (a full load: each test starts from a known state). */
  async function open(hash, { lang = 'en' } = {}) {
    await page.goto('about:blank'); // a new document even when only the hash differs
    await gotoApp(page, `${server.url}?lang=${lang}${hash}`);
  }
  /** Scroll a view's section into sight: family views load their code when they come near the screen. */
  async function reveal(sel) {
    await page.waitForSelector(sel, { state: 'attached' });
    await page.locator(sel).scrollIntoViewIfNeeded();
  }
  const shot = (name, selector) => screenshot(page, name, selector);
  /**
   * The time of this view's update() over 8 recomputes, each after a change of `field` (the page's
   * own measure, window.__peLab.viewMs): printed at the end, and the median must stay well under
   * a frame budget even on a busy machine.
   */
  const timings = [];
  async function measure(label, field, values, view) {
    const ms = await page.evaluate(async ({ field, values, view }) => {
      const input = document.getElementById(field);
      const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
      for (let i = 0; i < 8; i++) {
        const before = window.__peLab.renders;
        input.value = String(values[i % values.length]);
        input.dispatchEvent(new Event('input', { bubbles: true }));
        while (window.__peLab.renders === before) await frame();
      }
      return window.__peLab.viewMs[view].slice(-8);
    }, { field, values, view });
    const sorted = [...ms].sort((a, b) => a - b);
    timings.push(`${label} (${view}): median ${sorted[4].toFixed(2)} ms, max ${sorted[7].toFixed(2)} ms`);
    expect(ms.every(Number.isFinite), `${view} redrew after every change`).toBe(true);
  }
  /** Two animation frames: the small pictures follow the main one by a frame. */
  const settle = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const pickOf = () => page.evaluate((s) => document.querySelector(`${s} .view-body`)?.dataset.pick, SIM);

  beforeAll(async () => {
    ({ server, page, log, close } = await openPage({ avail }));
  });

  afterAll(async () => {
    if (timings.length) console.log(`vision views, update() per recompute:\n  ${timings.join('\n  ')}`);
    await close?.();
  });

  it('announces its pictures only once its stylesheet applies (vision.css arrives late)', async () => {
    // Under load the pictures once drew, and said so, before vision.css had loaded: bare-sized
    // canvases, and row and column numbers that did not line up with them.
    const s = await openPage({ avail });
    try {
      let release;
      const gate = new Promise((r) => { release = r; });
      await s.page.route(/\/views\/vision\/vision\.css/, async (route) => {
        await gate;
        await route.continue();
      });
      await gotoApp(s.page, `${s.server.url}?lang=en#sinusoidal2d`);
      await s.page.waitForSelector(SIM, { state: 'attached' });
      await waitViewSet(s.page, SIM, 'draws');
      for (let i = 0; i < 3; i++) await s.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
      expect(await s.page.evaluate((sel) => document.querySelector(`${sel} .view-body`).dataset.multiples ?? null, SIM)).toBe(null);
      release();
      await waitViewSet(s.page, SIM, 'multiples');
    } finally {
      await s.close();
    }
  });

  it('sinusoidal2d: the similarity picture renders, and changes with the picked patch and the layout', async () => {
    await open('#sinusoidal2d');
    await reveal(SIM);
    await page.waitForSelector(`${SIM} .view-body[data-multiples]`);
    const first = await canvasStats(page, BIG);
    expect(first.painted).toBe(first.width * first.height);
    expect(first.distinct).toBeGreaterThan(10);
    // Row and column numbers beside the picture, each at the centre of the square it names.
    const ticks = await page.evaluate((s) => {
      const canvas = document.querySelector(`${s} .vs-big canvas`).getBoundingClientRect();
      const boxOf = (sel) => document.querySelector(`${s} .vs-big ${sel}`).getBoundingClientRect();
      const read = (sel, horizontal) => {
        const box = boxOf(sel);
        return [...document.querySelectorAll(`${s} .vs-big ${sel} .vg-tick`)].map((el) => {
          const r = el.getBoundingClientRect();
          return { text: el.textContent, at: horizontal ? (r.left + r.right) / 2 - box.left : (r.top + r.bottom) / 2 - box.top };
        });
      };
      const x = boxOf('.vg-xticks');
      const y = boxOf('.vg-yticks');
      return { x: read('.vg-xticks', true), y: read('.vg-yticks', false),
        xBox: { from: x.left - canvas.left, size: x.width }, yBox: { from: y.top - canvas.top, size: y.height },
        width: canvas.width, height: canvas.height,
        titles: [...document.querySelectorAll(`${s} .vs-big .vg-xtitle, ${s} .vs-big .vg-ytitle`)].map((el) => el.textContent) };
    }, SIM);
    expect(ticks.titles).toEqual(['row ↓', 'column →']);
    for (const [axis, size, box] of [['x', ticks.width, ticks.xBox], ['y', ticks.height, ticks.yBox]]) {
      // The numbers' strip spans the picture exactly (the picture's 1 px border aside)…
      expect(Math.abs(box.from), `${axis} strip starts with the picture`).toBeLessThanOrEqual(1);
      expect(Math.abs(box.size - size), `${axis} strip as long as the picture`).toBeLessThanOrEqual(2);
      expect(ticks[axis].length, axis).toBeGreaterThan(2);
      expect(ticks[axis][0].text, axis).toBe('0');
      // …and each number sits at the centre of the square it names, within a quarter of a square
      // (a number at a square's edge is half a square off).
      const n = Number(ticks[axis][1].text) * box.size / (ticks[axis][1].at - ticks[axis][0].at);   // squares along the axis
      const square = box.size / n;
      for (const tk of ticks[axis]) expect(Math.abs(tk.at - ((Number(tk.text) + 0.5) / n) * box.size), `${axis} ${tk.text}`).toBeLessThan(square / 4);
    }
    // Three small multiples, one per layout, the current one marked.
    const figs = await page.$$eval(`${SIM} .vs-multiples .vs-fig`, (fs) => fs.map((f) => ({
      name: f.querySelector('.vs-fig-name')?.textContent, current: f.classList.contains('is-current'),
      note: f.querySelector('.vs-fig-note')?.textContent,
    })));
    expect(figs.map((f) => f.name)).toEqual(['mae', 'sum', 'tatp22']);
    expect(figs.map((f) => f.current)).toEqual([true, false, false]);
    // sum gives (r, c) and (c, r) the same vector; the default pick is off the diagonal.
    expect(figs[1].note).toMatch(/identical to \(row \d+, column \d+\)/);
    for (let i = 1; i <= 3; i++) {
      const s = await canvasStats(page, `${SIM} .vs-multiples .vs-fig:nth-child(${i}) canvas`);
      expect(s.distinct).toBeGreaterThan(10);
    }

    // Pick another patch with a click on the picture...
    const before = await pickOf();
    let n = await draws(SIM);
    const box = await page.locator(BIG).boundingBox();
    await page.locator(BIG).click({ position: { x: box.width * 0.1, y: box.height * 0.1 } });
    await drawsAfter(SIM, n);
    expect(await pickOf()).toBe('0,1,1');
    expect(await pickOf()).not.toBe(before);
    const clicked = await canvasStats(page, BIG);
    expect(clicked.hash).not.toBe(first.hash);
    // ... and with the keyboard (picks in quick succession are drawn once, on the next frame).
    await page.focus(`${SIM} .vs-big .vg`);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowDown');
    await page.waitForFunction((s) => document.querySelector(`${s} .view-body`).dataset.pick === '0,2,2', SIM);
    expect(await page.textContent(`${SIM} .vs-readout`)).toContain('(row 2, column 2)');
    const keyed = await canvasStats(page, BIG);
    expect(keyed.hash).not.toBe(clicked.hash);
    // The row and column boxes follow, and move the pick too.
    expect(await page.inputValue(`${SIM} input[id$="-row"]`)).toBe('2');
    n = await draws(SIM);
    await page.fill(`${SIM} input[id$="-col"]`, '9');
    await drawsAfter(SIM, n);
    expect(await pickOf()).toBe('0,2,9');
    // The picked patch is part of the link.
    await page.waitForFunction(() => location.hash.includes('~x.visionPatch=!(2,9)'));

    // The layout changes the picture (from the parameters panel, and from a figure's button).
    await settle();
    const mae = await canvasStats(page, BIG);
    n = await draws(SIM);
    await page.selectOption('#f-sinusoidal2d-layout', 'sum');
    await drawsAfter(SIM, n);
    await settle();
    const sum = await canvasStats(page, BIG);
    expect(sum.hash).not.toBe(mae.hash);
    expect(await pickOf()).toBe('0,2,9'); // the pick survives a new result
    expect(await page.textContent(`${SIM} .vs-closest`)).toMatch(/same vector/);
    n = await draws(SIM);
    await page.click(`${SIM} .vs-fig:nth-child(3) .vs-use`);
    await drawsAfter(SIM, n);
    await settle();
    expect(await page.inputValue('#f-sinusoidal2d-layout')).toBe('tatp22');
    // tatp22 holds mae's numbers in another channel order: the same picture.
    expect((await canvasStats(page, BIG)).hash).toBe(mae.hash);
    await settle();
    await shot('vision-sim2d', SIM);
    await measure('sinusoidal2d 14 × 14, dim 64', 'f-sinusoidal2d-dim', [64, 128, 96, 32], 'vision-similarity');
    for (const [f, v] of [['height', '32'], ['width', '32'], ['dim', '256']]) await page.fill(`#f-sinusoidal2d-${f}`, v);
    await measure('sinusoidal2d 32 × 32, dim 256', 'f-sinusoidal2d-base', [10000, 20000, 5000, 100], 'vision-similarity');
  });

  it('axial 2-D RoPE: rotated q·k similarity, shift-invariant; hidden for 1-D RoPE', async () => {
    await open('#rope?length=196&dim=64&grid_height=14&grid_width=14');
    await reveal(SIM);
    await page.waitForSelector(BIG);
    expect(await page.isVisible(SIM)).toBe(true);
    // Beside it, the same RoPE in 1-D over the patches in raster order.
    await page.waitForSelector(`${SIM} .view-body[data-multiples]`);
    expect(await page.$$eval(`${SIM} .vs-fig-name`, (xs) => xs.map((x) => x.textContent))).toEqual(['axial 2-D', '1-D, row by row']);
    expect((await canvasStats(page, `${SIM} .vs-fig:nth-child(2) canvas`)).hash).not.toBe((await canvasStats(page, `${SIM} .vs-fig:nth-child(1) canvas`)).hash);
    const a = await canvasStats(page, BIG);
    expect(a.distinct).toBeGreaterThan(10);
    // Relative positions only: the similarity at the same offset is the same anywhere.
    const at = (row, col) => page.evaluate(([r, c]) => {
      const table = document.querySelector('#view-vision-similarity .data-table table');
      const ci = [...table.tHead.rows[0].cells].findIndex((x) => x.textContent === String(c));
      const tr = [...table.tBodies[0].rows].find((x) => x.cells[0].textContent === String(r));
      return tr.cells[ci].textContent;
    }, [row, col]);
    await page.click(`${SIM} .data-table summary`);
    const pickBecomes = (v) => page.waitForFunction(([s, x]) => document.querySelector(`${s} .view-body`).dataset.pick === x, [SIM, v]);
    await page.fill(`${SIM} input[id$="-row"]`, '3');
    await page.fill(`${SIM} input[id$="-col"]`, '4');
    await pickBecomes('0,3,4');
    const v1 = await at(5, 7); // offset (2, 3)
    expect(await at(3, 4)).toBe('1');
    await page.fill(`${SIM} input[id$="-row"]`, '6');
    await page.fill(`${SIM} input[id$="-col"]`, '8');
    await pickBecomes('0,6,8');
    expect(await at(8, 11)).toBe(v1);
    expect((await canvasStats(page, BIG)).hash).not.toBe(a.hash);
    await settle();
    await shot('vision-rope', SIM);
    await measure('axial RoPE 14 × 14, dim 64', 'f-rope-base', [10000, 100, 1000, 50000], 'vision-similarity');
    // 1-D RoPE: no grid, no section. (A v1 link states the whole setting: RoPE at its defaults.)
    const n0 = await page.evaluate(() => window.__peLab.renders);
    await page.evaluate(() => { location.hash = '#v1/rope'; });
    await page.waitForFunction((k) => window.__peLab.renders > k, n0);
    expect(await page.isVisible('#view-heatmap')).toBe(true);
    expect(await page.isVisible(SIM)).toBe(false);
  });

  it('sinusoidal3d: a frame slider and a strip of frames', async () => {
    await open('#sinusoidal3d');
    await reveal(SIM);
    await page.waitForSelector(`${SIM} .view-body[data-multiples]`);
    const frames = await page.$$eval(`${SIM} .vs-frames .vs-fig`, (fs) => fs.map((f) => f.getAttribute('aria-pressed')));
    expect(frames).toEqual(['false', 'false', 'true', 'false']); // depth 4, picked frame 2
    await settle();
    const before = await canvasStats(page, BIG);
    const n = await draws(SIM);
    await page.fill(`${SIM} .vs-frame-slider`, '0');
    await drawsAfter(SIM, n);
    await settle(); // the colour scale spans every frame shown: final once the strip is drawn
    expect((await pickOf()).startsWith('0,')).toBe(true);
    expect(await page.inputValue(`${SIM} input[id$="-frame"]`)).toBe('0');
    expect((await canvasStats(page, BIG)).hash).toBe(before.hash); // same place in its own frame
    const strip = await canvasStats(page, `${SIM} .vs-frames .vs-fig:nth-child(4) canvas`);
    expect(strip.distinct).toBeGreaterThan(5);
    await page.click(`${SIM} .vs-frames .vs-fig:nth-child(4)`);
    await page.waitForFunction(() => document.querySelector('#view-vision-similarity .view-body').dataset.pick.startsWith('3,'));
    await settle();
    await shot('vision-sim3d', SIM);
  });

  it('M-RoPE builder: adding segments updates the id table and chart; text resumes at max + 1', async () => {
    await open('#mrope');
    await reveal(MB);
    await page.waitForSelector(`${MB} .mb-ids`);
    const segs = () => page.$$eval(`${MB} .mb-seg`, (ls) => ls.map((l) => l.dataset.type));
    expect(await segs()).toEqual(['text', 'image', 'text']);
    const bands = () => page.$$eval(`${MB} .mb-band th:not(:first-child)`, (ths) => ths.map((x) => x.textContent));
    expect(await bands()).toEqual(['Text 1 · from 0', 'Image 1 · offset 6 = max 5 + 1', 'Text 2 · text resumes at 12 = max 11 + 1']);
    const chart0 = await canvasStats(page, `${MB} .mb-chart canvas`);
    expect(chart0.distinct).toBeGreaterThan(5);

    let n = await draws(MB);
    await page.click(`${MB} button[id$="-add-image"]`);
    await drawsAfter(MB, n);
    expect(await segs()).toEqual(['text', 'image', 'text', 'image']);
    // Text 2 ends at id 16; the new 8 × 8 image (4 × 4 merged) starts at 17.
    expect((await bands())[3]).toBe('Image 2 · offset 17 = max 16 + 1');
    const columns = await page.$$eval(`${MB} .mb-ids thead tr:nth-child(2) th`, (ths) => ths.length - 1);
    expect(columns).toBe(6 + 24 + 5 + 16);
    const ids = (axis) => page.$$eval(`${MB} .mb-row-${axis} td`, (tds) => tds.map((x) => Number(x.textContent)));
    expect((await ids('t')).slice(35)).toEqual(new Array(16).fill(17));
    expect((await ids('h')).slice(35, 40)).toEqual([17, 17, 17, 17, 18]);
    expect((await ids('w')).slice(35, 40)).toEqual([17, 18, 19, 20, 17]);
    expect(await page.textContent(`${MB} .mb-summary`)).toContain('51 tokens');
    // The parameters panel (JSON) follows the builder.
    expect(JSON.parse(await page.inputValue('#f-mrope-segments'))[3]).toEqual({ type: 'image', t: 1, h: 8, w: 8 });
    const chart1 = await canvasStats(page, `${MB} .mb-chart canvas`);
    expect(chart1.hash).not.toBe(chart0.hash);

    // Text after the new block resumes at its max (20) + 1.
    n = await draws(MB);
    await page.click(`${MB} button[id$="-add-text"]`);
    await drawsAfter(MB, n);
    expect((await bands())[4]).toBe('Text 3 · text resumes at 21 = max 20 + 1');
    expect((await ids('t')).slice(51, 54)).toEqual([21, 22, 23]);

    // Edit a field, reorder, remove.
    n = await draws(MB);
    await page.fill(`${MB} .mb-seg:nth-child(4) .mb-in-w`, '12');
    await drawsAfter(MB, n);
    expect(await page.textContent(`${MB} .mb-seg:nth-child(4) .mb-tokens`)).toBe('24 tokens');
    n = await draws(MB);
    await page.fill(`${MB} .mb-seg:nth-child(4) .mb-in-w`, '7');
    expect(await page.isVisible(`${MB} .mb-seg:nth-child(4) .mb-error`)).toBe(true);
    expect(await page.textContent(`${MB} .mb-seg:nth-child(4) .mb-error`)).toContain('multiple of the spatial merge size 2');
    await page.fill(`${MB} .mb-seg:nth-child(4) .mb-in-w`, '8');
    await drawsAfter(MB, n);
    n = await draws(MB);
    await page.click(`${MB} .mb-seg:nth-child(4) .mb-up`);
    await drawsAfter(MB, n);
    expect(await segs()).toEqual(['text', 'image', 'image', 'text', 'text']);
    expect(await page.evaluate(() => document.activeElement?.classList.contains('mb-up'))).toBe(true);
    n = await draws(MB);
    await page.click(`${MB} .mb-seg:nth-child(5) .mb-remove`);
    await drawsAfter(MB, n);
    expect(await segs()).toEqual(['text', 'image', 'image', 'text']);

    // Video with real time ids (Qwen2.5-VL).
    n = await draws(MB);
    await page.click(`${MB} button[id$="-add-video"]`);
    await drawsAfter(MB, n);
    n = await draws(MB);
    await page.check(`${MB} input[id$="-tps-on"]`);
    await drawsAfter(MB, n);
    expect(await page.inputValue('#f-mrope-tokens_per_second')).toBe('2');
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot('vision-mrope', MB);
    await shot('vision-mrope-page');
    await measure('mrope, 5 segments', 'f-mrope-base', [1000000, 10000, 500000, 2000], 'mrope-builder');
  });

  it('renders in Korean', async () => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await open('#mrope', { lang: 'ko' });
    await reveal(MB);
    await page.waitForSelector(`${MB} .mb-ids`);
    expect(await page.textContent(`#view-mrope-builder-title`)).toBe('멀티모달 시퀀스 만들기');
    expect(await page.textContent(`${MB} button[id$="-add-image"]`)).toBe('+ 이미지');
    expect((await page.$$eval(`${MB} .mb-band th:not(:first-child)`, (t) => t.map((x) => x.textContent)))[1]).toBe('이미지 1 · 오프셋 6 = 최댓값 5 + 1');
    await shot('vision-ko-dark-mrope', MB);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.evaluate(() => { location.hash = '#v1/sinusoidal2d?~lang=ko'; });
    await reveal(SIM);
    await page.waitForSelector(`${SIM} .view-body[data-multiples]`);
    expect(await page.textContent('#view-vision-similarity-title')).toBe('패치 유사도');
    expect(await page.textContent(`${SIM} .vs-readout`)).toMatch(/고른 패치: \(\d+행, \d+열\)/);
    await settle();
    await shot('vision-ko-sim2d', SIM);
  });

  it('logs no errors and reaches no other host', () => {
    expect(logProblems(log)).toEqual({});
  });
});
