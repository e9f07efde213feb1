// Accessibility of the explorer with axe-core (tests/helpers/axe.js): five kinds in full (every view
// drawn and every folded view opened) and every other kind of the catalogue as it first appears, in
// English. Korean, the dark theme and the Arena: a11y-pages.test.js (the two run side by side); Learn:
// learn.test.js's walks.
// Nothing serious or critical, and none of the rules fixed once (landmarks, headings, summaries)
// comes back. A failure lists each rule's nodes.
//   npx vitest run tests/browser/a11y-explorer.test.js
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { suiteAvailability, openPage } from '../helpers/browser.js';
import { axeKit } from '../helpers/axe.js';
import { KINDS } from '../../web/api/schema/index.js';

const avail = suiteAvailability('a11y-explorer.test');

/** The kinds checked with every view drawn; the others are checked as they first appear. */
export const FULL_KINDS = ['sinusoidal', 'rope', 'attention', 'rope_precision', 'alibi'];

describe.skipIf(avail.skip)('accessibility of the explorer (axe-core) in Chromium', () => {
  let page;
  let close;
  let kit;
  const report = [];

  beforeAll(async () => {
    let server;
    ({ page, close, server } = await openPage({ avail }));
    kit = await axeKit(page, server.url, report);
  });
  afterAll(async () => {
    if (report.length) console.log(`\naxe-core\n${report.join('\n')}\n`);
    await close?.();
  });

  it('five kinds in en, every view drawn and unfolded', async () => {
    const problems = [];
    await kit.fullKinds('en', FULL_KINDS, problems);
    expect(problems).toEqual([]);
  });

  it('every other kind of the catalogue as it first appears (en)', async () => {
    const problems = [];
    await kit.open('?lang=en#sinusoidal');
    for (const kind of KINDS.filter((k) => !FULL_KINDS.includes(k))) {
      await page.click(`#catalogue a[data-kind="${kind}"]`);
      await page.waitForFunction((k) => document.getElementById('main')?.dataset.kind === k && document.documentElement.dataset.state === 'ready', kind);
      await kit.check(`en #${kind} (first screen)`, problems);
    }
    expect(problems).toEqual([]);
  });
});
