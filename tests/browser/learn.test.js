// Browser test of the Learn path (web/pages/learn/): the index links every step; every step, in
// English and in Korean, opens from its own link (a deep link), paints its figure, changes it when
// its control moves, shows no raw string key and (in Korean) no English sentence, and logs no
// error. The word-order step measures the permutation lesson on screen. Saves
// tests/artifacts/learn-*.png.
//   npx vitest run tests/browser/learn.test.js
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { suiteAvailability, openPage, canvasStats, logProblems, screenshot } from '../helpers/browser.js';
import { STEP_IDS } from '../../web/pages/learn/steps.js';
import { axeKit } from '../helpers/axe.js';
import { LATIN_NAMES } from '../../web/pages/learn/claims-strings.js';
import { MATH_FONT_RANGES } from '../../web/pages/learn/math-font.js';

const avail = suiteAvailability('learn.test');

// Words allowed in Korean text: names, symbols and the figures' own tokens.
const NAMES = new Set(['PE', 'Lab', 'RoPE', 'M-RoPE', 'ALiBi', 'T5', 'Shaw', 'BERT', 'GPT', 'YaRN', 'NTK', 'PI', 'Llama', 'LongRoPE', 'Phi', 'Qwen2-VL',
  'MAE', 'WebAssembly', 'SIMD', 'English', 'base', 'rad', 'float32', 'config.json', 'short_factor', 'long_factor', 'longrope', 'id', 'sin', 'cos',
  'I', 'love', 'AI', 'viridis', 'cividis', 'aware', 'linear', 'k', 'd', 'p', 'q', 'm', 'n', 'i', 'j', 't', 'h', 'w', 'e', 'PE(p)', 'Transformer',
  'sinusoidal', 'learned', 'none', 'GPT-2', 'Ctrl', 'PyTorch', 'BERT-base', ...LATIN_NAMES]);

