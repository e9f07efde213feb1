// Learn → explorer keeps what the step showed: "Open this in the explorer" carries the step's view
// state (ALiBi's head, T5's colour map, the picked patch, the word-order step's second sentence as
// the compare view's B), and a log slider's exact value can be typed (the decay step asks for
// base 500 and 500,000, which its 0.01-decade slider cannot land on).
import { describe, it, expect } from 'vitest';
import { suiteAvailability, gotoApp } from '../helpers/browser.js';
import { usePage } from '../helpers/browser-suite.js';

const avail = suiteAvailability('learn-explore.test');

describe.skipIf(avail.skip)('Learn steps open the explorer on what they showed (Chromium)', () => {
  const s = usePage({ avail });

  async function step(id) {
    await gotoApp(s.page, `${s.server.url}?lang=en#learn/${id}`, { state: null });
    await s.page.waitForFunction((want) => document.querySelector('.learn')?.dataset.ready === want, id);
  }
  const exploreHref = () => s.page.evaluate(() => decodeURIComponent(document.querySelector('.learn-explore-row a').getAttribute('href')));

  it('word order: the first sentence, with the second as the compare view’s B', async () => {
    await step('order');
    await s.page.waitForFunction(() => /tokens=/.test(document.querySelector('.learn-explore-row a')?.getAttribute('href') ?? ''));
    const href = await exploreHref();
    expect(href).toMatch(/tokens='I love AI'/);
    expect(href).toMatch(/~cmp=\(tokens:'AI love I'\)/);
  });

  it('relative: ALiBi keeps its head; the link opens the explorer on that head', async () => {
    await step('relative');
    const param = s.page.locator('.learn-controls input[type=range]');
    await param.evaluate((el) => {
      el.value = '5';
      el.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await s.page.waitForFunction(() => /~head=5/.test(document.querySelector('.learn-explore-row a').getAttribute('href')));
    await s.page.click('.learn-explore-row a');
    await s.page.waitForFunction(() => document.documentElement.dataset.state === 'ready' && /#v1\/alibi/.test(location.hash));
    await s.page.waitForFunction(() => /~head=5/.test(location.hash));
  });

  it('patches: the picked patch goes along', async () => {
    await step('patches');
    const href = await exploreHref();
    expect(href).toMatch(/~x\.visionPatch=!\(4,9\)/);
  });

  it('decay: base 500 and 500,000 can be typed, and the sentence follows', async () => {
    await step('decay');
    const box = s.page.locator('.learn-controls input.learn-number').first();
    await box.fill('500');
    await s.page.waitForFunction(() => /base 500, /.test(document.querySelector('.learn-derived')?.textContent ?? ''));
    await box.fill('500000');
    await s.page.waitForFunction(() => /base 500,000, /.test(document.querySelector('.learn-derived')?.textContent ?? ''));
    expect(decodeURIComponent(await s.page.evaluate(() => document.querySelector('.learn-explore-row a').getAttribute('href')))).toMatch(/base=500000/);
  });
});
