// Learn → explorer keeps what the step showed: "Open this in the explorer" carries the step's view
// state (ALiBi's head, T5's colour map, the picked patch, the word-order step's second sentence as
// the compare view's B), and a log slider's exact value can be typed (the decay step asks for
// base 500 and 500,000, which its 0.01-decade slider cannot land on). The learned step's tables
// trained in the Arena: the sentence cites the measures Node computes from the same module, and
// the link opens the explorer at the sine-likeness view.
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

  it('learned: a table trained in the Arena, measured as the explorer measures it', async () => {
    await step('learned');
    await s.page.selectOption('.learn-controls select', '2');
    await s.page.waitForFunction(() => /k-back/.test(document.querySelector('.learn-derived')?.textContent ?? ''));
    const text = await s.page.textContent('.learn-derived');
    const want = await s.page.evaluate(`(async () => {
      const { createPE } = await import('./pe.js');
      const { TRAINED, trainedTable } = await import('./pages/learn/trained-table.js');
      const { sineLikeness } = await import('./views/absolute/sine-likeness.js');
      const pe = await createPE();
      const [rows, cols] = TRAINED.shape;
      const ms = TRAINED.seeds.map((s, i) => sineLikeness(pe, trainedTable(i), rows, cols));
      const pct = (v) => (100 * v).toFixed(0) + ' %';
      return { all: ms.map((m) => pct(m.self.fit.median)).join(', '), noise: pct(ms[2].noise.fit.median), acc: pct(TRAINED.seeds[2].accuracy), wave: ms.filter((m) => m.verdict === 'wave').length };
    })()`);
    expect(text).toContain(`(the 3 seeds: ${want.all})`);
    expect(text).toContain(`against ${want.noise} for an untrained table`);
    expect(text).toContain(`with seed 2 it gets ${want.acc} of test sequences right`);
    if (want.wave === 0) expect(text).toMatch(/sine-like in none|No more sine-like/);
    expect(await s.page.isHidden('.learn-controls input[type=range]')).toBe(true);
    // The explorer opens an untrained table of that size at the sine-likeness view.
    await s.page.waitForFunction(() => /~x\.go=absolute-sine-likeness/.test(document.querySelector('.learn-explore-row a')?.getAttribute('href') ?? ''));
    await s.page.click('.learn-explore-row a');
    await s.page.waitForFunction(() => document.activeElement?.id === 'view-absolute-sine-likeness');
  });
});
