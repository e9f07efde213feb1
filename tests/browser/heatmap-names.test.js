// The whole-table heatmap names its rows and columns where the cells have names: M-RoPE's axes
// read t, h, w (they read 0, 1, 2), an attention sentence's rows and columns read its words (they
// read 0, 1, 2), in the ticks and in the readout; other tables keep their numbers.
import { describe, it, expect } from 'vitest';
import { suiteAvailability, gotoApp, inSight } from '../helpers/browser.js';
import { usePage } from '../helpers/browser-suite.js';

const avail = suiteAvailability('heatmap-names.test');
const HM = '#view-heatmap';

describe.skipIf(avail.skip)('heatmap rows and columns with names (Chromium)', () => {
  const s = usePage({ avail });

  async function ticks(hash) {
    await gotoApp(s.page, `${s.server.url}?lang=en${hash}`);
    await inSight(s.page, HM, () => s.page.waitForFunction((sel) => document.querySelector(`${sel} .view-body`)?.dataset.paintMs
      && document.querySelector(`${sel} .hm-yticks .hm-tick`), HM));
    return s.page.evaluate((sel) => ({
      y: [...document.querySelectorAll(`${sel} .hm-yticks .hm-tick`)].map((e) => e.textContent),
      x: [...document.querySelectorAll(`${sel} .hm-xticks .hm-tick`)].map((e) => e.textContent),
    }), HM);
  }

  it('M-RoPE: the rows are t, h, w; the tokens keep their numbers', async () => {
    const { y, x } = await ticks('#mrope');
    expect(y).toEqual(['t', 'h', 'w']);
    expect(x.every((v) => /^[0-9]+$/.test(v))).toBe(true);
  });

  it('attention over "I love AI": the words on both axes and in the readout', async () => {
    const { y, x } = await ticks('#attention?content=tokens&tokens=I%20love%20AI&length=3');
    expect(y).toEqual(['I', 'love', 'AI']);
    expect(x).toEqual(['I', 'love', 'AI']);
    const plot = s.page.locator(`${HM} .hm-plot`);
    await plot.focus();
    await s.page.keyboard.press('ArrowDown');
    await s.page.keyboard.press('ArrowRight');
    const readout = await s.page.locator(`${HM} .hm-readout`).textContent();
    expect(readout).toMatch(/“(I|love|AI)”.*“(I|love|AI)”/);
  });

  it('a long sentence: sampled ticks are still words; sinusoidal keeps numbers', async () => {
    const words = Array.from({ length: 60 }, (_, i) => `w${i}`);
    const { y } = await ticks(`#attention?content=tokens&tokens=${words.join('%20')}&length=60`);
    expect(y.length).toBeGreaterThan(1);
    expect(y.length).toBeLessThan(60);
    expect(y.every((v) => words.includes(v))).toBe(true);
    const sin = await ticks('#sinusoidal');
    expect(sin.y.every((v) => /^[0-9,]+$/.test(v))).toBe(true);
  });
});