describe.skipIf(avail.skip)('the Learn path in Chromium', () => {
  let page;
  let log;
  let close;
  let base;
  const report = [];

  let axe;
  beforeAll(async () => {
    ({ page, log, close, server: { url: base } } = await openPage({ avail }));
    // axe-core at every step of the walks (tests/helpers/axe.js): nothing serious or critical, and
    // none of the landmark and heading rules fixed once comes back.
    axe = await axeKit(page, base, report);
  });

  afterAll(async () => {
    if (report.length) console.log(`\nLearn path\n${report.join('\n')}\n`);
    await close?.();
  });

  /** Open a Learn route by its link (a fresh load: a deep link) and wait until it is mounted. */
  async function open(hash, ready) {
    await page.goto('about:blank');   // a new document: the link is opened as a reader would, not as a hash change
    await page.goto(`${base}${hash}`);
    await page.waitForFunction((r) => document.documentElement.dataset.pageState === 'ready' && document.querySelector('.learn')?.dataset.ready === r, ready);
  }
  const drawn = () => page.evaluate(() => Number(document.querySelector('.learn-figure')?.dataset.drawn || 0));
  /** Statistics of the figure's first canvas once it has painted something. */
  async function painted() {
    await page.waitForFunction(() => {
      const c = document.querySelector('.learn-figure canvas');
      if (!c || !c.width || !c.height) return false;
      const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      for (let i = 3; i < px.length; i += 4) if (px[i]) return true;
      return false;
    });
    return canvasStats(page, '.learn-figure canvas');
  }

  it('lists every step on the index, each linked as #learn/<step-id> in the page\'s language', async () => {
    for (const lang of ['en', 'ko']) {
      await open(lang === 'en' ? '?lang=en#learn' : '#learn?~lang=ko', 'index');
      const links = await page.$$eval('.learn-index a', (as) => as.map((a) => decodeURIComponent(a.getAttribute('href'))));
      expect(links).toEqual(STEP_IDS.map((id) => `#learn/${id}${lang === 'en' ? '' : '?~lang=ko'}`));
      // Following a link from the index opens that step.
      await page.click(`.learn-index a[data-step-link="${STEP_IDS[3]}"]`);
      await page.waitForFunction((id) => document.querySelector('.learn')?.dataset.ready === id, STEP_IDS[3]);
      expect(await page.getAttribute('html', 'lang')).toBe(lang);
    }
  });

  for (const lang of ['en', 'ko']) {
    it(`walks every step in ${lang}: deep link, figure, control, words, its answer, accessibility`, async () => {
      const problems = [];
      const hasGlyph = (cp) => MATH_FONT_RANGES.some(([lo, hi]) => cp >= lo && cp <= hi);
      let formulas = 0;
      await axe.open(`?lang=en#learn${lang === 'ko' ? '?~lang=ko' : ''}`);
      await axe.check(`${lang} #learn`, problems);
      for (const [i, id] of STEP_IDS.entries()) {
        await open(`?lang=en#learn/${id}${lang === 'ko' ? '?~lang=ko' : ''}`, id);
        expect(await page.textContent('.learn-count'), id).toContain(String(i + 1));
        // The step's formulas use only characters the shipped math font has (learn-math.test.js
        // checks how they are set).
        const math = await page.evaluate(() => [...document.querySelectorAll('math')].map((m) => m.textContent).join(''));
        if (math) formulas += 1;
        expect([...new Set(math)].filter((c) => !hasGlyph(c.codePointAt(0))), `${lang} ${id}: characters the math font lacks`).toEqual([]);
        const before = await painted();
        await axe.check(`${lang} #learn/${id}`, problems);
        expect(before.painted, `${lang} ${id} painted`).toBeGreaterThan(0);
        expect(before.distinct, `${lang} ${id} colours`).toBeGreaterThan(1);
        // Numbers in sentences carry the digits the point needs, not a float32's nine (as opened).
        expect(await page.evaluate(() => document.querySelector('.learn').innerText), `${lang} ${id}: long float digits`).not.toMatch(/\d\.\d{6,}/);
        // The step's control: move it and wait for a new drawing that looks different.
        const n = await drawn();
        const control = page.locator('[data-learn-control]').first();
        const tag = await control.evaluate((el) => el.tagName.toLowerCase());
        if (tag === 'select') {
          const values = await control.evaluate((el) => [...el.options].map((o) => o.value));
          const now = await control.inputValue();
          await control.selectOption(values.find((v) => v !== now && v !== 'none') ?? values[0]);
        } else {
          await control.evaluate((el) => {
            el.value = String(Number(el.value) === Number(el.max) ? el.min : el.max);
            el.dispatchEvent(new Event('input', { bubbles: true }));
          });
        }
        await page.waitForFunction((k) => Number(document.querySelector('.learn-figure')?.dataset.drawn || 0) > k, n);
        await page.waitForFunction(([h]) => {
          const c = document.querySelector('.learn-figure canvas');
          const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
          let hash = 2166136261;
          for (let j = 0; j < px.length; j += 4) hash = Math.imul(hash ^ ((px[j] << 16) | (px[j + 1] << 8) | px[j + 2]) ^ (px[j + 3] << 24), 16777619) >>> 0;
          return hash !== h;
        }, [before.hash]);
        // The words on the page: no raw key, and in Korean no English sentence.
        const text = await page.evaluate(() => document.querySelector('.learn').innerText);
        expect(text, `${lang} ${id}`).not.toMatch(/\blearn\.|\bwo\.[a-z]/);
        expect(text, `${lang} ${id}`).not.toMatch(/undefined|NaN|\[object/);
        // … and after the control moved.
        expect(text, `${lang} ${id}: long float digits`).not.toMatch(/\d\.\d{6,}/);
        if (lang === 'ko') {
          // Cited sources (<cite>: authors and titles as published) and code are not Korean sentences.
          const koText = await page.evaluate(() => {
            const cites = [...document.querySelectorAll('.learn cite, .learn pre, .learn code')];
            cites.forEach((c) => { c.hidden = true; });
            const shown = document.querySelector('.learn').innerText;
            cites.forEach((c) => { c.hidden = false; });
            return shown;
          });
          const words = (koText.match(/[A-Za-z][A-Za-z0-9_.()'-]*/g) ?? []).filter((w) => !/[(_]/.test(w) && !/^e-?[0-9]+$/.test(w) && !NAMES.has(w.replace(/[.,)]+$/, '')) && w.length > 2);
          expect(words, `${id}: English words in Korean text`).toEqual([]);
        }
        // Its exercise's answer can be revealed, with numbers and no error (exercises*.js).
        await page.click('.learn-try .learn-ex-reveal summary');
        await page.waitForFunction(() => document.querySelector('.learn-try .learn-ex-answer')?.textContent);
        const answer = await page.textContent('.learn-try .learn-ex-answer');
        expect(answer, `${lang} ${id}: answer`).toMatch(lang === 'en' ? /^What you would see: .*\d/ : /^그 상태에서 보이는 것: .*\d/);
        expect(answer, `${lang} ${id}: answer`).not.toMatch(/could not be computed|계산하지 못했습니다|undefined|NaN|null/);
        // The explorer link carries this step's setting.
        expect(await page.getAttribute('.learn-explore', 'href'), id).toMatch(/^#/);
        if (i === 0 || id === 'rope' || id === 'scaling') await screenshot(page, `learn-${id}-${lang}`);
      }
      expect(formulas, 'steps with a formula').toBeGreaterThanOrEqual(5);
      expect(problems, 'axe-core: serious or critical violations, or a rule fixed once').toEqual([]);
      expect(logProblems(log)).toEqual({});
    });
  }

  it('sentences round their numbers: the RoPE step at base 100 (its question) says 0.0133 rad, not 0.013335214', async () => {
    await open('?lang=en#learn/rope', 'rope');
    const n = await drawn();
    await page.locator('[data-learn-control]').first().evaluate((el) => {
      el.value = '2';   // log10(100)
      el.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await page.waitForFunction((k) => Number(document.querySelector('.learn-figure')?.dataset.drawn || 0) > k, n);
    const text = await page.textContent('.learn-derived');
    expect(text).toContain('the slowest 0.0133 rad');
    expect(text).not.toMatch(/\d\.\d{6,}/);
  });

  it('the word-order step animates softmax on a row: scores, exponentials, the head\'s own weights', async () => {
    await open('?lang=en#learn/order', 'order');
    await page.selectOption('.learn select.wo-enc', 'alibi');
    await page.selectOption('.sm-query', '1');
    const want = await page.evaluate(`(async () => {
      const { createPE } = await import('./pe.js');
      const { orderSpec, demoHeads, headPlane } = await import('./views/attention/order.js');
      const pe = await createPE();
      const enc = { kind: 'alibi' };
      const r = pe.compute(orderSpec(['I', 'love', 'AI'], { encoding: enc, causal: false, ...demoHeads(enc) }));
      return Array.from(headPlane(r.data, r.shape, 0).subarray(3, 6));
    })()`);
    const values = () => page.evaluate(() => JSON.parse(document.querySelector('.wo-softmax').dataset.values));
    await page.waitForFunction(() => document.querySelector('.wo-softmax')?.dataset.stage === 'scores');
    const top = Math.max(...want);
    (await values()).forEach((v, j) => expect(v).toBeCloseTo(Math.log(want[j] / top), 12));
    // Play, with the reader's reduced motion: no transition, the stages follow at once.
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.click('.wo-softmax button:has-text("Play")');
    await page.waitForFunction(() => document.querySelector('.wo-softmax').dataset.stage === 'weights');
    // w_j / Σ w: the kernel's float32 weights sum to 1 within a few float32 ulps, hence 1e-6.
    (await values()).forEach((v, j) => expect(v).toBeCloseTo(want[j], 6));
    expect(await page.textContent('.sm-caption')).toMatch(/^3 of 3 · Each divided by the sum, [\d.]+: the attention weights, which add up to 1\. I 0\.\d+, love 0\.\d+, AI 0\.\d+\.$/);
    await page.emulateMedia({ reducedMotion: null });
  });

  it('the word-order step: the same words in another order are identical without positions, different with them', async () => {
    await open('?lang=en#learn/order', 'order');
    const fig = '.learn-figure';
    const measure = () => page.evaluate((s) => ({ ...document.querySelector(s).dataset }), fig);
    await page.waitForFunction((s) => document.querySelector(s)?.dataset.verdict, fig);
    let m = await measure();
    expect(m.verdict).toBe('bag');
    expect(Number(m.outDiff)).toBeLessThan(1e-6);
    expect(Number(m.weightDiff)).toBeLessThan(1e-6);
    expect(Number(m.sentenceDiff)).toBeLessThan(1e-6);   // the pooled sentence: a set of words
    // Token labels on both axes of both pictures.
    const labels = await page.$$eval(`${fig} .wo-fig`, (figs) => figs.slice(0, 2).map((f) => [...f.querySelectorAll('.wo-cols span')].map((s) => s.textContent)));
    expect(labels).toEqual([['I', 'love', 'AI'], ['AI', 'love', 'I']]);
    const a = await canvasStats(page, `${fig} .wo-fig:nth-child(1) canvas`);
    expect(a.distinct).toBeGreaterThan(2);
    // RoPE: the outputs part.
    let n = await drawn();
    await page.selectOption(`${fig} select.wo-enc`, 'rope');
    await page.waitForFunction(([s, k]) => Number(document.querySelector(s).dataset.drawn) > k, [fig, n]);
    m = await measure();
    expect(m.verdict).toBe('differs-encoding');
    expect(Number(m.outDiff)).toBeGreaterThan(1e-3);
    expect(Number(m.sentenceDiff)).toBeGreaterThan(1e-4);
    expect(await page.textContent(`${fig} .wo-verdict`)).toMatch(/^Different .*RoPE/);
    // Typed order: "love I AI" (not a reversal) with ALiBi and no mask differs; the reversal does not.
    n = await drawn();
    await page.selectOption(`${fig} select.wo-enc`, 'alibi');
    await page.waitForFunction(([s, k]) => Number(document.querySelector(s).dataset.drawn) > k, [fig, n]);
    expect((await measure()).verdict).toBe('distances');
    n = await drawn();
    await page.fill(`${fig} input.wo-text >> nth=1`, 'love I AI');
    await page.waitForFunction(([s, k]) => Number(document.querySelector(s).dataset.drawn) > k, [fig, n]);
    m = await measure();
    expect(m.verdict).toBe('differs-encoding');
    // ALiBi's steepest head (of its 8), so the change is one a learner can see, and the verdict
    // weighs it in percent and in words, never as a bare float.
    expect(m.head).toBe('0');
    expect(m.size).toBe('clear');
    expect(Number(m.outDiff)).toBeGreaterThan(0.05);
    const alibiVerdict = await page.textContent(`${fig} .wo-verdict`);
    expect(alibiVerdict).toMatch(/^Different to the model: ALiBi .* \d+ % of a word’s attention moves .*see it in the bars/);
    expect(alibiVerdict).not.toMatch(/\d\.\d{4,}/);
    expect(await page.textContent(`${fig} .wo-note`)).toMatch(/random and untrained.*steepest of its 8 heads \(m = 1\/2\)/);
    // The difference picture is coloured on the attention pictures' scale, not autoscaled to the
    // largest difference: its colour bar ends at ± the largest weight shown.
    const diffBar = await page.$$eval(`${fig} .wo-fig:nth-child(3) .wo-cbar-scale > span`, (s) => s.map((x) => x.textContent));
    const weightBar = await page.$$eval(`${fig} .wo-fig:nth-child(1) .wo-cbar-scale > span`, (s) => s.map((x) => x.textContent));
    expect(diffBar).toEqual([`−${weightBar[1]}`, weightBar[1]]);
    expect(Number(m.diffRange)).toBeGreaterThanOrEqual(Number(m.weightDiff));
    await screenshot(page, 'learn-order-alibi-en');
    // Dragging a word reorders the second sentence (here back to "I love AI": the same sentence).
    n = await drawn();
    await page.dragAndDrop(`${fig} .wo-chip >> nth=0`, `${fig} .wo-chip >> nth=1`);
    await page.waitForFunction(([s, k]) => Number(document.querySelector(s).dataset.drawn) > k, [fig, n]);
    expect(await page.inputValue(`${fig} input.wo-text >> nth=1`)).toBe('I love AI');
    expect((await measure()).verdict).toBe('same-sentence');
    // The keyboard moves a focused word too: "I" one place right.
    n = await drawn();
    await page.focus(`${fig} .wo-chip >> nth=0`);
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(([s, k]) => Number(document.querySelector(s).dataset.drawn) > k, [fig, n]);
    expect(await page.inputValue(`${fig} input.wo-text >> nth=1`)).toBe('love I AI');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('I');
    // Not a reordering: said so, and the last good pair stays.
    await page.fill(`${fig} input.wo-text >> nth=1`, 'I like AI');
    await page.waitForFunction((s) => document.querySelector(`${s} .wo-message`)?.textContent.includes('not a reordering'), fig);
    // The causal mask alone.
    n = await drawn();
    await page.fill(`${fig} input.wo-text >> nth=1`, 'AI love I');
    await page.waitForFunction(([s, k]) => Number(document.querySelector(s).dataset.drawn) > k, [fig, n]);
    n = await drawn();
    await page.selectOption(`${fig} select.wo-enc`, 'none');
    await page.waitForFunction(([s, k]) => Number(document.querySelector(s).dataset.drawn) > k, [fig, n]);
    n = await drawn();
    await page.check(`${fig} input.wo-causal`);
    await page.waitForFunction(([s, k]) => Number(document.querySelector(s).dataset.drawn) > k, [fig, n]);
    m = await measure();
    expect(m.verdict).toBe('differs-mask');
    report.push(`  word order on screen: "I love AI" vs "AI love I", largest change in a word's output with the causal mask alone ${Number(m.outDiff).toFixed(3)}`);
    expect(logProblems(log)).toEqual({});
  });
});
