// Browser test of the Learn path's formulas (web/pages/learn/math.js, issue 29): they are typeset
// in the math font the page ships ('PE Math', web/pages/learn/math-font.js), in English and in
// Korean alike, so a stretchy bracket has the same height in both and grows round a tall matrix;
// on a 390-wide phone a long formula scrolls sideways in a focusable, named box with a scroll cue
// instead of being cut off; and the offline single file shows them in the same font. Saves
// tests/artifacts/learn-math-<lang>-<desktop|phone>.png.
//   npx vitest run tests/browser/learn-math.test.js
import { describe, it, expect } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildOffline } from '../../scripts/build-offline.js';
import { WEB, suiteAvailability, logProblems, screenshot } from '../helpers/browser.js';
import { usePage } from '../helpers/browser-suite.js';

const avail = suiteAvailability('learn-math.test');
/** The step with the widest formula and two stretchy matrices (the rotation of a shift). */
const STEP = 'shift';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
const LABEL = { en: 'Formula', ko: '수식' };

/**
 * Opens `url`, waits until it shows Learn step `id`, then (a few seconds at most: failing that, the
 * checks below say what is wrong) until math-font.css, linked when the step first shows a formula,
 * applies, and until the fonts are ready.
 */
async function openStep(page, url, id) {
  await page.goto('about:blank');
  await page.goto(url);
  await page.waitForFunction((s) => document.querySelector('.learn')?.dataset.ready === s, id);
  await page.waitForFunction(() => {
    const math = document.querySelector('math');
    return !math || getComputedStyle(math).fontFamily.includes('PE Math');
  }, null, { timeout: 10_000 }).catch(() => {});
  await page.evaluate(() => document.fonts.ready);
}

/** What the test measures of the step's first formula (in the page). */
function measure() {
  // (Without its box, as before issue 29, the formula itself: the font checks then say what is wrong.)
  const math = document.querySelector('.learn-math-box math') ?? document.querySelector('math');
  if (!math) return null;
  const box = math.closest('.learn-math-box') ?? math;
  const rect = (el) => el.getBoundingClientRect();
  const mos = [...math.querySelectorAll('mo')];
  // The bracket that opens the first matrix (it wraps an <mtable>), and a parenthesis round a
  // plain argument, PE(p + k): the first must stretch, the second must not.
  const bracket = mos.find((mo) => mo.textContent === '[' && mo.nextElementSibling?.localName === 'mtable');
  const paren = mos.find((mo) => mo.textContent === '(');
  const text = math.querySelector('mi');   // "PE": the base text
  const faces = [...document.fonts].filter((f) => f.family.replace(/"/g, '') === 'PE Math').map((f) => f.status);
  const style = getComputedStyle(box);
  return {
    family: getComputedStyle(math).fontFamily,
    faces,
    check: document.fonts.check('16px "PE Math"', '[(√∑'),
    bracket: rect(bracket).height,
    paren: rect(paren).height,
    text: rect(text).height,
    table: rect(bracket.nextElementSibling).height,
    scrollWidth: box.scrollWidth,
    clientWidth: box.clientWidth,
    overflowX: style.overflowX,
    cue: style.backgroundImage,
    cueAttach: style.backgroundAttachment,
    right: rect(box).right,
    viewport: window.innerWidth,
    pageWidth: document.documentElement.scrollWidth,
    role: box.getAttribute('role'),
    tabIndex: box.tabIndex,
    label: box.getAttribute('aria-label'),
    mathLabel: math.getAttribute('aria-label'),
  };
}

/**
 * How dark the formula box's two edges look on screen: 255 minus the mean grey of a thin column
 * 2-6 px inside each edge, across the middle third of its height, skipping dark glyph pixels
 * (the screenshot is decoded by the page's own canvas).
 */
async function edgeShade(page) {
  const png = (await page.locator('.learn-math-box').screenshot()).toString('base64');
  return page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement('canvas');
    [c.width, c.height] = [img.width, img.height];
    const g = c.getContext('2d');
    g.drawImage(img, 0, 0);
    const shade = (x0) => {
      const px = g.getImageData(x0, Math.round(c.height / 3), 4, Math.round(c.height / 3)).data;
      const greys = [];
      for (let i = 0; i < px.length; i += 4) greys.push((px[i] + px[i + 1] + px[i + 2]) / 3);
      const light = greys.filter((v) => v > 100);   // shadow, not ink
      return 255 - (light.length ? light.reduce((a, b) => a + b, 0) / light.length : 255);
    };
    return { left: shade(2), right: shade(c.width - 6) };
  }, png);
}

