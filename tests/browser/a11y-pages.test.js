// Accessibility with axe-core (tests/helpers/axe.js) of the Korean explorer (the two kinds whose
// views hold the most text), the dark theme and the Arena (before and after a tiny experiment), in
// English and Korean. The English explorer in full: a11y-explorer.test.js (the two run side by
// side); the Learn path, its index and every step in both languages: learn.test.js's walks. Nothing serious or critical, and none of the
// rules fixed once (landmarks, headings, summaries) comes back. A failure lists each rule's nodes.
//   npx vitest run tests/browser/a11y-pages.test.js
import { describe, it, expect } from 'vitest';
import { suiteAvailability, WAIT_MS } from '../helpers/browser.js';
import { useAxePage } from '../helpers/browser-suite.js';
import { TINY_ARENA } from '../helpers/axe.js';

const avail = suiteAvailability('a11y-pages.test');

describe.skipIf(avail.skip)('accessibility of the pages (axe-core) in Chromium', () => {
  const { session, kit } = useAxePage({ avail });

  it('the explorer in ko: rope and attention, every view drawn and unfolded', async () => {
    const problems = [];
    await kit.fullKinds('ko', ['rope', 'attention'], problems);
    expect(problems).toEqual([]);
  });

  it('the dark theme in en: two kinds in full, a Learn step and the Arena', async () => {
    const problems = [];
    await session.page.emulateMedia({ colorScheme: 'dark' });
    try {
      for (const kind of ['sinusoidal', 'attention']) {
        await kit.open(`?lang=en#${kind}`);
        await kit.drawEveryView();
        await kit.check(`dark en #${kind} (every view)`, problems);
      }
      await kit.open('?lang=en#learn/order');
      await session.page.waitForFunction(() => Number(document.querySelector('.learn-figure')?.dataset.drawn || 0) > 0);
      await kit.check('dark en #learn/order', problems);
      await kit.open(`?lang=en#arena?${TINY_ARENA}`);
      await kit.check('dark en #arena', problems);
    } finally {
      await session.page.emulateMedia({ colorScheme: 'light' });
    }
    expect(problems).toEqual([]);
  });

  for (const lang of ['en', 'ko']) {
    it(`the Arena in ${lang}: the form, then a tiny experiment's results`, async () => {
      const problems = [];
      await kit.open(`?lang=en#arena?${TINY_ARENA}${lang === 'en' ? '' : '&~lang=ko'}`);
      await kit.check(`${lang} #arena`, problems);
      await session.page.click('.arena-primary');
      await session.page.waitForFunction(() => document.querySelector('.arena')?.dataset.state === 'done', null, { timeout: WAIT_MS * 2 });
      await kit.check(`${lang} #arena (results)`, problems);
      expect(problems).toEqual([]);
    });
  }
});
