// The Learn path's exercises in Chromium (web/pages/learn/exercises-ui.js): driving a step's
// controls to the state its "Try this" asks for makes the polite status line say so, with the
// numbers the step's own sentence shows, in English and in Korean; "Show the answer" opens from
// the keyboard; the code questions check a typed answer; axe-core finds nothing serious or
// critical with an exercise reached and opened. Saves tests/artifacts/learn-exercise-*.png
// (desktop and a 390 × 844 phone).
//   npx vitest run tests/browser/learn-exercises.test.js
import { describe, it, expect } from 'vitest';
import { suiteAvailability, logProblems, screenshot } from '../helpers/browser.js';
import { useAxePage } from '../helpers/browser-suite.js';

const avail = suiteAvailability('learn-exercises.test');

describe.skipIf(avail.skip)('Learn exercises (Chromium)', () => {
  const { session: s, kit } = useAxePage({ avail });

  /** A fresh load of step `id` in `lang`, mounted. */
  async function open(id, lang = 'en') {
    await s.page.goto('about:blank');
    await s.page.goto(`${s.server.url}?lang=en#learn/${id}${lang === 'ko' ? '?~lang=ko' : ''}`);
    await s.page.waitForFunction((want) => document.documentElement.dataset.pageState === 'ready' && document.querySelector('.learn')?.dataset.ready === want, id);
  }
  /** Sets the step's range input `n` (0-based) to `value`, as a drag does. */
  const setRange = (n, value) => s.page.locator('.learn-controls input[type=range]').nth(n).evaluate((el, v) => {
    el.value = String(v);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, value);
  const reached = () => s.page.waitForFunction(() => document.querySelector('.learn-try')?.dataset.exercise === 'done');
  const statusText = () => s.page.textContent('.learn-try .learn-ex-status');
  const derivedText = () => s.page.textContent('.learn-derived');

  for (const lang of ['en', 'ko']) {
    it(`${lang}: base 20000 typed on step 2 is seen, with the step's numbers`, async () => {
      await open('sinusoids', lang);
      expect(await s.page.getAttribute('.learn-try .learn-ex-status', 'role')).toBe('status');
      expect(await s.page.evaluate(() => document.querySelector('.learn-try').dataset.exercise)).toBe('waiting');
      await s.page.locator('.learn-controls input.learn-number').first().fill('20000');
      await reached();
      const text = await statusText();
      // The slowest pair's wavelength, as the step's sentence gives it at base 20000.
      expect(await derivedText()).toContain('92,215');
      expect(text).toContain('92,215');
      expect(text).toContain(lang === 'en' ? 'columns 0, 1 are exactly' : '0, 1열은 base 10,000일 때와 완전히 같습니다');
      // Said in words and a mark, not in colour alone.
      expect(text).toContain(lang === 'en' ? 'You got there.' : '도달했습니다.');
      await screenshot(s.page, `learn-exercise-sinusoids-${lang}`, '.learn-step');
    });

    it(`${lang}: ALiBi's head 7 reached by the keyboard on step 7`, async () => {
      await open('relative', lang);
      const range = s.page.locator('.learn-controls input[type=range]').first();
      await range.focus();
      await s.page.keyboard.press('End');
      await reached();
      const text = await statusText();
      expect(await derivedText()).toContain('1/256');
      expect(text).toContain('1/256');
      expect(text).toContain('2.1e-9');
      expect(text).toContain('5, 6, 7');
      await screenshot(s.page, `learn-exercise-relative-${lang}`, '.learn-step');
    });
  }

  it('step 3 reads p and k from its sliders: p = 100 is seen, PE(105) as in the sentence', async () => {
    await open('shift');
    await setRange(1, 99);
    await s.page.waitForTimeout(400);
    expect(await s.page.evaluate(() => document.querySelector('.learn-try').dataset.exercise)).toBe('waiting');
    await setRange(1, 100);
    await reached();
    expect(await derivedText()).toContain('PE(105)');
    expect(await statusText()).toMatch(/lands on PE\(105\) to within .*float32 rounding/);
  });

  it('step 1: ALiBi, the reversal, then “love I AI”; the share moved is the one the demo’s verdict gives', async () => {
    await open('order');
    const fig = '.learn-figure';
    const drawn = () => s.page.evaluate((f) => Number(document.querySelector(f).dataset.drawn || 0), fig);
    let n = await drawn();
    await s.page.selectOption(`${fig} select.wo-enc`, 'alibi');
    await s.page.waitForFunction(([f, k]) => Number(document.querySelector(f).dataset.drawn) > k, [fig, n]);
    n = await drawn();
    await s.page.fill(`${fig} input.wo-text >> nth=1`, 'love I AI');
    await s.page.waitForFunction(([f, k]) => Number(document.querySelector(f).dataset.drawn) > k, [fig, n]);
    await reached();
    const pct = /(\d+) % of a word’s attention moves/.exec(await s.page.textContent(`${fig} .wo-verdict`))[1];
    expect(await statusText()).toMatch(new RegExp(`“AI love I” changes nothing a word receives .* while “love I AI” moves ${pct} % of a word’s attention`));
  });

  // Every step's answer, revealed in en and ko: in learn.test.js's walks (they open every step anyway).

  it('"Show the answer" opens and closes from the keyboard, with the answer’s numbers', async () => {
    await open('rope');
    await s.page.focus('.learn-try .learn-ex-reveal summary');
    await s.page.keyboard.press('Enter');
    await s.page.waitForFunction(() => document.querySelector('.learn-try .learn-ex-reveal').open && document.querySelector('.learn-try .learn-ex-answer').textContent);
    const answer = await s.page.textContent('.learn-try .learn-ex-answer');
    expect(answer).toMatch(/^What you would see: At base 100, 10 of the 16 pairs .* every 471 positions/);
    await s.page.keyboard.press('Space');
    await s.page.waitForFunction(() => !document.querySelector('.learn-try .learn-ex-reveal').open);
    // Revealing is not reaching.
    expect(await s.page.evaluate(() => document.querySelector('.learn-try').dataset.exercise)).toBe('waiting');
  });

  it('code questions: a wrong shape is told on Enter, the right one as it is typed; printed values to 4 decimals', async () => {
    await open('sinusoids');
    const q = (id) => `.learn-q[data-question="${id}"]`;
    const verdict = (id) => s.page.getAttribute(q(id), 'data-verdict');
    await s.page.locator(`${q('sinShape')} input`).fill('(128, 64)');
    expect(await verdict('sinShape')).toBe('empty');   // not called wrong while typing
    await s.page.locator(`${q('sinShape')} input`).press('Enter');
    expect(await verdict('sinShape')).toBe('wrong');
    expect(await s.page.textContent(`${q('sinShape')} .learn-q-status`)).toMatch(/^✗ Not yet\. Three axes/);
    await s.page.locator(`${q('sinShape')} input`).fill('torch.Size([1, 128, 64])');
    expect(await verdict('sinShape')).toBe('right');
    expect(await s.page.textContent(`${q('sinShape')} .learn-q-status`)).toMatch(/^✓ Right\. torch\.Size\(\[1, 128, 64\]\)/);
    await s.page.locator(`${q('sinValues')} input`).fill('-0.571, -0.821, 0.324');
    await s.page.locator(`${q('sinValues')} input`).press('Enter');
    expect(await verdict('sinValues')).toBe('digits');
    await s.page.locator(`${q('sinValues')} input`).fill('tensor([-0.5711, -0.8209,  0.3239])');
    expect(await verdict('sinValues')).toBe('right');
    // The self-check line's answer, revealed by the keyboard, is the print the code export ends with.
    await s.page.focus(`${q('sinCheck')} summary`);
    await s.page.keyboard.press('Enter');
    await s.page.waitForFunction((sel) => document.querySelector(sel)?.textContent, `${q('sinCheck')} .learn-ex-answer`);
    const why = await s.page.textContent(`${q('sinCheck')} .learn-ex-answer`);
    expect(why).toMatch(/^\(128, 64\) -?\d\.\d{4}: pos_enc\.pe\[0\] drops the batch axis/);
    await s.page.locator(`${q('sinCheck')} input`).fill(why.split(':')[0]);
    expect(await verdict('sinCheck')).toBe('right');
  });

  it('axe-core: nothing serious or critical with an exercise reached, its answer open, a question answered (en, ko)', async () => {
    const problems = [];
    for (const lang of ['en', 'ko']) {
      await open('sinusoids', lang);
      await s.page.locator('.learn-controls input.learn-number').first().fill('20000');
      await reached();
      await s.page.click('.learn-try .learn-ex-reveal summary');
      await s.page.locator('.learn-q input').first().fill('1, 128, 64');
      await s.page.locator('.learn-q input').nth(1).fill('0');
      await s.page.locator('.learn-q input').nth(1).press('Enter');
      await s.page.click('.learn-q .learn-ex-reveal summary');
      await kit.check(`${lang} #learn/sinusoids exercise`, problems);
    }
    expect(problems).toEqual([]);
  });

  it('on a phone (390 × 844): the exercise and the questions fit the width', async () => {
    await s.page.setViewportSize({ width: 390, height: 844 });
    try {
      for (const lang of ['en', 'ko']) {
        await open('sinusoids', lang);
        await s.page.locator('.learn-controls input.learn-number').first().fill('20000');
        await reached();
        await s.page.locator('.learn-q input').first().fill('torch.Size([1, 128, 64])');
        const over = await s.page.evaluate(() => [...document.querySelectorAll('.learn-try, .learn-quiz, .learn-q-input')]
          .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1).map((el) => el.className));
        expect(over, lang).toEqual([]);
        await screenshot(s.page, `learn-exercise-phone-${lang}`, '.learn-try');
        await screenshot(s.page, `learn-exercise-quiz-phone-${lang}`, '.learn-quiz');
      }
    } finally {
      await s.page.setViewportSize({ width: 1280, height: 900 });
    }
    expect(logProblems(s.log)).toEqual({});
  });
});