/** The checks every page (served or the single file) must pass for one language. */
function expectTypeset(m, where) {
  expect(m.family.replace(/"/g, ''), `${where}: the formula's font`).toMatch(/^PE Math, math$/);
  expect(m.faces, `${where}: document.fonts has the math font, loaded`).toEqual(['loaded']);
  expect(m.check, `${where}: document.fonts.check`).toBe(true);
  // The matrix's bracket grows to the matrix's height (two rows: well over one line of text; with
  // no math font it stayed one line high in Korean, and overshot by 20 px in English)...
  expect(m.bracket, `${where}: the bracket round the matrix stretches`).toBeGreaterThan(2 * m.text);
  expect(Math.abs(m.bracket - m.table), `${where}: … to the matrix's height (${m.bracket} vs ${m.table})`).toBeLessThanOrEqual(0.1 * m.table);
  // ... and a parenthesis round one line of text stays about one line high (it was 3.3 lines).
  expect(m.paren, `${where}: the parenthesis round p + k does not over-stretch`).toBeLessThan(2 * m.text);
}

describe.skipIf(avail.skip)('the Learn path\'s formulas (Chromium)', () => {
  const session = usePage({ avail });
  const url = (id, lang) => `${session.server.url}?lang=en#learn/${id}${lang === 'ko' ? '?~lang=ko' : ''}`;
  const served = {};

  it('are set in the shipped math font, and a bracket stretches the same in English and Korean', async () => {
    const { page, log } = session;
    await page.setViewportSize(DESKTOP);
    for (const lang of ['en', 'ko']) {
      await openStep(page, url(STEP, lang), STEP);
      const m = await page.evaluate(measure);
      expectTypeset(m, lang);
      served[lang] = m;
      await screenshot(page, `learn-math-${lang}-desktop`, '.learn-step');
    }
    for (const key of ['bracket', 'paren', 'table']) {
      expect(Math.abs(served.en[key] - served.ko[key]), `${key} height, en ${served.en[key]} vs ko ${served.ko[key]}`).toBeLessThanOrEqual(1);
    }
    console.log(`bracket ${served.en.bracket.toFixed(1)} px round a ${served.en.table.toFixed(1)} px matrix; paren ${served.en.paren.toFixed(1)} px, text ${served.en.text.toFixed(1)} px`);
    expect(logProblems(log)).toEqual({});
  });

  for (const lang of ['en', 'ko']) {
    it(`scrolls a long formula sideways on a 390-wide phone, with a cue and a name (${lang})`, async () => {
      const { page, log } = session;
      await page.setViewportSize(PHONE);
      await openStep(page, url(STEP, lang), STEP);
      const m = await page.evaluate(measure);
      expectTypeset(m, `${lang} phone`);
      // Wider than the phone: it overflows its box, which scrolls (and nothing else does).
      expect(m.scrollWidth).toBeGreaterThan(m.clientWidth);
      expect(m.overflowX).toBe('auto');
      expect(m.right, 'the box ends inside the viewport').toBeLessThanOrEqual(m.viewport);
      expect(m.pageWidth, 'the page itself does not scroll sideways').toBeLessThanOrEqual(m.viewport);
      // The cue: covers that scroll with the content over shadows that stay with the box, so a
      // shadow shows on the side that has more: the right at the start, the left at the end.
      expect(m.cue.match(/radial-gradient/g)?.length).toBe(2);
      expect(m.cueAttach).toBe('local, local, scroll, scroll');
      const start = await edgeShade(page);
      expect(start.right, `shade at the right edge at the start (${JSON.stringify(start)})`).toBeGreaterThan(start.left + 20);
      await page.evaluate(() => { const b = document.querySelector('.learn-math-box'); b.scrollLeft = b.scrollWidth; });
      const end = await edgeShade(page);
      expect(end.left, `shade at the left edge at the end (${JSON.stringify(end)})`).toBeGreaterThan(end.right + 20);
      await page.evaluate(() => { document.querySelector('.learn-math-box').scrollLeft = 0; });
      // Reachable and named for the keyboard and screen readers, in the page's language.
      expect([m.role, m.tabIndex, m.label]).toEqual(['region', 0, LABEL[lang]]);
      expect(m.mathLabel).toMatch(/^PE\(p\+k\) = M_k PE\(p\)/);
      await screenshot(page, `learn-math-${lang}-phone`, null, {
        fullPage: false,
        clip: await page.evaluate(() => {
          const r = document.querySelector('.learn-math-box').getBoundingClientRect();
          return { x: 0, y: Math.max(0, r.y - 200), width: window.innerWidth, height: r.height + 260 };
        }),
      });
      // The keyboard scrolls it: focus it, press → and the formula moves.
      await page.focus('.learn-math-box');
      await page.keyboard.press('ArrowRight');
      await page.waitForFunction(() => document.querySelector('.learn-math-box').scrollLeft > 0);
      // A desktop-wide formula box neither scrolls nor needs to.
      await page.setViewportSize(DESKTOP);
      const wide = await page.evaluate(measure);
      expect(wide.scrollWidth).toBeLessThanOrEqual(wide.clientWidth);
      expect(logProblems(log)).toEqual({});
    });
  }

  it('shows the formulas in the math font in the offline single file too', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pe-math-offline-'));
    try {
      const out = path.join(dir, 'pe-lab.html');
      await buildOffline({ webDir: WEB, outFile: out });
      const context = await session.browser.newContext({ viewport: DESKTOP, deviceScaleFactor: 1, locale: 'en-US', colorScheme: 'light' });
      const page = await context.newPage();
      const errors = [];
      page.on('console', (msg) => {
        if (msg.type() === 'error') errors.push(msg.text());
      });
      page.on('pageerror', (e) => errors.push(String(e)));
      for (const lang of ['en', 'ko']) {
        await openStep(page, `${pathToFileURL(out).href}?lang=en#learn/${STEP}${lang === 'ko' ? '?~lang=ko' : ''}`, STEP);
        const m = await page.evaluate(measure);
        expectTypeset(m, `offline ${lang}`);
        if (served[lang]) expect(Math.abs(m.bracket - served[lang].bracket), `offline ${lang}: bracket as served`).toBeLessThanOrEqual(1);
      }
      // A font the policy blocked would be a console error (the single file has font-src 'none').
      expect(errors).toEqual([]);
      await context.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
