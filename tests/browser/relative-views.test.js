// Browser tests of the relative family's views (web/views/relative/): bias against distance (alibi,
// t5, shaw, distance) and every ALiBi head at once; in English and Korean. The real page, the real
// WebAssembly build, the system Chromium. Saves tests/artifacts/relative-*.png.
//   npx vitest run tests/browser/relative-views.test.js
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { suiteAvailability, openPage, screenshot, viewKit, canvasStats, logProblems } from '../helpers/browser.js';

const DIST = '#view-relative-distance';
const HEADS = '#view-alibi-heads';

const avail = suiteAvailability('relative-views.test');

describe.skipIf(avail.skip)('relative views in Chromium', () => {
  let page;
  let log;
  let close;
  const { dataOf, drawn, drawnAfter, showKind, setField, timingLines } = viewKit(() => page, { views: ['relative-distance', 'alibi-heads'] });
  const shot = (name, selector) => screenshot(page, name, selector);

  beforeAll(async () => {
    ({ page, log, close } = await openPage({ avail, url: '?lang=en' }));
  });

  afterAll(async () => {
    const lines = timingLines();
    if (lines.length) console.log(`\nRelative views, per control change in headless Chromium: update(state), and the drawing it asks for (next frame, on screen only); the minimum is the closest to the uncontended cost\n${lines.join('\n')}\n`);
    await close?.();
  });

  it('draws curves from the kernels\' own profiles, which hold exactly the table entries (t5, shaw, distance, alibi)', async () => {
    // No formula is written again in JS: the view plots pe.relativeProfile (c/relative.c). Here,
    // in the page, every profile value equals the table's entry at that r (rows 0 and L − 1).
    // A string, so Vitest does not rewrite the imports meant for the browser.
    const bad = await page.evaluate(`(async () => {
      const { createPE } = await import('/pe.js');
      const pe = await createPE();
      const bad = [];
      const L = 300;
      const check = (name, spec) => {
        const r = pe.compute({ length: L, ...spec });
        const p = pe.relativeProfile({ length: L, ...spec });
        const planes = spec.kind === 'alibi' ? spec.heads : 1;
        for (let h = 0; h < planes; h++) {
          const t = r.data.subarray(h * L * L, (h + 1) * L * L);
          const q = p.data.subarray(h * (2 * L - 1), (h + 1) * (2 * L - 1));
          for (let j = 0; j < L; j++) {
            if (!Object.is(q[L - 1 + j], t[j])) bad.push(name + ' h' + h + ' r=' + j);
            if (!Object.is(q[j], t[(L - 1) * L + j])) bad.push(name + ' h' + h + ' r=' + (j - (L - 1)));
          }
        }
        if (spec.kind === 'alibi' && !r.slopes.every((m, h) => m === p.slopes[h])) bad.push(name + ' slopes');
      };
      for (const [nb, md] of [[32, 128], [18, 128], [64, 256], [8, 20], [4096, 100000]]) {
        for (const bidi of [true, false]) check('t5 ' + nb + '/' + md + '/' + bidi, { kind: 't5', num_buckets: nb, max_distance: md, bidirectional: bidi });
      }
      for (const k of [0, 1, 16, 500]) check('shaw ' + k, { kind: 'shaw', max_relative_position: k });
      for (const fn of ['linear', 'log', 'gaussian', 'exponential']) {
        for (const mode of ['causal', 'symmetric']) check('distance ' + fn + ' ' + mode, { kind: 'distance', function: fn, strength: 1.7, scale: 3.3, mode });
      }
      for (const heads of [1, 3, 8, 12, 70]) check('alibi ' + heads, { kind: 'alibi', heads, mode: 'causal' });
      return bad;
    })()`);
    expect(bad).toEqual([]);
  });

  it('draws every scheme against distance, the current kind highlighted (alibi, t5, shaw, distance)', async () => {
    const expected = { alibi: 'alibi', t5: 't5-bi', shaw: 'shaw', distance: 'dist-linear' };
    for (const [kind, family] of Object.entries(expected)) {
      await showKind(kind);
      await drawnAfter(DIST);
      await page.waitForFunction(([s, f]) => document.querySelector(`${s} .view-body`)?.dataset.highlight === f, [DIST, family]);
      const s = await canvasStats(page, `${DIST} .chart-box canvas`);
      expect(s.painted, kind).toBeGreaterThan(2000);
      expect(s.distinct, kind).toBeGreaterThan(8);
      expect(await page.textContent(`${DIST} .bias-switch.is-current`), kind).toContain('this page');
      if (kind === 'alibi' || kind === 't5') await shot(`relative-distance-${kind}`, DIST);
    }
    // Switching a scheme off and on redraws without it.
    const n0 = Number(await dataOf(DIST, 'series'));
    // The redraw comes on the next frame: wait for the count the view announces.
    const seriesBecomes = (n) => page.waitForFunction(([s, k]) => document.querySelector(`${s} .view-body`)?.dataset.series === String(k), [DIST, n]);
    await page.uncheck(`${DIST} .bias-switches input[type=checkbox] >> nth=0`); // ALiBi: 8 curves
    await seriesBecomes(n0 - 8);
    await page.check(`${DIST} .bias-switches input[type=checkbox] >> nth=0`);
    await seriesBecomes(n0);
    expect(Number(await dataOf(DIST, 'series'))).toBe(n0);
  });

  it('follows the t5 bidirectional toggle', async () => {
    await showKind('t5');
    await drawnAfter(DIST);
    const before = await canvasStats(page, `${DIST} .chart-box canvas`);
    const n = await drawn(DIST);
    await page.uncheck('#f-t5-bidirectional');
    await drawnAfter(DIST, n);
    expect(await dataOf(DIST, 'highlight')).toBe('t5-causal');
    const after = await canvasStats(page, `${DIST} .chart-box canvas`);
    expect(after.hash).not.toBe(before.hash);
    // Causal T5 hatches the masked side for the biases; the data table has the numbers.
    await page.click(`${DIST} .data-table summary`);
    const table = await page.textContent(`${DIST} .data-table table`);
    expect(table).toContain('T5 bucket, causal');
    expect(table).toContain('−∞');
    await page.click(`${DIST} .data-table summary`);
    await page.check('#f-t5-bidirectional');
    for (const L of [65, 128, 256, 512, 64]) await setField('f-t5-length', L, DIST, 't5, length 64 … 512');
  });

  it('shows every ALiBi head with its slope, and follows the head count', async () => {
    await showKind('alibi');
    await drawnAfter(HEADS);
    expect(await page.locator(`${HEADS} .bias-thumb`).count()).toBe(8);
    for (let i = 0; i < 8; i++) {
      const s = await canvasStats(page, `${HEADS} .bias-thumb:nth-child(${i + 1}) canvas`);
      expect(s.painted, `head ${i}`).toBeGreaterThan(1000); // the lower triangle
      expect(s.painted, `head ${i}`).toBeLessThan(s.width * s.height); // the masked upper one is transparent
    }
    const list8 = await page.textContent(`${HEADS} .bias-slopes`);
    expect(list8).toContain('1/2 = 2−1 = 0.5');
    expect(list8).toContain('1/256 = 2−8 = 0.00390625');
    expect(await page.textContent(`${HEADS} .bias-order`)).toMatch(/^The steepest is head 0 \(m = 1\/2\) and the gentlest head 7 \(m = 1\/256\)/);
    expect(await page.locator(`${HEADS} .bias-slopes li`).count()).toBe(8);
    await shot('relative-heads-8', HEADS);

    await setField('f-alibi-heads', 12, HEADS, 'alibi, 8 → 12 heads, length 64');
    expect(await page.locator(`${HEADS} .bias-thumb`).count()).toBe(12);
    expect(await page.locator(`${HEADS} .bias-slopes li`).count()).toBe(12);
    const list12 = await page.textContent(`${HEADS} .bias-slopes`);
    expect(list12).not.toBe(list8);
    // Heads 8–11 are every second slope of 16 heads: 2^−0.5, 2^−1.5, 2^−2.5, 2^−3.5.
    expect(await page.textContent(`${HEADS} .bias-slopes li >> nth=8`)).toMatch(/m₈ = 2−0\.5 ≈ 0\.70710677/);
    expect(await page.textContent(`${HEADS} .bias-slopes li >> nth=11`)).toMatch(/m₁₁ = 2−3\.5 ≈ 0\.088388346/);
    expect(await page.textContent(`${HEADS} .bias-formula`)).toMatch(/12 is not a power of two/);
    // Which heads are steep is read from the slopes: at 12 heads head 8 is the steepest, and the
    // view never says the steep heads are "the first ones".
    expect(await page.textContent(`${HEADS} .bias-order`)).toBe('The slopes are not in head order: the steepest is head 8 (m = 0.7071), the gentlest head 7 (m = 1/256). From steepest to gentlest: heads 8, 0, 9, 1, 10, 2, 11, 3, 4, 5, 6, 7.');
    expect(await page.textContent(HEADS)).not.toMatch(/\(the first ones\)/);

    // A thumbnail is a button that picks the head of the big heatmap.
    await page.focus(`${HEADS} .bias-thumb >> nth=3`);
    await page.keyboard.press('Enter');
    // The heatmap is above, off screen, where views wait to be seen before they update.
    await page.waitForFunction(() => {
      const view = document.querySelector('#view-heatmap');
      if (/head 3$/.test(view?.querySelector('.view-stats')?.textContent ?? '')) return true;
      const r = view?.getBoundingClientRect();
      if (r && (r.bottom < 0 || r.top > window.innerHeight)) view.scrollIntoView({ block: 'start' });
      return false;
    });
    expect(await page.getAttribute(`${HEADS} .bias-thumb >> nth=3`, 'aria-pressed')).toBe('true');
    // Per-head colour scales change the pictures, not the numbers.
    const shared = await canvasStats(page, `${HEADS} .bias-thumb:nth-child(8) canvas`);
    const n = await drawn(HEADS);
    await page.click(`${HEADS} .segmented label >> nth=1`);
    await drawnAfter(HEADS, n);
    expect((await canvasStats(page, `${HEADS} .bias-thumb:nth-child(8) canvas`)).hash).not.toBe(shared.hash);
    await shot('relative-heads-12', HEADS);
    await setField('f-alibi-heads', 8, HEADS, 'alibi, 8 → 12 heads, length 64');
    // Long tables, then many heads: still one cheap update each.
    for (const L of [256, 512, 1024]) await setField('f-alibi-length', L, HEADS, 'alibi, 8 heads, length 256 … 1024');
    await setField('f-alibi-heads', 16, HEADS, 'alibi, 16 heads, length 1024');
    expect(await page.locator(`${HEADS} .bias-thumb`).count()).toBe(16);
    await page.click('#main .controls-actions .button'); // back to the defaults
    await page.waitForFunction(() => document.querySelectorAll('#view-alibi-heads .bias-thumb').length === 8);
  });

  it('speaks Korean', async () => {
    await page.click('#lang button[lang="ko"]');
    await page.waitForFunction(() => document.documentElement.lang === 'ko');
    await showKind('alibi');
    await drawnAfter(DIST);
    expect(await page.textContent(`${DIST} h3`)).toBe('거리에 따른 편향: 모든 방식 한눈에');
    expect(await page.textContent(`${HEADS} h3`)).toBe('모든 헤드를 한 번에');
    expect(await page.textContent(`${HEADS} .bias-formula`)).toMatch(/헤드 8개 \(2의 거듭제곱\): 기울기는 등비수열/);
    expect(await page.textContent(`${HEADS} .bias-order`)).toMatch(/^가장 가파른 헤드는 0번\(m = 1\/2\)/);
    await page.locator('#view-relative-distance').scrollIntoViewIfNeeded();
    await shot('relative-ko-distance', DIST);
    await shot('relative-ko-heads', HEADS);
    await page.click('#lang button[lang="en"]');
    await page.waitForFunction(() => document.documentElement.lang === 'en');
  });

  it('logs no errors and loads nothing from outside 127.0.0.1', () => {
    expect(logProblems(log)).toEqual({});
  });
});
