// The magnitudes view (web/views/absolute/embed-scale.js) in Chromium: it draws for sinusoidal
// d = 512, its sentence cites the numbers that Node's computation gives (the same kernel, the same
// math module), the √d_model toggle changes them, the choice travels in the permalink, the Learn
// path's sinusoids step links to it, and the Korean page says it in Korean. Saves
// tests/artifacts/embed-scale-{en,ko}.png.
//   npx vitest run tests/browser/embed-scale.test.js
import { describe, it, expect, beforeAll } from 'vitest';
import { suiteAvailability, gotoApp, screenshot, waitDrawn } from '../helpers/browser.js';
import { usePage } from '../helpers/browser-suite.js';
import { createPE } from '../../web/pe.js';
import { embedTable, fmt3, fmtCos, initStd, magnitudes, rowNorms, verdictOf } from '../../web/views/absolute/embed-scale-math.js';

const VIEW = '#view-absolute-embed-scale';
const avail = suiteAvailability('embed-scale.test');

describe.skipIf(avail.skip)('the magnitudes view: ‖E‖ against ‖P‖ (Chromium)', () => {
  const s = usePage({ avail });
  let expected;

  beforeAll(async () => {
    // What the view should say for sinusoidal 512 × 512 and GPT-2's N(0, 0.02²), scale off and on.
    const pe = await createPE();
    const d = 512;
    const r = pe.compute({ kind: 'sinusoidal', length: 512, dim: d, base: 10000 });
    const P = { data: r.data, rows: 512, cols: d };
    const pn = rowNorms(r.data, 512, d);
    const E = embedTable(pe, { d, std: initStd('gpt2', d), seed: 1234 });
    const en = rowNorms(E.data, E.rows, E.cols);
    const at = (scaled) => {
      const m = magnitudes(E, en, P, pn, scaled);
      return { e: fmt3(m.e.median), lo: fmt3(m.e.lo), hi: fmt3(m.e.hi), p: fmt3(m.p.median), ratio: fmt3(m.ratio), verdict: verdictOf(m.ratio), cos: fmtCos(m.cos.median) };
    };
    expected = { off: at(false), on: at(true) };
  });

  const values = () => s.page.evaluate((v) => JSON.parse(document.querySelector(`${v} .view-body`).dataset.values), VIEW);
  const text = (sel) => s.page.evaluate(([v, q]) => document.querySelector(`${v} ${q}`).textContent, [VIEW, sel]);
  /** The section scrolled into sight and two frames later (lazy views above it may still be arriving). */
  async function settle() {
    await s.page.locator(VIEW).scrollIntoViewIfNeeded();
    await s.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  }
  const drawnCount = () => s.page.evaluate((v) => Number(document.querySelector(`${v} .view-body`)?.dataset.drawn || 0), VIEW);

  it('draws for sinusoidal d = 512 and cites the numbers Node computes', async () => {
    await gotoApp(s.page, `${s.server.url}?lang=en#v1/sinusoidal?length=512&dim=512`);
    await waitDrawn(s.page, VIEW);
    const v = await values();
    const want = expected.off;
    expect(v).toMatchObject({ d: 512, e: want.e, lo: want.lo, hi: want.hi, p: want.p, ratio: want.ratio, cos: want.cos, scaled: false, init: 'gpt2' });
    expect(want.p).toBe('16.0'); // √(512/2)
    const sentence = await text('.embed-sentence');
    expect(sentence).toContain(`‖E‖ ≈ ${want.e}`);
    expect(sentence).toContain(`‖P‖ = ${want.p}`);
    expect(sentence).toContain(`positions outweigh the words ${want.verdict.r} to 1`);
    expect(sentence).toContain(`‖E‖ ≈ ${expected.on.e} against ${want.p}`); // the other setting
    expect(await text('.embed-cos')).toContain(want.cos);
    expect(await text('.embed-cos')).toContain('drowned out'); // cos ≈ 1: the sum is position
    // A canvas was drawn (the line plot), with a text alternative.
    expect(await s.page.locator(`${VIEW} canvas`).count()).toBeGreaterThan(0);
    await settle();
    await screenshot(s.page, 'embed-scale-en', VIEW);
  });

  it('× √d_model changes the numbers, and the permalink carries the choice', async () => {
    const n = await drawnCount();
    await s.page.locator(`${VIEW} .embed-scale-toggle`).check();
    await waitDrawn(s.page, VIEW, n);
    const v = await values();
    const want = expected.on;
    expect(v).toMatchObject({ e: want.e, ratio: want.ratio, cos: want.cos, scaled: true });
    expect(v.e).not.toBe(expected.off.e);
    const sentence = await text('.embed-sentence');
    expect(sentence).toContain('× √512');
    expect(sentence).toContain(`‖E‖ ≈ ${want.e}`);
    await s.page.waitForFunction(() => /~x\.embedScale=!t/.test(location.hash));
    // The init preset: nn.Embedding's N(0, 1), × √512: the words outweigh the positions.
    const m = await drawnCount();
    await s.page.selectOption(`${VIEW} select`, 'torch');
    await waitDrawn(s.page, VIEW, m);
    const t = await values();
    expect(t.verdict.side).toBe('e');
    expect(Number(t.e)).toBeGreaterThan(400); // ≈ √512 · √512 = 512
    expect(await text('.embed-cos')).toContain('small nudge'); // cos ≈ 0.03: the sum is the word
  });

  it('the Learn path’s sinusoids step opens it', async () => {
    await gotoApp(s.page, `${s.server.url}?lang=en#learn/sinusoids`, { state: null });
    await s.page.waitForFunction(() => document.querySelector('.learn')?.dataset.ready === 'sinusoids');
    const link = s.page.locator('.learn-magnitudes a');
    expect(await link.textContent()).toMatch(/magnitudes view/);
    await link.click();
    await s.page.waitForFunction(() => /#v1\/sinusoidal/.test(location.hash) && document.documentElement.dataset.state === 'ready' && !document.documentElement.dataset.page);
    // Opened at the view (the link's ~x.go), which then leaves the address bar.
    await s.page.waitForFunction((v) => document.activeElement === document.querySelector(v), VIEW);
    await s.page.waitForFunction(() => /dim=512/.test(decodeURIComponent(location.hash)) && !location.hash.includes('go='));
    await waitDrawn(s.page, VIEW);
    const v = await values();
    expect(v.d).toBe(512);
    expect(v.p).toBe('16.0');
  });

  it('a link\'s ~x.go brings the view to the top of the screen and focuses it, once', async () => {
    await gotoApp(s.page, `${s.server.url}?lang=en#v1/sinusoidal?length=512&dim=512&~x.go=absolute-embed-scale`);
    await s.page.waitForFunction((v) => document.activeElement === document.querySelector(v), VIEW);
    const top = await s.page.evaluate((v) => document.querySelector(v).getBoundingClientRect().top, VIEW);
    expect(Math.abs(top)).toBeLessThan(40);
    await waitDrawn(s.page, VIEW);
    // Followed, it leaves the address bar: a reload or a copied link does not jump again.
    await s.page.waitForFunction(() => /#v1\/sinusoidal/.test(location.hash) && !location.hash.includes('go='));
  });

  it('says it in Korean', async () => {
    await gotoApp(s.page, `${s.server.url}#v1/sinusoidal?length=512&dim=512&~lang=ko`);
    await waitDrawn(s.page, VIEW);
    const v = await values();
    const sentence = await text('.embed-sentence');
    expect(sentence).toMatch(/초기값 .*더하면/);
    expect(sentence).toContain(`‖E‖ ≈ ${v.e}`);
    expect(await s.page.locator(`${VIEW} h3`).textContent()).toMatch(/얼마나 클까/);
    await settle();
    await screenshot(s.page, 'embed-scale-ko', VIEW);
  });
});
