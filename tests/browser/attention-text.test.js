// Attention with content "tokens": typing a sentence sets the length to its number of words
// (the schema's `follows` rule, applied by the form), so the page draws the sentence instead of
// refusing it with "length must equal the number of words … got 64".
import { describe, it, expect } from 'vitest';
import { suiteAvailability, gotoApp, inSight } from '../helpers/browser.js';
import { usePage } from '../helpers/browser-suite.js';

const avail = suiteAvailability('attention-text.test');

describe.skipIf(avail.skip)('attention text fills the length (Chromium)', () => {
  const s = usePage({ avail });

  it('content tokens + a typed sentence: length follows the words, no error, the words are drawn', async () => {
    const { page } = s;
    await gotoApp(page, `${s.server.url}?lang=en#attention`);
    await page.selectOption('#f-attention-content', 'tokens');
    await page.fill('#f-attention-tokens', 'the cat sat on the mat');
    await page.waitForFunction(() => document.querySelector('#f-attention-length').value === '6');
    await page.waitForFunction(() => /length=6/.test(decodeURIComponent(location.hash)) && /tokens=/.test(location.hash));
    const errors = await page.evaluate(() => [...document.querySelectorAll('.controls [id$="-error"]')].map((e) => e.textContent.trim()).filter(Boolean));
    expect(errors).toEqual([]);
    await page.fill('#f-attention-tokens', '나는 AI를 좋아한다');
    await page.waitForFunction(() => document.querySelector('#f-attention-length').value === '3');
    await inSight(page, '#view-heatmap', () => page.waitForFunction(() => [...document.querySelectorAll('#view-heatmap .hm-yticks .hm-tick')].map((e) => e.textContent).join(' ') === '나는 AI를 좋아한다'));
  });

  it('the length typed by hand is still checked against the words', async () => {
    const { page } = s;
    await gotoApp(page, `${s.server.url}?lang=en#attention?content=tokens&tokens=I%20love%20AI&length=3`);
    await page.fill('#f-attention-length', '5');
    await page.waitForFunction(() => /number of words/.test(document.querySelector('#f-attention-length-error')?.textContent ?? ''));
  });
});
