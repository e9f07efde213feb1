// Accessibility of the explorer with axe-core (tests/helpers/axe.js): five kinds in full (every view
// drawn and every folded view opened) and every other kind of the catalogue as it first appears, in
// English. Korean, the dark theme and the Arena: a11y-pages.test.js (the two run side by side); Learn:
// learn.test.js's walks.
// Nothing serious or critical, and none of the rules fixed once (landmarks, headings, summaries)
// comes back. A failure lists each rule's nodes.
//   npx vitest run tests/browser/a11y-explorer.test.js
import { describe, it, expect } from 'vitest';
import { suiteAvailability } from '../helpers/browser.js';
import { useAxePage } from '../helpers/browser-suite.js';
import { KINDS } from '../../web/api/schema/index.js';

const avail = suiteAvailability('a11y-explorer.test');

/** The kinds checked with every view drawn; the others are checked as they first appear. */
export const FULL_KINDS = ['sinusoidal', 'rope', 'attention', 'rope_precision', 'alibi'];

describe.skipIf(avail.skip)('accessibility of the explorer (axe-core) in Chromium', () => {
  const { session, kit } = useAxePage({ avail });

  it('five kinds in en, every view drawn and unfolded', async () => {
    const problems = [];
    await kit.fullKinds('en', FULL_KINDS, problems);
    expect(problems).toEqual([]);
  });

  it('every other kind of the catalogue as it first appears (en)', async () => {
    const problems = [];
    await kit.open('?lang=en#sinusoidal');
    for (const kind of KINDS.filter((k) => !FULL_KINDS.includes(k))) {
      await session.page.click(`#catalogue a[data-kind="${kind}"]`);
      await session.page.waitForFunction((k) => document.getElementById('main')?.dataset.kind === k && document.documentElement.dataset.state === 'ready', kind);
      await kit.check(`en #${kind} (first screen)`, problems);
    }
    expect(problems).toEqual([]);
  });
});
