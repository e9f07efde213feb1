// Learn: numbers in the derived sentences linked to their marks in the figure (issue 29), and the
// heatmaps' colour-scale choice. Focusing (keyboard) or hovering a number highlights its place on
// the figure's overlay (web/plot/highlight.js: data-marks, and where its shapes are drawn), blur
// or leaving clears it, in English and Korean; the scale choice repaints the heatmap and goes
// along to the explorer (~scale=…). axe-core on the steps with a number highlighted. Saves
// tests/artifacts/learn-marks-*.png (desktop en and ko, a 390 × 844 phone).
//   npx vitest run tests/browser/learn-marks.test.js
import { describe, it, expect } from 'vitest';
import { suiteAvailability, canvasStats, screenshot } from '../helpers/browser.js';
import { useAxePage } from '../helpers/browser-suite.js';

const avail = suiteAvailability('learn-marks.test');

describe.skipIf(avail.skip)('Learn: linked numbers and the colour scale (Chromium)', () => {
  const { session: s, kit } = useAxePage({ avail });

  async function step(id, lang = 'en', page = s.page) {
    await page.goto('about:blank');
    await page.goto(`${s.server.url}?lang=en#learn/${id}${lang === 'ko' ? '?~lang=ko' : ''}`);
    await page.waitForFunction((want) => document.documentElement.dataset.pageState === 'ready' && document.querySelector('.learn')?.dataset.ready === want
      && Number(document.querySelector('.learn-figure')?.dataset.drawn) > 0, id);
  }
  /** The overlay's shapes and where its first shape is drawn, as fractions of the plot box. */
  const overlay = (page = s.page) => page.evaluate(() => {
    const svg = document.querySelector('.learn-figure .hm-marks, .learn-figure .lp-marks');
    if (!svg) return null;
    const box = svg.getBoundingClientRect();
    const shape = svg.querySelector('[data-shape]');
    const r = shape?.getBoundingClientRect();
    return {
      shown: getComputedStyle(svg).display !== 'none',
      marks: JSON.parse(svg.dataset.marks || '[]'),
      at: r && { left: (r.left - box.left) / box.width, right: (r.right - box.left) / box.width, top: (r.top - box.top) / box.height, bottom: (r.bottom - box.top) / box.height },
      lines: [...svg.querySelectorAll('line')].map((l) => [l.x1.baseVal.value, l.x2.baseVal.value]),
    };
  });
  const mark = (name, page = s.page) => page.locator(`.learn-derived [data-mark="${name}"]`).first();

  for (const lang of ['en', 'ko']) {
    it(`${lang}: sinusoids: focus on a wavelength bands its pair's columns; Tab moves it on; blur clears it`, async () => {
      await step('sinusoids', lang);
      expect(await overlay()).toMatchObject({ shown: false, marks: [] });
      // Keyboard: focus the first linked number (pair 0's wavelength), then Tab to the next ones.
      await mark('first').focus();
      const first = await overlay();
      expect(first.shown).toBe(true);
      // Pair 0: columns 0 and 1 over one period, 2π ≈ 6.28 → rows 0 … 6 of 128.
      expect(first.marks).toEqual([{ type: 'band', x0: 0, x1: 2, y0: 0, y1: 7 }]);
      expect(first.at.left).toBeCloseTo(0, 2);
      expect(first.at.right).toBeCloseTo(2 / 64, 2);
      expect(first.at.bottom).toBeCloseTo(7 / 128, 2);
      await s.page.keyboard.press('Tab');
      expect(await s.page.evaluate(() => document.activeElement?.dataset.mark)).toBe('lastIndex');
      const last = await overlay();
      // d = 64: the last pair, 31, is columns 62 and 63, every row.
      expect(last.marks).toEqual([{ type: 'band', x0: 62, x1: 64, y0: 0, y1: 128 }]);
      expect(last.at.left).toBeCloseTo(62 / 64, 2);
      expect(last.at.right).toBeCloseTo(1, 2);
      expect(await mark('lastIndex').getAttribute('aria-label')).toMatch(lang === 'en' ? /^31, marked in the figure: dimension 62 to 63$/ : /^31, 그림에 표시: 차원 62부터 63까지$/);
      await screenshot(s.page, `learn-marks-sinusoids-${lang}`, '.learn-step');
      const problems = [];
      await kit.check(`${lang} sinusoids, a number focused`, problems);
      expect(problems).toEqual([]);
      await s.page.evaluate(() => document.activeElement.blur());
      expect(await overlay()).toMatchObject({ shown: false, marks: [] });
    });

    it(`${lang}: relative: hovering T5's edge draws its diagonal and the keys beyond it; ALiBi's steepest head its corner`, async () => {
      await step('relative', lang);
      await mark('steep').hover();
      expect((await overlay()).marks).toEqual([{ type: 'cell', x0: 0, x1: 1, y0: 47, y1: 48 }]);
      await s.page.mouse.move(2, 2);
      expect(await overlay()).toMatchObject({ shown: false, marks: [] });
      await s.page.selectOption('.learn-controls select', 't5');
      await s.page.waitForFunction(() => document.querySelector('.learn-derived [data-mark="own"]'));
      const own = Number(await mark('own').textContent());
      await mark('own').hover();
      const o = await overlay();
      expect(o.marks).toEqual([
        { type: 'diagonal', x0: 0, y0: own, x1: 48 - own, y1: 48 },
        { type: 'band', x0: 0, x1: 48 - own, y0: 47, y1: 48 },
      ]);
      expect(o.at.top).toBeCloseTo(47 / 48, 2);
      expect(o.at.right).toBeCloseTo((48 - own) / 48, 2);
      const problems = [];
      await kit.check(`${lang} relative (T5), a number hovered`, problems);
      expect(problems).toEqual([]);
      await s.page.mouse.move(2, 2);
      expect((await overlay()).marks).toEqual([]);
    });
  }

  it('ko: decay and scaling: the half distance and YaRN\'s kept and stretched pairs on the line plot', async () => {
    await step('decay', 'ko');
    const half = Number(await mark('half').textContent());
    await mark('half').focus();
    const d = await overlay();
    expect(d.marks).toEqual([{ type: 'x', x0: half, x1: half }]);
    expect(d.shown).toBe(true);
    const problems = [];
    await kit.check('ko decay, a number focused', problems);
    await step('scaling', 'ko');
    const kept = Number(await mark('kept').textContent());
    const full = Number(await mark('full').textContent());
    await mark('kept').focus();
    const k = await overlay();
    expect(k.marks).toEqual([{ type: 'range', x0: -0.5, x1: kept - 0.5 }]);
    await mark('full').focus();
    const f = await overlay();
    expect(f.marks).toEqual([{ type: 'range', x0: 64 - full - 0.5, x1: 63.5 }]);
    // Drawn where the range is: the kept band starts at the plot's left edge, the stretched one ends at its right.
    expect(f.at.right).toBeGreaterThan(k.at.right);
    await kit.check('ko scaling, a number focused', problems);
    expect(problems).toEqual([]);
    await mark('full').blur();
    expect(await overlay()).toMatchObject({ shown: false, marks: [] });
  });

  it('en: RoPE: the fastest and slowest pairs light up on the turning circle; the largest departure its diagonal', async () => {
    await step('rope');
    const pairOf = () => s.page.evaluate(() => document.querySelector('.learn-rotor-figure').parentElement.dataset.markedPair ?? null);
    await mark('first').focus();
    expect(await pairOf()).toBe('0');
    await mark('last').focus();
    expect(await pairOf()).toBe('15');
    await mark('dev').focus();
    expect(await pairOf()).toBe(null);
    expect((await overlay()).marks[0].type).toBe('diagonal');
    const problems = [];
    await kit.check('en rope, a number focused', problems);
    expect(problems).toEqual([]);
    await mark('dev').blur();
    expect((await overlay()).marks).toEqual([]);
  });

  it('the colour scale repaints the heatmap and goes to the explorer; auto names the scale it chose', async () => {
    await step('relative');
    await s.page.selectOption('.learn-controls select', 't5');
    await s.page.waitForFunction(() => document.querySelector('.learn-figure')?.dataset.scale === 'linear');
    const href = () => s.page.evaluate(() => decodeURIComponent(document.querySelector('.learn-explore-row a').getAttribute('href')));
    const select = s.page.locator('.learn-figure .learn-scale select');
    expect(await select.inputValue()).toBe('auto');
    expect(await s.page.textContent('.learn-figure .learn-scale select option[value="auto"]')).toBe('auto (linear)');
    expect(await href()).not.toMatch(/~scale=/);
    const before = await canvasStats(s.page, '.learn-figure canvas.hm-canvas');
    await select.selectOption('log');
    await s.page.waitForFunction(() => document.querySelector('.learn-figure')?.dataset.scale === 'log');
    const after = await canvasStats(s.page, '.learn-figure canvas.hm-canvas');
    expect(after.hash).not.toBe(before.hash);
    expect(await href()).toMatch(/~scale=log/);
    expect(await href()).toMatch(/~map=cividis/);
    // A new setting keeps the scale chosen.
    await s.page.locator('.learn-controls input[type=range]').evaluate((el) => {
      el.value = '20';
      el.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await s.page.waitForFunction(() => /num_buckets=20/.test(decodeURIComponent(document.querySelector('.learn-explore-row a').getAttribute('href'))));
    expect(await href()).toMatch(/~scale=log/);
    // The explorer opens on that scale.
    await s.page.click('.learn-explore-row a');
    await s.page.waitForFunction(() => document.documentElement.dataset.state === 'ready' && /#v1\/t5/.test(location.hash));
    await s.page.waitForFunction(() => [...document.querySelectorAll('select[id$="-scale"]')].some((el) => el.value === 'log'));
  });

  it('on a 390 × 844 phone a tapped number highlights its place (screenshot)', async () => {
    const context = await s.browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, locale: 'ko-KR' });
    try {
      const page = await context.newPage();
      await step('scaling', 'ko', page);
      await mark('full', page).tap();
      const o = await overlay(page);
      expect(o.shown).toBe(true);
      expect(o.marks[0].type).toBe('range');
      await page.locator('.learn-figure').scrollIntoViewIfNeeded();
      await screenshot(page, 'learn-marks-phone-ko', '.learn-step');
      await step('sinusoids', 'en', page);
      await mark('last', page).tap();
      expect((await overlay(page)).marks).toEqual([{ type: 'band', x0: 62, x1: 64, y0: 0, y1: 128 }]);
      // Two columns of 64 are narrow on a phone: a ring finds them, drawn whole inside the plot
      // (at its right edge, not cut in half by it), its halo included (2.25 px each side).
      const ring = await page.evaluate(() => {
        const plot = document.querySelector('.learn-figure .hm-plot').getBoundingClientRect();
        const r = document.querySelector('.learn-figure .hm-marks rect[data-ring]')?.getBoundingClientRect();
        return r && { left: r.left - plot.left, right: plot.right - r.right, top: r.top - plot.top, bottom: plot.bottom - r.bottom };
      });
      expect(ring, 'a ring around the band').toBeTruthy();
      for (const [side, gap] of Object.entries(ring)) expect(gap, side).toBeGreaterThanOrEqual(2);
      await screenshot(page, 'learn-marks-phone-en', '.learn-step');
    } finally {
      await context.close();
    }
  });
});
